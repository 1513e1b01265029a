"""The table's setup as the dealer edits it: game, stakes, house rules, the usual buy-in, the dealer
screen's house options, seats and dealer position.

The setup is plain JSON (stored under the ``table`` key of the store). :func:`parse_form` reads the
setup page's form through the setup's one schema (:mod:`kiosk.setup_schema`) and returns the new
setup or the problems, each a field and what is allowed there. The games, the house rules'
defaults and whether the stakes, seats and rules can be played are the engine's: the service
checks a setup by building the engine's settings from it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engine.settings import ODD_CHIP_RULES, GameSettings, HouseRules, SeatConfig
from engine.variants import VARIANTS
from kiosk.errors import KioskError
from kiosk.setup_schema import (
    DEFAULT_BUY_IN,
    OVERLAY_DELAY_MOST,
    SEAT_COUNT,
    Screen,
    Tv,
    validate_setup,
)

GAMES: tuple[str, ...] = tuple(VARIANTS)
"""The games the setup page offers: every game the engine plays."""

_HOUSE = HouseRules()
DEFAULT_RULES: dict[str, Any] = {
    "max_raises": _HOUSE.max_raises,
    "heads_up_uncapped": _HOUSE.heads_up_uncapped,
    "burns": _HOUSE.burns,
    "open_pair_double": _HOUSE.open_pair_double,
    "odd_chip": _HOUSE.odd_chip,
    "soko_bring_in": _HOUSE.bring_in,  # the engine's house rule ``bring_in``
    "chip_unit": GameSettings.__dataclass_fields__["chip_unit"].default,
}
"""The house rules of a new table: the engine's defaults, under the setup's names."""


SETUP_KEY = "table"


def setup_key(table_id: int) -> str:
    """Where a table's setup is stored: ``table`` for table 1 (a single kiosk), ``table:<id>`` for
    the other tables of a card room sharing the database."""
    return SETUP_KEY if table_id == 1 else f"{SETUP_KEY}:{table_id}"



def settings_from_setup(setup: dict[str, Any]) -> GameSettings:
    """The engine's settings for the table's setup (raises ``SettingsError`` in words)."""
    rules = setup["rules"]
    house = HouseRules(
        max_raises=int(rules["max_raises"]),
        heads_up_uncapped=bool(rules["heads_up_uncapped"]),
        open_pair_double=bool(rules["open_pair_double"]),
        bring_in=bool(rules.get("soko_bring_in", False)),
        odd_chip=rules["odd_chip"],
        burns=bool(rules["burns"]),
    )
    stakes = setup["stakes"]
    return GameSettings(
        variant=setup["game"],
        ante=int(stakes["ante"]),
        bring_in=int(stakes["bring_in"]),
        small_bet=int(stakes["small_bet"]),
        big_bet=int(stakes["big_bet"]),
        chip_unit=int(rules.get("chip_unit", 1)),
        house=house,
        seats=tuple(
            SeatConfig(int(s["seat"]), str(s["name"]), int(s["stack"]))
            for s in setup["seats"]
            if s["active"] and not s.get("out")  # a player sitting out is dealt no cards
        ),
        dealer=int(setup["dealer"]),
    )

__all__ = [
    "DEFAULT_BUY_IN",
    "DEFAULT_RULES",
    "DEFAULT_SCREEN",
    "DEFAULT_TV",
    "GAMES",
    "ODD_CHIP_RULES",
    "OVERLAY_DELAY_MOST",
    "SCREEN_OPTIONS",
    "SEAT_COUNT",
    "SETUP_KEY",
    "TV_OPTIONS",
    "buy_in",
    "default_setup",
    "form_setup",
    "parse_form",
    "screen_options",
    "settings_from_setup",
    "setup_key",
    "tv_options",
    "with_defaults",
]

SCREEN_OPTIONS: tuple[str, ...] = tuple(Screen.model_fields)
"""The dealer screen's house options (the schema's :class:`~kiosk.setup_schema.Screen`)."""
DEFAULT_SCREEN: dict[str, bool] = Screen().model_dump()
TV_OPTIONS: tuple[str, ...] = tuple(k for k, f in Tv.model_fields.items() if f.annotation is bool)
"""The TV's house options that are on or off (the schema's :class:`~kiosk.setup_schema.Tv`)."""
DEFAULT_TV: dict[str, Any] = Tv().model_dump()

DEFAULT_SETUP: dict[str, Any] = {
    "game": "seven-card-stud-hilo",
    "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    "rules": DEFAULT_RULES,
    "buy_in": DEFAULT_BUY_IN,
    "screen": DEFAULT_SCREEN,
    "tv": DEFAULT_TV,
    "dealer": 0,
    "lock_after_minutes": 0,  # the dealer screen locks after this long idle (0: never)
    "seats": [
        {"seat": n, "name": "", "stack": 0, "active": False} for n in range(1, SEAT_COUNT + 1)
    ],
}


def default_setup() -> dict[str, Any]:
    return copy.deepcopy(DEFAULT_SETUP)


def active_seats(setup: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [s for s in setup["seats"] if s["active"]]


def screen_options(setup: Mapping[str, Any]) -> dict[str, bool]:
    """The dealer screen's house options (a setup stored before they existed has the defaults)."""
    return {**DEFAULT_SCREEN, **{k: bool(v) for k, v in dict(setup.get("screen") or {}).items()
                                 if k in DEFAULT_SCREEN}}


def tv_options(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The TV's and the stream overlay's house options (a setup stored before they existed has
    the defaults): ``odds`` and ``replays`` on the TV, ``overlay_delay`` in seconds."""
    given = dict(setup.get("tv") or {})
    options = {**DEFAULT_TV, **{k: bool(given[k]) for k in TV_OPTIONS if k in given}}
    delay = given.get("overlay_delay", DEFAULT_TV["overlay_delay"])
    if isinstance(delay, int) and not isinstance(delay, bool) and 0 <= delay <= OVERLAY_DELAY_MOST:
        options["overlay_delay"] = delay
    return options


def buy_in(setup: Mapping[str, Any]) -> int:
    """The table's usual buy-in (a setup stored before it existed has the default)."""
    value = setup.get("buy_in")
    return value if isinstance(value, int) and not isinstance(value, bool) else DEFAULT_BUY_IN


def with_defaults(setup: Mapping[str, Any]) -> dict[str, Any]:
    """``setup`` with the fields a setup stored before them lacks (``buy_in``, ``screen``,
    ``tv``)."""
    return {**setup, "buy_in": buy_in(setup), "screen": screen_options(setup),
            "tv": tv_options(setup)}


def form_setup(form: Mapping[str, str], current: Mapping[str, Any]) -> dict[str, Any]:
    """The setup the setup page's form asks for, its values as the form sent them (text): a
    ticked box is ``"on"``, a stack is the stack plus the chips to add when both are numbers, a
    seat that sits down with no stack written starts with the table's usual buy-in, and the
    overlay's delay not written stays as it was."""

    def text(name: str, default: Any = None) -> Any:
        value = form.get(name)
        return default if value is None or str(value).strip() == "" else str(value).strip()

    def ticked(name: str) -> bool:
        return form.get(name) in ("on", "1", "true")

    usual = text("buy_in", str(buy_in(current)))
    was_playing = {s.get("seat") for s in current.get("seats", []) if s.get("active")}
    seats = []
    for n in range(1, SEAT_COUNT + 1):
        stack, add = text(f"stack_{n}", "0"), text(f"add_{n}", "0")
        active = ticked(f"active_{n}")
        if (active and n not in was_playing and stack.isdigit() and int(stack) == 0
                and usual.isdigit()):
            stack = usual  # a player sitting down buys in for the table's usual amount
        if stack.isdigit() and add.isdigit():
            stack = str(int(stack) + int(add))
        elif stack.isdigit():
            stack = add  # the chips to add are what is wrong: said of the stack
        seats.append({"seat": str(n), "name": form.get(f"name_{n}") or "", "stack": stack,
                      "active": active})
    return {
        "game": text("game", current.get("game")),
        "stakes": {key: text(key, "") for key in ("ante", "bring_in", "small_bet", "big_bet")},
        "rules": {
            "max_raises": text("max_raises", ""),
            "chip_unit": text("chip_unit", ""),
            "odd_chip": text("odd_chip", DEFAULT_RULES["odd_chip"]),
            **{flag: ticked(flag)
               for flag in ("heads_up_uncapped", "burns", "open_pair_double", "soko_bring_in")},
        },
        "buy_in": usual,
        "screen": {flag: ticked(f"screen_{flag}") for flag in SCREEN_OPTIONS},
        "tv": {**{flag: ticked(f"tv_{flag}") for flag in TV_OPTIONS},
               "overlay_delay": text("overlay_delay", str(tv_options(current)["overlay_delay"]))},
        "dealer": text("dealer", "0"),
        "lock_after_minutes": text("lock_after_minutes", "0"),
        "seats": seats,
    }


def parse_form(
    form: Mapping[str, str], current: Mapping[str, Any]
) -> tuple[dict[str, Any], list[tuple[str, KioskError]]]:
    """The setup the form asks for (validated by the one schema, :mod:`kiosk.setup_schema`) and
    the problems found, each a field and what is allowed there; with problems, the setup is the
    form's as sent, to be shown again."""
    wanted = form_setup(form, current)
    try:
        return validate_setup(wanted, form=True), []
    except KioskError as exc:
        return wanted, exc.problems or [("", exc)]
