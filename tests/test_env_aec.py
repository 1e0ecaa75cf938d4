"""The learning environment (plugins/hkk-env, docs/LEARNING.md): PettingZoo's own checks, the
action mask and indices against the engine's options, rewards only at the end, and the same
episode whatever Python's hash seed."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import warnings
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from hkk import Engine
from hkk_env import AGENTS, ActionError, HkkEnv, Layout

#: PettingZoo's advice for Box observations, given for every Dict one with an action mask
#: (its own classic games get it too): not a failure.
ADVICE = ("Observation is not a NumPy array", "Observation space for each agent probably")


@cache
def engine() -> Engine:
    return Engine.installed(allow=["alap", "mereg"])


def make_env(decks: tuple[str, str] = ("alap:tuz", "alap:viz"), **options: str) -> HkkEnv:
    return HkkEnv(decks, engine=engine(), **options)


def test_pettingzoo_api_test_passes() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make_env(), num_cycles=1000)
    assert [str(w.message) for w in caught if not str(w.message).startswith(ADVICE)] == []


@pytest.mark.parametrize("decks", [("alap:tuz", "alap:viz"), ("mereg:mocsar", "alap:tuz")])
def test_pettingzoo_seed_test_passes(decks: tuple[str, str]) -> None:
    seed_test(lambda: make_env(decks), num_cycles=1000)


def play(env: HkkEnv, seed: int, chooser: int) -> list[tuple[str, int | None, float, bool]]:
    """A whole game with random legal actions: (agent, action, reward, terminated) a step."""
    rng = np.random.default_rng(chooser)
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, reward, terminated))
        env.step(action)
    return trace


@pytest.mark.parametrize(("seed", "winner"), [(11, 0), (13, 1)])
def test_rewards_come_only_at_the_end_plus_one_to_the_winner(seed: int, winner: int) -> None:
    env = make_env()
    trace = play(env, seed=seed, chooser=3)
    assert env.table is not None
    assert env.table.game.winner == winner
    live = [reward for _, action, reward, _ in trace if action is not None]
    ends = {agent: reward for agent, action, reward, _ in trace if action is None}
    assert set(live) == {0.0}
    assert set(ends) == set(AGENTS) and len(trace) > 100
    assert ends == {a: 1.0 if i == winner else -1.0 for i, a in enumerate(AGENTS)}


@given(seed=st.integers(0, 2**31), chooser=st.integers(0, 1000),
       steps=st.integers(0, 300), decks=st.sampled_from(
           [("alap:tuz", "alap:viz"), ("alap:tuz", "mereg:mocsar")]))
@settings(max_examples=15)
def test_the_mask_marks_each_option_once_and_an_action_answers_its_option(
        seed: int, chooser: int, steps: int, decks: tuple[str, str]) -> None:
    env = make_env(decks, log_level="full")
    env.reset(seed=seed)
    rng = np.random.default_rng(chooser)
    for _ in range(steps):
        obs, _, terminated, _, info = env.last()
        if terminated:
            break
        decision = info["raw"]["decision"]
        mask = obs["action_mask"]
        # one distinct action per option, and the mask is exactly them
        assert len(set(decision["actions"])) == len(decision["options"])
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(decision["actions"])
        # the other agent sees no action of his own
        other = AGENTS[1 - AGENTS.index(env.agent_selection)]
        assert not env.observe(other)["action_mask"].any()
        pick = int(rng.integers(len(decision["options"])))
        assert env.table is not None
        log_before = len(env.table.game.log)
        env.step(decision["actions"][pick])
        chosen = [e for e in list(env.table.game.log)[log_before:] if e.kind == "decision"]
        assert chosen and chosen[0]["choice"] == decision["options"][pick]


def test_an_action_off_the_mask_is_refused_naming_it_and_the_game_goes_on() -> None:
    env = make_env()
    env.reset(seed=5)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ActionError, match=f"action {illegal} is not an option of player"):
        env.step(illegal)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(legal)  # unharmed: the same decision took the legal one
    assert not any(env.terminations.values())


def test_the_layout_is_the_same_for_every_deal_and_names_its_ranges() -> None:
    e = engine()
    decks = [e.deck("alap:tuz"), e.deck("alap:viz")]
    layout = Layout.for_decks(e, decks)
    shuffled = Layout.for_decks(e, [list(reversed(decks[1])), decks[0][::2]])
    assert layout == shuffled and layout.cards == tuple(sorted(layout.cards))
    ranges = layout.ranges()
    assert sum(size for _, size in ranges.values()) == layout.n_actions
    assert [first for first, _ in ranges.values()] == sorted(f for f, _ in ranges.values())
    assert ranges["play"][1] == len(layout.cards) + 1


# -- the same episode in every process ---------------------------------------------------------

TRACE = """
import hashlib, json, sys
import numpy as np
from hkk import Engine
from hkk_env import HkkEnv
env = HkkEnv(("alap:tuz", "mereg:mocsar"), engine=Engine.installed(allow=["alap", "mereg"]))
env.reset(seed=int(sys.argv[1]))
rng = np.random.default_rng(7)
digest = hashlib.sha256()
for agent in env.agent_iter(600):
    obs, reward, terminated, truncated, info = env.last()
    action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
    digest.update(agent.encode() + obs["observation"].tobytes() + obs["action_mask"].tobytes())
    digest.update(json.dumps([action, reward, info], sort_keys=True, default=str).encode())
    env.step(action)
print(digest.hexdigest())
"""


def trace_in_process(hash_seed: str, seed: int) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", TRACE, str(seed)], env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_same_episode_in_two_processes_with_different_hash_seeds() -> None:
    first = trace_in_process("1", 42)
    assert first == trace_in_process("2", 42)
    assert first != trace_in_process("1", 43)  # the trace does tell games apart


def test_the_trace_hashes_what_the_learner_sees() -> None:
    """The subprocess's digest is over observations, masks, actions, rewards and infos: a
    change in any observation number changes it."""
    a = hashlib.sha256(np.zeros(3, np.float32).tobytes() + json.dumps([1]).encode())
    b = hashlib.sha256(np.array([0, 0, 1e-7], np.float32).tobytes() + json.dumps([1]).encode())
    assert a.hexdigest() != b.hexdigest()
