"""The ``do`` verbs of the card-data language, one class each (:class:`Verb`).

Every module of this package is imported here, and each registers its verbs
(``@register_verb``): adding a verb is adding a module, nothing else.  The card models take the
``do`` union from :data:`VERBS` (:mod:`hkk._cards.registry`).

To add a verb, write ``verbs/<verb>.py`` with one class::

    @register_verb
    class Mill(PlayerVerb):              # PlayerVerb / PermanentVerb check the target's kind
        do: Literal["mill"] = "mill"     # the tag a card file writes
        count: int = Field(gt=0, le=MAX_STAT)
        emits: ClassVar[tuple[type[Event], ...]] = (CardMilled,)   # classes of hkk.events

        def apply(self, game, ctx, targets):   # call the game's change primitives, which log
            for player in targets:
                game.mill(player.index, self.count, source=ctx.label)

A kind of event the engine does not log yet (``CardMilled``) is declared in :mod:`hkk.events`
first.  Its fields are the card data (validated as every card model is: strict, frozen, no unknown
field; a validator raises :func:`hkk._cards.types.invalid` for a card rule).  ``bind`` (the
targets its ``target`` names, before a simultaneous moment) and ``describe`` (its line in
``hkk cards``; override ``describe_field`` for one field's words) have defaults.  A docstring is
its description in ``hkk schema``.  Registered later (a test's own verb), it is valid card data
at once: the card models rebuild.
"""

from importlib import import_module
from pkgutil import iter_modules

from hkk._cards.verbs.base import (
    VERBS,
    FilteredVerb,
    PermanentVerb,
    PlayerVerb,
    Verb,
    register_verb,
    unregister_verb,
)

__all__ = ["VERBS", "FilteredVerb", "PermanentVerb", "PlayerVerb", "Verb", "register_verb",
           "unregister_verb"]

for _module in iter_modules(__path__):
    if _module.name != "base":
        import_module(f"{__name__}.{_module.name}")
