"""The strength table of the agents (issue 22): who beats whom, how fast, on one core.

Each row pits agent A against agent B on the base set's decks, both ways (A with alap:tuz, then
with alap:viz) and both seat orders (A as P1, then as P2): ``--games`` games in each of those
four cells, the same seeds in each.  Prints A's win rate with its 95% Wilson interval, the
games' endings, games/s of the pairing (this process's CPU time: one core, not the load), and
the decisions/s and mean seconds per searched decision of each lookahead agent.  The targets
of issue 22: greedy wins >= 85% against random; mcts at its default budget >= 60% against
greedy.  Run with ``python benchmarks/bench_agents.py`` (``--games 2`` for a smoke run); it
prints a Markdown table for the README.  Nothing here asserts anything.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

from hkk import Engine, make_agent
from hkk._agent_registry import agent_entries, agent_seed
from hkk._stats import wilson

DECKS = ("alap:tuz", "alap:viz")
PAIRINGS = [("greedy", "random"), ("mcts", "greedy"), ("mcts", "random")]


class Timed:
    """An agent whose ``choose`` time and searched decisions (more than one option) are
    counted."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.seconds = 0.0
        self.decisions = 0
        self.longest = 0.0

    def choose(self, view: Any, decision: Any) -> Any:
        start = time.process_time()
        try:
            return self.agent.choose(view, decision)
        finally:
            if len(decision.options) > 1:
                spent = time.process_time() - start
                self.seconds += spent
                self.decisions += 1
                self.longest = max(self.longest, spent)

    def __getattr__(self, name: str) -> Any:  # uses_forward_model and the like
        if name.startswith("__") or name == "agent":  # copying: no agent yet
            raise AttributeError(name)
        return getattr(self.agent, name)


def play_row(engine: Engine, a: str, b: str, games: int, seed: int,
             max_turns: int | None) -> dict[str, Any]:
    wins = played = 0
    endings: Counter[str] = Counter()
    timed: dict[str, list[Timed]] = {a: [], b: []}
    start = time.process_time()
    for deck_of_a in DECKS:
        other = DECKS[1] if deck_of_a == DECKS[0] else DECKS[0]
        for seat_of_a in (0, 1):
            for s in range(seed, seed + games):
                specs = [a, b] if seat_of_a == 0 else [b, a]
                decks = [deck_of_a, other] if seat_of_a == 0 else [other, deck_of_a]
                agents = [Timed(make_agent(spec, seed=agent_seed(s, i)))
                          for i, spec in enumerate(specs)]
                timed[a].append(agents[seat_of_a])
                timed[b].append(agents[1 - seat_of_a])
                game = engine.start(decks, agents, seed=s, log_level="outcome")
                game.play(max_turns=max_turns)
                played += 1
                wins += game.winner == seat_of_a
                endings[game.log.of_kind("game_over")[0]["reason"]] += 1
    seconds = time.process_time() - start
    low, high = wilson(wins, played)
    speed = {}
    for name in (a, b):
        decisions = sum(t.decisions for t in timed[name])
        spent = sum(t.seconds for t in timed[name])
        if name != "random" and decisions:
            longest = max(t.longest for t in timed[name])
            speed[name] = (decisions / spent if spent else float("inf"), spent / decisions,
                           longest)
    return {"a": a, "b": b, "games": played, "wins": wins, "rate": wins / played,
            "ci": (low, high), "endings": dict(endings), "games_per_s": played / seconds,
            "speed": speed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10,
                        help="games per cell (deck order x seat order): 4x this per row")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--max-turns", type=int, default=None)
    parser.add_argument("--rows", default=",".join(f"{a}/{b}" for a, b in PAIRINGS),
                        help="A/B pairs, comma separated (agent specs, e.g. mcts:budget=50/greedy)")
    args = parser.parse_args()
    engine = Engine.installed(allow=["alap"])
    agent_entries()  # fail early on a bad name
    rows = []
    for pair in args.rows.split(","):
        a, b = pair.split("/")
        row = play_row(engine, a, b, args.games, args.seed, args.max_turns)
        rows.append(row)
        print(f"{a} vs {b}: {row['wins']}/{row['games']} = {row['rate']:.1%} "
              f"(95% CI {row['ci'][0]:.1%}-{row['ci'][1]:.1%}); endings {row['endings']}; "
              f"{row['games_per_s']:.2f} games/s; " + "; ".join(
                  f"{name} {per_s:,.1f} decisions/s ({each * 1000:.1f} ms each, the longest "
                  f"{longest * 1000:.0f} ms)"
                  for name, (per_s, each, longest) in row["speed"].items()), flush=True)
    print()
    print("| A | B | games | A wins | 95% CI (Wilson) | endings | games/s (1 core) | "
          "A's searched decisions/s (mean, longest ms) |")
    print("|---|---|---:|---:|---|---|---:|---:|")
    for row in rows:
        speed = row["speed"].get(row["a"])
        print(f"| `{row['a']}` | `{row['b']}` | {row['games']} | {row['rate']:.0%} | "
              f"{row['ci'][0]:.0%}-{row['ci'][1]:.0%} | "
              f"{', '.join(f'{k} {v}' for k, v in sorted(row['endings'].items()))} | "
              f"{row['games_per_s']:.2f} | "
              f"{_speed(speed)} |")


def _speed(speed: tuple[float, float, float] | None) -> str:
    if not speed:
        return "-"
    return f"{speed[0]:,.1f} ({speed[1] * 1000:.0f}, {speed[2] * 1000:.0f})"


if __name__ == "__main__":
    main()
