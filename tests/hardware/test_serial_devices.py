"""Serial devices over real pyserial on pseudo-terminals: readers, buttons, displays, unplugging."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.cards import Card
from hardware.serial import (
    REGISTRATION_ORDER,
    DeviceManager,
    DisplayState,
    PortInfo,
    TagMap,
    discover_ports,
    parse_device_line,
)
from hardware.serial.protocol import ProtocolError
from hardware.serial.virtual import VirtualPort
from tests.helpers.devices import Table
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.timeout(60)


@dataclass
class Rig:
    table: Table
    manager: DeviceManager
    reader: VirtualPort
    buttons: VirtualPort
    display: VirtualPort


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    reader = VirtualPort(tmp_path / "ttyREADER")
    buttons = VirtualPort(tmp_path / "ttyBUTTONS")
    display = VirtualPort(tmp_path / "ttyDISPLAY")
    table = Table()
    manager = DeviceManager(
        [reader.path, buttons.path, display.path],
        table,
        tag_map_path=tmp_path / "tags.json",
        retry_interval=0.05,
        heartbeat=0,
        repeat_window=30,
        report_interval=600,
    )
    manager.start()
    try:
        for port in (reader, buttons, display):
            port.expect("PING")  # the kiosk has the port open
        reader.send("HELLO reader 1 seats-1-4")
        buttons.send("HELLO buttons 1")
        display.send("HELLO display 1")
        reader.expect("ACK")
        buttons.expect("ACK")
        display.expect("TEXT")
        yield Rig(table, manager, reader, buttons, display)
    finally:
        manager.stop()
        for port in (reader, buttons, display):
            port.close()


def test_hello_is_acknowledged_and_shown_in_the_status(rig: Rig) -> None:
    devices = rig.manager.snapshot()["devices"]
    assert [d["state"] for d in devices] == ["connected"] * 3
    assert [d["kinds"] for d in devices] == [["reader"], ["buttons"], ["display"]]
    assert devices[0]["name"] == "seats-1-4" and devices[0]["version"] == 1


def test_reader_and_buttons_drive_a_sequence_through_the_listener(rig: Rig) -> None:
    for line in ("CARD 1 2c down", "CARD 2 9d down", "CARD 1 Kh up", "CARD 2 3s up"):
        rig.reader.send(line)
        assert rig.reader.expect("*")[-1] == "ACK"
    rig.buttons.send("BTN BRINGIN")
    assert rig.buttons.expect("*") == ["ACK"]
    rig.buttons.send("BTN RAISE 40")
    nak = rig.buttons.expect("*")
    assert nak[0].startswith("NAK refused RAISE is not legal now")
    rig.buttons.send("btn call")
    assert rig.buttons.expect("*") == ["ACK"]
    rig.reader.send("CARD 1 Kh up")  # a different read of a card already dealt... at the same seat
    assert rig.reader.expect("*") == ["ACK"]  # ... within the window: a repeat, entered once
    rig.reader.send("CARD 3 Kh up")  # the same card at another seat: the table refuses it
    assert rig.reader.expect("*")[0].startswith("NAK refused Kh is already in the hand")
    rig.reader.send("CARD 5 Qc")
    assert rig.reader.expect("*") == ["NAK seat seat 5 is empty"]
    assert rig.table.cards == [
        (1, Card.parse("2c"), False),
        (2, Card.parse("9d"), False),
        (1, Card.parse("Kh"), True),
        (2, Card.parse("3s"), True),
    ]
    assert rig.table.buttons == [("BRINGIN", None), ("CALL", None)]
    refusals = [n for n in rig.table.notices if n.key == "serial.notice.refused"]
    assert len(refusals) == 3
    assert "rifiutato" in refusals[0].message("it") and "refused" in refusals[0].message("en")


def test_repeated_reads_are_entered_once_until_undone(rig: Rig) -> None:
    for _ in range(10):
        rig.reader.send("CARD 1 Ah")
    assert rig.reader.expect("*", timeout=5) == ["ACK"]
    wait_until(lambda: len(rig.reader.read_lines(0.1)) == 0)
    assert rig.table.cards == [(1, Card.parse("Ah"), None)]
    rig.buttons.send("BTN UNDO")
    assert rig.buttons.expect("*") == ["ACK"]
    assert rig.table.cards == []
    rig.reader.send("CARD 1 Ah")  # after an undo, the same read is a new card
    assert rig.reader.expect("*") == ["ACK"]
    assert rig.table.cards == [(1, Card.parse("Ah"), None)]


def test_the_display_receives_pot_turn_text_and_lights(rig: Rig) -> None:
    rig.manager.show(DisplayState(pot=15, turn=2, text="Bring-in: seat 2", leds=((2, "blink"),)))
    assert rig.display.expect("LED 2 blink") == [
        "POT 15",
        "TURN 2",
        "TEXT Bring-in: seat 2",
        "LED 2 blink",
    ]
    rig.manager.show(
        DisplayState(pot=45, turn=3, text="Bring-in: seat 2", leds=((2, "off"), (3, "blink")))
    )
    assert rig.display.expect("LED 3 blink") == ["POT 45", "TURN 3", "LED 2 off", "LED 3 blink"]
    # inputs are not displays: they never get display lines
    assert rig.reader.read_lines(0.2) == [] and rig.buttons.read_lines(0) == []


def test_unplug_and_replug_mid_hand(rig: Rig) -> None:
    rig.reader.send("CARD 1 As")
    assert rig.reader.expect("*") == ["ACK"]
    rig.manager.show(DisplayState(pot=10, turn=1))
    rig.display.expect("TURN 1")

    rig.reader.unplug()
    rig.display.unplug()
    wait_until(
        lambda: (
            [d["state"] for d in rig.manager.snapshot()["devices"]]
            == ["disconnected", "connected", "disconnected"]
        )
    )
    assert any(n.key == "serial.notice.disconnected" for n in rig.table.notices)
    # the hand goes on from the buttons while the reader is away
    rig.buttons.send("BTN FOLD")
    assert rig.buttons.expect("*") == ["ACK"]
    rig.manager.show(DisplayState(pot=20, turn=2))  # no display connected: nothing breaks

    rig.reader.replug()
    rig.display.replug()
    rig.reader.expect("PING")
    rig.display.expect("PING")
    rig.display.send("HELLO display 1")  # a board resets when its port opens and says HELLO again
    assert rig.display.expect("TEXT") == ["ACK", "POT 20", "TURN 2", "TEXT"]
    rig.reader.send("CARD 2 Kd")
    assert rig.reader.expect("*") == ["ACK"]
    assert rig.table.cards == [(1, Card.parse("As"), None), (2, Card.parse("Kd"), None)]
    assert rig.table.buttons == [("FOLD", None)]
    devices = rig.manager.snapshot()["devices"]
    assert [d["state"] for d in devices] == ["connected"] * 3
    assert rig.manager.device(rig.reader.path).connections == 2


def _noise(rng: random.Random) -> list[bytes]:
    """Bad lines, each ending in exactly one \\n: random bytes, wrong-baud noise, overlong lines,
    near misses of real commands."""
    items: list[bytes] = []
    for _ in range(40):
        items.append(
            bytes(rng.choice([b for b in range(256) if b != 10]) for _ in range(rng.randint(0, 90)))
            + b"\n"
        )
    for _ in range(15):  # what 9600 baud looks like at 115200: high bytes, framing junk
        items.append(
            bytes(
                rng.choice([0x80, 0xF8, 0xFE, 0xFF, 0xE0, 0x00, 0x1C])
                for _ in range(rng.randint(1, 30))
            )
            + b"\n"
        )
    for _ in range(10):
        items.append(b"CARD 1 " + b"A" * rng.randint(58, 300) + b"\n")
    items += [
        b"CARD\n",
        b"CARD 1\n",
        b"CARD 99 Ah\n",
        b"CARD 1 Zz\n",
        b"CARD 1 Ah Kd\n",
        b"TAG 1 XYZ\n",
        b"TAG\n",
        b"BTN\n",
        b"BTN SHOVE\n",
        b"BTN FOLD 20\n",
        b"HELLO\n",
        b"HELLO robot 1\n",
        b"POT 100\n",
        b"LED 1 on\n",
        b"TURN 2\n",
        b"FOO BAR\n",
        b"   \n",
        b"\r\n",
        b"CARD 1 A\xa0h\n",
        b"\x00\x00\x00\n",
        b"CARD -1 Ah\n",
        b"BTN BET -5\n",
        b"BTN BET 99999999999\n",
    ]
    for item in items:  # none of them may be a good line by accident
        with pytest.raises(ProtocolError):
            parse_device_line(item)
    rng.shuffle(items)
    return items


def test_fuzz_every_bad_line_gets_a_nak_and_nothing_changes(rig: Rig) -> None:
    rig.reader.send("CARD 1 Qs")
    rig.reader.expect("ACK")
    rig.manager.show(DisplayState(pot=25, turn=1))
    rig.display.expect("TURN 1")
    before = rig.table.state()
    ports = {"reader": rig.reader, "buttons": rig.buttons, "display": rig.display}
    sent: dict[str, int] = {}

    def throw(name: str, seed: int) -> None:
        rng = random.Random(seed)
        items = _noise(rng)
        stream = b"".join(items)
        pos = 0
        while pos < len(stream):  # arbitrary chunks: lines arrive cut anywhere
            size = rng.randint(1, 200)
            ports[name].write(stream[pos : pos + size])
            pos += size
        sent[name] = len(items)

    threads = [threading.Thread(target=throw, args=(name, i)) for i, name in enumerate(ports)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for name, port in ports.items():
        naks: list[str] = []
        deadline = time.monotonic() + 20
        while len(naks) < sent[name] and time.monotonic() < deadline:
            naks += [line for line in port.read_lines(0.2) if line.startswith("NAK")]
        assert len(naks) == sent[name], name
        assert port.read_lines(0.3) == []  # and no more than one each
    assert rig.table.state() == before
    statuses = {d["port"]: d for d in rig.manager.snapshot()["devices"]}
    assert all(statuses[p.path]["state"] == "connected" for p in ports.values())
    assert statuses[rig.reader.path]["bad_lines"] == sent["reader"]
    # the dealer hears of the noise, but not once per bad line
    for port in ports.values():
        reports = [
            n for n in rig.table.notices
            if n.key == "serial.notice.bad_line" and n.params["port"] == port.path
        ]
        assert len(reports) == 1
    # every port still works
    rig.reader.send("CARD 2 Jd")
    assert rig.reader.expect("*") == ["ACK"]
    rig.buttons.send("BTN CALL")
    assert rig.buttons.expect("*") == ["ACK"]
    rig.manager.show(DisplayState(pot=50, turn=2))
    assert rig.display.expect("TURN 2") == ["POT 50", "TURN 2"]


def test_a_fragment_without_its_newline_is_dropped_after_a_pause(tmp_path: Path) -> None:
    port = VirtualPort(tmp_path / "ttyX")
    table = Table()
    manager = DeviceManager([port.path], table, retry_interval=0.05, heartbeat=0, stale_after=0.3)
    manager.start()
    try:
        port.expect("PING")
        port.write(b"\xff\xfe garbage at the wrong speed")
        assert port.expect("NAK*") == ["NAK syntax incomplete line of 29 bytes: lines end with \\n"]
        port.send("CARD 1 Ah")
        assert port.expect("*") == ["ACK"]
    finally:
        manager.stop()
        port.close()


def test_deck_registration_over_the_reader(rig: Rig, tmp_path: Path) -> None:
    rig.manager.start_registration()
    assert rig.display.expect("TEXT*") == ["TEXT Scan As (1/52)"]
    rig.reader.send("CARD 1 Ah")
    assert rig.reader.expect("*") == [
        "NAK busy deck registration in progress: scan tags, not cards"
    ]
    for i in range(len(REGISTRATION_ORDER)):
        rig.reader.send(f"TAG {1 + i % 4} 04{i:06X}")
        # the reader repeats while the card lies on it
        rig.reader.send(f"TAG {1 + i % 4} 04{i:06X}")
        assert rig.reader.expect("*") == ["ACK"]
        assert rig.reader.expect("*") == ["ACK"]
        if i == 2:  # a card registered already is refused, UNDO steps back
            rig.reader.send("TAG 1 04000000")
            assert rig.reader.expect("*")[0].startswith("NAK register tag 04000000 is As already")
            rig.buttons.send("BTN UNDO")
            assert rig.buttons.expect("*") == ["ACK"]
            rig.reader.send(f"TAG 1 04{i:06X}")
            assert rig.reader.expect("*") == ["ACK"]
        if i < 51:
            nxt = REGISTRATION_ORDER[i + 1]
            rig.display.expect(f"TEXT Scan {nxt} ({i + 2}/52)")
    assert rig.display.expect("TEXT Deck registered")[-1] == "TEXT Deck registered"
    stored = json.loads((tmp_path / "tags.json").read_text(encoding="utf-8"))
    assert len(stored["tags"]) == 52 and stored["tags"]["04000000"] == "As"
    assert TagMap.load(tmp_path / "tags.json").card("04000033") == Card.parse("Kc")
    assert rig.manager.snapshot()["tags"] == 52 and rig.manager.snapshot()["registration"] is None
    # tags now deal cards
    rig.reader.send("TAG 3 04000001 up")
    assert rig.reader.expect("*") == ["ACK"]
    rig.reader.send("TAG 3 0badc0de")
    assert rig.reader.expect("*")[0].startswith("NAK tag tag 0BADC0DE unknown")
    assert rig.table.cards == [(3, Card.parse("2s"), True)]
    assert any(n.key == "serial.notice.registered" for n in rig.table.notices)


def test_heartbeat_pings_and_pong_is_never_answered(tmp_path: Path) -> None:
    port = VirtualPort(tmp_path / "ttyH")
    manager = DeviceManager([port.path], Table(), retry_interval=0.05, heartbeat=0.2)
    manager.start()
    try:
        assert port.expect("PING") == ["PING"]  # on connecting
        port.send("PONG")  # this device knows the heartbeat: it gets one every 0.2 s
        assert port.expect("PING") + port.expect("PING") == ["PING", "PING"]
        port.send("PONG")
        port.send("ACK")
        port.send("PING")
        assert port.expect("PONG") == ["PONG"]
        assert "NAK" not in " ".join(port.read_lines(0.3))
    finally:
        manager.stop()
        port.close()


def test_a_device_that_does_not_know_ping_is_not_pestered(tmp_path: Path) -> None:
    port = VirtualPort(tmp_path / "ttyOLD")
    table = Table()
    manager = DeviceManager(
        [port.path], table, retry_interval=0.05, heartbeat=0.1, report_interval=600
    )
    manager.start()
    try:
        assert port.expect("PING") == ["PING"]
        port.send("NAK unknown command PING")
        time.sleep(0.6)
        assert port.read_lines(0) == []  # no more PINGs, and a device's NAK is not answered
        port.send("NAK unknown command")
        port.send("CARD 1 Ah")
        assert port.expect("*") == ["ACK"]
        reports = [n for n in table.notices if n.key == "serial.notice.device_nak"]
        assert len(reports) == 1 and "refused a line" in reports[0].message("en")
    finally:
        manager.stop()
        port.close()


def test_device_faults_and_unsupported_versions_reach_the_dealer(rig: Rig) -> None:
    rig.reader.send("ERR antenna 3 not responding")
    assert rig.reader.expect("*") == ["ACK"]
    rig.buttons.send("HELLO buttons 2")
    assert rig.buttons.expect("*") == ["NAK version protocol 2 unsupported; kiosk speaks 1"]
    rig.buttons.send("BTN FOLD")
    assert rig.buttons.expect("*")[0].startswith("NAK version")
    assert rig.table.buttons == []
    keys = [n.key for n in rig.table.notices]
    assert "serial.notice.device_error" in keys and "serial.notice.version" in keys
    fault = next(n for n in rig.table.notices if n.key == "serial.notice.device_error")
    assert "antenna 3" in fault.message("it") and "guasto" in fault.message("it")


def test_a_missing_port_waits_disconnected_until_it_appears(tmp_path: Path) -> None:
    link = tmp_path / "ttyLATE"
    manager = DeviceManager([str(link)], Table(), retry_interval=0.05, heartbeat=0)
    manager.start()
    try:
        time.sleep(0.2)
        (device,) = manager.snapshot()["devices"]
        assert device["state"] == "disconnected" and "No such file" in device["error"]
        port = VirtualPort(link)
        port.expect("PING")
        port.send("BTN NEXT")
        assert port.expect("*")[0].startswith("NAK refused NEXT is not legal now")
        assert manager.snapshot()["devices"][0]["state"] == "connected"
        port.close()
    finally:
        manager.stop()


def test_discovery_lists_the_system_ports() -> None:
    from serial.tools import list_ports

    found = discover_ports()
    assert all(isinstance(p, PortInfo) for p in found)
    assert sorted(p.device for p in found) == sorted(p.device for p in list_ports.comports())


def test_discovery_names_ports_by_id(tmp_path: Path) -> None:
    from serial.tools import list_ports

    ports = list_ports.comports()
    if not ports:
        pytest.skip("no serial port on this machine to name")
    (tmp_path / "usb-Arduino_Uno-if00").symlink_to(ports[0].device)
    found = {p.device: p for p in discover_ports(tmp_path)}
    assert found[ports[0].device].by_id == str(tmp_path / "usb-Arduino_Uno-if00")


def test_a_device_that_never_reads_keeps_its_input_flowing(tmp_path: Path) -> None:
    """Sloppy firmware prints its reads and never reads the answers: the kiosk's writes to it time
    out and are dropped, the port stays connected and its reads still reach the table."""
    port = VirtualPort(tmp_path / "ttyDEAF")
    table = Table()
    manager = DeviceManager([port.path], table, retry_interval=0.05, heartbeat=0)
    manager.start()
    try:
        port.expect("PING")
        for i in range(4000):  # bad lines: ~50-byte NAKs pile up on the device's side, unread
            port.write(b"CARD 1 Zz %d\n" % i)
        device = manager.device(port.path)
        wait_until(lambda: device.status.bad_lines == 4000, timeout=30)
        assert device.status.dropped_writes > 0 and device.connected
        port.write(b"CARD 2 Qh\n")
        wait_until(lambda: table.cards == [(2, Card.parse("Qh"), None)], timeout=10)
        assert device.connected and device.connections == 1
        # once the device reads again, the answers come back
        while port.read_lines(0.2):
            pass
        time.sleep(2.1)  # the pause after a timed-out write
        port.send("CARD 3 Jc")
        assert port.expect("*", timeout=5) == ["ACK"]
    finally:
        manager.stop()
        port.close()
