"""Monte-Carlo policy iteration of the value networks by their own rollouts.

``belote iterate --config configs/train/iterate_classic.yaml`` (or ``--resume RUN_FOLDER``).
Each iteration: the current networks play ``deals`` self-play deals on the batched engine
(every seat on its own observation, ``epsilon`` random moves), a ``label_rate`` share of
their decisions get every legal action rolled out on the same deal by the same networks
(``training.rollouts.rollout_labels``; with ``pool_rate`` above 0 that share of the deals
seats past copies of the networks, the opponent pool, at one to three seats), and the
card-value and bid-value networks are
fitted to those labels (``training.oracle.fit_card_values`` / ``fit_bid_values``: the
labels centred per decision, the suits renamed at random) over the latest ``replay``
iterations' labels, at a learning rate falling linearly from ``lr`` to ``lr_final``
(``game_value: true``: the deals start from game positions and a label is the change in
the acting team's chance of winning the game, ``training.game_value``).
Then the networks play a duplicate match against ``opponent`` (default: the starting
model; ``eval_pairs`` deal pairs on the batched engine, deck seed ``eval_seed``) and the
iteration is saved.

Run folder ``<log_dir>/iterate__<exp_name>__<seed>__<time>/``: ``config.yaml``; TensorBoard
events and ``progress.csv`` (``iterate/*`` scalars: labels, fit losses and agreement,
match figures); ``data/iter_<k>.npz`` (the labels of the iterations the replay still
uses); ``checkpoints/iter_<k>/``, each a model folder (``make_policy`` loads it: the
starting model's files with the fitted ``cards/`` and ``bids/``) with ``iterate.json``
(the iteration, the budget so far: deals, decisions, rollouts, seconds, the match and the
config); ``logged.json`` (the last iteration whose log row is written).
Every file is written atomically; ``--resume`` continues after the newest complete
checkpoint, and an iteration cut by a kill is played again from the same seeds (its
labels, fit and match come out the same): nothing is trained twice. A resume removes the
staging folder of a checkpoint cut by a kill, writes the log row of a checkpoint published
just before a kill from its ``iterate.json``, and refuses a config edited since (but
``iterations``, ``threads``, ``log_dir``), naming the key.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch as th

from belote_env.games import game_of
from belote_env import Rules
from belote_env.actions import num_actions
from belote_env.atomic import atomic_write_bytes
from belote_env.config import stored_rules_as_read
from belote_env.jsonfile import read_json

from .config import ConfigError, read_config_file

__all__ = ["IterateConfig", "iterate", "load_iterate_config"]

#: The iteration checkpoints' folder names: ``iter_<k>`` with ``k`` on 5 digits.
CKPT = "iter_{:05d}"


def _shipped_hard_model() -> str:
    """The folder of the shipped classic hard model (``IterateConfig.init_from``'s default)."""
    from policies.hard import HARD_MODEL_DIR

    return str(HARD_MODEL_DIR)


@dataclass
class IterateConfig:
    """The settings of a policy-iteration run (YAML keys of the same names)."""

    exp_name: str = "iterate"
    seed: int = 0
    rules: dict = field(default_factory=dict)
    """Rule options (four seats; a coinche auction with ``contract_mode: coinche``)."""
    init_from: str = field(default_factory=_shipped_hard_model)
    """The starting model folder: its ``cards/`` and ``bids/`` value networks are fitted,
    the rest (its policy network, if any) is kept. A relative path is read from the current
    folder; left out: the shipped classic hard model (``policies/models/hard`` of the
    installed package, ``policies.hard.HARD_MODEL_DIR``, wherever the command runs)."""
    opponent: str | None = None
    """The match opponent (a tier name or model folder); None: ``init_from``."""
    card_layers: list | None = None
    """Hidden layer sizes to grow the starting card-value network to before the first
    iteration (``training.blend.grow_net``: wider layers and/or layers added after the last,
    the same values at the start); None: as it is."""
    pool: list | None = None
    """Opponent pool: model folders of past copies of the networks (None: ``[init_from]``)."""
    pool_rate: float = 0.0
    """Share of the self-play deals that seat a pool member at one to three seats
    (``rollout_labels``); 0: pure self-play."""
    pool_past: int = 0
    """Earlier checkpoints of this run drawn at random (each iteration) into the pool."""
    pool_seating: str = "any"
    """Where a pool member sits (``rollout_labels``): ``"any"`` one to three seats drawn at
    random; ``"partner"`` two neighbouring seats, so the networks' seats in that deal each
    have a pool member as partner (they learn to partner a player that is not a copy)."""
    pool_epsilon: float = 0.0
    """Random legal moves of the pool members, in the deals and their rollouts: weaker
    partners and opponents than the networks they copy."""
    iterations: int = 20
    deals: int = 2048
    """Self-play deals per iteration (played at once, one table each)."""
    label_rate: float = 0.5
    """Share of the decisions with a choice whose every legal action is rolled out."""
    epsilon: float = 0.03
    """Random legal moves in the self-play deals (not in the rollouts)."""
    chunk: int = 8192
    """Rollout tables stepped at once."""
    replay: int = 2
    """Iterations of labels each fit reads (the newest included)."""
    fit_epochs: int = 2
    fit_batch: int = 512
    lr: float = 5e-5
    lr_final: float = 5e-6
    augment: bool = True
    threads: int = 2
    bf16: str = "auto"
    game_value: bool = False
    """Game-aware labels (``training.game_value``): deals start from game positions (scores
    drawn from simulated games to the rules' ``target``, in the observations) and a label
    is the change in the acting team's chance of winning the game, not the deal's point
    difference; the outcomes come from ``deals`` greedy deals of the starting networks
    (kept in the run folder, ``game_value.npz``). Refused with rules it does not model
    (no target, ``max_deals``, ``no_win_on_belote_alone``)."""
    fit: list = field(default_factory=lambda: ["cards", "bids"])
    """The value networks fitted each iteration (``cards``, ``bids``); only their
    decisions are rolled out and labelled, and one left out plays on as the starting model
    has it."""
    renamings: int = 1
    """The card and bid values averaged over this many suit renamings wherever the loop's
    players act, in the self-play deals and in their rollouts (``ValuePlayer``'s
    ``renamings``: 1, 4 or 24; 24 is how the hard tier plays, in float32). A rollout then
    continues the deal with a player nearer the shipped one, at a higher cost (4: about 3x
    a one-naming rollout, docs/experiments/iterate.md)."""
    worlds: int = 1
    """Worlds each labelled decision's actions are rolled out in (``rollout_labels``): 1,
    the true deal alone; above 1, the true deal and ``worlds - 1`` deals drawn from the
    acting seat's information set, the label their mean (``worlds`` times the rollouts)."""
    coinche_bias: float = 0.0
    """Coinche exploration (coinche rules): added to every seat's bid value of ``COINCHE``
    wherever the loop's players act, in the self-play deals and their rollouts
    (``ValuePlayer``'s ``coinche_bias``, bid-network units: value / 500 points), so the
    networks' bids are labelled against opponents that coinche readily and their answers to
    a coinche are labelled often; the shipped policy plays without it. 0.1 makes the
    coinche hard coinche about a fifth of the contracts in self-play (``normal`` 18%)."""
    eval_every: int = 1
    eval_pairs: int = 200
    eval_seed: int = 1000
    log_dir: str = "runs"

    def __post_init__(self) -> None:
        ints = {"seed": 0, "pool_past": 0, "worlds": 1, "iterations": 1, "deals": 1, "chunk": 1, "replay": 1,
                "fit_epochs": 1, "fit_batch": 2, "threads": 1, "eval_every": 0, "eval_pairs": 0, "eval_seed": 0}
        for name, low in ints.items():
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < low:
                raise ConfigError(f"config key {name!r} must be an int >= {low}, got {v!r}")
        if self.worlds > 64:
            raise ConfigError(f"config key 'worlds' must be at most 64, got {self.worlds!r}")
        if self.deals > 65_536 or self.chunk > 1 << 20:
            raise ConfigError(f"config keys 'deals' (at most 65,536) and 'chunk' (at most 1,048,576): got "
                              f"{self.deals:,} and {self.chunk:,}")
        if self.card_layers is not None and (not isinstance(self.card_layers, list) or not self.card_layers or not all(
                type(v) is int and 1 <= v <= 16384 for v in self.card_layers)):
            raise ConfigError(f"config key 'card_layers' must be a list of hidden layer sizes (ints in 1..16384), "
                              f"got {self.card_layers!r}")
        if self.pool is not None and (not isinstance(self.pool, list) or not all(
                isinstance(v, str) and v and "\0" not in v for v in self.pool)):
            raise ConfigError(f"config key 'pool' must be a list of model folders (non-empty strings), got {self.pool!r}")
        if self.pool == [] and not self.pool_past and self.pool_rate:
            raise ConfigError(f"config key 'pool_rate' is {self.pool_rate!r} with an empty 'pool' and 'pool_past' 0: "
                              "give pool members (or leave 'pool' out: the starting model), or pool_rate 0")
        for name, lo, hi in (("label_rate", 0.0, 1.0), ("epsilon", 0.0, 1.0), ("pool_rate", 0.0, 1.0),
                             ("pool_epsilon", 0.0, 1.0), ("lr", 0.0, 1.0), ("lr_final", 0.0, 1.0)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi or (
                    name in ("label_rate", "lr") and v == 0):
                raise ConfigError(f"config key {name!r} must be a number in {'(' if name in ('label_rate', 'lr') else '['}"
                                  f"{lo:g}, {hi:g}], got {v!r}")
        from policies.symmetry import RENAMING_SETS

        if (not isinstance(self.fit, list) or not self.fit
                or not all(type(v) is str and v in _KIND for v in self.fit)
                or len(set(self.fit)) != len(self.fit)):
            raise ConfigError(f"config key 'fit' must be a list of the networks to fit, 'cards' and/or 'bids' (each "
                              f"once), got {self.fit!r}")
        if type(self.renamings) is not int or self.renamings not in RENAMING_SETS:
            raise ConfigError(f"config key 'renamings' must be one of {sorted(RENAMING_SETS)}, "
                              f"got {self.renamings!r}")
        from .rollouts import POOL_SEATINGS

        if self.pool_seating not in POOL_SEATINGS:
            raise ConfigError(f"config key 'pool_seating' must be one of {', '.join(map(repr, POOL_SEATINGS))}, "
                              f"got {self.pool_seating!r}")
        if self.bf16 not in ("auto", "true", "false"):
            raise ConfigError(f"config key 'bf16' must be 'auto', 'true' or 'false', got {self.bf16!r}")
        for name in ("augment", "game_value"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"config key {name!r} must be true or false, got {getattr(self, name)!r}")
        for name in ("exp_name", "init_from", "log_dir") + (("opponent",) if self.opponent is not None else ()):
            v = getattr(self, name)
            if not isinstance(v, str) or not v or "\0" in v:
                raise ConfigError(f"config key {name!r} must be a non-empty string, got {v!r}")
        if not isinstance(self.rules, dict):
            raise ConfigError(f"config key 'rules' must be a mapping of rule options, got {self.rules!r}")
        r = Rules.from_dict(self.rules)  # RuleOptionError names a bad option
        if not game_of(r).has_partners or num_actions(r) != 112:
            raise ConfigError("policy iteration plays four-seat rules of 112 actions: rules players 4, and in coinche "
                              "generale false and max_numeric_bid 160")
        if self.game_value and (r.target is None or r.max_deals is not None or r.no_win_on_belote_alone):
            raise ConfigError("config key 'game_value' is true with rules of a game it does not model: it needs a "
                              "target (RULES.md §8), no max_deals and no no_win_on_belote_alone (got target "
                              f"{r.target!r}, max_deals {r.max_deals!r}, no_win_on_belote_alone "
                              f"{r.no_win_on_belote_alone!r})")
        from .rollouts import MAX_COINCHE_BIAS

        v = self.coinche_bias
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= MAX_COINCHE_BIAS:
            raise ConfigError(f"config key 'coinche_bias' must be a number in [0, {MAX_COINCHE_BIAS:g}] (bid-value "
                              f"units), got {v!r}")
        if v and r.contract_mode != "coinche":
            raise ConfigError(f"config key 'coinche_bias' is {v!r} with {r.contract_mode} rules: it applies to "
                              "coinche rules only (rules: {contract_mode: coinche})")

    @property
    def rules_obj(self) -> Rules:
        return Rules.from_dict(self.rules).replace(target=None, max_deals=None)

    def lr_at(self, it: int) -> float:
        """The fit's learning rate at iteration ``it`` (0-based): linear from ``lr`` to ``lr_final``."""
        f = it / max(1, self.iterations - 1)
        return float(self.lr + f * (self.lr_final - self.lr))

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: Any) -> "IterateConfig":
        if not isinstance(d, dict):
            raise ConfigError(f"a policy-iteration config must be a mapping, got {type(d).__name__}")
        known = [f.name for f in dataclasses.fields(cls)]
        for k in d:
            if k not in known:
                raise ConfigError(f"unknown config key {k!r}; known keys: {', '.join(known)}")
        return cls(**d)


def load_iterate_config(path: str | os.PathLike, overrides: dict | None = None) -> IterateConfig:
    """Read a YAML config (``training.config.read_config_file``: ``ConfigError`` naming the
    file for bad YAML or a document that is not a mapping; then for bad keys)."""
    return IterateConfig.from_dict({**read_config_file(path), **(overrides or {})})


#: The decision kind (``ValuePlayer.kinds``) whose labels each fitted network reads.
_KIND = {"cards": 1, "bids": 2}


def _nets(folder: Path, rules: Rules, key: str = "init_from"):
    """The (policy, card, bid) networks of a model folder (policy None for a value-network
    folder); ``key``: the config key that named it, for the error."""
    from policies.network import load_bid_net, load_card_net, load_model

    if not folder.is_dir():
        where = "" if folder.is_absolute() else f" (a relative path is read from the current folder, {Path.cwd()})"
        raise ConfigError(f"{key} {folder}: {'is not a folder' if folder.exists() else 'does not exist'}{where}; give "
                          "a model folder holding cards/ and bids/ value networks (the shipped classic hard model: "
                          f"{_shipped_hard_model()})")
    mode = rules.contract_mode
    policy = load_model(folder, mode)[0] if (folder / "model.safetensors").exists() else None
    card = load_card_net(folder, mode)
    bid = load_bid_net(folder, mode)
    if card is None or bid is None:
        raise ConfigError(f"{key} {folder}: policy iteration plays and fits a cards/ and a bids/ network; "
                          f"missing {'cards/' if card is None else 'bids/'}")
    return policy, card[0], bid[0]


def _write_model(tmp: Path, init: Path, card, bid, extra: dict) -> None:
    """A model folder: ``init``'s top-level files, then the fitted ``cards/`` and ``bids/``."""
    from policies.network import save_model

    for f in init.iterdir():
        if f.is_file():
            shutil.copy2(f, tmp / f.name)
    for sub, net in (("cards", card), ("bids", bid)):
        meta = read_json(init / sub / "meta.json", 1 << 20)
        keep = {k: v for k, v in meta.items() if k not in ("net", "format_version", "action_table_version",
                                                            "obs_encoder_version", "oracle")}
        keep["iterate"] = extra
        save_model(tmp / sub, net.state_dict(), net.config, keep)


def _machine(threads: int) -> dict:
    """What the budget was spent on: the CPU, its core count, the torch threads used."""
    import platform

    name = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": name, "cores": os.cpu_count(), "torch_threads": threads}


def _ckpts(run: Path) -> list[tuple[int, Path]]:
    out = []
    for p in (run / "checkpoints").glob("iter_*"):
        if p.name[5:].isdigit() and (p / "iterate.json").is_file():
            out.append((int(p.name[5:]), p))
    return sorted(out)


def _pool(cfg: IterateConfig, run: Path, it: int) -> list[Path]:
    """The pool of iteration ``it`` (0-based): ``cfg.pool`` (default ``[init_from]``) and
    ``cfg.pool_past`` of the run's checkpoints up to iteration ``it`` drawn without
    replacement (seeded by the run's seed and ``it``: a resumed run draws the same)."""
    members = [Path(p) for p in (cfg.pool if cfg.pool is not None else [cfg.init_from])]
    past = [p for k, p in _ckpts(run) if k <= it]
    if cfg.pool_past and past:
        rng = np.random.default_rng([cfg.seed, it, 13])
        members += [past[i] for i in sorted(rng.choice(len(past), min(cfg.pool_past, len(past)), replace=False))]
    return members


def _save_npz(path: Path, data: dict) -> None:
    buf = io.BytesIO()
    np.savez(buf, **{f"{kind}_{k}": v for kind, d in data.items() for k, v in d.items()})
    atomic_write_bytes(path, buf.getvalue())


def _load_npz(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as z:
        out: dict = {}
        for key in z.files:
            kind, k = key.split("_", 1)
            out.setdefault(kind, {})[k] = z[key]
    return out


#: The run file naming the last iteration whose log row (TensorBoard, CSV) is written.
LOGGED = "logged.json"
#: Config keys a resumed run may change (how long it runs and on what), every other one
#: must be what its checkpoints were made with.
RESUME_MAY_CHANGE = ("iterations", "threads", "log_dir")


def _log_row(logger, info: dict) -> None:
    """Record and dump iteration ``info["iteration"]``'s row (``info``: its ``iterate.json``)."""
    for k, v in (("iterate/card_labels", info["labels"]["cards"]), ("iterate/bid_labels", info["labels"]["bids"]),
                 ("iterate/lr", info["lr"]), ("iterate/deals", info["budget"]["deals"]),
                 ("iterate/seconds", info["budget"]["seconds"])):
        logger.record(k, v)
    for kind, f in info["fit"].items():
        for k in ("train_loss", "valid_loss", "agree", "regret"):
            logger.record(f"iterate/{kind}_{k}", f[k])
    if "match" in info:
        logger.record("iterate/match_mean_diff", info["match"]["mean_diff"])
        logger.record("iterate/match_deal_win_rate", info["match"]["deal_win_rate"])
    logger.dump(info["iteration"])
    atomic_write_bytes(Path(logger.dir) / LOGGED, json.dumps({"iteration": info["iteration"]}).encode())


def _read_resumed_config(run: Path) -> IterateConfig:
    """The config of the run folder ``run`` to resume: ``ConfigError`` for a ``belote train``
    run's folder (not an iterate run), a missing or bad ``config.yaml``."""
    path = run / "config.yaml"
    if not path.is_file():
        raise ConfigError(f"--resume {run}: no {path}; give a run folder of `belote iterate`")
    d = read_config_file(path)
    if isinstance(d, dict) and "run_name" in d:
        raise ConfigError(f"--resume {run}: {path} is the config of a `belote train` run, not of a `belote iterate` "
                          f"run; resume it with `belote train --resume {run}`, or give an iterate run folder")
    return IterateConfig.from_dict(d)


def _check_resumed_config(cfg: IterateConfig, info: dict, ckpt: Path) -> None:
    """Refuse (``ConfigError`` naming the key) a resumed run's config edited since its
    newest checkpoint ``ckpt`` (``info``: its ``iterate.json``) was made, but in
    ``RESUME_MAY_CHANGE``; a checkpoint of before the config was recorded: its rules and
    starting model."""
    now = cfg.to_dict()
    was = info.get("config")
    if was is None:  # older checkpoints: their rules and starting model
        now = {"rules": cfg.rules_obj.to_dict(), "init_from": str(Path(cfg.init_from))}
        was = {k: info.get(k) for k in now}
        was["rules"] = stored_rules_as_read(was["rules"])  # None where an option did not apply yet: the default
    for k in now:
        if k not in RESUME_MAY_CHANGE and k in was and now[k] != was[k]:
            raise ConfigError(f"config key {k!r} of the resumed run is {now[k]!r}, but its checkpoint {ckpt} was made "
                              f"with {was[k]!r}: put it back, or start a new run (only "
                              f"{', '.join(RESUME_MAY_CHANGE)} may change on resume)")


def iterate(cfg: IterateConfig | None = None, progress: bool = True, resume: str | os.PathLike | None = None) -> Path:
    """Run ``cfg`` in a new run folder under ``cfg.log_dir``, or resume the run folder
    ``resume`` after its newest complete checkpoint (module docstring); returns the folder.

    Raises:
        ValueError: neither ``cfg`` nor ``resume``.
        ConfigError: a bad ``config.yaml`` of the resumed run, or an ``init_from`` without
            ``cards/`` and ``bids/``.
        policies.network.CheckpointError / RulesMismatchError: a model folder that does
            not load, or of another contract mode than the rules.
        FileExistsError: the new run folder exists already.
    """
    from stable_baselines3.common.logger import CSVOutputFormat, Logger, TensorBoardOutputFormat

    from policies import make_policy

    from .evaluate import duplicate_match
    from .oracle import fit_bid_values, fit_card_values
    from .rollouts import ValuePlayer, rollout_labels
    from .train import _atomic_folder
    from .vector_selfplay import bf16_supported

    if resume is not None:
        run = Path(resume)
        cfg = _read_resumed_config(run)
        newest = _ckpts(run)
        if newest:
            _check_resumed_config(cfg, read_json(newest[-1][1] / "iterate.json", 1 << 20), newest[-1][1])
    elif cfg is None:
        raise ValueError("give a config or a run folder to resume")
    rules = cfg.rules_obj
    init = Path(cfg.init_from)
    policy, card, bid = _nets(init, rules)  # the model folders load before a run folder is made
    if cfg.card_layers is not None:  # a resumed run's checkpoints replace it
        from .blend import grow_net

        try:
            card = grow_net(card, cfg.card_layers, seed=cfg.seed)
        except ValueError as e:
            raise ConfigError(f"config key 'card_layers': {e}") from None
    # the pool's fixed members, loaded once (never fitted; the run's checkpoints load as drawn)
    fixed = {str(m): _nets(Path(m), rules, "pool")
             for m in (cfg.pool if cfg.pool is not None else [cfg.init_from] if cfg.pool_rate > 0 else [])}
    th.set_num_threads(cfg.threads)
    bf16 = cfg.bf16 == "true" or (cfg.bf16 == "auto" and bf16_supported())
    game_value = outcomes = None
    if cfg.game_value:  # the outcomes of the starting networks, kept in the run: a resumed run reads them
        from .game_value import GameValue
        from .oracle import value_unit
        from .rollouts import deal_outcomes

        if resume is not None and (run / "game_value.npz").is_file():
            with np.load(run / "game_value.npz", allow_pickle=False) as z:
                outcomes = z["outcomes"]
        else:  # the starting networks (a resumed run's checkpoints load below)
            outcomes = deal_outcomes(ValuePlayer(card, bid, policy, rules, bf16=bf16, renamings=cfg.renamings),
                                     rules, cfg.deals, seed=cfg.seed * 1_000_003 + 999_983)
        game_rules = Rules.from_dict(cfg.rules)
        game_value = GameValue(outcomes, game_rules.target + (game_rules.target_rule == "exceed"),
                               unit=value_unit(rules))
    if resume is None:
        run = Path(cfg.log_dir) / f"iterate__{cfg.exp_name}__{cfg.seed}__{int(time.time())}"
        run.mkdir(parents=True, exist_ok=False)
        import yaml

        atomic_write_bytes(run / "config.yaml", yaml.safe_dump(cfg.to_dict(), sort_keys=False).encode())
        atomic_write_bytes(run / LOGGED, json.dumps({"iteration": 0}).encode())
    else:  # a checkpoint's staging folder left by a kill (train._atomic_folder: .iter_<k>.<random>, .iter_<k>.old)
        for tmp in (run / "checkpoints").glob(".iter_*"):
            if tmp.is_dir():
                shutil.rmtree(tmp, ignore_errors=True)
    if outcomes is not None and not (run / "game_value.npz").is_file():
        buf = io.BytesIO()
        np.savez(buf, outcomes=outcomes)
        atomic_write_bytes(run / "game_value.npz", buf.getvalue())
    done = _ckpts(run)
    start = done[-1][0] if done else 0
    budget = {"deals": 0, "decisions": 0, "rollouts": 0, "rollout_decisions": 0, "seconds": 0.0}
    if done:
        last = done[-1][1]
        budget = read_json(last / "iterate.json", 1 << 20)["budget"]
        _, card, bid = _nets(last, rules)
    rival = cfg.opponent or str(init)
    opponent = make_policy(rival, seed=0)
    logger = Logger(str(run), [TensorBoardOutputFormat(str(run)), CSVOutputFormat(str(run / (
        "progress.csv" if not done else f"progress_from_{start:05d}.csv")))])
    if done and (run / LOGGED).is_file():  # rows of checkpoints published before a kill cut their log row
        logged = read_json(run / LOGGED, 1 << 10)["iteration"]
        for k, p in done:
            if k > logged:
                _log_row(logger, read_json(p / "iterate.json", 1 << 20))
    print(f"iterate: {cfg.iterations} iterations of {cfg.deals} deals, from iteration {start}; hidden layers in "
          f"{'bfloat16' if bf16 else 'float32'}; run folder {run}", flush=True)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=cfg.iterations * cfg.deals, initial=start * cfg.deals, unit="deal", desc="iterate")
    for it in range(start, cfg.iterations):
        t0 = time.time()
        player = ValuePlayer(card, bid, policy, rules, cfg.epsilon, seed=cfg.seed * 1_000_003 + it, bf16=bf16,
                             renamings=cfg.renamings, coinche_bias=cfg.coinche_bias)
        members = _pool(cfg, run, it) if cfg.pool_rate > 0 else []
        nets = [fixed.get(str(m)) or _nets(m, rules, "pool") for m in members]
        pool = [ValuePlayer(c, b, pol, rules, cfg.pool_epsilon, seed=cfg.seed * 1_000_003 + it + 7919 * (k + 1),
                            bf16=bf16, renamings=cfg.renamings, coinche_bias=cfg.coinche_bias)
                for k, (pol, c, b) in enumerate(nets)]
        data = rollout_labels(player, rules, cfg.deals, seed=cfg.seed * 1_000_003 + it, label_rate=cfg.label_rate,
                              chunk=cfg.chunk, pool=pool, pool_rate=cfg.pool_rate if pool else 0.0,
                              game_value=game_value, label_kinds=tuple(_KIND[k] for k in cfg.fit),
                              worlds=cfg.worlds, pool_seating=cfg.pool_seating)
        labels = {"cards": data.cards, "bids": data.bids}
        _save_npz(run / "data" / f"iter_{it + 1:05d}.npz", labels)
        replay = [_load_npz(run / "data" / f"iter_{k:05d}.npz") for k in range(max(1, it + 2 - cfg.replay), it + 2)
                  if (run / "data" / f"iter_{k:05d}.npz").exists()]
        lr = cfg.lr_at(it)
        fits = {}
        for kind, net, fit in (("cards", card, fit_card_values), ("bids", bid, fit_bid_values)):
            if kind not in cfg.fit:
                continue
            d = {k: np.concatenate([r[kind][k] for r in replay]) for k in ("obs", "mask", "q")}
            keep = d["mask"].any(1)
            d = {k: v[keep] for k, v in d.items()}
            if len(d["q"]) >= 2:
                fits[kind] = fit(net, d, epochs=cfg.fit_epochs, lr=lr, batch=cfg.fit_batch,
                                 seed=cfg.seed * 1_000_003 + it, augment=cfg.augment)["history"][-1]
                fits[kind]["samples"] = len(d["q"])
        budget = {"deals": budget["deals"] + data.deals, "decisions": budget["decisions"] + data.decisions,
                  "rollouts": budget["rollouts"] + data.rollouts,
                  "rollout_decisions": budget["rollout_decisions"] + data.rollout_decisions,
                  "seconds": budget["seconds"] + time.time() - t0}
        info = {"iteration": it + 1, "lr": lr, "labels": {"cards": len(data.cards["q"]), "bids": len(data.bids["q"])},
                "fit": fits, "pool": [str(m) for m in members], "budget": budget, "rules": rules.to_dict(),
                "init_from": str(init), "bf16": bf16,
                "machine": _machine(cfg.threads), "config": cfg.to_dict()}
        folder = run / "checkpoints" / CKPT.format(it + 1)

        def write(tmp: Path) -> None:
            _write_model(tmp, init, card, bid, {"iteration": it + 1, "run": run.name, "budget": budget})
            due = cfg.eval_every and ((it + 1) % cfg.eval_every == 0 or it + 1 == cfg.iterations)
            if cfg.eval_pairs and due:  # the deck seed eval_seed: never a self-play seed
                me = make_policy(str(tmp), seed=0)
                r = duplicate_match(me, opponent, cfg.eval_pairs, seed=cfg.eval_seed, rules=rules, batched=True)
                info["match"] = {"opponent": rival, "pairs": cfg.eval_pairs, "seed": cfg.eval_seed,
                                 **{k: v for k, v in r.to_dict().items() if not isinstance(v, list) or len(v) <= 2},
                                 "a": str(folder)}  # not the staging folder's name
            (tmp / "iterate.json").write_text(json.dumps(info, indent=2))

        _atomic_folder(folder, write)
        _log_row(logger, info)  # a kill before it: the resumed run writes it from iterate.json
        for k in range(1, it + 3 - cfg.replay):  # labels the next iterations' replay no longer reads
            (run / "data" / f"iter_{k:05d}.npz").unlink(missing_ok=True)
        if bar is not None:
            bar.update(cfg.deals)
            if "match" in info:
                m = info["match"]
                bar.set_postfix(vs_start=f"{m['mean_diff']:+.1f}/deal")
        else:
            m = info.get("match")
            print(f"iteration {it + 1}: {len(data.cards['q'])} card and {len(data.bids['q'])} bid labels, "
                  f"{time.time() - t0:.0f} s" + (f"; vs start {m['mean_diff']:+.1f} per deal "
                                                  f"({m['mean_diff_ci'][0]:+.1f} to {m['mean_diff_ci'][1]:+.1f})"
                                                  if m else ""), flush=True)
    if bar is not None:
        bar.close()
    logger.close()
    return run
