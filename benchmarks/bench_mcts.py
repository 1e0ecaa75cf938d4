"""mcts simulations per second of CPU (issue 30): the ``mcts`` agent at budget 200 searching
the first turns of seeded base-set games against a random agent, the same positions each run.
``python benchmarks/bench_mcts.py`` (``--turns 1`` for a smoke run).  Figures only."""

from __future__ import annotations

import argparse
import time

from hkk import Engine, RandomAgent
from hkk._mcts import MctsAgent

DECKS = ["alap:tuz", "alap:viz"]


def simulations_per_s(engine: Engine, turns: int, budget: int = 200,
                      seeds: range = range(2)) -> tuple[float, int]:
    """Simulations per CPU second over the first ``turns`` turns of each seed's game."""
    sims = 0
    spent = 0.0
    for seed in seeds:
        agent = MctsAgent(seed, budget=budget)
        game = engine.new_game(DECKS, seed=seed, agents=[agent, RandomAgent(seed + 1)],
                               log_level="outcome")
        start = time.process_time()
        game.play(max_turns=turns)
        spent += time.process_time() - start
        sims += agent.simulations
    return sims / spent, sims


def figures(turns: int) -> list[str]:
    rate, sims = simulations_per_s(Engine.installed(), turns)
    return [f"mcts (budget 200): {rate:,.0f} simulations/s of CPU ({sims} simulations)"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2)
    args = parser.parse_args(argv)
    for line in figures(args.turns):
        print(line)


if __name__ == "__main__":
    main()
