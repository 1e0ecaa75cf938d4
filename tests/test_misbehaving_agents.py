"""A seated agent that raises, or answers with an option that was not offered, stops its own
game and nothing else: ``hkk simulate`` makes it an error row naming the agent and its
distribution and keeps the finished games (--csv, the JSON); ``hkk play`` says it in one line
with the ``reproduce:`` command, not a traceback."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_agent_plugins import fake_agent  # noqa: F401 - the fixture

from hkk._agent_registry import agent_seed
from hkk.cli import main

#: Passes whenever it may; the agent whose seed is ``fail_seed`` fails at its ``after``-th
#: decision: it raises, or answers a label no decision offers.  ``forward``: it says it plays
#: the game forward, so the game is driven through the forward model (hkk._driving).
FAILING = '''
class Failing:
    def __init__(self, seed, fail_seed, after, how, forward):
        self.left = after if seed == fail_seed else -1
        self.how = how
        self.uses_forward_model = forward

    def choose(self, view, decision):
        self.left -= 1
        if self.left == 0:
            if self.how == "raise":
                raise ValueError("the agent broke")
            return "no such option"
        for option in decision.options:
            if option.label.startswith("pass"):
                return option
        return decision.options[-1]


def make(seed=None, fail_seed=2, after=5, how="raise", forward=False):
    """Fails at a decision of one game (a test agent)."""
    return Failing(seed, fail_seed, after, how, forward)
'''

WHAT = {"raise": "raised ValueError: the agent broke",
        "illegal": "answered an option not offered: player 0 chose 'no such option'"}


@pytest.mark.parametrize("forward", [False, True], ids=["seated", "forward-model"])
@pytest.mark.parametrize("how", ["raise", "illegal"])
def test_simulate_makes_a_failing_agent_an_error_row_and_keeps_the_other_games(
        tmp_path: Path, fake_agent: Any, how: str, forward: bool) -> None:  # noqa: F811
    fake_agent({"failing": "make"}, python=FAILING)
    spec = f"failing:fail_seed={agent_seed(1, 0)},forward={str(forward).lower()},how={how}"
    table, summary = tmp_path / "games.csv", tmp_path / "summary.json"
    result = CliRunner().invoke(main, [
        "simulate", "-n", "4", "-w", "1", "--set", "alap", "--decks", "alap:tuz", "alap:viz",
        "--agents", spec, "random", "--csv", str(table), "--output-format", "json",
        "-o", str(summary), "-q"])
    assert result.exit_code == 1, result.output
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert [r["seed"] for r in rows] == ["0", "1", "2", "3"]
    failed = [r for r in rows if r["error"]]
    # the agent seeded agent_seed(1, 0) is seat 1's in the game of seed 1
    assert [r["seed"] for r in failed] == ["1"]
    assert failed[0]["error"].startswith(f"AgentError: agent '{spec}' (distribution "
                                         f"hkk-agent-passer) in seat 1 {WHAT[how]}")
    assert failed[0]["reason"] == "error" and failed[0]["winner"] == ""
    assert all(r["reason"] != "error" and r["winner"] for r in rows if not r["error"])
    report = json.loads(summary.read_text(encoding="utf-8"))
    assert report["meta"]["games"] == 4 and report["errors"] == 1
    assert report["meta"]["errors"][0]["replay"].startswith("hkk play --seed 1 --decks")
    assert "error in the game of seed 1" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("how", ["raise", "illegal"])
def test_play_says_in_one_line_which_agent_failed_and_how_to_reproduce(
        fake_agent: Any, how: str) -> None:  # noqa: F811
    fake_agent({"failing": "make"}, python=FAILING)
    spec = f"failing:fail_seed={agent_seed(0, 0)},how={how}"
    result = CliRunner().invoke(main, ["play", "--seed", "0", "--decks", "alap:tuz", "alap:viz",
                                       "-q", "--agents", spec, "random"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    error, reproduce = result.output.strip().splitlines()
    assert error.startswith("error in turn ")
    assert f": agent '{spec}' (distribution hkk-agent-passer) in seat 1 {WHAT[how]}" in error
    assert reproduce == (f"reproduce: hkk play --seed 0 --decks alap:tuz alap:viz --agents "
                         f"{spec} random")
