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

from kiosk.i18n import current_lang
from kiosk.service import TableError, service
from kiosk.views.auth import is_dealer

bp = Blueprint("api", __name__, url_prefix="/api")


def _error(message: str, status: int) -> tuple[Response, int]:
    return jsonify({"ok": False, "error": message}), status


def _need_dealer() -> tuple[Response, int] | None:
    if not is_dealer():
        from kiosk.i18n import t

        return _error(t("live.need_pin"), 403)
    return None


def _run(call: Callable[[], dict[str, Any]]) -> tuple[Response, int]:
    refused = _need_dealer()
    if refused:
        return refused
    try:
        body = call()
    except TableError as exc:
        return _error(exc.text(current_lang()), 409)
    except ValueError as exc:  # the engine's errors, in its words
        from kiosk.live import error_text

        return _error(error_text(exc, current_lang()), 422)
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
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        from kiosk.i18n import t

        return _error(t("live.bad_payload"), 400)

    def configure() -> dict[str, Any]:
        try:
            service().configure(payload)
        except (KeyError, TypeError) as exc:
            raise ValueError(
                f"the setup lacks or mistypes {exc}: send the form GET /api/setup gives"
            ) from exc
        return {"ok": True}

    return _run(configure)


@bp.post("/hands")
def start_hand() -> tuple[Response, int]:
    return _run(lambda: service().start_hand(source="api"))


@bp.post("/events")
def submit() -> tuple[Response, int]:
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        from kiosk.i18n import t

        return _error(t("live.bad_payload"), 400)
    source = str(request.args.get("source", "api"))[:32]
    return _run(lambda: service().submit(payload, source=source))


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
    row = table.store.hand(hand_id)
    if row is None or row["table_id"] != table.table_id:
        return _error("no such hand", 404)
    row["events"] = table.store.events(hand_id)
    return jsonify(row), 200
