"""A whole seven-card stud hand through the image-folder camera, in real Chromium.

The camera (``STUD_KIOSK_CAMERA``, a folder of pictures) looks at a table drawn from the
committed CC0 card faces (:mod:`tests.helpers.camera_table`): three stud rows on a felt, one per
seat. The folder holds one picture, ``table.jpg``, replaced street by street as the cards land
(the folder source re-lists the folder on every pass). Every up card, third to sixth street, is
entered by the dealer tapping the camera's proposal, held like a finger while the camera sends
new readings to the screen; the down cards are face down in the picture and entered with the
touch picker; the betting is tapped on the dealer screen. A spectator page in its own browser
context shows an up card only once it is confirmed and never a down card before the showdown (nor
ever the down cards of a hand mucked there); the payout instructions end the hand.

Which cards are dealt is chosen at run time, before the kiosk starts: those the recognizer (the
real model, real OpenCV) reads at their place in the very pictures the camera will show. The test
does not rest on the current model's confidences, only on proposals appearing and taps entering
them. Screenshots of each street (dealer, TV, the camera's picture) go to test-artifacts/.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests
import socketio

from hardware.camera import DEFAULT_MIN_CONFIDENCE
from hardware.camera.recognize import Recognizer
from tests.conftest import LiveKiosk
from tests.helpers.camera_table import (
    DOWN_SLOTS,
    ROWS,
    SETUP,
    STREETS,
    TV,
    Plan,
    TablePictures,
    plan_hand,
    show,
)
from tests.helpers.pages import acting_on_screen, dealer_view, tap, tap_event, took
from tests.helpers.waiting import wait_until
from tests.kiosk import driver

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(180)]

# ---- the hand --------------------------------------------------------------------------------

#: every proposal the dealer screen ever shows, as "seat:card", recorded in the page itself
RECORD_PROPOSALS = """
window.__proposed = [];
new MutationObserver(() => {
  document.querySelectorAll('[data-testid="camera-proposal"]').forEach(b => {
    const key = b.dataset.seat + ':' + b.dataset.card;
    if (!window.__proposed.includes(key)) window.__proposed.push(key);
  });
}).observe(document, {childList: true, subtree: true});
"""


def spectator_state(url: str) -> str:
    answer = requests.get(url + "/api/state?lang=it", timeout=5)
    assert answer.ok
    state: dict[str, Any] = answer.json()
    assert state["role"] == "spectator"
    return json.dumps(state)


def up_cards(view: dict[str, Any], seat: int) -> list[str]:
    cards = next(s for s in view["hand"]["seats"] if s["seat"] == seat)["cards"]
    return [c["card"] for c in cards if c.get("up")]


def touchscreen(chromium: Any, server: LiveKiosk, session: Any) -> Any:
    """A browser context for the dealer's 1280x800 touchscreen, signed in as ``session``."""
    return server.signed_in(chromium.new_context(viewport={"width": 1280, "height": 800},
                                                 has_touch=True), session)


def calibrate_by_touch(page: Any) -> None:
    """On /camera: for each seat, choose it and tap two opposite corners of its zone; save."""
    page.locator('[data-testid="camera-status"]:has-text("telecamera collegata")').wait_for()
    page.wait_for_function("() => { const i = document.getElementById('camera-img');"
                           " return i && i.complete && i.naturalWidth > 0; }")
    canvas = page.locator("#camera-zones")
    box = canvas.bounding_box()
    assert box is not None
    # the whole picture is on the screen: every zone is drawn without scrolling
    viewport = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (box, viewport)
    assert box["x"] + box["width"] <= viewport["width"], (box, viewport)
    # one button per seat at the table, with the player's name
    seats = page.locator('[data-testid="camera-seats"] [data-seat]')
    assert [seats.nth(i).inner_text().strip() for i in range(seats.count())] == [
        f"{s['seat']} · {s['name']}" for s in SETUP["seats"] if s["active"]]
    for seat in ROWS:
        button = page.locator(f'[data-testid="camera-seat-{seat}"]')
        tap(page, f'[data-testid="camera-seat-{seat}"]')
        assert button.get_attribute("aria-pressed") == "true"
        assert button.get_attribute("data-zone") == "0"
        x0, y0, x1, y1 = TablePictures.zone(seat)
        for fx, fy in ((x0, y0), (x1, y1)):
            page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
        assert button.get_attribute("data-zone") == "1"
    tap(page, '[data-testid="camera-save"]')
    page.locator('#camera-hint:has-text("Zone salvate")').wait_for()


def test_the_house_settings_are_typed_on_the_camera_page_while_the_camera_runs(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "camera"
    folder.mkdir()  # nothing before the camera yet
    server = live_kiosk(env={"STUD_KIOSK_CAMERA": str(folder), "STUD_KIOSK_LANG": "it"})
    session = server.dealer_session()

    def saved() -> dict[str, Any]:
        settings: dict[str, Any] = session.get(server.url + "/api/camera").json()["settings"]
        return settings

    before = saved()
    assert before["auto_confirm"] is False and before["down_hints"] is False
    assert before["detail"] == "auto"
    assert before["auto_frames"] == 5 and before["auto_threshold"] == 0.95
    camera_news = CameraNews()
    ctx = touchscreen(chromium, server, session)
    try:
        camera_news.connect(server.url, auth={"role": "dealer", "lang": "it"},
                            headers={"Cookie": server.cookie_header(session)},
                            transports=["websocket"])
        page = ctx.new_page()
        page.goto(server.url + "/camera?lang=it")
        page.locator('[data-testid="camera-noframe"]').wait_for()
        # the first frame shows up on the open page by itself
        show(folder, TablePictures().picture({}))
        page.wait_for_function("() => document.getElementById('camera-img').naturalWidth > 0",
                               timeout=30_000)
        page.locator('[data-testid="camera-noframe"]').wait_for(state="hidden")
        page.locator('[data-testid="camera-status"]:has-text("telecamera collegata")').wait_for()
        # with no table set up, every seat can be given a zone
        assert page.locator('[data-testid="camera-seats"] [data-seat]').count() == 10
        threshold = page.locator('[data-testid="camera-threshold"]')
        assert threshold.input_value() == "95"
        detail = page.locator('[data-testid="camera-detail"]')
        wait_until(lambda: detail.input_value() == "auto", "reading in detail shown as automatic")
        assert detail.locator("option:checked").inner_text() == \
            "Se le carte appaiono piccole (sotto 12 px)"

        # typed a digit at a time while the camera sends the page new readings
        threshold.click()
        page.keyboard.press("Control+A")
        for digit in "85":
            page.keyboard.type(digit)
            camera_news.wait_for_more(page)
        assert threshold.input_value() == "85"
        page.keyboard.press("Tab")
        wait_until(lambda: saved()["auto_threshold"] == 0.85, "the threshold saved")
        page.locator("#camera-hint:has-text('Impostazioni salvate')").wait_for()

        # a value out of bounds: the page names the field and its bounds, and nothing changes
        frames = page.locator('[data-testid="camera-frames"]')
        frames.fill("40")
        page.keyboard.press("Tab")
        page.locator("#camera-hint:has-text('Immagini di fila: da 2 a 30.')").wait_for()
        assert frames.input_value() == "5"
        assert saved()["auto_frames"] == 5

        low = page.locator('[data-testid="camera-min-confidence"]')
        assert low.input_value() == str(round(100 * before["min_confidence"]))
        low.fill("80")
        page.keyboard.press("Tab")
        wait_until(lambda: saved()["min_confidence"] == 0.8, "the flag threshold saved")
        page.locator('[data-testid="camera-down-hints"]').click()
        wait_until(lambda: saved()["down_hints"] is True, "the down-card hints turned on")
        page.locator('[data-testid="camera-auto"]').click()
        wait_until(lambda: saved()["auto_confirm"] is True, "auto-confirm turned on")
        detail.select_option("on")
        wait_until(lambda: saved()["detail"] == "on", "reading in detail always on")
        assert saved()["auto_frames"] == 5 and saved()["auto_threshold"] == 0.85

        # and the page shows them again when it is opened again
        page.reload()
        page.locator('[data-testid="camera-status"]:has-text("telecamera collegata")').wait_for()
        wait_until(lambda: threshold.input_value() == "85", "the saved threshold shown")
        assert low.input_value() == "80" and frames.input_value() == "5"
        assert page.locator('[data-testid="camera-auto"]').is_checked()
        assert page.locator('[data-testid="camera-down-hints"]').is_checked()
        wait_until(lambda: detail.input_value() == "on", "reading in detail shown always on")

        # cards seen from farther off, their ranks about 10 px tall: the page says to bring the
        # camera closer (reading in detail is on already, so it does not suggest it)
        scale = page.locator('[data-testid="camera-scale"]')
        assert scale.is_hidden()  # no card read yet
        show(folder, TablePictures().farther(
            {1: [None, "Kh", "Qd"], 2: [None, "9h", "3c"], 3: [None, "Ad", "2s"]}, 0.55))
        page.locator('[data-testid="camera-scale"].small').wait_for(timeout=20_000)
        assert re.fullmatch(r"Lettere e numeri agli angoli delle carte: alti circa (9|10|11) px "
                            r"nell'immagine, troppo piccoli per essere letti con sicurezza "
                            r"\(al meglio da 14 px\)\. Avvicina la telecamera al tavolo o aumenta "
                            r"lo zoom\.", scale.inner_text()), scale.inner_text()
        # the dealer screen says so too, between hands as during one, and leads to this page
        assert session.put(server.url + "/api/setup", json=copy.deepcopy(SETUP)).ok
        dealer = ctx.new_page()
        dealer.goto(server.url + "/dealer?lang=it")
        warning = dealer.locator('[data-testid="camera-scale-warning"]')
        warning.wait_for(timeout=20_000)
        assert re.fullmatch(r"La telecamera vede gli angoli delle carte troppo piccoli \(circa "
                            r"(9|10|11) px, letti al meglio da 14 px\): molte carte non saranno "
                            r"proposte\. Avvicina la telecamera o aumenta lo zoom: pagina "
                            r"Telecamera\.", warning.inner_text()), warning.inner_text()
        dealer.screenshot(path=str(artifacts / "camera-small-dealer-1280x800.jpg"))
        warning.click()
        dealer.wait_for_url("**/camera?lang=it")
        dealer.close()
        page.evaluate("window.scrollTo(0, 0)")
        # the names of the cards read are drawn on the picture apart, each inside it, though the
        # cards of a row lie close together (the index corners of a row's two up cards are 30 px
        # apart in the picture as drawn)
        labels_apart(page, 6)
        page.screenshot(path=str(artifacts / "camera-page-1280x800.jpg"))
        # a small screen: the seats, the picture under them, then the settings
        page.set_viewport_size({"width": 800, "height": 480})
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / "camera-page-800x480.jpg"), full_page=True)
        labels_apart(page, 6)
        shot = page.locator("#camera-zones").bounding_box()
        seats = page.locator('[data-testid="camera-seats"]').bounding_box()
        assert shot is not None and seats is not None and shot["width"] <= 800, shot
        assert seats["y"] < shot["y"] < low.bounding_box()["y"], (seats, shot)
    finally:
        camera_news.disconnect()
        ctx.close()


def labels_apart(page: Any, least: int) -> None:
    """The names of the cards read, as drawn on the camera page's picture: at least ``least``,
    one for each reading listed under the picture, none covering another, all inside it."""
    def drawn() -> dict[str, Any]:
        found: dict[str, Any] = page.evaluate("""() => {
            const canvas = document.getElementById('camera-zones');
            return {labels: JSON.parse(canvas.dataset.labels || '[]'),
                    listed: [...document.querySelectorAll(
                        '[data-testid="camera-readings"] .reading')].map(e => e.dataset.card),
                    width: canvas.width, height: canvas.height};
        }""")
        return found

    wait_until(lambda: len(drawn()["labels"]) >= least, "the names of the cards read drawn", 20)
    seen = drawn()
    labels, width, height = seen["labels"], seen["width"], seen["height"]
    assert sorted(label["card"] for label in labels) == sorted(seen["listed"]), seen
    boxes = [label["box"] for label in labels]
    for x, y, w, h in boxes:
        assert x >= 0 and y >= 0 and x + w <= width and y + h <= height, (boxes, width, height)
    for i, (x, y, w, h) in enumerate(boxes):
        for x2, y2, w2, h2 in boxes[i + 1:]:
            assert x >= x2 + w2 or x2 >= x + w or y >= y2 + h2 or y2 >= y + h, (labels, i)


def test_a_whole_hand_is_dealt_through_the_camera_and_confirmed_by_tapping(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path, tmp_path: Path
) -> None:
    pictures = TablePictures()
    plan = plan_hand(pictures, Recognizer(min_confidence=0.0))
    all_downs = [c for cards in plan.downs.values() for c in cards]
    folder = tmp_path / "camera"
    folder.mkdir()
    show(folder, pictures.picture({}))  # the bare table before the hand

    server = live_kiosk(env={"STUD_KIOSK_CAMERA": str(folder), "STUD_KIOSK_LANG": "it"})
    session = server.dealer_session()
    assert session.put(server.url + "/api/setup", json=copy.deepcopy(SETUP)).ok
    bad = session.post(server.url + "/api/camera/zones", json={"zones": {"1": [2, 0, 1, 1]}})
    assert bad.status_code == 422 and "zona" in bad.json()["error"]
    wait_until(lambda: session.get(server.url + "/camera/snapshot.jpg").ok, "a first frame", 30)

    dealer_ctx = touchscreen(chromium, server, session)
    tv_ctx = chromium.new_context(viewport={"width": TV[0], "height": TV[1]})
    camera_news = CameraNews()
    try:
        errors: list[str] = []
        # a second dealer screen counts the camera's broadcasts (one per frame read)
        camera_news.connect(server.url, auth={"role": "dealer", "lang": "it"},
                            headers={"Cookie": server.cookie_header(session)},
                            transports=["websocket"])
        page = dealer_ctx.new_page()
        page.add_init_script(RECORD_PROPOSALS)
        tv = tv_ctx.new_page()
        for p in (page, tv):
            p.on("pageerror", lambda exc: errors.append(str(exc)))
        tv.goto(server.url + "/spectator?lang=it")
        tv.wait_for_selector('[data-testid="conn"]:has-text("In linea")')
        page.goto(server.url + "/dealer?lang=it")
        tap(page, '[data-testid="start-hand"]')
        page.wait_for_selector('[data-testid="picker"]')

        # no seat has a zone yet: the dealer screen says so, and the note leads to the calibration
        unzoned = page.locator('[data-testid="camera-unzoned"]')
        assert unzoned.inner_text() == ("Nessuna zona della telecamera per: 1 · Anna, 2 · Bruno, "
                                        "3 · Carla. Segna le zone nella pagina Telecamera.")
        unzoned.click()
        page.wait_for_url("**/camera?lang=it")
        assert page.locator('[data-testid="nav-camera"]').count() == 1
        # the third street's up cards lie on the table: the page lists what the camera reads,
        # first outside any zone, then at each seat once the zones are saved
        show(folder, plan.pictures[0])
        readings = page.locator('[data-testid="camera-readings"]')
        for ups in plan.ups.values():
            readings.locator(f'.reading.off-zone[data-card="{ups[0]}"]').wait_for(timeout=20_000)
        assert "fuori dalle zone" in readings.inner_text()
        # how large the corner letters are (the faces' ranks are 18 px tall): large enough
        scale = page.locator('[data-testid="camera-scale"]')
        assert re.fullmatch(r"Lettere e numeri agli angoli delle carte: alti circa 1[6-9] px "
                            r"nell'immagine \(letti al meglio da 14 px\)\.",
                            scale.inner_text()), scale.inner_text()
        assert "small" not in (scale.get_attribute("class") or "")
        calibrate_by_touch(page)
        for seat, ups in plan.ups.items():
            read = readings.locator(f'.reading[data-card="{ups[0]}"][data-seat="{seat}"]')
            read.wait_for(timeout=10_000)
            assert read.inner_text().endswith(f"· posto {seat}"), read.inner_text()
        saved = session.get(server.url + "/api/camera").json()["zones"]
        for seat in ROWS:
            assert saved[str(seat)] == pytest.approx(TablePictures.zone(seat), abs=0.01), seat
        page.screenshot(path=str(artifacts / "camera-calibration-1280x800.jpg"))
        # back to the hand, where the note is gone
        page.locator(".topnav a", has_text="Mano").click()
        page.wait_for_selector('[data-testid="picker"]')
        page.locator('[data-testid="camera-proposal"]').first.wait_for()
        assert unzoned.count() == 0

        shown_street = after_sixth = -1
        showed: int | None = None
        while True:
            view = dealer_view(page, server.url)
            hand = view["hand"]
            if hand["finished"]:
                break
            kind = hand["prompt"]["kind"]
            before = hand["events"]
            if kind == "deal":
                street = hand["street"]
                name = STREETS[street]
                if street != shown_street:  # the dealer deals the street: the camera sees it
                    shown_street = street
                    show(folder, plan.pictures[street])
                    (artifacts / f"camera-hand-{name}-camera.jpg").write_bytes(
                        plan.pictures[street])
                needs = {int(s): n for s, n in hand["needs"].items()}
                downs = [s for s in hand["prompt"]["seats"] if needs.get(s, {}).get("down")]
                if downs:  # a down card: face down before the camera, entered by touch
                    seat = downs[0]
                    held = len(next(s for s in hand["seats"] if s["seat"] == seat)["cards"])
                    card = plan.downs[seat][DOWN_SLOTS.index(held)]
                    tap_event(page, hand, {"type": "deal", "seat": seat, "card": card,
                                           "up": False})
                    wait_until(took(page, server.url, before + 1), f"down card {card}")
                    continue
                confirm_street(page, tv, server.url, plan, street, artifacts, camera_news)
                if street == 3:
                    after_sixth = page.evaluate("() => window.__proposed.length")
                continue
            if kind in ("bring_in", "act"):
                legal = {a["action"] for a in hand["legal"]}
                if "bring_in" in legal:
                    action = "bring_in"
                elif hand["street_name"] == "fifth" and "bet" in legal:
                    action = "bet"
                else:
                    action = "check" if "check" in legal else "call"
                acting_on_screen(page, hand["prompt"]["seats"][0])
                tap(page, f'#legal [data-action="{action}"]')
                wait_until(took(page, server.url, before + 1), f"{action} on {hand['street_name']}")
                continue
            if kind == "show":
                seat = hand["prompt"]["seats"][0]
                if showed is None:  # the first to show shows; the others muck
                    spectator_hides(server.url, tv, all_downs)
                    showed = seat
                    tap_event(page, hand, {"type": "show", "seat": seat, "cards": []})
                else:
                    tap_event(page, hand, {"type": "muck", "seat": seat})
                wait_until(took(page, server.url, before + 1), f"showdown of seat {seat}")
                continue
            raise AssertionError(f"no answer to the prompt {hand['prompt']}")

        # the payout instructions, on the dealer screen and on the TV
        assert showed is not None
        result = dealer_view(page, server.url)["hand"]["result"]
        pushed = sum(p["amount"] for p in result["payouts"])
        assert pushed == 3 * (1 + 2 + 10), result  # antes, the bring-in called, fifth's bet
        page.wait_for_selector('[data-testid="result"]')
        text = page.inner_text('[data-testid="result"]')
        assert "Dai " in text, text
        tv.wait_for_selector('[data-testid="tv-results"]')
        tv_text = tv.inner_text('[data-testid="tv-results"]')
        winners = {p["name"] for p in result["payouts"] if p["amount"]}
        assert winners and all(w in text and w in tv_text for w in winners), (text, tv_text)
        page.screenshot(path=str(artifacts / "camera-hand-result-dealer-1280x800.jpg"))
        tv.screenshot(path=str(artifacts / f"camera-hand-result-tv-{TV[0]}x{TV[1]}.jpg"))

        # the shown hand is public now; the mucked hands' down cards never reached a spectator
        for card in plan.downs[showed]:
            tv.wait_for_selector(f'.tv-seat .card[data-card="{card}"]')
        mucked = [c for seat, cards in plan.downs.items() if seat != showed for c in cards]
        spectator_hides(server.url, tv, mucked)

        # the camera proposed every up card at its seat and never named a down card
        proposed = set(page.evaluate("() => window.__proposed"))
        wanted = {f"{seat}:{card}" for seat, ups in plan.ups.items() for card in ups}
        assert wanted <= proposed, sorted(wanted - proposed)
        assert not {p.split(":")[1] for p in proposed} & set(all_downs), proposed
        # seventh street brings down cards only, and the showdown none: nothing was proposed
        assert page.evaluate("() => window.__proposed.length") == after_sixth, proposed
        for seat, ups in plan.ups.items():
            assert up_cards(view, seat) == ups
        assert errors == []
    finally:
        camera_news.disconnect()
        dealer_ctx.close()
        tv_ctx.close()


def spectator_hides(url: str, tv: Any, cards: list[str]) -> None:
    """Neither the spectator's state nor the TV page holds any of ``cards``."""
    state = spectator_state(url)
    held = [c for c in cards if f'"{c}"' in state]
    assert held == [], f"the spectator state holds {held}"
    shown = [c for c in cards if tv.locator(f'.card[data-card="{c}"]').count()]
    assert shown == [], f"the TV shows {shown}"


class CameraNews(socketio.Client):  # type: ignore[misc]
    """A dealer screen that counts the ``camera`` events the kiosk sends."""

    def __init__(self) -> None:
        super().__init__(reconnection=False)
        self.count = 0
        self.on("camera", self._camera)

    def _camera(self, _snapshot: dict[str, Any]) -> None:
        self.count += 1

    def wait_for_more(self, page: Any, more: int = 3) -> None:
        """Until ``more`` new readings were sent to the dealer screens (``page`` among them)."""
        seen = self.count
        wait_until(lambda: self.count >= seen + more, "the camera's readings", 15)
        page.wait_for_timeout(150)  # the page has them too


def press_through_camera_news(page: Any, button: Any, news: CameraNews) -> None:
    """Tap ``button`` as a finger does: pressed while the camera sends the screens at least three
    new readings, then released (a button rebuilt in between would lose the tap)."""
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    news.wait_for_more(page)
    page.mouse.up()


def confirm_street(page: Any, tv: Any, url: str, plan: Plan, street: int,
                   artifacts: Path, camera_news: CameraNews) -> None:
    """The street's up cards are before the camera: the dealer taps each seat's proposal."""
    name = STREETS[street]
    news = {seat: ups[street] for seat, ups in plan.ups.items()}
    buttons = {seat: page.locator(f'[data-testid="camera-proposal"][data-seat="{seat}"]'
                                  f'[data-card="{card}"]') for seat, card in news.items()}
    for seat, button in buttons.items():
        button.wait_for(timeout=20_000)
        confidence = plan.confidence[news[seat]]
        if abs(confidence - DEFAULT_MIN_CONFIDENCE) > 0.02:
            # a reading below the house threshold is shown flagged: the dealer checks the card
            low = confidence < DEFAULT_MIN_CONFIDENCE
            assert button.get_attribute("data-state") == ("low" if low else "ok"), news[seat]
        text = button.inner_text()
        assert re.fullmatch(rf"Posto {seat}: \S+ \d+%( · .+)?", text), text
    # the earlier up cards, still lying at their seats, are not proposed again
    earlier = {f"{seat}:{card}" for seat, ups in plan.ups.items() for card in ups[:street]}
    shown = {f'{b.get_attribute("data-seat")}:{b.get_attribute("data-card")}'
             for b in page.locator('[data-testid="camera-proposal"]').all()}
    assert not shown & earlier, f"proposed again: {sorted(shown & earlier)}"
    # seen by the camera, not confirmed: the spectators do not have them yet (nor any down card)
    downs = [c for cards in plan.downs.values() for c in cards]
    spectator_hides(url, tv, [*news.values(), *downs])
    page.screenshot(path=str(artifacts / f"camera-hand-{name}-dealer-1280x800.jpg"))
    for seat, button in buttons.items():
        before = dealer_view(page, url)["hand"]["events"]
        press_through_camera_news(page, button, camera_news)
        wait_until(took(page, url, before + 1), f"the tap on {news[seat]} at seat {seat}", 15)
        assert up_cards(dealer_view(page, url), seat) == plan.ups[seat][: street + 1]
    for card in news.values():
        tv.wait_for_selector(f'.tv-seat .card[data-card="{card}"]', timeout=10_000)
    tv.screenshot(path=str(artifacts / f"camera-hand-{name}-tv-{TV[0]}x{TV[1]}.jpg"))
    # the street is dealt: no seat expects an up card, so nothing is proposed any more
    page.locator('[data-testid="camera-proposal"]').first.wait_for(state="detached",
                                                                    timeout=15_000)


def test_a_tap_enters_the_proposal_pressed_even_when_the_list_moves_under_the_finger(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, tmp_path: Path
) -> None:
    """The dealer holds Carla's proposal with the mouse while Anna's is tapped with a finger and
    Bruno's entered from another screen: their proposals go, Carla's slides to where Anna's was,
    and the release lands elsewhere. The press still enters Carla's card; a press dragged away
    enters nothing."""
    pictures = TablePictures()
    plan = plan_hand(pictures, Recognizer(min_confidence=0.0))
    folder = tmp_path / "camera"
    folder.mkdir()
    show(folder, plan.pictures[0])
    server = live_kiosk(env={"STUD_KIOSK_CAMERA": str(folder), "STUD_KIOSK_LANG": "it"})
    session = server.dealer_session()
    assert session.put(server.url + "/api/setup", json=copy.deepcopy(SETUP)).ok
    zones = {str(seat): TablePictures.zone(seat) for seat in ROWS}
    assert session.post(server.url + "/api/camera/zones", json={"zones": zones}).ok
    assert session.post(server.url + "/api/hands").ok
    for slot in range(2):
        for seat in ROWS:
            event = {"type": "deal", "seat": seat, "card": plan.downs[seat][slot], "up": False}
            assert session.post(server.url + "/api/events", json=event).ok, event

    ctx = touchscreen(chromium, server, session)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/dealer?lang=it")
        buttons = {seat: page.locator(f'[data-testid="camera-proposal"][data-seat="{seat}"]'
                                      f'[data-card="{ups[0]}"]') for seat, ups in plan.ups.items()}
        for button in buttons.values():
            button.wait_for(timeout=20_000)

        def centre(seat: int) -> tuple[float, float]:
            box = buttons[seat].bounding_box()
            assert box is not None
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

        # a press on Anna's proposal dragged off it, then released: nothing is entered
        before = dealer_view(page, server.url)["hand"]["events"]
        x, y = centre(1)
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x, y + 200, steps=5)
        page.mouse.up()
        page.wait_for_timeout(1000)
        assert dealer_view(page, server.url)["hand"]["events"] == before

        carla = plan.ups[3][0]
        x, y = centre(3)
        page.mouse.move(x, y)
        page.mouse.down()
        ax, ay = centre(1)
        page.touchscreen.tap(ax, ay)
        buttons[1].wait_for(state="detached", timeout=10_000)
        answer = session.post(server.url + "/api/camera/confirm",
                              json={"seat": 2, "card": plan.ups[2][0]})
        assert answer.ok, answer.text
        buttons[2].wait_for(state="detached", timeout=10_000)
        moved = centre(3)
        assert math.dist(moved, (x, y)) > 50, (moved, (x, y))  # the finger is off it now
        page.mouse.up()
        wait_until(took(page, server.url, before + 3), f"the tap on {carla}")
        view = dealer_view(page, server.url)
        assert {seat: up_cards(view, seat) for seat in ROWS} == \
            {seat: ups[:1] for seat, ups in plan.ups.items()}
        assert errors == []
    finally:
        ctx.close()


def test_at_the_showdown_the_camera_proposes_the_down_cards_turned_up(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path, tmp_path: Path
) -> None:
    """Carla's down cards were not entered as dealt (driver.PLAN): she shows first, her cards
    face up before the camera, and the dealer taps the camera's three proposals, then Show."""
    pictures = TablePictures()
    folder = tmp_path / "camera"
    folder.mkdir()
    show(folder, pictures.picture({}))
    server = live_kiosk(env={"STUD_KIOSK_CAMERA": str(folder), "STUD_KIOSK_LANG": "it"})
    session = server.dealer_session()
    assert session.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP)).ok
    zones = {str(seat): TablePictures.zone(seat) for seat in ROWS}
    assert session.post(server.url + "/api/camera/zones", json={"zones": zones}).ok
    assert session.post(server.url + "/api/hands").ok
    while (view := session.get(server.url + "/api/state").json())["hand"]["prompt"]["kind"] \
            != "show":
        assert session.post(server.url + "/api/events", json=driver.next_event(view)).ok
    assert view["hand"]["prompt"]["seats"] == [3]
    shown = driver.SHOWN[3]  # 3c 4c 6d
    row: list[str | None] = [*shown[:2], *driver.PLAN[3][2:6], shown[2]]
    show(folder, pictures.picture({3: row}))

    ctx = touchscreen(chromium, server, session)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/dealer?lang=it")
        page.wait_for_selector('[data-testid="show-cards"]')
        buttons = {card: page.locator(f'[data-testid="camera-proposal"][data-seat="3"]'
                                      f'[data-card="{card}"][data-kind="show"]') for card in shown}
        for card, button in buttons.items():
            button.wait_for(timeout=20_000)
            assert re.fullmatch(r"Posto 3 mostra: \S+ \d+%( · .+)?", button.inner_text()), card
        # her up cards, lying face up too, are not proposed
        assert page.locator('[data-testid="camera-proposal"]').count() == len(shown)
        page.screenshot(path=str(artifacts / "camera-showdown-dealer-1280x800.jpg"))
        assert page.locator('[data-testid="show-cards"]').is_disabled()
        before = dealer_view(page, server.url)["hand"]["events"]
        for card in shown:
            buttons[card].click()
            page.wait_for_selector(f'.picker-head .cards .card[data-card="{card}"]')
        buttons[shown[0]].click()  # a second tap picks nothing more
        assert page.locator('.picker-head .cards:last-child .card').count() == len(shown)
        tap(page, '[data-testid="show-cards"]')
        wait_until(took(page, server.url, before + 1), "Carla's showing")
        hand = dealer_view(page, server.url)["hand"]
        carla = next(s for s in hand["seats"] if s["seat"] == 3)
        assert sorted(c["card"] for c in carla["cards"] if not c["up"]) == sorted(shown)
        assert hand["prompt"]["seats"] == [1]  # Anna's down cards were entered: nothing to read
        page.locator('[data-testid="camera-proposal"]').first.wait_for(state="detached")
        assert errors == []
    finally:
        ctx.close()
