"""The stud variants as data: streets, player counts, showdown, who opens and the other rules
that differ between games (docs/rules.md §2, §3).

>>> VARIANTS["seven-card-stud"].streets[0]
Street(downs=2, ups=1, big_bet=False)
>>> [v for v in VARIANTS]
['five-card-stud', 'seven-card-stud', 'seven-card-stud-hilo', 'soko', 'razz']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Showdown = Literal["high", "hilo", "soko", "low"]
Exposed = Literal["high", "low"]
Ranking = Literal["high", "low8", "low", "soko"]
"""A ranking of hands: ``high``, the 8-or-better ``low8``, razz's ``low`` and ``soko``; each has
its evaluator (``engine.evaluate.EVALUATORS``, ``engine.batch.BATCH_EVALUATORS``)."""

_RANKINGS: dict[str, tuple[Ranking, ...]] = {
    "high": ("high",),
    "hilo": ("high", "low8"),
    "soko": ("soko",),
    "low": ("low",),
}


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
    """A stud game, as data: every rule that differs between the games is a field here
    (docs/rules.md §2)."""

    id: str
    streets: tuple[Street, ...]
    """One per betting round, in the order the cards are dealt."""
    min_players: int
    max_players: int
    showdown: Showdown
    """How hands rank at showdown: ``high``, ``hilo`` (high and 8-or-better low split), ``soko``
    (the Sökö ranking, with four-straights and four-flushes) or ``low`` (razz, ace-to-five)."""
    bring_in: bool
    """Whether the game is played with a bring-in (docs/rules.md §3): the lowest upcard (razz:
    the highest) opens the first round. Without one (Sökö, unless the house rule ``bring_in`` is
    on) the highest upcard opens and may check."""
    exposed: Exposed
    """How exposed hands rank to say who acts first on later rounds (§3): ``high`` (the best
    pairs and high cards) or ``low`` (razz: the lowest, aces low; the same order makes the
    highest upcard bring in)."""
    exposed_four_card: bool
    """Four upcards making a four-straight or four-flush count as that hand on the last round
    (Sökö, §3)."""
    open_pair_street: int | None
    """The street (index) on which a pair showing lets anyone bet the big bet under the house
    rule ``open_pair_double`` (§3); None where the rule is not played."""
    phh_code: str
    first_street_number: int

    @property
    def hand_size(self) -> int:
        return sum(s.cards for s in self.streets)

    @property
    def last_street(self) -> int:
        """The index of the last street: its betting round is the last round."""
        return len(self.streets) - 1

    @property
    def rankings(self) -> tuple[Ranking, ...]:
        """The rankings a pot is pushed by (docs/rules.md §6): the game's own, and in hi/lo the
        8-or-better low that takes half the pot when a hand qualifies.

        >>> VARIANTS["seven-card-stud-hilo"].rankings, VARIANTS["razz"].rankings
        (('high', 'low8'), ('low',))
        """
        return _RANKINGS[self.showdown]

    @property
    def split_low(self) -> bool:
        """Whether a qualifying low takes half of each pot (hi/lo)."""
        return len(self.rankings) > 1

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
        Variant("five-card-stud", _FIVE, 2, 10, "high", True, "high", False, 1, "X-F5S", 2),
        Variant("seven-card-stud", _SEVEN, 2, 8, "high", True, "high", False, 1, "F7S", 3),
        Variant(
            "seven-card-stud-hilo", _SEVEN, 2, 8, "hilo", True, "high", False, None, "F7S/8", 3
        ),
        Variant("soko", _FIVE, 2, 6, "soko", False, "high", True, None, "X-SOKO", 2),
        Variant("razz", _SEVEN, 2, 8, "low", True, "low", False, None, "FR", 3),
    )
}
"""Every variant the engine plays, by id, in the order a list of games shows them."""

PHH_CODES: dict[str, str] = {v.phh_code: v.id for v in VARIANTS.values()}
"""PHH variant code -> variant id."""
