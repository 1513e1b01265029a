"""The serial devices' page and routes (docs/api.md, docs/hardware.md): the page ``/devices``,
the devices' state and the deck registration, as JSON and as the dealer screens' Socket.IO events.
Everything goes to the table's :class:`~kiosk.devices.service.TableDevices`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, jsonify, render_template, request
from werkzeug.wrappers import Response

from kiosk.devices import TableDevices, devices
from kiosk.errors import answer, status_of
from kiosk.extensions import socketio
from kiosk.i18n import current_lang, t
from kiosk.views.auth import dealer_required, is_dealer

bp = Blueprint("devices", __name__)


def _answer(call: Callable[[TableDevices], dict[str, Any]]) -> tuple[Response, int]:
    """A JSON route for the dealer: ``call``'s answer, or the refusal in the screen's words."""
    lang = current_lang()
    if not is_dealer():
        return jsonify({"ok": False, "error": t("live.need_pin", lang)}), 403
    try:
        return jsonify(call(devices())), 200
    except ValueError as exc:
        return jsonify(answer(exc, lang)), status_of(exc)


def _registration(found: TableDevices, action: Any) -> dict[str, Any]:
    return {"ok": True, "registration": found.register(str(action or ""))}


@bp.get("/devices")
@dealer_required
def page() -> str:
    return render_template("devices.html")


@bp.get("/api/devices")
def api_devices() -> tuple[Response, int]:
    return _answer(lambda found: found.snapshot(discover=True))


@bp.post("/api/devices/registration")
def api_registration() -> tuple[Response, int]:
    body = request.get_json(silent=True)
    action = body.get("action") if isinstance(body, dict) else None
    return _answer(lambda found: _registration(found, action))


# ---- Socket.IO ----------------------------------------------------------------------------------


def _dealer_lang() -> tuple[bool, str]:
    """Whether this connection is a dealer's, and its language."""
    from kiosk.live import _whoami

    role, lang = _whoami()
    return role == "dealer", lang


def on_devices(*_args: Any) -> dict[str, Any]:
    """Socket.IO ``devices``: the snapshot, for dealer connections."""
    dealer, lang = _dealer_lang()
    if not dealer:
        return {"ok": False, "error": t("live.read_only", lang)}
    return {"ok": True, **devices().snapshot(discover=True)}


def on_register(action: Any = None) -> dict[str, Any]:
    """Socket.IO ``devices_register`` with ``"start"`` or ``"cancel"``, for dealer connections."""
    dealer, lang = _dealer_lang()
    if not dealer:
        return {"ok": False, "error": t("live.read_only", lang)}
    try:
        return _registration(devices(), action)
    except ValueError as exc:
        return answer(exc, lang)


# Registered on import, like kiosk.live: create_app imports this module before socketio.init_app so
# that Flask-SocketIO keeps the handlers for every app it serves.
socketio.on_event("devices", on_devices)
socketio.on_event("devices_register", on_register)
