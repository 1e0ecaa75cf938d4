"""The native core's RNG is CPython's ``random.Random`` bit for bit, for every int seed (0, huge,
negative) and every draw the engine makes (``random``, ``getrandbits``, ``randrange``,
``shuffle``): the same seed gives the same game on both cores only if so."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

hkk_native = pytest.importorskip(
    "hkk_native", reason="hkk_native is not built: pip install ./plugins/hkk-native (needs cargo)")

seeds = st.one_of(st.integers(), st.integers(min_value=-(2**200), max_value=2**200),
                  st.sampled_from([0, 1, -1, 2**32 - 1, 2**32, 2**64 - 1, 2**64, -(2**64)]))

draws = st.lists(st.one_of(
    st.tuples(st.just("random")),
    st.tuples(st.just("getrandbits"), st.integers(0, 64)),
    st.tuples(st.just("randrange"), st.integers(1, 2**40)),
    st.tuples(st.just("randrange"), st.integers(-1000, 1000), st.integers(-1000, 1000),
              st.integers(-7, 7).filter(bool)),
    st.tuples(st.just("shuffle"), st.integers(0, 40)),
), max_size=40)


def _draw(rng: object, call: tuple[object, ...]) -> object:
    name, *args = call
    if name == "shuffle":
        items = list(range(int(args[0])))  # type: ignore[call-overload]
        rng.shuffle(items)  # type: ignore[attr-defined]
        return items
    try:
        return getattr(rng, str(name))(*args)
    except ValueError:  # an empty range: both must refuse it, drawing nothing
        return "ValueError"


@settings(max_examples=200)
@given(seed=seeds, calls=draws)
def test_native_random_draws_as_cpython_for_any_seed(seed: int, calls: list[tuple[object, ...]]
                                                     ) -> None:
    native, reference = hkk_native.Random(seed), random.Random(seed)
    for call in calls:
        assert _draw(native, call) == _draw(reference, call), (seed, call)
    assert native.state() == list(reference.getstate()[1])


@pytest.mark.parametrize("seed", [0, 1, -5, 2**31, 2**63 - 1, 2**64 - 1, -(2**100) - 7])
def test_native_state_after_seeding_is_cpythons(seed: int) -> None:
    assert hkk_native.Random(seed).state() == list(random.Random(seed).getstate()[1])


def test_native_random_crosses_the_624_word_twist_as_cpython() -> None:
    native, reference = hkk_native.Random(12345), random.Random(12345)
    assert [native.getrandbits(32) for _ in range(2000)] == \
        [reference.getrandbits(32) for _ in range(2000)]


def test_native_random_refuses_what_cpython_refuses() -> None:
    rng = hkk_native.Random(1)
    for args in [(0,), (5, 5), (0, 5, 0)]:
        with pytest.raises(ValueError):
            rng.randrange(*args)
    with pytest.raises(TypeError):
        hkk_native.Random(1.5)
