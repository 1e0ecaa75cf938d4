"""Card data at work: abilities of cards in play become pending items; effect primitives
become changes of the game.

The :class:`CardAbilities` plugin answers every turn hook with the abilities indexed under that
hook when their cards entered play (design: "per-card behaviour is indexed by hook point").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hkk._cards.model import TRIGGER_TARGETS
from hkk._conditions import holds
from hkk._decisions import Option
from hkk._effects import Duration
from hkk._errors import PASSTHROUGH
from hkk._hookcall import failure
from hkk._hookspecs import TURN_HOOKS, hookimpl
from hkk._pending import ACTIVATED, AUTOMATIC, FREE, Pending, Price, Usage
from hkk._phases import Step
from hkk._state import Permanent, Player

if TYPE_CHECKING:
    from hkk._game import Game


class EffectContext:
    """What a custom (Python) effect gets besides the game."""

    __slots__ = ("controller", "source", "card_id", "label", "targets", "trigger")

    def __init__(self, controller: int, source: Permanent | None, card_id: str | None,
                 label: str) -> None:
        self.controller = controller
        self.source = source
        self.card_id = card_id
        self.label = label
        self.targets: list[Any] = []  # a custom effect's targets, chosen by the engine
        #: For a triggered ability: what its event bound (``permanent``, ``source``,
        #: ``player``), the ``trigger_*`` targets (hkk._triggers).
        self.trigger: dict[str, Any] = {}


# -- targets ----------------------------------------------------------------------------------

def select_targets(game: Game, ctx: EffectContext, target: str) -> list[Any]:
    """The targets an effect has right now; choices are asked of the controller."""
    me = ctx.controller
    if target == "self":
        src = ctx.source
        return [src] if src is not None and src.uid in game.permanents else []
    if target == "controller":
        return [game.players[me]]
    if target == "opponent":
        return [game.players[1 - me]]
    if target == "each_player":
        return list(game.players)
    if target in TRIGGER_TARGETS:  # bound by the event that set the ability off
        return _trigger_target(game, ctx, target)
    if target == "chosen_player":  # "Válassz egy játékost: ..."
        options = [Option(f"player {p.index} ({p.name})", p) for p in game.players]
        return [game.decide(me, "target_player", options, prompt=ctx.label).value]
    if target == "own_creatures":
        return game.creatures(me)
    if target == "opponent_creatures":
        return game.creatures(1 - me)
    if target == "all_creatures":
        return game.creatures()
    if target == "own_buildings":
        return game.buildings(me)
    if target == "all_buildings":
        return game.buildings()
    candidates = {
        "chosen_creature": game.creatures,
        "chosen_own_creature": lambda: game.creatures(me),
        "chosen_opponent_creature": lambda: game.creatures(1 - me),
        "chosen_building": game.buildings,
    }[target]()
    if not candidates:
        return []
    options = [Option(f"target {p.describe()}", p) for p in candidates]
    return [game.decide(me, "target", options, prompt=ctx.label).value]


def _trigger_target(game: Game, ctx: EffectContext, target: str) -> list[Any]:
    if target == "trigger_player":
        player = ctx.trigger.get("player")
        return [] if player is None else [game.players[player]]
    perm = ctx.trigger.get("permanent" if target == "trigger_permanent" else "source")
    # a permanent that has left play is no target any more (D-trigger-targets)
    return [perm] if perm is not None and perm.uid in game.permanents else []


def bind_effects(game: Game, ctx: EffectContext, effects: Any) -> list[tuple[Any, list[Any]]]:
    return [(effect, select_targets(game, ctx, effect.target)
             if getattr(effect, "target", None) is not None else []) for effect in effects]


# -- primitives -------------------------------------------------------------------------------

def _perms(targets: list[Any], game: Game) -> list[Permanent]:
    return [t for t in targets if isinstance(t, Permanent) and t.uid in game.permanents]


def _players(targets: list[Any]) -> list[int]:
    return [t.index for t in targets if isinstance(t, Player)]


def apply_effects(game: Game, ctx: EffectContext, bound: list[tuple[Any, list[Any]]]) -> None:
    label = ctx.label
    for effect, targets in bound:
        do = effect.do
        if do == "damage":
            source_uid = ctx.source.uid if ctx.source is not None else None
            for t in targets:
                game.damage(t, effect.amount, source=label, source_uid=source_uid)
        elif do == "heal":
            for t in targets:
                game.heal(t, effect.amount, source=label)
        elif do == "modify":
            if effect.stat == "vp_regen":
                for p in _players(targets):
                    game.add_effect("vp_regen", effect.by, effect.duration, player=p,
                                    controller=ctx.controller, source=label, turns=effect.turns)
            else:
                perms = _perms(targets, game)
                if perms:
                    game.add_effect(effect.stat, effect.by, effect.duration, targets=perms,
                                    controller=ctx.controller, source=label, turns=effect.turns)
        elif do == "end_effects":  # D-dispel: all of them at one moment
            durations = [Duration(d) for d in effect.durations]
            if effect.target is None:
                game.dispel("D-dispel", durations=durations)
            else:
                game.dispel("D-dispel", durations=durations,
                            on=[*_perms(targets, game), *(t for t in targets
                                                         if isinstance(t, Player))])
        elif do == "gain_vp":
            for p in _players(targets):
                game.gain_vp(p, effect.amount, source=label)
        elif do == "lose_vp":
            for p in _players(targets):
                game.lose_vp(p, effect.amount, source=label)
        elif do == "draw":
            for p in _players(targets):
                game.draw(p, effect.count, source=label)
        elif do == "gain_components":
            for p in _players(targets):
                game.gain_components(p, effect.count, source=label)
        elif do == "pay_components":
            for p in _players(targets):
                game.pay_components(p, effect.count, source=label)
        elif do == "destroy":
            for t in _perms(targets, game):
                game.destroy(t, "destroyed", rule=None)
        elif do == "sacrifice":
            for t in _perms(targets, game):
                game.destroy(t, "sacrificed")
        elif do == "add_counters":
            for t in _perms(targets, game):
                game.add_counters(t, effect.counter, effect.count, source=label)
        elif do == "remove_counters":
            for t in _perms(targets, game):
                game.remove_counters(t, effect.counter, effect.count, source=label)
        elif do == "give_defence_bonus":
            for t in _perms(targets, game):
                game.give_defence_bonus(t, effect.amount, source=label)
        elif do == "remove_defence_bonus":
            for t in _perms(targets, game):
                game.remove_defence_bonus(t, source=label)
        elif do == "custom":
            function = game.custom_effects.get(effect.name)
            if function is None:
                raise LookupError(f"no set offers the custom effect {effect.name!r}")
            ctx.targets = targets
            function(game, ctx, **effect.params)
        else:  # the model's union and this list must grow together
            raise NotImplementedError(f"effect primitive {do!r}")


# -- abilities as pending items ---------------------------------------------------------------

def _bind(game: Game, item: Pending) -> Any:
    return bind_effects(game, item.data["ctx"], item.data["effects"])


def _apply(game: Game, item: Pending, bound: Any) -> None:
    apply_effects(game, item.data["ctx"], bound)


#: A card ability's ``bind`` and ``apply`` (hkk._triggers makes triggered items with them).
bind_ability = _bind
apply_ability = _apply


def ability_item(perm: Permanent, index: int, ability: Any) -> Pending:
    card = perm.card
    label = f"{card.id}#{perm.uid}:{index}"
    ctx = EffectContext(perm.controller, perm, card.id, label)
    data = {"ctx": ctx, "effects": ability.effects, "text": ability.text,
            "condition": ability.condition}
    if ability.kind == "activated":
        cost = ability.cost
        price = Price(cost.vp, cost.components, cost.sacrifice_self)
        limit = ability.limit
        # Using an activated ability is the player's choice, except that in end stage 1 one
        # without a cost (and not conditional) must be used (41.1), and one whose text orders
        # its use in the preparation phase is used there (29.4.7).
        mandatory = ability.must_use_in_preparation or (
            ability.timing == "end_stage1" and price.free and not ability.optional)
        return Pending(label, _apply, controller=perm.controller, kind=ACTIVATED,
                       optional=not mandatory, bind=_bind, price=price,
                       usage=Usage(limit.per_turn, limit.per_game, limit.whose_turn),
                       usable_in_preparation=(ability.usable_in_preparation
                                              or ability.must_use_in_preparation), source=perm,
                       card_id=card.id, ability_index=index, data=data,
                       key=(perm.uid, index))
    return Pending(label, _apply, controller=perm.controller, kind=AUTOMATIC,
                   optional=ability.optional, bind=_bind, price=FREE,
                   usage=Usage(whose_turn=ability.whose_turn), source=perm,
                   card_id=card.id, ability_index=index, data=data, key=(perm.uid, index))


def items_at(game: Game, timing: str) -> list[Pending]:
    """The items were made when their cards entered play (Game.enter_play); automatic ones
    limited to one player's turns are left out in the other's."""
    entries = game.abilities_at.get(timing)
    if not entries:
        return []
    active = game.active
    return [i for i in entries if (i.usage.whose_turn == "any" or i.kind == ACTIVATED
                                   or (i.usage.whose_turn == "own") == (i.controller == active))
            and (i.data["condition"] is None or condition_holds(game, i))]


def condition_holds(game: Game, item: Pending) -> bool:
    """D-conditions: an automatic ability fires, an activated one can be used (like its cost,
    checked whenever it is offered), only while its condition holds."""
    return holds(game, item.data["condition"], item.controller)


def resolve_spell(game: Game, player: int, card: Any) -> None:
    ctx = EffectContext(player, None, card.id, card.id)
    try:
        apply_effects(game, ctx, bind_effects(game, ctx, card.effects))
    except PASSTHROUGH:
        raise
    except (Exception, KeyboardInterrupt, SystemExit) as exc:  # a set may raise anything
        raise failure(exc, game, game.step.hook if game.step else "?", card.id.split(":")[0],
                      card=card.id) from exc


class CardAbilities:
    """Built-in plugin: the automatic and activated abilities of cards in play."""

    def steady_in(self, game: Game, step: Step) -> bool:
        """What this plugin returns from the step's hook changes only with the ability index
        (hkk._steps.run_ordered keeps it until then), unless an ability there has a condition,
        which reads the state (D-conditions)."""
        return all(i.data["condition"] is None for i in game.abilities_at.get(step.hook, ()))

    @hookimpl
    def entered_play(self, game: Game, permanent: Permanent) -> list[Pending]:
        items = [ability_item(permanent, i, a) for i, a in enumerate(permanent.card.abilities)
                 if a.kind == "automatic" and a.timing == "on_enter"]
        return [i for i in items if i.data["condition"] is None or condition_holds(game, i)]


def _make_impl(hook: str) -> Any:
    def impl(self: CardAbilities, game: Game) -> list[Pending]:
        return items_at(game, hook)
    impl.__name__ = hook
    return hookimpl(specname=hook)(impl)


for _hook in TURN_HOOKS:
    setattr(CardAbilities, _hook, _make_impl(_hook))
