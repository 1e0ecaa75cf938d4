"""The tournament game clock (41.7): a turn counts as closed as soon as the active player
signals he will not act any more in it.  The time source is injected, so rules never read the
wall clock and tests control time.

The explicit signal is passing the turn (41.5).  A player who never does signals with his last
decision before his turn leaves him nothing more to do (normally his last pass): the clock
stops there, even though the turn is closed for it only at the end of end stage 1, once it is
clear that no decision of his followed ([D] D-41.7-last-pass)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hkk.events import ClockClosed

if TYPE_CHECKING:
    from hkk._view import GameActions


class GameClock:
    """Measures the time each turn took (for time limits and reports)."""

    def __init__(self, time_source: Callable[[], float] = time.monotonic) -> None:
        self.time_source = time_source
        self.turn_times: dict[int, float] = {}  # turn number -> seconds the turn counted
        self._started: float | None = None
        self._last_decision: float | None = None  # the active player's, this turn
        self._closed_turn = 0

    def start_turn(self, game: GameActions) -> None:
        self._started = self.time_source()
        self._last_decision = None

    def active_decided(self, game: GameActions) -> None:
        """The active player just decided: until he decides again, this was his last signal."""
        self._last_decision = self.time_source()

    def close_turn(self, game: GameActions, rule: str = "41.7") -> None:
        """Close the current turn for the clock; later calls in the same turn do nothing."""
        if self._closed_turn == game.turn or self._started is None:
            return
        self._closed_turn = game.turn
        end = self._last_decision if self._last_decision is not None else self.time_source()
        self.turn_times[game.turn] = end - self._started
        # the elapsed time stays out of the log: logs must not depend on the wall clock
        game.emit(ClockClosed, player=game.active, rule=rule)

    def save(self) -> dict[str, Any]:
        """The turn's bookkeeping as plain data (:mod:`hkk._saving`).  Times are kept relative to
        the turn's start: a time source's zero means nothing in another process."""
        started = self._started
        return {"turn_times": {str(turn): t for turn, t in self.turn_times.items()},
                "closed_turn": self._closed_turn,
                "elapsed": None if started is None else self.time_source() - started,
                "last_decision": None if started is None or self._last_decision is None
                else self._last_decision - started}

    def load(self, data: dict[str, Any]) -> None:
        self.turn_times = {int(turn): t for turn, t in data["turn_times"].items()}
        self._closed_turn = data["closed_turn"]
        elapsed, last = data["elapsed"], data["last_decision"]
        # the time the game spent saved does not count
        self._started = None if elapsed is None else self.time_source() - elapsed
        self._last_decision = None if last is None or self._started is None \
            else self._started + last
