"""``hkk verify --differential N``: a set's games on the native core and on the Python engine,
compared event for event at the full log level (docs/NATIVE.md).  The games here are real on
both cores; the planted difference changes one event of one seed on the native side's reader,
so the comparison itself finds it."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_verify import write_set

from hkk.cli import main

hkk_native = pytest.importorskip(
    "hkk_native", reason="hkk_native is not built: pip install ./plugins/hkk-native (needs cargo)")

TWO_DECKS = '''
[[decks]]
name = "start"
[decks.cards]
"{code}:baka" = 12
"{code}:vezer" = 8

[[decks]]
name = "sok"
[decks.cards]
"{code}:baka" = 6
"{code}:vezer" = 14
'''


@pytest.fixture
def fake_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., str]]:
    """``fake_set("xx", **options)``: installs data-only set ``xx`` for this test only."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    packages: list[str] = []

    def make(code: str, **options: Any) -> str:
        packages.append(write_set(root, code, **options))
        return packages[-1]
    yield make
    for name in list(sys.modules):
        if any(name == p or name.startswith(p + ".") for p in packages):
            del sys.modules[name]


def _verify(*args: str) -> Any:
    return CliRunner().invoke(main, ["verify", *args, "--games", "0", "--max-slowdown", "0"])


def test_a_set_of_native_words_plays_its_games_alike_on_both_cores(fake_set: Any) -> None:
    fake_set("dual", decks=TWO_DECKS)
    result = _verify("dual", "--differential", "20", "--output-format", "json")
    assert result.exit_code == 0, result.output
    checks = [c for c in json.loads(result.output)["checks"] if c["name"] == "differential"]
    assert [(c["ok"], c["message"]) for c in checks] == [
        (True, "20 game(s) identical on both cores, event for event")]


def test_a_set_with_python_hooks_is_a_warning_naming_set_and_hook(fake_set: Any) -> None:
    fake_set("horog", python='''
        from hkk import hookimpl

        @hookimpl
        def prep_stage2(game):
            return []
    ''')
    result = _verify("horog", "--differential", "4")
    assert result.exit_code == 0, result.output
    assert "the native core refuses it" in result.output
    assert "horog" in result.output and "prep_stage2" in result.output
    assert "no game compared" in result.output


def test_a_difference_between_the_cores_fails_naming_seed_decks_and_event(
        fake_set: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_set("elter")
    real = hkk_native._core.play_native

    def planted(engine: Any, decks: Any, *, seed: int = 0, **options: Any) -> Any:
        """The native game of seed 13 with its fifth event's turn read wrongly."""
        game = real(engine, decks, seed=seed, **options)
        if seed != 13:
            return game
        log = game.log.as_dicts()
        log[4] = {**log[4], "turn": log[4]["turn"] + 1}
        monkeypatch.setattr(type(game.log), "as_dicts", lambda self: log)
        return game

    monkeypatch.setattr(hkk_native._core, "play_native", planted)
    result = _verify("elter", "--differential", "20", "--seed", "10")
    assert result.exit_code == 1, result.output
    assert "seed 13" in result.output and "elter:start vs elter:start" in result.output
    assert "at event 4" in result.output
    assert "native: {" in result.output and "python: {" in result.output


def test_differential_without_the_native_core_is_a_usage_error_saying_how_to_install_it(
        fake_set: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import hkk._verify_differential as differential
    from hkk._cores import core_entries

    fake_set("nincs")
    monkeypatch.setattr(differential, "core_entries", lambda: core_entries(entry_points=[]))
    result = _verify("nincs", "--differential", "3")
    assert result.exit_code == 2, result.output
    assert "pip install ./plugins/hkk-native" in result.output
