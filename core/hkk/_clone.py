"""Copying a game between two steps or at a decision (issues 21, 30): what ``game.clone()``
and ``game.determinize()`` are made of.

A game's state is plain data (players and their zones, permanents and their counters, lasting
effects, offers, usage counts, the RNG, the clock's bookkeeping, the trigger queue and a
per-game slot for sets, ``set_data``); the copy takes all of it.  What is derived from it (the
static abilities in force, the ability index, the permanents' modifier sums, the trigger watch's
indexes) is copied onto the copy's permanents (the same sums, the same items, each
pointing at the copy's permanent of the same uid).  What belongs to the engine
(cards, plugin manager, hook caches, the turn's steps) is shared.

The turn machine's position (:class:`hkk._forward.Position`: the frames of the functions
running, as plain values, and the decision waited for) is copied too, so a copy at any decision
goes on from there; nothing is run again.
"""

from __future__ import annotations

import copy
import random
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hkk._cards.context import EffectContext
from hkk._clock import GameClock
from hkk._continuous import listen_to_conditions
from hkk._errors import CloneError
from hkk._events import EventLog
from hkk._hookcall import copy_plans
from hkk._pending import Pending
from hkk._rng import SharedRandom
from hkk._state import ENGINE, GAME_STATE, Permanent, Player, undeclared

if TYPE_CHECKING:
    from hkk._game import Game

__all__ = ["COPY", "CloneError", "copy_derived", "copy_game"]


def _copier(cls: Any, copied: tuple[str, ...] = ()) -> Any:
    """A function copying an instance of the slotted ``cls`` attribute by attribute: one
    straight-line function per class, made from its ``__slots__`` (a loop of getattr/setattr
    costs three times as much, and copies are what searching agents do most); the ``copied``
    ones (lists, dicts of plain values) as copies of their own."""
    lines = [f"    new.{name} = obj.{name}.copy()" if name in copied else
             f"    new.{name} = obj.{name}" for name in cls.__slots__]
    source = "def copy(obj):\n    new = make(cls)\n" + "\n".join(lines) + "\n    return new\n"
    namespace: dict[str, Any] = {"make": object.__new__, "cls": cls}
    exec(source, namespace)  # noqa: S102 - the source is made here from __slots__ names only
    return namespace["copy"]


_COPIERS: dict[Any, Any] = {}


def _copier_of(cls: Any, copied: tuple[str, ...] = ()) -> Any:
    copier = _COPIERS.get((cls, copied))
    if copier is None:
        copier = _COPIERS[cls, copied] = _copier(cls, copied)
    return copier


def _slots(obj: Any, cls: Any) -> Any:
    return _copier_of(cls)(obj)


#: A player's zones and a permanent's counters and modifier sums: copied with their object
_ZONES = ("deck", "hand", "graveyard", "void")
_COUNTS = ("counters", "mods")  # the sums as they are: the same effects are in force
_copy_player = _copier_of(Player, _ZONES)
_copy_permanent = _copier_of(Permanent, _COUNTS)
_copy_pending = _copier_of(Pending, ("data",))
_copy_context = _copier_of(EffectContext, ("targets", "trigger"))


def copy_game(src: Game, dst: Game, *, log_level: str | None = None,
              declaration: dict[str, str] | None = None,
              agents: list[Any] | None = None) -> Game:
    """Make ``dst`` (a bare ``Game.__new__``) an independent copy of ``src``: the same answers
    give the same events from here on.  Every field of the state declaration
    (:data:`hkk._state.GAME_STATE`, or ``declaration``) is copied as its kind says
    (:data:`COPY`), the derived ones by :func:`copy_derived`, the engine's shared.
    ``log_level`` gives the copy a log of another level ("outcome": no past at all, the
    cheapest; default: ``src``'s, whose past the copy shares: events are immutable);
    ``agents``, the copy's seats (default: ``src``'s agents, the same objects)."""
    if src.in_moment or src.bonus_losses or src.leaving_play:
        raise CloneError("a game can be copied only between two steps or at a decision, not "
                         "inside a simultaneous moment")
    declared = GAME_STATE if declaration is None else declaration
    fields = src.__dict__
    if len(fields) != _KNOWN.get(id(declared)):
        missing = undeclared(fields, declared)
        if missing:
            raise CloneError(f"the game has fields no state declaration names: {missing} "
                             "(declare them in hkk._state.GAME_STATE)")
        _KNOWN[id(declared)] = len(fields)
    state: dict[str, Any] = {name: fields[name] for name in ENGINE}
    state["in_moment"], state["bonus_losses"], state["leaving_play"] = False, [], []
    remap: dict[int, Any] = {}  # id of an original permanent -> its copy
    copy = Copying(src, state, remap, log_level)
    plan = tuple(declared.items())
    copy_fields = _FIELD_COPIERS.get(plan)
    if copy_fields is None:
        copy_fields = _FIELD_COPIERS[plan] = _fields_copier(plan)
    copy_fields(copy, fields, state, agents)
    copy_derived(src, dst, state, remap)
    dst.__dict__.clear()
    dst.__dict__.update(state)
    dst.triggers = src.triggers.copy_for(dst, remap)
    if dst.condition_events:  # after the watch, as the original subscribed them
        listen_to_conditions(dst, dst.condition_events)
    dst._seat()
    return dst


def _fields_copier(plan: tuple[tuple[str, str], ...]) -> Any:
    """A function copying the declared fields (``plan``: the declaration's items) into a
    copy's ``state``, each as its kind says (:data:`COPY`): one straight-line function per
    declaration, made from it, the kinds copied as they are (:func:`_as_is`) without a call.
    The watch is left for last (its items point at the copy's permanents); ``agents``, if
    given, are the copy's seats."""
    lines = ["def copy_fields(copy, fields, state, agents):"]
    for name, kind in plan:
        if kind == "watch":
            continue
        if kind == "agents":
            lines.append(f"    state[{name!r}] = agents if agents is not None else "
                         f"COPY[{kind!r}](copy, fields[{name!r}])")
        elif COPY[kind] is _as_is:
            lines.append(f"    state[{name!r}] = fields[{name!r}]")
        else:
            lines.append(f"    state[{name!r}] = COPY[{kind!r}](copy, fields[{name!r}])")
    namespace: dict[str, Any] = {"COPY": COPY}
    exec("\n".join(lines) + "\n", namespace)  # noqa: S102 - made here from the declaration
    return namespace["copy_fields"]


#: a declaration's items -> its fields' copier (made once per declaration)
_FIELD_COPIERS: dict[tuple[tuple[str, str], ...], Any] = {}


#: id of a declaration -> the number of fields a game of it has (checked once, not per copy)
_KNOWN: dict[int, int] = {}


class Copying:
    """What the copiers of :data:`COPY` share: the original, the copy's fields so far, the
    permanents' remap and the log level asked for."""

    __slots__ = ("src", "state", "remap", "log_level")

    def __init__(self, src: Game, state: dict[str, Any], remap: dict[int, Any],
                 log_level: str | None) -> None:
        self.src, self.state, self.remap, self.log_level = src, state, remap, log_level


def _players(copy: Copying, players: list[Player]) -> list[Player]:
    return [_copy_player(p) if type(p) is Player else _copier_of(type(p), _ZONES)(p)
            for p in players]


def _permanents(copy: Copying, permanents: dict[int, Permanent]) -> dict[int, Permanent]:
    new: dict[int, Permanent] = {}
    remap = copy.remap
    for uid, perm in permanents.items():
        q = _copy_permanent(perm) if type(perm) is Permanent else \
            _copier_of(type(perm), _COUNTS)(perm)
        new[uid] = q
        remap[id(perm)] = q
    return new


def _rng(copy: Copying, rng: random.Random) -> random.Random:
    if isinstance(rng, SharedRandom):  # the state shared until one of the two draws
        return rng.copy()
    new = random.Random.__new__(random.Random)  # not seeded from the OS: its state follows
    new.setstate(rng.getstate())
    return new


def _log(copy: Copying, log: EventLog) -> EventLog:
    new = _copy_log(log, copy.log_level)
    copy.state["emit"] = new.emitter
    return new


def _set_data(copy: Copying, data: dict[str, Any]) -> dict[str, Any]:
    # after the permanents: a permanent in it becomes the copy's
    return _copy_set_data(copy.src, copy.remap)


#: How a copy copies each kind of field of the state declaration (hkk._state.GAME_STATE).
def _as_is(copy: Copying, value: Any) -> Any:
    """An immutable value (or one never changed: the seed, the decks as dealt, the step),
    copied as it is."""
    return value


COPY: dict[str, Callable[[Copying, Any], Any]] = {
    "value": _as_is,
    "file": _as_is,  # the seed, the decks as dealt: never changed
    "players": _players,
    "permanents": _permanents,
    "effects": lambda copy, effects: [_slots(e, type(e)) for e in effects],
    "offers": lambda copy, offers: [_slots(o, type(o)) for o in offers],
    "counts": lambda copy, counts: dict(counts),
    "keys": lambda copy, keys: set(keys),
    "step": _as_is,
    "rng": _rng,
    "clock": lambda copy, clock: _copy_clock(clock),
    "set_data": _set_data,
    "position": lambda copy, machine: machine.copy(),
    "log": _log,
    "agents": lambda copy, agents: list(agents),
    "watch": lambda copy, watch: watch,  # copied last, by the watch (TriggerWatch.copy_for)
}


def copy_derived(src: Game, dst: Game, state: dict[str, Any], remap: dict[int, Any]) -> None:
    """What is derived from the permanents in play (hkk._state.DERIVED): the same, on the
    copy's permanents."""
    state["statics"] = [(remap.get(id(p), p), mod) for p, mod in src.statics]
    state["conditional_statics"] = [[remap.get(id(p), p), *rest]
                                    for p, *rest in src.conditional_statics]
    state["preventions"] = [(remap.get(id(p), p), prevent) for p, prevent in src.preventions]
    state["condition_events"] = set(src.condition_events)
    items = src.abilities_at
    if type(items) is LazyAbilities:  # a copy of a copy: the copy's own, first
        items = items.made()
    state["abilities_at"] = LazyAbilities(items, remap, dst)
    state["abilities_version"] = src.abilities_version
    state["hp_changed"] = {remap[id(p)] for p in src.hp_changed if id(p) in remap}
    state["hook_plans"] = copy_plans(src.hook_plans, dst)  # type: ignore[arg-type]
    state["views"] = state["shown"] = None  # made again by _seat


class LazyAbilities(dict):  # type: ignore[type-arg]
    """A copy's card ability items (``abilities_at``), made on the copy's first reading of
    them, which puts them in the copy in its place: a copy dropped before it runs a step never
    copies them.  It keeps the original's lists as they were (the game never changes one in
    place: hkk._changes makes new ones) and the permanents' remap; the items themselves are
    not changed once made (a custom effect's ``ctx.targets`` is set before it is read, in each
    apply).  (Not ``Game.__getattr__``: a class with one loses CPython's fast attribute
    reads, which every ``game.x`` of a seated game would pay.)"""

    __slots__ = ("_items", "_remap", "_game", "_made")

    def __init__(self, items: dict[str, list[Pending]], remap: dict[int, Any],
                 game: Game) -> None:
        super().__init__()
        self._items, self._remap, self._game = dict(items), remap, weakref.ref(game)
        self._made: dict[str, list[Pending]] | None = None

    def made(self) -> dict[str, list[Pending]]:
        made = self._made
        if made is None:
            remap = self._remap
            made = self._made = {timing: [_copy_item(item, remap) for item in items]
                                 for timing, items in self._items.items()}
            game = self._game()
            if game is not None and game.__dict__.get("abilities_at") is self:
                game.abilities_at = made
        return made

    # what the game's readers use (hkk._cards.interpret, hkk._changes), on the items made
    def get(self, key: str, default: Any = None) -> Any:
        return self.made().get(key, default)

    def items(self) -> Any:
        return self.made().items()

    def keys(self) -> Any:
        return self.made().keys()

    def values(self) -> Any:
        return self.made().values()

    def setdefault(self, key: str, default: Any = None) -> Any:
        return self.made().setdefault(key, default)

    def __getitem__(self, key: str) -> list[Pending]:
        return self.made()[key]

    def __setitem__(self, key: str, value: list[Pending]) -> None:
        self.made()[key] = value

    def __contains__(self, key: object) -> bool:
        return key in self.made()

    def __iter__(self) -> Any:
        return iter(self.made())

    def __len__(self) -> int:
        return len(self.made())


def _copy_item(item: Pending, remap: dict[int, Any]) -> Pending:
    """A card ability's pending item (``abilities_at``) for the copy's permanent."""
    new: Pending = _copy_pending(item) if type(item) is Pending else \
        _copier_of(type(item), ("data",))(item)
    new.source = remap.get(id(item.source), item.source)
    ctx = new.data.get("ctx")
    if ctx is not None:
        ctx = new.data["ctx"] = _copy_context(ctx) if type(ctx) is EffectContext else \
            _copier_of(type(ctx), ("targets", "trigger"))(ctx)
        ctx.source = remap.get(id(ctx.source), ctx.source)
    return new


def _copy_log(log: EventLog, level: str | None) -> EventLog:
    new = EventLog(level or log.level)
    if new.level == log.level:
        new._events = log._events[:]  # the spine only: events are immutable
        new._emitted = log._emitted
    else:
        new._emitted = log.emitted
    new.turn, new.step = log.turn, log.step
    return new


def _copy_clock(clock: Any) -> Any:
    if type(clock) is not GameClock:  # a clock of the caller's: its own business
        return copy.copy(clock)
    new = GameClock(clock.time_source)
    new.turn_times = dict(clock.turn_times)
    new._started, new._last_decision, new._closed_turn = \
        clock._started, clock._last_decision, clock._closed_turn
    return new


def _copy_set_data(src: Game, remap: dict[int, Any]) -> dict[str, Any]:
    """Each set's per-game data (``game.set_data[code]``), deep-copied; a permanent in it
    becomes the copy's permanent of the same uid."""
    data: dict[str, Any] = {}
    for code, value in src.set_data.items():
        try:
            data[code] = copy.deepcopy(value, dict(remap))
        except Exception as exc:  # noqa: BLE001 - any failure is the set's, named
            raise CloneError(f"set {code!r} keeps per-game data that cannot be copied "
                             f"(game.set_data[{code!r}]): {type(exc).__name__}: {exc}") from None
    return data
