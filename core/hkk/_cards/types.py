"""The basic types of the card-data language, shared by the card models
(:mod:`hkk._cards.model`), the effect verbs (:mod:`hkk._cards.verbs`), trigger events and
quantities: targets, durations, stats, bounds, the strict model configuration and the error a
card rule raises."""

from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from pydantic import AfterValidator, ConfigDict, Strict, StringConstraints
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
PERMANENT_TARGETS: frozenset[str] = frozenset(get_args(Target)) - PLAYER_TARGETS
# Finer groups, used only to reject combinations that cannot mean anything ("self" may be either).
BUILDING_ONLY = frozenset({"own_buildings", "all_buildings", "chosen_building"})
CREATURE_ONLY = PERMANENT_TARGETS - BUILDING_ONLY - {"self", "trigger_permanent",
                                                        "trigger_source"}

#: ``turns``: counted in turns (with ``turns = N``, D-counted-turns); ``until_own_preparation``:
#: until the beginning of stage 2 of its controller's next preparation phase (29.4.4).
Duration = Literal["permanent", "until_end_of_turn", "this_turn", "until_preparation",
                   "until_own_preparation", "turns"]
Stat = Literal["damage", "hp", "sp", "vp_regen"]

#: A turn hook of :data:`hkk._phases.CARD_TIMINGS`, or ``on_enter``: when the card enters play.
# Built from the tuple, so that it cannot go stale; mypy cannot read a computed Literal, so to
# it a timing is a str (pydantic validates the Literal).
if TYPE_CHECKING:
    Timing = str
else:
    Timing = Literal[CARD_TIMINGS + ("on_enter",)]

# Strict types (issue 13): ``hp = "2"`` or ``optional = 1`` is refused, as the JSON Schema
# (``hkk schema``) refuses it, instead of being coerced.  Only the tuple containers are lenient
# (:data:`LIST_OK`): TOML gives lists, the frozen models keep tuples; their items stay strict.
#
# ``defer_build`` (start-up, issue 11): a model builds its validator when it is first used, not
# when its class is made.  Loading a set validates only ``CardFile`` and ``DeckFile``, whose
# validators hold every nested model, so the ~30 nested models never build one of their own
# unless a caller validates or makes them directly.  Validation and JSON Schema are unchanged.
CONFIG = ConfigDict(defer_build=True, frozen=True, extra="forbid", strict=True)
#: On a ``tuple[...]`` field of a strict model: accept the TOML list too (items stay strict).
LIST_OK = Strict(False)

#: Upper bound of every number on a card (stats, costs, amounts, limits): far above any printed
#: card, and it keeps a typo like Ép 10**100 from reaching a game.
MAX_STAT = 999
#: Upper bound of a deck's size (and so of one card's count): a count of 10**9 would otherwise
#: validate and then exhaust memory when the deck is built.
MAX_DECK_SIZE = 1000


def invalid(message: str, **context: Any) -> PydanticCustomError:
    """A validation error whose message reads as written (no "Value error, " prefix)."""
    return PydanticCustomError("hkk_card_rule", message, context or None)


def _no_control_characters(value: str) -> str:
    # Names and texts are printed on terminals: an escape sequence could drive the terminal.
    char = first_control_character(value)
    if char is not None:
        raise invalid(f"control character {codepoint(char)} is not allowed")
    return value


#: Text shown to players: no control characters but tab and newline (see :mod:`hkk._text`).
Text = Annotated[str, AfterValidator(_no_control_characters)]


def require_target(target: str, allowed: frozenset[str], what: str, primitive: str) -> None:
    if target not in allowed:
        raise invalid(
            f"{primitive} needs {what} target, one of {', '.join(sorted(allowed))}; "
            f"got '{target}'"
        )


#: A phase of the turn (:data:`hkk._phases.PHASE_NAMES`), or ``any``.
if TYPE_CHECKING:  # a str to mypy, as Timing
    Phase = str
else:
    Phase = Literal[PHASE_NAMES + ("any",)]
