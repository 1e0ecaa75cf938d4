"""Pending items: what hooks return instead of changing the game.

A pending item is an automatic effect that must (or, if ``optional``, may) happen, or an
activated ability a player may use.  The runner orders, pays for, resolves and checks them.
Resolution has two parts so that simultaneous moments (29.4.2, 41.4) can bind every item against
the same state before any of them is applied: ``bind(game, item)`` makes the choices (targets)
and returns them; ``apply(game, item, bound)`` changes the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hkk._state import Permanent

# An item's ``bind`` and ``apply`` receive the game (a :class:`hkk.Game`) first; it is typed
# ``Any`` here.  Not ``Game``: the game holds pending items and sits above this module (no
# import cycle, issue 20 item 2).  Not a Protocol either: a callable's parameter is
# contravariant, so the ``apply(game: Game, item, bound)`` that set authors and the built-in
# rules write would not fit a field typed with a Protocol of the game.

class ItemKind(StrEnum):
    """What a pending item is (``Pending.kind``).  A ``str``: it compares equal to its value and
    is logged as it (``item_kind`` of ``resolving``)."""

    #: An automatic effect of a card or a set: it happens (or, if ``optional``, its controller
    #: is asked "use?" first).  Free; never counted against usage limits.
    AUTOMATIC = "automatic"
    #: An activated ability a player may use: its ``price`` is paid, its ``usage`` limits and
    #: the one attempt per turn in the preparation phase (29.4.9) are counted.
    ACTIVATED = "activated"
    #: Done by the rules themselves (VP regeneration, restoring, drawing…); ``controller`` None.
    RULE = "rule"
    #: An action of the rules a player may take (move to the guard post, attack…): paid and
    #: counted like an activated ability, but needs no ``usable_in_preparation``.
    ACTION = "action"
    #: Playing a card from hand (8.1), offered in action steps as ``play <card id>``: playing is
    #: not resolving an item (no ``resolving`` event, no use counted), its ``apply`` plays it.
    PLAY = "play"


# The kinds by name, as set authors import them (``from hkk import AUTOMATIC``).
AUTOMATIC, ACTIVATED, RULE, ACTION, PLAY = (ItemKind.AUTOMATIC, ItemKind.ACTIVATED, ItemKind.RULE,
                                            ItemKind.ACTION, ItemKind.PLAY)


def no_bind(game: Any, item: Pending) -> None:
    """The default ``bind``: it chooses nothing (so resolving skips the call and cannot stop
    in it, :func:`hkk._resolution.resolve`)."""
    return None


@dataclass(frozen=True, slots=True)
class Price:
    """What using an item costs its controller; paid after ``resolving`` is logged, only for
    ``ACTIVATED`` and ``ACTION`` items (a ``cost_paid`` event).

    :param vp: VP to pay.
    :param components: monster components to pay.
    :param sacrifice_self: the item's ``source`` is sacrificed as part of the cost (no monster
        component from it [R]).
    """

    vp: int = 0
    components: int = 0
    sacrifice_self: bool = False

    @property
    def free(self) -> bool:
        return not (self.vp or self.components or self.sacrifice_self)


FREE = Price()


@dataclass(frozen=True, slots=True)
class Usage:
    """Usage limits of Kódex ch. 90, counted per item ``key`` for ``ACTIVATED`` and ``ACTION``
    items (and ``whose_turn`` for card abilities of every kind).

    :param per_turn: uses per turn; None: unlimited.
    :param per_game: uses per game; None: unlimited.
    :param whose_turn: ``"any"``, ``"own"`` (only in its controller's turns) or ``"opponent"``.
    """

    per_turn: int | None = None
    per_game: int | None = None
    whose_turn: str = "any"  # "any" | "own" | "opponent"


UNLIMITED = Usage()


@dataclass(frozen=True, slots=True)
class Lethal:
    """Answer of the ``lethal`` hook: why a permanent dies at this Ép check (D-lethal).

    :param cause: the ``cause`` of its ``died`` event, e.g. ``"poison"``.
    :param rule: the ``rule`` of its ``died`` event, e.g. ``"121.1"``.
    :param components: False: its opponent may extract no monster component (e.g. K 121.1).
    """

    cause: str
    rule: str
    components: bool = True  # False: its opponent may extract no component (e.g. K 121.1)


@dataclass(slots=True, eq=False)
class Pending:
    """An item a hook returns: what may or must happen, and how.  The runner orders it, pays
    for it, resolves it (``bind`` then ``apply``) and checks Ép after it.  A hook returns a
    new or a stored ``Pending``; it never changes the game itself.

    :param label: the item's name, unique among the items ready at once: players see it
        (``use <label>``, the ``order`` options), the log records it (``resolving``,
        ``moment``).  Card abilities are labelled ``<card id>#<uid>:<ability index>``, triggered
        ones too (stable for scripts: no event number); one set off again while the first still
        waits gets a counter, ``<card id>#<uid>:<ability index> (2)``.
    :param apply: ``apply(game, item, bound) -> None``: changes the game through ``game``'s
        primitives (``damage``, ``add_counters``, ``add_effect``…); ``bound`` is what ``bind``
        returned.
    :param controller: the player who controls it (0 or 1); None: the rules themselves.
    :param kind: ``AUTOMATIC``, ``ACTIVATED``, ``RULE`` or ``ACTION`` (constants of this
        module): whether it is paid for, counted and needs ``usable_in_preparation``.
    :param optional: its controller is asked ``use``/``decline`` first ("may"); not honoured
        in end stage 2 (41.2).  False: it must happen.
    :param bind: ``bind(game, item) -> Any``: makes the choices (targets) before anything is
        applied; at a simultaneous moment every item is bound against the same state (29.4.2).
        Default: no choices, ``bound`` is None.
    :param price: a :class:`Price`; the default :data:`FREE` costs nothing.
    :param usage: a :class:`Usage`; the default :data:`UNLIMITED` has no limit.
    :param usable_in_preparation: an ``ACTIVATED`` item may be used in the preparation phase
        only with this (its text's explicit permission, 29.4.7).
    :param source: the permanent it comes from, if any: an item whose source left play is not
        offered, and the source's uid (timestamp) orders it where no player decides.
    :param card_id: the card it comes from, if any (logged; names the set in errors).
    :param ability_index: the ability's index on that card, if any (logged).
    :param rule: the rule point it serves (named in errors).
    :param key: identifies "the same item" across the collections of one step, so an automatic
        item resolves once per step, a declined one is not offered again, and uses are counted.
        Hooks are called again after every resolution and may build new ``Pending`` objects
        each time: give items that stand for the same thing the same key, e.g.
        ``("sarkany:fire", "tick", perm.uid)``.  Default: label, controller, source uid, card
        id and ability index.
    :param data: anything the item's ``bind``/``apply`` need (card abilities keep their
        effect context here).

    ``order`` is computed, not given: the stable order (controller, source timestamp, set,
    card, ability, label) used where no player orders.
    """

    label: str
    apply: Callable[[Any, Pending, Any], None]  # the game first (see above)
    controller: int | None = None  # None: the rules themselves
    kind: str = AUTOMATIC
    optional: bool = False
    bind: Callable[[Any, Pending], Any] = no_bind
    price: Price = FREE
    usage: Usage = UNLIMITED
    usable_in_preparation: bool = False  # 29.4.7
    source: Permanent | None = None
    card_id: str | None = None
    ability_index: int | None = None
    rule: str | None = None
    #: Identifies "the same item" across collections within a step, so an automatic item
    #: resolves once per step and an activated ability's uses can be counted.
    key: tuple[Any, ...] = field(default=())
    data: dict[str, Any] = field(default_factory=dict)
    order: tuple[Any, ...] = field(default=(), init=False)

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
                "uid": self.source.uid if self.source is not None else None,
                "ability": self.ability_index}
