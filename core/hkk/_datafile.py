"""Reading a set's data files (``set.toml``, ``cards/*.toml``, ``decks/*.toml``) within bounds.

A set is published by anyone, so its files are read defensively: only files inside the set's
package (a symlink to a system file is refused), at most :data:`MAX_FILE_BYTES` of UTF-8, and
TOML nested at most :data:`MAX_NESTING` levels.  Every problem is a :class:`DataFileError`
(a ``ValueError``) whose message says what is wrong, for the caller to name the set and file.
"""

from __future__ import annotations

import json
import tomllib
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from hkk._errors import DataFileError

__all__ = ["MAX_FILE_BYTES", "MAX_JSON_NESTING", "MAX_NESTING", "DataFileError",
           "check_json_nesting", "outside_package", "parse_toml", "read_text"]

#: The largest data file read: far above any real set (the base set's biggest card file is
#: under 10 kB), far below what would hurt memory.
MAX_FILE_BYTES = 1024 * 1024
#: Deepest nesting of tables and arrays.  Card files need about 8 levels; tomllib recurses once
#: per level, so a deeper file would otherwise end in a RecursionError.
MAX_NESTING = 32
#: Deepest nesting of objects and arrays in a JSON document the engine reads (a save: about 6
#: levels).  ``json`` and the validators recurse once per level: deeper would be a
#: RecursionError (a traceback, a server's 500) instead of an error naming the file.
MAX_JSON_NESTING = 64


def outside_package(root: Traversable | Path, entry: Traversable | Path) -> Path | None:
    """Where ``entry`` really is, if that is outside ``root`` (e.g. through a symlink); else
    None.  Only files on disk can be links; other Traversables (zip files) are inside."""
    if not (isinstance(root, Path) and isinstance(entry, Path)):
        return None
    real = entry.resolve()
    return None if real.is_relative_to(root.resolve()) else real


def read_text(root: Traversable | Path, entry: Traversable | Path,
              limit: int = MAX_FILE_BYTES) -> str:
    """The text of ``entry``, a file of the set package ``root``."""
    real = outside_package(root, entry)
    if real is not None:
        raise DataFileError(f"refused: the file resolves outside the set's package (to {real})")
    with entry.open("rb") as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise DataFileError(f"file is larger than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataFileError(f"not UTF-8: {exc}") from None


def parse_toml(text: str, max_nesting: int = MAX_NESTING) -> dict[str, Any]:
    """``tomllib.loads`` with bounded nesting.  Raises ``tomllib.TOMLDecodeError`` for bad TOML
    (its message carries the position) and :class:`DataFileError` for nesting."""
    too_deep = DataFileError(f"nested deeper than {max_nesting} levels of tables and arrays")
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise too_deep from None
    if _depth(data, max_nesting) > max_nesting:
        raise too_deep
    return data


def check_json_nesting(data: Any, max_nesting: int = MAX_JSON_NESTING) -> None:
    """Raise :class:`DataFileError` if ``data`` - JSON text (str or bytes) or what JSON text
    parses to - nests objects and arrays deeper than ``max_nesting``.  Text that is not JSON
    passes: its reader says what is wrong with it."""
    too_deep = DataFileError(f"nested deeper than {max_nesting} levels of objects and arrays")
    if isinstance(data, str | bytes | bytearray):
        try:
            data = json.loads(data)
        except RecursionError:
            raise too_deep from None
        except ValueError:
            return
    if isinstance(data, dict | list) and _depth(data, max_nesting) > max_nesting:
        raise too_deep


def _depth(data: Any, stop: int) -> int:
    """Nesting depth of dicts and lists, counted without recursion; stops looking past ``stop``."""
    deepest = 0
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > stop:
            break
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, (dict, list)))
    return deepest
