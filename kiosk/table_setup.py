"""The table's setup as the dealer edits it: game, stakes, house rules, seats and dealer position.

The setup is plain JSON (stored under the ``table`` key of the store). :func:`parse_form` reads the
setup page's form and returns the new setup or a list of problems, each in words for the dealer.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

GAMES: dict[str, int] = {
    "seven-card-stud-hilo": 8,
    "seven-card-stud": 8,
    "five-card-stud": 10,
    "soko": 6,
}
"""Game id -> most players."""

SEAT_COUNT = 10
#: the longest idle time the dealer screen may be set to lock after (minutes: a day)
LOCK_AFTER_MOST = 24 * 60
ODD_CHIP_RULES = ("nearest-dealer", "high-card-suit")

DEFAULT_RULES: dict[str, Any] = {
    "max_raises": 3,
    "heads_up_uncapped": True,
    "burns": True,
    "open_pair_double": False,
    "odd_chip": "nearest-dealer",
    "soko_bring_in": False,  # Sökö opens with the highest upcard unless this is on
    "chip_unit": 1,
}

DEFAULT_SETUP: dict[str, Any] = {
    "game": "seven-card-stud-hilo",
    "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    "rules": DEFAULT_RULES,
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
    if game not in GAMES:
        problems.append(("setup.err.game", {"value": game, "allowed": ", ".join(GAMES)}))
        game = setup["game"]
    setup["game"] = game
    stakes = {
        key: _int(form, key, problems, f"stakes.{key}",
                  minimum=1 if key in ("small_bet", "big_bet") else 0)
        for key in ("ante", "bring_in", "small_bet", "big_bet")
    }
    if stakes["big_bet"] < stakes["small_bet"]:
        problems.append(("setup.err.big_bet", stakes))
    if stakes["bring_in"] > stakes["small_bet"]:
        problems.append(("setup.err.bring_in", stakes))
    setup["stakes"] = stakes
    rules = dict(DEFAULT_RULES)
    rules["max_raises"] = _int(form, "max_raises", problems, "rules.max_raises", minimum=1)
    rules["chip_unit"] = _int(form, "chip_unit", problems, "rules.chip_unit", minimum=1)
    for flag in ("heads_up_uncapped", "burns", "open_pair_double", "soko_bring_in"):
        rules[flag] = form.get(flag) in ("on", "1", "true")
    odd = form.get("odd_chip", "nearest-dealer")
    if odd not in ODD_CHIP_RULES:
        allowed = ", ".join(ODD_CHIP_RULES)
        problems.append(("setup.err.odd_chip", {"value": odd, "allowed": allowed}))
        odd = "nearest-dealer"
    rules["odd_chip"] = odd
    setup["rules"] = rules
    seats = []
    for n in range(1, SEAT_COUNT + 1):
        name = (form.get(f"name_{n}") or "").strip()[:24]
        active = form.get(f"active_{n}") in ("on", "1", "true")
        stack = _int(form, f"stack_{n}", problems, "setup.stack") if form.get(f"stack_{n}") else 0
        add = _int(form, f"add_{n}", problems, "setup.add") if form.get(f"add_{n}") else 0
        stack += add
        if active and stack <= 0:
            problems.append(("setup.err.stack", {"seat": n}))
        seats.append({"seat": n, "name": name or f"{n}", "stack": stack, "active": active})
    setup["seats"] = seats
    players = sum(1 for s in seats if s["active"])
    if players < 2 or players > GAMES[game]:
        problems.append(("setup.err.players", {"count": players, "most": GAMES[game]}))
    dealer = _int(form, "dealer", problems, "setup.dealer")
    if dealer > SEAT_COUNT:
        problems.append(("setup.err.dealer", {"value": dealer, "most": SEAT_COUNT}))
        dealer = 0
    setup["dealer"] = dealer
    lock = _int(form, "lock_after_minutes", problems, "setup.lock_after_minutes") \
        if form.get("lock_after_minutes") else 0
    if lock > LOCK_AFTER_MOST:
        problems.append(("setup.err.lock_after", {"value": lock, "most": LOCK_AFTER_MOST}))
        lock = 0
    setup["lock_after_minutes"] = lock
    return setup, problems
