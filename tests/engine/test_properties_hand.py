"""Property tests over random hands of every variant: chips are conserved, no stack goes negative,
every pot is pushed in whole chip units, undo restores the prior state and JSON replays exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK
from engine.events import Act, Deal, event_from_dict
from engine.hand import Hand
from engine.variants import VARIANTS
from tests.engine.hand_driver import next_event, random_settings


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(sorted(VARIANTS)),
    odd_chip=st.sampled_from(["nearest-dealer", "high-card-suit"]),
    burns=st.booleans(),
    uncapped=st.booleans(),
    unknown=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_random_hands_keep_every_invariant(
    seed: int, variant: str, odd_chip: str, burns: bool, uncapped: bool, unknown: float
) -> None:
    rng = random.Random(seed)
    house: dict[str, object] = {
        "odd_chip": odd_chip, "burns": burns, "heads_up_uncapped": uncapped
    }
    if not VARIANTS[variant].bring_in:
        house["bring_in"] = rng.random() < 0.5
    if VARIANTS[variant].open_pair_street is not None:
        house["open_pair_double"] = rng.random() < 0.5
    game = random_settings(rng, variant, **house)
    unit = game.chip_unit
    total = sum(s.stack for s in game.seats)
    hand = Hand(game)
    deck = list(DECK)
    rng.shuffle(deck)
    while not hand.finished:
        before = hand.state
        # every prompt reads in both languages; every legal action is accepted, others are not
        assert hand.prompt().text("en") and hand.prompt().text("it")
        seat = hand.to_act
        legal = hand.legal_actions()
        assert bool(legal) == (seat is not None)
        listed = {(option.action, option.amount) for option in legal}
        for option in legal:
            assert seat is not None and hand.can(Act(seat, option.action, option.amount))
            # one chip unit more is refused, unless it is itself listed (an open pair on 4th
            # street allows a small or a big step, and an all-in may fall between them)
            if (option.action, option.amount + unit) not in listed:
                assert not hand.can(Act(seat, option.action, option.amount + unit))
        for other in before.seats:
            if other.number != seat:
                assert not hand.can(Act(other.number, "call"))
        used = [c.card for s in before.seats for c in s.cards if c.card is not None]
        if used:
            assert not hand.can(Deal(before.seats[0].number, used[0], True))
        assert hand.state == before
        event = next_event(hand, rng, deck, unknown)
        stored = hand.push(event)
        assert event_from_dict(stored.to_dict()) == stored
        after = hand.state
        # undo after any event restores the prior state exactly, and redo gives the same again
        assert hand.pop() == stored
        assert hand.state == before
        hand.push(stored)
        assert hand.state == after
        for seat_state in after.seats:
            assert seat_state.stack >= 0
            assert seat_state.stack % unit == 0
        if not after.finished:
            assert sum(s.stack + s.committed for s in after.seats) == total
            assert after.total_pot == sum(s.committed for s in after.seats)
            assert sum(p.amount for p in after.pots) + sum(s.bet for s in after.seats) == (
                after.total_pot
            )
    state = hand.state
    assert sum(s.stack for s in state.seats) == total
    result = hand.result
    assert result is not None
    pushed = 0
    for pot in result.pots:
        assert sum(a for _, a in pot.awards) == pot.amount
        for share in (*pot.high, *pot.low):
            assert share.amount % unit == 0
            assert share.seat in pot.eligible
        pushed += pot.amount
    assert pushed + sum(a for _, a in result.returned) == sum(
        c.stack for c in game.seats
    ) - sum(s.stack for s in state.seats) + sum(result.payout(s.number) for s in state.seats)
    replayed = Hand.from_json(hand.to_json())
    assert replayed.state == state
    assert replayed.finishing_stacks == hand.finishing_stacks


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(sorted(VARIANTS)),
    uncapped=st.booleans(),
)
def test_no_bet_or_raise_is_offered_that_no_other_player_could_call(
    seed: int, variant: str, uncapped: bool
) -> None:
    """docs/rules.md §4: when at most one player can still bet there is no betting. Nobody is
    offered a bet, raise or completion that no other player still in could call, nor the optional
    first action of §3 when no other player could bet after it."""
    rng = random.Random(seed)
    house: dict[str, object] = {"heads_up_uncapped": uncapped}
    if not VARIANTS[variant].bring_in:
        house["bring_in"] = rng.random() < 0.5
    game = random_settings(rng, variant, **house)
    hand = Hand(game)
    deck = list(DECK)
    rng.shuffle(deck)
    while not hand.finished:
        seat = hand.to_act
        if seat is not None:
            others = [
                s for s in hand.state.seats
                if s.number != seat and not s.folded and not s.all_in
            ]
            offered = {o.action for o in hand.legal_actions()}
            prompt = hand.prompt()
            if not others:
                assert not offered & {"bet", "raise", "complete"}, (offered, hand.to_json())
                assert not (prompt.kind == "bring_in" and prompt.param("optional")), (
                    hand.to_json()
                )
        hand.push(next_event(hand, rng, deck, 0.5))
