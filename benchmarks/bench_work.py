"""Counted work: the Python lines a turn executes and the functions it calls.

A timing on a shared machine drifts with the load; a count does not.  The same seed executes the
same lines on every machine, so these figures compare across machines and runs, and a change that
makes the engine do more per turn shows here exactly (within a Python version: each version
counts its own bytecode a little differently).  Run with ``python benchmarks/bench_work.py``, or
as part of ``run.py``.

Prints:

- the base set at the outcome level: lines and calls in a mean turn, and in each step of it,
  next to the floor's turn (``floor.py``): how much of a turn each step costs, counted;
- the synthetic board (``bench_turns.py``): lines per creature per turn once the board has
  settled (the first turns move the creatures to the guard post one decision at a time, and
  each such decision offers every creature still in reserve), as a ratio to 10 a side: the
  linear-cost target, counted.

Counting slows Python down many times, so the figures come from a few games and turns; they are
exact for those."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import bench_turns
import floor

import hkk._runner as runner
from hkk import Engine
from hkk._runner import play_turn


class Tally:
    """Lines executed and Python function calls, counted while :meth:`counting` is open."""

    def __init__(self) -> None:
        self.lines = 0
        self.calls = 0

    def _call(self, frame: Any, event: str, arg: Any) -> Any:
        self.calls += 1  # a generator resumed counts as a call, as it costs one
        return self._line

    def _line(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines += 1
        return self._line

    @contextmanager
    def counting(self) -> Iterator[Tally]:
        previous = sys.gettrace()
        sys.settrace(self._call)
        try:
            yield self
        finally:
            sys.settrace(previous)


def count(work: Callable[[], object]) -> tuple[int, int]:
    """(lines, calls) of ``work()``."""
    tally = Tally()
    with tally.counting():
        work()
    return tally.lines, tally.calls


def floor_turn_work(creatures: int) -> tuple[int, int]:
    """(lines, calls) of one bare-loop turn over a board of ``creatures``."""
    import random
    board = [[3, 0, 0] for _ in range(creatures)]
    rng = random.Random(1)
    return count(lambda: floor.floor_turn(rng, board, []))


def base_set_work(engine: Engine, games: int,
                  level: str = "outcome") -> tuple[int, Counter[str], Counter[str]]:
    """(turns, lines per step hook, calls per step hook) over ``games`` seeded base-set games at
    the log ``level``; what happens between steps is counted under ``(between steps)``."""
    lines: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    tally = Tally()
    run_step = runner.run_step

    def counted_step(game: Any, step: Any) -> Any:
        before = tally.lines, tally.calls
        try:
            return run_step(game, step)
        finally:
            lines[step.hook] += tally.lines - before[0]
            calls[step.hook] += tally.calls - before[1]

    decks = ["alap:tuz", "alap:viz"]
    engine.play(decks, seed=10**6, log_level=level)  # caches made once are not a turn's
    turns = 0
    runner.run_step = counted_step  # run_next_step finds it here
    try:
        with tally.counting():
            for seed in range(games):
                turns += engine.play(decks, seed=seed, log_level=level).turn
    finally:
        runner.run_step = run_step
    lines["(between steps)"] = tally.lines - sum(lines.values())
    calls["(between steps)"] = tally.calls - sum(calls.values())
    return turns, lines, calls


def board_work(per_side: int, settle: int = 4, turns: int = 6,
               log_level: str = "outcome") -> float:
    """Lines per creature per turn on the synthetic board with ``per_side`` creatures a side,
    over ``turns`` turns after ``settle`` turns that are not counted."""
    game = bench_turns.board(1, per_side, log_level)
    for _ in range(settle):
        play_turn(game)
    lines = creatures = 0
    for _ in range(turns):
        creatures += len(game.creatures())
        lines += count(lambda: play_turn(game))[0]
    return lines / creatures


def bench_work(games: int = 10, sizes: tuple[int, ...] = (5, 10, 50, 200),
               turns: int = 6, level: str = "outcome") -> None:
    engine = Engine.installed(allow=["alap"])
    floor_lines, floor_calls = floor_turn_work(4)
    played, lines, calls = base_set_work(engine, games, level)
    print(f"\n## counted work per turn (Python lines executed and calls; {games} base-set games "
          f"at the {level} level)")
    print(f"{'step':<20} {'lines':>8} {'calls':>7} {'share':>6}")
    total_lines, total_calls = sum(lines.values()), sum(calls.values())
    for hook, n in lines.most_common():
        print(f"{hook:<20} {n / played:>8,.0f} {calls[hook] / played:>7,.0f} "
              f"{n / total_lines:>6.0%}")
    print(f"{'a turn':<20} {total_lines / played:>8,.0f} {total_calls / played:>7,.0f}   "
          f"({total_lines / played / floor_lines:.0f}x the floor's turn: {floor_lines:,} lines, "
          f"{floor_calls} calls)")
    print(f"\nsynthetic board: lines per creature per turn in turns 1-4, and settled in turns "
          f"5-{4 + turns}")
    first = {n: board_work(n, settle=0, turns=4) for n in sizes}
    settled = {n: board_work(n, turns=turns) for n in sizes}
    reference = 10 if 10 in sizes else min(sizes)
    for n in sizes:
        print(f"{n:>6} a side   turns 1-4 {first[n]:>7,.0f} ({first[n] / first[reference]:.2f}x "
              f"{reference} a side)   settled {settled[n]:>7,.0f} "
              f"({settled[n] / settled[reference]:.2f}x {reference} a side)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 10, 50, 200])
    parser.add_argument("--turns", type=int, default=6,
                        help="counted settled turns per board size")
    parser.add_argument("--level", default="outcome", help="the base-set games' log level")
    args = parser.parse_args()
    bench_work(args.games, tuple(args.sizes), args.turns, args.level)


if __name__ == "__main__":
    main()
