"""Assertions on a game's event log, with failure messages a person can read."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from hkk import events as event_kinds
from hkk.testing import EventRenderer, plain

#: Event attributes (not data fields) a query may name.
_ATTRIBUTES = ("turn", "step", "kind", "seq")


class LogAssert:
    """Query and assert on an :class:`hkk.EventLog`.

    A query is an event kind plus fields: ``has("died", card="alap:tuzmano", step="end_stage2")``.
    A field matches by equality, or by calling it if it is callable (``amount=lambda n: n > 1``).
    ``turn``, ``step`` and ``seq`` match the event's own attributes.  A kind the engine does not
    log, or a field its class (:mod:`hkk.events`) does not have, is a ``ValueError`` naming the
    kind's fields: a typo fails at once instead of matching nothing.  A hook API 1 field name
    (``count``) still matches, for one release, with a DeprecationWarning naming the new one."""

    def __init__(self, log: Any, cards: Mapping[str, Any] | None = None, *,
                 context: int = 12) -> None:
        self.log = log
        self.cards = cards or {}
        self.context = context

    # -- queries ------------------------------------------------------------------------------

    def find(self, kind: str | None = None, **fields: Any) -> list[Any]:
        fields = _checked_query(kind, fields)
        return [e for e in self.log if _matches(e, kind, fields)]

    def count(self, kind: str | None = None, **fields: Any) -> int:
        return len(self.find(kind, **fields))

    def resolved(self, step: str | None = None) -> list[str]:
        """Labels of resolved items (in ``step``), in order."""
        return [e["item"] for e in self.find("resolving", **({"step": step} if step else {}))]

    # -- assertions ---------------------------------------------------------------------------

    def has(self, kind: str, **fields: Any) -> Any:
        """The first matching event; fails showing the events of that kind and the log's end."""
        __tracebackhide__ = True
        found = self.find(kind, **fields)
        if not found:
            raise AssertionError(self._explain(f"no {_query(kind, fields)} in the log", kind))
        return found[0]

    def lacks(self, kind: str, **fields: Any) -> None:
        __tracebackhide__ = True
        found = self.find(kind, **fields)
        if found:
            raise AssertionError(self._explain(
                f"expected no {_query(kind, fields)}, found {len(found)}:\n"
                + "\n".join(self._lines(found)), None))

    def has_count(self, expected: int, kind: str, **fields: Any) -> list[Any]:
        __tracebackhide__ = True
        found = self.find(kind, **fields)
        if len(found) != expected:
            raise AssertionError(self._explain(
                f"expected {expected} {_query(kind, fields)}, found {len(found)}", kind))
        return found

    def in_order(self, *queries: str | tuple[str, Mapping[str, Any]]) -> list[Any]:
        """Events matching the queries exist in this order (others may come between).  A query
        is a kind or ``(kind, {field: value})``."""
        __tracebackhide__ = True
        matched: list[Any] = []
        events = list(self.log)
        start = 0
        for query in queries:
            kind, fields = (query, {}) if isinstance(query, str) else (query[0], dict(query[1]))
            fields = _checked_query(kind, fields)
            hit = next((i for i in range(start, len(events))
                        if _matches(events[i], kind, fields)), None)
            if hit is None:
                done = "\n".join(self._lines(matched)) or "  (none)"
                raise AssertionError(self._explain(
                    f"no {_query(kind, fields)} after the events matched so far:\n{done}", kind))
            matched.append(events[hit])
            start = hit + 1
        return matched

    # -- output -------------------------------------------------------------------------------

    def render(self, events: Any = None) -> str:
        """The log (or some events) as readable text, one event a line."""
        return "\n".join(self._lines(self.log if events is None else events))

    def _lines(self, events: Any) -> list[str]:
        renderer = EventRenderer(self.cards)
        for e in self.log:  # learn every uid's card first
            if e.kind == "entered_play":
                renderer.uids[e.uid] = e.card
        lines = []
        for e in events:
            line = renderer.line(e)
            text = plain(line).strip() if line else e.kind
            lines.append(f"  #{e.seq} t{e.turn} {e.step or '-'}: {text}  {e.data}")
        return lines

    def _explain(self, headline: str, kind: str | None) -> str:
        parts = [headline]
        if kind is not None:
            same = self.find(kind)
            parts.append(f"events of kind {kind!r} ({len(same)}):")
            parts.append("\n".join(self._lines(same[:20])) or "  (none)")
        tail = list(self.log)[-self.context:]
        parts.append(f"last {len(tail)} of {len(self.log)} events:")
        parts.append("\n".join(self._lines(tail)) or "  (empty log)")
        return "\n".join(parts)


def _checked_query(kind: str | None, fields: dict[str, Any]) -> dict[str, Any]:
    """The query's fields, each one its kind has (an old name: its new one, with a warning,
    or for an old value computed from new fields - ``prevented``'s ``by`` - the old name);
    a ValueError for an unknown kind or field."""
    if kind is None:
        known = {name for cls in event_kinds.KINDS.values() for name in cls.FIELDS}
        old = {name for cls in event_kinds.KINDS.values() for name in (*cls.RENAMED,
                                                                        *cls.LEGACY)}
        unknown = sorted(set(fields) - known - old - set(_ATTRIBUTES))
        if unknown:
            raise ValueError(f"no event kind has the field(s) {', '.join(unknown)}")
        return fields  # an old name is warned of by the event it is read of
    try:
        cls = event_kinds.of(kind)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    checked = {}
    for name, want in fields.items():
        if name not in cls.FIELDS and name not in _ATTRIBUTES:
            new = cls.RENAMED.get(name)
            if new is None and name not in cls.LEGACY:
                raise ValueError(f"{kind!r} events have no field {name!r}; their fields: "
                                 f"{', '.join(cls.FIELDS)}")
            _deprecated(kind, name, new or cls.LEGACY[name].__doc__ or "gone")
            name = new or name
        checked[name] = want
    return checked


def _deprecated(kind: str | None, name: str, now: str) -> None:
    what = f"{kind!r} event field" if kind else "event field"
    warnings.warn(f"{what} {name!r} is {now!r} since hook API 2.0", DeprecationWarning,
                  stacklevel=5)


def _matches(event: Any, kind: str | None, fields: Mapping[str, Any]) -> bool:
    if kind is not None and event.kind != kind:
        return False
    for name, want in fields.items():
        if name in _ATTRIBUTES:
            have = getattr(event, name)
        elif name in event.FIELDS:
            have = getattr(event, name)
            if have is None and name in event.OPTIONAL:  # this event leaves it out
                return False
        elif kind is None and (name in event.RENAMED or name in event.LEGACY):
            have = event[name]  # a hook API 1 name in a query of any kind: warns
        elif name in event.LEGACY:  # computed (a query of one kind warned already)
            have = event.LEGACY[name](event)
        else:
            return False
        if callable(want) and not isinstance(want, type):
            if not want(have):
                return False
        elif have != want:
            return False
    return True


def _query(kind: str | None, fields: Mapping[str, Any]) -> str:
    shown = ", ".join(f"{k}={_show(v)}" for k, v in fields.items())
    return f"{kind or 'event'!s} event" + (f" with {shown}" if shown else "")


def _show(value: Any) -> str:
    if callable(value) and not isinstance(value, type):
        return getattr(value, "__name__", "<predicate>")
    return repr(value)

