"""The published forward-model protocol: what a game is to whoever plays it from outside.

``hkk.ForwardModel`` is the game as agents, ``hkk play``, ``hkk serve``, ``hkk simulate``,
``hkk verify --games`` and the benchmarks use it, whichever core runs it (OpenSpiel's ``State``
is the model): the decision it waits for, the answer, a copy, a player's fair view, a copy with
the hidden cards dealt again, the save, the winner, the log.  ``hkk.FairView`` is what one
player may know (agents type their view with it).  ``hkk.Core`` is what runs games: the Python
engine is the built-in core ``python``; another registers in the ``hkk.cores`` entry-point group
(docs/CORES.md).  A :class:`hkk.Game` satisfies ``ForwardModel`` and a :class:`hkk.PlayerView`
``FairView`` (mypy checks both where the Python core hands them out, :mod:`hkk._cores`).

An option is a label plus plain data (:attr:`hkk.Option.data`, read from the label), never an
engine object: every core offers the same labels, so the same data.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableSequence, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from hkk._decisions import Decision, Option
    from hkk._effects import Effect
    from hkk._phases import Step
    from hkk._state import ExtractionOffer, Permanent
    from hkk.events import Event

__all__ = ["Core", "FairView", "ForwardModel", "GameLog", "SeatView"]


class GameLog(Protocol):
    """A game's event log as a reader sees it: the events in order (``hkk.events``), the turn
    and the step the game is in, how much of it is kept (``level``), and listeners called for
    each new event (``subscribe``: a printer, a recorder)."""

    @property
    def turn(self) -> int: ...
    @property
    def step(self) -> str: ...
    @property
    def level(self) -> str: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Event]: ...
    def __getitem__(self, index: int) -> Event: ...
    def of_kind(self, *kinds: str | type[Event]) -> list[Event]: ...
    def kinds(self) -> list[str]: ...
    def as_dicts(self) -> list[dict[str, Any]]: ...
    def to_json(self, **kwargs: Any) -> str: ...
    def subscribe(self, listener: Callable[[Event], Any],
                  kinds: Iterable[str | type[Event]] | None = None) -> None: ...


class SeatView(Protocol):
    """What a player may know of one player (``view.players[i]``, an :class:`hkk.SeatInfo`):
    everything but a hand not his own (``hand`` None then) and the order of the decks."""

    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def hp(self) -> int: ...
    @property
    def vp(self) -> int: ...
    @property
    def components(self) -> int: ...
    @property
    def hand(self) -> tuple[str, ...] | None: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def deck_size(self) -> int: ...
    @property
    def graveyard(self) -> tuple[str, ...]: ...
    @property
    def void(self) -> tuple[str, ...]: ...


class FairView(Protocol):
    """What player ``player`` may know of a game (``game.view(player)``; an agent's first
    argument): both boards, graveyards and voids, every Ép, VP and monster component, his own
    hand, the sizes of the other hand and of both decks, the effects, and the log with the
    other player's draws hidden.  Read-only."""

    @property
    def player(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def active(self) -> int: ...
    @property
    def step(self) -> Step | None: ...
    @property
    def over(self) -> bool: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def cards(self) -> Mapping[str, Any]: ...
    @property
    def permanents(self) -> Mapping[int, Permanent]: ...
    @property
    def effects(self) -> Sequence[Effect]: ...
    @property
    def offers(self) -> Sequence[ExtractionOffer]: ...
    @property
    def turn_passed(self) -> bool: ...
    @property
    def players(self) -> Sequence[SeatView]: ...
    @property
    def hand(self) -> tuple[str, ...]: ...
    @property
    def log(self) -> Sequence[Event]: ...
    #: the game's RNG, for an agent that keeps none of its own (``RandomAgent()``): draw from
    #: it, never read its state
    rng: random.Random
    def creatures(self, player: int | None = None) -> list[Permanent]: ...
    def buildings(self, player: int | None = None) -> list[Permanent]: ...
    def hp(self, perm: Permanent) -> int: ...
    def max_hp(self, perm: Permanent) -> int: ...
    def damage_value(self, perm: Permanent) -> int: ...
    def snapshot(self) -> dict[str, Any]: ...
    def determinize(self, rng: random.Random, *,
                    log_level: str | None = None) -> ForwardModel:
        """A game consistent with this view (the hidden cards dealt again), both seats answered
        from outside: what an information-set search plays forward."""


class ForwardModel(Protocol):
    """A game played from outside, one decision at a time::

        while (decision := game.decision) is not None:
            game.answer(choose(game.view(decision.player), decision))

    ``decision`` runs the game up to the next decision of a seat without an agent (None once
    the game is over, or if every seat has an agent); ``answer`` takes one of its options, its
    index or its label; ``clone`` and ``determinize`` are independent copies; ``save`` is plain
    JSON-ready data (:func:`hkk.load_game` reads it back); ``play`` runs a game whose seats all
    have agents to its end and returns the winner."""

    @property
    def decision(self) -> Decision | None: ...
    def answer(self, option: Option | int | str) -> None: ...
    def clone(self, *, log_level: str | None = None) -> ForwardModel: ...
    def view(self, player: int) -> FairView: ...
    def determinize(self, player: int, rng: random.Random, *,
                    log_level: str | None = None) -> ForwardModel: ...
    def save(self) -> dict[str, Any]: ...
    def snapshot(self) -> dict[str, Any]:
        """The whole position as plain data, both hands included (pages, tests): not for a
        player's eyes - his is ``view(player).snapshot()``."""
    def play(self, max_turns: int | None = None) -> int | None: ...
    @property
    def over(self) -> bool: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def turn(self) -> int: ...
    @property
    def active(self) -> int:
        """The player whose turn it is."""
    @property
    def seed(self) -> int: ...
    @property
    def log(self) -> GameLog: ...
    @property
    def agents(self) -> MutableSequence[Any]:
        """The seats' agents (None: a seat answered from outside): a search seats its rollout
        policy in its own copy by assigning ``copy.agents[seat] = policy``."""


class Core(Protocol):
    """What runs games (docs/CORES.md): the Python engine is the built-in core ``python``; a
    compiled one registers in the ``hkk.cores`` entry-point group.  ``engine`` is the
    :class:`hkk.Engine` with the loaded, validated cards, decks, rulings and plugins; ``decks``
    are two lists of card ids.  Optional attributes and methods (docs/CORES.md): ``auto``
    (True, or ``"whole-games"``: tried by ``--core auto`` only for ``hkk simulate``'s games),
    ``forward_model``, ``refuses_outcomes`` and ``play_outcomes``."""

    #: its entry point's name (``hkk play --core NAME``)
    name: str

    def refuses(self, engine: Any, decks: Sequence[Sequence[str]]) -> str | None:
        """Why this core cannot run a game of these decks in this engine, naming the set, hook,
        card or word (None: it can)."""

    def new_game(self, engine: Any, decks: Sequence[Sequence[str]], *, seed: int,
                 agents: Sequence[Any], log_level: str = "full",
                 rulings: Any = None, clock: Any = None,
                 names: Sequence[str] = ("P1", "P2")) -> ForwardModel:
        """A new game (not started: reading ``decision`` or ``play`` sets it up).  An agent
        that is None is a seat answered from outside."""
