"""Random play of whole hands through the engine, for property, differential and speed tests."""

from __future__ import annotations

import random

from engine.cards import DECK, Card
from engine.events import (
    Act,
    Community,
    Deal,
    Event,
    Expose,
    Identify,
    Misdeal,
    Muck,
    Show,
)
from engine.hand import Hand
from engine.settings import GameSettings, HouseRules, SeatConfig
from engine.variants import VARIANTS


def random_settings(
    rng: random.Random, variant: str | None = None, **house: object
) -> GameSettings:
    """Settings with random seats, unequal stacks (side pots are common) and small stakes."""
    v = VARIANTS[variant or rng.choice(list(VARIANTS))]
    n = rng.randint(v.min_players, v.max_players)
    unit = rng.choice((1, 1, 1, 5))
    small = rng.choice((2, 4)) * unit
    big = 2 * small
    bring = 0 if not v.bring_in and not house.get("bring_in") else rng.choice((1, 2)) * unit
    if not v.bring_in and house.get("bring_in"):
        bring = unit
    numbers = sorted(rng.sample(range(1, 11), n))
    dealer = rng.choice([0, *numbers])
    seats = tuple(
        SeatConfig(num, f"P{num}", rng.choice((3, 8, 15, 30, 60, 120)) * unit) for num in numbers
    )
    return GameSettings(
        v.id, ante=rng.choice((0, 1)) * unit, bring_in=bring, small_bet=small, big_bet=big,
        seats=seats, dealer=dealer, chip_unit=unit, house=HouseRules(**house),  # type: ignore[arg-type]
    )


def next_event(hand: Hand, rng: random.Random, deck: list[Card], unknown: float = 0.2) -> Event:
    """A random legal event for the hand's next step, taking cards from ``deck``."""
    prompt = hand.prompt()
    if rng.random() < 0.004:
        return Misdeal()
    if rng.random() < 0.04:
        # now and then the dealer enters a card dealt unknown, or a card is exposed by accident
        hidden = [n for n in sorted(hand.finishing_stacks) if None in hand.seat_cards(n)]
        if hidden and deck:
            seat = rng.choice(hidden)
            kind = Expose if rng.random() < 0.3 else Identify
            return kind(seat, deck.pop())
    if prompt.kind == "deal":
        needed = hand.cards_needed()
        seat = rng.choice(sorted(needed))
        downs, ups = needed[seat]
        up = downs == 0 or (ups > 0 and rng.random() < 0.5)
        card = deck.pop()
        if not up and rng.random() < unknown:
            deck.insert(0, card)
            return Deal(seat, None, False)
        return Deal(seat, card, up)
    if prompt.kind == "community":
        return Community(deck.pop())
    if prompt.kind in ("act", "bring_in"):
        seat = prompt.seats[0]
        options = hand.legal_actions()
        weights = [
            {"fold": 1, "check": 4, "call": 4, "bring_in": 3}.get(o.action, 2) for o in options
        ]
        option = rng.choices(options, weights)[0]
        return Act(seat, option.action, option.amount)
    seat = prompt.seats[0]
    if not hand.must_show(seat) and rng.random() < 0.2:
        return Muck(seat)
    state = hand.state.seat(seat)
    cards = [s.card for s in state.cards if not s.up and s.card is not None]
    for slot in state.cards:
        if slot.card is None:
            cards.append(deck.pop())
    return Show(seat, tuple(cards))


def play(hand: Hand, rng: random.Random, unknown: float = 0.2) -> Hand:
    """Play ``hand`` to its end with random legal events."""
    used = {s.card for seat in hand.state.seats for s in seat.cards if s.card is not None}
    deck = [c for c in DECK if c not in used]
    rng.shuffle(deck)
    while not hand.finished:
        hand.push(next_event(hand, rng, deck, unknown))
    return hand
