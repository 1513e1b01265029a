"""Socket.IO clients for the real server's tests: one that records every raw packet it receives."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import socketio


class RecordingClient(socketio.Client):  # type: ignore[misc]
    """A python-socketio client that keeps every raw Socket.IO packet it receives."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.raw: list[str] = []
        self.states: list[dict[str, Any]] = []
        self.got_state = threading.Event()
        self.on("state", self._state)

    def _handle_eio_message(self, data: Any) -> None:
        self.raw.append(data if isinstance(data, str) else repr(data))
        super()._handle_eio_message(data)

    def _state(self, state: dict[str, Any]) -> None:
        self.states.append(state)
        self.got_state.set()


def wait_for(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)
