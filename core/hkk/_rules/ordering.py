"""Who orders a step's items (29.4.1; D-orderer), as the ``orderer`` hook's built-in answer:
what :class:`hkk.Rulings` says.  Replace ``hkk.rules.orderer`` to decide otherwise."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hkk import hookimpl

if TYPE_CHECKING:
    from hkk import Game, Step

__all__ = ["RulingsOrderer"]


class RulingsOrderer:
    @hookimpl
    def orderer(self, game: Game, step: Step) -> int | None:
        return game.rulings.orderer(game, step)
