"""The table service: one table, one lock, one engine :class:`~engine.Hand`.

Every input that changes the table goes through this class, whatever its source (the dealer's
touchscreen over Socket.IO, the JSON API, a serial card reader or button panel, a camera
confirmation): the engine verifies it, the store writes it (committed, on disk), and only then are
the screens told and the caller acknowledged. An event the engine refuses changes nothing and the
caller gets the engine's error, whose message says what was wrong and what is allowed.

>>> from kiosk.store import Store
>>> table = TableService(Store("sqlite://"))
>>> table.hand_running()
False
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable
from typing import Any, cast

from flask import current_app

from engine.errors import EngineError
from engine.events import event_from_dict
from engine.hand import Hand
from engine.settings import GameSettings
from kiosk import (
    entries,
    presenter,
    rotation,
    tournament_events,  # registers the tournament's table events
)
from kiosk import night as _night  # noqa: F401  (registers the night's table events)
from kiosk.book_store import BookStore
from kiosk.entries import check_event, stored
from kiosk.errors import Kind, KioskError
from kiosk.players import PlayerList
from kiosk.setup_schema import validate_setup
from kiosk.store import Answer, Finish, Store
from kiosk.table_log import EVENT_KINDS, Context, TableLog, is_table_event
from kiosk.table_setup import default_setup, settings_from_setup, setup_key

Listener = Callable[["TableService"], None]

logger = logging.getLogger(__name__)


class TableService:
    """One table: its setup, its current hand and the store that makes both durable."""

    def __init__(self, store: Store, table_id: int = 1) -> None:
        self.store = store
        self.table_id = table_id
        self.lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.setup_key = setup_key(table_id)
        self._setup: dict[str, Any] = store.get(self.setup_key) or default_setup()
        self.hand: Hand | None = None
        self.hand_id: int | None = None
        self.hand_number = 0
        self.version = 0
        #: (role, lang) -> (version, view): the views presented since the last change
        self._views: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
        #: something the dealer must read (a stored hand that could not be resumed, until the
        #: next hand starts; a store that can only be read)
        self.notice: KioskError | None = None
        #: the players of the list, the table's log of table events and its open book (a night)
        self.books = BookStore(store)
        self.log = TableLog(self.books, table_id)
        #: the night's standings on the TV (the dealer shows and hides them)
        self.show_night = False
        self.roster = PlayerList(self.books)
        self._resume()
        if store.read_only is not None:
            logger.error("the store can only be read: %s", store.read_only)
            self.notice = KioskError("store.read_only", Kind.UNAVAILABLE)

    # -- lifecycle ----
    def _resume(self) -> None:
        """Load the latest hand by replaying its stored events through the engine."""
        row = self.store.latest_hand(self.table_id)
        if row is None:
            return
        self.hand_number = row["number"]
        hand = Hand(GameSettings.from_dict(row["setup"]["settings"]))
        for seq, written in enumerate(self.store.events(row["id"])):
            try:
                hand.push(event_from_dict(written))
            except (ValueError, KeyError, TypeError) as exc:
                self._void_unreadable(row, seq, written, exc)
                return
        self.hand, self.hand_id = hand, row["id"]
        if hand.finished and row["status"] == "running":
            # written by an older version that crashed between the last event and the result
            if self.store.read_only is None:
                self._finish()
            else:
                self._setup = self._finishing()[1]

    def _void_unreadable(
        self, row: dict[str, Any], seq: int, stored: dict[str, Any], exc: Exception
    ) -> None:
        """A running hand whose stored log no longer replays (written by an older version, a
        damaged database) is set aside as ``void`` with its events kept, every stack stays as it
        was before the hand, and the dealer is told why, instead of the kiosk failing to start."""
        logger.error(
            "hand %s: stored event %d %s does not replay: %s", row["id"], seq + 1, stored, exc
        )
        if row["status"] != "running":
            return  # a hand that had ended: its result and the stacks after it are stored
        if self.store.read_only is None:
            self.store.finish_hand(
                row["id"], "void", {"void": {"event": seq + 1, "reason": str(exc)}}, {}
            )
        self.notice = KioskError(
            "table.err.unreadable", number=row["number"], event=seq + 1, reason=str(exc)
        )

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(service)`` after every change (the app broadcasts the new state)."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        self.version += 1
        for listener in self._listeners:
            listener(self)

    # -- setup ----
    def setup(self) -> dict[str, Any]:
        with self.lock:
            return copy.deepcopy(self._setup)

    def hand_running(self) -> bool:
        with self.lock:
            return self.hand is not None and not self.hand.finished

    def configure(self, setup: dict[str, Any]) -> None:
        """Replace the table setup between hands: the setup's schema checks each field
        (:func:`~kiosk.setup_schema.validate_setup`), the engine the whole (by building its
        settings), and what the schema produced is stored."""
        with self.lock:
            if self.hand_running():
                raise KioskError("setup.locked", Kind.NOT_NOW)
            new_setup = validate_setup(setup)
            if self.log.book is not None:
                # the night keeps the seats: a seat changes by its entries only (buy-in, rebuy,
                # cash-out...), so that every chip on the table is in the ledger
                if _seat_state(new_setup) != _seat_state(self._setup):
                    raise KioskError("night.err.seats_locked", Kind.NOT_NOW)
                new_setup["seats"] = copy.deepcopy(self._setup["seats"])
            new_setup.setdefault("button", self._setup.get("button", 0))
            if "rotation" in new_setup:
                new_setup["rotation"] = rotation.check_rotation(new_setup["rotation"],
                                                                new_setup["game"])
            settings_from_setup(new_setup)
            with stored():
                self.store.put(self.setup_key, new_setup)
            self._setup = new_setup
            self.hand = None
            self.hand_id = None
        self._changed()

    # -- the hand ----
    def start_hand(self, source: str = "touch", game: str | None = None) -> dict[str, Any]:
        """Deal a new hand with the table's setup and current stacks (antes are posted); in a
        dealer's choice, ``game`` is the game chosen (played with its own stakes)."""
        with self.lock:
            if self.hand_running():
                raise KioskError("table.err.running", Kind.NOT_NOW)
            self._book_entries("before_hand", self._setup, tournament_events.now())
            setup = self._setup
            if game is not None or rotation.rotation(setup)["mode"] == "choice":
                setup = rotation.choose(setup, game if game is not None else setup["game"])
            setup["button"] = rotation.button(setup)
            settings = settings_from_setup(setup)
            hand = Hand(settings)
            record = {
                "settings": settings.to_dict(),
                "source": source,
                # what the hand's end may change, as it was at its start (an undo puts it back),
                # and who sat where (a player's hands across nights)
                "table": {key: copy.deepcopy(setup.get(key)) for key in rotation.KEPT},
                "players": {str(s["seat"]): s["player"] for s in setup["seats"]
                            if s["active"] and not s.get("out") and s.get("player")},
                "book": None if self.log.book is None else self.log.book.id,
            }
            with stored():
                if setup is not self._setup:
                    self.store.put(self.setup_key, setup)
                hand_id = self.store.begin_hand(self.table_id, record)
                row = self.store.hand(hand_id)
            self._setup = setup
            self.hand, self.hand_id = hand, hand_id
            self.hand_number = row["number"] if row else self.hand_number + 1
            self.notice = None
            self._changed()
            return {"hand_id": hand_id, "number": self.hand_number}

    def next_hand(self, source: str = "touch", game: str | None = None) -> dict[str, Any]:
        """After a finished hand: start the next one (stacks carried over)."""
        return self.start_hand(source, game)

    def night_on_tv(self, show: bool) -> dict[str, Any]:
        """Show the night's standings on the TV, or hide them."""
        with self.lock:
            self.show_night = bool(show)
        self._changed()
        return {"ok": True}

    def submit(self, event: dict[str, Any], source: str = "touch") -> dict[str, Any]:
        """Verify ``event`` with the engine, store it, apply it, broadcast; return the stored event.

        ``event`` is the engine's JSON form (``{"type": "act", "seat": 3, "action": "call"}``),
        with, if the client gives one, its own ``id`` for the entry: an entry sent again with an
        id already answered (a client that did not get its answer) is not entered again and gets
        the first answer (:mod:`kiosk.entries`). ``source`` says where it came from (``touch``,
        ``api``, ``serial``, ``camera``...). The entry that ends a hand is stored with the hand's
        result and the new stacks in one transaction. Raises the engine's error (a
        ``ValueError``) with its message when the event is refused, and :class:`KioskError` when
        the store refuses it. A *table event* (a night's buy-in, a rebuy, a seat sitting out...:
        ``kiosk/table_log.py``) takes the same way in and goes to the table's log instead of the
        hand.
        """
        with self.lock:
            client_id = entries.entry_id(event)
            repeat = self._repeat(client_id)
            if repeat is not None:
                return repeat
            if is_table_event(event):
                return self._table_event(event, source, client_id)
            engine_event = check_event(event)
            hand = self._require_hand()
            pushed = hand.push(event_from_dict(engine_event))
            seq = len(hand.events) - 1
            answer = {"ok": True, "event": pushed.to_dict(), "seq": seq}
            finish, setup = self._finishing() if hand.finished else (None, self._setup)
            try:
                assert self.hand_id is not None
                with stored():
                    self.store.append_event(self.hand_id, seq, pushed.to_dict(), source,
                                            finish=finish, answer=self._answer(client_id, answer))
            except Exception:
                hand.pop()
                raise
            self._setup = setup
            if finish is not None:
                self._book_after(hand)
            self._changed()
            return answer

    def undo(self, source: str = "touch", entry_id: str | None = None) -> dict[str, Any]:
        """Take back the table's latest entry: a table event made since the latest hand's last
        event, else the hand's last event (also after the hand ended: the result is withdrawn);
        ``entry_id`` as for :meth:`submit`: an undo sent again is not done twice."""
        with self.lock:
            client_id = entries.entry_id({} if entry_id is None else {"id": entry_id})
            repeat = self._repeat(client_id)
            if repeat is not None:
                return repeat
            last = self._last_table_entry()
            if last is not None and not EVENT_KINDS[last["event"]["type"]].follows_hand:
                return self._undo_table_event(last, client_id)
            if last is not None:  # made by the hand's end: taken back with its last event
                with stored():
                    self._setup = self.log.pop(last, self.setup_key)
            hand = self._require_hand()
            if not hand.events:
                raise KioskError("table.err.nothing_to_undo", Kind.NOT_NOW)
            was_finished = hand.finished
            popped = hand.pop()
            answer = {"ok": True, "undone": popped.to_dict()}
            assert self.hand_id is not None
            try:
                with stored():
                    reopen, setup = self._reopening(hand) if was_finished else (None, self._setup)
                    self.store.pop_event(self.hand_id, len(hand.events), reopen=reopen,
                                         answer=self._answer(client_id, answer))
            except KioskError:
                hand.push(event_from_dict(popped.to_dict()))
                raise
            self._setup = setup
            self._changed()
            return answer

    def _repeat(self, client_id: str | None) -> dict[str, Any] | None:
        """The first answer to the client's ``client_id``, when that entry was already made."""
        if client_id is None:
            return None
        with stored():
            return self.store.answer(self.table_id, client_id)

    def _answer(self, client_id: str | None, answer: dict[str, Any]) -> Answer | None:
        """The answer to keep with the entry, written in its transaction (a client's id)."""
        return None if client_id is None else (self.table_id, client_id, answer)

    def misdeal(self, source: str = "touch", entry_id: str | None = None) -> dict[str, Any]:
        event: dict[str, Any] = {"type": "misdeal"}
        if entry_id is not None:
            event["id"] = entry_id
        return self.submit(event, source)

    def _require_hand(self) -> Hand:
        if self.hand is None:
            raise KioskError("table.err.no_hand", Kind.NOT_NOW)
        return self.hand

    def _finishing(self) -> tuple[Finish, dict[str, Any]]:
        """The end of the finished hand as the store writes it, and the setup with the stacks
        after it (kept only once it is written)."""
        hand = self._require_hand()
        assert hand.result is not None
        stacks = hand.finishing_stacks
        setup = copy.deepcopy(self._setup)
        for seat in setup["seats"]:
            if seat["seat"] in stacks:
                seat["stack"] = stacks[seat["seat"]]
        if not hand.result.misdeal:  # a misdeal is dealt again by the same button
            setup = rotation.after_hand(setup)
        finish = Finish(
            "misdeal" if hand.result.misdeal else "finished",
            hand.result.to_dict("en"),
            {str(k): v for k, v in stacks.items()},
            {self.setup_key: setup},
        )
        return finish, setup

    def _book_after(self, hand: Hand) -> None:
        """The entries the open book makes after a hand played out (a tournament's
        eliminations), once the hand's end is written."""
        assert hand.result is not None
        if not hand.result.misdeal:
            start = {s.number: s.stack for s in hand.settings.seats}
            self._book_entries("after_hand", self._setup, self.hand_id, start,
                               dict(hand.finishing_stacks))

    def _finish(self) -> None:
        """Write the end of a hand whose last entry is stored without it (a crash between the two
        writes of an older version)."""
        finish, setup = self._finishing()
        assert self.hand_id is not None
        self.store.finish_hand(self.hand_id, finish.status, finish.result, finish.stacks_after,
                               settings=finish.settings)
        self._setup = setup
        self._book_after(self._require_hand())

    def _reopening(self, hand: Hand) -> tuple[dict[str, Any], dict[str, Any]]:
        """The settings as before the hand ended (its stacks at its start, the button and the
        rotation as they were when it started), for an undo."""
        start = {s.number: s.stack for s in hand.settings.seats}
        setup = copy.deepcopy(self._setup)
        for seat in setup["seats"]:
            if seat["seat"] in start:
                seat["stack"] = start[seat["seat"]]
        row = self.store.hand(self.hand_id) if self.hand_id is not None else None
        kept = (row or {}).get("setup", {}).get("table")
        if kept:  # the button and the rotation as they were when the hand started
            setup.update(copy.deepcopy(kept))
        return {self.setup_key: setup}, setup

    # -- table events (docs/night.md): a night's ledger, seats between hands ----
    def _table_event(self, event: dict[str, Any], source: str,
                     client_id: str | None) -> dict[str, Any]:
        """A table event through the table log: checked, stored with the setup after it and the
        answer to the client's id (one transaction), folded into the open book, then every
        screen is told."""
        latest = self.store.latest_hand(self.table_id)
        ctx = Context(players=self.player, hand_running=self.hand_running(),
                      latest_hand=None if latest is None else latest["id"])
        kind, entry = self.log.check(dict(event), self._setup, ctx)
        answer = {"ok": True, "event": entry}
        with stored():
            self._setup = self.log.push(
                kind, entry, self._setup, self.setup_key,
                None if latest is None else latest["id"], source,
                answer=self._answer(client_id, answer))
        self._changed()
        return answer

    def _book_entries(self, hook: str, *args: Any) -> None:
        """Write the entries the open book makes around a hand (``before_hand``: a tournament's
        new level; ``after_hand``: its eliminations), each as a table event of the kiosk's."""
        make = getattr(self.log.book, hook, None)
        if make is None:
            return
        for entry in make(*args):
            self._push_own(entry)

    def _push_own(self, entry: dict[str, Any]) -> None:
        latest = self.store.latest_hand(self.table_id)
        with stored():
            self._setup = self.log.push(
                EVENT_KINDS[entry["type"]], entry, self._setup, self.setup_key,
                None if latest is None else latest["id"], "kiosk")

    def record(self, entry: dict[str, Any]) -> None:
        """Write an entry the kiosk makes itself (a tournament clock's outage, checked by its
        maker) and tell every screen."""
        with self.lock:
            self._push_own(entry)
        self._changed()

    def _last_table_entry(self) -> dict[str, Any] | None:
        """The table log's latest entry when it came after the latest hand's every event (made
        between hands, no hand started since): the next undo takes it back."""
        if self.hand_running():
            return None
        last = self.log.last()
        if last is None:
            return None
        latest = self.store.latest_hand(self.table_id)
        return last if last["after_hand"] == (None if latest is None else latest["id"]) else None

    def _undo_table_event(self, last: dict[str, Any], client_id: str | None) -> dict[str, Any]:
        answer = {"ok": True, "undone": last["event"]}
        with stored():
            self._setup = self.log.pop(last, self.setup_key,
                                       answer=self._answer(client_id, answer))
        self._changed()
        return answer

    def can_undo(self) -> bool:
        with self.lock:
            if self._last_table_entry() is not None:
                return True
            return self.hand is not None and bool(self.hand.events)

    # -- the player list (kiosk/players.py) ----
    def player(self, player_id: int) -> dict[str, Any] | None:
        return self.roster.get(player_id)

    def players(self) -> list[dict[str, Any]]:
        with self.lock:
            return self.roster.everyone()

    def add_player(self, name: Any, nickname: Any = None) -> dict[str, Any]:
        with self.lock, stored():
            row = self.roster.add(name, nickname)
        self._changed()
        return {"ok": True, "player": row}

    def rename_player(self, player_id: int, name: Any, nickname: Any) -> dict[str, Any]:
        """A new name for a player: their seat at this table shows it at once, their history
        (kept by id) is theirs still."""
        with self.lock, stored():
            row = self.roster.rename(player_id, name, nickname)
            if any(s.get("player") == player_id for s in self._setup["seats"]):
                for seat in self._setup["seats"]:
                    if seat.get("player") == player_id:
                        seat["name"] = row["name"]
                self.store.put(self.setup_key, self._setup)
        self._changed()
        return {"ok": True, "player": row}

    def merge_player(self, duplicate: int, into: int | None) -> dict[str, Any]:
        """``duplicate`` is the same person as ``into`` (None: they are two people after all)."""
        with self.lock, stored():
            seated = {s.get("player") for s in self._setup["seats"] if s["active"]}
            self.roster.merge(duplicate, into, seated)
        self._changed()
        return {"ok": True}

    # -- views ----
    def view(self, role: str, lang: str) -> dict[str, Any]:
        """What a ``dealer`` or a ``spectator`` screen in ``lang`` may see now: presented once
        per change of the table and kept (a crowd of screens connecting asks for the same view
        again and again), unless a tournament's clock is running (its view says the seconds left
        when it was presented); callers read it, never change it."""
        with self.lock:
            key = (role, lang)
            kept = self._views.get(key)
            if kept is not None and kept[0] == self.version:
                return kept[1]
            view = presenter.present(self, role, lang)
            if getattr(self.log.book, "running", False):
                self._views.pop(key, None)
            else:
                self._views[key] = (self.version, view)
            return view


def _seat_state(setup: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(s["seat"], bool(s["active"]), int(s["stack"]) if s["active"] else 0,
             s.get("player") if s["active"] else None) for s in setup["seats"]]


def service() -> TableService:
    """The current app's table service."""
    return cast(TableService, current_app.extensions["stud_table"])


__all__ = ["EngineError", "KioskError", "TableService", "service"]
