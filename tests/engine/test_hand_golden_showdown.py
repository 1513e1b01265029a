"""Golden hands to the showdown: side pots, hi/lo halves, ties, odd chips and who shows first."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.events import Muck, Show
from engine.hand import Hand
from engine.hand_errors import ShowdownError
from tests.engine.hand_helpers import act, check, check_down, deal, passive, settings, show_all


def streets(*per_seat: str) -> list[dict[int, str]]:
    """Seven-card streets from one text per seat: 'downs up | 4th | 5th | 6th | 7th'."""
    parts = [p.split("|") for p in per_seat]
    return [
        {seat + 1: parts[seat][i].strip() for seat in range(len(parts))}
        for i in range(len(parts[0]))
    ]


def test_three_way_all_in_with_two_side_pots() -> None:
    hand = Hand(settings(stacks={1: 10, 2: 30, 3: 50, 4: 200}, ante=0, bring_in=5, small=10,
                         big=20))
    deal(hand, {1: "Ah As 2c", 2: "Kh Ks 5c", 3: "Qh Qs 7c", 4: "Jh Js 8c"})
    check(hand, 0, 1, [("bring_in", 5), ("complete", 10)])
    act(hand, (1, "complete"))
    check(hand, 10, 2, [("call", 10), ("raise", 20), ("fold", 0)])
    act(hand, (2, "raise"), (3, "raise"), (4, "raise"))
    check(hand, 100, 2, [("call", 30), ("fold", 20)])  # capped; seat 1 is all in
    act(hand, (2, "call"), (3, "call"))
    check(hand, 120, None)
    assert [(p.amount, p.eligible) for p in hand.state.pots] == [
        (40, (1, 2, 3, 4)), (60, (2, 3, 4)), (20, (3, 4))
    ]
    deal(hand, {1: "Ad", 2: "Kd", 3: "Qd", 4: "9d"})
    # seats 1 and 2 are all in: seat 3 acts before seat 4 (9-8)
    check(hand, 120, 3, [("check", 0), ("bet", 10)])
    act(hand, (3, "check"), (4, "bet"), (3, "call"))
    check(hand, 140, None)
    deal(hand, {1: "Ac", 2: "Kc", 3: "2d", 4: "Tc"})
    check(hand, 140, None)  # only seat 4 can still bet
    deal(hand, {1: "3d", 2: "3h", 3: "3s", 4: "6d"})
    deal(hand, {1: "4d", 2: "4h", 3: "4s", 4: "5d"})
    # no betting on seventh street: the best exposed hand (aces) shows first
    assert hand.prompt().text() == "Showdown: seat 1 (P1) was all in and must show"
    with pytest.raises(ShowdownError) as info:
        hand.push(Muck(1))
    assert "must show" in str(info.value)
    show_all(hand)
    result = hand.result
    assert result is not None
    assert [(p.amount, p.eligible, p.awards) for p in result.pots] == [
        (40, (1, 2, 3, 4), ((1, 40),)),
        (60, (2, 3, 4), ((2, 60),)),
        (40, (3, 4), ((3, 40),)),
    ]
    assert result.pots[0].high[0].hand is not None
    assert result.pots[0].high[0].hand.name() == "Four of a kind, aces"
    assert result.pots[0].to_dict("it")["high"][0]["hand"] == "Poker di assi"
    assert hand.finishing_stacks == {1: 40, 2: 60, 3: 40, 4: 150}


def test_fold_to_one_player_wins_without_showdown_and_gets_the_uncalled_bet_back() -> None:
    hand = Hand(settings())
    deal(hand, {1: "?? ?? 3c", 2: "?? ?? Kd", 3: "?? ?? 9h"})
    act(hand, (1, "bring_in"), (2, "complete"), (3, "fold"), (1, "fold"))
    assert hand.finished
    result = hand.result
    assert result is not None and not result.showdown
    # the main pot: 3 antes, the bring-in and the part of the completion it called
    assert [(p.amount, p.awards) for p in result.pots] == [(7, ((2, 7),))]
    assert result.returned == ((2, 3),)
    assert hand.finishing_stacks == {1: 97, 2: 104, 3: 99}
    assert hand.prompt().text() == "Hand over"


def test_side_pot_left_uncontested_goes_to_its_last_player() -> None:
    # seat 3 is all in on third street; on fourth seat 2 bets and seat 1 folds: seat 2 takes the
    # side pot nobody else can win, and the main pot is shown down against seat 3
    hand = Hand(settings(stacks={1: 100, 2: 100, 3: 3}))
    deal(hand, {1: "?? ?? 3c", 2: "?? ?? Kd", 3: "?? ?? 9h"})
    act(hand, (1, "bring_in"), (2, "complete"), (3, "call"), (1, "call"))
    deal(hand, {1: "4c", 2: "Kh", 3: "2s"})
    act(hand, (2, "bet"), (1, "fold"))
    assert hand.state.phase == "deal"  # seat 3 is still in: the cards are dealt out
    for cards in ({2: "5d", 3: "6d"}, {2: "7d", 3: "8d"}, {2: "??", 3: "??"}):
        deal(hand, cards)
    # seat 2 bet last on fourth street, but no betting on seventh: best exposed shows first
    assert hand.state.first_to_show == 2
    hand.push(Show(2, parse_cards("Qs Qd Ks")))
    hand.push(Show(3, parse_cards("9s 9d 9c")))
    result = hand.result
    assert result is not None
    main, side = result.pots
    # four nines beat kings full; seat 1 folded, so only seats 2 and 3 can win the main pot
    assert (main.amount, main.eligible, main.awards) == (9, (2, 3), ((3, 9),))
    assert (side.amount, side.eligible, side.awards) == (6, (2,), ((2, 6),))
    assert result.returned == ((2, 5),)  # the uncalled bet on fourth street
    assert hand.finishing_stacks == {1: 94, 2: 100, 3: 9}


def test_last_aggressor_shows_first_and_others_may_muck() -> None:
    hand = Hand(settings())
    check_down(hand, streets(
        "Ah Ad 9c | 2s | 3s | 4s | 5h",
        "Kh Kd Tc | 2d | 3d | 4d | 5d",
        "Qh Qd Jc | 2h | 3h | 4h | 6c",
    )[:4], show=False)
    deal(hand, {1: "5h", 2: "5c", 3: "6c"})
    # seventh street: seat 3 (Q-J... exposed J-2-3-4 vs T-2-3-4 vs 9-2-3-4) acts first
    check(hand, 9, 3, [("check", 0), ("bet", 10)])
    act(hand, (3, "check"), (1, "bet"), (2, "call"), (3, "fold"))
    assert hand.prompt().text() == "Showdown: seat 1 (P1) shows first"
    with pytest.raises(ShowdownError) as info:
        hand.push(Show(2, parse_cards("Kh Kd 5c")))
    assert str(info.value) == "Seat 1 shows or mucks now, not seat 2"
    hand.push(Show(1, parse_cards("Ah Ad 5h")))
    assert hand.prompt().text() == "Showdown: seat 2 (P2) shows or mucks"
    hand.push(Muck(2))
    assert hand.finished
    result = hand.result
    assert result is not None
    assert result.payouts == ((1, 29),)


def test_a_hand_that_everyone_else_mucks_is_not_asked_to_show() -> None:
    hand = Hand(settings())
    check_down(hand, streets(
        "?? ?? 9c | 2s | 3s | 4s | ??",
        "?? ?? Tc | 2d | 3d | 4d | ??",
        "?? ?? Jc | 2h | 3h | 4h | ??",
    ), show=False)
    # nobody bet on seventh street: the first to act (J-4-3-2) shows first
    assert hand.next_to_show == 3
    hand.push(Muck(3))
    hand.push(Muck(1))
    assert hand.finished
    result = hand.result
    assert result is not None
    assert result.pots[0].high[0].seat == 2
    assert result.pots[0].high[0].hand is None  # won uncontested: no cards needed


def test_hilo_no_qualifying_low_high_takes_all() -> None:
    hand = Hand(settings("seven-card-stud-hilo"))
    check_down(hand, streets(
        "Kh Kd 9c | Qs | Jd | 9h | Ts",
        "Ah Ad Tc | Js | Qd | 3h | 4h",
        "5s 5d 8s | Kc | Qh | 6c | Jc",
    ))
    result = hand.result
    assert result is not None
    pot = result.pots[0]
    assert pot.no_low and pot.low == ()
    assert pot.awards == ((1, 9),)
    assert pot.high[0].hand is not None and pot.high[0].hand.name() == "Straight, king high"


def test_hilo_split_odd_chip_to_the_high_half() -> None:
    hand = Hand(settings("seven-card-stud-hilo"))
    check_down(hand, streets(
        "Kh Ks 9c | 9d | Jd | Ts | 8h",
        "Ah 2d 3c | 4c | Kd | 6h | Qh",
        "5s 5d Tc | Jc | Qc | 7d | 8d",
    ))
    result = hand.result
    assert result is not None
    pot = result.pots[0]
    assert [(s.seat, s.amount) for s in pot.high] == [(1, 5)]
    assert [(s.seat, s.amount) for s in pot.low] == [(2, 4)]
    assert pot.low[0].hand is not None and pot.low[0].hand.name() == "6-4-3-2-A low"
    assert [c.text() for c in pot.odd_chips] == [
        "the odd chip of the hi/lo split (1) goes to the high half"
    ]
    assert pot.odd_chips[0].text("it") == (
        "la fiche dispari della divisione alto/basso (1) va alla metà alta"
    )
    assert hand.finishing_stacks == {1: 102, 2: 101, 3: 97}


def test_hilo_scoop() -> None:
    hand = Hand(settings("seven-card-stud-hilo"))
    check_down(hand, streets(
        "Kh Ks 9c | 9d | Jd | Ts | 8h",
        "Ah 2d 3c | 4c | 5h | Kd | Qh",
        "5s 5d Tc | Jc | Qc | 7d | 8d",
    ))
    result = hand.result
    assert result is not None
    assert result.pots[0].awards == ((2, 9),)
    assert [s.seat for s in result.pots[0].high] == [2]
    assert [s.seat for s in result.pots[0].low] == [2]


def test_hilo_quartered_low() -> None:
    hand = Hand(settings("seven-card-stud-hilo", stacks={1: 100, 2: 100, 3: 100, 4: 100}))
    check_down(hand, streets(
        "Kh Ks 9c | 9d | Jd | Ts | 8h",
        "Ah 2d 3c | 4c | Kd | 6h | Qh",
        "Ac 2h 3d | 4s | Jc | 6d | Tc",
        "5s 5d Td | 7c | Qc | Qd | 9h",
    ))
    result = hand.result
    assert result is not None
    pot = result.pots[0]
    assert pot.amount == 12
    assert [(s.seat, s.amount) for s in pot.high] == [(1, 6)]
    assert sorted((s.seat, s.amount) for s in pot.low) == [(2, 3), (3, 3)]


STRAIGHTS = (
    "Ks Qs 9c | Td | Jh | 2d | 3d",
    "4c 4d 5c | 7s | 8s | Ad | 2s",
    "Kh Qh 9d | Tc | Jc | 2h | 3h",
)


@pytest.mark.parametrize(
    ("rule", "odd_seat", "reason"),
    [
        ("nearest-dealer", 3, "odd chip (1) of the pot to seat 3: nearest the dealer"),
        ("high-card-suit", 1, "odd chip (1) of the pot to seat 1: highest card by suit (K♠)"),
    ],
)
def test_tied_highs_odd_chip_by_either_rule(rule: str, odd_seat: int, reason: str) -> None:
    # the dealer sits at seat 2: seat 3 is nearest; seat 1 holds the K♠, seat 3 the K♥
    hand = Hand(settings(dealer=2, odd_chip=rule))
    check_down(hand, streets(*STRAIGHTS))
    result = hand.result
    assert result is not None
    pot = result.pots[0]
    assert sorted((s.seat, s.amount) for s in pot.high) == sorted(
        [(odd_seat, 5), (4 - odd_seat, 4)]
    )
    assert [c.text() for c in pot.odd_chips] == [reason]


def test_chip_unit_splits_in_whole_chips() -> None:
    # chips of 5: a pot of 45 split two ways is 25 and 20, never 22.5
    hand = Hand(settings(ante=5, bring_in=10, small=25, big=50, unit=5, dealer=2,
                         stacks={1: 500, 2: 500, 3: 500}))
    check_down(hand, streets(*STRAIGHTS))
    result = hand.result
    assert result is not None
    assert sorted(s.amount for s in result.pots[0].high) == [20, 25]
    assert result.pots[0].odd_chips[0].amount == 5


def test_razz_lowest_hand_wins() -> None:
    hand = Hand(settings("razz"))
    deal(hand, {1: "?? ?? 3c", 2: "?? ?? Kd", 3: "?? ?? 9h"})
    # razz: the highest upcard brings in
    check(hand, 3, 2, [("bring_in", 2), ("complete", 5)])
    passive(hand)
    deal(hand, {1: "4c", 2: "2d", 3: "9s"})  # seat 3 pairs nines
    # the lowest exposed hand acts first: 4-3
    check(hand, 9, 1)
    passive(hand)
    later = ({1: "5c", 2: "Qd", 3: "Ts"}, {1: "6d", 2: "Jd", 3: "Js"}, {1: "??", 2: "??", 3: "??"})
    for cards in later:
        deal(hand, cards)
        passive(hand)
    hand.push(Show(1, parse_cards("Ah Kh Kc")))
    hand.push(Show(2, parse_cards("As 3d 8c")))
    hand.push(Show(3, parse_cards("7s 7d 7c")))
    result = hand.result
    assert result is not None
    assert result.pots[0].awards == ((1, 9),)
    assert result.pots[0].high[0].hand is not None
    assert result.pots[0].high[0].hand.name() == "6-5-4-3-A low"


def test_hilo_side_pot_without_a_low_goes_whole_to_its_best_high() -> None:
    # seat 1 is all in on third street with the only low; the side pot between seats 2 and 3
    # has no low among its players, so it goes whole to the best high (docs/rules.md §6)
    hand = Hand(settings("seven-card-stud-hilo", stacks={1: 3, 2: 100, 3: 100}))
    deal(hand, {1: "Ah 2h 5c", 2: "Kd Kc 2c", 3: "Td Tc 6s"})
    act(hand, (2, "bring_in"), (3, "complete"), (1, "call"), (2, "call"))
    check(hand, 15, None)
    check_down(hand, [
        {1: "3d", 2: "Qs", 3: "Jd"},
        {1: "7d", 2: "Qd", 3: "Js"},
        {1: "8s", 2: "9c", 3: "9d"},
        {1: "Ks", 2: "Jh", 3: "6h"},
    ])
    result = hand.result
    assert result is not None
    main, side = result.pots
    assert (main.amount, main.eligible) == (9, (1, 2, 3))
    assert [(s.seat, s.amount) for s in main.high] == [(2, 5)]
    assert [(s.seat, s.amount) for s in main.low] == [(1, 4)]
    assert (side.amount, side.eligible, side.no_low, side.awards) == (6, (2, 3), True, ((2, 6),))
    assert hand.finishing_stacks == {1: 4, 2: 105, 3: 94}


def test_show_accepts_the_down_cards_the_whole_hand_or_only_the_unknown_ones() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 100}))
    check_down(hand, [
        {1: "Ah ?? 9c", 2: "?? ?? Tc"}, {1: "2s", 2: "2d"}, {1: "3s", 2: "3d"},
        {1: "4s", 2: "4d"}, {1: "??", 2: "Kd"},
    ], show=False)
    first = hand.next_to_show
    assert first == 2
    with pytest.raises(ShowdownError) as info:
        hand.push(Show(2, parse_cards("Ks")))
    assert str(info.value) == (
        "Seat 2 must show its 3 down cards (known so far: Kd), its whole hand, or only the down "
        "cards not entered yet"
    )
    hand.push(Show(2, parse_cards("Kh Qh")))  # only the two that were unknown
    hand.push(Show(1, parse_cards("Ah 9c 2s 3s 4s Ad 5c")))  # the whole hand
    state = hand.state
    assert [c.card for c in state.seat(2).cards if not c.up] == list(parse_cards("Kh Qh Kd"))
    assert hand.result is not None and hand.result.pots[0].high[0].seat == 1
