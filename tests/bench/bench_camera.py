"""Camera benchmark: recognition frames per second on 1280x720 frames (one frame at a time, and
the recognition loop's readers together), the time from a card appearing to a stable proposal,
the CPU the recognition loop takes over a still table, and the score on the validation set.

    .venv/bin/python -m tests.bench.bench_camera [--validation $VALIDATION]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.camera import DETAIL_MIN_CONFIDENCE, DeckFile
from hardware.camera.capture import Capture
from hardware.camera.params import DEFAULT, Follow
from hardware.camera.recognize import FrameResult, Recognizer, load_image
from hardware.camera.stable import CameraLoop, FrameChange, Proposal, Stabilizer
from tests.bench.bench_deck import learn
from tests.hardware.drawn import VALIDATION

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "hardware" / "fixtures" / "camera"


def with_noise(frame: Any, count: int = 4, sigma: float = 4.0) -> list[Any]:
    """``count`` copies of ``frame`` with a camera's sensor noise, each its own."""
    rng = np.random.default_rng(3)
    return [np.clip(frame.astype(np.float32) + rng.normal(0, sigma, frame.shape), 0, 255)
            .astype(np.uint8) for _ in range(count)]


class ScriptedSource:
    """Serves ``empty`` for a while, then ``scene`` (new sensor noise in every frame); notes when
    the scene was first served."""

    description = "scripted"

    def __init__(self, empty: Any, scene: Any, empty_frames: int) -> None:
        self.empty, self.scene, self.left = with_noise(empty), with_noise(scene), empty_frames
        self.scene_at: float | None = None
        self.served = 0

    def read(self) -> Any:
        self.served += 1
        if self.left > 0:
            self.left -= 1
            return self.empty[self.served % len(self.empty)]
        if self.scene_at is None:
            self.scene_at = time.monotonic()
        return self.scene[self.served % len(self.scene)]

    def close(self) -> None:
        pass


def bench_fps(recognizer: Recognizer, frames: list[Any], passes: int,
              detail: bool = False) -> dict[str, float]:
    times = []
    cpu0 = time.process_time()
    for _ in range(passes):
        for frame in frames:
            t0 = time.perf_counter()
            recognizer.read(frame, detail)
            times.append(time.perf_counter() - t0)
    cpu = time.process_time() - cpu0
    times.sort()
    return {
        "frames": len(times),
        "fps": len(times) / sum(times),
        "cpu_ms": 1000 * cpu / len(times),
        "p50_ms": 1000 * times[len(times) // 2],
        "p95_ms": 1000 * times[int(len(times) * 0.95)],
    }


def cpu_seconds(loop: CameraLoop) -> float:
    """CPU time of this process and of the loop's reader processes (Linux: /proc)."""
    total = time.process_time()
    tick = os.sysconf("SC_CLK_TCK")
    for reader in loop.reader_processes:
        pid = reader.pid
        if pid is None:
            continue
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def resident_mb(pid: int) -> float:
    """A process's resident memory (Linux: /proc), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def bench_latency(recognizer: Recognizer, scenes: list[tuple[Any, set[str]]],
                  camera_fps: float, need: int, window: int,
                  processes: bool = False) -> dict[str, float]:
    latencies = []
    for scene, cards in scenes:
        empty = np.full_like(scene, (40, 110, 30))
        source = ScriptedSource(empty, scene, empty_frames=int(camera_fps // 2))
        done = threading.Event()
        result: dict[str, float] = {}

        def on_props(props: list[Proposal], _: FrameResult, source: ScriptedSource = source,
                     cards: set[str] = cards, done: threading.Event = done,
                     result: dict[str, float] = result) -> None:
            if source.scene_at is not None and any(p.card in cards for p in props):
                result.setdefault("t", time.monotonic() - source.scene_at)
                done.set()

        cap = Capture(lambda source=source: source, frame_interval_s=1.0 / camera_fps)  # type: ignore[misc]
        loop = CameraLoop(cap, recognizer, on_props, Stabilizer(need=need, window=window),
                          processes=processes)
        loop.start()
        if processes:  # the readers up, and past their first reading, before the camera
            # starts (as in the kiosk, where they start with the camera); a recogniser keeps
            # nothing of a frame for the next
            for reader in loop.reader_processes:
                reader.read(scene)
        cap.start()
        done.wait(10.0)
        loop.stop()
        cap.stop()
        if "t" in result:
            latencies.append(result["t"])
    return {
        "scenes": len(scenes),
        "proposed": len(latencies),
        "median_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "max_ms": 1000 * max(latencies) if latencies else float("nan"),
    }


class EveryFrameChanged(FrameChange):
    """The loop as it was: every frame read."""

    def changed(self, frame: Any) -> bool:
        return True


def bench_still(recognizer: Recognizer, scene: Any, camera_fps: float, seconds: float,
                change: FrameChange, detail: bool = False,
                processes: bool = False) -> dict[str, float]:
    """CPU the capture and recognition threads (and reader processes) take while the camera
    looks at a still table (read in detail, as the house may ask, once it settled), once the
    rereads of the still table have reached their longest wait (``Follow.reread_most_s``)."""
    source = ScriptedSource(scene, scene, empty_frames=0)
    cap = Capture(lambda: source, frame_interval_s=1.0 / camera_fps)
    loop = CameraLoop(cap, recognizer, lambda _p, _r: None, Stabilizer(3, 5), change=change,
                      detail=lambda: detail, processes=processes)
    cap.start()
    loop.start()
    # past the first readings (and the reader processes' start)
    # and the rereads' waits grown to the longest
    time.sleep((3.0 if detail else 1.0) + (2.0 if processes else 0.0)
               + DEFAULT.follow.rereads_grown_s())
    cpu0, wall0, read0, reused0 = cpu_seconds(loop), time.monotonic(), loop.frames_read, \
        loop.frames_reused
    time.sleep(seconds)
    cpu, wall = cpu_seconds(loop) - cpu0, time.monotonic() - wall0
    read, reused = loop.frames_read - read0, loop.frames_reused - reused0
    loop.stop()
    cap.stop()
    return {"cores": cpu / wall, "read": read / wall, "reused": reused / wall}


class FrameSource:
    """Serves ``frames`` in turn, each a new picture (every frame changed)."""

    description = "frames"

    def __init__(self, frames: list[Any]) -> None:
        self.frames, self.served = frames, 0

    def read(self) -> Any:
        self.served += 1
        return self.frames[self.served % len(self.frames)]

    def close(self) -> None:
        pass


def bench_loop(recognizer: Recognizer, frames: list[Any], readers: int, seconds: float,
               threads: int, processes: bool = False,
               deck: DeckFile | None = None) -> dict[str, float]:
    """Frames the recognition loop reads a second when every frame is new (a camera at 60
    frames/s over the validation pictures), with ``readers`` reader threads (each reading in a
    process of its own with ``processes``), reading with ``deck`` when given; OpenCV given
    ``threads`` threads when one reader reads in this process (more readers set it to one)."""
    cv2.setNumThreads(threads)
    source = FrameSource(frames)
    cap = Capture(lambda: source, frame_interval_s=1.0 / 60)
    loop = CameraLoop(cap, recognizer, lambda _p, _r: None, Stabilizer(3, 5),
                      change=EveryFrameChanged(), follow=Follow(readers=readers),
                      processes=processes, deck=lambda: deck)
    cap.start()
    loop.start()
    time.sleep(3.0 if processes else 1.0)  # the reader processes started, past a first frame
    cpu0, wall0, read0 = cpu_seconds(loop), time.monotonic(), loop.frames_read
    time.sleep(seconds)
    cpu, wall = cpu_seconds(loop) - cpu0, time.monotonic() - wall0
    read = loop.frames_read - read0
    rss = [resident_mb(r.pid) for r in loop.reader_processes if r.pid is not None]
    loop.stop()
    cap.stop()
    return {"fps": read / wall, "cores": cpu / wall, "cpu_ms": 1000 * cpu / max(read, 1),
            "rss_mb": max(rss, default=0.0)}


def bench_loop_with_decks(recognizer: Recognizer, folder: Path, seconds: float,
                          threads: int) -> None:
    """The recognition loop's two reader processes reading with a learned deck: for each design
    of the labelled pictures, its deck learned from its first 5 pictures (by file name), its other
    pictures read."""
    images = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["images"]
    designs: dict[str, list[dict[str, Any]]] = {}
    for image in sorted(images, key=lambda i: i["file"]):
        designs.setdefault(image.get("design", "deck"), []).append(image)
    rates = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, (design, pictures) in enumerate(designs.items()):
            deck = learn(recognizer, folder, pictures[:5], design)
            path = Path(tmp) / f"deck-{n}.npz"
            deck.save(path)
            frames = [load_image(folder / i["file"]) for i in pictures[5:]]
            run = bench_loop(recognizer, frames, 2, seconds, threads, processes=True,
                             deck=DeckFile(str(path), n + 1))
            rates.append(run["fps"])
            print(f"recognition loop, every frame new, 2 reader processes with the deck of "
                  f"{design} ({len(deck)} examples): {run['fps']:.1f} frames read a second "
                  f"({run['cores']:.2f} cores, {run['cpu_ms']:.0f} ms CPU a frame)")
    print(f"with a learned deck, 2 reader processes: {statistics.mean(rates):.1f} frames read a "
          f"second on average")


def validation_score(recognizer: Recognizer, folder: Path, scorer: Path,
                     detail: bool = False) -> str:
    labels = json.loads((folder / "labels.json").read_text())["images"]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as out:
        for item in labels:
            res = recognizer.read(load_image(folder / item["file"]), detail)
            out.write(json.dumps({"file": item["file"],
                                  "cards": [c.to_json() for c in res.cards]}) + "\n")
    proc = subprocess.run([str(scorer), str(folder / "labels.json"), out.name],
                          capture_output=True, text=True)
    return proc.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--validation", type=Path, default=VALIDATION,
                        help="labelled pictures (default: $STUD_KIOSK_VALIDATION)")
    parser.add_argument("--scorer", type=Path,
                        default=Path(os.environ.get("STUD_KIOSK_SCORER", "score-recognition")),
                        help="the recognition scorer (default: $STUD_KIOSK_SCORER)")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--loop-seconds", type=float, default=8.0)
    args = parser.parse_args(argv)
    recognizer = Recognizer()
    print(f"OpenCV {cv2.__version__}, {cv2.getNumThreads()} threads, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    have_validation = (args.validation / "labels.json").is_file()
    folder = args.validation if have_validation else FIXTURES
    frames = [load_image(p) for p in sorted(folder.glob("*.jpg"))]
    frames = [f for f in frames if f.shape[:2] == (720, 1280)]
    fps = bench_fps(recognizer, frames, args.passes)
    print(f"recognition on 1280x720: {fps['fps']:.1f} frames/s over {fps['frames']} frames "
          f"(p50 {fps['p50_ms']:.0f} ms, p95 {fps['p95_ms']:.0f} ms; CPU time "
          f"{fps['cpu_ms']:.0f} ms a frame) from {folder}")
    fine = bench_fps(recognizer, frames, 1, detail=True)
    print(f"read in detail: {fine['fps']:.1f} frames/s (p50 {fine['p50_ms']:.0f} ms; CPU time "
          f"{fine['cpu_ms']:.0f} ms a frame)")
    threads = cv2.getNumThreads()
    for readers, processes in ((1, False), (2, False), (2, True)) * 2:
        run = bench_loop(recognizer, frames, readers, args.loop_seconds, threads, processes)
        how = (f"{readers} reader processes" if processes else f"{readers} reader thread(s)"
               f"{'' if readers > 1 else f' on {threads} OpenCV threads'}")
        memory = f", {run['rss_mb']:.0f} MB resident each" if processes else ""
        print(f"recognition loop, every frame new, {how}: {run['fps']:.1f} frames read a "
              f"second ({run['cores']:.2f} cores, {run['cpu_ms']:.0f} ms CPU a frame{memory})")
    if have_validation:
        bench_loop_with_decks(recognizer, args.validation, args.loop_seconds, threads)
    cv2.setNumThreads(threads)
    labels = json.loads((FIXTURES / "labels.json").read_text())["images"]
    scenes = [(load_image(FIXTURES / i["file"]),
               {c["card"] for c in i["cards"] if c.get("readable")}) for i in labels]
    for processes in (False, True):
        lat = bench_latency(recognizer, scenes, camera_fps=30.0, need=3, window=5,
                            processes=processes)
        print(f"card appearing -> stable proposal (camera 30 fps, 3 of 5 frames"
              f"{', reader processes' if processes else ''}): median "
              f"{lat['median_ms']:.0f} ms, max {lat['max_ms']:.0f} ms "
              f"({lat['proposed']:.0f}/{lat['scenes']:.0f} scenes proposed)")
    for name, change, detail, processes in (
            ("reading only what changed", FrameChange(), False, False),
            ("reading only what changed, in detail", FrameChange(), True, False),
            ("reading every frame", EveryFrameChanged(), False, False),
            ("reader processes, reading only what changed", FrameChange(), False, True),
            ("reader processes, reading only what changed, in detail", FrameChange(), True,
             True)):
        still = bench_still(recognizer, scenes[1][0], camera_fps=30.0, seconds=12.0,
                            change=change, detail=detail, processes=processes)
        print(f"still table, camera 30 fps, {name}: {still['cores']:.2f} cores of CPU, "
              f"{still['read']:.1f} frames read a second, {still['reused']:.1f} reusing the "
              f"last reading")
    if have_validation and args.scorer.is_file():
        # as ``stud-kiosk recognize`` reads them, with its thresholds
        for detail, reading in ((False, recognizer),
                                (True, Recognizer(min_confidence=DETAIL_MIN_CONFIDENCE))):
            print(f"validation{' in detail' if detail else ''}:",
                  validation_score(reading, args.validation, args.scorer, detail)
                  .splitlines()[-1])
    else:
        print("validation set or scorer not found: score skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
