"""Turns per second for random agents on a synthetic board of creatures, each with one
automatic ability.  Prints a figure; run with ``python benchmarks/bench_turns.py`` (or the
whole suite, ``python benchmarks/run.py``).

Decks hold only an unaffordable copy of the creature, so the board keeps its size; the board
starts with ``--per-side`` creatures a side (5: the "10-creature board"), each with an automatic
end-of-turn ability."""

from __future__ import annotations

import argparse
import time

from hkk import Engine, RandomAgent, Rulings
from hkk._cards.loader import parse_card_data
from hkk._game import Game
from hkk._runner import play_turn, setup

CARDS = parse_card_data("bench", "cards/bench.toml", {"cards": [
    {"id": "bench:guard", "name": "Őr", "kind": "creature", "cost": {"vp": 99}, "damage": 1,
     "hp": 3, "abilities": [{"kind": "automatic", "timing": "end_stage2",
                            "effect": {"do": "modify", "stat": "hp", "by": 1, "target": "self",
                                       "duration": "until_end_of_turn"}}]},
]})

ENGINE = Engine(CARDS, rulings=Rulings(empty_deck_loses=False, unspent_vp_carries_over=False,
                                       max_turns=10**9))


def board(seed: int, per_side: int = 5, log_level: str = "full") -> Game:
    deck = ["bench:guard"] * 40
    game = ENGINE.new_game([deck, deck], (RandomAgent(2 * seed), RandomAgent(2 * seed + 1)),
                           seed=seed, log_level=log_level)
    setup(game)
    for player in game.players:
        player.hp = 10**9  # nobody loses: the benchmark measures turns, not games
    for player in (0, 1):
        for _ in range(per_side):
            game.enter_play(player, "bench:guard", active=True)
    return game


def time_turns(turns: int, per_board: int, seed: int, per_side: int = 5,
               log_level: str = "full") -> tuple[float, int, int]:
    """(CPU seconds, events emitted, creatures at the end) for ``turns`` turns, boards made
    outside the timed part."""
    elapsed = 0.0
    events = played = creatures = 0
    while played < turns:
        game = board(seed, per_side, log_level)
        seed += 1
        count = min(per_board, turns - played)
        start = time.process_time()
        for _ in range(count):
            play_turn(game)
        elapsed += time.process_time() - start
        played += count
        events += game.log.emitted
        creatures = len(game.creatures())
    return elapsed, events, creatures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=4000)
    parser.add_argument("--per-board", type=int, default=100,
                        help="turns played on one board before a fresh one (a game's length; "
                             "one endless game would time the growing log instead)")
    parser.add_argument("--per-side", type=int, default=5)
    parser.add_argument("--log-level", default="full")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    elapsed, events, creatures = time_turns(args.turns, args.per_board, args.seed,
                                            args.per_side, args.log_level)
    print(f"{args.turns} turns in {elapsed:.3f} s: {args.turns / elapsed:,.0f} turns/s "
          f"({events} events, {creatures} creatures in play at the end)")


if __name__ == "__main__":
    main()
