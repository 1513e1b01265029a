"""A card room on PostgreSQL: each table keeps its own night in the shared database, the players
are one list for the room, and the room's list shows every table's night."""

from __future__ import annotations

from kiosk import room
from kiosk.service import TableService
from kiosk.store import Store
from tests.helpers.servers import Postgres
from tests.night.play import play_hand

OPEN = {"type": "night_open", "currency": "EUR", "chips": 100, "money": 500, "buy_in": 400}


def test_each_table_keeps_its_own_night_and_the_room_shows_them_all(postgres: Postgres) -> None:
    store = Store(postgres.url)
    first, second = TableService(store, table_id=1), TableService(Store(postgres.url), table_id=2)
    names = ["Anna", "Bruno", "Carla", "Dario"]
    ids = {n: first.add_player(n)["player"]["id"] for n in names}
    first.submit(OPEN)
    second.submit(OPEN | {"currency": "CHF", "buy_in": 600})
    for seat, name in enumerate(names[:2], start=1):
        first.submit({"type": "buy_in", "player": ids[name], "seat": seat, "chips": 400})
    # the list is the room's: the second table seats players the first one added
    for seat, name in enumerate(names[2:], start=1):
        second.submit({"type": "buy_in", "player": ids[name], "seat": seat, "chips": 600})
    play_hand(first)
    second.submit({"type": "rebuy", "player": ids["Carla"], "chips": 300})

    one, two = first.view("spectator", "en")["night"], second.view("spectator", "en")["night"]
    assert one["id"] != two["id"]
    assert [r["name"] for r in one["rows"]] == ["Anna", "Bruno"] and one["chips_in"] == 800
    assert [r["name"] for r in two["rows"]] == ["Carla", "Dario"] and two["chips_in"] == 1500
    assert two["money_in"] == "CHF75.00"

    listed = {t["table"]: t["night"] for t in room.tables(store, first, "en")}
    assert [p["name"] for p in listed[1]["players"]] == ["Anna", "Bruno"]
    assert [p["name"] for p in listed[2]["players"]] == ["Carla", "Dario"]
    assert listed[2]["money_in"] == "CHF75.00"

    # a restarted kiosk of table 2 finds its own night, not the other table's
    again = TableService(Store(postgres.url), table_id=2)
    assert again.view("dealer", "en")["night"] == second.view("dealer", "en")["night"]
    again.undo()
    assert again.view("dealer", "en")["night"]["chips_in"] == 1200
    assert first.view("dealer", "en")["night"]["chips_in"] == 800
