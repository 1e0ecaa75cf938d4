"""Changes: the only code that mutates a game's state.  Each change logs its event.

The functions take the game first; :class:`hkk.Game` offers each as a method
(``game.damage(...)``), which is how rules and sets call them.  Simultaneous moments (29.4.2,
41.4) are :func:`moment`: inside one, changes that stop at a limit net out and the limit
applies once at the end (D-moment-nets).  What stays in force - the sums of modifiers, static
abilities, lasting effects - is :mod:`hkk._continuous`; its names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from hkk._characteristics import hp, static_applies
from hkk._conditions import holds
from hkk._continuous import (
    _switch_static,
    _watch_condition,
    add_effect,
    count_effect,
    count_static,
    dispel,
    end_effects,
    new_uid,
    refresh_statics,
    start_waiting_effects,
)
from hkk._errors import GameOver, RuleViolation
from hkk._forward import Stop
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
    from hkk._view import GameState

__all__ = ["add_counters", "add_effect", "begin_moment", "count_effect", "count_static", "damage",
           "destroy", "dispel", "draw", "end_effects", "end_game", "end_moment", "enter_play",
           "extract_components", "gain_components", "gain_vp",
           "give_defence_bonus", "heal", "index_abilities", "lose_vp", "moment",
           "new_uid", "pay_components", "refresh_statics", "remove_counters",
           "remove_defence_bonus", "restore", "start_waiting_effects"]


# -- entering and leaving play ----------------------------------------------------------------

def play_card(game: GameState, player: int, card_id: str) -> Permanent | None:
    """Play a card from hand (8.1), paying its cost: a spell's effects resolve and it goes to
    the graveyard (None is returned), any other card enters play (its permanent is returned;
    the caller runs its "enters play" items, ``game.run_entry_triggers``).  Refused, with
    nothing changed, unless the ``playable`` hook (``game.playable``) allows it.

    A spell's frame, ``["spell", answers, player, card id]``: choosing its targets changes
    nothing, so a decision there is reached again by choosing again with the answers given
    (the card, out of the hand and not yet in the graveyard, is the frame's)."""
    p = game.players[player]
    machine = game.machine
    if machine.next_is("spell"):  # going back: paid, choosing its targets
        frame = machine.frame(["spell"])
    else:
        step = game.step
        if step is not None and step.no_hand_play:
            raise RuleViolation("29.4.6", f"player {player} cannot play {card_id} from hand "
                                "during the preparation phase")
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
        if card.kind != "spell":
            return enter_play(game, player, card_id)
        frame = machine.frame(["spell", [], player, card_id])
    region, replayed = machine.region, machine.replayed
    machine.region, machine.replayed = frame[1], 0
    try:
        game.resolve_spell(player, card_id)
    except Stop:
        raise
    except BaseException:  # its effect ended the game (GameOver): no card leaves every zone
        p.graveyard.append(card_id)
        raise
    machine.region, machine.replayed = region, replayed
    p.graveyard.append(card_id)
    machine.leave()
    return None


def enter_play(game: GameState, player: int, card_id: str, zone: str | None = None,
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


def index_abilities(game: GameState, perm: Permanent) -> None:
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
            # a new list, never one changed in place: a copy of the game shares the lists
            # until it reads them (hkk._clone.LazyAbilities)
            at = game.abilities_at
            at[ability.timing] = [*at.get(ability.timing, ()),
                                  game.ability_item(perm, index, ability)]
            game.abilities_version += 1


def _leave_play(game: GameState, perm: Permanent) -> None:
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


def destroy(game: GameState, perm: Permanent, cause: str, *, rule: str | None = None,
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


def extract_components(game: GameState, offer: ExtractionOffer) -> None:
    """The offer's player takes the dead creature's monster components (D-components-window)."""
    game.offers.remove(offer)
    gain_components(game, offer.player, offer.count, source=f"{offer.card_id}#{offer.uid}")
    game.emit(ComponentsExtracted, player=offer.player, card=offer.card_id, uid=offer.uid,
              amount=offer.count)


# -- the game's end (K 3.12) --------------------------------------------------------------------

def end_game(game: GameState, winner: int | None, reason: str, rule: str | None = None) -> None:
    game.over = True
    game.winner = winner
    game.emit(GameEnded, winner=winner, reason=reason, rule=rule)
    raise GameOver(reason)


# -- players and permanents ---------------------------------------------------------------------

def damage(game: GameState, target: Permanent | Player, amount: int, source: str | None = None,
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
    # the turn (41.3 restores it) and its killer if it dies of it (D-trigger-killer): one line
    target.damaged_turn, game.triggers.last_hit[target.uid] = game.turn, (source_uid, game.turn)
    game.emit(Damaged, uid=target.uid, card=target.card.id, amount=amount, source=source,
              source_uid=source_uid, after=hp(target))


def heal(game: GameState, target: Permanent | Player, amount: int,
         source: str | None = None) -> None:
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


def restore(game: GameState, perm: Permanent, rule: str) -> None:
    """Back to max Ép / Sp (41.3)."""
    if perm.damage_taken:
        perm.damage_taken = 0
        game.emit(Restored, uid=perm.uid, card=perm.card.id, after=hp(perm), rule=rule)


def gain_vp(game: GameState, player: int, amount: int, source: str | None = None) -> None:
    game.players[player].vp += amount
    game.emit(VpGained, player=player, amount=amount, source=source,
              after=game.players[player].vp)


def lose_vp(game: GameState, player: int, amount: int, source: str | None = None) -> None:
    p = game.players[player]
    lost = amount if game.in_moment else min(amount, p.vp)  # a moment nets out: end_moment
    p.vp -= lost
    game.emit(VpLost, player=player, amount=lost, source=source, after=p.vp)


def gain_components(game: GameState, player: int, count: int, source: str | None = None) -> None:
    game.players[player].components += count
    game.emit(ComponentsGained, player=player, amount=count, source=source)


def pay_components(game: GameState, player: int, count: int, source: str | None = None) -> None:
    p = game.players[player]
    paid = count if game.in_moment else min(count, p.components)  # nets out: end_moment
    p.components -= paid
    game.emit(ComponentsPaid, player=player, amount=paid, source=source)


def draw(game: GameState, player: int, count: int = 1, source: str | None = None) -> None:
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


def add_counters(game: GameState, perm: Permanent, counter: str, count: int,
                 source: str | None = None) -> None:
    perm.counters[counter] = perm.counters.get(counter, 0) + count
    game.emit(CountersAdded, uid=perm.uid, card=perm.card.id, counter=counter, amount=count,
              after=perm.counters[counter], source=source)


def remove_counters(game: GameState, perm: Permanent, counter: str, count: int,
                    source: str | None = None) -> None:
    have = perm.counters.get(counter, 0)
    removed = count if game.in_moment else min(have, count)  # nets out: end_moment
    if have - removed:
        perm.counters[counter] = have - removed
    else:
        perm.counters.pop(counter, None)
    game.emit(CountersRemoved, uid=perm.uid, card=perm.card.id, counter=counter,
              amount=removed, after=have - removed, source=source)


def give_defence_bonus(game: GameState, perm: Permanent, amount: int,
                       source: str | None = None) -> None:
    perm.defence_bonus += amount
    game.emit(DefenceBonusGained, uid=perm.uid, card=perm.card.id, amount=amount,
              source=source)


def remove_defence_bonus(game: GameState, perm: Permanent, rule: str | None = None,
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

def begin_moment(game: GameState) -> None:
    """From now until :func:`end_moment` changes are one moment: none of them may depend on
    the order they are applied in, so the primitives that stop at zero (heal, lose VP, pay
    components, remove counters) add up freely and the limits apply once at the end, a
    defence bonus is lost after every gain of the moment, and a permanent destroyed at it
    leaves play when it ends: every item of the moment sees it in play (D-moment-leaves)."""
    game.in_moment = True


def end_moment(game: GameState) -> None:
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
def moment(game: GameState) -> Iterator[None]:
    """``with game.moment(): ...``: the changes of the body are one simultaneous moment
    (29.4.2, 41.4); the limits apply when it ends, even if the body raises."""
    begin_moment(game)
    try:
        yield
    finally:
        end_moment(game)
