"""Stage 3, decide: a card is named only where the evidence agrees and is sure.

A corner's evidence is weighed in the order it was read (:func:`weigh`):

* its rank and suit are those of the first readings of each (the reading it was found by); a
  later reading of the same suit stands for it when surer (the pips of its face, a second suit
  beside it); a later reading of a 6-or-9 tells which it is;
* a reading of another rank or suit weighs against that part: its probability times ``1 - p``;
* a rank "6" stands for a 6 or a 9 (the glyph classifier reads them as one), until told;
* the parts' product is the corner's reading; each whole-card reading naming its card makes it
  surer, ``1 - (1 - c)(1 - p)`` (the index read again upright, the card seen whole), one naming
  another card from ``Decide.against`` makes it less sure, ``c (1 - p)``.

A corner whose 6 or 9 is not told, or whose index suit a larger pip outweighs, names no card.
Then, over the frame (:func:`frame_result`): one reading per card, the surest, made surer by a
reading of its other corner; of two cards read from one index, the surer; read in detail, the
enlarged frame's readings and those of the whole-card readers where they are surer; of two
cards read in one quad, the surer; and the threshold. The cards below it are "unknown", and
their corners are the frame's ``unread``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from hardware.camera.deck import Corner
from hardware.camera.deck import Glyph as DeckGlyph
from hardware.camera.params import Decide, Detail, Params
from hardware.camera.types import CardReading, Evidence, Found, FrameResult, Source, corner_of

OTHER_CORNER = Source("decide", "corners", "other corner")
#: a reading and the size of its rank (pixels of the frame it was read in)
Sized = tuple[CardReading, float]


@dataclass(frozen=True, slots=True)
class Weighed:
    """A corner's evidence weighed: its rank (a "6" is a 6 or a 9 until ``told``) and suit, the
    probability of each, and the confidence of its card."""

    rank: str
    suit: str
    rank_p: float
    suit_p: float
    told: str | None
    confidence: float

    @property
    def parts(self) -> float:
        """The rank's and suit's readings together, before any whole-card reading."""
        return self.rank_p * self.suit_p

    @property
    def card(self) -> str | None:
        """The card named, or None while its 6 or 9 is not told."""
        rank = self.told if self.rank == "6" else self.rank
        return None if rank is None else rank + self.suit


def weigh(found: Found, p: Decide | None = None) -> Weighed:
    """The evidence of a corner weighed (the module's rules)."""
    against = 0.5 if p is None else p.against
    rank = suit = ""
    rank_p = suit_p = 0.0
    told: str | None = None
    whole: list[Evidence] = []
    for e in found.evidence:
        if e.rank and e.suit:
            whole.append(e)
        elif e.rank:
            if e.against:
                rank_p *= 1.0 - e.p
            elif not rank:
                rank, rank_p = e.rank, e.p
            elif rank == "6" and told is None and e.rank in "69":
                told = e.rank
        elif e.suit:
            if e.against:
                suit_p *= 1.0 - e.p
            elif not suit:
                suit, suit_p = e.suit, e.p
            elif e.suit == suit:
                suit_p = max(suit_p, e.p)
    conf = rank_p * suit_p
    for e in whole:
        # a "6" read of a 6-or-9 is of either (the readers that tell them apart say so)
        same_rank = e.rank == rank or (rank == "6" and e.rank == "9" and told != "6")
        if same_rank and e.suit == suit:
            conf = 1.0 - (1.0 - conf) * (1.0 - e.p)
        elif e.p >= against:
            conf *= 1.0 - e.p
    return Weighed(rank, suit, rank_p, suit_p, told, conf)


def named(found: Found, vetoes: dict[int, str]) -> bool:
    """Whether a corner names a card: its 6 or 9 told, its suit not outweighed."""
    return vetoes.get(id(found.rank)) != found.suit.label and weigh(found).card is not None


def readings(found: list[Found], vetoes: dict[int, str], p: Params | None = None
             ) -> tuple[list[Sized], int]:
    """The card each corner names, with its confidence and the size of its rank, and the count
    of the 6s and 9s not told apart."""
    out: list[Sized] = []
    unknown = 0
    for f in found:
        if vetoes.get(id(f.rank)) == f.suit.label:
            continue
        w = weigh(f, None if p is None else p.decide)
        card = w.card
        if card is None:
            unknown += 1
            continue
        out.append((CardReading(card, w.confidence, f.quad, (f.rank.cx, f.rank.cy), f.corner,
                                f.source, tuple(f.evidence)), f.rank.size))
    return out, unknown


def corroborated(read: list[Sized], p: Decide) -> dict[str, CardReading]:
    """The most confident reading of each card, surer when the card was also read from an index
    in its other corner: one not read wrong is then ``1 - (1 - a)(1 - b)``. The other corner lies
    ``apart`` rank sizes or more from the first, and no farther than a card's diagonal
    (``within``). Of two cards whose best readings come from one index, only the surer is kept
    (``one_index``)."""
    by_card: dict[str, list[Sized]] = {}
    for reading, size in read:
        by_card.setdefault(reading.card, []).append((reading, size))
    out: dict[str, CardReading] = {}
    sizes: dict[str, float] = {}
    for card, found in by_card.items():
        first, size = max(found, key=lambda f: f[0].confidence)
        x, y = first.index_center
        other = max((f.confidence for f, _s in found
                     if p.corroborate and p.apart * size
                     < math.hypot(f.index_center[0] - x, f.index_center[1] - y)
                     <= p.within * size), default=0.0)
        conf = 1.0 - (1.0 - first.confidence) * (1.0 - other)
        evidence = first.evidence
        if other > 0.0:
            evidence += (Evidence(OTHER_CORNER, other, card[0], card[1]),)
        out[card] = replace(first, confidence=conf, evidence=evidence)
        sizes[card] = size
    return _one_card_an_index(out, sizes, p)


def _one_card_an_index(best: dict[str, CardReading], sizes: dict[str, float], p: Decide
                       ) -> dict[str, CardReading]:
    """The cards of ``best`` (each with the size of its rank) but those read from an index
    another card was read from more surely (``one_index`` rank sizes): an index is one card's."""
    if p.one_index is None:
        return best
    cards = list(best.values())
    gone: set[str] = set()
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            d = math.hypot(b.index_center[0] - a.index_center[0],
                           b.index_center[1] - a.index_center[1])
            if d <= p.one_index * min(sizes[a.card], sizes[b.card]):
                gone.add(a.card if a.confidence < b.confidence else b.card)
    return {card: c for card, c in best.items() if card not in gone}


def one_card_a_quad(best: dict[str, CardReading], p: Decide) -> dict[str, CardReading]:
    """The cards of ``best`` but those whose quad is mostly another's read more surely
    (``one_quad``: their intersection over their union): one card lies there, read once by
    its index and once otherwise (its pips, the deck's reading of a pip beside its rank)."""
    if p.one_quad is None:
        return best
    import cv2
    import numpy as np

    cards = list(best.values())
    quads = [np.array(c.quad, np.float32) for c in cards]
    areas = [abs(float(cv2.contourArea(q))) for q in quads]
    gone: set[str] = set()
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            b = cards[j]
            inter, _ = cv2.intersectConvexConvex(quads[i], quads[j])
            union = areas[i] + areas[j] - inter
            if union > 0 and inter / union >= p.one_quad:
                gone.add(a.card if a.confidence < b.confidence else b.card)
    return {card: c for card, c in best.items() if card not in gone}


def scaled(reading: CardReading, factor: float) -> CardReading:
    """A reading of a frame scaled ``factor`` times, placed in the frame's own pixels."""
    c = reading.corner
    corner = None if c is None else Corner(
        DeckGlyph(c.rank.cx * factor, c.rank.cy * factor, c.rank.size * factor),
        None if c.suit is None
        else DeckGlyph(c.suit.cx * factor, c.suit.cy * factor, c.suit.size * factor),
        c.down, c.dark, tuple((x * factor, y * factor) for x, y in c.quad))
    return replace(reading, quad=tuple((x * factor, y * factor) for x, y in reading.quad),
                   index_center=(reading.index_center[0] * factor,
                                 reading.index_center[1] * factor), corner=corner,
                   scale=reading.scale / factor)


def overruled(own: list[Sized], enlarged: list[Sized], p: Detail) -> list[Sized]:
    """The readings at the frame's own scale but those whose index the enlarged reading (placed
    and sized in the frame's own pixels) reads as another card at ``overrules`` or more,
    within the size of the frame's rank from it: the enlarged picture shows the index's print
    more clearly."""
    if p.overrules is None:
        return own
    sure = [(r.card, r.index_center) for r, _size in enlarged if r.confidence >= p.overrules]
    return [(r, size) for r, size in own if not any(
        card != r.card and math.hypot(x - r.index_center[0], y - r.index_center[1]) <= size
        for card, (x, y) in sure)]


def enlarged_kept(enlarged: list[Sized], own: list[Sized], p: Detail) -> list[Sized]:
    """The readings of the enlarged frame (placed and sized in the frame's own pixels) whose
    rank is ``smallest`` or larger and that name no other card than the frame's own reading of
    the same index (``conflict``)."""
    others = [(r.card, r.index_center) for r, _size in own if r.confidence >= p.conflict]
    return [(r, size) for r, size in enlarged if size >= p.smallest and not any(
        card != r.card and math.hypot(x - r.index_center[0], y - r.index_center[1]) <= size
        for card, (x, y) in others)]


def frame_result(own: list[Sized], unknown: int, p: Params, min_confidence: float,
                 enlarged: list[Sized] | None = None, whole: Sequence[CardReading] = ()
                 ) -> FrameResult:
    """The cards of a frame from every reading of it: its own corners' (each with its rank's
    size), the enlarged frame's in detail (placed in the frame's pixels; they count from
    ``Detail.sure`` and leave out the frame's own reading of an index they read surely as
    another card), the whole-card readers' (where surer); then the threshold."""
    if enlarged:
        own = overruled(own, enlarged, p.detail)
    best = corroborated(own, p.decide)
    if enlarged:
        kept = enlarged_kept(enlarged, own, p.detail)
        for card, reading in corroborated(kept, p.decide).items():
            if reading.confidence < p.detail.sure:
                continue
            if card not in best or best[card].confidence < reading.confidence:
                best[card] = reading
    for reading in whole:
        card = reading.card
        if card not in best or best[card].confidence < reading.confidence:
            best[card] = reading
    best = one_card_a_quad(best, p.decide)
    sure = [c for c in best.values() if c.confidence >= min_confidence]
    unread = [corner_of(c) for c in best.values() if c.confidence < min_confidence]
    return FrameResult(sorted(sure, key=lambda c: (c.index_center[1], c.index_center[0])),
                       unknown + len(best) - len(sure), unread)
