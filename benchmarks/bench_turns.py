"""Turns per second for random agents on a board of ten creatures, each with one automatic
ability (issue: engine core).  Prints a figure; run with ``python benchmarks/bench_turns.py``.

Decks hold only an unaffordable copy of the creature, so the board stays at ten; the
board starts with five creatures a side, each with an automatic end-of-turn ability."""

from __future__ import annotations

import argparse
import time

from hkk import Engine, RandomAgent, Rulings
from hkk._cards.loader import parse_card_data
from hkk._runner import play_turn, setup

CARDS = parse_card_data("bench", "cards/bench.toml", {"cards": [
    {"id": "bench:guard", "name": "Őr", "kind": "creature", "cost": {"vp": 99}, "damage": 1,
     "hp": 3, "abilities": [{"kind": "automatic", "timing": "end_stage2",
                            "effect": {"do": "modify", "stat": "hp", "by": 1, "target": "self",
                                       "duration": "until_end_of_turn"}}]},
]})


def board(seed: int):
    engine = Engine(CARDS, rulings=Rulings(empty_deck_loses=False, unspent_vp_carries_over=False,
                                           max_turns=10**9))
    deck = ["bench:guard"] * 40
    game = engine.new_game([deck, deck], (RandomAgent(), RandomAgent()), seed=seed)
    setup(game)
    for player in game.players:
        player.hp = 10**9  # nobody loses: the benchmark measures turns, not games
    for player in (0, 1):
        for _ in range(5):
            game.enter_play(player, "bench:guard", active=True)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=4000)
    parser.add_argument("--per-board", type=int, default=100,
                        help="turns played on one board before a fresh one (a game's length; "
                             "one endless game would time the growing log instead)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    elapsed = 0.0
    events = 0
    played = 0
    seed = args.seed
    while played < args.turns:
        game = board(seed)  # set up outside the timed part
        seed += 1
        count = min(args.per_board, args.turns - played)
        start = time.perf_counter()
        for _ in range(count):
            play_turn(game)
        elapsed += time.perf_counter() - start
        played += count
        events += len(game.log)
    print(f"{played} turns in {elapsed:.3f} s: {played / elapsed:,.0f} turns/s "
          f"({events} events, {len(game.creatures())} creatures in play at the end)")


if __name__ == "__main__":
    main()
