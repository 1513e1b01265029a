"""The serial devices' settings: the ports, the tag mapping and the timings, typed and checked.

:class:`DeviceSettings` is made from the app's configuration, ``$STUD_KIOSK_SERIAL_PORTS`` and
``instance/serial.json`` (:meth:`DeviceSettings.configured`; docs/hardware.md, "Configuring the
ports"); a timing that is not a number of seconds, 0 or more, is refused with what is allowed. A
timing left unset keeps the default of :class:`hardware.serial.DeviceManager`.

>>> DeviceSettings(ports="/dev/ttyACM0", heartbeat=0).manager_options()
{'heartbeat': 0.0}
>>> DeviceSettings(retry=-1)
Traceback (most recent call last):
...
kiosk.errors.KioskError: Serial setting retry cannot be -1: a number of seconds, 0 or more
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from hardware.serial import TAG_MAP_FILE
from kiosk.errors import KioskError

ENV_PORTS = "STUD_KIOSK_SERIAL_PORTS"
CONFIG_FILE = "serial.json"

#: the timings: (setting, key in the app's configuration, keyword of ``DeviceManager``)
TIMINGS = (
    ("heartbeat", "SERIAL_HEARTBEAT", "heartbeat"),
    ("repeat_window", "SERIAL_REPEAT_WINDOW", "repeat_window"),
    ("retry", "SERIAL_RETRY", "retry_interval"),
)


@dataclass(frozen=True, slots=True)
class DeviceSettings:
    """Where the table's devices are and how the kiosk talks to them."""

    #: the ports separated by commas (``hardware.serial.parse_port_list``); "" for none
    ports: str = ""
    #: the tag mapping file; a relative name is in the instance folder
    tags: str = TAG_MAP_FILE
    #: seconds between PINGs (0: none)
    heartbeat: float | None = None
    #: seconds within which the same read from the same reader is entered once
    repeat_window: float | None = None
    #: seconds between attempts to open a missing port
    retry: float | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("ports", "tags") or value is None:
                continue
            try:
                seconds = float(value)
            except (TypeError, ValueError):
                seconds = math.nan
            if isinstance(value, bool) or not math.isfinite(seconds) or seconds < 0:
                raise KioskError("devices.err.setting", setting=f.name, value=json.dumps(value))
            object.__setattr__(self, f.name, seconds)

    def manager_options(self) -> dict[str, float]:
        """The timings set, as :class:`hardware.serial.DeviceManager` takes them."""
        options = {}
        for name, _key, keyword in TIMINGS:
            value = getattr(self, name)
            if value is not None:
                options[keyword] = value
        return options

    def tag_map_path(self, instance: Path) -> Path:
        return instance / self.tags

    @classmethod
    def configured(cls, config: Mapping[str, Any], instance: Path) -> DeviceSettings:
        """The settings of an app: its configuration ``config`` (``SERIAL_PORTS``,
        ``SERIAL_TAGS``, ``SERIAL_HEARTBEAT``, ``SERIAL_REPEAT_WINDOW``, ``SERIAL_RETRY``) wins,
        then ``$STUD_KIOSK_SERIAL_PORTS`` for the ports, then ``serial.json`` in the instance
        folder."""
        stored = read_file(instance)
        ports = config.get("SERIAL_PORTS")
        if ports is None:
            ports = os.environ.get(ENV_PORTS)
        if ports is None:
            ports = stored.get("ports")
        timings = {}
        for name, key, _keyword in TIMINGS:
            value = config[key] if key in config else stored.get(name)
            if value is not None:
                timings[name] = value
        return cls(
            ports=_port_list(ports),
            tags=str(config.get("SERIAL_TAGS") or stored.get("tags") or TAG_MAP_FILE),
            **timings,
        )


def _port_list(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else ",".join(str(v) for v in value)


def read_file(instance: Path) -> dict[str, Any]:
    """``serial.json`` in the instance folder (``{}`` when there is none): ``ports``, ``tags``,
    ``heartbeat``, ``repeat_window``, ``retry``. A file that holds no such settings is refused,
    naming it."""
    path = instance / CONFIG_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("the file holds no JSON object")
        for key in ("heartbeat", "repeat_window", "retry"):
            if key in data:
                data[key] = float(data[key])
    except (ValueError, TypeError) as exc:
        raise ValueError(
            f'{path}: not a serial configuration ({exc}); write {{"ports": ["/dev/..."]}}'
        ) from exc
    return data
