"""Every one of the 2,598,960 five-card hands, through the batch API; the counts are derived in
docs/evaluation.md. Also: batch against scalar on a large random sample, and the shipped tables
against a fresh computation."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from engine import (
    DECK,
    NO_LOW,
    evaluate_high,
    evaluate_high_batch,
    evaluate_low,
    evaluate_low8,
    evaluate_low8_batch,
    evaluate_low_batch,
    evaluate_soko,
    evaluate_soko_batch,
    high_strength,
    high_strength7,
    low8_strength,
    low8_strength7,
    low_strength,
    soko_strength,
)
from engine import _tables as tables
from engine.evaluate import CATEGORIES

ALL_HANDS = comb(52, 5)
Hands = npt.NDArray[np.int8]


@pytest.fixture(scope="module")
def every_hand() -> Hands:
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
        dtype=np.int8,
        count=ALL_HANDS * 5,
    )
    return flat.reshape(ALL_HANDS, 5)


def category_counts(strengths: npt.NDArray[np.int32]) -> dict[str, int]:
    counts = np.bincount(strengths >> 20, minlength=len(CATEGORIES))
    return {name: int(counts[code]) for code, name in enumerate(CATEGORIES) if counts[code]}


def test_high_category_counts(every_hand: Hands) -> None:
    strengths = evaluate_high_batch(every_hand)
    assert category_counts(strengths) == {
        "straight-flush": 40,
        "four-of-a-kind": 624,
        "full-house": 3_744,
        "flush": 5_108,
        "straight": 10_200,
        "three-of-a-kind": 54_912,
        "two-pair": 123_552,
        "pair": 1_098_240,
        "high-card": 1_302_540,
    }
    assert len(np.unique(strengths)) == 7_462  # the distinct five-card high hands


def test_soko_category_counts(every_hand: Hands) -> None:
    strengths = evaluate_soko_batch(every_hand)
    four_flush = 4 * comb(13, 4) * 39 - 10 * 4 * 5 * 3  # exactly four of a suit, less straights
    paired_four_straight = 11 * 4 * (6 * 4**3 - 4 * 3)  # run, paired rank, suits (no four-flush)
    unpaired_four_straight = 79 * (4**5 - 4 - 4 * 5 * 3)  # 79 rank sets, suits without (4-)flush
    paired_four_flush = 13 * comb(12, 3) * 4 * 3
    expected = {
        "straight-flush": 40,
        "four-of-a-kind": 624,
        "full-house": 3_744,
        "flush": 5_108,
        "straight": 10_200,
        "three-of-a-kind": 54_912,
        "two-pair": 123_552,
        "four-flush": four_flush,
        "four-straight": paired_four_straight + unpaired_four_straight,
        "pair": 1_098_240 - paired_four_straight - paired_four_flush,
        "high-card": 1_302_540 - unpaired_four_straight - (four_flush - paired_four_flush),
    }
    assert expected["four-flush"] == 110_940
    assert expected["four-straight"] == 92_208
    assert expected["pair"] == 1_047_552
    assert expected["high-card"] == 1_150_080
    assert sum(expected.values()) == ALL_HANDS
    assert category_counts(strengths) == expected


def test_low8_counts(every_hand: Hands) -> None:
    strengths = evaluate_low8_batch(every_hand)
    qualifying = strengths[strengths != NO_LOW]
    assert len(qualifying) == comb(8, 5) * 4**5 == 57_344
    assert len(np.unique(qualifying)) == comb(8, 5) == 56


def test_razz_counts(every_hand: Hands) -> None:
    strengths = evaluate_low_batch(every_hand)
    assert int((strengths >> 20 == 15).sum()) == comb(13, 5) * 4**5  # unpaired: 1,317,888
    # every five-card rank multiset (at most four of a rank) is a different razz value
    assert len(np.unique(strengths)) == comb(17, 5) - 13 == 6_175


@pytest.mark.slow
def test_batch_equals_scalar_on_every_five_card_hand(every_hand: Hands) -> None:
    for start in range(0, ALL_HANDS, 200_000):  # in slices: 2.6 million lists would take 250 MB
        part = every_hand[start : start + 200_000]
        rows = part.tolist()
        assert evaluate_high_batch(part).tolist() == list(map(high_strength, rows))
        assert evaluate_soko_batch(part).tolist() == list(map(soko_strength, rows))
        assert evaluate_low8_batch(part).tolist() == list(map(low8_strength, rows))


def test_batch_equals_scalar_on_a_large_random_sample() -> None:
    rng = np.random.default_rng(2026)
    for size in (5, 6, 7):
        hands = np.argsort(rng.random((10_000, 52)), axis=1)[:, :size]
        rows = hands.tolist()
        high = evaluate_high_batch(hands).tolist()
        low8 = evaluate_low8_batch(hands).tolist()
        razz = evaluate_low_batch(hands).tolist()
        assert high == [high_strength(r) for r in rows]
        assert low8 == [low8_strength(r) for r in rows]
        assert razz == [low_strength(r) for r in rows]
        if size == 7:
            assert high == [high_strength7(r) for r in rows]
            assert low8 == [low8_strength7(r) for r in rows]
        if size == 5:
            assert evaluate_soko_batch(hands).tolist() == [soko_strength(r) for r in rows]
        for row, h, lo, rz in list(zip(rows, high, low8, razz, strict=True))[:500]:
            cards = [DECK[i] for i in row]
            assert evaluate_high(cards).strength == h
            low = evaluate_low8(cards)
            assert (NO_LOW if low is None else low.strength) == lo
            assert evaluate_low(cards).strength == rz
            if size == 5:
                assert evaluate_soko(cards).strength == soko_strength(row)


def test_shipped_tables_equal_a_fresh_computation() -> None:
    fresh = tables.build_all()
    shipped = tables.tables_from(tables.decode(tables.DATA_FILE.read_bytes()))
    assert shipped == fresh, "run `python -m engine._tables` to rebuild engine/_tables.bin"
    assert fresh["high"] == tables.HIGH_TABLE and fresh["soko"] == tables.SOKO_TABLE
    assert fresh["flush"] == tables.FLUSH_TABLE and fresh["razz"] == tables.razz_table()
    assert len(fresh["high"]) == 6_175 + 18_395 + 49_205  # rank multisets of 5, 6 and 7 cards
