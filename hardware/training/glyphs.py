"""Train the glyph network that the learned deck reads with (``model/glyph-embed.onnx``).

The network turns an upright glyph window (``hardware.camera.examples.glyph_window``, cut where the
index corners of synthetic table scenes lie, as the finder would cut them: centre and size
jittered, the card's down turned a little) into a point on a sphere. It is trained to tell every
glyph of every training deck apart (each rank and each suit of each deck a class of its own, and
one class for whatever else a corner may hold), with an additive cosine margin, so that the same
glyph of one deck lands close together and apart from the deck's other glyphs: a learned deck's
examples then name the points (``hardware.camera.learned``).

    python -m hardware.training.fetch          # the permitted deck art into .cache/cards (once)
    nice -n 10 python -m hardware.training.glyphs --scenes 8000 --epochs 10

Decks named in ``HELD_OUT`` are never trained on: the thresholds of the learned reading are chosen
on them (pictures drawn by ``hardware.training.tables``, read by ``tests/bench/bench_deck.py``).
Needs the ``train`` extra (PyTorch, onnx).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.camera.deck import GLYPH_PX, RANKS, SUITS, Glyph
from hardware.camera.examples import glyph_window
from hardware.camera.learned import EMBED_PATH, EMBED_PX, window_input

#: decks kept out of training, to choose the learned reading's thresholds on designs the network
#: has never seen
HELD_OUT = ("slavic_costumes", "guyenne-classic", "konqi", "anglo_modern_4_color")
#: classes of one deck: its ranks (a 6 and a 9 apart: the windows are upright), then its suits
DECK_CLASSES = len(RANKS) + len(SUITS)
#: the embedding's size
EMBED_DIM = 64
#: of a scene's other candidates (no index glyph), at most this many become windows of the
#: one class "anything else"
OTHERS_PER_SCENE = 6
#: decks drawn in the installed fonts (``hardware.training.fontdeck``; half of them with the
#: courts in another country's letters: R, D, V, B, K, Д...), each a deck of its own
FONT_DECKS = 160
FONT_SHARE = 0.4

_DECKS: Any = None
_NAMES: list[str] = []
_FONTS: Any = None
_FONT_ARTS: dict[int, Any] = {}


def _init(png_root: str, names: list[str]) -> None:
    global _DECKS, _NAMES, _FONTS
    from hardware.training.cardart import load_decks
    from hardware.training.fontdeck import FontDecks

    _DECKS = load_decks(Path(png_root))
    _NAMES = names
    _FONTS = FontDecks(letters_share=0.5)


def font_deck(k: int) -> Any:
    """The ``k``-th font deck, the same every time it is asked for."""
    if k not in _FONT_ARTS:
        _FONT_ARTS[k] = _FONTS.deck(random.Random(7_000_000 + k),
                                    [r + s for r in RANKS for s in SUITS])
    return _FONT_ARTS[k]


def _unit(v: npt.NDArray[np.float64]) -> tuple[float, float]:
    n = float(np.hypot(*v)) or 1.0
    return float(v[0]) / n, float(v[1]) / n


def _turned(down: tuple[float, float], degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return down[0] * c - down[1] * s, down[0] * s + down[1] * c


#: the class of whatever else a corner may hold: after every deck's, real and drawn
def other_class(names: list[str]) -> int:
    return (len(names) + FONT_DECKS) * DECK_CLASSES


def scene_windows(decks: dict[str, Any], names: list[str], seed: int
                  ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """The windows of one synthetic scene: its visible index glyphs, labelled by deck and class,
    and a few other candidates, labelled as "anything else" (the last class)."""
    from hardware.camera.candidates import candidate_glyphs
    from hardware.training.synth import label_candidates, make_scene

    other = other_class(names)
    rng = random.Random(seed)
    if _FONTS is not None and rng.random() < FONT_SHARE:
        k = rng.randrange(FONT_DECKS)
        deck_no, arts = len(names) + k, font_deck(k) + [a for a in decks[names[0]]
                                                         if a.card == "back"]
    else:
        deck_no = rng.randrange(len(names))
        arts = decks[names[deck_no]]
    scene = make_scene({"deck": arts}, rng, size=(960, 640))
    visible = {np.round(pts, 1).tobytes() for _, pts in scene.glyphs}
    image = scene.image
    windows: list[npt.NDArray[np.uint8]] = []
    darks: list[bool] = []
    labels: list[int] = []
    for p in scene.placed:
        art = p.art
        if not p.face_up or art.card == "back":
            continue
        ink = art.ink
        dark = bool(art.image[~ink].mean() > art.image[ink].mean()) if ink.any() else True
        ih, iw = art.image.shape[:2]
        ends = cv2.perspectiveTransform(np.array([[[iw / 2, 0], [iw / 2, ih]]], np.float64),
                                        p.matrix)[0]
        down = _unit(ends[1] - ends[0])
        n = art.n_index
        for gi, (label, box) in enumerate(art.glyphs[:2 * n]):
            if label == "1":
                continue
            pts = cv2.perspectiveTransform(box[None].astype(np.float64), p.matrix)[0]
            if np.round(pts, 1).tobytes() not in visible:
                continue
            cls = len(RANKS) + SUITS.index(label) if label in SUITS else RANKS.index(art.card[0])
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            size = float(max(hi - lo)) * rng.uniform(0.85, 1.2)
            cx, cy = (lo + hi) / 2.0 + np.array([rng.gauss(0, 0.06), rng.gauss(0, 0.06)]) * size
            way = down if gi < n else (-down[0], -down[1])
            windows.append(glyph_window(image, Glyph(float(cx), float(cy), size),
                                        _turned(way, rng.gauss(0, 5.0)), dark))
            darks.append(dark)
            labels.append(deck_no * DECK_CLASSES + cls)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    cands = candidate_glyphs(gray)
    others = [g for g, lab in zip(cands, label_candidates(cands, scene.glyphs), strict=True)
              if lab is not None and lab == 17]
    for g in rng.sample(others, min(OTHERS_PER_SCENE, len(others))):
        angle = rng.uniform(0, 2 * math.pi)
        windows.append(glyph_window(image, Glyph(g.cx, g.cy, g.size),
                                    (math.cos(angle), math.sin(angle)), g.dark))
        darks.append(g.dark)
        labels.append(other)
    if not windows:
        return (np.zeros((0, GLYPH_PX, GLYPH_PX, 3), np.uint8), np.zeros(0, bool),
                np.zeros(0, np.int64))
    return np.stack(windows), np.array(darks), np.array(labels, np.int64)


def _one(seed: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    return scene_windows(_DECKS, _NAMES, seed)


def generate(png_root: Path, names: list[str], first: int, scenes: int, workers: int
             ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """The network's inputs and labels of ``scenes`` scenes from seed ``first`` on."""
    with Pool(workers, initializer=_init, initargs=(str(png_root), names)) as pool:
        parts = pool.map(_one, range(first, first + scenes), chunksize=20)
    wins = np.concatenate([p[0] for p in parts])
    darks = np.concatenate([p[1] for p in parts])
    labels = np.concatenate([p[2] for p in parts])
    return window_input(list(wins), list(darks)), labels


def build_model(classes: int) -> Any:
    """A small CNN (about 8 M multiply-adds a window: a frame's corners must take a few
    milliseconds on a small CPU) and a cosine classifier over its unit embedding."""
    import torch
    import torch.nn as nn

    def conv(cin: int, cout: int) -> list[Any]:
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU()]

    class Embed(nn.Module):  # type: ignore[misc, unused-ignore]  # Any without torch
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(*conv(2, 16), nn.MaxPool2d(2),
                                      *conv(16, 32), *conv(32, 32), nn.MaxPool2d(2),
                                      *conv(32, 64), *conv(64, 64), nn.MaxPool2d(2),
                                      nn.Flatten(), nn.Dropout(0.1),
                                      nn.Linear(64 * (EMBED_PX // 8) ** 2, 128), nn.ReLU(),
                                      nn.Linear(128, EMBED_DIM))

        def forward(self, x: Any) -> Any:
            return nn.functional.normalize(self.body(x), dim=1)

    class CosineHead(nn.Module):  # type: ignore[misc, unused-ignore]
        def __init__(self) -> None:
            super().__init__()
            self.weight = nn.Parameter(torch.randn(classes, EMBED_DIM) * 0.1)

        def forward(self, e: Any) -> Any:
            return e @ nn.functional.normalize(self.weight, dim=1).t()

    return Embed(), CosineHead()


def augment(x: Any) -> Any:
    """Brightness, contrast and a little noise on the grey channel."""
    import torch

    n = x.shape[0]
    g = x[:, :1]
    g = g * torch.empty(n, 1, 1, 1).uniform_(0.7, 1.2) + torch.empty(n, 1, 1, 1).uniform_(
        -0.15, 0.15)
    g = g + torch.randn_like(g) * torch.empty(n, 1, 1, 1).uniform_(0, 0.05)
    return torch.cat([g, x[:, 1:]], dim=1)


def train(x: npt.NDArray[np.float32], y: npt.NDArray[np.int64], classes: int, epochs: int,
          out: Path, scale: float = 24.0, margin: float = 0.25, seed: int = 0) -> None:
    import torch
    import torch.nn as nn

    torch.set_num_threads(2)
    torch.manual_seed(seed)
    embed, head = build_model(classes)
    params = list(embed.parameters()) + list(head.parameters())
    opt = torch.optim.AdamW(params, lr=2e-3, weight_decay=1e-4)
    batch = 256
    steps = epochs * (len(x) // batch + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    held = len(xt) // 20
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        embed.train()
        perm = torch.randperm(len(xt) - held) + held
        t0, total = time.time(), 0.0
        for i in range(0, len(perm), batch):
            idx = perm[i:i + batch]
            cos = head(embed(augment(xt[idx])))
            target = yt[idx]
            cos = cos - margin * nn.functional.one_hot(target, classes).float()
            loss = loss_fn(scale * cos, target)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call, unused-ignore]
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        embed.eval()
        with torch.no_grad():
            pred = torch.cat([head(embed(xt[i:min(i + 1024, held)])).argmax(1)
                              for i in range(0, held, 1024)])
        acc = float((pred == yt[:held]).float().mean())
        print(f"epoch {epoch + 1}/{epochs} loss {total / (len(xt) - held):.4f} "
              f"held-back acc {acc:.4f} ({time.time() - t0:.0f} s)", flush=True)
    episodes(embed, x, y, classes, epochs=max(1, epochs // 2), seed=seed)
    embed.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(embed.state_dict(), out.with_suffix(".pt"))
    torch.onnx.export(embed, (torch.zeros(1, 2, EMBED_PX, EMBED_PX),), str(out),
                      input_names=["window"], output_names=["point"],
                      dynamic_axes={"window": {0: "n"}, "point": {0: "n"}}, opset_version=13,
                      dynamo=False)
    print(f"model written to {out} ({out.stat().st_size / 1024:.0f} KiB)")


def episodes(embed: Any, x: npt.NDArray[np.float32], y: npt.NDArray[np.int64], classes: int,
             epochs: int, seed: int = 0, support: int = 2, scale: float = 16.0) -> None:
    """Train on the task the table sets: one deck at a time, a few windows of each of its
    glyphs known (``support``), the others named by the nearest mean of those (a prototype)."""
    import torch
    import torch.nn as nn

    rng = np.random.default_rng(seed)
    decks = (classes - 1) // DECK_CLASSES
    by_class = [np.flatnonzero(y == c) for c in range(classes)]
    opt = torch.optim.AdamW(embed.parameters(), lr=5e-4, weight_decay=1e-4)
    xt = torch.from_numpy(x)
    per_epoch = len(x) // 64
    for epoch in range(epochs):
        embed.train()
        t0, total, right, seen = time.time(), 0.0, 0, 0
        for _step in range(per_epoch):
            deck = int(rng.integers(decks))
            chosen = [c for c in range(deck * DECK_CLASSES, (deck + 1) * DECK_CLASSES)
                      if len(by_class[c]) > support]
            if len(chosen) < 3:
                continue
            sup: list[Any] = []
            qry: list[int] = []
            lab: list[int] = []
            for k, c in enumerate(chosen):
                pick = rng.choice(by_class[c], size=min(len(by_class[c]), support + 3),
                                  replace=False)
                sup.append(pick[:support])
                qry.extend(pick[support:])
                lab.extend([k] * (len(pick) - support))
            points = embed(augment(xt[np.concatenate([*sup, np.array(qry)])]))
            protos = nn.functional.normalize(
                points[:len(chosen) * support].reshape(len(chosen), support, -1).mean(1), dim=1)
            logits = scale * points[len(chosen) * support:] @ protos.t()
            target = torch.tensor(lab)
            loss = nn.functional.cross_entropy(logits, target)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call, unused-ignore]
            opt.step()
            total += float(loss.detach())
            right += int((logits.argmax(1) == target).sum())
            seen += len(lab)
        print(f"episodes {epoch + 1}/{epochs} loss {total / per_epoch:.4f} "
              f"query acc {right / max(seen, 1):.4f} ({time.time() - t0:.0f} s)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--png", type=Path, default=Path(".cache/cards/png"))
    parser.add_argument("--cache", type=Path, default=Path(".cache/glyph-windows"))
    parser.add_argument("--scenes", type=int, default=8000)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=EMBED_PATH)
    args = parser.parse_args(argv)
    names = sorted(p.name for p in args.png.iterdir() if p.is_dir() and p.name not in HELD_OUT)
    args.cache.mkdir(parents=True, exist_ok=True)
    data = args.cache / f"windows-{args.scenes}-{len(names)}-fonts{FONT_DECKS}.npz"
    if data.exists():
        with np.load(data) as d:
            x, y = d["x"], d["y"]
    else:
        t0 = time.time()
        x, y = generate(args.png, names, 1, args.scenes, args.workers)
        np.savez(data, x=x.astype(np.float16), y=y)
        print(f"{len(x)} windows of {args.scenes} scenes in {time.time() - t0:.0f} s")
    print(f"decks: {', '.join(names)}; {len(x)} windows", flush=True)
    train(x.astype(np.float32), y, other_class(names) + 1, args.epochs, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
