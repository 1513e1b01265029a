"""The settlement: the fewest transfers, checked against an exhaustive search on random ledgers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.settlement import EXACT_MOST, settle
from tests.helpers.night import fewest


def ledgers(most: int) -> st.SearchStrategy[list[int]]:
    """Balances of a night of 2..``most`` players adding up to 0, drawn from few amounts so that
    groups that settle among themselves are common."""
    amount = st.sampled_from([500, 1000, 1500, 2000, 2500, 3000, 250, 125])
    return st.lists(st.tuples(amount, st.booleans()), min_size=1, max_size=most - 1).map(
        lambda pairs: [a if up else -a for a, up in pairs]
    ).map(lambda xs: [*xs, -sum(xs)])


def check(balances: list[int]) -> None:
    parties = {f"p{i}": b for i, b in enumerate(balances)}
    plan = settle(parties)
    moved = dict.fromkeys(parties, 0)
    for t in plan.transfers:
        assert t.cents > 0 and parties[t.payer] < 0 < parties[t.payee]
        moved[t.payer] += t.cents
        moved[t.payee] -= t.cents
    assert all(parties[p] + moved[p] == 0 for p in parties), "everyone is settled"
    assert plan.exact
    assert len(plan.transfers) == fewest(tuple(sorted(b for b in balances if b)))


@settings(max_examples=150, deadline=None)
@given(ledgers(10))
def test_the_settlement_takes_the_fewest_transfers_up_to_ten_players(balances: list[int]) -> None:
    check(balances)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-40_000, 40_000), min_size=1, max_size=9))
def test_any_amounts_to_the_cent_settle_in_the_fewest_transfers(amounts: list[int]) -> None:
    check([*amounts, -sum(amounts)])


def test_groups_that_add_up_settle_among_themselves() -> None:
    plan = settle({"a": 1000, "b": -1000, "c": 700, "d": -300, "e": -400, "f": 0})
    assert len(plan.transfers) == 3
    assert {(t.payer, t.payee) for t in plan.transfers} >= {("b", "a")}


def test_beyond_the_exact_search_a_plan_still_settles_everyone() -> None:
    balances = {n: (n + 1) * 100 for n in range(EXACT_MOST)}
    balances[EXACT_MOST] = -sum(balances.values())
    plan = settle(balances)
    assert not plan.exact and len(plan.transfers) == EXACT_MOST


def test_balances_that_do_not_add_up_are_refused() -> None:
    import pytest

    with pytest.raises(ValueError, match="add up to 5"):
        settle({"a": 5})
