"""The pytest plugin (entry point ``pytest11``): fixtures, ``--hkk-verify``, the report header.

No autouse fixtures; nothing happens at import.  Set discovery runs only for the report header,
when a fixture asks for the engine, or for a verification item.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_hkk.builders import build_game, script
from pytest_hkk.driver import TurnDriver
from pytest_hkk.log import LogAssert
from pytest_hkk.steps import StepScript

DEFAULT_VERIFY_GAMES = 5


# -- options, header ---------------------------------------------------------------------------

def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hkk", "hkk card sets")
    group.addoption("--hkk-verify", action="append", default=[], metavar="CODE",
                    help="add a test item running the 'hkk verify CODE' checks (repeatable)")
    group.addoption("--hkk-verify-games", type=int, default=None, metavar="N",
                    help=f"games per run for --hkk-verify (default {DEFAULT_VERIFY_GAMES})")
    parser.addini("hkk_verify", type="args", default=[],
                  help="set codes to verify as test items, like --hkk-verify")
    parser.addini("hkk_verify_games", default=str(DEFAULT_VERIFY_GAMES),
                  help="games per run for the hkk verification items")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "hkk_verify: a generated 'hkk verify' item (pytest-hkk)")


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [header_line()]


def header_line(discovery: Any = None) -> str:
    """``hkk 0.1.0 (hook API 1.0), sets: alap 0.1.0 (hkk), …``"""
    import hkk
    from hkk.testing import discover_sets

    found = discovery or discover_sets()
    parts = [f"{s.code} {s.version or '?'} ({s.distribution or '?'})"
             for s in found.sets.values()]
    parts += [f"{e.code} {e.version or '?'} FAILED at {e.stage}" for e in found.failures]
    parts += [f"{c.code} {c.version or '?'} disabled" for c in found.disabled]
    return (f"hkk {hkk.__version__} (hook API {hkk.HOOK_API_VERSION}), sets: "
            f"{', '.join(parts) or 'none installed'}")


# -- hkk verify as test items -----------------------------------------------------------------
#
# The items are collected like any test (issue 13): children of the directory the run starts
# from (the first ``testpaths`` entry, else the root directory), so ``pytest``, ``pytest tests``
# and ``--co`` list and count them, and selecting a file or node id (``pytest
# tests/test_x.py::test_y``) leaves them out; ``-k``/``-m`` select them by name (``hkk-verify``,
# the set code) and marker ``hkk_verify``.  Node id: ``hkk::verify[CODE]`` (shown, not
# selectable as an argument: pytest takes no ``::`` after a folder - use ``-k``).

class VerifyFailed(Exception):
    def __init__(self, report: Any) -> None:
        super().__init__("hkk verify failed")
        self.report = report


class HkkVerifyItem(pytest.Item):
    """``hkk-verify[CODE]``: the checks of ``hkk verify CODE`` inside the test session."""

    def __init__(self, *, code: str, games: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.code = code
        self.games = games
        self.add_marker("hkk_verify")

    def runtest(self) -> None:
        from hkk.testing import verify

        report = verify([self.code], games=self.games)
        if not report.ok:
            raise VerifyFailed(report)

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        if isinstance(excinfo.value, VerifyFailed):
            return failure_text(excinfo.value.report, self.code)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"hkk verify {self.code} --games {self.games}"


def failure_text(report: Any, code: str) -> str:
    """What failed, and only that: no passing check, no coverage (they are in ``hkk verify``)."""
    from hkk.testing import plain, verify_lines
    from hkk.verify import VerifyReport

    failing = VerifyReport(checks=[c for c in report.checks if not c.ok],
                           games_played=report.games_played)
    lines = [plain(line) for line in verify_lines(failing)][:-1]  # its verdict counts wrongly
    return "\n".join([f"hkk verify {code}: {len(report.failures)} failure(s) in "
                      f"{len(report.checks)} checks, {report.games_played} games", *lines])


def _verify_codes(config: pytest.Config) -> list[str]:
    codes = list(config.getoption("hkk_verify") or []) + list(config.getini("hkk_verify"))
    return list(dict.fromkeys(codes))


def _verify_home(config: pytest.Config) -> Path:
    """The directory whose collector holds the verification items."""
    for entry in config.getini("testpaths"):
        path = (config.rootpath / entry).resolve()
        if path.is_dir():
            return path
    return config.rootpath.resolve()


class _WithVerifyItems:
    """Mixed into the home directory's collector: its children, then the verify items."""

    def collect(self) -> Any:
        yield from super().collect()  # type: ignore[misc]
        config = self.config  # type: ignore[attr-defined]
        games = config.getoption("hkk_verify_games")
        if games is None:
            games = int(config.getini("hkk_verify_games"))
        for code in _verify_codes(config):
            # "hkk::…": JUnit's classname is "hkk" (never empty), the same from any folder
            yield HkkVerifyItem.from_parent(self, name=f"hkk-verify[{code}]", code=code,
                                            games=games, nodeid=f"hkk::verify[{code}]")


class _VerifyDir(_WithVerifyItems, pytest.Dir):
    pass


class _VerifyPackage(_WithVerifyItems, pytest.Package):
    pass


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    config = parent.config
    if not _verify_codes(config) or path.resolve() != _verify_home(config):
        return None
    if (path / "__init__.py").is_file():
        return _VerifyPackage.from_parent(parent, path=path)
    return _VerifyDir.from_parent(parent, path=path)


# -- fixtures -----------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def hkk_engine() -> Any:
    """An :class:`hkk.Engine` with every installed set that loads (session-wide; games made
    from it do not change it), every set's hooks called in every game (``set_hooks="all"``):
    a set's tests put its counters on any card, whatever sets the position's cards are of."""
    from hkk import Engine

    return Engine.installed(set_hooks="all")


@pytest.fixture
def hkk_game(hkk_engine: Any) -> Callable[..., Any]:
    """Factory: ``hkk_game(players=[{"hand": [...], "reserve": [...], "vp": 3}, {}],
    agents=[hkk_script("play alap:tuzmano"), None], seed=0, active=0)`` - a game with those
    cards in those zones (see :func:`pytest_hkk.build_game`); ``engine=`` to use another.

    ``vp`` is the VP *before* the first turn's VP regeneration (29.3), so 5 is 6 by the main
    phase; ``hkk_run.to(game, "main_phase", vp=[5, None])`` sets it as of a step."""
    def make(players: Any = ({}, {}), *, engine: Any = None, **kwargs: Any) -> Any:
        return build_game(engine or hkk_engine, players, **kwargs)
    return make


class Scripts:
    """``hkk_script(*answers, only=…)`` is :func:`pytest_hkk.script`;
    ``hkk_script.steps({hook: [answers]})`` is :class:`pytest_hkk.StepScript`."""

    __call__ = staticmethod(script)
    steps = staticmethod(StepScript)


@pytest.fixture
def hkk_script() -> Scripts:
    """Factory of scripted players: ``hkk_script("play alap:tuzmano", "pass", only=["action"])``
    answers in order (see :func:`pytest_hkk.script`); ``hkk_script.steps({"main_phase":
    ["play alap:tuzmano", "pass turn"], "prep_stage2": ["use alap:sirrablo#1:1"]})`` answers
    per step (see :class:`pytest_hkk.StepScript`)."""
    return Scripts()


@pytest.fixture
def hkk_run() -> Iterator[TurnDriver]:
    """Runs games: ``hkk_run.to(game, "end_stage2")`` (``vp=[5, None]``: set VP as of that
    step), ``.finish_turn(game)``,
    ``.turn(game, count=1)``, ``.game(game)`` (see :class:`pytest_hkk.TurnDriver`)."""
    yield TurnDriver()


@pytest.fixture
def hkk_log() -> Callable[[Any], LogAssert]:
    """``hkk_log(game).has("died", card="alap:tuzmano")``, ``.lacks``, ``.has_count``,
    ``.in_order``, ``.find``, ``.resolved`` (see :class:`pytest_hkk.LogAssert`)."""
    def make(game: Any) -> LogAssert:
        return LogAssert(game.log, game.cards)
    return make
