"""deploy/stud-kiosk-backup: a sound copy of a live WAL database, and only the last days kept."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from kiosk.store import Store
from tests.helpers.deploy import DEPLOY

BACKUP = DEPLOY / "stud-kiosk-backup"

pytestmark = pytest.mark.skipif(
    shutil.which("sqlite3") is None, reason="the sqlite3 command is not installed (Debian sqlite3)"
)


def backup(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    full = {"PATH": os.environ["PATH"], **env}
    return subprocess.run(
        ["bash", str(BACKUP), *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=60,
        check=False,
    )


def test_backup_of_a_live_wal_database_is_a_sound_snapshot(tmp_path: Path) -> None:
    db = tmp_path / "instance" / "stud-kiosk.sqlite3"
    db.parent.mkdir()
    store = Store(f"sqlite:///{db}")
    hand = store.begin_hand(1, {"game": "seven-card-stud"})
    for seq in range(200):
        store.append_event(hand, seq, {"type": "bet", "seq": seq}, source="touch")
    # Live: the store's connection is open, the log is in the WAL, and a writer keeps writing.
    wal = Path(f"{db}-wal")
    assert wal.exists() and wal.stat().st_size > 0
    stop = threading.Event()
    written = [200]

    def keep_writing() -> None:
        while not stop.is_set():
            store.append_event(hand, written[0], {"type": "bet", "seq": written[0]}, source="touch")
            written[0] += 1

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        time.sleep(0.2)
        done = backup(
            {
                "STUD_KIOSK_DATABASE_URL": f"sqlite:///{db}",
                "STUD_KIOSK_BACKUP_DIR": str(tmp_path / "backups"),
            }
        )
    finally:
        stop.set()
        writer.join()
    assert done.returncode == 0, done.stderr
    copies = sorted((tmp_path / "backups").iterdir())
    assert [c.name.endswith("_nightly.sqlite3") for c in copies] == [True]
    copy = copies[0]
    assert not Path(f"{copy}-wal").exists()
    conn = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        seqs = [row[0] for row in conn.execute("SELECT seq FROM events ORDER BY seq")]
    finally:
        conn.close()
    # Every event written before the backup, and a snapshot without holes.
    assert len(seqs) >= 200
    assert seqs == list(range(len(seqs)))
    assert len(seqs) <= written[0]
    store.close()


def test_old_copies_go_but_the_newest_stay(tmp_path: Path) -> None:
    db = tmp_path / "stud-kiosk.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    backups = tmp_path / "backups"
    backups.mkdir()
    month_ago = time.time() - 30 * 86400
    old = [backups / f"stud-kiosk_2026-01-{day:02d}_043000_nightly.sqlite3" for day in range(1, 8)]
    for path in old:
        shutil.copy(db, path)
        os.utime(path, (month_ago, month_ago))
    unrelated = backups / "notes.txt"
    unrelated.write_text("kept", encoding="utf-8")
    os.utime(unrelated, (month_ago, month_ago))
    env = {
        "STUD_KIOSK_DATABASE_URL": f"sqlite:///{db}",
        "STUD_KIOSK_BACKUP_DIR": str(backups),
        "STUD_KIOSK_BACKUP_KEEP_DAYS": "3",
    }
    done = backup(env, "--tag", "pre-upgrade")
    assert done.returncode == 0, done.stderr
    left = sorted(p.name for p in backups.iterdir())
    new = [name for name in left if name.endswith("_pre-upgrade.sqlite3")]
    assert len(new) == 1
    # The new copy and the two newest old ones: three copies, as many as the days kept.
    assert left == sorted([*new, old[-1].name, old[-2].name, "notes.txt"])
    assert done.stdout.count("removed old copy") == 5


def test_refusals_and_nothing_to_do(tmp_path: Path) -> None:
    env = {"STUD_KIOSK_BACKUP_DIR": str(tmp_path / "b")}
    done = backup({**env, "STUD_KIOSK_BACKUP_KEEP_DAYS": "two weeks"})
    assert done.returncode == 2
    assert "must be a whole number of days, 1 or more" in done.stderr
    done = backup({**env, "STUD_KIOSK_BACKUP_KEEP_DAYS": "0"})
    assert done.returncode == 2
    done = backup(env, "--tag", "../x")
    assert done.returncode == 2 and "may hold only letters" in done.stderr
    done = backup({**env, "STUD_KIOSK_DATABASE_URL": "postgresql+psycopg://room@db/studroom"})
    assert done.returncode == 0 and "not SQLite" in done.stdout
    done = backup({**env, "STUD_KIOSK_DATABASE_URL": f"sqlite:///{tmp_path}/none.sqlite3"})
    assert done.returncode == 0 and "no database yet" in done.stdout
    assert not (tmp_path / "b").exists()
