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
from engine.variants import VARIANTS, Variant

OddChipRule = Literal["nearest-dealer", "high-card-suit"]
ODD_CHIP_RULES: tuple[str, ...] = ("nearest-dealer", "high-card-suit")


def _int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(f"{name} must be a whole number of chips, not {value!r}")
    return value


def _bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(f"{name} must be true or false, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The rules a table may play differently; defaults are those of RULES.md."""

    max_raises: int = 3
    heads_up_uncapped: bool = True
    open_pair_double: bool = False
    bring_in: bool = False
    odd_chip: OddChipRule = "nearest-dealer"
    burns: bool = True

    def __post_init__(self) -> None:
        if _int("max_raises", self.max_raises) < 0:
            raise SettingsError(f"max_raises must be 0 or more, not {self.max_raises}")
        for name in ("heads_up_uncapped", "open_pair_double", "bring_in", "burns"):
            _bool(name, getattr(self, name))
        if self.odd_chip not in ODD_CHIP_RULES:
            raise SettingsError(
                f"odd_chip {self.odd_chip!r} is not a rule: use {' or '.join(ODD_CHIP_RULES)}"
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
            raise SettingsError(f"house rules must be an object, not {data!r}")
        known = set(HouseRules.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise SettingsError(
                f"unknown house rule {sorted(unknown)[0]!r}: "
                f"the rules are {', '.join(sorted(known))}"
            )
        return HouseRules(**data)


@dataclass(frozen=True, slots=True)
class SeatConfig:
    """A seat at the start of the hand: its number (clockwise), the player's name and stack."""

    number: int
    name: str
    stack: int

    def __post_init__(self) -> None:
        if _int("seat number", self.number) < 1:
            raise SettingsError(f"seat numbers start at 1, not {self.number}")
        if not isinstance(self.name, str):
            raise SettingsError(f"seat {self.number}: the name must be text, not {self.name!r}")
        if _int(f"seat {self.number} stack", self.stack) <= 0:
            raise SettingsError(
                f"seat {self.number} has a stack of {self.stack}: a player needs chips"
            )

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "stack": self.stack}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> SeatConfig:
        try:
            return SeatConfig(int(data["number"]), str(data.get("name", "")), data["stack"])
        except (KeyError, TypeError) as exc:
            raise SettingsError(f"a seat needs a number and a stack, not {data!r}") from exc


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
                f"unknown variant {self.variant!r}: the variants are {', '.join(VARIANTS)}"
            )
        for seat in self.seats:
            if not isinstance(seat, SeatConfig):
                raise SettingsError(f"a seat must be a SeatConfig, not {seat!r}")
        # seats are kept in seat-number order, so that equal tables compare equal
        object.__setattr__(self, "seats", tuple(sorted(self.seats, key=lambda s: s.number)))
        unit = _int("chip_unit", self.chip_unit)
        if unit < 1:
            raise SettingsError(f"chip_unit must be 1 or more, not {unit}")
        for name in ("ante", "bring_in", "small_bet", "big_bet"):
            value = _int(name, getattr(self, name))
            if value < 0:
                raise SettingsError(f"{name} must be 0 or more, not {value}")
            if value % unit:
                raise SettingsError(
                    f"{name} {value} is not a multiple of the chip unit {unit}"
                )
        if self.small_bet <= 0:
            raise SettingsError(f"the small bet must be more than 0, not {self.small_bet}")
        if self.big_bet < self.small_bet:
            raise SettingsError(
                f"the big bet ({self.big_bet}) must be at least the small bet ({self.small_bet})"
            )
        if self.bring_in > self.small_bet:
            raise SettingsError(
                f"the bring-in ({self.bring_in}) must not be larger than the small bet "
                f"({self.small_bet})"
            )
        if not isinstance(self.house, HouseRules):
            raise SettingsError(f"house rules must be HouseRules, not {self.house!r}")
        if not variant.bring_in and self.house.bring_in and self.bring_in == 0:
            raise SettingsError(
                f"{variant.id} with the bring-in house rule needs a bring-in above 0"
            )
        if self.house.open_pair_double and variant.open_pair_street is None:
            raise SettingsError(
                f"the open-pair rule is played only in seven-card and five-card stud, "
                f"not in {variant.id}"
            )
        n = len(self.seats)
        if not variant.min_players <= n <= variant.max_players:
            raise SettingsError(
                f"{variant.id} is played by {variant.min_players} to {variant.max_players} "
                f"players, not {n}"
            )
        numbers = [s.number for s in self.seats]
        for seat in self.seats:
            if numbers.count(seat.number) > 1:
                raise SettingsError(f"seat {seat.number} appears twice: seat numbers must differ")
            if seat.stack % unit:
                raise SettingsError(
                    f"seat {seat.number}'s stack {seat.stack} is not a multiple of "
                    f"the chip unit {unit}"
                )
        if _int("dealer", self.dealer) != 0 and self.dealer not in numbers:
            raise SettingsError(
                f"the dealer position {self.dealer} is not a seat: use 0 (a non-playing dealer) "
                f"or one of seats {', '.join(map(str, sorted(numbers)))}"
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
            raise SettingsError(f"settings must be an object, not {data!r}")
        try:
            seats = data["seats"]
            if not isinstance(seats, list | tuple):
                raise SettingsError(f"seats must be a list, not {seats!r}")
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
            raise SettingsError(f"settings lack {exc.args[0]!r}") from exc
        except TypeError as exc:
            raise SettingsError(f"settings cannot be read: {exc}") from exc
