"""What sets off triggered abilities ("Amikor ..."): the watch over the game's log.

Two sources: triggered abilities of cards in play (``kind = "triggered"`` with a ``when``
table) and plugins' ``triggered`` hook (for the event kinds their ``trigger_kinds`` names).  A
:class:`TriggerDetection` per game listens to the log for just those kinds
(:meth:`hkk.EventLog.subscribe`) and keeps what they trigger *waiting*; nothing resolves inside
the change that logged the event.  When and how the waiting items resolve is
:mod:`hkk._trigger_queue`; saving and copying them, :mod:`hkk._trigger_saves`; the game's
watch, :class:`hkk._triggers.TriggerWatch`, is this with those two steps (:mod:`hkk._triggers`).
"""

from __future__ import annotations

import dataclasses
import operator
import weakref
from typing import TYPE_CHECKING, Any

from hkk._cards.interpret import EffectContext, apply_ability, bind_ability
from hkk._cards.trigger_events import WHEN_EVENTS, Subject, TriggerEvent
from hkk._conditions import holds
from hkk._errors import HookError, plugin_set
from hkk._pending import AUTOMATIC, Pending
from hkk._state import Permanent as PermanentOutOfPlay
from hkk._trigger_loops import _loop
from hkk.events import KINDS, Triggered, of

if TYPE_CHECKING:
    from pluggy import HookImpl

    from hkk._game import Game
    from hkk._state import Permanent

__all__ = ["Entry", "TriggerDetection"]

_INDEXING = ("entered_play", "died", "destroyed")  # keep the index of card triggers current
#: What an ``effect_ended`` event does not say, the effect's targets, is read from these.
_EFFECTS_MADE = ("effect_started", "effect_created")
_DEATHS = ("died", "destroyed")
# An entry of the index: a permanent and one of its triggered abilities.
Entry = tuple["Permanent", int, Any]


class TriggerDetection:
    """Per game: which triggered abilities and plugin hooks listen to which log kinds, and the
    items they have triggered that wait to resolve."""

    def __init__(self, game: Game) -> None:
        # a weak reference: the log's listener (a method of this watch) would otherwise
        # make a cycle game -> log -> watch -> game, freed only by the cyclic collector
        self._game = weakref.ref(game)
        #: Triggered items waiting to resolve, in the order they were triggered.
        self.waiting: list[Pending] = []
        #: The waiting item taken out to resolve while the machine may stop at a decision
        #: about it (its use, its targets: hkk._trigger_queue); None between two.
        self.resolving: Pending | None = None
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
        #: The creature whose combat damage the combat rule is dealing now, else None: what
        #: makes a damage combat damage (D-trigger-combat; set only while it deals it).
        self.combat_source: Permanent | None = None
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
        # the kinds' classes, found once: a copy of the game subscribes its watch with them
        self._kinds = [of(kind) for kind in sorted(kinds)]
        if kinds:
            game.log.subscribe(self._on_event, kinds=self._kinds, own=True)

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
    """Just a uid: what :meth:`TriggerDetection._purge` needs of a permanent that left play."""

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
        "permanent": subject.permanent, "source": subject.source, "player": subject.controller,
        "amount": subject.amount})


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
