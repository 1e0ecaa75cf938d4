"""What copying a game costs: the figures ``docs/FORWARD-MODEL.md`` (issue 21) relies on.

Run with ``python benchmarks/bench_clone.py``; ``--seeds 1 --repeat 1`` for a smoke run.  Every
state measured is a step boundary of turns 8-12 of seeded ``alap:tuz`` vs ``alap:viz`` games at
the outcome log level (the mid-game base set).  Prints, in µs of this process's CPU time
(``time.process_time``) per operation, medians over the states:

- ``copy.deepcopy(game)``: what it does today (``Game.__reduce__`` is the save), and the
  deepcopy of the game's attributes with the engine's parts (cards, plugin manager, hook caches)
  shared, checked to play on exactly as the original;
- a hand-written copy of the plain state (players, permanents, effects, counters, usage, RNG
  state, trigger queue): the lower bound of a clone, without the derived caches;
- the RNG's state alone (``getstate``/``setstate``), ``save_game`` + ``load_game`` at the full
  level;
- clone by prefix: re-running a step from its start up to each of its decisions with the
  answers given (what a greenlet or generator design pays per clone, on top of the copy);
- the decisions themselves: per turn, and how deep in the stack each kind is asked (what a
  generator design must turn into generators);
- a greenlet switch (if ``greenlet`` imports: it is no project dependency; put it on
  ``PYTHONPATH`` from a throwaway location), and a whole game run in a greenlet that switches
  out at every decision, against the same game run directly.

Figures only: nothing here asserts anything about them."""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel

from hkk import Engine, advance, load_game
from hkk._agents import RandomAgent
from hkk._changes import count_effect, index_abilities, refresh_statics
from hkk._clock import GameClock
from hkk._decisions import Decision, Option
from hkk._events import EventLog
from hkk._game import Game
from hkk._runner import run_next_step
from hkk._state import Permanent, Player
from hkk._triggers import restore_waiting, saved_waiting, watch

DECKS = ["alap:tuz", "alap:viz"]
TURNS = range(8, 13)
#: Where a step's stack starts: the functions a decision's depth is counted up to.
STEP_ROOTS = ("run_step", "run_next_step")


def cpu_us(work: Callable[[], object], repeat: int) -> float:
    """µs of CPU per call of ``work``, over ``repeat`` calls."""
    start = time.process_time()
    for _ in range(repeat):
        work()
    return (time.process_time() - start) / repeat * 1e6


def mid_game(engine: Engine, seed: int, level: str = "outcome") -> Iterator[Game]:
    """The game at each step boundary of turns 8-12 (the same object, advanced in place)."""
    game = engine.new_game(DECKS, seed=seed, log_level=level)
    while advance(game) and game.turn <= TURNS[-1]:
        if game.turn in TURNS and game.step_index is not None \
                and game.step_index < len(game.turn_steps):
            yield game


# -- copies -------------------------------------------------------------------------------------

def shared_parts(engine: Engine, game: Game) -> dict[int, Any]:
    """A deepcopy memo that shares what is the engine's, not the game's: the engine, its plugin
    manager and hook caches, the card definitions (frozen pydantic models) and what they hold."""
    memo: dict[int, Any] = {}
    for name in ("engine", "cards", "rulings", "hook", "turn_steps", "pm", "hook_impls",
                 "hook_plans", "custom_effects", "ability_item", "agents", "clock"):
        value = getattr(game, name)
        memo[id(value)] = value

    def share(obj: Any) -> None:
        if id(obj) in memo or isinstance(obj, (str, int, float, bool, type(None))):
            return
        memo[id(obj)] = obj
        if isinstance(obj, BaseModel):
            for value in obj.__dict__.values():
                share(value)
        elif isinstance(obj, (tuple, list, frozenset, set)):
            for value in obj:
                share(value)
        elif isinstance(obj, dict):
            for value in obj.values():
                share(value)

    for card in engine.cards.values():
        share(card)
    return memo


def deep_clone(game: Game, shared: dict[int, Any]) -> Game:
    """The game's attributes deep-copied, the engine's parts shared.  The trigger watch's weak
    reference to its game is the one thing deepcopy gets wrong (it copies a weakref as it is)."""
    import weakref
    clone = Game.__new__(Game)
    clone.__dict__.update(copy.deepcopy(game.__dict__, dict(shared)))
    clone.triggers._game = weakref.ref(clone)
    return clone


def _copy_slots(obj: Any, cls: type) -> Any:
    new = cls.__new__(cls)
    for name in cls.__slots__:
        setattr(new, name, getattr(obj, name))
    return new


def plain_copy(game: Game) -> Game:
    """The lower bound: a copy of the plain state only - players and their zones, permanents and
    their counters, effects, offers, usage counts, the RNG state, the trigger queue and the
    scalars.  The derived caches (statics, ability index, the watch's index) are not rebuilt
    and still point at the original's permanents: this is not a working clone, it is what any
    clone must at least do."""
    clone = Game.__new__(Game)
    clone.__dict__.update(game.__dict__)
    players = []
    for p in game.players:
        q = _copy_slots(p, Player)
        q.deck, q.hand, q.graveyard, q.void = list(p.deck), list(p.hand), list(p.graveyard), \
            list(p.void)
        players.append(q)
    clone.players = players
    permanents = {}
    for uid, perm in game.permanents.items():
        new = _copy_slots(perm, Permanent)
        new.counters = dict(perm.counters)
        new.mods = dict(perm.mods)
        permanents[uid] = new
    clone.permanents = permanents
    clone.effects = [_copy_slots(e, type(e)) for e in game.effects]
    clone.offers = [_copy_slots(o, type(o)) for o in game.offers]
    clone.usage_turn = dict(game.usage_turn)
    clone.usage_game = dict(game.usage_game)
    clone.attempted = set(game.attempted)
    rng = random.Random()
    rng.setstate(game.rng.getstate())
    clone.rng = rng
    clone.hp_changed = set(game.hp_changed)
    clone.__dict__["_waiting"] = list(game.triggers.waiting)
    return clone


def working_copy(game: Game) -> Game:
    """A hand-written clone that plays on: the plain copy, then what is derived rebuilt as
    ``load_game`` rebuilds it (statics, ability index, modifier sums), a log of its own (the
    outcome level keeps nothing of the past) and a trigger watch of its own with the waiting
    items and counters carried over."""
    clone = plain_copy(game)
    del clone.__dict__["_waiting"]
    log = EventLog(game.log.level)
    log._events = list(game.log._events)
    log.turn, log.step, log._emitted = game.log.turn, game.log.step, game.log._emitted
    clone.log = log
    clone.emit = log.emitter  # type: ignore[method-assign]
    clone.statics, clone.conditional_statics, clone.preventions = [], [], []
    clone.abilities_at, clone.condition_events = {}, set()
    permanents = clone.permanents
    for perm in permanents.values():
        perm.mods = {}
    for perm in permanents.values():
        index_abilities(clone, perm)
    for effect in clone.effects:
        if effect.in_force:
            count_effect(clone, effect, +1)
    refresh_statics(clone)
    clone.abilities_version = game.abilities_version
    clone.hp_changed = {permanents[p.uid] for p in game.hp_changed if p.uid in permanents}
    clock = game.clock
    clone.clock = GameClock(clock.time_source)
    clone.clock.turn_times = dict(clock.turn_times)
    clone.clock._started, clone.clock._last_decision, clone.clock._closed_turn = \
        clock._started, clock._last_decision, clock._closed_turn
    old, new = game.triggers, watch(clone)
    clone.triggers = new
    if old.waiting:
        restore_waiting(clone, saved_waiting(game), old._count)
    new._count, new._set_off, new.resolved, new.cause = \
        old._count, old._set_off, old.resolved, old.cause
    new._work_turn, new._turn_began_at, new._work_stop = \
        old._work_turn, old._turn_began_at, old._work_stop
    return clone


def rng_copy(game: Game) -> random.Random:
    rng = random.Random()
    rng.setstate(game.rng.getstate())
    return rng


# -- decisions: recorded, replayed, counted -----------------------------------------------------

class _Cut(BaseException):
    """Stops a replayed step at the decision to clone at (a BaseException: the engine's error
    wrapping lets it through, as it would a greenlet's switch)."""


class Recorder:
    """Answers like the random agent and records each answer's index and the stack's depth."""

    def __init__(self) -> None:
        self.agent = RandomAgent()
        self.answers: list[int] = []
        self.depth: dict[str, list[int]] = {}
        self.functions: set[tuple[str, str]] = set()

    def choose(self, game: Game, decision: Decision) -> Option:
        if game.turn in TURNS:
            frame, depth = sys._getframe(2), 0  # the caller of game.decide
            while frame is not None and frame.f_code.co_name not in STEP_ROOTS:
                self.functions.add((frame.f_code.co_filename.rsplit("/", 2)[-1],
                                    frame.f_code.co_name))
                frame, depth = frame.f_back, depth + 1
            self.depth.setdefault(decision.kind, []).append(depth)
        chosen = self.agent.choose(game, decision)
        self.answers.append(list(map(id, decision.options)).index(id(chosen)))
        return chosen


class Replayer:
    """Answers a step's first ``cut`` decisions as recorded, then stops it."""

    def __init__(self, answers: list[int], cut: int) -> None:
        self.answers, self.cut, self.given = answers, cut, 0

    def choose(self, game: Game, decision: Decision) -> Option:
        if self.given == self.cut:
            raise _Cut
        self.given += 1
        return decision.options[self.answers[self.given - 1]]


def prefix_costs(engine: Engine, seeds: range, repeat: int) -> tuple[list[float], Counter[int],
                                                                      Recorder]:
    """µs to re-run a step from its start to each of its decisions (the copy not included), the
    steps' decision counts, and the recorder of every decision of turns 8-12."""
    costs: list[float] = []
    per_step: Counter[int] = Counter()
    recorder = Recorder()
    for seed in seeds:
        game = engine.new_game(DECKS, seed=seed, log_level="outcome", agents=[recorder] * 2)
        shared = shared_parts(engine, game)
        while not game.over and game.turn <= TURNS[-1]:
            if game.turn not in TURNS or game.step_index is None \
                    or game.step_index >= len(game.turn_steps):
                advance(game)
                continue
            start = deep_clone(game, shared)
            before = len(recorder.answers)
            advance(game)  # the step, recorded
            answers = recorder.answers[before:]
            per_step[len(answers)] += 1
            for cut in range(len(answers)):  # stop at decision cut + 1, cut answers given
                clones = [deep_clone(start, shared) for _ in range(repeat)]
                for clone in clones:
                    clone.agents = [Replayer(answers, cut)] * 2
                t0 = time.process_time()
                for clone in clones:
                    try:
                        run_next_step(clone)
                    except _Cut:
                        pass
                costs.append((time.process_time() - t0) / repeat * 1e6)
    return costs, per_step, recorder


# -- greenlet -----------------------------------------------------------------------------------

def greenlet_figures(engine: Engine, games: int, repeat: int) -> list[str]:
    try:
        from greenlet import getcurrent, greenlet
    except ImportError:
        return ["greenlet: not importable here (no project dependency; put it on PYTHONPATH "
                "from a throwaway location to measure it)"]
    import greenlet as greenlet_module

    def echo() -> None:
        parent = getcurrent().parent
        value = None
        while True:
            value = parent.switch(value)

    child = greenlet(echo)
    child.switch()
    n = 20000 * repeat
    switch = cpu_us(lambda: child.switch(1), n)

    class Outside:
        """Seated agent that hands the decision out of the game's greenlet and back."""

        def __init__(self, driver: Any) -> None:
            self.driver = driver

        def choose(self, game: Game, decision: Decision) -> Option:
            answer: Option = self.driver.switch(decision)
            return answer

    def direct(seed: int) -> int:
        return int(engine.play(DECKS, seed=seed, log_level="outcome").turn)

    decisions = 0

    def driven(seed: int) -> int:
        nonlocal decisions
        driver = getcurrent()
        game = engine.new_game(DECKS, seed=seed, log_level="outcome",
                               agents=[Outside(driver)] * 2)
        run = greenlet(lambda: game.play())
        decision = run.switch()
        agent = RandomAgent()  # answers outside the game's greenlet, as it would inside
        while not run.dead:
            decisions += 1
            decision = run.switch(agent.choose(game, decision))
        return game.turn

    seeds = list(range(games))
    rounds = []
    for _ in range(max(1, repeat)):
        decisions = 0
        t0 = time.process_time()
        direct_turns = sum(direct(s) for s in seeds)
        t1 = time.process_time()
        driven_turns = sum(driven(s) for s in seeds)
        t2 = time.process_time()
        rounds.append((t1 - t0, t2 - t1))
    d, g = (statistics.median(r[i] for r in rounds) for i in (0, 1))
    same = "same turns" if direct_turns == driven_turns else "DIFFERENT turns"
    return [f"greenlet {greenlet_module.__version__}: a switch out and back "
            f"{switch:.2f} µs",
            f"{games} games ({direct_turns / games:.1f} turns each) played directly "
            f"{d / games * 1e3:.2f} ms/game; in a greenlet "
            f"switching out at each of {decisions / games:.0f} decisions/game "
            f"{g / games * 1e3:.2f} ms/game ({(g - d) / max(decisions, 1) * 1e6:.2f} µs "
            f"per decision, {g / d - 1:+.1%}; {same})"]


# -- generators ---------------------------------------------------------------------------------

def generator_figures(depth: int, repeat: int) -> list[str]:
    """A decision handed up through ``depth`` frames: plain calls to an agent at the bottom, vs a
    chain of generators (``yield from`` at each level, answered by a driver at the top)."""

    def call(level: int) -> int:
        return call(level - 1) + 1 if level else 1  # the agent's answer

    def gen(level: int) -> Iterator[int]:
        if level:
            answer = yield from gen(level - 1)
            return answer + 1
        answer = yield 0
        return answer

    def through_generators() -> None:
        chain = gen(depth)
        next(chain)
        try:
            chain.send(1)
        except StopIteration:
            pass

    def asks_nothing() -> int:
        return 1

    def asks_nothing_gen() -> Iterator[int]:
        return 1
        yield  # a generator function: its callers must ``yield from`` it

    def caller() -> Iterator[int]:
        answer = yield from asks_nothing_gen()
        return answer

    def drive_caller() -> None:
        try:
            next(caller())
        except StopIteration:
            pass

    n = 20000 * repeat
    plain = cpu_us(lambda: call(depth), n)
    gens = cpu_us(through_generators, n)
    nothing = cpu_us(asks_nothing, n)
    nothing_gen = cpu_us(drive_caller, n)
    return [f"a decision through {depth} frames: plain calls {plain:.2f} µs, generators "
            f"(yield from at each level, driven from the top) {gens:.2f} µs "
            f"(+{gens - plain:.2f} µs per decision)",
            f"a call that asks nothing: plain {nothing:.2f} µs, a generator called with yield "
            f"from {nothing_gen:.2f} µs (+{nothing_gen - nothing:.2f} µs per call)"]


def path_calls(engine: Engine, functions: set[tuple[str, str]]) -> tuple[float, float]:
    """Calls per turn, in turns 8-12 of one game, of the functions decisions are asked through
    (what a generator design turns into generators), and of all Python functions."""
    game = engine.new_game(DECKS, seed=0, log_level="outcome")
    while advance(game) and game.turn < TURNS[0]:
        pass
    on_path = every = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal on_path, every
        if event == "call":
            every += 1
            code = frame.f_code
            if (code.co_filename.rsplit("/", 2)[-1], code.co_name) in functions:
                on_path += 1

    first = game.turn
    sys.setprofile(profile)
    try:
        while advance(game) and game.turn <= TURNS[-1]:
            pass
    finally:
        sys.setprofile(None)
    turns = max(1, game.turn - first)
    return on_path / turns, every / turns


# -- main ---------------------------------------------------------------------------------------

def median(values: list[float]) -> str:
    return f"{statistics.median(values):8.1f}" if values else "     n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=4, help="seeded games (states: turns 8-12)")
    parser.add_argument("--repeat", type=int, default=16, help="copies timed per state")
    args = parser.parse_args()
    seeds = range(args.seeds)
    engine = Engine.installed(allow=["alap"])
    engine.play(DECKS, seed=10**6, log_level="outcome")  # caches made once are not a copy's

    try:
        state = next(mid_game(engine, 0))
        copy.deepcopy(state)
        broken = "works"
    except Exception as exc:  # what breaks it, printed
        broken = f"refused: {type(exc).__name__}: {str(exc)[:90]}"

    deep: list[float] = []
    working: list[float] = []
    plain: list[float] = []
    rng: list[float] = []
    sizes: list[tuple[int, int, int]] = []
    same = checked = working_same = 0
    for seed in seeds:
        shared: dict[int, Any] = {}
        cut: Game | None = None
        for game in mid_game(engine, seed):
            shared = shared or shared_parts(engine, game)  # the game's own hook caches too
            sizes.append((len(game.permanents), len(game.effects),
                          sum(len(p.hand) + len(p.deck) + len(p.graveyard)
                              for p in game.players)))
            deep.append(cpu_us(lambda g=game, s=shared: deep_clone(g, s), args.repeat))
            working.append(cpu_us(lambda g=game: working_copy(g), args.repeat))
            plain.append(cpu_us(lambda g=game: plain_copy(g), args.repeat))
            rng.append(cpu_us(lambda g=game: rng_copy(g), args.repeat))
            if cut is None and game.turn == 10:
                cut, hand_cut = deep_clone(game, shared), working_copy(game)
        original = engine.play(DECKS, seed=seed, log_level="outcome")
        if cut is not None:
            checked += 1
            ending = (original.winner, original.turn, original.log.emitted)
            cut.play()
            hand_cut.play()
            same += (cut.winner, cut.turn, cut.log.emitted) == ending
            working_same += (hand_cut.winner, hand_cut.turn, hand_cut.log.emitted) == ending

    saves: list[float] = []
    for seed in seeds:
        for game in mid_game(engine, seed, level="full"):
            if game.turn == 10:
                saves.append(cpu_us(lambda g=game: load_game(engine, g.save()),
                                    max(1, args.repeat // 10)))

    prefix, per_step, recorder = prefix_costs(engine, seeds, max(1, args.repeat // 4))

    states = len(deep)
    mean = [statistics.mean(s[i] for s in sizes) for i in range(3)] if sizes else [0, 0, 0]
    print(f"## clone cost (µs of CPU per copy; medians over {states} step boundaries of turns "
          f"8-12, {args.seeds} seeded {DECKS[0]} vs {DECKS[1]} games, outcome level; a state "
          f"holds {mean[0]:.1f} permanents, {mean[1]:.1f} effects, {mean[2]:.0f} cards in "
          f"zones on average)")
    print(f"copy.deepcopy(game)                      {broken}")
    print(f"deepcopy of the state, engine shared     {median(deep)}   (played on: {same} of "
          f"{checked} clones ended as their original)")
    print(f"hand-written clone, caches rebuilt       {median(working)}   (played on: "
          f"{working_same} of {checked} clones ended as their original)")
    print(f"hand-written plain state (lower bound)   {median(plain)}")
    print(f"  of which the RNG state                 {median(rng)}")
    print(f"save_game + load_game (full level)       {median(saves)}")
    print(f"re-run a step's prefix to a decision     {median(prefix)}   (mean "
          f"{statistics.mean(prefix) if prefix else 0:.1f}, max "
          f"{max(prefix) if prefix else 0:.1f}; over {len(prefix)} decisions)")
    steps = sum(per_step.values())
    print(f"\n## decisions in turns 8-12 ({steps} steps, {sum(k * n for k, n in per_step.items())}"
          f" decisions)")
    print("decisions per step: " + ", ".join(f"{k}: {n}" for k, n in sorted(per_step.items())))
    print("frames between run_step and the decision (min-max), by kind: " + ", ".join(
        f"{kind} {min(d)}-{max(d)} (x{len(d)})" for kind, d in sorted(recorder.depth.items())))
    print(f"functions on those paths: {len(recorder.functions)} in "
          f"{len({f for f, _ in recorder.functions})} modules: " + ", ".join(
              sorted(f"{f}:{name}" for f, name in recorder.functions)))
    print("\n## handing a decision out")
    for line in generator_figures(8, args.repeat):
        print(line)
    functions = {f for f in recorder.functions if not f[0].startswith("bench_")}
    on_path, every = path_calls(engine, functions)
    print(f"calls per turn of the {len(functions)} functions on decision paths: {on_path:,.0f} "
          f"(of {every:,.0f} Python calls per turn)")
    for line in greenlet_figures(engine, max(2, args.seeds * 5), max(1, args.repeat // 10)):
        print(line)


if __name__ == "__main__":
    main()
