"""``do = "custom"``: a named Python effect of a set (its ``custom_effects`` hook)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from hkk._cards.types import Target, Text
from hkk._cards.verbs.base import Verb, register_verb

if TYPE_CHECKING:
    from hkk._cards.context import EffectContext
    from hkk._view import GameActions


@register_verb
class Custom(Verb):
    """A named Python effect offered by a set's ``custom_effects`` hook, called with ``params``."""

    do: Literal["custom"] = "custom"
    name: Text = Field(min_length=1)
    #: Chosen by the engine before the effect runs (so also before a simultaneous moment,
    #: 29.4.2) and handed to the function as ``ctx.targets``.
    target: Target | None = None
    params: dict[Text, int | Text | bool] = {}
    # emits: whatever the set's function changes (nothing of its own)

    def apply(self, game: GameActions, ctx: EffectContext, targets: list[Any]) -> None:
        function = game.custom_effects.get(self.name)
        if function is None:
            raise LookupError(f"no set offers the custom effect {self.name!r}")
        ctx.targets = targets
        function(game, ctx, **self.params)

    def describe(self) -> str:
        params = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"custom {self.name}({params})"
