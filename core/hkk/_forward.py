"""The game driven from outside (issue 21): it stops at a decision, hands it out, and goes on
when it is answered.

A seat without an agent (``agents=[None, ...]``) is answered from outside.  The runner keeps
its position on the Python stack while it runs a step, so a game cannot simply pause inside
one.  Instead, where the game stands is plain data: the **checkpoint**, a copy of the game at
the last boundary between two steps (:mod:`hkk._clone`), and the **answers** given since, by
either seat.  To stop, the decision unwinds the stack (:class:`AwaitDecision`); the game's
state is then the state at the decision, to be read.  To go on, the game is set back to the
checkpoint and the step is run again, every decision up to the stop answered from the
answers, the new one with the new answer, and on to the next decision of a seat without an
agent, or the end.  Hooks change the game only through it and draw only from its RNG, so the
step runs again exactly as it ran (the same contract replays and saves rely on).

Costs: in a game answered from outside, a copy at every step boundary and, per answer, a run
of the step so far; a game whose every seat has an agent never comes here
(``benchmarks/bench_clone.py`` prints both).

This module holds what the game itself needs (the seats, the position); driving, cloning and
determinizing, which need the runner, are :mod:`hkk._driving`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from hkk._errors import IllegalDecision, ReplayError
from hkk._view import GameView

if TYPE_CHECKING:
    from hkk._decisions import Decision, Option
    from hkk._view import Agent

#: The game a :class:`Forward` keeps a copy of: a :class:`hkk.Game`, named by the type
#: parameter (``Forward[Game]``), as the game imports this module (issue 20 item 2).
GameT = TypeVar("GameT")

__all__ = ["AwaitDecision", "Forward", "ReplayError", "Seat", "index_of", "unpark"]


class AwaitDecision(BaseException):
    """A seat without an agent must decide: unwinds the runner to the driver (a BaseException,
    so that the engine's error wrapping of hooks lets it through)."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.kind)
        self.decision = decision


class Forward(Generic[GameT]):
    """Where a game answered from outside stands: the checkpoint, the answers since, and the
    decision it waits for."""

    __slots__ = ("checkpoint", "resume", "clean", "answers", "labels", "pos", "decision",
                 "asking", "parked", "parked_at")

    def __init__(self) -> None:
        #: a copy of the game at the last clean position: a step boundary, or a place in a
        #: step where the runner keeps only plain values (``resume``)
        self.checkpoint: GameT | None = None
        #: where in its step the checkpoint stands: None at a boundary, else the runner's
        #: position (:func:`hkk._runner.resume_step`)
        self.resume: tuple[Any, ...] | None = None
        #: the game itself stands at ``resume`` and has not moved since (no answers yet): it
        #: is copied as it is, and ``checkpoint`` may be None (taken when it moves)
        self.clean = False
        #: every decision's answer since the checkpoint, by either seat: option index and label
        self.answers: list[int] = []
        self.labels: list[str] = []
        #: how many of them the step being run again has used
        self.pos = 0
        self.decision: Decision | None = None
        #: the decision a seated agent is answering right now (it may copy the game there)
        self.asking: Decision | None = None
        #: the caller's log listeners (a printer, a recorder), taken off while the step runs
        #: again up to where they had heard it (the ``parked_at``-th answer): each event
        #: reaches them once
        self.parked: list[tuple[Any, Any]] | None = None
        self.parked_at = 0

    def copy(self) -> Forward[GameT]:
        new: Forward[GameT] = Forward()
        new.checkpoint = self.checkpoint  # never changed in place: copied when used
        new.resume, new.clean = self.resume, self.clean
        new.answers, new.labels = self.answers[:], self.labels[:]
        new.decision = self.decision
        return new


class SeatedGame(GameView, Protocol):
    """What a :class:`Seat` reads of its game (a :class:`hkk.Game`): the view it shows a seated
    agent, where the game stands and the seats' agents."""

    forward: Forward[Any] | None
    agents: list[Agent | None]


class Seat:
    """What answers a seat's decisions in a game driven from outside: the answers given
    before, while a step is run again; else the seat's agent (its answer recorded); else the
    game stops and waits (:class:`AwaitDecision`)."""

    __slots__ = ("game", "index")

    def __init__(self, game: SeatedGame, index: int) -> None:
        self.game = game
        self.index = index

    def choose(self, view: Any, decision: Decision) -> Option:  # a fair view, or the game
        game = self.game
        forward = game.forward
        assert forward is not None
        if forward.parked is not None and forward.pos == forward.parked_at:
            unpark(game, forward)
        if forward.pos < len(forward.answers):
            return _replayed(forward, decision)
        agent: Agent | None = game.agents[self.index]
        if agent is None:
            raise AwaitDecision(decision)
        forward.asking = decision
        if getattr(agent, "sees_everything", False):
            view = game
        try:
            chosen = agent.choose(view, decision)
        finally:
            forward.asking = None
        index = index_of(decision, chosen)
        forward.answers.append(index)
        forward.labels.append(decision.options[index].label)
        forward.pos += 1
        return decision.options[index]


def unpark(game: Any, forward: Forward[Any]) -> None:
    """Give the caller's listeners back to the log: the step ran again up to where they had
    heard it."""
    parked, forward.parked = forward.parked, None
    for listener, kinds in parked or ():
        game.log.subscribe(listener, kinds)


def _replayed(forward: Forward[Any], decision: Decision) -> Option:
    index, label = forward.answers[forward.pos], forward.labels[forward.pos]
    forward.pos += 1
    options = decision.options
    if index < len(options) and options[index].label == label:
        return options[index]
    for option in options:  # a copy whose hidden cards were resampled (determinize)
        if option.label == label:
            return option
    raise ReplayError(f"running the step again, player {decision.player}'s {decision.kind} "
                      f"decision does not offer {label!r} (it offers {decision.labels()}): "
                      "a hook depends on something outside the game")


def index_of(decision: Decision, chosen: Any) -> int:
    """The index of ``chosen`` - an offered Option, an equal one, its index or its label - in
    the decision's options; :class:`IllegalDecision` if it is none of them."""
    options = decision.options
    if isinstance(chosen, bool):
        pass
    elif isinstance(chosen, int):
        if 0 <= chosen < len(options):
            return chosen
    elif isinstance(chosen, str):
        for i, option in enumerate(options):
            if option.label == chosen:
                return i
    else:
        for i, option in enumerate(options):
            if option is chosen:
                return i
        if chosen in options:
            return options.index(chosen)
    raise IllegalDecision(f"player {decision.player} chose {chosen!r}; {decision.kind} "
                          f"options were {decision.labels()}")
