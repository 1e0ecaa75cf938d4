"""Control characters in text that may reach a terminal.

Card, set and deck texts come from files anyone can publish: an escape sequence in a card's name
could clear the screen or set the window title when ``hkk cards`` prints it.  Validation rejects
them (:func:`first_control_character`); output neutralises whatever else gets through
(:func:`printable`), e.g. a raw key quoted in an error message.
"""

from __future__ import annotations

import re

__all__ = ["first_control_character", "printable", "codepoint"]

# C0 controls except tab and newline, DEL, and the C1 controls (U+009B alone starts a CSI).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def first_control_character(text: str) -> str | None:
    """The first character of ``text`` that could drive a terminal, or None."""
    match = _CONTROL.search(text)
    return match[0] if match else None


def codepoint(char: str) -> str:
    """``U+001B``: how messages name a character."""
    return f"U+{ord(char):04X}"


def printable(text: str) -> str:
    """``text`` with each control character written out as ``\\x1b``; tab and newline kept."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}", text)
