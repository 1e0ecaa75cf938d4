"""The game's append-only event log: everything that happens is an event.

Tests assert on it, the CLI prints it, replays are built from it.  An event is an instance of
its kind's class (:mod:`hkk.events`) holding only plain data (str, int, bool, None, lists of
those), so a log turns into JSON as it is and two runs with the same seed and decisions give
equal logs.  The engine emits ``game.emit(Died, uid=..., ...)``: the kind's class and its
fields; the log builds the event only when it keeps it or somebody listens.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from hkk._errors import BadArgument
from hkk.events import Decided, Event, GameEnded, HpCheck, StepEnded, StepStarted, of

#: How much of its log a game keeps (``Engine.new_game(..., log_level=...)``).  Listeners get
#: every event of the kinds they subscribed to at every level; the level decides only what the
#: log keeps, and what is not built at all when nobody listens.
#:
#: - ``full``: every event (the default; saves, replays and tests need it);
#: - ``compact``: what happened, without the bookkeeping: no ``step_started``/``step_ended``,
#:   no ``decision`` and no Ép check that found nobody (``hp_check`` with ``dead == []``);
#: - ``outcome``: only ``game_over`` (winner, reason), for mass simulation.
#:
#: Kept events carry the ``seq`` they would have in the full log, so they can be compared
#: with it; ``log.emitted`` counts every event, kept or not.
LOG_LEVELS = ("full", "compact", "outcome")

#: The kinds the compact level leaves out (and ``hp_check`` when it found nobody).
COMPACT_DROPS: frozenset[type[Event]] = frozenset({StepStarted, StepEnded, Decided})

#: The kinds the outcome level keeps.
OUTCOME_KEEPS: frozenset[type[Event]] = frozenset({GameEnded})

#: The bookkeeping kinds logged at every step and decision: where a log neither keeps nor hands
#: them to anyone (:attr:`EventLog.quiet`), their emitters skip building them.
BOOKKEEPING: frozenset[type[Event]] = frozenset({StepStarted, StepEnded, Decided, HpCheck})

#: The kinds a log of each level keeps quiet while nobody listens to them (``EventLog.quiet``):
#: the compact log keeps an Ép check that found somebody.
_NOTHING: frozenset[type[Event]] = frozenset()
_QUIET: dict[str, frozenset[type[Event]]] = {
    "full": _NOTHING, "compact": COMPACT_DROPS, "outcome": BOOKKEEPING - OUTCOME_KEEPS}


class EventLog:
    """Append-only list of :class:`Event`."""

    __slots__ = ("_events", "turn", "step", "_listeners", "_listeners_of", "level", "_emitted",
                 "quiet", "_silent", "_own")

    def __init__(self, level: str = "full") -> None:
        if level not in LOG_LEVELS:
            raise BadArgument(f"unknown log level {level!r}; the levels are "
                              f"{list(LOG_LEVELS)}")
        self._events: list[Event] = []
        self.turn = 0
        self.step = ""
        self._listeners: list[Callable[[Event], Any]] = []
        self._listeners_of: dict[type[Event], list[Callable[[Event], Any]]] = {}
        self.level = level
        self._emitted = 0  # events emitted at a lower level (the full log counts its list)
        #: Kinds of :data:`BOOKKEEPING` whose events this log neither keeps nor hands to any
        #: listener: a hot emitter may test ``Kind in log.quiet`` and call :meth:`skip`
        #: instead of emitting (nothing is built; the next event's ``seq`` is the same).
        #: Always empty for the full log; kept current by :meth:`subscribe`.
        self.quiet: frozenset[type[Event]] = frozenset()
        #: Kinds seen to be neither kept at this level nor received by anybody, whatever their
        #: data (:meth:`_silent_kind`): :meth:`_append_lean` only counts them.
        self._silent: set[type[Event]] = set()
        #: ids of the listeners the game's own machinery subscribed (``own=True``): a copy of
        #: the game makes its own; the others are the caller's (a printer, a recorder)
        self._own: set[int] = set()
        self._update_quiet()

    def _update_quiet(self) -> None:
        quiet = _NOTHING if self._listeners else _QUIET[self.level]
        self.quiet = quiet - self._listeners_of.keys() if self._listeners_of and quiet else quiet
        self._silent = set()

    def _silent_kind(self, kind: type[Event]) -> bool:
        """Whether no event of ``kind`` is kept at this level or received by a listener,
        whatever its data (a compact log keeps an Ép check that found somebody)."""
        if self._listeners or kind in self._listeners_of:
            return False
        if self.level == "outcome":
            return kind not in OUTCOME_KEEPS
        return self.level == "compact" and kind in COMPACT_DROPS

    def skip(self) -> None:
        """An event of a :attr:`quiet` kind was emitted, and not built: count it."""
        self._emitted += 1

    @property
    def emitter(self) -> Callable[..., Event | None]:
        """The function a game emits through (``game.emit``): :meth:`_append_full` for the
        full log, else one that builds an event only when it is kept or listened to."""
        return self._append_full if self.level == "full" else self._append_lean

    @property
    def emitted(self) -> int:
        """How many events were emitted, kept or not (the next event's ``seq``)."""
        return len(self._events) if self.level == "full" else self._emitted

    def append(self, kind: type[Event], **data: Any) -> Event | None:
        """Log an event of ``kind`` (its class) with these fields."""
        if isinstance(kind, str):
            raise TypeError(f"log an event by its class, append({of(kind).__name__}, ...) "
                            f"(hkk.events), not by its kind name {kind!r}")
        if self.level != "full":
            return self._append_lean(kind, **data)
        return self._append_full(kind, **data)

    def _append_full(self, kind: type[Event], **data: Any) -> Event:
        """:meth:`append` at the full level, without asking the level (the hot path)."""
        events = self._events
        event = kind(len(events), self.turn, self.step, **data)
        events.append(event)
        if self._listeners:
            for listener in self._listeners:
                listener(event)
        listeners = self._listeners_of.get(kind)
        if listeners:
            for listener in listeners:
                listener(event)
        return event

    def _append_lean(self, kind: type[Event], **data: Any) -> Event | None:
        """:meth:`append` at the compact and outcome levels: the same events reach listeners,
        the log keeps what its level keeps, and nothing is built for nobody."""
        if kind in self._silent:  # the common case at these levels: only counted
            self._emitted += 1
            return None
        seq = self._emitted
        self._emitted = seq + 1
        if self.level == "outcome":
            keep = kind in OUTCOME_KEEPS
        else:
            keep = kind not in COMPACT_DROPS and not (kind is HpCheck and not data["dead"])
        listeners = self._listeners_of.get(kind) if self._listeners_of else None
        if not (keep or listeners or self._listeners):
            if self._silent_kind(kind):
                self._silent.add(kind)
            return None
        event = kind(seq, self.turn, self.step, **data)
        if keep:
            self._events.append(event)
        for listener in self._listeners:
            listener(event)
        if listeners:
            for listener in listeners:
                listener(event)
        return event

    def restore(self, events: list[Event]) -> None:
        """Take the events of a loaded save (:mod:`hkk._saving`); listeners are not called."""
        if self.level != "full":
            raise ValueError("a saved log can be restored only into a full log")
        self._events.extend(events)

    def subscribe(self, listener: Callable[[Event], Any],
                  kinds: Iterable[str | type[Event]] | None = None, *, own: bool = False) -> None:
        """Call ``listener(event)`` for every event from now on (the CLI prints live), or only
        for events of ``kinds`` (classes or kind names; an unknown name is a KeyError).  Naming
        the kinds is the cheap way to listen: whatever a game keeps of its log, the events of a
        kind someone listens to are still made."""
        if own:  # the engine's (the trigger watch, conditions): not handed to a copy
            self._own.add(id(listener))
        if kinds is None:
            self._listeners.append(listener)
        else:
            lists = self._listeners_of
            for kind in kinds:  # a copy of a game subscribes its watch: written for speed
                cls = of(kind) if isinstance(kind, str) else kind
                found = lists.get(cls)
                if found is None:
                    lists[cls] = [listener]
                else:
                    found.append(listener)
        self._update_quiet()

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __len__(self) -> int:
        return len(self._events)

    def __getitem__(self, index: int) -> Event:
        return self._events[index]

    def of_kind(self, *kinds: str | type[Event]) -> list[Event]:
        """The events of these kinds (names or classes), in order."""
        names = {k if isinstance(k, str) else k.kind for k in kinds}
        return [e for e in self._events if e.kind in names]

    def kinds(self) -> list[str]:
        return [e.kind for e in self._events]

    def as_dicts(self) -> list[dict[str, Any]]:
        return [e.as_dict() for e in self._events]

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.as_dicts(), ensure_ascii=False, **kwargs)
