"""End stage 3 (41.3): creatures and buildings damaged during the turn return to max Ép / Sp.
Stages 1, 2 and 4 are the runner's (41.1, 41.2, 41.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hkk import RULE, Pending, hookimpl

if TYPE_CHECKING:
    from hkk import Game


def _restore(game: Game, item: Pending, bound: object) -> None:
    for perm in list(game.permanents.values()):
        if perm.damaged_turn == game.turn:  # 41.3: "a kör folyamán"
            game.restore(perm, rule="41.3")


class RestoreDamaged:
    def __init__(self) -> None:  # the item holds no state of a game: made once, not per call
        self.item = Pending("restore damaged creatures and buildings", _restore, kind=RULE,
                            rule="41.3")

    @hookimpl
    def end_stage3(self, game: Game) -> list[Pending]:
        return [self.item]
