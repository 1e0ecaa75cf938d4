"""The rulings of rules-reference.md §4, one test each, named after the rule they rest on
(``test_<rule>_ruling<n>_...``)."""

from __future__ import annotations

import pytest

from hkk import RuleViolation, ScriptedAgent
from hkk._clock import GameClock
from hkk._hookspecs import hookimpl
from hkk._pending import ACTIVATED, Pending
from hkk._runner import play_turn, run_step, start_turn

from conftest import FakeTime
from helpers import (
    Passer,
    building,
    cid,
    creature,
    game_with,
    item,
    item_plugin,
    resolved,
    run_until,
    scripted,
    spell,
    step_named,
)


def auto(timing: str, effect: dict, **extra) -> dict:
    return {"kind": "automatic", "timing": timing, "effect": effect, **extra}


def prep_ability(effect: dict, vp: int = 1) -> dict:
    return {"kind": "activated", "timing": "prep_stage2", "usable_in_preparation": True,
            "cost": {"vp": vp}, "effect": effect}


def pick(text: str):
    def choose(decision):
        return next(o for o in decision.options if text in o.label)
    return choose


def cards_resolved(game, step: str) -> list[str]:
    return [e["card"] for e in game.log.of_kind("resolving") if e.step == step]


# 1 -------------------------------------------------------------------------------------------

def test_29_3_ruling1_sixth_turn_with_four_reserve_creatures_gives_7_vp():
    seen = []
    reader = item_plugin("prep_stage2", lambda g: [item(
        "VP received this turn", lambda g2: seen.append(g2.active_player.vp_received))])
    game = game_with([creature("c")], plugins=[reader])
    for _ in range(4):
        game.enter_play(0, cid("c"))  # passive ones count too
    game.players[0].turns_taken = 5  # this is his 6th turn
    run_until(game, "prep_stage2", inclusive=True)
    assert game.log.of_kind("vp_regenerated")[0]["amount"] == 7
    assert seen == [7]
    assert game.players[0].vp == 7


# 2 -------------------------------------------------------------------------------------------

def test_29_4_1_ruling2_active_player_orders_opponents_automatics_around_his_ability():
    defs = [creature("opp1", abilities=[auto("prep_stage2", {"do": "gain_vp", "amount": 1,
                                                             "target": "controller"})]),
            creature("opp2", abilities=[auto("prep_stage2", {"do": "gain_components",
                                                             "count": 1})]),
            creature("mine", abilities=[prep_ability({"do": "draw", "count": 1})])]
    game = game_with(defs, agents=[scripted(pick("opp2"), pick("mine"), only=("order",)),
                                   scripted()])
    game.enter_play(1, cid("opp1"), active=True)
    game.enter_play(1, cid("opp2"), active=True)
    game.enter_play(0, cid("mine"), active=True)
    run_until(game, "prep_stage2", inclusive=True)
    assert cards_resolved(game, "prep_stage2") == [cid("opp2"), cid("mine"), cid("opp1")]
    orders = [e for e in game.log.of_kind("decision") if e["decision"] == "order"]
    assert [(e["player"], e["options"]) for e in orders] == [(0, 3), (0, 2)]


# 3 -------------------------------------------------------------------------------------------

def test_29_4_2_ruling3_buff_expiry_and_beginning_of_turn_effect_are_one_moment():
    seen = []  # the buffed creature's Ép, as a second item of the moment binds its choices
    reader = item_plugin("prep_stage2_start", lambda game: [Pending(
        "reader", lambda g, it, b: None, bind=lambda g, it: seen.append(g.hp(buffed)))])
    defs = [creature("buffed", 1, 2),
            creature("herald", abilities=[auto("prep_stage2_start", {
                "do": "damage", "amount": 1, "target": "opponent_creatures"})])]
    agents = [scripted(), scripted()]
    game = game_with(defs, agents=agents, plugins=[reader])
    buffed = game.enter_play(0, cid("buffed"), active=True)
    game.enter_play(1, cid("herald"), active=True)
    game.add_effect("hp", 2, "until_preparation", targets=[buffed])
    run_until(game, "prep_stage2_start", inclusive=True)
    step = [e for e in game.log if e.step == "prep_stage2_start"]
    # neither player could demand an order of the two items: nobody was asked anything
    assert not [e for e in step if e.kind == "decision"]
    assert not [d for a in agents for d in a.seen]
    # every item is bound against the state before the moment: the buff still counts
    assert seen == [4]
    moments = [e for e in step if e.kind == "moment"]
    assert [(e["items"], e["ends"]) for e in moments] == [
        (["reader", f"{cid('herald')}#2:0"], ["until_own_preparation", "until_preparation"])]
    assert game.hp(buffed) == 1  # 2 max Ép again, 1 damage


# 4 -------------------------------------------------------------------------------------------

def test_29_4_3_ruling4_beginning_of_the_preparation_phase_is_stage_2_never_stage_1():
    game = game_with([creature("early", abilities=[auto("prep_stage2_start", {
        "do": "gain_components", "count": 1})])])
    game.enter_play(0, cid("early"), active=True)
    run_until(game, "vp_regeneration", inclusive=True)
    assert game.players[0].components == 0
    run_step(game, step_named("prep_stage2_start"))
    assert [e.step for e in game.log.of_kind("components_gained")] == ["prep_stage2_start"]


# 5 -------------------------------------------------------------------------------------------

def test_29_4_6_ruling5_playing_from_hand_in_the_preparation_phase_is_refused():
    game = game_with([creature("c")])
    run_until(game, "prep_stage2")
    game.players[0].hand.append(cid("c"))
    before = game.snapshot()
    with pytest.raises(RuleViolation) as err:
        game.play_card(0, cid("c"))
    assert err.value.rule == "29.4.6"
    assert game.snapshot() == before


# 6 -------------------------------------------------------------------------------------------

def test_29_4_7_ruling6_only_allowed_abilities_once_per_turn_even_after_a_failed_attempt():
    defs = [creature("plain", abilities=[{"kind": "activated", "timing": "end_stage1",
                                          "effect": {"do": "draw", "count": 1}}]),
            creature("allowed", abilities=[prep_ability(
                {"do": "destroy", "target": "chosen_opponent_creature"})])]
    game = game_with(defs)
    game.enter_play(0, cid("plain"), active=True)
    game.enter_play(0, cid("allowed"), active=True)
    game.players[0].vp = 5
    # a plugin offers "plain" in stage 2 too: its text does not allow it, so it is refused
    offer = item_plugin("prep_stage2", lambda g: [item(
        "plain in stage 2", lambda g2: g2.draw(0), controller=0, kind=ACTIVATED)])
    game.engine.pm.register(offer)
    run_until(game, "prep_stage2", inclusive=True)
    used = resolved(game, "prep_stage2")
    assert used == [f"{cid('allowed')}#2:0"]  # once: no target, failed, not tried again
    assert not game.log.of_kind("destroyed", "died")


# 7 -------------------------------------------------------------------------------------------

def test_29_4_10_ruling7_killed_in_stage_2_goes_at_once_and_gives_no_components():
    defs = [creature("bolt", abilities=[prep_ability(
                {"do": "damage", "amount": 3, "target": "chosen_opponent_creature"})]),
            creature("target3", 1, 3, components=2),
            creature("next", abilities=[auto("prep_stage2", {"do": "draw", "count": 1})])]
    game = game_with(defs, agents=[scripted(pick("bolt"), only=("order",)), scripted()])
    game.enter_play(0, cid("bolt"), active=True)
    victim = game.enter_play(1, cid("target3"), active=True)
    game.enter_play(0, cid("next"), active=True)
    play_turn(game)
    died = game.log.of_kind("died")[0]
    assert (died["uid"], died.step, died["components_offered"]) == (victim.uid, "prep_stage2", 0)
    next_resolution = next(e for e in game.log.of_kind("resolving")
                           if e.step == "prep_stage2" and e["card"] == cid("next"))
    assert died.seq < next_resolution.seq
    assert game.players[0].components == 0
    assert game.players[1].graveyard == [cid("target3")]


# 8 -------------------------------------------------------------------------------------------

class Poison:
    """A test rules plugin for K 121.1: in its controller's preparation phase a poisoned
    creature gets another counter and dies when its counters reach its current Ép."""

    @hookimpl
    def prep_stage2(self, game):
        def tick(perm):
            def apply(g, it, bound):
                g.add_counters(perm, "poison", 1, source="121.1")
                if perm.counters["poison"] >= g.hp(perm):
                    g.destroy(perm, "poison", rule="121.1")
            return Pending(f"poison {perm.describe()}", apply, controller=perm.controller,
                           source=perm, rule="121.1")
        return [tick(p) for p in game.creatures(game.active) if p.counters.get("poison")]


def test_121_1_ruling8_third_poison_counter_kills_without_components():
    game = game_with([creature("sick", 1, 3, components=2)], plugins=[Poison()],
                     agents=[Passer(), Passer()])
    sick = game.enter_play(0, cid("sick"), active=True)
    game.add_counters(sick, "poison", 2)
    play_turn(game)
    died = game.log.of_kind("died")
    assert [(e["uid"], e.step, e["rule"], e["components_offered"]) for e in died] == [
        (sick.uid, "prep_stage2", "121.1", 0)]
    assert game.players[1].components == 0


# 9 -------------------------------------------------------------------------------------------

def test_41_1_ruling9_optional_end_abilities_alternate_and_free_ones_must_be_used():
    def ability(vp):
        return {"kind": "activated", "timing": "end_stage1", "cost": {"vp": vp},
                "limit": "once_per_turn", "effect": {"do": "gain_components", "count": 1}}
    defs = [creature("opt", abilities=[ability(1)]), creature("free", abilities=[ability(0)])]
    agents = [scripted(pick("opt"), only=("action",)),
              scripted(pick("opt"), pick("free"), only=("action",))]
    game = game_with(defs, agents=agents)
    game.enter_play(0, cid("opt"), active=True)
    game.enter_play(1, cid("opt"), active=True)
    game.enter_play(1, cid("free"), active=True)
    game.players[0].vp = game.players[1].vp = 3
    start_turn(game)
    run_step(game, step_named("end_stage1"))
    turns = [(e["controller"], e["card"]) if e.kind == "resolving" else (e["player"], "pass")
             for e in game.log.of_kind("resolving", "passed")]
    assert turns == [(0, cid("opt")), (1, cid("opt")), (0, "pass"), (1, cid("free")),
                     (0, "pass"), (1, "pass")]
    # player 1 could not pass while the free, unconditional one was unused
    assert "pass" not in agents[1].seen[0].labels()
    assert [p.components for p in game.players] == [1, 2]


# 10 ------------------------------------------------------------------------------------------

def test_41_2_ruling10_automatic_end_of_turn_effects_are_all_carried_out():
    defs = [creature("potion", abilities=[auto("end_stage2", {"do": "gain_vp", "amount": 2,
                                                              "target": "controller"}),
                                          auto("end_stage2", {"do": "draw", "count": 1})])]
    agents = [Passer(), Passer()]
    game = game_with(defs, agents=agents)
    game.enter_play(0, cid("potion"), active=True)
    game.enter_play(1, cid("potion"), active=True)
    start_turn(game)
    run_step(game, step_named("end_stage2"))
    assert len(cards_resolved(game, "end_stage2")) == 4
    assert [p.vp for p in game.players] == [2, 2]
    assert [len(p.hand) for p in game.players] == [1, 1]
    assert not [d for a in agents for d in a.seen if d.kind == "use"]


# 11 ------------------------------------------------------------------------------------------

def test_41_3_ruling11_damaged_creature_and_building_back_to_max():
    game = game_with([creature("c", 1, 4), building("b", 5)])
    c = game.enter_play(0, cid("c"), active=True)
    b = game.enter_play(0, cid("b"), active=True)
    run_until(game, "end_stage3")
    game.damage(c, 3)
    game.damage(b, 2)
    run_step(game, step_named("end_stage3"))
    assert (game.hp(c), game.hp(b)) == (4, 5)


# 12 ------------------------------------------------------------------------------------------

class LosesEffectWatcher:
    """A real trigger: "when a creature loses an effect or its defence bonus, gain 9 VP" - a
    plugin's ``triggered`` hook listening to ``effect_ended`` and ``defence_bonus_lost``."""

    def __init__(self):
        self.calls = 0

    @hookimpl
    def trigger_kinds(self):
        return ["effect_ended", "defence_bonus_lost"]

    @hookimpl
    def triggered(self, game, event):
        self.calls += 1
        return [Pending(f"reacts to {event.kind} {event.seq}",
                        lambda g, i, b: g.gain_vp(0, 9, source="watcher"), controller=0)]


#: "Amikor egy rá ható hatás véget ér, 2 sebzést okoz az ellenfélnek." (card data)
EFFECT_ENDS = {"kind": "triggered", "when": {"event": "effect_ends", "which": "this"},
               "effect": {"do": "damage", "amount": 2, "target": "opponent"}}


def test_41_4_ruling12_bonus_and_effect_go_together_nothing_triggers_no_hp_check():
    watcher = LosesEffectWatcher()
    game = game_with([creature("c", 1, 1, abilities=[EFFECT_ENDS])], plugins=[watcher],
                     agents=[Passer(), Passer()])
    c = game.enter_play(0, cid("c"), active=True)
    run_until(game, "end_stage4")
    game.give_defence_bonus(c, 2)
    game.add_effect("hp", 1, "until_end_of_turn", targets=[c])
    game.damage(c, 3)  # 1 + 2 + 1 - 3 = 1 Ép
    vp_before = game.players[0].vp
    run_step(game, step_named("end_stage4"))
    step = [e for e in game.log if e.step == "end_stage4"]
    lost = [e for e in step if e.kind in ("effect_ended", "defence_bonus_lost")]
    moments = [e for e in step if e.kind == "moment"]
    assert len(lost) == 2 and len(moments) == 1
    assert watcher.calls == 0 and game.players[0].vp == vp_before  # never asked, never fired
    assert not game.log.of_kind("triggered") and game.players[1].hp == 20
    assert game.hp(c) == -2 and c.uid in game.permanents  # waits for the next prep phase
    assert not [e for e in step if e.kind in ("hp_check", "died")]


def test_41_4_ruling12_the_same_triggers_fire_when_the_loss_is_not_in_end_stage_4():
    # The control of the test above: the watcher and the card do fire on such a loss mid-turn.
    watcher = LosesEffectWatcher()
    game = game_with([creature("c", 1, 3, abilities=[EFFECT_ENDS])], plugins=[watcher],
                     agents=[Passer(), Passer()])
    c = game.enter_play(0, cid("c"), active=True)
    game.give_defence_bonus(c, 2)
    game.add_effect("hp", 1, "until_preparation", targets=[c])
    start_turn(game)
    run_step(game, step_named("prep_stage2_start"))
    game.remove_defence_bonus(c, rule="test")
    run_step(game, step_named("prep_stage2"))
    assert watcher.calls == 2 and len(game.log.of_kind("triggered")) == 3
    assert sum(e["amount"] for e in game.log.of_kind("vp_gained")
               if e["source"] == "watcher") == 18
    assert game.players[1].hp == 18


# 13 ------------------------------------------------------------------------------------------

def test_41_4_ruling13_non_active_players_creatures_keep_their_defence_bonus():
    game = game_with([creature("c", 1, 2)], agents=[Passer(), Passer()], active=1)
    defender = game.enter_play(0, cid("c"), active=True)
    run_until(game, "end_stage4")
    game.give_defence_bonus(defender, 3)
    run_step(game, step_named("end_stage4"))
    assert defender.defence_bonus == 3 and game.max_hp(defender) == 5
    assert not game.log.of_kind("defence_bonus_lost")


# 14 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("opponent_acts", [False, True])
def test_41_5_ruling14_after_active_pass_opponent_may_act_else_end_phase(opponent_acts):
    zap = spell("zap", [{"do": "damage", "amount": 1, "target": "opponent"}], instant=True)
    script = ["play tt:zap", "pass", "play tt:zap"] if opponent_acts else ["pass", "pass"]
    game = game_with([zap], agents=[Passer(), scripted(*script, only=("action",))])
    game.players[1].hand += [cid("zap"), cid("zap")]
    game.players[1].vp = 2
    play_turn(game)
    hooks = [e["hook"] for e in game.log.of_kind("step_started")]
    if opponent_acts:
        assert [e.step for e in game.log.of_kind("card_played")] == ["main_phase",
                                                                     "combat_phase"]
        assert game.players[0].hp == 18
    else:  # each remaining action phase opened for him alone; he acted in none
        assert hooks[hooks.index("main_phase"):hooks.index("main_phase") + 3] == [
            "main_phase", "combat_phase", "end_stage1"]
        asked = [e["player"] for e in game.log.of_kind("decision")
                 if e.step == "combat_phase" and e["decision"] == "action"]
        assert asked == [1]


# 15 ------------------------------------------------------------------------------------------

def test_41_6_ruling15_next_turn_follows_end_stage_4_at_once():
    game = game_with(agents=[Passer(), Passer()])
    play_turn(game)
    play_turn(game)
    events = list(game.log)
    first_end = next(i for i, e in enumerate(events) if e.kind == "turn_ended")
    assert events[first_end - 1].kind == "step_ended" and events[first_end - 1]["hook"] == \
        "end_stage4"
    following = [e for e in events[first_end + 1:] if e.kind == "step_started"][0]
    assert following["hook"] == "prep_stage1" and following.turn == 2
    assert events[first_end + 1].kind == "turn_started" and events[first_end + 1]["player"] == 1


# 16 ------------------------------------------------------------------------------------------

def test_41_7_ruling16_clock_closes_the_turn_at_the_signal_not_at_the_end():
    time = FakeTime()
    plugins = [item_plugin("prep_stage2", lambda g: [item("think", lambda g2: time.advance(30))]),
               item_plugin("end_stage3", lambda g: [item("stage 3", lambda g2: time.advance(50))])]
    game = game_with(plugins=plugins, agents=[Passer(), Passer()],
                     clock=GameClock(time_source=time))
    play_turn(game)
    assert game.clock.turn_times == {1: 30}
    signal = game.log.of_kind("turn_passed")[0]
    closed = game.log.of_kind("clock_closed")[0]
    assert closed.seq == signal.seq + 1 and closed["rule"] == "41.7"
    assert [e["hook"] for e in game.log.of_kind("step_started")][-4:] == [
        "end_stage1", "end_stage2", "end_stage3", "end_stage4"]


# 17 ------------------------------------------------------------------------------------------

def test_99_5_ruling17_until_end_of_turn_buff_skips_a_creature_played_later():
    rally = spell("rally", [{"do": "modify", "stat": "damage", "by": 1,
                             "target": "own_creatures", "duration": "until_end_of_turn"}])
    agent = ScriptedAgent(["play tt:rally", "play tt:late"], fallback=Passer(),
                          only=("action",))
    game = game_with([rally, creature("early", 2, 2), creature("late", 2, 2)],
                     agents=[agent, Passer()])
    early = game.enter_play(0, cid("early"), active=True)
    game.players[0].hand += [cid("rally"), cid("late")]
    run_until(game, "main_phase", inclusive=True)
    late = next(p for p in game.creatures(0) if p.card.id == cid("late"))
    assert game.damage_value(early) == 3
    assert game.damage_value(late) == 2


# 18 ------------------------------------------------------------------------------------------

def test_4_25_4_ruling18_raising_max_hp_is_not_healing_lowering_is_not_damage():
    grow = spell("grow", [{"do": "modify", "stat": "hp", "by": 2, "target": "chosen_creature",
                           "duration": "permanent"}])
    shrink = spell("shrink", [{"do": "modify", "stat": "hp", "by": -2,
                               "target": "chosen_creature", "duration": "permanent"}])
    agent = ScriptedAgent(["play tt:grow", "play tt:shrink"], fallback=Passer(),
                          only=("action",))
    game = game_with([grow, shrink, creature("c", 1, 3)], agents=[agent, Passer()])
    c = game.enter_play(0, cid("c"), active=True)
    game.players[0].hand += [cid("grow"), cid("shrink")]
    run_until(game, "main_phase")
    game.damage(c, 2)
    assert game.hp(c) == 1
    log_start = len(game.log)
    run_step(game, step_named("main_phase"))
    after = list(game.log)[log_start:]
    assert not [e for e in after if e.kind in ("healed", "damaged")]
    played = [e.seq for e in after if e.kind == "card_played"]
    assert len(played) == 2
    assert game.hp(c) == 1 and game.max_hp(c) == 3  # +2 then -2: current 3, then 1 again
    assert c.damage_taken == 2  # raising max Ép healed nothing


def test_4_25_4_ruling18_current_hp_follows_max_hp_at_once():
    game = game_with([creature("c", 1, 3)])
    c = game.enter_play(0, cid("c"), active=True)
    game.damage(c, 2)
    game.add_effect("hp", 2, "permanent", targets=[c])
    assert (game.hp(c), game.max_hp(c)) == (3, 5)
    assert not game.log.of_kind("healed")
