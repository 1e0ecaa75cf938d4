"""``hkk schema``: JSON Schemas whose errors name the field, and that agree with the engine.

Issue 13: a validator's error for a bad card must say which field of which card kind is wrong
(not "is not valid under any of the given schemas"), and a value the schema refuses must be
refused by the engine too (strict types: ``hp = "2"`` is not coerced)."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from hkk._cards.loader import parse_card_data
from hkk._cards.model import DeckFile
from hkk._errors import CardDataError
from hkk._schema import card_file_schema, deck_file_schema, set_file_schema
from hkk._sets.manifest import parse_manifest
from hkk.cli import main

ROOT = Path(__file__).resolve().parents[1]
SET_DIRS = [ROOT / "sets" / "alap" / "src" / "hkk_set_alap",
            ROOT / "sets" / "mereg" / "src" / "hkk_set_mereg"]

CREATURE = {"id": "alap:proba", "name": "Próba", "kind": "creature", "damage": 1, "hp": 2,
            "abilities": [{"kind": "automatic", "timing": "end_stage2",
                           "effect": {"do": "heal", "amount": 1, "target": "controller"}}]}


def _validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _best(schema: dict[str, Any], data: Any) -> jsonschema.ValidationError | None:
    return jsonschema.exceptions.best_match(_validator(schema).iter_errors(data))


def _with(path: list[Any], value: Any) -> dict[str, Any]:
    card = copy.deepcopy(CREATURE)
    node: Any = card
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return {"cards": [card]}


def _engine_refuses(data: dict[str, Any]) -> str | None:
    try:
        parse_card_data("alap", "cards/t.toml", data)
    except CardDataError as exc:
        return str(exc)
    return None


# Each: where in the card, the bad value, the JSON path the schema's error must name.
BAD_FIELDS = [
    (["hp"], "2", "$.cards[0].hp"),
    (["hp"], True, "$.cards[0].hp"),
    (["damage"], -1, "$.cards[0].damage"),
    (["kind"], "dragon", "$.cards[0].kind"),
    (["wings"], 2, "$.cards[0]"),
    (["abilities", 0, "timing"], "noon", "$.cards[0].abilities[0].timing"),
    (["abilities", 0, "optional"], 1, "$.cards[0].abilities[0].optional"),
    (["abilities", 0, "effect", "amount"], "1", "$.cards[0].abilities[0].effect.amount"),
    (["abilities", 0, "effect", "do"], "explode", "$.cards[0].abilities[0].effect.do"),
]


def test_schema_is_valid_and_every_shipped_file_passes() -> None:
    cards, decks, sets = (_validator(s()) for s in (card_file_schema, deck_file_schema,
                                                     set_file_schema))
    for folder in SET_DIRS:
        for path in sorted((folder / "cards").glob("*.toml")):
            assert not list(cards.iter_errors(tomllib.loads(path.read_text("utf-8")))), path
        for path in sorted((folder / "decks").glob("*.toml")):
            assert not list(decks.iter_errors(tomllib.loads(path.read_text("utf-8")))), path
        assert not list(sets.iter_errors(tomllib.loads((folder / "set.toml").read_text("utf-8"))))


def test_schema_has_no_discriminator_left() -> None:
    # The OpenAPI keyword validators ignore; every tagged union is if/then on its tag.
    for schema in (card_file_schema(), deck_file_schema(), set_file_schema()):
        assert '"discriminator"' not in json.dumps(schema)
    text = json.dumps(card_file_schema())
    assert '"if": {"properties": {"kind": {"const": "creature"}}' in text
    assert '"if": {"properties": {"do": {"const": "damage"}}' in text


@pytest.mark.parametrize(("path", "value", "where"), BAD_FIELDS,
                         ids=[".".join(map(str, p)) + "=" + repr(v) for p, v, _ in BAD_FIELDS])
def test_bad_card_error_names_its_field_and_engine_agrees(
        path: list[Any], value: Any, where: str) -> None:
    data = _with(path, value)
    error = _best(card_file_schema(), data)
    assert error is not None, "the schema accepted it"
    assert error.json_path == where, (error.json_path, error.message)
    assert "is not valid under any of the given schemas" not in error.message
    assert _engine_refuses(data) is not None, "the engine accepted what the schema refuses"


def test_good_card_passes_both() -> None:
    data = {"cards": [CREATURE]}
    assert _best(card_file_schema(), data) is None
    assert _engine_refuses(data) is None


def test_strict_types_engine_refuses_string_numbers_but_takes_lists() -> None:
    message = _engine_refuses(_with(["hp"], "2"))
    assert message is not None and "cards[0].hp" in message and "valid integer" in message
    # TOML gives lists where the models keep tuples: lists are fine, their items strict.
    deck = DeckFile.model_validate({"decks": [{"name": "d", "cards": {"alap:proba": 2}}]})
    assert deck.decks[0].cards == {"alap:proba": 2}
    with pytest.raises(ValueError, match=r"set\.depends.*valid string"):
        parse_manifest('[set]\ncode = "abc"\nname = "A"\nversion = "1.0"\nrequires = ">=1"\n'
                       "depends = [1]\n")
    with pytest.raises(ValueError, match=r"set\.python.*valid boolean"):
        parse_manifest('[set]\ncode = "abc"\nname = "A"\nversion = "1.0"\nrequires = ">=1"\n'
                       'python = "yes"\n')


def test_set_and_deck_schemas_name_the_field() -> None:
    error = _best(set_file_schema(), {"set": {"code": "abc", "name": "A", "version": "1.0",
                                              "requires": ">=1", "python": "yes"}})
    assert error is not None and error.json_path == "$.set.python"
    error = _best(deck_file_schema(), {"decks": [{"name": "d", "cards": {"alap:x": "2"}}]})
    assert error is not None and error.json_path == "$.decks[0].cards['alap:x']"


def test_cli_schema_kinds(tmp_path: Path) -> None:
    runner = CliRunner()
    for kind, schema_id in (("cards", "urn:hkk:schema:card-file"),
                            ("set", "urn:hkk:schema:set-file"),
                            ("decks", "urn:hkk:schema:deck-file")):
        result = runner.invoke(main, ["schema", kind])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["$id"] == schema_id
    assert json.loads(runner.invoke(main, ["schema"]).output)["$id"] == "urn:hkk:schema:card-file"


def test_ability_without_effects_names_the_missing_field() -> None:
    ability = {"kind": "automatic", "timing": "end_stage2"}
    card = {**CREATURE, "abilities": [ability]}
    error = _best(card_file_schema(), {"cards": [card]})
    assert error is not None and error.json_path == "$.cards[0].abilities[0]"
    assert error.message == "'effects' is a required property"
    both = {**ability, "effects": [{"do": "heal", "amount": 1, "target": "controller"}],
            "effect": {"do": "heal", "amount": 1, "target": "controller"}}
    assert _best(card_file_schema(), {"cards": [{**CREATURE, "abilities": [both]}]}) is not None
    assert _engine_refuses({"cards": [card]}) is not None
    assert _engine_refuses({"cards": [{**CREATURE, "abilities": [both]}]}) is not None

