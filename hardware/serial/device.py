"""One serial device: the port (any pyserial URL), a reader thread, line assembly, reconnection.

:class:`SerialDevice` opens its port with ``serial.serial_for_url`` (a path such as
``/dev/ttyACM0``, a ``/dev/serial/by-id/...`` link, ``socket://host:port``, ``loop://``...), reads
bytes on a background thread, cuts them into lines with :class:`LineAssembler` and hands every line
(or the error a bad line makes) to a callback. When the port fails (unplugged: pyserial raises
``SerialException`` or the read returns an I/O error) the device is marked disconnected and the
thread tries to open the port again every ``retry_interval`` seconds until it comes back.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from hardware.serial.protocol import BAUDRATE, MAX_LINE, Message, Ping, ProtocolError

log = logging.getLogger(__name__)

try:
    from termios import error as _termios_error

    PORT_ERRORS: tuple[type[BaseException], ...] = (
        serial.SerialException, OSError, _termios_error
    )
except ImportError:  # not POSIX
    PORT_ERRORS = (serial.SerialException, OSError)
"""What a port that went away raises (termios.error is not an OSError)."""
OPEN_ERRORS: tuple[type[BaseException], ...] = (*PORT_ERRORS, ValueError)
"""What opening a port raises: also ValueError for a malformed URL or setting."""

WRITE_TIMEOUT = 0.25
"""Seconds a line to a device may wait to be written (a 64-byte line takes 6 ms at 115200)."""
STALL_PAUSE = 2.0
"""After a write timed out, lines to that device are dropped for this long, then tried again."""

CONNECTED = "connected"
DISCONNECTED = "disconnected"


class LineAssembler:
    """Bytes in, lines out. A line longer than ``max_line`` is dropped whole and reported once; a
    partial line left without its ``\\n`` for ``stale_after`` seconds is dropped and reported.

    >>> lines = LineAssembler()
    >>> lines.feed(b"CARD 1 A"), lines.feed(b"h\\nBTN FOLD\\n")
    ([], [b'CARD 1 Ah\\n', b'BTN FOLD\\n'])
    >>> [str(e) for e in lines.feed(b"X" * 70 + b"\\n")]
    ['line of 71 bytes: at most 64 with the \\\\n']
    """

    def __init__(
        self,
        max_line: int = MAX_LINE,
        stale_after: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_line = max_line
        self.stale_after = stale_after
        self.clock = clock
        self._buffer = bytearray()
        self._dropping = 0
        self._last = 0.0

    @property
    def pending(self) -> bool:
        return bool(self._buffer) or self._dropping > 0

    def feed(self, data: bytes) -> list[bytes | ProtocolError]:
        out: list[bytes | ProtocolError] = []
        if data:
            self._last = self.clock()
        while data:
            end = data.find(b"\n")
            piece, data = (data, b"") if end < 0 else (data[: end + 1], data[end + 1 :])
            if self._dropping:
                self._dropping += len(piece)
            else:
                self._buffer += piece
                if len(self._buffer) > self.max_line:
                    self._dropping = len(self._buffer)
                    self._buffer.clear()
            if end < 0:
                continue
            if self._dropping:
                out.append(
                    ProtocolError(
                        "toolong",
                        f"line of {self._dropping} bytes: at most {self.max_line} with the \\n",
                    )
                )
                self._dropping = 0
            else:
                out.append(bytes(self._buffer))
                self._buffer.clear()
        return out

    def expire(self) -> ProtocolError | None:
        """The error for a partial line that has waited too long for its ``\\n``, now dropped."""
        if not self.pending or self.clock() - self._last < self.stale_after:
            return None
        size = self._dropping or len(self._buffer)
        self._buffer.clear()
        self._dropping = 0
        return ProtocolError("syntax", f"incomplete line of {size} bytes: lines end with \\n")

    def reset(self) -> None:
        self._buffer.clear()
        self._dropping = 0


@dataclass
class DeviceStatus:
    """What the dealer screen shows about one configured port."""

    port: str
    state: str = DISCONNECTED
    kinds: tuple[str, ...] = ()
    version: int | None = None
    name: str | None = None
    error: str | None = None
    since: float = field(default_factory=time.time)
    last_seen: float | None = None
    lines_in: int = 0
    bad_lines: int = 0
    dropped_writes: int = 0

    def as_dict(self) -> dict[str, object]:
        return {
            "port": self.port,
            "state": self.state,
            "kinds": list(self.kinds),
            "version": self.version,
            "name": self.name,
            "error": self.error,
            "since": self.since,
            "last_seen": self.last_seen,
            "lines_in": self.lines_in,
            "bad_lines": self.bad_lines,
            "dropped_writes": self.dropped_writes,
        }


LineHandler = Callable[["SerialDevice", "bytes | ProtocolError"], None]
StateHandler = Callable[["SerialDevice"], None]


class SerialDevice:
    """One port and its reader thread.

    ``on_line`` runs on that thread for every line or bad line; ``on_state`` runs when the port
    connects or disconnects. Neither should raise (errors are logged, the thread goes on).
    """

    def __init__(
        self,
        url: str,
        on_line: LineHandler,
        on_state: StateHandler | None = None,
        *,
        baudrate: int = BAUDRATE,
        kinds: tuple[str, ...] = (),
        retry_interval: float = 0.5,
        heartbeat: float = 5.0,
        read_timeout: float = 0.05,
        stale_after: float = 2.0,
    ) -> None:
        self.url = url
        self.on_line = on_line
        self.on_state = on_state
        self.baudrate = baudrate
        self.configured_kinds = kinds
        self.retry_interval = retry_interval
        self.heartbeat = heartbeat
        self.read_timeout = read_timeout
        self.status = DeviceStatus(url, kinds=kinds)
        self.lines = LineAssembler(stale_after=stale_after)
        self._port: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_ping = 0.0
        self._stalled_until = 0.0
        self.answers_ping = False
        """The device answered a PING with PONG on this connection: it gets the heartbeat (a
        device that does not know PING is not pestered with one every few seconds)."""
        self.connections = 0
        """How many times the port has been opened."""

    # ---- life cycle --------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"serial {self.url}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close(None)

    @property
    def connected(self) -> bool:
        return self._port is not None

    def send(self, message: Message | bytes) -> bool:
        """Write one line; False (and the device marked disconnected) when the port is gone."""
        data = message if isinstance(message, bytes) else message.line()
        with self._write_lock:
            port = self._port
            if port is None:
                return False
            if time.monotonic() < self._stalled_until:  # it read nothing a moment ago
                self.status.dropped_writes += 1
                return False
            try:
                # no flush(): tcdrain has no timeout, and a stalled port must not hold the lock
                port.write(data)
                return True
            except serial.SerialTimeoutException:
                # the device does not read what it is sent: the line is lost, the port stays,
                # and lines to it are dropped at once for a while (its input must not wait)
                self._stalled_until = time.monotonic() + STALL_PAUSE
                self.status.dropped_writes += 1
                if self.status.dropped_writes in (1, 10, 100, 1000):
                    log.warning(
                        "serial %s: the device reads nothing; %d lines to it dropped",
                        self.url,
                        self.status.dropped_writes,
                    )
                return False
            except PORT_ERRORS as exc:
                error = str(exc) or type(exc).__name__
        log.warning("serial %s: write failed: %s", self.url, error)
        self._close(error)
        return False

    # ---- the reader thread ---------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._port is None and not self._open():
                self._stop.wait(self.retry_interval)
                continue
            try:
                self._read_once()
            except PORT_ERRORS as exc:
                log.warning("serial %s: disconnected: %s", self.url, exc)
                self._close(str(exc))
            except Exception:  # a bug in a handler must not end the thread
                log.exception("serial %s: error while handling input", self.url)

    def _open(self) -> bool:
        try:
            port = serial.serial_for_url(
                self.url,
                baudrate=self.baudrate,
                timeout=self.read_timeout,
                write_timeout=WRITE_TIMEOUT,
                exclusive=True,  # a second kiosk (or a stale one) must not share the port
            )
        except OPEN_ERRORS as exc:
            if self.status.error != str(exc):
                log.info("serial %s: cannot open: %s", self.url, exc)
                self.status.error = str(exc)
            return False
        with self._write_lock:
            self._port = port
        self.lines.reset()
        self.connections += 1
        self.status.state = CONNECTED
        self.status.error = None
        self.status.since = time.time()
        self._stalled_until = 0.0
        self.answers_ping = False
        self.status.kinds = self.configured_kinds
        self.status.version = None
        self.status.name = None
        self._last_ping = time.monotonic()
        log.info("serial %s: connected", self.url)
        self._notify_state()
        return True

    def _close(self, error: str | None) -> None:
        with self._write_lock:
            port, self._port = self._port, None
        if port is None:
            return
        with contextlib.suppress(*PORT_ERRORS):
            port.close()
        self.status.state = DISCONNECTED
        self.status.error = error
        self.status.since = time.time()
        self._notify_state()

    def _notify_state(self) -> None:
        if self.on_state is None:
            return
        try:
            self.on_state(self)
        except Exception:
            log.exception("serial %s: state handler failed", self.url)

    def _read_once(self) -> None:
        port = self._port
        if port is None:
            return
        data = port.read(max(1, port.in_waiting))
        items: list[bytes | ProtocolError] = self.lines.feed(data) if data else []
        stale = self.lines.expire()
        if stale is not None:
            items.append(stale)
        for item in items:
            self.status.last_seen = time.time()
            if isinstance(item, bytes):
                self.status.lines_in += 1
            self.on_line(self, item)
        if (
            self.heartbeat > 0
            and self.answers_ping
            and time.monotonic() - self._last_ping >= self.heartbeat
        ):
            self._last_ping = time.monotonic()
            self.send(Ping())
