"""``hkk new-set``: a complete card-set project from the templates in ``hkk/templates/newset``.

Template files end in ``.tmpl`` (so none of them is imported, byte-compiled or collected by
pytest where they lie); ``{{name}}`` placeholders are replaced, nothing else is touched (the CI
workflow's own ``${{ … }}`` expressions stay).  Folder ``src/package`` becomes the set's package,
``github`` becomes ``.github`` and ``gitignore`` ``.gitignore`` (dot files are awkward as
package data).
"""

from __future__ import annotations

import importlib.resources
from importlib.resources.abc import Traversable
from pathlib import Path

from packaging.version import Version

from hkk._errors import HkkError
from hkk._sets.manifest import SET_CODE_PATTERN, is_set_code

__all__ = ["ScaffoldError", "create", "placeholders"]

_RENAMES = {"github": ".github", "gitignore": ".gitignore"}


class ScaffoldError(HkkError):
    """The project cannot be created (bad name, folder not empty)."""


def placeholders(code: str, title: str | None = None) -> dict[str, str]:
    import hkk

    engine = Version(hkk.__version__)
    api = Version(hkk.HOOK_API_VERSION)
    return {
        "code": code,
        "title": title or code.replace("_", " ").title(),
        "package": f"hkk_set_{code}",
        "distribution": f"hkk-set-{code.replace('_', '-')}",
        "engine_requirement": f">={engine.major}.{engine.minor}",
        "api_requirement": f">={api.major}.{api.minor},<{api.major + 1}",
    }


def create(code: str, directory: Path, title: str | None = None) -> Path:
    """Write the project for set ``code`` into ``directory/hkk-set-<code>``; returns its path."""
    if not is_set_code(code):
        raise ScaffoldError(f"invalid set code {code!r}: it must match {SET_CODE_PATTERN} "
                            "(lower-case letters, digits, underscores; 2-32 characters)")
    values = placeholders(code, title)
    project = Path(directory) / values["distribution"]
    if project.exists() and any(project.iterdir()):
        raise ScaffoldError(f"{project} exists and is not empty")
    root = importlib.resources.files("hkk") / "templates" / "newset"
    for rel, source in _walk(root, ()):
        parts = rel[:-1] + (rel[-1].removesuffix(".tmpl"),)
        target = project.joinpath(*(_rename(part, values) for part in parts))
        target.parent.mkdir(parents=True, exist_ok=True)
        text = source.read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace("{{" + key + "}}", value)
        target.write_text(text, encoding="utf-8")
    return project


def _rename(part: str, values: dict[str, str]) -> str:
    if part == "package":
        return values["package"]
    return _RENAMES.get(part, part)


def _walk(node: Traversable, rel: tuple[str, ...]) -> list[tuple[tuple[str, ...], Traversable]]:
    found = []
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.is_dir():
            if child.name != "__pycache__":
                found.extend(_walk(child, rel + (child.name,)))
        elif child.name.endswith(".tmpl"):
            found.append((rel + (child.name,), child))
    return found
