"""pytest-hkk: fixtures and checks for hkk card-set authors.

The fixtures (in :mod:`pytest_hkk.plugin`) are thin wrappers over these plain helpers, which work
outside pytest too::

    game = build_game(engine, players=[{"hand": ["alap:tuzmano"], "vp": 3}, {}])
    TurnDriver().to(game, "main_phase")
    LogAssert(game.log).has("card_played", card="alap:tuzmano")

Scripted players: :func:`script` (answers in order) and :class:`StepScript` (answers per step).
"""

from pytest_hkk.builders import PassingAgent, build_game, script
from pytest_hkk.driver import TurnDriver
from pytest_hkk.log import LogAssert
from pytest_hkk.steps import StepScript

__version__ = "0.1.0"

__all__ = ["LogAssert", "PassingAgent", "StepScript", "TurnDriver", "build_game", "script"]
