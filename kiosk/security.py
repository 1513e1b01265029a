"""The dealer's PIN and sessions: how guesses are slowed down, and how a lock really locks.

:class:`PinGuard` answers PIN attempts. Each attempt is counted as a failure *before* its hash is
checked (a right PIN takes its count back), so that parallel guesses cannot all pass the lockout
check; the lockout grows with the failures: after :attr:`SecuritySettings.free_per_address` of
them from one address, and after :attr:`SecuritySettings.free_others` from all other machines
together (so that changing addresses does not help), each further failure locks for twice as long
as the one before, up to :attr:`SecuritySettings.longest_lockout_s`. Guessing a 4-digit PIN (5,000
guesses on average) then takes months from any number of addresses. This machine's own
touchscreen (the loopback address) is counted apart from the others: a guesser on the LAN cannot
lock the dealer out of it. One PIN is checked at a time, in a native thread
(:func:`kiosk.concurrency.blocking`), with scrypt at 16 MiB: a burst of guesses costs one check's
memory, not one per guess.

:class:`DealerSessions` makes dealer sessions revocable by the server. A dealer session cookie
carries the *generation* of dealer sessions it was given in and when it was given; it is a dealer
session only while that generation is the current one and it is younger than
:attr:`SecuritySettings.session_hours`. Locking the screen, changing the PIN, or the table lying
idle for the house's ``lock_after_minutes`` starts a new generation (kept in the store, so that a
restart does not bring old cookies back) and disconnects every dealer socket at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from werkzeug.security import check_password_hash, generate_password_hash

from kiosk.concurrency import blocking
from kiosk.store import Store

log = logging.getLogger(__name__)

PIN_KEY = "dealer_pin_hash"
PIN_MIN, PIN_MAX = 4, 8
#: the addresses of this machine's own screens
OWN_ADDRESSES = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
OTHERS = "other machines"


@dataclass(frozen=True, slots=True)
class SecuritySettings:
    """How PIN guesses are slowed down, how long dealer sessions last, how large a body may be."""

    #: werkzeug's hash method for new PINs: scrypt, N=2^14, r=8, p=1 (16 MiB a check)
    pin_method: str = "scrypt:16384:8:1"
    #: wrong PINs from one address before the lockouts begin
    free_per_address: int = 3
    #: wrong PINs from all other machines together before the lockouts begin
    free_others: int = 10
    #: the first lockout; each one after it is twice as long, up to the longest
    first_lockout_s: float = 30.0
    longest_lockout_s: float = 3600.0
    #: failures are forgotten this long after the last of them
    forget_after_s: float = 24 * 3600.0
    #: a dealer session ends this long after the PIN was given, whatever happens
    session_hours: float = 12.0
    #: request bodies larger than this are refused before they are read (``MAX_CONTENT_LENGTH``)
    max_body_bytes: int = 64 * 1024

    def lockout_s(self, failures: int, free: int) -> float:
        """Seconds locked after the ``failures``-th failure in a row, ``free`` being free."""
        if failures <= free:
            return 0.0
        return float(min(self.longest_lockout_s,
                         self.first_lockout_s * 2.0 ** (failures - free - 1)))


@dataclass
class _Count:
    failures: int = 0
    last: float = 0.0
    until: float = 0.0


class Attempt:
    """A PIN attempt let through :meth:`PinGuard.attempt`: counted as failed until it succeeds."""

    def __init__(self, guard: PinGuard, keys: list[tuple[str, int]]) -> None:
        self._guard = guard
        self._keys = keys

    def succeeded(self) -> None:
        self._guard._succeeded(self._keys)


class PinGuard:
    """PIN attempts: counted first, locked out more and more, checked one at a time."""

    def __init__(self, store: Store, settings: SecuritySettings) -> None:
        self.store = store
        self.settings = settings
        self._counts: dict[str, _Count] = {}
        self._counts_lock = threading.Lock()
        self._check_lock = threading.Lock()

    def _keys(self, address: str) -> list[tuple[str, int]]:
        """The counters an attempt from ``address`` goes to, each with its free failures."""
        keys = [(address, self.settings.free_per_address)]
        if address not in OWN_ADDRESSES:
            keys.append((OTHERS, self.settings.free_others))
        return keys

    def attempt(self, address: str, now: float | None = None) -> Attempt | float:
        """Let an attempt from ``address`` through (an :class:`Attempt`, already counted as a
        failure), or the seconds until one may be made."""
        now = time.monotonic() if now is None else now
        keys = self._keys(address)
        with self._counts_lock:
            waits = [self._count(key, now).until - now for key, _free in keys]
            if max(waits) > 0:
                return max(waits)
            for key, free in keys:
                count = self._counts[key]
                count.failures += 1
                count.last = now
                count.until = now + self.settings.lockout_s(count.failures, free)
        return Attempt(self, keys)

    def _count(self, key: str, now: float) -> _Count:
        count = self._counts.setdefault(key, _Count())
        if count.failures and now - count.last > self.settings.forget_after_s:
            count.failures, count.until = 0, 0.0
        return count

    def _succeeded(self, keys: list[tuple[str, int]]) -> None:
        """The right PIN: its own address starts afresh; the others' count loses this attempt."""
        with self._counts_lock:
            for index, (key, free) in enumerate(keys):
                count = self._counts[key]
                if index == 0:
                    count.failures, count.until = 0, 0.0
                else:
                    count.failures = max(0, count.failures - 1)
                    count.until = count.last + self.settings.lockout_s(count.failures, free)

    # -- the PIN itself ----
    def pin_hash(self) -> str | None:
        stored = self.store.get(PIN_KEY)
        return str(stored) if stored else None

    def check(self, pin: str) -> bool:
        """Whether ``pin`` is the PIN: one check at a time, off the event loop; a PIN stored
        with other parameters is stored again with this kiosk's."""
        with self._check_lock:
            stored = self.pin_hash()
            if stored is None:
                return False
            right = blocking(lambda: check_password_hash(stored, pin))
            if right and not stored.startswith(self.settings.pin_method + "$"):
                try:
                    self.store.put(PIN_KEY, self.hash(pin))
                except Exception:  # a read-only store: the old hash still works
                    log.warning("the PIN could not be stored again with new parameters")
            return bool(right)

    def hash(self, pin: str) -> str:
        return str(blocking(lambda: generate_password_hash(pin, method=self.settings.pin_method)))


def pin_problem(pin: str) -> str | None:
    """The message key saying why ``pin`` cannot be a PIN, or None when it can."""
    if not (pin.isascii() and pin.isdigit()) or not PIN_MIN <= len(pin) <= PIN_MAX:
        return "pin.rule"
    return None


def _epoch_key(table_id: int) -> str:
    return "dealer_sessions" if table_id == 1 else f"dealer_sessions:{table_id}"


class DealerSessions:
    """The current generation of dealer sessions, the idle watch, and who to tell of a lock."""

    def __init__(self, store: Store, table_id: int, settings: SecuritySettings) -> None:
        self.store = store
        self.settings = settings
        self.key = _epoch_key(table_id)
        stored = store.get(self.key)
        self.epoch = int(stored) if isinstance(stored, int) else 0
        self.last_activity = time.monotonic()
        self.idle_minutes: Callable[[], float] = lambda: 0.0
        self._listeners: list[Callable[[str], None]] = []
        self._lock = threading.Lock()
        self._watching = False
        #: a session was given in the current generation (there is something to end)
        self._in_use = False

    def on_revoke(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(reason)`` when every dealer session has just ended."""
        self._listeners.append(listener)

    def grant(self) -> dict[str, Any]:
        """What a session cookie holds to be a dealer session of the current generation."""
        self.touch()
        self._in_use = True
        return {"dealer": True, "dealer_epoch": self.epoch, "dealer_since": time.time()}

    def valid(self, cookie: Any) -> bool:
        if not cookie.get("dealer") or cookie.get("dealer_epoch") != self.epoch:
            return False
        since = cookie.get("dealer_since")
        if not isinstance(since, int | float):
            return False
        return 0 <= time.time() - since < self.settings.session_hours * 3600

    def touch(self) -> None:
        """The dealer did something: the idle time starts again."""
        self.last_activity = time.monotonic()

    def revoke(self, reason: str) -> None:
        """End every dealer session now (``reason``: ``lock``, ``pin``, ``idle``)."""
        with self._lock:
            self.epoch += 1
            epoch = self.epoch
            self._in_use = False
        try:
            self.store.put(self.key, epoch)
        except Exception:  # a read-only store: the sessions end all the same, until a restart
            log.exception("the end of the dealer sessions could not be stored")
        for listener in self._listeners:
            try:
                listener(reason)
            except Exception:
                log.exception("telling of the end of the dealer sessions")

    def watch_idle(self, start_task: Callable[..., Any], sleep: Callable[[float], Any]) -> None:
        """Watch for the house's idle time (once per app, while one is set)."""
        with self._lock:
            if self._watching:
                return
            self._watching = True
        start_task(self._idle_loop, sleep)

    def _idle_loop(self, sleep: Callable[[float], Any]) -> None:
        try:
            while True:
                minutes = self.idle_minutes()
                if minutes <= 0:
                    return
                idle = time.monotonic() - self.last_activity
                if idle >= minutes * 60:
                    if self._in_use:
                        self.revoke("idle")
                    self.touch()
                    continue
                sleep(min(5.0, minutes * 60 - idle + 0.05))
        finally:
            with self._lock:
                self._watching = False
