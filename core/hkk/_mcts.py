"""The ``mcts`` agent: information-set Monte Carlo tree search over the forward model.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): the tree is over the deciding
player's information set, and every simulation samples its own world consistent with his view
(``view.determinize(rng)``), so the search never reads the opponent's hand or a deck's order.
A simulation

1. *selects* down the tree by UCB1 over the options legal in its world, counting for each
   option how often it was available (an opponent's options differ between worlds);
2. *expands* one untried option;
3. *rolls out* with a cheap policy (seeded random players, as ``random``) for at most
   ``rollout_turns`` turns, and scores where it stopped with :func:`hkk._evaluation.evaluate`
   (a finished game is 1, -1 or 0);
4. *backs up* the score, each node taking it from the side of the player who chose it.

Decisions with one option are answered on the way and are not nodes; the agent spends nothing
on them at its own turn either.  ``budget`` is the number of simulations per decision; the
answer is the root option most visited (ties: the earlier option).  Deterministic for its seed.
"""

from __future__ import annotations

import math
import random
from typing import Any

from hkk._agents import RandomAgent
from hkk._decisions import Decision, Option
from hkk._evaluation import DEFAULT_WEIGHTS, Weights, position_value

__all__ = ["DEFAULT_BUDGET", "MctsAgent", "mcts_agent"]

#: Simulations per decision by default: at most about a second a decision on the base set on
#: one core (benchmarks/bench_agents.py measures it).
DEFAULT_BUDGET = 200


class Node:
    """Statistics of one option along a path: visits, total score (from the side of the player
    who chose it), how often it was available, and the options tried after it."""

    __slots__ = ("player", "visits", "total", "available", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[str, Node] = {}


class MctsAgent:
    """Information-set MCTS (see the module's docstring)."""

    def __init__(self, seed: int | None = None, budget: int = DEFAULT_BUDGET,
                 rollout_turns: int = 2, exploration: float = 0.7,
                 weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.rng = random.Random(seed)
        self.budget = max(1, int(budget))
        self.rollout_turns = max(0, int(rollout_turns))
        self.exploration = exploration
        self.weights = weights
        self.rollout_agent = RandomAgent(seed=self.rng.getrandbits(32))
        #: Decisions it searched (the one-option ones are not counted) and simulations run.
        self.decisions = 0
        self.simulations = 0

    def choose(self, view: Any, decision: Decision) -> Option:
        options = decision.options
        if len(options) == 1:
            return options[0]
        self.decisions += 1
        root = Node(decision.player)
        for _ in range(self.budget):
            self._simulate(view, root)
        self.simulations += self.budget
        labels = [o.label for o in options]
        best = max(range(len(options)), key=lambda i: (
            root.children[labels[i]].visits if labels[i] in root.children else -1, -i))
        return options[best]

    # -- one simulation ---------------------------------------------------------------------------

    def _simulate(self, view: Any, root: Node) -> None:
        world = view.determinize(self.rng)
        me = root.player
        node, path = root, []
        while not world.over:
            decision = world.decision
            if decision is None:
                break
            options = decision.options
            if len(options) == 1:
                world.answer(0)
                continue
            labels = [o.label for o in options]
            children = node.children
            untried = [i for i, label in enumerate(labels) if label not in children]
            for label in labels:
                child = children.get(label)
                if child is not None:
                    child.available += 1
            if untried:
                index = untried[self.rng.randrange(len(untried))]
                child = children[labels[index]] = Node(decision.player)
                child.available = 1
                world.answer(index)
                path.append(child)
                break
            index = self._select(children, labels)
            node = children[labels[index]]
            world.answer(index)
            path.append(node)
        score = self._rollout(world, me)
        for step in path:
            step.visits += 1
            step.total += score if step.player == me else -score

    def _select(self, children: dict[str, Node], labels: list[str]) -> int:
        """UCB1 with availability counts (ISMCTS); ties go to the earlier option."""
        c = self.exploration
        best, best_value = 0, -math.inf
        for i, label in enumerate(labels):
            n = children[label]
            value = n.total / n.visits + c * math.sqrt(math.log(n.available) / n.visits) \
                if n.visits else math.inf
            if value > best_value:
                best, best_value = i, value
        return best

    def _rollout(self, world: Any, me: int) -> float:
        if not world.over and self.rollout_turns:
            world.agents[0] = world.agents[1] = self.rollout_agent
            limit = world.turn + self.rollout_turns
            world.play(max_turns=limit)
            if world.over and world.winner is None and world.turn >= limit:
                return position_value(world.view(me), me, self.weights)  # cut off, not drawn
        if world.over:
            return 0.0 if world.winner is None else (1.0 if world.winner == me else -1.0)
        return position_value(world.view(me), me, self.weights)


def mcts_agent(seed: int | None = None, budget: int = DEFAULT_BUDGET, rollout_turns: int = 2,
               exploration: float = 0.7, **weights: float) -> MctsAgent:
    """Information-set MCTS over determinized worlds: budget simulations per decision, random
    rollouts cut off after rollout_turns turns by the evaluation (its weights by name)."""
    return MctsAgent(seed, budget, rollout_turns, exploration,
                     DEFAULT_WEIGHTS.with_options(**weights))
