"""Readings the engine had to choose where the Kódex text was not available to us ([D]).

Each is a setting with a documented default; ``docs/RULINGS.md`` gives the rationale and how to
override each one.  Pass ``Rulings(...)`` to :class:`hkk.Engine` (or ``Game``) to change them;
rules that live in built-in plugins are overridden by replacing the plugin instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from hkk._phases import Step


class ActiveTurn(Protocol):
    """What :meth:`Rulings.orderer` reads of the game: whose turn it is.  (Not
    ``hkk._view.GameView``, which has it too: the view names the rulings, so the rulings do not
    name the view - issue 20 item 2.)"""

    @property
    def active(self) -> int: ...


@dataclass(frozen=True)
class Rulings:
    """The engine's answers where the rules leave a choice ([D] points); see RULINGS.md."""

    #: D-empty-deck: a player who must draw from an empty deck loses (keeps games finite).
    empty_deck_loses: bool = True
    #: D-vp-carry: unspent VP carries over to the next turn.
    unspent_vp_carries_over: bool = True
    #: D-orderer: who orders items where no rule names anyone (e.g. end stage 2): "active"
    #: (as in 29.4.1) or "stable" (no decision: the stable order - controller, timestamp, set,
    #: card, ability).
    default_orderer: str = "active"
    #: D-until-preparation: "until the preparation phase" ends at the first beginning of stage 2
    #: after it is made - of the "next" preparation phase (whoever's turn; the same one for an
    #: effect made in stage 1), or of the effect's "controller"'s next one.
    until_preparation_ends: str = "next"
    #: D-counted-turns: which turns a "for N turns" effect counts: "every" turn (both players',
    #: the one it is made in included) or only its controller's "own" turns.
    counted_turns: str = "every"
    #: D-deferred-check: deaths at the deferred Ép check (41.4 supplement) give no component.
    deferred_check_gives_components: bool = False
    #: D-turn-limit: a game still running after this many turns is a draw.
    max_turns: int = 400
    #: Guard against abilities that loop for free: a step with more items than this is an error.
    max_items_per_step: int = 500
    #: D-trigger-order: who orders the triggered items waiting at once: "active" (as in
    #: 29.4.1) or "stable" (no decision: controller, timestamp, set, card, ability).
    trigger_orderer: str = "active"
    #: D-trigger-loop: a chain of triggers setting off triggers longer than this stops the
    #: game with a TriggerLoopError naming its cards.
    max_trigger_chain: int = 50
    #: D-trigger-loop: the triggers one cause may set off, directly or through other triggers
    #: (all set off while any waits; in prep stage 2, whose pool holds them all, the stage's):
    #: more stop the game with a TriggerLoopError naming their cards.
    max_triggers_per_cause: int = 500
    #: D-work-limit: the triggered items a turn, and a whole game, may resolve; more stop the
    #: game with a WorkLimitError naming the cards resolving (a runaway game, e.g. in
    #: ``hkk simulate``, ends the same way on every machine).
    max_triggers_per_turn: int = 2_000
    max_triggers_per_game: int = 20_000
    #: D-no-target: a spell whose every effect acts on a chosen permanent is offered even with
    #: no permanent to choose (it is paid for and does nothing); True: it is not offered then.
    spells_need_a_choice: bool = False

    def orderer(self, game: ActiveTurn, step: Step) -> int | None:
        """Who orders the step's items; None: nobody decides, the stable order is used."""
        if step.active_orders or self.default_orderer == "active":
            return game.active  # 29.4.1 (and D-orderer)
        return None


DEFAULT_RULINGS = Rulings()
