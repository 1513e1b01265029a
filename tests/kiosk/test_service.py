"""The table service with the real engine and store: a whole hand, undo, misdeal, resume, views."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine.hand_errors import HandError
from kiosk.service import KioskError, TableService
from kiosk.store import Store
from tests.kiosk import driver


def table_at(path: Path) -> TableService:
    return TableService(Store(f"sqlite:///{path / 'table.sqlite3'}"))


@pytest.fixture
def table(tmp_path: Path) -> TableService:
    table = table_at(tmp_path)
    table.configure(copy.deepcopy(driver.SETUP))
    return table


def test_a_whole_hilo_hand_splits_the_pot_and_keeps_the_stacks(table: TableService) -> None:
    table.start_hand()
    entries = driver.play(table)
    hand = table.view("dealer", "en")["hand"]
    assert hand["finished"] and entries > 25
    (pot,) = hand["result"]["pots"]
    halves = {(s["half"], s["seat"]) for s in pot["shares"]}
    assert halves == {("high", 3), ("low", 1)}
    assert sum(s["amount"] for s in pot["shares"]) == pot["amount"]
    low = next(s for s in pot["shares"] if s["half"] == "low")
    assert "7" in low["hand"]
    stacks = {s["seat"]: s["stack"] for s in table.setup()["seats"] if s["active"]}
    assert sum(stacks.values()) == 600 and stacks[2] < 200
    # the next hand starts from those stacks
    table.next_hand()
    nxt = table.view("dealer", "en")["hand"]
    assert {s["seat"]: s["stack"] + s["committed"] for s in nxt["seats"]} == stacks
    assert nxt["number"] == 2


def test_every_entry_is_stored_before_it_is_acknowledged(table: TableService) -> None:
    table.start_hand()
    driver.play(table, stop_after=12)
    assert table.hand_id is not None and table.hand is not None
    stored = table.store.events(table.hand_id)
    assert stored == [e.to_dict() for e in table.hand.events]
    # a second store on the same file sees them: they were committed
    again = Store(table.store.url)
    assert again.events(table.hand_id) == stored


def test_a_restarted_table_resumes_the_hand_exactly(table: TableService, tmp_path: Path) -> None:
    table.start_hand()
    driver.play(table, stop_after=17)
    before = {role: table.view(role, lang) for role in ("dealer", "spectator") for lang in ("en",)}
    table.store.close()
    resumed = table_at(tmp_path)
    for role, view in before.items():
        after = resumed.view(role, "en")
        view.pop("version"), after.pop("version")
        assert after == view
    assert resumed.hand is not None and table.hand is not None
    assert resumed.hand.state == table.hand.state
    driver.play(resumed)
    assert resumed.view("dealer", "en")["hand"]["finished"]


def test_a_stored_hand_that_no_longer_replays_is_voided_and_the_table_starts(
    table: TableService, tmp_path: Path
) -> None:
    stacks = [seat["stack"] for seat in table.setup()["seats"]]
    table.start_hand()
    driver.play(table, stop_after=12)
    hand_id, number = table.hand_id, table.hand_number
    assert hand_id is not None
    table.store.close()
    # a damaged log: the 8th entry now plays a card that the 1st entry already dealt
    connection = sqlite3.connect(tmp_path / "table.sqlite3")
    rows = connection.execute(
        "SELECT seq, event FROM events WHERE hand_id = ? ORDER BY seq", (hand_id,)
    ).fetchall()
    first_card = next(json.loads(e)["card"] for _, e in rows if json.loads(e).get("card"))
    damaged = next(
        (seq, json.loads(e)) for seq, e in rows if seq >= 7 and json.loads(e).get("card")
    )
    damaged[1]["card"] = first_card
    connection.execute(
        "UPDATE events SET event = ? WHERE hand_id = ? AND seq = ?",
        (json.dumps(damaged[1]), hand_id, damaged[0]),
    )
    connection.commit()
    connection.close()

    resumed = table_at(tmp_path)
    assert resumed.hand is None and resumed.hand_number == number
    for lang, words in (("en", "could not be resumed"), ("it", "Non è stato possibile")):
        notice = resumed.view("dealer", lang)["notice"]
        assert words in notice and (f"#{number}" in notice or f"n. {number}" in notice)
        assert str(damaged[0] + 1) in notice
    assert "notice" not in resumed.view("spectator", "en")
    assert [seat["stack"] for seat in resumed.setup()["seats"]] == stacks
    row = resumed.store.hand(hand_id)
    assert row is not None and row["status"] == "void"
    assert len(resumed.store.events(hand_id)) == 12  # nothing of the log is thrown away
    resumed.start_hand()
    assert "notice" not in resumed.view("dealer", "en")
    assert resumed.hand_number == number + 1


def test_undo_restores_the_state_and_the_log(table: TableService) -> None:
    table.start_hand()
    driver.play(table, stop_after=10)
    assert table.hand is not None and table.hand_id is not None
    state, view = table.hand.state, table.view("dealer", "en")
    driver.play(table, stop_after=1)
    table.undo()
    assert table.hand.state == state
    assert table.view("dealer", "en")["hand"] == view["hand"]
    assert len(table.store.events(table.hand_id)) == 10


def test_undo_after_the_end_withdraws_the_result_and_the_stacks(table: TableService) -> None:
    table.start_hand()
    driver.play(table)
    assert table.hand_id is not None
    assert table.store.hand(table.hand_id)["status"] == "finished"  # type: ignore[index]
    table.undo()
    assert not table.view("dealer", "en")["hand"]["finished"]
    assert table.store.hand(table.hand_id)["status"] == "running"  # type: ignore[index]
    assert all(s["stack"] == 200 for s in table.setup()["seats"] if s["active"])
    driver.play(table)
    assert table.view("dealer", "en")["hand"]["finished"]


def test_a_misdeal_returns_every_chip(table: TableService) -> None:
    table.start_hand()
    driver.play(table, stop_after=14)
    table.misdeal()
    hand = table.view("dealer", "en")["hand"]
    assert hand["finished"] and hand["result"]["misdeal"]
    assert all(s["stack"] == 200 for s in table.setup()["seats"] if s["active"])
    assert table.hand_id is not None
    assert table.store.hand(table.hand_id)["status"] == "misdeal"  # type: ignore[index]


def test_a_refused_entry_changes_nothing_and_says_why(table: TableService) -> None:
    table.start_hand()
    driver.play(table, stop_after=3)
    assert table.hand_id is not None
    before = table.view("dealer", "en")
    with pytest.raises(HandError) as err:
        table.submit({"type": "deal", "seat": 2, "card": "As", "up": True})  # As is Anna's
    assert "As" in str(err.value)
    with pytest.raises(HandError):
        table.submit({"type": "act", "seat": 1, "action": "fold"})  # nobody bets yet
    with pytest.raises(HandError, match="'up' must be true or false"):
        table.submit({"type": "deal"})
    after = table.view("dealer", "en")
    assert after["hand"] == before["hand"] and len(table.store.events(table.hand_id)) == 3


def test_setup_cannot_change_during_a_hand(table: TableService) -> None:
    table.start_hand()
    with pytest.raises(KioskError, match="between hands"):
        table.configure(copy.deepcopy(driver.SETUP))
    with pytest.raises(KioskError, match="already in progress"):
        table.start_hand()


def test_the_spectator_view_never_holds_a_hidden_card(table: TableService) -> None:
    table.start_hand()
    seen: list[str] = []
    while True:
        seen.append(json.dumps(table.view("spectator", "en")))
        event = driver.next_event(table.view("dealer", "en"))
        if event is None:
            break
        table.submit(event)
    for text in seen:
        for card in driver.NEVER_PUBLIC:
            assert f'"{card}"' not in text
    before_showdown = [
        s for s in seen if '"phase": "showdown"' not in s and '"finished": true' not in s
    ]
    assert len(before_showdown) > 20
    for text in before_showdown:
        for card in driver.SHOWN_LATER:
            assert f'"{card}"' not in text
    # the dealer does see them
    dealer = json.dumps(table.view("dealer", "en"))
    assert all(f'"{c}"' in dealer for c in ("Kd", "Qd", "As", "2s"))
    # at the end the spectator sees the shown hands and the split
    final = json.loads(seen[-1])["hand"]
    assert {s["half"] for s in final["result"]["pots"][0]["shares"]} == {"high", "low"}
    assert "3c" in seen[-1] and "As" in seen[-1]


def test_views_speak_both_languages(table: TableService) -> None:
    table.start_hand()
    en, it = table.view("dealer", "en"), table.view("dealer", "it")
    assert en["hand"]["prompt"]["text"] != it["hand"]["prompt"]["text"]
    assert it["table"]["game_name"] == "Stud a sette carte hi/lo"


def test_a_dealer_view_carries_what_the_screen_needs(table: TableService) -> None:
    table.start_hand()
    view: dict[str, Any] = table.view("dealer", "en")["hand"]
    assert view["prompt"]["kind"] == "deal" and view["needs"]["1"] == {"down": 2, "up": 1}
    driver.play(table, stop_after=9)
    view = table.view("dealer", "en")["hand"]
    assert view["prompt"]["kind"] == "bring_in"
    assert [a["action"] for a in view["legal"]] == ["bring_in", "complete"]
    assert view["legal"][0]["label"] and view["to_act"] == 1
    assert set(view["seen"]) == {"As", "2s", "5h", "Kd", "Qd", "9s", "8h"}


def test_the_last_action_shown_belongs_to_the_street_on_the_table(table: TableService) -> None:
    table.start_hand()
    streets_with_action: set[str] = set()
    new_streets = 0
    while True:
        hand = table.view("spectator", "it")["hand"]
        event = driver.next_event(table.view("dealer", "en"))
        last = hand["last_action"]
        if hand["phase"] in ("deal", "community"):
            assert last is None, (hand["street_name"], last)
        if hand["phase"] == "betting" and last is not None:
            streets_with_action.add(hand["street_name"])
        if event is None:
            break
        before = hand["street"]
        table.submit(event)
        after = table.view("spectator", "it")["hand"]
        if hand["phase"] == "deal" and after["phase"] == "betting":
            # the first seat to act on a new street: nobody has acted on it yet
            assert after["last_action"] is None, after["last_action"]
            new_streets += 1
        if event["type"] == "act" and after["street"] == before and not after["finished"]:
            assert after["last_action"] is not None
            assert after["last_action"]["seat"] == event["seat"]
    assert {"third", "fourth", "fifth"} <= streets_with_action
    assert new_streets >= 4
