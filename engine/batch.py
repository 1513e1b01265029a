"""Batch hand evaluation with numpy: many hands at once, for the odds engine.

Each function takes an integer array of shape ``(n, k)`` whose rows are hands of card indices
(``Card.index``, 0..51; the cards of a row must be distinct, which is not checked) and returns an
``int32`` array of ``n`` strengths, equal to the ``.strength`` of the value API, so they compare
exactly like the scalar values (greater is better). ``evaluate_low8_batch`` gives ``NO_LOW`` (-1)
to a hand without a qualifying low.

Internally: per-card keys whose sum identifies the rank multiset (small "perfect" rank keys, unique
sums for each hand size) index a direct table built on first use per hand size (about 7.8 million
``uint16`` class numbers for seven cards, 16 MB); suit counters in the same sum detect flushes.

>>> import numpy as np
>>> from engine import parse_cards, evaluate_high
>>> hands = np.array([[c.index for c in parse_cards(h)]
...                   for h in ("Kh Kd Ks 9c 9h 2d 3s", "Ah 2h 3h 4h 5h 9c 9d")])
>>> strengths = evaluate_high_batch(hands)
>>> int(strengths[0]) == evaluate_high("Kh Kd Ks 9c 9h 2d 3s").strength
True
>>> bool(strengths[1] > strengths[0])  # a straight flush beats a full house
True
>>> evaluate_low8_batch(hands).tolist()[0]
-1
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from engine import _tables as _t
from engine.evaluate import EvaluationError
from engine.variants import Ranking

__all__ = [
    "BATCH_EVALUATORS",
    "evaluate_high_batch",
    "evaluate_low8_batch",
    "evaluate_low_batch",
    "evaluate_soko_batch",
]

Strengths = npt.NDArray[np.int32]

# Rank keys whose sums over any multiset of 5, 6 or 7 ranks (at most four of each) are distinct
# for each hand size (the seven-card keys of Kevin Suffecool's successors, e.g. SKPokerEval).
_RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
_CARD_KEY = np.array(
    [(_RANK_KEYS[i >> 2] << 16) | (1 << (4 * (i & 3))) for i in range(52)], dtype=np.int64
)
_RANK_BIT = np.array(_t.RANK_BIT, dtype=np.int32)
_LOW_BIT = np.array(_t.LOW_BIT, dtype=np.uint8)
_LOW8 = np.array(_t.LOW8_TABLE, dtype=np.int32)
_FLUSH = np.array(_t.FLUSH_TABLE, dtype=np.int32)
_SUIT_OF_BIT = np.zeros(0x8889, dtype=np.int8)
for _suit in range(4):
    _SUIT_OF_BIT[8 << (4 * _suit)] = _suit


def _four_pack() -> npt.NDArray[np.int32]:
    table = np.zeros(8192, dtype=np.int32)
    for mask in range(8192):
        if mask.bit_count() == 4:
            ranks = [r + 2 for r in range(12, -1, -1) if mask >> r & 1]
            table[mask] = (_t.FOUR_FLUSH << 20) | _t.pack(ranks)
    return table


def _count_vectors(size: int) -> npt.NDArray[np.int64]:
    """Every rank-count vector (a column per rank, deuce first; counts 0..4) holding ``size``
    cards, one a row: grown a rank at a time, keeping the rows not over ``size`` yet."""
    rows = np.zeros((1, 0), dtype=np.int8)
    held = np.zeros(1, dtype=np.int8)
    for _ in range(13):
        held = np.add.outer(held, np.arange(5, dtype=np.int8)).ravel()
        rows = np.column_stack([np.repeat(rows, 5, axis=0), np.tile(np.arange(5, dtype=np.int8),
                                                                     len(rows))])
        keep = held <= size
        rows, held = rows[keep], held[keep]
    full: npt.NDArray[np.int64] = rows[held == size].astype(np.int64)
    return full


@cache
def _rank_table(kind: str, size: int) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.int32]]:
    """(class number by rank-key sum, strength by class number) for one table and hand size."""
    source = {"high": _t.HIGH_TABLE, "soko": _t.SOKO_TABLE}.get(kind) or _t.razz_table()
    counts = _count_vectors(size)
    keys = counts @ np.array(_RANK_KEYS, dtype=np.int64)
    found = (counts @ np.array(_t.RANK_MULTIPLIERS, dtype=np.int64)).tolist()
    values = np.fromiter(map(source.__getitem__, found), dtype=np.int32, count=len(found))
    classes, number = np.unique(values, return_inverse=True)
    table = np.zeros(int(keys.max()) + 1, dtype=np.uint16)
    table[keys] = number.astype(np.uint16)
    return table, classes.astype(np.int32)


def _check(hands: Any, low: int, high: int, what: str) -> npt.NDArray[np.int64]:
    array = np.asarray(hands)
    if array.ndim != 2 or not low <= array.shape[1] <= high:
        allowed = f"exactly {low}" if low == high else f"{low} to {high}"
        raise EvaluationError(
            f"{what} takes an array of shape (n, k) with k {allowed} cards, got shape {array.shape}"
        )
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise EvaluationError(f"{what} takes card indices (integers 0..51), got {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 51):
        raise EvaluationError(
            f"{what}: card indices are 0..51, got values from {array.min()} to {array.max()}"
        )
    return array.astype(np.int64, copy=False)


def _key_sums(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    # column by column: a sum along rows of five to seven is several times slower in numpy
    keys = _CARD_KEY[hands[:, 0]] + _t.SUIT_BASE
    for column in range(1, hands.shape[1]):
        keys += _CARD_KEY[hands[:, column]]
    return keys


def _suited_mask(
    hands: npt.NDArray[np.int64], rows: npt.NDArray[np.intp], suits: npt.NDArray[np.int8]
) -> npt.NDArray[np.int64]:
    chosen = hands[rows]
    same = (chosen & 3) == suits[:, None]
    return (_RANK_BIT[chosen] * same).sum(axis=1)  # type: ignore[no-any-return]


def evaluate_high_batch(hands: Any) -> Strengths:
    """High strengths of hands of 5 to 7 cards: ``(n, k)`` card indices -> ``(n,)`` int32."""
    array = _check(hands, 5, 7, "evaluate_high_batch")
    out, _keys = _ranks_and_flushes(array, "high")
    return out


def _ranks_and_flushes(array: Any, kind: str) -> tuple[Strengths, Any]:
    """Strengths from the rank table of ``kind``, five-card flushes put in; and the key sums."""
    table, classes = _rank_table(kind, array.shape[1])
    keys = _key_sums(array)
    out: Strengths = classes[table[keys >> 16]]
    flushes = np.flatnonzero(keys & _t.FLUSH_BITS)
    if flushes.size:
        suits = _SUIT_OF_BIT[keys[flushes] & _t.FLUSH_BITS]
        out[flushes] = _FLUSH[_suited_mask(array, flushes, suits)]
    return out, keys


def evaluate_low8_batch(hands: Any) -> Strengths:
    """8-or-better low strengths of hands of 5 to 7 cards; ``NO_LOW`` (-1) where there is none."""
    array = _check(hands, 5, 7, "evaluate_low8_batch")
    masks = _LOW_BIT[array[:, 0]]
    for column in range(1, array.shape[1]):
        masks |= _LOW_BIT[array[:, column]]
    out: Strengths = _LOW8[masks]
    return out


def evaluate_low_batch(hands: Any) -> Strengths:
    """Razz (ace-to-five, no qualifier) strengths of hands of 5 to 7 cards."""
    array = _check(hands, 5, 7, "evaluate_low_batch")
    table, classes = _rank_table("low", array.shape[1])
    out: Strengths = classes[table[_key_sums(array) >> 16]]
    return out


def evaluate_soko_batch(hands: Any) -> Strengths:
    """Sökö strengths of five-card hands: ``(n, 5)`` card indices -> ``(n,)`` int32."""
    array = _check(hands, 5, 5, "evaluate_soko_batch")
    out, keys = _ranks_and_flushes(array, "soko")
    # four of a suit (the suit counter's nibble reaches 8 after adding one more) beats every
    # Sökö hand below a four-flush; a five-card flush is already above it
    four_bits = (keys + 0x1111) & _t.FLUSH_BITS
    fours = np.flatnonzero((four_bits != 0) & (out < (_t.FOUR_FLUSH << 20)))
    if fours.size:
        suits = _SUIT_OF_BIT[four_bits[fours]]
        masks = _suited_mask(array, fours, suits)
        chosen = array[fours]
        odd = ((chosen >> 2) + 2) * ((chosen & 3) != suits[:, None])
        out[fours] = _four_pack_table()[masks] | odd.sum(axis=1)
    return out


@cache
def _four_pack_table() -> npt.NDArray[np.int32]:
    return _four_pack()


BATCH_EVALUATORS: dict[Ranking, Callable[[Any], Strengths]] = {
    "high": evaluate_high_batch,
    "low8": evaluate_low8_batch,
    "low": evaluate_low_batch,
    "soko": evaluate_soko_batch,
}
"""The batch evaluator of each ranking (``Variant.rankings``)."""
