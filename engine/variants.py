"""The stud variants as data: streets, player counts, showdown and the first-round opener.

>>> VARIANTS["seven-card-stud"].streets[0]
Street(downs=2, ups=1, big_bet=False)
>>> [v for v in VARIANTS]
['five-card-stud', 'seven-card-stud', 'seven-card-stud-hilo', 'soko', 'razz']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Showdown = Literal["high", "hilo", "soko", "low"]
Opener = Literal["low-card", "high-card-razz", "high-card"]


@dataclass(frozen=True, slots=True)
class Street:
    """One betting round: the cards each player gets before it and the size of its bets."""

    downs: int
    ups: int
    big_bet: bool

    @property
    def cards(self) -> int:
        return self.downs + self.ups


@dataclass(frozen=True, slots=True)
class Variant:
    """A stud game. ``opener`` is who opens the first round: ``low-card`` (lowest upcard brings in,
    aces high), ``high-card-razz`` (razz: highest upcard brings in, aces low) or ``high-card``
    (Sökö without bring-in: highest upcard opens and may check)."""

    id: str
    streets: tuple[Street, ...]
    min_players: int
    max_players: int
    showdown: Showdown
    opener: Opener
    exposed: str
    phh_code: str
    first_street_number: int
    open_pair_allowed: bool

    @property
    def hand_size(self) -> int:
        return sum(s.cards for s in self.streets)

    def street_name(self, index: int) -> str:
        """``second`` ... ``seventh``: the number of cards a player holds after the street."""
        held = sum(s.cards for s in self.streets[: index + 1])
        return _ORDINALS[held]


_ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh"}

_FIVE = (Street(1, 1, False), Street(0, 1, False), Street(0, 1, True), Street(0, 1, True))
_SEVEN = (
    Street(2, 1, False),
    Street(0, 1, False),
    Street(0, 1, True),
    Street(0, 1, True),
    Street(1, 0, True),
)

VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (
        Variant("five-card-stud", _FIVE, 2, 10, "high", "low-card", "high", "X-F5S", 2, True),
        Variant("seven-card-stud", _SEVEN, 2, 8, "high", "low-card", "high", "F7S", 3, True),
        Variant(
            "seven-card-stud-hilo", _SEVEN, 2, 8, "hilo", "low-card", "high", "F7S/8", 3, False
        ),
        Variant("soko", _FIVE, 2, 6, "soko", "high-card", "soko", "X-SOKO", 2, False),
        Variant("razz", _SEVEN, 2, 8, "low", "high-card-razz", "low", "FR", 3, False),
    )
}
"""Every variant the engine plays, by id."""

PHH_CODES: dict[str, str] = {v.phh_code: v.id for v in VARIANTS.values()}
"""PHH variant code -> variant id."""
