"""Every reading we chose ([D] in docs/RULINGS.md) is a default that can be overridden: each
setting is tested both ways here (the defaults are also pinned by the rule tests)."""

from __future__ import annotations

import pytest

from hkk import Engine, Rulings, hookimpl
from hkk._pending import Pending
from hkk._runner import play_game, play_turn, run_step, start_turn

from helpers import Passer, cid, creature, game_with, item, item_plugin, run_until, scripted


def test_d_empty_deck_loses_by_default_and_can_be_switched_off():
    game = game_with([], decks=([], []), agents=[Passer(), Passer()])
    play_game(game)
    assert game.log[-1]["reason"] == "empty_deck"
    assert game.log[-1]["rule"] == "D-empty-deck"

    game = game_with([], decks=([], []), agents=[Passer(), Passer()],
                     rulings=Rulings(empty_deck_loses=False, max_turns=4))
    play_game(game)
    assert (game.log[-1]["reason"], game.winner) == ("turn_limit", None)
    assert (game.turn, len(game.log.of_kind("turn_ended"))) == (4, 4)  # D-turn-limit: 4 turns


def test_d_vp_carry_can_be_switched_off():
    game = game_with([], agents=[Passer(), Passer()],
                     rulings=Rulings(unspent_vp_carries_over=False))
    game.players[0].vp = 7
    run_until(game, "vp_regeneration", inclusive=True)
    assert game.players[0].vp == 1


def _two_items(game):
    return [item("first", lambda g: None, controller=1),
            item("second", lambda g: None, controller=0)]


@pytest.mark.parametrize("orderer, asked", [("active", True), ("stable", False)])
def test_d_orderer_active_or_stable_in_end_stage_2(orderer, asked):
    game = game_with([], plugins=[item_plugin("end_stage2", _two_items)],
                     rulings=Rulings(default_orderer=orderer))
    run_until(game, "end_stage2", inclusive=True)
    orders = [e for e in game.log.of_kind("decision") if e["decision"] == "order"]
    assert bool(orders) is asked
    resolved = [e["item"] for e in game.log.of_kind("resolving") if e.step == "end_stage2"]
    # stable order: controller first (0 before 1); the first-legal agent picks the first too
    assert resolved == ["second", "first"]


@pytest.mark.parametrize("hook", ["prep_stage1", "prep_stage3", "prep_stage4"])
@pytest.mark.parametrize("orderer", ["active", "stable"])
def test_D_orderer_stable_ruling_removes_the_order_decision_in_prep_stages_1_3_and_4(hook,
                                                                                    orderer):
    # 29.4.1 names the active player for stage 2 only; elsewhere in the preparation phase no
    # rule names who orders, so the D-orderer setting decides there (as in end stage 2)
    game = game_with([], plugins=[item_plugin(hook, _two_items)], active=1,
                     agents=[scripted(), scripted(pick_label("first"), only=("order",))],
                     rulings=Rulings(default_orderer=orderer))
    run_until(game, hook, inclusive=True)
    orders = [(e["player"], e["rule"]) for e in game.log.of_kind("decision")
              if e["decision"] == "order" and e.step == hook]
    mine = [e["item"] for e in game.log.of_kind("resolving")
            if e.step == hook and e["item"] in ("first", "second")]
    if orderer == "stable":
        assert orders == [] and mine == ["second", "first"]  # controller 0 first
    else:
        assert orders[0] == (1, "D-orderer") and mine[0] == "first"  # the active player's pick


def pick_label(label: str):
    def choose(decision):
        return next(o for o in decision.options if o.label == label)
    return choose


@pytest.mark.parametrize("setting, ended_on_turn", [("next", 2), ("controller", 3)])
def test_d_until_preparation_next_phase_or_controllers(setting, ended_on_turn):
    game = game_with([creature("bear")], agents=[Passer(), Passer()],
                     rulings=Rulings(until_preparation_ends=setting))
    bear = game.enter_play(0, cid("bear"))
    run_until(game, "prep_stage2", inclusive=True)
    game.add_effect("hp", 2, "until_preparation", targets=[bear], controller=0)
    for step in game.turn_steps[[s.hook for s in game.turn_steps].index("prep_stage2") + 1:]:
        run_step(game, step)
    game.active = 1  # the turn is over: player 1's turn, then player 0's
    play_turn(game)
    play_turn(game)
    ended = game.log.of_kind("effect_ended")
    assert [(e.turn, e["rule"]) for e in ended] == [(ended_on_turn, "29.4.4")]


@pytest.mark.parametrize("gives", [False, True])
def test_d_deferred_check_components(gives):
    game = game_with([creature("bear", components=2)], agents=[Passer(), Passer()],
                     rulings=Rulings(deferred_check_gives_components=gives))
    bear = game.enter_play(0, cid("bear"))
    bear.damage_taken = 5  # as if its Ép fell in end stage 4 of the turn before
    start_turn(game)
    died = game.log.of_kind("died")[0]
    assert (died["rule"], died["components_offered"]) == ("41.4", 2 if gives else 0)
    run_until(game, "main_phase", start=False)
    # an offer made between turns belongs to the coming preparation phase and closes with it
    assert game.offers == []
    taken = game.log.of_kind("components_extracted")
    assert [(e["player"], e["amount"], e.step) for e in taken] == (
        [(1, 2, "prep_stage4")] if gives else [])


def test_d_builtin_rules_plugins_can_be_replaced():
    class NoDraw:
        @hookimpl
        def prep_stage4(self, game):
            return [Pending("no draw", lambda g, i, b: None)]

    engine = Engine(game_with().engine.cards)
    engine.pm.unregister(name="hkk.rules.draw")
    engine.pm.register(NoDraw(), name="hkk.rules.draw")
    game = engine.new_game([[cid("filler")] * 10] * 2, (Passer(), Passer()))
    game.active = 0
    play_turn(game)
    assert [e for e in game.log.of_kind("card_drawn") if e["source"] == "D-stage4"] == []
    assert "no draw" in [e["item"] for e in game.log.of_kind("resolving")]
