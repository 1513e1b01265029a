"""Card room benchmark: one table's dealer entries reaching screens on another kiosk over Redis,
the store's commit on PostgreSQL against SQLite, and the screens' recovery after a Redis outage.

Starts real PostgreSQL and Redis (as tests/room does: the Debian packages, own processes on
loopback ports) and two kiosks (``stud-kiosk serve``): A runs table 1, B runs table 2. Spectators:
``--screens`` on B watching table 1 through the room namespace (over Redis), as many on A watching
its own table (no Redis on their path). The dealer of table 1 enters scripted seven-card stud hi/lo
hands through A's JSON API; for each entry: the time from sending it to its answer (engine check
and the commit in PostgreSQL), and to the moment the last screen of each group has the new state.
The same entries on a kiosk with SQLite give the commit for comparison. Then Redis is stopped for
``--outage`` seconds while the dealer goes on, restarted, and the time until the screens on B are
up to date is measured.

    .venv/bin/python -m tests.bench room
    .venv/bin/python -m tests.bench.bench_room [--hands 4] [--screens 10] [--outages 3] [--outage 3]
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests
import socketio

from tests.conftest import LiveKiosk
from tests.helpers.servers import Postgres, Redis, postgres_bin
from tests.kiosk import driver


class Screen:
    """A spectator client; records when each state of the hand first arrives."""

    def __init__(self, url: str, auth: dict[str, Any], namespace: str) -> None:
        self.seen: dict[str, float] = {}
        self.cond = threading.Condition()
        self.client = socketio.Client(reconnection=True, reconnection_delay=0.2)
        self.client.on("state", self._state, namespace=namespace)
        self.client.connect(url, namespaces=[namespace], auth=auth, transports=["websocket"])

    def _state(self, data: dict[str, Any]) -> None:
        key = fingerprint(data)
        with self.cond:
            self.seen.setdefault(key, time.perf_counter())
            self.cond.notify_all()

    def wait_for(self, key: str, timeout: float) -> float:
        deadline = time.monotonic() + timeout
        with self.cond:
            while key not in self.seen:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"state {key} did not arrive")
                self.cond.wait(left)
            return self.seen[key]


def fingerprint(state: dict[str, Any]) -> str:
    """The hand as a spectator sees it: the same on every kiosk, different after every entry."""
    hand = state.get("hand")
    return hashlib.sha1(json.dumps(hand, sort_keys=True).encode()).hexdigest()


def dealer_of(kiosk: LiveKiosk) -> Any:
    dealer = kiosk.dealer_session()
    assert dealer.put(kiosk.url + "/api/setup", json=copy.deepcopy(driver.SETUP)).ok
    return dealer


def spectator_state(kiosk: LiveKiosk) -> dict[str, Any]:
    state: dict[str, Any] = requests.get(kiosk.url + "/api/state?lang=en", timeout=10).json()
    return state


def play(
    kiosk: LiveKiosk,
    dealer: Any,
    hands: int,
    groups: dict[str, list[Screen]],
) -> tuple[list[float], dict[str, list[float]]]:
    """Play ``hands`` scripted hands; per entry: the answer time, and the time to the last screen
    of each group."""
    answers: list[float] = []
    arrivals: dict[str, list[float]] = {name: [] for name in groups}
    for _ in range(hands):
        assert dealer.post(kiosk.url + "/api/hands").status_code == 200
        while True:
            view = dealer.get(kiosk.url + "/api/state").json()
            event = driver.next_event(view)
            if event is None:
                break
            sent = time.perf_counter()
            answer = dealer.post(kiosk.url + "/api/events", json=event)
            answers.append(time.perf_counter() - sent)
            assert answer.status_code == 200, answer.text
            key = fingerprint(spectator_state(kiosk))
            for name, screens in groups.items():
                arrivals[name].append(max(s.wait_for(key, 20) for s in screens) - sent)
    return answers, arrivals


def ms(values: list[float], q: float) -> str:
    ordered = sorted(values)
    index = min(len(ordered) - 1, round(q * (len(ordered) - 1)))
    return f"{ordered[index] * 1000:.1f}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_room")
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--screens", type=int, default=10)
    parser.add_argument("--outages", type=int, default=3)
    parser.add_argument("--outage", type=float, default=3.0, help="seconds Redis stays down")
    args = parser.parse_args(argv)
    programs = postgres_bin()
    if programs is None:
        print(
            "bench_room: PostgreSQL is not installed (Debian package postgresql)", file=sys.stderr
        )
        return 2
    base = Path(tempfile.mkdtemp(prefix="bench-room-"))
    postgres, redis_server = Postgres(programs).start(), None
    kiosks: list[LiveKiosk] = []
    screens: list[Screen] = []
    try:
        program = shutil.which("redis-server")
        assert program, "redis-server is not installed (Debian package redis-server)"
        redis_server = Redis(program).start()
        for table_id in (1, 2):
            env = {
                "STUD_KIOSK_DATABASE_URL": postgres.url,
                "STUD_KIOSK_MESSAGE_QUEUE": redis_server.url,
                "STUD_KIOSK_TABLE_ID": str(table_id),
            }
            kiosks.append(LiveKiosk(base / f"room{table_id}", env).start(timeout=60))
        a, b = kiosks
        single = LiveKiosk(base / "single", {}).start(timeout=60)
        kiosks.append(single)

        dealer = dealer_of(a)
        remote = [Screen(b.url, {"table": 1, "lang": "en"}, "/room") for _ in range(args.screens)]
        local = [
            Screen(a.url, {"role": "spectator", "lang": "en"}, "/") for _ in range(args.screens)
        ]
        screens += remote + local
        answers_pg, arrivals = play(a, dealer, args.hands, {"remote": remote, "local": local})

        single_dealer = dealer_of(single)
        single_screens = [Screen(single.url, {"role": "spectator", "lang": "en"}, "/")]
        screens += single_screens
        answers_sqlite, single_arrivals = play(
            single, single_dealer, args.hands, {"local": single_screens}
        )

        recoveries = []
        for _ in range(args.outages):
            if spectator_state(a)["hand"] is None or spectator_state(a)["hand"]["finished"]:
                assert dealer.post(a.url + "/api/hands").status_code == 200
            redis_server.stop()
            down = time.monotonic()
            for _ in range(3):
                view = dealer.get(a.url + "/api/state").json()
                event = driver.next_event(view)
                if event is None:
                    break
                assert dealer.post(a.url + "/api/events", json=event).status_code == 200
            time.sleep(max(0.0, args.outage - (time.monotonic() - down)))
            redis_server.start()
            back = time.perf_counter()
            key = fingerprint(spectator_state(a))
            recoveries.append(max(s.wait_for(key, 120) for s in remote) - back)
            # finish the hand so that the next outage starts clean
            while event := driver.next_event(dealer.get(a.url + "/api/state").json()):
                assert dealer.post(a.url + "/api/events", json=event).status_code == 200

        n = len(answers_pg)
        print(f"{args.hands} hands, {n} dealer entries; {args.screens} screens per group\n")
        print("| measure | p50 | p99 | max |")
        print("| --- | ---: | ---: | ---: |")
        rows = [
            ("entry answered, PostgreSQL store (card room)", answers_pg),
            ("entry answered, SQLite store (single table)", answers_sqlite),
            (
                f"entry → all {args.screens} screens on kiosk B (table 1 over Redis)",
                arrivals["remote"],
            ),
            (f"entry → all {args.screens} screens on kiosk A (own table)", arrivals["local"]),
            ("entry → the screen of a single SQLite kiosk", single_arrivals["local"]),
        ]
        for label, values in rows:
            print(
                f"| {label} | {ms(values, 0.5)} ms | {ms(values, 0.99)} ms | "
                f"{max(values) * 1000:.1f} ms |"
            )
        print()
        print(
            f"Redis down {args.outage:.0f} s ({args.outages} times), dealer going on: screens on "
            f"kiosk B up to date {statistics.median(recoveries):.1f} s (median; "
            f"{min(recoveries):.1f}-{max(recoveries):.1f} s) after Redis was back."
        )
        return 0
    finally:
        for screen in screens:
            screen.client.disconnect()
        for kiosk in kiosks:
            kiosk.stop()
        if redis_server is not None:
            redis_server.close()
        postgres.stop()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
