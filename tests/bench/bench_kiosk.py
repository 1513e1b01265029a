"""Kiosk benchmark: 20 spectator screens over loopback, time from a dealer action to every screen.

Starts the real server (``stud-kiosk serve``: gunicorn, one gevent worker, simple-websocket) on a
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


def _screens(url: str, first: int, count: int, out: Any, stop: Any) -> None:
    """A process holding ``count`` spectator clients; reports (client, version, time) arrivals."""
    clients = []
    for key in range(first, first + count):
        client = socketio.Client(reconnection=False)
        client.on("state", lambda state, key=key: out.put(
            (key, int(state["version"]), time.monotonic())))
        client.connect(url, auth={"role": "spectator", "lang": "it"}, transports=["websocket"])
        clients.append(client)
    out.put(("ready", count, 0.0))
    stop.wait()
    for client in clients:
        client.disconnect()


class ScreenProcesses:
    """Spectators spread over a few processes, as TVs are separate machines: one process's
    interpreter lock does not serialise every screen's decoding."""

    def __init__(self, url: str, total: int, processes: int) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self.out = ctx.Queue()
        self.stop = ctx.Event()
        self.total = total
        self.arrivals: dict[int, dict[int, float]] = {}
        sizes = [total // processes + (1 if i < total % processes else 0) for i in range(processes)]
        self.procs = []
        first = 0
        for size in sizes:
            proc = ctx.Process(target=_screens, args=(url, first, size, self.out, self.stop))
            proc.start()
            self.procs.append(proc)
            first += size
        ready = 0
        while ready < total:
            key, count, _ = self.out.get(timeout=60)
            if key == "ready":
                ready += count

    def wait_for(self, version: int, timeout: float = 10.0) -> list[float]:
        deadline = time.monotonic() + timeout
        while len(self.arrivals.get(version, {})) < self.total:
            key, got, at = self.out.get(timeout=max(0.01, deadline - time.monotonic()))
            self.arrivals.setdefault(got, {}).setdefault(key, at)
        return list(self.arrivals[version].values())

    def close(self) -> None:
        self.stop.set()
        for proc in self.procs:
            proc.join(10)


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
    parser.add_argument("--processes", type=int, default=4,
                        help="processes the spectator clients are spread over (default 4)")
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
            screens = ScreenProcesses(server.url, args.spectators, args.processes)
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
                    sent = time.monotonic()
                    ack = dealer.call("act", event, timeout=10)
                    assert ack["ok"], ack
                    arrivals = [at - sent for at in screens.wait_for(version)]
                    each.extend(arrivals)
                    to_all.append(max(arrivals))
            stop.set()
            sampler.join()
            screens.close()
            dealer.disconnect()
        finally:
            stop.set()
            server.stop()

    ms = 1000.0
    submit, view = in_process(3)
    print(f"in process: submit (engine + durable commit) p50 {percentile(submit, 50) * ms:.1f} ms,"
          f" p99 {percentile(submit, 99) * ms:.1f} ms; one spectator view p50 "
          f"{percentile(view, 50) * ms:.2f} ms")
    print(f"spectators: {args.spectators} in {args.processes} processes, "
          f"dealer entries: {len(to_all)} ({args.hands} hands)")
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
