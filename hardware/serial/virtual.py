"""The device side of a serial line, for the simulator and the tests.

:class:`VirtualPort` is a pseudo-terminal pair: the kiosk opens :attr:`VirtualPort.path` (the PTY's
slave, or a symbolic link to it) with pyserial exactly as it opens a USB device; the simulated
device reads and writes the master side. :meth:`VirtualPort.unplug` closes the pair as pulling the
cable would, :meth:`VirtualPort.replug` makes a new pair behind the same link.

:class:`PortEndpoint` is the same interface over a real port (or any pyserial URL), for playing a
device on one end of a null-modem cable or a ``socat`` pair.
"""

from __future__ import annotations

import collections
import contextlib
import os
import select
import time
import tty
from pathlib import Path

import serial

from hardware.serial.protocol import BAUDRATE


class Endpoint:
    """A device's end of the line: write bytes, read the kiosk's lines."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self._lines: collections.deque[str] = collections.deque()

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def read_some(self, timeout: float) -> bytes:
        """Bytes that arrived within ``timeout`` seconds (possibly none)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def send(self, line: str) -> None:
        """Write one line (``\\n`` added)."""
        self.write(line.encode("ascii") + b"\n")

    def read_lines(self, timeout: float = 0.0) -> list[str]:
        """Complete lines that have arrived, waiting up to ``timeout`` seconds for the first."""
        queued = list(self._lines)
        self._lines.clear()
        return queued + self._read_lines(0.0 if queued else timeout)

    def _read_lines(self, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        while True:
            data = self.read_some(max(0.0, min(0.05, deadline - time.monotonic())))
            self._pending += data
            if b"\n" in self._pending or time.monotonic() >= deadline:
                break
        *complete, rest = bytes(self._pending).split(b"\n")
        self._pending = bytearray(rest)
        return [line.rstrip(b"\r").decode("ascii", "replace") for line in complete]

    def read_line(self, timeout: float = 0.0) -> str | None:
        """The next line, waiting up to ``timeout`` seconds; None if none came."""
        if not self._lines:
            self._lines.extend(self._read_lines(timeout))
        return self._lines.popleft() if self._lines else None

    def expect(self, wanted: str, timeout: float = 5.0) -> list[str]:
        """Read lines until one equals ``wanted`` (or starts with it, when it ends in ``*``).

        Returns every line read; raises ``TimeoutError`` naming what did arrive.
        """
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        prefix = wanted[:-1] if wanted.endswith("*") else None
        while True:
            line = self.read_line(min(0.2, max(0.0, deadline - time.monotonic())))
            if line is not None:
                seen.append(line)
                if line == wanted or (prefix is not None and line.startswith(prefix)):
                    return seen
            elif time.monotonic() >= deadline:
                raise TimeoutError(f"expected {wanted!r} within {timeout} s; got {seen!r}")


class VirtualPort(Endpoint):
    """A PTY pair; the kiosk opens :attr:`path`. With ``link``, :attr:`path` is that symbolic link,
    which stays the same across :meth:`unplug` / :meth:`replug`."""

    def __init__(self, link: Path | str | None = None) -> None:
        super().__init__()
        self.link = Path(link) if link is not None else None
        self.master = -1
        self.slave = -1
        self.slave_name = ""
        self.plugged = False
        self.replug()

    @property
    def path(self) -> str:
        return str(self.link) if self.link is not None else self.slave_name

    def replug(self) -> None:
        """A fresh pair (the cable plugged in); the link, if any, points at the new slave."""
        if self.plugged:
            self.unplug()
        self.master, self.slave = os.openpty()
        # raw and without echo from the start: bytes written before the kiosk opens the port stay
        # intact and are not echoed back to the device
        tty.setraw(self.slave)
        self.slave_name = os.ttyname(self.slave)
        self._pending.clear()
        self._lines.clear()
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self.slave_name)
            os.replace(tmp, self.link)
        self.plugged = True

    def unplug(self) -> None:
        """Close both sides, as pulling the cable does: the kiosk's next read fails."""
        if not self.plugged:
            return
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.master = self.slave = -1
        self.plugged = False

    close = unplug

    def write(self, data: bytes) -> None:
        if not self.plugged:
            raise OSError("virtual port is unplugged")
        view = memoryview(data)
        while view:
            written = os.write(self.master, view)
            view = view[written:]

    def read_some(self, timeout: float) -> bytes:
        if not self.plugged:
            time.sleep(timeout)
            return b""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(self.master, 4096)
        except OSError:  # EIO: nobody has the slave open
            return b""


class PortEndpoint(Endpoint):
    """A device played on a real port or any pyserial URL."""

    def __init__(self, url: str, baudrate: int = BAUDRATE) -> None:
        super().__init__()
        self.url = url
        self.port = serial.serial_for_url(url, baudrate=baudrate, timeout=0)

    @property
    def path(self) -> str:
        return self.url

    def write(self, data: bytes) -> None:
        self.port.write(data)
        self.port.flush()

    def read_some(self, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        while True:
            data: bytes = self.port.read(max(1, self.port.in_waiting))
            if data or time.monotonic() >= deadline:
                return data
            time.sleep(min(0.01, max(0.0, deadline - time.monotonic())))

    def close(self) -> None:
        self.port.close()
