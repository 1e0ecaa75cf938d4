"""Triggers ("Amikor ..."): items set off by what happens in the game.

Two sources: triggered abilities of cards in play (``kind = "triggered"`` with a ``when``
table) and plugins' ``triggered`` hook (for the event kinds their ``trigger_kinds`` names).  A
:class:`TriggerWatch` per game listens to the log for just those kinds
(:meth:`hkk.EventLog.subscribe`) and keeps what they trigger *waiting*; nothing resolves inside
the change that logged the event.

When they resolve is the step's ``triggers`` setting (:class:`hkk.Step`):

- ``"resolve"`` (D-trigger-wait): after the item or action that caused them has finished and
  the Ép check after it is done (:func:`settle`, called by the step runners); then the waiting
  items are ordered by the active player (D-trigger-order) and resolved one at a time, each
  followed by an Ép check.  What they trigger in turn joins the waiting ones.
- ``"wait"``: they wait for the next step (stage 1 of the preparation phase, the deferred Ép
  check before it and the moment at the very beginning of stage 2: all of it joins the stage-2
  pool, 29.4, 29.4.1; what the moment triggers waits until the moment and its check are over,
  29.4.2);
- ``"pool"``: they join the step's own items, ordered with them (prep stage 2, 29.4.1,
  D-trigger-prep), so deaths they cause give no component there (29.4.11);
- ``"none"``: nothing triggers (end stage 4: 41.4, D-trigger-end4).

A chain of triggers setting off triggers longer than ``Rulings.max_trigger_chain``, one that
brings back the same state with the same triggers waiting, or a cause setting off more than
``Rulings.max_triggers_per_cause`` triggers in all (a chain that branches: each trigger sets off
several) stops the game with a :class:`~hkk.TriggerLoopError` naming the cards (D-trigger-loop).
A turn or a game resolving more triggered items than ``max_triggers_per_turn`` or
``max_triggers_per_game`` stops with a :class:`~hkk.WorkLimitError` (D-work-limit).  All are
counts, never time: the same game stops at the same point on every machine.

The parts, one module each: what sets triggers off (:mod:`hkk._trigger_watch`), the waiting
items resolved (:mod:`hkk._trigger_queue`), saved and copied (:mod:`hkk._trigger_saves`), the
loop errors (:mod:`hkk._trigger_loops`).  This module puts the game's watch together from them
and keeps every name importable from here.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from hkk._trigger_loops import too_many_items
from hkk._trigger_queue import pooled, settle, settle_again, step_over, step_over_again
from hkk._trigger_saves import (
    copy_waiting,
    restore_resolving,
    restore_waiting,
    saved_waiting,
    saved_waiting_cards,
    waiting_count,
)
from hkk._trigger_watch import Entry, TriggerDetection

if TYPE_CHECKING:
    from hkk._game import Game
    from hkk._pending import Pending

__all__ = ["Entry", "TriggerWatch", "copy_waiting", "pooled", "restore_resolving",
           "restore_waiting", "saved_waiting", "saved_waiting_cards", "settle", "settle_again",
           "step_over", "step_over_again", "too_many_items", "waiting_count", "watch"]


def watch(game: Game) -> TriggerWatch:
    """The game's watch, subscribed to the kinds its cards and plugins need (none: no cost)."""
    return TriggerWatch(game)


class TriggerWatch(TriggerDetection):
    """The game's watch: what sets triggers off and keeps them waiting
    (:class:`~hkk._trigger_watch.TriggerDetection`), with the two steps that go through the
    queue's resolution and its copy, the modules above the detection."""

    def copy_for(self, game: Game, remap: dict[int, Any]) -> TriggerWatch:
        """This watch for ``game``, a copy of its game (:mod:`hkk._clone`): the same queue,
        counters and indexes, on the copy's permanents (``remap``: id of the original ->
        the copy); who listens to what is the engine's, shared."""
        new = TriggerWatch.__new__(TriggerWatch)
        fields = self.__dict__
        names = tuple(fields)  # every field, new ones included
        copier = _FIELD_COPIERS.get(names)
        if copier is None:
            copier = _FIELD_COPIERS[names] = _fields_copier(names)
        new.__dict__.update(copier(fields))
        new._game = weakref.ref(game)
        new._index = None if self._index is None else {
            event: [(remap.get(id(p), p), i, ability) for p, i, ability in entries]
            for event, entries in self._index.items()}
        new.waiting = []
        if self._kinds:
            game.log.subscribe(new._on_event, kinds=self._kinds, own=True)
        if self.waiting or self.resolving is not None:
            with self.taken_back():  # the item resolving is copied as the waiting ones are
                src = self.game
                game.triggers = new
                copy_waiting(src, game, remap)
            new.put_back(self.resolving)
        return new

    @contextmanager
    def taken_back(self) -> Iterator[None]:
        """The item resolving (``resolving``) as the last waiting one, for the time a copy or
        a save reads it as it reads the waiting items."""
        item = self.resolving
        if item is None:
            yield
            return
        self.waiting.append(item)
        self.chains[item.key] = (item.label,)  # its chain is the settling frame's
        try:
            yield
        finally:
            self.waiting.pop()
            self.chains.pop(item.key, None)

    def put_back(self, resolving: Pending | None) -> None:
        """After a copy or a load made with :meth:`taken_back`: its last waiting item is the
        one resolving."""
        if resolving is not None:
            self.resolving = self.waiting.pop()
            self.chains.pop(self.resolving.key, None)

    def resolve_waiting(self) -> None:
        """Resolve what waits now, as after an item (D-trigger-wait), in the middle of an
        action: the combat plugin's declaration, before its damage (D-trigger-attack)."""
        game = self.game
        assert game.step is not None  # an action resolves in a step
        settle_again(game, game.step)


#: The watch's fields that are the engine's, shared by every copy: who listens to what.
_SHARED = ("_plugins", "_card_kinds", "_kinds")


def _fields_copier(names: tuple[str, ...]) -> Any:
    """A function copying a watch's fields (``names``, in their order) for a copy of its game
    (:meth:`TriggerWatch.copy_for`): a list, dict or set as a copy of its own, the engine's
    shared, anything else as it is; one straight-line function per set of fields."""
    lines = ["def copy(old):"]
    for i, name in enumerate(names):
        if name in _SHARED:
            lines.append(f"    v{i} = old[{name!r}]")
        else:
            lines.append(f"    v{i} = old[{name!r}]")
            lines.append(f"    if isinstance(v{i}, MUTABLE):")
            lines.append(f"        v{i} = v{i}.copy()")
    lines.append("    return {" + ", ".join(f"{name!r}: v{i}" for i, name in enumerate(names))
                 + "}")
    namespace: dict[str, Any] = {"MUTABLE": (dict, list, set)}
    exec("\n".join(lines) + "\n", namespace)  # noqa: S102 - made here from field names only
    return namespace["copy"]


#: a watch's field names -> their copier
_FIELD_COPIERS: dict[tuple[str, ...], Any] = {}
