"""``hkk verify``: the CI gate for card sets, as a plain function (the CLI and the pytest plugin
both call :func:`verify`).

What it checks, in order:

1. **discovery** - every installed set is found, imported, its ``set.toml`` and cards validate,
   its hook names exist, no card id is claimed twice, its ``requires`` admits this engine's hook
   API and the sets it ``depends`` on load (all of this is :func:`hkk._sets.discover`; any set
   failure fails verification, as strict mode would);
2. **packaging** - the set's distribution requires ``hkk`` with a specifier the installed engine
   satisfies (the base set is part of ``hkk`` itself), and requires the distributions of the
   sets it depends on (warning);
3. **custom effects** - every ``do = "custom"`` a card uses is offered by the set or a set it
   depends on, and no name is offered twice; **card text** - every card's printed ``text``
   says what its data does (:mod:`hkk._card_text_check`; ``text_checked = false`` opts out);
   **deck-format** - each of the set's decks meets
   every format it names (``formats = [...]`` in its table; naming none, ``casual``), each
   violation a failure, and the formats it ships name only existing cards (:mod:`hkk._formats`);
4. **games** - N seeded games between two random agents for each set alone (with the sets it
   depends on) and for all installed sets together; anything a game raises fails it (a set's
   ``sys.exit()`` too), as does a game that runs past ``game_timeout`` seconds
   (:mod:`hkk._limits`) or breaks an invariant (:mod:`hkk._invariants`: a settled board after
   every Ép check, no negative VP or components, every card in one zone, every started effect
   ended or in force, one game end); a KeyboardInterrupt stops the run with a failure naming
   the game (the partial report rides on the exception as ``report``);
5. **determinism** - the first game of each run is played again in a fresh engine and must give
   an identical event log;
6. **coverage** (information, never a failure) - which cards were played, which abilities fired
   (``resolving`` events carrying card and ability), which of the set's hookimpls were reached
   and which returned items;
7. **differential** (``differential=N``, off by default; needs the native core) - N seeded
   games of each set's deck pairings with the default agents on the native core and on the
   Python engine, compared event for event at the full log level (:mod:`hkk._verify_differential`);
   the first difference fails, a pairing the native core refuses is a warning naming why;
8. **cost** - for a set that depends on sets with decks: the same seeded games on those decks
   with the dependencies alone and with the set too (:mod:`hkk._setcost`); a set that makes them
   more than ``max_slowdown`` times slower (median of the per-game ratios, default 3) fails.

Decks: a run plays the decks of its sets.  A set **without decks of its own** plays each deck of
the sets it depends on with its own cards mixed in (deck spec ``alap:tuz+mereg``: the deck plus
two copies of every card of ``mereg``); with no such deck either, a deck of its own cards alone
(spec ``mereg``).  :func:`resolve_deck_spec` reads these specs, and ``hkk play --decks`` takes
them too, so the command printed for a failure reproduces it exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hkk._card_text_check import card_text_checks
from hkk._deck_specs import (
    MIX_COPIES,
    deck_pairs,
    deck_specs,
    needed_sets,
    play_command,
    resolve_deck_spec,
)
from hkk._errors import HkkError, SetError
from hkk._limits import DEFAULT_GAME_TIMEOUT
from hkk._setcost import DEFAULT_MAX_FACTOR, measure
from hkk._sets.discovery import discover
from hkk._verify_checks import (
    custom_effect_checks,
    deck_format_checks,
    deprecation_checks,
    packaging_checks,
    spoiler_checks,
)
from hkk._verify_differential import differential_checks, native_core
from hkk._verify_games import (
    Progress,
    Run,
    engine_for,
    new_coverage,
    play_checked,
    play_run,
    shown_path,
)
from hkk._verify_report import Check, Coverage, VerifyReport, github_annotations

__all__ = [
    "MIX_COPIES",
    "Check",
    "Coverage",
    "VerifyReport",
    "deck_specs",
    "github_annotations",
    "play_checked",
    "play_command",
    "resolve_deck_spec",
    "verify",
]


def _many(count: int, noun: str) -> str:
    """``1 deck``, ``2 decks``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def verify(codes: Iterable[str] | None = None, *, games: int = 10, seed: int = 0,
           max_turns: int | None = None, entry_points: Any = None,
           progress: Progress | None = None,
           game_timeout: float | None = DEFAULT_GAME_TIMEOUT,
           against: str | None = None,
           max_slowdown: float | None = DEFAULT_MAX_FACTOR, core: str = "auto",
           differential: int = 0) -> VerifyReport:
    """Verify the installed sets (or only ``codes``, with the sets they depend on); see the
    module docstring.  Never raises for a problem of a set: everything is in the report -
    except a KeyboardInterrupt, which stops it (with ``exc.report``, the report so far).
    ``game_timeout``: seconds each game may take (None or 0: no limit).  ``against``: a
    spoiler file (CSV or JSON, :mod:`hkk._spoiler`) the one set named must match;
    ``max_slowdown``: how many times slower a set may make its dependencies' games (None or
    0: not measured).  ``core``: the core the games run on (``hkk.cores``; a named core that
    refuses a run's games fails the run).  ``differential``: games per set compared on both
    cores (0: none; without the native core installed, a CoreError saying how to install it)."""
    if differential:
        native_core()  # a usage error before anything is played
    report = VerifyReport()
    found = discover(entry_points=entry_points)
    disabled = {c.code for c in found.disabled}
    known = set(found.sets) | {f.code for f in found.failures if f.code}
    wanted = sorted(set(codes)) if codes else sorted(known)
    by_code = found.sets
    relevant = {c for code in wanted for c in needed_sets(code, by_code)} | set(wanted)

    # 1. discovery
    for error in found.failures:
        report.checks.extend(_failure_checks(error, mine=error.code in relevant or not codes))
    for code in sorted(disabled):
        report.checks.append(Check("discovery", code, False, f"set {code} is disabled by "
                                   "HKK_SETS_ALLOW / HKK_SETS_DENY or hkk.toml", set_code=code,
                                   severity="error" if code in wanted else "warning"))
    for code in wanted:
        if code in disabled:
            continue
        if code not in known:
            report.checks.append(Check("discovery", code, False,
                                       f"set {code} is not installed (no 'hkk.sets' entry point "
                                       "named so)", set_code=code, command="hkk sets"))
        elif code in by_code:
            s = by_code[code]
            report.checks.append(Check(
                "discovery", code, True,
                f"{s.label}: {_many(len(s.cards), 'card')}, {_many(len(s.decks), 'deck')}, hooks "
                f"{', '.join(s.hook_names) or 'none'}; requires hook API {s.manifest.requires}",
                set_code=code))
    if not wanted:
        report.checks.append(Check("discovery", "all", False, "no card sets to verify: none is "
                                   "installed (entry-point group 'hkk.sets') or all are disabled",
                                   command="hkk sets"))
    targets = [code for code in wanted if code in by_code]
    if not targets:
        return report

    # 2. packaging, 3. custom effects, deprecated hook API (warnings)
    for code in targets:
        report.checks.extend(packaging_checks(by_code[code], by_code))
        report.checks.extend(custom_effect_checks(code, by_code, entry_points))
        report.checks.extend(card_text_checks(by_code[code]))
        report.checks.extend(deprecation_checks(by_code[code]))
        report.checks.extend(deck_format_checks(by_code[code], found.formats, found.cards,
                                                by_code))
    if against is not None:
        report.checks.extend(spoiler_checks(targets, by_code, against))

    # 4.-6. games
    runs = [Run(code, needed_sets(code, by_code), []) for code in targets]
    everything = sorted(by_code)
    if all(run.codes != everything for run in runs):
        runs.append(Run("all", everything, []))
    for run in runs:
        run.specs = deck_specs([by_code[c] for c in run.codes])
    for code in sorted(relevant & set(by_code)):
        report.coverage[code] = new_coverage(by_code[code])
    if games > 0:
        total = games * len(runs)
        try:
            for run in runs:
                play_run(report, run, everything, games=games, seed=seed,
                          max_turns=max_turns, entry_points=entry_points, progress=progress,
                          total=total, timeout=game_timeout, core=core)
        except KeyboardInterrupt as exc:
            exc.report = report  # type: ignore[attr-defined]
            raise
    for run in runs if differential else ():  # 7. differential: the sets' own runs
        if run.target != "all":
            report.checks.extend(differential_checks(run, differential, seed, entry_points))
    if games > 0:
        if max_slowdown and not report.failures:  # 8. cost (hkk._setcost)
            for code in targets:
                report.checks.extend(_cost_checks(code, by_code, games, seed, max_turns,
                                                  max_slowdown, entry_points))
    return report


def _failure_checks(error: SetError, *, mine: bool) -> list[Check]:
    """A set that failed discovery: a check for each problem of its data files, at its file
    and line (issue 24 item 11), or one check for the failure."""
    options: dict[str, Any] = dict(
        set_code=error.code, severity="error" if mine else "warning",
        command=f"hkk verify {error.code}" if error.code else "hkk sets")
    if not error.problems:
        return [Check("discovery", error.code or "?", False, str(error), **options)]
    return [Check("discovery", error.code or "?", False, f"{error.prefix}: {problem}",
                  card=problem.card, file=shown_path(problem.source or problem.file),
                  line=problem.line, **options) for problem in error.problems]


# 8. cost: part of the run here, so it calls the ``measure`` of this module (the tests give it a
# fake clock by patching ``hkk.verify.measure``).
def _cost_checks(code: str, by_code: dict[str, Any], games: int, seed: int,
                 max_turns: int | None, max_factor: float, entry_points: Any) -> list[Check]:
    """The set's cost (:mod:`hkk._setcost`): its dependencies' decks played without and with
    it.  A set that depends on no set with decks has nothing to be compared with."""
    deps = [c for c in needed_sets(code, by_code) if c != code]
    specs = deck_specs([by_code[c] for c in deps])
    if not specs:
        return []
    try:
        without, with_set = engine_for(deps, entry_points), engine_for(deps + [code], entry_points)
        decks = [(resolve_deck_spec(without, a), resolve_deck_spec(without, b))
                 for a, b in deck_pairs(specs, "all")]
        cost = measure(code, without, with_set, decks, games=games, seed=seed,
                       max_turns=max_turns, max_factor=max_factor)
    except (HkkError, SetError) as exc:
        return [Check("cost", code, False, f"cannot measure: {exc}", set_code=code)]
    return [Check("cost", code, cost.ok, cost.message(), set_code=code,
                  command=None if cost.ok else f"hkk verify {code} --games {games}")]
