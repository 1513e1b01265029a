"""The room pages in process: the list of tables, watching another table, refusals, languages.

Two tables share one database here (SQLite); tests/room/test_card_room.py runs the same over
PostgreSQL and Redis with one kiosk process per table."""

from __future__ import annotations

import copy
from typing import Any

from kiosk import room as room_module
from kiosk.extensions import socketio
from kiosk.service import TableService
from tests.kiosk import driver


def other_table(app: Any, table_id: int = 2) -> TableService:
    """Table ``table_id`` of the same room, run by another kiosk on the same database."""
    table = TableService(app.extensions["stud_store"], table_id=table_id)
    setup = copy.deepcopy(driver.SETUP)
    setup["game"] = "seven-card-stud"
    setup["stakes"] = {"ante": 5, "bring_in": 10, "small_bet": 25, "big_bet": 50}
    table.configure(setup)
    table.start_hand()
    table.submit({"type": "deal", "seat": 1, "card": "As", "up": False})
    table.submit({"type": "deal", "seat": 2, "card": "Kd", "up": False})
    return table


def received(client: Any, name: str) -> list[Any]:
    return [m["args"][0] for m in client.get_received("/room") if m["name"] == name]


def test_the_room_lists_every_table_with_game_stakes_players_pot_and_street(
    kiosk_app: Any,
) -> None:
    other_table(kiosk_app)
    client = kiosk_app.test_client()
    listed = client.get("/room/tables.json?lang=it").get_json()
    assert [t["table"] for t in listed] == [1, 2]
    two = listed[1]
    assert two["name"] == "Tavolo 2"
    assert two["game_name"] == "Stud a sette carte"
    assert two["stakes"] == {"ante": 5, "bring_in": 10, "small_bet": 25, "big_bet": 50}
    assert [p["name"] for p in two["players"]] == ["Anna", "Bruno", "Carla"]
    assert two["pot"] == 15 and two["hand"] == 1 and not two["finished"]
    assert two["street"] == "Terza strada"
    page = client.get("/room?lang=en")
    assert page.status_code == 200
    assert "Card room" in page.get_data(as_text=True)
    assert '"name": "Table 2"' in page.get_data(as_text=True)


def test_a_screen_watches_another_table_without_its_hidden_cards(kiosk_app: Any) -> None:
    other = other_table(kiosk_app)
    page = kiosk_app.test_client().get("/room/table/2")
    assert page.status_code == 200 and 'data-table="2"' in page.get_data(as_text=True)
    tv = socketio.test_client(kiosk_app, namespace="/room", auth={"table": 2, "lang": "en"})
    assert tv.is_connected("/room")
    (first,) = received(tv, "state")
    assert first["role"] == "spectator" and first["table"]["game"] == "seven-card-stud"
    seats = {s["seat"]: s for s in first["hand"]["seats"]}
    assert seats[1]["cards"] == [{"card": None, "up": False, "public": False}]
    assert "As" not in str(first) and "Kd" not in str(first)
    # A change on table 2 reaches the screen watching it, and the room's list.
    room = socketio.test_client(kiosk_app, namespace="/room", auth={"lang": "en"})
    assert [len(t) for t in received(room, "tables")] == [2]
    other.subscribe(lambda table: room_module.publish(table, ""))
    other.submit({"type": "deal", "seat": 3, "card": "Qh", "up": False})
    latest = received(tv, "state")[-1]
    assert len({s["seat"]: s for s in latest["hand"]["seats"]}[3]["cards"]) == 1
    assert "Qh" not in str(latest)
    assert received(room, "table")[-1]["table"] == 2
    assert tv.emit("sync", None, callback=True, namespace="/room")["hand"]["number"] == 1


def test_unknown_or_bad_tables_are_refused_with_the_tables_there_are(kiosk_app: Any) -> None:
    other_table(kiosk_app)
    client = kiosk_app.test_client()
    missing = client.get("/room/table/9")
    assert missing.status_code == 404
    assert "Table 9 is not in this room (tables: 1, 2)." in missing.get_data(as_text=True)
    for auth in ({"table": 9, "lang": "en"}, {"table": "two", "lang": "it"}):
        tv = socketio.test_client(kiosk_app, namespace="/room", auth=auth)
        assert not tv.is_connected("/room"), auth


def test_without_other_tables_the_room_is_this_table(kiosk_app: Any) -> None:
    kiosk_app.extensions["stud_table"].configure(copy.deepcopy(driver.SETUP))
    listed = kiosk_app.test_client().get("/room/tables.json").get_json()
    assert [(t["table"], t["hand"], [p["name"] for p in t["players"]]) for t in listed] == [
        (1, None, ["Anna", "Bruno", "Carla"])
    ]


def test_each_table_keeps_its_own_setup_in_a_shared_database(kiosk_app: Any) -> None:
    store = kiosk_app.extensions["stud_store"]
    one = kiosk_app.extensions["stud_table"]
    one.configure(copy.deepcopy(driver.SETUP))
    other_table(kiosk_app)  # table 2 sets up seven-card stud, 5/10/25/50
    # The kiosks restart: each finds its own table as it was set up.
    again_one, again_two = TableService(store, table_id=1), TableService(store, table_id=2)
    assert again_one.setup()["game"] == "seven-card-stud-hilo"
    assert again_one.setup()["stakes"]["ante"] == 1
    assert again_two.setup()["game"] == "seven-card-stud"
    assert again_two.setup()["stakes"]["ante"] == 5
    assert again_two.hand is not None and again_one.hand is None
