"""``do = "gain_components"`` and ``do = "pay_components"``: a player's monster components."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from hkk._cards.types import MAX_STAT
from hkk._cards.verbs.base import PlayerVerb, register_verb
from hkk.events import ComponentsGained, ComponentsPaid, Event

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions


@register_verb
class GainComponents(PlayerVerb):
    do: Literal["gain_components"] = "gain_components"
    count: int = Field(gt=0, le=MAX_STAT)
    emits: ClassVar[tuple[type[Event], ...]] = (ComponentsGained,)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for p in targets:  # players: a player verb targets only players
            game.gain_components(p.index, self.count, source=ctx.label)

    def hu(self, voice: Voice) -> str:
        from hkk._cards.wording import card_count, player_verb

        count = card_count(self.count, "szörnykomponenst")
        return player_verb(voice, self.target, f"kapsz {count}", may=f"kaphatsz {count}",
                           third=f"kap {count}")


@register_verb
class PayComponents(PlayerVerb):
    do: Literal["pay_components"] = "pay_components"
    count: int = Field(gt=0, le=MAX_STAT)
    emits: ClassVar[tuple[type[Event], ...]] = (ComponentsPaid,)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for p in targets:  # players: a player verb targets only players
            game.pay_components(p.index, self.count, source=ctx.label)

    def hu(self, voice: Voice) -> str:
        from hkk._cards.wording import card_count, player_verb

        count = card_count(self.count, "szörnykomponenst")
        return player_verb(voice, self.target, f"fizetsz {count}", may=f"fizethetsz {count}",
                           spell=f"fizess {count}", third=f"fizet {count}")
