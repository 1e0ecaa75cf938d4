"""The core's seams: the one hook-calling function and its observers, and the built-in rules
plugins, each replaceable by name."""

from __future__ import annotations

import pytest
from helpers import Passer, cid, creature, game_with, item, item_plugin

from hkk import HookError, hookimpl
from hkk.pending import Lethal
from hkk.runner import play_turn


# -- one way to call hooks (hkk.hookcall) ---------------------------------------------------------

def test_hook_observers_see_every_implementations_result():
    plugin = item_plugin("end_stage2", lambda game: [item("tick", lambda g: None)])
    game = game_with(plugins=[plugin], agents=[Passer(), Passer()])
    seen = []
    game.engine.hook_observers.append(lambda hook, plugin, result: seen.append((hook, result)))
    play_turn(game)
    end2 = [r for hook, r in seen if hook == "end_stage2"]
    # collected again after it resolved (29.4.1-style collect → resolve → collect)
    assert [[i.label for i in r] for r in end2 if r] == [["tick"], ["tick"]]
    hooks = {hook for hook, _ in seen}
    assert {"prep_stage2", "main_phase", "end_stage1"} <= hooks


def test_hook_observers_see_lethal_and_custom_effects():
    class Doom:
        @hookimpl
        def lethal(self, game):
            return [(p, Lethal("doom", "121.1")) for p in game.permanents.values()]

        @hookimpl
        def custom_effects(self):
            return {"tt:nothing": lambda game, ctx: None}

    game = game_with([creature("bear")], plugins=[Doom()], agents=[Passer(), Passer()])
    seen = []
    game.engine.hook_observers.append(lambda hook, plugin, result: seen.append(hook))
    game.engine.custom_effects()
    game.enter_play(1, cid("bear"))
    play_turn(game)
    assert "custom_effects" in seen and "lethal" in seen
    assert game.log.of_kind("died")[0]["cause"] == "doom"


def test_a_set_raising_in_lethal_is_a_hook_error_naming_the_hook():
    class Broken:
        @hookimpl
        def lethal(self, game):
            raise SystemExit(3)

    game = game_with(plugins=[Broken()], agents=[Passer(), Passer()])
    with pytest.raises(HookError, match="hook lethal.*SystemExit"):
        play_turn(game)


def test_verify_counts_coverage_without_patching_pluggy(monkeypatch):
    import pluggy

    from hkk import verify as verify_module

    assert "impl.function =" not in open(verify_module.__file__, encoding="utf-8").read()
    seen = []
    original = pluggy.HookImpl.__init__

    def recording(self, *args, **kwargs):
        original(self, *args, **kwargs)
        seen.append(self)

    monkeypatch.setattr(pluggy.HookImpl, "__init__", recording)
    report = verify_module.verify(["mereg"], games=1, seed=0)
    hooks = report.coverage["mereg"].hooks
    assert hooks["lethal"]["calls"] > 0 and hooks["custom_effects"]["calls"] > 0
    assert all(impl.function.__name__ != "counted" for impl in seen)
