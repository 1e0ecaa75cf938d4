"""Changes: the only code that mutates a game's state.  Each change logs its event.

The functions take the game first; :class:`hkk.Game` offers each as a method
(``game.damage(...)``), which is how rules and sets call them.  Simultaneous moments (29.4.2,
41.4) are :func:`moment`: inside one, changes that stop at a limit net out and the limit
applies once at the end (D-moment-nets).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from hkk._characteristics import hp, static_applies
from hkk._conditions import events_changing, holds
from hkk._effects import Duration, Effect
from hkk._errors import GameOver, RuleViolation
from hkk._hookcall import first
from hkk._state import BUILDINGS, RESERVE, ExtractionOffer, Permanent, Player
from hkk.events import (
    CardDrawn,
    CardPlayed,
    ComponentsExtracted,
    ComponentsGained,
    ComponentsPaid,
    CountersAdded,
    CountersRemoved,
    Damaged,
    DefenceBonusGained,
    DefenceBonusLost,
    Destroyed,
    Died,
    DrawFailed,
    EffectCreated,
    EffectEnded,
    EffectStarted,
    EnteredPlay,
    GameEnded,
    Healed,
    PlayerDamaged,
    PlayerHealed,
    Restored,
    VpGained,
    VpLost,
)

if TYPE_CHECKING:
    from hkk._game import Game

__all__ = ["add_counters", "add_effect", "begin_moment", "count_effect", "count_static", "damage",
           "destroy", "dispel", "draw", "end_effects", "end_game", "end_moment", "enter_play",
           "extract_components", "gain_components", "gain_vp",
           "give_defence_bonus", "heal", "index_abilities", "lose_vp", "moment",
           "new_uid", "pay_components", "refresh_statics", "remove_counters",
           "remove_defence_bonus", "restore", "start_waiting_effects"]


def new_uid(game: Game) -> int:
    """The next uid: permanents' and effects' timestamps."""
    uid = game.next_uid
    game.next_uid += 1
    return uid


# -- the sums of modifiers (a cache of the derivation, see hkk._characteristics) -----------------

def count_static(game: Game, source: Permanent, mod: Any, sign: int) -> None:
    """Add (or take back) a static ability's modifier to every permanent it affects now."""
    for perm in game.permanents.values():
        if static_applies(source, mod.target, perm):
            perm.mods[mod.stat] = perm.mods.get(mod.stat, 0) + sign * mod.by
            game.hp_changed.add(perm)


def count_effect(game: Game, effect: Effect, sign: int) -> None:
    """Add (or take back) an effect's modifier to the sums of the permanents it affects."""
    for uid in effect.targets:
        perm = game.permanents.get(uid)
        if perm is not None:
            perm.mods[effect.stat] = perm.mods.get(effect.stat, 0) + sign * effect.amount
            game.hp_changed.add(perm)


# -- entering and leaving play ----------------------------------------------------------------

def play_card(game: Game, player: int, card_id: str) -> Permanent | None:
    """Play a card from hand (8.1), paying its cost: a spell's effects resolve and it goes to
    the graveyard (None is returned), any other card enters play (its permanent is returned;
    the caller runs its "enters play" items, ``game.run_entry_triggers``).  Refused, with
    nothing changed, unless the ``playable`` hook (``game.playable``) allows it."""
    step = game.step
    if step is not None and step.no_hand_play:
        raise RuleViolation("29.4.6", f"player {player} cannot play {card_id} from hand "
                            "during the preparation phase")
    p = game.players[player]
    if card_id not in p.hand:
        raise RuleViolation("8.1", f"{card_id} is not in player {player}'s hand")
    if card_id not in (first(game, "playable", player=player) or ()):  # game.playable()
        raise RuleViolation("8.1", f"player {player} cannot play {card_id} now "
                            f"(cost {game.cards[card_id].cost}, VP {p.vp})")
    card = game.cards[card_id]
    p.hand.remove(card_id)
    p.vp -= card.cost.vp
    p.components -= card.cost.components
    game.emit(CardPlayed, player=player, card=card_id, vp=card.cost.vp,
              components=card.cost.components)
    if card.kind == "spell":
        try:
            game.resolve_spell(player, card_id)
        finally:  # even when its effect ends the game (GameOver): no card leaves every zone
            p.graveyard.append(card_id)
        return None
    return enter_play(game, player, card_id)


def enter_play(game: Game, player: int, card_id: str, zone: str | None = None,
               *, active: bool = False) -> Permanent:
    card = game.cards[card_id]
    if card.kind not in ("creature", "building"):
        raise ValueError(f"{card_id} is a {card.kind}, not a permanent")
    zone = zone or (RESERVE if card.kind == "creature" else BUILDINGS)
    perm = Permanent(new_uid(game), card, player, zone, game.turn)
    perm.active = active
    game.permanents[perm.uid] = perm
    index_abilities(game, perm)
    game.emit(EnteredPlay, controller=player, card=card_id, uid=perm.uid, zone=zone,
              active=active)
    return perm


def index_abilities(game: Game, perm: Permanent) -> None:
    """Index a permanent just put in play: its abilities by timing (as the pending items the
    engine's card interpreter makes of them, ``game.ability_item``), its static modifiers
    counted in the sums (loading a save calls this too, to rebuild what is derived)."""
    game.hp_changed.add(perm)  # the next Ép check looks at the newcomer (it may have none)
    for source, mod in game.statics:  # static abilities in play affect the newcomer too
        if static_applies(source, mod.target, perm):
            perm.mods[mod.stat] = perm.mods.get(mod.stat, 0) + mod.by
    for index, ability in enumerate(perm.card.abilities):
        if ability.kind == "static":
            condition = ability.condition
            for effect in ability.effects:
                on = condition is None or holds(game, condition, perm.controller)
                if condition is not None:  # D-conditions: followed as the state changes
                    game.conditional_statics.append([perm, effect, condition, on])
                    _watch_condition(game, condition)
                if on:
                    _switch_static(game, perm, effect, +1)
        elif ability.kind != "triggered":  # triggers are watched by hkk._triggers
            game.abilities_at.setdefault(ability.timing, []).append(
                game.ability_item(perm, index, ability))
            game.abilities_version += 1


def _switch_static(game: Game, source: Permanent, effect: Any, sign: int) -> None:
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


def _watch_condition(game: Game, condition: Any) -> None:
    """Re-read the conditional statics after every event that may change what ``condition``
    reads (one listener per event kind, for the whole game)."""
    kinds = events_changing(condition) - game.condition_events
    if kinds:
        game.condition_events |= kinds
        ordered = sorted(kinds, key=lambda k: k.kind)
        game.log.subscribe(lambda _event: refresh_statics(game), kinds=ordered)


def refresh_statics(game: Game) -> None:
    """Switch every conditional static ability on or off as its condition now reads
    (D-conditions); what it modifies is counted again at once, so derived values stay right."""
    for entry in game.conditional_statics:
        source, effect, condition, on = entry
        now = holds(game, condition, source.controller)
        if now != on:
            entry[3] = now
            _switch_static(game, source, effect, +1 if now else -1)


def _leave_play(game: Game, perm: Permanent) -> None:
    del game.permanents[perm.uid]
    if perm.card.abilities:
        for source, mod in game.statics:
            if source is perm:
                count_static(game, perm, mod, -1)
        game.statics = [s for s in game.statics if s[0] is not perm]
        if game.preventions:
            game.preventions = [p for p in game.preventions if p[0] is not perm]
        if game.conditional_statics:
            game.conditional_statics = [c for c in game.conditional_statics if c[0] is not perm]
        for timing, entries in game.abilities_at.items():
            if any(e.source is perm for e in entries):
                game.abilities_at[timing] = [e for e in entries if e.source is not perm]
                game.abilities_version += 1


def destroy(game: Game, perm: Permanent, cause: str, *, rule: str | None = None,
            components: bool = True, to: str = "graveyard") -> None:
    """Put a permanent from play into its owner's graveyard (or void).  The ``left_play`` hook
    says how many monster components its opponent is offered (the built-in
    ``hkk.rules.components``: until the end of the phase), none where ``components`` is False
    (sacrificed as a cost [R], prep stage 2 29.4.11, deferred check [D]).  Inside a
    simultaneous moment it leaves play when the moment ends (D-moment-leaves)."""
    if perm.uid not in game.permanents:
        return
    if game.in_moment:  # 29.4.2, 41.4: it leaves play when the moment ends (end_moment)
        game.leaving_play.append((perm, cause, rule, components, to))
        return
    _leave_play(game, perm)
    owner = game.players[perm.owner]
    (owner.void if to == "void" else owner.graveyard).append(perm.card.id)
    offered = first(game, "left_play", permanent=perm, components=components)
    game.emit(Died if perm.kind == "creature" else Destroyed, card=perm.card.id,
              uid=perm.uid, controller=perm.controller, cause=cause, to=to, rule=rule,
              components_offered=offered or 0)


def extract_components(game: Game, offer: ExtractionOffer) -> None:
    """The offer's player takes the dead creature's monster components (D-components-window)."""
    game.offers.remove(offer)
    gain_components(game, offer.player, offer.count, source=f"{offer.card_id}#{offer.uid}")
    game.emit(ComponentsExtracted, player=offer.player, card=offer.card_id, uid=offer.uid,
              amount=offer.count)


# -- the game's end (K 3.12) --------------------------------------------------------------------

def end_game(game: Game, winner: int | None, reason: str, rule: str | None = None) -> None:
    game.over = True
    game.winner = winner
    game.emit(GameEnded, winner=winner, reason=reason, rule=rule)
    raise GameOver(reason)


# -- players and permanents ---------------------------------------------------------------------

def damage(game: Game, target: Permanent | Player, amount: int, source: str | None = None,
           source_uid: int | None = None) -> None:
    """``source``: what dealt it (a label); ``source_uid``: the permanent whose ability or combat
    damage dealt it, if one did ("the source of the damage" of triggers, D-trigger-source)."""
    if amount <= 0:
        return
    if isinstance(target, Player):
        target.hp -= amount
        game.emit(PlayerDamaged, player=target.index, amount=amount, source=source,
                  after=target.hp)
        return
    if target.uid not in game.permanents:
        return
    target.damage_taken += amount
    game.hp_changed.add(target)
    target.damaged_turn = game.turn
    game.emit(Damaged, uid=target.uid, card=target.card.id, amount=amount, source=source,
              source_uid=source_uid, after=hp(target))


def heal(game: Game, target: Permanent | Player, amount: int, source: str | None = None) -> None:
    if isinstance(target, Player):
        target.hp += amount
        game.emit(PlayerHealed, player=target.index, amount=amount, source=source)
        return
    # 29.4.2, 41.4: inside a simultaneous moment heals and damage net out whatever order
    # the items are applied in; end_moment clamps at max Ép.
    healed = amount if game.in_moment else min(amount, target.damage_taken)
    if healed and target.uid in game.permanents:
        target.damage_taken -= healed
        game.emit(Healed, uid=target.uid, card=target.card.id, amount=healed, source=source)


def restore(game: Game, perm: Permanent, rule: str) -> None:
    """Back to max Ép / Sp (41.3)."""
    if perm.damage_taken:
        perm.damage_taken = 0
        game.emit(Restored, uid=perm.uid, card=perm.card.id, after=hp(perm), rule=rule)


def gain_vp(game: Game, player: int, amount: int, source: str | None = None) -> None:
    game.players[player].vp += amount
    game.emit(VpGained, player=player, amount=amount, source=source,
              after=game.players[player].vp)


def lose_vp(game: Game, player: int, amount: int, source: str | None = None) -> None:
    p = game.players[player]
    lost = amount if game.in_moment else min(amount, p.vp)  # a moment nets out: end_moment
    p.vp -= lost
    game.emit(VpLost, player=player, amount=lost, source=source, after=p.vp)


def gain_components(game: Game, player: int, count: int, source: str | None = None) -> None:
    game.players[player].components += count
    game.emit(ComponentsGained, player=player, amount=count, source=source)


def pay_components(game: Game, player: int, count: int, source: str | None = None) -> None:
    p = game.players[player]
    paid = count if game.in_moment else min(count, p.components)  # nets out: end_moment
    p.components -= paid
    game.emit(ComponentsPaid, player=player, amount=paid, source=source)


def draw(game: Game, player: int, count: int = 1, source: str | None = None) -> None:
    p = game.players[player]
    for _ in range(count):
        if not p.deck:
            game.emit(DrawFailed, player=player, source=source)
            if game.rulings.empty_deck_loses:
                end_game(game, game.opponent(player), "empty_deck", rule="D-empty-deck")
            return
        card_id = p.deck.pop()
        p.hand.append(card_id)
        game.emit(CardDrawn, player=player, card=card_id, source=source)


def add_counters(game: Game, perm: Permanent, counter: str, count: int,
                 source: str | None = None) -> None:
    perm.counters[counter] = perm.counters.get(counter, 0) + count
    game.emit(CountersAdded, uid=perm.uid, card=perm.card.id, counter=counter, amount=count,
              after=perm.counters[counter], source=source)


def remove_counters(game: Game, perm: Permanent, counter: str, count: int,
                    source: str | None = None) -> None:
    have = perm.counters.get(counter, 0)
    removed = count if game.in_moment else min(have, count)  # nets out: end_moment
    if have - removed:
        perm.counters[counter] = have - removed
    else:
        perm.counters.pop(counter, None)
    game.emit(CountersRemoved, uid=perm.uid, card=perm.card.id, counter=counter,
              amount=removed, after=have - removed, source=source)


def give_defence_bonus(game: Game, perm: Permanent, amount: int,
                       source: str | None = None) -> None:
    perm.defence_bonus += amount
    game.emit(DefenceBonusGained, uid=perm.uid, card=perm.card.id, amount=amount,
              source=source)


def remove_defence_bonus(game: Game, perm: Permanent, rule: str | None = None,
                         source: str | None = None) -> None:
    if game.in_moment:  # losing it comes after every gain of the moment: end_moment
        game.bonus_losses.append((perm, rule, source))
        return
    if perm.defence_bonus:
        lost = perm.defence_bonus
        perm.defence_bonus = 0
        game.hp_changed.add(perm)
        game.emit(DefenceBonusLost, uid=perm.uid, card=perm.card.id, amount=lost, rule=rule,
                  source=source)


# -- simultaneous moments (29.4.2, 41.4) --------------------------------------------------------

def begin_moment(game: Game) -> None:
    """From now until :func:`end_moment` changes are one moment: none of them may depend on
    the order they are applied in, so the primitives that stop at zero (heal, lose VP, pay
    components, remove counters) add up freely and the limits apply once at the end, a
    defence bonus is lost after every gain of the moment, and a permanent destroyed at it
    leaves play when it ends: every item of the moment sees it in play (D-moment-leaves)."""
    game.in_moment = True


def end_moment(game: Game) -> None:
    game.in_moment = False
    for player in game.players:  # one line for both limits: this runs at every moment
        player.vp, player.components = max(player.vp, 0), max(player.components, 0)
    for perm in game.permanents.values():
        if perm.damage_taken < 0:  # healed past max Ép: back to max, not above
            perm.damage_taken = 0
            game.hp_changed.add(perm)
        if perm.counters:  # most permanents have none: no list made for them
            for counter in [c for c, n in perm.counters.items() if n <= 0]:
                del perm.counters[counter]
    losses, game.bonus_losses = game.bonus_losses, []
    for perm, rule, source in losses:
        remove_defence_bonus(game, perm, rule=rule, source=source)
    if game.leaving_play:  # every item saw them in play (29.4.2): now they leave it
        leaving, game.leaving_play = game.leaving_play, []
        for perm, cause, rule, components, to in leaving:
            destroy(game, perm, cause, rule=rule, components=components, to=to)
    if game.conditional_statics:  # the limits above changed numbers without an event
        refresh_statics(game)


@contextmanager
def moment(game: Game) -> Iterator[None]:
    """``with game.moment(): ...``: the changes of the body are one simultaneous moment
    (29.4.2, 41.4); the limits apply when it ends, even if the body raises."""
    begin_moment(game)
    try:
        yield
    finally:
        end_moment(game)


# -- lasting effects ----------------------------------------------------------------------------

def add_effect(game: Game, stat: str, amount: int, duration: Duration | str, *,
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
            raise ValueError("a 'turns' duration needs turns >= 1")
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


def _own_expiry_ahead(game: Game) -> bool:
    """Whether this turn's moment that ends "until your own preparation" effects is still to
    come (``step_index`` is the step after the one running; None between turns)."""
    index = game.step_index
    return index is not None and any(Duration.UNTIL_OWN_PREPARATION.value in step.ends
                                     for step in game.turn_steps[index:])


def _counted_end(game: Game, turns: int, controller: int | None) -> int:
    """The turn in whose end stage 4 a counted effect ends (D-counted-turns): every turn counts,
    the one it is made in included; with ``Rulings(counted_turns="own")`` only its controller's
    own turns count (turns alternate, 41.6)."""
    if game.rulings.counted_turns == "own" and controller is not None:
        first = game.turn if controller == game.active else game.turn + 1
        return first + 2 * (turns - 1)
    return game.turn + turns - 1


def end_effects(game: Game, durations: Iterable[Duration], rule: str,
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


def dispel(game: Game, rule: str, *, durations: Iterable[Duration] = (),
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


def _end(game: Game, ending: list[Effect], rule: str,
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


def start_waiting_effects(game: Game, rule: str) -> None:
    for effect in game.effects:
        if not effect.in_force:
            effect.in_force = True
            count_effect(game, effect, +1)
            game.emit(EffectStarted, **effect.describe(), rule=rule)
