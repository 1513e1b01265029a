"""Deployment test fixtures: one machine's life under a temporary root, run once per worker."""

from __future__ import annotations

import socket
import sqlite3

import pytest

from tests.helpers.deploy import (
    Deployment,
    copy_source,
    fake_system_root,
    release_of,
    run_install,
    snapshot,
)


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
