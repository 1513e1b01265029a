"""Configuration from the environment (``STUD_KIOSK_*``) and the instance folder.

| variable | default | meaning |
| --- | --- | --- |
| ``STUD_KIOSK_INSTANCE`` | ``./instance`` | folder of the database and the generated secret key |
| ``STUD_KIOSK_HOST`` | ``0.0.0.0`` | address ``stud-kiosk serve`` listens on (LAN, for the TV) |
| ``STUD_KIOSK_PORT`` | ``8000`` | port |
| ``STUD_KIOSK_DATABASE_URL`` | SQLite file in the instance folder | SQLAlchemy URL of the store |
| ``STUD_KIOSK_MESSAGE_QUEUE`` | none | Redis URL for Flask-SocketIO's message queue (card rooms) |
| ``STUD_KIOSK_LANG`` | ``it`` | language of a screen that has not chosen one |
| ``STUD_KIOSK_SERIAL_PORTS`` | none | serial card readers, buttons, displays (docs/hardware.md) |
| ``STUD_KIOSK_CONNECTIONS`` | 2000 | open connections the server holds (``kiosk.server``) |
| ``STUD_KIOSK_CONNECTIONS_PER_ADDRESS`` | 64 | open connections another machine may hold |
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

ENV_PREFIX = "STUD_KIOSK_"


def instance_path() -> Path:
    return Path(os.environ.get(ENV_PREFIX + "INSTANCE", "instance")).resolve()


def from_environment(instance: Path) -> dict[str, Any]:
    """The app's configuration as the environment gives it."""
    env = os.environ
    return {
        "HOST": env.get(ENV_PREFIX + "HOST", "0.0.0.0"),
        "PORT": int(env.get(ENV_PREFIX + "PORT", "8000")),
        "DATABASE_URL": env.get(ENV_PREFIX + "DATABASE_URL")
        or f"sqlite:///{instance / 'stud-kiosk.sqlite3'}",
        "MESSAGE_QUEUE": env.get(ENV_PREFIX + "MESSAGE_QUEUE") or None,
        "DEFAULT_LANG": env.get(ENV_PREFIX + "LANG", "it"),
        "TABLE_ID": int(env.get(ENV_PREFIX + "TABLE_ID", "1")),
    }


def secret_key(instance: Path) -> str:
    """The session key, generated once into ``instance/secret_key`` (mode 600) and reused."""
    path = instance / "secret_key"
    if path.exists():
        return path.read_text(encoding="ascii").strip()
    instance.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key + "\n")
    return key
