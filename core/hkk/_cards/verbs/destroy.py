"""``do = "destroy"`` and ``do = "sacrifice"``: a permanent leaves play."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from hkk._cards.targets import permanents_in_play
from hkk._cards.verbs.base import PermanentVerb, Verb, register_verb
from hkk.events import Destroyed, Died, Event

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions


@register_verb
class Destroy(PermanentVerb):
    do: Literal["destroy"] = "destroy"
    emits: ClassVar[tuple[type[Event], ...]] = (Died, Destroyed)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for t in permanents_in_play(targets, game):
            game.destroy(t, "destroyed", rule=None)

    def hu(self, voice: Voice) -> str:  # "minden lény elpusztul"
        from hkk._cards.wording import may

        return may(voice, f"{voice.target(self.target, 'nom', self.where)} elpusztul".strip())


@register_verb
class Sacrifice(Verb):
    """Sacrifice one's own permanent: the card itself or a chosen own creature."""

    do: Literal["sacrifice"] = "sacrifice"
    target: Literal["self", "chosen_own_creature"] = "self"
    emits: ClassVar[tuple[type[Event], ...]] = (Died, Destroyed)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        for t in permanents_in_play(targets, game):
            game.destroy(t, "sacrificed")

    def hu(self, voice: Voice) -> str:
        from hkk._cards.wording import may

        if self.target == "self":
            return may(voice, "feláldozod")
        verb = "áldozz fel" if voice.kind == "spell" else "feláldozol"
        return may(voice, f"{verb} {voice.target(self.target, 'acc')}")
