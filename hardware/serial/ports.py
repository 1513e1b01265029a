"""The serial ports of a table: as configured (:func:`parse_port_list`) and as the system sees
them (:func:`discover_ports`)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from serial.tools import list_ports


@dataclass(frozen=True)
class PortSpec:
    """One configured port: a pyserial URL and, optionally, the kinds it is known to be."""

    url: str
    kinds: tuple[str, ...] = ()


_KIND_PREFIX = re.compile(r"^((?:reader|buttons|display)(?:\+(?:reader|buttons|display))*)=(.+)$")


def parse_port_list(text: str) -> list[PortSpec]:
    """Ports from configuration text, separated by commas or whitespace.

    Each is a path or a pyserial URL, optionally prefixed with its kinds (for a device that does not
    say ``HELLO``).

    >>> parse_port_list("/dev/ttyACM0, display=socket://10.0.0.5:7000")[1]
    PortSpec(url='socket://10.0.0.5:7000', kinds=('display',))
    """
    specs: list[PortSpec] = []
    for entry in re.split(r"[,\s]+", text.strip()):
        if not entry:
            continue
        match = _KIND_PREFIX.match(entry)
        if match:
            specs.append(PortSpec(match.group(2), tuple(match.group(1).split("+"))))
        else:
            specs.append(PortSpec(entry))
    return specs


@dataclass(frozen=True)
class PortInfo:
    """A serial port the system sees (``serial.tools.list_ports``)."""

    device: str
    description: str
    hwid: str
    by_id: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def discover_ports(by_id_folder: Path = Path("/dev/serial/by-id")) -> list[PortInfo]:
    """The serial ports present now, with their ``/dev/serial/by-id`` name if they have one."""
    links: dict[str, str] = {}
    if by_id_folder.is_dir():
        for link in sorted(by_id_folder.iterdir()):
            try:
                links[str(link.resolve())] = str(link)
            except OSError:
                continue
    found = []
    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        found.append(
            PortInfo(port.device, port.description or "", port.hwid or "", links.get(port.device))
        )
    return found
