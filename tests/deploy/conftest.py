"""Deployment test fixtures: a still copy of the code, an install under a temporary root."""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
DEPLOY = ROOT / "deploy"
IGNORED = shutil.ignore_patterns(
    ".git",
    ".venv",
    ".cache",
    "instance",
    "__pycache__",
    "*.egg-info",
    ".*_cache",
    "build",
    "test-artifacts",
    ".hypothesis",
    "node_modules",
)


def copy_source(dest: Path) -> Path:
    """A copy of the checkout (no .git: the installer takes every file) that stays still."""
    shutil.copytree(ROOT, dest, ignore=IGNORED, symlinks=True)
    return dest


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


def run_install(
    source: Path,
    root: Path,
    *args: str,
    script: str = "install.sh",
    extra_env: dict[str, str] | None = None,
) -> Run:
    env = dict(os.environ)
    env.update(extra_env or {})
    env.pop("SUDO_USER", None)
    env.pop("DESTDIR", None)
    # The tests lay the files down, not the libraries: the project alone, without its dependencies.
    env["STUD_KIOSK_PIP_OPTIONS"] = "--no-deps"
    options = ["--root", str(root)]
    if script == "install.sh":
        options += ["--source", str(source)]
    done = subprocess.run(
        ["bash", str(source / "deploy" / script), *options, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def fake_system_root(root: Path) -> Path:
    """A root with the /etc/passwd of a Raspberry Pi OS image whose desktop user is ``dealer``."""
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text(
        "root:x:0:0:root:/root:/bin/bash\ndealer:x:1000:1000:Dealer:/home/dealer:/bin/bash\n",
        encoding="utf-8",
    )
    return root


def snapshot(root: Path) -> dict[str, tuple[int, int, int, str]]:
    """Every path under ``root`` with its mode, size, modification time and link target."""
    found = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        target = os.readlink(path) if path.is_symlink() else ""
        found[str(path.relative_to(root))] = (info.st_mode, info.st_size, info.st_mtime_ns, target)
    return found


def release_of(root: Path, link: str) -> str:
    return os.readlink(root / "opt" / "stud-kiosk" / link).rsplit("/", 1)[-1]


@dataclass
class Deployment:
    """One machine's life, run once per test session: install, run it again, upgrade, roll back."""

    source: Path
    root: Path
    first: Run
    second: Run
    before_second: dict[str, tuple[int, int, int, str]]
    after_second: dict[str, tuple[int, int, int, str]]
    first_release: str
    first_conf: str
    first_autostart: str
    database_before: bytes
    env_before: str
    udev_before: str
    upgrade: Run
    upgraded_release: str
    previous_after_upgrade: str
    rollback: Run
    after_rollback: tuple[str, str]
    failed_upgrade: Run
    after_failed_upgrade: tuple[str, str]
    reupgrade: Run
    after_reupgrade: tuple[str, str]
    cage: Run


@pytest.fixture(scope="package")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Deployment:
    base = tmp_path_factory.mktemp("deploy")
    source = copy_source(base / "src")
    root = fake_system_root(base / "root")

    first = run_install(source, root)
    assert first.returncode == 0, first.stdout + first.stderr
    first_release = release_of(root, "current")
    first_conf = (root / "etc/stud-kiosk/install.conf").read_text(encoding="utf-8")
    first_autostart = (root / "home/dealer/.config/labwc/autostart").read_text(encoding="utf-8")

    before_second = snapshot(root)
    second = run_install(source, root)
    assert second.returncode == 0, second.stdout + second.stderr
    after_second = snapshot(root)

    # The table is used: hands in the database (WAL mode), the owner's settings and devices.
    database = root / "var/lib/stud-kiosk/stud-kiosk.sqlite3"
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE hands (id INTEGER PRIMARY KEY, note TEXT)")
        conn.executemany("INSERT INTO hands (note) VALUES (?)", [(f"hand {i}",) for i in range(50)])
    conn.close()
    env = root / "etc/stud-kiosk/env"
    env.write_text(env.read_text(encoding="utf-8") + "STUD_KIOSK_LANG=en\n", encoding="utf-8")
    udev = root / "etc/udev/rules.d/99-stud-kiosk.rules"
    with udev.open("a", encoding="utf-8") as handle:
        handle.write(
            'SUBSYSTEM=="tty", ENV{ID_VENDOR_ID}=="1a86", ENV{ID_MODEL_ID}=="7523", '
            'ENV{ID_SERIAL_SHORT}=="A1B2", SYMLINK+="stud-reader", GROUP="dialout", MODE="0660"\n'
        )
    (root / "opt/stud-kiosk/releases/0.0.1-000000000000").mkdir()
    database_before = database.read_bytes()
    env_before = env.read_text(encoding="utf-8")
    udev_before = udev.read_text(encoding="utf-8")

    # New code arrives.
    readme = source / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "\nA newer version.\n", encoding="utf-8")
    upgrade = run_install(source, root)
    assert upgrade.returncode == 0, upgrade.stdout + upgrade.stderr
    upgraded_release = release_of(root, "current")
    previous_after_upgrade = release_of(root, "previous")

    rollback = run_install(source, root, "--rollback", script="upgrade.sh")
    after_rollback = (release_of(root, "current"), release_of(root, "previous"))
    # An upgrade whose server does not answer goes back by itself...
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        nobody_there = f"http://127.0.0.1:{closed.getsockname()[1]}/api/health"
    failed_upgrade = run_install(
        source,
        root,
        "--no-pull",
        "--check-url",
        nobody_there,
        script="upgrade.sh",
        extra_env={"STUD_KIOSK_UPGRADE_WAIT": "2"},
    )
    after_failed_upgrade = (release_of(root, "current"), release_of(root, "previous"))
    # ... and one that answers stays.
    reupgrade = run_install(source, root, "--no-pull", script="upgrade.sh")
    after_reupgrade = (release_of(root, "current"), release_of(root, "previous"))

    cage = run_install(source, root, "--screen", "cage")
    assert cage.returncode == 0, cage.stdout + cage.stderr

    return Deployment(
        source,
        root,
        first,
        second,
        before_second,
        after_second,
        first_release,
        first_conf,
        first_autostart,
        database_before,
        env_before,
        udev_before,
        upgrade,
        upgraded_release,
        previous_after_upgrade,
        rollback,
        after_rollback,
        failed_upgrade,
        after_failed_upgrade,
        reupgrade,
        after_reupgrade,
        cage,
    )
