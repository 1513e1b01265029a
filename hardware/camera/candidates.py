"""Glyph candidates (stage 1, find): the connected components of a frame that have the size and
fill of an index character, in both polarities (dark print on a light face, light print on a
dark face), and the finer looks that cut out what the coarse threshold joined or lost."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera.params import DEFAULT, Candidates
from hardware.camera.types import Glyph, Image, boxes

_DEFAULT = DEFAULT.candidates


def _components(binary: Image, dark: bool, p: Candidates) -> list[Glyph]:
    """The connected components of a binary picture that have the size and fill of a glyph."""
    try:
        # 16-bit labels take a quarter less time; a picture of more components needs 32 bits
        _count, _labels, stats, cents = cv2.connectedComponentsWithStats(
            binary, connectivity=8, ltype=cv2.CV_16U)
    except cv2.error:
        _count, _labels, stats, cents = cv2.connectedComponentsWithStats(
            binary, connectivity=8, ltype=cv2.CV_32S)
    return glyphs_of(stats[1:], cents[1:], dark, p)


def glyphs_of(stats: Image, cents: Image, dark: bool, p: Candidates) -> list[Glyph]:
    """Of connected components (their rows of ``connectedComponentsWithStats``' stats and
    centroids), those that have the size and fill of a glyph, in their order."""
    x, y, w, h, area = (stats[:, i] for i in range(5))
    side, fill = np.maximum(w, h), area / (w * h)
    keep = np.flatnonzero((side >= p.min_glyph) & (side <= p.max_glyph) & (area >= 10)
                          & (np.minimum(w, h) >= 2) & (fill <= 0.92) & (fill >= 0.12))
    return [Glyph(int(x[i]), int(y[i]), int(w[i]), int(h[i]), float(cents[i][0]),
                  float(cents[i][1]), dark) for i in keep]


def candidate_glyphs(gray: Image, p: Candidates = _DEFAULT) -> list[Glyph]:
    """Connected components of index-character size, in both polarities; light ones also from
    a stricter threshold (``strict_light_c``), where the first finds none."""
    # an adaptive threshold (mean of 31 x 31, 12 below it), its two polarities each other's
    # complement; computed from the mean as cv2.adaptiveThreshold does, the mean kept for the
    # stricter threshold: src - mean > -12, that is src >= mean - 11 (saturated at 0)
    mean = cv2.boxFilter(gray, -1, (31, 31), borderType=cv2.BORDER_REPLICATE)
    light = cv2.compare(gray, cv2.subtract(mean, np.full_like(mean, 11)), cv2.CMP_GE)
    found = _components(cv2.bitwise_not(light), True, p) + _components(light, False, p)
    if p.strict_light_c is not None:
        strict = cv2.compare(gray, cv2.add(mean, np.full_like(mean, -p.strict_light_c)),
                             cv2.CMP_GT)
        # not yet read, any candidate much larger than a glyph inside it may be print joined
        found += _standing_out(gray, mean, unheld(_components(strict, False, p), found, p,
                                                  np.ones(len(found), bool)), p)
    return found


def _standing_out(gray: Image, mean: Image, glyphs: list[Glyph], p: Candidates) -> list[Glyph]:
    """The light glyphs that stand out from a darker face: the neighbourhood's mean at the
    glyph lies at least ``strict_stands_out`` of the glyph's brightest pixel below it (a light
    glyph on a dark face, not a piece of light face between dark print)."""
    if not glyphs:
        return []
    top = np.array([int(gray[g.y:g.y + g.h, g.x:g.x + g.w].max()) for g in glyphs], np.float64)
    face = mean[np.array([int(g.cy) for g in glyphs]), np.array([int(g.cx) for g in glyphs])]
    keep = top - face >= p.strict_stands_out * top
    return [g for g, k in zip(glyphs, keep, strict=True) if k]


def _touching(rects: list[tuple[int, int, int, int]]) -> list[list[tuple[int, int, int, int]]]:
    """Boxes (x0, y0, x1, y1) in groups, each box overlapping or touching another of its group
    (so that no glyph crosses from one group into another)."""
    group = list(range(len(rects)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i, a in enumerate(rects):
        for j in range(i):
            b = rects[j]
            if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                group[root(i)] = root(j)
    out: dict[int, list[tuple[int, int, int, int]]] = {}
    for i, box in enumerate(rects):
        out.setdefault(root(i), []).append(box)
    return list(out.values())


def unheld(found: list[Glyph], have: list[Glyph], p: Candidates,
           loose: Sequence[bool] | npt.NDArray[np.bool_] = ()) -> list[Glyph]:
    """The glyphs of ``found`` that ``have`` does not already hold: a box sharing more than 30 %
    of the smaller one with a box of the same polarity is already held, but by a glyph of
    ``have`` marked in ``loose`` only when that glyph is no more than ``held_area`` times its
    area."""
    out: list[Glyph] = []
    marked = np.zeros(len(have), bool)
    if p.held_area is not None and len(loose):
        marked[:] = loose
    for dark in (True, False):
        mine = [g for g in found if g.dark == dark]
        polarity = np.array([g.dark == dark for g in have], bool)
        held = boxes([g for g in have if g.dark == dark])
        if not mine or not len(held):
            out.extend(mine)
            continue
        new = boxes(mine)
        iw = np.minimum(new[:, None, 2], held[None, :, 2]) - np.maximum(new[:, None, 0],
                                                                         held[None, :, 0])
        ih = np.minimum(new[:, None, 3], held[None, :, 3]) - np.maximum(new[:, None, 1],
                                                                         held[None, :, 1])
        area_new = (new[:, 2] - new[:, 0]) * (new[:, 3] - new[:, 1])
        area_held = (held[:, 2] - held[:, 0]) * (held[:, 3] - held[:, 1])
        shared = np.where((iw > 0) & (ih > 0), iw * ih, 0)
        taken = np.asarray(shared > 0.3 * np.minimum(area_new[:, None], area_held[None, :]))
        if marked.any():
            taken &= ~marked[polarity][None, :] \
                | (area_held[None, :] <= (p.held_area or 0.0) * area_new[:, None])
        out.extend(mine[i] for i in np.flatnonzero(~taken.any(axis=1)))
    return out


def _lonely_zones(gray: Image, lonely: list[Glyph], p: Candidates
                  ) -> Iterator[tuple[bool, int, int, Image, float]]:
    """The parts of the frame around ``lonely`` glyphs (``fine_reach`` of their sizes each
    way), by polarity: windows that overlap or touch in groups, each group within the box that
    holds it (not all in one box: a frame's lonely glyphs lie far apart). Each as its
    polarity, its box's corner, the mask of its windows in that box and the size of the
    smallest lonely glyph of its polarity."""
    for dark in (True, False):
        seeds = [g for g in lonely if g.dark == dark]
        if not seeds:
            continue
        windows = []
        for g in seeds:
            r = int(p.fine_reach * g.size)
            cx, cy = int(g.x + g.w / 2), int(g.y + g.h / 2)
            windows.append((max(cx - r, 0), max(cy - r, 0), min(cx + r, gray.shape[1]),
                            min(cy + r, gray.shape[0])))
        size = min(g.size for g in seeds)
        for group in _touching(windows):
            x0, y0 = min(w[0] for w in group), min(w[1] for w in group)
            x1, y1 = max(w[2] for w in group), max(w[3] for w in group)
            zone = np.zeros((y1 - y0, x1 - x0), np.uint8)
            for wx0, wy0, wx1, wy1 in group:
                zone[wy0 - y0:wy1 - y0, wx0 - x0:wx1 - x0] = 255
            yield dark, x0, y0, zone, size


def fine_candidates(gray: Image, lonely: list[Glyph], have: list[Glyph],
                    loose: Sequence[bool] | npt.NDArray[np.bool_] = (),
                    p: Candidates = _DEFAULT) -> list[Glyph]:
    """Candidates from a finer binarisation around ``lonely`` glyphs (a rank with no suit in
    reach, or a suit with no rank), other than those ``have`` already holds (``unheld``; those
    of ``have`` marked in ``loose`` hold only glyphs of at least 1/``held_area`` their area)."""
    out: list[Glyph] = []
    for dark, x0, y0, zone, _size in _lonely_zones(gray, lonely, p):
        h, w = zone.shape
        mode = cv2.THRESH_BINARY_INV if dark else cv2.THRESH_BINARY
        binary = cv2.bitwise_and(zone, cv2.adaptiveThreshold(
            gray[y0:y0 + h, x0:x0 + w], 255, cv2.ADAPTIVE_THRESH_MEAN_C, mode, p.fine_block,
            p.fine_c))
        out.extend(Glyph(g.x + x0, g.y + y0, g.w, g.h, g.cx + x0, g.cy + y0, dark)
                   for g in _components(binary, dark, p))
    return unheld(out, have, p, loose)


def line_candidates(gray: Image, lonely: list[Glyph], have: list[Glyph],
                    loose: Sequence[bool] | npt.NDArray[np.bool_] = (),
                    p: Candidates = _DEFAULT) -> list[Glyph]:
    """Candidates around ``lonely`` glyphs cut from the coarse thresholds' print once the long
    straight lines in it are taken out (``line_cut``), other than those ``have`` holds."""
    out: list[Glyph] = []
    for dark, x0, y0, zone, size in _lonely_zones(gray, lonely, p):
        h, w = zone.shape
        out.extend(Glyph(g.x + x0, g.y + y0, g.w, g.h, g.cx + x0, g.cy + y0, dark)
                   for g in line_cut(gray[y0:y0 + h, x0:x0 + w], zone, dark, size, p))
    return unheld(out, have, p, loose)


def line_cut(win: Image, zone: Image, dark: bool, size: float, p: Candidates = _DEFAULT
             ) -> list[Glyph]:
    """The glyphs of ``win`` (within ``zone``) in one polarity that the coarse thresholds join
    to a straight line of ``line_long`` times ``size`` or longer: the pieces touching the
    lines once those are taken out, but those that are a part of a border themselves."""
    mean = cv2.boxFilter(win, -1, (31, 31), borderType=cv2.BORDER_REPLICATE)
    light = cv2.compare(win, cv2.subtract(mean, np.full_like(mean, 11)), cv2.CMP_GE)
    pictures = [cv2.bitwise_not(light)] if dark else [light]
    if not dark and p.strict_light_c is not None:
        pictures.append(cv2.compare(win, cv2.add(mean, np.full_like(mean, -p.strict_light_c)),
                                    cv2.CMP_GT))
    thick = p.line_cut or 1
    long_ = max(int(p.line_long * size), 10)
    out: list[Glyph] = []
    for binary in pictures:
        binary = cv2.bitwise_and(binary, zone)
        thin = cv2.bitwise_and(binary, cv2.bitwise_not(cv2.morphologyEx(
            binary, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT,
                                                              (p.line_thin, p.line_thin)))))
        lines = cv2.HoughLinesP(thin, 1, np.pi / p.line_steps, threshold=long_,
                                minLineLength=long_, maxLineGap=2)
        if lines is None:
            continue
        ends = lines.reshape(-1, 4)
        cut = np.zeros_like(binary)
        which = np.zeros(binary.shape, np.int32)  # each line's number, a little wider
        for k, (x1, y1, x2, y2) in enumerate(ends):
            cv2.line(cut, (int(x1), int(y1)), (int(x2), int(y2)), 255, thick)
            cv2.line(which, (int(x1), int(y1)), (int(x2), int(y2)), k + 1, thick + 2)
        angle = np.degrees(np.arctan2(ends[:, 3] - ends[:, 1], ends[:, 2] - ends[:, 0])) % 180.0
        binary = cv2.bitwise_and(binary, cv2.bitwise_not(cut))
        # where each piece touches the lines: a glyph joined to a border touches it in one place
        # (or on both sides of a line through it), a rounded corner of the border at both ends
        near = cv2.bitwise_and(binary, cv2.dilate(cut, np.ones((3, 3), np.uint8)))
        _n, labels, stats, cents = cv2.connectedComponentsWithStats(binary, connectivity=8,
                                                                    ltype=cv2.CV_32S)
        _m, contacts, _s, spots = cv2.connectedComponentsWithStats(near, connectivity=8,
                                                                   ltype=cv2.CV_32S)
        touching = near > 0
        piece_at, contact_at, line_at = labels[touching], contacts[touching], which[touching]
        kept = np.zeros(len(stats), bool)
        side = stats[:, 2:4].max(axis=1)
        for piece in np.unique(piece_at[(side[piece_at] >= p.min_glyph)
                                        & (side[piece_at] <= p.max_glyph)]):
            mine = piece_at == piece
            at = spots[np.unique(contact_at[mine])]
            if float(np.ptp(at, axis=0).max()) > p.line_spread * float(stats[piece, 2:4].max()):
                continue
            seen = angle[np.unique(line_at[mine & (line_at > 0)]) - 1]
            turn = np.abs(seen[:, None] - seen[None, :])
            if len(seen) > 1 and float(np.minimum(turn, 180.0 - turn).max()) >= p.line_corner:
                continue
            kept[piece] = True
        # only these pieces (whole components of the picture cut): the rest is as the coarse
        # threshold found it
        pieces = np.flatnonzero(kept)
        out.extend(glyphs_of(stats[pieces], cents[pieces], dark, p))
    return out


def waist_halves(gray: Image, g: Glyph, p: Candidates = _DEFAULT) -> list[Glyph]:
    """The two halves of a candidate's print cut across its long axis where it is narrowest
    (within its middle two fifths), or none when it is no such elongated glyph. The print is
    its largest piece in the candidate's box; when that is not elongated, its pieces of
    ``split_part`` of that one's area or more, together (a rank and its suit joined only at the
    candidate's threshold fall apart at the box's own)."""
    if math.hypot(g.w, g.h) < p.split_long[0]:
        return []  # no print in the box is as long as its diagonal
    patch = gray[g.y:g.y + g.h, g.x:g.x + g.w]
    mode = cv2.THRESH_BINARY_INV if g.dark else cv2.THRESH_BINARY
    _, mask = cv2.threshold(patch, 0, 255, mode | cv2.THRESH_OTSU)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return []
    areas = stats[1:, cv2.CC_STAT_AREA]
    largest = 1 + int(np.argmax(areas))
    pieces = 1 + np.flatnonzero(areas >= p.split_part * areas.max())
    for keep in ([largest], pieces) if len(pieces) > 1 else ([largest],):
        halves = _cut_at_waist(labels, keep, g, p)
        if halves:
            return halves
    return []


def _cut_at_waist(labels: Image, keep: Sequence[int] | npt.NDArray[np.intp], g: Glyph,
                  p: Candidates) -> list[Glyph]:
    """The two halves of the pieces ``keep`` of a candidate's print (``labels``, its box's
    connected pieces) cut where they are narrowest, or none (``waist_halves``)."""
    ys, xs = np.nonzero(labels == keep[0] if len(keep) == 1 else np.isin(labels, keep))
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    (cx, cy), (w, h), angle = cv2.minAreaRect(pts)
    long, short = max(w, h), max(min(w, h), 1.0)
    if not (p.split_aspect[0] <= long / short <= p.split_aspect[1]
            and p.split_long[0] <= long <= p.split_long[1]):
        return []
    a = math.radians(angle)
    axis = np.array([math.cos(a), math.sin(a)] if w >= h else [-math.sin(a), math.cos(a)],
                    np.float32)
    t = (pts - np.array([cx, cy], np.float32)) @ axis
    # the print's width along the axis, pixel by pixel (bins of 1 from the floor of its start)
    start = math.floor(float(t.min()))
    bins = math.ceil(float(t.max())) - start  # the last bin holds its upper edge too
    if bins < 1:
        return []
    counts = np.bincount(np.minimum((t - start).astype(np.intp), bins - 1), minlength=bins)
    k0, k1 = int(len(counts) * 0.3), int(len(counts) * 0.7)
    if k1 <= k0:
        return []
    cut = float(start + k0 + int(np.argmin(counts[k0:k1]))) + 0.5
    out = []
    for part in (pts[t < cut], pts[t >= cut]):
        if len(part) < 5:
            return []
        lo, hi, mid = part.min(axis=0), part.max(axis=0), part.mean(axis=0)
        out.append(Glyph(g.x + int(lo[0]), g.y + int(lo[1]), int(hi[0] - lo[0]) + 1,
                         int(hi[1] - lo[1]) + 1, g.x + float(mid[0]), g.y + float(mid[1]),
                         g.dark, half=True))
    return out


def _holes(binary_patch: Image) -> tuple[float, float] | None:
    contours, hierarchy = cv2.findContours(binary_patch, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return None
    best: tuple[float, float, float] | None = None
    for i, h in enumerate(hierarchy[0]):
        if h[3] < 0:
            continue
        mom = cv2.moments(contours[i])
        if mom["m00"] <= 0.5:
            continue
        area = mom["m00"]
        if best is None or area > best[2]:
            best = (mom["m10"] / area, mom["m01"] / area, area)
    return None if best is None else (best[0], best[1])


def glyph_hole(gray: Image, g: Glyph) -> tuple[float, float] | None:
    """Centroid (image coordinates) of the largest hole inside a glyph, e.g. the loop of a 6."""
    pad = 2
    x0, y0 = max(g.x - pad, 0), max(g.y - pad, 0)
    x1, y1 = min(g.x + g.w + pad, gray.shape[1]), min(g.y + g.h + pad, gray.shape[0])
    crop = gray[y0:y1, x0:x1]
    if crop.size == 0:
        return None
    scale = 4
    big = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    if not g.dark:
        big = 255 - big
    otsu, binary = cv2.threshold(big, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    hole = _holes(binary)
    if hole is None:
        # a loop blurred nearly shut still shows at a stricter threshold (less counts as print)
        strict = otsu - 0.2 * (otsu - float(big.min()))
        _, binary = cv2.threshold(big, strict, 255, cv2.THRESH_BINARY_INV)
        hole = _holes(binary)
    if hole is None:
        return None
    return (x0 + hole[0] / scale, y0 + hole[1] / scale)
