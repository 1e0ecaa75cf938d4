"""Invariants: states no game may ever be in, whatever its sets do.

``hkk verify`` checks them in every game it plays (third-party sets' bugs show here first); a
normal game does not pay for them.  :func:`watch` makes a game check, after every Ép check
(where ``check_hp`` returns), that the board is settled and no player's VP or components are
negative; :func:`check_finished` checks the ended game's log and zones.  A broken invariant
raises :class:`~hkk.InvariantViolation` naming it, the turn, the step and the card.

The invariants (names as in the messages):

``hp-settled``
    after an Ép check no permanent with Ép (Sp) <= 0 is in play (29.4.10, [D] D-hp-check);
``lethal-settled``
    nor one a ``lethal`` hook names (e.g. poison, K 121.1);
``not-negative``
    no player's VP or monster components are below zero (outside a simultaneous moment);
``zones``
    every card of the players' decks is in exactly one zone at the end - deck, hand, in play,
    graveyard or void: none vanished, none doubled;
``effects``
    every effect that started either ended once or is still in force; none ended unstarted;
``one-game-end``
    exactly one ``game_over`` event, the last one, agreeing with the game's winner.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hkk._checks import lethal
from hkk._errors import GameOver, InvariantViolation
from hkk._hookcall import implementations

__all__ = ["check_finished", "check_settled", "watch"]


def _fail(game: Any, invariant: str, message: str, card: str | None = None) -> None:
    raise InvariantViolation(invariant, message, turn=game.turn, step=game.log.step,
                             card=card)


def watch(game: Any) -> Any:
    """Make ``game`` check :func:`check_settled` after every Ép check.  The check is an instance
    attribute wrapping ``Game.check_hp``, so games not watched run exactly as before and the
    event log is unchanged.  Returns the game."""
    check_hp = game.check_hp
    game.invariant_decks = [Counter(p.deck) + Counter(p.hand) for p in game.players]

    def checked(*args: Any, **kwargs: Any) -> Any:
        try:
            result = check_hp(*args, **kwargs)
        except GameOver:  # the check ended the game: its board must be settled all the same
            check_settled(game)
            raise
        check_settled(game)
        return result

    game.check_hp = checked
    return game


def check_settled(game: Any) -> None:
    """The state right after an Ép check (``hp-settled``, ``lethal-settled``,
    ``not-negative``)."""
    if game.in_moment:
        return
    hp = game.hp
    for perm in game.permanents.values():
        value = hp(perm)
        if value <= 0:
            _fail(game, "hp-settled", f"{perm.card.id}#{perm.uid} (player {perm.controller + 1}) "
                  f"is still in play with {'Sp' if perm.kind == 'building' else 'Ép'} {value} "
                  "after an Ép check", card=perm.card.id)
    if implementations(game, "lethal"):
        for perm, why in lethal(game, []):
            _fail(game, "lethal-settled", f"{perm.card.id}#{perm.uid} is still in play after "
                  f"an Ép check though a lethal hook names it ({why.cause}, {why.rule})",
                  card=perm.card.id)
    for player in game.players:
        if player.vp < 0 or player.components < 0:
            _fail(game, "not-negative", f"player {player.index + 1} has {player.vp} VP and "
                  f"{player.components} monster components")


def check_finished(game: Any) -> None:
    """The ended game (``one-game-end``, ``zones``, ``effects``, ``not-negative``)."""
    events = list(game.log)
    ends = [e for e in events if e.kind == "game_over"]
    if len(ends) != 1:
        _fail(game, "one-game-end", f"{len(ends)} game_over events")
    if events[-1] is not ends[0] or not game.over or ends[0]["winner"] != game.winner:
        _fail(game, "one-game-end", f"game_over is event {ends[0].seq} of {len(events)}, "
              f"game.over={game.over}, winner {game.winner} vs {ends[0]['winner']}")
    for player in game.players:
        if player.vp < 0 or player.components < 0:
            _fail(game, "not-negative", f"player {player.index + 1} has {player.vp} VP and "
                  f"{player.components} monster components")
    _check_zones(game)
    _check_effects(game, events)


def _check_zones(game: Any) -> None:
    decks = getattr(game, "invariant_decks", None)
    if decks is None:
        return  # not watched from the start: the decks it began with are not known
    in_play: list[Counter[str]] = [Counter() for _ in game.players]
    for perm in game.permanents.values():
        in_play[perm.owner][perm.card.id] += 1
    for player, start in zip(game.players, decks, strict=True):
        now = (Counter(player.deck) + Counter(player.hand) + Counter(player.graveyard)
               + Counter(player.void) + in_play[player.index])
        if now != start:
            missing = sorted((start - now).elements())
            extra = sorted((now - start).elements())
            card = (missing or extra)[0]
            _fail(game, "zones", f"player {player.index + 1}'s cards are not each in exactly "
                  f"one zone: missing from every zone {missing}, more than once {extra}",
                  card=card)


def _check_effects(game: Any, events: list[Any]) -> None:
    started: dict[int, Any] = {}
    ended: set[int] = set()
    for event in events:
        if event.kind == "effect_started":
            started[event["effect"]] = event
        elif event.kind == "effect_ended" and not event.get("partial"):
            uid = event["effect"]
            if uid not in started or uid in ended:
                _fail(game, "effects", f"effect {uid} ended "
                      + ("twice" if uid in ended else "without having started"))
            ended.add(uid)
    in_force = {e.uid for e in game.effects if e.in_force}
    for uid, event in started.items():
        if uid not in ended and uid not in in_force:
            _fail(game, "effects", f"effect {uid} ({event.get('stat')} {event.amount:+d} "
                  f"from {event.get('source')}) started and neither ended nor is in force")
    for uid in in_force - set(started):
        _fail(game, "effects", f"effect {uid} is in force but never started")
