"""docs/ARCHITECTURE.md stays true: every file it names exists, and every engine module is
named in it (issue 20, item 7), so a module added or split without a word there fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "core" / "hkk"
PAGE = ROOT / "docs" / "ARCHITECTURE.md"
TOP = ("core/", "sets/", "plugins/", "tests/", "docs/", "benchmarks/", "pyproject.toml")

#: A name in backticks that is a file or folder: `_steps.py`, `_cards/verbs/`, `docs/RULINGS.md`.
NAMED = re.compile(r"`([\w./-]+(?:\.py|\.md|\.toml|/))`")


def named_paths() -> set[str]:
    return set(NAMED.findall(PAGE.read_text(encoding="utf-8")))


def _where(name: str) -> Path:
    return ROOT / name if name.startswith(TOP) else ENGINE / name


def test_every_file_the_architecture_page_names_exists() -> None:
    missing = sorted(name for name in named_paths() if not _where(name).exists())
    assert missing == [], f"docs/ARCHITECTURE.md names files that do not exist: {missing}"


def test_every_engine_module_is_named_on_the_architecture_page() -> None:
    named = {_where(name).resolve() for name in named_paths()}
    folders = {path for path in named if path.is_dir()}
    modules = [path for path in ENGINE.rglob("*.py") if "templates" not in path.parts]
    unnamed = sorted(str(path.relative_to(ENGINE)) for path in modules
                     if path.resolve() not in named
                     and not (path.name != "__init__.py" and path.parent.resolve() in folders
                              and path.parent != ENGINE))
    assert unnamed == [], f"engine modules docs/ARCHITECTURE.md does not name: {unnamed}"
