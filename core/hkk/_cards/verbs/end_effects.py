"""``do = "end_effects"``: lasting effects end at once (D-dispel)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Self

from pydantic import Strict, model_validator

from hkk._cards.targets import permanents_in_play
from hkk._cards.types import Duration, Target, invalid
from hkk._cards.verbs.base import Verb, register_verb
from hkk._effects import Duration as EffectDuration
from hkk._state import Player
from hkk.events import EffectEnded, Event

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions


@register_verb
class EndEffects(Verb):
    """End lasting effects at once (one moment, like 29.4.4 and 41.4): every effect on
    ``target`` ("Egy általad választott lényről minden hatás megszűnik"), every effect of
    ``durations`` ("A kör végéig tartó hatások azonnal megszűnnek"), or those matching both.
    Only lasting effects (``effect_started``) end; static abilities, defence bonuses and counters
    are not effects that end (D-dispel)."""

    do: Literal["end_effects"] = "end_effects"
    #: The permanents (or players: their VP-regeneration effects) whose effects end; none: all.
    target: Target | None = None
    #: Only effects of these durations; none: of every duration.
    durations: Annotated[tuple[Duration, ...], Strict(False)] = ()
    emits: ClassVar[tuple[type[Event], ...]] = (EffectEnded,)

    @model_validator(mode="after")
    def _says_which(self) -> Self:
        if self.target is None and not self.durations:
            raise invalid("end_effects needs a target, durations, or both (ending every "
                          "effect in the game is not a card text)")
        return self

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        durations = [EffectDuration(d) for d in self.durations]
        if self.target is None:  # D-dispel: all of them at one moment
            game.dispel("D-dispel", durations=durations)
        else:
            game.dispel("D-dispel", durations=durations,
                        on=[*permanents_in_play(targets, game),
                            *(t for t in targets if isinstance(t, Player))])

    def hu(self, voice: Voice) -> str:
        """"Egy általad választott lényről minden hatás megszűnik", "A kör végéig tartó
        hatások azonnal megszűnnek"."""
        from hkk._cards.wording import DURATIONS, join, may

        which = join([DURATIONS[d][1] for d in self.durations])
        if self.target is None:
            return may(voice, f"{which} hatások azonnal megszűnnek")
        whence = voice.target(self.target, "dels")
        if not self.durations:
            return may(voice, f"{whence} minden hatás megszűnik")
        return may(voice, f"{whence} {which} hatások megszűnnek")
