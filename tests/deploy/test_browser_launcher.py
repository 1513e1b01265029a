"""deploy/stud-kiosk-browser with the real Chromium: waits for the server, then opens the page."""

from __future__ import annotations

import http.server
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from tests.helpers.deploy import DEPLOY

PAGE = b"<html><body><h1 id='marker'>dealer page for the launcher test</h1></body></html>"


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.browser
def test_launcher_waits_for_the_server_and_opens_the_dealer_page(tmp_path: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("Chromium is not installed (Debian package chromium)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    port = server.server_address[1]
    # The server comes up after the launcher has started: the launcher must wait for it.
    serving = threading.Event()

    def serve() -> None:
        serving.set()
        server.serve_forever()

    starter = threading.Timer(1.5, serve)
    starter.start()
    profile = tmp_path / "profile"
    (profile / "Default").mkdir(parents=True)
    (profile / "Default" / "Preferences").write_text(
        '{"profile":{"exit_type":"Crashed","exited_cleanly":false}}', encoding="utf-8"
    )
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "STUD_KIOSK_ENV_FILE": str(tmp_path / "no-env"),
        "STUD_KIOSK_PORT": str(port),
        "STUD_KIOSK_BROWSER_PROFILE": str(profile),
        # Headless, and print the page instead of showing it; a run that ends well ends the
        # launcher (a crash would start Chromium again).
        "STUD_KIOSK_BROWSER_OPTIONS": "--headless=new --no-sandbox --disable-gpu "
        "--disable-background-networking --disable-component-update --dump-dom",
    }
    try:
        done = subprocess.run(
            ["bash", str(DEPLOY / "stud-kiosk-browser")],
            capture_output=True,
            text=True,
            env=env,
            timeout=90,
            check=False,
        )
    finally:
        starter.cancel()
        if serving.is_set():
            server.shutdown()
        server.server_close()
    assert done.returncode == 0, done.stderr[-2000:]
    assert "dealer page for the launcher test" in done.stdout
    preferences = (profile / "Default" / "Preferences").read_text(encoding="utf-8")
    assert "Crashed" not in preferences and '"exited_cleanly":false' not in preferences
