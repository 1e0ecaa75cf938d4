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
from hkk._effects import Duration, Effect
from hkk._errors import GameOver
from hkk._hookcall import expect_count, first
from hkk._state import BUILDINGS, RESERVE, ExtractionOffer, Permanent, Player

if TYPE_CHECKING:
    from hkk._game import Game

__all__ = ["add_counters", "add_effect", "begin_moment", "count_effect", "count_static", "damage",
           "destroy", "draw", "end_effects", "end_game", "end_moment", "enter_play",
           "extract_components", "gain_components", "gain_vp",
           "give_defence_bonus", "heal", "index_abilities", "lose_vp", "moment",
           "new_uid", "pay_components", "remove_counters", "remove_defence_bonus", "restore",
           "start_waiting_effects"]


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


def count_effect(game: Game, effect: Effect, sign: int) -> None:
    """Add (or take back) an effect's modifier to the sums of the permanents it affects."""
    for uid in effect.targets:
        perm = game.permanents.get(uid)
        if perm is not None:
            perm.mods[effect.stat] = perm.mods.get(effect.stat, 0) + sign * effect.amount


# -- entering and leaving play ----------------------------------------------------------------

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
    game.emit("entered_play", player=player, card=card_id, uid=perm.uid, zone=zone,
              active=active)
    return perm


def index_abilities(game: Game, perm: Permanent) -> None:
    """Index a permanent just put in play: its abilities by timing (as the pending items the
    engine's card interpreter makes of them, ``game.ability_item``), its static modifiers
    counted in the sums (loading a save calls this too, to rebuild what is derived)."""
    for source, mod in game.statics:  # static abilities in play affect the newcomer too
        if static_applies(source, mod.target, perm):
            perm.mods[mod.stat] = perm.mods.get(mod.stat, 0) + mod.by
    for index, ability in enumerate(perm.card.abilities):
        if ability.kind == "static":
            for mod in ability.effects:
                game.statics.append((perm, mod))
                count_static(game, perm, mod, +1)
        elif ability.kind != "triggered":  # triggers are watched by hkk._triggers
            game.abilities_at.setdefault(ability.timing, []).append(
                game.ability_item(perm, index, ability))


def _leave_play(game: Game, perm: Permanent) -> None:
    del game.permanents[perm.uid]
    if perm.card.abilities:
        for source, mod in game.statics:
            if source is perm:
                count_static(game, perm, mod, -1)
        game.statics = [s for s in game.statics if s[0] is not perm]
        for timing, entries in game.abilities_at.items():
            if any(e.source is perm for e in entries):
                game.abilities_at[timing] = [e for e in entries if e.source is not perm]


def destroy(game: Game, perm: Permanent, cause: str, *, rule: str | None = None,
            components: bool = True, to: str = "graveyard") -> None:
    """Put a permanent from play into its owner's graveyard (or void).  The ``left_play`` hook
    says how many monster components its opponent is offered (the built-in
    ``hkk.rules.components``: until the end of the phase), none where ``components`` is False
    (sacrificed as a cost [R], prep stage 2 29.4.11, deferred check [D])."""
    if perm.uid not in game.permanents:
        return
    _leave_play(game, perm)
    owner = game.players[perm.owner]
    (owner.void if to == "void" else owner.graveyard).append(perm.card.id)
    offered = first(game, "left_play", expect_count, permanent=perm, components=components)
    game.emit("died" if perm.kind == "creature" else "destroyed", card=perm.card.id,
              uid=perm.uid, controller=perm.controller, cause=cause, to=to, rule=rule,
              components_offered=offered or 0)


def extract_components(game: Game, offer: ExtractionOffer) -> None:
    """The offer's player takes the dead creature's monster components (D-components-window)."""
    game.offers.remove(offer)
    gain_components(game, offer.player, offer.count, source=f"{offer.card_id}#{offer.uid}")
    game.emit("components_extracted", player=offer.player, card=offer.card_id, uid=offer.uid,
              count=offer.count)


# -- the game's end (K 3.12) --------------------------------------------------------------------

def end_game(game: Game, winner: int | None, reason: str, rule: str | None = None) -> None:
    game.over = True
    game.winner = winner
    game.emit("game_over", winner=winner, reason=reason, rule=rule)
    raise GameOver(reason)


# -- players and permanents ---------------------------------------------------------------------

def damage(game: Game, target: Permanent | Player, amount: int, source: str | None = None) -> None:
    if amount <= 0:
        return
    if isinstance(target, Player):
        target.hp -= amount
        game.emit("player_damaged", player=target.index, amount=amount, source=source,
                  hp=target.hp)
        return
    if target.uid not in game.permanents:
        return
    target.damage_taken += amount
    target.damaged_turn = game.turn
    game.emit("damaged", uid=target.uid, card=target.card.id, amount=amount, source=source,
              hp=hp(target))


def heal(game: Game, target: Permanent | Player, amount: int, source: str | None = None) -> None:
    if isinstance(target, Player):
        target.hp += amount
        game.emit("player_healed", player=target.index, amount=amount, source=source)
        return
    # 29.4.2, 41.4: inside a simultaneous moment heals and damage net out whatever order
    # the items are applied in; end_moment clamps at max Ép.
    healed = amount if game.in_moment else min(amount, target.damage_taken)
    if healed and target.uid in game.permanents:
        target.damage_taken -= healed
        game.emit("healed", uid=target.uid, card=target.card.id, amount=healed, source=source)


def restore(game: Game, perm: Permanent, rule: str) -> None:
    """Back to max Ép / Sp (41.3)."""
    if perm.damage_taken:
        perm.damage_taken = 0
        game.emit("restored", uid=perm.uid, card=perm.card.id, hp=hp(perm), rule=rule)


def gain_vp(game: Game, player: int, amount: int, source: str | None = None) -> None:
    game.players[player].vp += amount
    game.emit("vp_gained", player=player, amount=amount, source=source,
              vp=game.players[player].vp)


def lose_vp(game: Game, player: int, amount: int, source: str | None = None) -> None:
    p = game.players[player]
    lost = amount if game.in_moment else min(amount, p.vp)  # a moment nets out: end_moment
    p.vp -= lost
    game.emit("vp_lost", player=player, amount=lost, source=source, vp=p.vp)


def gain_components(game: Game, player: int, count: int, source: str | None = None) -> None:
    game.players[player].components += count
    game.emit("components_gained", player=player, count=count, source=source)


def pay_components(game: Game, player: int, count: int, source: str | None = None) -> None:
    p = game.players[player]
    paid = count if game.in_moment else min(count, p.components)  # nets out: end_moment
    p.components -= paid
    game.emit("components_paid", player=player, count=paid, source=source)


def draw(game: Game, player: int, count: int = 1, source: str | None = None) -> None:
    p = game.players[player]
    for _ in range(count):
        if not p.deck:
            game.emit("draw_failed", player=player, source=source)
            if game.rulings.empty_deck_loses:
                end_game(game, game.opponent(player), "empty_deck", rule="D-empty-deck")
            return
        card_id = p.deck.pop()
        p.hand.append(card_id)
        game.emit("card_drawn", player=player, card=card_id, source=source)


def add_counters(game: Game, perm: Permanent, counter: str, count: int,
                 source: str | None = None) -> None:
    perm.counters[counter] = perm.counters.get(counter, 0) + count
    game.emit("counters_added", uid=perm.uid, counter=counter, count=count,
              total=perm.counters[counter], source=source)


def remove_counters(game: Game, perm: Permanent, counter: str, count: int,
                    source: str | None = None) -> None:
    have = perm.counters.get(counter, 0)
    removed = count if game.in_moment else min(have, count)  # nets out: end_moment
    if have - removed:
        perm.counters[counter] = have - removed
    else:
        perm.counters.pop(counter, None)
    game.emit("counters_removed", uid=perm.uid, counter=counter, count=removed,
              total=have - removed, source=source)


def give_defence_bonus(game: Game, perm: Permanent, amount: int,
                       source: str | None = None) -> None:
    perm.defence_bonus += amount
    game.emit("defence_bonus_gained", uid=perm.uid, amount=amount, source=source)


def remove_defence_bonus(game: Game, perm: Permanent, rule: str | None = None,
                         source: str | None = None) -> None:
    if game.in_moment:  # losing it comes after every gain of the moment: end_moment
        game.bonus_losses.append((perm, rule, source))
        return
    if perm.defence_bonus:
        lost = perm.defence_bonus
        perm.defence_bonus = 0
        game.emit("defence_bonus_lost", uid=perm.uid, amount=lost, rule=rule, source=source)


# -- simultaneous moments (29.4.2, 41.4) --------------------------------------------------------

def begin_moment(game: Game) -> None:
    """From now until :func:`end_moment` changes are one moment: none of them may depend on
    the order they are applied in, so the primitives that stop at zero (heal, lose VP, pay
    components, remove counters) add up freely and the limits apply once at the end, and a
    defence bonus is lost after every gain of the moment."""
    game.in_moment = True


def end_moment(game: Game) -> None:
    game.in_moment = False
    for player in game.players:
        player.vp = max(player.vp, 0)
        player.components = max(player.components, 0)
    for perm in game.permanents.values():
        if perm.damage_taken < 0:  # healed past max Ép: back to max, not above
            perm.damage_taken = 0
        for counter in [c for c, n in perm.counters.items() if n <= 0]:
            del perm.counters[counter]
    losses, game.bonus_losses = game.bonus_losses, []
    for perm, rule, source in losses:
        remove_defence_bonus(game, perm, rule=rule, source=source)


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
               controller: int | None = None, source: str | None = None) -> Effect:
    """Create a lasting modifier.  Targets are fixed now: permanents that enter play later
    are not affected (scope, K 99.5).  A "this turn" effect made before preparation stage 2
    waits until its beginning, except VP-regeneration modifiers (29.4.5)."""
    duration = Duration(duration)
    step = game.step
    waits = (duration is Duration.THIS_TURN and stat != "vp_regen" and step is not None
             and step.this_turn_waits)
    effect = Effect(new_uid(game), stat, amount, duration,
                    targets=frozenset(t.uid for t in targets), player=player,
                    controller=controller, source=source, in_force=not waits)
    game.effects.append(effect)
    if effect.in_force:
        count_effect(game, effect, +1)
    game.emit("effect_created" if waits else "effect_started", **effect.describe())
    return effect


def end_effects(game: Game, durations: Iterable[Duration], rule: str,
                only_controller: int | None = None) -> list[Effect]:
    """End every effect of these durations at one moment (29.4.4, 41.4): they are removed
    together, so no order between them exists."""
    durations = frozenset(durations)
    ending = [e for e in game.effects if e.duration in durations and e.in_force
              and (only_controller is None or e.controller == only_controller)]
    if ending:
        ids = {e.uid for e in ending}
        game.effects = [e for e in game.effects if e.uid not in ids]
        for effect in ending:
            count_effect(game, effect, -1)
        for effect in sorted(ending, key=lambda e: e.uid):
            game.emit("effect_ended", effect=effect.uid, stat=effect.stat, rule=rule)
    return ending


def start_waiting_effects(game: Game, rule: str) -> None:
    for effect in game.effects:
        if not effect.in_force:
            effect.in_force = True
            count_effect(game, effect, +1)
            game.emit("effect_started", **effect.describe(), rule=rule)
