"""Serial table hardware in the kiosk: card readers, button panels and displays (docs/hardware.md).

:func:`init_app` starts a :class:`~hardware.serial.DeviceManager` on the configured ports and wires
it to the table:

- a card read or a button press becomes the same engine event a tap on the dealer screen makes and
  goes through :meth:`TableService.submit` (source ``serial``), with the same checks; a refusal is
  answered ``NAK <reason>`` and shown on the dealer screen (Socket.IO ``device_notice``);
- after every change of the table the displays get the pot, the seat to act, the prompt and the
  seat lights;
- the dealer screen gets the devices and their state (Socket.IO ``devices``; ``GET /api/devices``;
  the page ``/devices``, which also runs the deck registration).

Configuration: ``STUD_KIOSK_SERIAL_PORTS`` (ports separated by commas: paths, ``/dev/serial/by-id``
links or pyserial URLs, optionally ``display=...``), else ``"ports"`` in ``instance/serial.json``;
the tag mapping is ``instance/serial-tags.json``.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify, render_template, request
from werkzeug.wrappers import Response

from engine.cards import Card
from engine.i18n import LANGUAGES
from hardware.serial import (
    TAG_MAP_FILE,
    DeviceListener,
    DeviceManager,
    DisplayState,
    Notice,
    parse_port_list,
)
from hardware.serial.protocol import MAX_SEAT, MAX_TEXT
from kiosk.errors import Kind, KioskError
from kiosk.extensions import socketio
from kiosk.service import TableService
from kiosk.views.auth import dealer_required, is_dealer

log = logging.getLogger(__name__)

ENV_PORTS = "STUD_KIOSK_SERIAL_PORTS"
CONFIG_FILE = "serial.json"
ACTIONS = {
    "FOLD": "fold",
    "CHECK": "check",
    "CALL": "call",
    "BET": "bet",
    "RAISE": "raise",
    "COMPLETE": "complete",
    "BRINGIN": "bring_in",
}

bp = Blueprint("devices", __name__)


def _ui(key: str, lang: str, **params: Any) -> str:
    from kiosk.i18n import ui_catalog

    return ui_catalog().translate(key, lang, **params)


def _words(error: BaseException | None, lang: str) -> str | None:
    """An error's message in ``lang`` when it knows how to say it (engine and table errors do)."""
    text = getattr(error, "text", None)
    if callable(text):
        try:
            return str(text(lang))
        except (KeyError, ValueError, TypeError):
            return None
    return None


def display_text(prompt: str, width: int = MAX_TEXT) -> str:
    """The prompt cut for a small display: before its colon when that fits, else at a word.

    >>> display_text("Deal third street: two down and one up to seats 1, 2, 3")
    'Deal third street'
    >>> display_text("Seat 1 (Anna) brings in for 2 or completes to 5")
    'Seat 1 (Anna) brings in for...'
    """
    if len(prompt) <= width:
        return prompt
    head = prompt.split(":", 1)[0]
    if len(head) <= width:
        return head
    cut = prompt[: width - 3].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "..."


class TableDevices(DeviceListener):
    """The table's devices: inputs to the :class:`TableService`, its state to the displays."""

    def __init__(
        self,
        table: TableService,
        ports: str | list[str],
        *,
        tag_map_path: Path | None = None,
        lang: str = "en",
        emit: Any = None,
        **manager_options: Any,
    ) -> None:
        self.table = table
        self.lang = lang if lang in LANGUAGES else "en"
        self.emit = emit
        specs = parse_port_list(ports if isinstance(ports, str) else ",".join(ports))
        self.manager = DeviceManager(
            specs, self, tag_map_path=tag_map_path, lang=self.lang, **manager_options
        )
        self._seen: tuple[int | None, int] = (None, 0)
        self._notices: list[dict[str, Any]] = []
        self._notices_lock = threading.Lock()

    # ---- life cycle ----------------------------------------------------------------------------

    def start(self) -> None:
        self.table.subscribe(self.table_changed)
        self.table_changed(self.table)
        self.manager.start()

    def stop(self) -> None:
        self.manager.stop()

    # ---- inputs: the same engine events as the dealer's taps -------------------------------------

    def on_card(self, seat: int, card: Card, up: bool | None, port: str) -> None:
        table = self.table
        with table.lock:
            hand = table.hand
            if hand is None or hand.finished:
                raise KioskError("devices.err.no_hand", Kind.NOT_NOW)
            phase = hand.phase
            event: dict[str, Any]
            if phase == "community":
                event = {"type": "community", "card": str(card)}
            elif phase != "deal" and self._unknown_down(seat):
                event = {"type": "identify", "seat": seat, "card": str(card)}
            else:
                if up is None:  # stud deals the down cards of a street first
                    downs, _ups = hand.cards_needed().get(seat, (0, 1))
                    up = downs == 0
                event = {"type": "deal", "seat": seat, "card": str(card), "up": up}
            table.submit(event, source="serial")

    def _unknown_down(self, seat: int) -> bool:
        hand = self.table.hand
        if hand is None:
            return False
        for state in hand.state.seats:
            if state.number == seat:
                return any(slot.card is None and not slot.up for slot in state.cards)
        return False

    def on_button(self, name: str, amount: int | None, port: str) -> None:
        table = self.table
        with table.lock:
            hand = table.hand
            if name == "UNDO":
                table.undo(source="serial")
                return
            if name == "NEXT":
                if table.hand_running():
                    raise KioskError("devices.err.hand_running", Kind.NOT_NOW)
                table.start_hand(source="serial")
                return
            if hand is None or hand.finished:
                raise KioskError("devices.err.no_hand", Kind.NOT_NOW)
            if hand.phase == "showdown":
                self._showdown_button(name)
                return
            if name == "CONFIRM":
                raise KioskError("devices.err.nothing_to_confirm")
            seat = hand.to_act
            if seat is None or hand.phase != "betting":
                raise KioskError("devices.err.no_betting", button=name)
            table.submit(
                {"type": "act", "seat": seat, "action": ACTIONS[name], "amount": amount},
                source="serial",
            )

    def _showdown_button(self, name: str) -> None:
        """At showdown CONFIRM shows the next hand to show (down cards all known), FOLD mucks it."""
        hand = self.table.hand
        assert hand is not None
        seat = hand.next_to_show
        if seat is None:
            raise KioskError("devices.err.nothing_to_confirm")
        if name == "FOLD":
            self.table.submit({"type": "muck", "seat": seat}, source="serial")
            return
        if name != "CONFIRM":
            raise KioskError("devices.err.showdown", button=name, seat=seat)
        state = next(s for s in hand.state.seats if s.number == seat)
        downs = [slot.card for slot in state.cards if not slot.up]
        if any(card is None for card in downs):
            raise KioskError("devices.err.show_unknown", seat=seat)
        self.table.submit(
            {"type": "show", "seat": seat, "cards": [str(c) for c in downs]}, source="serial"
        )

    # ---- outputs -------------------------------------------------------------------------------

    def display_state(self, table: TableService) -> DisplayState:
        """What the displays show for the table as it stands."""
        hand = table.hand
        if hand is None:
            return DisplayState(text=_ui("devices.display.no_hand", self.lang))
        state = hand.state
        turn = state.to_act or hand.next_to_show or 0
        leds: list[tuple[int, str]] = []
        for seat in state.seats:
            if not 1 <= seat.number <= MAX_SEAT:
                continue
            if seat.folded or seat.mucked or state.finished:
                leds.append((seat.number, "off"))
            elif seat.number == turn:
                leds.append((seat.number, "blink"))
            else:
                leds.append((seat.number, "on"))
        return DisplayState(
            pot=state.total_pot,
            turn=turn if 0 <= turn <= MAX_SEAT else 0,
            text=display_text(hand.prompt().text(self.lang)),
            leds=tuple(leds),
        )

    def table_changed(self, table: TableService) -> None:
        """After every change of the table (subscribed to the service): the displays follow."""
        hand = table.hand
        seen = (table.hand_id, len(hand.events) if hand is not None else 0)
        if seen[0] != self._seen[0] or seen[1] < self._seen[1]:
            # a new hand or an undo: a card read again is a new read
            self.manager.forget_reads()
        self._seen = seen
        try:
            self.manager.show(self.display_state(table))
        except Exception:  # the displays must never break the table
            log.exception("devices: updating the displays failed")

    # ---- the dealer screen ---------------------------------------------------------------------

    def on_notice(self, port: str, notice: Notice) -> None:
        messages = {}
        for lang in LANGUAGES:
            params = dict(notice.params)
            words = _words(notice.error, lang)
            if words is not None and "reason" in params:
                params["reason"] = words
            messages[lang] = Notice(notice.key, params).message(lang)
        entry = {"port": port, "key": notice.key, "messages": messages}
        with self._notices_lock:
            self._notices = [*self._notices[-19:], entry]
        if self.emit is not None:
            for lang in LANGUAGES:
                self.emit(
                    "device_notice",
                    {"port": port, "key": notice.key, "message": messages[lang]},
                    lang,
                )

    def on_status(self, manager: DeviceManager) -> None:
        if self.emit is not None:
            snapshot = self.snapshot(discover=False)
            for lang in LANGUAGES:
                self.emit("devices", snapshot, lang)

    def snapshot(self, discover: bool = True) -> dict[str, Any]:
        data = self.manager.snapshot(discover=discover)
        with self._notices_lock:
            data["notices"] = list(self._notices)
        return data


# ---- configuration and the app -------------------------------------------------------------------


def instance_config(app: Flask) -> dict[str, Any]:
    """``instance/serial.json`` (``{}`` when there is none): ``ports``, ``tags``, ``heartbeat``,
    ``repeat_window``, ``retry``."""
    path = Path(app.instance_path) / CONFIG_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("the file holds no JSON object")
        for key in ("heartbeat", "repeat_window", "retry"):
            if key in data:
                data[key] = float(data[key])
    except (ValueError, TypeError) as exc:
        raise ValueError(
            f'{path}: not a serial configuration ({exc}); write {{"ports": ["/dev/..."]}}'
        ) from exc
    return data


def configured_ports(app: Flask) -> str:
    """The ports: ``SERIAL_PORTS`` in the app's config, ``$STUD_KIOSK_SERIAL_PORTS``, or
    ``"ports"`` in ``instance/serial.json``."""
    value = app.config.get("SERIAL_PORTS")
    if value is None:
        value = os.environ.get(ENV_PORTS)
    if value is None:
        value = instance_config(app).get("ports")
    if value is None:
        return ""
    return value if isinstance(value, str) else ",".join(str(v) for v in value)


def init_app(app: Flask, table: TableService) -> TableDevices:
    """Create the table's devices, start them, add the page and the JSON routes."""

    def emit(event: str, data: dict[str, Any], lang: str) -> None:
        from kiosk.live import room

        socketio.emit(event, data, to=room("dealer", lang, table.table_id))

    options: dict[str, Any] = {}
    stored = instance_config(app)
    for key, field, name in (
        ("SERIAL_HEARTBEAT", "heartbeat", "heartbeat"),
        ("SERIAL_REPEAT_WINDOW", "repeat_window", "repeat_window"),
        ("SERIAL_RETRY", "retry", "retry_interval"),
    ):
        if key in app.config:
            options[name] = float(app.config[key])
        elif field in stored:
            options[name] = stored[field]
    tags = app.config.get("SERIAL_TAGS") or stored.get("tags") or TAG_MAP_FILE
    tags = Path(app.instance_path) / tags  # a relative name is in the instance folder
    devices = TableDevices(
        table,
        configured_ports(app),
        tag_map_path=Path(tags),
        lang=app.config.get("DEFAULT_LANG", "it"),
        emit=emit,
        **options,
    )
    app.extensions["stud_devices"] = devices
    app.register_blueprint(bp)
    devices.start()
    return devices


def devices() -> TableDevices:
    """The current app's devices."""
    found: TableDevices = current_app.extensions["stud_devices"]
    return found


@bp.get("/devices")
@dealer_required
def page() -> str:
    return render_template("devices.html")


@bp.get("/api/devices")
def api_devices() -> tuple[Response, int]:
    if not is_dealer():
        return jsonify({"ok": False, "error": _ui("live.need_pin", _lang())}), 403
    return jsonify(devices().snapshot(discover=True)), 200


@bp.post("/api/devices/registration")
def api_registration() -> tuple[Response, int]:
    if not is_dealer():
        return jsonify({"ok": False, "error": _ui("live.need_pin", _lang())}), 403
    body = request.get_json(silent=True) or {}
    return _registration(str(body.get("action", "")), _lang())


def _lang() -> str:
    from kiosk.i18n import current_lang

    return current_lang()


def _registration(action: str, lang: str) -> tuple[Response, int]:
    manager = devices().manager
    if action == "start":
        if devices().table.hand_running():
            return jsonify({"ok": False, "error": _ui("devices.err.register_mid_hand", lang)}), 409
        manager.start_registration()
    elif action == "cancel":
        manager.cancel_registration()
    else:
        return jsonify({"ok": False, "error": _ui("devices.err.register_action", lang)}), 400
    return jsonify({"ok": True, "registration": manager.snapshot()["registration"]}), 200


def _whoami() -> tuple[str, str]:
    from kiosk.live import _whoami as whoami

    return whoami()


def on_devices(*_args: Any) -> dict[str, Any]:
    """Socket.IO ``devices``: the snapshot, for dealer connections."""
    role, lang = _whoami()
    if role != "dealer":
        return {"ok": False, "error": _ui("live.read_only", lang)}
    return {"ok": True, **devices().snapshot(discover=True)}


def on_register(action: Any = None) -> dict[str, Any]:
    """Socket.IO ``devices_register`` with ``"start"`` or ``"cancel"``, for dealer connections."""
    role, lang = _whoami()
    if role != "dealer":
        return {"ok": False, "error": _ui("live.read_only", lang)}
    response, _status = _registration(str(action or ""), lang)
    body: dict[str, Any] = response.get_json()
    return body


# Registered on import, like kiosk.live: create_app imports this module before socketio.init_app so
# that Flask-SocketIO keeps the handlers for every app it serves.
socketio.on_event("devices", on_devices)
socketio.on_event("devices_register", on_register)
