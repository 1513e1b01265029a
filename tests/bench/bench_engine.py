"""Hand engine benchmark: the same recorded stud hi/lo hands (PHH, written by pokerkit) replayed to
their final stacks through this engine and through pokerkit 0.7.7, one process, best of several
passes. Prints hands per second, the ratio (target: this engine at least 5x pokerkit) and, with
``--markdown``, the section for docs/benchmarks.md.

    .venv/bin/python -m tests.bench.bench_engine [--hands 300] [--repeat 3] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import warnings
from collections.abc import Callable
from importlib.metadata import version

from pokerkit import HandHistory

from engine.events import event_from_dict
from engine.hand import Hand
from engine.phh import finishing_stacks_in_file_order, from_phh
from engine.settings import GameSettings
from tests.engine.pokerkit_driver import SetAside, play_one

TARGET = 5.0


def record(count: int) -> list[str]:
    """``count`` seeded random hi/lo hands played by pokerkit, as pokerkit's own PHH text."""
    texts: list[str] = []
    seed = 0
    while len(texts) < count:
        seed += 1
        try:
            _, state, game = play_one("seven-card-stud-hilo", seed)
        except SetAside:
            continue
        texts.append(HandHistory.from_game_state(game, state).dumps())
    return texts


def pokerkit_replay(text: str) -> list[int]:
    states = iter(HandHistory.loads(text))
    state = None
    for state in states:  # noqa: B007 - the last state is the final one
        pass
    assert state is not None
    return list(state.stacks)


def ours_replay(text: str) -> list[int]:
    return finishing_stacks_in_file_order(from_phh(text))


def best_rate(f: Callable[[str], object], items: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            f(item)
        best = min(best, time.perf_counter() - start)
    return len(items) / best


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    texts = record(args.hands)
    # the same hands, the same final stacks: otherwise the comparison means nothing
    for text in texts:
        assert ours_replay(text) == pokerkit_replay(text)
    actions = sum(len(HandHistory.loads(t).actions) for t in texts)
    logs = [from_phh(t).to_json() for t in texts]

    def events_replay(log: str) -> object:
        data = json.loads(log)
        hand = Hand(GameSettings.from_dict(data["settings"]))
        for item in data["events"]:
            hand.push(event_from_dict(item))
        return hand.finishing_stacks

    # the passes alternate between the engines, so that a busy moment of the machine does not
    # fall on one of them only
    theirs = ours = ours_log = 0.0
    for _ in range(args.repeat):
        theirs = max(theirs, best_rate(pokerkit_replay, texts, 1))
        ours = max(ours, best_rate(ours_replay, texts, 1))
        ours_log = max(ours_log, best_rate(events_replay, logs, 1))
    ratio = ours / theirs
    rows = [
        (f"pokerkit {version('pokerkit')} (`HandHistory` from PHH text)", theirs),
        ("this engine (`from_phh` from PHH text)", ours),
        ("this engine (JSON event log, as after a power cut)", ours_log),
    ]
    cpu = platform.processor() or platform.machine()
    if args.markdown:
        print("## Hand engine (tests/bench/bench_engine.py)\n")
        print(f"{len(texts)} seeded random seven-card stud hi/lo hands ({actions} PHH actions, "
              "2-7 players, unequal stacks), recorded by pokerkit and replayed to their final "
              f"stacks; best of {args.repeat} passes, one process; Python "
              f"{platform.python_version()}, {cpu}, {os.cpu_count()} cores shared.\n")
        print("| replay | hands/s | actions/s |")
        print("| --- | ---: | ---: |")
        for name, rate in rows:
            print(f"| {name} | {rate:,.0f} | {rate * actions / len(texts):,.0f} |")
        print(f"\nThis engine from PHH is **{ratio:.1f}x** pokerkit (target: at least "
              f"{TARGET:.0f}x). Both read the same files and reach the same stacks (checked "
              "before timing).\n")
    else:
        print(f"pokerkit {version('pokerkit')}: {theirs:,.0f} hands/s")
        print(f"ours (PHH): {ours:,.0f} hands/s  ({ratio:.1f}x pokerkit; target {TARGET:.0f}x)")
        print(f"ours (JSON event log): {ours_log:,.0f} hands/s")
    return 0 if ratio >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
