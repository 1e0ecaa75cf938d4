"""Conditions on the state ("Ha legalább 5 VP-d van, ..."): pure readings of the game.

A card's ``condition`` (:class:`hkk._cards.model.Condition`) compares a quantity seen from the
ability's controller ("own_…") or his opponent ("opponent_…") with a number or another quantity.
Static abilities with a condition are switched on and off by :func:`hkk._changes.refresh_statics`
whenever an event that changes a quantity they read is logged (:func:`events_changing`);
automatic abilities fire and activated ones can be used only while theirs holds (D-conditions).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hkk._game import Game

__all__ = ["events_changing", "holds", "quantity"]

#: The events after which each kind of quantity may read differently (a quantity is written
#: ``own_<kind>`` or ``opponent_<kind>``).  Every change of these numbers logs one of them
#: (a kind named here that the engine does not log is a KeyError when a condition subscribes).
_CHANGED_BY: dict[str, frozenset[str]] = {
    "vp": frozenset({"vp_gained", "vp_lost", "vp_regenerated", "cost_paid", "card_played"}),
    "hp": frozenset({"player_damaged", "player_healed"}),
    "components": frozenset({"components_gained", "components_paid", "cost_paid"}),
    "hand": frozenset({"card_drawn", "card_played"}),
    "creatures": frozenset({"entered_play", "died"}),
    "buildings": frozenset({"entered_play", "destroyed"}),
}
#: Also re-read at every step's start: a plugin or a test that sets a number by hand is caught
#: up before anything is collected.
_ALWAYS = frozenset({"step_started"})


_PARTS: dict[str, tuple[str, str]] = {}


def _parts(name: str) -> tuple[str, str]:
    whose, kind = name.split("_", 1)
    _PARTS[name] = (whose, kind)
    return whose, kind


def quantity(game: Game, name: str, controller: int) -> int:
    """The value of a quantity such as ``own_vp`` or ``opponent_creatures`` for ``controller``."""
    whose, kind = _PARTS.get(name) or _parts(name)
    index = controller if whose == "own" else 1 - controller
    if kind == "creatures":
        return sum(1 for p in game.permanents.values()
                   if p.kind == "creature" and p.controller == index)
    if kind == "buildings":
        return sum(1 for p in game.permanents.values()
                   if p.kind == "building" and p.controller == index)
    player = game.players[index]
    if kind == "hand":
        return len(player.hand)
    value: int = getattr(player, kind)  # vp, hp, components
    return value


def holds(game: Game, condition: Any, controller: int) -> bool:
    """Does ``condition`` hold now for an ability controlled by ``controller``?"""
    left = quantity(game, condition.of, controller)
    name, bound = condition.comparison
    right = quantity(game, bound, controller) if isinstance(bound, str) else bound
    if name == "at_least":
        return left >= right
    if name == "at_most":
        return left <= right
    if name == "more_than":
        return left > right
    return left < right  # fewer_than


def _quantities(condition: Any) -> Iterable[str]:
    yield condition.of
    _, bound = condition.comparison
    if isinstance(bound, str):
        yield bound


def events_changing(condition: Any) -> frozenset[str]:
    """The event kinds after which ``condition`` may read differently."""
    kinds = set(_ALWAYS)
    for name in _quantities(condition):
        kinds |= _CHANGED_BY[name.split("_", 1)[1]]
    return frozenset(kinds)
