"""Card definitions (pydantic models), the words of the card language (verbs, trigger events,
quantities) and the loader of a set's card and deck TOML files."""

from hkk._cards.loader import (
    CARD_FILE_SCHEMA_ID,
    card_file_schema,
    load_set_cards,
    load_set_decks,
    parse_card_data,
    parse_card_file,
)
from hkk._cards.model import (
    CARD_ID_PATTERN,
    PERMANENT_TARGETS,
    PLAYER_TARGETS,
    TRIGGER_TARGETS,
    Ability,
    ActivatedAbility,
    AutomaticAbility,
    BuildingCard,
    Card,
    CardFile,
    Condition,
    Cost,
    CreatureCard,
    Deck,
    DeckFile,
    Duration,
    Effect,
    Limits,
    Modify,
    Prevent,
    SpellCard,
    Stat,
    StaticAbility,
    Target,
    Timing,
    TriggeredAbility,
    When,
)
from hkk._cards.verbs.components import GainComponents, PayComponents
from hkk._cards.verbs.counters import AddCounters, RemoveCounters
from hkk._cards.verbs.custom import Custom
from hkk._cards.verbs.damage import Damage
from hkk._cards.verbs.defence_bonus import GiveDefenceBonus, RemoveDefenceBonus
from hkk._cards.verbs.destroy import Destroy, Sacrifice
from hkk._cards.verbs.draw import Draw
from hkk._cards.verbs.end_effects import EndEffects
from hkk._cards.verbs.heal import Heal
from hkk._cards.verbs.vp import GainVp, LoseVp

__all__ = [
    "CARD_FILE_SCHEMA_ID", "CARD_ID_PATTERN", "PERMANENT_TARGETS", "PLAYER_TARGETS",
    "TRIGGER_TARGETS",
    "Ability", "ActivatedAbility", "AddCounters", "AutomaticAbility", "BuildingCard", "Card",
    "CardFile", "Condition", "Cost", "CreatureCard", "Custom", "Damage", "Deck", "DeckFile",
    "Destroy", "Draw", "Duration", "Effect", "EndEffects", "GainComponents", "GainVp",
    "GiveDefenceBonus", "Heal", "Limits", "LoseVp", "Modify", "PayComponents", "Prevent",
    "RemoveCounters", "RemoveDefenceBonus", "Sacrifice", "SpellCard", "Stat", "StaticAbility",
    "Target", "Timing", "TriggeredAbility", "When",
    "card_file_schema", "load_set_cards", "load_set_decks", "parse_card_data", "parse_card_file",
]
