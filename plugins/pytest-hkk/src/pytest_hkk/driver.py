"""Running a game to a named step, or through whole turns."""

from __future__ import annotations

from typing import Any

from hkk.game import GameOver
from hkk.phases import Mode
from hkk.runner import close_offers, play_game, play_turn, run_step, start_turn


class TurnDriver:
    """Walks the turn's steps of games (:attr:`hkk.Game.turn_steps`).

    ``to(game, "end_stage2")`` starts a turn if none is in progress and runs the steps before
    ``end_stage2`` (with ``inclusive=True`` that step too); a later ``to`` goes on from there and
    ``finish_turn`` ends the turn.  ``turn`` plays one whole turn with the engine's own
    :func:`hkk.runner.play_turn`.  A game that ends on the way just stops (``game.over``)."""

    def __init__(self) -> None:
        self._position: dict[int, int] = {}  # id(game) -> index of the next step to run
        self._skip: dict[int, bool] = {}

    def in_turn(self, game: Any) -> bool:
        return id(game) in self._position

    def to(self, game: Any, hook: str, *, inclusive: bool = False) -> Any:
        hooks = [s.hook for s in game.turn_steps]
        if hook not in hooks:
            raise LookupError(f"no step {hook!r}; the turn's steps are {hooks}")
        if game.over:
            return game
        if not self.in_turn(game):
            if not _guard(lambda: start_turn(game), game):
                return game
            self._position[id(game)] = 0
            self._skip[id(game)] = False
        target = hooks.index(hook)
        position = self._position[id(game)]
        if target < position:
            raise LookupError(f"step {hook!r} already ran in turn {game.turn}; "
                              f"the next step is {hooks[position]!r}")
        self._run(game, target + 1 if inclusive else target)
        if not inclusive and not game.over:
            game.step = game.turn_steps[target]
            game.log.step = hook
        return game

    def finish_turn(self, game: Any) -> Any:
        """Run the rest of the turn in progress (or a whole turn) and end it."""
        if not self.in_turn(game):
            return self.turn(game)
        self._run(game, len(game.turn_steps))
        if not game.over:
            game.step = None
            game.log.step = ""
            game.emit("turn_ended", player=game.active, rule="41.6")
            game.active = game.opponent(game.active)
        self._position.pop(id(game), None)
        return game

    def turn(self, game: Any, count: int = 1) -> Any:
        """Play ``count`` whole turns (after ending a turn in progress)."""
        if self.in_turn(game):
            self.finish_turn(game)
            count -= 1
        for _ in range(count):
            if game.over or not _guard(lambda: play_turn(game), game):
                break
        return game

    def game(self, game: Any, max_turns: int | None = None) -> Any:
        """Play on to the end of the game."""
        if self.in_turn(game):
            self.finish_turn(game)
        play_game(game, max_turns=max_turns)
        return game

    def _run(self, game: Any, stop: int) -> None:
        """Steps [position, stop) of the turn, as :func:`hkk.runner.play_turn` runs them
        (the 41.5 skip of action steps, closing component offers when a phase ends)."""
        key = id(game)
        while self._position[key] < stop and not game.over:
            index = self._position[key]
            self._position[key] = index + 1
            if not _guard(lambda index=index: self._step(game, index), game):
                self._position.pop(key, None)
                return

    def _step(self, game: Any, index: int) -> None:
        key = id(game)
        steps = game.turn_steps
        step = steps[index]
        if step.mode is Mode.ACTIONS and self._skip[key]:
            game.emit("step_skipped", hook=step.hook, rule="41.5")
        else:
            acted = run_step(game, step)
            if step.mode is Mode.ACTIONS and game.turn_passed and not acted:
                self._skip[key] = True
            if step.hook == "end_stage1":
                game.clock.close_turn(game, rule="41.7")
        following = steps[index + 1].phase if index + 1 < len(steps) else None
        if following != step.phase:
            close_offers(game, step.phase)


def _guard(action: Any, game: Any) -> bool:
    """Run ``action()``; False when the game ended in it."""
    try:
        action()
    except GameOver:
        return False
    return not game.over
