"""``belote train``: a self-play MaskablePPO run with TensorBoard logs, checkpoints and resume.

Layout of a run folder ``{log_dir}/{run_name}/`` (``run_name`` =
``belote_v0__{exp_name}__{seed}__{unix time}``):

* ``config.yaml``: the full config and the run name;
* TensorBoard event files and ``progress*.csv``: scalars under ``charts/`` (deal
  statistics, steps per second, ``winrate_vs_easy`` / ``winrate_vs_normal`` of the periodic
  duplicate matches), ``train/`` (losses), hyperparameters in the HPARAMS tab;
* ``checkpoints/step_{timesteps:09d}/``: ``model.safetensors`` + ``meta.json`` (the
  ``policies.network`` model format), ``optimizer.pt`` (tensors only, loaded with
  ``weights_only=True``) and ``trainer.json``; each folder is written to a temporary name
  and renamed into place, so a kill never leaves half a checkpoint;
* ``pool/snap_{timesteps:09d}/``: frozen snapshots of the opponent pool;
* ``checkpoints/final/`` and ``eval.json`` at the end.

``belote train --resume RUN_FOLDER`` continues from the newest complete checkpoint.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

import torch as th
import yaml
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import CSVOutputFormat, HParam, Logger, TensorBoardOutputFormat

from belote_env import ACTION_TABLE_VERSION
from belote_env.actions import NUM_ACTIONS
from belote_env.observation import OBS_ENCODER_VERSION, OBS_SIZE
from policies.network import BeloteNet, CheckpointError, NetworkPolicy, load_model, save_model

from .config import ConfigError, TrainConfig
from .selfplay import PERFECT_SIZE, OpponentPool, PerfectCriticPolicy, SelfPlayCollector, SelfPlayPPO, StreamSpec

__all__ = ["train", "save_checkpoint", "net_config", "latest_checkpoint"]

EVAL_TIERS = ("random", "easy", "normal")


def net_config(cfg: TrainConfig) -> dict:
    net = {"obs_size": OBS_SIZE, "n_actions": NUM_ACTIONS, "pi": cfg.net_pi, "vf": cfg.net_vf,
           "activation": cfg.activation}
    if cfg.perfect_critic:
        net["critic_extra"] = PERFECT_SIZE
    return net


def _policy_net(model: SelfPlayPPO, cfg: TrainConfig) -> BeloteNet:
    net = BeloteNet(**net_config(cfg))
    keys = set(net.state_dict())
    net.load_state_dict({k: v.detach().clone() for k, v in model.policy.state_dict().items() if k in keys})
    net.eval()
    return net


def _atomic_folder(folder: Path, write) -> Path:
    """Run ``write(tmp_folder)`` then rename the temporary folder to ``folder``."""
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix="." + folder.name + "."))
    try:
        os.chmod(tmp, 0o755)  # mkdtemp makes the folder owner-only
        write(tmp)
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


def save_checkpoint(folder: Path, model: SelfPlayPPO, cfg: TrainConfig, run_name: str, trainer: dict | None = None,
                    extra: dict | None = None) -> Path:
    """Write a checkpoint folder atomically (model, metadata, optimizer, trainer state)."""
    def write(tmp: Path) -> None:
        save_model(tmp, model.policy.state_dict(), net_config(cfg), {
            "run_name": run_name, "timesteps": int(model.num_timesteps),
            "rules": cfg.rules_obj.to_dict(), "config": cfg.to_dict(), **(extra or {})})
        th.save(model.policy.optimizer.state_dict(), tmp / "optimizer.pt")
        (tmp / "trainer.json").write_text(json.dumps({"timesteps": int(model.num_timesteps), **(trainer or {})}))

    return _atomic_folder(folder, write)


def latest_checkpoint(run_dir: Path) -> Path:
    """The newest complete ``checkpoints/step_*`` folder of a run; raises ``CheckpointError``."""
    ckpts = sorted((run_dir / "checkpoints").glob("step_*"))
    complete = [c for c in ckpts if all((c / f).is_file() for f in ("model.safetensors", "meta.json", "optimizer.pt",
                                                                     "trainer.json"))]
    if not complete:
        raise CheckpointError(f"{run_dir}: no complete checkpoint under checkpoints/step_*")
    return complete[-1]


class _Progress(BaseCallback):
    def __init__(self, cfg: TrainConfig, run_dir: Path, run_name: str, show: bool, collector: SelfPlayCollector,
                 state: dict):
        super().__init__()
        self.cfg, self.run_dir, self.run_name, self.show = cfg, run_dir, run_name, show
        self.collector = collector
        self.state = state  # next_ckpt, next_eval, next_snapshot, snapshots
        self.pbar = None
        self.t0 = time.time()
        self.t0_steps = 0

    def _on_training_start(self) -> None:
        self.t0_steps = self.model.num_timesteps
        if self.show:
            from tqdm import tqdm

            self.pbar = tqdm(total=self.cfg.total_timesteps, unit="step", desc="self-play", dynamic_ncols=True)
            self.pbar.update(self.model.num_timesteps)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        cfg, st, n = self.cfg, self.state, self.model.num_timesteps
        fps = (n - self.t0_steps) / max(1e-9, time.time() - self.t0)
        self.logger.record("charts/steps_per_second", fps)
        if self.pbar is not None:
            self.pbar.update(n - self.pbar.n)
            self.pbar.set_postfix(steps_per_s=f"{fps:.0f}")
        if cfg.snapshot_every and self.collector.pool is not None and n >= st["next_snapshot"]:
            folder = self.run_dir / "pool" / f"snap_{n:09d}"
            net = _policy_net(self.model, cfg)
            _atomic_folder(folder, lambda tmp: save_model(tmp, net.state_dict(), net.config, {"timesteps": n}))
            self.collector.add_snapshot(NetworkPolicy(net, deterministic=False, seed=n, name=f"snapshot@{n}"))
            st["snapshots"] = (st["snapshots"] + [folder.name])[-cfg.max_snapshots:]
            while st["next_snapshot"] <= n:
                st["next_snapshot"] += cfg.snapshot_every
        if cfg.eval_every and n >= st["next_eval"]:
            _evaluate(self.model, cfg, self.logger, ("easy", "normal"), cfg.periodic_eval_pairs, seed=cfg.seed + n)
            while st["next_eval"] <= n:
                st["next_eval"] += cfg.eval_every
        if n >= st["next_ckpt"]:
            while st["next_ckpt"] <= n:
                st["next_ckpt"] += cfg.checkpoint_every
            save_checkpoint(self.run_dir / "checkpoints" / f"step_{n:09d}", self.model, cfg, self.run_name, dict(st))

    def _on_training_end(self) -> None:
        if self.pbar is not None:
            self.pbar.close()


def _evaluate(model: SelfPlayPPO, cfg: TrainConfig, logger, tiers, pairs: int, seed: int) -> dict:
    from .evaluate import duplicate_match

    agent = NetworkPolicy(_policy_net(model, cfg), name="learner")
    out = {}
    for tier in tiers:
        r = duplicate_match(agent, tier, pairs, seed=seed, rules=cfg.rules_obj)
        logger.record(f"charts/winrate_vs_{tier}", r.win_rate)
        logger.record(f"charts/mean_diff_vs_{tier}", r.mean_diff)
        out[f"vs_{tier}"] = r.to_dict()
    return out


def _make_logger(run_dir: Path, csv_name: str) -> Logger:
    return Logger(str(run_dir), [TensorBoardOutputFormat(str(run_dir)), CSVOutputFormat(str(run_dir / csv_name))])


def train(cfg: TrainConfig | None = None, progress: bool = True, resume: str | os.PathLike | None = None) -> Path:
    """Run self-play training per ``cfg`` (or continue the run folder ``resume``).

    Returns the run folder. Raises ``ConfigError`` / ``CheckpointError`` for a bad config,
    a run folder without a complete checkpoint, or a checkpoint made for another version.
    """
    state = {"next_ckpt": 0, "next_eval": 0, "next_snapshot": 0, "snapshots": []}
    ckpt = None
    done = 0
    init = None
    if resume is not None:
        run_dir = Path(resume)
        cfg, run_name = _read_run_config(run_dir)
        ckpt = latest_checkpoint(run_dir)
        trainer = _read_trainer_state(ckpt / "trainer.json")
        done = trainer["timesteps"]
        state.update({k: trainer[k] for k in state if k in trainer})
    else:
        if cfg is None:
            raise ConfigError("train() needs a config or a run folder to resume")
        if not isinstance(cfg, TrainConfig):
            raise ConfigError(f"train() needs a TrainConfig, got {type(cfg).__name__}")
        init = _load_init_from(cfg)  # before the run folder exists: a bad model leaves nothing behind
        run_name = f"belote_v0__{cfg.exp_name}__{cfg.seed}__{int(time.time())}"
        run_dir = Path(cfg.log_dir) / run_name
        run_dir.mkdir(parents=True, exist_ok=False)
        (run_dir / "config.yaml").write_text(yaml.safe_dump({"run_name": run_name, **cfg.to_dict()}, sort_keys=False))
        state.update(next_ckpt=cfg.checkpoint_every, next_eval=cfg.eval_every, next_snapshot=cfg.snapshot_every)
    th.set_num_threads(cfg.torch_threads)
    th.manual_seed(cfg.seed + done)
    pool_rng = random.Random(f"{cfg.seed}-pool-{done}")
    pool = None if cfg.opponents == {"self": 1.0} else OpponentPool(cfg.opponents, pool_rng, cfg.max_snapshots)
    collector = SelfPlayCollector(cfg.rules_obj, cfg.n_tables, cfg.seed * 1_000_003 + done, pool,
                                  perfect=cfg.perfect_critic, workers=cfg.workers)
    try:
        return _train(cfg, run_dir, run_name, ckpt, done, state, collector, progress, init)
    finally:
        collector.close()


def _read_run_config(run_dir: Path) -> tuple[TrainConfig, str]:
    """The config and run name stored in ``run_dir/config.yaml``; raises ``CheckpointError``
    for a missing or unreadable file, ``ConfigError`` for bad keys, each naming the file."""
    path = run_dir / "config.yaml"
    if not path.is_file():
        raise CheckpointError(f"{run_dir}: not a run folder (config.yaml is missing)")
    try:
        data = yaml.safe_load(path.read_text())
    except (OSError, UnicodeDecodeError) as e:
        raise CheckpointError(f"{path}: cannot read the run's config ({e})") from None
    except yaml.YAMLError as e:
        raise CheckpointError(f"{path}: corrupt run config, not valid YAML ({e})") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path}: corrupt run config, expected a mapping of config keys and 'run_name', "
                              f"got {type(data).__name__}")
    data = dict(data)
    run_name = data.pop("run_name", None)
    if not isinstance(run_name, str) or not run_name:
        raise CheckpointError(f"{path}: corrupt run config, 'run_name' must be a non-empty string, got {run_name!r}")
    try:
        return TrainConfig.from_dict(data), run_name
    except ValueError as e:  # ConfigError, RuleOptionError
        raise ConfigError(f"{path}: {e}") from None


def _read_trainer_state(path: Path) -> dict:
    """``trainer.json`` of a checkpoint: ``timesteps`` (int >= 0) and the schedule
    (``next_ckpt``, ``next_eval``, ``next_snapshot``: ints; ``snapshots``: pool folder names);
    raises ``CheckpointError`` naming the file and the bad entry."""
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointError(f"{path}: corrupt trainer state ({e})") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path}: corrupt trainer state, expected a JSON object, got {type(data).__name__}")
    for key in ("timesteps", "next_ckpt", "next_eval", "next_snapshot"):
        v = data.get(key, 0)
        if type(v) is not int or v < 0 or (key == "timesteps" and key not in data):
            raise CheckpointError(f"{path}: corrupt trainer state, {key!r} must be a non-negative int, got "
                                  f"{data.get(key, 'nothing')!r}")
    snaps = data.get("snapshots", [])
    if not isinstance(snaps, list) or not all(isinstance(n, str) and n and Path(n).name == n for n in snaps):
        raise CheckpointError(f"{path}: corrupt trainer state, 'snapshots' must be a list of pool folder names, "
                              f"got {snaps!r}")
    return data


def _load_init_from(cfg: TrainConfig) -> tuple[BeloteNet, dict] | None:
    """The ``init_from`` model, checked against the config's network; ``None`` without one.
    Raises ``CheckpointError`` (bad model folder) or ``ConfigError`` (another policy shape)."""
    if not cfg.init_from:
        return None
    net, meta = load_model(cfg.init_from)
    want = net_config(cfg)
    actor = ("obs_size", "n_actions", "pi", "activation")
    if any(meta["net"].get(k) != want[k] for k in actor):
        raise ConfigError(f"init_from {cfg.init_from}: network {meta['net']} differs from the config's "
                          f"{want} (policy part: {', '.join(actor)})")
    return net, meta


def _train(cfg: TrainConfig, run_dir: Path, run_name: str, ckpt: Path | None, done: int, state: dict,
           collector: SelfPlayCollector, progress: bool, init: tuple[BeloteNet, dict] | None = None) -> Path:
    activation = {"relu": th.nn.ReLU, "tanh": th.nn.Tanh}[cfg.activation]
    model = SelfPlayPPO(
        PerfectCriticPolicy if cfg.perfect_critic else "MlpPolicy",
        StreamSpec(4 * cfg.n_tables, OBS_SIZE + (PERFECT_SIZE if cfg.perfect_critic else 0)),
        learning_rate=cfg.learning_rate, n_steps=cfg.n_steps,
        batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda,
        clip_range=cfg.clip_range, ent_coef=cfg.ent_coef, vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
        policy_kwargs={"net_arch": {"pi": cfg.net_pi, "vf": cfg.net_vf}, "activation_fn": activation},
        seed=cfg.seed, device="cpu", verbose=0)
    model.collector = collector
    logger = _make_logger(run_dir, "progress.csv" if ckpt is None else f"progress_from_{done:09d}.csv")
    model.set_logger(logger)
    if ckpt is not None:
        net, meta = load_model(ckpt)  # validates versions and shapes
        if meta["net"] != net_config(cfg):
            raise CheckpointError(f"{ckpt}: network {meta['net']} does not match the run's config {net_config(cfg)}")
        model.policy.load_state_dict(net.state_dict(), strict=False)
        model.policy.optimizer.load_state_dict(th.load(ckpt / "optimizer.pt", weights_only=True))
        model.num_timesteps = done
        if collector.pool is not None:
            for i, name in enumerate(state["snapshots"]):
                snap, _ = load_model(run_dir / "pool" / name)
                collector.add_snapshot(NetworkPolicy(snap, deterministic=False, seed=i, name=name))
        if progress:
            print(f"resuming {run_name} from {ckpt.name} ({done} timesteps)")
    else:
        _warm_start(model, cfg, logger, progress, init)
    hparams = {k: (str(v) if isinstance(v, (list, dict)) or v is None else v) for k, v in cfg.to_dict().items()}
    hparams.update(action_table_version=ACTION_TABLE_VERSION, obs_encoder_version=OBS_ENCODER_VERSION)
    logger.record("hparams", HParam(hparams, {"charts/winrate_vs_normal": 0.0, "charts/winrate_vs_easy": 0.0}),
                  exclude=("stdout", "log", "json", "csv"))
    t0 = time.time()
    remaining = max(0, cfg.total_timesteps - done)
    if remaining:
        model.learn(total_timesteps=remaining, reset_num_timesteps=False,
                    callback=_Progress(cfg, run_dir, run_name, progress, collector, state))
    wall = time.time() - t0
    results = {"run_name": run_name, "timesteps": int(model.num_timesteps), "wall_seconds": round(wall, 1)}
    if cfg.eval_pairs:
        results.update(_evaluate(model, cfg, logger, EVAL_TIERS, cfg.eval_pairs, seed=cfg.seed))
        logger.dump(model.num_timesteps)
    save_checkpoint(run_dir / "checkpoints" / "final", model, cfg, run_name, dict(state),
                    {"wall_seconds": round(wall, 1), "evaluation": {k: v for k, v in results.items() if k.startswith("vs_")}})
    (run_dir / "eval.json").write_text(json.dumps(results, indent=2))
    logger.close()
    return run_dir


def _warm_start(model: SelfPlayPPO, cfg: TrainConfig, logger, progress: bool,
                init: tuple[BeloteNet, dict] | None = None) -> None:
    if init is None:
        init = _load_init_from(cfg)
    if init is not None:
        net, meta = init
        want = net_config(cfg)
        weights = net.state_dict()
        if meta["net"] != want:  # same policy, another critic (e.g. perfect_critic): load the policy only
            weights = {k: v for k, v in weights.items() if "value_net" not in k}
        model.policy.load_state_dict(weights, strict=False)
        logger.record("warm_start/init_from_critic_loaded", float(meta["net"] == want))
    if cfg.imitation_deals:
        from .imitation import generate_teacher_data, pretrain

        data = generate_teacher_data(cfg.imitation_teacher, cfg.imitation_deals, cfg.seed, cfg.rules_obj,
                                     cfg.imitation_epsilon, progress=progress, perfect=cfg.perfect_critic)
        net = _policy_net(model, cfg)
        stats = pretrain(net, data, epochs=cfg.imitation_epochs, seed=cfg.seed, progress=progress)
        model.policy.load_state_dict(net.state_dict(), strict=False)
        for k, v in stats.items():
            logger.record(f"imitation/{k}", v)
        logger.record("imitation/decisions", len(data["action"]))
