"""`stud-kiosk replay FILE.phh --json`: one JSON object, or an error naming the action (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HISTORY = """variant = 'F7S/8'
antes = [1, 1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [100, 20, 100]
seats = [2, 5, 7]
players = ['Anna', 'Bruno', 'Carla']
actions = [
  'd dh p1 Ah2h8c', 'd dh p2 KcKdQs', 'd dh p3 3s4s9d',
  'p1 pb', 'p2 cbr 4', 'p3 cc', 'p1 cc',
  'd dh p1 7c', 'd dh p2 Ks', 'd dh p3 5s',
  'p2 cbr 4', 'p3 cc', 'p1 cc',
  'd dh p1 Tc', 'd dh p2 2c', 'd dh p3 Jh',
  'p2 cbr 8', 'p3 cc', 'p1 cc',
  'd dh p1 9c', 'd dh p2 3c', 'd dh p3 7d',
  'p2 cbr 3', 'p3 cc', 'p1 cc',
  'd dh p1 4c', 'd dh p2 5h', 'd dh p3 6s',
  'p3 cbr 8', 'p1 cc',
  'p3 sm 3s4s9d5sJh7d6s', 'p1 sm Ah2h8c7cTc9c4c', 'p2 sm KcKdQsKs2c3c5h',
]
"""


def replay(tmp_path: Path, text: str, *extra: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "hand.phh"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "replay", str(path), *extra],
        capture_output=True, text=True, timeout=60, check=False,
    )


def test_replay_prints_stacks_pots_and_result(tmp_path: Path) -> None:
    done = replay(tmp_path, HISTORY, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    # Bruno (seat 5) is all in for 20 on sixth street with three kings: main pot 60 three ways,
    # side pot 16 for Anna and Carla. Anna's ten-high flush wins each high half, Carla's
    # 7-6-5-4-3 each low half (better than Anna's 8-7-4-2-A).
    assert data["seats"] == [2, 5, 7]
    assert data["players"] == ["Anna", "Bruno", "Carla"]
    assert data["finishing_stacks"] == [72 + 30 + 8, 0, 72 + 30 + 8]
    result = data["result"]
    main, side = result["pots"]
    assert main["amount"] == 60 and main["eligible"] == [2, 5, 7]
    assert side["amount"] == 16 and side["eligible"] == [2, 7]
    assert main["high"][0]["seat"] == 2 and main["high"][0]["hand"] == "Flush, ten high"
    assert main["low"][0]["seat"] == 7 and main["low"][0]["amount"] == 30
    assert main["low"][0]["cards"] == ["7d", "6s", "5s", "4s", "3s"]
    assert result["payouts"] == {"2": 38, "7": 38}


def test_replay_in_italian_words(tmp_path: Path) -> None:
    done = replay(tmp_path, HISTORY, "--json", "--lang", "it")
    data = json.loads(done.stdout)
    assert data["result"]["pots"][0]["name"] == "piatto principale"


def test_an_illegal_action_is_named_with_its_number_and_reason(tmp_path: Path) -> None:
    done = replay(tmp_path, HISTORY.replace("'p2 cbr 8'", "'p2 cbr 9'"), "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "action 17 ('p2 cbr 9')" in done.stderr
    assert "cannot bet or raise to 9: allowed is bet 8" in done.stderr


def test_errors_in_italian(tmp_path: Path) -> None:
    done = replay(tmp_path, HISTORY.replace("'p1 pb'", "'p2 pb'"), "--lang", "it")
    assert done.returncode == 2
    assert "action 4 ('p2 pb'): Il posto 5 non può agire ora: è il turno del posto 2" in done.stderr


def test_a_malformed_history_is_refused(tmp_path: Path) -> None:
    done = replay(tmp_path, "variant = 'F7S'\nantes = [1, 1\n", "--json")
    assert done.returncode == 2
    assert "not TOML" in done.stderr
    done = replay(tmp_path, HISTORY.replace("'d dh p2 KcKdQs'", "'d dh p2 KcKdQx'"))
    assert done.returncode == 2
    assert "action 2 ('d dh p2 KcKdQx')" in done.stderr


def test_replay_without_json_prints_a_summary(tmp_path: Path) -> None:
    done = replay(tmp_path, HISTORY, "--lang", "it")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "seven-card-stud-hilo: Mano finita"
    assert "  posto 2 Anna: 110" in lines
    assert "  piatto principale: 60 -> posto 2 30, posto 7 30" in lines
