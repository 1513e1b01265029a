"""Camera capture in a background thread, from a configured source.

Sources (``open_source``):

- a V4L2 device: an index (``"0"``) or a path (``"/dev/video0"``, ``/dev/v4l/by-id/…``);
- a network stream: ``rtsp://``, ``http://``, ``https://``, ``udp://``... URL;
- a video file;
- a folder of images (JPEG/PNG, read in name order, looping): the stand-in for demos and tests.

With a frame size (``parse_size``, 1280x720 in the kiosk), a device is asked for that size, and
a frame of any source larger than it is scaled down to fit within it, in its own proportions
(never enlarged): a stream or a device giving 1920x1080 is read at 1280x720.

:class:`Capture` keeps the newest frame and hands it out with a sequence number; it reports every
change of state through a status callback (``"connected"``, ``"lost"``, ``"reconnecting"``,
``"stopped"``) and, when the camera disappears, keeps trying to reopen it without stopping. A frame
that cannot be decoded (garbage bytes, a truncated JPEG) is reported as a ``"bad-frame"`` status
with the reason and skipped; capture goes on.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera.recognize import RecognitionError, decode_image

#: a BGR or grey picture as OpenCV returns it
Image = npt.NDArray[Any]
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp"}
URL_SCHEMES = ("rtsp://", "rtsps://", "http://", "https://", "udp://", "tcp://", "rtmp://")
#: the frame size the kiosk reads unless told otherwise (width, height)
DEFAULT_SIZE = (1280, 720)
#: the sizes a frame size may be given (width, height: least and most)
SIZE_LEAST = (320, 180)
SIZE_MOST = (3840, 2160)


class CaptureError(RuntimeError):
    """A source that cannot be opened, or a frame that cannot be read."""


@dataclass(frozen=True, slots=True)
class Status:
    state: str  # connected | lost | reconnecting | bad-frame | stopped
    source: str
    detail: str = ""


StatusCallback = Callable[[Status], None]
#: runs a call that may wait inside OpenCV (opening a source, reading a frame) and returns what it
#: returned: the kiosk's server hands such calls to a native thread (``kiosk.concurrency``)
Blocking = Callable[[Callable[[], Any]], Any]


def _call(call: Callable[[], Any]) -> Any:
    return call()


class FrameSource(Protocol):
    description: str

    def read(self) -> Image:
        """The next frame; raises CaptureError (frame unusable) or ConnectionError (source gone)."""

    def close(self) -> None: ...


class FolderSource:
    """Images of a folder, in name order, looping; one frame per ``read``. A picture read again
    with the same bytes as the read before (a folder of one picture, a still table) is not
    decoded again (6 ms of CPU a 1280x720 JPEG; a copy takes 0.06)."""

    def __init__(self, folder: Path, loop: bool = True) -> None:
        if not folder.is_dir():
            raise CaptureError(f"{folder}: not a folder of images")
        self.folder = folder
        self.loop = loop
        self.description = f"folder {folder}"
        self._files: list[Path] = []
        self._pos = 0
        #: the last picture read: its file, its bytes and its frame
        self._last: tuple[Path, bytes, Image] | None = None
        self._rescan()
        if not self._files:
            kinds = ", ".join(sorted(IMAGE_SUFFIXES))
            raise CaptureError(f"{folder}: no images (expected {kinds})")

    def _rescan(self) -> None:
        self._files = sorted(p for p in self.folder.iterdir()
                             if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())

    def read(self) -> Image:
        if not self.folder.is_dir():
            raise ConnectionError(f"{self.folder} is gone")
        if self._pos >= len(self._files):
            if not self.loop:
                raise EOFError("end of the images")
            self._rescan()
            self._pos = 0
            if not self._files:
                raise ConnectionError(f"{self.folder} has no images left")
        path = self._files[self._pos]
        self._pos += 1
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ConnectionError(f"{path}: {exc.strerror}") from exc
        last = self._last
        if last is None or last[0] != path or last[1] != data:
            try:
                last = self._last = (path, data, decode_image(data))
            except RecognitionError as exc:
                raise CaptureError(f"{path.name}: {exc}") from exc
        return last[2].copy()  # each frame its own: whoever takes it may draw on it

    def close(self) -> None:
        pass


def parse_size(text: str) -> tuple[int, int]:
    """A frame size written ``WIDTHxHEIGHT`` (``1280x720``; ``×`` and spaces allowed), or a
    :class:`CaptureError` saying what is allowed."""
    allowed = (f"expected WIDTHxHEIGHT, such as 1280x720 (width {SIZE_LEAST[0]}-{SIZE_MOST[0]}, "
               f"height {SIZE_LEAST[1]}-{SIZE_MOST[1]})")
    parts = str(text).lower().replace("×", "x").replace(" ", "").split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise CaptureError(f"camera size {text!r}: {allowed}")
    width, height = int(parts[0]), int(parts[1])
    if not (SIZE_LEAST[0] <= width <= SIZE_MOST[0] and SIZE_LEAST[1] <= height <= SIZE_MOST[1]):
        raise CaptureError(f"camera size {text!r}: {allowed}")
    return width, height


def fit_frame(frame: Image, size: tuple[int, int]) -> Image:
    """The frame scaled down, in its own proportions, to fit within ``size`` (width, height);
    a frame that fits already is returned as it is."""
    h, w = frame.shape[:2]
    scale = min(size[0] / w, size[1] / h)
    if scale >= 1.0:
        return frame
    fitted = (max(1, round(w * scale)), max(1, round(h * scale)))
    return np.asarray(cv2.resize(frame, fitted, interpolation=cv2.INTER_AREA), dtype=np.uint8)


class FittedSource:
    """A source whose frames larger than ``size`` are scaled down to fit within it."""

    def __init__(self, source: FrameSource, size: tuple[int, int]) -> None:
        self.source = source
        self.size = size
        self.description = source.description

    def read(self) -> Image:
        return fit_frame(self.source.read(), self.size)

    def close(self) -> None:
        self.source.close()


def is_device(spec: str) -> bool:
    """A V4L2 device: an index, or a path under /dev (``/dev/video0``, or the name that does not
    change from boot to boot, ``/dev/v4l/by-id/usb-…-video-index0``), opened through V4L2 and
    asked for the frame size (1280×720 unless told otherwise)."""
    return spec.isdigit() or spec.startswith("/dev/")


class VideoSource:
    """A V4L2 device, a network stream or a video file, through ``cv2.VideoCapture``."""

    def __init__(self, spec: str, width: int = 1280, height: int = 720) -> None:
        self.spec = spec
        self.description = spec
        target: int | str = int(spec) if spec.isdigit() else spec
        if is_device(spec):
            cap = cv2.VideoCapture(target, cv2.CAP_V4L2)
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        else:
            cap = cv2.VideoCapture(target)
        if not cap.isOpened():
            cap.release()
            raise ConnectionError(f"cannot open {spec}")
        self._cap = cap

    def read(self) -> Image:
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise ConnectionError(f"{self.spec}: no frame")
        return np.asarray(frame, dtype=np.uint8)

    def close(self) -> None:
        self._cap.release()


def open_source(spec: str, size: tuple[int, int] | None = None) -> FrameSource:
    """Open a source named by configuration (see the module documentation); with a frame
    ``size``, a device is asked for it and larger frames are scaled down to fit within it."""
    source = _open(spec.strip(), size or DEFAULT_SIZE)
    return source if size is None else FittedSource(source, size)


def _open(spec: str, size: tuple[int, int]) -> FrameSource:
    if not spec:
        raise CaptureError("no camera source given: use a device index or path, a URL, "
                           "a video file or a folder of images")
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if is_device(spec) or spec.startswith(URL_SCHEMES):
        return VideoSource(spec, *size)
    if path.is_file():
        return VideoSource(spec, *size)
    raise CaptureError(f"{spec}: not a device, URL, video file or folder of images")


class Capture:
    """Reads a source in a background thread; the newest frame is always available.

    ``opener`` (re)opens the source; a source that fails is closed and reopened every
    ``retry_s`` seconds until :meth:`stop`. ``frame_interval_s`` paces sources that are not
    paced by themselves (a folder, a file). ``blocking`` runs each opening and each frame's
    reading (by default: in the capture thread)."""

    def __init__(self, opener: Callable[[], FrameSource], on_status: StatusCallback | None = None,
                 frame_interval_s: float = 0.0, retry_s: float = 1.0, name: str = "camera",
                 blocking: Blocking = _call) -> None:
        self._opener = opener
        self._blocking = blocking
        self._on_status = on_status
        self._interval = frame_interval_s
        self._retry = retry_s
        self._name = name
        self._lock = threading.Condition()
        self._frame: Image | None = None
        self._seq = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.connected = False
        self.bad_frames = 0
        self.reconnects = 0

    @classmethod
    def from_spec(cls, spec: str, size: tuple[int, int] | None = None,
                  **kwargs: object) -> Capture:
        """Capture from a source named by configuration, its frames fitted to ``size``."""
        return cls(lambda: open_source(spec, size), name=spec, **kwargs)  # type: ignore[arg-type]

    def _status(self, state: str, detail: str = "") -> None:
        if self._on_status is not None:
            with contextlib.suppress(Exception):  # a faulty listener must not stop capture
                self._on_status(Status(state, self._name, detail))

    def start(self) -> Capture:
        if self._thread is not None:
            return self
        self._thread = threading.Thread(target=self._run, name=f"capture-{self._name}",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> Capture:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def latest(self) -> tuple[int, Image | None]:
        """(sequence number, newest frame); sequence 0 and None before the first frame."""
        with self._lock:
            return self._seq, self._frame

    def wait_frame(self, after_seq: int, timeout: float = 5.0) -> tuple[int, Image | None]:
        """Wait for a frame newer than ``after_seq``; returns what is there at the timeout."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._seq <= after_seq and not self._stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            return self._seq, self._frame

    def _run(self) -> None:
        source: FrameSource | None = None
        first = True
        while not self._stop.is_set():
            if source is None:
                try:
                    source = self._blocking(self._opener)
                except (ConnectionError, CaptureError, OSError) as exc:
                    self._status("lost" if first else "reconnecting", str(exc))
                    first = False
                    self._stop.wait(self._retry)
                    continue
                if not first:
                    self.reconnects += 1
                first = False
                self.connected = True
                self._status("connected", source.description)
            try:
                frame = self._blocking(source.read)
            except CaptureError as exc:
                self.bad_frames += 1
                self._status("bad-frame", str(exc))
                self._stop.wait(self._interval)
                continue
            except EOFError:
                self._status("stopped", "end of the source")
                break
            except (ConnectionError, OSError) as exc:
                source.close()
                source = None
                self.connected = False
                self._status("lost", str(exc))
                self._stop.wait(self._retry)
                continue
            with self._lock:
                self._frame = frame
                self._seq += 1
                self._lock.notify_all()
            if self._interval:
                self._stop.wait(self._interval)
        if source is not None:
            source.close()
        self.connected = False
        if self._stop.is_set():
            self._status("stopped", "")
