"""``do = "draw"``: a player draws cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from hkk._cards.amounts import Amount
from hkk._cards.verbs.base import PlayerVerb, register_verb
from hkk.events import CardDrawn, DrawFailed, Event

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions


@register_verb
class Draw(PlayerVerb):
    do: Literal["draw"] = "draw"
    count: Amount
    emits: ClassVar[tuple[type[Event], ...]] = (CardDrawn, DrawFailed)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        # a number, or a count read now (hkk._cards.amounts)
        n = self.count if isinstance(self.count, int) else self.count.value(game, ctx)
        for p in targets if n else ():  # a count of 0: nothing
            game.draw(p.index, n, source=ctx.label)

    def hu(self, voice: Voice) -> str:
        from hkk._cards.wording import card_count, player_verb

        if isinstance(self.count, int):
            cards, tail = card_count(self.count, "lapot"), ""
        else:
            cards, tail = voice.counted(self.count, "lapot")
        return player_verb(voice, self.target, f"húzol {cards}", may=f"húzhatsz {cards}",
                           spell=f"húzz {cards}", third=f"húz {cards}", tail=tail)
