"""Serial table hardware: card readers, dealer button panels and pot displays (docs/hardware.md).

- :mod:`hardware.serial.protocol`: the line protocol, its messages, parsing and formatting.
- :mod:`hardware.serial.device`: one port over pyserial with a reader thread and reconnection.
- :mod:`hardware.serial.manager`: the table's devices, inputs to a listener, outputs to displays.
- :mod:`hardware.serial.listener`: what the kiosk implements to take the inputs, the notices worded
  for the dealer, the filter of repeated reads.
- :mod:`hardware.serial.ports`: the ports as configured and as the system sees them.
- :mod:`hardware.serial.tags`: RFID tag to card mapping and the deck registration.
- :mod:`hardware.serial.virtual`: a device's end of a PTY or a port, for the simulator and tests.
"""

from __future__ import annotations

from hardware.serial.device import (
    CONNECTED,
    DISCONNECTED,
    DeviceStatus,
    LineAssembler,
    SerialDevice,
)
from hardware.serial.listener import DeviceListener, Notice, Refused, RepeatFilter
from hardware.serial.manager import DeviceManager, DisplayState
from hardware.serial.ports import PortInfo, PortSpec, discover_ports, parse_port_list
from hardware.serial.protocol import (
    BAUDRATE,
    BUTTONS,
    MAX_LINE,
    PROTOCOL_VERSION,
    HardwareError,
    ProtocolError,
    parse_device_line,
    parse_kiosk_line,
)
from hardware.serial.tags import REGISTRATION_ORDER, TAG_MAP_FILE, DeckRegistration, TagMap

__all__ = [
    "BAUDRATE",
    "BUTTONS",
    "CONNECTED",
    "DISCONNECTED",
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "REGISTRATION_ORDER",
    "TAG_MAP_FILE",
    "DeckRegistration",
    "DeviceListener",
    "DeviceManager",
    "DeviceStatus",
    "DisplayState",
    "HardwareError",
    "LineAssembler",
    "Notice",
    "PortInfo",
    "PortSpec",
    "ProtocolError",
    "Refused",
    "RepeatFilter",
    "SerialDevice",
    "TagMap",
    "discover_ports",
    "parse_device_line",
    "parse_kiosk_line",
    "parse_port_list",
]
