"""The ``do`` verbs of the card-data language, one class each (:class:`Verb`).

Every module of this package is imported here, and each registers its verbs
(``@register_verb``): adding a verb is adding a module, nothing else.  The card models take the
``do`` union from :data:`VERBS` (:mod:`hkk._cards.registry`).
"""

from importlib import import_module
from pkgutil import iter_modules

from hkk._cards.verbs.base import (
    VERBS,
    PermanentVerb,
    PlayerVerb,
    Verb,
    register_verb,
    unregister_verb,
)

__all__ = ["VERBS", "PermanentVerb", "PlayerVerb", "Verb", "register_verb", "unregister_verb"]

for _module in iter_modules(__path__):
    if _module.name != "base":
        import_module(f"{__name__}.{_module.name}")
