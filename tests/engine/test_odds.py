"""The odds (engine.odds) against independent computations: every deal counted by a plain Python
loop over ``itertools.combinations`` with the value evaluators, or with pokerkit's; answers known
in closed form (a made hand against a draw, hi/lo splits, ties); random runouts against exact
odds to the stated accuracy; the odds of a hand being played."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest
from pokerkit import EightOrBetterLowHand, StandardHighHand

from engine import DECK, Card, CardError, parse_cards
from engine.evaluate import EVALUATORS
from engine.odds import (
    Odds,
    OddsError,
    OddsSettings,
    Problem,
    deals,
    hand_problem,
    odds,
    parse_hand,
    problem,
)
from engine.variants import VARIANTS

Evaluate = Callable[[str, Sequence[Card]], Any]
THIRD_STREET = ["?? ?? " + c for c in ("Ah", "Kd", "7c", "2s", "9h", "5d", "Jc", "3h")]
"""Eight hands of a seven-card game on third street, as a spectator sees them."""


def ours(ranking: str, cards: Sequence[Card]) -> Any:
    return EVALUATORS[ranking](cards)  # type: ignore[index]


def pokerkit(ranking: str, cards: Sequence[Card]) -> Any:
    kind = {"high": StandardHighHand, "low8": EightOrBetterLowHand}[ranking]
    try:
        return kind.from_game("".join(str(c) for c in cards))
    except ValueError:  # pokerkit's "no qualifying low"
        return None


def brute_force(found: Problem, evaluate: Evaluate = ours) -> list[dict[str, Fraction]]:
    """Every deal of the unseen cards, one by one, each hand valued on its own: each player's
    win, high, low, scoop and equity as exact fractions."""
    rankings = found.variant.rankings
    unseen = [c for c in DECK if c.index in set(found.unseen())]
    needs = found.needs()
    players = len(found.hands)
    totals = [dict.fromkeys(("win", "high", "low", "scoop", "equity"), Fraction(0))
              for _ in range(players)]
    count = 0

    def settle(dealt: list[tuple[Card, ...]], community: tuple[Card, ...]) -> None:
        nonlocal count
        count += 1
        hands = [[c for c in found.hands[i] if c is not None] + list(dealt[i])
                 + list(found.shared) + list(community) for i in range(players)]
        high = [evaluate(rankings[0], h) for h in hands]
        top = [i for i in range(players) if high[i] == max(high)]
        shares = [Fraction(int(i in top), len(top)) for i in range(players)]
        lows = [Fraction(0)] * players
        equity = shares
        if len(rankings) == 2:
            low = [evaluate(rankings[1], h) for h in hands]
            qualified = [i for i in range(players) if low[i] is not None]
            if qualified:
                best = max(low[i] for i in qualified)
                low_top = [i for i in qualified if low[i] == best]
                lows = [Fraction(int(i in low_top), len(low_top)) for i in range(players)]
                equity = [(shares[i] + lows[i]) / 2 for i in range(players)]
        for i in range(players):
            totals[i]["high"] += shares[i]
            totals[i]["low"] += lows[i]
            totals[i]["equity"] += equity[i]
            totals[i]["scoop"] += int(equity[i] == 1)
            totals[i]["win"] += int(equity[i] == 1)

    def deal(i: int, left: list[Card], dealt: list[tuple[Card, ...]]) -> None:
        if i == players:
            for community in itertools.combinations(left, int(found.community)):
                settle(dealt, community)
            return
        for combo in itertools.combinations(left, needs[i]):
            deal(i + 1, [c for c in left if c not in combo], [*dealt, combo])

    deal(0, unseen, [])
    return [{k: v / count for k, v in t.items()} for t in totals]


def assert_same(result: Odds, expected: list[dict[str, Fraction]], hilo: bool) -> None:
    assert result.exact and result.margin == 0
    for got, want in zip(result.players, expected, strict=True):
        names = ("win", "high", "low", "scoop", "equity") if hilo else ("win", "equity")
        for name in names:
            assert getattr(got, name) == pytest.approx(float(want[name]), abs=1e-12), name
        if not hilo:
            assert got.high is None and got.low is None and got.scoop is None


CASES = [
    # seven-card stud, each hand missing its last card: 40 x 39 deals
    ("seven-card-stud", ["Ah As 2c 7d 9h 3s", "Kh Ks 4c 8d Th 5s"], ""),
    # hi/lo: a low draw against a made high hand
    ("seven-card-stud-hilo", ["Ac 2d 5h Kc Ks 9d", "3c 4c 6h Qd Qs Jh"], ""),
    ("razz", ["Ac 2d 5h Kc 7s 9d", "3c 4c 6h Qd 8s Jh"], "2h"),
    # five-card stud, a down card not known
    ("five-card-stud", ["?? Ah Kd 9c 5c", "Jc Jd 4s 5h"], "Qh 7c 7d 8s 2h"),
    ("soko", ["Kh Th 7h 2c", "Jh Qd Kc Ah"], "3h 9h"),
    # eight hands of seven-card stud hi/lo on seventh street: the deck is short, one
    # community card for everyone from the four cards left
    ("seven-card-stud-hilo", [
        "Ah As 2c 7d 9h 3s", "Kh Ks 4c 8d Th 5s", "Qh Qs 4d 8c Tc 5c", "Jh Js 4h 8h Td 5d",
        "2d 3d 6c 6d 7h 9c", "Ad Kd Kc Qd Qc Jd", "Jc Ts 9d 9s 8s 7s", "2h 3h 4s 5h 6h 7c",
    ], ""),
]


@pytest.mark.parametrize(("game", "hands", "dead"), CASES, ids=[
    "stud", "hilo", "razz-dead", "five-unknown-down", "soko", "eight-community"])
def test_exact_odds_equal_every_deal_counted(game: str, hands: list[str], dead: str) -> None:
    found = problem(game, hands, dead)
    result = odds(found)
    assert result.runouts == deals(found)
    assert_same(result, brute_force(found), VARIANTS[game].split_low)


def test_the_deck_runs_short_and_one_community_card_is_dealt() -> None:
    found = problem("seven-card-stud-hilo", [h for _, hands, _ in CASES[-1:] for h in hands])
    assert found.community and found.needs() == (0,) * 8
    assert deals(found) == 4 and odds(found).runouts == 4


@pytest.mark.parametrize(("game", "hands", "dead"), [
    ("five-card-stud", ["As Ks Qs Js", "Ah Ad 2c 3d"], ""),
    # 18 cards unseen: 306 deals, each hand valued by pokerkit for high and for low
    ("seven-card-stud-hilo", ["Ac 2d 5h Kc Ks 9d", "3c 4c 6h Qd Qs Jh"],
     "2c 2h 3d 3h 4d 4h 5c 5d 6c 6d 7c 7d 7h 8c 8d 8h 9c 9h Tc Td Th Jc"),
], ids=["five-card-stud", "hilo"])
def test_exact_odds_equal_pokerkit_evaluators_deal_by_deal(game: str, hands: list[str],
                                                           dead: str) -> None:
    found = problem(game, hands, dead)
    assert_same(odds(found), brute_force(found, pokerkit), VARIANTS[game].split_low)


def test_a_made_hand_against_a_draw_in_closed_form() -> None:
    # five-card stud, one card to come, the last ace dead: the spades draw wins with any of 9
    # spades and 3 tens (a flush or a straight), which two pair at most cannot beat; any other
    # card leaves it behind the pair of aces
    found = problem("five-card-stud", ["As Ks Qs Js", "Ah Ad 2c 3d"], "Ac")
    result = odds(found)
    assert result.exact and result.runouts == 43 * 42
    assert result.players[0].equity == pytest.approx(12 / 43)
    assert result.players[1].equity == pytest.approx(31 / 43)
    assert result.players[0].win == pytest.approx(12 / 43)


def test_heads_up_with_one_out_twice() -> None:
    # seven-card stud, one card to come each: the kings need one of the two kings left (they
    # cannot catch up otherwise); every other card leaves the aces ahead
    found = problem("seven-card-stud", ["Ah As 2c 7d 9h 3s", "Kh Kc 4c 8d Th 5s"], "Ks")
    result = odds(found)
    # the kings catch the last king (1 of 39 unseen to them) and win; nothing else helps them
    # except two pair that beats aces-up... counted exactly against every deal
    assert_same(result, brute_force(found), hilo=False)
    assert 0 < result.players[1].equity < 0.25


def test_hi_lo_splits_ties_and_scoops_when_every_card_is_known() -> None:
    flush_vs_low = problem("seven-card-stud-hilo", ["Ac 2d 3h 5s 7c Kd Kh", "2c 9c Jc Qc 4c Th Td"])
    high, low = odds(flush_vs_low).players
    assert (high.high, high.low, high.equity, high.scoop) == (0, 1, 0.5, 0)
    assert (low.high, low.low, low.equity, low.scoop) == (1, 0, 0.5, 0)
    no_low = problem("seven-card-stud-hilo", ["Ac Ad 9h 9s Tc Jd Qh", "Kc Kd 9c 9d Ts Jh 2s"])
    aces, kings = odds(no_low).players
    assert (aces.equity, aces.scoop, aces.win, aces.low) == (1, 1, 1, 0)
    assert kings.equity == 0
    quartered = problem("seven-card-stud-hilo", ["Ac 2d 3h 4s 7c Kd Kh", "As 2c 3d 4h 7s 9d 9h"])
    kings, nines = odds(quartered).players
    assert (kings.high, kings.low, kings.equity) == (1, 0.5, 0.75)
    assert (nines.high, nines.low, nines.equity, nines.scoop) == (0, 0.5, 0.25, 0)


def test_a_tie_counts_as_the_share_it_wins() -> None:
    straights = problem("seven-card-stud", ["5c 6d 7h 8s 9c 2d 2h", "5d 6h 7s 8c 9d 3c 3s"])
    first, second = odds(straights).players
    assert first.equity == second.equity == 0.5
    assert first.win == second.win == 0


def test_random_runouts_are_within_the_stated_accuracy_of_exact_odds() -> None:
    # heads-up with two cards to come each, ten cards dead: 496 x 435 deals, counted exactly
    found = problem("seven-card-stud-hilo", ["Ac 3d 5h Kc Ks", "4c 4h 6h Qd Js"],
                    "2c 2s 7c 7s 8d 8s 9h Th Jd Qc")
    exact = odds(found, exact=True)
    assert exact.exact and exact.runouts == 215_760
    outside = 0
    figures = 0
    for seed in range(4):
        estimate = odds(found, seed=seed)
        assert not estimate.exact and estimate.margin <= 0.005
        for got, want in zip(estimate.players, exact.players, strict=True):
            for name in ("win", "high", "low", "scoop", "equity"):
                error = abs(getattr(got, name) - getattr(want, name))
                assert error < 2 * 0.005, (seed, name, error)
                outside += error > 0.005
                figures += 1
    # each figure is within half a point at 95 %: about 1 in 20 may fall outside
    assert outside <= figures * 0.15


def test_the_runouts_asked_for_are_dealt() -> None:
    found = problem("razz", ["?? ?? 3c", "?? ?? 5d", "?? ?? Kh"])
    result = odds(found, runouts=3000, seed=1)
    assert not result.exact and result.runouts == 3000
    assert sum(p.equity for p in result.players) == pytest.approx(1)
    assert result.players[0].equity > result.players[2].equity  # a 3 up beats a king up


def test_estimates_stop_when_every_figure_is_precise_enough() -> None:
    found = problem("seven-card-stud-hilo", THIRD_STREET)
    assert found.community  # eight players on third street: the deck will run short
    result = odds(found, seed=7)
    assert not result.exact and 0 < result.margin <= 0.005
    assert sum(p.equity for p in result.players) == pytest.approx(1)
    loose = odds(found, seed=7, settings=OddsSettings(margin=0.02))
    assert loose.runouts < result.runouts / 3
    assert loose.margin <= 0.02


def test_equal_problems_have_equal_keys() -> None:
    one = problem("seven-card-stud", ["?? ?? Ah", "?? ?? Kd"], "2c 3c")
    other = problem("seven-card-stud", ["?? Ah ??", "?? ?? Kd"], "3c 2c")
    assert one.key == other.key
    assert one.key != problem("seven-card-stud", ["?? ?? Kd", "?? ?? Ah"], "2c 3c").key
    assert one.key != problem("seven-card-stud", ["?? ?? Ah", "?? ?? Kd"], "2c").key


def test_parse_hand() -> None:
    assert parse_hand("?? ?? 7h 7d 2c") == (None, None, *parse_cards("7h 7d 2c"))
    assert parse_hand("????10h") == (None, None, Card.parse("Th"))
    with pytest.raises(OddsError, match="write \\?\\? for each card"):
        parse_hand("??? Ah")


@pytest.mark.parametrize(("args", "words", "italian"), [
    (("holdem", ["Ah Kd", "Qs Qc"]), "is not a game", "non è un gioco"),
    (("razz", ["?? ?? 2c"] * 9), "1 to 8 players, not 9", "da 1 a 8 giocatori, non 9"),
    (("five-card-stud", ["Ah Kd Qs Jc Tc 9c", "2c"]), "holds at most 5", "al massimo 5"),
    (("seven-card-stud", THIRD_STREET, "", "", False), "need 48 more cards but only 44",
     "altre 48 carte ma le carte non viste sono solo 44"),
])
def test_what_cannot_be_computed_is_said_in_words(args: tuple[Any, ...], words: str,
                                                  italian: str) -> None:
    with pytest.raises(OddsError, match=words) as caught:
        problem(*args)
    assert italian in caught.value.text("it")


def test_a_card_twice_is_refused() -> None:
    with pytest.raises(CardError, match="Ah appears twice"):
        problem("seven-card-stud", ["Ah Kd Qs", "2c 3c 4c"], "Ah")


def test_exact_or_runouts_not_both_and_too_many_deals_to_count() -> None:
    found = problem("seven-card-stud", ["?? ?? Ah", "?? ?? Kd"])
    with pytest.raises(OddsError, match="not both"):
        odds(found, exact=True, runouts=10)
    with pytest.raises(OddsError, match="at least 1"):
        odds(found, runouts=0)
    with pytest.raises(OddsError, match="ask for runouts instead"):
        odds(found, exact=True)


def test_the_odds_of_a_hand_being_played() -> None:
    from engine import Deal, GameSettings, Hand, SeatConfig

    seats = tuple(SeatConfig(n, f"P{n}", 100) for n in range(1, 9))
    hand = Hand(GameSettings("seven-card-stud-hilo", 1, 2, 5, 10, seats=seats))
    ups = parse_cards("Ah Kd 7c 2s 9h 5d Jc 3h")
    downs = [c for c in DECK if c not in ups]
    for seat in range(1, 9):
        hand.push(Deal(seat, downs[2 * seat], up=False))
        hand.push(Deal(seat, None, up=False))
        hand.push(Deal(seat, ups[seat - 1], up=True))
    seats_live, public = hand_problem(hand, "public") or ((), None)
    assert seats_live == tuple(range(1, 9)) and public is not None
    assert public.hands[0] == (None, None, ups[0])
    assert public.community  # eight players to the end: the deck runs short on seventh street
    _, everything = hand_problem(hand, "all") or ((), None)
    assert everything is not None and everything.hands[0] == (downs[2], None, ups[0])
    assert public.key != everything.key
    # the player after the bring-in folds: out of the pot, its up card dead
    from engine import Act

    assert hand.to_act is not None
    hand.push(Act(hand.to_act, "bring_in"))
    folder = hand.to_act
    assert folder is not None
    hand.push(Act(folder, "fold"))
    live, after = hand_problem(hand, "public") or ((), None)
    assert folder not in live and after is not None and len(after.hands) == 7
    assert after.dead == (ups[folder - 1],)
    _, known = hand_problem(hand, "all") or ((), None)
    assert known is not None and set(known.dead) == {ups[folder - 1], downs[2 * folder]}


def test_two_players_never_run_short() -> None:
    from engine import Deal, GameSettings, Hand, SeatConfig

    seats = (SeatConfig(1, "A", 100), SeatConfig(2, "B", 100))
    hand = Hand(GameSettings("seven-card-stud", 1, 2, 5, 10, seats=seats))
    assert not hand.community_ahead()
    hand.push(Deal(1, None, up=False))
    live, found = hand_problem(hand) or ((), None)
    assert live == (1, 2) and found is not None
    assert found.needs() == (7, 7) and not found.community  # an unknown card is still to know


def test_a_problem_made_by_hand_that_cannot_be_dealt_is_refused() -> None:
    hands = tuple(parse_hand(h) for h in THIRD_STREET)
    with pytest.raises(OddsError, match="need 48 more cards but only 44"):
        odds(Problem("seven-card-stud", hands))
