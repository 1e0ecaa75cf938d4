"""``do = "damage"``: damage to players or permanents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from hkk._cards.amounts import Amount
from hkk._cards.types import Target
from hkk._cards.verbs.base import FilteredVerb, register_verb
from hkk.events import Damaged, Event, PlayerDamaged

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions


@register_verb
class Damage(FilteredVerb):
    """Damage to players or permanents (a building's damage is taken from its Sp)."""

    do: Literal["damage"] = "damage"
    amount: Amount
    target: Target
    emits: ClassVar[tuple[type[Event], ...]] = (Damaged, PlayerDamaged)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        source_uid = ctx.source.uid if ctx.source is not None else None
        # a number, or a count read now (hkk._cards.amounts)
        n = self.amount if isinstance(self.amount, int) else self.amount.value(game, ctx)
        for t in targets:
            game.damage(t, n, source=ctx.label, source_uid=source_uid)

    def hu(self, voice: Voice) -> str:
        whom = voice.target(self.target, "dat", self.where)
        if voice.nominal:  # "3 sebzés az ellenfél egy lényének"
            amount, tail = voice.counted(self.amount, "sebzés")
            return f"{amount} {whom}{tail}"
        amount, tail = voice.counted(self.amount, "sebzést")
        verb = "okozhatsz" if voice.optional else "okoz"  # "okozhatsz": you may (41.1)
        return f"{amount} {verb} {whom}{tail}"
