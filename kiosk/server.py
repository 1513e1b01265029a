"""The server process of ``stud-kiosk serve``: gunicorn's gevent worker, with connection limits.

Every connection (a page, a screen's WebSocket, a long poll) is a greenlet of the worker's pool of
:attr:`ServerSettings.connections`. So that no other machine can fill that pool and keep the
kiosk's own screens out (the dealer's touchscreen opens ``http://127.0.0.1``), a connection from
another address is refused at once, with a ``503`` in words, when that address already holds
:attr:`ServerSettings.per_address` connections, or when other machines hold every connection but
the :attr:`ServerSettings.own_reserve` kept for this machine. docs/architecture.md, "The server".
"""

from __future__ import annotations

import os
import socket
from collections import Counter
from dataclasses import dataclass
from typing import Any

from gunicorn.workers.ggevent import GeventWorker

#: the addresses of this machine's own screens (the dealer's touchscreen), never refused
OWN_ADDRESSES = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})

REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    b"Connection: close\r\n"
    b"Retry-After: 5\r\n"
    b"Content-Length: %d\r\n\r\n%s"
)


#: seconds a refused connection is given to read its answer
REFUSAL_LINGER_S = 0.5


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """How many connections the server holds, and how many of them other machines may hold."""

    #: open connections at most (gunicorn's ``worker_connections``)
    connections: int = 2000
    #: open connections one other machine may hold (a TV needs a handful)
    per_address: int = 64
    #: connections only this machine's own screens may use
    own_reserve: int = 100

    def __post_init__(self) -> None:
        if self.connections < 2 or not 1 <= self.own_reserve < self.connections:
            raise ValueError(
                f"{self.connections} connections with {self.own_reserve} kept for this machine: "
                "allowed are at least 2 connections and a reserve from 1 to one less than them"
            )
        if self.per_address < 1:
            raise ValueError(f"{self.per_address} connections per address: at least 1")

    @property
    def others_most(self) -> int:
        """Connections all other machines together may hold."""
        return self.connections - self.own_reserve

    @classmethod
    def from_environment(cls, connections: int | None = None) -> ServerSettings:
        """``STUD_KIOSK_CONNECTIONS``, ``STUD_KIOSK_CONNECTIONS_PER_ADDRESS``; ``connections``
        (the command line) wins over the environment."""
        env = os.environ
        default = cls()
        total = connections or int(env.get("STUD_KIOSK_CONNECTIONS", default.connections))
        return cls(
            connections=total,
            per_address=int(env.get("STUD_KIOSK_CONNECTIONS_PER_ADDRESS", default.per_address)),
            own_reserve=min(default.own_reserve, max(1, total // 10)),
        )


class KioskWorker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker, refusing other machines' connections beyond their share."""

    settings = ServerSettings()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._open: Counter[str] = Counter()
        self._others = 0

    def handle(self, listener: Any, client: socket.socket, addr: Any) -> None:
        host = str(addr[0]) if isinstance(addr, tuple) else "local"
        own = host in OWN_ADDRESSES or host == "local"
        if not own and (
            self._open[host] >= self.settings.per_address
            or self._others >= self.settings.others_most
        ):
            self._refuse(client)
            return
        # one event loop: no other greenlet runs between the check and the count
        self._open[host] += 1
        self._others += not own
        try:
            super().handle(listener, client, addr)
        finally:
            self._open[host] -= 1
            if self._open[host] <= 0:
                del self._open[host]
            self._others -= not own

    def _refuse(self, client: socket.socket) -> None:
        from kiosk.i18n import ui_catalog

        lang = os.environ.get("STUD_KIOSK_LANG", "it")
        body = (ui_catalog().translate("server.full", lang) + "\n").encode()
        try:
            client.settimeout(REFUSAL_LINGER_S)
            client.sendall(REFUSAL % (len(body), body))
            client.shutdown(socket.SHUT_WR)
            # read what the client sends meanwhile: closing on unread bytes would reset the
            # connection, and the client might lose the answer
            while client.recv(4096):
                pass
        except OSError:
            pass
        finally:
            client.close()
