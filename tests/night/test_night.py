"""A night through the table service, with the real store: buy-ins, rebuys, sitting out, seats
changed, cash-outs, the chip count, closing, the settlement, undo and a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.errors import KioskError
from kiosk.service import TableService
from kiosk.store import Store
from tests.night.play import play_hand

OPEN = {"type": "night_open", "currency": "EUR", "chips": 100, "money": 1000, "buy_in": 1000}


def table_at(path: Path) -> TableService:
    return TableService(Store(f"sqlite:///{path / 'table.sqlite3'}"))


@pytest.fixture
def table(tmp_path: Path) -> TableService:
    return table_at(tmp_path)


def seat_players(table: TableService, *names: str, chips: int = 1000) -> dict[str, int]:
    ids = {}
    for seat, name in enumerate(names, start=1):
        ids[name] = table.add_player(name)["player"]["id"]
        table.submit({"type": "buy_in", "player": ids[name], "seat": seat, "chips": chips})
    return ids


def rows(table: TableService) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in table.view("dealer", "en")["night"]["rows"]}


def stacks(table: TableService) -> dict[str, int]:
    return {s["name"]: s["stack"] for s in table.setup()["seats"] if s["active"]}


def test_seating_buys_in_and_the_night_follows_every_hand(table: TableService) -> None:
    table.submit(OPEN)
    seat_players(table, "Anna", "Bruno", "Carla")
    assert stacks(table) == {"Anna": 1000, "Bruno": 1000, "Carla": 1000}
    hand = play_hand(table)
    assert hand["finished"]
    night = table.view("spectator", "it")["night"]
    assert night["chips_in"] == 3000 and night["on_table"] == 3000 and night["difference"] == 0
    results = {r["name"]: r["result_cents"] for r in night["rows"]}
    assert sum(results.values()) == 0 and any(results.values())
    assert {r["name"]: r["money_in"] for r in night["rows"]}["Anna"] == "100,00\xa0€"


def test_a_rebuy_adds_chips_and_money_and_its_undo_takes_both_back(table: TableService) -> None:
    table.submit(OPEN)
    ids = seat_players(table, "Anna", "Bruno")
    table.submit({"type": "rebuy", "player": ids["Bruno"], "chips": 500})
    assert stacks(table)["Bruno"] == 1500 and rows(table)["Bruno"]["money_in"] == "€150.00"
    assert table.view("dealer", "en")["can_undo"]
    undone = table.undo()
    assert undone["undone"]["type"] == "rebuy"
    assert stacks(table)["Bruno"] == 1000 and rows(table)["Bruno"]["money_in"] == "€100.00"
    assert rows(table)["Bruno"]["rebuys"] == 0


def test_a_cash_out_frees_the_seat_and_its_undo_seats_the_player_again(
    table: TableService,
) -> None:
    table.submit(OPEN)
    ids = seat_players(table, "Anna", "Bruno", "Carla")
    play_hand(table)
    before = stacks(table)
    table.submit({"type": "cash_out", "counts": {str(ids["Carla"]): before["Carla"]}})
    assert "Carla" not in stacks(table)
    carla = rows(table)["Carla"]
    assert carla["left"] and carla["chips_now"] == before["Carla"]
    table.undo()
    assert stacks(table) == before and not rows(table)["Carla"]["left"]


def test_the_undo_takes_back_the_latest_entry_a_rebuy_before_the_hand_that_preceded_it(
    table: TableService,
) -> None:
    table.submit(OPEN)
    ids = seat_players(table, "Anna", "Bruno")
    hand = play_hand(table)
    after_hand = stacks(table)
    table.submit({"type": "rebuy", "player": ids["Anna"], "chips": 200})
    table.undo()  # the rebuy
    assert stacks(table) == after_hand and table.view("dealer", "en")["hand"]["finished"]
    table.undo()  # the hand's last entry: the hand is running again
    assert not table.view("dealer", "en")["hand"]["finished"]
    assert hand["number"] == table.view("dealer", "en")["hand"]["number"]


def test_entries_are_refused_in_words_while_a_hand_runs(table: TableService) -> None:
    table.submit(OPEN)
    ids = seat_players(table, "Anna", "Bruno")
    table.start_hand()
    with pytest.raises(KioskError) as refused:
        table.submit({"type": "rebuy", "player": ids["Anna"], "chips": 100})
    assert "between hands" in str(refused.value)
    assert "tra una mano e l'altra" in refused.value.text("it")


def test_rebuy_limits_and_taken_seats_are_refused(table: TableService) -> None:
    table.submit(OPEN | {"rebuys_most": 1, "rebuy_most": 500})
    ids = seat_players(table, "Anna", "Bruno")
    with pytest.raises(KioskError, match="at most 500 chips"):
        table.submit({"type": "rebuy", "player": ids["Anna"], "chips": 600})
    table.submit({"type": "rebuy", "player": ids["Anna"], "chips": 500})
    with pytest.raises(KioskError, match="1 rebuys allowed"):
        table.submit({"type": "rebuy", "player": ids["Anna"], "chips": 100})
    dario = table.add_player("Dario")["player"]["id"]
    with pytest.raises(KioskError, match="Seat 1 is taken"):
        table.submit({"type": "buy_in", "player": dario, "seat": 1, "chips": 1000})
    with pytest.raises(KioskError, match="already seated"):
        table.submit({"type": "buy_in", "player": ids["Anna"], "seat": 5, "chips": 1000})


def test_a_player_sitting_out_is_dealt_no_cards_and_comes_back(table: TableService) -> None:
    table.submit(OPEN)
    seat_players(table, "Anna", "Bruno", "Carla")
    table.submit({"type": "sit_out", "seat": 2})
    hand = play_hand(table)
    assert [s["seat"] for s in hand["seats"]] == [1, 3]
    assert stacks(table)["Bruno"] == 1000  # no ante
    undone = table.undo()  # the hand's last entry first, then the sitting out
    table.submit(undone["undone"])
    assert table.view("dealer", "en")["hand"]["finished"]
    table.submit({"type": "sit_in", "seat": 2})
    assert table.undo()["undone"] == {"type": "sit_in", "seat": 2, "player": 2, "name": "Bruno"}
    table.submit({"type": "sit_in", "seat": 2})
    table.start_hand()
    assert [s["seat"] for s in table.view("dealer", "en")["hand"]["seats"]] == [1, 2, 3]


def test_a_player_changes_seat_with_their_stack(table: TableService) -> None:
    table.submit(OPEN)
    ids = seat_players(table, "Anna", "Bruno")
    table.submit({"type": "move", "seat": 1, "to": 7})
    seat = next(s for s in table.setup()["seats"] if s["seat"] == 7)
    assert seat["name"] == "Anna" and seat["stack"] == 1000 and seat["player"] == ids["Anna"]
    assert rows(table)["Anna"]["seat"] == 7


def test_an_unbalanced_count_is_shown_and_blocks_closing_until_resolved(
    table: TableService,
) -> None:
    table.submit(OPEN)
    ids = seat_players(table, "Anna", "Bruno", "Carla")
    play_hand(table)
    now = stacks(table)
    counts = {str(ids[n]): now[n] for n in now}
    counts[str(ids["Bruno"])] -= 50  # fifty chips are not found
    table.submit({"type": "cash_out", "counts": counts})
    night = table.view("dealer", "en")["night"]
    assert night["difference"] == 50 and "50 chips missing" in night["difference_text"]
    assert "settlement" not in night
    with pytest.raises(KioskError, match="do not add up"):
        table.submit({"type": "night_close"})
    table.submit({"type": "assign", "player": ids["Bruno"], "chips": 50})
    assert table.view("dealer", "en")["night"]["difference"] == 0
    table.undo()
    table.submit({"type": "accept", "chips": 50})
    night = table.view("dealer", "en")["night"]
    assert night["difference"] == 0 and "settlement" in night
    assert sum(r["result_cents"] for r in night["rows"]) == 0
    table.submit({"type": "night_close"})
    closed = table.view("spectator", "en")["night"]
    assert closed["closed"] and closed["settlement"]["transfers"]


def test_the_settlement_with_a_bank_that_holds_the_buy_ins(table: TableService) -> None:
    table.submit(OPEN | {"bank": "house"})
    ids = seat_players(table, "Anna", "Bruno")
    table.submit({"type": "rebuy", "player": ids["Bruno"], "chips": 1000, "paid": False})
    table.submit({"type": "cash_out", "counts": {str(ids["Anna"]): 1500,
                                                 str(ids["Bruno"]): 1500}, "paid": False})
    plan = table.view("dealer", "en")["night"]["settlement"]["transfers"]
    # Anna paid 100 € cash and leaves with 150 €; Bruno paid 100 € cash, owes the 100 € he took
    # on credit and leaves with 150 €: the bank pays Anna 150 € and Bruno 50 €
    assert sorted((t["from"], t["to"], t["cents"]) for t in plan) == [
        ("the bank", "Anna", 15000), ("the bank", "Bruno", 5000)]


def test_the_night_survives_a_restart(table: TableService, tmp_path: Path) -> None:
    table.submit(OPEN)
    ids = seat_players(table, "Anna", "Bruno", "Carla")
    play_hand(table)
    table.submit({"type": "rebuy", "player": ids["Anna"], "chips": 300})
    before = table.view("dealer", "en")
    table.store.close()
    again = table_at(tmp_path)
    after = again.view("dealer", "en")
    assert after["night"] == before["night"] and after["table"] == before["table"]
    again.undo()
    assert rows(again)["Anna"]["chips_in"] == 1000


def test_the_night_keeps_the_seats_from_the_setup(table: TableService) -> None:
    table.submit(OPEN)
    seat_players(table, "Anna", "Bruno")
    setup = table.setup()
    setup["seats"][0]["stack"] = 5000
    with pytest.raises(KioskError, match="keeps the seats"):
        table.configure(setup)
    setup = table.setup()
    setup["stakes"]["ante"] = 5
    table.configure(setup)
    assert table.setup()["stakes"]["ante"] == 5 and stacks(table)["Anna"] == 1000


def test_a_renamed_or_merged_player_keeps_their_history(table: TableService) -> None:
    table.submit(OPEN)
    ids = seat_players(table, "Anna", "Bruno")
    table.rename_player(ids["Anna"], "Annalisa", "Lisa")
    assert "Annalisa" in stacks(table) and "Annalisa" in rows(table)
    dup = table.add_player("Bruno B.")["player"]["id"]
    table.merge_player(dup, ids["Bruno"])
    table.submit({"type": "cash_out", "counts": {str(ids["Bruno"]): 1000}})
    # the duplicate seats as the player he was merged into
    table.submit({"type": "buy_in", "player": dup, "seat": 4, "chips": 1000})
    assert rows(table)["Bruno"]["chips_in"] == 2000


def test_entries_of_the_wrong_shape_are_refused_field_by_field(table: TableService) -> None:
    table.submit(OPEN)
    for event, words in (
        ({"type": "rebuy", "player": 1, "chips": "500"}, "chips: a whole number from 1 to"),
        ({"type": "buy_in", "player": 1, "seat": 11, "chips": 10}, "seat: a whole number from 1"),
        ({"type": "rebuy", "player": 1, "chips": 5, "stack": 9}, "stack: not a field"),
        ({"type": "cash_out", "counts": {}}, "counts: the chips counted"),
        ({"type": "move", "seat": 1}, "to: needed"),
    ):
        with pytest.raises(KioskError, match=words):
            table.submit(event)
    with pytest.raises(KioskError) as refused:
        table.submit({"type": "night_close", "currency": "XYZ"})
    assert "non è un campo" in refused.value.text("it")
    assert table.view("dealer", "en")["night"]["rows"] == []
    fresh = TableService(Store("sqlite://"))
    for change, words in (
        ({"currency": "LIT"}, "currency: one of EUR"),
        ({"rebuys_most": -1}, "rebuys_most: a whole number from 0 to 1000, or null for no limit"),
        ({"rebuy_most": 0}, "rebuy_most: a whole number from 1 to 1000000000, or null"),
        ({"bank": "me"}, 'bank: null \\(nobody\\), "house"'),
    ):
        with pytest.raises(KioskError, match=words):
            fresh.submit(OPEN | change)


def test_an_entry_sent_again_with_its_id_is_answered_not_made_twice(table: TableService) -> None:
    table.submit(OPEN)
    ids = seat_players(table, "Anna", "Bruno")
    rebuy = {"type": "rebuy", "player": ids["Anna"], "chips": 300, "id": "a1b2c3"}
    first = table.submit(rebuy)
    again = table.submit(rebuy)
    assert again["event"] == first["event"]
    assert stacks(table)["Anna"] == 1300 and rows(table)["Anna"]["rebuys"] == 1
    with pytest.raises(KioskError, match="1 to 64 letters"):
        table.submit(rebuy | {"id": "not an id!"})


def test_table_events_hand_events_and_undos_share_one_book_of_answers(
    table: TableService,
) -> None:
    table.submit(OPEN)
    ids = seat_players(table, "Anna", "Bruno")
    rebuy = {"type": "rebuy", "player": ids["Anna"], "chips": 300, "id": "tap-1"}
    first = table.submit(rebuy)
    # an undo sent twice with its id takes the rebuy back once, and answers the same both times
    undone = [table.undo(entry_id="tap-2") for _ in range(2)]
    assert undone[0] == undone[1] and undone[0]["undone"] == first["event"]
    assert stacks(table)["Anna"] == 1000 and rows(table)["Anna"]["rebuys"] == 0
    # an id is a client's one entry, whatever the entry: a repeat of "tap-1" is the rebuy's answer
    assert table.submit({"type": "misdeal", "id": "tap-1"}) == first
    assert rows(table)["Anna"]["rebuys"] == 0
    # the answers outlive a restart, as the entries do
    again = TableService(table.store)
    assert again.submit(rebuy) == first and again.undo(entry_id="tap-2") == undone[0]
