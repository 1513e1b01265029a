"""Lookup tables behind the hand evaluators, built once at import (razz lazily).

Strength encoding (see docs/evaluation.md). A high or Sökö strength is::

    category_code << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

where ``r1..r5`` are the ranks (2..14, an ace that plays low is 1) of the five playing cards in the
order a dealer reads them (full house: the three first; two pair: high pair, low pair, kicker), so
comparing the integers compares the hands. The category codes leave room for Sökö's two extra
categories, so a high strength of two pair or better equals its Sökö strength.

Per-card keys: ``CARD_KEY[i] = 1 << (16 + 3 * (rank - 2)) | 1 << (4 * suit)``. The sum of the keys
of up to seven cards plus :data:`SUIT_BASE` holds, from bit 16 up, the count of each rank (3 bits
per rank) and, in bits 0..15, one nibble per suit that starts at 3; a nibble reaches 8 (its top bit)
exactly when five cards share that suit, so ``key & FLUSH_BITS`` detects a flush in one step.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Iterator
from pathlib import Path

CATEGORIES: tuple[str, ...] = (
    "high-card",
    "pair",
    "four-straight",
    "four-flush",
    "two-pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "straight-flush",
)
"""Category names by code: ``strength >> 20`` for high, Sökö and exposed strengths."""

HIGH_CARD, PAIR, FOUR_STRAIGHT, FOUR_FLUSH, TWO_PAIR, TRIPS = 0, 1, 2, 3, 4, 5
STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = 6, 7, 8, 9, 10

SUIT_BASE = 0x3333
FLUSH_BITS = 0x8888
RANK_SHIFT = 16

CARD_KEY: list[int] = [(1 << (RANK_SHIFT + 3 * (i >> 2))) | (1 << (4 * (i & 3))) for i in range(52)]
"""Per-card key (see the module docstring), by card index."""

RANK_BIT: list[int] = [1 << (i >> 2) for i in range(52)]
"""Bit ``rank - 2`` of the 13-bit rank mask, by card index."""

LOW_BIT: list[int] = [0] * 52
"""Ace-to-five rank bit for the 8-or-better low, by card index: ace 1, 2..8 bits 1..7, else 0."""
for _i in range(52):
    _rank = (_i >> 2) + 2
    LOW_BIT[_i] = 1 if _rank == 14 else (1 << (_rank - 1) if _rank <= 8 else 0)

LOW_PAIR: list[list[int]] = [[LOW_BIT[a] | LOW_BIT[b] for b in range(52)] for a in range(52)]
"""``LOW_PAIR[a][b] == LOW_BIT[a] | LOW_BIT[b]``: halves the work of a seven-card low."""

NO_LOW = -1
"""The strength of a hand without a qualifying low (it compares below every low)."""

LOW_TOP = 0xFFFFF
"""Low strengths are ``LOW_TOP - packed`` (packed = the five ranks, ace 1, highest first)."""


def pack(ranks: tuple[int, ...] | list[int]) -> int:
    """The five (or fewer, left-aligned) ranks as nibbles: ``pack([13, 13, 9]) == 0xDD900``."""
    value = 0
    for position in range(5):
        value = (value << 4) | (ranks[position] if position < len(ranks) else 0)
    return value


def unpack(strength: int) -> list[int]:
    """The five rank nibbles of a packed value, first to last (zeros included)."""
    return [(strength >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]


def _straight_top(mask: int) -> int:
    """Top rank of the best straight in a 13-bit rank mask (5 for the wheel), or 0."""
    for top in range(14, 5, -1):
        run = 0b11111 << (top - 6)
        if mask & run == run:
            return top
    if mask & 0b1000000001111 == 0b1000000001111:
        return 5
    return 0


def _straight_ranks(top: int) -> list[int]:
    return [5, 4, 3, 2, 1] if top == 5 else list(range(top, top - 5, -1))


def _build_flush() -> list[int]:
    table = [0] * 8192
    for mask in range(8192):
        if mask.bit_count() < 5:
            continue
        top = _straight_top(mask)
        if top:
            table[mask] = (STRAIGHT_FLUSH << 20) | pack(_straight_ranks(top))
        else:
            ranks = [r + 2 for r in range(12, -1, -1) if mask >> r & 1][:5]
            table[mask] = (FLUSH << 20) | pack(ranks)
    return table


FLUSH_TABLE: list[int] = _build_flush()
"""Strength of the best flush or straight flush of a suit's 13-bit rank mask (0: under 5 cards)."""

STRAIGHT_TOP: list[int] = [_straight_top(m) for m in range(8192)]


def _multisets(size: int) -> Iterator[list[int]]:
    """Every rank-count vector (index = rank - 2, counts 0..4) holding ``size`` cards."""
    counts = [0] * 13

    def fill(rank: int, left: int) -> Iterator[list[int]]:
        if rank < 0:
            if left == 0:
                yield counts
            return
        if left > 4 * (rank + 1):
            return
        for c in range(min(4, left), -1, -1):
            counts[rank] = c
            yield from fill(rank - 1, left - c)
        counts[rank] = 0

    yield from fill(12, size)


def rank_key(counts: list[int]) -> int:
    """The rank part of a card-key sum (shifted down by 16) for a rank-count vector."""
    key = 0
    for r in range(13):
        key |= counts[r] << (3 * r)
    return key


def high_from_counts(counts: list[int]) -> int:
    """Strength of the best five-card high hand (no flush) from a rank-count vector."""
    quads: list[int] = []
    trips: list[int] = []
    pairs: list[int] = []
    singles: list[int] = []
    mask = 0
    for r in range(12, -1, -1):
        c = counts[r]
        if c:
            mask |= 1 << r
            rank = r + 2
            if c == 4:
                quads.append(rank)
            elif c == 3:
                trips.append(rank)
            elif c == 2:
                pairs.append(rank)
            else:
                singles.append(rank)
    if quads:
        q = quads[0]
        kicker = max(trips[:1] + pairs[:1] + singles[:1] + quads[1:2])
        return (QUADS << 20) | pack([q, q, q, q, kicker])
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max(trips[1:2] + pairs[:1])
        return (FULL_HOUSE << 20) | pack([t, t, t, p, p])
    top = STRAIGHT_TOP[mask]
    if top:
        return (STRAIGHT << 20) | pack(_straight_ranks(top))
    if trips:
        t = trips[0]
        return (TRIPS << 20) | pack([t, t, t, *singles[:2]])
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        kicker = max(pairs[2:3] + singles[:1])
        return (TWO_PAIR << 20) | pack([hi, hi, lo, lo, kicker])
    if pairs:
        p = pairs[0]
        return (PAIR << 20) | pack([p, p, *singles[:3]])
    return (HIGH_CARD << 20) | pack(singles[:5])


def _build_high() -> dict[int, int]:
    table: dict[int, int] = {}
    for size in (5, 6, 7):
        for counts in _multisets(size):
            table[rank_key(counts)] = high_from_counts(counts)
    return table




def four_straight_from_counts(counts: list[int]) -> int:
    """Sökö four-straight strength of five cards (rank-count vector) without a pair or better made
    hand other than a pair, or 0 when there is no four-straight."""
    mask = 0
    for r in range(13):
        if counts[r]:
            mask |= 1 << r
    best = 0
    for top in range(14, 4, -1):
        run = 0b1111 << (top - 5)
        if mask & run == run:
            best = top
            break
    if not best and mask & 0b1000000000111 == 0b1000000000111:
        best = 4
    if not best:
        return 0
    run_ranks = [4, 3, 2, 1] if best == 4 else list(range(best, best - 4, -1))
    rest = list(counts)
    for rank in run_ranks:
        rest[(14 if rank == 1 else rank) - 2] -= 1
    odd = next(r + 2 for r in range(13) if rest[r])
    return (FOUR_STRAIGHT << 20) | pack([*run_ranks, odd])


def _build_soko() -> dict[int, int]:
    table: dict[int, int] = {}
    for counts in _multisets(5):
        high = high_from_counts(counts)
        if high >> 20 <= PAIR:
            high = max(high, four_straight_from_counts(counts))
        table[rank_key(counts)] = high
    return table




def _build_low8() -> list[int]:
    table = [NO_LOW] * 256
    for mask in range(256):
        if mask.bit_count() >= 5:
            ranks = [r + 1 for r in range(8) if mask >> r & 1][:5]
            table[mask] = LOW_TOP - pack(ranks[::-1])
    return table


LOW8_TABLE: list[int] = _build_low8()
"""OR of :data:`LOW_BIT` over the cards -> 8-or-better low strength, or :data:`NO_LOW`."""

RAZZ_CODES = (HIGH_CARD, PAIR, TWO_PAIR, TRIPS, FULL_HOUSE, QUADS)


def razz_pack(code: int, packed: int) -> int:
    """Razz strength from a category code and the packed ranks (ace 1): lower hands compare
    greater."""
    return ((15 - code) << 20) | (LOW_TOP - packed)


def razz_from_counts(counts: list[int]) -> int:
    """Razz (ace-to-five, pairs count) strength of the best five of a rank-count vector."""
    # ace-low counts: index 0 = ace, 1..12 = 2..K
    low = [counts[12], *counts[:12]]
    present = [r + 1 for r in range(13) if low[r]]
    if len(present) >= 5:
        return razz_pack(HIGH_CARD, pack(present[:5][::-1]))
    multi = [r + 1 for r in range(13) if low[r] >= 2]
    triple = [r + 1 for r in range(13) if low[r] >= 3]
    if len(present) == 4:
        p = multi[0]
        kickers = sorted((r for r in present if r != p), reverse=True)
        return razz_pack(PAIR, pack([p, p, *kickers]))
    if len(present) == 3:
        if len(multi) >= 2:
            a, b = multi[0], multi[1]
            kicker = next(r for r in present if r not in (a, b))
            return razz_pack(TWO_PAIR, pack([b, b, a, a, kicker]))
        t = triple[0]
        kickers = sorted((r for r in present if r != t), reverse=True)
        return razz_pack(TRIPS, pack([t, t, t, *kickers]))
    # two ranks: a full house if possible (lowest three of a kind), else four of a kind
    for t in triple:
        other = next(r for r in present if r != t)
        if low[other - 1] >= 2:
            return razz_pack(FULL_HOUSE, pack([t, t, t, other, other]))
    q = next(r for r in present if low[r - 1] >= 4)
    other = next(r for r in present if r != q)
    return razz_pack(QUADS, pack([q, q, q, q, other]))


def _build_razz() -> dict[int, int]:
    table: dict[int, int] = {}
    for size in (5, 6, 7):
        for counts in _multisets(size):
            table[rank_key(counts)] = razz_from_counts(counts)
    return table


# The rank-multiset tables take about a second to compute in Python, so they ship precomputed in
# _tables.bin (zlib of little-endian int64 arrays) and load in a few milliseconds.
# `python -m engine._tables` rewrites the file; tests/engine/test_evaluate_tables.py checks it
# against a fresh computation.
DATA_FILE = Path(__file__).with_name("_tables.bin")
_DATA_MAGIC = b"STUDEVAL1"


def build_all() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """Compute the high, razz and Sökö rank-multiset tables from scratch."""
    return _build_high(), _build_razz(), _build_soko()


def _encode(tables: tuple[dict[int, int], ...]) -> bytes:
    parts = [_DATA_MAGIC, struct.pack("<I", len(tables))]
    for table in tables:
        flat = array("q", [x for item in table.items() for x in item])
        if sys.byteorder == "big":
            flat.byteswap()
        parts.append(struct.pack("<Q", len(flat)))
        parts.append(flat.tobytes())
    return zlib.compress(b"".join(parts), 9)


def _decode(blob: bytes) -> list[dict[int, int]]:
    raw = zlib.decompress(blob)
    if not raw.startswith(_DATA_MAGIC):
        raise ValueError(f"{DATA_FILE} is not an evaluator table file")
    pos = len(_DATA_MAGIC)
    (count,) = struct.unpack_from("<I", raw, pos)
    pos += 4
    tables = []
    for _ in range(count):
        (length,) = struct.unpack_from("<Q", raw, pos)
        pos += 8
        flat = array("q")
        flat.frombytes(raw[pos : pos + 8 * length])
        pos += 8 * length
        if sys.byteorder == "big":
            flat.byteswap()
        values = flat.tolist()
        tables.append(dict(zip(values[0::2], values[1::2], strict=True)))
    return tables


def write_data_file() -> None:
    DATA_FILE.write_bytes(_encode(build_all()))


def _load() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    try:
        high, razz, soko = _decode(DATA_FILE.read_bytes())
    except (OSError, ValueError, zlib.error, struct.error):
        return build_all()
    return high, razz, soko


HIGH_TABLE, RAZZ_TABLE, SOKO_TABLE = _load()
"""Rank part of a card-key sum (``key >> 16``) -> strength ignoring suits: high (5-7 cards, flushes
aside), razz (5-7 cards) and Sökö (5 cards, four-straights included, suited hands aside)."""


if __name__ == "__main__":
    write_data_file()
    print(f"wrote {DATA_FILE}")
