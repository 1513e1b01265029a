"""The stream overlay: the table with every hole card entered, the odds computed with them, the
pot and the action, shown as it was ``overlay_delay`` seconds ago (a house option).

Every change of the table is kept as a frame (the overlay's view in each language, taken at once,
and its odds' problem); a delivery loop sends each frame to the overlay's screens only when its
time plus the delay has passed, so a hole card reaches them only through the delay. The overlay's
screens connect to the Socket.IO namespace ``/overlay`` with the secret token of its link, which
the dealer can renew (every screen of the old link is then disconnected); they never join the
rooms of the spectator's public page.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.i18n import LANGUAGES
from engine.odds import Odds, Problem, hand_problem
from kiosk.broadcast.replays import odds_payload
from kiosk.broadcast.settings import BroadcastSettings
from kiosk.broadcast.worker import OddsWorker
from kiosk.extensions import socketio
from kiosk.presenter import present
from kiosk.table_setup import tv_options

if TYPE_CHECKING:
    from kiosk.service import TableService

NAMESPACE = "/overlay"
TOKEN_KEY = "overlay"


def token_key(table_id: int) -> str:
    """Where a table's overlay token is stored (beside its setup)."""
    return TOKEN_KEY if table_id == 1 else f"{TOKEN_KEY}:{table_id}"


def room(table_id: int, lang: str) -> str:
    return f"overlay{table_id}:{lang}"


@dataclass(slots=True)
class Frame:
    """The table at one moment, as the overlay will show it once the delay has passed."""

    at: float
    """``time.monotonic()`` of the change."""
    wall: float
    """``time.time()`` of the change (shown on the overlay)."""
    views: dict[str, dict[str, Any]]
    seats: tuple[int, ...] = ()
    problem: Problem | None = None
    odds: dict[str, Any] | None = None
    sent: bool = False
    asked: bool = field(default=False)

    def payload(self, lang: str, delay: int) -> dict[str, Any]:
        return {"state": self.views[lang], "odds": self.odds, "delay": delay,
                "at": round(self.wall, 3)}


class OverlayFeed:
    """One table's delayed feed: its frames, its token and its screens."""

    def __init__(self, table: TableService, worker: OddsWorker,
                 settings: BroadcastSettings) -> None:
        self.table = table
        self.worker = worker
        self.settings = settings
        self._frames: deque[Frame] = deque(maxlen=settings.overlay_frames_most)
        self._current: Frame | None = None
        self._lock = threading.Lock()
        self._screens: dict[str, str] = {}
        """sid -> language of every overlay screen of this process."""
        self._loop_running = False

    # -- the token ----
    def token(self) -> str:
        """The overlay link's secret (made on first use)."""
        stored = self.table.store.get(token_key(self.table.table_id))
        if isinstance(stored, dict) and isinstance(stored.get("token"), str):
            return str(stored["token"])
        return self.renew(disconnect=False)

    def renew(self, disconnect: bool = True) -> str:
        """A new secret: the old link stops working and its screens are disconnected."""
        token = secrets.token_urlsafe(18)
        self.table.store.put(token_key(self.table.table_id), {"token": token})
        if disconnect:
            with self._lock:
                sids = list(self._screens)
                self._screens.clear()
            for sid in sids:
                socketio.server.disconnect(sid, namespace=NAMESPACE)
        return token

    def valid(self, token: Any) -> bool:
        return isinstance(token, str) and secrets.compare_digest(token, self.token())

    def delay(self) -> int:
        return int(tv_options(self.table.setup())["overlay_delay"])

    # -- frames ----
    def record(self, table: TableService) -> None:
        """Keep the table as it is now (called after every change, under the table's lock)."""
        views = {lang: present(table, "overlay", lang) for lang in LANGUAGES}
        frame = Frame(time.monotonic(), time.time(), views)
        if table.hand is not None:
            found = hand_problem(table.hand, "all")
            if found is not None:
                frame.seats, frame.problem = found
        with self._lock:
            self._frames.append(frame)
            watched = bool(self._screens)
        if watched:
            self._ask_odds(frame)

    def _ask_odds(self, frame: Frame) -> None:
        """Compute the frame's odds off the request path (once someone watches)."""
        if frame.problem is None or frame.asked:
            return
        frame.asked = True
        problem = frame.problem

        def done(key: str, result: Odds) -> None:
            frame.odds = odds_payload(frame.seats, key, result)
            if frame.sent and frame is self._current:
                self._send(frame)  # the odds came after the frame: send it again

        kept = self.worker.request(problem, done)
        if kept is not None:
            frame.odds = odds_payload(frame.seats, problem.key, kept)

    def due(self) -> Frame | None:
        """The newest frame whose time has come (older ones are dropped), or the one shown."""
        limit = time.monotonic() - self.delay()
        with self._lock:
            while self._frames and self._frames[0].at <= limit:
                self._current = self._frames.popleft()
            return self._current

    def _next_due(self) -> float | None:
        with self._lock:
            return self._frames[0].at + self.delay() if self._frames else None

    def _send(self, frame: Frame) -> None:
        delay = self.delay()
        for lang in LANGUAGES:
            socketio.emit("frame", frame.payload(lang, delay), to=room(self.table.table_id, lang),
                          namespace=NAMESPACE)

    def _deliver_forever(self) -> None:
        """Send each frame when it is due, while any overlay screen is connected."""
        shown: Frame | None = None
        while True:
            with self._lock:
                if not self._screens:
                    self._loop_running = False
                    return
            frame = self.due()
            if frame is not None and frame is not shown:
                frame.sent = True
                self._send(frame)
                shown = frame
            wake = self._next_due()
            wait = self.settings.overlay_wake
            if wake is not None:
                wait = min(wait, max(0.0, wake - time.monotonic()))
            socketio.sleep(max(wait, 0.005))

    # -- screens ----
    def connected(self, sid: str, lang: str) -> Frame | None:
        """A screen joined: its frame now (never one not yet due), the delivery running."""
        with self._lock:
            self._screens[sid] = lang
            start = not self._loop_running
            self._loop_running = True
            waiting = list(self._frames)
        for frame in waiting:
            self._ask_odds(frame)
        current = self.due()
        if current is not None:
            self._ask_odds(current)
        if start:
            socketio.start_background_task(self._deliver_forever)
        return current

    def disconnected(self, sid: str) -> None:
        with self._lock:
            self._screens.pop(sid, None)

    def screen_lang(self, sid: str) -> str | None:
        with self._lock:
            return self._screens.get(sid)
