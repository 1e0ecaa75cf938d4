"""``do = "draw"``: a player draws cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from hkk._cards.types import MAX_STAT
from hkk._cards.verbs.base import PlayerVerb, register_verb
from hkk.events import CardDrawn, DrawFailed, Event

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._view import GameActions


@register_verb
class Draw(PlayerVerb):
    do: Literal["draw"] = "draw"
    count: int = Field(gt=0, le=MAX_STAT)
    emits: ClassVar[tuple[type[Event], ...]] = (CardDrawn, DrawFailed)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for p in targets:  # players: a player verb targets only players
            game.draw(p.index, self.count, source=ctx.label)
