"""The waiting triggered items resolved: when, in which order, and how many (D-trigger-wait).

What :class:`hkk._trigger_watch.TriggerDetection` keeps waiting resolves as the step's
``triggers`` setting says (:func:`settle` after an item or action and its Ép check,
:func:`step_over` at the step's end, :func:`pooled` for a pool step); the active player orders
them (D-trigger-order), an optional one is offered (D-trigger-wait), and each resolved one is
counted against the work limits (D-work-limit) and its chain checked for a loop (D-trigger-loop).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from hkk._deciding import ask
from hkk._decisions import Option
from hkk._errors import WorkLimitError
from hkk._pending import Pending
from hkk._resolution import after_resolution, passed_the_turn, resolve, resolve_again
from hkk._trigger_loops import _cards, _check_chain, _check_repeat, _shown

if TYPE_CHECKING:
    from hkk._game import Game
    from hkk._phases import Step
    from hkk._trigger_watch import TriggerDetection as TriggerWatch

__all__ = ["pooled", "settle", "settle_again", "step_over", "step_over_again"]


def settle(game: Game, step: Step) -> None:
    """After an item or action and its Ép check: resolve the triggered items waiting, as the
    step's ``triggers`` says (D-trigger-wait)."""
    trigger_watch: TriggerWatch = game.triggers
    if trigger_watch._left:
        trigger_watch._purge()
    if not trigger_watch.waiting:
        trigger_watch.cause = ()
        return
    mode = step.triggers
    if mode == "resolve":
        _resolve_waiting(game, trigger_watch, step)
    elif mode == "pool":
        trigger_watch.cause = ()


def step_over(game: Game, step: Step) -> None:
    """The step has ended: in a pool step what is left was declined (D-declined); elsewhere
    anything still waiting resolves now (unless the step makes it wait for the next)."""
    trigger_watch: TriggerWatch = game.triggers
    if not trigger_watch.waiting or step.triggers == "wait":
        return
    if step.triggers in ("pool", "none"):
        trigger_watch.waiting.clear()
        trigger_watch.chains.clear()
        return
    settle(game, step)


def settle_again(game: Game, step: Step) -> None:
    """:func:`settle` where the machine goes back down its frames: to the settling it stood
    in, if it stood in one (its queue may be empty: the item is taken out, ``resolving``)."""
    if game.machine.next_is("settle"):
        _resolve_waiting(game, game.triggers, step)
    else:
        settle(game, step)


def step_over_again(game: Game, step: Step) -> None:
    """:func:`step_over` where the machine goes back down its frames."""
    if game.machine.next_is("settle"):
        _resolve_waiting(game, game.triggers, step)
    else:
        step_over(game, step)


def pooled(game: Game) -> list[Pending]:
    """The waiting items as items of a pool step (prep stage 2, 29.4.1): each resolves once,
    ordered with the step's other items; its chain goes on through its Ép check."""
    trigger_watch: TriggerWatch = game.triggers
    return [_from_pool(trigger_watch, item) for item in trigger_watch.waiting]


def _from_pool(trigger_watch: TriggerWatch, item: Pending) -> Pending:
    original = item.apply

    def apply(game: Game, it: Pending, bound: Any) -> None:
        if item in trigger_watch.waiting:
            trigger_watch.waiting.remove(item)
        chain = trigger_watch.chains.pop(item.key, (item.label,))
        _check_chain(game, chain)
        trigger_watch.resolved += 1
        if trigger_watch.resolved > trigger_watch._work_stop \
                or trigger_watch._work_turn != game.turn:
            _check_work(game, trigger_watch, chain)
        trigger_watch.cause = chain
        original(game, item, bound)

    return dataclasses.replace(item, apply=apply)


def _resolve_waiting(game: Game, trigger_watch: TriggerWatch, step: Step) -> None:
    """The waiting items, one by one, the active player ordering them (D-trigger-order).  Its
    frame, ``["settle", seen, stage, chain]``: the states seen (D-trigger-loop); stage 0
    orders, 1 asks about the optional item taken (``trigger_watch.resolving``, the game's), 2
    resolves it; ``chain`` is its chain of causes."""
    machine = game.machine
    if machine.back:
        frame = machine.frame(["settle"])
    else:
        frame = ["settle", set(), 0, ()]
        machine.frames.append(frame)
    seen: set[str] = frame[1]
    waiting = trigger_watch.waiting
    while frame[2] or (waiting and not game.over):
        if frame[2] == 0:
            ready = sorted(waiting, key=_order)
            item = ready[0]
            if len(ready) > 1 and game.rulings.trigger_orderer == "active":
                item = ask(game, game.active, "order", [Option(i.label, i) for i in ready],
                                   prompt="Which trigger happens next?",
                                   rule="D-trigger-order").value
            waiting.remove(item)
            trigger_watch.resolving = item
            chain = trigger_watch.chains.pop(item.key, (item.label,))
            frame[2], frame[3] = 1, chain
            _check_chain(game, chain)
            trigger_watch.resolved += 1  # D-work-limit: one increment; a check only when due
            if trigger_watch.resolved > trigger_watch._work_stop \
                    or trigger_watch._work_turn != game.turn:
                _check_work(game, trigger_watch, chain)
            if len(chain) > 1:
                _check_repeat(game, seen, chain, item, waiting)
        else:
            resolving = trigger_watch.resolving
            assert resolving is not None  # taken out at stage 0, put back by a copy or a load
            item, chain = resolving, frame[3]
        if frame[2] == 1:
            if item.optional and not _wants(game, item):
                trigger_watch.resolving = None
                frame[2] = 0
                continue
            frame[2] = 2
        trigger_watch.cause = chain
        try:
            (resolve_again if machine.back else resolve)(game, item)
            after_resolution(game, step)
        finally:
            trigger_watch.cause = ()
        trigger_watch.resolving = None
        frame[2] = 0
        if trigger_watch._left:
            trigger_watch._purge()
    machine.frames.pop()


def _order(item: Pending) -> tuple[Any, ...]:
    return item.order


def _wants(game: Game, item: Pending) -> bool:
    controller = item.controller if item.controller is not None else game.active
    if game.turn_passed and passed_the_turn(game, controller):  # 41.5: not asked, not used
        return False
    answer = ask(game, controller, "use", (Option(f"use {item.label}", item),
                                             Option("decline")),
                         prompt=f"Use {item.label}?", rule="D-trigger-wait")
    return answer.label != "decline"


def _check_work(game: Game, trigger_watch: TriggerWatch, chain: tuple[str, ...]) -> None:
    """D-work-limit: the count of resolved triggers passed the next check point, or this is
    the turn's first trigger (the turn's count starts with it)."""
    rulings = game.rulings
    count = trigger_watch.resolved
    if trigger_watch._work_turn != game.turn:
        trigger_watch._work_turn = game.turn
        trigger_watch._turn_began_at = count - 1
    per_turn = trigger_watch._turn_began_at + rulings.max_triggers_per_turn
    trigger_watch._work_stop = min(per_turn, rulings.max_triggers_per_game)
    if count <= trigger_watch._work_stop:
        return
    if count > rulings.max_triggers_per_game:
        limit, what = "max_triggers_per_game", f"the game resolved {count - 1} triggered items"
    else:
        limit, what = "max_triggers_per_turn", \
            f"turn {game.turn} resolved {count - 1 - trigger_watch._turn_began_at} triggered items"
    step = game.step.hook if game.step is not None else ""
    cards = _cards(chain, trigger_watch.waiting)
    raise WorkLimitError(
        f"work limit (D-work-limit): {what}, the most Rulings.{limit} = "
        f"{getattr(rulings, limit)} allows, in turn {game.turn} ({step or 'start of turn'}); "
        f"cards resolving: {', '.join(cards)}; chain: {_shown(chain)}",
        chain=list(chain), cards=cards, limit=limit, turn=game.turn, step=step)
