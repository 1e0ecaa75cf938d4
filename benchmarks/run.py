"""The benchmark suite: one command, ``python benchmarks/run.py`` (``--quick`` for a smoke run).

Prints, each measured in this run and each also as a ratio to the bare-loop floor of
``floor.py`` measured in the same run (how far the engine is from plain Python):

- random games/s per log level (full, compact, outcome) on the base set, and with ``mereg``
  mixed into both decks;
- turns/s on the synthetic board (``bench_turns.py``) at 5, 10, 50 and 200 creatures a side,
  and µs per creature per turn (linear cost: the figure stays flat as the board grows);
- memory per game per log level: the peak while it is played and what the finished game keeps;
- counted work (``bench_work.py``): the Python lines a base-set turn executes, step by step,
  next to the floor's turn, and lines per creature per turn on the synthetic board; counts,
  not times, so the same on every machine and under any load;
- the forward model (``bench_clone.py``): ``game.clone()``, ``determinize`` and ``answer`` at
  a decision, and games answered from outside against games of seated agents;
- the native core (``bench_native.py``, ``bench_native_memory.py``; when hkk-native is
  built): games/s at the outcome level (one batched call), at the full level (the log kept
  natively) and as ``hkk simulate`` records them, beside the Python engine and the floor; memory
  a finished native game keeps and the growth over 100,000 games in one process;
- start-up (``bench_startup.py``): ``import hkk``, importing the engine and building it with
  every installed set, in fresh interpreters; loading and validating 1,000 cards.

Timed parts are measured as this process's CPU time (``time.process_time``: on a shared
machine, waiting for a core is not counted), in rounds, the configurations interleaved within
each round, and the median round is printed.
Needs the base set (it ships in the engine) and mereg installed (``pip install -e . -e
sets/mereg``).  Nothing here asserts anything: it prints figures (tests/test_work_scales.py
asserts the counted linear cost).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench_clone  # noqa: E402
import bench_native  # noqa: E402
import bench_native_memory  # noqa: E402
import bench_startup  # noqa: E402
import bench_turns  # noqa: E402
import bench_work  # noqa: E402
import floor  # noqa: E402

from hkk import Engine  # noqa: E402
from hkk.verify import resolve_deck_spec  # noqa: E402

LEVELS = ("full", "compact", "outcome")
PAIRINGS = {"base set": ("alap:tuz", "alap:viz"),
            "base + mereg": ("alap:tuz+mereg", "alap:viz+mereg")}


def median_rate(rounds: int, work: Callable[[], float]) -> float:
    """The median over ``rounds`` of ``work()``, which returns a rate."""
    return statistics.median(work() for _ in range(rounds))


def timed(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def bench_floor(games: int, rounds: int) -> tuple[float, float]:
    """(floor games/s, floor µs per creature per turn on a 400-creature board)."""
    def games_per_s() -> float:
        return games / timed(lambda: [floor.floor_game(seed) for seed in range(games)])
    game_rate = median_rate(rounds, games_per_s)
    import random
    board = [[3, 0, 0] for _ in range(400)]
    rng = random.Random(1)
    log: list[tuple] = []

    def per_creature() -> float:
        turns = 50
        log.clear()
        return timed(lambda: [floor.floor_turn(rng, board, log) for _ in range(turns)]) \
            / turns / len(board) * 1e6
    return game_rate, median_rate(rounds, per_creature)


def bench_games(engine: Engine, games: int, rounds: int, floor_rate: float) -> None:
    print(f"\n## games/s ({games} seeded random games per round, median of {rounds} rounds)")
    print(f"{'decks':<14} {'level':<8} {'games/s':>9} {'turns':>6} {'events':>7} {'kept':>6} "
          f"{'x floor':>8}")
    for label, specs in PAIRINGS.items():
        decks = [resolve_deck_spec(engine, spec) for spec in specs]
        samples: dict[str, list[float]] = {level: [] for level in LEVELS}
        shape: dict[str, tuple[float, float, float]] = {}
        for _ in range(rounds):
            for level in LEVELS:  # interleaved: drift in the machine's speed hits all alike
                turns = emitted = kept = 0
                start = time.process_time()
                for seed in range(games):
                    game = engine.play(decks, seed=seed, log_level=level)
                    turns += game.turn
                    emitted += game.log.emitted
                    kept += len(game.log)
                samples[level].append(games / (time.process_time() - start))
                shape[level] = (turns / games, emitted / games, kept / games)
        for level in LEVELS:
            rate = statistics.median(samples[level])
            turns, emitted, kept = shape[level]
            print(f"{label:<14} {level:<8} {rate:>9,.1f} {turns:>6.1f} {emitted:>7,.0f} "
                  f"{kept:>6,.0f} {rate / floor_rate:>8.3f}")


def bench_boards(sizes: list[int], budget: int, rounds: int, floor_us: float) -> None:
    print(f"\n## synthetic board: turns/s and µs per creature per turn (median of {rounds})")
    print(f"{'a side':>6} {'level':<8} {'turns/s':>9} {'µs/creature/turn':>17} {'x floor':>8}")
    measured = []
    for per_side in sizes:
        turns = max(4, budget // per_side)
        for level in ("full", "outcome"):
            def run(per_side: int = per_side, level: str = level, turns: int = turns) -> float:
                elapsed, _, _ = bench_turns.time_turns(turns, min(100, turns), 1, per_side, level)
                return elapsed / turns
            per_turn = statistics.median(run() for _ in range(rounds))
            measured.append((per_side, level, per_turn, per_turn / (2 * per_side) * 1e6))
    # linear cost: µs per creature per turn stays flat; the issue compares with 10 a side
    reference = 10 if 10 in sizes else min(sizes)
    base = {level: us for per_side, level, _, us in measured if per_side == reference}
    for per_side, level, per_turn, us in measured:
        print(f"{per_side:>6} {level:<8} {1 / per_turn:>9,.0f} {us:>17.1f} "
              f"{us / floor_us:>8.1f}   ({us / base[level]:.2f}x {reference} a side)")


def bench_memory(engine: Engine) -> None:
    print("\n## memory per game (tracemalloc; seed 0, base set)")
    decks = list(PAIRINGS["base set"])
    for level in LEVELS:
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        game = engine.play(decks, seed=0, log_level=level)
        kept, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"{level:<8} peak {(peak - before) / 1024:>8,.0f} KiB   kept by the finished game "
              f"{(kept - before) / 1024:>8,.0f} KiB   ({len(game.log)} events kept)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per round and level")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 10, 50, 200],
                        help="creatures a side on the synthetic board")
    parser.add_argument("--budget", type=int, default=2000,
                        help="turns x creatures a side per board size and round")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: proves the suite runs")
    args = parser.parse_args()
    if args.quick:
        args.games, args.rounds, args.sizes, args.budget = 2, 1, [1, 2], 8
    engine = Engine.installed(allow=["alap", "mereg"])
    floor_games, floor_us = bench_floor(max(args.games, 20), args.rounds)
    print(f"python {sys.version.split()[0]}; the floor: {floor_games:,.0f} bare games/s, "
          f"{floor_us:.2f} µs per creature per turn")
    gc.freeze()  # the engine and cards are made; games then scan less
    bench_games(engine, args.games, args.rounds, floor_games)
    bench_boards(args.sizes, args.budget, args.rounds, floor_us)
    bench_memory(engine)
    # the native core (plugins/hkk-native), when built: the same figures beside these
    bench_native.bench_native(max(args.games, 20), floor_games)
    if "hkk_native" in sys.modules:
        bench_native_memory.bench_native_memory(1000 if args.quick else 100_000)
    bench_work.bench_work(min(args.games, 10), tuple(args.sizes), 1 if args.quick else 6)
    bench_startup.bench_startup(args.rounds)
    # the forward model (issue 21): clone, determinize and answer at a decision
    bench_clone.main(["--seeds", "1" if args.quick else "4", "--repeat",
                      "1" if args.quick else "20"])


if __name__ == "__main__":
    main()
