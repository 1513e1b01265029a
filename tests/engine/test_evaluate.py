"""Hand evaluation: high, 8-or-better low, razz, exposed hands, names, the value type, errors."""

from __future__ import annotations

import doctest
import importlib
import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import (
    DECK,
    NO_LOW,
    Card,
    EngineError,
    EvaluationError,
    HandValue,
    bring_in_order,
    evaluate_exposed,
    evaluate_high,
    evaluate_high_batch,
    evaluate_low,
    evaluate_low8,
    evaluate_low8_batch,
    evaluate_low_batch,
    evaluate_soko,
    evaluate_soko_batch,
    format_cards,
    high_strength,
    high_strength7,
    low8_strength,
    low8_strength7,
    low_strength,
    parse_cards,
    soko_strength,
)
from engine.evaluate import CATEGORIES, category_name


def cards_text(value: HandValue) -> str:
    return format_cards(value.cards)


# --- high ------------------------------------------------------------------------------------

HIGH_EXAMPLES = [
    # hand, category, five cards in reading order, English name, Italian name
    ("As Ks Qs Js Ts 2c 3d", "straight-flush", "As Ks Qs Js Ts", "Royal flush", "Scala reale"),
    ("9h 8h 7h 6h 5h 9c 9d", "straight-flush", "9h 8h 7h 6h 5h", "Straight flush, nine high",
     "Scala colore al nove"),
    ("5d 4d 3d 2d Ad Kd Kc", "straight-flush", "5d 4d 3d 2d Ad", "Straight flush, five high",
     "Scala colore al cinque"),
    ("Jc Jd Jh Js 2c 3c Kd", "four-of-a-kind", "Js Jh Jd Jc Kd", "Four of a kind, jacks",
     "Poker di jack"),
    ("Kh Kd Ks 9c 9h 2d 3s", "full-house", "Ks Kh Kd 9h 9c", "Full house, kings over nines",
     "Full di re con nove"),
    ("8h 8d 8s 5c 5h 5d As", "full-house", "8s 8h 8d 5h 5d", "Full house, eights over fives",
     "Full di otto con cinque"),
    ("Ah Jh 9h 4h 2h Ks Kd", "flush", "Ah Jh 9h 4h 2h", "Flush, ace high", "Colore all'asso"),
    ("Qh Jh 9h 4h 2h 3h 5c", "flush", "Qh Jh 9h 4h 3h", "Flush, queen high", "Colore alla donna"),
    ("Tc 9d 8h 7s 6c 6d 6h", "straight", "Tc 9d 8h 7s 6h", "Straight, ten high", "Scala al dieci"),
    ("Ac 2d 3h 4s 5c Kd Kh", "straight", "5c 4s 3h 2d Ac", "Straight, five high",
     "Scala al cinque"),
    ("Ac Kd Qh Js Tc", "straight", "Ac Kd Qh Js Tc", "Straight, ace high", "Scala all'asso"),
    ("7c 7d 7h Ks 2c 3d 9h", "three-of-a-kind", "7h 7d 7c Ks 9h", "Three of a kind, sevens",
     "Tris di sette"),
    ("As Ad 7c 7h Kd 2s 3c", "two-pair", "As Ad 7h 7c Kd", "Two pair, aces and sevens",
     "Doppia coppia, assi e sette"),
    ("Qs Qd 7c 7h 3d 3s 2c", "two-pair", "Qs Qd 7h 7c 3s", "Two pair, queens and sevens",
     "Doppia coppia, donne e sette"),
    ("6s 6d Ac 9h 4d 3s 2c", "pair", "6s 6d Ac 9h 4d", "Pair of sixes", "Coppia di sei"),
    ("Ks Jd 9c 7h 4d 3s 2c", "high-card", "Ks Jd 9c 7h 4d", "King high", "Carta alta, re"),
]


@pytest.mark.parametrize(("hand", "category", "played", "en", "it"), HIGH_EXAMPLES)
def test_high_category_cards_and_names(
    hand: str, category: str, played: str, en: str, it: str
) -> None:
    value = evaluate_high(hand)
    assert value.category == category
    assert cards_text(value) == played
    assert value.name() == en and str(value) == en
    assert value.name("it") == it


def test_high_categories_are_ordered() -> None:
    order = [evaluate_high(h) for h, *_ in reversed(HIGH_EXAMPLES)]
    codes = [CATEGORIES.index(v.category) for v in order]
    assert codes == sorted(codes)
    for worse in order:
        for better in order:
            if CATEGORIES.index(worse.category) < CATEGORIES.index(better.category):
                assert worse < better


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("As Ad Kc 4h 3d", "As Ad Qc Jh Td"),  # kicker decides
        ("As Ad Kc 4h 3d", "Ks Kd Ac Qh Jd"),  # pair rank before kickers
        ("Ks Kd 2c 2h 3d", "Qs Qd Jc Jh Ad"),  # high pair first
        ("Ks Kd 5c 5h 3d", "Ks Kd 4c 4h Ad"),  # then low pair
        ("Ks Kd 5c 5h 7d", "Kh Kc 5d 5s 6d"),  # then kicker
        ("6c 5d 4h 3s 2c", "5c 4d 3h 2s Ac"),  # six-high straight over the wheel
        ("2c 2d 2h 3s 3c", "As Kd Qh Js 9s"),  # full house over ace-high... anything lower
        ("Ah 9h 8h 7h 6h", "Kh Qh Jh Th 8h"),  # flush: ace high first
        ("Ah 9h 8h 7h 6h", "Ad 9d 8d 7d 5d"),  # flush: down to the last card
        ("3s 3d 3h 3c 2c", "As Ad Ah Kc Kd"),  # any quads over any full house
        ("6c 5c 4c 3c 2c", "5d 4d 3d 2d Ad"),  # straight flushes by top card
    ],
)
def test_high_comparisons(better: str, worse: str) -> None:
    assert evaluate_high(better) > evaluate_high(worse)
    assert evaluate_high(worse) < evaluate_high(better)


def test_equal_hands_of_other_suits_compare_equal() -> None:
    a = evaluate_high("As Kd Qh Js 9s")
    b = evaluate_high("Ac Kc Qd Jh 9d")
    assert a == b and not a < b and not a > b and hash(a) == hash(b)
    assert evaluate_high("Ah Kh Qh Jh 9h") == evaluate_high("As Ks Qs Js 9s")


def test_best_five_of_seven() -> None:
    # a flush and a straight in the same seven cards: the flush plays
    value = evaluate_high("9h 8d 7h 6h 5c 2h Kh")
    assert value.category == "flush" and cards_text(value) == "Kh 9h 7h 6h 2h"
    # two trips make a full house of the higher three over a pair of the lower
    value = evaluate_high("9h 9d 9c 4h 4d 4s Ac")
    assert value.name() == "Full house, nines over fours"
    # three pairs: the best two and the best remaining card
    value = evaluate_high("9h 9d 4c 4h 3d 3s 2c")
    assert cards_text(value) == "9h 9d 4h 4c 3s"
    # quads with a pair: the kicker is the highest other card
    assert cards_text(evaluate_high("5h 5d 5c 5s Kd Kc 7h")) == "5s 5h 5d 5c Kd"
    # six cards too
    assert evaluate_high("Ah Kh Qh Jh Th 9h").name() == "Royal flush"


def test_the_playing_cards_come_from_the_hand() -> None:
    for text in ("Kh Kd Ks 9c 9h 2d 3s", "As Ad 7c 7h Kd 2s 3c", "5d 4d 3d 2d Ad Kd Kc"):
        hand = set(parse_cards(text))
        value = evaluate_high(text)
        assert len(value.cards) == 5 and set(value.cards) <= hand


# --- 8-or-better low --------------------------------------------------------------------------


def test_low8_reads_highest_first_and_names() -> None:
    value = evaluate_low8("8h 6d 4c 2s Ah Kd Kc")
    assert value is not None
    assert value.category == "low"
    assert cards_text(value) == "8h 6d 4c 2s Ah"
    assert value.name() == "8-6-4-2-A low"
    assert value.name("it") == "Basso 8-6-4-2-A"


def test_low8_straights_and_flushes_do_not_spoil_it() -> None:
    wheel = evaluate_low8("5h 4h 3h 2h Ah")
    assert wheel is not None and wheel.name() == "5-4-3-2-A low"
    assert wheel == evaluate_low8("5c 4d 3h 2s Ad")


def test_low8_qualifier_and_pairs() -> None:
    assert evaluate_low8("9h 7d 5c 3s 2h") is None  # a nine is not a low card
    assert evaluate_low8("8h 8d 5c 3s 2h") is None  # four distinct low ranks only
    assert evaluate_low8("Ah Ad 2c 2s 3h 3d 4c") is None
    value = evaluate_low8("Ah Ad 2c 3s 4h 5d 5c")  # pairs are skipped when seven cards allow
    assert value is not None and value.name() == "5-4-3-2-A low"
    assert value.strength == low8_strength([c.index for c in parse_cards("Ah 2c 3s 4h 5d")])


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("8c 6d 4h 2s Ad", "8c 6d 5h 2s Ad"),
        ("7c 6d 5h 4s 3d", "8c 4d 3h 2s Ad"),
        ("7c 5d 4h 3s 2d", "7c 6d 4h 3s 2d"),
    ],
)
def test_low8_compares_from_the_top(better: str, worse: str) -> None:
    b, w = evaluate_low8(better), evaluate_low8(worse)
    assert b is not None and w is not None
    assert b > w


def test_low8_the_six_low_order() -> None:
    six = evaluate_low8("6c 5d 4h 3s Ad")
    six_deuce = evaluate_low8("6c 5d 4h 3s 2d")
    wheel = evaluate_low8("5c 4d 3h 2s Ad")
    assert six is not None and six_deuce is not None and wheel is not None
    assert wheel > six > six_deuce


def test_low8_strength_of_no_low_is_below_every_low() -> None:
    assert low8_strength([c.index for c in parse_cards("Kh Qd Jc 9s 9h")]) == NO_LOW == -1
    worst = evaluate_low8("8c 7d 6h 5s 4d")
    assert worst is not None and worst.strength > NO_LOW


# --- razz (ace-to-five low, no qualifier) -----------------------------------------------------


def test_razz_low_names_and_order() -> None:
    values = [
        evaluate_low("5c 4d 3h 2s Ad"),  # the wheel is the nuts
        evaluate_low("6c 4d 3h 2s Ad"),
        evaluate_low("Kh Qd 7c 3s 2h"),
        evaluate_low("Ah Ad 2c 3s 4h"),  # any pair is worse than any unpaired hand
        evaluate_low("2h 2d 3c 4s 5h"),
        evaluate_low("Kh Kd Qc Js Th"),
        evaluate_low("Ah Ad 2c 2s 3h"),  # two pair is worse than a pair
        evaluate_low("Ah Ad Ac 2s 3h"),
        evaluate_low("Ah Ad Ac 2s 2h"),
        evaluate_low("Ah Ad Ac As 2h"),
    ]
    for better, worse in itertools.pairwise(values):
        assert better > worse, (better, worse)
    assert [v.category for v in values] == [
        "low", "low", "low", "pair", "pair", "pair", "two-pair", "three-of-a-kind",
        "full-house", "four-of-a-kind",
    ]
    assert values[0].name() == "5-4-3-2-A low"
    assert values[3].name() == "Pair of aces" and values[3].name("it") == "Coppia di assi"
    assert values[6].name() == "Two pair, deuces and aces"


def test_razz_best_five_of_seven() -> None:
    value = evaluate_low("Kh Qd 7c 3s 2h 7d Kc")
    assert value.name() == "K-Q-7-3-2 low" and cards_text(value) == "Kh Qd 7d 3s 2h"
    value = evaluate_low("Ah Ad 2c 2s 3h 3d 4c")
    assert value.category == "pair" and cards_text(value) == "Ah Ad 4c 3h 2s"
    value = evaluate_low("Ah Ad Ac 2c 2s 2h 3d")
    assert value.category == "two-pair" and value.name() == "Two pair, deuces and aces"
    # flushes and straights mean nothing in razz
    assert evaluate_low("5h 4h 3h 2h Ah").name() == "5-4-3-2-A low"


# --- exposed hands (who acts first) -----------------------------------------------------------


@pytest.mark.parametrize("game", ["five-card-stud", "seven-card-stud", "seven-card-stud-hilo"])
def test_exposed_high_ranks_and_ignores_straights_and_flushes(game: str) -> None:
    def ex(text: str) -> HandValue:
        return evaluate_exposed(text, game)

    ordered = [
        ex("7h 4d 3c 2s"),
        ex("Ah 4d 3c 2s"),
        ex("Ah Kd 3c 2s"),
        ex("2h 2d 3c 4s"),
        ex("Ah Ad 3c 2s"),
        ex("Ah Ad Kc 2s"),
        ex("3h 3d 2c 2s"),
        ex("Ah Ad Kc Ks"),
        ex("2h 2d 2c 3s"),
        ex("Ah Ad Ac 2s"),
        ex("2h 2d 2c 2s"),
    ]
    for worse, better in itertools.pairwise(ordered):
        assert worse < better, (worse, better)
    # a four-flush or four-straight showing counts for nothing outside Sökö
    assert ex("9h Th Jh Qh") == ex("9c Td Jh Qs")
    assert ex("9h Th Jh Qh").category == "high-card"
    assert ex("Qh 9c").name() == "Queen high"
    assert ex("Kh Kd").name("it") == "Coppia di re"


def test_exposed_ties_compare_equal_and_suits_do_not_matter() -> None:
    a = evaluate_exposed("Kh Kd 7c", "seven-card-stud")
    b = evaluate_exposed("Ks Kc 7h", "seven-card-stud")
    assert a == b
    assert evaluate_exposed("As", "five-card-stud") == evaluate_exposed("Ac", "five-card-stud")


def test_exposed_razz_lowest_is_best() -> None:
    def ex(text: str) -> HandValue:
        return evaluate_exposed(text, "razz")

    ordered = [ex("Kh Qd"), ex("8h 7d"), ex("8h 2d"), ex("3h 2d"), ex("Ah 2d")]
    for worse, better in itertools.pairwise(ordered):
        assert worse < better
    assert ex("2h 2d") < ex("Kh Qd")  # a pair is worse than any two unpaired cards
    assert ex("7h 4d 2c").name() == "7-4-2 low" and ex("7h 4d 2c").category == "low"
    assert ex("5h 5d 4c 4s") < ex("Kh Kd Qc Js")  # two pair is worse than one pair
    assert ex("Ah Ad") > ex("2h 2d")  # aces are low
    assert ex("7h 4d") == ex("7s 4c")


def test_exposed_soko_four_card_hands_count_on_the_last_round() -> None:
    four_flush = evaluate_exposed("9h Th Jh 2h", "soko")
    four_straight = evaluate_exposed("9h Tc Jd Qs", "soko")
    pair = evaluate_exposed("Ah Ad Kc Qs", "soko")
    two_pair = evaluate_exposed("3h 3d 2c 2s", "soko")
    assert four_flush.category == "four-flush" and four_straight.category == "four-straight"
    assert pair < four_straight < four_flush < two_pair
    assert four_flush.name() == "Four-flush, jack high"
    assert four_flush.name("it") == "Colore di quattro al jack"
    assert evaluate_exposed("Ah 2d 3c 4s", "soko").name() == "Four-straight, four high"
    assert evaluate_exposed("Kh Ad 2c 3s", "soko").category == "high-card"  # no wrap
    # four suited cards in sequence are a four-flush
    assert evaluate_exposed("9h Th Jh Qh", "soko").category == "four-flush"
    # before the last round they count for nothing
    early = evaluate_exposed("9h Th Jh 2h", "soko", last_round=False)
    assert early.category == "high-card"
    assert evaluate_exposed("9h Th Jh", "soko").category == "high-card"
    assert evaluate_exposed("9h Th Jh 2h", "soko", last_round=True) == four_flush


def test_exposed_values_of_different_games_do_not_compare() -> None:
    with pytest.raises(TypeError):
        _ = evaluate_exposed("Kh", "razz") < evaluate_exposed("Kh", "seven-card-stud")
    assert evaluate_exposed("Kh", "razz") != evaluate_exposed("Kh", "seven-card-stud")


def test_exposed_rejects_bad_games_and_counts() -> None:
    with pytest.raises(EvaluationError, match="'holdem' is not a game: games are five-card-stud"):
        evaluate_exposed("Kh", "holdem")
    with pytest.raises(EvaluationError, match="1 to 4 cards, got 5"):
        evaluate_exposed("Kh Kd Ks Kc 2h", "seven-card-stud")
    with pytest.raises(EvaluationError, match="got 0"):
        evaluate_exposed([], "seven-card-stud")


# --- bring-in order --------------------------------------------------------------------------


def test_bring_in_order_follows_rules_section_3() -> None:
    def forced(text: str, game: str, **kw: bool) -> str:
        return str(max(parse_cards(text), key=lambda c: bring_in_order(c, game, **kw)))

    assert forced("3h 2s 2c Ad", "seven-card-stud") == "2c"  # lowest, clubs lowest
    assert forced("3h Ad 4c", "seven-card-stud-hilo") == "3h"  # aces are high
    assert forced("Kh Ks Ad 2c", "razz") == "Ks"  # highest, aces low, spades highest
    assert forced("Kh Qs", "razz") == "Kh"
    assert forced("Kh Ks 9d", "soko") == "Ks"  # no bring-in: the highest upcard opens
    assert forced("Kh Ks 9d", "soko", bring_in=True) == "9d"
    assert forced("Kh Ks 9d 9c", "five-card-stud") == "9c"


# --- input, errors, the value type ------------------------------------------------------------


def test_cards_may_be_objects_texts_or_one_string() -> None:
    expected = evaluate_high("Kh Kd Ks 9c 9h")
    assert evaluate_high(parse_cards("KhKdKs9c9h")) == expected
    assert evaluate_high(["Kh", "Kd", "Ks", "9c", "9h"]) == expected
    assert evaluate_high([Card.parse("Kh"), "Kd", "K♠", "9c", "9♥"]) == expected
    assert evaluate_high(c for c in parse_cards("Kh Kd Ks 9c 9h")) == expected


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: evaluate_high("Kh Kd Ks 9c"),
            "A high hand needs 5 to 7 cards, got 4: 'Kh Kd Ks 9c'",
        ),
        (lambda: evaluate_high("2c 3c 4c 5c 6c 7c 8c 9c"), "needs 5 to 7 cards, got 8"),
        (lambda: evaluate_low8("Ah"), "An 8-or-better low needs 5 to 7 cards, got 1"),
        (lambda: evaluate_low(""), "A razz low needs 5 to 7 cards, got 0: 'none'"),
        (lambda: evaluate_soko("Ah Kh Qh Jh Th 9h"), "A Sökö hand needs exactly 5 cards, got 6"),
    ],
)
def test_wrong_card_counts_are_refused_clearly(call: object, message: str) -> None:
    with pytest.raises(EvaluationError) as info:
        call()  # type: ignore[operator]
    assert message in str(info.value)
    assert isinstance(info.value, EngineError) and isinstance(info.value, ValueError)


def test_evaluation_errors_read_in_italian() -> None:
    with pytest.raises(EvaluationError) as info:
        evaluate_low8("Ah 2c")
    assert info.value.text("it") == "Un basso 8 o meno vuole da 5 a 7 carte, ne ha 2: 'Ah 2c'"
    assert info.value.text("en") == str(info.value)
    with pytest.raises(EvaluationError) as info:
        evaluate_exposed("Kh", "holdem")
    assert info.value.text("it").startswith("'holdem' non è un gioco: i giochi sono five-card-stud")


def test_bad_and_duplicate_cards_are_refused() -> None:
    with pytest.raises(ValueError, match=r"cannot read '1h2'"):
        evaluate_high("1h 2c 3c 4c 5c")
    with pytest.raises(ValueError, match="Ah appears twice"):
        evaluate_high("Ah Ah 2c 3c 4c")


def test_values_of_different_evaluators_do_not_compare() -> None:
    high = evaluate_high("5c 4d 3h 2s Ad")
    low = evaluate_low("5c 4d 3h 2s Ad")
    with pytest.raises(TypeError, match="cannot compare a high value with a low value"):
        _ = high < low
    assert high != low
    with pytest.raises(TypeError):
        _ = high < 3


def test_repr_evaluates_back() -> None:
    for value in (
        evaluate_high("Kh Kd Ks 9c 9h 2d 3s"),
        evaluate_low8("8h 6d 4c 2s Ah Kd Kc"),
        evaluate_low("Kh Qd 7c 3s 2h 7d Kc"),
        evaluate_soko("Kh Th 7h 2h 2c"),
        evaluate_exposed("Kh Kd", "razz"),
    ):
        assert value is not None
        again = eval(repr(value), vars(engine))
        assert again == value and again.cards == value.cards


def test_category_names_in_three_languages() -> None:
    assert category_name("full-house") == "Full house"
    assert category_name("full-house", "it") == "Full"
    assert category_name("four-flush", "fi") == "Neljän väri"
    assert category_name("four-straight", "fi") == "Neljän suora"
    for category in (*CATEGORIES, "low"):
        for lang in ("en", "it"):
            assert category_name(category, lang)


def test_every_category_has_an_english_and_italian_name() -> None:
    samples = {
        "high-card": evaluate_high("Ks Jd 9c 7h 4d"),
        "pair": evaluate_high("6s 6d Ac 9h 4d"),
        "four-straight": evaluate_soko("9s Td Jc Qh 2d"),
        "four-flush": evaluate_soko("Ks 9s 7s 2s 2d"),
        "two-pair": evaluate_high("As Ad 7c 7h Kd"),
        "three-of-a-kind": evaluate_high("7c 7d 7h Ks 2c"),
        "straight": evaluate_high("Tc 9d 8h 7s 6c"),
        "flush": evaluate_high("Ah Jh 9h 4h 2h"),
        "full-house": evaluate_high("Kh Kd Ks 9c 9h"),
        "four-of-a-kind": evaluate_high("Jc Jd Jh Js 2c"),
        "straight-flush": evaluate_high("9h 8h 7h 6h 5h"),
    }
    for category, value in samples.items():
        assert value.category == category
        en, it = value.name("en"), value.name("it")
        assert en and it and en != it
        assert "{" not in en + it and en[0].isupper() and it[0].isupper()


# --- the strength API and the batch API agree with the value API ------------------------------


def test_strength_functions_equal_value_strengths() -> None:
    rng = np.random.default_rng(7)
    for size in (5, 6, 7):
        for _ in range(300):
            idx = [int(i) for i in rng.choice(52, size, replace=False)]
            hand = [DECK[i] for i in idx]
            assert high_strength(idx) == evaluate_high(hand).strength
            low = evaluate_low8(hand)
            assert low8_strength(idx) == (NO_LOW if low is None else low.strength)
            assert low_strength(idx) == evaluate_low(hand).strength
            if size == 7:
                assert high_strength7(idx) == high_strength(idx)
                assert low8_strength7(idx) == low8_strength(idx)
            if size == 5:
                assert soko_strength(idx) == evaluate_soko(hand).strength


def test_batch_rejects_bad_arrays() -> None:
    with pytest.raises(EvaluationError, match=r"with k 5 to 7 cards, got shape \(3,\)"):
        evaluate_high_batch(np.array([1, 2, 3]))
    with pytest.raises(EvaluationError, match=r"card indices are 0\.\.51, got values from 0 to 52"):
        evaluate_low8_batch(np.array([[0, 1, 2, 3, 52]]))
    with pytest.raises(EvaluationError, match="exactly 5"):
        evaluate_soko_batch(np.zeros((2, 6), dtype=np.int8))
    with pytest.raises(EvaluationError, match="integers"):
        evaluate_low_batch(np.zeros((2, 5), dtype=float))
    assert evaluate_high_batch(np.zeros((0, 7), dtype=np.int8)).shape == (0,)


# --- properties -------------------------------------------------------------------------------

hands = st.integers(5, 7).flatmap(
    lambda n: st.lists(st.sampled_from(DECK), min_size=n, max_size=n, unique=True)
)


@settings(max_examples=300, deadline=None)
@given(hand=hands, data=st.data())
def test_value_does_not_depend_on_card_order(hand: list[Card], data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations(hand))
    assert evaluate_high(shuffled) == evaluate_high(hand)
    assert evaluate_low8(shuffled) == evaluate_low8(hand)
    assert evaluate_low(shuffled) == evaluate_low(hand)
    assert evaluate_high(shuffled).cards == evaluate_high(hand).cards
    if len(hand) == 5:
        assert evaluate_soko(shuffled) == evaluate_soko(hand)
    up = hand[:4]
    for game in ("seven-card-stud", "soko", "razz"):
        assert evaluate_exposed(data.draw(st.permutations(up)), game) == evaluate_exposed(up, game)


@settings(max_examples=200, deadline=None)
@given(hand=hands)
def test_more_cards_never_make_a_worse_hand(hand: list[Card]) -> None:
    if len(hand) > 5:
        assert evaluate_high(hand) >= evaluate_high(hand[:-1])
        assert evaluate_low(hand) >= evaluate_low(hand[:-1])
        low, fewer = evaluate_low8(hand), evaluate_low8(hand[:-1])
        assert fewer is None or (low is not None and low >= fewer)


@settings(max_examples=200, deadline=None)
@given(hand=hands)
def test_batch_equals_scalar(hand: list[Card]) -> None:
    idx = np.array([[c.index for c in hand]], dtype=np.int16)
    assert int(evaluate_high_batch(idx)[0]) == evaluate_high(hand).strength
    assert int(evaluate_low_batch(idx)[0]) == evaluate_low(hand).strength
    low = evaluate_low8(hand)
    assert int(evaluate_low8_batch(idx)[0]) == (NO_LOW if low is None else low.strength)
    if len(hand) == 5:
        assert int(evaluate_soko_batch(idx)[0]) == evaluate_soko(hand).strength


# --- the documentation's examples run ---------------------------------------------------------


def test_the_examples_of_docs_evaluation_md() -> None:
    path = Path(__file__).resolve().parents[2] / "docs" / "evaluation.md"
    result = doctest.testfile(str(path), module_relative=False)
    assert result.attempted >= 5 and result.failed == 0


@pytest.mark.parametrize("module", ["engine.evaluate", "engine.strength", "engine.batch",
                                    "engine._tables"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 or module == "engine._tables"
    assert result.failed == 0
