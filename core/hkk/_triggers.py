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
"""

from __future__ import annotations

import copy
import dataclasses
import json
import operator
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hkk._cards.interpret import EffectContext, apply_ability, bind_ability
from hkk._cards.trigger_events import WHEN_EVENTS, Subject, TriggerEvent
from hkk._conditions import holds
from hkk._decisions import Option
from hkk._errors import (
    HkkError,
    HookError,
    StepLoopError,
    TriggerLoopError,
    WorkLimitError,
    plugin_set,
)
from hkk._pending import AUTOMATIC, Pending
from hkk._resolution import after_resolution, passed_the_turn, resolve
from hkk._state import Permanent as PermanentOutOfPlay
from hkk.events import KINDS, Triggered

if TYPE_CHECKING:
    from pluggy import HookImpl

    from hkk._game import Game
    from hkk._phases import Step
    from hkk._state import Permanent

__all__ = ["TriggerWatch", "copy_waiting", "restore_waiting", "saved_waiting", "settle",
           "step_over", "waiting_count", "watch"]

_INDEXING = ("entered_play", "died", "destroyed")  # keep the index of card triggers current
#: What an ``effect_ended`` event does not say, the effect's targets, is read from these.
_EFFECTS_MADE = ("effect_started", "effect_created")
_DEATHS = ("died", "destroyed")
# An entry of the index: a permanent and one of its triggered abilities.
Entry = tuple["Permanent", int, Any]


def watch(game: Game) -> TriggerWatch:
    """The game's watch, subscribed to the kinds its cards and plugins need (none: no cost)."""
    return TriggerWatch(game)


class TriggerWatch:
    """Per game: which triggered abilities and plugin hooks listen to which log kinds, and the
    items they have triggered that wait to resolve."""

    def __init__(self, game: Game) -> None:
        # a weak reference: the log's listener (a method of this watch) would otherwise
        # make a cycle game -> log -> watch -> game, freed only by the cyclic collector
        self._game = weakref.ref(game)
        #: Triggered items waiting to resolve, in the order they were triggered.
        self.waiting: list[Pending] = []
        #: key of a waiting item -> the labels of its chain, the first cause's first.
        self.chains: dict[tuple[Any, ...], tuple[str, ...]] = {}
        #: The chain of the trigger resolving now (its check included): what it sets off
        #: continues the chain.
        self.cause: tuple[str, ...] = ()
        self._count = 0
        #: Triggers set off by the cause being settled now, through other triggers too
        #: (D-trigger-loop): a new cause starts when one is set off with none waiting.
        self._set_off = 0
        #: Triggered items resolved in this game (D-work-limit), and the count at which the
        #: next check is due: the turn's or the game's limit, whichever is nearer.
        self.resolved = 0
        self._work_turn = -1
        self._turn_began_at = 0
        self._work_stop = 0
        #: trigger event -> (permanent, ability index, ability) of cards in play; None until
        #: first needed (a loaded save builds it from the permanents in play).
        self._index: dict[str, list[Entry]] | None = None
        #: Permanents that left play since the last settle: "when ... dies" abilities of
        #: permanents dying together still see each other (D-trigger-lookback).
        self._left: list[Permanent] = []
        #: effect uid -> the uids it modifies, for "an effect on it ends"; None until needed
        #: (built from the effects in force: a loaded save has no log listeners).
        self._targets: dict[int, list[int]] | None = None
        #: A permanent's uid -> (the permanent whose damage it took last, the turn): its
        #: killer, for a "dies" trigger's trigger_source (D-trigger-killer; hkk._changes.damage)
        self.last_hit: dict[int, tuple[int | None, int]] = {}
        self._plugins = self._plugin_kinds(game)
        #: log kind -> the trigger events (``when.event``) of the game's cards it sets off
        card_kinds: dict[str, list[TriggerEvent]] = {}
        for name in sorted({ability.when.event for card in game.cards.values()
                            for ability in card.abilities if ability.kind == "triggered"}):
            trigger = WHEN_EVENTS[name]
            for kind in trigger.log_kinds:
                card_kinds.setdefault(kind, []).append(trigger)
        self._card_kinds = card_kinds
        kinds = set(card_kinds) | set(self._plugins)
        if card_kinds:
            kinds |= set(_INDEXING)
        if "effect_ended" in card_kinds:
            kinds |= set(_EFFECTS_MADE)
        self._kinds = sorted(kinds)
        if kinds:
            game.log.subscribe(self._on_event, kinds=self._kinds, own=True)

    def copy_for(self, game: Game, remap: dict[int, Any]) -> TriggerWatch:
        """This watch for ``game``, a copy of its game (:mod:`hkk._clone`): the same queue,
        counters and indexes, on the copy's permanents (``remap``: id of the original ->
        the copy); who listens to what is the engine's, shared."""
        new = TriggerWatch.__new__(TriggerWatch)
        shared = ("_plugins", "_card_kinds", "_kinds")  # the engine's: who listens to what
        for name, value in self.__dict__.items():  # every field, new ones included
            new.__dict__[name] = value if name in shared or not isinstance(
                value, (dict, list, set)) else value.copy()
        new._game = weakref.ref(game)
        new._index = None if self._index is None else {
            event: [(remap.get(id(p), p), i, ability) for p, i, ability in entries]
            for event, entries in self._index.items()}
        new.waiting = []
        if self._kinds:
            game.log.subscribe(new._on_event, kinds=self._kinds, own=True)
        if self.waiting:
            src = self.game
            game.triggers = new
            copy_waiting(src, game, remap)
        return new

    # -- who listens ------------------------------------------------------------------------

    @staticmethod
    def _plugin_kinds(game: Game) -> dict[str, list[HookImpl]]:
        """log kind -> the ``triggered`` implementations of the plugins that named it."""
        listeners = {impl.plugin_name: impl for impl in game.hook.triggered.get_hookimpls()}
        by_kind: dict[str, list[HookImpl]] = {}
        for impl in game.hook.trigger_kinds.get_hookimpls():
            kinds = game.pm._inner_hookexec("trigger_kinds", [impl], {}, False)  # hkk._hookcall
            for kind in kinds[0] if kinds else ():
                if kind not in KINDS:
                    raise HookError(f"trigger_kinds names the event kind {kind!r}, which the "
                                    f"engine never logs (in plugin {impl.plugin_name})",
                                    hook="trigger_kinds", set_code=plugin_set(impl.plugin_name))
                if impl.plugin_name in listeners:
                    by_kind.setdefault(kind, []).append(listeners[impl.plugin_name])
        return by_kind

    @property
    def game(self) -> Game:
        game = self._game()
        assert game is not None, "the game of this trigger watch is gone"
        return game

    def index(self) -> dict[str, list[Entry]]:
        if self._index is None:
            self._index = {}
            for perm in self.game.permanents.values():  # timestamp order
                self._add(perm)
        return self._index

    def _add(self, perm: Permanent) -> None:
        assert self._index is not None
        for i, ability in enumerate(perm.card.abilities):
            if ability.kind == "triggered":
                self._index.setdefault(ability.when.event, []).append((perm, i, ability))

    def _purge(self) -> None:
        """Forget the abilities of permanents that left play (after their deaths were seen)."""
        gone = {p.uid for p in self._left}
        self._left.clear()
        if self._index:
            for kind, entries in self._index.items():
                self._index[kind] = [e for e in entries if e[0].uid not in gone]

    # -- an event is logged -------------------------------------------------------------------

    def resolve_waiting(self) -> None:
        """Resolve what waits now, as after an item (D-trigger-wait), in the middle of an
        action: the combat plugin's declaration, before its damage (D-trigger-attack)."""
        game = self.game
        assert game.step is not None  # an action resolves in a step
        settle(game, game.step)

    def effect_targets(self) -> dict[int, list[int]]:
        if self._targets is None:
            self._targets = {e.uid: sorted(e.targets) for e in self.game.effects}
        return self._targets

    def _on_event(self, event: Any) -> None:
        game = self.game
        kind = event.kind
        if kind in _EFFECTS_MADE:
            self.effect_targets()[event.effect] = event.targets
            return
        index = None
        if kind in _INDEXING and self._card_kinds:
            if self._index is None:
                index = self.index()  # built now: includes a permanent that just entered
                if kind in _DEATHS:  # ...but not one that just left play: stand it in
                    self._add(PermanentOutOfPlay(event.uid, game.cards[event.card],
                                                 event.controller, "graveyard", 0))
            elif kind == "entered_play":
                self._add(game.permanents[event.uid])
        step = game.step
        if step is not None and step.triggers == "none":  # 41.4: nothing is examined any more
            if kind == "effect_ended":
                self.effect_targets().pop(event.effect, None)
            if kind in _DEATHS and self._card_kinds:
                self._left.append(_GonePermanent(event.uid))  # type: ignore[arg-type]
            return
        items: list[Pending] = []
        triggers = self._card_kinds.get(kind)
        if triggers:
            index = index if index is not None else self.index()
            for trigger in triggers:
                items += self._card_items(event, trigger, index.get(trigger.name, ()))
        impls = self._plugins.get(kind)
        if impls:
            for found in game.pm._inner_hookexec("triggered", impls,  # hkk._hookcall
                                                 {"game": game, "event": event}, False):
                items += found
        if kind in _DEATHS and self._card_kinds:
            self._left.append(_GonePermanent(event.uid))  # type: ignore[arg-type]
        for item in items:
            self._queue(item, event)

    def _queue(self, item: Pending, event: Any) -> None:
        self._count += 1
        if self.waiting or self.cause:  # the same cause goes on setting off triggers
            self._set_off += 1
            if self._set_off > self.game.rulings.max_triggers_per_cause:
                self._too_many(item)
        else:
            self._set_off = 1
        key = ("trigger", self._count)
        if item.data.get("card_trigger"):  # made for this event alone: keyed in place
            item.key = key
            waiting = item
        else:  # a plugin's item may be returned again: a keyed copy
            waiting = dataclasses.replace(item, key=key)
        self.waiting.append(waiting)
        self.chains[key] = self.cause + (waiting.label,)
        self.game.emit(Triggered, item=waiting.label, controller=waiting.controller,
                       card=waiting.card_id, ability=waiting.ability_index,
                       optional=waiting.optional, cause=event.kind, cause_seq=event.seq,
                       chain=len(self.chains[key]))

    def _too_many(self, item: Pending) -> None:
        limit = self.game.rulings.max_triggers_per_cause
        _loop(self.cause + (item.label,),
              f"one cause set off more than Rulings.max_triggers_per_cause = {limit} "
              f"triggers (each trigger setting off several: the chain branches)",
              self.waiting)

    # -- card abilities --------------------------------------------------------------------------

    def _card_items(self, event: Any, trigger: TriggerEvent, entries: Any) -> list[Pending]:
        if not entries:  # no card in play listens to this kind: no subject to read
            if event.kind == "effect_ended":  # ...but an ended effect's targets are let go
                self.effect_targets().pop(event.effect, None)
            return []
        game = self.game
        subjects = trigger.subjects(game, event)
        if not subjects:
            return []
        dying = event.kind in _DEATHS
        items: list[Pending] = []
        for perm, i, ability in entries:
            if not dying and perm.uid not in game.permanents:
                continue  # left play and not looking back at its own death
            if ability.condition is not None and not holds(game, ability.condition,
                                                           perm.controller):
                continue  # D-conditions: "Amikor ..., ha ..." is read when the event happens
            for subject in subjects:
                if _matches(ability.when, perm, subject):
                    items.append(_card_item(perm, i, ability, subject, items, self.waiting))
        return items


class _GonePermanent:
    """Just a uid: what :meth:`TriggerWatch._purge` needs of a permanent that left play."""

    __slots__ = ("uid",)

    def __init__(self, uid: int) -> None:
        self.uid = uid


def _matches(when: Any, perm: Permanent, subject: Subject) -> bool:
    if when.which == "this":
        return subject.uid == perm.uid
    if when.which == "another" and subject.uid == perm.uid:
        return False
    if when.whose == "own" and subject.controller != perm.controller:
        return False
    if when.whose == "opponent" and subject.controller == perm.controller:
        return False
    return when.card_kind is None or when.card_kind == subject.card_kind


def _card_item(perm: Permanent, index: int, ability: Any, subject: Subject,
               made: list[Pending], waiting: list[Pending]) -> Pending:
    # Stable (issue 24.17): the permanent and the ability, as every card ability is labelled,
    # whatever else the game logged, so a script naming it keeps working; a counter only
    # between equals (the same ability set off again while the first waits).
    label = f"{perm.card.id}#{perm.uid}:{index}"
    if waiting or (made and made[-1].source is perm and made[-1].ability_index == index):
        label = _distinct(label, made, waiting)  # (this event's items of it come in a row)
    return _make_card_item(perm, index, ability, label, {
        "permanent": subject.permanent, "source": subject.source, "player": subject.controller})


_LABEL = operator.attrgetter("label")


def _distinct(name: str, made: list[Pending], waiting: list[Pending]) -> str:
    """``name``, or if an item made for this event or waiting has it ``name (2)``,
    ``name (3)``…: the first no other item has."""
    taken = set(map(_LABEL, made)) | set(map(_LABEL, waiting))
    if name not in taken:
        return name
    count = 2
    while f"{name} ({count})" in taken:
        count += 1
    return f"{name} ({count})"


def _make_card_item(perm: Permanent, index: int, ability: Any, label: str,
                    bound: dict[str, Any]) -> Pending:
    card = perm.card
    ctx = EffectContext(perm.controller, perm, card.id, label)
    ctx.trigger = bound
    return Pending(label, apply_ability, controller=perm.controller, kind=AUTOMATIC,
                   optional=ability.optional, bind=bind_ability, source=perm, card_id=card.id,
                   ability_index=index, rule="D-trigger-wait",
                   data={"ctx": ctx, "effects": ability.effects, "text": ability.text,
                         "condition": None, "card_trigger": True})


# -- saves: what waits across a step boundary (the moment at the start of prep stage 2) ---------

def saved_waiting(game: Game) -> list[dict[str, Any]]:
    """The waiting items as plain data.  Only card triggers can be saved: a plugin's item
    holds code, so a save while one waits is refused (items wait across step boundaries only
    in the preparation phase, from the turn's deferred Ép check to the stage-2 pool)."""
    trigger_watch: TriggerWatch = game.triggers
    records = []
    for item in trigger_watch.waiting:
        if not item.data.get("card_trigger"):
            raise HkkError(f"a plugin's triggered item ({item.label}) is waiting for the next "
                           "step: the game cannot be saved here")
        records.append(_card_record(trigger_watch, item))
    return records


def _card_record(trigger_watch: TriggerWatch, item: Pending) -> dict[str, Any]:
    perm = item.source
    assert perm is not None and item.ability_index is not None
    bound = item.data["ctx"].trigger
    return {
        "label": item.label, "key": list(item.key), "uid": perm.uid,
        "card": perm.card.id, "controller": perm.controller, "ability": item.ability_index,
        "chain": list(trigger_watch.chains.get(item.key, (item.label,))),
        "permanent": bound["permanent"].uid if bound["permanent"] is not None else None,
        "source": bound["source"].uid if bound["source"] is not None else None,
        "player": bound["player"]}


def restore_waiting(game: Game, records: list[dict[str, Any]], count: int) -> None:
    """Rebuild the saved waiting items; a card that has left play meanwhile is stood in for by
    a permanent out of play (its "self" is no target any more, as before the save)."""
    trigger_watch: TriggerWatch = game.triggers
    trigger_watch._count = count
    # Built now, from the state as loaded: a lazy build at a death or an expiry would no
    # longer see the permanent that died or the effect that ended.
    trigger_watch.index()
    trigger_watch.effect_targets()
    for record in records:
        perm = game.permanents.get(record["uid"])
        if perm is None:
            perm = PermanentOutOfPlay(record["uid"], game.cards[record["card"]],
                                      record["controller"], "graveyard", 0)
        index = record["ability"]
        bound = {"permanent": game.permanents.get(record["permanent"] or 0),
                 "source": game.permanents.get(record["source"] or 0),
                 "player": record["player"]}
        item = _make_card_item(perm, index, perm.card.abilities[index], record["label"], bound)
        item.key = tuple(record["key"])
        trigger_watch.waiting.append(item)
        trigger_watch.chains[item.key] = tuple(record["chain"])


def copy_waiting(src: Game, dst: Game, remap: dict[int, Any]) -> None:
    """Give ``dst`` (a copy of ``src``, :mod:`hkk._clone`) what ``src``'s watch holds: the
    waiting items with their chains, the counters and the indexes.  A card's item is rebuilt on
    the copy's permanents as a save rebuilds it; a set's item is copied with its ``data``, the
    permanents in it (``remap``: id of the original -> the copy) replaced by the copy's.  What
    cannot be copied is a :class:`HkkError` naming the set."""
    old: TriggerWatch = src.triggers
    new: TriggerWatch = dst.triggers
    records = saved_waiting_cards(src)
    restore_waiting(dst, [r for r in records if r is not None], old._count)
    if any(r is None for r in records):
        memo = dict(remap)
        for card in src.cards.values():
            memo[id(card)] = card
        waiting: list[Pending] = []
        cards = iter(new.waiting)
        for item, record in zip(old.waiting, records, strict=True):
            if record is not None:
                waiting.append(next(cards))
                continue
            try:
                waiting.append(dataclasses.replace(
                    item, source=memo.get(id(item.source), item.source),
                    data=copy.deepcopy(item.data, memo)))
            except Exception as exc:  # noqa: BLE001 - any failure is the set's, named
                raise HkkError(f"a set's triggered item {item.label!r} (card "
                               f"{item.card_id}) holds data that cannot be copied: "
                               f"{type(exc).__name__}: {exc}") from None
        new.waiting = waiting
    new.chains = dict(old.chains)
    new.cause, new._set_off, new.resolved = old.cause, old._set_off, old.resolved
    new._work_turn, new._turn_began_at, new._work_stop = \
        old._work_turn, old._turn_began_at, old._work_stop


def saved_waiting_cards(game: Game) -> list[dict[str, Any] | None]:
    """:func:`saved_waiting`'s records, None in place of each plugin's item."""
    trigger_watch: TriggerWatch = game.triggers
    records: list[dict[str, Any] | None] = []
    for item in trigger_watch.waiting:
        records.append(_card_record(trigger_watch, item) if item.data.get("card_trigger")
                       else None)
    return records


def waiting_count(game: Game) -> int:
    count: int = game.triggers._count
    return count


# -- resolving what waits -----------------------------------------------------------------------

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
    seen: set[str] = set()
    waiting = trigger_watch.waiting
    while waiting and not game.over:
        ready = sorted(waiting, key=_order)
        item = ready[0]
        if len(ready) > 1 and game.rulings.trigger_orderer == "active":
            item = game.decide(game.active, "order", [Option(i.label, i) for i in ready],
                               prompt="Which trigger happens next?",
                               rule="D-trigger-order").value
        waiting.remove(item)
        chain = trigger_watch.chains.pop(item.key, (item.label,))
        _check_chain(game, chain)
        trigger_watch.resolved += 1  # D-work-limit: one increment; a check only when due
        if trigger_watch.resolved > trigger_watch._work_stop \
                or trigger_watch._work_turn != game.turn:
            _check_work(game, trigger_watch, chain)
        if len(chain) > 1:
            _check_repeat(game, seen, chain, item, waiting)
        if item.optional and not _wants(game, item):
            continue
        trigger_watch.cause = chain
        try:
            resolve(game, item)
            after_resolution(game, step)
        finally:
            trigger_watch.cause = ()
        if trigger_watch._left:
            trigger_watch._purge()


def _order(item: Pending) -> tuple[Any, ...]:
    return item.order


def _wants(game: Game, item: Pending) -> bool:
    controller = item.controller if item.controller is not None else game.active
    if game.turn_passed and passed_the_turn(game, controller):  # 41.5: not asked, not used
        return False
    answer = game.decide(controller, "use", (Option(f"use {item.label}", item),
                                             Option("decline")),
                         prompt=f"Use {item.label}?", rule="D-trigger-wait")
    return answer.label != "decline"


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
