"""The state declared once (hkk._state.GAME_STATE): every field of a game is in one group, and
the copy, the save and its load, and determinize all read the declaration - a field added to
it is copied, saved and loaded; a field no group names is refused by each of them, by name."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hkk import CloneError, Engine, GameClock, RandomAgent, SaveError, load_game
from hkk._clone import COPY, copy_game
from hkk._game import Game
from hkk._saving import LOAD, SAVE, _build, parse_save, saved_state
from hkk._state import DERIVED, ENGINE, GAME_STATE, MOMENT, undeclared

ENGINE_ = Engine.installed()
PAIRS = [["alap:tuz", "alap:viz"], ["mereg:mocsar", "alap:tuz"]]


def at_decision(pair, seed: int, cut: int) -> Game:
    game = ENGINE_.new_game(pair, seed=seed, agents=[None, RandomAgent(seed + 1)],
                            clock=GameClock(lambda: 100.0))  # no wall clock in the state
    me = RandomAgent(seed)
    for _ in range(cut):
        decision = game.decision
        if decision is None:
            break
        game.answer(me.choose(game.view(decision.player), decision))
    return game


def test_the_groups_are_disjoint_and_every_kind_has_a_copier_a_saver_and_a_loader():
    groups = [set(GAME_STATE), set(DERIVED), set(ENGINE), set(MOMENT)]
    assert sum(map(len, groups)) == len(set().union(*groups))
    for kind in set(GAME_STATE.values()):
        assert kind in COPY and kind in SAVE and kind in LOAD, kind


def test_every_field_of_a_game_is_declared():
    game = at_decision(PAIRS[1], 3, 40)
    for one in (ENGINE_.new_game(PAIRS[0]), game, game.clone(),
                game.determinize(0, random.Random(1)), load_game(ENGINE_, game.save())):
        assert undeclared(one.__dict__) == []


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 10_000), cut=st.integers(0, 300))
def test_every_declared_field_survives_a_copy_and_a_save_and_load(pair, seed, cut):
    game = at_decision(pair, seed, cut)
    game.set_data["probe"] = {"uids": sorted(game.permanents)[:3], "turn": game.turn}
    if game.permanents:  # the trigger watch's killers too
        game.triggers.last_hit[min(game.permanents)] = (None, game.turn)
    state = saved_state(game)
    assert saved_state(game.clone()) == state
    loaded = load_game(ENGINE_, game.save(), agents=[None, RandomAgent(seed + 1)],
                       clock=GameClock(lambda: 100.0))
    assert saved_state(loaded) == state
    assert loaded.machine.frames == game.machine.frames
    assert loaded.decision is None or game.decision is not None and \
        loaded.decision.labels() == game.decision.labels()
    for name in GAME_STATE:  # each declared field is where the save said
        assert name in ("log", "triggers", "machine", "seed", "decks", "agents") \
            or name in state, name


def test_a_field_added_to_a_copy_of_the_declaration_reaches_every_consumer():
    game = at_decision(PAIRS[0], 2, 30)
    game.omens = 7  # a new plain field of the game
    declaration = {**GAME_STATE, "omens": "value"}
    copied = copy_game(game, Game.__new__(Game), declaration=declaration)
    assert copied.omens == 7
    state = saved_state(game, declaration)
    assert state["omens"] == 7
    data = _save_with(game, state)
    rebuilt = _build(ENGINE_, parse_save(data), [None, RandomAgent(3)], None, declaration)
    assert rebuilt.omens == 7
    # the declaration as it is does not name it: each consumer refuses, naming it
    with pytest.raises(CloneError, match="omens"):
        game.clone()
    with pytest.raises(CloneError, match="omens"):
        game.determinize(0, random.Random(1))
    with pytest.raises(SaveError, match="omens"):
        game.save()
    with pytest.raises(SaveError, match="omens"):
        _build(ENGINE_, parse_save(data), [None, RandomAgent(3)], None)


def _save_with(game: Game, state: dict) -> dict:
    omens = game.__dict__.pop("omens")
    try:
        data = game.save()
    finally:
        game.omens = omens
    data["state"] = state
    return data
