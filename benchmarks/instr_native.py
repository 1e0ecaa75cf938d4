"""Work of the native core's seated games, for ``valgrind`` (``benchmarks/callgrind_native.sh``).

``python benchmarks/instr_native.py WHAT N``: N base-set games (``alap:tuz`` vs ``alap:viz``,
seeds 1..N, the engine's default seated random agents) in one batched call, WHAT being

- ``outcome``: ``hkk_native.play_many_native`` at the outcome level;
- ``full``: the same at the full level (the log kept natively, not read);
- ``rows``: the native side of ``hkk simulate --core native`` (the compiled engine's
  ``play_outcomes``: each game recorded natively, no Python ``Outcome`` built);
- ``tally``: the same tallied natively as ``hkk simulate`` without ``--csv`` asks for them
  (``tally_outcomes``: no row a game);
- ``answers``: N games answered from outside through Python (``hkk_native.core.new_game``
  with both seats None, ``game.answer(i)`` once a decision, ``bench_native.py``'s random
  answers), at the outcome level;
- ``determinize``: N ``determinize()`` copies with an ``hkk_native.Random`` at the game's
  200th decision (``bench_native.py``'s: the deciding player's view, each copy dropped).

One warm-up game is played first (the cards handed over, the modules imported), so that the
difference between a run with N and one with 0, divided by N, is the cost of one game.
"""

from __future__ import annotations

import sys

import hkk_native
from hkk_native import _core

from hkk import Engine

DECKS = ["alap:tuz", "alap:viz"]


def main() -> None:
    what, n = sys.argv[1], int(sys.argv[2])
    engine = Engine.installed()
    seeds = list(range(1, n + 1))
    level = "full" if what == "full" else "outcome"
    hkk_native.play_many_native(engine, DECKS, seeds=[0], log_level=level)
    lists = _core._checked(engine, DECKS, [0, *seeds])
    native = _core._native_engine(engine)
    native.play_outcomes((lists[0], lists[1]), [0], [_core._default_seats(0)])
    if what in ("answers", "determinize"):
        forward(engine, what, n)
        return
    if n == 0:
        return
    if what == "rows":
        native.play_outcomes((lists[0], lists[1]), seeds, _core._default_pass_bias())
    elif what == "tally":
        native.tally_outcomes((lists[0], lists[1]), seeds, _core._default_pass_bias())
    else:
        hkk_native.play_many_native(engine, DECKS, seeds=seeds, log_level=level)


def forward(engine: Engine, what: str, n: int) -> None:
    """``answers`` or ``determinize``: N of them after one warm-up of each."""
    import random

    def answered(seed: int, stop: int | None = None) -> object:
        game = hkk_native.core.new_game(engine, DECKS, seed=seed, agents=[None, None],
                                        log_level="outcome")
        rng = random.Random(seed)
        answers = 0
        while (decision := game.decision) is not None and answers != stop:
            game.answer(rng.randrange(len(decision.options)))
            answers += 1
        return game

    if what == "answers":
        answered(0)
        for seed in range(1, n + 1):
            answered(seed)
        return
    middle = answered(0, 200)
    dealer = hkk_native.Random(0)
    player = middle.decision.player  # type: ignore[attr-defined]
    middle.determinize(player, dealer)  # type: ignore[attr-defined]
    for _ in range(n):
        middle.determinize(player, dealer)  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
