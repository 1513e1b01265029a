"""Face-down card counting: time per call on 1280x720 frames (the committed scenes).

    .venv/bin/python -m tests.bench.bench_down [--passes 5]

The kiosk counts the face-down cards at most twice a second, beside the recogniser that reads
every frame; this is the cost of one count.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from hardware.camera.down import find_down_cards
from hardware.camera.recognize import load_image

FIXTURES = Path(__file__).resolve().parents[1] / "hardware" / "fixtures" / "camera"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args(argv)
    frames = [load_image(p) for p in sorted(FIXTURES.glob("scene*.jpg"))]
    frames = [f for f in frames if f.shape[:2] == (720, 1280)]
    if not frames:
        print("no 1280x720 scene in the fixtures", file=sys.stderr)
        return 2
    find_down_cards(frames[0])  # warm up
    times = []
    cpu0 = time.process_time()
    for _ in range(args.passes):
        for frame in frames:
            t0 = time.perf_counter()
            find_down_cards(frame)
            times.append(time.perf_counter() - t0)
    cpu = time.process_time() - cpu0
    times.sort()
    print(f"find_down_cards on 1280x720: {len(times)} calls, median "
          f"{1000 * statistics.median(times):.1f} ms, p95 "
          f"{1000 * times[int(0.95 * (len(times) - 1))]:.1f} ms, "
          f"CPU {1000 * cpu / len(times):.1f} ms a call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
