"""Kiosk benchmark: 20 spectator screens over loopback, time from a dealer action to every screen.

Starts the real server (``stud-kiosk serve``: gunicorn, one gthread worker, simple-websocket) on a
free loopback port, connects 20 python-socketio spectator clients (WebSocket) and one dealer
client, and plays scripted seven-card stud hi/lo hands. For each dealer entry it measures the time
from sending it to the moment the last of the 20 spectators has the new state, and samples the
server's resident memory (master + worker) every 50 ms.

    .venv/bin/python -m tests.bench kiosk [--hands 8] [--spectators 20]

Targets: p99 under 50 ms to every spectator; resident memory under 150 MB.
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import socketio

from tests.conftest import LiveKiosk
from tests.kiosk import driver


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Spectator:
    def __init__(self, url: str) -> None:
        self.arrivals: dict[int, float] = {}
        self.cond = threading.Condition()
        self.client = socketio.Client(reconnection=False)
        self.client.on("state", self._state)
        self.client.connect(url, auth={"role": "spectator", "lang": "it"},
                            transports=["websocket"])

    def _state(self, state: dict[str, Any]) -> None:
        now = time.perf_counter()
        with self.cond:
            self.arrivals.setdefault(int(state["version"]), now)
            self.cond.notify_all()

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: version in self.arrivals, timeout):
                raise TimeoutError(f"a spectator never got version {version}")
            return self.arrivals[version]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def in_process(hands: int) -> tuple[list[float], list[float]]:
    """Per entry, in this process: ``TableService.submit`` (engine check + SQLite commit with
    ``synchronous=FULL``) and presenting one view."""
    from kiosk.service import TableService
    from kiosk.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        table = TableService(Store(f"sqlite:///{tmp}/bench.sqlite3"))
        table.configure(copy.deepcopy(driver.SETUP))
        submit: list[float] = []
        view: list[float] = []
        for _ in range(hands):
            table.start_hand()
            while (event := driver.next_event(table.view("dealer", "en"))) is not None:
                started = time.perf_counter()
                table.submit(event, source="bench")
                submitted = time.perf_counter()
                table.view("spectator", "it")
                view.append(time.perf_counter() - submitted)
                submit.append(submitted - started)
        table.store.close()
    return submit, view


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--spectators", type=int, default=20)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        server = LiveKiosk(Path(tmp) / "instance").start()
        samples: list[int] = []
        stop = threading.Event()

        def sample() -> None:
            assert server.process is not None
            pids = [server.process.pid, *server.worker_pids()]
            while not stop.is_set():
                samples.append(sum(rss_kib(p) for p in pids))
                time.sleep(0.05)

        try:
            http = server.dealer_session()
            http.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP)).raise_for_status()
            dealer = socketio.Client(reconnection=False)
            dealer.connect(server.url, auth={"role": "dealer", "lang": "en"},
                           headers={"Cookie": server.cookie_header(http)},
                           transports=["websocket"])
            spectators = [Spectator(server.url) for _ in range(args.spectators)]
            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            to_all: list[float] = []
            each: list[float] = []
            for _ in range(args.hands):
                for name, payload in [("start_hand", None)]:
                    assert dealer.call(name, payload, timeout=10)["ok"]
                while True:
                    view = dealer.call("sync", None, timeout=10)
                    event = driver.next_event(view)
                    if event is None:
                        break
                    version = int(view["version"]) + 1
                    sent = time.perf_counter()
                    ack = dealer.call("act", event, timeout=10)
                    assert ack["ok"], ack
                    arrivals = [s.wait_for(version) - sent for s in spectators]
                    each.extend(arrivals)
                    to_all.append(max(arrivals))
            stop.set()
            sampler.join()
            for s in spectators:
                s.client.disconnect()
            dealer.disconnect()
        finally:
            stop.set()
            server.stop()

    ms = 1000.0
    submit, view = in_process(3)
    print(f"in process: submit (engine + durable commit) p50 {percentile(submit, 50) * ms:.1f} ms,"
          f" p99 {percentile(submit, 99) * ms:.1f} ms; one spectator view p50 "
          f"{percentile(view, 50) * ms:.2f} ms")
    print(f"spectators: {args.spectators}, dealer entries: {len(to_all)} ({args.hands} hands)")
    print(f"to every spectator: p50 {percentile(to_all, 50) * ms:.1f} ms, "
          f"p99 {percentile(to_all, 99) * ms:.1f} ms, max {max(to_all) * ms:.1f} ms")
    print(f"to one spectator:   p50 {percentile(each, 50) * ms:.1f} ms, "
          f"p99 {percentile(each, 99) * ms:.1f} ms, mean {statistics.mean(each) * ms:.1f} ms")
    print(f"server resident memory (master + worker): max {max(samples) / 1024:.1f} MB, "
          f"median {statistics.median(samples) / 1024:.1f} MB")
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(load)} (1, 5, 15 min)")
    ok = percentile(to_all, 99) < 0.050 and max(samples) / 1024 < 150
    print("targets (p99 < 50 ms, memory < 150 MB):", "met" if ok else "NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
