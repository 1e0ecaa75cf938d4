"""The turn as data: an ordered list of steps, each a (phase, stage) point with a hook name.

The runner walks this list; it never names a phase itself except through ``mode``, which says
*how* the step's pending items are carried out.  An official phase list can replace
``DEFAULT_TURN`` without touching the runner (pass ``turn=`` to :class:`hkk.Engine`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Mode(str, Enum):
    """How the runner carries out a step's pending items."""

    #: Everything the hook returns happens at one moment, against one snapshot (29.4.2, 41.4).
    SIMULTANEOUS = "simultaneous"
    #: One deciding player (the active player) orders every item, one at a time (29.4.1).
    ORDERED = "ordered"
    #: Players alternately use items or pass, active player first (41.1).
    ALTERNATING = "alternating"
    #: Players take actions in turn (play cards, use abilities) until both pass (4.11.6-8, 41.5).
    ACTIONS = "actions"


@dataclass(frozen=True, slots=True)
class Step:
    """A step of the turn: its phase, stage, hook and how its items run (``mode``)."""

    phase: str
    stage: int
    hook: str
    mode: Mode
    #: Check creatures' Ép after every resolved item (29.4.10 in the preparation phase,
    #: [D] after every action and effect elsewhere); False only where a rule defers it (41.4).
    hp_check: bool = True
    #: Cards may be played from hand here (29.4.6 forbids it in the preparation phase).
    hand_play: bool = False
    #: Deaths here give no monster component (29.4.11).
    no_components: bool = False
    #: Durations of the effects that end at the very beginning of this step (29.4.4, 41.4).
    ends: frozenset[str] = frozenset()
    #: Effects the step's own items create with one of those durations end at once too: the
    #: turn is over for them (D-end4-created).
    ends_created: bool = False
    #: "This turn" effects made earlier in the turn start here (29.4.5).
    starts_waiting_effects: bool = False
    #: The active player's creatures lose their defence bonus here (41.4).
    defence_bonus_lost: bool = False
    #: Every item happens, once: an ``optional`` flag is not honoured, nobody is asked (41.2).
    mandatory: bool = False
    #: The last step in which the active player may act: without an explicit signal (passing
    #: the turn, 41.5) the game clock closes the turn when it ends (41.7, D-41.7-last-pass).
    closes_clock: bool = False
    #: Who orders: the active player, whatever ``Rulings.default_orderer`` says (29.4.1).
    active_orders: bool = False
    #: The rule point an order decision here cites: 29.4.1, or [D] D-orderer where no rule
    #: names who orders.
    order_rule: str = "D-orderer"
    #: An activated ability may be used here only if its text allows or orders it (29.4, 29.4.7).
    needs_permission: bool = False
    #: An ability may be attempted once per turn in all such steps together, and the attempt
    #: counts when it is chosen (29.4.9, D-prep-attempts).
    attempts_once: bool = False
    #: The rule point of the Ép check after each item: 29.4.10, or [D] D-hp-check.
    check_rule: str = "D-hp-check"
    #: A "this turn" effect made here waits for the step that ``starts_waiting_effects``
    #: (29.4.5; VP-regeneration modifiers excepted).
    this_turn_waits: bool = False
    #: No card may be played from hand here, instants included (29.4.6).
    no_hand_play: bool = False
    #: What happens to the abilities triggered here (hkk._triggers): ``"resolve"``, after
    #: each item and its Ép check, ordered (D-trigger-wait); ``"wait"``, they wait for the next
    #: step (the moment at the start of prep stage 2: its triggers join the stage's pool);
    #: ``"pool"``, they join this ordered step's items (29.4.1, D-trigger-prep); ``"none"``,
    #: nothing triggers here (41.4, D-trigger-end4).
    triggers: str = "resolve"
    rules: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.phase}.{self.stage}"


PREPARATION = "preparation"
MAIN = "main"
COMBAT = "combat"
END = "end"
#: The phases' names, in turn order (a static ``prevent`` names one, D-prevented).
PHASE_NAMES: tuple[str, ...] = (PREPARATION, MAIN, COMBAT, END)

#: What holds in every step of the preparation phase (29.4.6, 29.4.7, 29.4.9, 29.4.10).  Who
#: orders in stages 1, 3 and 4 no rule names: D-orderer (29.4.1 speaks of stage 2 only).
_PREPARATION_RULES: dict[str, Any] = dict(needs_permission=True, attempts_once=True,
                                          check_rule="29.4.10", no_hand_play=True)
#: 29.4.5; what stage 1 (and the deferred Ép check before it) triggers waits for the stage-2
#: pool: every preparation-phase effect happens in stage 2, ordered by the active player
#: (29.4, 29.4.1, D-trigger-prep).
_STAGE_1: dict[str, Any] = dict(_PREPARATION_RULES, this_turn_waits=True, triggers="wait")
_STAGE_2: dict[str, Any] = dict(_PREPARATION_RULES, active_orders=True,  # 29.4, 29.4.1
                                order_rule="29.4.1")

DEFAULT_TURN: tuple[Step, ...] = (
    # Stage 1 is VP regeneration (29.3).  Effects that modify it already act in stage 1
    # (29.4.5), so they come first, then the regeneration counts them.
    Step(PREPARATION, 1, "prep_stage1", Mode.ORDERED, rules=("29.4.5",), **_STAGE_1),
    Step(PREPARATION, 1, "vp_regeneration", Mode.ORDERED, rules=("29.3", "29.4.5"), **_STAGE_1),
    # The very beginning of stage 2: expiry of "until the preparation phase" effects, start of
    # "this turn" effects and "beginning of the turn" automatic effects, all one moment.
    Step(PREPARATION, 2, "prep_stage2_start", Mode.SIMULTANEOUS, no_components=True,
         ends=frozenset({"until_preparation", "until_own_preparation"}),
         starts_waiting_effects=True, triggers="wait",
         rules=("29.4.2", "29.4.3", "29.4.4", "29.4.5", "29.4.10", "29.4.11"), **_STAGE_2),
    Step(PREPARATION, 2, "prep_stage2", Mode.ORDERED, no_components=True, triggers="pool",
         rules=("29.4", "29.4.1", "29.4.7", "29.4.8", "29.4.9", "29.4.10", "29.4.11"),
         **_STAGE_2),
    Step(PREPARATION, 3, "prep_stage3", Mode.ORDERED, rules=("29.2",), **_PREPARATION_RULES),
    Step(PREPARATION, 4, "prep_stage4", Mode.ORDERED, rules=("29.2",), **_PREPARATION_RULES),
    Step(MAIN, 1, "main_phase", Mode.ACTIONS, hand_play=True, rules=("4.11.6", "41.5")),
    Step(COMBAT, 1, "combat_phase", Mode.ACTIONS, rules=("33", "41.5")),
    Step(END, 1, "end_stage1", Mode.ALTERNATING, closes_clock=True, rules=("41.1",)),
    Step(END, 2, "end_stage2", Mode.ORDERED, mandatory=True, rules=("41.2",)),
    Step(END, 3, "end_stage3", Mode.ORDERED, rules=("41.3",)),
    Step(END, 4, "end_stage4", Mode.SIMULTANEOUS, hp_check=False,
         ends=frozenset({"until_end_of_turn", "this_turn", "turns"}), ends_created=True,
         defence_bonus_lost=True, triggers="none",
         rules=("41.4",)),
)

#: Every step's hook name.
HOOK_NAMES: tuple[str, ...] = tuple(step.hook for step in DEFAULT_TURN)

#: Hook names a card ability may be timed on.  Not the regeneration itself (a card that changes
#: it is a prep_stage1 modifier, 29.4.5), nor preparation stages 3 and 4: every effect "in the
#: preparation phase" happens in stage 2 (29.4).  Plugins may still use those hooks.
CARD_TIMINGS: tuple[str, ...] = tuple(
    h for h in HOOK_NAMES if h not in ("vp_regeneration", "prep_stage3", "prep_stage4"))
