"""The ``greedy`` agent: one-ply lookahead over the forward model (issue 21).

For a decision with more than one option it samples a world consistent with its view
(``view.determinize(rng)``: the opponent's hand and both decks' order resampled, nothing peeked
at), and for each option clones that world, answers, lets the game run on to its next decision
(or its end) and scores the result with :func:`hkk._evaluation.evaluate`.  Two things let it
see what a card does, not only what it costs now: its own follow-up decisions (the spell's
target, an optional effect) are looked through before scoring (:meth:`GreedyAgent.settled`),
and the score is blended (``ahead``) with the position at his next turn if both players then
do nothing (:func:`_after_quiet_turns`: a building acting at the end of the turn or in the
preparation phase shows there).  Without them greedy never played a targeted spell, an instant
or a delayed-effect building of the base set: the position it scored was the target choice,
before the spell resolved, where the card is a pure cost.  The best score wins;
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
                 samples: int = 1, ahead: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.weights = weights
        self.samples = max(1, int(samples))
        #: The weight of the quiet look ahead to his next turn (:func:`_after_quiet_turns`)
        #: beside the position once his follow-ups are answered (0: that position alone).
        self.ahead = ahead
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
                game, now = self.settled(game, me, FOLLOW_UPS, decision.kind)
                if self.ahead and not game.over:
                    now = (1 - self.ahead) * now + \
                        self.ahead * _after_quiet_turns(game, me, self.weights)
                totals[index] += now
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        return options[best]

    def settled(self, game: ForwardModel, me: int, depth: int,
                kind: str) -> tuple[ForwardModel, float]:
        """``game`` once ``me``'s own follow-up decisions are answered, and its value for him:
        while the game asks ``me`` something other than his next action (the target of the
        spell he plays, an optional effect, the order of his triggers...), each option is
        tried in a clone and the best taken, ``depth`` such decisions deep.  So a card is
        judged by what it does once it resolves, not by what it costs before its target is
        chosen.  A decision of the ``kind`` being decided (the next blocker after a blocker) is
        not a follow-up but the next such choice, decided when it comes: branching over chains
        of them cost seconds a decision."""
        while not game.over:
            decision = game.decision
            if decision is None or decision.player != me or decision.kind in ("action", kind) \
                    or depth <= 0:
                break
            if len(decision.options) == 1:
                game.answer(0)
                continue
            tried = []
            for index in range(len(decision.options)):
                copy = game.clone()
                copy.answer(index)
                tried.append(self.settled(copy, me, depth - 1, kind))
            return max(tried, key=lambda t: t[1])  # ties: the earlier option
        if game.over:
            return game, _final(game, me)
        return game, evaluate(game.view(me), me, self.weights)


#: How many of his own follow-up decisions greedy looks through after an option (a spell's
#: targets, then an optional trigger...): each multiplies the work by its options.
FOLLOW_UPS = 3


#: Answers the quiet look ahead gives at most (a turn of both players is some 10-20).
QUIET_ANSWERS = 60


def _after_quiet_turns(game: ForwardModel, me: int, weights: Weights) -> float:
    """The value for ``me`` at the start of his next turn's first action if, from ``game``
    (a clone: it is played on), both players do nothing more of their own: every action
    decision passes the turn (or the step), every other decision takes its last option (no
    block, decline...).  What
    the rules do by themselves still happens - a building's effect at the end of the turn or
    in the preparation phase, an effect wearing off, the draws - so a card that acts later is
    judged by what it will have done."""
    start = game.turn
    for _ in range(QUIET_ANSWERS):
        decision = game.decision
        if game.over or decision is None:
            break
        if decision.kind == "action":
            if decision.player == me and game.turn > start and game.view(me).active == me:
                break
            labels = [o.label for o in decision.options]
            index = labels.index("pass turn") if "pass turn" in labels else \
                labels.index("pass") if "pass" in labels else 0
        else:
            index = len(decision.options) - 1
        game.answer(index)
    if game.over:
        return _final(game, me)
    return evaluate(game.view(me), me, weights)


def _final(game: ForwardModel, player: int) -> float:
    return 0.0 if game.winner is None else (1.0 if game.winner == player else -1.0)


def greedy_agent(seed: int | None = None, samples: int = 1, seconds: float | None = None,
                 ahead: float = 0.5, **weights: float) -> GreedyAgent:
    """One-ply lookahead: for each option, clone a determinized world, answer and score the
    position (hkk._evaluation) once its own follow-ups are answered, blended by ahead (0-1) with
    the position at its next turn if nobody acts; samples worlds per decision; any evaluation
    weight by name
    (hp=, creature=, hand=, threat=...); seconds: the CPU time one decision may take before the
    game is stopped (default: the game's limit)."""
    agent = GreedyAgent(seed, agent_weights("greedy", factory_options(greedy_agent), weights),
                        checked_option("greedy", "samples", samples, whole=True, low=1),
                        checked_option("greedy", "ahead", ahead, low=0, high=1))
    agent.decision_seconds = decision_seconds("greedy", seconds)
    return agent
