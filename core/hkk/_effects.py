"""Lasting effects and their durations (Kódex 99.4, 29.4.4, 29.4.5, 41.4).

An effect only *adds a modifier* while it is in force; current characteristics are derived from
the effects in force (see :meth:`hkk.Game.max_hp`).  Ending effects therefore just removes
them, so a batch that ends many at once (29.4.2, 41.4) cannot depend on any order.
"""

from __future__ import annotations

from enum import Enum
from typing import Any


class Duration(str, Enum):
    """How long an effect lasts (the ``duration`` of an ``effect_started`` event)."""

    PERMANENT = "permanent"
    UNTIL_END_OF_TURN = "until_end_of_turn"  # ends in end stage 4 (41.4)
    THIS_TURN = "this_turn"  # starts at the beginning of prep stage 2 (29.4.5), ends 41.4
    UNTIL_PREPARATION = "until_preparation"  # ends at the beginning of prep stage 2 (29.4.4)
    #: Ends at the beginning of stage 2 of its controller's next preparation phase (29.4.4).
    UNTIL_OWN_PREPARATION = "until_own_preparation"
    #: Counted in turns: ends at the end-stage-4 moment of its last turn (41.4, D-counted-turns).
    TURNS = "turns"


#: Durations that end at the one moment of end stage 4 (41.4).
ENDS_AT_END_OF_TURN = frozenset({Duration.UNTIL_END_OF_TURN, Duration.THIS_TURN})


class Effect:
    """A modifier of one characteristic.

    ``targets`` are permanent uids fixed when the effect was created: a non-permanent effect
    affects only the permanents already in play then (scope, Kódex 99.5).  ``player`` is set
    instead for VP-regeneration modifiers.
    """

    __slots__ = ("uid", "stat", "amount", "duration", "targets", "player", "controller", "source",
                 "in_force", "label", "ends_turn")

    def __init__(self, uid: int, stat: str, amount: int, duration: Duration, *,
                 targets: frozenset[int] = frozenset(), player: int | None = None,
                 controller: int | None = None, source: str | None = None,
                 in_force: bool = True, label: str = "", ends_turn: int | None = None) -> None:
        self.uid = uid
        self.stat = stat
        self.amount = amount
        self.duration = duration
        self.targets = targets
        self.player = player
        self.controller = controller
        self.source = source
        self.in_force = in_force  # False while a "this turn" effect waits for stage 2 (29.4.5)
        self.label = label
        #: For a ``turns`` duration: the turn in whose end stage 4 it ends (D-counted-turns);
        #: for ``until_own_preparation`` made in its controller's own stage 1, the turn at
        #: whose stage 2 it ends, his next (D-own-preparation).
        self.ends_turn = ends_turn

    def describe(self) -> dict[str, Any]:
        data = {"effect": self.uid, "stat": self.stat, "amount": self.amount,
                "duration": self.duration.value, "targets": sorted(self.targets),
                "player": self.player, "source": self.source}
        if self.ends_turn is not None:
            data["ends_turn"] = self.ends_turn
        return data

    def __repr__(self) -> str:
        return f"<Effect {self.uid} {self.stat}{self.amount:+d} {self.duration.value}>"
