"""Serial devices: a small table that listens to them."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from engine.cards import Card
from hardware.serial import DeviceListener, Notice, Refused


@dataclass
class Table(DeviceListener):
    """A small table for the listener: a card may be dealt once, buttons follow a fixed script."""

    cards: list[tuple[int, Card, bool | None]] = field(default_factory=list)
    buttons: list[tuple[str, int | None]] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    allowed_buttons: set[str] = field(default_factory=lambda: {"BRINGIN", "CALL", "FOLD", "UNDO"})
    lock: threading.Lock = field(default_factory=threading.Lock)

    def on_card(self, seat: int, card: Card, up: bool | None, port: str) -> None:
        with self.lock:
            if any(c == card for _, c, _ in self.cards):
                raise ValueError(f"{card} is already in the hand: each card is dealt once")
            if seat > 4:
                raise Refused(f"seat {seat} is empty", "seat")
            self.cards.append((seat, card, up))

    def on_button(self, name: str, amount: int | None, port: str) -> None:
        with self.lock:
            if name not in self.allowed_buttons:
                raise ValueError(
                    f"{name} is not legal now: {', '.join(sorted(self.allowed_buttons))}"
                )
            if name == "UNDO":
                self.cards.pop()
            self.buttons.append((name, amount))

    def on_notice(self, port: str, notice: Notice) -> None:
        self.notices.append(notice)

    def state(self) -> tuple[object, ...]:
        with self.lock:
            return (tuple(self.cards), tuple(self.buttons))
