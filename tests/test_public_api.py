"""The names hkk exports are its promise to set authors and game developers: pin them.

``hkk.__all__`` is the whole public API of the package root (httpx's ``test_exported_members``
is the model): every name in it exists and is documented, every public name of ``hkk`` is in
it, and the list itself is pinned here, so adding or dropping a name is a visible decision.
Sets and pytest-hkk use nothing else: they import only ``hkk``, ``hkk.events`` (the event
classes), ``hkk.testing`` and ``hkk.verify``.
"""

import ast
import inspect
import types
from pathlib import Path

import pytest

import hkk
import hkk.testing

ROOT = Path(__file__).resolve().parents[1]

#: Modules a set or a tool (pytest-hkk) may import.
PUBLIC_MODULES = {"hkk", "hkk.events", "hkk.testing", "hkk.verify"}

EXPORTED = [
    "ACTION", "ACTIVATED", "AUTOMATIC", "Agent", "BUILDINGS", "CardDataError", "CloneError",
    "ConfigError", "DEFAULT_TURN", "Decision", "Duration", "EffectContext", "Engine", "Event", "EventLog",
    "ExtractionOffer", "FirstLegalAgent", "GUARD_POST", "Game", "GameClock", "GameOver", "GameTimeout",
    "HOOK_API_VERSION", "HkkError", "HookError", "IllegalDecision", "Interrupted",
    "InvariantViolation", "ItemKind", "Lethal", "Mode", "Option", "PLAY", "Pending", "Permanent", "Player",
    "PlayerView", "Price", "RESERVE", "RULE", "RandomAgent", "ReplayError", "RuleViolation",
    "Rulings", "SaveError", "ScriptedAgent", "SeatInfo", "SetError", "Step", "StepLoopError", "TURN_HOOKS", "TriggerLoopError",
    "Usage", "WorkLimitError", "__version__", "advance",
    "hookimpl", "load_game", "only_in_steps", "save_game",
    # issue 22: the agents worth simulating, their evaluation, agents by spec
    "GreedyAgent", "MctsAgent", "Weights", "evaluate", "make_agent",
    # the forward-model protocol, the cores that run games, a game's sets, the position builder
    "Core", "CoreError", "FairView", "ForwardModel", "GameLog", "GameScope", "build_position",
]

TESTING_EXPORTED = [
    "BUILDINGS", "EventRenderer", "GUARD_POST", "NUMBERS", "PassingAgent", "RESERVE", "Turn",
    "ZONES", "advance", "build_game", "discover_sets", "filler_card", "plain", "play_game",
    "set_up_by_hand", "verify", "verify_lines",
]


def public_names(module):
    """Names a user can reach as ``module.name``: no underscore, no submodule."""
    return {name for name, value in vars(module).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType)}


@pytest.mark.parametrize("module, pinned", [(hkk, EXPORTED), (hkk.testing, TESTING_EXPORTED)],
                         ids=["hkk", "hkk.testing"])
def test_all_is_pinned_and_defined(module, pinned):
    assert sorted(module.__all__) == sorted(pinned)
    assert len(set(module.__all__)) == len(module.__all__), "a name is listed twice"
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert not missing, f"in {module.__name__}.__all__ but not defined: {missing}"


def test_exported_members():
    """Every public name of ``hkk`` is in ``__all__`` (``hkk.testing`` is a plain module whose
    own imports are not its API: only its ``__all__`` is, and ``import *`` gives just that)."""
    unlisted = sorted(public_names(hkk) - set(hkk.__all__))
    assert not unlisted, f"public names of hkk missing from __all__: {unlisted}"


@pytest.mark.parametrize("qualified", [f"hkk.{n}" for n in EXPORTED]
                         + [f"hkk.testing.{n}" for n in TESTING_EXPORTED])
def test_exported_objects_are_documented(qualified):
    module, name = qualified.rsplit(".", 1)
    obj = getattr(hkk if module == "hkk" else hkk.testing, name)
    if not (inspect.isclass(obj) or inspect.isfunction(obj)):
        return  # constants, documented where they are defined and in REFERENCE.md
    doc = inspect.getdoc(obj) or ""
    # a dataclass without a docstring gets its signature as one: that is no documentation
    assert doc.strip() and not doc.startswith(f"{obj.__name__}("), f"{qualified} has no docstring"


def test_testing_module_is_documented():
    assert "build_game" in hkk.testing.__doc__ and "Turn" in hkk.testing.__doc__


def _hkk_imports(path):
    """``(line, module)`` of every import of hkk or its submodules in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
            if node.module == "hkk":  # from hkk import testing: a module, not a name
                names += [f"hkk.{alias.name}" for alias in node.names
                          if alias.name not in hkk.__all__]
        else:
            continue
        for name in names:
            if name == "hkk" or name.startswith("hkk."):
                yield node.lineno, name


def outside_modules():
    return sorted(p for pattern in ("sets/*/src/**/*.py", "plugins/*/src/**/*.py")
                  for p in ROOT.glob(pattern))


def test_sets_and_plugins_use_only_the_public_api():
    files = outside_modules()
    assert any("mereg" in str(p) for p in files) and any("pytest_hkk" in str(p) for p in files)
    private = [f"{path.relative_to(ROOT)}:{line}: {name}" for path in files
               for line, name in _hkk_imports(path) if name not in PUBLIC_MODULES]
    assert not private, "imports of hkk internals:\n" + "\n".join(private)


def test_the_import_check_sees_private_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import hkk\nfrom hkk import Game, testing, _pending\n"
                      "from hkk._state import Permanent\nimport hkk._runner as r\n"
                      "from hkk.testing import Turn\n")
    assert list(_hkk_imports(sample)) == [(1, "hkk"), (2, "hkk"), (2, "hkk.testing"),
                                          (2, "hkk._pending"), (3, "hkk._state"),
                                          (4, "hkk._runner"), (5, "hkk.testing")]


def test_set_up_by_hand_is_the_supported_way_to_skip_setup():
    engine = hkk.Engine.installed()
    game = hkk.testing.build_game(engine, [{"hand": [], "deck": []}, {}], active=1)
    started = game.log.of_kind("game_started")
    assert [e["built"] for e in started] == [True] and game.active == 1
    hkk.testing.advance(game)  # the first turn starts: no shuffle, no deal, no start decision
    assert len(game.log.of_kind("game_started")) == 1 and not game.log.of_kind("starting_player")
    assert game.players[0].hand == []
    with pytest.raises(ValueError, match="already set up"):
        hkk.testing.set_up_by_hand(game)


def test_turn_hooks_include_the_seed_points():
    hooks = [step.hook for step in hkk.DEFAULT_TURN]
    for name in ("prep_stage2_start", "end_stage1", "end_stage2", "end_stage3", "end_stage4"):
        assert name in hooks
    assert hooks.index("prep_stage2_start") < hooks.index("prep_stage2")
    assert hooks[-4:] == ["end_stage1", "end_stage2", "end_stage3", "end_stage4"]  # 41.0


def test_item_kinds_are_an_enum_that_reads_and_logs_as_its_value():
    import json

    assert [k.value for k in hkk.ItemKind] == ["automatic", "activated", "rule", "action", "play"]
    assert (hkk.AUTOMATIC, hkk.ACTIVATED, hkk.RULE, hkk.ACTION, hkk.PLAY) == tuple(hkk.ItemKind)
    assert hkk.Pending("x", lambda g, i, b: None).kind is hkk.ItemKind.AUTOMATIC
    # events hold plain data: a kind is logged, printed and compared as its value
    assert json.dumps({"item_kind": hkk.RULE}) == '{"item_kind": "rule"}'
    assert f"{hkk.ACTION}" == str(hkk.ACTION) == "action" == hkk.ACTION


def test_implementation_modules_are_private():
    """Only ``hkk``, ``hkk.events``, ``hkk.testing``, ``hkk.verify`` and ``hkk.cli`` (the console script) have
    public names; every other module of hkk starts with ``_`` or lives in a package that does
    (issue 9).  ``hkk.templates`` is package data, not code."""
    package = ROOT / "core" / "hkk"
    modules = set()
    for path in package.rglob("*.py"):
        parts = path.relative_to(package).with_suffix("").parts
        if parts[0] != "templates":
            modules.add(".".join(("hkk",) + parts).removesuffix(".__init__"))
    assert {"hkk", "hkk._game", "hkk._rules", "hkk._rules.combat"} <= modules
    public = {"hkk", "hkk.events", "hkk.testing", "hkk.verify", "hkk.cli"}
    exposed = sorted(name for name in modules - public
                     if not any(part.startswith("_") for part in name.split(".")[1:]))
    assert not exposed, f"public implementation modules (rename them with a leading _): {exposed}"
