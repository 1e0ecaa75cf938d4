"""What an effect knows while it binds and applies: :class:`EffectContext`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hkk._state import Permanent

__all__ = ["EffectContext"]


class EffectContext:
    """What a custom (Python) effect gets besides the game."""

    __slots__ = ("controller", "source", "card_id", "label", "targets", "trigger")

    def __init__(self, controller: int, source: Permanent | None, card_id: str | None,
                 label: str) -> None:
        self.controller = controller
        self.source = source
        self.card_id = card_id
        self.label = label
        self.targets: list[Any] = []  # a custom effect's targets, chosen by the engine
        #: For a triggered ability: what its event bound (``permanent``, ``source``,
        #: ``player``: the ``trigger_*`` targets; ``amount``: ``trigger_amount``, hkk._triggers).
        self.trigger: dict[str, Any] = {}
