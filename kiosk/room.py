"""A card room: many tables, one kiosk process each, one shared database and one message queue.

Every kiosk of the room points ``STUD_KIOSK_DATABASE_URL`` at the same PostgreSQL database and
``STUD_KIOSK_MESSAGE_QUEUE`` at the same Redis server, each with its own ``STUD_KIOSK_TABLE_ID``.
This module gives every kiosk, whichever table it runs:

- ``/room``: every table of the room, live (game, stakes, players, pot, street);
- ``/room/table/<n>``: the spectator view of table ``n``;
- ``/room/tables.json``: the same list for programs.

They talk over their own Socket.IO namespace, ``/room``. Each process publishes its own table: on
every change (a :meth:`~kiosk.service.TableService.subscribe` listener) it emits the spectator
state to the room ``watch:<table>:<lang>`` and the table's summary to ``tables:<lang>``; through the
message queue these reach the screens of every process. A screen's first state, and the list's
first content, come from the shared store: the table's latest hand replayed through the engine,
presented for a spectator (never a hidden card). With a message queue, each process also publishes
its table again every few seconds, so that screens on other processes catch up by themselves after
the queue was unreachable (the hands are never at risk: they are in the database before anything
is published).

A single table with SQLite and no message queue gets the same pages, with its one table.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from typing import Any, cast

from flask import Blueprint, Flask, current_app, jsonify, render_template, request
from flask_socketio import ConnectionRefusedError, join_room
from sqlalchemy import select
from werkzeug.wrappers import Response

from engine.i18n import LANGUAGES
from kiosk.book_store import books_table
from kiosk.errors import Kind, KioskError
from kiosk.extensions import socketio
from kiosk.i18n import current_lang, t
from kiosk.service import TableService
from kiosk.store import Store, hands_table, settings_table

log = logging.getLogger(__name__)

bp = Blueprint("room", __name__)

NAMESPACE = "/room"
REGISTRY_PREFIX = "room:table:"
REPUBLISH_SECONDS = 3.0

_watchers: dict[str, tuple[int | None, str]] = {}
"""sid -> (table watched, or None for the list of tables; language) on this process."""
_watchers_lock = threading.Lock()


def watch_room(table_id: int, lang: str) -> str:
    return f"watch:{table_id}:{lang}"


def list_room(lang: str) -> str:
    return f"tables:{lang}"


# -- what a table looks like from the room -------------------------------------------------------
def summary(view: dict[str, Any], table_id: int, name: str, lang: str) -> dict[str, Any]:
    """One line of the room's list, from a table's spectator view."""
    table = view["table"]
    hand = view.get("hand")
    if hand is not None:
        players = [
            {"seat": s["seat"], "name": s["name"], "stack": s["stack"], "folded": s["folded"]}
            for s in hand["seats"]
        ]
    else:
        players = [
            {"seat": s["seat"], "name": s["name"], "stack": s["stack"], "folded": False}
            for s in table["seats"]
        ]
    to_act = None
    if hand is not None and not hand["finished"] and hand.get("to_act"):
        to_act = next((p["name"] for p in players if p["seat"] == hand["to_act"]), None)
    return {
        "table": table_id,
        "name": name or t("room.table_n", lang, n=table_id),
        "game": table["game"],
        "game_name": table["game_name"],
        "stakes": dict(table["stakes"]),
        "players": players,
        "hand": None if hand is None else hand.get("number"),
        "pot": 0 if hand is None else hand["total_pot"],
        "street": "" if hand is None else hand.get("street_text") or "",
        "finished": hand is None or bool(hand["finished"]),
        "to_act": to_act,
        "night": _night_line(view.get("night")),
        "version": view.get("version", 0),
        "url": f"/room/table/{table_id}",
    }


def _night_line(night: dict[str, Any] | None) -> dict[str, Any] | None:
    """A table's night as the room lists it: its players with their results, the money in."""
    if night is None:
        return None
    return {"id": night["id"], "closed": night["closed"], "money_in": night["money_in"],
            "rate_text": night["rate_text"],
            "players": [{"name": r["name"], "result": r["result"], "left": r["left"],
                         "result_cents": r["result_cents"]} for r in night["rows"]]}


def _own() -> TableService:
    return cast(TableService, current_app.extensions["stud_table"])


def _store() -> Store:
    return cast(Store, current_app.extensions["stud_store"])


def table_names(store: Store) -> dict[int, str]:
    """Every table registered in the room's store, with the name it was given."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(settings_table.c.key, settings_table.c.value).where(
                settings_table.c.key.like(REGISTRY_PREFIX + "%")
            )
        ).all()
        played = conn.execute(select(hands_table.c.table_id).distinct()).scalars().all()
        kept = conn.execute(select(books_table.c.table_id).distinct()).scalars().all()
    names: dict[int, str] = {int(table_id): "" for table_id in [*played, *kept]}
    for key, value in rows:
        try:
            table_id = int(str(key)[len(REGISTRY_PREFIX) :])
        except ValueError:
            continue
        names[table_id] = str(json.loads(value).get("name", ""))
    return dict(sorted(names.items()))


def table_view(store: Store, own: TableService, table_id: int, lang: str) -> dict[str, Any]:
    """A table's spectator view: this process's own table as it is; another table as its kiosk
    would show it after a restart (its setup and its latest hand, replayed from the store)."""
    if table_id == own.table_id:
        return own.view("spectator", lang)
    return TableService(store, table_id=table_id).view("spectator", lang)


def tables(store: Store, own: TableService, lang: str) -> list[dict[str, Any]]:
    """The room's list: every registered table, and this process's own table."""
    names = table_names(store)
    names.setdefault(own.table_id, "")
    found = []
    for table_id, name in names.items():
        try:
            view = table_view(store, own, table_id, lang)
        except Exception:  # a table whose stored hand cannot be replayed must not hide the others
            log.exception("table %s of the room cannot be shown", table_id)
            continue
        found.append(summary(view, table_id, name, lang))
    return found


# -- publishing this process's table -------------------------------------------------------------
def publish(table: TableService, name: str) -> None:
    """Send the table's spectator state and summary to every screen of the room, on any process."""
    for lang in LANGUAGES:
        view = table.view("spectator", lang)
        socketio.emit("state", view, to=watch_room(table.table_id, lang), namespace=NAMESPACE)
        socketio.emit(
            "table",
            summary(view, table.table_id, name, lang),
            to=list_room(lang),
            namespace=NAMESPACE,
        )


def _republish_forever(table: TableService, name: str, period: float) -> None:
    while True:
        socketio.sleep(period)
        try:
            publish(table, name)
        except Exception:  # keep going: the next round may find the queue back
            log.exception("republishing table %s", table.table_id)


def init_app(app: Flask) -> None:
    """Register the room's pages and publish this process's table to the room."""
    app.register_blueprint(bp)
    table = cast(TableService, app.extensions["stud_table"])
    store = cast(Store, app.extensions["stud_store"])
    name = str(app.config.get("TABLE_NAME") or os.environ.get("STUD_KIOSK_TABLE_NAME", ""))
    if store.read_only is None:  # a store that can only be read shows the table all the same
        store.put(REGISTRY_PREFIX + str(table.table_id), {"name": name})
    table.subscribe(lambda changed: publish(changed, name))
    period = float(app.config.get("ROOM_REPUBLISH_SECONDS", REPUBLISH_SECONDS))
    if app.config.get("MESSAGE_QUEUE") and period > 0:
        socketio.start_background_task(_republish_forever, table, name, period)


# -- pages ---------------------------------------------------------------------------------------
def _known_table(table_id: int) -> None:
    names = table_names(_store())
    if table_id != _own().table_id and table_id not in names:
        raise KioskError("room.unknown_table", Kind.MISSING, table=table_id,
                         tables=_list_ids(names))


def _list_ids(names: dict[int, str]) -> str:
    ids = sorted({*names, _own().table_id})
    return ", ".join(str(i) for i in ids)


@bp.route("/room")
def index() -> str:
    lang = current_lang()
    return render_template("room.html", tables=tables(_store(), _own(), lang))


@bp.route("/room/tables.json")
def tables_json() -> Response:
    return jsonify(tables(_store(), _own(), current_lang()))


@bp.route("/room/table/<int:table_id>")
def watch(table_id: int) -> str:
    _known_table(table_id)
    return render_template("spectator.html", table_id=table_id)


# -- Socket.IO, namespace /room ------------------------------------------------------------------
def _sid() -> str:
    return str(request.sid)  # type: ignore[attr-defined]


def _first(table_id: int | None, lang: str) -> tuple[str, Any]:
    if table_id is None:
        return "tables", tables(_store(), _own(), lang)
    return "state", table_view(_store(), _own(), table_id, lang)


def on_connect(auth: dict[str, Any] | None = None) -> None:
    auth = auth if isinstance(auth, dict) else {}
    lang = auth.get("lang")
    lang = lang if lang in LANGUAGES else "en"
    wanted = auth.get("table")
    table_id: int | None = None
    if wanted is not None:
        try:
            table_id = int(wanted)
        except (TypeError, ValueError):
            raise ConnectionRefusedError(t("room.bad_table", lang, table=wanted)) from None
        names = table_names(_store())
        if table_id != _own().table_id and table_id not in names:
            raise ConnectionRefusedError(
                t("room.unknown_table", lang, table=table_id, tables=_list_ids(names))
            )
    with _watchers_lock:
        _watchers[_sid()] = (table_id, lang)
    join_room(list_room(lang) if table_id is None else watch_room(table_id, lang))
    event, data = _first(table_id, lang)
    socketio.emit(event, data, to=_sid(), namespace=NAMESPACE)


def on_disconnect(*_args: Any) -> None:
    with _watchers_lock:
        _watchers.pop(_sid(), None)


def on_sync(*_args: Any) -> Any:
    """The current state again (after a reconnect): a table's state, or the list of tables."""
    with _watchers_lock:
        table_id, lang = _watchers.get(_sid(), (None, "en"))
    return _first(table_id, lang)[1]


socketio.on_event("connect", on_connect, namespace=NAMESPACE)
socketio.on_event("disconnect", on_disconnect, namespace=NAMESPACE)
socketio.on_event("sync", on_sync, namespace=NAMESPACE)
