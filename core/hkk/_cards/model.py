"""Card definitions as pydantic v2 models: the boundary between a set's TOML files and the engine.

This module holds the cards and the card file; the parts have modules of their own - abilities
with their effects, costs, limits and ``when`` (:mod:`hkk._cards.abilities`), conditions on the
state (:mod:`hkk._cards.condition`), decks (:mod:`hkk._cards.decks`) - and every name is
importable from here too.

Every model is frozen and forbids unknown fields, so a typo in a card file is an error instead of
a silently ignored key.  Abilities are discriminated by ``kind``, effects by ``do``: the verbs,
trigger events and condition quantities are registered words, one class each
(:mod:`hkk._cards.registry`), which the models below take their unions and literals from.
Lists are stored as tuples so that a loaded card definition can be shared between games without
anyone changing it.

TOML shorthands accepted on input (the canonical form is what ``model_dump`` gives back):

* ``effect = {...}`` for a one-element ``effects = [{...}]`` (abilities and spells);
* ``limit = "once_per_turn" | "once_per_game" | "own_turn" | "opponent_turn"`` (or a list of
  these, since the usage limits of Kódex ch. 90 combine) for the table form
  ``limit = { per_turn = 1, per_game = ..., whose_turn = ... }``.
"""

from typing import TYPE_CHECKING, Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hkk._cards.abilities import (
    _WITH_EFFECTS,
    Ability,
    ActivatedAbility,
    AutomaticAbility,
    Cost,
    Effect,
    Limits,
    StaticAbility,
    TriggeredAbility,
    When,
    _effect_shorthand,
    _no_trigger_targets,
)
from hkk._cards.abilities import Effects as Effects
from hkk._cards.abilities import LimitShorthand as LimitShorthand
from hkk._cards.abilities import LimitSpec as LimitSpec
from hkk._cards.abilities import StaticEffect as StaticEffect
from hkk._cards.abilities import StaticEffects as StaticEffects
from hkk._cards.abilities import TriggerEvent as TriggerEvent
from hkk._cards.amounts import Count, Where
from hkk._cards.condition import _CONDITION_DOC as _CONDITION_DOC
from hkk._cards.condition import Condition
from hkk._cards.condition import ConditionField as ConditionField
from hkk._cards.condition import Quantity as Quantity
from hkk._cards.decks import FORMAT_NAME_PATTERN as FORMAT_NAME_PATTERN
from hkk._cards.decks import Deck, DeckFile
from hkk._cards.decks import FormatName as FormatName
from hkk._cards.quantities import PERMANENT_QUANTITIES, QUANTITIES
from hkk._cards.targets import CHOSEN_PERMANENTS, can_choose
from hkk._cards.trigger_events import WHEN_EVENTS
from hkk._cards.types import (
    CARD_ID_PATTERN,
    CONFIG,
    LIST_OK,
    MAX_STAT,
    PERMANENT_TARGETS,
    PLAYER_TARGETS,
    TRIGGER_TARGETS,
    CardId,
    Duration,
    Stat,
    Target,
    Text,
    Timing,
)
from hkk._cards.verbs import VERBS
from hkk._cards.verbs.modify import Modify
from hkk._cards.verbs.prevent import Prevent

if TYPE_CHECKING:
    from hkk._view import GameView

#: Also read from here: the basic types (hkk._cards.types), the verbs static abilities use, the
#: abilities (hkk._cards.abilities), conditions (hkk._cards.condition) and decks (hkk._cards.decks).
__all__ = [
    "CARD_ID_PATTERN", "PERMANENT_TARGETS", "PLAYER_TARGETS", "TRIGGER_TARGETS", "Ability",
    "ActivatedAbility", "AutomaticAbility", "BuildingCard", "Card", "CardFile", "Condition",
    "Cost", "CreatureCard", "Deck", "DeckFile", "Duration", "Effect", "Limits", "Modify",
    "Prevent", "SpellCard", "Stat", "StaticAbility", "Target", "Timing", "TriggeredAbility",
    "When",
]


# -- cards (discriminator ``kind``) ------------------------------------------------------------

#: What ``play_condition`` means, for authors and their editors (``hkk schema``).
_PLAY_CONDITION_DOC = (
    "'Csak akkor játszható ki, ha ...': the card may be played from hand only while this "
    "holds, seen from the player who would play it; checked whenever it is offered (the "
    "playable answer), like its cost.")
_TEXT_CHECKED_DOC = (
    "false: the printed text is deliberately free, so hkk verify's card-text check does not "
    "compare it with the text generated from the data (the check counts such cards).")


class _CardBase(BaseModel):
    model_config = CONFIG

    id: CardId
    name: Text = Field(min_length=1)
    #: The printed rules text (hkk verify's card-text check compares it with the data).
    text: Text = ""
    #: Flavour text: printed, never compared, no rules meaning.
    flavor: Text = ""
    text_checked: bool = Field(True, description=_TEXT_CHECKED_DOC)
    cost: Cost = Cost()
    play_condition: Condition | None = Field(None, description=_PLAY_CONDITION_DOC)
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

    @property
    def only_chooses(self) -> bool:
        """Every effect acts on a permanent its player chooses (D-no-target)."""
        return all(getattr(e, "target", None) in CHOSEN_PERMANENTS for e in self.effects)

    def can_choose(self, game: "GameView", player: int) -> bool:
        """[D] D-no-target: a spell whose every effect acts on a chosen permanent may be played
        only while one of them has a permanent to choose (its ``where`` holding for it)."""
        return not self.only_chooses or any(
            can_choose(game, player, e.target, getattr(e, "where", None)) for e in self.effects)


Card = Annotated[CreatureCard | BuildingCard | SpellCard, Field(discriminator="kind")]


# -- files -------------------------------------------------------------------------------------

class CardFile(BaseModel):
    """One ``cards/*.toml`` file of a set: ``[[cards]]`` tables."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid", strict=True,
                              title="HKK card file")
    cards: Annotated[tuple[Card, ...], LIST_OK]

# -- a word registered later (a test's own verb) -----------------------------------------------

#: The models whose schema holds a registry's words, inner ones first.
_FROM_REGISTRIES: tuple[type[BaseModel], ...] = (
    Count, Where, Condition, When, StaticAbility, AutomaticAbility, TriggeredAbility,
    ActivatedAbility,
    CreatureCard, BuildingCard, SpellCard, CardFile)


def _rebuild() -> None:
    """Build the models again with what is registered now (the verbs hold counts and
    filters, which hold quantities)."""
    for model in (*_FROM_REGISTRIES[:2], *VERBS.values(), *_FROM_REGISTRIES[2:]):
        model.model_rebuild(force=True)


for _registry in (VERBS, WHEN_EVENTS, QUANTITIES, PERMANENT_QUANTITIES):
    _registry.on_change(_rebuild)
