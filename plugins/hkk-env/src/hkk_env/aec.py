"""The PettingZoo AEC environment: two agents, ``player_0`` and ``player_1`` (the seats), the
one to act is the one the game's decision waits for (not strictly alternating).

- observation: ``{"observation": float32 vector, "action_mask": int8 vector}`` from the seat's
  fair view (:mod:`hkk_env.layout`); the raw dict it is made from is ``infos[agent]["raw"]``
  for the agent to act (``env.raw(agent)`` for any);
- actions: ``Discrete(layout.n_actions)``, the legal ones 1 in the mask;
- rewards: only at the end, +1 / -1, 0 to both without a winner.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from hkk import Engine
from hkk_env.layout import Layout
from hkk_env.seat import Table

__all__ = ["AGENTS", "HkkEnv", "env"]

AGENTS = ("player_0", "player_1")
#: The decks of a game when none are given: the base set's two.
DEFAULT_DECKS = ("alap:tuz", "alap:viz")


def decks_of(engine: Engine, decks: Sequence[str | Sequence[str]]) -> list[list[str]]:
    """Two card lists, from deck names (``alap:tuz``, ``engine.deck``) or card lists."""
    if len(decks) != 2:
        raise ValueError(f"hkk_env: a game has two decks, got {len(decks)}: {list(decks)}")
    return [engine.deck(d) if isinstance(d, str) else list(d) for d in decks]


class HkkEnv(AECEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """A game of hkk for two learning agents.  ``reset(seed=s)`` plays the game of seed
    ``s`` (the one ``hkk play --seed s`` deals); ``reset()`` the next seed drawn from the
    last seed given (or from the operating system)."""

    metadata: dict[str, Any] = {"name": "hkk_v0", "render_modes": ["ansi"],
                                "is_parallelizable": False}

    def __init__(self, decks: Sequence[str | Sequence[str]] = DEFAULT_DECKS, *,
                 engine: Engine | None = None, layout: Layout | None = None,
                 render_mode: str | None = None, log_level: str = "outcome") -> None:
        super().__init__()
        self.log_level = log_level  # the game's log (hkk's log levels): outcome is quickest
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"hkk_env: render_mode {render_mode!r} is not one of "
                             f"{self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.engine = engine if engine is not None else Engine.installed()
        self.decks = decks_of(self.engine, decks)
        self.layout = layout if layout is not None else Layout.for_decks(self.engine,
                                                                         self.decks)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        box = spaces.Box(-np.inf, np.inf, (self.layout.n_observation,), np.float32)
        mask = spaces.Box(0, 1, (self.layout.n_actions,), np.int8)
        self._observation_space = spaces.Dict({"observation": box, "action_mask": mask})
        self._action_space = spaces.Discrete(self.layout.n_actions)
        self._seeds = random.Random()
        self.table: Table | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(53)
        self.table = Table.start(self.engine, self.decks, self.layout, seed=game_seed,
                                 log_level=self.log_level)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._settle()

    def _settle(self) -> None:
        """After a decision: whose turn it is, or the end and its rewards."""
        assert self.table is not None
        player = self.table.player
        if player is None:
            for agent, reward in zip(AGENTS, self.table.rewards(), strict=True):
                self.rewards[agent] = reward
                self.terminations[agent] = True
                self.infos[agent] = {"winner": self.table.game.winner}
            return
        for agent in self.agents:
            self.infos[agent] = {}
        self.agent_selection = AGENTS[player]
        self.infos[self.agent_selection] = {"raw": self.table.raw(player)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.table is not None
        if action is None:
            raise ValueError(f"hkk_env: {agent} must act (an action index), not None")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.table.act(int(action))
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        assert self.table is not None, "hkk_env: reset() before observe()"
        seat = AGENTS.index(agent)
        vector = np.empty(self.layout.n_observation, np.float32)
        mask = np.empty(self.layout.n_actions, np.int8)
        self.table.observe(seat, vector)
        self.table.mask(seat, mask)
        return {"observation": vector, "action_mask": mask}

    def raw(self, agent: str) -> dict[str, Any]:
        """What ``agent``'s observation is made from, as plain data (``Table.raw``)."""
        assert self.table is not None, "hkk_env: reset() before raw()"
        return self.table.raw(AGENTS.index(agent))

    def render(self) -> str | None:
        if self.render_mode is None or self.table is None:
            return None
        decision = self.table.decision
        if decision is None:
            return f"game over: winner {self.table.game.winner}"
        return (f"turn {self.table.game.turn}: player {decision.player} {decision.kind}: "
                + ", ".join(o.label for o in decision.options))

    def close(self) -> None:
        self.table = None


def env(**kwargs: Any) -> HkkEnv:
    """An :class:`HkkEnv` (PettingZoo's constructor convention)."""
    return HkkEnv(**kwargs)
