"""Cores are plugins: what runs a game, chosen through the ``hkk.cores`` entry-point group.

A core (:class:`hkk.Core`, docs/CORES.md) says whether it can run a game (``refuses``) and makes
one (``new_game``, a :class:`hkk.ForwardModel`).  The Python engine is the built-in core
``python`` (an entry point of the ``hkk`` distribution, as a third party's would be, and in
:data:`BUILTIN_CORES` for an editable install whose metadata predates it).  ``--core NAME``
names one; ``--core auto`` (the default) takes the first core marked ``auto`` that accepts the
game (a compiled core), else ``python``, and says why it fell back.  A core marked
``auto = "whole-games"`` is taken only for whole games whose outcomes alone are read
(``hkk simulate``: :data:`WHOLE_GAMES`), never for a game handed to the caller
(``Engine.start``, whose callers read an ``hkk.Game``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from hkk._errors import CoreError
from hkk._game import Game
from hkk._protocol import Core, ForwardModel

__all__ = ["AUTO", "BUILTIN_CORES", "ENTRY_POINT_GROUP", "WHOLE_GAMES", "CoreChoice", "CoreEntry",
           "CoreError", "CoreRegistry", "PYTHON", "PythonCore", "core_entries"]

ENTRY_POINT_GROUP = "hkk.cores"
#: The name that picks the best installed core that accepts the game.
AUTO = "auto"
#: A core's ``auto`` that lets ``auto`` take it only for whole games of which nothing but
#: their outcomes is read (``hkk simulate``), never for a game handed to the caller.
WHOLE_GAMES = "whole-games"
#: name -> "module:object" of hkk's own cores (the same as pyproject.toml's entry points).
BUILTIN_CORES: dict[str, str] = {"python": "hkk._cores:PYTHON"}


class PythonCore:
    """The Python engine: runs every game (its refusal is always None)."""

    name = "python"
    #: it is what ``--core auto`` falls back to, not one it tries first
    auto = False

    def refuses(self, engine: Any, decks: Sequence[Sequence[str]]) -> str | None:
        return None

    def new_game(self, engine: Any, decks: Sequence[Sequence[str]], *, seed: int,
                 agents: Sequence[Any], log_level: str = "full", rulings: Any = None,
                 clock: Any = None, names: Sequence[str] = ("P1", "P2")) -> ForwardModel:
        game: ForwardModel = Game(engine, decks, agents, seed=seed, log_level=log_level,
                                  rulings=rulings, clock=clock, names=names)
        return game


#: The built-in core's one instance (its entry point's object).
PYTHON = PythonCore()


@dataclass
class CoreEntry:
    """A registered core: its name, ``module:object`` and the distribution registering it."""

    name: str
    value: str
    distribution: str | None

    def load(self) -> Core:
        """The core object (a class registered is made once, with no arguments)."""
        module, _, attribute = self.value.partition(":")
        where = f"core {self.name!r} of distribution {self.distribution} ({self.value})"
        try:
            found: Any = import_module(module)
            for part in attribute.split(".") if attribute else ():
                found = getattr(found, part)
        except Exception as exc:
            raise CoreError(f"{where} does not load: {type(exc).__name__}: {exc}") from exc
        core = found() if isinstance(found, type) else found
        missing = [m for m in ("refuses", "new_game") if not callable(getattr(core, m, None))]
        if missing:
            raise CoreError(f"{where} is not a core: it has no {' or '.join(missing)} method")
        return core  # type: ignore[no-any-return]


def without_forward_model(core: Any) -> str | None:
    """Why ``core`` cannot be driven as a whole :class:`hkk.ForwardModel` (a core that says
    ``forward_model = False``; ``forward_model_lacks`` names what it lacks), or None."""
    if getattr(core, "forward_model", True):
        return None
    lacks = getattr(core, "forward_model_lacks", "decision, answer, view")
    return (f"core {core.name!r} is not a whole forward model yet (it lacks {lacks}): hkk "
            "play, serve and verify --games need one; use --core python")


@dataclass
class CoreChoice:
    """The core a game runs on, and why ``auto`` did not take a core it tried first (None: it
    did not fall back)."""

    core: Core
    fallback: str | None = None


@dataclass
class CoreRegistry:
    """The installed cores by name (hkk's own first) and the entries that were not taken."""

    entries: dict[str, CoreEntry]
    problems: list[str] = field(default_factory=list)
    _loaded: dict[str, Core] = field(default_factory=dict)

    def names(self) -> list[str]:
        return sorted(self.entries)

    def add(self, core: Core) -> None:
        """Take a core object handed to ``Engine(core=...)`` under its name."""
        self._loaded[core.name] = core
        self.entries[core.name] = CoreEntry(
            core.name, f"{type(core).__module__}:{type(core).__qualname__}", None)

    def get(self, name: str) -> Core:
        """The core named ``name``; an unknown name is a :class:`CoreError` listing them."""
        if name not in self._loaded:
            entry = self.entries.get(name)
            if entry is None:
                raise CoreError(f"no core {name!r}; installed cores: "
                                f"{', '.join([AUTO, *self.names()])}")
            self._loaded[name] = entry.load()
        return self._loaded[name]

    def choose(self, name: str, engine: Any, decks: Sequence[Sequence[str]], *,
               whole_games: bool = False, agents: Sequence[Any] | None = None,
               max_turns: int | None = None) -> CoreChoice:
        """The core for a game of ``decks``: the one named (its refusal is a CoreError), or
        with ``auto`` the first core marked ``auto`` that accepts the game, else python.
        ``whole_games``: the game is played whole and only its outcome read (``hkk
        simulate``), with ``agents`` (None: the engine's default ones) and ``max_turns``,
        which a core's ``refuses_outcomes`` may refuse; a core marked ``auto =
        "whole-games"`` is tried only then."""
        if name != AUTO:
            core = self.get(name)
            reason = _refusal(core, engine, decks, whole_games, agents, max_turns)
            if reason is not None:
                raise CoreError(f"core {name!r} cannot run this game: {reason}")
            return CoreChoice(core)
        refusals = []
        for other in self.names():
            if other == PYTHON.name:
                continue
            try:
                core = self.get(other)
            except CoreError as exc:
                refusals.append(str(exc))
                continue
            auto = getattr(core, "auto", False)
            if not (auto is True or (auto == WHOLE_GAMES and whole_games)):
                continue
            reason = _refusal(core, engine, decks, whole_games, agents, max_turns)
            if reason is None:
                return CoreChoice(core)
            refusals.append(f"core {other!r}: {reason}")
        fallback = "; ".join(refusals) + "; running it on the python core" if refusals else None
        return CoreChoice(self.get(PYTHON.name), fallback)


def _refusal(core: Any, engine: Any, decks: Sequence[Sequence[str]], whole_games: bool,
             agents: Sequence[Any] | None, max_turns: int | None) -> str | None:
    """Why ``core`` cannot run the game: its ``refuses``, then for whole games its optional
    ``refuses_outcomes`` (the agents and turn limit of its batched call)."""
    reason: str | None = core.refuses(engine, decks)
    outcomes = getattr(core, "refuses_outcomes", None)
    if reason is None and whole_games and outcomes is not None:
        reason = outcomes(engine, decks, agents=agents, max_turns=max_turns)
    return reason


def core_entries(entry_points: Any = None, builtin: Mapping[str, str] = BUILTIN_CORES
                 ) -> CoreRegistry:
    """Every registered core: hkk's own, then the ``hkk.cores`` entry points of other
    distributions (sorted by distribution; a name taken already is reported, not loaded)."""
    import importlib_metadata

    registry = CoreRegistry({name: CoreEntry(name, value, "hkk")
                             for name, value in builtin.items()})
    if entry_points is None:
        entry_points = importlib_metadata.entry_points(group=ENTRY_POINT_GROUP)
    found = [CoreEntry(ep.name, ep.value, getattr(getattr(ep, "dist", None), "name", None))
             for ep in entry_points]
    for entry in sorted(found, key=lambda e: (e.distribution or "", e.name, e.value)):
        if entry.distribution == "hkk" and builtin.get(entry.name) == entry.value:
            continue  # hkk's own, already there
        taken = registry.entries.get(entry.name)
        if taken is not None or entry.name == AUTO:
            registry.problems.append(
                f"core {entry.name!r} of distribution {entry.distribution} ({entry.value}) is "
                f"not loaded: " + ("'auto' is not a core name" if taken is None else
                                   f"distribution {taken.distribution} registers that name"))
            continue
        registry.entries[entry.name] = entry
    return registry
