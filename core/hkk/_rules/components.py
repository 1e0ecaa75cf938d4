"""Monster components (D-components-window): a dead creature's components may be extracted by
its opponent until the end of the phase of its death - as an action in the action phases
(offered by the runner from ``game.offers``), and, for whatever is left, in one last decision
as the phase ends.  Never from a creature sacrificed as a cost [R], nor in prep stage 2
(29.4.11), nor at the deferred check [D]."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hkk import ExtractionOffer, hookimpl

if TYPE_CHECKING:
    from hkk import Game, Permanent

__all__ = ["MonsterComponents", "close_offers"]


class MonsterComponents:
    @hookimpl
    def left_play(self, game: Game, permanent: Permanent, components: bool) -> int:
        count = getattr(permanent.card, "components", 0) if permanent.kind == "creature" else 0
        step = game.step
        if not (count and components and not (step and step.no_components)):
            return 0
        # between turns (the deferred check, 41.4): the coming turn's first phase
        phase = step.phase if step else game.turn_steps[0].phase
        game.offers.append(ExtractionOffer(permanent.card.id, permanent.uid, count,
                                           game.opponent(permanent.controller), phase))
        return count

    @hookimpl
    def phase_ended(self, game: Game, phase: str) -> None:
        close_offers(game, phase)


def close_offers(game: Game, phase: str) -> None:
    """Components may be extracted until the end of the phase of the death [R]; what is left is
    offered one last time, then lapses.  The turn machine asks, right after the
    ``phase_ended`` hook (``game.machine.closing``): a decision there is one it can stop at
    and go on from."""
    if game.offers:
        game.machine.closing = phase
