"""``belote train-rllib``: PPO self-play on Ray RLlib (new API stack), local or on a cluster.

Layout of a run folder ``{log_dir}/{run_name}/`` (``run_name`` =
``belote_v0__{exp_name}__{seed}__{unix time}``):

* ``config.yaml``: the full config, the run name and the Ray address used;
* ``progress.jsonl``: one JSON line per training iteration (env steps, env steps per
  second, main's recent deal win rate against the snapshots (``training.rllib.selfplay``), snapshots, the reward-routing checks
  ``seats_rewarded`` / ``zero_sum_error``, policy / value losses, sampling / learning seconds);
* ``checkpoints/iter_{iteration:06d}/``: an RLlib checkpoint (``Algorithm.save_to_path``)
  plus ``belote_meta.json``; written to a temporary name and renamed into place;
* ``model/``: main's network at the end as ``model.safetensors`` + ``meta.json`` (the
  ``belote export`` format: ``make_policy("runs/<run>/model")`` loads it with torch alone);
* ``eval.json``: duplicate matches of ``model/`` against easy and normal (deal pairs).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import yaml

from belote_env import ACTION_TABLE_VERSION
from belote_env.observation import OBS_ENCODER_VERSION
from policies.network import save_model

from .config import RLlibConfig
from .export import META_NAME, strip_prefix
from .module import net_config_of
from .quiet import quiet_ray_notices

__all__ = ["build_algorithm_config", "train_rllib", "EVAL_TIERS"]

EVAL_TIERS = ("easy", "normal")


def build_algorithm_config(cfg: RLlibConfig):
    """The ``PPOConfig`` of a run: env, runners, learners, training, self-play modules.

    Returns:
        a ``ray.rllib.algorithms.ppo.PPOConfig`` (not built).
    """
    import functools

    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from .env import BeloteMultiAgentEnv
    from .module import BeloteTorchRLModule
    from .selfplay import MAIN, SelfPlayCallback, make_mapping_fn, snapshot_id

    spec = RLModuleSpec(module_class=BeloteTorchRLModule, model_config=cfg.model_config)
    return (
        PPOConfig()
        # RLlib's env pre-check steps one unmasked random action, illegal in most positions
        # (the env raises IllegalActionError): tests/test_rllib.py checks the env instead.
        .environment(BeloteMultiAgentEnv, env_config=cfg.env_config, disable_env_checking=True)
        .framework("torch")
        .env_runners(num_env_runners=cfg.num_env_runners, num_envs_per_env_runner=cfg.num_envs_per_env_runner,
                     num_cpus_per_env_runner=1, rollout_fragment_length=cfg.rollout_fragment_length,
                     # Ray 2.60's MultiAgentEnvRunner re-numpy-izes every finished episode of a
                     # sample call at every env step (quadratic); lists cost the learner nothing.
                     episodes_to_numpy=False)
        .learners(num_learners=cfg.num_learners, num_cpus_per_learner=cfg.num_cpus_per_learner)
        .training(train_batch_size_per_learner=cfg.train_batch_size, minibatch_size=cfg.minibatch_size,
                  num_epochs=cfg.num_epochs, lr=cfg.lr, gamma=cfg.gamma, lambda_=cfg.lambda_,
                  clip_param=cfg.clip_param, entropy_coeff=cfg.entropy_coeff, vf_loss_coeff=cfg.vf_loss_coeff,
                  grad_clip=cfg.grad_clip, use_kl_loss=False)
        .multi_agent(policies={MAIN, snapshot_id(0)}, policy_mapping_fn=make_mapping_fn(1),
                     policies_to_train=[MAIN])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MAIN: spec, snapshot_id(0): spec}))
        .callbacks(functools.partial(SelfPlayCallback, win_rate_threshold=cfg.win_rate_threshold,
                                     snapshot_min_deals=cfg.snapshot_min_deals, max_snapshots=cfg.max_snapshots,
                                     reward_mode=cfg.reward_mode))
        .debugging(seed=cfg.seed, log_level="WARN")
        .reporting(min_sample_timesteps_per_iteration=0)
    )


def _atomic_folder(folder: Path, write: Callable[[Path], Any]) -> Path:
    """Run ``write(tmp_folder)`` then rename the temporary folder to ``folder``."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix="." + folder.name + "."))
    try:
        os.chmod(tmp, 0o755)
        write(tmp)
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return folder


def _meta(cfg: RLlibConfig, run_name: str, stats: dict[str, Any]) -> dict[str, Any]:
    return {"net": net_config_of(cfg.model_config), "rules": cfg.rules_obj.to_dict(), "config": cfg.to_dict(),
            "run_name": run_name, "trainer": "rllib-ppo", "action_table_version": ACTION_TABLE_VERSION,
            "obs_encoder_version": OBS_ENCODER_VERSION, **stats}


def _main_weights(algo):
    from .selfplay import MAIN

    return strip_prefix(algo.learner_group.get_weights(module_ids=[MAIN])[MAIN])


def train_rllib(cfg: RLlibConfig, address: str | None = None, progress: bool = True,
                on_iteration: Callable[[Any, dict], None] | None = None) -> Path:
    """Train main by PPO self-play until ``total_timesteps`` env steps (or ``time_budget_s``),
    write the run folder (see the module docstring) and return its path.

    Args:
        cfg: the run's settings.
        address: an existing Ray cluster (``ray start --head`` prints it; ``"auto"`` finds
            the local one); ``None`` starts a local Ray with ``cfg.num_cpus`` CPUs (or uses
            the Ray already initialised in this process, e.g. by a test).
        progress: print one line per iteration.
        on_iteration: called as ``on_iteration(algorithm, result)`` after each iteration
            (tests use it to inspect the episodes).
    Raises:
        ConfigError: bad settings; ray's own errors when the cluster cannot be reached or
            lacks the CPUs for the runners and learners asked for.
    """
    import ray
    import torch
    from ray.rllib.utils.metrics import (
        ENV_RUNNER_RESULTS, ENV_RUNNER_SAMPLING_TIMER, LEARNER_UPDATE_TIMER, NUM_ENV_STEPS_SAMPLED_LIFETIME, TIMERS,
    )

    run_name = f"belote_v0__{cfg.exp_name}__{cfg.seed}__{int(time.time())}"
    run_dir = Path(cfg.log_dir) / run_name
    run_dir.mkdir(parents=True, exist_ok=False)
    (run_dir / "config.yaml").write_text(yaml.safe_dump({**cfg.to_dict(), "run_name": run_name,
                                                        "ray_address": address}, sort_keys=False))
    torch.set_num_threads(cfg.torch_threads)
    quiet_ray_notices()  # before Ray starts: its token notice comes from ray.init
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, logging_level=logging.WARNING)
        else:
            ray.init(address="local", num_cpus=cfg.num_cpus, include_dashboard=False, logging_level=logging.WARNING)
        started = True
    algo, log = None, None
    try:
        algo = build_algorithm_config(cfg).build_algo()
        t0 = time.perf_counter()
        steps, it = 0, 0
        log = (run_dir / "progress.jsonl").open("w")
        while True:
            t_it = time.perf_counter()
            result = algo.train()
            it += 1
            er = result.get(ENV_RUNNER_RESULTS, {})
            new_steps = int(er.get(NUM_ENV_STEPS_SAMPLED_LIFETIME, steps))
            dt = time.perf_counter() - t_it
            sp = result.get("selfplay", {})
            learner = result.get("learners", {}).get("main", {})
            timers = result.get(TIMERS, {})  # RLlib's smoothed seconds per iteration
            line = {"iteration": it, "env_steps": new_steps, "wall_s": round(time.perf_counter() - t0, 2),
                    "env_steps_per_s": round((new_steps - steps) / dt, 1) if dt > 0 else None,
                    "win_rate": sp.get("win_rate"), "deals_judged": sp.get("deals_judged"),
                    "snapshots_taken": sp.get("snapshots_taken"),
                    "seats_rewarded": er.get("seats_rewarded"), "zero_sum_error": er.get("zero_sum_error"),
                    "policy_loss": learner.get("policy_loss"), "vf_loss": learner.get("vf_loss"),
                    "entropy": learner.get("entropy"),
                    "sample_s": timers.get(ENV_RUNNER_SAMPLING_TIMER), "learn_s": timers.get(LEARNER_UPDATE_TIMER)}
            steps = new_steps
            log.write(json.dumps(line, default=float) + "\n")
            log.flush()
            if progress:
                wr = line["win_rate"]
                print(f"iter {it}: {steps} env steps, {line['env_steps_per_s']} steps/s, main's recent deal win "
                      f"rate {'-' if wr is None else f'{wr:.3f}'}, snapshots taken {line['snapshots_taken']}",
                      flush=True)
            if on_iteration is not None:
                on_iteration(algo, result)
            done = steps >= cfg.total_timesteps or (cfg.time_budget_s and time.perf_counter() - t0 >= cfg.time_budget_s)
            if done or it % cfg.checkpoint_every == 0:
                stats = {"iteration": it, "env_steps": steps, "wall_seconds": round(time.perf_counter() - t0, 1)}

                def write(tmp: Path, stats=stats) -> None:
                    algo.save_to_path(str(tmp.resolve()))
                    (tmp / META_NAME).write_text(json.dumps(_meta(cfg, run_name, stats), indent=2))

                _atomic_folder(run_dir / "checkpoints" / f"iter_{it:06d}", write)
            if done:
                break
        wall = round(time.perf_counter() - t0, 1)
        stats = {"iteration": it, "env_steps": steps, "wall_seconds": wall}
        meta = _meta(cfg, run_name, stats)
        save_model(run_dir / "model", _main_weights(algo), meta.pop("net"),
                   {k: v for k, v in meta.items() if k not in ("action_table_version", "obs_encoder_version")})
    finally:
        if log is not None:
            log.close()
        if algo is not None:
            algo.stop()
        if started:
            ray.shutdown()
    ev: dict[str, Any] = {"env_steps": steps, "iterations": it, "wall_seconds": wall}
    if cfg.eval_pairs:
        from ..evaluate import duplicate_match

        for tier in EVAL_TIERS:
            r = duplicate_match(str(run_dir / "model"), tier, cfg.eval_pairs, seed=cfg.seed, rules=cfg.rules_obj,
                                workers=cfg.eval_workers)
            ev[f"vs_{tier}"] = r.to_dict()
    (run_dir / "eval.json").write_text(json.dumps(ev, indent=2))
    return run_dir
