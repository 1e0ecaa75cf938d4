"""The native search agents (docs/NATIVE.md, "Search agents"): ``greedy`` and ``mcts`` seated on
the native core search natively, seeded from the Python agent's RNG - the same seeds give the
same game; greedy plays every base-set card it draws over a modest run and beats random
clearly; mcts answers legally and reproducibly; a spec the native agents do not know is
refused naming the option; ``hkk simulate`` records a searched game as its log shows it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from hkk import Engine, make_agent
from hkk._agent_registry import agent_seed
from hkk._stats import wilson

hkk_native = pytest.importorskip(
    "hkk_native", reason="hkk_native is not built: pip install ./plugins/hkk-native (needs cargo)")

DECKS = ("alap:tuz", "alap:viz")
#: Games of native greedy against native random: each deck, each seat, this many seeds.
SEEDS = range(16)


def _game(engine: Engine, specs: tuple[str, str], seed: int, decks: Any = DECKS,
          level: str = "full") -> Any:
    agents = [make_agent(spec, agent_seed(seed, seat)) for seat, spec in enumerate(specs)]
    game = hkk_native.core.new_game(engine, list(decks), seed=seed, agents=agents,
                                    log_level=level)
    game.play()
    return game


@pytest.fixture(scope="module")
def greedy_rows(base: Engine) -> list[tuple[int, dict[str, Any]]]:
    """Native greedy against native random: (greedy's seat, the outcome row) for both decks
    and both seats."""
    found = []
    for decks in (DECKS, DECKS[::-1]):
        for seat in (0, 1):
            specs = ("greedy", "random") if seat == 0 else ("random", "greedy")
            seeds = list(SEEDS)
            agents = [[make_agent(spec, agent_seed(s, i)) for i, spec in enumerate(specs)]
                      for s in seeds]
            rows = hkk_native.core.play_outcomes(base, list(decks), seeds, names=decks,
                                                 agents=agents, agent_specs=specs)
            found += [(seat, row) for row in rows]
    return found


@pytest.mark.parametrize("spec", ["greedy", "mcts:budget=20"])
def test_a_native_searched_game_is_the_same_for_the_same_seeds(base: Engine, spec: str) -> None:
    games = [_game(base, (spec, "random"), 7) for _ in range(2)]
    assert games[0].over and games[0].unported is None
    assert games[0].log.as_dicts() == games[1].log.as_dicts()
    assert games[0].searched[0] > 0 and games[0].searched[1] is None
    other = _game(base, (spec, "random"), 8)
    assert other.log.as_dicts() != games[0].log.as_dicts()


def test_native_greedy_beats_native_random_clearly(
        greedy_rows: list[tuple[int, dict[str, Any]]]) -> None:
    wins = sum(row["winner"] == seat for seat, row in greedy_rows)
    low, _ = wilson(wins, len(greedy_rows))
    assert all(row["error"] is None for _, row in greedy_rows)
    assert low > 0.5, f"greedy won {wins} of {len(greedy_rows)} (95% low end {low:.2f})"


def test_native_greedy_plays_every_base_card_it_draws(
        greedy_rows: list[tuple[int, dict[str, Any]]]) -> None:
    drawn: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for seat, row in greedy_rows:
        drawn.update(row["drawn"][seat])
        played.update(row["played"][seat])
    never = sorted(card for card in drawn if not played[card])
    assert len(drawn) >= 20, sorted(drawn)
    assert never == [], f"greedy drew and never played {never}"


def test_native_mcts_answers_legally_to_the_end_and_reproducibly(base: Engine) -> None:
    # an answer off the options would be refused and stop the game short of its end
    games = [_game(base, ("random", "mcts:budget=30"), 3, DECKS[::-1], "compact")
             for _ in range(2)]
    assert games[0].over and games[0].unported is None and games[0].searched[1] > 0
    assert games[0].log.as_dicts() == games[1].log.as_dicts()


def test_a_searched_games_simulate_row_counts_what_its_log_shows(base: Engine) -> None:
    game = _game(base, ("greedy", "random"), 5)
    agents = [[make_agent(spec, agent_seed(5, i)) for i, spec in enumerate(("greedy", "random"))]]
    row = hkk_native.core.play_outcomes(base, list(DECKS), [5], names=DECKS, agents=agents,
                                        agent_specs=("greedy", "random"))[0]
    played = [Counter(e["card"] for e in game.log.as_dicts()
                      if e["kind"] == "card_played" and e["player"] == p) for p in (0, 1)]
    assert [dict(p) for p in played] == [dict(p) for p in row["played"]]
    assert (row["winner"], row["turns"]) == (game.winner, game.turn)


def test_a_search_option_the_native_agent_does_not_know_is_refused_by_name(
        base: Engine) -> None:
    native = hkk_native._core._native_engine(base)
    decks = tuple(base.deck(d) for d in DECKS)
    seat = ("mcts", 0.0, 1, [("budgte", 3.0)])
    with pytest.raises(ValueError, match='mcts: no option "budgte"'):
        native.new_game(decks, 1, (seat, ("outside", 0.0, None, [])), "full")


def test_native_mcts_rollouts_fight_by_default_and_random_on_request(base: Engine) -> None:
    # the option reaches the native agent: the default (fight) and rollout=random search
    # differently from the same seeds, each reproducibly; the Python agent keeps the spec's
    native = hkk_native._core._seat
    assert native(make_agent("mcts"))[3][0] == ("rollout", 1.0)
    assert native(make_agent("mcts:rollout=fight"))[3][0] == ("rollout", 1.0)
    assert native(make_agent("mcts:rollout=random"))[3][0] == ("rollout", 0.0)
    # rollout_turns: the native agent's own (4) unless given
    assert "rollout_turns" not in dict(native(make_agent("mcts"))[3])
    assert dict(native(make_agent("mcts:rollout_turns=2"))[3])["rollout_turns"] == 2.0
    logs = {spec: [_game(base, (spec, "random"), 4, level="compact").log.as_dicts()
                   for _ in range(2)]
            for spec in ("mcts:budget=20", "mcts:budget=20,rollout=random")}
    assert all(a == b for a, b in logs.values())
    assert logs["mcts:budget=20"][0] != logs["mcts:budget=20,rollout=random"][0]


def test_an_mcts_rollout_other_than_random_or_fight_is_refused_by_name() -> None:
    from hkk._errors import HkkError

    with pytest.raises(HkkError, match="option rollout='smart' must be one of random, fight"):
        make_agent("mcts:rollout=smart")


def test_fighting_rollouts_are_refused_on_the_python_engine_by_name(base: Engine) -> None:
    from hkk._errors import HkkError

    agents = [make_agent("mcts:budget=2,rollout=fight", 1), make_agent("random", 2)]
    game = base.start(list(DECKS), agents, seed=1, log_level="outcome")
    with pytest.raises(HkkError, match="rollout='fight' is the native core's only"):
        game.play()
