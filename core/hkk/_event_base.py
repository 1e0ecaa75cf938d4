"""The base of every event kind: the :class:`Event` class, the :func:`kind` decorator that makes
a class a kind, :func:`field` and the registry of kinds (:data:`KINDS`, :func:`of`).

The kinds themselves, and the public names, are in :mod:`hkk.events` (which re-exports these).

Why a tuple underneath, not a frozen dataclass: the engine builds events on its hot path, and a
frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` (one Python line
a field, about 5x the time of a tuple's one line; ``benchmarks/bench_work.py`` counts it).
The classes behave like frozen slotted dataclasses otherwise: no ``__dict__``, no assignment,
equality by kind and values.
"""

from __future__ import annotations

import warnings
from collections import namedtuple
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from typing import Self

__all__ = ["ENVELOPE", "KINDS", "Event", "field", "kind", "of"]
#: Every event carries these attributes besides its fields (in JSON and ``as_dict()`` they come
#: first, with ``kind``).
ENVELOPE: dict[str, str] = {
    "seq": "position in the log, from 0",
    "turn": "the turn number, from 1 (0 before the first turn)",
    "step": "the hook name of the step it happened in (`main_phase`, `end_stage2`…); "
            "`\"\"` outside steps (setup, the start and end of a turn)",
    "kind": "the event kind (the headings below)",
}
_ENVELOPE_FIELDS = ("seq", "turn", "step")
#: An event's field values, after the envelope (read with tuple's own indexing).
_FIELD_VALUES = slice(len(_ENVELOPE_FIELDS), None)
_item = tuple.__getitem__

#: kind string -> its class, in declaration order.
KINDS: dict[str, type[Event]] = {}


#: namedtuple, through a name mypy does not special-case (the field names are made at run time).
_tuple_class: Any = namedtuple


class _Field:
    __slots__ = ("meaning", "optional")

    def __init__(self, meaning: str, optional: bool) -> None:
        self.meaning = meaning
        self.optional = optional


def field(meaning: str, *, optional: bool = False) -> Any:
    """Declare a field of an event class: what it holds.  An ``optional`` field is missing
    (None, and left out of ``as_dict()``) from the events of the kind that do not carry it;
    optional fields come last."""
    return _Field(meaning, optional)


class Event(tuple):  # type: ignore[type-arg]
    """One entry of the game's log.  Subclasses (one per kind) are made by :func:`kind`."""

    __slots__ = ()

    #: The kind's name in the log (``"died"``).
    kind: ClassVar[str] = ""
    #: What it means, for the reference page (the class docstring).
    meaning: ClassVar[str] = ""
    #: Rule points (Kódex numbers, ``D-…``/``R-…`` tags of docs/RULINGS.md) where it is emitted.
    rules: ClassVar[tuple[str, ...]] = ()
    #: Non-empty for kinds ordinary seeded games do not emit: when it happens.
    rare: ClassVar[str] = ""
    #: field name -> what it holds, in order (the envelope not included).
    FIELDS: ClassVar[dict[str, str]] = {}
    #: The fields some events of the kind leave out.
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    #: Hook API 1 field name -> the field it is now (read with a DeprecationWarning).
    RENAMED: ClassVar[dict[str, str]] = {}
    #: Hook API 1 field name -> how its old value is computed, where it is not a plain rename.
    LEGACY: ClassVar[dict[str, Callable[[Any], Any]]] = {}
    _fields: ClassVar[tuple[str, ...]]

    if TYPE_CHECKING:  # the envelope and the constructor, for type checkers
        seq: int
        turn: int
        step: str

        def __new__(cls, seq: int, turn: int, step: str, /, **fields: Any) -> Self: ...

    # -- reading -----------------------------------------------------------------------------

    def __getitem__(self, key: Any) -> Any:
        if type(key) is not str:
            return tuple.__getitem__(self, key)
        if key in self.FIELDS or key in _ENVELOPE_FIELDS:
            return getattr(self, key)
        return self._legacy(key)

    def get(self, key: str, default: Any = None) -> Any:
        """A field's value; ``default`` for an optional field this event leaves out (or a name
        the kind does not have)."""
        if key in self.FIELDS or key in _ENVELOPE_FIELDS:
            value = getattr(self, key)
            return default if value is None and key in self.OPTIONAL else value
        if key in self.RENAMED or key in self.LEGACY:
            return self._legacy(key)
        return default

    def __getattr__(self, name: str) -> Any:  # only for names that are not fields
        if name in type(self).RENAMED or name in type(self).LEGACY:
            return self._legacy(name)
        raise AttributeError(f"{self.kind!r} event has no field {name!r}; its fields: "
                             f"{', '.join(self.FIELDS)}")

    def _legacy(self, old: str) -> Any:
        cls = type(self)
        new = cls.RENAMED.get(old)
        if new is None and old not in cls.LEGACY:
            raise KeyError(f"{cls.kind!r} event has no field {old!r}; its fields: "
                           f"{', '.join(cls.FIELDS)}")
        warnings.warn(f"{cls.kind!r} event field {old!r} is {new or cls._legacy_note(old)!r} "
                      f"since hook API 2.0; the old name goes in the next release",
                      DeprecationWarning, stacklevel=3)
        return cls.LEGACY[old](self) if old in cls.LEGACY else getattr(self, new)  # type: ignore[arg-type]

    @classmethod
    def _legacy_note(cls, old: str) -> str:
        return getattr(cls.LEGACY[old], "__doc__", None) or old

    # (read through tuple's own indexing: this class's ``__getitem__`` is Python, and a full
    # log's reading, ``as_dicts``, JSON, a save, calls these once an event)
    @property
    def data(self) -> dict[str, Any]:
        """The fields as a dict, in order (the optional ones this event leaves out omitted)."""
        values = _item(self, _FIELD_VALUES)
        optional = self.OPTIONAL
        if not optional:
            return dict(zip(self.FIELDS, values, strict=True))
        return {name: value for name, value in zip(self.FIELDS, values, strict=True)
                if not (value is None and name in optional)}

    def as_dict(self) -> dict[str, Any]:
        """The envelope (``seq``, ``turn``, ``step``, ``kind``), then the fields in class order:
        the event's JSON."""
        result = {"seq": _item(self, 0), "turn": _item(self, 1), "step": _item(self, 2),
                  "kind": self.kind}
        if self.OPTIONAL:
            result.update(self.data)
        else:
            result.update(zip(self.FIELDS, _item(self, _FIELD_VALUES), strict=True))
        return result

    # -- comparing ---------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        details = " ".join(f"{k}={v!r}" for k, v in self.data.items())
        return f"<{self[0]} t{self[1]} {self[2]} {self.kind} {details}>"


def kind(name: str, *, rules: tuple[str, ...] = (), rare: str = "",
         renamed: dict[str, str] | None = None,
         legacy: dict[str, Callable[[Any], Any]] | None = None) -> Callable[[type], Any]:
    """Make the decorated class an event kind ``name``: its annotated attributes (each
    ``= field("...")``) are its fields, in order.  ``renamed``: hook API 1 names of its fields
    (old -> new), still read with a DeprecationWarning; ``legacy``: old names whose value is
    computed (a function of the event whose docstring names what to read instead)."""

    def make(cls: type) -> type[Event]:
        names = list(cls.__dict__.get("__annotations__", {}))
        specs: list[_Field] = []
        for field_name in names:
            spec = cls.__dict__.get(field_name)
            if not isinstance(spec, _Field):
                raise TypeError(f"event {name!r}: field {field_name!r} needs = field(...)")
            specs.append(spec)
        optional = [n for n, s in zip(names, specs, strict=True) if s.optional]
        if names[len(names) - len(optional):] != optional:
            raise TypeError(f"event {name!r}: optional fields come last")
        if name in KINDS:
            raise TypeError(f"event kind {name!r} is defined twice")
        taken = [n for n in names if hasattr(Event, n) or n in _ENVELOPE_FIELDS]
        if taken:
            raise TypeError(f"event {name!r}: field names {taken} are taken by Event")
        base = _tuple_class(cls.__name__, _ENVELOPE_FIELDS + tuple(names),
                            defaults=(None,) * len(optional), module=cls.__module__)
        namespace: dict[str, Any] = {
            "__slots__": (), "__doc__": cls.__doc__, "__module__": cls.__module__,
            "__qualname__": cls.__qualname__, "kind": name,
            "meaning": " ".join((cls.__doc__ or "").split()), "rules": rules, "rare": rare,
            "FIELDS": {n: s.meaning for n, s in zip(names, specs, strict=True)},
            "OPTIONAL": frozenset(optional), "RENAMED": dict(renamed or {}),
            "LEGACY": dict(legacy or {})}
        for old in (*(renamed or {}), *(legacy or {})):
            if hasattr(base, old):  # tuple's own (``count``) would answer before __getattr__
                namespace[old] = property(_legacy_reader(old))
        made: type[Event] = type(cls.__name__, (Event, base), namespace)
        KINDS[name] = made
        return made

    return make


def _legacy_reader(old: str) -> Callable[[Event], Any]:
    def read(event: Event) -> Any:
        return event._legacy(old)
    return read


def of(name: str) -> type[Event]:
    """The class of the event kind ``name``; a KeyError naming the kinds if there is none."""
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"no event kind {name!r}; the kinds are {', '.join(KINDS)}") from None
