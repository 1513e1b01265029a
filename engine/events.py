"""The events of a hand: everything the dealer reports, as frozen values with a JSON-able form.

>>> from engine.cards import Card
>>> Deal(3, Card.parse("Ah"), up=True).to_dict()
{'type': 'deal', 'seat': 3, 'card': 'Ah', 'up': True}
>>> event_from_dict({'type': 'act', 'seat': 2, 'action': 'call', 'amount': 4})
Act(seat=2, action='call', amount=4)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

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


def check_fields(event: object) -> None:
    """Raise a :class:`HandError` naming the first field of ``event`` that is not of its kind: a
    seat that is not an ``int``, an amount that is not a whole number of chips, an action that is
    not one of :data:`ACTIONS`, a card that is not a :class:`Card`. Events read from JSON and
    events made in Python are refused alike, with words that say what is allowed.

    >>> check_fields(Act(2, "call", 2.0))
    Traceback (most recent call last):
    ...
    engine.hand_errors.HandError: The amount must be a whole number of chips, or none for the \
only legal one; not 2.0
    """
    check = _CHECKS.get(type(event))
    if check is None:  # a subclass of an event, or not an event at all
        check = next((c for t, c in _CHECKS.items() if isinstance(event, t)), None)
        if check is None:
            raise HandError(
                "play.error.not_event", value=repr(event), types=", ".join(EVENT_TYPES)
            )
    check(event)


def _check_seat(seat: object) -> None:
    if type(seat) is not int:  # True, 2.0 and Decimal(2) are not seat numbers
        raise HandError("play.error.seat_type", value=repr(seat))


def _check_act(event: Act) -> None:
    if event.action not in _ACTION_SET:
        raise HandError(
            "play.error.action_name", value=repr(event.action), actions=", ".join(ACTIONS)
        )
    if event.amount is not None and type(event.amount) is not int:
        raise HandError("play.error.amount_type", value=repr(event.amount))
    _check_seat(event.seat)


def _check_deal(event: Deal) -> None:
    if event.card is not None:
        _check_card(event.card)
    if type(event.up) is not bool:
        raise HandError("play.error.up_type", value=repr(event.up))
    _check_seat(event.seat)


def _check_seat_card(event: Identify | Expose) -> None:
    _check_card(event.card)
    _check_seat(event.seat)


def _check_show(event: Show) -> None:
    if not isinstance(event.cards, tuple | list):
        raise HandError("play.error.cards_type", value=repr(event.cards))
    for card in event.cards:
        _check_card(card)
    _check_seat(event.seat)


_CHECKS: dict[type, Callable[[Any], None]] = {
    Act: _check_act,
    Deal: _check_deal,
    Community: lambda event: _check_card(event.card),
    Identify: _check_seat_card,
    Expose: _check_seat_card,
    Show: _check_show,
    Muck: lambda event: _check_seat(event.seat),
    Misdeal: lambda event: None,
}
_ACTION_SET = frozenset(ACTIONS)


def _check_card(card: object) -> None:
    if type(card) is not Card:
        raise HandError("play.error.card_type", value=repr(card))


def _card(data: dict[str, Any], key: str = "card") -> Any:
    """The card of ``data[key]`` read from its text; anything else is left for
    :func:`check_fields` to refuse."""
    value = data.get(key)
    if not isinstance(value, str):
        return value
    try:
        return Card.parse(value)
    except CardError as exc:
        raise HandError(f"{data!r}: {exc}") from exc


def event_from_dict(data: dict[str, Any]) -> Event:
    """Read an event from its :meth:`to_dict` form; a malformed one raises :class:`HandError`."""
    if not isinstance(data, dict):
        raise HandError(f"an event must be an object, not {data!r}")
    kind = data.get("type")
    seat: Any = data.get("seat")
    event: Event
    if kind == "deal":
        card = None if data.get("card") is None else _card(data)
        up: Any = data.get("up")
        event = Deal(seat, card, up)
    elif kind == "community":
        event = Community(_card(data))
    elif kind == "act":
        action: Any = data.get("action")
        event = Act(seat, action, data.get("amount"))
    elif kind == "identify":
        event = Identify(seat, _card(data))
    elif kind == "expose":
        event = Expose(seat, _card(data))
    elif kind == "show":
        cards: Any = data.get("cards")
        if isinstance(cards, list | tuple):
            cards = tuple(_card({"card": c}) for c in cards)
        event = Show(seat, cards)
    elif kind == "muck":
        event = Muck(seat)
    elif kind == "misdeal":
        event = Misdeal()
    else:
        raise HandError(f"unknown event type {kind!r}: the types are {', '.join(EVENT_TYPES)}")
    try:
        check_fields(event)
    except HandError as exc:
        raise exc.with_prefix(f"{data!r}: ") from exc
    return event
