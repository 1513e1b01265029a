"""Waiting for what happens on another thread, in another process or on a screen."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(check: Callable[[], object], what: str = "the condition", timeout: float = 10.0
               ) -> None:
    """Return once ``check()`` is true; fail with ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out: {what}")
        time.sleep(0.02)
