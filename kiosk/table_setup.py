"""The table's setup as the dealer edits it: game, stakes, house rules, seats and dealer position.

The setup is plain JSON (stored under the ``table`` key of the store). :func:`parse_form` reads the
setup page's form and returns the new setup or a list of problems, each in words for the dealer.
The games, the house rules' defaults and whether the stakes, seats and rules can be played are the
engine's: the service checks a setup by building the engine's settings from it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engine.settings import ODD_CHIP_RULES, GameSettings, HouseRules
from engine.variants import VARIANTS

GAMES: tuple[str, ...] = tuple(VARIANTS)
"""The games the setup page offers: every game the engine plays."""

SEAT_COUNT = max(v.max_players for v in VARIANTS.values())
"""The seats the setup page shows: enough for the game with the most players."""

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

__all__ = ["DEFAULT_RULES", "GAMES", "ODD_CHIP_RULES", "SEAT_COUNT", "default_setup", "parse_form"]

SCREEN_OPTIONS = ("sound", "speech", "hide_down")
DEFAULT_SCREEN: dict[str, bool] = {
    "sound": False,  # a short tone after every entry
    "speech": False,  # the dealer screen says whose turn it is (the browser's speech synthesis)
    "hide_down": True,  # known down cards drawn as backs on the dealer screen, shown while held
}
TV_OPTIONS = ("odds", "replays")
DEFAULT_TV: dict[str, Any] = {
    "odds": True,  # the TV shows each live player's odds from the cards it shows
    "replays": True,  # after a hand, the TV replays it street by street with the odds
    "overlay_delay": 60,  # seconds the stream overlay (hole cards) runs behind the table
}
OVERLAY_DELAY_MOST = 3600
"""The longest delay the stream overlay may be set to (seconds)."""
DEFAULT_BUY_IN = 200
"""The stack a seat starts with when it joins the table (the table's usual buy-in)."""

DEFAULT_SETUP: dict[str, Any] = {
    "game": "seven-card-stud-hilo",
    "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    "rules": DEFAULT_RULES,
    "buy_in": DEFAULT_BUY_IN,
    "screen": DEFAULT_SCREEN,
    "tv": DEFAULT_TV,
    "dealer": 0,
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
    return int(setup.get("buy_in") or DEFAULT_BUY_IN)


def _int(form: Mapping[str, str], name: str, problems: list[tuple[str, dict[str, Any]]],
         label: str, minimum: int = 0) -> int:
    raw = (form.get(name) or "").strip()
    try:
        value = int(raw)
    except ValueError:
        problems.append(("setup.err.number", {"field": label, "value": raw}))
        return minimum
    if value < minimum:
        problems.append(("setup.err.minimum", {"field": label, "minimum": minimum}))
        return minimum
    return value


def parse_form(
    form: Mapping[str, str], current: Mapping[str, Any]
) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """The setup the form asks for, and the problems found (message key, parameters)."""
    problems: list[tuple[str, dict[str, Any]]] = []
    setup = copy.deepcopy(dict(current))
    game = form.get("game", setup["game"])
    if game not in VARIANTS:
        problems.append(("setup.err.game", {"value": game, "allowed": ", ".join(GAMES)}))
        game = setup["game"]
    setup["game"] = game
    stakes = {
        key: _int(form, key, problems, f"stakes.{key}")
        for key in ("ante", "bring_in", "small_bet", "big_bet")
    }
    setup["stakes"] = stakes
    rules = dict(DEFAULT_RULES)
    rules["max_raises"] = _int(form, "max_raises", problems, "rules.max_raises")
    rules["chip_unit"] = _int(form, "chip_unit", problems, "rules.chip_unit")
    for flag in ("heads_up_uncapped", "burns", "open_pair_double", "soko_bring_in"):
        rules[flag] = form.get(flag) in ("on", "1", "true")
    odd = form.get("odd_chip", "nearest-dealer")
    if odd not in ODD_CHIP_RULES:
        allowed = ", ".join(ODD_CHIP_RULES)
        problems.append(("setup.err.odd_chip", {"value": odd, "allowed": allowed}))
        odd = "nearest-dealer"
    rules["odd_chip"] = odd
    setup["rules"] = rules
    usual = buy_in(current)
    if form.get("buy_in"):
        usual = _int(form, "buy_in", problems, "setup.buy_in", minimum=1)
    setup["buy_in"] = usual
    setup["screen"] = {flag: form.get(f"screen_{flag}") in ("on", "1", "true")
                       for flag in SCREEN_OPTIONS}
    tv: dict[str, Any] = {flag: form.get(f"tv_{flag}") in ("on", "1", "true")
                          for flag in TV_OPTIONS}
    tv["overlay_delay"] = tv_options(current)["overlay_delay"]
    if form.get("overlay_delay"):
        delay = _int(form, "overlay_delay", problems, "setup.overlay_delay")
        if delay > OVERLAY_DELAY_MOST:
            problems.append(("setup.err.maximum", {"field": "setup.overlay_delay",
                                                   "maximum": OVERLAY_DELAY_MOST}))
        else:
            tv["overlay_delay"] = delay
    setup["tv"] = tv
    was_playing = {s["seat"] for s in current["seats"] if s["active"]}
    seats = []
    for n in range(1, SEAT_COUNT + 1):
        name = (form.get(f"name_{n}") or "").strip()[:24]
        active = form.get(f"active_{n}") in ("on", "1", "true")
        stack = _int(form, f"stack_{n}", problems, "setup.stack") if form.get(f"stack_{n}") else 0
        add = _int(form, f"add_{n}", problems, "setup.add") if form.get(f"add_{n}") else 0
        if active and stack == 0 and n not in was_playing:
            stack = usual  # a player sitting down buys in for the table's usual amount
        stack += add
        if active and stack <= 0:
            problems.append(("setup.err.stack", {"seat": n}))
        seats.append({"seat": n, "name": name or f"{n}", "stack": stack, "active": active})
    setup["seats"] = seats
    dealer = _int(form, "dealer", problems, "setup.dealer")
    if dealer > SEAT_COUNT:
        problems.append(("setup.err.dealer", {"value": dealer, "most": SEAT_COUNT}))
        dealer = 0
    setup["dealer"] = dealer
    return setup, problems
