"""A player's fair view of the game (issue 21): what that player may know, and nothing more.

Agents decide from it (``agent.choose(view, decision)``): both boards, both graveyards and
voids, every player's Ép, VP and monster components, his own hand, the number of cards in the
opponent's hand and in both decks, the lasting effects, and the log with what only the opponent
saw hidden (the cards he drew, how many options he had) and the game's seed hidden until the
game is over (a fresh game of that seed, answered as the log shows, is the same game: its
hands and deck orders).  It shows his own decision, and only who decides while the other
player does.  It has no RNG: the game's, or its state, would tell the shuffles; an agent keeps
its own.  The only road from a view to a game an agent may play forward is
:meth:`PlayerView.determinize`: a copy in which everything hidden from the player is replaced
by a random assignment consistent with what he knows.

An agent marked ``sees_everything = True`` gets the game itself instead (the "omniscient"
mode: for tests and for measuring what cheating would gain, never for a balance verdict).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from hkk._protocol import ForwardModel
from hkk.events import CardDrawn, Decided, Event, GameStarted

if TYPE_CHECKING:
    from hkk._decisions import Decision
    from hkk._effects import Effect
    from hkk._events import EventLog
    from hkk._phases import Step
    from hkk._rulings import Rulings
    from hkk._state import ExtractionOffer, Permanent, Player

__all__ = ["HIDDEN", "LogView", "PlayerView", "SeatInfo", "hide_event"]

#: What stands in the log for a card the player may not know.
HIDDEN = "?"


class ViewedGame(ForwardModel, Protocol):
    """The game a view is of (a :class:`hkk.Game`): what the view reads, and what an agent that
    searches does with the copy :meth:`PlayerView.determinize` makes - play it forward from
    outside.  Named here, not ``Game``, which makes the views (issue 20 item 2: no import
    cycle); the ``Game`` satisfies it (mypy checks that where it makes a view)."""

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
    def rulings(self) -> Rulings: ...
    @property
    def permanents(self) -> Mapping[int, Permanent]: ...
    @property
    def effects(self) -> Sequence[Effect]: ...
    @property
    def offers(self) -> Sequence[ExtractionOffer]: ...
    @property
    def turn_passed(self) -> bool: ...
    @property
    def players(self) -> Sequence[Player]: ...
    @property
    def turn_steps(self) -> Sequence[Step]: ...
    @property
    def log(self) -> EventLog: ...
    @property
    def rng(self) -> random.Random: ...
    def creatures(self, player: int | None = None) -> list[Permanent]: ...
    def buildings(self, player: int | None = None) -> list[Permanent]: ...
    def hp(self, perm: Permanent) -> int: ...
    def max_hp(self, perm: Permanent) -> int: ...
    def damage_value(self, perm: Permanent) -> int: ...
    def snapshot(self) -> dict[str, Any]: ...

    # played forward from outside: the forward-model protocol's (hkk._protocol)


class SeatInfo:
    """What a player may know of one player: everything but the cards in a hand not his own
    (``hand`` is None then) and the order of the decks."""

    __slots__ = ("index", "name", "hp", "vp", "components", "hand", "hand_size", "deck_size",
                 "graveyard", "void", "turns_taken")

    def __init__(self, player: Player, own: bool) -> None:
        self.index = player.index
        self.name = player.name
        self.hp = player.hp
        self.vp = player.vp
        self.components = player.components
        self.hand: tuple[str, ...] | None = tuple(player.hand) if own else None
        self.hand_size = len(player.hand)
        self.deck_size = len(player.deck)
        self.graveyard = tuple(player.graveyard)
        self.void = tuple(player.void)
        self.turns_taken = player.turns_taken

    def __repr__(self) -> str:
        return f"<SeatInfo {self.index} {self.name} Ép={self.hp} VP={self.vp}>"


class PlayerView:
    """The game as player ``player`` may see it (read-only; made by ``game.view(player)``)."""

    __slots__ = ("_game", "player", "_log", "_log_of", "_log_len", "_log_over")

    def __init__(self, game: ViewedGame, player: int) -> None:
        self._game = game
        self.player = player
        self._log: list[Event] = []
        self._log_of: list[Event] | None = None  # the log's list the view was made of
        self._log_len = 0
        self._log_over = False  # made when the game was over: the seed shown

    def __getattr__(self, name: str) -> Any:  # only for names the view does not have
        if name == "rng":
            raise AttributeError(
                "a player's view has no rng: the game's RNG would tell the shuffles (the other "
                "hand, the order of the decks); an agent draws from an RNG of its own, seeded "
                "from the seed its factory is given (random.Random(seed))")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Not pickled: the pickle of a view would be the game's save, every hidden card in it
        (copy.copy and copy.deepcopy still work, below)."""
        raise TypeError("a player's view cannot be pickled: it would carry the hidden cards "
                        "and the game's RNG; save the game itself (game.save())")

    def __copy__(self) -> PlayerView:
        return PlayerView(self._game, self.player)

    def __deepcopy__(self, memo: dict[int, Any]) -> PlayerView:
        """A view of a copy of the game (an agent that keeps its view is copied with a game)."""
        return PlayerView(copy.deepcopy(self._game, memo), self.player)

    # -- what everybody sees ------------------------------------------------------------------

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def active(self) -> int:
        return self._game.active

    @property
    def step(self) -> Step | None:
        return self._game.step

    @property
    def over(self) -> bool:
        return self._game.over

    @property
    def winner(self) -> int | None:
        return self._game.winner

    @property
    def cards(self) -> Mapping[str, Any]:
        return self._game.cards

    @property
    def rulings(self) -> Any:
        return self._game.rulings

    @property
    def permanents(self) -> Mapping[int, Permanent]:
        return self._game.permanents

    @property
    def effects(self) -> Sequence[Effect]:
        return self._game.effects

    @property
    def offers(self) -> Sequence[ExtractionOffer]:
        return self._game.offers

    @property
    def turn_passed(self) -> bool:
        return self._game.turn_passed

    @property
    def decision(self) -> Decision | None:
        """The decision the game waits for, if it is this player's (None while the other player
        decides: his options would list the cards of his hand he can play)."""
        decision = self._game.decision
        return decision if decision is not None and decision.player == self.player else None

    @property
    def deciding(self) -> int | None:
        """The player the game waits for (None: nobody, or every seat has an agent)."""
        decision = self._game.decision
        return None if decision is None else decision.player

    def opponent(self, player: int) -> int:
        return 1 - player

    def creatures(self, player: int | None = None) -> list[Permanent]:
        return self._game.creatures(player)

    def buildings(self, player: int | None = None) -> list[Permanent]:
        return self._game.buildings(player)

    def hp(self, perm: Permanent) -> int:
        return self._game.hp(perm)

    def max_hp(self, perm: Permanent) -> int:
        return self._game.max_hp(perm)

    def damage_value(self, perm: Permanent) -> int:
        return self._game.damage_value(perm)

    # -- what only this player sees -------------------------------------------------------------

    @property
    def players(self) -> tuple[SeatInfo, SeatInfo]:
        players = self._game.players
        return (SeatInfo(players[0], self.player == 0), SeatInfo(players[1], self.player == 1))

    @property
    def hand(self) -> tuple[str, ...]:
        """His own hand."""
        return tuple(self._game.players[self.player].hand)

    @property
    def turn_steps(self) -> Sequence[Step]:
        return self._game.turn_steps

    @property
    def log(self) -> LogView:
        """The log as far as he may know it: the opponent's drawn cards, the number of the
        opponent's options and, until the game is over, its seed are hidden
        (:func:`hide_event`)."""
        log = self._game.log
        events = log._events
        over = self._game.over
        if self._log_of is not events or self._log_len > len(events) or self._log_over != over:
            self._log, self._log_of, self._log_len, self._log_over = [], events, 0, over
        if self._log_len < len(events):  # the log only grows: hide what is new
            player = self.player
            self._log += [hide_event(e, player, over=over) for e in events[self._log_len:]]
            self._log_len = len(events)
        return LogView(self._log, log.turn, log.step, log.level)

    def snapshot(self) -> dict[str, Any]:
        """``game.snapshot()`` with the other player's hand as a count of cards."""
        snap = self._game.snapshot()
        other = snap["players"][1 - self.player]
        other["hand"] = len(other["hand"])
        return snap

    def determinize(self, rng: random.Random, *, log_level: str | None = None) -> ForwardModel:
        """A copy of the game in which everything hidden from this player - the opponent's
        hand, the order of both decks - is a random assignment consistent with this view;
        both of its seats are answered from outside (:func:`hkk._driving.determinize`)."""
        return self._game.determinize(self.player, rng, log_level=log_level)

    def __repr__(self) -> str:
        return f"<PlayerView of player {self.player}, turn {self.turn}>"


class LogView(Sequence[Event]):
    """A player's view of the event log: a read-only sequence of events, with the turn and the
    step the game is in (as :class:`hkk.EventLog` has them)."""

    __slots__ = ("_events", "turn", "step", "level")

    def __init__(self, events: list[Event], turn: int, step: str, level: str) -> None:
        self._events = events
        self.turn = turn
        self.step = step
        self.level = level

    def __len__(self) -> int:
        return len(self._events)

    def __getitem__(self, index: Any) -> Any:
        return self._events[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def of_kind(self, *kinds: str | type[Event]) -> list[Event]:
        names = {k if isinstance(k, str) else k.kind for k in kinds}
        return [e for e in self._events if e.kind in names]

    def kinds(self) -> list[str]:
        return [e.kind for e in self._events]


def hide_event(event: Event, player: int, *, over: bool = False) -> Event:
    """The event as ``player`` may know it: a card the opponent drew is :data:`HIDDEN`, and so
    is how many options the opponent's decision offered (it tells how many cards he may play)
    and, unless the game is ``over``, the game's seed (a game of that seed deals the same
    hands and decks)."""
    kind = type(event)
    if kind is CardDrawn and event.player != player:
        return event._replace(card=HIDDEN)  # type: ignore[no-any-return]
    if kind is Decided and event.player != player:
        return event._replace(options=0)  # type: ignore[no-any-return]
    if kind is GameStarted and not over:
        return event._replace(seed=HIDDEN)  # type: ignore[no-any-return]
    return event
