"""The camera's pages and routes (docs/camera.md, "Routes and events"): the calibration page,
the learning of the deck on the table, the learned decks and their examples, the JSON routes and
the Socket.IO events of the dealer screens. Everything goes to the table's
:class:`~kiosk.camera.service.TableCamera`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, render_template, request, session
from werkzeug.wrappers import Response

from engine.i18n import LANGUAGES
from kiosk.camera import TableCamera, camera
from kiosk.camera.settings import CameraError, ui
from kiosk.errors import answer, status_of
from kiosk.extensions import socketio
from kiosk.i18n import current_lang
from kiosk.views.auth import dealer_required, is_dealer

bp = Blueprint("camera", __name__)

def _error(exc: Exception, lang: str) -> tuple[Response, int]:
    """A refusal in words, its status by its kind (kiosk/errors.py; the engine's: 422)."""
    return jsonify(answer(exc, lang)), status_of(exc)


def _answer(call: Callable[[TableCamera], dict[str, Any] | None]) -> tuple[Response, int]:
    """A JSON route for the dealer: ``call``'s answer, or the refusal in the screen's words (an
    engine refusal in the engine's)."""
    lang = current_lang()
    if not is_dealer():
        return jsonify({"ok": False, "error": ui("live.need_pin", lang)}), 403
    try:
        body = call(camera())
    except ValueError as exc:
        return _error(exc, lang)
    return jsonify(body if body is not None else {"ok": True, **camera().snapshot(lang)}), 200


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    return body if isinstance(body, dict) else {}


# ---- pages --------------------------------------------------------------------------------------


def calibration_seats(cam: TableCamera) -> list[dict[str, Any]]:
    """The seats offered for a zone: those playing at the table and those that have a zone (so it
    can be cleared); every seat when the table is not set up yet."""
    seats = cam.table.setup().get("seats", [])
    zoned = set(cam.zones)
    shown = [{"seat": int(s["seat"]), "name": str(s.get("name") or "")}
             for s in seats if s.get("active") or int(s["seat"]) in zoned]
    return shown or [{"seat": n, "name": ""} for n in range(1, 11)]


@bp.get("/camera")
@dealer_required
def page() -> str:
    return render_template("camera.html", seats=calibration_seats(camera()))


@bp.get("/camera/deck")
@dealer_required
def learn_page() -> str:
    return render_template("camera_learn.html")


@bp.get("/camera/decks")
@dealer_required
def decks_page() -> str:
    return render_template("camera_decks.html")


@bp.get("/camera/decks/<key>")
@dealer_required
def deck_page(key: str) -> str:
    try:
        deck = camera().decks.deck(key)
    except CameraError:
        abort(404)
    return render_template("camera_deck.html", key=key, name=deck.name)


@bp.get("/camera/snapshot.jpg")
@dealer_required
def snapshot_jpeg() -> Response | tuple[Response, int]:
    data = camera().latest_jpeg()
    if data is None:
        return jsonify({"ok": False, "error": ui("camera.err.no_frame", current_lang())}), 404
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera/decks/<key>/examples/<example_id>.png")
@dealer_required
def example_thumb(key: str, example_id: str) -> Response:
    """An example's corner as the camera saw it (upright, in colour)."""
    import cv2

    try:
        example = camera().decks.deck(key).get(example_id)
    except CameraError:
        example = None
    if example is None:
        abort(404)
    ok, png = cv2.imencode(".png", example.thumb)
    if not ok:
        abort(500)
    return Response(png.tobytes(), mimetype="image/png",
                    headers={"Cache-Control": "private, max-age=86400"})


# ---- JSON ---------------------------------------------------------------------------------------


@bp.get("/api/camera")
def api_state() -> tuple[Response, int]:
    return _answer(lambda cam: cam.snapshot(current_lang()))


@bp.post("/api/camera/zones")
def api_zones() -> tuple[Response, int]:
    return _answer(lambda cam: cam.set_zones(_body().get("zones")))


@bp.post("/api/camera/settings")
def api_settings() -> tuple[Response, int]:
    return _answer(lambda cam: cam.set_settings(_body()))


@bp.post("/api/camera/confirm")
def api_confirm() -> tuple[Response, int]:
    body = _body()
    return _answer(lambda cam: cam.confirm(body.get("seat"), body.get("card")))


@bp.post("/api/camera/corners")
def api_name_corner() -> tuple[Response, int]:
    """``{"corner": "c12", "card": "Kh"}``: the dealer named an outlined corner."""
    body = _body()
    return _answer(lambda cam: cam.name_corner(body.get("corner"), body.get("card")))


@bp.post("/api/camera/corners/read")
def api_name_read() -> tuple[Response, int]:
    """Every corner read surely and not named yet, named as read."""
    return _answer(lambda cam: cam.name_read())


def _decks(cam: TableCamera) -> dict[str, Any]:
    return {"ok": True, "decks": [s.to_json() for s in cam.decks.summaries()]}


@bp.get("/api/camera/decks")
def api_decks() -> tuple[Response, int]:
    return _answer(_decks)


@bp.post("/api/camera/decks")
def api_new_deck() -> tuple[Response, int]:
    """``{"name": "Modiano rosso"}``: a new deck, which the table plays from now on."""
    name = _body().get("name")

    def create(cam: TableCamera) -> dict[str, Any]:
        key = cam.decks.create(name)
        cam.decks.flush()  # a deck named is on disk before the page says so
        return {**_decks(cam), "key": key}

    return _answer(create)


@bp.post("/api/camera/decks/<key>/table")
def api_choose_deck(key: str) -> tuple[Response, int]:
    """The table plays the deck ``key`` from now on."""

    def choose(cam: TableCamera) -> dict[str, Any]:
        cam.decks.choose(key)
        return _decks(cam)

    return _answer(choose)


@bp.delete("/api/camera/decks/<key>")
def api_delete_deck(key: str) -> tuple[Response, int]:

    def delete(cam: TableCamera) -> dict[str, Any]:
        cam.decks.delete(key)
        return _decks(cam)

    return _answer(delete)


@bp.get("/api/camera/decks/<key>")
def api_deck(key: str) -> tuple[Response, int]:
    """A deck's examples, by card."""

    def examples(cam: TableCamera) -> dict[str, Any]:
        deck = cam.decks.deck(key)
        cards: dict[str, list[dict[str, Any]]] = {}
        for example in sorted(deck, key=lambda e: e.added):
            cards.setdefault(example.card, []).append(example.to_json())
        return {"ok": True, "key": key, "name": deck.name, "counts": deck.counts(),
                "cards": cards}

    return _answer(examples)


@bp.delete("/api/camera/decks/<key>/examples/<example_id>")
def api_remove_example(key: str, example_id: str) -> tuple[Response, int]:
    """Take a wrong example out of a deck: answered once the deck is written, so that the
    dealer's correction outlives a power cut right after it."""

    def remove(cam: TableCamera) -> dict[str, Any]:
        removed = cam.decks.remove(key, example_id)
        cam.decks.flush()
        return {"ok": True, "removed": removed.to_json()}

    return _answer(remove)


# ---- Socket.IO ----------------------------------------------------------------------------------


def _socket_lang() -> str:
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
        return {"ok": False, "error": ui("camera.err.confirm", lang)}
    body = data if isinstance(data, dict) else {}
    try:
        return camera().confirm(body.get("seat"), body.get("card"))
    except ValueError as exc:
        text = getattr(exc, "text", None)
        return {"ok": False, "error": text(lang) if callable(text) else str(exc)}


def on_calibrate(data: Any = None) -> dict[str, Any]:
    """Socket.IO ``camera_calibrate`` ``{"zones": {...}}`` and/or ``{"settings": {...}}``."""
    lang = _socket_lang()
    if not is_dealer():
        return {"ok": False, "error": ui("camera.err.zone", lang)}
    body = data if isinstance(data, dict) else {}
    try:
        if "zones" in body:
            camera().set_zones(body["zones"])
        if "settings" in body:
            camera().set_settings(body["settings"])
    except CameraError as exc:
        return {"ok": False, "error": exc.text(lang)}
    return {"ok": True, **camera().snapshot(lang)}


# Registered on import, like kiosk.live: create_app imports this module before socketio.init_app.
socketio.on_event("camera", on_camera)
socketio.on_event("camera_confirm", on_confirm)
socketio.on_event("camera_calibrate", on_calibrate)
