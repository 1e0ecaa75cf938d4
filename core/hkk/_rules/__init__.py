"""Built-in rules plugins: the standard rules that fill the turn's phases.

They implement the same hook specs as card sets, use only what a set may use (the names in
``hkk.__all__``: ``tests/test_builtin_twins.py`` checks every module's imports and plays the
golden games with a twin of each, its source run outside hkk), and are registered under the
names in :data:`BUILTIN_RULES` before the sets (so pluggy asks a set's answer to a firstresult
hook first).  A set or a tournament variant can replace any of them::

    engine.pm.unregister(name="hkk.rules.combat")
    engine.pm.register(MyCombat(), name="hkk.rules.combat")

or ``Engine(rules={**BUILTIN_RULES, "hkk.rules.combat": MyCombat})``.  The card interpreter's
plugin (``hkk.rules.cards``, :class:`hkk._cards.interpret.CardAbilities`) is the engine's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hkk._cards.interpret import CardAbilities
from hkk._rules.clock import TurnClock
from hkk._rules.combat import SimpleCombat
from hkk._rules.components import MonsterComponents
from hkk._rules.end_of_turn import RestoreDamaged
from hkk._rules.hand_play import HandPlay
from hkk._rules.main_phase import GuardPostMoves
from hkk._rules.ordering import RulingsOrderer
from hkk._rules.preparation import DrawCard, PassiveBecomeActive, VpRegeneration
from hkk._rules.triggers import TriggerPool

BUILTIN_RULES: dict[str, Callable[[], Any]] = {
    "hkk.rules.vp_regeneration": VpRegeneration,  # 29.3
    "hkk.rules.passive_become_active": PassiveBecomeActive,  # prep stage 3 [D]
    "hkk.rules.draw": DrawCard,  # prep stage 4 [D]
    "hkk.rules.guard_post": GuardPostMoves,  # main phase [D]
    "hkk.rules.combat": SimpleCombat,  # combat [D]
    "hkk.rules.restore": RestoreDamaged,  # 41.3
    "hkk.rules.cards": CardAbilities,  # abilities of cards in play
    "hkk.rules.hand_play": HandPlay,  # playing cards from hand (8.1, 29.4.6) [D] D-instants
    "hkk.rules.components": MonsterComponents,  # [D] D-components-window, 29.4.11
    "hkk.rules.clock": TurnClock,  # the game clock (41.7) [D] D-41.7-last-pass
    "hkk.rules.orderer": RulingsOrderer,  # who orders (29.4.1) [D] D-orderer
    "hkk.rules.triggers": TriggerPool,  # triggers join prep stage 2's items [D] D-trigger-prep
}

__all__ = ["BUILTIN_RULES", "CardAbilities", "SimpleCombat", "RestoreDamaged",
           "GuardPostMoves", "HandPlay", "MonsterComponents", "TurnClock", "RulingsOrderer",
           "DrawCard", "PassiveBecomeActive", "TriggerPool", "VpRegeneration"]
