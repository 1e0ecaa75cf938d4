"""``do = "modify"``: a lasting change of a stat (a lasting effect, :mod:`hkk._changes`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self

from pydantic import Field, field_validator, model_validator

from hkk._cards.amounts import Count, SignedAmount
from hkk._cards.targets import permanents_in_play, player_indexes
from hkk._cards.types import (
    BUILDING_ONLY,
    CREATURE_ONLY,
    MAX_STAT,
    PERMANENT_TARGETS,
    PLAYER_TARGETS,
    Duration,
    Stat,
    Target,
    invalid,
    require_target,
)
from hkk._cards.verbs.base import FilteredVerb, counted, register_verb
from hkk.events import EffectCreated, EffectStarted, Event

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions


@register_verb
class Modify(FilteredVerb):
    """A lasting change of a stat.  Raising max Ép is not healing (4.25.4).  A counted ``by``
    (``{ count = "own_creatures" }``) is read once, when the effect is made."""

    do: Literal["modify"] = "modify"
    stat: Stat
    by: SignedAmount
    target: Target
    duration: Duration = "until_end_of_turn"
    #: How many turns a ``duration = "turns"`` effect lasts ("3 körön át"; D-counted-turns).
    turns: int | None = Field(None, gt=0, le=MAX_STAT)
    emits: ClassVar[tuple[type[Event], ...]] = (EffectStarted, EffectCreated)

    @field_validator("by")
    @classmethod
    def _non_zero(cls, value: int | Count) -> int | Count:
        if value == 0:
            raise invalid("modify by 0 changes nothing; use a non-zero amount")
        return value

    @model_validator(mode="after")
    def _turns_go_with_duration(self) -> Self:
        if (self.duration == "turns") != (self.turns is not None):
            raise invalid("a counted duration needs both duration = \"turns\" and turns = N "
                          "(e.g. 3 for '3 körön át'); turns means nothing with another duration")
        return self

    @model_validator(mode="after")
    def _stat_fits_target(self) -> Self:
        if self.target == "chosen_player":
            raise invalid("modify cannot target chosen_player; a lasting effect on a player "
                          "is modify vp_regen on controller, opponent or each_player")
        if self.stat == "vp_regen":  # VP regeneration belongs to a player (29.3)
            require_target(self.target, PLAYER_TARGETS, "a player", "modify vp_regen")
        elif self.stat == "sp":  # only buildings have Sp
            require_target(self.target, PERMANENT_TARGETS - CREATURE_ONLY, "a building",
                           "modify sp")
        else:  # damage and hp are creature stats
            require_target(self.target, PERMANENT_TARGETS - BUILDING_ONLY, "a creature",
                           f"modify {self.stat}")
        return self

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        by = self.by if isinstance(self.by, int) else self.by.value(game, ctx)
        if self.stat == "vp_regen":
            for p in player_indexes(targets) if by else ():  # a count of 0: no effect
                game.add_effect("vp_regen", by, self.duration, player=p,
                                controller=ctx.controller, source=ctx.label, turns=self.turns)
        else:
            perms = permanents_in_play(targets, game)
            if perms and by:
                game.add_effect(self.stat, by, self.duration, targets=perms,
                                controller=ctx.controller, source=ctx.label, turns=self.turns)

    def hu(self, voice: Voice) -> str:
        """"minden lényed +1 sebzést kap a kör végéig", "a varázspont-regenerációd
        véglegesen 1-gyel nő": the target, the change wrapped in its duration."""
        from hkk._cards.wording import DURATIONS, may, times_hu, with_instrumental

        tail = ""
        if self.stat == "vp_regen":
            subject = _REGEN_OF[self.target]
            if isinstance(self.by, int):  # a standing state is "more", a change "grows"
                up, down = ("több", "kevesebb") if voice.static else ("nő", "csökken")
                change = f"{with_instrumental(abs(self.by))} {up if self.by > 0 else down}"
            else:
                many = "annyival" if self.by.times == 1 else f"{times_hu(self.by.times)} annyival"
                change, tail = f"{many} nő", voice.counted(self.by)[1]
        else:
            subject = voice.target(self.target, "nom", self.where)
            unit = _UNITS[self.stat]
            if isinstance(self.by, int):
                change = f"{self.by:+d} {unit} kap"
            else:
                amount, tail = voice.counted(self.by, f"plusz {unit}")
                change = f"{amount} kap"
        if not (voice.static and self.duration == "permanent"):  # a static is always on
            change = DURATIONS[self.duration][0].format(change, turns=self.turns)
        return may(voice, f"{subject} {change}{tail}".strip())

    def describe_field(self, key: str, value: Any) -> str:
        if key == "by":
            return f"{value:+d}" if isinstance(value, int) else f"+{counted(value)}"
        if key == "turns":
            return f"for {value} turns"
        if key == "duration" and value == "turns":
            return ""  # said by "for N turns"
        return super().describe_field(key, value)


_UNITS = {"damage": "sebzést", "hp": "Ép-t", "sp": "Sp-t"}
_REGEN_OF = {"controller": "a varázspont-regenerációd",
             "opponent": "az ellenfél varázspont-regenerációja",
             "each_player": "minden játékos varázspont-regenerációja",
             "trigger_player": "annak a játékosnak a varázspont-regenerációja"}
