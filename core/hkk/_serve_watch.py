"""The card sets of ``hkk serve``: loaded into an engine, and under ``--watch`` loaded again when
their files change on disk (the designer's loop, issue 23 item 3).

Changes are found by polling the files' modification times and sizes (no dependency, works on
every file system); the page asks about once a second.  A set that no longer loads is not a
crash: its error is the one line ``hkk verify`` prints for it, and the game goes on with the
cards it had.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from hkk._engine import Engine
from hkk._plugin import make_plugin_manager
from hkk._sets.discovery import discover, find_sets

#: The files of a set that ``hkk serve --watch`` reloads: its manifest, cards and decks.
WATCHED = ("*.toml",)


def failure_lines(error: Any) -> list[str]:
    """A set's load failure as ``hkk verify`` says it: a line for each problem of its data
    files (``discovery [code], card ...: ...``), or one for the failure."""
    from hkk.verify import _failure_checks

    return [check.headline() for check in _failure_checks(error, mine=True)]


def set_folders() -> list[Path]:
    """The folders of the installed sets' packages, found without importing them."""
    folders: list[Path] = []
    for candidate in find_sets(failures=[]):
        module = candidate.entry_point.value.split(":")[0].strip()
        try:
            spec = importlib.util.find_spec(module.split(".")[0])
        except (ImportError, ValueError):
            continue
        if spec is not None and spec.submodule_search_locations:
            folders.extend(Path(p) for p in spec.submodule_search_locations)
    return sorted(set(folders))


class CardSets:
    """The sets ``hkk serve`` plays with: ``engine`` (the last that loaded) and ``errors`` (the
    one-line failures of the last load, empty when every set loaded)."""

    def __init__(self, allow: Iterable[str] | None = None, core: str = "auto") -> None:
        self.allow = None if allow is None else sorted(allow)
        self.core = core  # the core the games run on (hkk._cores)
        self.folders = set_folders()
        self.stamp = self._stamp()
        self.errors: list[str] = []
        self.engine = self.load()
        #: Counts the loads that brought new cards: the page offers a restart when it grows.
        self.version = 0

    def _stamp(self) -> tuple[tuple[str, int, int], ...]:
        found = []
        for folder in self.folders:
            for pattern in WATCHED:
                for path in folder.rglob(pattern):
                    try:
                        stat = path.stat()
                    except OSError:  # removed between the listing and the look
                        continue
                    found.append((str(path), stat.st_mtime_ns, stat.st_size))
        return tuple(sorted(found))

    def load(self) -> Engine:
        found = discover(allow=self.allow, pm=make_plugin_manager())
        self.errors = [line for e in found.failures for line in failure_lines(e)]
        return Engine(found.cards, decks=found.decks, pm=found.pm, discovery=found,
                      core=self.core)

    def poll(self, usable: Any = None) -> bool:
        """Load the sets again if their files changed since the last look.  True when new
        cards loaded (``engine`` is the new one); a load whose ``usable(engine)`` raises keeps
        the old engine and says why in ``errors``."""
        stamp = self._stamp()
        if stamp == self.stamp:
            return False
        self.stamp = stamp
        engine = self.load()
        if usable is not None:
            try:
                usable(engine)
            except Exception as exc:  # noqa: BLE001 - shown on the page, the old cards stay
                if not self.errors:
                    self.errors = [str(exc)]
                return False
        self.engine = engine
        self.version += 1
        return True


def deck_lists(engine: Engine, names: Sequence[str]) -> list[list[str]]:
    """The card ids of the named decks (``alap:tuz``, or ``DECK+SET`` as ``hkk play`` takes)."""
    from hkk.verify import resolve_deck_spec

    return [resolve_deck_spec(engine, name) for name in names]
