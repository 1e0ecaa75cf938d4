"""What the learning environment costs (plugins/hkk-env, docs/LEARNING.md): agent steps/s of
the batch (``hkk_env.HkkBatch``, N games a call, random legal actions) on one core - on the
native core in one call a step (``core="native"``) and as the Python loop over the engine's
games (``core="python"``) -, beside the bare protocol loop the Python batch is built on
(``decision`` / ``answer`` with the same random answers, no observation) and the AEC
environment (``HkkEnv``, one step a call).

Run with ``python benchmarks/bench_env.py``; ``--steps 2000`` for a quick run.  A step is one
decision answered, its observation and mask written.  The issue's target, 50,000 agent
steps/s on one core, is the native batch's.  Figures only: nothing here asserts anything
about them.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hkk import Engine
from hkk_env import HkkBatch, HkkEnv
from hkk_env.aec import DEFAULT_DECKS


def bare(engine: Engine, steps: int) -> float:
    """Steps/s of the protocol alone: random answers, nothing encoded."""
    rng = np.random.default_rng(0)
    done, seed = 0, 0
    start = time.process_time()
    while done < steps:
        game = engine.start(list(DEFAULT_DECKS), [None, None], seed=seed, log_level="outcome")
        seed += 1
        while done < steps and (decision := game.decision) is not None:
            game.answer(int(rng.integers(len(decision.options))))
            done += 1
    return done / (time.process_time() - start)


def batch(engine: Engine, n: int, steps: int, core: str = "python") -> tuple[float, float]:
    """Steps/s of the batch of ``n`` games (the actions drawn outside the timing), and the
    share of its time in encoding the observations (the Python loop's; 0 for the native)."""
    games = HkkBatch(n, DEFAULT_DECKS, seed=0, engine=engine, core=core)
    games.reset()
    rng = np.random.default_rng(0)
    calls = max(1, steps // n)
    timed = 0.0
    for _ in range(calls):
        actions = games.sample(rng)
        start = time.process_time()
        games.step(actions)
        timed += time.process_time() - start
    if core == "native":
        return calls * n / timed, 0.0
    # the encoding alone, on the positions the batch stands at now
    start = time.process_time()
    for _ in range(calls):
        for row, table in enumerate(games.tables):
            table.observe(int(games.player[row]), games.obs[row])
    encoding = time.process_time() - start
    return calls * n / timed, encoding / timed


def aec(engine: Engine, steps: int) -> float:
    """Steps/s of the AEC environment, ``env.last()`` and ``env.step`` a step."""
    env = HkkEnv(DEFAULT_DECKS, engine=engine)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = 0
    start = time.process_time()
    while done < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done += 1
    return done / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000, help="agent steps a figure")
    parser.add_argument("--n", type=int, default=64, help="games in the batch")
    args = parser.parse_args()
    engine = Engine.installed()
    print(f"hkk-env on the {engine.core_name} core, {' vs '.join(DEFAULT_DECKS)}, one process "
          f"(CPU time), {args.steps} steps a figure")
    print(f"  protocol alone (decision/answer, nothing encoded)  {bare(engine, args.steps):>9,.0f} "
          "steps/s")
    rate, share = batch(engine, args.n, args.steps)
    print(f"  HkkBatch, n={args.n:<4} python loop (obs + mask a step) {rate:>9,.0f} steps/s "
          f"(encoding ~{share:.0%} of it)")
    try:
        for n in (args.n, 4 * args.n):
            rate, _ = batch(engine, n, max(args.steps, 4 * n), core="native")
            print(f"  HkkBatch, n={n:<4} native core, one call a step   {rate:>9,.0f} "
                  "steps/s")
    except ValueError as exc:  # not installed, or it refuses the decks (hkk_native.Refused)
        print(f"  HkkBatch on the native core: not measured ({exc})")
    print(f"  HkkEnv (AEC, one step a call)                      {aec(engine, args.steps):>9,.0f} "
          "steps/s")
    print("  target: 50,000 steps/s on one core, the native batch's")


if __name__ == "__main__":
    main()
