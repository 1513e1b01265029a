"""The permitted decks' card renders as the synthetic scenes use them
(:mod:`hardware.training.synth`): each card's art with its corner-index glyphs located once on the
clean render (the rank is the top component of the top-left corner, the suit the next one below
it), drawn card backs, a deck drawn inverted (light print on a dark face), and a card's rounded
outline.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

#: a BGR or grey picture as OpenCV returns it
Image = npt.NDArray[Any]

RANKS = "23456789TJQKA"
SUITS = "cdhs"


@dataclass
class CardArt:
    card: str  # "Ah", or "back"
    image: Image
    ink: npt.NDArray[np.bool_]
    #: (class label, 4x2 corners in card pixels) for the index glyphs (both corners) and pips
    glyphs: list[tuple[str, npt.NDArray[np.float64]]]
    rank_h: float
    #: the first ``n_index`` glyphs are the top-left index, the next as many the bottom-right one
    n_index: int = 0


def _class_of_rank(rank: str) -> str:
    return "6" if rank in "69" else rank


def _ink_mask(image: Image) -> npt.NDArray[np.bool_]:
    """Print on the card: what differs from the face colour (the median of a band inside the
    edge, where a card shows its bare face)."""
    h, w = image.shape[:2]
    a, b = max(2, int(0.04 * w)), max(4, int(0.07 * w))
    band = np.concatenate([image[a:b, a:w - a].reshape(-1, 3), image[h - b:h - a, a:w - a]
                           .reshape(-1, 3), image[a:h - a, a:b].reshape(-1, 3)])
    face = np.median(band, axis=0)
    diff = np.abs(image.astype(np.int16) - face.astype(np.int16)).max(axis=2)
    return np.asarray(diff > 70)


def _box(x: float, y: float, w: float, h: float) -> npt.NDArray[np.float64]:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=np.float64)


def label_card(card: str, image: Image) -> CardArt | None:
    """Find the index glyphs of a clean card render; None when the layout is not understood."""
    ink = _ink_mask(image)
    h, w = ink.shape
    edge = max(3, round(0.03 * w))
    ink[:edge, :] = False
    ink[-edge:, :] = False
    ink[:, :edge] = False
    ink[:, -edge:] = False
    # thin frame lines (card borders, face-card frames) would join the index to each other
    ink = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    comps = [tuple(int(v) for v in stats[i]) for i in range(1, count)
             if stats[i][4] >= 6 and max(stats[i][2], stats[i][3]) < 0.3 * h
             and min(stats[i][2], stats[i][3]) > 2
             and max(stats[i][2], stats[i][3]) < 8 * min(stats[i][2], stats[i][3])]
    corner = [c for c in comps if c[0] < 0.22 * w and c[1] < 0.36 * h and c[1] > 0.005 * h
              and c[3] > 0.025 * h]
    if len(corner) < 2:
        return None
    corner.sort(key=lambda c: c[1])
    top = corner[0]
    rank_parts = [c for c in corner if abs(c[1] - top[1]) < 0.4 * top[3]
                  and abs((c[1] + c[3]) - (top[1] + top[3])) < 0.4 * top[3]]
    rank_parts.sort(key=lambda c: c[0])
    rank, suit = card[0], card[1]
    rank_bottom = max(c[1] + c[3] for c in rank_parts)
    below = [c for c in corner if c[1] >= rank_bottom - 2 and c not in rank_parts]
    if not below:
        return None
    suit_c = min(below, key=lambda c: c[1])
    glyphs: list[tuple[str, npt.NDArray[np.float64]]] = []
    if rank == "T" and len(rank_parts) == 2:
        glyphs.append(("1", _box(*rank_parts[0][:4])))
        glyphs.append(("T", _box(*rank_parts[1][:4])))
    elif len(rank_parts) == 1:
        glyphs.append((_class_of_rank(rank), _box(*rank_parts[0][:4])))
    else:
        return None
    glyphs.append((suit, _box(*suit_c[:4])))
    n_index = len(glyphs)
    rank_h = float(max(c[3] for c in rank_parts))
    # the opposite corner holds the same index turned half round
    turned = [(lab, np.array([[w - x, h - y] for x, y in box])) for lab, box in glyphs]
    glyphs += turned
    if rank in "23456789TA":
        used = {tuple(b.ravel()) for _, b in glyphs}
        for c in comps:
            box = _box(*c[:4])
            if tuple(box.ravel()) in used or c[3] < rank_h * 0.8:
                continue
            if 0.18 * w < c[0] + c[2] / 2 < 0.82 * w:
                glyphs.append((suit, box))
    return CardArt(card, image, ink, glyphs, rank_h, n_index)


def load_decks(png_root: Path) -> dict[str, list[CardArt]]:
    """Every deck in ``png_root`` (one folder per deck): its labelled cards, backs last."""
    decks: dict[str, list[CardArt]] = {}
    for folder in sorted(p for p in png_root.iterdir() if p.is_dir()):
        arts: list[CardArt] = []
        for r in RANKS:
            for s in SUITS:
                img = cv2.imread(str(folder / f"{r}{s}.png"))
                if img is None:
                    continue
                art = label_card(r + s, img)
                if art is not None:
                    arts.append(art)
        for back in sorted(folder.glob("back*.png")):
            img = cv2.imread(str(back))
            if img is not None:
                arts.append(CardArt("back", img, np.zeros(img.shape[:2], bool), [], 0.0))
        decks[folder.name] = arts
    return decks


def drawn_backs(width: int = 300, height: int = 420) -> list[CardArt]:
    """Card backs drawn here (lattice, stripes, plain with a frame) in a few colours."""
    out: list[CardArt] = []
    colours = [(160, 40, 30), (40, 40, 170), (40, 120, 40), (30, 30, 30)]
    for i, col in enumerate(colours):
        img = np.full((height, width, 3), 245, np.uint8)
        m = width // 14
        cv2.rectangle(img, (m, m), (width - m, height - m), col, -1)
        light = tuple(min(255, c + 90) for c in col)
        if i % 2 == 0:
            for k in range(-height, width + height, 18):
                cv2.line(img, (k, m), (k + height, height - m), light, 2)
                cv2.line(img, (k + height, m), (k, height - m), light, 2)
        else:
            cv2.rectangle(img, (3 * m, 3 * m), (width - 3 * m, height - 3 * m), light, 3)
        img[:m, :] = 245
        img[-m:, :] = 245
        img[:, :m] = 245
        img[:, -m:] = 245
        out.append(CardArt("back", img, np.zeros((height, width), bool), [], 0.0))
    return out


def invert_art(art: CardArt, rng: random.Random) -> CardArt:
    """The same card printed light on a dark face (colour by suit half of the time)."""
    red_suit = art.card[1:] in ("h", "d")
    face: tuple[int, ...]
    if rng.random() < 0.5:
        face = (30, 30, rng.randint(120, 170)) if red_suit else (rng.randint(15, 40),) * 3
    else:
        face = tuple(rng.randint(10, 120) for _ in range(3))
    light = rng.randint(180, 245)
    img = np.empty_like(art.image)
    img[:] = np.array(face, dtype=np.uint8)
    img[art.ink] = light
    _h, w = img.shape[:2]
    border = max(2, w // 40)
    img[:border, :] = light
    img[-border:, :] = light
    img[:, :border] = light
    img[:, -border:] = light
    return CardArt(art.card, img, art.ink, art.glyphs, art.rank_h, art.n_index)



def rounded_mask(w: int, h: int) -> Image:
    """A card's outline, its corners rounded, filled with 255 on 0."""
    mask = np.zeros((h, w), np.uint8)
    r = max(2, w // 14)
    cv2.rectangle(mask, (r, 0), (w - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - r), 255, -1)
    for cx, cy in ((r, r), (w - r - 1, r), (r, h - r - 1), (w - r - 1, h - r - 1)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return mask

