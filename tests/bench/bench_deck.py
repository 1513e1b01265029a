"""Reading with the deck on the table (docs/benchmarks.md, "Reading with a learned deck").

For each design of a labels file, in blocks of ``--block`` pictures by file name: a deck learned
from the labelled face-up cards of the first ``--learn`` pictures of the block (as ``stud-kiosk
recognize --learn`` does), the others read with it and without it. Prints, per design and in
all, the cards read right and wrong at the threshold in use (recall over the face-up cards with
an index in view; wrong over the cards named); how well the deck's examples name the glyphs
of the cards read (each rank and suit glyph the labels give in the other pictures, as the deck
would learn it, named by its nearest example: of all, and of those whose rank or suit the deck
has an example of); then the time to learn the examples of a block and the frames per second at
1280x720 reading with the deck, on one thread.

    .venv/bin/python -m tests.bench.bench_deck [--labels $VALIDATION/labels.json]
        [--learn 5] [--block 15]

Without a labels file, pictures of the committed CC0 deck are drawn and labelled first.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera import DETAIL_MIN_CONFIDENCE
from hardware.camera.deck import Deck
from hardware.camera.examples import Labelled, examples_in
from hardware.camera.learned import Embedder, deck_points
from hardware.camera.recognize import Recognizer


def _picture(path: str) -> npt.NDArray[np.uint8]:
    """A picture read from ``path``; a missing or unreadable file fails here, by name."""
    image = cv2.imread(path)
    assert image is not None, f"cannot read {path}"
    return image.astype(np.uint8)


ROOT = Path(__file__).resolve().parents[2]
VALIDATION = Path(os.environ.get("STUD_KIOSK_VALIDATION", ROOT / "validation")) / "labels.json"
FIXTURES = ROOT / "tests" / "hardware" / "fixtures"


def drawn_labels(folder: Path) -> Path:
    """Ten labelled pictures of the CC0 deck drawn into ``folder``; their labels file."""
    from hardware.training.cardart import load_decks
    from hardware.training.tables import write_tables

    decks = {"cards-heruka": load_decks(FIXTURES)["cards-heruka"]}
    write_tables(decks, "cards-heruka", 10, folder, first_seed=41_000_000)
    return folder / "labels.json"


def learn(recognizer: Recognizer, folder: Path, images: list[dict[str, Any]], name: str) -> Deck:
    deck = Deck(name[:40])
    for image in images:
        learn_picture(recognizer, deck, _picture(str(folder / image["file"])), image)
    return deck


def learn_picture(recognizer: Recognizer, deck: Deck, picture: npt.NDArray[np.uint8],
                  image: dict[str, Any]) -> None:
    """Add to ``deck`` the examples of one labelled picture (``image``: its labels)."""
    cards = [Labelled(c["card"] if c["face_up"] else None, tuple(map(tuple, c["quad"])))
             for c in image["cards"]]
    corners, suits = recognizer.corners(picture)
    for example in examples_in(picture, corners, cards, f"labels {image['file']}", suits):
        deck.add(example)


def naming(embedder: Embedder, deck: Deck, asked: Deck) -> Counter[str]:
    """How many rank and suit glyphs of ``asked``'s examples ``deck``'s nearest example names
    right: of all, and of those whose class ``deck`` has an example of."""
    out = Counter[str]()
    for known, glyphs, kind in zip(deck_points(embedder, list(deck)),
                                   deck_points(embedder, list(asked)), ("rank", "suit"),
                                   strict=True):
        if not known.classes:
            continue
        for point, truth in zip(glyphs.points, glyphs.classes, strict=True):
            like = known.likeness(point)
            right = max(like, key=lambda c: like[c]) == truth
            seen = truth in like
            out.update({f"{kind}s": 1, f"{kind}s right": right, f"{kind}s seen": seen,
                        f"{kind}s seen right": right and seen})
    return out


def score(image: dict[str, Any], named: list[str]) -> tuple[int, int, int]:
    """Right, wrong, and face-up cards with an index in view, of one picture."""
    truth = Counter(c["card"] for c in image["cards"]
                    if c["face_up"] and c.get("readable", True))
    face_up = Counter(c["card"] for c in image["cards"] if c["face_up"])
    got = Counter(named)
    return sum((truth & got).values()), sum((got - face_up).values()), sum(truth.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", type=Path, default=VALIDATION)
    parser.add_argument("--learn", type=int, default=5)
    parser.add_argument("--block", type=int, default=0, help="pictures a deck is learned and "
                        "read in (0: all the pictures of a design)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        labels = args.labels if args.labels.is_file() else drawn_labels(Path(tmp))
        run(labels, args.learn, args.block)
    return 0


def run(labels: Path, learn_count: int, block: int) -> None:
    folder = labels.parent
    images = json.loads(labels.read_text(encoding="utf-8"))["images"]
    designs: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for image in sorted(images, key=lambda i: i["file"]):
        designs[image.get("design", "deck")].append(image)
    recognizer = Recognizer(min_confidence=DETAIL_MIN_CONFIDENCE)
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    named: dict[str, Counter[str]] = defaultdict(Counter)
    embedder = Embedder()
    learn_times, read_times = [], []
    for design, pictures in designs.items():
        size = block or len(pictures)
        for start in range(0, len(pictures), size):
            group = pictures[start:start + size]
            t0 = time.perf_counter()
            deck = learn(recognizer, folder, group[:learn_count], design)
            learn_times.append((time.perf_counter() - t0, len(deck)))
            asked = Deck(design[:40])
            for image in group[learn_count:]:
                picture = _picture(str(folder / image["file"]))
                learn_picture(recognizer, asked, picture, image)
                for key, with_deck in (("deck", deck), ("none", None)):
                    t0 = time.perf_counter()
                    result = recognizer.read(picture, detail=True, deck=with_deck)
                    if key == "deck":
                        read_times.append(time.perf_counter() - t0)
                    right, wrong, cards = score(image, [c.card for c in result.cards])
                    totals[f"{design} {key}"].update(right=right, wrong=wrong, cards=cards)
            named[design].update(naming(embedder, deck, asked))
    print(f"{labels}: learn {learn_count} pictures, read the rest; in detail, from "
          f"{DETAIL_MIN_CONFIDENCE}")
    print(f"{'design':<28} {'deck':>6} {'cards':>6} {'right':>6} {'wrong':>6} {'recall':>7} "
          f"{'wrong-rate':>10}")
    for key in ("deck", "none"):
        all_of = Counter[str]()
        for name, t in sorted(totals.items()):
            if name.endswith(" " + key):
                all_of.update(t)
                _line(name.rsplit(" ", 1)[0], key, t)
        _line("all", key, all_of)
    print("glyphs of the pictures read, named by the deck's nearest example: right of all "
          "(right of those whose rank or suit the deck has seen)")
    for name, t in sorted(named.items()):
        print(f"  {name:<26} " + "  ".join(
            f"{kind}s {t[kind + 's right'] / max(t[kind + 's'], 1):.3f} of {t[kind + 's']} "
            f"({t[kind + 's seen right'] / max(t[kind + 's seen'], 1):.3f} of "
            f"{t[kind + 's seen']})" for kind in ("rank", "suit")))
    seconds = sum(t for t, _n in learn_times)
    examples = sum(n for _t, n in learn_times)
    print(f"learning: {examples} examples in {seconds:.2f} s "
          f"({1000 * seconds / max(examples, 1):.1f} ms an example, cutting the corners included)")
    print(f"reading in detail with the deck: {len(read_times) / sum(read_times):.2f} pictures/s")
    frames = [_picture(str(folder / i["file"])) for i in images[:10]]
    deck = learn(recognizer, folder, images[:learn_count], "fps")
    for with_deck in (None, deck):
        t0 = time.perf_counter()
        for frame in frames * 2:
            recognizer.read(frame, detail=False, deck=with_deck)
        fps = 2 * len(frames) / (time.perf_counter() - t0)
        print(f"frames per second, one thread, {'with' if with_deck else 'without'} the deck: "
              f"{fps:.1f}")


def _line(name: str, key: str, t: Counter[str]) -> None:
    cards, right, wrong = t["cards"], t["right"], t["wrong"]
    print(f"{name:<28} {key:>6} {cards:>6} {right:>6} {wrong:>6} {right / max(cards, 1):>7.4f} "
          f"{wrong / max(right + wrong, 1):>10.4f}")


if __name__ == "__main__":
    main()
