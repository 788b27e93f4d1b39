"""``belote train-rllib`` configuration: a dataclass with one documented field per setting,
read from YAML (the pattern of ``training.config``). Imports no ray."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from belote_env import Rules
from belote_env.env import REWARD_MODES
from belote_env.jsonfile import DataFileError, parse_yaml, read_text

from ..config import MAX_CONFIG_BYTES, ConfigError, check_layers, check_name, check_number

__all__ = ["RLlibConfig", "ConfigError", "load_rllib_config"]


@dataclass
class RLlibConfig:
    """Settings of one RLlib PPO self-play run (``belote train-rllib --config FILE``)."""

    exp_name: str = "rllib"
    """Experiment name, part of the run name ``belote_v0__{exp_name}__{seed}__{unix time}``."""
    seed: int = 0
    """Seeds RLlib (``config.debugging(seed=...)``: env runners' decks, module init) and the evaluation deals."""
    total_timesteps: int = 100_000
    """Stop once this many env steps (decisions of all four seats) were sampled."""
    time_budget_s: float = 0
    """Also stop after this many seconds of training (0: no time limit)."""
    num_cpus: int | None = 2
    """CPUs given to the local Ray started by the run (``ray.init(num_cpus=...)``; null: all).
    Ignored with ``--address`` (the cluster's resources are used)."""
    num_env_runners: int = 2
    """Remote EnvRunner actors sampling episodes, one CPU each (0: sample in the driver)."""
    num_envs_per_env_runner: int = 8
    """belote_v0 copies stepped side by side in each EnvRunner (their acting seats share one
    batched forward pass: 8 copies sample about 2.5x faster than 1)."""
    num_learners: int = 0
    """Remote Learner actors (0: one learner in the driver process)."""
    num_cpus_per_learner: int = 1
    """CPUs reserved for each remote Learner (with ``num_learners >= 1``)."""
    torch_threads: int = 1
    """torch intra-op threads of the driver process, which holds the learner when
    ``num_learners`` is 0 (remote actors get Ray's ``OMP_NUM_THREADS`` = their CPUs)."""
    rollout_fragment_length: int | str = "auto"
    """Env steps per EnvRunner sample call, or "auto" (train batch / runners)."""
    train_batch_size: int = 4000
    """Env steps per training iteration, per learner (``train_batch_size_per_learner``)."""
    minibatch_size: int = 512
    """PPO minibatch size (agent steps of the trained module)."""
    num_epochs: int = 4
    """PPO epochs over each train batch."""
    lr: float = 3e-4
    """Adam learning rate."""
    gamma: float = 1.0
    """Discount (a deal is short, its reward comes at the end)."""
    lambda_: float = 0.95
    """GAE lambda."""
    clip_param: float = 0.2
    """PPO clip range."""
    entropy_coeff: float = 0.01
    """Entropy bonus coefficient."""
    vf_loss_coeff: float = 0.5
    """Value loss coefficient."""
    grad_clip: float = 0.5
    """Gradient norm clipping."""
    net_pi: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layers of the policy MLP (BeloteNet ``pi``)."""
    net_vf: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layers of the value MLP (BeloteNet ``vf``)."""
    activation: str = "relu"
    """Activation: relu or tanh."""
    rules: dict[str, Any] = field(default_factory=dict)
    """Rule options (RULES.md) overriding the defaults; episodes are single deals."""
    reward_mode: str = "scaled"
    """belote_v0 reward: scaled (point difference / 162), points or win."""
    win_rate_threshold: float = 0.55
    """Add a frozen snapshot of "main" to the opponents once main's deal win rate (ties 1/2)
    over its most recent ``snapshot_min_deals`` deals since the last snapshot reaches this."""
    snapshot_min_deals: int = 500
    """Deals (at least; whole iterations) over which main's win rate is judged."""
    max_snapshots: int = 5
    """Frozen snapshots kept; past this, a new snapshot overwrites the oldest one."""
    checkpoint_every: int = 10
    """Write an RLlib checkpoint (and its exported model) every this many iterations (and at the end)."""
    eval_pairs: int = 200
    """Deal pairs of the duplicate matches of the exported model against easy and normal (0: none)."""
    eval_workers: int = 1
    """Processes for those duplicate matches."""
    log_dir: str = "runs"
    """Folder holding one sub-folder per run."""

    def __post_init__(self) -> None:
        ints = ("seed", "total_timesteps", "num_env_runners", "num_envs_per_env_runner", "num_learners",
                "num_cpus_per_learner", "torch_threads", "train_batch_size", "minibatch_size", "num_epochs", "snapshot_min_deals",
                "max_snapshots", "checkpoint_every", "eval_pairs", "eval_workers")
        may_be_zero = ("seed", "num_env_runners", "num_learners", "snapshot_min_deals", "eval_pairs")
        for name in ints:
            v = getattr(self, name)
            if type(v) is not int or (v < 0 if name in may_be_zero else v <= 0):
                kind = "non-negative" if name in may_be_zero else "positive"
                raise ConfigError(f"config key {name!r} must be a {kind} int, got {v!r}")
        if self.num_cpus is not None and (type(self.num_cpus) is not int or self.num_cpus <= 0):
            raise ConfigError(f"config key 'num_cpus' must be a positive int or null, got {self.num_cpus!r}")
        if self.rollout_fragment_length != "auto" and (
                type(self.rollout_fragment_length) is not int or self.rollout_fragment_length <= 0):
            raise ConfigError(f"config key 'rollout_fragment_length' must be 'auto' or a positive int, "
                              f"got {self.rollout_fragment_length!r}")
        if self.minibatch_size > self.train_batch_size:
            raise ConfigError(f"config key 'minibatch_size' ({self.minibatch_size}) must not exceed "
                              f"'train_batch_size' ({self.train_batch_size})")
        check_name("exp_name", self.exp_name, "part of the run folder's name")
        if any(c in self.exp_name for c in "/\\") or self.exp_name in (".", ".."):
            raise ConfigError(f"config key 'exp_name' names a run folder: no '/' or '\\', got {self.exp_name!r}")
        check_name("log_dir", self.log_dir, "the folder of the run folders")
        for name in ("time_budget_s", "lr", "clip_param", "entropy_coeff", "vf_loss_coeff", "grad_clip"):
            check_number(name, getattr(self, name))
        for name in ("gamma", "lambda_", "win_rate_threshold"):
            check_number(name, getattr(self, name), 0.0, 1.0)
        if self.activation not in ("relu", "tanh"):
            raise ConfigError(f"config key 'activation' must be 'relu' or 'tanh', got {self.activation!r}")
        if not isinstance(self.reward_mode, str) or self.reward_mode not in REWARD_MODES:
            raise ConfigError(f"config key 'reward_mode' must be one of {REWARD_MODES}, got {self.reward_mode!r}")
        for name in ("net_pi", "net_vf"):
            check_layers(name, getattr(self, name))
        if not isinstance(self.rules, dict):
            raise ConfigError(f"config key 'rules' must be a mapping of rule options, got {self.rules!r}")
        Rules.from_dict(self.rules)  # raises RuleOptionError naming a bad option

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def rules_obj(self) -> Rules:
        """The ``Rules`` of the run (single-deal episodes)."""
        return Rules.from_dict(self.rules).replace(target=None, max_deals=None)

    @property
    def model_config(self) -> dict[str, Any]:
        """The RLModule ``model_config`` (``training.rllib.module``)."""
        return {"pi": list(self.net_pi), "vf": list(self.net_vf), "activation": self.activation}

    @property
    def env_config(self) -> dict[str, Any]:
        """The ``env_config`` of ``BeloteMultiAgentEnv``: single deals under the run's rules."""
        return {"rules": self.rules_obj.to_dict(), "episode": "deal", "reward_mode": self.reward_mode}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RLlibConfig":
        """Build from a mapping; raises ``ConfigError`` naming an unknown key and the known ones."""
        if not isinstance(d, dict):
            raise ConfigError(f"an RLlib training config must be a mapping, got {type(d).__name__}")
        known = [f.name for f in dataclasses.fields(cls)]
        for k in d:
            if k not in known:
                raise ConfigError(f"unknown config key {k!r}; known keys: {', '.join(known)}")
        return cls(**d)


def load_rllib_config(path: str | Path, overrides: dict[str, Any] | None = None) -> RLlibConfig:
    """Read a YAML RLlib config (at most ``MAX_CONFIG_BYTES``); ``overrides`` replace keys.
    Raises ``ConfigError`` naming the file."""
    path = Path(path)
    try:
        data = parse_yaml(read_text(path, MAX_CONFIG_BYTES), str(path)) or {}
    except DataFileError as e:  # unreadable, over the bound, not YAML, nested too deeply, a huge int
        raise ConfigError(str(e)) from None
    if not isinstance(data, dict):
        raise ConfigError(f"config {path} must hold a mapping of keys, got {type(data).__name__}")
    return RLlibConfig.from_dict({**data, **(overrides or {})})
