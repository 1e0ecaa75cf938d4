"""The bare-loop floor: plain Python doing a game's per-turn work with no engine.

Every figure of ``run.py`` is also given as a ratio to these loops, measured in the same run,
so that a reader on any machine sees how far the engine is from what Python itself costs.  The
loops do what a turn of the engine does at its least: walk 11 steps, make 14 random choices
among a few options, record ~90 events as tuples (no objects, no keyword dicts), scan the board
for dead creatures after each step, and, on the synthetic board, resolve one ability per
creature (an effect appended, its target's Ép recomputed) and expire the effects at the end of
the turn.  Nothing here is a rule; it is a yardstick."""

from __future__ import annotations

import random

STEPS = 11  # steps of a turn (hkk.DEFAULT_TURN)
DECISIONS = 14  # decisions per turn in a base-set game (issue 11's profile)
EVENTS_PER_STEP = 8  # ~90 events per turn, with the step's own start and end
TURNS_PER_GAME = 34  # a base-set game's mean length


def floor_turn(rng: random.Random, board: list[list[int]], log: list[tuple]) -> None:
    """One turn of bare work over ``board`` (creatures as [base_hp, mod, damage])."""
    options = ("play a", "play b", "use c", "pass", "pass turn")
    for step in range(STEPS):
        log.append(("step_started", step))
        for _ in range(EVENTS_PER_STEP - 2):
            log.append(("event", step, 0))
        dead = [c for c in board if c[0] + c[1] - c[2] <= 0]
        log.append(("hp_check", step, dead))
        log.append(("step_ended", step))
    for _ in range(DECISIONS):
        log.append(("decision", options[rng.randrange(len(options))]))
    effects = []
    for creature in board:  # one end-of-turn ability per creature, then its Ép checked
        creature[1] += 1
        effects.append(creature)
        log.append(("resolving", id(creature)))
        if creature[0] + creature[1] - creature[2] <= 0:
            log.append(("died", id(creature)))
    for creature in effects:  # the effects end together
        creature[1] -= 1


def floor_game(seed: int) -> int:
    """A game's worth of bare turns on a small board; returns the events recorded."""
    rng = random.Random(seed)
    board = [[3, 0, 0] for _ in range(4)]
    log: list[tuple] = []
    for _ in range(TURNS_PER_GAME):
        floor_turn(rng, board, log)
    return len(log)
