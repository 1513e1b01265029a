"""Running the suite in parallel (pytest-xdist, ``./run tests``): a plugin of tests/conftest.py.

- A test that uses one of :data:`SLOW_FIXTURES` (a real server, Chromium, an installation) is
  marked ``slow`` by itself, as a test marked ``@pytest.mark.slow`` by hand: ``-m "not slow"``
  leaves them out.
- A test that uses a module-, package- or class-scoped fixture is marked ``xdist_group`` with
  where that fixture's one instance lives, and ``--dist loadgroup`` (pyproject.toml) runs the
  whole group on one worker, in its order: the fixture is built once, as in a serial run.
  Session-scoped fixtures are one per worker (Chromium, a recogniser).
- ``-n auto`` starts one worker more than the cores (:func:`pytest_xdist_auto_num_workers`).
- The groups and tests are handed out longest first: the duration each took last time (kept in
  pytest's cache by the controller and passed to the workers), else a guess from the ``slow``
  mark. A long test started last would leave one worker alone at the end.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator
from typing import Any

import pytest

#: fixtures that make a test slow: real servers, Chromium, an installation under a temporary root
SLOW_FIXTURES = frozenset({"live_kiosk", "chromium", "postgres", "redis_server", "deployment"})
#: the scopes of fixtures built once for the whole run, whose tests must share a worker
SHARED_SCOPES = ("package", "module", "class")
#: where the controller keeps each test's last duration (pytest's cache)
CACHE_KEY = "stud-kiosk/durations"
#: the guess for a test never timed: seconds by its ``slow`` mark
GUESS = {True: 5.0, False: 0.2}


def shared_fixture_group(item: pytest.Item) -> str | None:
    """The widest module-, package- or class-scoped fixture instance that ``item`` uses, named by
    where it lives (its package, module or class), or None."""
    found: dict[str, str] = {}
    info = getattr(item, "_fixtureinfo", None)  # the fixtures a test function gets
    for defs in info.name2fixturedefs.values() if info is not None else ():
        fixture = defs[-1]
        if fixture.scope == "package":
            found["package"] = fixture.baseid or "."
        elif fixture.scope == "module":
            found["module"] = item.nodeid.split("::")[0]
        elif fixture.scope == "class":
            found["class"] = item.nodeid.rsplit("::", 1)[0]
    return next((found[scope] for scope in SHARED_SCOPES if scope in found), None)


def plain_id(nodeid: str) -> str:
    """A test's id without the ``@group`` that loadgroup appends."""
    head, at, group = nodeid.rpartition("@")
    return head if at and "]" not in group else nodeid


def expected_seconds(item: pytest.Item, durations: dict[str, float]) -> float:
    known = durations.get(plain_id(item.nodeid))
    return known if known is not None else GUESS[item.get_closest_marker("slow") is not None]


# -- on the workers ----
@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> Generator[None, None, None]:
    for item in items:  # before -m reads the marks
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is None:  # not an xdist worker: run in the order written
        return (yield)
    for item in items:  # before xdist reads the groups
        group = shared_fixture_group(item)
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))
    result = yield
    grouped = [item for item in items if item.get_closest_marker("xdist_group")]
    if config.getoption("dist") == "loadgroup" and any("@" not in i.nodeid for i in grouped):
        raise pytest.UsageError("pytest-xdist did not group the tests (--dist loadgroup): use the "
                                "versions of pytest and pytest-xdist that pyproject.toml allows")
    # After every other plugin (deselection, pytest's ordering by fixtures): the longest units
    # first, each group in its own order. Every worker sorts alike (the same durations), as xdist
    # requires.
    durations: dict[str, float] = workerinput.get(CACHE_KEY, {})
    units: dict[str, list[pytest.Item]] = {}  # what one worker runs in a row: a group or a test
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        units.setdefault(f"@{mark.args[0]}" if mark else item.nodeid, []).append(item)
    ordered = sorted(units.values(),
                     key=lambda unit: -sum(expected_seconds(i, durations) for i in unit))
    items[:] = [item for unit in ordered for item in unit]
    return result


# -- on the controller (and in a serial run) ----
class Durations:
    """Each test's duration (set-up, call and tear-down), kept in pytest's cache."""

    def __init__(self, config: pytest.Config) -> None:
        self.cache = getattr(config, "cache", None)
        self.known: dict[str, float] = dict(self.cache.get(CACHE_KEY, {})) if self.cache else {}
        self.measured: dict[str, float] = {}

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[CACHE_KEY] = self.known

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        name = plain_id(report.nodeid)
        self.measured[name] = self.measured.get(name, 0.0) + report.duration

    def pytest_sessionfinish(self) -> None:
        if self.cache is not None and self.measured:
            self.cache.set(CACHE_KEY, {**self.known, **{k: round(v, 2)
                                                        for k, v in self.measured.items()}})


def pytest_configure(config: pytest.Config) -> None:
    # Byte code is kept even where PYTHONDONTWRITEBYTECODE is set: each worker would rewrite and
    # compile every test module again (collecting took 5.5 CPU-s instead of 2.3), each server and
    # command the tests start would compile the project again (the workers and servers started
    # from here on inherit the environment).
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(Durations(config), "stud-kiosk-durations")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the cores this process may use. The browser and server
    tests wait on other processes part of their time: on 2 cores, 3 workers ran the suite in
    205 s and 4 in about the same, 2 in 230 s."""
    return len(os.sched_getaffinity(0)) + 1
