"""Card data at work: abilities of cards in play become pending items; their effects bind and
apply themselves (each ``do`` verb is a class of :mod:`hkk._cards.verbs`).

The :class:`CardAbilities` plugin answers every turn hook with the abilities indexed under that
hook when their cards entered play (design: "per-card behaviour is indexed by hook point").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hkk._cards.context import EffectContext as EffectContext  # public: hkk.EffectContext
from hkk._conditions import holds
from hkk._errors import PASSTHROUGH
from hkk._hookcall import failure
from hkk._hookspecs import TURN_HOOKS, hookimpl
from hkk._pending import ACTIVATED, AUTOMATIC, FREE, Pending, Price, Usage
from hkk._phases import Step
from hkk._state import Permanent

if TYPE_CHECKING:
    from hkk._game import Game


# -- binding and applying: each verb does its own (hkk._cards.verbs) ---------------------------

def bind_effects(game: Game, ctx: EffectContext, effects: Any) -> list[tuple[Any, list[Any]]]:
    return [(effect, effect.bind(game, ctx)) for effect in effects]


def apply_effects(game: Game, ctx: EffectContext, bound: list[tuple[Any, list[Any]]]) -> None:
    for effect, targets in bound:
        effect.apply(game, ctx, targets)


# -- abilities as pending items ---------------------------------------------------------------

def _bind(game: Game, item: Pending) -> Any:
    ctx = item.data["ctx"]  # bind_effects written out: this runs for every ability item
    return [(effect, effect.bind(game, ctx)) for effect in item.data["effects"]]


def _apply(game: Game, item: Pending, bound: Any) -> None:
    ctx = item.data["ctx"]  # apply_effects written out, as _bind
    for effect, targets in bound:
        effect.apply(game, ctx, targets)


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
    assert item.controller is not None  # a card's ability has a controller
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
