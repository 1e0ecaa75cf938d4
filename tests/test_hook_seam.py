"""Hook calls go through pluggy's own seam (``PluginManager._inner_hookexec``, issue 20 item 3):
a set's wrapper implementations (``wrapper=True`` and the old ``hookwrapper=True``) wrap the
others as pluggy documents, pluggy's tracing and monitoring see the engine's calls, and a
deprecated hook warns through pluggy's ``warn_on_impl``/``warn_on_impl_args``."""

from __future__ import annotations

import types
from typing import Any

import pytest

from hkk import Engine, HookError, hookimpl
from hkk._deprecation import HookDeprecationWarning, deprecated, uses
from hkk._hookspecs import hookspec
from hkk._runner import play_turn

from helpers import Passer, game_with, item, item_plugin, resolved


class Wrapping:
    """A set's ``end_stage2`` wrapper (new style): notes when it runs, and adds an item to what
    the other implementations returned."""

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    @hookimpl(wrapper=True)
    def end_stage2(self, game: Any) -> Any:
        self.calls.append("before")
        items = yield
        self.calls.append(f"after {sorted(i.label for found in items for i in found)}")
        return [*items, [item("wrapped", lambda g: None)]]


class OldWrapping:
    """The same as an old-style ``hookwrapper``: it changes the outcome with force_result."""

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    @hookimpl(hookwrapper=True)
    def end_stage2(self, game: Any) -> Any:
        self.calls.append("before")
        outcome = yield
        items = outcome.get_result()
        self.calls.append(f"after {sorted(i.label for found in items for i in found)}")
        outcome.force_result([*items, [item("wrapped", lambda g: None)]])


def _wrapped_game(wrapper: type) -> tuple[Any, list[str]]:
    calls: list[str] = []

    def tick(game: Any) -> list[Any]:
        calls.append("tick")
        return [item("tick", lambda g: None)]

    game = game_with(plugins=[item_plugin("end_stage2", tick), wrapper(calls)],
                     agents=[Passer(), Passer()])
    return game, calls


@pytest.mark.parametrize("wrapper", [Wrapping, OldWrapping], ids=["wrapper", "hookwrapper"])
def test_a_sets_wrapper_hook_is_called_around_the_others_in_a_game(wrapper: type) -> None:
    game, calls = _wrapped_game(wrapper)
    play_turn(game)
    # each collection of end stage 2 (again after each resolution): the wrapper opens, the other
    # implementation runs, the wrapper sees its items and adds its own, which resolves
    assert calls[:3] == ["before", "tick", "after ['tick']"]
    assert set(resolved(game, "end_stage2")) == {"tick", "wrapped"}


def test_an_implementation_raising_inside_a_wrapper_names_its_plugin_and_set() -> None:
    class Broken:
        @hookimpl
        def end_stage2(self, game: Any) -> None:
            raise ZeroDivisionError("division by zero")

    calls: list[str] = []
    game = game_with(agents=[Passer(), Passer()])
    game.engine.pm.register(Wrapping(calls), name="hkk.sets.wrap")
    game.engine.pm.register(Broken(), name="hkk.sets.broken")
    with pytest.raises(HookError) as info:
        play_turn(game)
    assert (info.value.hook, info.value.set_code) == ("end_stage2", "broken")
    assert "ZeroDivisionError: division by zero (in plugin hkk.sets.broken)" in str(info.value)


def test_pluggys_tracing_sees_the_engines_hook_calls() -> None:
    game = game_with(agents=[Passer(), Passer()])
    lines: list[str] = []
    game.engine.pm.trace.root.setwriter(lines.append)
    undo = game.engine.pm.enable_tracing()
    try:
        play_turn(game)
    finally:
        undo()
    traced = "".join(lines)
    for hook in ("turn_started", "vp_regeneration", "main_phase", "decided", "step_ended",
                 "end_stage4"):
        assert f"{hook} [hook]" in traced, hook
    assert "finish main_phase -->" in traced


def test_a_call_through_pm_hook_meets_the_same_boundary() -> None:
    class Broken:
        @hookimpl
        def prep_stage3(self, game: Any) -> None:
            raise ZeroDivisionError("division by zero")

    game = game_with(agents=[Passer(), Passer()])
    game.engine.pm.register(Broken(), name="hkk.sets.broken")
    seen: list[str] = []
    game.engine.pm.add_hookcall_monitoring(lambda hook, impls, kwargs: seen.append(hook),
                                           lambda outcome, hook, impls, kwargs: None)
    with pytest.raises(HookError, match="hook prep_stage3, set broken"):
        game.engine.pm.hook.prep_stage3(game=game)
    assert seen == ["prep_stage3"]


def _specs_with_a_deprecated_hook() -> types.ModuleType:
    specs = types.ModuleType("specs")

    @deprecated("2.0", instead="new_hook")
    @hookspec
    def old_hook(game: Any) -> None:
        """Deprecated as a whole."""

    @deprecated("2.0", argument="step", instead="game.step")
    @hookspec
    def kept_hook(game: Any, step: Any) -> None:
        """Its argument ``step`` is deprecated."""

    specs.old_hook, specs.kept_hook = old_hook, kept_hook
    return specs


def test_a_deprecated_hook_warns_through_pluggy_when_implemented() -> None:
    engine = Engine()
    engine.pm.add_hookspecs(_specs_with_a_deprecated_hook())

    class Old:
        @hookimpl
        def old_hook(self, game: Any) -> None: ...

    class UsesStep:
        @hookimpl
        def kept_hook(self, game: Any, step: Any) -> None: ...

    class WithoutStep:
        @hookimpl
        def kept_hook(self, game: Any) -> None: ...

    with pytest.warns(HookDeprecationWarning, match="hook old_hook is deprecated, removed in "
                      "hook API 2.0; use new_hook") as old:
        engine.pm.register(Old())
    assert old[0].filename == __file__  # pluggy points at the implementation
    with pytest.warns(HookDeprecationWarning, match="argument 'step' of hook kept_hook"):
        engine.pm.register(UsesStep())
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine.pm.register(WithoutStep())  # does not name the argument: no warning


def test_a_sets_uses_are_what_pluggy_warns_about() -> None:
    specs = _specs_with_a_deprecated_hook()
    module = types.ModuleType("setmod")

    @hookimpl
    def kept_hook(game: Any, step: Any = None) -> None: ...

    module.kept_hook = kept_hook
    from hkk._deprecation import deprecations
    assert [u.describe() for u in uses(module, deprecations(specs))] == [
        "setmod.kept_hook: argument 'step' of hook kept_hook is deprecated, removed in hook "
        "API 2.0; use game.step"]
