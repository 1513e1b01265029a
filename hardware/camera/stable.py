"""From per-frame readings to stable proposals, and the recognition loop that produces them.

A card read in one frame may be a flicker (a hand passing, glare). :class:`Stabilizer` proposes a
card once it has been read in ``need`` of the last ``window`` frames, and reports its median
confidence and latest position; it forgets a card no longer seen in the window.

:class:`CameraLoop` runs recognition on the newest frame of a :class:`~.capture.Capture` in its own
thread (frames arriving while a frame is read are skipped, never queued) and calls
``on_proposals`` with the stable readings after every frame. A frame that does not differ from
the last one read (:class:`FrameChange`: nothing on the table moved) is not read again, and brings
the stabiliser nothing new: the proposals stand as they are. A still table so costs a reading
about once a second instead of every frame, and the CPU is left to the rest of the kiosk (the
dealer screen's browser runs on the same board). After a change the next frames are all read
(:data:`SETTLE_READS`), so that a card that has just landed is proposed as soon as before.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from hardware.camera.capture import Capture, Image
from hardware.camera.recognize import CardReading, FrameResult, Recognizer


@dataclass(frozen=True, slots=True)
class Proposal:
    card: str
    confidence: float
    quad: tuple[tuple[float, float], ...]
    frames: int  # in how many of the last frames it was read
    first_seen: float  # time.monotonic() of the first frame of the current streak
    center: tuple[float, float] = (0.0, 0.0)  # the read index, in image pixels
    #: frames in a row it has been read in, or lain unchanged since it was read (unbounded,
    #: unlike ``frames``: what a house's "frames in a row" for auto-confirmation counts)
    streak: int = 0


class Stabilizer:
    def __init__(self, need: int = 3, window: int = 5) -> None:
        if not 1 <= need <= window:
            raise ValueError(f"need {need} of window {window}: need must be 1..window")
        self.need = need
        self.window = window
        self._history: deque[dict[str, CardReading]] = deque(maxlen=window)
        self._first_seen: dict[str, float] = {}
        self._streak: dict[str, int] = {}

    def update(self, result: FrameResult, now: float | None = None) -> list[Proposal]:
        """A frame read: its readings join the window."""
        now = time.monotonic() if now is None else now
        frame = {c.card: c for c in result.cards}
        self._history.append(frame)
        self._streak = {card: self._streak.get(card, 0) + 1 for card in frame}
        for card in frame:
            self._first_seen.setdefault(card, now)
        seen = {card for f in self._history for card in f}
        for card in list(self._first_seen):
            if card not in seen:
                del self._first_seen[card]
        return self._proposals()

    def carry(self) -> list[Proposal]:
        """A frame not read because nothing moved: the window is left as it is, and the cards of
        the last reading, still lying there as read, have lain one frame more."""
        self._streak = {card: n + 1 for card, n in self._streak.items()}
        return self._proposals()

    def _proposals(self) -> list[Proposal]:
        seen = {card for f in self._history for card in f}
        proposals = []
        for card in seen:
            readings = [f[card] for f in self._history if card in f]
            if len(readings) < self.need:
                continue
            proposals.append(Proposal(
                card=card,
                confidence=statistics.median(r.confidence for r in readings),
                quad=readings[-1].quad,
                frames=len(readings),
                first_seen=self._first_seen[card],
                center=readings[-1].index_center,
                streak=self._streak.get(card, 0),
            ))
        proposals.sort(key=lambda p: p.card)
        return proposals

    def reset(self) -> None:
        self._history.clear()
        self._first_seen.clear()
        self._streak.clear()


class FrameChange:
    """Whether a frame differs from the last one read.

    Both are compared a quarter of their size, grey and lightly blurred: camera noise and stream
    compression then move a pixel by 2 levels or so, while a card, a hand or a chip moved
    anywhere changes dozens of pixels by far more than ``level``. ``pixels`` such pixels make a
    change; so does a change of the frame's size."""

    def __init__(self, level: int = 12, pixels: int = 4) -> None:
        self.level = level
        self.pixels = pixels
        self._last: Image | None = None

    @staticmethod
    def _small(frame: Image) -> Image:
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        h, w = gray.shape[:2]
        small = cv2.resize(gray, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
        return np.asarray(cv2.GaussianBlur(small, (3, 3), 0), dtype=np.uint8)

    def changed(self, frame: Image) -> bool:
        """True when ``frame`` differs from the last frame :meth:`remember` was given."""
        if self._last is None:
            return True
        small = self._small(frame)
        if small.shape != self._last.shape:
            return True
        return int(np.count_nonzero(cv2.absdiff(small, self._last) > self.level)) >= self.pixels

    def remember(self, frame: Image) -> None:
        self._last = self._small(frame)


#: a still table is read again at least this often (seconds), whatever :class:`FrameChange` says
REREAD_S = 1.0
#: frames read, whatever :class:`FrameChange` says, from the one that changed on (a stabiliser's
#: window of readings of their own)
SETTLE_READS = 5


class CameraLoop:
    """Recognition of the newest captured frame, in a background thread."""

    def __init__(self, capture: Capture, recognizer: Recognizer,
                 on_proposals: Callable[[list[Proposal], FrameResult], None],
                 stabilizer: Stabilizer | None = None,
                 on_error: Callable[[Exception], None] | None = None,
                 change: FrameChange | None = None) -> None:
        self.capture = capture
        self.recognizer = recognizer
        self.stabilizer = stabilizer or Stabilizer()
        self.change = change or FrameChange()
        self._on_proposals = on_proposals
        self._on_error = on_error
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: frames recognised, and frames that counted the last reading again (nothing moved)
        self.frames_read = 0
        self.frames_reused = 0

    def start(self) -> CameraLoop:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="camera-recognition",
                                            daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        seq = 0
        last: FrameResult | None = None
        proposals: list[Proposal] = []
        last_at = 0.0
        settle = 0  # frames still to read since the last change
        while not self._stop.is_set():
            new_seq, frame = self.capture.wait_frame(seq, timeout=0.5)
            if frame is None or new_seq == seq:
                continue
            seq = new_seq
            now = time.monotonic()
            if last is None or self.change.changed(frame):
                settle = SETTLE_READS
            if settle == 0 and last is not None and now - last_at < REREAD_S:
                # nothing moved: nothing new to count, the proposals stand as they are
                result = last
                self.frames_reused += 1
                proposals = self.stabilizer.carry()
            else:
                settle = max(0, settle - 1)
                try:
                    result = self.recognizer.read(frame)
                except Exception as exc:  # keep the loop alive; report what went wrong
                    if self._on_error is not None:
                        self._on_error(exc)
                    last = None
                    continue
                self.change.remember(frame)
                last, last_at = result, now
                self.frames_read += 1
                proposals = self.stabilizer.update(result)
            try:
                self._on_proposals(proposals, result)
            except Exception as exc:
                if self._on_error is not None:
                    self._on_error(exc)
