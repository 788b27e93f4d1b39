"""Self-play rollouts in Ray actors against the one-process trainer, in the same run: the
main job's sizes (``configs/train/quick.yaml``: 512 tables, 32 steps, so 16,384 decisions a
rollout, its networks and bid learner), ``--iterations`` timed iterations (a rollout and
its PPO update) after one warm-up, for the in-process ``VectorCollector`` and for
``RayCollector`` with each number of ``--actors``. Prints decisions per second (median
over iterations, rollout and update together, and the rollout alone) and the driver's
overhead per iteration: putting the weights in Ray's object store, getting the rows back
and writing them into the buffer, as a share of the iteration. The aim (issue #37): an
overhead of at most 10% of an iteration; exits 1 when it is missed (``--report-only``: 0).

    python scripts/bench_ray_rollouts.py [--actors 1 2] [--iterations 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

AIM = 0.10


def _model(cfg):
    import torch as th
    from stable_baselines3.common.utils import configure_logger

    from training.selfplay import PERFECT_SIZE, PerfectCriticPolicy, SelfPlayPPO, StreamSpec
    from belote_env.observation import obs_size

    th.manual_seed(0)
    width = obs_size(cfg.rules_obj) + (PERFECT_SIZE if cfg.perfect_critic else 0)
    model = SelfPlayPPO(PerfectCriticPolicy if cfg.perfect_critic else "MlpPolicy", StreamSpec(cfg.n_tables, width),
                        n_steps=cfg.n_steps, batch_size=cfg.batch_size, n_epochs=cfg.n_epochs,
                        learning_rate=cfg.learning_rate,
                        policy_kwargs={"net_arch": {"pi": cfg.net_pi, "vf": cfg.net_vf}, "activation_fn": th.nn.ReLU,
                                       "optimizer_kwargs": {"eps": 1e-5}}, device="cpu", seed=0)
    model.set_logger(configure_logger(0, None, "", False))
    return model


def run(cfg, collector, iterations: int) -> dict:
    from training.train import attach_bid_learner

    model = _model(cfg)
    model.collector = collector
    if cfg.bid_learner == "q":
        attach_bid_learner(model, cfg, 0, False)
    rollout = cfg.n_steps * cfg.n_tables
    model.learn(total_timesteps=rollout)  # warm-up: numba compiled, actors started, buffers allocated
    times, plays = [], []
    for _ in range(iterations):
        t0 = time.perf_counter()
        model.learn(total_timesteps=rollout, reset_num_timesteps=False)
        times.append(time.perf_counter() - t0)
    out = {"iteration_s": statistics.median(times), "decisions_per_s": rollout / statistics.median(times)}
    timing = getattr(collector, "timing", None)
    if timing:
        rows = timing[-iterations:]
        over = [(r["put_s"] + r["get_s"] + r["fill_s"]) / t for r, t in zip(rows, times)]
        out["overhead"] = statistics.median(over)
        out["rollout_decisions_per_s"] = rollout / statistics.median(r["total_s"] for r in rows)
    return out


def main(argv: list[str] | None = None) -> int:
    import ray

    from training.config import load_config
    from training.ray_rollouts import RayCollector
    from training.vector_selfplay import VectorCollector

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--actors", type=int, nargs="+", default=[1, 2])
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--config", default="configs/train/quick.yaml")
    p.add_argument("--report-only", action="store_true", help="exit 0 even when the aim is missed")
    args = p.parse_args(argv)
    cfg = load_config(args.config, {"bf16": "false", "torch_threads": 1})
    print(f"{args.config}: {cfg.n_tables} tables x {cfg.n_steps} steps = {cfg.n_tables * cfg.n_steps:,} decisions "
          f"a rollout; {args.iterations} timed iterations each", flush=True)
    base = run(cfg, VectorCollector(cfg.rules_obj, cfg.n_tables, 0, None, perfect=cfg.perfect_critic), args.iterations)
    print(f"{'one process':14s} {base['decisions_per_s']:10,.0f} decisions/s  (iteration {base['iteration_s']:.2f} s)",
          flush=True)
    ray.init(num_cpus=max(args.actors), include_dashboard=False, log_to_driver=False, configure_logging=False)
    missed = False
    try:
        for n in args.actors:
            col = RayCollector(cfg.rules_obj, cfg.n_tables, 0, None, perfect=cfg.perfect_critic, actors=n)
            try:
                r = run(cfg, col, args.iterations)
            finally:
                col.close()
            missed |= r["overhead"] > AIM
            print(f"{n} actor{'s' if n > 1 else ' '}       {r['decisions_per_s']:10,.0f} decisions/s  (iteration "
                  f"{r['iteration_s']:.2f} s; {r['decisions_per_s'] / base['decisions_per_s']:.2f}x one process); "
                  f"rollout alone {r['rollout_decisions_per_s']:,.0f}/s; driver overhead {100 * r['overhead']:.1f}% "
                  f"of an iteration (aim <= {100 * AIM:.0f}%)", flush=True)
    finally:
        ray.shutdown()
    print("aim met" if not missed else "aim NOT met", flush=True)
    return 1 if missed and not args.report_only else 0


if __name__ == "__main__":
    raise SystemExit(main())
