"""Camera card entry in the kiosk (docs/camera.md).

:func:`init_app` makes the table's :class:`~kiosk.camera.service.TableCamera` and starts capture
and recognition when a camera source is configured (``STUD_KIOSK_CAMERA``: a device index or
path, a stream URL, a video file or a folder of images; else ``"source"`` in
``instance/camera.json``), its frames read at 1280x720 or within ``STUD_KIOSK_CAMERA_SIZE`` (else
``"size"`` in that file). The pages and routes are in :mod:`kiosk.views.camera`.

- :mod:`kiosk.camera.settings`: the house settings (typed, validated), the seats' zones and the
  table's camera file ``instance/camera-table-<id>.json``;
- :mod:`kiosk.camera.proposals`: the stable readings turned into proposals for the seats the
  hand expects a card for (the hand is asked, never restated);
- :mod:`kiosk.camera.facedown`: the face-down counts per seat and their hints;
- :mod:`kiosk.camera.corners`, :mod:`kiosk.camera.decks`, :mod:`kiosk.camera.learning`: the
  deck on the table learned from the cards the dealer names, on the camera page and during play;
- :mod:`kiosk.camera.service`: :class:`TableCamera`, the one way in for all of it;
- :mod:`kiosk.camera.runner`: capture, the reader processes and the recognition loop.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from kiosk.camera.service import TableCamera
from kiosk.camera.settings import CameraError, CameraSettings
from kiosk.extensions import socketio
from kiosk.service import TableService

log = logging.getLogger(__name__)

ENV_SOURCE = "STUD_KIOSK_CAMERA"
ENV_SIZE = "STUD_KIOSK_CAMERA_SIZE"
CONFIG_FILE = "camera.json"


def _config_file(app: Flask) -> dict[str, Any]:
    """``instance/camera.json``, or nothing when it is missing or not a JSON object."""
    path = Path(app.instance_path) / CONFIG_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def configured_source(app: Flask) -> str | None:
    value = os.environ.get(ENV_SOURCE) or app.config.get("CAMERA_SOURCE")
    if value:
        return str(value)
    source = _config_file(app).get("source")
    return str(source) if source else None


def configured_size(app: Flask) -> tuple[int, int]:
    """The size the camera's frames are read at (a device is asked for it, larger frames are
    scaled down to fit): ``STUD_KIOSK_CAMERA_SIZE``, else ``CAMERA_SIZE``, else ``"size"`` in
    ``instance/camera.json``, else 1280x720. A malformed size raises ``CaptureError`` saying
    what is allowed."""
    from hardware.camera.capture import DEFAULT_SIZE, parse_size

    value = os.environ.get(ENV_SIZE) or app.config.get("CAMERA_SIZE") \
        or _config_file(app).get("size")
    return parse_size(str(value)) if value else DEFAULT_SIZE


def init_app(app: Flask, table: TableService) -> TableCamera:
    """Create the table's camera, start it when a source is configured, add the routes."""
    from kiosk.views import camera as views

    def emit(event: str, data: dict[str, Any], lang: str) -> None:
        from kiosk.live import room

        socketio.emit(event, data, to=room("dealer", lang, table.table_id))

    instance = Path(app.instance_path)
    cam = TableCamera(table, instance / f"camera-table-{table.table_id}.json", emit=emit,
                      decks_folder=instance / "decks",
                      lang=str(app.config.get("DEFAULT_LANG", "it")))
    app.extensions["stud_camera"] = cam
    # the last examples learned are written before the kiosk's process ends
    atexit.register(cam.decks.close)
    app.register_blueprint(views.bp)
    source = configured_source(app)
    # the pages link to /camera only when there is a camera to calibrate
    app.jinja_env.globals["camera_on"] = bool(source)
    if source:
        # a folder of pictures or a video file is read at a camera's pace, not as fast as it can
        paced = Path(source).exists() and not source.startswith("/dev/")
        interval = float(app.config.get("CAMERA_FRAME_INTERVAL", 0.1 if paced else 0.0))
        from hardware.camera.capture import CaptureError

        try:
            size = configured_size(app)
        except CaptureError as exc:
            # a setting that is wrong is said so, with what is allowed: no retrying mends it
            log.error("camera: not started: %s", exc)
            cam.set_status("config", str(exc))
            return cam
        try:
            cam.start(source, interval, size)
        except Exception as exc:  # a missing model or source must not stop the kiosk
            log.error("camera: cannot start on %s: %s", source, exc)
            cam.set_status("lost", str(exc))
    return cam


def camera() -> TableCamera:
    """The current app's table camera."""
    found: TableCamera = current_app.extensions["stud_camera"]
    return found


__all__ = ["CameraError", "CameraSettings", "TableCamera", "camera", "configured_size",
           "configured_source", "init_app"]
