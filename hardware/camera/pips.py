"""Stage 2, read: an ace or a card of 2 to 10 lying in full view, read by counting its pips.

Around each likely rank or suit not on a card already read surely, the card's face is traced
(``faces.face_of``, cut along the thin border of a card lying on it); a face in full view (a
quadrilateral of a card's proportions that it fills, its corner indices in two opposite
corners) whose print is pips of one size laid out as a standard layout gives the rank. The suit
is the one its pips are read as (by the glyph classifier, or, where those disagree, by the
upright classifier with each pip turned as printed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera import decide
from hardware.camera.faces import Face, face_of
from hardware.camera.find import Corners
from hardware.camera.nets import RANK_CLASSES, SUIT_CLASSES, UPRIGHT_CLASSES
from hardware.camera.params import Params, Pips
from hardware.camera.types import Evidence, Found, Frame, Glyph, Source, unit
from hardware.camera.upright import UprightFn

COUNT = Source("read", "pips", "count")
#: the glyph classifier: glyphs read, each with its label and probability
ReadFn = Callable[[list[Glyph]], list[Glyph]]
#: a standard layout: pips in the middle column, pips in each side column -> the rank
LAYOUTS: dict[tuple[int, int], str] = {
    (1, 0): "A", (2, 0): "2", (3, 0): "3", (0, 2): "4", (1, 2): "5", (0, 3): "6", (1, 3): "7",
    (2, 3): "8", (0, 4): "8", (1, 4): "9", (2, 4): "T"}


def _face_corners(face: Face, p: Pips) -> npt.NDArray[np.float32] | None:
    """The four corners of a traced face in full view, in order around it, or None when it is
    not a quadrilateral it fills (a card partly covered, cards run together)."""
    hull = cv2.convexHull(face.outline)
    quad = cv2.approxPolyDP(hull, p.quad_eps * cv2.arcLength(hull, True), True)
    if len(quad) != 4 or not cv2.isContourConvex(quad):
        return None
    if cv2.contourArea(face.outline) < p.face_fill * cv2.contourArea(quad):
        return None
    return np.asarray(quad.reshape(4, 2), np.float32)


@dataclass(slots=True)
class PipFace:
    """A card face in full view traced around a glyph, the rank its pips give, and the pips as
    glyphs (the most central first)."""

    face: Face
    rank: str
    pips: list[Glyph]
    #: the card's long axis in the frame (a unit vector), and each pip's place along it (in card
    #: widths from the middle: the pips of the far half are printed turned a half turn)
    down: tuple[float, float] = (0.0, 1.0)
    along: list[float] = field(default_factory=list)


def pip_face(seed: Glyph, frame: Frame, p: Params) -> PipFace | None:
    """The face around ``seed`` and its pips counted: the face must be in full view (a
    quadrilateral of a card's proportions that it fills), the print on it, apart from the corner
    indices, pips of one size laid out as a standard layout (mirrored across the card's long
    middle line, and through its centre but for a 7's odd pip). None otherwise."""
    q, gray = p.pips, frame.gray
    face = face_of(seed, gray, p, q.close, q.near, frame.inks, q.cut)
    if face is None or not face.whole:
        return None
    corners = _face_corners(face, q)
    if corners is None:
        return None
    sides = np.hypot(*(np.roll(corners, -1, axis=0) - corners).T)
    a, b = (sides[0] + sides[2]) / 2.0, (sides[1] + sides[3]) / 2.0
    short, long_ = min(a, b), max(a, b)
    if short < 2.5 * seed.size or not q.face_aspect[0] <= long_ / short <= q.face_aspect[1]:
        return None
    # to card coordinates: x across, y down, the card's middle at 0, its width 1
    aspect = long_ / short
    if a > b:  # the first side is a long one: start one corner on, so that it is a short one
        corners = np.roll(corners, -1, axis=0)
    square = np.array([(-0.5, -aspect / 2), (0.5, -aspect / 2), (0.5, aspect / 2),
                       (-0.5, aspect / 2)], np.float32)
    to_card = cv2.getPerspectiveTransform(corners, square)
    # the print on the face: away from its shade by half the seed's contrast
    x0, y0 = face.x0, face.y0
    h, w = face.mask.shape
    win = gray[y0:y0 + h, x0:x0 + w]
    # the face's hull: print where the face's outline runs in (an index at the border of a card
    # lying on another, cut off with the border) is the face's too
    hull = np.zeros_like(face.mask)
    cv2.fillConvexPoly(hull, cv2.convexHull(face.outline - np.array([x0, y0], np.int32)), 1)
    inner = cv2.erode(hull, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))).astype(bool)
    if not inner.any():
        return None
    shade = float(np.median(win[inner]))
    patch = gray[seed.y:seed.y + seed.h, seed.x:seed.x + seed.w]
    ink = float(patch.min() if seed.dark else patch.max())
    if abs(ink - shade) < 30:
        return None
    level = (ink + shade) / 2.0
    printed = (inner & ((win < level) if seed.dark else (win > level))).view(np.uint8)
    count, _labels, stats, cents = cv2.connectedComponentsWithStats(printed, connectivity=8)
    if count < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    pts = cv2.perspectiveTransform(
        np.add(cents[1:], (x0, y0)).reshape(-1, 1, 2).astype(np.float32), to_card).reshape(-1, 2)
    corner = (np.abs(pts[:, 0]) > q.corner[0]) & (np.abs(pts[:, 1]) > q.corner[1] * aspect)
    body = ~corner & (areas >= q.least_area)
    if not body.any():
        return None
    # the corner indices, in two opposite corners: a face cut across (by another card, by the
    # edge of the picture) has lost one of them, and can look whole
    printed_corners = {(bool(x > 0), bool(y > 0)) for (x, y), c in zip(pts, corner, strict=True)
                       if c}
    if not ({(True, True), (False, False)} <= printed_corners
            or {(True, False), (False, True)} <= printed_corners):
        return None
    # the pips: the print of the body of the card, all of one size but for specks
    pip_area = float(np.median(areas[body][areas[body] >= 0.5 * areas[body].max()]))
    significant = body & (areas >= q.speck * pip_area)
    pip = significant & (areas >= pip_area / q.area) & (areas <= pip_area * q.area)
    if (significant & ~pip).any():
        return None  # other print on the face: a picture, a pip cut by glare or not made out
    uv = pts[pip].astype(np.float64)
    rects = stats[1:][pip]
    if np.maximum(rects[:, 2], rects[:, 3]).max() > q.most * short:
        return None  # a picture in the middle of the face, not a pip
    size = float(np.median(np.maximum(rects[:, 2], rects[:, 3]))) / short  # in card widths
    rank = layout(uv, size, q.mirror)
    if aspect < q.square:  # nearly square as seen: the card may lie either way
        across = layout(uv[:, ::-1] / aspect, size / aspect, q.mirror)
        if across is not None and across != rank:
            rank = None if rank is not None else across
    if rank is None:
        return None
    # the most central pip first: the card is placed there
    order = np.argsort(np.hypot(uv[:, 0], uv[:, 1]))
    pips = [Glyph(int(x) + x0, int(y) + y0, int(bw), int(bh), float(cx) + x0, float(cy) + y0,
                  seed.dark)
            for (x, y, bw, bh, _area), (cx, cy) in zip(rects[order], cents[1:][pip][order],
                                                       strict=True)]
    long_side = (corners[3] - corners[0] + corners[2] - corners[1]) / 2.0
    down = unit(float(long_side[0]), float(long_side[1]))
    return PipFace(face, rank, pips, down, [float(v) for v in uv[order, 1]])


def layout(uv: npt.NDArray[np.float64], size: float, mirror: float = 0.5) -> str | None:
    """The rank of pips at ``uv`` (card coordinates: the card's width 1, its middle at 0) laid
    out as a standard layout, or None: so many pips in the middle column and in each side
    column, mirrored (within ``mirror`` pip sizes) across the card's long middle line, and
    through its centre but for a 7's odd pip (an ace's one pip in the centre). ``size`` is a
    pip's, in card widths."""
    middle = np.abs(uv[:, 0]) < mirror * size
    side = uv[~middle]
    if (side[:, 0] < 0).sum() != (side[:, 0] > 0).sum():
        return None
    rank = LAYOUTS.get((int(middle.sum()), len(side) // 2))
    if rank is None:
        return None

    def mirrored(points: npt.NDArray[np.float64], flip: tuple[float, float]) -> bool:
        image = points * flip
        dist = np.hypot(image[:, None, 0] - points[None, :, 0],
                        image[:, None, 1] - points[None, :, 1])
        return bool((dist.min(axis=1) <= mirror * size).all())

    if not mirrored(uv, (-1.0, 1.0)):
        return None
    centred = uv
    if rank == "7":  # its odd pip lies off the centre, on the middle column
        odd = int(np.argmax(np.where(middle, np.abs(uv[:, 1]), -1.0)))
        centred = np.delete(uv, odd, axis=0)
    if not mirrored(centred, (-1.0, -1.0)):
        return None
    if rank == "A" and abs(uv[0, 1]) > mirror * size:
        return None
    return rank


def _in_quads(points: npt.NDArray[np.float64], quads: npt.NDArray[np.float64]
              ) -> npt.NDArray[np.bool_]:
    """Whether each point (n x 2) lies in any of the convex quadrilaterals (m x 4 x 2)."""
    edge = np.roll(quads, -1, axis=1) - quads  # m x 4 x 2
    rel = points[:, None, None, :] - quads[None]  # n x m x 4 x 2
    cross = edge[None, :, :, 0] * rel[..., 1] - edge[None, :, :, 1] * rel[..., 0]
    inside = (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)
    return np.asarray(np.any(inside, axis=1), dtype=np.bool_)


def count(c: Corners, found: list[Found], frame: Frame, p: Params, read: ReadFn | None = None,
          upright: UprightFn | None = None) -> list[Found]:
    """Cards read by counting the pips of faces in full view (:func:`pip_face`), traced around
    each likely rank and suit not on a face traced already nor in the quad of a card read
    ``skip_sure``. With ``read`` (the glyph classifier) the pips are read as glyphs of their
    own. The suit is the one most of the pips are read as (as sure as its surest reading, or
    its pips read apart together, ``combine``); a pip read as another suit must be unsure, and
    the pips read so fewer than a quarter of the others. Where the pips so read disagree, with
    ``upright`` they are read again turned as printed (``_pips_upright``), and those readings
    decide, two pips or more. A rank read on the face must not name another rank."""
    q = p.pips
    if not q.count:
        return []
    seeds = [g for g in c.glyphs if g.prob >= q.prob
             and (g.label in SUIT_CLASSES or g.label in RANK_CLASSES)]
    # the cards already read surely from an index need no counting
    sure = [f.quad for f in found if decide.weigh(f).confidence >= q.skip_sure]
    if sure and seeds:
        held = _in_quads(np.array([(g.cx, g.cy) for g in seeds]), np.array(sure))
        seeds = [g for g, h in zip(seeds, held, strict=True) if not h]
    traced: list[Face] = []
    counted: list[PipFace] = []
    for seed in sorted(seeds, key=lambda g: (g.label not in SUIT_CLASSES, -g.prob)):
        if any(f.holds(seed) for f in traced):
            continue
        got = pip_face(seed, frame, p)
        if got is not None:
            traced.append(got.face)
            counted.append(got)
    if not counted:
        return []
    reread = read([pip for cf in counted for pip in cf.pips]) if read is not None else []
    out: list[Found] = []
    at = 0
    for cf in counted:
        mine = reread[at:at + len(cf.pips)]
        at += len(cf.pips)
        label = "6" if cf.rank in "69" else cf.rank
        dark = cf.pips[0].dark
        if any(r.dark == dark and r.prob >= q.veto and r.label != label and cf.face.holds(r)
               for r in c.ranks):
            continue  # a rank read on the face that names another is a doubt
        # the suits read of the pips themselves (not of a small print within a larger blot)
        on_pips = [s for s in c.suits if s.dark == dark and s.prob >= q.prob
                   and any(pip.x <= s.cx < pip.x + pip.w and pip.y <= s.cy < pip.y + pip.h
                           and 0.6 <= s.size / pip.size <= 1.6 for pip in cf.pips)]
        on_pips += [s for s in mine if s.label in SUIT_CLASSES and s.prob >= q.prob]
        suit_label = _pips_agree(on_pips, q)
        if suit_label is None and on_pips and upright is not None and q.upright:
            # the glyph classifier, reading the pips at any angle, named suits that disagree
            on_pips = _pips_upright(cf, upright, q)
            suit_label = _pips_agree(on_pips, q) if len(on_pips) >= 2 else None
        if suit_label is None:
            continue
        against = [s for s in on_pips if s.label != suit_label]
        best = max((s for s in on_pips if s.label == suit_label), key=lambda s: s.prob)
        suit_prob = best.prob
        if q.combine and not against:
            # each pip's surest reading of the suit; pips read apart make it surer together
            per_pip = [max((s.prob for s in on_pips
                            if pip.x <= s.cx < pip.x + pip.w and pip.y <= s.cy < pip.y + pip.h),
                           default=0.0) for pip in cf.pips]
            named_on = [v for v in per_pip if v > 0.0]
            if len(named_on) >= q.combine:
                suit_prob = 1.0 - float(np.prod([1.0 - v for v in named_on]))
        middle = cf.pips[0]
        rank = replace(middle, label=label, prob=q.rank_prob)
        suit = replace(middle, label=best.label, prob=suit_prob)
        evidence = [Evidence(COUNT, q.rank_prob, rank=label),
                    Evidence(COUNT, suit_prob, suit=best.label)]
        if label == "6":
            evidence.append(Evidence(COUNT, q.rank_prob, rank=cf.rank))
        out.append(Found(rank, suit, False, cf.face.quad(middle), COUNT, evidence))
    return out


def _pips_agree(on_pips: list[Glyph], q: Pips) -> str | None:
    """The suit that the readings of a face's pips give: the one most of them are read as, the
    pips read as another fewer than a quarter of those and none of them at ``against`` or
    more; None otherwise."""
    named = Counter(s.label for s in on_pips).most_common()
    if not named:
        return None
    suit_label, agree = named[0]
    against = [s for s in on_pips if s.label != suit_label]
    if 4 * len(against) >= agree or any(s.prob >= q.against for s in against):
        return None
    return suit_label


def _pips_upright(cf: PipFace, upright: UprightFn, q: Pips) -> list[Glyph]:
    """The pips of a counted face read by the upright classifier, each turned as printed: the
    pips of one half of the card upright and those of the other half a half turn (the middle
    ones with the top half), or, as some decks print them, every pip upright; the card's top
    either way. Of these four ways, the one its pips read surest as (the product of each pip's
    likeliest suit) is taken, and the suits so read at ``prob`` or more returned."""
    dx, dy = cf.down
    n = len(cf.pips)
    middle = q.upright_middle
    ways = [
        # the far half turned, the card's top toward -down, then toward +down
        [(dx, dy) if v < middle else (-dx, -dy) for v in cf.along],
        [(-dx, -dy) if v > -middle else (dx, dy) for v in cf.along],
        # every pip printed upright (some decks), the top either way
        [(dx, dy)] * n,
        [(-dx, -dy)] * n,
    ]
    probs = upright(cf.pips * len(ways), [d for way in ways for d in way])
    suit_ids = np.array([UPRIGHT_CLASSES.index(k) for k in "cdhs"])
    best = probs[:, suit_ids].max(axis=1)
    score = np.log(np.maximum(best, 1e-6)).reshape(len(ways), n).sum(axis=1)
    w = int(np.argmax(score))
    chosen = probs[w * n:(w + 1) * n]
    out: list[Glyph] = []
    for pip, pr in zip(cf.pips, chosen, strict=True):
        k = int(np.argmax(pr))
        label = UPRIGHT_CLASSES[k]
        if label in SUIT_CLASSES and pr[k] >= q.prob:
            out.append(replace(pip, label=label, prob=float(pr[k])))
    return out

