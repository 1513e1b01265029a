"""The dealer screen and the TV in Chromium (Playwright pages): what a test taps, and what it
measures of what people at the table see."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: the TV's body size: nothing a player must read from 3 m is smaller
TV_MIN_PX = 28.0


def dealer_view(page: Any, url: str) -> dict[str, Any]:
    answer = page.request.get(url + "/api/state?lang=en")
    assert answer.ok
    view: dict[str, Any] = answer.json()
    assert view["role"] == "dealer"
    return view


def tap(page: Any, selector: str) -> None:
    page.locator(selector).first.click()


def check_touch_targets(page: Any) -> None:
    """Every visible button is at least 48 px both ways and no text is under 16 px."""
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll('button, a.btn, input, select'))
            .filter(e => e.offsetParent !== null)
            .map(e => { const r = e.getBoundingClientRect();
                        return [e.textContent.trim() || e.name || e.tagName, r.width, r.height]; })
            .filter(([, w, h]) => w < 47.5 || h < 47.5)"""
    )
    assert small == [], f"touch targets under 48 px: {small[:5]}"
    tiny = page.evaluate(
        """() => Array.from(document.querySelectorAll('body *'))
            .filter(e => e.offsetParent !== null && e.childNodes.length &&
                    Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim()))
            .map(e => [e.textContent.trim().slice(0, 20), parseFloat(getComputedStyle(e).fontSize)])
            .filter(([, size]) => size < 16)"""
    )
    assert tiny == [], f"text under 16 px: {tiny[:5]}"


def took(page: Any, url: str, events: int) -> Callable[[], bool]:
    return lambda: bool(dealer_view(page, url)["hand"]["events"] == events)


def tap_event(page: Any, hand: dict[str, Any], event: dict[str, Any]) -> None:
    """Make ``event`` happen by tapping the dealer screen as a dealer would."""
    kind = event["type"]
    if kind == "deal":
        # the picker is already on the seat and kind being dealt (the dealing order): a tap on a
        # seat or on down/up is needed only for a card dealt out of that order
        seat = event["seat"]
        target = page.locator('[data-testid="deal-target"]')
        if target.get_attribute("data-seat") != str(seat):
            tap(page, f'[data-target="{seat}"]')
            page.locator(f'[data-testid="deal-target"][data-seat="{seat}"]').wait_for()
        mode = "up" if event["up"] else "down"
        toggle = page.locator(f'[data-updown="{mode}"]')
        if toggle.count() and toggle.get_attribute("aria-pressed") != "true":
            toggle.click()
        if event["card"] is None:
            tap(page, '[data-testid="unknown-card"]')
            return
        tap(page, f'.picker button[data-card="{event["card"]}"]')
    elif kind == "act":
        acting_on_screen(page, event["seat"])
        tap(page, f'#legal [data-action="{event["action"]}"]')
    elif kind == "show":
        seat = next(s for s in hand["seats"] if s["seat"] == event["seat"])
        showing_on_screen(page, seat)
        known = {c["card"] for c in seat["cards"] if c["card"]}
        for card in event["cards"]:
            if card not in known:
                tap(page, f'.picker button[data-card="{card}"]')
        tap(page, '[data-testid="show-cards"]')
    elif kind == "muck":
        showing_on_screen(page, next(s for s in hand["seats"] if s["seat"] == event["seat"]))
        tap(page, '[data-testid="muck"]')
    else:
        raise AssertionError(f"no tap for {event}")


def acting_on_screen(page: Any, seat: int) -> None:
    """Wait until the dealer screen's action buttons are ``seat``'s: just after an action they
    are still the last actor's for a moment, and a tap then acts out of turn."""
    page.locator(f'#legal[data-seat="{seat}"] [data-action]').first.wait_for()


def showing_on_screen(page: Any, seat: dict[str, Any]) -> None:
    """Wait until the dealer screen asks for ``seat``'s showing: its Show and Muck buttons act
    for the seat the screen names, and just after a seat has shown they are still the last
    one's for a moment."""
    page.locator('[data-testid="show-hint"]', has_text=f'{seat["seat"]} · {seat["name"]}'
                 ).wait_for()


def cards_outside_seats(page: Any, seat_selector: str) -> list[Any]:
    """Cards that stick out of, or are clipped by, their seat box."""
    found: list[Any] = page.evaluate(
        """sel => Array.from(document.querySelectorAll(sel)).flatMap(seat => {
            const box = seat.getBoundingClientRect();
            return Array.from(seat.querySelectorAll('.card')).map(card => {
                const r = card.getBoundingClientRect();
                return [seat.dataset.seat, card.textContent.trim() || 'back',
                        r.left, r.right, box.left, box.right];
            }).filter(([, , l, r, bl, br]) => l < bl - 0.5 || r > br + 0.5);
        })""",
        seat_selector,
    )
    return found


def seats_under_results(tv: Any) -> list[str]:
    """The TV seats that the result panel covers, even in part."""
    covered: list[str] = tv.evaluate(
        """() => { const r = document.querySelector('[data-testid=tv-results]')
                                     .getBoundingClientRect();
            return Array.from(document.querySelectorAll('.tv-seat')).filter(s => {
                const b = s.getBoundingClientRect();
                return b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top;
            }).map(s => s.dataset.seat); }"""
    )
    return covered


def overlapping_seats(tv: Any) -> list[list[str]]:
    """Pairs of TV seat boxes that overlap, even in part."""
    pairs: list[list[str]] = tv.evaluate(
        """() => { const seats = Array.from(document.querySelectorAll('.tv-seat'));
            const boxes = seats.map(s => [s.dataset.seat, s.getBoundingClientRect()]);
            const out = [];
            boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, q]) => {
                if (r.left < q.right && r.right > q.left && r.top < q.bottom && r.bottom > q.top)
                    out.push([a, b]); }));
            return out; }"""
    )
    return pairs


def font_px(page: Any, selector: str) -> list[float]:
    sizes: list[float] = page.evaluate(
        """sel => Array.from(document.querySelectorAll(sel))
                   .map(e => parseFloat(getComputedStyle(e).fontSize))""",
        selector,
    )
    assert sizes, f"nothing matches {selector}"
    return sizes
