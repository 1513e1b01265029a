"""Stage 2, read: second looks, the corners the first pairing missed, read by the upright
classifier.

Each looks again where a rank or suit was read with no card read surely at it, pairs it with
glyphs the first pairing passed over, and keeps a pairing only where the upright classifier,
reading both turned as the card lies, names the card surely:

* ``cut_halves``: a candidate cut at its waist into a rank half and a suit half;
* ``half``: a rank (or suit) with no partner, with each unnamed glyph beside it;
* ``axis``: a likely rank with each glyph where a suit of its card lies, along its card's edges;
* ``window``: a sure rank with windows below it where its index prints the suit (a suit run into
  the card's border is cut out as no glyph);
* ``face``: a sure rank with the pips of its own face, of its card's colour.

Each look is switched by ``Looks``; each takes the corners found so far and returns its own.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from hardware.camera import decide
from hardware.camera.faces import card_axis, face_of
from hardware.camera.find import RANK, SUIT, Corners
from hardware.camera.nets import RANK_CLASSES, SUIT_CLASSES, UPRIGHT_CLASSES
from hardware.camera.params import Params
from hardware.camera.types import Evidence, Found, Frame, Glyph, Source, card_quad, unit
from hardware.camera.upright import AGREES, UprightFn, rank_down, read_corners, upright_card

CUT = Source("read", "upright", "cut halves")
HALF = Source("read", "upright", "half")
AXIS = Source("read", "upright", "axis")
WINDOW = Source("read", "upright", "window")
FACE = Source("read", "upright", "face pips")
_SUIT_IDS = [UPRIGHT_CLASSES.index(k) for k in "cdhs"]


def cut_halves(c: Corners, upright: UprightFn, frame: Frame, p: Params) -> list[Found]:
    """The indices cut apart at their waist whose rank half and suit half, read again upright
    along the line from one to the other, both agree at ``Upright.agree`` or more: each such
    card, with that agreement weighed in. A 6 or 9 is left out (measured with them: no more
    cards)."""
    if not p.looks.cut_halves:
        return []
    pairs: list[Found] = []
    by_cut: dict[int, list[Glyph]] = {}
    for g in c.cut:
        by_cut.setdefault(g.cut, []).append(g)
    for two in by_cut.values():
        ranks = [g for g in two if g.label in RANK_CLASSES]
        suits = [g if g.label in SUIT_CLASSES else replace(g, label=g.suit, prob=g.suit_prob)
                 for g in two if g.label in SUIT_CLASSES
                 or (g.label not in RANK_CLASSES and g.suit_prob >= p.looks.cut_looks)]
        if len(ranks) != 1 or len(suits) != 1 or ranks[0].label == "6":
            continue
        r, s = ranks[0], suits[0]
        if p.pairing.ink_check and frame.inks is not None and not frame.inks.same(r, s):
            continue
        pairs.append(Found(r, s, True, card_quad(r, s), CUT,
                           [Evidence(RANK, r.prob, rank=r.label),
                            Evidence(SUIT, s.prob, suit=s.label)]))
    if not pairs:
        return []
    read_corners(pairs, upright, p)
    return [f for f in pairs if any(e.source == AGREES for e in f.evidence)]


def _fitting(ranks: list[Glyph], suits: list[Glyph]) -> npt.NDArray[np.bool_]:
    """Which suit lies where the suit of which rank's index can (the size and distance rule of
    ``find.nearest_suit``), as a ranks x suits table."""
    r = np.array([(g.cx, g.cy, g.size, g.dark) for g in ranks], np.float64).reshape(-1, 4)
    s = np.array([(g.cx, g.cy, g.size, g.dark) for g in suits], np.float64).reshape(-1, 4)
    ratio = s[None, :, 2] / r[:, None, 2]
    d = np.hypot(r[:, None, 0] - s[None, :, 0], r[:, None, 1] - s[None, :, 1])
    fits: npt.NDArray[np.bool_] = ((r[:, None, 3] == s[None, :, 3]) & (ratio >= 0.35)
                                   & (ratio <= 1.6) & (d >= 0.3 * r[:, None, 2])
                                   & (d <= 2.2 * r[:, None, 2]))
    return fits


def half(c: Corners, found: list[Found], upright: UprightFn, frame: Frame, p: Params
         ) -> list[Found]:
    """Indices of which the first reading named one half only: a rank (or suit) with no partner,
    paired with a glyph beside it that it named neither rank nor suit (a rank whose strokes run
    into the card's edge, a suit a few pixels wide), when the upright classifier, reading both
    turned so that the rank lies above the suit, names the half read as it was read and the
    other at ``half_agree`` or more. A glyph cut by the edge of the frame is no half of an index
    here.

    A suit with no rank may also have a likely rank beside it that was paired with another suit
    (nearer to it, or the pip of its face): that rank is read with it upright too, and the
    upright reading chooses. A 6 or 9 is left out of this: read toward another suit than its
    own it reads turned, a 9 as a 6."""
    q = p.looks
    if not q.half:
        return []
    used = {id(f.rank) for f in found} | {id(f.suit) for f in found}
    height, width = frame.shape[0], frame.shape[1]

    def whole(g: Glyph) -> bool:
        return g.x > 0 and g.y > 0 and g.x + g.w < width and g.y + g.h < height

    lonely = p.candidates.lonely_prob
    plain = [g for g in c.glyphs if (g.prob < p.classify.recheck_prob
             or (g.label not in RANK_CLASSES and g.label not in SUIT_CLASSES))
             and not (g.label == "other" and g.prob >= q.half_other) and whole(g)]
    lonely_ranks = [r for r in c.ranks if r.prob >= lonely and id(r) not in used]
    lonely_suits = [s for s in c.suits if s.prob >= lonely and id(s) not in used]
    # a rank whose card is read surely already keeps its suit
    settled = {id(f.rank) for f in found if decide.weigh(f).confidence >= p.upright.below}
    above = plain + [r for r in c.ranks if r.label != "6" and id(r) not in settled and whole(r)]
    pairs: list[tuple[Glyph, Glyph, bool]] = []
    if lonely_ranks and plain:
        for r, row in zip(lonely_ranks, _fitting(lonely_ranks, plain), strict=True):
            pairs.extend((r, plain[i], True) for i in np.flatnonzero(row))
    if lonely_suits and above:
        for s, column in zip(lonely_suits, _fitting(above, lonely_suits).T, strict=True):
            pairs.extend((above[i], s, False) for i in np.flatnonzero(column))
    if not pairs:
        return []
    downs = [unit(s.cx - r.cx, s.cy - r.cy) for r, s, _known in pairs]
    probs = upright([g for r, s, _known in pairs for g in (r, s)],
                    [d for d in downs for _ in range(2)])
    best: dict[int, tuple[Found, float]] = {}
    inks = frame.inks if p.pairing.ink_check else None
    for k, (r, s, rank_known) in enumerate(pairs):
        card = upright_card(r, s, probs[2 * k], probs[2 * k + 1], q.half_agree, HALF)
        if card is None or (rank_known and card.rank.label != r.label) \
                or (not rank_known and card.suit.label != s.label) \
                or (inks is not None and not inks.same(r, s)):
            continue
        key = id(r) if rank_known else id(s)
        sure = card.rank.prob * card.suit.prob
        if key not in best or best[key][1] < sure:
            best[key] = (card, sure)
    return [f for f, _sure in best.values()]


def axis(c: Corners, found: list[Found], upright: UprightFn, frame: Frame, p: Params
         ) -> list[Found]:
    """Cards read upright along their own edges: each likely rank whose card is not read surely
    yet, with each glyph lying where the permitted decks print a suit of the card
    (``axis_zones``), for each of the four ways the card may lie (its edges' angle and the three
    quarter turns from it). The first reading pairs a rank with a suit and turns the two upright
    along the line between them; a suit printed beside the index (a large pip next to it) puts
    that line askew and the upright reading then sees neither. A card paired by its face whose
    rank is read at ``axis_face_rank`` or more is read so with the pip it took too, wherever
    that lies (a design whose index has no suit beside the rank).

    The upright reading must name the rank as first read (a 6 and a 9 apart) and a suit, each at
    ``axis_agree`` or more; a glyph first read as a suit must be named that suit, and it must be
    printed in the rank's ink. A glyph lying nearer to another likely rank is that rank's. Of
    several, the surest; its confidence is the upright reading's."""
    q = p.looks
    if not q.axis:
        return []
    glyphs, ranks, gray = c.glyphs, c.ranks, frame.gray
    sure: dict[int, float] = {}
    for f in found:
        sure[id(f.rank)] = max(sure.get(id(f.rank), 0.0), decide.weigh(f).confidence)
    todo = [r for r in ranks if r.prob >= q.axis_rank and sure.get(id(r), 0.0) < p.upright.below]
    if not todo:
        return []
    pos = np.array([(g.cx, g.cy, g.size) for g in glyphs], np.float64)
    # a suit of the card: in the rank's polarity, not itself a likely rank
    fit = np.array([not (g.label in RANK_CLASSES and g.prob >= q.axis_rank) for g in glyphs])
    dark = np.array([g.dark for g in glyphs])
    reach = max(math.hypot(z[1], max(abs(z[2]), abs(z[3]))) for z in q.axis_zones)
    pairs: list[tuple[Glyph, Glyph, tuple[float, float]]] = []
    axes: dict[int, npt.NDArray[np.float64]] = {}

    def ways(r: Glyph) -> npt.NDArray[np.float64]:
        """The four ways the rank's card may lie: unit vectors down the card, 4 x 2."""
        if id(r) not in axes:
            angle = card_axis(gray, r, q.axis_reach) + np.arange(4) * (math.pi / 2.0)
            axes[id(r)] = np.stack([np.cos(angle), np.sin(angle)], axis=1)
        return axes[id(r)]

    for r in todo:
        v = pos[:, :2] - (r.cx, r.cy)
        near = np.flatnonzero(fit & (dark == r.dark)
                              & (np.hypot(v[:, 0], v[:, 1]) <= reach * r.size))
        near = near[[glyphs[i] is not r for i in near]]
        if not len(near):
            continue
        blockers = [o for o in ranks if o is not r and o.dark == r.dark
                    and o.prob >= q.axis_block * r.prob]
        downs = ways(r)
        along = downs @ v[near].T / r.size
        inward = (downs[:, ::-1] * (1.0, -1.0)) @ v[near].T / r.size
        ratio = pos[near, 2] / r.size
        zone = np.zeros(along.shape, bool)
        for a0, a1, i0, i1, s0, s1, least in q.axis_zones:
            if r.prob < least:
                continue
            zone |= ((along >= a0) & (along <= a1) & (inward >= i0) & (inward <= i1)
                     & (ratio >= s0) & (ratio <= s1))
        for turn, k in zip(*np.nonzero(zone), strict=True):
            s = glyphs[near[k]]
            d = math.hypot(s.cx - r.cx, s.cy - r.cy)
            if not any(math.hypot(s.cx - o.cx, s.cy - o.cy) < d for o in blockers):
                pairs.append((r, s, (float(downs[turn, 0]), float(downs[turn, 1]))))
    # a card paired by its face: the pip it took, wherever it lies on the face
    todo_ids = {id(r) for r in todo}
    for f in found:
        if f.beside or id(f.rank) not in todo_ids or f.rank.prob < q.axis_face_rank \
                or any(pair[0] is f.rank and pair[1] is f.suit for pair in pairs):
            continue
        pairs.extend((f.rank, f.suit, (float(dx), float(dy))) for dx, dy in ways(f.rank))
    if not pairs:
        return []
    probs = upright([g for r, s, _down in pairs for g in (r, s)],
                    [down for _r, _s, down in pairs for _ in range(2)])
    best: dict[int, tuple[Found, float]] = {}
    inks = frame.inks if p.pairing.ink_check else None
    for k, (r, s, down) in enumerate(pairs):
        card = upright_card(r, s, probs[2 * k], probs[2 * k + 1], q.axis_agree, AXIS, down)
        if card is None or card.rank.label != r.label \
                or (s.label in SUIT_CLASSES and s.prob >= p.classify.recheck_prob
                    and card.suit.label != s.label) \
                or (inks is not None and not inks.same(r, s)):
            continue
        sure_k = card.rank.prob * card.suit.prob
        if id(r) not in best or best[id(r)][1] < sure_k:
            best[id(r)] = (card, sure_k)
    return [f for f, _sure in best.values()]


def unread_ranks(ranks: list[Glyph], found: list[Found], least: float) -> list[Glyph]:
    """The ranks read at ``least`` or more (a 6 or 9 left out) whose card is not read at 0.9 or
    more."""
    sure = [f for f in found if decide.weigh(f).confidence >= 0.9]
    return [r for r in ranks if r.prob >= least and r.label != "6"
            and not any(abs(f.rank.cx - r.cx) < r.size and abs(f.rank.cy - r.cy) < r.size
                        for f in sure)]


def window(c: Corners, found: list[Found], upright: UprightFn, frame: Frame, p: Params
           ) -> list[Found]:
    """Cards whose suit was not cut out as a glyph (run into the card's border or the pip
    beside it): for each rank (or rank half of a cut) read at ``window_rank`` or more whose card
    is not read at 0.9 or more, the card's down is told by its edges and by the rank, which
    must read as itself upright (0.9 or more) one of the four ways only (``rank_down``); below
    it, where an index prints its suit, windows are read by the upright classifier whether or
    not a glyph was found there. The surest suit must be read at ``window_agree`` or more (or
    at ``window_several_prob`` at ``window_several`` places), and no window read as another
    suit at 0.5 or more. A 6 or 9 is left out (on 5000 synthetic scenes 2 of the 5 wrong
    readings it added, and 1 of its 131 right ones)."""
    q = p.looks
    if not q.window:
        return []
    halves = [g for g in c.cut if g.label in RANK_CLASSES]
    out: list[Found] = []
    for r in unread_ranks(c.ranks + halves, found, q.window_rank):
        way = rank_down(r, frame.gray, upright, q.axis_reach)
        if way is None:
            continue
        (dx, dy), up_prob = way
        windows: list[Glyph] = []
        for along in q.window_along:
            for across in q.window_across:
                for size in q.window_sizes:
                    cx = r.cx + (dx * along - dy * across) * r.size
                    cy = r.cy + (dy * along + dx * across) * r.size
                    w = max(round(size * r.size), 4)
                    windows.append(Glyph(int(cx - w / 2), int(cy - w / 2), w, w, cx, cy,
                                         r.dark))
        read = upright(windows, [(dx, dy)] * len(windows))[:, _SUIT_IDS]
        names = {int(np.argmax(row)) for row in read if float(row.max()) >= 0.5}
        best, suit_k = np.unravel_index(int(np.argmax(read)), read.shape)
        prob = float(read[best, suit_k])
        places = read[:, suit_k].reshape(-1, len(q.window_sizes)).max(axis=1)
        several = int((places >= q.window_several_prob).sum()) >= q.window_several
        if (prob < q.window_agree and not several) or len(names) != 1:
            continue
        suit = replace(windows[int(best)], label="cdhs"[int(suit_k)], prob=prob)
        out.append(Found(r, suit, True, card_quad(r, suit, (dx, dy)), WINDOW,
                         [Evidence(WINDOW, r.prob * up_prob, rank=r.label),
                          Evidence(WINDOW, prob, suit=suit.label)]))
    return out


def face(c: Corners, found: list[Found], upright: UprightFn, frame: Frame, p: Params
         ) -> list[Found]:
    """Cards whose suit is printed only far from the rank, on pips the glyph classifier reads
    unsurely or as another suit (a blurred heart turned half round looks like a spade). For
    each rank read at ``face_rank`` or more whose card is not read at 0.9 or more, with its
    card's down told (``rank_down``) and its colour (``Inks.colour``): the glyphs looking like a
    suit on its own face (traced farther as ``find.face_suit`` does; a face holding another rank
    is more than one card) are read upright, turned by the card's down and by its up (a design
    prints the pips of the card's far half upside down, or not), and only their readings as a
    suit of the card's colour count. The surest must be read at ``face_agree`` or more, and no
    glyph read as another suit of that colour at 0.5 or more; each glyph counts the way (down
    or up) it reads surer."""
    q = p.looks
    if not q.face:
        return []
    gray, inks = frame.gray, frame.inks
    out: list[Found] = []
    for r in unread_ranks(c.ranks, found, q.face_rank):
        traced = face_of(r, gray, p, inks=inks)
        if traced is not None and not traced.whole:
            traced = face_of(r, gray, p, inks=inks, reach_sizes=p.faces.suit_reach)
        if traced is None or not traced.whole:
            continue
        on = [g for g in c.glyphs if g is not r and g.dark == r.dark
              and 0.35 <= g.size / r.size <= 3.5 and traced.holds(g)
              and (g.label in SUIT_CLASSES or g.suit_prob >= q.face_looks)]
        if not on or any(o.label != r.label and o.dark == r.dark
                         and 0.6 <= o.size / r.size <= 1.6 and traced.holds(o)
                         for o in c.ranks):
            continue
        if p.pairing.ink_check and inks is not None and not all(inks.same(r, g) for g in on):
            continue
        colour = None if inks is None else inks.colour(r, q.face_red, q.face_black)
        way = None if colour is None else rank_down(r, gray, upright, q.axis_reach)
        if way is None:
            continue
        (dx, dy), up_prob = way
        read = upright(on + on, [(dx, dy)] * len(on) + [(-dx, -dy)] * len(on))[:, _SUIT_IDS]
        read[:, [k for k in range(4) if ("cdhs"[k] in "hd") != (colour == "red")]] = 0.0
        # a pip is printed one way up: each is read the way it reads surer
        upside_down = read[len(on):].max(axis=1) > read[:len(on)].max(axis=1)
        read[:len(on)][upside_down] = 0.0
        read[len(on):][~upside_down] = 0.0
        names = {int(np.argmax(row)) for row in read if float(row.max()) >= 0.5}
        best, suit_k = np.unravel_index(int(np.argmax(read)), read.shape)
        prob = float(read[best, suit_k])
        if prob < q.face_agree or len(names) != 1:
            continue
        suit = replace((on + on)[int(best)], label="cdhs"[int(suit_k)], prob=prob)
        out.append(Found(r, suit, False, traced.quad(r), FACE,
                         [Evidence(FACE, r.prob * up_prob, rank=r.label),
                          Evidence(FACE, prob, suit=suit.label)]))
    return out
