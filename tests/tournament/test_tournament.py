"""A tournament through the table service: the structure checked by the engine, entrants, a
rebuy, two players out in one hand placed by their starting stacks, the undo of a hand's end with
its eliminations, the close and the payout; the clock's arithmetic on stored times."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.errors import KioskError
from kiosk.service import TableService
from kiosk.store import Store
from kiosk.tournament import Tournament
from tests.tournament.play import next_entry, play

LEVELS = [{"seconds": 600, "ante": 5, "bring_in": 10, "small_bet": 25, "big_bet": 50},
          {"break": True, "seconds": 300},
          {"seconds": 600, "ante": 10, "bring_in": 15, "small_bet": 50, "big_bet": 100}]


@pytest.fixture
def table(tmp_path: Path) -> TableService:
    service = TableService(Store(f"sqlite:///{tmp_path / 'kiosk.sqlite3'}"))
    setup = service.setup()
    setup["game"] = "five-card-stud"
    for seat in setup["seats"][:2]:  # a table set up for cash: the tournament's seats replace it
        seat.update(active=True, stack=500, name=f"P{seat['seat']}")
    service.configure(setup)
    return service


def open_tournament(table: TableService, names: list[str], **more: Any) -> list[int]:
    ids = [table.add_player(name)["player"]["id"] for name in names]
    table.submit({"type": "tournament_open", "buy_in": 1000, "chips": 100, "levels": LEVELS,
                  "rebuy_until": 1, "rebuys_most": 1, **more})
    for seat, player in enumerate(ids, start=1):
        table.submit({"type": "entrant", "player": player, "seat": seat})
    return ids


def stacks(table: TableService) -> dict[int, int]:
    return {s["seat"]: s["stack"] for s in table.setup()["seats"] if s["active"]}


def test_a_level_the_engine_would_not_deal_is_refused_by_its_number(table: TableService) -> None:
    bad = [LEVELS[0], {"seconds": 60, "ante": 5, "bring_in": 60, "small_bet": 50,
                       "big_bet": 100}]
    with pytest.raises(KioskError) as refused:
        table.submit({"type": "tournament_open", "buy_in": 1000, "chips": 100, "levels": bad})
    assert refused.value.text("en").startswith("Level 2: ")
    assert "bring-in" in refused.value.text("en").lower()
    assert refused.value.text("it").startswith("Livello 2: ")
    with pytest.raises(KioskError, match="chips: a whole number"):
        table.submit({"type": "tournament_open", "buy_in": 1000, "chips": "100", "levels": bad})
    shaky = [{**LEVELS[0], "small_bet": "25"}]
    with pytest.raises(KioskError, match=r"^Level 1: small_bet: a whole number from 1 to"):
        table.submit({"type": "tournament_open", "buy_in": 1000, "chips": 100, "levels": shaky})


def test_two_out_in_one_hand_are_placed_by_their_starting_stacks(table: TableService) -> None:
    anna, bruno, carla, _dario = open_tournament(table, ["Anna", "Bruno", "Carla", "Dario"])
    for player in (anna, carla):
        table.submit({"type": "tournament_rebuy", "player": player})
    assert stacks(table) == {1: 200, 2: 100, 3: 200, 4: 100}
    with pytest.raises(KioskError, match="rebuys allowed"):  # one rebuy each
        table.submit({"type": "tournament_rebuy", "player": anna})
    hand = play(table, {1: 0, 3: 1, 2: 2}, all_in={1, 2, 3})
    assert hand["finished"]
    view = table.view("dealer", "en")["tournament"]
    assert view["players_left"] == 2
    assert [(p["place"], p["name"]) for p in view["places"]] == [(3, "Carla"), (4, "Bruno")]
    assert view["playing"] == 1 and view["clock"]["running"]

    # the undo takes back the hand's last event and the eliminations it made, in one step
    table.undo()
    assert table.view("dealer", "en")["tournament"]["players_left"] == 4
    view = table.view("dealer", "en")
    assert not view["hand"]["finished"]
    entry = next_entry(view, {1: 0, 3: 1, 2: 2}, {1, 2, 3})
    assert entry is not None
    table.submit(entry)
    assert table.view("dealer", "en")["tournament"]["players_left"] == 2

    # Bruno, out in the hand just played, rebuys before the next hand and is back in his seat
    table.submit({"type": "tournament_rebuy", "player": bruno})
    assert stacks(table)[2] == 100
    table.undo()
    play(table, {1: 0}, all_in={1, 4})
    view = table.view("dealer", "en")["tournament"]
    assert next((p["place"], p["name"]) for p in view["places"]) == (2, "Dario")
    with pytest.raises(KioskError, match="out of the tournament"):
        table.submit({"type": "tournament_rebuy", "player": bruno})
    table.submit({"type": "tournament_close"})
    view = table.view("spectator", "en")["tournament"]
    assert view["closed"] and view["pool"] == 6000
    assert view["places"][0] == {"place": 1, "player": anna, "name": "Anna",
                                 "prize": "€60.00"}
    assert view["places_paid"] == 1


def test_the_clock_is_arithmetic_on_stored_times() -> None:
    book = Tournament.fold(1, [
        {"type": "tournament_open", "currency": "EUR", "buy_in": 1000, "chips": 100,
         "levels": LEVELS, "chip_values": [5, 25], "rebuy_until": None, "rebuys_most": None,
         "rebuy_chips": 100, "rebuy_money": 1000, "add_on_chips": None, "add_on_money": 0,
         "late_until": None, "payouts": None, "sound": False},
        {"type": "clock", "action": "start", "at": 1000.0},
        {"type": "clock", "action": "pause", "at": 1100.0},
        {"type": "clock", "action": "resume", "at": 1400.0},
        {"type": "clock", "action": "lengthen", "seconds": 60, "at": 1500.0},
    ])
    at = book.at(1500.0)  # 100 + 100 seconds played, a minute added to level 1
    assert (at.index, at.number, at.left) == (0, 1, 600 + 60 - 200)
    assert book.at(2000.0).is_break  # 700 s played: in the break
    # the kiosk was off from 2100 to 2500: counted, the clock ran on; not counted, it did not
    off = [{"type": "clock", "action": "outage", "down": 2100.0, "at": 2500.0}]
    counted = Tournament.fold(1, book.entries + off + [
        {"type": "clock", "action": "resume", "count_outage": True, "at": 2500.0}])
    skipped = Tournament.fold(1, book.entries + off + [
        {"type": "clock", "action": "resume", "count_outage": False, "at": 2500.0}])
    assert counted.at(2500.0).elapsed == 1200.0
    assert skipped.at(2500.0).elapsed == 800.0
    ended = Tournament.fold(1, [*skipped.entries,
                                {"type": "clock", "action": "end_level", "at": 2500.0}])
    assert ended.at(2500.0).index == 2


@pytest.mark.parametrize("name", ["stud-fast", "stud-normal", "soko"])
def test_the_ready_structures_are_dealt_by_the_engine(table: TableService, name: str) -> None:
    from kiosk.tournament_structure import CHIP_VALUES, check_levels, colour_up, ready

    structure = ready(name)
    setup = table.setup() | {"game": structure["game"]}
    check_levels(structure["levels"], setup)
    played = [lv for lv in structure["levels"] if not lv.get("break")]
    # once a chip may go, it may for every level after it (the 5s from level 4)
    for values in (CHIP_VALUES, CHIP_VALUES[1:]):
        first = next(i for i, lv in enumerate(played) if colour_up(values, lv))
        assert all(colour_up(values, lv) for lv in played[first:])
        assert values != CHIP_VALUES or first == 3
