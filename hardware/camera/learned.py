"""Reading a corner by the deck on the table: the nearest examples of its rank and of its suit.

A network trained on many deck designs (``model/glyph-embed.onnx``, ``hardware.training.glyphs``)
turns an upright glyph window (``deck.glyph_window``) into a point on a sphere, near the points of
the same glyph of the same deck and far from every other glyph. It was never told any deck's
names for its glyphs: a deck learned at the table (``deck.Deck``) says which point is which. A
corner's rank is read as the rank of the examples nearest its rank window, its suit as the suit of
the examples nearest its suit window; how near, and how much nearer than the nearest example of
any other rank or suit, says how sure the reading is.

    reader = LearnedReader()
    evidence = reader.read(image, corners, deck)   # one ``DeckEvidence`` per corner
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera.deck import RANKS, SUITS, Corner, Deck, Example, glyph_window

EMBED_PATH = Path(__file__).resolve().parent / "model" / "glyph-embed.onnx"
#: the network's input: two channels (grey, print made dark; redness) of this many pixels square
EMBED_PX = 32

Image = npt.NDArray[Any]
Floats = npt.NDArray[np.float32]


def window_input(windows: list[npt.NDArray[np.uint8]], darks: list[bool]) -> Floats:
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


@dataclass(frozen=True, slots=True)
class Scores:
    """A glyph read against a deck's examples: the nearest example's likeness (cosine, -1..1)
    for each class the deck has examples of, and the example that was nearest of all."""

    by_class: dict[str, float]
    nearest: str | None  # the id of the nearest example

    def best(self) -> tuple[str | None, float, float]:
        """The nearest class, its likeness, and by how much it is nearer than the next class
        (its likeness when the deck has no other class)."""
        if not self.by_class:
            return None, 0.0, 0.0
        order = sorted(self.by_class.items(), key=lambda kv: -kv[1])
        second = order[1][1] if len(order) > 1 else 0.0
        return order[0][0], order[0][1], order[0][1] - second


@dataclass(frozen=True, slots=True)
class DeckEvidence:
    """What the learned deck says of one corner: its rank's and its suit's scores (None where the
    corner has no such glyph or the deck no example of it)."""

    rank: Scores | None
    suit: Scores | None


class _Points:
    """A deck's examples as points: each glyph's embedding, its class and its example's id."""

    def __init__(self, points: Floats, classes: list[str], ids: list[str]) -> None:
        self.points, self.classes, self.ids = points, classes, ids
        self.class_ids = {c: np.array([i for i, k in enumerate(classes) if k == c])
                          for c in dict.fromkeys(classes)}

    def scores(self, point: Floats) -> Scores:
        if not self.classes:
            return Scores({}, None)
        likeness = self.points @ point
        by_class = {c: float(likeness[idx].max()) for c, idx in self.class_ids.items()}
        return Scores(by_class, self.ids[int(likeness.argmax())])


class LearnedReader:
    """Reads corners against a learned deck. One per thread (a ``cv2.dnn`` network is read by
    one thread at a time)."""

    def __init__(self, model_path: Path | str = EMBED_PATH) -> None:
        path = Path(model_path)
        if not path.is_file():
            raise FileNotFoundError(f"glyph model not found: {path}")
        self.model_path = path
        self.net = cv2.dnn.readNetFromONNX(str(path))
        self._lock = threading.Lock()
        #: per deck: (version, rank points, suit points)
        self._decks: dict[int, tuple[int, _Points, _Points]] = {}

    def embed(self, windows: list[npt.NDArray[np.uint8]], darks: list[bool]) -> Floats:
        """Each window's point (unit length)."""
        if not windows:
            return np.zeros((0, 0), np.float32)
        batch = window_input(windows, darks)
        outs = []
        for i in range(0, len(batch), 64):
            self.net.setInput(batch[i:i + 64])
            outs.append(np.asarray(self.net.forward(), np.float32).reshape(len(batch[i:i + 64]),
                                                                             -1))
        points = np.concatenate(outs)
        points /= np.maximum(np.linalg.norm(points, axis=1, keepdims=True), 1e-6)
        return points

    def _points(self, deck: Deck) -> tuple[_Points, _Points]:
        with self._lock:
            held = self._decks.get(id(deck))
            if held is not None and held[0] == deck.version:
                return held[1], held[2]
            examples: list[Example] = list(deck)
            ranks = [e for e in examples if e.rank is not None]
            suits = [e for e in examples if e.suit is not None]
            rank_points = _Points(
                self.embed([e.rank for e in ranks if e.rank is not None],
                           [e.dark for e in ranks]),
                [e.card[0] for e in ranks], [e.id for e in ranks])
            suit_points = _Points(
                self.embed([e.suit for e in suits if e.suit is not None],
                           [e.dark for e in suits]),
                [e.card[1] for e in suits], [e.id for e in suits])
            self._decks[id(deck)] = (deck.version, rank_points, suit_points)
            return rank_points, suit_points

    def read(self, image: Image, corners: list[Corner], deck: Deck) -> list[DeckEvidence]:
        """What ``deck`` says of each corner of the BGR ``image``."""
        if not corners or not len(deck):
            return [DeckEvidence(None, None) for _ in corners]
        rank_points, suit_points = self._points(deck)
        windows = [glyph_window(image, c.rank, c.down) for c in corners]
        darks = [c.dark for c in corners]
        with_suit = [i for i, c in enumerate(corners) if c.suit is not None]
        for i in with_suit:
            glyph = corners[i].suit
            assert glyph is not None
            windows.append(glyph_window(image, glyph, corners[i].down))
            darks.append(corners[i].dark)
        points = self.embed(windows, darks)
        out = []
        suit_at = {i: len(corners) + k for k, i in enumerate(with_suit)}
        for i in range(len(corners)):
            rank = rank_points.scores(points[i]) if rank_points.classes else None
            suit = suit_points.scores(points[suit_at[i]]) \
                if i in suit_at and suit_points.classes else None
            out.append(DeckEvidence(rank, suit))
        return out


__all__ = ["EMBED_PATH", "RANKS", "SUITS", "DeckEvidence", "LearnedReader", "Scores",
           "window_input"]
