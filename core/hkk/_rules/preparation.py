"""Preparation phase stages 1, 3 and 4 (29.2, 29.3); stage 2 is the runner's (29.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hkk import RESERVE, RULE, Pending, hookimpl
from hkk.events import BecameActive, VpRegenerated

if TYPE_CHECKING:
    from hkk import Game

#: 29.3: VP received in the player's 1st, 2nd, 3rd, 4th and 5th-or-later turn.
REGENERATION = (1, 2, 3, 4, 5)


def regeneration(game: Game, player: int) -> int:
    """29.3: by the player's own turn number, +1 for every second creature in his reserve
    (active or passive; not a source), plus VP-regeneration modifiers, which already act in
    stage 1 (29.4.5)."""
    p = game.players[player]
    base = REGENERATION[min(p.turns_taken, len(REGENERATION)) - 1]
    reserve = sum(1 for c in game.creatures(player) if c.zone == RESERVE)
    return max(0, base + reserve // 2 + game.vp_regen_modifier(player))


def _regenerate(game: Game, item: Pending, bound: object) -> None:
    player = game.active
    amount = regeneration(game, player)
    p = game.players[player]
    if not game.rulings.unspent_vp_carries_over:  # [D] D-vp-carry
        p.vp = 0
    p.vp += amount
    p.vp_received = amount
    game.emit(VpRegenerated, player=player, amount=amount, after=p.vp, rule="29.3")


class VpRegeneration:
    def __init__(self) -> None:  # the item holds no state of a game: made once, not per call
        self.item = Pending("VP regeneration", _regenerate, kind=RULE, rule="29.3")

    @hookimpl
    def vp_regeneration(self, game: Game) -> list[Pending]:
        return [self.item]


def _activate(game: Game, item: Pending, bound: object) -> None:
    for perm in list(game.permanents.values()):
        if perm.controller == game.active and not perm.active:
            perm.active = True
            game.emit(BecameActive, uid=perm.uid, card=perm.card.id, rule="D-stage3")


class PassiveBecomeActive:
    """[D] D-stage3: the active player's passive cards become active."""

    def __init__(self) -> None:
        self.item = Pending("passive cards become active", _activate, kind=RULE, rule="D-stage3")

    @hookimpl
    def prep_stage3(self, game: Game) -> list[Pending]:
        return [self.item]


def _draw(game: Game, item: Pending, bound: object) -> None:
    game.draw(game.active, 1, source="D-stage4")


class DrawCard:
    """[D] D-stage4: the active player draws a card (the starting player too, K 28)."""

    def __init__(self) -> None:
        self.item = Pending("draw a card", _draw, kind=RULE, rule="D-stage4")

    @hookimpl
    def prep_stage4(self, game: Game) -> list[Pending]:
        return [self.item]
