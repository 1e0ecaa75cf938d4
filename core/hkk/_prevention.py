"""Prevention (D-prevented): static abilities that make other abilities resolve without effect.

"Az ellenfeled előkészítő fázisban használt képességei hatástalanok": a static ``prevent``
effect in force (``game.preventions``, kept by :mod:`hkk._changes` like any static ability,
conditions included) names whose abilities, of which kind and in which phase.  A prevented item
still resolves - it is logged as ``resolving``, an activated ability's cost is paid and its use
counted, so in the preparation phase it was the one attempt of the turn (29.4.9) - but nothing
of its effect happens: no choices, no changes, a ``prevented`` event instead.  Only abilities
are prevented (automatic and activated items with a controller); the rules' own items and
actions (VP regeneration, drawing, combat) are not abilities.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from hkk._pending import ACTIVATED, AUTOMATIC, Pending

if TYPE_CHECKING:
    from hkk._state import Permanent
    from hkk._view import GameView

__all__ = ["preventer", "prevented_items"]


def preventer(game: GameView, item: Pending) -> Permanent | None:
    """The permanent whose static ability prevents ``item`` now, or None.  The first in
    timestamp order, if several do."""
    if not game.preventions or item.controller is None or item.kind not in (AUTOMATIC,
                                                                            ACTIVATED):
        return None
    phase = game.step.phase if game.step is not None else None
    for source, prevent in game.preventions:
        if prevent.phase != "any" and prevent.phase != phase:
            continue
        if prevent.abilities != "all" and prevent.abilities != item.kind:
            continue
        mine = item.controller == source.controller
        if (prevent.whose == "opponent" and mine) or (prevent.whose == "controller" and not mine):
            continue
        return source
    return None


def prevented_items(game: GameView, items: Iterable[Pending]) -> dict[Pending, Permanent]:
    """Of ``items``, those prevented now, each with its preventer (for a simultaneous moment:
    read once, against the state before it, D-simultaneous-bind)."""
    if not game.preventions:
        return {}
    found = {}
    for item in items:
        by = preventer(game, item)
        if by is not None:
            found[item] = by
    return found
