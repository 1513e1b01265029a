"""The table-hardware line protocol, version 1 (docs/hardware.md is its full description).

Line-based ASCII at 115200 8N1. A line is at most :data:`MAX_LINE` bytes counting its ``\\n``
(and a ``\\r`` before it, which is allowed and dropped). Words are separated by single or repeated
spaces; the command word and the fixed keywords are case-insensitive.

Every message is a frozen value that parses from one line and formats back to it:

>>> parse_device_line(b"CARD 3 Ah\\n")
CardRead(seat=3, card=Card.parse('Ah'), up=None)
>>> CardRead(3, Card.parse("10h"), up=True).line()
b'CARD 3 Th up\\n'
>>> parse_kiosk_line(Pot(120).line())
Pot(amount=120)
>>> Nak.for_error("refused", "Ah is already in the hand: each card is dealt once").line()
b'NAK refused Ah is already in the hand: each card is dealt once\\n'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import Card
from engine.errors import CardError

PROTOCOL_VERSION = 1
"""The version this kiosk speaks; a device announces its own in ``HELLO``."""
SUPPORTED_VERSIONS = frozenset({1})
BAUDRATE = 115200
MAX_LINE = 64
"""Longest line in bytes, counting the terminating ``\\n`` (and a ``\\r`` before it)."""
MAX_TEXT = 32
"""Longest ``TEXT`` a display must show."""
MAX_SEAT = 10
"""Seats on the wire are 1..MAX_SEAT; ``TURN 0`` means nobody is to act."""
MAX_AMOUNT = 10**9
DEVICE_KINDS = ("reader", "buttons", "display")
BUTTONS = (
    "FOLD",
    "CHECK",
    "CALL",
    "BET",
    "RAISE",
    "COMPLETE",
    "BRINGIN",
    "UNDO",
    "CONFIRM",
    "NEXT",
)
LED_STATES = ("on", "off", "blink")
NAK_CODES = (
    "syntax",  # a line that is not ASCII text or has the wrong number of words
    "toolong",  # a line longer than MAX_LINE bytes
    "unknown",  # an unknown command word
    "seat",  # a seat number out of range
    "card",  # not a card
    "tag",  # not a tag uid, or a tag no card is registered for
    "button",  # not a button name
    "version",  # a protocol version the kiosk does not speak
    "refused",  # well-formed, but the hand refuses it now (card already dealt, not legal now)
    "register",  # refused by the deck registration (tag already registered)
    "busy",  # the kiosk cannot take input now (no hand running, registration in progress)
)
_UID = re.compile(r"[0-9A-Fa-f]{2,32}")
_INT = re.compile(r"[0-9]{1,10}")


class HardwareError(OSError):
    """Base class of the serial hardware's errors."""


class ProtocolError(HardwareError):
    """A line that breaks the protocol. ``code`` is one of :data:`NAK_CODES`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message

    def nak(self) -> Nak:
        return Nak.for_error(self.code, self.message)


def to_ascii(text: str) -> str:
    """``text`` folded to printable ASCII: accents dropped, card suits as letters, the rest ``?``.

    >>> to_ascii("Già  A♥ 10♦")
    'Gia Ah 10d'
    """
    for symbol, letter in (("♣", "c"), ("♦", "d"), ("♥", "h"), ("♠", "s")):
        text = text.replace(symbol, letter)
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    folded = "".join(ch if " " <= ch <= "~" else " " for ch in folded)
    return re.sub(r" {2,}", " ", folded).strip()


def _fit(text: str, room: int) -> str:
    text = to_ascii(text)
    if len(text) <= room:
        return text
    return text[: max(room - 3, 0)].rstrip() + "..."


def _seat(word: str, *, allow_zero: bool = False) -> int:
    lowest = 0 if allow_zero else 1
    if not _INT.fullmatch(word) or not lowest <= int(word) <= MAX_SEAT:
        raise ProtocolError("seat", f"seat {word!r}: seats are {lowest} to {MAX_SEAT}")
    return int(word)


def _amount(word: str) -> int:
    if not _INT.fullmatch(word) or int(word) > MAX_AMOUNT:
        raise ProtocolError(
            "syntax", f"amount {word!r}: a whole number of chips, 0 to {MAX_AMOUNT}"
        )
    return int(word)


def _up(words: list[str], index: int) -> bool | None:
    if len(words) <= index:
        return None
    flag = words[index].lower()
    if flag not in ("up", "down"):
        raise ProtocolError("syntax", f"{words[index]!r}: the last word may be 'up' or 'down'")
    return flag == "up"


def _updown(up: bool | None) -> str:
    return "" if up is None else (" up" if up else " down")


@dataclass(frozen=True)
class Message:
    """One protocol line."""

    word: ClassVar[str] = ""

    def text(self) -> str:
        return self.word

    def line(self) -> bytes:
        """The message as it goes on the wire, ``\\n`` included."""
        data = (self.text() + "\n").encode("ascii")
        assert len(data) <= MAX_LINE, data
        return data


# ---- both directions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Ack(Message):
    """The line was taken (kiosk to device; a device may send it, the kiosk only logs it)."""

    word: ClassVar[str] = "ACK"


@dataclass(frozen=True)
class Nak(Message):
    """The line was refused: ``reason`` starts with a code of :data:`NAK_CODES`, then words."""

    reason: str = "syntax"
    word: ClassVar[str] = "NAK"

    @property
    def code(self) -> str:
        return self.reason.split(" ", 1)[0]

    @staticmethod
    def for_error(code: str, message: str) -> Nak:
        """A NAK for ``code`` with ``message`` folded to ASCII and cut to fit one line."""
        room = MAX_LINE - len("NAK ") - len(code) - len(" \n")
        detail = _fit(message, room)
        return Nak(f"{code} {detail}" if detail else code)

    def text(self) -> str:
        return f"NAK {self.reason}"


@dataclass(frozen=True)
class Ping(Message):
    """Are you there? The other side answers ``PONG`` (a heartbeat; kiosks send one every few s)."""

    word: ClassVar[str] = "PING"


@dataclass(frozen=True)
class Pong(Message):
    """The answer to ``PING``; never answered itself."""

    word: ClassVar[str] = "PONG"


# ---- device to kiosk -------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello(Message):
    """A device introduces itself: ``HELLO reader+display 1 [name]``."""

    kinds: tuple[str, ...]
    version: int = PROTOCOL_VERSION
    name: str | None = None
    word: ClassVar[str] = "HELLO"

    def text(self) -> str:
        name = f" {self.name}" if self.name else ""
        return f"HELLO {'+'.join(self.kinds)} {self.version}{name}"


@dataclass(frozen=True)
class CardRead(Message):
    """A reader that knows cards saw ``card`` at ``seat``; ``up`` when it knows face up/down."""

    seat: int
    card: Card
    up: bool | None = None
    word: ClassVar[str] = "CARD"

    def text(self) -> str:
        return f"CARD {self.seat} {self.card}{_updown(self.up)}"


@dataclass(frozen=True)
class TagRead(Message):
    """A reader saw the RFID tag ``uid`` (upper-case hex) at ``seat``."""

    seat: int
    uid: str
    up: bool | None = None
    word: ClassVar[str] = "TAG"

    def text(self) -> str:
        return f"TAG {self.seat} {self.uid}{_updown(self.up)}"


@dataclass(frozen=True)
class ButtonPress(Message):
    """The dealer pressed a button; ``BET``/``RAISE`` may carry an amount (``BTN BET 40``)."""

    name: str
    amount: int | None = None
    word: ClassVar[str] = "BTN"

    def text(self) -> str:
        amount = "" if self.amount is None else f" {self.amount}"
        return f"BTN {self.name}{amount}"


@dataclass(frozen=True)
class DeviceError(Message):
    """The device reports a fault of its own (``ERR antenna 3 not responding``)."""

    message: str
    word: ClassVar[str] = "ERR"

    def text(self) -> str:
        return f"ERR {self.message}"


# ---- kiosk to device -------------------------------------------------------------------------


@dataclass(frozen=True)
class Pot(Message):
    """The chips in the middle, all pots together."""

    amount: int
    word: ClassVar[str] = "POT"

    def text(self) -> str:
        return f"POT {self.amount}"


@dataclass(frozen=True)
class Turn(Message):
    """The seat to act; 0 when nobody is (between streets, hand over)."""

    seat: int
    word: ClassVar[str] = "TURN"

    def text(self) -> str:
        return f"TURN {self.seat}"


@dataclass(frozen=True)
class Text(Message):
    """A message of up to :data:`MAX_TEXT` printable ASCII characters; empty clears the line."""

    message: str
    word: ClassVar[str] = "TEXT"

    @staticmethod
    def fitted(message: str) -> Text:
        """``message`` folded to ASCII and cut to :data:`MAX_TEXT` characters."""
        return Text(_fit(message, MAX_TEXT))

    def text(self) -> str:
        return f"TEXT {self.message}" if self.message else "TEXT"


@dataclass(frozen=True)
class Led(Message):
    """The light of a seat: ``on``, ``off`` or ``blink``."""

    seat: int
    state: str
    word: ClassVar[str] = "LED"

    def text(self) -> str:
        return f"LED {self.seat} {self.state}"


DEVICE_MESSAGES: tuple[type[Message], ...] = (
    Hello,
    CardRead,
    TagRead,
    ButtonPress,
    DeviceError,
    Ack,
    Nak,
    Ping,
    Pong,
)
KIOSK_MESSAGES: tuple[type[Message], ...] = (Ack, Nak, Pot, Turn, Text, Led, Ping, Pong)


def decode_line(raw: bytes) -> str:
    """The text of one line without its terminator; refuses what the protocol does not allow."""
    if len(raw) > MAX_LINE:
        raise ProtocolError("toolong", f"line of {len(raw)} bytes: at most {MAX_LINE} with the \\n")
    body = raw[:-1] if raw.endswith(b"\n") else raw
    if body.endswith(b"\r"):
        body = body[:-1]
    if any(b < 0x20 or b > 0x7E for b in body):
        raise ProtocolError("syntax", "bytes outside printable ASCII")
    return body.decode("ascii")


def _split(raw: bytes | str) -> tuple[str, list[str], str]:
    text = decode_line(raw) if isinstance(raw, bytes) else raw
    stripped = text.strip(" ")
    if not stripped:
        raise ProtocolError("syntax", "empty line")
    word, _, rest = stripped.partition(" ")
    return word.upper(), rest.split(), rest.strip(" ")


def _arity(word: str, args: list[str], low: int, high: int, usage: str) -> None:
    if not low <= len(args) <= high:
        raise ProtocolError("syntax", f"{word} takes {usage}")


def parse_device_line(raw: bytes | str) -> Message:
    """A line a device sent; :class:`ProtocolError` says what is wrong and what is allowed."""
    word, args, rest = _split(raw)
    if word == "HELLO":
        _arity(word, args, 2, 3, "a kind, a version and an optional name: HELLO reader 1")
        kinds = tuple(k.lower() for k in args[0].split("+"))
        if not kinds or any(k not in DEVICE_KINDS for k in kinds) or len(set(kinds)) != len(kinds):
            raise ProtocolError(
                "syntax", f"kind {args[0]!r}: {', '.join(DEVICE_KINDS)} or joined by +"
            )
        if not _INT.fullmatch(args[1]):
            raise ProtocolError("syntax", f"version {args[1]!r}: a whole number such as 1")
        return Hello(kinds, int(args[1]), args[2] if len(args) == 3 else None)
    if word == "CARD":
        _arity(word, args, 2, 3, "a seat, a card and optionally up/down: CARD 3 Ah")
        try:
            card = Card.parse(args[1])
        except CardError:
            raise ProtocolError(
                "card", f"{args[1]!r} is not a card: e.g. Ah, Td, 10d, 7c"
            ) from None
        return CardRead(_seat(args[0]), card, _up(args, 2))
    if word == "TAG":
        _arity(word, args, 2, 3, "a seat, a hex uid and optionally up/down: TAG 3 04A1B2C3")
        if not _UID.fullmatch(args[1]) or len(args[1]) % 2:
            raise ProtocolError("tag", f"uid {args[1]!r}: 1 to 16 bytes in hex, e.g. 04A1B2C3")
        return TagRead(_seat(args[0]), args[1].upper(), _up(args, 2))
    if word == "BTN":
        _arity(word, args, 1, 2, "a button name and, for BET or RAISE, an amount: BTN FOLD")
        name = args[0].upper()
        if name not in BUTTONS:
            raise ProtocolError("button", f"button {args[0]!r}: one of {' '.join(BUTTONS)}")
        if len(args) == 2 and name not in ("BET", "RAISE"):
            raise ProtocolError("syntax", f"BTN {name} takes no amount; only BET and RAISE do")
        return ButtonPress(name, _amount(args[1]) if len(args) == 2 else None)
    if word == "ERR":
        if not rest:
            raise ProtocolError("syntax", "ERR takes a description: ERR antenna 3 not responding")
        return DeviceError(rest)
    return _parse_common(word, args, rest, DEVICE_MESSAGES)


def parse_kiosk_line(raw: bytes | str) -> Message:
    """A line the kiosk sent (for devices, the simulator and tests)."""
    word, args, rest = _split(raw)
    if word == "POT":
        _arity(word, args, 1, 1, "an amount: POT 120")
        return Pot(_amount(args[0]))
    if word == "TURN":
        _arity(word, args, 1, 1, "a seat, or 0 for nobody: TURN 3")
        return Turn(_seat(args[0], allow_zero=True))
    if word == "TEXT":
        if len(rest) > MAX_TEXT:
            raise ProtocolError("syntax", f"TEXT of {len(rest)} characters: at most {MAX_TEXT}")
        return Text(rest)
    if word == "LED":
        _arity(word, args, 2, 2, "a seat and on, off or blink: LED 3 blink")
        if args[1].lower() not in LED_STATES:
            raise ProtocolError("syntax", f"LED state {args[1]!r}: on, off or blink")
        return Led(_seat(args[0]), args[1].lower())
    return _parse_common(word, args, rest, KIOSK_MESSAGES)


def _parse_common(
    word: str, args: list[str], rest: str, allowed: tuple[type[Message], ...]
) -> Message:
    if word in ("ACK", "PING", "PONG"):
        _arity(word, args, 0, 0, "nothing after it")
        return {"ACK": Ack(), "PING": Ping(), "PONG": Pong()}[word]
    if word == "NAK":
        return Nak(rest or "syntax")
    names = " ".join(m.word for m in allowed if m.word not in ("ACK", "NAK", "PONG"))
    raise ProtocolError("unknown", f"{_fit(word, 12)}; try {names}")
