"""A full table, measured in real Chromium. On the TV (1920x1080, read from across the room) the
result of a hand, with its side pots, never hides a seat's name or cards at any number of players:
2, 6 and 8 at seven-card stud, 9 and 10 at five-card stud (its most); every word of it, down to
why an odd chip went where it did and that no low qualified, is in the TV's body size or larger.
On the 800x480 dealer screen
with 8, 9 and 10 seats the side pots and the last action stay in sight above the action bar while
the dealer acts, whatever the seats below need to scroll."""

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
    check_touch_targets,
    font_px,
    overlapping_seats,
)
from tests.kiosk import driver

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Giulia", "Marcello", "Nadia",
         "Massimiliano"]


def crowded(game: str, players: int, short: dict[int, int]) -> dict[str, Any]:
    """``players`` seats of ``game`` with 200 chips each but the ``short`` stacks (seat: chips),
    which go all in along the way: each short stack of its own size makes one more side pot.
    The TV does not replay the hand, so the result stays on it until the next hand however long
    the checks take (a replay, after the result has stayed a while, shows the streets instead:
    tests/browser/test_broadcast_browser.py)."""
    setup = copy.deepcopy(driver.SETUP)
    setup["game"] = game
    setup["rules"]["burns"] = False
    setup["tv"] = {"odds": True, "replays": False}
    for seat in setup["seats"]:
        n = seat["seat"]
        seat.update(name=NAMES[n - 1], stack=short.get(n, 200), active=n <= players)
    return setup


def play(http: Any, url: str, deck: list[str], stop: Callable[[dict[str, Any]], bool]
         ) -> dict[str, Any]:
    """Answer the dealer's prompts from the API until ``stop`` holds for the hand."""
    while True:
        hand: dict[str, Any] = http.get(url + "/api/state?lang=it").json()["hand"]
        if stop(hand):
            return hand
        assert not hand["finished"], "the hand ended before the point under test"
        answer = http.post(url + "/api/events", json=next_event(hand, deck))
        assert answer.ok, answer.text


def new_hand(http: Any, url: str, game: str, players: int, short: dict[int, int]) -> None:
    assert http.put(url + "/api/setup", json=crowded(game, players, short)).ok
    assert http.post(url + "/api/hands").ok


# -- the TV ----
def result_over_seats(tv: Any) -> list[list[str]]:
    """Each part of a seat (its whole box, its name line, its cards) that the result panel
    covers, even by a pixel."""
    found: list[list[str]] = tv.evaluate(
        """() => { const r = document.querySelector('[data-testid=tv-results]')
                                     .getBoundingClientRect();
            const hit = b => b.left < r.right && b.right > r.left
                             && b.top < r.bottom && b.bottom > r.top;
            const out = [];
            document.querySelectorAll('.tv-seat').forEach(s => {
                [['seat', s], ['name', s.querySelector('.who')],
                 ['cards', s.querySelector('.cards')]].forEach(([part, e]) => {
                    if (hit(e.getBoundingClientRect())) out.push([s.dataset.seat, part]);
                });
            });
            return out; }"""
    )
    return found


def result_off_the_felt(tv: Any) -> dict[str, Any] | None:
    """The result panel's box if any of it leaves the felt (the table inside its rail) or shows
    less than its whole text; None when it is whole and on the felt."""
    box: dict[str, Any] | None = tv.evaluate(
        """() => { const table = document.getElementById('tv-table');
            const t = table.getBoundingClientRect();
            const left = t.left + table.clientLeft, top = t.top + table.clientTop;
            const right = left + table.clientWidth, bottom = top + table.clientHeight;
            const e = document.querySelector('[data-testid=tv-results]');
            const r = e.getBoundingClientRect();
            const whole = e.scrollHeight <= e.clientHeight + 1
                          && e.scrollWidth <= e.clientWidth + 1;
            if (whole && r.left >= left && r.right <= right && r.top >= top && r.bottom <= bottom)
                return null;
            return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, whole: whole,
                    felt: [left, top, right, bottom]}; }"""
    )
    return box


def result_texts_by_size(tv: Any) -> dict[str, Any]:
    """Every piece of text in the result panel (headings, lines, amounts, notes on odd chips and
    missing lows), each with the size it is drawn in: ``all`` counts them, ``small`` lists those
    under the TV's body size as [text, px]."""
    found: dict[str, Any] = tv.evaluate(
        """min => { const panel = document.querySelector('[data-testid=tv-results]');
            const walk = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
            const out = {all: 0, small: []};
            for (let n = walk.nextNode(); n; n = walk.nextNode()) {
                const text = n.textContent.trim();
                if (!text) continue;
                const px = parseFloat(getComputedStyle(n.parentElement).fontSize);
                out.all += 1;
                if (px < min) out.small.push([text, px]);
            }
            return out; }""",
        TV_MIN_PX,
    )
    return found


def result_notes(tv: Any) -> list[str]:
    """The notes under the pots of the result panel (odd chips, no qualifying low)."""
    notes: list[str] = tv.eval_on_selector_all(
        '[data-testid="tv-results"] .why', "els => els.map(e => e.textContent.trim())")
    return notes


def result_amounts(tv: Any) -> list[int]:
    amounts: list[int] = tv.eval_on_selector_all(
        '[data-testid="tv-results"] .amount', "els => els.map(e => parseInt(e.textContent, 10))")
    return amounts


#: each hand the TV shows: players, game, short stacks (seat: chips), side pots it makes.
#: Seven-card stud up to its eight players, five-card stud at nine and ten (its most); hi/lo
#: results are the tallest (a high and a low share in each pot, odd-chip notes). At six players
#: no low qualifies in any pot (a note under each); at ten Nadia's 9 chips leave the first side
#: pot odd (43) for Anna and Bruno's tied aces: a note says who takes the odd chip and why.
TV_TABLES = [
    (2, "seven-card-stud", {2: 14}, 0),
    (6, "seven-card-stud-hilo", {2: 14, 4: 30, 5: 22}, 2),
    (8, "seven-card-stud-hilo", {2: 14, 4: 30, 7: 22}, 3),
    (9, "five-card-stud", {2: 14, 4: 30, 7: 22}, 3),
    (10, "five-card-stud", {2: 14, 4: 30, 7: 22, 9: 9}, 4),
]
NO_LOW = "nessun basso valido"


def test_the_tv_result_hides_no_seat_at_any_number_of_players(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:
    """The result panel covers no seat, stays whole on the felt in letters read from across the
    room (every text in it, notes included), and adds up to what the hand paid out. Pot by pot
    when that fits anywhere, with the notes on odd chips and missing lows (in two columns if
    needed: ten players, five pots); else each winner's total from every pot (eight players at
    hi/lo with four pots split high and low)."""
    server = live_kiosk()
    http = server.dealer_session()
    ctx = chromium.new_context(viewport={"width": 1920, "height": 1080})
    try:
        tv = ctx.new_page()
        tv.goto(server.url + "/spectator?lang=it")
        shown_notes: list[str] = []
        for players, game, short, side_pots in TV_TABLES:
            new_hand(http, server.url, game, players, short)
            hand = play(http, server.url, list(DECK), lambda h: bool(h["finished"]))
            result = hand["result"]
            where = f"{players} players"
            assert len(result["pots"]) == side_pots + 1, (where, result["pots"])
            tv.wait_for_function(
                """n => document.querySelectorAll('.tv-seat').length === n
                        && document.querySelector('[data-testid=tv-results] .push')""",
                arg=players)
            tv.wait_for_timeout(100)
            tv.screenshot(path=str(artifacts / f"tv-result-{players}-players.jpg"))
            assert result_over_seats(tv) == [], where
            assert result_off_the_felt(tv) is None, where
            assert min(font_px(tv, '[data-testid="tv-results"] .push')) >= TV_MIN_PX, where
            assert min(font_px(tv, '[data-testid="tv-results"] h2')) >= TV_MIN_PX, where
            texts = result_texts_by_size(tv)
            assert texts["all"] > 0 and texts["small"] == [], (where, texts)
            notes = result_notes(tv)
            if not tv.eval_on_selector('[data-testid="tv-results"]',
                                       "e => e.classList.contains('brief')"):
                # pot by pot: each pot's notes, as the dealer's screen has them
                wanted = [n for pot in result["pots"]
                          for n in [NO_LOW] * pot["no_low"] + pot["odd_chips"]]
                assert len(notes) == len(wanted), (where, notes, wanted)
                assert all(w in n for w, n in zip(wanted, notes, strict=True)), (where, notes)
            shown_notes += notes
            assert overlapping_seats(tv) == [], where
            assert cards_outside_seats(tv, ".tv-seat") == [], where
            paid = sum(p["amount"] for p in result["payouts"])
            assert sum(result_amounts(tv)) == paid, where
            if players >= 9:  # five-card stud's short results still go pot by pot
                shown = tv.inner_text('[data-testid="tv-results"]')
                assert all(pot["title"] in shown for pot in result["pots"]), where
        # the size check above measured both kinds of note, not only headings and lines
        assert any(NO_LOW in n for n in shown_notes), shown_notes
        assert any("fiche dispari" in n for n in shown_notes), shown_notes
    finally:
        ctx.close()


# -- the small dealer screen ----
def hidden_from_dealer(page: Any, selector: str) -> dict[str, Any] | None:
    """Why the element is out of the dealer's sight on the screen as it is (outside the window,
    under the action bar, covered by something else, text cut short); None when it is in sight."""
    why: dict[str, Any] | None = page.evaluate(
        """sel => { const e = document.querySelector(sel);
            if (!e) return {missing: sel};
            const r = e.getBoundingClientRect();
            const bar = document.getElementById('actions').getBoundingClientRect();
            const box = {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                         bar: bar.top, text: e.textContent};
            if (r.width < 8 || r.height < 8) return {...box, why: 'no size'};
            if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5
                || r.right > innerWidth + 0.5)
                return {...box, why: 'outside the window'};
            if (r.bottom > bar.top + 0.5) return {...box, why: 'under the action bar'};
            const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
            if (!top || !(e === top || e.contains(top))) return {...box, why: 'covered'};
            if (e.scrollWidth > e.clientWidth + 1) return {...box, why: 'cut short'};
            return null; }""",
        selector,
    )
    return why


#: players, game, short stacks, pots on the table when the screen is checked (at ten, four pots
#: and the last action take two lines)
DEALER_TABLES = [(8, "seven-card-stud", {2: 14}, 2), (9, "five-card-stud", {2: 14, 4: 30}, 2),
                 (10, "five-card-stud", {2: 14, 4: 30, 7: 22, 9: 8}, 4)]


def acting_with(pots: int) -> Callable[[dict[str, Any]], bool]:
    """A seat to act, at least ``pots`` pots, and an action already taken on this street."""
    return lambda h: bool(
        len(h["pots"]) >= pots and h["prompt"]["kind"] == "act" and h["last_action"])


def test_small_dealer_screen_keeps_side_pots_and_last_action_in_sight(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path
) -> None:

    server = live_kiosk()
    http = server.dealer_session()
    ctx = chromium.new_context(viewport={"width": 800, "height": 480}, has_touch=True)
    try:
        server.signed_in(ctx, http)
        page = ctx.new_page()
        page.goto(server.url + "/dealer?lang=it")
        for players, game, short, pots in DEALER_TABLES:
            new_hand(http, server.url, game, players, short)
            hand = play(http, server.url, list(DECK), acting_with(pots))
            page.wait_for_function(
                """n => document.querySelectorAll('.seats .seat').length === n
                        && document.querySelector('[data-testid=side-pots]')""",
                arg=players)
            page.wait_for_timeout(100)
            page.screenshot(path=str(artifacts / f"dealer-{players}-seats-side-pot-800x480.jpg"))
            where = f"{players} seats"
            assert "laterale 1" in page.inner_text('[data-testid="side-pots"]'), where
            assert page.inner_text('[data-testid="last-action"]') == hand["last_action"]["text"]
            assert hidden_from_dealer(page, '[data-testid="side-pots"]') is None, where
            assert hidden_from_dealer(page, '[data-testid="last-action"]') is None, where
            assert hidden_from_dealer(page, '[data-testid="pot"]') is None, where
            check_touch_targets(page)
            assert http.post(server.url + "/api/misdeal").ok
    finally:
        ctx.close()
