"""``stud-kiosk odds``: the JSON other programs read, the table in words, errors with status 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest

from kiosk.cli import main


def odds(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["odds", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_for_hi_lo_has_each_half_and_the_scoop(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = odds(capsys, "--game", "seven-card-stud-hilo", "--json", "--exact",
                            "Ac 2d 3h 5s 7c Kd Kh", "2c 9c Jc Qc 4c Th Td")
    assert status == 0 and err == ""
    answer = json.loads(out)
    assert answer == {"exact": True, "runouts": 1, "players": [
        {"win": 0.0, "high": 0.0, "low": 1.0, "scoop": 0.0, "equity": 0.5},
        {"win": 0.0, "high": 1.0, "low": 0.0, "scoop": 0.0, "equity": 0.5},
    ]}


def test_json_for_a_high_game_and_unknown_down_cards(capsys: pytest.CaptureFixture[str]) -> None:
    # five-card stud, one card to come, the last ace dead: the spades win 12 times in 43
    status, out, _ = odds(capsys, "--game", "five-card-stud", "--dead", "Ac", "--json",
                          "As Ks Qs Js", "Ah Ad 2c 3d")
    answer: dict[str, Any] = json.loads(out)
    assert status == 0 and answer["exact"] is True and answer["runouts"] == 43 * 42
    assert [set(p) for p in answer["players"]] == [{"win", "equity"}] * 2
    assert answer["players"][0]["equity"] == round(12 / 43, 4)
    status, out, _ = odds(capsys, "--game", "seven-card-stud", "--runouts", "5000", "--json",
                          "?? ?? Ah As 9d", "?? ?? Kh Ks 2c")
    answer = json.loads(out)
    assert status == 0 and answer["exact"] is False and answer["runouts"] == 5000
    aces, kings = answer["players"]
    assert aces["equity"] > 0.6 > kings["equity"]
    assert aces["equity"] + kings["equity"] == pytest.approx(1, abs=2e-4)


def test_the_table_says_exact_or_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = odds(capsys, "--game", "razz", "--lang", "it", "?? ?? 3c", "?? ?? Kd")
    assert status == 0
    title, first, second = out.splitlines()
    assert second.split()[:4] == ["2", "??", "??", "Kd"]
    assert title.startswith("razz: stima su ")
    # the half-width reached, which the runouts dealt keep within the half point asked
    found = re.search(r"entro (\d+(?:\.\d+)?) punti al 95 %", title)
    assert found is not None and 0 < float(found.group(1)) <= 0.5, title
    assert first.split()[:4] == ["1", "??", "??", "3c"] and "quota" in first
    status, out, _ = odds(capsys, "--game", "seven-card-stud", "Ah As 2c 7d 9h 3s",
                          "Kh Ks 4c 8d Th 5s")
    assert out.splitlines()[0] == (
        "seven-card-stud: exact from 1560 deals (every figure within 0.0 points at 95 %)")
    assert out.splitlines()[1].endswith("win 76.0%  equity 76.0%")


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "razz", "?? ?? Ah", "?? ?? Ah"], "Ah appears twice"),
    (["--game", "five-card-stud", "--exact", "?? Ah", "?? Kd"],
     "exact odds would count 37581505500 deals"),
    (["--game", "five-card-stud", "--lang", "it", "--exact", "?? Ah", "?? Kd"],
     "le probabilità esatte conterebbero 37581505500 distribuzioni"),
    (["--game", "soko", "Ah Kd Qc Jh Ts 9c", "2c"], "holds at most 5"),
    (["--game", "razz", "--runouts", "0", "?? ?? Ah", "?? ?? 2d"], "ask for at least 1"),
    (["--game", "razz", "??? Ah"], "write ?? for each card not known"),
])
def test_bad_input_is_refused_with_status_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                            message: str) -> None:
    status, out, err = odds(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("stud-kiosk odds: ") and message in err


def test_the_installed_command() -> None:
    both = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "odds", "--game", "razz", "--exact", "--runouts",
         "10", "?? ?? Ah", "?? ?? 2d"], capture_output=True, text=True, timeout=60)
    assert both.returncode == 2 and "not allowed with argument" in both.stderr
    unknown = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "odds", "--game", "holdem", "Ah Kd"],
        capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 2 and "invalid choice: 'holdem'" in unknown.stderr
    ok = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "odds", "--game", "soko", "--json",
         "Kh Th 7h 2c", "Jh Qd Kc Ah"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["exact"] is True
