"""Synthetic table scenes from the permitted deck renders, with the glyph labels to train on.

A scene is felt (colour, cloth texture, lamp falloff, vignette, colour cast), stud fans of cards at
any angle (face-down cards first, each covered card showing 25-60 % of its width), chips, a camera
perspective (tilt up to 35 degrees, a little roll), glare, blur, sensor noise and JPEG. One deck in
four is drawn inverted (light print on a dark face) so that the classifier also reads such decks.

Each card's corner-index glyphs, located once on its clean render
(:mod:`hardware.training.cardart`), are carried through the same transforms as the art, so every
glyph candidate found in a scene gets its true label.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera.candidates import candidate_glyphs, fine_candidates
from hardware.camera.nets import CLASSES, PATCH, UPRIGHT_CLASSES, glyph_patches, patches
from hardware.camera.types import Glyph
from hardware.training.cardart import (
    RANKS,
    SUITS,
    CardArt,
    Image,
    drawn_backs,
    invert_art,
    rounded_mask,
)

if TYPE_CHECKING:
    from hardware.training.fontdeck import FontDecks


def _felt(rng: random.Random, w: int, h: int, picture: bool = True
          ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The felt and its light falloff (both empty without ``picture``: the same draws made)."""
    colours = {"green": (40, 110, 30), "blue": (120, 70, 20), "red": (35, 30, 120),
               "grey": (90, 90, 90)}
    base = np.array(rng.choice(list(colours.values())), np.float32)
    base *= rng.uniform(0.6, 1.3)
    seed, grain = rng.randrange(1 << 30), rng.uniform(3, 9)
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.1, 0.7) * h
    fall = rng.uniform(0.2, 0.7)
    if not picture:
        return np.zeros((0, 0, 3), np.float32), np.zeros((0, 0), np.float32)
    img = np.ones((h, w, 3), np.float32) * base
    noise = np.random.default_rng(seed).normal(0, 1, (h, w, 1)).astype(np.float32)
    img += cv2.GaussianBlur(noise, (0, 0), 0.8)[..., None] * grain
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / max(w, h)
    falloff = 1.0 - fall * np.clip(r, 0, 1.2) ** 1.5
    return np.clip(img, 0, 255), falloff.astype(np.float32)



def _camera(rng: random.Random, w: int, h: int) -> npt.NDArray[np.float64]:
    """A homography for a camera tilted up to 35 degrees with a little roll."""
    tilt = math.radians(rng.uniform(0, 35))
    shrink = math.tan(tilt) * 0.35
    squash = math.cos(tilt)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dx = shrink * w / 2
    dst = np.array([[dx, h * (1 - squash)], [w - dx, h * (1 - squash)], [w, h], [0, h]],
                   np.float32)
    m = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
    roll = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-6, 6), 1.0)
    return np.vstack([roll, [0, 0, 1]]) @ m


@dataclass
class Placed:
    art: CardArt
    matrix: npt.NDArray[np.float64]
    face_up: bool


@dataclass
class Scene:
    image: Image
    #: visible glyphs: (class label, 4x2 corners in scene pixels)
    glyphs: list[tuple[str, npt.NDArray[np.float64]]]
    placed: list[Placed]
    #: the face-up cards with at least one whole corner index in view
    readable: list[str]
    #: the chips laid on the scene (centre x, centre y, radius), over the cards
    chips: list[tuple[float, float, float]] = field(default_factory=list)


def make_scene(decks: dict[str, list[CardArt]], rng: random.Random,
               size: tuple[int, int] = (960, 640), fonts: FontDecks | None = None,
               font_share: float = 0.0, fans: tuple[int, int] = (1, 5),
               apart: float = 260.0, rank_px: tuple[float, float] = (9.0, 24.0),
               picture: bool = True) -> Scene:
    """A scene, its visible glyphs and its readable cards; with ``fonts``, that share of the
    scenes is dealt from a deck drawn in a new font style instead of a rendered design. Each fan's
    rank height in pixels is drawn from ``rank_px``. Without ``picture`` the scene is laid out
    alike (the same draws) but not drawn: its image is empty."""
    w, h = size
    felt, falloff = _felt(rng, w, h, picture)
    canvas = felt.copy()
    owner = np.full((h, w), -1, np.int32)
    deck_name = rng.choice(list(decks))
    arts = [a for a in decks[deck_name] if a.card != "back"]
    if fonts is not None and rng.random() < font_share:
        arts = fonts.deck(rng, rng.sample([r + s for r in RANKS for s in SUITS], 24))
    backs = [a for d in decks.values() for a in d if a.card == "back"] or drawn_backs()
    inverted = rng.random() < 0.25
    cam = _camera(rng, w, h)
    placed: list[Placed] = []
    rng.shuffle(arts)
    pool = iter(arts)
    centres: list[tuple[float, float]] = []
    for _ in range(rng.randint(*fans)):
        rank_h = rng.uniform(*rank_px)
        angle = rng.uniform(0, 2 * math.pi)
        for _try in range(30):
            cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
            if all(math.hypot(cx - a, cy - b) > apart for a, b in centres):
                break
        else:
            break
        centres.append((cx, cy))
        n_down = rng.randint(0, 2)
        n_up = rng.randint(1, 4)
        step_frac = rng.uniform(0.25, 0.6)
        side = rng.choice((1, -1))
        step_y = rng.uniform(-0.15, 0.15)
        for k in range(n_down + n_up):
            face_up = k >= n_down
            if face_up:
                art = next(pool, None)
                if art is None:
                    break
                if inverted:
                    art = invert_art(art, rng)
            else:
                art = rng.choice(backs)
            ih, iw = art.image.shape[:2]
            ref = next((a for a in arts if a.rank_h > 0), art)
            scale = rank_h / max(ref.rank_h, 1.0) * ref.image.shape[1] / iw
            scale = min(scale, 170.0 / iw)
            card_w = iw * scale
            ox = side * k * step_frac * card_w
            oy = k * step_y * card_w
            ca, sa = math.cos(angle), math.sin(angle)
            a = np.array([[scale * ca, -scale * sa, 0], [scale * sa, scale * ca, 0], [0, 0, 1]])
            t = np.array([[1, 0, cx + ca * ox - sa * oy - (ca * iw - sa * ih) * scale / 2],
                          [0, 1, cy + sa * ox + ca * oy - (sa * iw + ca * ih) * scale / 2],
                          [0, 0, 1]])
            matrix = cam @ t @ a
            placed.append(Placed(art, matrix, face_up))
    glyphs: list[tuple[str, npt.NDArray[np.float64]]] = []
    for idx, p in enumerate(placed):
        ih, iw = p.art.image.shape[:2]
        corners = np.array([[[0, 0], [iw, 0], [iw, ih], [0, ih]]], np.float64)
        pts = cv2.perspectiveTransform(corners, p.matrix)[0]
        x0, y0 = np.clip(np.floor(pts.min(axis=0)).astype(int) - 1, 0, [w, h])
        x1, y1 = np.clip(np.ceil(pts.max(axis=0)).astype(int) + 1, 0, [w, h])
        if x1 <= x0 or y1 <= y0:
            continue
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ p.matrix
        size_box = (int(x1 - x0), int(y1 - y0))
        mask = cv2.warpPerspective(rounded_mask(iw, ih), shift, size_box, flags=cv2.INTER_AREA)
        if picture:
            warped = cv2.warpPerspective(p.art.image, shift, size_box, flags=cv2.INTER_AREA)
            alpha = (mask.astype(np.float32) / 255.0)[..., None]
            sub = canvas[y0:y1, x0:x1]
            canvas[y0:y1, x0:x1] = sub * (1 - alpha) + warped.astype(np.float32) * alpha
        owner[y0:y1, x0:x1][mask > 127] = idx
    # chips, on the felt or on a card: what a chip covers is no card's to read
    chips: list[tuple[float, float, float]] = []
    for _ in range(rng.randint(0, 4)):
        c = (rng.uniform(0, w), rng.uniform(0, h))
        r = rng.uniform(10, 24)
        chips.append((c[0], c[1], r))
        col = tuple(rng.randint(20, 230) for _ in range(3))
        cv2.circle(owner, (int(c[0]), int(c[1])), int(r) + 1, -1, -1)
        if not picture:
            continue
        cv2.circle(canvas, (int(c[0]), int(c[1])), int(r), col, -1, cv2.LINE_AA)
        for j in range(6):
            ang = j * math.pi / 3
            p0 = (int(c[0] + math.cos(ang) * r * 0.7), int(c[1] + math.sin(ang) * r * 0.7))
            cv2.circle(canvas, p0, max(2, int(r * 0.15)), (235, 235, 235), -1, cv2.LINE_AA)
    readable: list[str] = []
    for idx, p in enumerate(placed):
        if not p.face_up:
            continue
        seen: list[int] = []
        for gi, (label, box) in enumerate(p.art.glyphs):
            pts = cv2.perspectiveTransform(box[None].astype(np.float64), p.matrix)[0]
            x0, y0 = np.floor(pts.min(axis=0)).astype(int)
            x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
            if x0 < 0 or y0 < 0 or x1 >= w or y1 >= h:
                continue
            region = owner[y0:y1 + 1, x0:x1 + 1]
            if region.size and (region == idx).mean() > 0.97:
                glyphs.append((label, pts))
                seen.append(gi)
        n = p.art.n_index
        if set(range(n)) <= set(seen) or set(range(n, 2 * n)) <= set(seen):
            readable.append(p.art.card)
    cast = np.array([rng.uniform(0.85, 1.1) for _ in range(3)], np.float32)
    light = None
    if rng.random() < 0.35:
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(20, 120), rng.uniform(20, 120)
        light = (gx, gy, sx, sy, rng.uniform(40, 110))
    sigma = rng.uniform(0, 1.5)
    seed, grain = rng.randrange(1 << 30), rng.uniform(0, 5)
    quality = rng.randint(60, 90)
    if not picture:
        return Scene(np.zeros((0, 0, 3), np.uint8), glyphs, placed, readable, chips)
    canvas *= falloff[..., None]
    canvas *= cast
    if light is not None:
        gx, gy, sx, sy, strength = light
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        blob = np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2))
        canvas += (blob * strength)[..., None]
    if sigma > 0.2:
        canvas = np.asarray(cv2.GaussianBlur(canvas, (0, 0), sigma), np.float32)
    noise = np.random.default_rng(seed).normal(0, grain, canvas.shape)
    canvas = np.clip(canvas + noise, 0, 255).astype(np.uint8)
    ok, jpg = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, quality])
    scene = cv2.imdecode(jpg, cv2.IMREAD_COLOR) if ok else canvas
    return Scene(np.asarray(scene, np.uint8), glyphs, placed, readable, chips)


def label_candidates(cands: list[Glyph], glyphs: list[tuple[str, npt.NDArray[np.float64]]]
                     ) -> list[int | None]:
    """Class index per candidate: the glyph it overlaps best, ``other`` when it overlaps none,
    None (left out of training) when the overlap is partial or the size does not fit."""
    boxes = [(lab, pts.min(axis=0), pts.max(axis=0)) for lab, pts in glyphs]
    out: list[int | None] = []
    other = CLASSES.index("other")
    for g in cands:
        best, best_iou, best_box = None, 0.0, None
        for lab, lo, hi in boxes:
            iw = min(g.x + g.w, hi[0]) - max(g.x, lo[0])
            ih = min(g.y + g.h, hi[1]) - max(g.y, lo[1])
            if iw <= 0 or ih <= 0:
                continue
            inter = iw * ih
            union = g.w * g.h + (hi[0] - lo[0]) * (hi[1] - lo[1]) - inter
            iou = inter / max(union, 1e-6)
            if iou > best_iou:
                best, best_iou, best_box = lab, iou, (lo, hi)
        if best is None or best_box is None:
            out.append(other)
            continue
        lo, hi = best_box
        inside = (min(g.x + g.w, hi[0]) - max(g.x, lo[0])) * (
            min(g.y + g.h, hi[1]) - max(g.y, lo[1])) / max(g.w * g.h, 1)
        ratio = g.size / max(float(max(hi - lo)), 1.0)
        if best_iou >= 0.3 and inside >= 0.75 and 0.55 <= ratio <= 1.4:
            out.append(CLASSES.index(best))
        elif best_iou < 0.05:
            out.append(other)
        else:
            out.append(None)
    return out


#: rank heights of the training scenes (the evaluation scenes use make_scene's default). Down
#: to 7.5 px, with more type, was measured and not kept (docs/recognition.md)
TRAIN_RANK_PX = (9.0, 24.0)


def scene_samples(decks: dict[str, list[CardArt]], seed: int, fonts: FontDecks | None = None,
                  font_share: float = 0.0, fine: bool = False,
                  rank_px: tuple[float, float] = TRAIN_RANK_PX
                  ) -> tuple[npt.NDArray[np.float16], npt.NDArray[np.int64]]:
    """Labelled patches of one scene's glyph candidates; with ``fine``, only those the finer
    second look adds around the index glyphs (as the recogniser cuts them around a lonely rank
    or suit)."""
    rng = random.Random(seed)
    made = make_scene(decks, rng, size=(1280, 720), fonts=fonts, font_share=font_share,
                      fans=(2, 8), apart=220.0, rank_px=rank_px)
    scene, glyphs = made.image, made.glyphs
    gray = cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY)
    cands = candidate_glyphs(gray)
    labels = label_candidates(cands, glyphs)
    if fine:
        other = CLASSES.index("other")
        seeds = [g for g, lab in zip(cands, labels, strict=True)
                 if lab is not None and lab != other]
        cands = fine_candidates(gray, seeds, cands)
        labels = label_candidates(cands, glyphs)
    chosen, ys = [], []
    other = CLASSES.index("other")
    for g, lab in zip(cands, labels, strict=True):
        if lab is None or (lab == other and rng.random() > 0.5):
            continue
        chosen.append(g)
        ys.append(lab)
    if not chosen:
        return np.zeros((0, 2, PATCH, PATCH), np.float16), np.zeros((0,), np.int64)
    return glyph_patches(scene, gray, chosen).astype(np.float16), np.array(ys, np.int64)


#: how far, in degrees, the direction from an index's rank to its suit may stray from the card's
#: own: the upright patches of training are turned by up to as much at random
UPRIGHT_JITTER_DEG = 12.0


def upright_samples(decks: dict[str, list[CardArt]], seed: int, fonts: FontDecks | None = None,
                    font_share: float = 0.0, rank_px: tuple[float, float] = TRAIN_RANK_PX,
                    jitter: float = UPRIGHT_JITTER_DEG
                    ) -> tuple[npt.NDArray[np.float16], npt.NDArray[np.int64]]:
    """Labelled upright patches (``UPRIGHT_CLASSES``) of one scene's index glyphs, each turned
    so that the card's down points down (give or take ``jitter`` degrees), and of a share of
    the other candidates turned at random."""
    rng = random.Random(seed)
    made = make_scene(decks, rng, size=(1280, 720), fonts=fonts, font_share=font_share,
                      fans=(2, 8), apart=220.0, rank_px=rank_px)
    scene = made.image
    gray = cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY)
    cands = candidate_glyphs(gray)
    labels = label_candidates(cands, made.glyphs)
    # the index glyphs in view: centre, size, the glyph's down, its upright label
    index: list[tuple[float, float, float, float, float, str]] = []
    for p in made.placed:
        if not p.face_up:
            continue
        for glyph_label, box in p.art.glyphs[:2 * p.art.n_index]:
            pts = cv2.perspectiveTransform(box[None].astype(np.float64), p.matrix)[0]
            down = pts[3] - pts[0]
            n = float(np.hypot(*down)) or 1.0
            up_label = p.art.card[0] if glyph_label == "6" else glyph_label
            centre = pts.mean(axis=0)
            index.append((float(centre[0]), float(centre[1]), float(np.ptp(pts, axis=0).max()),
                          float(down[0] / n), float(down[1] / n), up_label))
    other = CLASSES.index("other")
    chosen: list[Glyph] = []
    downs: list[tuple[float, float]] = []
    ys: list[int] = []
    for g, lab in zip(cands, labels, strict=True):
        if lab is None:
            continue
        cx, cy = g.x + g.w / 2.0, g.y + g.h / 2.0
        if lab == other:
            if rng.random() > 0.15:
                continue
            turn = rng.uniform(0, 2 * math.pi)
            chosen.append(g)
            downs.append((math.sin(turn), math.cos(turn)))
            ys.append(UPRIGHT_CLASSES.index("other"))
            continue
        near = [i for i in index if math.hypot(i[0] - cx, i[1] - cy) < 0.5 * max(i[2], g.size)]
        if not near:
            continue  # a pip of the card body: its print is not upright with the card
        _gx, _gy, _size, dx, dy, up_label = min(near, key=lambda i: math.hypot(i[0] - cx,
                                                                                 i[1] - cy))
        if CLASSES[lab] != ("6" if up_label in "69" else up_label):
            continue
        turn = math.radians(rng.uniform(-jitter, jitter))
        c, s_ = math.cos(turn), math.sin(turn)
        chosen.append(g)
        downs.append((dx * c - dy * s_, dx * s_ + dy * c))
        ys.append(UPRIGHT_CLASSES.index(up_label))
    if not chosen:
        return np.zeros((0, 2, PATCH, PATCH), np.float16), np.zeros((0,), np.int64)
    both = cv2.merge([scene, gray])
    return patches(both, chosen, downs).astype(np.float16), np.array(ys, np.int64)
