"""Reading a set's card and deck TOML files into the models of :mod:`hkk._cards.model`.

Every problem is a :class:`hkk.CardDataError` that names the set, the file (relative to
the set package), the place in the file and what is wrong, e.g.
``alap: cards/creatures.toml: cards[3].hp: Input should be greater than 0``: all the problems
of a file at once, each a :class:`hkk._errors.DataProblem` with its line (issue 24 item 11).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from hkk._cards.model import Card, CardFile, Deck, DeckFile
from hkk._datafile import DataFileError, parse_toml, read_text
from hkk._errors import CardDataError, DataProblem
from hkk._toml_lines import KeyPath, key_lines, line_of

#: ``$id`` of the exported JSON Schema of card files.
CARD_FILE_SCHEMA_ID = "urn:hkk:schema:card-file"

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: Tags pydantic puts in an error's location after a discriminated union member ("creature",
#: "activated", "draw", ...).  They are not in the file, so they are left out of the path.
_TAG_KEYS = ("kind", "do")
#: pydantic's last location segment for an invalid dict key.
_KEY_MARK = "[key]"

#: A problem found in a file: the path of its key in the file, the card's id, the message.
_Problem = tuple[KeyPath, str | None, str]


def parse_card_file(set_code: str, rel_path: str, text: str) -> list[Card]:
    """Parse and validate one card file; ``rel_path`` is only used in error messages."""
    data = _parse_toml(set_code, rel_path, text)
    return parse_card_data(set_code, rel_path, data, text)


def parse_card_data(set_code: str, rel_path: str, data: Any,
                    text: str | None = None) -> list[Card]:
    """Validate already-parsed card data (the TOML document as a dict); with the file's
    ``text``, its problems carry their lines."""
    cards = list(_validate(CardFile, set_code, rel_path, data, text).cards)
    problems: list[_Problem] = []
    first_index: dict[str, int] = {}
    for index, card in enumerate(cards):
        # Card ids are namespaced by the set that defines them (design: sets and plugins).
        if card.set_code != set_code:
            problems.append((("cards", index, "id"), card.id,
                             f"card id '{card.id}' must start with '{set_code}:'"))
        if card.id in first_index:
            problems.append((("cards", index, "id"), card.id,
                             f"duplicate card id '{card.id}' (first at "
                             f"cards[{first_index[card.id]}])"))
        else:
            first_index[card.id] = index
    if problems:
        raise _error(set_code, rel_path, problems, text)
    return cards


def load_set_cards(set_code: str, root: Traversable | Path) -> list[Card]:
    """All cards of a set: ``cards/*.toml`` under the set package ``root``, files in name order.
    A set without a ``cards`` folder has no cards."""
    cards: list[Card] = []
    defined_in: dict[str, str] = {}
    with _on_disk(root):
        for rel_path, text in _toml_files(set_code, root, "cards"):
            problems: list[_Problem] = []
            for index, card in enumerate(parse_card_file(set_code, rel_path, text)):
                if card.id in defined_in:
                    problems.append((("cards", index, "id"), card.id,
                                     f"duplicate card id '{card.id}', already defined in "
                                     f"{defined_in[card.id]}"))
                    continue
                defined_in[card.id] = rel_path
                cards.append(card)
            if problems:
                raise _error(set_code, rel_path, problems, text)
    return cards


def load_set_decks(set_code: str, root: Traversable | Path,
                   known_ids: set[str] | None = None) -> dict[str, Deck]:
    """All decks of a set by name: ``decks/*.toml`` under ``root``, files in name order.  With
    ``known_ids``, every card a deck names must be among them."""
    decks: dict[str, Deck] = {}
    defined_in: dict[str, str] = {}
    with _on_disk(root):
        for rel_path, text in _toml_files(set_code, root, "decks"):
            data = _parse_toml(set_code, rel_path, text)
            problems: list[_Problem] = []
            for index, deck in enumerate(_validate(DeckFile, set_code, rel_path, data,
                                                   text).decks):
                if deck.name in decks:
                    where = "this file" if defined_in[deck.name] == rel_path \
                        else defined_in[deck.name]
                    problems.append((("decks", index, "name"), None,
                                     f"duplicate deck name '{deck.name}', already defined in "
                                     f"{where}"))
                    continue
                if known_ids is not None:
                    for card_id in deck.cards:
                        if card_id not in known_ids:
                            problems.append((("decks", index, "cards", card_id), card_id,
                                             f"deck '{deck.name}' names unknown card "
                                             f"'{card_id}'"))
                decks[deck.name] = deck
                defined_in[deck.name] = rel_path
            if problems:
                raise _error(set_code, rel_path, problems, text)
    return decks


@dataclass(frozen=True)
class CardPlace:
    """Where a card is defined: its file (relative to the set's package, and on disk if the
    package is a folder), its index in the file and the lines of the file's keys."""

    file: str
    source: str | None
    index: int
    lines: dict[KeyPath, int]

    def line(self, *keys: str) -> int:
        """The line of one of the card's keys (``"cost", "vp"``), else of the card."""
        return line_of(self.lines, ("cards", self.index, *keys))


def card_places(set_code: str, root: Traversable | Path) -> dict[str, CardPlace]:
    """Where each card of a (loaded) set is defined, for messages that point at it: the card
    files are read again, so this is for a report, not for a game."""
    places: dict[str, CardPlace] = {}
    for rel_path, text in _toml_files(set_code, root, "cards"):
        data = _parse_toml(set_code, rel_path, text)
        lines = key_lines(text)
        source = _source(root, rel_path)
        for index, card in enumerate(data.get("cards", [])):
            if isinstance(card, dict) and isinstance(card.get("id"), str):
                places.setdefault(card["id"], CardPlace(rel_path, source, index, lines))
    return places


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
        raise CardDataError(f"{set_code}: {rel_path}: {exc}", code=set_code, file=rel_path,
                            problems=(DataProblem(rel_path, str(exc)),)) from None


def _parse_toml(set_code: str, rel_path: str, text: str) -> dict[str, Any]:
    try:
        return parse_toml(text)
    except DataFileError as exc:
        raise CardDataError(f"{set_code}: {rel_path}: {exc}", code=set_code, file=rel_path,
                            problems=(DataProblem(rel_path, str(exc)),)) from None
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
        problem = DataProblem(rel_path, f"{where}: invalid TOML: {message}", line=line)
        raise CardDataError(f"{set_code}: {problem}", code=set_code, file=rel_path,
                            problems=(problem,)) from None


def _validate(model: Any, set_code: str, rel_path: str, data: Any, text: str | None) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = [(_file_path(error["loc"], data), _card_id(error["loc"], data), error["msg"])
                    for error in exc.errors(include_url=False)]
        raise _error(set_code, rel_path, problems, text) from None


def _error(set_code: str, rel_path: str, problems: list[_Problem],
           text: str | None) -> CardDataError:
    """One error for all the problems of a file, a line of the message each."""
    lines = key_lines(text) if text is not None else None
    found = tuple(DataProblem(rel_path, message, _path_text(path) or None,
                              None if lines is None else line_of(lines, path), card)
                  for path, card, message in problems)
    first = found[0]
    return CardDataError("\n".join(f"{set_code}: {problem}" for problem in found),
                         code=set_code, file=rel_path, card=first.card, field=first.field,
                         problems=found)


def _file_path(loc: tuple[int | str, ...], data: Any) -> KeyPath:
    """pydantic's ``('cards', 3, 'creature', 'hp')`` -> the path in the file,
    ``('cards', 3, 'hp')``, following the input ``data`` to recognise union tags (which are not
    in the file) and leave them out."""
    path: KeyPath = ()
    node = data
    shorthand = False
    for segment in loc:
        if isinstance(segment, int):
            if not shorthand:
                path += (segment,)
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
        path += (segment,)
    return path


def _path_text(path: KeyPath) -> str:
    """``('cards', 3, 'hp')`` -> ``cards[3].hp``."""
    text = ""
    for segment in path:
        if isinstance(segment, int):
            text += f"[{segment}]"
        elif segment == _KEY_MARK:  # an invalid dict key
            text += _KEY_MARK
        elif _IDENTIFIER.match(segment):
            text += f".{segment}" if text else segment
        else:
            text += f"[\"{segment}\"]"
    return text


def _source(root: Traversable | Path, rel_path: str) -> str | None:
    """The file on disk, if the set's package is a folder (it is, unless zipped)."""
    return str(root / rel_path) if isinstance(root, Path) else None


@contextmanager
def _on_disk(root: Traversable | Path) -> Iterator[None]:
    """The problems of a CardDataError raised inside name their file on disk too."""
    try:
        yield
    except CardDataError as exc:
        exc.problems = tuple(replace(problem, source=_source(root, problem.file))
                             for problem in exc.problems)
        raise


def _card_id(loc: tuple[int | str, ...], data: Any) -> str | None:
    """The id of the card an error is in, if the error is inside a card with a readable id."""
    if len(loc) >= 2 and loc[0] == "cards" and isinstance(loc[1], int) and isinstance(data, dict):
        cards = data.get("cards")
        if isinstance(cards, list) and loc[1] < len(cards) and isinstance(cards[loc[1]], dict):
            card_id = cards[loc[1]].get("id")
            return card_id if isinstance(card_id, str) else None
    return None
