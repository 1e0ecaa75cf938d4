"""[D] D-guard-post: in the main phase the active player may move an active creature from his
reserve to his guard post, the zone creatures attack from and defend (passive creatures can't
stand there).  Playing cards from hand is offered by the runner itself (8.1)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from hkk import ACTION, GUARD_POST, RESERVE, Pending, hookimpl
from hkk.events import Moved

if TYPE_CHECKING:
    from hkk import Game, Permanent


def _move(game: Game, item: Pending, bound: object) -> None:
    perm = item.source
    assert perm is not None  # the item is offered by its creature (guard_post_items)
    perm.zone = GUARD_POST
    game.emit(Moved, uid=perm.uid, card=perm.card.id, zone=GUARD_POST, rule="D-guard-post")


class GuardPostMoves:
    __slots__ = ("_items", "_game")  # read at every collection: slots are read faster

    def __init__(self) -> None:
        #: id(perm) -> (perm, controller, its item), for the game last asked (a weak
        #: reference: the plugin outlives games).  The main phase is collected before every
        #: action decision; its items are made once per creature, not per collection.
        self._items: dict[int, tuple[Permanent, int, Pending]] = {}
        self._game: weakref.ref[Game] | None = None

    @hookimpl
    def main_phase(self, game: Game) -> list[Pending]:
        if self._game is None or self._game() is not game:
            self._items = {}
            self._game = weakref.ref(game)
        made = self._items
        items = []
        active = game.active
        # game.creatures(active) filtered in the same pass, without a list of every creature
        # first: collected before every action decision of the main phase.
        for perm in game.permanents.values():
            if perm.zone == RESERVE and perm.kind == "creature" and perm.active \
                    and perm.controller == active:
                entry = made.get(id(perm))
                if entry is None or entry[0] is not perm or entry[1] != perm.controller:
                    entry = made[id(perm)] = (perm, perm.controller, Pending(
                        f"guard {perm.describe()}", _move, controller=perm.controller,
                        kind=ACTION, source=perm, rule="D-guard-post", key=("guard", perm.uid)))
                items.append(entry[2])
        return items
