"""The TV as a broadcast, in process (Flask-SocketIO's test clients): the house options, the TV's
odds from its public cards only, replays, the stream overlay's link and delay, the hand exports."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest

from engine.odds import OddsSettings, odds, problem
from kiosk.extensions import socketio
from kiosk.table_setup import DEFAULT_TV, parse_form, tv_options
from tests.kiosk import driver


def received(client: Any, name: str, namespace: str | None = None) -> list[Any]:
    return [m["args"][0] for m in client.get_received(namespace) if m["name"] == name]


def set_up(app: Any, loose: bool = True, **tv: Any) -> Any:
    """The scripted hand's table with the TV options given; ``loose`` odds (within two points)
    where a test does not look at their accuracy, so that it runs faster."""
    if loose:
        app.extensions["stud_broadcast"].worker.settings = OddsSettings(margin=0.02)
    setup = copy.deepcopy(driver.SETUP)
    setup["tv"] = {**DEFAULT_TV, **tv}
    table = app.extensions["stud_table"]
    table.configure(setup)
    return table


def play(app: Any, until: int | None = None) -> None:
    """The scripted hand through the table service (all of it, or its first ``until`` entries),
    the broadcast's work done after each entry."""
    table, broadcast = app.extensions["stud_table"], app.extensions["stud_broadcast"]
    if table.hand is None or table.hand.finished:
        table.start_hand()
    done = 0
    while until is None or done < until:
        event = driver.next_event(table.view("dealer", "en"))
        if event is None:
            break
        table.submit(event)
        done += 1
    assert broadcast.worker.idle()


def test_house_options_default_and_from_the_setup_page() -> None:
    assert tv_options({}) == {"odds": True, "replays": True, "overlay_delay": 60}
    assert tv_options({"tv": {"odds": False, "overlay_delay": "x"}})["overlay_delay"] == 60
    current = copy.deepcopy(driver.SETUP)
    form = {"game": "razz", "ante": "1", "bring_in": "2", "small_bet": "4", "big_bet": "8",
            "max_raises": "3", "chip_unit": "1", "dealer": "0", "tv_odds": "on",
            "overlay_delay": "90", "name_1": "A", "active_1": "on", "stack_1": "50",
            "name_2": "B", "active_2": "on", "stack_2": "50"}
    setup, problems = parse_form(form, current)
    assert problems == [] and setup["tv"] == {"odds": True, "replays": False, "overlay_delay": 90}
    _, problems = parse_form({**form, "overlay_delay": "4000"}, current)
    [(field, problem)] = problems
    assert field == "tv.overlay_delay" and problem.text("en") == "a whole number from 0 to 3600."


def test_the_tv_gets_odds_from_the_cards_it_sees(kiosk_app: Any) -> None:
    table = set_up(kiosk_app, loose=False)
    tv = socketio.test_client(kiosk_app, auth={"role": "spectator", "lang": "it"})
    play(kiosk_app, until=9)  # third street dealt: Anna's downs entered, Carla's not
    state = table.view("spectator", "it")
    key = state["hand"]["odds_key"]
    pushed = received(tv, "odds")
    assert pushed and pushed[-1]["key"] == key
    assert tv.emit("odds", None, callback=True) == pushed[-1]
    # the same odds as the engine's from the up cards only: nobody's down card counts
    public = problem("seven-card-stud-hilo", ["?? ?? 5h", "?? ?? 9s", "?? ?? 8h"])
    assert public.key == key
    exact = odds(public, runouts=60_000, seed=1)
    for seat, player in zip((1, 2, 3), exact.players, strict=True):
        assert pushed[-1]["seats"][str(seat)]["equity"] == pytest.approx(player.equity, abs=0.01)
        assert set(pushed[-1]["seats"][str(seat)]) == {"win", "high", "low", "scoop", "equity"}
    assert pushed[-1]["exact"] is False and pushed[-1]["margin"] <= 0.005
    # the dealer never gets odds; entering a down card does not change the TV's odds
    assert "odds_key" not in table.view("dealer", "it")["hand"]
    hand = table.hand
    assert hand is not None and None in [s.card for s in hand.state.seat(3).cards]
    table.submit({"type": "identify", "seat": 3, "card": "3c"})
    assert table.view("spectator", "it")["hand"]["odds_key"] == key


def test_odds_off_the_tv_shows_none(kiosk_app: Any) -> None:
    table = set_up(kiosk_app, odds=False)
    tv = socketio.test_client(kiosk_app, auth={"role": "spectator", "lang": "en"})
    play(kiosk_app, until=12)
    assert "odds_key" not in table.view("spectator", "en")["hand"]
    assert received(tv, "odds") == [] and not tv.emit("odds", None, callback=True)
    assert table.view("spectator", "en")["table"]["tv"] == {"odds": False, "replays": True}


def test_a_finished_hand_is_replayed_with_what_was_public_by_its_end(kiosk_app: Any) -> None:
    set_up(kiosk_app)
    tv = socketio.test_client(kiosk_app, auth={"role": "spectator", "lang": "en"})
    play(kiosk_app)
    (replay,) = received(tv, "replay")
    assert tv.emit("replay", "en", callback=True) == replay
    streets = replay["streets"]
    assert [s["hand"]["street_name"] for s in streets] == [
        "third", "fourth", "fifth", "sixth", "seventh"]
    assert replay["hold"] > 0 and replay["street"] > 0 and replay["now"] is False
    text = json.dumps(replay)
    for card in driver.NEVER_PUBLIC:  # Bruno mucked: his down cards never show
        assert f'"{card}"' not in text
    # Anna and Carla showed: their down cards show from third street on, and count in its odds
    third = streets[0]
    anna = next(s for s in third["hand"]["seats"] if s["seat"] == 1)
    assert [c["card"] for c in anna["cards"]] == ["As", "2s", "5h"]
    assert third["odds"]["seats"]["1"]["equity"] > 0.3
    assert third["actions"] == ["Anna brings in 2", "Bruno calls 2", "Carla calls 2"]
    assert all(s["odds"] is not None for s in streets)


def test_the_overlay_link_is_secret_and_renewed(kiosk_app: Any, dealer_client: Any) -> None:
    broadcast = kiosk_app.extensions["stud_broadcast"]
    token = broadcast.overlay.token()
    public = kiosk_app.test_client()
    assert public.get(f"/overlay/{token}").status_code == 200
    assert public.get("/overlay/guess").status_code == 404
    refused = socketio.test_client(kiosk_app, namespace="/overlay", auth={"token": "guess"})
    assert not refused.is_connected("/overlay")
    watching = socketio.test_client(kiosk_app, namespace="/overlay", auth={"token": token})
    assert watching.is_connected("/overlay")
    assert public.post("/overlay/token").status_code in (302, 400)  # no dealer, no CSRF
    assert broadcast.overlay.token() == token
    page = dealer_client.get("/setup/")
    assert f"/overlay/{token}" in page.get_data(as_text=True)
    kiosk_app.config["WTF_CSRF_ENABLED"] = False
    assert dealer_client.post("/overlay/token").status_code == 302
    renewed = broadcast.overlay.token()
    assert renewed != token
    assert public.get(f"/overlay/{token}").status_code == 404
    assert not watching.is_connected("/overlay")
    answer = dealer_client.get("/api/overlay").get_json()
    assert answer["url"].endswith(f"/overlay/{renewed}") and answer["delay"] == 60
    assert public.get("/api/overlay").status_code == 403


def test_the_overlay_shows_every_hole_card_only_after_the_delay(kiosk_app: Any) -> None:
    set_up(kiosk_app, overlay_delay=1)
    token = kiosk_app.extensions["stud_broadcast"].overlay.token()
    overlay = socketio.test_client(kiosk_app, namespace="/overlay",
                                   auth={"token": token, "lang": "en"})
    overlay.get_received("/overlay")
    table = kiosk_app.extensions["stud_table"]
    table.start_hand()
    first = driver.next_event(table.view("dealer", "en"))
    assert first == {"type": "deal", "seat": 1, "card": "As", "up": False}
    entered = time.monotonic()
    table.submit(first)
    play(kiosk_app, until=8)  # the rest of third street
    frames: list[Any] = []
    seen = None
    while time.monotonic() < entered + 10 and seen is None:
        got = received(overlay, "frame", "/overlay")
        if any('"As"' in json.dumps(f) for f in got):
            seen = time.monotonic()
        frames += got
        time.sleep(0.02)
    assert seen is not None and seen - entered >= 1.0, "a hole card reached the overlay early"
    while time.monotonic() < entered + 10 and not any(
            len(f["state"]["hand"]["seats"][0]["cards"]) == 3
            for f in frames if f["state"] and f["state"]["hand"]):
        frames += received(overlay, "frame", "/overlay")
        time.sleep(0.02)
    last = frames[-1]
    anna = next(s for s in last["state"]["hand"]["seats"] if s["seat"] == 1)
    assert [c["card"] for c in anna["cards"]] == ["As", "2s", "5h"]
    assert last["delay"] == 1
    # the odds with every card entered: Anna's down cards count
    time.sleep(1.2)
    final = (received(overlay, "frame", "/overlay") or frames)[-1]
    assert final["odds"] is not None and set(final["odds"]["seats"]) == {"1", "2", "3"}


def test_a_hand_downloads_as_pokerstars_phh_and_json_and_reads_back(
    kiosk_app: Any, dealer_client: Any
) -> None:
    from engine import Hand, from_phh, from_pokerstars

    set_up(kiosk_app)
    play(kiosk_app)
    table = kiosk_app.extensions["stud_table"]
    hand_id = table.hand_id
    text = dealer_client.get(f"/history/{hand_id}.txt")
    assert text.status_code == 200 and text.mimetype == "text/plain"
    assert text.headers["Content-Disposition"] == "attachment; filename=hand-1.txt"
    assert text.get_data(as_text=True).startswith("PokerStars Hand #1:  7 Card Stud Hi/Lo Limit")
    played = table.hand
    for read in (
        from_pokerstars(text.get_data(as_text=True), played.settings),
        from_phh(dealer_client.get(f"/history/{hand_id}.phh").get_data(as_text=True)),
        Hand.from_dict(dealer_client.get(f"/history/{hand_id}.json").get_json()),
    ):
        assert read.finished and read.finishing_stacks == played.finishing_stacks
        assert read.payouts == played.payouts
    assert kiosk_app.test_client().get(f"/history/{hand_id}.txt").status_code == 302


def test_the_dealer_replays_a_past_hand_on_the_tv(kiosk_app: Any, dealer_client: Any) -> None:
    set_up(kiosk_app, replays=False)
    play(kiosk_app)
    tv = socketio.test_client(kiosk_app, auth={"role": "spectator", "lang": "it"})
    kiosk_app.config["WTF_CSRF_ENABLED"] = False
    hand_id = kiosk_app.extensions["stud_table"].hand_id
    assert dealer_client.post(f"/history/{hand_id}/replay").status_code == 302
    assert kiosk_app.extensions["stud_broadcast"].worker.idle()
    (replay,) = received(tv, "replay")
    assert replay["now"] is True and replay["number"] == 1 and len(replay["streets"]) == 5
    assert replay["streets"][0]["actions"][0] == "Anna apre con il bring-in di 2"


def test_the_overlay_never_shows_the_nights_money(kiosk_app: Any) -> None:
    table = set_up(kiosk_app, overlay_delay=0)
    anna = table.add_player("Anna")["player"]["id"]
    table.submit({"type": "night_open", "currency": "EUR", "chips": 10, "money": 100,
                  "buy_in": 200})
    table.submit({"type": "buy_in", "player": anna, "seat": 1, "chips": 200})
    table.night_on_tv(True)
    tv = table.view("spectator", "en")
    assert tv["table"]["show_night"] and tv["night"]["rows"][0]["name"] == "Anna"
    token = kiosk_app.extensions["stud_broadcast"].overlay.token()
    overlay = socketio.test_client(kiosk_app, namespace="/overlay",
                                   auth={"token": token, "lang": "en"})
    frames: list[Any] = []
    until = time.monotonic() + 5
    while time.monotonic() < until and not frames:
        frames = [f for f in received(overlay, "frame", "/overlay") if f["state"]]
        time.sleep(0.02)
    assert frames, "no frame reached the overlay"
    state = frames[-1]["state"]
    assert state["night"] is None and not state["table"]["show_night"]
    assert state["table"]["seats"][0]["name"] == "Anna"
