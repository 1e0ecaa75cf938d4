"""Conditions on the state ("Ha legalább 5 VP-d van, ..."): pure readings of the game.

A card's ``condition`` (:class:`hkk._cards.model.Condition`) compares a quantity seen from the
ability's controller ("own_…") or his opponent ("opponent_…") with a number or another quantity.
Static abilities with a condition are switched on and off by :func:`hkk._changes.refresh_statics`
whenever an event that changes a quantity they read is logged (:func:`events_changing`);
automatic abilities fire and activated ones can be used only while theirs holds (D-conditions).
What each quantity reads, and which events change it, is said by its class
(:mod:`hkk._cards.quantities`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from hkk._cards.amounts import COMPARE
from hkk._cards.quantities import QUANTITIES, Quantity
from hkk.events import Event, StepStarted

if TYPE_CHECKING:
    from hkk._view import GameView

__all__ = ["events_changing", "holds", "quantity"]

#: Also re-read at every step's start: a plugin or a test that sets a number by hand is caught
#: up before anything is collected.
_ALWAYS: frozenset[type[Event]] = frozenset({StepStarted})

#: quantity name -> (the controller's own?, the quantity), found once per name.
_PARTS: dict[str, tuple[bool, Quantity]] = {}
QUANTITIES.on_change(_PARTS.clear)  # a quantity registered later (a test's own)


def _parts(name: str) -> tuple[bool, Quantity]:
    whose, kind = name.split("_", 1)
    parts = _PARTS[name] = (whose == "own", QUANTITIES[kind])
    return parts


def quantity(game: GameView, name: str, controller: int) -> int:
    """The value of a quantity such as ``own_vp`` or ``opponent_creatures`` for ``controller``
    (each quantity reads itself, :mod:`hkk._cards.quantities`)."""
    own, number = _PARTS.get(name) or _parts(name)
    return number.read(game, controller if own else 1 - controller)


def holds(game: GameView, condition: Any, controller: int) -> bool:
    """Does ``condition`` hold now for an ability controlled by ``controller``?"""
    # quantity() written out: read at every offer of a conditional ability
    own, number = _PARTS.get(condition.of) or _parts(condition.of)
    left = number.read(game, controller if own else 1 - controller)
    name, bound = condition.comparison
    if isinstance(bound, str):
        own, number = _PARTS.get(bound) or _parts(bound)
        bound = number.read(game, controller if own else 1 - controller)
    return COMPARE[name](left, bound)  # operator.ge...: no Python call


def _quantities(condition: Any) -> Iterable[str]:
    yield condition.of
    _, bound = condition.comparison
    if isinstance(bound, str):
        yield bound


def events_changing(condition: Any) -> frozenset[type[Event]]:
    """The event kinds (classes) after which ``condition`` may read differently."""
    kinds = set(_ALWAYS)
    for name in _quantities(condition):
        kinds |= QUANTITIES[name.split("_", 1)[1]].changed_by
    return frozenset(kinds)
