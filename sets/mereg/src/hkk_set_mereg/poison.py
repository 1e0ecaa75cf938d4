"""Poison counters, Kódex 121.1: a creature with poison counters gets one more in each of its
controller's preparation phases, and dies when its counters reach its current Ép.

Two hook implementations:

* ``prep_stage2`` - the rule itself.  It returns pending items and changes nothing; the items'
  ``apply`` changes the game through its primitives.
* ``custom_effects`` - the named effect ``mereg:poison`` for cards: put poison counters on
  creatures (and kill the ones whose counters now reach their Ép).  Cards may also use the
  generic ``add_counters`` primitive with ``counter = "poison"``; the death check of
  ``prep_stage2`` then catches them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hkk import Pending, hookimpl
from hkk.cards.interpret import select_targets
from hkk.pending import RULE as RULE_ITEM
from hkk.state import Permanent

if TYPE_CHECKING:
    from hkk.cards.interpret import EffectContext
    from hkk.game import Game

COUNTER = "poison"
RULE = "121.1"
EFFECT_NAME = "mereg:poison"
#: Targets the ``mereg:poison`` effect accepts: poison is only ever put on creatures.
CREATURE_TARGETS = frozenset({
    "self", "own_creatures", "opponent_creatures", "all_creatures",
    "chosen_creature", "chosen_own_creature", "chosen_opponent_creature",
})


def poison(perm: Permanent) -> int:
    return perm.counters.get(COUNTER, 0)


def poisoned_to_death(game: Game, perm: Permanent) -> bool:
    """121.1: a creature dies when its poison counters are at least its current Ép."""
    counters = poison(perm)
    return counters > 0 and perm.kind == "creature" and counters >= game.hp(perm)


def _kill_if_due(game: Game, perm: Permanent, *, components: bool) -> None:
    if perm.uid in game.permanents and poisoned_to_death(game, perm):
        game.destroy(perm, "poison", rule=RULE, components=components)


# -- the rule ----------------------------------------------------------------------------------

def _tick(game: Game, item: Pending, bound: Any) -> None:
    perm = item.source
    if perm is None or perm.uid not in game.permanents:  # died earlier in this stage
        return
    game.add_counters(perm, COUNTER, 1, source=item.label)
    # In preparation stage 2 nobody extracts components (29.4.11); said here too, so the rule
    # holds even if a turn structure moves this step.
    _kill_if_due(game, perm, components=False)


def _check(game: Game, item: Pending, bound: Any) -> None:
    if item.source is not None:
        _kill_if_due(game, item.source, components=False)


@hookimpl
def prep_stage2(game: Game) -> list[Pending]:
    """121.1 in preparation stage 2 (not ``prep_stage2_start``): "in each of its controller's
    preparation phases" is an effect that happens *in* the preparation phase, and 29.4 puts
    every such effect in stage 2, where the active player orders it among the other stage-2
    effects (29.4.1), the Ép check follows it (29.4.10) and deaths give no component
    (29.4.11).  ``prep_stage2_start`` is the moment of "at the *beginning* of the turn / of the
    preparation phase" (29.4.3) only, where nothing can be ordered (29.4.2).

    The preparation phase is the active player's, so only his creatures get a counter.  Any
    creature, of either player, whose counters already reach its Ép (e.g. its Ép fell when
    effects ended in 41.4) dies here too: the Ép check of 121.1 cannot be made part of the
    engine's own Ép check (no hook for it), so the rule makes it once per preparation phase."""
    items = []
    for perm in game.creatures():
        if not poison(perm):
            continue
        if perm.controller == game.active:
            items.append(Pending(f"{RULE} poison counter on {perm.describe()}", _tick,
                                 controller=perm.controller, kind=RULE_ITEM, source=perm,
                                 rule=RULE, key=(EFFECT_NAME, "tick", perm.uid)))
        elif poisoned_to_death(game, perm):
            items.append(Pending(f"{RULE} poison kills {perm.describe()}", _check,
                                 controller=perm.controller, kind=RULE_ITEM, source=perm,
                                 rule=RULE, key=(EFFECT_NAME, "check", perm.uid)))
    return items


# -- the named effect for cards ----------------------------------------------------------------

def poison_effect(game: Game, ctx: EffectContext, count: int = 1,
                  target: str = "chosen_opponent_creature") -> None:
    """``{ do = "custom", name = "mereg:poison", params = { count = 2, target = "..." } }``.

    Custom effects get no bound targets from the engine, so the targets are chosen here, when
    the effect is carried out.  A creature whose counters now reach its Ép dies at once (121.1);
    whether its opponent may extract components is the step's business (none in stage 2,
    29.4.11)."""
    if target not in CREATURE_TARGETS:
        raise ValueError(f"{EFFECT_NAME} puts counters on creatures; target {target!r} is not "
                         f"one of {', '.join(sorted(CREATURE_TARGETS))}")
    if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
        raise ValueError(f"{EFFECT_NAME} needs a positive count, got {count!r}")
    for perm in select_targets(game, ctx, target):
        if isinstance(perm, Permanent) and perm.kind == "creature" \
                and perm.uid in game.permanents:
            game.add_counters(perm, COUNTER, count, source=ctx.label)
            _kill_if_due(game, perm, components=True)


@hookimpl
def custom_effects() -> dict[str, Callable[..., Any]]:
    return {EFFECT_NAME: poison_effect}
