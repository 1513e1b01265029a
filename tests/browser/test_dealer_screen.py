"""The dealer's screen as a dealer uses it, in real Chromium, by tapping only: the first PIN and
the table set up on the on-screen keys, then a whole five-handed seven-card stud hand in Italian
with the TV beside it. Each street's picker starts at the first seat in dealing order (also after
an undo), every entry answers, a card tapped twice says where it is, the action bar names the
player, the TV names the hands that lost. The taps are counted: one per card, one per action,
none more per street (the figure is in docs/benchmarks.md). Screenshots of each screen at
800x480, 1280x800 and 1920x1080 go to test-artifacts/."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import TEST_PIN, LiveKiosk
from tests.helpers.pages import check_touch_targets
from tests.helpers.waiting import wait_until
from tests.kiosk import driver

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SMALL, BIG, TV = (800, 480), (1280, 800), (1920, 1080)
SIZES = (SMALL, BIG, TV)
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
#: each seat's seven cards in the order dealt; None: a down card the dealer does not enter
CARDS: dict[int, list[str | None]] = {
    1: ["Ah", "Ad", "7c", "2s", "9d", "Jc", "4h"],
    2: ["Kh", "Kd", "8c", "Ks", "3d", "Qc", "5h"],
    3: ["Qh", "Qd", "2c", "Th", "6d", "4c", "3h"],
    4: [None, None, "5d", "6s", "7s", "8s", "9s"],
    5: [None, None, "Tc", "4d", "8d", "2h", "3s"],
}
UP = {2, 3, 4, 5}


class Taps:
    """The dealer's finger: every tap goes through here and is counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def __call__(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.count += 1


def state(page: Any, url: str) -> dict[str, Any]:
    view: dict[str, Any] = page.request.get(url + "/api/state?lang=it").json()
    return view


def entries(page: Any, url: str, count: int, what: str) -> None:
    """Wait until the hand has ``count`` entries (the server took the tap)."""
    wait_until(lambda: state(page, url)["hand"]["events"] == count, what)


def shoot(page: Any, artifacts: Path, name: str, sizes: tuple[tuple[int, int], ...] = SIZES,
          back: tuple[int, int] = SMALL) -> None:
    for w, h in sizes:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(120)
        page.screenshot(path=str(artifacts / f"{name}-{w}x{h}.jpg"))
    page.set_viewport_size({"width": back[0], "height": back[1]})


def small_keys(page: Any) -> list[Any]:
    """Keys of the on-screen keyboard or keypad under 48 px either way."""
    found: list[Any] = page.evaluate(
        """() => Array.from(document.querySelectorAll('.keys-sheet button, .keys-sheet .hg-button'))
            .filter(e => e.offsetParent !== null)
            .map(e => { const r = e.getBoundingClientRect();
                        return [e.textContent, r.width, r.height]; })
            .filter(([, w, h]) => w < 47.5 || h < 47.5)""")
    return found


def type_on_keys(taps: Taps, text: str) -> None:
    """Type ``text`` on the on-screen keyboard (its first letter comes out a capital)."""
    for ch in text:
        taps(f'.keys-sheet .hg-button[data-skbtn="{ch}"]')


def choose(hand: dict[str, Any]) -> str:
    """The script's action for the seat to act."""
    legal = {a["action"] for a in hand["legal"]}
    street, seat = hand["street_name"], hand["to_act"]
    first = not any(s["bet"] for s in hand["seats"])
    if "bring_in" in legal:
        return "bring_in"
    if (street, seat) in (("fourth", 4), ("sixth", 5)) and "fold" in legal:
        return "fold"
    if street in ("fourth", "sixth") and first and "bet" in legal:
        return "bet"
    return "check" if "check" in legal else "call"


def test_a_five_handed_hand_set_up_and_dealt_by_tapping_only(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    server = live_kiosk()
    page_ctx = chromium.new_context(viewport={"width": SMALL[0], "height": SMALL[1]},
                                    has_touch=True)
    tv_ctx = chromium.new_context(viewport={"width": TV[0], "height": TV[1]})
    page, tv = page_ctx.new_page(), tv_ctx.new_page()
    errors: list[str] = []
    for p in (page, tv):
        p.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        # -- the first PIN, twice on the keypad ----
        page.goto(server.url + "/dealer?lang=it")
        assert "/pin/new" in page.url
        shoot(page, artifacts, "pin-new")
        check_touch_targets(page)
        setup_taps = Taps(page)
        for _ in range(2):
            for digit in TEST_PIN:
                setup_taps(f'.keypad [data-key="{digit}"]')
            setup_taps('.keypad [data-key="✓"]')
        page.wait_for_url("**/setup/**")

        # -- the table: a player who sat here before is in the list of names ----
        http = server.dealer_session()
        before = copy.deepcopy(driver.SETUP)
        before["seats"][6].update(name="Elena")  # seat 7, not playing
        assert http.put(server.url + "/api/setup", json=before).ok
        page.goto(server.url + "/setup/?lang=it")
        setup_taps('label.choice:has(input[value="seven-card-stud"])')
        for n, name in enumerate(NAMES, start=1):
            row = f'tr[data-seat="{n}"]'
            if not page.locator(f'{row} input[name="active_{n}"]').is_checked():
                setup_taps(f'{row} label.toggle')
            # a player sitting down starts with the table's usual buy-in
            assert page.input_value(f'{row} input[name="stack_{n}"]') in ("200",)
            setup_taps(f'{row} input[name="name_{n}"]')
            page.locator('[data-testid="keys"]').wait_for()
            if name == "Elena":
                assert page.locator('[data-testid="known-name"]', has_text="Elena").count() == 1
                shoot(page, artifacts, "setup-names")
                setup_taps('[data-testid="known-name"]:has-text("Elena")')
            else:
                if page.input_value(f'{row} input[name="name_{n}"]'):
                    for _ in page.input_value(f'{row} input[name="name_{n}"]'):
                        setup_taps('.keys-sheet .hg-button[data-skbtn="{bksp}"]')
                    setup_taps('.keys-sheet .hg-button[data-skbtn="{shift}"]')
                if n == 1:
                    shoot(page, artifacts, "setup-keyboard")
                    assert small_keys(page) == []
                type_on_keys(setup_taps, name)
                setup_taps('[data-testid="keys-ok"]')
            assert page.input_value(f'{row} input[name="name_{n}"]') == name
        # Bruno buys in for 300, on the keypad
        setup_taps('input[name="stack_2"]')
        shoot(page, artifacts, "setup-keypad")
        for digit in "300":
            setup_taps(f'.keys-pad [data-key="{digit}"]')
        setup_taps('[data-testid="keys-ok"]')
        assert page.input_value('input[name="stack_2"]') == "300"
        setup_taps('[data-testid="setup-save"]')
        page.wait_for_url("**/dealer")
        table = state(page, server.url)["table"]
        assert [(s["name"], s["stack"]) for s in table["seats"]] == [
            ("Anna", 200), ("Bruno", 300), ("Carla", 200), ("Dario", 200), ("Elena", 200)]
        assert table["stakes_text"] == "ante 1 · bring-in 2 · puntate 5/10"

        # -- the hand ----
        tv.goto(server.url + "/spectator?lang=it")
        tv.wait_for_selector(".tv-waiting")
        page.goto(server.url + "/dealer?lang=it")
        taps = Taps(page)
        taps('[data-testid="start-hand"]')
        page.wait_for_selector('[data-testid="picker"]')
        counted = {"cards": 0, "actions": 0, "shows": 0}
        street = None
        undone: set[str] = set()
        shots: set[str] = set()
        while True:
            view = state(page, server.url)
            hand = view["hand"]
            if hand["finished"]:
                break
            kind = hand["prompt"]["kind"]
            events = hand["events"]
            if kind == "deal":
                nxt = hand["next_card"]
                if hand["street_name"] != street:
                    # a new street: the picker starts at the first seat in dealing order
                    street = hand["street_name"]
                    assert nxt["seat"] == hand["prompt"]["seats"][0], (street, nxt)
                target = page.locator(f'[data-testid="deal-target"][data-seat="{nxt["seat"]}"]')
                target.wait_for()
                name = NAMES[nxt["seat"] - 1]
                assert target.inner_text().startswith(f"Carta per {name} (posto {nxt['seat']})")
                seat = next(s for s in hand["seats"] if s["seat"] == nxt["seat"])
                index = len(seat["cards"])
                assert nxt["up"] == (index in UP)
                card = CARDS[nxt["seat"]][index]
                if street == "third" and "third" not in shots:
                    shots.add("third")
                    shoot(page, artifacts, "deal-picker")
                    check_touch_targets(page)
                if events == 6 and "where" not in undone:
                    # Bruno's K♥ is in the hand already: a tap on it says so and enters nothing
                    undone.add("where")
                    page.locator('.picker button[data-card="Kh"]').click()
                    page.locator('[data-testid="toast"]', has_text="K♥ è già di Bruno").wait_for()
                    assert state(page, server.url)["hand"]["events"] == events
                    shoot(page, artifacts, "card-where", (SMALL,))
                if card is None:
                    taps('[data-testid="unknown-card"]')
                else:
                    taps(f'.picker button[data-card="{card}"]')
                counted["cards"] += 1
                entries(page, server.url, events + 1, "the card entered")
                page.locator('[data-testid="toast"]', has_text=f"→ {name}").wait_for()
                dealt = street_cards(state(page, server.url)["hand"])
                if street in ("fifth", "seventh") and dealt in (1, 3) and \
                        f"{street}-{dealt}" not in undone:
                    # a slip taken back, a street's first card or one in the middle of it: the
                    # picker goes back to the seat whose card it was (the undo and the card
                    # dealt again are not counted)
                    undone.add(f"{street}-{dealt}")
                    page.locator('[data-testid="undo"]').click()
                    taps.count -= 1
                    counted["cards"] -= 1
                    entries(page, server.url, events, "the undo")
                    page.locator('[data-testid="toast"]', has_text="Tolto:").wait_for()
                    page.locator(f'[data-testid="deal-target"][data-seat="{nxt["seat"]}"]'
                                 ).wait_for()
                    assert state(page, server.url)["hand"]["next_card"] == nxt
            elif kind in ("bring_in", "act"):
                seat = hand["to_act"]
                name = NAMES[seat - 1]
                page.locator(f'#legal[data-seat="{seat}"] [data-action]').first.wait_for()
                # the action bar names the player
                assert page.inner_text('[data-testid="acting"]') == f"{name}:"
                if kind == "bring_in" and "bring-in" not in shots:
                    shots.add("bring-in")
                    shoot(page, artifacts, "action-bar")
                    check_touch_targets(page)
                    shoot(tv, artifacts, "tv-third-street", (TV,), TV)
                taps(f'#legal [data-action="{choose(hand)}"]')
                counted["actions"] += 1
                entries(page, server.url, events + 1, "the action entered")
            elif kind == "show":
                seat = hand["prompt"]["seats"][0]
                page.locator('[data-testid="show-hint"]', has_text=NAMES[seat - 1]).wait_for()
                taps('[data-testid="show-cards"]')
                counted["shows"] += 1
                entries(page, server.url, events + 1, "the show entered")
            else:
                raise AssertionError(f"no tap for {kind}")

        # one tap per card, one per action, one per show, and the one that started the hand
        # third street 5 x 3, fourth 5, fifth 4 (Dario folded), sixth 4, seventh 3 (Elena too)
        assert counted == {"cards": 31, "actions": 21, "shows": 3}, counted
        assert taps.count == 1 + counted["cards"] + counted["actions"] + counted["shows"]
        (artifacts / "taps-five-handed-stud.txt").write_text(
            f"taps {taps.count}: start 1, cards {counted['cards']}, actions "
            f"{counted['actions']}, shows {counted['shows']}\n")

        # -- the result on both screens: the hands that lost are named, with why ----
        page.wait_for_selector('[data-testid="result"]')
        beaten = page.inner_text('[data-testid="result"]')
        assert "Anna: Coppia di assi" in beaten and "Carla: Coppia di donne" in beaten
        assert "Tris di re batte coppia di assi" in beaten
        tv.wait_for_selector('[data-testid="tv-results"]')
        tv_text = tv.inner_text('[data-testid="tv-results"]')
        assert "Anna: Coppia di assi" in tv_text, tv_text
        assert tv.inner_text('.tv-seat[data-seat="3"] [data-testid="seat-hand"]') == \
            "Coppia di donne"
        shoot(page, artifacts, "dealer-result-beaten")
        shoot(tv, artifacts, "tv-result-beaten", (TV,), TV)
        assert errors == []
    finally:
        page_ctx.close()
        tv_ctx.close()


def street_cards(hand: dict[str, Any]) -> int:
    """Cards dealt so far on the street being dealt (or bet on)."""
    want = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}[hand["street_name"]]
    before = 0 if want == 3 else want - 1
    return sum(max(0, len(s["cards"]) - before) for s in hand["seats"] if not s["folded"])


def test_hold_to_see_speech_undo_and_a_misdeal_asked_yes_or_no(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    setup = copy.deepcopy(driver.SETUP)
    setup["screen"] = {"sound": True, "speech": True, "hide_down": True}
    assert http.put(server.url + "/api/setup", json=setup).ok
    assert http.post(server.url + "/api/hands").ok
    view = http.get(server.url + "/api/state").json()
    while view["hand"]["prompt"]["kind"] == "deal":
        assert http.post(server.url + "/api/events", json=driver.next_event(view)).ok
        view = http.get(server.url + "/api/state").json()
    page_ctx = server.signed_in(chromium.new_context(
        viewport={"width": SMALL[0], "height": SMALL[1]}, has_touch=True), http)
    tv_ctx = chromium.new_context(viewport={"width": TV[0], "height": TV[1]})
    page, tv = page_ctx.new_page(), tv_ctx.new_page()
    try:
        page.goto(server.url + "/dealer?lang=it")
        tv.goto(server.url + "/spectator?lang=it")
        tv.wait_for_selector('.tv-seat .card[data-card="5h"]')
        # the turn, said aloud (house option) in Italian
        page.locator('[data-testid="said"]', has_text="Anna: bring-in da 2 o completa a 5"
                     ).wait_for(state="attached")

        # TV cards are large enough to read from a sofa
        heights = tv.evaluate("""() => Array.from(document.querySelectorAll('.tv-seat .card'))
            .map(c => c.getBoundingClientRect().height)""")
        assert heights and min(heights) >= 90, heights

        # Anna's down cards were entered: drawn as backs until the dealer holds a finger on them
        ace = page.locator('.seat[data-seat="1"] .card[data-card="As"]')
        colour = 'e => getComputedStyle(e).color'
        assert ace.evaluate(colour) == "rgba(0, 0, 0, 0)"
        box = ace.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.wait_for_selector('.seat[data-seat="1"] .cards.peek')
        assert ace.evaluate(colour) != "rgba(0, 0, 0, 0)"
        shoot(page, artifacts, "hold-to-see", (SMALL,))
        page.mouse.up()
        page.wait_for_selector('.cards.peek', state="detached")
        assert ace.evaluate(colour) == "rgba(0, 0, 0, 0)"
        assert page.locator('[data-testid="tool-identify"]').count() == 0  # a hold is no tap

        # an action, then undone: the dealer reads what was taken back, the TV forgets it
        events = view["hand"]["events"]
        page.locator('#legal [data-action="bring_in"]').click()
        entries(page, server.url, events + 1, "the bring-in")
        tv.locator('[data-testid="last-action"]', has_text="Anna apre con il bring-in di 2"
                   ).wait_for()
        page.locator('[data-testid="undo"]').click()
        entries(page, server.url, events, "the undo")
        page.locator('[data-testid="toast"]', has_text="Tolto: Anna apre con il bring-in di 2"
                     ).wait_for()
        tv.wait_for_function(
            "() => document.querySelector('[data-testid=last-action]').textContent === ''")

        # the misdeal question: No leaves the hand as it was
        before = state(page, server.url)["hand"]
        page.locator('[data-testid="misdeal"]').click()
        page.locator('[data-testid="misdeal-dialog"]').wait_for()
        shoot(page, artifacts, "misdeal-question")
        check_touch_targets(page)
        page.locator('[data-testid="misdeal-no"]').click()
        page.locator('[data-testid="misdeal-dialog"]').wait_for(state="hidden")
        page.wait_for_timeout(300)
        after = state(page, server.url)["hand"]
        assert after == before
        page.locator('#legal [data-action="bring_in"]').wait_for()

        # ... and Yes calls a misdeal, on both screens, never drawn like a win
        page.locator('[data-testid="misdeal"]').click()
        page.locator('[data-testid="misdeal-yes"]').click()
        page.locator('[data-testid="misdeal-result"]', has_text="Misdeal: mano annullata"
                     ).wait_for()
        tv.locator('[data-testid="tv-misdeal"]', has_text="Misdeal: mano annullata").wait_for()
        assert tv.locator(".tv-seat.winner").count() == 0
        shoot(page, artifacts, "dealer-misdeal")
        shoot(tv, artifacts, "tv-misdeal", (TV,), TV)
    finally:
        page_ctx.close()
        tv_ctx.close()


def test_a_wrong_pin_leaves_the_keypad_where_it_was(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    server = live_kiosk()
    server.dealer_session()  # the PIN is set
    ctx = chromium.new_context(viewport={"width": SMALL[0], "height": SMALL[1]}, has_touch=True)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/login?lang=it")
        before = page.locator(".keypad").bounding_box()
        for digit in "1111":
            page.locator(f'.keypad [data-key="{digit}"]').click()
        page.locator('.keypad [data-key="✓"]').click()
        page.locator(".pin-message .error", has_text="PIN errato").wait_for()
        assert page.locator(".keypad").bounding_box() == before
        shoot(page, artifacts, "pin-wrong")
    finally:
        ctx.close()
