"""``hkk verify``'s cost check (hkk._setcost): games/s of a set's dependencies alone vs with the
set, failing past a factor.  Time here is a fake clock that only the games move: no test
depends on how fast this machine is."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from click.testing import CliRunner

import hkk.verify
from hkk import Engine, hookimpl
from hkk._setcost import DEFAULT_MAX_FACTOR, measure
from hkk.cli import main
from hkk.verify import verify


class FakeClock:
    """Each reading moves time by ``tick`` (a game's own cost); hooks may move it more."""

    def __init__(self, tick: float = 0.5) -> None:
        self.now, self.tick = 0.0, tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


class SlowHooks:
    """A set whose prep_stage2 hook costs ``seconds`` of fake time per call."""

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        self.clock, self.seconds, self.calls = clock, seconds, 0

    @hookimpl
    def prep_stage2(self, game: Any) -> list[Any]:
        self.calls += 1
        self.clock.now += self.seconds
        return []


def _cost(seconds: float, max_factor: float = DEFAULT_MAX_FACTOR) -> Any:
    clock = FakeClock()
    base = Engine.installed(allow=["alap"])
    slow = SlowHooks(clock, seconds)
    with_set = Engine.installed(allow=["alap"], plugins=[slow])
    decks = [(base.deck("alap:tuz"), base.deck("alap:viz"))]
    cost = measure("lassu", base, with_set, decks, games=3, max_factor=max_factor, clock=clock)
    assert slow.calls > 0
    return cost


@pytest.mark.slow
def test_setcost_a_cheap_hook_set_passes() -> None:
    cost = _cost(0.0)
    assert cost.factor == 1.0 and cost.ok
    assert cost.base_rate == cost.with_rate == 2.0  # 0.5 fake seconds a game
    assert "within the limit of 3x" in cost.message()


@pytest.mark.slow
def test_setcost_a_slow_hook_set_fails_past_the_factor() -> None:
    cost = _cost(0.1)  # dozens of prep_stage2 calls a game: many times 0.5 s
    assert cost.factor > DEFAULT_MAX_FACTOR and not cost.ok
    assert cost.with_rate < cost.base_rate
    assert "more than the limit of 3x" in cost.message()
    assert _cost(0.1, max_factor=cost.factor).ok  # the limit is configurable


def test_setcost_factor_is_the_median_so_one_slow_game_does_not_fail() -> None:
    base = Engine.installed(allow=["alap"])
    times = iter([0, 1, 0, 1,  # game 1: 1 s without, 1 s with
                  0, 1, 0, 50,  # game 2: a load spike while playing with the set
                  0, 1, 0, 1])
    decks = [(base.deck("alap:tuz"), base.deck("alap:viz"))]
    cost = measure("x", base, base, decks, games=3, clock=lambda: float(next(times)))
    assert cost.factor == 1.0 and cost.ok


@pytest.mark.slow
def test_verify_reports_the_cost_of_a_set_with_dependencies(monkeypatch: Any) -> None:
    monkeypatch.setattr(hkk.verify, "measure", functools.partial(measure, clock=FakeClock()))
    report = verify(["mereg"], games=2)
    cost = [c for c in report.checks if c.name == "cost"]
    assert [(c.target, c.ok) for c in cost] == [("mereg", True)]  # alap has no dependencies
    assert "games/s without the set" in cost[0].message
    failing = verify(["mereg"], games=2, max_slowdown=0.5)  # a fake factor of exactly 1
    assert not failing.ok
    assert [c.ok for c in failing.checks if c.name == "cost"] == [False]


def test_verify_max_slowdown_0_does_not_measure() -> None:
    result = CliRunner().invoke(main, ["verify", "mereg", "--games", "1", "--max-slowdown", "0",
                                       "--output-format", "json"])
    assert result.exit_code == 0, result.output
    assert "cost" not in {c["name"] for c in json.loads(result.output)["checks"]}


@pytest.mark.parametrize("factor", ["-1", "x"])
def test_verify_max_slowdown_bad_value_exits_2(factor: str) -> None:
    result = CliRunner().invoke(main, ["verify", "mereg", "--max-slowdown", factor])
    assert result.exit_code == 2


class SlowOnce:
    """A set whose first hook call ever costs ``seconds`` (an import, a cache filled once)."""

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        self.clock, self.seconds, self.calls = clock, seconds, 0

    @hookimpl
    def prep_stage2(self, game: Any) -> list[Any]:
        self.calls += 1
        if self.calls == 1:
            self.clock.now += self.seconds
        return []


def test_setcost_a_one_time_cost_of_the_first_game_is_not_counted() -> None:
    """With few games, a set's one-time start-up cost is not its cost per game: each engine
    plays one untimed game first."""
    clock = FakeClock()
    base = Engine.installed(allow=["alap"])
    with_set = Engine.installed(allow=["alap"], plugins=[SlowOnce(clock, 100.0)])
    decks = [(base.deck("alap:tuz"), base.deck("alap:viz"))]
    cost = measure("egyszer", base, with_set, decks, games=2, clock=clock)
    assert cost.factor == 1.0 and cost.ok
