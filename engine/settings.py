"""Game settings as data: the variant, the stakes, the house rules, the seats and the dealer.

Settings are validated when made; anything that cannot be played raises :class:`SettingsError`
with a message that says which value is wrong and what is allowed.

>>> s = GameSettings("razz", ante=1, bring_in=2, small_bet=4, big_bet=8,
...                  seats=(SeatConfig(1, "Anna", 100), SeatConfig(2, "Bruno", 100)))
>>> GameSettings.from_dict(s.to_dict()) == s
True
>>> GameSettings("soko", 1, 0, 4, 8, seats=tuple(SeatConfig(n, "", 50) for n in range(1, 8)))
Traceback (most recent call last):
...
engine.hand_errors.SettingsError: soko is played by 2 to 6 players, not 7
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, cast

from engine.hand_errors import SettingsError
from engine.i18n import translate
from engine.variants import VARIANTS, Variant

OddChipRule = Literal["nearest-dealer", "high-card-suit"]
ODD_CHIP_RULES: tuple[str, ...] = ("nearest-dealer", "high-card-suit")


@dataclass(frozen=True, slots=True)
class _Field:
    """A setting named in words (``the small bet``) in an error message."""

    name: str
    seat: int = 0

    def text(self, lang: str = "en") -> str:
        return translate(f"settings.field.{self.name}", lang, seat=self.seat)


def _int(field: _Field, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError("settings.error.number", field=field, value=repr(value))
    return value


def _bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise SettingsError("settings.error.flag", field=name, value=repr(value))
    return value


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The rules a table may play differently, each with its default: docs/rules.md §8."""

    max_raises: int = 3
    """Raises allowed after the bet in a round; 0 allows the bet only (§1)."""
    heads_up_uncapped: bool = True
    """No cap once at most two players who can bet are left before the cap is reached (§1)."""
    open_pair_double: bool = False
    """A pair showing on the second round allows the big bet; seven-card and five-card stud
    (§3)."""
    bring_in: bool = False
    """Sökö with a bring-in by the lowest upcard, as the other games (§3)."""
    odd_chip: OddChipRule = "nearest-dealer"
    """Who gets an odd chip of a tie: ``nearest-dealer`` or ``high-card-suit`` (§6)."""
    burns: bool = True
    """A burn before each street after the first (§1, §5)."""

    def __post_init__(self) -> None:
        if _int(_Field("max_raises"), self.max_raises) < 0:
            raise SettingsError(
                "settings.error.negative", field=_Field("max_raises"), value=self.max_raises
            )
        for name in ("heads_up_uncapped", "open_pair_double", "bring_in", "burns"):
            _bool(name, getattr(self, name))
        if self.odd_chip not in ODD_CHIP_RULES:
            raise SettingsError(
                "settings.error.odd_chip", value=repr(self.odd_chip),
                allowed=" or ".join(ODD_CHIP_RULES),
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_raises": self.max_raises,
            "heads_up_uncapped": self.heads_up_uncapped,
            "open_pair_double": self.open_pair_double,
            "bring_in": self.bring_in,
            "odd_chip": self.odd_chip,
            "burns": self.burns,
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> HouseRules:
        if not isinstance(data, dict):
            raise SettingsError("settings.error.house_object", value=repr(data))
        known = set(HouseRules.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise SettingsError(
                "settings.error.house_rule", value=repr(sorted(unknown)[0]),
                allowed=", ".join(sorted(known)),
            )
        return HouseRules(**data)


@dataclass(frozen=True, slots=True)
class SeatConfig:
    """A seat at the start of the hand: its number (clockwise), the player's name and stack."""

    number: int
    name: str
    stack: int

    def __post_init__(self) -> None:
        if _int(_Field("seat_number"), self.number) < 1:
            raise SettingsError("settings.error.seat_number", value=self.number)
        if not isinstance(self.name, str):
            raise SettingsError("settings.error.seat_name", seat=self.number, value=repr(self.name))
        if _int(_Field("stack", self.number), self.stack) <= 0:
            raise SettingsError("settings.error.stack", seat=self.number, stack=self.stack)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "stack": self.stack}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> SeatConfig:
        try:
            return SeatConfig(int(data["number"]), str(data.get("name", "")), data["stack"])
        except (KeyError, TypeError) as exc:
            raise SettingsError("settings.error.seat", value=repr(data)) from exc


@dataclass(frozen=True, slots=True)
class GameSettings:
    """Everything a hand needs to know before the first card: see docs/engine.md."""

    variant: str
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    seats: tuple[SeatConfig, ...] = ()
    dealer: int = 0
    chip_unit: int = 1
    house: HouseRules = field(default_factory=HouseRules)

    def __post_init__(self) -> None:
        variant = VARIANTS.get(self.variant)
        if variant is None:
            raise SettingsError(
                "settings.error.variant", value=repr(self.variant), allowed=", ".join(VARIANTS)
            )
        for seat in self.seats:
            if not isinstance(seat, SeatConfig):
                raise SettingsError("settings.error.seat_config", value=repr(seat))
        # seats are kept in seat-number order, so that equal tables compare equal
        object.__setattr__(self, "seats", tuple(sorted(self.seats, key=lambda s: s.number)))
        unit = _int(_Field("chip_unit"), self.chip_unit)
        if unit < 1:
            raise SettingsError("settings.error.chip_unit", value=unit)
        for name in ("ante", "bring_in", "small_bet", "big_bet"):
            value = _int(_Field(name), getattr(self, name))
            if value < 0:
                raise SettingsError("settings.error.negative", field=_Field(name), value=value)
            if value % unit:
                raise SettingsError(
                    "settings.error.unit", field=_Field(name), value=value, unit=unit
                )
        if self.small_bet <= 0:
            raise SettingsError("settings.error.small_bet", value=self.small_bet)
        if self.big_bet < self.small_bet:
            raise SettingsError(
                "settings.error.big_bet", big_bet=self.big_bet, small_bet=self.small_bet
            )
        if self.bring_in > self.small_bet:
            raise SettingsError(
                "settings.error.bring_in", bring_in=self.bring_in, small_bet=self.small_bet
            )
        if not isinstance(self.house, HouseRules):
            raise SettingsError("settings.error.house_type", value=repr(self.house))
        if not variant.bring_in and self.house.bring_in and self.bring_in == 0:
            raise SettingsError("settings.error.bring_in_rule", variant=variant.id)
        if self.house.open_pair_double and variant.open_pair_street is None:
            played = [v.id for v in VARIANTS.values() if v.open_pair_street is not None]
            raise SettingsError(
                "settings.error.open_pair", allowed=" and ".join(played), variant=variant.id
            )
        n = len(self.seats)
        if not variant.min_players <= n <= variant.max_players:
            raise SettingsError(
                "settings.error.players", variant=variant.id, least=variant.min_players,
                most=variant.max_players, count=n,
            )
        numbers = [s.number for s in self.seats]
        for seat in self.seats:
            if numbers.count(seat.number) > 1:
                raise SettingsError("settings.error.seat_twice", seat=seat.number)
            if seat.stack % unit:
                raise SettingsError(
                    "settings.error.stack_unit", seat=seat.number, stack=seat.stack, unit=unit
                )
        if _int(_Field("dealer"), self.dealer) != 0 and self.dealer not in numbers:
            raise SettingsError(
                "settings.error.dealer", dealer=self.dealer,
                seats=", ".join(map(str, sorted(numbers))),
            )

    @property
    def variant_info(self) -> Variant:
        return VARIANTS[self.variant]

    @property
    def plays_bring_in(self) -> bool:
        """Whether the card that brings in opens the first round (docs/rules.md §3): in every
        game played with a bring-in, and in Sökö with the house rule ``bring_in``. Otherwise the
        highest upcard opens."""
        return self.variant_info.bring_in or self.house.bring_in

    @property
    def has_bring_in(self) -> bool:
        """Whether the first round starts with a forced bring-in: the game plays one and it is
        above 0 (a bring-in of 0 lets the card that would bring in open and check)."""
        return self.plays_bring_in and self.bring_in > 0

    def clockwise(self) -> tuple[int, ...]:
        """Seat numbers clockwise from the dealer's left; a playing dealer's own seat comes last."""
        numbers = sorted(s.number for s in self.seats)
        after = [n for n in numbers if n > self.dealer]
        return tuple(after + [n for n in numbers if n <= self.dealer])

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "ante": self.ante,
            "bring_in": self.bring_in,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "chip_unit": self.chip_unit,
            "dealer": self.dealer,
            "house": self.house.to_dict(),
            "seats": [s.to_dict() for s in self.seats],
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> GameSettings:
        if not isinstance(data, dict):
            raise SettingsError("settings.error.object", value=repr(data))
        try:
            seats = data["seats"]
            if not isinstance(seats, list | tuple):
                raise SettingsError("settings.error.seats", value=repr(seats))
            return GameSettings(
                variant=data["variant"],
                ante=data["ante"],
                bring_in=data["bring_in"],
                small_bet=data["small_bet"],
                big_bet=data["big_bet"],
                chip_unit=data.get("chip_unit", 1),
                dealer=data.get("dealer", 0),
                house=HouseRules.from_dict(cast(dict[str, Any], data.get("house", {}))),
                seats=tuple(SeatConfig.from_dict(s) for s in seats),
            )
        except KeyError as exc:
            raise SettingsError("settings.error.lacks", value=repr(exc.args[0])) from exc
        except TypeError as exc:
            raise SettingsError("settings.error.unreadable", reason=str(exc)) from exc
