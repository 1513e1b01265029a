"""The test suite's own speed: ``pytest`` over the whole suite, as ``./run tests`` runs it.

    .venv/bin/python -m tests.bench.bench_tests                   # -n auto, twice
    .venv/bin/python -m tests.bench.bench_tests --workers 0,2,3 --runs 3 --quiet-below 2
    .venv/bin/python -m tests.bench.bench_tests --source /path/to/other/checkout --workers 0

Each run starts with an empty pytest cache of its own (a fresh machine: the parallel run knows no
durations yet and goes by the ``slow`` mark) unless ``--learned``, which first runs the suite once
to fill that cache and then times the runs that use it. The machine's load average is printed
with every run: on a shared machine, time when it is low (``--quiet-below`` waits for that).
Ruff and mypy, which ``./run tests`` runs first, are not timed.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Run:
    workers: str
    wall: float
    cpu: float
    load_before: float
    load_after: float
    summary: str


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wait_for_quiet(below: float, patience: float) -> None:
    """Wait (at most ``patience`` seconds) for the 1-minute load average to fall below ``below``."""
    deadline = time.monotonic() + patience
    while os.getloadavg()[0] >= below and time.monotonic() < deadline:
        time.sleep(15)


def run_suite(source: Path, workers: str, cache: Path, extra: list[str]) -> Run:
    command = [sys.executable, "-m", "pytest", "-q", "-o", f"cache_dir={cache}", *extra]
    if workers != "0":
        command += ["-n", workers]
    before, cpu = os.getloadavg()[0], children_cpu()
    start = time.monotonic()
    done = subprocess.run(command, cwd=source, capture_output=True, text=True, check=False)
    wall = time.monotonic() - start
    lines = [line for line in done.stdout.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    summary = lines[-1].strip("= ") if lines else done.stdout[-300:] + done.stderr[-300:]
    for line in done.stdout.splitlines():
        if line.startswith(("FAILED", "ERROR")):
            print(f"  {line}", file=sys.stderr, flush=True)
    return Run(workers, wall, children_cpu() - cpu, before, os.getloadavg()[0], summary)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="auto",
                        help="comma-separated -n values to time (0: one test after another)")
    parser.add_argument("--runs", type=int, default=2, help="runs of each (default 2)")
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to test")
    parser.add_argument("--learned", action="store_true",
                        help="time runs that know the durations of a first, untimed run")
    parser.add_argument("--quiet-below", type=float, default=0.0,
                        help="before each run, wait up to 20 min for the load average below this")
    parser.add_argument("pytest_args", nargs="*", help="more pytest options, after --")
    args = parser.parse_args(argv)
    print("| -n | wall s | CPU s | load before | load after | result |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    failed = False
    for workers in args.workers.split(","):
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="bench-tests-cache-") as cache:
                if args.learned:
                    run_suite(args.source, workers, Path(cache), args.pytest_args)
                if args.quiet_below:
                    wait_for_quiet(args.quiet_below, 1200)
                run = run_suite(args.source, workers, Path(cache), args.pytest_args)
            failed = failed or "failed" in run.summary or "error" in run.summary
            print(f"| {run.workers} | {run.wall:.0f} | {run.cpu:.0f} | {run.load_before:.1f} | "
                  f"{run.load_after:.1f} | {run.summary} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
