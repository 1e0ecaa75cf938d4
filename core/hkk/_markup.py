"""Rich markup lines, the common ground of hkk's text output: :func:`escape` what comes from a
set's files, :func:`plain` to drop the styles again, :data:`INDENT` for a line under another."""

from __future__ import annotations

from rich.markup import escape as escape_markup

from hkk._text import printable

INDENT = "    "


def escape(text: str) -> str:
    """``text`` for a markup line: printed literally (``[bold]`` stays text) and with control
    characters written out, so nothing from a set's files can drive the terminal."""
    return escape_markup(printable(text))


def plain(markup: str) -> str:
    """The text of a rich markup line, without styles."""
    from rich.text import Text

    return Text.from_markup(markup).plain
