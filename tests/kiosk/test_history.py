"""Hand history: the list, one hand street by street, PHH and JSON downloads that replay."""

from __future__ import annotations

import copy
import html
import json
import re
from typing import Any

from engine.hand import Hand
from engine.phh import from_phh
from tests.kiosk import driver


def test_history_lists_shows_and_downloads_a_hand(kiosk_app: Any, dealer_client: Any) -> None:
    table = kiosk_app.extensions["stud_table"]
    table.configure(copy.deepcopy(driver.SETUP))
    table.start_hand()
    driver.play(table)
    assert table.hand is not None
    hand_id = table.hand_id
    listing = dealer_client.get("/history/?lang=en").get_data(as_text=True)
    assert f"/history/{hand_id}" in listing and "finished" in listing
    page = html.unescape(dealer_client.get(f"/history/{hand_id}?lang=it").get_data(as_text=True))
    for street in ("Terza strada", "Quarta strada", "Quinta strada", "Sesta strada",
                   "Settima strada"):
        assert street in page
    assert "Anna apre con il bring-in di 2" in page and "Dai 20 a Carla" in page
    # the showdown is a part of its own, each show logged as a show with the hand it made, and
    # every part says the pot after it: the last one the pot that was pushed, not 0
    assert "Showdown" in page and "Bruno fa muck" in page
    assert "Carla mostra" in page and "Colore al jack" in page
    pots = re.findall(r"Piatto dopo questo giro: (\d+)", page)
    assert pots[-1] == "39" and pots[-2] == "39", pots
    assert [int(p) for p in pots] == sorted(int(p) for p in pots)
    # the hand that lost is named with why
    assert "Anna: Asso alto" in page or "Anna: Carta alta" in page, page

    data = dealer_client.get(f"/history/{hand_id}.json")
    assert data.headers["Content-Disposition"].endswith(".json")
    body = json.loads(data.get_data(as_text=True))
    assert body["hand"]["status"] == "finished"
    assert Hand.from_dict({"settings": body["settings"], "events": body["events"]}).state \
        == table.hand.state

    phh = dealer_client.get(f"/history/{hand_id}.phh")
    text = phh.get_data(as_text=True)
    assert phh.status_code == 200 and "F7S/8" in text
    assert from_phh(text).payouts == table.hand.payouts


def test_history_needs_the_dealer_and_a_real_hand(kiosk_app: Any, dealer_client: Any) -> None:
    stranger = kiosk_app.test_client()
    assert stranger.get("/history/").status_code == 302
    assert stranger.get("/history/1.json").status_code == 302
    assert dealer_client.get("/history/999").status_code == 404
