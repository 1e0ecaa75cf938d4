"""``do = "heal"``: healing players or permanents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from hkk._cards.amounts import Amount
from hkk._cards.types import Target
from hkk._cards.verbs.base import FilteredVerb, register_verb
from hkk.events import Event, Healed, PlayerHealed

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions


@register_verb
class Heal(FilteredVerb):
    do: Literal["heal"] = "heal"
    amount: Amount
    target: Target
    emits: ClassVar[tuple[type[Event], ...]] = (Healed, PlayerHealed)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        # a number, or a count read now (hkk._cards.amounts)
        n = self.amount if isinstance(self.amount, int) else self.amount.value(game, ctx)
        for t in targets if n else ():  # a count of 0: nothing
            game.heal(t, n, source=ctx.label)

    def hu(self, voice: Voice) -> str:
        from hkk._cards.wording import player_verb

        amount, tail = voice.counted(self.amount, "Ép-t")
        if self.target == "controller":  # "1 Ép-t gyógyítasz", "gyógyíthatsz 2 Ép-t"
            return player_verb(voice, "controller", f"{amount} gyógyítasz",
                               may=f"gyógyíthatsz {amount}", spell=f"gyógyíts {amount}",
                               third="", tail=tail)
        whom = voice.target(self.target, "nom", self.where)
        return f"{whom} {amount} gyógyul{tail}".strip()
