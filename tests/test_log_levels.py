"""Log levels (issue 11): a game keeps its full log, a compact one or only its outcome; the
game is the same game at every level, and listeners hear every event they subscribed to."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkk import Engine, HkkError
from hkk._saving import SaveError

ROOT = Path(__file__).parent.parent
DECKS = ["alap:tuz", "mereg:mocsar"]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.installed(allow=["alap", "mereg"])


def _compact_keeps(event: Any) -> bool:
    """What the compact level is documented to keep: all but step boundaries, decisions and
    Ép checks that found nobody."""
    return event.kind not in ("step_started", "step_ended", "decision") and not (
        event.kind == "hp_check" and not event["dead"])


@settings(max_examples=8)
@given(seed=st.integers(0, 10_000))
def test_log_levels_play_the_same_game(engine: Engine, seed: int) -> None:
    full = engine.play(DECKS, seed=seed)
    compact = engine.play(DECKS, seed=seed, log_level="compact")
    outcome = engine.play(DECKS, seed=seed, log_level="outcome")
    for game in (compact, outcome):
        assert (game.winner, game.turn, game.over) == (full.winner, full.turn, full.over)
        assert game.snapshot() == full.snapshot()
        assert game.log.emitted == len(full.log)
    # the compact log is the full one without the bookkeeping, each event at its full seq
    assert compact.log.as_dicts() == [e.as_dict() for e in full.log if _compact_keeps(e)]
    assert 0 < len(compact.log) < len(full.log)
    # the outcome log is the end: winner and reason stay readable
    assert outcome.log.as_dicts() == [full.log[-1].as_dict()]
    assert outcome.log[-1].kind == "game_over"


def test_log_levels_listeners_hear_every_event_they_subscribed_to(engine: Engine) -> None:
    heard: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}
    for level in ("full", "compact", "outcome"):
        by_kind: list[dict[str, Any]] = []
        everything: list[dict[str, Any]] = []
        game = engine.new_game(DECKS, seed=11, log_level=level)
        # decision and step_started are dropped by both lower levels; died is kept by compact
        game.log.subscribe(lambda e, out=by_kind: out.append(e.as_dict()),
                           kinds=["decision", "step_started", "died"])
        game.play()
        heard[level] = (by_kind, [])
        game = engine.new_game(DECKS, seed=11, log_level=level)
        game.log.subscribe(lambda e, out=everything: out.append(e.as_dict()))
        game.play()
        heard[level] = (by_kind, everything)
    full_by_kind, full_all = heard["full"]
    assert {e["kind"] for e in full_by_kind} == {"decision", "step_started", "died"}
    assert len(full_all) == full_all[-1]["seq"] + 1  # every event, in order
    for level in ("compact", "outcome"):
        assert heard[level] == (full_by_kind, full_all)


def test_log_levels_saving_needs_the_full_log(engine: Engine) -> None:
    for level in ("compact", "outcome"):
        game = engine.new_game(DECKS, seed=2, log_level=level)
        with pytest.raises(SaveError, match=f"only with the full log.*'{level}'"):
            game.save()
    engine.new_game(DECKS, seed=2).save()  # the full log saves


def test_log_levels_an_unknown_level_is_a_clear_error(engine: Engine) -> None:
    with pytest.raises(HkkError, match="unknown log level 'verbose'.*'full', 'compact', "
                                       "'outcome'"):
        engine.new_game(DECKS, log_level="verbose")


def test_benchmark_suite_runs() -> None:
    """The suite runs end to end at tiny sizes; it prints figures and asserts nothing on them."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for heading in ("the floor:", "## games/s", "## synthetic board", "## memory per game",
                    "## start-up", "## the forward model"):
        assert heading in done.stdout
    for level in ("full", "compact", "outcome"):
        assert f"base set       {level}" in done.stdout
