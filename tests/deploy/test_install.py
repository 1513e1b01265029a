"""deploy/install.sh and deploy/upgrade.sh against a temporary root: what they lay down, that a
second run changes nothing, and that an upgrade keeps the data and can be rolled back."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.helpers.deploy import (
    DEPLOY,
    Deployment,
    copy_source,
    fake_system_root,
    release_of,
    run_install,
)

UNITS = ("stud-kiosk.service", "stud-kiosk-backup.service", "stud-kiosk-backup.timer")


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o7777


def test_install_lays_down_the_code_settings_units_and_folders(deployment: Deployment) -> None:
    root = deployment.root
    release = root / "opt/stud-kiosk/releases" / deployment.first_release
    assert deployment.first_release.startswith("0.1.0-")
    # The wheel installed in the release's own virtual environment, and the command the server
    # unit runs; beside it only the scripts and documents the system refers to.
    (wheel,) = (release / "wheel").glob("stud_kiosk-0.1.0-*.whl")
    assert sorted(p.name for p in release.iterdir()) == [
        ".complete", "README.md", "deploy", "docs", "hardware", "venv", "wheel"
    ]
    stud_kiosk = release / "venv" / "bin" / "stud-kiosk"
    assert os.access(stud_kiosk, os.X_OK)
    assert stud_kiosk.read_text(encoding="utf-8").startswith(f"#!{release}/venv/bin/python")
    (site,) = (release / "venv" / "lib").glob("python3*/site-packages")
    assert (site / "kiosk" / "cli.py").is_file()
    assert (site / "kiosk" / "templates" / "dealer.html").is_file()
    assert (site / "hardware" / "camera" / "model" / "cards.onnx").is_file()
    # the firmware docs/hardware.md builds: the installed package's, its build script runnable
    assert (release / "hardware").resolve() == (site / "hardware").resolve()
    assert os.access(release / "hardware" / "firmware" / "build", os.X_OK)
    assert (release / "hardware" / "firmware" / "stud_table" / "stud_table.ino").is_file()
    # installed from the wheel, not linked to the source folder (an editable install)
    origin = json.loads(next(site.glob("stud_kiosk-*.dist-info/direct_url.json")).read_text())
    assert origin["url"] == wheel.as_uri() and "dir_info" not in origin
    assert not list(site.glob("__editable__*")), "the release must not use the source folder"
    assert os.access(release / "deploy" / "stud-kiosk-backup", os.X_OK)
    assert (release / "docs" / "deploy.md").is_file()
    # Settings, remembered options, folders outside the code.
    env = (root / "etc/stud-kiosk/env").read_text(encoding="utf-8")
    assert "STUD_KIOSK_INSTANCE=/var/lib/stud-kiosk\n" in env
    assert "STUD_KIOSK_DATABASE_URL=sqlite:////var/lib/stud-kiosk/stud-kiosk.sqlite3\n" in env
    assert mode(root / "etc/stud-kiosk/env") == 0o640
    conf = deployment.first_conf
    assert "screen=labwc\n" in conf and "desktop_user=dealer\n" in conf
    for folder, wanted in (
        ("var/lib/stud-kiosk", 0o750),
        ("var/backups/stud-kiosk", 0o750),
        ("var/log/stud-kiosk", 0o750),
        ("etc/stud-kiosk", 0o750),
    ):
        assert mode(root / folder) == wanted, folder
    # Units, udev rules, log rotation, journal size: the files of deploy/ as they are.
    for unit in UNITS:
        installed = (root / "etc/systemd/system" / unit).read_bytes()
        assert installed == (DEPLOY / "systemd" / unit).read_bytes()
    assert "stud-kiosk-browser.service" not in deployment.first.stdout
    assert (root / "etc/logrotate.d/stud-kiosk").read_bytes() == (DEPLOY / "logrotate").read_bytes()
    assert (root / "etc/udev/rules.d/99-stud-kiosk.rules").is_file()
    assert (root / "etc/systemd/journald.conf.d/stud-kiosk.conf").is_file()


def test_install_starts_chromium_with_the_desktop_and_switches_blanking_off(
    deployment: Deployment,
) -> None:
    text = deployment.first_autostart
    assert text.count("/opt/stud-kiosk/current/deploy/stud-kiosk-browser") == 1
    assert "STUD_KIOSK_PORT=8000 " in text
    out = deployment.first.stdout
    assert "would run: raspi-config nonint do_blanking 1" in out
    assert "would run: raspi-config nonint do_boot_behaviour B4" in out
    assert "would ensure system user stud (home /var/lib/stud-kiosk) in groups dialout,video" in out
    assert "would run: systemctl enable --quiet stud-kiosk.service stud-kiosk-backup.timer" in out


def test_the_server_unit_runs_the_current_release_as_stud_and_always_restarts() -> None:
    unit = (DEPLOY / "systemd/stud-kiosk.service").read_text(encoding="utf-8")
    lines = set(unit.splitlines())
    for wanted in (
        "User=stud",
        "SupplementaryGroups=dialout video",
        "EnvironmentFile=/etc/stud-kiosk/env",
        "ExecStart=/opt/stud-kiosk/current/venv/bin/stud-kiosk serve",
        "Restart=always",
        "StateDirectory=stud-kiosk",
    ):
        assert wanted in lines, wanted
    # Hardening that would hide the serial devices and the camera stays out.
    assert not any(line.startswith(("PrivateDevices=", "DevicePolicy=")) for line in lines)


def test_a_second_run_changes_nothing(deployment: Deployment) -> None:
    assert deployment.second.returncode == 0
    assert "nothing changed" in deployment.second.stdout
    assert "systemctl restart" not in deployment.second.stdout
    assert "new release" not in deployment.second.stdout
    assert deployment.after_second == deployment.before_second


def test_an_upgrade_keeps_the_data_and_switches_to_a_new_release(deployment: Deployment) -> None:
    root = deployment.root
    out = deployment.upgrade.stdout
    assert deployment.upgraded_release != deployment.first_release
    assert deployment.previous_after_upgrade == deployment.first_release
    assert "new release" in out
    assert "stud-kiosk-backup --tag pre-upgrade" in out
    assert "would run: systemctl restart stud-kiosk.service" in out
    # Hands, settings and device names are the owner's: untouched.
    database = root / "var/lib/stud-kiosk/stud-kiosk.sqlite3"
    assert database.read_bytes() == deployment.database_before
    with sqlite3.connect(database) as conn:
        assert conn.execute("SELECT count(*) FROM hands").fetchone() == (50,)
    conn.close()
    assert (root / "etc/stud-kiosk/env").read_text(encoding="utf-8") == deployment.env_before
    udev = (root / "etc/udev/rules.d/99-stud-kiosk.rules").read_text(encoding="utf-8")
    assert udev == deployment.udev_before
    # The new release is the new code's wheel (README.md is its description).
    release = root / "opt/stud-kiosk/releases" / deployment.upgraded_release
    (metadata,) = release.glob("venv/lib/python3*/site-packages/stud_kiosk-*.dist-info/METADATA")
    assert "A newer version." in metadata.read_text(encoding="utf-8")
    # Only the current and the previous release stay.
    releases = sorted(p.name for p in (root / "opt/stud-kiosk/releases").iterdir())
    assert releases == sorted([deployment.first_release, deployment.upgraded_release])


def test_rollback_goes_back_and_upgrade_comes_forward_again(deployment: Deployment) -> None:
    assert deployment.rollback.returncode == 0, deployment.rollback.stderr
    assert deployment.after_rollback == (deployment.first_release, deployment.upgraded_release)
    assert "would run: systemctl restart stud-kiosk.service" in deployment.rollback.stdout
    failed = deployment.failed_upgrade
    assert failed.returncode == 2
    assert "the new version does not answer: going back to " + deployment.first_release in (
        failed.stdout
    )
    # (nothing answers at that address, so the old version "does not answer either")
    assert "the old version does not answer either" in failed.stderr
    assert deployment.after_failed_upgrade == (
        deployment.first_release,
        deployment.upgraded_release,
    )
    assert deployment.reupgrade.returncode == 0, deployment.reupgrade.stderr
    assert deployment.after_reupgrade == (deployment.upgraded_release, deployment.first_release)
    assert "upgraded to " + deployment.upgraded_release in deployment.reupgrade.stdout


def test_the_cage_screen_is_a_systemd_unit_and_is_remembered(deployment: Deployment) -> None:
    root = deployment.root
    unit = root / "etc/systemd/system/stud-kiosk-browser.service"
    assert unit.read_bytes() == (DEPLOY / "systemd/stud-kiosk-browser.service").read_bytes()
    assert "screen=cage\n" in (root / "etc/stud-kiosk/install.conf").read_text(encoding="utf-8")
    out = deployment.cage.stdout
    assert "would ensure system user stud-screen" in out
    assert "stud-kiosk-browser.service" in out
    # The desktop no longer starts (and no longer opens a second browser).
    assert "would run: raspi-config nonint do_boot_behaviour B1" in out
    autostart = root / "home/dealer/.config/labwc/autostart"
    assert "stud-kiosk-browser" not in autostart.read_text(encoding="utf-8")


def test_bad_options_are_refused_with_what_is_allowed(tmp_path: Path) -> None:
    root = fake_system_root(tmp_path / "root")
    done = run_install(DEPLOY.parent, root, "--screen", "x11")
    assert done.returncode == 2
    assert "--screen 'x11' is not known (allowed: labwc, cage, none)" in done.stderr
    done = run_install(tmp_path, root)
    assert done.returncode != 0


@pytest.mark.slow
def test_a_source_that_does_not_build_leaves_the_running_release_alone(
    deployment: Deployment, tmp_path: Path
) -> None:
    root = tmp_path / "root"
    shutil.copytree(deployment.root, root, symlinks=True)
    before = (release_of(root, "current"), release_of(root, "previous"))
    source = copy_source(tmp_path / "src")
    pyproject = source / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace('"kiosk.views",', '"kiosk.views", "kiosk.gone",'), "utf-8")
    done = run_install(source, root)
    assert done.returncode == 2
    assert f"could not build the wheel of {source}" in done.stderr
    assert (release_of(root, "current"), release_of(root, "previous")) == before
    assert "systemctl restart" not in done.stdout
    releases = root / "opt/stud-kiosk/releases"
    assert {p.name for p in releases.iterdir() if (p / ".complete").exists()} == set(before)


def test_logrotate_accepts_the_configuration(deployment: Deployment, tmp_path: Path) -> None:
    logrotate = shutil.which("logrotate") or "/usr/sbin/logrotate"
    if not Path(logrotate).exists():
        pytest.skip("logrotate is not installed (Debian package logrotate)")
    logs = tmp_path / "log"
    logs.mkdir()
    (logs / "server.log").write_text("x" * 100 + "\n", encoding="utf-8")
    config = (deployment.root / "etc/logrotate.d/stud-kiosk").read_text(encoding="utf-8")
    local = tmp_path / "stud-kiosk.logrotate"
    local.write_text(config.replace("/var/log/stud-kiosk", str(logs)), encoding="utf-8")
    done = subprocess.run(
        [logrotate, "--force", "--state", str(tmp_path / "state"), str(local)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # copytruncate: the server keeps writing to the same, now empty, file.
    assert (logs / "server.log").stat().st_size == 0
    assert (logs / "server.log.1").read_text(encoding="utf-8").startswith("x" * 100)


def test_copy_source_leaves_out_the_virtual_environment(tmp_path: Path) -> None:
    copy = copy_source(tmp_path / "src")
    assert (copy / "deploy" / "install.sh").is_file()
    assert not (copy / ".venv").exists()
    # build output is left out at the top only: the firmware's build script is the project's
    assert os.access(copy / "hardware" / "firmware" / "build", os.X_OK)
