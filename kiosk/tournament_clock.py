"""The tournament clock running in the kiosk: a heartbeat, the outage after a restart, and the
screens told when the clock crosses a mark.

The clock itself is the book's arithmetic on stored times (:mod:`kiosk.tournament`); nothing here
keeps time that a restart could lose. While a tournament is open, one background task per kiosk
looks at the clock every :attr:`~kiosk.tournament_structure.ClockTuning.tick` seconds:

- when the level on the clock, the one-minute warning or the state of the clock changes, every
  screen is sent the new state (the pages count the seconds down between two states);
- while the clock runs it writes a *heartbeat* (the wall time, in the store) every
  :attr:`~kiosk.tournament_structure.ClockTuning.heartbeat` seconds.

At start (:func:`init_app`), a tournament whose clock was running when the kiosk stopped gets an
``outage`` entry: the clock stopped at the last heartbeat, and waits for the dealer to resume it
with the time off counted or not.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from flask import Flask

from kiosk.extensions import socketio
from kiosk.service import TableService
from kiosk.tournament import Tournament
from kiosk.tournament_events import now
from kiosk.tournament_structure import TUNING

log = logging.getLogger(__name__)

HEARTBEAT_KEY = "tournament_heartbeat"


def heartbeat_key(table: TableService) -> str:
    return f"{HEARTBEAT_KEY}:{table.table_id}"


def mark(book: Tournament, at: float) -> tuple[Any, ...]:
    """What the screens must be told of when it changes: the level on the clock, the warning
    before the next, whether it runs."""
    if not book.started or book.closed:
        return (book.started, book.closed)
    clock = book.at(at)
    warning = clock.running and not clock.last and clock.left <= TUNING.warning
    return (clock.index, warning, clock.running, book.outage is not None)


def tournament_of(table: TableService) -> Tournament | None:
    book = table.log.book
    return book if isinstance(book, Tournament) else None


def check_outage(table: TableService) -> None:
    """After a restart: a clock that was running stopped when the kiosk did (its last heartbeat)."""
    with table.lock:
        book = tournament_of(table)
        if book is None or not book.running:
            return
        beat = table.store.get(heartbeat_key(table))
        last_entry = max((float(e["at"]) for e in book.entries if "at" in e), default=book.since)
        down = max(float(beat["at"]) if isinstance(beat, dict) else 0.0, last_entry)
        table.record({"type": "clock", "action": "outage", "down": down, "at": max(now(), down)})


class Ticker:
    """The background task of one table's tournament clock."""

    def __init__(self, table: TableService) -> None:
        self.table = table
        self.running = False
        self.lock = threading.Lock()

    def ensure(self, table: TableService) -> None:
        """Start the task if a tournament is open and it is not running."""
        with self.lock:
            if self.running or tournament_of(table) is None:
                return
            self.running = True
        socketio.start_background_task(self.run)

    def run(self) -> None:
        last: tuple[Any, ...] | None = None
        beat = 0.0
        try:
            while True:
                with self.table.lock:
                    book = tournament_of(self.table)
                    if book is None:
                        return
                    at = now()
                    seen = mark(book, at)
                    if book.running and at - beat >= TUNING.heartbeat:
                        self.table.store.put(heartbeat_key(self.table), {"at": at})
                        beat = at
                if last is not None and seen != last:
                    self.table._changed()
                last = seen
                socketio.sleep(TUNING.tick)
        except Exception:  # a store gone (the app closed): the next tournament starts it again
            log.exception("tournament clock of table %s", self.table.table_id)
        finally:
            with self.lock:
                self.running = False


def init_app(app: Flask, table: TableService) -> Ticker:
    """Record an outage of a running clock, and keep a ticker for the table's tournaments."""
    ticker = Ticker(table)
    app.extensions["stud_clock"] = ticker
    try:
        check_outage(table)
    except ValueError:
        log.exception("recording the tournament clock's outage")
    table.subscribe(ticker.ensure)
    ticker.ensure(table)
    return ticker


__all__ = ["Ticker", "check_outage", "init_app", "mark"]
