"""Shared fixtures for the rule tests; the builders live in ``helpers.py``."""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from hkk._events import EventLog
from hkk._vocabulary import decision_problems
from hkk.events import KINDS, Decided

sys.path.insert(0, str(Path(__file__).parent))

# Rule properties stay quick: a modest number of examples, no deadline (CI machines vary).
settings.register_profile("hkk", max_examples=50, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hkk")


@pytest.fixture(scope="module")
def base() -> Any:
    """The installed engine (the base set), one a module."""
    from hkk import Engine

    return Engine.installed()


@pytest.fixture(scope="module")
def tests_engine() -> Any:
    """An engine of the native core's test set (skipped where hkk_native is not built)."""
    from hkk import Engine

    testset = pytest.importorskip("hkk_native.testset")
    return Engine(testset.test_set_cards())


class FakeTime:
    """An injectable time source for :class:`hkk.GameClock` (41.7): tests move time."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


# -- every event of every test is of a declared kind, every decision registered -------------------
# An event's class (hkk.events) takes only its own fields; this checks that whatever reaches a log
# is one of the declared classes, and that every decision offers registered labels
# (hkk._vocabulary).  test_vocabulary.py plays the games that prove the registry complete; this
# catches what only the unit tests reach.  Shapes already checked are cached: the golden test logs
# a million events.

_checked: set[tuple] = set()
_vocabulary_problems: list[str] = []


def _checking(append: Any) -> Any:
    def checked_append(self: EventLog, kind: Any, **data: Any) -> Any:
        shape = (kind,) if kind is not Decided else (kind, data.get("decision"),
                                                     data.get("choice"))
        if shape not in _checked:
            _checked.add(shape)
            if KINDS.get(getattr(kind, "kind", None)) is not kind:
                _vocabulary_problems.append(f"{kind!r} is not an event class of hkk.events")
            elif kind is Decided:
                _vocabulary_problems.extend(decision_problems(data["decision"],
                                                              [data["choice"]]))
        return append(self, kind, **data)
    return checked_append


@pytest.fixture(scope="session", autouse=True)
def _vocabulary_checked_log() -> Any:
    with pytest.MonkeyPatch.context() as patch:
        # every way an event reaches a log: append, and the emitters games use at each level
        for name in ("append", "_append_full", "_append_lean"):
            patch.setattr(EventLog, name, _checking(getattr(EventLog, name)))
        yield


@pytest.fixture(autouse=True)
def _events_are_registered(_vocabulary_checked_log: Any) -> Any:
    """Fails the test (at teardown) that logged an event of no declared kind or a decision
    hkk._vocabulary does not register."""
    yield
    if _vocabulary_problems:
        problems = sorted(set(_vocabulary_problems))
        _vocabulary_problems.clear()
        pytest.fail("events not declared in hkk.events or decisions not in hkk._vocabulary "
                    "(declare them there):\n  "
                    + "\n  ".join(problems), pytrace=False)


@pytest.fixture(autouse=True)
def _set_cost_on_a_fake_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hkk verify``'s cost check times games on the wall clock, so on a loaded machine two
    games could make any set look 3x slower: no test depends on that.  Every game takes the
    same fake time; tests of the check itself give it their own clock."""
    import hkk.verify
    from hkk._setcost import measure

    def ticking() -> float:
        ticking.now += 0.5  # type: ignore[attr-defined]
        return ticking.now  # type: ignore[attr-defined, no-any-return]

    ticking.now = 0.0  # type: ignore[attr-defined]
    monkeypatch.setattr(hkk.verify, "measure", functools.partial(measure, clock=ticking))


@pytest.fixture(autouse=True)
def _output_is_not_a_terminal_of_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest-xdist's workers inherit ``COLUMNS=80``, which the commands respect; tests see
    captured output as a pipe does, at full width, unless they set ``COLUMNS`` themselves."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


# -- no test builds in the source tree ----------------------------------------------------------
# A build writes its egg-info and build/ into the tree it builds.  This checkout's egg-info is the
# `hkk` distribution a process with the checkout on its path finds first (`python -m pytest`,
# `python -m hkk.cli serve` started from here): rewritten while a test beside it (pytest -n) reads
# the entry points, the base set vanishes ("known decks: []").  Tests build from a copy
# (test_packaging.source_copy); the run fails if one still wrote here.

_SOURCE = Path(__file__).resolve().parents[1]
_PACKAGING = ("*.egg-info", "build", "sets/*/src/*.egg-info", "sets/*/build",
              "plugins/*/src/*.egg-info", "plugins/*/build")
_PACKAGING_KEY = pytest.StashKey[dict[str, int]]()


def _packaging_state() -> dict[str, int]:
    """Every file of the source tree's build output, with its modification time."""
    found = {}
    for pattern in _PACKAGING:
        for folder in _SOURCE.glob(pattern):
            for path in folder.rglob("*"):
                if path.is_file():
                    found[str(path.relative_to(_SOURCE))] = path.stat().st_mtime_ns
    return found


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the run's controller (or the only process)
        session.config.stash[_PACKAGING_KEY] = _packaging_state()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_PACKAGING_KEY, None)
    if before is None:
        return
    after = _packaging_state()
    changed = sorted(name for name in before.keys() | after.keys()
                     if before.get(name) != after.get(name))
    if changed:
        session.config.get_terminal_writer().line(
            "\na test wrote into the source tree's build output (build from a copy: "
            "test_packaging.source_copy): " + ", ".join(changed[:8]), red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# -- how many workers `-n auto` starts ----------------------------------------------------------
# Part of the suite waits rather than computes: on Chromium, on the servers the page tests start,
# on fresh venvs and subprocesses.  With one worker a core, 2 cores were idle about a sixth of
# the run; one worker more keeps them busier: the whole suite took 519-552 s with 3 workers and
# 556-601 s with 2 (a clean clone, the same machine).  PYTEST_XDIST_AUTO_NUM_WORKERS still
# decides where it is set.

def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1
