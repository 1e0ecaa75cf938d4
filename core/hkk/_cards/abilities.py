"""Abilities as pydantic models (discriminated by ``kind``), with what they hold: their effects
(the registered ``do`` verbs), their cost, usage limits and, for a triggered one, its ``when``.

A card (:mod:`hkk._cards.model`) holds a tuple of them; the TOML shorthands ``effect = {...}``
and ``limit = "once_per_turn"`` are read here (listed in :mod:`hkk._cards.model`).
"""

from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    field_validator,
    model_validator,
)

from hkk._cards.amounts import TRIGGER_AMOUNT, Count
from hkk._cards.condition import ConditionField
from hkk._cards.registry import NameOf, TaggedUnionOf
from hkk._cards.trigger_events import WHEN_EVENTS
from hkk._cards.types import (
    CONFIG,
    LIST_OK,
    MAX_STAT,
    TRIGGER_TARGETS,
    Text,
    Timing,
    invalid,
)
from hkk._cards.verbs import VERBS
from hkk._cards.verbs.modify import Modify
from hkk._cards.verbs.prevent import Prevent

__all__ = [
    "Ability", "ActivatedAbility", "AutomaticAbility", "Cost", "Effect", "Effects", "Limits",
    "StaticAbility", "StaticEffect", "TriggeredAbility", "When",
]


class Cost(BaseModel):
    model_config = CONFIG

    vp: int = Field(0, ge=0, le=MAX_STAT)
    components: int = Field(0, ge=0, le=MAX_STAT)
    #: Sacrificing the card itself is part of the cost (no monster component from it [R]).
    sacrifice_self: bool = False


# -- effects: the registered ``do`` verbs (hkk._cards.verbs), discriminated by ``do`` -----------

#: Any verb but the static-only ones (``prevent``).
Effect = Annotated[Any, TaggedUnionOf(VERBS, "do", keep=lambda verb: not verb.static_only)]
#: What a static ability may hold: a permanent modifier, or a prevention.  Parsed as any effect
#: so that a wrong one gets the static ability's own message, not a union error.
StaticEffect = Annotated[Any, TaggedUnionOf(VERBS, "do")]


def _at_least_one(effects: tuple[Any, ...]) -> tuple[Any, ...]:
    # Checked after the items (not with min_length), so that a broken single effect is reported
    # once, not also as "too short".
    if not effects:
        raise invalid("at least one effect is needed")
    return effects


Effects = Annotated[tuple[Effect, ...], LIST_OK, AfterValidator(_at_least_one),
                    Field(json_schema_extra={"minItems": 1})]
# Strict(False): TOML gives a list, the frozen model keeps a tuple (also once models are strict).
StaticEffects = Annotated[tuple[StaticEffect, ...], Strict(False), AfterValidator(_at_least_one),
                          Field(json_schema_extra={"minItems": 1})]


def _effect_shorthand(data: Any) -> Any:
    """``effect = {...}`` is written for ``effects = [{...}]``."""
    if isinstance(data, dict) and "effect" in data:
        if "effects" in data:
            raise invalid("give either 'effect' or 'effects', not both")
        data = dict(data)
        data["effects"] = [data.pop("effect")]
    return data


def _effect_shorthand_schema(schema: dict[str, Any]) -> None:
    """Let editors accept the ``effect =`` shorthand too (the validator above is invisible to
    the generated schema)."""
    props = schema["properties"]
    props["effect"] = {"title": "Effect", "description": "Shorthand for a one-element 'effects'.",
                       **props["effects"]["items"]}
    schema["required"] = [name for name in schema.get("required", []) if name != "effects"]
    schema["oneOf"] = [{"required": ["effects"]}, {"required": ["effect"]}]


_WITH_EFFECTS = ConfigDict(defer_build=True, frozen=True, extra="forbid", strict=True,
                           json_schema_extra=_effect_shorthand_schema)


# -- usage limits (Kódex ch. 90) -------------------------------------------------------------------

class Limits(BaseModel):
    model_config = CONFIG

    per_turn: int | None = Field(None, gt=0, le=MAX_STAT)
    per_game: int | None = Field(None, gt=0, le=MAX_STAT)
    whose_turn: Literal["any", "own", "opponent"] = "any"


LimitShorthand = Literal["once_per_turn", "once_per_game", "own_turn", "opponent_turn"]
_LIMIT_SHORTHANDS: dict[str, dict[str, Any]] = {
    "once_per_turn": {"per_turn": 1},
    "once_per_game": {"per_game": 1},
    "own_turn": {"whose_turn": "own"},
    "opponent_turn": {"whose_turn": "opponent"},
}


def _limit_from_shorthand(value: Any) -> Any:
    # The limits of ch. 90 combine, so a list of shorthands merges into one table.
    words = [value] if isinstance(value, str) else value
    if not (isinstance(words, list) and all(isinstance(word, str) for word in words)):
        return value
    table: dict[str, Any] = {}
    for word in words:
        if word not in _LIMIT_SHORTHANDS:
            raise invalid(f"unknown limit '{word}'; use one of "
                          f"{', '.join(_LIMIT_SHORTHANDS)} or a table")
        table.update(_LIMIT_SHORTHANDS[word])
    return table


LimitSpec = Annotated[
    Limits,
    BeforeValidator(_limit_from_shorthand,
                    json_schema_input_type=Limits | LimitShorthand | list[LimitShorthand]),
]


#: What a static modifier may reach: the groups of permanents ``static_applies`` reads and the
#: players ``static_player`` reads (``hkk._characteristics``, D-static-scope); a chosen target
#: would be chosen by nobody.
STATIC_TARGETS = frozenset({"self", "own_creatures", "opponent_creatures", "all_creatures",
                            "own_buildings", "all_buildings", "controller", "opponent",
                            "each_player"})


# -- abilities (discriminator ``kind``) --------------------------------------------------------

class StaticAbility(BaseModel):
    """Always on, in the preparation phase too (29.4.8). Its modifiers reach a standing group
    nobody chooses (D-static-scope): `self`, `own_creatures`, `opponent_creatures`,
    `all_creatures`, `own_buildings`, `all_buildings`, or a player: `controller`, `opponent`,
    `each_player`."""

    model_config = _WITH_EFFECTS
    kind: Literal["static"] = "static"
    text: Text = ""
    effects: StaticEffects
    condition: ConditionField = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any) -> Any:
        return _effect_shorthand(data)

    @model_validator(mode="after")
    def _only_permanent_modifiers(self) -> Self:
        # A static ability is a standing state, not something that happens: it can only be a
        # modifier that lasts as long as the card does.
        for effect in self.effects:
            if not (isinstance(effect, Modify) and effect.duration == "permanent"
                    or isinstance(effect, Prevent)):
                raise invalid("static abilities only use modify with duration = \"permanent\" "
                              "or prevent")
            if isinstance(effect, Modify) and effect.target not in STATIC_TARGETS:
                # nobody chooses while a static is in force: it reaches a standing group of
                # permanents (hkk._characteristics.static_applies, D-static-scope)
                raise invalid(f"a static modifier cannot target {effect.target}: it is in force "
                              "all the time, over a group nobody chooses; use one of "
                              + ", ".join(sorted(STATIC_TARGETS)))
            if isinstance(effect, Modify) and (isinstance(effect.by, Count)
                                               or effect.where is not None):
                # a static is in force all the time; a count or a filter is read once, when a
                # lasting effect is made (hkk._cards.amounts)
                raise invalid("a static modifier cannot count (by = { count = ... }) or filter "
                              "(where): it is in force all the time; use a number and a target")
        return self


#: What ``optional`` means, for authors and their editors (``hkk schema``).
_CONDITIONAL = (
    "The text is in the conditional mood (41.1: 'feltételes módú szövege'): it leaves the use to "
    "the player - not only 'may', but any wording that does: 'if you wish', 'you could', "
    "Hungarian '-hat/-het' ('húzhatsz'), '-ná/-né' ('húznál'), 'ha akarod'. Its controller may "
    "decline it; in end stage 1 it is optional even without a cost.")

_END_STAGE_USE = {
    "end_stage1": "abilities the players use (41.1; an activated ability, optional = true "
                  "for a conditional text)",
    "end_stage3": "restoring damaged creatures and buildings (41.3)",
    "end_stage4": "the moment effects end (41.4)",
}


class AutomaticAbility(BaseModel):
    """Fires by itself at its timing.  Never has a cost (133.1), so there is no ``cost`` field."""

    model_config = _WITH_EFFECTS
    kind: Literal["automatic"] = "automatic"
    text: Text = ""
    timing: Timing
    effects: Effects
    #: A conditional text (41.1): the controller may decline it.
    optional: bool = Field(False, description=_CONDITIONAL)
    #: Whose turn it fires in: "own" for "in your preparation phase", "opponent" for "in your
    #: opponent's turn"; by default in every turn.
    whose_turn: Literal["any", "own", "opponent"] = "any"
    condition: ConditionField = None

    @model_validator(mode="before")
    @classmethod
    def _before(cls, data: Any) -> Any:
        if isinstance(data, dict) and "cost" in data:
            raise invalid("automatic abilities never have a cost (133.1)")
        return _effect_shorthand(data)

    @field_validator("timing")
    @classmethod
    def _moment(cls, timing: str) -> str:
        # Automatic abilities trigger at a moment; the main and combat phases are windows in
        # which players take actions, not moments something fires at.
        if timing in ("main_phase", "combat_phase"):
            raise invalid(f"automatic abilities trigger at a moment; '{timing}' is an action "
                          "window, use an activated ability or another timing")
        # 41.2: what happens automatically at the end of the turn happens in end stage 2.
        # Stage 1 is for abilities players use (41.1), stage 3 only restores (41.3), and stage
        # 4's moment is followed by no Ép check and no restoring (41.4).
        if timing in ("end_stage1", "end_stage3", "end_stage4"):
            raise invalid(f"automatic end-of-turn abilities happen in end stage 2 (41.2); "
                          f"'{timing}' is for {_END_STAGE_USE[timing]}: use timing end_stage2")
        return timing

    @model_validator(mode="after")
    def _stage1_modifies_regeneration(self) -> Self:
        # 29.4: preparation-phase effects happen in stage 2; only effects that modify VP
        # regeneration act in stage 1 already (29.4.5).
        if self.timing == "prep_stage1" and not all(
                getattr(e, "do", None) == "modify" and getattr(e, "stat", None) == "vp_regen"
                for e in self.effects):
            raise invalid("only VP-regeneration modifiers (modify vp_regen) may be timed on "
                          "'prep_stage1' (29.4.5); other preparation-phase effects happen in "
                          "stage 2: use prep_stage2 (29.4)")
        return self

    @model_validator(mode="after")
    def _mandatory_at_end(self) -> Self:
        # 41.2: end-of-turn automatic effects happen regardless of the players' decisions;
        # a "may" ability at the end of the turn belongs to end stage 1 (41.1).
        if self.optional and self.timing == "end_stage2":
            raise invalid("an automatic end_stage2 ability cannot be optional (41.2); write a "
                          "conditional end-of-turn text as an activated ability timed "
                          "end_stage1 with optional = true (41.1)")
        return self


#: A registered trigger event (:mod:`hkk._cards.trigger_events`): ``dies``, ``damaged``...
TriggerEvent = Annotated[str, NameOf(WHEN_EVENTS.names)]


def _when_description(schema: dict[str, Any]) -> None:
    """What each event of ``when`` means, for authors and their editors (``hkk schema``)."""
    schema["description"] = "When it triggers. event: " + "; ".join(
        f"{name} = {WHEN_EVENTS[name].meaning}" for name in WHEN_EVENTS)


class When(BaseModel):
    """What sets off a triggered ability: "Amikor ..." ("when ...")."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid",
                              json_schema_extra=_when_description)
    event: TriggerEvent
    #: Whose permanent it happens to (or who played the card), seen from this card's
    #: controller: "own", "opponent" or "any".
    whose: Literal["own", "opponent", "any"] = "any"
    #: For the events of a permanent: "this" permanent (the ability's own card), "another"
    #: one, or "any".
    which: Literal["this", "another", "any"] = "any"
    #: Only permanents (or played cards) of this kind; None: any kind.
    card_kind: Literal["creature", "building", "spell"] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        trigger = WHEN_EVENTS[self.event]
        if not trigger.of_permanent:
            if self.which != "any":
                raise invalid(f"'which' is for the events of a permanent; {self.event} is "
                              f"about {trigger.subject} (use whose and card_kind)")
        elif self.card_kind == "spell":
            raise invalid(f"a spell is never a permanent, so it cannot be the subject of "
                          f"'{self.event}'; card_kind = \"spell\" is for card_played")
        if self.which == "this" and (self.whose != "any" or self.card_kind is not None):
            raise invalid("which = \"this\" already names the permanent: leave whose and "
                          "card_kind out")
        return self


class TriggeredAbility(BaseModel):
    """Fires when something happens in the game ("Amikor ..."): the ``when`` table says what.
    Never has a cost (133.1).  It waits until the item or action that caused it has finished
    and the Ép check after it is done, then resolves (D-trigger-wait)."""

    model_config = _WITH_EFFECTS
    kind: Literal["triggered"] = "triggered"
    text: Text = ""
    when: When
    effects: Effects
    #: A conditional text (41.1): the controller may decline it.
    optional: bool = Field(False, description=_CONDITIONAL)
    #: "Amikor ..., ha ...": it triggers only if this holds when the event happens (D-conditions).
    condition: ConditionField = None

    @model_validator(mode="before")
    @classmethod
    def _before(cls, data: Any) -> Any:
        if isinstance(data, dict) and "cost" in data:
            raise invalid("triggered abilities never have a cost (133.1)")
        if isinstance(data, dict) and "timing" in data:
            raise invalid("triggered abilities have no timing: 'when' says what sets them off")
        return _effect_shorthand(data)

    @model_validator(mode="after")
    def _targets_fit_the_event(self) -> Self:
        event = WHEN_EVENTS[self.when.event]
        offered = event.offers
        for effect in self.effects:
            target = getattr(effect, "target", None)
            if target in TRIGGER_TARGETS and target not in offered:
                raise invalid(f"target '{target}' means nothing when the event is "
                              f"'{self.when.event}'; it offers "
                              f"{', '.join(sorted(offered))}")
            if _counts_trigger_amount(effect) and not event.amount:
                having = ", ".join(n for n in WHEN_EVENTS if WHEN_EVENTS[n].amount)
                raise invalid(f"count = \"{TRIGGER_AMOUNT}\" counts the amount of the event; "
                              f"'{self.when.event}' has none (these have one: {having})")
        return self


class ActivatedAbility(BaseModel):
    """Used by its controller's decision, written "cost: effect"; using it is an action (4.23.0)."""

    model_config = _WITH_EFFECTS
    kind: Literal["activated"] = "activated"
    text: Text = ""
    timing: Timing = "main_phase"
    cost: Cost = Cost()
    #: The card text explicitly allows use in the preparation phase (29.4.7).
    usable_in_preparation: bool = False
    #: The card text explicitly *orders* its use in the preparation phase (29.4.7: "vagy
    #: kifejezetten erre utasít"): timed prep_stage2, it is used without asking its controller,
    #: once per turn (29.4.9), whenever its cost can be paid.
    must_use_in_preparation: bool = False
    #: A conditional text (41.1): optional even without a cost in end stage 1.
    optional: bool = Field(False, description=_CONDITIONAL)
    limit: LimitSpec = Limits()
    condition: ConditionField = None
    effects: Effects

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any) -> Any:
        return _effect_shorthand(data)

    @model_validator(mode="after")
    def _timing_allows_actions(self) -> Self:
        if self.must_use_in_preparation:
            if self.timing != "prep_stage2" or self.optional:
                raise invalid("must_use_in_preparation is for an ability timed prep_stage2 whose "
                              "text orders its use (29.4.7); it cannot also be optional")
        elif self.timing == "prep_stage2" and not self.usable_in_preparation:
            raise invalid("activated abilities may be used in preparation stage 2 only if their "
                          "text allows it (usable_in_preparation = true) or orders it "
                          "(must_use_in_preparation = true) (29.4.7)")
        # Nobody acts at these moments: they happen at once (29.4.2, 41.4), and "on_enter" is a
        # trigger, not a window for decisions.
        if self.timing in ("prep_stage2_start", "end_stage4", "on_enter"):
            raise invalid(f"activated abilities cannot be timed on '{self.timing}': nobody "
                          "acts at that moment")
        # 29.4: a preparation-phase ability is used in stage 2; stage 1 is the regeneration.
        if self.timing == "prep_stage1":
            raise invalid("activated abilities cannot be timed on 'prep_stage1': abilities "
                          "usable in the preparation phase are used in stage 2 (29.4, 29.4.7)")
        # End stage 2 carries out what must happen regardless of the players (41.2); end stage
        # 3 restores (41.3).  A player's end-of-turn ability is used in end stage 1 (41.1).
        if self.timing in ("end_stage2", "end_stage3"):
            raise invalid(f"activated abilities cannot be timed on '{self.timing}' (41.2, "
                          "41.3): use end_stage1, where players use end-of-turn abilities")
        return self


Ability = Annotated[
    StaticAbility | AutomaticAbility | ActivatedAbility | TriggeredAbility,
    Field(discriminator="kind")
]


def _no_trigger_targets(effects: Any, where: str) -> None:
    for effect in effects:
        target = getattr(effect, "target", None)
        if target in TRIGGER_TARGETS:
            raise invalid(f"{where}: target '{target}' is bound to a trigger's event; only "
                          "triggered abilities (kind = \"triggered\") may use it")
        if _counts_trigger_amount(effect):
            raise invalid(f"{where}: count = \"{TRIGGER_AMOUNT}\" counts the amount of a "
                          "trigger's event; only triggered abilities (kind = \"triggered\") "
                          "may use it")


def _counts_trigger_amount(effect: Any) -> bool:
    return any(isinstance(value, Count) and value.count == TRIGGER_AMOUNT
               for value in vars(effect).values())
