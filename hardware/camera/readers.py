"""Recognition in processes of its own.

A reading's Python part holds the interpreter and its OpenCV part does not, so two reader
threads of one process wait for each other's Python part (and the kiosk's web server, in the
same process, waits for both). A :class:`ReaderProcess` is a recogniser in a process of its
own, read as a :class:`~hardware.camera.recognize.Recognizer` is: :meth:`ReaderProcess.read`
puts the frame in memory shared with it, asks it through a pipe to read it, and waits for its
reading. Each process has an interpreter
of its own, and the readers keep the cores busier (docs/benchmarks.md).

A reader process reads with the table's learned deck: each reading asked for names the deck's
file and version (:class:`DeckFile`), and the process loads the file again only when they
change (:class:`DeckCache`), so that an example the dealer adds is used from the next frames
on. The deck travels as a file, not through the pipe: it is written once, by the kiosk, and
read by each process once a change.

The processes are started fresh (``spawn``: a process forked from one running threads may
inherit a lock held by one of them), each on one OpenCV thread. A process that has ended
(killed, out of memory) is reported by the reading it was on, and started again for the next.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import multiprocessing
import threading
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.shared_memory import SharedMemory
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from hardware.camera import DeckFile
from hardware.camera.deck import Deck, DeckError
from hardware.camera.recognize import (
    INDEX_PATHS,
    VIEW_PATH,
    FrameResult,
    Recognizer,
    check_frame,
)

log = logging.getLogger(__name__)

#: seconds a process is given to end once asked to, before it is stopped
CLOSE_TIMEOUT_S = 2.0
#: seconds a reading may take before its process is taken for hung, stopped and started again
#: (a frame takes a tenth of a second, read in detail a half, on a small machine)
READ_TIMEOUT_S = 30.0


class Reader(Protocol):
    """What reads a frame's cards: a :class:`Recognizer` (``deck`` a :class:`Deck`), or one in a
    process of its own (``deck`` a :class:`DeckFile`)."""

    def read(self, image: Any, detail: bool = False, deck: Any = None) -> FrameResult: ...


class DeckCache:
    """The deck of the latest :class:`DeckFile` asked for, loaded once for each version. A file
    that cannot be loaded (gone, damaged) is read as no deck, said once, and tried again at
    its next version."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ref: DeckFile | None = None
        self._deck: Deck | None = None

    def get(self, ref: DeckFile | None) -> Deck | None:
        if ref is None:
            return None
        with self._lock:
            if ref != self._ref:
                self._ref = ref
                try:
                    self._deck = Deck.load(ref.path)
                except (OSError, DeckError) as exc:
                    log.warning("camera: deck %s not read (%s); reading without it", ref.path,
                                exc)
                    self._deck = None
            return self._deck


class ReaderStopped(RuntimeError):
    """The process of a :class:`ReaderProcess` ended while it was reading."""


#: a frame's working arrays stay with the process between frames when they are this large or
#: smaller (glibc's ``M_MMAP_THRESHOLD``: the largest it allows), and the free memory it keeps
#: may grow this large before it is given back to the system (``M_TRIM_THRESHOLD``)
KEEP_BLOCKS_BELOW = 32 << 20
KEEP_FREE_UP_TO = 256 << 20


def keep_frame_memory() -> bool:
    """Have this process keep the memory of one frame's arrays for the next, rather than give it
    back to the system and have every page of it cleared and mapped again (about 3000 page
    faults a 1280x720 frame otherwise). True where the C library is glibc, which allows it."""
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c")).mallopt
    except (OSError, AttributeError, TypeError):  # no C library by that name, or no mallopt
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3
    return bool(mallopt(m_mmap_threshold, KEEP_BLOCKS_BELOW)) \
        and bool(mallopt(m_trim_threshold, KEEP_FREE_UP_TO))


class _Channel:
    """Two one-way pipes used as one connection. A two-way ``multiprocessing.Pipe`` is a socket
    pair, which a process whose sockets are gevent's (the kiosk's server) can lose after its
    first message; one-way pipes are plain file descriptors wherever the channel is used."""

    def __init__(self, inbox: Connection, outbox: Connection) -> None:
        self.inbox, self.outbox = inbox, outbox

    def send(self, value: Any) -> None:
        self.outbox.send(value)

    def recv(self) -> Any:
        return self.inbox.recv()

    def poll(self, timeout: float) -> bool:
        return self.inbox.poll(timeout)

    def close(self) -> None:
        self.inbox.close()
        self.outbox.close()


def _serve(inbox: Connection, outbox: Connection, model_path: str, min_confidence: float,
           upright_path: str | None, index_paths: tuple[str, ...] | None,
           view_path: str | None = None, keep_memory: bool = True) -> None:
    """A reader process: read each frame asked for (the shared memory it lies in, its shape,
    type and detail) and send back its reading, or the error it raised; end when the pipe
    closes. A recogniser that cannot be made (a classifier's file gone) answers every frame
    with the error that says why, rather than ending and being started again frame after
    frame."""
    conn = _Channel(inbox, outbox)
    cv2.setNumThreads(1)
    if keep_memory:
        keep_frame_memory()
    recognizer: Recognizer | None = None
    failed: Exception | None = None
    try:
        recognizer = Recognizer(model_path, min_confidence, upright_path, index_paths, view_path)
    except Exception as exc:  # sent back with each reading asked for
        failed = exc
    shared: SharedMemory | None = None
    decks = DeckCache()
    try:
        while True:
            try:
                request = conn.recv()
            except (EOFError, OSError):
                return
            if request is None:
                return
            name, shape, dtype, detail, deck = request
            if recognizer is None:
                conn.send((False, failed))
                continue
            if shared is None or shared.name != name:
                if shared is not None:
                    shared.close()
                shared = SharedMemory(name)
            frame = np.ndarray(shape, dtype, buffer=shared.buf)
            try:
                reply: tuple[bool, Any] = (True, recognizer.read(frame, detail=detail,
                                                                 deck=decks.get(deck)))
            except Exception as exc:  # sent back, to be raised where the frame was read
                reply = (False, exc)
            del frame  # the shared memory is closed only once no array is made of it
            try:
                conn.send(reply)
            except (TypeError, AttributeError, ValueError) as exc:  # an error not to be sent
                conn.send((False, RuntimeError(f"{reply[1]!r} ({exc})")))
    finally:
        if shared is not None:
            shared.close()


class ReaderProcess:
    """A :class:`Recognizer` reading in a process of its own, read like one (:meth:`read`).

    The process reads as a plain :class:`Recognizer` made of the same classifiers and
    threshold. It starts with :meth:`start` or the first reading, and ends with :meth:`close`
    (or when this process ends). One thread reads through it at a time. It keeps its frames'
    memory from one frame to the next (``keep_frame_memory``) unless ``keep_memory`` is false."""

    def __init__(self, model_path: Path | str, min_confidence: float,
                 upright_path: Path | str | None,
                 index_paths: Sequence[Path | str] | None = INDEX_PATHS,
                 view_path: Path | str | None = VIEW_PATH, keep_memory: bool = True) -> None:
        self._args = (str(model_path), min_confidence,
                      None if upright_path is None else str(upright_path),
                      None if index_paths is None else tuple(str(p) for p in index_paths),
                      None if view_path is None else str(view_path), keep_memory)
        self._lock = threading.Lock()
        self._conn: _Channel | None = None
        self._process: BaseProcess | None = None
        #: the memory the frames are handed over in (a frame through the pipe itself would
        #: block the sender while the process does not read)
        self._shared: SharedMemory | None = None

    @classmethod
    def of(cls, recognizer: Recognizer, keep_memory: bool = True) -> ReaderProcess:
        """A process reading as ``recognizer`` does."""
        return cls(recognizer.model_paths[0], recognizer.min_confidence,
                   recognizer.model_paths[1], recognizer.model_paths[2],
                   recognizer.model_paths[3], keep_memory)

    def twin(self) -> ReaderProcess:
        """Another process reading as this one."""
        return ReaderProcess(*self._args)

    @property
    def pid(self) -> int | None:
        """The process's id while it runs."""
        process = self._process
        return process.pid if process is not None and process.is_alive() else None

    def start(self) -> ReaderProcess:
        with self._lock:
            self._start()
        return self

    def _start(self) -> None:
        if self._process is not None:
            return
        context = multiprocessing.get_context("spawn")
        asked, ask = context.Pipe(duplex=False)  # (the reading end, the writing end)
        answer, answered = context.Pipe(duplex=False)
        process = context.Process(target=_serve, args=(asked, answered, *self._args),
                                  daemon=True, name="camera-recognition")
        process.start()
        asked.close()
        answered.close()
        self._conn, self._process = _Channel(answer, ask), process

    def read(self, image: Any, detail: bool = False, deck: DeckFile | None = None
             ) -> FrameResult:
        """The cards of a BGR frame, read in the process with ``deck`` (loaded there once a
        version); a frame it cannot read raises
        :class:`~hardware.camera.recognize.RecognitionError` as :meth:`Recognizer.read` does,
        and :class:`ReaderStopped` when the process ended (it starts again for the next)."""
        check_frame(image)
        frame = np.ascontiguousarray(image)
        with self._lock:
            self._start()
            assert self._conn is not None
            shared = self._shared
            if shared is None or shared.size < frame.nbytes:
                self._free()
                shared = self._shared = SharedMemory(create=True, size=max(frame.nbytes, 1))
            view = np.ndarray(frame.shape, frame.dtype, buffer=shared.buf)
            view[...] = frame
            del view
            try:
                self._conn.send((shared.name, frame.shape, frame.dtype.str, detail, deck))
                answered = self._conn.poll(READ_TIMEOUT_S)
                if answered:
                    ok, value = self._conn.recv()
            except (EOFError, OSError) as exc:
                code = self._end()
                raise ReaderStopped(f"the recognition process ended (exit code {code}) while "
                                    "reading a frame; it starts again for the next one") from exc
            if not answered:
                self._end(stop=True)
                raise ReaderStopped(f"the recognition process did not answer within "
                                    f"{READ_TIMEOUT_S:g} s; it was stopped, and starts again for "
                                    "the next frame")
        if not ok:
            raise value
        if not isinstance(value, FrameResult):
            raise ReaderStopped(f"the recognition process answered {type(value).__name__}, "
                                "not a reading")
        return value

    def close(self) -> None:
        """Ask the process to end (stop it if it does not), and wait for it. A reading under way
        is waited for, ``CLOSE_TIMEOUT_S`` at most: then the process is stopped, which ends it."""
        if not self._lock.acquire(timeout=CLOSE_TIMEOUT_S):
            process = self._process
            if process is not None:
                process.kill()
            self._lock.acquire()
        try:
            if self._conn is not None:
                with contextlib.suppress(OSError):  # it has ended already
                    self._conn.send(None)
            self._end()
            self._free()
        finally:
            self._lock.release()

    def _free(self) -> None:
        """Give the frames' shared memory back."""
        if self._shared is not None:
            self._shared.close()
            self._shared.unlink()
            self._shared = None

    def _end(self, stop: bool = False) -> int | None:
        """Close the pipe and wait for the process, stopping it at once with ``stop`` or when it
        does not end in ``CLOSE_TIMEOUT_S``; its exit code."""
        conn, process = self._conn, self._process
        self._conn = self._process = None
        if conn is not None:
            conn.close()
        if process is None:
            return None
        if stop:
            process.kill()
        process.join(CLOSE_TIMEOUT_S)
        if process.is_alive():
            process.kill()
            process.join()
        code = process.exitcode
        process.close()
        return code
