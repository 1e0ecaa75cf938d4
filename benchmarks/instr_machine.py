"""Instruction counts of the turn machine (issue 30), for ``valgrind --tool=callgrind``.

``python benchmarks/instr_machine.py WHAT N``: WHAT is

- ``seated``: N seated base-set games (``alap:tuz`` vs ``alap:viz``, seeds 0..N-1, outcome
  level, two seeded random agents);
- ``outside``: the same N games, player 1 answered from outside by the same agent;
- ``clone`` / ``determinize``: one game answered from outside to each decision of turns
  8-12, copied N times there (outcome level).

Run each under callgrind with N and with 0: the difference over the work done is the cost of
one game or one copy (``benchmarks/callgrind.sh`` does it).  Prints the number of copies or
games, for the division."""

from __future__ import annotations

import random
import sys

from hkk import Engine, GameClock, RandomAgent

DECKS = ["alap:tuz", "alap:viz"]


def still() -> float:
    """A time source that never moves: the clock's readings cost the same in every run."""
    return 0.0


def main() -> None:
    what, n = sys.argv[1], int(sys.argv[2])
    engine = Engine.installed()
    if what in ("seated", "outside"):
        for seed in range(n):
            if what == "seated":
                engine.play(DECKS, seed=seed, log_level="outcome", clock=GameClock(still),
                            agents=[RandomAgent(seed), RandomAgent(seed + 1000)])
                continue
            game = engine.new_game(DECKS, seed=seed, log_level="outcome",
                                   clock=GameClock(still),
                                   agents=[None, RandomAgent(seed + 1000)])
            me = RandomAgent(seed)
            while (decision := game.decision) is not None:
                game.answer(me.choose(game.view(decision.player), decision))
        print(n)
        return
    game = engine.new_game(DECKS, seed=1, log_level="outcome", clock=GameClock(still),
                           agents=[None, RandomAgent(1001)])
    me = RandomAgent(1)
    rng = random.Random(5)
    copies = 0
    while (decision := game.decision) is not None and game.turn <= 12:
        if game.turn >= 8:
            for _ in range(n):
                if what == "clone":
                    game.clone(log_level="outcome")
                else:
                    game.determinize(decision.player, rng, log_level="outcome")
                copies += 1
        game.answer(me.choose(game.view(decision.player), decision))
    print(copies)


if __name__ == "__main__":
    main()
