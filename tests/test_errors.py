"""Bad input gets a clear error and loses nothing: a hook or a card's Python that raises is
reported with its set, card, ability, hook and rule, and the game state is as it was."""

from __future__ import annotations

import pytest

from hkk import Engine, HookError, Pending, RuleViolation, hookimpl
from hkk._errors import Interrupted
from hkk._events import EventLog
from hkk._runner import run_step

from helpers import cid, creature, game_with, item_plugin, run_until, step_named


class Broken:
    @hookimpl
    def prep_stage2(self, game):
        raise ZeroDivisionError("division by zero")


def test_hook_that_raises_names_set_hook_and_rule_and_changes_nothing():
    game = game_with([creature("bear", 2, 3)])
    game.engine.pm.register(Broken(), name="hkk.sets.broken")
    game.hook_impls.clear()
    game.enter_play(0, cid("bear"), active=True)
    run_until(game, "prep_stage2")
    before = game.snapshot()
    with pytest.raises(HookError) as info:
        run_step(game, step_named("prep_stage2"))
    error = info.value
    assert (error.hook, error.set_code) == ("prep_stage2", "broken")
    assert "29.4.1" in error.rule
    assert str(error).startswith("hook prep_stage2, set broken, rule 29.4")
    assert "ZeroDivisionError: division by zero" in str(error)
    assert game.snapshot() == before


def test_custom_effect_that_raises_names_card_and_ability():
    class Effects:
        @hookimpl
        def custom_effects(self):
            return {"explode": lambda game, ctx: 1 / 0}

    bomb = creature("bomb", abilities=[{"kind": "automatic", "timing": "end_stage2",
                                        "effect": {"do": "custom", "name": "explode"}}])
    game = game_with([bomb], plugins=[Effects()])
    game.enter_play(0, cid("bomb"), active=True)
    run_until(game, "end_stage2")
    with pytest.raises(HookError) as info:
        run_step(game, step_named("end_stage2"))
    error = info.value
    assert (error.card, error.ability, error.set_code) == (cid("bomb"), 0, "tt")
    assert str(error).startswith("hook end_stage2, set tt, card tt:bomb ability 0")


def test_unknown_custom_effect_is_reported_with_its_card():
    odd = creature("odd", abilities=[{"kind": "automatic", "timing": "end_stage2",
                                      "effect": {"do": "custom", "name": "nowhere"}}])
    game = game_with([odd])
    game.enter_play(0, cid("odd"), active=True)
    run_until(game, "end_stage2")
    with pytest.raises(HookError, match="no set offers the custom effect 'nowhere'"):
        run_step(game, step_named("end_stage2"))


def test_29_4_6_rule_violation_names_the_rule_and_changes_nothing():
    attempts = []

    def try_play(game):
        before = game.snapshot()
        with pytest.raises(RuleViolation) as info:
            game.play_card(0, game.players[0].hand[0])
        attempts.append((info.value.rule, game.snapshot() == before))
        return []

    game = game_with([], plugins=[item_plugin("prep_stage2", try_play)])
    game.players[0].hand.append(cid("filler"))
    run_until(game, "prep_stage2", inclusive=True)
    assert attempts and all(a == ("29.4.6", True) for a in attempts)


# -- anything a set's code raises or returns is named (issue 8) ----------------------------------

class Exits:
    @hookimpl
    def end_stage2(self, game):
        raise SystemExit(0)


class CtrlC:
    @hookimpl
    def end_stage2(self, game):
        raise KeyboardInterrupt


def _at_end_stage2(plugin, name="hkk.sets.rossz"):
    game = game_with([creature("bear", 2, 3)])
    game.engine.pm.register(plugin, name=name)
    game.enter_play(0, cid("bear"), active=True)
    run_until(game, "end_stage2")
    return game


def test_sys_exit_in_a_hook_is_a_hook_error_naming_set_and_hook():
    game = _at_end_stage2(Exits())
    with pytest.raises(HookError) as info:
        run_step(game, step_named("end_stage2"))
    assert (info.value.hook, info.value.set_code) == ("end_stage2", "rossz")
    assert "SystemExit: 0" in str(info.value)


def test_a_notification_hook_that_raises_names_set_and_hook():
    class Notified:  # a notification's result is ignored; its exception is not
        @hookimpl
        def step_ended(self, game, step):
            if step.hook == "end_stage2":
                raise ValueError("no")

    game = _at_end_stage2(Notified())
    with pytest.raises(HookError) as info:
        run_step(game, step_named("end_stage2"))
    assert (info.value.hook, info.value.set_code) == ("step_ended", "rossz")
    assert "ValueError: no" in str(info.value)


def test_sys_exit_in_a_custom_effect_names_card_and_ability():
    class Effects:
        @hookimpl
        def custom_effects(self):
            return {"quit": lambda game, ctx: exit(3)}

    quitter = creature("quitter", abilities=[{"kind": "automatic", "timing": "end_stage2",
                                              "effect": {"do": "custom", "name": "quit"}}])
    game = game_with([quitter], plugins=[Effects()])
    game.enter_play(0, cid("quitter"), active=True)
    run_until(game, "end_stage2")
    with pytest.raises(HookError) as info:
        run_step(game, step_named("end_stage2"))
    assert (info.value.card, info.value.ability) == (cid("quitter"), 0)
    assert "SystemExit: 3" in str(info.value)


def test_keyboard_interrupt_in_a_hook_still_stops_but_says_where():
    game = _at_end_stage2(CtrlC())
    with pytest.raises(KeyboardInterrupt) as info:  # still stops the program
        run_step(game, step_named("end_stage2"))
    assert isinstance(info.value, Interrupted)
    assert str(info.value) == "interrupted in turn 1 (end_stage2), hook end_stage2, set rossz"


@pytest.mark.parametrize("returned, expected", [
    ("oops", "returned str 'oops'; expected a list of hkk.Pending items"),
    (Pending("bare", lambda g, i, b: None), "returned Pending"),
    (["not an item"], "returned a list containing str 'not an item'"),
])
def test_a_hook_returning_the_wrong_type_is_named(returned, expected):
    class Wrong:
        @hookimpl
        def end_stage2(self, game):
            return returned

    game = _at_end_stage2(Wrong())
    with pytest.raises(HookError) as info:
        run_step(game, step_named("end_stage2"))
    assert (info.value.hook, info.value.set_code) == ("end_stage2", "rossz")
    assert expected in str(info.value)


def test_lethal_returning_the_wrong_type_is_named():
    class Wrong:
        @hookimpl
        def lethal(self, game):
            return game.creatures()  # permanents without their Lethal reason

    game = game_with([creature("bear", 2, 3)])
    game.engine.pm.register(Wrong(), name="hkk.sets.rossz")
    game.enter_play(0, cid("bear"), active=True)
    with pytest.raises(HookError) as info:
        game.check_hp("29.4.10")
    assert (info.value.hook, info.value.set_code) == ("lethal", "rossz")
    assert "expected a list of (Permanent, hkk.Lethal) pairs" in str(info.value)


def test_custom_effects_returning_the_wrong_type_is_named():
    class Wrong:
        @hookimpl
        def custom_effects(self):
            return ["rossz:poison"]

    with pytest.raises(HookError) as info:
        Engine(pm=_pm_with(Wrong())).custom_effects()
    assert (info.value.hook, info.value.set_code) == ("custom_effects", "rossz")
    assert "expected a dict of effect name (str) to a callable" in str(info.value)


def _pm_with(plugin):
    from hkk._plugin import make_plugin_manager

    pm = make_plugin_manager()
    pm.register(plugin, name="hkk.sets.rossz")
    return pm


# -- every error class in one place, each a named hkk error ------------------------------------

#: Exceptions that are control flow, not errors: they never reach a user.
CONTROL_FLOW = {("hkk._cards.wording", "NoTemplate"), ("hkk._cli_output", "_ReaderGone"),
                ("hkk._forward", "Stop"),
                # a hook asking outside a bind: the hook seam makes it a HookError naming them
                ("hkk._forward", "DecisionOutsideBind"), ("hkk._replay", "_LogEnds"),
                # an HTTP refusal that hkk serve's routes turn into their 4xx answer
                ("hkk._serve_guard", "Refused")}


def test_every_error_class_is_defined_in_hkk_errors_and_its_old_home_still_imports_it():
    import importlib
    import inspect
    import pkgutil

    import hkk
    from hkk import _errors

    outside = []
    for info in pkgutil.walk_packages(hkk.__path__, "hkk."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseException) \
                    and not issubclass(value, Warning) and value.__module__ == info.name \
                    and info.name != "hkk._errors" and (info.name, name) not in CONTROL_FLOW:
                outside.append(f"{info.name}.{name}")
    assert outside == []
    for home, name in [("_saving", "SaveError"), ("_forward", "ReplayError"),
                       ("_clone", "CloneError"), ("_replay", "Divergence"),
                       ("_scaffold", "ScaffoldError"), ("_spoiler", "SpoilerError"),
                       ("_datafile", "DataFileError")]:
        assert getattr(importlib.import_module(f"hkk.{home}"), name) is getattr(_errors, name)


def _build_game(players):
    from hkk.testing import build_game

    build_game(Engine.installed(allow=["alap"]), players)


def _a_duration_of_zero_turns():
    from hkk._continuous import add_effect

    add_effect(game_with([]), "damage", 1, "turns", turns=0)


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda: EventLog("loud"), "BadArgument", "unknown log level 'loud'; the levels are ["),
    (lambda: _build_game([{}]), "BadArgument", "a game has two players, not 1"),
    (lambda: _build_game([{"hnad": []}, {}]), "BadArgument", "player 0: unknown keys ['hnad']"),
    (lambda: _build_game([{"hand": ["nincs:ilyen"]}, {}]), "BadArgument",
     "player 0: unknown cards ['nincs:ilyen']"),
    (_a_duration_of_zero_turns, "BadArgument", "a 'turns' duration needs turns >= 1, not 0"),
])
def test_bad_values_reaching_hkk_are_named_hkk_errors(call, kind, message):
    """Each is an HkkError (the commands print it in one line) and still the ValueError it
    was."""
    from hkk import HkkError

    with pytest.raises(HkkError) as caught:
        call()
    assert type(caught.value).__name__ == kind and message in str(caught.value)
    assert isinstance(caught.value, ValueError)
