"""Train the card-index classifier on synthetic scenes and export it to ONNX.

    python -m hardware.training.fetch                  # deck art into .cache/cards (once)
    nice -n 10 python -m hardware.training.train --scenes 2000 --epochs 12

Needs the ``train`` extra (PyTorch for the CPU, onnx). The exported model is read at run time by
ONNX Runtime alone (``hardware.camera.nets``). Runs on at most two threads (the table computer is
small and the build machine shared).
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hardware.camera.nets import CLASSES, MODEL_PATH, PATCH, UPRIGHT_CLASSES, UPRIGHT_PATH
from hardware.training.synth import UPRIGHT_JITTER_DEG

_DECKS: Any = None
_FONTS: Any = None
_FONT_SHARE = 0.0
_FINE = False
_RANK_PX: tuple[float, float] | None = None
_UPRIGHT = False
_JITTER = 0.0


def _init(png_root: str, font_share: float, fine: bool = False,
          rank_px: tuple[float, float] | None = None, upright: bool = False,
          jitter: float = 0.0) -> None:
    global _DECKS, _FONTS, _FONT_SHARE, _FINE, _RANK_PX, _UPRIGHT, _JITTER
    _FINE, _RANK_PX, _UPRIGHT, _JITTER = fine, rank_px, upright, jitter
    from hardware.training.cardart import load_decks

    _DECKS = load_decks(Path(png_root))
    if font_share > 0:
        from hardware.training.fontdeck import FontDecks

        _FONTS, _FONT_SHARE = FontDecks(), font_share


def _one(seed: int) -> tuple[npt.NDArray[np.float16], npt.NDArray[np.int64]]:
    from hardware.training.synth import TRAIN_RANK_PX, scene_samples, upright_samples

    if _UPRIGHT:
        return upright_samples(_DECKS, seed, _FONTS, _FONT_SHARE, _RANK_PX or TRAIN_RANK_PX,
                               _JITTER)
    return scene_samples(_DECKS, seed, _FONTS, _FONT_SHARE, _FINE, _RANK_PX or TRAIN_RANK_PX)


def generate(png_root: Path, cache: Path, first_seed: int, scenes: int, workers: int,
             chunk: int = 100, font_share: float = 0.0, fine: bool = False,
             rank_px: tuple[float, float] | None = None, upright: bool = False,
             jitter: float = 0.0) -> tuple[npt.NDArray[np.float16], npt.NDArray[np.int64]]:
    """Patches of ``scenes`` scenes from ``first_seed`` on, cached in chunks under ``cache``
    (an interrupted run, or a bigger one, reuses what is there); ``font_share`` of the scenes
    are dealt from decks drawn in the installed fonts; with ``fine``, the candidates of the
    finer second look around the index glyphs instead; ``rank_px`` the scenes' rank heights
    (``synth.TRAIN_RANK_PX`` by default; a cache holds one choice only); with ``upright``, the
    upright patches of the index glyphs for the upright classifier instead, turned from the
    card's own direction by up to ``jitter`` degrees."""
    if font_share > 0:
        cache = cache.with_name(f"{cache.name}-fonts{font_share:g}")
    if fine:
        cache = cache.with_name(f"{cache.name}-fine")
    if upright:
        cache = cache.with_name(f"{cache.name}-upright{jitter:g}")
    cache.mkdir(parents=True, exist_ok=True)
    xs, ys = [], []
    pool = None
    try:
        for start in range(first_seed, first_seed + scenes, chunk):
            path = cache / f"scenes-{start}-{chunk}.npz"
            if not path.exists():
                if pool is None:
                    pool = Pool(workers, initializer=_init,
                                initargs=(str(png_root), font_share, fine, rank_px, upright,
                                          jitter))
                parts = pool.map(_one, range(start, start + chunk), chunksize=4)
                np.savez(path, x=np.concatenate([p[0] for p in parts]),
                         y=np.concatenate([p[1] for p in parts]))
                print(f"scenes {start}..{start + chunk - 1} done", flush=True)
            data = np.load(path)
            xs.append(data["x"])
            ys.append(data["y"])
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return np.concatenate(xs), np.concatenate(ys)


#: channels of the three convolution blocks
WIDTHS = (16, 32, 64)


def build_model(widths: tuple[int, int, int] = WIDTHS, classes: int = len(CLASSES)) -> Any:
    """A small CNN (about 5 MFLOP a patch with the default widths): a frame's hundred-odd
    candidates must take a few milliseconds on a small CPU."""
    import torch.nn as nn

    def block(cin: int, cout: int) -> list[Any]:
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                nn.MaxPool2d(2)]

    w1, w2, w3 = widths
    return nn.Sequential(
        *block(2, w1), *block(w1, w2), *block(w2, w3),
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(w3 * (PATCH // 8) ** 2, 96), nn.ReLU(),
        nn.Linear(96, classes),
    )


def degrade(xb: Any) -> Any:
    """The same patches as a poorer camera would give them: drawn at 9 to 22 px and scaled back
    (an index a few pixels tall, or blurred), moved by up to two pixels (a candidate box cut
    around a glyph merged with its neighbour), with sensor noise; the grey channel is stretched
    to its range again, as ``glyph_patches`` does."""
    import torch
    import torch.nn.functional as F

    n = xb.shape[0]
    size = int(torch.randint(9, 23, (1,)))
    small = F.interpolate(xb, size=(size, size), mode="area")
    xb = F.interpolate(small, size=(PATCH, PATCH), mode="bilinear", align_corners=False)
    dx, dy = (int(v) for v in torch.randint(-2, 3, (2,)))
    xb = torch.roll(xb, shifts=(dy, dx), dims=(2, 3))
    grey = xb[:, 0] + torch.randn_like(xb[:, 0]) * (0.06 * torch.rand(n, 1, 1))
    lo = grey.amin(dim=(1, 2), keepdim=True)
    hi = grey.amax(dim=(1, 2), keepdim=True)
    xb[:, 0] = (grey - lo) / torch.clamp(hi - lo, min=16 / 255)
    return xb


def augment(xb: Any, degraded: float = 0.0, turns: bool = True) -> Any:
    """Random quarter turns (the scenes give all other angles; not for upright patches),
    contrast and brightness, and for a ``degraded`` share of the batch a poorer picture
    (:func:`degrade`)."""
    import torch

    if turns:
        k = int(torch.randint(0, 4, (1,)))
        xb = torch.rot90(xb, k, dims=(2, 3))
    if degraded > 0:
        pick = torch.rand(xb.shape[0]) < degraded
        if bool(pick.any()):
            xb[pick] = degrade(xb[pick])
    xb[:, 0] = xb[:, 0] * (0.8 + 0.4 * torch.rand(xb.shape[0], 1, 1)) + 0.1 * (
        torch.rand(xb.shape[0], 1, 1) - 0.5)
    return xb


def teacher_probabilities(models: list[Path], x: npt.NDArray[np.float16]
                          ) -> npt.NDArray[np.float32]:
    """The class probabilities of trained models, read as the recogniser reads them (ONNX
    Runtime, ``hardware.camera.nets``), taken together as their normalised geometric mean: a class
    is likely only if every model finds it so, which is where several models that each err in
    their own way agree."""
    from hardware.camera.nets import Net

    logs = np.zeros((len(x), len(CLASSES)), np.float64)
    for path in models:
        net = Net(path)
        for start in range(0, len(x), 1024):
            logits = net.run(x[start:start + 1024].astype(np.float32)).astype(np.float64)
            logits -= logits.max(axis=1, keepdims=True)
            logs[start:start + 1024] += logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    mean = np.exp((logs - logs.max(axis=1, keepdims=True)) / len(models))
    probs: npt.NDArray[np.float32] = (mean / mean.sum(axis=1, keepdims=True)).astype(np.float32)
    return probs


def train(x: npt.NDArray[np.float16], y: npt.NDArray[np.int64], xv: npt.NDArray[np.float16],
          yv: npt.NDArray[np.int64], epochs: int, out: Path, label_smoothing: float = 0.0,
          weight_power: float = 0.0, degraded: float = 0.0,
          soft: npt.NDArray[np.float32] | None = None, distill: float = 0.0,
          widths: tuple[int, int, int] = WIDTHS, classes: tuple[str, ...] = CLASSES,
          seed: int = 0) -> None:
    """Plain cross-entropy by default: label smoothing and class weights put a floor under the
    rare classes' probabilities, which caps how sure the classifier can be of the right one.
    With ``soft`` (teachers' probabilities for each patch), a ``distill`` share of the loss is
    the cross-entropy against those instead of the labels."""
    import torch
    import torch.nn as nn

    torch.set_num_threads(2)
    torch.manual_seed(seed)
    model = build_model(widths, len(classes))
    upright = classes == UPRIGHT_CLASSES
    counts = np.bincount(y, minlength=len(classes)).astype(np.float64)
    weights = torch.tensor((counts.sum() / np.maximum(counts, 1) / len(classes)) ** weight_power,
                           dtype=torch.float32)
    loss_fn = nn.CrossEntropyLoss(weight=weights, label_smoothing=label_smoothing)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * (len(x) // 256 + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    xt, yt = torch.from_numpy(x.astype(np.float32)), torch.from_numpy(y)
    xvt, yvt = torch.from_numpy(xv.astype(np.float32)), torch.from_numpy(yv)
    st = torch.from_numpy(soft) if soft is not None else None
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(xt))
        t0, total = time.time(), 0.0
        for i in range(0, len(xt), 256):
            idx = perm[i:i + 256]
            xb = augment(xt[idx].clone(), degraded, turns=not upright)
            logits = model(xb)
            loss = loss_fn(logits, yt[idx])
            if st is not None and distill > 0:
                taught = -(st[idx] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
                loss = (1 - distill) * loss + distill * taught
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        model.eval()
        with torch.no_grad():
            pred = torch.cat([model(xvt[i:i + 1024]).argmax(1) for i in range(0, len(xvt), 1024)])
        acc = float((pred == yvt).float().mean())
        print(f"epoch {epoch + 1}/{epochs} loss {total / len(xt):.4f} val acc {acc:.4f} "
              f"({time.time() - t0:.0f} s)", flush=True)
    model.eval()
    dummy = torch.zeros(1, 2, PATCH, PATCH)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, (dummy,), str(out), input_names=["patch"], output_names=["logits"],
                      dynamic_axes={"patch": {0: "n"}, "logits": {0: "n"}}, opset_version=13,
                      dynamo=False)
    print(f"model written to {out} ({out.stat().st_size / 1024:.0f} KiB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--png", type=Path, default=Path(".cache/cards/png"))
    parser.add_argument("--cache", type=Path, default=Path(".cache/cards/patches"))
    parser.add_argument("--scenes", type=int, default=2000)
    parser.add_argument("--val-scenes", type=int, default=40)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--max-other", type=int, default=10_000,
                        help="at most this many 'other' patches (the commonest class)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--font-share", type=float, default=0.5,
                        help="share of scenes dealt from decks drawn in the installed fonts")
    parser.add_argument("--label-smoothing", type=float, default=0.0)
    parser.add_argument("--weight-power", type=float, default=0.0,
                        help="class weights (1/count)**power; 0 for none")
    parser.add_argument("--degraded", type=float, default=0.0,
                        help="share of each batch shown as a poorer camera would see it")
    parser.add_argument("--fine-scenes", type=int, default=0,
                        help="add the finer second look's candidates of this many scenes")
    parser.add_argument("--rank-px", type=float, nargs=2, metavar=("LOW", "HIGH"),
                        help="rank heights of the scenes in pixels (default synth.TRAIN_RANK_PX); "
                             "give a --cache of its own")
    parser.add_argument("--teachers", type=Path, nargs="*", default=[],
                        help="trained models (ONNX) whose joint reading of each patch is taught")
    parser.add_argument("--distill", type=float, default=0.5,
                        help="share of the loss taught by --teachers (the rest by the labels)")
    parser.add_argument("--widths", type=int, nargs=3, default=list(WIDTHS),
                        metavar=("C1", "C2", "C3"),
                        help="channels of the three convolution blocks")
    parser.add_argument("--upright", action="store_true",
                        help="train the upright classifier (index glyphs turned upright, a 6 and "
                             "a 9 apart) instead of the glyph classifier")
    parser.add_argument("--jitter", type=float, default=UPRIGHT_JITTER_DEG,
                        help="with --upright: the patches are turned from the card's own "
                             "direction by up to this many degrees (the direction from rank to "
                             "suit strays from it)")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="the first training scene (the validation patches are always "
                             "those of scenes 10 000 000 on)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the network's first weights and of the batches' order")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    t0 = time.time()
    rank_px = tuple(args.rank_px) if args.rank_px else None
    classes = UPRIGHT_CLASSES if args.upright else CLASSES
    out = args.out or (UPRIGHT_PATH if args.upright else MODEL_PATH)
    x, y = generate(args.png, args.cache, args.first_seed, args.scenes, args.workers,
                    font_share=args.font_share, rank_px=rank_px, upright=args.upright,
                    jitter=args.jitter)
    if args.fine_scenes:
        xf, yf = generate(args.png, args.cache, args.first_seed, args.fine_scenes, args.workers,
                          font_share=args.font_share, fine=True, rank_px=rank_px)
        print(f"{len(xf)} patches of the finer second look from {args.fine_scenes} scenes")
        x, y = np.concatenate([x, xf]), np.concatenate([y, yf])
    xv, yv = generate(args.png, args.cache, 10_000_000, args.val_scenes, args.workers,
                      chunk=args.val_scenes, font_share=args.font_share, rank_px=rank_px,
                      upright=args.upright, jitter=args.jitter)
    print(f"{len(x)} training patches from {args.scenes} scenes ({time.time() - t0:.0f} s)")
    other = classes.index("other")
    keep = np.flatnonzero(y != other)
    others = np.flatnonzero(y == other)
    if len(others) > args.max_other:
        others = np.random.default_rng(0).choice(others, args.max_other, replace=False)
    sel = np.sort(np.concatenate([keep, others]))
    x, y = x[sel], y[sel]
    print("per class:", dict(zip(classes, np.bincount(y, minlength=len(classes)).tolist(),
                                 strict=True)))
    soft = None
    if args.teachers:
        t1 = time.time()
        soft = teacher_probabilities(args.teachers, x)
        agree = float((soft.argmax(axis=1) == y).mean())
        print(f"teachers read {len(x)} patches in {time.time() - t1:.0f} s; "
              f"their joint reading agrees with the label on {agree:.4f}", flush=True)
    train(x, y, xv, yv, args.epochs, out, args.label_smoothing, args.weight_power,
          args.degraded, soft, args.distill if args.teachers else 0.0,
          (args.widths[0], args.widths[1], args.widths[2]), classes, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
