"""A condition on the state ("Ha ..."): a registered quantity compared with a number or another.

Any ability may carry one, and a card its ``play_condition`` (:mod:`hkk._cards.model`);
:mod:`hkk._conditions` evaluates the engine's (D-conditions).
"""

from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Self

from pydantic import BaseModel, Field, model_validator

from hkk._cards.amounts import COMPARE
from hkk._cards.quantities import quantity_names, value_of
from hkk._cards.registry import NameOf
from hkk._cards.types import CONFIG, MAX_STAT, invalid

if TYPE_CHECKING:
    from hkk._view import GameView

__all__ = ["Condition", "ConditionField", "Quantity"]


#: A number of the game, seen from the ability's controller ("own") or his opponent: one of
#: the registered quantities (:mod:`hkk._cards.quantities`), ``own_vp``, ``opponent_creatures``...
Quantity = Annotated[str, NameOf(quantity_names)]
_COMPARISONS = ("at_least", "at_most", "more_than", "fewer_than")
_Bound = Annotated[int, Field(ge=-MAX_STAT, le=MAX_STAT)]


class Condition(BaseModel):
    """A condition on the state: ``of`` compared with a number or another quantity, exactly
    one comparison.  "Ha legalább 5 VP-d van" is ``{ of = "own_vp", at_least = 5 }``; "Ha az
    ellenfélnek több lénye van, mint neked" is ``{ of = "opponent_creatures", more_than =
    "own_creatures" }``.  Evaluated by :mod:`hkk._conditions` whenever it is needed: statics
    follow it as the state changes (D-conditions)."""

    model_config = CONFIG
    of: Quantity
    at_least: _Bound | Quantity | None = None
    at_most: _Bound | Quantity | None = None
    more_than: _Bound | Quantity | None = None
    fewer_than: _Bound | Quantity | None = None

    @model_validator(mode="after")
    def _one_comparison(self) -> Self:
        given = [name for name in _COMPARISONS if getattr(self, name) is not None]
        if len(given) != 1:
            raise invalid(f"a condition compares '{self.of}' in exactly one way, one of "
                          f"{', '.join(_COMPARISONS)}; got {len(given)}")
        return self

    @cached_property  # read at every evaluation: found once
    def comparison(self) -> tuple[str, int | str]:
        """(comparison name, number or quantity)."""
        name = next(n for n in _COMPARISONS if getattr(self, n) is not None)
        return name, getattr(self, name)

    def describe(self) -> str:
        name, value = self.comparison
        return f"if {self.of} {name.replace('_', ' ')} {value}"

    def holds(self, game: "GameView", controller: int) -> bool:
        """Does it hold now, seen from ``controller``?  (The engine's abilities read it
        through hkk._conditions, which keeps what each name means; a plugin - hand play's
        ``play_condition``, D-play-condition - asks the card data itself.)"""
        bound = self.comparison[1]
        right = bound if isinstance(bound, int) else value_of(game, bound, controller)
        return COMPARE[self.comparison[0]](value_of(game, self.of, controller), right)


#: The reusable field: any ability kind may carry ``condition = {...}``.
_CONDITION_DOC = ("Only while this holds: a static ability is in force, an automatic ability "
                  "fires, an activated ability can be used (checked with its cost).")
ConditionField = Annotated[Condition | None, Field(None, description=_CONDITION_DOC)]
