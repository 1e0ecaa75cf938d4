"""Pending items: what hooks return instead of changing the game.

A pending item is an automatic effect that must (or, if ``optional``, may) happen, or an
activated ability a player may use.  The runner orders, pays for, resolves and checks them.
Resolution has two parts so that simultaneous moments (29.4.2, 41.4) can bind every item against
the same state before any of them is applied: ``bind(game, item)`` makes the choices (targets)
and returns them; ``apply(game, item, bound)`` changes the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from hkk.game import Game
    from hkk.state import Permanent

AUTOMATIC = "automatic"
ACTIVATED = "activated"
RULE = "rule"  # done by the rules themselves (VP regeneration, restoring, drawing…)
ACTION = "action"  # an action of the rules a player may take (move to guard post, attack…)
#: Playing a card from hand (8.1), offered in action steps as ``play <card id>``: playing is not
#: resolving an item (no ``resolving`` event, no use counted), its ``apply`` plays the card.
PLAY = "play"


def _no_bind(game: Game, item: Pending) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Price:
    """What using an item costs its controller."""

    vp: int = 0
    components: int = 0
    sacrifice_self: bool = False

    @property
    def free(self) -> bool:
        return not (self.vp or self.components or self.sacrifice_self)


FREE = Price()


@dataclass(frozen=True, slots=True)
class Usage:
    """Usage limits of Kódex ch. 90; ``None`` means unlimited."""

    per_turn: int | None = None
    per_game: int | None = None
    whose_turn: str = "any"  # "any" | "own" | "opponent"


UNLIMITED = Usage()


@dataclass(frozen=True, slots=True)
class Lethal:
    """Answer of the ``lethal`` hook: why a permanent dies at this Ép check."""

    cause: str
    rule: str
    components: bool = True  # False: its opponent may extract no component (e.g. K 121.1)


@dataclass(slots=True, eq=False)
class Pending:
    label: str
    apply: Callable[[Game, Pending, Any], None]
    controller: int | None = None  # None: the rules themselves
    kind: str = AUTOMATIC
    optional: bool = False
    bind: Callable[[Game, Pending], Any] = _no_bind
    price: Price = FREE
    usage: Usage = UNLIMITED
    usable_in_preparation: bool = False  # 29.4.7
    source: Permanent | None = None
    card_id: str | None = None
    ability_index: int | None = None
    rule: str | None = None
    #: Identifies "the same item" across collections within a step, so an automatic item
    #: resolves once per step and an activated ability's uses can be counted.
    key: tuple = field(default=())
    data: dict[str, Any] = field(default_factory=dict)
    order: tuple = field(default=(), init=False)

    def __post_init__(self) -> None:
        uid = self.source.uid if self.source is not None else -1
        if not self.key:
            self.key = (self.label, self.controller, uid, self.card_id or "",
                        self.ability_index or 0)
        # Stable order where no player decides: controller, timestamp, set, card, ability.
        controller = -1 if self.controller is None else self.controller
        self.order = (controller, uid, self.set_code, self.card_id or "",
                      self.ability_index or 0, self.label)

    @property
    def set_code(self) -> str:
        return self.card_id.split(":", 1)[0] if self.card_id else ""

    def describe(self) -> dict[str, Any]:
        return {"item": self.label, "controller": self.controller, "item_kind": self.kind,
                "card": self.card_id,
                "source": self.source.uid if self.source is not None else None,
                "ability": self.ability_index}
