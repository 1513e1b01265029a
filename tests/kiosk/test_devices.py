"""Serial devices in the kiosk: a whole hand from a reader and a button panel over real PTYs, the
display following the table, refusals on the dealer screen, unplugging, noise."""

from __future__ import annotations

import copy
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import kiosk.devices
from hardware.serial.virtual import VirtualPort
from kiosk.extensions import socketio
from kiosk.service import TableService
from kiosk.store import Store
from tests.conftest import TEST_PIN
from tests.kiosk import driver

pytestmark = pytest.mark.timeout(90)


@dataclass
class Kiosk:
    app: Any
    table: TableService
    devices: kiosk.devices.TableDevices
    reader: VirtualPort
    buttons: VirtualPort
    display: VirtualPort

    def dealer(self, lang: str = "en") -> Any:
        from kiosk.views.auth import set_pin

        set_pin(self.app.extensions["stud_store"], TEST_PIN)
        client = self.app.test_client()
        with client.session_transaction() as sess:
            sess.update(self.app.extensions["stud_dealer_sessions"].grant())
        return client, socketio.test_client(
            self.app, flask_test_client=client, auth={"role": "dealer", "lang": lang}
        )


@pytest.fixture
def kiosk_with_devices(tmp_path: Path) -> Iterator[Kiosk]:
    from kiosk import create_app

    reader = VirtualPort(tmp_path / "ttyREADER")
    buttons = VirtualPort(tmp_path / "ttyBUTTONS")
    display = VirtualPort(tmp_path / "ttyDISPLAY")
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "DEFAULT_LANG": "en",
            "SERIAL_PORTS": f"{reader.path}, {buttons.path}, display={display.path}",
            "SERIAL_HEARTBEAT": 0,
            "SERIAL_RETRY": 0.05,
        }
    )
    table: TableService = app.extensions["stud_table"]
    devices: kiosk.devices.TableDevices = app.extensions["stud_devices"]
    try:
        for port in (reader, buttons, display):
            port.expect("PING")
        reader.send("HELLO reader 1")
        buttons.send("HELLO buttons 1")
        assert reader.expect("*") == ["ACK"] and buttons.expect("*") == ["ACK"]
        display.expect("TEXT*")  # the display is configured as one: it gets the state at once
        table.configure(copy.deepcopy(driver.SETUP))
        yield Kiosk(app, table, devices, reader, buttons, display)
    finally:
        devices.stop()
        for port in (reader, buttons, display):
            port.close()
        app.extensions["stud_store"].close()


def _reply(port: VirtualPort) -> str:
    """The kiosk's next ACK or NAK on ``port`` (display lines in between are skipped)."""
    while True:
        (line,) = port.expect("*")[-1:]
        if line.startswith(("ACK", "NAK")):
            return line


def answer(port: VirtualPort, line: str) -> str:
    """Send ``line`` from the device; the kiosk's ACK or NAK."""
    port.send(line)
    return _reply(port)


def serial_line(event: dict[str, Any], view: dict[str, Any]) -> tuple[str, str] | None:
    """The device and line that make ``event``; None when only the screen can (an unknown card)."""
    kind = event["type"]
    if kind == "deal":
        if event["card"] is None:
            return None
        return "reader", f"CARD {event['seat']} {event['card']} {'up' if event['up'] else 'down'}"
    if kind == "act":
        name = {"bring_in": "BRINGIN"}.get(event["action"], event["action"].upper())
        amount = f" {event['amount']}" if name in ("BET", "RAISE") else ""
        return "buttons", f"BTN {name}{amount}"
    if kind == "muck":
        return "buttons", "BTN FOLD"
    if kind == "show":
        return "buttons", "BTN CONFIRM"
    raise AssertionError(event)


def play_by_devices(k: Kiosk) -> list[str]:
    """The scripted hand: cards from the reader, actions from the buttons, unknown down cards by
    touch (a reader cannot read a card nobody shows); the display's lines."""
    seen: list[str] = []
    k.buttons.send("BTN NEXT")  # start the hand from the panel
    assert _reply(k.buttons) == "ACK"
    while True:
        view = k.table.view("dealer", "en")
        event = driver.next_event(view)
        if event is None:
            break
        if event["type"] == "show":  # cards shown that were never entered: the reader reads them
            known = {c["card"] for s in view["hand"]["seats"] for c in s["cards"] if c["card"]}
            for card in event["cards"]:
                if card not in known:
                    assert answer(k.reader, f"CARD {event['seat']} {card}") == "ACK"
        step = serial_line(event, view)
        if step is None:
            k.table.submit(event, source="touch")
            continue
        port = k.reader if step[0] == "reader" else k.buttons
        assert answer(port, step[1]) == "ACK", (step, view["hand"]["prompt"])
        seen += k.display.read_lines(0)
    time.sleep(0.2)
    return seen + k.display.read_lines(0.2)


def test_a_whole_hand_from_the_reader_and_the_buttons(
    kiosk_with_devices: Kiosk, tmp_path: Path
) -> None:
    k = kiosk_with_devices
    lines = play_by_devices(k)
    hand = k.table.view("dealer", "en")["hand"]
    assert hand["finished"]
    (pot,) = hand["result"]["pots"]
    assert {(s["half"], s["seat"]) for s in pot["shares"]} == {("high", 3), ("low", 1)}
    sources = _sources(k)
    assert sources.count("serial") > 25 and sources.count("touch") == 3  # Carla's unknown cards

    # the same hand by touch ends the same way
    touch = TableService(Store(f"sqlite:///{tmp_path / 'touch.sqlite3'}"))
    touch.configure(copy.deepcopy(driver.SETUP))
    touch.start_hand()
    while (event := driver.next_event(touch.view("dealer", "en"))) is not None:
        touch.submit(event, source="touch")
    assert touch.hand is not None and k.table.hand is not None
    assert touch.hand.payouts == k.table.hand.payouts
    assert touch.hand.finishing_stacks == k.table.hand.finishing_stacks

    # the display followed: every seat's turn, the pot growing to the whole pot, then 0
    pots = [int(x.split()[1]) for x in lines if x.startswith("POT ")]
    turns = {int(x.split()[1]) for x in lines if x.startswith("TURN ")}
    assert max(pots) == pot["amount"] and pots[-1] == 0
    assert pots == [*sorted(pots[:-1]), 0]
    assert {1, 2, 3} <= turns
    assert "LED 2 off" in lines  # Bruno mucked
    assert any(x.startswith("TEXT ") for x in lines)


def _sources(k: Kiosk) -> list[str]:
    """Where each stored event of the hand came from."""
    from sqlalchemy import select

    from kiosk.store import events_table

    store: Store = k.app.extensions["stud_store"]
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(events_table.c.source).where(events_table.c.hand_id == k.table.hand_id)
        ).all()
    return [str(row[0]) for row in rows]


def test_refusals_are_naks_and_reach_the_dealer_screen(kiosk_with_devices: Kiosk) -> None:
    k = kiosk_with_devices
    _client, dealer_it = k.dealer("it")
    assert answer(k.reader, "CARD 1 As down").startswith("NAK busy No hand is running")
    k.table.start_hand()
    assert answer(k.reader, "CARD 1 As down") == "ACK"
    version = k.table.version
    before = k.table.hand.to_dict() if k.table.hand else None
    nak = answer(k.reader, "CARD 2 As down")
    assert nak.startswith("NAK refused") and "As" in nak
    nak = answer(k.buttons, "BTN CALL")
    assert nak.startswith("NAK refused") and "CALL" in nak
    assert k.table.version == version and k.table.hand is not None
    assert k.table.hand.to_dict() == before
    notices = [m["args"][0] for m in dealer_it.get_received() if m["name"] == "device_notice"]
    messages = [n["message"] for n in notices]
    assert any("rifiutato" in m and "As" in m for m in messages), messages
    assert any("CALL" in m and "distribuisci" in m for m in messages), messages


def test_unplug_mid_hand_keeps_the_hand_and_the_display_catches_up(
    kiosk_with_devices: Kiosk,
) -> None:
    k = kiosk_with_devices
    k.table.start_hand()
    assert answer(k.reader, "CARD 1 As down") == "ACK"
    k.reader.unplug()
    k.display.unplug()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        states = [d["state"] for d in k.devices.snapshot(discover=False)["devices"]]
        if states == ["disconnected", "connected", "disconnected"]:
            break
        time.sleep(0.02)
    assert states == ["disconnected", "connected", "disconnected"]
    k.table.submit({"type": "deal", "seat": 1, "card": "2s", "up": False}, source="touch")
    k.reader.replug()
    k.display.replug()
    k.reader.expect("PING")
    display_lines = k.display.expect("TEXT*")  # configured as a display: the state on connect
    assert "POT 3" in display_lines  # three antes
    assert answer(k.reader, "CARD 1 5h up") == "ACK"
    assert answer(k.reader, "CARD 1 5h up") == "ACK"  # a repeat, entered once
    hand = k.table.hand
    assert hand is not None
    assert [str(s.card) for s in hand.state.seats[0].cards] == ["As", "2s", "5h"]


def test_noise_on_every_port_changes_nothing(kiosk_with_devices: Kiosk) -> None:
    k = kiosk_with_devices
    k.table.start_hand()
    assert answer(k.reader, "CARD 1 As down") == "ACK"
    k.display.read_lines(0.2)
    before = (k.table.version, k.table.hand.to_dict() if k.table.hand else None)
    rng = random.Random(7)
    for port in (k.reader, k.buttons, k.display):
        bad = 0
        for _ in range(60):
            body = bytes(
                rng.choice([b for b in range(256) if b != 10]) for _ in range(rng.randint(0, 120))
            )
            port.write(body + b"\n")
            bad += 1
        for line in (b"CARD 1 As sideways\n", b"BTN SHOVE\n", b"CARD 99 Kd\n", b"TAG 1 XYZ\n"):
            port.write(line)
            bad += 1
        naks = 0
        deadline = time.monotonic() + 10
        while naks < bad and time.monotonic() < deadline:
            naks += sum(1 for x in port.read_lines(0.2) if x.startswith("NAK"))
        assert naks == bad
    assert (k.table.version, k.table.hand.to_dict() if k.table.hand else None) == before
    assert answer(k.reader, "CARD 2 Kd down") == "ACK"


def test_the_dealer_sees_the_devices_and_registers_a_deck_between_hands(
    kiosk_with_devices: Kiosk,
) -> None:
    k = kiosk_with_devices
    stranger = k.app.test_client()
    assert stranger.get("/api/devices").status_code == 403
    client, dealer = k.dealer("en")
    body = client.get("/api/devices").get_json()
    assert [d["state"] for d in body["devices"]] == ["connected"] * 3
    assert [d["kinds"] for d in body["devices"]] == [["reader"], ["buttons"], ["display"]]
    assert "available" in body
    ack = dealer.emit("devices", None, callback=True)
    assert ack["ok"] and len(ack["devices"]) == 3
    page = client.get("/devices")
    assert page.status_code == 200 and b"devices.js" in page.data

    k.table.start_hand()
    refused = dealer.emit("devices_register", "start", callback=True)
    assert refused["ok"] is False and "between hands" in refused["error"]
    k.table.misdeal()
    started = dealer.emit("devices_register", "start", callback=True)
    assert started == {"ok": True, "registration": {"expected": "As", "done": 0, "total": 52}}
    assert "TEXT Scan As (1/52)" in k.display.expect("TEXT Scan As (1/52)")
    assert answer(k.reader, "TAG 1 04A1B2C3") == "ACK"
    k.display.expect("TEXT Scan 2s (2/52)")
    cancelled = dealer.emit("devices_register", "cancel", callback=True)
    assert cancelled == {"ok": True, "registration": None}


def test_simulate_device_plays_a_reader_and_a_display_for_the_kiosk(tmp_path: Path) -> None:
    from kiosk import create_app

    script = tmp_path / "cards.txt"
    script.write_text("# seat card\n1 As down\n1 As down\n2 Kd down\n3 Ah down\n", encoding="utf-8")
    cli = [sys.executable, "-m", "kiosk.cli", "simulate-device"]
    reader = subprocess.Popen(
        [*cli, "reader", "--script", str(script), "--link", str(tmp_path / "ttySIMR")],
        stdout=subprocess.PIPE,
        text=True,
    )
    display = subprocess.Popen(
        [*cli, "display", "--link", str(tmp_path / "ttySIMD")],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert reader.stdout is not None and display.stdout is not None
    for process in (reader, display):
        first = process.stdout.readline() if process.stdout else ""
        assert re.match(r"simulate-device: \w+ on /", first), first
    # a hand is running when the kiosk starts (the reader's script begins once the port is open)
    (tmp_path / "instance").mkdir()
    store = Store(f"sqlite:///{tmp_path / 'instance' / 'stud-kiosk.sqlite3'}")
    before = TableService(store)
    before.configure(copy.deepcopy(driver.SETUP))
    before.start_hand()
    store.close()
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "SERIAL_PORTS": f"{tmp_path / 'ttySIMR'},{tmp_path / 'ttySIMD'}",
            "SERIAL_HEARTBEAT": 0,
            "SERIAL_RETRY": 0.05,
        }
    )
    table: TableService = app.extensions["stud_table"]
    try:
        assert table.hand_running()
        out, _ = reader.communicate(timeout=30)
        assert reader.returncode == 0, out
        replies = [x[2:] for x in out.splitlines() if x.startswith("< ") and x[2:] != "PING"]
        # HELLO, As, As again (a repeat: entered once), Kd, Ah
        assert replies == ["ACK"] * 5, out
    finally:
        app.extensions["stud_devices"].stop()
        display.terminate()
        shown, _ = display.communicate(timeout=10)
        app.extensions["stud_store"].close()
    assert table.hand is not None
    dealt = {s.number: [str(c.card) for c in s.cards] for s in table.hand.state.seats}
    assert dealt[1] == ["As"] and dealt[2] == ["Kd"]
    assert "< POT 3" in shown and "< TURN 0" in shown


def test_what_the_simulator_makes_of_typed_lines() -> None:
    from kiosk.commands.simulate_device import translate_input

    assert translate_input("reader", "3 Ah") == "CARD 3 Ah"
    assert translate_input("reader", " 3 10h up ") == "CARD 3 10h up"
    assert translate_input("reader", "tag 2 04A1B2C3") == "TAG 2 04A1B2C3"
    assert translate_input("buttons", "bring-in") == "BTN BRINGIN"
    assert translate_input("buttons", "raise 40") == "BTN RAISE 40"
    assert translate_input("buttons", "ERR stuck key") == "ERR stuck key"
    assert translate_input("display", "HELLO display 2") == "HELLO display 2"
    assert translate_input("reader", "# a comment") is None
    assert translate_input("reader", "   ") is None


def test_display_texts_fit_a_small_display() -> None:
    from kiosk.devices import display_text

    assert display_text("Deal third street: two down and one up to seats 1, 2, 3") == (
        "Deal third street"
    )
    assert display_text("Seat 1 (Anna) brings in for 2 or completes to 5") == (
        "Seat 1 (Anna) brings in for..."
    )
    assert display_text("Seat 2 (Bruno) to act") == "Seat 2 (Bruno) to act"
    long_word = "x" * 50
    assert len(display_text(long_word)) <= 32


def test_simulate_device_on_a_given_port_through_socat(tmp_path: Path) -> None:
    """``--port``: the simulator on one end of a socat pair, the kiosk's devices on the other."""
    import shutil

    from hardware.serial import DeviceManager
    from tests.helpers.devices import Table
    from tests.helpers.waiting import wait_until

    socat = shutil.which("socat")
    if socat is None:
        pytest.fail("socat is missing: install the Debian package socat (see .ci/run)")
    kiosk_end, device_end = tmp_path / "ttyKIOSK", tmp_path / "ttyDEVICE"
    pair = subprocess.Popen(
        [socat, f"pty,raw,echo=0,link={kiosk_end}", f"pty,raw,echo=0,link={device_end}"],
        stderr=subprocess.DEVNULL,
    )
    table = Table()
    manager = DeviceManager([str(kiosk_end)], table, retry_interval=0.05, heartbeat=0)
    simulator = None
    try:
        wait_until(lambda: kiosk_end.exists() and device_end.exists())
        manager.start()
        wait_until(lambda: manager.device(str(kiosk_end)).connected)
        script = tmp_path / "buttons.txt"
        script.write_text("bring-in\ncall\nraise 40\n", encoding="utf-8")
        # the kiosk has its end open already: the simulator's PING finds it
        simulator = subprocess.Popen(
            [sys.executable, "-m", "kiosk.cli", "simulate-device", "buttons",
             "--port", str(device_end), "--script", str(script), "--wait", "20"],
            stdout=subprocess.PIPE, text=True,
        )
        assert simulator.stdout is not None
        assert "on " + str(device_end) in simulator.stdout.readline()
        out, _ = simulator.communicate(timeout=30)
        assert simulator.returncode == 0, out
        assert table.buttons == [("BRINGIN", None), ("CALL", None)]
        assert "< NAK refused RAISE is not legal now" in out
    finally:
        if simulator is not None and simulator.poll() is None:
            simulator.kill()
        manager.stop()
        pair.terminate()
        pair.wait(timeout=10)


def test_ports_from_the_instance_configuration(tmp_path: Path) -> None:
    from kiosk import create_app

    instance = tmp_path / "instance"
    instance.mkdir()
    port = VirtualPort(tmp_path / "ttyCONF")
    (instance / "serial.json").write_text(
        f'{{"ports": ["{port.path}"], "repeat_window": 5, "tags": "deck-blue.json"}}',
        encoding="utf-8",
    )
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance), "SERIAL_RETRY": 0.05})
    try:
        port.expect("PING")
        devices: kiosk.devices.TableDevices = app.extensions["stud_devices"]
        assert [d["port"] for d in devices.snapshot()["devices"]] == [port.path]
        assert devices.manager.repeats.window == 5
        assert devices.manager.tag_map.path == instance / "deck-blue.json"
    finally:
        app.extensions["stud_devices"].stop()
        app.extensions["stud_store"].close()
        port.close()
    (instance / "serial.json").write_text('{"ports": [', encoding="utf-8")
    with pytest.raises(ValueError, match="not a serial configuration"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(instance)})
