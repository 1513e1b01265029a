"""systemd checks the units as installed: ``systemd-analyze verify`` against the install's root."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.deploy import DEPLOY, SYSTEM_UNITS, Deployment, analyze

UNITS = (
    "stud-kiosk.service",
    "stud-kiosk-backup.service",
    "stud-kiosk-backup.timer",
    "stud-kiosk-browser.service",
)


def prepare_root(root: Path) -> None:
    """Give the install's root what the units refer to: systemd's own units and cage."""
    units = root / "usr/lib/systemd/system"
    if not units.exists():
        shutil.copytree(SYSTEM_UNITS, units, symlinks=True)
    cage = shutil.which("cage")
    if cage is None:
        pytest.skip("cage is not installed (Debian package cage): the screen unit runs it")
    (root / "usr/bin").mkdir(parents=True, exist_ok=True)
    if not (root / "usr/bin/cage").exists():
        shutil.copy2(cage, root / "usr/bin/cage")


def verify(root: Path, *units: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [analyze(), "verify", f"--root={root}", *(f"/etc/systemd/system/{u}" for u in units)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_systemd_accepts_every_unit_without_a_warning(deployment: Deployment) -> None:
    prepare_root(deployment.root)
    done = verify(deployment.root, *UNITS)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "" and done.stdout.strip() == ""


def test_the_check_fails_on_a_unit_with_a_mistake(deployment: Deployment, tmp_path: Path) -> None:
    """systemd-analyze reports a wrong value and a missing program: the check above can fail."""
    prepare_root(deployment.root)
    unit = deployment.root / "etc/systemd/system/stud-kiosk-broken.service"
    text = (deployment.root / "etc/systemd/system/stud-kiosk.service").read_text(encoding="utf-8")
    unit.write_text(
        text.replace("Restart=always", "Restart=sometimes").replace(
            "/venv/bin/stud-kiosk serve", "/venv/bin/no-such-program serve"
        ),
        encoding="utf-8",
    )
    try:
        done = verify(deployment.root, "stud-kiosk-broken.service")
    finally:
        unit.unlink()
    assert done.returncode != 0
    assert "sometimes" in done.stderr
    assert "no-such-program is not executable" in done.stderr


def test_the_server_unit_stays_hardened() -> None:
    """systemd's own exposure score for the server (2.0, "OK", with systemd 252): at most 2.5."""
    program = analyze()
    unit = str(DEPLOY / "systemd/stud-kiosk.service")
    done = subprocess.run(
        [program, "security", "--offline=true", "--threshold=25", unit],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-1500:]
    assert "Overall exposure level for stud-kiosk.service" in done.stdout
