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

from hardware.training.synth import load_decks, make_scene

FIXTURE_SEEDS = range(900_001, 900_009)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--png", type=Path, default=Path(".cache/cards/png"))
    parser.add_argument("--out", type=Path, default=Path("tests/hardware/fixtures/camera"))
    args = parser.parse_args(argv)
    decks = {k: v for k, v in load_decks(args.png).items() if k == "heruka-2color"}
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
    print(f"{len(images)} scenes in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
