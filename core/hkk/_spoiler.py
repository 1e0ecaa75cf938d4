"""``hkk verify CODE --against spoiler.csv|json``: the set's cards against its published card
list - every published card exists with the same name, kind, cost, stats and text, and no card
that is not published slipped in (the check publishers make by hand before printing).

A spoiler is CSV with a header row, or JSON (a list of objects, or ``{"cards": [...]}``), with
the columns ``id`` (required), ``name``, ``kind``, ``cost`` (VP), ``cost_components`` (the cost
in monster components), ``yield_components`` (a creature's monster components, those its
opponent may extract when it dies: ``components`` of a creature in ``hkk cards --json``),
``damage``, ``hp``, ``sp``, ``text``.  A column left out, or an empty cell, is not compared;
numbers are compared as numbers, text with its whitespace collapsed.  The old column
``components`` meant either, so it is refused with the two names to use instead.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any, NamedTuple

from hkk._errors import SpoilerError

__all__ = ["COLUMNS", "COLUMN_KEYS", "Mismatch", "SpoilerError", "compare", "read_spoiler",
           "row_lines"]

#: Column -> how to read it off a card definition.
COLUMNS = ("id", "name", "kind", "cost", "cost_components", "yield_components", "damage", "hp",
           "sp", "text")
_NUMBERS = {"cost", "cost_components", "yield_components", "damage", "hp", "sp"}
#: A column name that meant two things (issue 25).
_AMBIGUOUS = {"components": "'components' is ambiguous: write cost_components (the cost in "
                            "monster components) or yield_components (a creature's monster "
                            "components when it dies)"}


def read_spoiler(path: str | Path) -> list[dict[str, Any]]:
    """The published cards of a ``.csv`` or ``.json`` file, values typed, empty cells dropped."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise SpoilerError(f"{path}: cannot read it: {exc}") from None
    except UnicodeDecodeError as exc:
        raise SpoilerError(f"{path}: not UTF-8: {exc}") from None
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SpoilerError(f"{path}: not JSON: {exc}") from None
        except RecursionError:  # a spoiler is a flat list of card objects
            raise SpoilerError(f"{path}: nested too deeply to be a list of cards") from None
        rows = data.get("cards") if isinstance(data, dict) else data
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise SpoilerError(f"{path}: expected a list of card objects (or {{\"cards\": "
                               "[...]}})")
    elif path.suffix.lower() == ".csv":
        rows = list(csv.DictReader(io.StringIO(text)))
    else:
        raise SpoilerError(f"{path}: a spoiler is a .csv or .json file")
    cards = []
    for number, row in enumerate(rows, start=1):
        ambiguous = sorted(set(row) & set(_AMBIGUOUS))
        if ambiguous:
            raise SpoilerError(f"{path}: {_AMBIGUOUS[ambiguous[0]]}")
        unknown = sorted(set(row) - set(COLUMNS))
        if unknown:
            raise SpoilerError(f"{path}: card {number}: unknown column(s) {unknown}; known: "
                               f"{', '.join(COLUMNS)}")
        card: dict[str, Any] = {}
        for column, value in row.items():
            if value is None or value == "":
                continue
            if column in _NUMBERS:
                try:
                    value = int(value)
                except (TypeError, ValueError):
                    raise SpoilerError(f"{path}: card {number}: {column} {value!r} is not a "
                                       "whole number") from None
            card[column] = value if column in _NUMBERS else str(value)
        if "id" not in card:
            raise SpoilerError(f"{path}: card {number}: no id")
        cards.append(card)
    return cards


def _published_view(card: Any) -> dict[str, Any]:
    """The spoiler's columns, read off a card definition."""
    return {"id": card.id, "name": card.name, "kind": card.kind, "cost": card.cost.vp,
            "cost_components": card.cost.components,
            "yield_components": getattr(card, "components", None),
            "damage": getattr(card, "damage", None),
            "hp": getattr(card, "hp", None), "sp": getattr(card, "sp", None),
            "text": card.text}


def _same(column: str, published: Any, defined: Any) -> bool:
    if column == "text" or column == "name":
        return " ".join(str(published).split()) == " ".join(str(defined or "").split())
    return bool(published == defined)


class Mismatch(NamedTuple):
    """A difference between a set and its spoiler: the card, what differs, and where to look:
    ``column``, the card's value that differs; ``row``, the spoiler's row (0-based) for a
    problem of the spoiler itself."""

    card: str
    message: str
    column: str | None = None
    row: int | None = None


#: Where each column's value is in a card file (``hkk._cards.loader.CardPlace.line``).
COLUMN_KEYS = {"name": ("name",), "kind": ("kind",), "cost": ("cost", "vp"),
               "cost_components": ("cost", "components"), "yield_components": ("components",),
               "damage": ("damage",), "hp": ("hp",),
               "sp": ("sp",), "text": ("text",)}


def compare(cards: list[Any], spoiler: list[dict[str, Any]]) -> list[Mismatch]:
    """Each difference between a set's cards and its spoiler."""
    defined = {card.id: card for card in cards}
    problems: list[Mismatch] = []
    seen: set[str] = set()
    for row_index, row in enumerate(spoiler):
        card_id = row["id"]
        if card_id in seen:
            problems.append(Mismatch(card_id, f"{card_id} is listed twice in the spoiler",
                                     row=row_index))
            continue
        seen.add(card_id)
        card = defined.get(card_id)
        if card is None:
            problems.append(Mismatch(card_id, f"published card {card_id} is not in the set",
                                     row=row_index))
            continue
        view = _published_view(card)
        for column in COLUMNS[1:]:
            if column in row and not _same(column, row[column], view[column]):
                if column == "text":  # as hkk verify's card-text check says it
                    problems.append(Mismatch(card_id, f"{card_id}: the printed text differs: in "
                                             f"the set {view[column]!r}, in the spoiler "
                                             f"{row[column]!r}", column))
                    continue
                problems.append(Mismatch(card_id, f"{card_id}: {column} is {view[column]!r} in "
                                         f"the set, {row[column]!r} in the spoiler", column))
    for card_id in sorted(set(defined) - seen):
        problems.append(Mismatch(card_id, f"{card_id} is in the set but not in the spoiler "
                                          "(unpublished)"))
    return problems


def row_lines(path: str | Path, spoiler: list[dict[str, Any]]) -> list[int | None]:
    """The line of each row of the spoiler ``read_spoiler(path)`` read (None where it cannot
    be told): a CSV row's line, a JSON card's ``"id"``."""
    text = Path(path).read_text(encoding="utf-8-sig")
    if Path(path).suffix.lower() == ".csv":
        reader = csv.reader(io.StringIO(text))
        next(reader, None)  # the header
        ends = []
        for fields in reader:
            if fields:  # DictReader skips empty rows too
                ends.append(reader.line_num)  # a row's last line: its only one, mostly
        return [ends[i] if i < len(ends) else None for i in range(len(spoiler))]
    lines: list[int | None] = []
    start = 0
    for row in spoiler:
        found = None
        for ascii_only in (False, True):
            value = re.escape(json.dumps(row["id"], ensure_ascii=ascii_only))
            found = re.compile(r'"id"\s*:\s*' + value).search(text, start)
            if found:
                break
        lines.append(text.count("\n", 0, found.start()) + 1 if found else None)
        start = found.end() if found else start
    return lines
