"""deploy/room-server.sh against a temporary root: the PostgreSQL and Redis settings it lays down,
the passwords made once, the backup units; and Redis accepts the settings it writes."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import free_port
from tests.helpers.deploy import DEPLOY, SYSTEM_UNITS, analyze, snapshot


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(DEPLOY / "room-server.sh"), "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def server_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("room-server")
    cluster = root / "etc/postgresql/15/main"
    cluster.mkdir(parents=True)
    (cluster / "conf.d").mkdir()
    (cluster / "pg_hba.conf").write_text(
        "local all postgres peer\nhost all all 127.0.0.1/32 scram-sha-256\n", encoding="utf-8"
    )
    (root / "etc/redis").mkdir(parents=True)
    (root / "etc/redis/redis.conf").write_text("bind 127.0.0.1 -::1\nport 6379\n", encoding="utf-8")
    return root


def test_the_room_server_settings_and_the_lines_for_the_kiosks(server_root: Path) -> None:
    first = run(server_root, "--keep-days", "30")
    assert first.returncode == 0, first.stderr
    secrets = (server_root / "etc/stud-room/secrets").read_text(encoding="utf-8")
    db = re.search(r"^DB_PASSWORD=([0-9a-f]{32})$", secrets, re.M)
    queue = re.search(r"^REDIS_PASSWORD=([0-9a-f]{32})$", secrets, re.M)
    assert db and queue and db.group(1) != queue.group(1)
    assert (server_root / "etc/stud-room/secrets").stat().st_mode & 0o777 == 0o600
    cluster = server_root / "etc/postgresql/15/main"
    assert "listen_addresses = '*'" in (cluster / "conf.d/stud-room.conf").read_text()
    hba = (cluster / "pg_hba.conf").read_text(encoding="utf-8").splitlines()
    assert hba[0] == "local all postgres peer" and hba[-1] == (
        "host studroom stud samenet scram-sha-256"
    )
    redis_conf = (server_root / "etc/redis/redis.conf").read_text(encoding="utf-8")
    assert redis_conf.rstrip().endswith("include /etc/redis/stud-room.conf")
    room_conf = (server_root / "etc/redis/stud-room.conf").read_text(encoding="utf-8")
    assert f"requirepass {queue.group(1)}" in room_conf
    service = (server_root / "etc/systemd/system/stud-room-backup.service").read_text()
    assert "Environment=STUD_ROOM_BACKUP_KEEP_DAYS=30" in service
    assert (server_root / "usr/local/sbin/stud-room-backup").read_bytes() == (
        DEPLOY / "stud-room-backup"
    ).read_bytes()
    assert f"STUD_KIOSK_DATABASE_URL=postgresql+psycopg://stud:{db.group(1)}@" in first.stdout
    assert f"STUD_KIOSK_MESSAGE_QUEUE=redis://:{queue.group(1)}@" in first.stdout
    assert "would run: systemctl restart postgresql" in first.stdout
    assert "CREATE ROLE stud LOGIN PASSWORD" in first.stdout


def test_a_second_run_changes_nothing_and_keeps_the_passwords(server_root: Path) -> None:
    if not (server_root / "etc/stud-room/secrets").exists():
        assert run(server_root, "--keep-days", "30").returncode == 0
    before = snapshot(server_root)
    again = run(server_root, "--keep-days", "30")
    assert again.returncode == 0, again.stderr
    assert "nothing changed" in again.stdout
    assert "would run: systemctl restart" not in again.stdout
    assert snapshot(server_root) == before


def test_bad_options_are_refused(tmp_path: Path) -> None:
    done = run(tmp_path, "--keep-days", "0")
    assert done.returncode == 2 and "a whole number of days, 1 or more" in done.stderr
    done = run(tmp_path, "--tables", "3")
    assert done.returncode == 2 and "unknown option '--tables'" in done.stderr


def test_systemd_accepts_the_backup_units(server_root: Path) -> None:
    if not (server_root / "etc/systemd/system/stud-room-backup.timer").exists():
        assert run(server_root).returncode == 0
    program = analyze()
    units = server_root / "usr/lib/systemd/system"
    if not units.exists():
        shutil.copytree(SYSTEM_UNITS, units, symlinks=True)
    done = subprocess.run(
        [
            program,
            "verify",
            f"--root={server_root}",
            "/etc/systemd/system/stud-room-backup.service",
            "/etc/systemd/system/stud-room-backup.timer",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == ""


def test_redis_runs_with_the_settings_and_wants_the_password(server_root: Path) -> None:
    program = shutil.which("redis-server")
    if program is None:
        pytest.skip("redis-server is not installed (Debian package redis-server)")
    import redis

    if not (server_root / "etc/redis/stud-room.conf").exists():
        assert run(server_root).returncode == 0
    password = re.search(
        r"^REDIS_PASSWORD=(\w+)$",
        (server_root / "etc/stud-room/secrets").read_text(encoding="utf-8"),
        re.M,
    )
    assert password
    port = free_port()
    process = subprocess.Popen(
        [
            program,
            str(server_root / "etc/redis/stud-room.conf"),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(server_root),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        anonymous = redis.Redis(port=port, socket_connect_timeout=1)
        deadline = time.monotonic() + 15
        while True:
            try:
                anonymous.ping()
                raise AssertionError("Redis answered without the password")
            except redis.AuthenticationError:
                break
            except redis.ConnectionError:
                assert process.poll() is None, process.stdout.read() if process.stdout else ""
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)
        client = redis.Redis.from_url(f"redis://:{password.group(1)}@127.0.0.1:{port}/0")
        assert client.ping() is True
        assert client.config_get("save") == {"save": ""}
    finally:
        process.terminate()
        process.wait(timeout=10)
