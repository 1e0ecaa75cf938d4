"""Collecting and resolving pending items: where turn hooks are collected (through
:mod:`hkk._hookcall`, the one way hooks are called), usage limits and costs are checked, and an
item changes the game.

Hooks never change the game; all changes happen through :func:`resolve` (and the primitives of
:class:`hkk.Game` it reaches), so ordering rules, usage limits and logging live in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from hkk._errors import PASSTHROUGH
from hkk._game import Game
from hkk._hookcall import failure, implementations
from hkk._pending import ACTION, ACTIVATED, Pending, no_bind
from hkk._phases import Step
from hkk._prevention import preventer
from hkk._state import Permanent
from hkk.events import CostPaid, Prevented, Resolving

_order = attrgetter("order")  # the sort key of a collection


# -- collecting -------------------------------------------------------------------------------

def call_hook(game: Game, hook_name: str, **kwargs: Any) -> list[Pending]:
    """Call every implementation of a turn hook (or ``entered_play``) and return their items in
    a stable order: registration order and install order never reach the game (design: "order
    never depends on install order")."""
    kwargs["game"] = game
    items: list[Pending] = []
    # implementations(), without a call per collection
    impls = game.hook_impls.get(hook_name) or implementations(game, hook_name)
    for result in game.pm._inner_hookexec(hook_name, impls, kwargs, False):  # hkk._hookcall
        items.extend(result)
    if len(items) > 1:
        items.sort(key=_order)
    return items


# -- resolving --------------------------------------------------------------------------------

def usable(game: Game, item: Pending, step: Step) -> bool:
    """May the item's controller use this activated ability or action now?"""
    if item.kind not in (ACTIVATED, ACTION):
        return True
    key = item.key
    if step.attempts_once and key in game.attempted:  # 29.4.9: one attempt per turn
        return False
    if step.needs_permission and item.kind == ACTIVATED and not item.usable_in_preparation:
        return False  # 29.4, 29.4.7
    usage = item.usage
    if usage.per_turn is not None and game.usage_turn.get(key, 0) >= usage.per_turn:
        return False
    if usage.per_game is not None and game.usage_game.get(key, 0) >= usage.per_game:
        return False
    if usage.whose_turn == "own" and item.controller != game.active:
        return False
    if usage.whose_turn == "opponent" and item.controller == game.active:
        return False
    price = item.price
    if item.controller is not None:
        player = game.players[item.controller]
        if price.vp > player.vp or price.components > player.components:
            return False
    if price.sacrifice_self and (item.source is None or item.source.uid not in game.permanents):
        return False
    if item.source is not None and item.source.uid not in game.permanents:
        return False
    return True


def passed_the_turn(game: Game, player: int) -> bool:
    """41.5: the active player who passed the turn "does not want to act in his turn": he uses
    nothing optional any more and is not asked (what he must do still happens)."""
    return game.turn_passed and player == game.active


def pay(game: Game, item: Pending) -> None:
    """Count the use, then pay the cost.  In the preparation phase the attempt counts even if
    the effect then fails (29.4.9)."""
    key = item.key
    if game.step is not None and game.step.attempts_once:
        game.attempted.add(key)
    game.usage_turn[key] = game.usage_turn.get(key, 0) + 1
    game.usage_game[key] = game.usage_game.get(key, 0) + 1
    price = item.price
    if price.free or item.controller is None:
        return
    player = game.players[item.controller]
    player.vp -= price.vp
    player.components -= price.components
    game.emit(CostPaid, controller=item.controller, item=item.label, vp=price.vp,
              components=price.components, sacrifice=price.sacrifice_self)
    if price.sacrifice_self and item.source is not None:
        # never any component from a creature sacrificed as a cost [R]
        game.destroy(item.source, "sacrificed_as_cost", components=False)


def guarded(game: Game, item: Pending, call: Callable[[], Any]) -> Any:
    """Run a set's code for ``item``; an unexpected exception becomes a HookError naming the
    set, card, ability, hook and rule."""
    try:
        return call()
    except PASSTHROUGH:
        raise
    except (Exception, KeyboardInterrupt, SystemExit) as exc:
        raise item_failure(game, item, exc) from exc


def item_failure(game: Game, item: Pending, exc: BaseException) -> BaseException:
    """A set's exception while ``item`` was bound or applied, naming its card and ability."""
    step = game.step
    return failure(exc, game, step.hook if step else "?", item.set_code or None,
                   card=item.card_id, ability=item.ability_index, rule=item.rule)


def resolve(game: Game, item: Pending) -> None:
    """Pay for the item, then bind and apply it.  ``bind`` changes nothing (29.4.2): a
    decision in it makes the item's frame, ``["resolve", answers, applying, label, card]``
    (:func:`hkk._deciding.decide`), and is reached again by binding again with the answers
    given in it; an ``apply`` that decides goes on from its own frames (the combat's)."""
    machine = game.machine
    game.emit(Resolving, **item.describe())
    if item.kind in (ACTIVATED, ACTION):
        pay(game, item)
    if game.preventions:
        by = preventer(game, item)
        if by is not None:
            prevented(game, item, by)
            return
    try:  # as guarded(), without a closure per resolution
        bind = item.bind
        if bind is no_bind:  # it chooses nothing (the rules' own items): nor can it decide
            item.apply(game, item, None)
            return
        machine.region = item  # a decision in its bind makes its frame
        bound = bind(game, item)
        if machine.region is item:  # it asked nothing: no frame
            machine.region = None
            item.apply(game, item, bound)
            return
        machine.region = None
        machine.frames[-1][2] = True
        item.apply(game, item, bound)
    except PASSTHROUGH:
        machine.region = None
        raise
    except (Exception, KeyboardInterrupt, SystemExit) as exc:
        machine.region = None
        raise item_failure(game, item, exc) from exc
    machine.frames.pop()
    if machine.held is item:
        machine.held = None


def resolve_again(game: Game, item: Pending) -> None:
    """:func:`resolve` of the item the machine goes back to: paid; its bind asked (its frame:
    bound again with the answers given), or its apply goes on from its own frames."""
    machine = game.machine
    try:
        if not machine.next_is("resolve"):
            item.apply(game, item, None)
            return
        frame = machine.frame(["resolve"])
        bound = None
        if not frame[2]:
            machine.region, machine.replayed = frame[1], 0
            bound = item.bind(game, item)
            machine.region = None
            frame[2] = True
        item.apply(game, item, bound)
    except PASSTHROUGH:
        raise
    except (Exception, KeyboardInterrupt, SystemExit) as exc:
        raise item_failure(game, item, exc) from exc
    machine.frames.pop()
    if machine.held is item:
        machine.held = None


def prevented(game: Game, item: Pending, by: Permanent) -> None:
    """``item`` resolves without effect: a static ability of ``by`` prevents it (D-prevented;
    its cost was paid and its attempt counted, 29.4.9)."""
    game.emit(Prevented, item=item.label, controller=item.controller, card=item.card_id,
              preventer_uid=by.uid, preventer_card=by.card.id, rule="D-prevented")


def after_resolution(game: Game, step: Step) -> None:
    """29.4.10 in the preparation phase; [D] after every action and effect elsewhere."""
    if step.hp_check:
        game.check_hp(step.check_rule, components=not step.no_components,
                      changed_only=True)
    else:
        game.check_players()

