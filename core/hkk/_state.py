"""Players and permanents: the plain, mutable objects of a running game.

Characteristics are never stored as current values: a permanent keeps its base values and the
damage it took; :class:`hkk.Game` derives the current ones from the effects in force.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class PermanentCard(Protocol):
    """What the state reads of a permanent's card (a ``CreatureCard`` or ``BuildingCard`` of
    hkk._cards.model, which sits above the state: naming them here would be an import cycle)."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def abilities(self) -> Sequence[Any]: ...


STARTING_HP = 20  # K 3.12
STARTING_VP = 0  # K 3.12

RESERVE = "reserve"
GUARD_POST = "guard_post"
BUILDINGS = "buildings"


class Player:
    """A player's Ép, VP, monster components and zones of cards (ids; the top of the deck is
    the end of its list)."""

    __slots__ = ("index", "name", "hp", "vp", "components", "deck", "hand", "graveyard", "void",
                 "turns_taken", "vp_received")

    def __init__(self, index: int, name: str, deck: list[str]) -> None:
        self.index = index
        self.name = name
        self.hp = STARTING_HP
        self.vp = STARTING_VP
        self.components = 0
        self.deck = list(deck)  # top of the deck is the end of the list
        self.hand: list[str] = []
        self.graveyard: list[str] = []
        self.void: list[str] = []
        self.turns_taken = 0  # this player's own turn number (29.3)
        self.vp_received = 0  # VP received in the current turn's stage 1 (29.3.1)

    def __repr__(self) -> str:
        return f"<Player {self.index} {self.name} Ép={self.hp} VP={self.vp}>"


class Permanent:
    """A creature or a building in play.

    ``uid`` is its timestamp: one counter per game, shared with lasting effects, starting at 1,
    so the first permanent put into a fresh game (e.g. by ``hkk_game``) is #1, the next #2…;
    later permanents have larger uids.  ``describe()`` is ``"<card id>#<uid>"``, the form
    labels and option labels use (``alap:tuzmano#1``).  ``card`` is the validated card
    definition; ``controller``, ``zone`` (``reserve``, ``guard_post``, ``buildings``),
    ``active`` and ``counters`` (name -> count) are current; characteristics are derived by the
    game (``game.hp(perm)``), never stored here.
    """

    __slots__ = ("uid", "card", "kind", "owner", "controller", "zone", "active", "damage_taken",
                 "defence_bonus", "counters", "base_damage", "base_hp", "damaged_turn",
                 "entered_turn", "mods", "hp_stat")

    def __init__(self, uid: int, card: PermanentCard, owner: int, zone: str,
                 turn: int) -> None:
        self.uid = uid  # also the timestamp: later permanents have larger uids
        self.card = card
        self.kind: str = card.kind
        self.owner = owner
        self.controller = owner
        self.zone = zone
        self.active = False  # creatures enter the reserve passive (K 8.1.2)
        self.damage_taken = 0
        self.defence_bonus = 0
        self.counters: dict[str, int] = {}
        self.base_damage: int = getattr(card, "damage", 0)
        # a building's Sp plays the part of a creature's Ép (41.3)
        self.hp_stat = "hp" if card.kind == "creature" else "sp"
        self.base_hp: int = getattr(card, self.hp_stat)
        #: The turn it was last damaged in (0: never); 41.3 restores what was damaged "during
        #: the turn".
        self.damaged_turn = 0
        self.entered_turn = turn
        #: Sum of the modifiers of the effects in force on it, by stat; kept up to date as
        #: effects start and end (a cache of the derivation, never a stored current value).
        self.mods: dict[str, int] = {}

    @property
    def card_id(self) -> str:
        return str(self.card.id)

    @property
    def is_creature(self) -> bool:
        return self.kind == "creature"

    def describe(self) -> str:
        return f"{self.card.id}#{self.uid}"

    def __repr__(self) -> str:
        return f"<{self.kind} {self.describe()} P{self.controller} {self.zone}>"


class ExtractionOffer:
    """A dead creature's monster components its opponent may extract until the end of
    ``phase`` (D-components-window; made and closed by ``hkk.rules.components``)."""

    __slots__ = ("card_id", "uid", "count", "player", "phase")

    def __init__(self, card_id: str, uid: int, count: int, player: int, phase: str) -> None:
        self.card_id = card_id
        self.uid = uid
        self.count = count
        self.player = player
        self.phase = phase


# -- what a game's state is (issue 30 item 2) -------------------------------------------------
#
# One declaration that every consumer reads: the copy (hkk._clone), the save and its load
# (hkk._saving), determinize (a copy whose hidden zones are dealt again) and the test of it
# (tests/test_state_declaration.py).  A field of a game is in exactly one of the four groups;
# a copy or a save of a game with a field in none of them is refused, naming it.

#: The plain state: a field's name -> its kind, which says how a copy copies it and a save
#: writes and reads it (the kinds are the keys of hkk._clone.COPY and hkk._saving.SAVE).
#: ``value``: an immutable value (a number, a string, None), copied as it is and saved as JSON.
GAME_STATE: dict[str, str] = {
    "seed": "file", "decks": "file", "log": "log", "agents": "agents",
    "players": "players", "permanents": "permanents", "effects": "effects",
    "offers": "offers", "usage_turn": "counts", "usage_game": "counts", "attempted": "keys",
    "next_uid": "value", "turn": "value", "active": "value", "step_index": "value",
    "step": "step", "turn_passed": "value", "started": "value", "over": "value",
    "winner": "value", "rng": "rng", "clock": "clock",
    #: each set's per-game data, by set code: plain JSON data naming permanents by uid
    "set_data": "set_data",
    #: the turn machine's position (hkk._forward.Position): its frames and the rules' item it
    #: stood in (``Position.kept_held``: a copy shares it, a save names it by its plugin)
    "machine": "position",
    #: the trigger watch: its queue, counters, chains, the item resolving, ``last_hit``
    "triggers": "watch",
}

#: Derived from the plain state: copied onto a copy's permanents, or rebuilt by a load, by one
#: function each (``hkk._clone.copy_derived``; ``hkk._saving`` rebuilds them from the cards).
DERIVED: tuple[str, ...] = (
    "statics", "conditional_statics", "preventions", "condition_events", "abilities_at",
    "abilities_version", "hp_changed", "emit", "views", "shown", "hook_plans")

#: The engine's, shared by every game of it.
ENGINE: tuple[str, ...] = (
    "engine", "cards", "rulings", "hook", "turn_steps", "ability_item", "pm", "hook_impls",
    "custom_effects")

#: Only inside a simultaneous moment (29.4.2): empty between two, where a game is copied.
MOMENT: tuple[str, ...] = ("in_moment", "bonus_losses", "leaving_play")


def undeclared(fields: Any, declaration: dict[str, str] | None = None) -> list[str]:
    """The names among ``fields`` (a game's ``__dict__``) that no group declares."""
    known = set(declaration if declaration is not None else GAME_STATE)
    known.update(DERIVED, ENGINE, MOMENT)
    return sorted(name for name in fields if name not in known)
