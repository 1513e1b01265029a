"""Splitting a pot among tied hands: whole chip units, odd chips one each in the order of the
house rule, and the reason in words."""

from __future__ import annotations

from engine.evaluate import evaluate_high, evaluate_low, evaluate_low8
from engine.showdown import split

CLOCKWISE = (3, 5, 7, 1)  # the dealer sits between seat 1 and seat 3


def test_three_way_tie_two_odd_chips_one_each_nearest_the_dealer() -> None:
    hands = {
        1: evaluate_high("As Ks Qs Js 9d"),
        5: evaluate_high("Ah Kh Qh Jh 9c"),
        7: evaluate_high("Ad Kd Qd Jd 9s"),
    }
    shares, chips = split(11, [1, 5, 7], hands, "pot", "nearest-dealer", CLOCKWISE, 1)
    assert {s.seat: s.amount for s in shares} == {5: 4, 7: 4, 1: 3}
    assert [(c.seat, c.amount) for c in chips] == [(5, 1), (7, 1)]
    assert chips[0].text() == "odd chip (1) of the pot to seat 5: nearest the dealer"
    assert chips[0].text("it") == (
        "fiche dispari (1) del piatto al posto 5: il più vicino al dealer"
    )


def test_three_way_tie_two_odd_chips_by_highest_card_by_suit() -> None:
    hands = {
        1: evaluate_high("As Ks Qs Js 9d"),
        5: evaluate_high("Ah Kh Qh Jh 9c"),
        7: evaluate_high("Ad Kd Qd Jd 9s"),
    }
    shares, chips = split(11, [1, 5, 7], hands, "pot", "high-card-suit", CLOCKWISE, 1)
    # the aces decide: A♠ (seat 1), then A♥ (seat 5)
    assert {s.seat: s.amount for s in shares} == {1: 4, 5: 4, 7: 3}
    assert [c.card and c.card.symbol for c in chips] == ["A♠", "A♥"]
    assert chips[1].text() == "odd chip (1) of the pot to seat 5: highest card by suit (A♥)"


def test_low_half_odd_chip_goes_to_the_lowest_card_by_suit() -> None:
    low1, low7 = evaluate_low8("Ad 2c 3s 4h 7d"), evaluate_low8("Ac 2h 3d 4s 7c")
    assert low1 is not None and low7 is not None
    lows = {1: low1, 7: low7}
    shares, chips = split(5, [1, 7], lows, "low", "high-card-suit", CLOCKWISE, 1, low=True)
    # both lows are 7-4-3-2-A; seat 7 holds the lowest card, the A♣
    assert {s.seat: s.amount for s in shares} == {7: 3, 1: 2}
    assert chips[0].text() == "odd chip (1) of the low half to seat 7: lowest card by suit (A♣)"


def test_razz_ties_use_the_lowest_card_too() -> None:
    lows = {3: evaluate_low("2s 3s 4s 5s 6s"), 5: evaluate_low("2c 3c 4c 5c 6c")}
    shares, chips = split(3, [3, 5], lows, "pot", "high-card-suit", CLOCKWISE, 1, low=True)
    assert {s.seat: s.amount for s in shares} == {5: 2, 3: 1}
    assert chips[0].card is not None and str(chips[0].card) == "2c"


def test_chip_units_are_never_broken() -> None:
    hands = {1: evaluate_high("As Ks Qs Js 9d"), 5: evaluate_high("Ah Kh Qh Jh 9c")}
    shares, chips = split(35, [1, 5], hands, "high", "nearest-dealer", CLOCKWISE, 5)
    assert {s.seat: s.amount for s in shares} == {5: 20, 1: 15}
    assert [(c.seat, c.amount, c.half) for c in chips] == [(5, 5, "high")]
