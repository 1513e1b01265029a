"""Table scenes drawn for the recognition tests from the committed CC0 faces
(``fixtures/cards-heruka``), altered the ways real decks and cameras alter them."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.camera.types import Glyph

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "camera"
#: labelled table pictures of decks never trained on, kept outside the repository (docs/camera.md,
#: "How well it reads"): the tests that measure on them run where ``STUD_KIOSK_VALIDATION`` names
#: their folder, and are skipped elsewhere
VALIDATION = Path(os.environ.get("STUD_KIOSK_VALIDATION", ROOT / "validation"))
HERUKA = Path(__file__).resolve().parent / "fixtures" / "cards-heruka"
FELT = (40, 110, 30)
#: where the committed faces print their top-left index: the rank's box and the suit's box
#: (rows, columns of the face)
RANK_BOX = (slice(4, 26), slice(3, 21))
SUIT_BOX = (slice(26, 44), slice(3, 21))
Quad = tuple[tuple[float, float], ...]


def labels(folder: Path) -> list[dict[str, Any]]:
    images: list[dict[str, Any]] = json.loads((folder / "labels.json").read_text())["images"]
    return images


def score(truth: list[list[str]], predicted: list[list[str]]) -> tuple[float, float, int]:
    """(recall, wrong-rate, cards) as the shared scorer counts them: multisets per picture."""
    correct = wrong = cards = 0
    for t, p in zip(truth, predicted, strict=True):
        tc, pc = Counter(t), Counter(set(p))
        inter = sum((tc & pc).values())
        correct += inter
        wrong += sum((pc - tc).values())
        cards += len(t)
    return correct / max(cards, 1), wrong / max(correct + wrong, 1), cards


def committed(card: str) -> np.ndarray:
    read = cv2.imread(str(HERUKA / f"{card}.png"))
    assert read is not None, card
    return np.asarray(read, np.uint8)


def lay(scene: np.ndarray, face: np.ndarray, x: int, y: int, angle: float) -> None:
    """Lay ``face`` on ``scene`` at (``x``, ``y``), turned ``angle`` degrees about its middle."""
    m = cv2.getRotationMatrix2D((face.shape[1] / 2, face.shape[0] / 2), angle, 1.0)
    m[:, 2] += (x, y)
    size = (scene.shape[1], scene.shape[0])
    covered = cv2.warpAffine(np.full(face.shape[:2], 255, np.uint8), m, size) > 0
    scene[covered] = cv2.warpAffine(face, m, size)[covered]


def laid_at(face: np.ndarray, x: int, y: int, angle: float, u: float, v: float
            ) -> tuple[float, float]:
    """Where the point (``u``, ``v``) of a face laid by :func:`lay` lies in the scene."""
    m = cv2.getRotationMatrix2D((face.shape[1] / 2, face.shape[0] / 2), angle, 1.0)
    m[:, 2] += (x, y)
    px, py = m @ np.array([u, v, 1.0])
    return float(px), float(py)


def laid_quad(face: np.ndarray, x: int, y: int, angle: float) -> Quad:
    """The corners of a face laid by :func:`lay` (top-left, top-right, bottom-right,
    bottom-left as printed), in the scene."""
    h, w = face.shape[:2]
    return tuple(laid_at(face, x, y, angle, u, v) for u, v in ((0, 0), (w, 0), (w, h), (0, h)))


def rank_only(card: str, border: bool = True) -> np.ndarray:
    """A committed face with the small suit of both indices painted out: only its pips say the
    suit (as on decks that print the rank and the suit in different corners)."""
    face = committed(card)
    h, w = face.shape[:2]
    face[22:44, 0:24] = 255
    face[h - 44:h - 22, w - 24:w] = 255
    if not border:
        face[:3], face[-3:], face[:, :3], face[:, -3:] = 255, 255, 255, 255
    return face


def worn(card: str) -> np.ndarray:
    """A committed face whose two corner indices are worn past reading (blurred to grey
    smudges): only its pips say what it is."""
    face = committed(card)
    h, w = face.shape[:2]
    for ys, xs in ((slice(3, 46), slice(3, 26)), (slice(h - 46, h - 3), slice(w - 26, w - 3))):
        face[ys, xs] = cv2.GaussianBlur(face[ys, xs], (0, 0), 3.0)
    return face


def tilted(scene: np.ndarray, blur: float) -> np.ndarray:
    """The scene as a camera tilted toward its far side sees it, a little out of focus."""
    h, w = scene.shape[:2]
    near = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    seen = np.array([(130, 60), (w - 130, 60), (w, h), (0, h)], np.float32)
    view = cv2.warpPerspective(scene, cv2.getPerspectiveTransform(near, seen), (w, h),
                               borderValue=FELT)
    return np.asarray(cv2.GaussianBlur(view, (0, 0), blur), np.uint8)


def printed_light(card: str, face: tuple[int, int, int], art: np.ndarray | None = None,
                  ink: float = 100.0, border: bool = True) -> np.ndarray:
    """A committed face (or ``art``, a BGR face) printed the other way round: grey print
    (``ink``) on a dark face (``face``, BGR) inside a light border, three quarters of its
    size."""
    read = cv2.imread(str(HERUKA / f"{card}.png"), cv2.IMREAD_GRAYSCALE) if art is None \
        else cv2.cvtColor(art, cv2.COLOR_BGR2GRAY)
    assert read is not None, card
    printed = (255.0 - np.asarray(read, np.float32))[:, :, None] / 255.0
    out = np.asarray(face, np.float32) * (1.0 - printed) + ink * printed
    if border:
        out[:4], out[-4:], out[:, :4], out[:, -4:] = 200, 200, 200, 200
    return np.asarray(cv2.resize(out.astype(np.uint8), None, fx=0.75, fy=0.75,
                                 interpolation=cv2.INTER_AREA), np.uint8)


def suit_on_the_frame(card: str) -> np.ndarray:
    """A committed face with a dark frame line down both long edges, each index's small suit
    printed against it: the suit runs into the line and is cut out as no glyph of its own."""
    face = committed(card)
    h, w = face.shape[:2]
    face[:, 1:3], face[:, w - 3:w - 1] = 40, 40
    face[33:37, 1:10], face[h - 37:h - 33, w - 10:w - 1] = 40, 40
    return face


def far_suit(card: str, height: int) -> np.ndarray:
    """A committed face drawn long (``height`` px) with nothing on it but its rank in one corner
    and its suit in the far one (as decks with a small index print them)."""
    read = committed(card)
    h, w = read.shape[:2]
    face = np.full((height, w, 3), 255, np.uint8)
    cv2.rectangle(face, (0, 0), (w - 1, height - 1), (150, 150, 150), 2)
    face[4:26, 3:20] = read[4:26, 3:20]
    face[height - 43:height - 27, w - 20:w - 5] = read[h - 43:h - 27, w - 20:w - 5]
    return face


def joined_index(card: str, gap: int = 0) -> np.ndarray:
    """A blank card face with only the corner index of a committed face, its suit moved up
    until it touches the rank (as blur joins a small index), or until ``gap`` rows lie between
    them."""
    read = committed(card)
    rank, suit = read[RANK_BOX], read[SUIT_BOX]
    bottom = int(np.nonzero((cv2.cvtColor(rank, cv2.COLOR_BGR2GRAY) < 160).any(axis=1))[0].max())
    top = int(np.nonzero((cv2.cvtColor(suit, cv2.COLOR_BGR2GRAY) < 160).any(axis=1))[0].min())
    face = np.full_like(read, 250)
    cv2.rectangle(face, (0, 0), (face.shape[1] - 1, face.shape[0] - 1), (150, 150, 150), 2)
    face[RANK_BOX] = rank
    y = 4 + bottom + 1 + gap - top  # the suit's top row ``gap`` rows below the rank's bottom
    face[y:y + 18, 3:21] = np.minimum(face[y:y + 18, 3:21], suit)
    return face


def ruled(card: str) -> np.ndarray:
    """A committed face with a dark rule across each end, drawn against the top of each corner
    index's rank: the rank runs into the rule and is cut out as no glyph of its own, its small
    suit below stands alone."""
    face = committed(card)
    h, w = face.shape[:2]
    ys, _xs = np.nonzero(cv2.cvtColor(face[2:15, 3:25], cv2.COLOR_BGR2GRAY) < 128)
    top = int(ys.min())  # the rank's first row, 2 px from the top: the rule lies just above it
    face[top:top + 2, 3:w - 3] = 30
    face[h - top - 2:h - top, 3:w - 3] = 30
    return face


def light_on_colour(card: str) -> np.ndarray:
    """A committed face printed light on a face of its colour (dark red or black), as some decks
    print, with no suit in its index: its rank and its pips only."""
    read = committed(card)
    h, w = read.shape[:2]
    ink = cv2.cvtColor(read, cv2.COLOR_BGR2GRAY) < 160
    ink[26:46, 0:24] = False
    ink[h - 46:h, w - 24:w] = False
    face = np.empty_like(read)
    face[:] = (30, 25, 140) if card[1] in "hd" else (35, 35, 35)
    face[ink] = (200, 205, 205)
    cv2.rectangle(face, (0, 0), (w - 1, h - 1), (220, 220, 220), 3)
    return face


def broken(card: str) -> np.ndarray:
    """A committed face whose corner ranks are cut into pieces by thin lines of its face (as a
    threshold breaks a thin-stroked rank apart): rows 8-23 every third, columns 9 and 12."""
    face = committed(card)
    h, w = face.shape[:2]
    for row in (8, 11, 14, 17, 20, 23):
        face[row, 3:22] = 255
        face[h - 1 - row, w - 22:w - 3] = 255
    for col in (9, 12):
        face[4:27, col] = 255
        face[h - 27:h - 4, w - 1 - col] = 255
    return face


BROKEN = ("Kc", "Qd", "Jh", "Ks", "Qc", "Jd", "Kh", "Qs", "Js", "Kd", "Qh", "Jc", "5c", "7d", "8h",
          "3s", "9c", "Ad")


def table(cards: tuple[str, ...], face_of: Any, scale: float) -> np.ndarray:
    """The faces ``face_of`` each card, shrunk ``scale`` times, laid six to a row at angles of
    -30 to 30 degrees on the felt."""
    scene = np.full((720, 1280, 3), FELT, np.uint8)
    for i, card in enumerate(cards):
        face = cv2.resize(face_of(card), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        lay(scene, face, 60 + (i % 6) * 200, 60 + (i // 6) * 220, (i * 23) % 60 - 30)
    return scene


def glyph(label: str, prob: float, cx: int, cy: int, size: int) -> Glyph:
    """A glyph read as ``label``: a square box ``size`` wide about (``cx``, ``cy``), dark."""
    return Glyph(cx - size // 2, cy - size // 2, size, size, cx, cy, True, label, prob)
