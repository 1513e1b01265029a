"""The camera's settings: the house's choices, the seats' zones and the table's deck, kept per
table in ``instance/camera-table-<id>.json``.

:class:`CameraSettings` is validated when made (a value out of bounds raises a
:class:`CameraError` naming the setting and what is allowed); :class:`Zone` is a seat's zone as
fractions of the picture; :class:`TableConfig` is the file, read leniently (a value it cannot use
is left at its default, as a file written by an older kiosk may hold) and written whole or not at
all.

>>> CameraSettings().updated({"auto_frames": 8}).auto_frames
8
>>> CameraSettings().updated({"auto_frames": 1})
Traceback (most recent call last):
...
kiosk.camera.settings.CameraError: Setting auto_frames cannot be 1. Settings allowed: ...
"""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

from hardware.camera import DEFAULT_MIN_CONFIDENCE
from kiosk.errors import Kind, KioskError

log = logging.getLogger(__name__)

#: the house setting ``detail``: when a still table is read in detail
DETAIL_MODES = ("auto", "on", "off")
Detail = Literal["auto", "on", "off"]
#: seats a zone may be given to
SEATS = range(1, 11)


def ui(key: str, lang: str, **params: Any) -> str:
    from kiosk.i18n import ui_catalog

    return ui_catalog().translate(key, lang, **params)


#: camera refusals that are of another kind than a request refused (kiosk/errors.py)
KINDS: dict[str, Kind] = {
    "camera.err.no_deck": Kind.MISSING,
    "camera.err.no_example": Kind.MISSING,
    "camera.err.in_hand": Kind.NOT_NOW,
    "camera.err.deck_exists": Kind.NOT_NOW,
    "camera.err.corner_gone": Kind.NOT_NOW,
}


class CameraError(KioskError):
    """A refused camera request: the kiosk's error, of the kind its key is."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, KINDS.get(key, Kind.REFUSED), **params)


def _bounded(low: float, high: float) -> dict[str, Any]:
    return {"bounds": (low, high)}


@dataclass(frozen=True, slots=True)
class CameraSettings:
    """The house's camera settings (docs/camera.md, "Setting up")."""

    #: enter a proposal by itself once read ``auto_frames`` frames in a row at
    #: ``auto_threshold`` or more
    auto_confirm: bool = False
    auto_frames: int = field(default=5, metadata=_bounded(2, 30))
    auto_threshold: float = field(default=0.95, metadata=_bounded(0.5, 1.0))
    #: below this a proposal is flagged unsure
    min_confidence: float = field(default=DEFAULT_MIN_CONFIDENCE, metadata=_bounded(0.5, 1.0))
    #: the face-down count misses many backs (docs/camera.md): its hints are opt-in
    down_hints: bool = False
    #: reading a still table enlarged as well reads more small indices, for about twice the
    #: CPU: "auto" does it while the cards are not seen large enough, "on" always, "off" never
    detail: Detail = "auto"

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool",):
                ok = isinstance(value, bool)
            elif f.name == "detail":
                ok = value in DETAIL_MODES
            elif f.type == "int":
                ok = isinstance(value, int) and not isinstance(value, bool)
            else:
                ok = isinstance(value, int | float) and not isinstance(value, bool) \
                    and math.isfinite(value)
            if ok and "bounds" in f.metadata:
                low, high = f.metadata["bounds"]
                ok = low <= value <= high
            if not ok:
                raise CameraError("camera.err.settings", setting=f.name, value=json.dumps(value))
            if f.type == "float":
                object.__setattr__(self, f.name, float(value))

    def updated(self, values: Any) -> CameraSettings:
        """These settings with ``values`` (a mapping of some of them) changed, checked."""
        if not isinstance(values, dict):
            raise CameraError("camera.err.settings", setting="?", value=json.dumps(str(values)))
        known = {f.name for f in fields(self)}
        for key in values:
            if key not in known:
                raise CameraError("camera.err.settings", setting=key,
                                  value=json.dumps(values[key]))
        return replace(self, **values)

    @classmethod
    def from_saved(cls, data: Any) -> CameraSettings:
        """The settings a file holds: each value this kiosk cannot use keeps its default.
        ``detail`` saved as true or false (before it had three modes) is "on", or the default."""
        settings = cls()
        if not isinstance(data, dict):
            return settings
        for f in fields(cls):
            value = data.get(f.name)
            if f.name == "detail" and isinstance(value, bool):
                value = "on" if value else "auto"
            if value is None:
                continue
            try:
                settings = replace(settings, **{f.name: value})
            except CameraError:
                log.warning("camera: setting %s=%r ignored", f.name, value)
        return settings

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Zone:
    """A seat's zone: a rectangle as fractions of the picture (0..1), left < right, top <
    bottom."""

    x0: float
    y0: float
    x1: float
    y1: float

    @classmethod
    def parse(cls, value: Any) -> Zone:
        """[x0, y0, x1, y1], two opposite corners in any order."""
        if not isinstance(value, list | tuple) or len(value) != 4:
            raise CameraError("camera.err.zone")
        try:
            x0, y0, x1, y1 = (float(v) for v in value)
        except (TypeError, ValueError) as exc:
            raise CameraError("camera.err.zone") from exc
        if not all(0.0 <= v <= 1.0 for v in (x0, y0, x1, y1)) or x0 == x1 or y0 == y1:
            raise CameraError("camera.err.zone")
        return cls(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    def holds(self, fx: float, fy: float) -> bool:
        return self.x0 <= fx <= self.x1 and self.y0 <= fy <= self.y1

    def middle_distance(self, fx: float, fy: float) -> float:
        return math.hypot(fx - (self.x0 + self.x1) / 2, fy - (self.y0 + self.y1) / 2)

    def to_json(self) -> list[float]:
        return [self.x0, self.y0, self.x1, self.y1]


def parse_zones(zones: Any) -> dict[int, Zone]:
    """``{"3": [x0, y0, x1, y1], ...}``: seat -> zone, every seat 1..10."""
    if not isinstance(zones, dict):
        raise CameraError("camera.err.zone")
    checked: dict[int, Zone] = {}
    for seat, zone in zones.items():
        try:
            number = int(seat)
        except (TypeError, ValueError) as exc:
            raise CameraError("camera.err.seat", seat=seat) from exc
        if number not in SEATS:
            raise CameraError("camera.err.seat", seat=seat)
        checked[number] = Zone.parse(zone)
    return checked


def seat_at(zones: dict[int, Zone], fx: float, fy: float) -> int | None:
    """The seat whose zone holds the point (fractions of the picture); where zones overlap, the
    one whose middle is nearest."""
    holding = [(zone.middle_distance(fx, fy), seat) for seat, zone in zones.items()
               if zone.holds(fx, fy)]
    return min(holding)[1] if holding else None


@dataclass(frozen=True, slots=True)
class Learned:
    """A card entered during a hand that became an example of a deck: undoing the entry (the
    hand's event ``seq``) takes the example out again, also after a restart."""

    hand: int
    seq: int
    deck: str
    example: str

    @classmethod
    def parse(cls, data: Any) -> Learned:
        return cls(int(data["hand"]), int(data["seq"]), str(data["deck"]), str(data["example"]))


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What ``instance/camera-table-<id>.json`` keeps: the zones, the house settings, the deck
    the table plays (its name; None: the last one learned) and the examples learned from the
    entries of the current hand."""

    zones: dict[int, Zone] = field(default_factory=dict)
    settings: CameraSettings = field(default_factory=CameraSettings)
    deck: str | None = None
    learned: tuple[Learned, ...] = ()

    @classmethod
    def load(cls, path: Path) -> TableConfig:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as exc:
            log.warning("camera: %s unreadable (%s); starting uncalibrated", path, exc)
            return cls()
        if not isinstance(data, dict):
            return cls()
        zones: dict[int, Zone] = {}
        for seat, zone in (data.get("zones") or {}).items():
            try:
                zones.update(parse_zones({seat: zone}))
            except CameraError:
                log.warning("camera: zone of seat %s ignored: %r", seat, zone)
        learned = []
        for item in data.get("learned") or []:
            try:
                learned.append(Learned.parse(item))
            except (KeyError, TypeError, ValueError):
                log.warning("camera: learned example %r ignored", item)
        deck = data.get("deck")
        return cls(zones, CameraSettings.from_saved(data.get("settings")),
                   deck if isinstance(deck, str) and deck else None, tuple(learned))

    def save(self, path: Path) -> None:
        data = {"zones": {str(k): v.to_json() for k, v in sorted(self.zones.items())},
                "settings": self.settings.to_json(), "deck": self.deck,
                "learned": [asdict(item) for item in self.learned]}
        tmp = path.with_suffix(".tmp")
        tmp.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, path)

    def with_(self, **changes: Any) -> TableConfig:
        return replace(self, **changes)
