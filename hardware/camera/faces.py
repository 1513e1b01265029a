"""A card around a glyph: its face traced in the frame (the region of the face's shade around
it, the print on it filled in) and the angle of its edges."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera.inks import Inks
from hardware.camera.params import Params
from hardware.camera.types import Glyph, Image, Quad


@dataclass(frozen=True, slots=True)
class Face:
    """The card face a glyph is printed on: its mask, placed at (x0, y0) in the frame, and its
    outline's points (frame coordinates). ``whole`` when it lies within the part of the frame
    it was traced in (else it may go on beyond: a face cut by that edge can look whole).
    ``upright``: its quad is turned so that the rank lies at its top (``Faces.quad_upright``)."""

    mask: npt.NDArray[np.uint8]
    x0: int
    y0: int
    outline: npt.NDArray[np.int32]
    whole: bool = True
    upright: bool = True

    def holds(self, g: Glyph) -> bool:
        u, v = int(g.cx) - self.x0, int(g.cy) - self.y0
        return 0 <= v < self.mask.shape[0] and 0 <= u < self.mask.shape[1] \
            and bool(self.mask[v, u])

    def quad(self, rank: Glyph) -> Quad:
        """The face's smallest enclosing rectangle, from the corner nearest the rank; upright,
        its top edge the shorter one (the rank's corner is then its top left, as on most decks,
        or its top right, as Oxygen prints it)."""
        box = cv2.boxPoints(cv2.minAreaRect(self.outline))
        first = int(np.argmin(np.hypot(box[:, 0] - rank.cx, box[:, 1] - rank.cy)))
        if self.upright:
            along = float(np.hypot(*(box[(first + 1) % 4] - box[first])))
            back = float(np.hypot(*(box[(first + 3) % 4] - box[first])))
            if along > back:
                first = (first + 3) % 4
        return tuple((float(x), float(y)) for x, y in np.roll(box, -first, axis=0))


def face_of(rank: Glyph, gray: Image, p: Params, close: float = 0.12, near: float = 0.4,
            inks: Inks | None = None, cut: float | None = None,
            reach_sizes: float | None = None) -> Face | None:
    """The pixels of the face's shade connected to the glyph's surroundings (``reach_sizes`` of
    its sizes around: ``Faces.reach`` unless given), with the print on it (pips, the rank itself)
    filled in; None where the face cannot be told from the print or runs into other cards. The
    shade is within ``near`` of the print's contrast from the face's, and gaps in it of
    ``close`` rank sizes are closed; with ``cut``, thin dark lines in it are not the face's
    (``Pips.cut``). With the frame's colours (``inks``), a face that so runs on larger than a
    card is traced again with its colour near the face's as well (``Faces.chroma``): a black
    face on dark red felt is of one grey with it, not of one colour."""
    size = rank.size
    reach = int((p.faces.reach if reach_sizes is None else reach_sizes) * size)
    x0, y0 = max(int(rank.cx) - reach, 0), max(int(rank.cy) - reach, 0)
    x1, y1 = min(int(rank.cx) + reach, gray.shape[1]), min(int(rank.cy) + reach, gray.shape[0])
    win = gray[y0:y1, x0:x1]
    # the face's shade: the ring just outside the rank's box; the print's: the box's extreme
    pad = max(int(0.35 * size), 2)
    bx0, by0 = max(rank.x - x0 - pad, 0), max(rank.y - y0 - pad, 0)
    bx1 = min(rank.x - x0 + rank.w + pad, win.shape[1])
    by1 = min(rank.y - y0 + rank.h + pad, win.shape[0])
    ring = np.ones((by1 - by0, bx1 - bx0), bool)
    ring[pad:-pad, pad:-pad] = False
    if not ring.any():
        return None
    face = int(np.median(win[by0:by1, bx0:bx1][ring]))
    glyph = win[rank.y - y0:rank.y - y0 + rank.h, rank.x - x0:rank.x - x0 + rank.w]
    contrast = abs(int(glyph.min() if rank.dark else glyph.max()) - face)
    if contrast < 30:
        return None
    shade: Image = (cv2.absdiff(win, np.full_like(win, face)) < near * contrast).view(np.uint8)
    if cut is not None and rank.dark:
        k = max(3, round(p.pips.cut_window * size)) | 1
        valley = cv2.morphologyEx(win, cv2.MORPH_BLACKHAT,
                                  cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        shade[valley > cut * contrast] = 0
    box = (bx0, by0, bx1, by1)
    found = _flood(shade, ring, box, size, close, (x0, y0), p)
    if p.faces.chroma is None or inks is None or found is not None:
        return found
    # the colour apart from the lightness (the grey above has that)
    parts = [plane[y0:y1, x0:x1] for plane in inks.chroma()]
    tints = np.median(np.stack([q[by0:by1, bx0:bx1][ring] for q in parts]), axis=1)
    apart = cv2.max(*(cv2.absdiff(q, np.full_like(q, round(float(t))))
                      for q, t in zip(parts, tints, strict=True)))
    return _flood(shade & (apart < p.faces.chroma).view(np.uint8), ring, box, size, close,
                  (x0, y0), p)


def _flood(shade: Image, ring: npt.NDArray[np.bool_], box: tuple[int, int, int, int],
           size: float, close: float, origin: tuple[int, int], p: Params) -> Face | None:
    """The face in a picture of its shade: the region holding most of the ``ring`` around the
    rank (its ``box`` in the picture, which lies at ``origin`` in the frame); None when there is
    none or it is larger than a card (``Faces.max_area``)."""
    bx0, by0, bx1, by1 = box
    # thin printed frame lines do not cut a face in two; the border between two cards does
    k = round(close * size)
    if k > 1:
        shade = cv2.morphologyEx(shade, cv2.MORPH_CLOSE,
                                 cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    # the face is the shade region holding most of the ring: flood from four points of it
    on_ring = ring & (shade[by0:by1, bx0:bx1] > 0)
    ys, xs = np.nonzero(on_ring)
    if not len(ys):
        return None
    filled = np.zeros((shade.shape[0] + 2, shade.shape[1] + 2), np.uint8)
    boxes: dict[int, tuple[int, int, int, int, int]] = {}
    for value, i in enumerate(np.linspace(0, len(ys) - 1, 4).astype(int), start=1):
        sx, sy = bx0 + int(xs[i]), by0 + int(ys[i])
        if not filled[sy + 1, sx + 1]:
            area, _img, _mask, rect = cv2.floodFill(
                shade, filled, (sx, sy), 0, 0, 0, 4 | cv2.FLOODFILL_MASK_ONLY | (value << 8))
            boxes[value] = (int(area), int(rect[0]), int(rect[1]), int(rect[2]), int(rect[3]))
    held = filled[1 + by0:1 + by1, 1 + bx0:1 + bx1][on_ring]
    label = int(np.bincount(held[held > 0]).argmax())
    area, x, y, w, h = boxes[label]
    if area > p.faces.max_area * size * size:
        return None
    region = (filled[1 + y:1 + y + h, 1 + x:1 + x + w] == label).view(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    mask = np.zeros(region.shape, np.uint8)
    cv2.drawContours(mask, contours, -1, 1, thickness=cv2.FILLED)
    x0, y0 = origin
    outline = np.concatenate(contours) + np.array([x0 + x, y0 + y], np.int32)
    whole = x > 0 and y > 0 and x + w < shade.shape[1] and y + h < shade.shape[0]
    return Face(mask, x0 + x, y0 + y, outline, whole, p.faces.quad_upright)


def card_axis(gray: Image, g: Glyph, reach: float = 5.0) -> float:
    """The angle (radians, modulo a quarter turn) of the straight lines around a glyph (within
    ``reach`` of its sizes: ``Looks.axis_reach``): the edges of its card and the strokes of its
    print, which run along the card's sides. The mean of the gradients' directions taken four
    times, each weighted by its strength."""
    r = max(int(reach * g.size), 3)
    x0, y0 = max(int(g.cx) - r, 0), max(int(g.cy) - r, 0)
    win = gray[y0:int(g.cy) + r + 1, x0:int(g.cx) + r + 1].astype(np.float32)
    gx = cv2.Sobel(win, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(win, cv2.CV_32F, 0, 1, ksize=3)
    # with c = gx² - gy² and s = 2 gx gy (the gradient's direction taken twice, times its
    # strength r² = gx² + gy²), r² cos 4θ = (c² - s²) / r² and r² sin 4θ = 2 c s / r²: no angle
    # is taken of each pixel (a pixel of no gradient weighs nothing)
    xx, yy = gx * gx, gy * gy
    c, s = xx - yy, 2.0 * gx * gy
    strength = np.maximum(xx + yy, np.float32(1e-12))
    return math.atan2(float((2.0 * c * s / strength).sum()),
                      float(((c * c - s * s) / strength).sum())) / 4.0


def card_downs(gray: Image, g: Glyph, reach: float = 5.0) -> list[tuple[float, float]]:
    """The four ways down a card may run at a glyph: square to the lines around it."""
    axis = card_axis(gray, g, reach)
    return [(-math.sin(axis + q * math.pi / 2), math.cos(axis + q * math.pi / 2))
            for q in range(4)]
