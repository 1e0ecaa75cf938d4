"""The native core's memory: what a finished game keeps, and no growth over many games.

Run with ``python benchmarks/bench_native_memory.py`` after ``pip install ./plugins/hkk-native``.
Plays the base decks (``alap:tuz`` vs ``alap:viz``), or ``hkk_native.testset``'s with
``--decks testset``.  Prints, from the process's resident memory (``/proc/self/statm``, Linux):

- per game: the resident memory 2,000 finished native games kept alive add, divided by 2,000,
  at the outcome level and at the full level (the log kept natively, not read);
- growth: the resident memory after a warm-up batch, then after every tenth of ``--games``
  games played in batched calls (``play_many_native``, outcome level) - flat when nothing
  leaks.
"""

from __future__ import annotations

import argparse
import gc
import os
from typing import Any

from hkk import Engine

KEPT = 2000


def resident() -> int:
    """This process's resident memory in bytes."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def bench_native_memory(games: int, which: str = "base") -> None:
    import hkk_native
    from hkk_native.testset import test_set_cards, test_set_decks

    if which == "base":
        engine = Engine.installed()
        decks: Any = ["alap:tuz", "alap:viz"]
    else:
        engine = Engine(test_set_cards())
        decks = test_set_decks(engine.cards)
    print(f"\n## native core memory ({which} decks; resident memory, "
          f"{KEPT:,} finished games kept; {games:,} games for growth)")
    hkk_native.play_many_native(engine, decks, seeds=list(range(200)))  # warm: cards, arenas
    for level in ("outcome", "full"):
        gc.collect()
        before = resident()
        kept = [hkk_native.play_native(engine, decks, seed=s, log_level=level)
                for s in range(KEPT)]
        per_game = (resident() - before) / len(kept)
        events = sum(len(g.log) if level == "outcome" else g.emitted for g in kept[:20]) / 20
        print(f"{level:<8} {per_game / 1024:8.1f} KiB a finished game kept "
              f"({events:,.0f} events kept a game)")
        del kept
    gc.collect()
    batch = max(1, games // 10)
    start = resident()
    played = 0
    marks = []
    while played < games:
        seeds = list(range(played, min(played + batch, games)))
        hkk_native.play_many_native(engine, decks, seeds=seeds, log_level="outcome")
        played += len(seeds)
        marks.append(resident())
    growth = marks[-1] - start
    print(f"growth over {games:,} games in batches of {batch:,}: {growth / 1024:+,.0f} KiB "
          f"(resident {start / 2**20:,.1f} MiB -> {marks[-1] / 2**20:,.1f} MiB; after each "
          f"batch: {', '.join(f'{m / 2**20:.1f}' for m in marks)} MiB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--decks", choices=("base", "testset"), default="base")
    args = parser.parse_args()
    bench_native_memory(args.games, args.decks)


if __name__ == "__main__":
    main()
