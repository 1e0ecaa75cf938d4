"""``do = "add_counters"`` and ``do = "remove_counters"``: named counters on a permanent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from hkk._cards.targets import permanents_in_play
from hkk._cards.types import MAX_STAT, CounterName
from hkk._cards.verbs.base import PermanentVerb, register_verb
from hkk.events import CountersAdded, CountersRemoved, Event

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions


@register_verb
class AddCounters(PermanentVerb):
    do: Literal["add_counters"] = "add_counters"
    counter: CounterName
    count: int = Field(gt=0, le=MAX_STAT)
    emits: ClassVar[tuple[type[Event], ...]] = (CountersAdded,)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for t in permanents_in_play(targets, game):
            game.add_counters(t, self.counter, self.count, source=ctx.label)

    def hu(self, voice: Voice) -> str:  # "3 rúnajelzőt kap"
        from hkk._cards.wording import card_count, counter_hu, may

        whom = voice.target(self.target, "nom", self.where)
        counters = card_count(self.count, f"{counter_hu(self.counter)}t")
        return may(voice, f"{whom} {counters} kap".strip())


@register_verb
class RemoveCounters(PermanentVerb):
    do: Literal["remove_counters"] = "remove_counters"
    counter: CounterName
    count: int = Field(gt=0, le=MAX_STAT)
    emits: ClassVar[tuple[type[Event], ...]] = (CountersRemoved,)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for t in permanents_in_play(targets, game):
            game.remove_counters(t, self.counter, self.count, source=ctx.label)

    def hu(self, voice: Voice) -> str:  # "levesz róla egy rúnajelzőt"
        from hkk._cards.wording import card_count, counter_hu, may

        whence = voice.target(self.target, "dels", self.where)
        counters = card_count(self.count, f"{counter_hu(self.counter)}t")
        verb = "vegyél le" if voice.kind == "spell" else "levesz"
        return may(voice, f"{verb} {whence} {counters}")
