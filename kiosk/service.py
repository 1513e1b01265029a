"""The table service: one table, one lock, one engine :class:`~engine.Hand`.

Every input that changes the table goes through this class, whatever its source (the dealer's
touchscreen over Socket.IO, the JSON API, a serial card reader or button panel, a camera
confirmation): the engine verifies it, the store writes it (committed, on disk), and only then are
the screens told and the caller acknowledged. An event the engine refuses changes nothing and the
caller gets the engine's error, whose message says what was wrong and what is allowed.

>>> from kiosk.setup_schema import validate_setup
from kiosk.store import Answer, Finish, Store
>>> table = TableService(Store("sqlite://"))
>>> table.hand_running()
False
"""

from __future__ import annotations

import copy
import logging
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from flask import current_app
from sqlalchemy.exc import SQLAlchemyError

from engine.errors import EngineError
from engine.events import event_from_dict
from engine.hand import Hand
from engine.settings import GameSettings, HouseRules, SeatConfig
from kiosk import presenter
from kiosk.errors import Kind, KioskError
from kiosk.setup_schema import validate_setup
from kiosk.store import Answer, Finish, Store
from kiosk.table_setup import default_setup

Listener = Callable[["TableService"], None]

SETUP_KEY = "table"


def setup_key(table_id: int) -> str:
    """Where a table's setup is stored: ``table`` for table 1 (a single kiosk), ``table:<id>`` for
    the other tables of a card room sharing the database."""
    return SETUP_KEY if table_id == 1 else f"{SETUP_KEY}:{table_id}"


logger = logging.getLogger(__name__)


def store_refusal(error: BaseException) -> KioskError:
    """A write the store refused, in words: a full disk, a read-only database, or a database that
    cannot be reached (a card room's server)."""
    reason = str(getattr(error, "orig", None) or error).lower()
    if "full" in reason:
        return KioskError("store.full", Kind.UNAVAILABLE)
    if "readonly" in reason or "read-only" in reason or "read only" in reason:
        return KioskError("store.read_only", Kind.UNAVAILABLE)
    return KioskError("store.unavailable", Kind.UNAVAILABLE)


@contextmanager
def _stored() -> Iterator[None]:
    """A write the store refuses becomes an error the dealer can read; the caller leaves the
    table as it was."""
    try:
        yield
    except SQLAlchemyError as exc:
        logger.error("the store refused a write: %s", exc)
        raise store_refusal(exc) from exc


#: what an entry may hold (docs/api.md), and how long a text in it may be
EVENT_KEYS = ("type", "seat", "card", "up", "action", "amount", "cards", "id")
EVENT_TEXT_MOST = 16
#: a client's id for an entry: letters, digits, ``-`` and ``_``
ENTRY_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_event(event: Any) -> tuple[dict[str, Any], str | None]:
    """The entry for the engine (without the client's id) and the id, or a refusal in words that
    names what is allowed and never repeats the whole entry."""
    if not isinstance(event, dict):
        raise KioskError("json.not_object", Kind.UNREADABLE)
    unknown = sorted(str(k)[:EVENT_TEXT_MOST] for k in event if k not in EVENT_KEYS)
    if unknown:
        raise KioskError("table.err.event_keys", keys=", ".join(unknown[:3]),
                         allowed=", ".join(EVENT_KEYS))
    for key, value in event.items():
        if isinstance(value, str) and len(value) > (64 if key == "id" else EVENT_TEXT_MOST):
            raise KioskError("table.err.event_long", field=key)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**53:
            raise KioskError("table.err.event_number", field=key)
        if isinstance(value, list | dict) and key != "cards":
            raise KioskError("table.err.event_value", field=key)
    cards = event.get("cards")
    if isinstance(cards, list) and (
        len(cards) > 10 or not all(isinstance(c, str) and len(c) <= 4 for c in cards)
    ):
        raise KioskError("table.err.event_cards")
    entry_id = event.get("id")
    if entry_id is not None and not (isinstance(entry_id, str) and ENTRY_ID.fullmatch(entry_id)):
        raise KioskError("table.err.entry_id")
    return {k: v for k, v in event.items() if k != "id"}, entry_id


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
            if s["active"]
        ),
        dealer=int(setup["dealer"]),
    )


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
        for seq, stored in enumerate(self.store.events(row["id"])):
            try:
                hand.push(event_from_dict(stored))
            except (ValueError, KeyError, TypeError) as exc:
                self._void_unreadable(row, seq, stored, exc)
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
            settings_from_setup(new_setup)
            with _stored():
                self.store.put(self.setup_key, new_setup)
            self._setup = new_setup
            self.hand = None
            self.hand_id = None
        self._changed()

    # -- the hand ----
    def start_hand(self, source: str = "touch") -> dict[str, Any]:
        """Deal a new hand with the table's setup and current stacks (antes are posted)."""
        with self.lock:
            if self.hand_running():
                raise KioskError("table.err.running", Kind.NOT_NOW)
            settings = settings_from_setup(self._setup)
            hand = Hand(settings)
            with _stored():
                hand_id = self.store.begin_hand(
                    self.table_id, {"settings": settings.to_dict(), "source": source}
                )
                row = self.store.hand(hand_id)
            self.hand, self.hand_id = hand, hand_id
            self.hand_number = row["number"] if row else self.hand_number + 1
            self.notice = None
            self._changed()
            return {"hand_id": hand_id, "number": self.hand_number}

    def next_hand(self, source: str = "touch") -> dict[str, Any]:
        """After a finished hand: start the next one (stacks carried over)."""
        return self.start_hand(source)

    def submit(self, event: dict[str, Any], source: str = "touch") -> dict[str, Any]:
        """Verify ``event`` with the engine, store it, apply it, broadcast; return the stored event.

        ``event`` is the engine's JSON form (``{"type": "act", "seat": 3, "action": "call"}``),
        with, if the client gives one, its own ``id`` for the entry: an entry sent again with an
        id already answered (a client that did not get its answer) is not entered again and gets
        the first answer. ``source`` says where it came from (``touch``, ``api``, ``serial``,
        ``camera``...). The entry that ends a hand is stored with the hand's result and the new
        stacks in one transaction. Raises the engine's error (a ``ValueError``) with its message
        when the event is refused, and :class:`KioskError` when the store refuses it.
        """
        with self.lock:
            engine_event, entry_id = check_event(event)
            repeat = self._repeat(entry_id)
            if repeat is not None:
                return repeat
            hand = self._require_hand()
            stored = hand.push(event_from_dict(engine_event))
            seq = len(hand.events) - 1
            answer = {"ok": True, "event": stored.to_dict(), "seq": seq}
            finish, setup = self._finishing() if hand.finished else (None, self._setup)
            try:
                assert self.hand_id is not None
                with _stored():
                    self.store.append_event(self.hand_id, seq, stored.to_dict(), source,
                                            finish=finish, answer=self._answer(entry_id, answer))
            except Exception:
                hand.pop()
                raise
            self._setup = setup
            self._changed()
            return answer

    def undo(self, source: str = "touch", entry_id: str | None = None) -> dict[str, Any]:
        """Take back the hand's last event (also after the hand ended: the result is withdrawn);
        ``entry_id`` as for :meth:`submit`: an undo sent again is not done twice."""
        with self.lock:
            _event, entry_id = check_event({"id": entry_id} if entry_id is not None else {})
            repeat = self._repeat(entry_id)
            if repeat is not None:
                return repeat
            hand = self._require_hand()
            if not hand.events:
                raise KioskError("table.err.nothing_to_undo", Kind.NOT_NOW)
            was_finished = hand.finished
            popped = hand.pop()
            answer = {"ok": True, "undone": popped.to_dict()}
            reopen, setup = self._reopening(hand) if was_finished else (None, self._setup)
            assert self.hand_id is not None
            try:
                with _stored():
                    self.store.pop_event(self.hand_id, len(hand.events), reopen=reopen,
                                         answer=self._answer(entry_id, answer))
            except KioskError:
                hand.push(event_from_dict(popped.to_dict()))
                raise
            self._setup = setup
            self._changed()
            return answer

    def _repeat(self, entry_id: str | None) -> dict[str, Any] | None:
        """The first answer to ``entry_id``, when that entry was already made."""
        if entry_id is None:
            return None
        with _stored():
            return self.store.answer(self.table_id, entry_id)

    def _answer(self, entry_id: str | None, answer: dict[str, Any]) -> Answer | None:
        return None if entry_id is None else (self.table_id, entry_id, answer)

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
        finish = Finish(
            "misdeal" if hand.result.misdeal else "finished",
            hand.result.to_dict("en"),
            {str(k): v for k, v in stacks.items()},
            {self.setup_key: setup},
        )
        return finish, setup

    def _finish(self) -> None:
        """Write the end of a hand whose last entry is stored without it (a crash between the two
        writes of an older version)."""
        finish, setup = self._finishing()
        assert self.hand_id is not None
        self.store.finish_hand(self.hand_id, finish.status, finish.result, finish.stacks_after,
                               settings=finish.settings)
        self._setup = setup

    def _reopening(self, hand: Hand) -> tuple[dict[str, Any], dict[str, Any]]:
        """The settings as before the hand ended (its stacks at its start), for an undo."""
        start = {s.number: s.stack for s in hand.settings.seats}
        setup = copy.deepcopy(self._setup)
        for seat in setup["seats"]:
            if seat["seat"] in start:
                seat["stack"] = start[seat["seat"]]
        return {self.setup_key: setup}, setup

    # -- views ----
    def view(self, role: str, lang: str) -> dict[str, Any]:
        """What a ``dealer`` or a ``spectator`` screen in ``lang`` may see now: presented once
        per change of the table and kept (a crowd of screens connecting asks for the same view
        again and again); callers read it, never change it."""
        with self.lock:
            key = (role, lang)
            kept = self._views.get(key)
            if kept is not None and kept[0] == self.version:
                return kept[1]
            view = presenter.present(self, role, lang)
            self._views[key] = (self.version, view)
            return view


def service() -> TableService:
    """The current app's table service."""
    return cast(TableService, current_app.extensions["stud_table"])


__all__ = [
    "EngineError", "KioskError", "TableService", "check_event", "service", "settings_from_setup",
    "store_refusal",
]
