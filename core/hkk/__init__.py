"""hkk - rules engine and plugin framework for Hatalom Kártyái.

For set authors: ``from hkk import hookimpl``.  For game and AI developers: ``Engine``,
``Game`` and the agents.
"""

from hkk.agents import Agent, Decision, FirstLegalAgent, Option, RandomAgent, ScriptedAgent
from hkk.clock import GameClock
from hkk.effects import Duration
from hkk.engine import Engine
from hkk.errors import (CardDataError, HkkError, HookError, IllegalDecision, RuleViolation,
                        SetError)
from hkk.events import Event, EventLog
from hkk.game import Game
from hkk.hookspecs import hookimpl
from hkk.pending import Pending, Price, Usage
from hkk.phases import DEFAULT_TURN, Mode, Step
from hkk.plugin import HOOK_API_VERSION
from hkk.rulings import Rulings

from hkk._version import __version__  # noqa: F401 - hkk.__version__

__all__ = [
    "Agent", "CardDataError", "DEFAULT_TURN", "Decision", "Duration", "Engine", "Event",
    "EventLog", "FirstLegalAgent", "Game", "GameClock", "HOOK_API_VERSION", "HkkError",
    "HookError", "IllegalDecision", "Mode", "Option", "Pending", "Price", "RandomAgent",
    "Rulings", "RuleViolation", "ScriptedAgent", "SetError", "Step", "Usage", "hookimpl",
]
