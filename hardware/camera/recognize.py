"""Card recognition: find the corner indices of the face-up cards in a camera frame and read them.

The pipeline is classical location plus a small learned classifier:

1. *Glyph candidates*: an adaptive threshold in both polarities (dark print on a light face, light
   print on a dark face) gives connected components the size of an index character; the felt, the
   chips and the printed lines are mostly too big, too small or too thin to pass. Around a rank
   read with no suit in reach, or a suit with no rank, a finer threshold looks again for the
   other half of the index (a thin or faint rank beside a large pip falls under the coarse one).
2. *Classification*: each candidate is cut out as a square patch, normalised (print dark, face
   light, 32x32) with a second channel that keeps the red of the print or of the face, and run
   through ``model/cards.onnx`` with ``cv2.dnn``. The classes are the ranks (``6`` and ``9`` share
   a class, told apart later), the glyph ``1`` of a ten, the four suits and ``other``. The
   classifier is trained on patches cut at every rotation, so the card may lie at any angle; a
   candidate that looks like a rank with a suit in reach, and the nearest such suit, are read
   again turned by a half turn, and its class probabilities are the geometric mean of the two
   readings (a glyph must look the same both ways up to score high).
3. *Assembly*: every confident rank is paired with the nearest confident suit of a matching size,
   unless another rank lies nearer that suit (then the suit is that rank's, not this one's);
   the pair gives the card, its confidence (the product of both) and the direction of the index,
   from which a ``6`` is told from a ``9`` (where its loop lies, looked for again at a stricter
   threshold when blur has nearly shut it) and the card's quad is estimated.
   A confident rank with no suit in reach takes the suit of the pips on its own card face (the
   region of the face's shade around it), if they all agree and the face holds no other rank:
   some decks print the rank and the suit in different corners.
4. *Upright second reading*: the two glyphs of each index read beside each other are cut again,
   turned so that the line from rank to suit points down, and read by a second classifier
   trained on index glyphs upright only (``model/upright.onnx``; it tells a 6 from a 9). When it
   names the same rank and suit it is a second reading of the card (``1 - (1 - a)(1 - b)``);
   when it names another rank or suit surely, the card is that much less sure.
   The two corner indices of a card, or a repeated reading, collapse to one result per card; a
   card read at both its corners is surer (``1 - (1 - a)(1 - b)``), and only then is the
   threshold applied.

*In detail* (a picture, or a table lying still where the house asks for it), the frame is also
read enlarged one and a half times, for the indices too small for its own scale (ranks of 6-9
px); such a reading is kept unless the frame's own reading names another card at that index.
A window around each suit glyph, turned each of the ways its card's edges allow, is then read
whole, rank and suit together, by two networks trained apart (``model/index-1.onnx`` and
``model/index-2.onnx``): a card both name the same way up, surely, is read there, for the
indices whose rank is not cut out well enough to be read glyph by glyph. A reading still unsure
is read again by a network that sees its card whole, in the quad the reading gives it
(``model/view.onnx``: pips, colour, a court's picture, the other corner), and is surer where
that names the same card.

Face-down cards show no index and so never get a face.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera import CARD_RANK_HEIGHTS, DEFAULT_MIN_CONFIDENCE, rank_height
from hardware.camera.deck import Corner, Deck
from hardware.camera.deck import Glyph as DeckGlyph

MODEL_PATH = Path(__file__).resolve().parent / "model" / "cards.onnx"
UPRIGHT_PATH = MODEL_PATH.with_name("upright.onnx")
#: classifier classes, in output order
CLASSES: tuple[str, ...] = (
    "2", "3", "4", "5", "6", "7", "8", "T", "J", "Q", "K", "A", "1",
    "c", "d", "h", "s", "other",
)
#: classes of the upright classifier (``model/upright.onnx``), which reads a glyph of an index
#: turned upright: a 6 and a 9 are told apart
UPRIGHT_CLASSES: tuple[str, ...] = (
    "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "1",
    "c", "d", "h", "s", "other",
)
RANK_CLASSES = frozenset("2345678TJQKA")
SUIT_CLASSES = frozenset("cdhs")
_RANK_CLASS_IDS = np.array([i for i, c in enumerate(CLASSES) if c in RANK_CLASSES])
_SUIT_CLASS_IDS = np.array([i for i, c in enumerate(CLASSES) if c in SUIT_CLASSES])
_OTHER = CLASSES.index("other")
PATCH = 32
#: patches given to the classifier at a time: ``cv2.dnn`` reads them about a sixth faster a
#: patch in batches of 32 than of 128 or more (0.091 against 0.109 ms on the build machine)
NET_BATCH = 32
#: the first reading's probability from which a rank or suit candidate is read again turned
RECHECK_PROB = 0.3
#: the quarter turns at which it is read again (three, 1 2 3, read no more with the upright
#: second reading, for three times the patches: docs/recognition.md)
RECHECK_TURNS: tuple[int, ...] = (2,)
#: a frame read in detail (``Recognizer.read``) is also read enlarged this many times (cubic
#: interpolation): an index of 6-9 px is then cut out and paired as one of 9-14 px, which the
#: candidates' sizes, the thresholds' windows and the pairing rules are made for. None: never
DETAIL_SCALE: float | None = 1.5
#: of the enlarged reading, only cards whose rank is at least this size in the frame's own
#: pixels are kept: a smaller one is no glyph at the frame's scale (pieces of print)
DETAIL_SMALLEST = 6.0
#: nor is a card read enlarged whose rank lies within its own size of the rank of a reading
#: at the frame's own scale, of this confidence or more, that names another card: one index
#: read as two cards (a small spade read as a club, enlarged)
DETAIL_CONFLICT = 0.05
#: a card's enlarged reading counts only at this confidence or more (its reading at the frame's
#: own scale counts from the threshold, ``hardware.camera.DETAIL_MIN_CONFIDENCE`` for the
#: command line): below it, a small index suit read as another of its shape family enlarged is
#: as sure as the cards it adds (docs/recognition.md, step 7)
DETAIL_SURE = 0.992
#: and a reading at the frame's own scale is left out where the enlarged reading names another
#: card at the same index at this confidence or more (``_overruled``; None: never)
DETAIL_OVERRULES: float | None = 0.9995
#: the index networks (``model/index-1.onnx``, ``model/index-2.onnx``): in detail, a window
#: around each suit glyph is read whole, rank and suit together, by two networks trained apart
#: (``hardware.training.index``),
#: for the indices whose glyphs are not cut out well enough to be read one by one (thin strokes
#: broken by the threshold, shaded pips). The window spans ``INDEX_ACROSS`` suit sizes across
#: the card and ``INDEX_DOWN`` along it about the suit's centre (the rank above the suit, as
#: printed), is turned each of the four ways the card's edges allow (``_card_axis``) and cut to
#: ``INDEX_PX`` pixels square
INDEX_PATHS = (MODEL_PATH.with_name("index-1.onnx"), MODEL_PATH.with_name("index-2.onnx"))
INDEX_ACROSS = (-3.0, 1.4)
INDEX_DOWN = (-3.2, 1.0)
INDEX_PX = 40
#: the ranks of an index network, in output order (then "no index"), then its suits (then
#: "no index")
INDEX_RANKS = "23456789TJQKA"
INDEX_SUITS = "cdhs"
#: a card read from a window is placed as if its rank lay this many suit sizes above the suit
#: and were this many times as large (the printed decks measured: 1.2-1.5)
INDEX_RANK = 1.3
#: whether the suits found in the enlarged picture are anchors too (not only the frame's own)
INDEX_ENLARGED = False
#: suit glyphs first read at this probability or more are the windows' anchors
INDEX_ANCHOR = 0.5
#: a card is read from a window when both networks name it, the same way up, each at this
#: probability or more (the product of its rank's and its suit's); the second reads only the
#: windows the first names so (docs/recognition.md, step 7; None: never)
INDEX_SURE: float | None = 0.985
#: and, with the card-view network, from this probability (both networks naming the card) where
#: that network names it too in the view of its quad at ``VIEW_AGREE`` or more: the reading is
#: then that much surer, ``1 - (1 - a)(1 - b)`` (None: never)
INDEX_VIEWED: float | None = 0.8
#: the card-view network (``model/view.onnx``, ``hardware.training.view``): in detail, a card
#: read at ``VIEW_CHECK`` confidence (from, below) is read again whole, as its quad shows it (the
#: quad widened by ``VIEW_MARGIN`` of its size on each side, turned upright and cut to
#: ``VIEW_W`` x ``VIEW_H`` pixels): where it names the same card at ``VIEW_AGREE`` or more (its
#: rank's probability times its suit's), the reading is that much surer (``1 - (1 - a)(1 - b)``).
#: It sees what an index alone does not: the pips, the colour, the picture of a court, the other
#: corner
VIEW_PATH = MODEL_PATH.with_name("view.onnx")
VIEW_W, VIEW_H = 40, 56
VIEW_MARGIN = 0.06
VIEW_CHECK: tuple[float, float] | None = (0.1, 0.999)
VIEW_AGREE = 0.9
#: in detail, a rank read at ``LONE_RANK`` or more with no card read near it (no reading at
#: ``LONE_NEAR`` or more within ``LONE_REACH`` of its sizes, nor one of its rank whose quad holds
#: it) and whose card's down is told (``_rank_down``) has its card's quad, as its index gives it,
#: read by the card-view network: a card of its rank named there at ``LONE_VIEW`` or more is
#: read (``lone_rank_reads``; None: never). A 6 or 9 is left out: turned half round, one is
#: the other
LONE_VIEW: float | None = 0.99
LONE_RANK = 0.5
LONE_NEAR = 0.5
LONE_REACH = 2.0
#: size of an index glyph accepted as a candidate, in pixels
MIN_GLYPH, MAX_GLYPH = 6, 44
#: a BGR or grey picture as OpenCV returns it
Image = npt.NDArray[Any]


class RecognitionError(ValueError):
    """An image that cannot be recognised (not decodable, wrong shape)."""


@dataclass(frozen=True, slots=True)
class Glyph:
    """One candidate glyph: its bounding box, its pixel mask's centroid and its polarity."""

    x: int
    y: int
    w: int
    h: int
    cx: float
    cy: float
    dark: bool  # dark print on a light face
    label: str = "other"
    prob: float = 0.0
    #: centroid of the glyph's enclosed holes (for 6/9), or None
    hole: tuple[float, float] | None = None
    #: one half of a candidate cut at its waist (``waist_halves``): read only as a sure rank
    #: (for the windows below it) or with the other half of its cut (``_halves_paired``)
    half: bool = False
    #: the two halves of one cut share this number (above 0)
    cut: int = 0
    #: the suit it looks most like and how much, whatever it was read as (a pip read ``other``
    #: may still look like a suit)
    suit: str = ""
    suit_prob: float = 0.0
    #: the longer side of its box (set from it; the pairing rules ask for it thousands of times
    #: a frame)
    size: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", float(max(self.w, self.h)))


@dataclass(frozen=True, slots=True)
class CardReading:
    """A face-up card read from its corner index."""

    card: str
    confidence: float
    quad: tuple[tuple[float, float], ...]
    index_center: tuple[float, float]
    #: the index corner it was read from, where its glyphs are known (None: told from the quad
    #: by :func:`corner_of`)
    corner: Corner | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "confidence": round(self.confidence, 4),
            "quad": [[round(x, 1), round(y, 1)] for x, y in self.quad],
        }


@dataclass(slots=True)
class FrameResult:
    cards: list[CardReading] = field(default_factory=list)
    #: index readings below the confidence threshold (for display as "unknown")
    unknown: int = 0
    #: the index corners found and not named (the best unsure reading of each), for the dealer
    #: to name by hand and the deck to learn from
    unread: list[Corner] = field(default_factory=list)


def corner_of(reading: CardReading) -> Corner:
    """The index corner ``reading`` was read from: its own, or one told from its quad (the rank
    at the index centre, as large as the quad says, no suit glyph known)."""
    if reading.corner is not None:
        return reading.corner
    q = reading.quad
    dx = (q[3][0] + q[2][0] - q[0][0] - q[1][0]) / 2.0
    dy = (q[3][1] + q[2][1] - q[0][1] - q[1][1]) / 2.0
    n = math.hypot(dx, dy) or 1.0
    size = rank_height(q)
    return Corner(DeckGlyph(*reading.index_center, size), None, (dx / n, dy / n), True, q)


def _components(binary: Image, dark: bool) -> list[Glyph]:
    """The connected components of a binary picture that have the size and fill of a glyph."""
    try:
        # 16-bit labels take a quarter less time; a picture of more components needs 32 bits
        _count, _labels, stats, cents = cv2.connectedComponentsWithStats(
            binary, connectivity=8, ltype=cv2.CV_16U)
    except cv2.error:
        _count, _labels, stats, cents = cv2.connectedComponentsWithStats(
            binary, connectivity=8, ltype=cv2.CV_32S)
    return _glyphs_of(stats[1:], cents[1:], dark)


def _glyphs_of(stats: Image, cents: Image, dark: bool) -> list[Glyph]:
    """Of connected components (their rows of ``connectedComponentsWithStats``' stats and
    centroids), those that have the size and fill of a glyph, in their order."""
    x, y, w, h, area = (stats[:, i] for i in range(5))
    side, fill = np.maximum(w, h), area / (w * h)
    keep = np.flatnonzero((side >= MIN_GLYPH) & (side <= MAX_GLYPH) & (area >= 10)
                          & (np.minimum(w, h) >= 2) & (fill <= 0.92) & (fill >= 0.12))
    return [Glyph(int(x[i]), int(y[i]), int(w[i]), int(h[i]), float(cents[i][0]),
                  float(cents[i][1]), dark) for i in keep]


def candidate_glyphs(gray: Image) -> list[Glyph]:
    """Connected components of index-character size, in both polarities; light ones also from
    a stricter threshold (``STRICT_LIGHT_C``), where the first finds none."""
    # an adaptive threshold (mean of 31 x 31, 12 below it), its two polarities each other's
    # complement; computed from the mean as cv2.adaptiveThreshold does, the mean kept for the
    # stricter threshold: src - mean > -12, that is src >= mean - 11 (saturated at 0)
    mean = cv2.boxFilter(gray, -1, (31, 31), borderType=cv2.BORDER_REPLICATE)
    light = cv2.compare(gray, cv2.subtract(mean, np.full_like(mean, 11)), cv2.CMP_GE)
    found = _components(cv2.bitwise_not(light), True) + _components(light, False)
    if STRICT_LIGHT_C is not None:
        strict = cv2.compare(gray, cv2.add(mean, np.full_like(mean, -STRICT_LIGHT_C)),
                             cv2.CMP_GT)
        # not yet read, any candidate much larger than a glyph inside it may be print joined
        found += _standing_out(gray, mean, _unheld(_components(strict, False), found,
                                                   np.ones(len(found), bool)))
    return found


def _standing_out(gray: Image, mean: Image, glyphs: list[Glyph]) -> list[Glyph]:
    """The light glyphs that stand out from a darker face: the neighbourhood's mean at the
    glyph lies at least ``STRICT_STANDS_OUT`` of the glyph's brightest pixel below it (a light
    glyph on a dark face, not a piece of light face between dark print)."""
    if not glyphs:
        return []
    top = np.array([int(gray[g.y:g.y + g.h, g.x:g.x + g.w].max()) for g in glyphs], np.float64)
    face = mean[np.array([int(g.cy) for g in glyphs]), np.array([int(g.cx) for g in glyphs])]
    keep = top - face >= STRICT_STANDS_OUT * top
    return [g for g, k in zip(glyphs, keep, strict=True) if k]


#: light print on a dark face is also cut out where it stands this far above its neighbourhood's
#: mean (the offset of an adaptive threshold: negative is above). The first threshold, 12 below
#: the mean, keeps the face around such print when a lit border or other print nearby lifts the
#: mean, and the print is then no glyph of its own. None: no second threshold.
STRICT_LIGHT_C: int | None = -8
#: a glyph of the stricter threshold is kept when the mean at its centre lies this share of its
#: brightest pixel below that pixel (``_standing_out``)
STRICT_STANDS_OUT = 0.3


#: the finer binarisation looked at around a rank or suit read with no partner in reach: a small
#: window and a small offset keep thin, faint or blurred print that a large pip nearby pulls
#: under the coarse threshold
FINE_BLOCK, FINE_C = 11, 6
#: how far around such a glyph the finer binarisation is looked at, in glyph sizes
FINE_REACH = 3.0
FINE_CANDIDATES = True
#: a candidate read ``other`` (or not read yet, for the stricter threshold) this many times the
#: area of a glyph found inside it does not hold that glyph (the coarse threshold joined it to a
#: large pip beside it); None: it does
HELD_AREA: float | None = 8.0


def _boxes(glyphs: list[Glyph]) -> npt.NDArray[np.int64]:
    return np.array([(g.x, g.y, g.x + g.w, g.y + g.h) for g in glyphs], np.int64).reshape(-1, 4)


def _lonely_zones(gray: Image, lonely: list[Glyph]
                  ) -> Iterator[tuple[bool, int, int, Image, float]]:
    """The parts of the frame around ``lonely`` glyphs (``FINE_REACH`` of their sizes each
    way), by polarity: windows that overlap or touch in groups, each group within the box that
    holds it (not all in one box: a frame's lonely glyphs lie far apart). Each as its
    polarity, its box's corner, the mask of its windows in that box and the size of the
    smallest lonely glyph of its polarity."""
    for dark in (True, False):
        seeds = [g for g in lonely if g.dark == dark]
        if not seeds:
            continue
        windows = []
        for g in seeds:
            r = int(FINE_REACH * g.size)
            cx, cy = int(g.x + g.w / 2), int(g.y + g.h / 2)
            windows.append((max(cx - r, 0), max(cy - r, 0), min(cx + r, gray.shape[1]),
                            min(cy + r, gray.shape[0])))
        size = min(g.size for g in seeds)
        for group in _touching(windows):
            x0, y0 = min(w[0] for w in group), min(w[1] for w in group)
            x1, y1 = max(w[2] for w in group), max(w[3] for w in group)
            zone = np.zeros((y1 - y0, x1 - x0), np.uint8)
            for wx0, wy0, wx1, wy1 in group:
                zone[wy0 - y0:wy1 - y0, wx0 - x0:wx1 - x0] = 255
            yield dark, x0, y0, zone, size


def fine_candidates(gray: Image, lonely: list[Glyph], have: list[Glyph],
                    loose: Sequence[bool] | npt.NDArray[np.bool_] = ()) -> list[Glyph]:
    """Candidates from a finer binarisation around ``lonely`` glyphs (a rank with no suit in
    reach, or a suit with no rank), other than those ``have`` already holds (``_unheld``; those
    of ``have`` marked in ``loose`` hold only glyphs of at least 1/``HELD_AREA`` their area)."""
    out: list[Glyph] = []
    for dark, x0, y0, zone, _size in _lonely_zones(gray, lonely):
        h, w = zone.shape
        mode = cv2.THRESH_BINARY_INV if dark else cv2.THRESH_BINARY
        binary = cv2.bitwise_and(zone, cv2.adaptiveThreshold(
            gray[y0:y0 + h, x0:x0 + w], 255, cv2.ADAPTIVE_THRESH_MEAN_C, mode, FINE_BLOCK,
            FINE_C))
        out.extend(Glyph(g.x + x0, g.y + y0, g.w, g.h, g.cx + x0, g.cy + y0, dark)
                   for g in _components(binary, dark))
    return _unheld(out, have, loose)


def line_candidates(gray: Image, lonely: list[Glyph], have: list[Glyph],
                    loose: Sequence[bool] | npt.NDArray[np.bool_] = ()) -> list[Glyph]:
    """Candidates around ``lonely`` glyphs cut from the coarse thresholds' print once the long
    straight lines in it are taken out (``_line_cut``), other than those ``have`` holds."""
    out: list[Glyph] = []
    for dark, x0, y0, zone, size in _lonely_zones(gray, lonely):
        h, w = zone.shape
        out.extend(Glyph(g.x + x0, g.y + y0, g.w, g.h, g.cx + x0, g.cy + y0, dark)
                   for g in _line_cut(gray[y0:y0 + h, x0:x0 + w], zone, dark, size))
    return _unheld(out, have, loose)


#: around a lonely glyph, print joined to a card's edge (a lit border, the felt beside it) is cut
#: apart from it: the straight lines of the coarse thresholds' picture there that are this many
#: lonely glyph sizes long or longer are taken out, this many pixels wide (``_line_cut``);
#: None: not
LINE_CUT: int | None = 3
LINE_CUT_LONG = 3.0
#: the lines are looked for in the picture's thin strokes only: what an opening of this many
#: pixels takes away (a solid region holds a line any way)
LINE_THIN = 7
#: directions the lines are looked for in (a half turn in this many steps)
LINE_STEPS = 90
#: a piece touching the lines at places further apart than this share of its size, or touching
#: two lines this many degrees apart or more, is a part of a border (a rounded corner) and no
#: glyph
LINE_SPREAD = 0.8
LINE_CORNER = 30.0
#: a glyph so cut is kept only when read as a rank or suit this surely (the pieces of a border
#: read as a J, a 7 or an A at 0.9-0.98)
LINE_KEEP = 0.99
#: a suit with another suit within this ratio of its size near it is a pip of a card's body
#: (``_not_pips``): no line is looked for around it
LINE_PIPS = 1.4


def _not_pips(seeds: list[Glyph], glyphs: list[Glyph], top: npt.NDArray[np.intp]
              ) -> list[Glyph]:
    """Of lonely glyphs, those that are no pip of a card's body: a glyph with a suit of about
    its size (within a ratio of ``LINE_PIPS``) within 2.5 of its sizes is one of a face's pips
    (the rank they lack is printed in the card's corner). They are most of the lonely glyphs,
    and most of the work of looking for lines around them."""
    suits = [g for g, k in zip(glyphs, top, strict=True) if CLASSES[int(k)] in SUIT_CLASSES]
    out = []
    for g in seeds:
        alike = any(o is not g and 1 / LINE_PIPS <= o.size / g.size <= LINE_PIPS
                    and math.hypot(o.cx - g.cx, o.cy - g.cy) <= 2.5 * g.size for o in suits)
        if not alike:
            out.append(g)
    return out


def _line_cut(win: Image, zone: Image, dark: bool, size: float) -> list[Glyph]:
    """The glyphs of ``win`` (within ``zone``) in one polarity that the coarse thresholds join
    to a straight line of ``LINE_CUT_LONG`` times ``size`` or longer: the pieces touching the
    lines once those are taken out, but those that are a part of a border themselves."""
    mean = cv2.boxFilter(win, -1, (31, 31), borderType=cv2.BORDER_REPLICATE)
    light = cv2.compare(win, cv2.subtract(mean, np.full_like(mean, 11)), cv2.CMP_GE)
    pictures = [cv2.bitwise_not(light)] if dark else [light]
    if not dark and STRICT_LIGHT_C is not None:
        pictures.append(cv2.compare(win, cv2.add(mean, np.full_like(mean, -STRICT_LIGHT_C)),
                                    cv2.CMP_GT))
    thick = LINE_CUT or 1
    long_ = max(int(LINE_CUT_LONG * size), 10)
    out: list[Glyph] = []
    for binary in pictures:
        binary = cv2.bitwise_and(binary, zone)
        thin = cv2.bitwise_and(binary, cv2.bitwise_not(cv2.morphologyEx(
            binary, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT,
                                                              (LINE_THIN, LINE_THIN)))))
        lines = cv2.HoughLinesP(thin, 1, np.pi / LINE_STEPS, threshold=long_,
                                minLineLength=long_, maxLineGap=2)
        if lines is None:
            continue
        ends = lines.reshape(-1, 4)
        cut = np.zeros_like(binary)
        which = np.zeros(binary.shape, np.int32)  # each line's number, a little wider
        for k, (x1, y1, x2, y2) in enumerate(ends):
            cv2.line(cut, (int(x1), int(y1)), (int(x2), int(y2)), 255, thick)
            cv2.line(which, (int(x1), int(y1)), (int(x2), int(y2)), k + 1, thick + 2)
        angle = np.degrees(np.arctan2(ends[:, 3] - ends[:, 1], ends[:, 2] - ends[:, 0])) % 180.0
        binary = cv2.bitwise_and(binary, cv2.bitwise_not(cut))
        # where each piece touches the lines: a glyph joined to a border touches it in one place
        # (or on both sides of a line through it), a rounded corner of the border at both ends
        near = cv2.bitwise_and(binary, cv2.dilate(cut, np.ones((3, 3), np.uint8)))
        _n, labels, stats, cents = cv2.connectedComponentsWithStats(binary, connectivity=8,
                                                                    ltype=cv2.CV_32S)
        _m, contacts, _s, spots = cv2.connectedComponentsWithStats(near, connectivity=8,
                                                                   ltype=cv2.CV_32S)
        touching = near > 0
        piece_at, contact_at, line_at = labels[touching], contacts[touching], which[touching]
        kept = np.zeros(len(stats), bool)
        side = stats[:, 2:4].max(axis=1)
        for piece in np.unique(piece_at[(side[piece_at] >= MIN_GLYPH)
                                        & (side[piece_at] <= MAX_GLYPH)]):
            mine = piece_at == piece
            at = spots[np.unique(contact_at[mine])]
            if float(np.ptp(at, axis=0).max()) > LINE_SPREAD * float(stats[piece, 2:4].max()):
                continue
            seen = angle[np.unique(line_at[mine & (line_at > 0)]) - 1]
            turn = np.abs(seen[:, None] - seen[None, :])
            if len(seen) > 1 and float(np.minimum(turn, 180.0 - turn).max()) >= LINE_CORNER:
                continue
            kept[piece] = True
        # only these pieces (whole components of the picture cut): the rest is as the coarse
        # threshold found it
        pieces = np.flatnonzero(kept)
        out.extend(_glyphs_of(stats[pieces], cents[pieces], dark))
    return out


#: a candidate read ``other`` that is this much longer than wide (its print's smallest enclosing
#: rectangle) may be a rank and its suit joined by blur: it is cut in two across its narrowest
#: waist, and a half read as a rank at ``WINDOW_RANK`` or more has its suit looked for in windows
#: below it (``_window_read``); a half is no glyph for any other reading but its own cut's
#: (``SPLIT_PAIRS``)
SPLIT_WAIST = True
SPLIT_ASPECT = (1.5, 3.0)
#: its long side in pixels
SPLIT_LONG = (12.0, 48.0)
#: a candidate read as anything below this is cut as well (a 5 joined to its club read as a
#: club at 0.59)
SPLIT_BELOW = 0.9
#: when the candidate's print, at its own box's threshold, is not one elongated piece, its
#: pieces of this share of the largest one's area or more are cut together
SPLIT_PART = 0.3
#: a cut whose halves read as a rank and a suit, each at this much or more, is an index read
#: only where its upright reading agrees (``_halves_paired``)
SPLIT_PAIRS = True
SPLIT_PAIR_PROB = 0.5
#: the suit half of such a cut, read ``other`` once read again turned, still counts as the suit
#: it looks most like when it looks like it this much (the upright reading decides)
SPLIT_PAIR_LOOKS = 0.05


def waist_halves(gray: Image, g: Glyph) -> list[Glyph]:
    """The two halves of a candidate's print cut across its long axis where it is narrowest
    (within its middle two fifths), or none when it is no such elongated glyph. The print is
    its largest piece in the candidate's box; when that is not elongated, its pieces of
    ``SPLIT_PART`` of that one's area or more, together (a rank and its suit joined only at the
    candidate's threshold fall apart at the box's own)."""
    if math.hypot(g.w, g.h) < SPLIT_LONG[0]:
        return []  # no print in the box is as long as its diagonal
    patch = gray[g.y:g.y + g.h, g.x:g.x + g.w]
    mode = cv2.THRESH_BINARY_INV if g.dark else cv2.THRESH_BINARY
    _, mask = cv2.threshold(patch, 0, 255, mode | cv2.THRESH_OTSU)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return []
    areas = stats[1:, cv2.CC_STAT_AREA]
    largest = 1 + int(np.argmax(areas))
    pieces = 1 + np.flatnonzero(areas >= SPLIT_PART * areas.max())
    for keep in ([largest], pieces) if len(pieces) > 1 else ([largest],):
        halves = _cut_at_waist(labels, keep, g)
        if halves:
            return halves
    return []


def _cut_at_waist(labels: Image, keep: Sequence[int] | npt.NDArray[np.intp], g: Glyph
                  ) -> list[Glyph]:
    """The two halves of the pieces ``keep`` of a candidate's print (``labels``, its box's
    connected pieces) cut where they are narrowest, or none (``waist_halves``)."""
    ys, xs = np.nonzero(labels == keep[0] if len(keep) == 1 else np.isin(labels, keep))
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    (cx, cy), (w, h), angle = cv2.minAreaRect(pts)
    long, short = max(w, h), max(min(w, h), 1.0)
    if not (SPLIT_ASPECT[0] <= long / short <= SPLIT_ASPECT[1]
            and SPLIT_LONG[0] <= long <= SPLIT_LONG[1]):
        return []
    a = math.radians(angle)
    axis = np.array([math.cos(a), math.sin(a)] if w >= h else [-math.sin(a), math.cos(a)],
                    np.float32)
    t = (pts - np.array([cx, cy], np.float32)) @ axis
    # the print's width along the axis, pixel by pixel (bins of 1 from the floor of its start)
    start = math.floor(float(t.min()))
    bins = math.ceil(float(t.max())) - start  # the last bin holds its upper edge too
    if bins < 1:
        return []
    counts = np.bincount(np.minimum((t - start).astype(np.intp), bins - 1), minlength=bins)
    k0, k1 = int(len(counts) * 0.3), int(len(counts) * 0.7)
    if k1 <= k0:
        return []
    cut = float(start + k0 + int(np.argmin(counts[k0:k1]))) + 0.5
    out = []
    for part in (pts[t < cut], pts[t >= cut]):
        if len(part) < 5:
            return []
        lo, hi, mid = part.min(axis=0), part.max(axis=0), part.mean(axis=0)
        out.append(Glyph(g.x + int(lo[0]), g.y + int(lo[1]), int(hi[0] - lo[0]) + 1,
                         int(hi[1] - lo[1]) + 1, g.x + float(mid[0]), g.y + float(mid[1]),
                         g.dark, half=True))
    return out


def _touching(boxes: list[tuple[int, int, int, int]]) -> list[list[tuple[int, int, int, int]]]:
    """Boxes (x0, y0, x1, y1) in groups, each box overlapping or touching another of its group
    (so that no glyph crosses from one group into another)."""
    group = list(range(len(boxes)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i, a in enumerate(boxes):
        for j in range(i):
            b = boxes[j]
            if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                group[root(i)] = root(j)
    out: dict[int, list[tuple[int, int, int, int]]] = {}
    for i, box in enumerate(boxes):
        out.setdefault(root(i), []).append(box)
    return list(out.values())


def _unheld(found: list[Glyph], have: list[Glyph],
            loose: Sequence[bool] | npt.NDArray[np.bool_] = ()) -> list[Glyph]:
    """The glyphs of ``found`` that ``have`` does not already hold: a box sharing more than 30 %
    of the smaller one with a box of the same polarity is already held, but by a glyph of
    ``have`` marked in ``loose`` only when that glyph is no more than ``HELD_AREA`` times its
    area."""
    out: list[Glyph] = []
    marked = np.zeros(len(have), bool)
    if HELD_AREA is not None and len(loose):
        marked[:] = loose
    for dark in (True, False):
        mine = [g for g in found if g.dark == dark]
        polarity = np.array([g.dark == dark for g in have], bool)
        held = _boxes([g for g in have if g.dark == dark])
        if not mine or not len(held):
            out.extend(mine)
            continue
        new = _boxes(mine)
        iw = np.minimum(new[:, None, 2], held[None, :, 2]) - np.maximum(new[:, None, 0],
                                                                         held[None, :, 0])
        ih = np.minimum(new[:, None, 3], held[None, :, 3]) - np.maximum(new[:, None, 1],
                                                                         held[None, :, 1])
        area_new = (new[:, 2] - new[:, 0]) * (new[:, 3] - new[:, 1])
        area_held = (held[:, 2] - held[:, 0]) * (held[:, 3] - held[:, 1])
        shared = np.where((iw > 0) & (ih > 0), iw * ih, 0)
        taken = np.asarray(shared > 0.3 * np.minimum(area_new[:, None], area_held[None, :]))
        if marked.any():
            taken &= ~marked[polarity][None, :] \
                | (area_held[None, :] <= (HELD_AREA or 0.0) * area_new[:, None])
        out.extend(mine[i] for i in np.flatnonzero(~taken.any(axis=1)))
    return out


def _with_grey(image: Image, gray: Image) -> Image:
    """The colour picture with its grey as a fourth channel (what ``cv2.merge`` gives, in less
    than half its time: 1.0 against 2.4 ms a 1280x720 frame)."""
    both = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    cv2.insertChannel(gray, both, 3)
    return both


def glyph_patches(image: Image, gray: Image, glyphs: list[Glyph]) -> npt.NDArray[np.float32]:
    """The normalised 2x32x32 patch around each glyph: print dark on light, then redness. The
    patch is a square of 1.5 glyph sizes (at least 12 px)."""
    return _patches(_with_grey(image, gray), glyphs)


def _patches(both: Image, glyphs: list[Glyph],
             downs: list[tuple[float, float]] | None = None) -> npt.NDArray[np.float32]:
    """``glyph_patches`` from the colour and grey channels merged into one picture, which are
    cut together in one pass; with ``downs`` (a unit vector per glyph: the direction of its
    index from rank to suit), each patch is turned so that this direction points down, the
    glyph upright as printed."""
    cuts = np.empty((len(glyphs), PATCH, PATCH, 4), np.uint8)
    for k, g in enumerate(glyphs):
        side = max(g.size * 1.5, 12.0)
        cx, cy = g.x + g.w / 2.0, g.y + g.h / 2.0
        scale = PATCH / side
        dx, dy = (0.0, 1.0) if downs is None else downs[k]
        # the patch's axes in the frame: its y axis along ``down``
        xx, xy, yx, yy = scale * dy, -scale * dx, scale * dx, scale * dy
        m = np.array([[xx, xy, PATCH / 2 - xx * cx - xy * cy],
                      [yx, yy, PATCH / 2 - yx * cx - yy * cy]], dtype=np.float64)
        flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        cuts[k] = cv2.warpAffine(both, m, (PATCH, PATCH), flags=flags,
                                 borderMode=cv2.BORDER_REPLICATE)
    # the two channels written in place into the batch (a seventh of the time of whole-array
    # steps: 0.75 against 5.0 ms for a frame's 126 candidates)
    out = np.empty((len(glyphs), 2, PATCH, PATCH), np.float32)
    p = out[:, 0]
    np.copyto(p, cuts[:, :, :, 3])
    light = np.array([not g.dark for g in glyphs], bool)
    p[light] = 255.0 - p[light]
    lo, hi = p.min(axis=(1, 2), keepdims=True), p.max(axis=(1, 2), keepdims=True)
    p -= lo
    p /= np.maximum(hi - lo, 16.0)
    red = out[:, 1]
    np.subtract(cuts[:, :, :, 2], np.maximum(cuts[:, :, :, 0], cuts[:, :, :, 1]), out=red,
                dtype=np.float32)
    red /= 128.0
    np.clip(red, -1.0, 1.0, out=red)
    return out


def _holes(binary_patch: Image) -> tuple[float, float] | None:
    contours, hierarchy = cv2.findContours(binary_patch, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return None
    best: tuple[float, float, float] | None = None
    for i, h in enumerate(hierarchy[0]):
        if h[3] < 0:
            continue
        mom = cv2.moments(contours[i])
        if mom["m00"] <= 0.5:
            continue
        area = mom["m00"]
        if best is None or area > best[2]:
            best = (mom["m10"] / area, mom["m01"] / area, area)
    return None if best is None else (best[0], best[1])


def glyph_hole(gray: Image, g: Glyph) -> tuple[float, float] | None:
    """Centroid (image coordinates) of the largest hole inside a glyph, e.g. the loop of a 6."""
    pad = 2
    x0, y0 = max(g.x - pad, 0), max(g.y - pad, 0)
    x1, y1 = min(g.x + g.w + pad, gray.shape[1]), min(g.y + g.h + pad, gray.shape[0])
    crop = gray[y0:y1, x0:x1]
    if crop.size == 0:
        return None
    scale = 4
    big = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    if not g.dark:
        big = 255 - big
    otsu, binary = cv2.threshold(big, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    hole = _holes(binary)
    if hole is None:
        # a loop blurred nearly shut still shows at a stricter threshold (less counts as print)
        strict = otsu - 0.2 * (otsu - float(big.min()))
        _, binary = cv2.threshold(big, strict, 255, cv2.THRESH_BINARY_INV)
        hole = _holes(binary)
    if hole is None:
        return None
    return (x0 + hole[0] / scale, y0 + hole[1] / scale)


def _read_as(g: Glyph, probs: npt.NDArray[np.float32]) -> Glyph:
    """The glyph as the first classifier's ``probs`` read it: its likeliest class, and the suit
    it looks most like."""
    k = int(probs.argmax())
    s = int(_SUIT_CLASS_IDS[int(probs[_SUIT_CLASS_IDS].argmax())])
    return replace(g, label=CLASSES[k], prob=float(probs[k]), suit=CLASSES[s],
                   suit_prob=float(probs[s]))


def check_frame(image: Any) -> None:
    """Raise :class:`RecognitionError`, saying what is wrong, unless ``image`` is a colour frame
    that :meth:`Recognizer.read` can read."""
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        raise RecognitionError("expected a colour (BGR) image of shape (height, width, 3)")
    if image.size == 0:
        raise RecognitionError(f"the image is empty (shape {image.shape}): expected a colour "
                               "(BGR) image of shape (height, width, 3)")


def _read_net(path: Path) -> Any:
    """An ONNX classifier for ``cv2.dnn``, on OpenCV's classic engine where the engine can be
    chosen (OpenCV 4.10 and later; it runs these small networks faster than the new one)."""
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if classic is not None:
        return cv2.dnn.readNetFromONNX(str(path), engine=classic)
    return cv2.dnn.readNetFromONNX(str(path))


def _softmax(logits: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs: npt.NDArray[np.float32] = e / e.sum(axis=1, keepdims=True)
    return probs


def _forward(net: Any, batch: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A network's outputs for a batch, read ``NET_BATCH`` at a time."""
    out: list[npt.NDArray[np.float32]] = []
    for start in range(0, len(batch), NET_BATCH):
        net.setInput(np.ascontiguousarray(batch[start:start + NET_BATCH]))
        out.append(net.forward().astype(np.float32))
    return np.concatenate(out)


def _softmax_forward(net: Any, batch: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A classifier's probabilities for a batch of patches, read ``NET_BATCH`` at a time."""
    return _softmax(_forward(net, batch))


class Recognizer:
    """Reads the face-up cards of a frame. Thread-compatible: one instance per thread."""

    def __init__(self, model_path: Path | str = MODEL_PATH,
                 min_confidence: float = DEFAULT_MIN_CONFIDENCE,
                 upright_path: Path | str | None = UPRIGHT_PATH,
                 index_paths: Sequence[Path | str] | None = INDEX_PATHS,
                 view_path: Path | str | None = VIEW_PATH) -> None:
        path = Path(model_path)
        if not path.is_file():
            raise FileNotFoundError(f"card model not found: {path}")
        self.net = _read_net(path)
        self.min_confidence = min_confidence
        #: the networks' files (another recogniser reading as this one is made of them)
        self.model_paths: tuple[Path, Path | str | None, tuple[Path | str, ...] | None,
                                Path | str | None] = (
            path, upright_path, None if index_paths is None else tuple(index_paths), view_path)
        #: the upright classifier (None: every glyph is read at any angle only)
        self.upright_net: Any = None
        if upright_path is not None:
            if not Path(upright_path).is_file():
                raise FileNotFoundError(f"upright card model not found: {upright_path}")
            self.upright_net = _read_net(Path(upright_path))
        #: the index networks, read in detail only (none: no window is read whole)
        self.index_nets: list[Any] = []
        for index_path in index_paths or ():
            if not Path(index_path).is_file():
                raise FileNotFoundError(f"index model not found: {index_path}")
            self.index_nets.append(_read_net(Path(index_path)))
        #: the card-view network, read in detail only (None: no card is read again whole)
        self.view_net: Any = None
        if view_path is not None:
            if not Path(view_path).is_file():
                raise FileNotFoundError(f"card-view model not found: {view_path}")
            self.view_net = _read_net(Path(view_path))

    def twin(self) -> Recognizer:
        """Another recogniser reading as this one does, with networks of its own (for another
        thread: a ``cv2.dnn`` network is read by one thread at a time)."""
        return Recognizer(self.model_paths[0], self.min_confidence, self.model_paths[1],
                          self.model_paths[2], self.model_paths[3])

    def read_upright(self, both: Image, glyphs: list[Glyph], downs: list[tuple[float, float]]
                     ) -> npt.NDArray[np.float32]:
        """The upright classifier's probabilities for each glyph, turned so that its ``down`` (a
        unit vector in the frame) points down; ``both`` is the colour picture with its grey
        channel merged, as :meth:`classify` cuts it."""
        return _softmax_forward(self.upright_net, _patches(both, glyphs, downs))

    def read_glyphs(self, both: Image, glyphs: list[Glyph]) -> list[Glyph]:
        """Each glyph with the first classifier's label and probability, read once as cut."""
        if not glyphs:
            return []
        probs = self._probabilities(_patches(both, glyphs))
        return [_read_as(g, p) for g, p in zip(glyphs, probs, strict=True)]

    def _probabilities(self, batch: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        return _softmax_forward(self.net, batch)

    def classify(self, image: Image, gray: Image, glyphs: list[Glyph],
                 both: Image | None = None) -> list[Glyph]:
        """Each glyph with its label and probability; ``both`` is the colour picture with its
        grey channel merged (made here when not given)."""
        if not glyphs:
            return []
        if both is None:
            both = _with_grey(image, gray)
        batch = _patches(both, glyphs)
        probs = self._probabilities(batch)
        if FINE_CANDIDATES:
            lonely = _lonely(glyphs, probs.argmax(axis=1), probs.max(axis=1))
            extra = fine_candidates(gray, [glyphs[i] for i in lonely], glyphs,
                                    probs.argmax(axis=1) == _OTHER) if len(lonely) \
                else []
            if extra:
                more = _patches(both, extra)
                batch = np.concatenate([batch, more])
                probs = np.concatenate([probs, self._probabilities(more)])
                glyphs = glyphs + extra
            # print run into a line: around the lonely glyphs that are no pips
            seeds = _not_pips([glyphs[i] for i in lonely], glyphs, probs.argmax(axis=1)) \
                if len(lonely) and LINE_CUT is not None else []
            cut = line_candidates(gray, seeds, glyphs, probs.argmax(axis=1) == _OTHER) \
                if seeds else []
            if cut:
                more = _patches(both, cut)
                read = self._probabilities(more)
                top_read = read.argmax(axis=1)
                keep = [i for i in range(len(cut)) if top_read[i] != _OTHER
                        and float(read[i].max()) >= LINE_KEEP]
                if keep:
                    batch = np.concatenate([batch, more[keep]])
                    probs = np.concatenate([probs, read[keep]])
                    glyphs = glyphs + [cut[i] for i in keep]
        if SPLIT_WAIST:
            unsure = (probs.argmax(axis=1) == _OTHER) | (probs.max(axis=1) < SPLIT_BELOW)
            halves = [replace(h, cut=1 + int(i)) for i in np.flatnonzero(unsure)
                      for h in waist_halves(gray, glyphs[int(i)])]
            if halves:
                more = _patches(both, halves)
                read = self._probabilities(more)
                labels = [CLASSES[int(row.argmax())] for row in read]
                keep = [i for i, row in enumerate(read)
                        if labels[i] in RANK_CLASSES and float(row.max()) >= WINDOW_RANK]
                if SPLIT_PAIRS:
                    # a rank and a suit cut apart: the two halves of one cut (in pairs)
                    for k in range(0, len(halves), 2):
                        pair = {labels[k] in RANK_CLASSES, labels[k + 1] in RANK_CLASSES}
                        if pair == {True, False} and {labels[k], labels[k + 1]} & SUIT_CLASSES \
                                and min(float(read[k].max()), float(read[k + 1].max())) \
                                >= SPLIT_PAIR_PROB:
                            keep.extend(j for j in (k, k + 1) if j not in keep)
                    keep.sort()
                if keep:
                    batch = np.concatenate([batch, more[keep]])
                    probs = np.concatenate([probs, read[keep]])
                    glyphs = glyphs + [halves[i] for i in keep]
        # read the likely ranks and suits again turned; keep the geometric mean
        top = probs.argmax(axis=1)
        recheck = _pairable(glyphs, top, probs.max(axis=1))
        if len(recheck) and RECHECK_TURNS:
            turned = np.concatenate([np.rot90(batch[recheck], turns, axes=(2, 3))
                                     for turns in RECHECK_TURNS])
            readings = np.concatenate([probs[recheck], self._probabilities(turned)])
            log = np.log(np.maximum(readings, 1e-9)).reshape(len(RECHECK_TURNS) + 1,
                                                             len(recheck), -1)
            mean = np.exp(log.mean(axis=0))
            probs[recheck] = mean / mean.sum(axis=1, keepdims=True)
        return [_read_as(g, p) for g, p in zip(glyphs, probs, strict=True)]

    def read(self, image: Image, detail: bool = False, deck: Deck | None = None) -> FrameResult:
        """Recognise the face-up cards of a BGR frame. In ``detail``, the frame is also read
        enlarged ``DETAIL_SCALE`` times for the indices too small for its own scale, and each
        card read so at ``DETAIL_SURE`` or more keeps the surer of its readings, while an index
        it reads as another card at ``DETAIL_OVERRULES`` or more is not read as the frame's own
        scale reads it; the windows around the suits are read whole by the index networks
        (``index_reads``), and a card they name is reported where no surer reading names it
        (several times the work: for a still picture or a table lying still, not for every
        frame)."""
        check_frame(image)
        readings, unknown, glyphs = self._read_at(image, detail)
        placed: list[tuple[CardReading, float]] = []
        whole: list[CardReading] = []
        if detail and self.index_nets:
            whole = index_reads(self.index_nets, image, *glyphs, self.view_net)
        if detail:
            whole += self._lone_ranks(image, readings, *glyphs)
        if detail and DETAIL_SCALE is not None:
            scale = DETAIL_SCALE
            enlarged = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            more, more_unknown, glyphs = self._read_at(enlarged, detail)
            unknown = max(unknown, more_unknown)
            placed = [(_scaled(r, 1.0 / scale), size / scale) for r, size in more]
            whole += [_scaled(r, 1.0 / scale)
                      for r in self._lone_ranks(enlarged, more, *glyphs)]
            readings = _overruled(readings, placed)
            if self.index_nets and INDEX_ENLARGED:
                whole += [_scaled(r, 1.0 / scale)
                          for r in index_reads(self.index_nets, enlarged, *glyphs)]
        best = _corroborated(readings)
        if placed:
            kept = _enlarged_kept(placed, readings)
            for card, reading in _corroborated(kept).items():
                if reading.confidence < DETAIL_SURE:
                    continue
                if card not in best or best[card].confidence < reading.confidence:
                    best[card] = reading
        for reading in whole:
            card = reading.card
            if card not in best or best[card].confidence < reading.confidence:
                best[card] = reading
        sure = [c for c in best.values() if c.confidence >= self.min_confidence]
        unread = [corner_of(c) for c in best.values() if c.confidence < self.min_confidence]
        return FrameResult(sorted(sure, key=lambda c: (c.index_center[1], c.index_center[0])),
                           unknown + len(best) - len(sure), unread)

    def _lone_ranks(self, image: Image, readings: list[tuple[CardReading, float]], gray: Image,
                    glyphs: list[Glyph]) -> list[CardReading]:
        """The cards of the ranks of ``glyphs`` with no card read near them, read by the
        card-view network (``lone_rank_reads``); none without that network or the upright
        classifier."""
        if self.view_net is None or self.upright_net is None:
            return []
        both = _with_grey(image, gray)

        def upright(glyphs: list[Glyph], downs: list[tuple[float, float]]
                    ) -> npt.NDArray[np.float32]:
            return self.read_upright(both, glyphs, downs)
        return lone_rank_reads(self.view_net, image, gray, glyphs, readings, upright)

    def _read_at(self, image: Image, detail: bool = False
                 ) -> tuple[list[tuple[CardReading, float]], int, tuple[Image, list[Glyph]]]:
        """Every reading of every index of the frame, with its rank's size, the count of the
        6s and 9s not told apart (``card_readings``), and the frame's grey and read glyphs; in
        ``detail``, the unsure readings read again whole by the card-view network
        (``view_checked``)."""
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        both = _with_grey(image, gray)
        glyphs = self.classify(image, gray, candidate_glyphs(gray), both)
        upright: UprightFn | None = None
        if self.upright_net is not None:

            def upright(glyphs: list[Glyph], downs: list[tuple[float, float]]
                        ) -> npt.NDArray[np.float32]:
                return self.read_upright(both, glyphs, downs)
        readings, unknown = card_readings(glyphs, gray, image, upright,
                                          lambda more: self.read_glyphs(both, more))
        if detail and self.view_net is not None:
            readings = view_checked(self.view_net, image, gray, readings)
        return readings, unknown, (gray, glyphs)


def _scaled(reading: CardReading, factor: float) -> CardReading:
    c = reading.corner
    corner = None if c is None else Corner(
        DeckGlyph(c.rank.cx * factor, c.rank.cy * factor, c.rank.size * factor),
        None if c.suit is None
        else DeckGlyph(c.suit.cx * factor, c.suit.cy * factor, c.suit.size * factor),
        c.down, c.dark, tuple((x * factor, y * factor) for x, y in c.quad))
    return CardReading(reading.card, reading.confidence,
                       tuple((x * factor, y * factor) for x, y in reading.quad),
                       (reading.index_center[0] * factor, reading.index_center[1] * factor),
                       corner)


def _overruled(own: list[tuple[CardReading, float]],
               enlarged: list[tuple[CardReading, float]]) -> list[tuple[CardReading, float]]:
    """The readings at the frame's own scale but those whose index the enlarged reading (placed
    and sized in the frame's own pixels) reads as another card at ``DETAIL_OVERRULES`` or more,
    within the size of the frame's rank from it: the enlarged picture shows the index's print
    more clearly."""
    if DETAIL_OVERRULES is None:
        return own
    sure = [(r.card, r.index_center) for r, _size in enlarged
            if r.confidence >= DETAIL_OVERRULES]
    return [(r, size) for r, size in own if not any(
        card != r.card and math.hypot(x - r.index_center[0], y - r.index_center[1]) <= size
        for card, (x, y) in sure)]


def _enlarged_kept(enlarged: list[tuple[CardReading, float]],
                   own: list[tuple[CardReading, float]]) -> list[tuple[CardReading, float]]:
    """The readings of the enlarged frame (placed and sized in the frame's own pixels) whose
    rank is ``DETAIL_SMALLEST`` or larger and that name no other card than the frame's own
    reading of the same index (``DETAIL_CONFLICT``)."""
    others = [(r.card, r.index_center) for r, _size in own if r.confidence >= DETAIL_CONFLICT]
    return [(r, size) for r, size in enlarged if size >= DETAIL_SMALLEST and not any(
        card != r.card and math.hypot(x - r.index_center[0], y - r.index_center[1]) <= size
        for card, (x, y) in others)]


def _in_reach(glyphs: list[Glyph], top: npt.NDArray[np.intp], prob: npt.NDArray[np.float32]
              ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.bool_],
                         npt.NDArray[np.float64]]:
    """The likely ranks and suits (first reading 0.3 or more), which suit is in pairing reach of
    which rank (the size and distance rule of ``_nearest_suit``), and their distances."""
    sure = prob >= RECHECK_PROB
    ranks = np.flatnonzero(sure & np.isin(top, _RANK_CLASS_IDS))
    suits = np.flatnonzero(sure & np.isin(top, _SUIT_CLASS_IDS))
    pos = np.array([(g.cx, g.cy, g.size, g.dark) for g in glyphs], np.float64)
    r, s = pos[ranks], pos[suits]
    dist = np.hypot(r[:, None, 0] - s[None, :, 0], r[:, None, 1] - s[None, :, 1])
    ratio = s[None, :, 2] / r[:, None, 2]
    near = ((dist <= 2.2 * r[:, None, 2]) & (ratio >= 0.35) & (ratio <= 1.6)
            & (r[:, None, 3] == s[None, :, 3]))
    return ranks, suits, near, dist


def _pairable(glyphs: list[Glyph], top: npt.NDArray[np.intp],
              prob: npt.NDArray[np.float32]) -> npt.NDArray[np.intp]:
    """Indices of the likely ranks with a likely suit in pairing reach, and of each one's nearest
    such suit: the candidates whose reading makes a card (pips of the card body are not read
    again)."""
    ranks, suits, near, dist = _in_reach(glyphs, top, prob)
    has = near.any(axis=1)
    if not has.any():
        return np.zeros(0, np.intp)
    # each such rank and only its nearest fitting suit (the pips near an index are not)
    nearest = np.where(near, dist, np.inf)[has].argmin(axis=1)
    return np.unique(np.concatenate([ranks[has], suits[nearest]]))


#: the first reading's probability from which a rank or suit with no partner in reach is looked
#: around again with the finer binarisation
LONELY_PROB = 0.5


def _lonely(glyphs: list[Glyph], top: npt.NDArray[np.intp],
            prob: npt.NDArray[np.float32]) -> npt.NDArray[np.intp]:
    """Indices of the likely ranks with no likely suit in pairing reach and of the likely suits
    with no likely rank: where part of an index may have been missed."""
    ranks, suits, near, _dist = _in_reach(glyphs, top, prob)
    alone: npt.NDArray[np.intp] = np.concatenate([ranks[~near.any(axis=1)],
                                                  suits[~near.any(axis=0)]])
    return alone[prob[alone] >= LONELY_PROB]


#: a rank nearer to a suit than the rank being paired takes that suit from it only when it is at
#: least this share as sure (a glyph of a picture or a piece of print read as a rank at 0.5 kept
#: a king read at 1.0 from its own suit)
BLOCK_SHARE = 0.8


def _nearest_suit(rank: Glyph, suits: list[Glyph], ranks: list[Glyph]) -> Glyph | None:
    """The nearest suit that fits the rank, unless another rank, about as sure, lies nearer to
    it."""
    best: tuple[float, Glyph] | None = None
    for s in suits:
        if s.dark != rank.dark:
            continue
        ratio = s.size / rank.size
        if not 0.35 <= ratio <= 1.6:
            continue
        d = math.hypot(s.cx - rank.cx, s.cy - rank.cy)
        if d > 2.2 * rank.size or d < 0.3 * rank.size:
            continue
        if best is None or d < best[0]:
            best = (d, s)
    if best is None:
        return None
    d, s = best
    for other in ranks:
        if other is not rank and other.dark == rank.dark \
                and other.prob >= BLOCK_SHARE * rank.prob \
                and math.hypot(s.cx - other.cx, s.cy - other.cy) < d:
            return None
    return s


#: a rank with no suit beside it takes the suit of the pips on its own card face (decks that print
#: the rank and the suit in different corners); the face is looked for this many rank sizes around
FACE_REACH = 10.0
#: the same for a rank's suit: a few designs print it only in the card's far corner
FACE_SUIT_REACH = 16.0
#: another rank on the face, with no suit beside it, is another card's index when read this
#: surely (below it, a speck of the card's picture or of its print: an Oxygen king's crown read
#: as a 4 at 0.83); with a suit beside it, from 0.3
FACE_OTHER_RANK = 0.85
#: a face larger than this many squared rank sizes has run into other cards (or the felt)
FACE_MAX_AREA = 120.0
#: pairing by the card face is on (off only to measure what it adds)
FACE_PAIRING = True
#: a card read below this confidence from its index is checked against the pips of its face
FACE_CHECK_BELOW = 0.99
#: an index whose suit is read as one suit while a larger pip of the other suit of its colour,
#: lying this near its rank (rank sizes) and nearer to it than to any other rank, is read as
#: that other suit at ``OUTWEIGH_PROB`` or more, is read as no card (a small index spade read
#: as a club beside its card's large spade); None: never
OUTWEIGH_NEAR: float | None = 2.0
OUTWEIGH_PROB = 0.99
#: the pip is at least this many times the index suit's size, and at most 2.5 rank sizes
OUTWEIGH_SIZE = 1.5
#: a glyph on the face not read as a suit that looks like another suit this much (or more)
#: leaves the face's suit in doubt (None: such glyphs are not looked at)
FACE_DOUBT: float | None = 0.3
#: suits on the face that disagree: the largest glyphs' suit stands when every glyph read as
#: another suit is smaller than theirs by this factor or more (None: any disagreement leaves
#: the face unread)
FACE_PIP_OVER: float | None = 1.5
#: a face's shade also lies within this of the face's colour, in each of its colour differences
#: (Cr and Cb of YCrCb, 8-bit units; None: by its grey alone)
FACE_CHROMA: float | None = 24.0
#: a face's quad is turned so that its top edge is the shorter and the rank lies at its top: the
#: rank's corner is its top left (most decks) or its top right (Oxygen prints it so)
FACE_QUAD_UPRIGHT = True


@dataclass(frozen=True, slots=True)
class _Face:
    """The card face a rank is printed on: its mask, placed at (x0, y0) in the frame, and its
    outline's points (frame coordinates). ``whole`` when it lies within the part of the frame
    it was traced in (else it may go on beyond: a face cut by that edge can look whole)."""

    mask: npt.NDArray[np.uint8]
    x0: int
    y0: int
    outline: npt.NDArray[np.int32]
    whole: bool = True

    def holds(self, g: Glyph) -> bool:
        u, v = int(g.cx) - self.x0, int(g.cy) - self.y0
        return 0 <= v < self.mask.shape[0] and 0 <= u < self.mask.shape[1] \
            and bool(self.mask[v, u])

    def quad(self, rank: Glyph) -> tuple[tuple[float, float], ...]:
        """The face's smallest enclosing rectangle, from the corner nearest the rank."""
        box = cv2.boxPoints(cv2.minAreaRect(self.outline))
        first = int(np.argmin(np.hypot(box[:, 0] - rank.cx, box[:, 1] - rank.cy)))
        if FACE_QUAD_UPRIGHT:
            along = float(np.hypot(*(box[(first + 1) % 4] - box[first])))
            back = float(np.hypot(*(box[(first + 3) % 4] - box[first])))
            if along > back:
                first = (first + 3) % 4
        return tuple((float(x), float(y)) for x, y in np.roll(box, -first, axis=0))


def _face_of(rank: Glyph, gray: Image, close: float = 0.12, near: float = 0.4,
             inks: _Inks | None = None, cut: float | None = None,
             reach_sizes: float = FACE_REACH) -> _Face | None:
    """The pixels of the face's shade connected to the rank's surroundings, with the print on it
    (pips, the rank itself) filled in; None where the face cannot be told from the print or runs
    into other cards. The shade is within ``near`` of the print's contrast from the face's, and
    gaps in it of ``close`` rank sizes are closed; with ``cut``, thin dark lines in it are not
    the face's (``PIP_CUT``). With the frame's colours (``inks``), a face
    that so runs on larger than a card is traced again with its colour near the face's as well
    (``FACE_CHROMA``): a black face on dark red felt is of one grey with it, not of one
    colour."""
    size = rank.size
    reach = int(reach_sizes * size)
    x0, y0 = max(int(rank.cx) - reach, 0), max(int(rank.cy) - reach, 0)
    x1, y1 = min(int(rank.cx) + reach, gray.shape[1]), min(int(rank.cy) + reach, gray.shape[0])
    win = gray[y0:y1, x0:x1]
    # the face's shade: the ring just outside the rank's box; the print's: the box's extreme
    pad = max(int(0.35 * size), 2)
    bx0, by0 = max(rank.x - x0 - pad, 0), max(rank.y - y0 - pad, 0)
    bx1 = min(rank.x - x0 + rank.w + pad, win.shape[1])
    by1 = min(rank.y - y0 + rank.h + pad, win.shape[0])
    ring = np.ones((by1 - by0, bx1 - bx0), bool)
    ring[pad:-pad, pad:-pad] = False
    if not ring.any():
        return None
    face = int(np.median(win[by0:by1, bx0:bx1][ring]))
    glyph = win[rank.y - y0:rank.y - y0 + rank.h, rank.x - x0:rank.x - x0 + rank.w]
    contrast = abs(int(glyph.min() if rank.dark else glyph.max()) - face)
    if contrast < 30:
        return None
    shade: Image = (cv2.absdiff(win, np.full_like(win, face)) < near * contrast).view(np.uint8)
    if cut is not None and rank.dark:
        k = max(3, round(CUT_WINDOW * size)) | 1
        valley = cv2.morphologyEx(win, cv2.MORPH_BLACKHAT,
                                  cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        shade[valley > cut * contrast] = 0
    box = (bx0, by0, bx1, by1)
    found = _flood(shade, ring, box, size, close, (x0, y0))
    if FACE_CHROMA is None or inks is None or found is not None:
        return found
    # the colour apart from the lightness (the grey above has that)
    parts = [plane[y0:y1, x0:x1] for plane in inks.chroma()]
    tints = np.median(np.stack([p[by0:by1, bx0:bx1][ring] for p in parts]), axis=1)
    apart = cv2.max(*(cv2.absdiff(p, np.full_like(p, round(float(t))))
                      for p, t in zip(parts, tints, strict=True)))
    again = _flood(shade & (apart < FACE_CHROMA).view(np.uint8), ring, box, size, close,
                   (x0, y0))
    return again


def _flood(shade: Image, ring: npt.NDArray[np.bool_], box: tuple[int, int, int, int],
           size: float, close: float, origin: tuple[int, int]) -> _Face | None:
    """The face in a picture of its shade: the region holding most of the ``ring`` around the
    rank (its ``box`` in the picture, which lies at ``origin`` in the frame); None when there is
    none or it is larger than a card (``FACE_MAX_AREA``)."""
    bx0, by0, bx1, by1 = box
    # thin printed frame lines do not cut a face in two; the border between two cards does
    k = round(close * size)
    if k > 1:
        shade = cv2.morphologyEx(shade, cv2.MORPH_CLOSE,
                                 cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    # the face is the shade region holding most of the ring: flood from four points of it
    on_ring = ring & (shade[by0:by1, bx0:bx1] > 0)
    ys, xs = np.nonzero(on_ring)
    if not len(ys):
        return None
    filled = np.zeros((shade.shape[0] + 2, shade.shape[1] + 2), np.uint8)
    boxes: dict[int, tuple[int, int, int, int, int]] = {}
    for value, i in enumerate(np.linspace(0, len(ys) - 1, 4).astype(int), start=1):
        sx, sy = bx0 + int(xs[i]), by0 + int(ys[i])
        if not filled[sy + 1, sx + 1]:
            area, _img, _mask, rect = cv2.floodFill(
                shade, filled, (sx, sy), 0, 0, 0, 4 | cv2.FLOODFILL_MASK_ONLY | (value << 8))
            boxes[value] = (int(area), int(rect[0]), int(rect[1]), int(rect[2]), int(rect[3]))
    held = filled[1 + by0:1 + by1, 1 + bx0:1 + bx1][on_ring]
    label = int(np.bincount(held[held > 0]).argmax())
    area, x, y, w, h = boxes[label]
    if area > FACE_MAX_AREA * size * size:
        return None
    region = (filled[1 + y:1 + y + h, 1 + x:1 + x + w] == label).view(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    mask = np.zeros(region.shape, np.uint8)
    cv2.drawContours(mask, contours, -1, 1, thickness=cv2.FILLED)
    x0, y0 = origin
    outline = np.concatenate(contours) + np.array([x0 + x, y0 + y], np.int32)
    whole = x > 0 and y > 0 and x + w < shade.shape[1] and y + h < shade.shape[0]
    return _Face(mask, x0 + x, y0 + y, outline, whole)


def _face_suit(rank: Glyph, suits: list[Glyph], ranks: list[Glyph], gray: Image,
               inks: _Inks | None = None, doubts: Sequence[Glyph] = ()
               ) -> tuple[Glyph, float, _Face] | None:
    """The suit of the pips on the rank's own card face, when they all agree (and, with the
    glyphs' ``inks``, are printed in the rank's ink): the nearest of them, the most confident
    reading among them, and the face. A face running on beyond the ``FACE_REACH`` it was traced
    in, with no suit read on that part of it, is traced again farther (``FACE_SUIT_REACH``) and
    read when it lies whole within that."""
    face = _face_of(rank, gray, inks=inks)
    if face is None:
        return None
    found = _suit_on(face, rank, suits, ranks, inks, doubts)
    if found is None and not face.whole:
        farther = _face_of(rank, gray, inks=inks, reach_sizes=FACE_SUIT_REACH)
        if farther is not None and farther.whole:
            found = _suit_on(farther, rank, suits, ranks, inks, doubts)
    return found


def _suit_on(face: _Face, rank: Glyph, suits: list[Glyph], ranks: list[Glyph],
             inks: _Inks | None, doubts: Sequence[Glyph]) -> tuple[Glyph, float, _Face] | None:
    """The suit of the pips on ``face`` (``_face_suit``)."""
    # a face holding another rank's index is more than one card (light faces touching in a fan):
    # a rank with a suit beside it, or one read at FACE_OTHER_RANK or more (a speck of a
    # picture read as a rank below that, alone, is no index)
    for other in ranks:
        if other.label != rank.label and other.dark == rank.dark \
                and 0.6 <= other.size / rank.size <= 1.6 and face.holds(other) \
                and (other.prob >= FACE_OTHER_RANK
                     or _nearest_suit(other, suits, ranks) is not None):
            return None
    inside = [s for s in suits if s.dark == rank.dark and 0.35 <= s.size / rank.size <= 3.5
              and face.holds(s)]
    if not inside:
        return None
    if len({s.label for s in inside}) != 1:
        inside = _larger_suit(inside)
        if not inside:
            return None
    # the glyphs read otherwise that look like another suit must be fewer than those read as
    # the suit (a king's small index spade read as a club, its one large spade read ``other`` at
    # 0.54 and a spade at 0.43)
    if sum(g.suit != inside[0].label and g.dark == rank.dark
           and 0.35 <= g.size / rank.size <= 3.5 and face.holds(g) for g in doubts) >= len(inside):
        return None
    if INK_CHECK and inks is not None and not all(inks.same(rank, s) for s in inside):
        return None
    nearest = min(inside, key=lambda s: math.hypot(s.cx - rank.cx, s.cy - rank.cy))
    return nearest, max(s.prob for s in inside), face


def _larger_suit(suits: list[Glyph]) -> list[Glyph]:
    """Of suits on a face that disagree, those of the largest glyph's suit, when every glyph of
    another suit is ``FACE_PIP_OVER`` times smaller than each of them (a face's large pips are
    read surer than its small index suit); else none."""
    if FACE_PIP_OVER is None:
        return []
    label = max(suits, key=lambda s: s.size).label
    kept = [s for s in suits if s.label == label]
    rest = [s for s in suits if s.label != label]
    if min(s.size for s in kept) < FACE_PIP_OVER * max(s.size for s in rest):
        return []
    return kept


def _agreeing_suit_prob(rank: Glyph, suit: Glyph, suits: list[Glyph], ranks: list[Glyph]) -> float:
    """The surest reading of the same suit as ``suit`` beside the rank (the large corner pip some
    designs print next to the index): within 2.5 rank sizes, at most 2.5 times its size, and
    nearer this rank than any other. 0 when there is none."""
    best = 0.0
    for other in suits:
        if other is suit or other.label != suit.label or other.dark != rank.dark \
                or other.size > 2.5 * rank.size or other.prob <= best:
            continue
        d = math.hypot(other.cx - rank.cx, other.cy - rank.cy)
        if d <= 2.5 * rank.size and not any(
                o is not rank and o.dark == rank.dark
                and math.hypot(other.cx - o.cx, other.cy - o.cy) < d for o in ranks):
            best = other.prob
    return best


#: how much the lightness counts against the colour when the ink of a rank and a suit is compared
INK_LIGHTNESS_WEIGHT = 0.2
#: below this cosine the rank and the suit are printed in different inks
INK_AGREE = 0.5
INK_CHECK = True


def _outweighed(rank: Glyph, suit: Glyph, suits: list[Glyph], ranks: list[Glyph],
                inks: _Inks | None) -> bool:
    """Whether a larger pip beside the index names the other suit of its colour surely
    (``OUTWEIGH_NEAR``): a small index suit read as another of its family (a spade as a club, a
    heart as a diamond) beside its own card's large pip, which reads surely as what it is."""
    if OUTWEIGH_NEAR is None:
        return False
    family = "cs" if suit.label in "cs" else "dh"
    for pip in suits:
        if pip.dark != rank.dark or pip.label == suit.label or pip.label not in family \
                or pip.prob < OUTWEIGH_PROB or not OUTWEIGH_SIZE * suit.size <= pip.size \
                <= 2.5 * rank.size:
            continue
        d = math.hypot(pip.cx - rank.cx, pip.cy - rank.cy)
        if d <= OUTWEIGH_NEAR * rank.size \
                and not any(o is not rank and math.hypot(pip.cx - o.cx, pip.cy - o.cy) < d
                            for o in ranks) \
                and (inks is None or inks.same(rank, pip)):
            return True
    return False


def _ink(image: Image, g: Glyph) -> npt.NDArray[np.float32] | None:
    """The colour of a glyph's print against its face: the mean Lab colour of the stronger half
    of its print minus that of the face around it, the lightness weighted down (blur mixes print
    and face, which shortens this vector but keeps its direction). None when it cannot be told."""
    x0, y0 = max(g.x - 1, 0), max(g.y - 1, 0)
    region = image[y0:g.y + g.h + 1, x0:g.x + g.w + 1]
    if region.size == 0:
        return None
    grey = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY).reshape(-1)
    lab = cv2.cvtColor(region, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    otsu, _ = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    printed = grey <= otsu if g.dark else grey > otsu
    if printed.sum() < 2 or (~printed).sum() < 2:
        return None
    middle = float(np.median(grey[printed]))
    strong = printed & ((grey <= middle) if g.dark else (grey >= middle))
    v = lab[strong].mean(axis=0) - lab[~printed].mean(axis=0)
    v[0] *= INK_LIGHTNESS_WEIGHT
    n = float(np.linalg.norm(v))
    return None if n < 1e-3 else v / n


class _Inks:
    """The inks of a frame's glyphs, each measured once (a glyph is compared with several), and
    the frame's colour apart from its lightness (made once, when a face is first traced)."""

    def __init__(self, image: Image) -> None:
        self.image = image
        self.known: dict[tuple[int, int, int, int, bool], npt.NDArray[np.float32] | None] = {}
        self._chroma: tuple[Image, Image] | None = None

    def chroma(self) -> tuple[Image, Image]:
        """The frame's colour-difference planes (Cr and Cb of YCrCb, 8-bit)."""
        if self._chroma is None:
            ycc = cv2.cvtColor(self.image, cv2.COLOR_BGR2YCrCb)
            self._chroma = (cv2.extractChannel(ycc, 1), cv2.extractChannel(ycc, 2))
        return self._chroma

    def of(self, g: Glyph) -> npt.NDArray[np.float32] | None:
        # by its box, not its identity: a glyph made for a moment (a window, a glyph read again)
        # may take the identity of one gone, and so its ink
        key = (g.x, g.y, g.w, g.h, g.dark)
        if key not in self.known:
            self.known[key] = _ink(self.image, g)
        return self.known[key]

    def same(self, rank: Glyph, suit: Glyph) -> bool:
        """Whether a rank and a suit are printed in the same ink, as the two halves of one index
        are (a black rank beside a red heart is a rank beside the next card's pip)."""
        a, b = self.of(rank), self.of(suit)
        return a is None or b is None or float(a @ b) >= INK_AGREE


def _card_quad(rank: Glyph, suit: Glyph, down: tuple[float, float] | None = None
               ) -> tuple[tuple[float, float], ...]:
    """Estimate a card's corners (top-left, top-right, bottom-right, bottom-left of the card as
    printed) from its index: down is rank -> suit unless given (a unit vector), the glyph height
    is about a tenth of the card (``CARD_RANK_HEIGHTS``)."""
    if down is None:
        down = _unit(suit.cx - rank.cx, suit.cy - rank.cy)
    right = (down[1], -down[0])  # a quarter turn from down, image y pointing down
    h = rank.size * CARD_RANK_HEIGHTS
    w = h * 0.7
    # the index sits about 0.08 h from the top and 0.09 w from the left edge
    ox = rank.cx - right[0] * 0.09 * w - down[0] * 0.08 * h
    oy = rank.cy - right[1] * 0.09 * w - down[1] * 0.08 * h
    return (
        (ox, oy),
        (ox + right[0] * w, oy + right[1] * w),
        (ox + right[0] * w + down[0] * h, oy + right[1] * w + down[1] * h),
        (ox + down[0] * h, oy + down[1] * h),
    )


def _six_or_nine(rank: Glyph, suit: Glyph, gray: Image) -> str | None:
    hole = glyph_hole(gray, rank)
    if hole is None:
        return None
    dx, dy = suit.cx - rank.cx, suit.cy - rank.cy
    n = math.hypot(dx, dy) or 1.0
    # against the middle of the glyph's box: its ink centroid leans toward the heavier strokes
    mx, my = rank.x + rank.w / 2.0, rank.y + rank.h / 2.0
    along = ((hole[0] - mx) * dx + (hole[1] - my) * dy) / n
    if abs(along) < 0.04 * rank.size:
        return None
    return "6" if along > 0 else "9"


#: a card read from both its corner indices is surer (off only to measure what it adds)
CORROBORATE = True
#: the two indices of a card lie at least this many rank sizes apart, and at most this many (a
#: card is 6 to 14 rank heights tall, its two indices about its height apart, its diagonal 1.22
#: times that)
CORROBORATE_APART = 3.0
CORROBORATE_WITHIN = 18.0


#: reads glyphs again turned upright: the upright classifier's probabilities
#: (``UPRIGHT_CLASSES``) for each glyph, turned so that its down (a unit vector) points down
UprightFn = Callable[[list[Glyph], list[tuple[float, float]]], npt.NDArray[np.float32]]
#: the first classifier: glyphs read, each with its label and probability
ReadFn = Callable[[list[Glyph]], list[Glyph]]
#: an upright reading that names the read rank and suit, each at this probability or more,
#: counts as a second reading of the card (the card's confidence becomes 1 - (1 - a)(1 - b))
UPRIGHT_AGREE = 0.95
#: an upright reading that names another rank (or suit) than the one read, at this probability
#: or more, makes the card that much less sure
UPRIGHT_VETO = 0.5
#: only a card read below this confidence is read again upright (half the indices of a frame are
#: read surer than this, and reading them again changed nothing measured)
UPRIGHT_BELOW = 0.99
#: a 6 or 9 is told by the upright reading when it gives one of the two this share of both
UPRIGHT_SIX_NINE = 0.9
_UP = {c: i for i, c in enumerate(UPRIGHT_CLASSES)}


@dataclass(slots=True)
class _Found:
    """A rank paired with a suit, before the upright reading and the 6/9 rule."""

    rank: Glyph
    suit: Glyph
    #: the suit is the index's own, printed beside the rank (not a pip of the face)
    beside: bool
    rank_prob: float
    suit_prob: float
    quad: tuple[tuple[float, float], ...]
    #: 6 or 9 as the upright reading tells them, or None
    six_nine: str | None = None
    #: the upright reading's agreement with the card (0 when it does not agree)
    upright: float = 0.0


def _corner(f: _Found) -> Corner:
    """The index corner of a rank paired with a suit: the suit glyph only when it is the index's
    own (printed beside the rank, not a pip of the face)."""
    q = f.quad
    down = _unit((q[3][0] + q[2][0] - q[0][0] - q[1][0]) / 2.0,
                 (q[3][1] + q[2][1] - q[0][1] - q[1][1]) / 2.0)
    r, s = f.rank, f.suit
    return Corner(DeckGlyph(r.cx, r.cy, r.size),
                  DeckGlyph(s.cx, s.cy, s.size) if f.beside else None, down, r.dark, q)


def _unit(dx: float, dy: float) -> tuple[float, float]:
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


#: an upright reading that names another card than the one read, its rank and its suit each at
#: this probability or more, is a reading of that card (with the product as its confidence)
UPRIGHT_NAMES = 0.999


def _upright_card(rank: Glyph, suit: Glyph, up_rank: npt.NDArray[np.float32],
                  up_suit: npt.NDArray[np.float32], least: float,
                  down: tuple[float, float] | None = None) -> _Found | None:
    """The card that the upright reading of an index's two glyphs names, a rank (a 6 and a 9
    apart) and a suit each at ``least`` or more; None when it names none so surely. ``down`` is
    the card's, when it was read along another line than rank -> suit."""
    rank_name = UPRIGHT_CLASSES[int(up_rank.argmax())]
    suit_name = UPRIGHT_CLASSES[int(up_suit.argmax())]
    p_rank, p_suit = float(up_rank.max()), float(up_suit.max())
    if (rank_name not in RANK_CLASSES and rank_name != "9") or suit_name not in SUIT_CLASSES \
            or p_rank < least or p_suit < least:
        return None
    label = "6" if rank_name in "69" else rank_name
    r = replace(rank, label=label, prob=p_rank)
    s = replace(suit, label=suit_name, prob=p_suit)
    return _Found(r, s, True, p_rank, p_suit, _card_quad(r, s, down),
                  six_nine=rank_name if label == "6" else None)


def _halves_paired(cut: list[Glyph], upright: UprightFn, inks: _Inks | None) -> list[_Found]:
    """The indices cut apart at their waist (``waist_halves``) whose rank half and suit half,
    read again upright along the line from one to the other, both agree at
    ``UPRIGHT_AGREE`` or more: each such card, with that agreement weighed in as
    ``_upright_reading`` weighs it. A 6 or 9 is left out (measured with them: no more cards)."""
    pairs: list[_Found] = []
    by_cut: dict[int, list[Glyph]] = {}
    for g in cut:
        by_cut.setdefault(g.cut, []).append(g)
    for two in by_cut.values():
        ranks = [g for g in two if g.label in RANK_CLASSES]
        suits = [g if g.label in SUIT_CLASSES else replace(g, label=g.suit, prob=g.suit_prob)
                 for g in two if g.label in SUIT_CLASSES
                 or (g.label not in RANK_CLASSES and g.suit_prob >= SPLIT_PAIR_LOOKS)]
        if len(ranks) != 1 or len(suits) != 1 or ranks[0].label == "6":
            continue
        r, s = ranks[0], suits[0]
        if INK_CHECK and inks is not None and not inks.same(r, s):
            continue
        pairs.append(_Found(r, s, True, r.prob, s.prob, _card_quad(r, s)))
    if not pairs:
        return []
    _upright_reading(pairs, upright)
    return [f for f in pairs if f.upright > 0.0]


def _upright_reading(found: list[_Found], upright: UprightFn) -> list[_Found]:
    """Weigh each index read beside its rank against its glyphs read again upright, turned so
    that the line from rank to suit points down: agreement makes the card surer, another rank or
    suit named makes it less sure. Returns the readings of the other cards it names surely
    (``UPRIGHT_NAMES``)."""
    indexed = [f for f in found if f.beside and f.rank_prob * f.suit_prob < UPRIGHT_BELOW]
    if not indexed:
        return []
    downs = [_unit(f.suit.cx - f.rank.cx, f.suit.cy - f.rank.cy) for f in indexed]
    probs = upright([g for f in indexed for g in (f.rank, f.suit)],
                    [d for d in downs for _ in range(2)])
    other = _UP["other"]
    named: list[_Found] = []
    for k, f in enumerate(indexed):
        up_rank, up_suit = probs[2 * k], probs[2 * k + 1]
        card = _upright_card(f.rank, f.suit, up_rank, up_suit, UPRIGHT_NAMES)
        if card is not None and (card.rank.label, card.suit.label) != (f.rank.label, f.suit.label):
            named.append(card)
        if f.rank.label == "6":
            six, nine = float(up_rank[_UP["6"]]), float(up_rank[_UP["9"]])
            p_rank = six + nine
            if p_rank > 0 and max(six, nine) >= UPRIGHT_SIX_NINE * p_rank:
                f.six_nine = "6" if six > nine else "9"
            same_rank: tuple[int, ...] = (_UP["6"], _UP["9"])
        else:
            p_rank = float(up_rank[_UP[f.rank.label]])
            same_rank = (_UP[f.rank.label],)
        p_suit = float(up_suit[_UP[f.suit.label]])
        top_rank, top_suit = int(up_rank.argmax()), int(up_suit.argmax())
        if top_rank not in same_rank and top_rank != other \
                and up_rank[top_rank] >= UPRIGHT_VETO:
            f.rank_prob *= 1.0 - float(up_rank[top_rank])
        if top_suit != _UP[f.suit.label] and top_suit != other \
                and up_suit[top_suit] >= UPRIGHT_VETO:
            f.suit_prob *= 1.0 - float(up_suit[top_suit])
        if p_rank >= UPRIGHT_AGREE and p_suit >= UPRIGHT_AGREE:
            f.upright = p_rank * p_suit
    return named


#: a rank or suit read with no partner (an index half read) is looked at again with each glyph
#: beside it that the first reading did not name, both turned upright (off only to measure)
HALF_READ = True
#: the upright reading must name the other half at this probability or more, and the half read
#: again as it was read
HALF_AGREE = 0.98
#: a glyph that the first reading calls ``other`` at this probability or more is not looked at as
#: the other half (a third of the upright reading's patches: their time, for 3 of 333 right half
#: readings on synthetic scenes and none on the validation pictures)
HALF_OTHER = 0.99


def _fitting(ranks: list[Glyph], suits: list[Glyph]) -> npt.NDArray[np.bool_]:
    """Which suit lies where the suit of which rank's index can (the size and distance rule of
    ``_nearest_suit``), as a ranks x suits table."""
    r = np.array([(g.cx, g.cy, g.size, g.dark) for g in ranks], np.float64).reshape(-1, 4)
    s = np.array([(g.cx, g.cy, g.size, g.dark) for g in suits], np.float64).reshape(-1, 4)
    ratio = s[None, :, 2] / r[:, None, 2]
    d = np.hypot(r[:, None, 0] - s[None, :, 0], r[:, None, 1] - s[None, :, 1])
    fits: npt.NDArray[np.bool_] = ((r[:, None, 3] == s[None, :, 3]) & (ratio >= 0.35)
                                   & (ratio <= 1.6) & (d >= 0.3 * r[:, None, 2])
                                   & (d <= 2.2 * r[:, None, 2]))
    return fits


def _half_read(glyphs: list[Glyph], ranks: list[Glyph], suits: list[Glyph], found: list[_Found],
               upright: UprightFn, inks: _Inks | None, frame: tuple[int, ...]) -> list[_Found]:
    """Indices of which the first reading named one half only: a rank (or suit) with no partner,
    paired with a glyph beside it that it named neither rank nor suit (a rank whose strokes run
    into the card's edge, a suit a few pixels wide), when the upright classifier, reading both
    turned so that the rank lies above the suit, names the half read as it was read and the
    other at ``HALF_AGREE`` or more. The card's confidence is the upright reading's. A glyph cut
    by the edge of the ``frame`` (its shape) is no half of an index here.

    A suit with no rank may also have a likely rank beside it that was paired with another suit
    (nearer to it, or the pip of its face): that rank is read with it upright too, and the
    upright reading chooses. A 6 or 9 is left out of this: read toward another suit than its
    own it reads turned, a 9 as a 6."""
    used = {id(f.rank) for f in found} | {id(f.suit) for f in found}
    height, width = frame[0], frame[1]

    def whole(g: Glyph) -> bool:
        return g.x > 0 and g.y > 0 and g.x + g.w < width and g.y + g.h < height

    plain = [g for g in glyphs if (g.prob < RECHECK_PROB
             or (g.label not in RANK_CLASSES and g.label not in SUIT_CLASSES))
             and not (g.label == "other" and g.prob >= HALF_OTHER) and whole(g)]
    lonely_ranks = [r for r in ranks if r.prob >= LONELY_PROB and id(r) not in used]
    lonely_suits = [s for s in suits if s.prob >= LONELY_PROB and id(s) not in used]
    # a rank whose card is read surely already keeps its suit
    settled = {id(f.rank) for f in found
               if 1.0 - (1.0 - f.rank_prob * f.suit_prob) * (1.0 - f.upright) >= UPRIGHT_BELOW}
    above = plain + [r for r in ranks if r.label != "6" and id(r) not in settled and whole(r)]
    pairs: list[tuple[Glyph, Glyph, bool]] = []
    if lonely_ranks and plain:
        for r, row in zip(lonely_ranks, _fitting(lonely_ranks, plain), strict=True):
            pairs.extend((r, plain[i], True) for i in np.flatnonzero(row))
    if lonely_suits and above:
        for s, column in zip(lonely_suits, _fitting(above, lonely_suits).T, strict=True):
            pairs.extend((above[i], s, False) for i in np.flatnonzero(column))
    if not pairs:
        return []
    downs = [_unit(s.cx - r.cx, s.cy - r.cy) for r, s, _known in pairs]
    probs = upright([g for r, s, _known in pairs for g in (r, s)],
                    [d for d in downs for _ in range(2)])
    best: dict[int, _Found] = {}
    for k, (r, s, rank_known) in enumerate(pairs):
        card = _upright_card(r, s, probs[2 * k], probs[2 * k + 1], HALF_AGREE)
        if card is None or (rank_known and card.rank.label != r.label) \
                or (not rank_known and card.suit.label != s.label) \
                or (INK_CHECK and inks is not None and not inks.same(r, s)):
            continue
        key = id(r) if rank_known else id(s)
        if key not in best or best[key].rank_prob * best[key].suit_prob \
                < card.rank_prob * card.suit_prob:
            best[key] = card
    return list(best.values())


#: a likely rank whose card is not read surely yet is read upright again along its card's own
#: edges, with each glyph where the permitted decks print a suit of the card (off only to measure)
AXIS_READ = True
#: the card's edges are looked for within this many rank sizes around the rank
AXIS_REACH = 5.0
#: a rank read at this probability or more is read along its card's edges
AXIS_RANK_PROB = 0.5
#: the upright reading must name the rank as first read and a suit, each at this probability
#: or more (and the suit as first read, when it was read as a suit)
AXIS_AGREE = 0.98
#: where a suit of the card lies from its rank, in rank sizes in the card's frame (along: down
#: the card; inward: toward its middle), and its size against the rank's, as the permitted decks
#: print them (measured on their art): the index's own suit (along 0.89 to 1.3, inward -0.42 to
#: 1.38, size 0.5 to 1.51) and the nearest pips of the face (along 0.45 and more, inward 0.74
#: and more, size 0.97 to 1.92). A pip more than 1.6 times the rank's size is read with a rank
#: read at 0.9 or more only: beside such pips a small rank read at 0.5 was misread and made
#: sure (docs/recognition.md). Each zone: along, inward and size, each from and to, and the least
#: probability of the rank.
AXIS_ZONES: tuple[tuple[float, float, float, float, float, float, float], ...] = (
    (0.8, 1.4, -0.5, 1.45, 0.3, 1.6, AXIS_RANK_PROB),
    (0.4, 2.0, 0.7, 2.0, 0.9, 1.6, AXIS_RANK_PROB),
    (0.4, 2.0, 0.7, 2.0, 1.6, 2.0, 0.9),
)
#: a rank at least this share as sure as the rank being read, lying nearer to a glyph, keeps
#: that glyph from being read as its suit
AXIS_BLOCK_SHARE = 0.5
#: a card paired by its face (its suit from the pips on it) whose rank was read at this
#: probability or more is read along its edges with the nearest of those pips too, wherever it
#: lies (1.0: never)
AXIS_FACE_RANK_PROB = 0.9


def _card_axis(gray: Image, g: Glyph) -> float:
    """The angle (radians, modulo a quarter turn) of the straight lines around a glyph: the
    edges of its card and the strokes of its print, which run along the card's sides. The mean
    of the gradients' directions taken four times, each weighted by its strength."""
    r = max(int(AXIS_REACH * g.size), 3)
    x0, y0 = max(int(g.cx) - r, 0), max(int(g.cy) - r, 0)
    win = gray[y0:int(g.cy) + r + 1, x0:int(g.cx) + r + 1].astype(np.float32)
    gx = cv2.Sobel(win, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(win, cv2.CV_32F, 0, 1, ksize=3)
    # with c = gx² - gy² and s = 2 gx gy (the gradient's direction taken twice, times its
    # strength r² = gx² + gy²), r² cos 4θ = (c² - s²) / r² and r² sin 4θ = 2 c s / r²: no angle
    # is taken of each pixel (a pixel of no gradient weighs nothing)
    xx, yy = gx * gx, gy * gy
    c, s = xx - yy, 2.0 * gx * gy
    strength = np.maximum(xx + yy, np.float32(1e-12))
    return math.atan2(float((2.0 * c * s / strength).sum()),
                      float(((c * c - s * s) / strength).sum())) / 4.0


#: a sure rank whose card is not read surely has its suit looked for in windows where the
#: index prints it (``_window_read``): the rank read at this much or more by the first classifier
WINDOW_READ = True
WINDOW_RANK = 0.9
#: and the suit read upright in a window at this much or more (0.98 read 2 more cards on 1000
#: synthetic scenes, but 11 wrong at the threshold of 0.90 instead of 8)
WINDOW_AGREE = 0.995
#: the windows: along the card's down from the rank's centre, across it, and their size, each
#: in rank sizes
WINDOW_ALONG = (1.0, 1.2, 1.4)
WINDOW_ACROSS = (-0.2, 0.0, 0.2)
WINDOW_SIZES = (0.8, 1.0)
#: or, short of that, at ``WINDOW_SEVERAL_PROB`` or more at this many of the nine places (at
#: either size): a rank of 6-8 px gives windows that read its blurred suit at 0.93-0.99 only,
#: the same at several places (on 5000 synthetic scenes 3 places read 3 cards more right than
#: 4, and one wrong: a small club read as a spade, which ``ONE_INDEX`` leaves out again)
WINDOW_SEVERAL = 3
WINDOW_SEVERAL_PROB = 0.95


def _unread_ranks(ranks: list[Glyph], found: list[_Found], least: float) -> list[Glyph]:
    """The ranks read at ``least`` or more (a 6 or 9 left out) whose card is not read at 0.9 or
    more."""
    sure = [f for f in found
            if 1.0 - (1.0 - f.rank_prob * f.suit_prob) * (1.0 - f.upright) >= 0.9]
    return [r for r in ranks if r.prob >= least and r.label != "6"
            and not any(abs(f.rank.cx - r.cx) < r.size and abs(f.rank.cy - r.cy) < r.size
                        for f in sure)]


def _rank_down(r: Glyph, gray: Image, upright: UprightFn
               ) -> tuple[tuple[float, float], float] | None:
    """The down of a rank's card (a unit vector in the frame) and the upright reading of the
    rank turned by it: the card's axis is told by its edges (``_card_axis``), and the rank must
    read as itself upright at 0.9 or more one of the four ways only; else None."""
    angle = _card_axis(gray, r)
    downs = [(-math.sin(angle + q * math.pi / 2), math.cos(angle + q * math.pi / 2))
             for q in range(4)]
    probs = upright([r] * 4, downs)[:, UPRIGHT_CLASSES.index(r.label)]
    ways = [k for k in range(4) if float(probs[k]) >= 0.9]
    if len(ways) != 1:
        return None
    return downs[ways[0]], float(probs[ways[0]])


def _window_read(ranks: list[Glyph], found: list[_Found], upright: UprightFn, gray: Image
                 ) -> list[_Found]:
    """Cards whose suit was not cut out as a glyph (run into the card's border or the pip
    beside it): for each rank read at ``WINDOW_RANK`` or more whose card is not read at 0.9 or
    more, the card's down is told by its edges (``_card_axis``) and by the rank, which must read
    as itself upright (0.9 or more) one of the four ways only; below it, where an index prints
    its suit, windows are read by the upright classifier whether or not a glyph was found
    there. The surest suit must be read at ``WINDOW_AGREE`` or more (or at
    ``WINDOW_SEVERAL_PROB`` at ``WINDOW_SEVERAL`` places), and no window read as another suit
    at 0.5 or more. A 6 or 9 is left out (on 5000 synthetic scenes 2 of the 5 wrong
    readings it added, and 1 of its 131 right ones)."""
    suit_ids = [UPRIGHT_CLASSES.index(k) for k in "cdhs"]
    out: list[_Found] = []
    for r in _unread_ranks(ranks, found, WINDOW_RANK):
        way = _rank_down(r, gray, upright)
        if way is None:
            continue
        (dx, dy), up_prob = way
        windows: list[Glyph] = []
        for along in WINDOW_ALONG:
            for across in WINDOW_ACROSS:
                for size in WINDOW_SIZES:
                    cx = r.cx + (dx * along - dy * across) * r.size
                    cy = r.cy + (dy * along + dx * across) * r.size
                    w = max(round(size * r.size), 4)
                    windows.append(Glyph(int(cx - w / 2), int(cy - w / 2), w, w, cx, cy,
                                         r.dark))
        read = upright(windows, [(dx, dy)] * len(windows))[:, suit_ids]
        named = {int(np.argmax(row)) for row in read if float(row.max()) >= 0.5}
        best, suit_k = np.unravel_index(int(np.argmax(read)), read.shape)
        prob = float(read[best, suit_k])
        places = read[:, suit_k].reshape(-1, len(WINDOW_SIZES)).max(axis=1)
        several = int((places >= WINDOW_SEVERAL_PROB).sum()) >= WINDOW_SEVERAL
        if (prob < WINDOW_AGREE and not several) or len(named) != 1:
            continue
        suit = replace(windows[int(best)], label="cdhs"[int(suit_k)], prob=prob)
        out.append(_Found(r, suit, True, r.prob * up_prob, prob, _card_quad(r, suit, (dx, dy))))
    return out


#: a sure rank whose card is not read surely has the pips of its own face read upright
#: (``_face_upright_read``): the rank read at this much or more by the first classifier
FACE_UPRIGHT = True
FACE_UPRIGHT_RANK = 0.9
#: the glyphs on the face read as a suit, or looking like one this much (``Glyph.suit_prob``)
FACE_UPRIGHT_LOOKS = 0.3
#: and the surest suit read upright at this much or more
FACE_UPRIGHT_AGREE = 0.995
#: the red of a rank's print against its face (the a* of its ``_ink``, turned for light print),
#: at which its card is red, and below which it is black (in between: not told). On the
#: validation pictures the ranks of red cards read 0.33 or more at their 5th percentile, those
#: of black cards 0.16 or less at their 95th; on synthetic scenes, red cards printed light on a
#: dark face read as little as 0.14 (a black one read red would have its heart pips, upside
#: down, taken for spades)
FACE_RED = 0.45
FACE_BLACK = 0.1


def _colour(inks: _Inks | None, g: Glyph) -> str | None:
    """"red" or "black": the colour of a glyph's card, told by its print against its face
    (red print on white, or white print on red); None when it cannot be told."""
    ink = None if inks is None else inks.of(g)
    if ink is None:
        return None
    a = float(ink[1]) if g.dark else -float(ink[1])
    return "red" if a >= FACE_RED else "black" if a <= FACE_BLACK else None


def _face_upright_read(glyphs: list[Glyph], ranks: list[Glyph], found: list[_Found],
                       upright: UprightFn, inks: _Inks | None, gray: Image) -> list[_Found]:
    """Cards whose suit is printed only far from the rank, on pips the first classifier reads
    unsurely or as another suit (a blurred heart turned half round looks like a spade: that
    classifier reads glyphs at any angle). For each rank read at ``FACE_UPRIGHT_RANK`` or more
    whose card is not read at 0.9 or more, with its card's down told (``_rank_down``) and its
    colour (``_colour``): the glyphs looking like a suit on its own face (``_face_of``, traced
    farther as ``_face_suit`` does; a face holding another rank is more than one card) are read
    upright, turned by the card's down and by its up (a design prints the pips of the card's far
    half upside down, or not), and only their readings as a suit of the card's colour count. The
    surest must be read at ``FACE_UPRIGHT_AGREE`` or more, and no glyph read as another suit of
    that colour at 0.5 or more; each glyph counts the way (down or up) it reads surer, so that
    a pip read surely one way is not spoilt by its look-alike the other way up."""
    suit_ids = [UPRIGHT_CLASSES.index(k) for k in "cdhs"]
    out: list[_Found] = []
    for r in _unread_ranks(ranks, found, FACE_UPRIGHT_RANK):
        face = _face_of(r, gray, inks=inks)
        if face is not None and not face.whole:
            face = _face_of(r, gray, inks=inks, reach_sizes=FACE_SUIT_REACH)
        if face is None or not face.whole:
            continue
        on = [g for g in glyphs if g is not r and g.dark == r.dark
              and 0.35 <= g.size / r.size <= 3.5 and face.holds(g)
              and (g.label in SUIT_CLASSES or g.suit_prob >= FACE_UPRIGHT_LOOKS)]
        if not on or any(o.label != r.label and o.dark == r.dark
                         and 0.6 <= o.size / r.size <= 1.6 and face.holds(o) for o in ranks):
            continue
        if INK_CHECK and inks is not None and not all(inks.same(r, g) for g in on):
            continue
        colour = _colour(inks, r)
        way = None if colour is None else _rank_down(r, gray, upright)
        if way is None:
            continue
        (dx, dy), up_prob = way
        read = upright(on + on, [(dx, dy)] * len(on) + [(-dx, -dy)] * len(on))[:, suit_ids]
        read[:, [k for k in range(4) if ("cdhs"[k] in "hd") != (colour == "red")]] = 0.0
        # a pip is printed one way up: each is read the way it reads surer
        upside_down = read[len(on):].max(axis=1) > read[:len(on)].max(axis=1)
        read[:len(on)][upside_down] = 0.0
        read[len(on):][~upside_down] = 0.0
        named = {int(np.argmax(row)) for row in read if float(row.max()) >= 0.5}
        best, suit_k = np.unravel_index(int(np.argmax(read)), read.shape)
        prob = float(read[best, suit_k])
        if prob < FACE_UPRIGHT_AGREE or len(named) != 1:
            continue
        suit = replace((on + on)[int(best)], label="cdhs"[int(suit_k)], prob=prob)
        out.append(_Found(r, suit, False, r.prob * up_prob, prob, face.quad(r)))
    return out


def _axis_read(glyphs: list[Glyph], ranks: list[Glyph], found: list[_Found],
               upright: UprightFn, inks: _Inks | None, gray: Image) -> list[_Found]:
    """Cards read upright along their own edges: each likely rank whose card is not read surely
    yet, with each glyph lying where the permitted decks print a suit of the card
    (``AXIS_ZONES``), for each of the four ways the card may lie (its edges' angle and the three
    quarter turns from it). The first reading pairs a rank with a suit and turns the two upright
    along the line between them; a suit printed beside the index (a large pip next to it) puts
    that line askew and the upright reading then sees neither. The card's edges tell its down.
    A card paired by its face whose rank is read at ``AXIS_FACE_RANK_PROB`` or more is read so
    with the pip it took too, wherever that lies (a design whose index has no suit beside the
    rank).

    The upright reading must name the rank as first read (a 6 and a 9 apart) and a suit, each at
    ``AXIS_AGREE`` or more; a glyph first read as a suit must be named that suit, and it must be
    printed in the rank's ink. A glyph lying nearer to another likely rank is that rank's. Of
    several, the surest; its confidence is the upright reading's."""
    sure: dict[int, float] = {}
    for f in found:
        conf = 1.0 - (1.0 - f.rank_prob * f.suit_prob) * (1.0 - f.upright)
        sure[id(f.rank)] = max(sure.get(id(f.rank), 0.0), conf)
    todo = [r for r in ranks if r.prob >= AXIS_RANK_PROB and sure.get(id(r), 0.0) < UPRIGHT_BELOW]
    if not todo:
        return []
    pos = np.array([(g.cx, g.cy, g.size) for g in glyphs], np.float64)
    # a suit of the card: in the rank's polarity, not itself a likely rank
    fit = np.array([not (g.label in RANK_CLASSES and g.prob >= AXIS_RANK_PROB) for g in glyphs])
    dark = np.array([g.dark for g in glyphs])
    reach = max(math.hypot(z[1], max(abs(z[2]), abs(z[3]))) for z in AXIS_ZONES)
    pairs: list[tuple[Glyph, Glyph, tuple[float, float]]] = []
    axes: dict[int, npt.NDArray[np.float64]] = {}

    def ways(r: Glyph) -> npt.NDArray[np.float64]:
        """The four ways the rank's card may lie: unit vectors down the card, 4 x 2."""
        if id(r) not in axes:
            angle = _card_axis(gray, r) + np.arange(4) * (math.pi / 2.0)
            axes[id(r)] = np.stack([np.cos(angle), np.sin(angle)], axis=1)
        return axes[id(r)]

    for r in todo:
        v = pos[:, :2] - (r.cx, r.cy)
        near = np.flatnonzero(fit & (dark == r.dark)
                              & (np.hypot(v[:, 0], v[:, 1]) <= reach * r.size))
        near = near[[glyphs[i] is not r for i in near]]
        if not len(near):
            continue
        blockers = [o for o in ranks if o is not r and o.dark == r.dark
                    and o.prob >= AXIS_BLOCK_SHARE * r.prob]
        downs = ways(r)
        along = downs @ v[near].T / r.size
        inward = (downs[:, ::-1] * (1.0, -1.0)) @ v[near].T / r.size
        ratio = pos[near, 2] / r.size
        zone = np.zeros(along.shape, bool)
        for a0, a1, i0, i1, s0, s1, least in AXIS_ZONES:
            if r.prob < least:
                continue
            zone |= ((along >= a0) & (along <= a1) & (inward >= i0) & (inward <= i1)
                     & (ratio >= s0) & (ratio <= s1))
        for turn, k in zip(*np.nonzero(zone), strict=True):
            s = glyphs[near[k]]
            d = math.hypot(s.cx - r.cx, s.cy - r.cy)
            if not any(math.hypot(s.cx - o.cx, s.cy - o.cy) < d for o in blockers):
                pairs.append((r, s, (float(downs[turn, 0]), float(downs[turn, 1]))))
    # a card paired by its face: the pip it took, wherever it lies on the face
    todo_ids = {id(r) for r in todo}
    for f in found:
        if f.beside or id(f.rank) not in todo_ids or f.rank.prob < AXIS_FACE_RANK_PROB \
                or any(p[0] is f.rank and p[1] is f.suit for p in pairs):
            continue
        pairs.extend((f.rank, f.suit, (float(dx), float(dy))) for dx, dy in ways(f.rank))
    if not pairs:
        return []
    probs = upright([g for r, s, _down in pairs for g in (r, s)],
                    [down for _r, _s, down in pairs for _ in range(2)])
    best: dict[int, _Found] = {}
    for k, (r, s, down) in enumerate(pairs):
        card = _upright_card(r, s, probs[2 * k], probs[2 * k + 1], AXIS_AGREE, down)
        if card is None or card.rank.label != r.label \
                or (s.label in SUIT_CLASSES and s.prob >= RECHECK_PROB
                    and card.suit.label != s.label) \
                or (INK_CHECK and inks is not None and not inks.same(r, s)):
            continue
        if id(r) not in best or best[id(r)].rank_prob * best[id(r)].suit_prob \
                < card.rank_prob * card.suit_prob:
            best[id(r)] = card
    return list(best.values())


#: aces and cards of 2 to 10 read by their pips, on a face in full view (off only to measure it)
PIP_COUNT = True
#: the face around a pip is cut along the thin dark lines in it (a black-hat over a window of
#: ``CUT_WINDOW`` glyph sizes) deeper than this share of the print's contrast: where a card lies
#: on another of the same light face, their faces are of one shade but for the line of the top
#: card's border, and traced as one they are no card. Faces of light print only; None: no cut
PIP_CUT: float | None = 0.08
CUT_WINDOW = 0.4
#: a face's pips whose first readings name suits that disagree are read again upright
#: (``_pips_upright``); those within this many card widths of the middle are printed as the top
#: half's
PIP_UPRIGHT = True
PIP_UPRIGHT_MIDDLE = 0.1
#: a glyph inside the quad of a card read this surely from its index is not counted from
PIP_SKIP_SURE = 0.99
#: the face around a pip is traced closing no gap (the border between two cards of a fan is a
#: thin line) and in a shade this near the face's (of the print's contrast)
PIP_CLOSE, PIP_NEAR = 0.0, 0.3
#: a pip read as a suit at this or more counts
PIP_PROB = 0.5
#: a pip read as another suit than most, this surely or more, leaves the card unread (and so
#: do such pips as many as a quarter of the others)
PIP_AGAINST = 0.8
#: a rank read on a counted face this surely or more, naming another rank, leaves it unread
PIP_VETO = 0.85
#: the suit of a count, when no pip is read as another suit and this many pips or more are read
#: as it, is as sure as ``1 - (1 - a)(1 - b)...`` of each pip's surest reading (None: as sure as
#: the surest pip)
PIP_COMBINE: int | None = 2
#: the rank a count gives, as sure as this (the suit: as sure as the surest pip, or its pips
#: together, ``PIP_COMBINE``)
PIP_COUNT_PROB = 0.98
#: a face's long side over its short side (a card seen square on is 1.4 to 1.56; tilted, more
#: or less)
PIP_FACE_ASPECT = (0.9, 1.9)
#: a face seen nearer square than this may lie either way: both are counted, and must agree
PIP_SQUARE = 1.2
#: the traced face fills the quadrilateral of its corners at least this much (rounded corners)
PIP_FACE_FILL = 0.93
#: two pips lie mirrored (across the card's long middle line, or through its centre) when their
#: mirror images are within this many pip sizes
PIP_MIRROR = 0.5
#: a card's corner indices lie this far or farther from its middle lines, as shares of its
#: width and height (the pips of the standard layouts nearer)
PIP_CORNER = (0.31, 0.3)  # (across, down: of the height)
#: print on a face smaller than this share of a pip is a speck (noise, a decoration's line)
PIP_SPECK = 0.15
#: print smaller than this (pixels) is left out of the pips
PIP_LEAST_AREA = 6
#: a pip is at most this share of its card's width (a picture in a frame is more)
PIP_MOST = 0.45
#: the pips of one card differ in area by at most this factor
PIP_AREA = 1.6
#: the corners of a traced face: its hull simplified to within this share of its length
PIP_QUAD_EPS = 0.04
#: a standard layout: pips in the middle column, pips in each side column
PIP_LAYOUTS: dict[tuple[int, int], str] = {
    (1, 0): "A", (2, 0): "2", (3, 0): "3", (0, 2): "4", (1, 2): "5", (0, 3): "6", (1, 3): "7",
    (2, 3): "8", (0, 4): "8", (1, 4): "9", (2, 4): "T"}


def _face_corners(face: _Face) -> npt.NDArray[np.float32] | None:
    """The four corners of a traced face in full view, in order around it, or None when it is
    not a quadrilateral it fills (a card partly covered, cards run together)."""
    hull = cv2.convexHull(face.outline)
    quad = cv2.approxPolyDP(hull, PIP_QUAD_EPS * cv2.arcLength(hull, True), True)
    if len(quad) != 4 or not cv2.isContourConvex(quad):
        return None
    if cv2.contourArea(face.outline) < PIP_FACE_FILL * cv2.contourArea(quad):
        return None
    return np.asarray(quad.reshape(4, 2), np.float32)


@dataclass(slots=True)
class _PipFace:
    """A card face in full view traced around a glyph, the rank its pips give, and the pips as
    glyphs (the most central first)."""

    face: _Face
    rank: str
    pips: list[Glyph]
    #: the card's long axis in the frame (a unit vector), and each pip's place along it (in card
    #: widths from the middle: the pips of the far half are printed turned a half turn)
    down: tuple[float, float] = (0.0, 1.0)
    along: list[float] = field(default_factory=list)


def _pip_face(seed: Glyph, gray: Image, inks: _Inks | None = None) -> _PipFace | None:
    """The face around ``seed`` and its pips counted: the face must be in full view (a
    quadrilateral of a card's proportions that it fills), the print on it, apart from the corner
    indices, pips of one size laid out as a standard layout (mirrored across the card's long
    middle line, and through its centre but for a 7's odd pip). None otherwise."""
    face = _face_of(seed, gray, PIP_CLOSE, PIP_NEAR, inks, PIP_CUT)
    if face is None or not face.whole:
        return None
    corners = _face_corners(face)
    if corners is None:
        return None
    sides = np.hypot(*(np.roll(corners, -1, axis=0) - corners).T)
    a, b = (sides[0] + sides[2]) / 2.0, (sides[1] + sides[3]) / 2.0
    short, long_ = min(a, b), max(a, b)
    if short < 2.5 * seed.size or not PIP_FACE_ASPECT[0] <= long_ / short <= PIP_FACE_ASPECT[1]:
        return None
    # to card coordinates: x across, y down, the card's middle at 0, its width 1
    aspect = long_ / short
    if a > b:  # the first side is a long one: start one corner on, so that it is a short one
        corners = np.roll(corners, -1, axis=0)
    square = np.array([(-0.5, -aspect / 2), (0.5, -aspect / 2), (0.5, aspect / 2),
                       (-0.5, aspect / 2)], np.float32)
    to_card = cv2.getPerspectiveTransform(corners, square)
    # the print on the face: away from its shade by half the seed's contrast
    x0, y0 = face.x0, face.y0
    h, w = face.mask.shape
    win = gray[y0:y0 + h, x0:x0 + w]
    # the face's hull: print where the face's outline runs in (an index at the border of a card
    # lying on another, cut off with the border) is the face's too
    hull = np.zeros_like(face.mask)
    cv2.fillConvexPoly(hull, cv2.convexHull(face.outline - np.array([x0, y0], np.int32)), 1)
    inner = cv2.erode(hull, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))).astype(bool)
    if not inner.any():
        return None
    shade = float(np.median(win[inner]))
    patch = gray[seed.y:seed.y + seed.h, seed.x:seed.x + seed.w]
    ink = float(patch.min() if seed.dark else patch.max())
    if abs(ink - shade) < 30:
        return None
    level = (ink + shade) / 2.0
    printed = (inner & ((win < level) if seed.dark else (win > level))).view(np.uint8)
    count, _labels, stats, cents = cv2.connectedComponentsWithStats(printed, connectivity=8)
    if count < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    pts = cv2.perspectiveTransform(
        np.add(cents[1:], (x0, y0)).reshape(-1, 1, 2).astype(np.float32), to_card).reshape(-1, 2)
    corner = (np.abs(pts[:, 0]) > PIP_CORNER[0]) & (np.abs(pts[:, 1]) > PIP_CORNER[1] * aspect)
    body = ~corner & (areas >= PIP_LEAST_AREA)
    if not body.any():
        return None
    # the corner indices, in two opposite corners: a face cut across (by another card, by the
    # edge of the picture) has lost one of them, and can look whole
    printed_corners = {(bool(x > 0), bool(y > 0)) for (x, y), c, area in zip(pts, corner, areas,
                                                                              strict=True)
                       if c}
    if not ({(True, True), (False, False)} <= printed_corners
            or {(True, False), (False, True)} <= printed_corners):
        return None
    # the pips: the print of the body of the card, all of one size but for specks
    pip_area = float(np.median(areas[body][areas[body] >= 0.5 * areas[body].max()]))
    significant = body & (areas >= PIP_SPECK * pip_area)
    pip = significant & (areas >= pip_area / PIP_AREA) & (areas <= pip_area * PIP_AREA)
    if (significant & ~pip).any():
        return None  # other print on the face: a picture, a pip cut by glare or not made out
    uv = pts[pip].astype(np.float64)
    boxes = stats[1:][pip]
    if np.maximum(boxes[:, 2], boxes[:, 3]).max() > PIP_MOST * short:
        return None  # a picture in the middle of the face, not a pip
    size = float(np.median(np.maximum(boxes[:, 2], boxes[:, 3]))) / short  # in card widths
    rank = _layout(uv, size)
    if aspect < PIP_SQUARE:  # nearly square as seen: the card may lie either way
        across = _layout(uv[:, ::-1] / aspect, size / aspect)
        if across is not None and across != rank:
            rank = None if rank is not None else across
    if rank is None:
        return None
    # the most central pip first: the card is placed there
    order = np.argsort(np.hypot(uv[:, 0], uv[:, 1]))
    pips = [Glyph(int(x) + x0, int(y) + y0, int(bw), int(bh), float(cx) + x0, float(cy) + y0,
                  seed.dark)
            for (x, y, bw, bh, _area), (cx, cy) in zip(boxes[order], cents[1:][pip][order],
                                                       strict=True)]
    long_side = (corners[3] - corners[0] + corners[2] - corners[1]) / 2.0
    down = _unit(float(long_side[0]), float(long_side[1]))
    return _PipFace(face, rank, pips, down, [float(v) for v in uv[order, 1]])


def _layout(uv: npt.NDArray[np.float64], size: float) -> str | None:
    """The rank of pips at ``uv`` (card coordinates: the card's width 1, its middle at 0) laid
    out as a standard layout, or None: so many pips in the middle column and in each side
    column, mirrored across the card's long middle line, and through its centre but for a 7's
    odd pip (an ace's one pip in the centre). ``size`` is a pip's, in card widths."""
    middle = np.abs(uv[:, 0]) < PIP_MIRROR * size
    side = uv[~middle]
    if (side[:, 0] < 0).sum() != (side[:, 0] > 0).sum():
        return None
    rank = PIP_LAYOUTS.get((int(middle.sum()), len(side) // 2))
    if rank is None:
        return None

    def mirrored(points: npt.NDArray[np.float64], flip: tuple[float, float]) -> bool:
        image = points * flip
        dist = np.hypot(image[:, None, 0] - points[None, :, 0],
                        image[:, None, 1] - points[None, :, 1])
        return bool((dist.min(axis=1) <= PIP_MIRROR * size).all())

    if not mirrored(uv, (-1.0, 1.0)):
        return None
    centred = uv
    if rank == "7":  # its odd pip lies off the centre, on the middle column
        odd = int(np.argmax(np.where(middle, np.abs(uv[:, 1]), -1.0)))
        centred = np.delete(uv, odd, axis=0)
    if not mirrored(centred, (-1.0, -1.0)):
        return None
    if rank == "A" and abs(uv[0, 1]) > PIP_MIRROR * size:
        return None
    return rank


def _in_quads(points: npt.NDArray[np.float64], quads: npt.NDArray[np.float64]
              ) -> npt.NDArray[np.bool_]:
    """Whether each point (n x 2) lies in any of the convex quadrilaterals (m x 4 x 2)."""
    edge = np.roll(quads, -1, axis=1) - quads  # m x 4 x 2
    rel = points[:, None, None, :] - quads[None]  # n x m x 4 x 2
    cross = edge[None, :, :, 0] * rel[..., 1] - edge[None, :, :, 1] * rel[..., 0]
    inside = (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)
    return np.asarray(np.any(inside, axis=1), dtype=np.bool_)


def _pip_read(glyphs: list[Glyph], suits: list[Glyph], ranks: list[Glyph], gray: Image,
              read: ReadFn | None, found: list[_Found], inks: _Inks | None = None,
              upright: UprightFn | None = None) -> list[_Found]:
    """Cards read by counting the pips of faces in full view (:func:`_pip_face`), traced around
    each likely rank and suit not on a face traced already. With ``read`` (the classifier) the
    pips are read as glyphs of their own. The suit is the one most of the pips are read as (as
    sure as its surest reading); a pip read as another suit must be unsure, and the pips read so
    fewer than a quarter of the others. Where the pips so read disagree, with ``upright`` (the
    upright classifier) they are read again turned as printed (``_pips_upright``), and those
    readings decide, two pips or more. A rank read on the face must not name another rank.
    With the frame's colours (``inks``) the faces are traced by their colour too
    (:func:`_face_of`)."""
    seeds = [g for g in glyphs if g.prob >= PIP_PROB
             and (g.label in SUIT_CLASSES or g.label in RANK_CLASSES)]
    # the cards already read surely from an index need no counting
    sure = [f.quad for f in found
            if 1.0 - (1.0 - f.rank_prob * f.suit_prob) * (1.0 - f.upright) >= PIP_SKIP_SURE]
    if sure and seeds:
        held = _in_quads(np.array([(g.cx, g.cy) for g in seeds]), np.array(sure))
        seeds = [g for g, h in zip(seeds, held, strict=True) if not h]
    traced: list[_Face] = []
    counted: list[_PipFace] = []
    for seed in sorted(seeds, key=lambda g: (g.label not in SUIT_CLASSES, -g.prob)):
        if any(f.holds(seed) for f in traced):
            continue
        got = _pip_face(seed, gray, inks)
        if got is not None:
            traced.append(got.face)
            counted.append(got)
    if not counted:
        return []
    reread = read([p for c in counted for p in c.pips]) if read is not None else []
    out: list[_Found] = []
    at = 0
    for c in counted:
        mine = reread[at:at + len(c.pips)]
        at += len(c.pips)
        label = "6" if c.rank in "69" else c.rank
        dark = c.pips[0].dark
        if any(r.dark == dark and r.prob >= PIP_VETO and r.label != label and c.face.holds(r)
               for r in ranks):
            continue  # a rank read on the face that names another is a doubt
        # the suits read of the pips themselves (not of a small print within a larger blot)
        on_pips = [s for s in suits if s.dark == dark and s.prob >= PIP_PROB
                   and any(p.x <= s.cx < p.x + p.w and p.y <= s.cy < p.y + p.h
                           and 0.6 <= s.size / p.size <= 1.6 for p in c.pips)]
        on_pips += [s for s in mine if s.label in SUIT_CLASSES and s.prob >= PIP_PROB]
        suit_label = _pips_agree(on_pips)
        if suit_label is None and on_pips and upright is not None and PIP_UPRIGHT:
            # the first classifier, reading the pips at any angle, named suits that disagree
            on_pips = _pips_upright(c, upright)
            suit_label = _pips_agree(on_pips) if len(on_pips) >= 2 else None
        if suit_label is None:
            continue
        against = [s for s in on_pips if s.label != suit_label]
        best = max((s for s in on_pips if s.label == suit_label), key=lambda s: s.prob)
        suit_prob = best.prob
        if PIP_COMBINE and not against:
            # each pip's surest reading of the suit; pips read apart make it surer together
            per_pip = [max((s.prob for s in on_pips
                            if p.x <= s.cx < p.x + p.w and p.y <= s.cy < p.y + p.h),
                           default=0.0) for p in c.pips]
            named_on = [q for q in per_pip if q > 0.0]
            if len(named_on) >= PIP_COMBINE:
                suit_prob = 1.0 - float(np.prod([1.0 - q for q in named_on]))
        middle = c.pips[0]
        rank = replace(middle, label=label, prob=PIP_COUNT_PROB)
        suit = replace(middle, label=best.label, prob=suit_prob)
        out.append(_Found(rank, suit, False, PIP_COUNT_PROB, suit_prob, c.face.quad(middle),
                          six_nine=c.rank if label == "6" else None))
    return out


def _pips_agree(on_pips: list[Glyph]) -> str | None:
    """The suit that the readings of a face's pips give: the one most of them are read as, the
    pips read as another fewer than a quarter of those and none of them at ``PIP_AGAINST`` or
    more; None otherwise."""
    named = Counter(s.label for s in on_pips).most_common()
    if not named:
        return None
    suit_label, agree = named[0]
    against = [s for s in on_pips if s.label != suit_label]
    if 4 * len(against) >= agree or any(s.prob >= PIP_AGAINST for s in against):
        return None
    return suit_label


def _pips_upright(c: _PipFace, upright: UprightFn) -> list[Glyph]:
    """The pips of a counted face read by the upright classifier, each turned as printed: the
    pips of one half of the card upright and those of the other half a half turn (the middle
    ones with the top half), or, as some decks print them, every pip upright; the card's top
    either way. Of these four ways, the one its pips read surest as (the product of each pip's
    likeliest suit) is taken, and the suits so read at ``PIP_PROB`` or more returned."""
    dx, dy = c.down
    n = len(c.pips)
    ways = [
        # the far half turned, the card's top toward -down, then toward +down
        [(dx, dy) if v < PIP_UPRIGHT_MIDDLE else (-dx, -dy) for v in c.along],
        [(-dx, -dy) if v > -PIP_UPRIGHT_MIDDLE else (dx, dy) for v in c.along],
        # every pip printed upright (some decks), the top either way
        [(dx, dy)] * n,
        [(-dx, -dy)] * n,
    ]
    probs = upright(c.pips * len(ways), [d for way in ways for d in way])
    suit_ids = np.array([UPRIGHT_CLASSES.index(k) for k in "cdhs"])
    best = probs[:, suit_ids].max(axis=1)
    score = np.log(np.maximum(best, 1e-6)).reshape(len(ways), n).sum(axis=1)
    w = int(np.argmax(score))
    chosen = probs[w * n:(w + 1) * n]
    out: list[Glyph] = []
    for p, pr in zip(c.pips, chosen, strict=True):
        k = int(np.argmax(pr))
        label = UPRIGHT_CLASSES[k]
        if label in SUIT_CLASSES and pr[k] >= PIP_PROB:
            out.append(replace(p, label=label, prob=float(pr[k])))
    return out


def assemble(glyphs: list[Glyph], gray: Image, min_confidence: float,
             image: Image | None = None, upright: UprightFn | None = None,
             read: ReadFn | None = None) -> FrameResult:
    """Pair ranks with suits into cards; one reading per card, the most confident, made surer by a
    reading from the card's other corner (``card_readings``, then ``_corroborated``); the
    cards read below ``min_confidence`` are counted as unknown."""
    readings, unknown = card_readings(glyphs, gray, image, upright, read)
    best = _corroborated(readings)
    # the threshold applies to a card once both its corners are counted
    sure = {card: c for card, c in best.items() if c.confidence >= min_confidence}
    unknown += len(best) - len(sure)
    cards = sorted(sure.values(), key=lambda c: (c.index_center[1], c.index_center[0]))
    return FrameResult(cards=cards, unknown=unknown)


def card_readings(glyphs: list[Glyph], gray: Image, image: Image | None = None,
                  upright: UprightFn | None = None, read: ReadFn | None = None
                  ) -> tuple[list[tuple[CardReading, float]], int]:
    """Every card read from an index (or a face), with the size of its rank, and the count of
    the 6s and 9s not told apart. With the colour ``image``, a rank and a suit printed in
    different inks are not paired. With ``upright``, the glyphs of an index read beside each
    other are read again turned upright, and each card's confidence weighs both readings. A
    card in full view is also read by counting its pips (``PIP_COUNT``), with ``read`` (the
    first classifier) reading the pips found on its face."""
    cut = [g for g in glyphs if g.half]
    halves = [g for g in cut if g.label in RANK_CLASSES]
    glyphs = [g for g in glyphs if not g.half]
    ranks = [g for g in glyphs if g.label in RANK_CLASSES and g.prob >= 0.3]
    suits = [g for g in glyphs if g.label in SUIT_CLASSES and g.prob >= 0.3]
    doubts = [] if FACE_DOUBT is None else [
        g for g in glyphs if g.label not in SUIT_CLASSES and g.suit_prob >= FACE_DOUBT]
    found: list[_Found] = []
    vetoed: dict[int, str] = {}
    inks = None if image is None else _Inks(image)
    for r in ranks:
        s = _nearest_suit(r, suits, ranks)
        if INK_CHECK and s is not None and inks is not None and not inks.same(r, s):
            s = None
        beside = s is not None
        suit_prob, quad = (0.0, None) if s is None else (s.prob, _card_quad(r, s))
        if FACE_PAIRING and r.prob * suit_prob < FACE_CHECK_BELOW:
            on_face = _face_suit(r, suits, ranks, gray, inks, doubts)
            if on_face is not None and s is None:
                s, suit_prob, quad = on_face[0], on_face[1], on_face[2].quad(r)
            elif on_face is not None and s is not None and on_face[0].label == s.label:
                # the pips of its own face agree with the index: the suit is as sure as the surest
                suit_prob = max(suit_prob, on_face[1])
        # a suit read twice beside the rank is surer
        if s is not None and r.prob * suit_prob < FACE_CHECK_BELOW:
            suit_prob = max(suit_prob, _agreeing_suit_prob(r, s, suits, ranks))
        if s is None or quad is None:
            continue
        if beside and _outweighed(r, s, suits, ranks, inks):
            vetoed[id(r)] = s.label
            continue
        found.append(_Found(r, s, beside, r.prob, suit_prob, quad))
    if upright is not None and SPLIT_PAIRS:
        found.extend(_halves_paired(cut, upright, inks))
    if upright is not None:
        found.extend(_upright_reading(found, upright))
        if HALF_READ:
            found.extend(_half_read(glyphs, ranks, suits, found, upright, inks, gray.shape))
        if AXIS_READ:
            found.extend(_axis_read(glyphs, ranks, found, upright, inks, gray))
    if upright is not None and WINDOW_READ:
        found.extend(_window_read(ranks + halves, found, upright, gray))
    if upright is not None and FACE_UPRIGHT:
        found.extend(_face_upright_read(glyphs, ranks, found, upright, inks, gray))
    if PIP_COUNT:
        found.extend(_pip_read(glyphs, suits, ranks, gray, read, found, inks, upright))
    readings: list[tuple[CardReading, float]] = []
    unknown = 0
    for f in found:
        if vetoed.get(id(f.rank)) == f.suit.label:
            continue
        rank = f.rank.label
        if rank == "6":
            six_nine = f.six_nine or _six_or_nine(f.rank, f.suit, gray)
            if six_nine is None:
                unknown += 1
                continue
            rank = six_nine
        conf = 1.0 - (1.0 - f.rank_prob * f.suit_prob) * (1.0 - f.upright)
        readings.append((CardReading(rank + f.suit.label, conf, f.quad, (f.rank.cx, f.rank.cy),
                                     _corner(f)), f.rank.size))
    return readings, unknown


def _corroborated(readings: list[tuple[CardReading, float]]) -> dict[str, CardReading]:
    """The most confident reading of each card, surer when the card was also read from an index
    in its other corner: one not read wrong is then ``1 - (1 - a)(1 - b)``. The other corner lies
    CORROBORATE_APART rank sizes or more from the first, and no farther than a card's diagonal.
    Of two cards whose best readings come from one index, only the surer is kept
    (``ONE_INDEX``)."""
    by_card: dict[str, list[tuple[CardReading, float]]] = {}
    for reading, size in readings:
        by_card.setdefault(reading.card, []).append((reading, size))
    out: dict[str, CardReading] = {}
    sizes: dict[str, float] = {}
    for card, found in by_card.items():
        first, size = max(found, key=lambda f: f[0].confidence)
        x, y = first.index_center
        other = max((f.confidence for f, _s in found
                     if CORROBORATE and CORROBORATE_APART * size
                     < math.hypot(f.index_center[0] - x, f.index_center[1] - y)
                     <= CORROBORATE_WITHIN * size), default=0.0)
        conf = 1.0 - (1.0 - first.confidence) * (1.0 - other)
        out[card] = CardReading(card, conf, first.quad, first.index_center, first.corner)
        sizes[card] = size
    return _one_card_an_index(out, sizes)


#: two cards read from one index (their ranks' centres within this many rank sizes of each
#: other): only the surer stands (None: both do). The indices of a tight fan lie 1.45 rank sizes
#: apart and more
ONE_INDEX: float | None = 0.5


def _one_card_an_index(best: dict[str, CardReading], sizes: dict[str, float]
                       ) -> dict[str, CardReading]:
    """The cards of ``best`` (each with the size of its rank) but those read from an index
    another card was read from more surely (``ONE_INDEX``): an index is one card's."""
    if ONE_INDEX is None:
        return best
    cards = list(best.values())
    gone: set[str] = set()
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            d = math.hypot(b.index_center[0] - a.index_center[0],
                           b.index_center[1] - a.index_center[1])
            if d <= ONE_INDEX * min(sizes[a.card], sizes[b.card]):
                gone.add(a.card if a.confidence < b.confidence else b.card)
    return {card: c for card, c in best.items() if card not in gone}


def index_window(image: Image, gray: Image, cx: float, cy: float, size: float,
                 down: tuple[float, float]) -> npt.NDArray[np.float32]:
    """The 2 x ``INDEX_PX`` x ``INDEX_PX`` window of the index network around a suit glyph
    centred at (``cx``, ``cy``) of box size ``size``, turned so that ``down`` (a unit vector in
    the frame, the card's down as printed) points down: the grey standardised (its mean taken
    away, over its spread plus 8 levels), then the redness of the colour over 64."""
    dx, dy = down
    ax, ay = dy, -dx  # the card's right when its down is (dx, dy)

    def at(u: float, v: float) -> tuple[float, float]:
        return cx + (ax * u + dx * v) * size, cy + (ay * u + dy * v) * size

    (left, right), (top, bottom) = INDEX_ACROSS, INDEX_DOWN
    src = np.array([at(left, top), at(right, top), at(right, bottom), at(left, bottom)],
                   np.float32)
    return _warped(image, gray, src, (INDEX_PX, INDEX_PX), cv2.INTER_LINEAR)


def _warped(image: Image, gray: Image, src: npt.NDArray[np.float32], size: tuple[int, int],
            flags: int) -> npt.NDArray[np.float32]:
    """The quadrilateral ``src`` of the frame (its corners top-left, top-right, bottom-right,
    bottom-left) cut to ``size`` (width, height) pixels: the grey standardised (its mean taken
    away, over its spread plus 8 levels), then the redness of the colour over 64."""
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    g = cv2.warpPerspective(gray, m, size, flags=flags,
                            borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    c = cv2.warpPerspective(image, m, size, flags=flags,
                            borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    red = c[..., 2] - (c[..., 0] + c[..., 1]) / 2.0
    g = (g - g.mean()) / (g.std() + 8.0)
    return np.stack([g, red / 64.0])


def card_view(image: Image, gray: Image, quad: Sequence[Sequence[float]]
              ) -> npt.NDArray[np.float32]:
    """The 2 x ``VIEW_H`` x ``VIEW_W`` view of the card-view network of the card whose corners
    (top-left, top-right, bottom-right, bottom-left as printed: ``CardReading.quad``) are
    ``quad``: the quad widened by ``VIEW_MARGIN`` of its size on each side and turned upright,
    the grey standardised as ``index_window`` does, then the redness of the colour over 64."""
    q = np.array(quad, np.float32)
    middle = q.mean(axis=0)
    q = middle + (q - middle) * (1.0 + 2.0 * VIEW_MARGIN)
    return _warped(image, gray, q, (VIEW_W, VIEW_H), cv2.INTER_AREA)


def view_checked(net: Any, image: Image, gray: Image,
                 readings: list[tuple[CardReading, float]]) -> list[tuple[CardReading, float]]:
    """``readings`` (each with its rank's size), those read at ``VIEW_CHECK`` confidence read
    again by the card-view network ``net`` in the view of their quad (``card_view``): one it
    names the same card at ``VIEW_AGREE`` or more is surer, ``1 - (1 - a)(1 - b)``."""
    if VIEW_CHECK is None:
        return readings
    low, high = VIEW_CHECK
    unsure = [k for k, (r, _size) in enumerate(readings) if low <= r.confidence < high]
    if not unsure:
        return readings
    out = _forward(net, np.stack([card_view(image, gray, readings[k][0].quad) for k in unsure]))
    ranks = len(INDEX_RANKS) + 1
    rank_p, suit_p = _softmax(out[:, :ranks]), _softmax(out[:, ranks:])
    checked = list(readings)
    for j, k in enumerate(unsure):
        reading, size = readings[k]
        p = float(rank_p[j, INDEX_RANKS.index(reading.card[0])]
                  * suit_p[j, INDEX_SUITS.index(reading.card[1])])
        if p >= VIEW_AGREE:
            conf = 1.0 - (1.0 - reading.confidence) * (1.0 - p)
            checked[k] = (replace(reading, confidence=conf), size)
    return checked


def lone_rank_reads(net: Any, image: Image, gray: Image, glyphs: list[Glyph],
                    readings: list[tuple[CardReading, float]], upright: UprightFn
                    ) -> list[CardReading]:
    """The cards the card-view network ``net`` names, of their rank, in the quads of the ranks of
    ``glyphs`` read at ``LONE_RANK`` or more that no reading of ``readings`` (each with its
    rank's size) at ``LONE_NEAR`` or more lies near: none within ``LONE_REACH`` of the rank's
    sizes, nor one of its rank whose quad holds it. Each rank's card's down is told by its edges
    and its upright reading (``_rank_down``), its quad as its index gives it (``_card_quad``);
    a card named at ``LONE_VIEW`` or more (its rank's probability times its suit's) is read,
    with that confidence, its index where the rank is."""
    if LONE_VIEW is None:
        return []
    near = [r for r, _size in readings if r.confidence >= LONE_NEAR]
    lone: list[tuple[Glyph, tuple[tuple[float, float], ...]]] = []
    for g in glyphs:
        if g.label not in RANK_CLASSES or g.label == "6" or g.prob < LONE_RANK:
            continue
        if any(math.hypot(r.index_center[0] - g.cx, r.index_center[1] - g.cy)
               <= LONE_REACH * g.size
               or (r.card[0] == g.label
                   and cv2.pointPolygonTest(np.array(r.quad, np.float32), (g.cx, g.cy),
                                            False) >= 0)
               for r in near):
            continue
        way = _rank_down(g, gray, upright)
        if way is not None:
            lone.append((g, _card_quad(g, g, way[0])))
    if not lone:
        return []
    out = _forward(net, np.stack([card_view(image, gray, quad) for _g, quad in lone]))
    ranks = len(INDEX_RANKS) + 1
    rank_p, suit_p = _softmax(out[:, :ranks]), _softmax(out[:, ranks:])
    reads: list[CardReading] = []
    for j, (g, quad) in enumerate(lone):
        suit = int(suit_p[j, :len(INDEX_SUITS)].argmax())
        p = float(rank_p[j, INDEX_RANKS.index(g.label)] * suit_p[j, suit])
        if p >= LONE_VIEW:
            reads.append(CardReading(g.label + INDEX_SUITS[suit], p, quad, (g.cx, g.cy)))
    return reads


def _index_downs(gray: Image, g: Glyph) -> list[tuple[float, float]]:
    """The four ways down a card may run at a glyph: square to the lines around it."""
    axis = _card_axis(gray, g)
    return [(-math.sin(axis + q * math.pi / 2), math.cos(axis + q * math.pi / 2))
            for q in range(4)]


def _index_best(rank_p: npt.NDArray[np.float32], suit_p: npt.NDArray[np.float32]
                ) -> tuple[str, float, int] | None:
    """Of the four ways a suit's window was read (one network's probabilities), the card it
    names most surely, that probability (the rank's times the suit's) and which way; None when
    every way reads no index."""
    best: tuple[str, float, int] | None = None
    for way in range(len(rank_p)):
        r, s = int(rank_p[way].argmax()), int(suit_p[way].argmax())
        if r >= len(INDEX_RANKS) or s >= len(INDEX_SUITS):
            continue
        p = float(rank_p[way, r] * suit_p[way, s])
        if best is None or p > best[1]:
            best = (INDEX_RANKS[r] + INDEX_SUITS[s], p, way)
    return best


def index_reads(nets: Sequence[Any], image: Image, gray: Image, glyphs: list[Glyph],
                view_net: Any = None) -> list[CardReading]:
    """The cards the index networks ``nets`` read in the windows around the suit glyphs of
    ``glyphs`` read at ``INDEX_ANCHOR`` or more: those every network names the same way up at
    ``INDEX_SURE`` or more, with the least of their probabilities as confidence. Each network
    reads only the windows every one before it named so. With the card-view network
    ``view_net``, those named so from ``INDEX_VIEWED`` up to ``INDEX_SURE`` are read again by it
    in the view of their quads (``card_view``): those it names at ``VIEW_AGREE`` or more are read,
    that much surer, ``1 - (1 - a)(1 - b)``; the others are not."""
    if INDEX_SURE is None or not nets:
        return []
    least = INDEX_SURE if view_net is None or INDEX_VIEWED is None \
        else min(INDEX_SURE, INDEX_VIEWED)
    anchors = [g for g in glyphs if g.label in SUIT_CLASSES and g.prob >= INDEX_ANCHOR]
    if not anchors:
        return []
    downs = [_index_downs(gray, g) for g in anchors]
    batch = np.stack([index_window(image, gray, g.cx, g.cy, g.size, d)
                      for g, ds in zip(anchors, downs, strict=True) for d in ds])
    named: list[list[tuple[str, float, int]]] = [[] for _ in anchors]
    left = list(range(len(anchors)))
    ranks = len(INDEX_RANKS) + 1
    for net in nets:
        if not left:
            return []
        out = _forward(net, batch[[4 * k + way for k in left for way in range(4)]])
        rank_p, suit_p = _softmax(out[:, :ranks]), _softmax(out[:, ranks:])
        still = []
        for j, k in enumerate(left):
            best = _index_best(rank_p[4 * j:4 * j + 4], suit_p[4 * j:4 * j + 4])
            if best is None or best[1] < least or \
                    (named[k] and best[::2] != named[k][0][::2]):
                continue
            named[k].append(best)
            still.append(k)
        left = still
    reads: list[CardReading] = []
    for k in left:
        g, (card, _p, way) = anchors[k], named[k][0]
        down = downs[k][way]
        # the rank about INDEX_RANK suit sizes above the suit and as large
        rank = replace(g, cx=g.cx - down[0] * g.size * INDEX_RANK,
                       cy=g.cy - down[1] * g.size * INDEX_RANK,
                       w=round(g.w * INDEX_RANK), h=round(g.h * INDEX_RANK))
        reads.append(CardReading(card, min(n[1] for n in named[k]),
                                 _card_quad(rank, g, down), (g.cx, g.cy)))
    sure = [r for r in reads if r.confidence >= INDEX_SURE]
    unsure = [r for r in reads if r.confidence < INDEX_SURE]
    if not unsure:
        return sure
    out = _forward(view_net, np.stack([card_view(image, gray, r.quad) for r in unsure]))
    rank_p, suit_p = _softmax(out[:, :ranks]), _softmax(out[:, ranks:])
    for j, r in enumerate(unsure):
        p = float(rank_p[j, INDEX_RANKS.index(r.card[0])]
                  * suit_p[j, INDEX_SUITS.index(r.card[1])])
        if p >= VIEW_AGREE:
            sure.append(replace(r, confidence=1.0 - (1.0 - r.confidence) * (1.0 - p)))
    return sure


def decode_image(data: bytes) -> Image:
    """Decode JPEG/PNG bytes to a BGR image, or raise :class:`RecognitionError` saying why."""
    if not data:
        raise RecognitionError("empty image data")
    if data[:2] == b"\xff\xd8" and b"\xff\xd9" not in data[-4096:]:
        raise RecognitionError("truncated JPEG: the data ends before the image does")
    buf = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if image is None:
        raise RecognitionError("not a readable image (expected JPEG or PNG data)")
    return np.asarray(image, dtype=np.uint8)


def load_image(path: Path | str) -> Image:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RecognitionError(f"{p}: cannot read: {exc.strerror}") from exc
    try:
        return decode_image(data)
    except RecognitionError as exc:
        raise RecognitionError(f"{p}: {exc}") from exc
