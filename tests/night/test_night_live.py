"""A night on the real server: its entries through ``POST /api/events`` answered only once
stored, a kill -9 in the middle of the night, and the night resumed as it was, undo included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import LiveKiosk
from tests.night.play import next_entry

pytestmark = pytest.mark.slow


def post(session: Any, url: str, body: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = session.post(url + "/api/events", json=body).json()
    assert answer["ok"], answer
    return answer


def play(session: Any, url: str) -> None:
    assert session.post(url + "/api/hands").ok
    while (entry := next_entry(session.get(url + "/api/state?lang=en").json())) is not None:
        post(session, url, entry)


def test_a_night_survives_a_kill_and_goes_on(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    url = server.url
    ids = [http.post(url + "/api/players", json={"name": n}).json()["player"]["id"]
           for n in ("Anna", "Bruno", "Carla")]
    post(http, url, {"type": "night_open", "currency": "EUR", "chips": 100, "money": 1000,
                     "buy_in": 1000, "bank": "house"})
    for seat, player in enumerate(ids, start=1):
        post(http, url, {"type": "buy_in", "player": player, "seat": seat, "chips": 1000})
    play(http, url)
    post(http, url, {"type": "rebuy", "player": ids[1], "chips": 700})
    before = http.get(url + "/api/state?lang=it").json()

    server.kill()  # a power cut: nothing is shut down
    server.start()
    http = server.dealer_session()
    after = http.get(url + "/api/state?lang=it").json()
    assert after["night"] == before["night"] and after["table"] == before["table"]
    assert after["hand"]["result"] == before["hand"]["result"]

    # the same undo takes back the rebuy made just before the cut
    undone = http.post(url + "/api/undo").json()
    assert undone["undone"]["type"] == "rebuy"
    night = http.get(url + "/api/state?lang=en").json()["night"]
    assert night["chips_in"] == 3000
    # and the night goes on to its end
    seats = http.get(url + "/api/state").json()["table"]["seats"]
    stacks = {s["seat"]: s["stack"] for s in seats}
    post(http, url, {"type": "cash_out",
                     "counts": {str(p): stacks[seat] for seat, p in enumerate(ids, start=1)},
                     "paid": False})
    post(http, url, {"type": "night_close"})
    closed = http.get(url + "/api/state?lang=en").json()["night"]
    assert closed["closed"]
    # the bank holds the 300 € paid in and pays each player what they leave with
    transfers = closed["settlement"]["transfers"]
    assert {t["from"] for t in transfers} == {"the bank"}
    assert sum(t["cents"] for t in transfers) == 30000
