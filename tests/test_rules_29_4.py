"""Preparation phase, stage 2 (Kódex 29.4 - 29.4.11): one or more tests per rule point.

Cards are built in memory; players are scripted; assertions read the event log and the state."""

from __future__ import annotations

import dataclasses

import pytest

from hkk import Engine, RuleViolation, Rulings
from hkk._cards.loader import parse_card_data
from hkk._errors import CardDataError
from hkk._pending import ACTIVATED, Pending
from hkk._phases import DEFAULT_TURN, Mode
from hkk._runner import play_turn, run_step

from helpers import (
    FILLER,
    Passer,
    building,
    cards,
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

PREP_HOOKS = [s.hook for s in DEFAULT_TURN if s.phase == "preparation"]


def auto(timing: str, effect: dict, **extra) -> dict:
    return {"kind": "automatic", "timing": timing, "effect": effect, **extra}


def prep_ability(effect: dict, vp: int = 1, **extra) -> dict:
    return {"kind": "activated", "timing": "prep_stage2", "usable_in_preparation": True,
            "cost": {"vp": vp}, "effect": effect, **extra}


def pick(card_slug: str):
    """A scripted answer: the option whose label names this card."""
    def choose(decision):
        return next(o for o in decision.options if cid(card_slug) in o.label)
    return choose


def resolved_cards(game, step: str) -> list[str]:
    return [e["card"] for e in game.log.of_kind("resolving") if e.step == step]


def steps_of(game, kind: str, **match) -> list[str]:
    return [e.step for e in game.log.of_kind(kind)
            if all(e.data.get(k) == v for k, v in match.items())]


# -- 29.4 ------------------------------------------------------------------------------------

def test_29_4_preparation_phase_effects_happen_in_stage_2():
    game = game_with([creature("seer", abilities=[
        auto("prep_stage2", {"do": "gain_vp", "amount": 2, "target": "controller"})])])
    game.enter_play(0, cid("seer"), active=True)
    play_turn(game)
    gained = game.log.of_kind("vp_gained")
    assert [e.step for e in gained] == ["prep_stage2"]
    # after VP regeneration (stage 1) and before passive cards become active (stage 3)
    seq = gained[0].seq
    assert game.log.of_kind("vp_regenerated")[0].seq < seq
    assert all(e.seq > seq for e in game.log.of_kind("step_started")
               if e["hook"] == "prep_stage3")


# -- 29.4.1 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("active", [0, 1])
def test_29_4_1_active_player_orders_every_stage_2_item_of_both_players(active):
    other = 1 - active
    defs = [
        creature("opp_a", abilities=[auto("prep_stage2", {"do": "gain_vp", "amount": 1,
                                                          "target": "controller"})]),
        creature("opp_b", abilities=[auto("prep_stage2", {"do": "draw", "count": 1,
                                                          "target": "controller"})]),
        creature("mine", abilities=[prep_ability({"do": "gain_components", "count": 1})]),
    ]
    agents = [scripted(), scripted()]
    agents[active] = scripted(pick("opp_b"), pick("mine"), only=("order",))
    game = game_with(defs, agents=agents, active=active)
    game.enter_play(other, cid("opp_a"), active=True)
    game.enter_play(other, cid("opp_b"), active=True)
    game.enter_play(active, cid("mine"), active=True)
    play_turn(game)
    assert resolved_cards(game, "prep_stage2") == [cid("opp_b"), cid("mine"), cid("opp_a")]
    orders = [e for e in game.log.of_kind("decision")
              if e.step == "prep_stage2" and e["decision"] == "order"]
    assert len(orders) == 2
    assert {e["player"] for e in orders} == {active}
    assert {e["rule"] for e in orders} == {"29.4.1"}


def test_29_4_1_the_active_player_orders_stage_2_even_where_no_rule_names_an_orderer_stably():
    # Rulings(default_orderer="stable") only concerns the steps where no rule names who orders
    # (D-orderer); in stage 2 the active player still orders (29.4.1).
    make = lambda game: [item(label, lambda g: None, controller=c)  # noqa: E731
                         for label, c in (("theirs", 0), ("mine", 1))]
    game = game_with(plugins=[item_plugin("prep_stage2", make)], active=1,
                     agents=[scripted(), scripted(pick_label("mine"), only=("order",))],
                     rulings=Rulings(default_orderer="stable"))
    run_until(game, "prep_stage2", inclusive=True)
    assert resolved(game, "prep_stage2") == ["mine", "theirs"]  # not the stable order
    orders = [(e["player"], e["rule"]) for e in game.log.of_kind("decision")
              if e["decision"] == "order"]
    assert orders == [(1, "29.4.1")]


# -- 29.4.2 ----------------------------------------------------------------------------------

def test_29_4_2_expiry_this_turn_start_and_beginning_of_turn_effects_are_one_moment():
    seen: dict[str, tuple[int, int]] = {}

    def reader(label, controller):
        """An item that reads creature A's stats when bound and gives it +10 damage."""
        def bind(game, it):
            a = game.creatures(0)[0]
            seen[label] = (game.damage_value(a), game.max_hp(a))

        def apply(game, it, bound):
            game.add_effect("damage", 10, "permanent", targets=game.creatures(0), source=label)
        return lambda game: [Pending(label, apply, controller=controller, bind=bind)]

    def make_this_turn(game):
        a = game.creatures(0)[0]
        return [item("this-turn buff", lambda g: g.add_effect("hp", 5, "this_turn", targets=[a]),
                     controller=0)]

    game = game_with(
        [creature("a", 1, 2)],
        plugins=[item_plugin("prep_stage2_start", reader("p0 item", 0)),
                 item_plugin("prep_stage2_start", reader("p1 item", 1)),
                 item_plugin("prep_stage1", make_this_turn)],
        agents=[scripted(0, only=("order",)), scripted()])  # buff before VP regeneration
    a = game.enter_play(0, cid("a"), active=True)
    game.add_effect("damage", 2, "until_preparation", targets=[a])
    run_until(game, "prep_stage2_start", inclusive=True)
    # both items saw the state before the moment: the buff still there, the "this turn"
    # effect not yet started, the other item's +10 not yet made
    assert seen == {"p0 item": (3, 2), "p1 item": (3, 2)}
    assert game.damage_value(a) == 1 + 10 + 10
    assert game.max_hp(a) == 2 + 5
    step = [e for e in game.log if e.step == "prep_stage2_start"]
    kinds = [e.kind for e in step]
    assert kinds.index("moment") < kinds.index("effect_ended") < kinds.index("resolving")
    # nobody was asked for an order: none of them is earlier than another
    assert not [e for e in step if e.kind == "decision"]
    moment = next(e for e in step if e.kind == "moment")
    assert moment["items"] == ["p0 item", "p1 item"]
    assert moment["ends"] == ["until_own_preparation", "until_preparation"]


@pytest.mark.parametrize("healed", [False, True])
def test_29_4_2_creature_is_checked_once_after_the_whole_moment(healed):
    # 2 damage taken while a "+2 Ép until the preparation phase" buff held it at 2/4.  At the
    # moment the buff ends (Ép 0) and beginning-of-turn items happen: a scratch (1 damage) and,
    # with ``healed``, a heal of 2.  One check after all of it: with the heal it lives (2/2 - 1).
    target = {}
    items = [item("scratch", lambda g: g.damage(target["a"], 1), controller=1)]
    if healed:
        items.append(item("mend", lambda g: g.heal(target["a"], 2), controller=0))
    game = game_with([creature("a", 1, 2, components=2)],
                     plugins=[item_plugin("prep_stage2_start", lambda game: list(items))])
    a = target["a"] = game.enter_play(0, cid("a"), active=True)
    game.add_effect("hp", 2, "until_preparation", targets=[a])
    game.damage(a, 2)
    run_until(game, "prep_stage2_start", inclusive=True)
    step = [e for e in game.log if e.step == "prep_stage2_start"]
    checks = [i for i, e in enumerate(step) if e.kind == "hp_check"]
    assert len(checks) == 1  # once ...
    last_change = max(i for i, e in enumerate(step) if e.kind in ("damaged", "healed",
                                                                   "effect_ended"))
    assert checks[0] > last_change  # ... after the whole moment
    died = game.log.of_kind("died")
    if healed:
        assert not died and game.hp(a) == 1
    else:
        assert [(e["uid"], e.step, e["rule"]) for e in died] == [
            (a.uid, "prep_stage2_start", "29.4.10")]
        assert died[0]["components_offered"] == 0  # 29.4.11
        assert game.players[0].graveyard == [cid("a")]


def moment_game(*optional: bool, agent=None):
    """Player 0 has 3 VP at the stage-2 opening moment (1 + 2 regenerated) and one 2-VP item per
    permanent, oldest first (``optional`` says which are optional): he can pay for one."""
    from hkk._pending import Price
    perms: list = []

    def make(game):
        return [item(f"{flag and 'may' or 'must'}{n}", lambda g: g.gain_components(0, 1),
                     controller=0, kind=ACTIVATED, price=Price(vp=2), source=perms[n],
                     usable_in_preparation=True, optional=flag)
                for n, flag in enumerate(optional)]
    game = game_with([creature("p")], plugins=[item_plugin("prep_stage2_start", make)],
                     agents=[agent or Passer(), Passer()])
    perms += [game.enter_play(0, cid("p"), active=True) for _ in optional]
    game.players[0].vp = 1
    run_until(game, "prep_stage2_start", inclusive=True)
    return game


def moment_outcome(game):
    return ([e["item"] for e in game.log.of_kind("resolving") if e.step == "prep_stage2_start"],
            [e["item"] for e in game.log.of_kind("item_dropped")],
            [(e["choice"], e["rule"]) for e in game.log.of_kind("decision")
             if e["decision"] == "use"])


def test_29_4_2_D_moment_payments_the_mandatory_item_is_paid_first_whatever_the_timestamps():
    # the optional item's permanent is older; the one he must pay for still happens
    game = moment_game(True, False)  # "may0" (older, optional), "must1"
    assert moment_outcome(game) == (["must1"], ["may0"], [])  # never asked about "may0"
    assert (game.players[0].vp, game.players[0].components) == (1, 1)


def test_29_4_2_D_moment_payments_between_equal_items_the_player_chooses_not_the_older():
    choose = scripted(pick_label("use must1"), only=("use",))
    game = moment_game(False, False, agent=choose)  # two mandatory 2-VP items, 3 VP
    assert moment_outcome(game) == (["must1"], ["must0"], [("use must1", "D-moment-payments")])
    asked = [e for e in game.log.of_kind("decision") if e["decision"] == "use"]
    assert [(e["player"], e["options"]) for e in asked] == [(0, 2)]  # no "decline": mandatory


# -- 29.4.3 ----------------------------------------------------------------------------------

def test_29_4_3_beginning_of_the_turn_is_the_beginning_of_stage_2():
    game = game_with([creature("herald", abilities=[
        auto("prep_stage2_start", {"do": "lose_vp", "amount": 1, "target": "controller"})]),
        creature("later", abilities=[auto("prep_stage2", {"do": "gain_vp", "amount": 3,
                                                          "target": "controller"})])])
    game.enter_play(0, cid("herald"), active=True)
    game.enter_play(0, cid("later"), active=True)
    play_turn(game)
    lost = game.log.of_kind("vp_lost")
    assert [e.step for e in lost] == ["prep_stage2_start"]
    # not in stage 1: the VP of stage 1 is already there to lose; before every stage-2 item
    regenerated = game.log.of_kind("vp_regenerated")[0]["amount"]
    assert lost[0]["amount"] == 1 and lost[0]["after"] == regenerated - 1
    assert game.log.of_kind("vp_regenerated")[0].seq < lost[0].seq
    assert lost[0].seq < game.log.of_kind("vp_gained")[0].seq


# -- 29.4.4 ----------------------------------------------------------------------------------

def test_29_4_4_until_preparation_effect_ends_at_the_very_beginning_of_stage_2():
    hp_in_stage1 = []
    probe = item_plugin("prep_stage1", lambda g: [item(
        "probe", lambda g2: hp_in_stage1.append(g2.max_hp(g2.creatures(1)[0])))])
    game = game_with([creature("a", 1, 2)], plugins=[probe])
    a = game.enter_play(1, cid("a"), active=True)
    game.add_effect("hp", 2, "until_preparation", targets=[a])  # made in the opponent's turn
    run_until(game, "prep_stage2_start", inclusive=True)
    assert hp_in_stage1 == [4]  # still in force in stage 1
    ended = game.log.of_kind("effect_ended")
    assert [(e.step, e["rule"]) for e in ended] == [("prep_stage2_start", "29.4.4")]
    assert game.max_hp(a) == 2


def test_29_4_4_until_preparation_effect_made_in_stage_2_lasts_until_the_next_one():
    game = game_with([creature("a", 1, 2, abilities=[
        auto("prep_stage2", {"do": "modify", "stat": "hp", "by": 1, "target": "self",
                             "duration": "until_preparation"})])])
    a = game.enter_play(0, cid("a"), active=True)
    play_turn(game)
    assert game.max_hp(a) == 3  # survived the rest of the turn, end stage 4 included
    run_until(game, "prep_stage2_start", inclusive=True)  # the opponent's turn
    assert game.max_hp(a) == 2


def test_D_until_preparation_one_made_in_stage_1_ends_at_stage_2_of_the_same_phase():
    # 29.4.4 says "until the preparation phase", not "the next": made in stage 1 (by either
    # player's item), it ends a moment later; compare D-own-preparation below
    make = lambda game: [item(f"ward {c}", lambda g, c=c: g.add_effect(  # noqa: E731
        "hp", 1, "until_preparation", targets=g.creatures(0), controller=c), controller=c)
        for c in (0, 1)] if game.turn == 1 else []
    game = game_with([creature("a", 1, 2)], plugins=[item_plugin("prep_stage1", make)],
                     agents=[Passer(), Passer()])
    a = game.enter_play(0, cid("a"), active=True)
    run_until(game, "prep_stage2_start", inclusive=True)
    assert [(e.turn, e.step) for e in game.log.of_kind("effect_started")] == [
        (1, "prep_stage1")] * 2
    assert [(e.turn, e.step, e["rule"]) for e in game.log.of_kind("effect_ended")] == [
        (1, "prep_stage2_start", "29.4.4")] * 2
    assert game.max_hp(a) == 2


def test_D_own_preparation_made_in_own_stage_1_lasts_until_his_next_turns_preparation():
    # "a következő saját előkészítő fázisodig", made in his own stage 1 (turn 1, e.g. a
    # VP-regeneration modifier's card): not this phase's stage 2 but his next turn's (turn 3)
    def make(game):
        if game.turn != 1:
            return []
        return [item("ward", lambda g: g.add_effect(
            "hp", 1, "until_own_preparation", targets=g.creatures(0), controller=0),
            controller=0)]
    game = game_with([creature("a", 1, 2)], plugins=[item_plugin("prep_stage1", make)],
                     agents=[Passer(), Passer()])
    a = game.enter_play(0, cid("a"), active=True)
    play_turn(game)
    play_turn(game)
    assert game.max_hp(a) == 3  # through the rest of turn 1 and the opponent's turn 2
    run_until(game, "prep_stage2_start", inclusive=True)
    [started] = game.log.of_kind("effect_started")
    assert (started.turn, started.step, started["ends_turn"]) == (1, "prep_stage1", 3)
    [ended] = game.log.of_kind("effect_ended")
    assert (ended.turn, ended.step, ended["rule"]) == (3, "prep_stage2_start", "29.4.4")
    assert game.max_hp(a) == 2


# -- 29.4.5 ----------------------------------------------------------------------------------

def test_29_4_5_this_turn_effect_starts_at_the_beginning_of_stage_2():
    probe: list[int] = []

    def make(game):
        a = game.creatures(0)[0]
        return [item("buff", lambda g: g.add_effect("damage", 2, "this_turn", targets=[a]),
                     controller=0)]
    plugins = [item_plugin("prep_stage1", make),
               item_plugin("prep_stage1", lambda g: [item(
                   "zprobe", lambda g2: probe.append(g2.damage_value(g2.creatures(0)[0])),
                   controller=1)])]
    game = game_with([creature("a", 1, 2)], plugins=plugins,
                     agents=[scripted(pick_label("buff"), pick_label("zprobe"),
                                      only=("order",)), scripted()])
    a = game.enter_play(0, cid("a"), active=True)
    run_until(game, "prep_stage2_start")
    assert probe == [1]  # made in stage 1, not yet in force
    assert [e.step for e in game.log.of_kind("effect_created")] == ["prep_stage1"]
    run_step(game, step_named("prep_stage2_start"))
    started = game.log.of_kind("effect_started")
    assert [(e.step, e["rule"]) for e in started] == [("prep_stage2_start", "29.4.5")]
    assert game.damage_value(a) == 3


def pick_label(label: str):
    def choose(decision):
        return next(o for o in decision.options if o.label == label)
    return choose


def test_29_4_5_vp_regeneration_modifier_of_this_turn_already_acts_in_stage_1():
    make = lambda game: [item("regen +2", lambda g: g.add_effect(  # noqa: E731
        "vp_regen", 2, "this_turn", player=0), controller=0)]
    game = game_with(plugins=[item_plugin("prep_stage1", make)],
                     agents=[scripted(pick_label("regen +2"), only=("order",)), scripted()])
    run_until(game, "vp_regeneration", inclusive=True)
    regen = game.log.of_kind("vp_regenerated")
    assert regen[0]["amount"] == 1 + 2
    assert not game.log.of_kind("effect_created")  # did not wait for stage 2
    assert game.players[0].vp_received == 3


# -- 29.4.6 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("hook", PREP_HOOKS)
def test_29_4_6_no_card_may_be_played_from_hand_in_the_preparation_phase(hook):
    defs = [creature("cheap", vp=0), spell("zap", [{"do": "damage", "amount": 1,
                                                    "target": "opponent"}], instant=True)]
    game = game_with(defs)
    run_until(game, hook)
    for player in (0, 1):
        game.players[player].hand += [cid("cheap"), cid("zap")]
        game.players[player].vp = 5
    before = game.snapshot()
    log_len = len(game.log)
    for player in (0, 1):
        assert game.playable(player) == []
        for card in (cid("cheap"), cid("zap")):
            with pytest.raises(RuleViolation) as err:
                game.play_card(player, card)
            assert err.value.rule == "29.4.6"
    assert game.snapshot() == before
    assert len(game.log) == log_len


#: A set's turn in which players take actions in preparation stage 2 (using abilities their
#: text allows there, 29.4.7): still the preparation phase, so no card is played from hand.
ACTION_STAGE_2 = tuple(dataclasses.replace(s, mode=Mode.ACTIONS) if s.hook == "prep_stage2"
                       else s for s in DEFAULT_TURN)


@pytest.mark.parametrize("turn", [DEFAULT_TURN, ACTION_STAGE_2], ids=["default", "actions"])
def test_29_4_6_players_are_never_offered_a_card_to_play_in_the_preparation_phase(turn):
    agents = [scripted(), scripted()]
    zap = spell("zap", [{"do": "damage", "amount": 1, "target": "opponent"}], instant=True)
    engine = Engine(cards(creature("b", abilities=[prep_ability({"do": "draw", "count": 1})]),
                          creature("cheap"), zap), turn=turn)
    game = engine.new_game([[FILLER] * 10] * 2, agents=agents)
    game.enter_play(0, cid("b"), active=True)
    for player in (0, 1):  # an instant too: either player may play one outside it
        game.players[player].hand += [cid("cheap"), cid("zap")]
        game.players[player].vp = 3
    run_until(game, "main_phase")
    assert agents[0].seen  # decisions were asked
    asked = {d.kind for agent in agents for d in agent.seen}
    assert ("action" in asked) is (turn is ACTION_STAGE_2)  # both players could act there
    for agent in agents:
        assert not [o for d in agent.seen for o in d.labels() if o.startswith("play ")]
    assert game.playable(0) == [cid("cheap"), cid("zap")]  # playable once the main phase begins


# -- 29.4.7 ----------------------------------------------------------------------------------

def test_29_4_7_only_activated_abilities_whose_text_allows_it_are_usable_in_stage_2():
    def make(game):
        return [item("allowed", lambda g: g.gain_components(0, 1), controller=0,
                     kind=ACTIVATED, usable_in_preparation=True),
                item("not allowed", lambda g: g.gain_components(0, 10), controller=0,
                     kind=ACTIVATED, usable_in_preparation=False)]
    game = game_with(plugins=[item_plugin("prep_stage2", make)])
    run_until(game, "prep_stage2", inclusive=True)
    assert resolved(game, "prep_stage2") == ["allowed"]
    assert game.players[0].components == 1


def test_29_4_7_card_data_refuses_a_stage_2_activated_ability_without_permission():
    bad = creature("bad", abilities=[{"kind": "activated", "timing": "prep_stage2",
                                      "effect": {"do": "draw", "count": 1}}])
    with pytest.raises(CardDataError, match="29.4.7"):
        parse_card_data("tt", "cards/x.toml", {"cards": [bad]})


class Decliner(Passer):
    """Declines every optional item it is asked about."""

    def choose(self, game, decision):
        if decision.kind == "use":
            self.seen.append(decision)
            return decision.options[-1]
        return super().choose(game, decision)


def test_29_4_7_an_ability_whose_text_orders_its_use_is_used_in_stage_2_without_asking():
    ordered = {"kind": "activated", "timing": "prep_stage2", "must_use_in_preparation": True,
               "cost": {"vp": 1}, "effect": {"do": "gain_components", "count": 1}}
    allowed = dict(ordered, must_use_in_preparation=False, usable_in_preparation=True)
    agent = Decliner()
    game = game_with([creature("ordered", abilities=[ordered]),
                      creature("allowed", abilities=[allowed])], agents=[agent, Passer()])
    game.enter_play(0, cid("ordered"), active=True)
    game.enter_play(0, cid("allowed"), active=True)
    game.players[0].vp = 5
    run_until(game, "prep_stage2", inclusive=True)
    # the ordered one was used, once (29.4.9), though its controller declines whatever he may
    assert [e["card"] for e in game.log.of_kind("resolving") if e.step == "prep_stage2"] == [
        cid("ordered")]
    assert game.players[0].components == 1
    assert [d.labels()[0].split("#")[0] for d in agent.seen if d.kind == "use"] == [
        f"use {cid('allowed')}"]


def test_29_4_7_card_data_refuses_an_ordered_ability_outside_stage_2_or_optional():
    for extra in ({"timing": "main_phase"}, {"timing": "prep_stage2", "optional": True}):
        bad = creature("bad", abilities=[{"kind": "activated", "must_use_in_preparation": True,
                                          "effect": {"do": "draw", "count": 1}, **extra}])
        with pytest.raises(CardDataError, match="29.4.7"):
            parse_card_data("tt", "cards/x.toml", {"cards": [bad]})


# -- 29.4.8 ----------------------------------------------------------------------------------

def test_29_4_8_static_and_automatic_abilities_work_in_the_preparation_phase():
    defs = [creature("w", 1, 1),
            building("shrine", abilities=[{"kind": "static", "effect": {
                "do": "modify", "stat": "hp", "by": 1, "target": "own_creatures",
                "duration": "permanent"}}]),
            creature("ticker", abilities=[auto("prep_stage2", {"do": "damage", "amount": 1,
                                                               "target": "opponent"})])]
    game = game_with(defs)
    w = game.enter_play(0, cid("w"), active=True)
    game.enter_play(0, cid("shrine"), active=True)
    game.enter_play(0, cid("ticker"), active=True)
    game.damage(w, 1)  # 1/1 +1 static -1 damage: 1 Ép left only thanks to the static ability
    run_until(game, "prep_stage3", inclusive=True)
    checks = [e for e in game.log.of_kind("hp_check") if e["rule"] == "29.4.10"]
    assert checks and all(e["dead"] == [] for e in checks)
    assert w.uid in game.permanents and game.hp(w) == 1
    assert game.players[1].hp == 19  # the automatic ability fired in stage 2
    assert [e.step for e in game.log.of_kind("player_damaged")] == ["prep_stage2"]


# -- 29.4.9 ----------------------------------------------------------------------------------

def test_29_4_9_preparation_ability_may_be_attempted_once_per_turn_even_if_it_failed():
    # "(Preparation phase), 1 VP: 2 damage to a chosen enemy creature" with no enemy creature:
    # the attempt fails, and still counts; the ability has no usage limit of its own.
    digger = creature("digger", abilities=[prep_ability(
        {"do": "damage", "amount": 2, "target": "chosen_opponent_creature"})])
    game = game_with([digger])
    game.enter_play(0, cid("digger"), active=True)
    game.players[0].vp = 9
    run_until(game, "prep_stage2", inclusive=True)
    uses = [e for e in game.log.of_kind("resolving") if e["card"] == cid("digger")]
    assert len(uses) == 1
    assert game.players[0].vp == 9 + 1 - 1
    assert not game.log.of_kind("damaged")  # it failed


def test_29_4_9_the_attempt_is_counted_per_turn():
    # Both players can pay many times over, in their own preparation phases and in their
    # opponent's (29.4.1: "whichever player wants to operate them"): one attempt each, per turn.
    digger = creature("digger", abilities=[prep_ability({"do": "gain_components", "count": 1})])
    game = game_with([digger], agents=[Passer(), Passer()])
    game.enter_play(0, cid("digger"), active=True)
    game.enter_play(1, cid("digger"), active=True)
    game.players[0].vp = game.players[1].vp = 10
    for _ in range(3):
        play_turn(game)
    uses = [(e.turn, e["controller"]) for e in game.log.of_kind("resolving")
            if e["card"] == cid("digger")]
    assert sorted(uses) == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]
    assert [p.components for p in game.players] == [3, 3]


# -- 29.4.10 ---------------------------------------------------------------------------------

def test_29_4_10_creature_dies_immediately_in_prep_phase():
    defs = [creature("victim", 1, 3, components=2, abilities=[
                auto("prep_stage2", {"do": "gain_vp", "amount": 5, "target": "controller"})]),
            creature("bolt", abilities=[prep_ability(
                {"do": "damage", "amount": 3, "target": "chosen_opponent_creature"})]),
            creature("other", abilities=[auto("prep_stage2", {"do": "draw", "count": 1})])]
    game = game_with(defs, agents=[scripted(pick("bolt"), only=("order",)), scripted()])
    victim = game.enter_play(1, cid("victim"), active=True)
    game.enter_play(0, cid("bolt"), active=True)
    game.enter_play(0, cid("other"), active=True)
    run_until(game, "prep_stage2", inclusive=True)
    step = [e for e in game.log if e.step == "prep_stage2"]
    kinds = [e.kind for e in step]
    died = kinds.index("died")
    # dead right after the ability, before the next stage-2 item is chosen or resolves
    assert kinds[:died + 1][-3:] == ["damaged", "hp_check", "died"]
    assert step[died]["uid"] == victim.uid and step[died]["rule"] == "29.4.10"
    later_items = [e["card"] for e in step[died:] if e.kind == "resolving"]
    assert later_items == [cid("other")]  # the dead creature's own stage-2 ability is gone
    assert game.players[1].vp == 0


@pytest.mark.parametrize("hook", ["prep_stage1", "prep_stage3", "prep_stage4"])
def test_29_4_10_hp_is_checked_after_every_item_in_every_preparation_stage(hook):
    def make(game):
        return [item("hit", lambda g, c=c: g.damage(c, 5)) for c in game.creatures(1)]
    game = game_with([creature("c", 1, 2)], plugins=[item_plugin(hook, make)])
    c = game.enter_play(1, cid("c"), active=True)
    run_until(game, hook, inclusive=True)
    died = game.log.of_kind("died")
    assert [(e["uid"], e.step, e["rule"]) for e in died] == [(c.uid, hook, "29.4.10")]


# -- 29.4.11 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("hook", ["prep_stage2_start", "prep_stage2"])
def test_29_4_11_no_monster_component_from_a_creature_dying_in_stage_2(hook):
    kill = creature("killer", abilities=[auto(hook, {"do": "damage", "amount": 9,
                                                     "target": "opponent_creatures"})])
    game = game_with([kill, creature("beast", 2, 2, components=3)],
                     agents=[scripted(), scripted()])
    game.enter_play(0, cid("killer"), active=True)
    game.enter_play(1, cid("beast"), active=True)
    play_turn(game)
    died = game.log.of_kind("died")
    assert [(e["card"], e.step, e["components_offered"]) for e in died] == [
        (cid("beast"), hook, 0)]
    assert not game.log.of_kind("components_extracted")
    assert not [d for d in game.agents[0].seen for o in d.labels() if o.startswith("extract")]
    assert game.players[0].components == 0


@pytest.mark.parametrize("hook", ["prep_stage1", "prep_stage3", "prep_stage4"])
def test_29_4_11_the_same_death_outside_stage_2_gives_components(hook):
    # control case: the creature dies in another stage of the preparation phase, not stage 2;
    # its opponent may extract (only stage 2 is excepted)
    kill = lambda game: [item("hit", lambda g: [g.damage(c, 9) for c in g.creatures(1)])]  # noqa
    game = game_with([creature("beast", 2, 2, components=3)],
                     plugins=[item_plugin(hook, kill)])
    game.enter_play(1, cid("beast"), active=True)
    play_turn(game)
    died = game.log.of_kind("died")
    assert [(e.step, e["components_offered"]) for e in died] == [(hook, 3)]
    assert game.players[0].components == 3  # FirstLegalAgent extracts when asked


# -- who is asked "use?" in stage 2; D-declined -------------------------------------------------

def test_29_4_1_the_owner_is_asked_use_and_a_declined_item_is_not_offered_again():
    # The active player orders (29.4.1), but whether a "may" item is used is its controller's
    # choice - here the non-active player's.  He declines; two more items resolve after that
    # (each a new collection), and he is not asked again in the step ([D] D-declined).
    def make(game):
        return [item("maybe", lambda g: g.gain_components(1, 5), controller=1, optional=True),
                item("first", lambda g: None, controller=0),
                item("second", lambda g: None, controller=0)]
    declines = []

    def decline(decision):
        declines.append(decision.labels())
        return decision.options[-1]
    game = game_with(plugins=[item_plugin("prep_stage2", make)],
                     agents=[Passer(), scripted(decline, decline, only=("use",))])
    run_until(game, "prep_stage2", inclusive=True)
    asked = [(e["player"], e["choice"]) for e in game.log.of_kind("decision")
             if e["decision"] == "use"]
    assert asked == [(1, "decline")]
    assert declines == [["use maybe", "decline"]]
    assert resolved(game, "prep_stage2") == ["first", "second"]
    assert game.players[1].components == 0


# -- what the deferred Ép check's deaths trigger (41.4 supplement, D-deferred-check) -----------
# A creature left at Ép <= 0 by 41.4 dies in the check at the very start of the next turn.  What
# that death triggers belongs to the preparation phase: it waits and joins the stage-2 pool.

def on_death(effect: dict, **when) -> dict:
    return {"kind": "triggered", "when": {"event": "dies", "card_kind": "creature", **when},
            "effect": effect}


def deferred_death_game(watcher: dict, *extra: dict, plugins=(), agents=None):
    """Player 1's turn starts; player 0's creature ``doomed`` was left at Ép 0 (41.4) and dies
    at the deferred check; player 0's ``watcher`` sees it."""
    game = game_with([watcher, creature("doomed", 1, 1), *extra], plugins=list(plugins),
                     agents=agents or [Passer(), Passer()], active=1)
    game.enter_play(0, watcher["id"], active=True)
    doomed = game.enter_play(0, cid("doomed"), active=True)
    game.damage(doomed, 1, source="41.4 leftover")  # no check after end stage 4 (41.4)
    return game


def test_29_4_1_deferred_check_death_triggers_join_the_stage_2_pool_the_active_player_orders():
    watcher = creature("watcher", 1, 3, abilities=[on_death(
        {"do": "gain_vp", "amount": 1, "target": "controller"}, which="another")])
    stage2 = item_plugin("prep_stage2", lambda g: [item("tick", lambda g2: None, controller=1)])
    game = deferred_death_game(watcher, plugins=[stage2])
    run_until(game, "prep_stage3")
    [died] = game.log.of_kind("died")
    assert died.step == "" and died["card"] == cid("doomed")  # the deferred check itself
    [trigger] = [e["item"] for e in game.log.of_kind("triggered")]
    assert [e.step for e in game.log.of_kind("resolving") if e["item"] == trigger] == [
        "prep_stage2"]
    orders = [(e.step, e["player"], e["rule"], e["options"])
              for e in game.log.of_kind("decision") if e["decision"] == "order"]
    assert orders == [("prep_stage2", 1, "29.4.1", 2)]  # beside "tick", by the active player


def test_29_4_11_a_creature_a_deferred_check_death_trigger_kills_gives_no_component():
    # "when another creature dies, 1 damage to this one": the watcher (Ép 1) dies of it
    watcher = creature("watcher", 1, 1, components=2, abilities=[on_death(
        {"do": "damage", "amount": 1, "target": "self"}, which="another")])
    game = deferred_death_game(watcher)
    run_until(game, "prep_stage3")
    died = [(e["card"], e.step, e["components_offered"]) for e in game.log.of_kind("died")]
    assert died == [(cid("doomed"), "", 0), (cid("watcher"), "prep_stage2", 0)]
    assert not game.offers and game.players[1].components == 0


def test_29_4_5_a_this_turn_effect_a_deferred_check_death_trigger_makes_starts_with_stage_2():
    watcher = creature("watcher", 1, 3, abilities=[on_death(
        {"do": "modify", "stat": "damage", "by": 2, "target": "self", "duration": "this_turn"},
        which="another")])
    probe: list[int] = []
    stage1 = item_plugin("prep_stage1", lambda g: [item(
        "probe", lambda g2: probe.append(g2.damage_value(g2.creatures(0)[0])))])
    game = deferred_death_game(watcher, plugins=[stage1])
    run_until(game, "prep_stage3")
    assert probe == [1]  # not in force in stage 1
    assert [e.step for e in game.log.of_kind("effect_started")] == ["prep_stage2"]
    assert not game.log.of_kind("effect_created")
    assert game.damage_value(game.creatures(0)[0]) == 3


def test_D_prevented_a_deferred_check_death_trigger_is_stopped_by_preparation_prevention():
    # "Az ellenfeled előkészítő fázisban ... képességei hatástalanok" (automatic ones too)
    watcher = creature("watcher", 1, 3, abilities=[on_death(
        {"do": "gain_vp", "amount": 3, "target": "controller"}, which="another")])
    hush = creature("hush", 0, 5, abilities=[{"kind": "static", "effect": {
        "do": "prevent", "whose": "opponent", "abilities": "automatic",
        "phase": "preparation"}}])
    game = deferred_death_game(watcher, hush)
    game.enter_play(1, cid("hush"), active=True)
    run_until(game, "prep_stage3")
    [trigger] = [e["item"] for e in game.log.of_kind("triggered")]
    assert [(e["item"], e.step) for e in game.log.of_kind("prevented")] == [
        (trigger, "prep_stage2")]
    assert game.players[0].vp == 0 and not game.log.of_kind("vp_gained")


def test_29_4_1_what_stage_1_triggers_joins_the_stage_2_pool_too():
    # a stage-1 item kills a creature (29.4.10); the death trigger is a preparation-phase
    # effect like the deferred check's: it waits for the stage-2 pool
    watcher = creature("watcher", 1, 3, abilities=[on_death(
        {"do": "gain_vp", "amount": 1, "target": "controller"}, which="another")])
    kill = item_plugin("prep_stage1", lambda g: [item(
        "kill", lambda g2: [g2.damage(c, 9) for c in g2.creatures(1)])] if g.turn == 1 else [])
    game = game_with([watcher, creature("prey", 1, 1)], plugins=[kill],
                     agents=[Passer(), Passer()])
    game.enter_play(0, cid("watcher"), active=True)
    game.enter_play(1, cid("prey"), active=True)
    run_until(game, "prep_stage3")
    assert [(e["card"], e.step) for e in game.log.of_kind("died")] == [
        (cid("prey"), "prep_stage1")]
    assert [e.step for e in game.log.of_kind("resolving") if e["card"] == cid("watcher")] == [
        "prep_stage2"]


def test_D_declined_an_optional_trigger_declined_in_the_stage_2_pool_never_resolves_later():
    # The deferred check's death sets off a "may" trigger of player 0's; it joins the stage-2
    # pool (29.4.1), he declines it (D-declined): it is gone, not left waiting for the next
    # step that resolves triggers (prep stage 3, the main phase...).
    watcher = creature("watcher", 1, 3, abilities=[on_death(
        {"do": "gain_vp", "amount": 3, "target": "controller"}, which="another",
    ) | {"optional": True}])
    declined = scripted("decline", only=("use",))
    game = deferred_death_game(watcher, agents=[declined, Passer()])
    turn = run_until(game, "prep_stage2", inclusive=True)
    asked = [(e.step, e["player"], e["choice"]) for e in game.log.of_kind("decision")
             if e["decision"] == "use"]
    assert asked == [("prep_stage2", 0, "decline")]
    assert not game.triggers.waiting
    turn.run_to("end_stage4", inclusive=True)
    assert not [e for e in game.log.of_kind("resolving") if e["card"] == cid("watcher")]
    assert game.players[0].vp == 0 and not game.log.of_kind("vp_gained")
