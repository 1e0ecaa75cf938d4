"""Checks: the Ép check (29.4.10; [D] after every action and effect elsewhere), the ``lethal``
hook it asks, and the players' loss (K 3.12)."""

from __future__ import annotations

import itertools
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from hkk._changes import destroy, end_game
from hkk._hookcall import call, implementations
from hkk._state import Permanent
from hkk.events import HpCheck

if TYPE_CHECKING:
    from collections.abc import Collection

    from hkk._view import GameState

__all__ = ["check_hp", "check_players", "lethal"]


def check_hp(game: GameState, rule: str, *, components: bool = True,
             changed_only: bool = False) -> list[Permanent]:
    """Every permanent at 0 Ép (Sp) or below goes to the graveyard, and every one a
    ``lethal`` hook names: all found first, then all destroyed, one round.  A death can take
    a static bonus away from others (e.g. "+1 Ép to your creatures"), so the check repeats
    until a round finds nobody: the board is settled when it ends (D-settled-check).  Each
    further round is logged as an ``hp_check`` with its ``round``.

    With ``changed_only`` (the engine's own checks) a round looks only at the permanents
    whose Ép may have fallen since the last check, which the primitives of hkk._changes note
    in ``game.hp_changed``: every other one was above 0 then and still is, so the check costs
    what changed, not the board.  Called without it (a test or a plugin that set a value
    directly), a round looks at every permanent."""
    impls = game.hook_impls.get("lethal")  # implementations(), without a call per check
    asks_lethal = bool(impls if impls is not None else implementations(game, "lethal"))
    if changed_only and not game.hp_changed and not asks_lethal:
        # nobody's Ép fell since the last check and no rule names anybody: a round would find
        # nobody (the common case, after nearly every item), so it is logged without looking
        _found_nobody(game, rule)
        check_players(game)
        return []
    died: list[Permanent] = []
    for round_ in itertools.count(1):
        changed, game.hp_changed = game.hp_changed, set()
        candidates: Collection[Permanent]  # (no code: an annotation only)
        if changed_only:
            present = game.permanents
            candidates = sorted((p for p in changed if present.get(p.uid) is p), key=_uid) \
                if changed else ()  # sorted: as the permanents' (timestamp) order
        else:
            candidates = game.permanents.values()
        # hp(p) <= 0, inlined: this runs after every item and nearly always finds nobody
        dead = [p for p in candidates
                if p.base_hp + p.mods.get(p.hp_stat, 0) + p.defence_bonus <= p.damage_taken]
        doomed = lethal(game, dead) if asks_lethal else []
        if not (dead or doomed):
            if round_ == 1:
                _found_nobody(game, rule)
            break
        uids = [p.uid for p in dead] + [p.uid for p, _ in doomed]
        if round_ == 1:
            game.emit(HpCheck, rule=rule, dead=uids)
        else:
            game.emit(HpCheck, rule=rule, dead=uids, round=round_)
        for perm in dead:
            destroy(game, perm, "hp", rule=rule, components=components)
        for perm, why in doomed:
            destroy(game, perm, why.cause, rule=why.rule,
                    components=components and why.components)
        died += dead
        died += [p for p, _ in doomed]
    check_players(game)
    return died


_uid = attrgetter("uid")


def _found_nobody(game: GameState, rule: str) -> None:
    """Log a check that found nobody (one empty round), unless nobody would receive it."""
    log = game.log
    if HpCheck in log.quiet:  # not built
        log._emitted += 1  # log.skip(), without a call (hot)
    else:
        game.emit(HpCheck, rule=rule, dead=[])


def lethal(game: GameState, dead: list[Permanent]) -> list[tuple[Permanent, Any]]:
    """The permanents the ``lethal`` hook names (D-lethal), besides those already ``dead``,
    each with its reason; in timestamp order."""
    doomed: dict[int, tuple[Permanent, Any]] = {}
    for named in call(game, "lethal", {"game": game}):
        for perm, why in named:
            if perm.uid in game.permanents and perm not in dead:
                doomed.setdefault(perm.uid, (perm, why))
    return [doomed[uid] for uid in sorted(doomed)]  # stable: by timestamp


def check_players(game: GameState) -> None:
    """K 3.12: a player at 0 Ép or below loses; both at once: a draw (D-both-lose)."""
    for player in game.players:
        if player.hp <= 0:
            break
    else:
        return  # the common case, without a list made
    losers = [p.index for p in game.players if p.hp <= 0]
    if losers and not game.over:
        end_game(game, None if len(losers) == 2 else game.opponent(losers[0]), "hp", rule="3.12")
