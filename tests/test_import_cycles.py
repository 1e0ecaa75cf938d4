"""Import cycles in core/hkk, counting type-only (``if TYPE_CHECKING:``) imports (issue 20 item 2).

There are none.  Where two concepts name each other, the lower one names a Protocol the higher
satisfies: leaves read the game through :class:`hkk._view.GameView` (hooks) or ``GameActions``
(cards' effects), the modules ``Game`` is made of through ``GameState``; the game names what it
uses of its engine (``hkk._game.GameEngine``), a view and a seat what they read of the game
(``hkk._player_view.ViewedGame``, ``hkk._forward.SeatedGame``); the ``hkk`` package imports
nothing (its types are in ``hkk/__init__.pyi``).  pyproject's import-linter contract counts
type-only imports too; the last test here checks it places every module.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import grimp

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

#: Modules that read the game through hkk._view (GameView, GameActions), never naming ``Game``.
VIEW_READERS = (
    "hkk._decisions", "hkk._agents", "hkk._conditions", "hkk._rulings", "hkk._prevention",
    "hkk._clock", "hkk._characteristics",
    "hkk._hookspecs", "hkk._replay", "hkk._cards.quantities", "hkk._cards.targets",
    "hkk._cards.trigger_events", "hkk._cards.verbs.base", "hkk._cards.verbs.damage",
    "hkk._cards.verbs.heal", "hkk._cards.verbs.modify", "hkk._cards.verbs.vp",
)


def cycles(graph: grimp.ImportGraph) -> list[set[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


def test_leaves_do_not_name_game() -> None:
    graph = grimp.build_graph("hkk", include_external_packages=False)
    naming = sorted(m for m in VIEW_READERS
                    if "hkk._game" in graph.find_modules_directly_imported_by(m))
    assert not naming, f"these modules must read the game through hkk._view, not Game: {naming}"


def test_no_import_cycle_counting_type_only_imports() -> None:
    graph = grimp.build_graph("hkk", include_external_packages=False)
    found = cycles(graph)
    assert not found, "import cycles in hkk (type-only imports counted): " + "; ".join(
        " <-> ".join(sorted(component)) for component in found)


def test_the_layer_contract_places_every_module() -> None:
    """Every module of hkk is in one layer of pyproject's import-linter contract (a layer names
    a module or a package; ``hkk`` itself, the facade, and ``hkk._cards``, the package whose
    modules sit in two layers, are no layer's)."""
    contracts = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c for c in contracts["contracts"] if c["name"].startswith("hkk layers"))
    placed = [name for layer in layers["layers"] for name in re.split(r"[:|]", layer)]
    placed = [name.strip() for name in placed]
    graph = grimp.build_graph("hkk", include_external_packages=False)
    unplaced = sorted(m for m in graph.modules if m not in ("hkk", "hkk._cards")
                      and not any(m == p or m.startswith(p + ".") for p in placed))
    assert not unplaced, f"modules in no layer of pyproject's import-linter contract: {unplaced}"
    twice = sorted(m for m in graph.modules
                   if sum(m == p or m.startswith(p + ".") for p in placed) > 1)
    assert not twice, f"modules in two layers: {twice}"
