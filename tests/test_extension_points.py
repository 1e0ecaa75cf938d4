"""The seams sets build on: the lethal hook, whose-turn automatic abilities, static
VP-regeneration modifiers, engine-chosen targets for custom effects, and the end-of-turn details
they rely on."""

from __future__ import annotations

from hkk import hookimpl
from hkk._pending import Lethal
from hkk._runner import play_turn, run_step

from helpers import Passer, cid, creature, game_with, item, item_plugin, run_until, step_named


class Doom:
    """Kills every creature carrying a 'doom' counter at each Ép check."""

    @hookimpl
    def lethal(self, game):
        return [(p, Lethal("doom", "121.1", components=False))
                for p in game.permanents.values() if p.counters.get("doom")]


def test_lethal_hook_kills_at_the_next_hp_check_without_components():
    game = game_with([creature("bear", 2, 3, components=2)], plugins=[Doom()],
                     agents=[Passer(), Passer()])
    bear = game.enter_play(1, cid("bear"), active=True)
    game.add_counters(bear, "doom", 1)
    play_turn(game)
    died = game.log.of_kind("died")
    assert [(e["uid"], e["cause"], e["rule"], e["components_offered"]) for e in died] == [
        (bear.uid, "doom", "121.1", 0)]
    assert died[0].step == ""  # the check at the very start of the turn (41.4 supplement)


def test_automatic_ability_limited_to_its_controllers_turn():
    owl = creature("owl", abilities=[{"kind": "automatic", "timing": "prep_stage2",
                                      "whose_turn": "own",
                                      "effect": {"do": "gain_vp", "amount": 1}}])
    game = game_with([owl], agents=[Passer(), Passer()])
    game.enter_play(0, cid("owl"), active=True)
    play_turn(game)  # player 0's turn: fires
    play_turn(game)  # player 1's turn: does not
    fired = [e.turn for e in game.log.of_kind("resolving") if e["card"] == cid("owl")]
    assert fired == [1]


def test_29_3_static_vp_regeneration_modifier_counts_in_stage_1():
    well = creature("well", abilities=[{"kind": "static", "effect": {
        "do": "modify", "stat": "vp_regen", "by": 2, "target": "controller",
        "duration": "permanent"}}])
    game = game_with([well], agents=[Passer(), Passer()])
    game.enter_play(0, cid("well"))
    run_until(game, "vp_regeneration", inclusive=True)
    assert game.log.of_kind("vp_regenerated")[0]["amount"] == 1 + 2  # first turn: 1 VP, +2


def test_custom_effect_gets_targets_chosen_by_the_engine():
    seen = []

    class Effects:
        @hookimpl
        def custom_effects(self):
            return {"mark": lambda game, ctx, n: seen.append(([t.uid for t in ctx.targets], n))}

    marker = creature("marker", abilities=[{"kind": "automatic", "timing": "end_stage2",
                                            "effect": {"do": "custom", "name": "mark",
                                                       "target": "opponent_creatures",
                                                       "params": {"n": 3}}}])
    game = game_with([marker, creature("bear")], plugins=[Effects()])
    game.enter_play(0, cid("marker"))
    bears = [game.enter_play(1, cid("bear")) for _ in range(2)]
    run_until(game, "end_stage2", inclusive=True)
    assert seen == [([b.uid for b in bears], 3)]


def test_41_1_a_plugins_optional_automatic_item_is_used_at_most_once():
    # card data may not time an automatic ability on end stage 1 (41.2); a plugin may
    bard = item_plugin("end_stage1", lambda game: [item(
        "bard", lambda g: g.heal(g.players[0], 1), controller=0, optional=True)])
    game = game_with([], plugins=[bard])  # first-legal agents: they use whatever is offered
    run_until(game, "end_stage1", inclusive=True)
    assert len(game.log.of_kind("player_healed")) == 1


def test_41_1_rules_items_without_controller_go_to_the_active_player():
    ring = item_plugin("end_stage1", lambda game: [item("bell", lambda g: g.gain_vp(0, 1))])
    game = game_with([], plugins=[ring])
    run_until(game, "end_stage1", inclusive=True)
    assert [e["item"] for e in game.log.of_kind("resolving")
            if e.step == "end_stage1"] == ["bell"]


def test_41_4_until_end_of_turn_effect_made_at_the_moment_ends_with_it():
    late = item_plugin("end_stage4", lambda game: [item(
        "late buff", lambda g: g.add_effect("hp", 1, "until_end_of_turn",
                                            targets=g.creatures()))])
    game = game_with([creature("bear")], plugins=[late])
    game.enter_play(0, cid("bear"))
    run_until(game, "end_stage4")
    run_step(game, step_named("end_stage4"))
    assert game.effects == []
    assert [e["rule"] for e in game.log.of_kind("effect_ended")] == ["41.4"]


def test_29_4_5_stage_1_regeneration_modifier_always_counts_in_the_regeneration():
    # A "this turn" VP-regeneration modifier made in stage 1 acts in stage 1 already: the
    # regeneration comes after every stage-1 effect, so no ordering can skip it.
    spring = creature("spring", abilities=[{"kind": "automatic", "timing": "prep_stage1",
                                            "effect": {"do": "modify", "stat": "vp_regen",
                                                       "by": 2, "target": "controller",
                                                       "duration": "this_turn"}}])
    game = game_with([spring], agents=[Passer(), Passer()])
    game.enter_play(0, cid("spring"))
    run_until(game, "vp_regeneration", inclusive=True)
    assert game.log.of_kind("vp_regenerated")[0]["amount"] == 1 + 2
    assert game.players[0].vp == 3
