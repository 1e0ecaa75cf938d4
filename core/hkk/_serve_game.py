"""The game a person plays in ``hkk serve``, answered from outside one decision at a time.

A thin layer over the forward model (issue 21): the person's seat has no agent, so the game
waits at his decisions (``game.decision``) and goes on when he answers (``game.answer``); the
other seat is the computer's agent.  Take back keeps ``game.clone()``; saves are the engine's
(``game.save()``, :func:`hkk.load_game`), so a browser game replays with ``hkk replay`` too.
The web app (:mod:`hkk._serve`) uses only this class, so nothing else in it knows how a game
waits for a person.  The computer's agent plays behind :class:`Opponent`, which turns whatever it
does wrong into an error naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from hkk._errors import HkkError, IllegalDecision
from hkk._saving import SaveError, load_game

if TYPE_CHECKING:
    from hkk._decisions import Decision
    from hkk._engine import Engine
    from hkk._protocol import FairView, ForwardModel
    from hkk._view import Agent

#: Makes the computer's agent for a game: ``maker(agent_seed, seat)`` (an agent with a seed of
#: its own takes ``agent_seed``, drawn from the operating system: the page cannot foresee it).
OpponentMaker = Callable[[int, int], "Agent"]


class Opponent:
    """The computer's agent, watched: an exception it raises, or an answer that is not one of
    the options offered, is an :class:`HkkError` (:class:`IllegalDecision`) naming the agent
    and the decision, so that the game it was asked in can be given up and the one before it
    kept."""

    def __init__(self, agent: Agent, name: str) -> None:
        self.agent = agent
        self.name = name
        # what the engine asks of an agent besides choose()
        self.uses_forward_model = getattr(agent, "uses_forward_model", False)
        self.sees_everything = getattr(agent, "sees_everything", False)

    def choose(self, view: Any, decision: Decision) -> Any:
        try:
            chosen = self.agent.choose(view, decision)
        except Exception as exc:  # noqa: BLE001 - anything it raises is the agent's failure
            raise HkkError(f"the computer's agent {self.name} raised {type(exc).__name__}: "
                           f"{exc} (at its {decision.kind} decision)") from exc
        if not any(chosen is o for o in decision.options) and chosen not in decision.options:
            raise IllegalDecision(f"the computer's agent {self.name} answered its "
                                  f"{decision.kind} decision with {chosen!r}, which it does not "
                                  f"offer ({decision.labels()})")
        return chosen


class PlayedGame:
    """A game between the person (seat ``person``) and an agent, waiting at the person's
    decision (``decision``) or over (``decision is None``)."""

    def __init__(self, game: ForwardModel, person: int) -> None:
        self.game = game
        self.person = person

    @classmethod
    def new(cls, engine: Engine, decks: Sequence[Sequence[str]], seed: int,
            opponent: Agent, *, person: int = 0,
            names: Sequence[str] = ("P1", "P2")) -> PlayedGame:
        agents: list[Agent | None] = [None, None]
        agents[1 - person] = opponent
        # the person's seat is None: answered from outside (issue 21)
        return cls(engine.start(decks, agents, seed=seed, names=names), person)

    @property
    def decision(self) -> Decision | None:
        return self.game.decision

    @property
    def answered(self) -> int:
        """How many of the person's decisions were answered, as the log says (the page names
        the decision it answers by it, so that a second click on an old page is refused)."""
        person = self.person
        return sum(1 for e in self.game.log if e.kind == "decision" and e.player == person)

    @property
    def seed(self) -> int:
        return self.game.seed

    def view(self) -> FairView:
        """What the person may know: his hand, the other hand as a count, the log with the
        other's draws hidden."""
        return self.game.view(self.person)

    def answer(self, index: int) -> None:
        """Answer the waiting decision with its option ``index``; plays on to the person's next
        decision or the end.  IllegalDecision if no such option is offered."""
        decision = self.game.decision
        if decision is None:
            raise IllegalDecision("the game is over: there is nothing to answer")
        if not 0 <= index < len(decision.options):
            raise IllegalDecision(f"no option {index}: the {decision.kind} decision offers "
                                  f"{decision.labels()}")
        self.game.answer(index)

    def clone(self) -> PlayedGame:
        """The game at this decision, independent of this one (the forward model's clone)."""
        return PlayedGame(self.game.clone(), self.person)

    def save(self) -> dict[str, Any]:
        """The engine's save, at the decision the game waits for."""
        return self.game.save()

    @classmethod
    def load(cls, engine: Engine, data: Any, opponent: Callable[[int], Agent]) -> PlayedGame:
        """The saved game, waiting at the decision it was saved at, the computer's seat given
        ``opponent``.  HkkError (SaveError) for a file that is not a save of a game a person
        played, or does not fit the installed sets.  ``opponent(seat)`` makes the computer's
        agent."""
        seats = data.get("agents") if isinstance(data, dict) else None
        outside = [i for i, seat in enumerate(seats or ())
                   if isinstance(seat, dict) and seat.get("kind") == "outside"]
        if len(outside) != 1:
            raise SaveError("not a save of a game a person played against the computer "
                           "(hkk serve's Save): one seat must be answered from outside")
        person = outside[0]
        agents: list[Agent | None] = [None, None]
        agents[1 - person] = opponent(1 - person)
        return cls(load_game(engine, data, cast("list[Agent]", agents)), person)
