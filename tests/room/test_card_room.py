"""A card room for real: PostgreSQL for the hands, Redis for the live screens, two kiosk processes
(``stud-kiosk serve``, gunicorn) on loopback, one per table.

- an action on table 1 (entered on kiosk A) reaches a screen connected to kiosk B;
- Redis stopped for a few seconds: every action entered meanwhile is in PostgreSQL, and the
  screen on kiosk B catches up by itself when Redis is back.
"""

from __future__ import annotations

import copy
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import socketio

from tests.conftest import LiveKiosk
from tests.helpers.deploy import DEPLOY
from tests.helpers.servers import Postgres, Redis
from tests.kiosk import driver

pytestmark = pytest.mark.slow


@dataclass
class Room:
    postgres: Postgres
    redis: Redis
    a: LiveKiosk  # runs table 1
    b: LiveKiosk  # runs table 2
    dealer_a: Any
    dealer_b: Any


@pytest.fixture(scope="module")
def room(
    postgres: Postgres, redis_server: Redis, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Room]:
    base = tmp_path_factory.mktemp("room")
    kiosks = [
        LiveKiosk(
            base / f"instance{table_id}",
            {
                "STUD_KIOSK_DATABASE_URL": postgres.url,
                "STUD_KIOSK_MESSAGE_QUEUE": redis_server.url,
                "STUD_KIOSK_TABLE_ID": str(table_id),
                "STUD_KIOSK_TABLE_NAME": f"Tavolo {'AB'[table_id - 1]}",
            },
        )
        for table_id in (1, 2)
    ]
    try:
        # Both at once on an empty database, as after a power cut in the club.
        together(*(lambda k=k: k.start(timeout=60) for k in kiosks))
        a, b = kiosks
        dealer_a, dealer_b = a.dealer_session(), b.dealer_session()
        for dealer, kiosk, game in ((dealer_a, a, "seven-card-stud-hilo"), (dealer_b, b, "soko")):
            setup = copy.deepcopy(driver.SETUP)
            setup["game"] = game
            assert dealer.put(kiosk.url + "/api/setup", json=setup).ok
        yield Room(postgres, redis_server, a, b, dealer_a, dealer_b)
    finally:
        together(*(lambda k=k: quick_stop(k) for k in kiosks))


def quick_stop(kiosk: LiveKiosk) -> None:
    """gunicorn's quick shutdown (SIGINT): every hand is in the database already."""
    if kiosk.process is not None and kiosk.process.poll() is None:
        os.killpg(kiosk.process.pid, signal.SIGINT)
        try:
            kiosk.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            kiosk.kill()


def together(*calls: Callable[[], object]) -> None:
    """Run the calls in parallel threads; raise the first failure."""
    errors: list[BaseException] = []

    def run(call: Callable[[], object]) -> None:
        try:
            call()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


@dataclass
class Screen:
    """A Socket.IO client on the room namespace of one kiosk, keeping what it receives."""

    client: socketio.Client
    states: list[dict[str, Any]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self, what: Callable[[Screen], bool], timeout: float, why: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if what(self):
                    return
            time.sleep(0.05)
        with self.lock:
            last = self.states[-1] if self.states else self.tables[-1:] or None
        raise AssertionError(f"{why}: not within {timeout} s; last received: {last}")

    def last_state(self) -> dict[str, Any]:
        return self.states[-1]


def room_screen(kiosk: LiveKiosk, auth: dict[str, Any]) -> Screen:
    client = socketio.Client(reconnection=True, reconnection_delay=0.2)
    screen = Screen(client)

    def on_state(data: dict[str, Any]) -> None:
        with screen.lock:
            screen.states.append(data)

    def on_table(data: dict[str, Any]) -> None:
        with screen.lock:
            screen.tables.append(data)

    def on_tables(data: list[dict[str, Any]]) -> None:
        with screen.lock:
            screen.tables.extend(data)

    client.on("state", on_state, namespace="/room")
    client.on("table", on_table, namespace="/room")
    client.on("tables", on_tables, namespace="/room")
    client.connect(
        kiosk.url, namespaces=["/room"], auth=auth, transports=["websocket"], wait_timeout=10
    )
    return screen


def tv_screen(kiosk: LiveKiosk) -> Screen:
    """The kiosk's own TV (default namespace), for the table that kiosk runs."""
    client = socketio.Client(reconnection=True, reconnection_delay=0.2)
    screen = Screen(client)

    def on_state(data: dict[str, Any]) -> None:
        with screen.lock:
            screen.states.append(data)

    client.on("state", on_state)
    client.connect(
        kiosk.url,
        auth={"role": "spectator", "lang": "en"},
        transports=["websocket"],
        wait_timeout=10,
    )
    return screen


def step(kiosk: LiveKiosk, dealer: Any, count: int = 1) -> None:
    """Enter the scripted hand's next ``count`` entries on ``kiosk`` (each stored before 200 OK)."""
    for _ in range(count):
        view = dealer.get(kiosk.url + "/api/state").json()
        event = driver.next_event(view)
        assert event is not None, "the scripted hand is over"
        answer = dealer.post(kiosk.url + "/api/events", json=event)
        assert answer.status_code == 200, answer.text


def public_seats(kiosk: LiveKiosk) -> list[dict[str, Any]]:
    """What a spectator of the table sees now, asked of the kiosk that runs it."""
    state = kiosk_state(kiosk)
    assert state["hand"] is not None
    return list(state["hand"]["seats"])


def kiosk_state(kiosk: LiveKiosk) -> dict[str, Any]:
    import requests

    state: dict[str, Any] = requests.get(kiosk.url + "/api/state?lang=en", timeout=5).json()
    return state


def hand_events(postgres: Postgres, table_id: int) -> int:
    with postgres.connect() as conn:  # type: ignore[attr-defined]
        row = conn.execute(
            "SELECT count(*) FROM events WHERE hand_id = "
            "(SELECT max(id) FROM hands WHERE table_id = %s)",
            (table_id,),
        ).fetchone()
    return int(row[0])


def test_an_action_on_one_table_reaches_a_screen_on_the_other_kiosk(room: Room) -> None:
    watcher = room_screen(room.b, {"table": 1, "lang": "en"})
    listing = room_screen(room.b, {"lang": "it"})
    own_tv = tv_screen(room.b)
    try:
        assert room.dealer_a.post(room.a.url + "/api/hands").status_code == 200
        step(room.a, room.dealer_a, 3)
        expected = public_seats(room.a)
        watcher.wait(
            lambda s: (
                bool(s.states)
                and s.last_state()["hand"] is not None
                and s.last_state()["hand"]["seats"] == expected
            ),
            15,
            "table 1's state on kiosk B",
        )
        state = watcher.last_state()
        assert state["role"] == "spectator" and state["table"]["game"] == "seven-card-stud-hilo"
        # Down cards were entered: none reaches the screen on the other kiosk.
        for seat in state["hand"]["seats"]:
            for card in seat["cards"]:
                assert card["public"] or card["card"] is None
        # The room's list on kiosk B: table 1 live, in Italian, with its pot and players.
        pot = kiosk_state(room.a)["hand"]["total_pot"]
        listing.wait(
            lambda s: any(
                t["table"] == 1 and t["pot"] == pot and t["hand"] is not None for t in s.tables
            ),
            15,
            "table 1 in kiosk B's room list",
        )
        one = [t for t in listing.tables if t["table"] == 1][-1]
        assert one["name"] == "Tavolo A" and one["game_name"] == "Stud a sette carte hi/lo"
        assert [p["name"] for p in one["players"]] == ["Anna", "Bruno", "Carla"]
        two = [t for t in listing.tables if t["table"] == 2][-1]
        assert two["game"] == "soko" and two["name"] == "Tavolo B"
        # Kiosk B's own TV stays on table 2.
        time.sleep(0.5)
        with own_tv.lock:
            games = {s["table"]["game"] for s in own_tv.states}
        assert games == {"soko"}
    finally:
        for screen in (watcher, listing, own_tv):
            screen.client.disconnect()


def test_redis_stopped_loses_no_hand_and_the_screens_recover(room: Room) -> None:
    view = kiosk_state(room.a)
    if view["hand"] is None or view["hand"]["finished"]:
        assert room.dealer_a.post(room.a.url + "/api/hands").status_code == 200
    watcher = room_screen(room.b, {"table": 1, "lang": "en"})
    try:
        watcher.wait(lambda s: bool(s.states), 10, "the first state")
        before = hand_events(room.postgres, 1)
        room.redis.stop()
        try:
            step(room.a, room.dealer_a, 4)  # the dealer goes on: nothing refused, nothing lost
            assert hand_events(room.postgres, 1) == before + 4
            time.sleep(2)
        finally:
            room.redis.start()
        expected = public_seats(room.a)
        watcher.wait(
            lambda s: (
                s.last_state()["hand"] is not None and s.last_state()["hand"]["seats"] == expected
            ),
            40,
            "kiosk B's screen catching up after Redis came back",
        )
        # And live again: the next action arrives as it happens.
        step(room.a, room.dealer_a, 1)
        expected = public_seats(room.a)
        watcher.wait(lambda s: s.last_state()["hand"]["seats"] == expected, 15, "the next action")
        assert hand_events(room.postgres, 1) == before + 5
    finally:
        watcher.client.disconnect()


def test_postgresql_stopped_refuses_entries_in_words_and_the_table_carries_on(room: Room) -> None:
    view = kiosk_state(room.a)
    if view["hand"] is None or view["hand"]["finished"]:
        assert room.dealer_a.post(room.a.url + "/api/hands").status_code == 200
    before = room.dealer_a.get(room.a.url + "/api/state").json()
    stored = hand_events(room.postgres, 1)
    event = driver.next_event(before)
    room.postgres.halt()
    try:
        refused = room.dealer_a.post(room.a.url + "/api/events", json=event)
        assert refused.status_code == 503, refused.text  # the store unavailable (docs/api.md)
        assert "database cannot be reached" in refused.json()["error"]
        italian = room.dealer_a.post(room.a.url + "/api/events?lang=it", json=event)
        assert "non è stata registrata" in italian.json()["error"]
        # Nothing changed on the table.
        assert room.dealer_a.get(room.a.url + "/api/state").json()["hand"] == before["hand"]
    finally:
        room.postgres.launch()
    assert room.dealer_a.post(room.a.url + "/api/events", json=event).status_code == 200
    assert hand_events(room.postgres, 1) == stored + 1


def test_a_kiosk_killed_mid_hand_carries_on_from_postgresql(room: Room) -> None:
    before = room.dealer_a.get(room.a.url + "/api/state").json()
    assert before["hand"] is not None and not before["hand"]["finished"]
    room.a.kill()  # a power cut on table 1's kiosk
    room.a.start(timeout=60)
    after = room.dealer_a.get(room.a.url + "/api/state").json()
    assert after["hand"]["seats"] == before["hand"]["seats"]
    assert after["hand"]["events"] == before["hand"]["events"]
    assert after["table"]["game"] == "seven-card-stud-hilo"  # its own setup, not table 2's
    step(room.a, room.dealer_a, 1)


def test_the_room_backup_is_a_copy_that_restores(room: Room, tmp_path: Path) -> None:
    """deploy/stud-room-backup (pg_dump) on the live room database, restored into a new one."""
    programs = str(room.postgres.programs)
    env = {
        "PATH": programs + os.pathsep + os.environ["PATH"],
        "PGHOST": "127.0.0.1",
        "PGPORT": str(room.postgres.port),
        "PGUSER": "stud",
        "STUD_ROOM_BACKUP_DIR": str(tmp_path / "backups"),
    }
    done = subprocess.run(
        ["bash", str(DEPLOY / "stud-room-backup")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (dump,) = (tmp_path / "backups").glob("studroom_*.dump")
    with room.postgres.connect() as conn:  # type: ignore[attr-defined]
        conn.execute("CREATE DATABASE restored")
        events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
    restore = subprocess.run(
        [f"{programs}/pg_restore", "--no-owner", "-d", "restored", str(dump)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert restore.returncode == 0, restore.stderr
    import psycopg

    with psycopg.connect(
        host="127.0.0.1", port=room.postgres.port, user="stud", dbname="restored"
    ) as conn:
        row = conn.execute("SELECT count(*) FROM events").fetchone()
    assert row is not None and row[0] == events > 0


@pytest.mark.browser
def test_chromium_on_kiosk_b_follows_table_1_and_the_room(room: Room, chromium: Any) -> None:
    view = kiosk_state(room.a)
    if view["hand"] is None or view["hand"]["finished"]:
        assert room.dealer_a.post(room.a.url + "/api/hands").status_code == 200
    page = chromium.new_page()
    try:
        page.goto(room.b.url + "/room/table/1?lang=it")
        pot = page.get_by_test_id("tv-pot")
        pot.wait_for(timeout=15000)
        assert page.locator("#tv-game").inner_text() == "Stud a sette carte hi/lo"
        step(room.a, room.dealer_a, 1)
        total = str(kiosk_state(room.a)["hand"]["total_pot"])
        page.wait_for_function(
            "t => document.querySelector('[data-testid=tv-pot]').textContent === t",
            arg=total,
            timeout=15000,
        )
        seats = page.locator(".tv-seat .name").all_inner_texts()
        assert seats == ["Anna", "Bruno", "Carla"]
        page.goto(room.b.url + "/room?lang=it")
        cards = page.get_by_test_id("room-table")
        cards.nth(1).wait_for(timeout=15000)
        assert cards.count() == 2
        first = cards.nth(0)
        assert "Tavolo A" in first.inner_text() and "Stud a sette carte hi/lo" in first.inner_text()
        step(room.a, room.dealer_a, 1)
        total = str(kiosk_state(room.a)["hand"]["total_pot"])
        page.wait_for_function(
            "t => document.querySelector('[data-table=\"1\"] [data-testid=room-pot]')"
            ".textContent === t",
            arg=total,
            timeout=15000,
        )
        assert page.get_by_test_id("room-conn").inner_text().startswith("●")  # connected
        assert first.get_attribute("href") == "/room/table/1?lang=it"
    finally:
        page.close()


def test_the_room_page_is_served_by_every_kiosk(room: Room) -> None:
    import requests

    for kiosk in (room.a, room.b):
        page = requests.get(kiosk.url + "/room?lang=en", timeout=5)
        assert page.status_code == 200 and "Card room" in page.text
        listed = requests.get(kiosk.url + "/room/tables.json", timeout=5).json()
        assert [t["table"] for t in listed] == [1, 2]
        assert requests.get(kiosk.url + "/room/table/3", timeout=5).status_code == 404


def test_the_tables_are_in_postgresql(room: Room, tmp_path: Path) -> None:
    with room.postgres.connect() as conn:  # type: ignore[attr-defined]
        tables = conn.execute("SELECT DISTINCT table_id FROM hands ORDER BY 1").fetchall()
    assert [row[0] for row in tables] == [1]
