"""Real Chromium against the real server: the dealer page sends each entry with an id of its own
(so that an entry sent again is answered, not entered twice), and goes back to the PIN page as
soon as the dealer sessions end elsewhere."""

from __future__ import annotations

import copy
import re
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import TEST_PIN, LiveKiosk, csrf_from
from tests.kiosk import driver

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_dealer_page_sends_entries_with_their_own_id(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any
) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    http.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP)).raise_for_status()
    http.post(server.url + "/api/hands").raise_for_status()
    first = driver.next_event(http.get(server.url + "/api/state").json())
    http.post(server.url + "/api/events", json=first).raise_for_status()
    context = server.signed_in(chromium.new_context(), http)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.url + "/dealer?lang=en")
        page.wait_for_selector('[data-testid="conn"]:not(.off)')
        page.locator('[data-testid="undo"]').click()
        for _ in range(100):
            if http.get(server.url + "/api/state").json()["hand"]["events"] == 0:
                break
            page.wait_for_timeout(50)
        with sqlite3.connect(server.instance / "stud-kiosk.sqlite3") as db:
            ids = [row[0] for row in db.execute("SELECT entry_id FROM answers")]
        assert len(ids) == 1 and re.fullmatch(r"[0-9a-f]{24}", ids[0]), ids
        assert errors == []
    finally:
        context.close()


def test_the_dealer_page_locks_when_the_sessions_end(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any
) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    other = server.dealer_session()
    context = server.signed_in(chromium.new_context(), http)
    page = context.new_page()
    try:
        page.goto(server.url + "/dealer?lang=en")
        page.wait_for_selector('[data-testid="conn"]:not(.off)')
        token = csrf_from(other.get(server.url + "/dealer").text)
        other.post(server.url + "/logout", data={"csrf_token": token}).raise_for_status()
        page.wait_for_url(re.compile(r".*/login.*"), timeout=10_000)
        assert page.locator("#pin").count() == 1
    finally:
        context.close()


def test_the_pin_is_changed_on_the_keypad(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any
) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    context = server.signed_in(chromium.new_context(viewport={"width": 800, "height": 480},
                                                    has_touch=True), http)
    page = context.new_page()
    try:
        page.goto(server.url + "/pin/change?lang=en")
        # the current PIN, the new one, then again: each ended with ✓, the last ✓ sends them
        for pin in (TEST_PIN, "97531", "97531"):
            for digit in pin:
                page.locator(f'.keypad [data-key="{digit}"]').click()
            page.locator('.keypad [data-key="✓"]').click()
        page.wait_for_url(re.compile(r".*/setup/$"), timeout=10_000)
    finally:
        context.close()
    assert server.dealer_session("97531").get(server.url + "/api/setup").status_code == 200
