"""The native core behind the engine's seam (``hkk.cores``): what it refuses, by name, and the
games it builds.  The agents' and decks' translation to plain data is here, in one place."""

from __future__ import annotations

import inspect
import itertools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from hkk._decisions import Decision, Option
from hkk._errors import HkkError, IllegalDecision, SaveError
from hkk._forward import index_of
from hkk._player_view import PlayerView
from hkk_native._native import Engine as _NativeEngine
from hkk_native._native import Game as _NativeGame
from hkk_native._native import Random as _NativeRandom
from hkk_native._plain import plain_cards

if TYPE_CHECKING:
    from hkk._player_view import ViewedGame
    from hkk._saving import SaveFile

__all__ = ["NativeCore", "NativeDivergence", "NativeGame", "NativeUnsupported", "Refused",
           "compare", "load_native", "play_many_native", "play_native"]

#: The largest seed the native log holds (the Python log holds any int).
_SEED_RANGE = (-(2**63), 2**63 - 1)


class Refused(ValueError):
    """The native core cannot run this game; the message names the set, hook, card or word."""


def _engine_refusal(engine: Any, decks: Sequence[Sequence[str]]) -> str | None:
    """Why the engine itself keeps this game off the native core: a set's hooks in Python
    (``engine.scope``, naming the set and hooks), or a turn or rulings other than the ones the
    native core knows."""
    from hkk import DEFAULT_TURN, Rulings

    reason: str | None = engine.scope(decks).reason
    if reason is not None:
        return reason
    if tuple(engine.turn) != tuple(DEFAULT_TURN):
        return "the engine's turn is not the default turn (hkk.DEFAULT_TURN)"
    if engine.rulings != Rulings():
        return "the engine's rulings are not the default rulings (hkk.Rulings())"
    return None


def _deck_lists(engine: Any, decks: Sequence[str | Sequence[str]]) -> list[list[str]]:
    return [engine.deck(d) if isinstance(d, str) else list(d) for d in decks]


#: A native seat: (agent kind, pass bias, its own RNG's state words or seed (None: none), a
#: search agent's options by name).
SeatSpec = tuple[str, float, list[int] | int | None, list[tuple[str, float]]]


def _search_options(agent: Any, own: Sequence[str]) -> list[tuple[str, float]]:
    """A search agent's options as the native agent takes them: its own, then its evaluation
    weights (``hkk._evaluation.Weights``), by name."""
    from dataclasses import asdict

    options = [(name, float(getattr(agent, name))) for name in own]
    return options + [(name, float(value)) for name, value in asdict(agent.weights).items()]


def _seat(agent: Any) -> SeatSpec:
    """An agent as a native seat.  The built-in random and first agents have a native twin
    drawing as they do (a random agent's own RNG's state is handed over: the agent-RNG wiring
    on the native side is ``agents::agent_rng``); the greedy and mcts agents have native
    searchers (``src/search.rs``) with the same options, seeded from the agent's RNG's state
    (deterministic for the agent's seed, not the Python agent's draws).  None: a seat answered
    from outside."""
    from hkk import FirstLegalAgent, RandomAgent
    from hkk._greedy import GreedyAgent
    from hkk._mcts import MctsAgent

    if agent is None:
        return ("outside", 0.0, None, [])
    if type(agent) is FirstLegalAgent:
        return ("first", 0.0, None, [])
    if type(agent) is RandomAgent:
        return ("random", float(agent.pass_bias), list(agent.rng_state()[1]), [])
    if type(agent) is GreedyAgent:
        return ("greedy", 0.0, list(agent.rng.getstate()[1]),
                _search_options(agent, ("samples", "ahead")))
    if type(agent) is MctsAgent:
        return ("mcts", 0.0, list(agent.rng.getstate()[1]),
                _search_options(agent, ("budget", "rollout_turns", "exploration")))
    raise Refused(f"agent {type(agent).__name__}: only RandomAgent, FirstLegalAgent, "
                  f"GreedyAgent and MctsAgent are seated natively")


def _default_seats(seed: int) -> tuple[SeatSpec, SeatSpec]:
    """The engine's default agents, ``RandomAgent(agent_seed(seed, seat))``, as native seats
    made from their seeds (no Python agent built)."""
    from hkk import RandomAgent
    from hkk._agent_registry import agent_seed

    bias = float(inspect.signature(RandomAgent).parameters["pass_bias"].default)
    return (("random", bias, agent_seed(seed, 0), []), ("random", bias, agent_seed(seed, 1), []))


def _seated(agents: Sequence[Any] | None, seed: int) -> list[Any]:
    """The game's agents as its ``agents`` lists them: the engine's default ones made when
    none are given (their native twins draw as they would)."""
    if agents is not None:
        return list(agents)
    from hkk import RandomAgent
    from hkk._agent_registry import agent_seed

    return [RandomAgent(agent_seed(seed, 0)), RandomAgent(agent_seed(seed, 1))]


def _native_engine(engine: Any) -> _NativeEngine:
    """The engine's cards as plain data, kept on the engine while its cards are the same ones
    (a card is never changed, but ``hkk simulate --ablate`` adds fillers to them)."""
    ids, cached = getattr(engine, "_hkk_native_engine", (None, None))
    if cached is None or ids != engine.cards.keys():
        ids, cached = frozenset(engine.cards), _NativeEngine(plain_cards(engine.cards))
        engine._hkk_native_engine = (ids, cached)
    return cached


class NativeUnsupported(NotImplementedError):
    """A part of :class:`hkk.ForwardModel` the native core does not provide yet; the message
    names the method."""


def _unsupported(method: str) -> NativeUnsupported:
    return NativeUnsupported(
        f"the native core has no {method} yet (docs/NATIVE.md, 'The forward model'): play "
        f"this game on the python core (--core python, Engine.new_game) for {method}")


class NativeDivergence(HkkError):
    """The native game and its Python twin (what a save, a view and a snapshot are read from)
    do not stand at the same place: a difference between the cores, named, never a silent
    one."""


def _python_agent(spec: SeatSpec) -> Any:
    """A native seat's Python twin agent, drawing as it does from the same start."""
    from hkk import FirstLegalAgent, RandomAgent

    kind, pass_bias, own, _ = spec
    if kind == "outside":
        return None
    if kind in ("greedy", "mcts"):
        raise NativeUnsupported(
            f"a native game with a native {kind} seat has no Python twin (the native search "
            "agents do not draw as the Python ones do): it has no save, view or snapshot")
    if kind == "first":
        return FirstLegalAgent()
    if isinstance(own, int):
        return RandomAgent(own, pass_bias=pass_bias)
    agent = RandomAgent(pass_bias=pass_bias)
    agent.set_rng_state((3, tuple(own or ()), None))
    return agent


class _Origin:
    """Where a native game's Python twin starts: a fresh game of the same decks, seed and
    seats, or the save the native game was loaded from (its seats as loaded)."""

    def __init__(self, engine: Any, seats: Sequence[SeatSpec], *,
                 decks: Sequence[Sequence[str]] = (), seed: int = 0,
                 save: SaveFile | None = None) -> None:
        self.engine, self.seats, self.decks, self.seed, self.save = \
            engine, tuple(seats), [list(d) for d in decks], seed, save

    def make(self, level: str) -> Any:
        from hkk._saving import load_game

        agents = [_python_agent(s) for s in self.seats]
        if self.save is None:
            return self.engine.new_game(self.decks, agents, seed=self.seed, log_level=level)
        game = load_game(self.engine, self.save, agents)
        return game if level == "full" else game.clone(log_level=level)


class _Window:
    """The game a native game's :class:`hkk.PlayerView` reads: its Python twin, brought up to
    date at every read, so the view is live as the Python engine's; a copy of the view is a
    view of a copy, and ``determinize`` is the native game's."""

    def __init__(self, native: NativeGame) -> None:
        self._native = native

    def __getattr__(self, name: str) -> Any:
        return getattr(self._native._synced(), name)

    @property
    def decision(self) -> Decision | None:
        return self._native.decision  # the native game's: reading it sets the game up

    def determinize(self, player: int, rng: Any, *, log_level: str | None = None) -> Any:
        return self._native.determinize(player, rng, log_level=log_level)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Window:
        return _Window(self._native.clone())


class _Seats(list[Any]):
    """A native game's seats: read, never reseated (the native agents are in the Rust game)."""

    def __setitem__(self, index: Any, value: Any) -> None:
        raise _unsupported("agents[i] = agent (reseating)")


class NativeGame:
    """A game on the native core, a :class:`hkk.ForwardModel` as far as the native core goes:
    played by its seated native agents (``play()``) or answered from outside one decision at a
    time (``decision``, ``answer``; a seat whose agent is None), copied at any decision
    (``clone``).  ``unported`` says where it stopped short of the end (None: it ended, ``over``);
    ``log`` is the kept events as ``as_dict()``s, built when read; ``emitted`` counts every
    event, kept or not; ``determinize`` resamples what a player cannot know.  ``save``,
    ``view`` and ``snapshot`` are read from its Python twin (docs/NATIVE.md, "Saves and
    views"); a determinized copy has no twin: they raise :class:`NativeUnsupported` there."""

    def __init__(self, game: _NativeGame, agents: Sequence[Any] = (None, None),
                 log_level: str = "full", origin: _Origin | None = None,
                 answers: Sequence[int] = (), twin: Any = None) -> None:
        self._game = game
        self._agents = _Seats(agents)
        self._level = log_level
        self._waiting: Decision | None = None
        #: where the Python twin (save, view, snapshot) starts, the answers given since
        #: (from outside: the seated agents' choices are the twin's agents' own), the twin and
        #: how many of them it has taken
        self._origin = origin
        self._answers = list(answers)
        self._twin = twin
        self._fed = 0
        #: why this game has no Python twin when it has no origin
        self._no_twin = "a native game made without its engine (not by hkk_native.core)"

    def play(self, max_turns: int | None = None) -> int | None:
        """Play to the end (or as far as the native core goes) with the seated agents; returns
        the winner.  Every seat needs an agent, as the Python engine's ``play``."""
        from hkk import HkkError

        if None in self._agents:
            seat = self._agents.index(None) + 1
            raise HkkError(f"player {seat}'s seat has no agent: answer game.decision with "
                           "game.answer(...), or seat an agent (game.agents[i] = agent)")
        if max_turns is not None:
            raise _unsupported("play(max_turns=...)")
        self._game.play()
        return self._game.winner

    @property
    def decision(self) -> Decision | None:
        """The decision a seat answered from outside waits for (reading it the first time
        runs the game up to it): kind, player, the options' labels and rule as the Python
        engine's (an option's ``data`` is read from its label, :func:`hkk.option_data`; the
        ``prompt`` is empty); None once the game is over or stopped short, or if every seat
        has an agent."""
        if self._waiting is None:
            found = self._game.decision()
            if found is not None:
                kind, player, labels, rule = found
                self._waiting = Decision(kind, player, tuple(map(Option, labels)), "", rule)
        return self._waiting

    def answer(self, option: Option | int | str) -> None:
        """Answer :attr:`decision` with one of its options, its index or its label, and run on
        to the next decision from outside or the end; anything else is an
        :class:`hkk.IllegalDecision` (the Python engine's message) and changes nothing."""
        waiting = self.decision
        if waiting is None:
            raise IllegalDecision("the game waits for no decision" + (
                " (it is over)" if self.over else
                " (it stopped short: " + str(self.unported) + ")" if self.unported else
                " (every seat has an agent: play it with game.play())"))
        index = index_of(waiting, option)
        self._waiting = None
        self._game.answer(index)
        self._answers.append(index)

    def clone(self, *, log_level: str | None = None) -> NativeGame:
        """An independent copy (one struct clone): given the same answers it goes on exactly as
        this game, and nothing done to it reaches this one.  ``log_level`` keeps the copy's log
        at that level from now on (its past: the events that level keeps)."""
        level = self._level if log_level is None else log_level
        return NativeGame(self._game.clone(log_level), self._agents, level, self._origin,
                          self._answers)

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know (:class:`hkk.PlayerView`, the Python engine's, so it hides
        what that hides): a live window on the game, read from its Python twin."""
        self._check_twin()
        return PlayerView(cast("ViewedGame", _Window(self)), player)

    def determinize(self, player: int, rng: random.Random, *, log_level: str | None = None
                    ) -> NativeGame:
        """A copy in which everything hidden from ``player`` - the opponent's hand, the order of
        both decks - is resampled from ``rng`` with exactly the Python engine's draws
        (:func:`hkk._driving.determinize`), both seats answered from outside, the past log his
        view of it.  ``rng`` must be a plain ``random.Random``: its state is handed to the
        native core, which draws, and put back advanced, so ``rng`` ends where the Python
        engine's determinize leaves it.  An ``hkk_native.Random`` is drawn from in place
        (the same draws, without handing 624 words over and back: a search's many worlds)."""
        if type(rng) is _NativeRandom:
            game = self._game.determinize_native(player, rng, log_level)
        elif type(rng) is not random.Random:
            raise TypeError(f"determinize needs a plain random.Random (or an hkk_native.Random)"
                            f" to draw from (its state is drawn natively), not "
                            f"{type(rng).__qualname__}")
        else:
            version, words, gauss = rng.getstate()
            game, after = self._game.determinize(player, list(words), log_level)
            rng.setstate((version, tuple(after), gauss))
        level = self._level if log_level is None else log_level
        copy = NativeGame(game, (None, None), level)
        copy._no_twin = "a determinized copy"
        return copy

    def save(self) -> dict[str, Any]:
        """The game as an ``hkk-save/4`` (:func:`hkk.save_game`'s, byte for byte: the Python
        engine's save of the same game at the same decision), which :func:`hkk.load_game`
        and :func:`load_native` both load.  Refused as the Python engine refuses: a game
        that does not keep the full log."""
        if self._level != "full":  # the Python engine's words (hkk._saving.save_game)
            raise SaveError(f"a game can be saved only with the full log; this one keeps the "
                            f"{self._level!r} log (Engine.new_game(..., log_level='full'))")
        saved: dict[str, Any] = self._synced().save()
        return saved

    def snapshot(self) -> dict[str, Any]:
        """The whole position as plain data, both hands included (``hkk.Game.snapshot``)."""
        snap: dict[str, Any] = self._synced().snapshot()
        return snap

    def _check_twin(self) -> None:
        """Refuse by name a game that has no Python twin (so no save, view or snapshot)."""
        if self.unported is not None:
            raise NativeUnsupported(f"the native core stopped this game short ({self.unported})"
                                    ": it has no save, view or snapshot past there")
        if self._origin is None:
            raise NativeUnsupported(f"{self._no_twin} has no Python twin, so the native core "
                                    "has no save, view or snapshot of it")

    def _synced(self) -> Any:
        """The Python twin - a Python game played from the same start with the same answers
        (:class:`_Origin`) - brought to where this game stands, checked to stand there."""
        self._check_twin()
        assert self._origin is not None  # checked
        twin = self._twin
        if twin is None:
            twin = self._twin = self._origin.make(self._level)
            self._fed = 0
        while self._fed < len(self._answers):
            twin.answer(self._answers[self._fed])
            self._fed += 1
        # a game not yet set up stays so (reading the decision sets it up), as the Python one
        started = self.emitted > 0 or self._answers
        decision = self.decision if started else None
        got = twin.decision if started else None
        mine = None if decision is None else (decision.kind, decision.player, decision.labels())
        theirs = None if got is None else (got.kind, got.player, got.labels())
        if (twin.log.emitted, twin.over, twin.winner, theirs) != (
                self.emitted, self.over, self.winner, mine):
            raise NativeDivergence(
                f"the Python twin of native game seed={self.seed} stands elsewhere: native "
                f"{self.emitted} events, over {self.over}, winner {self.winner}, waiting for "
                f"{mine}; python {twin.log.emitted}, {twin.over}, {twin.winner}, {theirs}")
        return twin

    @property
    def agents(self) -> list[Any]:
        """The seats' agents (None: answered from outside); a native game is not reseated."""
        return self._agents

    @property
    def unported(self) -> str | None:
        return self._game.unported

    @property
    def searched(self) -> list[int | None]:
        """Each seat's native search agent's decisions searched so far (the ones with one
        option, or the start, are not; None: the seat has no search agent)."""
        return list(self._game.searched)

    @property
    def active(self) -> int:
        return self._game.active

    @property
    def over(self) -> bool:
        return self._game.over

    @property
    def winner(self) -> int | None:
        return self._game.winner

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def seed(self) -> int:
        return self._game.seed

    @property
    def log_level(self) -> str:
        return self._level

    @property
    def emitted(self) -> int:
        return self._game.emitted

    @property
    def log(self) -> list[dict[str, Any]]:
        """The kept events as the Python events' ``as_dict()``."""
        return self._game.events()

    def zones(self) -> list[tuple[list[str], list[str]]]:
        """Each player's (hand, deck), the deck's top last."""
        return self._game.zones()


def _checked(engine: Any, decks: Sequence[str | Sequence[str]], seeds: Sequence[int]
             ) -> list[list[str]]:
    for seed in seeds:
        if not _SEED_RANGE[0] <= seed <= _SEED_RANGE[1]:
            raise Refused(f"seed {seed}: the native log holds seeds of 64 bits")
    lists = _deck_lists(engine, decks)
    if len(lists) != 2:
        raise Refused(f"{len(lists)} decks: a game has two")
    unknown = sorted({c for deck in lists for c in deck if c not in engine.cards})
    if unknown:
        raise Refused(f"unknown cards in deck: {unknown}")
    short = [i for i, deck in enumerate(lists) if len(deck) < 5]
    if short:
        raise Refused(f"deck {short[0]} has fewer than 5 cards: an empty deck is not native yet")
    return lists


def _seats(agents: Sequence[Any] | None, seed: int) -> tuple[SeatSpec, SeatSpec]:
    if agents is None:
        return _default_seats(seed)
    if len(agents) != 2:
        raise Refused(f"{len(agents)} agents: a game has two seats")
    return (_seat(agents[0]), _seat(agents[1]))


def play_native(engine: Any, decks: Sequence[str | Sequence[str]], *, seed: int = 0,
                agents: Sequence[Any] | None = None, log_level: str = "full") -> NativeGame:
    """Build a native game and play it as far as the native core goes (to its end, or to the
    first card with a word played): for tests that compare the native core with the Python
    engine on what both run."""
    lists = _checked(engine, decks, [seed])
    seats = _seats(agents, seed)
    game = NativeGame(_native_engine(engine).new_game((lists[0], lists[1]), seed, seats,
                                                      log_level),
                      _seated(agents, seed), log_level,
                      _Origin(engine, seats, decks=lists, seed=seed))
    game.play()
    return game


def play_many_native(engine: Any, decks: Sequence[str | Sequence[str]], *,
                     seeds: Sequence[int], agents: Sequence[Any] | None = None,
                     log_level: str = "outcome") -> list[tuple[int, int, int]]:
    """One call, many seeds, the GIL released: each game as far as the native core goes;
    per game (winner, -1 for none or not over; turns begun; events emitted).  Without
    ``agents`` each game is seated as the engine seats it (``RandomAgent(agent_seed(seed,
    seat))``); with them, every game starts from the agents' present state."""
    lists = _checked(engine, decks, seeds)
    seats = [_seats(agents, 0)] if agents is not None else [_default_seats(s) for s in seeds]
    return _native_engine(engine).play_many((lists[0], lists[1]), list(seeds), seats,
                                            log_level)


def load_native(engine: Any, data: Any, agents: Sequence[Any] | None = None, *,
                force: bool = False) -> NativeGame:
    """A native game from an ``hkk-save`` (a dict, JSON text or a parsed ``SaveFile``) of a
    data-only game, saved by either core at any decision or between two steps: it goes on as
    :func:`hkk.load_game`'s game would.  The save is checked by the Python engine's loader
    (format, versions, sets, cards, state: the same :class:`hkk.SaveError`s); then the
    native game replays its log's decisions from the seed (as ``hkk replay`` does: a save is
    trusted as far as its log goes), checks it comes to the same events, hands, decks and
    decision, and seats the save's agents (their RNGs as saved).  A game the native core
    cannot run is :class:`Refused` naming why: one it refuses to build (a set's hooks, a card's
    word), rulings or names other than the defaults, an agent not native, a board set up by
    hand (its log does not lead to its state), a save waiting at a seated agent's decision."""
    from hkk._saving import load_game, parse_save

    save = data if not isinstance(data, (dict, str, bytes)) else parse_save(data)
    python = load_game(engine, save, agents, force=force)  # the Python loader's checks
    started = next((e for e in save.log if e.get("kind") == "game_started"), None)
    waiting = save.position.waiting if save.position is not None else None
    reason = NativeCore().refuses(engine, save.decks)
    if reason is None and save.rulings:
        reason = f"rulings other than the defaults ({', '.join(sorted(save.rulings))})"
    if reason is None and [p.name for p in save.state.players] != ["P1", "P2"]:
        reason = "players' names other than P1, P2 are not native yet"
    if reason is None and started is not None and started.get("built"):
        reason = "a board set up by hand (game_started.built): its log does not lead to it"
    if reason is None and waiting is not None and save.agents[waiting.player].kind != "outside":
        reason = f"saved at a decision of player {waiting.player + 1}'s seated agent"
    if reason is not None:
        raise Refused(f"the native core cannot load this save: {reason}")
    seats = _seats(python.agents, save.seed)
    lists = _checked(engine, save.decks, [save.seed])
    native = _native_engine(engine).new_game((lists[0], lists[1]), save.seed,
                                             (_OUTSIDE, _OUTSIDE), "full")
    labels = [e["choice"] for e in save.log if e.get("kind") == "decision"]
    stop = None if save.position is not None else \
        (len(save.log), save.state.turn, save.state.step_index)
    try:
        native.replay(labels, stop)
    except ValueError as exc:
        raise Refused(f"the native core cannot load this save: its log does not replay "
                      f"natively: {exc}") from None
    difference = _first_differing(native.events(), save.log)
    if difference is None and [(list(p.hand), list(p.deck)) for p in python.players] != [
            (hand, deck) for hand, deck in native.zones()]:
        difference = (len(save.log), "the hands and decks the log leads to",
                      "the saved hands and decks")
    if difference is not None:
        index, a, b = difference
        raise Refused(f"the native core cannot load this save: its replay differs from the "
                      f"saved log at event {index}\n  native: {a}\n  saved: {b}")
    if waiting is not None:  # the decision saved, before its seat may be given an agent
        found = native.decision()
        got = None if found is None else [found[0], found[1], list(found[2])]
        wanted = [waiting.kind, waiting.player, waiting.labels]
        if got != wanted:
            raise Refused(f"the native core cannot load this save: it waits for {wanted}, "
                          f"the native game stands at {got}")
    native.reseat(seats)
    shown = list(python.agents)
    python.agents = [_python_agent(s) for s in seats]
    return NativeGame(native, shown, "full", _Origin(engine, seats, save=save), twin=python)


#: A seat answered from outside (every seat while a save's log is replayed).
_OUTSIDE: SeatSpec = ("outside", 0.0, None, [])


def _first_differing(native: list[dict[str, Any]], python: list[dict[str, Any]]
                     ) -> tuple[int, Any, Any] | None:
    for index, (a, b) in enumerate(itertools.zip_longest(native, python)):
        if a != b:
            return index, a, b
    return None


def compare(engine: Any, decks: Sequence[str | Sequence[str]], seed: int, *,
            agents: Callable[[], Sequence[Any] | None] | None = None, log_level: str = "full"
            ) -> tuple[NativeGame, str | None]:
    """One game on both cores - the native one as far as it goes, the Python one (the
    reference) as far as that, step by step - and how they differ: None when their logs are
    identical event for event and, if the native game ended, both ended alike; else the
    seed, the decks and the first differing event of each core.  ``agents`` makes a game's
    agents afresh for each core (each draws from its own RNG); None: the engine's own."""
    from hkk import advance

    lists = _deck_lists(engine, decks)
    native = play_native(engine, lists, seed=seed, agents=agents() if agents else None,
                         log_level=log_level)
    python = engine.new_game(lists, agents() if agents else None, seed=seed,
                             log_level=log_level)
    while python.log.emitted < native.emitted and advance(python):
        pass
    python_log = [e.as_dict() for e in python.log if e.seq < native.emitted]
    head = f"cores differ: seed={seed} decks={list(decks)}"
    found = _first_differing(native.log, python_log)
    if found is not None:
        index, a, b = found
        return native, f"{head} at event {index}\n  native: {a}\n  python: {b}"
    if native.unported is None and not (
            native.over and python.over and native.emitted == python.log.emitted
            and (native.winner, native.turn) == (python.winner, python.turn)):
        return native, (f"{head}: the native game ended (winner {native.winner}, turn "
                        f"{native.turn}, {native.emitted} events), the Python one not alike "
                        f"(over {python.over}, winner {python.winner}, turn {python.turn}, "
                        f"{python.log.emitted} events)")
    return native, None


class NativeCore:
    """The ``hkk.cores`` entry ``native``.  Not ``auto``: a native game is not yet a whole
    ``hkk.ForwardModel`` (a determinized copy has no view or save, and only the native
    agents sit at a native game), so ``--core auto`` never picks it and
    no default output changes; ``--core native`` names it."""

    name = "native"
    auto = False
    #: hkk play, serve and verify --games need a whole forward model (hkk._cores says so):
    #: a native game is answered from outside, copied, determinized, saved and viewed
    #: (NativeGame), but not yet by every agent, nor its determinized copies viewed or saved
    forward_model = False
    forward_model_lacks = ("the view and save of a determinized copy, and seats for agents "
                           "other than random, first, greedy and mcts")

    def refuses(self, engine: Any, decks: Sequence[str | Sequence[str]]) -> str | None:
        """Why this game cannot run natively: the set and hook that make it not data-only
        (``engine.scope``), a turn or rulings it does not know, or the first card (in id order)
        and word it does not implement; None when it can."""
        lists = _deck_lists(engine, decks)
        reason = _engine_refusal(engine, lists)
        if reason is not None:
            return reason
        return _native_engine(engine).refusal(lists)

    def compare(self, engine: Any, decks: Sequence[str | Sequence[str]], seed: int
                ) -> str | None:
        """How this game with the engine's default agents differs between the native core
        and the Python engine at the full log level (:func:`compare`; None: not at all)."""
        native, difference = compare(engine, decks, seed)
        if difference is None and native.unported is not None:
            return f"the native core stopped short of the end: {native.unported}"
        return difference

    def play_outcomes(self, engine: Any, decks: Sequence[str | Sequence[str]],
                      seeds: Sequence[int], *, names: tuple[str, str],
                      agents: Sequence[Sequence[Any]] | None = None,
                      agent_specs: tuple[str, str] | None = None,
                      max_turns: int | None = None) -> list[dict[str, Any]]:
        """``hkk simulate``'s batched call: the games of ``seeds`` (``agents``: each game's
        agents; None: the engine's default ones) played in one call, each recorded natively as
        ``hkk._outcome.OutcomeRecorder`` records it, as ``Outcome.as_row()`` rows (``names``:
        the pairing's deck specs).  A game the native core stops short (a step of more than
        ``max_items_per_step`` items, where the Python engine raises ``StepLoopError``) is an
        error row naming why."""
        from collections import Counter

        from hkk._outcome import Outcome

        reason = self.refuses(engine, decks)
        if reason is None and max_turns is not None and max_turns != engine.rulings.max_turns:
            reason = f"a turn limit of {max_turns} is not native (it plays the rulings' " \
                     f"{engine.rulings.max_turns})"
        if reason is not None:
            raise Refused(f"the native core cannot run this game: {reason}")
        lists = _checked(engine, decks, seeds)
        seats = [_default_seats(s) for s in seeds] if agents is None else \
            [_seats(a, s) for a, s in zip(agents, seeds, strict=True)]
        played = _native_engine(engine).play_outcomes((lists[0], lists[1]), list(seeds), seats)
        rows = []
        for seed, (winner, why, turns, first, stopped, counts) in zip(seeds, played,
                                                                       strict=True):
            tables = [[Counter(dict(player)) for player in kind] for kind in counts]
            outcome = Outcome(seed=seed, decks=names, winner=winner, reason=why, turns=turns,
                              first=first, played=tables[0], fired=tables[1], used=tables[2],
                              drawn=tables[3], acted=tables[4], agents=agent_specs)
            if stopped is not None:
                outcome.winner, outcome.reason = None, "error"
                outcome.error = f"StepLoopError: {stopped}"
            rows.append(outcome.as_row())
        return rows

    def new_game(self, engine: Any, decks: Sequence[str | Sequence[str]], *, seed: int = 0,
                 agents: Sequence[Any] | None = None, log_level: str = "full",
                 rulings: Any = None, clock: Any = None,
                 names: Sequence[str] = ("P1", "P2")) -> NativeGame:
        """The game: played by its seated agents (``play()``, as far as the native core goes),
        or answered from outside where an agent is None (``decision``, ``answer``).
        Rulings other than the engine's, a clock (its time source is Python's) and other
        players' names are refused: the native core knows none of them."""
        reason = self.refuses(engine, decks)
        if reason is None and rulings is not None and rulings != engine.rulings:
            reason = "rulings other than the engine's are not native"
        if reason is None and clock is not None:
            reason = "the 41.7 clock's time source is Python's: a clock is not native yet"
        if reason is None and tuple(names) != ("P1", "P2"):
            reason = "players' names other than P1, P2 are not native yet"
        if reason is not None:
            raise Refused(f"the native core cannot run this game: {reason}")
        lists = _checked(engine, decks, [seed])
        seats = _seats(agents, seed)
        return NativeGame(_native_engine(engine).new_game(
            (lists[0], lists[1]), seed, seats, log_level),
            _seated(agents, seed), log_level, _Origin(engine, seats, decks=lists, seed=seed))

    def load_game(self, engine: Any, data: Any, agents: Sequence[Any] | None = None, *,
                  force: bool = False) -> NativeGame:
        """:func:`load_native`."""
        return load_native(engine, data, agents, force=force)
