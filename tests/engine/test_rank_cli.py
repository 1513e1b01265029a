"""``stud-kiosk rank``: the hand's name, category and playing cards; clear errors, exit status 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kiosk.cli import main


def rank(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["rank", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_rank_names_a_seven_card_hand(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = rank(capsys, "Kh", "Kd", "Ks", "9c", "9h", "2d", "3s")
    assert status == 0 and err == ""
    assert out.splitlines() == [
        "Full house, kings over nines",
        "  category: Full house (full-house)",
        "  cards: Ks Kh Kd 9h 9c",
    ]


def test_rank_in_italian_from_one_word(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = rank(capsys, "--lang", "it", "AsAd7c7hKd2s3c")
    assert status == 0
    assert out.splitlines() == [
        "Doppia coppia, assi e sette",
        "  categoria: Doppia coppia (two-pair)",
        "  carte: As Ad 7h 7c Kd",
    ]


def test_rank_hilo_shows_both_halves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = rank(capsys, "--game", "seven-card-stud-hilo", "8h 6d 4c 2s Ah Kd Kc")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "High: Pair of kings"
    assert lines[3] == "Low: 8-6-4-2-A low"
    assert lines[5] == "  cards: 8h 6d 4c 2s Ah"
    status, out, _ = rank(capsys, "--game", "seven-card-stud-hilo", "--lang", "it", "KhKdKs9c9h")
    assert out.splitlines()[-1] == "Basso: nessun basso valido (8 o meno)"


def test_rank_soko_and_razz(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = rank(capsys, "--game", "soko", "Kh Th 7h 2h 2c")
    assert status == 0
    assert out.splitlines()[:2] == ["Four-flush, king high", "  category: Four-flush (four-flush)"]
    status, out, _ = rank(capsys, "--game", "razz", "--lang", "it", "Kh Qd 7c 3s 2h 7d Kc")
    assert out.splitlines()[0] == "Basso K-Q-7-3-2"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["1h", "2c", "3c", "4c", "5c"], "cannot read '1h2'; ranks are 2-9, T or 10"),
        (["Ah", "Ah", "Kd", "4c", "3c"], "Ah appears twice"),
        (["Ah", "Kd", "4c"], "A high hand needs 5 to 7 cards, got 3"),
        (["--game", "soko", "Ah Kd 4c 3c 2c 9d"], "A Sökö hand needs exactly 5 cards"),
        (["--lang", "it", "Ah", "Kd", "4c"], "Una mano alta vuole da 5 a 7 carte, ne ha 3"),
        (["--game", "five-card-stud", "--lang", "it", "Ah Kd 4c 3c 2c 9d"],
         "Una mano di stud a cinque carte vuole esattamente 5 carte, ne ha 6: 'Ah Kd 4c 3c 2c 9d'"),
    ],
)
def test_bad_input_is_refused_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = rank(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("stud-kiosk rank: ") and message in err


def test_the_installed_command_exits_2_with_the_reason_on_stderr() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "rank", "--game", "razz", "Ah", "Zz"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "'Ah Zz' is not a list of cards" in done.stderr
    ok = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "rank", "5c", "4d", "3h", "2s", "Ad"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0 and ok.stdout.startswith("Straight, five high\n")
