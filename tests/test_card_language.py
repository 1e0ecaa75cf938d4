"""The card language of issue 10 (texts 6-10): prevention, ending effects, counted durations,
conditions on the state and a chosen player - each as a data-only card played in its situation,
checked in the log and the state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkk import Rulings
from hkk._card_text import card_lines
from hkk._cards.loader import card_file_schema, parse_card_data
from hkk._characteristics import static_applies
from hkk._conditions import holds
from hkk._effects import Duration
from hkk._errors import CardDataError
from hkk._markup import plain
from hkk._runner import play_turn
from hkk._saving import load_game, save_game

from helpers import (
    Passer,
    Wants,
    cid,
    creature,
    game_with,
    item,
    item_plugin,
    resolved,
    run_until,
    spell,
)


def static(effect: dict, **extra: Any) -> dict:
    return {"kind": "static", "effect": effect, **extra}


def prep_ability(effect: dict, vp: int = 1, **extra: Any) -> dict:
    return {"kind": "activated", "timing": "prep_stage2", "usable_in_preparation": True,
            "cost": {"vp": vp}, "effect": effect, **extra}


def of_card(game: Any, kind: str, card: str) -> list[Any]:
    return [e for e in game.log.of_kind(kind) if e.get("card") == cid(card)]


# -- 6. prevention: "Az ellenfeled előkészítő fázisban használt képességei hatástalanok." ------

#: Text 6, as data: the opponent's activated ("used") abilities in the preparation phase.
HUSHER = creature("husher", 1, 3, text="Az ellenfeled előkészítő fázisban használt képességei "
                  "hatástalanok.", abilities=[static(
                      {"do": "prevent", "whose": "opponent", "abilities": "activated",
                       "phase": "preparation"})])
DIGGER = creature("digger", 1, 3, abilities=[
    prep_ability({"do": "gain_components", "count": 1}),
    {"kind": "activated", "timing": "main_phase", "cost": {"vp": 1},
     "effect": {"do": "gain_components", "count": 1}, "limit": "once_per_turn"}])


def test_29_4_9_a_prevented_attempt_is_the_one_attempt_of_the_turn():
    game = game_with([HUSHER, DIGGER], agents=[Passer(), Passer()])
    game.enter_play(0, cid("digger"), active=True)
    game.enter_play(1, cid("husher"), active=True)
    game.players[0].vp = 5
    run_until(game, "prep_stage3")
    uses = [e for e in of_card(game, "resolving", "digger") if e.step == "prep_stage2"]
    assert len(uses) == 1  # attempted once, and not again: the attempt counted (29.4.9)
    [prevented] = game.log.of_kind("prevented")
    assert prevented["item"] == uses[0]["item"] and (prevented["preventer_card"], prevented["preventer_uid"]) == (cid("husher"), 2)
    assert prevented["rule"] == "D-prevented"
    kinds = [e.kind for e in game.log if e.step == "prep_stage2"]
    assert kinds.index("resolving") < kinds.index("cost_paid") < kinds.index("prevented")
    regenerated = game.log.of_kind("vp_regenerated")[0]["amount"]
    assert game.players[0].vp == 5 + regenerated - 1  # paid...
    assert game.players[0].components == 0  # ...and without effect


def test_D_prevented_only_its_kind_its_phase_and_the_opponent():
    # The same creature's main-phase ability works; the preventer's controller's own
    # preparation ability works; an automatic one is not "used" and works too.
    me = creature("me", 1, 3, abilities=[
        prep_ability({"do": "gain_vp", "amount": 2}),
        {"kind": "automatic", "timing": "prep_stage2", "effect": {"do": "draw", "count": 1}}])
    eager = creature("eager", 1, 3, abilities=[
        {"kind": "automatic", "timing": "prep_stage2", "effect": {"do": "draw", "count": 1}}])
    game = game_with([HUSHER, DIGGER, me, eager],
                     agents=[Wants("use tt:digger#1:1"), Passer()])
    game.enter_play(0, cid("digger"), active=True)
    game.enter_play(1, cid("husher"), active=True)
    game.enter_play(1, cid("me"), active=True)
    game.enter_play(0, cid("eager"), active=True)
    game.players[0].vp = game.players[1].vp = 5
    run_until(game, "end_stage1")
    assert [e["item"] for e in game.log.of_kind("prevented")] == [f"{cid('digger')}#1:0"]
    main = [e for e in of_card(game, "resolving", "digger") if e.step == "main_phase"]
    assert len(main) == 1 and game.players[0].components == 1
    assert game.players[1].vp == 5 - 1 + 2  # his own preparation ability is not prevented
    assert sorted((e.step, e["player"]) for e in game.log.of_kind("card_drawn")) == [
        ("prep_stage2", 0), ("prep_stage2", 1), ("prep_stage4", 0)]


def test_D_prevented_at_a_moment_makes_no_choice_and_no_change():
    # "all" abilities: an automatic "beginning of the turn" item of the opponent is prevented
    # at the moment of prep_stage2_start; its target is never asked for.
    herald = creature("herald", 1, 3, abilities=[{
        "kind": "automatic", "timing": "prep_stage2_start",
        "effect": {"do": "damage", "amount": 1, "target": "chosen_opponent_creature"}}])
    wall = creature("wall", 0, 5, abilities=[static(
        {"do": "prevent", "abilities": "all", "phase": "preparation"})])
    game = game_with([herald, wall])
    game.enter_play(0, cid("herald"), active=True)
    game.enter_play(1, cid("wall"), active=True)
    run_until(game, "prep_stage2")
    assert [e["item"] for e in game.log.of_kind("prevented")] == [f"{cid('herald')}#1:0"]
    assert not game.log.of_kind("damaged")
    assert not [e for e in game.log.of_kind("decision") if e["decision"] == "target"]


def test_D_prevented_ends_when_the_preventer_leaves_play():
    game = game_with([HUSHER, DIGGER], agents=[Passer(), Passer()])
    game.enter_play(0, cid("digger"), active=True)
    husher = game.enter_play(1, cid("husher"), active=True)
    game.players[0].vp = 5
    game.destroy(husher, "destroyed")
    run_until(game, "prep_stage3")
    assert not game.log.of_kind("prevented") and game.players[0].components == 1


# -- 7. ending effects ---------------------------------------------------------------------------

CLEANSE = spell("cleanse", [{"do": "end_effects", "target": "chosen_creature"}], instant=True)
CALM = spell("calm", [{"do": "end_effects", "durations": ["until_end_of_turn"]}], instant=True)
BEAR = creature("bear", 2, 3)


def _buffed(agent: Any) -> tuple[Any, Any, Any]:
    game = game_with([BEAR, CLEANSE, CALM], agents=[agent, Passer()])
    x = game.enter_play(0, cid("bear"), active=True)
    y = game.enter_play(0, cid("bear"), active=True)
    game.add_effect("damage", 2, "until_end_of_turn", targets=[x], controller=0)
    game.add_effect("hp", 1, "permanent", targets=[x], controller=1)
    game.add_effect("damage", 1, "this_turn", targets=[x, y], controller=0)
    game.players[0].hand.extend([cid("cleanse"), cid("calm")])
    game.players[0].vp = 5
    return game, x, y


def test_D_dispel_every_effect_on_the_chosen_creature_ends_at_one_moment():
    """Text 7a: "Egy általad választott lényről minden hatás megszűnik." """
    game, x, y = _buffed(Wants("play tt:cleanse", "target tt:bear#1"))
    seen = []  # what each effect_ended's listener sees: all of them are gone already
    game.log.subscribe(lambda e: seen.append((game.damage_value(x), game.max_hp(x))),
                       kinds=["effect_ended"])
    run_until(game, "combat_phase")
    ended = game.log.of_kind("effect_ended")
    assert [(e["effect"], e["targets"], e.get("partial"), e["rule"]) for e in ended] == [
        (3, [1], None, "D-dispel"), (4, [1], None, "D-dispel"), (5, [1], True, "D-dispel")]
    assert seen == [(2, 3)] * 3  # base values at every one: a single moment
    assert (game.damage_value(x), game.max_hp(x)) == (2, 3)
    assert game.damage_value(y) == 3  # the shared effect goes on for the other creature


def test_D_dispel_by_duration_ends_only_that_duration():
    """Text 7b: "A kör végéig tartó hatások azonnal megszűnnek." """
    game, x, y = _buffed(Wants("play tt:calm"))
    run_until(game, "combat_phase")
    [ended] = game.log.of_kind("effect_ended")
    assert (ended["effect"], ended.step, ended["rule"]) == (3, "main_phase", "D-dispel")
    assert (game.damage_value(x), game.max_hp(x), game.damage_value(y)) == (3, 4, 3)


def test_41_4_a_dispelled_effect_does_not_end_again_at_the_end_of_turn():
    game, x, _ = _buffed(Wants("play tt:calm"))
    play_turn(game)
    assert [(e["effect"], e.step) for e in game.log.of_kind("effect_ended")] == [
        (3, "main_phase"), (5, "end_stage4")]


@pytest.mark.parametrize("dispel", [{"on": "bear"}, {"durations": ["this_turn"]}],
                         ids=["on the creature", "by duration"])
def test_D_dispel_leaves_a_this_turn_effect_still_waiting_for_stage_2_alone(dispel):
    # made in stage 1, a "this turn" effect waits for stage 2 (29.4.5): it has not started, so
    # ending "every effect on the creature" or "every this-turn effect" before then ends
    # nothing, and it starts at the beginning of stage 2 as it would have
    def sharpen(game):
        bear = game.creatures(0)[0]
        return [item("sharpen", lambda g: g.add_effect("damage", 2, "this_turn", targets=[bear],
                                                       controller=0))]

    def cleanse(game):
        bear = game.creatures(0)[0]
        how = {"on": bear} if "on" in dispel else {
            "durations": [Duration(d) for d in dispel["durations"]]}
        return [item("cleanse", lambda g: g.dispel("D-dispel", **how))]
    game = game_with([BEAR], plugins=[item_plugin("prep_stage1", sharpen),
                                      item_plugin("vp_regeneration", cleanse)])
    bear = game.enter_play(0, cid("bear"), active=True)
    run_until(game, "prep_stage2")
    assert resolved(game, "prep_stage1") + resolved(game, "vp_regeneration")[-1:] == [
        "sharpen", "cleanse"]
    [made] = game.log.of_kind("effect_created")
    assert made.step == "prep_stage1"
    assert not game.log.of_kind("effect_ended")
    assert [(e["effect"], e.step, e["rule"]) for e in game.log.of_kind("effect_started")] == [
        (made["effect"], "prep_stage2_start", "29.4.5")]
    assert game.damage_value(bear) == 4


# -- 8. counted durations -----------------------------------------------------------------------

SURGE = spell("surge", [{"do": "modify", "stat": "damage", "by": 2,
                         "target": "chosen_own_creature", "duration": "turns", "turns": 3}])


def _surged(rulings: Rulings | None = None) -> tuple[Any, Any, list[int]]:
    """Text 8a: "3 körön át +2 sebzést kap", cast in turn 1; the creature's damage at each
    turn's main phase."""
    game = game_with([BEAR, SURGE], agents=[Wants("play tt:surge"), Passer()],
                     **({"rulings": rulings} if rulings else {}))
    bear = game.enter_play(0, cid("bear"), active=True)
    game.players[0].hand.append(cid("surge"))
    game.players[0].vp = 5
    seen = []
    game.log.subscribe(lambda e: seen.append(game.damage_value(bear))
                       if e["hook"] == "combat_phase" else None, kinds=["step_started"])
    for _ in range(6):
        play_turn(game)
    return game, bear, seen


def test_41_4_counted_turns_end_in_end_stage_4_of_their_last_turn():
    game, _, seen = _surged()
    assert seen == [4, 4, 4, 2, 2, 2]  # turns 1, 2 and 3 - both players' turns count
    [started] = game.log.of_kind("effect_started")
    assert (started["duration"], started["ends_turn"]) == ("turns", 3)
    [ended] = game.log.of_kind("effect_ended")
    assert (ended.turn, ended.step, ended["rule"]) == (3, "end_stage4", "41.4")


def test_D_counted_turns_own_counts_only_the_controllers_turns():
    game, _, seen = _surged(Rulings(counted_turns="own"))
    assert seen == [4, 4, 4, 4, 4, 2]  # his turns 1, 3 and 5
    [ended] = game.log.of_kind("effect_ended")
    assert (ended.turn, ended.step) == (5, "end_stage4")


SHELL = spell("shell", [{"do": "modify", "stat": "hp", "by": 1, "target": "own_creatures",
                         "duration": "until_own_preparation"}], instant=True)


@pytest.mark.parametrize("caster, ends_in_turn", [(0, 3), (1, 2)])
def test_29_4_4_until_own_preparation_ends_at_the_controllers_next_stage_2(caster,
                                                                             ends_in_turn):
    """Text 8b: "A következő saját előkészítő fázisodig ...": cast in turn 1 (player 0's),
    by player 0 it lasts through player 1's turn 2; by player 1, until his turn 2."""
    agents = [Passer(), Passer()]
    agents[caster] = Wants("play tt:shell")
    game = game_with([BEAR, SHELL], agents=agents)
    game.enter_play(caster, cid("bear"), active=True)
    game.players[caster].hand.append(cid("shell"))
    game.players[caster].vp = 5
    for _ in range(3):
        play_turn(game)
    [started] = game.log.of_kind("effect_started")
    assert started.turn == 1 and started["duration"] == "until_own_preparation"
    [ended] = game.log.of_kind("effect_ended")
    assert (ended.turn, ended.step, ended["rule"]) == (ends_in_turn, "prep_stage2_start",
                                                      "29.4.4")


# -- 9. conditions -------------------------------------------------------------------------------

#: Text 9a: "Ha legalább 5 VP-d van, +1 sebzést kap."
RICH = creature("rich", 2, 3, abilities=[static(
    {"do": "modify", "stat": "damage", "by": 1, "target": "self", "duration": "permanent"},
    condition={"of": "own_vp", "at_least": 5})])
#: Text 9b, automatic: "Ha az ellenfélnek több lénye van, mint neked, kapsz 1 VP-t." at the
#: beginning of the turn.
UNDERDOG = creature("underdog", 1, 3, abilities=[{
    "kind": "automatic", "timing": "prep_stage2_start",
    "condition": {"of": "opponent_creatures", "more_than": "own_creatures"},
    "effect": {"do": "gain_vp", "amount": 1}}])
#: Text 9b, activated, checked with its cost: "Ha az ellenfélnek több lénye van, mint neked:
#: 1 VP: húzol egy lapot."
SCOUT = creature("scout", 1, 3, abilities=[{
    "kind": "activated", "timing": "main_phase", "cost": {"vp": 1}, "limit": "once_per_turn",
    "condition": {"of": "opponent_creatures", "more_than": "own_creatures"},
    "effect": {"do": "draw", "count": 1}}])


#: "Ha az ellenfélnek több lénye van, mint neked, +2 Ép" (a static that reads the whole board).
BRAVE = creature("brave", 1, 2, abilities=[static(
    {"do": "modify", "stat": "hp", "by": 2, "target": "self", "duration": "permanent"},
    condition={"of": "opponent_creatures", "more_than": "own_creatures"})])


def test_D_conditions_a_static_follows_the_state_it_reads():
    game = game_with([RICH])
    rich = game.enter_play(0, cid("rich"), active=True)
    assert game.damage_value(rich) == 2
    game.gain_vp(0, 5)
    assert game.damage_value(rich) == 3
    game.lose_vp(0, 1)
    assert game.damage_value(rich) == 2
    game.gain_vp(1, 9)  # the opponent's VP is not "yours"
    assert game.damage_value(rich) == 2


#: "Ha legfeljebb 1 szörnykomponensed van, +1 sebzés"; and a creature that costs 2 components.
THRIFTY = creature("thrifty", 1, 3, abilities=[static(
    {"do": "modify", "stat": "damage", "by": 1, "target": "self", "duration": "permanent"},
    condition={"of": "own_components", "at_most": 1})])
PRICEY = creature("pricey", 1, 1, cost={"vp": 0, "components": 2})


def test_D_conditions_a_static_follows_the_components_paid_to_play_a_card():
    """A card's components cost is paid within its ``card_played`` (no ``components_paid``
    is logged): a condition reading components is read again after it."""
    game = game_with([THRIFTY, PRICEY])
    thrifty = game.enter_play(0, cid("thrifty"), active=True)
    game.gain_components(0, 3)
    assert game.damage_value(thrifty) == 1
    game.players[0].hand.append(cid("pricey"))
    run_until(game, "main_phase")  # a step he may play cards in (8.1)
    game.play_card(0, cid("pricey"))
    assert game.players[0].components == 1
    assert game.damage_value(thrifty) == 2


def test_D_conditions_a_static_that_lapses_kills_at_the_next_hp_check():
    # "Ha az ellenfélnek több lénye van, mint neked, +2 Ép": with 1 damage on 2 base Ép, it dies
    # when the opponent's extra creature does (D-settled-check: the same check).
    game = game_with([BRAVE, BEAR])
    mine = game.enter_play(0, cid("brave"), active=True)
    game.enter_play(1, cid("bear"), active=True)
    other = game.enter_play(1, cid("bear"), active=True)
    game.damage(mine, 2)
    assert game.hp(mine) == 2
    game.damage(other, 3)
    game.check_hp("D-hp-check")
    assert [e["uid"] for e in game.log.of_kind("died")] == [other.uid, mine.uid]


#: "Ha legalább annyi VP-d van, mint az ellenfelednek, +2 Ép" and, at the beginning of the
#: turn, "elveszítesz 20 VP-t": at that moment his VP goes below 0 and is clamped to 0 when the
#: moment ends (D-moment-nets), with no event - the condition holds again.
EVEN = creature("even", 1, 1, abilities=[
    static({"do": "modify", "stat": "hp", "by": 2, "target": "self", "duration": "permanent"},
           condition={"of": "own_vp", "at_least": "opponent_vp"}),
    {"kind": "automatic", "timing": "prep_stage2_start",
     "effect": {"do": "lose_vp", "amount": 20, "target": "controller"}}])


def test_D_conditions_are_read_again_after_a_moments_clamps():
    game = game_with([EVEN])
    even = game.enter_play(0, cid("even"), active=True)
    game.damage(even, 2)  # alive only while the static holds: 3 Ép, 2 damage
    run_until(game, "prep_stage2_start", inclusive=True)
    [lost] = game.log.of_kind("vp_lost")
    assert (lost.step, lost["amount"]) == ("prep_stage2_start", 20)
    assert (game.players[0].vp, game.players[1].vp) == (0, 0)
    # the Ép check after the moment sees the condition as it holds after the clamp
    assert not game.log.of_kind("died")
    assert (game.hp(even), game.max_hp(even)) == (1, 3)


@pytest.mark.parametrize("theirs, fires", [(2, True), (1, False), (0, False)])
def test_D_conditions_an_automatic_ability_fires_only_while_it_holds(theirs, fires):
    game = game_with([UNDERDOG, BEAR])
    game.enter_play(0, cid("underdog"), active=True)
    for _ in range(theirs):
        game.enter_play(1, cid("bear"), active=True)
    run_until(game, "prep_stage2")
    assert bool(of_card(game, "resolving", "underdog")) is fires
    regenerated = game.log.of_kind("vp_regenerated")[0]["amount"]
    assert game.players[0].vp == regenerated + (1 if fires else 0)


@pytest.mark.parametrize("theirs, offered", [(2, True), (1, False)])
def test_D_conditions_an_activated_ability_is_offered_only_while_it_holds(theirs, offered):
    game = game_with([SCOUT, BEAR], agents=[Wants("use tt:scout#1:0"), Passer()])
    game.enter_play(0, cid("scout"), active=True)
    for _ in range(theirs):
        game.enter_play(1, cid("bear"), active=True)
    game.players[0].vp = 5
    run_until(game, "combat_phase")
    labels = {label for d in game.agents[0].seen if d.kind == "action" for label in d.labels()}
    assert ("use tt:scout#1:0" in labels) is offered
    assert bool(of_card(game, "resolving", "scout")) is offered
    regenerated = game.log.of_kind("vp_regenerated")[0]["amount"]
    assert game.players[0].vp == 5 + regenerated - (1 if offered else 0)


# The invariant: whatever happens, the derived sums equal a derivation from scratch.

def _from_scratch(game: Any) -> tuple[dict[int, dict[str, int]], list[tuple[int, str]]]:
    mods: dict[int, dict[str, int]] = {uid: {} for uid in game.permanents}
    preventions = []
    for source in game.permanents.values():
        for ability in source.card.abilities:
            if ability.kind != "static" or (ability.condition is not None and not holds(
                    game, ability.condition, source.controller)):
                continue
            for effect in ability.effects:
                if effect.do == "prevent":
                    preventions.append((source.uid, effect.whose))
                    continue
                for perm in game.permanents.values():
                    if static_applies(source, effect.target, perm):
                        mods[perm.uid][effect.stat] = mods[perm.uid].get(effect.stat, 0) \
                            + effect.by
    for effect in game.effects:
        if effect.in_force:
            for uid in effect.targets:
                if uid in mods:
                    mods[uid][effect.stat] = mods[uid].get(effect.stat, 0) + effect.amount
    return ({uid: {k: v for k, v in m.items() if v} for uid, m in mods.items()},
            sorted(preventions))


def _cached(game: Any) -> tuple[dict[int, dict[str, int]], list[tuple[int, str]]]:
    return ({uid: {k: v for k, v in p.mods.items() if v} for uid, p in game.permanents.items()},
            sorted((s.uid, p.whose) for s, p in game.preventions))


GENERAL = creature("general", 1, 4, abilities=[
    static({"do": "modify", "stat": "damage", "by": 1, "target": "own_creatures",
            "duration": "permanent"}, condition={"of": "own_vp", "at_least": 3}),
    static({"do": "prevent"}, condition={"of": "opponent_creatures", "more_than":
                                         "own_creatures"}),
    static({"do": "modify", "stat": "hp", "by": -1, "target": "opponent_creatures",
            "duration": "permanent"}, condition={"of": "own_hand", "fewer_than": 2}),
    static({"do": "modify", "stat": "hp", "by": 1, "target": "self", "duration": "permanent"},
           condition={"of": "opponent_vp", "more_than": "own_vp"})])

OPS = st.lists(st.tuples(st.sampled_from(["gain_vp", "lose_vp", "enter", "destroy", "effect",
                                          "dispel", "draw", "moment_pay"]),
                         st.integers(0, 1), st.integers(1, 4)), max_size=25)


@settings(max_examples=60, deadline=None)
@given(ops=OPS)
def test_D_conditions_derived_values_equal_a_derivation_from_scratch(ops):
    game = game_with([GENERAL, BEAR], decks=([cid("bear")] * 30, [cid("bear")] * 30))
    game.enter_play(0, cid("general"), active=True)
    game.enter_play(1, cid("general"), active=True)
    for op, player, n in ops:
        if op == "gain_vp":
            game.gain_vp(player, n)
        elif op == "lose_vp":
            game.lose_vp(player, n)
        elif op == "enter":
            game.enter_play(player, cid("general" if n == 4 else "bear"), active=True)
        elif op == "destroy" and game.creatures(player):
            game.destroy(game.creatures(player)[n % len(game.creatures(player))], "destroyed")
        elif op == "effect" and game.creatures(player):
            game.add_effect("damage", n, "until_end_of_turn", targets=game.creatures(player))
        elif op == "dispel" and game.creatures(player):
            game.dispel("D-dispel", on=game.creatures(player)[0])
        elif op == "draw":
            game.draw(player, n)
        elif op == "moment_pay":  # a moment nets out and clamps VP without a vp event
            with game.moment():
                game.lose_vp(player, n + 3)
        assert _cached(game) == _from_scratch(game), op


# -- 10. a chosen player --------------------------------------------------------------------------

ORACLE = spell("oracle", [{"do": "draw", "count": 1, "target": "chosen_player"}])


@pytest.mark.parametrize("chosen", [0, 1])
def test_D_chosen_player_the_controller_chooses_who_draws(chosen):
    """Text 10: "Válassz egy játékost: húz egy lapot." """
    label = f"player {chosen} (P{chosen + 1})"
    chooser = Wants("play tt:oracle", label)
    game = game_with([ORACLE], agents=[chooser, Passer()])
    game.players[0].hand.append(cid("oracle"))
    game.players[0].vp = 3
    run_until(game, "combat_phase")
    [decision] = [e for e in game.log.of_kind("decision") if e["decision"] == "target_player"]
    assert (decision["player"], decision["choice"], decision["options"]) == (0, label, 2)
    drawn = [e for e in game.log.of_kind("card_drawn") if e["source"] == cid("oracle")]
    assert [e["player"] for e in drawn] == [chosen]
    # what the agent was handed: each option stands for a player's index, not his state (his
    # hand and deck)
    [asked] = [d for d in chooser.seen if d.kind == "target_player"]
    assert [o.value for o in asked.options] == [0, 1]


# -- the card data itself -----------------------------------------------------------------------

@pytest.mark.parametrize("ability, field, message", [
    ({"kind": "static", "condition": {"of": "own_vp"},
      "effect": {"do": "modify", "stat": "damage", "by": 1, "target": "self",
                 "duration": "permanent"}},
     "abilities[0].condition", "exactly one way"),
    ({"kind": "static", "condition": {"of": "own_mana", "at_least": 1},
      "effect": {"do": "prevent"}}, "abilities[0].condition.of", "own_vp"),
    ({"kind": "automatic", "timing": "prep_stage2",
      "effect": {"do": "modify", "stat": "damage", "by": 1, "target": "self",
                 "duration": "turns"}},
     "abilities[0].effect", "turns = N"),
    ({"kind": "automatic", "timing": "prep_stage2", "effect": {"do": "end_effects"}},
     "abilities[0].effect", "needs a target, durations"),
    ({"kind": "automatic", "timing": "prep_stage2", "effect": {"do": "prevent"}},
     "abilities[0].effect", "'prevent'"),
    # D-static-scope: a static reaches a standing group; nobody chooses while it is in force
    ({"kind": "static", "effect": {"do": "modify", "stat": "hp", "by": 1,
                                   "target": "chosen_creature", "duration": "permanent"}},
     "abilities[0]", "cannot target chosen_creature"),
])
def test_bad_card_language_names_the_card_and_the_field(ability, field, message):
    with pytest.raises(CardDataError) as info:
        parse_card_data("tt", "cards/bad.toml", {"cards": [creature("bad", abilities=[ability])]})
    text = str(info.value)
    assert "tt:bad" in text or "cards[0]" in text, text
    assert field in text and message in text, text


def test_D_conditions_a_loaded_game_reads_its_conditions_on_the_whole_state():
    # Loading puts permanents back one by one: a condition on the opponent's creatures must be
    # read once all are back, not while the first one is.
    game = game_with([BRAVE, BEAR])
    mine = game.enter_play(0, cid("brave"), active=True)
    game.enter_play(1, cid("bear"), active=True)
    game.enter_play(1, cid("bear"), active=True)
    assert game.max_hp(mine) == 4
    loaded = load_game(game.engine, json.dumps(save_game(game)), agents=game.agents)
    assert loaded.max_hp(loaded.permanents[mine.uid]) == 4
    assert loaded.snapshot() == game.snapshot()


def test_the_new_fields_read_in_hkk_cards_and_the_schema():
    defs = {d["id"]: d for d in [RICH, SURGE, CLEANSE, ORACLE, HUSHER]}
    parsed = {c.id: c for c in parse_card_data("tt", "cards/x.toml", {"cards": list(defs.values())})}
    text = "\n".join(plain(line) for card in parsed.values() for line in card_lines(card))
    assert "0. static: if own_vp at least 5: modify damage +1 self permanent" in text
    assert "effect: modify damage +2 chosen_own_creature for 3 turns" in text
    assert "effect: end_effects chosen_creature" in text
    assert "effect: draw chosen_player 1" in text
    assert "prevent whose=opponent abilities=activated phase=preparation" in text
    schema = json.dumps(card_file_schema())
    for name in ("Condition", "EndEffects", "Prevent", "until_own_preparation", "chosen_player",
                 "more_than", "Only while this holds"):
        assert name in schema, name


def test_D_dispel_of_several_targets_and_of_a_player_is_one_moment():
    # "Lényeidről és rólad minden hatás megszűnik": both creatures' shared effect ends whole,
    # once; the player's VP-regeneration effect ends with it; the opponent's stays.
    purge = spell("purge", [{"do": "end_effects", "target": "own_creatures"},
                            {"do": "end_effects", "target": "controller"}])
    game = game_with([BEAR, purge], agents=[Wants("play tt:purge"), Passer()])
    x = game.enter_play(0, cid("bear"), active=True)
    y = game.enter_play(0, cid("bear"), active=True)
    shared = game.add_effect("damage", 1, "until_end_of_turn", targets=[x, y])
    mine = game.add_effect("vp_regen", 1, "permanent", player=0)
    theirs = game.add_effect("vp_regen", 1, "permanent", player=1)
    game.players[0].hand.append(cid("purge"))
    game.players[0].vp = 5
    run_until(game, "combat_phase")
    ended = [(e["effect"], e["targets"], e.get("partial")) for e in
             game.log.of_kind("effect_ended")]
    assert ended == [(shared.uid, [x.uid, y.uid], None), (mine.uid, [], None)]
    assert [e.uid for e in game.effects] == [theirs.uid]
