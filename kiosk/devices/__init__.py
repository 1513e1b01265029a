"""Serial table hardware in the kiosk: card readers, button panels and displays (docs/hardware.md).

:func:`init_app` makes the table's :class:`~kiosk.devices.service.TableDevices` on the configured
ports and starts it. The page and routes are in :mod:`kiosk.views.devices`.

- :mod:`kiosk.devices.settings`: the ports, the tag mapping and the timings (typed, checked), from
  ``SERIAL_*`` in the app's configuration, ``$STUD_KIOSK_SERIAL_PORTS`` (ports separated by
  commas: paths, ``/dev/serial/by-id`` links or pyserial URLs, optionally ``display=...``) and
  ``instance/serial.json``; the tag mapping is ``instance/serial-tags.json``;
- :mod:`kiosk.devices.display`: what the displays show, asked of the hand;
- :mod:`kiosk.devices.service`: :class:`TableDevices`, the one way in: card reads and button
  presses through :meth:`TableService.submit` (source ``serial``), the displays after every change
  of the table, the devices' state and the deck registration for the dealer screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, current_app

from kiosk.devices.display import display_state, display_text
from kiosk.devices.service import TableDevices
from kiosk.devices.settings import DeviceSettings
from kiosk.extensions import socketio
from kiosk.service import TableService


def init_app(app: Flask, table: TableService) -> TableDevices:
    """Create the table's devices, start them, add the page and the JSON routes."""
    from kiosk.views import devices as views

    def emit(event: str, data: dict[str, Any], lang: str) -> None:
        from kiosk.live import room

        socketio.emit(event, data, to=room("dealer", lang, table.table_id))

    instance = Path(app.instance_path)
    settings = DeviceSettings.configured(app.config, instance)
    found = TableDevices(
        table,
        settings.ports,
        tag_map_path=settings.tag_map_path(instance),
        lang=app.config.get("DEFAULT_LANG", "it"),
        emit=emit,
        **settings.manager_options(),
    )
    app.extensions["stud_devices"] = found
    app.register_blueprint(views.bp)
    found.start()
    return found


def devices() -> TableDevices:
    """The current app's devices."""
    found: TableDevices = current_app.extensions["stud_devices"]
    return found


__all__ = ["DeviceSettings", "TableDevices", "devices", "display_state", "display_text",
           "init_app"]
