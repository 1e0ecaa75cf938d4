"""Triggers setting each other off without end: the errors that stop such a game.

A chain longer than ``Rulings.max_trigger_chain``, the same state coming back with the same
triggers waiting (:func:`_check_chain`, :func:`_check_repeat`, checked as each waiting item
resolves, :mod:`hkk._trigger_queue`), a cause setting off more than
``Rulings.max_triggers_per_cause`` (:mod:`hkk._trigger_watch`) or a pool step that never empties
(:func:`too_many_items`) is a :class:`~hkk.TriggerLoopError` naming the cards (D-trigger-loop).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hkk._errors import HkkError, StepLoopError, TriggerLoopError
from hkk._pending import Pending

if TYPE_CHECKING:
    from hkk._game import Game
    from hkk._phases import Step

__all__ = ["too_many_items"]


def _check_chain(game: Game, chain: tuple[str, ...]) -> None:
    limit = game.rulings.max_trigger_chain
    if len(chain) > limit:
        _loop(chain, f"a chain of {len(chain)} triggers, each set off by the one before "
                     f"(more than Rulings.max_trigger_chain = {limit})")


def _check_repeat(game: Game, seen: set[str], chain: tuple[str, ...], item: Pending,
                  waiting: list[Pending]) -> None:
    """The same state with the same triggers about to happen again: it would never end."""
    about = sorted((i.card_id or i.label, i.ability_index or 0, i.controller or 0)
                   for i in [item, *waiting])
    state = json.dumps([game.snapshot(), about], sort_keys=True, default=str)
    if state in seen:
        _loop(chain, "the same state came back with the same triggers waiting")
    seen.add(state)


def too_many_items(game: Game, step: Step, limit: int, items: list[Pending]) -> HkkError:
    """What a step that resolved ``limit`` items without ending raises: a TriggerLoopError
    when triggered items are among those left (a pool step: prep stage 2, D-trigger-loop),
    else a StepLoopError; either names the cards of the items left."""
    triggers = [i for i in items if i.key[:1] == ("trigger",)]
    if triggers:
        chain = game.triggers.chains.get(triggers[0].key, (triggers[0].label,))
        cards = _cards(chain, triggers)
        return TriggerLoopError(
            f"trigger loop (D-trigger-loop): step {step.hook} resolved {limit} items "
            f"(Rulings.max_items_per_step) and triggers still wait in its pool; cards: "
            f"{', '.join(cards)}; chain: {_shown(chain)}", chain=list(chain), cards=cards)
    cards = list(dict.fromkeys(i.card_id or i.label for i in items))
    return StepLoopError(f"step {step.hook} resolved {limit} items (Rulings.max_items_per_step) "
                         "without ending; an ability that costs nothing and has no usage limit "
                         f"repeats forever; items left from: {', '.join(cards) or 'none'}")


def _cards(chain: tuple[str, ...], waiting: Sequence[Pending] = ()) -> list[str]:
    """The cards of a chain's labels (``<card id>#<uid>...``), then of the items waiting."""
    return list(dict.fromkeys([*(label.split("#", 1)[0] for label in chain),
                               *(i.card_id or i.label for i in waiting)]))


def _shown(chain: tuple[str, ...]) -> str:
    shown = list(chain[:3]) + ["..."] + list(chain[-3:]) if len(chain) > 6 else list(chain)
    return " -> ".join(shown)


def _loop(chain: tuple[str, ...], why: str, waiting: Sequence[Pending] = ()) -> None:
    cards = _cards(chain, waiting)
    raise TriggerLoopError(f"trigger loop (D-trigger-loop): {why}; cards: "
                           f"{', '.join(cards)}; chain: {_shown(chain)}",
                           chain=list(chain), cards=cards)
