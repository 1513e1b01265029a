"""Crowd benchmark: the dealer's entries while a crowd of spectator screens hangs on the server.

Starts the real server (``stud-kiosk serve``) on a free loopback port, opens ``--open`` spectator
connections (most over WebSocket, some long polling) that stay, and makes ``--churn`` more connect
and disconnect every second, each staying a second. Meanwhile a dealer plays scripted seven-card
stud hi/lo hands over its own Socket.IO connection and, between entries, loads its pages and opens
new dealer connections, as a dealer's screen does when it is reloaded. It measures the time each
of these takes, and samples the server's resident memory (every process of it) every 100 ms.

    .venv/bin/python -m tests.bench crowd [--open 500] [--churn 100] [--seconds 60]

Targets: the dealer's entries answered within 200 ms at the 99th percentile; the server under
250 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests
import socketio

from tests.bench.bench_kiosk import rss_kib
from tests.conftest import LiveKiosk
from tests.kiosk import driver

#: share of the open spectators that use long polling rather than a WebSocket
POLLING_SHARE = 0.1
#: loopback addresses the crowd connects from, standing for as many machines of the LAN (the
#: server holds at most 64 connections from one address; the dealer is on 127.0.0.1)
CROWD_ADDRESSES = [f"127.0.0.{n}" for n in range(2, 102)]
#: the crowd's processes run in a session of their own at this niceness: the screens are other
#: machines, they give way to the server, yet take the CPU the crowd needs on a shared machine
CROWD_NICE = -5
#: the server runs at this niceness (when the benchmark may raise it: as root), so that other
#: work on a shared development machine weighs on it as little as on a kiosk of its own
SERVER_NICE = -10


def _tree(pid: int) -> list[int]:
    """A process and every process under it (the server's master, worker, camera readers)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += [child for child, parent in parents.items() if parent == current]
    return found


def tree_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) spent so far by a process and the processes under it."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for each in _tree(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


async def _crowd(url: str, hold: int, churn: float, seconds: float, seed: int,
                 addresses: list[str], out: Any) -> None:
    """``hold`` spectators that stay, and ``churn`` a second that come and go, for ``seconds``,
    spread over ``addresses`` (other machines of the LAN, as the server sees them)."""
    import aiohttp

    rng = random.Random(seed)
    # one HTTP session per address, with no limit on its connections
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(
        limit=0, local_addr=(address, 0))) for address in addresses]
    counts = {"connected": 0, "refused": 0, "failed": 0, "states": 0}

    async def one(stay: float, polling: bool) -> None:
        client = socketio.AsyncClient(reconnection=False,
                                      http_session=sessions[rng.randrange(len(sessions))])

        async def _state(_state: Any) -> None:
            counts["states"] += 1

        client.on("state", _state)

        try:
            await client.connect(url, auth={"role": "spectator", "lang": rng.choice(["it", "en"])},
                                 transports=["polling"] if polling else ["websocket"],
                                 wait_timeout=20)
        except socketio.exceptions.ConnectionError:
            counts["failed"] += 1
            return
        counts["connected"] += 1
        try:
            await asyncio.sleep(stay)
        finally:
            await client.disconnect()

    staying = [asyncio.create_task(one(seconds + 5, rng.random() < POLLING_SHARE))
               for _ in range(hold)]
    # let the crowd gather before anything is measured
    for _ in range(200):
        if counts["connected"] + counts["failed"] >= hold:
            break
        await asyncio.sleep(0.1)
    out.put(("ready", dict(counts)))
    passing: list[asyncio.Task[None]] = []
    started = time.monotonic()
    interval = 1.0 / churn if churn > 0 else seconds
    tick = started
    while time.monotonic() - started < seconds:
        passing.append(asyncio.create_task(one(1.0, rng.random() < POLLING_SHARE)))
        tick += interval
        await asyncio.sleep(max(0.0, tick - time.monotonic()))
    out.put(("done", dict(counts)))
    for task in staying + passing:
        task.cancel()
    await asyncio.gather(*staying, *passing, return_exceptions=True)
    for session in sessions:
        await session.close()


def _own_session(nice: int) -> int:
    """Run this process in a session of its own at ``nice`` (where the kernel shares the CPU
    between sessions first, autogroup, their share too); the niceness it has (0 unless root)."""
    with contextlib.suppress(OSError):
        os.setsid()
    try:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    except PermissionError:
        return 0
    with contextlib.suppress(OSError):
        Path("/proc/self/autogroup").write_text(str(nice))
    return nice


def crowd_process(url: str, hold: int, churn: float, seconds: float, seed: int,
                  addresses: list[str], out: Any) -> None:
    import logging

    _own_session(CROWD_NICE)
    # a screen dropped mid-poll as the run ends is no news
    for name in ("engineio.client", "socketio.client", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    asyncio.run(_crowd(url, hold, churn, seconds, seed, addresses, out))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


#: seconds the dealer waits for any answer before counting it as not answered
DEALER_TIMEOUT = 10.0


def play(server: LiveKiosk, http: requests.Session, until: float, timings: dict[str, list[float]],
         errors: list[str]) -> None:
    """The dealer: hands entry by entry over its socket; after each entry a state read over HTTP,
    every 5 entries a page load on a new connection, every 25 a new dealer connection. A call
    not answered within ``DEALER_TIMEOUT`` counts as that long, and as an error."""
    cookie = server.cookie_header(http)

    def timed(name: str, call: Any) -> Any:
        started = time.monotonic()
        try:
            return call()
        except Exception as exc:
            errors.append(f"{name}: {type(exc).__name__}: {exc}")
            return None
        finally:
            timings[name].append(time.monotonic() - started)

    def dealer_socket() -> socketio.Client:
        client = socketio.Client(reconnection=False)
        client.connect(server.url, auth={"role": "dealer", "lang": "en"},
                       headers={"Cookie": cookie}, transports=["websocket"],
                       wait_timeout=DEALER_TIMEOUT)
        return client

    def get(path: str, session: Any) -> None:
        try:
            answer = session.get(server.url + path, headers={"Cookie": cookie},
                                 timeout=DEALER_TIMEOUT)
        except requests.ConnectionError:
            # a kept-alive connection the server closed as it was reused: a browser asks again
            answer = session.get(server.url + path, headers={"Cookie": cookie},
                                 timeout=DEALER_TIMEOUT)
        answer.raise_for_status()

    dealer = timed("new dealer socket", dealer_socket)
    if dealer is None:
        return
    entries = 0
    try:
        while time.monotonic() < until and len(errors) < 20:
            # every hand from the same stacks: the script's hand is played as written
            http.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP),
                     timeout=DEALER_TIMEOUT).raise_for_status()
            ack = dealer.call("start_hand", None, timeout=DEALER_TIMEOUT)
            if not ack["ok"]:
                errors.append(f"start_hand: {ack}")
                return
            while time.monotonic() < until and len(errors) < 20:
                view = timed("sync", lambda: dealer.call("sync", None, timeout=DEALER_TIMEOUT))
                if view is None:
                    return
                event = driver.next_event(view)
                if event is None:
                    break
                ack = timed("entry", lambda event=event: dealer.call(
                    "act", event, timeout=DEALER_TIMEOUT))
                if ack is not None and not ack["ok"]:
                    errors.append(f"act {event}: {ack}")
                    return
                entries += 1
                timed("GET /api/state", lambda: get("/api/state", http))
                if entries % 5 == 0:
                    timed("GET /dealer (new connection)", lambda: get("/dealer", requests))
                if entries % 25 == 0:
                    other = timed("new dealer socket", dealer_socket)
                    if other is not None:
                        other.disconnect()
    finally:
        dealer.disconnect()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--open", type=int, default=500, help="spectators that stay (500)")
    parser.add_argument("--churn", type=float, default=100,
                        help="spectators connecting and disconnecting each second (100)")
    parser.add_argument("--seconds", type=float, default=60, help="length of the run (60)")
    parser.add_argument("--processes", type=int, default=2,
                        help="processes the spectators are spread over (2)")
    args = parser.parse_args(argv)

    ctx = multiprocessing.get_context("spawn")
    _own_session(SERVER_NICE)  # the dealer's client, as the dealer's screen on the kiosk
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveKiosk(Path(tmp) / "instance").start()
        assert server.process is not None
        try:  # the server's process group (master and worker)
            os.setpriority(os.PRIO_PGRP, server.process.pid, SERVER_NICE)
            server_nice = SERVER_NICE
        except PermissionError:
            server_nice = 0
        # where the kernel shares the CPU between sessions first (autogroup), the server's
        # session too: it runs in a session of its own
        with contextlib.suppress(OSError):
            Path(f"/proc/{server.process.pid}/autogroup").write_text(str(server_nice))
        samples: list[int] = []
        stop = threading.Event()

        phases: dict[str, int] = {}

        def sample() -> None:
            # the server's processes are looked up every 5 s, their memory read every 0.1 s: a
            # look-up reads every process of the machine, and the dealer's client shares this
            # process's interpreter
            assert server.process is not None
            pids: list[int] = []
            found_at = 0.0
            while not stop.is_set():
                if time.monotonic() - found_at > 5:
                    pids, found_at = _tree(server.process.pid), time.monotonic()
                samples.append(sum(rss_kib(pid) for pid in pids))
                time.sleep(0.1)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        out = ctx.Queue()
        crowd: list[Any] = []
        timings: dict[str, list[float]] = {
            "entry": [], "sync": [], "GET /api/state": [], "GET /dealer (new connection)": [],
            "new dealer socket": [],
        }
        errors: list[str] = []
        reports: list[tuple[str, dict[str, int]]] = []
        try:
            http = server.dealer_session()
            http.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP),
                     timeout=30).raise_for_status()
            for index in range(args.processes):
                share = args.open // args.processes + (index < args.open % args.processes)
                addresses = CROWD_ADDRESSES[index::args.processes]
                proc = ctx.Process(target=crowd_process, args=(
                    server.url, share, args.churn / args.processes, args.seconds, index,
                    addresses, out))
                proc.start()
                crowd.append(proc)
            for _ in crowd:
                reports.append(out.get(timeout=120))
            phases["played from sample"] = len(samples)
            gathered = time.monotonic()
            assert server.process is not None
            cpu_before = tree_cpu_seconds(server.process.pid)
            play(server, http, gathered + args.seconds, timings, errors)
            played = time.monotonic() - gathered
            phases["played to sample"] = len(samples)
            cpu_share = (tree_cpu_seconds(server.process.pid) - cpu_before) / played
            for _ in crowd:
                reports.append(out.get(timeout=120))
        finally:
            for proc in crowd:
                proc.join(30)
                if proc.is_alive():
                    proc.kill()
            stop.set()
            sampler.join()
            server.stop()
            if errors:
                print("the server's log, last lines:")
                print("\n".join(server.log.read_text(errors="replace").splitlines()[-30:]))

    ms = 1000.0
    ready = [r for kind, r in reports if kind == "ready"]
    done = [r for kind, r in reports if kind == "done"]
    print(f"crowd: {args.open} staying ({POLLING_SHARE:.0%} long polling), {args.churn:g} "
          f"coming and going a second, {args.seconds:g} s, {args.processes} processes "
          f"(niceness {CROWD_NICE}; the server's and the dealer's {server_nice})")
    print(f"  gathered: {sum(r['connected'] for r in ready)} connected, "
          f"{sum(r['failed'] for r in ready)} failed; by the end: "
          f"{sum(r['connected'] for r in done)} connections, {sum(r['failed'] for r in done)} "
          f"failed, {sum(r['states'] for r in done)} states received")
    print("| dealer | count | p50 ms | p99 ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, values in timings.items():
        if values:
            print(f"| {name} | {len(values)} | {percentile(values, 50) * ms:.1f} | "
                  f"{percentile(values, 99) * ms:.1f} | {max(values) * ms:.1f} |")
        else:
            print(f"| {name} | 0 | | | |")
    if samples:
        during = samples[phases.get("played from sample", 0):phases.get("played to sample")]
        print(f"server resident memory: max {max(samples) / 1024:.1f} MB (while the dealer "
              f"played: max {max(during or samples) / 1024:.1f} MB, median "
              f"{statistics.median(during or samples) / 1024:.1f} MB)")
    print(f"server CPU while the dealer played: {cpu_share:.0%} of one core")
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(load)} (1, 5, 15 min)")
    for error in errors:
        print("error:", error)
    entries = timings["entry"]
    ok = bool(entries) and not errors and percentile(entries, 99) < 0.200 \
        and bool(samples) and max(samples) / 1024 < 250
    print("targets (entries p99 < 200 ms, memory < 250 MB):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
