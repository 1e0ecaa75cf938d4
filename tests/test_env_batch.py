"""The batch of the learning environment (plugins/hkk-env, docs/LEARNING.md): N games a call,
each row the same game the AEC environment plays from the same seed and actions, a finished
game replaced by the next seed's."""

from __future__ import annotations

import importlib
import sys
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hkk import Engine
from hkk_env import AGENTS, HkkBatch, HkkEnv

DECKS = ("alap:tuz", "mereg:mocsar")
N = 5


@cache
def engine() -> Engine:
    return Engine.installed(allow=["alap", "mereg"])


def test_each_row_plays_the_game_the_aec_env_plays_from_its_seed() -> None:
    batch = HkkBatch(N, DECKS, seed=20, engine=engine())
    obs, mask, player = batch.reset()
    envs = [HkkEnv(DECKS, engine=engine()) for _ in range(N)]
    for row, env in enumerate(envs):
        env.reset(seed=20 + row)
    rng = np.random.default_rng(5)
    live = [True] * N
    ends = set()
    steps = 0
    while any(live):
        for row, env in enumerate(envs):
            if live[row]:
                seen = env.observe(env.agent_selection)
                assert AGENTS[player[row]] == env.agent_selection
                assert np.array_equal(seen["observation"], obs[row])
                assert np.array_equal(seen["action_mask"], mask[row])
        actions = batch.sample(rng)
        obs, mask, player, reward, done = batch.step(actions)
        steps += 1
        for row, env in enumerate(envs):
            if not live[row]:
                continue
            env.step(int(actions[row]))
            if done[row]:
                assert all(env.terminations.values())
                assert reward[row].tolist() == [env.rewards[a] for a in AGENTS]
                ends.add(tuple(reward[row].tolist()))
                live[row] = False
            else:
                assert not any(env.terminations.values())
    assert steps > 100 and batch.started > N
    assert {(1.0, -1.0), (-1.0, 1.0)} <= ends  # each seat won one: the rewards are the game's


def test_a_finished_game_is_replaced_by_the_next_seed_with_its_rewards() -> None:
    batch = HkkBatch(2, DECKS, seed=100, engine=engine())
    batch.reset()
    rng = np.random.default_rng(1)
    assert batch.seeds.tolist() == [100, 101]
    while True:
        _, mask, _, reward, done = batch.step(batch.sample(rng))
        if done.any():
            break
        assert not reward.any()
    row = int(np.flatnonzero(done)[0])
    assert sorted(reward[row].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
    assert batch.seeds[row] == 102 and batch.started == 3
    assert mask[row].any()  # the new game waits for its first decision


def test_a_step_takes_one_action_a_game() -> None:
    batch = HkkBatch(2, DECKS, seed=1, engine=engine())
    with pytest.raises(RuntimeError, match="reset"):
        batch.step([0, 0])
    batch.reset()
    with pytest.raises(ValueError, match=r"step takes 2 actions, one a game; got shape \(3,\)"):
        batch.step([0, 0, 0])


# -- the example learner (plugins/hkk-env/examples/reinforce.py, docs/LEARNING.md) --------------

def example() -> Any:
    path = Path(__file__).resolve().parents[1] / "plugins" / "hkk-env" / "examples"
    sys.path.insert(0, str(path))
    try:
        return importlib.import_module("reinforce")
    finally:
        sys.path.remove(str(path))


def test_the_example_trains_and_measures_exactly_the_seeds_it_names() -> None:
    reinforce = example()
    policy = reinforce.train(engine(), games=4, n=4, update=2, lr=0.01, seed=0)
    assert np.abs(policy.b).sum() > 0  # the weights moved
    wins, played = reinforce.measure(engine(), policy, games=3, n=2)
    assert played == 3 and 0 <= wins <= 3


def test_the_examples_interval_is_wilsons() -> None:
    low, high = example().wilson(60, 100)
    assert (round(low, 4), round(high, 4)) == (0.5020, 0.6906)
