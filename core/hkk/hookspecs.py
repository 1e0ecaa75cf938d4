"""Hook specifications: the points of the turn where rules plugins and card sets contribute.

Every turn hook receives the :class:`hkk.game.Game` and returns a list of
:class:`hkk.pending.Pending` items (or ``None``).  A hook must not change the game: it says what
*may* or *must* happen, and the runner decides who orders the items, resolves them one by one
(or all at once where the rules say so) and checks creatures' Ép.  pluggy calls implementations
in reverse registration order; the runner re-sorts every collection by a stable key, so that
order never leaks into the game.

Hooks evolve by gaining arguments; implementations may accept any subset of them.

What a hook returns is checked where the engine receives it: a turn hook's result must be a list
(or tuple) of ``Pending``, ``lethal``'s a list of ``(Permanent, Lethal)`` pairs, and
``custom_effects``' a dict of names to callables; anything else - and any exception, ``sys.exit()``
included - is a :class:`hkk.errors.HookError` naming the set and the hook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import pluggy

if TYPE_CHECKING:
    from hkk.game import Game
    from hkk.pending import Lethal, Pending

PROJECT = "hkk"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

# -- preparation phase (29) -------------------------------------------------------------------

@hookspec
def prep_stage1(game: Game) -> list[Pending] | None:
    """Preparation stage 1, before the regeneration: effects that modify VP regeneration,
    which already act in stage 1 (29.4.5).  Items are ordered by the active player."""


@hookspec
def vp_regeneration(game: Game) -> list[Pending] | None:
    """Preparation stage 1, the VP regeneration itself (29.3), counting the modifiers in force
    (29.4.5).  The built-in ``hkk.rules.vp_regeneration`` plugin implements it."""


@hookspec
def prep_stage2_start(game: Game) -> list[Pending] | None:
    """The very beginning of preparation stage 2 ("beginning of the turn", "beginning of the
    preparation phase", 29.4.3).  Every item returned happens at one moment together with the
    expiry of "until the preparation phase" effects (29.4.4) and the start of "this turn" effects
    (29.4.5): they are computed against one snapshot and none sees another as earlier (29.4.2).
    Creatures' Ép is checked after the moment (29.4.10); deaths give no component (29.4.11)."""


@hookspec
def prep_stage2(game: Game) -> list[Pending] | None:
    """Preparation stage 2 (29.4).  Automatic effects of both players and the activated abilities
    that explicitly allow it (29.4.7) - the active player orders all of them (29.4.1); each
    activated ability may be attempted once per turn (29.4.9); Ép is checked after each (29.4.10);
    deaths give no component (29.4.11).  Called again after every resolution."""


@hookspec
def prep_stage3(game: Game) -> list[Pending] | None:
    """Preparation stage 3 [D]: the active player's passive cards become active."""


@hookspec
def prep_stage4(game: Game) -> list[Pending] | None:
    """Preparation stage 4 [D]: the active player draws a card."""


# -- main and combat phases ---------------------------------------------------------------------

@hookspec
def main_phase(game: Game) -> list[Pending] | None:
    """Main phase: actions each player may take now besides playing cards (which the runner
    offers itself, 8.1).  Players act in turn, active player first, until both pass (4.11.6-8);
    the active player's pass for the whole turn follows 41.5."""


@hookspec
def combat_phase(game: Game) -> list[Pending] | None:
    """Combat phase [D simple combat]: actions available in combat (attacks, abilities)."""


# -- end-of-turn phase (41) ---------------------------------------------------------------------

@hookspec
def end_stage1(game: Game) -> list[Pending] | None:
    """End stage 1 (41.1): abilities usable at the end of the turn; players alternate, active
    player first.  Items with a cost or a conditional text are optional, the others must be used."""


@hookspec
def end_stage2(game: Game) -> list[Pending] | None:
    """End stage 2 (41.2): automatic end-of-turn effects; all are carried out, none can be
    declined.  [D] the active player orders them, as in 29.4.1."""


@hookspec
def end_stage3(game: Game) -> list[Pending] | None:
    """End stage 3 (41.3): damaged creatures and buildings return to max Ép / Sp."""


@hookspec
def end_stage4(game: Game) -> list[Pending] | None:
    """End stage 4 (41.4): happens at the one moment when the active player's creatures lose
    their defence bonus and every "until end of turn" and "this turn" effect ends.  Items are part
    of that moment; nothing triggers from the expiry and Ép is not checked until the next
    preparation phase (41.4 supplement)."""


# -- moments that are not stages ------------------------------------------------------------

@hookspec
def entered_play(game: Game, permanent: Any) -> list[Pending] | None:
    """A permanent just entered play: its "when this enters play" automatic effects.  They run
    right away in the order chosen by the player who brought it in [R]."""


@hookspec
def lethal(game: Game) -> list[tuple[Any, Lethal]] | None:
    """Asked at every Ép check: the permanents that go to the graveyard now for a reason besides
    Ép <= 0 (e.g. poison counters >= current Ép, K 121.1), each with its :class:`Lethal`
    reason.  Called once per check, not per permanent; must not change the game."""


# -- contributions that are not per turn ------------------------------------------------------

@hookspec
def custom_effects() -> dict[str, Callable[..., Any]] | None:
    """Named Python effects a set offers to its cards' ``{ do = "custom", name = ... }``
    primitives.  Each callable is called as ``fn(game, ctx, **params)``; ``ctx`` is a
    :class:`hkk.cards.interpret.EffectContext` (controller, source permanent, card id, label,
    and ``targets``: chosen by the engine from the primitive's ``target``, before the effect
    runs).  Card files name them with the set code first, e.g. ``mereg:poison``."""


TURN_HOOKS: tuple[str, ...] = (
    "prep_stage1", "vp_regeneration", "prep_stage2_start", "prep_stage2", "prep_stage3", "prep_stage4",
    "main_phase", "combat_phase", "end_stage1", "end_stage2", "end_stage3", "end_stage4",
)


# -- built-in rules as hooks: who orders, monster components, the game clock ---------------------
#
# These hooks let the built-in rules plugins (:data:`hkk.rules.BUILTIN_RULES`) do what the core
# used to hard-code; a plugin registered under the same name replaces one.  The engine calls them
# through :mod:`hkk.hookcall`, like every hook.

@hookspec(firstresult=True)
def orderer(game: Game, step: Any) -> int | None:
    """Who orders the items of an ordered step when more than one is ready.

    :param game: the game.
    :param step: the :class:`hkk.phases.Step` being run.
    :return: the index of the deciding player, or None: nobody decides, the stable order
        (controller, timestamp, set, card, ability) is used.

    Stops at the first non-None result.  The built-in ``hkk.rules.orderer`` answers by
    :meth:`hkk.Rulings.orderer`: the active player where the step says so (29.4.1), else as
    ``Rulings.default_orderer`` says (D-orderer).  To make nobody decide somewhere, replace the
    built-in (unregister it by name), since None falls through to it.
    """


@hookspec(firstresult=True)
def left_play(game: Game, permanent: Any, components: bool) -> int | None:
    """A permanent is leaving play to a graveyard or the void (it died, was destroyed or
    sacrificed); called before the ``died`` / ``destroyed`` event is logged.

    :param game: the game.
    :param permanent: the :class:`hkk.state.Permanent`, already out of play.
    :param components: False where no monster component may be extracted whatever the card
        says (sacrificed as a cost [R], 29.4.11, the deferred check [D]).
    :return: how many monster components its opponent is offered (logged on the event as
        ``components_offered``), or None.

    Stops at the first non-None result.  The built-in ``hkk.rules.components`` offers a dead
    creature's components until the end of the phase (D-components-window) and records the
    offer on ``game.offers``; return None from other implementations.
    """


@hookspec
def phase_ended(game: Game, phase: str) -> None:
    """The turn has moved past the last step of ``phase`` (the next step is in another phase,
    or the turn is over).  Rules that last "until the end of the phase" end here; unlike the
    turn hooks this one acts on the game (it may ask players and change the state).

    :param game: the game.
    :param phase: the phase that ended (a :class:`hkk.phases.Step`'s ``phase``), e.g. ``main``.

    The built-in ``hkk.rules.components`` offers what is left of the phase's monster
    components one last time, then lets them lapse (D-components-window).
    """


@hookspec
def turn_started(game: Game) -> None:
    """A turn has just started (``turn_started`` is logged), before the deferred Ép check.

    :param game: the game; ``game.active`` is the player whose turn it is.

    The built-in ``hkk.rules.clock`` starts the turn's time (41.7).
    """


@hookspec
def decided(game: Game, decision: Any, choice: Any) -> None:
    """A player has just answered a decision (before the ``decision`` event is logged).

    :param game: the game.
    :param decision: the :class:`hkk.decisions.Decision`.
    :param choice: the :class:`hkk.decisions.Option` chosen.

    The built-in ``hkk.rules.clock`` notes the active player's decisions: without an explicit
    signal his last one closes the turn for the game clock (41.7, D-41.7-last-pass).
    """


@hookspec
def turn_passed(game: Game, player: int) -> None:
    """The active player has passed the turn (41.5; ``turn_passed`` is logged).

    :param game: the game.
    :param player: the player who passed it.

    The built-in ``hkk.rules.clock`` closes the turn for the game clock there (41.7).
    """


@hookspec
def step_ended(game: Game, step: Any) -> None:
    """A step of the turn has ended (``step_ended`` is logged).

    :param game: the game.
    :param step: the :class:`hkk.phases.Step` that ended.

    The built-in ``hkk.rules.clock`` closes the turn for the game clock after the step marked
    ``closes_clock`` (end stage 1, the last where the active player may act; 41.7,
    D-41.7-last-pass).
    """
