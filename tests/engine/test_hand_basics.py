"""A seven-card stud hand played through street by street: pot, turn and legal actions."""

from __future__ import annotations

from engine.cards import parse_cards
from engine.events import Show
from engine.hand import Hand
from tests.engine.hand_helpers import act, deal, options, settings


def test_seven_card_stud_plays_through_to_showdown() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 100, 3: 100}))
    assert hand.state.total_pot == 3
    assert hand.prompt().text() == "Deal third street: two down and one up to seats 1, 2, 3"
    deal(hand, {1: "?? ?? 3c", 2: "?? ?? Kd", 3: "?? ?? 9h"})
    assert hand.state.to_act == 1
    assert hand.prompt().text() == "Seat 1 (P1) brings in for 2 or completes to 5"
    assert options(hand) == [("bring_in", 2), ("complete", 5)]
    act(hand, (1, "bring_in"))
    assert options(hand) == [("call", 2), ("complete", 5), ("fold", 0)]
    act(hand, (2, "complete"), (3, "call"))
    assert options(hand) == [("call", 5), ("raise", 10), ("fold", 2)]
    act(hand, (1, "call"))
    assert hand.state.total_pot == 18
    assert hand.state.pots[0].amount == 18
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    # the open pair of kings acts first
    assert hand.state.to_act == 2
    assert options(hand) == [("check", 0), ("bet", 5)]
    act(hand, (2, "bet"), (3, "fold"), (1, "call"))
    for card1, card2 in (("5c", "7d"), ("6d", "8h")):
        deal(hand, {1: card1, 2: card2})
        act(hand, (2, "check"), (1, "check"))
    deal(hand, {1: "??", 2: "??"})
    act(hand, (2, "bet"), (1, "call"))
    assert hand.state.total_pot == 48
    assert hand.prompt().text() == "Showdown: seat 2 (P2) shows first"
    hand.push(Show(2, parse_cards("Ks Qs 2c")))
    hand.push(Show(1, parse_cards("7c 8c Ah")))
    assert hand.finished
    result = hand.result
    assert result is not None
    assert result.pots[0].high[0].seat == 1  # 4-5-6-7-8 straight beats three kings
    assert hand.finishing_stacks == {1: 100 - 1 - 5 - 5 - 10 + 48, 2: 79, 3: 94}
