"""The native core beside the Python engine, on the same seeds and decks (one process, one core).

Run with ``python benchmarks/bench_native.py`` after ``python plugins/hkk-native/install_pgo.py``
(the profile-guided build the README's test command installs; a plain ``pip install
./plugins/hkk-native`` costs ~15 % more instructions a game; the header says which is
installed).
The native core plays whole games of every word of the card language but ``custom`` (Python
code): timed are the base decks (``alap:tuz`` vs ``alap:viz``) and ``hkk_native.testset``'s,
the differential tests' cards, at the outcome level, the native side as one batched call with
seated random agents (the engine's default agents).
It prints games/s of CPU time at the outcome level (one batched call; and one game replayed as
many times, whose branches the CPU learns: the gap is what unpredictable branches cost), at the
full level (the log kept natively, not read) and as ``hkk simulate`` records them
(``NativeCore.play_outcomes``),
and checks, on the seeds it times, that both cores gave the same winner and turn count.
``benchmarks/run.py`` prints the same beside the floor.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from hkk import Engine


def test_set_engine() -> Engine:
    """The native core's test set (``hkk_native.testset``, the differential tests' cards)."""
    from hkk_native.testset import test_set_cards

    return Engine(test_set_cards())


def rate(games: int, work: Callable[[], object]) -> float:
    """Games per second of CPU time (``time.process_time``: waiting for a core not counted)."""
    start = time.process_time()
    work()
    return games / (time.process_time() - start)


def bench_native(games: int, floor_rate: float | None = None) -> None:
    """Print the native figures beside the Python engine's (and the floor's, when given): on
    the base decks, then on ``hkk_native.testset``'s."""
    try:
        import hkk_native
    except ImportError:
        print("\n## native core: hkk_native is not built "
              "(python plugins/hkk-native/install_pgo.py)")
        return
    from hkk_native.testset import test_set_decks

    base = Engine.installed()
    native_cards = sum(hkk_native.core.refuses(base, [[c] * 5, [c] * 5]) is None
                       for c in base.cards if c.startswith("alap:"))
    print(f"\n## native core ({hkk_native.BUILD} build; base set: {native_cards} of "
          f"{sum(c.startswith('alap:') for c in base.cards)} cards native)")
    _bench(hkk_native, base, ["alap:tuz", "alap:viz"], "alap:tuz vs alap:viz", games,
           floor_rate)
    engine = test_set_engine()
    _bench(hkk_native, engine, test_set_decks(engine.cards), "hkk_native.testset decks",
           games, floor_rate)


def _bench(hkk_native: Any, engine: Engine, decks: Any, label: str, games: int,
           floor_rate: float | None) -> None:
    seeds = list(range(games))
    python: list[Any] = []
    python_rate = rate(games, lambda: python.extend(
        engine.play(decks, seed=seed, log_level="outcome") for seed in seeds))

    hkk_native.play_many_native(engine, decks, seeds=seeds[:10])  # cards handed over once
    many = list(range(games * 50))
    native: list[tuple[int, int, int]] = []
    outcome_rate = rate(len(many), lambda: native.extend(
        hkk_native.play_many_native(engine, decks, seeds=many, log_level="outcome")))
    # one game played again and again: the CPU's branch predictor learns its branches (two
    # distinct games already blur it), so the gap to the varied games above is what the
    # game's unpredictable branches cost, a share instruction counts do not show
    replayed_rate = rate(len(many), lambda: hkk_native.play_many_native(
        engine, decks, seeds=[many[1]] * len(many), log_level="outcome"))
    replayed_events = hkk_native.play_many_native(engine, decks, seeds=[many[1]],
                                                  log_level="outcome")[0][2]
    full_rate = rate(len(many) // 5, lambda: hkk_native.play_many_native(
        engine, decks, seeds=many[:len(many) // 5], log_level="full"))
    simulate_rate = rate(len(many) // 5, lambda: hkk_native.core.play_outcomes(
        engine, decks, many[:len(many) // 5], names=("a", "b")))
    same = sum((winner, turns) == (-1 if game.winner is None else game.winner, game.turn)
               for (winner, turns, _), game in zip(native, python, strict=False))
    turns = sum(t for _, t, _ in native) / len(native)
    events = sum(e for _, _, e in native) / len(native)

    def line(name: str, figure: float, note: str) -> None:
        floor = f"{figure / floor_rate:8.3f}" if floor_rate else f"{'':8}"
        print(f"{name:<34} {figure:>10,.0f} {figure / python_rate:>9,.1f} {floor}   {note}")

    print(f"{label}: whole games/s of CPU time, {turns:.1f} turns and {events:,.0f} events a "
          "game")
    print(f"{'':<34} {'games/s':>10} {'x python':>9} {'x floor':>8}")
    line("python engine, outcome", python_rate, f"{games} games")
    line("native, outcome (one batched call)", outcome_rate, f"{len(many):,} games")
    line("native, outcome, one game replayed", replayed_rate,
         f"seed {many[1]} ({replayed_events:,} events) {len(many):,} times: the branches learnt "
         f"({replayed_rate * replayed_events / (outcome_rate * events):.2f}x the events/s)")
    line("native, full (log kept, not read)", full_rate, f"{len(many) // 5:,} games")
    line("native, simulate's outcome rows", simulate_rate,
         f"{len(many) // 5:,} games, recorded natively (NativeCore.play_outcomes)")
    print(f"same winner and turns on {same} of {games} seeds")
    _bench_forward(hkk_native, engine, decks, max(4, games // 10))


def _bench_forward(hkk_native: Any, engine: Engine, decks: Any, games: int) -> None:
    """The native forward model: whole games answered from outside through Python, one answer
    per call (random answers, ``hkk.ForwardModel``'s loop), ``clone()`` at a mid-game
    decision (the game's 200th answer, or its last), at the outcome and full levels, and
    ``determinize()`` there (a plain ``random.Random`` handed in, and an
    ``hkk_native.Random``)."""
    import random

    def answered(level: str) -> tuple[int, Any]:
        answers = 0
        middle = None
        for seed in range(games):
            game = hkk_native.core.new_game(engine, decks, seed=seed, agents=[None, None],
                                            log_level=level)
            rng = random.Random(seed)
            while (decision := game.decision) is not None:
                game.answer(rng.randrange(len(decision.options)))
                answers += 1
                if seed == 0 and (middle is None or answers <= 200):
                    middle = game.clone()
        return answers, middle

    answers, _ = answered("outcome")
    outside_rate = rate(games, lambda: answered("outcome"))
    print(f"native forward model: {answers / games:,.0f} answers a game")
    print(f"{'games answered from outside (outcome)':<44} {outside_rate:>10,.0f} games/s   "
          f"{games} games, one answer a call through Python")
    for level in ("outcome", "full"):
        _, middle = answered(level)
        n = 20_000 if level == "outcome" else 2_000
        def clones(middle: Any = middle, n: int = n) -> None:
            for _ in range(n):
                middle.clone()  # dropped at once, as a search's throw-away copies

        clone_rate = rate(n, clones)
        print(f"{'clone() at a mid-game decision (' + level + ')':<44} {clone_rate:>10,.0f} "
              f"clones/s (turn {middle.turn})")
    _, middle = answered("outcome")
    dealer = random.Random(0)
    player = middle.decision.player
    n = 5_000

    def determinized() -> None:
        for _ in range(n):
            middle.determinize(player, dealer)  # dropped at once, as a search's worlds

    determinize_rate = rate(n, determinized)
    print(f"{'determinize() at a mid-game decision (outcome)':<44} {determinize_rate:>10,.0f} "
          f"copies/s (turn {middle.turn}, a random.Random: its state handed over and back)")
    native_dealer = hkk_native.Random(0)
    n = 20_000

    def dealt() -> None:
        for _ in range(n):
            middle.determinize(player, native_dealer)

    dealt_rate = rate(n, dealt)
    print(f"{'determinize() with an hkk_native.Random':<44} {dealt_rate:>10,.0f} "
          "copies/s (drawn from in place)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="Python games (native: x50)")
    args = parser.parse_args()
    bench_native(args.games)


if __name__ == "__main__":
    main()
