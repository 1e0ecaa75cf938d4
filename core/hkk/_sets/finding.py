"""Discovery stage 1, find: the installed sets' entry points, the allow/deny selection and
duplicate codes (see :mod:`hkk._sets.discovery`)."""

from __future__ import annotations

import os
from collections.abc import Iterable

import importlib_metadata

from hkk._errors import SetError
from hkk._sets.manifest import SET_CODE_PATTERN, is_set_code
from hkk._sets.model import ENTRY_POINT_GROUP, Candidate, EntryPointLike, _fail

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
