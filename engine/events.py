"""The events of a hand: everything the dealer reports, as frozen values with a JSON-able form.

>>> from engine.cards import Card
>>> Deal(3, Card.parse("Ah"), up=True).to_dict()
{'type': 'deal', 'seat': 3, 'card': 'Ah', 'up': True}
>>> event_from_dict({'type': 'act', 'seat': 2, 'action': 'call', 'amount': 4})
Act(seat=2, action='call', amount=4)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from engine.cards import Card
from engine.errors import CardError
from engine.hand_errors import HandError

ActionName = Literal["bring_in", "complete", "bet", "raise", "call", "check", "fold"]
ACTIONS: tuple[str, ...] = ("bring_in", "complete", "bet", "raise", "call", "check", "fold")


def _card_text(card: Card | None) -> str | None:
    return None if card is None else str(card)


@dataclass(frozen=True, slots=True)
class Deal:
    """A card dealt to ``seat``, face up or down; ``card`` None is an unknown down card."""

    seat: int
    card: Card | None
    up: bool

    def to_dict(self) -> dict[str, Any]:
        return {"type": "deal", "seat": self.seat, "card": _card_text(self.card), "up": self.up}


@dataclass(frozen=True, slots=True)
class Community:
    """The one community card, turned when the deck runs short before the last street."""

    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "community", "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Act:
    """A betting action. ``amount`` is the chips the seat puts in with it (None: the legal one)."""

    seat: int
    action: str
    amount: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"type": "act", "seat": self.seat, "action": self.action, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Identify:
    """The dealer enters a down card of ``seat`` that was dealt unknown; it stays face down."""

    seat: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "identify", "seat": self.seat, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Expose:
    """A down card of ``seat`` was exposed by accident: it becomes public."""

    seat: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "expose", "seat": self.seat, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Show:
    """``seat`` shows its hand at showdown: its down cards or its whole hand."""

    seat: int
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "show", "seat": self.seat, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Muck:
    """``seat`` gives up its hand at showdown."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "muck", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Misdeal:
    """The hand is void: every chip committed goes back."""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "misdeal"}


Event = Deal | Community | Act | Identify | Expose | Show | Muck | Misdeal
EVENT_TYPES: tuple[str, ...] = (
    "deal", "community", "act", "identify", "expose", "show", "muck", "misdeal"
)


def _seat(data: dict[str, Any]) -> int:
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise HandError(f"{data!r}: 'seat' must be a seat number, not {seat!r}")
    return seat


def _card(data: dict[str, Any], key: str = "card") -> Card:
    value = data.get(key)
    if isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise HandError(f"{data!r}: {key!r} must be a card such as 'Ah', not {value!r}")
    try:
        return Card.parse(value)
    except CardError as exc:
        raise HandError(f"{data!r}: {exc}") from exc


def event_from_dict(data: dict[str, Any]) -> Event:
    """Read an event from its :meth:`to_dict` form; a malformed one raises :class:`HandError`."""
    if not isinstance(data, dict):
        raise HandError(f"an event must be an object, not {data!r}")
    kind = data.get("type")
    if kind == "deal":
        up = data.get("up")
        if not isinstance(up, bool):
            raise HandError(f"{data!r}: 'up' must be true or false")
        card = None if data.get("card") is None else _card(data)
        return Deal(_seat(data), card, up)
    if kind == "community":
        return Community(_card(data))
    if kind == "act":
        action = data.get("action")
        if action not in ACTIONS:
            raise HandError(f"{data!r}: the action must be one of {', '.join(ACTIONS)}")
        amount = data.get("amount")
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise HandError(f"{data!r}: 'amount' must be a whole number of chips or null")
        return Act(_seat(data), cast(str, action), amount)
    if kind == "identify":
        return Identify(_seat(data), _card(data))
    if kind == "expose":
        return Expose(_seat(data), _card(data))
    if kind == "show":
        cards = data.get("cards")
        if not isinstance(cards, list | tuple):
            raise HandError(f"{data!r}: 'cards' must be a list of cards")
        return Show(_seat(data), tuple(_card({"card": c}) for c in cards))
    if kind == "muck":
        return Muck(_seat(data))
    if kind == "misdeal":
        return Misdeal()
    raise HandError(f"unknown event type {kind!r}: the types are {', '.join(EVENT_TYPES)}")
