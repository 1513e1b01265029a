"""The table firmware (hardware/firmware/stud_table) built for an Arduino Uno with Debian's
toolchain and run in simavr as the whole board of docs/hardware.md (hardware/firmware/simboard):
RC522 readers with tags on their antennas, the button ladders, the I2C LCD and the seat LEDs, its
serial port on a pseudo-terminal that the real kiosk opens with pyserial."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest
import serial

import kiosk.devices
from engine.cards import Card
from hardware.serial import DisplayState, TagMap
from hardware.serial.protocol import BAUDRATE, Text
from hardware.serial.tags import TAG_MAP_FILE
from kiosk.service import TableService
from tests.kiosk import driver

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"
pytestmark = pytest.mark.timeout(180)

ROOM = 75  # percent of flash and of RAM the firmware may use: the rest is for the user's additions
WAIT = 30.0  # seconds: the simulated board runs no faster than the wall clock, slower when busy


@dataclass(frozen=True)
class Build:
    elf: Path
    flash: tuple[int, int]  # bytes used, bytes there are
    ram: tuple[int, int]


def build_firmware(out: Path, sketch: Path = FIRMWARE) -> Build:
    """``hardware/firmware/build`` into ``out`` (for the sketch folder ``sketch``)."""
    result = subprocess.run(
        [str(sketch / "build"), str(out)], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise AssertionError(f"the firmware build failed:\n{result.stderr}")
    flash = re.search(r"Sketch uses (\d+) bytes .* Maximum is (\d+) bytes", result.stdout)
    ram = re.search(r"Global variables use (\d+) bytes .* Maximum is (\d+) bytes", result.stdout)
    assert flash and ram, result.stdout
    return Build(
        out / "stud_table.ino.elf",
        (int(flash[1]), int(flash[2])),
        (int(ram[1]), int(ram[2])),
    )


@pytest.fixture(scope="session")
def firmware(tmp_path_factory: pytest.TempPathFactory) -> Build:
    if shutil.which("arduino-builder") is None:
        pytest.skip("no Arduino toolchain (Debian packages arduino-builder arduino-core-avr)")
    return build_firmware(tmp_path_factory.mktemp("firmware"))


@pytest.fixture(scope="session")
def simboard(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not Path("/usr/include/simavr/sim_avr.h").exists():
        pytest.skip("no simavr library or C compiler (Debian packages libsimavr-dev gcc)")
    binary = tmp_path_factory.mktemp("simboard") / "simboard"
    sources = [str(FIRMWARE / "simboard" / name) for name in ("simboard.c", "rc522.c", "lcd.c")]
    subprocess.run(
        [compiler, "-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror",
         "-isystem", "/usr/include/simavr", "-o", str(binary), *sources, "-lsimavr", "-lutil"],
        check=True,
    )
    return binary


class Board:
    """The simulated board: its serial port's path, cards on its readers, presses, what it shows."""

    def __init__(self, simboard: Path, elf: Path, log: Path, *options: str) -> None:
        self._log = log.open("w")
        self.process = subprocess.Popen(
            [str(simboard), str(elf), *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True, bufsize=1,
        )
        self.port = ""
        while not self.port:
            line = self._out.readline()
            if not line:
                raise AssertionError(f"simboard ended: {log.read_text()}")
            if line.startswith("pty "):
                self.port = line.split()[1]

    @property
    def _out(self) -> IO[str]:
        assert self.process.stdout is not None
        return self.process.stdout

    def ask(self, command: str) -> str:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        answer = self._out.readline().strip()
        assert not answer.startswith("error"), (command, answer)
        return answer

    def put(self, seat: int, uid: str) -> None:
        self.ask(f"put {seat} {uid}")

    def press(self, button: str, ms: int = 120) -> None:
        self.ask(f"press {button} {ms}")

    def state(self) -> dict[str, Any]:
        return dict(json.loads(self.ask("state")))

    def wait_for(self, wanted: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            state = self.state()
            if wanted(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"the board never showed {what}; it shows {state}")
            time.sleep(0.02)

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.ask("quit")
                self.process.wait(timeout=5)
            except (OSError, AssertionError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self._log.close()


def shown(display: DisplayState, seats: int = 4) -> tuple[list[str], list[str]]:
    """What the board's LCD rows and seat LEDs show for ``display``, as docs/hardware.md says."""
    top = f"Pot {display.pot:<8} >{display.turn:2}" if display.turn else f"Pot {display.pot}"
    text = Text.fitted(display.text).message
    told = dict(display.leds)
    leds = [told.get(seat, "off") for seat in range(1, seats + 1)]
    return [top.ljust(16)[:16], text.ljust(16)[:16]], leds


def test_the_build_script_passes_shellcheck() -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed (Debian package shellcheck)")
    done = subprocess.run(
        [shellcheck, "--severity=info", str(FIRMWARE / "build")],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout


@pytest.mark.slow
def test_the_firmware_builds_for_an_uno_without_warnings_and_leaves_room(
    firmware: Build, tmp_path: Path
) -> None:
    assert firmware.elf.stat().st_size > 0
    (flash, flash_max), (ram, ram_max) = firmware.flash, firmware.ram
    assert (flash_max, ram_max) == (32256, 2048)  # an ATmega328P with the Uno's bootloader
    assert flash <= flash_max * ROOM // 100, f"flash {flash} of {flash_max}"
    assert ram <= ram_max * ROOM // 100, f"RAM {ram} of {ram_max}"

    # a warning in the sketch's own code fails the build
    copy_ = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, copy_, ignore=shutil.ignore_patterns("simboard", "host"))
    (copy_ / "stud_table" / "Extra.cpp").write_text("int twice(int a, int b) { return 2 * a; }\n")
    with pytest.raises(AssertionError, match="unused parameter"):
        build_firmware(tmp_path / "build", copy_)


# cards of a 7-byte uid (NTAG213 stickers) and one of 4 bytes (a MIFARE Classic card)
DEAL = [
    (1, "As", "04A10000C35B80"), (2, "Kd", "04A10100C35B80"), (3, "3c", "04A10200C35B80"),
    (1, "2s", "04A10300C35B80"), (2, "Qd", "04A10400C35B80"), (3, "4c", "04A10500C35B80"),
    (1, "5h", "04A10600C35B80"), (2, "9s", "04A10700C35B80"), (3, "8h", "DEADBEEF"),
]


@dataclass
class Table:
    app: Any
    service: TableService
    devices: kiosk.devices.TableDevices
    board: Board

    def display(self) -> DisplayState:
        """What the kiosk has the displays show now."""
        return self.devices.display_state(self.service)

    def board_follows(self, what: str) -> dict[str, Any]:
        rows, leds = shown(self.display())
        return self.board.wait_for(
            lambda s: s["lcd"] == rows and s["leds"] == leds, f"{what}: {rows} {leds}"
        )

    def press(self, button: str) -> None:
        """Press ``button`` on the board and wait for the table to take it."""
        version = self.service.version
        self.board.press(button)
        deadline = time.monotonic() + WAIT
        while self.service.version == version:
            assert time.monotonic() < deadline, f"{button} never reached the table"
            time.sleep(0.02)

    def cards(self, seat: int) -> list[str]:
        hand = self.service.hand
        assert hand is not None
        return [str(slot.card) for slot in hand.state.seats[seat - 1].cards]


@pytest.fixture
def table(
    firmware: Build, simboard: Path, tmp_path: Path
) -> Iterator[Table]:
    from kiosk import create_app

    instance = tmp_path / "instance"
    instance.mkdir()
    TagMap({uid: Card.parse(card) for _, card, uid in DEAL}).save(instance / TAG_MAP_FILE)
    board = Board(simboard, firmware.elf, tmp_path / "simboard.log", "--no-reader", "4")
    app = None
    try:
        app = create_app(
            {
                "TESTING": True,
                "INSTANCE_PATH": str(instance),
                "DEFAULT_LANG": "en",
                "SERIAL_PORTS": board.port,
                "SERIAL_RETRY": 0.05,
            }
        )
        yield Table(app, app.extensions["stud_table"], app.extensions["stud_devices"], board)
    finally:
        if app is not None:
            app.extensions["stud_devices"].stop()
            app.extensions["stud_store"].close()
        board.close()


@pytest.mark.slow
def test_the_board_plays_third_street_through_the_kiosk(table: Table) -> None:
    board, service, devices = table.board, table.service, table.devices

    # the kiosk opens the port and PINGs; the board answers PONG, HELLO and its missing reader
    def hello() -> bool:
        (status,) = devices.snapshot(discover=False)["devices"]
        return bool(status["state"] == "connected" and status["name"] == "stud-table")

    deadline = time.monotonic() + WAIT
    while not hello():
        assert time.monotonic() < deadline, devices.snapshot(discover=False)
        time.sleep(0.05)
    (status,) = devices.snapshot(discover=False)["devices"]
    assert status["kinds"] == ["reader", "buttons", "display"]
    # the board was talking before the kiosk listened: pyserial empties the port's input as it
    # opens it, which may cut a line the board was sending (one bad line, NAKed). From its HELLO
    # on, every line of the board's must be good
    bad_before_hello = status["bad_lines"]
    assert bad_before_hello <= 1, status
    table.board_follows("no hand")
    notices = [n for n in devices.snapshot(discover=False)["notices"]]
    assert any("reader at seat 4 not answering" in n["messages"]["en"] for n in notices), notices

    service.configure(copy.deepcopy(driver.SETUP))
    table.press("NEXT")  # the hand starts from the board's button
    state = table.board_follows("the antes, the deal")
    assert state["lcd"][0].startswith("Pot 3 ") and state["lcd"][1] == "Deal third street"[:16]
    assert state["leds"] == ["on", "on", "on", "off"] and state["backlight"] == 1

    # third street from the readers: each card laid on its seat's reader, on top of the others
    for seat, card, uid in DEAL:
        version = service.version  # bumped once the table has taken the card
        board.put(seat, uid)
        deadline = time.monotonic() + WAIT
        while service.version == version:
            assert time.monotonic() < deadline, f"{card} at seat {seat} never reached the table"
            time.sleep(0.02)
        assert table.cards(seat)[-1] == card
        if card == "As":  # read again at another seat: refused, the reason on the LCD
            version = service.version
            board.put(2, uid)
            board.wait_for(lambda s: s["lcd"][1].startswith("As is already"), "the refusal")
            assert service.version == version and table.cards(2) == []
            board.ask("lift 2")
    # the cards lying on the readers are halted: nothing more is sent while they stay
    (status,) = devices.snapshot(discover=False)["devices"]
    start = board.state()["ms"]
    board.wait_for(lambda s: s["ms"] > start + 500, "half a second more")
    (after,) = devices.snapshot(discover=False)["devices"]
    assert after["lines_in"] == status["lines_in"] and after["bad_lines"] == bad_before_hello
    assert table.cards(1) == ["As", "2s", "5h"]
    assert table.cards(2) == ["Kd", "Qd", "9s"]
    assert table.cards(3) == ["3c", "4c", "8h"]
    hand = service.hand
    assert hand is not None and [s.up for s in hand.state.seats[0].cards] == [False, False, True]
    state = table.board_follows("the bring-in")
    assert state["lcd"][0] == "Pot 3        > 1" and state["leds"][0] == "blink"

    # the betting from the buttons
    table.press("BRINGIN")
    state = table.board_follows("seat 2 to act")
    assert state["lcd"][0] == "Pot 5        > 2" and state["leds"][:3] == ["on", "blink", "on"]
    version = service.version
    board.press("CHECK")  # not allowed facing the bring-in: refused, shown, nothing changes
    board.wait_for(lambda s: s["lcd"][1].startswith("Seat 2 cannot"), "the refused check")
    assert service.version == version
    table.press("CALL")
    table.board_follows("seat 3 to act")
    table.press("FOLD")
    state = table.board_follows("fourth street")
    assert state["leds"][2] == "off" and service.hand is not None
    assert service.hand.state.total_pot == 7
    table.press("UNDO")
    state = table.board_follows("the fold taken back")
    assert state["leds"][2] == "blink"


@pytest.mark.slow
def test_a_board_without_its_lcd_says_so_after_every_hello(
    firmware: Build, simboard: Path, tmp_path: Path
) -> None:
    board = Board(simboard, firmware.elf, tmp_path / "simboard.log", "--no-lcd")
    try:
        with serial.Serial(board.port, BAUDRATE, timeout=0.1) as line:
            board.wait_for(lambda s: s["ms"] > 300, "its start")  # setup() is done
            line.reset_input_buffer()
            line.write(b"PING\n")  # the kiosk opening the port: no ACK yet, so HELLO again
            got = b""
            deadline = time.monotonic() + WAIT
            while got.count(b"\n") < 3 and time.monotonic() < deadline:
                got += line.read(256)
        assert got.decode("ascii").splitlines() == [
            "PONG",
            "HELLO reader+buttons+display 1 stud-table",
            "ERR LCD not answering on I2C",
        ]
        assert board.state()["lcd"] == ["", ""]
    finally:
        board.close()
