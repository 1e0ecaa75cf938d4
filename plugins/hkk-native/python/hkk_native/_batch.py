"""The learning environment's batch on the native core (``hkk_env.HkkBatch(core="native")``,
docs/LEARNING.md): N games answered from outside, held natively and stepped in one call that
writes the batch's numpy arrays (``src/env.rs``).  The layout comes over as plain data
(``hkk_env.Layout.plain()``), so this module knows nothing of hkk_env."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hkk_native._core import NativeCore, NativeGame, Refused, _checked, _native_engine
from hkk_native._native import Batch as _Batch

__all__ = ["NativeBatch", "native_batch"]


class NativeBatch:
    """The native batch (``env::Batch``): ``reset`` and ``step`` write the arrays they are
    given (obs N x D float32, mask N x A int8, player N int8, reward N x 2 float32, done N
    uint8 - a bool array's ``view(np.uint8)`` -, seeds N int64), all C-contiguous."""

    def __init__(self, batch: _Batch) -> None:
        self._batch = batch

    @property
    def started(self) -> int:
        """Games started since the last reset."""
        return self._batch.started

    def reset(self, obs: Any, mask: Any, player: Any, reward: Any, done: Any,
              seeds: Any) -> None:
        self._batch.reset(obs, mask, player, reward, done, seeds)

    def step(self, actions: Any, obs: Any, mask: Any, player: Any, reward: Any, done: Any,
             seeds: Any) -> None:
        """``actions``: an int64 array of N action indices.  A bad action is a ValueError
        naming it, its seed and the legal actions (the rows before it stepped); a game the
        native core stops short is a RuntimeError naming its seed and why."""
        self._batch.step(actions, obs, mask, player, reward, done, seeds)

    def history(self, row: int) -> tuple[int, list[int]]:
        """A row's game: its seed and the option indices answered in it, in order (its
        Python twin replays them)."""
        return self._batch.history(row)

    def observe(self, game: NativeGame, seat: int, obs: Any, mask: Any) -> None:
        """Seat ``seat``'s observation and mask of a native game, as a row's are written."""
        self._batch.observe(game._game, seat, obs, mask)


def native_batch(engine: Any, decks: Sequence[Sequence[str]], layout: Mapping[str, Any],
                 n: int, *, seed: int = 0) -> NativeBatch:
    """A native batch of ``n`` games of ``decks`` (two card lists), the k-th game started of
    seed ``seed + k``, encoded by ``layout`` (``hkk_env.Layout.plain()``).  :class:`Refused`
    names why not: the game (``NativeCore.refuses``), a seed past 64 bits, or a layout the
    native encoder does not know."""
    reason = NativeCore().refuses(engine, decks)
    if reason is not None:
        raise Refused(f"the native core cannot run this game: {reason}")
    lists = _checked(engine, decks, [seed, seed + 2**32])
    try:
        return NativeBatch(_Batch(_native_engine(engine), dict(layout), (lists[0], lists[1]),
                                  n, seed))
    except ValueError as exc:
        raise Refused(f"the native core cannot encode this layout: {exc}") from None
