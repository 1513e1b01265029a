"""A whole home-game night in real Chromium, by tapping only, on the 800x480 touchscreen with the
TV beside it: the night opened on the keypad, five players seated (two new on the on-screen
keyboard, three picked from the list), a rotation of three games set on the setup page, hands
dealt and bet by tapping, two rebuys, a player sitting out and coming back, one leaving early,
then the closing: a count fifty chips short is shown and blocks the close until it is put on a
player, and the settlement is the fewest transfers. Screenshots go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LiveKiosk
from tests.helpers.night import Dealer, fewest
from tests.helpers.pages import check_touch_targets

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SMALL, TV = (800, 480), (1920, 1080)
GAMES = ["seven-card-stud-hilo", "seven-card-stud", "razz"]


def shoot(page: Any, artifacts: Path, name: str) -> None:
    page.wait_for_timeout(150)
    page.screenshot(path=str(artifacts / f"night-{name}.jpg"))


def test_a_whole_night_by_tapping(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    for name in ("Carla", "Dario", "Elena"):  # players of earlier nights, in the list
        assert http.post(server.url + "/api/players", json={"name": name}).json()["ok"]
    ctx = server.signed_in(chromium.new_context(
        viewport={"width": SMALL[0], "height": SMALL[1]}, has_touch=True), http)
    tv_ctx = chromium.new_context(viewport={"width": TV[0], "height": TV[1]})
    page, tv = ctx.new_page(), tv_ctx.new_page()
    errors: list[str] = []
    for p in (page, tv):
        p.on("pageerror", lambda exc: errors.append(str(exc)))
    dealer = Dealer(page, server.url)
    try:
        tv.goto(server.url + "/spectator?lang=en")
        # -- the night opened: 100 chips are worth 10 € ----
        page.goto(server.url + "/night?lang=en")
        page.locator('[data-testid="open-form"]').wait_for()
        shoot(page, artifacts, "open-form")
        check_touch_targets(page)
        dealer.keypad('[data-testid="f-money"]', "10")
        dealer.enter('[data-testid="night-open"]', "#night")
        assert "100 chips = €10.00" in page.inner_text('[data-testid="rate"]')

        # -- five players seated: two new ones typed, three picked from the list ----
        for seat, name in enumerate(["Anna", "Bruno", "Carla", "Dario", "Elena"], start=1):
            dealer.tap(f'[data-testid="seat-{seat}"]')
            if name in ("Anna", "Bruno"):
                dealer.keyboard('[data-testid="new-name"]', name)
                if seat == 1:
                    shoot(page, artifacts, "new-player")
                dealer.tap('[data-testid="add-player"]')
            else:
                dealer.tap(f'[data-testid="pick-player"]:has-text("{name}")')
            page.locator('[data-testid="buy-in-ok"]').wait_for()
            assert page.input_value('[data-testid="amount"]') == "1000"
            dealer.enter('[data-testid="buy-in-ok"]', "#night")
        shoot(page, artifacts, "seated")
        check_touch_targets(page)
        night = dealer.state()["night"]
        assert night["chips_in"] == 5000 and night["money_in"] == "€500.00"

        # -- a rotation of three games, one hand each, on the setup page ----
        page.goto(server.url + "/setup/?lang=en")
        assert page.locator('[data-testid="night-seats"]').count() == 1
        dealer.tap('label.choice:has(input[name="rot_mode"][value="list"])')
        for game in GAMES[1:]:
            dealer.tap(f'tr[data-game="{game}"] label.toggle')
        dealer.keypad('[data-testid="rot-every"]', "1")
        dealer.tap('[data-testid="setup-save"]')
        page.wait_for_url("**/dealer")
        page.locator('[data-testid="start-hand"]').wait_for()
        assert "then Seven-card stud next hand" in page.inner_text('[data-testid="rotation"]')
        tv.wait_for_function("document.getElementById('tv-next').textContent.includes('next hand')")
        tv.screenshot(path=str(artifacts / "night-tv-rotation.jpg"))
        shoot(page, artifacts, "dealer-rotation")

        # -- hand 1; then Bruno rebuys, Carla adds on, Dario sits out, Elena leaves ----
        first = dealer.play_hand(GAMES[0])
        assert len(first["seats"]) == 5
        page.goto(server.url + "/night?lang=en")
        page.locator('[data-testid="night-seats"]').wait_for()
        dealer.tap('[data-testid="seat-2"]')
        dealer.tap('[data-testid="do-rebuy"]')
        dealer.keypad('[data-testid="amount"]', "500")
        dealer.enter('[data-testid="rebuy-ok"]', "#night")
        dealer.tap('[data-testid="seat-3"]')
        dealer.tap('[data-testid="do-rebuy"]')
        dealer.enter('[data-testid="rebuy-ok"]', "#night")
        dealer.tap('[data-testid="seat-4"]')
        dealer.enter('[data-testid="do-sit"]', "#night")
        elena = next(s["stack"] for s in dealer.state()["table"]["seats"] if s["seat"] == 5)
        dealer.tap('[data-testid="seat-5"]')
        dealer.tap('[data-testid="do-cash-out"]')
        assert page.input_value('[data-testid="amount"]') == str(elena)
        dealer.enter('[data-testid="cash-out-ok"]', "#night")
        dealer.enter('[data-testid="night-tv"]', "#night")
        shoot(page, artifacts, "after-rebuys")
        tv.wait_for_selector('[data-testid="tv-night"]:not([hidden])')
        tv.screenshot(path=str(artifacts / "night-tv-standings.jpg"))
        night = dealer.state()["night"]
        assert night["chips_in"] == 6500 and night["chips_out"] == elena
        rows = {r["name"]: r for r in night["rows"]}
        assert rows["Bruno"]["rebuys"] == rows["Carla"]["rebuys"] == 1 and rows["Elena"]["left"]

        # -- hand 2 (seven-card stud) without Dario, who comes back for hand 3 (razz) ----
        page.goto(server.url + "/dealer?lang=en")
        page.locator('[data-testid="next-hand"]').wait_for()
        assert page.locator('[data-testid="night-strip"]').count() == 1
        second = dealer.play_hand(GAMES[1])
        assert sorted(s["seat"] for s in second["seats"]) == [1, 2, 3]
        page.goto(server.url + "/night?lang=en")
        dealer.tap('[data-testid="seat-4"]')
        dealer.enter('[data-testid="do-sit"]', "#night")
        page.goto(server.url + "/dealer?lang=en")
        page.locator('[data-testid="next-hand"]').wait_for()
        third = dealer.play_hand(GAMES[2])
        assert sorted(s["seat"] for s in third["seats"]) == [1, 2, 3, 4]

        # -- closing: Anna's chips counted fifty short ----
        page.goto(server.url + "/night?lang=en")
        dealer.tap('[data-testid="night-close"]')
        anna = next(s["stack"] for s in dealer.state()["table"]["seats"] if s["seat"] == 1)
        dealer.keypad("#count-1", str(anna - 50))
        shoot(page, artifacts, "closing-counts")
        dealer.enter('[data-testid="cash-out-all"]', "#night")
        page.locator('[data-testid="difference"]').wait_for()
        assert "50 chips missing" in page.inner_text('[data-testid="difference"]')
        assert page.locator('[data-testid="settlement"]').count() == 0
        shoot(page, artifacts, "difference")
        dealer.tap('[data-testid="night-close"]')
        page.locator('[data-testid="toast"]:has-text("do not add up")').wait_for()
        assert not dealer.state()["night"]["closed"]
        dealer.tap('[data-testid="assign"]')
        dealer.enter('[data-testid="assign-player"]:has-text("Anna")', "#night")
        page.locator('[data-testid="settlement"]').wait_for()
        dealer.enter('[data-testid="night-close"]', "#night")
        page.locator('[data-testid="night-closed"]').wait_for()
        shoot(page, artifacts, "settled")

        night = dealer.state()["night"]
        assert night["closed"] and night["difference"] == 0
        results = [r["result_cents"] for r in night["rows"]]
        assert sum(results) == 0
        transfers = night["settlement"]["transfers"]
        assert len(transfers) == fewest(tuple(sorted(c for c in results if c)))
        assert len(page.locator('[data-testid="transfer"]').all()) == len(transfers)
        tv.wait_for_function("document.querySelectorAll('#tv-night .settlement li').length > 0")
        tv.screenshot(path=str(artifacts / "night-tv-settlement.jpg"))

        # -- the record: a printable summary with the games played ----
        page.goto(server.url + f"/nights/{night['id']}?lang=en")
        games = page.inner_text('[data-testid="summary-hands"]')
        assert "Hands played: 3" in games and "Razz: 1" in games and "Seven-card stud: 1" in games
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(artifacts / "night-summary.jpg"), full_page=True)
        page.goto(server.url + "/players?lang=en")
        assert page.locator('[data-testid="player-row"]').count() == 5
        page.screenshot(path=str(artifacts / "night-players.jpg"), full_page=True)
        # -- the same in Italian ----
        page.set_viewport_size({"width": SMALL[0], "height": SMALL[1]})
        page.goto(server.url + "/night?lang=it")
        page.locator('[data-testid="night-closed"]').wait_for()
        assert "Chi paga chi" in page.inner_text('[data-testid="settlement"]')
        assert "Serata chiusa" in page.inner_text('[data-testid="night-closed"]')
        shoot(page, artifacts, "settled-it")
        page.goto(server.url + f"/nights/{night['id']}?lang=it")
        assert "Mani giocate: 3" in page.inner_text('[data-testid="summary-hands"]')
        assert errors == []
    finally:
        ctx.close()
        tv_ctx.close()


def test_dealers_choice_is_one_tap_on_the_dealer_screen(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    setup = http.get(server.url + "/api/setup").json()
    for seat, name in zip(setup["seats"], ["Anna", "Bruno", "Carla", "Dario"], strict=False):
        seat.update(active=True, stack=300, name=name)
    setup["rotation"] = {"mode": "choice", "games": ["seven-card-stud", "razz", "soko"],
                         "stakes": {"razz": {"ante": 2, "bring_in": 3, "small_bet": 10,
                                             "big_bet": 20}}}
    setup["game"] = "seven-card-stud"
    assert http.put(server.url + "/api/setup", json=setup).json()["ok"]
    ctx = server.signed_in(chromium.new_context(
        viewport={"width": SMALL[0], "height": SMALL[1]}, has_touch=True), http)
    page = ctx.new_page()
    try:
        page.goto(server.url + "/dealer?lang=it")
        page.locator('[data-testid="choose-game"]').wait_for()
        assert "Sceglie il gioco: Anna" in page.inner_text('[data-testid="chooser"]')
        check_touch_targets(page)
        shoot(page, artifacts, "dealers-choice-it")
        dealer = Dealer(page, server.url)
        dealer.enter('[data-testid="game-razz"]', "#app")
        hand = dealer.state()["hand"]
        assert hand["variant"] == "razz" and dealer.state()["table"]["stakes"]["ante"] == 2
        assert dealer.taps == 1
    finally:
        ctx.close()
