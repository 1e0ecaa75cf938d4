"""Games with given cards in given zones, and scripted players."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hkk import ScriptedAgent
from hkk.testing import NUMBERS, ZONES, PassingAgent, build_game, filler_card

__all__ = ["NUMBERS", "PassingAgent", "ZONES", "build_game", "filler_card", "script"]


def script(*steps: Any, only: Iterable[str] | None = None,
           fallback: Any = None) -> ScriptedAgent:
    """A :class:`hkk.ScriptedAgent`: each step is an option label ("play alap:tuzmano",
    "pass"), an index or a function of the decision.  A label picks the option with exactly
    that label, else the first whose label starts with it ("play alap:tuz", or "alap:langorzo"
    for a trigger to order).  Decisions outside ``only`` kinds and those after the script go
    to ``fallback`` (default :class:`PassingAgent`)."""
    return ScriptedAgent(list(steps), fallback=fallback or PassingAgent(), only=only)
