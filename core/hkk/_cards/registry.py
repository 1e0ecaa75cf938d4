"""Registries of the card-data language: the words a card file may use, each defined once.

Three parts of the language are open lists, each a :class:`Registry` of classes, one class per
word: the effect verbs (``do``, :mod:`hkk._cards.verbs`), the trigger events (``when.event``,
:mod:`hkk._cards.trigger_events`) and the condition quantities (``of``,
:mod:`hkk._cards.quantities`).  The card models do not list the words: a field names a registry
through a marker (:class:`TaggedUnionOf`, :class:`NameOf`) whose schema is built from what is
registered when the model is built, and registering a word later rebuilds the models
(:meth:`Registry.on_change`), so the new word is valid card data at once.

Words are kept in name order: the schema, the errors and ``hkk cards`` list them alphabetically,
whatever order their modules were imported in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Annotated, Any, Generic, Literal, TypeVar, Union

from pydantic import Field, GetCoreSchemaHandler
from pydantic_core import CoreSchema

__all__ = ["NameOf", "Registry", "TaggedUnionOf"]

T = TypeVar("T")


class Registry(Generic[T]):
    """Named entries of one part of the card language, in name order."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._entries: dict[str, T] = {}
        self._listeners: list[Callable[[], None]] = []

    def register(self, name: str, entry: T) -> None:
        """Add ``entry`` as ``name``; a name is registered once (two meanings would be a bug)."""
        old = self._entries.get(name)
        if old is not None:
            raise ValueError(f"{self.what} {name!r} is registered twice: by {_where(old)} and "
                             f"by {_where(entry)}")
        self._entries = dict(sorted({**self._entries, name: entry}.items()))
        self._changed()

    def unregister(self, name: str) -> None:
        """Remove ``name`` (a test's own word, after the test)."""
        del self._entries[name]
        self._changed()

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every later registration (the card models rebuild)."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in self._listeners:
            listener()

    def __getitem__(self, name: str) -> T:
        return self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def names(self) -> tuple[str, ...]:
        return tuple(self._entries)

    def values(self) -> tuple[T, ...]:
        return tuple(self._entries.values())


def _where(entry: Any) -> str:
    kind = entry if isinstance(entry, type) else type(entry)
    return f"{kind.__module__}.{kind.__qualname__}"


class TaggedUnionOf:
    """Pydantic marker: the registered models (those ``keep`` accepts) as one union
    discriminated by ``tag``, exactly as ``Field(discriminator=tag)`` on a written-out union."""

    def __init__(self, registry: Registry[Any], tag: str,
                 keep: Callable[[Any], bool] = lambda model: True) -> None:
        self.registry = registry
        self.tag = tag
        self.keep = keep

    def __get_pydantic_core_schema__(self, source: Any,
                                     handler: GetCoreSchemaHandler) -> CoreSchema:
        models = tuple(model for model in self.registry.values() if self.keep(model))
        return handler.generate_schema(
            Annotated[Union[models], Field(discriminator=self.tag)])  # noqa: UP007


class NameOf:
    """Pydantic marker: one of ``names()`` (a ``Literal`` of what is registered now)."""

    def __init__(self, names: Callable[[], tuple[str, ...]]) -> None:
        self.names = names

    def __get_pydantic_core_schema__(self, source: Any,
                                     handler: GetCoreSchemaHandler) -> CoreSchema:
        return handler.generate_schema(Literal[self.names()])
