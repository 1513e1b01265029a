"""deploy/stud-kiosk-name-device writes, replaces and removes the udev line of a named device."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.helpers.deploy import DEPLOY

TOOL = DEPLOY / "stud-kiosk-name-device"


def name_device(rules: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(TOOL), "--rules", str(rules), "--no-reload", *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def active(rules: Path) -> list[str]:
    return [
        line
        for line in rules.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]


def test_name_replace_and_remove(tmp_path: Path) -> None:
    rules = tmp_path / "99-stud-kiosk.rules"
    rules.write_bytes((DEPLOY / "99-stud-kiosk.rules").read_bytes())
    comments = rules.read_text(encoding="utf-8")
    done = name_device(rules, "reader", "--vendor", "1A86", "--product", "7523", "--serial", "A1B2")
    assert done.returncode == 0, done.stderr
    done = name_device(
        rules,
        "display",
        "--vendor",
        "2341",
        "--product",
        "0043",
        "--path",
        "platform-usb-0:1.2:1.0",
    )
    assert done.returncode == 0, done.stderr
    assert "named by the USB socket" in done.stdout
    assert active(rules) == [
        'SUBSYSTEM=="tty", ENV{ID_VENDOR_ID}=="1a86", ENV{ID_MODEL_ID}=="7523", '
        'ENV{ID_SERIAL_SHORT}=="A1B2", SYMLINK+="stud-reader", GROUP="dialout", MODE="0660"',
        'SUBSYSTEM=="tty", ENV{ID_VENDOR_ID}=="2341", ENV{ID_MODEL_ID}=="0043", '
        'ENV{ID_PATH}=="platform-usb-0:1.2:1.0", SYMLINK+="stud-display", GROUP="dialout", '
        'MODE="0660"',
    ]
    # A new reader replaces the old one; the explanations stay.
    done = name_device(rules, "reader", "--vendor", "0403", "--product", "6001", "--serial", "FT9")
    assert done.returncode == 0, done.stderr
    lines = active(rules)
    assert len(lines) == 2 and sum("stud-reader" in line for line in lines) == 1
    assert 'ENV{ID_SERIAL_SHORT}=="FT9"' in lines[1]
    assert rules.read_text(encoding="utf-8").startswith(comments)
    done = name_device(rules, "--remove", "display")
    assert done.returncode == 0, done.stderr
    assert [("stud-display" in line) for line in active(rules)] == [False]


def test_bad_input_is_refused_with_what_is_allowed(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    cases = [
        (("camera", "--vendor", "1a86", "--product", "7523", "--serial", "X"), "allowed: reader"),
        (("reader", "--vendor", "1a8", "--product", "7523", "--serial", "X"), "4 hex digits"),
        (("reader", "--vendor", "1a86", "--product", "7523"), "give --serial or --path"),
        (("reader", "--vendor", "1a86", "--product", "7523", "--serial", 'a" b'), "cannot match"),
        (("reader", "/dev/no-such-tty"), "does not exist"),
    ]
    for args, message in cases:
        done = name_device(rules, *args)
        assert done.returncode == 2, args
        assert message in done.stderr, (args, done.stderr)
    assert not rules.exists()
