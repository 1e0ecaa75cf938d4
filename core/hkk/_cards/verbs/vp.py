"""``do = "gain_vp"`` and ``do = "lose_vp"``: a player's VP."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from hkk._cards.types import MAX_STAT
from hkk._cards.verbs.base import PlayerVerb, register_verb
from hkk.events import Event, VpGained, VpLost

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._view import GameActions


@register_verb
class GainVp(PlayerVerb):
    do: Literal["gain_vp"] = "gain_vp"
    amount: int = Field(gt=0, le=MAX_STAT)
    emits: ClassVar[tuple[type[Event], ...]] = (VpGained,)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for p in targets:  # players: a player verb targets only players
            game.gain_vp(p.index, self.amount, source=ctx.label)


@register_verb
class LoseVp(PlayerVerb):
    do: Literal["lose_vp"] = "lose_vp"
    amount: int = Field(gt=0, le=MAX_STAT)
    emits: ClassVar[tuple[type[Event], ...]] = (VpLost,)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for p in targets:  # players: a player verb targets only players
            game.lose_vp(p.index, self.amount, source=ctx.label)
