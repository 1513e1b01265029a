"""Lookup tables behind the hand evaluators, built once at import (razz lazily).

Strength encoding (see docs/evaluation.md). A high or Sökö strength is::

    category_code << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

where ``r1..r5`` are the ranks (2..14, an ace that plays low is 1) of the five playing cards in the
order a dealer reads them (full house: the three first; two pair: high pair, low pair, kicker), so
comparing the integers compares the hands. The category codes leave room for Sökö's two extra
categories, so a high strength of two pair or better equals its Sökö strength.

Per-card keys: ``CARD_KEY[i] = RANK_MULTIPLIERS[rank - 2] << 16 | 1 << (4 * suit)``. The sum of the
keys of up to seven cards plus :data:`SUIT_BASE` holds, from bit 16 up, a number that identifies the
multiset of ranks (the multipliers are random odd 35-bit constants, checked to give every multiset
of 5, 6 or 7 ranks its own sum, and spread well by Python's dict hashing, unlike a bit field of rank
counts), and, in bits 0..15, one nibble per suit that starts at 3; a nibble reaches 8 (its top bit)
exactly when five cards share that suit, so ``key & FLUSH_BITS`` detects a flush in one step.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Iterator
from functools import cache
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

RANK_MULTIPLIERS = (
    0x61E7EA419, 0x780A4DF5B, 0x58306D03B, 0x7DC28FF91, 0x71A466885, 0x739292D23, 0x499DD251D,
    0x78E7AA6E9, 0x4C88B2875, 0x68C3D5F17, 0x6BB049A79, 0x7C4A334BF, 0x6C0433CBD,
)
"""Rank part of the card keys, 2 to ace (found by a seeded search; see the module docstring)."""

CARD_KEY: list[int] = [
    (RANK_MULTIPLIERS[i >> 2] << RANK_SHIFT) | (1 << (4 * (i & 3))) for i in range(52)
]
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
    return sum(c * m for c, m in zip(counts, RANK_MULTIPLIERS, strict=True))


def multisets(sizes: tuple[int, ...] = (5, 6, 7)) -> Iterator[tuple[int, list[int]]]:
    """``(rank_key, counts)`` for every multiset of ranks of the given sizes."""
    for size in sizes:
        for counts in _multisets(size):
            yield rank_key(counts), list(counts)


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
    top = _straight_top(mask)
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


# The tables take over a second to compute in Python, so they ship precomputed in _tables.bin
# (zlib of named little-endian arrays) and load in a few milliseconds; razz's loads on first use.
# `python -m engine._tables` rewrites the file; tests/engine/test_evaluate_exhaustive.py checks
# it against a fresh computation.
DATA_FILE = Path(__file__).with_name("_tables.bin")
_DATA_MAGIC = b"STUDEVAL2" + struct.pack("<13Q", *RANK_MULTIPLIERS)
"""File header: format version and the key multipliers the tables were computed with."""


def build_all() -> dict[str, dict[int, int] | list[int]]:
    """Compute every table from scratch: ``high``, ``razz``, ``soko`` (dicts), ``flush`` (list)."""
    return {
        "high": _build_high(),
        "razz": _build_razz(),
        "soko": _build_soko(),
        "flush": _build_flush(),
    }


def _arrays(tables: dict[str, dict[int, int] | list[int]]) -> dict[str, array[int]]:
    high = tables["high"]
    razz = tables["razz"]
    soko = tables["soko"]
    assert isinstance(high, dict) and isinstance(razz, dict) and isinstance(soko, dict)
    return {
        "high.keys": array("q", high),
        "high.values": array("i", high.values()),
        "razz.values": array("i", (razz[k] for k in high)),
        "soko.keys": array("q", soko),
        "soko.values": array("i", soko.values()),
        "flush": array("i", tables["flush"]),
    }


def encode(tables: dict[str, dict[int, int] | list[int]]) -> bytes:
    """The bytes of _tables.bin for the given tables."""
    parts = [_DATA_MAGIC]
    for name, values in _arrays(tables).items():
        if sys.byteorder == "big":
            values.byteswap()
        parts.append(struct.pack("<B", len(name)) + name.encode())
        parts.append(struct.pack("<cQ", values.typecode.encode(), len(values)))
        parts.append(values.tobytes())
    return zlib.compress(b"".join(parts), 9)


def decode(blob: bytes) -> dict[str, array[int]]:
    """The named arrays of a _tables.bin file."""
    raw = zlib.decompress(blob)
    if not raw.startswith(_DATA_MAGIC):
        raise ValueError(f"{DATA_FILE} is not an evaluator table file of this version")
    pos = len(_DATA_MAGIC)
    arrays: dict[str, array[int]] = {}
    while pos < len(raw):
        (size,) = struct.unpack_from("<B", raw, pos)
        name = raw[pos + 1 : pos + 1 + size].decode()
        pos += 1 + size
        code, length = struct.unpack_from("<cQ", raw, pos)
        pos += struct.calcsize("<cQ")
        values = array(code.decode())
        end = pos + values.itemsize * length
        values.frombytes(raw[pos:end])
        pos = end
        if sys.byteorder == "big":
            values.byteswap()
        arrays[name] = values
    return arrays


def tables_from(arrays: dict[str, array[int]]) -> dict[str, dict[int, int] | list[int]]:
    """The tables (as :func:`build_all` gives them) from decoded arrays."""
    return {
        "high": dict(zip(arrays["high.keys"], arrays["high.values"], strict=True)),
        "razz": dict(zip(arrays["high.keys"], arrays["razz.values"], strict=True)),
        "soko": dict(zip(arrays["soko.keys"], arrays["soko.values"], strict=True)),
        "flush": arrays["flush"].tolist(),
    }


def write_data_file() -> None:
    DATA_FILE.write_bytes(encode(build_all()))


def _load() -> tuple[dict[int, int], dict[int, int], list[int]]:
    try:
        arrays = decode(DATA_FILE.read_bytes())
        # one int object per distinct strength: a smaller table stays in the processor's cache
        shared: dict[int, int] = {}
        high = {
            k: shared.setdefault(v, v)
            for k, v in zip(arrays["high.keys"], arrays["high.values"], strict=True)
        }
        soko = {
            k: shared.setdefault(v, v)
            for k, v in zip(arrays["soko.keys"], arrays["soko.values"], strict=True)
        }
        return high, soko, arrays["flush"].tolist()
    except (OSError, ValueError, KeyError, zlib.error, struct.error):
        return _build_high(), _build_soko(), _build_flush()


HIGH_TABLE, SOKO_TABLE, FLUSH_TABLE = _load()
"""Rank part of a card-key sum (``key >> 16``) -> strength ignoring suits: high (5-7 cards, flushes
aside) and Sökö (5 cards, four-straights included, suited hands aside); and the strength of the
best flush or straight flush by a suit's 13-bit rank mask (0 under five cards)."""


@cache
def razz_table() -> dict[int, int]:
    """Rank part of a card-key sum -> razz strength (5-7 cards), loaded on first use."""
    try:
        arrays = decode(DATA_FILE.read_bytes())
        return dict(zip(arrays["high.keys"], arrays["razz.values"], strict=True))
    except (OSError, ValueError, KeyError, zlib.error, struct.error):
        return _build_razz()


if __name__ == "__main__":
    write_data_file()
    print(f"wrote {DATA_FILE}")
