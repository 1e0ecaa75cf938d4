"""The ``mcts`` agent: information-set Monte Carlo tree search over the forward model.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): the tree is over the deciding
player's information set, and every simulation samples its own world consistent with his view
(``view.determinize(rng)``), so the search never reads the opponent's hand or a deck's order.
A simulation

1. *selects* down the tree by UCB1 over the options legal in its world, counting for each
   option how often it was available (an opponent's options differ between worlds);
2. *expands* one untried option;
3. *rolls out* with a cheap policy (seeded random players, as ``random``) to the end of the
   searcher's own turn (:func:`rollout_limit`), and scores where it stopped with
   :func:`hkk._evaluation.evaluate` (a finished game is 1, -1 or 0);
4. *backs up* the score, each node taking it from the side of the player who chose it.

Decisions with one option are answered on the way and are not nodes; the agent spends nothing
on them at its own turn either.  ``budget`` is the number of simulations per decision; the
answer is the root option most visited (ties: the earlier option).  Deterministic for its seed.
"""

from __future__ import annotations

import math
import random
import weakref
from collections.abc import Sequence

from hkk._agent_registry import checked_option, decision_seconds, factory_options
from hkk._decisions import Decision, Option
from hkk._errors import HkkError
from hkk._evaluation import (
    DEFAULT_WEIGHTS,
    Weights,
    agent_weights,
    position_value,
    without_search,
)
from hkk._game import Game
from hkk._player_view import PlayerView
from hkk._protocol import FairView, ForwardModel

__all__ = ["DEFAULT_BUDGET", "ROLLOUTS", "MctsAgent", "mcts_agent"]

#: A win (a loss) scores 1 (-1) less this for each turn it took from the decision.
WIN_DISCOUNT = 0.02

#: ... and this less for each decision it took.
DECISION_DISCOUNT = 0.0005

#: A position where a rollout stopped scores its value times this: never as much as a win.
POSITION_SCALE = 0.9

#: Simulations per decision by default: at most about a second a decision on the base set on
#: one core (benchmarks/bench_agents.py measures it).
DEFAULT_BUDGET = 200

#: The rollout policies by name (option ``rollout``): ``random`` (:class:`RolloutPolicy`) and
#: ``fight`` (random, but attacking and blocking by rules of thumb; the native core's only:
#: hkk-native's ``search::fighting_choice``, measured in docs/NATIVE.md).  None, the default:
#: the core's own - ``fight`` on the native core, ``random`` on the Python engine.
ROLLOUTS = ("random", "fight")

#: The Python agent's ``rollout_turns`` by default (the native agent's is its own: 4).
ROLLOUT_TURNS = 2


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


class RolloutPolicy:
    """The cheap policy of the rollouts: uniformly random among the options, considering a pass
    only with chance ``pass_bias`` when there is something else to do (as ``random``); counts
    the decisions it answers."""

    def __init__(self, rng: random.Random, pass_bias: float = 0.25) -> None:
        self.rng = rng
        self.pass_bias = pass_bias
        self.decisions = 0

    def choose(self, view: FairView, decision: Decision) -> Option:
        self.decisions += 1
        options: Sequence[Option] = decision.options
        rng = self.rng
        if decision.kind == "action" and len(options) > 1 and rng.random() >= self.pass_bias:
            others = [o for o in options if not o.label.startswith("pass")]
            options = others or options
        return options[rng.randrange(len(options))]


class MctsAgent:
    """Information-set MCTS (see the module's docstring)."""

    #: It plays the game forward from its view (issue 21): it copies the game at its own
    #: decisions (``view.determinize``), which the turn machine allows at any decision.
    uses_forward_model = True

    def __init__(self, seed: int | None = None, budget: int = DEFAULT_BUDGET,
                 rollout_turns: int | None = None, exploration: float = 0.7,
                 weights: Weights = DEFAULT_WEIGHTS, rollout: str | None = None) -> None:
        self.rng = random.Random(seed)
        self.rollout = rollout
        self.budget = max(1, int(budget))
        #: None: the core's own (:data:`ROLLOUT_TURNS` here, 4 natively: docs/NATIVE.md)
        self.rollout_turns = None if rollout_turns is None else max(0, int(rollout_turns))
        self.exploration = exploration
        self.weights = weights
        self.rollout_policy = RolloutPolicy(random.Random(self.rng.getrandbits(32)))
        #: CPU seconds one decision may take before the game's guard stops the game
        #: (hkk._limits; None: the game's limit).
        self.decision_seconds: float | None = None
        #: Decisions it searched (the one-option ones are not counted) and simulations run.
        self.decisions = 0
        self.simulations = 0

    def choose(self, view: FairView, decision: Decision) -> Option:
        trivial = without_search(decision)
        if trivial is not None:
            return trivial
        if self.rollout not in (None, "random"):
            raise HkkError(f"agent 'mcts': option rollout={self.rollout!r} is the native core's "
                           "only (hkk-native); the Python agent's rollouts are random "
                           "(rollout=random)")
        options = decision.options
        self.decisions += 1
        root = Node(decision.player)
        for _ in range(self.budget):
            self._simulate(view, root)
        labels = [o.label for o in options]
        def rank(i: int) -> tuple[int, float, int]:  # most visited, then best scored, earlier
            child = root.children.get(labels[i])
            if child is None or not child.visits:
                return (-1, 0.0, -i)
            return (child.visits, child.total / child.visits, -i)
        return options[max(range(len(options)), key=rank)]

    # -- one simulation ---------------------------------------------------------------------------

    def _simulate(self, view: FairView, root: Node) -> None:
        self.simulations += 1
        world = view.determinize(self.rng)
        me, start = root.player, world.turn
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
        score = self._rollout(world, me, start, len(path))
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

    def _rollout(self, world: ForwardModel, me: int, start: int, decisions: int) -> float:
        """The score of the world for ``me`` after a rollout: a win sooner beats a win later
        (:data:`WIN_DISCOUNT` a turn, :data:`DECISION_DISCOUNT` a decision), and any win beats
        a position however good (a position's value is scaled by :data:`POSITION_SCALE`)."""
        cut_off = False
        policy = self.rollout_policy
        before = policy.decisions
        turns = ROLLOUT_TURNS if self.rollout_turns is None else self.rollout_turns
        if not world.over and turns:
            world.agents[0] = world.agents[1] = policy
            limit = rollout_limit(world.turn, world.active == me, turns)
            world.play(max_turns=limit)
            cut_off = world.over and world.winner is None and world.turn >= limit
        if world.over and not cut_off:
            if world.winner is None:
                return 0.0
            decisions += policy.decisions - before
            won: float = 1.0 - WIN_DISCOUNT * max(0, int(world.turn) - start) - \
                DECISION_DISCOUNT * min(decisions, 100)
            return won if world.winner == me else -won
        return POSITION_SCALE * position_value(_passing_view(world, me), me, self.weights)


def rollout_limit(turn: int, mine: bool, rollout_turns: int) -> int:
    """The last turn a rollout from turn ``turn`` (``mine``: the searcher's) plays out, for a
    positive ``rollout_turns``: always one of the searcher's own turns, his first to end for
    ``rollout_turns`` 1 or 2, his second for 3 or 4, and so on.  The evaluation does not see who
    moves next, so a rollout stopping after the opponent's random turn scores him better off
    (cut after ``rollout_turns`` turns wherever that fell, at 200 visits against greedy: 4 %
    with 1, 13 % with 3; docs/NATIVE.md).  The native mcts's ``search::rollout_limit``."""
    return turn + (not mine) + 2 * ((rollout_turns + 1) // 2 - 1)


def _passing_view(world: ForwardModel, player: int) -> FairView:
    """``player``'s view of a throw-away world, not kept on it: ``world.view`` keeps its view
    on the game (a reference cycle: every simulated world would live on until the cyclic
    collector ran).  A hkk game is read through a view tied to it weakly, as a seated agent's
    (hkk._deciding.seat_view); another forward model through its own ``view``."""
    if type(world) is Game:
        return PlayerView(weakref.proxy(world), player)
    return world.view(player)


def mcts_agent(seed: int | None = None, budget: int = DEFAULT_BUDGET,
               rollout_turns: int | None = None,
               exploration: float = 0.7, seconds: float | None = None,
               rollout: str | None = None, **weights: float) -> MctsAgent:
    """Information-set MCTS over determinized worlds: budget simulations per decision, random
    rollouts cut off by the evaluation (its weights by name) at the end of the searcher's own
    turn, his first for rollout_turns 1-2, his second for 3-4 and so on (default: the core's
    own, 2 here, 4 natively); seconds: the CPU time one decision may take before the game is
    stopped (default: the game's limit); rollout: the rollouts' policy, random or fight
    (native only; default: the core's own)."""
    if rollout is not None and rollout not in ROLLOUTS:
        raise HkkError(f"agent 'mcts': option rollout={rollout!r} must be one of "
                       f"{', '.join(ROLLOUTS)}")
    agent = MctsAgent(seed, checked_option("mcts", "budget", budget, whole=True, low=1),
                      None if rollout_turns is None else
                      checked_option("mcts", "rollout_turns", rollout_turns, whole=True, low=0),
                      checked_option("mcts", "exploration", exploration, low=0),
                      agent_weights("mcts", factory_options(mcts_agent), weights), rollout)
    agent.decision_seconds = decision_seconds("mcts", seconds)
    return agent
