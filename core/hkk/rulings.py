"""Readings the engine had to choose where the Kódex text was not available to us ([D]).

Each is a setting with a documented default; ``docs/RULINGS.md`` gives the rationale and how to
override each one.  Pass ``Rulings(...)`` to :class:`hkk.Engine` (or ``Game``) to change them;
rules that live in built-in plugins are overridden by replacing the plugin instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hkk.game import Game
    from hkk.phases import Step


@dataclass(frozen=True)
class Rulings:
    #: D-empty-deck: a player who must draw from an empty deck loses (keeps games finite).
    empty_deck_loses: bool = True
    #: D-vp-carry: unspent VP carries over to the next turn.
    unspent_vp_carries_over: bool = True
    #: D-orderer: who orders simultaneous items where no rule names anyone (e.g. end stage 2):
    #: "active" (as in 29.4.1) or "controller-first" (each item by its controller, active
    #: player's first - a stable order, no decision).
    default_orderer: str = "active"
    #: D-turn-limit: a game still running after this many turns is a draw.
    max_turns: int = 400
    #: Guard against abilities that loop for free: a step with more items than this is an error.
    max_items_per_step: int = 500

    EMPTY_DECK = "D-empty-deck"

    def orderer(self, game: Game, step: Step) -> int:
        if step.phase == "preparation" or self.default_orderer == "active":
            return game.active  # 29.4.1
        return game.active


DEFAULT_RULINGS = Rulings()
