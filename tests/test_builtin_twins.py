"""The built-in rules plugins use only what a set may use (issue 20 item 4): every module of
``hkk._rules`` imports nothing of hkk but public names (``hkk``'s ``__all__``, ``hkk.testing``,
the event classes of ``hkk.events``),
and a twin of each - its own source run as a module outside hkk, as a set's would be - replaces
it and plays the golden games with the same logs."""

from __future__ import annotations

import ast
import hashlib
import inspect
import sys
import types
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
import test_golden
import test_verify

import hkk
import hkk.events
import hkk.testing
from hkk import Engine, RuleViolation, hookimpl
from hkk._rules import BUILTIN_RULES

from helpers import Passer, cid, creature, game_with, run_until, spell

fake_set = test_verify.fake_set  # the fixture, shared

RULES = Path(hkk.__file__).parent / "_rules"
MODULES = sorted(f"hkk._rules.{p.stem}" for p in RULES.glob("*.py") if p.stem != "__init__")


def _hkk_imports(module: str) -> list[tuple[str, str | None]]:
    """(module, name) of every import of hkk in the module's source, type-only ones too."""
    tree = ast.parse(inspect.getsource(import_module(module)))
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names if a.name.split(".")[0] == "hkk"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "hkk":
            found += [(node.module or "", a.name) for a in node.names]
    return found


@pytest.mark.parametrize("module", MODULES)
def test_a_builtin_rules_plugin_imports_only_public_names(module: str) -> None:
    public = {"hkk": set(hkk.__all__), "hkk.testing": set(hkk.testing.__all__),
              "hkk.events": set(hkk.events.__all__)
              | {cls.__name__ for cls in hkk.events.KINDS.values()}}
    wrong = [f"{source}.{name}" if name else source for source, name in _hkk_imports(module)
             if source not in public or (name is not None and name not in public[source])]
    assert not wrong, f"{module} imports what a set may not: {wrong}"


def twin(module: str) -> types.ModuleType:
    """The module's source run as a module of its own, outside hkk (like a set's)."""
    name = "twin_" + module.rsplit(".", 1)[1]
    twin_module = types.ModuleType(name)
    sys.modules[name] = twin_module  # dataclasses and typing look their module up
    exec(compile(inspect.getsource(import_module(module)), f"<{name}>", "exec"),
         twin_module.__dict__)
    return twin_module


def twin_rules() -> dict[str, type]:
    """BUILTIN_RULES with every plugin of ``hkk._rules`` replaced by its twin's class."""
    twins = {module: twin(module) for module in MODULES}
    rules = {}
    for name, factory in BUILTIN_RULES.items():
        source = getattr(factory, "__module__", "")
        rules[name] = getattr(twins[source], factory.__name__) if source in twins else factory
    return rules


@pytest.mark.slow
def test_twins_of_the_builtin_rules_play_the_golden_games_alike() -> None:
    rules = twin_rules()
    replaced = {name for name, factory in rules.items() if factory.__module__.startswith("twin_")}
    # every built-in but the card interpreter's (hkk._cards.interpret) has its twin
    assert replaced == set(BUILTIN_RULES) - {"hkk.rules.cards"}
    engine = Engine.installed(allow=["alap", "mereg"], strict=True, rules=rules)
    assert all(type(engine.pm.get_plugin(name)).__module__.startswith("twin_")
               for name in replaced)
    digest = hashlib.sha256()
    for decks in test_golden.PAIRINGS:
        for seed in test_golden.SEEDS:
            game = engine.play(list(decks), seed=seed)
            digest.update(game.log.to_json().encode())
            digest.update(b"\n")
    assert digest.hexdigest() == test_golden.GOLDEN


# -- hand play through the public hook: ``playable`` --------------------------------------------

KILL = spell("kill", [{"do": "destroy", "target": "chosen_opponent_creature"}])


class NoHandPlay:
    """A set's answer to ``playable``: nothing may be played (asked before the built-in)."""

    @hookimpl
    def playable(self, game: Any, player: int) -> list[str]:
        return []


def test_8_1_a_set_answering_playable_decides_what_is_offered_and_played() -> None:
    def main_phase(plugins: list[Any]) -> tuple[list[str], Any]:
        game = game_with([KILL, creature("beast", 1, 2)], plugins=plugins,
                         agents=[Passer(), Passer()])
        game.enter_play(1, cid("beast"), active=True)
        game.players[0].vp = 5
        game.players[0].hand.append(cid("kill"))
        run_until(game, "main_phase", inclusive=True)
        return [d.labels() for d in game.agents[0].seen if d.kind == "action"][0], game

    labels, game = main_phase([])
    assert "play tt:kill" in labels and game.playable(0) == [cid("kill")]
    labels, game = main_phase([NoHandPlay()])  # the built-in stays registered
    assert not [label for label in labels if label.startswith("play ")]
    assert game.playable(0) == []
    with pytest.raises(RuleViolation, match="cannot play tt:kill now"):
        game.play_card(0, cid("kill"))
    assert cid("kill") in game.players[0].hand


PLAYS_BAKA = '''
    from hkk import hookimpl

    @hookimpl
    def playable(game, player):
        return ["{code}:baka"]
'''


def test_an_installed_sets_answer_to_a_firstresult_hook_comes_before_the_builtins(
        fake_set: Any) -> None:
    fake_set("elso", python=PLAYS_BAKA.replace("{code}", "elso"))
    engine = Engine.installed(allow=["elso"])
    game = engine.new_game(["elso:start", "elso:start"])
    # the built-in answers [] between steps; the set, registered after it, is asked first
    assert game.playable(0) == ["elso:baka"]
