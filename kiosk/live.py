"""Socket.IO: live table state for every screen, and the dealer's touch input.

A client says who it is in the connection's ``auth`` payload: ``{"role": "dealer" | "spectator",
"lang": "it" | "en"}``. A dealer connection needs the dealer PIN session (the page's cookie);
without it the connection is refused. Each connection joins the room ``table<id>:<role>:<lang>`` of
the table this kiosk runs and gets a ``state`` event at once and after every change (screens of
other tables of a card room watch through :mod:`kiosk.room`). Control events (``act``, ``undo``,
``misdeal``, ``start_hand``, ``next_hand``) are accepted only from dealer connections; anyone else
gets ``{"ok": false, "error": ...}`` and nothing changes. See docs/api.md.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import ConnectionRefusedError, join_room

from engine.i18n import LANGUAGES
from kiosk.errors import Kind, KioskError, answer
from kiosk.extensions import socketio
from kiosk.i18n import t
from kiosk.presenter import undone_text
from kiosk.service import TableService, service

ROLES = ("dealer", "spectator")

_clients: dict[str, tuple[str, str, int]] = {}
"""sid -> (role, lang, generation of dealer sessions it was opened in) of every connection of this
process."""
_clients_lock = threading.Lock()


def room(role: str, lang: str, table_id: int) -> str:
    """The Socket.IO room of a table's screens of one role and language (per table: in a card room
    the message queue carries every emit to every kiosk of the room)."""
    return f"table{table_id}:{role}:{lang}"


def broadcast(table: TableService, everywhere: bool = False) -> None:
    """Send the new state to every room, each presented for its role and language.

    Rooms without a screen in this process are skipped, unless ``everywhere`` (a message queue
    carries the emits to screens connected to other processes)."""
    with _clients_lock:
        present = {(role, lang) for role, lang, _epoch in _clients.values()}
    for role in ROLES:
        for lang in LANGUAGES:
            if everywhere or (role, lang) in present:
                socketio.emit(
                    "state", table.view(role, lang), to=room(role, lang, table.table_id)
                )


def connect_service(table: TableService, everywhere: bool = False) -> None:
    table.subscribe(lambda t: broadcast(t, everywhere))


def _sid() -> str:
    return str(request.sid)  # type: ignore[attr-defined]


def _sessions() -> Any:
    from kiosk.views.auth import sessions

    return sessions()


def drop_dealers(reason: str) -> None:
    """Every dealer session has ended: tell each dealer screen why and disconnect it at once."""
    with _clients_lock:
        dealers = [(sid, lang) for sid, (role, lang, _epoch) in _clients.items()
                   if role == "dealer"]
        for sid, _lang in dealers:
            _clients.pop(sid, None)
    for sid, lang in dealers:
        socketio.emit("locked", {"reason": reason, "message": t(f"live.locked.{reason}", lang)},
                      to=sid)
        socketio.server.disconnect(sid)


def watch_idle() -> None:
    """Watch for the house's idle time (``lock_after_minutes`` of the setup), if one is set."""
    sessions = _sessions()
    if sessions.idle_minutes() > 0:
        sessions.watch_idle(socketio.start_background_task, socketio.sleep)


def connect_sessions(app: Any) -> None:
    """Dealer sockets end with their sessions; the idle time is the table's setup's."""
    from kiosk.views.auth import sessions as current_sessions

    with app.app_context():
        sessions = current_sessions()
    table = app.extensions["stud_table"]
    sessions.on_revoke(drop_dealers)

    def idle_minutes() -> float:
        value = table.setup().get("lock_after_minutes") or 0
        return float(value) if isinstance(value, int | float) else 0.0

    sessions.idle_minutes = idle_minutes

    def changed(_table: TableService) -> None:
        # an entry from any source (a card reader too) is the table in use; a setup may have
        # just set the idle time
        sessions.touch()
        if sessions.idle_minutes() > 0:
            sessions.watch_idle(socketio.start_background_task, socketio.sleep)

    table.subscribe(changed)


def on_connect(auth: dict[str, Any] | None = None) -> None:
    auth = auth if isinstance(auth, dict) else {}
    role = auth.get("role", "spectator")
    lang = auth.get("lang", "en")
    if role not in ROLES:
        raise ConnectionRefusedError(f"role {role!r} is not known: use 'dealer' or 'spectator'")
    if lang not in LANGUAGES:
        lang = "en"
    if role == "dealer":
        from kiosk.views.auth import is_dealer

        if not is_dealer():
            raise ConnectionRefusedError(t("live.need_pin", lang))
    with _clients_lock:
        _clients[_sid()] = (role, lang, _sessions().epoch)
    join_room(room(role, lang, service().table_id))
    socketio.emit("state", service().view(role, lang), to=_sid())


def on_disconnect(*_args: Any) -> None:
    with _clients_lock:
        _clients.pop(_sid(), None)


def _whoami() -> tuple[str, str]:
    """This connection's role and language; a dealer connection of an ended generation of dealer
    sessions is a spectator's (it is being disconnected)."""
    with _clients_lock:
        role, lang, epoch = _clients.get(_sid(), ("spectator", "en", -1))
    if role == "dealer":
        sessions = _sessions()
        if epoch != sessions.epoch:
            return "spectator", lang
        sessions.touch()
    return role, lang


def on_sync(*_args: Any) -> dict[str, Any]:
    """Ask for the current state again (after a reconnect); the reply is the state."""
    role, lang = _whoami()
    return service().view(role, lang)


def _control(name: str, call: Callable[[TableService, str], Any]) -> Callable[..., dict[str, Any]]:
    def handler(payload: Any = None) -> dict[str, Any]:
        role, lang = _whoami()
        if role != "dealer":
            return answer(KioskError("live.read_only", Kind.DEALER_ONLY), lang)
        try:
            result = call(service(), payload)
        except ValueError as exc:  # the kiosk's and the engine's refusals, in words
            return answer(exc, lang)
        reply: dict[str, Any] = {"ok": True}
        if isinstance(result, dict) and "undone" in result:
            # the screen says what was taken back, and goes back to where it was (an undo sent
            # again with its id gets the first undo's event)
            reply["undone"] = result["undone"]
            reply["undone_text"] = undone_text(service(), result["undone"], lang)
        return reply

    handler.__name__ = f"on_{name}"
    socketio.on_event(name, handler)
    return handler


def _act(table: TableService, payload: Any) -> None:
    table.submit(payload, source="touch")


def _game(payload: Any) -> str | None:
    """The game a dealer's choice picked (``{"game": "razz"}``), if any."""
    game = payload.get("game") if isinstance(payload, dict) else None
    return str(game)[:32] if game is not None else None


socketio.on_event("connect", on_connect)
socketio.on_event("disconnect", on_disconnect)
socketio.on_event("sync", on_sync)
_control("act", _act)


def _entry_id(payload: Any) -> str | None:
    """The client's id of a command (``{"id": "..."}``), if it sent one."""
    value = payload.get("id") if isinstance(payload, dict) else None
    return None if value is None else str(value)


_control("undo", lambda table, p: table.undo(source="touch", entry_id=_entry_id(p)))
_control("misdeal", lambda table, p: table.misdeal(source="touch", entry_id=_entry_id(p)))
_control("start_hand", lambda table, p: table.start_hand(source="touch", game=_game(p)))
_control("next_hand", lambda table, p: table.next_hand(source="touch", game=_game(p)))
_control("night_on_tv", lambda table, p: table.night_on_tv(
    isinstance(p, dict) and bool(p.get("show"))))
