"""The position evaluation of the greedy and mcts agents (issue 22 item 1, hkk._evaluation):
a function of what the player may see only, better for him as his side grows and his
opponent's shrinks, 1/-1/0 for a finished game, weights in one place and overridable."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hkk import Engine, HkkError, Weights, evaluate
from hkk._evaluation import DEFAULT_WEIGHTS, position_value, side_value
from hkk._runner import advance

ENGINE = Engine.installed(allow=["alap"])


def position(seed: int, turn: int) -> Any:
    """A base-set game of random players at the start of ``turn`` (or its end, if sooner)."""
    game = ENGINE.new_game(["alap:tuz", "alap:viz"], seed=seed)
    while advance(game) and not (game.turn >= turn and game.step_index is None):
        pass
    return game


@given(st.integers(0, 10_000), st.integers(2, 14), st.integers(0, 1))
def test_the_evaluation_reads_nothing_hidden_from_the_player(seed: int, turn: int,
                                                             player: int) -> None:
    game = position(seed, turn)
    before = evaluate(game, player)
    rng = random.Random(seed)
    opponent = game.players[1 - player]
    # the opponent's hand replaced by other cards (as many), both decks' order and content
    opponent.hand[:] = [rng.choice(sorted(ENGINE.cards)) for _ in opponent.hand]
    for p in game.players:
        p.deck[:] = [rng.choice(sorted(ENGINE.cards)) for _ in p.deck]
    assert evaluate(game, player) == before


@given(st.integers(0, 10_000), st.integers(2, 14), st.integers(0, 1), st.integers(1, 5))
def test_the_evaluation_prefers_a_hurt_opponent_and_a_healthy_self(
        seed: int, turn: int, player: int, amount: int) -> None:
    game = position(seed, turn)
    if game.over:
        return
    before = position_value(game, player)
    game.players[1 - player].hp -= amount
    hurt = position_value(game, player)
    assert hurt > before
    game.players[player].hp += amount
    assert position_value(game, player) > hurt


def test_a_creature_on_the_board_is_worth_something_to_its_controller() -> None:
    game = position(3, 8)
    creatures = [c for p in (0, 1) for c in game.creatures(p)]
    assert creatures, "the test position has creatures"
    creature = creatures[0]
    owner = creature.controller
    with_it = side_value(game, owner)
    del game.permanents[creature.uid]
    assert side_value(game, owner) < with_it


def test_a_finished_game_is_won_lost_or_drawn() -> None:
    game = ENGINE.play(["alap:tuz", "alap:viz"], seed=1)
    assert game.over and game.winner is not None
    assert evaluate(game, game.winner) == 1.0
    assert evaluate(game, 1 - game.winner) == -1.0
    game.winner = None
    assert evaluate(game, 0) == 0.0


def test_values_are_inside_minus_one_one_and_zero_sum() -> None:
    for seed in range(5):
        game = position(seed, 10)
        if not game.over:
            a, b = position_value(game, 0), position_value(game, 1)
            assert -1 < a < 1 and a == pytest.approx(-b)


def test_weights_are_overridable_by_name_and_unknown_names_are_listed() -> None:
    heavy = DEFAULT_WEIGHTS.with_options(hp=3, hand="0.5")
    assert (heavy.hp, heavy.hand, heavy.creature) == (3.0, 0.5, DEFAULT_WEIGHTS.creature)
    game = position(2, 6)
    assert side_value(game, 0, Weights(hp=3)) - side_value(game, 0) == \
        pytest.approx(2 * game.players[0].hp)
    with pytest.raises(HkkError) as info:
        DEFAULT_WEIGHTS.with_options(nope=1)
    assert "no evaluation weight 'nope'; the weights are hp=1.0" in str(info.value)


@pytest.mark.parametrize(("building", "lasting"), [
    ("alap:runako", 1),  # its runes come as it enters (not lasting); 1 VP at each turn's end
    ("alap:mana-kut", 1), ("alap:lavaarok", 1)])
def test_a_building_is_worth_its_sp_and_each_lasting_ability(building: str,
                                                             lasting: int) -> None:
    from hkk import build_position

    game = build_position(ENGINE, [{"buildings": [building]}, {}])
    sp = game.hp(game.buildings(0)[0])
    plain = Weights(ability=0)
    assert side_value(game, 0, plain) - side_value(build_position(ENGINE), 0, plain) == \
        pytest.approx(DEFAULT_WEIGHTS.building * sp)
    assert side_value(game, 0) - side_value(game, 0, plain) == \
        pytest.approx(DEFAULT_WEIGHTS.ability * lasting)
