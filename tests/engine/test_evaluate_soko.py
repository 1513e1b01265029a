"""Sökö (Canadian stud): one test per sentence of docs/rules.md §6 about its ranking."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import DECK, Card, HandValue, evaluate_high, evaluate_soko, format_cards
from engine.evaluate import CATEGORIES


def soko(text: str) -> HandValue:
    return evaluate_soko(text)


# "high card < one pair < four-straight < four-flush < two pair < three of a kind < straight <
#  flush < full house < four of a kind < straight flush (the royal flush is the best straight
#  flush)."
LADDER = [
    ("high-card", "Ah Qd 9c 6s 2h"),
    ("pair", "Ah Ad Kc 9s 2h"),
    ("four-straight", "5h 6d 7c 8s Kh"),
    ("four-flush", "2h 5h 7h 9h Kc"),
    ("two-pair", "3h 3d 2c 2s 4h"),
    ("three-of-a-kind", "2h 2d 2c 4s 7h"),
    ("straight", "Ah 2d 3c 4s 5h"),
    ("flush", "2h 3h 4h 5h 7h"),
    ("full-house", "2h 2d 2c 3s 3h"),
    ("four-of-a-kind", "2h 2d 2c 2s 3h"),
    ("straight-flush", "Ah 2h 3h 4h 5h"),
]


def test_the_ladder_of_categories() -> None:
    values = [soko(hand) for _, hand in LADDER]
    assert [v.category for v in values] == [category for category, _ in LADDER]
    for worse, better in itertools.pairwise(values):
        assert worse < better, (worse, better)
    # the best of a lower category loses to the worst of the next one
    assert soko("Ah Kd Qc Ts 9h") < soko("2h 2d 3c 4s 6h")  # best high card < worst pair
    assert soko("Ah Ad Kc Qs Th") < soko("Ah 2d 3c 4s 7h")  # best pair < worst four-straight
    assert soko("Jh Qd Kc As Ah") < soko("2h 3h 4h 6h 2c")  # best four-straight < worst four-flush
    assert soko("Ah Kh Qh Jh Ac") < soko("2h 2d 3c 3s 4h")  # best four-flush < worst two pair


def test_the_royal_flush_is_the_best_straight_flush() -> None:
    royal = soko("Ah Kh Qh Jh Th")
    assert royal.category == "straight-flush" and royal.name() == "Royal flush"
    assert royal.name("it") == "Scala reale"
    assert royal > soko("Kh Qh Jh Th 9h") > soko("5s 4s 3s 2s As")


# "A four-straight is four cards of consecutive rank plus an odd card;"
def test_four_straight_is_four_consecutive_ranks_plus_an_odd_card() -> None:
    value = soko("9c Td Jh Qs 3c")
    assert value.category == "four-straight"
    assert format_cards(value.cards) == "Qs Jh Td 9c 3c"
    assert value.name() == "Four-straight, queen high"
    assert value.name("it") == "Scala di quattro alla donna"
    assert soko("9c Td Jh Ks 3c").category == "high-card"  # a gap: not four in a row


# "aces play high or low (A-2-3-4 and J-Q-K-A count; K-A-2-3 does not wrap)."
def test_aces_play_high_or_low_without_wrapping() -> None:
    low = soko("Ac 2d 3h 4s 9c")
    assert low.category == "four-straight"
    assert format_cards(low.cards) == "4s 3h 2d Ac 9c"
    assert low.name() == "Four-straight, four high"
    high = soko("Jc Qd Kh As 9c")
    assert high.category == "four-straight" and high.name() == "Four-straight, ace high"
    assert soko("Kc Ad 2h 3s 9c").category == "high-card"
    assert soko("Qc Kd Ah 2s 9c").category == "high-card"
    # A-2-3-4 is the lowest four-straight, J-Q-K-A the highest
    assert low < soko("2c 3d 4h 5s 9c") < high
    assert soko("Ac 2d 3h 4s Kc") < soko("2c 3d 4h 5s 7c")


# "A four-flush is four cards of one suit plus an odd card."
def test_four_flush_is_four_of_one_suit_plus_an_odd_card() -> None:
    value = soko("Kh Th 7h 2h 2c")
    assert value.category == "four-flush"
    assert format_cards(value.cards) == "Kh Th 7h 2h 2c"
    assert value.name() == "Four-flush, king high"
    assert value.name("it") == "Colore di quattro al re"
    assert soko("Kh Th 7h 2d 2c").category == "pair"  # three of a suit is nothing


# "Four suited cards in sequence count as a four-flush, the higher of the two."
def test_four_suited_cards_in_sequence_are_a_four_flush() -> None:
    value = soko("9h Th Jh Qh 2c")
    assert value.category == "four-flush"
    assert value.name() == "Four-flush, queen high"
    assert value > soko("Jc Qd Kh As 2c")  # better than any four-straight
    assert value < soko("2c 2d 3h 3s 4c")


# "A hand that is both a pair and a four-card hand plays as the four-card hand."
def test_a_pair_that_is_also_a_four_card_hand_plays_as_the_four_card_hand() -> None:
    straight_pair = soko("9c Td Jh Qs Qc")
    assert straight_pair.category == "four-straight"
    assert evaluate_high("9c Td Jh Qs Qc").category == "pair"
    assert format_cards(straight_pair.cards) == "Qs Jh Td 9c Qc"
    flush_pair = soko("Kh Th 7h 2h Kc")
    assert flush_pair.category == "four-flush"
    assert format_cards(flush_pair.cards) == "Kh Th 7h 2h Kc"
    assert soko("Ac Ad Kh Qs 2c") < straight_pair  # a pair of aces loses to it


# "Ties: compare the four-card part from its highest card down, then the odd card."
@pytest.mark.parametrize(
    ("better", "worse"),
    [
        # four-flush: the four-card part from its highest card down
        ("Ah 5h 4h 2h 7c", "Kh Qh Jh 9h Ac"),
        ("Kh Qh 8h 2h 3c", "Kh Qh 7h 6h Ac"),
        ("Kh Qh 8h 3h 2c", "Kh Qh 8h 2h Ac"),
        # then the odd card
        ("Kh Qh 8h 3h 9c", "Ks Qs 8s 3s 7c"),
        ("Kh Qh 8h 3h Ac", "Ks Qs 8s 3s Kc"),
        # four-straight: the top of the four-card part, then the odd card
        ("6c 7d 8h 9s 2c", "5c 6d 7h 8s Ac"),
        ("5c 6d 7h 8s Kc", "5h 6s 7d 8c Qc"),
        ("Jc Qd Kh As 9c", "Tc Jd Qh Ks 8c"),
        # the odd card of a paired four-straight is its paired card
        ("5c 6d 7h 8s 8c", "5h 6s 7d 8c 7c"),
    ],
)
def test_ties_compare_the_four_card_part_then_the_odd_card(better: str, worse: str) -> None:
    assert soko(better) > soko(worse)
    assert soko(better).category == soko(worse).category


# "Equal hands split."
def test_equal_hands_compare_equal() -> None:
    assert soko("Kh Qh 8h 3h 9c") == soko("Ks Qs 8s 3s 9d")
    assert soko("5c 6d 7h 8s Kc") == soko("5h 6s 7d 8c Kd")
    assert soko("Ac 2d 3h 4s Kc") == soko("Ad 2c 3s 4h Kh")
    assert soko("2h 5h 7h 9h Kc") == soko("2d 5d 7d 9d Ks")


def test_made_hands_rank_as_in_high() -> None:
    for hand in ("3h 3d 2c 2s 4h", "Ah 2d 3c 4s 5h", "2h 2d 2c 3s 3h", "Ah Kh Qh Jh Th"):
        assert soko(hand).strength == evaluate_high(hand).strength
    # a straight beats a four-flush even when four of its cards are suited
    assert soko("5h 6h 7h 8h 9c").category == "straight"
    assert soko("5h 6h 7h 8h 9c") > soko("Ah Kh Qh Jh 2c")


def test_soko_names_in_finnish_english_and_italian() -> None:
    cases = [
        ("Jh Qd Kc As 2s", "Neljän suora, ässä korkein", "Four-straight, ace high",
         "Scala di quattro all'asso"),
        ("Kh Th 7h 2h 2c", "Neljän väri, kuningas korkein", "Four-flush, king high",
         "Colore di quattro al re"),
        ("As Ad 7c 7h Kd", "Kaksi paria, ässät ja seiskat", "Two pair, aces and sevens",
         "Doppia coppia, assi e sette"),
        ("6s 6d Ac 9h 4d", "Kutospari", "Pair of sixes", "Coppia di sei"),
        ("Ah Kh Qh Jh Th", "Kuningasvärisuora", "Royal flush", "Scala reale"),
    ]
    for hand, fi, en, it in cases:
        value = soko(hand)
        assert (value.name("fi"), value.name("en"), value.name("it")) == (fi, en, it)


@settings(max_examples=400, deadline=None)
@given(hand=st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True))
def test_soko_only_adds_two_categories_between_pair_and_two_pair(hand: list[Card]) -> None:
    high, value = evaluate_high(hand), evaluate_soko(hand)
    if CATEGORIES.index(high.category) >= CATEGORIES.index("two-pair"):
        assert value.strength == high.strength and value.category == high.category
    else:
        assert value.category in ("high-card", "pair", "four-straight", "four-flush")
        assert value.strength >= high.strength
        if value.category in ("high-card", "pair"):
            assert value.strength == high.strength
    assert sorted(value.cards) == sorted(hand)  # all five cards play
