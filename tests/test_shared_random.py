"""The game's RNG (hkk._rng.SharedRandom): a copy shares the state until one of them draws,
and still draws exactly what a full copy (getstate/setstate) of a ``random.Random`` draws,
whoever draws first, through every way of drawing and of setting the state."""

from __future__ import annotations

import copy
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hkk import Engine, RandomAgent
from hkk._rng import SharedRandom

OPS = st.lists(st.tuples(st.sampled_from(["copy", "randrange", "range2", "random", "bits",
                                          "shuffle", "gauss", "seed", "setstate", "getstate",
                                          "pickle"]),
                         st.integers(0, 50), st.integers(1, 10_000)), max_size=40)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), ops=OPS)
def test_copies_of_a_shared_rng_draw_as_full_copies_whoever_draws_first(seed, ops):
    plain = [random.Random(seed)]
    shared = [SharedRandom(seed)]
    for op, which, n in ops:
        a, b = plain[which % len(plain)], shared[which % len(shared)]
        if op == "copy":
            full = random.Random()
            full.setstate(a.getstate())
            plain.append(full)
            shared.append(b.copy())
        elif op == "randrange":
            assert a.randrange(n) == b.randrange(n)
        elif op == "range2":
            assert a.randrange(n, 2 * n + 7, 3) == b.randrange(n, 2 * n + 7, 3)
        elif op == "random":
            assert a.random() == b.random()
        elif op == "bits":
            assert a.getrandbits(n % 100 + 1) == b.getrandbits(n % 100 + 1)
        elif op == "shuffle":
            xs, ys = list(range(n % 60)), list(range(n % 60))
            a.shuffle(xs)
            b.shuffle(ys)
            assert xs == ys
        elif op == "gauss":
            assert a.gauss() == b.gauss()
        elif op == "seed":
            a.seed(n)
            b.seed(n)
        elif op == "setstate":
            state = plain[n % len(plain)].getstate()
            a.setstate(state)
            b.setstate(state)
        elif op == "getstate":
            assert a.getstate() == b.getstate()
        else:  # pickled (a save of an agent, a process pool): the same state, its own
            shared[which % len(shared)] = pickle.loads(pickle.dumps(b))
    assert [r.getstate() for r in plain] == [r.getstate() for r in shared]


def test_a_copy_of_a_game_and_of_its_random_agent_draw_as_the_original_afterwards():
    game = Engine.installed(allow=["alap"]).new_game(
        ["alap:tuz", "alap:viz"], seed=4, agents=[None, RandomAgent(9)])
    me = RandomAgent(3)
    for _ in range(25):
        decision = game.decision
        assert decision is not None
        game.answer(me.choose(game.view(decision.player), decision))
    copies = [game.clone() for _ in range(3)]
    deep = copy.deepcopy(game.agents[1])
    # the original draws first, then its copies: all from the state at the copy
    drawn = [game.rng.random(), game.agents[1]._rng.random()]
    for copied in copies:
        assert [copied.rng.random(), copied.agents[1]._rng.random()] == drawn
    assert deep._rng.random() == drawn[1]
