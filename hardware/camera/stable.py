"""From per-frame readings to stable proposals, and the recognition loop that produces them.

A card read in one frame may be a flicker (a hand passing, glare). :class:`Stabilizer` proposes a
card once it has been read in ``need`` of the last ``window`` frames, and reports its median
confidence and latest position; it forgets a card no longer seen in the window.

:class:`CameraLoop` runs recognition on the newest frame of a :class:`~.capture.Capture` in its own
thread (frames arriving while a frame is read are skipped, never queued) and calls
``on_proposals`` with the stable readings after every frame.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from hardware.camera.capture import Capture
from hardware.camera.recognize import CardReading, FrameResult, Recognizer


@dataclass(frozen=True, slots=True)
class Proposal:
    card: str
    confidence: float
    quad: tuple[tuple[float, float], ...]
    frames: int  # in how many of the last frames it was read
    first_seen: float  # time.monotonic() of the first frame of the current streak
    center: tuple[float, float] = (0.0, 0.0)  # the read index, in image pixels


class Stabilizer:
    def __init__(self, need: int = 3, window: int = 5) -> None:
        if not 1 <= need <= window:
            raise ValueError(f"need {need} of window {window}: need must be 1..window")
        self.need = need
        self.window = window
        self._history: deque[dict[str, CardReading]] = deque(maxlen=window)
        self._first_seen: dict[str, float] = {}

    def update(self, result: FrameResult, now: float | None = None) -> list[Proposal]:
        now = time.monotonic() if now is None else now
        frame = {c.card: c for c in result.cards}
        self._history.append(frame)
        for card in frame:
            self._first_seen.setdefault(card, now)
        seen = {card for f in self._history for card in f}
        for card in list(self._first_seen):
            if card not in seen:
                del self._first_seen[card]
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
            ))
        proposals.sort(key=lambda p: p.card)
        return proposals

    def reset(self) -> None:
        self._history.clear()
        self._first_seen.clear()


class CameraLoop:
    """Recognition of the newest captured frame, in a background thread."""

    def __init__(self, capture: Capture, recognizer: Recognizer,
                 on_proposals: Callable[[list[Proposal], FrameResult], None],
                 stabilizer: Stabilizer | None = None,
                 on_error: Callable[[Exception], None] | None = None) -> None:
        self.capture = capture
        self.recognizer = recognizer
        self.stabilizer = stabilizer or Stabilizer()
        self._on_proposals = on_proposals
        self._on_error = on_error
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.frames_read = 0

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
        while not self._stop.is_set():
            new_seq, frame = self.capture.wait_frame(seq, timeout=0.5)
            if frame is None or new_seq == seq:
                continue
            seq = new_seq
            try:
                result = self.recognizer.read(frame)
            except Exception as exc:  # keep the loop alive; report what went wrong
                if self._on_error is not None:
                    self._on_error(exc)
                continue
            self.frames_read += 1
            proposals = self.stabilizer.update(result)
            try:
                self._on_proposals(proposals, result)
            except Exception as exc:
                if self._on_error is not None:
                    self._on_error(exc)
