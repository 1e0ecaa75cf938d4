"""One game as the learner sees it: the decision waited for, each seat's observation, the
mask, and the answer by action index.  Shared by the AEC environment and the batch."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hkk import Engine, ForwardModel
from hkk_env.layout import ActionError, Layout

__all__ = ["Table"]


class Table:
    """A game whose seats are both answered from outside, read through the protocol only
    (``decision``, ``answer``, ``view``, ``over``, ``winner``): any core's."""

    @classmethod
    def start(cls, engine: Engine, decks: Sequence[Sequence[str]], layout: Layout, *,
              seed: int, log_level: str = "outcome") -> Table:
        """A new game of ``engine`` on its core (``engine.start``)."""
        game = engine.start([list(d) for d in decks], [None, None], seed=seed,
                            log_level=log_level)
        return cls(game, layout, seed=seed)

    def __init__(self, game: ForwardModel, layout: Layout, *, seed: int) -> None:
        self.layout = layout
        self.game = game
        self.seed = seed
        self._actions: list[int] = []
        self._boards: dict[int, dict[int, int]] = {}
        self._read()

    def _read(self) -> None:
        """Take the new decision: its options' action indices (from the decider's board)."""
        self.decision = self.game.decision
        self._boards.clear()
        self._snapshots: dict[int, dict[str, Any]] = {}
        if self.decision is None:
            self._actions = []
            return
        me = self.decision.player
        self._actions = self.layout.actions(self.decision, me, self._board(me))

    def _snapshot(self, seat: int) -> dict[str, Any]:
        if seat not in self._snapshots:
            self._snapshots[seat] = self.game.view(seat).snapshot()
        return self._snapshots[seat]

    def _board(self, seat: int) -> dict[int, int]:
        if seat not in self._boards:
            self._boards[seat] = self.layout.board(self._snapshot(seat), seat)
        return self._boards[seat]

    @property
    def player(self) -> int | None:
        """The seat to decide (None: the game is over)."""
        return None if self.decision is None else self.decision.player

    @property
    def over(self) -> bool:
        return self.decision is None

    def rewards(self) -> tuple[float, float]:
        """+1 to the winner, -1 to the loser, 0 to both without a winner (and before the
        end)."""
        winner = self.game.winner if self.decision is None else None
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def observe(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        """Seat ``seat``'s observation vector, from its fair view only."""
        view = self.game.view(seat)
        self.layout.encode(view, self._snapshot(seat), self.decision, self._board(seat), out)

    def mask(self, seat: int, out: npt.NDArray[np.int8]) -> None:
        """1 at each action of the decision if it is ``seat``'s, else all 0."""
        out[:] = 0
        if self.decision is not None and self.decision.player == seat:
            out[self._actions] = 1

    def raw(self, seat: int) -> dict[str, Any]:
        """What the vector is made from, as plain data: the seat's ``view.snapshot()``, the
        step, and (if it is his) the decision with each option's label and action index."""
        view = self.game.view(seat)
        step = view.step
        decision = None
        if self.decision is not None and self.decision.player == seat:
            decision = {"kind": self.decision.kind, "prompt": self.decision.prompt,
                        "rule": self.decision.rule,
                        "options": [o.label for o in self.decision.options],
                        "actions": list(self._actions)}
        return {"player": seat, "step": step.hook if step is not None else None,
                "deciding": self.player, "view": self._snapshot(seat), "decision": decision}

    def act(self, action: int) -> None:
        """Answer the decision with the option at action index ``action``."""
        if self.decision is None:
            raise ActionError(f"game of seed {self.seed} is over: no action is taken")
        try:
            index = self._actions.index(action)
        except ValueError:
            raise ActionError(
                f"action {action} is not an option of player {self.decision.player}'s "
                f"{self.decision.kind} decision (game of seed {self.seed}; its actions: "
                f"{self._actions})") from None
        self.game.answer(index)
        self._read()
