"""What the camera's kiosk tests share: a table in the middle of a hand."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from kiosk.service import TableService
from kiosk.store import Store
from tests.kiosk import driver


@pytest.fixture
def dealt_table(tmp_path: Path) -> TableService:
    """The scripted hand's table, its down cards dealt (seat 3's not entered): third street's
    up cards are expected next."""
    table = TableService(Store(f"sqlite:///{tmp_path / 'table.sqlite3'}"))
    table.configure(copy.deepcopy(driver.SETUP))
    table.start_hand()
    for seat, cards in ((1, ["As", "2s"]), (2, ["Kd", "Qd"]), (3, [None, None])):
        for card in cards:
            table.submit({"type": "deal", "seat": seat, "card": card, "up": False})
    return table
