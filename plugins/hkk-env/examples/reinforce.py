"""A linear softmax policy trained by REINFORCE against a random player, then measured against
it (docs/LEARNING.md).  numpy only; about a minute on one core of the Python engine.

The policy: logits = W @ x + b over the fixed action space, the illegal actions masked out;
x is the head of the observation vector (flags, the decision's kind, the step, both players'
numbers and the own hand: ``FEATURES``), small enough that a game's gradient is cheap.
Training: N games at once (``hkk_env.HkkBatch``), the learner on seat ``row % 2``
of row ``row`` (so on each seat and deck equally), the other seat random; at the end of a game
every learner step of it gets the game's reward (+1/-1) less a running baseline, and the
gradient of its log-probability is added; the weights move every ``--update`` games (Adam).

The measure: the games of seeds 0 .. M-1 (none of them trained on), the learner's seat by row
again, its actions sampled from the policy as in training (``--greedy``: its most likely
action); the win rate with a 95 % Wilson interval,
beside a random player's on the same seeds.  ``python plugins/hkk-env/examples/reinforce.py``
(``--train 300 --games 300`` are the defaults).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import numpy.typing as npt

from hkk import Engine
from hkk_env import HkkBatch

Array = npt.NDArray[np.float32]
#: the observation's sections the policy reads (hkk_env.Layout.sections(), in order)
FEATURES = ("flags", "kind", "step", "me", "opponent", "hand")


class Policy:
    def __init__(self, n_obs: int, n_actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((n_actions, n_obs), np.float32)
        self.b = np.zeros(n_actions, np.float32)
        self.rng = rng
        self.moments = [np.zeros_like(self.w), np.zeros_like(self.w),
                        np.zeros_like(self.b), np.zeros_like(self.b)]
        self.t = 0

    def probabilities(self, obs: Array, mask: npt.NDArray[np.int8]) -> Array:
        logits = obs[:, :self.w.shape[1]] @ self.w.T + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return np.asarray(p / p.sum(axis=1, keepdims=True), np.float32)

    def act(self, obs: Array, mask: npt.NDArray[np.int8], greedy: bool) -> npt.NDArray[np.int64]:
        p = self.probabilities(obs, mask)
        if greedy:
            return np.asarray(p.argmax(axis=1), np.int64)
        u = self.rng.random((len(p), 1))
        return np.asarray(np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1),
                          np.int64)

    def step(self, gw: Array, gb: Array, lr: float) -> None:
        """One Adam step up the gradient."""
        self.t += 1
        for i, (param, grad) in enumerate(((self.w, gw), (self.b, gb))):
            m, v = self.moments[2 * i], self.moments[2 * i + 1]
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            m_hat = m / (1 - 0.9 ** self.t)
            v_hat = v / (1 - 0.999 ** self.t)
            param += lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def random_actions(mask: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    u = rng.random((len(mask), 1)) * mask.sum(axis=1, keepdims=True)
    return np.asarray(np.minimum((mask.cumsum(axis=1) <= u).sum(axis=1), mask.shape[1] - 1),
                      np.int64)


def train(engine: Engine, games: int, n: int, update: int, lr: float, seed: int) -> Policy:
    batch = HkkBatch(n, seed=1_000_000 + seed, engine=engine)
    obs, mask, player = batch.reset()
    rng = np.random.default_rng(seed)
    sections = batch.layout.sections()
    assert list(sections)[:len(FEATURES)] == list(FEATURES)
    policy = Policy(sum(sections[name] for name in FEATURES), mask.shape[1], rng)
    seat = np.arange(n) % 2
    episodes: list[list[tuple[Array, npt.NDArray[np.int8], int]]] = [[] for _ in range(n)]
    gw, gb = np.zeros_like(policy.w), np.zeros_like(policy.b)
    baseline, finished, pending = 0.0, 0, 0
    while finished < games:
        mine = player == seat
        actions = random_actions(mask, rng)
        if mine.any():
            actions[mine] = policy.act(obs[mine], mask[mine], greedy=False)
            for row in np.flatnonzero(mine):
                episodes[row].append((obs[row, :policy.w.shape[1]].copy(), mask[row].copy(),
                                      int(actions[row])))
        obs, mask, player, reward, done = batch.step(actions)
        for row in np.flatnonzero(done):
            ret = float(reward[row, seat[row]])
            advantage = ret - baseline
            baseline += 0.05 * (ret - baseline)
            steps = episodes[row]
            episodes[row] = []
            finished += 1
            pending += 1
            if not steps:
                continue
            x = np.stack([s[0] for s in steps])
            m = np.stack([s[1] for s in steps])
            a = np.array([s[2] for s in steps])
            p = policy.probabilities(x, m)
            p[np.arange(len(a)), a] -= 1.0  # d log p(a) / d logits = onehot(a) - p, negated
            g = -p * (advantage / len(a))
            gw += g.T @ x
            gb += g.sum(axis=0)
            if pending >= update:
                policy.step(np.asarray(gw / pending, np.float32),
                            np.asarray(gb / pending, np.float32), lr)
                gw[:] = 0.0
                gb[:] = 0.0
                pending = 0
    return policy


def measure(engine: Engine, policy: Policy | None, games: int, n: int,
            greedy: bool = False) -> tuple[int, int]:
    """Wins and games of the learner (None: a random player) over the seeds 0 .. games-1,
    sampling its actions from the policy (``greedy``: its most likely action)."""
    batch = HkkBatch(n, seed=0, engine=engine)
    obs, mask, player = batch.reset()
    rng = np.random.default_rng(12345)
    seat = np.arange(n) % 2
    wins = played = 0
    while played < games:
        actions = random_actions(mask, rng)
        mine = player == seat
        if policy is not None and mine.any():
            actions[mine] = policy.act(obs[mine], mask[mine], greedy=greedy)
        before = batch.seeds.copy()
        obs, mask, player, reward, done = batch.step(actions)
        for row in np.flatnonzero(done):
            if before[row] < games:  # only the seeds 0 .. games-1: no bias to short games
                played += 1
                wins += int(reward[row, seat[row]] > 0)
    return wins, played


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=int, default=300, help="games to train on")
    parser.add_argument("--games", type=int, default=300, help="games to measure on")
    parser.add_argument("--n", type=int, default=32, help="games stepped at once")
    parser.add_argument("--update", type=int, default=4, help="games a weight update")
    parser.add_argument("--lr", type=float, default=0.02, help="Adam's step size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--greedy", action="store_true",
                        help="measure the policy's most likely action (default: sampled)")
    args = parser.parse_args()
    engine = Engine.installed()
    start = time.process_time()
    policy = train(engine, args.train, args.n, args.update, args.lr, args.seed)
    trained = time.process_time() - start
    print(f"trained on {args.train} games in {trained:.0f} s CPU "
          f"({engine.core_name} core, alap:tuz vs alap:viz, each seat equally)")
    for name, player in (("random", None), ("linear REINFORCE", policy)):
        wins, played = measure(engine, player, args.games, args.n, args.greedy)
        low, high = wilson(wins, played)
        print(f"  {name:17} vs random: {wins}/{played} = {wins / played:.1%} "
              f"(95 % Wilson interval {low:.1%} .. {high:.1%})")


if __name__ == "__main__":
    main()
