"""``hkk verify --differential N``: a set's games on the native core and on the Python engine,
the reference, compared event for event at the full log level (docs/NATIVE.md).  The native
core is reached through the ``hkk.cores`` seam (its ``refuses`` and ``compare``), so the engine
does not import it."""

from __future__ import annotations

from typing import Any

from hkk._cores import core_entries
from hkk._deck_specs import cards_by_set, deck_pairs, play_command, resolve_deck_spec
from hkk._errors import CoreError, HkkError, SetError
from hkk._verify_games import Run, engine_for
from hkk._verify_report import Check

#: What a usage error says when the native core is not installed.
INSTALL = "pip install ./plugins/hkk-native (the native core; a Rust build, needs cargo)"


def native_core() -> Any:
    """The installed native core; a CoreError saying how to install it when it is not."""
    try:
        return core_entries().get("native")
    except (CoreError, ImportError) as exc:
        raise CoreError(f"--differential needs the native core: {INSTALL} ({exc})") from None


def differential_checks(run: Run, games: int, seed: int, entry_points: Any) -> list[Check]:
    """``games`` seeded games of the run's deck pairings (game i: seed ``seed + i``, pairing
    i mod their number, as the verify games) with the default agents on both cores.  The first
    difference fails; a pairing the native core refuses is a warning naming why, and a run
    of which it ran no game says so (a warning, never an OK)."""
    target = None if run.target == "all" else run.target
    core = native_core()
    try:
        engine = engine_for(run.codes, entry_points)
        set_cards = cards_by_set(engine)
        lists = {spec: resolve_deck_spec(engine, spec, set_cards) for spec in run.specs}
    except (HkkError, SetError) as exc:
        return [Check("differential", run.target, False, f"cannot set up the run: {exc}",
                      set_code=target)]
    pairs = deck_pairs(run.specs, run.target)
    if not pairs:
        return []
    refusals = {pair: core.refuses(engine, [lists[d] for d in pair]) for pair in pairs}
    checks = [Check("differential", run.target, False,
                    f"{' vs '.join(pair)}: not compared, the native core refuses it: {reason}",
                    severity="warning", set_code=target)
              for pair, reason in refusals.items() if reason is not None]
    compared = 0
    for i in range(games):
        pair = pairs[i % len(pairs)]
        if refusals[pair] is not None:
            continue
        game_seed = seed + i
        difference = core.compare(engine, [lists[d] for d in pair], game_seed)
        compared += 1
        if difference is not None:
            return checks + [Check(
                "differential", run.target, False,
                f"the cores differ on {' vs '.join(pair)}: {difference.splitlines()[0]}",
                set_code=target, seed=game_seed, details=difference,
                command=play_command(game_seed, pair, run.codes, None))]
    if compared:
        checks.append(Check("differential", run.target, True,
                            f"{compared} game(s) identical on both cores, event for event",
                            set_code=target))
    elif games:
        checks.append(Check("differential", run.target, False,
                            "no game compared: the native core refuses every pairing of "
                            "the decks", severity="warning", set_code=target))
    return checks
