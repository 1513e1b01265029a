"""Flask extensions, created once and bound to each app with ``init_app``."""

from __future__ import annotations

from flask_socketio import SocketIO
from flask_wtf.csrf import CSRFProtect

socketio = SocketIO()
csrf = CSRFProtect()
