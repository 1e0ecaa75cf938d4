"""Discovery stage 2, load and validate: a set's package, its manifest, cards, formats and decks
(importing its code only if ``set.toml`` says ``python = true``; see :mod:`hkk._sets.discovery`)."""

from __future__ import annotations

import importlib.machinery
import importlib.resources
import importlib.util
import traceback
from importlib.resources.abc import Traversable
from types import ModuleType
from typing import TYPE_CHECKING

import pluggy

from hkk._datafile import DataFileError, read_text
from hkk._errors import Interrupted, SetError
from hkk._hookspecs import PROJECT
from hkk._sets.manifest import parse_manifest
from hkk._sets.model import Candidate, LoadedSet

if TYPE_CHECKING:
    from hkk._cards.model import Card, Deck
    from hkk._formats import DeckFormat

# -- stage 2: load and validate ----------------------------------------------------------------

def _describe(exc: BaseException) -> str:
    """``Type: message (at file:line)``, the innermost frame, so a set author finds the line."""
    if isinstance(exc, SyntaxError) and exc.filename:
        # str() of a SyntaxError already carries the place; use the bare message instead.
        return f"{type(exc).__name__}: {exc.msg} (at {exc.filename}:{exc.lineno})"
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _hook_names(module: ModuleType) -> list[str]:
    """Hook names the module implements, found the way pluggy's ``register`` finds them."""
    probe = pluggy.PluginManager(PROJECT)
    names = set()
    for attr in dir(module):
        opts = probe.parse_hookimpl_opts(module, attr)
        if opts is not None:
            names.add(opts.get("specname") or attr)
    return sorted(names)


def _load_cards(code: str, root: Traversable) -> list[Card]:
    # Imported late: the card loader is a sibling package, and this keeps find_sets import-light.
    from hkk._cards.loader import load_set_cards

    return load_set_cards(code, root)


def _load_formats(code: str, root: Traversable) -> dict[str, DeckFormat]:
    from hkk._formats import load_set_formats

    return load_set_formats(code, root)


def _load_decks(code: str, root: Traversable, known_ids: set[str]) -> dict[str, Deck]:
    from hkk._cards.loader import load_set_decks

    return load_set_decks(code, root, known_ids)


def _data_error(owner: Candidate | LoadedSet, exc: Exception, what: str) -> SetError:
    if isinstance(exc, SetError):
        # The loader's CardDataError lacks the distribution; re-issue with it, cause kept.
        reason = "\n".join(line.removeprefix(f"{owner.code}: ").removeprefix(f"{owner.code}:")
                           for line in exc.reason.splitlines())
        return owner.error(reason, exc.stage or "validate", exc.problems)
    return owner.error(f"{what} failed: {_describe(exc)}", "validate")


def _package_root(c: Candidate) -> Traversable:
    """The files of the set's package, found without importing it: finding a package's spec
    runs none of its code (a dotted name is followed through its parents' folders, since
    ``find_spec("a.b")`` would import ``a``)."""
    value = c.entry_point.value
    spec = None
    if ":" not in value:
        for part in value.split("."):
            try:
                if spec is None:
                    spec = importlib.util.find_spec(part)
                else:
                    spec = importlib.machinery.PathFinder.find_spec(
                        f"{spec.name}.{part}", list(spec.submodule_search_locations or ()))
            except (ImportError, ValueError) as exc:
                raise c.error(f"cannot find package {value}: {_describe(exc)}", "load") from exc
            if spec is None or spec.submodule_search_locations is None:
                break
    if spec is None or spec.submodule_search_locations is None:
        raise c.error(f"entry point value {value!r} must name the set's package, and no such "
                      f"package is installed", "load")
    # A module object made from the spec is not executed; importlib.resources only reads it.
    return importlib.resources.files(importlib.util.module_from_spec(spec))


def _import_package(c: Candidate) -> ModuleType:
    try:
        module = c.entry_point.load()
    except KeyboardInterrupt as exc:  # Ctrl-C (or the set raising it): stop, but say where
        raise Interrupted(f"interrupted while importing set {c.label} "
                          f"({c.entry_point.value})", set_code=c.code) from exc
    except (Exception, SystemExit) as exc:  # a set's import may raise anything
        raise c.error(f"import of {c.entry_point.value} failed: {_describe(exc)}",
                      "load") from exc
    if not isinstance(module, ModuleType) or not hasattr(module, "__path__"):
        raise c.error(f"entry point value {c.entry_point.value!r} must name the set's package, "
                      f"not {type(module).__name__} {module!r}", "load")
    return module


def _refuse_undeclared_code(c: Candidate, root: Traversable) -> None:
    """A set whose package implements hooks but does not say ``python = true`` would lose them
    without a word: refuse it instead.  The files are read as text, never run."""
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".py") and entry.is_file():
            try:
                source = read_text(root, entry)
            except (OSError, DataFileError):
                continue
            if "hookimpl" in source:
                raise c.error(f"{entry.name} implements hooks (hookimpl) but set.toml does not "
                              "say python = true, so they would never run: add it",
                              "validate")


def load_candidate(c: Candidate) -> LoadedSet:
    """Read the set's ``set.toml`` and cards from its package; import the package only if
    ``set.toml`` says ``python = true`` (a data-only set runs no code of its own).  Raises
    SetError (stage "load" for finding and importing the package, "validate" for data).
    Decks wait for :func:`load_decks`, since they may use cards of the sets this one depends
    on."""
    root = _package_root(c)
    try:
        text = read_text(root, root.joinpath("set.toml"))
    except (OSError, DataFileError) as exc:
        raise c.error(f"cannot read set.toml in package {c.entry_point.value}: "
                      f"{type(exc).__name__}: {exc}", "validate") from exc
    try:
        manifest = parse_manifest(text)
    except ValueError as exc:
        raise c.error(str(exc), "validate") from exc
    if manifest.code != c.code:
        raise c.error(f"set.toml declares code {manifest.code!r} but the entry point is named "
                      f"{c.code!r}", "validate")
    try:
        cards = list(_load_cards(c.code, root))
    except Exception as exc:
        raise _data_error(c, exc, "loading cards") from exc
    try:
        formats = _load_formats(c.code, root)
    except Exception as exc:
        raise _data_error(c, exc, "loading formats") from exc
    if not manifest.python:
        _refuse_undeclared_code(c, root)
    module = _import_package(c) if manifest.python else None
    hook_names = _hook_names(module) if module is not None else []
    return LoadedSet(code=c.code, distribution=c.distribution, version=c.version,
                     manifest=manifest, module=module, root=root, cards=cards, decks={},
                     has_hooks=bool(hook_names), hook_names=hook_names, formats=formats)
