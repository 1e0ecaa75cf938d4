"""hkk - rules engine and plugin framework for Hatalom Kártyái.

The names in ``__all__`` are hkk's public API: documented, and kept stable within a hook API
version.  Everything else (the modules under ``hkk.``) is internal and may change; only
:mod:`hkk.testing` (helpers for tests of sets and of games) and ``from hkk.verify import
verify`` are public besides.

For set authors: ``hookimpl``, ``Pending`` and its kinds (the enum ``ItemKind``: ``AUTOMATIC``,
``ACTIVATED``, ``RULE``, ``ACTION``, ``PLAY``), ``Price``, ``Usage``, ``Lethal``,
``EffectContext``, ``Game`` (read its state, change it through its methods), ``Permanent``,
``Player``, the zones and the errors.  For game and AI developers: ``Engine``, ``Game``, the
agents, ``advance``, ``save_game`` and ``load_game``.
"""

from hkk._version import __version__
from hkk.agents import Agent, Decision, FirstLegalAgent, Option, RandomAgent, ScriptedAgent
from hkk.cards.interpret import EffectContext
from hkk.clock import GameClock
from hkk.effects import Duration
from hkk.engine import Engine
from hkk.errors import (
                        CardDataError,
                        ConfigError,
                        GameOver,
                        GameTimeout,
                        HkkError,
                        HookError,
                        IllegalDecision,
                        Interrupted,
                        InvariantViolation,
                        RuleViolation,
                        SetError,
                        StepLoopError,
)
from hkk.events import Event, EventLog
from hkk.game import Game
from hkk.hookspecs import hookimpl
from hkk.pending import (
                        ACTION,
                        ACTIVATED,
                        AUTOMATIC,
                        PLAY,
                        RULE,
                        ItemKind,
                        Lethal,
                        Pending,
                        Price,
                        Usage,
)
from hkk.phases import DEFAULT_TURN, Mode, Step
from hkk.plugin import HOOK_API_VERSION
from hkk.rulings import Rulings
from hkk.runner import advance
from hkk.saving import SaveError, load_game, save_game
from hkk.state import BUILDINGS, GUARD_POST, RESERVE, Permanent, Player

__all__ = [
    "ACTION", "ACTIVATED", "AUTOMATIC", "Agent", "BUILDINGS", "CardDataError", "ConfigError",
    "DEFAULT_TURN", "Decision", "Duration", "EffectContext", "Engine", "Event", "EventLog",
    "FirstLegalAgent", "GUARD_POST", "Game", "GameClock", "GameOver", "GameTimeout",
    "HOOK_API_VERSION", "HkkError", "HookError", "IllegalDecision", "Interrupted",
    "InvariantViolation", "ItemKind", "Lethal", "Mode", "Option", "PLAY", "Pending", "Permanent",
    "Player",
    "Price", "RESERVE", "RULE", "RandomAgent", "RuleViolation", "Rulings", "SaveError",
    "ScriptedAgent", "SetError", "Step", "StepLoopError", "Usage", "__version__", "advance",
    "hookimpl", "load_game", "save_game",
]
