"""hkk - rules engine and plugin framework for Hatalom Kártyái.

The names in ``__all__`` are hkk's public API: documented, and kept stable within a hook API
version.  Everything else (the modules under ``hkk.``) is internal and may change; only
:mod:`hkk.testing` (helpers for tests of sets and of games) and ``from hkk.verify import
verify`` are public besides.

For set authors: ``hookimpl`` (with ``only_in_steps`` and ``TURN_HOOKS``), ``Pending`` and its
kinds (the enum ``ItemKind``: ``AUTOMATIC``, ``ACTIVATED``, ``RULE``, ``ACTION``, ``PLAY``),
``Price``, ``Usage``, ``Lethal``, ``EffectContext``, ``Game`` (read its state, change it through
its methods), ``Permanent``, ``Player``, ``ExtractionOffer``, the zones and the errors.  The
built-in rules plugins (``hkk._rules``) use nothing else.  For game and AI developers:
``Engine``, ``Game``, the agents and ``make_agent`` (an agent by its spec, from the
``hkk.agents`` entry points), ``advance``, ``save_game`` and ``load_game``; the forward-model
protocol ``ForwardModel`` (a game played from outside, on any core), ``FairView`` (what one
player may know), ``GameLog``, ``Core`` (what runs games: the ``hkk.cores`` entry points,
docs/CORES.md), ``GameScope`` (``engine.scope(decks)``: the sets a game loads, data-only or not)
and ``build_position`` (a game in a given position).
"""

# ``import hkk`` loads no submodule: each public name is imported on first use (module
# ``__getattr__``, PEP 562), so a tool that needs only a part of hkk does not pay for the rest
# (pydantic and the card models, saving, the agents, ...).  ``_MODULES`` says where each name
# lives; type checkers read the same from ``__init__.pyi`` beside this file (tests check they
# agree).  This module imports nothing of hkk, not even for type checking: the built-in rules
# plugins import public names from ``hkk``, and the engine imports them (issue 20 item 2: no
# import cycle counting type-only imports).
from typing import Any as _Any

#: Public name -> the private module defining it, by module.
_MODULES: dict[str, tuple[str, ...]] = {
    "hkk._agent_registry": ("make_agent",),
    "hkk._evaluation": ("Weights", "evaluate"),
    "hkk._greedy": ("GreedyAgent",),
    "hkk._mcts": ("MctsAgent",),
    "hkk._agents": ("Agent", "Decision", "FirstLegalAgent", "Option", "RandomAgent",
                    "ScriptedAgent"),
    "hkk._cards.interpret": ("EffectContext",),
    "hkk._clock": ("GameClock",),
    "hkk._clone": ("CloneError",),
    "hkk._cores": ("CoreError",),
    "hkk._game_sets": ("GameScope",),
    "hkk._position": ("build_position",),
    "hkk._protocol": ("Core", "FairView", "ForwardModel", "GameLog"),
    "hkk._effects": ("Duration",),
    "hkk._engine": ("Engine",),
    "hkk._errors": ("CardDataError", "ConfigError", "GameOver", "GameTimeout", "HkkError",
                    "HookError", "IllegalDecision", "Interrupted", "InvariantViolation",
                    "RuleViolation", "SetError", "StepLoopError", "TriggerLoopError",
                    "WorkLimitError"),
    "hkk._events": ("EventLog",),
    "hkk._forward": ("ReplayError",),
    "hkk.events": ("Event",),
    "hkk._game": ("Game",),
    "hkk._hookcall": ("only_in_steps",),
    "hkk._hookspecs": ("TURN_HOOKS", "hookimpl"),
    "hkk._pending": ("ACTION", "ACTIVATED", "AUTOMATIC", "PLAY", "RULE", "ItemKind", "Lethal",
                     "Pending", "Price", "Usage"),
    "hkk._phases": ("DEFAULT_TURN", "Mode", "Step"),
    "hkk._player_view": ("PlayerView", "SeatInfo"),
    "hkk._plugin": ("HOOK_API_VERSION",),
    "hkk._rulings": ("Rulings",),
    "hkk._runner": ("advance",),
    "hkk._saving": ("SaveError", "load_game", "save_game"),
    "hkk._state": ("BUILDINGS", "ExtractionOffer", "GUARD_POST", "RESERVE", "Permanent",
                   "Player"),
    "hkk._version": ("__version__",),
}
_PUBLIC = {name: module for module, names in _MODULES.items() for name in names}

__all__ = [
    "ACTION", "ACTIVATED", "AUTOMATIC", "Agent", "BUILDINGS", "CardDataError", "CloneError",
    "ConfigError", "Core", "CoreError", "FairView", "ForwardModel", "GameLog", "GameScope",
    "build_position",
    "DEFAULT_TURN", "Decision", "Duration", "EffectContext", "Engine", "Event", "EventLog",
    "ExtractionOffer", "FirstLegalAgent", "GUARD_POST", "Game", "GameClock", "GameOver",
    "GameTimeout", "GreedyAgent", "MctsAgent", "Weights", "evaluate",
    "HOOK_API_VERSION", "HkkError", "HookError", "IllegalDecision", "Interrupted",
    "InvariantViolation", "ItemKind", "Lethal", "Mode", "Option", "PLAY", "Pending", "Permanent",
    "Player", "PlayerView",
    "Price", "RESERVE", "RULE", "RandomAgent", "ReplayError", "RuleViolation", "Rulings",
    "SaveError", "SeatInfo",
    "ScriptedAgent", "SetError", "Step", "StepLoopError", "TURN_HOOKS", "TriggerLoopError",
    "Usage", "WorkLimitError", "__version__", "advance",
    "hookimpl", "load_game", "make_agent", "only_in_steps", "save_game",
]


def __getattr__(name: str) -> _Any:
    """Import a public name's module on first use and keep the name here (PEP 562)."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'hkk' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
