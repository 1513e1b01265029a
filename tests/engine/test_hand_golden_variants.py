"""Golden hands of five-card stud and Sökö, running out of cards, corrections (undo, misdeal,
exposed cards, cards entered later), refused input and settings."""

from __future__ import annotations

import pytest

from engine.cards import Card, parse_cards
from engine.events import Community, Deal, Expose, Identify, Misdeal, Show
from engine.hand import Hand
from engine.hand_errors import DealError, DuplicateCardError, HandError, SettingsError
from engine.settings import GameSettings, HouseRules, SeatConfig
from tests.engine.hand_helpers import act, check, check_down, deal, passive, settings, show_all

RANKS = "23456789TJQKA"


def test_five_card_stud_street_by_street() -> None:
    hand = Hand(settings("five-card-stud"))
    assert hand.prompt().text() == "Deal second street: one down and one up to seats 1, 2, 3"
    assert hand.prompt().text("it") == (
        "Seconda strada: una coperta e una scoperta ai posti 1, 2, 3"
    )
    deal(hand, {1: "?? 3c", 2: "?? Kd", 3: "?? 9h"})
    check(hand, 3, 1, [("bring_in", 2), ("complete", 5)])
    passive(hand)
    deal(hand, {1: "3d", 2: "Qd", 3: "9s"})
    # open pair of nines acts first; third street is still the small bet
    check(hand, 9, 3, [("check", 0), ("bet", 5)])
    act(hand, (3, "bet"), (1, "call"), (2, "call"))
    deal(hand, {1: "4c", 2: "Jd", 3: "2s"})
    check(hand, 24, 3, [("check", 0), ("bet", 10)])  # fourth street: big bet
    act(hand, (3, "check"), (1, "check"), (2, "bet"), (3, "call"), (1, "fold"))
    deal(hand, {2: "Td", 3: "2h"})
    check(hand, 44, 3, [("check", 0), ("bet", 10)])
    act(hand, (3, "check"), (2, "check"))
    hand.push(Show(3, parse_cards("9d")))  # nobody bet: the first to act shows first
    hand.push(Show(2, parse_cards("Ad")))
    result = hand.result
    assert result is not None
    assert result.pots[0].awards == ((2, 44),)
    assert result.pots[0].high[0].hand is not None
    assert result.pots[0].high[0].hand.name() == "Royal flush"


def test_ten_players_of_five_card_stud_put_the_burns_back() -> None:
    stacks = {n: 100 for n in range(1, 11)}
    hand = Hand(settings("five-card-stud", stacks=stacks))
    cards = iter(Card.parse(r + s) for r in RANKS for s in "cdhs")
    deal(hand, {n: f"?? {next(cards)}" for n in stacks})
    passive(hand)
    for _ in range(2):
        deal(hand, {n: str(next(cards)) for n in stacks})
        passive(hand)
    # 40 cards dealt and 2 burned: 10 left for 10 players and a burn
    state = hand.state
    assert state.runout == "burns-back"
    assert state.deck_left == 11  # 10 + the 2 burns back - this street's burn
    assert hand.prompt().text() == (
        "The deck is short: put the 2 burned cards back into the stub. "
        "Deal fifth street: one up to seats 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"
    )


def _seven_players_to_sixth(n: int) -> Hand:
    stacks = {seat: 100 for seat in range(1, n + 1)}
    hand = Hand(settings(stacks=stacks))
    cards = iter(Card.parse(r + s) for r in RANKS for s in "cdhs")
    deal(hand, {seat: f"?? ?? {next(cards)}" for seat in stacks})
    passive(hand)
    for _ in range(3):
        deal(hand, {seat: str(next(cards)) for seat in stacks})
        passive(hand)
    return hand


def test_eight_players_to_seventh_street_need_a_community_card() -> None:
    hand = _seven_players_to_sixth(8)
    state = hand.state
    assert state.phase == "community" and state.runout == "community"
    assert hand.prompt().kind == "community"
    assert hand.prompt().text() == (
        "The deck is short for the last street: put the 3 burned cards back into the stub, "
        "burn a card and turn one community card face up in the middle; every player uses it"
    )
    with pytest.raises(HandError):
        hand.push(Deal(1, None, False))
    hand.push(Community(Card.parse("Ac")))
    assert hand.state.community == (Card.parse("Ac"),)
    assert hand.state.phase == "betting"
    passive(hand)
    # up cards: seats 1-4 hold 2-4-6-8 and seats 5-8 3-5-7-9, each seat in one suit
    downs = {1: "Ah Ad", 2: "Tc Jh", 3: "Td Js", 4: "Th Jc", 5: "Ts Jd", 6: "Qc Kh", 7: "Qd Ks",
             8: "Qh Kc"}
    for seat, cards in downs.items():
        for card in parse_cards(cards):
            hand.push(Identify(seat, card))
    show_all(hand)
    result = hand.result
    assert result is not None
    # the community A♣ gives seats 1 and 5 (clubs showing) a flush: 5's A-9-7-5-3 is best
    winner = result.pots[0].high[0]
    assert winner.seat == 5
    assert winner.hand is not None and winner.hand.name() == "Flush, ace high"
    assert Card.parse("Ac") in winner.hand.cards


def test_seven_players_to_seventh_street_put_the_burns_back() -> None:
    hand = _seven_players_to_sixth(7)
    assert hand.state.runout == "burns-back"
    assert hand.prompt().text().startswith(
        "The deck is short: put the 3 burned cards back into the stub."
    )


def test_soko_without_bring_in_highest_upcard_opens_and_may_check() -> None:
    hand = Hand(settings("soko", bring_in=0))
    deal(hand, {1: "?? 3c", 2: "?? Kd", 3: "?? Ks"})
    check(hand, 3, 3, [("check", 0), ("bet", 5)])
    assert hand.prompt().text() == "Seat 3 (P3) to act"
    act(hand, (3, "check"), (1, "check"), (2, "check"))
    check(hand, 3, None)


def test_soko_opener_all_in_with_the_ante_passes_to_the_next_highest_card() -> None:
    hand = Hand(settings("soko", bring_in=0, stacks={1: 100, 2: 100, 3: 1}))
    deal(hand, {1: "?? 3c", 2: "?? Kd", 3: "?? Ks"})
    check(hand, 3, 2, [("check", 0), ("bet", 5)])


def test_soko_with_bring_in_lowest_upcard_brings_in() -> None:
    hand = Hand(GameSettings("soko", 1, 2, 5, 10,
                             seats=tuple(SeatConfig(n, f"P{n}", 100) for n in (1, 2, 3)),
                             house=HouseRules(bring_in=True)))
    deal(hand, {1: "?? 3c", 2: "?? Kd", 3: "?? Ks"})
    check(hand, 3, 1, [("bring_in", 2), ("complete", 5)])


def test_soko_four_flush_beats_a_pair_and_a_showing_four_straight_acts_first() -> None:
    hand = Hand(settings("soko", bring_in=0))
    check_down(hand, [
        {1: "?? 2h", 2: "?? Ac", 3: "?? 9s"},
        {1: "5h", 2: "Ad", 3: "Ts"},
        {1: "9h", 2: "4c", 3: "Jd"},
    ], show=False)
    deal(hand, {1: "Kh", 2: "7c", 3: "Qc"})
    # last round: the four hearts showing are a four-flush, better than seat 3's four-straight
    # 9-T-J-Q, which is better than the pair of aces
    check(hand, 3, 1)
    passive(hand)
    hand.push(Show(1, parse_cards("4d")))
    hand.push(Show(2, parse_cards("2d")))
    hand.push(Show(3, parse_cards("3d")))
    result = hand.result
    assert result is not None
    winner = result.pots[0].high[0]
    assert winner.seat == 1  # a four-flush in hearts
    assert winner.hand is not None and winner.hand.category == "four-flush"


def test_undo_back_to_the_start_restores_everything() -> None:
    hand = Hand(settings())
    start = hand.state
    states = [start]
    deal(hand, {1: "Ah Kh 3c", 2: "?? ?? Kd", 3: "2s 2d 9h"})
    states.append(hand.state)
    act(hand, (1, "bring_in"), (2, "complete"))
    while hand.events:
        hand.pop()
    assert hand.state == start
    with pytest.raises(HandError) as info:
        hand.pop()
    assert str(info.value) == "There is nothing to undo: the hand is at its start"


def test_misdeal_returns_every_chip_committed() -> None:
    hand = Hand(settings())
    deal(hand, {1: "?? ?? 3c", 2: "?? ?? Kd", 3: "?? ?? 9h"})
    act(hand, (1, "bring_in"), (2, "complete"))
    hand.push(Misdeal())
    assert hand.finished
    assert hand.finishing_stacks == {1: 100, 2: 100, 3: 100}
    result = hand.result
    assert result is not None and result.misdeal
    assert result.returned == ((1, 3), (2, 6), (3, 1))
    assert hand.prompt().text() == "Misdeal: give back every chip committed"
    with pytest.raises(HandError) as info:
        act(hand, (3, "call"))
    assert "The hand is over" in str(info.value)
    hand.pop()
    assert not hand.finished and hand.state.to_act == 3


def test_exposed_and_identified_down_cards() -> None:
    hand = Hand(settings())
    deal(hand, {1: "?? ?? 3c", 2: "Ah ?? Kd", 3: "?? ?? 9h"})
    hand.push(Expose(2, Card.parse("Ah")))
    hand.push(Expose(1, Card.parse("Qs")))  # fills an unknown down card and makes it public
    hand.push(Identify(3, Card.parse("Jc")))  # entered later, still face down
    state = hand.state
    first = state.seat(2).cards[0]
    assert (first.card, first.up, first.exposed) == (Card.parse("Ah"), False, True)
    assert state.seat(1).cards[0].card == Card.parse("Qs") and state.seat(1).cards[0].exposed
    assert state.seat(3).cards[0].card == Card.parse("Jc") and not state.seat(3).cards[0].exposed
    with pytest.raises(DuplicateCardError) as info:
        hand.push(Identify(3, Card.parse("Qs")))
    assert str(info.value) == "Qs is already in this hand (seat 1): a deck holds each card once"
    # exposed cards do not change who brings in
    check(hand, 3, 1, [("bring_in", 2), ("complete", 5)])


def test_deal_errors_say_what_is_wrong() -> None:
    hand = Hand(settings())
    with pytest.raises(DealError) as unknown_up:
        hand.push(Deal(1, None, True))
    assert "an up card must be entered" in str(unknown_up.value)
    deal(hand, {1: "?? ?? 3c"})
    with pytest.raises(DealError) as more:
        hand.push(Deal(1, Card.parse("4c"), True))
    assert str(more.value) == (
        "Seat 1 needs no more up cards on third street. Next: Deal third street: two down and "
        "one up to seats 2, 3"
    )
    with pytest.raises(DuplicateCardError):
        hand.push(Deal(2, Card.parse("3c"), True))
    with pytest.raises(HandError) as seat:
        hand.push(Deal(9, None, False))
    assert str(seat.value) == "There is no seat 9 in this hand: the seats are 1, 2, 3"
    assert seat.value.text("it") == "Il posto 9 non è in questa mano: i posti sono 1, 2, 3"


def test_json_replays_to_the_same_state_and_names_a_bad_event() -> None:
    hand = Hand(settings("seven-card-stud-hilo"))
    deal(hand, {1: "?? ?? 3c", 2: "Ah 2h Kd", 3: "?? ?? 9h"})
    act(hand, (1, "bring_in"), (2, "complete"))
    again = Hand.from_json(hand.to_json())
    assert again.state == hand.state and again.events == hand.events
    data = hand.to_dict()
    data["events"][10] = {"type": "act", "seat": 2, "action": "complete", "amount": 4}
    with pytest.raises(HandError) as info:
        Hand.from_dict(data)
    assert str(info.value).startswith("event 11 (")
    assert "Seat 2 cannot complete for 4: allowed is complete to 5" in str(info.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"bring_in": 6}, "the bring-in (6) must not be larger than the small bet (5)"),
        ({"variant": "soko", "seats": 7}, "soko is played by 2 to 6 players, not 7"),
        ({"variant": "omaha"}, "unknown variant 'omaha'"),
        ({"seats": [(1, 50), (1, 60)]}, "seat 1 appears twice"),
        ({"chip_unit": 5, "ante": 5, "bring_in": 5, "small_bet": 10, "big_bet": 20,
          "seats": [(1, 50), (2, 62)]},
         "seat 2's stack 62 is not a multiple of the chip unit 5"),
        ({"dealer": 4}, "the dealer position 4 is not a seat"),
        ({"variant": "seven-card-stud-hilo", "house": {"open_pair_double": True}},
         "the open-pair rule is played only in five-card-stud and seven-card-stud, not in "
         "seven-card-stud-hilo"),
        ({"house": {"odd_chip": "random"}}, "odd_chip 'random' is not a rule"),
        ({"big_bet": 4}, "the big bet (4) must be at least the small bet (5)"),
    ],
)
def test_settings_that_cannot_be_played_are_refused(
    change: dict[str, object], message: str
) -> None:
    data: dict[str, object] = {
        "variant": "seven-card-stud", "ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10,
        "seats": [(1, 50), (2, 50)],
    }
    data.update(change)
    seats = data.pop("seats")
    if isinstance(seats, int):
        seats = [(n, 50) for n in range(1, seats + 1)]
    assert isinstance(seats, list)
    data["seats"] = [{"number": n, "name": "", "stack": s} for n, s in seats]
    with pytest.raises(SettingsError) as info:
        GameSettings.from_dict(data)
    assert message in str(info.value)


def test_settings_round_trip() -> None:
    game = settings("razz", dealer=3, odd_chip="high-card-suit", burns=False)
    assert GameSettings.from_dict(game.to_dict()) == game


def test_deal_prompt_lists_seats_in_dealing_order() -> None:
    hand = Hand(settings(stacks={1: 100, 3: 100, 5: 100, 8: 100}, dealer=3))
    assert hand.prompt().seats == (5, 8, 1, 3)
    assert hand.prompt().text() == "Deal third street: two down and one up to seats 5, 8, 1, 3"
