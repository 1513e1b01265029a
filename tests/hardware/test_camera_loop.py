"""The recognition loop on a still table and when cards land: real capture thread, real recogniser,
real OpenCV, on the committed camera scenes with fresh camera noise in every frame."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.camera.capture import Capture
from hardware.camera.params import DEFAULT, Follow
from hardware.camera.recognize import FrameResult, Recognizer, load_image
from hardware.camera.stable import (
    CameraLoop,
    FrameChange,
    Proposal,
    Stabilizer,
)
from tests.helpers.camera import EveryFrameChanged, NumberedCamera
from tests.helpers.waiting import wait_until

SCENES = Path(__file__).resolve().parent / "fixtures" / "camera"
SETTLE_READS = DEFAULT.follow.settle_reads
DETAIL_READS = DEFAULT.follow.detail_reads
REREAD_S = DEFAULT.follow.reread_s


def noisy(frame: Any, rng: np.random.Generator, sigma: float = 4.0) -> Any:
    return np.clip(frame.astype(np.float32) + rng.normal(0, sigma, frame.shape), 0, 255
                   ).astype(np.uint8)


class NoisyCamera:
    """A camera over a table: the scene it is shown, with new sensor noise in every frame."""

    description = "noisy camera"

    def __init__(self, scene: Any) -> None:
        self._rng = np.random.default_rng(7)
        self._lock = threading.Lock()
        self.show(self.frames_of(scene))

    def frames_of(self, scene: Any) -> list[Any]:
        """The frames the camera gives of ``scene`` (made ahead: it takes a while)."""
        return [noisy(scene, self._rng) for _ in range(4)]

    def show(self, frames: list[Any]) -> None:
        with self._lock:
            self._frames, self._i = frames, 0

    def read(self) -> Any:
        with self._lock:
            self._i += 1
            return self._frames[self._i % len(self._frames)]

    def close(self) -> None:
        pass


def test_frame_change_ignores_camera_noise_and_sees_what_moved() -> None:
    rng = np.random.default_rng(1)
    scene = load_image(SCENES / "scene01.jpg")
    change = FrameChange()
    assert change.changed(scene)  # nothing read yet
    change.remember(noisy(scene, rng))
    for _ in range(5):  # new noise, and the same frame through a JPEG stream
        assert not change.changed(noisy(scene, rng))
    ok, jpeg = cv2.imencode(".jpg", noisy(scene, rng), [cv2.IMWRITE_JPEG_QUALITY, 70])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    assert ok and decoded is not None and not change.changed(decoded)
    # a corner index's worth of print (12 x 30 px) turns up on the felt
    small = scene.copy()
    small[300:330, 600:612] = 255 - small[300:330, 600:612]
    assert change.changed(noisy(small, rng))
    assert change.changed(load_image(SCENES / "scene02.jpg"))  # cards dealt
    assert change.changed((scene * 0.85).astype(np.uint8))  # the lamp dimmed
    assert change.changed(cv2.resize(scene, (640, 360)))  # another camera mode


@pytest.mark.slow
def test_a_still_table_is_read_about_once_a_second_and_new_cards_at_once() -> None:
    recognizer = Noting()
    first, later = (load_image(SCENES / name) for name in ("scene01.jpg", "scene02.jpg"))
    on_first = {c.card for c in recognizer.read(first).cards}
    new_cards = {c.card for c in recognizer.read(later).cards} - on_first
    assert on_first and new_cards, (on_first, new_cards)
    camera = NoisyCamera(first)
    capture = Capture(lambda: camera, frame_interval_s=1 / 25)
    proposed: list[set[str]] = []
    streaks: list[int] = []
    reads: list[int] = []  # frames read so far, as each frame is handed on

    def on_proposals(props: list[Proposal], _result: FrameResult) -> None:
        proposed.append({p.card for p in props})
        streaks.append(max((p.streak for p in props), default=0))
        reads.append(loop.frames_read)

    loop = CameraLoop(capture, recognizer, on_proposals, Stabilizer(3, 5))
    capture.start()
    loop.start()
    try:
        started = time.monotonic()
        wait_until(lambda: loop.frames_read + loop.frames_reused >= 40, "40 frames", 60)
        still = time.monotonic() - started
        # the still table: the first frames read (a stabiliser's window of their own), then one
        # more per REREAD_S at most; the rest reuse the last reading
        assert loop.frames_read <= SETTLE_READS + 1 + still / REREAD_S, (loop.frames_read, still)
        assert loop.frames_reused >= 40 - loop.frames_read
        # and its cards are proposed all along, as when every frame was read: a frame not read
        # leaves the proposals as they stand (only a reading, once a second, may move a card
        # read near the threshold in or out)
        assert proposed[-1] & on_first, proposed[-1]
        was_read = [b > a for a, b in itertools.pairwise(reads[-11:])]
        assert was_read.count(False) >= 5, reads[-11:]
        moved = [b != a for a, b in itertools.pairwise(proposed[-11:])]
        assert all(r for r, m in zip(was_read, moved, strict=True) if m), (proposed[-11:],
                                                                           reads[-11:])
        # every frame counts toward "frames in a row", read or not
        assert streaks[-1] > 30 and streaks[-10:] == sorted(streaks[-10:]), streaks[-10:]

        # cards are dealt: the next frames are read, each for itself, and the new cards proposed
        dealt = camera.frames_of(later)
        read_before, handed_before = loop.frames_read, len(reads)
        camera.show(dealt)
        # in a row, once the new picture comes: a frame of the old picture may still be in each
        # reader and in the capture, and so come first, read or not
        wait_until(lambda: len(reads) > handed_before + 3 + SETTLE_READS, "the frames handed on",
                   10)
        after = reads[handed_before - 1:]
        was_read = [b > a for a, b in itertools.pairwise(after)]
        assert any(all(was_read[k:k + SETTLE_READS]) for k in range(4)), was_read
        assert loop.frames_read >= read_before + SETTLE_READS
        wait_until(lambda: bool(proposed[-1] & new_cards), "the new cards proposed", 10)
        # unless the house asks for it, no frame is read in detail
        assert recognizer.noted and not any(recognizer.noted), recognizer.noted
    finally:
        loop.stop()
        capture.stop()


class Noting(Recognizer):
    """The real recogniser, noting whether it read each frame in detail, and when it began."""

    def __init__(self, noted: tuple[list[bool], list[float]] | None = None) -> None:
        super().__init__()
        self.noted, self.times = noted if noted is not None else ([], [])

    def twin(self) -> Noting:
        return Noting((self.noted, self.times))

    def read(self, image: Any, detail: bool = False, deck: Any = None) -> FrameResult:
        self.times.append(time.monotonic())
        self.noted.append(detail)
        return super().read(image, detail, deck)


def test_a_settled_table_is_read_in_detail_where_the_house_asks_and_its_small_cards_proposed(
        ) -> None:
    # seen from farther off, some indices are too small to read at the frame's own scale
    scene = cv2.resize(load_image(SCENES / "scene01.jpg"), None, fx=0.7, fy=0.7,
                       interpolation=cv2.INTER_AREA)
    recognizer = Noting()
    plain = {c.card for c in recognizer.read(scene).cards}
    in_detail = {c.card for c in recognizer.read(scene, detail=True).cards} - plain
    assert len(in_detail) >= 2, in_detail
    recognizer.noted.clear()
    camera = NoisyCamera(scene)
    capture = Capture(lambda: camera, frame_interval_s=1 / 25)
    proposed: list[set[str]] = []
    loop = CameraLoop(capture, recognizer, lambda props, _r: proposed.append(
        {p.card for p in props}), Stabilizer(3, 5), detail=lambda: True)
    capture.start()
    loop.start()
    try:
        wait_until(lambda: bool(proposed) and in_detail <= proposed[-1],
                   "the cards read only in detail proposed", 30)
        # the frames read: the first at the frame's own scale, as fast as a card that lands
        # asks (a stabiliser's window, or one more while the first reading is under way), then
        # only in detail (two readers: the last of the first and the first detailed may start
        # either way round)
        noted = list(recognizer.noted)
        first = noted.index(True)
        assert SETTLE_READS - 1 <= first <= SETTLE_READS + 1, noted
        assert noted[first + 2:].count(False) == 0 and len(noted) >= first + DETAIL_READS, noted
        # the table moves: its next frames are read at its own scale again
        before = len(recognizer.noted)
        camera.show(camera.frames_of(cv2.flip(scene, 1)))
        wait_until(lambda: len(recognizer.noted) >= before + 3, "frames read after the change",
                   10)
        assert False in recognizer.noted[before:before + 3], recognizer.noted[before:]
    finally:
        loop.stop()
        capture.stop()


def test_a_table_lying_still_is_read_again_less_and_less_often_until_it_moves() -> None:
    scene = load_image(SCENES / "scene01.jpg")
    recognizer = Noting()
    camera = NoisyCamera(scene)
    capture = Capture(lambda: camera, frame_interval_s=1 / 25)
    first, most = 0.2, 0.8  # the waits before a reread
    loop = CameraLoop(capture, recognizer, lambda _p, _r: None, Stabilizer(3, 5),
                      follow=Follow(reread_s=first, reread_most_s=most))
    capture.start()
    loop.start()
    try:
        # the frames read as the loop starts (a stabiliser's window, or one more while the
        # first reading is under way), then rereads 0.2, 0.4 and 0.8 s apart, then every 0.8 s:
        # in the 6 s after the window, 8 rereads (fewer when the machine is busy); read every
        # 0.2 s, 30; the wait doubled without end, 4
        wait_until(lambda: len(recognizer.times) >= SETTLE_READS, "the table settled", 30)
        settled = recognizer.times[SETTLE_READS - 1]
        time.sleep(max(0.0, settled + 6.05 - time.monotonic()))
        reads = [t for t in recognizer.times if settled < t <= settled + 6.0]
        assert 6 <= len(reads) <= 12, [round(t - settled, 2) for t in reads]
        # the last of them at the longest wait
        assert all(b - a >= most - 0.02 for a, b in itertools.pairwise(reads[-4:])), reads
        # the table moves: its frames are read again, and once it has settled the first reread
        # comes after the first wait again, not the longest
        before = len(recognizer.times)
        camera.show(camera.frames_of(cv2.flip(scene, 1)))
        wait_until(lambda: len(recognizer.times) >= before + SETTLE_READS + 3,
                   "the frames read after the change and two rereads", 30)
        after = [b - a for a, b in itertools.pairwise(recognizer.times[before:])]
        timed = [gap for gap in after if gap > first - 0.02]
        assert timed and timed[0] < most - 0.1, after
    finally:
        loop.stop()
        capture.stop()


def test_a_still_table_is_read_in_detail_as_soon_as_the_house_asks() -> None:
    recognizer = Noting()
    camera = NoisyCamera(load_image(SCENES / "scene01.jpg"))
    capture = Capture(lambda: camera, frame_interval_s=1 / 25)
    wanted = threading.Event()
    loop = CameraLoop(capture, recognizer, lambda _p, _r: None, Stabilizer(3, 5),
                      detail=wanted.is_set, follow=Follow(reread_s=5.0, reread_most_s=30.0))
    capture.start()
    loop.start()
    try:
        wait_until(lambda: len(recognizer.noted) >= SETTLE_READS, "the table settled", 30)
        time.sleep(0.3)
        before = len(recognizer.noted)
        assert not any(recognizer.noted), recognizer.noted
        # the house asks for detail on a settled table: its next frames are read in detail at
        # once, not at its next reread, 5 s after it settled
        asked = time.monotonic()
        wanted.set()
        wait_until(lambda: len(recognizer.noted) >= before + DETAIL_READS,
                   "the frames read in detail", 20)
        assert time.monotonic() - asked < 4.0
        assert recognizer.noted[before:] == [True] * (len(recognizer.noted) - before)
    finally:
        loop.stop()
        capture.stop()


class NumberingRecognizer(Recognizer):
    """The real recogniser, noting which frame each reading is of, which thread read it and
    when."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[tuple[int, str, float, float]] = []
        self.of: dict[int, int] = {}

    def twin(self) -> NumberingRecognizer:
        other = NumberingRecognizer()
        other.reads, other.of = self.reads, self.of  # one record for both readers
        return other

    def read(self, image: Any, detail: bool = False, deck: Any = None) -> FrameResult:
        start = time.monotonic()
        result = super().read(image, detail, deck)
        number = int(image[0, 0, 0]) + 256 * int(image[0, 1, 0])
        self.of[id(result)] = number
        self.reads.append((number, threading.current_thread().name, start, time.monotonic()))
        return result


@pytest.mark.slow
def test_two_readers_read_frames_at_once_and_hand_them_on_in_their_order() -> None:
    recognizer = NumberingRecognizer()
    scene = load_image(SCENES / "scene02.jpg")
    cards = {c.card for c in recognizer.read(scene).cards}
    recognizer.reads.clear()
    camera = NumberedCamera(scene)
    capture = Capture(lambda: camera, frame_interval_s=1 / 60)
    handed: list[tuple[int, str, set[str]]] = []

    def on_proposals(props: list[Proposal], result: FrameResult) -> None:
        handed.append((recognizer.of[id(result)], threading.current_thread().name,
                       {p.card for p in props}))

    threads = cv2.getNumThreads()
    loop = CameraLoop(capture, recognizer, on_proposals, Stabilizer(3, 5),
                      change=EveryFrameChanged(), follow=Follow(readers=2))
    capture.start()
    loop.start()
    try:
        wait_until(lambda: len(handed) >= 12, "12 frames read", 60)
        # each reader on one OpenCV thread while they run
        assert cv2.getNumThreads() == 1
    finally:
        loop.stop()
        capture.stop()
    assert cv2.getNumThreads() == threads
    numbers = [n for n, _thread, _cards in handed]
    # every frame read is handed on, once, in the frames' order, by the reader that read it
    assert numbers == sorted(set(numbers)), numbers
    assert {(n, t) for n, t, _ in handed} <= {(n, t) for n, t, _s, _e in recognizer.reads}
    assert {t for _n, t, _ in handed} == {"camera-recognition-1", "camera-recognition-2"}
    # the two read at the same time: one started a frame while the other was still reading
    spans = sorted((s, e) for _n, _t, s, e in recognizer.reads)
    assert sum(later[0] < earlier[1] for earlier, later in itertools.pairwise(spans)) >= 5, spans
    # and the scene's cards are proposed, as with one reader
    assert cards and handed[-1][2] == cards, (cards, handed[-1][2])


class FaultyCamera:
    """A camera whose first frames are empty, then grey, then the scene in colour."""

    description = "faulty camera"

    def __init__(self, scene: Any, empty: int, grey: int) -> None:
        self.frames = ([np.zeros((0, 0, 3), np.uint8)] * empty
                       + [cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY)] * grey)
        self.scene = scene

    def read(self) -> Any:
        return self.frames.pop(0) if self.frames else self.scene

    def close(self) -> None:
        pass


@pytest.mark.slow
def test_frames_that_cannot_be_read_are_reported_and_the_readers_go_on() -> None:
    recognizer = Recognizer()
    scene = load_image(SCENES / "scene02.jpg")
    cards = {c.card for c in recognizer.read(scene).cards}
    capture = Capture(lambda: FaultyCamera(scene, empty=3, grey=5), frame_interval_s=1 / 30)
    errors: list[str] = []
    proposed: list[set[str]] = []
    loop = CameraLoop(capture, recognizer, lambda props, _r: proposed.append(
        {p.card for p in props}), Stabilizer(3, 5), on_error=lambda exc: errors.append(str(exc)))
    capture.start()
    loop.start()
    try:
        wait_until(lambda: bool(proposed) and proposed[-1] == cards, "the scene's cards", 30)
    finally:
        loop.stop()
        capture.stop()
    # each frame that could not be read is reported, saying what was wrong and what is expected
    assert errors, errors
    assert all("expected a colour (BGR) image" in e for e in errors), errors
    assert any("the image is empty" in e for e in errors), errors
    assert any("the image is empty" not in e for e in errors), errors  # the grey ones
    assert cards and loop.frames_read >= 3
