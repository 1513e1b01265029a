"""A table as an overhead camera sees it, drawn from the committed CC0 card faces
(``tests/hardware/fixtures/cards-heruka/``): three stud rows on a felt, one per seat, and the
hands whose up cards the real recogniser reads there (:func:`plan_hand`). The camera tests put
these pictures in a folder the image-folder camera reads (:func:`show`)."""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera import DEFAULT_MIN_CONFIDENCE
from hardware.camera.recognize import CardReading, Recognizer, decode_image
from hardware.training.cardart import rounded_mask
from tests.kiosk import driver

#: three seats side by side, as fractions of the picture
ZONES = {1: [0.0, 0.0, 0.33, 1.0], 2: [0.33, 0.0, 0.66, 1.0], 3: [0.66, 0.0, 1.0, 1.0]}
FIXTURES = Path(__file__).resolve().parents[1] / "hardware" / "fixtures"
SCENES = FIXTURES / "camera"
DECK = FIXTURES / "cards-heruka"
RANKS, SUITS = "23456789TJQKA", "cdhs"
FRAME_W, FRAME_H = 1280, 720
CARD_W, CARD_H = 136, 190
#: each covered card shows this share of its width, so its corner index stays in sight
STEP = 0.40
#: seat -> top-left corner of the first card of its row, and the row's angle in degrees
ROWS: dict[int, tuple[float, float, float]] = {
    1: (70, 450, 4.0), 2: (430, 70, 0.0), 3: (780, 450, -4.0),
}
#: cards a seat holds on seven-card stud: down, down, four up (third to sixth street), down
UP_SLOTS = (2, 3, 4, 5)
DOWN_SLOTS = (0, 1, 6)
STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
#: a card is dealt only if the recognizer reads it at its place at least this sure; the house
#: threshold plus a margin, so that its proposal is plainly "ok" (a weaker model falls back below)
SURE = DEFAULT_MIN_CONFIDENCE + 0.03
FALLBACK = 0.3
TV = (1920, 1080)

#: the scripted hand's table, dealing seven-card stud
SETUP: dict[str, Any] = {**driver.SETUP, "game": "seven-card-stud"}

Image = npt.NDArray[Any]


# ---- the camera's pictures -------------------------------------------------------------------


def _card_back() -> Image:
    img = np.full((CARD_H, CARD_W, 3), 245, np.uint8)
    m = CARD_W // 14
    cv2.rectangle(img, (m, m), (CARD_W - m, CARD_H - m), (150, 40, 30), -1)
    for k in range(-CARD_H, CARD_W + CARD_H, 12):
        cv2.line(img, (k, m), (k + CARD_H, CARD_H - m), (220, 120, 110), 1)
        cv2.line(img, (k + CARD_H, m), (k, CARD_H - m), (220, 120, 110), 1)
    img[:m], img[-m:], img[:, :m], img[:, -m:] = 245, 245, 245, 245
    return img


class TablePictures:
    """Overhead pictures of the table: a felt under a lamp and one stud row per seat."""

    def __init__(self) -> None:
        self.faces: dict[str, Image] = {}
        for r in RANKS:
            for s in SUITS:
                face = cv2.imread(str(DECK / f"{r}{s}.png"), cv2.IMREAD_COLOR)
                assert face is not None and face.shape[:2] == (CARD_H, CARD_W), f"{r}{s}.png"
                self.faces[r + s] = face
        self.back = _card_back()
        self.mask = rounded_mask(CARD_W, CARD_H)
        rng = np.random.default_rng(20261129)
        felt = np.empty((FRAME_H, FRAME_W, 3), np.float32)
        felt[:] = (40, 105, 32)
        cloth = cv2.GaussianBlur(rng.normal(0, 1, (FRAME_H, FRAME_W)).astype(np.float32),
                                 (0, 0), 0.8)
        felt += cloth[..., None] * 5
        yy, xx = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
        lamp = np.hypot(xx - FRAME_W * 0.5, yy - FRAME_H * 0.4) / FRAME_W
        self.felt = felt * (1 - 0.35 * lamp**1.5)[..., None]

    @staticmethod
    def placement(seat: int, slot: int) -> npt.NDArray[np.float64]:
        """The 2x3 matrix from card pixels to picture pixels of ``slot`` in ``seat``'s row."""
        x, y, angle = ROWS[seat]
        m = np.asarray(cv2.getRotationMatrix2D((0, 0), angle, 1.0), np.float64)
        a = math.radians(angle)
        dx = slot * STEP * CARD_W
        m[:, 2] += np.array([x + dx * math.cos(a), y - dx * math.sin(a)])
        return m

    @classmethod
    def zone(cls, seat: int) -> list[float]:
        """The seat's zone, as the dealer marks it: its whole row and a margin, in fractions."""
        corners = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float64)
        pts = np.vstack([cv2.transform(corners[None], cls.placement(seat, k))[0]
                         for k in range(7)])
        (x0, y0), (x1, y1) = pts.min(axis=0) - 16, pts.max(axis=0) + 16
        return [round(float(max(x0, 0)) / FRAME_W, 4), round(float(max(y0, 0)) / FRAME_H, 4),
                round(float(min(x1, FRAME_W)) / FRAME_W, 4),
                round(float(min(y1, FRAME_H)) / FRAME_H, 4)]

    def picture(self, rows: dict[int, list[str | None]]) -> bytes:
        """A JPEG of the table: ``rows`` gives each seat's cards in the order dealt (None: a card
        face down), each laid over the right part of the one before."""
        canvas = self.felt.copy()
        for seat, cards in rows.items():
            for slot, card in enumerate(cards):
                art = self.back if card is None else self.faces[card]
                m = self.placement(seat, slot)
                corners = np.array([[[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]]],
                                   np.float64)
                pts = cv2.transform(corners, m)[0]
                x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - 1, 0)
                x1, y1 = np.minimum(np.ceil(pts.max(axis=0)).astype(int) + 1, [FRAME_W, FRAME_H])
                shift = m.copy()
                shift[:, 2] -= (x0, y0)
                size = (int(x1 - x0), int(y1 - y0))
                warped = cv2.warpAffine(art, shift, size, flags=cv2.INTER_LINEAR)
                alpha = cv2.warpAffine(self.mask, shift, size, flags=cv2.INTER_LINEAR)
                a = (alpha.astype(np.float32) / 255.0)[..., None]
                canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + warped * a
        ok, jpeg = cv2.imencode(".jpg", np.clip(canvas, 0, 255).astype(np.uint8),
                                [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        return bytes(jpeg.tobytes())

    def farther(self, rows: dict[int, list[str | None]], factor: float) -> bytes:
        """The table of :meth:`picture` seen from a camera farther off: everything ``factor``
        times as large, in the middle of the felt."""
        near = cv2.imdecode(np.frombuffer(self.picture(rows), np.uint8), cv2.IMREAD_COLOR)
        assert near is not None
        small = cv2.resize(near, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        canvas = np.clip(self.felt, 0, 255).astype(np.uint8)
        y0, x0 = (FRAME_H - small.shape[0]) // 2, (FRAME_W - small.shape[1]) // 2
        canvas[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
        ok, jpeg = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        return bytes(jpeg.tobytes())


def seat_at(x: float, y: float) -> int | None:
    for seat in ROWS:
        x0, y0, x1, y1 = TablePictures.zone(seat)
        if x0 <= x / FRAME_W <= x1 and y0 <= y / FRAME_H <= y1:
            return seat
    return None


@dataclass
class Plan:
    """The hand to deal: what each seat gets, and the camera's picture of each street."""

    ups: dict[int, list[str]] = field(default_factory=lambda: {s: [] for s in ROWS})
    downs: dict[int, list[str]] = field(default_factory=dict)
    pictures: list[bytes] = field(default_factory=list)
    #: the recognizer's confidence in each up card, in the picture of its street
    confidence: dict[str, float] = field(default_factory=dict)

    def rows(self, street: int) -> dict[int, list[str | None]]:
        """Every seat's row once ``street`` (0: third) is dealt."""
        out: dict[int, list[str | None]] = {}
        for seat, ups in self.ups.items():
            row: list[str | None] = [None, None, *ups[: street + 1]]
            if street == 4:
                row.append(None)
            out[seat] = row
        return out


def plan_hand(pictures: TablePictures, recognizer: Recognizer) -> Plan:
    """Deal, street by street, cards the recognizer reads at their place in that street's
    picture, from a fixed shuffle; the down cards are cards the camera names in no picture."""
    order = [r + s for r in RANKS for s in SUITS]
    random.Random(5).shuffle(order)
    for floor in (SURE, FALLBACK):
        plan = Plan()
        pool = iter(order)
        named: set[str] = set()
        try:
            for street in range(4):
                trial = {seat: next(pool) for seat in ROWS}
                while True:
                    rows: dict[int, list[str | None]] = (
                        plan.rows(street - 1) if street else {s: [None, None] for s in ROWS})
                    for seat, card in trial.items():
                        rows[seat] = [*rows[seat], card]
                    jpeg = pictures.picture(rows)
                    cards = recognizer.read(decode_image(jpeg)).cards
                    best: dict[str, CardReading] = {c.card: c for c in cards}
                    failed = [seat for seat, card in trial.items()
                              if card not in best or best[card].confidence < floor
                              or seat_at(*best[card].index_center) != seat]
                    if not failed:
                        break
                    for seat in failed:
                        trial[seat] = next(pool)
                for seat, card in trial.items():
                    plan.ups[seat].append(card)
                    plan.confidence[card] = best[card].confidence
                plan.pictures.append(jpeg)
                named |= set(best)
        except StopIteration:
            continue
        plan.pictures.append(pictures.picture(plan.rows(4)))
        named |= {c.card for c in recognizer.read(decode_image(plan.pictures[-1])).cards}
        spare = [c for c in order if c not in named and c not in plan.confidence]
        assert len(spare) >= 3 * len(ROWS), f"only {len(spare)} cards never named by the camera"
        plan.downs = {seat: spare[3 * i: 3 * i + 3] for i, seat in enumerate(ROWS)}
        return plan
    raise AssertionError("the recognizer does not read twelve of the 52 faces in the table "
                         f"pictures at {FALLBACK} or more: the camera cannot propose a hand")


def show(folder: Path, jpeg: bytes) -> None:
    """Put ``jpeg`` before the camera: the folder's only picture, replaced atomically."""
    tmp = folder / "table.part"
    tmp.write_bytes(jpeg)
    os.replace(tmp, folder / "table.jpg")
