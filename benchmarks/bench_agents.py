"""The strength table of the agents (issue 22, issue 32 item 2): who beats whom, how fast, on one
core, and which cards an agent never plays.

Each row pits agent A against agent B on the base set's decks, both ways (A with alap:tuz, then
with alap:viz) and both seat orders (A as P1, then as P2): N games in each of those four cells,
the same seeds in each.  Prints A's win rate with its 95% **Wilson score interval**, the games'
endings, games/s of the pairing (this process's CPU time: one core, not the load), and the
decisions/s and mean seconds per searched decision of each lookahead agent, and whether the
row's target is met: greedy >= 95% against random; mcts at its default budget (200) >= 65%
against greedy with the interval's low end above 55%; mcts at budget 1,000 beats mcts at 200
with the interval above 50%.  A target is "met" only when the 95% interval is on its side of
the threshold, "missed" when it is wholly on the other, else "undecided (more games)": a row
too small to decide says so rather than guess.

Then the **never-played check**: per agent, each base-set card's play rate when drawn over all
its games, and the cards random agents played that the agent drew and never played (the check
passes when there are none; a card it never drew is listed apart, as not judged).

Each default row plays as many games as a run can afford (:data:`ROW_GAMES`): greedy's games
take a fraction of a second, so its row decides its target; the Python mcts takes about a
second a decision at budget 200 (five at 1,000), so its rows are bounded and print what they
afford, usually "undecided".  ``--games N`` plays N games per cell in every row (``--games 1``
for a smoke run); ``--rows greedy/random@50,mcts/greedy@3`` chooses rows and their games.  It
prints a Markdown table for the README.  Nothing here asserts anything.

``--core native`` plays the rows on the native core (``hkk-native``: greedy and mcts search
natively, src/search.rs; they do not draw as the Python agents, so its rows are their own),
each cell's games in one batched call as ``hkk simulate`` plays them, with larger default rows
(:data:`NATIVE_ROW_GAMES`); the speed column is then measured apart, on a few games of each
searching agent against random (ms per searched decision, from the native agents' own count),
and it prints the estimated CPU time of ``hkk simulate --tiers random,greedy,mcts -n 1000``
on the base decks.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

from hkk import Engine, make_agent
from hkk._agent_registry import agent_entries, agent_seed
from hkk._outcome import OutcomeRecorder
from hkk._stats import wilson

DECKS = ("alap:tuz", "alap:viz")
PAIRINGS = [("greedy", "random"), ("mcts", "greedy"), ("mcts:budget=1000", "mcts")]

#: Games per cell (4 cells a row) of each default row: what a run of some 20 minutes on one
#: core affords (greedy's 200 games take about a minute, an mcts game some 40 CPU-s at budget
#: 200 and several minutes with a budget of 1,000 on one side).
ROW_GAMES = {("greedy", "random"): 50, ("mcts", "greedy"): 2, ("mcts:budget=1000", "mcts"): 1}

#: The default rows' games per cell on the native core (some 15 minutes on one core).
NATIVE_ROW_GAMES = {("greedy", "random"): 100, ("mcts", "greedy"): 40,
                    ("mcts:budget=1000", "mcts"): 8}

#: Per row: A's win rate it should reach, and the value the interval's low end must exceed.
TARGETS = {("greedy", "random"): (0.95, 0.95), ("mcts", "greedy"): (0.65, 0.55),
           ("mcts:budget=1000", "mcts"): (0.50, 0.50)}

#: Per agent spec: card -> [games drawn, games played when drawn] over all its games.
PLAYS: dict[str, dict[str, list[int]]] = {}


def verdict(row: dict[str, Any]) -> str:
    target = TARGETS.get((row["a"], row["b"]))
    if target is None:
        return "-"
    rate, low_end = target
    low, high = row["ci"]
    if low > low_end and row["rate"] >= rate:
        return f"met (>= {rate:.0%}, low end > {low_end:.0%})"
    if high < rate:
        return f"missed (< {rate:.0%})"
    return f"undecided (target {rate:.0%}, low end > {low_end:.0%}: more games)"


def count_plays(spec: str, recorder: OutcomeRecorder, seat: int) -> None:
    o = recorder.outcome
    cards = PLAYS.setdefault(spec, {})
    for card in o.drawn[seat]:
        c = cards.setdefault(card, [0, 0])
        c[0] += 1
        c[1] += bool(o.played[seat][card])


class Timed:
    """An agent whose ``choose`` time and searched decisions (more than one option) are
    counted."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.seconds = 0.0
        self.decisions = 0
        self.longest = 0.0

    def choose(self, view: Any, decision: Any) -> Any:
        start = time.process_time()
        try:
            return self.agent.choose(view, decision)
        finally:
            if len(decision.options) > 1:
                spent = time.process_time() - start
                self.seconds += spent
                self.decisions += 1
                self.longest = max(self.longest, spent)

    def __getattr__(self, name: str) -> Any:  # uses_forward_model and the like
        if name.startswith("__") or name == "agent":  # copying: no agent yet
            raise AttributeError(name)
        return getattr(self.agent, name)


def play_row(engine: Engine, a: str, b: str, games: int, seed: int,
             max_turns: int | None) -> dict[str, Any]:
    """``games`` games in each of the four cells (deck of A x seat of A)."""
    wins = played = 0
    endings: Counter[str] = Counter()
    timed: dict[str, list[Timed]] = {a: [], b: []}
    start = time.process_time()
    for deck_of_a in DECKS:
        other = DECKS[1] if deck_of_a == DECKS[0] else DECKS[0]
        for seat_of_a in (0, 1):
            for s in range(seed, seed + games):
                specs = [a, b] if seat_of_a == 0 else [b, a]
                decks = [deck_of_a, other] if seat_of_a == 0 else [other, deck_of_a]
                agents = [Timed(make_agent(spec, seed=agent_seed(s, i)))
                          for i, spec in enumerate(specs)]
                timed[a].append(agents[seat_of_a])
                timed[b].append(agents[1 - seat_of_a])
                game = engine.start(decks, agents, seed=s, log_level="outcome")
                recorder = OutcomeRecorder(game.log, s, (decks[0], decks[1]),
                                           (specs[0], specs[1]))
                game.play(max_turns=max_turns)
                for seat in (0, 1):
                    count_plays(specs[seat], recorder, seat)
                played += 1
                wins += game.winner == seat_of_a
                endings[game.log.of_kind("game_over")[0]["reason"]] += 1
    seconds = time.process_time() - start
    low, high = wilson(wins, played)
    speed = {}
    for name in (a, b):
        decisions = sum(t.decisions for t in timed[name])
        spent = sum(t.seconds for t in timed[name])
        if name != "random" and decisions:
            longest = max(t.longest for t in timed[name])
            speed[name] = (decisions / spent if spent else float("inf"), spent / decisions,
                           longest)
    return {"a": a, "b": b, "games": played, "wins": wins, "rate": wins / played,
            "ci": (low, high), "endings": dict(endings), "games_per_s": played / seconds,
            "speed": speed}


def play_row_native(engine: Engine, a: str, b: str, games: int, seed: int
                    ) -> dict[str, Any]:
    """:func:`play_row` on the native core: each cell's games in one ``play_outcomes`` call."""
    import hkk_native

    wins = played = 0
    endings: Counter[str] = Counter()
    start = time.process_time()
    for deck_of_a in DECKS:
        other = DECKS[1] if deck_of_a == DECKS[0] else DECKS[0]
        for seat_of_a in (0, 1):
            specs = (a, b) if seat_of_a == 0 else (b, a)
            decks = (deck_of_a, other) if seat_of_a == 0 else (other, deck_of_a)
            seeds = list(range(seed, seed + games))
            agents = [[make_agent(spec, seed=agent_seed(s, i)) for i, spec in enumerate(specs)]
                      for s in seeds]
            rows = hkk_native.core.play_outcomes(engine, list(decks), seeds, names=decks,
                                                 agents=agents, agent_specs=specs)
            for row in rows:
                for seat in (0, 1):
                    cards = PLAYS.setdefault(specs[seat], {})
                    for card in row["drawn"][seat]:
                        c = cards.setdefault(card, [0, 0])
                        c[0] += 1
                        c[1] += bool(row["played"][seat].get(card))
                played += 1
                wins += row["winner"] == seat_of_a
                endings[row["reason"]] += 1
    seconds = time.process_time() - start
    low, high = wilson(wins, played)
    return {"a": a, "b": b, "games": played, "wins": wins, "rate": wins / played,
            "ci": (low, high), "endings": dict(endings), "games_per_s": played / seconds,
            "speed": {}}


def native_speed(engine: Engine, spec: str, games: int, seed: int, other: str = "random"
                 ) -> tuple[float, float, int]:
    """(CPU seconds a game, ms a searched decision, decisions searched by seat 1) of the native
    ``spec`` against native ``other``, over ``games`` games (both decks; random's share of a
    game is negligible)."""
    import hkk_native

    decisions = 0
    start = time.process_time()
    for s in range(seed, seed + games):
        decks = list(DECKS) if s % 2 == 0 else list(DECKS[::-1])
        agents = [make_agent(spec, seed=agent_seed(s, 0)), make_agent(other, agent_seed(s, 1))]
        game = hkk_native.core.new_game(engine, decks, seed=s, agents=agents,
                                        log_level="outcome")
        game.play()
        decisions += game.searched[0] or 0
    seconds = time.process_time() - start
    return seconds / games, 1000 * seconds / max(1, decisions), decisions


def split_rows(rows: str) -> list[str]:
    """``--rows`` as its rows: ``A/B@N`` pairs separated by commas, where an agent spec may
    hold commas of its own (``mcts:budget=50,rollout=random``): a piece starts a new row only
    once the row before has its ``/`` and the piece has one too."""
    split: list[str] = []
    for piece in rows.split(","):
        if split and ("/" not in split[-1] or "/" not in piece):
            split[-1] += "," + piece
        else:
            split.append(piece)
    return split


def print_native_speed(engine: Engine, rows: list[dict[str, Any]], seed: int) -> None:
    """The native search agents' speed, and the tiered simulation's estimated time (a game's
    time is nearly all its searching agents')."""
    specs = sorted({spec for row in rows for spec in (row["a"], row["b"])} - {"random"})
    per_game = {"random": 0.0}
    print()
    print("| native agent | CPU s a game (vs random) | ms a searched decision | decisions |")
    print("|---|---:|---:|---:|")
    for spec in specs:
        games = 2 if "1000" in spec else 8
        per_game[spec], each, decisions = native_speed(engine, spec, games, seed)
        print(f"| `{spec}` | {per_game[spec]:.2f} | {each:.1f} | {decisions} |", flush=True)
    if {"greedy", "mcts"} <= set(per_game):
        # hkk simulate --tiers: each tier's -n games with the agent on both seats, timed so
        seconds = 1000 * sum(native_speed(engine, tier, 6, seed, tier)[0]
                             for tier in ("greedy", "mcts"))
        print(f"\nEstimated `hkk simulate --core native --tiers random,greedy,mcts -n 1000` "
              f"on the base decks: {seconds / 3600:.2f} CPU-hours, {seconds / 120:.0f} minutes "
              f"on 2 cores (6 games of each tier against itself, timed; random's tier is "
              f"some seconds)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=None,
                        help="games per cell (deck order x seat order) in every row: 4x this "
                             "per row (default: each row's own, ROW_GAMES)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--max-turns", type=int, default=None)
    parser.add_argument("--core", choices=("python", "native"), default="python",
                        help="the core the rows play on (native: hkk-native's search agents)")
    parser.add_argument("--rows", default=",".join(f"{a}/{b}@{ROW_GAMES[a, b]}"
                                                   for a, b in PAIRINGS),
                        help="A/B pairs, comma separated (agent specs, e.g. "
                             "mcts:budget=50,rollout=random/greedy: a comma inside a spec "
                             "stays in it); A/B@N plays N games per cell in that row")
    args = parser.parse_args()
    native = args.core == "native"
    if native and "--rows" not in __import__("sys").argv:
        args.rows = ",".join(f"{a}/{b}@{NATIVE_ROW_GAMES[a, b]}" for a, b in PAIRINGS)
    engine = Engine.installed(allow=["alap"])
    agent_entries()  # fail early on a bad name
    rows = []
    for pair in split_rows(args.rows):
        pair, _, count = pair.partition("@")
        a, b = pair.split("/")
        games = args.games if args.games is not None else int(count) if count else 10
        row = play_row_native(engine, a, b, games, args.seed) if native else \
            play_row(engine, a, b, games, args.seed, args.max_turns)
        rows.append(row)
        print(f"{a} vs {b}: {row['wins']}/{row['games']} = {row['rate']:.1%} "
              f"(95% CI {row['ci'][0]:.1%}-{row['ci'][1]:.1%}); target {verdict(row)}; "
              f"endings {row['endings']}; "
              f"{row['games_per_s']:.2f} games/s; " + "; ".join(
                  f"{name} {per_s:,.1f} decisions/s ({each * 1000:.1f} ms each, the longest "
                  f"{longest * 1000:.0f} ms)"
                  for name, (per_s, each, longest) in row["speed"].items()), flush=True)
    print()
    print("| A | B | games | A wins | 95% CI (Wilson) | target | endings | games/s (1 core) | "
          "A's searched decisions/s (mean, longest ms) |")
    print("|---|---|---:|---:|---|---|---|---:|---:|")
    for row in rows:
        speed = row["speed"].get(row["a"])
        print(f"| `{row['a']}` | `{row['b']}` | {row['games']} | {row['rate']:.0%} | "
              f"{row['ci'][0]:.0%}-{row['ci'][1]:.0%} | {verdict(row)} | "
              f"{', '.join(f'{k} {v}' for k, v in sorted(row['endings'].items()))} | "
              f"{row['games_per_s']:.2f} | "
              f"{_speed(speed)} |")
    if native:
        print_native_speed(engine, rows, args.seed)
    print_plays(engine)


def print_plays(engine: Engine) -> None:
    """Each card's play rate when drawn per agent, and the cards random agents played that an
    agent never played in its games ("never played")."""
    agents = sorted(PLAYS, key=lambda spec: (spec != "random", spec))
    cards = sorted({card for plays in PLAYS.values() for card in plays})
    print()
    print("Play rate when drawn (games played / games drawn), per agent over all its games:")
    print("| card | " + " | ".join(f"`{a}`" for a in agents) + " |")
    print("|---|" + "---:|" * len(agents))
    for card in cards:
        cells = []
        for spec in agents:
            drawn, played = PLAYS[spec].get(card, [0, 0])
            cells.append(f"{played}/{drawn}" if drawn else "-")
        print(f"| {engine.cards[card].name} | " + " | ".join(cells) + " |")
    by_random = {card for card, (_, played) in PLAYS.get("random", {}).items() if played}
    print()
    print("Never-played check (cards random agents played, per agent):")
    if "random" not in PLAYS:
        print("- not run: no row played random agents (the check compares with them)")
        return
    for spec in agents:
        if spec == "random":
            continue
        never = sorted(engine.cards[card].name for card in by_random
                       if card in PLAYS[spec] and not PLAYS[spec][card][1])
        undrawn = sorted(engine.cards[card].name for card in by_random if card not in PLAYS[spec])
        print(f"- {spec}: {'passed' if not never else 'FAILED'}; never played (drawn by it): "
              f"{', '.join(never) or 'none'}; not judged (never drawn by it): "
              f"{', '.join(undrawn) or 'none'}")


def _speed(speed: tuple[float, float, float] | None) -> str:
    if not speed:
        return "-"
    return f"{speed[0]:,.1f} ({speed[1] * 1000:.0f}, {speed[2] * 1000:.0f})"


if __name__ == "__main__":
    main()
