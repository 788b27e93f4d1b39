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
  and renamed into place, so a kill never leaves half a checkpoint (a resume removes the
  temporary folders a kill leaves); ``step_N`` is written once rollout N's PPO update has
  run, so it holds the weights and optimizer state after all N steps' updates (every
  ``checkpoint_every`` steps, and at the run's last step: a resume of a finished run finds
  it and trains nothing again); with
  ``bid_learner: q``, ``bids/`` and ``bid_learner.safetensors`` (the bid replay and its Adam
  state, restored on resume);
* ``progress_from_{step:09d}.csv`` (then ``..._2.csv``, ...): one CSV log per resume attempt;
* ``pool/snap_{timesteps:09d}/``: frozen snapshots of the opponent pool;
* ``checkpoints/final/`` and ``eval.json`` at the end.

``config.yaml`` and ``eval.json`` are written atomically. A resume refuses a ``config.yaml``
changed since its checkpoint was written (``meta.json``'s ``config``) in a key other than
``RESUME_MAY_CHANGE``, and a finished run (``RunCompleteError``: nothing is rewritten); its
TensorBoard writer purges the steps past the checkpoint that a killed invocation logged.

``belote train --resume RUN_FOLDER`` continues from the newest complete checkpoint (by step
number) whose every file checks out; a damaged newer one is skipped with a ``warning:`` line
on stderr naming it and the checkpoint used, and ``CheckpointError`` names the damaged files
when no checkpoint is usable. A ``checkpoints/step_*`` that is not a folder is damaged too.
``config.yaml``, ``trainer.json`` and ``meta.json`` are read through ``belote_env.jsonfile``
(size-bounded, ``MAX_RUN_FILE_BYTES``); ``optimizer.pt`` is refused when its zip members
declare more data than the run's optimizer state can hold (``_optimizer_bound``), before
``torch.load`` inflates anything.
"""

from __future__ import annotations

import copy
import json
import math
import os
import pickle
import random
import re
import shutil
import sys
import tempfile
import time
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path

import torch as th
import yaml
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import CSVOutputFormat, HParam, Logger, TensorBoardOutputFormat

from belote_env.atomic import atomic_write_bytes
from belote_env.games import game_of
from belote_env import ACTION_TABLE_VERSION
from belote_env.actions import COINCHE, COINCHE_BID, COINCHE_LEVELS, PASS, SURCOINCHE, num_actions
from belote_env.jsonfile import DataFileError, parse_yaml, read_json, read_text, short_repr
from belote_env.observation import OBS_ENCODER_VERSION, obs_size
from policies.network import (BID_VALUES_KIND, BIDS_SUBDIR, BeloteNet, CheckpointError, NetworkPolicy, load_model,
                              save_model)

from .config import ConfigError, TrainConfig
from .vector_selfplay import bf16_supported, numpy_huge_pages, use_bf16
from .selfplay import PERFECT_SIZE, OpponentPool, PerfectCriticPolicy, SelfPlayCollector, SelfPlayPPO, StreamSpec

__all__ = ["train", "save_checkpoint", "net_config", "latest_checkpoint", "RunCompleteError"]

EVAL_TIERS = ("random", "easy", "normal")
#: Bound on a run's ``config.yaml`` and a checkpoint's ``trainer.json`` (bytes), checked
#: before either is read; each is a few KB.
MAX_RUN_FILE_BYTES = 1 << 20
#: The keys of ``trainer.json``.
TRAINER_KEYS = ("next_ckpt", "next_eval", "next_snapshot", "snapshots", "timesteps", "train_seconds")
#: A checkpoint's bid learner state (``bid_learner: q``): the replay and the fit's Adam state
#: (``BidLearner.replay_state``), safetensors (loading runs no code).
BID_STATE_FILE = "bid_learner.safetensors"
#: The config keys a resume may see changed in ``config.yaml`` (the length of the run, its
#: final and periodic evaluations, the checkpoint interval, the wall budget, torch's
#: threads); any other change is refused (``_check_config_unchanged``).
RESUME_MAY_CHANGE = ("total_timesteps", "eval_pairs", "checkpoint_every", "eval_every", "periodic_eval_pairs",
                     "max_minutes", "torch_threads", "log_dir")


class RunCompleteError(ConfigError):
    """``--resume`` of a run that has trained all its steps and written ``checkpoints/final``
    and ``eval.json``: nothing is trained or rewritten."""


def _why(e: DataFileError, path: Path) -> str:
    """A ``DataFileError``'s message without the leading ``path: ``."""
    return str(e).removeprefix(f"{path}: ")


def net_config(cfg: TrainConfig) -> dict:
    rules = cfg.rules_obj
    net = {"obs_size": obs_size(rules), "n_actions": num_actions(rules), "pi": cfg.net_pi, "vf": cfg.net_vf,
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


def _bid_net(model: SelfPlayPPO) -> BeloteNet | None:
    """The learner's bid-value network (``bid_learner: q``), or None."""
    bids = getattr(getattr(model, "collector", None), "bids", None)
    return None if bids is None else bids.net


def bid_actions_of(rules) -> list[int]:
    """The bid ids the rules use. Classic (RULES.md §3.2-§3.3): pass, take, name a suit,
    and no-trump / all-trump with ``round2_no_trump_all_trump``. Coinche (COINCHE.md §3):
    pass, the bids 80..``max_numeric_bid`` (160 at most here) and capot with ``capot_bid``
    in the suits (and no-trump / all-trump with ``coinche_denominations: suits_sa_ta``),
    coinche, and surcoinche with ``surcoinche_allowed``."""
    if rules.contract_mode != "coinche":
        return list(range(32, 40 if rules.round2_no_trump_all_trump else 38))
    kinds = 6 if rules.coinche_denominations == "suits_sa_ta" else 4
    levels = [i for i, v in enumerate(COINCHE_LEVELS)
              if (v == "capot" and rules.capot_bid) or (v != "capot" and v <= rules.max_numeric_bid)]
    return ([PASS] + [COINCHE_BID + 6 * i + k for i in levels for k in range(kinds)] + [COINCHE]
            + ([SURCOINCHE] if rules.surcoinche_allowed else []))


def save_bid_net(folder: Path, net: BeloteNet, cfg: TrainConfig, extra: dict | None = None) -> None:
    """Write a bid-value network into ``folder/bids/`` (``policies.network.load_bid_net``),
    played averaged over the 24 renamings of the suits (``suit_average``): self-play deals
    are symmetric under a renaming, so the network has learned every suit alike, and the
    average takes most of the noise out of the choice among bids (the 30M-decision
    checkpoint of the long run: 34.1% of games against normal greedy on one view, 47.1%
    averaged; docs/experiments/selfplay.md)."""
    save_model(folder / BIDS_SUBDIR, net.state_dict(), net.config,
               {"kind": BID_VALUES_KIND, "suit_average": True, "bid_actions": bid_actions_of(cfg.rules_obj),
                **(extra or {})})


def learner_policy(model: SelfPlayPPO, cfg: TrainConfig, **kwargs) -> NetworkPolicy:
    """The learner as a policy: its policy network, and its bid-value network if it has one
    (``bid_learner: q``); such a run's policy network is played averaged over the 24 suit
    renamings too (``policy_suit_average``, as its checkpoints' ``meta.json`` says: a
    self-play network trained on suit-symmetric deals plays better so, 47.1% -> 51.2% of
    games against normal on a checkpoint of the long run)."""
    bids = _bid_net(model)
    if bids is not None:
        bids = copy.deepcopy(bids).eval()
        kwargs.update(bid_net=bids, bid_actions=bid_actions_of(cfg.rules_obj), bid_suit_average=True,
                      policy_suit_average=True)
    return NetworkPolicy(_policy_net(model, cfg), **kwargs)


def save_checkpoint(folder: Path, model: SelfPlayPPO, cfg: TrainConfig, run_name: str, trainer: dict | None = None,
                    extra: dict | None = None) -> Path:
    """Write a checkpoint folder atomically (model, metadata, optimizer, trainer state; the
    bid-value network in ``bids/`` with ``bid_learner: q``, its replay and Adam state in
    ``BID_STATE_FILE``, and then ``meta.json``'s ``policy_suit_average: true``: the policy
    is played as ``learner_policy`` plays it)."""
    def write(tmp: Path) -> None:
        bids = _bid_net(model)
        save_model(tmp, model.policy.state_dict(), net_config(cfg), {
            "run_name": run_name, "timesteps": int(model.num_timesteps),
            "rules": cfg.rules_obj.to_dict(), "config": cfg.to_dict(),
            **({"policy_suit_average": True, "parts": [BIDS_SUBDIR]} if bids is not None else {}), **(extra or {})})
        if bids is not None:
            save_bid_net(tmp, bids, cfg, {"timesteps": int(model.num_timesteps)})
            learner = model.collector.bids
            if hasattr(learner, "replay_state"):
                from safetensors.torch import save_file

                save_file(learner.replay_state(), str(tmp / BID_STATE_FILE))
        th.save(model.policy.optimizer.state_dict(), tmp / "optimizer.pt")
        (tmp / "trainer.json").write_text(json.dumps({"timesteps": int(model.num_timesteps), **(trainer or {})}))

    return _atomic_folder(folder, write)


CHECKPOINT_FILES = ("model.safetensors", "meta.json", "optimizer.pt", "trainer.json")
_STEP_NAME = re.compile(r"step_([0-9]+)")


def _step_folders(run_dir: Path) -> list[tuple[int, Path]]:
    """``(step, path)`` of the ``checkpoints/step_<step>`` entries, newest (largest step)
    first, folders or not (``_load_checkpoint`` refuses one that is not a folder); names
    whose step is not a number (``step_abc``) are ignored."""
    found = []
    for folder in Path(run_dir, "checkpoints").glob("step_*"):
        m = _STEP_NAME.fullmatch(folder.name)
        if m:
            found.append((int(m.group(1)), folder))
    return sorted(found, key=lambda t: (t[0], t[1].name), reverse=True)


def latest_checkpoint(run_dir: Path) -> Path:
    """The newest complete ``checkpoints/step_*`` folder of a run, by step number (not by
    name: ``step_1000000000`` is newer than ``step_999999999``); raises ``CheckpointError``."""
    for _, folder in _step_folders(run_dir):
        if all((folder / f).is_file() for f in CHECKPOINT_FILES):
            return folder
    raise CheckpointError(f"{run_dir}: no complete checkpoint under checkpoints/step_*")


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
        self.seconds_before = float(state.get("train_seconds", 0.0))  # the run's earlier invocations
        self.stopped = False  # by max_minutes
        self.pending: int | None = None  # a step_<n> checkpoint due once rollout n's PPO update has run

    def seconds(self) -> float:
        """The run's wall time so far (its earlier invocations' included), seconds."""
        return self.seconds_before + time.time() - self.t0

    def end_step(self, start: int) -> int:
        """The step count the run will end at from ``start``: ``total_timesteps`` rounded up
        to whole rollouts of ``n_steps x n_envs`` decisions (PPO collects whole rollouts),
        the bar's total."""
        rollout = self.cfg.n_steps * self.model.n_envs
        return start + -(-max(0, self.cfg.total_timesteps - start) // rollout) * rollout

    def _on_training_start(self) -> None:
        self.t0_steps = self.model.num_timesteps
        if self.show:
            print("self-play: playing the first rollout (the batched engine compiles on a first run; the bar and "
                  "its time left start after it)", flush=True)
        self._check_time()

    def _bar(self, n: int) -> None:
        """Start the bar after the first rollout (``initial``: the steps done then), so that
        its rate and time left leave out the start-up; then advance it to ``n``."""
        if self.pbar is None:
            from tqdm import tqdm

            self.pbar = tqdm(total=self.end_step(self.t0_steps), initial=n, unit="step", desc="self-play",
                             dynamic_ncols=True)
        else:
            self.pbar.update(n - self.pbar.n)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_start(self) -> None:
        self._save_pending()

    def _save_pending(self) -> None:
        """Write the checkpoint ``_on_rollout_end`` scheduled, now that the PPO update of
        its rollout has run (the next rollout's start, or the end of ``learn``): it holds
        the weights and optimizer state after all its steps' updates."""
        if self.pending is None:
            return
        n, self.pending = self.pending, None
        self.state["train_seconds"] = self.seconds()
        save_checkpoint(self.run_dir / "checkpoints" / f"step_{n:09d}", self.model, self.cfg, self.run_name,
                        dict(self.state))

    def _check_time(self) -> None:
        """Once ``max_minutes`` of the run's wall time have gone, ask the model to collect no
        more rollouts (``SelfPlayPPO.stop_requested``)."""
        limit = self.cfg.max_minutes
        if limit and self.seconds() >= 60.0 * limit:
            self.stopped = self.model.stop_requested = True

    def _on_rollout_end(self) -> None:
        cfg, st, n = self.cfg, self.state, self.model.num_timesteps
        fps = (n - self.t0_steps) / max(1e-9, time.time() - self.t0)
        self.logger.record("charts/steps_per_second", fps)
        if self.show:  # the bar's own rate (tqdm's, smoothed) counts from its start, after the compile
            self._bar(n)
        if cfg.snapshot_every and self.collector.pool is not None and n >= st["next_snapshot"]:
            folder = self.run_dir / "pool" / f"snap_{n:09d}"
            snap = learner_policy(self.model, cfg, deterministic=False, seed=n, name=f"snapshot@{n}")

            def write(tmp: Path) -> None:
                save_model(tmp, snap.net.state_dict(), snap.net.config,
                           {"timesteps": n, **({"parts": [BIDS_SUBDIR]} if snap.bid_net is not None else {})})
                if snap.bid_net is not None:
                    save_bid_net(tmp, snap.bid_net, cfg, {"timesteps": n})

            _atomic_folder(folder, write)
            self.collector.add_snapshot(snap)
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
            self.pending = n  # written after this rollout's update (_save_pending)
        self._check_time()

    def _on_training_end(self) -> None:
        if self.pbar is not None:
            self.pbar.close()
        self._save_pending()
        n = self.model.num_timesteps
        folder = self.run_dir / "checkpoints" / f"step_{n:09d}"
        if not folder.exists():  # the last steps (stopped by the clock, or past the last interval): a resume starts here
            self.state["train_seconds"] = self.seconds()
            save_checkpoint(folder, self.model, self.cfg, self.run_name, dict(self.state))


def _evaluate(model: SelfPlayPPO, cfg: TrainConfig, logger, tiers, pairs: int, seed: int,
              progress: bool = False) -> dict:
    """Duplicate matches of the learner against each of ``tiers`` (``pairs`` deal pairs;
    a progress bar per match with ``progress``), logged as ``charts/winrate_vs_<tier>``."""
    from .evaluate import duplicate_match

    agent = learner_policy(model, cfg, name="learner")
    out = {}
    for tier in tiers:
        # a two- or three-player run on the reference engine is matched on it too (the batched
        # match plays the same decks; a random tier's draws differ, duplicate_match)
        batched = cfg.engine == "batched" or game_of(cfg.rules_obj).has_partners
        r = duplicate_match(agent, tier, pairs, seed=seed, rules=cfg.rules_obj, batched=batched, progress=progress)
        logger.record(f"charts/winrate_vs_{tier}", r.win_rate)
        logger.record(f"charts/mean_diff_vs_{tier}", r.mean_diff)
        out[f"vs_{tier}"] = r.to_dict()
    return out


class _TensorBoard(TensorBoardOutputFormat):
    """SB3's TensorBoard output whose writer starts with ``purge_step``: TensorBoard then
    drops the events of the run's earlier invocations at that step and later (a killed
    invocation logged past its last checkpoint; the resumed one logs those steps again)."""

    def __init__(self, folder: str, purge_step: int | None = None):
        from torch.utils.tensorboard import SummaryWriter

        self.writer = SummaryWriter(log_dir=folder, purge_step=purge_step)
        self._is_closed = False


def _make_logger(run_dir: Path, csv_name: str, purge_step: int | None = None) -> Logger:
    return Logger(str(run_dir), [_TensorBoard(str(run_dir), purge_step), CSVOutputFormat(str(run_dir / csv_name))])


def _write_text(path: Path, text: str) -> None:
    """Write a run file atomically (``belote_env.atomic``): a kill never leaves half of it."""
    atomic_write_bytes(path, text.encode("utf-8"))


def _claim_run_dir(log_dir: Path, run_name: str) -> tuple[Path, str]:
    """Create the run folder ``log_dir/run_name`` (atomically: ``mkdir`` fails on an existing
    one); when a run of the same experiment and seed started in the same second holds the
    name, the next free ``run_name_2``, ``run_name_3``, ... instead."""
    log_dir.mkdir(parents=True, exist_ok=True)
    name, n = run_name, 1
    while True:
        try:
            (log_dir / name).mkdir()
            return log_dir / name, name
        except FileExistsError:
            n += 1
            name = f"{run_name}_{n}"


_TEMP_NAME = re.compile(r"\.(step_[0-9]+|final|snap_[0-9]+)\.(.+)")


def _remove_temporaries(run_dir: Path) -> None:
    """Remove what a kill in the middle of a write left (``_atomic_folder``'s
    ``checkpoints/.step_<n>.<random>`` and ``.step_<n>.old``, the pool's ``.snap_<n>.*``;
    ``belote_env.atomic``'s ``.config.yaml.*.tmp`` / ``.eval.json.*.tmp``), announced."""
    found = [p for sub in ("checkpoints", "pool") for p in Path(run_dir, sub).glob(".*")
             if p.is_dir() and not p.is_symlink() and _TEMP_NAME.fullmatch(p.name)]
    found += [p for p in Path(run_dir).glob(".*.tmp") if p.is_file() and not p.is_symlink()
              and p.name.startswith((".config.yaml.", ".eval.json."))]
    for p in found:
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    if found:
        print(f"removed {len(found)} temporary file(s) left by an interrupted write: "
              f"{', '.join(str(p.relative_to(run_dir)) for p in sorted(found))}", flush=True)


def _check_config_unchanged(run_dir: Path, point: "_ResumePoint", cfg: TrainConfig) -> None:
    """The run's ``config.yaml`` against the config its resume checkpoint was written under
    (``meta.json``'s ``config``): a change of any key but ``RESUME_MAY_CHANGE`` is refused
    by name (``ConfigError``); a checkpoint that records no config is announced."""
    saved = point.meta.get("config") if isinstance(point.meta, dict) else None
    if not isinstance(saved, dict):
        print(f"warning: checkpoint {point.folder} does not record its config: the changes to "
              f"{run_dir / 'config.yaml'} since it was written cannot be checked", file=sys.stderr, flush=True)
        return
    try:
        saved = TrainConfig.from_dict(saved).to_dict()  # the same spelling as the current one
    except (ValueError, TypeError):
        pass  # an older version's keys: compared as written
    current = cfg.to_dict()
    changed = [k for k in saved if k not in RESUME_MAY_CHANGE and k in current and saved[k] != current[k]]
    if changed:
        raise ConfigError(f"{run_dir / 'config.yaml'}: {', '.join(repr(k) for k in changed)} changed since "
                          f"checkpoints/{point.folder.name} was written ("
                          + "; ".join(f"{k}: {saved[k]!r} -> {current[k]!r}" for k in changed)
                          + f"); a resumed run keeps its settings, only {', '.join(RESUME_MAY_CHANGE)} may change "
                          "(start a new run, with init_from to start from this one's weights)")


def _finished_steps(run_dir: Path, cfg: TrainConfig) -> int | None:
    """The steps of ``checkpoints/final`` when the run trained all its steps and wrote it
    and ``eval.json``; None otherwise."""
    final = run_dir / "checkpoints" / "final"
    if not (run_dir / "eval.json").is_file() or not all((final / f).is_file() for f in CHECKPOINT_FILES):
        return None
    try:
        done = read_json(final / "trainer.json", MAX_RUN_FILE_BYTES).get("timesteps")
    except (DataFileError, AttributeError):
        return None
    return done if type(done) is int and done >= cfg.total_timesteps else None


def _complete_error(run_dir: Path, done: int, cfg: TrainConfig) -> RunCompleteError:
    """The error a resume of a finished run of ``done`` steps raises (nothing is changed)."""
    return RunCompleteError(f"{run_dir}: the run is complete ({done} of {cfg.total_timesteps} steps trained, "
                            "checkpoints/final and eval.json written); nothing to resume, nothing changed "
                            f"(raise total_timesteps in {run_dir / 'config.yaml'} to train further)")


def train(cfg: TrainConfig | None = None, progress: bool = True, resume: str | os.PathLike | None = None) -> Path:
    """Run self-play training per ``cfg`` (or continue the run folder ``resume``).

    Returns the run folder. Raises ``ConfigError`` / ``CheckpointError`` for a bad config,
    a run folder without a complete checkpoint, or a checkpoint made for another version.
    """
    state = {"next_ckpt": 0, "next_eval": 0, "next_snapshot": 0, "snapshots": [], "train_seconds": 0.0}
    point = None
    done = 0
    init = None
    if resume is not None:
        run_dir = Path(resume)
        cfg, run_name = _read_run_config(run_dir)
        finished = _finished_steps(run_dir, cfg)
        if finished is not None and not _step_folders(run_dir):  # shorter than checkpoint_every: final alone
            raise _complete_error(run_dir, finished, cfg)
        point = _resume_point(run_dir, cfg, run_name)  # every file checked; announces a damaged newer one
        done = point.trainer["timesteps"]
        _check_config_unchanged(run_dir, point, cfg)
        if finished == done:  # final is of the newest usable checkpoint's steps, not of a run cut since
            raise _complete_error(run_dir, done, cfg)
        _remove_temporaries(run_dir)
        state.update({k: point.trainer[k] for k in state if k in point.trainer})
        _reschedule(state, cfg, done)
        print(f"resuming {run_dir} from checkpoints/{point.folder.name} ({done} of {cfg.total_timesteps} steps done; "
              f"the run ends at the first whole rollout at or past them, the bar's total)", flush=True)
    else:
        if cfg is None:
            raise ConfigError("train() needs a config or a run folder to resume")
        if not isinstance(cfg, TrainConfig):
            raise ConfigError(f"train() needs a TrainConfig, got {type(cfg).__name__}")
        init = _load_init_from(cfg)  # before the run folder exists: a bad model leaves nothing behind
        run_dir, run_name = _claim_run_dir(Path(cfg.log_dir),
                                           f"belote_v0__{cfg.exp_name}__{cfg.seed}__{int(time.time())}")
        _write_text(run_dir / "config.yaml", yaml.safe_dump({"run_name": run_name, **cfg.to_dict()}, sort_keys=False))
        state.update(next_ckpt=cfg.checkpoint_every, next_eval=cfg.eval_every, next_snapshot=cfg.snapshot_every)
    th.set_num_threads(cfg.torch_threads)
    if "NUMPY_MADVISE_HUGEPAGE" not in os.environ:
        numpy_huge_pages(False)
    th.manual_seed(cfg.seed + done)
    pool_rng = random.Random(f"{cfg.seed}-pool-{done}")
    pool = None if cfg.opponents == {"self": 1.0} else OpponentPool(cfg.opponents, pool_rng, cfg.max_snapshots)
    if cfg.engine == "batched" and cfg.rollout_actors:
        from .ray_rollouts import RayCollector

        collector = RayCollector(cfg.rules_obj, cfg.n_tables, cfg.seed * 1_000_003 + done, pool,
                                 perfect=cfg.perfect_critic, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda,
                                 rename=cfg.policy_augment, actors=cfg.rollout_actors, address=cfg.ray_address,
                                 opponents=cfg.opponents, max_snapshots=cfg.max_snapshots)
    elif cfg.engine == "batched":
        from .vector_selfplay import VectorCollector

        collector = VectorCollector(cfg.rules_obj, cfg.n_tables, cfg.seed * 1_000_003 + done, pool,
                                    perfect=cfg.perfect_critic, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda,
                                    rename=cfg.policy_augment)
    else:
        collector = SelfPlayCollector(cfg.rules_obj, cfg.n_tables, cfg.seed * 1_000_003 + done, pool,
                                      perfect=cfg.perfect_critic, workers=cfg.workers)
    try:
        return _train(cfg, run_dir, run_name, point, done, state, collector, progress, init)
    finally:
        collector.close()


def _read_run_config(run_dir: Path) -> tuple[TrainConfig, str]:
    """The config and run name stored in ``run_dir/config.yaml``; raises ``CheckpointError``
    for a missing or unreadable file, ``ConfigError`` for bad keys, each naming the file."""
    path = run_dir / "config.yaml"
    if not path.is_file():
        raise CheckpointError(f"{run_dir}: not a run folder (config.yaml is missing)")
    try:
        text = read_text(path, MAX_RUN_FILE_BYTES)
    except DataFileError as e:
        raise CheckpointError(f"{path}: cannot read the run's config, {_why(e, path)}") from None
    try:
        data = parse_yaml(text, str(path))
    except DataFileError as e:  # not YAML, nested too deeply, an int over Python's digit limit
        raise CheckpointError(f"{path}: corrupt run config, {_why(e, path)}") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path}: corrupt run config, expected a mapping of config keys and 'run_name', "
                              f"got {type(data).__name__}")
    data = dict(data)
    if "run_name" not in data and "iterations" in data:  # training/iterate.py's config.yaml
        raise CheckpointError(f"{run_dir}: not a `belote train` run: it is a `belote iterate` run (its config.yaml "
                              f"has 'iterations'); continue it with belote iterate --resume {run_dir}")
    run_name = data.pop("run_name", None)
    if not isinstance(run_name, str) or not run_name:
        raise CheckpointError(f"{path}: corrupt run config, 'run_name' must be a non-empty string, got {run_name!r}")
    try:
        return TrainConfig.from_dict(data), run_name
    except ValueError as e:  # ConfigError, RuleOptionError
        raise ConfigError(f"{path}: {e}") from None


def _read_trainer_state(path: Path) -> dict:
    """``trainer.json`` of a checkpoint (at most ``MAX_RUN_FILE_BYTES``): ``timesteps`` (int
    >= 0) and the schedule (``next_ckpt``, ``next_eval``, ``next_snapshot``: ints;
    ``snapshots``: pool folder names ``snap_<step>``; ``train_seconds``: the run's wall
    time so far, a finite number >= 0), no other key (``TRAINER_KEYS``);
    raises ``CheckpointError`` naming the file and the bad entry. The values are checked
    against the run and the checkpoint by ``_check_trainer_state``."""
    try:
        data = read_json(path, MAX_RUN_FILE_BYTES)
    except DataFileError as e:
        raise CheckpointError(f"{path}: corrupt trainer state, {_why(e, path)}") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path}: corrupt trainer state, expected a JSON object, got {type(data).__name__}")
    for key in data:
        if key not in TRAINER_KEYS:
            raise CheckpointError(f"{path}: corrupt trainer state, unknown key {short_repr(key)}; allowed keys: "
                                  f"{', '.join(TRAINER_KEYS)}")
    for key in ("timesteps", "next_ckpt", "next_eval", "next_snapshot"):
        v = data.get(key, 0)
        if type(v) is not int or v < 0 or (key == "timesteps" and key not in data):
            raise CheckpointError(f"{path}: corrupt trainer state, {key!r} must be a non-negative int, got "
                                  f"{short_repr(data.get(key, 'nothing'))}")
    v = data.get("train_seconds", 0.0)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not (0 <= v < 1e15):  # no float overflow on huge ints
        raise CheckpointError(f"{path}: corrupt trainer state, 'train_seconds' must be a finite number >= 0, got "
                              f"{short_repr(v)}")
    snaps = data.get("snapshots", [])
    if not isinstance(snaps, list) or not all(isinstance(n, str) and _SNAP_NAME.fullmatch(n) for n in snaps):
        raise CheckpointError(f"{path}: corrupt trainer state, 'snapshots' must be a list of pool folder names "
                              f"(snap_<step>, a step of at most 30 digits), got {short_repr(snaps)}")
    return data


_SNAP_NAME = re.compile(r"snap_([0-9]{1,30})")
#: trainer.json's schedule keys and the config keys setting their intervals.
_SCHEDULE = (("next_ckpt", "checkpoint_every"), ("next_eval", "eval_every"), ("next_snapshot", "snapshot_every"))


def _saved_setting(meta_path: Path, meta: dict, cfg: TrainConfig, key: str) -> int:
    """The int config value ``key`` a checkpoint was written with (its ``meta.json``
    ``config``), or the run's current one when the checkpoint does not record it."""
    saved = meta.get("config")
    if not isinstance(saved, dict) or key not in saved:
        return getattr(cfg, key)
    v = saved[key]
    if type(v) is not int or v < 0:
        raise CheckpointError(f"{meta_path}: corrupt metadata, config key {key!r} must be a non-negative int, "
                              f"got {v!r}")
    return v


def _check_trainer_state(path: Path, trainer: dict, step: int, meta: dict, cfg: TrainConfig) -> None:
    """``trainer.json`` against the run's config, the checkpoint folder's step and the
    checkpoint's ``meta.json``; raises ``CheckpointError`` naming the file and the field."""
    meta_path = path.parent / "meta.json"
    t = trainer["timesteps"]
    total = max(cfg.total_timesteps, _saved_setting(meta_path, meta, cfg, "total_timesteps"))
    per_table = 1 if cfg.engine == "batched" else cfg.rules_obj.players  # decisions per table and rollout step
    rollout = per_table * max(cfg.n_tables * cfg.n_steps, _saved_setting(meta_path, meta, cfg, "n_tables")
                              * _saved_setting(meta_path, meta, cfg, "n_steps"))
    if t > total + rollout - 1:  # the last rollout may pass total_timesteps by less than one rollout
        raise CheckpointError(f"{path}: corrupt trainer state, 'timesteps' must be an int in 0..{total + rollout - 1} "
                              f"(the run's total_timesteps {total} plus less than one rollout of {rollout}), got "
                              f"{short_repr(t)}")
    if t != step:
        raise CheckpointError(f"{path}: corrupt trainer state, 'timesteps' {t} differs from the checkpoint folder's "
                              f"step {step} ({path.parent.name})")
    if type(meta.get("timesteps")) is not int or meta["timesteps"] != t:
        raise CheckpointError(f"{meta_path}: 'timesteps' {meta.get('timesteps', 'nothing')!r} differs from "
                              f"trainer.json's {t}")
    for key, every_key in _SCHEDULE:
        every = _saved_setting(meta_path, meta, cfg, every_key)  # the interval the schedule was made with
        if every and trainer.get(key, 0) > t + every:
            raise CheckpointError(f"{path}: corrupt trainer state, {key!r} must be at most timesteps + {every_key} "
                                  f"= {t + every}, got {short_repr(trainer[key])}")
    snaps = trainer.get("snapshots", [])
    for i, name in enumerate(snaps):
        if int(_SNAP_NAME.fullmatch(name).group(1)) > t:
            raise CheckpointError(f"{path}: corrupt trainer state, 'snapshots' names {name}, a snapshot after the "
                                  f"checkpoint's {t} steps")
        if name in snaps[:i]:
            raise CheckpointError(f"{path}: corrupt trainer state, 'snapshots' lists {name} twice")


def _reschedule(state: dict, cfg: TrainConfig, done: int) -> None:
    """After a config edit that shortened an interval (``checkpoint_every`` ...), the next
    event comes at most one new interval after the resume point (announced)."""
    for key, every_key in _SCHEDULE:
        every = getattr(cfg, every_key)
        if every and state[key] > done + every:
            print(f"{every_key} is now {every}: the next one moves from step {state[key]} to {done + every}",
                  flush=True)
            state[key] = done + every


@dataclass
class _ResumePoint:
    """A checkpoint whose every file was checked, loaded."""

    folder: Path
    trainer: dict
    net: BeloteNet
    optimizer: dict
    snapshots: list  # (pool folder name, BeloteNet)
    bid_net: BeloteNet | None = None  # bids/ of a bid_learner: q run
    meta: dict | None = None  # meta.json
    bid_state: dict | None = None  # BID_STATE_FILE's tensors (None: an older checkpoint without it)


def _resume_point(run_dir: Path, cfg: TrainConfig, run_name: str) -> _ResumePoint:
    """The newest usable ``checkpoints/step_*`` folder of a run, loaded. Newer damaged ones
    are skipped, each announced by a ``warning:`` line on stderr (the damaged file, why, and
    the checkpoint used); raises ``CheckpointError`` naming each damaged file when none is
    usable."""
    folders = _step_folders(run_dir)
    if not folders:
        raise CheckpointError(f"{run_dir}: no complete checkpoint under checkpoints/step_*")
    damaged = []
    for step, folder in folders:
        try:
            point = _load_checkpoint(run_dir, folder, step, cfg, run_name)
        except CheckpointError as e:
            damaged.append((folder, str(e)))
            continue
        for bad, why in damaged:
            print(f"warning: checkpoint {bad} is damaged ({why}); resuming from the previous checkpoint {folder}",
                  file=sys.stderr, flush=True)
        return point
    raise CheckpointError(f"{run_dir}: no usable checkpoint under checkpoints/step_* (each is damaged, newest "
                          "first):\n" + "\n".join(f"  - {why}" for _, why in damaged))


def _load_checkpoint(run_dir: Path, folder: Path, step: int, cfg: TrainConfig, run_name: str) -> _ResumePoint:
    """Load and check every file of a checkpoint folder; raises ``CheckpointError`` naming
    the damaged file."""
    if not folder.is_dir():
        raise CheckpointError(f"{folder}: not a folder (a checkpoint is a folder holding {', '.join(CHECKPOINT_FILES)})")
    for name in CHECKPOINT_FILES:
        if not (folder / name).is_file():
            raise CheckpointError(f"{folder / name}: missing, the checkpoint is incomplete")
    trainer = _read_trainer_state(folder / "trainer.json")
    net, meta = load_model(folder)  # validates versions, shapes, finite weights (check_finite)
    if meta["net"] != net_config(cfg):
        raise CheckpointError(f"{folder}: network {meta['net']} does not match the run's config {net_config(cfg)}")
    if meta.get("run_name") != run_name:
        raise CheckpointError(f"{folder / 'meta.json'}: 'run_name' {meta.get('run_name')!r} is not this run's "
                              f"({run_name!r} in config.yaml)")
    _check_trainer_state(folder / "trainer.json", trainer, step, meta, cfg)
    optimizer = _read_optimizer_state(folder / "optimizer.pt", cfg)
    bid_net = bid_state = None
    if cfg.bid_learner == "q":  # the run learns its bids: a checkpoint without them is damaged
        sub = folder / BIDS_SUBDIR
        if not sub.is_dir():
            raise CheckpointError(f"{sub}: missing, the checkpoint is incomplete (the run learns its bids, "
                                  "bid_learner: q, and meta.json declares bids/ in parts)")
        bid_net, _ = load_model(sub)  # CheckpointError names a damaged file
        if (folder / BID_STATE_FILE).exists():
            bid_state = _read_bid_state(folder / BID_STATE_FILE, cfg)
    snapshots = []
    if cfg.opponents != {"self": 1.0}:  # the run has an opponent pool (as in train())
        for name in trainer.get("snapshots", []):
            try:
                snap, _ = load_model(run_dir / "pool" / name)
            except CheckpointError as e:
                raise CheckpointError(f"{folder / 'trainer.json'}: its opponent snapshot pool/{name} cannot be "
                                      f"loaded ({e})") from None
            snapshots.append((name, snap))
    return _ResumePoint(folder, trainer, net, optimizer, snapshots, bid_net, meta, bid_state)


def _read_bid_state(path: Path, cfg: TrainConfig) -> dict:
    """``BID_STATE_FILE``: safetensors (read without running code), its size bounded by the
    run's replay and bid network first, its tensors checked against a learner of ``cfg``
    (``BidLearner.load_replay_state``); raises ``CheckpointError`` naming the file."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    from .vector_selfplay import BidLearner

    probe = BidLearner(cfg.bid_net, cfg.bid_lr, 0.0, cfg.bid_replay, 0, cfg.activation, rules=cfg.rules_obj)
    n_params = sum(p.numel() for p in probe.fit_net.parameters())
    bound = cfg.bid_replay * (4 * probe.obs.shape[1] + 16) + 3 * 4 * n_params + (1 << 20)
    try:
        size = path.stat().st_size
    except OSError as e:
        raise CheckpointError(f"{path}: cannot read the bid learner's state ({e})") from None
    if size > bound:
        raise CheckpointError(f"{path}: damaged bid learner state, {size:,} bytes, more than the {bound:,} a replay of "
                              f"{cfg.bid_replay} bids and the bid network's Adam state can take")
    try:
        state = load_file(str(path))
    except (SafetensorError, OSError, ValueError, RuntimeError) as e:
        raise CheckpointError(f"{path}: damaged bid learner state, cannot be read ({e})") from None
    try:
        probe.load_replay_state(state)
    except ValueError as e:
        raise CheckpointError(f"{path}: damaged bid learner state, {e}") from None
    return state


def _torch_reason(e: Exception) -> str:
    """The useful part of a ``torch.load`` error (not its advice to load unsafely)."""
    lines = [ln.strip() for ln in str(e).splitlines()]
    keep = [ln for ln in lines if ln and "weights_only" not in ln and "WeightsUnpickler error" not in ln
            and not ln.startswith("Check the documentation")]
    text = " ".join(keep) or type(e).__name__
    return text.split(". This is an internal")[0]


def _optimizer_probe(cfg: TrainConfig) -> th.optim.Optimizer:
    """A fresh optimizer of the policy ``_train`` builds for ``cfg`` (the same classes)."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    spec = StreamSpec(1, obs_size(cfg.rules_obj) + (PERFECT_SIZE if cfg.perfect_critic else 0),
                      num_actions(cfg.rules_obj))
    cls = PerfectCriticPolicy if cfg.perfect_critic else MaskableActorCriticPolicy
    policy = cls(spec.observation_space, spec.action_space, lambda _: cfg.learning_rate, **_policy_kwargs(cfg))
    return policy.optimizer


def _optimizer_bound(probe: th.optim.Optimizer) -> int:
    """Bound (bytes) on the data of the optimizer state of ``probe``'s parameters: at most
    three float32 buffers per parameter (Adam's ``exp_avg``, ``exp_avg_sq`` and, with
    amsgrad, ``max_exp_avg_sq``) plus 1 MiB for ``data.pkl`` and the step counters."""
    n = sum(p.numel() for g in probe.param_groups for p in g["params"])
    return 3 * 4 * n + (1 << 20)


def _check_optimizer_zip(path: Path, bound: int, n_tensors: int) -> None:
    """The zip archive ``path`` declares at most ``bound`` bytes of data in all (its
    members' uncompressed sizes, from the central directory) and at most a few members per
    parameter tensor (``n_tensors`` of them), and its size on disk is at most ``bound`` + 1 MiB; checked before
    ``torch.load`` inflates anything (a zip bomb); raises ``CheckpointError``."""
    bad = f"{path}: damaged optimizer state,"
    try:
        size = path.stat().st_size
    except OSError as e:
        raise CheckpointError(f"{path}: cannot read the optimizer state ({e})") from None
    if size > bound + (1 << 20):
        raise CheckpointError(f"{bad} {size:,} bytes, more than the {bound + (1 << 20):,} allowed for the "
                              "optimizer state of this run's network")
    try:
        with zipfile.ZipFile(path) as z:
            members = z.infolist()
    except (OSError, zipfile.BadZipFile, ValueError, EOFError) as e:
        try:  # torch.load's own reader (it reads the archive's directory only): its words for the damage
            th._C.PyTorchFileReader(str(path))
        except Exception as te:
            raise CheckpointError(f"{bad} cannot be read ({_torch_reason(te)})") from None
        raise CheckpointError(f"{bad} its zip archive cannot be inspected ({e}); refused before torch.load") from None
    if len(members) > 4 * n_tensors + 64:
        raise CheckpointError(f"{bad} {len(members):,} archive members, more than the {4 * n_tensors + 64} allowed "
                              "for this run's network")
    declared = sum(m.file_size for m in members)
    if declared > bound:
        raise CheckpointError(f"{bad} its archive members declare {declared:,} uncompressed bytes, more than the "
                              f"{bound:,} the optimizer state of this run's network can hold (refused before "
                              "reading)")


def _read_optimizer_state(path: Path, cfg: TrainConfig) -> dict:
    """``optimizer.pt``: a ``torch.save`` zip file read with ``weights_only=True`` (nothing
    in it is ever run), holding the optimizer state of the run's network, its size checked
    first (``_check_optimizer_zip``); raises ``CheckpointError`` naming the file."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError as e:
        raise CheckpointError(f"{path}: cannot read the optimizer state ({e})") from None
    if head != b"PK\x03\x04":
        raise CheckpointError(f"{path}: damaged optimizer state, not a file written by torch.save (a zip archive)")
    probe = _optimizer_probe(cfg)
    _check_optimizer_zip(path, _optimizer_bound(probe), sum(len(g["params"]) for g in probe.param_groups))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            state = th.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as e:
        raise CheckpointError(f"{path}: damaged optimizer state, it holds more than tensors (refused, never run: "
                              f"{_torch_reason(e)})") from None
    except Exception as e:  # torch raises RuntimeError and others on a damaged archive
        raise CheckpointError(f"{path}: damaged optimizer state, cannot be read ({_torch_reason(e)})") from None
    _check_optimizer_state(path, state, probe)
    return state


def _like(v, default) -> bool:
    """``v`` has the kind of an optimizer setting whose default is ``default`` (finite numbers)."""
    def number(x):
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

    if isinstance(default, bool):
        return type(v) is bool
    if isinstance(default, (int, float)):
        return number(v)
    if isinstance(default, tuple):
        return isinstance(v, (tuple, list)) and len(v) == len(default) and all(number(x) for x in v)
    return True


def _check_optimizer_state(path: Path, state, probe: th.optim.Optimizer) -> None:
    """``state`` is an optimizer state_dict that fits ``probe``'s parameters (groups,
    shapes, finite values, settings of the right kind); raises ``CheckpointError``."""
    bad = f"{path}: damaged optimizer state,"
    if not isinstance(state, dict) or not isinstance(state.get("state"), dict) \
            or not isinstance(state.get("param_groups"), list) \
            or not all(isinstance(g, dict) and isinstance(g.get("params"), list) for g in state["param_groups"]):
        raise CheckpointError(f"{bad} expected an optimizer state_dict ('state' and 'param_groups' with "
                              f"'params' lists), got {type(state).__name__}")
    params = [p for g in probe.param_groups for p in g["params"]]
    ids = [i for g in state["param_groups"] for i in g["params"]]
    if [len(g["params"]) for g in state["param_groups"]] != [len(g["params"]) for g in probe.param_groups] \
            or not all(type(i) is int for i in ids) or sorted(ids) != list(range(len(params))):
        raise CheckpointError(f"{bad} its parameter groups {[len(g['params']) for g in state['param_groups']]} do "
                              f"not fit the network's {[len(g['params']) for g in probe.param_groups]}")
    for key, default in probe.defaults.items():
        for g in state["param_groups"]:
            if not _like(g.get(key, default), default):
                raise CheckpointError(f"{bad} param group setting {key!r} is {g[key]!r}, expected a value like "
                                      f"{default!r}")
    param_of = dict(zip(ids, params))
    for i, entry in state["state"].items():
        if i not in param_of or not isinstance(entry, dict):
            raise CheckpointError(f"{bad} 'state' entry {i!r} is not a parameter's state")
        for k, v in entry.items():
            if not isinstance(v, th.Tensor):
                raise CheckpointError(f"{bad} parameter {i}'s {k!r} is a {type(v).__name__}, not a tensor")
            want = [] if k == "step" else list(param_of[i].shape)
            if list(v.shape) != want:
                raise CheckpointError(f"{bad} parameter {i}'s {k!r} has shape {list(v.shape)}, the network's "
                                      f"parameter has {want}")
            if not bool(th.isfinite(v).all()):
                raise CheckpointError(f"{bad} parameter {i}'s {k!r} holds NaN or infinite values")
    try:
        probe.load_state_dict(state)
    except (ValueError, TypeError, KeyError, RuntimeError) as e:
        raise CheckpointError(f"{bad} it does not fit the network ({e})") from None


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


def _policy_kwargs(cfg: TrainConfig) -> dict:
    activation = {"relu": th.nn.ReLU, "tanh": th.nn.Tanh}[cfg.activation]
    # SB3's Adam settings for PPO (eps 1e-5), in torch's fused kernel (about 5x faster a step on CPU)
    return {"net_arch": {"pi": cfg.net_pi, "vf": cfg.net_vf}, "activation_fn": activation,
            "optimizer_kwargs": {"eps": 1e-5, "fused": True}}


def _resume_log_name(run_dir: Path, done: int) -> str:
    """A CSV log name of its own for each resume attempt from the step ``done``:
    ``progress_from_<step>.csv``, then ``progress_from_<step>_2.csv``, ... (claimed
    atomically, so an earlier attempt's rows, a killed one's too, are never overwritten)."""
    base, n = f"progress_from_{done:09d}", 1
    while True:
        name = f"{base}.csv" if n == 1 else f"{base}_{n}.csv"
        try:
            os.close(os.open(run_dir / name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            return name
        except FileExistsError:
            n += 1


def attach_bid_learner(model: SelfPlayPPO, cfg: TrainConfig, seed: int, bf16: bool) -> None:
    """Give ``model``'s ``VectorCollector`` the bid-value network of ``cfg`` (``bid_learner:
    q``: ``training.vector_selfplay.BidLearner`` with ``bid_net``, ``bid_lr``,
    ``bid_epsilon``, ``bid_replay``, ``activation``, ``bid_augment``, ``bid_average``; its
    draws seeded by ``seed``, bfloat16 matrix products when ``bf16``) and ``model`` the fit's
    settings (``bid_fit_steps``, ``bid_fit_batch``, ``bid_fit_overlap``). Used by the trainer
    and by ``scripts/bench_train.py --bids``."""
    from .vector_selfplay import BidLearner

    model.collector.bids = BidLearner(cfg.bid_net, cfg.bid_lr, cfg.bid_epsilon, cfg.bid_replay, seed, cfg.activation,
                                      bf16=bf16, augment=cfg.bid_augment, average=cfg.bid_average,
                                      rules=cfg.rules_obj)
    model.bid_fit_steps, model.bid_fit_batch = cfg.bid_fit_steps, cfg.bid_fit_batch
    model.bid_fit_overlap = cfg.bid_fit_overlap


class _LearningRate:
    """SB3's learning-rate schedule (a function of the progress remaining, ``1 -
    timesteps / total_timesteps``: a resumed run's ``learn`` counts from its checkpoint's
    timestep to ``cfg.total_timesteps``) as ``TrainConfig.learning_rate_at`` gives it."""

    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg

    def __call__(self, progress_remaining: float) -> float:
        return self.cfg.learning_rate_at((1.0 - progress_remaining) * self.cfg.total_timesteps)


def _train(cfg: TrainConfig, run_dir: Path, run_name: str, point: _ResumePoint | None, done: int, state: dict,
           collector: SelfPlayCollector, progress: bool, init: tuple[BeloteNet, dict] | None = None) -> Path:
    model = SelfPlayPPO(
        PerfectCriticPolicy if cfg.perfect_critic else "MlpPolicy",
        StreamSpec(cfg.n_tables * (1 if cfg.engine == "batched" else cfg.rules_obj.players),
                   obs_size(cfg.rules_obj) + (PERFECT_SIZE if cfg.perfect_critic else 0), num_actions(cfg.rules_obj)),
        learning_rate=_LearningRate(cfg), n_steps=cfg.n_steps,
        batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda,
        clip_range=cfg.clip_range, ent_coef=cfg.ent_coef, vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
        policy_kwargs=_policy_kwargs(cfg), seed=cfg.seed, device="cpu", verbose=0)
    model.collector = collector
    model.random_bids_until = cfg.random_bids_until
    bf16 = cfg.bf16 == "true" or (cfg.bf16 == "auto" and bf16_supported())
    print(f"self-play: hidden layers in {'bfloat16' if bf16 else 'float32'} (bf16: {cfg.bf16}; this CPU "
          f"{'has' if bf16_supported() else 'lacks'} native bfloat16)", flush=True)
    if cfg.bid_learner == "q":
        attach_bid_learner(model, cfg, cfg.seed + done, bf16)
        if point is not None:  # _load_checkpoint loaded its bids/ (required)
            collector.bids.load_state_dict(point.bid_net.state_dict())
            if point.bid_state is not None:
                collector.bids.load_replay_state(point.bid_state)  # checked by _load_checkpoint
            else:
                print(f"warning: checkpoint {point.folder} has no {BID_STATE_FILE} (written by an older version): "
                      "the bid learner's replay and its Adam state restart empty", file=sys.stderr, flush=True)
    if bf16:
        use_bf16(model.policy)
    logger = _make_logger(run_dir, "progress.csv" if point is None else _resume_log_name(run_dir, done),
                          None if point is None else done + 1)  # drop a killed invocation's steps past `done`
    model.set_logger(logger)
    if point is not None:  # every file was checked by _resume_point
        model.policy.load_state_dict(point.net.state_dict(), strict=False)
        model.policy.optimizer.load_state_dict(point.optimizer)
        model.num_timesteps = done
        if collector.pool is not None:
            for i, (name, snap) in enumerate(point.snapshots):
                collector.add_snapshot(NetworkPolicy(snap, deterministic=False, seed=i, name=name))
    else:
        _warm_start(model, cfg, logger, progress, init)
    hparams = {k: (str(v) if isinstance(v, (list, dict)) or v is None else v) for k, v in cfg.to_dict().items()}
    hparams.update(action_table_version=ACTION_TABLE_VERSION, obs_encoder_version=OBS_ENCODER_VERSION)
    logger.record("hparams", HParam(hparams, {"charts/winrate_vs_normal": 0.0, "charts/winrate_vs_easy": 0.0}),
                  exclude=("stdout", "log", "json", "csv"))
    t0 = time.time()
    remaining = max(0, cfg.total_timesteps - done)
    callback = _Progress(cfg, run_dir, run_name, progress, collector, state)
    if remaining:
        model.learn(total_timesteps=remaining, reset_num_timesteps=False, callback=callback)
    wall = time.time() - t0
    state["train_seconds"] = callback.seconds()
    if callback.stopped:
        print(f"stopped by max_minutes ({cfg.max_minutes:g}) after {model.num_timesteps} steps", flush=True)
    results = {"run_name": run_name, "timesteps": int(model.num_timesteps), "wall_seconds": round(wall, 1),
               "train_seconds": round(state["train_seconds"], 1), "stopped_by_max_minutes": callback.stopped,
               "resumed_from": done if point is not None else None,
               "timesteps_this_invocation": int(model.num_timesteps) - done, "bf16": bf16}
    if cfg.eval_pairs:
        results.update(_evaluate(model, cfg, logger, EVAL_TIERS, cfg.eval_pairs, seed=cfg.seed, progress=progress))
        logger.dump(model.num_timesteps)
    save_checkpoint(run_dir / "checkpoints" / "final", model, cfg, run_name, dict(state),
                    {"wall_seconds": round(wall, 1), "bf16": bf16, "evaluation": {k: v for k, v in results.items() if k.startswith("vs_")}})
    _write_text(run_dir / "eval.json", json.dumps(results, indent=2))
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
