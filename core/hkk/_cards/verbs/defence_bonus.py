"""``do = "give_defence_bonus"`` and ``do = "remove_defence_bonus"``: a creature's defence
bonus."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from hkk._cards.targets import permanents_in_play
from hkk._cards.types import BUILDING_ONLY, MAX_STAT, PERMANENT_TARGETS
from hkk._cards.verbs.base import PermanentVerb, register_verb
from hkk.events import DefenceBonusGained, DefenceBonusLost, Event

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions

#: Defending is what creatures do.
_CREATURES = PERMANENT_TARGETS - BUILDING_ONLY


@register_verb
class GiveDefenceBonus(PermanentVerb):
    do: Literal["give_defence_bonus"] = "give_defence_bonus"
    amount: int = Field(gt=0, le=MAX_STAT)
    allowed_targets = _CREATURES
    target_kind = "a creature"
    emits: ClassVar[tuple[type[Event], ...]] = (DefenceBonusGained,)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for t in permanents_in_play(targets, game):
            game.give_defence_bonus(t, self.amount, source=ctx.label)

    def hu(self, voice: Voice) -> str:  # "minden lényed +1 védekezés bónuszt kap"
        from hkk._cards.wording import may

        whom = voice.target(self.target, "nom", self.where)
        return may(voice, f"{whom} +{self.amount} védekezés bónuszt kap".strip())


@register_verb
class RemoveDefenceBonus(PermanentVerb):
    do: Literal["remove_defence_bonus"] = "remove_defence_bonus"
    allowed_targets = _CREATURES
    target_kind = "a creature"
    emits: ClassVar[tuple[type[Event], ...]] = (DefenceBonusLost,)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for t in permanents_in_play(targets, game):
            game.remove_defence_bonus(t, source=ctx.label)

    def hu(self, voice: Voice) -> str:
        from hkk._cards.wording import may

        whom = voice.target(self.target, "nom", self.where)
        return may(voice, f"{whom} elveszti a védekezés bónuszát".strip())
