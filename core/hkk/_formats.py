"""Deck formats: the deck rules a tournament publishes, shipped as data, and the check of a deck
against them (``hkk verify``'s deck-format check, ``hkk play`` / ``hkk simulate --format``).

A set (or a distribution of formats only) ships each format as ``formats/NAME.toml``; it is
named ``<set code>:NAME``::

    [format]
    title = "Kezdőpakli"
    min_cards = 30          # deck size, inclusive
    max_cards = 40
    max_copies = 2          # copies of one card name (reprints under other ids count together)
    sets = ["alap"]         # the legal sets; absent or empty: every set
    banned = []             # card ids no deck may hold
    restricted = []         # card ids a deck may hold one copy of

A deck names the formats it meets (``formats = ["alap:kezdo"]``); a deck naming none is held
to :func:`casual`, which every deck of installed cards meets.  Card data holds no colour, so a
format has no colour rule.  The Kódex itself sets no deck rules: these are the organisers'.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Self

from pydantic import BaseModel, Field, StringConstraints, ValidationError, model_validator

from hkk._cards.loader import _parse_toml, _toml_files
from hkk._cards.model import FORMAT_NAME_PATTERN
from hkk._cards.types import CONFIG, LIST_OK, MAX_DECK_SIZE, CardId, Text, invalid
from hkk._errors import CardDataError, DataProblem, HkkError

if TYPE_CHECKING:
    from hkk._cards.model import Card, Deck

__all__ = ["CASUAL", "FORMAT_NAME_PATTERN", "DeckFormat", "FormatFile", "FormatRules",
           "Violation", "casual", "claimed_formats", "describe_rules", "find_format", "gate",
           "load_set_formats", "parse_format_file", "unknown_cards", "violations"]

#: The format of a deck that names none.
CASUAL = "casual"
#: A set code, as :data:`hkk._sets.manifest.SET_CODE_PATTERN` (discovery is above this module;
#: a test keeps the two equal).
_SET_CODE = r"^[a-z][a-z0-9_]{1,31}$"
SetCode = Annotated[str, StringConstraints(pattern=_SET_CODE)]
_SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _no_repeats(field: str, values: tuple[str, ...]) -> None:
    repeated = sorted(value for value, n in Counter(values).items() if n > 1)
    if repeated:
        raise invalid(f"{field} names {', '.join(repeated)} more than once")


class FormatRules(BaseModel):
    """The ``[format]`` table of a format file.  Strict like card data: a count is an integer."""

    model_config = CONFIG

    title: Text = ""
    description: Text = ""
    min_cards: int = Field(1, ge=1, le=MAX_DECK_SIZE)
    max_cards: int = Field(MAX_DECK_SIZE, ge=1, le=MAX_DECK_SIZE)
    #: Copies of one card name; None: any number.
    max_copies: int | None = Field(None, ge=1, le=MAX_DECK_SIZE)
    #: The legal sets; empty: every set.
    sets: Annotated[tuple[SetCode, ...], LIST_OK] = ()
    banned: Annotated[tuple[CardId, ...], LIST_OK] = ()
    #: At most one copy each.
    restricted: Annotated[tuple[CardId, ...], LIST_OK] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.min_cards > self.max_cards:
            raise invalid(f"min_cards ({self.min_cards}) is more than max_cards "
                          f"({self.max_cards})")
        for field in ("sets", "banned", "restricted"):
            _no_repeats(field, getattr(self, field))
        both = sorted(set(self.banned) & set(self.restricted))
        if both:
            raise invalid(f"{', '.join(both)} both banned and restricted; say one")
        return self


class FormatFile(BaseModel):
    """One ``formats/NAME.toml`` file: a ``[format]`` table."""

    model_config = CONFIG

    format: FormatRules


@dataclass(frozen=True)
class DeckFormat:
    """A format by its name (``alap:kezdo``, ``casual``) and the file it came from."""

    name: str
    rules: FormatRules
    #: ``formats/kezdo.toml`` in the package of the set ``name`` starts with; "" for casual.
    file: str = ""


@functools.cache
def casual() -> DeckFormat:
    """The format of every deck that names none: any size the engine plays, any copies, every
    set, nothing banned.  A deck that wants a tournament's rules checked names its format."""
    return DeckFormat(CASUAL, FormatRules(
        title="Casual", description="Every deck of installed cards."))


# -- reading format files ----------------------------------------------------------------------

def parse_format_file(set_code: str, rel_path: str, text: str) -> DeckFormat:
    """One format file; ``rel_path`` (``formats/NAME.toml``) names it.  Raises CardDataError
    naming set, file and line: ``alap: formats/kezdo.toml: line 4: format.max_copies: ...``."""
    stem = rel_path.rpartition("/")[2].removesuffix(".toml")
    if not _SLUG.match(stem):
        raise _error(set_code, rel_path, [(None, "", f"format file name {stem!r} must be a "
                                                     "slug (a-z, 0-9, '-', '_'): it names the "
                                                     "format")])
    data = _parse_toml(set_code, rel_path, text)
    if not isinstance(data.get("format"), dict):
        raise _error(set_code, rel_path, [(None, "", "missing [format] table")])
    extra = sorted(set(data) - {"format"})
    if extra:
        line = _top_level_line(text, extra[0])
        raise _error(set_code, rel_path, [(line, "", f"unknown top-level keys {extra}; only "
                                                     "[format] is allowed")])
    try:
        parsed = FormatFile.model_validate(data)
    except ValidationError as exc:
        problems = [(_line(text, err["loc"]), _path(err["loc"]), err["msg"])
                    for err in exc.errors(include_url=False)]
        raise _error(set_code, rel_path, problems) from None
    return DeckFormat(f"{set_code}:{stem}", parsed.format, rel_path)


def load_set_formats(set_code: str, root: Traversable | Path) -> dict[str, DeckFormat]:
    """The formats a set ships, by name: ``formats/*.toml`` under its package ``root``.  A set
    without a ``formats`` folder ships none."""
    formats = [parse_format_file(set_code, rel_path, text)
               for rel_path, text in _toml_files(set_code, root, "formats")]
    return {f.name: f for f in formats}


def _path(loc: tuple[int | str, ...]) -> str:
    """``('format', 'banned', 1)`` -> ``format.banned[1]``, as card errors name a place."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)[1:]


def _line(text: str, loc: tuple[int | str, ...]) -> int | None:
    """The line of the key an error is about (``max_copies = 0``), else of the ``[format]``
    header; None if neither is found (e.g. a dotted key)."""
    lines = text.splitlines()
    header = next((n for n, line in enumerate(lines, 1)
                   if re.match(r"^\s*\[\s*format\s*\]", line)), None)
    if len(loc) >= 2 and isinstance(loc[1], str) and header is not None:
        name = re.escape(loc[1])
        key = re.compile(rf"^\s*(?:{name}|\"{name}\")\s*=|^\s*\[\s*format\.{name}\s*\]")
        for n, line in enumerate(lines[header:], header + 1):
            if key.match(line):
                return n
    return header


def _top_level_line(text: str, key: str) -> int | None:
    """The line of a top-level ``key = ...`` (before any table) or ``[key]`` table."""
    in_table = False
    for n, line in enumerate(text.splitlines(), 1):
        if re.match(rf"^\s*\[+\s*{re.escape(key)}\s*[.\]]", line):
            return n
        in_table = in_table or bool(re.match(r"^\s*\[", line))
        if not in_table and re.match(rf"^\s*{re.escape(key)}\s*[=.]", line):
            return n
    return None


def _error(set_code: str, rel_path: str,
           problems: list[tuple[int | None, str, str]]) -> CardDataError:
    """One error for ``(line, path, message)`` problems, the first in its message (the shape of
    card-file errors)."""
    lines = []
    for line, path, message in problems:
        where = "".join(part + ": " for part in (f"line {line}" if line else "", path) if part)
        lines.append(f"{set_code}: {rel_path}: {where}{message}")
    message = lines[0] + (f" (and {len(lines) - 1} more)" if len(lines) > 1 else "")
    first_line, path, _ = problems[0]
    return CardDataError(message, code=set_code, file=rel_path, field=path or None,
                         problems=tuple(DataProblem(rel_path, text, field=where or None,
                                                    line=line)
                                        for line, where, text in problems))


# -- checking a deck ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Violation:
    """One way a deck breaks a format.  ``kind``: ``size``, ``set``, ``banned``, ``restricted``,
    ``copies``, or ``unknown-format`` (the deck names a format no loaded set ships)."""

    kind: str
    message: str
    card: str | None = None

    def describe(self, deck: str, format_name: str) -> str:
        return f"deck {deck} breaks format {format_name} ({self.kind}): {self.message}"


def _name(card_id: str, cards: Mapping[str, Card]) -> str:
    card = cards.get(card_id)
    return f"{card.name} ({card_id})" if card is not None else card_id


def violations(fmt: DeckFormat, deck: Mapping[str, int] | Iterable[str],
               cards: Mapping[str, Card]) -> list[Violation]:
    """Every way ``deck`` (card id -> copies, or a list of card ids) breaks ``fmt``: its size,
    then each set that is not legal, each banned or restricted card, the copies of each name."""
    counts = Counter(deck) if not isinstance(deck, Mapping) else Counter(dict(deck))
    rules = fmt.rules
    found: list[Violation] = []
    size = sum(counts.values())
    if size < rules.min_cards:
        found.append(Violation("size", f"{size} cards, fewer than the {rules.min_cards} it "
                                       "needs"))
    elif size > rules.max_cards:
        found.append(Violation("size", f"{size} cards, more than the {rules.max_cards} it "
                                       "allows"))
    outside: dict[str, list[str]] = {}
    for card_id in sorted(counts):
        code = card_id.partition(":")[0]
        if rules.sets and code not in rules.sets:
            outside.setdefault(code, []).append(card_id)
    for code, ids in sorted(outside.items()):
        found.append(Violation("set", f"{len(ids)} card(s) of set {code}, which is not legal "
                                      f"(legal sets: {', '.join(rules.sets)}): "
                                      f"{', '.join(_name(i, cards) for i in ids)}", ids[0]))
    for card_id, copies in sorted(counts.items()):
        if card_id in rules.banned:
            found.append(Violation("banned", f"{_name(card_id, cards)} is banned", card_id))
        elif card_id in rules.restricted and copies > 1:
            found.append(Violation("restricted", f"{copies} copies of {_name(card_id, cards)}, "
                                                 "which is restricted to one", card_id))
    if rules.max_copies is not None:
        by_name: dict[str, list[str]] = {}
        for card_id in sorted(counts):
            card = cards.get(card_id)
            by_name.setdefault(card.name if card is not None else card_id, []).append(card_id)
        for name, ids in sorted(by_name.items()):
            copies = sum(counts[i] for i in ids)
            if copies > rules.max_copies:
                found.append(Violation("copies", f"{copies} copies of {name} "
                                                 f"({', '.join(ids)}), more than the "
                                                 f"{rules.max_copies} of a name it allows",
                                       ids[0]))
    return found


def find_format(name: str, formats: Mapping[str, DeckFormat]) -> DeckFormat:
    """The format named so: ``casual`` or one a loaded set ships; else an HkkError listing
    those known."""
    if name == CASUAL:
        return casual()
    if name in formats:
        return formats[name]
    raise HkkError(f"unknown format {name!r}; known formats: "
                   f"{', '.join([CASUAL, *sorted(formats)])}")


def claimed_formats(deck: Deck) -> tuple[str, ...]:
    """The formats a deck is held to: those it names (each once), else casual."""
    return tuple(dict.fromkeys(deck.formats)) or (CASUAL,)


def gate(lists: Mapping[str, list[str]], *, decks: Mapping[str, Deck],
         formats: Mapping[str, DeckFormat], cards: Mapping[str, Card],
         required: str | None) -> list[str]:
    """The check of ``hkk play`` and ``hkk simulate`` before any game, over the deck specs they
    play (spec -> card ids).  With ``required`` (``--format``) every deck must meet that format:
    an HkkError names each violation.  Without it, a deck named as such (``alap:tuz``) is held
    to the formats it names; what it breaks is returned, as warnings, and the games go on."""
    if required is not None:
        fmt = find_format(required, formats)
        refused = [_summary(spec, fmt.name, found) for spec, ids in lists.items()
                   if (found := violations(fmt, ids, cards))]
        if refused:
            raise HkkError("; ".join(refused))
        return []
    warnings = []
    for spec, ids in lists.items():
        deck = decks.get(spec)
        for name in deck.formats if deck is not None else ():
            try:
                fmt = find_format(name, formats)
            except HkkError as exc:
                warnings.append(f"deck {spec} names format {name}: {exc}")
                continue
            found = violations(fmt, ids, cards)
            if found:
                warnings.append(_summary(spec, name, found))
    return warnings


def _summary(deck: str, format_name: str, found: list[Violation]) -> str:
    """A deck's violations of a format in one line, for the command line."""
    return (f"deck {deck} breaks format {format_name}: "
            + "; ".join(f"({v.kind}) {v.message}" for v in found))


def describe_rules(fmt: DeckFormat) -> str:
    """``30-40 cards, at most 2 of a name, sets alap, 1 banned``: a format in a line."""
    rules = fmt.rules
    parts = [f"{rules.min_cards}-{rules.max_cards} cards"]
    if rules.max_copies is not None:
        parts.append(f"at most {rules.max_copies} of a name")
    if rules.sets:
        parts.append(f"sets {', '.join(rules.sets)}")
    if rules.banned:
        parts.append(f"{len(rules.banned)} banned")
    if rules.restricted:
        parts.append(f"{len(rules.restricted)} restricted")
    return ", ".join(parts)


def unknown_cards(fmt: DeckFormat, cards: Mapping[str, Any], loaded: Iterable[str]) -> list[str]:
    """Cards the format bans or restricts that a loaded set does not define (a typo): a card of
    a set not installed is not looked at."""
    codes = set(loaded)
    return [card_id for card_id in (*fmt.rules.banned, *fmt.rules.restricted)
            if card_id.partition(":")[0] in codes and card_id not in cards]

