"""A tournament of six players in real Chromium, fast (levels of a minute or so, the second all
under the one-minute warning), on the 800x480 touchscreen with the TV beside it: the players
entered by tapping, the clock started, the kiosk killed in the middle of a level and the clock
resumed without the time it was off, a pause, two rebuys, two players out in one hand placed by
their starting stacks, a level ended early taking effect at the next hand, two tied for second,
and the payout at the end. The hands' cards go in through the JSON API (the dealer screen's own
taps are tested elsewhere).

However slow the machine, no level ends by itself: the test drives the kiosk's clock with the
dealer's own controls. It runs only for the outage (a few seconds of level 1) and for the
one-minute warning of level 2; the hands are played with it paused. Each check waits for what
the screens show, and the TV's own countdown is stepped with the page's clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.tournament_structure import TUNING
from tests.conftest import LiveKiosk
from tests.helpers.night import Dealer
from tests.helpers.waiting import wait_until
from tests.tournament.play import next_entry

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
LEVELS = [{"seconds": 90, "ante": 5, "bring_in": 10, "small_bet": 25, "big_bet": 50},
          {"seconds": 60, "ante": 10, "bring_in": 15, "small_bet": 50, "big_bet": 100},
          {"seconds": 900, "ante": 15, "bring_in": 25, "small_bet": 75, "big_bet": 150}]


def post(http: Any, url: str, body: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = http.post(url + "/api/events", json=body).json()
    assert answer["ok"], answer
    return answer


def play(http: Any, url: str, ranks: dict[int, int], all_in: set[int]) -> dict[str, Any]:
    started = http.post(url + "/api/hands").json()
    assert started.get("ok", True), started
    while (entry := next_entry(http.get(url + "/api/state?lang=en").json(), ranks, all_in)):
        post(http, url, entry)
    hand: dict[str, Any] = http.get(url + "/api/state?lang=en").json()["hand"]
    return hand


def clock(http: Any, url: str) -> dict[str, Any]:
    found: dict[str, Any] = http.get(url + "/api/state?lang=en").json()["tournament"]["clock"]
    return found


def clock_left(page: Any, selector: str) -> int:
    minutes, seconds = page.inner_text(selector).strip().split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_tournament_of_six_by_tapping(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    url = server.url
    setup = http.get(url + "/api/setup").json()
    setup = setup.get("setup", setup)
    setup["game"] = "five-card-stud"
    for seat in setup["seats"][:2]:  # a cash table before: the tournament empties its seats
        seat.update(active=True, stack=500, name=f"P{seat['seat']}")
    assert http.put(url + "/api/setup", json=setup).ok
    for name in NAMES:
        assert http.post(url + "/api/players", json={"name": name}).json()["ok"]
    post(http, url, {"type": "tournament_open", "buy_in": 2000, "chips": 100, "levels": LEVELS,
                     "rebuy_until": 2, "rebuys_most": 1, "late_until": 1, "sound": True})
    ctx = server.signed_in(chromium.new_context(viewport={"width": 800, "height": 480},
                                                has_touch=True), http)
    tv_ctx = chromium.new_context(viewport={"width": 1920, "height": 1080})
    page, tv = ctx.new_page(), tv_ctx.new_page()
    errors: list[str] = []
    for p in (page, tv):
        p.on("pageerror", lambda exc: errors.append(str(exc)))
    dealer = Dealer(page, url)
    try:
        tv.clock.install()  # runs with the real time until the test holds it
        tv.goto(url + "/spectator?lang=en")
        page.goto(url + "/tournament?lang=en")
        page.locator('[data-testid="t-seats"]').wait_for()
        # -- six players enter, each by two taps ----
        for seat, name in enumerate(NAMES, start=1):
            page.locator(f'[data-testid="seat-{seat}"]').click()
            dealer.enter(f'[data-testid="pick-player"]:text-is("{name}")', "#tournament")
        assert dealer.state()["tournament"]["players_left"] == 6
        tv.locator('[data-testid="tv-clock"]').wait_for()
        assert "6 of 6 players left" in tv.inner_text('[data-testid="clock-players"]')
        assert "€120.00" in tv.inner_text('[data-testid="clock-pool"]')
        # -- the clock starts; the kiosk is killed in the middle of level 1 ----
        dealer.enter('[data-testid="c-start"]', "#tournament")
        # the clock plays past its second heartbeat (one at its first tick, the next a
        # heartbeat later), so that where it stops at the restart says which heartbeat it used
        beats = TUNING.heartbeat + TUNING.tick
        wait_until(lambda: clock(http, url)["left"] <= LEVELS[0]["seconds"] - beats - 0.5,
                   "the clock's play before the cut", timeout=60)
        before = clock(http, url)["left"]
        read = time.monotonic()
        server.kill()
        cut = time.monotonic() - read  # the clock's play between the reading and the cut
        time.sleep(3)  # the kiosk stays off three seconds
        server.start()
        wait_until(lambda: "outage" in clock(http, url), "the outage recorded at the restart")
        stopped = clock(http, url)
        assert not stopped["running"] and stopped["outage"]["seconds"] >= 3, stopped
        # stopped at the last heartbeat before the cut: at most a heartbeat's play given back
        assert before - cut - 0.1 <= stopped["left"] <= before + beats, (before, cut, stopped)
        page.locator('[data-testid="c-skip"]').wait_for()
        page.screenshot(path=str(artifacts / "tournament-outage.jpg"))
        tapped = time.monotonic()
        dealer.enter('[data-testid="c-skip"]', "#tournament")
        after = clock(http, url)
        ran = time.monotonic() - tapped
        # it runs on from where it stopped, not counting the time the kiosk was off
        assert after["running"] and "outage" not in after
        assert stopped["left"] - ran - 0.1 <= after["left"] <= stopped["left"] + 0.1
        # -- a pause: the TV's clock stands still; it stays paused through the hands ----
        dealer.enter('[data-testid="c-pause"]', "#tournament")
        tv.locator('[data-testid="clock-paused"]').wait_for()
        tv.clock.pause_at(tv.evaluate("Date.now()") + 100)  # the TV's time in the test's hands
        frozen = clock_left(tv, '[data-testid="clock-time"]')
        tv.clock.run_for(3000)  # three seconds of the TV's countdown
        assert clock_left(tv, '[data-testid="clock-time"]') == frozen
        # -- two rebuys (Anna and Carla double up) ----
        for seat in (1, 3):
            page.locator(f'[data-testid="seat-{seat}"]').click()
            dealer.enter('[data-testid="do-rebuy"]', "#tournament")
        assert {s["seat"]: s["stack"] for s in dealer.state()["table"]["seats"]}[3] == 200
        # -- Bruno (100) and Carla (200) go all in against Anna's aces: both out ----
        hand = play(http, url, {1: 0, 3: 1, 2: 2}, {1, 2, 3})
        assert hand["finished"]
        tm = dealer.state()["tournament"]
        assert [(p["place"], p["name"]) for p in tm["places"]] == [(5, "Carla"), (6, "Bruno")]
        wait_until(lambda: "4 of 6" in tv.inner_text('[data-testid="clock-players"]'),
                   "the TV counts the players left")
        # -- the dealer ends level 1: it takes effect at the next hand only ----
        dealer.enter('[data-testid="c-end"]', "#tournament")
        # the announcement stays its while on the TV's clock, which stands still until shot
        tv.locator('[data-testid="clock-announce"]').wait_for()
        assert "Level 2" in tv.inner_text('[data-testid="clock-announce"]')
        tv.screenshot(path=str(artifacts / "tournament-tv-announce.jpg"))
        tv.clock.resume()
        assert dealer.state()["table"]["stakes"]["ante"] == 5
        page.goto(url + "/dealer?lang=en")
        page.locator('[data-testid="clock-pending"]').wait_for()
        # level 2 lies all under the warning, shown while the clock runs (resumed and paused
        # again from the tournament page: here through the API, the dealer screen staying up)
        post(http, url, {"type": "clock", "action": "resume"})
        page.locator('[data-testid="clock-warning"]').first.wait_for()
        page.screenshot(path=str(artifacts / "tournament-dealer-warning.jpg"))
        post(http, url, {"type": "clock", "action": "pause"})
        assert clock(http, url)["index"] == 1, "level 2 ran out while the warning was awaited"
        hand = play(http, url, {1: 0}, {1, 4})  # Dario out, at the new level's ante
        assert dealer.state()["table"]["stakes"]["ante"] == 10
        # -- Elena and Fabio, with the same chips, go out together: tied for second ----
        play(http, url, {1: 0}, {1, 5, 6})
        tm = dealer.state()["tournament"]
        assert [(p["place"], p["name"]) for p in tm["places"][:2]] == [(2, "Elena"), (2, "Fabio")]
        page.goto(url + "/tournament?lang=en")
        dealer.enter('[data-testid="t-close"]', "#tournament")
        # -- the payout: 6 entries and 2 rebuys of 20 €, 65 % and 35 % (shared by the tie) ----
        tv.locator('[data-testid="clock-places"]').wait_for()
        places = tv.inner_text('[data-testid="clock-places"]')
        assert "1. Anna · €104.00" in places
        assert "2. Elena · €28.00" in places and "2. Fabio · €28.00" in places
        tv.screenshot(path=str(artifacts / "tournament-tv-end.jpg"))
        assert errors == []
    finally:
        ctx.close()
        tv_ctx.close()
