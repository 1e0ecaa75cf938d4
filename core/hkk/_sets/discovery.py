"""Finding, loading, checking and registering card sets - one plain function per stage.

    find_sets → select_sets (allow/deny) → check_duplicates → load_candidate (each)
    → check_compatibility → load_decks → register (+ ``check_pending``)

Every stage that handles several sets takes ``failures``: a list the stage appends one
:class:`~hkk.SetError` per broken set to, so the others carry on.  ``failures=None``
means strict: the first problem is raised.  A set whose dependency failed fails too.  Stages
named in errors: "find", "load" (finding the package; importing it only if ``set.toml`` says
``python = true``), "validate" (manifest, cards, decks), "compatibility", "register".

We do not use pluggy's ``load_setuptools_entrypoints``: it drops duplicate names silently and
stops at the first broken plugin.
"""

from __future__ import annotations

import difflib
import importlib.machinery
import importlib.resources
import importlib.util
import os
import traceback
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib.resources.abc import Traversable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

import importlib_metadata
import pluggy
from packaging.version import InvalidVersion, Version

from hkk._config import load_set_selection
from hkk._datafile import DataFileError, read_text
from hkk._errors import Interrupted, SetError
from hkk._hookspecs import PROJECT
from hkk._plugin import HOOK_API_VERSION, make_plugin_manager
from hkk._sets.manifest import SET_CODE_PATTERN, SetManifest, is_set_code, parse_manifest

if TYPE_CHECKING:
    from hkk._cards.model import Card, Deck

__all__ = [
    "ENTRY_POINT_GROUP", "ENV_ALLOW", "ENV_DENY", "PLUGIN_NAME_PREFIX",
    "Candidate", "LoadedSet", "Discovery",
    "find_sets", "select_sets", "check_duplicates", "load_candidate", "check_compatibility",
    "load_decks", "dependency_order", "dependency_closure", "register", "discover",
    "codes_from_env",
]

ENTRY_POINT_GROUP = "hkk.sets"
ENV_ALLOW = "HKK_SETS_ALLOW"
ENV_DENY = "HKK_SETS_DENY"
#: A set's module is registered with pluggy as ``hkk.sets.<code>``.
PLUGIN_NAME_PREFIX = "hkk.sets."


class EntryPointLike(Protocol):
    name: str
    value: str

    def load(self) -> Any: ...


class _Named:
    """How a set is named in messages: its code, distribution and version."""

    code: str
    distribution: str | None
    version: str | None

    def error(self, message: str, stage: str) -> SetError:
        return SetError(message, code=self.code, distribution=self.distribution,
                        version=self.version, stage=stage)

    @property
    def label(self) -> str:
        """``code (distribution version)``, how messages name another set."""
        return f"{self.code} ({self.distribution or '?'} {self.version or '?'})"


@dataclass(frozen=True)
class Candidate(_Named):
    """An installed set found through its entry point; nothing of it imported yet."""

    code: str
    distribution: str | None
    version: str | None
    entry_point: EntryPointLike = field(compare=False, repr=False)


@dataclass(frozen=True, eq=False)  # identity: it holds a module and unhashable lists
class LoadedSet(_Named):
    """A set whose package imported and whose manifest and cards validated."""

    code: str
    distribution: str | None
    version: str | None
    manifest: SetManifest
    #: The imported package; None for a data-only set (``python = true`` not in set.toml).
    module: ModuleType | None = field(repr=False)
    root: Traversable = field(repr=False)
    cards: list[Card] = field(repr=False)
    decks: dict[str, Deck] = field(repr=False)
    has_hooks: bool
    hook_names: list[str]

    @property
    def plugin_name(self) -> str:
        return PLUGIN_NAME_PREFIX + self.code


@dataclass
class Discovery:
    """What :func:`discover` found. ``sets`` is in load (= registration) order."""

    sets: dict[str, LoadedSet]
    failures: list[SetError]
    disabled: list[Candidate]
    cards: dict[str, Card]
    decks: dict[str, Deck]
    pm: pluggy.PluginManager
    #: What disabled the sets in ``disabled``: the environment variable, the configuration
    #: file (its path and table) or the caller's ``allow``/``deny``.
    disabled_by: str = ""


def _fail(failures: list[SetError] | None, error: SetError) -> None:
    if failures is None:
        raise error
    failures.append(error)


# -- stage 1: find -----------------------------------------------------------------------------

def find_sets(entry_points: Iterable[EntryPointLike] | None = None, *,
              failures: list[SetError] | None = None) -> list[Candidate]:
    """Candidates from the ``hkk.sets`` entry points, sorted by (code, distribution) so install
    order never matters.  Imports nothing.  Invalid entry-point names fail at stage "find"."""
    if entry_points is None:
        entry_points = importlib_metadata.entry_points(group=ENTRY_POINT_GROUP)
    found: list[Candidate] = []
    bad: list[SetError] = []
    for ep in entry_points:
        dist = getattr(ep, "dist", None)
        candidate = Candidate(ep.name, getattr(dist, "name", None), getattr(dist, "version", None),
                              ep)
        if is_set_code(ep.name):
            found.append(candidate)
        else:
            bad.append(candidate.error(
                f"invalid set code {ep.name!r} (entry point {ep.name} = {ep.value}): "
                f"entry-point names in group {ENTRY_POINT_GROUP} must match {SET_CODE_PATTERN}",
                "find"))
    for error in sorted(bad, key=lambda e: (e.code or "", e.distribution or "")):
        _fail(failures, error)
    return sorted(found, key=_candidate_key)


def _candidate_key(c: Candidate) -> tuple[str, str, str]:
    return (c.code, c.distribution or "", c.entry_point.value)


def codes_from_env(name: str) -> frozenset[str] | None:
    """Comma-separated set codes from an environment variable; None when unset or blank."""
    raw = os.environ.get(name, "")
    codes = frozenset(part.strip() for part in raw.split(",") if part.strip())
    return codes or None


def select_sets(candidates: Iterable[Candidate], allow: Iterable[str] | None = None,
                deny: Iterable[str] | None = None) -> tuple[list[Candidate], list[Candidate]]:
    """Split into (enabled, disabled).  ``allow=None`` allows everything; deny wins over allow."""
    allowed = None if allow is None else frozenset(allow)
    denied = frozenset(deny or ())
    enabled: list[Candidate] = []
    disabled: list[Candidate] = []
    for c in candidates:
        ok = (allowed is None or c.code in allowed) and c.code not in denied
        (enabled if ok else disabled).append(c)
    return enabled, disabled


def check_duplicates(candidates: Iterable[Candidate], *,
                     failures: list[SetError] | None = None) -> list[Candidate]:
    """Drop every set code claimed by more than one distribution.  No claimant wins: which one
    would depend on install order, so the user has to uninstall all but one."""
    by_code: dict[str, list[Candidate]] = {}
    for c in sorted(candidates, key=_candidate_key):
        by_code.setdefault(c.code, []).append(c)
    kept: list[Candidate] = []
    for code, claimants in by_code.items():
        if len(claimants) == 1:
            kept.append(claimants[0])
            continue
        names = ", ".join(f"{c.distribution or '?'} {c.version or '?'} ({c.entry_point.value})"
                          for c in claimants)
        _fail(failures, SetError(
            f"set code claimed by several distributions: {names}; uninstall all but one",
            code=code, stage="find"))
    return kept


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


def _load_decks(code: str, root: Traversable, known_ids: set[str]) -> dict[str, Deck]:
    from hkk._cards.loader import load_set_decks

    return load_set_decks(code, root, known_ids)


def _data_error(owner: Candidate | LoadedSet, exc: Exception, what: str) -> SetError:
    if isinstance(exc, SetError):
        # The loader's CardDataError lacks the distribution; re-issue with it, cause kept.
        reason = exc.reason.removeprefix(f"{owner.code}: ").removeprefix(f"{owner.code}:")
        return owner.error(reason, exc.stage or "validate")
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
    if not manifest.python:
        _refuse_undeclared_code(c, root)
    module = _import_package(c) if manifest.python else None
    hook_names = _hook_names(module) if module is not None else []
    return LoadedSet(code=c.code, distribution=c.distribution, version=c.version,
                     manifest=manifest, module=module, root=root, cards=cards, decks={},
                     has_hooks=bool(hook_names), hook_names=hook_names)


# -- stage 3: compatibility --------------------------------------------------------------------

def dependency_order(sets: Iterable[LoadedSet]) -> list[LoadedSet]:
    """Dependencies first, then by code.  Sets caught in a cycle (or depending on one, or on a
    set not given) come last, by code; :func:`check_compatibility` rejects those."""
    pending = {s.code: s for s in sets}
    done: list[LoadedSet] = []
    placed: set[str] = set()
    while pending:
        ready = sorted(code for code, s in pending.items()
                       if all(d in placed for d in s.manifest.depends))
        if not ready:
            break
        # One at a time, so the result is a pure function of the graph (smallest ready code).
        code = ready[0]
        done.append(pending.pop(code))
        placed.add(code)
    return done + sorted(pending.values(), key=lambda s: s.code)


def dependency_closure(codes: Iterable[str], sets: Mapping[str, LoadedSet]) -> list[str]:
    """The given codes and every set they depend on, directly or not, sorted.  Codes that are
    not among ``sets`` are kept but not followed."""
    result: set[str] = set()
    stack = list(codes)
    while stack:
        code = stack.pop()
        if code not in result:
            result.add(code)
            if code in sets:
                stack.extend(sets[code].manifest.depends)
    return sorted(result)


def _api_supported(s: LoadedSet, hook_api_version: str) -> bool:
    try:
        return s.manifest.requires_specifier.contains(Version(hook_api_version),
                                                      prereleases=True)
    except InvalidVersion:
        return False


#: What changed at each major hook API version, for a set that requires only older ones.
_API_CHANGES = {
    2: "hook API 2.0 has typed events (hkk.events): event fields were renamed, e.g. 'count' "
       "and 'by' are 'amount', 'hp'/'vp'/'total' after a change are 'after', the owner in "
       "entered_play and cost_paid is 'controller' (CHANGELOG.md, docs/REFERENCE.md *Events*); "
       "update the set's hooks and tests, then declare requires = \">=2.0,<3\"",
}


def _api_hint(s: LoadedSet, hook_api_version: str) -> str:
    """Why an older set's ``requires`` no longer fits: what the newer major version changed."""
    try:
        major = Version(hook_api_version).major
        older = s.manifest.requires_specifier.contains(Version(f"{major - 1}.0"),
                                                       prereleases=True)
    except InvalidVersion:
        return ""
    return f" ({_API_CHANGES[major]})" if older and major in _API_CHANGES else ""


def _duplicate_cards(sets: list[LoadedSet]) -> dict[str, str]:
    """code → message for every set that loses a card id to another set.  The set owning the
    id's namespace (``<code>:``) keeps it; without an owner every claimant loses."""
    claims: dict[str, list[LoadedSet]] = {}
    for s in sets:
        for card_id in dict.fromkeys(card.id for card in s.cards):
            claims.setdefault(card_id, []).append(s)
    conflicts: dict[str, list[str]] = {}
    for card_id, owners in sorted(claims.items()):
        if len(owners) < 2:
            continue
        namespace = card_id.partition(":")[0]
        for s in owners:
            if s.code == namespace:
                continue
            others = ", ".join(o.label for o in owners if o is not s)
            conflicts.setdefault(s.code, []).append(f"{card_id!r} (also in set {others})")
    return {code: "card id defined by another set: " + "; ".join(items)
            for code, items in conflicts.items()}


def check_compatibility(loaded_sets: Iterable[LoadedSet],
                        hook_api_version: str = HOOK_API_VERSION, *,
                        unavailable: Mapping[str, str] | None = None,
                        failures: list[SetError] | None = None) -> list[LoadedSet]:
    """The sets that can be used together, in dependency order.  A set fails (stage
    "compatibility") if its ``requires`` excludes ``hook_api_version``, if it defines a card id
    another set defines, or if a set it depends on is missing, failed or in a cycle.
    ``unavailable`` says why a code is absent (e.g. ``{"foo": "is disabled"}``)."""
    reasons: dict[str, str] = dict(unavailable or {})
    ok: dict[str, LoadedSet] = {}

    def reject(s: LoadedSet, message: str) -> None:
        reasons[s.code] = "failed at stage compatibility"
        ok.pop(s.code, None)
        _fail(failures, s.error(message, "compatibility"))

    for s in sorted(loaded_sets, key=lambda s: s.code):
        if _api_supported(s, hook_api_version):
            ok[s.code] = s
        else:
            reject(s, f"requires hook API {s.manifest.requires}; "
                      f"this engine provides {hook_api_version}"
                      + _api_hint(s, hook_api_version))
    for code, message in sorted(_duplicate_cards(list(ok.values())).items()):
        reject(ok[code], message)
    # Dependencies last, so failures above propagate to dependents.  Repeat until stable: a
    # rejection may break a set already checked.
    changed = True
    while changed:
        changed = False
        for code in sorted(ok):
            s = ok[code]
            missing = [d for d in s.manifest.depends if d not in ok]
            if missing:
                dep = missing[0]
                reject(s, f"depends on set {dep}, which {reasons.get(dep, 'is not installed')}")
                changed = True
    ordered = dependency_order(ok.values())
    placed: set[str] = set()
    for s in ordered:
        if all(d in placed for d in s.manifest.depends):
            placed.add(s.code)
    stuck = ", ".join(sorted(ok.keys() - placed))
    for s in ordered:
        if s.code not in placed:
            reject(s, f"dependency cycle among sets {stuck}")
    return [s for s in ordered if s.code in placed]


def _failed_dependency(s: LoadedSet, failed: set[str]) -> str | None:
    return next((d for d in s.manifest.depends if d in failed), None)


def load_decks(loaded_sets: Iterable[LoadedSet], *,
               failures: list[SetError] | None = None) -> list[LoadedSet]:
    """Load each set's decks, which may use cards of the set and of the sets it depends on.
    Expects the output of :func:`check_compatibility` (every dependency present)."""
    result: list[LoadedSet] = []
    by_code: dict[str, LoadedSet] = {}
    failed: set[str] = set()
    for s in dependency_order(loaded_sets):
        dep = _failed_dependency(s, failed)
        if dep is not None:
            failed.add(s.code)
            _fail(failures, s.error(f"depends on set {dep}, which failed at stage validate",
                                    "validate"))
            continue
        by_code[s.code] = s
        known = {card.id for code in dependency_closure([s.code], by_code) if code in by_code
                 for card in by_code[code].cards}
        try:
            decks = dict(_load_decks(s.code, s.root, known))
        except Exception as exc:
            failed.add(s.code)
            del by_code[s.code]
            error = _data_error(s, exc, "loading decks")
            error.__cause__ = exc
            _fail(failures, error)
            continue
        loaded = replace(s, decks=decks)
        by_code[s.code] = loaded
        result.append(loaded)
    return result


# -- stage 4: register -------------------------------------------------------------------------

def _unknown_hooks(pm: pluggy.PluginManager, module: ModuleType) -> list[str]:
    unknown = []
    for caller in pm.get_hookcallers(module) or ():
        if not caller.has_spec() and any(impl.plugin is module and not impl.optionalhook
                                         for impl in caller.get_hookimpls()):
            unknown.append(caller.name)
    return sorted(unknown)


def _spec_names(pm: pluggy.PluginManager) -> list[str]:
    return [name for name, caller in vars(pm.hook).items()
            if not name.startswith("_") and caller.has_spec()]


def register(pm: pluggy.PluginManager, loaded_sets: Iterable[LoadedSet], *,
             failures: list[SetError] | None = None) -> list[LoadedSet]:
    """Register each set's module as ``hkk.sets.<code>`` (data-only sets register nothing),
    dependencies first, then by code.  A set with a hook name no spec knows, or a hookimpl
    pluggy rejects, fails at stage "register" and is unregistered again.  Returns the sets now
    usable, in order.  Ends with ``pm.check_pending()`` for whatever else is registered."""
    result: list[LoadedSet] = []
    failed: set[str] = set()
    for s in dependency_order(loaded_sets):
        dep = _failed_dependency(s, failed)
        if dep is not None:
            failed.add(s.code)
            _fail(failures, s.error(f"depends on set {dep}, which failed at stage register",
                                    "register"))
            continue
        if s.has_hooks and s.module is not None:
            try:
                pm.register(s.module, name=s.plugin_name)
            except pluggy.PluginValidationError as exc:
                failed.add(s.code)
                _fail(failures, s.error(f"invalid hookimpl: {exc}", "register"))
                continue
            except ValueError as exc:  # already registered, e.g. a second discover() into pm
                failed.add(s.code)
                _fail(failures, s.error(f"cannot register: {exc}", "register"))
                continue
            unknown = _unknown_hooks(pm, s.module)
            if unknown:
                pm.unregister(name=s.plugin_name)
                failed.add(s.code)
                hints = []
                for name in unknown:
                    close = difflib.get_close_matches(name, _spec_names(pm), n=1)
                    hints.append(f"{name!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
                _fail(failures, s.error(f"unknown hook {', '.join(hints)}", "register"))
                continue
        result.append(s)
    pm.check_pending()
    return result


# -- all stages --------------------------------------------------------------------------------

def _chosen(from_env: frozenset[str] | None, variable: str, from_file: frozenset[str] | None,
            where: str | None, chosen_by: list[str]) -> frozenset[str] | None:
    """The environment variable's codes, else the configuration file's; notes which chose."""
    if from_env:
        chosen_by.append(f"{variable}={','.join(sorted(from_env))}")
        return from_env
    if from_file is not None and where:
        chosen_by.append(where)
    return from_file


def discover(*, entry_points: Iterable[EntryPointLike] | None = None,
             allow: Iterable[str] | None = None, deny: Iterable[str] | None = None,
             strict: bool = False, pm: pluggy.PluginManager | None = None) -> Discovery:
    """Find, load, check and register every installed set.  ``allow``/``deny`` default to the
    comma-separated ``HKK_SETS_ALLOW`` / ``HKK_SETS_DENY``, then to the configuration file
    (:mod:`hkk._config`).  ``strict`` (CI) raises the first SetError instead of collecting it in
    ``Discovery.failures``."""
    failures: list[SetError] = []
    sink = None if strict else failures
    chosen_by = ["the allow/deny given (hkk --set)"] if allow is not None or deny is not None \
        else []
    if allow is None or deny is None:
        configured = load_set_selection()
        where = f"{configured.source} [sets]" if configured.source else None
        if allow is None:
            allow = _chosen(codes_from_env(ENV_ALLOW), ENV_ALLOW, configured.allow, where,
                            chosen_by)
        if deny is None:
            deny = _chosen(codes_from_env(ENV_DENY), ENV_DENY, configured.deny, where,
                           chosen_by)
    if pm is None:
        pm = make_plugin_manager()

    candidates = find_sets(entry_points, failures=sink)
    enabled, disabled = select_sets(candidates, allow, deny)
    # Why a code is absent, for messages of the sets depending on it.
    unavailable = {c.code: "is disabled" for c in disabled}
    claimed = {c.code for c in enabled}
    enabled = check_duplicates(enabled, failures=sink)
    for code in claimed - {c.code for c in enabled}:
        unavailable[code] = "failed at stage find"

    loaded: list[LoadedSet] = []
    for c in enabled:
        try:
            loaded.append(load_candidate(c))
        except SetError as error:
            unavailable[c.code] = f"failed at stage {error.stage}"
            _fail(sink, error)
        except Exception as exc:  # a bug of ours must not stop the other sets either
            unavailable[c.code] = "failed at stage load"
            failure = c.error(f"unexpected error: {_describe(exc)}", "load")
            failure.__cause__ = exc
            _fail(sink, failure)

    usable = check_compatibility(loaded, unavailable=unavailable, failures=sink)
    usable = load_decks(usable, failures=sink)
    usable = register(pm, usable, failures=sink)

    sets = {s.code: s for s in usable}
    cards = {card.id: card for s in usable for card in s.cards}
    decks = {f"{s.code}:{name}": deck for s in usable for name, deck in s.decks.items()}
    return Discovery(sets=sets, failures=failures, disabled=disabled, cards=cards, decks=decks,
                     disabled_by=" and ".join(dict.fromkeys(chosen_by)),
                     pm=pm)
