"""[D] D-guard-post: in the main phase the active player may move an active creature from his
reserve to his guard post, the zone creatures attack from and defend (passive creatures can't
stand there).  Playing cards from hand is offered by the runner itself (8.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hkk._hookspecs import hookimpl
from hkk._pending import ACTION, Pending
from hkk._state import GUARD_POST, RESERVE

if TYPE_CHECKING:
    from hkk._game import Game


def _move(game: Game, item: Pending, bound: object) -> None:
    perm = item.source
    perm.zone = GUARD_POST
    game.emit("moved", uid=perm.uid, card=perm.card.id, zone=GUARD_POST, rule="D-guard-post")


class GuardPostMoves:
    @hookimpl
    def main_phase(self, game: Game) -> list[Pending]:
        return [Pending(f"guard {perm.describe()}", _move, controller=perm.controller,
                        kind=ACTION, source=perm, rule="D-guard-post", key=("guard", perm.uid))
                for perm in game.creatures(game.active)
                if perm.zone == RESERVE and perm.active]
