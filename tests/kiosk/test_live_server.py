"""The real server (``stud-kiosk serve``: gunicorn, gevent, simple-websocket) with real clients:
a spectator's raw Socket.IO traffic over a whole hand, and a kill -9 in the middle of a hand."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
import socketio

from tests.conftest import LiveKiosk
from tests.helpers.sockets import RecordingClient, wait_for
from tests.kiosk import driver

pytestmark = pytest.mark.slow


def set_up_table(server: LiveKiosk) -> Any:
    dealer = server.dealer_session()
    answer = dealer.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP))
    assert answer.status_code == 200, answer.text
    return dealer


def test_a_spectator_never_receives_a_hidden_card(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    http = set_up_table(server)
    tv = RecordingClient(reconnection=False)
    tv.connect(server.url, auth={"role": "spectator", "lang": "en"}, transports=["websocket"])
    dealer = socketio.Client(reconnection=False)
    dealer.connect(server.url, auth={"role": "dealer", "lang": "en"},
                   headers={"Cookie": server.cookie_header(http)}, transports=["websocket"])
    try:
        assert dealer.call("start_hand", None, timeout=10) == {"ok": True}
        before_show = None
        entries = 0
        while True:
            view = dealer.call("sync", None, timeout=10)
            event = driver.next_event(view)
            if event is None:
                break
            if event["type"] in ("show", "muck") and before_show is None:
                before_show = len(tv.raw)
            ack = dealer.call("act", event, timeout=10)
            assert ack == {"ok": True}, (event, ack)
            entries += 1
        wait_for(lambda: bool(tv.states) and tv.states[-1]["hand"]["finished"])
        # a control event from the spectator side is refused and changes nothing
        refused = tv.call("undo", None, timeout=10)
        assert refused["ok"] is False and "read-only" in refused["error"]
        assert dealer.call("sync", None, timeout=10)["hand"]["finished"]
    finally:
        tv.disconnect()
        dealer.disconnect()
    assert entries > 25 and len(tv.states) >= entries
    assert before_show is not None and before_show > 20
    traffic = "\n".join(tv.raw)
    for card in driver.NEVER_PUBLIC:
        assert f'"{card}"' not in traffic, f"{card} reached a spectator"
    early = "\n".join(tv.raw[:before_show])
    for card in driver.SHOWN_LATER:
        assert f'"{card}"' not in early, f"{card} reached a spectator before it was shown"
    # and the traffic is really the table: up cards and, at the end, the shown hands
    assert '"5h"' in early and '"3c"' in traffic and '"As"' in traffic
    final = tv.states[-1]["hand"]["result"]["pots"][0]
    assert {s["half"] for s in final["shares"]} == {"high", "low"}
    assert json.dumps(tv.states[-1]).count('"card": null') >= 3  # Bruno's mucked downs: backs


def test_kill_9_mid_hand_and_the_hand_resumes(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    http = set_up_table(server)
    assert http.post(server.url + "/api/hands").status_code == 200
    for _ in range(16):
        view = http.get(server.url + "/api/state").json()
        answer = http.post(server.url + "/api/events", json=driver.next_event(view))
        assert answer.status_code == 200, answer.text
    dealer_before = http.get(server.url + "/api/state").json()
    tv_before = http.get(server.url + "/api/state", params={"as": "spectator"}).json()
    assert dealer_before["hand"]["prompt"]["kind"] in ("act", "deal")

    tv = RecordingClient(reconnection=True, reconnection_delay=0.2, reconnection_delay_max=0.5)
    tv.connect(server.url, auth={"role": "spectator", "lang": "en"}, transports=["websocket"])
    wait_for(lambda: bool(tv.states))
    tv.got_state.clear()
    server.kill()  # SIGKILL: no shutdown, no flush beyond what was committed
    time.sleep(0.5)
    server.start()
    try:
        # the spectator reconnects by itself and gets the state again
        assert tv.got_state.wait(15), "the spectator did not reconnect"
        dealer_after = http.get(server.url + "/api/state").json()
        tv_after = http.get(server.url + "/api/state", params={"as": "spectator"}).json()
        for view in (dealer_before, dealer_after, tv_before, tv_after):
            view.pop("version")
        assert dealer_after == dealer_before
        assert tv_after == tv_before
        resynced = dict(tv.states[-1])
        resynced.pop("version")
        assert resynced == tv_before
        # and the hand plays on to the end
        while True:
            event = driver.next_event(http.get(server.url + "/api/state").json())
            if event is None:
                break
            assert http.post(server.url + "/api/events", json=event).status_code == 200
        final = http.get(server.url + "/api/state").json()["hand"]
        assert final["finished"] and len(final["result"]["pots"][0]["shares"]) == 2
        hands = http.get(server.url + "/api/hands").json()
        assert [h["status"] for h in hands] == ["finished"]
    finally:
        tv.disconnect()


def test_control_needs_the_dealer_session_over_http(live_kiosk: Callable[..., LiveKiosk]) -> None:
    import requests

    server = live_kiosk()
    dealer = set_up_table(server)
    stranger = requests.Session()
    assert stranger.post(server.url + "/api/hands").status_code in (400, 403)
    assert stranger.get(server.url + "/api/hands").status_code == 403
    refused = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        refused.connect(server.url, auth={"role": "dealer", "lang": "en"},
                        transports=["websocket"])
    # a page of another site cannot ride on the dealer's cookie (long polling: the client sends
    # exactly the Origin given)
    cross_site = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        cross_site.connect(server.url, auth={"role": "dealer", "lang": "en"},
                           headers={"Cookie": server.cookie_header(dealer),
                                    "Origin": "http://evil.example"},
                           transports=["polling"])
    same_site = socketio.Client(reconnection=False)
    same_site.connect(server.url, auth={"role": "dealer", "lang": "en"},
                      headers={"Cookie": server.cookie_header(dealer), "Origin": server.url},
                      transports=["polling"])
    assert same_site.call("sync", None, timeout=10)["role"] == "dealer"
    same_site.disconnect()
