"""The real server's model (gevent, connection limits): under a crowd of screens (the short version
of ``tests/bench/bench_crowd.py``) the dealer is answered while more spectators are connected than
the server once had threads; other machines cannot take the connections the kiosk's own screens
need; a camera that waits inside OpenCV holds no one up."""

from __future__ import annotations

import copy
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager

import pytest
import requests
import socketio

from tests.conftest import LiveKiosk
from tests.kiosk import driver

pytestmark = pytest.mark.slow

#: seconds the dealer waits for any answer in these tests: far more than it takes on a quiet
#: machine (tests/bench/bench_crowd.py measures that), far less than never
PATIENCE = 8.0


@contextmanager
def spectators(url: str, websocket: int, polling: int) -> Iterator[list[socketio.Client]]:
    """``websocket`` + ``polling`` spectator screens connected (and left connected) meanwhile."""
    clients: list[socketio.Client] = []

    def connect(transport: str) -> socketio.Client:
        client = socketio.Client(reconnection=False)
        client.connect(url, auth={"role": "spectator", "lang": "en"}, transports=[transport],
                       wait_timeout=30)
        return client

    with ExitStack() as stack, ThreadPoolExecutor(16) as pool:
        stack.callback(lambda: [c.disconnect() for c in clients])
        wanted = ["websocket"] * websocket + ["polling"] * polling
        clients.extend(pool.map(connect, wanted))
        assert all(c.connected for c in clients)
        yield clients


def test_the_dealer_is_answered_with_a_crowd_of_screens_open(
    live_kiosk: Callable[..., LiveKiosk],
) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    http.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP)).raise_for_status()
    with spectators(server.url, websocket=110, polling=20) as crowd:
        # a page on a new connection, the JSON API, and a new dealer socket that deals
        page = requests.get(server.url + "/dealer", headers={"Cookie": server.cookie_header(http)},
                            timeout=PATIENCE)
        assert page.status_code == 200
        assert http.post(server.url + "/api/hands", timeout=PATIENCE).status_code == 200
        dealer = socketio.Client(reconnection=False)
        dealer.connect(server.url, auth={"role": "dealer", "lang": "en"},
                       headers={"Cookie": server.cookie_header(http)},
                       transports=["websocket"], wait_timeout=PATIENCE)
        try:
            view = dealer.call("sync", None, timeout=PATIENCE)
            event = driver.next_event(view)
            assert dealer.call("act", event, timeout=PATIENCE) == {"ok": True}
        finally:
            dealer.disconnect()
        # and every screen of the crowd is still there, and told
        time.sleep(0.5)
        assert sum(c.connected for c in crowd) == len(crowd)


def _open_from(host: str, server: LiveKiosk) -> socket.socket:
    """An idle TCP connection to the server from ``host`` (another loopback address stands for
    another machine of the LAN)."""
    return socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                    source_address=(host, 0))


def _answer(conn: socket.socket) -> bytes:
    conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: kiosk\r\nConnection: close\r\n\r\n")
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    return data


def test_other_machines_cannot_take_the_kiosks_own_connections(
    live_kiosk: Callable[..., LiveKiosk],
) -> None:
    server = live_kiosk(env={"STUD_KIOSK_CONNECTIONS": "40",
                             "STUD_KIOSK_CONNECTIONS_PER_ADDRESS": "12"})
    held: list[socket.socket] = []
    try:
        # one machine holds its share of connections: its next one is refused in words
        held += [_open_from("127.0.0.2", server) for _ in range(12)]
        time.sleep(0.3)
        refused = _answer(_open_from("127.0.0.2", server))
        assert refused.startswith(b"HTTP/1.1 503"), refused[:200]
        assert b"connections" in refused
        # other machines take every connection but this machine's reserve (4 of 40)
        for n in range(3, 6):
            held += [_open_from(f"127.0.0.{n}", server) for _ in range(12)]
        time.sleep(0.3)
        assert _answer(_open_from("127.0.0.9", server)).startswith(b"HTTP/1.1 503")
        # this machine's own screens are still answered
        assert requests.get(server.url + "/api/health", timeout=PATIENCE).ok
        # and a machine that lets its connections go is answered again
        for conn in held[:12]:
            conn.close()
        time.sleep(0.5)
        assert b"200 OK" in _answer(_open_from("127.0.0.2", server)).split(b"\r\n")[0]
    finally:
        for conn in held:
            conn.close()


def test_a_camera_waiting_inside_opencv_holds_no_one_up(
    live_kiosk: Callable[..., LiveKiosk],
) -> None:
    # a network camera that takes connections and never sends a frame: OpenCV waits 30 s in C
    # for it at each opening
    silent = socket.create_server(("127.0.0.1", 0))
    taken: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                taken.append(silent.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    try:
        camera = f"http://127.0.0.1:{silent.getsockname()[1]}/stream.mjpg"
        server = live_kiosk(env={"STUD_KIOSK_CAMERA": camera})
        deadline = time.monotonic() + 5
        while not taken and time.monotonic() < deadline:
            time.sleep(0.05)
        assert taken, "the kiosk did not try the camera"
        for _ in range(10):  # while OpenCV waits for the camera, the pages are answered
            assert requests.get(server.url + "/api/health", timeout=PATIENCE).ok
            time.sleep(0.2)
    finally:
        silent.close()
        for conn in taken:
            conn.close()
