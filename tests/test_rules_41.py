"""End-of-turn phase (Kódex 41.0 - 41.7): one or more tests per rule point."""

from __future__ import annotations

from hkk._clock import GameClock
from hkk._phases import DEFAULT_TURN
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
    run_until,
    scripted,
    spell,
    step_named,
)

END_HOOKS = ["end_stage1", "end_stage2", "end_stage3", "end_stage4"]


def auto(timing: str, effect: dict, **extra) -> dict:
    return {"kind": "automatic", "timing": timing, "effect": effect, **extra}


def end_ability(effect: dict, vp: int = 0, **extra) -> dict:
    return {"kind": "activated", "timing": "end_stage1", "cost": {"vp": vp}, "effect": effect,
            **extra}


def pick(text: str):
    def choose(decision):
        return next(o for o in decision.options if text in o.label)
    return choose


def started_hooks(game) -> list[str]:
    return [e["hook"] for e in game.log.of_kind("step_started")]


# -- 41.0 ------------------------------------------------------------------------------------

def test_41_0_four_end_stages_always_in_this_order():
    assert [(s.phase, s.stage) for s in DEFAULT_TURN if s.phase == "end"] == [
        ("end", 1), ("end", 2), ("end", 3), ("end", 4)]
    game = game_with(agents=[Passer(), Passer()])
    play_turn(game)  # nobody does anything, and still every stage happens
    hooks = started_hooks(game)
    assert hooks[-4:] == END_HOOKS
    ended = [e["hook"] for e in game.log.of_kind("step_ended")]
    assert ended[-4:] == END_HOOKS


def test_41_0_end_stages_follow_each_other_even_when_a_stage_has_items():
    # (end stage 1 is for players' abilities: an item there needs a controller)
    def items_of(hook):
        return lambda game: [item(f"x{hook}", lambda g: None, controller=0)]
    plugins = [item_plugin(h, items_of(h)) for h in reversed(END_HOOKS)]  # registered backwards
    game = game_with(plugins=plugins, agents=[Passer(), Passer()])
    play_turn(game)
    end_items = [e.step for e in game.log.of_kind("resolving") if e["item"].startswith("xend")]
    assert end_items == END_HOOKS


# -- 41.1 ------------------------------------------------------------------------------------

def test_41_1_players_alternate_in_end_stage_1_active_player_first():
    defs = [creature("a0", abilities=[end_ability({"do": "gain_components", "count": 1}, vp=1)]),
            creature("a1", abilities=[end_ability({"do": "gain_components", "count": 1}, vp=1)])]
    agents = [scripted(pick("a0"), "pass", only=("action",)),
              scripted(pick("a1"), "pass", only=("action",))]
    game = game_with(defs, agents=agents, active=1)
    game.enter_play(0, cid("a0"), active=True)
    game.enter_play(1, cid("a1"), active=True)
    game.players[0].vp = game.players[1].vp = 5
    game.turn_passed = True
    start_turn(game)
    run_step(game, step_named("end_stage1"))
    decisions = [(e["player"], e["choice"].split(" ")[0]) for e in game.log.of_kind("decision")]
    assert decisions == [(1, "use"), (0, "use"), (1, "pass"), (0, "pass")]
    assert game.players[0].components == game.players[1].components == 1
    assert all(e["rule"] == "41.1" for e in game.log.of_kind("passed"))


def test_41_1_cost_free_unconditional_ability_must_be_used_costly_or_may_is_optional():
    defs = [creature("must", abilities=[end_ability({"do": "draw", "count": 1})]),
            creature("costly", abilities=[end_ability({"do": "draw", "count": 1}, vp=1)]),
            creature("may", abilities=[end_ability({"do": "gain_components", "count": 1},
                                                   optional=True)])]
    agents = [Passer("pass"), Passer("pass")]
    game = game_with(defs, agents=agents)
    game.enter_play(0, cid("must"), active=True)
    game.enter_play(0, cid("costly"), active=True)
    game.enter_play(1, cid("may"), active=True)
    game.players[0].vp = 5
    start_turn(game)
    run_step(game, step_named("end_stage1"))
    # player 0 was not offered a pass while his free, unconditional ability was unused
    first = agents[0].seen[0]
    assert "pass" not in first.labels() and any(cid("must") in o for o in first.labels())
    assert [e["card"] for e in game.log.of_kind("resolving")] == [cid("must")]
    # the costly one and the "may" one were offered with a pass beside them, and passed
    assert any("pass" in d.labels() and any(cid("costly") in o for o in d.labels())
               for d in agents[0].seen)
    assert any("pass" in d.labels() and any(cid("may") in o for o in d.labels())
               for d in agents[1].seen)
    assert game.players[1].components == 0


def test_41_1_a_creature_killed_in_end_stage_1_dies_at_once_before_41_3_could_restore_it():
    # [D] D-hp-check: Ép is checked after every ability used in end stage 1 too; the creature
    # does not wait for end stage 3 to be restored.
    hex_ = creature("hex", abilities=[end_ability({"do": "damage", "amount": 2,
                                                   "target": "opponent_creatures"})])
    game = game_with([hex_, creature("c", 1, 2, components=1)], agents=[Passer(), Passer()])
    game.enter_play(0, cid("hex"), active=True)
    c = game.enter_play(1, cid("c"), active=True)
    play_turn(game)
    died = game.log.of_kind("died")
    assert [(e["uid"], e.step, e["rule"]) for e in died] == [(c.uid, "end_stage1", "D-hp-check")]
    assert c.uid not in game.permanents and not game.log.of_kind("restored")


# -- 41.2 ------------------------------------------------------------------------------------

def test_41_2_every_automatic_end_of_turn_effect_is_carried_out_none_declined():
    defs = [creature("p0", abilities=[auto("end_stage2", {"do": "gain_vp", "amount": 1,
                                                          "target": "controller"})]),
            creature("p1", abilities=[auto("end_stage2", {"do": "gain_vp", "amount": 2,
                                                          "target": "controller"})])]
    agents = [Passer(), Passer()]
    game = game_with(defs, agents=agents, active=1)
    game.enter_play(0, cid("p0"), active=True)
    game.enter_play(1, cid("p1"), active=True)
    game.enter_play(1, cid("p1"), active=True)
    start_turn(game)
    run_step(game, step_named("end_stage2"))
    assert sorted(e["card"] for e in game.log.of_kind("resolving")) == [
        cid("p0"), cid("p1"), cid("p1")]
    assert (game.players[0].vp, game.players[1].vp) == (1, 4)
    decisions = game.log.of_kind("decision")
    assert {e["decision"] for e in decisions} == {"order"}  # nobody was asked "use?"
    # [D] D-orderer: the active player orders them, as in 29.4.1
    assert {(e["player"], e["rule"]) for e in decisions} == {(1, "D-orderer")}


def test_41_2_a_plugins_optional_item_cannot_be_declined_in_end_stage_2():
    from hkk._pending import ACTIVATED, Usage

    tribute = item_plugin("end_stage2", lambda game: [
        item("tribute", lambda g: g.gain_vp(1, 1), controller=1, optional=True),
        item("toll", lambda g: g.gain_components(1, 1), controller=1, kind=ACTIVATED,
             usage=Usage(per_turn=5))])
    decline = lambda d: next((o for o in d.options if o.label == "decline"), None)  # noqa
    agents = [Passer(), scripted(decline, decline, decline)]
    game = game_with([], plugins=[tribute], agents=agents)
    start_turn(game)
    run_step(game, step_named("end_stage2"))
    assert sorted(e["item"] for e in game.log.of_kind("resolving")) == ["toll", "tribute"]
    assert (game.players[1].vp, game.players[1].components) == (1, 1)  # each happened once
    assert not [e for e in game.log.of_kind("decision") if e["decision"] == "use"]


def test_D_end2_mandatory_the_stages_items_are_not_asked_but_an_optional_trigger_there_is():
    # the plugin's optional end-of-turn item happens unasked (41.2); the optional "when a
    # creature of yours dies, you gain 1 VP" it sets off is asked of its controller
    maybe = {"kind": "triggered", "optional": True,
             "when": {"event": "dies", "whose": "own", "card_kind": "creature"},
             "effect": {"do": "gain_vp", "amount": 1, "target": "controller"}}
    doom = item_plugin("end_stage2", lambda game: [item(
        "doom", lambda g: [g.damage(c, 9) for c in g.creatures(1) if c.card.id == cid("frail")],
        optional=True)])
    game = game_with([creature("heir", 1, 3, abilities=[maybe]), creature("frail", 1, 1)],
                     plugins=[doom], agents=[Passer(), Passer()])
    game.enter_play(1, cid("heir"))
    game.enter_play(1, cid("frail"))
    start_turn(game)
    run_step(game, step_named("end_stage2"))
    uses = [(e["player"], e["choice"].split("@")[0], e["rule"])
            for e in game.log.of_kind("decision") if e["decision"] == "use"]
    assert uses == [(1, "use tt:heir#1:0", "D-trigger-wait")]  # not about "doom"
    assert [e["item"].split("@")[0] for e in game.log.of_kind("resolving")] == [
        "doom", "tt:heir#1:0"]
    assert game.players[1].vp == 1


# -- 41.3 ------------------------------------------------------------------------------------

def test_41_3_damaged_creatures_and_buildings_are_restored_to_max():
    hit = creature("hitter", abilities=[auto("end_stage2", {"do": "damage", "amount": 1,
                                                            "target": "opponent_creatures"})])
    game = game_with([creature("c", 2, 4), building("wall", 5), hit],
                     agents=[Passer(), Passer()])
    c = game.enter_play(1, cid("c"), active=True)
    wall = game.enter_play(1, cid("wall"), active=True)
    game.enter_play(0, cid("hitter"), active=True)
    run_until(game, "main_phase")
    game.damage(c, 2)
    game.damage(wall, 2)
    run_until(game, "end_stage3", start=False)
    assert (game.hp(c), game.hp(wall)) == (1, 3)  # 2 + 1 damage (the last from end stage 2)
    run_step(game, step_named("end_stage3"))
    assert (game.hp(c), game.hp(wall)) == (4, 5)
    restored = game.log.of_kind("restored")
    assert {(e["uid"], e.step, e["rule"]) for e in restored} == {
        (c.uid, "end_stage3", "41.3"), (wall.uid, "end_stage3", "41.3")}


def test_41_3_restoring_is_to_current_max_not_undoing_modifiers():
    game = game_with([creature("c", 2, 4)], agents=[Passer(), Passer()])
    c = game.enter_play(0, cid("c"), active=True)
    run_until(game, "end_stage3")
    game.add_effect("hp", 2, "until_end_of_turn", targets=[c])
    game.damage(c, 5)
    run_step(game, step_named("end_stage3"))
    assert game.hp(c) == 6  # its max Ép at this point
    run_step(game, step_named("end_stage4"))
    assert game.hp(c) == 4


# -- 41.4 ------------------------------------------------------------------------------------

def test_41_4_active_creatures_lose_defence_bonus_and_turn_effects_end_at_one_moment():
    game = game_with([creature("c", 1, 3)], agents=[Passer(), Passer()])
    mine = game.enter_play(0, cid("c"), active=True)
    theirs = game.enter_play(1, cid("c"), active=True)
    run_until(game, "end_stage4")
    game.give_defence_bonus(mine, 2)
    game.give_defence_bonus(theirs, 2)
    game.add_effect("damage", 1, "until_end_of_turn", targets=[mine])
    game.add_effect("hp", 1, "this_turn", targets=[mine, theirs])
    keep = game.add_effect("damage", 3, "permanent", targets=[mine])
    keep2 = game.add_effect("hp", 3, "until_preparation", targets=[theirs])
    run_step(game, step_named("end_stage4"))
    step = [e for e in game.log if e.step == "end_stage4"]
    kinds = [e.kind for e in step]
    assert kinds.count("effect_ended") == 2 and kinds.count("defence_bonus_lost") == 1
    moment = kinds.index("moment")
    assert all(moment < i for i, k in enumerate(kinds)
               if k in ("effect_ended", "defence_bonus_lost"))
    assert {e["rule"] for e in step if e.kind in ("effect_ended", "defence_bonus_lost")} == {
        "41.4"}
    assert mine.defence_bonus == 0 and theirs.defence_bonus == 2
    assert {e.uid for e in game.effects} == {keep.uid, keep2.uid}
    assert game.damage_value(mine) == 1 + 3 and game.max_hp(theirs) == 3 + 2 + 3


def test_41_4_nothing_is_checked_after_the_moment_until_the_next_preparation_phase():
    game = game_with([creature("c", 1, 2, components=2)], agents=[Passer(), Passer()])
    c = game.enter_play(0, cid("c"), active=True)
    run_until(game, "end_stage4")
    game.give_defence_bonus(c, 1)
    game.add_effect("hp", 2, "until_end_of_turn", targets=[c])
    game.damage(c, 4)  # 2 + 1 + 2 - 4 = 1 Ép
    run_step(game, step_named("end_stage4"))
    assert game.hp(c) == -2 and c.uid in game.permanents  # still in play
    step_kinds = [e.kind for e in game.log if e.step == "end_stage4"]
    assert "hp_check" not in step_kinds and "died" not in step_kinds
    game.step = None
    game.active = 1
    run_until(game, "vp_regeneration", inclusive=True)  # the next turn
    died = game.log.of_kind("died")
    assert [(e["uid"], e["rule"], e["components_offered"]) for e in died] == [(c.uid, "41.4", 0)]
    assert died[0].seq < game.log.of_kind("vp_regenerated")[-1].seq  # [D] before stage 1


def test_41_4_D_end4_created_end_stage_4_items_are_part_of_the_moment_and_trigger_nothing():
    seen = []

    def reader(game):
        def bind(g, it):
            seen.append(g.damage_value(g.creatures(0)[0]))

        def apply(g, it, b):  # an "until end of turn" effect the moment itself makes
            g.add_effect("damage", 1, "until_end_of_turn", targets=[g.creatures(0)[0]],
                         source="reader")
        from hkk._pending import Pending
        return [Pending("reader", apply, bind=bind)]
    # "when an effect on this creature ends, deal 2 damage to the opponent": would fire at
    # any other expiry (tests/test_triggers.py), never at this one (41.4, D-trigger-end4)
    on_expiry = {"kind": "triggered", "when": {"event": "effect_ends", "which": "this"},
                 "effect": {"do": "damage", "amount": 2, "target": "opponent"}}
    game = game_with([creature("c", 1, 3, abilities=[on_expiry])],
                     plugins=[item_plugin("end_stage4", reader)], agents=[Passer(), Passer()])
    c = game.enter_play(0, cid("c"), active=True)
    run_until(game, "end_stage4")
    game.add_effect("damage", 4, "until_end_of_turn", targets=[c])
    n_calls = []
    game.log.subscribe(lambda e: n_calls.append(e.kind))
    run_step(game, step_named("end_stage4"))
    assert seen == [5]  # bound against the state before the moment
    # the effect the moment made ends at it too (D-end4-created): the turn is over for it
    assert n_calls == ["step_started", "moment", "effect_ended", "resolving", "effect_started",
                       "effect_ended", "step_ended"]
    assert [e["rule"] for e in game.log.of_kind("effect_ended")] == ["41.4", "41.4"]
    assert game.damage_value(c) == 1
    assert game.effects == []
    assert game.players[1].hp == 20  # neither expiry triggered anything


# -- 41.5 ------------------------------------------------------------------------------------

def test_41_5_after_the_pass_each_remaining_action_phase_opens_for_the_opponent_alone():
    game = game_with([creature("c", 2, 2)], agents=[Passer(), Passer("pass")])
    game.enter_play(0, cid("c"), zone="guard_post", active=True)
    play_turn(game)
    passed = game.log.of_kind("turn_passed")
    assert [(e["player"], e.step, e["rule"]) for e in passed] == [(0, "main_phase", "41.5")]
    # the opponent passed the main phase without acting, and combat still opened for him
    asked = [(e.step, e["player"]) for e in game.log.of_kind("decision")
             if e["decision"] == "action" and e.step in ("main_phase", "combat_phase")]
    assert asked == [("main_phase", 0), ("main_phase", 1), ("combat_phase", 1)]
    assert not game.log.of_kind("attack")  # the active player does not act after his pass
    assert started_hooks(game)[-6:] == ["main_phase", "combat_phase"] + END_HOOKS


def test_41_5_an_ability_usable_only_in_combat_is_offered_to_the_opponent_after_the_pass():
    ambusher = creature("ambusher", 1, 3, abilities=[{
        "kind": "activated", "timing": "combat_phase", "cost": {"vp": 1},
        "effect": {"do": "damage", "amount": 2, "target": "opponent"}}])
    p1 = scripted("pass", "use tt:ambusher#1:0", only=("action",))
    game = game_with([ambusher], agents=[Passer(), p1])
    game.enter_play(1, cid("ambusher"), active=True)
    game.players[1].vp = 1
    play_turn(game)
    used = [(e.step, e["controller"]) for e in game.log.of_kind("resolving")
            if e["item"].startswith("tt:ambusher")]
    assert used == [("combat_phase", 1)]
    assert game.players[0].hp == 18


def test_41_5_opponent_may_act_in_the_current_and_remaining_phases():
    zap = spell("zap", [{"do": "damage", "amount": 1, "target": "opponent"}], instant=True)
    p0 = Passer()
    p1 = scripted("play tt:zap", "pass", "play tt:zap", "pass", only=("action",))
    game = game_with([zap], agents=[p0, p1])
    game.players[1].hand += [cid("zap"), cid("zap")]
    game.players[1].vp = 2
    play_turn(game)
    played = [(e["player"], e.step) for e in game.log.of_kind("card_played")]
    assert played == [(1, "main_phase"), (1, "combat_phase")]
    assert game.players[0].hp == 18
    # after passing the turn, the active player is not asked again in main or combat
    main_and_combat = [e for e in game.log.of_kind("decision")
                       if e.step in ("main_phase", "combat_phase") and e["player"] == 0]
    assert [e["choice"] for e in main_and_combat] == ["pass turn"]
    assert not game.log.of_kind("step_skipped")


def test_41_5_after_passing_the_turn_the_active_player_is_not_offered_his_optional_trigger():
    # "Amikor az ellenfeled varázslatot játszik ki, húzhatsz egy lapot" (optional) beside the
    # same text as an order (mandatory): the opponent's instant after the pass sets off both
    def on_spell(optional: bool) -> dict:
        return {"kind": "triggered", "optional": optional,
                "when": {"event": "card_played", "whose": "opponent", "card_kind": "spell"},
                "effect": {"do": "draw", "count": 1, "target": "controller"}}
    zap = spell("zap", [{"do": "damage", "amount": 1, "target": "opponent"}], instant=True)
    game = game_with([creature("maybe", 1, 3, abilities=[on_spell(True)]),
                      creature("must", 1, 3, abilities=[on_spell(False)]), zap],
                     agents=[Passer(), scripted("play tt:zap", only=("action",))])
    game.enter_play(0, cid("maybe"), active=True)
    game.enter_play(0, cid("must"), active=True)
    game.players[1].hand.append(cid("zap"))
    game.players[1].vp = 1
    play_turn(game)
    assert [(e["player"], e.step) for e in game.log.of_kind("card_played")] == [
        (1, "main_phase")]
    assert game.log.of_kind("turn_passed")[0].seq < game.log.of_kind("card_played")[0].seq
    assert not [e for e in game.log.of_kind("decision") if e["decision"] == "use"]
    drawn_by = [e["card"] for e in game.log.of_kind("resolving")
                if e["card"] in (cid("maybe"), cid("must"))]
    assert drawn_by == [cid("must")]  # the mandatory one still happens


def test_41_5_after_passing_the_turn_the_active_player_is_not_asked_to_use_a_later_item():
    # a plugin's optional item of end stage 3 (an ordered step): his, so not used; his
    # opponent's is still offered to him
    make = lambda g: [item(f"mend {c}", lambda g2: None, controller=c, optional=True)  # noqa
                      for c in (0, 1)]
    game = game_with(plugins=[item_plugin("end_stage3", make)], agents=[Passer(), Passer()])
    play_turn(game)
    uses = [(e["player"], e["choice"]) for e in game.log.of_kind("decision")
            if e["decision"] == "use"]
    assert uses == [(1, "use mend 1")]
    assert [e["item"] for e in game.log.of_kind("resolving") if e.step == "end_stage3"
            and e["item"].startswith("mend")] == ["mend 1"]


# -- 41.6 ------------------------------------------------------------------------------------

def test_41_6_turn_ends_after_end_stage_4_and_next_players_turn_begins_at_once():
    game = game_with(agents=[Passer(), Passer()])
    play_turn(game)
    play_turn(game)
    kinds = [(e.kind, e.get("hook")) for e in game.log]
    ends = [i for i, k in enumerate(kinds) if k[0] == "turn_ended"]
    assert len(ends) == 2
    for i in ends:
        assert kinds[i - 1] == ("step_ended", "end_stage4")
    nxt = ends[0] + 1
    assert kinds[nxt][0] == "turn_started" and game.log[nxt]["player"] == 1
    # the next turn starts with its deferred Ép check (41.4) and its preparation phase
    assert kinds[nxt + 1:nxt + 3] == [("hp_check", None), ("step_started", "prep_stage1")]
    assert [e["player"] for e in game.log.of_kind("turn_ended")] == [0, 1]
    assert game.active == 0 and game.turn == 2


# -- 41.7 ------------------------------------------------------------------------------------

def test_41_7_clock_counts_the_turn_closed_when_the_active_player_signals(fake_time):
    tick = lambda seconds: item(f"wait {seconds}", lambda g: fake_time.advance(seconds))  # noqa
    plugins = [item_plugin("prep_stage2", lambda g: [tick(5)]),
               item_plugin("end_stage2", lambda g: [tick(100)])]
    game = game_with(plugins=plugins, agents=[Passer(), Passer()],
                     clock=GameClock(time_source=fake_time))
    play_turn(game)
    assert game.clock.turn_times == {1: 5}
    closed = game.log.of_kind("clock_closed")
    assert [(e.step, e["rule"]) for e in closed] == [("main_phase", "41.7")]
    assert closed[0].seq < game.log.of_kind("turn_ended")[0].seq  # end stages still followed


class Thinker(Passer):
    """Passes (never the whole turn) after thinking ``seconds`` on every decision."""

    def __init__(self, clock_time: FakeTime, seconds: float) -> None:
        super().__init__("pass")
        self.clock_time, self.seconds = clock_time, seconds

    def choose(self, game, decision):
        self.clock_time.advance(self.seconds)
        return super().choose(game, decision)


def test_41_7_without_an_explicit_signal_his_last_pass_closes_the_turn(fake_time):
    # P0 passes main and combat after 2 s each; P1 thinks 30 s before each of his passes.  The
    # clock stops at P0's last pass (combat): P1's thinking after it is not charged to him.
    agents = [Thinker(fake_time, 2), Thinker(fake_time, 30)]
    game = game_with(agents=agents, clock=GameClock(time_source=fake_time))
    play_turn(game)
    assert game.clock.turn_times == {1: 2 + 30 + 2}
    # the clock knows it only once end stage 1 left him nothing more to decide
    assert [(e.step, e["rule"]) for e in game.log.of_kind("clock_closed")] == [
        ("end_stage1", "41.7")]


def test_41_7_a_turn_without_any_decision_of_its_active_player_closes_at_end_stage_1(fake_time):
    # A turn without action phases (a custom turn): in turn 1 P0 declines an item before 5 s
    # pass; in turn 2 only P0 (not active) decides.  Turn 2 has no decision of its active
    # player: it closes at the end of end stage 1 - P0's decision of turn 1 is no signal for it.
    from hkk import Engine

    from helpers import FILLER, cards

    plugins = [item_plugin("prep_stage2", lambda g: [
        tick(fake_time, 5), item("maybe", lambda g2: None, controller=0, optional=True)])]
    turn = [s for s in DEFAULT_TURN if s.phase in ("preparation", "end")]
    engine = Engine(cards(), plugins=plugins, turn=turn)
    decline = lambda d: d.options[-1]  # noqa: E731
    game = engine.new_game([[FILLER] * 10] * 2,
                           agents=(scripted(decline, decline, only=("use",)), Passer()),
                           clock=GameClock(time_source=fake_time))
    play_turn(game)
    play_turn(game)
    asked = [(e.turn, e["player"]) for e in game.log.of_kind("decision")]
    assert asked == [(1, 0), (2, 0)]
    assert game.clock.turn_times == {1: 0, 2: 5}


def tick(fake_time, seconds):
    return item(f"wait {seconds}", lambda g: fake_time.advance(seconds))


def test_41_7_clock_time_never_reaches_the_log():
    logs = []
    for start, step in ((0.0, 1.0), (5000.0, 60.0)):
        clock_time = FakeTime(start)
        plugins = [item_plugin("prep_stage2", lambda g, t=clock_time, s=step: [item(
            "wait", lambda g2: t.advance(s))])]
        game = game_with(plugins=plugins, agents=[Passer(), Passer()],
                         clock=GameClock(time_source=clock_time))
        play_turn(game)
        logs.append(game.log.as_dicts())
    assert logs[0] == logs[1]


# -- usage limits (K ch. 90) ---------------------------------------------------------------------

def test_90_a_once_per_turn_end_ability_is_usable_again_every_turn():
    # "Körönként egyszer" (K ch. 90): once in each turn, not once in the game; used every time
    # it is offered, the end-stage-1 ability of player 0's creature gives a component a turn.
    defs = [creature("miner", abilities=[end_ability({"do": "gain_components", "count": 1},
                                                     vp=1, limit="once_per_turn")])]
    game = game_with(defs, agents=[scripted(), scripted()])
    game.enter_play(0, cid("miner"), active=True)
    game.players[0].vp = 20
    for _ in range(4):
        play_turn(game)
    uses = [e.turn for e in game.log.of_kind("resolving") if e["card"] == cid("miner")]
    assert uses == [1, 2, 3, 4]
    assert game.players[0].components == 4
