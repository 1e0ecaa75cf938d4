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
        by = self.by if isinstance(self.by, int) else self.by.value(game, ctx.controller)
        if self.stat == "vp_regen":
            for p in player_indexes(targets) if by else ():  # a count of 0: no effect
                game.add_effect("vp_regen", by, self.duration, player=p,
                                controller=ctx.controller, source=ctx.label, turns=self.turns)
        else:
            perms = permanents_in_play(targets, game)
            if perms and by:
                game.add_effect(self.stat, by, self.duration, targets=perms,
                                controller=ctx.controller, source=ctx.label, turns=self.turns)

    def describe_field(self, key: str, value: Any) -> str:
        if key == "by":
            return f"{value:+d}" if isinstance(value, int) else f"+{counted(value)}"
        if key == "turns":
            return f"for {value} turns"
        if key == "duration" and value == "turns":
            return ""  # said by "for N turns"
        return super().describe_field(key, value)
