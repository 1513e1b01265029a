"""Camera capture: the folder-of-images source, bad frames, a camera that goes and comes back."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera.capture import (
    Capture,
    CaptureError,
    FolderSource,
    Status,
    VideoSource,
    fit_frame,
    is_device,
    open_source,
    parse_size,
)
from hardware.camera.recognize import RecognitionError, decode_image


def _frame(value: int) -> np.ndarray:
    img = np.zeros((72, 128, 3), np.uint8)
    img[:] = value
    cv2.putText(img, str(value), (10, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (255, 255, 255), 2)
    return img


def _write_frames(folder: Path, values: list[int]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, v in enumerate(values):
        cv2.imwrite(str(folder / f"{i:03d}.png"), _frame(v))


class Recorder:
    def __init__(self) -> None:
        self.events: list[Status] = []
        self.lock = threading.Lock()

    def __call__(self, status: Status) -> None:
        with self.lock:
            self.events.append(status)

    def states(self) -> list[str]:
        with self.lock:
            return [e.state for e in self.events]

    def wait_for(self, state: str, count: int = 1, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.states().count(state) >= count:
                return
            time.sleep(0.01)
        raise AssertionError(f"no {state!r} status (have {self.states()})")


def _collect(cap: Capture, n: int, timeout: float = 10.0) -> list[int]:
    """The first pixel value of the next ``n`` distinct frames."""
    seen: list[int] = []
    seq = 0
    deadline = time.monotonic() + timeout
    while len(seen) < n and time.monotonic() < deadline:
        seq, frame = cap.wait_frame(seq, timeout=1.0)
        if frame is not None:
            seen.append(int(frame[0, 0, 0]))
    return seen


def test_folder_source_reads_images_in_name_order_and_loops(tmp_path: Path) -> None:
    _write_frames(tmp_path / "cam", [10, 20, 30])
    src = FolderSource(tmp_path / "cam")
    values = [int(src.read()[0, 0, 0]) for _ in range(5)]
    assert values == [10, 20, 30, 10, 20]


def test_folder_source_lists_the_folder_again_on_every_pass(tmp_path: Path) -> None:
    """A picture replaced (written aside, then renamed over it) or added is read from the next
    pass: changing the pictures changes what the camera sees, as the whole-hand test does."""
    folder = tmp_path / "cam"
    _write_frames(folder, [10, 20])
    src = FolderSource(folder)
    assert [int(src.read()[0, 0, 0]) for _ in range(2)] == [10, 20]
    ok, png = cv2.imencode(".png", _frame(30))
    assert ok
    (folder / "000.part").write_bytes(png.tobytes())
    os.replace(folder / "000.part", folder / "000.png")
    cv2.imwrite(str(folder / "005.png"), _frame(50))
    assert [int(src.read()[0, 0, 0]) for _ in range(4)] == [30, 20, 50, 30]


def test_a_folder_of_one_picture_gives_that_picture_until_it_changes(tmp_path: Path) -> None:
    """The picture is decoded again only when its bytes change: each frame is still a frame of
    its own, and a picture rewritten in place, even within the file system's clock tick, is
    read as it now is."""
    folder = tmp_path / "cam"
    _write_frames(folder, [10])
    src = FolderSource(folder)
    first, second = src.read(), src.read()
    assert int(first[0, 0, 0]) == int(second[0, 0, 0]) == 10
    first[:] = 99  # a frame drawn on changes no other frame
    assert int(src.read()[0, 0, 0]) == 10
    cv2.imwrite(str(folder / "000.png"), _frame(40))
    assert int(src.read()[0, 0, 0]) == 40


def test_capture_runs_in_the_background_and_delivers_frames(tmp_path: Path) -> None:
    _write_frames(tmp_path / "cam", [10, 20, 30])
    rec = Recorder()
    with Capture.from_spec(str(tmp_path / "cam"), on_status=rec, frame_interval_s=0.01) as cap:
        values = _collect(cap, 6)
    assert len(values) == 6 and set(values) <= {10, 20, 30} and len(set(values)) >= 2
    assert rec.states()[0] == "connected" and rec.states()[-1] == "stopped"


def test_corrupt_frames_are_reported_and_capture_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "cam"
    _write_frames(folder, [10, 20])
    (folder / "001a.jpg").write_bytes(b"this is not a picture at all")
    ok, jpg = cv2.imencode(".jpg", _frame(99))
    assert ok
    (folder / "001b.jpg").write_bytes(jpg.tobytes()[: len(jpg) // 2])
    rec = Recorder()
    with Capture.from_spec(str(folder), on_status=rec, frame_interval_s=0.005) as cap:
        rec.wait_for("bad-frame", count=4)
        values = _collect(cap, 4)
    assert set(values) <= {10, 20} and values, values
    details = [e.detail for e in rec.events if e.state == "bad-frame"]
    assert any("001a.jpg" in d and "not a readable image" in d for d in details), details
    assert any("001b.jpg" in d and "truncated JPEG" in d for d in details), details
    assert cap.bad_frames >= 4


def test_decode_errors_say_what_was_wrong() -> None:
    with pytest.raises(RecognitionError, match="empty"):
        decode_image(b"")
    with pytest.raises(RecognitionError, match="JPEG or PNG"):
        decode_image(b"\x00\x01garbage")
    ok, jpg = cv2.imencode(".jpg", _frame(50))
    assert ok
    with pytest.raises(RecognitionError, match="truncated JPEG"):
        decode_image(jpg.tobytes()[:300])
    assert decode_image(jpg.tobytes()).shape == (72, 128, 3)


def test_a_camera_that_disappears_is_reported_and_reconnected(tmp_path: Path) -> None:
    folder = tmp_path / "cam"
    _write_frames(folder, [40, 50])
    rec = Recorder()
    cap = Capture.from_spec(str(folder), on_status=rec, frame_interval_s=0.005, retry_s=0.02)
    with cap:
        assert _collect(cap, 2)
        shutil.rmtree(folder)
        rec.wait_for("lost")
        rec.wait_for("reconnecting")
        seq_gone, _ = cap.latest()
        _write_frames(folder, [60])
        rec.wait_for("connected", count=2)
        deadline = time.monotonic() + 10
        frame = None
        while time.monotonic() < deadline:
            _seq, frame = cap.wait_frame(seq_gone, timeout=1.0)
            if frame is not None and int(frame[0, 0, 0]) == 60:
                break
        assert frame is not None and int(frame[0, 0, 0]) == 60
        assert cap.reconnects >= 1 and cap.connected


def test_status_listener_errors_do_not_stop_capture(tmp_path: Path) -> None:
    _write_frames(tmp_path / "cam", [70])

    def broken(status: Status) -> None:
        raise RuntimeError("listener bug")

    with Capture.from_spec(str(tmp_path / "cam"), on_status=broken, frame_interval_s=0.01) as cap:
        assert _collect(cap, 3) == [70, 70, 70]


def test_video_file_source(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (128, 72))
    assert writer.isOpened()
    for v in (30, 120, 200):
        writer.write(_frame(v))
    writer.release()
    src = open_source(str(path))
    assert isinstance(src, VideoSource)
    frames = [src.read() for _ in range(3)]
    assert all(abs(int(f[0, 0, 0]) - v) < 12 for f, v in zip(frames, (30, 120, 200), strict=True))
    with pytest.raises(ConnectionError):
        src.read()
    src.close()


def test_bad_source_specs_are_explained(tmp_path: Path) -> None:
    with pytest.raises(CaptureError, match="no camera source"):
        open_source("  ")
    with pytest.raises(CaptureError, match="not a device, URL, video file or folder"):
        open_source(str(tmp_path / "nothing-here"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(CaptureError, match="no images"):
        open_source(str(tmp_path / "empty"))
    with pytest.raises(ConnectionError, match="cannot open"):
        open_source("/dev/video-that-does-not-exist")


def test_a_device_is_an_index_or_any_path_under_dev() -> None:
    # the stable names of a USB camera are V4L2 devices too, asked for 1280x720 like /dev/video0
    for spec in ("0", "2", "/dev/video0", "/dev/v4l/by-id/usb-046d_C920_ABCD-video-index0",
                 "/dev/v4l/by-path/platform-xhci-hcd.0-usb-0:1:1.0-video-index0"):
        assert is_device(spec), spec
    for spec in ("rtsp://cam.local/stream", "/srv/table.mp4", "table-folder", "video0"):
        assert not is_device(spec), spec


def test_a_frame_size_is_a_width_by_a_height_and_anything_else_is_explained() -> None:
    assert parse_size("1280x720") == (1280, 720)
    assert parse_size(" 1920 × 1080 ") == (1920, 1080)
    assert parse_size("640X360") == (640, 360)
    for bad in ("1280", "1280x", "x720", "wide x tall", "1280x720x3", "-1280x720", "1280.5x720",
                "100x100", "8000x4000", "1280x100"):
        with pytest.raises(CaptureError, match=r"expected WIDTHxHEIGHT, such as 1280x720 "
                                               r"\(width 320-3840, height 180-2160\)"):
            parse_size(bad)


def _marked(width: int, height: int) -> np.ndarray:
    """A grey frame with a white square in its middle, a tenth of its width."""
    img = np.full((height, width, 3), 60, np.uint8)
    side = width // 10
    x, y = width // 2 - side // 2, height // 2 - side // 2
    img[y:y + side, x:x + side] = 255
    return img


def test_larger_frames_are_scaled_down_to_fit_the_size_in_their_own_proportions(
        tmp_path: Path) -> None:
    folder = tmp_path / "cam"
    folder.mkdir()
    sizes = [(1920, 1080), (1920, 1200), (640, 360), (1280, 720)]
    for i, (w, h) in enumerate(sizes):
        cv2.imwrite(str(folder / f"{i}.png"), _marked(w, h))
    src = open_source(str(folder), (1280, 720))
    frames = [src.read() for _ in sizes]
    src.close()
    # 16:9 to the size, 16:10 to its height, smaller or equal frames as they are
    assert [f.shape[:2] for f in frames] == [(720, 1280), (720, 1152), (360, 640), (720, 1280)]
    for frame in frames:
        # the square is still a tenth of the width, in the middle
        ys, xs = np.nonzero(frame[:, :, 0] > 200)
        w = frame.shape[1]
        assert abs((xs.max() - xs.min() + 1) - w / 10) <= 2
        assert abs(xs.mean() - w / 2) <= 2 and abs(ys.mean() - frame.shape[0] / 2) <= 2
    # without a size, frames are read as they are
    src = open_source(str(folder))
    assert src.read().shape[:2] == (1080, 1920)
    src.close()
    assert fit_frame(frames[2], (320, 180)).shape[:2] == (180, 320)


def test_a_video_file_s_frames_are_fitted_through_the_capture(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (640, 360))
    assert writer.isOpened()
    for _ in range(5):
        writer.write(_marked(640, 360))
    writer.release()
    with Capture.from_spec(str(path), size=(480, 320), frame_interval_s=0.01) as cap:
        _, frame = cap.wait_frame(0)
    assert frame is not None and frame.shape[:2] == (270, 480)
