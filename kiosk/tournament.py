"""A tournament: a book of table events (:mod:`kiosk.table_log`) like the night, with a clock.

The book is the fold of its entries (:mod:`kiosk.tournament_events` registers them): the
structure and its rules (``tournament_open``), the entrants, rebuys and add-ons, the clock's
starts, pauses, resumes and lengthenings, the levels put in play, the eliminations with their
places, a colour-up, the payouts chosen by hand, a deal, the close.

**The clock is arithmetic on stored times.** Every clock entry carries the wall time it was made
at (``at``, seconds since the epoch). The clock's *play time* is the time it ran: ``banked`` (the
play time before its latest start) plus, while it runs, now less ``since``. The level on the clock
is where the play time falls in the levels' lengths (each lengthened or shortened by the dealer):
nothing is counted in memory that a restart could lose, and a replay of the entries gives the same
clock. When the kiosk stops with the clock running, the next start writes an ``outage`` entry: the
clock stopped at the last heartbeat, and the dealer chooses to count the time it was off
(``resume`` with ``count_outage``: play time runs from the moment it stopped) or not.

**The table plays the level in play**, which is the clock's level only from the next hand on: a
hand is never dealt on two levels. ``before_hand`` gives the ``level`` entry to write when the
clock has moved on; ``after_hand`` the ``elimination`` of every player left with no chips.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.errors import Kind, KioskError
from kiosk.tournament_structure import STAKES, colour_up, payout_table, prizes


@dataclass
class Entrant:
    player: int
    name: str
    seat: int | None
    rebuys: int = 0
    add_ons: int = 0
    place: int | None = None
    out_hand: int | None = None
    prize: int = 0


@dataclass(frozen=True)
class ClockAt:
    """Where the clock is at a moment."""

    index: int
    """The position in the levels (breaks included)."""
    number: int
    """The played level's number (a break: the number of the level before it)."""
    is_break: bool
    left: float
    """Seconds left in the level (0 past the last level)."""
    elapsed: float
    running: bool
    last: bool
    """The last level: it lasts until the end."""


@dataclass
class Tournament:
    """The fold of a tournament's entries."""

    id: int
    kind: str = "tournament"
    closed: bool = False
    currency: str = "EUR"
    buy_in: int = 0
    chips: int = 0
    levels: list[dict[str, Any]] = field(default_factory=list)
    chip_values: list[int] = field(default_factory=list)
    rebuy_until: int | None = None
    rebuys_most: int | None = None
    rebuy_chips: int = 0
    rebuy_money: int = 0
    add_on_chips: int | None = None
    add_on_money: int = 0
    late_until: int | None = None
    shares: list[int] | None = None
    sound: bool = False
    entrants: dict[int, Entrant] = field(default_factory=dict)
    # the clock
    started: bool = False
    running: bool = False
    since: float = 0.0
    banked: float = 0.0
    extra: dict[int, float] = field(default_factory=dict)
    outage: dict[str, float] | None = None
    paused_at: float | None = None
    # the table
    playing: int | None = None
    colour_ups: list[dict[str, Any]] = field(default_factory=list)
    deal: dict[int, int] | None = None
    entries: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def fold(cls, book_id: int, entries: list[dict[str, Any]]) -> Tournament:
        book = cls(book_id)
        for entry in entries:
            book.apply(entry)
        return book

    # -- the fold ----
    def apply(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        kind = entry["type"]
        if kind == "tournament_open":
            for key in ("currency", "buy_in", "chips", "levels", "chip_values", "rebuy_until",
                        "rebuys_most", "rebuy_chips", "rebuy_money", "add_on_chips",
                        "add_on_money", "late_until", "sound"):
                setattr(self, key, entry[key])
            self.shares = entry["payouts"]
        elif kind == "entrant":
            self.entrants[entry["player"]] = Entrant(entry["player"], entry["name"], entry["seat"])
        elif kind == "tournament_rebuy":
            one = self.entrants[entry["player"]]
            one.rebuys += 1
            if one.place is not None:  # back in after going out in the hand just played
                one.place, one.out_hand, one.seat = None, None, entry["seat"]
        elif kind == "add_on":
            self.entrants[entry["player"]].add_ons += 1
        elif kind == "clock":
            self._clock(entry)
        elif kind == "level":
            self.playing = entry["index"]
        elif kind == "elimination":
            for out in entry["players"]:
                one = self.entrants[out["player"]]
                one.place, one.out_hand, one.seat = out["place"], entry["hand"], None
        elif kind == "colour_up":
            self.colour_ups.append(entry)
            self.chip_values = [c for c in self.chip_values if c != entry["chip"]]
        elif kind == "payouts":
            self.shares = entry["shares"]
        elif kind == "chop":
            self.deal = {int(k): v for k, v in entry["amounts"].items()}
            self.closed = True
        elif kind == "tournament_close":
            winner = self.left()
            if len(winner) == 1:
                winner[0].place = 1
            self.closed = True
        elif kind == "move":
            for one in self.entrants.values():
                if one.seat == entry["seat"] and one.place is None:
                    one.seat = entry["to"]

    def _clock(self, entry: dict[str, Any]) -> None:
        action, at = entry["action"], float(entry["at"])
        if action == "start":
            self.started, self.running, self.since, self.banked = True, True, at, 0.0
        elif action == "pause":
            self.banked, self.running, self.paused_at = self.elapsed(at), False, at
        elif action == "resume":
            if self.outage is not None and entry.get("count_outage"):
                at = self.outage["down"]
            self.running, self.since, self.outage, self.paused_at = True, at, None, None
        elif action == "outage":
            # the kiosk was off: the clock stopped at its last heartbeat, until the dealer says
            down = min(float(entry["down"]), at)
            self.banked, self.running = self.elapsed(down), False
            self.outage, self.paused_at = {"down": down, "up": at}, down
        elif action in ("lengthen", "end_level"):
            now = self.at(at)
            seconds = float(entry["seconds"]) if action == "lengthen" else -now.left
            self.extra[now.index] = self.extra.get(now.index, 0.0) + seconds

    # -- the clock ----
    def elapsed(self, now: float) -> float:
        return self.banked + (max(0.0, now - self.since) if self.running else 0.0)

    def length(self, index: int) -> float:
        return float(self.levels[index]["seconds"]) + self.extra.get(index, 0.0)

    def number_of(self, index: int) -> int:
        return sum(1 for lv in self.levels[:index + 1] if not lv.get("break"))

    def at(self, now: float) -> ClockAt:
        elapsed = self.elapsed(now)
        end = 0.0
        for index in range(len(self.levels)):
            end += self.length(index)
            if elapsed < end or index == len(self.levels) - 1:
                last = index == len(self.levels) - 1
                return ClockAt(index, self.number_of(index),
                               bool(self.levels[index].get("break")),
                               max(0.0, end - elapsed), elapsed, self.running, last)
        raise AssertionError("a tournament has levels")

    def next_played(self, index: int) -> int | None:
        """The position of the next played level after ``index`` (None: none)."""
        for later in range(index + 1, len(self.levels)):
            if not self.levels[later].get("break"):
                return later
        return None

    def clock_level(self, now: float) -> int:
        """The played level the clock is at (during a break: the one before it)."""
        index = self.at(now).index
        while self.levels[index].get("break") and index > 0:
            index -= 1
        return index

    def stakes(self, index: int) -> dict[str, int]:
        return {key: int(self.levels[index][key]) for key in STAKES}

    # -- the players ----
    def left(self) -> list[Entrant]:
        """The entrants still in, by seat."""
        return sorted((e for e in self.entrants.values() if e.place is None),
                      key=lambda e: e.seat or 0)

    def entries_count(self) -> int:
        return len(self.entrants)

    def rebuys(self) -> int:
        return sum(e.rebuys for e in self.entrants.values())

    def add_ons(self) -> int:
        return sum(e.add_ons for e in self.entrants.values())

    def pool(self) -> int:
        """The prize pool, in cents: every entry, rebuy and add-on."""
        return (self.buy_in * self.entries_count() + self.rebuy_money * self.rebuys()
                + self.add_on_money * self.add_ons())

    def chips_in_play(self) -> int:
        """Every chip bought: starting stacks, rebuys and add-ons (a colour-up's race-off moves a
        few: :attr:`colour_ups` keeps what it changed)."""
        chips = (self.chips * self.entries_count() + (self.rebuy_chips or 0) * self.rebuys()
                 + (self.add_on_chips or 0) * self.add_ons())
        return chips + sum(int(c["change"]) for c in self.colour_ups)

    def payouts(self) -> list[int]:
        """The shares paid, in tenths of a percent: chosen by hand, or by the number of entries."""
        shares = self.shares or payout_table(self.entries_count())
        return shares[:max(1, self.entries_count())]

    def places(self) -> dict[int, list[int]]:
        """Each place finished so far and the players there."""
        found: dict[int, list[int]] = {}
        for one in self.entrants.values():
            if one.place is not None:
                found.setdefault(one.place, []).append(one.player)
        return found

    def prizes(self) -> dict[int, int]:
        """The prize of every placed player (cents); after a deal, the deal's amounts."""
        paid = prizes(self.pool(), self.payouts(), self.places())
        if self.deal is not None:
            paid.update(self.deal)
        return {player: cents for player, cents in paid.items() if cents}

    def colour_up_chip(self) -> int | None:
        """The smallest chip the level in play and every level after it no longer need."""
        if self.playing is None:
            return None
        later = [lv for lv in self.levels[self.playing:] if not lv.get("break")]
        chip = colour_up(self.chip_values, later[0]) if later else None
        if chip is None or any(colour_up(self.chip_values, lv) != chip for lv in later):
            return None
        return chip

    # -- around a hand (the service writes what these return) ----
    def before_hand(self, setup: dict[str, Any], now: float) -> list[dict[str, Any]]:
        """The entries to write before a hand: the clock started at the first hand if the dealer
        had not, and the clock's level put in play when it has moved on. A hand is not dealt
        during a break."""
        if self.closed:
            return []
        made: list[dict[str, Any]] = []
        if not self.started:
            made.append({"type": "clock", "action": "start", "at": now})
            target = 0
        else:
            clock = self.at(now)
            if clock.is_break and not clock.last:
                raise KioskError("tournament.err.break", Kind.NOT_NOW,
                                 minutes=int(clock.left // 60), seconds=int(clock.left % 60))
            target = self.clock_level(now)
        if target != self.playing:
            made.append({"type": "level", "index": target, "number": self.number_of(target),
                         "stakes": self.stakes(target), "at": now})
        return made

    def after_hand(self, setup: dict[str, Any], hand_id: int, start: dict[int, int],
                   end: dict[int, int]) -> list[dict[str, Any]]:
        """The elimination of every entrant left with no chips by the hand, with their places:
        two out in the same hand are placed by the chips they started it with (more chips, the
        better place; the same chips, the same place, sharing its prize and the next)."""
        out = []
        for seat in setup["seats"]:
            one = self.entrants.get(seat.get("player") or 0)
            number = int(seat["seat"])
            if seat["active"] and one is not None and one.place is None and end.get(number) == 0:
                out.append({"player": one.player, "seat": number, "start": start.get(number, 0)})
        if not out:
            return []
        remaining = len(self.left())
        for row in out:
            smaller = sum(1 for o in out if o["start"] < row["start"])
            same = sum(1 for o in out if o["start"] == row["start"])
            row["place"] = remaining - smaller - same + 1
        out.sort(key=lambda o: (o["place"], o["seat"]))
        return [{"type": "elimination", "hand": hand_id, "players": out}]


__all__ = ["ClockAt", "Entrant", "Tournament"]
