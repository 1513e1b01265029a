"""ICM (Malmuth-Harville) checked against an independent computation: every finishing order
enumerated with its probability, on small cases; the chip chop; the prizes of tied places."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.icm import chip_chop, icm, whole
from kiosk.tournament_structure import payout_table, prizes


def brute_force(stacks: list[int], paid: list[int]) -> list[Fraction]:
    """Each player's expected prize over every finishing order: an order's probability is the
    product, place by place, of the player's chips over the chips of the players not placed."""
    n = len(stacks)
    paid = (paid + [0] * n)[:n]
    equity = [Fraction(0)] * n
    for order in permutations(range(n)):
        chance, left = Fraction(1), sum(stacks)
        for player in order:
            chance *= Fraction(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order):
            equity[player] += chance * paid[place]
    return equity


@pytest.mark.parametrize(("stacks", "paid"), [
    ([5000, 3000, 2000], [5000, 3000, 2000]),
    ([1, 1], [700, 300]),
    ([7000, 2000, 500, 500], [5000, 3000, 2000]),
    ([100, 200, 300, 400, 500], [6500, 3500]),
])
def test_icm_is_the_brute_force(stacks: list[int], paid: list[int]) -> None:
    assert icm(stacks, paid) == brute_force(stacks, paid)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 10_000), min_size=2, max_size=6),
       st.lists(st.integers(0, 10_000), min_size=1, max_size=6))
def test_icm_on_any_small_table(stacks: list[int], paid: list[int]) -> None:
    paid = sorted(paid, reverse=True)
    exact = icm(stacks, paid)
    assert exact == brute_force(stacks, paid)
    assert sum(exact) == sum(paid[:len(stacks)])
    assert sum(whole(exact, sum(paid[:len(stacks)]))) == sum(paid[:len(stacks)])


def test_a_known_figure_and_the_chip_chop() -> None:
    # the textbook case: 50/30/20 with 5000/3000/2000 chips
    assert [round(float(x) / 100, 2) for x in icm([5000, 3000, 2000], [5000, 3000, 2000])] == \
        [38.39, 32.75, 28.86]
    assert chip_chop([5000, 3000, 2000], [5000, 3000, 2000]) == [4000, 3200, 2800]
    with pytest.raises(ValueError):
        icm([100, 0], [700, 300])


def test_prizes_by_entrants_and_for_tied_places() -> None:
    assert payout_table(5) == [1000] and payout_table(6) == [650, 350]
    assert payout_table(12) == [500, 300, 200]
    # two tied for second share the second and third prizes; the odd cent to the first named
    assert prizes(10001, [500, 300, 200], {1: [7], 2: [8, 9]}) == {7: 5001, 8: 2500, 9: 2500}
