"""The stream overlay: the table with every hole card entered, the odds computed with them, the
pot and the action, shown as it was ``overlay_delay`` seconds ago (a house option).

Every change of the table is kept as a frame (the hand's settings and events and the setup, taken
at once; the overlay's views and odds made from them later, off the request path); a delivery loop
sends each frame to the overlay's screens only when its
time plus the delay has passed, so a hole card reaches them only through the delay. The overlay's
screens connect to the Socket.IO namespace ``/overlay`` with the secret token of its link, which
the dealer can renew (every screen of the old link is then disconnected); they never join the
rooms of the spectator's public page.
"""

from __future__ import annotations

import copy
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.events import Event
from engine.hand import Hand
from engine.i18n import LANGUAGES
from engine.odds import Problem, hand_problem
from engine.settings import GameSettings
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
class Moment:
    """The table at one moment, as :func:`kiosk.presenter.present` reads a table: its setup and
    its hand, the hand kept as its settings and events (replayed when it is shown)."""

    _setup: dict[str, Any]
    version: int
    settings: GameSettings | None
    events: tuple[Event, ...]
    hand_id: int | None
    hand_number: int
    notice: None = None
    show_night: bool = False
    """The stream never shows the night's money (:func:`kiosk.night_view.night_of`)."""
    _hand: Hand | None = None

    @property
    def hand(self) -> Hand | None:
        if self._hand is None and self.settings is not None:
            hand = Hand(self.settings)
            for event in self.events:
                hand.push(event)
            self._hand = hand
        return self._hand


@dataclass(slots=True)
class Frame:
    """A moment of the table, shown on the overlay once the delay has passed. Kept small (the
    hand's events, not its views: an hour's delay holds in little memory); its odds are computed
    off the request path when someone watches, its views when it is sent."""

    at: float
    """``time.monotonic()`` of the change."""
    wall: float
    """``time.time()`` of the change (shown on the overlay)."""
    moment: Moment
    lock: threading.Lock = field(default_factory=threading.Lock)
    seats: tuple[int, ...] = ()
    problem: Problem | None = None
    solved: bool = False
    odds: dict[str, Any] | None = None
    sent: bool = False
    asked: bool = False

    def find_problem(self) -> Problem | None:
        """The problem of the frame's odds: every card entered (once)."""
        with self.lock:
            if not self.solved:
                hand = self.moment.hand
                found = None if hand is None else hand_problem(hand, "all")
                if found is not None:
                    self.seats, self.problem = found
                self.solved = True
                self.moment._hand = None
            return self.problem

    def payload(self, lang: str, delay: int) -> dict[str, Any]:
        with self.lock:
            state = present(self.moment, "overlay", lang)
            self.moment._hand = None
        return {"state": state, "odds": self.odds, "delay": delay, "at": round(self.wall, 3)}


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
        """Keep the table as it is now (called after every change, under the table's lock: only
        what the moment is made of is taken, its views come later)."""
        hand = table.hand
        setup = table._setup
        with self._lock:
            last = self._frames[-1].moment._setup if self._frames else None
        kept = last if last == setup else copy.deepcopy(setup)
        moment = Moment(kept, table.version, None if hand is None else hand.settings,
                        () if hand is None else tuple(hand.events), table.hand_id,
                        table.hand_number)
        frame = Frame(time.monotonic(), time.time(), moment)
        with self._lock:
            self._frames.append(frame)
            watched = bool(self._screens)
        if watched:
            self._ask_odds(frame)

    def _ask_odds(self, frame: Frame) -> None:
        """Make the frame's views and odds off the request path (once someone watches)."""
        if frame.asked:
            return
        frame.asked = True
        self.worker.submit(lambda: self._odds(frame))

    def _odds(self, frame: Frame) -> None:
        problem = frame.find_problem()
        if problem is None:
            return
        frame.odds = odds_payload(frame.seats, problem.key, self.worker.odds(problem))
        if frame.sent and frame is self._current:
            self._send(frame)  # the odds came after the frame: send it again

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
