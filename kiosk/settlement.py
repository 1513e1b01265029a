"""Who pays whom at the end of a night, with the fewest transfers.

Each party of the night (a player, and the bank when one holds the buy-ins) ends with a balance
in cents: what they are still owed (above 0) or still owe (below 0); the balances add up to 0.
Settling them takes transfers, each from one party who owes to one who is owed.

The fewest transfers, exactly. A group of ``k`` parties whose balances add up to 0 settles among
itself in ``k - 1`` transfers (each transfer settles at least one party, and the last settles
two), and no group can do with fewer unless it splits into smaller groups that each add up to 0.
So the fewest transfers for ``n`` parties with a balance is ``n - g``, where ``g`` is the largest
number of groups, each adding up to 0, the parties can be split into. ``g`` is found exactly by a
dynamic programme over the subsets of the parties (:func:`zero_sum_groups`): for a subset ``S``,
``best[S]`` is the largest number of zero-sum groups that a sequence of ``S``'s parties closes, one
party added at a time; adding a party to ``S`` closes one more group exactly when ``S`` with it adds
up to 0. ``best`` of every party is ``g``, and following the choices back gives the groups. That is
``2^n * n`` steps: instant for the ten seats of a table, a second for the sixteen players a long
night with comings and goings may see (:data:`EXACT_MOST`). Beyond that, the largest debtor pays
the largest creditor until all are settled, at most ``n - 1`` transfers, which the settlement says
is not proved the fewest.

Inside each group, the largest debtor pays the largest creditor as much as one of them needs, and
so on: each transfer settles one party for good, the last two, so the group takes ``k - 1``.

>>> plan = settle({"anna": 3000, "bruno": -1000, "carla": -2000, "dario": 500, "elena": -500})
>>> plan.exact, len(plan.transfers)
(True, 3)
>>> sorted((t.payer, t.payee, t.cents) for t in plan.transfers)
[('bruno', 'anna', 1000), ('carla', 'anna', 2000), ('elena', 'dario', 500)]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)

EXACT_MOST = 16
"""The most parties with a balance settled by the exact search (``2^n * n`` steps)."""


@dataclass(frozen=True, slots=True)
class Transfer(Generic[P]):
    """``payer`` pays ``payee`` ``cents``."""

    payer: P
    payee: P
    cents: int


@dataclass(frozen=True, slots=True)
class Settlement(Generic[P]):
    """The transfers that settle a night, and whether they are proved the fewest."""

    transfers: tuple[Transfer[P], ...]
    exact: bool


def zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """The parties (indexes into ``amounts``, which add up to 0, none 0) split into the largest
    number of groups that each add up to 0.

    >>> zero_sum_groups([5, -5, 3, -1, -2])
    [[0, 1], [2, 3, 4]]
    """
    n = len(amounts)
    if sum(amounts) != 0:
        raise ValueError(f"the balances add up to {sum(amounts)}, not 0")
    full = (1 << n) - 1
    total = [0] * (1 << n)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
    best = [0] * (1 << n)
    last = [0] * (1 << n)  # the party whose addition gave best[mask]
    for mask in range(1, full + 1):
        top, pick, rest = -1, 0, mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > top:
                top, pick = best[mask ^ bit], bit
        best[mask] = top + (1 if total[mask] == 0 else 0)
        last[mask] = pick
    # walk back: a group closes each time the parties left add up to 0
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        if total[mask] == 0 and current:
            groups.append(sorted(current))
            current = []
        bit = last[mask]
        current.append(bit.bit_length() - 1)
        mask ^= bit
    if current:
        groups.append(sorted(current))
    return sorted(groups)


def _settle_group(parties: list[P], amounts: list[int]) -> list[Transfer[P]]:
    """Largest debtor pays largest creditor, until the group is settled."""
    owed = {p: a for p, a in zip(parties, amounts, strict=True) if a}
    transfers: list[Transfer[P]] = []
    order = {p: i for i, p in enumerate(parties)}
    while owed:
        payer = min(owed, key=lambda p: (owed[p], order[p]))
        payee = max(owed, key=lambda p: (owed[p], -order[p]))
        cents = min(-owed[payer], owed[payee])
        transfers.append(Transfer(payer, payee, cents))
        for party, change in ((payer, cents), (payee, -cents)):
            owed[party] += change
            if owed[party] == 0:
                del owed[party]
    return transfers


def settle(balances: Mapping[P, int]) -> Settlement[P]:
    """The fewest transfers that settle ``balances`` (cents each party is owed, negative: owes;
    they add up to 0)."""
    parties = [p for p, cents in balances.items() if cents]
    amounts = [int(balances[p]) for p in parties]
    if sum(amounts) != 0:
        raise ValueError(f"the balances add up to {sum(amounts)}, not 0")
    if len(parties) > EXACT_MOST:
        return Settlement(tuple(_settle_group(parties, amounts)), exact=False)
    transfers: list[Transfer[P]] = []
    for group in zero_sum_groups(amounts):
        transfers += _settle_group([parties[i] for i in group], [amounts[i] for i in group])
    return Settlement(tuple(transfers), exact=True)


__all__ = ["EXACT_MOST", "Settlement", "Transfer", "settle", "zero_sum_groups"]
