"""Stage 2, read, in detail: networks that read an index or a whole card at once.

* the card-view network (``model/view.onnx``) reads a card as its quad shows it, turned
  upright: the pips, the colour, a court's picture, the other corner. A corner read unsurely
  (``Whole.view_check``) that it names the same way is surer (:func:`view_check`); a rank read
  with no card near it has the quad its index gives its card read by it (:func:`lone_ranks`);
* the two index networks (``model/index-1.onnx``, ``model/index-2.onnx``), trained apart, read a
  window around each suit glyph whole, rank and suit together, each of the four ways its
  card's edges allow: a card both name the same way up surely is read (:func:`index_windows`),
  for the indices whose glyphs are not cut out well enough to be read one by one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera import decide
from hardware.camera.deck import Corner
from hardware.camera.deck import Glyph as DeckGlyph
from hardware.camera.faces import card_downs
from hardware.camera.nets import (
    INDEX_RANKS,
    INDEX_SUITS,
    RANK_CLASSES,
    SUIT_CLASSES,
    card_view,
    index_window,
    rank_suit,
)
from hardware.camera.params import Params
from hardware.camera.types import CardReading, Evidence, Found, Frame, Glyph, Source, card_quad
from hardware.camera.upright import UprightFn, rank_down

VIEW = Source("read", "view", "agrees")
LONE = Source("read", "view", "lone rank")
INDEX = Source("read", "index", "windows")


def view_check(net: Any, frame: Frame, found: list[Found], p: Params) -> None:
    """Read the corners named at ``view_check`` confidence (from, below) again by the card-view
    network ``net`` in the view of their quad (``nets.card_view``): where it names the same card
    at ``view_agree`` or more, that is evidence of it."""
    q = p.whole
    if q.view_check is None or frame.image is None:
        return
    low, high = q.view_check
    unsure = []
    for f in found:
        w = decide.weigh(f)
        if w.card is not None and low <= w.confidence < high:
            unsure.append((f, w.card))
    if not unsure:
        return
    rank_p, suit_p = rank_suit(net, np.stack([
        card_view(frame.image, frame.gray, f.quad, q.view_margin) for f, _card in unsure]))
    for j, (f, card) in enumerate(unsure):
        v = float(rank_p[j, INDEX_RANKS.index(card[0])] * suit_p[j, INDEX_SUITS.index(card[1])])
        if v >= q.view_agree:
            f.evidence.append(Evidence(VIEW, v, card[0], card[1]))


def lone_ranks(net: Any, frame: Frame, glyphs: list[Glyph],
               readings: list[tuple[CardReading, float]], upright: UprightFn, p: Params
               ) -> list[CardReading]:
    """The cards the card-view network ``net`` names, of their rank, in the quads of the ranks of
    ``glyphs`` read at ``lone_rank`` or more that no reading of ``readings`` (each with its
    rank's size) at ``lone_near`` or more lies near: none within ``lone_reach`` of the rank's
    sizes, nor one of its rank whose quad holds it. Each rank's card's down is told by its edges
    and its upright reading (``upright.rank_down``), its quad as its index gives it; a card
    named at ``lone_view`` or more (its rank's probability times its suit's) is read, with that
    confidence, its index where the rank is."""
    q = p.whole
    if q.lone_view is None or frame.image is None:
        return []
    near = [r for r, _size in readings if r.confidence >= q.lone_near]
    lone: list[tuple[Glyph, tuple[tuple[float, float], ...]]] = []
    for g in glyphs:
        if g.label not in RANK_CLASSES or g.label == "6" or g.prob < q.lone_rank:
            continue
        if any(math.hypot(r.index_center[0] - g.cx, r.index_center[1] - g.cy)
               <= q.lone_reach * g.size
               or (r.card[0] == g.label
                   and cv2.pointPolygonTest(np.array(r.quad, np.float32), (g.cx, g.cy),
                                            False) >= 0)
               for r in near):
            continue
        way = rank_down(g, frame.gray, upright, p.looks.axis_reach)
        if way is not None:
            lone.append((g, card_quad(g, g, way[0])))
    if not lone:
        return []
    rank_p, suit_p = rank_suit(net, np.stack([
        card_view(frame.image, frame.gray, quad, q.view_margin) for _g, quad in lone]))
    reads: list[CardReading] = []
    for j, (g, quad) in enumerate(lone):
        suit = int(suit_p[j, :len(INDEX_SUITS)].argmax())
        v = float(rank_p[j, INDEX_RANKS.index(g.label)] * suit_p[j, suit])
        if v >= q.lone_view:
            card = g.label + INDEX_SUITS[suit]
            reads.append(CardReading(card, v, quad, (g.cx, g.cy), source=LONE,
                                     evidence=(Evidence(LONE, v, card[0], card[1]),)))
    return reads


def _index_best(rank_p: npt.NDArray[np.float32], suit_p: npt.NDArray[np.float32]
                ) -> tuple[str, float, int] | None:
    """Of the four ways a suit's window was read (one network's probabilities), the card it
    names most surely, that probability (the rank's times the suit's) and which way; None when
    every way reads no index."""
    best: tuple[str, float, int] | None = None
    for way in range(len(rank_p)):
        r, s = int(rank_p[way].argmax()), int(suit_p[way].argmax())
        if r >= len(INDEX_RANKS) or s >= len(INDEX_SUITS):
            continue
        v = float(rank_p[way, r] * suit_p[way, s])
        if best is None or v > best[1]:
            best = (INDEX_RANKS[r] + INDEX_SUITS[s], v, way)
    return best


def index_windows(nets: Sequence[Any], frame: Frame, glyphs: list[Glyph], p: Params,
                  view_net: Any = None) -> list[CardReading]:
    """The cards the index networks ``nets`` read in the windows around the suit glyphs of
    ``glyphs`` read at ``index_anchor`` or more: those every network names the same way up at
    ``index_sure`` or more, with the least of their probabilities as confidence. Each network
    reads only the windows every one before it named so. With the card-view network
    ``view_net``, those named so from ``index_viewed`` up to ``index_sure`` are read again by it
    in the view of their quads: those it names at ``view_agree`` or more are read, that much
    surer, ``1 - (1 - a)(1 - b)``; the others are not."""
    q = p.whole
    if q.index_sure is None or not nets or frame.image is None:
        return []
    image, gray = frame.image, frame.gray
    least = q.index_sure if view_net is None or q.index_viewed is None \
        else min(q.index_sure, q.index_viewed)
    anchors = [g for g in glyphs if g.label in SUIT_CLASSES and g.prob >= q.index_anchor]
    if not anchors:
        return []
    downs = [card_downs(gray, g, p.looks.axis_reach) for g in anchors]
    batch = np.stack([index_window(image, gray, g.cx, g.cy, g.size, d, q.index_across,
                                   q.index_down)
                      for g, ds in zip(anchors, downs, strict=True) for d in ds])
    named: list[list[tuple[str, float, int]]] = [[] for _ in anchors]
    left = list(range(len(anchors)))
    for net in nets:
        if not left:
            return []
        rank_p, suit_p = rank_suit(net, batch[[4 * k + way for k in left for way in range(4)]])
        still = []
        for j, k in enumerate(left):
            best = _index_best(rank_p[4 * j:4 * j + 4], suit_p[4 * j:4 * j + 4])
            if best is None or best[1] < least or \
                    (named[k] and best[::2] != named[k][0][::2]):
                continue
            named[k].append(best)
            still.append(k)
        left = still
    reads: list[CardReading] = []
    for k in left:
        g, (card, _v, way) = anchors[k], named[k][0]
        down = downs[k][way]
        # the rank about index_rank suit sizes above the suit and as large
        rank = replace(g, cx=g.cx - down[0] * g.size * q.index_rank,
                       cy=g.cy - down[1] * g.size * q.index_rank,
                       w=round(g.w * q.index_rank), h=round(g.h * q.index_rank))
        evidence = tuple(Evidence(INDEX, n[1], card[0], card[1]) for n in named[k])
        quad = card_quad(rank, g, down)
        # its corner: the suit glyph read, the rank where the index puts it (for a learned deck
        # to read the same corner, and to learn from it)
        corner = Corner(DeckGlyph(rank.cx, rank.cy, rank.size), DeckGlyph(g.cx, g.cy, g.size),
                        down, g.dark, quad)
        reads.append(CardReading(card, min(n[1] for n in named[k]), quad, (g.cx, g.cy),
                                 corner=corner, source=INDEX, evidence=evidence))
    sure = [r for r in reads if r.confidence >= q.index_sure]
    unsure = [r for r in reads if r.confidence < q.index_sure]
    if not unsure:
        return sure
    rank_p, suit_p = rank_suit(view_net, np.stack([
        card_view(image, gray, r.quad, q.view_margin) for r in unsure]))
    for j, r in enumerate(unsure):
        v = float(rank_p[j, INDEX_RANKS.index(r.card[0])]
                  * suit_p[j, INDEX_SUITS.index(r.card[1])])
        if v >= q.view_agree:
            sure.append(replace(r, confidence=1.0 - (1.0 - r.confidence) * (1.0 - v),
                                evidence=(*r.evidence, Evidence(VIEW, v, r.card[0],
                                                                r.card[1]))))
    return sure
