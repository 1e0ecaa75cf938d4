"""The quantities a condition reads (``condition = { of = "own_vp", ... }``), one class each.

A :class:`Quantity` is a number of one player's side of the game (``kind``: ``vp``,
``creatures``...), written ``own_<kind>`` (the ability's controller's) or
``opponent_<kind>`` in card data.  It says how to read it, after which logged event kinds
it may read differently (:mod:`hkk._conditions` re-reads conditional statics then) and how
the printed text names it (``hu``: the controller's and the opponent's possessive).  Conditions
compare them and counted amounts (``amount = { count = "own_creatures" }``,
:mod:`hkk._cards.amounts`) read them.  Adding a quantity is one class here with ``@quantity``.

A :class:`PermanentQuantity` is a number of one permanent (``damage_taken``, ``counters``...),
read by the filters of group targets (``where = { of = "damage_taken", at_least = 1 }``:
"minden sérült lény"); one class each with ``@permanent_quantity``.
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
    CountersAdded,
    CountersRemoved,
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
    from hkk._state import Permanent
    from hkk._view import GameView

__all__ = ["PERMANENT_QUANTITIES", "QUANTITIES", "WHOSE", "PermanentQuantity", "Quantity",
           "permanent_quantity", "quantity", "quantity_names", "value_of"]

#: Whose number: the ability's controller's, or his opponent's.
WHOSE = ("own", "opponent")


class Quantity:
    """One ``<kind>`` of ``own_<kind>`` / ``opponent_<kind>``."""

    kind: ClassVar[str]
    #: The event kinds (classes of hkk.events) after which it may read differently; every
    #: change of it logs one.
    changed_by: ClassVar[frozenset[type[Event]]]
    #: The printed text's noun with the possessive: the controller's ("VP-d": "legalább 5
    #: VP-d van") and the opponent's ("VP-je": "az ellenfélnek legalább 5 VP-je van").
    hu: ClassVar[tuple[str, str]]

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


def value_of(game: GameView, name: str, controller: int) -> int:
    """The value of ``own_<kind>`` / ``opponent_<kind>`` for an ability of ``controller``."""
    whose, kind = name.split("_", 1)
    return QUANTITIES[kind].read(game, controller if whose == "own" else 1 - controller)


class _PlayerNumber(Quantity):
    def read(self, game: GameView, player: int) -> int:
        value: int = getattr(game.players[player], self.kind)
        return value


@quantity
class Vp(_PlayerNumber):
    kind = "vp"
    hu = ("VP-d", "VP-je")
    changed_by = frozenset({VpGained, VpLost, VpRegenerated, CostPaid, CardPlayed})


@quantity
class Hp(_PlayerNumber):
    kind = "hp"
    hu = ("Ép-d", "Ép-je")
    changed_by = frozenset({PlayerDamaged, PlayerHealed})


@quantity
class Components(_PlayerNumber):
    kind = "components"
    hu = ("szörnykomponensed", "szörnykomponense")
    changed_by = frozenset({ComponentsGained, ComponentsPaid, CostPaid, CardPlayed})


@quantity
class Hand(Quantity):
    kind = "hand"
    hu = ("lapod a kezedben", "lapja a kezében")
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
    hu = ("lényed", "lénye")
    card_kind = "creature"
    changed_by = frozenset({EnteredPlay, Died})


@quantity
class Buildings(_PermanentCount):
    kind = "buildings"
    hu = ("építményed", "építménye")
    card_kind = "building"
    changed_by = frozenset({EnteredPlay, Destroyed})


@quantity
class Poison(Quantity):
    """Poison counters on the player's permanents (K 121.1; the counter named ``poison``)."""

    kind = "poison"
    hu = ("méregjelző a lényeiden", "méregjelző a lényein")
    changed_by = frozenset({CountersAdded, CountersRemoved, Died, Destroyed})

    def read(self, game: GameView, player: int) -> int:
        return sum(p.counters.get("poison", 0) for p in game.permanents.values()
                   if p.controller == player)


# -- numbers of one permanent, for the filters of group targets ---------------------------------

class PermanentQuantity:
    """One ``of`` of a target filter (``where``)."""

    name: ClassVar[str]
    #: The printed text: what the permanent has ("sérülése": "amelynek legalább 1 sérülése
    #: van"); a counter's own word replaces it for ``counters``.
    hu: ClassVar[str]
    #: It needs ``counter`` (which counter's number).
    needs_counter: ClassVar[bool] = False

    def read(self, game: GameView, perm: Permanent, counter: str | None) -> int:
        raise NotImplementedError


#: Every permanent quantity by name.
PERMANENT_QUANTITIES: Registry[PermanentQuantity] = Registry("permanent quantity")

P = TypeVar("P", bound=type[PermanentQuantity])


def permanent_quantity(cls: P) -> P:
    """Class decorator: register an instance of ``cls`` as ``where.of = cls.name``."""
    PERMANENT_QUANTITIES.register(cls.name, cls())
    return cls


@permanent_quantity
class DamageTaken(PermanentQuantity):
    """The damage it has taken and not yet been healed or restored of: at least 1 is
    "sérült" (damaged, below its max Ép; K 4.25)."""

    name = "damage_taken"
    hu = "sérülése"

    def read(self, game: GameView, perm: Permanent, counter: str | None) -> int:
        return perm.damage_taken


@permanent_quantity
class CurrentHp(PermanentQuantity):
    """Its current Ép (Sp for a building)."""

    name = "hp"
    hu = "Ép-je"

    def read(self, game: GameView, perm: Permanent, counter: str | None) -> int:
        return game.hp(perm)


@permanent_quantity
class DamageValue(PermanentQuantity):
    """Its current damage value (a building's is 0)."""

    name = "damage"
    hu = "sebzése"

    def read(self, game: GameView, perm: Permanent, counter: str | None) -> int:
        return game.damage_value(perm) if perm.kind == "creature" else 0


@permanent_quantity
class Counters(PermanentQuantity):
    """Its counters of the name ``counter`` ("poison", "rune")."""

    name = "counters"
    hu = "jelzője"
    needs_counter = True

    def read(self, game: GameView, perm: Permanent, counter: str | None) -> int:
        return perm.counters.get(counter or "", 0)
