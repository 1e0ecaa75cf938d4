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
   depends on, and no name is offered twice;
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
7. **cost** - for a set that depends on sets with decks: the same seeded games on those decks
   with the dependencies alone and with the set too (:mod:`hkk._setcost`); a set that makes them
   more than ``max_slowdown`` times slower (median of the per-game ratios, default 3) fails.

Decks: a run plays the decks of its sets.  A set **without decks of its own** plays each deck of
the sets it depends on with its own cards mixed in (deck spec ``alap:tuz+mereg``: the deck plus
two copies of every card of ``mereg``); with no such deck either, a deck of its own cards alone
(spec ``mereg``).  :func:`resolve_deck_spec` reads these specs, and ``hkk play --decks`` takes
them too, so the command printed for a failure reproduces it exactly.
"""

from __future__ import annotations

import itertools
import os
import shlex
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from hkk._deprecation import uses as deprecated_uses
from hkk._engine import Engine
from hkk._errors import (
    GameTimeout,
    HkkError,
    HookError,
    InvariantViolation,
    RuleViolation,
    SetError,
    plugin_set,
    step_name,
)
from hkk._invariants import check_finished, watch
from hkk._limits import DEFAULT_GAME_TIMEOUT, time_limit
from hkk._plugin import make_plugin_manager
from hkk._runner import play_game
from hkk._setcost import DEFAULT_MAX_FACTOR, measure
from hkk._sets.discovery import dependency_closure, discover
from hkk._spoiler import SpoilerError, compare, read_spoiler

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

#: Copies of each card of a deck-less set mixed into a deck of the sets it depends on.
MIX_COPIES = 2


# -- results -------------------------------------------------------------------------------------

@dataclass
class Check:
    """One check's outcome.  ``ok=False`` with ``severity="warning"`` does not fail the run."""

    name: str
    target: str  # a set code, or "all" for the run with every set
    ok: bool
    message: str = ""
    severity: str = "error"
    set_code: str | None = None
    card: str | None = None
    seed: int | None = None
    command: str | None = None
    details: str = ""
    #: Where in the author's files it broke (a set's own frame), for annotations and JUnit.
    file: str | None = None
    line: int | None = None
    #: Seconds the check took (the games of a run, one failing game).
    time: float = 0.0
    #: What makes two failures "the same" (grouped in the output, seeds listed).
    signature: str = ""

    @property
    def failed(self) -> bool:
        return not self.ok and self.severity == "error"

    def headline(self) -> str:
        parts = [f"{self.name} [{self.target}]"]
        if self.set_code and self.set_code != self.target:
            parts.append(f"set {self.set_code}")
        if self.card:
            parts.append(f"card {self.card}")
        if self.seed is not None:
            parts.append(f"seed {self.seed}")
        return ", ".join(parts) + (f": {self.message}" if self.message else "")


@dataclass
class Coverage:
    code: str
    cards: list[str] = field(default_factory=list)
    played: set[str] = field(default_factory=set)
    abilities: list[tuple[str, int]] = field(default_factory=list)
    fired: set[tuple[str, int]] = field(default_factory=set)
    hooks: dict[str, dict[str, int]] = field(default_factory=dict)  # name -> calls, with_items
    #: Items of the set's cards that are not a data ability (made by its Python hooks), by
    #: label: counted apart, so "abilities fired" compares like with like (issue 13).
    python_items: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "cards": len(self.cards), "played": sorted(self.played),
            "not_played": [c for c in self.cards if c not in self.played],
            "abilities": len(self.abilities),
            "fired": [f"{c}:{i}" for c, i in sorted(self.fired)],
            "not_fired": [f"{c}:{i}" for c, i in self.abilities if (c, i) not in self.fired],
            "python_items": dict(sorted(self.python_items.items())),
            "hooks": self.hooks,
            "hooks_not_reached": sorted(h for h, n in self.hooks.items() if not n["calls"]),
        }


@dataclass
class VerifyReport:
    checks: list[Check] = field(default_factory=list)
    coverage: dict[str, Coverage] = field(default_factory=dict)
    games_played: int = 0

    @property
    def ok(self) -> bool:
        return not any(c.failed for c in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if c.failed]

    @property
    def warnings(self) -> list[Check]:
        return [c for c in self.checks if not c.ok and c.severity == "warning"]

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "games_played": self.games_played,
                "checks": [_check_dict(c) for c in self.checks],
                "coverage": {code: cov.as_dict() for code, cov in self.coverage.items()}}

    def groups(self) -> list[list[Check]]:
        """The checks, the same failure in several games (equal :attr:`Check.signature`)
        together, in the order of their first occurrence."""
        grouped: dict[Any, list[Check]] = {}
        for i, check in enumerate(self.checks):
            key = (check.name, check.target, check.signature) if check.signature and \
                not check.ok else i
            grouped.setdefault(key, []).append(check)
        return list(grouped.values())

    def junit_xml(self) -> str:
        """The checks as a JUnit XML test suite (CI systems display these): ``time`` on the
        suite and each case, ``file``/``line`` on a case that broke in a set's own file."""
        import xml.etree.ElementTree as ET

        suite = ET.Element("testsuite", name="hkk-verify", tests=str(len(self.checks)),
                           failures=str(len(self.failures)), errors="0", skipped="0",
                           time=f"{sum(c.time for c in self.checks):.3f}")
        for check in self.checks:
            name = check.name + (f"[seed {check.seed}]" if check.seed is not None else "")
            case = ET.SubElement(suite, "testcase", classname=f"hkk.verify.{check.target}",
                                 name=name, time=f"{check.time:.3f}")
            if check.file:
                case.set("file", check.file)
                if check.line is not None:
                    case.set("line", str(check.line))
            if check.failed:
                failure = ET.SubElement(case, "failure", message=check.headline())
                failure.text = "\n".join(filter(None, [
                    check.headline(),
                    f"reproduce: {check.command}" if check.command else "", check.details]))
            elif not check.ok:
                out = ET.SubElement(case, "system-out")
                out.text = "warning: " + check.headline()
        return ET.tostring(suite, encoding="unicode", xml_declaration=True)



def _many(count: int, noun: str) -> str:
    """``1 deck``, ``2 decks``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"

def _check_dict(check: Check) -> dict[str, Any]:
    data = asdict(check)
    data["status"] = "passed" if check.ok else "failed" if check.failed else "warning"
    if check.ok:
        data["severity"] = None  # a passing check is no error (issue 13)
    return data


def github_annotations(report: VerifyReport) -> list[str]:
    """Failures and warnings as GitHub Actions workflow commands (``::error file=…,line=…::``,
    as ruff prints them), one per group of the same failure, its seeds listed."""
    lines = []
    for group in report.groups():
        check = group[0]
        if check.ok:
            continue
        level = "error" if check.failed else "warning"
        props = {}
        if check.file:
            props["file"] = check.file
            if check.line is not None:
                props["line"] = str(check.line)
        props["title"] = f"hkk verify: {check.name} [{check.target}]"
        text = check.message
        seeds = [c.seed for c in group if c.seed is not None]
        if seeds:
            text += f" (seeds {', '.join(map(str, seeds))})"
        if check.command:
            text += f"\nreproduce: {check.command}"
        shown = ",".join(f"{key}={_escape_property(value)}" for key, value in props.items())
        lines.append(f"::{level} {shown}::{_escape_data(text)}")
    return lines


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


# -- decks ---------------------------------------------------------------------------------------

def resolve_deck_spec(engine: Any, spec: str, set_cards: dict[str, list[str]] | None = None
                      ) -> list[str]:
    """Card ids of a deck spec: ``+``-joined parts, each a deck name (``alap:tuz``, has a colon)
    or a set code (``mereg``: :data:`MIX_COPIES` copies of each of its cards)."""
    if set_cards is None:
        set_cards = _cards_by_set(engine)
    cards: list[str] = []
    for part in spec.split("+"):
        part = part.strip()
        if ":" in part:
            cards.extend(engine.deck(part))
        elif part in set_cards:
            cards.extend(c for c in set_cards[part] for _ in range(MIX_COPIES))
        else:
            raise HkkError(f"unknown deck or set {part!r} in deck spec {spec!r}; known decks: "
                           f"{', '.join(sorted(engine.decks))}; sets: "
                           f"{', '.join(sorted(set_cards))}")
    return sorted(cards)


def _cards_by_set(engine: Any) -> dict[str, list[str]]:
    by_set: dict[str, list[str]] = {}
    for card_id in sorted(engine.cards):
        by_set.setdefault(card_id.split(":", 1)[0], []).append(card_id)
    if engine.discovery is not None:  # a set with no cards is still a known set
        for code in engine.discovery.sets:
            by_set.setdefault(code, [])
    return by_set


def deck_specs(sets: Sequence[Any]) -> list[str]:
    """The deck specs a run with these (loaded) sets plays; see the module docstring."""
    by_code = {s.code: s for s in sets}
    specs: list[str] = []
    for s in sets:
        if s.decks:
            specs.extend(f"{s.code}:{name}" for name in sorted(s.decks))
            continue
        if not s.cards:
            continue  # nothing of its own to play: its hooks meet the other sets' decks
        dep_decks = [f"{d}:{name}" for d in _closure(s.code, by_code) if d != s.code
                     for name in sorted(by_code[d].decks)]
        specs.extend(f"{deck}+{s.code}" for deck in dep_decks) if dep_decks \
            else specs.append(s.code)
    return sorted(dict.fromkeys(specs))


def _closure(code: str, by_code: dict[str, Any]) -> list[str]:
    """The loaded sets ``code`` needs, itself included."""
    return [c for c in dependency_closure([code], by_code) if c in by_code]


def _pairs(specs: Sequence[str], target: str) -> list[tuple[str, str]]:
    """Ordered pairs of different specs; for a single set's run only those in which one of its
    own decks (or its cards mixed in) plays.  One spec alone plays the mirror match."""
    if len(specs) == 1:
        return [(specs[0], specs[0])]
    pairs = list(itertools.permutations(specs, 2))
    if target != "all":
        pairs = [p for p in pairs if any(_owns(spec, target) for spec in p)] or pairs
    return pairs


def _owns(spec: str, code: str) -> bool:
    return any(part == code or part.startswith(f"{code}:") for part in spec.split("+"))


def play_command(seed: int, decks: Sequence[str], sets: Sequence[str] | None = None,
                 max_turns: int | None = None) -> str:
    """The ``hkk play`` command line that plays this game again."""
    words = ["hkk", "play", "--seed", str(seed), "--decks", *decks]
    for code in sets or ():
        words += ["--set", code]
    if max_turns is not None:
        words += ["--max-turns", str(max_turns)]
    return shlex.join(words)


# -- the run -------------------------------------------------------------------------------------

Progress = Callable[[str, int, int], None]  # (what, done, total)


@dataclass
class _Run:
    target: str  # set code or "all"
    codes: list[str]  # the sets enabled in it
    specs: list[str]


def verify(codes: Iterable[str] | None = None, *, games: int = 10, seed: int = 0,
           max_turns: int | None = None, entry_points: Any = None,
           progress: Progress | None = None,
           game_timeout: float | None = DEFAULT_GAME_TIMEOUT,
           against: str | None = None,
           max_slowdown: float | None = DEFAULT_MAX_FACTOR) -> VerifyReport:
    """Verify the installed sets (or only ``codes``, with the sets they depend on); see the
    module docstring.  Never raises for a problem of a set: everything is in the report -
    except a KeyboardInterrupt, which stops it (with ``exc.report``, the report so far).
    ``game_timeout``: seconds each game may take (None or 0: no limit).  ``against``: a
    spoiler file (CSV or JSON, :mod:`hkk._spoiler`) the one set named must match;
    ``max_slowdown``: how many times slower a set may make its dependencies' games (None or
    0: not measured)."""
    report = VerifyReport()
    found = discover(entry_points=entry_points)
    disabled = {c.code for c in found.disabled}
    known = set(found.sets) | {f.code for f in found.failures if f.code}
    wanted = sorted(set(codes)) if codes else sorted(known)
    by_code = found.sets
    relevant = {c for code in wanted for c in _closure(code, by_code)} | set(wanted)

    # 1. discovery
    for error in found.failures:
        mine = error.code in relevant or not codes
        report.checks.append(Check(
            "discovery", error.code or "?", False, str(error), set_code=error.code,
            severity="error" if mine else "warning",
            command=f"hkk verify {error.code}" if error.code else "hkk sets"))
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
        report.checks.extend(_packaging_checks(by_code[code], by_code))
        report.checks.extend(_custom_effect_checks(code, by_code, entry_points))
        report.checks.extend(_deprecation_checks(by_code[code]))
    if against is not None:
        report.checks.extend(_spoiler_checks(targets, by_code, against))

    # 4.-6. games
    runs = [_Run(code, _closure(code, by_code), []) for code in targets]
    everything = sorted(by_code)
    if all(run.codes != everything for run in runs):
        runs.append(_Run("all", everything, []))
    for run in runs:
        run.specs = deck_specs([by_code[c] for c in run.codes])
    for code in sorted(relevant & set(by_code)):
        report.coverage[code] = _new_coverage(by_code[code])
    if games > 0:
        total = games * len(runs)
        try:
            for run in runs:
                _play_run(report, run, everything, games=games, seed=seed,
                          max_turns=max_turns, entry_points=entry_points, progress=progress,
                          total=total, timeout=game_timeout)
        except KeyboardInterrupt as exc:
            exc.report = report  # type: ignore[attr-defined]
            raise
        if max_slowdown and not report.failures:  # 7. cost (hkk._setcost)
            for code in targets:
                report.checks.extend(_cost_checks(code, by_code, games, seed, max_turns,
                                                  max_slowdown, entry_points))
    return report


def _packaging_checks(s: Any, by_code: dict[str, Any]) -> list[Check]:
    import importlib_metadata
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    if not s.distribution:
        return []
    try:
        requires = importlib_metadata.distribution(s.distribution).requires or []
    except importlib_metadata.PackageNotFoundError:
        return []
    reqs = {}
    for line in requires:
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            reqs[canonicalize_name(req.name)] = req
    checks = []
    engine_version = importlib_metadata.version("hkk")
    engine_req = reqs.get(canonicalize_name("hkk"))
    if canonicalize_name(s.distribution) == "hkk":  # the base set ships inside the engine
        checks.append(Check("packaging", s.code, True, f"ships with hkk {engine_version}",
                            set_code=s.code))
    elif engine_req is None:
        checks.append(Check("packaging", s.code, False, f"{s.distribution} does not require "
                            "'hkk' in its dependencies", severity="warning", set_code=s.code))
    elif not engine_req.specifier.contains(engine_version, prereleases=True):
        checks.append(Check("packaging", s.code, False,
                            f"{s.distribution} requires {engine_req}, installed hkk is "
                            f"{engine_version}", set_code=s.code))
    else:
        checks.append(Check("packaging", s.code, True,
                            f"requires {engine_req}; installed hkk {engine_version}",
                            set_code=s.code))
    for dep in s.manifest.depends:
        dist = by_code[dep].distribution if dep in by_code else None
        if dist and canonicalize_name(dist) not in reqs:
            checks.append(Check("packaging", s.code, False,
                                f"set.toml depends on {dep} but {s.distribution} does not "
                                f"require its distribution {dist}", severity="warning",
                                set_code=s.code))
    return checks


def _spoiler_checks(targets: list[str], by_code: dict[str, Any], against: str) -> list[Check]:
    """The one set's cards against its published card list (:mod:`hkk._spoiler`)."""
    if len(targets) != 1:
        return [Check("spoiler", "all", False, f"--against compares one set with its spoiler; "
                      f"name exactly one set (got {', '.join(targets)})")]
    code = targets[0]
    try:
        spoiler = read_spoiler(against)
    except SpoilerError as exc:
        return [Check("spoiler", code, False, str(exc), set_code=code)]
    problems = compare(by_code[code].cards, spoiler)
    return [Check("spoiler", code, False, message, set_code=code, card=card)
            for card, message in problems] or [
        Check("spoiler", code, True, f"all {len(spoiler)} published cards match {against}, "
                                     "none unpublished", set_code=code)]


def _deprecation_checks(s: Any) -> list[Check]:
    """A warning per use of a deprecated hook or hook argument: a release of notice before the
    hook API removes it (:mod:`hkk._deprecation`)."""
    return [Check("deprecated-api", s.code, False, use.describe(), severity="warning",
                  set_code=s.code) for use in deprecated_uses(s.module)]


def _custom_effect_checks(code: str, by_code: dict[str, Any], entry_points: Any) -> list[Check]:
    s = by_code[code]
    used = [(card.id, effect.name) for card in s.cards for effect in _effects_of(card)
            if getattr(effect, "do", None) == "custom"]
    if not used and "custom_effects" not in s.hook_names:
        return []
    try:
        engine = _engine(_closure(code, by_code), entry_points)
        offered = engine.custom_effects()
    except HkkError as exc:
        return [Check("custom-effects", code, False, str(exc), set_code=code)]
    checks = [Check("custom-effects", code, False,
                    f"card uses custom effect {name!r}, which no set offers (offered: "
                    f"{sorted(offered)})", set_code=code, card=card_id)
              for card_id, name in used if name not in offered]
    return checks or [Check("custom-effects", code, True,
                            f"{len(used)} use(s) of {len(offered)} offered effect(s)",
                            set_code=code)]


def _effects_of(card: Any) -> list[Any]:
    effects = list(getattr(card, "effects", ()))
    for ability in card.abilities:
        effects.extend(ability.effects)
    return effects


def _engine(codes: Sequence[str], entry_points: Any) -> Any:
    pm = make_plugin_manager()
    # Not strict: a broken set outside ``codes`` (even a badly named entry point) is not ours.
    found = discover(entry_points=entry_points, allow=codes, deny=(), pm=pm)
    for error in found.failures:
        if error.code in codes or error.code is None:
            raise error
    return Engine(found.cards, decks=found.decks, pm=pm, discovery=found)


def _new_coverage(s: Any) -> Coverage:
    return Coverage(code=s.code, cards=[c.id for c in s.cards],
                    abilities=[(c.id, i) for c in s.cards for i, a in enumerate(c.abilities)
                               if a.kind != "static"],
                    hooks={name: {"calls": 0, "with_items": 0} for name in s.hook_names})


def _probe_hooks(engine: Any, coverage: dict[str, Coverage]) -> None:
    """Count the calls of the sets' hook implementations in this engine's games, through
    pluggy's own hook-call monitoring, so nothing of the set or of pluggy is patched: a call
    counts for each set implementing the hook, and ``with_items`` when the call's result was
    not empty."""
    def before(hook_name: str, impls: Any, kwargs: Any) -> None:
        pass

    def after(outcome: Any, hook_name: str, impls: Any, kwargs: Any) -> None:
        result = outcome.get_result() if outcome.exception is None else None
        for code in {plugin_set(impl.plugin_name) for impl in impls}:
            cov = coverage.get(code) if code is not None else None
            if cov is None:
                continue
            counts = cov.hooks.setdefault(hook_name, {"calls": 0, "with_items": 0})
            counts["calls"] += 1
            if result and any(result):
                counts["with_items"] += 1

    engine.pm.add_hookcall_monitoring(before, after)


def _record(game: Any, coverage: dict[str, Coverage]) -> None:
    for event in game.log:
        card = event.get("card")
        if not isinstance(card, str):
            continue
        cov = coverage.get(card.split(":", 1)[0])
        if cov is None:
            continue
        if event.kind in ("card_played", "entered_play"):
            cov.played.add(card)
        elif event.kind == "resolving":
            ability = event.ability
            if (card, ability) in cov.abilities:
                cov.fired.add((card, ability))
            elif event.item_kind != "play":
                label = str(event.item)
                cov.python_items[label] = cov.python_items.get(label, 0) + 1


def _play_run(report: VerifyReport, run: _Run, everything: list[str], *, games: int, seed: int,
              max_turns: int | None, entry_points: Any, progress: Progress | None,
              total: int, timeout: float | None = None) -> None:
    sets_arg = None if run.codes == everything else run.codes
    if not run.specs:
        report.checks.append(Check("games", run.target, False,
                                   "no decks to play: neither the set nor the sets it depends "
                                   "on have decks or cards", severity="warning",
                                   set_code=None if run.target == "all" else run.target))
        return
    try:
        engine = _engine(run.codes, entry_points)
        _probe_hooks(engine, {c: report.coverage[c] for c in run.codes if c in report.coverage})
        set_cards = _cards_by_set(engine)
        lists = {spec: resolve_deck_spec(engine, spec, set_cards) for spec in run.specs}
    except (HkkError, SetError) as exc:
        report.checks.append(Check("games", run.target, False, f"cannot set up the run: {exc}",
                                   set_code=None if run.target == "all" else run.target))
        return
    pairs = _pairs(run.specs, run.target)
    failed = 0
    first_log: Any = None
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        decks = pairs[i % len(pairs)]
        command = play_command(game_seed, decks, sets_arg, max_turns)
        game_started = time.perf_counter()
        try:
            game, error = play_checked(engine, [lists[d] for d in decks], game_seed, max_turns,
                                    timeout, describe=f"{command} ({run.target})")
        except KeyboardInterrupt as exc:  # Ctrl-C, or a set raising it: stop, saying where
            report.checks.append(_game_failure(run, getattr(exc, "game", None), exc, game_seed,
                                               command, engine))
            raise
        report.games_played += 1
        if progress is not None:
            progress(f"{run.target}", report.games_played, total)
        if game is not None:  # a game that crashed played its cards too (issue 13)
            _record(game, report.coverage)
        if error is not None:
            failed += 1
            check = _game_failure(run, game, error, game_seed, command, engine)
            check.time = time.perf_counter() - game_started
            report.checks.append(check)
            continue
        if i == 0:
            first_log = game.log
            report.checks.append(_determinism(run, engine, lists, decks, game_seed, max_turns,
                                              first_log, command, entry_points, timeout))
    if not failed:
        report.checks.append(Check("games", run.target, True,
                                   f"{games} game(s) on {', '.join(run.specs)}",
                                   set_code=None if run.target == "all" else run.target,
                                   time=time.perf_counter() - started))


def play_checked(engine: Any, decks: list[list[str]], seed: int, max_turns: int | None,
              timeout: float | None = None, describe: str = ""
              ) -> tuple[Any, BaseException | None]:
    """Play one game as ``hkk verify`` does - invariants watched (:mod:`hkk._invariants`), within
    ``timeout`` seconds (:mod:`hkk._limits`) - and return the game and what it raised (None: it
    passed).  A KeyboardInterrupt propagates, with ``game`` on it."""
    game = None

    def where() -> str:
        return f"{describe}, turn {game.turn}, {step_name(game.turn, game.log.step)}" \
            if game else describe
    try:
        game = watch(engine.new_game(decks, seed=seed))
        with time_limit(timeout, where):
            play_game(game, max_turns=max_turns)
        check_finished(game)
        game.log.to_json()  # events must be plain data
    except KeyboardInterrupt as exc:
        exc.game = game  # type: ignore[attr-defined]
        raise
    except (Exception, SystemExit, GameTimeout) as exc:  # noqa: BLE001 - the finding
        return game, exc
    return game, None


def _game_failure(run: _Run, game: Any, error: BaseException, seed: int, command: str,
                  engine: Any = None) -> Check:
    set_code = getattr(error, "set_code", None)
    card = getattr(error, "card", None)
    if isinstance(error, GameTimeout) and engine is not None and error.module:
        set_code = _set_of_module(engine, error.module)
    if game is not None and card is None:
        # the item being resolved when it broke: a resolving event after the step's start
        for event in reversed(list(game.log)):
            if event.kind == "step_started":
                break
            if event.kind == "resolving":
                card = event.get("card")
                break
    if set_code is None and card:
        set_code = card.split(":", 1)[0]
    if set_code is None and run.target != "all":
        set_code = run.target
    kind = "rule violation" if isinstance(error, RuleViolation) else \
        "error in a set's code" if isinstance(error, HookError) else \
        "invariant broken" if isinstance(error, InvariantViolation) else \
        "time limit" if isinstance(error, GameTimeout) else \
        "interrupted" if isinstance(error, KeyboardInterrupt) else type(error).__name__
    where = f" (turn {game.turn}, {step_name(game.turn, game.log.step)})" \
        if game is not None else ""
    if isinstance(error, InvariantViolation):
        where = ""  # the message says where
    frames = _author_frames(error, engine)
    details = "".join(traceback.format_exception(error)[-12:])
    if frames:  # the author's own lines first: the engine's frames say little to them
        details = "in the set's code (innermost last):\n" + "".join(
            traceback.format_list(frames)) + "\n" + details
    file, line = (_shown_path(frames[-1].filename), frames[-1].lineno) if frames else (None, None)
    signature = f"{type(error).__name__}: {error}"
    if isinstance(error, GameTimeout):
        signature = f"{type(error).__name__}: {set_code}"  # where it was differs per game
    elif frames:
        signature = f"{file}:{line}: {signature}"
    return Check("games", run.target, False, f"{kind}{where}: {str(error) or 'KeyboardInterrupt'}",
                 set_code=set_code, card=card, seed=seed, command=command, details=details,
                 file=file, line=line, signature=signature)


def _set_folders(engine: Any) -> list[str]:
    """The package folders of the loaded sets that have code."""
    folders = []
    for s in (engine.discovery.sets.values() if engine is not None and
              engine.discovery is not None else ()):
        path = getattr(s.module, "__file__", None) if s.module is not None else None
        if path:
            folders.append(os.path.dirname(os.path.abspath(path)) + os.sep)
    return folders


def _author_frames(error: BaseException, engine: Any) -> list[traceback.FrameSummary]:
    """The frames of ``error`` (and the exceptions it was raised from) in a set's own files,
    innermost last."""
    folders = _set_folders(engine)
    if not folders:
        return []
    chain: list[BaseException] = []
    exc: BaseException | None = error
    while exc is not None and exc not in chain:
        chain.append(exc)
        exc = exc.__cause__ or exc.__context__
    frames: list[traceback.FrameSummary] = []
    for exc in reversed(chain):  # the original exception first: its frames are the author's
        frames.extend(f for f in traceback.extract_tb(exc.__traceback__)
                      if os.path.abspath(f.filename).startswith(tuple(folders)))
    return frames


def _shown_path(path: str) -> str:
    """Relative to the current folder when inside it (GitHub annotations want repo paths)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if rel.startswith("..") else rel


def _set_of_module(engine: Any, module: str) -> str | None:
    """The code of the loaded set whose package ``module`` belongs to."""
    for code, s in (engine.discovery.sets if engine.discovery is not None else {}).items():
        if s.module is None:  # a data-only set runs no code of its own
            continue
        name = str(s.module.__name__)
        if module == name or module.startswith(name + "."):
            return str(code)
    return None


def _determinism(run: _Run, engine: Any, lists: dict[str, list[str]], decks: Sequence[str],
                 seed: int, max_turns: int | None, first: Any, command: str,
                 entry_points: Any, timeout: float | None = None) -> Check:
    target = None if run.target == "all" else run.target
    try:
        again = _engine(run.codes, entry_points)
    except HkkError as exc:
        return Check("determinism", run.target, False, str(exc), set_code=target)
    game, error = play_checked(again, [lists[d] for d in decks], seed, max_turns, timeout,
                            describe=command)
    if error is not None:
        return Check("determinism", run.target, False,
                     f"the second run of the same seed raised {type(error).__name__}: {error}",
                     set_code=target, seed=seed, command=command)
    a, b = first.as_dicts(), game.log.as_dicts()
    if a == b:
        return Check("determinism", run.target, True, f"same seed twice: {len(a)} identical events",
                     set_code=target, seed=seed)
    index = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                 min(len(a), len(b)))
    first_diff = a[index] if index < len(a) else "(end of log)"
    second_diff = b[index] if index < len(b) else "(end of log)"
    card = next((e.get("card") for e in (first_diff, second_diff)
                 if isinstance(e, dict) and e.get("card")), None)
    return Check("determinism", run.target, False,
                 f"same seed twice gave different logs from event {index}",
                 set_code=target, card=card, seed=seed, command=command,
                 details=f"first run:  {first_diff}\nsecond run: {second_diff}")


def _cost_checks(code: str, by_code: dict[str, Any], games: int, seed: int,
                 max_turns: int | None, max_factor: float, entry_points: Any) -> list[Check]:
    """The set's cost (:mod:`hkk._setcost`): its dependencies' decks played without and with
    it.  A set that depends on no set with decks has nothing to be compared with."""
    deps = [c for c in _closure(code, by_code) if c != code]
    specs = deck_specs([by_code[c] for c in deps])
    if not specs:
        return []
    try:
        without, with_set = _engine(deps, entry_points), _engine(deps + [code], entry_points)
        decks = [(resolve_deck_spec(without, a), resolve_deck_spec(without, b))
                 for a, b in _pairs(specs, "all")]
        cost = measure(code, without, with_set, decks, games=games, seed=seed,
                       max_turns=max_turns, max_factor=max_factor)
    except (HkkError, SetError) as exc:
        return [Check("cost", code, False, f"cannot measure: {exc}", set_code=code)]
    return [Check("cost", code, cost.ok, cost.message(), set_code=code,
                  command=None if cost.ok else f"hkk verify {code} --games {games}")]
