"""The data passed between the stages of card recognition.

    frame ──find──► Found corners ──read──► Evidence on each ──decide──► CardReading / unread

* :class:`Frame`: the picture being read (colour, grey, both merged for cutting patches).
* :class:`Glyph`: a candidate glyph cut out of it, with the glyph classifier's reading.
* :class:`Found`: an index corner found in it (a rank glyph, the suit glyph paired with it, the
  card's quad as the index gives it), what found it, and the :class:`Evidence` read of it.
* :class:`Evidence`: one reader's reading of a corner's rank, suit or whole card, with its
  :class:`Source` (stage, reader, rule).
* :class:`CardReading`: a card named, with the source that named it and the evidence weighed;
  :class:`FrameResult`: a frame's cards and the corners it found and could not name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera import CARD_RANK_HEIGHTS, rank_height
from hardware.camera.deck import Corner
from hardware.camera.deck import Glyph as DeckGlyph
from hardware.camera.inks import Inks

#: a BGR or grey picture as OpenCV returns it
Image = npt.NDArray[Any]
#: a card's corners in the frame: top-left, top-right, bottom-right, bottom-left as printed
Quad = tuple[tuple[float, float], ...]


class RecognitionError(ValueError):
    """An image that cannot be recognised (not decodable, wrong shape)."""


class Frame:
    """A frame being read: its colour picture (None for a grey one, whose inks are not told),
    its grey, both merged (colour and grey, for cutting patches) and its glyphs' inks."""

    def __init__(self, gray: Image, image: Image | None = None, ink_lightness: float = 0.2,
                 ink_agree: float = 0.5) -> None:
        self.gray = gray
        self.image = image
        self.inks = None if image is None else Inks(image, ink_lightness, ink_agree)
        self._both: Image | None = None

    @classmethod
    def of(cls, image: Image, ink_lightness: float = 0.2, ink_agree: float = 0.5) -> Frame:
        return cls(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), image, ink_lightness, ink_agree)

    @property
    def both(self) -> Image:
        """The colour picture with its grey as a fourth channel (what ``cv2.merge`` gives, in
        less than half its time: 1.0 against 2.4 ms a 1280x720 frame)."""
        if self._both is None:
            assert self.image is not None, "a grey frame has no colour to cut patches of"
            both = cv2.cvtColor(self.image, cv2.COLOR_BGR2BGRA)
            cv2.insertChannel(self.gray, both, 3)
            self._both = both
        return self._both

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.gray.shape)


@dataclass(frozen=True, slots=True)
class Glyph:
    """One candidate glyph: its bounding box, its pixel mask's centroid and its polarity, and
    the glyph classifier's reading of it."""

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
    #: one half of a candidate cut at its waist: read only as a sure rank (for the windows
    #: below it) or with the other half of its cut
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
class Source:
    """Where a reading comes from: the stage ("find", "read", "decide"), the reader in it
    ("glyphs", "upright", "pips", "index", "view", ...) and its rule ("pair", "agrees", ...)."""

    stage: str
    reader: str
    rule: str

    def __str__(self) -> str:
        return f"{self.stage}/{self.reader}/{self.rule}"


@dataclass(frozen=True, slots=True)
class Evidence:
    """One reader's reading of a corner, at probability ``p``: of its rank (``rank`` only), of
    its suit (``suit`` only) or of its whole card (both). ``against``: a reading of another rank
    or suit than the corner's, which weighs ``1 - p`` against it (:mod:`~hardware.camera.decide`
    says how evidence is weighed)."""

    source: Source
    p: float
    rank: str = ""
    suit: str = ""
    against: bool = False

    def __str__(self) -> str:
        what = (self.rank + self.suit) or "?"
        return f"{'not ' if self.against else ''}{what} {self.p:.4f} ({self.source})"


@dataclass(slots=True, eq=False)
class Found:
    """An index corner found in a frame: its rank glyph and the suit glyph paired with it
    (``beside``: printed beside the rank, not a pip of the face), the card's quad as the index
    gives it, what found it, and the evidence read of it so far (the first item: the reading
    it was found by)."""

    rank: Glyph
    suit: Glyph
    beside: bool
    quad: Quad
    source: Source
    evidence: list[Evidence] = field(default_factory=list)

    @property
    def corner(self) -> Corner:
        """The corner as the deck knows it: the suit glyph only when it is the index's own."""
        q = self.quad
        down = unit((q[3][0] + q[2][0] - q[0][0] - q[1][0]) / 2.0,
                    (q[3][1] + q[2][1] - q[0][1] - q[1][1]) / 2.0)
        r, s = self.rank, self.suit
        return Corner(DeckGlyph(r.cx, r.cy, r.size),
                      DeckGlyph(s.cx, s.cy, s.size) if self.beside else None, down, r.dark, q)

    @property
    def read_corner(self) -> Corner:
        """The corner as a reader of the deck reads it: with its suit glyph, a pip of the face
        too (the card's suit all the same)."""
        c = self.corner
        s = self.suit
        return c if c.suit is not None else Corner(c.rank, DeckGlyph(s.cx, s.cy, s.size),
                                                   c.down, c.dark, c.quad)


@dataclass(frozen=True, slots=True)
class CardReading:
    """A face-up card named: its confidence, quad and index, the index corner it was read from
    (None: told from the quad by :func:`corner_of`), what named it (the rule that found it and
    read its rank and suit) and the evidence weighed."""

    card: str
    confidence: float
    quad: Quad
    index_center: tuple[float, float]
    corner: Corner | None = None
    source: Source | None = None
    evidence: tuple[Evidence, ...] = ()
    #: the scale of the picture it was read in (1.5: the frame enlarged, read in detail)
    scale: float = 1.0

    def explain(self) -> str:
        """What named the card and the evidence weighed, one line."""
        where = f" in the frame enlarged {self.scale:g} times" if self.scale != 1.0 else ""
        weighed = "; ".join(str(e) for e in self.evidence)
        return f"{self.card} {self.confidence:.4f}: {self.source or 'unknown source'}{where}" \
            + (f" [{weighed}]" if weighed else "")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "card": self.card,
            "confidence": round(self.confidence, 4),
            "quad": [[round(x, 1), round(y, 1)] for x, y in self.quad],
        }
        if self.source is not None:
            out["source"] = str(self.source)
        return out


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


def unit(dx: float, dy: float) -> tuple[float, float]:
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


def card_quad(rank: Glyph, suit: Glyph, down: tuple[float, float] | None = None) -> Quad:
    """Estimate a card's corners (top-left, top-right, bottom-right, bottom-left of the card as
    printed) from its index: down is rank -> suit unless given (a unit vector), the glyph height
    is about a tenth of the card (``CARD_RANK_HEIGHTS``)."""
    if down is None:
        down = unit(suit.cx - rank.cx, suit.cy - rank.cy)
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


def boxes(glyphs: list[Glyph]) -> npt.NDArray[np.int64]:
    """The glyphs' boxes as rows (x0, y0, x1, y1)."""
    return np.array([(g.x, g.y, g.x + g.w, g.y + g.h) for g in glyphs], np.int64).reshape(-1, 4)
