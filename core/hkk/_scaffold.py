"""``hkk new-set``: a complete card-set project from the templates in ``hkk/templates/newset``.

Template files end in ``.tmpl`` (so none of them is imported, byte-compiled or collected by
pytest where they lie); ``{{name}}`` placeholders are replaced, nothing else is touched (the CI
workflow's own ``${{ … }}`` expressions stay).  Folder ``src/package`` becomes the set's package,
``github`` becomes ``.github`` and ``gitignore`` ``.gitignore`` (dot files are awkward as
package data).
"""

from __future__ import annotations

import importlib.resources
import json
import shlex
from importlib.resources.abc import Traversable
from pathlib import Path
from urllib.parse import unquote, urlparse

from packaging.version import Version

from hkk._errors import ScaffoldError
from hkk._sets.manifest import SET_CODE_PATTERN, is_set_code
from hkk._text import codepoint, first_control_character

__all__ = ["ScaffoldError", "check_source", "create", "engine_source", "install_command",
           "local_engine_folder", "placeholders"]

_RENAMES = {"github": ".github", "gitignore": ".gitignore"}


def engine_source() -> str:
    """Where the installed engine came from, as the generated CI workflow's default
    ``HKK_SOURCE``: a ``git+…`` URL, or "" (a package index).  Never the folder of a local
    install: a path of the machine the project was made on means nothing to its CI."""
    import importlib_metadata

    try:
        text = importlib_metadata.distribution("hkk").read_text("direct_url.json")
        info = json.loads(text) if text else {}
    except (importlib_metadata.PackageNotFoundError, ValueError):
        return ""
    url = str(info.get("url", ""))
    if "vcs_info" in info:
        commit = info["vcs_info"].get("requested_revision") or info["vcs_info"].get("commit_id")
        return f"git+{url}" + (f"@{commit}" if commit else "")
    return ""


def local_engine_folder() -> str | None:
    """The folder of a local (editable) install of the engine, for the hint of ``hkk new-set``."""
    import importlib_metadata

    try:
        text = importlib_metadata.distribution("hkk").read_text("direct_url.json")
        info = json.loads(text) if text else {}
    except (importlib_metadata.PackageNotFoundError, ValueError):
        return None
    url = str(info.get("url", ""))
    if url.startswith("file://") and "dir_info" in info:
        return unquote(urlparse(url).path)
    return None


def install_command(project: Path) -> str:
    """The project's next step, ``pip install -e 'PROJECT[test]'``, with pytest-hkk from
    where it can come: it is on no package index, so, unless it is installed already, from the
    checkout this engine runs from, or the git repository it was installed from; from neither,
    a note on where to get it."""
    import importlib_metadata

    target = shlex.quote(f"{project}[test]")
    try:
        importlib_metadata.distribution("pytest-hkk")
        return f"pip install -e {target}"  # installed: pip takes it as it is
    except importlib_metadata.PackageNotFoundError:
        pass
    local = local_engine_folder()
    plugin = Path(local, "plugins", "pytest-hkk") if local else None
    if plugin is not None and (plugin / "pyproject.toml").is_file():
        return f"pip install -e {shlex.quote(str(plugin))} -e {target}"
    source = engine_source()
    if source.startswith("git+"):
        plugin_url = f"pytest-hkk @ {source}#subdirectory=plugins/pytest-hkk"
        return f"pip install {shlex.quote(plugin_url)} -e {target}"
    return (f"pip install -e HKK-CHECKOUT/plugins/pytest-hkk -e {target}   # pytest-hkk is on "
            "no package index: from a checkout of hkk")


def check_source(source: str) -> str:
    """``source`` as it can stand in the workflow: one line of text with no GitHub expression
    (``${{ … }}`` is evaluated wherever it stands, even inside quotes) and no control
    character.  Raises :class:`ScaffoldError` naming what is wrong."""
    bad = first_control_character(source)
    if bad is not None or "\n" in source or "\t" in source:
        what = codepoint(bad) if bad is not None else "a line break or tab"
        raise ScaffoldError(f"--engine-source must be one line: it holds {what}")
    if "${{" in source:
        raise ScaffoldError("--engine-source may not hold a GitHub expression ('${{')")
    if source.startswith("-"):
        raise ScaffoldError("--engine-source may not start with '-' (pip would read an option)")
    return source


def placeholders(code: str, title: str | None = None,
                 source: str | None = None) -> dict[str, str]:
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
        # JSON's string is a YAML double-quoted scalar: quotes and backslashes stay text
        "engine_source": json.dumps(check_source(engine_source() if source is None else source),
                                    ensure_ascii=False),
    }


def create(code: str, directory: Path, title: str | None = None, *,
           source: str | None = None, installed: frozenset[str] = frozenset()) -> Path:
    """Write the project for set ``code`` into ``directory/hkk-set-<code>``; returns its path.
    ``source``: the workflow's ``HKK_SOURCE`` (default: where this engine was installed from);
    ``installed``: set codes taken already (a second set ``alap`` could never load)."""
    if not is_set_code(code):
        raise ScaffoldError(f"invalid set code {code!r}: it must match {SET_CODE_PATTERN} "
                            "(lower-case letters, digits, underscores; 2-32 characters)")
    if code in installed:
        raise ScaffoldError(f"set code {code!r} is taken: an installed set has it "
                            "(see hkk sets); pick another name")
    values = placeholders(code, title, source)
    project = Path(directory) / values["distribution"]
    if project.exists() and any(project.iterdir()):
        raise ScaffoldError(f"{project} exists and is not empty")
    root = importlib.resources.files("hkk") / "templates" / "newset"
    for rel, template in _walk(root, ()):
        parts = rel[:-1] + (rel[-1].removesuffix(".tmpl"),)
        target = project.joinpath(*(_rename(part, values) for part in parts))
        target.parent.mkdir(parents=True, exist_ok=True)
        text = template.read_text(encoding="utf-8")
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
