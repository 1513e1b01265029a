"""Socket.IO in process (Flask-SocketIO's test client): roles, refusals, live updates."""

from __future__ import annotations

import copy
from typing import Any

from kiosk.extensions import socketio
from tests.kiosk import driver


def states(client: Any) -> list[dict[str, Any]]:
    return [m["args"][0] for m in client.get_received() if m["name"] == "state"]


def test_a_spectator_gets_the_state_and_cannot_control_anything(kiosk_app: Any) -> None:
    table = kiosk_app.extensions["stud_table"]
    table.configure(copy.deepcopy(driver.SETUP))
    table.start_hand()
    spectator = socketio.test_client(kiosk_app, auth={"role": "spectator", "lang": "en"})
    assert spectator.is_connected()
    (first,) = states(spectator)
    assert first["role"] == "spectator" and first["hand"]["prompt"]["kind"] == "deal"
    version = table.version
    for name, payload in (
        ("act", {"type": "deal", "seat": 1, "card": "As", "up": True}),
        ("undo", None),
        ("misdeal", None),
        ("start_hand", None),
        ("next_hand", None),
    ):
        ack = spectator.emit(name, payload, callback=True)
        assert ack["ok"] is False and "read-only" in ack["error"], name
    assert table.version == version and table.hand is not None and not table.hand.events
    assert states(spectator) == []


def test_a_dealer_connection_needs_the_pin_session(kiosk_app: Any, dealer_client: Any) -> None:
    stranger = socketio.test_client(kiosk_app, auth={"role": "dealer", "lang": "en"})
    assert not stranger.is_connected()
    dealer = socketio.test_client(
        kiosk_app, flask_test_client=dealer_client, auth={"role": "dealer", "lang": "it"}
    )
    assert dealer.is_connected()
    (state,) = states(dealer)
    assert state["role"] == "dealer" and state["lang"] == "it"


def test_dealer_taps_reach_every_screen_in_its_language(kiosk_app: Any, dealer_client: Any) -> None:
    table = kiosk_app.extensions["stud_table"]
    table.configure(copy.deepcopy(driver.SETUP))
    dealer = socketio.test_client(
        kiosk_app, flask_test_client=dealer_client, auth={"role": "dealer", "lang": "en"}
    )
    tv_it = socketio.test_client(kiosk_app, auth={"role": "spectator", "lang": "it"})
    dealer.get_received(), tv_it.get_received()
    assert dealer.emit("start_hand", None, callback=True) == {"ok": True}
    ack = dealer.emit("act", {"type": "deal", "seat": 1, "card": "As", "up": False}, callback=True)
    assert ack == {"ok": True}
    tv_state = states(tv_it)[-1]
    assert tv_state["table"]["game_name"] == "Stud a sette carte hi/lo"
    anna = tv_state["hand"]["seats"][0]
    assert anna["cards"] == [{"card": None, "up": False, "public": False}]
    dealer_state = states(dealer)[-1]
    assert dealer_state["hand"]["seats"][0]["cards"][0]["card"] == "As"
    refused = dealer.emit("act", {"type": "deal", "seat": 2, "card": "As", "up": True},
                          callback=True)
    assert refused["ok"] is False and "As" in refused["error"]
    undone = dealer.emit("undo", None, callback=True)
    # the undo says what it took back, so that the screen can tell the dealer
    assert undone["ok"] is True and undone["undone"]["card"] == "As"
    assert "A♠" in undone["undone_text"] and "Anna" in undone["undone_text"]
    assert states(tv_it)[-1]["hand"]["seats"][0]["cards"] == []
    bad = dealer.emit("act", ["not", "an", "object"], callback=True)
    assert bad["ok"] is False and "object" in bad["error"]


def test_sync_answers_with_the_current_state(kiosk_app: Any) -> None:
    tv = socketio.test_client(kiosk_app, auth={"role": "spectator", "lang": "en"})
    reply = tv.emit("sync", None, callback=True)
    assert reply["role"] == "spectator" and reply["hand"] is None


def test_refusals_come_in_the_dealers_language(kiosk_app: Any, dealer_client: Any) -> None:
    table = kiosk_app.extensions["stud_table"]
    table.configure(copy.deepcopy(driver.SETUP))
    table.start_hand()
    table.submit({"type": "deal", "seat": 1, "card": "As", "up": False})
    dealer = socketio.test_client(
        kiosk_app, flask_test_client=dealer_client, auth={"role": "dealer", "lang": "it"}
    )
    refused = dealer.emit("act", {"type": "deal", "seat": 2, "card": "As", "up": True},
                          callback=True)
    assert refused["ok"] is False and "già in questa mano" in refused["error"]
    tv = socketio.test_client(kiosk_app, auth={"role": "spectator", "lang": "it"})
    assert "sola lettura" in tv.emit("undo", None, callback=True)["error"]
