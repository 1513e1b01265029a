"""``stud-kiosk recognize``: read the face-up cards in pictures of the table and count the
face-down ones (found by their backs, never named)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HELP = ("recognise the face-up cards and count the face-down ones in camera pictures "
        "(one JSON line per picture with --json)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="JPEG or PNG pictures")
    parser.add_argument("--json", action="store_true",
                        help='print one JSON line per picture: {"file", "cards": [{"card", '
                             '"confidence", "quad", "source"}], "down": [{"quad", "center"}]} '
                             '(face-down cards are only counted and placed, never named)')
    parser.add_argument("--min-confidence", type=float, default=None,
                        help="report only cards at or above this confidence, 0..1 (default: "
                             "the threshold chosen for the model, 0.95 reading in detail, 0.90 "
                             "with --no-detail)")
    parser.add_argument("--model", type=Path, default=None, help="ONNX model (default: built-in)")
    parser.add_argument("--explain", action="store_true",
                        help="say what read each card: the rule that found and named it, and "
                             "every reading weighed (with --json: an \"evidence\" list per card)")
    parser.add_argument("--learn", action="append", type=Path, default=[], metavar="LABELS",
                        help="learn the deck from the labelled face-up cards of the pictures of "
                             "a labels file (JSON: {\"images\": [{\"file\", \"cards\": [{\"card\", "
                             "\"face_up\", \"quad\"}]}]}, the pictures beside it), and read "
                             "the IMAGEs with it; may be given more than once")
    parser.add_argument("--deck", type=Path, default=None, metavar="FILE",
                        help="read with a deck learned before (a .npz written by --save-deck or "
                             "by the kiosk); --learn adds to it")
    parser.add_argument("--save-deck", type=Path, default=None, metavar="FILE",
                        help="write the deck learned (--deck and --learn) to FILE (.npz)")
    parser.add_argument("--detail", action=argparse.BooleanOptionalAction, default=True,
                        help="also read each picture enlarged, for indices too small for its "
                             "own scale, a card so read counting only when sure (the default; "
                             "--no-detail reads each picture at its own scale only, about a "
                             "third of the time: docs/recognition.md)")


def run(args: argparse.Namespace) -> int:
    from hardware.camera import DEFAULT_MIN_CONFIDENCE, DETAIL_MIN_CONFIDENCE
    from hardware.camera.down import find_down_cards
    from hardware.camera.readers import keep_frame_memory
    from hardware.camera.recognize import (
        MODEL_PATH,
        RecognitionError,
        Recognizer,
        load_image,
    )

    threshold = args.min_confidence
    if threshold is None:
        threshold = DETAIL_MIN_CONFIDENCE if args.detail else DEFAULT_MIN_CONFIDENCE
    if not 0.0 <= threshold <= 1.0:
        print(f"--min-confidence {threshold}: must be between 0 and 1", file=sys.stderr)
        return 2
    try:
        recognizer = Recognizer(args.model or MODEL_PATH, min_confidence=threshold)
    except (FileNotFoundError, ValueError) as exc:
        print(f"cannot load the card model: {exc}", file=sys.stderr)
        return 2
    keep_frame_memory()  # a picture's arrays reused for the next
    try:
        deck = learned_deck(recognizer, args.deck, args.learn)
        if deck is not None and args.save_deck is not None:
            deck.save(args.save_deck)
    except (OSError, ValueError) as exc:
        print(f"{exc}", file=sys.stderr)
        return 2
    if deck is not None:
        counts = deck.counts()
        print(f"deck {deck.name!r}: {counts['examples']} examples, ranks "
              f"{''.join(counts['ranks']) or 'none'}, suits {''.join(counts['suits']) or 'none'}",
              file=sys.stderr)
    failures = 0
    for name in args.images:
        try:
            image = load_image(name)
            result = recognizer.read(image, detail=args.detail, deck=deck)
            downs = find_down_cards(image, result)
        except RecognitionError as exc:
            failures += 1
            print(f"{exc}", file=sys.stderr)
            if args.json:
                print(json.dumps({"file": Path(name).name, "cards": [], "down": [],
                                  "error": str(exc)}),
                      flush=True)
            continue
        if args.json:
            read = [c.to_json() for c in result.cards]
            if args.explain:
                for card, reading in zip(read, result.cards, strict=True):
                    card["evidence"] = [str(e) for e in reading.evidence]
            line = {"file": Path(name).name, "cards": read,
                    "down": [d.to_json() for d in downs]}
            print(json.dumps(line), flush=True)
        else:
            cards = ", ".join(f"{c.card} {c.confidence:.0%}" for c in result.cards) or "no card"
            extra = f" ({result.unknown} unread)" if result.unknown else ""
            print(f"{name}: {cards}{extra}; {len(downs)} face down", flush=True)
            if args.explain:
                for reading in result.cards:
                    print(f"  {reading.explain()}", flush=True)
                for corner in result.unread:
                    x, y = corner.center
                    print(f"  unread: an index corner at ({x:.0f}, {y:.0f})", flush=True)
    return 1 if failures else 0


def learned_deck(recognizer: Any, start: Path | None, labels: list[Path]) -> Any:
    """The deck to read with: the one in ``start``, with the examples of every labels file
    added (its pictures found beside it); None without either."""
    from hardware.camera.deck import Deck, DeckError
    from hardware.camera.examples import Labelled, examples_in
    from hardware.camera.recognize import RecognitionError, load_image

    if start is None and not labels:
        return None
    deck = Deck.load(start) if start is not None else Deck(labels[0].stem or "deck")
    for path in labels:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            images = data["images"]
            pictures = [(i["file"], [Labelled(c.get("card") if c.get("face_up") else None,
                                              tuple((float(x), float(y)) for x, y in c["quad"]))
                                     for c in i["cards"]]) for i in images]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise DeckError(f"{path}: not a labels file ({exc}); expected {{\"images\": "
                            "[{\"file\", \"cards\": [{\"card\", \"face_up\", "
                            "\"quad\"}]}]}") from exc
        for name, cards in pictures:
            try:
                image = load_image(path.parent / name)
            except RecognitionError as exc:
                raise DeckError(f"{path}: {exc}") from exc
            corners, suits = recognizer.corners(image)
            for example in examples_in(image, corners, cards, f"labels {name}", suits):
                deck.add(example)
    return deck
