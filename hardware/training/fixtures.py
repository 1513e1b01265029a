"""Write the small scene fixtures of the recognition tests, from the CC0 deck only.

    python -m hardware.training.fixtures [--out tests/hardware/fixtures/camera]

The art of ``@heruka_urgyen/react-playing-cards`` is CC0, so scenes drawn from it may be kept in
the repository; the tests then need neither the network nor the other decks.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2

from hardware.training.cardart import load_decks
from hardware.training.synth import TRAIN_RANK_PX, make_scene

FIXTURE_SEEDS = range(900_001, 900_009)
#: a scene of both CC0 decks (ranks as in training) with a covered card whose rank alone is
#: cut out and read, its suit not: read in detail only by the card-view network in the quad of
#: its rank (``whole.lone_ranks``)
LONE_RANK_SEED = 950_120


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--png", type=Path, default=Path(".cache/cards/png"))
    parser.add_argument("--out", type=Path, default=Path("tests/hardware/fixtures/camera"))
    args = parser.parse_args(argv)
    cc0 = {k: v for k, v in load_decks(args.png).items() if k.startswith("heruka-")}
    decks = {k: v for k, v in cc0.items() if k == "heruka-2color"}
    if not decks:
        print("the CC0 deck is not rendered: run python -m hardware.training.fetch",
              file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    images = []
    for n, seed in enumerate(FIXTURE_SEEDS, 1):
        scene = make_scene(decks, random.Random(seed), size=(1280, 720))
        name = f"scene{n:02d}.jpg"
        cv2.imwrite(str(args.out / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        cards = [{"card": p.art.card if p.face_up else None, "face_up": p.face_up,
                  "readable": p.face_up and p.art.card in scene.readable}
                 for p in scene.placed]
        images.append({"file": name, "seed": seed, "cards": cards})
    (args.out / "labels.json").write_text(json.dumps({"images": images}, indent=1) + "\n",
                                          encoding="utf-8")
    scene = make_scene(cc0, random.Random(LONE_RANK_SEED), size=(1280, 720),
                       rank_px=TRAIN_RANK_PX)
    cv2.imwrite(str(args.out / "lone-rank.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    (args.out / "lone-rank.json").write_text(json.dumps(
        {"seed": LONE_RANK_SEED, "face_up": [p.art.card for p in scene.placed if p.face_up]})
        + "\n", encoding="utf-8")
    print(f"{len(images)} scenes in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
