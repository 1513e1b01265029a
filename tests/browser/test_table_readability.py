"""What the people at the table actually see, measured in real Chromium: a full eight-handed
seven-card stud hand with a short stack all in and a side pot. On the 800x480 dealer screen every
card of every seat stays inside its seat box and the link state is never cut off; on the TV read
from three metres the side pots and the result are in letters as large as the table's own, and the
result never covers a seat."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LiveKiosk
from tests.helpers.hands import DECK, next_event
from tests.helpers.pages import (
    TV_MIN_PX,
    cards_outside_seats,
    font_px,
    overlapping_seats,
    seats_under_results,
)
from tests.kiosk import driver

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Giulia", "Marcello"]
def eight_handed() -> dict[str, Any]:
    setup = copy.deepcopy(driver.SETUP)
    setup["game"] = "seven-card-stud"
    setup["rules"]["burns"] = False
    for seat in setup["seats"]:
        if seat["seat"] <= len(NAMES):
            seat.update(name=NAMES[seat["seat"] - 1], stack=200, active=True)
    setup["seats"][1]["stack"] = 14  # Bruno: all in on third street
    return setup


def play_until(
    http: Any, url: str, deck: list[str], stop: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    while True:
        hand: dict[str, Any] = http.get(url + "/api/state?lang=it").json()["hand"]
        if stop(hand):
            return hand
        assert not hand["finished"], "the hand ended before the point under test"
        answer = http.post(url + "/api/events", json=next_event(hand, deck))
        assert answer.ok, answer.text


def third_street_calls(hand: dict[str, Any]) -> bool:
    """Third street once six seats have chips out in front of them."""
    betting = sum(1 for seat in hand["seats"] if seat["bet"])
    return bool(hand["prompt"]["kind"] == "act" and betting >= 6)


def seventh_street_betting(hand: dict[str, Any]) -> bool:
    return bool(hand["street_name"] == "seventh" and hand["prompt"]["kind"] == "act")


def cards_hidden_in_dealer_seats(page: Any) -> list[Any]:
    """Cards of a dealer seat that its overflow clips (whatever leaves the card row is hidden)."""
    found: list[Any] = page.evaluate(
        """() => Array.from(document.querySelectorAll('.seats .seat')).flatMap(seat => {
            const row = seat.querySelector('.cards').getBoundingClientRect();
            return Array.from(seat.querySelectorAll('.cards .card')).map(card => {
                const r = card.getBoundingClientRect();
                return [seat.dataset.seat, card.textContent.trim(),
                        r.right, row.right, r.bottom, row.bottom];
            }).filter(([, , r, rr, b, rb]) => r > rr + 0.5 || b > rb + 0.5);
        })"""
    )
    return found


def clipped(page: Any, selector: str) -> bool:
    """Whether the element's text is cut by its own box or by the bar that holds it."""
    return bool(page.evaluate(
        """sel => { const e = document.querySelector(sel);
                    const bar = e.parentElement.getBoundingClientRect();
                    const r = e.getBoundingClientRect();
                    return e.scrollWidth > e.clientWidth + 1 || r.right > bar.right + 0.5
                           || r.width < 8; }""",
        selector,
    ))


def text_whole(page: Any, selector: str) -> bool:
    """Whether the element's box holds the whole width of its text (an ellipsis ends a text
    that overflows its box by any fraction of a pixel)."""
    return bool(page.evaluate(
        """sel => { const e = document.querySelector(sel), range = document.createRange();
                    range.selectNodeContents(e);
                    return range.getBoundingClientRect().width
                           <= e.getBoundingClientRect().width + 0.01; }""",
        selector,
    ))


def bets_off_the_felt(tv: Any) -> list[str]:
    """TV seats whose bet label sits on the rail or outside the table, not on the felt."""
    off: list[str] = tv.evaluate(
        """() => { const table = document.getElementById('tv-table');
            const t = table.getBoundingClientRect();
            const left = t.left + table.clientLeft, top = t.top + table.clientTop;
            const right = left + table.clientWidth, bottom = top + table.clientHeight;
            return Array.from(document.querySelectorAll('.tv-seat .bet')).filter(b => {
                const r = b.getBoundingClientRect();
                return r.left < left || r.right > right || r.top < top || r.bottom > bottom;
            }).map(b => b.closest('.tv-seat').dataset.seat); }"""
    )
    return off


def seat_badges(tv: Any) -> list[dict[str, Any]]:
    """Each all-in or folded badge on the TV: its seat, text, size, weight and how opaque it shows
    (its own opacity times every ancestor's)."""
    found: list[dict[str, Any]] = tv.evaluate(
        """() => Array.from(document.querySelectorAll('.tv-seat .status .badge')).map(b => {
            let opacity = 1;
            for (let e = b; e; e = e.parentElement)
                opacity *= parseFloat(getComputedStyle(e).opacity);
            const style = getComputedStyle(b);
            return {seat: b.closest('.tv-seat').dataset.seat, text: b.textContent.trim(),
                    px: parseFloat(style.fontSize), weight: parseInt(style.fontWeight, 10),
                    background: style.backgroundColor, opacity: opacity}; })"""
    )
    return found


def seat_in_sight(page: Any, selector: str) -> bool:
    """Whether the dealer seat is wholly inside the scrolled seat area, above the action bar."""
    return bool(page.evaluate(
        """sel => { const r = document.querySelector(sel).getBoundingClientRect();
            const work = document.getElementById('work').getBoundingClientRect();
            const bar = document.getElementById('actions').getBoundingClientRect();
            return r.top >= work.top - 0.5
                   && r.bottom <= Math.min(work.bottom, bar.top) + 0.5; }""",
        selector,
    ))


def tv_texts_under(tv: Any, min_px: float) -> list[list[Any]]:
    """Every piece of text drawn on the TV page (bars, felt, seats, result) smaller than
    ``min_px``, as [text, px]: nothing a player reads from three metres may be."""
    small: list[list[Any]] = tv.evaluate(
        """min => { const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            const out = [];
            for (let n = walk.nextNode(); n; n = walk.nextNode()) {
                const text = n.textContent.trim(), el = n.parentElement;
                if (!text || !el.getClientRects().length) continue;
                const style = getComputedStyle(el);
                if (style.visibility === 'hidden' || style.display === 'none') continue;
                const px = parseFloat(style.fontSize);
                if (px < min) out.push([text, px]);
            }
            return out; }""",
        min_px,
    )
    return small


def test_eight_seats_seventh_street_and_side_pot_are_readable(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    server = live_kiosk()
    http = server.dealer_session()
    assert http.put(server.url + "/api/setup", json=eight_handed()).ok
    assert http.post(server.url + "/api/hands").ok
    deck = list(DECK)
    tv_ctx = chromium.new_context(viewport={"width": 1920, "height": 1080})
    dealer_ctx = chromium.new_context(viewport={"width": 800, "height": 480}, has_touch=True)
    try:
        tv = tv_ctx.new_page()
        play_until(http, server.url, deck, third_street_calls)
        tv.goto(server.url + "/spectator?lang=it")
        tv.wait_for_function("document.querySelectorAll('.tv-seat .bet').length >= 6")
        tv.screenshot(path=str(artifacts / "tv-eight-seats-bets.jpg"))
        assert bets_off_the_felt(tv) == []
        readable_at_seventh_street(http, server, deck, dealer_ctx, tv, artifacts)
    finally:
        dealer_ctx.close()
        tv_ctx.close()


def readable_at_seventh_street(
    http: Any, server: LiveKiosk, deck: list[str], dealer_ctx: Any, tv: Any, artifacts: Path
) -> None:
    hand = play_until(http, server.url, deck, seventh_street_betting)
    assert len(hand["pots"]) > 1, "Bruno's all-in should have made a side pot by now"
    assert all(len(s["cards"]) == 7 for s in hand["seats"] if not s["folded"])

    server.signed_in(dealer_ctx, http)
    page = dealer_ctx.new_page()
    page.goto(server.url + "/dealer?lang=it")
    page.wait_for_selector('.seats .seat[data-seat="8"] .card')
    page.screenshot(path=str(artifacts / "dealer-eight-seats-seventh-800x480.jpg"))
    assert cards_hidden_in_dealer_seats(page) == []
    assert cards_outside_seats(page, ".seats .seat") == []
    # the pot and the link state stay whole in the bar, on the small screen and the big one
    for width, height in ((800, 480), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        assert not clipped(page, '[data-testid="conn"]'), f"link state cut at {width}px"
        assert not clipped(page, '[data-testid="pot"]'), f"pot cut at {width}px"
    # on the big screen the hand's number and street stay whole too, not even ended by an
    # ellipsis a fraction of a pixel short: the game's name and stakes give way
    for selector in ('[data-testid="hand-number"]', '[data-testid="street"]'):
        assert not clipped(page, selector) and text_whole(page, selector), f"{selector} cut"

    # the lower row does not fit above the action bar at 800x480: the seat to act is kept in sight
    page.set_viewport_size({"width": 800, "height": 480})
    play_until(http, server.url, deck, lambda h: h["to_act"] == 8)
    page.wait_for_selector('.seats .seat.turn[data-seat="8"]')
    page.wait_for_timeout(100)
    page.screenshot(path=str(artifacts / "dealer-eight-seats-lower-row-to-act-800x480.jpg"))
    assert seat_in_sight(page, '.seats .seat.turn[data-seat="8"]')

    tv.wait_for_selector(".tv-center .side-pots")
    tv.screenshot(path=str(artifacts / "tv-eight-seats-side-pot.jpg"))
    assert "Piatto laterale 1" in tv.inner_text(".tv-center .side-pots")
    assert min(font_px(tv, ".tv-center .side-pots")) >= TV_MIN_PX
    assert min(font_px(tv, "#tv-turn")) >= TV_MIN_PX
    assert tv_texts_under(tv, TV_MIN_PX) == []
    assert cards_outside_seats(tv, ".tv-seat") == []
    # all in and folded read from 3 m: body-size bold badges, not dimmed with the folded cards,
    # and the seats stay as short as before: eight of them never overlap
    badges = {b["seat"]: b for b in seat_badges(tv)}
    assert badges["2"]["text"].lower() == "all-in"
    assert {"5", "6"} <= {seat for seat, b in badges.items() if b["text"].lower() == "fuori"}
    for badge in badges.values():
        assert badge["px"] >= TV_MIN_PX and badge["weight"] >= 700, badge
        assert badge["opacity"] == 1 and badge["background"] != "rgba(0, 0, 0, 0)", badge
    assert overlapping_seats(tv) == []
    heights = tv.evaluate(
        "() => Array.from(document.querySelectorAll('.tv-seat')).map(s => s.offsetHeight)")
    assert max(heights) - min(heights) <= 1, heights

    # at showdown every down card was entered as dealt: the screen says so, not "tap the cards"
    play_until(http, server.url, deck, lambda h: bool(h["prompt"]["kind"] == "show"))
    page.wait_for_selector('[data-testid="show-cards"]:enabled')
    hint = page.inner_text('[data-testid="show-hint"]')
    assert "già tutte inserite" in hint and "Tocca le carte" not in hint, hint

    play_until(http, server.url, deck, lambda h: bool(h["finished"]))
    tv.wait_for_selector('[data-testid="tv-results"] .push')
    tv.screenshot(path=str(artifacts / "tv-eight-seats-result.jpg"))
    results = tv.inner_text('[data-testid="tv-results"]')
    assert "Piatto principale" in results and "Piatto laterale 1" in results
    assert min(font_px(tv, '[data-testid="tv-results"] .push')) >= TV_MIN_PX
    assert tv_texts_under(tv, TV_MIN_PX) == []
    assert seats_under_results(tv) == []


def test_the_tv_shows_an_uncalled_bet_going_back_so_the_winner_total_adds_up(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    """Anna bets on third street and both others fold: the TV's result lists the pot she wins and
    her bet coming back, and the two add up to the "+" shown on her seat."""
    server = live_kiosk()
    http = server.dealer_session()
    setup = copy.deepcopy(driver.SETUP)
    setup["game"] = "soko"
    assert http.put(server.url + "/api/setup", json=setup).ok
    assert http.post(server.url + "/api/hands").ok
    deck = list(DECK)
    play_until(http, server.url, deck,
               lambda h: bool(h["street_name"] == "third" and h["prompt"]["kind"] == "act"))
    while True:
        hand = http.get(server.url + "/api/state").json()["hand"]
        if hand["finished"]:
            break
        legal = {a["action"]: a for a in hand["legal"]}
        choice = "bet" if "bet" in legal else "fold"
        event = {"type": "act", "seat": hand["to_act"], "action": choice,
                 "amount": legal[choice]["amount"]}
        assert http.post(server.url + "/api/events", json=event).ok
    assert hand["result"]["returned"], "the uncalled bet should come back"
    ctx = chromium.new_context(viewport={"width": 1920, "height": 1080})
    try:
        tv = ctx.new_page()
        tv.goto(server.url + "/spectator?lang=it")
        tv.wait_for_selector('[data-testid="tv-results"]')
        tv.screenshot(path=str(artifacts / "tv-uncalled-bet-returned.jpg"))
        winner = hand["result"]["payouts"][0]
        returned = tv.inner_text('[data-testid="tv-returned"]')
        assert winner["name"] in returned and "Restituito" in returned
        shown = sum(int(e) for e in tv.eval_on_selector_all(
            '[data-testid="tv-results"] .amount', "els => els.map(e => e.textContent)"))
        plus = tv.inner_text(f'.tv-seat[data-seat="{winner["seat"]}"] .status')
        assert plus == f"+{shown}" == f"+{winner['amount']}"
    finally:
        ctx.close()


def test_on_the_small_dealer_screen_the_seat_to_act_is_always_in_sight(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    """Ten-handed five-card stud at 800x480: the third row of seats lies below the action bar, so
    when one of its seats is to act the seat area scrolls it into sight."""
    server = live_kiosk()
    http = server.dealer_session()
    setup = copy.deepcopy(driver.SETUP)
    setup["game"] = "five-card-stud"
    setup["rules"]["burns"] = False
    for seat in setup["seats"]:
        seat.update(name=[*NAMES, "Nadia", "Oscar"][seat["seat"] - 1], stack=200, active=True)
    assert http.put(server.url + "/api/setup", json=setup).ok
    assert http.post(server.url + "/api/hands").ok
    ctx = chromium.new_context(viewport={"width": 800, "height": 480}, has_touch=True)
    try:
        server.signed_in(ctx, http)
        page = ctx.new_page()
        page.goto(server.url + "/dealer?lang=it")
        deck, waiting = list(DECK), {9, 10}
        while waiting:
            hand = play_until(http, server.url, deck, lambda h: bool(
                h["to_act"] in waiting and h["prompt"]["kind"] in ("act", "bring_in")))
            seat = hand["to_act"]
            waiting.discard(seat)
            page.wait_for_selector(f'.seats .seat.turn[data-seat="{seat}"]')
            page.wait_for_timeout(100)
            page.screenshot(path=str(artifacts / f"dealer-ten-seats-{seat}-to-act-800x480.jpg"))
            assert seat_in_sight(page, f'.seats .seat.turn[data-seat="{seat}"]'), seat
    finally:
        ctx.close()
