"""The record of the nights: a night's results, hands per game, biggest pot and best hand shown;
each player across nights (a merged duplicate counted as the player he is); the CSV exports."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path

from kiosk.night_record import ledger_csv, night_record, nights_csv, player_stats
from kiosk.service import TableService
from kiosk.store import Store
from tests.kiosk import driver
from tests.night.play import play_hand

OPEN = {"type": "night_open", "currency": "EUR", "chips": 10, "money": 100, "buy_in": 200}


def scripted_hand(table: TableService) -> None:
    """The driver's hi/lo hand: Carla's flush and Anna's low shown, Bruno mucks."""
    table.start_hand()
    while (event := driver.next_event(table.view("dealer", "en"))) is not None:
        table.submit(event, source="test")


def close(table: TableService) -> None:
    counts = {str(s["player"]): s["stack"] for s in table.setup()["seats"] if s["active"]}
    table.submit({"type": "cash_out", "counts": counts})
    table.submit({"type": "night_close"})


def test_the_record_of_two_nights_and_of_each_player(tmp_path: Path) -> None:
    table = TableService(Store(f"sqlite:///{tmp_path / 'table.sqlite3'}"))
    ids = {n: table.add_player(n)["player"]["id"] for n in ("Anna", "Bruno", "Carla")}
    table.submit(OPEN)
    for seat, name in enumerate(("Anna", "Bruno", "Carla"), start=1):
        table.submit({"type": "buy_in", "player": ids[name], "seat": seat, "chips": 200})
    scripted_hand(table)
    play_hand(table)
    close(table)
    first = table.log.closed.id

    # the second night: "Carla B." is Carla written twice; merged, her night is Carla's
    dup = table.add_player("Carla B.")["player"]["id"]
    table.submit(OPEN)
    table.submit({"type": "buy_in", "player": ids["Anna"], "seat": 1, "chips": 200})
    table.submit({"type": "buy_in", "player": dup, "seat": 2, "chips": 200})
    play_hand(table)
    close(table)
    table.merge_player(dup, ids["Carla"])

    record = night_record(table.store, table.books, first, "en")
    assert record["hands"] == 2 and record["games"] == {"seven-card-stud-hilo": 2}
    assert record["biggest_pot"]["number"] == 1 and record["biggest_pot"]["amount"] > 30
    assert record["best_hand"]["name"] == "Carla" and "Flush" in record["best_hand"]["hand"]
    assert "Colore" in night_record(table.store, table.books, first, "it")["best_hand"]["hand"]

    stats = {s["name"]: s for s in player_stats(table.store, table.books, "en")}
    assert stats["Anna"]["nights"] == 2 and stats["Anna"]["hands"] == 3
    assert stats["Carla"]["nights"] == 2 and stats["Carla"]["hands"] == 3
    assert stats["Carla B."]["merged_into"] == ids["Carla"] and stats["Carla B."]["nights"] == 0
    assert stats["Carla"]["pots"] >= 1 and stats["Bruno"]["nights"] == 1
    total = sum(sum(s["net"].values()) for s in stats.values())
    assert total == 0

    lines = list(csv.DictReader(io.StringIO(nights_csv(table.store, table.books, 1, "en"))))
    assert len(lines) == 5 and {line["currency"] for line in lines} == {"EUR"}
    assert sum(Decimal(line["result"]) for line in lines) == 0
    ledger = list(csv.DictReader(io.StringIO(ledger_csv(table.store, table.books, first, "it"))))
    assert [line["type"] for line in ledger][:2] == ["night_open", "buy_in"]
    assert ledger[1]["entry"] == "Anna entra con 200" and ledger[1]["money"] == "20.00"


def test_a_name_written_like_a_formula_is_exported_as_text(tmp_path: Path) -> None:
    table = TableService(Store(f"sqlite:///{tmp_path / 'table.sqlite3'}"))
    odd = table.add_player("=1+1")["player"]["id"]
    table.submit(OPEN)
    table.submit({"type": "buy_in", "player": odd, "seat": 1, "chips": 200})
    close(table)
    night = table.log.closed.id
    lines = list(csv.DictReader(io.StringIO(nights_csv(table.store, table.books, 1, "en"))))
    assert [line["player"] for line in lines] == ["'=1+1"]
    ledger = list(csv.DictReader(io.StringIO(ledger_csv(table.store, table.books, night, "en"))))
    assert ledger[1]["player"] == "'=1+1" and ledger[1]["entry"] == "'=1+1 buys in for 200"


def test_the_pages_of_the_record(dealer_client: object, kiosk_app: object) -> None:
    from typing import Any

    client: Any = dealer_client
    table: Any = kiosk_app.extensions["stud_table"]  # type: ignore[attr-defined]
    anna = table.add_player("Anna")["player"]["id"]
    table.submit(OPEN)
    table.submit({"type": "buy_in", "player": anna, "seat": 1, "chips": 200})
    book = table.log.book.id
    for url, words in (("/night", "Open the night"), ("/nights", "Anna"),
                       (f"/nights/{book}", "Anna buys in for 200"), ("/players", "Anna")):
        page = client.get(url + "?lang=en")
        assert page.status_code == 200 and words in page.get_data(as_text=True), url
    assert client.get("/nights/99").status_code == 404
    # razz is offered like the other games
    assert 'value="razz"' in client.get("/setup/").get_data(as_text=True)
    answer = client.get(f"/nights/{book}/ledger.csv")
    assert answer.mimetype == "text/csv" and "buy_in" in answer.get_data(as_text=True)


def test_the_player_list_routes_rename_merge_and_refuse_in_words(dealer_client: object) -> None:
    from typing import Any

    client: Any = dealer_client
    token = {"X-CSRFToken": client.get("/api/csrf").get_json()["csrf_token"]}
    anna = client.post("/api/players", json={"name": "  Anna ", "nickname": "Nanà"},
                       headers=token).get_json()["player"]
    assert anna["name"] == "Anna" and anna["nickname"] == "Nanà"
    again = client.post("/api/players?lang=it", json={"name": "anna"}, headers=token)
    assert again.status_code == 409 and "è già nell'elenco" in again.get_json()["error"]
    empty = client.post("/api/players", json={"name": ""}, headers=token)
    assert empty.status_code == 422 and "1 to 24 characters" in empty.get_json()["error"]
    dup = client.post("/api/players", json={"name": "Anna B"}, headers=token).get_json()["player"]
    renamed = client.post(f"/api/players/{anna['id']}", json={"name": "Annalisa"}, headers=token)
    assert renamed.get_json()["player"]["name"] == "Annalisa"
    merged = client.post(f"/api/players/{dup['id']}/merge", json={"into": anna["id"]},
                         headers=token)
    assert merged.get_json()["ok"]
    players = {p["id"]: p for p in client.get("/api/players").get_json()["players"]}
    assert players[dup["id"]]["merged_into"] == anna["id"]
    assert client.post(f"/api/players/{anna['id']}/merge", json={"into": dup["id"]},
                       headers=token).status_code == 422
    assert client.post(f"/api/players/{dup['id']}/merge", json={"into": None},
                       headers=token).get_json()["ok"]
    assert client.post("/api/players", json={"name": "X"}).status_code == 400  # no CSRF token
