"""Recognition in processes of its own.

A reading's Python part holds the interpreter and its OpenCV part does not, so two reader
threads of one process wait for each other's Python part (and the kiosk's web server, in the
same process, waits for both). A :class:`ReaderProcess` is a recogniser in a process of its
own, read as a :class:`~hardware.camera.recognize.Recognizer` is: :meth:`ReaderProcess.read`
sends it the frame through a pipe and waits for its reading. Each process has an interpreter
of its own, and the readers keep the cores busier (docs/benchmarks.md).

The processes are started fresh (``spawn``: a process forked from one running threads may
inherit a lock held by one of them), each on one OpenCV thread. A process that has ended
(killed, out of memory) is reported by the reading it was on, and started again for the next.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import threading
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from hardware.camera.recognize import FrameResult, Recognizer, check_frame

#: seconds a process is given to end once asked to, before it is stopped
CLOSE_TIMEOUT_S = 2.0


class Reader(Protocol):
    """What reads a frame's cards: a :class:`Recognizer`, or one in a process of its own."""

    def read(self, image: Any, detail: bool = False) -> FrameResult: ...


class ReaderStopped(RuntimeError):
    """The process of a :class:`ReaderProcess` ended while it was reading."""


def _serve(conn: Connection, model_path: str, min_confidence: float,
           upright_path: str | None) -> None:
    """A reader process: read each frame sent (its shape, type and detail, then its bytes) and
    send back its reading, or the error it raised; end when the pipe closes."""
    cv2.setNumThreads(1)
    recognizer = Recognizer(model_path, min_confidence, upright_path)
    buffer = bytearray()
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        shape, dtype, detail = request
        size = math.prod(shape) * np.dtype(dtype).itemsize
        if len(buffer) < size:
            buffer = bytearray(size)
        conn.recv_bytes_into(buffer)
        frame = np.frombuffer(buffer, dtype, math.prod(shape)).reshape(shape)
        try:
            reply: tuple[bool, Any] = (True, recognizer.read(frame, detail=detail))
        except Exception as exc:  # sent back, to be raised where the frame was read
            reply = (False, exc)
        try:
            conn.send(reply)
        except (TypeError, AttributeError, ValueError) as exc:  # an error that cannot be sent
            conn.send((False, RuntimeError(f"{reply[1]!r} ({exc})")))


class ReaderProcess:
    """A :class:`Recognizer` reading in a process of its own, read like one (:meth:`read`).

    The process reads as a plain :class:`Recognizer` made of the same classifiers and
    threshold. It starts with :meth:`start` or the first reading, and ends with :meth:`close`
    (or when this process ends). One thread reads through it at a time."""

    def __init__(self, model_path: Path | str, min_confidence: float,
                 upright_path: Path | str | None) -> None:
        self._args = (str(model_path), min_confidence,
                      None if upright_path is None else str(upright_path))
        self._lock = threading.Lock()
        self._conn: Connection | None = None
        self._process: BaseProcess | None = None

    @classmethod
    def of(cls, recognizer: Recognizer) -> ReaderProcess:
        """A process reading as ``recognizer`` does."""
        return cls(recognizer.model_paths[0], recognizer.min_confidence,
                   recognizer.model_paths[1])

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
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs, *self._args), daemon=True,
                                  name="camera-recognition")
        process.start()
        theirs.close()
        self._conn, self._process = mine, process

    def read(self, image: Any, detail: bool = False) -> FrameResult:
        """The cards of a BGR frame, read in the process; a frame it cannot read raises
        :class:`~hardware.camera.recognize.RecognitionError` as :meth:`Recognizer.read` does,
        and :class:`ReaderStopped` when the process ended (it starts again for the next)."""
        check_frame(image)
        frame = np.ascontiguousarray(image)
        with self._lock:
            self._start()
            assert self._conn is not None
            try:
                self._conn.send((frame.shape, frame.dtype.str, detail))
                self._conn.send_bytes(frame.data.cast("B"))
                ok, value = self._conn.recv()
            except (EOFError, OSError) as exc:
                code = self._end()
                raise ReaderStopped(f"the recognition process ended (exit code {code}) while "
                                    "reading a frame; it starts again for the next one") from exc
        if not ok:
            raise value
        if not isinstance(value, FrameResult):
            raise ReaderStopped(f"the recognition process answered {type(value).__name__}, "
                                "not a reading")
        return value

    def close(self) -> None:
        """Ask the process to end (stop it if it does not), and wait for it."""
        with self._lock:
            if self._conn is not None:
                with contextlib.suppress(OSError):  # it has ended already
                    self._conn.send(None)
            self._end()

    def _end(self) -> int | None:
        """Close the pipe and wait for the process, stopping it if need be; its exit code."""
        conn, process = self._conn, self._process
        self._conn = self._process = None
        if conn is not None:
            conn.close()
        if process is None:
            return None
        process.join(CLOSE_TIMEOUT_S)
        if process.is_alive():
            process.kill()
            process.join()
        code = process.exitcode
        process.close()
        return code
