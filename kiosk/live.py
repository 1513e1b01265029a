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

from flask import request, session
from flask_socketio import ConnectionRefusedError, join_room

from engine.i18n import LANGUAGES
from kiosk.extensions import socketio
from kiosk.i18n import t
from kiosk.presenter import undone_text
from kiosk.service import TableService, service

ROLES = ("dealer", "spectator")

_clients: dict[str, tuple[str, str]] = {}
"""sid -> (role, lang) of every connection of this process."""
_clients_lock = threading.Lock()


def error_text(exc: ValueError, lang: str) -> str:
    """A refusal in the screen's language when the error can say it (``text(lang)``)."""
    text = getattr(exc, "text", None)
    return str(text(lang)) if callable(text) else str(exc)


def room(role: str, lang: str, table_id: int) -> str:
    """The Socket.IO room of a table's screens of one role and language (per table: in a card room
    the message queue carries every emit to every kiosk of the room)."""
    return f"table{table_id}:{role}:{lang}"


def broadcast(table: TableService, everywhere: bool = False) -> None:
    """Send the new state to every room, each presented for its role and language.

    Rooms without a screen in this process are skipped, unless ``everywhere`` (a message queue
    carries the emits to screens connected to other processes)."""
    with _clients_lock:
        present = set(_clients.values())
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


def on_connect(auth: dict[str, Any] | None = None) -> None:
    auth = auth if isinstance(auth, dict) else {}
    role = auth.get("role", "spectator")
    lang = auth.get("lang", "en")
    if role not in ROLES:
        raise ConnectionRefusedError(f"role {role!r} is not known: use 'dealer' or 'spectator'")
    if lang not in LANGUAGES:
        lang = "en"
    if role == "dealer" and not session.get("dealer"):
        raise ConnectionRefusedError(t("live.need_pin", lang))
    with _clients_lock:
        _clients[_sid()] = (role, lang)
    join_room(room(role, lang, service().table_id))
    socketio.emit("state", service().view(role, lang), to=_sid())


def on_disconnect(*_args: Any) -> None:
    with _clients_lock:
        _clients.pop(_sid(), None)


def _whoami() -> tuple[str, str]:
    with _clients_lock:
        return _clients.get(_sid(), ("spectator", "en"))


def on_sync(*_args: Any) -> dict[str, Any]:
    """Ask for the current state again (after a reconnect); the reply is the state."""
    role, lang = _whoami()
    return service().view(role, lang)


def _control(name: str, call: Callable[[TableService, str], Any]) -> Callable[..., dict[str, Any]]:
    def handler(payload: Any = None) -> dict[str, Any]:
        role, lang = _whoami()
        if role != "dealer":
            return {"ok": False, "error": t("live.read_only", lang)}
        try:
            result = call(service(), payload)
        except ValueError as exc:
            return {"ok": False, "error": error_text(exc, lang)}
        answer: dict[str, Any] = {"ok": True}
        if isinstance(result, dict) and "undone" in result:
            # the screen says what was taken back, and goes back to where it was
            answer["undone"] = result["undone"]
            answer["undone_text"] = undone_text(service(), result["undone"], lang)
        return answer

    handler.__name__ = f"on_{name}"
    socketio.on_event(name, handler)
    return handler


def _act(table: TableService, payload: Any) -> None:
    if not isinstance(payload, dict):
        raise ValueError(t("live.bad_payload", _whoami()[1]))
    table.submit(payload, source="touch")


def _game(payload: Any) -> str | None:
    """The game a dealer's choice picked (``{"game": "razz"}``), if any."""
    game = payload.get("game") if isinstance(payload, dict) else None
    return str(game)[:32] if game is not None else None


socketio.on_event("connect", on_connect)
socketio.on_event("disconnect", on_disconnect)
socketio.on_event("sync", on_sync)
_control("act", _act)
_control("undo", lambda table, _p: table.undo(source="touch"))
_control("misdeal", lambda table, _p: table.misdeal(source="touch"))
_control("start_hand", lambda table, p: table.start_hand(source="touch", game=_game(p)))
_control("next_hand", lambda table, p: table.next_hand(source="touch", game=_game(p)))
_control("night_on_tv", lambda table, p: table.night_on_tv(
    isinstance(p, dict) and bool(p.get("show"))))
