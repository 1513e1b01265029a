"""The chip-chop calculator: what each of the last players' chips are worth in prize money.

A deal among the last players shares the prizes still to be paid. Two ways are shown side by side:

- **chip chop**: every player first gets the prize of the last place still in play, and the rest
  is shared in proportion to the chips;
- **ICM** (the independent chip model, Malmuth-Harville): a player's chance to finish first is
  their share of the chips; given who finished first, the chance of each other player to finish
  second is their share of the chips left; and so on. A player's *equity* is the sum, over every
  place, of the chance to finish there times the prize of the place.

The recursion runs over the sets of players still to be placed (``2**n`` sets, each visited once
by memoisation): ``equity(S, k)`` is what each player of ``S`` expects from places ``k`` onwards.
Nine players are 512 sets; the kiosk computes it at once for a table's ten seats.

>>> [round(x) for x in icm([5000, 3000, 2000], [5000, 3000, 2000])]
[3839, 3275, 2886]
>>> chip_chop([5000, 3000, 2000], [5000, 3000, 2000])
[4000, 3200, 2800]
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache


def icm(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """Each player's ICM equity (exact fractions of the prizes' unit)."""
    n = len(stacks)
    paid = (list(prizes) + [0] * n)[:n]
    if any(s <= 0 for s in stacks):
        raise ValueError("every stack in a deal must be above 0")

    @cache
    def equity(left: int, place: int) -> tuple[Fraction, ...]:
        # left: a bit set of the players still to be placed; place: the place they play for
        out = [Fraction(0)] * n
        members = [i for i in range(n) if left >> i & 1]
        if not members or place >= n:
            return tuple(out)
        total = sum(stacks[i] for i in members)
        for first in members:
            chance = Fraction(stacks[first], total)
            out[first] += chance * paid[place]
            rest = equity(left & ~(1 << first), place + 1)
            for j in members:
                if j != first:
                    out[j] += chance * rest[j]
        return tuple(out)

    return list(equity((1 << n) - 1, 0))


def chip_chop(stacks: list[int], prizes: list[int]) -> list[int]:
    """Each player's share by chip chop, in whole units adding up to the prizes (the odd units to
    the biggest stacks)."""
    n = len(stacks)
    paid = (list(prizes) + [0] * n)[:n]
    floor = paid[n - 1]
    rest = sum(paid) - floor * n
    total = sum(stacks)
    exact = [Fraction(floor) + Fraction(rest * s, total) for s in stacks]
    shares = [int(x) for x in exact]
    order = sorted(range(n), key=lambda i: (-(exact[i] - shares[i]), -stacks[i]))
    for i in order[:sum(paid) - sum(shares)]:
        shares[i] += 1
    return shares


def whole(equities: list[Fraction], total: int) -> list[int]:
    """ICM equities in whole units adding up to ``total`` (the largest remainders rounded up)."""
    shares = [int(x) for x in equities]
    order = sorted(range(len(equities)), key=lambda i: -(equities[i] - shares[i]))
    for i in order[:total - sum(shares)]:
        shares[i] += 1
    return shares


__all__ = ["chip_chop", "icm", "whole"]
