"""``stud-kiosk serve`` started by forking a process that has already imported the server.

A kiosk server started as a new program spends about 0.85 CPU-s before it answers: Python, then
gunicorn in the master, then gevent, Flask, Flask-SocketIO, SQLAlchemy and the kiosk in the
worker; its own set-up (``create_app``) is 0.03 s of that. The suite starts about 70 servers. The
launcher, one per test process, does the importing once, the way the server's worker does it
(gevent's patches first, then the kiosk and the engine), and forks a server for each start: the
fork runs ``kiosk.cli.main(["serve", ...])`` in a session of its own, in its own folder and
environment, its output in its log. From there on it is the same program: gunicorn's master
forks the gevent worker, which makes the app.

What differs from ``stud-kiosk serve`` run by itself: its master is gevent-patched too (the
worker patches itself first in both). The tests of the program as it is installed and run
(tests/deploy) start it as a new program, with :class:`tests.conftest.LiveKiosk`'s ``program``.

The protocol, one JSON line each way on the launcher's stdin and stdout: ``{"argv", "env",
"cwd", "log"}`` in, ``{"pid"}`` (or ``{"error"}``) out. The launcher reaps its ended children
before each start; a test sees a server's end by its pid (:class:`Forked`).
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

#: what the launcher imports before its first fork: what the server's master imports
PRELOAD = ("gunicorn.app.base", "gunicorn.arbiter")
#: packages whose every module the launcher imports too: ``create_app`` imports the kiosk's parts
#: as it makes them, and the first odds or replay import the engine's batch evaluation (numpy)
PRELOAD_PACKAGES = ("kiosk", "engine")


class Forked:
    """A server forked by the launcher, read like the ``subprocess.Popen`` of one started as a
    new program: ``pid``, :meth:`poll`, :meth:`wait`. The launcher is its parent and reaps it;
    the server's end is seen from here by its pid gone or a zombie."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def poll(self) -> int | None:
        try:
            state = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return -1
        return -1 if state in ("Z", "X") else None

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0.0)
            time.sleep(0.02)
        return -1


class Launcher:
    """The launcher process of this test process, started at its first use."""

    _lock = threading.Lock()
    _process: subprocess.Popen[str] | None = None

    @classmethod
    def start_server(cls, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> Forked:
        with cls._lock:
            if cls._process is None or cls._process.poll() is not None:
                cls._process = subprocess.Popen(
                    [sys.executable, "-m", "tests.helpers.launcher"],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                    cwd=Path(__file__).resolve().parents[2], env=dict(os.environ),
                )
            assert cls._process.stdin is not None and cls._process.stdout is not None
            cls._process.stdin.write(json.dumps(
                {"argv": argv, "env": env, "cwd": str(cwd), "log": str(log)}) + "\n")
            cls._process.stdin.flush()
            answer = json.loads(cls._process.stdout.readline() or '{"error": "launcher ended"}')
        if "error" in answer:
            raise RuntimeError(f"the launcher could not start a server: {answer['error']}")
        return Forked(int(answer["pid"]))


def _serve_forked(request: dict[str, Any]) -> None:
    """In the fork: become the server the request asks for; never returns."""
    code = 1
    try:
        os.setsid()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(null)
        os.close(log)
        from kiosk.cli import main

        code = main(request["argv"])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _reap(waitpid: Any) -> None:
    while True:
        try:
            pid, _ = waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def main() -> None:
    from gevent import monkey

    monkey.patch_all()
    # the process's own fork and wait: the launcher runs no event loop of gevent's
    fork, waitpid = monkey.get_original("os", ["fork", "waitpid"])
    for name in PRELOAD:
        importlib.import_module(name)
    for package in PRELOAD_PACKAGES:
        path = importlib.import_module(package).__path__
        for found in pkgutil.walk_packages(path, package + "."):
            importlib.import_module(found.name)
    for line in sys.stdin:
        _reap(waitpid)
        try:
            request = json.loads(line)
            pid = fork()
        except (ValueError, OSError) as exc:
            print(json.dumps({"error": str(exc)}), flush=True)
            continue
        if pid == 0:
            _serve_forked(request)
        print(json.dumps({"pid": pid}), flush=True)


if __name__ == "__main__":
    main()
