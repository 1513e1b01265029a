"""The game rotation through the table service: dealer's choice, a rotation every N hands or every
orbit of the button, each game with its own stakes, and an undo of a hand's end."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from kiosk.errors import KioskError
from kiosk.service import TableService
from kiosk.store import Store
from kiosk.table_setup import GAMES
from tests.kiosk import driver
from tests.night.play import play_hand

STAKES = {
    "seven-card-stud": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    "razz": {"ante": 2, "bring_in": 3, "small_bet": 10, "big_bet": 20},
    "soko": {"ante": 5, "bring_in": 0, "small_bet": 10, "big_bet": 20},
}


def table_with(tmp_path: Path, mode: str, every: int = 1, players: int = 3) -> TableService:
    table = TableService(Store(f"sqlite:///{tmp_path / 'table.sqlite3'}"))
    setup: dict[str, Any] = copy.deepcopy(driver.SETUP)
    setup["game"] = "seven-card-stud"
    setup["stakes"] = dict(STAKES["seven-card-stud"])
    for seat in setup["seats"]:
        seat["active"] = seat["seat"] <= players
        seat["stack"] = 500 if seat["active"] else 0
    setup["rotation"] = {"mode": mode, "games": list(STAKES), "every": every,
                         "stakes": {g: dict(s) for g, s in STAKES.items()}}
    table.configure(setup)
    return table


def test_razz_is_offered_as_every_other_game() -> None:
    assert "razz" in GAMES


def test_a_rotation_every_hand_plays_each_game_with_its_own_stakes(tmp_path: Path) -> None:
    table = table_with(tmp_path, "list", every=1)
    played = []
    for _ in range(4):
        hand = play_hand(table)
        row = table.store.hand(hand["id"])
        assert row is not None
        played.append((hand["variant"], row["setup"]["settings"]["ante"]))
    assert played == [("seven-card-stud", 1), ("razz", 2), ("soko", 5), ("seven-card-stud", 1)]


def test_the_screens_show_the_game_now_and_the_next_one(tmp_path: Path) -> None:
    table = table_with(tmp_path, "list", every=2)
    rotation = table.view("spectator", "en")["table"]["rotation"]
    assert rotation["game"] == "seven-card-stud" and rotation["next"] == "razz"
    assert rotation["in_hands"] == 2 and rotation["next_text"] == "then Razz in 2 hands"
    play_hand(table)
    rotation = table.view("spectator", "it")["table"]["rotation"]
    assert rotation["next_text"] == "poi Razz dalla prossima mano"


def test_a_rotation_every_orbit_changes_when_the_button_has_gone_round(tmp_path: Path) -> None:
    table = table_with(tmp_path, "list", every=0, players=3)
    games = [play_hand(table)["variant"] for _ in range(7)]
    assert games == ["seven-card-stud"] * 3 + ["razz"] * 3 + ["soko"]
    assert table.setup()["button"] == 2  # seat 1 dealt the first hand; 7 hands later, seat 2


def test_dealers_choice_plays_the_game_tapped_and_refuses_others(tmp_path: Path) -> None:
    table = table_with(tmp_path, "choice")
    view = table.view("dealer", "en")["table"]["rotation"]
    assert [g["game"] for g in view["games"]] == list(STAKES)
    assert view["chooser_text"] == "Anna chooses the game"
    hand = play_hand(table, game="razz")
    assert hand["variant"] == "razz" and table.setup()["stakes"] == STAKES["razz"]
    assert table.view("dealer", "en")["table"]["rotation"]["button_name"] == "Bruno"
    with pytest.raises(KioskError, match="choose from"):
        table.start_hand(game="five-card-stud")


def test_an_undo_of_a_hands_end_puts_the_button_and_the_game_back(tmp_path: Path) -> None:
    table = table_with(tmp_path, "list", every=1)
    play_hand(table)
    assert table.setup()["game"] == "razz" and table.setup()["button"] == 2
    table.undo()
    assert table.setup()["game"] == "seven-card-stud" and table.setup()["button"] == 1
    assert table.setup()["stakes"] == STAKES["seven-card-stud"]
