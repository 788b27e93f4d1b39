"""Benchmark the environments: steps per second with random legal actions, one process.

    python scripts/bench_env.py [--steps 50000] [--seed 0]

Prints, measured in the same run: the engine's own decisions per second; steps per second
of the raw ``belote_v0`` AEC loop (``raw_env``, the default observation built at every
``last()``), of the same loop with a constant observation (the floor set by the
engine, the action mask and PettingZoo's AEC bookkeeping), of the wrapped ``env()``, of the single-agent Gymnasium env (the other seats
play ``random``), and of PettingZoo's ``texas_holdem_v4`` AEC loop (needs ``rlcard``:
``pip install -e ".[bench]"``).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from belote_env import GameState, Rules, belote_v0
from belote_env.gym_env import BeloteGymEnv
from belote_env.table import NUM_SEATS


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


def floor_env():
    """A raw env whose ``observe`` returns one constant observation with the real mask."""
    from belote_env.observation import OBS_SIZE, action_mask

    e = belote_v0.raw_env()
    const = np.zeros(OBS_SIZE, dtype=np.float32)

    def observe(agent):
        return {"observation": const, "action_mask": action_mask(e.game.legal_actions())}

    e.observe = observe
    return e


def gym_steps_per_second(steps: int, seed: int) -> float:
    rng = random.Random(seed)
    env = BeloteGymEnv()  # random legal opponents
    env.reset(seed=seed)
    t0 = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        _, _, done, _, _ = env.step(int(legal[rng.randrange(len(legal))]))
        if done:
            env.reset()
    return steps / (time.perf_counter() - t0)


def engine_decisions_per_second(steps: int, seed: int) -> float:
    rng = random.Random(seed)
    rules = Rules()
    n = 0
    t0 = time.perf_counter()
    while n < steps:
        st = GameState(rules, rng=rng, dealer=rng.randrange(NUM_SEATS), single_deal=True)
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
    floor = aec_steps_per_second(floor_env(), args.steps, args.seed)
    wrapped = aec_steps_per_second(belote_v0.env(), args.steps, args.seed)
    gym = gym_steps_per_second(args.steps // 2, args.seed)
    print(f"engine alone                {eng:10.0f} decisions/s")
    print(f"belote_v0 raw_env() AEC     {raw:10.0f} steps/s  ({100 * raw / eng:.0f}% of the engine)")
    print(f"  same loop, constant obs   {floor:10.0f} steps/s  ({100 * floor / eng:.0f}% of the engine: "
          "engine + mask + PettingZoo's AEC loop)")
    print(f"belote_v0 env() AEC         {wrapped:10.0f} steps/s  ({100 * wrapped / eng:.0f}% of the engine)")
    print(f"BeloteGymEnv (vs random)    {gym:10.0f} steps/s  (learner steps; 3 policy moves each)")
    try:
        from pettingzoo.classic import texas_holdem_v4

        holdem = aec_steps_per_second(texas_holdem_v4.env(), args.steps, args.seed)
        print(f"texas_holdem_v4 env() AEC   {holdem:10.0f} steps/s  (belote raw_env is {raw / holdem:.1f}x)")
    except ImportError as e:
        print(f"texas_holdem_v4: not measured ({e}; pip install -e '.[bench]')")


if __name__ == "__main__":
    main()
