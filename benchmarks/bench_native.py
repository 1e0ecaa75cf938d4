"""The native core beside the Python engine, on the same seeds and decks (one process, one core).

Run with ``python benchmarks/bench_native.py`` after ``pip install ./plugins/hkk-native``.
The native core refuses whole games today (the turn, 29.4 and 41, is not native yet: it prints
why), so what is timed is what both cores run: the setup (K 3.6-3.12, 28: shuffle, the start
decision, five cards each) at the outcome level, the native one as one batched call with seated
random agents.  It also checks, on the seeds it times, that both cores chose the same starting
player.
"""

from __future__ import annotations

import argparse
import time

from hkk import Engine, advance


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--decks", nargs=2, default=("alap:tuz", "alap:viz"))
    args = parser.parse_args()
    try:
        import hkk_native
    except ImportError:
        raise SystemExit("hkk_native is not built: pip install ./plugins/hkk-native") from None
    engine = Engine.installed(allow=["alap"])
    decks = list(args.decks)
    seeds = list(range(args.games))
    print(f"whole games natively: {hkk_native.core.refuses(engine, decks) or 'yes'}")

    start = time.perf_counter()
    python_starters = []
    for seed in seeds:
        game = engine.new_game(decks, seed=seed, log_level="outcome")
        advance(game)  # the setup only
        python_starters.append(game.active)
    python_time = time.perf_counter() - start

    hkk_native.play_many_native(engine, decks, seeds=seeds[:10])  # cards handed over once
    start = time.perf_counter()
    native = hkk_native.play_many_native(engine, decks, seeds=seeds, log_level="outcome")
    native_time = time.perf_counter() - start
    same = sum(a == b for (a, _), b in zip(native, python_starters, strict=True))

    print(f"setups/s at the outcome level, {args.games} seeds, {' vs '.join(decks)}:")
    print(f"  python  {args.games / python_time:12,.0f}")
    print(f"  native  {args.games / native_time:12,.0f}  "
          f"({python_time / native_time:,.0f}x; one batched call)")
    print(f"  same starting player on {same} of {args.games} seeds")


if __name__ == "__main__":
    main()
