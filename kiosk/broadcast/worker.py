"""Work off the request path: the odds (and the replays that need them) are computed by one
thread of their own, so that no entry, and no screen, waits for them.

Under gevent (``stud-kiosk serve``) the worker's thread is a greenlet like every connection's:
it waits for jobs and emits what they found from the event loop, while the arithmetic of the odds,
which would hold every connection up for as long as it runs, is done on a native thread
(:func:`kiosk.concurrency.blocking`).

Jobs are taken newest first: the TV wants the odds of the table as it is now, and a job whose
asker no longer wants it (the table moved on) is dropped. Odds are kept by their problem's key,
so that a betting round, which deals no card, asks for nothing new.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable

from engine.odds import Odds, OddsSettings, Problem, odds
from kiosk.concurrency import blocking

log = logging.getLogger(__name__)

Job = Callable[[], None]


class OddsWorker:
    """A thread that runs jobs one at a time, newest first, and keeps the odds it computed."""

    def __init__(self, settings: OddsSettings, cache: int = 512) -> None:
        self.settings = settings
        self._cache: OrderedDict[str, Odds] = OrderedDict()
        self._cache_most = cache
        self._jobs: list[tuple[Job, Callable[[], bool]]] = []
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._running = False
        self.computed = 0
        """Odds computed so far (not taken from the cache)."""

    def cached(self, key: str) -> Odds | None:
        with self._lock:
            return self._cache.get(key)

    def odds(self, found: Problem) -> Odds:
        """The odds of ``found``: kept ones, else computed now, on a native thread under gevent
        (call from a job)."""
        key = found.key
        kept = self.cached(key)
        if kept is not None:
            return kept
        result = blocking(lambda: odds(found, settings=self.settings))
        with self._lock:
            self.computed += 1
            self._cache[key] = result
            while len(self._cache) > self._cache_most:
                self._cache.popitem(last=False)
        return result

    def submit(self, job: Job, wanted: Callable[[], bool] = lambda: True) -> None:
        """Run ``job`` on the worker's thread, unless ``wanted()`` is False when its turn
        comes."""
        with self._lock:
            self._jobs.append((job, wanted))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="odds", daemon=True)
                self._thread.start()
            self._wake.notify_all()

    def request(self, found: Problem, done: Callable[[str, Odds], None],
                wanted: Callable[[], bool] = lambda: True) -> Odds | None:
        """The odds of ``found`` if kept; else None, and ``done(key, odds)`` is called from the
        worker's thread once they are computed (if still ``wanted``)."""
        kept = self.cached(found.key)
        if kept is not None:
            return kept
        self.submit(lambda: done(found.key, self.odds(found)), wanted)
        return None

    def _run(self) -> None:
        while True:
            with self._lock:
                self._running = False
                self._wake.notify_all()
                while not self._jobs:
                    self._wake.wait()
                job, wanted = self._jobs.pop()
                self._running = True
            try:
                if wanted():
                    job()
            except Exception:  # a job's failure must not stop the others
                log.exception("a broadcast job failed")

    def idle(self, timeout: float = 30.0) -> bool:
        """Wait until every job is done (tests, benchmarks); False if still busy at ``timeout``."""
        with self._lock:
            return self._wake.wait_for(lambda: not self._jobs and not self._running, timeout)
