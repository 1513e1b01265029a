"""The real server refuses in words and loses nothing: unreadable bodies, huge ids, the last entry
of a hand on a full disk, an entry sent twice, frames of other sites."""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
import requests

from tests.conftest import LiveKiosk
from tests.kiosk import driver

pytestmark = pytest.mark.slow

#: what a refusal must never show: Python's words for its own errors
INTERNALS = ("Traceback", "invalid literal", "KeyError", "TypeError", "RecursionError",
             "object has no attribute", "Internal Server Error", "<!doctype html")


def _words(answer: requests.Response, status: int) -> str:
    assert answer.status_code == status, (answer.status_code, answer.text[:300])
    body = answer.json()
    assert body["ok"] is False and body["error"]
    for internal in INTERNALS:
        assert internal not in body["error"], body["error"]
    return str(body["error"])


def _set_up(server: LiveKiosk) -> Any:
    dealer = server.dealer_session()
    dealer.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP)).raise_for_status()
    return dealer


def _state(dealer: Any, server: LiveKiosk) -> dict[str, Any]:
    view: dict[str, Any] = dealer.get(server.url + "/api/state", timeout=10).json()
    return view


def test_unreadable_bodies_are_refused_in_words(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    dealer = _set_up(server)
    deep = "[" * 30_000 + "]" * 30_000  # within the size the kiosk reads
    json_headers = {"Content-Type": "application/json"}
    # without a session (nor its CSRF token) the body is not even read
    stranger = requests.post(server.url + "/api/events", data=deep, headers=json_headers,
                             timeout=10)
    assert "form" in _words(stranger, 400)
    assert "deep" in _words(dealer.post(server.url + "/api/events", data=deep,
                                        headers=json_headers, timeout=10), 400)
    for body in ('{"type": "act", "seat": 1, "action": "bet", "amount": Infinity}',
                 '{"type": "act", "seat": 1, "action": "bet", "amount": 1e400}',
                 '{"type": "act", "seat": 1, "action": "bet", "amount": NaN}'):
        assert "finite" in _words(dealer.post(server.url + "/api/events", data=body,
                                              headers=json_headers, timeout=10), 400)
    setup = '{"game": "soko", "stakes": {"ante": Infinity}}'
    assert "finite" in _words(dealer.put(server.url + "/api/setup", data=setup,
                                         headers=json_headers, timeout=10), 400)
    assert "object" in _words(dealer.post(server.url + "/api/events", json=[1, 2], timeout=10),
                              400)


def test_refusals_never_repeat_the_body_nor_show_internals(
    live_kiosk: Callable[..., LiveKiosk],
) -> None:
    server = live_kiosk()
    dealer = _set_up(server)
    dealer.post(server.url + "/api/hands", timeout=10).raise_for_status()
    long = "x" * 20_000
    for event, status in (
        ({"type": "deal", "seat": 1, "card": long, "up": True}, 422),
        ({"type": "deal", "seat": 1, "card": "As", "up": True, long: 1}, 422),
        ({"type": "deal", "seat": 1, "card": "As", "up": True, "id": long}, 422),
        ({"type": "act", "seat": 10**30, "action": "call"}, 422),
        ({"type": "show", "seat": 1, "cards": ["As"] * 500}, 422),
        ({"type": "deal", "seat": "1", "card": "As", "up": True}, 422),
    ):
        text = _words(dealer.post(server.url + "/api/events", json=event, timeout=10), status)
        assert long not in text and len(text) < 300, text
    assert _state(dealer, server)["hand"]["events"] == 0  # nothing was entered


def test_huge_ids_are_a_404_in_words(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    dealer = _set_up(server)
    huge = "9" * 40
    assert "no hand" in _words(dealer.get(server.url + f"/api/hands/{huge}", timeout=10), 404)
    for path in (f"/history/{huge}", f"/history/{huge}.phh", f"/history/{huge}.json"):
        page = dealer.get(server.url + path, timeout=10)
        assert page.status_code == 404, (path, page.status_code)
        assert "no hand" in page.text and "Traceback" not in page.text


def test_no_other_site_may_frame_the_kiosk(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    dealer = _set_up(server)
    for path in ("/dealer", "/setup/", "/login", "/spectator", "/api/state"):
        answer = dealer.get(server.url + path, timeout=10)
        assert answer.headers.get("X-Frame-Options") == "DENY", path
        assert "frame-ancestors 'none'" in answer.headers.get("Content-Security-Policy", ""), path


def test_the_last_entry_and_the_result_are_written_together(
    live_kiosk: Callable[..., LiveKiosk],
) -> None:
    server = live_kiosk()
    dealer = _set_up(server)
    stacks_before = {s["seat"]: s["stack"] for s in _state(dealer, server)["table"]["seats"]}
    database = server.instance / "stud-kiosk.sqlite3"
    # the disk is full by the time the hand's result is written
    with sqlite3.connect(database) as db:
        db.execute("CREATE TRIGGER disk_full BEFORE INSERT ON results "
                   "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
    dealer.post(server.url + "/api/hands", timeout=10).raise_for_status()
    while True:
        event = driver.next_event(_state(dealer, server))
        assert event is not None, "the hand ended without writing its result"
        answer = dealer.post(server.url + "/api/events", json=event, timeout=10)
        if answer.status_code != 200:
            break
    assert "disk is full" in _words(answer, 503)
    view = _state(dealer, server)
    events = view["hand"]["events"]
    assert not view["hand"]["finished"]
    tv = requests.get(server.url + "/api/state?as=spectator", timeout=10).json()
    assert not tv["hand"]["finished"]
    assert {s["seat"]: s["stack"] for s in view["table"]["seats"]} == stacks_before
    (row,) = dealer.get(server.url + "/api/hands", timeout=10).json()
    assert row["status"] == "running" and len(
        dealer.get(server.url + f"/api/hands/{row['id']}", timeout=10).json()["events"]) == events
    # space again: the same entry ends the hand, once, and a restart agrees
    with sqlite3.connect(database) as db:
        db.execute("DROP TRIGGER disk_full")
    done = dealer.post(server.url + "/api/events", json=event, timeout=10)
    assert done.status_code == 200, done.text
    finished = _state(dealer, server)
    assert finished["hand"]["finished"] and finished["hand"]["events"] == events + 1
    stacks = {s["seat"]: s["stack"] for s in finished["table"]["seats"]}
    assert stacks != stacks_before and sum(stacks.values()) == sum(stacks_before.values())
    server.kill()
    server.start()
    again = server.dealer_session()
    assert {s["seat"]: s["stack"] for s in _state(again, server)["table"]["seats"]} == stacks
    (row,) = again.get(server.url + "/api/hands", timeout=10).json()
    assert row["status"] == "finished"


def test_an_entry_sent_again_gets_the_first_answer(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    dealer = _set_up(server)
    dealer.post(server.url + "/api/hands", timeout=10).raise_for_status()
    event = dict(driver.next_event(_state(dealer, server)) or {}, id="tap-0001")
    first = dealer.post(server.url + "/api/events", json=event, timeout=10)
    assert first.status_code == 200
    again = dealer.post(server.url + "/api/events", json=event, timeout=10)
    assert again.status_code == 200 and again.json() == first.json()
    assert _state(dealer, server)["hand"]["events"] == 1
    # even after a power cut between the entry and its answer
    server.kill()
    server.start()
    dealer = server.dealer_session()
    after = dealer.post(server.url + "/api/events", json=event, timeout=10)
    assert after.status_code == 200 and after.json() == first.json()
    assert _state(dealer, server)["hand"]["events"] == 1
    # an undo sent twice takes back one entry
    second = dict(driver.next_event(_state(dealer, server)) or {}, id="tap-0002")
    dealer.post(server.url + "/api/events", json=second, timeout=10).raise_for_status()
    import socketio

    screen = socketio.Client(reconnection=False)
    screen.connect(server.url, auth={"role": "dealer", "lang": "en"},
                   headers={"Cookie": server.cookie_header(dealer)}, transports=["websocket"])
    try:
        answers = [screen.call("undo", {"id": "tap-0003"}, timeout=10) for _ in range(2)]
        # the repeat is answered as the first undo was: the entry taken back, in words
        taken_back = {k: v for k, v in second.items() if k != "id"}
        assert answers[0]["ok"] is True and answers[0]["undone"] == taken_back
        assert answers[0]["undone_text"] and answers[1] == answers[0]
    finally:
        screen.disconnect()
    assert _state(dealer, server)["hand"]["events"] == 1


def test_a_read_only_database_shows_the_table_and_says_why(
    live_kiosk: Callable[..., LiveKiosk], tmp_path: Any
) -> None:
    instance = tmp_path / "instance"
    server = live_kiosk(instance)
    dealer = _set_up(server)
    dealer.post(server.url + "/api/hands", timeout=10).raise_for_status()
    event = driver.next_event(_state(dealer, server))
    dealer.post(server.url + "/api/events", json=event, timeout=10).raise_for_status()
    server.stop()
    # the same database, now only readable (as a disk remounted read-only after errors)
    database = instance / "stud-kiosk.sqlite3"
    read_only = live_kiosk(instance, env={
        "STUD_KIOSK_DATABASE_URL": f"sqlite:///file:{database}?mode=ro&uri=true"})
    tv = requests.get(read_only.url + "/api/state", timeout=10).json()
    assert tv["hand"] is not None and len(tv["table"]["seats"]) == 3  # the TV shows the table
    dealer = read_only.dealer_session()  # the PIN is read, not written
    view = _state(dealer, read_only)
    assert view["hand"]["events"] == 1
    assert "read-only" in view["notice"]
    refused = dealer.post(read_only.url + "/api/events",
                          json=driver.next_event(view), timeout=10)
    assert "read-only" in _words(refused, 503)
    assert _state(dealer, read_only)["hand"]["events"] == 1
