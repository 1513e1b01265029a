"""Seeded random hands driven by pokerkit 0.7.7 and replayed through our engine (see
test_pokerkit_diff.py for the differences between the two that are set aside)."""

from __future__ import annotations

import random

from pokerkit import (
    Automation,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
    Poker,
    State,
)

from engine.cards import Card
from engine.evaluate import evaluate_exposed
from engine.events import Act, Deal, Show
from engine.hand import Hand
from engine.settings import GameSettings, HouseRules, SeatConfig

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
GAME_TYPES = {
    "seven-card-stud": FixedLimitSevenCardStud,
    "seven-card-stud-hilo": FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    "razz": FixedLimitRazz,
}


class SetAside(Exception):
    """A hand that reaches a situation where pokerkit plays by other rules."""


def _card(pk_card: object) -> Card:
    return Card.parse(repr(pk_card))


def _pokerkit_opener(ours: Hand) -> int | None:
    """pokerkit's first actor on a later street: the best exposed hand among everyone still in,
    or when that player is all in, the next player clockwise who can act (docs/rules.md §9).
    None when the best exposed hand can act: then pokerkit and this engine must agree."""
    live = [s for s in ours.state.seats if not s.folded]  # seat order is clockwise from seat 1
    values = [
        evaluate_exposed([c.card for c in s.cards if c.up and c.card][-4:], ours.variant.id)
        for s in live
    ]
    best = values.index(max(values))
    if not live[best].all_in:
        return None
    for k in range(1, len(live)):
        candidate = live[(best + k) % len(live)]
        if not candidate.all_in:
            return candidate.number
    return None


def play_one(variant: str, seed: int) -> tuple[Hand, State, Poker]:
    """Play one hand through both; raise SetAside or AssertionError on a difference."""
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles its deck with the global generator
    n = rng.randint(2, 7)
    stakes = ((1, 2, 4, 8), (0, 1, 2, 4), (2, 3, 5, 10), (1, 1, 2, 4))
    ante, bring_in, small, big = rng.choice(stakes)
    stacks = [rng.choice((2, 5, 9, 14, 25, 40, 80, 150)) for _ in range(n)]
    game_type = GAME_TYPES[variant]
    game = game_type(AUTOMATIONS, False, ante, bring_in, small, big, mode=Mode.CASH_GAME)
    pk = game(tuple(stacks), n)
    ours = Hand(
        GameSettings(
            variant, ante, bring_in, small, big,
            seats=tuple(SeatConfig(i + 1, f"P{i + 1}", s) for i, s in enumerate(stacks)),
            dealer=0,
            house=HouseRules(max_raises=3, heads_up_uncapped=True),
        )
    )
    short_all_in_this_round = False
    acted_this_street = False
    street = -1
    while pk.status:
        if pk.can_deal_hole():
            op = pk.deal_hole()
            seat = op.player_index + 1
            ours.push(Deal(seat, _card(op.cards[0]), op.statuses[0]))
            continue
        if pk.street_index is not None and pk.street_index != street:
            street = pk.street_index
            short_all_in_this_round = False
            acted_this_street = False
        if pk.actor_index is not None:
            seat = pk.actor_index + 1
            if ours.to_act != seat:
                if street > 0 and not acted_this_street and seat == _pokerkit_opener(ours):
                    raise SetAside("first to act when the best exposed hand is all in")
                raise AssertionError(f"pokerkit: seat {seat} to act, ours: {ours.to_act}")
            acted_this_street = True
            legal = {o.action: o for o in ours.legal_actions()}
            choices = []
            if pk.can_post_bring_in():
                choices.append("pb")
            if pk.can_check_or_call():
                choices.append("cc")
            if pk.can_complete_bet_or_raise_to() and not (
                # pokerkit calls a bring-in player's all-in for less than the bring-in a
                # completion; ours is a bring-in (W 217): never choose it
                pk.can_post_bring_in()
                and pk.min_completion_betting_or_raising_to_amount == pk.effective_bring_in_amount
            ):
                choices.append("cbr")
            if pk.bets[pk.actor_index] < max(pk.bets) and pk.can_fold():
                choices.append("f")
            choice = rng.choice(choices)
            before = ours.state.seat(seat).stack
            if choice == "pb":
                pk.post_bring_in()
                ours.push(Act(seat, "bring_in", legal["bring_in"].amount))
            elif choice == "cc":
                pk.check_or_call()
                action = "check" if "check" in legal else "call"
                ours.push(Act(seat, action))
            elif choice == "f":
                pk.fold()
                ours.push(Act(seat, "fold"))
            else:
                to = pk.min_completion_betting_or_raising_to_amount
                raises = [
                    o for o in ours.legal_actions() if o.action in ("bet", "raise", "complete")
                ]
                if not raises or raises[0].to != to:
                    if short_all_in_this_round:
                        raise SetAside("raise after a short all-in")
                    raise AssertionError(f"pokerkit raises to {to}, ours allows {raises}")
                pk.complete_bet_or_raise_to(to)
                ours.push(Act(seat, raises[0].action, raises[0].amount))
            after = ours.state.seat(seat).stack
            if after == 0 and choice in ("cbr", "pb"):
                short_all_in_this_round = True
            assert pk.stacks[seat - 1] == after, (before, after)
            continue
        if pk.can_show_or_muck_hole_cards():
            pk.show_or_muck_hole_cards(True)
            continue
        raise AssertionError(f"pokerkit waits for something unexpected: {pk}")
    while not ours.finished:
        shower = ours.next_to_show
        assert shower is not None, ours.prompt().text()
        ours.push(Show(shower, tuple(s.card for s in ours.state.seat(shower).cards if s.card)))
    result = ours.result
    assert result is not None
    someone_has_low = any(pot.low for pot in result.pots)
    for pot in result.pots:
        if pot.no_low and someone_has_low:
            raise SetAside("a side pot whose players have no low")
        if len([c for c in pot.odd_chips if c.rule != "hilo-split"]) >= 2:
            raise SetAside("several odd chips from one tie")
    mine = [ours.finishing_stacks[i + 1] for i in range(n)]
    if mine != list(pk.stacks) and sum(1 for pot in result.pots if pot.odd_chips) >= 2:
        # pokerkit kills the hands that win nothing and then splits the pots that have the same
        # players left as one; we split each pot on its own (docs/rules.md §6), so odd chips of
        # several pots may land elsewhere
        raise SetAside("odd chips of several pots split as one by pokerkit")
    assert mine == list(pk.stacks), (seed, mine, list(pk.stacks), ours.to_json())
    return ours, pk, game


