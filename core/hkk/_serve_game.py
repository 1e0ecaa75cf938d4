"""The game a person plays in ``hkk serve``, answered from outside one decision at a time.

This is the small adapter over the forward model (issue 21: ``game.decision``,
``game.answer(option)``, ``game.clone()``, ``game.view(player)``, ``game.save()``) that the web
app (:mod:`hkk._serve`) uses, so that nothing else in the app knows how a game waits for a person.

Until the forward model is on main it is made by replaying: the person's seat is a relay agent
that answers from the answers given so far and stops the game (a ``BaseException``, which no
set's ``except Exception`` swallows) at the first decision it has no answer for.  Every answer
plays the game again from its seed; the game and the opponent's agents are deterministic, so the
same answers give the same game, and a clone is the list of answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from hkk._decisions import Decision, Option
from hkk._errors import HkkError, IllegalDecision

if TYPE_CHECKING:
    from hkk._engine import Engine
    from hkk._game import Game
    from hkk._view import Agent, GameView

#: The save format of a browser game (the forward model's ``game.save()`` replaces it).
SAVE_FORMAT = "hkk-serve-game/1"


class _Waiting(BaseException):
    """The game reached a decision of the person's seat that has no answer yet."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.kind)
        self.decision = decision


class _Relay:
    """The person's seat: answers with the given option indices in order, then stops the game."""

    def __init__(self, answers: Sequence[int]) -> None:
        self.answers = answers
        self.used = 0

    def choose(self, game: GameView, decision: Decision) -> Option:
        if self.used == len(self.answers):
            raise _Waiting(decision)
        index = self.answers[self.used]
        self.used += 1
        if not 0 <= index < len(decision.options):  # a save that does not fit these cards
            raise IllegalDecision(f"answer {index} of a {decision.kind} decision with "
                                  f"{len(decision.options)} options")
        return decision.options[index]


class PlayedGame:
    """A game between the person (seat ``person``) and an agent, waiting at the person's
    decision (``decision``) or over (``decision is None``)."""

    def __init__(self, engine: Engine, decks: Sequence[Sequence[str]], seed: int,
                 opponent: Callable[[], Agent], *, person: int = 0,
                 answers: Sequence[int] = (), names: Sequence[str] = ("P1", "P2")) -> None:
        self.engine = engine
        self.decks = [list(d) for d in decks]
        self.seed = seed
        self.opponent = opponent  # makes a fresh agent: each replay starts it anew
        self.person = person
        self.names = tuple(names)
        self.answers = list(answers)
        self.game: Game
        self.decision: Decision | None = None
        self._run()

    def _run(self) -> None:
        agents: list[Agent] = [self.opponent(), self.opponent()]
        agents[self.person] = _Relay(self.answers)
        game = self.engine.new_game(self.decks, agents, seed=self.seed, names=self.names)
        try:
            game.play()
            self.decision = None
        except _Waiting as waiting:
            self.decision = waiting.decision
        self.game = game

    @property
    def over(self) -> bool:
        return self.decision is None

    def answer(self, index: int) -> None:
        """Answer the waiting decision with its option ``index``; plays on to the person's next
        decision or the end.  IllegalDecision if no such option is offered."""
        if self.decision is None:
            raise IllegalDecision("the game is over: there is nothing to answer")
        if not 0 <= index < len(self.decision.options):
            raise IllegalDecision(f"no option {index}: the {self.decision.kind} decision offers "
                                  f"{self.decision.labels()}")
        self.answers.append(index)
        self._run()

    def clone(self) -> PlayedGame:
        """The game at this decision, independent of this one (it shares the finished replay,
        which nothing changes any more)."""
        twin = object.__new__(PlayedGame)
        twin.__dict__.update(self.__dict__)
        twin.answers = list(self.answers)
        return twin

    def save(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "seed": self.seed, "decks": self.decks,
                "person": self.person, "answers": list(self.answers)}

    @classmethod
    def load(cls, engine: Engine, data: Any, opponent: Callable[[], Agent], *,
             names: Sequence[str] = ("P1", "P2")) -> PlayedGame:
        """The saved game, waiting at the decision it was saved at.  HkkError for a file that
        is not such a save or does not fit the installed cards."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise HkkError(f"not a saved browser game (format {SAVE_FORMAT!r})")
        try:
            decks = [[str(c) for c in deck] for deck in data["decks"]]
            answers = [int(a) for a in data["answers"]]
            seed, person = int(data["seed"]), int(data["person"])
        except (KeyError, TypeError, ValueError) as exc:
            raise HkkError(f"a saved browser game with a bad field: {exc}") from None
        unknown = sorted({c for deck in decks for c in deck if c not in engine.cards})
        if unknown:
            raise HkkError(f"the save names cards that are not installed: {unknown}")
        if person not in (0, 1):
            raise HkkError(f"a saved browser game with a bad field: person {person}")
        return cls(engine, decks, seed, opponent, person=person, answers=answers, names=names)

    def view(self) -> SeatView:
        """What the person may know (the forward model's ``game.view(player)`` replaces it)."""
        return SeatView(self.game, self.person)


class SeatView:
    """The part of ``hkk.PlayerView``'s interface the page reads: both boards and graveyards,
    his own hand, the counts of the other hand and of both decks, the log."""

    def __init__(self, game: Game, player: int) -> None:
        self._game = game
        self.player = player
        self.turn = game.turn
        self.active = game.active
        self.cards = game.cards
        self.permanents = game.permanents
        self.hp, self.max_hp, self.damage_value = game.hp, game.max_hp, game.damage_value
        self.players = [SeatPlayer(p, shown=p.index == player) for p in game.players]
        self.log = game.log
        self.over, self.winner = game.over, game.winner


class SeatPlayer:
    __slots__ = ("index", "name", "hp", "vp", "components", "hand", "hand_size", "deck_size",
                 "graveyard")

    def __init__(self, p: Any, *, shown: bool) -> None:
        self.index, self.name = p.index, p.name
        self.hp, self.vp, self.components = p.hp, p.vp, p.components
        self.hand: tuple[str, ...] | None = tuple(p.hand) if shown else None
        self.hand_size = len(p.hand)
        self.deck_size = len(p.deck)
        self.graveyard = tuple(p.graveyard)
