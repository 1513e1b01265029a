"""Train the card-view network: a CNN reading a card whole, as the quad of a reading shows it
(``nets.card_view``), for its rank and suit, exported to ``model/view.onnx``.

    python -m hardware.training.fetch                  # deck art into .cache/cards (once)
    nice -n 10 python -m hardware.training.view --ranges 95000000:4800

Each synthetic scene is read by the recogniser as it reads a frame in detail, at the frame's own
scale and enlarged (``Detail.scale``), without the card-view network: the view of each
reading's quad is labelled with the card printed where the reading's rank lies (right or wrong,
as the recogniser read it), or "no card" where that is a face-down card or the felt. So the
network learns the quads as the recogniser makes them, and what a card looks like when the
reading named another. Views of the quads a face-up card's own indices give (the rank and suit
boxes as drawn, the rank's size off by up to a quarter) and of quads on the felt or a face-down
card add to them. Needs the ``train`` extra (PyTorch for the CPU, onnx); at most two threads.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hardware.camera.nets import INDEX_RANKS, INDEX_SUITS, VIEW_H, VIEW_PATH, VIEW_W, card_view
from hardware.camera.params import DEFAULT
from hardware.camera.recognize import Recognizer
from hardware.camera.types import Glyph, card_quad
from hardware.training.index import (
    NO_RANK,
    NO_SUIT,
    Samples,
    export,
    face_up_boxes,
    generate,
    train_one,
)

_DECKS: Any = None
_FONTS: Any = None
_READER: Any = None
#: share of the scenes dealt from decks drawn in the installed fonts
FONT_SHARE = 0.5
#: readings below this confidence give no view (they are not read again)
LEAST_READ = 0.02
#: share of a face-up card's indices in view that give a view of their own quad too
OWN_QUADS = 0.7
#: units between the convolutions and the heads
HIDDEN = 128
SHAPE = (VIEW_H, VIEW_W)


def _init(png_root: str) -> None:
    global _DECKS, _FONTS, _READER
    from hardware.training.cardart import load_decks
    from hardware.training.fontdeck import FontDecks

    _DECKS, _FONTS = load_decks(Path(png_root)), FontDecks()
    _READER = Recognizer(min_confidence=0.0, view_path=None)


def _top_card(placed: list[Any], x: float, y: float) -> Any:
    """The card lying uppermost at (``x``, ``y``) of a scene, or None."""
    import cv2

    top = None
    for p in placed:
        ih, iw = p.art.image.shape[:2]
        corners = np.array([[[0, 0], [iw, 0], [iw, ih], [0, ih]]], np.float64)
        pts = cv2.perspectiveTransform(corners, p.matrix)[0].astype(np.float32)
        if cv2.pointPolygonTest(pts, (float(x), float(y)), False) >= 0:
            top = p
    return top


def scene_views(decks: Any, seed: int, fonts: Any, reader: Recognizer) -> Samples:
    """The views of one synthetic scene (``seed``), with their rank and suit labels
    (``NO_RANK`` and ``NO_SUIT``: no card to read)."""
    import cv2

    from hardware.training.synth import TRAIN_RANK_PX, make_scene

    rng = random.Random(seed)
    made = make_scene(decks, rng, size=(1280, 720), fonts=fonts, font_share=FONT_SHARE,
                      fans=(2, 8), apart=220.0, rank_px=TRAIN_RANK_PX)
    xs: list[npt.NDArray[np.float32]] = []
    ranks: list[int] = []
    suits: list[int] = []

    def add(view: npt.NDArray[np.float32], card: Any) -> None:
        up = card is not None and card.face_up
        xs.append(view)
        ranks.append(INDEX_RANKS.index(card.art.card[0]) if up else NO_RANK)
        suits.append(INDEX_SUITS.index(card.art.card[1]) if up else NO_SUIT)

    for scale in (1.0, DEFAULT.detail.scale or 1.5):
        image = made.image if scale == 1.0 else cv2.resize(
            made.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        readings = reader.readings(image)
        for reading, _size in readings:
            if reading.confidence < LEAST_READ:
                continue
            x, y = reading.index_center
            add(card_view(image, gray, reading.quad), _top_card(made.placed, x / scale,
                                                                 y / scale))
    gray = cv2.cvtColor(made.image, cv2.COLOR_BGR2GRAY)
    seen, cards = face_up_boxes(made)
    for p, boxes in cards:
        n = p.art.n_index
        for corner in (range(0, n), range(n, 2 * n)):
            if len(corner) < 2 or not seen(boxes[corner[0]]) or rng.random() < 1.0 - OWN_QUADS:
                continue
            rank, suit = boxes[corner[0]].mean(axis=0), boxes[corner[1]].mean(axis=0)
            size = float(np.ptp(boxes[corner[0]], axis=0).max())
            angle = math.atan2(suit[1] - rank[1], suit[0] - rank[0]) + math.radians(
                rng.gauss(0, 5))
            drawn = Glyph(0, 0, max(1, int(size * rng.uniform(0.75, 1.3))), 1,
                          float(rank[0] + rng.gauss(0, 0.1) * size),
                          float(rank[1] + rng.gauss(0, 0.1) * size), True)
            quad = card_quad(drawn, drawn, (math.cos(angle), math.sin(angle)))
            add(card_view(made.image, gray, quad), p)
    for _ in range(2):  # on the felt or a face-down card: no card to read
        x, y = rng.uniform(40, 1240), rng.uniform(40, 680)
        size, angle = rng.uniform(9, 24), rng.uniform(0, 2 * math.pi)
        top = _top_card(made.placed, x, y)
        drawn = Glyph(0, 0, int(size), 1, x, y, True)
        if top is None or not top.face_up:
            add(card_view(made.image, gray, card_quad(drawn, drawn, (math.cos(angle),
                                                                      math.sin(angle)))), top)
    views = np.array(xs, np.float16).reshape(-1, 2, *SHAPE)
    return views, np.array(ranks, np.int64), np.array(suits, np.int64)


def _one(seed: int) -> Samples:
    return scene_views(_DECKS, seed, _FONTS, _READER)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--png", type=Path, default=Path(".cache/cards/png"))
    parser.add_argument("--cache", type=Path, default=Path(".cache/cards/views"))
    parser.add_argument("--ranges", nargs="+", default=["95000000:4800"],
                        metavar="FIRST:SCENES", help="the training scenes: seed ranges")
    parser.add_argument("--epochs", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--export-only", action="store_true",
                        help="export the network already trained under --cache")
    parser.add_argument("--out", type=Path, default=VIEW_PATH)
    args = parser.parse_args(argv)
    weights = args.cache / "net.pt"
    if not args.export_only:
        parts = []
        for spec in args.ranges:
            first, scenes = (int(v) for v in spec.split(":"))
            parts.append(generate(args.png, args.cache, first, scenes, args.workers, chunk=400,
                                  one=_one, init=_init, name="views"))
        data = tuple(np.concatenate([p[i] for p in parts]) for i in range(3))
        print(f"{len(data[0])} views ({int((data[1] == NO_RANK).sum())} with no card)",
              flush=True)
        train_one((data[0], data[1], data[2]), args.epochs, weights, seed=0, shape=SHAPE,
                  hidden=HIDDEN)
    export([weights], [args.out], shape=SHAPE, hidden=HIDDEN, input_name="view")
    return 0


if __name__ == "__main__":
    sys.exit(main())
