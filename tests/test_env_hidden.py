"""Hidden stays hidden in the learning environment (plugins/hkk-env): a seat's observation -
the vector, the mask and the raw dict - is the same in a twin game whose hidden cards were
dealt otherwise (``determinize``: the other hand and both decks dealt again) at the same public
position, so no number of it can tell a hidden card."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkk import Engine
from hkk_env import Layout
from hkk_env.seat import Table

PAIRS = [("alap:tuz", "alap:viz"), ("mereg:mocsar", "alap:tuz")]
@cache
def engine() -> Engine:
    return Engine.installed(allow=["alap", "mereg"])


def seen(table: Table, seat: int) -> tuple[bytes, bytes, dict]:
    layout = table.layout
    vector = np.empty(layout.n_observation, np.float32)
    mask = np.empty(layout.n_actions, np.int8)
    table.observe(seat, vector)
    table.mask(seat, mask)
    return vector.tobytes(), mask.tobytes(), table.raw(seat)


def twins(pair: tuple[str, str], seed: int, steps: int, chooser: int, seat: int,
          dealer: int) -> tuple[Table, Table] | None:
    """A game played ``steps`` random decisions, and its twin with what ``seat`` cannot see
    dealt again (None: the game ended first)."""
    e = engine()
    decks = [e.deck(d) for d in pair]
    layout = Layout.for_decks(e, decks)
    table = Table.start(e, decks, layout, seed=seed, log_level="full")
    rng = np.random.default_rng(chooser)
    for _ in range(steps):
        if table.over:
            break
        mask = np.empty(layout.n_actions, np.int8)
        assert table.player is not None
        table.mask(table.player, mask)
        table.act(int(rng.choice(np.flatnonzero(mask))))
    if table.over:
        return None
    return table, Table(table.game.determinize(seat, random.Random(dealer)), layout, seed=seed)


def other_hand(table: Table, seat: int) -> list[str]:
    return sorted(table.game.snapshot()["players"][1 - seat]["hand"])


@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 2**40), steps=st.integers(0, 250),
       chooser=st.integers(0, 99), seat=st.sampled_from([0, 1]), dealer=st.integers(0, 99))
@settings(max_examples=25)
def test_a_seats_observation_is_the_same_whatever_the_hidden_cards(
        pair: tuple[str, str], seed: int, steps: int, chooser: int, seat: int,
        dealer: int) -> None:
    games = twins(pair, seed, steps, chooser, seat, dealer)
    if games is not None:
        assert seen(games[1], seat) == seen(games[0], seat)


@pytest.mark.parametrize(("pair", "steps", "seat"), [(PAIRS[0], 40, 0), (PAIRS[0], 90, 1),
                                                     (PAIRS[1], 60, 0), (PAIRS[1], 120, 1)])
def test_the_same_observation_where_the_other_hand_was_dealt_otherwise(
        pair: tuple[str, str], steps: int, seat: int) -> None:
    """Positions where the twin's other hand is not the game's: the equality above is not
    for want of anything hidden to read."""
    games = twins(pair, 7, steps, 1, seat, 3)
    assert games is not None
    game, twin = games
    assert other_hand(game, seat) != other_hand(twin, seat)
    assert seen(twin, seat) == seen(game, seat)
