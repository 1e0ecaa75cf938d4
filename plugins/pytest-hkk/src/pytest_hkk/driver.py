"""Running a game to a named step, or through whole turns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hkk import GameOver
from hkk.testing import Turn, play_game


class TurnDriver:
    """Walks the turn's steps of games (:class:`hkk.testing.Turn`).

    ``to(game, "end_stage2")`` starts a turn if none is in progress and runs the steps before
    ``end_stage2`` (with ``inclusive=True`` that step too); a later ``to`` goes on from there and
    ``finish_turn`` ends the turn.  ``turn`` plays whole turns.  A game that ends on the way
    just stops (``game.over``).

    A player's ``vp`` in :func:`pytest_hkk.build_game` is his VP *before* the turn's VP
    regeneration (29.3: +1 in turn 1, more later), so a spec's 5 is 6 by the main phase.  To
    have exactly 5 in a step, set it there: ``to(game, "main_phase", vp=[5, None])`` (None: that
    player's VP is left as it is)."""

    def __init__(self) -> None:
        self._turns: dict[int, Turn] = {}  # id(game) -> its turn in progress

    def in_turn(self, game: Any) -> bool:
        return id(game) in self._turns

    def to(self, game: Any, hook: str, *, inclusive: bool = False,
           vp: Sequence[int | None] | None = None) -> Any:
        hooks = [s.hook for s in game.turn_steps]
        if vp is not None and (len(vp) != 2 or inclusive):
            raise ValueError("vp= takes one value (or None) per player, and only when the run "
                             "stops before the step (not inclusive)")
        if hook not in hooks:
            raise LookupError(f"no step {hook!r}; the turn's steps are {hooks}")
        if game.over:
            return game
        turn = self._turns.get(id(game))
        if turn is None:
            turn = self._start(game)
            if turn is None:
                return game
        if hook not in hooks[turn.index:]:
            raise LookupError(f"step {hook!r} already ran in turn {game.turn}; "
                              f"the next step is {hooks[turn.index]!r}")
        if not _guard(lambda: turn.run_to(hook, inclusive=inclusive), game):
            self._turns.pop(id(game), None)
        elif vp is not None:  # standing at the step, after this turn's VP regeneration
            for player, value in zip(game.players, vp, strict=True):
                if value is not None:
                    player.vp = value
        return game

    def finish_turn(self, game: Any) -> Any:
        """Run the rest of the turn in progress (or a whole turn) and end it."""
        turn = self._turns.pop(id(game), None)
        if turn is None:
            return self.turn(game)
        _guard(turn.finish, game)
        return game

    def turn(self, game: Any, count: int = 1) -> Any:
        """Play ``count`` whole turns (after ending a turn in progress)."""
        if self.in_turn(game):
            self.finish_turn(game)
            count -= 1
        for _ in range(count):
            if game.over:
                break
            turn = self._start(game)
            if turn is None or not _guard(turn.finish, game):
                break
            self._turns.pop(id(game), None)
        return game

    def game(self, game: Any, max_turns: int | None = None) -> Any:
        """Play on to the end of the game."""
        if self.in_turn(game):
            self.finish_turn(game)
        play_game(game, max_turns=max_turns)
        return game

    def _start(self, game: Any) -> Turn | None:
        turns: list[Turn] = []
        if not _guard(lambda: turns.append(Turn(game)), game):
            return None
        self._turns[id(game)] = turns[0]
        return turns[0]


def _guard(action: Callable[[], Any], game: Any) -> bool:
    """Run ``action()``; False when the game ended in it."""
    try:
        action()
    except GameOver:
        return False
    return not game.over
