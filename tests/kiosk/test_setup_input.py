"""The real server: the table setup is validated by one schema, for the form and the JSON alike,
refused with the field and what is allowed there, and stored as validated."""

from __future__ import annotations

import copy
import html
from collections.abc import Callable
from typing import Any

import pytest
import requests

from tests.conftest import LiveKiosk, csrf_from
from tests.kiosk import driver

pytestmark = pytest.mark.slow


def _setup(**changes: Any) -> dict[str, Any]:
    setup = copy.deepcopy(driver.SETUP)
    setup.update(changes)
    return setup


def _refused(dealer: Any, server: LiveKiosk, setup: Any) -> dict[str, Any]:
    answer = dealer.put(server.url + "/api/setup", json=setup, timeout=10)
    assert answer.status_code == 422, (answer.status_code, answer.text[:300])
    body: dict[str, Any] = answer.json()
    assert body["ok"] is False and body["kind"] == "refused"
    return body


def test_the_setup_is_refused_field_by_field(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    dealer = server.dealer_session()
    before = dealer.get(server.url + "/api/setup", timeout=10).json()
    seats = copy.deepcopy(driver.SETUP["seats"])
    cases: list[tuple[dict[str, Any], str, str]] = [
        (_setup(stakes={"ante": 1.5, "bring_in": 2, "small_bet": 5, "big_bet": 10}),
         "stakes.ante", "whole number"),
        (_setup(seats=[dict(seats[0], seat="1"), *seats[1:]]), "seats[1].seat", "whole number"),
        (_setup(seats=[dict(seats[0], active="false"), *seats[1:]]), "seats[1].active",
         "true or false"),
        (_setup(seats=[dict(seats[0], name="A" * 1000), *seats[1:]]), "seats[1].name",
         "at most 24 characters"),
        (_setup(seats=[dict(seats[0], seat=99), *seats[1:]]), "seats[99].seat", "from 1 to 10"),
        (_setup(jackpot=5), "jackpot", "not part of a setup"),
        (_setup(rules=dict(driver.SETUP["rules"], odd_chip="to-the-house")), "rules.odd_chip",
         "nearest-dealer, high-card-suit"),
        (_setup(game="omaha"), "game", "seven-card-stud"),
        (_setup(seats=seats[:5]), "seats", "each of seats 1 to 10"),
        (_setup(buy_in=0), "buy_in", "a whole number from 1 to 1000000000"),
        (_setup(buy_in="150"), "buy_in", "a whole number from 1 to 1000000000"),
        (_setup(screen={"sound": "yes"}), "screen.sound", "true or false"),
        (_setup(screen={"loud": True}), "screen.loud", "sound, speech, hide_down"),
        (_setup(screen=True), "screen", "an object with the fields sound, speech, hide_down"),
        (_setup(tv={"overlay_delay": 4000}), "tv.overlay_delay", "a whole number from 0 to 3600"),
        (_setup(tv={"odds": 1}), "tv.odds", "true or false"),
        (_setup(button=11), "button", "a whole number from 0 to 10"),
        (_setup(rotation={"mode": "shuffle"}), "rotation.mode", "fixed, choice, list"),
        (_setup(rotation={"mode": "list", "games": ["razz", "omaha"]}), "rotation.games",
         "seven-card-stud"),
        (_setup(rotation={"mode": "list", "games": ["razz", "soko"], "every": -1}),
         "rotation.every", "a whole number from 0 to 1000"),
        (_setup(rotation={"stakes": {"razz": {"ante": 1}}}), "rotation.stakes.razz.small_bet",
         "missing"),
        (_setup(rotation={"stakes": {"razz": 5}}), "rotation.stakes.razz",
         "ante, bring_in, small_bet, big_bet"),
        (_setup(rotation={"turbo": True}), "rotation.turbo", "mode, games, every"),
        (_setup(seats=[dict(seats[0], out="no"), *seats[1:]]), "seats[1].out", "true or false"),
        (_setup(seats=[dict(seats[0], player="Anna"), *seats[1:]]), "seats[1].player",
         "a player of the list"),
    ]
    for setup, field, allowed in cases:
        body = _refused(dealer, server, setup)
        fields = {p["field"]: p["error"] for p in body["problems"]}
        assert field in fields, (field, body)
        assert allowed in fields[field], (field, fields[field])
        assert "A" * 100 not in body["error"] and "Traceback" not in body["error"]
    assert dealer.get(server.url + "/api/setup", timeout=10).json() == before  # nothing stored


def test_what_is_stored_is_what_was_validated(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    dealer = server.dealer_session()
    seats = copy.deepcopy(driver.SETUP["seats"])
    seats[0]["name"] = "\u202eevil\u2066 \u200fone\n"  # a right-to-left override and friends
    assert dealer.put(server.url + "/api/setup", json=_setup(seats=seats),
                      timeout=10).status_code == 200
    stored = dealer.get(server.url + "/api/setup", timeout=10).json()
    assert stored["seats"][0]["name"] == "evil one"
    assert stored["lock_after_minutes"] == 0 and set(stored) == {
        "game", "stakes", "rules", "buy_in", "screen", "tv", "dealer", "button",
        "lock_after_minutes", "seats"}
    # the fields left out have their defaults
    assert stored["buy_in"] == 200
    assert stored["screen"] == {"sound": False, "speech": False, "hide_down": True}
    assert stored["tv"] == {"odds": True, "replays": True, "overlay_delay": 60}
    tv = requests.get(server.url + "/api/state", timeout=10).json()
    assert tv["table"]["seats"][0]["name"] == "evil one"
    # a hand is dealt with the stored, whole-number stakes
    assert dealer.post(server.url + "/api/hands", timeout=10).status_code == 200
    view = dealer.get(server.url + "/api/state", timeout=10).json()
    assert view["hand"]["total_pot"] == 3  # three antes of 1


def test_the_form_goes_through_the_same_schema(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    dealer = server.dealer_session()
    page = dealer.get(server.url + "/setup/", timeout=10).text
    form = {"csrf_token": csrf_from(page), "game": "seven-card-stud", "ante": "1.5",
            "bring_in": "2", "small_bet": "5", "big_bet": "10", "max_raises": "3",
            "chip_unit": "1", "odd_chip": "nearest-dealer", "dealer": "0",
            "active_1": "on", "name_1": "Anna", "stack_1": "100",
            "active_2": "on", "name_2": "Bruno", "stack_2": "100"}
    refused = dealer.post(server.url + "/setup/", data=form, timeout=10)
    assert refused.status_code == 422
    assert "Ante: a whole number from 0 to" in html.unescape(refused.text)
    form["ante"] = "1"
    saved = dealer.post(server.url + "/setup/", data=form, timeout=10)
    assert saved.status_code == 200 and saved.url.endswith("/dealer")
    stored = dealer.get(server.url + "/api/setup", timeout=10).json()
    assert stored["stakes"]["ante"] == 1 and stored["seats"][1]["stack"] == 100
    # the usual buy-in and the screen's options: the keypad's text, the buttons' ticks
    form.update(buy_in="lots", screen_sound="on", active_3="on", name_3="Carla", stack_3="")
    refused = dealer.post(server.url + "/setup/", data=form, timeout=10)
    assert refused.status_code == 422
    assert "Usual buy-in: a whole number from 1 to" in html.unescape(refused.text)
    assert 'name="buy_in" id="buy-in" value="lots"' in refused.text  # shown again as typed
    form["buy_in"] = "150"
    saved = dealer.post(server.url + "/setup/", data=form, timeout=10)
    assert saved.status_code == 200 and saved.url.endswith("/dealer")
    stored = dealer.get(server.url + "/api/setup", timeout=10).json()
    assert stored["buy_in"] == 150
    assert stored["screen"] == {"sound": True, "speech": False, "hide_down": False}
    assert stored["seats"][2] == {"seat": 3, "name": "Carla", "stack": 150, "active": True}


def test_the_setup_read_is_a_setup_that_may_be_sent_back(
    live_kiosk: Callable[..., LiveKiosk],
) -> None:
    """What ``GET /api/setup`` gives (the button, the rotation, seats with their player and
    sitting out) is accepted again by ``PUT /api/setup`` and the setup page's form."""
    server = live_kiosk()
    dealer = server.dealer_session()
    rotation = {"mode": "list", "games": ["seven-card-stud-hilo", "razz"], "every": 2,
                "stakes": {"razz": {"ante": 2, "bring_in": 3, "small_bet": 10, "big_bet": 20}}}
    seats = copy.deepcopy(driver.SETUP["seats"])
    seats[2].update(out=True)
    assert dealer.put(server.url + "/api/setup", timeout=10, json=_setup(
        button=2, rotation=rotation, seats=seats)).status_code == 200
    stored = dealer.get(server.url + "/api/setup", timeout=10).json()
    assert stored["button"] == 2 and stored["seats"][2]["out"] is True
    assert stored["rotation"]["games"] == ["seven-card-stud-hilo", "razz"]
    assert stored["rotation"]["every"] == 2 and stored["rotation"]["at"] == 0
    assert stored["rotation"]["stakes"]["razz"]["small_bet"] == 10
    again = dealer.put(server.url + "/api/setup", json=stored, timeout=10)
    assert again.status_code == 200, again.text[:300]
    assert dealer.get(server.url + "/api/setup", timeout=10).json() == stored
    # the seat sitting out is dealt no cards
    assert dealer.post(server.url + "/api/hands", timeout=10).status_code == 200
    view = dealer.get(server.url + "/api/state", timeout=10).json()
    assert view["hand"]["total_pot"] == 2 * driver.SETUP["stakes"]["ante"]
    dealer.post(server.url + "/api/misdeal", timeout=10).raise_for_status()
    # the form sends the rotation's fields: a dealer's choice of two games, with razz's stakes
    page = dealer.get(server.url + "/setup/", timeout=10).text
    form = {"csrf_token": csrf_from(page), "game": "seven-card-stud", "ante": "1",
            "bring_in": "2", "small_bet": "5", "big_bet": "10", "max_raises": "3",
            "chip_unit": "1", "odd_chip": "nearest-dealer", "dealer": "0",
            "active_1": "on", "name_1": "Anna", "stack_1": "100",
            "active_2": "on", "name_2": "Bruno", "stack_2": "100",
            "rot_mode": "choice", "rot_game_seven-card-stud": "on", "rot_game_razz": "on",
            "rot_order_seven-card-stud": "1", "rot_order_razz": "2",
            "rot_razz_ante": "2", "rot_razz_bring_in": "3", "rot_razz_small_bet": "10",
            "rot_razz_big_bet": "20"}
    saved = dealer.post(server.url + "/setup/", data=form, timeout=10)
    assert saved.status_code == 200 and saved.url.endswith("/dealer"), saved.text[:500]
    stored = dealer.get(server.url + "/api/setup", timeout=10).json()
    assert stored["rotation"]["mode"] == "choice"
    assert stored["rotation"]["games"] == ["seven-card-stud", "razz"]
    assert stored["rotation"]["stakes"]["razz"] == {"ante": 2, "bring_in": 3, "small_bet": 10,
                                                   "big_bet": 20}
    # a rotation's stakes the schema refuses are named on the page
    form["rot_razz_small_bet"] = "0"
    refused = dealer.post(server.url + "/setup/", data=form, timeout=10)
    assert refused.status_code == 422
    assert dealer.get(server.url + "/api/setup", timeout=10).json() == stored
