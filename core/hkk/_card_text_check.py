"""``hkk verify``'s ``card-text`` check: every card's printed ``text`` says what its data does.

The text generated from the data (:mod:`hkk._cards.printed`) and the printed one are compared
after normalising case, punctuation, whitespace and reminder text in parentheses; a card whose
two texts differ fails the check, named with its file, line and both texts.  A card with
``text_checked = false`` is left out and counted, and so is a card with no printed text (it
promises nothing); one whose data has no template (a custom effect) fails until it says so.
:func:`card_locations` finds where a card is written (the spoiler check names it too).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hkk._cards.printed import NoTemplate, card_text, normalised
from hkk._verify_report import Check

__all__ = ["WRITE_TEXTS", "TextFix", "card_locations", "card_text_checks", "text_fixes"]

#: The command that writes the generated texts into a set's card files (``--diff``: a patch).
WRITE_TEXTS = "hkk write-texts {code}"

_ID_LINE = re.compile(r'^\s*id\s*=\s*"([^"]+)"')
_TEXT_LINE = re.compile(r"^\s*text\s*=")
_CARD_TABLE = re.compile(r"^\s*\[\[cards\]\]")


def card_locations(s: Any) -> dict[str, tuple[str, int]]:
    """card id -> (its file, the line of its ``text`` - or of its ``id`` if it has none), for
    the cards of the loaded set ``s`` (read from its ``cards/*.toml``)."""
    found: dict[str, tuple[str, int]] = {}
    folder = s.root / "cards"
    if not folder.is_dir():
        return found
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        shown = _shown_path(entry)
        card = None
        for number, line in enumerate(entry.read_text(encoding="utf-8").splitlines(), 1):
            if _CARD_TABLE.match(line):
                card = None
            elif (match := _ID_LINE.match(line)) and card is None:
                card = match.group(1)
                found.setdefault(card, (shown, number))
            elif card is not None and _TEXT_LINE.match(line):
                found[card] = (shown, number)
    return found


class TextFix:
    """One card file with the generated texts written in: its path, its text before and after,
    the cards rewritten, and those whose printed text could not be (with why)."""

    __slots__ = ("path", "before", "after", "cards", "left")

    def __init__(self, path: Path, before: str) -> None:
        self.path = path
        self.before = before
        self.after = before
        self.cards: list[str] = []
        self.left: list[str] = []


def text_fixes(s: Any) -> list[TextFix]:
    """For each card file of the set ``s`` whose printed texts disagree with their data, the
    file with the generated texts in their place (a card's own ``text = "..."`` line, before
    its sub-tables); a text on several lines, or data without a template, is left and named."""
    wrong = {card.id: card for card in s.cards if card.text_checked and card.text
             and not _agrees(card)}
    fixes = []
    folder = Path(str(s.root)) / "cards"
    for path in sorted(folder.glob("*.toml")) if wrong else ():
        fix = TextFix(path, path.read_text(encoding="utf-8"))
        lines = fix.before.splitlines(keepends=True)
        card: str | None = None
        for number, line in enumerate(lines):
            if _CARD_TABLE.match(line):
                card = None
            elif line.lstrip().startswith("["):  # a sub-table: the card's own fields are over
                card = None if card is None else ""
            elif (match := _ID_LINE.match(line)) and card is None:
                card = match.group(1)
            elif card in wrong and _TEXT_LINE.match(line):
                _rewrite(fix, lines, number, wrong.pop(card))
        fix.after = "".join(lines)
        if fix.cards or fix.left:
            fixes.append(fix)
    return fixes


def _agrees(card: Any) -> bool:
    try:
        return normalised(card_text(card)) == normalised(card.text)
    except NoTemplate:
        return False


_ONE_LINE_TEXT = re.compile(r'^(\s*text\s*=\s*)"(?:[^"\\]|\\.)*"(\s*(?:#.*)?)$')


def _rewrite(fix: TextFix, lines: list[str], number: int, card: Any) -> None:
    try:
        generated = card_text(card)
    except NoTemplate as exc:
        fix.left.append(f"{card.id}: no template ({exc})")
        return
    line = lines[number]
    ending = line[len(line.rstrip("\r\n")):]
    match = _ONE_LINE_TEXT.match(line.rstrip("\r\n"))
    if match is None:
        fix.left.append(f"{card.id}: its text is not a one-line string; write it by hand: "
                        f"{generated!r}")
        return
    lines[number] = f"{match[1]}{json.dumps(generated, ensure_ascii=False)}{match[2]}{ending}"
    fix.cards.append(card.id)


def _shown_path(entry: Any) -> str:
    path = Path(str(entry))
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def card_text_checks(s: Any) -> list[Check]:
    """The set's cards against the texts generated from their data."""
    where = card_locations(s)
    failures: list[Check] = []
    free = checked = untexted = 0
    for card in s.cards:
        if not card.text_checked:
            free += 1
            continue
        if not card.text and card.abilities or not card.text and card.kind == "spell":
            untexted += 1  # nothing printed, nothing promised
            continue
        checked += 1
        file, line = where.get(card.id, (None, None))
        try:
            generated = card_text(card)
        except NoTemplate as exc:
            failures.append(Check(
                "card-text", s.code, False, f"{card.id}: its text cannot be generated from its "
                f"data ({exc}); write text_checked = false if its text is free", set_code=s.code,
                card=card.id, file=file, line=line))
            continue
        if normalised(generated) != normalised(card.text):
            failures.append(Check(
                "card-text", s.code, False, f"{card.id}: the printed text and the data "
                f"disagree: printed {card.text!r}, from the data {generated!r} (where the data "
                f"is right, '{WRITE_TEXTS.format(code=s.code)}' writes the texts from the data "
                "into the card files; '--diff' prints them as a patch)",
                set_code=s.code, card=card.id, file=file, line=line,
                details=f"printed:   {card.text}\nfrom data: {generated}"))
    if failures:
        return failures
    opted = f"; {free} opted out (text_checked = false)" if free else ""
    bare = f"; {untexted} with no printed text" if untexted else ""
    return [Check("card-text", s.code, True,
                  f"{checked} printed texts match their data{opted}{bare}", set_code=s.code)]
