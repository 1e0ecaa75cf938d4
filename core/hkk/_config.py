"""User configuration: which sets load.

Read from the nearest ``hkk.toml`` (table ``[sets]``) or ``pyproject.toml`` with a
``[tool.hkk]`` table, looking in the current folder and then in each parent folder (as pytest
and ruff find theirs)::

    [tool.hkk.sets]
    allow = ["alap", "mereg"]   # only these load
    deny = ["kiserleti"]        # never these (deny wins)

The environment variables ``HKK_SETS_ALLOW`` / ``HKK_SETS_DENY`` (comma-separated) override
the file; arguments given in code or on the command line override both.  A file that cannot
be read or has the wrong shape raises :class:`~hkk.ConfigError` naming file and key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hkk._datafile import DataFileError, parse_toml
from hkk._errors import ConfigError


@dataclass(frozen=True)
class SetSelection:
    allow: frozenset[str] | None = None
    deny: frozenset[str] | None = None
    source: str | None = None  # the file it was read from


def _codes(value: object, where: str) -> frozenset[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of set codes, got {value!r}")
    return frozenset(value)


def _read(path: Path) -> dict[str, Any]:
    try:
        return parse_toml(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, DataFileError) as exc:
        raise ConfigError(f"{path}: cannot read the hkk configuration: {exc}") from exc


def _table(data: dict[str, Any], keys: tuple[str, ...], path: Path) -> dict[str, Any] | None:
    """``data[k1][k2]…``; None where a key is absent, ConfigError where it is not a table."""
    table: Any = data
    for depth, key in enumerate(keys, 1):
        table = table.get(key)
        if table is None:
            return None
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: [{'.'.join(keys[:depth])}]: expected a table, got "
                              f"{table!r}")
    found: dict[str, Any] = table  # a TOML table: its keys are strings
    return found


def find_config(folder: Path | None = None) -> tuple[Path, tuple[str, ...]] | None:
    """The configuration file that applies in ``folder`` (default: the current one) and the
    keys of its hkk table: the nearest ``hkk.toml``, or ``pyproject.toml`` with ``[tool.hkk]``."""
    start = (Path.cwd() if folder is None else folder).resolve()
    for here in (start, *start.parents):
        if (here / "hkk.toml").is_file():
            return here / "hkk.toml", ()
        pyproject = here / "pyproject.toml"
        if pyproject.is_file() and _table(_read(pyproject), ("tool", "hkk"), pyproject) is not None:
            return pyproject, ("tool", "hkk")
    return None


def load_set_selection(folder: Path | None = None) -> SetSelection:
    found = find_config(folder)
    if found is None:
        return SetSelection()
    path, keys = found
    table = _table(_read(path), (*keys, "sets"), path)
    if table is None:
        return SetSelection(source=str(path))
    where = f"{path}: [{'.'.join((*keys, 'sets'))}]"
    unknown = sorted(set(table) - {"allow", "deny"})
    if unknown:
        raise ConfigError(f"{where}: unknown keys {unknown}; use allow and deny")
    return SetSelection(_codes(table.get("allow"), f"{where}.allow"),
                        _codes(table.get("deny"), f"{where}.deny"), str(path))
