"""The kiosk: the Flask + Flask-SocketIO web app that wires the engine and the hardware together.

``create_app(test_config=None)`` builds one app for one table: configuration from the environment
(see :mod:`kiosk.config`) and the instance folder, the store, the table service, the blueprints
(auth, setup, dealer, spectator, history, api) and the Socket.IO handlers (:mod:`kiosk.live`).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Flask is imported by create_app: a command without a server needs none of it
    from flask import Flask


def templates_folder() -> Path:
    """The page templates: ``kiosk/templates`` in an installed wheel (pyproject.toml packages the
    repository's top-level ``templates/`` there), ``templates/`` beside ``kiosk/`` in a checkout."""
    package = Path(__file__).resolve().parent
    installed = package / "templates"
    return installed if installed.is_dir() else package.parent / "templates"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """A kiosk app. ``test_config`` overrides the environment (tests pass their own instance)."""
    from flask import Flask

    from kiosk import config as cfg
    from kiosk import strict_json
    from kiosk.concurrency import async_mode
    from kiosk.extensions import csrf, socketio
    from kiosk.i18n import current_lang, js_messages, t
    from kiosk.security import DealerSessions, PinGuard, SecuritySettings
    from kiosk.service import TableService
    from kiosk.store import Store
    from kiosk.strict_json import StrictJSONProvider

    overrides = dict(test_config or {})
    instance = Path(overrides.pop("INSTANCE_PATH", None) or cfg.instance_path()).resolve()
    instance.mkdir(parents=True, exist_ok=True)
    app = Flask(
        __name__,
        instance_path=str(instance),
        template_folder=str(templates_folder()),
        static_folder="static",
    )
    app.config.from_mapping(cfg.from_environment(instance))
    security = SecuritySettings()
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(hours=security.session_hours),
        MAX_CONTENT_LENGTH=security.max_body_bytes,
        WTF_CSRF_TIME_LIMIT=None,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )
    app.config.update(overrides)
    app.json = StrictJSONProvider(app)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = cfg.secret_key(instance)

    store = Store(app.config["DATABASE_URL"])
    service = TableService(store, table_id=app.config["TABLE_ID"])
    app.extensions["stud_store"] = store
    app.extensions["stud_table"] = service
    app.extensions["stud_pin_guard"] = PinGuard(store, security)
    app.extensions["stud_dealer_sessions"] = DealerSessions(store, service.table_id, security)

    # kiosk.live registers its Socket.IO handlers on import: that must happen before the first
    # init_app, so that SocketIO keeps them and binds them to every app's server.
    from kiosk import broadcast, camera, devices, live, room, tournament_clock
    from kiosk.views import camera as _camera_views  # noqa: F401  (its Socket.IO events)
    from kiosk.views import devices as _devices_views  # noqa: F401  (its Socket.IO events)

    csrf.init_app(app)
    socketio.init_app(
        app,
        async_mode=async_mode(),
        message_queue=app.config.get("MESSAGE_QUEUE"),
        ping_interval=5,
        ping_timeout=10,
        max_http_buffer_size=security.max_body_bytes,
        json=strict_json,
    )

    from kiosk.views import (
        api,
        auth,
        dealer,
        errors,
        history,
        night,
        overlay,
        setup,
        spectator,
        tournament,
    )

    for module in (auth, setup, dealer, spectator, overlay, history, api, night, tournament):
        app.register_blueprint(module.bp)
    errors.init_app(app)  # every refusal in words, and the headers of every answer
    # Only this kiosk's own screens are in its table's rooms: other kiosks of a card room get the
    # table through kiosk.room, so the dealer's view never travels through the message queue.
    live.connect_service(service)
    live.connect_sessions(app)
    devices.init_app(app, service)  # serial card readers, button panels, displays
    camera.init_app(app, service)  # camera card entry: seat zones, proposals (docs/camera.md)
    room.init_app(app)  # /room: every table of a card room, live
    broadcast.init_app(app, service)  # the TV's odds and replays, the stream overlay
    tournament_clock.init_app(app, service)  # a tournament's clock: heartbeat, outage, marks

    @app.context_processor
    def inject_i18n() -> dict[str, Any]:
        lang = current_lang()
        return {"t": t, "lang": lang, "js_messages": lambda: js_messages(lang)}

    return app
