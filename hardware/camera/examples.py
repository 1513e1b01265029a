"""Examples cut out of a frame: a glyph's upright window, a corner's thumbnail, and the
examples a labelled picture gives (``stud-kiosk recognize --learn``).

A window is cut turned so that its card's down points down, centred on the glyph's print and
``GLYPH_SPAN`` times its *upright* height across: a glyph's box in the frame grows as its card
turns, its upright height does not, so a card lying askew gives the window it gives lying
straight. A labelled picture names its cards by their quads; each index corner found in one
(``index_of``: a rank near a card's corner, its down along the card's) becomes an example of
that card (``examples_in``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hardware.camera.deck import (
    GLYPH_PX,
    GLYPH_SPAN,
    THUMB_PX,
    THUMB_SPAN,
    Corner,
    Example,
    Glyph,
    check_card,
    new_id,
)

Image = npt.NDArray[Any]


def _upright(image: Image, cx: float, cy: float, down: tuple[float, float], side: float,
             px: int) -> Image:
    """The ``px`` square window of ``image`` centred at (``cx``, ``cy``), ``side`` pixels of the
    frame across, turned so that ``down`` points down."""
    import cv2

    dx, dy = down
    ax, ay = dy, -dx  # the card's right when its down is (dx, dy)
    s = side / px
    # output (col, row) -> frame: centre + (col - px/2) * s * right + (row - px/2) * s * down
    m = np.array([[ax * s, dx * s, cx - (ax + dx) * s * px / 2.0],
                  [ay * s, dy * s, cy - (ay + dy) * s * px / 2.0]], np.float32)
    return cv2.warpAffine(image, m, (px, px), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def glyph_window(image: Image, glyph: Glyph, down: tuple[float, float], dark: bool = True
                 ) -> npt.NDArray[np.uint8]:
    """A glyph's upright colour window of the BGR ``image``, as an example keeps it and a
    reader compares it: centred on the glyph as it stands upright, ``GLYPH_SPAN`` times its
    upright height across (``upright_extent``; a glyph's box in the frame grows as its card
    turns, its upright height does not)."""
    found = upright_extent(image, glyph, down, dark)
    cx, cy, height = found if found is not None else (glyph.cx, glyph.cy, glyph.size)
    return _upright(image, cx, cy, down, GLYPH_SPAN * height, GLYPH_PX).astype(np.uint8)


#: the glyph is looked for in an upright window this many of its box sizes across, as the print
#: of its ink nearest the middle (an Otsu threshold); of at least this share of the window
#: it is looked for in
EXTENT_LOOK = 2.0
EXTENT_AREA = 0.01


def upright_extent(image: Image, glyph: Glyph, down: tuple[float, float], dark: bool = True
                   ) -> tuple[float, float, float] | None:
    """The centre (frame pixels) and upright height of the print at ``glyph``, turned so that
    ``down`` points down: the component of an Otsu threshold nearest the window's middle. None
    where no print stands out."""
    import cv2

    px = GLYPH_PX
    side = EXTENT_LOOK * glyph.size
    win = _upright(image, glyph.cx, glyph.cy, down, side, px)
    grey = cv2.cvtColor(win, cv2.COLOR_BGR2GRAY) if win.ndim == 3 else win
    if not dark:
        grey = 255 - grey
    _t, ink = cv2.threshold(grey.astype(np.uint8), 0, 255,
                            cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    count, _labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    best, best_d = None, 0.0
    for i in range(1, count):
        if stats[i, 4] < EXTENT_AREA * px * px:
            continue
        d = float(np.hypot(cents[i, 0] - px / 2, cents[i, 1] - px / 2))
        if best is None or d < best_d:
            best, best_d = i, d
    if best is None or best_d > px / 4:
        return None
    x, y, w, h = (float(v) for v in stats[best, :4])
    scale = side / px
    # the component's box centre, from window to frame pixels (right and down as in _upright)
    u, v = (x + w / 2 - px / 2) * scale, (y + h / 2 - px / 2) * scale
    dx, dy = down
    height = max(h, w * 0.6) * scale
    if not 0.5 * glyph.size <= height <= 1.5 * glyph.size:
        return None
    return glyph.cx + dy * u + dx * v, glyph.cy - dx * u + dy * v, height


def corner_thumb(image: Image, corner: Corner) -> npt.NDArray[np.uint8]:
    """The corner as the dealer sees it: upright, in colour, ``THUMB_PX`` square."""
    r, s = corner.rank, corner.suit
    cx, cy = (r.cx, r.cy) if s is None else ((r.cx + s.cx) / 2.0, (r.cy + s.cy) / 2.0)
    colour = image if image.ndim == 3 else np.dstack([image] * 3)
    return _upright(colour, cx, cy, corner.down, THUMB_SPAN * r.size, THUMB_PX).astype(np.uint8)


@dataclass(frozen=True, slots=True)
class Labelled:
    """A card whose place in a picture is known (a labels file, as the validation pictures'):
    its card (None face down) and its quad, as ``Corner.quad``."""

    card: str | None
    quad: tuple[tuple[float, float], ...]


#: a corner is a labelled card's index corner when its rank lies within these shares of the
#: card's width and height from one of its corners (a rank is printed nearest the corner, its
#: suit below it), and its down within ``INDEX_TURN`` degrees of the card's (the top corners) or
#: the card's turned half round (the bottom ones)
INDEX_REACH = (0.3, 0.18)
INDEX_TURN = 45.0


@dataclass(frozen=True, slots=True)
class Place:
    """Where a corner lies on a labelled card: the card, which of its corners (0 top left, 1 top
    right, 2 bottom right, 3 bottom left, as printed), the card's down there (a unit vector in
    the frame) and how well the corner's down agrees with it (the cosine)."""

    card: Labelled
    corner: int
    down: tuple[float, float]
    along: float


def index_of(corner: Corner, cards: list[Labelled]) -> Place | None:
    """Where on the face-up card of ``cards`` (listed bottom card first) ``corner`` is that
    card's index: the top card where its rank lies, when the rank lies in one of that card's
    corners and the corner's down is the card's there. None for anything else (a pip paired
    with a glyph, a corner read off a covered part)."""
    import cv2

    point = np.array([[corner.center]], np.float32)
    owner = None
    for card in cards:
        if cv2.pointPolygonTest(np.array(card.quad, np.float32), corner.center, False) >= 0:
            owner = card
    if owner is None or owner.card is None:
        return None
    quad = np.array(owner.quad, np.float32)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    u, v = cv2.perspectiveTransform(point, cv2.getPerspectiveTransform(quad, unit))[0, 0]
    if min(u, 1.0 - u) > INDEX_REACH[0] or min(v, 1.0 - v) > INDEX_REACH[1]:
        return None
    down = (quad[3] + quad[2] - quad[0] - quad[1]) / 2.0
    down /= max(float(np.hypot(*down)), 1e-6)
    if v > 0.5:
        down = -down
    along = float(down[0] * corner.down[0] + down[1] * corner.down[1])
    if along < np.cos(np.radians(INDEX_TURN)):
        return None
    which = (0 if u < 0.5 else 1) if v < 0.5 else (2 if u >= 0.5 else 3)
    return Place(owner, which, (float(down[0]), float(down[1])), along)


def examples_in(image: Image, corners: list[Corner], cards: list[Labelled], source: str,
                suits: Sequence[Glyph] = ()) -> list[Example]:
    """The examples that the labelled ``cards`` give: for each corner of a face-up card where
    one of ``corners`` is its index (``index_of``), the one whose down agrees best with the
    card's, its glyphs cut upright as the card lies. A corner with no suit glyph beside its rank
    takes the nearest of ``suits`` (suit-like glyphs of the picture) that lies in a corner of
    the same card (a deck printing its suit away from its rank)."""
    best: dict[tuple[int, int], tuple[float, Corner, Place]] = {}
    for corner in corners:
        place = index_of(corner, cards)
        if place is None:
            continue
        key = (id(place.card), place.corner)
        if key not in best or best[key][0] < place.along:
            best[key] = (place.along, corner, place)
    out = []
    for _along, corner, place in best.values():
        assert place.card.card is not None
        suit = corner.suit if corner.suit is not None \
            else _suit_apart(corner, place, cards, suits)
        upright = Corner(corner.rank, suit, place.down, corner.dark, corner.quad)
        out.append(example_at(image, upright, place.card.card, source))
    return out


def _suit_apart(corner: Corner, place: Place, cards: list[Labelled], suits: Sequence[Glyph]
                ) -> Glyph | None:
    """The suit glyph of a corner whose card prints it away from the rank: the nearest of
    ``suits`` of a fitting size lying in a corner of the same card (within ``SUIT_REACH`` of
    its width and height from it), on the card's top."""
    r = corner.rank
    near = []
    for s in suits:
        d = math.hypot(s.cx - r.cx, s.cy - r.cy)
        if not 0.5 <= s.size / r.size <= 1.8 or d < r.size:
            continue
        uv = _on_card(s, place.card, cards)
        if uv is not None and min(uv[0], 1 - uv[0]) <= SUIT_REACH \
                and min(uv[1], 1 - uv[1]) <= SUIT_REACH:
            near.append((d, s))
    return min(near, key=lambda n: n[0])[1] if near else None


#: how far from a card's corner a suit printed away from its rank is looked for
SUIT_REACH = 0.3


def _on_card(g: Glyph, card: Labelled, cards: list[Labelled]) -> tuple[float, float] | None:
    """Where ``g`` lies on ``card`` (0..1 across and down it, as printed), when ``card`` is the
    top card there."""
    import cv2

    owner = None
    for c in cards:
        if cv2.pointPolygonTest(np.array(c.quad, np.float32), (g.cx, g.cy), False) >= 0:
            owner = c
    if owner is not card:
        return None
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(np.array(card.quad, np.float32), unit)
    u, v = cv2.perspectiveTransform(np.array([[[g.cx, g.cy]]], np.float32), m)[0, 0]
    return float(u), float(v)


def example_at(image: Image, corner: Corner, card: str, source: str) -> Example:
    """The example of ``card`` that ``corner`` of the BGR ``image`` gives."""
    check_card(card)
    if image.ndim == 2:
        image = np.dstack([image] * 3)
    r, s = corner.rank, corner.suit
    suit_at = None
    if s is not None:
        dx, dy = corner.down
        ox, oy = s.cx - r.cx, s.cy - r.cy
        suit_at = ((ox * dy - oy * dx) / r.size, (ox * dx + oy * dy) / r.size, s.size / r.size)
    return Example(new_id(), card, glyph_window(image, r, corner.down, corner.dark),
                   None if s is None else glyph_window(image, s, corner.down, corner.dark),
                   corner_thumb(image, corner), corner.dark, source, suit_at=suit_at)


def suit_from_layout(corner: Corner, layout: tuple[float, float, float]) -> Glyph:
    """Where a corner's suit glyph lies by its deck's ``layout`` (``Deck.layout``)."""
    right, down, size = layout
    r = corner.rank
    dx, dy = corner.down
    return Glyph(r.cx + (right * dy + down * dx) * r.size,
                 r.cy + (-right * dx + down * dy) * r.size, size * r.size)
