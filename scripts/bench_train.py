"""Self-play training throughput on the batched engine, idle and beside a CPU-bound job.

Trains ``SelfPlayPPO`` on ``training.vector_selfplay.VectorCollector`` with the hard
tier's network size (policy and value MLPs of 256, 256) for ``--seconds`` after a warm-up
rollout, and prints decisions per second (decisions played and learned from: the
collector's rollouts and the PPO update, together). Each setting runs in a fresh process
(thread settings of OpenMP must be set before torch loads), first on the idle machine,
then beside one CPU-bound process (a busy loop in another process, as a second job on a
shared machine would be). Prints one line per setting and the ratio, with the aims of
issue #21 (>= 30,000 decisions/s on 2 cores; at most 2x slower beside another job).

With ``--bids`` the trainer runs ``selfplay_30min.yaml``'s recipe (the perfect-information
critic and the bid-value network, its bids averaged over the 24 suit renamings and its fit on
a thread of its own); ``--huge-pages`` also times a fresh rollout-sized array with numpy's
huge-page advice on and off (the trainer turns it off).

    python scripts/bench_train.py                  # the default settings, about 2 minutes
    python scripts/bench_train.py --seconds 30 --threads 1 2
    python scripts/bench_train.py --seconds 15 --threads 2 --wait PASSIVE --bids --huge-pages
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import time


#: the config whose bid network ``--bids`` runs
RECIPE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "configs", "train", "selfplay_30min.yaml")


def _busy(stop) -> None:  # the other CPU-bound job
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x += 1


def huge_pages(repeats: int = 5, pause: float = 3.0) -> None:
    """Seconds to write a fresh 49 MB float32 array (a rollout's observations: 16,384 x 746)
    after a pause, with numpy's huge-page advice on and off (the trainer turns it off:
    ``training.vector_selfplay.numpy_huge_pages``); the median of ``repeats``."""
    import numpy as np

    from training.vector_selfplay import numpy_huge_pages

    src = np.random.default_rng(0).random((16384, 746), dtype=np.float32)
    was = numpy_huge_pages(True)
    try:
        for on in (True, False):
            numpy_huge_pages(on)
            times = []
            for _ in range(repeats):
                time.sleep(pause)  # the freed pages of the last copy go back to the system meanwhile
                t0 = time.perf_counter()
                x = src.copy()
                times.append(time.perf_counter() - t0)
                del x
            times.sort()
            print(f"numpy huge-page advice {'on' if on else 'off'}: a fresh 49 MB array written in "
                  f"{times[len(times) // 2]:.3f} s (median of {repeats}, {pause:.0f} s apart)", flush=True)
    finally:
        numpy_huge_pages(was)


def worker(seconds: float, threads: int, n_tables: int, n_epochs: int, batch: int, bf16: str,
           bids: bool = False) -> dict:
    import torch as th
    from stable_baselines3.common.utils import configure_logger

    from belote_env import Rules
    from belote_env.observation import OBS_SIZE
    from training.selfplay import PERFECT_SIZE, PerfectCriticPolicy, SelfPlayPPO, StreamSpec
    from training.vector_selfplay import VectorCollector, bf16_supported, numpy_huge_pages, use_bf16

    th.set_num_threads(threads)
    numpy_huge_pages(False)  # as the trainer does (training.train)
    th.manual_seed(0)
    n_steps = 32
    model = SelfPlayPPO(PerfectCriticPolicy if bids else "MlpPolicy",
                        StreamSpec(n_tables, OBS_SIZE + (PERFECT_SIZE if bids else 0)), n_steps=n_steps,
                        batch_size=batch, n_epochs=n_epochs,
                        learning_rate=3e-4, policy_kwargs={"net_arch": {"pi": [256, 256], "vf": [256, 256]},
                                                           "activation_fn": th.nn.ReLU,  # as training.train
                                                           "optimizer_kwargs": {"eps": 1e-5, "fused": True}},
                        device="cpu", seed=0)
    on = bf16 == "true" or (bf16 == "auto" and bf16_supported())
    if on:
        use_bf16(model.policy)
    model.collector = VectorCollector(Rules(target=None), n_tables, seed=0, perfect=bids)
    if bids:  # selfplay_30min.yaml's bids: a bid-value network, averaged and augmented, fitted on a thread
        from training.config import load_config
        from training.train import attach_bid_learner

        attach_bid_learner(model, load_config(RECIPE), 0, on)
    model.set_logger(configure_logger(0, None, "", False))
    rollout = n_steps * n_tables
    model.learn(total_timesteps=rollout)  # warm-up: numba compiled, buffers allocated
    done = model.num_timesteps
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        model.learn(total_timesteps=rollout, reset_num_timesteps=False)
    dt = time.perf_counter() - t0
    return {"decisions_per_s": (model.num_timesteps - done) / dt, "bf16": on, "seconds": dt}


def run_setting(args, threads: int, wait: str, busy: bool) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    if wait:
        env["OMP_WAIT_POLICY"] = wait
    cmd = [sys.executable, __file__, "--worker", json.dumps({"seconds": args.seconds, "threads": threads,
                                                             "n_tables": args.tables, "n_epochs": args.epochs,
                                                             "batch": args.batch, "bf16": args.bf16,
                                                             "bids": args.bids})]
    stop = multiprocessing.Event()
    hog = multiprocessing.Process(target=_busy, args=(stop,), daemon=True) if busy else None
    if hog:
        hog.start()
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    finally:
        if hog:
            stop.set()
            hog.join(5)
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="timed training per setting (default 20)")
    ap.add_argument("--threads", type=int, nargs="+", default=[2, 1], help="torch threads to try (default 2 1)")
    ap.add_argument("--wait", nargs="+", default=["PASSIVE", ""],
                    help="OMP_WAIT_POLICY values to try ('' = unset, OpenMP's default)")
    ap.add_argument("--tables", type=int, default=512)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--bf16", default="auto", choices=["auto", "true", "false"])
    ap.add_argument("--bids", action="store_true",
                    help="the recipe of selfplay_30min.yaml: perfect-information critic, bid-value network "
                         "(bid_augment, bid_average, bid_fit_overlap)")
    ap.add_argument("--huge-pages", action="store_true",
                    help="also time a fresh 49 MB array with numpy's huge-page advice on and off")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(**json.loads(args.worker))))
        return
    if args.huge_pages:
        huge_pages()
    print(f"self-play PPO, pi/vf [256, 256], {args.tables} tables, rollouts of {32 * args.tables}, "
          f"batch {args.batch}, {args.epochs} epochs, bf16 {args.bf16}"
          f"{', perfect critic and bid-value network (selfplay_30min.yaml)' if args.bids else ''}; "
          f"{os.cpu_count()} CPUs")
    for threads in args.threads:
        for wait in args.wait:
            idle = run_setting(args, threads, wait, busy=False)
            shared = run_setting(args, threads, wait, busy=True)
            a, b = idle["decisions_per_s"], shared["decisions_per_s"]
            print(f"threads {threads}, OMP_WAIT_POLICY {wait or 'unset'}: idle {a:.0f} decisions/s, beside a "
                  f"CPU-bound job {b:.0f} decisions/s ({a / b:.2f}x slower); bf16 {idle['bf16']}", flush=True)
            print(f"  aim >= 30000 decisions/s idle: {'met' if a >= 30000 else 'NOT met'}; "
                  f"aim <= 2x slower shared: {'met' if a / b <= 2 else 'NOT met'}", flush=True)


if __name__ == "__main__":
    main()
