"""Properties of the simultaneous moments: the very beginning of preparation stage 2 (expiry of
"until the preparation phase" effects + start of "this turn" effects + beginning-of-turn
automatic effects, 29.4.2) and end stage 4 (defence bonus lost + "until end of turn" / "this turn"
effects end + the stage's items, 41.4).

The outcome must not depend on the order in which permanents entered play, lasting effects were
created or plugins were registered: the same scenario built in two orders gives the same
state after the moment (compared by card names, not by uids, which are timestamps)."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from hkk._cards.interpret import ability_item
from hkk._cards.model import AutomaticAbility
from hkk._pending import Pending
from hkk._runner import run_step, start_turn

from helpers import Passer, cid, creature, game_with, item_plugin, run_until, step_named
from strategies import scenarios


class ByName(Passer):
    """Chooses a target by its card name, never by its timestamp: with it a scenario's outcome
    cannot depend on the order the creatures entered play through the player's choices."""

    def choose(self, game, decision):
        if decision.kind == "target":
            return min(decision.options, key=lambda o: o.value.card.id)
        return super().choose(game, decision)


def _perm(game, card):
    return next((p for p in game.permanents.values() if p.card.id == card), None)


def _plugins(hook, items, order):
    made = []
    for index in order:
        what, controller, target, amount = items[index]
        card = f"tt:c{target}"
        made.append(item_plugin(hook, _maker(index, what, controller, card, amount)))
    return made


def _maker(index, what, controller, card, amount):
    def apply(game, item, bound):
        perm = _perm(game, card)
        if what == "hurt_player":
            game.damage(game.players[controller], amount, source=item.label)
        elif what == "vp":
            game.gain_vp(controller, amount, source=item.label)
        elif perm is None:
            return
        elif what == "damage":
            game.damage(perm, amount, source=item.label)
        elif what == "heal":
            game.heal(perm, amount, source=item.label)
        elif what == "hp_until_eot":
            game.add_effect("hp", amount, "until_end_of_turn", targets=[perm],
                            source=item.label)
        elif what == "destroy":
            game.destroy(perm, "destroyed")
    return lambda game: [Pending(f"item{index}", apply, controller=controller)]


def _moment_abilities(hook, board):
    """A set's plugin giving creatures an automatic effect at ``hook`` (card data may not time
    one on end stage 4, 41.2; plugins may), made as the engine makes card abilities."""
    effects = {spot["card"]: AutomaticAbility(timing="end_stage2", effect=spot["moment_effect"])
               for spot in board if spot.get("moment_effect")}

    def make(game):
        return [ability_item(perm, 0, effects[perm.card.id])
                for perm in game.permanents.values() if perm.card.id in effects]
    return [item_plugin(hook, make)] if effects else []


def build(scenario, hook, entry_order, effect_order, plugin_order):
    (defs, board), effects, items = scenario
    plugins = _plugins(hook, items, plugin_order) + _moment_abilities(hook, board)
    game = game_with(defs, plugins=plugins, agents=[ByName(), ByName()])
    for i in entry_order:
        spot = board[i]
        perm = game.enter_play(spot["controller"], spot["card"], active=True)
        game.damage(perm, spot["damage"])
        game.give_defence_bonus(perm, spot["bonus"])
    # run the turn up to the moment
    run_until(game, hook)
    creation_step = step_named("prep_stage1") if hook == "prep_stage2_start" else game.step
    game.step = creation_step  # "this turn" effects made in stage 1 wait (29.4.5)
    for index in effect_order:
        stat, amount, duration, targets = effects[index]
        perms = [p for p in (_perm(game, f"tt:c{t}") for t in sorted(targets)) if p]
        if perms and amount:
            game.add_effect(stat, amount, duration, targets=perms)
    run_step(game, step_named(hook))
    return game


def outcome(game):
    names = {e["uid"]: e["card"] for e in game.log.of_kind("entered_play")}
    players = [(p.hp, p.vp, p.components, sorted(p.graveyard)) for p in game.players]
    perms = sorted((p.card.id, p.controller, game.hp(p), game.max_hp(p), game.damage_value(p),
                    p.defence_bonus, sorted(p.counters.items()))
                   for p in game.permanents.values())
    effects = sorted((e.stat, e.amount, e.duration.value,
                      tuple(sorted(names[t] for t in e.targets)), e.player, e.in_force)
                     for e in game.effects)
    died = sorted((e["card"], e["components_offered"]) for e in game.log.of_kind("died"))
    ended = sorted((e["stat"], e["rule"]) for e in game.log.of_kind("effect_ended"))
    return {"players": players, "permanents": perms, "effects": effects, "died": died,
            "ended": ended}


def _identity(scenario):
    (_, board), effects, items = scenario
    return range(len(board)), range(len(effects)), range(len(items))


def with_orders(timing):
    """A scenario and the orders to build it in a second time: creatures' entry, lasting
    effects' creation, plugins' registration."""
    def orders(scenario):
        (_, board), effects, items = scenario
        return st.tuples(st.just(scenario), st.tuples(
            st.permutations(range(len(board))), st.permutations(range(len(effects))),
            st.permutations(range(len(items)))))
    return scenarios(timing).flatmap(orders)


def example_scenario(timing, spots, effects=(), items=()):
    """A hand-made scenario, as ``strategies.scenarios`` draws them: ``spots`` are
    (controller, Ép, damage taken, effect of its ability at ``timing`` or None)."""
    defs, board = [], []
    for i, (controller, hp, taken, effect) in enumerate(spots):
        in_data = effect is not None and timing != "end_stage4"
        defs.append(creature(f"c{i}", 1, hp, components=1, abilities=[
            {"kind": "automatic", "timing": timing, "effect": effect}] if in_data else []))
        board.append({"card": cid(f"c{i}"), "controller": controller, "damage": taken,
                      "bonus": 0, "moment_effect": None if in_data else effect})
    return (defs, board), list(effects), list(items)


HEAL_OWN = {"do": "heal", "amount": 1, "target": "own_creatures"}
HURT_ALL = {"do": "damage", "amount": 1, "target": "all_creatures"}
KILL_CHOSEN = {"do": "destroy", "target": "chosen_opponent_creature"}
HURT_CHOSEN = {"do": "damage", "amount": 1, "target": "chosen_opponent_creature"}


def heal_and_hurt(timing):
    """One player's heal and damage at the moment, his healer entering second the second time:
    applied one by one - netting off, or an Ép check between them - healing first heals
    nothing and leaves 1 damage, healing second undoes it (D-moment-nets)."""
    return (example_scenario(timing, [(0, 3, 0, HEAL_OWN), (0, 3, 0, HURT_ALL)]),
            ((1, 0), (), ()))


def kill_and_hurt_chosen(timing):
    """One player's "destroy a chosen creature" and "1 damage to a chosen creature" choose
    (by name) the same one of two, against the state before the moment; bound one by one
    during it, the second choice would see the first applied, and only in one order."""
    return (example_scenario(timing, [(0, 2, 0, KILL_CHOSEN), (0, 2, 0, HURT_CHOSEN),
                                      (1, 2, 0, None), (1, 2, 0, None)]),
            ((1, 0, 2, 3), (), ()))


WEAKEN_OPPONENTS = {"do": "modify", "stat": "damage", "by": -1, "target": "opponent_creatures",
                    "duration": "permanent"}


def weaken_and_kill(timing):
    """Player 1's "-1 damage to the opponent's creatures" and "destroy a chosen opponent
    creature" both reach player 0's only creature, the weakener entering last the second time:
    destroyed at once, the creature would get the lasting effect only if the weakener came
    first (D-moment-leaves)."""
    return (example_scenario(timing, [(1, 1, 0, WEAKEN_OPPONENTS), (0, 1, 0, None),
                                      (1, 1, 0, KILL_CHOSEN)]),
            ((1, 2, 0), (), ()))


def plugin_boost_and_kill(timing):
    """Two plugins' items at the moment: "+1 Ép until end of turn" to a creature and "destroy"
    it, registered in both orders: the creature is in play for both (D-moment-leaves)."""
    return (example_scenario(timing, [(0, 2, 0, None), (1, 2, 0, None)],
                             items=[("hp_until_eot", 0, 0, 1), ("destroy", 1, 0, 1)]),
            ((0, 1), (), (1, 0)))


@given(with_orders("prep_stage2_start"))
@example(heal_and_hurt("prep_stage2_start"))
@example(kill_and_hurt_chosen("prep_stage2_start"))
@example(weaken_and_kill("prep_stage2_start"))
@example(plugin_boost_and_kill("prep_stage2_start"))
@pytest.mark.slow
def test_29_4_2_beginning_of_stage_2_outcome_does_not_depend_on_creation_order(case):
    scenario, orders = case
    reference = outcome(build(scenario, "prep_stage2_start", *_identity(scenario)))
    permuted = outcome(build(scenario, "prep_stage2_start", *orders))
    assert permuted == reference


@given(scenarios("prep_stage2_start"))
def test_29_4_4_and_29_4_5_after_the_moment_no_until_preparation_effect_and_none_waiting(
        scenario):
    game = build(scenario, "prep_stage2_start", *_identity(scenario))
    assert all(e.duration.value != "until_preparation" for e in game.effects)
    assert all(e.in_force for e in game.effects)
    # 29.4.10/29.4.11: after the moment every creature in play has Ép, and no death in stage 2
    # offered a component
    assert all(game.hp(p) > 0 for p in game.creatures())
    assert all(e["components_offered"] == 0 for e in game.log.of_kind("died")
               if e.step == "prep_stage2_start")


@given(with_orders("end_stage4"))
@example(heal_and_hurt("end_stage4"))
@example(kill_and_hurt_chosen("end_stage4"))
@example(weaken_and_kill("end_stage4"))
@example(plugin_boost_and_kill("end_stage4"))
def test_41_4_end_stage_4_outcome_does_not_depend_on_creation_order(case):
    scenario, orders = case

    def run(orders):
        game = build(scenario, "end_stage4", *orders)
        after_moment = outcome(game)
        # the deferred Ép check at the start of the next turn (41.4 supplement)
        game.active = 1
        start_turn(game)
        return after_moment, outcome(game)

    assert run(orders) == run(_identity(scenario))


@pytest.mark.parametrize("hook", ["prep_stage2_start", "end_stage4"])
def test_29_4_2_and_41_4_an_effect_given_to_a_creature_destroyed_at_the_moment_is_order_free(
        hook):
    # Found by the end-stage-4 property (issue 19): the destroy took the creature out of play
    # at once, and the weakener applied after it gave it nothing; applied before it, it did.
    scenario, orders = weaken_and_kill(hook)
    permuted = outcome(build(scenario, hook, *orders))
    assert permuted == outcome(build(scenario, hook, *_identity(scenario)))


def _moment_events(game, hook):
    return [e for e in game.log if e.step == hook]


@pytest.mark.parametrize("hook", ["prep_stage2_start", "end_stage4"])
@pytest.mark.parametrize("entry", [(0, 1, 2, 3), (1, 0, 2, 3)])
def test_D_moment_leaves_a_creature_destroyed_at_the_moment_is_in_play_for_all_its_items(
        hook, entry):
    # "destroy a chosen creature" and "1 damage to a chosen creature" of one moment choose the
    # same one (by name): in either order the damage is dealt to it and the lasting effect
    # reaches it, and it leaves play only when the moment ends (29.4.2: no item sees another
    # as earlier)
    scenario = example_scenario(hook, [(0, 2, 0, KILL_CHOSEN), (0, 2, 0, HURT_CHOSEN),
                                       (1, 2, 0, None), (1, 2, 0, None),
                                       (0, 2, 0, WEAKEN_OPPONENTS)])
    game = build(scenario, hook, entry + (4,), (), ())
    events = _moment_events(game, hook)
    doomed = next(e["uid"] for e in game.log.of_kind("entered_play") if e["card"] == "tt:c2")
    kinds = [(e.kind, e.get("uid")) for e in events]
    died = kinds.index(("died", doomed))
    assert ("damaged", doomed) in kinds[:died]
    assert any(doomed in e["targets"] for e in events if e.kind == "effect_started")
    assert all(kind != "resolving" for kind, _ in kinds[died:])
    assert doomed not in game.permanents


#: An "until end of turn" effect made by an item of the end-stage-4 moment, as a card ability
#: (a set's plugin, 41.2) and as a plugin's own item (D-end4-created).
MADE_AT_THE_MOMENT = example_scenario(
    "end_stage4", [(0, 2, 0, {"do": "modify", "stat": "hp", "by": 1, "target": "own_creatures",
                              "duration": "until_end_of_turn"}), (1, 2, 0, None)],
    items=[("hp_until_eot", 1, 1, 2)])


@given(scenarios("end_stage4"))
@example(MADE_AT_THE_MOMENT)
def test_41_4_after_end_stage_4_no_turn_effect_no_active_bonus_and_no_death(scenario):
    game = build(scenario, "end_stage4", *_identity(scenario))
    # those the moment's own items make end with it too (D-end4-created)
    assert all(e.duration.value not in ("until_end_of_turn", "this_turn") for e in game.effects)
    assert all(p.defence_bonus == 0 for p in game.creatures(game.active))
    # nothing is checked at the moment (41.4 supplement): only an item's own destroy kills
    assert not [e for e in game.log if e.step == "end_stage4" and (
        e.kind == "hp_check" or (e.kind == "died" and e["cause"] == "hp"))]


def test_29_4_2_heal_and_damage_of_one_moment_net_out_whatever_the_timestamps():
    # Found by the property above: applied one after the other, "heal 2" before "1 damage"
    # healed nothing and left 1 damage; after it, it undid the damage.  One moment: they net
    # out, and the extra point of healing is lost: Ép is back to max, not above (D-moment-nets).
    hurt = {"do": "damage", "amount": 1, "target": "all_creatures"}
    mend = {"do": "heal", "amount": 2, "target": "own_creatures"}
    results = []
    for order in ([0, 1], [1, 0]):
        defs = [creature("c0", 1, 3, abilities=[
                    {"kind": "automatic", "timing": "prep_stage2_start", "effect": hurt}]),
                creature("c1", 1, 3, abilities=[
                    {"kind": "automatic", "timing": "prep_stage2_start", "effect": mend}])]
        board = [{"card": f"tt:c{i}", "controller": 0, "damage": 0, "bonus": 0} for i in (0, 1)]
        results.append(outcome(build(((defs, board), [], []), "prep_stage2_start", order, [],
                                     [])))
    assert results[0] == results[1]
    assert [p[2] for p in results[0]["permanents"]] == [3, 3]


#: Card effects whose result would depend on the order of application if a moment applied
#: them one by one with their limits (D-moment-nets): all on one player's creatures, so only
#: their timestamps order them.
LIMITED = [
    {"do": "lose_vp", "amount": 2, "target": "controller"},
    {"do": "gain_vp", "amount": 1, "target": "controller"},
    {"do": "pay_components", "count": 2, "target": "controller"},
    {"do": "gain_components", "count": 1, "target": "controller"},
    {"do": "add_counters", "counter": "x", "count": 1, "target": "own_creatures"},
    {"do": "remove_counters", "counter": "x", "count": 2, "target": "own_creatures"},
    {"do": "give_defence_bonus", "amount": 1, "target": "own_creatures"},
    {"do": "remove_defence_bonus", "target": "own_creatures"},
    {"do": "heal", "amount": 2, "target": "own_creatures"},
    {"do": "damage", "amount": 1, "target": "own_creatures"},
]


def _limited_game(hook, effects, entry_order):
    # at end stage 4 the abilities come from a set's plugin (card data may not time them there)
    in_data = hook != "end_stage4"
    defs = [creature(f"c{i}", 0, 5, abilities=[{"kind": "automatic", "timing": hook,
                                                "effect": effect}] if in_data else [])
            for i, effect in enumerate(effects)]
    board = [{"card": f"tt:c{i}", "moment_effect": None if in_data else effect}
             for i, effect in enumerate(effects)]
    game = game_with(defs, agents=[Passer(), Passer()], plugins=_moment_abilities(hook, board))
    for i in entry_order:
        game.enter_play(0, f"tt:c{i}", active=False)
    game.players[0].vp = game.players[0].components = 1
    run_until(game, hook, inclusive=True)
    return game


@given(st.sampled_from(["prep_stage2_start", "end_stage4"]),
       st.lists(st.sampled_from(LIMITED), min_size=2, max_size=5), st.data())
def test_29_4_2_and_41_4_limited_changes_net_out_whatever_the_timestamps(hook, effects, data):
    order = data.draw(st.permutations(range(len(effects))), label="entry order")
    reference = outcome(_limited_game(hook, effects, range(len(effects))))
    assert outcome(_limited_game(hook, effects, order)) == reference
