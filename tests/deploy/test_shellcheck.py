"""The deployment scripts pass shellcheck (Debian package shellcheck)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.helpers.deploy import DEPLOY

SCRIPTS = (
    "install.sh",
    "upgrade.sh",
    "stud-kiosk-backup",
    "stud-kiosk-browser",
    "stud-kiosk-name-device",
    "stud-kiosk-restore",
    "room-server.sh",
    "stud-room-backup",
)


def test_scripts_are_executable_bash() -> None:
    for name in SCRIPTS:
        path = DEPLOY / name
        assert path.stat().st_mode & 0o111, f"{name} is not executable"
        assert path.read_text(encoding="utf-8").startswith("#!/bin/bash\n"), name


def test_shellcheck_finds_nothing() -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed (Debian package shellcheck)")
    done = subprocess.run(
        [shellcheck, "--severity=info", *(str(DEPLOY / n) for n in SCRIPTS)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout
