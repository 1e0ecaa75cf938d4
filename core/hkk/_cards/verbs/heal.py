"""``do = "heal"``: healing players or permanents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from hkk._cards.types import MAX_STAT, Target
from hkk._cards.verbs.base import Verb, register_verb
from hkk.events import Event, Healed, PlayerHealed

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._view import GameActions


@register_verb
class Heal(Verb):
    do: Literal["heal"] = "heal"
    amount: int = Field(gt=0, le=MAX_STAT)
    target: Target
    emits: ClassVar[tuple[type[Event], ...]] = (Healed, PlayerHealed)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for t in targets:
            game.heal(t, self.amount, source=ctx.label)
