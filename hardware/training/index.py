"""Train the index networks: two CNNs reading a window around a suit glyph whole, for its rank
and suit together, each exported to its ONNX file (``model/index-1.onnx``, ``model/index-2.onnx``).

    python -m hardware.training.fetch                  # deck art into .cache/cards (once)
    nice -n 10 python -m hardware.training.index --ranges 93000000:1300 93100000:1300

Each face-up card of a synthetic scene gives a window around each suit glyph of its corner
indices, cut as the recogniser cuts it (``nets.index_window``), its centre, size and angle
jittered as a suit glyph is found in a frame: read as the card when the index is in full view,
as "no index" when part of it is covered. Windows turned the other three ways, windows around
the card's other glyphs (its pips, its ranks) and windows anywhere in the scene are "no index"
too. Needs the ``train`` extra (PyTorch for the CPU, onnx); runs on at most two threads.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hardware.camera.nets import INDEX_PATHS, INDEX_PX, INDEX_RANKS, INDEX_SUITS, index_window

_DECKS: Any = None
_FONTS: Any = None
#: share of the scenes dealt from decks drawn in the installed fonts
FONT_SHARE = 0.5
#: share of the "no index" windows kept for training (the rest of them would outnumber the
#: cards' windows two to one)
NO_INDEX_KEPT = 0.45
NO_RANK, NO_SUIT = len(INDEX_RANKS), len(INDEX_SUITS)

Samples = tuple[npt.NDArray[np.float16], npt.NDArray[np.int64], npt.NDArray[np.int64]]


def _init(png_root: str) -> None:
    global _DECKS, _FONTS
    from hardware.training.cardart import load_decks
    from hardware.training.fontdeck import FontDecks

    _DECKS, _FONTS = load_decks(Path(png_root)), FontDecks()


def scene_windows(decks: Any, seed: int, fonts: Any) -> Samples:
    """The windows of one synthetic scene (``seed``), with their rank and suit labels
    (``NO_RANK`` and ``NO_SUIT``: no index to read)."""
    import cv2

    from hardware.training.synth import TRAIN_RANK_PX, make_scene

    rng = random.Random(seed)
    made = make_scene(decks, rng, size=(1280, 720), fonts=fonts, font_share=FONT_SHARE,
                      fans=(2, 8), apart=220.0, rank_px=TRAIN_RANK_PX)
    image = made.image
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    xs: list[npt.NDArray[np.float32]] = []
    ranks: list[int] = []
    suits: list[int] = []

    def add(cx: float, cy: float, size: float, dx: float, dy: float, card: str | None,
            jitter: bool = True) -> None:
        if jitter:
            cx += rng.gauss(0, 0.1) * size
            cy += rng.gauss(0, 0.1) * size
            size *= rng.uniform(0.88, 1.15)
            t = math.radians(rng.gauss(0, 4))
            dx, dy = dx * math.cos(t) - dy * math.sin(t), dx * math.sin(t) + dy * math.cos(t)
        xs.append(index_window(image, gray, cx, cy, size, (dx, dy)))
        ranks.append(INDEX_RANKS.index(card[0]) if card else NO_RANK)
        suits.append(INDEX_SUITS.index(card[1]) if card else NO_SUIT)

    seen, cards = face_up_boxes(made)
    for p, boxes in cards:
        n = p.art.n_index
        for k, pts in enumerate(boxes):
            if not seen(pts):
                continue
            d = pts[3] - pts[0]
            d = d / (float(np.hypot(*d)) or 1.0)
            cx, cy = pts.mean(axis=0)
            size = float(np.ptp(pts, axis=0).max())
            if k < 2 * n and p.art.glyphs[k][0] in INDEX_SUITS:
                index = range(0, n) if k < n else range(n, 2 * n)
                whole = all(seen(boxes[i]) for i in index)
                add(cx, cy, size, d[0], d[1], p.art.card if whole else None)
                if whole:  # a card's window twice as often as a covered one
                    add(cx, cy, size, d[0], d[1], p.art.card)
                for q in (1, 2, 3):  # the other three ways: nothing to read
                    if rng.random() < 0.5:
                        a = math.atan2(d[1], d[0]) + q * math.pi / 2
                        add(cx, cy, size, math.cos(a), math.sin(a), None)
            elif rng.random() < 0.5:  # a pip or a rank as the anchor: nothing to read
                a = math.atan2(d[1], d[0]) + rng.choice((0, 1, 2, 3)) * math.pi / 2
                add(cx, cy, size, math.cos(a), math.sin(a), None)
    for _ in range(6):  # anywhere
        a = rng.uniform(0, 2 * math.pi)
        add(rng.uniform(20, 1260), rng.uniform(20, 700), rng.uniform(6, 22), math.cos(a),
            math.sin(a), None, jitter=False)
    x = np.array(xs, np.float16).reshape(-1, 2, INDEX_PX, INDEX_PX)
    return x, np.array(ranks, np.int64), np.array(suits, np.int64)


def face_up_boxes(made: Any) -> tuple[Callable[[npt.NDArray[np.float64]], bool],
                                       list[tuple[Any, list[npt.NDArray[np.float64]]]]]:
    """Of a synthetic scene (``synth.make_scene``): whether a glyph's box (its corners in the
    scene) is in view, and each face-up card placed with the boxes of its glyphs in the scene
    (its corner indices first, as ``CardArt.glyphs``)."""
    import cv2

    visible = [pts for _, pts in made.glyphs]

    def seen(pts: npt.NDArray[np.float64]) -> bool:
        return any(v.shape == pts.shape and float(np.abs(v - pts).max()) < 1e-6 for v in visible)

    cards = [(p, [cv2.perspectiveTransform(b[None].astype(np.float64), p.matrix)[0]
                  for _, b in p.art.glyphs]) for p in made.placed if p.face_up]
    return seen, cards


def _one(seed: int) -> Samples:
    return scene_windows(_DECKS, seed, _FONTS)


def generate(png_root: Path, cache: Path, first: int, scenes: int, workers: int,
             chunk: int = 100, one: Callable[[int], Samples] = _one,
             init: Callable[[str], None] = _init, name: str = "windows") -> Samples:
    """The samples (``one`` of each seed, in processes set up by ``init``) of ``scenes``
    scenes from seed ``first`` on, cached in chunks under ``cache`` named ``name`` (an
    interrupted run reuses what is there)."""
    cache.mkdir(parents=True, exist_ok=True)
    parts: list[Samples] = []
    pool = None
    try:
        for start in range(first, first + scenes, chunk):
            count = min(chunk, first + scenes - start)
            path = cache / f"{name}-{start}-{count}.npz"
            if not path.exists():
                if pool is None:
                    pool = Pool(workers, initializer=init, initargs=(str(png_root),))
                done = pool.map(one, range(start, start + count), chunksize=4)
                np.savez(path, x=np.concatenate([d[0] for d in done]),
                         r=np.concatenate([d[1] for d in done]),
                         s=np.concatenate([d[2] for d in done]))
                print(f"scenes {start}..{start + count - 1} done", flush=True)
            data = np.load(path)
            parts.append((data["x"], data["r"], data["s"]))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))


#: channels of the three convolution blocks (two convolutions each)
WIDTHS = (16, 32, 64)


def build_model(shape: tuple[int, int] = (INDEX_PX, INDEX_PX), hidden: int = 256) -> Any:
    """A CNN of three blocks of two convolutions over a 2-channel input of ``shape`` (height,
    width), then ``hidden`` units, with a rank head (13 ranks and "no index") and a suit head
    (4 suits and "no index")."""
    import torch
    import torch.nn as nn

    def block(cin: int, cout: int) -> list[Any]:
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                nn.MaxPool2d(2)]

    w1, w2, w3 = WIDTHS

    class IndexNet(nn.Module):  # type: ignore[misc, unused-ignore]  # Any without torch
        def __init__(self) -> None:
            super().__init__()
            self.f = nn.Sequential(*block(2, w1), *block(w1, w2), *block(w2, w3), nn.Flatten(),
                                   nn.Dropout(0.3),
                                   nn.Linear(w3 * (shape[0] // 8) * (shape[1] // 8), hidden),
                                   nn.ReLU())
            self.r = nn.Linear(hidden, NO_RANK + 1)
            self.s = nn.Linear(hidden, NO_SUIT + 1)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.f(x)
            return self.r(h), self.s(h)

    return IndexNet()


def train_one(data: Samples, epochs: int, out: Path, seed: int,
              shape: tuple[int, int] = (INDEX_PX, INDEX_PX), hidden: int = 256) -> None:
    """One network (``build_model`` of ``shape`` and ``hidden``), trained on ``data`` but 3000
    samples kept back to measure it, its weights written to ``out`` after each epoch."""
    import torch
    import torch.nn as nn

    torch.set_num_threads(2)
    loss_fn = nn.CrossEntropyLoss()
    torch.manual_seed(seed)
    x, r, s = (torch.from_numpy(a) for a in data)
    n = len(x)
    order = torch.randperm(n, generator=torch.Generator().manual_seed(0))
    held, rest = order[:3000], order[3000:]
    model = build_model(shape, hidden)
    opt = torch.optim.Adam(model.parameters(), 2e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3,
                                                total_steps=epochs * (len(rest) // 128 + 1))
    for epoch in range(epochs):
        t0 = time.time()
        model.train()
        perm = rest[torch.randperm(len(rest))]
        for i in range(0, len(perm), 128):
            b = perm[i:i + 128]
            out_r, out_s = model(x[b].float())
            loss = loss_fn(out_r, r[b]) + loss_fn(out_s, s[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            got_r, got_s = model(x[held].float())
        print(f"net {seed} epoch {epoch + 1}/{epochs}: held-out rank "
              f"{float((got_r.argmax(1) == r[held]).float().mean()):.4f} suit "
              f"{float((got_s.argmax(1) == s[held]).float().mean()):.4f} "
              f"({time.time() - t0:.0f} s)", flush=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        torch.save(model.state_dict(), out)


def export(weights: list[Path], outs: list[Path], shape: tuple[int, int] = (INDEX_PX, INDEX_PX),
           hidden: int = 256, input_name: str = "window") -> None:
    """Each trained network (``build_model`` of ``shape`` and ``hidden``) to its ONNX file: its
    rank scores, then its suit scores."""
    import torch
    import torch.nn as nn

    class Joined(nn.Module):  # type: ignore[misc, unused-ignore]
        def __init__(self, net: nn.Module) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.cat(self.net(x), dim=1)

    for path, out in zip(weights, outs, strict=True):
        m = build_model(shape, hidden)
        m.load_state_dict(torch.load(path))
        dummy = torch.zeros(1, 2, *shape)
        torch.onnx.export(Joined(m).eval(), (dummy,), str(out), input_names=[input_name],
                          output_names=["scores"],
                          dynamic_axes={input_name: {0: "n"}, "scores": {0: "n"}},
                          opset_version=13, dynamo=False)
        print(f"model written to {out} ({out.stat().st_size / 1024:.0f} KiB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--png", type=Path, default=Path(".cache/cards/png"))
    parser.add_argument("--cache", type=Path, default=Path(".cache/cards/windows"))
    parser.add_argument("--ranges", nargs="+", default=["93000000:1300", "93100000:1300"],
                        metavar="FIRST:SCENES", help="the training scenes: seed ranges")
    parser.add_argument("--epochs", type=int, nargs="+", default=[7, 8],
                        help="epochs of each network (one number a network)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--export-only", action="store_true",
                        help="export the networks already trained under --cache")
    parser.add_argument("--out", type=Path, nargs="+", default=list(INDEX_PATHS),
                        help="the networks' ONNX files, one a network")
    args = parser.parse_args(argv)
    weights = [args.cache / f"net-{k}.pt" for k in range(len(args.epochs))]
    if not args.export_only:
        parts = []
        for spec in args.ranges:
            first, scenes = (int(v) for v in spec.split(":"))
            parts.append(generate(args.png, args.cache, first, scenes, args.workers))
        x, r, s = (np.concatenate([p[i] for p in parts]) for i in range(3))
        keep = (r < NO_RANK) | (np.random.default_rng(0).random(len(r)) < NO_INDEX_KEPT)
        print(f"{int(keep.sum())} windows ({int((r[keep] == NO_RANK).sum())} with no index)",
              flush=True)
        for k, epochs in enumerate(args.epochs):
            train_one((x[keep], r[keep], s[keep]), epochs, weights[k], seed=k)
    if len(args.out) != len(weights):
        parser.error(f"give one --out file a network ({len(weights)})")
    export(weights, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
