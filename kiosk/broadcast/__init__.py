"""The TV as a broadcast (docs/odds.md, docs/api.md): live odds from the public cards, replays of
finished hands, and the delayed stream overlay with the hole cards.

- :mod:`kiosk.broadcast.worker`: :class:`OddsWorker`, the thread that computes the odds (and the
  replays) off the request path, and keeps them by key;
- :mod:`kiosk.broadcast.replays`: a finished hand's streets with their odds;
- :mod:`kiosk.broadcast.overlay`: :class:`OverlayFeed`, the overlay's frames, delay and token;
- :mod:`kiosk.broadcast.settings`: the tuning values.

:func:`init_app` subscribes a :class:`Broadcast` to the table: after every change the TV's odds
are asked for (and sent to the spectators' rooms as ``odds`` once computed), a finished hand's
replay is built (sent as ``replay``), and the overlay keeps a frame. Nothing here slows an entry:
the work is queued, and each screen gets its part when it is ready. The house options (``tv`` in
the setup: ``odds``, ``replays``, ``overlay_delay``) are read at each change.
"""

from __future__ import annotations

import threading
from typing import Any, cast

from flask import Flask, current_app, request
from flask_socketio import ConnectionRefusedError, join_room

from engine.hand import Hand
from engine.i18n import LANGUAGES
from engine.odds import Odds, hand_problem
from kiosk.broadcast.overlay import NAMESPACE, OverlayFeed
from kiosk.broadcast.overlay import room as overlay_room
from kiosk.broadcast.replays import build_replay, odds_payload
from kiosk.broadcast.settings import BroadcastSettings
from kiosk.broadcast.worker import OddsWorker
from kiosk.extensions import socketio
from kiosk.i18n import t
from kiosk.live import room as live_room
from kiosk.service import TableService
from kiosk.table_setup import tv_options

__all__ = ["Broadcast", "BroadcastSettings", "broadcast", "init_app"]


class Broadcast:
    """One table's TV odds, replays and stream overlay."""

    def __init__(self, table: TableService, settings: BroadcastSettings | None = None) -> None:
        self.table = table
        self.settings = settings or BroadcastSettings()
        self.worker = OddsWorker(self.settings.odds, self.settings.cache)
        self.overlay = OverlayFeed(table, self.worker, self.settings)
        self._lock = threading.Lock()
        self._tv_key: str | None = None
        """The key of the odds the TV shows now."""
        self._tv_seats: tuple[int, ...] = ()
        self._replay: dict[str, Any] | None = None
        """The last finished hand's replay: ``{"hand", "events", "streets": {lang: [...]}}``."""

    # -- after every change ----
    def changed(self, table: TableService) -> None:
        """Called after every change of the table, under its lock: queue what the change asks."""
        options = tv_options(table._setup)
        hand = table.hand
        self.overlay.record(table)
        found = None
        if hand is not None and options["odds"]:
            found = hand_problem(hand, "public")
        with self._lock:
            before = self._tv_key
            self._tv_key = None if found is None else found[1].key
            self._tv_seats = () if found is None else found[0]
        if found is not None:
            seats, problem = found
            kept = self.worker.request(
                problem, lambda key, result: self._tv_odds(seats, key, result),
                wanted=lambda: self._tv_key == problem.key)
            if kept is not None and problem.key != before:
                self._tv_odds(seats, problem.key, kept)
        if (hand is not None and hand.finished and options["replays"] and hand.result is not None
                and hand.result.showdown and not hand.result.misdeal):
            self._queue_replay(table)

    def _tv_odds(self, seats: tuple[int, ...], key: str, result: Odds) -> None:
        if key != self._tv_key:
            return
        payload = odds_payload(seats, key, result)
        for lang in LANGUAGES:
            socketio.emit("odds", payload, to=live_room("spectator", lang, self.table.table_id))

    def tv_odds(self) -> dict[str, Any] | None:
        """The odds the TV should show now, if computed."""
        with self._lock:
            key, seats = self._tv_key, self._tv_seats
        kept = None if key is None else self.worker.cached(key)
        return None if key is None or kept is None else odds_payload(seats, key, kept)

    # -- replays ----
    def _queue_replay(self, table: TableService) -> None:
        hand = table.hand
        assert hand is not None and table.hand_id is not None
        with self._lock:
            done = self._replay
        if done and done["hand"] == table.hand_id and done["events"] == len(hand.events):
            return
        self._build_replay(hand, table.hand_id, table.hand_number, now=False)

    def replay_now(self, hand: Hand, hand_id: int, number: int) -> bool:
        """Replay a finished hand on the TV at once (the dealer asked, from the history);
        False while a hand is being played."""
        if self.table.hand_running():
            return False
        self._build_replay(hand, hand_id, number, now=True)
        return True

    def _build_replay(self, hand: Hand, hand_id: int, number: int, now: bool) -> None:
        settings, events = hand.settings, tuple(hand.events)

        def build() -> None:
            streets = build_replay(settings, events, self.worker.odds)
            replay = {"hand": hand_id, "number": number, "events": len(events),
                      "streets": streets, "now": now}
            with self._lock:
                self._replay = replay
            for lang in LANGUAGES:
                socketio.emit("replay", self.replay_payload(lang),
                              to=live_room("spectator", lang, self.table.table_id))

        self.worker.submit(build)

    def replay_payload(self, lang: str) -> dict[str, Any] | None:
        """The last replay in ``lang``, with the TV's pace, if built: ``now`` when the dealer
        asked for it (played at once), else the finished hand's (played after the result)."""
        with self._lock:
            replay = self._replay
        if replay is None:
            return None
        return {"hand": replay["hand"], "number": replay["number"], "now": replay["now"],
                "streets": replay["streets"][lang], "hold": self.settings.replay_hold,
                "street": self.settings.replay_street}


def broadcast() -> Broadcast:
    """The current app's broadcast."""
    return cast(Broadcast, current_app.extensions["stud_broadcast"])


def init_app(app: Flask, table: TableService) -> Broadcast:
    """The table's broadcast, subscribed to its changes; the overlay's first frame kept."""
    settings = app.config.get("BROADCAST_SETTINGS") or BroadcastSettings()
    found = Broadcast(table, settings)
    app.extensions["stud_broadcast"] = found
    table.subscribe(found.changed)
    with table.lock:
        found.changed(table)
    return found


# -- Socket.IO: the TV asks for what it missed -------------------------------------------------
def _sid() -> str:
    return str(request.sid)  # type: ignore[attr-defined]


def on_odds(*_args: Any) -> dict[str, Any] | None:
    """(anyone) The odds the TV shows now, if computed; else None, and ``odds`` comes later."""
    return broadcast().tv_odds()


def on_replay(lang: Any = None) -> dict[str, Any] | None:
    """(anyone) The last finished hand's replay, in ``lang``, if built."""
    return broadcast().replay_payload(lang if lang in LANGUAGES else "en")


socketio.on_event("odds", on_odds)
socketio.on_event("replay", on_replay)


# -- Socket.IO, namespace /overlay: the stream overlay ----------------------------------------
def on_overlay_connect(auth: dict[str, Any] | None = None) -> None:
    auth = auth if isinstance(auth, dict) else {}
    lang = str(auth.get("lang")) if auth.get("lang") in LANGUAGES else "en"
    feed = broadcast().overlay
    if not feed.valid(auth.get("token")):
        raise ConnectionRefusedError(t("overlay.bad_token", lang))
    join_room(overlay_room(feed.table.table_id, lang), namespace=NAMESPACE)
    frame = feed.connected(_sid(), lang)
    delay = feed.delay()
    payload = frame.payload(lang, delay) if frame is not None else {
        "state": None, "odds": None, "delay": delay, "at": None}
    socketio.emit("frame", payload, to=_sid(), namespace=NAMESPACE)


def on_overlay_disconnect(*_args: Any) -> None:
    broadcast().overlay.disconnected(_sid())


socketio.on_event("connect", on_overlay_connect, namespace=NAMESPACE)
socketio.on_event("disconnect", on_overlay_disconnect, namespace=NAMESPACE)
