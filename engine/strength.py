"""The strength API: card indices in (``Card.index``, 0..51), plain integers out, no checks, for
the odds engine's inner loops: ``high_strength``, ``high_strength7``, ``low8_strength``,
``low8_strength7``, ``low_strength``, ``soko_strength``. Each returns the integer
:attr:`engine.evaluate.HandValue.strength` of the same cards (a better hand is a greater one;
``NO_LOW`` for no 8-or-better low), from the tables of :mod:`engine._tables` (docs/evaluation.md).
``engine.batch`` does the same for numpy arrays of hands.

>>> from engine.cards import parse_cards
>>> from engine.evaluate import evaluate_high
>>> high_strength7([c.index for c in parse_cards("Kh Kd Ks 9c 9h 2d 3s")]) == (
...     evaluate_high("Kh Kd Ks 9c 9h 2d 3s").strength)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from engine import _tables as _t

__all__ = [
    "flush_suit",
    "high_strength",
    "high_strength7",
    "low8_strength",
    "low8_strength7",
    "low_strength",
    "soko_strength",
]

_KEY: Final = _t.CARD_KEY
_BASE: Final = _t.SUIT_BASE
_FLUSH_BITS: Final = _t.FLUSH_BITS
_HIGH: Final = _t.HIGH_TABLE
_FLUSH: Final = _t.FLUSH_TABLE
_RBIT: Final = _t.RANK_BIT
_LBIT: Final = _t.LOW_BIT
_LPAIR: Final = _t.LOW_PAIR
_LOW8: Final = _t.LOW8_TABLE
_SUIT_OF_FLUSH: Final = {0x8: 0, 0x80: 1, 0x800: 2, 0x8000: 3}
_KEY_BASE: Final = [key + _BASE for key in _KEY]
"""Card keys with the suit counters' starting offset added: one per hand saves an addition."""
_SUITED_BIT: Final = {
    bit: [_t.RANK_BIT[i] if i & 3 == suit else 0 for i in range(52)]
    for bit, suit in _SUIT_OF_FLUSH.items()
}
"""Flush bit of a suit -> per-card rank bit for the cards of that suit (0 for the others)."""
_RAZZ: dict[int, int] = {}
"""The razz table, filled on the first razz evaluation (most tables never play razz)."""


def _flush_strength(cards: Iterable[int], key: int) -> int:
    bits = _SUITED_BIT[key & 0x8888]
    mask = 0
    for i in cards:
        mask |= bits[i]
    return _FLUSH[mask]


def high_strength(
    cards: Sequence[int],
    _k: list[int] = _KEY,
    _g: list[int] = _KEY_BASE,
    _h: dict[int, int] = _HIGH,
) -> int:
    """Strength of the best five-card high hand among 5 to 7 card indices (``Card.index``).

    Equals ``evaluate_high(...).strength``; a greater strength is a better hand. No checks: the
    caller passes 5 to 7 distinct indices in 0..51.

    >>> high_strength([48, 49, 50, 51, 0]) > high_strength([44, 45, 46, 0, 1])
    True
    """
    n = len(cards)
    if n == 7:
        a, b, c, d, e, f, g = cards
        key = _k[a] + _k[b] + _k[c] + _k[d] + _k[e] + _k[f] + _g[g]
    elif n == 5:
        a, b, c, d, e = cards
        key = _k[a] + _k[b] + _k[c] + _k[d] + _g[e]
    else:
        key = sum(map(_k.__getitem__, cards), 0x3333)
    if key & 0x8888:
        return _flush_strength(cards, key)
    return _h[key >> 16]


def high_strength7(
    cards: Sequence[int],
    _k: list[int] = _KEY,
    _g: list[int] = _KEY_BASE,
    _h: dict[int, int] = _HIGH,
) -> int:
    """:func:`high_strength` for exactly seven card indices, the fastest way to rank a stud hand.

    >>> high_strength7([0, 5, 10, 15, 48, 30, 31]) >> 20  # 2-3-4-5-A: a straight (code 6)
    6
    """
    a, b, c, d, e, f, g = cards
    key = _k[a] + _k[b] + _k[c] + _k[d] + _k[e] + _k[f] + _g[g]
    if key & 0x8888:
        return _flush_strength(cards, key)
    return _h[key >> 16]


def low8_strength(cards: Sequence[int], _b: list[int] = _LBIT, _l: list[int] = _LOW8) -> int:
    """Strength of the best 8-or-better low among 5 to 7 card indices, or ``NO_LOW`` (-1).

    Equals ``evaluate_low8(...).strength`` (and -1 where that is ``None``); greater is better.

    >>> low8_strength([48, 0, 4, 8, 12]) > low8_strength([48, 0, 4, 8, 24])  # 5-4-3-2-A > 8-4-3-2-A
    True
    >>> low8_strength([48, 49, 0, 4, 8])
    -1
    """
    if len(cards) == 7:
        a, b, c, d, e, f, g = cards
        return _l[_b[a] | _b[b] | _b[c] | _b[d] | _b[e] | _b[f] | _b[g]]
    mask = 0
    for i in cards:
        mask |= _b[i]
    return _l[mask]


def low8_strength7(
    cards: Sequence[int], _p: list[list[int]] = _LPAIR, _b: list[int] = _LBIT, _l: list[int] = _LOW8
) -> int:
    """:func:`low8_strength` for exactly seven card indices."""
    a, b, c, d, e, f, g = cards
    return _l[_p[a][b] | _p[c][d] | _p[e][f] | _b[g]]


def low_strength(cards: Sequence[int], _k: list[int] = _KEY, _r: dict[int, int] = _RAZZ) -> int:
    """Strength of the best ace-to-five low (razz: no qualifier, pairs count against) among 5 to 7
    card indices. Equals ``evaluate_low(...).strength``; greater is better (a lower hand)."""
    key = sum(map(_k.__getitem__, cards), 0x3333) >> 16
    try:
        return _r[key]
    except KeyError:
        if _r:
            raise
    _r.update(_t.razz_table())
    return _r[key]


def soko_strength(cards: Sequence[int]) -> int:
    """Sökö strength of exactly five card indices (docs/rules.md §6). Equals
    ``evaluate_soko(...).strength``; greater is better.

    >>> soko_strength([50, 47, 43, 39, 0]) >> 20  # A-K-Q-J and a deuce: four-straight (code 2)
    2
    """
    key = sum(map(_KEY.__getitem__, cards), _BASE)
    if key & _FLUSH_BITS:
        return _flush_strength(cards, key)
    strength = _t.SOKO_TABLE[key >> 16]
    four = (key + 0x1111) & _FLUSH_BITS
    if four and strength < _t.FOUR_FLUSH << 20:
        return _four_flush_strength(cards, _SUIT_OF_FLUSH[four])
    return strength


def _four_flush_strength(cards: Iterable[int], suit: int) -> int:
    suited: list[int] = []
    odd = 0
    for i in cards:
        if i & 3 == suit:
            suited.append((i >> 2) + 2)
        else:
            odd = (i >> 2) + 2
    suited.sort(reverse=True)
    return (_t.FOUR_FLUSH << 20) | _t.pack([*suited, odd])



def flush_suit(cards: Iterable[int]) -> int:
    """The suit (0..3, as ``Card.index & 3``) of which five or more of ``cards`` are."""
    key = sum(map(_KEY.__getitem__, cards), _BASE)
    return _SUIT_OF_FLUSH[key & _FLUSH_BITS]
