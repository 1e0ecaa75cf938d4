"""Type information for the ``hkk`` package (its ``__init__.py`` imports each public name on
first use, which type checkers cannot follow): where each public name comes from."""

from hkk._agent_registry import make_agent
from hkk._agents import Agent, Decision, FirstLegalAgent, Option, RandomAgent, ScriptedAgent
from hkk._cards.interpret import EffectContext
from hkk._clock import GameClock
from hkk._clone import CloneError
from hkk._cores import CoreError
from hkk._effects import Duration
from hkk._engine import Engine
from hkk._errors import (
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
    TriggerLoopError,
    WorkLimitError,
)
from hkk._evaluation import Weights, evaluate
from hkk._events import EventLog
from hkk._forward import ReplayError
from hkk._game import Game
from hkk._game_sets import GameScope
from hkk._greedy import GreedyAgent
from hkk._hookcall import only_in_steps
from hkk._hookspecs import TURN_HOOKS, hookimpl
from hkk._mcts import MctsAgent
from hkk._pending import (
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
from hkk._phases import DEFAULT_TURN, Mode, Step
from hkk._player_view import PlayerView, SeatInfo
from hkk._plugin import HOOK_API_VERSION
from hkk._position import build_position
from hkk._protocol import Core, FairView, ForwardModel, GameLog
from hkk._rulings import Rulings
from hkk._runner import advance
from hkk._saving import SaveError, load_game, save_game
from hkk._state import BUILDINGS, GUARD_POST, RESERVE, ExtractionOffer, Permanent, Player
from hkk._version import __version__
from hkk.events import Event

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
