"""The glyph classifier as a finder (stage 1, find): every candidate of a frame read as a rank, a
suit or ``other``, with the finer looks around the ranks and suits left alone.

Each candidate is cut out as a 2x32x32 patch (``nets.patches``) and read at any angle. Around a
likely rank with no suit in pairing reach (or a suit with no rank) a finer binarisation and the
print cut from straight lines give more candidates; a candidate read ``other`` or unsurely that
is long and narrow is cut at its waist (a rank and its suit joined by blur). The likely ranks with
a suit in reach, and that suit, are read again turned a half turn, and keep the geometric mean
of the two readings: a glyph must look the same both ways up to score high.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from hardware.camera.candidates import fine_candidates, line_candidates, waist_halves
from hardware.camera.nets import (
    CLASSES,
    OTHER,
    RANK_CLASS_IDS,
    RANK_CLASSES,
    SUIT_CLASS_IDS,
    SUIT_CLASSES,
    Networks,
    patches,
)
from hardware.camera.params import Params
from hardware.camera.types import Frame, Glyph


def read_as(g: Glyph, probs: npt.NDArray[np.float32]) -> Glyph:
    """The glyph as the classifier's ``probs`` read it: its likeliest class, and the suit it
    looks most like."""
    k = int(probs.argmax())
    s = int(SUIT_CLASS_IDS[int(probs[SUIT_CLASS_IDS].argmax())])
    return replace(g, label=CLASSES[k], prob=float(probs[k]), suit=CLASSES[s],
                   suit_prob=float(probs[s]))


def read_glyphs(nets: Networks, frame: Frame, glyphs: list[Glyph]) -> list[Glyph]:
    """Each glyph with the classifier's label and probability, read once as cut."""
    if not glyphs:
        return []
    probs = nets.glyphs(patches(frame.both, glyphs))
    return [read_as(g, p) for g, p in zip(glyphs, probs, strict=True)]


def _in_reach(glyphs: list[Glyph], top: npt.NDArray[np.intp], prob: npt.NDArray[np.float32],
              p: Params) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp],
                                  npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """The likely ranks and suits (``recheck_prob`` or more), which suit is in pairing reach of
    which rank (the size and distance rule of ``find.nearest_suit``), and their distances."""
    sure = prob >= p.classify.recheck_prob
    ranks = np.flatnonzero(sure & np.isin(top, RANK_CLASS_IDS))
    suits = np.flatnonzero(sure & np.isin(top, SUIT_CLASS_IDS))
    pos = np.array([(g.cx, g.cy, g.size, g.dark) for g in glyphs], np.float64)
    r, s = pos[ranks], pos[suits]
    dist = np.hypot(r[:, None, 0] - s[None, :, 0], r[:, None, 1] - s[None, :, 1])
    ratio = s[None, :, 2] / r[:, None, 2]
    near = ((dist <= 2.2 * r[:, None, 2]) & (ratio >= 0.35) & (ratio <= 1.6)
            & (r[:, None, 3] == s[None, :, 3]))
    return ranks, suits, near, dist


def _pairable(glyphs: list[Glyph], top: npt.NDArray[np.intp], prob: npt.NDArray[np.float32],
              p: Params) -> npt.NDArray[np.intp]:
    """Indices of the likely ranks with a likely suit in pairing reach, and of each one's
    nearest such suit: the candidates whose reading makes a card (pips of the card body are not
    read again)."""
    ranks, suits, near, dist = _in_reach(glyphs, top, prob, p)
    has = near.any(axis=1)
    if not has.any():
        return np.zeros(0, np.intp)
    # each such rank and only its nearest fitting suit (the pips near an index are not)
    nearest = np.where(near, dist, np.inf)[has].argmin(axis=1)
    return np.unique(np.concatenate([ranks[has], suits[nearest]]))


def _lonely(glyphs: list[Glyph], top: npt.NDArray[np.intp], prob: npt.NDArray[np.float32],
            p: Params) -> npt.NDArray[np.intp]:
    """Indices of the likely ranks with no likely suit in pairing reach and of the likely suits
    with no likely rank: where part of an index may have been missed."""
    ranks, suits, near, _dist = _in_reach(glyphs, top, prob, p)
    alone: npt.NDArray[np.intp] = np.concatenate([ranks[~near.any(axis=1)],
                                                  suits[~near.any(axis=0)]])
    return alone[prob[alone] >= p.candidates.lonely_prob]


def _not_pips(seeds: list[Glyph], glyphs: list[Glyph], top: npt.NDArray[np.intp],
              p: Params) -> list[Glyph]:
    """Of lonely glyphs, those that are no pip of a card's body: a glyph with a suit of about
    its size (within a ratio of ``line_pips``) within 2.5 of its sizes is one of a face's pips
    (the rank they lack is printed in the card's corner). They are most of the lonely glyphs,
    and most of the work of looking for lines around them."""
    alike_ratio = p.candidates.line_pips
    suits = [g for g, k in zip(glyphs, top, strict=True) if CLASSES[int(k)] in SUIT_CLASSES]
    out = []
    for g in seeds:
        alike = any(o is not g and 1 / alike_ratio <= o.size / g.size <= alike_ratio
                    and math.hypot(o.cx - g.cx, o.cy - g.cy) <= 2.5 * g.size for o in suits)
        if not alike:
            out.append(g)
    return out


def classify(nets: Networks, frame: Frame, glyphs: list[Glyph], p: Params) -> list[Glyph]:
    """Each candidate with its label and probability, and the candidates the finer looks add
    around the lonely ones (the finer binarisation, print cut from straight lines, halves of a
    candidate cut at its waist), the likely ranks and suits read again turned."""
    if not glyphs:
        return []
    c = p.candidates
    gray, both = frame.gray, frame.both
    batch = patches(both, glyphs)
    probs = nets.glyphs(batch)
    if c.fine:
        lonely = _lonely(glyphs, probs.argmax(axis=1), probs.max(axis=1), p)
        extra = fine_candidates(gray, [glyphs[i] for i in lonely], glyphs,
                                probs.argmax(axis=1) == OTHER, c) if len(lonely) else []
        if extra:
            more = patches(both, extra)
            batch = np.concatenate([batch, more])
            probs = np.concatenate([probs, nets.glyphs(more)])
            glyphs = glyphs + extra
        # print run into a line: around the lonely glyphs that are no pips
        seeds = _not_pips([glyphs[i] for i in lonely], glyphs, probs.argmax(axis=1), p) \
            if len(lonely) and c.line_cut is not None else []
        cut = line_candidates(gray, seeds, glyphs, probs.argmax(axis=1) == OTHER, c) \
            if seeds else []
        if cut:
            more = patches(both, cut)
            read = nets.glyphs(more)
            top_read = read.argmax(axis=1)
            keep = [i for i in range(len(cut)) if top_read[i] != OTHER
                    and float(read[i].max()) >= c.line_keep]
            if keep:
                batch = np.concatenate([batch, more[keep]])
                probs = np.concatenate([probs, read[keep]])
                glyphs = glyphs + [cut[i] for i in keep]
    if c.split_waist:
        unsure = (probs.argmax(axis=1) == OTHER) | (probs.max(axis=1) < c.split_below)
        halves = [replace(h, cut=1 + int(i)) for i in np.flatnonzero(unsure)
                  for h in waist_halves(gray, glyphs[int(i)], c)]
        if halves:
            more = patches(both, halves)
            read = nets.glyphs(more)
            labels = [CLASSES[int(row.argmax())] for row in read]
            keep = [i for i, row in enumerate(read)
                    if labels[i] in RANK_CLASSES and float(row.max()) >= p.looks.window_rank]
            if p.looks.cut_halves:
                # a rank and a suit cut apart: the two halves of one cut (in pairs)
                for k in range(0, len(halves), 2):
                    pair = {labels[k] in RANK_CLASSES, labels[k + 1] in RANK_CLASSES}
                    if pair == {True, False} and {labels[k], labels[k + 1]} & SUIT_CLASSES \
                            and min(float(read[k].max()), float(read[k + 1].max())) \
                            >= c.split_pair_prob:
                        keep.extend(j for j in (k, k + 1) if j not in keep)
                keep.sort()
            if keep:
                batch = np.concatenate([batch, more[keep]])
                probs = np.concatenate([probs, read[keep]])
                glyphs = glyphs + [halves[i] for i in keep]
    # read the likely ranks and suits again turned; keep the geometric mean
    top = probs.argmax(axis=1)
    recheck = _pairable(glyphs, top, probs.max(axis=1), p)
    turns = p.classify.recheck_turns
    if len(recheck) and turns:
        turned = np.concatenate([np.rot90(batch[recheck], k, axes=(2, 3)) for k in turns])
        readings = np.concatenate([probs[recheck], nets.glyphs(turned)])
        log = np.log(np.maximum(readings, 1e-9)).reshape(len(turns) + 1, len(recheck), -1)
        mean = np.exp(log.mean(axis=0))
        probs[recheck] = mean / mean.sum(axis=1, keepdims=True)
    return [read_as(g, q) for g, q in zip(glyphs, probs, strict=True)]
