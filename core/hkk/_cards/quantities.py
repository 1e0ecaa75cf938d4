"""The quantities a condition reads (``condition = { of = "own_vp", ... }``), one class each.

A :class:`Quantity` is a number of one player's side of the game (``kind``: ``vp``,
``creatures``...), written ``own_<kind>`` (the ability's controller's) or
``opponent_<kind>`` in card data.  It says how to read it and after which logged event kinds
it may read differently (:mod:`hkk._conditions` re-reads conditional statics then).  Adding a
quantity is one class here with ``@quantity``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeVar

from hkk._cards.registry import Registry
from hkk.events import (
    CardDrawn,
    CardPlayed,
    ComponentsGained,
    ComponentsPaid,
    CostPaid,
    Destroyed,
    Died,
    EnteredPlay,
    Event,
    PlayerDamaged,
    PlayerHealed,
    VpGained,
    VpLost,
    VpRegenerated,
)

if TYPE_CHECKING:
    from hkk._view import GameView

__all__ = ["QUANTITIES", "WHOSE", "Quantity", "quantity", "quantity_names"]

#: Whose number: the ability's controller's, or his opponent's.
WHOSE = ("own", "opponent")


class Quantity:
    """One ``<kind>`` of ``own_<kind>`` / ``opponent_<kind>``."""

    kind: ClassVar[str]
    #: The event kinds (classes of hkk.events) after which it may read differently; every
    #: change of it logs one.
    changed_by: ClassVar[frozenset[type[Event]]]

    def read(self, game: GameView, player: int) -> int:
        """Its value for ``player`` now."""
        raise NotImplementedError


#: Every quantity by kind.
QUANTITIES: Registry[Quantity] = Registry("quantity")

Q = TypeVar("Q", bound=type[Quantity])


def quantity(cls: Q) -> Q:
    """Class decorator: register an instance of ``cls`` as ``own_<kind>``/``opponent_<kind>``."""
    QUANTITIES.register(cls.kind, cls())
    return cls


def quantity_names() -> tuple[str, ...]:
    """Every name a condition may use, by kind, the controller's first."""
    return tuple(f"{whose}_{kind}" for kind in QUANTITIES for whose in WHOSE)


class _PlayerNumber(Quantity):
    def read(self, game: GameView, player: int) -> int:
        value: int = getattr(game.players[player], self.kind)
        return value


@quantity
class Vp(_PlayerNumber):
    kind = "vp"
    changed_by = frozenset({VpGained, VpLost, VpRegenerated, CostPaid, CardPlayed})


@quantity
class Hp(_PlayerNumber):
    kind = "hp"
    changed_by = frozenset({PlayerDamaged, PlayerHealed})


@quantity
class Components(_PlayerNumber):
    kind = "components"
    changed_by = frozenset({ComponentsGained, ComponentsPaid, CostPaid})


@quantity
class Hand(Quantity):
    kind = "hand"
    changed_by = frozenset({CardDrawn, CardPlayed})

    def read(self, game: GameView, player: int) -> int:
        return len(game.players[player].hand)


class _PermanentCount(Quantity):
    #: The card kind counted.
    card_kind: ClassVar[str]

    def read(self, game: GameView, player: int) -> int:
        card_kind = self.card_kind
        return sum(1 for p in game.permanents.values()
                   if p.kind == card_kind and p.controller == player)


@quantity
class Creatures(_PermanentCount):
    kind = "creatures"
    card_kind = "creature"
    changed_by = frozenset({EnteredPlay, Died})


@quantity
class Buildings(_PermanentCount):
    kind = "buildings"
    card_kind = "building"
    changed_by = frozenset({EnteredPlay, Destroyed})
