"""The night's benchmark: what the exact settlement costs for each number of parties with a
balance (random balances in cents, none of them in a smaller group that adds up to 0, the worst
case for the search), and what a night's entry costs the table service (checked, written with the
setup before and after it to SQLite with ``synchronous=FULL``, folded). Prints a table and, with
``--markdown``, the section for docs/benchmarks.md.

    .venv/bin/python -m tests.bench.bench_night [--markdown]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

from kiosk.service import TableService
from kiosk.settlement import EXACT_MOST, settle
from kiosk.store import Store


def settlement_ms(parties: int, repeat: int = 3) -> float:
    rng = random.Random(parties)
    best = float("inf")
    for _ in range(repeat):
        balances = [rng.randint(-50_000, 50_000) * 7 + 1 for _ in range(parties - 1)]
        balances.append(-sum(balances))
        start = time.perf_counter()
        settle(dict(enumerate(balances)))
        best = min(best, time.perf_counter() - start)
    return best * 1000


def entry_ms(entries: int = 200) -> float:
    with tempfile.TemporaryDirectory() as folder:
        table = TableService(Store(f"sqlite:///{Path(folder) / 'bench.sqlite3'}"))
        anna = table.add_player("Anna")["player"]["id"]
        table.submit({"type": "night_open", "currency": "EUR", "chips": 100, "money": 1000,
                      "buy_in": 1000})
        table.submit({"type": "buy_in", "player": anna, "seat": 1, "chips": 1000})
        start = time.perf_counter()
        for _ in range(entries):
            table.submit({"type": "rebuy", "player": anna, "chips": 100})
        return (time.perf_counter() - start) * 1000 / entries


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    sizes = [4, 6, 8, 10, 12, 14, EXACT_MOST]
    rows = [(n, settlement_ms(n)) for n in sizes]
    per_entry = entry_ms()
    if not args.markdown:
        for n, ms in rows:
            print(f"{n:3d} parties: {ms:9.2f} ms")
        print(f"a night's entry through the table service: {per_entry:.2f} ms")
        return 0
    print("## The night (`bench_night`)\n")
    print(f"The exact settlement (`kiosk/settlement.py`) on random balances with no zero-sum "
          f"group smaller than all of them, best of 3; Python {platform.python_version()}, "
          f"{platform.machine()}, 2 cores shared.\n")
    print("| parties with a balance | settlement |\n| ---: | ---: |")
    for n, ms in rows:
        print(f"| {n} | {ms:.2f} ms |")
    print(f"\nA night's entry (a rebuy) through `TableService.submit`, checked, written with the "
          f"setup before and after it to SQLite (WAL, `synchronous=FULL`) and folded: "
          f"**{per_entry:.2f} ms** (mean of 200, in a temporary folder).\n")
    print("Run: `.venv/bin/python -m tests.bench.bench_night --markdown`.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
