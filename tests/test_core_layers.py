"""The core's seams: the one hook-calling function and its observers, and the built-in rules
plugins, each replaceable by name."""

from __future__ import annotations

import pytest

from hkk import HookError, hookimpl
from hkk._pending import Lethal
from hkk._runner import play_turn

from helpers import Passer, cid, creature, game_with, item, item_plugin

# -- one way to call hooks (hkk._hookcall, pluggy's seam) ------------------------------------------

def monitor(game):
    """What pluggy's hook-call monitoring sees of ``game``'s hook calls: (hook, result)."""
    seen = []
    game.engine.pm.add_hookcall_monitoring(
        lambda hook, impls, kwargs: None,
        lambda outcome, hook, impls, kwargs: seen.append((hook, outcome.get_result())))
    return seen


def test_hook_call_monitoring_sees_every_hook_call_and_its_result():
    plugin = item_plugin("end_stage2", lambda game: [item("tick", lambda g: None)])
    game = game_with(plugins=[plugin], agents=[Passer(), Passer()])
    seen = monitor(game)
    play_turn(game)
    end2 = [r for hook, r in seen if hook == "end_stage2"]
    # collected again after it resolved (29.4.1-style collect → resolve → collect)
    assert [[i.label for items in r for i in items] for r in end2 if r] == [["tick"], ["tick"]]
    hooks = {hook for hook, _ in seen}
    assert {"prep_stage2", "main_phase", "end_stage1"} <= hooks


def test_hook_call_monitoring_sees_lethal_and_custom_effects():
    class Doom:
        @hookimpl
        def lethal(self, game):
            return [(p, Lethal("doom", "121.1")) for p in game.permanents.values()]

        @hookimpl
        def custom_effects(self):
            return {"tt:nothing": lambda game, ctx: None}

    game = game_with([creature("bear")], plugins=[Doom()], agents=[Passer(), Passer()])
    calls = monitor(game)
    game.engine.custom_effects()
    game.enter_play(1, cid("bear"))
    play_turn(game)
    seen = {hook for hook, _ in calls}
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


# -- built-in rules are plugins, replaceable by name (hkk._rules.BUILTIN_RULES) ---------------------

from hkk._rules import BUILTIN_RULES  # noqa: E402
from hkk._rules.hand_play import HandPlay  # noqa: E402

from helpers import Wants, run_until, spell  # noqa: E402

KILL = spell("kill", [{"do": "destroy", "target": "chosen_opponent_creature"}])


def replace(game, name, plugin):
    """Replace a built-in rules plugin of ``game``'s engine before the game calls any hook."""
    assert name in BUILTIN_RULES
    game.engine.pm.unregister(name=name)
    game.engine.pm.register(plugin, name=name)
    game.hook_impls.clear()
    return game


def _main_phase_labels(replacement=None):
    game = game_with([KILL, creature("beast", 1, 2)], agents=[Passer(), Passer()])
    if replacement is not None:
        replace(game, "hkk.rules.hand_play", replacement)
    game.enter_play(1, cid("beast"), active=True)
    game.players[0].vp = 5
    game.players[0].hand.append(cid("kill"))
    run_until(game, "main_phase", inclusive=True)
    return [d.labels() for d in game.agents[0].seen if d.kind == "action"][0], game


def test_hand_play_is_a_replaceable_rules_plugin():
    class NoSpells(HandPlay):
        @hookimpl
        def playable(self, game, player):
            return [c for c in super().playable(game, player) if game.cards[c].kind != "spell"]

    labels, _ = _main_phase_labels()
    assert labels[0] == "play tt:kill"  # the built-in offers it, first
    labels, game = _main_phase_labels(NoSpells())
    assert "play tt:kill" not in labels
    assert game.playable(0) == []  # the game asks the playable hook, which it answers


def test_monster_components_are_a_replaceable_rules_plugin():
    class NoComponents:
        @hookimpl
        def left_play(self, game, permanent, components):
            return 0

    def killed(replacement=None):
        game = game_with([KILL, creature("beast", 1, 2, components=3)],
                         agents=[Wants("play tt:kill", "extract"), Passer()])
        if replacement is not None:
            replace(game, "hkk.rules.components", replacement)
        game.enter_play(1, cid("beast"), active=True)
        game.players[0].hand.append(cid("kill"))
        play_turn(game)
        return game.log.of_kind("died")[0]["components_offered"], game.players[0].components

    assert killed() == (3, 3)
    assert killed(NoComponents()) == (0, 0)


def test_the_game_clock_is_a_replaceable_rules_plugin():
    class ClosesAtTheVeryEnd:
        @hookimpl
        def turn_started(self, game):
            game.clock.start_turn(game)

        @hookimpl
        def step_ended(self, game, step):
            if step.hook == "end_stage4":
                game.clock.close_turn(game, rule="test")

    def closed(replacement=None):
        game = game_with(agents=[Passer(), Passer()])
        if replacement is not None:
            replace(game, "hkk.rules.clock", replacement)
        play_turn(game)
        return [(e.step, e["rule"]) for e in game.log.of_kind("clock_closed")]

    assert closed() == [("main_phase", "41.7")]  # the built-in: passing the turn (41.5)
    assert closed(ClosesAtTheVeryEnd()) == [("end_stage4", "test")]


def test_who_orders_is_a_replaceable_rules_plugin():
    class OpponentOrders:
        @hookimpl
        def orderer(self, game, step):
            return game.opponent(game.active)

    def orderers(replacement=None):
        plugin = item_plugin("end_stage2", lambda g: [item("a", lambda g: None),
                                                      item("b", lambda g: None)])
        game = game_with(plugins=[plugin], agents=[Passer(), Passer()])
        if replacement is not None:
            replace(game, "hkk.rules.orderer", replacement)
        play_turn(game)
        return {e["player"] for e in game.log.of_kind("decision")
                if e["decision"] == "order" and e.step == "end_stage2"}

    assert orderers() == {0}  # D-orderer: the active player
    assert orderers(OpponentOrders()) == {1}


# -- the turn's step data, not phase names, say what differs -----------------------------------

def test_no_code_outside_phases_compares_phase_names():
    import re
    from pathlib import Path

    import hkk

    root = Path(hkk.__file__).parent
    names = re.compile(r"""["'](preparation|main|combat|end)["']""")
    found = [f"{path.relative_to(root)}:{n}" for path in root.rglob("*.py")
             if path.name != "_phases.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if names.search(line)]
    assert found == []


def test_where_a_game_stands_is_never_read_from_python_stack_frames():
    """The turn machine's position is data (docs/FORWARD-MODEL.md): no module of the engine
    reads a frame, a code object or a traceback's frames, but those that name code in a
    message or count an agent's time - never to find or resume a game's position."""
    import re
    from pathlib import Path

    import hkk

    root = Path(hkk.__file__).parent
    frames = re.compile(r"\bf_(locals|back|code|globals|lineno)\b|_getframe|currentframe|"
                        r"inspect\.stack|tb_frame|__code__")
    naming = {"_limits.py",  # the time limit: whose code runs, an agent's thinking time
              "_hookcall.py",  # which plugin's implementation raised (a traceback)
              "_agent_registry.py",  # which agent's choose raised (a traceback)
              "_rules/hand_play.py"}  # one function under each hook's name (its code copied)
    found = {str(path.relative_to(root)) for path in root.rglob("*.py")
             if frames.search(path.read_text(encoding="utf-8"))}
    assert found <= naming, found - naming


def test_a_renamed_preparation_phase_plays_the_same_game():
    """Every rule of 29.4 comes from the steps' flags: renaming the phase changes nothing but
    the name in the log."""
    from dataclasses import replace as replaced

    from hkk import DEFAULT_TURN, Engine

    renamed = tuple(replaced(s, phase="elokeszito") if s.phase == "preparation" else s
                    for s in DEFAULT_TURN)

    def log(turn):
        game = Engine.installed(turn=turn).play(["alap:tuz", "mereg:mocsar"], seed=11)
        return [{k: v for k, v in e.items() if k != "phase"} for e in game.log.as_dicts()]

    assert log(renamed) == log(DEFAULT_TURN)


# -- the layers ------------------------------------------------------------------------------------

def test_the_import_contracts_hold():
    """The engine's layers and what sets may import (pyproject.toml [tool.importlinter]);
    CI runs ``lint-imports`` too."""
    import os
    from pathlib import Path

    cli = pytest.importorskip("importlinter.cli")
    root = Path(__file__).resolve().parent.parent
    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert cli.lint_imports(no_cache=True) == cli.EXIT_STATUS_SUCCESS
    finally:
        os.chdir(cwd)


def test_changes_inside_a_moment_net_out_and_limits_apply_once_at_its_end():
    game = game_with([creature("bear", 1, 3)])
    bear = game.enter_play(0, cid("bear"))
    game.damage(bear, 1)
    game.players[0].vp = 1
    with game.moment():  # 29.4.2: heal first, then damage: the same as damage, then heal
        game.heal(bear, 2)
        game.lose_vp(0, 2)
        game.gain_vp(0, 2)
        game.damage(bear, 1)
    assert game.hp(bear) == 3 and game.players[0].vp == 1 and not game.in_moment
