"""PokerStars hand histories: written for every game, read back to the same hand."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from engine import Act, Card, Deal, GameSettings, Hand, HouseRules, PHHError, SeatConfig, Show
from engine.events import Muck
from engine.pokerstars import from_pokerstars, to_pokerstars
from engine.variants import VARIANTS
from tests.engine.hand_driver import play, random_settings


def same_hand(read: Hand, hand: Hand) -> None:
    assert read.finished == hand.finished
    assert read.finishing_stacks == hand.finishing_stacks
    assert read.result is not None and hand.result is not None
    assert read.result.misdeal == hand.result.misdeal
    if hand.result.misdeal:
        # a misdeal while a street was dealt: its hidden cards are not written (the form has
        # nothing for them), and the chips go back all the same
        return
    assert read.payouts == hand.payouts
    assert [(p.amount, p.awards) for p in read.result.pots] == [
        (p.amount, p.awards) for p in hand.result.pots]
    for mine, theirs in zip(read.state.seats, hand.state.seats, strict=True):
        assert (mine.folded, mine.shown, mine.mucked) == (theirs.folded, theirs.shown,
                                                          theirs.mucked)
        if theirs.shown:
            # the same cards, up and down (each street's down cards are written first)
            assert sorted((str(s.card), s.up) for s in mine.cards) == sorted(
                (str(s.card), s.up) for s in theirs.cards)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_hands_are_read_back_to_the_same_end(variant: str) -> None:
    rng = random.Random(f"pokerstars-{variant}")
    for _ in range(60):
        hand = play(Hand(random_settings(rng, variant)), rng, unknown=0.3)
        text = to_pokerstars(hand, number=rng.randint(1, 999))
        same_hand(from_pokerstars(text, hand.settings), hand)


def anna_bruno_carla() -> Hand:
    """Stud hi/lo: Anna's downs entered, Bruno's entered and mucked, Carla's entered at the show,
    Dario's never: he folds on third street."""
    seats = (SeatConfig(1, "Anna", 200), SeatConfig(2, "Bruno", 200), SeatConfig(3, "Carla", 200),
             SeatConfig(4, "Dario", 200))
    hand = Hand(GameSettings("seven-card-stud-hilo", 1, 2, 5, 10, seats=seats))
    plan = {1: "As 2s 5h 7d 9c Kh 3d", 2: "Kd Qd 9s Kc Qs Ts 4s", 3: "?? ?? 8h 8c Jc 6c ??",
            4: "?? ?? Qc"}
    for street, (downs, ups) in enumerate(((2, 1), (0, 1), (0, 1), (0, 1), (1, 0))):
        start = sum(d + u for d, u in ((2, 1), (0, 1), (0, 1), (0, 1), (1, 0))[:street])
        for seat, cards in plan.items():
            if hand.state.seat(seat).folded:
                continue
            words = cards.split()[start : start + downs + ups]
            for i, word in enumerate(words):
                card = None if word == "??" else Card.parse(word)
                hand.push(Deal(seat, card, up=i >= downs))
        while hand.to_act is not None and hand.prompt().kind in ("act", "bring_in"):
            legal = {a.action: a for a in hand.legal_actions()}
            choices = ("fold",) if hand.to_act == 4 else ("bring_in", "check", "call")
            action = next(a for a in choices if a in legal)
            hand.push(Act(hand.to_act, action, legal[action].amount))
    while not hand.finished:
        seat = hand.prompt().seats[0]
        if seat == 2:
            hand.push(Muck(2))
        else:
            entered = {1: [], 3: ["3c", "4c", "6d"]}[seat]
            hand.push(Show(seat, tuple(Card.parse(c) for c in entered)))
    return hand


def test_the_text_reads_as_pokerstars_writes_it() -> None:
    hand = anna_bruno_carla()
    text = to_pokerstars(hand, number=7, table="Da Mario",
                         started=datetime(2026, 11, 29, 21, 5, 3, tzinfo=UTC))
    lines = text.splitlines()
    assert lines[:2] == [
        "PokerStars Hand #7:  7 Card Stud Hi/Lo Limit (5/10) - 2026/11/29 21:05:03 UTC",
        "Table 'Da Mario' 8-max",
    ]
    assert "Seat 2: Bruno (200 in chips)" in lines and "Carla: posts the ante 1" in lines
    # every card known by the end is written where it was dealt (Carla's, shown at the end, too);
    # of Dario's, who folded unseen, his up card only
    assert lines[lines.index("*** 3rd STREET ***") + 1 :][:5] == [
        "Dealt to Anna [As 2s 5h]", "Dealt to Bruno [Kd Qd 9s]", "Dealt to Carla [3c 4c 8h]",
        "Dealt to Dario [Qc]", "Anna: brings in for 2",
    ]
    assert "Dealt to Anna [As 2s 5h] [7d]" in lines and "Dealt to Carla [3c 4c 8h] [8c]" in lines
    assert "Dario: folds" in lines and "Seat 4: Dario folded on the 3rd Street" in lines
    river = lines.index("*** RIVER ***")
    assert lines[river + 1 : river + 4] == [
        "Dealt to Anna [As 2s 5h 7d 9c Kh] [3d]", "Dealt to Bruno [Kd Qd 9s Kc Qs Ts] [4s]",
        "Dealt to Carla [3c 4c 8h 8c Jc 6c] [6d]"]
    assert "*** SHOW DOWN ***" in lines and "Bruno: mucks hand" in lines
    shows = [line for line in lines if ": shows [" in line]
    assert "Carla: shows [3c 4c 8h 8c Jc 6c 6d] (HI: Flush, jack high)" in shows
    assert "Anna: shows [As 2s 5h 7d 9c Kh 3d] (HI: Ace high; LO: 7-5-3-2-A low)" in shows
    collected = [line for line in lines if " collected " in line]
    assert sum(int(line.split()[2]) for line in collected) == hand.result.pots[0].amount  # type: ignore[union-attr]
    summary = lines[lines.index("*** SUMMARY ***") + 1 :]
    assert summary[0] == f"Total pot {hand.result.pots[0].amount} | Rake 0"  # type: ignore[union-attr]
    assert summary[2] == "Seat 2: Bruno mucked [Kd Qd 9s Kc Qs Ts 4s]"
    assert summary[1].startswith("Seat 1: Anna showed [As 2s 5h 7d 9c Kh 3d] and won (")
    same_hand(from_pokerstars(text, hand.settings), hand)
    # without the table's settings: the engine's defaults, the bring-in from its line
    same_hand(from_pokerstars(text), hand)


def test_a_name_two_players_share_is_told_apart_by_the_seat() -> None:
    seats = (SeatConfig(1, "Anna", 50), SeatConfig(4, "Anna", 50))
    hand = Hand(GameSettings("five-card-stud", 1, 2, 4, 8, seats=seats))
    for seat, down, up in ((1, "2c", "Kd"), (4, "3c", "Qd")):
        hand.push(Deal(seat, Card.parse(down), up=False))
        hand.push(Deal(seat, Card.parse(up), up=True))
    hand.push(Act(4, "bring_in"))
    hand.push(Act(1, "complete"))
    hand.push(Act(4, "fold"))
    text = to_pokerstars(hand)
    assert "Seat 4: Anna (4) (50 in chips)" in text and "Anna (4): folds" in text
    same_hand(from_pokerstars(text, hand.settings), hand)


@pytest.mark.parametrize(("text", "words"), [
    ("Hello", "line 1: not a PokerStars stud hand history"),
    ("PokerStars Hand #1:  Hold'em No Limit (5/10)", "not a PokerStars stud hand history"),
    ("PokerStars Hand #1:  Razz Limit (4/8)\nSeat 1: A (50 in chips)\nSeat 2: B (50 in chips)\n"
     "*** 3rd STREET ***\nDealt to A [Kd]\nDealt to B [3c]\nB: brings in for 2",
     "line 7 ('B: brings in for 2'): "),
])
def test_a_history_that_cannot_be_read_says_where(text: str, words: str) -> None:
    with pytest.raises(PHHError, match=words.replace("(", "\\(").replace(")", "\\)")):
        from_pokerstars(text)


def test_other_settings_than_the_texts_are_refused() -> None:
    hand = anna_bruno_carla()
    other = GameSettings("seven-card-stud-hilo", 2, 2, 5, 10, seats=hand.settings.seats,
                         house=HouseRules())
    with pytest.raises(PHHError, match="are not those of the settings given"):
        from_pokerstars(to_pokerstars(hand), other)
