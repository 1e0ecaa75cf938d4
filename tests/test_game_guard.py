"""The guard against a runaway game (``--game-timeout``, hkk._limits) bounds what runs away -
the engine and a set's Python hooks - in CPU time outside the agents: an agent that thinks
(burning CPU) or waits (sleeping) is not stopped by it, a hook that loops for ever still is, an
agent's own thinking is bounded per decision (its ``seconds`` option), ``hkk verify`` keeps a
wall-clock guard against a hook that never returns, and a report whose games were stopped
says how many and why.  No assertion here is about how long anything took."""

from __future__ import annotations

import json
import sys
import time
import weakref
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_simulate import LOOPING_CARDS, LOOPING_DECKS, LOOPING_SET
from test_verify import (
    LOOPING_CARD,
    fake_set,  # noqa: F401 - the fixture: a throw-away installed set
)

from hkk import Engine
from hkk._errors import GameTimeout
from hkk._limits import time_limit
from hkk._runner import play_game
from hkk.cli import main
from hkk.verify import verify


class Thinker:
    """Takes the first option after ``cpu`` CPU seconds of work (or ``sleep`` seconds asleep):
    a slow agent, every decision; its own budget for one decision is far above that."""

    decision_seconds = 30.0

    def __init__(self, cpu: float = 0.0, sleep: float = 0.0) -> None:
        self.cpu, self.sleep, self.decisions = cpu, sleep, 0

    def choose(self, view: Any, decision: Any) -> Any:
        self.decisions += 1
        end = time.thread_time() + self.cpu
        while time.thread_time() < end:
            pass
        time.sleep(self.sleep)
        return decision.options[0]


class Stuck:
    """An agent whose every decision loops for ever (as a search would in a set's endless
    hook); ``decision_seconds`` is its own per-decision budget."""

    decision_seconds = 0.1

    def choose(self, view: Any, decision: Any) -> Any:
        while True:
            pass


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.installed(allow=["alap"])


@pytest.mark.parametrize(("cpu", "sleep"), [(0.05, 0.0), (0.0, 0.02)],
                         ids=["burns-cpu", "sleeps"])
def test_a_slow_agent_is_not_stopped_by_the_game_guard(engine: Engine, cpu: float,
                                                       sleep: float) -> None:
    """Its thinking, more than the game's whole limit, is its own: the game ends by itself."""
    agent = Thinker(cpu, sleep)
    game = engine.new_game(["alap:tuz", "alap:viz"], [agent, Thinker()], seed=1)
    with time_limit(0.2, agents=[agent, None]):
        play_game(game, max_turns=4)
    assert game.over and agent.decisions >= 10  # 10 x 0.05 CPU s: more than the game's 0.2


def test_an_agent_stuck_on_one_decision_is_stopped_by_its_own_budget(engine: Engine) -> None:
    stuck = Stuck()
    game = engine.new_game(["alap:tuz", "alap:viz"], [stuck, stuck], seed=1)
    with pytest.raises(GameTimeout) as caught, time_limit(1000, agents=[stuck, stuck]):
        play_game(game, max_turns=4)
    assert str(caught.value).startswith("agent Stuck thought longer on one decision than its "
                                        "limit of 0.1 CPU s; it was running ")
    assert caught.value.agent == "Stuck"


def test_a_timeout_lost_in_a_garbage_collection_callback_is_not_reported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the limit's tick falls inside a callback Python runs while collecting garbage (a
    weak reference's), its GameTimeout cannot propagate: the timer raises it again at its
    next tick, so the lost one is no error to report; any other exception there still is."""
    reported: list[type[BaseException]] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(type(u.exc_value)))

    class Collected:
        pass

    def lost(raising: BaseException) -> None:
        def callback(_: object) -> None:
            raise raising

        kept = Collected()
        ref = weakref.ref(kept, callback)
        del kept  # the callback runs now, and raises where nothing can catch it
        assert ref() is None

    with time_limit(1000):
        lost(GameTimeout(1.0, "the engine"))
        lost(ValueError("a set's callback"))
    lost(GameTimeout(1.0, "the engine"))  # outside the limit: reported as before
    assert reported == [ValueError, GameTimeout]


def test_mcts_and_greedy_take_their_decision_budget_as_an_option() -> None:
    from hkk._agent_registry import make_agent

    assert make_agent("mcts:seconds=2.5").decision_seconds == 2.5
    assert make_agent("greedy").decision_seconds is None  # the game's limit
    with pytest.raises(Exception, match="option seconds=0 must be a number of at least"):
        make_agent("mcts:seconds=0")


def test_a_hook_looping_for_ever_is_still_stopped_with_agents_seated(
        tmp_path: Path, fake_set: Any) -> None:  # noqa: F811
    fake_set("ido", cards=LOOPING_CARDS, decks=LOOPING_DECKS, python=LOOPING_SET)
    result = CliRunner().invoke(main, ["play", "--decks", "ido:orok", "ido:orok", "-q",
                                       "--agents", "random", "first", "--game-timeout", "0.2"])
    assert result.exit_code == 1, result.output
    assert "the game ran longer than its time limit of 0.2 CPU s; it was running " \
        "hkkfake_ido" in " ".join(result.output.split())


SLEEPING_SET = '''
    import time

    from hkk import hookimpl

    def nap(game, ctx):
        time.sleep(5)  # waits, spends no CPU time: only a clock on the wall sees it

    @hookimpl
    def custom_effects():
        return {"{code}:forever": nap}
'''


def test_verify_keeps_a_wall_clock_guard_against_a_hook_that_never_returns(
        fake_set: Any, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    import hkk._limits

    monkeypatch.setattr(hkk._limits, "VERIFY_WALL_MIN", 0.5)  # not a minute, in a test
    fake_set("alvo", cards=LOOPING_CARD, python=SLEEPING_SET.replace("{code}", "alvo"))
    report = verify(["alvo"], games=1, game_timeout=0.05, max_slowdown=0)
    failure = next(c for c in report.failures if ".nap (line " in c.message)
    assert "the game ran longer than its time limit of 0.5 wall-clock s; it was running " \
        "hkkfake_alvo" in failure.message and ".nap (line " in failure.message


def test_a_report_with_stopped_games_says_how_many_and_why(
        tmp_path: Path, fake_set: Any) -> None:  # noqa: F811
    fake_set("ido", cards=LOOPING_CARDS, decks=LOOPING_DECKS, python=LOOPING_SET)
    summary, page = tmp_path / "summary.json", tmp_path / "report.html"
    result = CliRunner().invoke(main, [
        "simulate", "-n", "4", "-w", "1", "--game-timeout", "0.2", "--set", "ido",
        "--decks", "ido:csendes", "ido:csendes", "--decks", "ido:orok", "ido:orok",
        "--json", str(summary), "--html", str(page)])
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert "stopped: 2 of 4 games, which count in no rate: GameTimeout 2 (the time limit " \
        "counts CPU time outside the agents: --game-timeout)" in text
    meta = json.loads(summary.read_text(encoding="utf-8"))["meta"]
    assert meta["stopped"]["games"] == 2 and meta["stopped"]["why"] == {"GameTimeout": 2}
    html = page.read_text(encoding="utf-8")
    assert "<strong>2 of 4 games were stopped</strong> and count in no rate: GameTimeout 2" in html
