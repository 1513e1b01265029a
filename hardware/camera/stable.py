"""From per-frame readings to stable proposals, and the recognition loop that produces them.

A card read in one frame may be a flicker (a hand passing, glare). :class:`Stabilizer` proposes a
card once it has been read in ``need`` of the last ``window`` frames, and reports its median
confidence and latest position; it forgets a card no longer seen in the window.

:class:`CameraLoop` runs recognition on the newest frames of a :class:`~.capture.Capture` in
background reader threads (``Follow.readers``, each taking the newest frame not taken yet; frames
arriving while all are reading are skipped, never queued) and calls ``on_proposals`` with the
stable readings after every frame, in the frames' order. A frame that does not differ from
the last one read (:class:`FrameChange`: nothing on the table moved) is not read again, and brings
the stabiliser nothing new: the proposals stand as they are. A still table so costs a reading
a second after it settled, then 2 and 4 s later and every 4 s from then on (``Follow.reread_s``,
``Follow.reread_most_s``), instead of every frame, and the CPU is left to the rest of the kiosk (the
dealer screen's browser runs on the same board). After a change the next frames are all read
(``Follow.settle_reads``), so that a card that has just landed is proposed as soon as before.
Where the house asks for it (``detail``), a table that has settled is read in detail
(``Follow.detail_reads``; :meth:`~hardware.camera.recognize.Recognizer.read`): small indices are
read enlarged as well, at about three times the work of a frame.
With a learned deck (``deck``: the table's :class:`~hardware.camera.readers.DeckFile`, asked at
every frame), every frame is read with it; when it changes (an example added or taken out) the
next frames are read again, as after a change on the table, so that what was learned is used at
once.
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

from hardware.camera import DeckFile
from hardware.camera.capture import Capture, Image
from hardware.camera.params import DEFAULT, Follow
from hardware.camera.readers import DeckCache, Reader, ReaderProcess
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
    change; so does a change of the frame's size, and an empty frame (left to the recogniser
    to report)."""

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
        if self._last is None or frame.size == 0:
            return True
        small = self._small(frame)
        if small.shape != self._last.shape:
            return True
        return int(np.count_nonzero(cv2.absdiff(small, self._last) > self.level)) >= self.pixels

    def remember(self, frame: Image) -> None:
        self._last = self._small(frame) if frame.size else None


class CameraLoop:
    """Recognition of the newest captured frames, in background reader threads.

    Each of ``follow.readers`` threads takes the newest frame no reader has taken yet and reads
    it with a recogniser of its own (``recognizer`` and its :meth:`~Recognizer.twin`); the
    readings are handed on in the order of their frames. While more than one reader runs, OpenCV
    is set to one thread (``cv2.setNumThreads``, for the whole process, until :meth:`stop`):
    each reader keeps a core busy. With ``processes``, each reader thread reads through a
    recogniser in a process of its own (:class:`~hardware.camera.readers.ReaderProcess`, reading
    as a plain :class:`Recognizer` of ``recognizer``'s classifiers and threshold), started with
    the loop and ended by :meth:`stop`; this process's OpenCV is then left as it is. ``deck``
    gives the learned deck to read with (asked at every frame); :attr:`frame` is the picture the
    reading last handed on was read from (for ``on_proposals`` to cut examples out of).
    ``follow``: the loop's settings, its number of readers among them."""

    def __init__(self, capture: Capture, recognizer: Recognizer,
                 on_proposals: Callable[[list[Proposal], FrameResult], None],
                 stabilizer: Stabilizer | None = None,
                 on_error: Callable[[Exception], None] | None = None,
                 change: FrameChange | None = None,
                 detail: Callable[[], bool] | None = None, processes: bool = False,
                 deck: Callable[[], DeckFile | None] | None = None,
                 follow: Follow = DEFAULT.follow) -> None:
        if follow.readers < 1:
            raise ValueError(f"readers {follow.readers}: at least one")
        self.capture = capture
        self.recognizer = recognizer
        self.processes = processes
        #: the reader processes while the loop runs (with ``processes``)
        self.reader_processes: list[ReaderProcess] = []
        self.stabilizer = stabilizer or Stabilizer()
        self.change = change or FrameChange()
        self._on_proposals = on_proposals
        self._on_error = on_error
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._opencv_threads: int | None = None  # OpenCV's threads before the readers started
        #: frames recognised, and frames that counted the last reading again (nothing moved)
        self.frames_read = 0
        self.frames_reused = 0
        self._take = threading.Lock()  # one reader at a time takes a frame
        #: the frames taken and not handed on yet, oldest first; a reader hands its frame's
        #: reading on when its frame is the oldest
        self._order: deque[int] = deque()
        self._turn = threading.Condition()
        self._seq = 0  # the last frame taken
        self._last: FrameResult | None = None  # the last reading taken or handed on
        self._last_at = 0.0
        self.follow = follow
        self._reread = follow.reread_s  # the wait before a still table is read again
        self._settle = 0  # frames still to read since the last change
        #: whether a table lying still is read in detail (asked at every frame: a house setting)
        self._wants_detail = detail or (lambda: False)
        self._detail = 0  # frames still to read in detail once the change has settled
        self._wanted = False  # whether the last frame taken was to be read in detail
        #: the learned deck to read with (asked at every frame), the one the last frame taken
        #: was read with, and the decks loaded for readers in this process
        self._wants_deck = deck or (lambda: None)
        self._deck: DeckFile | None = None
        self._decks = DeckCache()
        #: the picture of the reading last handed on
        self.frame: Image | None = None

    def start(self) -> CameraLoop:
        if not self._threads:
            readers: list[Reader]
            if self.processes:
                self.reader_processes = [ReaderProcess.of(self.recognizer).start()
                                         for _ in range(self.follow.readers)]
                readers = list(self.reader_processes)
            else:
                if self.follow.readers > 1:
                    self._opencv_threads = cv2.getNumThreads()
                    cv2.setNumThreads(1)
                readers = [self.recognizer]
                readers += [self.recognizer.twin() for _ in range(self.follow.readers - 1)]
            self._threads = [threading.Thread(target=self._run, args=(r,), daemon=True,
                                              name=f"camera-recognition-{k + 1}")
                             for k, r in enumerate(readers)]
            for thread in self._threads:
                thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)
        self._threads = []
        for process in self.reader_processes:
            process.close()
        self.reader_processes = []
        if self._opencv_threads is not None:
            cv2.setNumThreads(self._opencv_threads)
            self._opencv_threads = None

    def _next(self) -> tuple[int, Image, FrameResult | None, bool, DeckFile | None] | None:
        """The newest frame not taken yet; the last reading when it is to count again (nothing
        moved), else None: the frame is to be read; and whether it is read in detail (the
        table has been still since the frames read after its last change)."""
        with self._take:
            seq, frame = self.capture.wait_frame(self._seq, timeout=0.5)
            if frame is None or seq == self._seq:
                return None
            self._seq = seq
            now = time.monotonic()
            follow = self.follow
            last = self._last
            wants = self._wants_detail()
            deck = self._wants_deck()
            if last is None or deck != self._deck or self.change.changed(frame):
                self._deck = deck
                self._settle = follow.settle_reads
                self._detail = follow.detail_reads if wants else 0
                self._reread = follow.reread_s
            elif wants and not self._wanted:  # asked from now on: read in detail at once
                self._detail = follow.detail_reads
            self._wanted = wants
            detail = wants and self._settle == 0 and follow.detail_reads > 0
            settled = self._settle == 0 and (self._detail == 0 or not wants)
            if settled and now - self._last_at < self._reread:
                reuse = last
            else:
                reuse = None
                if settled:  # a reread of a still table: the next one waits longer
                    self._reread = follow.longer(self._reread)
                if detail:
                    self._detail = max(0, self._detail - 1)
                self._settle = max(0, self._settle - 1)
                self.change.remember(frame)
                self._last_at = now
            with self._turn:
                self._order.append(seq)
            return seq, frame, reuse, detail, deck

    def _run(self, recognizer: Reader) -> None:
        while not self._stop.is_set():
            try:
                taken = self._next()
            except Exception as exc:  # a frame the change check could not compare
                if self._on_error is not None:
                    self._on_error(exc)
                time.sleep(0.1)
                continue
            if taken is None:
                continue
            seq, frame, last, detail, deck = taken
            result: FrameResult | None = last
            failed: Exception | None = None
            if last is None:
                try:
                    if deck is None:
                        result = recognizer.read(frame, detail=detail)
                    elif isinstance(recognizer, ReaderProcess):
                        result = recognizer.read(frame, detail=detail, deck=deck)
                    else:
                        result = recognizer.read(frame, detail=detail,
                                                 deck=self._decks.get(deck))
                except Exception as exc:  # keep the loop alive; report what went wrong
                    failed = exc
            with self._turn:
                # in the frames' order: a frame whose last reading counts again waits for the
                # frames before it still being read
                while self._order[0] != seq:
                    self._turn.wait()
                self._order.popleft()
                try:
                    self._hand_on(result, last is None, failed, frame)
                finally:
                    self._turn.notify_all()

    def _hand_on(self, result: FrameResult | None, read: bool, failed: Exception | None,
                 frame: Image) -> None:
        if failed is not None or result is None:
            self._last = None  # the next frame is read whatever moved
            if failed is not None and self._on_error is not None:
                self._on_error(failed)
            return
        if read:
            self._last = result
            self.frame = frame
            self.frames_read += 1
            proposals = self.stabilizer.update(result)
        else:
            self.frames_reused += 1
            proposals = self.stabilizer.carry()
        try:
            self._on_proposals(proposals, result)
        except Exception as exc:
            if self._on_error is not None:
                self._on_error(exc)
