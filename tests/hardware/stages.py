"""The recognition stages run from glyphs already read, for tests that give them their own
glyphs (or their own upright classifier)."""

from __future__ import annotations

import numpy as np

from hardware.camera import decide
from hardware.camera.params import DEFAULT, Params
from hardware.camera.recognize import Recognizer, find_and_read
from hardware.camera.types import Frame, FrameResult, Glyph, Source
from hardware.camera.upright import UprightFn

#: the source of the corners and evidence a test gives by hand
HAND = Source("test", "hand", "corner")


def assemble(glyphs: list[Glyph], gray: np.ndarray, min_confidence: float,
             image: np.ndarray | None = None, upright: UprightFn | None = None,
             p: Params = DEFAULT) -> FrameResult:
    """Stages 1 to 3 on ``glyphs`` as read: the corners paired, read (with ``upright``, by that
    upright classifier too), and the cards named from ``min_confidence`` (with the colour
    ``image``, the inks of rank and suit are compared)."""
    frame = Frame(gray, image)
    corners, found = find_and_read(frame, glyphs, p, upright)
    readings, unknown = decide.readings(found, corners.vetoes, p)
    return decide.frame_result(readings, unknown, p, min_confidence)


def sure_cards(r: Recognizer, scene: np.ndarray, least: float = 0.9, detail: bool = False
               ) -> set[str]:
    """The cards ``r`` reads in ``scene`` at ``least`` or more."""
    return {c.card for c in r.read(scene, detail=detail).cards if c.confidence >= least}
