"""Whole-game behaviour: determinism, the end of the game, VP regeneration (29.3), playing cards
in the main phase (8.1), the [D] provisional combat, monster components, scope (K 99.5) and
max Ép changes (K 4.25.4)."""

from __future__ import annotations

import pytest

from hkk import RandomAgent, RuleViolation, ScriptedAgent
from hkk._errors import GameOver
from hkk._runner import play_game, play_turn, run_step, start_turn

from helpers import (
    Passer,
    Wants,
    building,
    cid,
    creature,
    game_with,
    item,
    item_plugin,
    run_until,
    spell,
    step_named,
)

BRUTE = creature("brute", 2, 2, components=1, vp=1)


def random_game(seed: int):
    game = game_with([BRUTE], decks=([cid("brute")] * 15, [cid("brute")] * 15), seed=seed,
                     agents=(RandomAgent(2 * seed), RandomAgent(2 * seed + 1)))
    play_game(game)
    return game


# -- determinism and the end of the game ---------------------------------------------------------

def test_same_seed_same_agents_identical_log():
    first, second = random_game(7), random_game(7)
    assert first.log.as_dicts() == second.log.as_dicts()
    assert first.log.to_json() == second.log.to_json()
    assert random_game(8).log.as_dicts() != first.log.as_dicts()


@pytest.mark.parametrize("seed", range(5))
def test_games_end_with_a_winner(seed):
    game = random_game(seed)
    assert game.over and game.winner in (0, 1)
    over = game.log.of_kind("game_over")
    assert len(over) == 1 and over[0]["winner"] == game.winner
    assert over[0]["reason"] in ("hp", "empty_deck")


def test_3_12_player_at_0_ep_loses():
    hit = item_plugin("prep_stage2", lambda g: [item("hit", lambda g2: g2.damage(
        g2.players[1], 5), controller=0)] if g.active == 0 else [])
    game = game_with(plugins=[hit], agents=[Passer(), Passer()])
    game.players[1].hp = 5
    winner = play_game(game)
    assert winner == 0 and game.players[1].hp == 0
    over = game.log.of_kind("game_over")[0]
    assert (over["reason"], over["rule"], over.step) == ("hp", "3.12", "prep_stage2")
    assert not game.log.of_kind("step_started")[-1]["hook"] == "prep_stage3"  # stopped at once


def test_3_12_both_players_at_0_ep_is_a_draw():
    hit = item_plugin("prep_stage2", lambda g: [item("hit both", lambda g2: [
        g2.damage(p, 20) for p in g2.players])])
    game = game_with(plugins=[hit], agents=[Passer(), Passer()])
    assert play_game(game) is None and game.over


# -- VP regeneration (29.3) ----------------------------------------------------------------------

@pytest.mark.parametrize("own_turn, expected", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5),
                                                (6, 5), (12, 5)])
def test_29_3_vp_regeneration_table(own_turn, expected):
    game = game_with()
    game.players[0].turns_taken = own_turn - 1
    game.players[1].turns_taken = 40  # the opponent's turns do not count
    run_until(game, "vp_regeneration", inclusive=True)
    assert game.log.of_kind("vp_regenerated")[0]["amount"] == expected
    assert game.players[0].vp == expected and game.players[1].vp == 0


@pytest.mark.parametrize("reserve, guard, bonus", [(1, 0, 0), (2, 0, 1), (3, 2, 1), (5, 0, 2),
                                                   (0, 4, 0)])
def test_29_3_reserve_bonus_every_second_creature_active_or_passive(reserve, guard, bonus):
    game = game_with([creature("c")])
    for i in range(reserve):
        game.enter_play(0, cid("c"), active=bool(i % 2))
    for _ in range(guard):
        game.enter_play(0, cid("c"), "guard_post", active=True)
    for _ in range(4):
        game.enter_play(1, cid("c"))  # the opponent's reserve does not count
    run_until(game, "vp_regeneration", inclusive=True)
    assert game.players[0].vp == 1 + bonus


def test_d_unspent_vp_carries_over():
    game = game_with(agents=[Passer(), Passer()])
    for _ in range(3):
        play_turn(game)
    assert game.players[0].vp == 1 + 2 and game.players[1].vp == 1


# -- main phase: playing cards (8.1) ----------------------------------------------------------

def test_8_1_main_phase_play_pays_vp_and_components():
    pricey = creature("pricey", 3, 3, vp=2, cost={"vp": 2, "components": 1})
    agent = ScriptedAgent(["play tt:pricey"], fallback=Passer(), only=("action",))
    game = game_with([pricey], agents=[agent, Passer()])
    game.players[0].hand.append(cid("pricey"))
    game.players[0].vp, game.players[0].components = 2, 1  # + 1 VP regenerated
    run_until(game, "main_phase", inclusive=True)
    played = game.log.of_kind("card_played")
    assert [(e["card"], e["vp"], e["components"]) for e in played] == [(cid("pricey"), 2, 1)]
    assert (game.players[0].vp, game.players[0].components) == (1, 0)
    assert cid("pricey") not in game.players[0].hand



def test_8_1_a_spell_that_ends_the_game_still_goes_to_the_graveyard():
    # drawing from an empty deck loses ([D] D-empty-deck): the game ends inside the effect
    finisher = spell("finisher", [{"do": "draw", "count": 30, "target": "controller"}])
    agent = ScriptedAgent(["play tt:finisher"], fallback=Passer(), only=("action",))
    game = game_with([finisher], agents=[agent, Passer()])
    game.players[0].hand.append(cid("finisher"))
    with pytest.raises(GameOver):
        run_until(game, "main_phase", inclusive=True)
    assert game.log[-1].kind == "game_over" and game.winner == 1
    assert game.players[0].graveyard == [cid("finisher")]
    assert cid("finisher") not in game.players[0].hand

def test_8_1_a_card_that_cannot_be_paid_is_neither_offered_nor_playable():
    pricey = creature("pricey", 3, 3, cost={"vp": 2, "components": 1})
    agent = Passer()
    game = game_with([pricey], agents=[agent, Passer()])
    game.players[0].hand.append(cid("pricey"))
    game.players[0].vp = 5  # VP enough, no component
    run_until(game, "main_phase")
    assert game.playable(0) == []
    before = game.snapshot()
    with pytest.raises(RuleViolation) as err:
        game.play_card(0, cid("pricey"))
    assert err.value.rule == "8.1" and game.snapshot() == before
    run_step(game, step_named("main_phase"))
    assert not [o for d in agent.seen for o in d.labels() if o.startswith("play")]


def test_8_1_2_creatures_enter_the_reserve_passive_and_become_active_next_own_turn():
    game = game_with([creature("cub")], agents=[Wants("play tt:cub"), Passer()])
    game.players[0].hand.append(cid("cub"))
    play_turn(game)
    entered = game.log.of_kind("entered_play")
    assert [(e["zone"], e["active"]) for e in entered] == [("reserve", False)]
    uid = entered[0]["uid"]
    play_turn(game)  # the opponent's turn: still passive
    assert game.permanents[uid].active is False
    play_turn(game)
    became = [e for e in game.log.of_kind("became_active") if e["uid"] == uid]
    assert [e.step for e in became] == ["prep_stage3"]


def test_d_buildings_passive_a_played_building_enters_play_passive():
    game = game_with([building("hut")], agents=[Wants("play tt:hut"), Passer()])
    game.players[0].hand.append(cid("hut"))
    play_turn(game)
    entered = game.log.of_kind("entered_play")
    assert [(e["card"], e["zone"], e["active"]) for e in entered] == [
        (cid("hut"), "buildings", False)]
    play_turn(game)
    play_turn(game)
    became = [e.step for e in game.log.of_kind("became_active") if e["uid"] == entered[0]["uid"]]
    assert became == ["prep_stage3"]


def test_8_1_only_the_active_player_plays_non_instant_cards():
    game = game_with([creature("c")])
    game.players[1].hand.append(cid("c"))
    run_until(game, "main_phase")
    assert game.playable(1) == []
    with pytest.raises(RuleViolation):
        game.play_card(1, cid("c"))


# -- [D] combat -------------------------------------------------------------------------------

def test_d_combat_attack_block_and_unblocked_damage():
    defs = [creature("big", 3, 4), creature("small", 1, 2, components=2)]
    attacker = Wants("use attack", "attack with", "attack with", pass_label="pass")
    defender = Wants("block with tt:small")
    game = game_with(defs, agents=[attacker, defender])
    big = game.enter_play(0, cid("big"), "guard_post", active=True)
    big2 = game.enter_play(0, cid("big"), "guard_post", active=True)
    small = game.enter_play(1, cid("small"), "guard_post", active=True)
    run_until(game, "combat_phase", inclusive=True)
    attack = game.log.of_kind("attack")[0]
    assert attack["attackers"] == [big.uid, big2.uid]
    assert attack["blockers"] == [small.uid, None]
    assert game.players[1].hp == 20 - 3  # the unblocked one
    assert small.uid not in game.permanents  # 3 damage to a 2-Ép blocker
    assert game.hp(big) == 4 - 1
    assert not big.active and not big2.active  # attacking made them passive


# -- monster components ------------------------------------------------------------------------

KILL = spell("kill", [{"do": "destroy", "target": "chosen_opponent_creature"}])


def test_components_extracted_by_the_opponent_during_the_phase():
    game = game_with([KILL, creature("beast", 1, 2, components=3)],
                     agents=[Wants("play tt:kill", "extract"), Passer()])
    beast = game.enter_play(1, cid("beast"), active=True)
    game.players[0].hand.append(cid("kill"))
    run_until(game, "main_phase", inclusive=True)
    died = game.log.of_kind("destroyed", "died")[0]
    assert (died["uid"], died["components_offered"]) == (beast.uid, 3)
    extracted = game.log.of_kind("components_extracted")
    assert [(e["player"], e["amount"], e.step) for e in extracted] == [(0, 3, "main_phase")]
    assert game.players[0].components == 3 and game.players[1].components == 0


def test_components_lapse_at_the_end_of_the_phase():
    game = game_with([KILL, creature("beast", 1, 2, components=3)],
                     agents=[Wants("play tt:kill", "decline"), Passer()])
    game.enter_play(1, cid("beast"), active=True)
    game.players[0].hand.append(cid("kill"))
    play_turn(game)
    declined = game.log.of_kind("components_declined")
    assert [e.step for e in declined] == ["main_phase"]  # asked one last time, at phase end
    assert game.players[0].components == 0 and game.offers == []
    later = [d for d in game.agents[0].seen if d.kind in ("action", "extract")
             and any(o.startswith("extract") for o in d.labels())]
    assert len(later) == 2  # in the main phase and at its end, never in combat


def test_no_components_from_a_creature_sacrificed_as_a_cost():
    altar = creature("altar", 1, 2, components=4, abilities=[{
        "kind": "activated", "cost": {"sacrifice_self": True},
        "effect": {"do": "gain_vp", "amount": 2, "target": "controller"}}])
    game = game_with([altar], agents=[Wants("use tt:altar"), Passer()])
    game.enter_play(0, cid("altar"), active=True)
    play_turn(game)
    died = game.log.of_kind("died")
    assert [(e["cause"], e["components_offered"]) for e in died] == [("sacrificed_as_cost", 0)]
    assert game.players[1].components == 0 and game.players[0].vp == 1 + 2


def test_29_4_11_no_components_from_a_prep_stage_2_death_for_the_rest_of_the_turn():
    killer = creature("killer", abilities=[{"kind": "automatic", "timing": "prep_stage2",
                                            "effect": {"do": "destroy",
                                                       "target": "opponent_creatures"}}])
    game = game_with([killer, creature("beast", 1, 2, components=3)],
                     agents=[Passer("pass"), Passer("pass")])
    game.enter_play(0, cid("killer"), active=True)
    game.enter_play(1, cid("beast"), active=True)
    play_turn(game)
    assert game.log.of_kind("destroyed", "died")[0]["components_offered"] == 0
    assert not [d for d in game.agents[0].seen
                if any(o.startswith("extract") for o in d.labels())]
    assert game.players[0].components == 0


# -- scope (K 99.5) and max Ép (K 4.25.4) --------------------------------------------------------

def test_99_5_non_permanent_effect_only_affects_permanents_already_in_play():
    horn = creature("horn", 0, 3, abilities=[{
        "kind": "activated", "cost": {"vp": 1},
        "effect": {"do": "modify", "stat": "hp", "by": 2, "target": "own_creatures",
                   "duration": "this_turn"}}])
    banner = creature("banner", 0, 3, abilities=[{"kind": "static", "effect": {
        "do": "modify", "stat": "damage", "by": 1, "target": "own_creatures",
        "duration": "permanent"}}])
    game = game_with([horn, banner, creature("cub")],
                     agents=[Wants("use tt:horn", "play tt:cub"), Passer()])
    old = game.enter_play(0, cid("horn"), active=True)
    game.enter_play(0, cid("banner"), active=True)
    game.players[0].hand.append(cid("cub"))
    run_until(game, "main_phase", inclusive=True)
    new = next(p for p in game.creatures(0) if p.card.id == cid("cub"))
    assert game.max_hp(old) == 5 and game.max_hp(new) == 2  # the effect: not for newcomers
    assert game.damage_value(new) == 2  # a static ability is no lasting effect: it applies


def test_4_25_4_lowering_max_ep_is_not_damage_and_can_kill():
    shrink = spell("shrink", [{"do": "modify", "stat": "hp", "by": -2,
                               "target": "chosen_opponent_creature"}])
    game = game_with([shrink, creature("c", 1, 2, components=1)],
                     agents=[Wants("play tt:shrink"), Passer()])
    c = game.enter_play(1, cid("c"), active=True)
    game.players[0].hand.append(cid("shrink"))
    run_until(game, "main_phase", inclusive=True)  # [D] Ép check after the action
    assert not game.log.of_kind("damaged")
    died = game.log.of_kind("died")
    assert [(e["uid"], e["cause"]) for e in died] == [(c.uid, "hp")]


def test_4_25_4_raising_max_ep_is_not_healing_and_41_3_restores_only_the_damaged():
    game = game_with([creature("c", 1, 3)], agents=[Passer(), Passer()])
    c = game.enter_play(0, cid("c"), active=True)
    start_turn(game)
    c.damage_taken = 2  # damage from an earlier turn, not "during the turn"
    game.add_effect("hp", 2, "permanent", targets=[c])
    assert game.hp(c) == 3 and not game.log.of_kind("healed")
    run_until(game, "end_stage4", inclusive=True, start=False)
    assert not game.log.of_kind("restored") and game.hp(c) == 3


def test_a_listener_may_name_the_event_kinds_it_hears():
    from hkk import Engine
    engine = Engine.installed(allow=["alap"])
    game = engine.new_game(["alap:tuz", "alap:viz"], seed=3)
    heard: list[str] = []
    everything: list[str] = []
    game.log.subscribe(lambda e: heard.append(e.kind), kinds=["died", "card_played"])
    game.log.subscribe(lambda e: everything.append(e.kind))
    game.play()
    assert heard and set(heard) <= {"died", "card_played"}
    assert heard == [e.kind for e in game.log if e.kind in ("died", "card_played")]
    assert everything == game.log.kinds()
