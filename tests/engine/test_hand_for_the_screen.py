"""What the engine tells a dealer's screen: every hand shown at showdown is named in the result,
the losing ones too, with why it lost; a call or raise that puts a player all in says so; the next
card to deal goes round the table in dealing order."""

from __future__ import annotations

from engine.hand import Hand
from tests.engine.hand_helpers import act, check_down, deal, settings


def test_soko_four_flush_beats_a_pair_and_says_why() -> None:
    hand = Hand(settings("soko", stacks={1: 100, 2: 100}))
    check_down(hand, [{1: "Ah Th", 2: "Qs Qd"}, {1: "7h", 2: "9s"}, {1: "2h", 2: "4c"},
                      {1: "9c", 2: "3d"}])
    assert hand.result is not None
    pot = hand.result.pots[0]
    assert [s.seat for s in pot.high] == [1]
    assert [(b.seat, b.by) for b in pot.beaten] == [(2, 1)]
    beaten = pot.beaten[0]
    assert beaten.name("it") == "Coppia di donne"
    assert beaten.why("it") == (
        "Colore di quattro all'asso batte coppia di donne: "
        "nel Sökö il colore di quattro vale più di una coppia"
    )
    assert beaten.why("en") == (
        "Four-flush, ace high beats pair of queens: in Sökö a four-flush beats a pair"
    )
    assert pot.to_dict("en")["beaten"][0]["hand"] == "Pair of queens"


def test_hilo_names_the_lost_high_and_the_missing_low() -> None:
    hand = Hand(settings("seven-card-stud-hilo", stacks={1: 100, 2: 100}))
    check_down(hand, [
        {1: "As 2s 5h", 2: "Kc Kd 9s"}, {1: "7d", 2: "Ks"}, {1: "9c", 2: "Qs"},
        {1: "Kh", 2: "Ts"}, {1: "3d", 2: "4s"},
    ])
    assert hand.result is not None
    pot = hand.result.pots[0]
    assert [s.seat for s in pot.high] == [2] and [s.seat for s in pot.low] == [1]
    by_half = {b.half: b for b in pot.beaten}
    assert by_half["high"].seat == 1 and by_half["high"].by == 2
    assert by_half["high"].why("en").startswith("Flush, king high beats ")
    assert by_half["low"].seat == 2 and by_half["low"].hand is None
    assert by_half["low"].name("it") == "nessun basso valido (8 o meno)"
    assert by_half["low"].why("it").startswith("Basso 7-5-3-2-A vince il basso")


def test_two_hands_of_one_name_are_told_apart_by_the_deciding_card() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 100}))
    check_down(hand, [
        {1: "Qs Qd 2c", 2: "Qh Qc 3c"}, {1: "As", 2: "Kd"}, {1: "9c", 2: "8d"},
        {1: "6h", 2: "5s"}, {1: "4d", 2: "7s"},
    ])
    assert hand.result is not None
    (beaten,) = hand.result.pots[0].beaten
    assert beaten.seat == 2
    assert beaten.why("it") == (
        "Coppia di donne batte coppia di donne: carta decisiva, asso contro re"
    )


def test_a_call_that_puts_a_player_all_in_says_all_in() -> None:
    hand = Hand(settings(stacks={1: 100, 2: 4}))
    deal(hand, {1: "?? ?? 3c", 2: "?? ?? Kd"})
    act(hand, (1, "complete"))
    legal = {o.action: o for o in hand.legal_actions()}
    assert legal["call"].amount == 3 and legal["call"].all_in
    assert not legal["fold"].all_in


def test_the_next_card_goes_round_the_table_one_at_a_time_down_cards_first() -> None:
    from engine.cards import Card
    from engine.events import Deal

    hand = Hand(settings(stacks={1: 100, 2: 100, 3: 100}, dealer=1))
    order = []
    while (nxt := hand.next_card()) is not None:
        order.append(nxt)
        seat, up = nxt
        card = Card.parse(["2c", "3c", "4c"][seat - 1]) if up else None
        hand.push(Deal(seat, card, up))
    # the dealer sits at seat 1: dealing starts on its left, seat 2
    assert order == [(2, False), (3, False), (1, False), (2, False), (3, False), (1, False),
                     (2, True), (3, True), (1, True)]
    assert hand.next_card() is None  # betting now
