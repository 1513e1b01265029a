"""``stud-kiosk odds``: each player's chance to win the pot from the cards known (docs/odds.md).

    $ stud-kiosk odds --game seven-card-stud --json "?? ?? Ah As 9d" "?? ?? Kh Ks 2c"
    {"exact": false, "runouts": 40000, "players": [{"win": 0.71, "equity": 0.72}, ...]}

One HAND per live player, in seat order, its cards as dealt with ``??`` for a down card not known;
``--dead`` the cards seen and out of play (folded up cards). Bad input prints the reason on stderr
and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.variants import VARIANTS

HELP = "each player's chance to win the pot from the cards known (?? for a card not known)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=tuple(VARIANTS), required=True, help="the game")
    parser.add_argument("--dead", default="", metavar="CARDS",
                        help="cards seen and out of play, such as folded up cards")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="count every deal (refused if too many)")
    how.add_argument("--runouts", type=int, metavar="N", help="deal N random runouts")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--lang", choices=("en", "it"), default="en", help="language (default en)")
    parser.add_argument("hands", nargs="+", metavar="HAND",
                        help='one per live player in seat order, such as "?? ?? 7h 7d 2c"')


def run(args: argparse.Namespace) -> int:
    from engine import EngineError
    from engine.i18n import translate
    from engine.odds import odds, problem

    lang: str = args.lang
    try:
        found = problem(args.game, args.hands, args.dead)
        result = odds(found, exact=True if args.exact else None, runouts=args.runouts)
    except EngineError as exc:
        text = exc.text(lang) if hasattr(exc, "text") else str(exc)
        print(f"stud-kiosk odds: {text}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    how = "odds.word.exact" if result.exact else "odds.word.estimate"
    print(translate("odds.line.title", lang, game=args.game, how=translate(how, lang),
                    runouts=result.runouts, margin=round(result.margin * 100, 2)))
    for number, (hand, player) in enumerate(zip(args.hands, result.players, strict=True), 1):
        figures = player.to_dict()
        words = "  ".join(f"{translate('odds.word.' + name, lang)} {100 * value:.1f}%"
                          for name, value in figures.items())
        print(f"  {number}  {' '.join(hand.split()):<22} {words}")
    return 0
