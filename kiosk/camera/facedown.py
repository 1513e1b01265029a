"""The face-down cards the camera counts per seat, and the hints when they differ from the hand.

Once a second (never on every frame) the card backs in the frame are counted per seat zone
(``hardware.camera.down``). When a seat of the hand shows another number of face-down cards than
the engine dealt it, in :data:`HINT_COUNTS` counts in a row, the dealer screen shows a hint
("Seat 3: face-down cards seen 1, dealt 2"), if the house turned the hints on. The camera never
names a face-down card, and nothing is entered or refused because of a hint.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

#: seconds between two counts of the face-down cards (about 40 ms each on 1280x720; the
#: recogniser reads every frame and keeps its frame rate)
INTERVAL_S = 1.0
#: counts in a row that must disagree with the engine before the dealer sees a hint
HINT_COUNTS = 3


@dataclass(frozen=True, slots=True)
class DownHint:
    seat: int
    seen: int
    dealt: int

    def to_json(self, text: str) -> dict[str, Any]:
        return {"seat": self.seat, "seen": self.seen, "dealt": self.dealt, "text": text}


class DownCounts:
    """The latest counts of face-down cards per seat zone, and the last few of them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.seen: dict[int, int] = {}
        self._history: list[dict[int, int]] = []

    def count(self, seats: Iterable[int | None], zoned: Iterable[int]) -> None:
        """A new count: the seat of each back found (None: outside every zone), over the seats
        that have a zone."""
        seen = dict.fromkeys(zoned, 0)
        for seat in seats:
            if seat is not None:
                seen[seat] = seen.get(seat, 0) + 1
        with self._lock:
            self.seen = seen
            self._history = [*self._history, seen][-HINT_COUNTS:]

    def hints(self, dealt: dict[int, int]) -> list[DownHint]:
        """Seats whose face-down cards (``dealt``: seat -> cards the engine dealt face down)
        were counted differently in each of the last :data:`HINT_COUNTS` counts."""
        with self._lock:
            history = list(self._history)
        if len(history) < HINT_COUNTS:
            return []
        out = []
        for seat, n in sorted(dealt.items()):
            counts = [h.get(seat) for h in history]
            if any(c is None or c == n for c in counts):
                continue
            out.append(DownHint(seat, int(history[-1][seat]), n))
        return out
