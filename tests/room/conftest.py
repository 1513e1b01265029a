"""Real servers for the card room tests: PostgreSQL and Redis (tests/helpers/servers.py), one of
each per test module."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from tests.helpers.servers import Postgres, Redis, postgres_bin


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    programs = postgres_bin()
    if programs is None:
        pytest.skip("PostgreSQL is not installed (Debian package postgresql)")
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is needed to run PostgreSQL as nobody under root")
    server = Postgres(programs)
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(scope="module")
def redis_server() -> Iterator[Redis]:
    program = shutil.which("redis-server")
    if program is None:
        pytest.skip("redis-server is not installed (Debian package redis-server)")
    server = Redis(program)
    try:
        yield server.start()
    finally:
        server.close()
