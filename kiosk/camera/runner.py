"""The camera at work: capture, the reader processes and the recognition loop, wired to the
table's :class:`~kiosk.camera.service.TableCamera`.

Started only when a camera is configured (OpenCV is not loaded otherwise). The frames are read
by two reader processes of their own (``hardware.camera.readers``), each with the table's
learned deck; after every frame read the stable readings and the frame go to the table's camera,
the picture the dealer calibrates on is renewed about once a second, and the face-down cards are
counted once a second (:data:`~kiosk.camera.facedown.INTERVAL_S`), both only from a frame read
since (a still table's frame is read again only every few seconds).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from kiosk.camera.facedown import INTERVAL_S
from kiosk.concurrency import blocking

if TYPE_CHECKING:
    from kiosk.camera.service import TableCamera

log = logging.getLogger(__name__)

#: seconds between two snapshots of the picture for the camera page
SNAPSHOT_S = 1.0
#: readings below the house threshold are still shown, flagged, never entered by themselves
READ_FROM = 0.2


class CameraRunner:
    """Capture from ``source`` (its frames fitted to ``size``) and recognition in the
    background, for ``camera``."""

    def __init__(self, camera: TableCamera, source: str, frame_interval_s: float = 0.0,
                 size: tuple[int, int] | None = None) -> None:
        self.camera = camera
        self.source = source
        self.frame_interval_s = frame_interval_s
        self.size = size
        self.capture: Any = None
        self.loop: Any = None
        self._last_jpeg = 0.0
        self._last_down = 0.0
        #: the picture last made a snapshot of, and the one whose face-down cards were counted,
        #: with its count: a still table's frame is not read again, nor looked at again
        self._jpeg_of: Any = None
        self._down_of: Any = None
        self._downs: list[tuple[float, float]] = []

    def start(self) -> None:
        from hardware.camera.capture import Capture, Status
        from hardware.camera.recognize import Recognizer
        from hardware.camera.stable import CameraLoop, Stabilizer

        camera = self.camera

        def on_status(status: Status) -> None:
            state = {"bad-frame": "bad_frame"}.get(status.state, status.state)
            camera.set_status(state, status.detail)

        recognizer = Recognizer(min_confidence=READ_FROM)
        # opening the source and reading a frame wait inside OpenCV: on a native thread under
        # the server's gevent (kiosk.concurrency), so that they hold no connection up
        self.capture = Capture.from_spec(self.source, size=self.size, on_status=on_status,
                                         frame_interval_s=self.frame_interval_s,
                                         blocking=blocking)
        # each reader in a process of its own: the readers keep the cores busier, and this
        # process (the dealer screen's server) is not held up by their Python
        self.loop = CameraLoop(self.capture, recognizer, self.on_proposals, Stabilizer(3, 5),
                               on_error=lambda exc: log.warning("camera: %s", exc),
                               detail=camera.reads_in_detail, processes=True,
                               deck=camera.deck_file)
        self.capture.start()
        self.loop.start()

    def on_proposals(self, proposals: list[Any], result: Any) -> None:
        """After every frame: the stable readings, the frame read and its picture."""
        import cv2

        from hardware.camera.down import find_down_cards

        frame = self.loop.frame
        if frame is None:
            return
        now = time.monotonic()
        if now - self._last_jpeg > SNAPSHOT_S and frame is not self._jpeg_of:
            ok, jpg = blocking(lambda: cv2.imencode(".jpg", frame,
                                                    [cv2.IMWRITE_JPEG_QUALITY, 80]))
            if ok:
                self.camera.set_frame(jpg.tobytes())
            self._last_jpeg, self._jpeg_of = now, frame
        size = (frame.shape[1], frame.shape[0])
        self.camera.update(proposals, size, result, frame)
        if now - self._last_down >= INTERVAL_S:
            # counted at a low rate: the recogniser keeps the frame rate
            self._last_down = now
            if self.camera.zones:
                if frame is not self._down_of:
                    downs = blocking(lambda: find_down_cards(frame, result))
                    self._down_of, self._downs = frame, [d.center for d in downs]
                self.camera.update_down(self._downs, size)

    def stop(self) -> None:
        if self.loop is not None:
            self.loop.stop()
        if self.capture is not None:
            self.capture.stop()
