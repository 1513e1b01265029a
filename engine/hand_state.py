"""The hand as a value: a full-information snapshot that compares with ``==`` (see docs/engine.md).

The kiosk's presenter filters it per viewer; undo and replay are checked by comparing snapshots.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.events import Act
from engine.pots import Pot
from engine.showdown import HandResult


@dataclass(frozen=True, slots=True)
class CardSlot:
    """One card in front of a seat: the card (None: unknown), dealt up, and public (up, exposed
    by accident or shown)."""

    card: Card | None
    up: bool
    exposed: bool


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat: its chips behind (``stack``), this round's bet, every chip it put in this hand
    (``committed``), whether it folded or is all in, its cards in the order dealt, and whether it
    showed or mucked at showdown."""

    number: int
    name: str
    stack: int
    bet: int
    committed: int
    folded: bool
    all_in: bool
    cards: tuple[CardSlot, ...]
    shown: bool
    mucked: bool


@dataclass(frozen=True, slots=True)
class HandState:
    """A full-information snapshot of the hand (see docs/engine.md); compare with ``==``."""

    variant: str
    phase: str
    street: int
    street_name: str
    seats: tuple[SeatState, ...]
    community: tuple[Card, ...]
    pots: tuple[Pot, ...]
    total_pot: int
    to_act: int | None
    last_action: Act | None
    finished: bool
    result: HandResult | None
    deck_left: int
    burns: int
    runout: str | None
    first_to_show: int | None

    def seat(self, number: int) -> SeatState:
        for s in self.seats:
            if s.number == number:
                return s
        raise KeyError(number)
