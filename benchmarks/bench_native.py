"""The native core beside the Python engine, on the same seeds and decks (one process, one core).

Run with ``python benchmarks/bench_native.py`` after ``pip install ./plugins/hkk-native``.
The native core plays whole games of cards without abilities and of spells of the verbs and
targets it implements, and refuses, by card and word, the rest of the card language: so the
base set's decks are refused (it prints why), and what is timed is whole games of the test set
of tests/test_native_differential.py (ten creatures, two buildings, six spells; 30-card decks),
at the outcome level, the native side as one batched call with seated random agents.
It checks, on the seeds it times, that both cores gave the same winner and turn count.
"""

from __future__ import annotations

import argparse
import time

from hkk import Engine


def test_set_engine() -> Engine:
    """The test set of tests/test_native_differential.py (``spell_engine``)."""
    import sys
    from pathlib import Path

    from hkk._cards.model import BuildingCard, CreatureCard, SpellCard

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from test_native_differential import SPELLS

    cards: dict[str, object] = {
        f"tt:beast{i}": CreatureCard(id=f"tt:beast{i}", name=f"Beast {i}",
                                     cost={"vp": i % 4, "components": 1 if i == 7 else 0},
                                     damage=1 + i % 5, hp=1 + i % 3, components=i % 3)
        for i in range(10)}
    cards |= {f"tt:wall{i}": BuildingCard(id=f"tt:wall{i}", name=f"Wall {i}",
                                         cost={"vp": 1 + i}, sp=2 + i) for i in range(2)}
    for name, (vp, instant, effects) in SPELLS.items():
        cards[f"tt:{name}"] = SpellCard(id=f"tt:{name}", name=name.title(), cost={"vp": vp},
                                        instant=instant, effects=effects)
    return Engine(cards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="Python games (native: x50)")
    args = parser.parse_args()
    try:
        import hkk_native
    except ImportError:
        raise SystemExit("hkk_native is not built: pip install ./plugins/hkk-native") from None
    base = Engine.installed(allow=["alap"])
    print(f"base set natively: {hkk_native.core.refuses(base, ['alap:tuz', 'alap:viz'])}")

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
