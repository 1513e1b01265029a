"""Run the benchmarks: every ``tests/bench/bench_*.py`` module, or those named.

    .venv/bin/python -m tests.bench              # all of them, one after the other
    .venv/bin/python -m tests.bench eval camera  # bench_eval and bench_camera only

Each benchmark runs in its own process (``python -m tests.bench.bench_<name>``), so that one's
tables and caches do not weigh on the next one's figures.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    available = sorted(p.stem for p in HERE.glob("bench_*.py"))
    wanted = [a if a.startswith("bench_") else f"bench_{a}" for a in argv] or available
    unknown = [w for w in wanted if w not in available]
    if unknown:
        names = ", ".join(a.removeprefix("bench_") for a in available)
        print(f"no benchmark named {unknown[0].removeprefix('bench_')!r}: there are {names}",
              file=sys.stderr)
        return 2
    status = 0
    for name in wanted:
        print(f"== {name}", flush=True)
        done = subprocess.run([sys.executable, "-m", f"tests.bench.{name}"], cwd=HERE.parents[1])
        status = status or done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
