"""Stage 1, find: the index corners of a frame, each a rank paired with a suit.

Every likely rank (read at 0.3 or more) is paired with the nearest likely suit of a fitting size
beside it (``nearest_suit``), printed in the same ink, unless another rank about as sure lies
nearer that suit. A rank with no suit beside it takes the suit of the pips on its own card face
(``face_suit``: some decks print the rank and the suit in different corners), when they all
agree and the face holds no other card's index. Each pairing is a :class:`~types.Found` corner:
its glyphs, the card's quad as the index (or the face) gives it, and the glyph classifier's
readings of its rank and suit as its first evidence (a suit read again on the face, or beside
the rank, is more evidence of it). An index suit outweighed by a larger pip of the other suit of
its colour beside it is left unpaired, and noted (``Corners.vetoes``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from hardware.camera.faces import Face, face_of
from hardware.camera.inks import Inks
from hardware.camera.nets import RANK_CLASSES, SUIT_CLASSES
from hardware.camera.params import Params
from hardware.camera.types import Evidence, Found, Frame, Glyph, Image, Source, card_quad

BESIDE = Source("find", "pairing", "beside")
ON_FACE = Source("find", "pairing", "face")
RANK = Source("read", "glyphs", "rank")
SUIT = Source("read", "glyphs", "suit")
FACE_PIPS = Source("read", "glyphs", "face pips")
SECOND_SUIT = Source("read", "glyphs", "second suit")


@dataclass(slots=True)
class Corners:
    """What the first look finds: the frame's read glyphs (``glyphs``: whole candidates only;
    ``cut``: halves of candidates cut at their waist), its likely ranks and suits, the glyphs
    read otherwise that look like a suit (``doubts``), the corners paired, and the ranks whose
    index suit a larger pip outweighs (by id, with that suit)."""

    glyphs: list[Glyph]
    cut: list[Glyph]
    ranks: list[Glyph]
    suits: list[Glyph]
    doubts: list[Glyph]
    found: list[Found] = field(default_factory=list)
    vetoes: dict[int, str] = field(default_factory=dict)


def nearest_suit(rank: Glyph, suits: list[Glyph], ranks: list[Glyph], p: Params
                 ) -> Glyph | None:
    """The nearest suit that fits the rank, unless another rank, about as sure
    (``Pairing.block_share``), lies nearer to it."""
    best: tuple[float, Glyph] | None = None
    for s in suits:
        if s.dark != rank.dark:
            continue
        ratio = s.size / rank.size
        if not 0.35 <= ratio <= 1.6:
            continue
        d = math.hypot(s.cx - rank.cx, s.cy - rank.cy)
        if d > 2.2 * rank.size or d < 0.3 * rank.size:
            continue
        if best is None or d < best[0]:
            best = (d, s)
    if best is None:
        return None
    d, s = best
    for other in ranks:
        if other is not rank and other.dark == rank.dark \
                and other.prob >= p.pairing.block_share * rank.prob \
                and math.hypot(s.cx - other.cx, s.cy - other.cy) < d:
            return None
    return s


def face_suit(rank: Glyph, suits: list[Glyph], ranks: list[Glyph], gray: Image, p: Params,
              inks: Inks | None = None, doubts: Sequence[Glyph] = ()
              ) -> tuple[Glyph, float, Face] | None:
    """The suit of the pips on the rank's own card face, when they all agree (and, with the
    glyphs' ``inks``, are printed in the rank's ink): the nearest of them, the most confident
    reading among them, and the face. A face running on beyond the ``Faces.reach`` it was
    traced in, with no suit read on that part of it, is traced again farther
    (``Faces.suit_reach``) and read when it lies whole within that."""
    face = face_of(rank, gray, p, inks=inks)
    if face is None:
        return None
    found = _suit_on(face, rank, suits, ranks, p, inks, doubts)
    if found is None and not face.whole:
        farther = face_of(rank, gray, p, inks=inks, reach_sizes=p.faces.suit_reach)
        if farther is not None and farther.whole:
            found = _suit_on(farther, rank, suits, ranks, p, inks, doubts)
    return found


def _suit_on(face: Face, rank: Glyph, suits: list[Glyph], ranks: list[Glyph], p: Params,
             inks: Inks | None, doubts: Sequence[Glyph]) -> tuple[Glyph, float, Face] | None:
    """The suit of the pips on ``face`` (``face_suit``)."""
    # a face holding another rank's index is more than one card (light faces touching in a fan):
    # a rank with a suit beside it, or one read at Faces.other_rank or more (a speck of a
    # picture read as a rank below that, alone, is no index)
    for other in ranks:
        if other.label != rank.label and other.dark == rank.dark \
                and 0.6 <= other.size / rank.size <= 1.6 and face.holds(other) \
                and (other.prob >= p.faces.other_rank
                     or nearest_suit(other, suits, ranks, p) is not None):
            return None
    inside = [s for s in suits if s.dark == rank.dark and 0.35 <= s.size / rank.size <= 3.5
              and face.holds(s)]
    if not inside:
        return None
    if len({s.label for s in inside}) != 1:
        inside = _larger_suit(inside, p)
        if not inside:
            return None
    # the glyphs read otherwise that look like another suit must be fewer than those read as
    # the suit (a king's small index spade read as a club, its one large spade read ``other`` at
    # 0.54 and a spade at 0.43)
    if sum(g.suit != inside[0].label and g.dark == rank.dark
           and 0.35 <= g.size / rank.size <= 3.5 and face.holds(g) for g in doubts) >= len(inside):
        return None
    if p.pairing.ink_check and inks is not None and not all(inks.same(rank, s) for s in inside):
        return None
    nearest = min(inside, key=lambda s: math.hypot(s.cx - rank.cx, s.cy - rank.cy))
    return nearest, max(s.prob for s in inside), face


def _larger_suit(suits: list[Glyph], p: Params) -> list[Glyph]:
    """Of suits on a face that disagree, those of the largest glyph's suit, when every glyph of
    another suit is ``Faces.pip_over`` times smaller than each of them (a face's large pips are
    read surer than its small index suit); else none."""
    if p.faces.pip_over is None:
        return []
    label = max(suits, key=lambda s: s.size).label
    kept = [s for s in suits if s.label == label]
    rest = [s for s in suits if s.label != label]
    if min(s.size for s in kept) < p.faces.pip_over * max(s.size for s in rest):
        return []
    return kept


def _agreeing_suit_prob(rank: Glyph, suit: Glyph, suits: list[Glyph], ranks: list[Glyph]
                        ) -> float:
    """The surest reading of the same suit as ``suit`` beside the rank (the large corner pip some
    designs print next to the index): within 2.5 rank sizes, at most 2.5 times its size, and
    nearer this rank than any other. 0 when there is none."""
    best = 0.0
    for other in suits:
        if other is suit or other.label != suit.label or other.dark != rank.dark \
                or other.size > 2.5 * rank.size or other.prob <= best:
            continue
        d = math.hypot(other.cx - rank.cx, other.cy - rank.cy)
        if d <= 2.5 * rank.size and not any(
                o is not rank and o.dark == rank.dark
                and math.hypot(other.cx - o.cx, other.cy - o.cy) < d for o in ranks):
            best = other.prob
    return best


def _outweighed(rank: Glyph, suit: Glyph, suits: list[Glyph], ranks: list[Glyph],
                inks: Inks | None, p: Params) -> bool:
    """Whether a larger pip beside the index names the other suit of its colour surely
    (``Pairing.outweigh_near``): a small index suit read as another of its family (a spade as a
    club, a heart as a diamond) beside its own card's large pip, which reads surely as what it
    is."""
    q = p.pairing
    if q.outweigh_near is None:
        return False
    family = "cs" if suit.label in "cs" else "dh"
    for pip in suits:
        if pip.dark != rank.dark or pip.label == suit.label or pip.label not in family \
                or pip.prob < q.outweigh_prob or not q.outweigh_size * suit.size <= pip.size \
                <= 2.5 * rank.size:
            continue
        d = math.hypot(pip.cx - rank.cx, pip.cy - rank.cy)
        if d <= q.outweigh_near * rank.size \
                and not any(o is not rank and math.hypot(pip.cx - o.cx, pip.cy - o.cy) < d
                            for o in ranks) \
                and (inks is None or inks.same(rank, pip)):
            return True
    return False


def corners(frame: Frame, glyphs: list[Glyph], p: Params) -> Corners:
    """The index corners of a frame whose candidates the glyph classifier has read: every
    likely rank paired with a suit beside it or on its face."""
    cut = [g for g in glyphs if g.half]
    whole = [g for g in glyphs if not g.half]
    out = Corners(
        whole, cut,
        ranks=[g for g in whole if g.label in RANK_CLASSES and g.prob >= 0.3],
        suits=[g for g in whole if g.label in SUIT_CLASSES and g.prob >= 0.3],
        doubts=[] if p.faces.doubt is None else [
            g for g in whole if g.label not in SUIT_CLASSES and g.suit_prob >= p.faces.doubt])
    ranks, suits, inks = out.ranks, out.suits, frame.inks
    below = p.faces.check_below
    for r in ranks:
        s = nearest_suit(r, suits, ranks, p)
        if p.pairing.ink_check and s is not None and inks is not None and not inks.same(r, s):
            s = None
        beside = s is not None
        suit_prob, quad = (0.0, None) if s is None else (s.prob, card_quad(r, s))
        evidence = [Evidence(RANK, r.prob, rank=r.label)]
        if s is not None:
            evidence.append(Evidence(SUIT, s.prob, suit=s.label))
        if p.faces.pairing and r.prob * suit_prob < below:
            on_face = face_suit(r, suits, ranks, frame.gray, p, inks, out.doubts)
            if on_face is not None and s is None:
                s, suit_prob, quad = on_face[0], on_face[1], on_face[2].quad(r)
                evidence.append(Evidence(FACE_PIPS, suit_prob, suit=s.label))
            elif on_face is not None and s is not None and on_face[0].label == s.label:
                # the pips of its own face agree with the index: the suit is as sure as the surest
                suit_prob = max(suit_prob, on_face[1])
                evidence.append(Evidence(FACE_PIPS, on_face[1], suit=s.label))
        # a suit read twice beside the rank is surer
        if s is not None and p.pairing.second_suit and r.prob * suit_prob < below:
            again = _agreeing_suit_prob(r, s, suits, ranks)
            if again > 0.0:
                suit_prob = max(suit_prob, again)
                evidence.append(Evidence(SECOND_SUIT, again, suit=s.label))
        if s is None or quad is None:
            continue
        if beside and _outweighed(r, s, suits, ranks, inks, p):
            out.vetoes[id(r)] = s.label
            continue
        out.found.append(Found(r, s, beside, quad, BESIDE if beside else ON_FACE, evidence))
    return out
