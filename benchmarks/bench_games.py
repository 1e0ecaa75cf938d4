"""Full random games per second on the base set's decks (one process, one core).

Run with ``python benchmarks/bench_games.py``; needs the base set, which ships in the engine
(``pip install -e .``).  Prints games/s, mean turns and events per game, and the winners.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from hkk import Engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--decks", nargs=2, default=("alap:tuz", "alap:viz"))
    parser.add_argument("--core", default="auto", help="the core to run them on (hkk cores)")
    args = parser.parse_args()
    engine = Engine.installed(allow=["alap"], core=args.core)
    turns = events = 0
    results: Counter[str] = Counter()
    start = time.perf_counter()
    for seed in range(args.games):
        game = engine.start(list(args.decks), seed=seed)
        game.play()
        turns += game.turn
        events += len(game.log)
        last = game.log[-1]
        winner = "draw" if game.winner is None else f"P{game.winner + 1}"
        results[f"{last['reason']}:{winner}"] += 1
    elapsed = time.perf_counter() - start
    print(f"{args.games} games in {elapsed:.2f} s: {args.games / elapsed:,.1f} games/s; "
          f"{turns / args.games:.1f} turns and {events / args.games:,.0f} events per game; "
          f"endings {dict(sorted(results.items()))}")


if __name__ == "__main__":
    main()
