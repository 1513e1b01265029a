"""Stream overlay benchmark: how late each hole card appears on the overlay page in real Chromium,
beyond the house's delay.

The real server (``stud-kiosk serve``) on a loopback port, the overlay page in Debian's Chromium
(Playwright) at 1920x1080; the dealer enters the scripted seven-card stud hi/lo hands through the
JSON API. For every hole card entered: the time from the moment the entry was sent to the moment
the card is in the overlay page (a ``MutationObserver`` in the page notes the wall-clock time each
card of each hand first appears; the server, the browser and the benchmark share the machine's
clock), less the delay. It must never be below 0 (a card before its time), and should be small:
the delivery wakes at each frame's due time.

    .venv/bin/python -m tests.bench.bench_overlay [--hands 3] [--delay 3]
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveKiosk
from tests.kiosk import driver

SEEN = """() => {
  // the wall-clock time each card of each hand first shows on the overlay
  window.seen = {};
  const root = document.getElementById('overlay');
  new MutationObserver(() => {
    const hand = root.dataset.hand, now = Date.now();
    if (!hand) return;
    const cards = window.seen[hand] = window.seen[hand] || {};
    root.querySelectorAll('.ov-seat .card[data-card]').forEach(c => {
      if (c.dataset.card && !(c.dataset.card in cards)) cards[c.dataset.card] = now;
    });
  }).observe(root, {childList: true, subtree: true, attributes: true});
}"""


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--delay", type=int, default=3)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    late: list[float] = []
    holes: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        server = LiveKiosk(Path(tmp) / "instance").start()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            http = server.dealer_session()
            setup = copy.deepcopy(driver.SETUP)
            setup["tv"] = {"odds": True, "replays": False, "overlay_delay": args.delay}
            assert http.put(server.url + "/api/setup", json=setup).status_code == 200
            url = http.get(server.url + "/api/overlay").json()["url"]
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(url + "?lang=en")
            page.evaluate(SEEN)
            for _hand in range(args.hands):
                answer = http.post(server.url + "/api/hands")
                assert answer.status_code == 200
                shown = f'#overlay[data-hand="{answer.json()["number"]}"]'  # not the last hand's
                while True:
                    event = driver.next_event(http.get(server.url + "/api/state").json())
                    if event is None:
                        break
                    sent = time.time()
                    assert http.post(server.url + "/api/events", json=event).status_code == 200
                    if event["type"] == "deal" and not event["up"] and event["card"]:
                        holes[event["card"]] = sent
                # the next hand deals the same cards: wait until this one is over on the overlay
                page.wait_for_selector(f"{shown} .ov-seat.winner",
                                       timeout=(args.delay + 10) * 1000)
                seen = page.evaluate("hand => window.seen[hand]", answer.json()["number"])
                late += [seen[card] / 1000 - at - args.delay for card, at in holes.items()]
                holes.clear()
        finally:
            browser.close()
            server.stop()
    late_ms = sorted(x * 1000 for x in late)
    print(f"{len(late_ms)} hole cards, delay {args.delay} s: lateness beyond the delay median "
          f"{statistics.median(late_ms):.0f} ms, p90 {late_ms[int(0.9 * (len(late_ms) - 1))]:.0f}"
          f" ms, max {late_ms[-1]:.0f} ms, min {late_ms[0]:.0f} ms; load average "
          f"{os.getloadavg()[0]:.1f}")
    return 0 if late_ms[0] >= 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
