"""The reference firmware's protocol code (hardware/firmware/stud_table/StudProtocol.h), compiled
for this PC and run as a device on a real PTY against the real DeviceManager."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from engine.cards import Card
from hardware.serial import DeviceManager, DisplayState, TagMap
from hardware.serial.virtual import VirtualPort
from tests.helpers.devices import Table
from tests.helpers.waiting import wait_until

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware" / "stud_table"
pytestmark = pytest.mark.timeout(90)


@pytest.fixture(scope="module")
def host_device(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.skip("no C++ compiler (the Debian package g++)")
    binary = tmp_path_factory.mktemp("firmware") / "host_device"
    subprocess.run(
        [compiler, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", "-o", str(binary),
         str(FIRMWARE.parent / "host" / "host_device.cpp")],
        check=True,
    )
    return binary


def test_the_firmware_protocol_code_talks_to_the_kiosk(host_device: Path, tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text(
        "\n".join(
            [
                "card 1 As down",
                "card 1 As down",  # the kiosk takes it once
                "tag 2 04A1B2C3",
                "tag 2 04A1B2C3",  # the firmware does not even send it again
                "btn FOLD",
                "err antenna 3 is not answering; a long text that must be cut to fit one line",
                "raw CARD 99 Zz",
                "card 3 Td up",
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    port = VirtualPort(tmp_path / "ttyUNO")
    table = Table()
    tags = TagMap({"04A1B2C3": Card.parse("Kd")})
    manager = DeviceManager([port.path], table, tag_map=tags, retry_interval=0.05, heartbeat=0)
    manager.start()
    device = None
    try:
        wait_until(lambda: manager.device(port.path).connected)
        device = subprocess.Popen(
            [str(host_device), "reader+buttons+display", "uno", str(script)],
            stdin=port.master, stdout=port.master, stderr=subprocess.PIPE, text=True,
        )
        wait_until(lambda: len(table.cards) == 3, timeout=10)
        assert table.cards == [
            (1, Card.parse("As"), False),
            (2, Card.parse("Kd"), None),
            (3, Card.parse("Td"), True),
        ]
        assert table.buttons == [("FOLD", None)]
        status = manager.snapshot()["devices"][0]
        assert status["kinds"] == ["reader", "buttons", "display"] and status["name"] == "uno"
        assert status["bad_lines"] == 1  # CARD 99 Zz
        (fault,) = [n for n in table.notices if n.key == "serial.notice.device_error"]
        assert fault.params["text"].startswith("antenna 3 is not answering; a long text")
        leds = ((1, "off"), (3, "blink"))
        manager.show(DisplayState(pot=120, turn=3, text="Seat 3 to act", leds=leds))
        time.sleep(0.2)
        manager.show(DisplayState(pot=120, turn=3, text="bye", leds=leds))
        _, log = device.communicate(timeout=10)
        assert device.returncode == 0, log
        assert "STATE pot=120 turn=3 leds=0-b-------" in log
        assert "< TEXT Seat 3 to act" in log
        assert "repeat tag 2 04A1B2C3" in log
        assert "< NAK card 'Zz' is not a card" in log
    finally:
        if device is not None and device.poll() is None:
            device.kill()
            device.wait()
        manager.stop()
        port.close()
