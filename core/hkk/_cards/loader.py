"""Reading a set's card and deck TOML files into the models of :mod:`hkk._cards.model`.

Every problem is a :class:`hkk.CardDataError` that names the set, the file (relative to
the set package), the place in the file and what is wrong, e.g.
``alap: cards/creatures.toml: cards[3].hp: Input should be greater than 0``.
"""

from __future__ import annotations

import re
import tomllib
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from hkk._cards.model import Card, CardFile, Deck, DeckFile
from hkk._datafile import DataFileError, parse_toml, read_text
from hkk._errors import CardDataError

#: ``$id`` of the exported JSON Schema of card files.
CARD_FILE_SCHEMA_ID = "urn:hkk:schema:card-file"

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: Tags pydantic puts in an error's location after a discriminated union member ("creature",
#: "activated", "draw", ...).  They are not in the file, so they are left out of the path.
_TAG_KEYS = ("kind", "do")


def parse_card_file(set_code: str, rel_path: str, text: str) -> list[Card]:
    """Parse and validate one card file; ``rel_path`` is only used in error messages."""
    data = _parse_toml(set_code, rel_path, text)
    return parse_card_data(set_code, rel_path, data)


def parse_card_data(set_code: str, rel_path: str, data: Any) -> list[Card]:
    """Validate already-parsed card data (the TOML document as a dict)."""
    cards = list(_validate(CardFile, set_code, rel_path, data).cards)
    problems: list[tuple[str, str | None, str]] = []
    first_index: dict[str, int] = {}
    for index, card in enumerate(cards):
        # Card ids are namespaced by the set that defines them (design: sets and plugins).
        if card.set_code != set_code:
            problems.append((f"cards[{index}].id", card.id,
                             f"card id '{card.id}' must start with '{set_code}:'"))
        if card.id in first_index:
            problems.append((f"cards[{index}].id", card.id,
                             f"duplicate card id '{card.id}' (first at "
                             f"cards[{first_index[card.id]}])"))
        else:
            first_index[card.id] = index
    if problems:
        raise _error(set_code, rel_path, problems)
    return cards


def load_set_cards(set_code: str, root: Traversable | Path) -> list[Card]:
    """All cards of a set: ``cards/*.toml`` under the set package ``root``, files in name order.
    A set without a ``cards`` folder has no cards."""
    cards: list[Card] = []
    defined_in: dict[str, str] = {}
    for rel_path, text in _toml_files(set_code, root, "cards"):
        for index, card in enumerate(parse_card_file(set_code, rel_path, text)):
            if card.id in defined_in:
                raise _error(set_code, rel_path, [(
                    f"cards[{index}].id", card.id,
                    f"duplicate card id '{card.id}', already defined in {defined_in[card.id]}",
                )])
            defined_in[card.id] = rel_path
            cards.append(card)
    return cards


def load_set_decks(set_code: str, root: Traversable | Path,
                   known_ids: set[str] | None = None) -> dict[str, Deck]:
    """All decks of a set by name: ``decks/*.toml`` under ``root``, files in name order.  With
    ``known_ids``, every card a deck names must be among them."""
    decks: dict[str, Deck] = {}
    defined_in: dict[str, str] = {}
    for rel_path, text in _toml_files(set_code, root, "decks"):
        data = _parse_toml(set_code, rel_path, text)
        problems: list[tuple[str, str | None, str]] = []
        for index, deck in enumerate(_validate(DeckFile, set_code, rel_path, data).decks):
            if deck.name in decks:
                where = "this file" if defined_in[deck.name] == rel_path else defined_in[deck.name]
                problems.append((f"decks[{index}].name", None,
                                 f"duplicate deck name '{deck.name}', already defined in {where}"))
                continue
            if known_ids is not None:
                for card_id in deck.cards:
                    if card_id not in known_ids:
                        problems.append((f"decks[{index}].cards[\"{card_id}\"]", card_id,
                                         f"deck '{deck.name}' names unknown card '{card_id}'"))
            decks[deck.name] = deck
            defined_in[deck.name] = rel_path
        if problems:
            raise _error(set_code, rel_path, problems)
    return decks


def card_file_schema() -> dict[str, Any]:
    """JSON Schema of card files, for editors (exported by ``hkk schema``)."""
    schema = CardFile.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": CARD_FILE_SCHEMA_ID,
        "title": "HKK card file",
        **{key: value for key, value in schema.items() if key not in ("title", "description")},
        "description": "A cards/*.toml file of a Hatalom Kártyái card set: [[cards]] tables.",
    }


# -- helpers -----------------------------------------------------------------------------------

def _toml_files(set_code: str, root: Traversable | Path, folder: str) -> list[tuple[str, str]]:
    directory = root / folder
    if not directory.is_dir():
        return []
    files = sorted((entry for entry in directory.iterdir()
                    if entry.name.endswith(".toml") and entry.is_file()),
                   key=lambda entry: entry.name)
    return [(f"{folder}/{entry.name}", _read(set_code, root, entry, f"{folder}/{entry.name}"))
            for entry in files]


def _read(set_code: str, root: Traversable | Path, entry: Traversable | Path,
          rel_path: str) -> str:
    try:
        return read_text(root, entry)
    except (DataFileError, OSError) as exc:
        raise CardDataError(f"{set_code}: {rel_path}: {exc}", code=set_code,
                            file=rel_path) from None


def _parse_toml(set_code: str, rel_path: str, text: str) -> dict[str, Any]:
    try:
        return parse_toml(text)
    except DataFileError as exc:
        raise CardDataError(f"{set_code}: {rel_path}: {exc}", code=set_code,
                            file=rel_path) from None
    except tomllib.TOMLDecodeError as exc:
        # tomllib puts the position at the end of its message: "... (at line 3, column 5)".
        message = str(exc)
        line = text.count("\n") + 1
        where = f"line {line}"
        match = re.search(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$", message)
        if match:
            message = message[:match.start()]
            if match[1]:
                line = int(match[1])
                where = f"line {line}, column {match[2]}"
            else:
                where = f"line {line} (end of file)"
        error = CardDataError(f"{set_code}: {rel_path}: {where}: invalid TOML: {message}",
                              code=set_code, file=rel_path)
        error.line = line  # type: ignore[attr-defined]
        error.errors = [str(error)]  # type: ignore[attr-defined]
        raise error from None


def _validate(model: Any, set_code: str, rel_path: str, data: Any) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = [(_location(error["loc"], data), _card_id(error["loc"], data), error["msg"])
                    for error in exc.errors(include_url=False)]
        raise _error(set_code, rel_path, problems) from None


def _error(set_code: str, rel_path: str,
           problems: list[tuple[str, str | None, str]]) -> CardDataError:
    """One error for a list of ``(path, card id, message)``, the first one in the message."""
    lines = [f"{set_code}: {rel_path}: {path}: {message}" if path
             else f"{set_code}: {rel_path}: {message}" for path, _, message in problems]
    message = lines[0] + (f" (and {len(lines) - 1} more)" if len(lines) > 1 else "")
    path, card, _ = problems[0]
    error = CardDataError(message, code=set_code, file=rel_path, card=card, field=path or None)
    error.errors = lines  # type: ignore[attr-defined]
    return error


def _location(loc: tuple[int | str, ...], data: Any) -> str:
    """``('cards', 3, 'creature', 'hp')`` -> ``cards[3].hp``, following the input ``data`` to
    recognise union tags (which are not in the file) and leave them out."""
    path = ""
    node = data
    shorthand = False
    for segment in loc:
        if isinstance(segment, int):
            if not shorthand:
                path += f"[{segment}]"
            shorthand = False
            node = node[segment] if isinstance(node, list) and segment < len(node) else None
            continue
        if segment.startswith("#"):
            continue  # a tag of a callable discriminator (hkk._cards.amounts)
        if isinstance(node, dict):
            if segment not in node and any(node.get(key) == segment for key in _TAG_KEYS):
                continue  # a union tag
            if segment == "effects" and "effects" not in node and "effect" in node:
                # The file wrote `effect = {...}`: name it so, without the index `effects[0]`.
                segment, shorthand, node = "effect", True, [node["effect"]]
            else:
                node = node.get(segment)
        else:
            node = None
        if segment == "[key]":  # pydantic's marker for an invalid dict key
            path += "[key]"
        elif _IDENTIFIER.match(segment):
            path += f".{segment}" if path else segment
        else:
            path += f"[\"{segment}\"]"
    return path


def _card_id(loc: tuple[int | str, ...], data: Any) -> str | None:
    """The id of the card an error is in, if the error is inside a card with a readable id."""
    if len(loc) >= 2 and loc[0] == "cards" and isinstance(loc[1], int) and isinstance(data, dict):
        cards = data.get("cards")
        if isinstance(cards, list) and loc[1] < len(cards) and isinstance(cards[loc[1]], dict):
            card_id = cards[loc[1]].get("id")
            return card_id if isinstance(card_id, str) else None
    return None
