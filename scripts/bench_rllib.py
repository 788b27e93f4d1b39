"""Env steps per second of the RLlib setup with 1, 2, ... env runners (``pip install -e ".[rllib]"``).

    python scripts/bench_rllib.py --config configs/rllib/quick.yaml --runners 1 2 --steps 8000 --iterations 5

For each runner count: a local Ray with ``--cpus`` CPUs, the config's algorithm with that
many EnvRunners, one warm-up sample, then

* sampling: every runner samples ``steps / runners`` env steps at once (policy inference
  with the config's network included), timed by the driver; the best of ``--repeat`` runs;
* training: ``--iterations`` calls of ``Algorithm.train()`` (sampling + PPO updates), env
  steps sampled / wall time of each; the best iteration.

Best-of figures: on a machine shared with other jobs, the least disturbed run is the
closest to the machine's own speed.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.rllib.config import load_rllib_config  # noqa: E402


def bench(config: str, runners: int, steps: int, iterations: int, cpus: int, repeat: int) -> tuple[float, float]:
    """``(sampling env steps/s, training env steps/s)`` with ``runners`` EnvRunners."""
    import ray
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    from training.rllib.train import build_algorithm_config

    import torch

    cfg = load_rllib_config(config, {"num_env_runners": runners})
    torch.set_num_threads(cfg.torch_threads)
    ray.init(address="local", num_cpus=cpus, include_dashboard=False, logging_level=logging.WARNING,
             log_to_driver=False)
    try:
        algo = build_algorithm_config(cfg).build_algo()
        per = max(1, steps // runners)

        def sample(n):
            return algo.env_runner_group.foreach_env_runner(
                lambda er: sum(len(e) for e in er.sample(num_timesteps=n, random_actions=False)),
                local_env_runner=False)

        sample(200)  # warm-up
        sampling = 0.0
        for _ in range(repeat):
            t = time.perf_counter()
            done = sum(sample(per))
            sampling = max(sampling, done / (time.perf_counter() - t))
        before = algo.train()[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME]  # warm-up iteration
        training = 0.0
        for _ in range(iterations):
            t = time.perf_counter()
            after = algo.train()[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME]
            training = max(training, (after - before) / (time.perf_counter() - t))
            before = after
        algo.stop()
    finally:
        ray.shutdown()
    return sampling, training


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default="configs/rllib/quick.yaml")
    p.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    p.add_argument("--steps", type=int, default=8000, help="env steps sampled in the timed sampling call")
    p.add_argument("--iterations", type=int, default=5, help="timed training iterations (the best is shown)")
    p.add_argument("--repeat", type=int, default=3, help="timed sampling runs (the best is shown)")
    p.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray")
    args = p.parse_args()
    print("| env runners | sampling env steps/s | training env steps/s |\n|---|---|---|")
    for n in args.runners:
        s, t = bench(args.config, n, args.steps, args.iterations, args.cpus, args.repeat)
        print(f"| {n} | {s:,.0f} | {t:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
