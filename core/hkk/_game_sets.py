"""Which sets a game loads, and whether it is data-only (issue 30 item 4, issue 31 item 3).

A set's hooks are registered once, with the engine's plugin manager; a game calls only the
hooks of the sets its decks need: the sets of its cards and those they depend on
(:func:`game_sets`).  The others are left out of the game's hook relay (:class:`GameHooks`,
``game.hook``), so installing a set with Python hooks (``hkk-set-mereg``) changes no game that
does not play its cards.  ``Engine(set_hooks="all")`` keeps the old reading - every loaded set's
hooks in every game - for whoever means it (``hkk verify`` checks the sets' interactions so).

A game is **data-only** when every hook implementation it can call is the engine's own (the
built-in rules plugins and the card interpreter): a compiled core may run it
(:class:`GameScope`, ``engine.scope(decks)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hkk._errors import plugin_set

if TYPE_CHECKING:
    import pluggy
    from pluggy import HookCaller

__all__ = ["SET_HOOKS", "GameHooks", "GameScope", "game_scope", "game_sets", "hooks_for"]

#: How many sets' hooks a game calls: its decks' ("decks", the default) or every loaded set's.
SET_HOOKS = ("decks", "all")


def game_sets(decks: Iterable[Iterable[str]], depends: Mapping[str, Sequence[str]]) -> list[str]:
    """The sets a game of ``decks`` needs: those of its cards (the code before a card id's
    colon) and every set they depend on (``depends``: a set's code -> the codes it depends on),
    sorted."""
    needed: set[str] = set()
    stack = sorted({card.partition(":")[0] for deck in decks for card in deck})
    while stack:
        code = stack.pop()
        if code not in needed:
            needed.add(code)
            stack.extend(depends.get(code, ()))
    return sorted(needed)


class GameHooks:
    """A game's hook relay (``game.hook``): ``pm.hook`` without the implementations of the
    plugins left out (pluggy's ``subset_hook_caller``), one caller per hook, made on first
    use."""

    def __init__(self, pm: pluggy.PluginManager, left_out: frozenset[str]) -> None:
        self._pm = pm
        self._plugins = [pm.get_plugin(name) for name in sorted(left_out)]

    def __getattr__(self, name: str) -> HookCaller:
        if name.startswith("_"):
            raise AttributeError(name)
        caller = self._pm.subset_hook_caller(name, self._plugins)
        setattr(self, name, caller)
        return caller


def hooks_for(pm: pluggy.PluginManager, left_out: frozenset[str],
              made: dict[frozenset[str], Any]) -> Any:
    """The hook relay of a game whose ``left_out`` plugins are not called: the manager's own
    when none is (the usual case: nothing changes), else a :class:`GameHooks` kept in ``made``
    (one per engine and set of plugins left out)."""
    if not left_out:
        return pm.hook
    hooks = made.get(left_out)
    if hooks is None:
        hooks = made[left_out] = GameHooks(pm, left_out)
    return hooks


@dataclass(frozen=True)
class GameScope:
    """What a game of given decks loads of the engine: ``sets``, the sets whose hooks it calls
    (its decks' sets and their dependencies, or every loaded set under
    ``Engine(set_hooks="all")``), ``left_out``, the loaded sets with hooks it does not call,
    and ``python_hooks``, each (set code or plugin name, hook) whose implementation is not
    the engine's own."""

    sets: tuple[str, ...]
    left_out: tuple[str, ...]
    python_hooks: tuple[tuple[str, str], ...]

    @property
    def data_only(self) -> bool:
        """Whether every hook implementation the game can call is a built-in rules plugin (or
        the card interpreter): what a compiled core may run."""
        return not self.python_hooks

    @property
    def reason(self) -> str | None:
        """Why the game is not data-only, naming the sets and hooks (None: it is)."""
        if not self.python_hooks:
            return None
        by_owner: dict[str, list[str]] = {}
        for owner, hook in self.python_hooks:
            by_owner.setdefault(owner, []).append(hook)
        return "; ".join(
            (f"set {owner[9:]}" if owner.startswith("hkk.sets.") else f"plugin {owner}")
            + f" implements the hook{'s' if len(hooks) > 1 else ''} {', '.join(hooks)} in Python"
            for owner, hooks in by_owner.items())


def game_scope(pm: pluggy.PluginManager, decks: Iterable[Iterable[str]],
               depends: Mapping[str, Sequence[str]], set_hooks: str) -> GameScope:
    """The scope of a game of ``decks`` in an engine whose plugins are ``pm``'s."""
    needed = game_sets(decks, depends)
    left_out: set[str] = set()
    if set_hooks == "decks":
        for name, _plugin in pm.list_name_plugin():
            code = plugin_set(name)
            if code is not None and code not in needed:
                left_out.add(name)
    python_hooks = []
    for hook_name, caller in sorted(vars(pm.hook).items()):
        if hook_name.startswith("_"):
            continue
        for impl in caller.get_hookimpls():
            if impl.plugin_name not in left_out and not _engines(impl.function):
                python_hooks.append((impl.plugin_name, hook_name))
    sets = set(needed)
    if set_hooks == "all":  # every registered set's hooks too
        sets.update(code for name, _ in pm.list_name_plugin()
                    if (code := plugin_set(name)) is not None)
    return GameScope(tuple(sorted(sets)),
                     tuple(sorted(name.removeprefix("hkk.sets.") for name in left_out)),
                     tuple(sorted(set(python_hooks))))


def _engines(function: Any) -> bool:
    """Whether a hook implementation is the engine's own (hkk's private modules: the built-in
    rules plugins, the card interpreter)."""
    return str(getattr(function, "__module__", "")).startswith("hkk._")
