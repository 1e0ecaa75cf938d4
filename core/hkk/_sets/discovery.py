"""Finding, loading, checking and registering card sets - one plain function per stage.

    find_sets → select_sets (allow/deny) → check_duplicates → load_candidate (each)
    → check_compatibility → load_decks → register (+ ``check_pending``)

Every stage that handles several sets takes ``failures``: a list the stage appends one
:class:`~hkk.SetError` per broken set to, so the others carry on.  ``failures=None``
means strict: the first problem is raised.  A set whose dependency failed fails too.  Stages
named in errors: "find", "load" (finding the package; importing it only if ``set.toml`` says
``python = true``), "validate" (manifest, cards, decks), "compatibility", "register".

Each stage is its own module: ``finding``, ``loading``, ``checking`` (compatibility and decks),
``registering``; what passes between them is in ``model``.  This one runs them (:func:`discover`)
and keeps every name importable from here.

We do not use pluggy's ``load_setuptools_entrypoints``: it drops duplicate names silently and
stops at the first broken plugin.
"""


from __future__ import annotations

from collections.abc import Iterable

import pluggy

from hkk._config import load_set_selection
from hkk._errors import SetError
from hkk._plugin import make_plugin_manager
from hkk._sets.checking import check_compatibility, dependency_closure, dependency_order, load_decks
from hkk._sets.finding import check_duplicates, codes_from_env, find_sets, select_sets
from hkk._sets.loading import _describe, load_candidate
from hkk._sets.model import (
    ENTRY_POINT_GROUP,
    ENV_ALLOW,
    ENV_DENY,
    PLUGIN_NAME_PREFIX,
    Candidate,
    Discovery,
    EntryPointLike,
    LoadedSet,
    _fail,
)
from hkk._sets.registering import register

__all__ = [
    "ENTRY_POINT_GROUP", "ENV_ALLOW", "ENV_DENY", "PLUGIN_NAME_PREFIX",
    "Candidate", "LoadedSet", "Discovery",
    "find_sets", "select_sets", "check_duplicates", "load_candidate", "check_compatibility",
    "load_decks", "dependency_order", "dependency_closure", "register", "discover",
    "codes_from_env",
]


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
    formats = {name: fmt for s in usable for name, fmt in s.formats.items()}
    return Discovery(sets=sets, failures=failures, disabled=disabled, cards=cards, decks=decks,
                     disabled_by=" and ".join(dict.fromkeys(chosen_by)),
                     pm=pm, formats=formats)
