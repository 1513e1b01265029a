"""What the camera's kiosk tests share: a table in the middle of a hand and its seats' zones."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from hardware.camera.recognize import Recognizer
from kiosk.service import TableService
from kiosk.store import Store
from tests.kiosk import driver

#: three seats side by side, as fractions of the picture
ZONES = {1: [0.0, 0.0, 0.33, 1.0], 2: [0.33, 0.0, 0.66, 1.0], 3: [0.66, 0.0, 1.0, 1.0]}


@pytest.fixture
def table(tmp_path: Path) -> TableService:
    """The scripted hand's table, its down cards dealt (seat 3's not entered): third street's
    up cards are expected next."""
    table = TableService(Store(f"sqlite:///{tmp_path / 'table.sqlite3'}"))
    table.configure(copy.deepcopy(driver.SETUP))
    table.start_hand()
    for seat, cards in ((1, ["As", "2s"]), (2, ["Kd", "Qd"]), (3, [None, None])):
        for card in cards:
            table.submit({"type": "deal", "seat": seat, "card": card, "up": False})
    return table


@pytest.fixture(scope="session")
def recognizer() -> Recognizer:
    """A recogniser at its threshold, loaded once for the tests of a process (read it only from
    the test's own thread; ``Recognizer.using`` reads with other settings)."""
    return Recognizer()


@pytest.fixture(scope="session")
def reader(recognizer: Recognizer) -> Recognizer:
    """The same networks reporting every reading, whatever its confidence, so that thresholds
    can be applied after."""
    return recognizer.using(recognizer.params, min_confidence=0.0)
