"""The drawn training and evaluation scenes list as in view only what a camera would see."""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from hardware.training.synth import make_scene
from tests.helpers.camera import FRAME, drawn_decks


def _share_under(pts: np.ndarray, cx: float, cy: float, r: float) -> float:
    """The share of a glyph's box (4x2 corners) that a chip's disc covers."""
    box = np.zeros((FRAME[1], FRAME[0]), np.uint8)
    cv2.fillConvexPoly(box, np.round(pts).astype(np.int32), 1)
    disc = np.zeros_like(box)
    cv2.circle(disc, (round(cx), round(cy)), round(r), 1, -1)
    return float((box & disc).sum()) / max(float(box.sum()), 1.0)


def _under_a_chip(pts: np.ndarray, chips: list[tuple[float, float, float]]) -> bool:
    """A tenth of the box or more under one chip (a chip's edge grazing it leaves it legible)."""
    return any(math.hypot(cx - pts[:, 0].mean(), cy - pts[:, 1].mean()) < r + 40
               and _share_under(pts, cx, cy, r) >= 0.1 for cx, cy, r in chips)


def test_an_index_under_a_chip_is_not_in_view() -> None:
    decks = drawn_decks()
    covered = 0
    for seed in range(710_001, 710_121):
        scene = make_scene(decks, random.Random(seed), size=FRAME, fans=(3, 6), apart=150.0,
                           picture=False)  # the layout is what is checked
        in_view = [pts for _label, pts in scene.glyphs]
        for pts in in_view:
            assert not _under_a_chip(pts, scene.chips), (
                f"scene {seed}: a glyph at {pts.mean(axis=0).round()} under a chip is in view")
        # the glyphs of the face-up cards that a chip lies on: none of them may be listed
        for p in scene.placed:
            if not p.face_up:
                continue
            n = p.art.n_index
            for _label, box in p.art.glyphs[:2 * n]:
                pts = cv2.perspectiveTransform(box[None].astype(np.float64), p.matrix)[0]
                if _under_a_chip(pts, scene.chips):
                    covered += 1
        for card in scene.readable:
            assert any(p.face_up and p.art.card == card for p in scene.placed)
    # the scenes must hold chips lying on an index, or the test could not fail
    assert covered >= 3, f"only {covered} index glyphs under a chip in 120 scenes"


def test_chips_lie_where_they_are_listed() -> None:
    decks = drawn_decks()
    scene = make_scene(decks, random.Random(710_007), size=FRAME)
    assert scene.chips, "this scene has chips"
    for cx, cy, r in scene.chips:
        assert 10.0 <= r <= 24.0
        assert 0.0 <= cx <= FRAME[0] and 0.0 <= cy <= FRAME[1]
        # a chip is one colour with light dots: the rim of its centre ring is not felt texture
        ring = [scene.image[int(min(max(cy + 0.35 * r * math.sin(a), 0), FRAME[1] - 1)),
                            int(min(max(cx + 0.35 * r * math.cos(a), 0), FRAME[0] - 1))]
                for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)]
        spread = np.ptp(np.asarray(ring, np.float64), axis=0).max()
        assert spread < 60, f"chip at ({cx:.0f}, {cy:.0f}) is not one colour: spread {spread}"
