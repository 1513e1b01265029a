"""The corners of the rules that all-ins, folds and a short deck reach: one test per rule of
docs/rules.md, named as the rule.

Stakes unless said otherwise: ante 1, bring-in 2, small bet 5, big bet 10; a non-playing dealer
left of seat 1 (seat 1 is nearest the dealer). Legal actions are listed as (action, the seat's
round total after it).
"""

from __future__ import annotations

import pytest

from engine.cards import Card, parse_cards
from engine.events import Community, Muck, Show
from engine.hand import Hand
from engine.hand_errors import IllegalActionError
from tests.engine.hand_helpers import act, check, deal, passive, settings

THIRD = {1: "?? ?? 3c", 2: "?? ?? Kd", 3: "?? ?? 9h"}


# --------------------------------------------------------------------------- §4 all-ins


def test_no_raise_is_offered_when_no_other_live_player_can_call_it() -> None:
    # stakes 1/5/10/20; seat 1 has 34 behind on fifth street
    hand = Hand(settings(stacks={1: 40, 2: 200, 3: 200}, bring_in=5, small=10, big=20))
    deal(hand, THIRD)
    passive(hand)  # seat 1 brings in for 5, both call
    deal(hand, {1: "4c", 2: "2h", 3: "9s"})
    passive(hand)
    deal(hand, {1: "5c", 2: "3h", 3: "9d"})
    check(hand, 18, 3, [("check", 0), ("bet", 20)])
    act(hand, (3, "bet"), (1, "raise"))  # all in to 34
    assert hand.state.seat(1).all_in
    check(hand, 72, 2, [("call", 34), ("raise", 54), ("fold", 0)])
    act(hand, (2, "fold"))
    # seat 1 is all in and seat 2 folded: nobody could call a re-raise
    check(hand, 72, 3, [("call", 34), ("fold", 20)])
    with pytest.raises(IllegalActionError) as info:
        act(hand, (3, "raise", 34))
    assert str(info.value) == "Seat 3 cannot raise now: allowed are call 14 or fold"
    act(hand, (3, "call"))
    # at most one player can bet: the remaining streets are dealt without betting
    deal(hand, {1: "6d", 3: "Jh"})
    check(hand, 86, None)
    deal(hand, {1: "??", 3: "??"})
    assert hand.phase == "showdown"
    # nobody bet on the last round: the best exposed hand (seat 3's nines) shows first
    assert hand.state.first_to_show == 3
    assert [p.amount for p in hand.state.pots] == [86]


def test_no_bet_is_offered_when_every_other_player_is_all_in() -> None:
    # seats 2 and 3 are all in on third street; seat 1 alone can bet: no betting after it
    hand = Hand(settings(stacks={1: 100, 2: 4, 3: 7}))
    deal(hand, THIRD)
    act(hand, (1, "bring_in"), (2, "complete"))  # seat 2 all in for 3
    check(hand, 8, 3, [("call", 3), ("raise", 6), ("fold", 0)])
    act(hand, (3, "raise"))  # all in to 6: less than a full raise but half a step or more
    # seat 1 owes 4; nobody is left who could call a raise
    check(hand, 14, 1, [("call", 6), ("fold", 2)])
    act(hand, (1, "call"))
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    check(hand, 18, None)
    assert hand.prompt().text() == "Deal fifth street: one up to seats 1, 2, 3"


def test_the_optional_first_action_is_not_offered_to_the_only_player_who_can_bet() -> None:
    # seat 1 holds the low card and is all in with the ante; seat 2 folds: seat 3 has nobody
    # left to bet against, so there is no betting and fourth street is dealt
    hand = Hand(settings(stacks={1: 1, 2: 100, 3: 100}))
    deal(hand, THIRD)
    check(hand, 3, 2, [("fold", 0), ("bring_in", 2), ("complete", 5)])
    act(hand, (2, "fold"))
    check(hand, 3, None)
    assert hand.prompt().text() == "Deal fourth street: one up to seats 1, 3"


# --------------------------------------------------------------------------- §1 the raise cap


def test_heads_up_by_folds_before_the_cap_is_uncapped() -> None:
    hand = Hand(settings())
    deal(hand, THIRD)
    act(hand, (1, "bring_in"), (2, "complete"), (3, "fold"))
    # heads-up after one bet: no cap any more
    act(hand, (1, "raise"), (2, "raise"), (1, "raise"))
    check(hand, 3 + 20 + 15, 2, [("call", 20), ("raise", 25), ("fold", 15)])
    act(hand, (2, "raise"))
    check(hand, 3 + 20 + 25, 1, [("call", 25), ("raise", 30), ("fold", 20)])


def test_heads_up_by_an_all_in_before_the_cap_is_uncapped() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 100, 3: 9}))
    deal(hand, THIRD)
    act(hand, (1, "bring_in"), (2, "complete"), (3, "call"))  # seat 3 has 3 behind
    act(hand, (1, "raise"), (2, "raise"), (3, "call"))  # seat 3 all in for 8
    assert hand.state.seat(3).all_in
    act(hand, (1, "raise"))  # the cap: bet and three raises, but heads-up since seat 3's call
    check(hand, 3 + 15 + 20 + 8, 2, [("call", 20), ("raise", 25), ("fold", 15)])


def test_heads_up_reached_at_the_cap_stays_capped() -> None:
    hand = Hand(settings())
    deal(hand, THIRD)
    act(hand, (1, "bring_in"), (2, "complete"), (3, "raise"), (1, "raise"), (2, "raise"))
    act(hand, (3, "fold"))  # heads-up now, but the cap was reached three-handed
    check(hand, 3 + 15 + 20 + 10, 1, [("call", 20), ("fold", 15)])


def test_heads_up_stays_capped_when_the_house_says_so() -> None:
    hand = Hand(settings(heads_up_uncapped=False))
    deal(hand, THIRD)
    act(hand, (1, "bring_in"), (2, "complete"), (3, "fold"))
    act(hand, (1, "raise"), (2, "raise"), (1, "raise"))
    check(hand, 3 + 20 + 15, 2, [("call", 20), ("fold", 15)])


# --------------------------------------------------------------------------- §3 the bring-in


def test_a_bring_in_of_the_whole_small_bet_with_chips_behind_is_not_all_in() -> None:
    hand = Hand(settings(bring_in=5))
    deal(hand, THIRD)
    assert hand.prompt().text() == "Seat 1 (P1) brings in for 5"
    assert hand.prompt().text("it") == "P1 (posto 1): bring-in da 5"
    assert hand.prompt().param("all_in") is False


def test_a_bring_in_that_takes_the_last_chip_is_announced_all_in() -> None:
    hand = Hand(settings(stacks={1: 6, 2: 100, 3: 100}, bring_in=5))
    deal(hand, THIRD)
    assert hand.prompt().text() == "Seat 1 (P1) brings in for 5 (all in)"
    assert hand.prompt().param("all_in") is True


# --------------------------------------------------------------------------- §5 a short deck

RANKS = "23456789TJQKA"


def _eight_players_to_sixth(burns: bool = True) -> Hand:
    stacks = {seat: 100 for seat in range(1, 9)}
    hand = Hand(settings(stacks=stacks, burns=burns))
    cards = iter(Card.parse(r + s) for r in RANKS for s in "cdhs")
    deal(hand, {seat: f"?? ?? {next(cards)}" for seat in stacks})
    passive(hand)
    for _ in range(3):
        deal(hand, {seat: str(next(cards)) for seat in stacks})
        passive(hand)
    return hand


def test_a_short_deck_puts_the_burns_back_before_the_community_card() -> None:
    hand = _eight_players_to_sixth()
    # 48 cards dealt and 3 burned: the dealer holds one card, so the burns go back first
    prompt = hand.prompt()
    assert prompt.kind == "community"
    assert (prompt.param("burns_back"), prompt.param("burn")) == (3, True)
    assert prompt.text() == (
        "The deck is short for the last street: put the 3 burned cards back into the stub, "
        "burn a card and turn one community card face up in the middle; every player uses it"
    )
    assert prompt.text("it") == (
        "Il mazzo non basta per l'ultima carta: rimetti le 3 carte bruciate nel mazzo, "
        "brucia una carta e scopri una carta comune al centro; vale per tutti i giocatori"
    )
    assert hand.state.deck_left == 3  # four in the stub, one burned
    hand.push(Community(Card.parse("As")))
    assert hand.state.deck_left == 2


def test_a_short_deck_without_burns_only_turns_the_community_card() -> None:
    hand = _eight_players_to_sixth(burns=False)
    prompt = hand.prompt()
    assert prompt.kind == "community"
    assert (prompt.param("burns_back"), prompt.param("burn")) == (0, False)
    assert prompt.text() == (
        "The deck is short for the last street: turn one community card face up in the middle; "
        "every player uses it"
    )
    assert hand.state.deck_left == 4


def test_a_short_deck_says_how_many_burned_cards_go_back() -> None:
    stacks = {n: 100 for n in range(1, 11)}
    hand = Hand(settings("five-card-stud", stacks=stacks))
    cards = iter(Card.parse(r + s) for r in RANKS for s in "cdhs")
    deal(hand, {n: f"?? {next(cards)}" for n in stacks})
    passive(hand)
    for _ in range(2):
        deal(hand, {n: str(next(cards)) for n in stacks})
        passive(hand)
    assert hand.prompt().param("burns_back") == 2
    assert hand.prompt().text() == (
        "The deck is short: put the 2 burned cards back into the stub. "
        "Deal fifth street: one up to seats 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"
    )


# --------------------------------------------------------------------------- §6 the odd chip


def test_the_odd_chip_by_suit_is_not_decided_by_the_community_card() -> None:
    """Seats 2 and 5 both play A-K-Q-J-T with the community A♠: their own cards decide, and
    seat 5's K♠ beats seat 2's K♥."""
    stacks = {seat: 100 for seat in range(1, 9)}
    hand = Hand(settings(stacks=stacks, big=15, odd_chip="high-card-suit"))
    hands = {  # two downs, then the up cards of third to sixth street
        1: "?? ?? 2c 3c 4c 8c",
        2: "Kh Qd Jc Tc 2d 3h",
        3: "?? ?? 2s 3s 4d 8d",
        4: "?? ?? 4h 5h 6h 8h",
        5: "Ks Qc Jh Th 5d 6c",
        6: "?? ?? 5s 6s 7s 8s",
        7: "?? ?? 7c 7d 9c 9d",
        8: "?? ?? 9h 9s 2h 3d",
    }
    cards = {seat: text.split() for seat, text in hands.items()}
    deal(hand, {seat: " ".join(c[:3]) for seat, c in cards.items()})
    passive(hand)
    for street in (3, 4):
        deal(hand, {seat: c[street] for seat, c in cards.items()})
        passive(hand)
    deal(hand, {seat: c[5] for seat, c in cards.items()})
    # sixth street: the first to act bets 15; seats 2, 5 and two others call, three fold
    folders = [s for s in (1, 3, 4, 6, 7, 8) if s != hand.to_act][:3]
    act(hand, (hand.to_act or 0, "bet"))
    while hand.to_act is not None:
        act(hand, (hand.to_act, "fold" if hand.to_act in folders else "call"))
    assert hand.prompt().kind == "community"
    hand.push(Community(Card.parse("As")))
    passive(hand)
    while hand.next_to_show is not None:
        seat = hand.next_to_show
        if seat in (2, 5):
            hand.push(Show(seat, parse_cards(cards[seat][:2])))
        else:
            hand.push(Muck(seat))
    result = hand.result
    assert result is not None
    pot = result.pots[0]
    assert pot.amount == 8 + 8 * 2 + 5 * 15  # odd: 99
    assert dict(pot.awards) == {2: 49, 5: 50}
    (chip,) = pot.odd_chips
    assert chip.seat == 5 and chip.card == Card.parse("Ks")
    assert chip.text() == "odd chip (1) of the pot to seat 5: highest card by suit (K♠)"
