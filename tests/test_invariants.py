"""hkk._invariants: the states no game may be in, which ``hkk verify`` checks in every game it
plays; and a seeded fuzz of every deck pairing of the installed sets with all of them checked."""

from __future__ import annotations

import itertools

import pytest

from hkk import Engine
from hkk._errors import InvariantViolation
from hkk._invariants import check_finished, check_settled, watch
from hkk._runner import play_game
from hkk.events import GameEnded
from hkk.verify import play_checked

from helpers import cid, creature, game_with, run_until

BEAR = creature("bear", 2, 3)


def test_a_creature_at_0_ep_left_in_play_after_an_ep_check_is_named():
    game = watch(game_with([BEAR]))
    bear = game.enter_play(0, cid("bear"))
    run_until(game, "main_phase")
    bear.damage_taken = 3  # behind the engine's back: no check follows
    with pytest.raises(InvariantViolation) as info:
        check_settled(game)
    assert info.value.invariant == "hp-settled" and info.value.card == cid("bear")
    assert str(info.value) == ("invariant hp-settled (turn 1, main_phase): tt:bear#1 (player 1) "
                               "is still in play with Ép 0 after an Ép check")


def test_an_ep_check_that_settles_the_board_passes():
    game = watch(game_with([BEAR]))
    bear = game.enter_play(0, cid("bear"))
    run_until(game, "main_phase")
    bear.damage_taken = 3
    game.check_hp("D-hp-check")  # the watched check: it destroys the bear, then checks
    assert bear.uid not in game.permanents


def test_negative_vp_is_named():
    game = game_with([BEAR])
    game.players[1].vp = -1
    with pytest.raises(InvariantViolation, match=r"not-negative .*player 2 has -1 VP"):
        check_settled(game)


def _finished_game():
    game = watch(game_with([BEAR], decks=([cid("bear")] * 8, [cid("bear")] * 8)))
    play_game(game, max_turns=6)
    check_finished(game)  # a sound game passes
    return game


def test_a_card_missing_from_every_zone_is_named():
    game = _finished_game()
    player = game.players[0]
    zone = next((z for z in (player.deck, player.hand, player.graveyard) if z), None)
    if zone is not None:
        zone.remove(cid("bear"))
    else:  # all of them in play
        del game.permanents[next(p.uid for p in game.permanents.values() if p.owner == 0)]
    with pytest.raises(InvariantViolation, match=r"zones .*missing from every zone \['tt:bear'\]"):
        check_finished(game)


def test_an_effect_gone_without_ending_is_named():
    game = _finished_game()
    game.add_effect("vp_regen", 1, "permanent", player=0)
    game.effects.clear()  # gone without an effect_ended event
    events = game.log._events
    events.append(events.pop(-2))  # game_over stays the last event
    with pytest.raises(InvariantViolation, match=r"effects .*started and neither ended nor is "
                                                 r"in force"):
        check_finished(game)


def test_a_second_game_end_is_named():
    game = _finished_game()
    game.log.append(GameEnded, winner=None, reason="again", rule=None)
    with pytest.raises(InvariantViolation, match="one-game-end .*2 game_over events"):
        check_finished(game)


# -- the fuzz: every deck pairing of the installed sets, all invariants --------------------------

FUZZ_SEEDS = range(24)  # x 9 pairings of the three installed decks: 216 games

@pytest.fixture(scope="module")
def fuzz_results():
    engine = Engine.installed(allow=["alap", "mereg"])  # the sets this repository ships
    decks = sorted(engine.decks)
    results = {}
    for a, b in itertools.product(decks, repeat=2):
        for seed in FUZZ_SEEDS:
            game, error = play_checked(engine, [engine.deck(a), engine.deck(b)], seed, None,
                                       timeout=60)
            results[(a, b, seed)] = error
    return results


@pytest.mark.slow  # 216 games, every invariant checked at every step
def test_fuzz_every_pairing_keeps_every_invariant(fuzz_results):
    assert len(fuzz_results) == 9 * len(FUZZ_SEEDS)  # alap:tuz, alap:viz, mereg:mocsar
    messages = {key: str(error) for key, error in fuzz_results.items() if error is not None}
    assert not messages, messages
