"""The game as the layers below it see it: Protocols instead of the whole ``Game``.

Leaves (decisions, conditions, prevention, quantities) and the hookspecs name
:class:`GameView` - what a hook or an agent may read; a card's verbs :class:`GameActions` - the
view and the change primitives; the modules ``Game`` is made of :class:`GameState` - the
actions and the state they keep.  So they need not import ``Game``, which imports them (issue
20 item 2: no import cycle, even counting type-only imports).  The engine passes the ``Game``,
which satisfies them structurally (mypy checks that where a ``Game`` is passed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from random import Random
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from hkk._decisions import Decision, Option
    from hkk._effects import Duration, Effect
    from hkk._events import EventLog
    from hkk._pending import Pending
    from hkk._phases import Step
    from hkk._protocol import FairView
    from hkk._rulings import Rulings
    from hkk._state import ExtractionOffer, Permanent, Player
    from hkk.events import Event


class GameView(Protocol):
    """What a hook may read of the game (read-only: properties, so a plain attribute fits)."""

    @property
    def turn(self) -> int:
        """The turn number (1 is the first)."""

    @property
    def active(self) -> int:
        """The active player's index."""

    @property
    def step(self) -> Step | None:
        """The step the turn is in (None between turns)."""

    @property
    def players(self) -> Sequence[Player]:
        """Both players, by index."""

    @property
    def permanents(self) -> Mapping[int, Permanent]:
        """The permanents in play by uid, in timestamp order."""

    @property
    def preventions(self) -> Sequence[tuple[Permanent, Any]]:
        """The prevention effects in force: (source, prevent)."""

    @property
    def log(self) -> EventLog:
        """The game's event log so far."""

    @property
    def effects(self) -> Sequence[Effect]:
        """The lasting effects in force or waiting (hkk._changes)."""

    @property
    def statics(self) -> Sequence[tuple[Permanent, Any]]:
        """The static abilities in force: (source, modify primitive)."""

    @property
    def cards(self) -> Mapping[str, Any]:
        """The engine's cards by id."""

    @property
    def custom_effects(self) -> Mapping[str, Callable[..., Any]]:
        """Named Python effects offered by plugins."""

    @property
    def triggers(self) -> TriggerView:
        """What is triggered and waiting (hkk._triggers)."""

    def creatures(self, player: int | None = None) -> list[Permanent]:
        """The creatures in play (of ``player``, if given)."""

    def buildings(self, player: int | None = None) -> list[Permanent]:
        """The buildings in play (of ``player``, if given)."""

    def hp(self, perm: Permanent) -> int:
        """A permanent's current Ép (Sp for a building)."""

    def damage_value(self, perm: Permanent) -> int:
        """A creature's current damage value."""

    @property
    def rng(self) -> Random:
        """The game's random number generator, for hooks (a player's view has none: an agent
        draws from an RNG of its own)."""


class TriggerView(Protocol):
    """What a card's trigger may read of the waiting triggered items."""

    def effect_targets(self) -> dict[int, list[int]]:
        """Lasting effect's id -> the uids it was made on."""

    @property
    def last_hit(self) -> dict[int, tuple[int | None, int]]:
        """A permanent's uid -> (the uid of the permanent whose damage it took last, or None,
        and the turn), for "the creature that killed it" (D-trigger-killer)."""

    @property
    def combat_source(self) -> Permanent | None:
        """The creature whose combat damage is being dealt now, else None (D-trigger-combat)."""


class GameActions(GameView, Protocol):
    """The game as a card's effect (a verb) sees it: the view and the change primitives, which
    log (hkk._changes).  The engine passes the ``Game``."""

    def emit(self, kind: type[Event], **data: Any) -> Any:
        """Log an event of ``kind`` (hkk.events)."""

    def decide(self, player: int, kind: str, options: Sequence[Option], prompt: str = "",
               rule: str | None = None) -> Option:
        """Ask ``player``'s agent (hkk._decisions)."""

    def destroy(self, perm: Permanent, cause: str, *, rule: str | None = None,
                components: bool = True, to: str = "graveyard") -> None: ...

    def damage(self, target: Permanent | Player, amount: int, source: str | None = None,
               source_uid: int | None = None) -> None: ...

    def heal(self, target: Permanent | Player, amount: int, source: str | None = None) -> None: ...

    def gain_vp(self, player: int, amount: int, source: str | None = None) -> None: ...

    def lose_vp(self, player: int, amount: int, source: str | None = None) -> None: ...

    def gain_components(self, player: int, count: int, source: str | None = None) -> None: ...

    def pay_components(self, player: int, count: int, source: str | None = None) -> None: ...

    def draw(self, player: int, count: int = 1, source: str | None = None) -> None: ...

    def add_counters(self, perm: Permanent, counter: str, count: int,
                     source: str | None = None) -> None: ...

    def remove_counters(self, perm: Permanent, counter: str, count: int,
                        source: str | None = None) -> None: ...

    def give_defence_bonus(self, perm: Permanent, amount: int,
                           source: str | None = None) -> None: ...

    def remove_defence_bonus(self, perm: Permanent, rule: str | None = None,
                             source: str | None = None) -> None: ...

    def add_effect(self, stat: str, amount: int, duration: Duration | str, *,
                   targets: Iterable[Permanent] = (), player: int | None = None,
                   controller: int | None = None, source: str | None = None,
                   turns: int | None = None) -> Effect: ...

    def dispel(self, rule: str, *, durations: Iterable[Duration] = (),
               on: Permanent | Player | Iterable[Permanent | Player] | None = None
               ) -> list[Effect]: ...


class Agent(Protocol):
    """A player: ``choose(view, decision)`` returns one of ``decision.options``; it reads the
    game through the player's fair view (:class:`hkk.FairView`; an agent marked
    ``sees_everything = True`` is handed the game itself).  The view it is handed does not keep
    the game alive (a copy a search drops is freed at once): read after the game is gone, it
    raises ``ReferenceError``; ``game.view(player)`` is a view that keeps its game."""

    def choose(self, game: FairView, decision: Decision) -> Option: ...


class GameState(GameActions, Protocol):
    """The game as the modules it is made of see it: the view, the change primitives and the
    state they keep.  :mod:`hkk._changes`, :mod:`hkk._continuous` and :mod:`hkk._checks` sit
    below :class:`hkk.Game` (which offers their functions as its methods) and name this, not
    ``Game`` (issue 20 item 2); the ``Game`` satisfies it (mypy checks that where
    ``game.damage(...)`` and the rest are called).  The attributes are ``Game``'s: read and
    written in place."""

    permanents: dict[int, Permanent]
    effects: list[Effect]
    statics: list[tuple[Permanent, Any]]
    preventions: list[tuple[Permanent, Any]]
    conditional_statics: list[list[Any]]
    condition_events: set[type[Event]]
    abilities_at: dict[str, list[Any]]
    abilities_version: int
    hp_changed: set[Permanent]
    offers: list[ExtractionOffer]
    next_uid: int
    step_index: int | None
    turn_steps: tuple[Step, ...]
    in_moment: bool
    bonus_losses: list[tuple[Permanent, str | None, str | None]]
    leaving_play: list[tuple[Permanent, str, str | None, bool, str]]
    over: bool
    winner: int | None
    rulings: Rulings
    hook_impls: dict[str, list[Any]]
    #: the turn machine's position (:class:`hkk._forward.Position`)
    machine: Any

    def opponent(self, player: int) -> int: ...

    def ability_item(self, perm: Permanent, index: int, ability: Any) -> Pending:
        """A card ability's pending item (the engine's card interpreter)."""

    def resolve_spell(self, player: int, card_id: str) -> None: ...
