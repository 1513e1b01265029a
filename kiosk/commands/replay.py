"""``stud-kiosk replay``: replay a PHH hand history through the engine and say how it ended.

    $ stud-kiosk replay hand.phh --json
    {"variant": "seven-card-stud", "finishing_stacks": [97, 53], "pots": [...], "result": {...}}

A malformed or illegal history prints ``error: action 7 ('p2 cbr 9'): ...`` and exits with 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HELP = "replay a PHH hand history (F7S, F7S/8, FR, X-F5S, X-SOKO) and print how every pot went"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.phh", help="the hand history (PHH, TOML)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--lang", choices=("en", "it"), default="en", help="language (default en)")


def summary(hand: Any, lang: str) -> dict[str, Any]:
    """What the replay prints: stacks in the file's seat order, the pots and the result."""
    from engine.phh import finishing_stacks_in_file_order

    state = hand.state
    order = list(hand.settings.clockwise())
    result = hand.result
    return {
        "variant": hand.settings.variant,
        "seats": order,
        "players": [state.seat(s).name for s in order],
        "finished": hand.finished,
        "finishing_stacks": finishing_stacks_in_file_order(hand),
        "pots": [p.to_dict() for p in state.pots],
        "result": None if result is None else result.to_dict(lang),
        "next": hand.prompt().text(lang),
    }


def run(args: argparse.Namespace) -> int:
    from engine import EngineError
    from engine.phh import from_phh

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        hand = from_phh(text)
    except EngineError as exc:
        message = exc.text(args.lang) if hasattr(exc, "text") else str(exc)
        print(f"error: {args.file}: {message}", file=sys.stderr)
        return 2
    data = summary(hand, args.lang)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    from engine.i18n import translate

    def seat_word(seat: int) -> str:
        return translate("play.seat", args.lang, seat=seat)

    print(f"{data['variant']}: {data['next']}")
    for seat, name, stack in zip(data["seats"], data["players"], data["finishing_stacks"],
                                 strict=True):
        print(f"  {seat_word(seat)} {name}: {stack}")
    if hand.result is not None:
        for pot in hand.result.pots:
            print(f"  {pot.to_dict(args.lang)['name']}: {pot.amount} -> "
                  + ", ".join(f"{seat_word(s)} {a}" for s, a in pot.awards))
            for chip in pot.odd_chips:
                print(f"    {chip.text(args.lang)}")
    return 0
