"""Targets: which players and permanents an effect's ``target`` names right now."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hkk._cards.types import TRIGGER_TARGETS
from hkk._decisions import Option
from hkk._state import Permanent, Player

if TYPE_CHECKING:
    from collections.abc import Callable

    from hkk._cards.amounts import Where
    from hkk._cards.context import EffectContext
    from hkk._view import GameActions, GameView

__all__ = ["CHOSEN_PERMANENTS", "can_choose", "filtered_targets", "permanents_in_play",
           "player_indexes", "select_targets"]

#: The targets chosen among permanents in play (a ``target`` decision).
CHOSEN_PERMANENTS = frozenset({"chosen_creature", "chosen_own_creature",
                               "chosen_opponent_creature", "chosen_building"})


def select_targets(game: GameActions, ctx: EffectContext, target: str) -> list[Any]:
    """The targets an effect has right now; choices are asked of the controller."""
    me = ctx.controller
    if target == "self":
        src = ctx.source
        return [src] if src is not None and src.uid in game.permanents else []
    if target == "controller":
        return [game.players[me]]
    if target == "opponent":
        return [game.players[1 - me]]
    if target == "each_player":
        return list(game.players)
    if target in TRIGGER_TARGETS:  # bound by the event that set the ability off
        return _trigger_target(game, ctx, target)
    if target == "chosen_player":  # "Válassz egy játékost: ..."
        # each option stands for the player's index, not his state: the decision is handed to
        # agents and shown in views, and a player's state holds his hand and deck
        options = [Option(f"player {p.index} ({p.name})", p.index) for p in game.players]
        return [game.players[game.decide(me, "target_player", options, prompt=ctx.label).value]]
    if target == "own_creatures":
        return game.creatures(me)
    if target == "opponent_creatures":
        return game.creatures(1 - me)
    if target == "all_creatures":
        return game.creatures()
    if target == "own_buildings":
        return game.buildings(me)
    if target == "all_buildings":
        return game.buildings()
    choices: dict[str, Callable[[], list[Permanent]]] = {
        "chosen_creature": game.creatures,
        "chosen_own_creature": lambda: game.creatures(me),
        "chosen_opponent_creature": lambda: game.creatures(1 - me),
        "chosen_building": game.buildings,
    }
    candidates = choices[target]()
    if not candidates:
        return []
    options = [Option(f"target {p.describe()}", p) for p in candidates]
    return [game.decide(me, "target", options, prompt=ctx.label).value]


def filtered_targets(game: GameActions, ctx: EffectContext, target: str,
                     where: Where) -> list[Any]:
    """The permanents of a group target that ``where`` holds for; of a choice, the controller
    chooses among those only."""
    found = [p for p in _group(game, ctx.controller, target) if where.holds(game, p)]
    if not target.startswith("chosen_") or not found:
        return found
    options = [Option(f"target {p.describe()}", p) for p in found]
    return [game.decide(ctx.controller, "target", options, prompt=ctx.label).value]


def _group(game: GameView, me: int, target: str) -> list[Permanent]:
    """The permanents a group or a choice of permanents is made of now, for ``me``."""
    groups: dict[str, Callable[[], list[Permanent]]] = {
        "own_creatures": lambda: game.creatures(me),
        "opponent_creatures": lambda: game.creatures(1 - me),
        "all_creatures": game.creatures,
        "own_buildings": lambda: game.buildings(me),
        "all_buildings": game.buildings,
        "chosen_creature": game.creatures,
        "chosen_own_creature": lambda: game.creatures(me),
        "chosen_opponent_creature": lambda: game.creatures(1 - me),
        "chosen_building": game.buildings,
    }
    return groups[target]()


def can_choose(game: GameView, player: int, target: str, where: Where | None) -> bool:
    """Is there a permanent ``player`` could choose for ``target`` (one of
    :data:`CHOSEN_PERMANENTS`) now, ``where`` holding for it (D-no-target)?"""
    return any(where is None or where.holds(game, p) for p in _group(game, player, target))


def _trigger_target(game: GameActions, ctx: EffectContext, target: str) -> list[Any]:
    if target == "trigger_player":
        player = ctx.trigger.get("player")
        return [] if player is None else [game.players[player]]
    perm = ctx.trigger.get("permanent" if target == "trigger_permanent" else "source")
    # a permanent that has left play is no target any more (D-trigger-targets)
    return [perm] if perm is not None and perm.uid in game.permanents else []


def permanents_in_play(targets: list[Any], game: GameActions) -> list[Permanent]:
    """The permanents among ``targets`` still in play (one may have died since binding)."""
    return [t for t in targets if isinstance(t, Permanent) and t.uid in game.permanents]


def player_indexes(targets: list[Any]) -> list[int]:
    """The indexes of the players among ``targets``."""
    return [t.index for t in targets if isinstance(t, Player)]
