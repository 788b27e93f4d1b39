"""``belote train``: a self-play MaskablePPO run with TensorBoard logs and checkpoints.

Layout of a run folder ``{log_dir}/{run_name}/``: ``config.yaml`` (the full config),
TensorBoard event files and ``progress.csv`` (scalars under ``charts/``, ``train/``,
``rollout/``; hyperparameters in the HPARAMS tab), ``checkpoints/step_{timesteps:09d}/``
model folders (``policies.network`` format), ``checkpoints/final/`` and ``eval.json``.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import torch as th
import yaml
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import HParam, configure

from belote_env import ACTION_TABLE_VERSION
from belote_env.observation import OBS_ENCODER_VERSION
from policies.network import BeloteNet, NetworkPolicy, save_model

from .config import TrainConfig
from .selfplay import SelfPlayCollector, SelfPlayPPO, StreamSpec

__all__ = ["train", "save_checkpoint", "net_config"]


def net_config(cfg: TrainConfig) -> dict:
    from belote_env.actions import NUM_ACTIONS
    from belote_env.observation import OBS_SIZE

    return {"obs_size": OBS_SIZE, "n_actions": NUM_ACTIONS, "pi": cfg.net_pi, "vf": cfg.net_vf,
            "activation": cfg.activation}


def save_checkpoint(folder: Path, model: SelfPlayPPO, cfg: TrainConfig, run_name: str, extra: dict | None = None) -> Path:
    """Write a model folder atomically: into a temporary folder, then renamed into place."""
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix="." + folder.name + "."))
    try:
        save_model(tmp, model.policy.state_dict(), net_config(cfg), {
            "run_name": run_name, "timesteps": int(model.num_timesteps),
            "rules": cfg.rules_obj.to_dict(), "config": cfg.to_dict(), **(extra or {})})
        if folder.exists():
            old = folder.with_name("." + folder.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(folder, old)
            os.replace(tmp, folder)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return folder


class _Progress(BaseCallback):
    def __init__(self, cfg: TrainConfig, run_dir: Path, run_name: str, show: bool):
        super().__init__()
        self.cfg, self.run_dir, self.run_name, self.show = cfg, run_dir, run_name, show
        self.next_ckpt = cfg.checkpoint_every
        self.pbar = None
        self.t0 = time.time()

    def _on_training_start(self) -> None:
        if self.show:
            from tqdm import tqdm

            self.pbar = tqdm(total=self.cfg.total_timesteps, unit="step", desc="self-play", dynamic_ncols=True)
            self.pbar.update(self.model.num_timesteps)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        n = self.model.num_timesteps
        fps = n / max(1e-9, time.time() - self.t0)
        self.logger.record("charts/steps_per_second", fps)
        if self.pbar is not None:
            self.pbar.update(n - self.pbar.n)
        if n >= self.next_ckpt:
            save_checkpoint(self.run_dir / "checkpoints" / f"step_{n:09d}", self.model, self.cfg, self.run_name)
            while self.next_ckpt <= n:
                self.next_ckpt += self.cfg.checkpoint_every

    def _on_training_end(self) -> None:
        if self.pbar is not None:
            self.pbar.close()


def train(cfg: TrainConfig, progress: bool = True) -> Path:
    """Run self-play training per ``cfg``; returns the run folder.

    The final model is ``{run}/checkpoints/final``; with ``cfg.eval_pairs > 0`` it is then
    evaluated in duplicate matches against ``random`` and ``easy`` (TensorBoard
    ``charts/winrate_vs_random`` etc., and ``{run}/eval.json``).
    """
    from policies import make_policy

    from .evaluate import duplicate_match

    run_name = f"belote_v0__{cfg.exp_name}__{cfg.seed}__{int(time.time())}"
    run_dir = Path(cfg.log_dir) / run_name
    run_dir.mkdir(parents=True, exist_ok=False)
    (run_dir / "config.yaml").write_text(yaml.safe_dump({"run_name": run_name, **cfg.to_dict()}, sort_keys=False))
    th.set_num_threads(cfg.torch_threads)
    th.manual_seed(cfg.seed)
    collector = SelfPlayCollector(cfg.rules_obj, cfg.n_tables, cfg.seed)
    activation = {"relu": th.nn.ReLU, "tanh": th.nn.Tanh}[cfg.activation]
    model = SelfPlayPPO(
        "MlpPolicy", StreamSpec(collector.n_streams), learning_rate=cfg.learning_rate, n_steps=cfg.n_steps,
        batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda,
        clip_range=cfg.clip_range, ent_coef=cfg.ent_coef, vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
        policy_kwargs={"net_arch": {"pi": cfg.net_pi, "vf": cfg.net_vf}, "activation_fn": activation},
        seed=cfg.seed, device="cpu", verbose=0)
    model.collector = collector
    logger = configure(str(run_dir), ["tensorboard", "csv"])
    model.set_logger(logger)
    hparams = {k: (str(v) if isinstance(v, (list, dict)) else v) for k, v in cfg.to_dict().items()}
    hparams.update(action_table_version=ACTION_TABLE_VERSION, obs_encoder_version=OBS_ENCODER_VERSION)
    logger.record("hparams", HParam(hparams, {"charts/winrate_vs_random": 0.0, "charts/winrate_vs_easy": 0.0}),
                  exclude=("stdout", "log", "json", "csv"))
    t0 = time.time()
    model.learn(total_timesteps=cfg.total_timesteps, callback=_Progress(cfg, run_dir, run_name, progress))
    wall = time.time() - t0
    final = save_checkpoint(run_dir / "checkpoints" / "final", model, cfg, run_name,
                            {"wall_seconds": round(wall, 1)})
    results = {"run_name": run_name, "timesteps": int(model.num_timesteps), "wall_seconds": round(wall, 1)}
    if cfg.eval_pairs:
        net = BeloteNet(**net_config(cfg))
        net.load_state_dict({k: v for k, v in model.policy.state_dict().items() if k in net.state_dict()})
        net.eval()
        agent = NetworkPolicy(net, name=run_name)
        for tier in ("random", "easy"):
            r = duplicate_match(agent, make_policy(tier, seed=cfg.seed), cfg.eval_pairs, seed=cfg.seed,
                                rules=cfg.rules_obj, progress=progress)
            logger.record(f"charts/winrate_vs_{tier}", r.win_rate)
            logger.record(f"charts/mean_diff_vs_{tier}", r.mean_diff)
            results[f"vs_{tier}"] = r.to_dict()
        logger.dump(model.num_timesteps)
    (run_dir / "eval.json").write_text(json.dumps(results, indent=2))
    logger.close()
    del final
    return run_dir
