"""Face-down cards: find the card backs in a frame and count them, never naming a card.

A card back shows no index, so the recogniser never reads it. Here it is found by what it looks
like next to the felt and to a card face, whatever the back's design:

1. *Felt*: the table cloth is the picture's commonest colour (the mode of the Lab chroma) with a
   brightness that changes smoothly (a quadratic surface fitted to it takes in the lamp's
   falloff). What differs from it in chroma or brightness is a card, a chip or a hand.
2. *Back pixels*: each pixel of the frame (searched at 320 px wide) gets a few generic measures:
   its whiteness against the lamp (a face is the lightest thing on the table), its distance from
   the felt, its saturation, and the texture, colour spread, share of light face and of felt
   around it at two sizes. A quadratic logistic model of those measures, fitted on synthetic
   table scenes of many back designs (``python -m hardware.camera.down --fit``), gives the
   chance that the pixel belongs to a card back. No back design is matched as such.
3. *Cards*: the sure back pixels (chance over 0.7) form pieces; the light margin of each next
   card in a stud fan parts one face-down card from the next. A piece is a card when it is large
   enough for the visible strip of a covered card (25-60 % of its width in a stud fan), sure on
   the whole (mean chance 0.7 or more) and holds no face-up index that the recogniser read.

The operating point leans to missing a card rather than counting a face-up card as a down card:
two face-down cards whose parting margin is lost at the work scale count as one.

Each found card has the quad of its visible part and its centre; never a rank or a suit.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

#: a BGR or grey picture as OpenCV returns it
Image = npt.NDArray[Any]
#: the work scale: a 1280x720 frame is searched at 320x180 (a card's visible strip is 3-25 px wide)
WORK_WIDTH = 320


@dataclass(frozen=True, slots=True)
class DownCard:
    """A face-down card: the quad of its visible part and its centre, in frame pixels."""

    quad: tuple[tuple[float, float], ...]
    center: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {"quad": [[round(x, 1), round(y, 1)] for x, y in self.quad],
                "center": [round(self.center[0], 1), round(self.center[1], 1)]}


@dataclass
class Params:
    """The operating point, chosen on synthetic scenes (docs/camera.md)."""

    felt_chroma: float = 9.0  # Lab chroma distance from the felt's mode
    felt_light: float = 14.0  # Lab lightness distance from the felt's fitted surface
    prob: float = 0.7  # a pixel is back from this chance
    open_px: int = 1  # opening radius that drops thin bridges between pieces
    min_area: float = 0.0012  # a piece's area, of the work picture's
    min_side: float = 0.012  # its short side, of the work width
    min_long: float = 0.05  # its long side, of the work width
    min_mean: float = 0.7  # its mean chance


P = Params()
#: the back model: bias, 23 linear and 276 quadratic (upper triangle) coefficients on the pixel
#: measures, fitted by ``python -m hardware.camera.down --fit`` on synthetic scenes
_COEF = np.array([
    -13.9674, 4.28426, 3.05285, 4.43518, 1.9463, 1.04323, 3.51823, 7.05273,
    0.645772, 7.83799, 5.0001, -1.49376, 4.7845, 8.49607, 0.154167, 6.02488,
    1.34268, -0.925572, 4.66912, 9.36118, 0.407723, 6.15986, -4.055, 0.663678,
    -10.4354, -4.1938, 9.28696, 1.8374, -2.42349, 3.10619, -5.09599, -3.04212,
    -0.530681, 1.34005, 0.370874, 2.02152, -0.844288, 2.69282, 2.05125, -1.14367,
    0.158821, 0.688701, -2.0228, 2.54254, 1.84532, -0.4725, -0.60211, 0.0271767,
    -4.17425, -0.979428, -1.46317, -1.42479, -0.706072, 5.23348, 1.02497, 3.12959,
    -0.900558, 0.407263, -0.487025, -0.0103724, 2.00071, 0.384272, 0.184411, -1.03222,
    -3.13723, -1.81837, 1.93233, -1.72682, 0.701681, -2.92419, -2.00192, 1.73511,
    4.1379, 4.76118, 1.01472, -7.5641, -1.86074, -2.41407, 4.17697, -12.2582,
    -2.86411, -10.9752, -0.0241813, -2.07572, 21.8293, 0.445479, -1.05786, 6.59428,
    1.0262, 0.853904, -1.26439, -1.05472, -0.981459, -1.18266, 5.45483, -2.70819,
    3.05368, -1.37657, 3.53286, 1.15152, 5.86465, 0.0825881, -1.35701, -0.0130931,
    3.32933, 1.28271, -3.96423, -1.71805, -1.2489, -0.345671, 1.04323, 3.04345,
    -1.84248, 0.71925, -2.12915, -8.07378, -3.20827, 3.87267, 1.27618, 0.735306,
    -2.86525, -1.49215, -0.494006, 1.54555, 8.33544, 0.785837, -3.0646, -1.87611,
    -0.907402, -0.609559, -0.170278, 8.52135, -1.9629, 7.28912, -3.09003, 3.24949,
    -5.35349, 7.86526, -4.14736, 3.90852, -0.47191, 8.44927, -1.09319, -11.7746,
    -3.59436, 0.925092, 0.841296, -3.64184, -11.8811, -3.37905, 4.33544, -1.21802,
    1.10067, -1.31017, 2.65445, -0.862, -2.18175, -1.31947, 5.83376, -0.069673,
    -3.2196, 1.72794, -2.24079, -1.76194, 0.326384, -1.29003, -1.23531, -7.49949,
    -13.903, 3.32061, 0.161928, -2.9809, 8.89769, 2.27186, -20.665, 8.43573,
    0.349823, -4.66484, 0.886808, -0.305393, 0.254705, -1.11478, -0.597343, -0.794371,
    -2.49869, 10.6524, 1.11949, -0.288455, 0.238815, -0.44658, -3.37136, 7.1276,
    2.35036, 0.465725, -1.04189, -23.1153, 9.6085, -6.69496, -4.48794, 16.0888,
    -5.86469, -2.25281, 4.92156, -11.4874, -5.91451, -4.10782, -3.16172, 4.96803,
    -1.71895, -0.370495, -4.50334, 3.03813, 6.36879, 1.35235, 3.76109, 0.476318,
    -4.18886, 4.33312, -0.283698, 0.996844, -2.13688, 0.323183, 2.29697, -1.71122,
    -0.822822, -1.18375, -4.27942, -5.42656, 4.88616, -2.60563, 8.91891, -2.25578,
    -0.737133, -1.62959, -4.59452, -1.71889, -3.6949, 3.00918, -0.0961088, -0.32089,
    -0.756495, 0.596933, 1.88548, 2.56274, -0.643809, -0.999253, 0.92664, -10.7238,
    -3.76269, 3.29014, -14.3856, -0.693104, -8.99535, -0.221236, -3.07826, -2.24629,
    1.93574, 0.257206, -0.227416, -2.60051, -1.28743, 0.851552, 3.60012, -0.559177,
    -4.86194, 0.879003, -9.9152, -7.41113, 4.32508, -0.132815, 8.3115, -1.83854,
    0.427135, -5.19711, 0.760766, -3.43109, -0.45007, -0.239608, 1.48927, 1.81293,
    -5.23867, 14.4282, 1.41229, -3.66784, -4.65283, -1.3245, 9.05924, -0.428305,
    -0.419854, -1.85833, -0.352925, -7.6384, 1.49852, 2.25035, 0.636458, 9.73831,
    -1.50714, 1.20082, 0.118069, 2.42319,
], np.float64)
N_FEATURES = 23


@functools.lru_cache(maxsize=4)
def _basis(h: int, w: int) -> npt.NDArray[np.float32]:
    """A quadratic surface's terms at every pixel (1, x, y, x², xy, y²), x and y in 0..1."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xx /= w
    yy /= h
    return np.stack([np.ones_like(xx), xx, yy, xx * xx, xx * yy, yy * yy], -1).reshape(-1, 6)


def _felt(lab: npt.NDArray[np.float32], lab8: Image
          ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float32]]:
    """The felt mask and the felt's fitted brightness (L of Lab) at every pixel."""
    L, a, b = lab[..., 0], lab[..., 1], lab[..., 2]
    hist = cv2.calcHist([lab8], [1, 2], None, [64, 64], [0, 256, 0, 256])
    hist = cv2.GaussianBlur(hist, (3, 3), 0)
    ia, ib = np.unravel_index(int(hist.argmax()), hist.shape)
    a0, b0 = ia * 4 + 2.0, ib * 4 + 2.0
    dc = np.hypot(a - a0, b - b0)
    h, w = L.shape
    basis = _basis(h, w)
    cand = (dc < P.felt_chroma).ravel()
    lum = L.ravel()
    coef = np.array([float(np.median(lum)), 0, 0, 0, 0, 0], np.float32)
    step = max(1, cand.size // 6000)
    for _ in range(3):
        idx = np.flatnonzero(cand)[::step]
        if len(idx) < 50:
            break
        sub = basis[idx]
        coef = np.linalg.solve(sub.T @ sub + 1e-3 * np.eye(6, dtype=np.float32),
                               sub.T @ lum[idx]).astype(np.float32)
        cand = cand & (np.abs(lum - basis @ coef) < 2 * P.felt_light)
    lfit = (basis @ coef).reshape(h, w).astype(np.float32)
    felt = (dc < P.felt_chroma) & (np.abs(L - lfit) < P.felt_light)
    return felt, lfit


def _box(x: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.float32]:
    return np.asarray(cv2.blur(x, (k, k)), np.float32)


def _spread(x: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.float32]:
    m = _box(x, k)
    return np.sqrt(np.maximum(_box(x * x, k) - m * m, 0))


def pixel_features(image: Image) -> tuple[npt.NDArray[np.float32], float]:
    """The measures of every pixel at the work scale (23 x height x width), and that scale."""
    h0, w0 = image.shape[:2]
    scale = WORK_WIDTH / w0
    small = cv2.resize(image, (WORK_WIDTH, max(1, round(h0 * scale))),
                       interpolation=cv2.INTER_AREA)
    lab8 = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    lab = lab8.astype(np.float32)
    felt, lfit = _felt(lab, lab8)
    illum = lfit / max(float(np.percentile(lfit, 95)), 1.0)
    white = small.min(axis=2).astype(np.float32) / np.clip(illum, 0.3, 1.5) / 255.0
    L = lab[..., 0]
    a, b = lab[..., 1] - 128.0, lab[..., 2] - 128.0
    std5 = _spread(L, 3) / 50.0
    feltf = felt.astype(np.float32)
    light = ((white > 0.6) & ~felt).astype(np.float32)
    out = np.empty((N_FEATURES, *L.shape), np.float32)
    out[0] = white
    out[1] = (L - lfit) / 100.0
    out[2] = np.hypot(a, b) / 100.0
    out[3] = std5
    out[4] = feltf
    n = 5
    for k in (5, 11, 21):
        out[n] = _box(std5, k)
        out[n + 1] = _box(light, k)
        out[n + 2] = _box(feltf, k)
        out[n + 3] = _box(white, k)
        out[n + 4] = np.sqrt(_spread(a, k) ** 2 + _spread(b, k) ** 2) / 50.0
        out[n + 5] = _spread(L, k) / 50.0
        n += 6
    return out, scale


def _model(coef: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float32], float]:
    """The quadratic form's matrix with the linear terms as a last row, and the bias."""
    n = N_FEATURES
    quad = np.zeros((n + 1, n), np.float32)
    quad[:n][np.triu_indices(n)] = coef[n + 1:]
    quad[n] = coef[1:n + 1]
    return quad, float(coef[0])


_QUAD, _BIAS = _model(_COEF)


def back_probability(feats: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The chance that each pixel is a card back: logistic of the measures (``feats``: 23 x ...)
    and their products."""
    x = np.ascontiguousarray(feats.reshape(N_FEATURES, -1), np.float32)
    # OpenCV's product: steadier than BLAS threads on a busy two-core machine
    qx = cv2.gemm(_QUAD, x, 1.0, None, 0.0)  # type: ignore[call-overload]
    z = np.einsum("ij,ij->j", qx[:N_FEATURES], x) + qx[N_FEATURES] + _BIAS
    prob = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
    return np.asarray(prob, np.float32).reshape(feats.shape[1:])


def _inside(quad: npt.NDArray[np.float32], x: float, y: float) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (x, y), False) >= 0


def find_down_cards(image: Image, face_up: Any = None, debug: dict[str, Any] | None = None
                    ) -> list[DownCard]:
    """The face-down cards in a BGR frame. ``face_up`` (a recogniser ``FrameResult``) vetoes a
    piece that holds a read index: a face-up card is never counted as a down card."""
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("expected a colour (BGR) image of shape (height, width, 3)")
    feats, scale = pixel_features(image)
    prob = back_map(feats)
    return cards_from_map(prob, scale, face_up, debug)


def back_map(feats: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The chance of card back at every pixel of the work scale (:func:`pixel_features`)."""
    # the model only where a card may be: the felt far from anything is no back
    near = feats[6] < 0.999  # felt share within 5 px
    prob = np.zeros(feats.shape[1:], np.float32)
    if near.any():
        prob[near] = back_probability(feats[:, near])
    return prob


def cards_from_map(prob: npt.NDArray[np.float32], scale: float, face_up: Any = None,
                   debug: dict[str, Any] | None = None) -> list[DownCard]:
    """The face-down cards in a map of back chances (:func:`back_map`)."""
    mask: Image = (prob > P.prob).astype(np.uint8)
    if P.open_px:
        k = 2 * P.open_px + 1
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    count, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    hh, ww = mask.shape
    if debug is not None:
        debug.update(prob=prob, mask=mask, labels=labels, scale=scale)
    indices = [c.index_center for c in getattr(face_up, "cards", [])]
    found: list[DownCard] = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < P.min_area * hh * ww or max(w, h) < P.min_long * ww:
            continue
        sub = labels[y:y + h, x:x + w] == i
        if float(prob[y:y + h, x:x + w][sub].mean()) < P.min_mean:
            continue
        ys, xs = np.nonzero(sub)
        pts = np.stack([xs + x, ys + y], 1).astype(np.float32)
        rect = cv2.minAreaRect(pts)
        (_rx, _ry), (rw, rh), _ang = rect
        short, long_ = min(rw, rh), max(rw, rh)
        if short < P.min_side * ww or long_ < P.min_long * ww:
            continue
        box = np.asarray(cv2.boxPoints(rect) / scale, np.float32)
        if any(_inside(box, ix, iy) for ix, iy in indices):
            continue
        cx, cy = float(cents[i][0]) / scale, float(cents[i][1]) / scale
        found.append(DownCard(tuple((float(px), float(py)) for px, py in box), (cx, cy)))
    found.sort(key=lambda d: (d.center[1], d.center[0]))
    return found


# ---- fitting the back model (needs the rendered decks of hardware/training) ---------------------

def procedural_backs(rng: Any, count: int, width: int = 300, height: int = 420) -> list[Any]:
    """Card backs drawn here in many designs, so that the model learns what a back is rather
    than one design: a ground (dark, mid or light, any hue) under a lattice, dots, checks,
    stripes, scrolls or a plain field with an emblem, with or without a light margin."""
    from hardware.training.cardart import CardArt

    out: list[Any] = []
    for _ in range(count):
        ground = np.array([rng.randint(0, 255) for _ in range(3)], np.float32)
        if rng.random() < 0.3:  # light grounds: cream, pale blue, grey
            ground = 255 - (255 - ground) * rng.uniform(0.05, 0.3)
        ink = np.array([rng.randint(0, 255) for _ in range(3)], np.float32)
        if rng.random() < 0.5:
            ink = np.where(ground.mean() > 128, ground * rng.uniform(0.2, 0.6),
                           ground + (255 - ground) * rng.uniform(0.4, 0.9))
        img = np.empty((height, width, 3), np.uint8)
        img[:] = ground.astype(np.uint8)
        col = tuple(int(c) for c in ink)
        kind = rng.choice(["lattice", "dots", "checks", "stripes", "scrolls", "emblem"])
        step = rng.randint(8, 30)
        thick = rng.randint(1, 4)
        if kind == "lattice":
            for k in range(-height, width + height, step):
                cv2.line(img, (k, 0), (k + height, height), col, thick, cv2.LINE_AA)
                cv2.line(img, (k + height, 0), (k, height), col, thick, cv2.LINE_AA)
        elif kind == "dots":
            r = max(2, step // rng.randint(3, 5))
            for yy in range(0, height, step):
                for xx in range((yy // step % 2) * step // 2, width, step):
                    cv2.circle(img, (xx, yy), r, col, -1, cv2.LINE_AA)
        elif kind == "checks":
            for yy in range(0, height, step):
                for xx in range(0, width, step):
                    if (xx // step + yy // step) % 2:
                        img[yy:yy + step, xx:xx + step] = col
        elif kind == "stripes":
            for k in range(-height, width + height, step):
                cv2.line(img, (k, 0), (k + height // 2, height), col, thick + 1, cv2.LINE_AA)
        elif kind == "scrolls":
            for _k in range(rng.randint(20, 60)):
                c = (rng.randint(0, width), rng.randint(0, height))
                ax = (rng.randint(6, 40), rng.randint(6, 40))
                cv2.ellipse(img, c, ax, rng.uniform(0, 180), 0, rng.randint(120, 360), col,
                            thick, cv2.LINE_AA)
        else:
            cv2.ellipse(img, (width // 2, height // 2), (width // 4, height // 5),
                        rng.uniform(0, 90), 0, 360, col, -1, cv2.LINE_AA)
        if rng.random() < 0.5:  # a frame line inside the margin
            m2 = rng.randint(14, 40)
            cv2.rectangle(img, (m2, m2), (width - m2, height - m2), col, thick + 1)
        if rng.random() < 0.85:  # a light margin, as most decks print
            m = rng.randint(width // 30, width // 10)
            light = rng.randint(200, 255)
            img[:m, :] = light
            img[-m:, :] = light
            img[:, :m] = light
            img[:, -m:] = light
        out.append(CardArt("back", img, np.zeros((height, width), bool), [], 0.0))
    return out


def _training_pixels(scenes: int, seed: int, png_root: Any, drawn_backs: int = 0
                     ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Pixel measures and back labels from synthetic scenes of the permitted decks (and, if
    asked, ``drawn_backs`` backs of :func:`procedural_backs` added to every deck)."""
    import random

    from hardware.training.cardart import load_decks, rounded_mask
    from hardware.training.synth import make_scene

    decks = load_decks(png_root)
    if drawn_backs:
        rng = random.Random(seed)
        for name in decks:
            decks[name] = decks[name] + procedural_backs(rng, drawn_backs)
    pick = np.random.default_rng(0)
    xs, ys = [], []
    for n in range(seed, seed + scenes):
        scene = make_scene(decks, random.Random(n), size=(1280, 720))
        owner = np.full((720, 1280), -1, np.int32)
        for idx, p in enumerate(scene.placed):
            ih, iw = p.art.image.shape[:2]
            m = cv2.warpPerspective(rounded_mask(iw, ih), p.matrix, (1280, 720),
                                    flags=cv2.INTER_AREA)
            owner[m > 127] = idx
        feats, _scale = pixel_features(scene.image)
        own = cv2.resize(owner, feats.shape[:0:-1], interpolation=cv2.INTER_NEAREST)
        is_down = np.array([not p.face_up for p in scene.placed] + [False])
        y = is_down[own]
        # card edges and the light margin of a back are neither back nor not back
        edge = cv2.morphologyEx(own.astype(np.float32), cv2.MORPH_GRADIENT,
                                np.ones((3, 3), np.uint8)) > 0
        care = ~(edge | (y & (feats[0] > 0.6)))
        flat = feats.reshape(N_FEATURES, -1).T
        for group in (y & care, (own >= 0) & ~y & care, (own < 0) & care):
            rows = np.flatnonzero(group.ravel())
            if len(rows):
                rows = pick.choice(rows, min(len(rows), 1500), replace=False)
                xs.append(flat[rows])
                ys.append(y.ravel()[rows])
    return np.concatenate(xs), np.concatenate(ys).astype(np.float32)


def _expand(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    iu = np.triu_indices(x.shape[1])
    return np.column_stack([x, (x[:, :, None] * x[:, None, :])[:, iu[0], iu[1]]])


def fit_model(x: npt.NDArray[np.float32], y: npt.NDArray[np.float32], l2: float = 1e-4,
              iterations: int = 12) -> npt.NDArray[np.float64]:
    """Quadratic logistic regression by Newton's method; the coefficients in ``_COEF``'s order."""
    z = _expand(x.astype(np.float64))
    mu, sd = z.mean(0), z.std(0) + 1e-6
    zs = np.column_stack([np.ones(len(z)), (z - mu) / sd])
    w = np.zeros(zs.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-zs @ w))
        grad = zs.T @ (p - y) + l2 * len(y) * w
        hess = (zs * (p * (1 - p))[:, None]).T @ zs + l2 * len(y) * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    coef = w[1:] / sd
    return np.concatenate([[w[0] - float(np.sum(w[1:] * mu / sd))], coef])


def main(argv: list[str] | None = None) -> int:
    import argparse
    from pathlib import Path

    parser = argparse.ArgumentParser(description="fit the card-back model on synthetic scenes")
    parser.add_argument("--fit", action="store_true", required=True)
    parser.add_argument("--scenes", type=int, default=120)
    parser.add_argument("--seed", type=int, default=500_000)
    parser.add_argument("--rows", type=int, default=150_000)
    parser.add_argument("--drawn-backs", type=int, default=0,
                        help="drawn backs added to every deck (measured: no better on new designs)")
    parser.add_argument("--png", type=Path, default=Path(".cache/cards/png"))
    args = parser.parse_args(argv)
    x, y = _training_pixels(args.scenes, args.seed, args.png, args.drawn_backs)
    keep = np.random.default_rng(0).choice(len(x), min(len(x), args.rows), replace=False)
    coef = fit_model(x[keep], y[keep])
    print(f"# {len(keep)} pixels of {args.scenes} scenes, {y.mean():.3f} back")
    print("_COEF = np.array([")
    for k in range(0, len(coef), 8):
        print("    " + ", ".join(f"{v:.6g}" for v in coef[k:k + 8]) + ",")
    print("], np.float64)")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
