"""The base set's whole decks on both cores at the outcome level, many seeds (docs/NATIVE.md).

Run with ``python benchmarks/native_base_outcomes.py [--games 100000]`` after
``pip install ./plugins/hkk-native``.  Every pairing of the base decks (``alap:tuz``,
``alap:viz``) in turn, seeds 0, 1, ... (games / 4 each), the engine's default agents: the
native core plays each pairing's seeds in one batched call (``play_many_native``), the Python
engine game by game; both must end alike - the same winner, turn count and number of events
emitted.  It prints the count of games compared and the first difference, if any (exit 1);
the full-log comparison of 2,000 of these games is in tests/test_native_differential.py.
"""

from __future__ import annotations

import argparse
import itertools
import time

from hkk import Engine

DECKS = ("alap:tuz", "alap:viz")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000, help="games in all")
    parser.add_argument("--chunk", type=int, default=1_000, help="seeds per batched call")
    parser.add_argument("--part", type=int, default=0,
                        help="this process's part of each pairing's seeds (0 .. parts - 1)")
    parser.add_argument("--parts", type=int, default=1,
                        help="processes sharing the seeds (run each with its --part)")
    args = parser.parse_args()
    try:
        import hkk_native
    except ImportError:
        raise SystemExit("hkk_native is not built: pip install ./plugins/hkk-native") from None
    engine = Engine.installed()
    pairings = list(itertools.product(DECKS, repeat=2))
    per_pairing = args.games // len(pairings)
    share = -(-per_pairing // args.parts)  # seeds of one part, rounded up
    mine = range(args.part * share, min((args.part + 1) * share, per_pairing))
    compared = 0
    start = time.perf_counter()
    for pairing in pairings:
        decks = list(pairing)
        for first in range(mine.start, mine.stop, args.chunk):
            seeds = list(range(first, min(first + args.chunk, mine.stop)))
            native = hkk_native.play_many_native(engine, decks, seeds=seeds)
            for seed, (winner, turns, emitted) in zip(seeds, native, strict=True):
                python = engine.play(decks, seed=seed, log_level="outcome")
                ours = (-1 if python.winner is None else python.winner, python.turn,
                        python.log.emitted)
                if (winner, turns, emitted) != ours:
                    raise SystemExit(f"{pairing} seed {seed}: native (winner, turns, events) "
                                     f"{(winner, turns, emitted)}, python {ours}")
                compared += 1
        print(f"{'-'.join(pairing)}: seeds {mine.start}-{mine.stop - 1} alike", flush=True)
    seconds = time.perf_counter() - start
    print(f"{compared} whole games of the base decks ended alike on both cores "
          f"(winner, turns, events emitted) in {seconds:.0f} s")


if __name__ == "__main__":
    main()
