"""Camera card entry in the kiosk (docs/camera.md).

:func:`init_app` starts capture and recognition when a camera source is configured
(``STUD_KIOSK_CAMERA``: a device index or path, a stream URL, a video file or a folder of images;
else ``"source"`` in ``instance/camera.json``), its frames read at 1280x720 or within
``STUD_KIOSK_CAMERA_SIZE`` (else ``"size"`` in that file), and wires the readings to the table:

- *Calibration*: on the page ``/camera`` the dealer marks each seat's zone on a snapshot by touch
  (two taps: opposite corners). Zones are kept as fractions of the picture, per table, in
  ``instance/camera-table-<id>.json`` with the house settings below.
- *Proposals*: while cards are being dealt, every stable reading whose index lies in the zone of a
  seat that expects an up card is proposed on the dealer screen ("Seat 3: Q♥ 98%", Socket.IO
  ``camera``). One tap confirms it (``POST /api/camera/confirm``): it goes through
  :meth:`TableService.submit` (source ``camera``) with the same checks as a touch entry.
- *Showdown*: when the seat to show has down cards never entered, the cards read in its zone
  that the hand does not know are proposed too (``"kind": "show"``); the dealer screen adds a
  tapped one to the cards picked for the showing (a showing is never entered by the camera).
- *Auto-confirm* (house setting, off by default): a proposal read in ``auto_frames`` frames in a
  row (a frame in which nothing moved counting as one more: ``Proposal.streak``) at or above
  ``auto_threshold`` is entered by itself. A reading below the threshold, or a
  card already in the hand, is only ever shown, flagged, never entered.
- *Face-down cards*: once a second (never on every frame) the card backs in the frame are
  counted per seat zone (``hardware.camera.down``). The count is in the ``camera`` state
  (``"down": {"3": 2}``); when a seat of the hand shows another number of face-down cards than
  the engine dealt it, in three counts in a row, the dealer screen shows a hint
  ("Seat 3: face-down cards seen 1, dealt 2"). The camera never names a face-down card.
- The spectator screen is untouched: it shows cards once they are in the hand.
"""

from __future__ import annotations

import json
import logging
import math
import os
import statistics
import threading
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify, render_template, request
from werkzeug.wrappers import Response

from engine.cards import Card
from engine.events import Deal
from engine.i18n import LANGUAGES
from hardware.camera import DEFAULT_MIN_CONFIDENCE, GOOD_RANK_PX, SMALL_RANK_PX, rank_height
from kiosk.errors import Kind, KioskError, answer, status_of
from kiosk.extensions import socketio
from kiosk.service import TableService
from kiosk.views.auth import dealer_required, is_dealer

log = logging.getLogger(__name__)

ENV_SOURCE = "STUD_KIOSK_CAMERA"
ENV_SIZE = "STUD_KIOSK_CAMERA_SIZE"
#: seconds between two counts of the face-down cards (about 40 ms each on 1280x720; the
#: recogniser reads every frame and keeps its frame rate)
DOWN_INTERVAL_S = 1.0
#: the cards a frame must read for the size of their indices to be told (a single card's
#: quad may be drawn from a part of its rank: the median of a few is not)
SCALE_CARDS = 3
#: counts in a row that must disagree with the engine before the dealer sees a hint
DOWN_HINT_COUNTS = 3
CONFIG_FILE = "camera.json"
#: the house setting ``detail``: when a still table is read in detail (``reads_in_detail``)
DETAIL_MODES = ("auto", "on", "off")
DEFAULTS: dict[str, Any] = {
    "auto_confirm": False,
    "auto_frames": 5,
    # the face-down count misses many backs (docs/camera.md): its hints are opt-in
    "down_hints": False,
    # reading a still table enlarged as well reads more small indices (docs/camera.md), for
    # about twice the CPU: "auto" does it while the cards are not seen large enough
    # (``reads_in_detail``), "on" always, "off" never
    "detail": "auto",
    "auto_threshold": 0.95,
    "min_confidence": DEFAULT_MIN_CONFIDENCE,
}

bp = Blueprint("camera", __name__)


def _ui(key: str, lang: str, **params: Any) -> str:
    from kiosk.i18n import ui_catalog

    return ui_catalog().translate(key, lang, **params)


def _check_zone(zone: Any) -> list[float]:
    """A zone is [x0, y0, x1, y1] as fractions of the picture (0..1), any corner order."""
    if not isinstance(zone, list | tuple) or len(zone) != 4:
        raise KioskError("camera.err.zone")
    try:
        x0, y0, x1, y1 = (float(v) for v in zone)
    except (TypeError, ValueError) as exc:
        raise KioskError("camera.err.zone") from exc
    if not all(0.0 <= v <= 1.0 for v in (x0, y0, x1, y1)) or x0 == x1 or y0 == y1:
        raise KioskError("camera.err.zone")
    return [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]


class TableCamera:
    """Proposals for one table from the camera's stable readings; calibration and settings."""

    def __init__(self, table: TableService, config_path: Path, emit: Any = None) -> None:
        self.table = table
        self.config_path = config_path
        self.emit = emit
        self.lock = threading.RLock()
        self.zones: dict[int, list[float]] = {}
        self.settings: dict[str, Any] = dict(DEFAULTS)
        self.status: dict[str, str] = {"state": "off", "detail": ""}
        self.frame_size: tuple[int, int] = (1280, 720)
        self.proposals: list[dict[str, Any]] = []
        #: every stable reading of the latest frame, whatever the hand expects (for calibration)
        self.readings: list[dict[str, Any]] = []
        #: the height of the read cards' index ranks in the picture (pixels; the median of the
        #: latest frame that read ``SCALE_CARDS`` cards or more), None until then: too small, and
        #: the camera reads less (``SMALL_RANK_PX``)
        self.rank_px: float | None = None
        #: seat -> face-down cards the camera sees in its zone (the latest count)
        self.down_seen: dict[int, int] = {}
        self._down_history: list[dict[int, int]] = []
        self._latest_jpeg: bytes | None = None
        self.capture: Any = None
        self.loop: Any = None
        self._load()

    # ---- configuration ------------------------------------------------------------------------

    def _load(self) -> None:
        try:
            data = json.loads(self.config_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("camera: %s unreadable (%s); starting uncalibrated", self.config_path, exc)
            return
        for seat, zone in (data.get("zones") or {}).items():
            try:
                self.zones[int(seat)] = _check_zone(zone)
            except (KioskError, ValueError):
                log.warning("camera: zone of seat %s ignored: %r", seat, zone)
        for key, default in DEFAULTS.items():
            value = data.get("settings", {}).get(key)
            if key == "detail" and isinstance(value, bool):
                # saved when reading in detail was on or off only: off was the default
                value = "on" if value else "auto"
            if key == "detail" and value not in DETAIL_MODES:
                continue
            if value is not None and isinstance(value, type(default)):
                self.settings[key] = value

    def _save(self) -> None:
        data = {"zones": {str(k): v for k, v in sorted(self.zones.items())},
                "settings": self.settings}
        tmp = self.config_path.with_suffix(".tmp")
        tmp.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, self.config_path)

    def set_zones(self, zones: Any) -> None:
        if not isinstance(zones, dict):
            raise KioskError("camera.err.zone")
        checked: dict[int, list[float]] = {}
        for seat, zone in zones.items():
            try:
                number = int(seat)
            except (TypeError, ValueError) as exc:
                raise KioskError("camera.err.seat", seat=seat) from exc
            if not 1 <= number <= 10:
                raise KioskError("camera.err.seat", seat=seat)
            checked[number] = _check_zone(zone)
        with self.lock:
            self.zones = checked
            self._save()

    def set_settings(self, values: Any) -> None:
        if not isinstance(values, dict):
            raise KioskError("camera.err.settings")
        new = dict(self.settings)
        for key, value in values.items():
            if key not in DEFAULTS:
                raise KioskError("camera.err.settings")
            if key in ("auto_confirm", "down_hints"):
                if not isinstance(value, bool):
                    raise KioskError("camera.err.settings")
                new[key] = value
            elif key == "detail":
                if value not in DETAIL_MODES:
                    raise KioskError("camera.err.settings")
                new[key] = value
            elif key == "auto_frames":
                if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= 30:
                    raise KioskError("camera.err.settings")
                new[key] = value
            else:
                if not isinstance(value, int | float) or not 0.5 <= float(value) <= 1.0:
                    raise KioskError("camera.err.settings")
                new[key] = float(value)
        with self.lock:
            self.settings = new
            self._save()

    # ---- readings to proposals ----------------------------------------------------------------

    def seat_at(self, x: float, y: float) -> int | None:
        """The seat whose zone holds the point (frame pixels); where zones overlap, the one whose
        middle is nearest."""
        w, h = self.frame_size
        fx, fy = x / max(w, 1), y / max(h, 1)
        holding = [(math.hypot(fx - (x0 + x1) / 2, fy - (y0 + y1) / 2), seat)
                   for seat, (x0, y0, x1, y1) in self.zones.items()
                   if x0 <= fx <= x1 and y0 <= fy <= y1]
        return min(holding)[1] if holding else None

    def _cards_in_hand(self) -> set[str]:
        """Every card the hand knows: dealt, and down cards named later (identified, shown)."""
        hand = self.table.hand
        if hand is None:
            return set()
        return ({str(e.card) for e in hand.events if isinstance(e, Deal) and e.card is not None}
                | {str(c.card) for s in hand.state.seats for c in s.cards if c.card is not None})

    def _known_at_seat(self) -> dict[int, set[str]]:
        """Seat -> the cards in front of it the hand knows (its up cards, and its down cards
        entered as dealt or named since)."""
        hand = self.table.hand
        if hand is None:
            return {}
        return {s.number: {str(c.card) for c in s.cards if c.card is not None}
                for s in hand.state.seats}

    def showing(self) -> tuple[int, int] | None:
        """(seat, down cards never entered) when the hand waits for that seat to show and it
        has such cards: the camera then proposes the cards it reads at that seat."""
        hand = self.table.hand
        if hand is None or hand.finished:
            return None
        prompt = hand.prompt()
        if prompt.kind != "show":
            return None
        seat = prompt.seats[0]
        missing = sum(1 for s in hand.state.seats if s.number == seat
                      for c in s.cards if not c.up and c.card is None)
        return (seat, missing) if missing else None

    def expected_seats(self) -> set[int]:
        """Seats the engine expects an up card for now."""
        hand = self.table.hand
        if hand is None or hand.finished:
            return set()
        return {seat for seat, (_downs, ups) in hand.cards_needed().items() if ups > 0}

    def update(self, readings: list[Any], frame_size: tuple[int, int]) -> list[dict[str, Any]]:
        """New stable readings (``hardware.camera.stable.Proposal``): the proposals to show, and
        the auto-confirmation of those the house allows."""
        with self.table.lock, self.lock:
            self.frame_size = frame_size
            w, h = max(frame_size[0], 1), max(frame_size[1], 1)
            self.readings = sorted(
                ({"card": r.card, "confidence": round(r.confidence, 3),
                  "seat": self.seat_at(*r.center),
                  "quad": [[round(x / w, 4), round(y / h, 4)] for x, y in r.quad]}
                 for r in readings), key=lambda r: (r["seat"] or 99, r["card"]))
            if len(readings) >= SCALE_CARDS:
                self.rank_px = statistics.median(rank_height(r.quad) for r in readings)
            expected = self.expected_seats()
            showing = self.showing()
            in_hand = self._cards_in_hand()
            known_at_seat = self._known_at_seat()
            out: list[dict[str, Any]] = []
            for r in readings:
                seat = self.seat_at(*r.center)
                if seat is None:
                    continue
                if seat in expected:
                    kind = "deal"
                elif showing is not None and seat == showing[0]:
                    kind = "show"  # a down card turned up at the showdown
                else:
                    continue
                if r.card in known_at_seat.get(seat, ()):
                    continue  # the seat's own card, read where it lies: nothing to enter
                if r.confidence < self.settings["min_confidence"]:
                    state = "low"
                elif r.card in in_hand:
                    state = "in_hand"
                else:
                    state = "ok"
                out.append({"seat": seat, "card": r.card, "confidence": round(r.confidence, 3),
                            "frames": r.frames, "streak": r.streak, "state": state,
                            "kind": kind})
            out.sort(key=lambda p: (p["seat"], -p["confidence"]))
            self.proposals = out
            auto = [p for p in out if self._auto_ok(p)]
        for p in auto:
            try:
                self.confirm(p["seat"], p["card"])
            except (ValueError, KioskError) as exc:
                log.info("camera: auto-confirm of %s refused: %s", p["card"], exc)
        self._broadcast()
        return out

    def update_down(self, centres: list[tuple[float, float]], frame_size: tuple[int, int]) -> None:
        """A new count of the face-down cards: ``centres`` of the card backs found in the frame
        (``hardware.camera.down.DownCard.center``), counted per calibrated seat zone."""
        with self.lock:
            self.frame_size = frame_size
            seen = dict.fromkeys(self.zones, 0)
            for x, y in centres:
                seat = self.seat_at(x, y)
                if seat is not None:
                    seen[seat] += 1
            self.down_seen = seen
            self._down_history = [*self._down_history, seen][-DOWN_HINT_COUNTS:]
        self._broadcast()

    def down_dealt(self) -> dict[int, int]:
        """Seat -> face-down cards the engine dealt it that still lie face down (seats of the
        hand that have not folded)."""
        hand = self.table.hand
        if hand is None or hand.finished:
            return {}
        return {s.number: sum(1 for c in s.cards if not c.up and not c.exposed)
                for s in hand.state.seats if not s.folded and s.cards}

    def down_hints(self) -> list[dict[str, int]]:
        """Seats whose face-down cards the camera counted differently from the engine in each of
        the last :data:`DOWN_HINT_COUNTS` counts; none unless the house turned the hints on."""
        if not self.settings["down_hints"]:
            return []
        with self.table.lock:
            dealt = self.down_dealt()
        with self.lock:
            history = list(self._down_history)
        if len(history) < DOWN_HINT_COUNTS:
            return []
        hints = []
        for seat, n in sorted(dealt.items()):
            counts = [h.get(seat) for h in history]
            if any(c is None or c == n for c in counts):
                continue
            hints.append({"seat": seat, "seen": int(history[-1][seat]), "dealt": n})
        return hints

    def unzoned_seats(self) -> list[tuple[int, str]]:
        """The seats still in the hand that have no zone (number, name): the camera cannot
        propose their cards, and the dealer is told so."""
        with self.table.lock:
            hand = self.table.hand
            if hand is None or hand.finished:
                return []
            playing = [(s.number, s.name) for s in hand.state.seats if not s.folded]
        with self.lock:
            return [(n, name) for n, name in playing if n not in self.zones]

    def _auto_ok(self, p: dict[str, Any]) -> bool:
        s = self.settings
        return bool(s["auto_confirm"] and p["kind"] == "deal" and p["state"] == "ok"
                    and p["streak"] >= s["auto_frames"]
                    and p["confidence"] >= s["auto_threshold"])

    def confirm(self, seat: Any, card: Any) -> dict[str, Any]:
        """Enter a proposed card through the table (same checks as a touch entry)."""
        try:
            seat_n = int(seat)
            parsed = Card.parse(str(card))
        except (TypeError, ValueError) as exc:
            raise KioskError("camera.err.confirm") from exc
        with self.table.lock:
            if str(parsed) in self._cards_in_hand():
                raise KioskError("camera.err.in_hand", Kind.NOT_NOW, card=parsed.symbol)
            result = self.table.submit({"type": "deal", "seat": seat_n, "card": str(parsed),
                                        "up": True}, source="camera")
        with self.lock:
            self.proposals = [p for p in self.proposals if p["card"] != str(parsed)]
        self._broadcast()
        return result

    # ---- state for the screens ----------------------------------------------------------------

    def status_text(self, lang: str) -> str:
        """The camera's state in words; a setting that kept it from starting is named, with
        what is allowed."""
        text = _ui(f"camera.state.{self.status['state']}", lang)
        detail = self.status.get("detail")
        return f"{text}: {detail}" if self.status["state"] == "config" and detail else text

    def snapshot(self, lang: str) -> dict[str, Any]:
        hints = [dict(h, text=_ui("camera.down_hint", lang, **h)) for h in self.down_hints()]
        unzoned = self.unzoned_seats()
        with self.lock:
            props = [dict(p, text=self.proposal_text(p, lang)) for p in self.proposals]
            return {
                "status": dict(self.status, text=self.status_text(lang)),
                "zones": {str(k): v for k, v in sorted(self.zones.items())},
                "settings": dict(self.settings),
                "proposals": props,
                "down": {str(k): v for k, v in sorted(self.down_seen.items())},
                "down_hints": hints,
                "readings": [dict(r, text=self.reading_text(r, lang)) for r in self.readings],
                "unzoned": {
                    "seats": [n for n, _name in unzoned],
                    "text": _ui("camera.unzoned", lang, seats=", ".join(
                        f"{n} · {name}" if name else str(n) for n, name in unzoned))
                    if unzoned else "",
                },
                "frame": list(self.frame_size),
                "scale": self.scale(lang),
            }

    def reads_in_detail(self) -> bool:
        """Whether a still table is read in detail now (asked by the recognition loop at every
        frame): always or never as the house sets it, and by default (``auto``) unless the
        cards' index ranks were last seen ``SMALL_RANK_PX`` tall or more, where reading
        enlarged adds next to nothing (docs/camera.md, "How large the cards must be"). Before
        any frame has read enough cards to tell their size, they may be too small to be read at
        the frame's own scale: it reads in detail."""
        with self.lock:
            mode, px = self.settings["detail"], self.rank_px
        if mode == "auto":
            return px is None or px < SMALL_RANK_PX
        return bool(mode == "on")

    def scale(self, lang: str) -> dict[str, Any]:
        """How large the read cards' indices are in the picture, and what to do when they are
        too small to be read surely: ``rank_px`` (None until a frame reads ``SCALE_CARDS``
        cards), ``small``, the words for the camera's page (``text``) and, when the cards are
        too small, the shorter ``warning`` of the dealer screen, which leads to that page."""
        with self.lock:
            px = self.rank_px
            mode = self.settings["detail"]
        if px is None:
            return {"rank_px": None, "small": False, "text": "", "warning": ""}
        shown, best = round(px), round(GOOD_RANK_PX)
        small = px < SMALL_RANK_PX
        warning = ""
        if not small:
            text = _ui("camera.scale", lang, px=shown, best=best)
        else:
            text = _ui("camera.scale_small", lang, px=shown, best=best)
            warning = _ui("camera.scale_warning", lang, px=shown, best=best)
            if mode == "off":
                text += " " + _ui("camera.scale_detail", lang)
            elif mode == "auto":
                text += " " + _ui("camera.scale_detail_auto", lang)
        return {"rank_px": round(px, 1), "small": small, "text": text, "warning": warning}

    @staticmethod
    def proposal_text(p: dict[str, Any], lang: str) -> str:
        card = Card.parse(p["card"]).symbol
        key = "camera.proposal_show" if p.get("kind") == "show" else "camera.proposal"
        text = _ui(key, lang, seat=p["seat"], card=card, confidence=round(100 * p["confidence"]))
        if p["state"] != "ok":
            text += " · " + _ui(f"camera.flag.{p['state']}", lang)
        return text

    @staticmethod
    def reading_text(r: dict[str, Any], lang: str) -> str:
        """"Q♥ 98% · seat 3", or "· no seat" outside every zone."""
        where = (_ui("camera.reading_seat", lang, seat=r["seat"]) if r["seat"] is not None
                 else _ui("camera.reading_no_seat", lang))
        return f"{Card.parse(r['card']).symbol} {round(100 * r['confidence'])}% · {where}"

    def set_status(self, state: str, detail: str = "") -> None:
        with self.lock:
            self.status = {"state": state, "detail": detail}
        self._broadcast()

    def _broadcast(self) -> None:
        if self.emit is None:
            return
        for lang in LANGUAGES:
            try:
                self.emit("camera", self.snapshot(lang), lang)
            except Exception:  # a screen must never break the camera loop
                log.exception("camera: broadcast failed")

    def set_frame(self, jpeg: bytes) -> None:
        with self.lock:
            self._latest_jpeg = jpeg

    def latest_jpeg(self) -> bytes | None:
        with self.lock:
            return self._latest_jpeg

    # ---- life cycle -----------------------------------------------------------------------------

    def start(self, source: str, frame_interval_s: float = 0.0,
              size: tuple[int, int] | None = None) -> None:
        """Capture from ``source`` (its frames fitted to ``size``) and recognise in the
        background."""
        import cv2

        from hardware.camera.capture import Capture, Status
        from hardware.camera.down import find_down_cards
        from hardware.camera.recognize import Recognizer
        from hardware.camera.stable import CameraLoop, Stabilizer
        from kiosk.concurrency import blocking

        def on_status(status: Status) -> None:
            state = {"bad-frame": "bad_frame"}.get(status.state, status.state)
            self.set_status(state, status.detail)

        # readings below the house threshold are still shown, flagged, never entered by themselves
        recognizer = Recognizer(min_confidence=0.2)
        self.capture = Capture.from_spec(source, size=size, on_status=on_status,
                                         frame_interval_s=frame_interval_s, blocking=blocking)
        last_jpeg = [0.0]
        last_down = [0.0]

        def on_proposals(proposals: list[Any], result: Any) -> None:
            _, frame = self.capture.latest()
            if frame is None:
                return
            now = time.monotonic()
            if now - last_jpeg[0] > 1.0:
                ok, jpg = blocking(lambda: cv2.imencode(".jpg", frame,
                                                        [cv2.IMWRITE_JPEG_QUALITY, 80]))
                if ok:
                    self.set_frame(jpg.tobytes())
                last_jpeg[0] = now
            size = (frame.shape[1], frame.shape[0])
            self.update(proposals, size)
            if now - last_down[0] >= DOWN_INTERVAL_S:
                # counted at a low rate: the recogniser keeps the frame rate
                last_down[0] = now
                if self.zones:
                    downs = blocking(lambda: find_down_cards(frame, result))
                    self.update_down([d.center for d in downs], size)

        # each reader in a process of its own: the readers keep the cores busier, and this
        # process (the dealer screen's server) is not held up by their Python
        self.loop = CameraLoop(self.capture, recognizer, on_proposals, Stabilizer(3, 5),
                               on_error=lambda exc: log.warning("camera: %s", exc),
                               detail=self.reads_in_detail, processes=True)
        self.capture.start()
        self.loop.start()

    def stop(self) -> None:
        if self.loop is not None:
            self.loop.stop()
        if self.capture is not None:
            self.capture.stop()


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

    def emit(event: str, data: dict[str, Any], lang: str) -> None:
        from kiosk.live import room

        socketio.emit(event, data, to=room("dealer", lang, table.table_id))

    path = Path(app.instance_path) / f"camera-table-{table.table_id}.json"
    camera = TableCamera(table, path, emit=emit)
    app.extensions["stud_camera"] = camera
    app.register_blueprint(bp)
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
            camera.set_status("config", str(exc))
            return camera
        try:
            camera.start(source, interval, size)
        except Exception as exc:  # a missing model or source must not stop the kiosk
            log.error("camera: cannot start on %s: %s", source, exc)
            camera.set_status("lost", str(exc))
    return camera


def camera() -> TableCamera:
    found: TableCamera = current_app.extensions["stud_camera"]
    return found


def _lang() -> str:
    from kiosk.i18n import current_lang

    return current_lang()


def _error(exc: Exception, lang: str) -> tuple[Response, int]:
    return jsonify(answer(exc, lang)), status_of(exc)


@bp.get("/camera")
@dealer_required
def page() -> str:
    return render_template("camera.html", seats=calibration_seats(camera()))


def calibration_seats(cam: TableCamera) -> list[dict[str, Any]]:
    """The seats offered for a zone: those playing at the table and those that have a zone (so it
    can be cleared); every seat when the table is not set up yet."""
    seats = cam.table.setup().get("seats", [])
    with cam.lock:
        zoned = set(cam.zones)
    shown = [{"seat": int(s["seat"]), "name": str(s.get("name") or "")}
             for s in seats if s.get("active") or int(s["seat"]) in zoned]
    return shown or [{"seat": n, "name": ""} for n in range(1, 11)]


@bp.get("/camera/snapshot.jpg")
@dealer_required
def snapshot_jpeg() -> Response | tuple[Response, int]:
    data = camera().latest_jpeg()
    if data is None:
        return jsonify({"ok": False, "error": _ui("camera.err.no_frame", _lang())}), 404
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/api/camera")
@dealer_required
def api_state() -> tuple[Response, int]:
    return jsonify(camera().snapshot(_lang())), 200


@bp.post("/api/camera/zones")
@dealer_required
def api_zones() -> tuple[Response, int]:
    lang = _lang()
    try:
        camera().set_zones((request.get_json(silent=True) or {}).get("zones"))
    except KioskError as exc:
        return _error(exc, lang)
    return jsonify({"ok": True, **camera().snapshot(lang)}), 200


@bp.post("/api/camera/settings")
@dealer_required
def api_settings() -> tuple[Response, int]:
    lang = _lang()
    try:
        camera().set_settings(request.get_json(silent=True) or {})
    except KioskError as exc:
        return _error(exc, lang)
    return jsonify({"ok": True, **camera().snapshot(lang)}), 200


@bp.post("/api/camera/confirm")
@dealer_required
def api_confirm() -> tuple[Response, int]:
    lang = _lang()
    body = request.get_json(silent=True) or {}
    try:
        result = camera().confirm(body.get("seat"), body.get("card"))
    except ValueError as exc:  # the kiosk's or the engine's refusal, in its words
        return _error(exc, lang)
    return jsonify(result), 200


def _socket_lang() -> str:
    from flask import session

    lang = session.get("lang")
    return str(lang) if lang in LANGUAGES else str(current_app.config.get("DEFAULT_LANG", "it"))


def on_camera(*_args: Any) -> dict[str, Any]:
    """Socket.IO ``camera``: the current state, for dealer connections."""
    if not is_dealer():
        return {"ok": False}
    return camera().snapshot(_socket_lang())


def on_confirm(data: Any = None) -> dict[str, Any]:
    """Socket.IO ``camera_confirm`` ``{"seat": 3, "card": "Qh"}``: enter a proposal."""
    lang = _socket_lang()
    if not is_dealer():
        return {"ok": False, "error": _ui("camera.err.confirm", lang)}
    body = data if isinstance(data, dict) else {}
    try:
        return camera().confirm(body.get("seat"), body.get("card"))
    except ValueError as exc:
        return answer(exc, lang)


def on_calibrate(data: Any = None) -> dict[str, Any]:
    """Socket.IO ``camera_calibrate`` ``{"zones": {...}}`` and/or ``{"settings": {...}}``."""
    lang = _socket_lang()
    if not is_dealer():
        return {"ok": False, "error": _ui("camera.err.zone", lang)}
    body = data if isinstance(data, dict) else {}
    try:
        if "zones" in body:
            camera().set_zones(body["zones"])
        if "settings" in body:
            camera().set_settings(body["settings"])
    except KioskError as exc:
        return answer(exc, lang)
    return {"ok": True, **camera().snapshot(lang)}


# Registered on import, like kiosk.devices: create_app imports this module before socketio.init_app.
socketio.on_event("camera", on_camera)
socketio.on_event("camera_confirm", on_confirm)
socketio.on_event("camera_calibrate", on_calibrate)
