"""N independent games stepped in one call, for learners that want arrays, not agents.

The whole exchange is five preallocated arrays (``obs`` N x D float32, ``mask`` N x A int8,
``player`` N int8, ``reward`` N x 2 float32, ``done`` N bool) and one array of N action
indices in: nothing per game crosses the call but numbers.  Two ways serve it
(docs/LEARNING.md, "The batch on the native core"):

- ``native``: the native core (``hkk_native.native_batch``, when installed and it accepts the
  decks) holds the N games and writes each decider's fair view and mask into the arrays by
  the same :class:`~hkk_env.layout.Layout`, in one call per step;
- ``python``: each game is a :class:`~hkk_env.seat.Table` on the engine's core, driven
  through the protocol, in a Python loop.

Both give the same arrays for the same seeds and actions (tests/test_native_env.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hkk import Engine
from hkk_env.aec import DEFAULT_DECKS, decks_of
from hkk_env.layout import ActionError, Layout
from hkk_env.seat import Table

__all__ = ["CORES", "HkkBatch"]

#: What serves a batch: ``auto`` (the native core when installed and it accepts the decks,
#: else the Python loop), ``python`` (the loop on the engine's core), ``native``.
CORES = ("auto", "python", "native")


class HkkBatch:
    """``n`` games at once.  The k-th game started has seed ``seed + k`` (the first ``n`` at
    :meth:`reset`, then one for each game that ends: it is replaced at once, so every row
    always waits for a decision).

    ``core`` (:data:`CORES`): ``auto`` takes the engine's core if it names one
    (``Engine(core=...)``), else the native batch when ``hkk_native`` is installed and accepts
    the decks and layout, else the Python loop; ``native`` refuses with the native core's
    reason (``hkk_native.Refused``) or says it is not installed.  ``self.core`` is the one
    taken, ``self.fallback`` why ``auto`` did not take the native one (None if it did, or was
    not asked to)."""

    def __init__(self, n: int, decks: Sequence[str | Sequence[str]] = DEFAULT_DECKS, *,
                 seed: int = 0, engine: Engine | None = None,
                 layout: Layout | None = None, core: str = "auto") -> None:
        if n < 1:
            raise ValueError(f"hkk_env: a batch holds at least one game, got n={n}")
        if core not in CORES:
            raise ValueError(f"hkk_env: core {core!r} is not one of {CORES}")
        self.n = n
        self.engine = engine if engine is not None else Engine.installed()
        self.decks = decks_of(self.engine, decks)
        self.layout = layout if layout is not None else Layout.for_decks(self.engine,
                                                                         self.decks)
        self.first_seed = seed
        self.obs: npt.NDArray[np.float32] = np.zeros((n, self.layout.n_observation),
                                                     np.float32)
        self.mask: npt.NDArray[np.int8] = np.zeros((n, self.layout.n_actions), np.int8)
        self.player: npt.NDArray[np.int8] = np.zeros(n, np.int8)
        self.reward: npt.NDArray[np.float32] = np.zeros((n, 2), np.float32)
        self.done: npt.NDArray[np.bool_] = np.zeros(n, np.bool_)
        #: the seed of the game each row plays now
        self.seeds: npt.NDArray[np.int64] = np.zeros(n, np.int64)
        self._started = 0
        self.tables: list[Table] = []
        self._done_bytes = self.done.view(np.uint8)  # the native batch writes 0/1 bytes
        self.fallback: str | None = None
        self._native: Any = None
        self._reset = False
        self.core = self._choose(core)

    def _choose(self, core: str) -> str:
        if core == "auto" and self.engine.core_name != "auto":
            core = "native" if self.engine.core_name == "native" else "python"
        if core == "python":
            return core
        try:
            from hkk_native import Refused, native_batch
        except ImportError:
            if core == "native":
                raise ValueError("hkk_env: the native core is not installed "
                                 "(pip install ./plugins/hkk-native)") from None
            self.fallback = "the native core is not installed"
            return "python"
        try:
            self._native = native_batch(self.engine, self.decks, self.layout.plain(), self.n,
                                        seed=self.first_seed)
        except Refused as exc:
            if core == "native":
                raise
            self.fallback = str(exc)
            return "python"
        return "native"

    @property
    def started(self) -> int:
        """Games started since the last :meth:`reset`."""
        return self._native.started if self._native is not None else self._started

    def _arrays(self) -> tuple[npt.NDArray[Any], ...]:
        return self.obs, self.mask, self.player, self.reward, self._done_bytes, self.seeds

    def _new(self) -> Table:
        table = Table.start(self.engine, self.decks, self.layout,
                            seed=self.first_seed + self._started)
        self._started += 1
        if table.over:  # a game over before any decision: no use to a learner
            raise RuntimeError(f"hkk_env: the game of seed {table.seed} ended before a decision")
        return table

    def _write(self, row: int) -> None:
        table = self.tables[row]
        player = table.player
        assert player is not None
        self.player[row] = player
        self.seeds[row] = table.seed
        table.observe(player, self.obs[row])
        table.mask(player, self.mask[row])

    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8],
                             npt.NDArray[np.int8]]:
        """Start ``n`` games: (obs, mask, player) of each one's first decision."""
        if self._native is not None:
            self._native.reset(*self._arrays())
            self._reset = True
            return self.obs, self.mask, self.player
        self._started = 0
        self.tables = [self._new() for _ in range(self.n)]
        for row in range(self.n):
            self._write(row)
        self.reward[:] = 0.0
        self.done[:] = False
        return self.obs, self.mask, self.player

    def step(self, actions: npt.ArrayLike) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int8],
            npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Answer each game's decision with its action index: (obs, mask, player, reward,
        done).  A row whose game ended has ``done`` True and the rewards of that game (+1/-1,
        0 both without a winner); its obs, mask and player are already the next game's.
        The arrays are the batch's own, overwritten by the next call."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.n,):
            raise ValueError(f"hkk_env: step takes {self.n} actions, one a game; "
                             f"got shape {chosen.shape}")
        if chosen.dtype.kind not in "iu":
            raise ValueError(f"hkk_env: actions are action indices (integers), got dtype "
                             f"{chosen.dtype}")
        if self._native is not None:
            if not self._reset:
                raise RuntimeError("hkk_env: reset() the batch before step()")
            try:
                self._native.step(np.ascontiguousarray(chosen, np.int64), *self._arrays())
            except ValueError as exc:
                raise ActionError(str(exc)) from None
            return self.obs, self.mask, self.player, self.reward, self.done
        if not self.tables:
            raise RuntimeError("hkk_env: reset() the batch before step()")
        self.reward[:] = 0.0
        self.done[:] = False
        for row, action in enumerate(chosen.tolist()):
            table = self.tables[row]
            table.act(action)
            if table.over:
                self.reward[row] = table.rewards()
                self.done[row] = True
                self.tables[row] = self._new()
            self._write(row)
        return self.obs, self.mask, self.player, self.reward, self.done

    def sample(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for each row (a random player's answers)."""
        out = np.empty(self.n, np.int64)
        for row in range(self.n):
            legal = np.flatnonzero(self.mask[row])
            out[row] = legal[rng.integers(len(legal))]
        return out

    def __repr__(self) -> str:
        return f"HkkBatch(n={self.n}, started={self.started}, core={self.core!r})"

    def raw(self, row: int) -> dict[str, Any]:
        """Row ``row``'s decider's raw observation (``Table.raw``; on the native batch, of
        the row's game replayed on the Python engine from its seed and answers)."""
        player = int(self.player[row])
        return self.table(row).raw(player)

    def table(self, row: int) -> Table:
        """Row ``row``'s game as a :class:`Table` (on the native batch: its Python twin, the
        game of its seed on the Python engine given the same answers)."""
        if self._native is None:
            return self.tables[row]
        seed, answers = self._native.history(row)
        game = self.engine.new_game(self.decks, [None, None], seed=seed, log_level="outcome")
        for index in answers:
            game.answer(index)
        return Table(game, self.layout, seed=seed)
