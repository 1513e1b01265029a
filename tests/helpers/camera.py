"""The camera: cameras that number their frames, drawn decks, reader processes."""

from __future__ import annotations

import os
from typing import Any

import cv2
import numpy as np

from hardware.camera.stable import FrameChange
from hardware.training.cardart import CardArt, drawn_backs, label_card


class NumberedCamera:
    """A camera whose every frame is new: the committed scene with the frame's number written
    into its top-left pixels."""

    description = "numbered camera"

    def __init__(self, scene: Any) -> None:
        self.scene, self.count = scene, 0

    def read(self) -> Any:
        self.count += 1
        frame = self.scene.copy()
        frame[0, 0, 0], frame[0, 1, 0] = self.count % 256, self.count // 256 % 256
        return frame

    def close(self) -> None:
        pass


class EveryFrameChanged(FrameChange):
    def changed(self, frame: Any) -> bool:
        return True


def gone(pid: int) -> bool:
    """Whether no process of that id is left (ended and waited for)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


#: the size of the drawn table scenes
FRAME = (1280, 720)


def _drawn_face(rank: str, red: bool) -> CardArt | None:
    """A plain card face: white, a rank and a suit mark in two corners and a few pips."""
    w, h = 300, 420
    img = np.full((h, w, 3), 250, np.uint8)
    ink = (30, 30, 200) if red else (20, 20, 20)
    cv2.rectangle(img, (1, 1), (w - 2, h - 2), (200, 200, 200), 2)

    def index(turned: bool) -> None:
        corner = np.full((110, 60, 3), 250, np.uint8)
        cv2.putText(corner, rank, (8, 44), cv2.FONT_HERSHEY_SIMPLEX, 1.5, ink, 4, cv2.LINE_AA)
        cv2.circle(corner, (26, 78), 14, ink, -1, cv2.LINE_AA)
        if turned:
            img[h - 122:h - 12, w - 72:w - 12] = corner[::-1, ::-1]
        else:
            img[12:122, 12:72] = corner

    index(False)
    index(True)
    for k in range(3):
        cv2.circle(img, (150, 120 + 90 * k), 26, ink, -1, cv2.LINE_AA)
    art = label_card(rank + ("h" if red else "s"), img)
    return art


def drawn_decks() -> dict[str, list[CardArt]]:
    faces = [a for r in "A23456789JQK" for red in (False, True)
             if (a := _drawn_face(r, red)) is not None]
    assert len(faces) >= 16, "the drawn faces must be readable as cards by the scene maker"
    return {"drawn": faces + drawn_backs()}
