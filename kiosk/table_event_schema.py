"""The shape of each table event (:mod:`kiosk.table_log`), one pydantic model per type.

A table event is read strictly, as JSON is: a number is a whole number (``"5"`` and ``5.0`` are
not), a flag true or false, and a key the type does not have is refused. What a model refuses is a
:class:`~kiosk.errors.KioskError` naming each field and what is allowed there ("chips: a whole
number from 1 to 1000000000"); whether the event is allowed *now* (a free seat, a player seated,
the rebuy limits) is the event kind's ``check``.

>>> validate({"type": "rebuy", "player": 3, "chips": "500"}, Rebuy)
Traceback (most recent call last):
...
kiosk.errors.KioskError: chips: a whole number from 1 to 1000000000.
"""

from __future__ import annotations

from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from annotated_types import Ge, Le
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kiosk.errors import KioskError

CHIPS_MOST = 10**9
SEATS_MOST = 10
Currency = Literal["EUR", "CHF", "GBP", "USD"]
CURRENCIES: tuple[str, ...] = get_args(Currency)

Id = Annotated[int, Field(ge=1, le=2**31)]
Chips = Annotated[int, Field(ge=0, le=CHIPS_MOST)]
SomeChips = Annotated[int, Field(ge=1, le=CHIPS_MOST)]
SeatNumber = Annotated[int, Field(ge=1, le=SEATS_MOST)]
Difference = Annotated[int, Field(ge=-CHIPS_MOST, le=CHIPS_MOST)]
RebuysMost = Annotated[int, Field(ge=0, le=1000)]


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class OpenNight(Entry):
    type: Literal["night_open"]
    currency: Currency = "EUR"
    chips: SomeChips
    money: SomeChips
    buy_in: SomeChips
    rebuys_most: RebuysMost | None = None
    rebuy_most: SomeChips | None = None
    bank: Literal["house"] | Id | None = None


class BuyIn(Entry):
    type: Literal["buy_in"]
    player: Id
    seat: SeatNumber
    chips: SomeChips
    paid: bool | None = None


class Rebuy(Entry):
    type: Literal["rebuy"]
    player: Id
    chips: SomeChips
    paid: bool | None = None


class CashOut(Entry):
    type: Literal["cash_out"]
    counts: Annotated[dict[str, Chips], Field(min_length=1, max_length=SEATS_MOST)]
    paid: bool = False


class Assign(Entry):
    type: Literal["assign"]
    player: Id
    chips: Difference


class Accept(Entry):
    type: Literal["accept"]
    chips: Difference


class CloseNight(Entry):
    type: Literal["night_close"]


class SeatChange(Entry):
    type: Literal["sit_out", "sit_in"]
    seat: SeatNumber


class Move(Entry):
    type: Literal["move"]
    seat: SeatNumber
    to: SeatNumber


def _bounds(model: type[BaseModel], name: str) -> tuple[Any, Any]:
    """The least and most a whole number field allows, read from its type (``None``: no bound)."""
    field = model.model_fields.get(name)
    if field is None:
        return None, None
    least = most = None
    metadata: list[Any] = list(field.metadata)
    # an optional number (``SomeChips | None``): the bounds are in the union's annotated member
    for member in get_args(field.annotation):
        for part in get_args(member)[1:]:
            metadata.extend(getattr(part, "metadata", [part]))
    for meta in metadata:
        if isinstance(meta, Ge):
            least = meta.ge
        if isinstance(meta, Le):
            most = meta.le
    return least, most


def _is_union(model: type[BaseModel], name: str) -> bool:
    field = model.model_fields.get(name)
    return field is not None and get_origin(field.annotation) in (Union, UnionType)


def _allowed(model: type[BaseModel], loc: tuple[Any, ...], kind: str) -> KioskError:
    """What is allowed at ``loc``, in words."""
    name = str(loc[0]) if loc else ""
    if kind == "extra_forbidden":
        return KioskError("entry.allow.unknown")
    if kind == "missing":
        return KioskError("entry.allow.missing")
    if name == "currency":
        return KioskError("entry.allow.choice", allowed=", ".join(CURRENCIES))
    if name == "paid":
        return KioskError("entry.allow.flag")
    if name == "counts" and len(loc) == 1:
        return KioskError("entry.allow.counts", most=SEATS_MOST)
    if name == "counts":
        return KioskError("entry.allow.whole", least=0, most=CHIPS_MOST)
    if name == "bank":
        return KioskError("entry.allow.bank")
    least, most = _bounds(model, name)
    field = model.model_fields.get(name)
    no_limit = field is not None and not field.is_required() and field.default is None
    key = "entry.allow.whole_or_none" if no_limit else "entry.allow.whole"
    return KioskError(key, least=least, most=most)


def validate(event: dict[str, Any], model: type[BaseModel]) -> dict[str, Any]:
    """``event`` as ``model`` reads it, or a refusal naming each field and what it may be."""
    try:
        return model.model_validate(event).model_dump()
    except ValidationError as exc:
        problems: list[tuple[str, KioskError]] = []
        for error in exc.errors(include_input=False, include_url=False):
            loc = tuple(error["loc"])
            if loc and _is_union(model, str(loc[0])):
                # pydantic names the union's member tried (``bank.literal['house']``): the field
                # is what the dealer's screen and the API know, and it is said once
                loc = loc[:1]
            field = ".".join(str(part) for part in loc)
            if all(field != known for known, _ in problems):
                problems.append((field, _allowed(model, loc, error["type"])))
        field, first = problems[0]
        raise KioskError("entry.err.field", field=field, allowed=first,
                         problems=problems) from None


__all__ = ["CURRENCIES", "Accept", "Assign", "BuyIn", "CashOut", "CloseNight", "Move",
           "OpenNight", "Rebuy", "SeatChange", "validate"]
