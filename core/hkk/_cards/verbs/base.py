"""What a ``do`` verb of the card-data language is: :class:`Verb`, and the registry of verbs.

A verb is one pydantic model (its fields are what a card file writes after ``do = "..."``)
that also knows how to bind its targets, apply itself to the game and describe itself for
``hkk cards``; :data:`VERBS` holds them by name (``register_verb``).  Applying calls the game's
change primitives (:mod:`hkk._changes`), which log the events; ``emits`` names their kinds'
classes (:mod:`hkk.events`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

from pydantic import BaseModel, model_validator

from hkk._cards.amounts import Where
from hkk._cards.registry import Registry
from hkk._cards.targets import filtered_targets, select_targets
from hkk._cards.types import (
    CONFIG,
    PERMANENT_TARGETS,
    PLAYER_TARGETS,
    TRIGGER_TARGETS,
    Target,
    invalid,
    require_target,
)
from hkk.events import Event

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._cards.wording import Voice
    from hkk._view import GameActions

__all__ = ["VERBS", "FilteredVerb", "PermanentVerb", "PlayerVerb", "Verb", "counted",
           "register_verb", "unregister_verb"]


class Verb(BaseModel):
    # No docstring on purpose: a model's docstring is its description in ``hkk schema``.
    model_config = CONFIG

    #: The event kinds (classes of hkk.events) its changes log; empty: it logs none of
    #: its own.
    emits: ClassVar[tuple[type[Event], ...]] = ()
    #: Only for static abilities (``prevent``): a standing state, never applied as a change.
    static_only: ClassVar[bool] = False

    if TYPE_CHECKING:
        do: str  # each verb's own ``Literal`` field, its tag

    def bind(self, game: GameActions, ctx: EffectContext) -> list[Any]:
        """The targets, chosen when the item is bound (before a simultaneous moment, 29.4.2)."""
        target = getattr(self, "target", None)
        return [] if target is None else select_targets(game, ctx, target)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        raise NotImplementedError(f"the verb {self.do!r} does not say how it applies")

    def hu(self, voice: Voice) -> str:
        """The printed text of this effect in Hungarian, as ``voice`` says it is worded where
        it stands (hkk._cards.wording; a whole card: hkk._cards.printed)."""
        from hkk._cards.wording import NoTemplate

        raise NoTemplate(f"the verb {self.do!r} has no printed-text template")

    def describe(self) -> str:
        """``damage 2 opponent``: the verb and its fields' values in order (``hkk cards``)."""
        data = self.model_dump()
        del data["do"]
        words = [self.do, *(self.describe_field(key, value) for key, value in data.items()
                            if value is not None and value != ())]
        return " ".join(word for word in words if word)

    def describe_field(self, key: str, value: Any) -> str:
        """One field's value in :meth:`describe` ("" leaves it out)."""
        if isinstance(value, bool):
            return key if value else ""
        if isinstance(value, (list, tuple)):
            return ",".join(str(v) for v in value)
        if isinstance(value, dict) and "count" in value:  # a counted amount
            return counted(value)
        if isinstance(value, dict) and key == "where":  # a filter on each permanent
            return "where " + " ".join(str(v) for v in value.values() if v is not None)
        return str(value)


def counted(count: dict[str, Any]) -> str:
    """A counted amount in ``hkk cards`` (``model_dump`` gives it as a dict): ``own_creatures``,
    ``2x own_creatures``."""
    times = count.get("times", 1)
    return f"{times}x {count['count']}" if times != 1 else str(count["count"])


#: The targets a filter (``where``) may narrow: groups and choices of permanents.
FILTERABLE = PERMANENT_TARGETS - TRIGGER_TARGETS - {"self"}


class FilteredVerb(Verb):
    # Verbs that may act on permanents: ``where`` keeps those of the target it holds for.
    where: Where | None = None

    @model_validator(mode="after")
    def _filter_fits_target(self) -> Self:
        if self.where is not None and getattr(self, "target", None) not in FILTERABLE:
            raise invalid(f"where filters a group or a choice of permanents, one of "
                          f"{', '.join(sorted(FILTERABLE))}; not target "
                          f"'{getattr(self, 'target', None)}'")
        return self

    if TYPE_CHECKING:
        target: str  # each verb's own field: a permanent verb always has a target

    def bind(self, game: GameActions, ctx: EffectContext) -> list[Any]:
        if self.where is None:  # as Verb.bind
            return select_targets(game, ctx, self.target)
        return filtered_targets(game, ctx, self.target, self.where)


class PlayerVerb(Verb):
    # Verbs that only make sense for a player (VP, cards, components).
    target: Target = "controller"

    @model_validator(mode="after")
    def _player_target(self) -> Self:
        require_target(self.target, PLAYER_TARGETS, "a player", self.do)
        return self


class PermanentVerb(FilteredVerb):
    # Verbs that only make sense for permanents on the table.
    target: Target
    #: Which permanents the verb can act on; creatures only for defence bonuses.
    allowed_targets: ClassVar[frozenset[str]] = PERMANENT_TARGETS
    target_kind: ClassVar[str] = "a permanent"

    @model_validator(mode="after")
    def _permanent_target(self) -> Self:
        require_target(self.target, self.allowed_targets, self.target_kind, self.do)
        return self


#: Every ``do`` verb by name.
VERBS: Registry[type[Verb]] = Registry("verb")

V = TypeVar("V", bound=Verb)


def register_verb(verb: type[V]) -> type[V]:
    """Class decorator: ``verb`` is the meaning of ``do = "<its do>"`` in card data from now
    on (the card models are rebuilt to accept it)."""
    VERBS.register(verb.model_fields["do"].default, verb)
    return verb


def unregister_verb(name: str) -> None:
    """Forget the verb ``name`` (for a test's own verb)."""
    VERBS.unregister(name)
