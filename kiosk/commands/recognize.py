"""``stud-kiosk recognize``: read the face-up cards in pictures of the table and count the
face-down ones (found by their backs, never named)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

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
    failures = 0
    for name in args.images:
        try:
            image = load_image(name)
            result = recognizer.read(image, detail=args.detail)
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
