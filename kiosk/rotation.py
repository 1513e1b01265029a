"""The game the table plays next: one game, dealer's choice, or a rotation of games.

The table's setup keeps, beside the game and stakes of the next hand, its ``rotation``:

- ``mode``: ``fixed`` (one game until the setup changes it), ``choice`` (dealer's choice: before
  each hand the player at the button picks one of ``games`` with one tap), or ``list`` (the games
  of ``games`` in turn, each for ``every`` hands, or for an orbit of the button when ``every`` is
  0);
- ``games``: the games allowed (``choice``) or their order (``list``); ``stakes``: each game's
  own stakes, which come back with it;
- ``at``, ``played``, ``orbit_start``: where the rotation is (the game's index in ``games``, the
  hands played of it, the button's seat when it came up).

The *button* (``setup["button"]``) is the seat whose player deals, or chooses, the next hand; it
moves one seat clockwise, to the next player dealt in, after every hand that was played out (a
misdeal is dealt again by the same button), whenever the table plays more than one game. A
playing dealer (``setup["dealer"]`` a seat) is the button. The move, and the rotation's step, are
written with the hand's end in one transaction, and an undo of that end puts them back as they
were at the hand's start (the hand's stored setup keeps them).

>>> setup = {"game": "razz", "stakes": {"ante": 1}, "dealer": 0, "button": 1,
...          "rotation": {"mode": "list", "games": ["razz", "soko"], "every": 1, "at": 0,
...                       "played": 0, "orbit_start": 1, "stakes": {"soko": {"ante": 2}}},
...          "seats": [{"seat": n, "active": True} for n in (1, 2, 3)]}
>>> after = after_hand(setup)
>>> after["game"], after["stakes"], after["button"]
('soko', {'ante': 2}, 2)
"""

from __future__ import annotations

import copy
from typing import Any

from engine.variants import VARIANTS
from kiosk.errors import Kind, KioskError

MODES = ("fixed", "choice", "list")
KEPT = ("game", "stakes", "dealer", "button", "rotation")
"""The setup's keys a hand's end may change (kept with the hand, put back by an undo)."""


def rotation(setup: dict[str, Any]) -> dict[str, Any]:
    """The setup's rotation, with its defaults (a setup stored before rotations has none)."""
    found = dict(setup.get("rotation") or {})
    found.setdefault("mode", "fixed")
    found.setdefault("games", [setup["game"]])
    found.setdefault("stakes", {})
    found.setdefault("every", 0)
    found.setdefault("at", 0)
    found.setdefault("played", 0)
    found.setdefault("orbit_start", None)
    return found


def dealt_in(setup: dict[str, Any]) -> list[int]:
    """The seats dealt into the next hand: seated and not sitting out."""
    return [int(s["seat"]) for s in setup["seats"] if s["active"] and not s.get("out")]


def _next_seat(seats: list[int], after: int) -> int:
    later = [s for s in seats if s > after]
    return later[0] if later else seats[0]


def button(setup: dict[str, Any]) -> int:
    """The seat at the button now: a playing dealer's, else the stored button if it is dealt in,
    else the next seat dealt in after it (0: nobody)."""
    seats = dealt_in(setup)
    if not seats:
        return 0
    at = int(setup.get("dealer") or 0) or int(setup.get("button") or 0)
    return at if at in seats else _next_seat(seats, at)


def stakes_of(setup: dict[str, Any], game: str) -> dict[str, Any]:
    """A game's own stakes (the table's current stakes for a game not played yet)."""
    if game == setup["game"]:
        return dict(setup["stakes"])
    return dict(rotation(setup)["stakes"].get(game) or setup["stakes"])


def _switch(setup: dict[str, Any], game: str) -> None:
    rot = setup["rotation"]
    rot["stakes"] = {**rot["stakes"], setup["game"]: dict(setup["stakes"])}
    setup["stakes"] = stakes_of(setup, game)
    setup["game"] = game


def choose(setup: dict[str, Any], game: str) -> dict[str, Any]:
    """Dealer's choice: the next hand is ``game``, with its own stakes."""
    rot = rotation(setup)
    if rot["mode"] != "choice":
        raise KioskError("rotation.err.not_choice", Kind.NOT_NOW)
    if game not in rot["games"]:
        raise KioskError("rotation.err.game", value=str(game)[:24],
                         allowed=", ".join(rot["games"]))
    chosen = copy.deepcopy(setup)
    chosen["rotation"] = rot
    _switch(chosen, game)
    return chosen


def _crossed(start: int, old: int, new: int) -> bool:
    """Whether moving the button clockwise from ``old`` to ``new`` reached ``start``."""
    if old < new:
        return old < start <= new
    return start > old or start <= new


def after_hand(setup: dict[str, Any]) -> dict[str, Any]:
    """The setup after a hand played out: the button moved, the rotation one hand on."""
    rot = rotation(setup)
    if rot["mode"] == "fixed":
        return setup
    after = copy.deepcopy(setup)
    after["rotation"] = rot
    seats = dealt_in(after)
    old = button(after)
    if not seats or not old:
        return after
    new = _next_seat(seats, old)
    after["button"] = new
    if int(after.get("dealer") or 0):
        after["dealer"] = new
    if rot["mode"] != "list" or not rot["games"]:
        return after
    rot["played"] += 1
    if rot["orbit_start"] not in seats:  # the orbit starts (again) from this hand's button
        rot["orbit_start"] = old
    start = rot["orbit_start"]
    done = rot["played"] >= rot["every"] if rot["every"] else _crossed(start, old, new)
    if done:
        rot["at"] = (rot["at"] + 1) % len(rot["games"])
        rot["played"] = 0
        rot["orbit_start"] = new
        _switch(after, rot["games"][rot["at"]])
    return after


def upcoming(setup: dict[str, Any]) -> dict[str, Any]:
    """What the screens say of the rotation: the mode, the game of the next hand, the seat at the
    button, and in a rotation the game after it and in how many hands it comes."""
    rot = rotation(setup)
    found: dict[str, Any] = {"mode": rot["mode"], "game": setup["game"], "button": button(setup),
                             "games": list(rot["games"]) if rot["mode"] != "fixed" else []}
    if rot["mode"] != "list" or len(rot["games"]) < 2:
        return found
    found["next"] = rot["games"][(rot["at"] + 1) % len(rot["games"])]
    if rot["every"]:
        found["in_hands"] = max(1, rot["every"] - rot["played"])
    else:
        seats, at = dealt_in(setup), button(setup)
        start = rot["orbit_start"] if rot["orbit_start"] in seats else at
        hands = 1
        while seats and hands <= len(seats):
            new = _next_seat(seats, at)
            if _crossed(start, at, new):
                break
            at, hands = new, hands + 1
        found["in_hands"] = hands
    return found


def check_rotation(rot: dict[str, Any], game: str) -> dict[str, Any]:
    """A rotation as the setup page or ``PUT /api/setup`` sends it, checked."""
    mode = rot.get("mode", "fixed")
    if mode not in MODES:
        raise KioskError("rotation.err.mode", value=str(mode)[:12], allowed=", ".join(MODES))
    games = [g for g in rot.get("games", []) if g in VARIANTS]
    if len(games) != len(rot.get("games", [])) or len(set(games)) != len(games):
        raise KioskError("rotation.err.games", allowed=", ".join(VARIANTS))
    if mode != "fixed" and len(games) < 2:
        raise KioskError("rotation.err.two")
    every = rot.get("every", 0)
    if not isinstance(every, int) or isinstance(every, bool) or not 0 <= every <= 1000:
        raise KioskError("rotation.err.every")
    at = games.index(game) if game in games else 0
    if mode == "list" and game not in games:
        raise KioskError("rotation.err.current", game=game)
    given = dict(rot.get("stakes") or {}).items()
    stakes = {g: {k: int(v[k]) for k in STAKE_KEYS} for g, v in given
              if g in VARIANTS and isinstance(v, dict) and all(
                  isinstance(v.get(k), int) and 0 <= v[k] <= 10**9 for k in STAKE_KEYS)}
    return {"mode": mode, "games": games, "every": every, "stakes": stakes, "at": at,
            "played": int(rot.get("played", 0)) if at == rot.get("at") else 0,
            "orbit_start": rot.get("orbit_start")}


STAKE_KEYS = ("ante", "bring_in", "small_bet", "big_bet")


def form_rotation(form: Any, setup: dict[str, Any]) -> tuple[dict[str, Any], list[KioskError]]:
    """The setup page's rotation fields applied to ``setup`` (already read from the rest of the
    form): the mode, the games ticked in the order shown, each game's stakes, the hands per game.
    A rotation that does not list the game being played starts with its first game."""
    problems: list[KioskError] = []
    current = rotation(setup)
    order = sorted(VARIANTS, key=lambda g: (_number(form.get(f"rot_order_{g}"), 99), g))
    games = [g for g in order if form.get(f"rot_game_{g}") in ("on", "1", "true")]
    stakes = dict(current["stakes"])
    for game in VARIANTS:
        if game == setup["game"]:
            continue
        found = {k: _number(form.get(f"rot_{game}_{k}"), None) for k in STAKE_KEYS}
        if all(v is not None for v in found.values()):
            stakes[game] = found
        elif any(form.get(f"rot_{game}_{k}") for k in STAKE_KEYS) and game in games:
            problems.append(KioskError("rotation.err.stakes", game=game))
    stakes[setup["game"]] = dict(setup["stakes"])
    raw_every = str(form.get("rot_every") or "").strip()
    every = _number(raw_every, -1) if raw_every else current["every"]
    wanted = {"mode": form.get("rot_mode", current["mode"]), "games": games,
              "every": every if every is not None else -1, "stakes": stakes,
              "at": current["at"], "played": current["played"],
              "orbit_start": current["orbit_start"]}
    if wanted["mode"] == "fixed" and not games:
        wanted["games"] = [setup["game"]]
    after = copy.deepcopy(setup)
    if wanted["mode"] == "list" and games and setup["game"] not in games:
        after["game"], after["stakes"] = games[0], dict(stakes.get(games[0]) or setup["stakes"])
    try:
        after["rotation"] = check_rotation(wanted, after["game"])
    except KioskError as exc:
        problems.append(exc)
        after["rotation"] = wanted
    return after, problems


def _number(text: Any, default: int | None) -> int | None:
    value = str(text or "").strip()
    return int(value) if value.isdigit() else default


__all__ = ["KEPT", "MODES", "after_hand", "button", "check_rotation", "choose", "dealt_in",
           "form_rotation", "rotation", "stakes_of", "upcoming"]
