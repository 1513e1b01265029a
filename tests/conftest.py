"""Shared fixtures: an in-process kiosk app, a real kiosk server in a subprocess, Chromium.

- ``kiosk_app`` / ``dealer_client``: ``create_app`` on a fresh instance folder (Flask test client).
- ``live_kiosk``: a factory that starts ``stud-kiosk serve`` (gunicorn, gevent, simple-websocket)
  on a free loopback port with its own instance folder; the returned :class:`LiveKiosk` can be
  killed with SIGKILL and started again on the same folder.
- ``chromium``: Debian's Chromium headless shell driven by Playwright (never a browser download),
  one per worker.

``./run tests`` runs the suite on every core (pytest-xdist); tests/helpers/parallel.py keeps the
tests that share a module- or package-scoped fixture on one worker and hands out the longest work
first. tests/README.md says how to write a test that runs in parallel.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.launcher import Forked, Launcher

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
#: Debian's Chromium, its headless shell first (what Playwright runs headless: no browser
#: window behind the pages, a fifth less CPU per browser test than the whole browser)
CHROMIUM = next((path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
                 if Path(path).exists()), "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
TEST_PIN = "2468"
pytest_plugins = ["tests.helpers.parallel"]
#: what a server says when its port is taken (gunicorn, the OS)
PORT_TAKEN = ("Connection in use", "Address already in use")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def csrf_from(html: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
    assert match, "no CSRF token in the page"
    return match.group(1)


# -- in-process ----
@pytest.fixture
def kiosk_app(tmp_path: Path) -> Iterator[Any]:
    from kiosk import create_app

    instance = tmp_path / "instance"
    app = create_app({
        "TESTING": True,
        "INSTANCE_PATH": str(instance),
        "DATABASE_URL": f"sqlite:///{instance / 'stud-kiosk.sqlite3'}",
        "MESSAGE_QUEUE": None,
        "TABLE_ID": 1,
        "DEFAULT_LANG": "en",
    })
    yield app
    app.extensions["stud_store"].close()


@pytest.fixture
def dealer_client(kiosk_app: Any) -> Any:
    """A test client with the dealer PIN set and a dealer session."""
    from kiosk.views.auth import set_pin

    set_pin(kiosk_app.extensions["stud_store"], TEST_PIN)
    client = kiosk_app.test_client()
    with client.session_transaction() as sess:
        sess.update(kiosk_app.extensions["stud_dealer_sessions"].grant())
    return client


# -- a real server ----
class LiveKiosk:
    """``stud-kiosk serve`` in a process of its own on 127.0.0.1: this checkout's, forked by the
    test process's launcher (tests/helpers/launcher.py), or ``program``, the command that runs
    ``stud-kiosk`` (an installed one), started as a new program from ``cwd``."""

    def __init__(
        self,
        instance: Path,
        env: dict[str, str] | None = None,
        program: Sequence[str] | None = None,
        cwd: Path = ROOT,
    ) -> None:
        self.instance = instance
        self.program = list(program) if program is not None else None
        self.cwd = cwd
        self.extra_env = env or {}
        self.process: subprocess.Popen[bytes] | Forked | None = None
        self._listen_on(free_port())

    def _listen_on(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.instance.parent / f"server-{self.port}.log"

    def start(self, timeout: float = 20.0) -> LiveKiosk:
        for _ in range(3):
            if self._launch(timeout):
                return self
            # Another process took the free port before the server bound it (tests run in
            # parallel): the next try takes another one.
            self.kill()
            self._listen_on(free_port())
        raise RuntimeError(f"no free port: {self.log.read_text(errors='replace')[-2000:]}")

    def _launch(self, timeout: float) -> bool:
        """Start the server; True once it answers, False if its port was taken."""
        import requests

        # the test's own configuration only: never a database or queue of the developer's shell
        env = {k: v for k, v in os.environ.items() if not k.startswith("STUD_KIOSK_")}
        env.update(self.extra_env)
        env["STUD_KIOSK_INSTANCE"] = str(self.instance)
        env.setdefault("STUD_KIOSK_LANG", "en")
        argv = ["serve", "--host", "127.0.0.1", "--port", str(self.port)]
        with self.log.open("ab") as log:
            since = log.tell()  # this start's output: the log goes on over restarts
            if self.program is None:
                self.process = Launcher.start_server(argv, env, self.cwd, self.log)
            else:
                self.process = subprocess.Popen(
                    [*self.program, *argv], cwd=self.cwd, env=env, stdout=log,
                    stderr=subprocess.STDOUT, start_new_session=True,
                )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            output = self.log.read_bytes()[since:].decode(errors="replace")
            if any(taken in output for taken in PORT_TAKEN):
                return False
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {output[-2000:]}")
            try:
                if requests.get(self.url + "/api/health", timeout=1).ok:
                    return True
            except requests.RequestException:
                time.sleep(0.1)
        raise RuntimeError(f"server did not answer: {self.log.read_text(errors='replace')[-2000:]}")

    def kill(self) -> None:
        """SIGKILL the whole server (master and worker), as a power cut would."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def worker_pids(self) -> list[int]:
        assert self.process is not None
        out = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]

    def dealer_session(self, pin: str = TEST_PIN) -> Any:
        """A ``requests.Session`` with the dealer PIN session (setting the PIN at first start)."""
        import requests

        session = requests.Session()
        page = session.get(self.url + "/login")
        page.raise_for_status()
        if "/pin/new" in page.url:
            token = csrf_from(page.text)
            done = session.post(self.url + "/pin/new",
                                data={"csrf_token": token, "pin": pin, "pin_again": pin})
        else:
            token = csrf_from(page.text)
            done = session.post(self.url + "/login", data={"csrf_token": token, "pin": pin})
        done.raise_for_status()
        assert session.cookies.get("session"), "no session cookie after the PIN"
        token = session.get(self.url + "/api/csrf").json()["csrf_token"]
        session.headers["X-CSRFToken"] = token
        return session

    def cookie_header(self, session: Any) -> str:
        return "; ".join(f"{k}={v}" for k, v in session.cookies.items())

    def signed_in(self, context: Any, session: Any) -> Any:
        """A browser context (Playwright) given the cookies of a ``requests`` session of this
        kiosk (:meth:`dealer_session`), so that its pages open as that dealer; returns it."""
        context.add_cookies([{"name": k, "value": v, "url": self.url}
                             for k, v in session.cookies.items()])
        return context


@pytest.fixture
def live_kiosk(tmp_path: Path) -> Iterator[Callable[..., LiveKiosk]]:
    servers: list[LiveKiosk] = []

    def start(instance: Path | None = None, env: dict[str, str] | None = None) -> LiveKiosk:
        server = LiveKiosk(instance or tmp_path / "instance", env)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.kill()  # the test is over: nothing waits for a graceful stop


# -- real Chromium ----
@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium-headless-shell (see ./run)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
