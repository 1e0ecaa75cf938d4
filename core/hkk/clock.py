"""The tournament game clock (41.7): a turn counts as closed as soon as the active player
signals he will not act any more in it.  The time source is injected, so rules never read the
wall clock and tests control time."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from hkk.game import Game


class GameClock:
    def __init__(self, time_source: Callable[[], float] = time.monotonic) -> None:
        self.time_source = time_source
        self.turn_times: dict[int, float] = {}  # turn number -> seconds the turn counted
        self._started: float | None = None
        self._closed_turn = 0

    def start_turn(self, game: Game) -> None:
        self._started = self.time_source()

    def close_turn(self, game: Game, rule: str = "41.7") -> None:
        """Close the current turn for the clock; later calls in the same turn do nothing."""
        if self._closed_turn == game.turn or self._started is None:
            return
        self._closed_turn = game.turn
        self.turn_times[game.turn] = self.time_source() - self._started
        # the elapsed time stays out of the log: logs must not depend on the wall clock
        game.emit("clock_closed", player=game.active, rule=rule)
