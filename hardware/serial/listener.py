"""What the table's serial devices hand to the kiosk, and how it is worded for the dealer.

A :class:`DeviceListener` (the kiosk's table service) gets the card reads and button presses; it
refuses one by raising (:class:`Refused` for a ``NAK`` code other than ``refused``). A
:class:`Notice` is something the dealer should read, in the serial catalogue's words
(``hardware/serial/locales``). A :class:`RepeatFilter` keeps a card lying on a reader one read.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.cards import Card
from engine.i18n import DEFAULT_LANGUAGE, Catalog
from hardware.serial.device import SerialDevice
from hardware.serial.protocol import ButtonPress, CardRead, Message, TagRead

if TYPE_CHECKING:
    from hardware.serial.manager import DeviceManager

LOCALES = Path(__file__).with_name("locales")


@cache
def catalog() -> Catalog:
    return Catalog(LOCALES)


class Refused(ValueError):
    """Raise from a listener to refuse an input with a NAK code other than ``refused``."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Notice:
    """Something the dealer should read: ``key`` of the serial catalogue with its ``params``."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    error: BaseException | None = None
    """The exception behind a refusal (an ``EngineError`` the kiosk may word its own way)."""

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The message in ``lang``; parameters that are notices themselves are worded too."""
        params = {
            k: v.message(lang) if isinstance(v, Notice) else v for k, v in self.params.items()
        }
        return catalog().translate(self.key, lang, **params)


def device_label(device: SerialDevice) -> str | Notice:
    """How the dealer knows a device: the name it gave, else its kind, else its port's name."""
    if device.status.name:
        return device.status.name
    kinds = device.status.kinds
    if len(kinds) == 1:
        return Notice(f"serial.kind.{kinds[0]}")
    return Path(device.url).name or device.url


def input_words(message: Message) -> Notice | str:
    """A device's input in words for the dealer (``As for seat 2``, ``button CALL``)."""
    if isinstance(message, CardRead):
        return Notice("serial.input.card", {"card": message.card.symbol, "seat": message.seat})
    if isinstance(message, TagRead):
        return Notice("serial.input.tag", {"uid": message.uid, "seat": message.seat})
    if isinstance(message, ButtonPress):
        return Notice("serial.input.button", {"name": message.name})
    return message.text()


class DeviceListener:
    """What the kiosk implements. Runs on the devices' reader threads; keep it quick.

    ``on_card`` and ``on_button`` refuse an input by raising (``ValueError`` such as the engine's
    errors, or :class:`Refused` for another NAK code): the device gets ``NAK <code> <message>``.
    """

    def on_card(self, seat: int, card: Card, up: bool | None, port: str) -> None:
        raise Refused("no table takes cards from this reader", "busy")

    def on_button(self, name: str, amount: int | None, port: str) -> None:
        raise Refused("no table takes button presses", "busy")

    def on_notice(self, port: str, notice: Notice) -> None:
        """A refused input, a bad line, a device fault, a connection change, registration news."""

    def on_status(self, manager: DeviceManager) -> None:
        """Something on :meth:`DeviceManager.snapshot` changed (a device came or went, a HELLO)."""


class RepeatFilter:
    """Remembers accepted reads; the same read again within ``window`` seconds is a repeat.

    Every repeat extends the window, so a card lying on a reader that reads it again and again stays
    one read.
    """

    def __init__(self, window: float = 2.0) -> None:
        self.window = window
        self._seen: dict[tuple[int, Card], float] = {}
        self._lock = threading.Lock()

    def is_repeat(self, seat: int, card: Card) -> bool:
        now = time.monotonic()
        with self._lock:
            last = self._seen.get((seat, card))
            if last is not None and now - last <= self.window:
                self._seen[(seat, card)] = now
                return True
            return False

    def record(self, seat: int, card: Card) -> None:
        now = time.monotonic()
        with self._lock:
            self._seen = {k: t for k, t in self._seen.items() if now - t <= self.window}
            self._seen[(seat, card)] = now

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()
