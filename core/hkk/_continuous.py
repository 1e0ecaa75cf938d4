"""Continuous effects: what stays in force and keeps the derived values right, apart from the
one-off changes of :mod:`hkk._changes` (which re-exports every name here, as :class:`hkk.Game`'s
methods call them).  The sums of modifiers, static abilities switched on and off by their
conditions (D-conditions), and lasting effects: made, waiting for preparation stage 2 (29.4.5),
ended at one moment (29.4.4, 41.4, D-dispel).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from hkk._characteristics import static_applies
from hkk._conditions import events_changing, holds
from hkk._effects import Duration, Effect
from hkk._errors import BadArgument
from hkk._state import Permanent, Player
from hkk.events import EffectCreated, EffectEnded, EffectStarted, Event

if TYPE_CHECKING:
    from hkk._view import GameState


# The timestamp counter effects share with permanents (hkk._changes.enter_play).
def new_uid(game: GameState) -> int:
    """The next uid: permanents' and effects' timestamps."""
    uid = game.next_uid
    game.next_uid += 1
    return uid


# -- the sums of modifiers (a cache of the derivation, see hkk._characteristics) -----------------

def count_static(game: GameState, source: Permanent, mod: Any, sign: int) -> None:
    """Add (or take back) a static ability's modifier to every permanent it affects now."""
    for perm in game.permanents.values():
        if static_applies(source, mod.target, perm):
            perm.mods[mod.stat] = perm.mods.get(mod.stat, 0) + sign * mod.by
            game.hp_changed.add(perm)


def count_effect(game: GameState, effect: Effect, sign: int) -> None:
    """Add (or take back) an effect's modifier to the sums of the permanents it affects."""
    for uid in effect.targets:
        perm = game.permanents.get(uid)
        if perm is not None:
            perm.mods[effect.stat] = perm.mods.get(effect.stat, 0) + sign * effect.amount
            game.hp_changed.add(perm)


# -- static abilities (D-conditions) -----------------------------------------------------------

def _switch_static(game: GameState, source: Permanent, effect: Any, sign: int) -> None:
    """Put a static ability's effect in force (+1) or take it out (-1): a modifier is counted
    in the sums, a prevention is listed for :mod:`hkk._prevention`."""
    if effect.do == "prevent":
        if sign > 0:
            game.preventions.append((source, effect))
            game.preventions.sort(key=_static_order)
        else:
            game.preventions = [p for p in game.preventions
                                if not (p[0] is source and p[1] is effect)]
        return
    if sign > 0:
        game.statics.append((source, effect))
        game.statics.sort(key=_static_order)
    else:
        game.statics = [s for s in game.statics if not (s[0] is source and s[1] is effect)]
    count_static(game, source, effect, sign)


def _static_order(entry: tuple[Permanent, Any]) -> tuple[int, int]:
    """Statics stay in timestamp order, then in card order, however often a condition switches
    one on (a loaded game lists them so; the first prevention found is the oldest)."""
    source, effect = entry
    effects = [e for a in source.card.abilities if a.kind == "static" for e in a.effects]
    return source.uid, next(i for i, e in enumerate(effects) if e is effect)


def _watch_condition(game: GameState, condition: Any) -> None:
    """Re-read the conditional statics after every event that may change what ``condition``
    reads (one listener per event kind, for the whole game)."""
    kinds = events_changing(condition) - game.condition_events
    if kinds:
        game.condition_events |= kinds
        listen_to_conditions(game, kinds)


def listen_to_conditions(game: GameState, kinds: Iterable[type[Event]]) -> None:
    """Re-read the conditional statics after every event of ``kinds`` (a copy of a game,
    :mod:`hkk._clone`, listens again to the kinds its original listened to)."""
    ordered = sorted(kinds, key=lambda k: k.kind)
    game.log.subscribe(lambda _event: refresh_statics(game), kinds=ordered, own=True)


def refresh_statics(game: GameState) -> None:
    """Switch every conditional static ability on or off as its condition now reads
    (D-conditions); what it modifies is counted again at once, so derived values stay right."""
    for entry in game.conditional_statics:
        source, effect, condition, on = entry
        now = holds(game, condition, source.controller)
        if now != on:
            entry[3] = now
            _switch_static(game, source, effect, +1 if now else -1)


# -- lasting effects ----------------------------------------------------------------------------

def add_effect(game: GameState, stat: str, amount: int, duration: Duration | str, *,
               targets: Iterable[Permanent] = (), player: int | None = None,
               controller: int | None = None, source: str | None = None,
               turns: int | None = None) -> Effect:
    """Create a lasting modifier.  Targets are fixed now: permanents that enter play later
    are not affected (scope, K 99.5).  A "this turn" effect made before preparation stage 2
    waits until its beginning, except VP-regeneration modifiers (29.4.5).  A ``turns``
    duration lasts ``turns`` turns, this one included (D-counted-turns)."""
    duration = Duration(duration)
    ends_turn = None
    if duration is Duration.TURNS:
        if not turns or turns < 1:
            raise BadArgument(f"a 'turns' duration needs turns >= 1, not {turns!r}")
        ends_turn = _counted_end(game, turns, controller)
    elif duration is Duration.UNTIL_OWN_PREPARATION and controller == game.active \
            and _own_expiry_ahead(game):
        # D-own-preparation: made in his own preparation phase before this turn's expiry
        # moment (stage 1): "a következő saját" is his next turn's (turns alternate, 41.6)
        ends_turn = game.turn + 2
    step = game.step
    waits = (duration is Duration.THIS_TURN and stat != "vp_regen" and step is not None
             and step.this_turn_waits)
    effect = Effect(new_uid(game), stat, amount, duration,
                    targets=frozenset(t.uid for t in targets), player=player,
                    controller=controller, source=source, in_force=not waits,
                    ends_turn=ends_turn)
    game.effects.append(effect)
    if effect.in_force:
        count_effect(game, effect, +1)
    game.emit(EffectCreated if waits else EffectStarted, **effect.describe())
    return effect


def _own_expiry_ahead(game: GameState) -> bool:
    """Whether this turn's moment that ends "until your own preparation" effects is still to
    come (``step_index`` is the step after the one running; None between turns)."""
    index = game.step_index
    return index is not None and any(Duration.UNTIL_OWN_PREPARATION.value in step.ends
                                     for step in game.turn_steps[index:])


def _counted_end(game: GameState, turns: int, controller: int | None) -> int:
    """The turn in whose end stage 4 a counted effect ends (D-counted-turns): every turn counts,
    the one it is made in included; with ``Rulings(counted_turns="own")`` only its controller's
    own turns count (turns alternate, 41.6)."""
    if game.rulings.counted_turns == "own" and controller is not None:
        first = game.turn if controller == game.active else game.turn + 1
        return first + 2 * (turns - 1)
    return game.turn + turns - 1


def end_effects(game: GameState, durations: Iterable[Duration], rule: str,
                only_controller: int | None = None) -> list[Effect]:
    """End the effects of these durations whose time is up, at one moment (29.4.4, 41.4): they
    are removed together, so no order between them exists.  "Until your own preparation" ends
    only the active player's (29.4.4); counted ones only when their last turn is over
    (D-counted-turns); ``only_controller`` limits the others (D-until-preparation)."""
    durations = frozenset(durations)
    turn, active = game.turn, game.active

    def due(effect: Effect) -> bool:
        duration = effect.duration
        if duration not in durations or not effect.in_force:
            return False
        if duration is Duration.TURNS:
            return effect.ends_turn is not None and effect.ends_turn <= turn
        if duration is Duration.UNTIL_OWN_PREPARATION:  # D-own-preparation
            return effect.controller == active and (effect.ends_turn is None
                                                    or effect.ends_turn <= turn)
        return only_controller is None or effect.controller == only_controller

    return _end(game, [e for e in game.effects if due(e)], rule)


def dispel(game: GameState, rule: str, *, durations: Iterable[Duration] = (),
           on: Permanent | Player | Iterable[Permanent | Player] | None = None) -> list[Effect]:
    """End lasting effects now, all at one moment (D-dispel): those of ``durations`` (any, if
    none given) that affect ``on`` - a permanent, a player (his VP-regeneration effects) or
    several of them; any, if None.  An effect that also affects permanents not in ``on`` ends
    only for those in it and goes on for the others (its ``effect_ended`` is ``partial``).
    Effects that wait for preparation stage 2 (29.4.5) have not started and are left alone."""
    durations = frozenset(durations)
    targets = None if on is None else [on] if isinstance(on, (Permanent, Player)) else list(on)
    uids = frozenset(t.uid for t in targets or () if isinstance(t, Permanent))
    players = frozenset(t.index for t in targets or () if isinstance(t, Player))
    ending: list[Effect] = []
    partly: dict[int, frozenset[int]] = {}
    for effect in game.effects:
        if not effect.in_force or (durations and effect.duration not in durations):
            continue
        if targets is not None:
            if effect.player is not None:
                if effect.player not in players:
                    continue
            else:
                hit = effect.targets & uids
                if not hit:
                    continue
                if hit != effect.targets:
                    partly[effect.uid] = hit
        ending.append(effect)
    return _end(game, ending, rule, partly)


def _end(game: GameState, ending: list[Effect], rule: str,
         partly: dict[int, frozenset[int]] | None = None) -> list[Effect]:
    """End ``ending`` at one moment: every one is removed (or, in ``partly``, taken off those
    permanents only) before any is logged, so no order between them exists and whatever
    listens to ``effect_ended`` sees them all gone.  One event per effect, naming the
    permanents it no longer affects."""
    if not ending:
        return ending
    partly = partly or {}
    gone = {e.uid for e in ending if e.uid not in partly}
    if gone:
        game.effects = [e for e in game.effects if e.uid not in gone]
    for effect in ending:
        taken = partly.get(effect.uid)
        if taken is None:
            count_effect(game, effect, -1)
            continue
        for uid in taken:
            perm = game.permanents.get(uid)
            if perm is not None:
                perm.mods[effect.stat] = perm.mods.get(effect.stat, 0) - effect.amount
                game.hp_changed.add(perm)
        effect.targets = effect.targets - taken
    for effect in sorted(ending, key=lambda e: e.uid):
        taken = partly.get(effect.uid)
        if taken is None:
            game.emit(EffectEnded, effect=effect.uid, stat=effect.stat,
                      targets=sorted(effect.targets), rule=rule)
        else:
            game.emit(EffectEnded, effect=effect.uid, stat=effect.stat,
                      targets=sorted(taken), rule=rule, partial=True)
    return ending


def start_waiting_effects(game: GameState, rule: str) -> None:
    for effect in game.effects:
        if not effect.in_force:
            effect.in_force = True
            count_effect(game, effect, +1)
            game.emit(EffectStarted, **effect.describe(), rule=rule)
