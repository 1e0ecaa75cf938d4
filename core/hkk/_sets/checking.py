"""Discovery stage 3, compatibility: dependency order, the hook API a set requires, card
ids defined twice, and the decks once every card is known (see :mod:`hkk._sets.discovery`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from packaging.version import InvalidVersion, Version

from hkk._errors import SetError
from hkk._plugin import HOOK_API_VERSION
from hkk._sets.loading import _data_error, _load_decks
from hkk._sets.model import LoadedSet, _fail

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
