"""Card definitions as pydantic v2 models: the boundary between a set's TOML files and the engine.

Every model is frozen and forbids unknown fields, so a typo in a card file is an error instead of
a silently ignored key.  Abilities are discriminated by ``kind``, effect primitives by ``do``.
Lists are stored as tuples so that a loaded card definition can be shared between games without
anyone changing it.

TOML shorthands accepted on input (the canonical form is what ``model_dump`` gives back):

* ``effect = {...}`` for a one-element ``effects = [{...}]`` (abilities and spells);
* ``limit = "once_per_turn" | "once_per_game" | "own_turn" | "opponent_turn"`` (or a list of
  these, since the usage limits of Kódex ch. 90 combine) for the table form
  ``limit = { per_turn = 1, per_game = ..., whose_turn = ... }``.
"""

from functools import cached_property
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from hkk._phases import CARD_TIMINGS, PHASE_NAMES
from hkk._text import codepoint, first_control_character

# -- basic types --------------------------------------------------------------------------------

#: ``<set code>:<slug>``; the set code is the entry-point name of the set (design: sets).
CARD_ID_PATTERN = r"^[a-z][a-z0-9_]{1,31}:[a-z0-9][a-z0-9_-]*$"
CardId = Annotated[str, StringConstraints(pattern=CARD_ID_PATTERN)]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]*$")]
CounterName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]

Target = Literal[
    "self", "controller", "opponent", "each_player",
    "own_creatures", "opponent_creatures", "all_creatures",
    "chosen_creature", "chosen_own_creature", "chosen_opponent_creature",
    "own_buildings", "all_buildings", "chosen_building", "chosen_player",
    "trigger_permanent", "trigger_source", "trigger_player",
]
#: Targets bound to the event that set off a triggered ability (``kind = "triggered"``): the
#: permanent it happened to, the permanent that dealt the damage, the player who played the card
#: (or controls the permanent).  Only triggered abilities may use them.
TRIGGER_TARGETS: frozenset[str] = frozenset({"trigger_permanent", "trigger_source",
                                             "trigger_player"})
PLAYER_TARGETS: frozenset[str] = frozenset({"controller", "opponent", "each_player",
                                            "chosen_player", "trigger_player"})
PERMANENT_TARGETS: frozenset[str] = frozenset(Target.__args__) - PLAYER_TARGETS
# Finer groups, used only to reject combinations that cannot mean anything ("self" may be either).
_BUILDING_ONLY = frozenset({"own_buildings", "all_buildings", "chosen_building"})
_CREATURE_ONLY = PERMANENT_TARGETS - _BUILDING_ONLY - {"self", "trigger_permanent",
                                                        "trigger_source"}

#: ``turns``: counted in turns (with ``turns = N``, D-counted-turns); ``until_own_preparation``:
#: until the beginning of stage 2 of its controller's next preparation phase (29.4.4).
Duration = Literal["permanent", "until_end_of_turn", "this_turn", "until_preparation",
                   "until_own_preparation", "turns"]
Stat = Literal["damage", "hp", "sp", "vp_regen"]

#: A turn hook of :data:`hkk._phases.CARD_TIMINGS`, or ``on_enter``: when the card enters play.
Timing = Literal[CARD_TIMINGS + ("on_enter",)]  # type: ignore[valid-type]

# Strict types (issue 13): ``hp = "2"`` or ``optional = 1`` is refused, as the JSON Schema
# (``hkk schema``) refuses it, instead of being coerced.  Only the tuple containers are lenient
# (:data:`LIST_OK`): TOML gives lists, the frozen models keep tuples; their items stay strict.
#
# ``defer_build`` (start-up, issue 11): a model builds its validator when it is first used, not
# when its class is made.  Loading a set validates only ``CardFile`` and ``DeckFile``, whose
# validators hold every nested model, so the ~30 nested models never build one of their own
# unless a caller validates or makes them directly.  Validation and JSON Schema are unchanged.
_CONFIG = ConfigDict(defer_build=True, frozen=True, extra="forbid", strict=True)
#: On a ``tuple[...]`` field of a strict model: accept the TOML list too (items stay strict).
LIST_OK = Strict(False)

#: Upper bound of every number on a card (stats, costs, amounts, limits): far above any printed
#: card, and it keeps a typo like Ép 10**100 from reaching a game.
MAX_STAT = 999
#: Upper bound of a deck's size (and so of one card's count): a count of 10**9 would otherwise
#: validate and then exhaust memory when the deck is built.
MAX_DECK_SIZE = 1000


def _invalid(message: str, **context: Any) -> PydanticCustomError:
    """A validation error whose message reads as written (no "Value error, " prefix)."""
    return PydanticCustomError("hkk_card_rule", message, context or None)


def _no_control_characters(value: str) -> str:
    # Names and texts are printed on terminals: an escape sequence could drive the terminal.
    char = first_control_character(value)
    if char is not None:
        raise _invalid(f"control character {codepoint(char)} is not allowed")
    return value


#: Text shown to players: no control characters but tab and newline (see :mod:`hkk._text`).
Text = Annotated[str, AfterValidator(_no_control_characters)]


def _require_target(target: str, allowed: frozenset[str], what: str, primitive: str) -> None:
    if target not in allowed:
        raise _invalid(
            f"{primitive} needs {what} target, one of {', '.join(sorted(allowed))}; "
            f"got '{target}'"
        )


class Cost(BaseModel):
    model_config = _CONFIG

    vp: int = Field(0, ge=0, le=MAX_STAT)
    components: int = Field(0, ge=0, le=MAX_STAT)
    #: Sacrificing the card itself is part of the cost (no monster component from it [R]).
    sacrifice_self: bool = False


# -- effect primitives (discriminator ``do``) -----------------------------------------------------

class Damage(BaseModel):
    """Damage to players or permanents (a building's damage is taken from its Sp)."""

    model_config = _CONFIG
    do: Literal["damage"] = "damage"
    amount: int = Field(gt=0, le=MAX_STAT)
    target: Target


class Heal(BaseModel):
    model_config = _CONFIG
    do: Literal["heal"] = "heal"
    amount: int = Field(gt=0, le=MAX_STAT)
    target: Target


class Modify(BaseModel):
    """A lasting change of a stat.  Raising max Ép is not healing (4.25.4)."""

    model_config = _CONFIG
    do: Literal["modify"] = "modify"
    stat: Stat
    by: int = Field(ge=-MAX_STAT, le=MAX_STAT)
    target: Target
    duration: Duration = "until_end_of_turn"
    #: How many turns a ``duration = "turns"`` effect lasts ("3 körön át"; D-counted-turns).
    turns: int | None = Field(None, gt=0, le=MAX_STAT)

    @field_validator("by")
    @classmethod
    def _non_zero(cls, value: int) -> int:
        if value == 0:
            raise _invalid("modify by 0 changes nothing; use a non-zero amount")
        return value

    @model_validator(mode="after")
    def _turns_go_with_duration(self) -> Self:
        if (self.duration == "turns") != (self.turns is not None):
            raise _invalid("a counted duration needs both duration = \"turns\" and turns = N "
                           "(e.g. 3 for '3 körön át'); turns means nothing with another duration")
        return self

    @model_validator(mode="after")
    def _stat_fits_target(self) -> Self:
        if self.target == "chosen_player":
            raise _invalid("modify cannot target chosen_player; a lasting effect on a player "
                           "is modify vp_regen on controller, opponent or each_player")
        if self.stat == "vp_regen":  # VP regeneration belongs to a player (29.3)
            _require_target(self.target, PLAYER_TARGETS, "a player", "modify vp_regen")
        elif self.stat == "sp":  # only buildings have Sp
            _require_target(self.target, PERMANENT_TARGETS - _CREATURE_ONLY, "a building",
                            "modify sp")
        else:  # damage and hp are creature stats
            _require_target(self.target, PERMANENT_TARGETS - _BUILDING_ONLY, "a creature",
                            f"modify {self.stat}")
        return self


class _PlayerPrimitive(BaseModel):
    """Primitives that only make sense for a player (VP, cards, components)."""

    model_config = _CONFIG
    target: Target = "controller"

    @model_validator(mode="after")
    def _player_target(self) -> Self:
        _require_target(self.target, PLAYER_TARGETS, "a player", self.do)  # type: ignore[attr-defined]
        return self


class GainVp(_PlayerPrimitive):
    do: Literal["gain_vp"] = "gain_vp"
    amount: int = Field(gt=0, le=MAX_STAT)


class LoseVp(_PlayerPrimitive):
    do: Literal["lose_vp"] = "lose_vp"
    amount: int = Field(gt=0, le=MAX_STAT)


class Draw(_PlayerPrimitive):
    do: Literal["draw"] = "draw"
    count: int = Field(gt=0, le=MAX_STAT)


class GainComponents(_PlayerPrimitive):
    do: Literal["gain_components"] = "gain_components"
    count: int = Field(gt=0, le=MAX_STAT)


class PayComponents(_PlayerPrimitive):
    do: Literal["pay_components"] = "pay_components"
    count: int = Field(gt=0, le=MAX_STAT)


class _PermanentPrimitive(BaseModel):
    """Primitives that only make sense for permanents on the table."""

    model_config = _CONFIG
    target: Target
    #: Which permanents the primitive can act on; creatures only for defence bonuses.
    allowed_targets: ClassVar[frozenset[str]] = PERMANENT_TARGETS
    target_kind: ClassVar[str] = "a permanent"

    @model_validator(mode="after")
    def _permanent_target(self) -> Self:
        _require_target(self.target, self.allowed_targets, self.target_kind,
                        self.do)  # type: ignore[attr-defined]
        return self


class Destroy(_PermanentPrimitive):
    do: Literal["destroy"] = "destroy"


class AddCounters(_PermanentPrimitive):
    do: Literal["add_counters"] = "add_counters"
    counter: CounterName
    count: int = Field(gt=0, le=MAX_STAT)


class RemoveCounters(_PermanentPrimitive):
    do: Literal["remove_counters"] = "remove_counters"
    counter: CounterName
    count: int = Field(gt=0, le=MAX_STAT)


class GiveDefenceBonus(_PermanentPrimitive):
    do: Literal["give_defence_bonus"] = "give_defence_bonus"
    amount: int = Field(gt=0, le=MAX_STAT)
    allowed_targets = PERMANENT_TARGETS - _BUILDING_ONLY  # defending is what creatures do
    target_kind = "a creature"


class RemoveDefenceBonus(_PermanentPrimitive):
    do: Literal["remove_defence_bonus"] = "remove_defence_bonus"
    allowed_targets = PERMANENT_TARGETS - _BUILDING_ONLY
    target_kind = "a creature"


class Sacrifice(BaseModel):
    """Sacrifice one's own permanent: the card itself or a chosen own creature."""

    model_config = _CONFIG
    do: Literal["sacrifice"] = "sacrifice"
    target: Literal["self", "chosen_own_creature"] = "self"


class EndEffects(BaseModel):
    """End lasting effects at once (one moment, like 29.4.4 and 41.4): every effect on
    ``target`` ("Egy általad választott lényről minden hatás megszűnik"), every effect of
    ``durations`` ("A kör végéig tartó hatások azonnal megszűnnek"), or those matching both.
    Only lasting effects (``effect_started``) end; static abilities, defence bonuses and counters
    are not effects that end (D-dispel)."""

    model_config = _CONFIG
    do: Literal["end_effects"] = "end_effects"
    #: The permanents (or players: their VP-regeneration effects) whose effects end; none: all.
    target: Target | None = None
    #: Only effects of these durations; none: of every duration.
    durations: Annotated[tuple[Duration, ...], Strict(False)] = ()

    @model_validator(mode="after")
    def _says_which(self) -> Self:
        if self.target is None and not self.durations:
            raise _invalid("end_effects needs a target, durations, or both (ending every "
                           "effect in the game is not a card text)")
        return self


#: A phase of the turn (:data:`hkk._phases.PHASE_NAMES`), or ``any``.
Phase = Literal[PHASE_NAMES + ("any",)]  # type: ignore[valid-type]


class Prevent(BaseModel):
    """For static abilities: the abilities it names resolve without effect and are logged as
    ``prevented`` ("Az ellenfeled előkészítő fázisban használt képességei hatástalanok").  A
    prevented activated ability is still used: its cost is paid and, in the preparation phase,
    it was the one attempt of the turn (29.4.9, D-prevented)."""

    model_config = _CONFIG
    do: Literal["prevent"] = "prevent"
    #: Whose abilities: the static's controller's opponent, its controller, or each player's.
    whose: Literal["opponent", "controller", "each_player"] = "opponent"
    #: Which kind of ability: ``activated`` ("used"), ``automatic``, or ``all`` of both.
    abilities: Literal["activated", "automatic", "all"] = "all"
    #: In which phase (the ``phase`` of the turn's steps: preparation, main, combat, end).
    phase: Phase = "any"


class Custom(BaseModel):
    """A named Python effect offered by a set's ``custom_effects`` hook, called with ``params``."""

    model_config = _CONFIG
    do: Literal["custom"] = "custom"
    name: Text = Field(min_length=1)
    #: Chosen by the engine before the effect runs (so also before a simultaneous moment,
    #: 29.4.2) and handed to the function as ``ctx.targets``.
    target: Target | None = None
    params: dict[Text, int | Text | bool] = {}


Effect = Annotated[
    Damage | Heal | Modify | GainVp | LoseVp | Draw | Destroy | Sacrifice | AddCounters
    | RemoveCounters | GiveDefenceBonus | RemoveDefenceBonus | GainComponents | PayComponents
    | EndEffects | Custom,
    Field(discriminator="do"),
]


#: What a static ability may hold: a permanent modifier, or a prevention.  Parsed as any effect
#: so that a wrong one gets the static ability's own message, not a union error.
StaticEffect = Annotated[
    Damage | Heal | Modify | GainVp | LoseVp | Draw | Destroy | Sacrifice | AddCounters
    | RemoveCounters | GiveDefenceBonus | RemoveDefenceBonus | GainComponents | PayComponents
    | EndEffects | Custom | Prevent,
    Field(discriminator="do"),
]


def _at_least_one(effects: tuple[Any, ...]) -> tuple[Any, ...]:
    # Checked after the items (not with min_length), so that a broken single effect is reported
    # once, not also as "too short".
    if not effects:
        raise _invalid("at least one effect is needed")
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
            raise _invalid("give either 'effect' or 'effects', not both")
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
    model_config = _CONFIG

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
            raise _invalid(f"unknown limit '{word}'; use one of "
                           f"{', '.join(_LIMIT_SHORTHANDS)} or a table")
        table.update(_LIMIT_SHORTHANDS[word])
    return table


LimitSpec = Annotated[
    Limits,
    BeforeValidator(_limit_from_shorthand,
                    json_schema_input_type=Limits | LimitShorthand | list[LimitShorthand]),
]


# -- conditions on the state ("Ha ...") --------------------------------------------------------

#: A number of the game, seen from the ability's controller ("own") or his opponent.
Quantity = Literal[
    "own_vp", "opponent_vp", "own_hp", "opponent_hp", "own_components",
    "opponent_components", "own_hand", "opponent_hand", "own_creatures",
    "opponent_creatures", "own_buildings", "opponent_buildings",
]
QUANTITIES: tuple[str, ...] = Quantity.__args__
_COMPARISONS = ("at_least", "at_most", "more_than", "fewer_than")
_Bound = Annotated[int, Field(ge=-MAX_STAT, le=MAX_STAT)]


class Condition(BaseModel):
    """A condition on the state: ``of`` compared with a number or another quantity, exactly
    one comparison.  "Ha legalább 5 VP-d van" is ``{ of = "own_vp", at_least = 5 }``; "Ha az
    ellenfélnek több lénye van, mint neked" is ``{ of = "opponent_creatures", more_than =
    "own_creatures" }``.  Evaluated by :mod:`hkk._conditions` whenever it is needed: statics
    follow it as the state changes (D-conditions)."""

    model_config = _CONFIG
    of: Quantity
    at_least: _Bound | Quantity | None = None
    at_most: _Bound | Quantity | None = None
    more_than: _Bound | Quantity | None = None
    fewer_than: _Bound | Quantity | None = None

    @model_validator(mode="after")
    def _one_comparison(self) -> Self:
        given = [name for name in _COMPARISONS if getattr(self, name) is not None]
        if len(given) != 1:
            raise _invalid(f"a condition compares '{self.of}' in exactly one way, one of "
                           f"{', '.join(_COMPARISONS)}; got {len(given)}")
        return self

    @cached_property  # read at every evaluation: found once
    def comparison(self) -> tuple[str, int | str]:
        """(comparison name, number or quantity)."""
        name = next(n for n in _COMPARISONS if getattr(self, n) is not None)
        return name, getattr(self, name)

    def describe(self) -> str:
        name, value = self.comparison
        return f"if {self.of} {name.replace('_', ' ')} {value}"


#: The reusable field: any ability kind may carry ``condition = {...}``.
_CONDITION_DOC = ("Only while this holds: a static ability is in force, an automatic ability "
                  "fires, an activated ability can be used (checked with its cost).")
ConditionField = Annotated[Condition | None, Field(None, description=_CONDITION_DOC)]


# -- abilities (discriminator ``kind``) --------------------------------------------------------

class StaticAbility(BaseModel):
    """Always on, in the preparation phase too (29.4.8)."""

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
                raise _invalid("static abilities only use modify with duration = \"permanent\" "
                               "or prevent")
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
            raise _invalid("automatic abilities never have a cost (133.1)")
        return _effect_shorthand(data)

    @field_validator("timing")
    @classmethod
    def _moment(cls, timing: str) -> str:
        # Automatic abilities trigger at a moment; the main and combat phases are windows in
        # which players take actions, not moments something fires at.
        if timing in ("main_phase", "combat_phase"):
            raise _invalid(f"automatic abilities trigger at a moment; '{timing}' is an action "
                           "window, use an activated ability or another timing")
        # 41.2: what happens automatically at the end of the turn happens in end stage 2.
        # Stage 1 is for abilities players use (41.1), stage 3 only restores (41.3), and stage
        # 4's moment is followed by no Ép check and no restoring (41.4).
        if timing in ("end_stage1", "end_stage3", "end_stage4"):
            raise _invalid(f"automatic end-of-turn abilities happen in end stage 2 (41.2); "
                           f"'{timing}' is for {_END_STAGE_USE[timing]}: use timing end_stage2")
        return timing

    @model_validator(mode="after")
    def _stage1_modifies_regeneration(self) -> Self:
        # 29.4: preparation-phase effects happen in stage 2; only effects that modify VP
        # regeneration act in stage 1 already (29.4.5).
        if self.timing == "prep_stage1" and not all(
                getattr(e, "do", None) == "modify" and getattr(e, "stat", None) == "vp_regen"
                for e in self.effects):
            raise _invalid("only VP-regeneration modifiers (modify vp_regen) may be timed on "
                           "'prep_stage1' (29.4.5); other preparation-phase effects happen in "
                           "stage 2: use prep_stage2 (29.4)")
        return self

    @model_validator(mode="after")
    def _mandatory_at_end(self) -> Self:
        # 41.2: end-of-turn automatic effects happen regardless of the players' decisions;
        # a "may" ability at the end of the turn belongs to end stage 1 (41.1).
        if self.optional and self.timing == "end_stage2":
            raise _invalid("an automatic end_stage2 ability cannot be optional (41.2); write a "
                           "conditional end-of-turn text as an activated ability timed "
                           "end_stage1 with optional = true (41.1)")
        return self


TriggerEvent = Literal["dies", "damaged", "enters_play", "effect_ends", "card_played"]

#: What each event of ``when`` means, for authors and their editors (``hkk schema``).
TRIGGER_EVENTS: dict[str, str] = {
    "dies": "a permanent goes from play to the graveyard or the void (a creature dies, a "
            "building is destroyed)",
    "damaged": "a permanent is dealt damage",
    "enters_play": "a permanent enters play",
    "effect_ends": "a lasting effect on a permanent ends",
    "card_played": "a card is played from hand",
}
#: The events that happen to a permanent (``which`` and ``trigger_permanent`` apply).
PERMANENT_EVENTS = frozenset({"dies", "damaged", "enters_play", "effect_ends"})
#: Which event-bound targets each event offers.
_EVENT_TARGETS: dict[str, frozenset[str]] = {
    "dies": frozenset({"trigger_player"}),  # the permanent is gone: nothing to aim at
    "damaged": frozenset({"trigger_permanent", "trigger_source", "trigger_player"}),
    "enters_play": frozenset({"trigger_permanent", "trigger_player"}),
    "effect_ends": frozenset({"trigger_permanent", "trigger_player"}),
    "card_played": frozenset({"trigger_player"}),
}


class When(BaseModel):
    """What sets off a triggered ability: "Amikor ..." ("when ...")."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid", json_schema_extra={
        "description": "When it triggers. event: " + "; ".join(
            f"{k} = {v}" for k, v in TRIGGER_EVENTS.items())})
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
        if self.event == "card_played":
            if self.which != "any":
                raise _invalid("'which' is for the events of a permanent; card_played is about "
                               "the card played (use whose and card_kind)")
        elif self.card_kind == "spell":
            raise _invalid(f"a spell is never a permanent, so it cannot be the subject of "
                           f"'{self.event}'; card_kind = \"spell\" is for card_played")
        if self.which == "this" and (self.whose != "any" or self.card_kind is not None):
            raise _invalid("which = \"this\" already names the permanent: leave whose and "
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
            raise _invalid("triggered abilities never have a cost (133.1)")
        if isinstance(data, dict) and "timing" in data:
            raise _invalid("triggered abilities have no timing: 'when' says what sets them off")
        return _effect_shorthand(data)

    @model_validator(mode="after")
    def _targets_fit_the_event(self) -> Self:
        offered = _EVENT_TARGETS[self.when.event]
        for effect in self.effects:
            target = getattr(effect, "target", None)
            if target in TRIGGER_TARGETS and target not in offered:
                raise _invalid(f"target '{target}' means nothing when the event is "
                               f"'{self.when.event}'; it offers "
                               f"{', '.join(sorted(offered))}")
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
                raise _invalid("must_use_in_preparation is for an ability timed prep_stage2 whose "
                               "text orders its use (29.4.7); it cannot also be optional")
        elif self.timing == "prep_stage2" and not self.usable_in_preparation:
            raise _invalid("activated abilities may be used in preparation stage 2 only if their "
                           "text allows it (usable_in_preparation = true) or orders it "
                           "(must_use_in_preparation = true) (29.4.7)")
        # Nobody acts at these moments: they happen at once (29.4.2, 41.4), and "on_enter" is a
        # trigger, not a window for decisions.
        if self.timing in ("prep_stage2_start", "end_stage4", "on_enter"):
            raise _invalid(f"activated abilities cannot be timed on '{self.timing}': nobody "
                           "acts at that moment")
        # 29.4: a preparation-phase ability is used in stage 2; stage 1 is the regeneration.
        if self.timing == "prep_stage1":
            raise _invalid("activated abilities cannot be timed on 'prep_stage1': abilities "
                           "usable in the preparation phase are used in stage 2 (29.4, 29.4.7)")
        # End stage 2 carries out what must happen regardless of the players (41.2); end stage
        # 3 restores (41.3).  A player's end-of-turn ability is used in end stage 1 (41.1).
        if self.timing in ("end_stage2", "end_stage3"):
            raise _invalid(f"activated abilities cannot be timed on '{self.timing}' (41.2, "
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
            raise _invalid(f"{where}: target '{target}' is bound to a trigger's event; only "
                           "triggered abilities (kind = \"triggered\") may use it")


# -- cards (discriminator ``kind``) ------------------------------------------------------------

class _CardBase(BaseModel):
    model_config = _CONFIG

    id: CardId
    name: Text = Field(min_length=1)
    text: Text = ""
    cost: Cost = Cost()
    abilities: Annotated[tuple[Ability, ...], LIST_OK] = ()

    @model_validator(mode="after")
    def _trigger_targets_only_in_triggers(self) -> Self:
        for index, ability in enumerate(self.abilities):
            if ability.kind != "triggered":
                _no_trigger_targets(ability.effects, f"abilities[{index}]")
        _no_trigger_targets(getattr(self, "effects", ()), "effects")
        return self

    @property
    def set_code(self) -> str:
        return self.id.split(":", 1)[0]


class CreatureCard(_CardBase):
    kind: Literal["creature"] = "creature"
    damage: int = Field(ge=0, le=MAX_STAT)
    hp: int = Field(gt=0, le=MAX_STAT)
    #: Monster components its opponent may extract when it dies.
    components: int = Field(0, ge=0, le=MAX_STAT)


class BuildingCard(_CardBase):
    kind: Literal["building"] = "building"
    sp: int = Field(gt=0, le=MAX_STAT)


class SpellCard(_CardBase):
    model_config = _WITH_EFFECTS
    kind: Literal["spell"] = "spell"
    #: Azonnali: may be played at reaction speed.
    instant: bool = False
    effects: Effects

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any) -> Any:
        return _effect_shorthand(data)


Card = Annotated[CreatureCard | BuildingCard | SpellCard, Field(discriminator="kind")]


# -- files -------------------------------------------------------------------------------------

class CardFile(BaseModel):
    """One ``cards/*.toml`` file of a set: ``[[cards]]`` tables."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid", strict=True,
                              title="HKK card file")
    cards: Annotated[tuple[Card, ...], LIST_OK]


class Deck(BaseModel):
    model_config = _CONFIG

    name: Slug
    title: Text = ""
    #: Card id -> number of copies.
    cards: dict[CardId, Annotated[int, Field(gt=0, le=MAX_DECK_SIZE)]]

    @property
    def size(self) -> int:
        return sum(self.cards.values())

    @model_validator(mode="after")
    def _bounded_size(self) -> Self:
        if self.size > MAX_DECK_SIZE:
            raise _invalid(f"deck '{self.name}' has {self.size} cards; at most {MAX_DECK_SIZE}")
        return self


class DeckFile(BaseModel):
    """One ``decks/*.toml`` file of a set: ``[[decks]]`` tables."""

    model_config = _CONFIG
    decks: Annotated[tuple[Deck, ...], LIST_OK]
