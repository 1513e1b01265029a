"""Learning the deck in real Chromium with the image-folder camera: the dealer names a new deck,
lays the cards face up under the camera in rows, names them on the camera page (a tap on an
outline and the picker, one card confirmed in a tap, the rest all at once), the kiosk is started
again and still plays that deck; then a hand is dealt whose up cards are all proposed by the
camera and entered by one tap each, each entry an example of the deck. Screenshots of the new
pages at 1280x800 and 800x480 go to test-artifacts/."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hardware.camera.recognize import Recognizer
from tests.conftest import LiveKiosk
from tests.helpers.camera_table import (
    DOWN_SLOTS,
    ROWS,
    SETUP,
    TablePictures,
    plan_hand,
    show,
)
from tests.helpers.pages import dealer_view, took
from tests.helpers.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(240)]

BIG, SMALL = (1280, 800), (800, 480)


def corners(page: Any) -> list[dict[str, Any]]:
    """The corners outlined on the learning page, as its buttons list them."""
    found: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid="learn-corner"]')].map(b => ({id: b.dataset.id, state: b.dataset.state,
        card: b.dataset.card, learned: b.dataset.learned === '1'}))""")
    return found


def camera_state(session: Any, url: str) -> dict[str, Any]:
    state: dict[str, Any] = session.get(url + "/api/camera").json()
    return state


def tap_outline(page: Any, corner: dict[str, Any]) -> None:
    """Tap the corner's outline on the picture, where its index lies."""
    box = page.locator("#learn-canvas").bounding_box()
    assert box is not None
    x, y = corner["center"]
    page.mouse.click(box["x"] + x * box["width"], box["y"] + y * box["height"])


def shoot(page: Any, artifacts: Path, name: str) -> None:
    for w, h in (BIG, SMALL):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / f"{name}-{w}x{h}.jpg"))
    page.set_viewport_size({"width": BIG[0], "height": BIG[1]})


def test_a_deck_is_learned_from_pictures_then_a_hand_is_dealt_by_one_tap_a_card(
        live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path,
        tmp_path: Path) -> None:
    pictures = TablePictures()
    plan = plan_hand(pictures, Recognizer(min_confidence=0.0))
    laid = {seat: list(ups) for seat, ups in plan.ups.items()}  # the hand's up cards, in rows
    folder = tmp_path / "camera"
    folder.mkdir()
    show(folder, pictures.picture({}))
    instance = tmp_path / "instance"
    env = {"STUD_KIOSK_CAMERA": str(folder), "STUD_KIOSK_LANG": "it"}
    server = live_kiosk(instance=instance, env=env)
    session = server.dealer_session()
    assert session.put(server.url + "/api/setup", json=copy.deepcopy(SETUP)).ok
    zones = {str(seat): TablePictures.zone(seat) for seat in ROWS}
    assert session.post(server.url + "/api/camera/zones", json={"zones": zones}).ok

    ctx = server.signed_in(chromium.new_context(viewport={"width": BIG[0], "height": BIG[1]},
                                                has_touch=True), session)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # a new deck, named on the decks page
        page.goto(server.url + "/camera/decks?lang=it")
        page.locator('[data-testid="deck-list"]:has-text("Ancora nessun mazzo")').wait_for()
        page.locator('[data-testid="deck-name"]').fill("Modiano rosso")
        page.locator('[data-testid="deck-create"]').click()
        page.wait_for_url("**/camera/deck")
        deck = page.locator('[data-testid="learn-deck"]')
        wait_until(lambda: "Modiano rosso" in deck.inner_text(), "the new deck on the page")
        assert "0 esempi" in deck.inner_text()

        # the cards laid face up in rows under the camera
        show(folder, pictures.picture({seat: list(ups) for seat, ups in laid.items()}))
        wait_until(lambda: len(corners(page)) >= 6, "the cards outlined", 30)
        shoot(page, artifacts, "camera-learn")
        state = camera_state(session, server.url)
        read = [c for c in state["corners"] if c["state"] == "read"]
        assert read, state["corners"]
        # one card tapped on the picture and named with the picker (the card it is)
        first = read[0]
        tap_outline(page, first)
        sheet = page.locator('[data-testid="learn-picker"]')
        sheet.wait_for()
        assert page.locator('[data-testid="learn-question"]').inner_text().startswith(
            "La telecamera legge ")
        page.screenshot(path=str(artifacts / "camera-learn-picker-1280x800.jpg"))
        sheet.locator(f'button[data-card="{first["card"]}"]').click()
        assert sheet.is_hidden()
        # another confirmed in one tap
        second = read[1]
        page.locator(f'[data-testid="learn-corner"][data-id="{second["id"]}"]').click()
        page.locator('[data-testid="learn-yes"]').click()
        wait_until(lambda: {c["card"] for c in corners(page) if c["learned"]}
                   >= {first["card"], second["card"]}, "the two cards learned")
        # a corner the camera could not name, named with the picker
        for corner in camera_state(session, server.url)["corners"]:
            if corner["state"] == "unread":
                tap_outline(page, corner)
                sheet.wait_for()
                assert page.locator('[data-testid="learn-question"]').inner_text() == \
                    "Che carta è?"
                page.locator('[data-testid="learn-cancel"]').click()
        # the rest at once
        all_read = page.locator('[data-testid="learn-all"]')
        wait_until(lambda: all_read.is_visible(), "cards left to confirm")
        all_read.click()
        wait_until(lambda: all(c["learned"] for c in corners(page) if c["state"] == "read"),
                   "every card read learned", 15)
        assert all_read.is_hidden()  # nothing left to confirm
        learned = {c["card"] for c in corners(page) if c["learned"]}
        assert len(learned) >= 6, learned
        decks = session.get(server.url + "/api/camera/decks").json()["decks"]
        assert [(d["name"], d["table"]) for d in decks] == [("Modiano rosso", True)]
        assert decks[0]["examples"] >= len(learned)  # a card seen anew may be named twice
        shoot(page, artifacts, "camera-learn-done")

        # the decks, and the deck's examples with their thumbnails
        page.goto(server.url + "/camera/decks?lang=it")
        row = page.locator('[data-testid="deck"][data-key="modiano-rosso"]')
        row.locator('[data-testid="deck-table"]').wait_for()
        assert f"{len(learned)} esempi" in row.inner_text()
        shoot(page, artifacts, "camera-decks")
        row.locator('[data-testid="deck-examples"]').click()
        page.wait_for_url("**/camera/decks/modiano-rosso")
        cards = page.locator('[data-testid="deck-card"]')
        cards.first.wait_for()
        assert cards.count() == len(learned)
        page.wait_for_function("() => [...document.querySelectorAll('.deck-card img')]"
                               ".every(i => i.complete && i.naturalWidth === 64)")
        shoot(page, artifacts, "camera-deck-examples")
        # a wrong example taken out (here one of a card learned once)
        examples = session.get(server.url + "/api/camera/decks/modiano-rosso").json()["cards"]
        removed = next(card for card, found in examples.items() if len(found) == 1)
        page.locator(f'[data-testid="deck-card"][data-card="{removed}"] '
                     '[data-testid="example-remove"]').click()
        page.locator(f'[data-testid="deck-card"][data-card="{removed}"]').wait_for(
            state="detached")
        kept = decks[0]["examples"] - 1
    finally:
        ctx.close()

    # the kiosk is started again: the table still plays the deck, with what it learned
    server.kill()
    server.start()
    session = server.dealer_session()
    wait_until(lambda: camera_state(session, server.url)["deck"] is not None, "the deck", 20)
    assert camera_state(session, server.url)["deck"]["examples"] == kept

    # a hand: the down cards from the picker (here the API), each up card tapped once
    show(folder, pictures.picture({}))
    assert session.post(server.url + "/api/hands").ok
    ctx = server.signed_in(chromium.new_context(viewport={"width": BIG[0], "height": BIG[1]},
                                                has_touch=True), session)
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/dealer?lang=it")
        entered: list[str] = []
        shown_street = -1
        while True:
            hand = dealer_view(page, server.url)["hand"]
            if hand["finished"]:
                break
            kind, before = hand["prompt"]["kind"], hand["events"]
            if kind == "deal":
                street = hand["street"]
                if street != shown_street:
                    shown_street = street
                    show(folder, plan.pictures[street])
                needs = {int(s): n for s, n in hand["needs"].items()}
                downs = [s for s in hand["prompt"]["seats"] if needs.get(s, {}).get("down")]
                if downs:
                    seat = downs[0]
                    held = len(next(s for s in hand["seats"] if s["seat"] == seat)["cards"])
                    card = plan.downs[seat][DOWN_SLOTS.index(held)]
                    assert session.post(server.url + "/api/events", json={
                        "type": "deal", "seat": seat, "card": card, "up": False}).ok
                    continue
                seat = next(s for s in hand["prompt"]["seats"] if needs.get(s, {}).get("up"))
                card = plan.ups[seat][street]
                button = page.locator(f'[data-testid="camera-proposal"][data-seat="{seat}"]'
                                      f'[data-card="{card}"]')
                button.wait_for(timeout=20_000)
                if street == 0 and seat == 1:
                    page.screenshot(path=str(artifacts / "camera-learned-hand-1280x800.jpg"))
                button.click()  # one tap
                wait_until(took(page, server.url, before + 1), f"{card} at seat {seat}", 15)
                entered.append(card)
                continue
            seat = hand["prompt"]["seats"][0]
            if kind == "show":  # the first to show shows, the others muck
                event = ({"type": "show", "seat": seat, "cards": plan.downs[seat]}
                         if not any(s.get("shown") for s in hand["seats"])
                         else {"type": "muck", "seat": seat})
                assert session.post(server.url + "/api/events", json=event).ok, event
                continue
            legal = {a["action"] for a in hand["legal"]}
            action = ("bring_in" if "bring_in" in legal
                      else "check" if "check" in legal else "call")
            amount = next(a["amount"] for a in hand["legal"] if a["action"] == action)
            assert session.post(server.url + "/api/events", json={
                "type": "act", "seat": seat, "action": action, "amount": amount}).ok, action
        assert sorted(entered) == sorted(c for ups in plan.ups.values() for c in ups)
        # every up card entered became an example of the table's deck
        examples = session.get(server.url + "/api/camera/decks/modiano-rosso").json()["cards"]
        taught = {card for card, found in examples.items()
                  if any(e["source"].startswith("hand ") for e in found)}
        assert taught == set(entered), (taught, entered)
        assert errors == []
    finally:
        ctx.close()
