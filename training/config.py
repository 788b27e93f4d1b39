"""Training run configuration: a dataclass with one documented field per setting, read from YAML."""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from belote_env.games import game_of
from belote_env import Rules
from belote_env.config import RuleOptionError
from belote_env.jsonfile import DataFileError, parse_yaml, read_text

__all__ = ["TrainConfig", "ConfigError", "load_config", "read_config_file", "check_number", "check_name",
           "check_layers", "MAX_CONFIG_BYTES", "MAX_N_TABLES", "MAX_ROLLOUT", "UPPER_BOUNDS"]

#: The bounds of ``policies.network`` (``MAX_HIDDEN_LAYERS``, ``MAX_LAYER_WIDTH``), repeated
#: here so that configs load without torch; tests/test_training.py checks they agree.
MAX_HIDDEN_LAYERS = 16
MAX_LAYER_WIDTH = 16384
#: Bound on a YAML config file (bytes), checked before it is read; a config is a few KB.
MAX_CONFIG_BYTES = 1 << 20
#: Bound on ``n_tables``: the batched collector keeps about 0.3 MB of decisions per table
#: (two deals' worth of 618-float observations), the reference one a ``GameState`` per table
#: and seat stream; 65,536 tables hold about 20 GB. ``belote_env.vector.MAX_TABLES`` (the
#: engine's own bound) is larger.
MAX_N_TABLES = 1 << 16
#: Bound on the decisions of one rollout (``n_steps * n_tables``, times the seats with the
#: reference engine): the PPO buffer holds them all.
MAX_ROLLOUT = 1 << 24
#: Upper bounds of the other sizes of a config, checked before anything is allocated:
#: (key, bound, why).
UPPER_BOUNDS = (
    ("total_timesteps", 1 << 40, "about 10^12 decisions"),
    ("eval_pairs", 10_000_000, "training.evaluate.MAX_PAIRS deal pairs a match"),
    ("periodic_eval_pairs", 10_000_000, "training.evaluate.MAX_PAIRS deal pairs a match"),
    ("bid_replay", 1 << 21, "bids kept in memory: about 2.5 KB each"),
    ("bid_fit_batch", 1 << 21, "at most the replay's bound"),
    ("max_snapshots", 1000, "frozen snapshots kept in memory"),
    ("imitation_deals", 10_000_000, "warm-start deals kept in memory"),
    ("workers", 256, "processes"),
    ("rollout_actors", 4096, "Ray actors"),
    ("torch_threads", 1024, "threads"),
)


class ConfigError(ValueError):
    """A training config with an unknown key or a bad value."""


def check_number(name: str, v: Any, lo: float = 0.0, hi: float | None = None) -> None:
    """Raise ``ConfigError`` unless ``v`` is a finite number (not a bool) in ``[lo, hi]``."""
    if not isinstance(v, (int, float)) or isinstance(v, bool) or (isinstance(v, int) and abs(v) > 1e300) or (
            not math.isfinite(v)) or v < lo or (hi is not None and v > hi):
        allowed = f"a finite number in [{lo:g}, {hi:g}]" if hi is not None else (
            "a finite non-negative number" if lo == 0 else f"a finite number >= {lo:g}")
        raise ConfigError(f"config key {name!r} must be {allowed}, got {v!r}")


def check_name(name: str, v: Any, what: str) -> None:
    """Raise ``ConfigError`` unless ``v`` is a non-empty string."""
    if not isinstance(v, str) or not v:
        raise ConfigError(f"config key {name!r} must be a non-empty string ({what}), got {v!r}")


def check_layers(name: str, v: Any) -> None:
    """Raise ``ConfigError`` unless ``v`` is a list of hidden layer sizes ``BeloteNet`` accepts."""
    if not isinstance(v, list) or len(v) > MAX_HIDDEN_LAYERS or not all(
            type(x) is int and 1 <= x <= MAX_LAYER_WIDTH for x in v):
        raise ConfigError(f"config key {name!r} must be a list of at most {MAX_HIDDEN_LAYERS} hidden layer sizes, "
                          f"each an int in 1..{MAX_LAYER_WIDTH} ([]: a linear head), got {v!r}")


def _check_policy_name(key: str, name: str, also: str = "", rules: Rules | None = None) -> None:
    from policies.registry import check_policy_rules, check_policy_spec  # imports torch: only for names that need it

    try:
        check_policy_spec(name)
        if rules is not None:
            check_policy_rules(name, rules)
    except ValueError as e:
        raise ConfigError(f"config key {key!r}: {e}{also}") from None


@dataclass
class TrainConfig:
    """Settings of one self-play run (``belote train --config FILE``)."""

    exp_name: str = "quick"
    """Experiment name, part of the run name ``belote_v0__{exp_name}__{seed}__{unix time}``."""
    seed: int = 0
    """Seeds the tables' decks, torch and the evaluation deals."""
    total_timesteps: int = 200_000
    """Learner decisions (bids and cards, all seats together) to train on."""
    n_tables: int = 16
    """Tables played side by side; each has 4 seat streams, all played by the learner."""
    n_steps: int = 64
    """Decisions per seat stream per rollout (rollout size = 4 * n_tables * n_steps)."""
    batch_size: int = 512
    """PPO minibatch size."""
    n_epochs: int = 4
    """PPO epochs per rollout."""
    learning_rate: float = 3e-4
    """Adam learning rate (of the PPO update; until ``lr_decay_from`` when ``lr_final`` is set)."""
    lr_final: float | None = None
    """With a number: the PPO learning rate goes linearly from ``learning_rate`` at
    ``lr_decay_from`` timesteps to this at ``total_timesteps`` (an annealing phase at the
    end of a run; resumes follow it, as it depends on the timestep alone). ``null``: a
    constant ``learning_rate``."""
    lr_decay_from: int = 0
    """``lr_final``: the timestep where the learning rate starts to fall (below
    ``total_timesteps``)."""
    gamma: float = 1.0
    """Discount (a deal is short, rewards come at its end)."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.2
    """PPO clip range."""
    ent_coef: float = 0.01
    """Entropy bonus coefficient."""
    vf_coef: float = 0.5
    """Value loss coefficient."""
    max_grad_norm: float = 0.5
    """Gradient clipping norm."""
    net_pi: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layers of the policy MLP."""
    net_vf: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layers of the value MLP."""
    activation: str = "relu"
    """Activation: relu or tanh."""
    rules: dict[str, Any] = field(default_factory=dict)
    """Rule options (RULES.md) overriding the defaults; episodes are single deals."""
    log_dir: str = "runs"
    """Folder holding one sub-folder per run (TensorBoard events, config, checkpoints)."""
    checkpoint_every: int = 50_000
    """Write a checkpoint every this many timesteps (and at the end)."""
    eval_pairs: int = 200
    """Deal pairs of the duplicate matches against random, easy and normal at the end (0: none)."""
    eval_every: int = 0
    """Every this many timesteps, duplicate matches against easy and normal (TensorBoard
    ``charts/winrate_vs_easy``, ``charts/winrate_vs_normal``); 0: only at the end."""
    periodic_eval_pairs: int = 100
    """Deal pairs of each periodic duplicate match."""
    opponents: dict[str, float] = field(default_factory=lambda: {"self": 1.0})
    """Opponent pool weights: ``self`` (all four seats learn), ``snapshots`` (frozen past
    learners), or any tier / model path (``easy``, ``normal``)."""
    snapshot_every: int = 0
    """Add a frozen snapshot of the learner to the pool every this many timesteps (0: never)."""
    max_snapshots: int = 10
    """Snapshots kept in the pool (oldest dropped)."""
    imitation_deals: int = 0
    """Warm start: deals of the imitation teacher to clone before self-play (0: none)."""
    imitation_teacher: str = "normal"
    """The tier cloned by the warm start."""
    imitation_epochs: int = 3
    """Epochs over the imitation data."""
    imitation_epsilon: float = 0.1
    """Probability of a random move while generating imitation data (wider coverage)."""
    perfect_critic: bool = False
    """Train with a perfect-information critic (PerfectDou): the value network also sees
    the hidden hands (``training.selfplay.encode_perfect``), which removes most of the
    card-luck noise from the advantages; the policy, the only part that plays, sees the
    observation alone."""
    init_from: str | None = None
    """Start from this model folder's weights (``belote export`` format) instead (checked
    to exist when the config is built; loaded, and its shape checked, before the run
    folder is created)."""
    engine: str = "batched"
    """Where the self-play tables are played: ``batched`` (``belote_env.vector``: all
    tables in one compiled ``BatchedGame``, or ``CutthroatBatchedGame`` at two and three seats,
    ``training.vector_selfplay``; each rollout holds ``n_steps * n_tables`` decisions) or
    ``reference`` (``GameState`` tables, ``training.selfplay.SelfPlayCollector``, optionally
    in ``workers`` processes; each rollout holds ``n_steps * players * n_tables``
    decisions: the configs of the models trained before the batched engine)."""
    random_bids_until: int = 0
    """A curriculum for the batched engine: until this many timesteps the learner's bids
    are drawn uniformly among its legal bids and are not learned from, so that card play
    learns on played deals first. (Early card play is near random, where taking loses on
    average: -55 points per deal at random play; self-play that learns its bids from the
    start learns to pass every hand and then plays no cards at all.) 0: bids learned from
    the start."""
    bid_learner: str = "ppo"
    """Who learns the learner's classic bids: ``ppo`` (the policy network, with the cards)
    or ``q`` (engine ``batched`` only: a bid-value network learned from the learner's own
    deals, ``training.vector_selfplay.BidLearner``, epsilon-greedy; saved in the model's
    ``bids/`` folder and played greedily)."""
    bid_epsilon: float = 0.1
    """``bid_learner: q``: probability of a uniformly random legal bid in training."""
    bid_lr: float = 0.001
    """``bid_learner: q``: Adam learning rate of the bid-value network."""
    bid_net: list[int] = field(default_factory=lambda: [256, 256])
    """``bid_learner: q``: hidden layers of the bid-value network."""
    bid_replay: int = 200_000
    """``bid_learner: q``: the latest bids kept for its regression."""
    bid_fit_steps: int = 32
    """``bid_learner: q``: Adam steps after each rollout."""
    bid_fit_batch: int = 1024
    """``bid_learner: q``: bids per step."""
    max_minutes: float = 0.0
    """Stop training once this many minutes of wall time have gone (the run's total over
    resumes; rollouts, updates, periodic evaluations and checkpoints counted; checked after
    each rollout: the rollout that crosses the limit is still trained on, then a step
    checkpoint is written, so a resume finds the time spent); the final evaluation and
    checkpoint follow. 0: no limit, ``total_timesteps`` alone ends the run."""
    bid_augment: bool = False
    """``bid_learner: q``: fit each replayed bid under a random renaming of the suits
    (``observation.suit_permutation_index``; the deal's value is the same under every
    renaming, RULES.md §1), so the bid values are learned symmetric in the suits."""
    bid_average: bool = False
    """``bid_learner: q``: in training, choose the bids by their values averaged over the
    24 suit renamings, as the exported model plays them (``bid_suit_average``), so the
    card play learns from the deals of those bids (24 forward rows per bid)."""
    policy_augment: bool = False
    """Engine ``batched``, classic rules: the learner plays each PPO decision (cards,
    declarations, announcements; bids when PPO bids) through a random renaming of the suits
    (``training.vector_selfplay.VectorCollector``'s ``rename``), so the policy learns the
    four suits from the same positions (a deal's value is the same under every renaming,
    RULES.md §1)."""
    bid_fit_overlap: bool = False
    """``bid_learner: q``: fit the bid values on one thread while the next rollout is played
    on the other (the rollout's engine, encoder and policy run on one thread), instead of
    after it: the fit then reads the bids of the rollouts before the one being played, so
    the bids of a rollout come from values one rollout older than without it."""
    torch_threads: int = 2
    """torch intra-op threads of the PPO update (the batched engine's rollouts run on one
    thread: their forward passes are too small to share)."""
    bf16: str = "auto"
    """The hidden layers' matrix products in bfloat16 (``training.vector_selfplay.use_bf16``;
    weights, heads and losses stay float32): ``auto`` (when the CPU has native bfloat16,
    AVX512-BF16 or AMX: about 3x faster there), ``true`` or ``false``. A run's figures
    depend on this choice."""
    rollout_actors: int = 0
    """Engine ``batched``: play the tables in this many Ray actors (``training.ray_rollouts``:
    each a share of ``n_tables`` on one CPU, sent the learner's weights every rollout; the
    PPO update stays in the trainer's process); 0 (default): in the trainer's process, no
    Ray. The games depend on the seed and this number. Needs Ray (``.[rllib]``)."""
    ray_address: str | None = None
    """``rollout_actors``: the Ray cluster to use (``"auto"``, ``"ray://host:10001"``);
    None: a local Ray started for the run."""
    workers: int = 1
    """Processes that play the tables (the learner's forward pass and the PPO update stay
    in the main process); 2 uses both cores of a 2-core machine. The games depend on the
    seed and this number."""

    def __post_init__(self) -> None:
        ints = ("seed", "total_timesteps", "n_tables", "n_steps", "batch_size", "n_epochs", "checkpoint_every",
                "eval_pairs", "torch_threads", "eval_every", "periodic_eval_pairs", "snapshot_every",
                "max_snapshots", "imitation_deals", "imitation_epochs", "workers", "random_bids_until", "bid_replay",
                "bid_fit_steps", "bid_fit_batch", "lr_decay_from", "rollout_actors")
        may_be_zero = ("seed", "eval_pairs", "eval_every", "snapshot_every", "imitation_deals", "random_bids_until",
                       "lr_decay_from", "rollout_actors")
        for name in ints:
            v = getattr(self, name)
            if type(v) is not int or (v < 0 if name in may_be_zero else v <= 0):
                kind = "non-negative" if name in may_be_zero else "positive"
                raise ConfigError(f"config key {name!r} must be a {kind} int, got {v!r}")
        for name, bound, why in UPPER_BOUNDS:
            v = getattr(self, name)
            if v > bound:
                raise ConfigError(f"config key {name!r} must be at most {bound:,} ({why}), got {v:,}")
        if self.n_tables > MAX_N_TABLES:
            raise ConfigError(f"config key 'n_tables' must be at most {MAX_N_TABLES:,} (MAX_N_TABLES: the collector "
                              f"keeps about 0.3 MB per table), got {self.n_tables:,}")
        if self.n_steps * self.n_tables > MAX_ROLLOUT:
            raise ConfigError(f"config keys 'n_steps' x 'n_tables' ({self.n_steps:,} x {self.n_tables:,}) must be at "
                              f"most {MAX_ROLLOUT:,} decisions a rollout (MAX_ROLLOUT), got "
                              f"{self.n_steps * self.n_tables:,}")
        check_name("exp_name", self.exp_name, "part of the run folder's name")
        if any(c in self.exp_name for c in "/\\") or self.exp_name in (".", ".."):
            raise ConfigError(f"config key 'exp_name' names a run folder: no '/' or '\\', got {self.exp_name!r}")
        check_name("log_dir", self.log_dir, "the folder of the run folders")
        if not isinstance(self.opponents, dict) or not self.opponents or any(
                not isinstance(k, str) or isinstance(w, bool) or not isinstance(w, (int, float))
                or not math.isfinite(w) or w < 0 for k, w in self.opponents.items()) or sum(self.opponents.values()) <= 0:
            raise ConfigError(f"config key 'opponents' must map names (self, snapshots, a tier or model path) "
                              f"to finite non-negative weights, not all zero; got {self.opponents!r}")
        if self.opponents.get("snapshots") and not self.snapshot_every:
            raise ConfigError("config key 'opponents' uses snapshots but 'snapshot_every' is 0")
        if self.rollout_actors and self.engine != "batched":
            raise ConfigError("config key 'rollout_actors' needs engine 'batched' (Ray actors play batched tables)")
        if self.rollout_actors > self.n_tables:
            raise ConfigError(f"config key 'rollout_actors' ({self.rollout_actors}) must not exceed 'n_tables' "
                              f"({self.n_tables}): each actor plays a share of the tables")
        if self.rollout_actors:
            import importlib.util

            if importlib.util.find_spec("ray") is None:  # before any run folder is made
                raise ConfigError("config key 'rollout_actors' needs Ray: pip install -e \".[rllib]\" in a clone of "
                                  "the project, or pip install 'belote-rl[rllib]'; or set rollout_actors to 0")
        if self.ray_address is not None and (not isinstance(self.ray_address, str) or not self.ray_address):
            raise ConfigError(f"config key 'ray_address' must be a Ray address (a non-empty string such as 'auto' or "
                              f"'ray://host:10001') or null, got {self.ray_address!r}")
        if self.workers > self.n_tables:
            raise ConfigError(f"config key 'workers' ({self.workers}) must not exceed 'n_tables' ({self.n_tables})")
        if self.bf16 not in ("auto", "true", "false"):
            raise ConfigError(f"config key 'bf16' must be 'auto', 'true' or 'false', got {self.bf16!r}")
        if self.engine not in ("batched", "reference"):
            raise ConfigError(f"config key 'engine' must be 'batched' or 'reference', got {self.engine!r}")
        if self.bid_learner not in ("ppo", "q"):
            raise ConfigError(f"config key 'bid_learner' must be 'ppo' or 'q', got {self.bid_learner!r}")
        if self.bid_learner == "q" and self.engine != "batched":
            raise ConfigError("config key 'bid_learner: q' needs engine 'batched'")
        check_number("bid_epsilon", self.bid_epsilon, 0.0, 1.0)
        check_number("bid_lr", self.bid_lr)
        check_number("max_minutes", self.max_minutes)
        check_layers("bid_net", self.bid_net)
        if self.random_bids_until and self.engine != "batched":
            raise ConfigError("config key 'random_bids_until' needs engine 'batched'")
        if self.engine == "batched" and self.workers != 1:
            raise ConfigError("config key 'workers' must be 1 with engine 'batched' (one process plays every table)")
        if not isinstance(self.policy_augment, bool):
            raise ConfigError(f"config key 'policy_augment' must be true or false, got {self.policy_augment!r}")
        if self.policy_augment and self.engine != "batched":
            raise ConfigError("config key 'policy_augment' needs engine 'batched'")
        for name in ("bid_augment", "bid_average", "bid_fit_overlap"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"config key {name!r} must be true or false, got {getattr(self, name)!r}")
            if getattr(self, name) and self.bid_learner != "q":
                raise ConfigError(f"config key {name!r} needs 'bid_learner: q'")
        if not isinstance(self.perfect_critic, bool):
            raise ConfigError(f"config key 'perfect_critic' must be true or false, got {self.perfect_critic!r}")
        if self.init_from is not None and (not isinstance(self.init_from, str) or not self.init_from
                                           or not Path(self.init_from).exists()):
            raise ConfigError(f"config key 'init_from' must be the path of an existing model folder "
                              f"(belote export format) or null, got {self.init_from!r}")
        for name in ("learning_rate", "clip_range", "ent_coef", "vf_coef", "max_grad_norm"):
            check_number(name, getattr(self, name))
        if self.lr_final is not None:
            check_number("lr_final", self.lr_final)
            if self.lr_decay_from >= self.total_timesteps:
                raise ConfigError(f"config key 'lr_decay_from' ({self.lr_decay_from}) must be below "
                                  f"'total_timesteps' ({self.total_timesteps}) when 'lr_final' is set")
        elif self.lr_decay_from:
            raise ConfigError("config key 'lr_decay_from' needs 'lr_final' (the learning rate it falls to)")
        for name in ("gamma", "gae_lambda", "imitation_epsilon"):
            check_number(name, getattr(self, name), 0.0, 1.0)
        if self.activation not in ("relu", "tanh"):
            raise ConfigError(f"config key 'activation' must be 'relu' or 'tanh', got {self.activation!r}")
        for name in ("net_pi", "net_vf"):
            check_layers(name, getattr(self, name))
        check_name("imitation_teacher", self.imitation_teacher, "a tier name or model folder path")
        if not isinstance(self.rules, dict):
            raise ConfigError(f"config key 'rules' must be a mapping of rule options, got {self.rules!r}")
        rules = Rules.from_dict(self.rules)  # raises RuleOptionError naming a bad option
        _check_policy_name("imitation_teacher", self.imitation_teacher, rules=rules)
        for name in self.opponents:
            if name not in ("self", "snapshots"):
                _check_policy_name("opponents", name, " (or self, snapshots)", rules=rules)
        if not game_of(rules).has_partners:
            if self.perfect_critic:
                raise ConfigError(f"config key 'perfect_critic' must be false with rules players {rules.players}")
            for name, off in (("bid_learner", "ppo"), ("random_bids_until", 0)):
                if getattr(self, name) != off:
                    raise ConfigError(f"config key {name!r} must be {off!r} with rules players {rules.players} (the "
                                      "two- and three-seat bids are learned by PPO with the cards)")
            if self.engine == "batched":
                from belote_env.vector.cutthroat import check_cutthroat_supported

                try:
                    check_cutthroat_supported(rules)
                except RuleOptionError as e:
                    raise ConfigError(f"config key 'rules': {e}; or set 'engine: reference'") from None
        rollout = self.n_steps * self.n_tables * (1 if self.engine == "batched" else rules.players)
        if rollout % self.batch_size == 1:
            raise ConfigError(f"config key 'batch_size' ({self.batch_size}) leaves a last minibatch of one row of the "
                              f"rollout's {rollout} decisions (n_steps x n_tables"
                              f"{'' if self.engine == 'batched' else ' x players'}): its advantage cannot be normalized")
        if rules.contract_mode == "coinche" and (rules.generale or rules.max_numeric_bid > 160):
            given = [f"{k} {v!r}" for k, v, bad in (("generale", rules.generale, rules.generale),
                                                  ("max_numeric_bid", rules.max_numeric_bid,
                                                   rules.max_numeric_bid > 160)) if bad]
            raise ConfigError(f"config key 'rules': {' and '.join(given)} give the 412-action coinche game, which the "
                              "trainer's networks (112 actions: bids up to 160 and capot) do not learn; set generale "
                              "false and max_numeric_bid 160 (coinche_bga's profile trains with max_numeric_bid: 160; "
                              "the policies it exports then play coinche_bga with the bids they know)")
        if self.policy_augment and rules.contract_mode != "classic":
            raise ConfigError("config key 'policy_augment' needs the classic game (rules contract_mode 'classic'), "
                              f"got contract_mode {rules.contract_mode!r}")

    def learning_rate_at(self, timestep: int | float) -> float:
        """The PPO learning rate at ``timestep`` (``learning_rate``, falling linearly to
        ``lr_final`` from ``lr_decay_from`` to ``total_timesteps`` when ``lr_final`` is set)."""
        if self.lr_final is None or timestep <= self.lr_decay_from:
            return float(self.learning_rate)
        f = min(1.0, (timestep - self.lr_decay_from) / (self.total_timesteps - self.lr_decay_from))
        return float(self.learning_rate + f * (self.lr_final - self.learning_rate))

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def rules_obj(self) -> Rules:
        """The ``Rules`` of the run (single-deal episodes)."""
        return Rules.from_dict(self.rules).replace(target=None, max_deals=None)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TrainConfig":
        if not isinstance(d, dict):
            raise ConfigError(f"a training config must be a mapping, got {type(d).__name__}")
        known = [f.name for f in dataclasses.fields(cls)]
        for k in d:
            if k not in known:
                raise ConfigError(f"unknown config key {k!r}; known keys: {', '.join(known)}")
        return cls(**d)


def read_config_file(path: str | os.PathLike, max_bytes: int = MAX_CONFIG_BYTES) -> dict[str, Any]:
    """The mapping of config keys in the YAML file ``path`` (at most ``max_bytes``), ``{}``
    for an empty file; the reader of every training config (``belote train``, ``belote
    iterate``, a run's ``config.yaml``).

    Raises:
        ConfigError: naming the file: unreadable, over the bound, not YAML, nested too
            deeply, a huge int, aliases expanding too far (``jsonfile.parse_yaml``), or
            a document that is not a mapping (a list, a string).
    """
    path = Path(path)
    try:
        data = parse_yaml(read_text(path, max_bytes), str(path))
    except DataFileError as e:
        raise ConfigError(str(e)) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"config {path} must hold a mapping of keys, got {type(data).__name__}")
    return data


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Read a YAML training config (at most ``MAX_CONFIG_BYTES``, ``read_config_file``);
    ``overrides`` replace keys. Raises ``ConfigError`` naming the file."""
    return TrainConfig.from_dict({**read_config_file(path), **(overrides or {})})
