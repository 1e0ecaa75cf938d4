"""What the forward model costs (issue 21, docs/FORWARD-MODEL.md): copying a game at a decision,
answering from outside, and whole games driven from outside against the same games played by
seated agents.

Run with ``python benchmarks/bench_clone.py``; ``--seeds 1 --repeat 1`` for a smoke run.  The
states measured are the decisions of turns 8-12 of seeded ``alap:tuz`` vs ``alap:viz`` games,
player 1 answered from outside, player 2 a seeded random agent (the mid-game base set).  Prints
µs of this process's CPU time (``time.process_time``) per operation: medians (and mean, max)
over the decisions:

- ``game.clone()`` at the outcome log level (the target: at most 100 µs) and at the full level;
- ``game.determinize(player, rng)`` at the outcome level;
- ``game.clone()`` at the nested decisions alone (targets, attack, block, triggers...);
- ``game.answer(option)``: the machine runs on from its position to the next decision;
- determinize over clone (the target: at most 1.5x);
- whole games: played by seated agents (the runner calls them directly) and answered from
  outside by the same agents, in games/s, and whether their logs are the same;
- mcts simulations/s at budget 200 (``bench_mcts.py``);
- issue 30's four speed figures in one block, last: a seated game's counted work a turn,
  outside over seated at the outcome level (CPU, and lines and calls counted), clone µs and
  clones/s, determinize over clone, mcts simulations/s.

Each clone measured is also answered as its original was and checked to end as it did.
Figures only: nothing here asserts anything about them."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import bench_mcts
import bench_work

from hkk import Engine
from hkk._agents import RandomAgent
from hkk._game import Game

DECKS = ["alap:tuz", "alap:viz"]
TURNS = range(8, 13)


def cpu_us(work: Callable[[], object], repeat: int) -> float:
    """µs of CPU per call of ``work``, over ``repeat`` calls."""
    start = time.process_time()
    for _ in range(repeat):
        work()
    return (time.process_time() - start) / repeat * 1e6


def driven(engine: Engine, seed: int, level: str = "outcome") -> tuple[Game, RandomAgent]:
    game = engine.new_game(DECKS, seed=seed, log_level=level,
                           agents=[None, RandomAgent(seed + 1000)])
    return game, RandomAgent(seed)


def decisions(engine: Engine, seed: int, level: str) -> Iterator[tuple[Game, RandomAgent]]:
    """The game at each decision of turns 8-12 (the same object, answered in place after
    each yield)."""
    game, me = driven(engine, seed, level)
    while (decision := game.decision) is not None and game.turn <= TURNS[-1]:
        if game.turn in TURNS:
            yield game, me
        game.answer(me.choose(game.view(decision.player), decision))


def figure(name: str, values: list[float], unit: str = "µs") -> str:
    if not values:
        return f"{name:<52} (no states)"
    return (f"{name:<52} median {statistics.median(values):8.1f} {unit}   mean "
            f"{statistics.fmean(values):8.1f}   max {max(values):8.1f}   ({len(values)} states)")


def play_out(game: Game, me: RandomAgent) -> tuple[int | None, int]:
    while (decision := game.decision) is not None:
        game.answer(me.choose(game.view(decision.player), decision))
    return game.winner, game.log.emitted


def clone_figures(engine: Engine, seeds: range, repeat: int) -> list[str]:
    outcome: list[float] = []
    full: list[float] = []
    determinized: list[float] = []
    answers: list[float] = []
    nested: list[float] = []
    checked = same = 0
    for seed in seeds:
        for level, times in (("outcome", outcome), ("full", full)):
            for game, me in decisions(engine, seed, level):
                times.append(cpu_us(game.clone, repeat))
                if level == "outcome":
                    rng = random.Random(seed)
                    determinized.append(cpu_us(lambda g=game, r=rng: g.determinize(0, r), repeat))
                    decision = game.decision
                    assert decision is not None
                    option = me.choose(game.view(decision.player), decision)
                    clones = [game.clone() for _ in range(repeat)]
                    t0 = time.process_time()
                    for clone in clones:
                        clone.answer(option.label)
                    answers.append((time.process_time() - t0) / repeat * 1e6)
                    if len(game.machine.frames) > 3:  # a nested decision: deeper than a loop
                        nested.append(times[-1])
                    if len(answers) % 7 == 0:  # one clone in seven played to its end
                        clone = game.clone()
                        clone_me = RandomAgent()
                        clone_me.set_rng_state(me.rng_state() or ())
                        original = game.clone()
                        original_me = RandomAgent()
                        original_me.set_rng_state(me.rng_state() or ())
                        checked += 1
                        same += play_out(clone, clone_me) == play_out(original, original_me)
    SUMMARY["clone_us"] = statistics.median(outcome)
    SUMMARY["determinize_ratio"] = statistics.median(determinized) / statistics.median(outcome)
    return [
        figure("game.clone() at a decision, outcome log", outcome),
        figure("game.clone() at a decision, full log", full),
        figure("game.determinize(player, rng), outcome log", determinized),
        figure("game.clone() at a nested decision, outcome log", nested),
        figure("game.answer(option): on from the position, to the next", answers),
        f"determinize / clone (medians): "
        f"{statistics.median(determinized) / statistics.median(outcome):.2f}x",
        f"clones answered as their originals: {same} of {checked} ended as they did",
    ]


#: issue 30's speed figures, filled by the functions above as they measure (printed last)
SUMMARY: dict[str, Any] = {}


def outcome_ratio(engine: Engine, seeds: range, repeat: int) -> float:
    """CPU of whole games answered from outside over the same games with seated agents, at
    the outcome level (the median round)."""
    rounds = []
    for _ in range(max(1, repeat)):
        t0 = time.process_time()
        for s in seeds:
            engine.play(DECKS, seed=s, log_level="outcome",
                        agents=[RandomAgent(s), RandomAgent(s + 1000)])
        t1 = time.process_time()
        for s in seeds:
            play_out(*driven(engine, s, "outcome"))
        rounds.append((time.process_time() - t1) / (t1 - t0))
    return statistics.median(rounds)


def counted_ratio(engine: Engine, seeds: range) -> tuple[float, float]:
    """Python lines and calls of whole games answered from outside over the same games with
    seated agents, at the outcome level (bench_work's count: the same on every machine and
    under any load, where the CPU ratio moves; instructions: benchmarks/callgrind.sh)."""
    def seated() -> None:
        for s in seeds:
            engine.play(DECKS, seed=s, log_level="outcome",
                        agents=[RandomAgent(s), RandomAgent(s + 1000)])

    def outside() -> None:
        for s in seeds:
            play_out(*driven(engine, s, "outcome"))
    seated()  # caches made once are no game's
    (seated_lines, seated_calls), (lines, calls) = bench_work.count(seated), \
        bench_work.count(outside)
    return lines / seated_lines, calls / seated_calls


def summary(engine: Engine, seeds: range, repeat: int) -> list[str]:
    """Issue 30's four speed figures in one block (instructions: benchmarks/callgrind.sh)."""
    # bench_work's own figure: 10 base-set games, the base set alone installed
    turns, lines, calls = bench_work.base_set_work(Engine.installed(allow=["alap"]), 10)
    clone_us = SUMMARY["clone_us"]
    return [
        "## issue 30's speed figures (targets: docs/FORWARD-MODEL.md, 'Measured')",
        f"a seated base-set game, outcome level: {sum(lines.values()) / turns:,.0f} lines and "
        f"{sum(calls.values()) / turns:,.0f} calls a turn (bench_work, 10 games)",
        f"answered from outside / seated, outcome level: "
        f"{outcome_ratio(engine, seeds, repeat):.2f}x the CPU; counted: "
        "{:.3f}x the lines, {:.3f}x the calls".format(*counted_ratio(engine, seeds)),
        f"clone() at a decision, outcome level: {clone_us:.1f} µs, "
        f"{1e6 / clone_us:,.0f} clones/s",
        f"determinize / clone: {SUMMARY['determinize_ratio']:.2f}x",
        SUMMARY["mcts"],
    ]


def game_figures(engine: Engine, seeds: range, repeat: int) -> list[str]:
    """Games/s played by seated agents and answered from outside, and whether the logs match."""
    rounds = []
    same = True
    for _ in range(max(1, repeat)):
        t0 = time.process_time()
        direct = [engine.play(DECKS, seed=s, log_level="full",
                              agents=[RandomAgent(s), RandomAgent(s + 1000)]) for s in seeds]
        t1 = time.process_time()
        outside = []
        for s in seeds:
            game, me = driven(engine, s, "full")
            play_out(game, me)
            outside.append(game)
        t2 = time.process_time()
        rounds.append((t1 - t0, t2 - t1))
        same = same and all(a.log.as_dicts() == b.log.as_dicts()
                            for a, b in zip(direct, outside, strict=True))
    d, o = (statistics.median(r[i] for r in rounds) for i in (0, 1))
    n = len(seeds)
    return [f"whole games, full log: seated agents {n / d:8.1f} games/s; answered from outside "
            f"{n / o:8.1f} games/s ({o / d:.1f}x the time); "
            f"{'the same logs' if same else 'DIFFERENT logs'}"]


def main(argv: list[str] | None = None) -> list[str]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    engine = Engine.installed()
    seeds = range(args.seeds)
    lines = ["## the forward model (issues 21, 30): copies and answers, CPU µs per operation"]
    lines += clone_figures(engine, seeds, args.repeat)
    lines += game_figures(engine, seeds, max(1, args.repeat // 10))
    mcts = bench_mcts.figures(1 if args.repeat < 5 else 2)
    SUMMARY["mcts"] = mcts[0]
    lines += mcts
    lines += summary(engine, seeds, max(1, args.repeat // 10))
    for line in lines:
        print(line)
    return lines


if __name__ == "__main__":
    main()
