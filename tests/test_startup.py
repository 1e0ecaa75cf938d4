"""Start-up (issue 11): ``import hkk`` loads nothing until a public name is used, and building
an engine does not import what only playing or saving needs.  Each check runs in a fresh
interpreter, since this test process has imported everything long ago.  No timings here: the
figures are printed by ``benchmarks/bench_startup.py``."""

import ast
import subprocess
import sys
from pathlib import Path

import hkk

INIT = Path(hkk.__file__)
STUB = INIT.with_suffix(".pyi")  # what type checkers read of hkk (issue 20 item 2)


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True).stdout


def test_import_hkk_loads_no_submodule_nor_pydantic() -> None:
    loaded = _run("import sys, hkk; print(' '.join(sorted(m for m in sys.modules "
                  "if m.startswith(('hkk.', 'pydantic', 'pluggy')))))").split()
    assert loaded == []


def test_public_name_is_imported_on_first_use_and_kept() -> None:
    out = _run("import sys, hkk\n"
               "print('hkk._engine' in sys.modules, 'Engine' in vars(hkk))\n"
               "from hkk import Engine\n"
               "from hkk._engine import Engine as Defined\n"
               "print(Engine is Defined, vars(hkk)['Engine'] is Defined)\n"
               "try:\n    hkk.NoSuchName\nexcept AttributeError as e:\n    print(e)\n")
    assert out.splitlines() == ["False False", "True True",
                                "module 'hkk' has no attribute 'NoSuchName'"]


def test_star_import_gives_every_public_name() -> None:
    namespace: dict[str, object] = {}
    exec("from hkk import *", namespace)
    assert sorted(set(namespace) - {"__builtins__"}) == sorted(hkk.__all__)


def test_type_checking_imports_match_the_runtime_table() -> None:
    """The imports type checkers see (``hkk/__init__.pyi``) and the table ``__getattr__`` uses
    name the same modules, and both export ``__all__``."""
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    seen: dict[str, str] = {}
    exported: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            assert node.module and node.module.startswith("hkk.")
            seen.update({alias.name: node.module for alias in node.names})
        elif isinstance(node, ast.Assign):
            assert [t.id for t in node.targets if isinstance(t, ast.Name)] == ["__all__"]
            exported = ast.literal_eval(node.value)
        else:
            assert isinstance(node, ast.Expr), f"the stub holds only imports: {ast.dump(node)}"
    assert seen == hkk._PUBLIC
    assert sorted(seen) == sorted(hkk.__all__) == sorted(exported)


def test_engine_imports_runner_and_saving_on_first_use() -> None:
    out = _run("import sys, hkk\n"
               "engine = hkk.Engine.installed()\n"
               "print('hkk._runner' in sys.modules, 'hkk._saving' in sys.modules)\n"
               "game = engine.play(seed=3)\n"
               "print('hkk._runner' in sys.modules, 'hkk._saving' in sys.modules)\n"
               "saved = game.save()\n"
               "print('hkk._saving' in sys.modules, saved.keys() == hkk.save_game(game).keys())\n"
               "print(type(vars(hkk.Engine)['play_game']).__name__)\n")
    assert out.splitlines() == ["False False", "True False", "True True", "staticmethod"]


def test_lazy_engine_methods_play_the_same_game() -> None:
    """The runner reached through the engine's lazily imported method is the runner itself."""
    from hkk._runner import play_game

    engine = hkk.Engine.installed(allow=["alap"])
    assert engine.play_game is play_game
    first = engine.play(seed=5)
    second = engine.new_game(seed=5)
    play_game(second)
    assert [e.kind for e in first.log] == [e.kind for e in second.log]
    assert first.winner == second.winner
