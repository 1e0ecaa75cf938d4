"""Saving and loading games (issue 8): a game saved as JSON at any step boundary, loaded into a
fresh engine, goes on with a log identical to the uninterrupted game's - for many seeds and cut
points, both sets' decks; the turn's 41.5 state and the step cursor travel with the game."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkk import Engine, GameClock, RandomAgent, Rulings, ScriptedAgent
from hkk._game import ExtractionOffer
from hkk._runner import advance, play_game
from hkk._saving import SaveError, load_game, save_game

PAIRS = [("alap:tuz", "alap:viz"), ("alap:viz", "mereg:mocsar"), ("mereg:mocsar", "alap:tuz")]

ENGINE = Engine.installed()  # plays the games
LOADER = Engine.installed()  # another engine, that only loads them


def played(decks, seed, **kwargs):
    return ENGINE.play(list(decks), seed=seed, **kwargs)


def played_by_steps(decks, seed):
    """The whole game, and how many step boundaries it has (calls of ``advance``)."""
    game, count = ENGINE.new_game(list(decks), seed=seed), 1
    while advance(game):
        count += 1
    return game, count


def to_cut(decks, seed, cut, **kwargs):
    game = ENGINE.new_game(list(decks), seed=seed, **kwargs)
    for _ in range(cut):
        if not advance(game):
            break
    return game


def derived(game) -> dict:
    """What loading rebuilds instead of reading it from the save."""
    return {
        "mods": {uid: {k: v for k, v in p.mods.items() if v}
                 for uid, p in game.permanents.items()},
        "statics": [(s.uid, m.stat, m.by, m.target) for s, m in game.statics],
        "abilities": {t: [i.label for i in items] for t, items in game.abilities_at.items()
                      if items},
    }


def resume(game, engine=LOADER, agents=None):
    """Save as JSON text, load into ``engine``, check it stands where the game stood, and play
    both on."""
    text = json.dumps(save_game(game))
    loaded = load_game(engine, text, agents)
    assert loaded.snapshot() == game.snapshot()
    assert derived(loaded) == derived(game)
    assert (loaded.step_index, loaded.step, loaded.turn_passed) == \
        (game.step_index, game.step, game.turn_passed)
    play_game(loaded)
    return loaded


@pytest.mark.parametrize("decks", PAIRS, ids=["-".join(p) for p in PAIRS])
def test_resuming_at_every_step_boundary_of_the_first_turns_gives_the_same_game(decks):
    """Cut points: before setup, after it, and every step boundary of the first four turns;
    the game stops at turn 6 (a turn limit in the rulings: saved too) to keep this quick."""
    seed, rulings = 11, Rulings(max_turns=6)
    whole = played(decks, seed, rulings=rulings)
    game = ENGINE.new_game(list(decks), seed=seed, rulings=rulings)
    cuts = 0
    while game.turn <= 4 and not game.over:
        loaded = resume(game)
        assert loaded.log.as_dicts() == whole.log.as_dicts(), f"cut {cuts}"
        assert loaded.winner == whole.winner
        advance(game)
        cuts += 1
    assert cuts == 2 + 4 * (1 + len(ENGINE.turn) + 1)  # start, steps, end of each turn


@pytest.mark.slow  # 25 whole games, each resumed
@settings(max_examples=25, deadline=None)
@given(decks=st.sampled_from(PAIRS), seed=st.integers(0, 10_000), where=st.integers(0, 10_000))
def test_resuming_anywhere_in_a_fresh_engine_gives_the_same_game(decks, seed, where):
    whole, count = played_by_steps(decks, seed)
    loaded = resume(to_cut(decks, seed, where % count), engine=Engine.installed())
    assert loaded.log.as_dicts() == whole.log.as_dicts()
    assert loaded.winner == whole.winner


def test_resuming_right_after_the_active_player_passed_the_turn():
    """41.5: saved at the end of the main phase in which the active player passed the turn, the
    loaded game knows it: in the combat phase only his opponent acts.  The clock (41.7) closes
    that turn once, at the pass, whether the game was saved before the pass or after it."""
    main = [s.hook for s in ENGINE.turn].index("main_phase")
    for seed in range(50):
        whole = played(PAIRS[1], seed)
        passed = [e for e in whole.log.of_kind("turn_passed") if e.step == "main_phase"]
        if passed:
            break
    turn, player = passed[0].turn, passed[0]["player"]
    game = ENGINE.new_game(list(PAIRS[1]), seed=seed)
    for cut in (0, main + 1):  # the turn just started; the main phase just ended
        while not (game.turn == turn and game.step_index == cut):
            advance(game)
        assert game.turn_passed == (cut > 0)
        loaded = resume(game)
        assert loaded.log.as_dicts() == whole.log.as_dicts()
        combat = [e for e in loaded.log.of_kind("decision")
                  if e.turn == turn and e.step == "combat_phase"]
        assert combat and all(e["player"] != player for e in combat)
        closed = [e for e in loaded.log.of_kind("clock_closed") if e.turn == turn]
        assert [e.step for e in closed] == ["main_phase"]


def test_a_random_agent_with_its_own_rng_resumes_with_its_state():
    def agents():
        return (RandomAgent(seed=1), RandomAgent(seed=2))
    whole = played(PAIRS[0], 3, agents=agents())
    game = to_cut(PAIRS[0], 3, 60, agents=agents())
    rebuilt = resume(game)  # the save's built-in agents, their RNGs included
    given_fresh = resume(game, agents=agents())  # passed agents get the saved RNG state
    assert rebuilt.log.as_dicts() == given_fresh.log.as_dicts() == whole.log.as_dicts()


def test_an_agent_that_is_not_built_in_must_be_passed():
    game = to_cut(PAIRS[0], 1, 20, agents=(ScriptedAgent(), ScriptedAgent()))
    data = save_game(game)
    with pytest.raises(SaveError, match="player 1's agent was a hkk._agents.ScriptedAgent"):
        load_game(LOADER, data)
    assert load_game(LOADER, data, agents=(ScriptedAgent(), ScriptedAgent())).turn == game.turn


#: Parts of the state that are often empty: the round trip is checked where each is not.
FEATURES = {
    "usage this turn": lambda g: g.usage_turn,
    "prep attempts (29.4.9)": lambda g: g.attempted,
    "counters": lambda g: any(p.counters for p in g.permanents.values()),
    "defence bonus": lambda g: any(p.defence_bonus for p in g.permanents.values()),
    "effects": lambda g: g.effects,
    "modifier sums": lambda g: any(v for p in g.permanents.values() for v in p.mods.values()),
}


def test_the_save_is_plain_json_and_loading_loses_nothing():
    """save(load(save(g))) == save(g), at the first cut where each part of the state is in
    use, and what loading rebuilds (modifier sums…) is what the game had.  The clock does not
    move, so its elapsed times are equal too; an extraction offer is added by hand (they rarely
    outlive a step)."""
    def still() -> float:
        return 5.0
    game = ENGINE.new_game(list(PAIRS[1]), seed=0, clock=GameClock(still))
    missing = dict(FEATURES)
    while missing and advance(game):
        found = [name for name, present in missing.items() if present(game)]
        if not found:
            continue
        for name in found:
            del missing[name]
        data = save_game(game)
        assert json.loads(json.dumps(data)) == data
        loaded = load_game(LOADER, data, clock=GameClock(still))
        assert save_game(loaded) == data, found
        assert derived(loaded) == derived(game), found
    assert not missing
    creature = game.creatures()[0]
    game.offers.append(ExtractionOffer(creature.card.id, creature.uid, 2, 1, "end"))
    data = save_game(game)
    assert save_game(load_game(LOADER, data, clock=GameClock(still))) == data


def test_a_finished_game_and_one_before_setup_load_as_they_are():
    whole = played(PAIRS[2], 4)
    loaded = load_game(LOADER, save_game(whole))
    assert loaded.over and loaded.winner == whole.winner
    assert loaded.log.as_dicts() == whole.log.as_dicts()
    fresh = resume(ENGINE.new_game(list(PAIRS[2]), seed=4))
    assert fresh.log.as_dicts() == whole.log.as_dicts()


@pytest.mark.parametrize("text", [
    "[]",  # an event list (hkk play --json), not a save
    "{}",
    '{"format": "something-else/3"}',
    '{"format": "hkk-save/2",',
])
def test_a_foreign_or_broken_save_is_one_clear_error(text):
    with pytest.raises(SaveError) as info:
        load_game(LOADER, text)
    message = str(info.value)
    assert message.startswith("not an hkk save (hkk-save/4): ") and "\n" not in message


def test_a_save_with_a_broken_state_is_one_clear_error():
    data = save_game(to_cut(PAIRS[1], 5, 40))
    data["state"]["permanents"][0]["card"] = "alap:nincs-ilyen"
    with pytest.raises(SaveError, match="^the save's state is not a game's: players.*: "
                                        "alap:nincs-ilyen is not in the deck dealt"):
        load_game(LOADER, data)


def test_a_save_of_other_versions_is_refused_unless_forced():
    data = save_game(to_cut(PAIRS[1], 5, 40))
    data["engine"] = "0.0.1"
    data["sets"]["mereg"] = "9.9.9"
    with pytest.raises(SaveError, match=r"engine 0\.0\.1 vs 0\.1\.0; set mereg 9\.9\.9 vs "):
        load_game(LOADER, data)
    assert load_game(LOADER, data, force=True).turn > 0


def test_a_game_is_saved_only_between_steps():
    game = to_cut(PAIRS[0], 1, 10)
    game.begin_moment()
    with pytest.raises(SaveError, match="between two steps"):
        save_game(game)


def test_a_game_pickles_and_goes_on_the_same():
    whole = played(PAIRS[1], 9)
    game = pickle.loads(pickle.dumps(to_cut(PAIRS[1], 9, 90)))
    play_game(game)
    assert game.log.as_dicts() == whole.log.as_dicts()
