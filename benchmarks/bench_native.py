"""The native core beside the Python engine, on the same seeds and decks (one process, one core).

Run with ``python benchmarks/bench_native.py`` after ``pip install ./plugins/hkk-native``.
The native core plays whole games of every word of the card language but triggered abilities,
and refuses, by card and word, those: so the base set's decks are refused (it prints why and how
many of its cards are native), and what is timed is whole games of ``hkk_native.testset``, the
differential tests' cards (creatures, buildings, the spells of ``SPELLS`` and the permanents
with abilities of ``ABILITIES``; 30-card decks), at the outcome level, the native side as one
batched call with seated random agents (the engine's default agents).
It checks, on the seeds it times, that both cores gave the same winner and turn count.
"""

from __future__ import annotations

import argparse
import time

from hkk import Engine


def test_set_engine() -> Engine:
    """The native core's test set (``hkk_native.testset``, the differential tests' cards)."""
    from hkk_native.testset import test_set_cards

    return Engine(test_set_cards())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="Python games (native: x50)")
    args = parser.parse_args()
    try:
        import hkk_native
    except ImportError:
        raise SystemExit("hkk_native is not built: pip install ./plugins/hkk-native") from None
    base = Engine.installed()
    native_cards = sum(hkk_native.core.refuses(base, [[c] * 5, [c] * 5]) is None
                       for c in base.cards if c.startswith("alap:"))
    why = hkk_native.core.refuses(base, ["alap:tuz", "alap:viz"])
    print(f"base set: {native_cards} of {sum(c.startswith('alap:') for c in base.cards)} cards "
          f"native; alap:tuz vs alap:viz: {why}")

    engine = test_set_engine()
    ids = sorted(engine.cards)
    decks = [[ids[(3 * i) % len(ids)] for i in range(30)],
             [ids[(7 * i + 1) % len(ids)] for i in range(30)]]
    seeds = list(range(args.games))

    start = time.perf_counter()
    python = [engine.play(decks, seed=seed, log_level="outcome") for seed in seeds]
    python_time = time.perf_counter() - start

    hkk_native.play_many_native(engine, decks, seeds=seeds[:10])  # cards handed over once
    many = list(range(args.games * 50))
    start = time.perf_counter()
    native = hkk_native.play_many_native(engine, decks, seeds=many, log_level="outcome")
    native_time = time.perf_counter() - start
    same = sum((winner, turns) == (-1 if game.winner is None else game.winner, game.turn)
               for (winner, turns, _), game in zip(native, python, strict=False))
    turns = sum(t for _, t, _ in native) / len(native)

    python_rate, native_rate = args.games / python_time, len(many) / native_time
    print(f"whole games/s at the outcome level, the native test set, {turns:.1f} turns a game:")
    print(f"  python  {python_rate:12,.0f}  ({args.games} games)")
    print(f"  native  {native_rate:12,.0f}  ({len(many)} games, one batched call; "
          f"{native_rate / python_rate:,.0f}x)")
    print(f"  same winner and turns on {same} of {args.games} seeds")


if __name__ == "__main__":
    main()
