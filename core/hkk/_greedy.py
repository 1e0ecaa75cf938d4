"""The ``greedy`` agent: one-ply lookahead over the forward model (issue 21).

For a decision with more than one option it samples a world consistent with its view
(``view.determinize(rng)``: the opponent's hand and both decks' order resampled, nothing peeked
at), and for each option clones that world, answers, lets the game run on to its next decision
(or its end) and scores the result with :func:`hkk._evaluation.evaluate`.  The best score wins;
ties go to the earlier option.  ``samples`` worlds (default 1) are averaged.  A decision with
one option costs nothing.  Deterministic for its seed: its only randomness is its own RNG.
"""

from __future__ import annotations

import random

from hkk._agent_registry import checked_option, decision_seconds, factory_options
from hkk._decisions import Decision, Option
from hkk._evaluation import DEFAULT_WEIGHTS, Weights, agent_weights, evaluate, without_search
from hkk._protocol import FairView, ForwardModel

__all__ = ["GreedyAgent", "greedy_agent"]


class GreedyAgent:
    """One-ply lookahead: clone, answer, evaluate (see the module's docstring)."""

    #: It plays the game forward from its view (issue 21): it copies the game at its own
    #: decisions (``view.determinize``), which the turn machine allows at any decision.
    uses_forward_model = True

    def __init__(self, seed: int | None = None, weights: Weights = DEFAULT_WEIGHTS,
                 samples: int = 1) -> None:
        self.rng = random.Random(seed)
        self.weights = weights
        self.samples = max(1, int(samples))
        #: CPU seconds one decision may take before the game's guard stops the game
        #: (hkk._limits; None: the game's limit).
        self.decision_seconds: float | None = None
        #: Decisions it looked ahead for (the one-option ones are not counted).
        self.decisions = 0

    def choose(self, view: FairView, decision: Decision) -> Option:
        trivial = without_search(decision)
        if trivial is not None:
            return trivial
        options = decision.options
        self.decisions += 1
        me = decision.player
        totals = [0.0] * len(options)
        for _ in range(self.samples):
            world = view.determinize(self.rng)
            for index in range(len(options)):
                game = world.clone()
                game.answer(index)
                totals[index] += evaluate(game.view(me), me, self.weights) \
                    if not game.over else _final(game, me)
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        return options[best]


def _final(game: ForwardModel, player: int) -> float:
    return 0.0 if game.winner is None else (1.0 if game.winner == player else -1.0)


def greedy_agent(seed: int | None = None, samples: int = 1, seconds: float | None = None,
                 **weights: float) -> GreedyAgent:
    """One-ply lookahead: for each option, clone a determinized world, answer and score the
    position (hkk._evaluation); samples worlds per decision; any evaluation weight by name
    (hp=, creature=, hand=, threat=...); seconds: the CPU time one decision may take before the
    game is stopped (default: the game's limit)."""
    agent = GreedyAgent(seed, agent_weights("greedy", factory_options(greedy_agent), weights),
                        checked_option("greedy", "samples", samples, whole=True, low=1))
    agent.decision_seconds = decision_seconds("greedy", seconds)
    return agent
