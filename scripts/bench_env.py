"""Benchmark belote_v0: AEC steps per second with random legal actions, one process.

    python scripts/bench_env.py [--steps 50000] [--seed 0]

Prints steps per second for the raw AEC loop (``raw_env``, observation built at every
``last()``) and the wrapped ``env()``, and the engine's own decisions per second for
comparison.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from belote_env import GameState, Rules, belote_v0


def aec_steps_per_second(env, steps: int, seed: int) -> float:
    rng = random.Random(seed)
    env.reset(seed=seed)
    n = 0
    t0 = time.perf_counter()
    while n < steps:
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        env.reset()
    return n / (time.perf_counter() - t0)


def engine_decisions_per_second(steps: int, seed: int) -> float:
    rng = random.Random(seed)
    rules = Rules(target=None)
    n = 0
    t0 = time.perf_counter()
    while n < steps:
        st = GameState(rules, rng=rng, dealer=rng.randrange(4))
        while not st.is_deal_over:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            n += 1
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    eng = engine_decisions_per_second(args.steps * 4, args.seed)
    raw = aec_steps_per_second(belote_v0.raw_env(), args.steps, args.seed)
    wrapped = aec_steps_per_second(belote_v0.env(), args.steps, args.seed)
    print(f"engine alone          {eng:10.0f} decisions/s")
    print(f"belote_v0 raw_env()   {raw:10.0f} steps/s  ({100 * raw / eng:.0f}% of the engine)")
    print(f"belote_v0 env()       {wrapped:10.0f} steps/s  ({100 * wrapped / eng:.0f}% of the engine)")


if __name__ == "__main__":
    main()
