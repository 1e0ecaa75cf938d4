"""``do = "damage"``: damage to players or permanents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from hkk._cards.types import MAX_STAT, Target
from hkk._cards.verbs.base import Verb, register_verb
from hkk.events import Damaged, Event, PlayerDamaged

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._view import GameActions


@register_verb
class Damage(Verb):
    """Damage to players or permanents (a building's damage is taken from its Sp)."""

    do: Literal["damage"] = "damage"
    amount: int = Field(gt=0, le=MAX_STAT)
    target: Target
    emits: ClassVar[tuple[type[Event], ...]] = (Damaged, PlayerDamaged)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        source_uid = ctx.source.uid if ctx.source is not None else None
        for t in targets:
            game.damage(t, self.amount, source=ctx.label, source_uid=source_uid)
