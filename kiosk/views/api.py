"""JSON over HTTP, for programs that follow or drive a table (see docs/api.md).

Reading the public state needs nothing; everything that changes the table needs the dealer PIN
session (``POST /login``) and the CSRF token (``GET /api/csrf`` -> header ``X-CSRFToken``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, jsonify, request
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from kiosk.errors import Kind, KioskError, answer, status_of
from kiosk.i18n import current_lang
from kiosk.service import service
from kiosk.strict_json import loads
from kiosk.views.auth import is_dealer

bp = Blueprint("api", __name__, url_prefix="/api")

#: the largest hand id a route takes (SQLite's and PostgreSQL's integers)
LARGEST_ID = 2**63 - 1


def _error(error: BaseException) -> tuple[Response, int]:
    return jsonify(answer(error, current_lang())), status_of(error)


def _need_dealer() -> tuple[Response, int] | None:
    if not is_dealer():
        return _error(KioskError("live.need_pin", Kind.DEALER_ONLY))
    return None


def json_object() -> dict[str, Any]:
    """The request's body, a JSON object (read only once the caller may send one)."""
    payload = loads(request.get_data(cache=False))
    if not isinstance(payload, dict):
        raise KioskError("json.not_object", Kind.UNREADABLE)
    return payload


def _run(call: Callable[[], dict[str, Any]]) -> tuple[Response, int]:
    """``call()`` for the dealer: the body's reading included, any refusal in words."""
    refused = _need_dealer()
    if refused:
        return refused
    try:
        body = call()
    except ValueError as exc:  # the kiosk's and the engine's refusals
        return _error(exc)
    return jsonify(body), 200


@bp.get("/health")
def health() -> Response:
    table = service()
    return jsonify({"ok": True, "version": table.version, "hand_running": table.hand_running()})


@bp.get("/state")
def state() -> Response:
    role = "dealer" if is_dealer() and request.args.get("as") != "spectator" else "spectator"
    return jsonify(service().view(role, current_lang()))


@bp.get("/csrf")
def csrf_token() -> tuple[Response, int]:
    refused = _need_dealer()
    if refused:
        return refused
    return jsonify({"csrf_token": generate_csrf()}), 200


@bp.get("/setup")
def get_setup() -> tuple[Response, int]:
    refused = _need_dealer()
    if refused:
        return refused
    return jsonify(service().setup()), 200


@bp.put("/setup")
def put_setup() -> tuple[Response, int]:
    """Replace the table setup (between hands) with the JSON form ``GET /api/setup`` gives."""

    def configure() -> dict[str, Any]:
        payload = json_object()
        try:
            service().configure(payload)
        except (KeyError, TypeError, OverflowError) as exc:
            raise KioskError("setup.err.form") from exc
        return {"ok": True}

    return _run(configure)


@bp.post("/hands")
def start_hand() -> tuple[Response, int]:
    return _run(lambda: service().start_hand(source="api"))


@bp.post("/events")
def submit() -> tuple[Response, int]:
    source = str(request.args.get("source", "api"))[:32]
    return _run(lambda: service().submit(json_object(), source=source))


@bp.post("/undo")
def undo() -> tuple[Response, int]:
    return _run(lambda: service().undo(source="api"))


@bp.post("/misdeal")
def misdeal() -> tuple[Response, int]:
    return _run(lambda: service().misdeal(source="api"))


@bp.get("/hands")
def hands() -> tuple[Response, int]:
    refused = _need_dealer()
    if refused:
        return refused
    table = service()
    return jsonify(table.store.hands(table.table_id)), 200


@bp.get("/hands/<int:hand_id>")
def hand(hand_id: int) -> tuple[Response, int]:
    refused = _need_dealer()
    if refused:
        return refused
    table = service()
    row = table.store.hand(hand_id) if hand_id <= LARGEST_ID else None
    if row is None or row["table_id"] != table.table_id:
        return _error(KioskError("history.no_hand", Kind.MISSING, hand=hand_id))
    row["events"] = table.store.events(hand_id)
    return jsonify(row), 200
