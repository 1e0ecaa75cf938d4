"""hkk_env: hkk games for learning agents, over the published forward-model protocol
(``hkk.ForwardModel``, ``hkk.FairView``): a PettingZoo AEC environment (:class:`HkkEnv`), a
batch of N games stepped in one call (:class:`HkkBatch`), and the fixed layout of their
observation vectors and action indices (:class:`Layout`).  docs/LEARNING.md."""

from hkk_env.aec import AGENTS, HkkEnv, env
from hkk_env.batch import HkkBatch
from hkk_env.layout import ActionError, Layout

__all__ = ["AGENTS", "ActionError", "HkkBatch", "HkkEnv", "Layout", "env"]
