"""Real Chromium against the real server: the dealer plays a whole seven-card stud hi/lo hand by
tapping, while a TV page in a second browser context follows every step. Screenshots of both
screens (dealer at 1280x800 and 800x480, TV at 1920x1080) go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import TEST_PIN, LiveKiosk
from tests.helpers.pages import (
    check_touch_targets,
    dealer_view,
    seats_under_results,
    tap,
    tap_event,
    took,
)
from tests.helpers.waiting import wait_until
from tests.kiosk import driver

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BIG, SMALL, TV = (1280, 800), (800, 480), (1920, 1080)


def shoot(page: Any, artifacts: Path, name: str, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.wait_for_timeout(150)
    page.screenshot(path=str(artifacts / f"{name}-{size[0]}x{size[1]}.jpg"))


def test_dealer_plays_a_hilo_hand_by_tapping_and_the_tv_follows(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    server = live_kiosk()
    server.dealer_session()  # sets the PIN at first start, as the dealer did at install time
    dealer_ctx = chromium.new_context(viewport={"width": BIG[0], "height": BIG[1]}, has_touch=True)
    tv_ctx = chromium.new_context(viewport={"width": TV[0], "height": TV[1]})
    page, tv = dealer_ctx.new_page(), tv_ctx.new_page()
    errors: list[str] = []
    for p in (page, tv):
        p.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        # the PIN, on the keypad
        page.goto(server.url + "/dealer?lang=en")
        assert "/login" in page.url
        for digit in TEST_PIN:
            tap(page, f'.keypad [data-key="{digit}"]')
        tap(page, '.keypad [data-key="✓"]')
        page.wait_for_url("**/dealer**")

        # the table: three players with names and stacks
        page.goto(server.url + "/setup/?lang=en")
        tap(page, 'input[name="game"][value="seven-card-stud-hilo"]')
        for seat in driver.SETUP["seats"][:3]:
            n = seat["seat"]
            page.locator(f'input[name="active_{n}"]').check()
            page.fill(f'input[name="name_{n}"]', seat["name"])
            page.fill(f'input[name="stack_{n}"]', str(seat["stack"]))
        shoot(page, artifacts, "dealer-setup", BIG)
        shoot(page, artifacts, "dealer-setup", SMALL)
        page.set_viewport_size({"width": BIG[0], "height": BIG[1]})
        tap(page, '[data-testid="setup-save"]')
        page.wait_for_url("**/dealer")

        tv.goto(server.url + "/spectator?lang=it")
        tv.wait_for_selector('[data-testid="conn"]:has-text("In linea")')
        tv.wait_for_selector(".tv-waiting")
        tap(page, '[data-testid="start-hand"]')
        page.wait_for_selector('[data-testid="picker"]')
        check_touch_targets(page)

        shots = {"third-deal": False, "bring-in": False, "fifth": False}
        steps = 0
        undone = identified = False
        while True:
            view = dealer_view(page, server.url)
            event = driver.next_event(view)
            if event is None:
                break
            hand = view["hand"]
            kind = hand["prompt"]["kind"]
            if kind == "deal" and hand["events"] == 4 and not shots["third-deal"]:
                shots["third-deal"] = True
                shoot(page, artifacts, "dealer-deal", BIG)
                shoot(page, artifacts, "dealer-deal", SMALL)
                tap(page, "#four-colour")
                assert "four-colour" in (page.get_attribute("body", "class") or "")
                shoot(page, artifacts, "dealer-deal-four-colour", SMALL)
                tap(page, "#four-colour")
                page.set_viewport_size({"width": BIG[0], "height": BIG[1]})
            if kind == "bring_in" and not shots["bring-in"]:
                shots["bring-in"] = True
                shoot(page, artifacts, "dealer-bring-in", BIG)
                shoot(page, artifacts, "dealer-bring-in", SMALL)
                page.set_viewport_size({"width": BIG[0], "height": BIG[1]})
                shoot(tv, artifacts, "tv-third-street", TV)
            if hand["street_name"] == "fourth" and kind == "act" and not identified:
                # the dealer learns one of Carla's down cards: entered, and it stays face down
                identified = True
                tap(page, '.seats .seat[data-seat="3"]')
                tap(page, '[data-testid="tool-identify"]')
                shoot(page, artifacts, "dealer-identify", SMALL)
                page.set_viewport_size({"width": BIG[0], "height": BIG[1]})
                tap(page, '.picker button[data-card="3c"]')
                wait_until(took(page, server.url, hand["events"] + 1), "the identify")
                page.wait_for_selector('#legal [data-action]')
                # the entry made, the correction panel gives the seats back
                page.wait_for_selector('[data-testid="tool-identify"]', state="detached")
                page.wait_for_selector('.seats.big .seat[data-seat="3"]')
                tv.wait_for_timeout(300)
                assert tv.locator('.card[data-card="3c"]').count() == 0
                steps += 1
                continue
            if hand["street_name"] == "fifth" and kind == "act" and not shots["fifth"]:
                shots["fifth"] = True
                shoot(page, artifacts, "dealer-betting", BIG)
                shoot(page, artifacts, "dealer-betting", SMALL)
                page.set_viewport_size({"width": BIG[0], "height": BIG[1]})
                shoot(tv, artifacts, "tv-fifth-street", TV)
            before = hand["events"]
            tap_event(page, hand, event)
            wait_until(took(page, server.url, before + 1), f"the server took {event}")
            steps += 1
            if kind == "bring_in" and not undone:  # a slip: undo it, the script enters it again
                undone = True
                tap(page, '[data-testid="undo"]')
                wait_until(took(page, server.url, before), "the undo")
                page.wait_for_selector('#legal [data-action="bring_in"]')
                steps -= 1
                continue
            # the TV shows the same pot as the dealer after every step
            pot = dealer_view(page, server.url)["hand"]["total_pot"]
            tv.wait_for_function(
                "pot => { const e = document.querySelector('[data-testid=tv-pot]');"
                " return e && e.textContent.trim() === String(pot); }",
                arg=pot, timeout=5000,
            )
        assert all(shots.values()) and steps > 25

        # the result: per pot, the winners and what to push
        page.wait_for_selector('[data-testid="result"]')
        result = page.inner_text('[data-testid="result"]')
        assert "Carla" in result and "Anna" in result and "Push" in result
        tv.wait_for_selector('[data-testid="tv-results"]')
        tv_result = tv.inner_text('[data-testid="tv-results"]')
        assert "Carla" in tv_result and "Anna" in tv_result
        assert seats_under_results(tv) == [], "the result must not hide a seat's cards"
        assert "Kd" not in tv.content()  # Bruno mucked
        shoot(page, artifacts, "dealer-result", BIG)
        shoot(page, artifacts, "dealer-result", SMALL)
        shoot(tv, artifacts, "tv-result", TV)
        page.set_viewport_size({"width": BIG[0], "height": BIG[1]})
        check_touch_targets(page)

        # Italian on the dealer screen too, by tapping the switch
        tap(page, '[data-testid="lang-switch"]')
        page.wait_for_selector('[data-testid="next-hand"]:has-text("Mano successiva")')
        shoot(page, artifacts, "dealer-result-it", SMALL)

        # the history: the hand street by street, downloads
        page.goto(server.url + "/history/?lang=en")
        page.locator(".hand-list a", has_text="#1").click()
        page.wait_for_selector('[data-testid="street"]')
        assert page.locator('[data-testid="street"]').count() >= 5
        shoot(page, artifacts, "dealer-history", BIG)
        phh_link = page.get_attribute('[data-testid="download-phh"]', "href")
        phh = page.request.get(server.url + phh_link)
        assert phh.ok and "F7S/8" in phh.text()
        json_link = page.get_attribute('[data-testid="download-json"]', "href")
        data = page.request.get(server.url + json_link)
        assert data.ok and len(data.json()["events"]) == steps
        assert errors == []
    finally:
        dealer_ctx.close()
        tv_ctx.close()


def test_the_tv_reconnects_and_resyncs_after_a_drop(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any
) -> None:
    import copy

    server = live_kiosk()
    http = server.dealer_session()
    assert http.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP)).ok
    assert http.post(server.url + "/api/hands").ok
    ctx = chromium.new_context(viewport={"width": TV[0], "height": TV[1]})
    try:
        tv = ctx.new_page()
        tv.goto(server.url + "/spectator?lang=en")
        tv.wait_for_selector('[data-testid="tv-pot"]:has-text("3")')
        server.kill()
        tv.wait_for_selector('[data-testid="conn"]:has-text("Reconnecting")', timeout=15000)
        server.start()
        # a change made while the TV was away shows up once it is back
        view = http.get(server.url + "/api/state").json()
        for _ in range(9):
            event = driver.next_event(view)
            assert http.post(server.url + "/api/events", json=event).ok
            view = http.get(server.url + "/api/state").json()
        tv.wait_for_selector('[data-testid="conn"]:has-text("Live")', timeout=15000)
        tv.wait_for_selector('.tv-seat .card[data-card="5h"]', timeout=10000)
        assert tv.locator('.tv-seat .card[data-card="As"]').count() == 0
    finally:
        ctx.close()


def test_a_tap_on_an_action_survives_a_state_that_arrives_under_the_finger(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any
) -> None:
    """A card reader identifies a down card while the dealer's finger is on the bring-in button:
    the new state reaches the screen between the press and the release, and the tap still acts."""
    import copy

    server = live_kiosk()
    http = server.dealer_session()
    assert http.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP)).ok
    assert http.post(server.url + "/api/hands").ok
    view = http.get(server.url + "/api/state").json()
    while view["hand"]["prompt"]["kind"] == "deal":
        assert http.post(server.url + "/api/events", json=driver.next_event(view)).ok
        view = http.get(server.url + "/api/state").json()
    hand = view["hand"]
    assert hand["prompt"]["kind"] == "bring_in" and hand["to_act"] == 1, hand["prompt"]
    ctx = server.signed_in(chromium.new_context(viewport={"width": BIG[0], "height": BIG[1]}), http)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/dealer?lang=en")
        button = page.locator('#legal [data-action="bring_in"]')
        box = button.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        # Carla's first down card, entered by a reader while the finger is down
        identify = {"type": "identify", "seat": 3, "card": "3c"}
        assert http.post(server.url + "/api/events", json=identify).ok
        page.wait_for_selector('.seat[data-seat="3"] .card[data-card="3c"]')
        page.mouse.up()
        wait_until(lambda: http.get(server.url + "/api/state").json()["hand"]["events"]
                   == hand["events"] + 2, "the bring-in tapped across the new state")
        last = http.get(server.url + "/api/state").json()["hand"]["last_action"]
        assert last["seat"] == 1 and last["action"] == "bring_in", last
    finally:
        ctx.close()
