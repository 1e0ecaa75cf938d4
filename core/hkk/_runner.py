"""The turn runner: walks the turn's steps (:data:`hkk.DEFAULT_TURN`) and owns the hard
parts of the rules.

For every step it **collects** pending items from the step's hook, lets the right player
**order** them, **resolves** one, **checks** creatures' Ép where the rules require it and
collects again (:mod:`hkk._steps`, :mod:`hkk._resolution`).  This module strings the steps into
turns and turns into a game.
"""

from __future__ import annotations

from typing import Any

from hkk._deciding import ask
from hkk._decisions import Option
from hkk._errors import GameOver, HkkError
from hkk._forward import PositionError
from hkk._game import Game
from hkk._hookcall import notify
from hkk._phases import Mode, Step
from hkk._resolution import after_resolution
from hkk._steps import RUNNERS, close_offers
from hkk._triggers import step_over, step_over_again
from hkk.events import (
    GameEnded,
    GameStarted,
    StartingPlayer,
    StepEnded,
    StepStarted,
    TurnEnded,
    TurnStarted,
)

__all__ = ["Turn", "advance", "after_resolution", "end_turn", "play_game", "run_next_step",
           "play_turn", "resume", "run_step", "setup", "start_turn"]


def start_turn(game: Game) -> None:
    game.turn += 1
    game.log.turn = game.turn
    game.log.step = ""
    player = game.active_player
    player.turns_taken += 1
    game.usage_turn.clear()
    game.attempted.clear()
    game.turn_passed = False
    game.step_index = 0
    game.emit(TurnStarted, player=game.active, turn_of_player=player.turns_taken)
    notify(game, "turn_started")  # the game clock starts (41.7)
    # 41.4 supplement: Ép was not checked since end stage 4; [D] that check happens at the very
    # start of this preparation phase, before VP regeneration, and gives no component.
    game.check_hp("41.4", components=game.rulings.deferred_check_gives_components,
                  changed_only=True)
    # What those deaths trigger waits: it belongs to the preparation phase, so it joins the
    # stage-2 pool the active player orders (29.4, 29.4.1, D-trigger-prep); stage 1's steps
    # let it wait (``triggers="wait"``).


#: Each mode's logged value (``Mode.value`` is a descriptor call; this is a dict lookup).
_MODE_VALUES = {mode: mode.value for mode in Mode}


def run_step(game: Game, step: Step) -> Any:
    """Run one step from its start (the turn's cursor is the caller's business)."""
    game.step = step
    log = game.log
    log.step = step.hook
    # at a lower log level nobody may receive the bookkeeping events: then they are not built
    if StepStarted in log.quiet:
        log._emitted += 1  # log.skip(), without a call (hot)
    else:
        game.emit(StepStarted, phase=step.phase, stage=step.stage, hook=step.hook,
                  mode=_MODE_VALUES[step.mode])
    RUNNERS[step.mode](game, step)
    step_over(game, step)  # triggers still waiting (D-trigger-wait, D-trigger-prep)
    if StepEnded in log.quiet:
        log._emitted += 1  # log.skip(), without a call (hot)
    else:
        game.emit(StepEnded, hook=step.hook)
    notify(game, "step_ended", step=step)


def _step_end(game: Game, step: Step) -> None:
    """The end of a step the machine went back to (as :func:`run_step` ends it), and of its
    phase (as :func:`run_next_step`)."""
    step_over_again(game, step)
    log = game.log
    if StepEnded in log.quiet:
        log.skip()
    else:
        game.emit(StepEnded, hook=step.hook)
    notify(game, "step_ended", step=step)
    index = game.step_index or 0
    steps = game.turn_steps
    following = steps[index].phase if index < len(steps) else None
    if following != step.phase:
        notify(game, "phase_ended", phase=step.phase)
        if game.machine.closing is not None:
            close_offers(game, game.machine.closing)


class Turn:
    """One turn, walked step by step: ``Turn(game)`` starts it, ``run_to("end_stage2")`` runs
    the steps before that one (or through it, ``inclusive=True``), ``finish()`` runs the rest
    and ends the turn.  :func:`play_turn` is ``Turn(game).finish()``.

    A thin driver: where the turn stands is the game's ``step_index``, so a game saved between
    steps (:mod:`hkk._saving`) goes on with ``Turn(game, start=False)``."""

    def __init__(self, game: Game, *, start: bool = True) -> None:
        self.game = game
        if start:
            start_turn(game)
        elif game.step_index is None:  # the caller already called start_turn
            game.step_index = 0

    @property
    def index(self) -> int:
        """The next step to run."""
        return self.game.step_index or 0

    @property
    def next_step(self) -> Step | None:
        steps = self.game.turn_steps
        return steps[self.index] if self.index < len(steps) else None

    def run_next(self) -> None:
        run_next_step(self.game)

    def run_to(self, hook: str, *, inclusive: bool = False) -> None:
        hooks = [s.hook for s in self.game.turn_steps]
        if hook not in hooks[self.index:]:
            raise LookupError(f"step {hook!r} is not ahead in this turn; the steps left are "
                              f"{hooks[self.index:]}")
        stop = hooks.index(hook, self.index) + (1 if inclusive else 0)
        while self.index < stop:
            self.run_next()
        if not inclusive:  # standing at the step: rules that ask "which step is it" see it
            self.game.step = self.game.turn_steps[stop]
            self.game.log.step = hook

    def finish(self) -> None:
        """Run the remaining steps and end the turn; the next player's turn begins right
        after end stage 4 (41.6)."""
        game = self.game
        while self.index < len(game.turn_steps):
            self.run_next()
        end_turn(game)


def run_next_step(game: Game) -> None:
    """Run the turn's next step (:meth:`Turn.run_next`, without a Turn per step), and end its
    phase if the next step is in another."""
    steps = game.turn_steps
    index = game.step_index or 0
    step = steps[index]
    index = game.step_index = index + 1
    # 41.5: after the active player passed the turn, every remaining action phase still
    # opens for his opponent (run_actions asks only him); play moves on when he passes.
    run_step(game, step)
    following = steps[index].phase if index < len(steps) else None
    if following != step.phase:  # e.g. monster components lapse (hkk.rules.components)
        notify(game, "phase_ended", phase=step.phase)
        if game.machine.closing is not None:  # what is left is offered (D-components-window)
            close_offers(game, game.machine.closing)


def resume(game: Game) -> None:
    """Go on from the machine's frames: the set-up, or the step the game stands in (the one
    before the turn's cursor), from the frame first in the stack - its runner's, the end's
    triggers (``settle``) or the phase's offers closing (``offers``) - each function down to
    the decision going on from its frame."""
    machine = game.machine
    machine.reset()
    first = machine.frames[0][0]
    index = game.step_index or 0
    steps = game.turn_steps
    step = steps[index - 1] if 0 < index <= len(steps) else None
    if step is not None and first == _RUNNER_FRAMES[step.mode]:  # the step's runner: the
        RUNNERS[step.mode](game, step)  # usual case, a decision inside the step
    elif first == "setup":
        setup(game)
        return
    elif step is None or first not in ("settle", "offers"):
        raise PositionError(f"the machine's position starts with a {first!r} frame at the "
                            f"turn's step {index}: not that step's, nor the set-up's")
    elif first == "offers":  # the phase ended: its offers close
        close_offers(game, machine.closing or step.phase)
        return
    _step_end(game, step)


#: The frame a step's runner keeps, by its mode (hkk._steps).
_RUNNER_FRAMES = {Mode.SIMULTANEOUS: "moment", Mode.ORDERED: "ordered",
                  Mode.ALTERNATING: "alternating", Mode.ACTIONS: "actions"}


def end_turn(game: Game) -> None:
    game.step = None
    game.step_index = None
    game.log.step = ""
    game.emit(TurnEnded, player=game.active, rule="41.6")
    game.active = 1 - game.active  # game.opponent, without a call (every turn)


def play_turn(game: Game) -> None:
    """One whole turn (41.0-41.6)."""
    Turn(game).finish()


def advance(game: Game, max_turns: int | None = None) -> bool:
    """Take the game to its next step boundary: go on with the step it stands in, start the
    next turn, run the next step, or end the turn.  Between two calls the game can be saved.
    Returns False once the game is over."""
    try:
        if game.machine.frames:
            resume(game)
        elif not game.started:
            setup(game)
        elif game.over:
            pass
        elif game.step_index is None:
            if game.turn >= (max_turns if max_turns is not None else game.rulings.max_turns):
                game.over = True
                game.emit(GameEnded, winner=None, reason="turn_limit", rule="D-turn-limit")
            else:
                start_turn(game)
        elif game.step_index < len(game.turn_steps):
            run_next_step(game)
        else:
            end_turn(game)
    except GameOver:
        game.machine.clear()
    return not game.over


def setup(game: Game) -> None:
    """K 3.6-3.12, 28: shuffle, draw 5 each, a random starting player who may hand the start to
    his opponent.  Its frame, ``["setup", starter]``, keeps the starter drawn."""
    machine = game.machine
    if not machine.back:
        game.started = True
        game.emit(GameStarted, seed=game.seed, decks=[len(p.deck) for p in game.players])
        for player in game.players:
            game.rng.shuffle(player.deck)
        frame = machine.frame(["setup", game.rng.randrange(2)])
    else:
        frame = machine.frame(["setup", 0])
    starter = frame[1]
    answer = ask(game, starter, "start", (Option("start"), Option("hand over")), rule="28")
    game.active = starter if answer.label == "start" else game.opponent(starter)
    game.emit(StartingPlayer, player=game.active)
    for player in game.players:
        game.draw(player.index, 5, source="setup")
    machine.frames.pop()


def play_game(game: Game, max_turns: int | None = None) -> int | None:
    """Play until a player loses; returns the winner (None for a draw).  A game loaded in the
    middle of a turn goes on from where it stands.  Every seat needs an agent."""
    if None in game.agents:
        seat = game.agents.index(None) + 1
        raise HkkError(f"player {seat}'s seat has no agent: answer game.decision with "
                       "game.answer(...), or seat an agent (game.agents[i] = agent)")
    machine = game.machine
    machine.waiting = None
    machine.running = True
    try:
        while advance(game, max_turns):
            pass
    finally:
        machine.running = False
    return game.winner
