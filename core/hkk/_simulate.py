"""Many seeded games for balance testing (``hkk simulate``): the plan, the chunks and who plays
them - this process, local worker processes, or a Dask cluster.

The work is a list of :class:`Chunk` s, each one pairing and a run of consecutive seeds.  A chunk
is played by :func:`play_chunk` wherever it runs (it builds its own engine from the named sets),
and the results are put back in chunk order, so the outcomes - and every table made from them -
are the same whatever the number of workers or the scheduler.  When no row is written (``hkk
simulate`` without ``--csv``), :func:`tally_chunk` plays it and sends only its tally
(:class:`~hkk._outcome.Tally`), which the reports read: merged in any order, the same.  Each
game is ``hkk play --seed S --decks A B --set ...`` again (:func:`replay_command`).

A game stopped by a limit - a trigger loop or the work limit (D-trigger-loop, D-work-limit: counts,
so the same seed stops the same way everywhere), a step that never ends, or the chunk's
``game_timeout`` - or by a seated agent that raised or answered an option not offered
(:class:`~hkk._errors.AgentError`, naming the agent and its distribution) comes back as an
error row (``Outcome.error``) and the other games go on.
"""

from __future__ import annotations

import itertools
import shlex
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from hkk._ablation import ablated_list, add_fillers
from hkk._agent_registry import agent_entries, agent_failure, agent_seed
from hkk._engine import Engine
from hkk._errors import GameTimeout, HkkError, StepLoopError, TriggerLoopError
from hkk._limits import time_limit
from hkk._outcome import Outcome, OutcomeRecorder, Tally
from hkk._plugin import make_plugin_manager
from hkk._sets.discovery import discover
from hkk.verify import play_command, resolve_deck_spec

#: What stops one game and not the simulation: it becomes an error row.
GAME_LIMITS = (TriggerLoopError, StepLoopError, GameTimeout)

#: Games per chunk: small enough that Ctrl-C loses little and workers stay busy to the end,
#: large enough that sending a chunk costs nothing beside playing it.
CHUNK_SIZE = 25

#: Chunks handed to each local worker process ahead of its finishing one (``_on_processes``):
#: enough that a worker never waits for the main process, few enough that handing them out
#: stays cheap at a million games.
IN_FLIGHT_PER_WORKER = 4

#: Keep only what the outcome needs (the log levels of hkk._events).  The recorder subscribes
#: to its event kinds, so the outcome is the same at any level.
LOG_LEVEL = "outcome"

Progress = Callable[[int, int], None]  # (games done, games in all)


@dataclass(frozen=True)
class Chunk:
    """Games ``seeds[0] <= seed < seeds[1]`` of one pairing, with exactly the sets ``sets``."""

    index: int
    sets: tuple[str, ...]
    decks: tuple[str, str]
    seeds: tuple[int, int]
    max_turns: int | None = None
    #: The agents' specs, seat 1 and seat 2 (None: the engine's default random players, which
    #: are seeded from the game's seed and seat, as ``hkk play`` without ``--agents``).
    agents: tuple[str, str] | None = None
    #: CPU seconds a game may spend outside its agents, and an agent on one decision (None: no
    #: limit; hkk._limits); only where a signal can interrupt a game, the main thread of a
    #: process (here and in local workers, not in a Dask worker's thread).
    game_timeout: float | None = None
    #: The core the games run on (``hkk simulate --core``; hkk._cores).
    core: str = "auto"
    #: Cards replaced by their fillers in both decks (``hkk simulate --ablate``, hkk._ablation).
    ablate: tuple[str, ...] = ()

    @property
    def games(self) -> int:
        return self.seeds[1] - self.seeds[0]


#: Where ``simulate`` hands each chunk's rows (``on_rows``): the chunk and its rows.
RowsSink = Callable[[Chunk, list[dict[str, Any]]], None]


@dataclass
class Simulation:
    """What came back: the outcomes of the finished chunks, in chunk order (played with
    ``rows``), and their tally (:class:`~hkk._outcome.Tally`, what the reports read)."""

    chunks: list[Chunk]
    outcomes: list[Outcome] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0
    #: The finished chunks' tally; played without rows, the only result.
    tallied: Tally | None = None

    @property
    def planned(self) -> int:
        return sum(c.games for c in self.chunks)

    @property
    def tally(self) -> Tally:
        if self.tallied is None:
            self.tallied = Tally.of(self.outcomes)
        return self.tallied


def pairings(specs: Sequence[str]) -> list[tuple[str, str]]:
    """Every ordered pairing of different decks (each deck plays both seats); one deck alone
    plays the mirror match."""
    specs = sorted(dict.fromkeys(specs))
    if len(specs) == 1:
        return [(specs[0], specs[0])]
    return [(a, b) for a in specs for b in specs if a != b]


def plan(sets: Iterable[str], pairs: Sequence[tuple[str, str]], games: int, seed: int = 0,
         max_turns: int | None = None, chunk_size: int = CHUNK_SIZE,
         game_timeout: float | None = None,
         agents: Sequence[tuple[str, str] | None] = (None,), core: str = "auto",
         ablate: Sequence[tuple[str, ...]] = ((),)) -> list[Chunk]:
    """``games`` games split evenly over ``pairs`` (the first pairings get one more when it
    does not divide); each pairing plays seeds ``seed``, ``seed + 1``…  With several agent
    pairings (``hkk simulate --tiers``) each plays all of that again: the same games under
    each tier, the same seeds, so the tiers differ only in who plays.  ``ablate``: each entry
    plays all of that once more with those cards replaced by their fillers (``()``: as
    written), the same seeds again."""
    if not pairs:
        raise HkkError("no deck pairings to simulate")
    codes = tuple(sorted(sets))
    chunks: list[Chunk] = []
    for replaced in ablate:
        for players in agents:
            for k, pair in enumerate(pairs):
                count = games // len(pairs) + (k < games % len(pairs))
                for start in range(0, count, chunk_size):
                    stop = min(start + chunk_size, count)
                    chunks.append(Chunk(len(chunks), codes, pair, (seed + start, seed + stop),
                                        max_turns, players, game_timeout or None, core,
                                        tuple(replaced)))
    return chunks


def replay_command(chunk: Chunk, seed: int) -> str:
    """The ``hkk play`` command line that plays game ``seed`` of ``chunk`` again."""
    line = play_command(seed, chunk.decks, chunk.sets, chunk.max_turns)
    if chunk.agents is not None:
        line += f" --agents {shlex.quote(chunk.agents[0])} {shlex.quote(chunk.agents[1])}"
    if chunk.ablate:  # hkk play has no fillers: the command plays the decks as written
        line += f"  # with {', '.join(chunk.ablate)} replaced by fillers (hkk simulate --ablate)"
    return line


# -- playing a chunk (in whichever process it lands) ------------------------------------------

_ENGINES: dict[tuple[tuple[str, ...], str], tuple[Engine, dict[str, list[str]]]] = {}


def _engine(sets: tuple[str, ...], core: str = "auto") -> tuple[Engine, dict[str, list[str]]]:
    """An engine with exactly ``sets``, made once per process."""
    if (sets, core) not in _ENGINES:
        pm = make_plugin_manager()
        found = discover(allow=sets, deny=(), pm=pm)
        missing = sorted(set(sets) - set(found.sets))
        if missing:
            reasons = "; ".join(str(f) for f in found.failures) or "not installed here"
            raise HkkError(f"sets {', '.join(missing)} do not load in this worker: {reasons}")
        _ENGINES[sets, core] = (Engine(found.cards, decks=found.decks, pm=pm, discovery=found,
                                       core=core), {})
    return _ENGINES[sets, core]


def deck_lists(engine: Engine, specs: Iterable[str]) -> dict[str, list[str]]:
    return {spec: resolve_deck_spec(engine, spec) for spec in specs}


def _chunk_decks(chunk: Chunk) -> tuple[Engine, list[list[str]]]:
    """The engine of the chunk's sets and its two decks' card lists (ablated as it says)."""
    engine, lists = _engine(chunk.sets, chunk.core)
    for spec in chunk.decks:
        if spec not in lists:
            lists.update(deck_lists(engine, [spec]))
    decks = [lists[d] for d in chunk.decks]
    if chunk.ablate:
        add_fillers(engine.cards, chunk.ablate)  # new ids: the other games are unchanged
        decks = [ablated_list(deck, chunk.ablate) for deck in decks]
    return engine, decks


def _makers(chunk: Chunk) -> tuple[list[Any] | None, Any]:
    """The factories of the chunk's agents (None: the engine's default ones), and their
    registry."""
    if chunk.agents is None:
        return None, None
    registry = agent_entries()
    return [registry.factory(spec) for spec in chunk.agents], registry


def tally_chunk(chunk: Chunk) -> Tally:
    """Play the chunk's games; only their tally (what the reports read; small, whatever the
    games).  A core that tallies many games in one call (``tally_outcomes``) does it all:
    nothing per game in Python; otherwise the rows are played and tallied here."""
    engine, decks = _chunk_decks(chunk)
    makers, _ = _makers(chunk)
    core = _batching_core(engine, chunk, decks, makers, "tally_outcomes")
    if core is not None:
        seeds = list(range(*chunk.seeds))
        group = core.tally_outcomes(engine, decks, seeds, names=chunk.decks,
                                    agents=_agents(makers, seeds), agent_specs=chunk.agents,
                                    max_turns=chunk.max_turns, ablated=chunk.ablate)
        group.order = chunk.index
        return Tally({(group.agents, group.decks, group.ablated): group})
    return _tallied(chunk, play_chunk(chunk))


def play_and_tally_chunk(chunk: Chunk) -> tuple[list[dict[str, Any]], Tally]:
    """Play the chunk's games: their rows, and their tally made here, where they are played
    (``simulate``'s ``on_rows``: the process writing the rows out need not read them again)."""
    rows = play_chunk(chunk)
    return rows, _tallied(chunk, rows)


def _tallied(chunk: Chunk, rows: list[dict[str, Any]]) -> Tally:
    """The chunk's rows tallied, its groups ordered by the chunk's place in the plan."""
    tally = Tally()
    for row in rows:
        tally.add(Outcome.from_row(row))
    for group in tally.groups.values():
        group.order = chunk.index
    return tally


def play_chunk(chunk: Chunk) -> list[dict[str, Any]]:
    """Play the chunk's games; their outcomes as rows (plain data, for any transport)."""
    engine, decks = _chunk_decks(chunk)
    rulings = replace(engine.rulings, max_turns=chunk.max_turns) if chunk.max_turns \
        else engine.rulings
    # an alarm interrupts only the main thread; elsewhere (Dask) the watchdog would end the
    # worker's process: there the work limits are what stop a runaway game
    timeout = chunk.game_timeout if threading.current_thread() is threading.main_thread() \
        else None
    makers, registry = _makers(chunk)
    batched = _batched_rows(engine, chunk, decks, makers)
    if batched is not None:
        return batched
    rows = []
    for seed in range(*chunk.seeds):
        agents = None if makers is None else \
            [make(agent_seed(seed, seat)) for seat, make in enumerate(makers)]
        game = engine.start(decks, agents, seed=seed, rulings=rulings, log_level=LOG_LEVEL)
        recorder = OutcomeRecorder(game.log, seed, chunk.decks, chunk.agents)
        recorder.outcome.ablated = chunk.ablate
        try:
            with time_limit(timeout, partial(_where, chunk, seed, game), agents=agents or ()):
                game.play(max_turns=chunk.max_turns)
        except GAME_LIMITS as exc:  # this game stops; the others go on
            _stopped(recorder.outcome, game, exc)
        except Exception as exc:
            # an agent that raised or answered an option not offered: its game stops, the
            # others go on; anything else is the engine's or a set's bug and stops the run
            fault = None if chunk.agents is None else \
                agent_failure(exc, agents or (), chunk.agents, registry)
            if fault is None:
                raise HkkError(f"game failed in turn {game.turn}: {exc}; reproduce: "
                               f"{replay_command(chunk, seed)}") from exc
            _stopped(recorder.outcome, game, fault)
        rows.append(recorder.outcome.as_row())
    return rows


def _batched_rows(engine: Engine, chunk: Chunk, decks: list[list[str]],
                  makers: list[Any] | None) -> list[dict[str, Any]] | None:
    """The chunk's rows from a core that plays many games in one call and records their
    outcomes itself (``play_outcomes``, docs/CORES.md: nothing per event in Python); None when
    the game's core has no such call (the Python engine)."""
    core = _batching_core(engine, chunk, decks, makers, "play_outcomes")
    if core is None:
        return None
    seeds = list(range(*chunk.seeds))
    rows: list[dict[str, Any]] = core.play_outcomes(
        engine, decks, seeds, names=chunk.decks, agents=_agents(makers, seeds),
        agent_specs=chunk.agents, max_turns=chunk.max_turns)
    for row in rows:  # the decks played were the ablated ones: the rows say so
        row["ablated"] = list(chunk.ablate)
    return rows


def _agents(makers: list[Any] | None, seeds: list[int]) -> list[list[Any]] | None:
    """Each game's agents, seeded as ``hkk play`` seeds them (None: the default ones)."""
    if makers is None:
        return None
    return [[make(agent_seed(seed, seat)) for seat, make in enumerate(makers)]
            for seed in seeds]


def _batching_core(engine: Engine, chunk: Chunk, decks: list[list[str]],
                   makers: list[Any] | None, call: str) -> Any:
    """The core that plays the chunk's games if it has the batched ``call`` (docs/CORES.md:
    nothing per event in Python); None when it has not (the Python engine)."""
    if chunk.core == "python":
        return None
    sample = _agents(makers, [chunk.seeds[0]])
    # whole games, only their outcomes read: a core marked auto = "whole-games" may take them
    core = engine.choose_core(decks, whole_games=True, agents=sample[0] if sample else None,
                              max_turns=chunk.max_turns).core
    return core if hasattr(core, call) else None


def _stopped(outcome: Outcome, game: Any, error: BaseException) -> None:
    """The game's outcome as an error row: no winner, the error named."""
    outcome.winner, outcome.reason, outcome.turns = None, "error", game.turn
    outcome.error = f"{type(error).__name__}: {error}"


def _where(chunk: Chunk, seed: int, game: Any) -> str:
    return f"seed {seed}, turn {game.turn} ({game.log.step or 'start of turn'}); " \
           f"reproduce: {replay_command(chunk, seed)}"


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the main process, which stops handing out chunks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# -- who plays the chunks ---------------------------------------------------------------------

def simulate(chunks: list[Chunk], *, workers: int = 1, scheduler: str | None = None,
             dask_workers: int | None = None, progress: Progress | None = None,
             rows: bool = True, on_rows: RowsSink | None = None) -> Simulation:
    """Play ``chunks``: here (``workers=1``), in ``workers`` local processes, on the Dask
    scheduler at ``scheduler`` or on a Dask ``LocalCluster`` of ``dask_workers`` processes.
    Ctrl-C stops it: the finished chunks are kept (``interrupted`` is set).  Without ``rows``
    only the games' tally comes back (``Simulation.tally``; no ``outcomes``): a chunk sends
    a few counts per card, not a row per game.  With ``on_rows`` each chunk's rows are handed
    to it, in the plan's order, as soon as the chunks before it are in (each chunk tallied
    where it is played), and none is kept: a run of any size holds only the rows of the
    chunks that finished ahead of one still playing."""
    result = Simulation(chunks)
    done: dict[int, list[dict[str, Any]]] = {}
    tally = Tally()
    by_index = {chunk.index: chunk for chunk in chunks}
    in_order = None if on_rows is None else InOrder(
        sorted(by_index), lambda index, played: on_rows(by_index[index], played))
    total = result.planned
    count = 0

    def finished(index: int, played: Any) -> None:
        nonlocal count
        if in_order is not None:
            rows_played, part = played
            tally.merge(part)
            in_order.add(index, rows_played)
        elif rows:
            done[index] = played
        else:
            tally.merge(played)
        count += by_index[index].games
        if progress is not None:
            progress(count, total)

    work: Callable[[Chunk], Any] = play_and_tally_chunk if on_rows is not None else \
        play_chunk if rows else tally_chunk
    start = time.perf_counter()
    try:
        if scheduler is not None or dask_workers is not None:
            _on_dask(chunks, finished, scheduler, dask_workers, work)
        elif workers <= 1:
            for chunk in chunks:
                finished(chunk.index, work(chunk))
        else:
            _on_processes(chunks, finished, workers, work)
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - start
    if in_order is not None:
        in_order.rest()  # interrupted: the chunks that finished after one that did not
        result.tallied = tally
    elif rows:
        result.outcomes = [Outcome.from_row(row) for index in sorted(done)
                           for row in done[index]]
    else:
        result.tallied = tally
    return result


class InOrder:
    """Chunks' results handed on in the plan's order (``indices``, sorted), whatever order they
    finish in: each waits only for those planned before it."""

    def __init__(self, indices: list[int], hand_on: Callable[[int, Any], None]) -> None:
        self._due = iter(indices)
        self._next = next(self._due, None)
        self._waiting: dict[int, Any] = {}
        self._hand_on = hand_on

    def add(self, index: int, result: Any) -> None:
        self._waiting[index] = result
        while self._next in self._waiting:
            self._hand_on(self._next, self._waiting.pop(self._next))
            self._next = next(self._due, None)

    def rest(self) -> None:
        """Those still waiting (a chunk before them never finished), in order."""
        for index in sorted(self._waiting):
            self._hand_on(index, self._waiting.pop(index))


def _on_processes(chunks: list[Chunk], finished: Callable[[int, Any], None], workers: int,
                  work: Callable[[Chunk], Any]) -> None:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    # spawn: the main process may run threads (the progress display), which fork does not copy
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint,
                               mp_context=multiprocessing.get_context("spawn"))
    # a few chunks a worker in flight, the next handed out as one finishes: `wait` walks
    # every future it is given, so submitting all at once costs the main process (and the
    # workers, on as many cores) time quadratic in the chunks (6 s of a million games)
    queued = iter(chunks)
    pending: dict[Any, int] = {}

    def hand_out(count: int) -> None:
        for chunk in itertools.islice(queued, count):
            pending[pool.submit(work, chunk)] = chunk.index

    hand_out(IN_FLIGHT_PER_WORKER * workers)
    try:
        while pending:
            ready, _ = wait(pending, return_when=FIRST_COMPLETED)
            hand_out(len(ready))
            for future in ready:
                finished(pending.pop(future), future.result())
    except KeyboardInterrupt:
        # the chunks already running finish (workers ignore Ctrl-C): keep them too
        running = [f for f in pending if not f.cancel()]
        for future in wait(running).done:
            if future.exception() is None:
                finished(pending[future], future.result())
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _on_dask(chunks: list[Chunk], finished: Callable[[int, Any], None],
             scheduler: str | None, dask_workers: int | None,
             work: Callable[[Chunk], Any]) -> None:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise HkkError("Dask is not installed: pip install 'hkk[dask]'") from None
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=dask_workers or 1, threads_per_worker=1,
                               processes=True, dashboard_address=":0")  # any free port
    client = Client(cluster if cluster is not None else scheduler)
    futures: dict[Any, int] = {}
    try:
        for chunk in chunks:
            futures[client.submit(work, chunk, pure=False)] = chunk.index
        for future in as_completed(futures):
            finished(futures[future], future.result())
    except BaseException:
        client.cancel(list(futures))
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
