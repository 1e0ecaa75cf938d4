"""Hook specifications: the points of the turn where rules plugins and card sets contribute.

Every turn hook receives the :class:`hkk.Game` and returns a list of
:class:`hkk.Pending` items (or ``None``).  A hook must not change the game: it says what
*may* or *must* happen, and the runner decides who orders the items, resolves them one by one
(or all at once where the rules say so) and checks creatures' Ép.  pluggy calls implementations
in reverse registration order; the runner re-sorts every collection by a stable key, so that
order never leaks into the game.

Hooks evolve by gaining arguments; implementations may accept any subset of them.

What a hook returns is checked where the engine receives it: a turn hook's result must be a list
(or tuple) of ``Pending``, ``lethal``'s a list of ``(Permanent, Lethal)`` pairs, and
``custom_effects``' a dict of names to callables; anything else - and any exception, ``sys.exit()``
included - is a :class:`hkk.HookError` naming the set and the hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from hkk._decisions import Decision, Option
    from hkk._pending import Lethal, Pending
    from hkk._phases import Step
    from hkk._state import Permanent
    from hkk._view import GameView
    from hkk.events import Event

PROJECT = "hkk"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

# Each spec's docstring follows pytest's hookspec.py: ``:param:`` for every argument, what it
# returns, how often it is called, and the rule points it serves.  tests/test_reference.py checks
# that, and docs/REFERENCE.md is generated from these docstrings (``hkk reference --markdown``).

# -- preparation phase (29) -------------------------------------------------------------------

@hookspec
def prep_stage1(game: GameView) -> list[Pending] | None:
    """Preparation stage 1, before the regeneration: effects that modify VP regeneration,
    which already act in stage 1 (29.4.5).

    :param game: the game; ``game.active`` is the player whose preparation phase it is.
    :returns: ``list[Pending] | None`` - the items that may or must happen now.
        Not firstresult: the items of every implementation are collected.

    Called again after every resolution; the active player orders the items (D-orderer).
    A "this turn" effect made here waits for stage 2 (29.4.5, D-this-turn-wait)."""


@hookspec
def vp_regeneration(game: GameView) -> list[Pending] | None:
    """Preparation stage 1, the VP regeneration itself (29.3), counting the modifiers in force
    (29.4.5).  The built-in ``hkk.rules.vp_regeneration`` plugin implements it.

    :param game: the game; ``game.active`` is the player who regenerates.
    :returns: ``list[Pending] | None`` - the items that happen now (the built-in plugin returns
        one ``RULE`` item).  Not firstresult: the items of every implementation are collected.

    Called again after every resolution (D-stage1-split)."""


@hookspec
def prep_stage2_start(game: GameView) -> list[Pending] | None:
    """The very beginning of preparation stage 2 ("beginning of the turn", "beginning of the
    preparation phase", 29.4.3).  Every item returned happens at one moment together with the
    expiry of "until the preparation phase" effects (29.4.4) and the start of "this turn" effects
    (29.4.5): they are computed against one snapshot and none sees another as earlier (29.4.2).

    :param game: the game; ``game.active`` is the player whose preparation phase it is.
    :returns: ``list[Pending] | None`` - the items of the moment.  Not firstresult: the items of
        every implementation are collected.  Each item's ``bind`` runs for all of them before any
        ``apply``; an optional item's controller is asked first, and paid items that cannot be
        afforded together are dropped (D-moment-payments).

    Called once, not after every resolution.  Creatures' Ép is checked after the moment
    (29.4.10); deaths give no component (29.4.11)."""


@hookspec
def prep_stage2(game: GameView) -> list[Pending] | None:
    """Preparation stage 2 (29.4): automatic effects of both players and the activated abilities
    that explicitly allow it (``usable_in_preparation``, 29.4.7).

    :param game: the game; ``game.active`` is the player whose preparation phase it is and who
        orders every item (29.4.1).
    :returns: ``list[Pending] | None`` - the items that may or must happen now.
        Not firstresult: the items of every implementation are collected.

    Called again after every resolution: keep returning an item until it has happened (an
    automatic item resolves once per step, recognised by its ``key``).  Each activated ability
    may be attempted once per turn (29.4.9); Ép is checked after each item (29.4.10); deaths
    give no component (29.4.11)."""


@hookspec
def prep_stage3(game: GameView) -> list[Pending] | None:
    """Preparation stage 3 [D] D-stage3: the active player's passive cards become active
    (the built-in ``hkk.rules.passive_become_active``).

    :param game: the game; ``game.active`` is the player whose preparation phase it is.
    :returns: ``list[Pending] | None`` - the items that happen now.  Not firstresult: the items
        of every implementation are collected.

    Called again after every resolution."""


@hookspec
def prep_stage4(game: GameView) -> list[Pending] | None:
    """Preparation stage 4 [D] D-stage4: the active player draws a card (the built-in
    ``hkk.rules.draw``).

    :param game: the game; ``game.active`` is the player whose preparation phase it is.
    :returns: ``list[Pending] | None`` - the items that happen now.  Not firstresult: the items
        of every implementation are collected.

    Called again after every resolution."""


# -- main and combat phases ---------------------------------------------------------------------

@hookspec
def main_phase(game: GameView) -> list[Pending] | None:
    """Main phase: actions each player may take now besides playing cards (which the runner
    offers itself, 8.1).  Players act in turn, active player first, until both pass (4.11.6-8);
    the active player's pass for the whole turn follows 41.5.

    :param game: the game; ``game.active`` is the player whose turn it is.
    :returns: ``list[Pending] | None`` - items offered as ``use <label>`` options of the
        ``action`` decision to their ``controller`` (usually ``ACTIVATED`` or ``ACTION``).
        Not firstresult: the items of every implementation are collected.

    Called again before every action decision, so after every resolution too."""


@hookspec
def combat_phase(game: GameView) -> list[Pending] | None:
    """Combat phase [D] D-combat: actions available in combat (attacks, abilities).

    :param game: the game; ``game.active`` is the attacking player.
    :returns: ``list[Pending] | None`` - items offered as ``use <label>`` options of the
        ``action`` decision (the built-in ``hkk.rules.combat`` offers ``attack``).
        Not firstresult: the items of every implementation are collected.

    Called again before every action decision, so after every resolution too."""


# -- end-of-turn phase (41) ---------------------------------------------------------------------

@hookspec
def end_stage1(game: GameView) -> list[Pending] | None:
    """End stage 1 (41.1): abilities usable at the end of the turn; players alternate, active
    player first.  Items with a cost or a conditional text (``optional``) may be used, the
    others must be (D-end1-mandatory).

    :param game: the game; ``game.active`` is the player whose turn it is.
    :returns: ``list[Pending] | None`` - items offered as ``use <label>`` options to their
        ``controller`` (the active player for the rules' own items).  Not firstresult: the items
        of every implementation are collected.

    Called again at every turn of the alternation, so after every resolution too."""


@hookspec
def end_stage2(game: GameView) -> list[Pending] | None:
    """End stage 2 (41.2): automatic end-of-turn effects; all are carried out, none can be
    declined (D-end2-mandatory).  [D] D-orderer: the active player orders them, as in 29.4.1.

    :param game: the game; ``game.active`` is the player whose turn it is.
    :returns: ``list[Pending] | None`` - the items that happen now, each once (an ``optional``
        flag is not honoured here).  Not firstresult: the items of every implementation are
        collected.

    Called again after every resolution."""


@hookspec
def end_stage3(game: GameView) -> list[Pending] | None:
    """End stage 3 (41.3): damaged creatures and buildings return to max Ép / Sp (the built-in
    ``hkk.rules.restore``).

    :param game: the game; ``game.active`` is the player whose turn it is.
    :returns: ``list[Pending] | None`` - the items that happen now.  Not firstresult: the items
        of every implementation are collected.

    Called again after every resolution."""


@hookspec
def end_stage4(game: GameView) -> list[Pending] | None:
    """End stage 4 (41.4): happens at the one moment when the active player's creatures lose
    their defence bonus and every "until end of turn" and "this turn" effect ends.

    :param game: the game; ``game.active`` is the player whose turn it is.
    :returns: ``list[Pending] | None`` - the items of the moment, bound together before any is
        applied (as in ``prep_stage2_start``).  Not firstresult: the items of every
        implementation are collected.

    Called once, not after every resolution.  Nothing triggers from the expiry and Ép is not
    checked until the next preparation phase (41.4 supplement, D-deferred-check)."""


# -- moments that are not stages ------------------------------------------------------------

@hookspec
def entered_play(game: GameView, permanent: Permanent) -> list[Pending] | None:
    """A permanent just entered play from hand: its "when this enters play" automatic effects.
    They run right away in the order chosen by the player who brought it in [R] R-enter-order.

    :param game: the game.
    :param permanent: the :class:`hkk.Permanent` that entered (``permanent.uid``,
        ``permanent.card``, ``permanent.controller``).
    :returns: ``list[Pending] | None`` - its entry effects.  Not firstresult: the items of every
        implementation are collected.

    Called once per permanent played (not for permanents a test puts in play); Ép is checked
    after each item (D-hp-check)."""


@hookspec
def lethal(game: GameView) -> list[tuple[Any, Lethal]] | None:
    """Asked at every Ép check: the permanents that go to the graveyard now for a reason besides
    Ép <= 0 (e.g. poison counters >= current Ép, K 121.1) [D] D-lethal.

    :param game: the game; read it, never change it.
    :returns: ``list[tuple[Permanent, Lethal]] | None`` - each doomed permanent with its
        :class:`hkk.Lethal` reason (cause, rule, whether its opponent may extract
        components).  Not firstresult: every implementation's answers count; a permanent named
        twice dies once, with the first reason.

    Called once per round of every check (D-settled-check), not per permanent."""


# -- triggers ("Amikor ...": when something happens) --------------------------------------------

@hookspec
def trigger_kinds() -> list[str] | None:
    """The event kinds (``died``, ``damaged``, ``entered_play``, ``effect_ended``,
    ``card_played``... any kind of the log, see *Events*) this plugin's ``triggered``
    implementation listens to.  A plugin without this hook is never asked ``triggered``.

    :returns: ``list[str] | None`` - event kinds.  Not firstresult: each plugin's own list
        subscribes its own ``triggered``; an unknown kind is a HookError naming the plugin.

    Called once per game, when the game is made.  [D] D-trigger-wait: what the listening
    ``triggered`` returns waits until its cause has finished."""


@hookspec
def triggered(game: GameView, event: Event) -> list[Pending] | None:
    """An event of a kind this plugin named in ``trigger_kinds`` has just been logged: the
    items returned are triggered.  They wait until the item or action that caused the event
    has finished resolving and the Ép check after it is done, then resolve one at a time in the
    order the active player chooses, each followed by an Ép check (D-trigger-wait,
    D-trigger-order); in preparation stage 2 they join the stage's items (29.4.1,
    D-trigger-prep).  An ``optional`` item's controller is asked first; any other must happen,
    in the main and combat phases too.

    :param game: the game; read it, never change it (the items change it when they resolve).
    :param event: the event, an instance of its kind's class in :mod:`hkk.events`
        (``event.kind``, ``event.uid``, ``event["uid"]``...; hook API 2.0 field names).
    :returns: ``list[Pending] | None`` - the triggered items.  Not firstresult: the items of
        every listening implementation are collected.

    Called for every event of the kinds named, except in end stage 4: nothing triggers from
    its moment (41.4, D-trigger-end4).  A chain of triggers longer than
    ``Rulings.max_trigger_chain``, one that repeats a state, or a cause setting off more than
    ``Rulings.max_triggers_per_cause`` triggers in all, is a TriggerLoopError (D-trigger-loop);
    a turn or game resolving more than ``max_triggers_per_turn`` / ``max_triggers_per_game``
    is a WorkLimitError (D-work-limit)."""


# -- contributions that are not per turn ------------------------------------------------------

@hookspec
def custom_effects() -> dict[str, Callable[..., Any]] | None:
    """Named Python effects a set offers to its cards' ``{ do = "custom", name = ... }``
    primitives (what the effect primitives cannot say).

    :returns: ``dict[str, Callable] | None`` - effect name (the set code first, e.g.
        ``mereg:poison``) -> function.  Each is called as ``fn(game, ctx, **params)``; ``ctx``
        is a :class:`hkk.EffectContext` (``controller``, ``source`` permanent,
        ``card_id``, ``label``, and ``targets``: chosen by the engine from the primitive's
        ``target`` before the effect runs, 29.4.2).  Not firstresult: the dicts of every
        implementation are merged; two sets offering one name is an error.

    Called once per game (and by ``hkk verify``), not per turn."""


#: The turn hooks above, in the default turn's order: a rules plugin that serves whatever step
#: a (custom) turn runs implements each (``hkk.rules.hand_play`` does, marked ``only_in_steps``).
TURN_HOOKS: tuple[str, ...] = (
    "prep_stage1", "vp_regeneration", "prep_stage2_start", "prep_stage2", "prep_stage3",
    "prep_stage4",
    "main_phase", "combat_phase", "end_stage1", "end_stage2", "end_stage3", "end_stage4",
)


# -- built-in rules as hooks: who orders, monster components, hand play, the game clock ----------
#
# These hooks let the built-in rules plugins (:data:`hkk._rules.BUILTIN_RULES`) do what the core
# used to hard-code; a plugin registered under the same name replaces one.  The engine calls them
# through :mod:`hkk._hookcall`, like every hook.

@hookspec(firstresult=True)
def orderer(game: GameView, step: Step) -> int | None:
    """Who orders the items of an ordered step when more than one is ready.

    :param game: the game.
    :param step: the :class:`hkk.Step` being run.
    :returns: the index of the deciding player, or None: nobody decides, the stable order
        (controller, timestamp, set, card, ability) is used.

    Stops at first non-None result.  The built-in ``hkk.rules.orderer`` answers by
    :meth:`hkk.Rulings.orderer`: the active player where the step says so (29.4.1), else as
    ``Rulings.default_orderer`` says (D-orderer).  To make nobody decide somewhere, replace the
    built-in (unregister it by name), since None falls through to it.
    """


@hookspec(firstresult=True)
def left_play(game: GameView, permanent: Permanent, components: bool) -> int | None:
    """A permanent is leaving play to a graveyard or the void (it died, was destroyed or
    sacrificed); called before the ``died`` / ``destroyed`` event is logged.

    :param game: the game.
    :param permanent: the :class:`hkk.Permanent`, already out of play.
    :param components: False where no monster component may be extracted whatever the card
        says (sacrificed as a cost [R], 29.4.11, the deferred check [D]).
    :returns: how many monster components its opponent is offered (logged on the event as
        ``components_offered``), or None.

    Stops at first non-None result.  The built-in ``hkk.rules.components`` offers a dead
    creature's components until the end of the phase (D-components-window) and records the
    offer on ``game.offers``; return None from other implementations.
    """


@hookspec(firstresult=True)
def playable(game: GameView, player: int) -> list[str] | None:
    """Which cards of his hand a player may play now (8.1, 29.4.6): ``game.playable(player)``
    asks, ``game.play_card()`` refuses any other, and the built-in ``hkk.rules.hand_play``
    offers these as ``play <card id>`` in action steps.

    :param game: the game; ``game.step`` is the step running (None between steps).
    :param player: the player (0 or 1) whose hand it is.
    :returns: the card ids he may play and can pay for, in hand order, or None.

    Stops at first non-None result.  The built-in ``hkk.rules.hand_play`` answers by
    D-instants: the active player plays creatures, buildings and ordinary spells where the step
    allows hand play (the main phase), either player instant spells outside the preparation
    phase (29.4.6).  Called for both players before every action decision while the built-in
    is the only answer it keeps what it found; a set answering too is asked every time.
    """


@hookspec
def phase_ended(game: GameView, phase: str) -> None:
    """The turn has moved past the last step of ``phase`` (the next step is in another phase,
    or the turn is over).  Rules that last "until the end of the phase" end here; unlike the
    turn hooks this one acts on the game (it may ask players and change the state).

    :param game: the game.
    :param phase: the phase that ended (a :class:`hkk.Step`'s ``phase``), e.g. ``main``.
    :returns: nothing.  Not firstresult: a notification, every implementation is called.

    The built-in ``hkk.rules.components`` offers what is left of the phase's monster
    components one last time, then lets them lapse (D-components-window).
    """


@hookspec
def turn_started(game: GameView) -> None:
    """A turn has just started (``turn_started`` is logged), before the deferred Ép check.

    :param game: the game; ``game.active`` is the player whose turn it is.
    :returns: nothing.  Not firstresult: a notification, every implementation is called.

    The built-in ``hkk.rules.clock`` starts the turn's time (41.7).
    """


@hookspec
def decided(game: GameView, decision: Decision, choice: Option) -> None:
    """A player has just answered a decision (before the ``decision`` event is logged).

    :param game: the game.
    :param decision: the :class:`hkk.Decision`.
    :param choice: the :class:`hkk.Option` chosen.
    :returns: nothing.  Not firstresult: a notification, every implementation is called.

    The built-in ``hkk.rules.clock`` notes the active player's decisions: without an explicit
    signal his last one closes the turn for the game clock (41.7, D-41.7-last-pass).
    """


@hookspec
def turn_passed(game: GameView, player: int) -> None:
    """The active player has passed the turn (41.5; ``turn_passed`` is logged).

    :param game: the game.
    :param player: the player who passed it.
    :returns: nothing.  Not firstresult: a notification, every implementation is called.

    The built-in ``hkk.rules.clock`` closes the turn for the game clock there (41.7).
    """


@hookspec
def step_ended(game: GameView, step: Step) -> None:
    """A step of the turn has ended (``step_ended`` is logged).

    :param game: the game.
    :param step: the :class:`hkk.Step` that ended.
    :returns: nothing.  Not firstresult: a notification, every implementation is called.

    The built-in ``hkk.rules.clock`` closes the turn for the game clock after the step marked
    ``closes_clock`` (end stage 1, the last where the active player may act; 41.7,
    D-41.7-last-pass).
    """
