"""``stud-kiosk simulate-device``: play a card reader, a button panel or a display on a serial line.

Without ``--port`` the device is played on a new pseudo-terminal whose path is printed first: give
that path to the kiosk (``STUD_KIOSK_SERIAL_PORTS``). With ``--port`` it is played on that port or
pyserial URL (one end of a null-modem cable, a ``socat`` pair).

What you type (or what ``--script`` lists, one per line) becomes protocol lines:

- reader: ``3 Ah`` (CARD 3 Ah), ``3 Ah up``, ``tag 3 04A1B2C3`` (TAG), ``wait 0.5``
- buttons: ``fold``, ``call``, ``bet 40`` (BTN ...), ``wait 0.5``
- any device: a line starting with a protocol word (``CARD``, ``ERR``, ``HELLO``...) goes as typed

The kiosk's answers are printed; a display prints every POT, TURN, TEXT and LED it receives.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from hardware.serial.virtual import Endpoint

HELP = "play a serial card reader, button panel or display on a pseudo-terminal (demos, tests)"
KINDS = ("reader", "buttons", "display")
PROTOCOL_WORDS = ("HELLO", "CARD", "TAG", "BTN", "ERR", "ACK", "NAK", "PING", "PONG")

MESSAGES = {
    "en": {
        "ready": "simulate-device: {kind} on {path}",
        "hint": "connect the kiosk: STUD_KIOSK_SERIAL_PORTS={path}",
        "stop": "type lines (Ctrl-D or Ctrl-C to stop)",
        "bad": "cannot send {line!r}: {reason}",
        "timeout": "no answer from the kiosk within {seconds} s",
        "unplugged": "the port is gone: {reason}",
    },
    "it": {
        "ready": "simulate-device: {kind} su {path}",
        "hint": "collega il kiosk: STUD_KIOSK_SERIAL_PORTS={path}",
        "stop": "scrivi le righe (Ctrl-D o Ctrl-C per finire)",
        "bad": "impossibile inviare {line!r}: {reason}",
        "timeout": "nessuna risposta dal kiosk entro {seconds} s",
        "unplugged": "la porta non c'è più: {reason}",
    },
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=KINDS, help="the device to play")
    parser.add_argument(
        "--port", help="play on this port or pyserial URL instead of a new pseudo-terminal"
    )
    parser.add_argument(
        "--link", help="also make this symbolic link to the pseudo-terminal (a stable path)"
    )
    parser.add_argument("--script", help="a file of lines to send ('-': standard input), then stop")
    parser.add_argument(
        "--stay", action="store_true", help="keep running after the script (to watch the answers)"
    )
    parser.add_argument("--name", help="the name the device gives in HELLO")
    parser.add_argument(
        "--verbose", action="store_true", help="also print the heartbeat (PING and PONG)"
    )
    parser.add_argument(
        "--version", type=int, default=None, help="the protocol version to announce (default: ours)"
    )
    parser.add_argument(
        "--timeout", type=float, default=5.0, help="seconds to wait for each ACK/NAK (default 5)"
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=60.0,
        help="with --script: seconds to wait for the kiosk to open the port (default 60)",
    )
    env_lang = os.environ.get("STUD_KIOSK_LANG", "en")
    parser.add_argument(
        "--lang",
        choices=("en", "it"),
        default=env_lang if env_lang in ("en", "it") else "en",
        help="language of the messages (default $STUD_KIOSK_LANG or en)",
    )


def translate_input(kind: str, text: str) -> str | None:
    """The protocol line for what the user typed; None for a blank line.

    >>> translate_input("reader", "3 ah up"), translate_input("buttons", "bet 40")
    ('CARD 3 ah up', 'BTN BET 40')
    >>> translate_input("reader", "tag 2 04a1b2"), translate_input("display", "ERR lamp")
    ('TAG 2 04a1b2', 'ERR lamp')
    """
    text = text.strip()
    if not text or text.startswith("#"):
        return None
    first = text.split()[0]
    if first.upper() in PROTOCOL_WORDS and first.isupper():
        return text
    if kind == "reader":
        if first.lower() == "tag":
            return "TAG " + text.split(None, 1)[1] if " " in text else "TAG"
        return "CARD " + text
    if kind == "buttons":
        words = text.split()
        name = words[0].upper().replace("-", "").replace("_", "")  # bring-in, bring_in: BRINGIN
        return " ".join(["BTN", name, *words[1:]])
    return text


class Simulator:
    """A device on an endpoint: says HELLO, answers PING, prints what the kiosk sends."""

    def __init__(
        self,
        kind: str,
        endpoint: Endpoint,
        out: TextIO,
        name: str | None = None,
        version: int | None = None,
        lang: str = "en",
    ) -> None:
        from hardware.serial.protocol import PROTOCOL_VERSION, Hello

        self.kind = kind
        self.endpoint = endpoint
        self.out = out
        self.lang = lang
        self.hello = Hello((kind,), version or PROTOCOL_VERSION, name).text()
        self.greeted = threading.Event()
        self.waiting: list[list[str]] = []
        """Lines sent and not answered yet, oldest first: each a box for its ACK or NAK."""
        self.answered = threading.Condition()
        self.stopped = threading.Event()
        self.display: dict[str, str] = {}
        self.verbose = False
        """Print the heartbeat (PING, PONG) too."""
        self._printing = threading.Lock()

    def _print(self, text: str) -> None:
        """One whole line of the transcript: the reader thread and the sender print at once, and
        ``print`` writes the text and its newline apart, so a reply could land inside a line."""
        with self._printing:
            self.out.write(text + "\n")
            self.out.flush()

    def say(self, key: str, **params: object) -> None:
        self._print(MESSAGES[self.lang][key].format(**params))

    def send(self, line: str) -> list[str]:
        """Write ``line``; the box its ACK or NAK will be put in."""
        box: list[str] = []
        # printed before it is written: its answer is then printed after it
        if self.verbose or line not in ("PING", "PONG"):
            self._print(f"> {line}")
        with self.answered:
            if line.split()[0].upper() not in ("ACK", "NAK", "PING", "PONG"):  # never ACKed
                self.waiting.append(box)
            self.endpoint.send(line)
        return box

    def listen(self) -> None:
        """The reader loop (a thread): answer PING, note ACK/NAK, show display lines."""
        from hardware.serial.protocol import ProtocolError, parse_kiosk_line

        while not self.stopped.is_set():
            try:
                lines = self.endpoint.read_lines(0.1)
            except OSError as exc:
                self.say("unplugged", reason=exc)
                self.stopped.set()
                return
            for line in lines:
                if self.verbose or line not in ("PING", "PONG"):
                    self._print(f"< {line}")
                try:
                    message = parse_kiosk_line(line)
                except ProtocolError as exc:
                    self.send(exc.nak().text())
                    continue
                word = message.word
                if word == "PING":
                    self.send("PONG")
                if word in ("PING", "PONG") and not self.greeted.is_set():
                    # the kiosk has the port open: it pinged us, or answered our PING
                    self.send(self.hello)
                    self.greeted.set()
                elif word in ("ACK", "NAK"):
                    with self.answered:
                        if self.waiting:
                            self.waiting.pop(0).append(line)
                        self.answered.notify_all()
                elif word in ("POT", "TURN", "TEXT", "LED"):
                    key = word if word != "LED" else " ".join(line.split()[:2])
                    self.display[key] = line
                    self._print("[" + " | ".join(self.display.values()) + "]")

    def submit(self, line: str, timeout: float) -> str | None:
        """Send ``line`` and wait for its ACK or NAK (None: none came)."""
        box = self.send(line)
        with self.answered:
            if not self.answered.wait_for(lambda: bool(box), timeout):
                if box in self.waiting:
                    self.waiting.remove(box)
                self.say("timeout", seconds=timeout)
                return None
            return box[0]


def run(args: argparse.Namespace) -> int:
    from hardware.serial.virtual import PortEndpoint, VirtualPort

    out = sys.stdout
    endpoint: Endpoint
    if args.port:
        endpoint = PortEndpoint(args.port)
    else:
        endpoint = VirtualPort(Path(args.link) if args.link else None)
    sim = Simulator(args.kind, endpoint, out, args.name, args.version, args.lang)
    sim.verbose = args.verbose
    sim.say("ready", kind=args.kind, path=endpoint.path)
    sim.say("hint", path=endpoint.path)
    listener = threading.Thread(target=sim.listen, daemon=True)
    listener.start()
    # HELLO goes once the kiosk shows that it has the port open: it sends PING when it opens the
    # port, and answers our PING if it had it open already
    sim.send("PING")
    try:
        if args.script:
            if not sim.greeted.wait(args.wait):
                sim.say("timeout", seconds=args.wait)
                return 1
            source = sys.stdin if args.script == "-" else open(args.script, encoding="utf-8")  # noqa: SIM115
            with source:
                for text in source:
                    if not _play(sim, text, args.timeout):
                        return 1
            if not args.stay:
                return 0
        else:
            sim.say("stop")
            for text in sys.stdin:
                _play(sim, text, args.timeout)
        if args.stay or args.kind == "display":
            while not sim.stopped.is_set():
                time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        sim.stopped.set()
        listener.join(1)
        endpoint.close()
    return 0


def _play(sim: Simulator, text: str, timeout: float) -> bool:
    words = text.split()
    if words and words[0].lower() == "wait":
        time.sleep(float(words[1]) if len(words) > 1 else 1.0)
        return True
    line = translate_input(sim.kind, text)
    if line is None:
        return True
    if not line.isascii() or len(line) >= 64:
        sim.say("bad", line=line, reason="lines are ASCII, at most 63 characters")
        return True
    return sim.submit(line, timeout) is not None
