"""What the dealer screen and the TV are told in words: stakes with their names, the turn as it is
said aloud, "ad Anna", the house options of the screen, a new seat's buy-in and the names used
before."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from kiosk.service import TableService
from kiosk.store import Store
from tests.helpers.forms import SETUP_FORM, post_form
from tests.kiosk import driver


def table(game: str = "seven-card-stud", **rules: Any) -> TableService:
    service = TableService(Store("sqlite://"))
    setup = copy.deepcopy(driver.SETUP)
    setup["game"] = game
    setup["rules"].update(rules)
    service.configure(setup)
    return service


def test_stakes_are_named_and_a_game_without_a_bring_in_shows_none() -> None:
    assert table().view("spectator", "it")["table"]["stakes_text"] == \
        "ante 1 · bring-in 2 · puntate 5/10"
    assert table().view("dealer", "en")["table"]["stakes_text"] == "ante 1 · bring-in 2 · bets 5/10"
    # Sökö opens with the highest upcard: no bring-in, unless the house plays it with one
    assert table("soko").view("spectator", "it")["table"]["stakes_text"] == \
        "ante 1 · puntate 5/10"
    assert "bring-in 2" in table("soko", soko_bring_in=True).view("dealer", "it")["table"][
        "stakes_text"]


def step(service: TableService, view: dict[str, Any]) -> None:
    event = driver.next_event(view)
    assert event is not None
    service.submit(event)


def test_the_turn_said_aloud_names_the_player_and_says_ad_anna() -> None:
    service = table()
    service.start_hand()
    view = service.view("dealer", "it")
    assert view["hand"]["prompt"]["say"] == "Terza strada"
    while view["hand"]["prompt"]["kind"] == "deal":
        step(service, view)
        view = service.view("dealer", "it")
    # Anna's 5♥ is the low card
    assert view["hand"]["prompt"]["say"] == "Anna: bring-in da 2 o completa a 5"
    assert view["hand"]["prompt"]["text"] == "Anna (posto 1): bring-in da 2 o completa a 5"
    step(service, view)
    view = service.view("dealer", "it")
    assert view["hand"]["prompt"]["say"] == "Tocca a Bruno"
    assert view["hand"]["prompt"]["text"] == "Di turno: Bruno (posto 2)"
    assert service.view("dealer", "en")["hand"]["prompt"]["say"] == "Action to Bruno"
    step(service, view)
    step(service, service.view("dealer", "it"))
    assert service.view("dealer", "it")["hand"]["prompt"]["say"] == "Quarta strada"


def test_the_result_pushes_ad_anna_and_a_bruno() -> None:
    service = table("seven-card-stud-hilo")
    service.start_hand()
    while (event := driver.next_event(service.view("dealer", "it"))) is not None:
        service.submit(event)
    result = service.view("spectator", "it")["hand"]["result"]
    shares = {s["name"]: s["to"] for pot in result["pots"] for s in pot["shares"]}
    assert shares == {"Anna": "ad Anna", "Carla": "a Carla"}
    # the hands that lost are named for the TV only when they were shown (Bruno mucked)
    beaten = [b["name"] for pot in result["pots"] for b in pot["beaten"]]
    assert sorted(beaten) == ["Anna", "Carla"]


def test_screen_options_buy_in_and_names_used_before(kiosk_app: Any, dealer_client: Any) -> None:
    service = kiosk_app.extensions["stud_table"]
    # a stored setup from before the options: the defaults
    assert service.view("dealer", "en")["table"]["screen"] == {
        "sound": False, "speech": False, "hide_down": True}
    form = {**SETUP_FORM, "buy_in": "150", "screen_speech": "on", "screen_hide_down": "on",
            "active_4": "on", "name_4": "Dario", "stack_4": "0"}
    answer = post_form(dealer_client, "/setup/", form)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    setup = service.setup()
    assert setup["screen"] == {"sound": False, "speech": True, "hide_down": True}
    # Dario sat down with nothing written for his stack: the table's usual buy-in
    assert setup["seats"][3] == {"seat": 4, "name": "Dario", "stack": 150, "active": True}
    page = dealer_client.get("/setup/?lang=it").get_data(as_text=True)
    names = json.loads(re.search(r'id="known-names"[^>]*>([^<]*)<', page).group(1))  # type: ignore[union-attr]
    assert names[:4] == ["Anna", "Bruno", "Carla", "Dario"]
    assert 'data-keys="number"' in page and 'data-keys="text"' in page
