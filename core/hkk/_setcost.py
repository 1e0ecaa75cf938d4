"""What a set costs in speed (``hkk verify``'s cost check): the same seeded games on the decks
of the sets it depends on, played by an engine with those sets alone and by one with the set
too.  A set whose hooks make these games more than ``max_factor`` times slower fails, so a slow
community set is caught before its users feel it.

Each seed is played by both engines one after the other, and the factor is the median of the
per-game ratios: a moment of load on a shared machine slows a game or two, not the median.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hkk._runner import play_game

#: Games with the set may be this many times slower than without it (``--max-slowdown``).
DEFAULT_MAX_FACTOR = 3.0


@dataclass
class SetCost:
    code: str
    games: int
    base_rate: float  # games/s with the dependencies alone
    with_rate: float  # games/s with the set too
    factor: float  # median per-game time ratio, with / without
    max_factor: float

    @property
    def ok(self) -> bool:
        return self.factor <= self.max_factor

    def message(self) -> str:
        verdict = "within" if self.ok else "more than"
        # a factor under 1 is a speed-up: "0.98x slower" would read as a slow-down
        pace = f"{self.factor:.2f}x slower" if self.factor >= 1 else \
            f"{1 / self.factor:.2f}x faster" if self.factor > 0 else "no slower"
        return (f"{self.games} game(s) on its dependencies' decks: {self.base_rate:,.1f} "
                f"games/s without the set, {self.with_rate:,.1f} with it: {pace} "
                f"({verdict} the limit of {self.max_factor:g}x slower)")


def measure(code: str, without: Any, with_set: Any,
            decks: Sequence[tuple[list[str], list[str]]], *, games: int, seed: int = 0,
            max_turns: int | None = None, max_factor: float = DEFAULT_MAX_FACTOR,
            clock: Callable[[], float] = time.perf_counter) -> SetCost:
    """Play ``games`` seeded games (pairing ``i % len(decks)``) on both engines; ``clock``
    is injectable (tests use a fake one)."""
    def play(engine: Any, pair: tuple[list[str], list[str]], game_seed: int) -> Any:
        rulings = replace(engine.rulings, max_turns=max_turns) if max_turns else engine.rulings
        return engine.new_game(list(pair), seed=game_seed, rulings=rulings)

    # One untimed game each first: an engine's first game pays once for what later games
    # reuse (hook implementations looked up, a set's modules imported), which with few games
    # made a cheap set look up to 2.7x slower.
    for engine in (without, with_set):
        play_game(play(engine, decks[0], seed), max_turns=max_turns)
    ratios: list[float] = []
    spent = [0.0, 0.0]
    for i in range(games):
        pair = decks[i % len(decks)]
        took = []
        for engine in (without, with_set):
            game = play(engine, pair, seed + i)
            start = clock()
            play_game(game, max_turns=max_turns)
            took.append(max(clock() - start, 1e-9))
        spent[0] += took[0]
        spent[1] += took[1]
        ratios.append(took[1] / took[0])
    return SetCost(code, games, games / spent[0], games / spent[1],
                   statistics.median(ratios), max_factor)
