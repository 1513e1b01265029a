"""A tournament's structure: its levels, the ready structures, the payouts, and the clock's tuning.

A *level* is a length in seconds and either the stakes played (ante, bring-in, small and big bet)
or a break (``{"break": true, "seconds": 600}``). Each level's stakes are checked by the engine's
own settings validation for the table's game and house rules (:func:`check_levels`): what a hand
cannot be dealt with is refused before the tournament starts, in the engine's words.

The *payouts* are the share of the prize pool for each place paid, in tenths of a percent
(``[650, 350]``: 65 % and 35 %), from :data:`PAYOUT_TABLE` by the number of entrants or chosen by
hand; :func:`prizes` turns them into cents, placing the odd cents on the higher places, and
shares the prizes of tied places equally.

>>> [lv["seconds"] // 60 for lv in READY["stud-fast"]["levels"][:3]]
[10, 10, 10]
>>> payout_table(7)
[650, 350]
>>> prizes(10000, [650, 350], {1: [11], 2: [12]})
{11: 6500, 12: 3500}
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass
from typing import Any

from engine.settings import GameSettings
from engine.variants import VARIANTS
from kiosk.errors import KioskError


@dataclass(frozen=True)
class ClockTuning:
    """The tournament clock's timings (seconds)."""

    warning: int = 60
    """The dealer screen warns this long before a new level."""
    tick: float = 1.0
    """How often the kiosk looks at the clock (a level's end, the warning, the heartbeat)."""
    heartbeat: int = 5
    """How often a running clock writes that the kiosk is alive (an outage is measured from it)."""
    announce: int = 20
    """How long the TV shows a new level's announcement."""


TUNING = ClockTuning()

STAKES = ("ante", "bring_in", "small_bet", "big_bet")


def _level(ante: int, bring_in: int, small: int, big: int, minutes: int) -> dict[str, Any]:
    return {"ante": ante, "bring_in": bring_in, "small_bet": small, "big_bet": big,
            "seconds": minutes * 60}


def _break(minutes: int) -> dict[str, Any]:
    return {"break": True, "seconds": minutes * 60}


_STUD = [(5, 10, 25, 50), (10, 15, 50, 100), (15, 25, 75, 150), (25, 50, 100, 200),
         (50, 75, 150, 300), (75, 100, 200, 400), (100, 150, 300, 600), (100, 200, 400, 800),
         (200, 300, 600, 1200), (300, 400, 800, 1600), (400, 500, 1000, 2000),
         (500, 1000, 2000, 4000)]
_SOKO = [(5, 0, 25, 50), (10, 0, 50, 100), (15, 0, 75, 150), (25, 0, 100, 200),
         (50, 0, 150, 300), (75, 0, 200, 400), (100, 0, 300, 600), (100, 0, 400, 800),
         (200, 0, 600, 1200), (300, 0, 800, 1600), (500, 0, 1000, 2000)]


def _with_breaks(stakes: list[tuple[int, int, int, int]], minutes: int, every: int,
                 pause: int) -> list[dict[str, Any]]:
    levels: list[dict[str, Any]] = []
    for i, (ante, bring_in, small, big) in enumerate(stakes, start=1):
        levels.append(_level(ante, bring_in, small, big, minutes))
        if i % every == 0 and i < len(stakes):
            levels.append(_break(pause))
    return levels


READY: dict[str, dict[str, Any]] = {
    "stud-fast": {"game": "seven-card-stud", "chips": 2000,
                  "levels": _with_breaks(_STUD, 10, 4, 5)},
    "stud-normal": {"game": "seven-card-stud", "chips": 4000,
                    "levels": _with_breaks(_STUD, 20, 4, 10)},
    "soko": {"game": "soko", "chips": 2000, "levels": _with_breaks(_SOKO, 15, 4, 10)},
}
"""The ready structures: a fast and a normal home structure for stud (the stud games alike), and
one for Sökö, played without a bring-in. Chips of 5, 25, 100 and 500."""

CHIP_VALUES = [5, 25, 100, 500, 1000]
"""The chips of a ready structure, smallest first."""

PAYOUT_TABLE: list[tuple[int, list[int]]] = [
    (2, [1000]),
    (6, [650, 350]),
    (10, [500, 300, 200]),
    (19, [400, 270, 190, 140]),
    (28, [360, 240, 170, 130, 100]),
    (46, [330, 210, 150, 110, 90, 60, 50]),
]
"""Places paid by the number of entrants (from this many, these shares in tenths of a percent)."""


def ready(name: str) -> dict[str, Any]:
    """A copy of a ready structure."""
    return copy.deepcopy(READY[name])


def payout_table(entrants: int) -> list[int]:
    """The shares paid for ``entrants`` entrants (one place under two)."""
    shares = PAYOUT_TABLE[0][1]
    for least, row in PAYOUT_TABLE:
        if entrants >= least:
            shares = row
    return list(shares)


def check_payouts(shares: list[int]) -> list[int]:
    """Shares chosen by hand: each above 0, never more for a lower place, 100 % in all."""
    if not shares or sum(shares) != 1000:
        raise KioskError("tournament.err.payouts_sum", total=f"{sum(shares) / 10:g}")
    if any(a < b for a, b in itertools.pairwise(shares)) or min(shares) <= 0:
        raise KioskError("tournament.err.payouts_order")
    return list(shares)


def prizes(pool: int, shares: list[int], places: dict[int, list[int]]) -> dict[int, int]:
    """Each placed player's prize in cents: ``places`` maps a place to the players who finished
    there (two tied players share the prizes of their place and the next, equally, the odd cent
    to the first named). The cents of the pool left by rounding go to the first place."""
    amounts = [pool * share // 1000 for share in shares]
    if amounts:
        amounts[0] += pool - sum(amounts)
    paid: dict[int, int] = {}
    for place, who in sorted(places.items()):
        pot = sum(amounts[place - 1:place - 1 + len(who)])
        for i, player in enumerate(who):
            paid[player] = pot // len(who) + (1 if i < pot % len(who) else 0)
    return paid


def level_settings(level: dict[str, Any], setup: dict[str, Any]) -> GameSettings:
    """The engine's settings for a hand of ``level`` at this table (game and house rules as set
    up), at a table of the game's fewest players: the engine refuses stakes it cannot deal."""
    from kiosk.table_setup import settings_from_setup

    probe = copy.deepcopy(setup)
    probe["stakes"] = {key: int(level[key]) for key in STAKES}
    least = VARIANTS[probe["game"]].min_players
    unit = int(probe.get("rules", {}).get("chip_unit", 1))
    probe["seats"] = [{"seat": n, "name": str(n), "stack": unit, "active": True}
                      for n in range(1, least + 1)]
    probe["dealer"] = 0
    return settings_from_setup(probe)


def check_levels(levels: list[dict[str, Any]], setup: dict[str, Any]) -> None:
    """Refuse a structure whose any level the engine would not deal, naming the level."""
    played = [lv for lv in levels if not lv.get("break")]
    if not played:
        raise KioskError("tournament.err.no_level")
    if levels[0].get("break"):
        raise KioskError("tournament.err.break_first")
    number = 0
    for level in levels:
        if level.get("break"):
            continue
        number += 1
        try:
            level_settings(level, setup)
        except ValueError as exc:
            raise KioskError("tournament.err.level", level=number, problem=exc) from None


def colour_up(chip_values: list[int], level: dict[str, Any]) -> int | None:
    """The smallest chip still in play that ``level``'s stakes no longer need (every stake a
    multiple of the next chip), or None."""
    if len(chip_values) < 2 or level.get("break"):
        return None
    smallest, next_chip = chip_values[0], chip_values[1]
    if all(int(level[key]) % next_chip == 0 for key in STAKES):
        return smallest
    return None


__all__ = ["CHIP_VALUES", "PAYOUT_TABLE", "READY", "STAKES", "TUNING", "ClockTuning",
           "check_levels", "check_payouts", "colour_up", "level_settings", "payout_table",
           "prizes", "ready"]
