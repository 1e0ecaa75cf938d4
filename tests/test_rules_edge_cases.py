"""Edge cases found in review, each pinned by the rule point it concerns."""

from __future__ import annotations

import pytest

from hkk._cards.loader import parse_card_data
from hkk._errors import CardDataError
from hkk._pending import ACTION, Usage
from hkk._runner import play_turn

from helpers import Passer, Wants, cid, creature, game_with, item, item_plugin, run_until, scripted


def _moment_items(hook, makers):
    """The items of one moment, applied in the order given: a moment's items are applied in
    the stable order, which for plugin items of one controller is by label, so each label
    starts with its position."""
    labelled = [(f"{i} {label}", fn) for i, (label, fn) in enumerate(makers)]
    return item_plugin(hook, lambda game: [item(label, fn, controller=0, key=(label,))
                                           for label, fn in labelled])


def _applied(game, hook):
    return [e["item"].split(" ", 1)[1] for e in game.log.of_kind("resolving") if e.step == hook]


@pytest.mark.parametrize("order", [0, 1])
def test_29_4_2_losing_and_gaining_vp_at_one_moment_net_out_in_any_order(order):
    # 3 VP at the moment (2 + 1 regenerated); losing 5 first must not stop at 0 half-way
    makers = [("lose 5", lambda g: g.lose_vp(0, 5)), ("gain 5", lambda g: g.gain_vp(0, 5))]
    if order:
        makers.reverse()
    game = game_with([], plugins=[_moment_items("prep_stage2_start", makers)])
    game.players[0].vp = 2
    run_until(game, "prep_stage2_start", inclusive=True)
    assert _applied(game, "prep_stage2_start") == [label for label, _ in makers]
    regenerated = game.log.of_kind("vp_regenerated")[0]["amount"]
    assert game.players[0].vp == 2 + regenerated  # -5 +5, not clamped half-way


@pytest.mark.parametrize("order", [0, 1])
def test_41_4_counters_and_components_at_one_moment_net_out_in_any_order(order):
    bear = {}
    makers = [("add", lambda g: g.add_counters(bear["p"], "x", 1)),
              ("remove", lambda g: g.remove_counters(bear["p"], "x", 1)),
              ("pay", lambda g: g.pay_components(0, 2)),
              ("gain", lambda g: g.gain_components(0, 2))]
    if order:
        makers.reverse()
    game = game_with([creature("bear")], plugins=[_moment_items("end_stage4", makers)])
    bear["p"] = game.enter_play(0, cid("bear"))
    run_until(game, "end_stage4", inclusive=True)
    # either the removal or the payment comes first, from nothing: it must not stop at 0
    assert _applied(game, "end_stage4") == [label for label, _ in makers]
    assert bear["p"].counters == {}
    assert game.players[0].components == 0


@pytest.mark.parametrize("order", [0, 1])
def test_41_4_defence_bonus_given_at_the_end_stage_4_moment_is_lost_with_it(order):
    # nothing but 41.4's loss takes a bonus away here: the moment's items only give one, to the
    # active player's guard and to his opponent's; the loss comes after every gain of the
    # moment (D-moment-nets), and only the active player's creatures lose theirs
    perms = {}
    makers = [("give mine", lambda g: g.give_defence_bonus(perms["mine"], 2)),
              ("give theirs", lambda g: g.give_defence_bonus(perms["theirs"], 1))]
    if order:
        makers.reverse()
    game = game_with([creature("guard")], plugins=[_moment_items("end_stage4", makers)])
    perms["mine"] = game.enter_play(0, cid("guard"))
    perms["theirs"] = game.enter_play(1, cid("guard"))
    run_until(game, "end_stage4", inclusive=True)
    assert _applied(game, "end_stage4") == [label for label, _ in makers]
    lost = game.log.of_kind("defence_bonus_lost")
    assert [(e["uid"], e["amount"], e["rule"], e.step) for e in lost] == [
        (perms["mine"].uid, 2, "41.4", "end_stage4")]
    assert (perms["mine"].defence_bonus, perms["theirs"].defence_bonus) == (0, 1)


@pytest.mark.parametrize("timing", ["prep_stage3", "prep_stage4"])
def test_29_4_cards_cannot_act_in_preparation_stages_other_than_2(timing):
    data = {"cards": [creature("odd", abilities=[{
        "kind": "automatic", "timing": timing, "effect": {"do": "gain_vp", "amount": 1}}])]}
    with pytest.raises(CardDataError, match=r"abilities\[0\]\.timing"):
        parse_card_data("tt", "cards/x.toml", data)


def test_29_4_5_stage_1_carries_only_regeneration_modifiers():
    data = {"cards": [creature("odd", abilities=[{
        "kind": "automatic", "timing": "prep_stage1", "effect": {"do": "draw", "count": 1}}])]}
    with pytest.raises(CardDataError, match=r"29\.4\.5"):
        parse_card_data("tt", "cards/x.toml", data)


def test_29_4_7_plugin_activated_item_without_permission_is_not_offered_in_stage_3():
    from hkk._pending import ACTIVATED

    offered = item_plugin("prep_stage3", lambda game: [item(
        "sneaky", lambda g: g.gain_vp(0, 5), controller=0, kind=ACTIVATED, optional=True)])
    game = game_with([], plugins=[offered])
    run_until(game, "prep_stage3", inclusive=True)
    assert "sneaky" not in [e["item"] for e in game.log.of_kind("resolving")]


@pytest.mark.parametrize("timing", ["end_stage2", "end_stage3"])
def test_41_2_41_3_activated_abilities_belong_to_end_stage_1(timing):
    data = {"cards": [creature("odd", abilities=[{
        "kind": "activated", "timing": timing, "cost": {"vp": 1},
        "effect": {"do": "gain_vp", "amount": 1}}])]}
    with pytest.raises(CardDataError, match=r"41\.2, 41\.3"):
        parse_card_data("tt", "cards/x.toml", data)


def test_41_1_free_conditional_activated_ability_is_optional():
    may = creature("may", abilities=[{"kind": "activated", "timing": "end_stage1",
                                      "optional": True,
                                      "effect": {"do": "sacrifice", "target": "self"}}])
    game = game_with([may], agents=[Passer(), Passer()])
    perm = game.enter_play(0, cid("may"))
    run_until(game, "end_stage1", inclusive=True)
    assert perm.uid in game.permanents  # he passed: a "may" text is optional (41.1)


class Script:
    """Answers action decisions from a list of label prefixes; 'pass' when it runs out."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.offered = []

    def choose(self, game, decision):
        if decision.kind != "action":
            return decision.options[0]
        self.offered.append((game.step.hook, decision.labels()))
        want = self.answers.pop(0) if self.answers else "pass"
        return next(o for o in decision.options if o.label.startswith(want))


def _passing_game(active_script, opponent_script):
    tapper = creature("tapper", 0, 3, abilities=[{
        "kind": "activated", "timing": "main_phase", "cost": {"vp": 1},
        "effect": {"do": "gain_components", "count": 1}}])
    agents = [Script(active_script), Script(opponent_script)]
    game = game_with([creature("mover", 1, 3), tapper], agents=agents)
    game.enter_play(0, cid("mover"), active=True)
    game.enter_play(1, cid("tapper"), active=True)
    game.players[1].vp = 3
    return game, agents


def test_41_5_opponent_may_still_act_in_the_current_phase_after_the_pass():
    # P0 acts, P1 passes, P0 passes the turn: P1 gets the main phase again (4.11.7: the
    # active player's pass, then his) and uses his ability there.
    game, agents = _passing_game(["use guard", "pass turn"], ["pass", "use tt:tapper"])
    play_turn(game)
    used = [e.step for e in game.log.of_kind("components_gained")]
    assert used == ["main_phase"]


def test_41_5_acting_before_the_pass_does_not_cost_the_opponent_the_remaining_phases():
    # P1 acted before the pass but not after it: the combat phase still opens for him alone.
    game, agents = _passing_game(["use guard", "pass turn"], ["use tt:tapper", "pass", "pass"])
    play_turn(game)
    combat = [labels for hook, labels in agents[1].offered if hook == "combat_phase"]
    assert len(combat) == 1 and "pass" in combat[0]
    assert not [hook for hook, _ in agents[0].offered if hook == "combat_phase"]


def test_4_11_7_a_phase_ends_only_on_the_active_players_pass_then_his_opponents():
    game, agents = _passing_game(["use guard", "pass", "pass"], ["pass", "pass"])
    run_until(game, "main_phase", inclusive=True)
    passes = [e["player"] for e in game.log.of_kind("passed") if e.step == "main_phase"]
    assert passes == [1, 0, 1]


def test_4_11_7_an_action_of_either_player_reopens_the_phase():
    # P0 passes, P1 acts, P0 acts, P1 passes: P0's pass was before the actions, so the phase
    # goes on until P0 passes again and P1 after him.
    game, agents = _passing_game(["pass", "use guard", "pass"], ["use tt:tapper", "pass", "pass"])
    run_until(game, "main_phase", inclusive=True)
    passes = [e["player"] for e in game.log.of_kind("passed") if e.step == "main_phase"]
    assert passes == [0, 1, 0, 1]


def test_41_5_after_passing_the_turn_the_active_player_uses_no_optional_end_ability():
    ender = creature("ender", abilities=[{"kind": "activated", "timing": "end_stage1",
                                          "cost": {"vp": 1},
                                          "effect": {"do": "damage", "amount": 2,
                                                     "target": "opponent"}}])
    # after passing the turn he would use anything offered ("use"): he is offered nothing
    game = game_with([ender], agents=[Script(["pass turn", "use"]), Passer()])
    game.enter_play(0, cid("ender"), active=True)
    game.players[0].vp = 5
    play_turn(game)
    assert not game.log.of_kind("player_damaged")


def test_29_4_1_two_plugin_items_with_one_label_are_two_items():
    upkeep = item_plugin("prep_stage2", lambda game: [
        item("upkeep", lambda g, p=p: g.lose_vp(p, 1), controller=p) for p in (0, 1)])
    game = game_with([], plugins=[upkeep])
    game.players[1].vp = 5
    run_until(game, "prep_stage2", inclusive=True)
    assert [e["controller"] for e in game.log.of_kind("resolving") if e["item"] == "upkeep"] \
        == [0, 1]
    assert game.players[1].vp == 4


def test_d_hp_check_after_each_enters_play_effect():
    # first trigger leaves the creature at 0 Ép, the second would save it: it dies in between
    x = creature("x", 1, 1, abilities=[
        {"kind": "automatic", "timing": "on_enter",
         "effect": {"do": "damage", "amount": 1, "target": "self"}},
        {"kind": "automatic", "timing": "on_enter",
         "effect": {"do": "modify", "stat": "hp", "by": 1, "target": "self",
                    "duration": "until_end_of_turn"}}])
    game = game_with([x], agents=[Script(["play tt:x"]), Passer()])
    game.players[0].hand.append(cid("x"))
    run_until(game, "main_phase", inclusive=True)
    assert [e["card"] for e in game.log.of_kind("died")] == [cid("x")]


def test_r_enter_order_the_controller_orders_the_enters_play_effects_of_his_card():
    y = creature("y", 1, 3, abilities=[
        {"kind": "automatic", "timing": "on_enter",
         "effect": {"do": "gain_vp", "amount": 1, "target": "controller"}},
        {"kind": "automatic", "timing": "on_enter",
         "effect": {"do": "gain_components", "count": 1}}])

    class Player0(Script):
        def choose(self, game, decision):
            if decision.kind == "order":  # the second ability first
                return decision.options[-1]
            return super().choose(game, decision)
    game = game_with([y], agents=[Player0(["play tt:y"]), Passer()])
    game.players[0].hand.append(cid("y"))
    run_until(game, "main_phase", inclusive=True)
    entered = [e["ability"] for e in game.log.of_kind("resolving") if e["card"] == cid("y")]
    assert entered == [1, 0]
    orders = [(e["player"], e["rule"]) for e in game.log.of_kind("decision")
              if e["decision"] == "order"]
    assert orders == [(0, "R-enter-order")]


def test_41_3_only_what_was_damaged_during_this_turn_is_restored():
    # A plugin's end-stage-4 hit in turn 1 (no stage 3 follows it), a main-phase hit in turn 2:
    # turn 2's stage 3 restores only the creature damaged "a kör folyamán" (41.3).
    hit = {}
    late = item_plugin("end_stage4", lambda game: [item(
        "late hit", lambda g: g.damage(hit["old"], 2), controller=0)] if game.turn == 1 else [])
    now = item_plugin("main_phase", lambda game: [item(
        "hit", lambda g: g.damage(hit["new"], 2), controller=1, kind=ACTION,
        usage=Usage(per_turn=1))] if game.turn == 2 else [])
    game = game_with([creature("victim", 1, 4)], plugins=[late, now],
                     agents=[Passer(), Wants("use hit")])
    hit["old"] = game.enter_play(1, cid("victim"))
    hit["new"] = game.enter_play(0, cid("victim"))
    play_turn(game)
    play_turn(game)
    assert [(e["uid"], e.turn) for e in game.log.of_kind("damaged")] == [
        (hit["old"].uid, 1), (hit["new"].uid, 2)]
    assert (game.hp(hit["old"]), game.hp(hit["new"])) == (2, 4)
    assert [(e["uid"], e.turn) for e in game.log.of_kind("restored")] == [(hit["new"].uid, 2)]


@pytest.mark.parametrize("vp, used", [(0, False), (5, True)])
def test_29_4_2_plugin_activated_items_in_a_moment_are_checked_and_paid_for(vp, used):
    from hkk._pending import ACTIVATED, Price

    costly = item_plugin("prep_stage2_start", lambda game: [item(
        "costly", lambda g: g.gain_components(0, 1), controller=0, kind=ACTIVATED,
        price=Price(vp=2), usable_in_preparation=True)])
    game = game_with([], plugins=[costly])
    game.players[0].vp = vp
    run_until(game, "prep_stage2_start", inclusive=True)
    resolved = "costly" in [e["item"] for e in game.log.of_kind("resolving")]
    assert resolved is used
    assert game.players[0].vp == vp + 1 - (2 if used else 0)  # +1 regenerated in stage 1


@pytest.mark.parametrize("answers, used", [(["use first"], ["first"]),
                                           (["use second"], ["second"])])
def test_29_4_2_what_a_player_pays_for_at_one_moment_must_be_affordable_together(answers, used):
    # Two 2-VP items at one moment and 3 VP (1 + 2 regenerated): he can pay for one, not both,
    # and chooses which (D-moment-payments).
    from hkk._pending import ACTIVATED, Price

    def costly(label):
        return item(label, lambda g: g.gain_components(0, 1), controller=0, kind=ACTIVATED,
                    price=Price(vp=2), usable_in_preparation=True, optional=True)
    plugin = item_plugin("prep_stage2_start", lambda game: [costly("first"), costly("second")])
    script = [lambda d, a=a: next(o for o in d.options if o.label.startswith(a))
              for a in answers + ["use"]]
    game = game_with([], plugins=[plugin], agents=[scripted(*script), Passer()])
    game.players[0].vp = 2
    run_until(game, "prep_stage2_start", inclusive=True)
    assert [e["item"] for e in game.log.of_kind("resolving")
            if e.step == "prep_stage2_start"] == used
    assert (game.players[0].vp, game.players[0].components) == (1, 1)
    # the other was never offered again: it no longer fit
    other = "second" if used == ["first"] else "first"
    dropped = game.log.of_kind("item_dropped")
    assert [(e["item"], e["rule"]) for e in dropped] == [(other, "29.4.2")]
    asked = [e for e in game.log.of_kind("decision") if e["decision"] == "use"]
    assert len(asked) == 1


def test_29_4_2_components_paid_at_one_moment_must_be_affordable_together():
    # Two items costing 2 components each, 3 components: the second no longer fits.
    from hkk._pending import ACTIVATED, Price

    plugin = item_plugin("prep_stage2_start", lambda game: [item(
        label, lambda g: g.gain_vp(0, 1), controller=0, kind=ACTIVATED,
        price=Price(components=2), usable_in_preparation=True) for label in ("first", "second")])
    game = game_with([], plugins=[plugin])
    game.players[0].components = 3
    run_until(game, "prep_stage2_start", inclusive=True)
    assert [e["item"] for e in game.log.of_kind("resolving")
            if e.step == "prep_stage2_start"] == ["first"]
    assert [(e["item"], e["rule"]) for e in game.log.of_kind("item_dropped")] == [
        ("second", "29.4.2")]
    assert game.players[0].components == 1


def test_29_4_2_one_permanent_cannot_be_sacrificed_twice_at_one_moment():
    from hkk._pending import ACTIVATED, Price

    altar = {}
    plugin = item_plugin("prep_stage2_start", lambda game: [item(
        label, lambda g: g.gain_components(0, 1), controller=0, kind=ACTIVATED,
        price=Price(sacrifice_self=True), source=altar["p"], usable_in_preparation=True)
        for label in ("first", "second")] if altar["p"].uid in game.permanents else [])
    game = game_with([creature("altar")], plugins=[plugin])
    altar["p"] = game.enter_play(0, cid("altar"), active=True)
    run_until(game, "prep_stage2_start", inclusive=True)
    assert [e["item"] for e in game.log.of_kind("resolving")
            if e.step == "prep_stage2_start"] == ["first"]
    assert [(e["item"], e["rule"]) for e in game.log.of_kind("item_dropped")] == [
        ("second", "29.4.2")]
    assert game.players[0].components == 1
    assert [e["cause"] for e in game.log.of_kind("died")] == ["sacrificed_as_cost"]


def test_29_4_7_an_activated_item_without_permission_is_not_used_at_the_stage_2_moment():
    from hkk._pending import ACTIVATED

    plugin = item_plugin("prep_stage2_start", lambda game: [
        item("allowed", lambda g: g.gain_components(0, 1), controller=0, kind=ACTIVATED,
             usable_in_preparation=True),
        item("not allowed", lambda g: g.gain_components(0, 10), controller=0, kind=ACTIVATED)])
    game = game_with([], plugins=[plugin])
    run_until(game, "prep_stage2_start", inclusive=True)
    moment = game.log.of_kind("moment")[0]
    assert moment["items"] == ["allowed"]
    assert game.players[0].components == 1


# -- D-no-target -----------------------------------------------------------------------------------

_HURT = {"do": "damage", "amount": 2, "target": "chosen_opponent_creature",
         "where": {"of": "damage_taken", "at_least": 1}}


def _no_target_engine(**rulings):
    from hkk import Engine, Rulings

    from helpers import cards, spell
    defs = [spell("finish", [_HURT], vp=1),
            spell("raze", [{"do": "destroy", "target": "chosen_building"}], vp=1),
            spell("finish-and-draw", [_HURT, {"do": "draw", "count": 1}], vp=1),
            creature("prey", 1, 3)]
    return Engine(cards(*defs), rulings=Rulings(**rulings))


def _no_target_game(engine=None, game_rulings=None, **rulings):
    from helpers import FILLER
    engine = engine or _no_target_engine(**rulings)
    game = engine.new_game([[FILLER] * 10, [FILLER] * 10], agents=(Passer(), Passer()), seed=0,
                           rulings=game_rulings)
    game.active = 0
    game.players[0].hand[:] = [cid("finish"), cid("raze"), cid("finish-and-draw")]
    game.players[0].vp = 10
    prey = game.enter_play(1, cid("prey"), active=True)
    run_until(game, "main_phase")
    return game, prey


def test_D_no_target_a_spell_with_nothing_to_choose_is_offered_paid_for_and_does_nothing():
    game, prey = _no_target_game()
    assert game.playable(0) == [cid("finish"), cid("raze"), cid("finish-and-draw")]
    vp = game.players[0].vp
    game.play_card(0, cid("finish"))  # an undamaged creature is no "damaged creature"
    assert game.players[0].vp == vp - 1
    assert not game.log.of_kind("damaged") and prey.damage_taken == 0
    assert not [e for e in game.log.of_kind("decision") if e["decision"] == "target"]


def test_D_no_target_overridden_a_spell_with_nothing_to_choose_is_not_offered():
    game, prey = _no_target_game(spells_need_a_choice=True)
    # an undamaged creature is no choice for "a damaged creature"; no building at all; a
    # spell that also draws is offered
    assert game.playable(0) == [cid("finish-and-draw")]
    game.damage(prey, 1)
    assert game.playable(0) == [cid("finish"), cid("finish-and-draw")]


def test_D_no_target_a_games_own_rulings_hold_beside_its_engines_other_games():
    """The hand-play answers an engine's games share are kept per rulings: a game with its
    own (``new_game(rulings=...)``) is not answered from a game under the engine's."""
    from hkk import Rulings
    from hkk._resolution import call_hook

    def offered(game):  # the main phase's items: what the action decision offers
        return [i.card_id for i in call_hook(game, "main_phase") if i.controller == 0]

    engine = _no_target_engine()
    usual, _ = _no_target_game(engine)
    everything = [cid("finish"), cid("raze"), cid("finish-and-draw")]
    assert usual.playable(0) == offered(usual) == everything
    own, _ = _no_target_game(engine, Rulings(spells_need_a_choice=True))
    assert own.playable(0) == offered(own) == [cid("finish-and-draw")]
    assert usual.playable(0) == offered(usual) == everything
