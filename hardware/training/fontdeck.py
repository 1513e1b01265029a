"""Card faces drawn from the fonts installed on the machine, in many index styles.

Real decks print their corner index in every kind of type: wide and narrow, serif and sans,
italic, ornate; suits drawn fat or thin. The eleven permitted deck designs show only a few of
those, so most scenes are also drawn with faces made here: a rank in a randomly chosen font, a suit
from a font that has the card symbols or drawn from circles and polygons, in a random size, place,
weight and colour on a face of random tint, with or without a frame line, pips or a picture in
the middle. The glyph boxes are known exactly, so every candidate gets its true label.

Needs Pillow (the ``train`` extra) to draw TrueType and OpenType fonts.
"""

from __future__ import annotations

import math
import random
import subprocess
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.training.cardart import CardArt, _box, _class_of_rank

SUIT_CHARS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
#: the court cards' (and some aces') index letters in other countries' decks: French, German,
#: Russian, Dutch, Italian, Swedish, Danish
COURT_LETTERS: tuple[dict[str, str], ...] = (
    {"J": "V", "Q": "D", "K": "R"},
    {"J": "B", "Q": "D", "K": "K"},
    {"J": "\u0412", "Q": "\u0414", "K": "\u041a", "A": "\u0422"},
    {"J": "B", "Q": "V", "K": "H", "A": "A"},
    {"J": "F", "Q": "D", "K": "R", "A": "1"},
    {"J": "Kn", "Q": "D", "K": "K", "A": "E"},
    {"J": "B", "Q": "D", "K": "K", "A": "Es"},
)
#: a grey mask, 0..1
Mask = npt.NDArray[np.float32]


#: font files whose letters are not letters (symbols, dingbats, keyboard keys, maths alphabets)
NOT_TEXT = ("math", "D050000L", "StandardSymbols", "LinLibertine_K", "Dingbat", "Symbol")


def held_out(path: str) -> bool:
    """One font file in six, by name, is kept out of training to measure unseen type."""
    return zlib.crc32(Path(path).name.encode()) % 6 == 0


def system_fonts(evaluation: bool = False) -> list[str]:
    """The TrueType/OpenType text font files fontconfig knows of, in a stable order: the
    training share, or with ``evaluation`` the held-out share."""
    try:
        out = subprocess.run(["fc-list", "--format", "%{file}\n"], capture_output=True,
                             text=True, check=True).stdout
        files = {line for line in out.splitlines() if line.endswith((".ttf", ".otf"))}
    except (OSError, subprocess.CalledProcessError):
        files = {str(p) for root in ("/usr/share/fonts", "/usr/share/texmf/fonts")
                 for p in Path(root).rglob("*") if p.suffix in (".ttf", ".otf")}
    text = [f for f in files if not any(bad.lower() in f.lower() for bad in NOT_TEXT)]
    return sorted(f for f in text if held_out(f) == evaluation)


def _render(font: Any, text: str, size: int, stroke: int = 0) -> Mask | None:
    from PIL import Image, ImageDraw

    canvas = Image.new("L", (size * (2 + len(text)), size * 3), 0)
    ImageDraw.Draw(canvas).text((size // 2, size // 2), text, font=font, fill=255,
                                stroke_width=stroke, stroke_fill=255)
    a = np.asarray(canvas, np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.3)
    if len(xs) == 0:
        return None
    return np.ascontiguousarray(a[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def _drawn_suit(suit: str, rng: random.Random) -> Mask:
    """A suit symbol from circles and polygons, in random proportions."""
    s = 200
    m: npt.NDArray[Any] = np.zeros((s, s), np.uint8)
    if suit == "d":
        half = rng.uniform(0.28, 0.42) * s
        bend = rng.uniform(-0.12, 0.12)
        pts = []
        for k in range(64):
            t = k / 64 * 2 * math.pi
            x, y = math.sin(t), -math.cos(t)
            r = 1.0 / (abs(x) + abs(y)) ** (1.0 + bend * 4) if (x or y) else 1.0
            pts.append((s / 2 + x * r * half, s / 2 + y * r * 0.48 * s))
        cv2.fillPoly(m, [np.array(pts, np.int32)], 255, cv2.LINE_AA)
    else:
        lobe = rng.uniform(0.2, 0.27) * s
        spread = rng.uniform(0.18, 0.26) * s
        if suit in "hs":
            top = 0.35 * s
            for side in (-1, 1):
                cv2.circle(m, (int(s / 2 + side * spread * 0.9), int(top)), int(lobe), 255, -1,
                           cv2.LINE_AA)
            tip = rng.uniform(0.85, 0.97) * s
            cv2.fillPoly(m, [np.array([(s / 2 - spread * 0.9 - lobe * 0.95, top + lobe * 0.25),
                                       (s / 2 + spread * 0.9 + lobe * 0.95, top + lobe * 0.25),
                                       (s / 2, tip)], np.int32)], 255, cv2.LINE_AA)
            if suit == "s":
                m = cv2.flip(m, 0)
        else:
            r = int(lobe * 0.85)
            for cx, cy in ((s / 2, s * 0.3), (s / 2 - spread * 1.05, s * 0.55),
                           (s / 2 + spread * 1.05, s * 0.55)):
                cv2.circle(m, (int(cx), int(cy)), r, 255, -1, cv2.LINE_AA)
        if suit in "sc":
            w = rng.uniform(0.05, 0.12) * s
            foot = rng.uniform(0.15, 0.3) * s
            cv2.fillPoly(m, [np.array([(s / 2 - w / 2, s * 0.55), (s / 2 + w / 2, s * 0.55),
                                       (s / 2 + foot / 2, s * 0.97), (s / 2 - foot / 2, s * 0.97)],
                                      np.int32)], 255, cv2.LINE_AA)
    a = m.astype(np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.3)
    return np.ascontiguousarray(a[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def _fit(mask: Mask, height: float) -> Mask:
    h, w = mask.shape
    scale = height / h
    size = (max(2, round(w * scale)), max(2, round(h * scale)))
    return np.asarray(cv2.resize(mask, size, interpolation=cv2.INTER_AREA), np.float32)


class FontDecks:
    """Draws cards in a random index style per deck; one instance per process."""

    def __init__(self, fonts: list[str] | None = None, width: int = 240, height: int = 336,
                 evaluation: bool = False, letters_share: float = 0.0) -> None:
        from PIL import ImageFont

        self.width, self.height = width, height
        #: the share of decks whose courts are printed in another country's letters
        self.letters_share = letters_share
        self._font_type = ImageFont
        listed = fonts if fonts is not None else system_fonts(evaluation)
        self.fonts = [f for f in listed if self._has_ranks(f)]
        if not self.fonts:
            raise RuntimeError("no TrueType/OpenType fonts found (install some, e.g. fonts-dejavu)")
        self.suit_fonts = [f for f in self.fonts if self._has_suits(f)]

    def _font(self, path: str, size: int) -> Any:
        return self._font_type.truetype(path, size)

    def _has_ranks(self, path: str) -> bool:
        """Whether the font draws every rank (a font without Latin letters draws its missing-glyph
        box instead, which would be learnt as a rank)."""
        try:
            font = self._font(path, 48)
        except OSError:
            return False
        missing = _render(font, "\ue000", 48)
        for ch in "23456789JQKA10":
            m = _render(font, ch, 48)
            if m is None or (missing is not None and m.shape == missing.shape
                             and np.allclose(m, missing)):
                return False
        return True

    def _has_suits(self, path: str) -> bool:
        try:
            font = self._font(path, 48)
        except OSError:
            return False
        missing = _render(font, "\ue000", 48)
        for ch in SUIT_CHARS.values():
            m = _render(font, ch, 48)
            if m is None or (missing is not None and m.shape == missing.shape
                             and np.allclose(m, missing)):
                return False
            if m.mean() < 0.3:  # an outline symbol, not the solid suit
                return False
        return True

    def deck(self, rng: random.Random, cards: list[str]) -> list[CardArt]:
        """The given cards ("Qh", ...) drawn in one new style."""
        w, h = self.width, self.height
        style: dict[str, Any] = {
            "font": rng.choice(self.fonts),
            "stroke": rng.choice((0, 0, 0, 1)),
            "rank_h": rng.uniform(0.07, 0.12) * h,
            "suit_scale": rng.uniform(0.6, 1.0),
            "x": rng.uniform(0.035, 0.1) * w,
            "y": rng.uniform(0.025, 0.07) * h,
            "gap": rng.uniform(0.02, 0.35),
            "suit_font": rng.choice(self.suit_fonts) if self.suit_fonts and rng.random() < 0.6
            else None,
            "four_colour": rng.random() < 0.15,
            "black": tuple(rng.randint(0, 70) for _ in range(3)),
            "red": (rng.randint(0, 70), rng.randint(0, 60), rng.randint(150, 235)),
            "joined_ten": rng.random() < 0.3,
            "frame": rng.random() < 0.35,
            # suit under the rank, beside it, or in the other top corner
            "layout": rng.choices(("stacked", "beside", "apart"), weights=(8, 1, 1))[0],
        }
        if self.letters_share and rng.random() < self.letters_share:
            style["letters"] = rng.choice(COURT_LETTERS)
        base = rng.randint(215, 255)
        tint = [rng.randint(-25, 5) for _ in range(3)] if rng.random() < 0.5 else [0, 0, 0]
        style["face"] = tuple(int(np.clip(base + t, 0, 255)) for t in tint)
        suits = {s: (_fit(_drawn_suit(s, random.Random(rng.random())), 100)
                     if style["suit_font"] is None else None) for s in "cdhs"}
        out = []
        for card in cards:
            art = self._card(card, style, suits, rng)
            if art is not None:
                out.append(art)
        return out

    def _colour(self, suit: str, style: dict[str, Any]) -> tuple[int, ...]:
        if style["four_colour"] and suit in "cd":
            return (30, 130, 20) if suit == "c" else (170, 60, 10)
        colour: tuple[int, ...] = style["red"] if suit in "hd" else style["black"]
        return colour

    def _suit_mask(self, suit: str, height: float, style: dict[str, Any],
                   suits: dict[str, Mask | None]) -> Mask | None:
        drawn = suits[suit]
        if drawn is not None:
            return _fit(drawn, height)
        font = self._font(style["suit_font"], max(8, int(height * 1.6)))
        m = _render(font, SUIT_CHARS[suit], max(8, int(height * 1.6)))
        return None if m is None else _fit(m, height)

    def _card(self, card: str, style: dict[str, Any], suits: dict[str, Mask | None],
              rng: random.Random) -> CardArt | None:
        w, h = self.width, self.height
        rank, suit = card[0], card[1]
        img = np.empty((h, w, 3), np.float32)
        img[:] = np.array(style["face"], np.float32)
        grain = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 2.0, img.shape[:2])
        img += grain[..., None]
        ink = np.zeros((h, w), np.float32)
        colour = np.array(self._colour(suit, style), np.float32)

        def paste(mask: Mask, x: float, y: float, col: npt.NDArray[np.float32] = colour) -> None:
            x0, y0 = round(x), round(y)
            mh, mw = mask.shape
            if x0 < 0 or y0 < 0 or x0 + mw > w or y0 + mh > h:
                return
            a = mask[..., None]
            img[y0:y0 + mh, x0:x0 + mw] = img[y0:y0 + mh, x0:x0 + mw] * (1 - a) + col * a
            ink[y0:y0 + mh, x0:x0 + mw] = np.maximum(ink[y0:y0 + mh, x0:x0 + mw], mask)

        if style["frame"]:
            inset = int(0.05 * w)
            cv2.rectangle(img, (inset, inset), (w - inset, h - inset),
                          tuple(float(c) for c in colour * 0.5 + 100), 1, cv2.LINE_AA)
        rank_h = style["rank_h"]
        size = max(10, int(rank_h * 1.8))
        font = self._font(style["font"], size)
        parts: list[tuple[str, Mask]] = []
        if rank == "T":
            whole = _render(font, "10", size, style["stroke"])
            one, zero = _render(font, "1", size, style["stroke"]), _render(font, "0", size,
                                                                          style["stroke"])
            if whole is None or one is None or zero is None:
                return None
            if style["joined_ten"]:
                parts.append(("T", _fit(whole, rank_h)))
            else:
                scale = rank_h / whole.shape[0]
                parts.append(("1", _fit(one, one.shape[0] * scale)))
                parts.append(("T", _fit(zero, zero.shape[0] * scale)))
        else:
            m = _render(font, style.get("letters", {}).get(rank, rank), size, style["stroke"])
            if m is None:
                return None
            parts.append((_class_of_rank(rank), _fit(m, rank_h)))
        glyphs: list[tuple[str, npt.NDArray[np.float64]]] = []
        x, y = style["x"], style["y"]
        total_w = sum(p.shape[1] for _, p in parts) + 0.12 * rank_h * (len(parts) - 1)
        if total_w > 0.22 * w:
            return None
        for label, m in parts:
            top = y + rank_h - m.shape[0]  # a short "1" or "0" stands on the baseline
            paste(m, x, top)
            glyphs.append((label, _box(x, top, m.shape[1], m.shape[0])))
            x += m.shape[1] + 0.12 * rank_h
        suit_h = rank_h * style["suit_scale"]
        sm = self._suit_mask(suit, suit_h, style, suits)
        if sm is None:
            return None
        if style["layout"] == "beside":
            sx, sy = x + style["gap"] * rank_h, y + (rank_h - sm.shape[0]) / 2
        elif style["layout"] == "apart":
            sx, sy = w - style["x"] - sm.shape[1], y + (rank_h - sm.shape[0]) / 2
        else:
            centre = style["x"] + total_w / 2
            sx, sy = centre - sm.shape[1] / 2, y + rank_h + style["gap"] * rank_h
        paste(sm, sx, sy)
        glyphs.append((suit, _box(sx, sy, sm.shape[1], sm.shape[0])))
        n_index = len(glyphs)
        # the opposite corner: the same index turned half round
        x0 = int(min(b[:, 0].min() for _, b in glyphs)) - 1
        y0 = int(min(b[:, 1].min() for _, b in glyphs)) - 1
        x1 = math.ceil(max(b[:, 0].max() for _, b in glyphs)) + 1
        y1 = math.ceil(max(b[:, 1].max() for _, b in glyphs)) + 1
        if x0 < 0 or y0 < 0:
            return None
        corner_img = img[y0:y1, x0:x1].copy()
        corner_ink = ink[y0:y1, x0:x1].copy()
        img[h - y1:h - y0, w - x1:w - x0] = corner_img[::-1, ::-1]
        ink[h - y1:h - y0, w - x1:w - x0] = corner_ink[::-1, ::-1]
        glyphs += [(lab, np.array([[w - px, h - py] for px, py in box])) for lab, box in glyphs]
        self._middle(rank, suit, style, suits, rng, paste, glyphs, rank_h)
        art_img = np.clip(img, 0, 255).astype(np.uint8)
        return CardArt(card, art_img, ink > 0.3, glyphs, float(rank_h), n_index)

    def _middle(self, rank: str, suit: str, style: dict[str, Any],
                suits: dict[str, Mask | None], rng: random.Random, paste: Any,
                glyphs: list[tuple[str, npt.NDArray[np.float64]]], rank_h: float) -> None:
        """Pips for number cards and aces (labelled as the suit), a picture for court cards."""
        w, h = self.width, self.height
        if rank in "JQK":
            x0, y0, x1, y1 = int(0.3 * w), int(0.22 * h), int(0.7 * w), int(0.78 * h)
            pic = np.zeros((y1 - y0, x1 - x0), np.float32)
            for _ in range(rng.randint(4, 10)):
                cx, cy = rng.randint(0, x1 - x0), rng.randint(0, y1 - y0)
                col_mask = np.zeros_like(pic)
                if rng.random() < 0.5:
                    cv2.ellipse(col_mask, (cx, cy), (rng.randint(5, 40), rng.randint(5, 40)),
                                rng.uniform(0, 180), 0, 360, 1.0, -1, cv2.LINE_AA)
                else:
                    pts = np.array([(rng.randint(0, x1 - x0), rng.randint(0, y1 - y0))
                                    for _ in range(rng.randint(3, 6))], np.int32)
                    cv2.polylines(col_mask, [pts], True, 1.0, rng.randint(1, 4), cv2.LINE_AA)
                col = np.array([rng.randint(0, 255) for _ in range(3)], np.float32)
                paste(col_mask, x0, y0, col)
            return
        n = 1 if rank == "A" else "23456789T".index(rank) + 2
        pip_h = rng.uniform(0.08, 0.12) * h if n > 1 else rng.uniform(0.12, 0.3) * h
        pm = self._suit_mask(suit, pip_h, style, suits)
        if pm is None or (n > 1 and pm.shape[1] > 0.16 * w):
            return
        cols = 1 if n <= 3 else 2 if n <= 8 else 3 if n == 9 else 2
        rows = math.ceil(n / cols)
        left, right = 0.36 * w, 0.64 * w
        for k in range(n):
            c, r = k % cols, k // cols
            px = (left + right) / 2 if cols == 1 else left + (right - left) * c / (cols - 1)
            py = 0.5 * h if rows == 1 else 0.24 * h + 0.52 * h * r / (rows - 1)
            x, y = px - pm.shape[1] / 2, py - pm.shape[0] / 2
            turned = pm[::-1, ::-1] if py > 0.5 * h else pm
            paste(turned, x, y)
            glyphs.append((suit, _box(x, y, pm.shape[1], pm.shape[0])))
