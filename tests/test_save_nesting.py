"""A save is read within bounds: one nested deeper than any save can be (200,000 levels of
arrays) is one clear error - ``hkk replay`` and ``hkk play --load`` exit 2 naming the file,
``load_game`` and ``hkk serve``'s load raise a SaveError - never a RecursionError."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hkk import Engine
from hkk._datafile import MAX_JSON_NESTING
from hkk._saving import FORMAT, SaveError, load_game, parse_save
from hkk.cli import main

DEEP = 200_000
TOO_DEEP = f"not an hkk save ({FORMAT}): nested deeper than {MAX_JSON_NESTING} levels"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("save") / "game.json"
    result = CliRunner().invoke(main, ["play", "--seed", "1", "--max-turns", "3", "-q",
                                       "--save", str(path)])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _deep_text(save: dict[str, Any]) -> str:
    """The save with an array nested DEEP levels in a field of its log (the validator reads
    any value there)."""
    text = json.dumps(save)
    assert text.endswith("}")
    return text[:-1] + ', "extra": ' + "[" * DEEP + "]" * DEEP + "}"


def _deep_value() -> list[Any]:
    value: list[Any] = []
    for _ in range(DEEP):
        value = [value]
    return value


@pytest.mark.parametrize("command", [["replay"], ["play", "--load"]])
def test_a_save_nested_too_deep_is_a_usage_error_naming_the_file(
        tmp_path: Path, saved: dict[str, Any], command: list[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text(_deep_text(saved), encoding="utf-8")
    result = CliRunner().invoke(main, [*command, str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "RecursionError" not in result.output
    assert TOO_DEEP in " ".join(result.output.split())
    assert str(path) in " ".join(result.output.split())


def test_load_game_and_parse_save_refuse_a_too_deep_save_as_data_or_text(
        saved: dict[str, Any]) -> None:
    engine = Engine.installed(allow=list(saved["sets"]))
    deep = {**saved, "log": [{**saved["log"][0], "extra": _deep_value()}, *saved["log"][1:]]}
    for data in (deep, _deep_text(saved), _deep_text(saved).encode()):
        with pytest.raises(SaveError, match=TOO_DEEP.replace("(", r"\(").replace(")", r"\)")):
            parse_save(data)
    with pytest.raises(SaveError, match="nested deeper than"):
        load_game(engine, deep)
    load_game(engine, saved)  # the save itself loads


def test_serves_load_of_a_too_deep_save_is_an_error_naming_it() -> None:
    from hkk._agents import RandomAgent
    from hkk._serve import Table
    from hkk._serve_watch import CardSets

    table = Table(CardSets(), ["alap:tuz", "alap:viz"], "random",
                  lambda seed, seat: RandomAgent(), seed=3)
    own = table.game.save()  # a game a person plays: what /api/load takes
    deep = {**own, "state": {**own["state"], "extra": _deep_value()}}
    with pytest.raises(SaveError, match="nested deeper than"):
        table.load(deep)
    table.load(own)
