"""Derived characteristics: pure functions of the state, never stored (design: "Characteristics
are derived").  A permanent's current value is its base, plus the modifiers of the effects and
static abilities in force (summed in ``perm.mods`` as they start and end, by
:mod:`hkk._changes`), minus the damage it took."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hkk._state import Permanent

if TYPE_CHECKING:
    from hkk._view import GameView

__all__ = ["buildings", "creatures", "damage_value", "hp", "max_hp", "snapshot", "static_applies",
           "static_player", "vp_regen_modifier"]


def creatures(game: GameView, player: int | None = None) -> list[Permanent]:
    if player is None:
        return [p for p in game.permanents.values() if p.kind == "creature"]
    return [p for p in game.permanents.values()
            if p.kind == "creature" and p.controller == player]


def buildings(game: GameView, player: int | None = None) -> list[Permanent]:
    if player is None:
        return [p for p in game.permanents.values() if p.kind == "building"]
    return [p for p in game.permanents.values()
            if p.kind == "building" and p.controller == player]


def damage_value(perm: Permanent) -> int:
    return max(0, perm.base_damage + perm.mods.get("damage", 0))


def max_hp(perm: Permanent) -> int:
    """Max Ép (Sp for a building): base + modifiers + defence bonus.  Raising it raises the
    current Ép too and is not healing; lowering it is not damage (K 4.25.4)."""
    return perm.base_hp + perm.mods.get(perm.hp_stat, 0) + perm.defence_bonus


def hp(perm: Permanent) -> int:
    return (perm.base_hp + perm.mods.get(perm.hp_stat, 0) + perm.defence_bonus
            - perm.damage_taken)


def vp_regen_modifier(game: GameView, player: int) -> int:
    """The VP-regeneration modifiers in force for ``player`` (29.4.5): effects and statics."""
    total = sum(e.amount for e in game.effects
                if e.in_force and e.stat == "vp_regen" and e.player == player)
    for source, mod in game.statics:  # static "your VP regeneration is +1"
        if mod.stat == "vp_regen" and static_player(source, mod.target) in (player, -1):
            total += mod.by
    return total


def static_player(source: Permanent, target: str) -> int | None:
    """The player a static player-targeted modifier affects; -1 for each player."""
    return {"controller": source.controller, "opponent": 1 - source.controller,
            "each_player": -1}.get(target)


def static_applies(source: Permanent, target: str, perm: Permanent) -> bool:
    """Does a static ability of ``source`` aimed at ``target`` affect ``perm``?  Every matching
    permanent while the source is in play, newcomers included (D-static-scope)."""
    if target == "self":
        return perm is source
    if target == "own_creatures":
        return perm.kind == "creature" and perm.controller == source.controller
    if target == "opponent_creatures":
        return perm.kind == "creature" and perm.controller != source.controller
    if target == "all_creatures":
        return perm.kind == "creature"
    if target == "own_buildings":
        return perm.kind == "building" and perm.controller == source.controller
    if target == "all_buildings":
        return perm.kind == "building"
    return False


def snapshot(self: Any) -> dict[str, Any]:
    """Plain-data picture of the state (tests compare these): ``game.snapshot()``."""
    hp, max_hp, damage_value = self.hp, self.max_hp, self.damage_value
    return {
        "turn": self.turn,
        "active": self.active,
        "players": [
            {"hp": p.hp, "vp": p.vp, "components": p.components, "deck": len(p.deck),
             "hand": sorted(p.hand), "graveyard": sorted(p.graveyard),
             "void": sorted(p.void)} for p in self.players],
        "permanents": {
            uid: {"card": p.card.id, "controller": p.controller, "zone": p.zone,
                  "active": p.active, "damage": damage_value(p), "max_hp": max_hp(p),
                  "hp": hp(p), "defence_bonus": p.defence_bonus,
                  "counters": dict(sorted(p.counters.items()))}
            for uid, p in sorted(self.permanents.items())},
        "effects": sorted((e.stat, e.amount, e.duration.value, tuple(sorted(e.targets)),
                           e.player, e.in_force) for e in self.effects),
    }
