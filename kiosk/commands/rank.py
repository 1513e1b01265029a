"""``stud-kiosk rank``: name a hand as the dealer would, with its category and the cards that play.

    $ stud-kiosk rank Kh Kd Ks 9c 9h 2d 3s
    Full house, kings over nines
      category: Full house (full-house)
      cards: Ks Kh Kd 9h 9c
"""

from __future__ import annotations

import argparse
import sys

from engine.variants import VARIANTS

HELP = "name a hand (5 to 7 cards) in words, with its category and the five cards that play"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        choices=tuple(VARIANTS),
        default="seven-card-stud",
        help="how to rank the hand (default seven-card-stud: best five for high)",
    )
    parser.add_argument("--lang", choices=("en", "it"), default="en", help="language (default en)")
    parser.add_argument(
        "cards", nargs="+", metavar="CARDS", help="the cards, together or apart: AhKd7c or Ah Kd 7c"
    )


def run(args: argparse.Namespace) -> int:
    from engine import (
        EngineError,
        HandValue,
        evaluate_high,
        evaluate_low,
        evaluate_low8,
        evaluate_soko,
        format_cards,
        parse_cards,
    )
    from engine.evaluate import EvaluationError, category_name
    from engine.i18n import translate

    lang: str = args.lang
    variant = VARIANTS[args.game]

    def show(value: HandValue, label: str | None = None) -> None:
        title = value.name(lang)
        print(f"{translate(label, lang)}: {title}" if label else title)
        category = category_name(value.category, lang)
        print(f"  {translate('hands.label.category', lang)}: {category} ({value.category})")
        print(f"  {translate('hands.label.cards', lang)}: {format_cards(value.cards)}")

    try:
        cards = parse_cards(" ".join(args.cards))
        if variant.hand_size == 5 and len(cards) != 5:
            raise EvaluationError(
                "eval.error.count." + ("soko" if variant.showdown == "soko" else "five"),
                count=len(cards),
                cards=repr(format_cards(cards)),
            )
        if variant.showdown == "soko":
            show(evaluate_soko(cards))
        elif variant.showdown == "low":
            show(evaluate_low(cards))
        elif variant.showdown == "hilo":
            high = evaluate_high(cards)
            low = evaluate_low8(cards)
            show(high, "hands.label.high")
            if low is None:
                print(f"{translate('hands.label.low', lang)}: {translate('hands.no-low', lang)}")
            else:
                show(low, "hands.label.low")
        else:
            show(evaluate_high(cards))
    except EngineError as exc:
        text = exc.text(lang) if isinstance(exc, EvaluationError) else str(exc)
        print(f"stud-kiosk rank: {text}", file=sys.stderr)
        return 2
    return 0
