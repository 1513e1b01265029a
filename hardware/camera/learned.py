"""Reading the deck on the table: the nearest examples of a corner's rank and of its suit.

A network trained on many deck designs (``model/glyph-embed.onnx``, ``hardware.training.glyphs``)
turns an upright glyph window (``examples.glyph_window``) into a point on a sphere, near the
points of the same glyph of the same deck and far from every other glyph. It was never told any
deck's names for its glyphs: a deck learned at the table (``deck.Deck``) says which point is
which.

:class:`DeckReader` is the deck as a reader of the recogniser's stages:

* stage 1, **find** (:meth:`DeckReader.find`): any glyph with a suit-like glyph of a fitting size
  beside it is a corner of the deck's, whatever the glyph classifier read it as (a deck whose
  courts print R, D and V, or whose type the classifier has never seen, is found as well as any);
* stage 2, **read** (:meth:`DeckReader.read`): each corner's rank window is compared with the
  deck's examples of every rank, its suit window with those of every suit; the likeness of the
  nearest example of each class makes a softmax (``Learned.tau``), joined with the glyph
  classifier's own reading of the glyph (``Learned.generic``). A corner the generic readers found
  gets the deck's card as evidence for it or against it; the deck's own corners are read so.

Stage 3 (``decide``) weighs this evidence as any other.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera.deck import RANKS, SUITS, Corner, Deck, Example
from hardware.camera.deck import Glyph as DeckGlyph
from hardware.camera.examples import glyph_window, suit_from_layout
from hardware.camera.nets import Net, forward
from hardware.camera.params import Learned
from hardware.camera.types import Evidence, Found, Frame, Glyph, Source, card_quad, unit

if TYPE_CHECKING:
    from hardware.camera.find import Corners

EMBED_PATH = Path(__file__).resolve().parent / "model" / "glyph-embed.onnx"
#: the network's input: two channels (grey, print made dark; redness) of this many pixels square
EMBED_PX = 32
DECK_PAIR = Source("find", "deck", "pair")
DECK_RANK = Source("read", "deck", "rank")
DECK_SUIT = Source("read", "deck", "suit")
DECK_CARD = Source("read", "deck", "card")

Image = npt.NDArray[Any]
Floats = npt.NDArray[np.float32]


def window_input(windows: Sequence[npt.NDArray[np.uint8]], darks: Sequence[bool]) -> Floats:
    """The network's input for glyph windows (BGR, ``deck.GLYPH_PX`` square): the grey with its
    print made dark (a window of light print turned over), stretched to 0..1; then the redness
    (red over the larger of green and blue, over 128, within -1..1)."""
    out = np.empty((len(windows), 2, EMBED_PX, EMBED_PX), np.float32)
    for k, (win, dark) in enumerate(zip(windows, darks, strict=True)):
        small = cv2.resize(win, (EMBED_PX, EMBED_PX), interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
        if not dark:
            grey = 255.0 - grey
        lo, hi = float(grey.min()), float(grey.max())
        out[k, 0] = (grey - lo) / max(hi - lo, 16.0)
        b, g, r = (small[:, :, i].astype(np.float32) for i in range(3))
        out[k, 1] = np.clip((r - np.maximum(b, g)) / 128.0, -1.0, 1.0)
    return out


class Embedder:
    """The glyph network: windows to unit points. One per thread, as the recogniser's networks."""

    def __init__(self, model_path: Path | str = EMBED_PATH) -> None:
        self.model_path = Path(model_path)
        self.net = Net(self.model_path, "glyph model")

    def embed(self, windows: Sequence[npt.NDArray[np.uint8]], darks: Sequence[bool]) -> Floats:
        if not windows:
            return np.zeros((0, 0), np.float32)
        batch = window_input(windows, darks)
        points = forward(self.net, batch)
        points /= np.maximum(np.linalg.norm(points, axis=1, keepdims=True), 1e-6)
        return points


@dataclass(frozen=True, slots=True)
class Points:
    """A deck's examples of one kind of glyph as points: each example's point and class."""

    points: Floats
    classes: tuple[str, ...]

    def likeness(self, point: Floats) -> dict[str, float]:
        """The likeness (cosine) of ``point`` to the nearest example of each class."""
        if not self.classes:
            return {}
        near = self.points @ point
        out: dict[str, float] = {}
        for c, v in zip(self.classes, near.tolist(), strict=True):
            if v > out.get(c, -2.0):
                out[c] = v
        return out


def deck_points(embedder: Embedder, examples: Sequence[Example]) -> tuple[Points, Points]:
    """The deck's rank examples and its suit examples as points."""
    ranks = [e for e in examples if e.rank is not None]
    suits = [e for e in examples if e.suit is not None]
    rank_points = embedder.embed([e.rank for e in ranks if e.rank is not None],
                                 [e.dark for e in ranks])
    suit_points = embedder.embed([e.suit for e in suits if e.suit is not None],
                                 [e.dark for e in suits])
    return (Points(rank_points, tuple(e.card[0] for e in ranks)),
            Points(suit_points, tuple(e.card[1] for e in suits)))


def weights(likeness: dict[str, float], classes: str, p: Learned) -> dict[str, float]:
    """The deck's probability of each class: a softmax of the likeness of its nearest example
    over ``tau``, a class with no example weighing as ``unseen``, and beside them "none of the
    deck's" weighing as ``none`` (what is left of 1 once the classes are summed)."""
    logits = {c: likeness.get(c, p.unseen) / p.tau for c in classes}
    top = max(*logits.values(), p.none / p.tau)
    exp = {c: math.exp(v - top) for c, v in logits.items()}
    total = sum(exp.values()) + math.exp(p.none / p.tau - top)
    return {c: v / total for c, v in exp.items()}


def _generic_rank(g: Glyph) -> dict[str, float]:
    """The glyph classifier's reading of a rank glyph as a probability of each rank: its class
    (a "6" a 6 or a 9; the "1" of a ten a ten) at its probability, the rest shared."""
    label = {"1": "T"}.get(g.label, g.label)
    out = dict.fromkeys(RANKS, 1.0 / len(RANKS))
    if label == "6":
        rest = (1.0 - g.prob) / (len(RANKS) - 2)
        out = dict.fromkeys(RANKS, rest)
        out["6"] = out["9"] = g.prob / 2.0
    elif label in out:
        rest = (1.0 - g.prob) / (len(RANKS) - 1)
        out = dict.fromkeys(RANKS, rest)
        out[label] = g.prob
    return out


def _generic_suit(g: Glyph) -> dict[str, float]:
    label, prob = (g.label, g.prob) if g.label in SUITS else (g.suit, g.suit_prob)
    if label not in SUITS:
        return dict.fromkeys(SUITS, 0.25)
    out = dict.fromkeys(SUITS, (1.0 - prob) / 3.0)
    out[label] = prob
    return out


def joined(deck: dict[str, float], generic: dict[str, float], p: Learned) -> dict[str, float]:
    """The deck's and the glyph classifier's readings together: a product of the two, what the
    deck left to "none of its classes" kept aside."""
    kept = sum(deck.values())
    out = {c: deck[c] * max(generic[c], 1e-6) ** p.generic for c in deck}
    total = sum(out.values()) or 1.0
    return {c: kept * v / total for c, v in out.items()}


def best(probs: dict[str, float]) -> tuple[str, float]:
    c = max(probs, key=lambda k: probs[k])
    return c, probs[c]


class DeckReader:
    """The deck on the table as a finder and reader of corners (see the module's text). Made
    for one deck and one thread; ``Embedder`` may be shared by the readers of one thread."""

    def __init__(self, deck: Deck, embedder: Embedder, p: Learned) -> None:
        self.deck = deck
        self.embedder = embedder
        self.p = p
        self.ranks, self.suits = deck_points(embedder, list(deck))
        #: the colour of the faces the deck's ranks are printed on (Lab), one per example
        self.grounds = np.array([ground(e.rank, e.dark) for e in deck if e.rank is not None],
                                np.float32).reshape(-1, 3)
        #: where the deck prints its suits from its ranks, read for a corner with no suit
        #: glyph beside its rank (None: such corners are read by their rank alone)
        self.layout = deck.layout(p.agree)

    def _probs(self, frame: Frame, corners: Sequence[Corner], on_face: bool = False
               ) -> list[tuple[dict[str, float] | None, dict[str, float] | None]]:
        """The deck's probability of each rank and each suit, for each corner (None where the
        corner has no such glyph or the deck no example of that kind, and, ``on_face``, both
        None where its rank is not printed on a face of the deck's colour)."""
        image = frame.image if frame.image is not None \
            else cv2.cvtColor(frame.gray, cv2.COLOR_GRAY2BGR)
        windows = [glyph_window(image, c.rank, c.down, c.dark) for c in corners]
        faced = [not on_face or self.on_face(w, c.dark) for w, c in zip(windows, corners,
                                                                       strict=True)]
        darks = [c.dark for c in corners]
        layout = self.layout
        has_suit = [i for i, c in enumerate(corners) if c.suit is not None or layout is not None]
        for i in has_suit:
            c = corners[i]
            glyph = c.suit if c.suit is not None or layout is None \
                else suit_from_layout(c, layout)
            assert glyph is not None
            windows.append(glyph_window(image, glyph, c.down, c.dark))
            darks.append(c.dark)
        points = self.embedder.embed(windows, darks)
        suit_at = {i: len(corners) + k for k, i in enumerate(has_suit)}
        out: list[tuple[dict[str, float] | None, dict[str, float] | None]] = []
        for i in range(len(corners)):
            if not faced[i]:
                out.append((None, None))
                continue
            rank = weights(self.ranks.likeness(points[i]), RANKS, self.p) \
                if self.ranks.classes else None
            suit = weights(self.suits.likeness(points[suit_at[i]]), SUITS, self.p) \
                if i in suit_at and self.suits.classes else None
            out.append((rank, suit))
        return out

    def on_face(self, window: npt.NDArray[np.uint8], dark: bool) -> bool:
        """Whether a rank window's ground is the colour of the deck's faces: within
        ``Learned.ground`` of an example's (lightness counted a quarter: a lamp lights a table
        unevenly). A chip's dots or a felt's pattern paired like an index are not."""
        if not len(self.grounds):
            return True
        d = self.grounds - ground(window, dark)
        d[:, 0] *= 0.25
        return bool(np.sqrt((d * d).sum(axis=1)).min() <= self.p.ground)

    def read(self, frame: Frame, corners: Sequence[Corner]) -> list[list[Evidence]]:
        """Evidence for or against each corner found by the other readers: the deck's card,
        where it reads both the rank and the suit."""
        if not corners or not len(self.deck):
            return [[] for _ in corners]
        out: list[list[Evidence]] = []
        for rank, suit in self._probs(frame, corners):
            if rank is None or suit is None:
                out.append([])
                continue
            r, pr = best(rank)
            s, ps = best(suit)
            out.append([Evidence(DECK_CARD, pr * ps, r, s)])
        return out

    def find(self, frame: Frame, corners: Corners, found: Sequence[Found]) -> list[Found]:
        """The deck's own corners (see the module's text), each read by the deck and the glyph
        classifier together: every glyph paired with a suit-like glyph beside it, and every
        corner found with no suit beside its rank, its suit read where the deck prints it."""
        if not len(self.deck) or not self.ranks.classes or not self.suits.classes:
            return []
        pairs = [(r, s, pair_corner(r, s)) for r, s in glyph_pairs(corners.glyphs, self.p)
                 if self.layout is None or fits_layout(r, s, self.layout, self.p.fit)]
        if self.layout is not None:
            for f in found:
                if f.beside:
                    continue
                c = f.corner
                at = suit_from_layout(c, self.layout)
                glyph = _snapped(at, f.rank, corners.glyphs, self.p)
                pairs.append((f.rank, glyph, Corner(c.rank, DeckGlyph(glyph.cx, glyph.cy,
                                                                       glyph.size),
                                                    c.down, c.dark, c.quad)))
        if not pairs:
            return []
        made = [corner for _r, _s, corner in pairs]
        out = []
        for (r, s, corner), (rank, suit) in zip(pairs, self._probs(frame, made, True),
                                                strict=True):
            if rank is None or suit is None:
                continue
            rank_p = joined(rank, _generic_rank(r), self.p)
            suit_p = joined(suit, _generic_suit(s), self.p)
            (rc, rp), (sc, sp) = best(rank_p), best(suit_p)
            out.append(Found(r, s, True, corner.quad, DECK_PAIR,
                             [Evidence(DECK_RANK, rp, rank=rc), Evidence(DECK_SUIT, sp, suit=sc)]))
        return out


def ground(window: npt.NDArray[np.uint8], dark: bool) -> Floats:
    """The colour (Lab, OpenCV's 8-bit scale) of the ground a glyph window's print lies on: the
    median of the pixels on the ground's side of an Otsu threshold."""
    grey = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY)
    if not dark:
        grey = 255 - grey
    _t, light = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    on = lab[light.reshape(-1) > 0]
    out: Floats = np.median(on if len(on) else lab, axis=0).astype(np.float32)
    return out


def _snapped(at: DeckGlyph, rank: Glyph, glyphs: Sequence[Glyph], p: Learned) -> Glyph:
    """The suit-like glyph nearest where the deck's layout puts a corner's suit (``at``), within
    ``Learned.snap`` of the rank's sizes; else a glyph placed there."""
    near = [(math.hypot(g.cx - at.cx, g.cy - at.cy), g) for g in glyphs
            if not g.half and g.dark == rank.dark and suit_like(g, p)
            and p.sizes[0] <= g.size / rank.size <= p.sizes[1]]
    near = [(d, g) for d, g in near if d <= p.snap * rank.size]
    return min(near, key=lambda n: n[0])[1] if near else _placed(at, rank)


def _placed(g: DeckGlyph, like: Glyph) -> Glyph:
    """A glyph where the deck's layout puts one (not cut out: read as nothing yet)."""
    half = g.size / 2.0
    return Glyph(round(g.cx - half), round(g.cy - half), max(1, round(g.size)),
                 max(1, round(g.size)), g.cx, g.cy, like.dark)


def glyph_pairs(glyphs: Sequence[Glyph], p: Learned) -> list[tuple[Glyph, Glyph]]:
    """Every glyph (but those surely read as a suit or as no glyph of an index) with each
    suit-like glyph of a fitting size beside it,
    in the same ink: the corners a deck may print, whatever the glyph classifier read them as."""
    whole = [g for g in glyphs if not g.half]
    if not whole:
        return []
    xy = np.array([(g.cx, g.cy) for g in whole])
    size = np.array([g.size for g in whole])
    suits = np.array([suit_like(g, p) for g in whole])
    dark = np.array([g.dark for g in whole])
    pairs: list[tuple[Glyph, Glyph]] = []
    for i, g in enumerate(whole):
        if (g.label == "other" or g.label in SUITS) and g.prob >= p.not_rank:
            continue
        d = np.hypot(*(xy - xy[i]).T) / size[i]
        ratio = size / size[i]
        near = (d >= p.reach[0]) & (d <= p.reach[1]) & (ratio >= p.sizes[0]) \
            & (ratio <= p.sizes[1]) & suits & (dark == g.dark)
        near[i] = False
        pairs.extend((g, whole[j]) for j in np.flatnonzero(near))
    return pairs


def fits_layout(rank: Glyph, suit: Glyph, layout: tuple[float, float, float], fit: float
                ) -> bool:
    """Whether a suit glyph lies from a rank glyph as the deck prints its suits (``layout``:
    ``Deck.layout``): as far, in the rank's sizes, and of the size, each within a factor
    ``fit``. The two digits of a 10, or a rank beside a pip, lie otherwise."""
    right, down, size = layout
    far = math.hypot(right, down)
    d = math.hypot(suit.cx - rank.cx, suit.cy - rank.cy) / rank.size
    ratio = suit.size / rank.size
    return (far <= 0 or 1 / fit <= d / far <= fit) and (size <= 0 or 1 / fit <= ratio / size <= fit)


def suit_like(g: Glyph, p: Learned) -> bool:
    """Whether the glyph classifier reads a glyph as a suit, or as like one, at
    ``Learned.suit_like`` or more, and not surely as a rank (the 0 of a 10 is round)."""
    if g.label not in SUITS and g.label != "other" and g.prob >= p.not_suit:
        return False
    return (g.prob if g.label in SUITS else g.suit_prob) >= p.suit_like


def pair_corner(rank: Glyph, suit: Glyph) -> Corner:
    """The corner of a rank glyph paired with a suit glyph beside it (its down: rank to suit)."""
    return Corner(DeckGlyph(rank.cx, rank.cy, rank.size), DeckGlyph(suit.cx, suit.cy, suit.size),
                  unit(suit.cx - rank.cx, suit.cy - rank.cy), rank.dark, card_quad(rank, suit))


class DeckReaders:
    """Makes the :class:`DeckReader` of a deck for one thread, once per version of the deck."""

    def __init__(self, model_path: Path | str = EMBED_PATH, p: Learned | None = None) -> None:
        self.embedder = Embedder(model_path)
        self.p = p or Learned()
        self._lock = threading.Lock()
        self._made: tuple[int, int, DeckReader] | None = None

    def __call__(self, deck: Deck) -> DeckReader:
        with self._lock:
            made = self._made
            if made is None or made[0] != id(deck) or made[1] != deck.version:
                made = (id(deck), deck.version, DeckReader(deck, self.embedder, self.p))
                self._made = made
            return made[2]


__all__ = ["DECK_CARD", "DECK_PAIR", "DECK_RANK", "DECK_SUIT", "EMBED_PATH", "DeckReader",
           "DeckReaders", "Embedder", "Points", "deck_points", "glyph_pairs", "pair_corner",
           "suit_like", "window_input"]
