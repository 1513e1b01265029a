"""Pots from the chips each seat committed: main pot first, then side pots, with eligibility
(docs/rules.md §4).

>>> build_pots({1: 10, 2: 30, 3: 30}, live={1, 2, 3})
((Pot(amount=30, eligible=(1, 2, 3)), Pot(amount=40, eligible=(2, 3))), ())
>>> build_pots({1: 10, 2: 30, 3: 20}, live={1, 2, 3})
((Pot(amount=30, eligible=(1, 2, 3)), Pot(amount=20, eligible=(2, 3))), ((2, 10),))
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot and the seats that can win it (seat numbers in ascending order)."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


def build_pots(
    committed: Mapping[int, int], live: Collection[int]
) -> tuple[tuple[Pot, ...], tuple[tuple[int, int], ...]]:
    """The pots built from ``committed`` (seat -> chips), and the chips going back.

    ``live`` are the seats not folded. A level only one seat reached is an uncalled bet and goes
    back to it; a level that only folded seats reached goes back to those who put it in. Levels
    with the same eligible seats are one pot.
    """
    levels = sorted({c for c in committed.values() if c > 0})
    pots: list[Pot] = []
    returned: dict[int, int] = {}
    prev = 0
    for level in levels:
        contributors = [s for s, c in committed.items() if c >= level]
        amount = (level - prev) * len(contributors) + sum(
            c - prev for c in committed.values() if prev < c < level
        )
        eligible = tuple(sorted(s for s in contributors if s in live))
        if len(contributors) == 1 or not eligible:
            for s, c in committed.items():
                part = min(c, level) - min(c, prev)
                if part > 0:
                    returned[s] = returned.get(s, 0) + part
        elif pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        prev = level
    return tuple(pots), tuple(sorted(returned.items()))

