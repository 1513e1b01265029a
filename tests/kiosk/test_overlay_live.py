"""The stream overlay on the wire, against the real server (``stud-kiosk serve``): a client of the
overlay records every byte it receives, with the time, over a whole hand; no hole card arrives
before the moment it was entered plus the house's delay, and the spectator's public page, watching
at the same time, never gets one."""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import socketio

from tests.conftest import LiveKiosk
from tests.helpers.sockets import RecordingClient, wait_for
from tests.kiosk import driver

pytestmark = pytest.mark.slow

DELAY = 2


class TimedRecorder(socketio.Client):  # type: ignore[misc]
    """A python-socketio client that keeps every raw packet it receives and when it came."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.raw: list[tuple[float, str]] = []
        self.lock = threading.Lock()

    def _handle_eio_message(self, data: Any) -> None:
        with self.lock:
            self.raw.append((time.monotonic(), data if isinstance(data, str) else repr(data)))
        super()._handle_eio_message(data)

    def first(self, text: str) -> float | None:
        with self.lock:
            return next((at for at, packet in self.raw if text in packet), None)

    def frames(self) -> list[tuple[float, dict[str, Any]]]:
        """The ``frame`` events received, decoded, with their times."""
        with self.lock:
            packets = list(self.raw)
        found = []
        for at, packet in packets:
            if packet.startswith("2/overlay,") and '"frame"' in packet:
                name, payload = json.loads(packet[len("2/overlay,"):])
                if name == "frame":
                    found.append((at, payload))
        return found

    def finished_at(self) -> float | None:
        return next((at for at, f in self.frames()
                     if f["state"] and f["state"]["hand"] and f["state"]["hand"]["finished"]), None)


def test_no_hole_card_reaches_the_overlay_before_its_time(
    live_kiosk: Callable[..., LiveKiosk],
) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    setup = copy.deepcopy(driver.SETUP)
    setup["tv"] = {"odds": True, "replays": True, "overlay_delay": DELAY}
    assert http.put(server.url + "/api/setup", json=setup).status_code == 200
    link = http.get(server.url + "/api/overlay").json()
    token = link["url"].rsplit("/", 1)[1]
    assert link["delay"] == DELAY

    intruder = socketio.Client(reconnection=False)
    wrong = token[:-1] + ("y" if token.endswith("x") else "x")  # one character off, never equal
    with pytest.raises(socketio.exceptions.ConnectionError):
        intruder.connect(server.url, namespaces=["/overlay"], auth={"token": wrong},
                         transports=["websocket"])
    overlay = TimedRecorder(reconnection=False)
    overlay.connect(server.url, namespaces=["/overlay"], auth={"token": token, "lang": "en"},
                    transports=["websocket"])
    tv = RecordingClient(reconnection=False)
    tv.connect(server.url, auth={"role": "spectator", "lang": "en"}, transports=["websocket"])
    dealer = socketio.Client(reconnection=False)
    dealer.connect(server.url, auth={"role": "dealer", "lang": "en"},
                   headers={"Cookie": server.cookie_header(http)}, transports=["websocket"])
    entered: dict[str, float] = {}
    try:
        assert dealer.call("start_hand", None, timeout=10) == {"ok": True}
        while True:
            event = driver.next_event(dealer.call("sync", None, timeout=10))
            if event is None:
                break
            # the time before sending: the server takes the entry after it, and the
            # acknowledgement may come back late on a loaded machine
            sent = time.monotonic()
            if event["type"] == "deal" and not event["up"] and event["card"]:
                entered[event["card"]] = sent
            assert dealer.call("act", event, timeout=10) == {"ok": True}, event
        finished = sent  # the entry that ended the hand
        wait_for(lambda: overlay.finished_at() is not None, timeout=DELAY + 15)
    finally:
        for client in (overlay, tv, dealer):
            client.disconnect()
    assert set(entered) == {"As", "2s", "Kd", "Qd", "3d", "4s"}
    for card, at in entered.items():
        arrived = overlay.first(f'"{card}"')
        assert arrived is not None, f"{card} never reached the overlay"
        assert arrived - at >= DELAY, f"{card} reached the overlay {arrived - at:.2f} s after"
    assert overlay.finished_at() >= finished + DELAY  # type: ignore[operator]
    # the overlay's frames carry odds computed with the hole cards
    assert any(f["odds"] and f["state"]["hand"] and not f["state"]["hand"]["finished"]
               for _, f in overlay.frames())
    # the spectator's public page got odds, and never a hole card that stayed hidden
    traffic = "\n".join(tv.raw)
    assert '"odds"' in traffic
    for card in driver.NEVER_PUBLIC:
        assert f'"{card}"' not in traffic, f"{card} reached a spectator"
