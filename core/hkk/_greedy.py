"""The ``greedy`` agent: one-ply lookahead over the forward model (issue 21).

For a decision with more than one option it samples a world consistent with its view
(``view.determinize(rng)``: the opponent's hand and both decks' order resampled, nothing peeked
at), and for each option clones that world, answers, lets the game run on to its next decision
(or its end) and scores the result with :func:`hkk._evaluation.evaluate`.  Two things let it
see what a card does, not only what it costs now: its own follow-up decisions (the spell's
target, an optional effect) are looked through before scoring (:meth:`GreedyAgent.settled`),
and the score is blended (``ahead``) with the position at his next turn if both players then
play nothing more but fight (:func:`_after_fighting_turns`: a building acting at the end of the
turn or in the preparation phase shows there, and so does an instant that only matters in
combat).  Without them greedy never played a targeted spell, an instant or a delayed-effect
building of the base set: the position it scored was the target choice, before the spell
resolved, where the card is a pure cost; and while nobody attacked in the look ahead it never
played Jégpáncél (+2 Ép on a creature until the preparation phase).  The best score wins;
ties go to the earlier option.  ``samples`` worlds (default 1) are averaged.  A decision with
one option costs nothing.  Deterministic for its seed: its only randomness is its own RNG.
"""

from __future__ import annotations

import random
from typing import Any

from hkk._agent_registry import checked_option, decision_seconds, factory_options
from hkk._decisions import Decision, Option
from hkk._evaluation import DEFAULT_WEIGHTS, Weights, agent_weights, evaluate, without_search
from hkk._protocol import FairView, ForwardModel
from hkk._state import GUARD_POST

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
        #: The weight of the look ahead to his next turn (:func:`_after_fighting_turns`)
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
        self.decisions += 1
        totals = self.scores(view, decision)
        best = max(range(len(totals)), key=lambda i: (totals[i], -i))
        return decision.options[best]

    def scores(self, view: FairView, decision: Decision) -> list[float]:
        """Each option's score summed over ``samples`` determinized worlds (see the module's
        docstring); ``choose`` takes the best."""
        me = decision.player
        totals = [0.0] * len(decision.options)
        for _ in range(self.samples):
            world = view.determinize(self.rng)
            for index in range(len(totals)):
                game = world.clone()
                game.answer(index)
                game, now = self.settled(game, me, FOLLOW_UPS, decision.kind)
                if self.ahead and not game.over:
                    now = (1 - self.ahead) * now + \
                        self.ahead * _after_fighting_turns(game, me, self.weights)
                totals[index] += now
        return totals

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


#: Answers the look ahead gives at most (a turn of both players is some 20-30).
AHEAD_ANSWERS = 90


def _after_fighting_turns(game: ForwardModel, me: int, weights: Weights) -> float:
    """The value for ``me`` at the start of his next turn's first action if, from ``game``
    (a clone: it is played on), both players play nothing more but fight as :func:`_fight`
    says.  What the rules do by themselves still happens - a building's effect at the end of
    the turn or in the preparation phase, an effect wearing off, the draws - so a card that
    acts later is judged by what it will have done; and a card that matters only in combat
    (Jégpáncél's +2 Ép on a blocker until the preparation phase) by the fight the opponent's
    creatures offer.  When nobody attacked in the look ahead, a defensive instant was a pure
    cost and greedy never played Jégpáncél."""
    start = game.turn
    for _ in range(AHEAD_ANSWERS):
        decision = game.decision
        if game.over or decision is None:
            break
        view = game.view(me)
        if decision.kind == "action" and decision.player == me and game.turn > start \
                and view.active == me:
            break
        game.answer(_fight(view, decision))
    if game.over:
        return _final(game, me)
    return evaluate(game.view(me), me, weights)


def _fight(view: FairView, decision: Decision) -> int:
    """The look ahead's answer to ``decision``: an action passes the step, but the active
    player attacks (``use attack``) with each creature that no ready blocker survives (Ép
    above its damage); the defender blocks an attacker with the first creature that survives
    every attacker, or with the first at all when the attackers' damage would otherwise kill
    him (D-combat); any other decision takes its last option (hold, no block, decline...)."""
    labels = [o.label for o in decision.options]
    if decision.kind == "action":
        for wanted in ("use attack", "pass", "pass turn"):
            if wanted in labels:
                return labels.index(wanted)
        return 0
    if decision.kind == "attack":  # "attack with <creature>", "hold"
        damage = view.damage_value(_permanent(view, decision.options[0]))
        return 1 if any(view.hp(c) > damage for c in _ready(view, 1 - decision.player)) else 0
    if decision.kind == "block":  # "block with <creature>"..., "no block"
        attackers = [view.damage_value(c) for c in _ready(view, 1 - decision.player)]
        blockers = [i for i, o in enumerate(decision.options) if "uid" in o.data]
        for i in blockers:
            if view.hp(_permanent(view, decision.options[i])) > max(attackers, default=0):
                return i
        if blockers and sum(attackers) >= view.players[decision.player].hp:
            return blockers[0]
    return len(decision.options) - 1


def _permanent(view: FairView, option: Option) -> Any:
    """The permanent an option names (its label's uid: the same on any core)."""
    return view.permanents[int(option.data["uid"])]


def _ready(view: FairView, player: int) -> list[Any]:
    """``player``'s creatures that may attack or block now: active, in the guard post."""
    return [c for c in view.creatures(player) if c.active and c.zone == GUARD_POST]


def _final(game: ForwardModel, player: int) -> float:
    return 0.0 if game.winner is None else (1.0 if game.winner == player else -1.0)


def greedy_agent(seed: int | None = None, samples: int = 1, seconds: float | None = None,
                 ahead: float = 0.5, **weights: float) -> GreedyAgent:
    """One-ply lookahead: for each option, clone a determinized world, answer and score the
    position (hkk._evaluation) once its own follow-ups are answered, blended by ahead (0-1) with
    the position at its next turn if both only fight; samples worlds per decision; any evaluation
    weight by name
    (hp=, creature=, hand=, threat=...); seconds: the CPU time one decision may take before the
    game is stopped (default: the game's limit)."""
    agent = GreedyAgent(seed, agent_weights("greedy", factory_options(greedy_agent), weights),
                        checked_option("greedy", "samples", samples, whole=True, low=1),
                        checked_option("greedy", "ahead", ahead, low=0, high=1))
    agent.decision_seconds = decision_seconds("greedy", seconds)
    return agent
