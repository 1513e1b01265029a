"""Real PostgreSQL and Redis servers from the Debian packages, started by the tests as their own
processes on loopback ports in temporary folders.

PostgreSQL refuses to run as root: under root the server runs as ``nobody`` (``setpriv``)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from tests.conftest import free_port

POSTGRES_ROOT = Path("/usr/lib/postgresql")
DATABASE = "studroom"
ROLE = "stud"


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's programs (Debian keeps them out of PATH)."""
    found = sorted(
        (p for p in POSTGRES_ROOT.glob("*/bin") if (p / "postgres").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    return found[-1] if found else None


class Postgres:
    """A PostgreSQL cluster of its own: initdb, postgres on 127.0.0.1, one database."""

    def __init__(self, programs: Path) -> None:
        self.programs = programs
        self.folder = Path(tempfile.mkdtemp(prefix="stud-room-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://{ROLE}@127.0.0.1:{self.port}/{DATABASE}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = self.folder / "postgres.log"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
            shutil.chown(self.folder, "nobody", "nogroup")

    def start(self) -> Postgres:
        import psycopg

        subprocess.run(
            [
                *self.as_user,
                str(self.programs / "initdb"),
                "-D",
                str(self.data),
                "-U",
                ROLE,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        self.launch()
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=ROLE, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        return self

    def launch(self) -> None:
        """Start the server on the cluster (again, after :meth:`halt`) and wait until it answers."""
        import psycopg

        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    *self.as_user,
                    str(self.programs / "postgres"),
                    "-D",
                    str(self.data),
                    "-p",
                    str(self.port),
                    "-k",
                    str(self.folder),
                    "-c",
                    "listen_addresses=127.0.0.1",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("postgres exited: " + self.log.read_text(errors="replace"))
            try:
                with psycopg.connect(
                    host="127.0.0.1",
                    port=self.port,
                    user=ROLE,
                    dbname="postgres",
                    connect_timeout=2,
                ):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def halt(self) -> None:
        """Stop the server (fast shutdown), keeping the cluster."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def connect(self) -> object:
        import psycopg

        return psycopg.connect(
            host="127.0.0.1", port=self.port, user=ROLE, dbname=DATABASE, autocommit=True
        )

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.folder, ignore_errors=True)


class Redis:
    """A Redis server of its own on 127.0.0.1, that a test can stop and start again."""

    def __init__(self, program: str) -> None:
        self.program = program
        self.folder = Path(tempfile.mkdtemp(prefix="stud-room-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Redis:
        import redis

        with (self.folder / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(
                [
                    self.program,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.folder),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1)
        deadline = time.monotonic() + 20
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(
                    "redis-server exited: " + (self.folder / "redis.log").read_text()
                )
            try:
                if client.ping():
                    client.close()
                    return self
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
