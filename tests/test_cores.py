"""Cores are plugins: the ``hkk.cores`` entry-point group chooses what runs a game (the Python
engine is the built-in core ``python``), ``--core NAME`` and ``Engine.installed(core=...)`` pick
one, ``--core auto`` takes the best one that accepts the game and says when it falls back.

``fake_core`` installs a throw-away distribution for one test as ``fake_agent`` does an agent:
a package and its ``.dist-info`` on ``sys.path``."""

from __future__ import annotations

import importlib
import itertools
import json
import re
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
from hkk._cores import BUILTIN_CORES, ENTRY_POINT_GROUP, PYTHON, core_entries
from hkk.cli import main

ROOT = Path(__file__).resolve().parent.parent
_counter = itertools.count()

#: A core that runs the Python engine's game under its own name, keeping every game it made
#: (``GAMES``) and refusing any deck with the card ``REFUSED`` in it.
ECHO = '''
from hkk._cores import PYTHON

GAMES = []
REFUSED = "alap:tuzmano"


class Echo:
    auto = AUTO

    def __init__(self, name):
        self.name = name

    def refuses(self, engine, decks):
        if any(REFUSED in deck for deck in decks):
            return f"the card {REFUSED} uses a word this core does not know"
        return None

    def new_game(self, engine, decks, **options):
        options["names"] = (f"{self.name}-1", f"{self.name}-2")
        game = PYTHON.new_game(engine, decks, **options)
        GAMES.append(game)
        return game


echo = Echo("echo")
'''


def write_core_distribution(root: Path, entries: dict[str, str], auto: bool = False,
                            name: str = "hkk-core-echo") -> str:
    package = f"hkkfakecore_{next(_counter)}_{abs(hash(str(root))) % 10**6}"
    (root / package).mkdir(parents=True)
    (root / package / "__init__.py").write_text(textwrap.dedent(ECHO).replace(
        "AUTO", str(auto)), encoding="utf-8")
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n",
                                   encoding="utf-8")
    lines = "".join(f"{key} = {package}:{value}\n" for key, value in entries.items())
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{lines}", encoding="utf-8")
    return package


@pytest.fixture
def fake_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    root = tmp_path / "cores-site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    # hkk simulate keeps an engine per process, which read the cores when it was made
    monkeypatch.setattr("hkk._simulate._ENGINES", {})
    packages: list[str] = []

    def make(entries: dict[str, str], **options: Any) -> Any:
        packages.append(write_core_distribution(root, entries, **options))
        return importlib.import_module(packages[-1])
    yield make
    for module in list(sys.modules):
        if any(module == p or module.startswith(p + ".") for p in packages):
            del sys.modules[module]


BASE = ["alap:viz", "alap:viz"]


# -- the built-in core ----------------------------------------------------------------------------

def test_the_python_engine_is_the_entry_point_python_of_hkk_itself() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"][ENTRY_POINT_GROUP] == BUILTIN_CORES
    registry = core_entries()
    assert registry.get("python") is PYTHON
    assert registry.entries["python"].distribution == "hkk"


def test_a_game_started_on_the_python_core_is_the_game_the_engine_plays() -> None:
    engine = Engine.installed(allow=["alap"], core="python")
    started = engine.start(BASE, seed=5)
    started.play()
    played = engine.play(BASE, seed=5)
    assert started.log.as_dicts() == played.log.as_dicts()
    assert started.winner == played.winner


def _installed() -> str:
    """The installed cores as the error lists them (hkk-native's too, when it is built)."""
    return ", ".join(["auto", *core_entries().names()])


def test_an_unknown_core_is_an_error_listing_the_installed_ones() -> None:
    assert "python" in _installed()
    with pytest.raises(HkkError) as raised:
        Engine.installed(allow=["alap"], core="nope")
    assert str(raised.value) == f"no core 'nope'; installed cores: {_installed()}"


@pytest.mark.parametrize("command", [["play"], ["simulate", "-n", "1"], ["verify", "alap"]])
def test_an_unknown_core_is_a_usage_error_of_each_command(command: list[str]) -> None:
    result = CliRunner().invoke(main, [*command, "--core", "nope"])
    assert result.exit_code == 2, result.output
    assert f"no core 'nope'; installed cores: {_installed()}" in " ".join(result.output.split())


# -- a third party's core ----------------------------------------------------------------------

def test_a_third_party_core_is_listed_by_hkk_cores(fake_core: Any) -> None:
    fake_core({"echo": "echo"})
    result = CliRunner().invoke(main, ["cores", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.output)["cores"]}
    assert rows["echo"]["distribution"] == "hkk-core-echo"
    assert rows["echo"]["auto"] is False
    assert rows["python"]["distribution"] == "hkk"


def test_core_chooses_a_third_party_core_in_hkk_play_and_the_engine(fake_core: Any) -> None:
    echo = fake_core({"echo": "echo"})
    result = CliRunner().invoke(main, ["play", "--core", "echo", "--decks", *BASE, "-q"])
    assert result.exit_code == 0, result.output
    assert "winner: echo-" in result.output
    assert len(echo.GAMES) == 1
    game = Engine.installed(core="echo").start(BASE, seed=1)
    assert game is echo.GAMES[-1]
    # without --core the python core plays (an echo not marked auto is never taken)
    result = CliRunner().invoke(main, ["play", "--decks", *BASE, "-q"])
    assert "winner: P" in result.output and len(echo.GAMES) == 2


def test_core_chooses_a_third_party_core_in_hkk_simulate(fake_core: Any) -> None:
    echo = fake_core({"echo": "echo"})
    result = CliRunner().invoke(main, ["simulate", "-n", "3", "-w", "1", "--set", "alap",
                                       "--decks", *BASE, "--core", "echo", "-q"])
    assert result.exit_code == 0, result.output
    assert len(echo.GAMES) == 3


def test_a_named_core_that_refuses_the_game_is_a_usage_error_naming_why(fake_core: Any) -> None:
    fake_core({"echo": "echo"})
    result = CliRunner().invoke(main, ["play", "--core", "echo", "--decks", "alap:tuz",
                                       "alap:viz", "-q"])
    assert result.exit_code == 2, result.output
    assert "core 'echo' cannot run this game: the card alap:tuzmano uses a word" in \
        result.output
    with pytest.raises(HkkError, match="alap:tuzmano"):
        Engine.installed(core="echo").start(["alap:tuz", "alap:viz"])


def test_auto_takes_a_core_marked_auto_and_falls_back_once_saying_why(
        fake_core: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    echo = fake_core({"echo": "echo"}, auto=True)
    try:  # the only core auto tries here: the native one would take what echo refuses
        import hkk_native
        monkeypatch.setattr(hkk_native.core, "auto", False)
    except ImportError:
        pass
    engine = Engine.installed(allow=["alap"])
    assert engine.choose_core(BASE).core is echo.echo
    refused = engine.choose_core(["alap:tuz", "alap:viz"])
    assert refused.core is PYTHON
    assert refused.fallback == "core 'echo': the card alap:tuzmano uses a word this core does " \
                               "not know; running it on the python core"
    result = CliRunner().invoke(main, [
        "simulate", "-n", "4", "-w", "1", "--set", "alap", "--decks", "alap:tuz", "alap:viz",
        "--decks", *BASE, "-q"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("running it on the python core") == 1
    assert len(echo.GAMES) == 2  # the two games of the pairing it accepts


def test_a_core_name_registered_twice_is_loaded_once_and_reported(fake_core: Any) -> None:
    fake_core({"python": "echo"})
    registry = core_entries()
    assert registry.get("python") is PYTHON
    assert any("'python'" in p and "hkk-core-echo" in p for p in registry.problems)


def test_the_core_protocol_is_public() -> None:
    assert {"Core", "ForwardModel", "FairView", "GameLog", "CoreError"} <= set(hkk.__all__)
    assert hkk.CoreError.__mro__[1] is HkkError


def test_an_engine_runs_games_on_a_core_object_handed_to_it() -> None:
    made = []

    class Counting:
        name = "counting"

        def refuses(self, engine: Any, decks: Any) -> str | None:
            return None

        def new_game(self, engine: Any, decks: Any, **options: Any) -> Any:
            made.append(decks)
            return PYTHON.new_game(engine, decks, **options)

    engine = Engine.installed(allow=["alap"], core=Counting())
    game = engine.start(BASE, seed=2)
    assert made == [[engine.deck("alap:viz")] * 2] and game.decision is None


# -- the native core (plugins/hkk-native), when it is built -------------------------------------

def test_the_native_core_is_listed_by_hkk_cores_as_tried_by_auto_for_whole_games() -> None:
    pytest.importorskip("hkk_native", reason="hkk_native is not built")
    result = CliRunner().invoke(main, ["cores", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.output)["cores"]}
    assert rows["native"] == {"name": "native", "distribution": "hkk-native",
                              "object": "hkk_native:core", "auto": "whole-games"}


def test_auto_never_hands_a_native_game_to_the_caller() -> None:
    pytest.importorskip("hkk_native", reason="hkk_native is not built")
    engine = Engine.installed()  # core="auto", the default
    assert engine.choose_core(["alap:tuz", "alap:viz"]).core is PYTHON
    assert type(engine.start(["alap:tuz", "alap:viz"], seed=1)) is hkk.Game
    chosen = engine.choose_core(["alap:tuz", "alap:viz"], whole_games=True)
    assert chosen.core.name == "native" and chosen.fallback is None


def test_auto_plays_whole_games_with_a_python_agent_on_python_naming_the_agent() -> None:
    pytest.importorskip("hkk_native", reason="hkk_native is not built")

    class Mine(hkk.FirstLegalAgent):  # a Python agent: no native twin
        pass

    chosen = Engine.installed().choose_core(["alap:tuz", "alap:viz"], whole_games=True,
                                            agents=[Mine(), hkk.RandomAgent(1)])
    assert chosen.core is PYTHON
    assert chosen.fallback is not None
    assert chosen.fallback.startswith("core 'native': agent Mine is not seated natively")


def _spy_native(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The games the native core's batched calls (rows or tally) play from now on (their
    seeds' counts)."""
    hkk_native = pytest.importorskip("hkk_native", reason="hkk_native is not built")
    monkeypatch.setattr("hkk._simulate._ENGINES", {})
    played: list[int] = []
    for name in ("play_outcomes", "tally_outcomes"):
        real = getattr(type(hkk_native.core), name)

        def spy(self: Any, engine: Any, decks: Any, seeds: Any, *, real: Any = real,
                **options: Any) -> Any:
            played.append(len(seeds))
            return real(self, engine, decks, seeds, **options)

        monkeypatch.setattr(type(hkk_native.core), name, spy)
    return played


def test_auto_simulates_the_base_decks_natively_with_the_python_cores_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    played = _spy_native(monkeypatch)

    def simulated(*core: str) -> tuple[str, str]:
        result = CliRunner().invoke(main, ["simulate", "-n", "6", "-w", "1", "--set", "alap",
                                           *core, "--decks", "alap:tuz", "alap:viz", "-q",
                                           "--agents", "random", "first"])
        assert result.exit_code == 0, result.output
        return re.sub(r"(?m)^[0-9.]+ s;", "", result.stdout), result.stderr  # but its time

    table, said = simulated()  # auto, the default
    assert played == [6] and said == ""  # one batched call: natively; nothing to say
    assert simulated("--core", "python") == (table, said) and played == [6]


def test_auto_simulates_a_turn_limit_natively_with_the_python_cores_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``hkk simulate --max-turns``: the turn limit is one of the rulings the native core takes
    (D-turn-limit), so ``auto`` plays it natively, with nothing to say, and the table is the
    Python core's."""
    played = _spy_native(monkeypatch)

    def simulated(*core: str) -> tuple[str, str]:
        result = CliRunner().invoke(main, ["simulate", "-n", "4", "-w", "1", "--set", "alap",
                                           *core, "--decks", "alap:tuz", "alap:viz", "-q",
                                           "--max-turns", "30"])
        assert result.exit_code == 0, result.output
        return re.sub(r"(?m)^[0-9.]+ s;", "", result.stdout), result.stderr  # but its time

    table, said = simulated()  # auto, the default
    assert played == [4] and said == ""
    assert simulated("--core", "python") == (table, said) and played == [4]
    assert simulated("--core", "native") == (table, said) and played == [4, 4]


def test_hkk_play_core_native_prints_the_python_engines_game() -> None:
    """A whole forward model (reseating, a turn limit of the caller's): ``hkk play --core
    native`` plays the game the Python engine plays, and prints it alike (its log's events
    handed to the printer as they are logged)."""
    pytest.importorskip("hkk_native", reason="hkk_native is not built")

    def played(core: str, *more: str) -> str:
        result = CliRunner().invoke(main, ["play", "--core", core, "--decks", "alap:tuz",
                                           "alap:viz", "--seed", "3", *more])
        assert result.exit_code == 0, result.output
        return result.stdout

    for more in ((), ("--max-turns", "4")):
        native = played("native", *more)
        assert native == played("python", *more)
        assert ("Draw (turn_limit" if more else "Winner: ") in native


def test_hkk_verify_games_core_native_plays_the_sets_games_natively() -> None:
    pytest.importorskip("hkk_native", reason="hkk_native is not built")
    result = CliRunner().invoke(main, ["verify", "alap", "--games", "2", "--core", "native"])
    said = " ".join(result.output.split())
    assert "✓ games [alap]: 2 game(s) on alap:tuz, alap:viz" in said
    # the run of every installed set has mereg's Python hooks: refused by name, a failure
    assert "games [all]: cannot set up the run: core 'native' cannot run this game: set " \
        "mereg implements the hooks" in said or "mereg" not in said


def test_hkk_serve_core_native_serves_the_python_engines_game_to_the_page() -> None:
    """``hkk serve --core native``: the table's game is a native one, and what the page is
    sent - after answers and a take-back - is the Python engine's, but the decision's
    prompt, which the native core does not make."""
    pytest.importorskip("hkk_native", reason="hkk_native is not built")
    pytest.importorskip("starlette", reason="hkk serve needs starlette")
    from hkk._agents import RandomAgent
    from hkk._serve import Table
    from hkk._serve_watch import CardSets

    tables = [Table(CardSets(core=core), ["alap:tuz", "alap:viz"], "random",
                    lambda seed, seat: RandomAgent(5), seed=3) for core in ("native", "python")]
    assert type(tables[0].game.game).__name__ == "NativeGame"
    for _ in range(40):
        decision = tables[0].game.decision
        assert decision is not None
        for table in tables:
            table.answer(len(decision.options) - 1, table.game.answered)
    for table in tables:
        table.undo()
    native, python = (table.state() for table in tables)
    for state in (native, python):
        del state["decision"]["prompt"], state["decision"]["subject"]
    assert native == python


def test_core_native_simulates_the_base_decks_as_the_python_core_does() -> None:
    pytest.importorskip("hkk_native", reason="hkk_native is not built")

    def simulated(core: str) -> dict[str, Any]:
        result = CliRunner().invoke(main, ["simulate", "-n", "20", "-w", "1", "--set", "alap",
                                           "--core", core, "--decks", "alap:tuz", "alap:viz",
                                           "--output-format", "json"])
        assert result.exit_code == 0, result.output
        data: dict[str, Any] = json.loads(result.stdout)
        del data["meta"]["seconds"]
        return data

    native = simulated("native")
    assert native["games"] == 20 and native["errors"] == 0
    assert native == simulated("python")


def test_core_native_on_a_game_that_is_not_data_only_names_the_set_and_hook() -> None:
    pytest.importorskip("hkk_native", reason="hkk_native is not built")
    result = CliRunner().invoke(main, ["play", "--core", "native", "--decks", "mereg:mocsar",
                                       "alap:viz", "-q"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert "core 'native' cannot run this game: set mereg implements the hooks" in said
    assert "prep_stage2" in said


def test_auto_falls_back_from_native_to_python_once_naming_the_set_and_hook(
        monkeypatch: pytest.MonkeyPatch) -> None:
    played = _spy_native(monkeypatch)
    # mereg's Python hooks: the native core refuses its games, python plays them
    result = CliRunner().invoke(main, ["simulate", "-n", "3", "-w", "1", "--set", "alap",
                                       "--set", "mereg", "--decks", "mereg:mocsar",
                                       "alap:viz", "-q"])
    assert result.exit_code == 0, result.stderr
    said = " ".join(result.stderr.split())
    assert said.count("note: core 'native': set mereg implements the hooks") == 1, said
    assert said.count("running it on the python core") == 1 and played == []
