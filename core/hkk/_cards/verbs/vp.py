"""``do = "gain_vp"`` and ``do = "lose_vp"``: a player's VP."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from hkk._cards.amounts import Amount
from hkk._cards.verbs.base import PlayerVerb, register_verb
from hkk.events import Event, VpGained, VpLost

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions


@register_verb
class GainVp(PlayerVerb):
    do: Literal["gain_vp"] = "gain_vp"
    amount: Amount
    emits: ClassVar[tuple[type[Event], ...]] = (VpGained,)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        # a number, or a count read now (hkk._cards.amounts)
        n = self.amount if isinstance(self.amount, int) else self.amount.value(game, ctx)
        for p in targets if n else ():  # a count of 0: nothing
            game.gain_vp(p.index, n, source=ctx.label)

    def hu(self, voice: Voice) -> str:
        from hkk._cards.wording import player_verb

        amount, tail = voice.counted(self.amount, "VP-t")
        return player_verb(voice, self.target, f"kapsz {amount}", may=f"kaphatsz {amount}",
                           third=f"kap {amount}", tail=tail)


@register_verb
class LoseVp(PlayerVerb):
    do: Literal["lose_vp"] = "lose_vp"
    amount: Amount
    emits: ClassVar[tuple[type[Event], ...]] = (VpLost,)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        # a number, or a count read now (hkk._cards.amounts)
        n = self.amount if isinstance(self.amount, int) else self.amount.value(game, ctx)
        for p in targets if n else ():  # a count of 0: nothing
            game.lose_vp(p.index, n, source=ctx.label)

    def hu(self, voice: Voice) -> str:
        from hkk._cards.wording import player_verb

        amount, tail = voice.counted(self.amount, "VP-t")
        return player_verb(voice, self.target, f"elvesztesz {amount}",
                           may=f"elveszthetsz {amount}", third=f"elveszt {amount}", tail=tail)
