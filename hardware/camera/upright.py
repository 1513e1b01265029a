"""Stage 2, read: the upright classifier's reading of the corners found.

The glyph classifier reads a glyph at any angle, so it cannot tell a 6 from a 9 and reads a
blurred heart turned half round as a spade. The upright classifier (``model/upright.onnx``)
reads the two glyphs of an index again, each turned so that its card's down points down. Where
it names the corner's rank and suit surely (``Upright.agree``) it is a second reading of the
card; where it names another rank or suit it weighs against that part; where it names another
card surely (``Upright.names``) that card is read there too; and it tells a 6 from a 9. A 6 or 9
it does not tell is told by where the loop of the glyph lies on the line to its suit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from hardware.camera import decide
from hardware.camera.candidates import glyph_hole
from hardware.camera.faces import card_axis
from hardware.camera.nets import RANK_CLASSES, SUIT_CLASSES, UP, UPRIGHT_CLASSES
from hardware.camera.params import Params
from hardware.camera.types import Evidence, Found, Glyph, Image, Source, card_quad, unit

#: reads glyphs again turned upright: the upright classifier's probabilities
#: (``UPRIGHT_CLASSES``) for each glyph, turned so that its down (a unit vector) points down
UprightFn = Callable[[list[Glyph], list[tuple[float, float]]], npt.NDArray[np.float32]]

AGREES = Source("read", "upright", "agrees")
ANOTHER = Source("read", "upright", "another")
SIX_NINE = Source("read", "upright", "six or nine")
NAMES = Source("read", "upright", "names")
LOOP = Source("read", "loop", "six or nine")


def upright_card(rank: Glyph, suit: Glyph, up_rank: npt.NDArray[np.float32],
                 up_suit: npt.NDArray[np.float32], least: float, source: Source,
                 down: tuple[float, float] | None = None, beside: bool = True) -> Found | None:
    """The corner whose card the upright reading of an index's two glyphs names, a rank (a 6
    and a 9 apart) and a suit each at ``least`` or more, with that reading as its evidence;
    None when it names none so surely. ``down`` is the card's, when it was read along another
    line than rank -> suit."""
    rank_name = UPRIGHT_CLASSES[int(up_rank.argmax())]
    suit_name = UPRIGHT_CLASSES[int(up_suit.argmax())]
    p_rank, p_suit = float(up_rank.max()), float(up_suit.max())
    if (rank_name not in RANK_CLASSES and rank_name != "9") or suit_name not in SUIT_CLASSES \
            or p_rank < least or p_suit < least:
        return None
    label = "6" if rank_name in "69" else rank_name
    r = replace(rank, label=label, prob=p_rank)
    s = replace(suit, label=suit_name, prob=p_suit)
    evidence = [Evidence(source, p_rank, rank=label), Evidence(source, p_suit, suit=suit_name)]
    if label == "6":
        evidence.append(Evidence(source, p_rank, rank=rank_name))
    return Found(r, s, beside, card_quad(r, s, down), source, evidence)


def read_corners(found: list[Found], upright: UprightFn, p: Params) -> list[Found]:
    """Weigh each corner read beside its rank, read below ``Upright.below`` and not yet read
    upright in agreement, against its glyphs read again upright, turned so that the line from
    rank to suit points down: agreement is a second reading of the card, another rank or suit
    named weighs against it, a 6 or 9 is told. Returns the corners of the other cards it names
    surely (``Upright.names``)."""
    q = p.upright
    indexed = [f for f in found if f.beside and decide.weigh(f).parts < q.below
               and not any(e.source == AGREES for e in f.evidence)]
    if not indexed:
        return []
    downs = [unit(f.suit.cx - f.rank.cx, f.suit.cy - f.rank.cy) for f in indexed]
    probs = upright([g for f in indexed for g in (f.rank, f.suit)],
                    [d for d in downs for _ in range(2)])
    other = UP["other"]
    named: list[Found] = []
    for k, f in enumerate(indexed):
        up_rank, up_suit = probs[2 * k], probs[2 * k + 1]
        card = upright_card(f.rank, f.suit, up_rank, up_suit, q.names, NAMES)
        if card is not None and (card.rank.label, card.suit.label) != (f.rank.label, f.suit.label):
            named.append(card)
        if f.rank.label == "6":
            six, nine = float(up_rank[UP["6"]]), float(up_rank[UP["9"]])
            p_rank = six + nine
            if p_rank > 0 and max(six, nine) >= q.six_nine * p_rank:
                f.evidence.append(Evidence(SIX_NINE, max(six, nine) / p_rank,
                                           rank="6" if six > nine else "9"))
            same_rank: tuple[int, ...] = (UP["6"], UP["9"])
        else:
            p_rank = float(up_rank[UP[f.rank.label]])
            same_rank = (UP[f.rank.label],)
        p_suit = float(up_suit[UP[f.suit.label]])
        top_rank, top_suit = int(up_rank.argmax()), int(up_suit.argmax())
        if top_rank not in same_rank and top_rank != other and up_rank[top_rank] >= q.veto:
            f.evidence.append(Evidence(ANOTHER, float(up_rank[top_rank]),
                                       rank=UPRIGHT_CLASSES[top_rank], against=True))
        if top_suit != UP[f.suit.label] and top_suit != other and up_suit[top_suit] >= q.veto:
            f.evidence.append(Evidence(ANOTHER, float(up_suit[top_suit]),
                                       suit=UPRIGHT_CLASSES[top_suit], against=True))
        if p_rank >= q.agree and p_suit >= q.agree:
            f.evidence.append(Evidence(AGREES, p_rank * p_suit, f.rank.label, f.suit.label))
    return named


def rank_down(r: Glyph, gray: Image, upright: UprightFn, reach: float = 5.0
              ) -> tuple[tuple[float, float], float] | None:
    """The down of a rank's card (a unit vector in the frame) and the upright reading of the
    rank turned by it: the card's axis is told by its edges (``faces.card_axis``), and the rank
    must read as itself upright at 0.9 or more one of the four ways only; else None."""
    angle = card_axis(gray, r, reach)
    downs = [(-math.sin(angle + q * math.pi / 2), math.cos(angle + q * math.pi / 2))
             for q in range(4)]
    probs = upright([r] * 4, downs)[:, UPRIGHT_CLASSES.index(r.label)]
    ways = [k for k in range(4) if float(probs[k]) >= 0.9]
    if len(ways) != 1:
        return None
    return downs[ways[0]], float(probs[ways[0]])


def six_or_nine(rank: Glyph, suit: Glyph, gray: Image) -> str | None:
    """A 6 or a 9 told by where its loop lies along the line to its suit (its card's down):
    toward the suit, a 6. None where no loop is found or it lies in the middle."""
    hole = glyph_hole(gray, rank)
    if hole is None:
        return None
    dx, dy = suit.cx - rank.cx, suit.cy - rank.cy
    n = math.hypot(dx, dy) or 1.0
    # against the middle of the glyph's box: its ink centroid leans toward the heavier strokes
    mx, my = rank.x + rank.w / 2.0, rank.y + rank.h / 2.0
    along = ((hole[0] - mx) * dx + (hole[1] - my) * dy) / n
    if abs(along) < 0.04 * rank.size:
        return None
    return "6" if along > 0 else "9"


def read_loops(found: list[Found], gray: Image, p: Params) -> None:
    """Tell the 6s and 9s the other readers left untold by their loops (``six_or_nine``)."""
    if not p.upright.loop:
        return
    for f in found:
        w = decide.weigh(f)
        if w.rank == "6" and w.told is None:
            told = six_or_nine(f.rank, f.suit, gray)
            if told is not None:
                f.evidence.append(Evidence(LOOP, 1.0, rank=told))
