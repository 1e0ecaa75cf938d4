"""A game calls only the hooks of the sets its decks need (their cards' sets and those they
depend on), so installing a set with Python hooks changes no other game; a game is data-only
when every hook it can call is the engine's own, and ``engine.scope(decks)`` says which set and
hook make it not (what a compiled core decides on)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from hkk import Engine, HkkError
from hkk._errors import plugin_set
from hkk._game_sets import game_sets

pytest.importorskip("hkk_set_mereg")

BASE = ["alap:tuz", "alap:viz"]


def _set_calls(engine: Engine) -> Counter[tuple[str, str]]:
    """(set, hook) -> how many calls the engine's games made of a set's implementation,
    through pluggy's own hook-call monitoring (as hkk verify counts coverage)."""
    calls: Counter[tuple[str, str]] = Counter()

    def before(hook_name: str, impls: Any, kwargs: Any) -> None:
        for impl in impls:
            code = plugin_set(impl.plugin_name)
            if code is not None:
                calls[code, hook_name] += 1

    engine.pm.add_hookcall_monitoring(before, lambda *args: None)
    return calls


def _mereg_deck(engine: Engine) -> str:
    return next(name for name in sorted(engine.decks) if name.startswith("mereg:"))


def test_a_base_deck_game_calls_no_hook_of_an_installed_set_it_does_not_play() -> None:
    engine = Engine.installed()
    assert "mereg" in engine.discovery.sets  # installed, with Python hooks
    calls = _set_calls(engine)
    game = engine.new_game(BASE, seed=1)
    game.play(max_turns=6)
    assert game.turn == 6 and calls == Counter()
    scope = engine.scope(BASE)
    assert scope.sets == ("alap",) and scope.left_out == ("mereg",)
    assert scope.data_only and scope.reason is None


def test_a_game_with_a_sets_cards_calls_its_hooks_and_is_not_data_only() -> None:
    engine = Engine.installed()
    calls = _set_calls(engine)
    decks = [_mereg_deck(engine), "alap:viz"]
    engine.new_game(decks, seed=1).play(max_turns=6)
    assert calls["mereg", "lethal"] > 0
    scope = engine.scope(decks)
    assert scope.sets == ("alap", "mereg") and not scope.data_only
    assert ("hkk.sets.mereg", "lethal") in scope.python_hooks
    assert scope.reason is not None
    assert scope.reason.startswith("set mereg implements the hooks ") and "lethal" in scope.reason


def test_a_base_deck_game_with_a_set_mixed_in_loads_that_set() -> None:
    engine = Engine.installed()
    calls = _set_calls(engine)
    engine.new_game(["alap:tuz+mereg", "alap:viz"], seed=2).play(max_turns=4)
    assert calls["mereg", "lethal"] > 0
    assert not engine.scope(["alap:tuz+mereg", "alap:viz"]).data_only


def test_every_loaded_sets_hooks_in_every_game_when_the_engine_says_all() -> None:
    engine = Engine.installed(set_hooks="all")
    calls = _set_calls(engine)
    engine.new_game(BASE, seed=1).play(max_turns=6)
    assert calls["mereg", "lethal"] > 0
    scope = engine.scope(BASE)
    assert "mereg" in scope.sets and not scope.data_only and "mereg" in str(scope.reason)
    with pytest.raises(HkkError, match="set_hooks='some'"):
        Engine(set_hooks="some")


def test_the_sets_a_game_needs_follow_its_cards_and_their_dependencies() -> None:
    depends = {"b": ["a"], "c": ["b"], "d": []}
    assert game_sets([["c:x", "c:y"], ["d:z"]], depends) == ["a", "b", "c", "d"]
    assert game_sets([["a:x"], ["a:y"]], depends) == ["a"]


def test_a_copy_and_a_save_of_a_game_keep_its_sets() -> None:
    from hkk import advance, load_game

    engine = Engine.installed()
    calls = _set_calls(engine)
    game = engine.new_game(BASE, seed=3)
    while game.turn < 3:
        advance(game)
    copy, again = game.clone(), load_game(engine, game.save())
    copy.play(max_turns=8)
    again.play(max_turns=8)
    assert copy.turn == again.turn == 8 and calls == Counter()


def test_a_built_position_calls_the_hooks_of_the_sets_of_every_card_it_holds() -> None:
    from hkk import build_position

    engine = Engine.installed()
    mereg_card = next(c for c in sorted(engine.cards) if c.startswith("mereg:"))
    game = build_position(engine, [{"hand": [mereg_card]}, {}])  # an alap filler deck
    assert game.players[0].deck[0].startswith("alap:") and len(game.players[0].deck) == 20
    assert "hkk.sets.mereg" in [i.plugin_name for i in game.hook.lethal.get_hookimpls()]
    plain = build_position(engine)
    assert "hkk.sets.mereg" not in [i.plugin_name for i in plain.hook.lethal.get_hookimpls()]
