"""A home night's tests: the fewest transfers that settle a ledger, and the dealer's finger on
the night's screens in Chromium."""

from __future__ import annotations

from functools import cache
from typing import Any

from tests.helpers.waiting import wait_until
from tests.night.play import UP_CARDS


@cache
def fewest(balances: tuple[int, ...]) -> int:
    """The fewest transfers that settle ``balances`` (sorted, no zeros), by trying every way: the
    first party settles in full with one transfer to any party of the other sign (some fewest plan
    does so), and the rest is searched again."""
    if not balances:
        return 0
    first, rest = balances[0], list(balances[1:])
    best = len(balances)
    for i, other in enumerate(rest):
        if (other > 0) == (first > 0):
            continue
        left = [*rest[:i], other + first, *rest[i + 1:]]
        best = min(best, 1 + fewest(tuple(sorted(v for v in left if v))))
    return best


class Dealer:
    """The dealer's finger on the touchscreen; every tap waits for the state it causes."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url
        self.taps = 0

    def state(self) -> dict[str, Any]:
        view: dict[str, Any] = self.page.request.get(self.url + "/api/state?lang=en").json()
        return view

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.taps += 1

    def enter(self, selector: str, root: str) -> None:
        """Tap something that makes an entry, and wait until the screen drew its state."""
        version = self.state()["version"]
        self.tap(selector)
        wait_until(lambda: self.state()["version"] > version, f"the entry of {selector}")
        new = self.state()["version"]
        self.page.wait_for_function(
            f"+(document.querySelector('{root}').dataset.version || 0) >= {new}")

    def keypad(self, field: str, digits: str) -> None:
        self.tap(field)
        self.page.locator('[data-testid="keys"]').wait_for()
        for digit in digits:
            self.tap(f'.keys-pad [data-key="{digit}"]' if digit != "," else
                     '.keys-pad [data-key="C"]')
        self.tap('[data-testid="keys-ok"]')

    def keyboard(self, field: str, text: str) -> None:
        self.tap(field)
        self.page.locator('[data-testid="keys-board"]').wait_for()
        for ch in text:
            self.tap(f'.keys-sheet .hg-button[data-skbtn="{ch}"]')
        self.tap('[data-testid="keys-ok"]')

    def play_hand(self, game: str) -> dict[str, Any]:
        """Deal and bet a hand on the dealer screen: the up cards from a fresh deck, the hole
        cards skipped, the bring-in, everyone else folding."""
        if self.page.locator('[data-testid="next-hand"]').count():
            self.enter('[data-testid="next-hand"]', "#app")
        else:
            self.enter('[data-testid="start-hand"]', "#app")
        while True:
            hand = self.state()["hand"]
            assert hand["variant"] == game
            if hand["finished"]:
                return dict(hand)
            kind = hand["prompt"]["kind"]
            if kind == "deal" and not hand["next_card"]["up"]:
                self.enter('[data-testid="unknown-card"]', "#app")
            elif kind == "deal":
                card = next(c for c in UP_CARDS if c not in hand["seen"])
                self.enter(f'.picker button[data-card="{card}"]', "#app")
            else:
                legal = {a["action"] for a in hand["legal"]}
                action = next(a for a in ("bring_in", "fold", "check") if a in legal)
                self.enter(f'#legal [data-action="{action}"]', "#app")
