"""Golden hands, street by street: the pot, whose turn and the legal actions after each step.

Stakes unless said otherwise: ante 1, bring-in 2, small bet 5, big bet 10; a non-playing dealer
left of seat 1 (seat 1 is nearest the dealer).
"""

from __future__ import annotations

import pytest

from engine.hand import Hand
from engine.hand_errors import IllegalActionError, OutOfTurnError, WrongAmountError
from tests.engine.hand_helpers import act, check, deal, passive, settings

THIRD = {1: "?? ?? 3c", 2: "?? ?? Kd", 3: "?? ?? 9h"}


def test_everybody_calls_the_bring_in_and_the_bring_in_has_no_option() -> None:
    hand = Hand(settings())
    check(hand, 3, None, [])
    deal(hand, THIRD)
    check(hand, 3, 1, [("bring_in", 2), ("complete", 5)])
    act(hand, (1, "bring_in"))
    check(hand, 5, 2, [("call", 2), ("complete", 5), ("fold", 0)])
    act(hand, (2, "call"))
    check(hand, 7, 3, [("call", 2), ("complete", 5), ("fold", 0)])
    act(hand, (3, "call"))
    check(hand, 9, None, [])
    assert hand.prompt().text() == "Deal fourth street: one up to seats 1, 2, 3"
    assert hand.state.pots[0].amount == 9


def test_bring_in_completed_then_raised() -> None:
    hand = Hand(settings())
    deal(hand, THIRD)
    act(hand, (1, "complete"))
    check(hand, 8, 2, [("call", 5), ("raise", 10), ("fold", 0)])
    act(hand, (2, "raise"))
    check(hand, 18, 3, [("call", 10), ("raise", 15), ("fold", 0)])
    act(hand, (3, "call"))
    check(hand, 28, 1, [("call", 10), ("raise", 15), ("fold", 5)])
    act(hand, (1, "call"))
    check(hand, 33, None)


def test_bring_in_then_completion_reopens_for_the_bring_in() -> None:
    hand = Hand(settings())
    deal(hand, THIRD)
    act(hand, (1, "bring_in"), (2, "complete"), (3, "call"))
    check(hand, 15, 1, [("call", 5), ("raise", 10), ("fold", 2)])


def test_raise_cap_is_a_bet_and_three_raises() -> None:
    hand = Hand(settings())
    deal(hand, THIRD)
    act(hand, (1, "bring_in"), (2, "complete"), (3, "raise"), (1, "raise"))
    check(hand, 3 + 15 + 5 + 10, 2, [("call", 15), ("raise", 20), ("fold", 5)])
    act(hand, (2, "raise"))
    # completion + 3 raises: capped
    check(hand, 3 + 15 + 20 + 10, 3, [("call", 20), ("fold", 10)])
    with pytest.raises(IllegalActionError) as info:
        act(hand, (3, "raise"))
    assert str(info.value) == "Seat 3 cannot raise now: allowed are call 10 or fold"
    act(hand, (3, "call"), (1, "call"))
    check(hand, 63, None)


def test_house_rule_four_raises() -> None:
    hand = Hand(settings(max_raises=4))
    deal(hand, THIRD)
    act(hand, (1, "bring_in"), (2, "complete"), (3, "raise"), (1, "raise"), (2, "raise"))
    check(hand, 63 - 10 - 5, 3, [("call", 20), ("raise", 25), ("fold", 10)])


def test_heads_up_is_uncapped() -> None:
    hand = Hand(settings(stacks={1: 200, 2: 200}))
    deal(hand, {1: "?? ?? 3c", 2: "?? ?? Kd"})
    act(hand, (1, "complete"), (2, "raise"), (1, "raise"), (2, "raise"))
    check(hand, 2 + 20 + 15, 1, [("call", 20), ("raise", 25), ("fold", 15)])
    act(hand, (1, "raise"), (2, "raise"), (1, "raise"))
    check(hand, 2 + 35 + 30, 2, [("call", 35), ("raise", 40), ("fold", 30)])


def test_heads_up_capped_when_the_house_says_so() -> None:
    hand = Hand(settings(stacks={1: 200, 2: 200}, heads_up_uncapped=False))
    deal(hand, {1: "?? ?? 3c", 2: "?? ?? Kd"})
    act(hand, (1, "complete"), (2, "raise"), (1, "raise"), (2, "raise"))
    check(hand, 37, 1, [("call", 20), ("fold", 15)])


def test_all_in_raise_of_less_than_half_a_bet_does_not_reopen() -> None:
    # seat 3 has 10: after the ante and calling the bring-in it has 7 on fourth street
    hand = Hand(settings(stacks={1: 100, 2: 100, 3: 10}))
    deal(hand, THIRD)
    passive(hand)
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    check(hand, 9, 2, [("check", 0), ("bet", 5)])
    act(hand, (2, "bet"))
    check(hand, 14, 3, [("call", 5), ("raise", 7), ("fold", 0)])
    act(hand, (3, "raise"))  # all in for 7: 2 over the bet, less than half of 5
    assert hand.state.seat(3).all_in
    # seat 1 has not acted: it may call 7 or complete the raise to 10
    check(hand, 21, 1, [("call", 7), ("raise", 10), ("fold", 0)])
    act(hand, (1, "call"))
    # seat 2 already acted and faces only the incomplete raise: call or fold, no raise
    check(hand, 28, 2, [("call", 7), ("fold", 5)])
    act(hand, (2, "call"))
    check(hand, 30, None)


def test_raise_completed_after_a_short_all_in() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 100, 3: 10}))
    deal(hand, THIRD)
    passive(hand)
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    act(hand, (2, "bet"), (3, "raise"), (1, "raise"))
    # seat 1 completed the raise to 10: a full raise, so seat 2 may raise again
    check(hand, 31, 2, [("call", 10), ("raise", 15), ("fold", 5)])


def test_all_in_raise_of_half_a_bet_or_more_reopens() -> None:
    # seat 3 has 11: 8 on fourth street, 3 over the bet of 5 (half a bet or more)
    hand = Hand(settings(stacks={1: 100, 2: 100, 3: 11}))
    deal(hand, THIRD)
    passive(hand)
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    act(hand, (2, "bet"), (3, "raise"))
    check(hand, 22, 1, [("call", 8), ("raise", 13), ("fold", 0)])
    act(hand, (1, "call"))
    check(hand, 30, 2, [("call", 8), ("raise", 13), ("fold", 5)])
    act(hand, (2, "raise"))
    check(hand, 38, 1, [("call", 13), ("raise", 18), ("fold", 8)])


def test_short_all_in_bet_is_completed_by_the_next_player() -> None:
    # seat 2 has 5 left on fourth street and bets them all: no bet yet, so 5 is a full bet
    # of the small bet 5; with 4 left it is a bet of less than a full one (but not less than half)
    hand = Hand(settings(stacks={1: 100, 2: 7, 3: 100}))
    deal(hand, THIRD)
    passive(hand)
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    check(hand, 9, 2, [("check", 0), ("bet", 4)])
    act(hand, (2, "bet"))
    check(hand, 13, 3, [("call", 4), ("raise", 9), ("fold", 0)])


def test_tiny_all_in_bet_is_completed_to_a_full_bet() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 5, 3: 100}))
    deal(hand, THIRD)
    passive(hand)
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    act(hand, (2, "bet"))  # all in for 2: less than half a bet
    check(hand, 11, 3, [("call", 2), ("complete", 5), ("fold", 0)])
    act(hand, (3, "complete"))
    check(hand, 16, 1, [("call", 5), ("raise", 10), ("fold", 0)])


def test_bring_in_all_in_with_the_ante_forces_nobody() -> None:
    # seat 1 holds the low card but only had the ante (W 217)
    hand = Hand(settings(stacks={1: 1, 2: 100, 3: 100}))
    assert hand.state.seat(1).all_in
    deal(hand, THIRD)
    check(hand, 3, 2, [("fold", 0), ("bring_in", 2), ("complete", 5)])
    assert hand.prompt().text() == "Seat 2 (P2) acts first: fold, bring in for 2 or complete to 5"
    act(hand, (2, "bring_in"))
    check(hand, 5, 3, [("call", 2), ("complete", 5), ("fold", 0)])
    act(hand, (3, "call"))
    # seat 1 is all in: the round is over once seat 3 has called
    check(hand, 7, None)


def test_bring_in_short_stack_posts_what_it_has() -> None:
    hand = Hand(settings(stacks={1: 2, 2: 100, 3: 100}))
    deal(hand, THIRD)
    check(hand, 3, 1, [("bring_in", 1)])
    assert hand.prompt().text() == "Seat 1 (P1) brings in for 1 (all in)"
    act(hand, (1, "bring_in"))
    check(hand, 4, 2, [("call", 1), ("complete", 5), ("fold", 0)])


def test_later_streets_start_with_the_best_exposed_hand_nearest_the_dealer_on_ties() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 100, 3: 100}, dealer=2))
    deal(hand, {1: "?? ?? 3c", 2: "?? ?? Kd", 3: "?? ?? 9h"})
    passive(hand)
    deal(hand, {1: "9c", 2: "3d", 3: "3h"})
    # K-3 is the best exposed hand
    check(hand, 9, 2)
    passive(hand)
    deal(hand, {1: "Ks", 2: "9d", 3: "Kh"})
    # 9-3-K for 1 and 3 and 3-K-9 for 2: all king high nine three; nearest dealer 2 is seat 3
    check(hand, 9, 3)


def test_all_in_best_exposed_hand_is_skipped() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 3, 3: 100}))
    deal(hand, THIRD)
    act(hand, (1, "bring_in"), (2, "call"), (3, "call"))
    assert hand.state.seat(2).all_in
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    # seat 2's pair of kings is best but all in; then seat 3's nine high beats seat 1's four
    check(hand, 9, 3, [("check", 0), ("bet", 5)])


def test_open_pair_on_fourth_street_allows_the_big_bet() -> None:
    hand = Hand(settings(open_pair_double=True))
    deal(hand, THIRD)
    passive(hand)
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    check(hand, 9, 2, [("check", 0), ("bet", 5), ("bet", 10)])
    with pytest.raises(WrongAmountError) as info:
        act(hand, (2, "bet"))
    assert str(info.value) == "Say the amount to bet: bet 5 or bet 10"
    act(hand, (2, "bet", 5))
    check(hand, 14, 3, [("call", 5), ("raise", 10), ("raise", 15), ("fold", 0)])
    act(hand, (3, "raise", 15))
    # a big raise was made: the round is played in big bets
    check(hand, 29, 1, [("call", 15), ("raise", 25), ("fold", 0)])


def test_no_open_pair_no_choice() -> None:
    hand = Hand(settings(open_pair_double=True))
    deal(hand, THIRD)
    passive(hand)
    deal(hand, {1: "4c", 2: "Qh", 3: "2s"})
    check(hand, 9, 2, [("check", 0), ("bet", 5)])


def test_no_betting_when_at_most_one_player_can_bet() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 4, 3: 4}))
    deal(hand, THIRD)
    act(hand, (1, "bring_in"), (2, "complete"), (3, "call"), (1, "call"))
    assert hand.state.seat(2).all_in and hand.state.seat(3).all_in
    check(hand, 3 + 3 * 3, None)
    for cards in ({1: "4c", 2: "Kh", 3: "2s"}, {1: "5c", 2: "Qh", 3: "3s"}):
        deal(hand, cards)
        check(hand, 12, None)
    assert hand.prompt().text() == "Deal sixth street: one up to seats 1, 2, 3"


def test_out_of_turn_and_wrong_amounts_are_refused_and_change_nothing() -> None:
    hand = Hand(settings())
    deal(hand, THIRD)
    before = hand.state
    with pytest.raises(OutOfTurnError) as turn:
        act(hand, (2, "call"))
    assert str(turn.value) == "Seat 2 cannot act now: seat 1 is to act"
    assert turn.value.text("it") == "Il posto 2 non può agire ora: è il turno del posto 1"
    with pytest.raises(WrongAmountError) as amount:
        act(hand, (1, "bring_in", 3))
    assert str(amount.value) == "Seat 1 cannot bring in for 3: allowed is bring in 2"
    with pytest.raises(IllegalActionError) as illegal:
        act(hand, (1, "fold"))
    assert str(illegal.value) == (
        "Seat 1 cannot fold now: allowed are bring in 2 or complete to 5"
    )
    assert hand.state == before
    assert not hand.can(hand.events[0])


def test_bring_in_of_a_whole_small_bet_is_the_bet() -> None:
    hand = Hand(settings(bring_in=5))
    deal(hand, THIRD)
    check(hand, 3, 1, [("bring_in", 5)])
    act(hand, (1, "bring_in"))
    check(hand, 8, 2, [("call", 5), ("raise", 10), ("fold", 0)])
    act(hand, (2, "raise"), (3, "raise"), (1, "raise"))
    # the bring-in counted as the bet: bet + 3 raises
    check(hand, 3 + 20 + 10 + 15, 2, [("call", 20), ("fold", 10)])


def test_open_pair_short_stack_has_one_all_in_bet() -> None:
    hand = Hand(settings(open_pair_double=True, stacks={1: 100, 2: 6, 3: 100}))
    deal(hand, THIRD)
    passive(hand)
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    check(hand, 9, 2, [("check", 0), ("bet", 3)])
