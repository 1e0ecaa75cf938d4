"""JSON Schemas of a set's data files (``hkk schema``): card files, ``set.toml``, deck files,
format files.

They are generated from the pydantic models, then post-processed for editors and validators:
pydantic writes a discriminated union as ``oneOf`` + ``discriminator``, an OpenAPI keyword that
JSON Schema validators ignore, so every error in a card reads "is not valid under any of the
given schemas".  :func:`tagged_unions_as_if_then` rewrites each such union into ``if``/``then``
on the tag (``kind`` for cards and abilities, ``do`` for effect primitives): the validator picks
the one branch the tag names and reports the field of that card kind that is wrong
(``cards[0].hp: '2' is not of type 'integer'``).  Being a rewrite of whatever pydantic emits,
it covers card kinds, ability kinds and primitives added later without a change here.

The models are strict (:mod:`hkk._cards.model`), so what the schema refuses the engine refuses.
"""

from __future__ import annotations

import copy
from typing import Any

from hkk._cards.loader import card_file_schema as _pydantic_card_file_schema
from hkk._cards.model import DeckFile
from hkk._formats import FormatFile
from hkk._sets.manifest import SetManifest

__all__ = ["SCHEMAS", "card_file_schema", "deck_file_schema", "format_file_schema",
           "set_file_schema", "tagged_unions_as_if_then"]

_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def tagged_unions_as_if_then(schema: Any) -> Any:
    """A copy of ``schema`` with every ``oneOf`` + ``discriminator`` made ``if``/``then``."""
    if isinstance(schema, list):
        return [tagged_unions_as_if_then(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    node = {key: tagged_unions_as_if_then(value) for key, value in schema.items()}
    _one_of_required_as_if_then(node)
    _number_or_table_as_if_then(node)
    discriminator = node.pop("discriminator", None)
    if discriminator is None or "oneOf" not in node:
        if discriminator is not None:
            node["discriminator"] = discriminator
        return node
    node.pop("oneOf")
    tag = discriminator["propertyName"]
    mapping: dict[str, str] = discriminator["mapping"]
    node.update({
        "type": "object",
        "required": [tag],
        # an unknown tag is named as such: "'dragon' is not one of ['building', 'creature', …]"
        "properties": {tag: {"enum": sorted(mapping)}},
        "allOf": [{"if": {"properties": {tag: {"const": value}}, "required": [tag]},
                   "then": {"$ref": ref}} for value, ref in sorted(mapping.items())],
    })
    return node


def _one_of_required_as_if_then(node: dict[str, Any]) -> None:
    """``oneOf: [{required: [a]}, {required: [b]}]`` (a field or its shorthand, e.g. ``effects``
    or ``effect``) as: without ``b``, ``a`` is required; with ``b``, ``a`` is not allowed - so a
    validator says "'effects' is a required property", not "not valid under any of ..."."""
    options = node.get("oneOf")
    if not (isinstance(options, list) and len(options) == 2 and
            all(set(o) == {"required"} and len(o["required"]) == 1 for o in options)):
        return
    (first,), (second,) = (o["required"] for o in node.pop("oneOf"))
    node.setdefault("allOf", []).extend([
        {"if": {"not": {"required": [second]}}, "then": {"required": [first]}},
        {"if": {"required": [second]}, "then": {"not": {"required": [first]}}},
    ])


def _number_or_table_as_if_then(node: dict[str, Any]) -> None:
    """``oneOf: [{type: integer}, {$ref: ...}]`` (an amount: a number or a count table,
    :mod:`hkk._cards.amounts`) as: a table is the ``$ref``, anything else the integer - so a
    validator says "'1' is not of type 'integer'"."""
    options = node.get("oneOf")
    if not (isinstance(options, list) and len(options) == 2):
        return
    numbers = [o for o in options if o.get("type") == "integer"]
    tables = [o for o in options if "$ref" in o]
    if len(numbers) == 1 and len(tables) == 1:
        del node["oneOf"]
        node.update({"if": {"type": "object"}, "then": tables[0], "else": numbers[0]})


def _document(schema: dict[str, Any], schema_id: str, title: str,
              description: str) -> dict[str, Any]:
    body = {key: value for key, value in schema.items()
            if key not in ("$schema", "$id", "title", "description")}
    return {"$schema": _DRAFT, "$id": schema_id, "title": title, "description": description,
            **tagged_unions_as_if_then(body)}


def card_file_schema() -> dict[str, Any]:
    """A ``cards/*.toml`` file: ``[[cards]]`` tables."""
    base = _pydantic_card_file_schema()
    return _document(base, base["$id"], base["title"], base["description"])


def deck_file_schema() -> dict[str, Any]:
    """A ``decks/*.toml`` file: ``[[decks]]`` tables."""
    return _document(DeckFile.model_json_schema(), "urn:hkk:schema:deck-file", "HKK deck file",
                     "A decks/*.toml file of a Hatalom Kártyái card set: [[decks]] tables.")


def set_file_schema() -> dict[str, Any]:
    """A set's ``set.toml``: one ``[set]`` table (:class:`hkk._sets.manifest.SetManifest`)."""
    manifest = copy.deepcopy(SetManifest.model_json_schema())
    defs = manifest.pop("$defs", {})
    wrapper: dict[str, Any] = {"type": "object", "additionalProperties": False,
                               "required": ["set"], "properties": {"set": manifest}}
    if defs:
        wrapper["$defs"] = defs
    return _document(wrapper, "urn:hkk:schema:set-file", "HKK set manifest (set.toml)",
                     "The set.toml of a Hatalom Kártyái card set: its [set] table.")


def format_file_schema() -> dict[str, Any]:
    """A ``formats/NAME.toml`` file: one ``[format]`` table (:mod:`hkk._formats`)."""
    return _document(FormatFile.model_json_schema(), "urn:hkk:schema:format-file",
                     "HKK deck format file",
                     "A formats/NAME.toml file of a Hatalom Kártyái card set: its [format] "
                     "table, the deck rules of the format <set code>:NAME.")


#: ``hkk schema KIND``: the schema of each kind of data file.
SCHEMAS = {"cards": card_file_schema, "set": set_file_schema, "decks": deck_file_schema,
           "formats": format_file_schema}
