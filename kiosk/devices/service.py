"""The table's serial devices: what they send, turned into the table's entries; the table, shown
on their displays.

:class:`TableDevices` is the one way in for the devices of one table. It listens to a
:class:`~hardware.serial.DeviceManager` on the configured ports:

- a card read or a button press becomes the same engine event a tap on the dealer screen makes
  and goes through :meth:`TableService.submit` (source ``serial``), with the same checks; a
  refusal (a :class:`~kiosk.errors.KioskError`, or the engine's) is answered ``NAK <code>`` with
  the code of its kind and shown on the dealer screen (``device_notice``), in its language;
- after every change of the table (it subscribes to it) the displays get
  :func:`~kiosk.devices.display.display_state`;
- the dealer screen gets the devices and their state (:meth:`~TableDevices.snapshot`) and runs
  the deck registration (:meth:`~TableDevices.register`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.cards import Card
from engine.i18n import LANGUAGES
from hardware.serial import (
    DeviceListener,
    DeviceManager,
    DisplayState,
    Notice,
    parse_port_list,
)
from kiosk.devices.display import display_state
from kiosk.errors import Kind, KioskError, words
from kiosk.service import TableService

log = logging.getLogger(__name__)

#: the button panel's actions: the engine's action each one takes
ACTIONS = {
    "FOLD": "fold",
    "CHECK": "check",
    "CALL": "call",
    "BET": "bet",
    "RAISE": "raise",
    "COMPLETE": "complete",
    "BRINGIN": "bring_in",
}
#: the notices the dealer screen can list again
NOTICES_KEPT = 20

#: sends a Socket.IO event to the table's dealer screens of a language: (event, data, lang)
Emit = Callable[[str, dict[str, Any], str], None]


class TableDevices(DeviceListener):
    """The table's devices: inputs to the :class:`TableService`, its state to the displays."""

    def __init__(
        self,
        table: TableService,
        ports: str | list[str],
        *,
        tag_map_path: Path | None = None,
        lang: str = "en",
        emit: Emit | None = None,
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
        return display_state(table, self.lang)

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
            if notice.error is not None and "reason" in params:
                # a refusal the kiosk or the engine words is said in the screen's language
                params["reason"] = words(notice.error, lang)
            messages[lang] = Notice(notice.key, params).message(lang)
        entry = {"port": port, "key": notice.key, "messages": messages}
        with self._notices_lock:
            self._notices = [*self._notices[1 - NOTICES_KEPT:], entry]
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
        """The devices, their state, the ports present (``discover``), the tags registered, the
        registration running and the latest notices."""
        data = self.manager.snapshot(discover=discover)
        with self._notices_lock:
            data["notices"] = list(self._notices)
        return data

    def register(self, action: str) -> dict[str, Any] | None:
        """The deck registration of RFID tags: ``"start"`` (between hands) or ``"cancel"``; the
        registration as it now stands (None: none running)."""
        if action == "start":
            if self.table.hand_running():
                raise KioskError("devices.err.register_mid_hand", Kind.NOT_NOW)
            self.manager.start_registration()
        elif action == "cancel":
            self.manager.cancel_registration()
        else:
            raise KioskError("devices.err.register_action", Kind.UNREADABLE)
        registration: dict[str, Any] | None = self.manager.snapshot()["registration"]
        return registration
