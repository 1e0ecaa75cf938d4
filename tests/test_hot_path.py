"""The game loop's shortcuts (issue 11, hot path) change nothing a game, a plugin, a hook
observer or a listener can see: implementations are left uncalled only where they promised to
contribute nothing and nobody observes, per-game caches stay with their game, and a log level's
skipped bookkeeping still reaches whoever subscribes to it."""

from __future__ import annotations

from typing import Any

import pytest

from hkk import Engine
from hkk._hookcall import only_in_steps
from hkk._hookspecs import TURN_HOOKS, hookimpl
from hkk._runner import advance, play_turn

from helpers import Passer, cid, creature, game_with, run_until, spell

DECKS = ["alap:tuz", "alap:viz"]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.installed(allow=["alap"])


class MainPhaseOnly:
    """Implements every turn hook, promising items only in the main phase; records each call."""

    def __init__(self) -> None:
        self.called: list[str] = []

    @hookimpl
    def prep_stage1(self, game: Any) -> None:  # unmarked: called wherever its hook is
        self.called.append("unmarked")


def _marked(hook: str) -> Any:
    @only_in_steps(lambda step, hook: step is not None and step.hook == "main_phase")
    def impl(self: MainPhaseOnly, game: Any) -> None:
        self.called.append(game.step.hook)
    impl.__name__ = hook
    return hookimpl(specname=hook)(impl)


for _hook in TURN_HOOKS:
    if _hook != "prep_stage1":
        setattr(MainPhaseOnly, _hook, _marked(_hook))


def test_hot_path_a_marked_implementation_is_left_out_where_it_promised_nothing() -> None:
    plugin = MainPhaseOnly()
    game = game_with(plugins=[plugin], agents=[Passer(), Passer()])
    play_turn(game)
    assert "main_phase" in plugin.called and "unmarked" in plugin.called
    assert set(plugin.called) == {"main_phase", "unmarked"}


def test_hot_path_monitoring_sees_every_steps_hook_call_with_all_its_implementations() -> None:
    plugin = MainPhaseOnly()
    game = game_with(plugins=[plugin], agents=[Passer(), Passer()])
    seen: list[tuple[str, list[str]]] = []
    game.engine.pm.add_hookcall_monitoring(
        lambda hook, impls, kwargs: seen.append((hook, [i.plugin_name for i in impls])),
        lambda outcome, hook, impls, kwargs: None)
    play_turn(game)
    # pluggy's monitoring sees each hook call, listing every implementation (the built-in
    # hand play too, outside action steps); the promise still holds behind the seam
    assert {hook for hook, names in seen if "hkk.rules.hand_play" in names} == \
        {s.hook for s in game.turn_steps}
    assert set(plugin.called) == {"main_phase", "unmarked"}


def test_hot_path_observed_and_unobserved_games_log_the_same(engine: Engine) -> None:
    plain = engine.play(DECKS, seed=5)
    observed_engine = Engine.installed(allow=["alap"])
    calls: list[str] = []
    observed_engine.pm.add_hookcall_monitoring(lambda hook, impls, kwargs: calls.append(hook),
                                               lambda outcome, hook, impls, kwargs: None)
    observed = observed_engine.play(DECKS, seed=5)
    assert calls and observed.log.as_dicts() == plain.log.as_dicts()


def test_hot_path_games_advanced_in_turn_log_as_if_played_alone(engine: Engine) -> None:
    """Per-game caches (hook plans, guard-post items, offered options) never cross games:
    two games advanced step by step in turn give the logs each gives alone."""
    alone = [engine.play(DECKS, seed=seed).log.as_dicts() for seed in (3, 4)]
    games = [engine.new_game(DECKS, seed=seed) for seed in (3, 4)]
    going = [True, True]
    while any(going):
        for i, game in enumerate(games):
            if going[i]:
                going[i] = advance(game)
    assert [game.log.as_dicts() for game in games] == alone


@pytest.mark.parametrize("level", ["compact", "outcome"])
def test_log_levels_a_listener_subscribed_mid_game_hears_the_skipped_bookkeeping(
        engine: Engine, level: str) -> None:
    # and the game events nobody kept or heard so far (the outcome level only counts them)
    kinds = ("step_started", "decision", "moment", "resolving")
    full = engine.play(DECKS, seed=7)
    game = engine.new_game(DECKS, seed=7, log_level=level)
    for _ in range(30):  # into the game: its bookkeeping has been skipped so far
        advance(game)
    start = game.log.emitted
    heard: list[dict[str, Any]] = []
    game.log.subscribe(lambda e: heard.append(e.as_dict()), kinds=kinds)
    game.play()
    assert heard == [e.as_dict() for e in full.log if e.seq >= start and e.kind in kinds]
    assert {e["kind"] for e in heard} == set(kinds)


def test_8_1_what_may_be_played_follows_vp_components_hand_and_side_as_they_change() -> None:
    """Hand play is asked before every action decision and keeps its answers: each of the
    things it depends on, changed alone, changes the answer (D-instants)."""
    pricey = creature("pricey", 3, 3, cost={"vp": 2, "components": 1})
    zap = spell("zap", [{"do": "gain_vp", "amount": 1}], vp=1, instant=True)
    game = game_with([pricey, zap])
    run_until(game, "main_phase")
    me, other = game.players
    me.hand[:] = other.hand[:] = [cid("pricey"), cid("zap")]
    me.vp = other.vp = 2
    me.components = other.components = 0
    assert game.playable(0) == [cid("zap")]
    me.components = 1
    assert game.playable(0) == [cid("pricey"), cid("zap")]
    me.vp = 1
    assert game.playable(0) == [cid("zap")]
    me.vp = 2
    assert game.playable(0) == [cid("pricey"), cid("zap")]
    other.components = 1  # the same hand, VP and components, on the other side: instants
    assert game.playable(1) == [cid("zap")]
    me.hand.remove(cid("zap"))
    assert game.playable(0) == [cid("pricey")]
