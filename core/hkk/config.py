"""User configuration: which sets load.

Read from ``hkk.toml`` (table ``[sets]``) or, failing that, ``pyproject.toml`` (table
``[tool.hkk.sets]``) in the current folder::

    [tool.hkk.sets]
    allow = ["alap", "mereg"]   # only these load
    deny = ["kiserleti"]        # never these (deny wins)

The environment variables ``HKK_SETS_ALLOW`` / ``HKK_SETS_DENY`` (comma-separated) override
the file; arguments given in code or on the command line override both.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from hkk.errors import HkkError


@dataclass(frozen=True)
class SetSelection:
    allow: frozenset[str] | None = None
    deny: frozenset[str] | None = None
    source: str | None = None  # the file it was read from


def _codes(value: object, where: str) -> frozenset[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise HkkError(f"{where}: expected a list of set codes, got {value!r}")
    return frozenset(value)


def load_set_selection(folder: Path | None = None) -> SetSelection:
    folder = Path.cwd() if folder is None else folder
    for name, keys in (("hkk.toml", ("sets",)), ("pyproject.toml", ("tool", "hkk", "sets"))):
        path = folder / name
        if not path.is_file():
            continue
        try:
            table: object = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise HkkError(f"{path}: cannot read the hkk configuration: {exc}") from exc
        for key in keys:
            table = table.get(key) if isinstance(table, dict) else None
        if isinstance(table, dict):
            where = f"{path}: [{'.'.join(keys)}]"
            unknown = sorted(set(table) - {"allow", "deny"})
            if unknown:
                raise HkkError(f"{where}: unknown keys {unknown}; use allow and deny")
            return SetSelection(_codes(table.get("allow"), f"{where}.allow"),
                                _codes(table.get("deny"), f"{where}.deny"), str(path))
    return SetSelection()
