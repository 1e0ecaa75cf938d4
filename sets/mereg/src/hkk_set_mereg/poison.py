"""Poison counters, Kódex 121.1: a creature with poison counters gets one more in each of its
controller's preparation phases, and dies when its counters reach its current Ép; its opponent
may extract no monster component from it.

Three hook implementations:

* ``lethal`` - the death condition.  The engine asks it at every Ép check (29.4.10, and [D]
  after every action and effect elsewhere), so a creature dies as soon as its counters reach its
  Ép, however that happens: a new counter, combat damage, an Ép bonus that ends.  It only looks.
* ``prep_stage2`` - the counter of each preparation phase, as a pending item; the Ép check that
  follows the item (29.4.10) kills the creature it finishes.
* ``custom_effects`` - the named effect ``mereg:poison`` for cards: put poison counters on the
  creatures the engine chose for the effect's ``target``.  The generic ``add_counters`` primitive
  with ``counter = "poison"`` works as well: ``lethal`` does not care where counters came from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hkk import RULE as RULE_ITEM
from hkk import EffectContext, Game, Lethal, Pending, Permanent, hookimpl

COUNTER = "poison"
RULE = "121.1"
EFFECT_NAME = "mereg:poison"
#: What ``lethal`` answers: cause "poison", rule 121.1, no monster component.
POISONED = Lethal("poison", RULE, components=False)
#: Targets the ``mereg:poison`` effect accepts: poison is only ever put on creatures.
CREATURE_TARGETS = frozenset({
    "self", "own_creatures", "opponent_creatures", "all_creatures",
    "chosen_creature", "chosen_own_creature", "chosen_opponent_creature",
})
#: The effect's params (its target is the effect's own ``target`` field, chosen by the engine).
PARAMS = frozenset({"count"})


def poison(perm: Permanent) -> int:
    return perm.counters.get(COUNTER, 0)


def poisoned_to_death(game: Game, perm: Permanent) -> bool:
    """121.1: a creature dies when its poison counters are at least its current Ép."""
    counters = poison(perm)
    return counters > 0 and perm.kind == "creature" and counters >= game.hp(perm)


# -- the rule ----------------------------------------------------------------------------------

@hookimpl
def lethal(game: Game) -> list[tuple[Permanent, Lethal]]:
    """121.1 as a continuous death condition, checked with Ép at every Ép check."""
    return [(perm, POISONED) for perm in game.creatures() if poisoned_to_death(game, perm)]


def _tick(game: Game, item: Pending, bound: Any) -> None:
    perm = item.source
    if perm is None or perm.uid not in game.permanents:  # died earlier in this stage
        return
    game.add_counters(perm, COUNTER, 1, source=item.label)
    # no kill here: the Ép check after this item (29.4.10) asks ``lethal``


@hookimpl
def prep_stage2(game: Game) -> list[Pending]:
    """121.1 in preparation stage 2 (not ``prep_stage2_start``): "in each of its controller's
    preparation phases" is an effect that happens *in* the preparation phase, and 29.4 puts
    every such effect in stage 2, where the active player orders it among the other stage-2
    effects (29.4.1) and the Ép check follows it (29.4.10).  ``prep_stage2_start`` is the moment
    of "at the *beginning* of the turn / of the preparation phase" (29.4.3) only.

    The preparation phase is the active player's, so only his poisoned creatures get a counter.
    Deaths are not this hook's business: ``lethal`` answers at every Ép check."""
    return [Pending(f"{RULE} poison counter on {perm.describe()}", _tick,
                    controller=perm.controller, kind=RULE_ITEM, source=perm, rule=RULE,
                    key=(EFFECT_NAME, "tick", perm.uid))
            for perm in game.creatures(game.active) if poison(perm)]


# -- the named effect for cards ----------------------------------------------------------------

def poison_effect(game: Game, ctx: EffectContext, count: int = 1, **unknown: Any) -> None:
    """``{ do = "custom", name = "mereg:poison", target = "chosen_opponent_creature",
    params = { count = 2 } }``: ``count`` poison counters on each target.

    The engine chose the targets before the effect ran (``ctx.targets``; for a simultaneous
    moment before the moment, 29.4.2).  Nobody dies here: the Ép check after the effect asks
    ``lethal``, and the step decides about components (none for poison anyway)."""
    if unknown:
        hint = " (the target is the effect's own 'target' field, not a param)" \
            if "target" in unknown else ""
        raise ValueError(f"{EFFECT_NAME} takes only the params {', '.join(sorted(PARAMS))}; "
                         f"got {', '.join(sorted(unknown))}{hint}")
    if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
        raise ValueError(f"{EFFECT_NAME} needs a positive whole count, got {count!r}")
    for perm in ctx.targets:
        if not (isinstance(perm, Permanent) and perm.kind == "creature"):
            what = perm.describe() if isinstance(perm, Permanent) \
                else f"player {getattr(perm, 'index', perm)}"
            raise ValueError(f"{EFFECT_NAME} puts counters on creatures, not on {what}; give "
                             f"the effect a target among {', '.join(sorted(CREATURE_TARGETS))}")
        if perm.uid in game.permanents:  # chosen before a moment, it may be gone since
            game.add_counters(perm, COUNTER, count, source=ctx.label)


@hookimpl
def custom_effects() -> dict[str, Callable[..., Any]]:
    return {EFFECT_NAME: poison_effect}
