"""The one way the ``hkk`` commands make a rich console.

Card data reaches the terminal through it, so it is set up for text anyone can publish:
no emoji codes (``:skull:`` in a card's name prints as written, not as 💀), no automatic
highlighting, long lines kept whole (soft wrap).  Piped or captured output is not a terminal
of 80 columns: it is printed at :data:`PIPED_WIDTH` unless ``COLUMNS`` says otherwise, so
``hkk sets > file`` keeps every heading and cell whole.
"""

from __future__ import annotations

import os
from typing import IO, TypeVar

from rich.console import Console

__all__ = ["PIPED_WIDTH", "make_console"]

#: Width of output that is not a terminal (a file, a pipe, a test's capture).
PIPED_WIDTH = 1000

C = TypeVar("C", bound=Console)


def make_console(cls: type[C] = Console, *, stderr: bool = False,  # type: ignore[assignment]
                 file: IO[str] | None = None) -> C:
    """A console on stdout (stderr, or ``file``: a command's ``--output-file``)."""
    console = cls(stderr=stderr, file=file, highlight=False, soft_wrap=True, emoji=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = PIPED_WIDTH
    return console
