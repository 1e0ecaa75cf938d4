"""Work that scales with what changed (issue 11): an ordered step keeps what it collected while
nothing it reads changes, and the engine's Ép checks look only at the permanents whose Ép may
have fallen.  Both are shortcuts the rules must not see: every test here plays the situation in
which a shortcut would go wrong, and the property at the end plays whole games both ways."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkk import Engine, hookimpl
from hkk._effects import Duration
from hkk._hookspecs import TURN_HOOKS
from hkk._runner import play_turn, run_step, start_turn

from helpers import Passer, cid, creature, game_with, item, item_plugin, resolved, step_named

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_turns  # noqa: E402  (the benchmark's synthetic board)
import bench_work  # noqa: E402  (counted work: Python lines executed)


def auto(effect: dict, **extra: Any) -> dict:
    return {"kind": "automatic", "timing": "end_stage2", "effect": effect, **extra}


def gain(amount: int) -> dict:
    return auto({"do": "gain_vp", "amount": amount, "target": "controller"})


class CustomEffects:
    """``tt:call`` puts a ``newcomer`` into play under the effect's controller."""

    @hookimpl
    def custom_effects(self) -> dict[str, Any]:
        def call(game: Any, ctx: Any) -> None:
            game.enter_play(ctx.controller, cid("newcomer"), active=True)
        return {"tt:call": call}


def end_stage2(defs: list[dict], setup: Any, plugins: list[Any] = ()) -> Any:
    game = game_with(defs, plugins=list(plugins), agents=[Passer(), Passer()])
    setup(game)
    start_turn(game)
    game.players[0].vp = game.players[1].vp = 0
    run_step(game, step_named("end_stage2"))
    return game


# -- an ordered step keeps its collection only while it cannot change (41.2) ----------------------

def test_41_2_a_creature_put_into_play_mid_step_adds_its_item_to_the_step():
    defs = [creature("caller", abilities=[auto({"do": "custom", "name": "tt:call"})]),
            creature("newcomer", abilities=[gain(1)])]
    game = end_stage2(defs, lambda g: g.enter_play(0, cid("caller"), active=True),
                      [CustomEffects()])
    newcomer = next(p for p in game.creatures() if p.card.id == cid("newcomer"))
    assert resolved(game, "end_stage2") == [f"{cid('caller')}#1:0",
                                            f"{cid('newcomer')}#{newcomer.uid}:0"]
    assert game.players[0].vp == 1


def test_41_2_a_creature_leaving_play_mid_step_takes_its_item_with_it():
    # the stable order puts player 0's slayer first; the victim's item is never resolved
    defs = [creature("slayer", abilities=[auto({"do": "destroy", "target": "opponent_creatures"})]),
            creature("victim", abilities=[gain(1)]), creature("bystander", abilities=[gain(2)])]

    def setup(game: Any) -> None:
        game.enter_play(0, cid("slayer"), active=True)
        game.enter_play(0, cid("bystander"), active=True)
        game.enter_play(1, cid("victim"), active=True)

    game = end_stage2(defs, setup)
    assert [e["card"] for e in game.log.of_kind("died")] == [cid("victim")]
    assert resolved(game, "end_stage2") == [f"{cid('slayer')}#1:0", f"{cid('bystander')}#2:0"]
    assert (game.players[0].vp, game.players[1].vp) == (2, 0)


def test_D_conditions_an_ability_whose_condition_comes_true_mid_step_joins_the_step():
    defs = [creature("giver", abilities=[gain(5)]),
            creature("hopeful", abilities=[auto({"do": "gain_components", "count": 1,
                                                 "target": "controller"},
                                                condition={"of": "own_vp", "at_least": 5})])]

    def setup(game: Any) -> None:
        game.enter_play(0, cid("giver"), active=True)
        game.enter_play(0, cid("hopeful"), active=True)

    game = end_stage2(defs, setup)
    assert resolved(game, "end_stage2") == [f"{cid('giver')}#1:0", f"{cid('hopeful')}#2:0"]
    assert game.players[0].components == 1


def test_41_2_a_plugin_item_that_appears_mid_step_is_collected():
    # a plugin that does not say its items are steady is asked again after every resolution
    late = item_plugin("end_stage2", lambda game: [
        item("late", lambda g: g.gain_components(0, 1), controller=0)]
        if game.players[0].vp >= 1 else [])
    game = end_stage2([creature("ticker", abilities=[gain(1)])],
                      lambda g: g.enter_play(0, cid("ticker"), active=True), [late])
    assert resolved(game, "end_stage2") == [f"{cid('ticker')}#1:0", "late"]
    assert game.players[0].components == 1


class Unsteady:
    """Implements every turn hook without saying it is steady (``steady_in``): every step
    collects again after each resolution; counts its calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []


def _unsteady(hook: str) -> Any:
    def impl(self: Unsteady, game: Any) -> None:
        self.calls.append(hook)
    impl.__name__ = hook
    return hookimpl(specname=hook)(impl)


for _hook in TURN_HOOKS:
    setattr(Unsteady, _hook, _unsteady(_hook))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), per_side=st.integers(1, 12))
def test_41_2_keeping_the_collection_changes_no_game(seed: int, per_side: int) -> None:
    """A plugin whose results may change makes every step collect again after each
    resolution; the games are the same with one and without."""
    logs = []
    plugin = Unsteady()
    for unsteady in (False, True):
        if unsteady:
            bench_turns.ENGINE.pm.register(plugin)
        try:
            game = bench_turns.board(seed, per_side)
            for _ in range(3):
                play_turn(game)
        finally:
            if unsteady:
                bench_turns.ENGINE.pm.unregister(plugin)
        logs.append(game.log.as_dicts())
    assert plugin.calls and logs[0] == logs[1]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_41_2_keeping_the_collection_changes_no_base_set_game(seed: int) -> None:
    engine = Engine.installed(allow=["alap"])
    plain = engine.play(["alap:tuz", "alap:viz"], seed=seed).log.as_dicts()
    engine.pm.register(Unsteady())
    assert engine.play(["alap:tuz", "alap:viz"], seed=seed).log.as_dicts() == plain


# -- the engine's Ép checks look at what changed (29.4.10, D-hp-check) ---------------------------

BANNER = creature("banner", 0, 5, abilities=[{"kind": "static", "effect": {
    "do": "modify", "stat": "hp", "by": 2, "target": "own_creatures", "duration": "permanent"}}])
PROUD = creature("proud", 1, 3, abilities=[{"kind": "static", "effect": {
    "do": "modify", "stat": "hp", "by": 2, "target": "self", "duration": "permanent"},
    "condition": {"of": "own_vp", "at_least": 5}}])
BEAR = creature("bear", 1, 3)


#: name -> (the card that dies, how it is set up at 1 Ép, what then lowers its Ép by 2)
LOWERINGS = {
    "damage": ("bear", lambda g, bear: g.damage(bear, 2), lambda g, bear: g.damage(bear, 1)),
    "effect_ends": ("bear", lambda g, bear: (g.add_effect("hp", 2, "until_end_of_turn", targets=[bear]),
                                          g.damage(bear, 4)),
                    lambda g, bear: g.end_effects({Duration("until_end_of_turn")}, rule="41.4")),
    "effect_dispelled_in_part": (
        "bear", lambda g, bear: (g.add_effect("hp", 2, "until_end_of_turn",
                                              targets=[bear, g.enter_play(1, cid("bear"))]),
                                 g.damage(bear, 4)),
        lambda g, bear: g.dispel("D-dispel", on=bear)),
    "static_source_leaves": (
        "bear", lambda g, bear: (g.enter_play(0, cid("banner")), g.damage(bear, 4)),
        lambda g, bear: g.destroy(next(p for p in g.creatures() if p.card.id == cid("banner")),
                                  "test")),
    "defence_bonus_lost": ("bear", lambda g, bear: (g.give_defence_bonus(bear, 2),
                                                    g.damage(bear, 4)),
                           lambda g, bear: g.remove_defence_bonus(bear, rule="41.4")),
    "condition_lapses": ("proud", lambda g, proud: (g.gain_vp(0, 5), g.damage(proud, 4)),
                         lambda g, proud: g.lose_vp(0, 1)),
}


@pytest.mark.parametrize("how", sorted(LOWERINGS))
def test_D_hp_check_after_an_item_finds_a_creature_whatever_lowered_its_ep(how: str) -> None:
    dies, set_up, lower = LOWERINGS[how]
    state: dict[str, Any] = {}

    lowering = item_plugin("end_stage1", lambda game: [
        item("lower", lambda g: lower(g, state["victim"]), controller=0)])
    game = game_with([BANNER, PROUD, BEAR], plugins=[lowering], agents=[Passer(), Passer()])
    start_turn(game)
    state["victim"] = victim = game.enter_play(0, cid(dies), active=True)
    set_up(game, victim)
    game.start_waiting_effects(rule="29.4.5")
    game.check_hp("test")  # looks at everything; nothing changes from here to the item
    assert game.hp(victim) == 1 and victim.uid in game.permanents
    run_step(game, step_named("end_stage1"))
    died = [e for e in game.log.of_kind("died") if e["uid"] == state["victim"].uid]
    assert [(e.step, e["rule"]) for e in died] == [("end_stage1", "D-hp-check")]


def test_D_hp_check_called_directly_looks_at_every_permanent():
    # a value set behind the engine's back (a test, a plugin) is seen by a check called directly
    game = game_with([BEAR])
    bear = game.enter_play(0, cid("bear"), active=True)
    game.check_hp("test")
    bear.damage_taken = 3
    game.check_hp("test")
    assert bear.uid not in game.permanents


def test_D_hp_check_finds_a_creature_that_enters_play_with_no_ep():
    curse = creature("curse", 0, 5, abilities=[{"kind": "static", "effect": {
        "do": "modify", "stat": "hp", "by": -3, "target": "opponent_creatures",
        "duration": "permanent"}}])
    entering = item_plugin("end_stage1", lambda game: [
        item("enter", lambda g: g.enter_play(0, cid("bear"), active=True), controller=0)])
    game = game_with([curse, BEAR], plugins=[entering], agents=[Passer(), Passer()])
    game.enter_play(1, cid("curse"), active=True)
    start_turn(game)
    game.check_hp("test")
    run_step(game, step_named("end_stage1"))
    died = game.log.of_kind("died")
    assert [(e["card"], e.step, e["rule"]) for e in died] == [
        (cid("bear"), "end_stage1", "D-hp-check")]


def test_41_2_items_sharing_a_key_resolve_once_from_a_plugin_that_says_it_is_steady():
    # "the same item" is its key (hkk.Pending): the first to resolve ends the other's turn
    class Twins:
        def steady_in(self, game: Any, step: Any) -> bool:
            return True

        @hookimpl(specname="end_stage2")
        def twins(self, game: Any) -> list[Any]:
            return [item(label, lambda g: g.gain_vp(0, 1), controller=0, key=("twin",))
                    for label in ("twin a", "twin b")]

    game = end_stage2([creature("ticker", abilities=[gain(1)])],
                      lambda g: g.enter_play(0, cid("ticker"), active=True), [Twins()])
    assert resolved(game, "end_stage2") == ["twin a", f"{cid('ticker')}#1:0"]
    assert game.players[0].vp == 2


# -- the whole turn: its work grows with the board, not faster (issue 11's linear target) ---------

def test_a_settled_turn_executes_as_many_lines_per_creature_at_200_a_side_as_at_10():
    # Counted, not timed: the lines executed are the same on every machine and under any load.
    # Settled: after 4 turns every creature stands at its guard post (the first turns move them
    # one decision at a time, each offering every creature still in reserve).  Before the
    # ordered steps kept their collection and the Ép checks looked at what changed, 200 a side
    # cost 6x as much per creature as 10 a side.
    small = bench_work.board_work(10)
    large = bench_work.board_work(200)
    assert large <= 1.5 * small, (small, large)
