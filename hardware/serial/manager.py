"""Several serial devices for one table: inputs to a listener, outputs to the displays.

:class:`DeviceManager` runs one :class:`~hardware.serial.device.SerialDevice` per configured port
and answers every line a device sends with exactly one ``ACK`` or ``NAK`` (except ``ACK``, ``NAK``
and ``PONG``, which are never answered, and ``PING``, answered with ``PONG``). Card reads and button
presses go to a :class:`DeviceListener` (the kiosk's table service); an exception it raises becomes
the ``NAK`` and a :class:`~hardware.serial.listener.Notice` for the dealer screen. Reads a reader
repeats within ``repeat_window`` seconds are answered ``ACK`` and not passed on again. What the
displays show is a :class:`DisplayState`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.cards import Card
from engine.i18n import DEFAULT_LANGUAGE
from hardware.serial.device import SerialDevice
from hardware.serial.listener import (
    DeviceListener,
    Notice,
    Refused,
    RepeatFilter,
    catalog,
    device_label,
    input_words,
)
from hardware.serial.ports import PortSpec, discover_ports
from hardware.serial.protocol import (
    BAUDRATE,
    LED_STATES,
    MAX_SEAT,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    Ack,
    ButtonPress,
    CardRead,
    DeviceError,
    Hello,
    Led,
    Message,
    Nak,
    Ping,
    Pong,
    Pot,
    ProtocolError,
    TagRead,
    Text,
    Turn,
    parse_device_line,
)
from hardware.serial.tags import REGISTRATION_ORDER, DeckRegistration, TagMap

log = logging.getLogger(__name__)
@dataclass(frozen=True)
class DisplayState:
    """What the displays show: the pot, the seat to act (0: nobody), a text, the seat lights."""

    pot: int = 0
    turn: int = 0
    text: str = ""
    leds: tuple[tuple[int, str], ...] = ()
    """(seat, on/off/blink) for each seat with a light; seats not listed are left as they are."""

    def __post_init__(self) -> None:
        for seat, state in self.leds:
            if not 1 <= seat <= MAX_SEAT or state not in LED_STATES:
                raise ValueError(f"LED ({seat}, {state!r}): seats 1..{MAX_SEAT}, on/off/blink")
        if not 0 <= self.turn <= MAX_SEAT:
            raise ValueError(f"turn {self.turn}: 0 (nobody) or a seat 1..{MAX_SEAT}")

    def messages(self, before: DisplayState | None = None) -> list[Message]:
        """The lines that bring a display from ``before`` (None: unknown) to this state."""
        out: list[Message] = []
        if before is None or before.pot != self.pot:
            out.append(Pot(self.pot))
        if before is None or before.turn != self.turn:
            out.append(Turn(self.turn))
        text = Text.fitted(self.text)
        if before is None or Text.fitted(before.text) != text:
            out.append(text)
        old = dict(before.leds) if before is not None else {}
        for seat, state in self.leds:
            if old.get(seat) != state:
                out.append(Led(seat, state))
        return out


class DeviceManager:
    """The table's serial devices. ``start()`` opens them (and keeps reopening those that fail)."""

    def __init__(
        self,
        ports: Iterable[PortSpec | str],
        listener: DeviceListener,
        *,
        tag_map: TagMap | None = None,
        tag_map_path: Path | None = None,
        baudrate: int = BAUDRATE,
        repeat_window: float = 2.0,
        retry_interval: float = 0.5,
        heartbeat: float = 5.0,
        stale_after: float = 2.0,
        report_interval: float = 5.0,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.listener = listener
        self.lang = lang
        if tag_map is None:
            tag_map = TagMap.load(tag_map_path) if tag_map_path is not None else TagMap()
        self.tag_map = tag_map
        self.repeats = RepeatFilter(repeat_window)
        self.devices: list[SerialDevice] = []
        for spec in ports:
            spec = spec if isinstance(spec, PortSpec) else PortSpec(spec)
            self.devices.append(
                SerialDevice(
                    spec.url,
                    self._on_line,
                    self._on_state,
                    baudrate=baudrate,
                    kinds=spec.kinds,
                    retry_interval=retry_interval,
                    heartbeat=heartbeat,
                    stale_after=stale_after,
                )
            )
        self._display = DisplayState()
        self._display_lock = threading.Lock()
        self._registration: DeckRegistration | None = None
        self._registration_lock = threading.Lock()
        self.report_interval = report_interval
        self._last_report: dict[str, float] = {}
        self._unreported: dict[str, int] = {}

    # ---- life cycle ----------------------------------------------------------------------------

    def start(self) -> None:
        for device in self.devices:
            device.start()

    def stop(self) -> None:
        for device in self.devices:
            device.stop()

    def device(self, url: str) -> SerialDevice:
        for device in self.devices:
            if device.url == url:
                return device
        raise KeyError(url)

    def snapshot(self, discover: bool = False) -> dict[str, Any]:
        """For the dealer screen: every configured device with its state, the registration, and
        (``discover=True``) the serial ports present but not configured."""
        data: dict[str, Any] = {
            "protocol": PROTOCOL_VERSION,
            "devices": [d.status.as_dict() for d in self.devices],
            "tags": len(self.tag_map),
            "registration": None,
        }
        registration = self._registration
        if registration is not None:
            done, total = registration.progress
            expected = registration.expected
            data["registration"] = {
                "expected": str(expected) if expected else None,
                "done": done,
                "total": total,
            }
        if discover:
            configured = {d.url for d in self.devices}
            data["available"] = [
                p.as_dict()
                for p in discover_ports()
                if p.device not in configured and p.by_id not in configured
            ]
        return data

    # ---- outputs -------------------------------------------------------------------------------

    def displays(self) -> list[SerialDevice]:
        return [d for d in self.devices if d.connected and "display" in d.status.kinds]

    @property
    def display_state(self) -> DisplayState:
        return self._display

    def show(self, state: DisplayState) -> None:
        """Bring every display to ``state`` (only what changed is sent)."""
        with self._display_lock:
            before = self._shown()
            self._display = state
            after = self._shown()
            lines = after.messages(before)
            for device in self.displays():
                for message in lines:
                    device.send(message)

    def _shown(self) -> DisplayState:
        """The display state with the registration prompt in place of the text while registering."""
        registration = self._registration
        if registration is None:
            return self._display
        done, total = registration.progress
        if registration.expected is None:
            return self._display
        prompt = catalog().translate(
            "serial.prompt.scan", self.lang, card=registration.expected, done=done + 1, total=total
        )
        return replace(self._display, text=prompt)

    def _send_display(self, device: SerialDevice) -> None:
        with self._display_lock:
            for message in self._shown().messages(None):
                device.send(message)

    def forget_reads(self) -> None:
        """Forget recent reads (after an undo or a new hand: the same card read again is new)."""
        self.repeats.clear()

    # ---- deck registration -----------------------------------------------------------------------

    @property
    def registering(self) -> bool:
        return self._registration is not None

    def start_registration(self, order: tuple[Card, ...] = REGISTRATION_ORDER) -> None:
        """Ask for every card of ``order`` on the displays; tags read go to the registration."""
        with self._display_lock:
            before = self._shown()
            self._registration = DeckRegistration(order)
            self._push_display(before)
        self._announce_expected()

    def cancel_registration(self) -> None:
        with self._display_lock:
            before = self._shown()
            self._registration = None
            self._push_display(before)
        self._notify("", Notice("serial.notice.register_cancelled"))
        self._status_changed()

    def _push_display(self, before: DisplayState) -> None:
        for message in self._shown().messages(before):
            for device in self.displays():
                device.send(message)

    def _announce_expected(self) -> None:
        registration = self._registration
        if registration is not None and registration.expected is not None:
            done, total = registration.progress
            self._notify(
                "",
                Notice(
                    "serial.notice.register_scan",
                    {"card": registration.expected.symbol, "done": done, "total": total},
                ),
            )
        self._status_changed()

    def _register(self, seat: int, uid: str) -> None:
        with self._registration_lock, self._display_lock:
            registration = self._registration
            if registration is None:
                raise Refused("no deck registration in progress", "busy")
            before = self._shown()
            card = registration.scan(uid)
            finished = registration.done
            if finished:
                path = self.tag_map.path
                self.tag_map = registration.tag_map(path)
                if path is not None:
                    self.tag_map.save()
                self._registration = None
                # the last card still lies on the reader: its repeats are not a deal
                self.repeats.record(seat, registration.order[-1])
            self._push_display(before)
        if card is None:
            return
        if finished:
            total = len(self.tag_map)
            self._notify("", Notice("serial.notice.registered", {"total": total, "path": path}))
            self._flash(catalog().translate("serial.prompt.registered", self.lang))
            self._status_changed()
        else:
            self._announce_expected()

    def registration_back(self) -> None:
        """Forget the last registered card (the dealer scanned the wrong one)."""
        with self._registration_lock, self._display_lock:
            if self._registration is None:
                return
            before = self._shown()
            self._registration.back()
            self._push_display(before)
        self._announce_expected()

    def _flash(self, text: str) -> None:
        for device in self.displays():
            device.send(Text.fitted(text))

    # ---- inputs --------------------------------------------------------------------------------

    def _on_state(self, device: SerialDevice) -> None:
        key = "serial.notice.connected" if device.connected else "serial.notice.disconnected"
        self._notify(device.url, Notice(key, {"port": device.url, "device": device_label(device)}))
        if device.connected:
            device.send(Ping())
            if "display" in device.status.kinds:
                self._send_display(device)
        self._status_changed()

    def _on_line(self, device: SerialDevice, item: bytes | ProtocolError) -> None:
        if isinstance(item, ProtocolError):
            self._bad_line(device, item, None)
            return
        try:
            message = parse_device_line(item)
        except ProtocolError as exc:
            self._bad_line(device, exc, item)
            return
        try:
            reply = self._handle(device, message)
        except ProtocolError as exc:
            reply = exc.nak()
            self._refused(device, message, exc)
        except ValueError as exc:
            reply = Nak.for_error(getattr(exc, "code", "refused"), str(exc))
            self._refused(device, message, exc)
        except Exception as exc:
            log.exception("serial %s: handling %r failed", device.url, message)
            reply = Nak.for_error("busy", f"kiosk error: {type(exc).__name__}")
        if reply is not None:
            device.send(reply)

    def _bad_line(self, device: SerialDevice, exc: ProtocolError, raw: bytes | None) -> None:
        """NAK it and count it; log it and tell the dealer at most once per ``report_interval``
        seconds per device (noise at the wrong baud rate makes thousands of bad lines)."""
        device.status.bad_lines += 1
        device.send(exc.nak())
        if not self._report_now(device):
            return
        more = self._unreported.pop(device.url, 0)
        log.warning(
            "serial %s: bad line %r: %s%s",
            device.url,
            raw,
            exc,
            f" ({more} more bad lines since the last report)" if more else "",
        )
        self._notify(
            device.url,
            Notice(
                "serial.notice.bad_line",
                {"port": device.url, "device": device_label(device), "reason": str(exc)},
                exc,
            ),
        )

    def _report_now(self, device: SerialDevice) -> bool:
        """Whether a device's trouble is reported now (once per ``report_interval`` per device)."""
        now = time.monotonic()
        last = self._last_report.get(device.url)
        if last is not None and now - last < self.report_interval:
            self._unreported[device.url] = self._unreported.get(device.url, 0) + 1
            return False
        self._last_report[device.url] = now
        return True

    def _refused(self, device: SerialDevice, message: Message, exc: Exception) -> None:
        log.info("serial %s: %s refused: %s", device.url, message.text(), exc)
        self._notify(
            device.url,
            Notice(
                "serial.notice.refused",
                {
                    "port": device.url,
                    "device": device_label(device),
                    "input": input_words(message),
                    "line": message.text(),
                    "reason": str(exc),
                },
                exc,
            ),
        )

    def _handle(self, device: SerialDevice, message: Message) -> Message | None:
        if isinstance(message, Pong):
            device.answers_ping = True
            return None
        if isinstance(message, Ack):
            return None
        if isinstance(message, Nak):
            if self._report_now(device):
                log.warning("serial %s: device refused a line: %s", device.url, message.reason)
                self._notify(
                    device.url,
                    Notice(
                        "serial.notice.device_nak",
                        {
                            "port": device.url,
                            "device": device_label(device),
                            "reason": message.reason,
                        },
                    ),
                )
            return None
        if isinstance(message, Ping):
            return Pong()
        if isinstance(message, Hello):
            return self._hello(device, message)
        if isinstance(message, DeviceError):
            log.warning("serial %s: device fault: %s", device.url, message.message)
            self._notify(
                device.url,
                Notice(
                    "serial.notice.device_error",
                    {"port": device.url, "device": device_label(device), "text": message.message},
                ),
            )
            return Ack()
        if device.status.version is not None and device.status.version not in SUPPORTED_VERSIONS:
            raise ProtocolError(
                "version",
                f"protocol {device.status.version} unsupported; kiosk speaks {PROTOCOL_VERSION}",
            )
        if isinstance(message, TagRead):
            if self._registration is not None:
                self._register(message.seat, message.uid)
                return Ack()
            return self._card(device, message.seat, self.tag_map.card(message.uid), message.up)
        if isinstance(message, CardRead):
            if self._registration is not None:
                raise Refused("deck registration in progress: scan tags, not cards", "busy")
            return self._card(device, message.seat, message.card, message.up)
        if isinstance(message, ButtonPress):
            return self._button(device, message)
        raise ProtocolError("unknown", f"{message.word} is not sent by devices")

    def _hello(self, device: SerialDevice, hello: Hello) -> Message | None:
        device.status.kinds = tuple(dict.fromkeys(device.configured_kinds + hello.kinds))
        device.status.version = hello.version
        device.status.name = hello.name
        self._status_changed()
        if hello.version not in SUPPORTED_VERSIONS:
            self._notify(
                device.url,
                Notice(
                    "serial.notice.version",
                    {
                        "port": device.url,
                        "device": device_label(device),
                        "version": hello.version,
                        "supported": PROTOCOL_VERSION,
                    },
                ),
            )
            raise ProtocolError(
                "version", f"protocol {hello.version} unsupported; kiosk speaks {PROTOCOL_VERSION}"
            )
        if "display" in hello.kinds:
            device.send(Ack())
            self._send_display(device)
            return None
        return Ack()

    def _card(self, device: SerialDevice, seat: int, card: Card, up: bool | None) -> Message:
        if self.repeats.is_repeat(seat, card):
            log.debug("serial %s: repeated read of %s at seat %d ignored", device.url, card, seat)
            return Ack()
        self.listener.on_card(seat, card, up, device.url)
        self.repeats.record(seat, card)
        return Ack()

    def _button(self, device: SerialDevice, press: ButtonPress) -> Message:
        if self._registration is not None:
            if press.name == "UNDO":
                self.registration_back()
                return Ack()
            raise Refused("deck registration in progress: UNDO steps back", "busy")
        self.listener.on_button(press.name, press.amount, device.url)
        if press.name == "UNDO":
            self.forget_reads()
        return Ack()

    # ---- notifications ---------------------------------------------------------------------------

    def _notify(self, port: str, notice: Notice) -> None:
        try:
            self.listener.on_notice(port, notice)
        except Exception:
            log.exception("serial: notice handler failed")

    def _status_changed(self) -> None:
        try:
            self.listener.on_status(self)
        except Exception:
            log.exception("serial: status handler failed")
