"""Agents are plugins (issue 22 item 2): the entry-point group ``hkk.agents``, specs with options
(``mcts:budget=400``), ``hkk agents``, ``hkk.make_agent``, and a third-party agent installed
from a throw-away distribution that plays in ``hkk simulate`` and ``hkk play``.

``fake_agent`` installs a distribution for one test as ``fake_set`` does a set: a package and
its ``.dist-info`` on ``sys.path`` (local worker processes inherit the path)."""

from __future__ import annotations

import csv
import itertools
import json
import shlex
import sys
import textwrap
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import hkk
from hkk import Engine, HkkError
from hkk._agent_registry import (
    BUILTIN_AGENTS,
    ENTRY_POINT_GROUP,
    agent_entries,
    agent_seed,
    canonical_spec,
    parse_spec,
)
from hkk.cli import main

ROOT = Path(__file__).resolve().parents[1]
_counter = itertools.count()

#: Passes whenever it may, else takes the last option: a player who never plays a card.
PASSER = '''
class Passer:
    def __init__(self, seed, eager):
        self.seed, self.eager = seed, eager

    def choose(self, view, decision):
        for option in decision.options:
            if option.label.startswith("pass") and not self.eager:
                return option
        return decision.options[-1]


def make(seed=None, eager=False):
    """Passes whenever it may (a test agent)."""
    return Passer(seed, eager)


def broken(seed=None):
    """Fails when made."""
    raise RuntimeError("no luck")


def not_an_agent(seed=None):
    """Returns something without choose."""
    return 42
'''


def write_agent_distribution(root: Path, entries: dict[str, str], python: str = PASSER,
                             name: str = "hkk-agent-passer") -> str:
    package = f"hkkfakeagent_{next(_counter)}_{abs(hash(str(root))) % 10**6}"
    (root / package).mkdir(parents=True)
    (root / package / "__init__.py").write_text(textwrap.dedent(python), encoding="utf-8")
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n",
                                   encoding="utf-8")
    lines = "".join(f"{key} = {package}:{value}\n" for key, value in entries.items())
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{lines}", encoding="utf-8")
    return package


@pytest.fixture
def fake_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
               ) -> Iterator[Callable[..., str]]:
    root = tmp_path / "agents-site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))  # spawned workers are handed sys.path
    packages: list[str] = []

    def make(entries: dict[str, str], **options: Any) -> str:
        packages.append(write_agent_distribution(root, entries, **options))
        return packages[-1]
    yield make
    for module in list(sys.modules):
        if any(module == p or module.startswith(p + ".") for p in packages):
            del sys.modules[module]


# -- specs ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("spec", "parsed"), [
    ("random", ("random", {})),
    ("mcts:budget=400", ("mcts", {"budget": 400})),
    ("greedy:hp=2.5, hand=0,samples=3", ("greedy", {"hp": 2.5, "hand": 0, "samples": 3})),
    ("x-y_1:flag=true,name=abc", ("x-y_1", {"flag": True, "name": "abc"})),
])
def test_agent_spec_names_and_options(spec: str, parsed: tuple[str, dict[str, Any]]) -> None:
    assert parse_spec(spec) == parsed


@pytest.mark.parametrize(("spec", "message"), [
    ("Random", "is not an agent name"),
    ("mcts:budget", "is not key=value"),
    ("mcts:budget=1,budget=2", "given twice"),
    ("", "is not an agent name"),
])
def test_a_bad_agent_spec_is_one_clear_error(spec: str, message: str) -> None:
    with pytest.raises(HkkError, match=message):
        parse_spec(spec)


def test_canonical_spec_sorts_options() -> None:
    assert canonical_spec("mcts:rollout_turns=1, budget=50") == "mcts:budget=50,rollout_turns=1"
    assert canonical_spec("random") == "random"


# -- the built-ins are entry points like anyone's ------------------------------------------------

def test_builtin_agents_are_the_entry_points_of_hkk_itself() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"][ENTRY_POINT_GROUP] == BUILTIN_AGENTS
    registry = agent_entries()
    assert {"random", "first", "greedy", "mcts"} <= set(registry.entries)
    assert all(registry.entries[name].distribution == "hkk" for name in BUILTIN_AGENTS)
    assert registry.problems == []


def test_make_agent_is_public_and_seeded() -> None:
    engine = Engine.installed(allow=["alap"])

    def game(seed: int) -> list[str]:
        agents = [hkk.make_agent("random:pass_bias=0.5", seed=agent_seed(seed, s))
                  for s in (0, 1)]
        played = engine.play(["alap:tuz", "alap:viz"], agents, seed=seed)
        return [e["choice"] for e in played.log.of_kind("decision")]

    assert game(4) == game(4)
    # the agents' own RNGs drive them, not the game's: the same game seed, other agent seeds
    other = engine.play(["alap:tuz", "alap:viz"],
                        [hkk.make_agent("random:pass_bias=0.5", seed=s) for s in (100, 101)],
                        seed=4)
    assert [e["choice"] for e in other.log.of_kind("decision")] != game(4)


@pytest.mark.parametrize(("spec", "message"), [
    ("nobody", "no agent 'nobody'; registered agents: first, greedy, mcts, random"),
    ("random:budget=3", "agent 'random' has no option 'budget'; its options: pass_bias=0.25"),
])
def test_make_agent_unknown_name_or_option_lists_what_there_is(spec: str, message: str) -> None:
    with pytest.raises(HkkError) as info:
        hkk.make_agent(spec)
    assert message in str(info.value)


def test_hkk_agents_lists_the_builtins_with_their_options() -> None:
    result = CliRunner().invoke(main, ["agents", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.output)["agents"]}
    assert set(BUILTIN_AGENTS) <= set(rows)
    assert rows["random"]["options"] == {"pass_bias": 0.25}
    assert rows["mcts"]["options"]["budget"] > 0
    assert rows["greedy"]["distribution"] == "hkk"
    table = CliRunner().invoke(main, ["agents"])
    assert table.exit_code == 0 and "pass_bias=0.25" in table.output


# -- a third-party agent -------------------------------------------------------------------------

def test_a_third_party_agent_is_listed_and_made_by_name(fake_agent: Any) -> None:
    fake_agent({"passer": "make"})
    result = CliRunner().invoke(main, ["agents", "--json"])
    rows = {r["name"]: r for r in json.loads(result.output)["agents"]}
    assert rows["passer"]["distribution"] == "hkk-agent-passer"
    assert rows["passer"]["options"] == {"eager": False}
    assert rows["passer"]["summary"] == "Passes whenever it may (a test agent)."
    agent: Any = hkk.make_agent("passer:eager=true", seed=3)
    assert (agent.seed, agent.eager) == (3, True)


def test_a_third_party_name_clash_keeps_hkks_agent_and_says_so(fake_agent: Any) -> None:
    fake_agent({"random": "make"})
    registry = agent_entries()
    assert registry.entries["random"].distribution == "hkk"
    assert registry.problems == ["agent 'random' of distribution hkk-agent-passer "
                                 f"({registry_value(registry)}) is not loaded: distribution hkk "
                                 "registers that name"]
    result = CliRunner().invoke(main, ["agents"])
    assert "warning" in result.stderr and "hkk-agent-passer" in result.stderr


def registry_value(registry: Any) -> str:
    return registry.problems[0].split("(")[1].split(")")[0]


@pytest.mark.parametrize(("entry", "message"), [
    ("broken", "its factory failed: RuntimeError: no luck"),
    ("not_an_agent", "which has no choose(view, decision) method"),
    ("missing", "does not load: AttributeError"),
])
def test_a_broken_third_party_agent_is_an_error_naming_its_distribution(
        fake_agent: Any, entry: str, message: str) -> None:
    fake_agent({"bad": entry})
    with pytest.raises(HkkError) as info:
        hkk.make_agent("bad")
    assert "distribution hkk-agent-passer" in str(info.value) and message in str(info.value)
    result = CliRunner().invoke(main, ["simulate", "-n", "2", "-w", "1", "--set", "alap",
                                       "--agents", "bad", "random"])
    assert result.exit_code == 2 and message in result.output  # before any game


@pytest.mark.parametrize("workers", [["-w", "1"], ["-w", "2"], ["--dask", "-w", "1"]],
                         ids=["here", "local workers", "dask"])
def test_a_third_party_agent_plays_in_hkk_simulate(tmp_path: Path, fake_agent: Any,
                                                  workers: list[str]) -> None:
    if "--dask" in workers:
        pytest.importorskip("distributed")
    fake_agent({"passer": "make"})
    out_csv = tmp_path / "games.csv"
    result = CliRunner().invoke(main, ["simulate", "-n", "4", "--set", "alap", *workers,
                                       "--agents", "passer", "random", "--csv", str(out_csv)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert [(r["agent_1"], r["agent_2"]) for r in rows] == [("passer", "random")] * 4
    # the passer never plays a card; the random player does, and wins
    assert all(json.loads(r["played"])[0] == {} and json.loads(r["played"])[1] for r in rows)
    assert all(r["winner"] == "1" for r in rows)
    # its replay command plays the same game with the same agents
    replay = CliRunner().invoke(main, [*shlex.split(rows[0]["replay"])[1:], "-q"])
    assert replay.exit_code == 0, replay.output
    assert f"winner: P2 after {rows[0]['turns']} turns" in replay.output
