"""hkk calls hooks through pluggy's own call loop (hkk._hookcall) and reads implementations'
parameters as pluggy does (hkk._deprecation): three names pluggy does not publish.  The
dependency is bounded to the versions tested (pyproject.toml); this test fails, saying which
name moved, on a pluggy where they are not what hkk uses - the signal to adapt before widening
the bound."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
import tomllib
from pathlib import Path

import pluggy
import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]

#: (module, name, the parameters hkk passes it) of pluggy's internals hkk uses.
INTERNALS = [
    ("pluggy._callers", "_multicall", ["hook_name", "hook_impls", "caller_kwargs",
                                       "firstresult"]),
    ("pluggy._hooks", "varnames", ["func"]),
]


def _moved(module: str, name: str) -> str:
    return (f"pluggy {pluggy.__version__} has no {module}.{name} as hkk uses it "
            f"(hkk._hookcall, hkk._deprecation): adapt them to this pluggy, or keep "
            f"pyproject.toml's bound below it")


@pytest.mark.parametrize(("module", "name", "parameters"), INTERNALS)
def test_the_pluggy_internals_hkk_uses_are_where_and_what_it_expects(
        module: str, name: str, parameters: list[str]) -> None:
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        pytest.fail(_moved(module, name))
    assert callable(found), _moved(module, name)
    positional = [p.name for p in inspect.signature(found).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert positional == parameters, _moved(module, name)


def test_a_plugin_managers_call_loop_is_the_one_hkk_replaces() -> None:
    from pluggy._callers import _multicall

    pm = pluggy.PluginManager("hkk")
    assert getattr(pm, "_inner_hookexec", None) is _multicall, \
        _moved("PluginManager", "_inner_hookexec (pluggy's call loop, _multicall)")


def test_varnames_reads_parameters_as_hkk_expects() -> None:
    from pluggy._hooks import varnames

    def impl(game, player, extra=None):  # type: ignore[no-untyped-def]
        return None
    assert varnames(impl) == (("game", "player"), ("extra",)), _moved("pluggy._hooks",
                                                                      "varnames")


def test_the_installed_pluggy_is_within_the_bound_tested() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    bound = next(Requirement(r) for r in project["project"]["dependencies"]
                 if Requirement(r).name == "pluggy")
    assert bound.specifier.contains(Version(pluggy.__version__)), \
        f"pluggy {pluggy.__version__} is outside pyproject.toml's {bound}"
    assert any(spec.operator == "<" for spec in bound.specifier), \
        "pluggy's bound needs an upper end: hkk uses its internals"


@pytest.mark.parametrize(("module", "name"), [(m, n) for m, n, _ in INTERNALS])
def test_a_pluggy_without_them_stops_hkks_import_with_one_clear_line(module: str,
                                                                     name: str) -> None:
    """As if pluggy had moved the name: importing the engine says what is missing and which
    pluggy to install (the one pyproject.toml names), not a bare ImportError deep inside."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    bound = next(r for r in project["project"]["dependencies"] if r.startswith("pluggy"))
    script = f"import {module} as m; del m.{name}; import hkk._engine"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: hkk needs pluggy's _callers._multicall and "
                           "_hooks.varnames, which pluggy ")
    assert f"install the pluggy hkk's requirements name (pip install '{bound}')" in last
