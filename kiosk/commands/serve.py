"""``stud-kiosk serve``: run the kiosk with gunicorn (one gevent worker, simple-websocket).

One worker, because Socket.IO needs every request of a screen in the process that holds its
session; gevent, because every open screen then costs a greenlet rather than a thread, and a
crowd of screens cannot take the dealer's turn (docs/architecture.md, "The server").
"""

from __future__ import annotations

import argparse
import os

HELP = "run the kiosk web server (dealer screen, spectator screen, Socket.IO)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="address to listen on (default $STUD_KIOSK_HOST or 0.0.0.0)")
    parser.add_argument("--port", type=int, help="port (default $STUD_KIOSK_PORT or 8000)")
    parser.add_argument(
        "--instance", help="instance folder: database, secret key (default $STUD_KIOSK_INSTANCE)"
    )
    parser.add_argument(
        "--connections",
        type=int,
        help="open connections the server holds at most (default $STUD_KIOSK_CONNECTIONS or "
        "2000); other machines may hold all but a tenth of them, at most 100 kept for this one",
    )
    parser.add_argument(
        "--dev", action="store_true", help="use Flask's development server instead of gunicorn"
    )


def run(args: argparse.Namespace) -> int:
    if args.instance:
        os.environ["STUD_KIOSK_INSTANCE"] = args.instance
    host = args.host or os.environ.get("STUD_KIOSK_HOST", "0.0.0.0")
    port = args.port or int(os.environ.get("STUD_KIOSK_PORT", "8000"))

    if args.dev:
        from kiosk import create_app
        from kiosk.extensions import socketio

        app = create_app()
        socketio.run(app, host=host, port=port, allow_unsafe_werkzeug=True)
        return 0

    from typing import Any

    from gunicorn.app.base import BaseApplication

    from kiosk.server import KioskWorker, ServerSettings

    KioskWorker.settings = ServerSettings.from_environment(args.connections)

    class KioskServer(BaseApplication):  # type: ignore[misc]
        """gunicorn, configured here rather than from a file or its own command line."""

        def load_config(self) -> None:
            settings: dict[str, Any] = {
                "bind": f"{host}:{port}",
                "workers": 1,  # Socket.IO needs sticky sessions: one worker per table
                # gevent: patches the standard library before the app is made
                "worker_class": KioskWorker,
                "worker_connections": KioskWorker.settings.connections,
                "timeout": 30,  # the worker heartbeats from its event loop: open sockets are fine
                "graceful_timeout": 5,
                "keepalive": 5,
                "accesslog": None,
                "errorlog": "-",
                "loglevel": "info",
                "proc_name": "stud-kiosk",
            }
            if "control_socket_disable" in self.cfg.settings:  # gunicorn >= 24: not needed here
                settings["control_socket_disable"] = True
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            from kiosk import create_app

            return create_app()

    print(f"stud-kiosk: http://{host}:{port}/dealer (dealer), /spectator (TV)", flush=True)
    KioskServer().run()
    return 0
