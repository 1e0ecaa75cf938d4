"""Amounts counted from the state and filters on each permanent, for the verbs' fields.

``amount = { count = "own_creatures" }`` ("Annyi sebzést okoz, ahány lényed van"): a
:class:`Count` of one of the registered quantities (:mod:`hkk._cards.quantities`), read when
the effect applies, seen from the ability's controller; ``times`` multiplies it.  In a
triggered ability whose event has an amount (the damage of ``damaged``, ``deals_combat_damage``,
``takes_combat_damage``), ``count = "trigger_amount"`` counts that ("annyi VP-t kapsz, amennyi
sebzést okozott").  A verb's amount field is :data:`Amount` (a number or a count);
``Count.value`` reads a count.

``where = { of = "damage_taken", at_least = 1 }`` ("minden sérült lény") or ``where = { of =
"counters", counter = "poison", at_least = 2 }``: a :class:`Where` on a verb with a permanent
target keeps only the permanents it holds for, as they are when the targets are chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from operator import ge, gt, le, lt
from typing import TYPE_CHECKING, Annotated, Any, Self

from pydantic import BaseModel, Discriminator, Field, Tag, model_validator

from hkk._cards.quantities import PERMANENT_QUANTITIES, quantity_names, value_of
from hkk._cards.registry import NameOf
from hkk._cards.types import CONFIG, MAX_STAT, CounterName, invalid

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._state import Permanent
    from hkk._view import GameView

__all__ = ["COMPARE", "COMPARISONS", "TRIGGER_AMOUNT", "Amount", "Count", "SignedAmount",
           "Where", "count_names"]

#: What a count names for the amount of a triggered ability's event (D-trigger-amount).
TRIGGER_AMOUNT = "trigger_amount"


def count_names() -> tuple[str, ...]:
    """Every name a count may use: the quantities, then the event's amount."""
    return (*quantity_names(), TRIGGER_AMOUNT)

#: The comparisons of a condition or a filter, exactly one of which is given.
COMPARISONS = ("at_least", "at_most", "more_than", "fewer_than")


#: Each comparison as a function of (left, right): operator.ge..., no Python call.
COMPARE: dict[str, Callable[[int, int], bool]] = {"at_least": ge, "at_most": le,
                                                  "more_than": gt, "fewer_than": lt}


class Count(BaseModel):
    """An amount counted when the effect applies ("annyi ..., ahány lényed van"): the quantity
    ``count`` (own_creatures, opponent_hand, own_poison...) seen from the ability's controller,
    or ``trigger_amount``, the amount of the event that set off a triggered ability (the damage
    dealt: "amennyi sebzést okozott"); times ``times``.  A count of 0 does nothing (no event is
    logged)."""

    model_config = CONFIG
    count: Annotated[str, NameOf(count_names)]
    times: int = Field(1, ge=1, le=MAX_STAT)

    def value(self, game: GameView, ctx: EffectContext) -> int:
        if self.count == TRIGGER_AMOUNT:
            amount: int = ctx.trigger.get("amount") or 0
            return amount * self.times
        return value_of(game, self.count, ctx.controller) * self.times


def _number_or_count(value: Any) -> str | None:
    # A table is a count, anything else a number: an error then names that one alone.
    # (the tags begin with "#": the loader leaves them out of an error's path)
    return "#count" if isinstance(value, dict | Count) else "#number"


_EITHER = Discriminator(_number_or_count, custom_error_type="hkk_card_rule",
                        custom_error_message="an amount is a number or a count "
                                             "({ count = \"own_creatures\" })")
#: A verb's amount: a number (1 or more) or a count of the state.
Amount = Annotated[Annotated[Annotated[int, Field(gt=0, le=MAX_STAT)], Tag("#number")]
                   | Annotated[Count, Tag("#count")], _EITHER]
#: A modifier's amount (``modify by``): a number (not 0) or a count, which raises the stat.
SignedAmount = Annotated[Annotated[Annotated[int, Field(ge=-MAX_STAT, le=MAX_STAT)],
                                   Tag("#number")]
                         | Annotated[Count, Tag("#count")], _EITHER]


_PermanentQuantity = Annotated[str, NameOf(PERMANENT_QUANTITIES.names)]
_Bound = Annotated[int, Field(ge=-MAX_STAT, le=MAX_STAT)]


class Where(BaseModel):
    """A condition on each permanent of a target ("minden sérült lény", "az ellenfél minden
    lénye, amelynek legalább 2 méregjelzője van"): ``of`` (damage_taken, hp, damage, counters
    with ``counter``) compared with a number, exactly one comparison.  Read when the targets
    are chosen; a chosen target is chosen among the permanents it holds for."""

    model_config = CONFIG
    of: _PermanentQuantity
    #: The counter ``counters`` counts ("poison").
    counter: CounterName | None = None
    at_least: _Bound | None = None
    at_most: _Bound | None = None
    more_than: _Bound | None = None
    fewer_than: _Bound | None = None

    @model_validator(mode="after")
    def _well_formed(self) -> Self:
        given = [name for name in COMPARISONS if getattr(self, name) is not None]
        if len(given) != 1:
            raise invalid(f"a target filter compares '{self.of}' in exactly one way, one of "
                          f"{', '.join(COMPARISONS)}; got {len(given)}")
        if PERMANENT_QUANTITIES[self.of].needs_counter != (self.counter is not None):
            raise invalid("where.counter names the counter of of = \"counters\" (e.g. "
                          "counter = \"poison\"), and only of it")
        return self

    @cached_property  # read for every permanent filtered: found once
    def comparison(self) -> tuple[str, int]:
        name = next(n for n in COMPARISONS if getattr(self, n) is not None)
        return name, getattr(self, name)

    def holds(self, game: GameView, perm: Permanent) -> bool:
        name, bound = self.comparison
        return COMPARE[name](PERMANENT_QUANTITIES[self.of].read(game, perm, self.counter), bound)
