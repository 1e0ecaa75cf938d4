"""The learning environment's batch on the native core (``HkkBatch(core="native")``,
plugins/hkk-native/src/env.rs, docs/LEARNING.md "The batch on the native core"): the same
arrays, row by row and step by step, as the Python batch (and so as ``HkkEnv``) for the same
seeds and actions; a seat's native observation never depends on what it cannot see."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkk import Engine
from hkk_env import ActionError, HkkBatch, Layout

hkk_native = pytest.importorskip("hkk_native")

BASE = ("alap:tuz", "alap:viz")


def first_difference(native: HkkBatch, python: HkkBatch, arrays: tuple[Any, ...],
                     twins: tuple[Any, ...], step: int) -> str | None:
    names = ("obs", "mask", "player", "reward", "done")
    for name, a, b in zip(names, arrays, twins, strict=False):
        if not np.array_equal(a, b):
            rows = np.flatnonzero((a != b).reshape(len(a), -1).any(axis=1))
            row = int(rows[0])
            where = np.flatnonzero(np.ravel(a[row] != b[row]))
            index = int(where[0])
            return (f"seed {int(python.seeds[row])} (row {row}), step {step}: {name}[{row}] "
                    f"differs at index {index}: native {np.ravel(a[row])[index]}, python "
                    f"{np.ravel(b[row])[index]}")
    return None


def play_both(engine: Engine, decks: Any, seed: int, chooser: int, n: int,
              steps: int) -> tuple[HkkBatch, HkkBatch]:
    """The native and the Python batch given the same random legal actions, their arrays
    compared after every call."""
    native = HkkBatch(n, decks, seed=seed, engine=engine, core="native")
    python = HkkBatch(n, decks, seed=seed, engine=engine, core="python")
    assert (native.core, python.core) == ("native", "python")
    got, want = native.reset(), python.reset()
    difference = first_difference(native, python, got, want, 0)
    assert difference is None, difference
    rng = np.random.default_rng(chooser)
    for step in range(1, steps + 1):
        actions = python.sample(rng)
        got, want = native.step(actions), python.step(actions)
        difference = first_difference(native, python, got, want, step)
        assert difference is None, difference
        assert native.seeds.tolist() == python.seeds.tolist()
    assert native.started == python.started
    return native, python


@given(seed=st.integers(0, 2**40), chooser=st.integers(0, 2**32))
@settings(max_examples=6)
def test_each_native_row_is_the_python_batchs_row_step_by_step(base: Engine, seed: int,
                                                               chooser: int) -> None:
    native, python = play_both(base, BASE, seed, chooser, 3, 700)
    assert native.started > 3  # games ended and were replaced


@given(deal=st.integers(0, 50), chooser=st.integers(0, 2**32))
@settings(max_examples=6)
def test_the_native_batch_encodes_every_implemented_word_as_the_python_one(
        tests_engine: Engine, deal: int, chooser: int) -> None:
    """The test set's spells, abilities, counters, statics and defence bonuses."""
    testset = pytest.importorskip("hkk_native.testset")
    decks = testset.test_set_decks(tests_engine.cards, deal)
    play_both(tests_engine, decks, deal, chooser, 3, 300)


def test_a_native_rows_raw_dict_is_its_game_replayed_on_the_python_engine(base: Engine
                                                                          ) -> None:
    native, python = play_both(base, BASE, 3, 1, 2, 150)
    for row in range(2):
        assert native.raw(row) == python.raw(row)


def test_a_bad_native_action_is_named_as_the_python_batch_names_it(base: Engine) -> None:
    batches = [HkkBatch(2, BASE, seed=5, engine=base, core=core) for core in ("native", "python")]
    messages = []
    for batch in batches:
        batch.reset()
        legal = batch.sample(np.random.default_rng(0))
        bad = legal.copy()
        bad[1] = int(np.flatnonzero(batch.mask[1] == 0)[0])
        with pytest.raises(ActionError) as caught:
            batch.step(bad)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert "is not an option of player" in messages[0] and "game of seed 6" in messages[0]


def test_auto_takes_the_native_batch_and_falls_back_naming_why(base: Engine) -> None:
    assert HkkBatch(1, BASE, engine=base).core == "native"
    mixed = Engine.installed(allow=["alap", "mereg"])
    batch = HkkBatch(1, ("alap:tuz", "mereg:mocsar"), engine=mixed)
    assert batch.core == "python" and batch.fallback is not None and "mereg" in batch.fallback
    with pytest.raises(hkk_native.Refused, match="mereg"):
        HkkBatch(1, ("alap:tuz", "mereg:mocsar"), engine=mixed, core="native")


def test_a_layout_the_native_encoder_does_not_know_is_refused_by_name(base: Engine) -> None:
    layout = Layout.for_decks(base, [base.deck(d) for d in BASE])
    plain = layout.plain()
    plain["sections"] = [*plain["sections"], ("extra", 3)]
    with pytest.raises(hkk_native.Refused, match="observation sections"):
        hkk_native.native_batch(base, [base.deck(d) for d in BASE], plain, 1)


# -- hidden stays hidden ---------------------------------------------------------------------------

def seen(batch: Any, layout: Layout, game: Any, seat: int) -> tuple[bytes, bytes]:
    obs = np.zeros(layout.n_observation, np.float32)
    mask = np.zeros(layout.n_actions, np.int8)
    batch.observe(game, seat, obs, mask)
    return obs.tobytes(), mask.tobytes()


def native_twins(engine: Engine, seed: int, steps: int, chooser: int, seat: int,
                 dealer: int) -> tuple[Any, Any, Any, Layout] | None:
    """A native game played ``steps`` random decisions, its twin with what ``seat`` cannot
    see dealt again (``determinize``), and a native batch's encoder (None: it ended first)."""
    decks = [engine.deck(d) for d in BASE]
    layout = Layout.for_decks(engine, decks)
    encoder = hkk_native.native_batch(engine, decks, layout.plain(), 1)
    game = hkk_native.core.new_game(engine, decks, seed=seed, agents=[None, None],
                                    log_level="outcome")
    rng = random.Random(chooser)
    for _ in range(steps):
        decision = game.decision
        if decision is None:
            return None
        game.answer(rng.randrange(len(decision.options)))
    if game.decision is None:
        return None
    return game, game.determinize(seat, random.Random(dealer)), encoder, layout


@given(seed=st.integers(0, 2**40), steps=st.integers(0, 250), chooser=st.integers(0, 99),
       seat=st.sampled_from([0, 1]), dealer=st.integers(0, 99))
@settings(max_examples=25)
def test_a_seats_native_observation_is_the_same_whatever_the_hidden_cards(
        base: Engine, seed: int, steps: int, chooser: int, seat: int, dealer: int) -> None:
    found = native_twins(base, seed, steps, chooser, seat, dealer)
    if found is not None:
        game, twin, encoder, layout = found
        assert seen(encoder, layout, twin, seat) == seen(encoder, layout, game, seat)


@pytest.mark.parametrize(("steps", "seat"), [(40, 0), (90, 1), (150, 0)])
def test_the_same_native_observation_where_the_other_hand_was_dealt_otherwise(
        base: Engine, steps: int, seat: int) -> None:
    """Positions where the twin's other hand (and the decks' order) is not the game's: the
    equality above is not for want of anything hidden to read."""
    found = native_twins(base, 7, steps, 1, seat, 3)
    assert found is not None
    game, twin, encoder, layout = found
    hands = [sorted(g.zones()[1 - seat][0]) for g in (game, twin)]
    decks = [g.zones()[seat][1] for g in (game, twin)]
    assert hands[0] != hands[1] and decks[0] != decks[1]
    assert seen(encoder, layout, twin, seat) == seen(encoder, layout, game, seat)


def test_without_the_native_core_auto_plays_the_python_loop_and_native_says_so(
        base: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "hkk_native", None)  # as if not installed
    batch = HkkBatch(2, BASE, engine=base)
    assert batch.core == "python" and batch.fallback == "the native core is not installed"
    batch.reset()
    batch.step(batch.sample(np.random.default_rng(0)))
    with pytest.raises(ValueError, match="not installed"):
        HkkBatch(2, BASE, engine=base, core="native")


def test_an_engine_that_names_the_python_core_keeps_its_batch_on_it() -> None:
    assert HkkBatch(1, BASE, engine=Engine.installed(core="python")).core == "python"
