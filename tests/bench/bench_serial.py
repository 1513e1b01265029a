"""Serial devices: from a line on the wire to its answer, over a real PTY and real pyserial.

    .venv/bin/python -m tests.bench serial

- ``manager``: a ``CARD`` line to its ``ACK`` through :class:`DeviceManager` with a listener that
  takes everything (the hardware layer alone);
- ``kiosk``: a ``CARD`` line to its ``ACK`` through the kiosk: the engine checks it, the SQLite
  store commits it, the display gets the new state;
- ``noise``: bad lines answered ``NAK`` per second;
- ``replug``: from a port coming back to the kiosk talking on it again (retry every 0.5 s).
"""

from __future__ import annotations

import copy
import statistics
import tempfile
import threading
import time
from pathlib import Path

from engine.cards import DECK, Card
from hardware.serial import DeviceListener, DeviceManager
from hardware.serial.virtual import VirtualPort


class TakeAll(DeviceListener):
    def on_card(self, seat: int, card: Card, up: bool | None, port: str) -> None:
        pass


def reply(port: VirtualPort, line: str) -> str:
    port.send(line)
    while True:
        (last,) = port.expect("*", timeout=10)[-1:]
        if last.startswith(("ACK", "NAK")):
            return last


def figures(name: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (
        f"| {name} | {len(ms)} | {statistics.median(ms):.2f} | {p99:.2f} | {ms[-1]:.2f} |"
    )


def bench_manager(folder: Path, count: int = 2000) -> list[float]:
    port = VirtualPort(folder / "ttyM")
    manager = DeviceManager([port.path], TakeAll(), heartbeat=0, repeat_window=0)
    manager.start()
    try:
        port.expect("PING")
        samples = []
        for i in range(count):
            line = f"CARD {1 + i % 8} {DECK[i % 52]}"
            start = time.perf_counter()
            assert reply(port, line) == "ACK"
            samples.append(time.perf_counter() - start)
        return samples
    finally:
        manager.stop()
        port.close()


def bench_kiosk(folder: Path, hands: int = 30) -> list[float]:
    from kiosk.devices import TableDevices
    from kiosk.service import TableService
    from kiosk.store import Store
    from tests.kiosk import driver

    store = Store(f"sqlite:///{folder / 'bench.sqlite3'}")
    table = TableService(store)
    table.configure(copy.deepcopy(driver.SETUP))
    reader = VirtualPort(folder / "ttyK")
    display = VirtualPort(folder / "ttyD")
    devices = TableDevices(
        table, [reader.path, f"display={display.path}"], heartbeat=0, retry_interval=0.05
    )
    devices.start()
    samples = []
    try:
        reader.expect("PING")
        display.expect("PING")
        for h in range(hands):
            table.start_hand()
            cards = [DECK[(h * 9 + i) % 52] for i in range(9)]
            for i, card in enumerate(cards):
                seat = 1 + i % 3
                start = time.perf_counter()
                assert reply(reader, f"CARD {seat} {card}") == "ACK"
                samples.append(time.perf_counter() - start)
                display.read_lines(0)
            table.misdeal()
            display.read_lines(0)
        return samples
    finally:
        devices.stop()
        reader.close()
        display.close()
        store.close()


def bench_noise(folder: Path, count: int = 5000) -> float:
    port = VirtualPort(folder / "ttyN")
    manager = DeviceManager([port.path], TakeAll(), heartbeat=0)
    manager.start()
    try:
        port.expect("PING")
        naks = 0

        def collect() -> None:  # the device reads its answers while it sends
            nonlocal naks
            deadline = time.monotonic() + 60
            while naks < count and time.monotonic() < deadline:
                naks += sum(1 for x in port.read_lines(0.05) if x.startswith("NAK"))

        reader = threading.Thread(target=collect)
        start = time.perf_counter()
        reader.start()
        for i in range(count):
            port.write(b"\xff\xfe noise %d\n" % i)
        reader.join()
        elapsed = time.perf_counter() - start
        assert naks == count, naks
        return count / elapsed
    finally:
        manager.stop()
        port.close()


def bench_replug(folder: Path, times: int = 10) -> list[float]:
    port = VirtualPort(folder / "ttyR")
    manager = DeviceManager([port.path], TakeAll(), heartbeat=0, retry_interval=0.5)
    manager.start()
    samples = []
    try:
        port.expect("PING")
        device = manager.device(port.path)
        for _ in range(times):
            port.unplug()
            while device.connected:
                time.sleep(0.005)
            start = time.perf_counter()
            port.replug()
            port.expect("PING", timeout=5)
            samples.append(time.perf_counter() - start)
        return samples
    finally:
        manager.stop()
        port.close()


def main() -> None:
    import logging

    logging.basicConfig(level=logging.ERROR)  # the noise bench makes thousands of bad lines
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print("| round trip | reads | median ms | p99 ms | max ms |")
        print("| --- | --- | --- | --- | --- |")
        print(figures("CARD → ACK, hardware layer", bench_manager(folder)))
        kiosk = bench_kiosk(folder)
        print(figures("CARD → ACK through the kiosk (engine, SQLite, display)", kiosk))
        print(figures("port back → kiosk talking (retry 0.5 s)", bench_replug(folder)))
        print()
        print(f"bad lines answered NAK: {bench_noise(folder):,.0f} per second")


if __name__ == "__main__":
    main()
