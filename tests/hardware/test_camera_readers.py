"""Recognition in reader processes: real child processes reading the committed camera scenes,
killed as a crash would end them, and the recognition loop reading through them."""

from __future__ import annotations

import os
import platform
import signal
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera import DeckFile, readers
from hardware.camera.capture import Capture
from hardware.camera.deck import Deck
from hardware.camera.examples import example_at
from hardware.camera.params import Follow
from hardware.camera.readers import ReaderProcess, ReaderStopped
from hardware.camera.recognize import (
    FrameResult,
    RecognitionError,
    Recognizer,
    corner_of,
    load_image,
)
from hardware.camera.stable import CameraLoop, Proposal, Stabilizer
from tests.hardware.drawn import VALIDATION
from tests.helpers.camera import EveryFrameChanged, NumberedCamera, gone
from tests.helpers.waiting import wait_until

SCENES = Path(__file__).resolve().parent / "fixtures" / "camera"


@pytest.mark.slow
def test_a_reader_process_reads_as_the_recognizer_does_and_says_what_is_wrong() -> None:
    recognizer = Recognizer()
    scene = load_image(SCENES / "scene02.jpg")
    small = cv2.resize(load_image(SCENES / "scene07.jpg"), None, fx=0.7, fy=0.7,
                       interpolation=cv2.INTER_AREA)
    reader = ReaderProcess.of(recognizer).start()
    try:
        here = recognizer.read(scene)
        assert len(here.cards) >= 5, here
        assert reader.read(scene) == here
        # read in detail there too: the cards too small for the frame's own scale
        plain, in_detail = recognizer.read(small), recognizer.read(small, detail=True)
        assert len(in_detail.cards) > len(plain.cards)
        assert reader.read(small, detail=True) == in_detail
        pid = reader.pid
        assert pid is not None and pid != os.getpid()
        # a frame it cannot read: the recogniser's own error, and the process reads on
        with pytest.raises(RecognitionError, match=r"expected a colour \(BGR\) image"):
            reader.read(cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY))
        with pytest.raises(RecognitionError, match="the image is empty"):
            reader.read(np.zeros((0, 0, 3), np.uint8))
        with pytest.raises(RecognitionError, match=r"expected a colour \(BGR\) image"):
            reader.read(b"\xff\xd8 not a frame")
        # a view of a larger picture is sent as the frame it shows
        framed = np.zeros((scene.shape[0] + 20, scene.shape[1] + 20, 3), np.uint8)
        framed[10:-10, 10:-10] = scene
        assert reader.read(framed[10:-10, 10:-10]) == here
        assert reader.pid == pid
    finally:
        reader.close()
    assert reader.pid is None and gone(pid)


def test_a_reader_process_that_ends_is_reported_and_started_again() -> None:
    recognizer = Recognizer()
    scene = load_image(SCENES / "scene02.jpg")
    here = recognizer.read(scene)
    reader = ReaderProcess.of(recognizer)
    assert reader.pid is None  # started by the first reading
    try:
        assert reader.read(scene) == here
        first = reader.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)  # as the kernel ends a process out of memory
        with pytest.raises(ReaderStopped, match=r"ended \(exit code -9\).*starts again"):
            reader.read(scene)
        assert reader.pid is None and gone(first)
        assert reader.read(scene) == here
        second = reader.pid
        assert second not in (None, first)
    finally:
        reader.close()


def test_a_reader_process_whose_recognizer_cannot_be_made_says_why_at_each_frame(
        tmp_path: Path) -> None:
    scene = load_image(SCENES / "scene02.jpg")
    missing = tmp_path / "cards.onnx"
    reader = ReaderProcess(missing, 0.9, None)
    try:
        for _ in range(2):
            with pytest.raises(FileNotFoundError, match=f"card model not found: {missing}"):
                reader.read(scene)
        # the same process each time: not ended and started again frame after frame
        pid = reader.pid
        assert pid is not None
        with pytest.raises(FileNotFoundError):
            reader.read(scene)
        assert reader.pid == pid
    finally:
        reader.close()
    assert gone(pid)


def test_a_reader_process_that_hangs_is_stopped_and_started_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    recognizer = Recognizer()
    scene = load_image(SCENES / "scene02.jpg")
    here = recognizer.read(scene)
    reader = ReaderProcess.of(recognizer)
    try:
        assert reader.read(scene) == here
        hung = reader.pid
        assert hung is not None
        monkeypatch.setattr(readers, "READ_TIMEOUT_S", 1.0)
        os.kill(hung, signal.SIGSTOP)  # it takes the frame, and never answers
        started = time.monotonic()
        with pytest.raises(ReaderStopped, match=r"did not answer within 1 s.*starts again"):
            reader.read(scene)
        assert 1.0 <= time.monotonic() - started < 5.0
        assert gone(hung)
        # the next reading starts the process again: its start (a second or more on a busy
        # machine) is no hang
        monkeypatch.setattr(readers, "READ_TIMEOUT_S", 30.0)
        assert reader.read(scene) == here
        assert reader.pid not in (None, hung)
        # one hung while another thread reads through it: closing stops it, and the reading
        # under way ends with the error
        os.kill(reader.pid, signal.SIGSTOP)
        failed: list[Exception] = []

        def read() -> None:
            try:
                reader.read(scene)
            except ReaderStopped as exc:
                failed.append(exc)

        thread = threading.Thread(target=read)
        thread.start()
        time.sleep(0.5)
        started = time.monotonic()
        reader.close()
        thread.join(5.0)
        assert not thread.is_alive() and len(failed) == 1, failed
        assert time.monotonic() - started < readers.CLOSE_TIMEOUT_S + 3.0
        assert reader.pid is None
    finally:
        reader.close()


@pytest.mark.slow
def test_the_loop_reads_in_reader_processes_and_ends_them_when_it_stops() -> None:
    recognizer = Recognizer()
    scene = load_image(SCENES / "scene02.jpg")
    cards = {c.card for c in recognizer.read(scene).cards}
    capture = Capture(lambda: NumberedCamera(scene), frame_interval_s=1 / 60)
    handed: list[tuple[str, set[str]]] = []

    def on_proposals(props: list[Proposal], result: FrameResult) -> None:
        handed.append((threading.current_thread().name, {p.card for p in props}))

    threads = cv2.getNumThreads()
    loop = CameraLoop(capture, recognizer, on_proposals, Stabilizer(3, 5),
                      change=EveryFrameChanged(), follow=Follow(readers=2), processes=True)
    capture.start()
    loop.start()
    try:
        wait_until(lambda: len(handed) >= 12, "12 frames read", 60)
        pids = [r.pid for r in loop.reader_processes]
        assert len(pids) == 2 and None not in pids and os.getpid() not in pids, pids
        # this process's OpenCV is left as it was: the reading is done elsewhere
        assert cv2.getNumThreads() == threads
    finally:
        loop.stop()
        capture.stop()
    # both readers read, and the scene's cards are proposed as in this process
    assert {t for t, _ in handed} == {"camera-recognition-1", "camera-recognition-2"}
    assert cards and handed[-1][1] == cards, (cards, handed[-1][1])
    assert loop.reader_processes == []
    assert all(pid is not None and gone(pid) for pid in pids), pids


def page_faults(pid: int) -> int:
    """The minor page faults of a process so far (``/proc/PID/stat``, its tenth field)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[7])


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc" or not Path("/proc/self/stat").is_file(),
                    reason="the C library's memory options are glibc's, counted in /proc")
@pytest.mark.slow
def test_a_reader_process_keeps_its_frames_memory_for_the_next_frame() -> None:
    if not (VALIDATION / "labels.json").is_file():
        pytest.skip(f"validation set not found at {VALIDATION}")
    # photographs: their many small glyphs give the frame's arrays sizes that vary frame by frame
    frames = [load_image(p) for p in sorted(VALIDATION.glob("*.jpg"))[:5]]
    recognizer = Recognizer()
    faults: dict[bool, float] = {}
    for keep in (False, True):
        reader = ReaderProcess.of(recognizer, keep_memory=keep).start()
        try:
            for frame in frames:  # once through: the process has held each frame's arrays
                reader.read(frame)
            pid = reader.pid
            assert pid is not None
            before = page_faults(pid)
            readings = [reader.read(frame) for frame in frames]
            faults[keep] = (page_faults(pid) - before) / len(frames)
        finally:
            reader.close()
        assert readings == [recognizer.read(frame) for frame in frames]
    # the memory handed back after each frame is mapped and cleared again at the next, page by
    # page; kept, it is reused as it is
    assert faults[True] <= 0.1 * faults[False] + 20, faults


def test_a_reader_process_reads_with_the_deck_file_it_is_given_loaded_once_a_version(
        tmp_path: Path) -> None:
    recognizer = Recognizer()
    scene = load_image(SCENES / "scene02.jpg")
    here = recognizer.read(scene)
    path = tmp_path / "modiano-rosso.npz"
    deck = Deck("Modiano rosso")
    first = here.cards[0]
    deck.add(example_at(scene, corner_of(first), first.card, "registration"))
    deck.save(path)
    # the cache loads the file once for each version it is told of, and a damaged file is no
    # deck (read without it), tried again at its next version
    cache = readers.DeckCache()
    assert cache.get(None) is None
    loaded = cache.get(DeckFile(str(path), 1))
    assert loaded is not None and [e.card for e in loaded] == [first.card]
    second = here.cards[1]
    deck.add(example_at(scene, corner_of(second), second.card, "registration"))
    deck.save(path)
    assert cache.get(DeckFile(str(path), 1)) is loaded  # the same version: not reloaded
    again = cache.get(DeckFile(str(path), 2))
    assert again is not None and len(again) == 2
    path.write_bytes(b"not a deck")
    assert cache.get(DeckFile(str(path), 3)) is None
    deck.save(path)
    # a reader process reads a frame with the deck file, as the recogniser reads with the deck
    reader = ReaderProcess.of(recognizer).start()
    try:
        ref = DeckFile(str(path), 4)
        assert reader.read(scene, deck=ref) == recognizer.read(scene, deck=Deck.load(path))
        path.unlink()  # gone: the process reads on without it
        assert reader.read(scene, deck=DeckFile(str(path), 5)) == here
    finally:
        reader.close()
