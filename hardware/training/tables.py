"""Synthetic table pictures of one deck each, labelled as the camera's validation pictures are.

    python -m hardware.training.tables --deck konqi --pictures 10 --out .cache/tables/konqi

Writes ``NNNN.jpg`` (1280x720) and ``labels.json``: per picture its ``design`` and every card
with ``card`` (None face down), ``face_up``, ``quad`` (the card's corners as printed: top-left,
top-right, bottom-right, bottom-left, in picture pixels) and ``readable`` (a whole corner index
in view). The format ``stud-kiosk recognize --learn`` reads, so that a deck can be learned from
some pictures and read in others (``hardware.training.learning``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.training.cardart import CardArt, load_decks
from hardware.training.synth import Scene, make_scene

FIRST_SEED = 30_000_000


def card_quad(art: CardArt, matrix: Any) -> list[list[float]]:
    h, w = art.image.shape[:2]
    corners = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
    return [[round(float(x), 1), round(float(y), 1)]
            for x, y in cv2.perspectiveTransform(corners, matrix)[0]]


def labels_of(scene: Scene, name: str, design: str) -> dict[str, Any]:
    cards = [{"card": p.art.card if p.face_up else None, "face_up": p.face_up,
              "quad": card_quad(p.art, p.matrix),
              "readable": p.face_up and p.art.card in scene.readable}
             for p in scene.placed]
    return {"file": name, "design": design, "cards": cards}


def write_tables(decks: dict[str, list[CardArt]], deck: str, pictures: int, out: Path,
                 first_seed: int = FIRST_SEED) -> list[dict[str, Any]]:
    out.mkdir(parents=True, exist_ok=True)
    images = []
    for n in range(pictures):
        rng = random.Random(first_seed + n)
        scene = make_scene({deck: decks[deck]}, rng, size=(1280, 720), fans=(2, 7),
                           apart=220.0, rank_px=(8.0, 23.0))
        name = f"{n + 1:04d}.jpg"
        cv2.imwrite(str(out / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        images.append(labels_of(scene, name, deck))
    (out / "labels.json").write_text(json.dumps({"images": images}) + "\n", encoding="utf-8")
    return images


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--png", type=Path, default=Path(".cache/cards/png"))
    parser.add_argument("--deck", action="append", required=True)
    parser.add_argument("--pictures", type=int, default=10)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=FIRST_SEED)
    args = parser.parse_args(argv)
    decks = load_decks(args.png)
    for deck in args.deck:
        if deck not in decks:
            print(f"no deck {deck!r} in {args.png}", file=sys.stderr)
            return 2
        out = args.out / deck if len(args.deck) > 1 else args.out
        write_tables(decks, deck, args.pictures, out, args.seed)
        print(f"{args.pictures} pictures of {deck} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
