"""Real Chromium: the TV's odds and replay, and the stream overlay (1920x1080, transparent) with
its hole cards arriving only after the house's delay, measured in the page. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LiveKiosk
from tests.kiosk import driver

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TV = {"width": 1920, "height": 1080}


def set_up(server: LiveKiosk, **tv: Any) -> Any:
    http = server.dealer_session()
    setup = copy.deepcopy(driver.SETUP)
    setup["tv"] = {"odds": True, "replays": True, "overlay_delay": 60, **tv}
    assert http.put(server.url + "/api/setup", json=setup).status_code == 200
    assert http.post(server.url + "/api/hands").status_code == 200
    return http


def enter(server: LiveKiosk, http: Any, count: int | None = None) -> int:
    """The scripted hand's next ``count`` entries (all when None); how many were made."""
    done = 0
    while count is None or done < count:
        event = driver.next_event(http.get(server.url + "/api/state").json())
        if event is None:
            break
        answer = http.post(server.url + "/api/events", json=event)
        assert answer.status_code == 200, answer.text
        done += 1
    return done


def test_the_tv_shows_odds_then_replays_the_hand(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    server = live_kiosk()
    http = set_up(server)
    context = chromium.new_context(viewport=TV)
    tv = context.new_page()
    errors: list[str] = []
    tv.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        tv.clock.install()
        tv.goto(server.url + "/spectator?lang=it")
        enter(server, http, 9)  # third street dealt
        tv.wait_for_function("document.querySelectorAll('[data-testid=seat-odds]').length === 3",
                             timeout=15000)
        assert tv.inner_text('[data-testid="tv-odds"]') == "Probabilità: stima"
        equities = [int(e.replace("%", "")) for e in tv.locator(".odds .equity").all_inner_texts()]
        assert 95 <= sum(equities) <= 105
        assert "alto" in tv.inner_text('.tv-seat[data-seat="1"] .odds')
        tv.screenshot(path=str(artifacts / "tv-odds-1920x1080.jpg"))
        enter(server, http)
        tv.wait_for_selector('[data-testid="tv-results"]')
        assert tv.locator("[data-testid=seat-odds]").count() == 0
        # after the result has stayed a while, the replay: third street with the hands shown
        tv.wait_for_selector("#tv[data-replay]", state="attached", timeout=15000)
        tv.clock.fast_forward(9000)
        tv.wait_for_selector("#tv.replaying", timeout=5000)
        street = tv.inner_text('[data-testid="tv-street"]')
        assert street == "Replay n. 1 · Terza strada"
        assert tv.locator('.tv-seat[data-seat="1"] .card[data-card="As"]').count() == 1
        assert tv.locator('.tv-seat[data-seat="2"] .card[data-card="Kd"]').count() == 0
        assert tv.locator("[data-testid=seat-odds]").count() == 3
        assert "Anna apre con il bring-in di 2" in tv.inner_text('[data-testid="last-action"]')
        tv.screenshot(path=str(artifacts / "tv-replay-1920x1080.jpg"))
        for _street in range(5):
            tv.clock.fast_forward(5500)
        tv.wait_for_selector("#tv:not(.replaying)", timeout=5000)
        tv.wait_for_selector('[data-testid="tv-results"]')
    finally:
        context.close()
    assert errors == []


def is_hole(event: dict[str, Any]) -> bool:
    return event["type"] == "deal" and not event["up"]


def test_the_overlay_shows_each_hole_card_after_the_delay(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    server = live_kiosk()
    http = set_up(server, overlay_delay=2)
    url = http.get(server.url + "/api/overlay").json()["url"]
    context = chromium.new_context(viewport=TV)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    lateness: list[float] = []
    shot = False
    try:
        page.goto(url + "?lang=en")
        page.wait_for_selector('[data-testid="ov-info"]')
        background = page.evaluate(
            "() => [getComputedStyle(document.documentElement).backgroundColor,"
            " getComputedStyle(document.body).backgroundColor]")
        assert background == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
        assert page.evaluate("() => [document.body.scrollWidth, document.body.scrollHeight]") == [
            1920, 1080]
        while True:
            view = http.get(server.url + "/api/state").json()
            event = driver.next_event(view)
            if event is None:
                break
            if view["hand"]["street_name"] == "sixth" and not shot:
                shot = True  # fifth street on the overlay two seconds later, with its odds
                page.wait_for_timeout(2500)
                page.wait_for_selector(".ov-seat .odds")
                page.screenshot(path=str(artifacts / "overlay-fifth-1920x1080.png"),
                                omit_background=True)
            if not is_hole(event):
                assert http.post(server.url + "/api/events", json=event).status_code == 200
                continue
            # the hole cards dealt in a row (each seat's down cards): each entered, then
            # not there while its delay runs, then there
            sent: list[tuple[str, float]] = []
            while event is not None and is_hole(event):
                if event["card"]:  # a down card the dealer did not enter is nobody's to show
                    sent.append((event["card"], time.monotonic()))
                assert http.post(server.url + "/api/events", json=event).status_code == 200
                event = driver.next_event(http.get(server.url + "/api/state").json())
            if not sent:
                continue
            page.wait_for_timeout(max(0.0, sent[0][1] + 1.5 - time.monotonic()) * 1000)
            for card, _at in sent:
                assert page.locator(f'.ov-seat .card[data-card="{card}"]').count() == 0, (
                    f"the hole card {card} came early")
            for card, at in sent:
                page.wait_for_selector(f'.ov-seat .card[data-card="{card}"]', timeout=10000)
                lateness.append(time.monotonic() - at - 2)
        page.wait_for_selector(".ov-seat.winner", timeout=10000)
        page.screenshot(path=str(artifacts / "overlay-result-1920x1080.png"), omit_background=True)
    finally:
        context.close()
    assert errors == []
    assert len(lateness) == 6 and min(lateness) >= 0
    assert max(lateness) < 2.5, f"the overlay ran late: {lateness}"
