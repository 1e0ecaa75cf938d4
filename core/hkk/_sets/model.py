"""What set discovery hands from stage to stage: a found :class:`Candidate`, a
:class:`LoadedSet`, the :class:`Discovery` result, and how a stage records a broken set."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

from hkk._errors import DataProblem, SetError
from hkk._sets.manifest import SetManifest

if TYPE_CHECKING:
    from hkk._cards.model import Card, Deck
    from hkk._formats import DeckFormat


ENTRY_POINT_GROUP = "hkk.sets"
ENV_ALLOW = "HKK_SETS_ALLOW"
ENV_DENY = "HKK_SETS_DENY"
#: A set's module is registered with pluggy as ``hkk.sets.<code>``.
PLUGIN_NAME_PREFIX = "hkk.sets."


class EntryPointLike(Protocol):
    name: str
    value: str

    def load(self) -> Any: ...


class _Named:
    """How a set is named in messages: its code, distribution and version."""

    code: str
    distribution: str | None
    version: str | None

    def error(self, message: str, stage: str, problems: tuple[DataProblem, ...] = ()
              ) -> SetError:
        return SetError(message, code=self.code, distribution=self.distribution,
                        version=self.version, stage=stage, problems=problems)

    @property
    def label(self) -> str:
        """``code (distribution version)``, how messages name another set."""
        return f"{self.code} ({self.distribution or '?'} {self.version or '?'})"


@dataclass(frozen=True)
class Candidate(_Named):
    """An installed set found through its entry point; nothing of it imported yet."""

    code: str
    distribution: str | None
    version: str | None
    entry_point: EntryPointLike = field(compare=False, repr=False)


@dataclass(frozen=True, eq=False)  # identity: it holds a module and unhashable lists
class LoadedSet(_Named):
    """A set whose package imported and whose manifest and cards validated."""

    code: str
    distribution: str | None
    version: str | None
    manifest: SetManifest
    #: The imported package; None for a data-only set (``python = true`` not in set.toml).
    module: ModuleType | None = field(repr=False)
    root: Traversable = field(repr=False)
    cards: list[Card] = field(repr=False)
    decks: dict[str, Deck] = field(repr=False)
    has_hooks: bool
    hook_names: list[str]
    #: The deck formats it ships (``formats/*.toml``, :mod:`hkk._formats`), by full name.
    formats: dict[str, DeckFormat] = field(default_factory=dict, repr=False)

    @property
    def plugin_name(self) -> str:
        return PLUGIN_NAME_PREFIX + self.code


@dataclass
class Discovery:
    """What :func:`discover` found. ``sets`` is in load (= registration) order."""

    sets: dict[str, LoadedSet]
    failures: list[SetError]
    disabled: list[Candidate]
    cards: dict[str, Card]
    decks: dict[str, Deck]
    pm: pluggy.PluginManager
    #: What disabled the sets in ``disabled``: the environment variable, the configuration
    #: file (its path and table) or the caller's ``allow``/``deny``.
    disabled_by: str = ""
    #: Every loaded set's deck formats by name (``alap:kezdo``).
    formats: dict[str, DeckFormat] = field(default_factory=dict)


def _fail(failures: list[SetError] | None, error: SetError) -> None:
    if failures is None:
        raise error
    failures.append(error)
