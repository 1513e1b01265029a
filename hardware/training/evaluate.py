"""Measure the recogniser on fresh synthetic scenes and choose its confidence threshold there.

    python -m hardware.training.evaluate [--scenes 150] [--held-out-fonts] [--without RULE...]

Prints recall (of the cards with a whole index in view) and the wrong-label rate (of all face-up
cards) for a range of thresholds. With ``--held-out-fonts`` every scene is dealt from decks drawn
in the fonts kept out of training (a stand-in for designs never seen). The threshold is chosen
on these synthetic scenes only, never on the validation pictures. ``--without`` reads with the
rules named switched off (``hardware.camera.params.RULES``), to measure what each gives.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

from hardware.camera.params import DEFAULT, RULES
from hardware.camera.recognize import INDEX_PATHS, MODEL_PATH, UPRIGHT_PATH, VIEW_PATH, Recognizer
from hardware.training.cardart import load_decks
from hardware.training.synth import TRAIN_RANK_PX, make_scene

FIRST_SEED = 20_000_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--png", type=Path, default=Path(".cache/cards/png"))
    parser.add_argument("--scenes", type=int, default=150)
    parser.add_argument("--model", type=Path, default=MODEL_PATH)
    parser.add_argument("--upright", type=Path, default=UPRIGHT_PATH,
                        help="the upright classifier; 'none' to read without it")
    parser.add_argument("--index", nargs="+", default=[str(p) for p in INDEX_PATHS],
                        help="the index networks read in detail; 'none' to read without them")
    parser.add_argument("--view", default=str(VIEW_PATH),
                        help="the card-view network read in detail; 'none' to read without it")
    parser.add_argument("--held-out-fonts", action="store_true",
                        help="deal from decks drawn in the fonts kept out of training")
    parser.add_argument("--rank-px", type=float, nargs=2, default=TRAIN_RANK_PX,
                        metavar=("LOW", "HIGH"), help="rank heights of the scenes in pixels")
    parser.add_argument("--detail", action="store_true",
                        help="read each scene in detail as well (Recognizer.read's detail)")
    parser.add_argument("--without", nargs="+", default=[], choices=sorted(RULES),
                        metavar="RULE", help="switch these rules off: " + ", ".join(RULES))
    args = parser.parse_args(argv)
    decks = load_decks(args.png)
    fonts = None
    if args.held_out_fonts:
        from hardware.training.fontdeck import FontDecks

        fonts = FontDecks(evaluation=True)
    upright = None if str(args.upright) == "none" else args.upright
    index = None if args.index == ["none"] else args.index
    view = None if args.view == "none" else args.view
    recognizer = Recognizer(args.model, min_confidence=0.0, upright_path=upright,
                            index_paths=index, view_path=view,
                            params=DEFAULT.without(*args.without))
    runs = []
    for seed in range(FIRST_SEED, FIRST_SEED + args.scenes):
        scene = make_scene(decks, random.Random(seed), size=(1280, 720), fonts=fonts,
                           font_share=1.0, rank_px=tuple(args.rank_px))
        face_up = [p.art.card for p in scene.placed if p.face_up]
        result = recognizer.read(scene.image, detail=args.detail)
        runs.append((scene.readable, face_up, [(c.card, c.confidence) for c in result.cards]))
    print("threshold  recall  wrong-rate  (readable cards, wrong)")
    for threshold in (0.0, 0.3, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.92, 0.93, 0.95, 0.97,
                      0.98, 0.99):
        correct = wrong = readable = 0
        for truth, face_up, predicted in runs:
            names = {card for card, conf in predicted if conf >= threshold}
            correct += len(Counter(truth) & Counter(names))
            wrong += len(names - set(face_up))
            readable += len(truth)
        rate = wrong / max(correct + wrong, 1)
        print(f"{threshold:9.2f}  {correct / max(readable, 1):6.3f}  {rate:10.4f}  "
              f"({readable}, {wrong})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
