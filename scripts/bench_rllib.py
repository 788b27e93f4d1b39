"""Env steps per second of the RLlib setup with 1, 2, ... env runners (``pip install -e ".[rllib]"``).

    python scripts/bench_rllib.py --config configs/rllib/quick.yaml --runners 1 2 --steps 8000

For each runner count: a local Ray with ``--cpus`` CPUs, the config's algorithm with that
many EnvRunners, one warm-up sample, then

* sampling: every runner samples ``steps / runners`` env steps at once (policy inference
  with the config's network included), timed by the driver;
* training: ``--iterations`` calls of ``Algorithm.train()`` (sampling + PPO updates),
  env steps sampled / wall time.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.rllib.config import load_rllib_config  # noqa: E402


def bench(config: str, runners: int, steps: int, iterations: int, cpus: int) -> tuple[float, float]:
    """``(sampling env steps/s, training env steps/s)`` with ``runners`` EnvRunners."""
    import ray
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    from training.rllib.train import build_algorithm_config

    import torch

    cfg = load_rllib_config(config, {"num_env_runners": runners})
    torch.set_num_threads(cfg.torch_threads)
    ray.init(num_cpus=cpus, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    try:
        algo = build_algorithm_config(cfg).build_algo()
        per = max(1, steps // runners)

        def sample(n):
            return algo.env_runner_group.foreach_env_runner(
                lambda er: sum(len(e) for e in er.sample(num_timesteps=n, random_actions=False)),
                local_env_runner=False)

        sample(200)  # warm-up
        t = time.perf_counter()
        done = sum(sample(per))
        sampling = done / (time.perf_counter() - t)
        algo.train()  # warm-up iteration
        before = algo.metrics.peek((ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME), default=0)
        t = time.perf_counter()
        for _ in range(iterations):
            result = algo.train()
        after = result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME]
        training = (after - before) / (time.perf_counter() - t)
        algo.stop()
    finally:
        ray.shutdown()
    return sampling, training


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default="configs/rllib/quick.yaml")
    p.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    p.add_argument("--steps", type=int, default=8000, help="env steps sampled in the timed sampling call")
    p.add_argument("--iterations", type=int, default=3, help="timed training iterations")
    p.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray")
    args = p.parse_args()
    print("| env runners | sampling env steps/s | training env steps/s |\n|---|---|---|")
    for n in args.runners:
        s, t = bench(args.config, n, args.steps, args.iterations, args.cpus)
        print(f"| {n} | {s:,.0f} | {t:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
