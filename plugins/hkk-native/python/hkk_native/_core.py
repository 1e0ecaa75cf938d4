"""The native core behind the engine's seam (``hkk.cores``): what it refuses, by name, and the
games it builds.  The agents' and decks' translation to plain data is here, in one place."""

from __future__ import annotations

import functools
import gc
import inspect
import itertools
import json
import random
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

from hkk._cores import WHOLE_GAMES
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


@contextmanager
def _collector_paused() -> Iterator[None]:
    """CPython's cycle collector held off while a batch's seats and rows are built: they are
    new, acyclic containers (tuples, lists, dicts, ``Counter``s; tens a game), so the collections
    their allocations set off free nothing and scan every one of them again (a quarter of
    ``play_outcomes``' time).  Left as it was if it was off already; what a game played again
    on the Python engine leaves behind is collected once it is back on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


class Refused(ValueError):
    """The native core cannot run this game; the message names the set, hook, card or word."""


def _engine_refusal(engine: Any, decks: Sequence[Sequence[str]]) -> str | None:
    """Why the engine itself keeps this game off the native core: a set's hooks in Python
    (``engine.scope``, naming the set and hooks), a turn other than the default one, or
    rulings the native core does not take (:func:`_rulings_refusal`)."""
    from hkk import DEFAULT_TURN

    reason: str | None = engine.scope(decks).reason
    if reason is not None:
        return reason
    if tuple(engine.turn) != tuple(DEFAULT_TURN):
        return "the engine's turn is not the default turn (hkk.DEFAULT_TURN)"
    return _rulings_refusal(engine.rulings)


#: The largest limit a native game counts to (``Rulings.max_turns`` and the other limits).
_LIMIT_RANGE = range(2**31)


def _rulings_refusal(rulings: Any, whose: str = "the engine's") -> str | None:
    """Why the native core does not take these rulings (``whose``: the engine's or a game's)
    (it takes every choice and limit of :class:`hkk.Rulings` of the class itself, each limit
    within its range), naming the field; None if it does."""
    from dataclasses import fields

    from hkk import Rulings

    if type(rulings) is not Rulings:  # a subclass may answer `orderer` its own way
        return f"{whose} rulings are a {type(rulings).__qualname__}, not hkk.Rulings"
    for field in fields(rulings):
        value = getattr(rulings, field.name)
        if field.name.startswith("max_") and (type(value) is not int or value not in _LIMIT_RANGE):
            return f"Rulings.{field.name}={value!r}: the native core takes a limit of 0 to " \
                   f"{_LIMIT_RANGE.stop - 1}"
    return None


def _deck_lists(engine: Any, decks: Sequence[str | Sequence[str]]) -> list[list[str]]:
    return [engine.deck(d) if isinstance(d, str) else list(d) for d in decks]


#: A native seat: (agent kind, pass bias, its own RNG's state words or seed (None: none), a
#: search agent's options by name).
SeatSpec = tuple[str, float, list[int] | int | None, list[tuple[str, float]]]
#: A batched call's seats (``_native.pyi``): seat pairs, or the default agents' pass bias.
BatchSeats = float | list[tuple[SeatSpec, SeatSpec]]


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
    from hkk._mcts import ROLLOUTS, MctsAgent

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
        # the rollout policy by its index in ROLLOUTS (the native option is a number); the
        # agent's defaults (None) are the native agent's own: fight, rollout_turns 4
        own = [("rollout", float(ROLLOUTS.index(agent.rollout or "fight")))]
        if agent.rollout_turns is not None:
            own.append(("rollout_turns", float(agent.rollout_turns)))
        return ("mcts", 0.0, list(agent.rng.getstate()[1]),
                own + _search_options(agent, ("budget", "exploration")))
    _askable(agent)
    return _OUTSIDE  # a Python agent: asked from outside by NativeGame._drive


def _askable(agent: Any) -> None:
    """Refuse by name an agent that cannot be asked through the protocol: one without a
    ``choose``, or one that ``sees_everything`` (the Python engine hands it the
    ``hkk.Game`` itself, which a native game is not)."""
    name = type(agent).__name__
    if not callable(getattr(agent, "choose", None)):
        raise Refused(f"agent {name} has no choose(view, decision) method: it cannot sit "
                      "at a game")
    if getattr(agent, "sees_everything", False):
        raise Refused(f"agent {name} sees_everything: it reads the Python engine's hkk.Game "
                      "itself, which a native game is not; play it on the python core")


def _native_seated(agent: Any) -> bool:
    """Whether the native core seats ``agent`` itself (else a Python driver asks it)."""
    from hkk import FirstLegalAgent, RandomAgent
    from hkk._greedy import GreedyAgent
    from hkk._mcts import MctsAgent

    return type(agent) in (FirstLegalAgent, RandomAgent, GreedyAgent, MctsAgent)


def _shares_rng(agents: Sequence[Any]) -> bool:
    """One ``RandomAgent`` in both seats: it draws from one RNG for both, as on the Python
    engine, so it is asked through the protocol (two native seats would draw apart)."""
    from hkk import RandomAgent

    return len(agents) == 2 and agents[0] is agents[1] and type(agents[0]) is RandomAgent


#: The seats of a game whose seats no Python agent answers (``NativeGame._asked``: read by
#: identity on the hot path).
_NOBODY: tuple[Any, ...] = (None, None)


def _asked_agents(agents: Sequence[Any]) -> tuple[Any, ...]:
    """The Python agents a game's seats are asked by (None: answered from outside by the
    caller, or seated natively); :data:`_NOBODY` if none."""
    shared = _shares_rng(agents)
    asked = tuple(None if a is None or (_native_seated(a) and not shared) else a
                  for a in agents)
    return _NOBODY if len(asked) == 2 and all(a is None for a in asked) else asked


def _default_seats(seed: int) -> tuple[SeatSpec, SeatSpec]:
    """The engine's default agents, ``RandomAgent(agent_seed(seed, seat))``, as native seats
    made from their seeds (no Python agent built).  A batched call hands over only their pass
    bias (``_default_pass_bias()``): the native core makes each game's seeds itself."""
    from hkk._agent_registry import agent_seed

    bias = _default_pass_bias()
    return (("random", bias, agent_seed(seed, 0), []), ("random", bias, agent_seed(seed, 1), []))


def _game_seats(seats: BatchSeats, index: int, seed: int) -> tuple[SeatSpec, SeatSpec]:
    """The seats of a batched call's ``index``-th game, of seed ``seed``."""
    if isinstance(seats, float):
        return _default_seats(seed)
    return seats[index if len(seats) > 1 else 0]


@functools.cache
def _default_pass_bias() -> float:
    """``RandomAgent``'s default pass bias (read once: a batched call asks it for each game)."""
    from hkk import RandomAgent

    return float(inspect.signature(RandomAgent).parameters["pass_bias"].default)


def _seated(agents: Sequence[Any] | None, seed: int) -> list[Any]:
    """The game's agents as its ``agents`` lists them: the engine's default ones made when
    none are given (their native twins draw as they would)."""
    if agents is not None:
        return list(agents)
    from hkk import RandomAgent
    from hkk._agent_registry import agent_seed

    return [RandomAgent(agent_seed(seed, 0)), RandomAgent(agent_seed(seed, 1))]


def _native_engine(engine: Any, rulings: Any = None) -> _NativeEngine:
    """The engine's cards as plain data with its rulings (or ``rulings``: a game's own, ``hkk
    simulate --max-turns``'), one a rulings, kept on the engine while its cards are the same
    ones (a card is never changed, but ``hkk simulate --ablate`` adds fillers to them)."""
    rulings = engine.rulings if rulings is None else rulings
    made: dict[Any, _NativeEngine]
    ids, made = getattr(engine, "_hkk_native_engines", (None, {}))
    if ids != engine.cards.keys():
        ids, made = frozenset(engine.cards), {}
        engine._hkk_native_engines = (ids, made)
    if rulings not in made:
        made[rulings] = _NativeEngine(plain_cards(engine.cards), rulings)
    return made[rulings]


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
                 save: SaveFile | None = None, names: Sequence[str] = ("P1", "P2"),
                 rulings: Any = None) -> None:
        self.engine, self.seats, self.decks, self.seed, self.save = \
            engine, tuple(seats), [list(d) for d in decks], seed, save
        self.names = tuple(names)  # the players' (no native event names them)
        self.rulings = rulings  # None: the engine's

    def make(self, level: str) -> Any:
        from hkk._saving import load_game

        agents = [_python_agent(s) for s in self.seats]
        if self.save is None:
            return self.engine.new_game(self.decks, agents, seed=self.seed, log_level=level,
                                        names=self.names, rulings=self.rulings)
        game = load_game(self.engine, self.save, agents)
        return game if level == "full" else game.clone(log_level=level)


class _Determinized:
    """Where a determinized native copy's Python twin starts: its game's twin (the game's
    origin given its answers so far) determinized for the same player from the same RNG
    state - the native determinize draws exactly as the Python engine's does, so the two
    copies are the same game, checked as every twin is (:meth:`NativeGame._synced`)."""

    def __init__(self, origin: _Origin | _Determinized, answers: tuple[list[Op], int],
                 level: str, player: int, state: tuple[Any, ...] | _NativeRandom,
                 log_level: str | None, started: bool) -> None:
        #: the game's ops for its twin: the first n of a list it may go on adding to
        self.origin, self.answers, self.level = origin, answers, level
        self.player, self.state, self.log_level = player, state, log_level
        #: the game had run up to its first decision (set up: its decks shuffled)
        self.started = started

    def make(self, level: str) -> Any:
        game = self.origin.make(self.level)
        ops, n = self.answers
        for op in ops[:n]:
            _feed(game, op)
        if self.started:  # run up to where the game stood, as reading its decision did
            game.decision  # noqa: B018
        rng = random.Random()
        # an hkk_native.Random is kept as its copy from before the draws: its state read here
        state = self.state if isinstance(self.state, tuple) else \
            (3, tuple(self.state.state()), None)
        rng.setstate(state)
        copy = game.determinize(self.player, rng, log_level=self.log_level)
        return copy if level == copy.log.level else copy.clone(log_level=level)


#: What a native game's Python twin is given, in order, to stand where it stands: an answer
#: from outside (an int), an answer given while ``play(max_turns=...)`` runs (``("answer",
#: index, limit)``), a reseat (``("seat", seat, spec, ran)``: the seat's native spec, or None
#: for a seat answered from outside or asked in Python; whether the game had run up to where it
#: stood) and a run (``("run", limit)``, ``play``).
Op = int | tuple[Any, ...]


def _feed(twin: Any, op: Op) -> None:
    """Give the Python twin one :data:`Op`, as the Python engine would have been given it."""
    from hkk._driving import run_on

    if type(op) is int:
        twin.answer(op)
    elif op[0] == "answer":  # hkk._driving.answer, run on to the caller's turn limit
        _, index, limit = op
        machine = twin.machine
        waiting = machine.waiting or twin.decision
        machine.answer = index_of(waiting, index)
        if waiting is machine.found:
            machine.stopped = waiting
        run_on(twin, limit)
    elif op[0] == "seat":  # where the native game stood: run up to its decision if it had
        _, seat, spec, ran = op
        if ran:
            _ = twin.decision
        twin.agents[seat] = None if spec is None else _python_agent(spec)
    else:  # "run": play() (every seat seated) or a Python driver's run to its first decision
        run_on(twin, op[1])


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


#: The options of the decisions made so far, by their labels (the native core hands them
#: over as a tuple), and each option by its label: an answer a call builds no new ones and
#: mostly looks them up once (an ``Option`` is its label; nobody changes one).  Emptied past
#: a bound.
_OPTIONS: dict[tuple[str, ...], tuple[Option, ...]] = {}
_OPTION: dict[str, Option] = {}


def _decision(found: tuple[str, int, tuple[str, ...], str | None, str]) -> Decision:
    """A native decision ``(kind, player, labels, rule, prompt)`` as the Python engine's."""
    kind, player, labels, rule, prompt = found
    options = _OPTIONS.get(labels)
    if options is None:
        if len(_OPTIONS) > 20_000:
            _OPTIONS.clear()
            _OPTION.clear()
        one = _OPTION
        options = _OPTIONS[labels] = tuple([one.get(label) or one.setdefault(
            label, Option(label)) for label in labels])
    return Decision(kind, player, options, prompt, rule)


class NativeLog(Sequence[Any]):
    """A native game's log as the Python engine's (``hkk.EventLog``, its reading side): the
    kept events as the Python events (``hkk.events``), each built from the native log when
    first read; ``as_dicts``, ``to_json``, ``of_kind``, ``kinds``; ``level``, ``turn``,
    ``step``, ``emitted``.  ``subscribe(listener, kinds=None)``: the listener is handed each
    event the game logs from then on, after the call that logged it (``answer``, ``play``,
    reading ``decision``, a Python agent's answer) - a native step runs whole, so not while
    it runs.  Only a full log is listened to: a lower level keeps some events only, where the
    Python engine still makes those of the kinds listened to."""

    def __init__(self, game: NativeGame) -> None:
        self._game = game
        self._events: list[Any] = []
        self._listeners: list[tuple[Callable[[Any], Any], frozenset[str] | None]] = []
        self._told = 0

    def _built(self, n: int) -> list[Any]:
        """The first ``n`` events as the Python events (built once)."""
        from hkk._saving import _event

        events, native = self._events, self._game._game
        while len(events) < n:
            events.append(_event(native.event(len(events))))
        return events

    def __len__(self) -> int:
        return len(self._game._game)

    def __getitem__(self, index: Any) -> Any:
        if type(index) is int and 0 <= index < len(self._events):
            return self._events[index]
        return self._built(len(self))[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._built(len(self)))

    def as_dicts(self) -> list[dict[str, Any]]:
        """The kept events as ``as_dict()``s (read from the native log, no event built)."""
        return self._game._game.events()

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.as_dicts(), ensure_ascii=False, **kwargs)

    def of_kind(self, *kinds: Any) -> list[Any]:
        names = {k if isinstance(k, str) else k.kind for k in kinds}
        return [e for e in self if e.kind in names]

    def kinds(self) -> list[str]:
        """The kept events' kinds, in order (read from the native log, no event built)."""
        return self._game._game.kinds()

    @property
    def level(self) -> str:
        return self._game._level

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def step(self) -> str:
        """The step of the last event kept ("" before any)."""
        n = len(self)
        return str(self._game._game.event(n - 1)["step"]) if n else ""

    @property
    def emitted(self) -> int:
        return self._game.emitted

    def subscribe(self, listener: Callable[[Any], Any], kinds: Any = None, *,
                  own: bool = False) -> None:
        """Hand ``listener`` every event logged from now on (of ``kinds``: names or classes;
        an unknown name is a KeyError), after the call that logged it."""
        from hkk.events import of

        if self.level != "full":
            raise NativeUnsupported(
                f"the native core keeps only some events at the {self.level!r} level: a "
                f"listener (log.subscribe) needs the full log (log_level='full')")
        names = None if kinds is None else frozenset(
            of(k).kind if isinstance(k, str) else k.kind for k in kinds)
        if not self._listeners:
            self._told = len(self)
        self._listeners.append((listener, names))

    def _tell(self) -> None:
        """Hand the listeners the events logged since they were last told."""
        n = len(self)
        events = self._built(n)
        while self._told < n:
            event = events[self._told]
            self._told += 1
            for listener, names in self._listeners:
                if names is None or event.kind in names:
                    listener(event)


class _Seats(list[Any]):
    """A native game's seats: ``game.agents[i] = agent`` reseats the game there
    (:meth:`NativeGame._reseat`), as it does a Python engine's game."""

    def __init__(self, game: NativeGame) -> None:
        super().__init__(game._seated)
        self._game = game

    def __setitem__(self, index: Any, value: Any) -> None:
        if not isinstance(index, int):
            raise TypeError("reseat one seat at a time: game.agents[i] = agent")
        seat = range(2)[index]  # an IndexError for a seat the game has not
        self._game._reseat(seat, value)
        super().__setitem__(seat, value)


class NativeGame:
    """A game on the native core, a :class:`hkk.ForwardModel` as far as the native core goes:
    played by its seated native agents (``play()``) or answered from outside one decision at a
    time (``decision``, ``answer``; a seat whose agent is None), copied at any decision
    (``clone``).  ``unported`` says where it stopped short of the end (None: it ended, ``over``);
    ``log`` is the kept events as ``as_dict()``s, built when read; ``emitted`` counts every
    event, kept or not; ``determinize`` resamples what a player cannot know.  ``save``,
    ``view`` and ``snapshot`` are read from its Python twin (docs/NATIVE.md, "Saves and
    views"), a determinized copy's too; a game without one (stopped short, with a native
    search seat) raises :class:`NativeUnsupported` there.  A Python agent the native core
    does not seat is asked through the protocol (:meth:`_drive`)."""

    #: Defaults a copy does not set (:meth:`clone` builds one without ``__init__``): the Python
    #: twin and how many of the answers it has taken, why a game without an origin has none,
    #: the seats' views given to its Python agents, whether one is being asked now, the turn
    #: limit of a ``play(max_turns=...)`` running, the decision waited for (read once).
    _twin: Any = None
    _fed = 0
    _no_twin = "a native game made without its engine (not by hkk_native.core)"
    _views: list[PlayerView | None] | None = None
    _asking = False
    _limit: int | None = None
    _waiting: Decision | None = None
    _log: NativeLog | None = None

    def __init__(self, game: _NativeGame, agents: Sequence[Any] = (None, None),
                 log_level: str = "full", origin: _Origin | _Determinized | None = None,
                 answers: Sequence[Op] = (), twin: Any = None) -> None:
        self._game = game
        #: the seats' agents (``agents``), and the Python agents its seats answered from
        #: outside are asked by (:meth:`_drive`; None: answered by the caller or seated natively)
        self._seated = tuple(agents)
        self._asked = _asked_agents(self._seated)
        self._level = log_level
        #: where the Python twin (save, view, snapshot) starts and what it is given since
        #: (:data:`Op`: from outside; the seated agents' choices are the twin's agents' own):
        #: the first ``_n`` of ``_answers``, a list a copy shares until one of them adds to it
        self._origin = origin
        self._answers = list(answers)
        self._n = len(self._answers)
        if twin is not None:
            self._twin = twin

    def _add(self, op: Op) -> None:
        """One more :data:`Op` for the twin (the list copied first if a copy added to it;
        written out again in :meth:`answer`)."""
        answers = self._answers
        if len(answers) != self._n:
            answers = self._answers = answers[:self._n]
        answers.append(op)
        self._n += 1

    def _ops(self) -> list[Op]:
        return self._answers[:self._n]

    def play(self, max_turns: int | None = None) -> int | None:
        """Play to the end (or as far as the native core goes) with the seated agents - the
        native ones natively, a Python one asked through the protocol (:meth:`_drive`) - or
        to the turn limit ``max_turns`` (``hkk._runner.advance``'s: between two turns the
        game ends at it, D-turn-limit); returns the winner.  Every seat needs an agent, as
        the Python engine's ``play``."""
        from hkk import HkkError

        if None in self._seated:
            seat = self._seated.index(None) + 1
            raise HkkError(f"player {seat}'s seat has no agent: answer game.decision with "
                           "game.answer(...), or seat an agent (game.agents[i] = agent)")
        self._waiting = None
        self._add(("run", max_turns))
        if any(self._asked):
            self._limit = self._game.turn_limit = max_turns
            try:
                self._drive()
            finally:
                self._limit = self._game.turn_limit = None
        else:
            self._game.play(max_turns)
        self._tell()
        return self._game.winner

    def _drive(self) -> None:
        """Ask the Python agents seated here for their decisions, as the Python engine asks
        them (``hkk._deciding.ask``): ``agent.choose(view, decision)`` with the player's view
        and the Python twin's decision (the Python engine's, prompt and all), the answer an
        offered option or one equal to it (else the engine's :class:`hkk.IllegalDecision`);
        up to a seat answered by the caller, or the end.  What the agent raises goes up as
        on the Python engine; while it thinks, the game waits for no decision (the Python
        engine's ``game.decision`` is None then too)."""
        from hkk._deciding import _offered

        while True:
            found = self._game.decision()
            self._tell()
            if found is None or self._asked[found[1]] is None:
                return
            player, agent = found[1], self._asked[found[1]]
            decision = self._synced().decision
            assert decision is not None  # _synced checked it stands at this one
            views = self._views
            if views is None:
                views = self._views = [None, None]
            view = views[player]
            if view is None:  # tied to the game weakly, as hkk._deciding.seat_view's
                self._check_twin()
                view = views[player] = PlayerView(
                    cast("ViewedGame", _Window(weakref.proxy(self))), player)
            self._asking = True
            try:
                chosen = agent.choose(view, decision)
            finally:
                self._asking = False
            options = decision.options
            ids = [id(o) for o in options]
            index = ids.index(id(chosen)) if id(chosen) in ids else \
                options.index(_offered(decision, chosen))
            self._waiting = None
            self._game.answer(index)
            self._add(index if self._limit is None else ("answer", index, self._limit))

    @property
    def decision(self) -> Decision | None:
        """The decision a seat answered from outside waits for (reading it the first time
        runs the game up to it): kind, player, the options' labels and rule as the Python
        engine's, prompt and all (an option's ``data`` is read from its label,
        :func:`hkk.option_data`); None once the game is over or stopped short, or if every seat
        has an agent.  A Python agent's decisions on the way are asked first (:meth:`_drive`)."""
        if self._asking or None not in self._seated:
            return None  # a seated agent thinks, or every seat has one: the Python engine's
        if self._waiting is not None:
            return self._waiting
        if any(self._asked):
            self._drive()
        found = self._found()
        self._tell()
        return found

    def _found(self) -> Decision | None:
        """The decision the native game waits for, whoever's seat it is."""
        if self._waiting is None:
            found = self._game.decision()
            if found is not None:
                self._waiting = _decision(found)
        return self._waiting

    def answer(self, option: Option | int | str) -> None:
        """Answer :attr:`decision` with one of its options, its index or its label, and run on
        to the next decision from outside or the end; anything else is an
        :class:`hkk.IllegalDecision` (the Python engine's message) and changes nothing."""
        waiting = self._waiting or self.decision
        if waiting is None:
            raise IllegalDecision("the game waits for no decision" + (
                " (it is over)" if self.over else
                " (it stopped short: " + str(self.unported) + ")" if self.unported else
                " (every seat has an agent: play it with game.play())"))
        index = option if type(option) is int and 0 <= option < len(waiting.options) else \
            index_of(waiting, option)
        self._waiting = None
        found = self._game.answer(index)  # the next decision, without a second call
        # self._add(index) and self._tell(), written out: this is a search's hot path
        answers = self._answers
        if len(answers) != self._n:
            answers = self._answers = answers[:self._n]
        answers.append(index)
        self._n += 1
        if found is not None and self._asked is _NOBODY:
            self._waiting = _decision(found)
        log = self._log
        if log is not None and log._listeners:
            log._tell()

    def clone(self, *, log_level: str | None = None) -> NativeGame:
        """An independent copy (one struct clone): given the same answers it goes on exactly as
        this game, and nothing done to it reaches this one.  ``log_level`` keeps the copy's log
        at that level from now on (its past: the events that level keeps).  Its Python agents
        are copies, as the Python engine's copy's (``hkk._driving.clone``)."""
        new = NativeGame.__new__(NativeGame)  # no __init__: a search's copies are many
        new._game = self._game.clone(log_level)
        new._level = self._level if log_level is None else log_level
        new._origin = self._origin
        new._answers, new._n = self._answers, self._n
        new._waiting = self._waiting
        if any(self._asked):
            from hkk._driving import _copied_agents

            asked = _copied_agents(list(self._asked))
            new._asked = tuple(asked)
            new._seated = tuple(a if c is None else c for a, c in zip(self._seated, asked,
                                                                       strict=True))
        else:
            new._asked, new._seated = self._asked, self._seated
        return new

    def _reseat(self, seat: int, agent: Any) -> None:
        """``game.agents[seat] = agent``, where the game stands (as the Python engine's game
        is reseated; the decisions of the step so far are taken again as made): the native
        core seats a random or first agent natively (its RNG's state now), asks any other
        agent through the protocol (:meth:`_drive`), and gives a seat whose agent is None to
        the caller.  One ``RandomAgent`` in both seats draws from one RNG, as on the Python
        engine: it is asked through the protocol.  The Python twin is reseated alike
        (:data:`Op`)."""
        seated = list(self._seated)
        seated[seat] = agent
        shared = _shares_rng(seated)
        specs: list[SeatSpec] = [_KEEP, _KEEP]
        if shared:
            specs = [_OUTSIDE, _OUTSIDE]
        else:
            specs[seat] = _seat(agent)
            if _shares_rng(self._seated):  # no longer shared: the other one seated natively
                specs[1 - seat] = _seat(seated[1 - seat])
        self._game.reseat((specs[0], specs[1]))
        self._seated = tuple(seated)
        self._asked = _asked_agents(self._seated)
        self._waiting = None
        ran = self.emitted > 0
        for i, spec in enumerate(specs):
            if spec is not _KEEP:
                self._add(("seat", i, None if spec[0] == "outside" else spec, ran))

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
            state: tuple[Any, ...] | _NativeRandom = rng.copy()
            game = self._game.determinize_native(player, rng, log_level)
        elif type(rng) is not random.Random:
            raise TypeError(f"determinize needs a plain random.Random (or an hkk_native.Random)"
                            f" to draw from (its state is drawn natively), not "
                            f"{type(rng).__qualname__}")
        else:
            state = rng.getstate()
            version, words, gauss = state
            game, after = self._game.determinize(player, list(words), log_level)
            rng.setstate((version, tuple(after), gauss))
        copy = NativeGame.__new__(NativeGame)  # no __init__: a search's worlds are many
        copy._game = game
        copy._level = self._level if log_level is None else log_level
        copy._seated = copy._asked = _NOBODY
        copy._answers, copy._n = [], 0
        lacks = self._twin_lacks()
        if lacks is None:
            assert self._origin is not None  # (no origin: lacks says so)
            copy._origin = _Determinized(self._origin, (self._answers, self._n), self._level,
                                         player, state, log_level, self.emitted > 0)
        else:
            copy._origin = None
            copy._no_twin = f"a determinized copy of a game that has none ({lacks})"
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

    def _twin_lacks(self) -> str | None:
        """Why this game has no Python twin, or None."""
        if self.unported is not None:
            return f"the native core stopped this game short ({self.unported})"
        if self._origin is None:
            return self._no_twin
        return None

    def _check_twin(self) -> None:
        """Refuse by name a game that has no Python twin (so no save, view or snapshot)."""
        lacks = self._twin_lacks()
        if lacks is not None:
            raise NativeUnsupported(f"{lacks}: it has no Python twin, so the native core has "
                                    "no save, view or snapshot of it")

    def _synced(self) -> Any:
        """The Python twin - a Python game played from the same start with the same answers
        (:class:`_Origin`) - brought to where this game stands, checked to stand there."""
        self._check_twin()
        assert self._origin is not None  # checked
        twin = self._twin
        if twin is None:
            twin = self._twin = self._origin.make(self._level)
            self._fed = 0
        while self._fed < self._n:
            _feed(twin, self._answers[self._fed])
            self._fed += 1
        # a game not yet set up stays so (reading the decision sets it up), as the Python one;
        # so does a determinized copy's decision, found again when first read
        answered = any(type(op) is int or op[0] != "seat" for op in self._ops())
        started = (self.emitted > 0 or answered) and not (
            isinstance(self._origin, _Determinized) and not answered
            and self._waiting is None)
        decision = self._found() if started else None
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
        """The seats' agents (None: answered from outside); ``game.agents[i] = agent``
        reseats the game (:meth:`_reseat`)."""
        return _Seats(self)

    @agents.setter
    def agents(self, agents: Sequence[Any]) -> None:
        for seat, agent in enumerate(agents):
            if agent is not self._seated[seat]:
                self._reseat(seat, agent)

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
    def log(self) -> NativeLog:
        """The kept events as the Python engine's log reads them (:class:`NativeLog`:
        ``log.as_dicts()`` their ``as_dict()``s, read from the native log)."""
        log = self._log
        if log is None:
            log = self._log = NativeLog(self)
        return log

    def _tell(self) -> None:
        """Hand the log's listeners what the last call logged."""
        log = self._log
        if log is not None and log._listeners:
            log._tell()

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
    if _shares_rng(agents):
        return (_OUTSIDE, _OUTSIDE)
    return (_seat(agents[0]), _seat(agents[1]))


def _with_turn_limit(engine: Any, max_turns: int | None) -> Any:
    """The engine's rulings, with ``hkk simulate --max-turns``' turn limit if given (as
    ``hkk._simulate.play_chunk`` plays the chunk on the Python engine)."""
    from dataclasses import replace

    return engine.rulings if max_turns is None else replace(engine.rulings, max_turns=max_turns)


def _python_row(engine: Any, lists: Sequence[Sequence[str]], seed: int, seats: Sequence[SeatSpec],
                names: tuple[str, str], agent_specs: tuple[str, str] | None,
                rulings: Any) -> dict[str, Any]:
    """The row of a game the native core stopped short (a limit: D-trigger-loop,
    D-work-limit, a step of too many items), played again on the Python engine, the
    reference, so that the row names the error in its words as ``hkk simulate --core python``
    does: the same seats, so the same game up to where it stops (:class:`NativeUnsupported`
    for a native search seat, which has no Python twin)."""
    from hkk._errors import GameTimeout, StepLoopError, TriggerLoopError
    from hkk._outcome import OutcomeRecorder

    game = _Origin(engine, seats, decks=lists, seed=seed, rulings=rulings).make("outcome")
    recorder = OutcomeRecorder(game.log, seed, names, agent_specs)
    try:
        game.play()
    except (TriggerLoopError, StepLoopError, GameTimeout) as exc:
        recorder.outcome.winner, recorder.outcome.reason = None, "error"
        recorder.outcome.turns = game.turn
        recorder.outcome.error = f"{type(exc).__name__}: {exc}"
    return recorder.outcome.as_row()


def _batched_seats(agents: Sequence[Any], seed: int) -> tuple[SeatSpec, SeatSpec]:
    """The seats of a game played in a batched call, which asks no Python agent."""
    seats = _seats(agents, seed)
    for agent, seat in zip(agents, seats, strict=True):
        if seat[0] == "outside":
            raise Refused(f"agent {type(agent).__name__} is not seated natively (a Python "
                          "agent is asked through the protocol, one game at a time): a "
                          "batched call plays RandomAgent, FirstLegalAgent, GreedyAgent and "
                          "MctsAgent seats only")
    return seats


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
    seats: BatchSeats = [_batched_seats(agents, 0)] if agents is not None else \
        _default_pass_bias()
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
    word, rulings it does not take: the game's own, as saved), an agent not native, a board
    set up by hand (its log does not lead to its state), a save waiting at a seated agent's
    decision."""
    from dataclasses import replace

    from hkk._rulings import DEFAULT_RULINGS
    from hkk._saving import load_game, parse_save

    save = data if not isinstance(data, (dict, str, bytes)) else parse_save(data)
    python = load_game(engine, save, agents, force=force)  # the Python loader's checks
    started = next((e for e in save.log if e.get("kind") == "game_started"), None)
    waiting = save.position.waiting if save.position is not None else None
    reason = NativeCore().refuses(engine, save.decks)
    rulings: Any = replace(DEFAULT_RULINGS, **save.rulings)
    if rulings == engine.rulings:
        rulings = None  # the engine's: its native engine
    if reason is None and rulings is not None:
        reason = _rulings_refusal(rulings, "the game's")
    if reason is None and started is not None and started.get("built"):
        reason = "a board set up by hand (game_started.built): its log does not lead to it"
    if reason is None and waiting is not None and save.agents[waiting.player].kind != "outside":
        reason = f"saved at a decision of player {waiting.player + 1}'s seated agent"
    if reason is not None:
        raise Refused(f"the native core cannot load this save: {reason}")
    seats = _seats(python.agents, save.seed)
    lists = _checked(engine, save.decks, [save.seed])
    names = [p.name for p in save.state.players]
    native = _native_engine(engine, rulings).new_game(
        (lists[0], lists[1]), save.seed, (_OUTSIDE, _OUTSIDE), "full", (names[0], names[1]))
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
#: A seat left as it is by a reseat of the other.
_KEEP: SeatSpec = ("keep", 0.0, None, [])


def _first_differing(native: list[dict[str, Any]], python: list[dict[str, Any]]
                     ) -> tuple[int, Any, Any] | None:
    if native == python:  # the lists compared whole first (in C): the usual answer
        return None
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
    emitted = native.emitted  # (read once: a property of the native game)
    while python.log.emitted < emitted and advance(python):
        pass
    python_log = [e.as_dict() for e in python.log if e.seq < emitted]
    head = f"cores differ: seed={seed} decks={list(decks)}"
    found = _first_differing(native.log.as_dicts(), python_log)
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
    """The ``hkk.cores`` entry ``native``.  ``auto = "whole-games"``: ``--core auto`` takes it
    for the whole games of ``hkk simulate`` that it accepts (their rows are the Python
    engine's byte for byte with the random and first agents), never for a game handed to the
    caller (``Engine.start`` stays on the Python engine's ``hkk.Game`` unless the engine names
    this core); ``--core native`` names it."""

    name = "native"
    auto = WHOLE_GAMES
    #: a whole forward model (hkk._cores): a native game is answered from outside, copied,
    #: determinized, saved, viewed, reseated and played to a turn limit of the caller's
    #: (NativeGame), so hkk play, serve and verify --games take --core native
    forward_model = True

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

    def refuses_outcomes(self, engine: Any, decks: Sequence[str | Sequence[str]], *,
                         agents: Sequence[Any] | None = None, max_turns: int | None = None
                         ) -> str | None:
        """Why :meth:`play_outcomes` cannot play these games (beside :meth:`refuses`): an
        agent it does not seat natively (a Python agent is asked through the protocol, one
        game at a time), naming it, or a turn limit beyond its range; None: it can."""
        if max_turns is not None:
            reason = _rulings_refusal(_with_turn_limit(engine, max_turns))
            if reason is not None:
                return reason
        if agents is not None:
            try:
                _batched_seats(agents, 0)
            except Refused as exc:
                return str(exc)
        return None

    def play_outcomes(self, engine: Any, decks: Sequence[str | Sequence[str]],
                      seeds: Sequence[int], *, names: tuple[str, str],
                      agents: Sequence[Sequence[Any]] | None = None,
                      agent_specs: tuple[str, str] | None = None,
                      max_turns: int | None = None) -> list[dict[str, Any]]:
        """``hkk simulate``'s batched call: the games of ``seeds`` (``agents``: each game's
        agents; None: the engine's default ones) played in one call, each recorded natively as
        ``hkk._outcome.OutcomeRecorder`` records it, as ``Outcome.as_row()`` rows (``names``:
        the pairing's deck specs).  A game the native core stops short (a limit the Python
        engine stops with an error) is played again on the Python engine for its row when its
        seats are random or first (the same game there); with a native search seat it is an
        error row naming why."""
        with _collector_paused():
            lists, seats = self._batched(engine, decks, seeds, agents, max_turns)
            rulings = _with_turn_limit(engine, max_turns)
            return self._rows(engine, lists, seeds, seats, names, agent_specs, rulings)

    def _rows(self, engine: Any, lists: list[list[str]], seeds: Sequence[int],
              seats: BatchSeats, names: tuple[str, str],
              agent_specs: tuple[str, str] | None, rulings: Any) -> list[dict[str, Any]]:
        """:meth:`play_outcomes`' games played under ``rulings`` and made rows."""
        from collections import Counter

        from hkk._outcome import Outcome

        played = _native_engine(engine, rulings).play_outcomes((lists[0], lists[1]),
                                                               list(seeds), seats)
        rows = []
        for index, (seed, (winner, why, turns, first, stopped, counts)) in enumerate(
                zip(seeds, played, strict=True)):
            tables = [[Counter(dict(player)) for player in kind] for kind in counts]
            outcome = Outcome(seed=seed, decks=names, winner=winner, reason=why, turns=turns,
                              first=first, played=tables[0], fired=tables[1], used=tables[2],
                              drawn=tables[3], acted=tables[4], agents=agent_specs)
            if stopped is not None:
                try:
                    rows.append(_python_row(engine, lists, seed, _game_seats(seats, index, seed),
                                            names, agent_specs, rulings))
                    continue
                except NativeUnsupported:  # a native search seat: no Python twin to ask
                    outcome.winner, outcome.reason = None, "error"
                    outcome.error = f"StepLoopError: {stopped}"
            rows.append(outcome.as_row())
        return rows

    def _batched(self, engine: Any, decks: Sequence[str | Sequence[str]],
                 seeds: Sequence[int], agents: Sequence[Sequence[Any]] | None,
                 max_turns: int | None) -> tuple[list[list[str]], BatchSeats]:
        """The decks' card lists and each game's seats of a batched call (:class:`Refused`
        naming why the native core cannot play these games)."""
        reason = self.refuses(engine, decks) or self.refuses_outcomes(
            engine, decks, agents=agents[0] if agents else None, max_turns=max_turns)
        if reason is not None:
            raise Refused(f"the native core cannot run this game: {reason}")
        lists = _checked(engine, decks, seeds)
        seats: BatchSeats = _default_pass_bias() if agents is None else \
            [_batched_seats(a, s) for a, s in zip(agents, seeds, strict=True)]
        return lists, seats

    def tally_outcomes(self, engine: Any, decks: Sequence[str | Sequence[str]],
                       seeds: Sequence[int], *, names: tuple[str, str],
                       agents: Sequence[Sequence[Any]] | None = None,
                       agent_specs: tuple[str, str] | None = None,
                       max_turns: int | None = None, ablated: tuple[str, ...] = ()) -> Any:
        """``hkk simulate``'s batched call when only the reports are wanted: the games of
        :meth:`play_outcomes` tallied natively (``hkk._outcome.Group``: nothing per game in
        Python), the same counts as ``Tally.of`` their rows.  A game the native core stops
        short is played again as :meth:`play_outcomes` plays it, and tallied from its row."""
        from collections import Counter

        from hkk._outcome import DRAW, ERROR, Group, Outcome

        lists, seats = self._batched(engine, decks, seeds, agents, max_turns)
        rulings = _with_turn_limit(engine, max_turns)
        (games, wins, first_games, first_wins, turns, reasons, cards, results,
         stopped) = _native_engine(engine, rulings).tally_outcomes((lists[0], lists[1]),
                                                                   list(seeds), seats)
        group = Group(agent_specs, names, tuple(ablated), games=games, wins=list(wins),
                      first_games=first_games, first_wins=first_wins,
                      turns=Counter(dict(turns)),
                      reasons=Counter({why or "unfinished": n for why, n in reasons}),
                      cards=[{card: list(columns) for card, columns in seat}
                             for seat in cards])
        codes = bytearray(results)
        for index, why in stopped:
            seed = seeds[index]
            seat = _game_seats(seats, index, seed)
            try:
                o = Outcome.from_row(_python_row(engine, lists, seed, seat, names, agent_specs,
                                                 rulings))
            except NativeUnsupported:  # a native search seat: no Python twin to ask
                o = Outcome(seed=seed, decks=names, reason="error", agents=agent_specs,
                            error=f"StepLoopError: {why}")
            o.ablated = tuple(ablated)
            group.add(o)
            codes[index] = ERROR if o.error is not None else DRAW if o.winner is None \
                else o.winner
        if seeds:
            group.results[seeds[0]] = codes
        return group

    def new_game(self, engine: Any, decks: Sequence[str | Sequence[str]], *, seed: int = 0,
                 agents: Sequence[Any] | None = None, log_level: str = "full",
                 rulings: Any = None, clock: Any = None,
                 names: Sequence[str] = ("P1", "P2")) -> NativeGame:
        """The game: played by its seated agents (``play()``, as far as the native core goes),
        or answered from outside where an agent is None (``decision``, ``answer``).
        ``rulings``: the game's own (``hkk play --max-turns`` gives a turn limit), refused as
        an engine's are (:func:`_rulings_refusal`).  A clock (its time source is Python's) is
        refused.  The players' names are the Python twin's, and the native game's in a
        chosen-player decision's options."""
        reason = self.refuses(engine, decks)
        if rulings == engine.rulings:
            rulings = None  # the engine's: its native engine, its twin's default
        if reason is None and rulings is not None:
            reason = _rulings_refusal(rulings, "the game's")
        if reason is None and clock is not None:
            reason = "the 41.7 clock's time source is Python's: a clock is not native yet"
        if reason is None and len(names) != 2:
            reason = f"{len(names)} players' names: a game has two players"
        if reason is not None:
            raise Refused(f"the native core cannot run this game: {reason}")
        lists = _checked(engine, decks, [seed])
        seats = _seats(agents, seed)
        native = _native_engine(engine, rulings).new_game(
            (lists[0], lists[1]), seed, seats, log_level, (names[0], names[1]))
        return NativeGame(native, _seated(agents, seed), log_level,
                          _Origin(engine, seats, decks=lists, seed=seed, names=names,
                                  rulings=rulings))

    def load_game(self, engine: Any, data: Any, agents: Sequence[Any] | None = None, *,
                  force: bool = False) -> NativeGame:
        """:func:`load_native`."""
        return load_native(engine, data, agents, force=force)
