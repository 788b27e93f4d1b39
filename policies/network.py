"""The policy/value network shared by training and the hard tier, and its file format.

A model is a folder holding ``model.safetensors`` (the weights) and ``meta.json`` (the
network shape, the action-table and observation-encoder versions, the rules, training
figures). Loading never executes code from the files: weights go through safetensors,
metadata through ``json`` (``belote_env.jsonfile``: size-bounded, clear errors). Only torch
is needed (no SB3).

The module names mirror SB3's ``MaskableActorCriticPolicy`` (``mlp_extractor.policy_net``,
``mlp_extractor.value_net``, ``action_net``, ``value_net``) so a trained SB3 policy's
``state_dict`` loads as is.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from belote_env import ACTION_TABLE_VERSION, NUM_ACTIONS, InfoSet
from belote_env.actions import ANNOUNCE_BELOTE, CLASSIC_BIDS, DECLARE, PASS, PROPOSE_REDEAL, SURCOINCHE
from belote_env.atomic import atomic_write_bytes
from belote_env.jsonfile import DataFileError, parse_json, read_json
from belote_env.actions import SMALL_BIDS, SMALL_NUM_ACTIONS
from belote_env.config import variant_of
from belote_env.observation import COINCHE_OBS_SIZE, COINCHE_OBS_VERSION, OBS_ENCODER_VERSION, OBS_SIZE, encode_infoset
from belote_env.observation import SMALL_OBS_SIZE, SMALL_OBS_VERSION
from belote_env.cards import NUM_CARDS

from .base import with_belote
from .symmetry import (
    action_permutation_table, bid_permutation_table, coinche_bid_permutation_table, suit_permutation_tables,
)

__all__ = ["BeloteNet", "CheckpointError", "save_model", "load_model", "load_card_net", "NetworkPolicy",
           "is_card_decision", "CARDS_SUBDIR", "CARD_VALUES_KIND", "CARD_TEMPERATURE", "suit_permutation_tables",
           "is_bid_decision", "load_bid_net", "BIDS_SUBDIR", "BID_VALUES_KIND", "BID_ACTIONS", "BID_TEMPERATURE",
           "bid_permutation_table", "action_permutation_table", "value_net_kwargs", "policy_suit_average_of",
           "FORMAT_VERSION",
           "MAX_HIDDEN_LAYERS", "MAX_LAYER_WIDTH", "MAX_PARAMETERS", "MAX_META_BYTES", "expected_shapes",
           "read_safetensors_header", "check_finite", "BATCH_VALUE_MARGIN", "BATCH_LOGIT_MARGIN",
           "COINCHE_BID_ACTIONS", "is_coinche_bid_decision", "coinche_bid_permutation_table", "VALUE_POLICY_KIND",
           "save_value_policy_meta", "contract_mode_of_size", "RulesMismatchError", "CONTRACT_MODE_OBS_SIZE",
           "SMALL_MODES", "small_with_belote", "SMALL_BID_ACTIONS", "is_small_bid_decision", "MODEL_PARTS",
           "declared_parts", "declare_parts"]

FORMAT_VERSION = 1
_ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh}
#: Bounds on a network description (a guard against corrupt files allocating huge tensors);
#: ``training.config`` checks the same bounds without importing torch.
MAX_HIDDEN_LAYERS = 16
MAX_LAYER_WIDTH = 16384
#: Bound on a network's total number of parameters (float32: 4 bytes each, 256 MiB at the
#: bound); the shipped hard tier's largest network has about 0.7 M.
MAX_PARAMETERS = 64 * 1024 * 1024
#: Bound on a safetensors file's JSON header (bytes); a model's header is a few KB.
_MAX_HEADER_BYTES = 1 << 20
#: Bound on a model's ``meta.json`` (bytes), checked before it is read; one is a few KB.
MAX_META_BYTES = 1 << 20


def _check_size(name: str, v: Any) -> None:
    if type(v) is not int or not 1 <= v <= MAX_LAYER_WIDTH:
        raise ValueError(f"{name} must be an int in 1..{MAX_LAYER_WIDTH}, got {v!r}")


def _check_layers(name: str, v: Any) -> list[int]:
    if not isinstance(v, (list, tuple)) or len(v) > MAX_HIDDEN_LAYERS or not all(
            type(x) is int and 1 <= x <= MAX_LAYER_WIDTH for x in v):
        raise ValueError(f"{name} must be a list of at most {MAX_HIDDEN_LAYERS} hidden layer sizes, each an int "
                         f"in 1..{MAX_LAYER_WIDTH} ([] for none: a linear head), got {v!r}")
    return list(v)


class CheckpointError(ValueError):
    """A model folder that is missing, corrupt, or made for another env version."""


def _mlp(sizes: list[int], activation: str) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), _ACTIVATIONS[activation]()]
    return nn.Sequential(*layers)


class _Extractor(nn.Module):
    def __init__(self, obs_size: int, pi: list[int], vf: list[int], activation: str, critic_extra: int = 0):
        super().__init__()
        self.policy_net = _mlp([obs_size] + pi, activation)
        self.value_net = _mlp([obs_size + critic_extra] + vf, activation)


class BeloteNet(nn.Module):
    """Actor-critic MLP: observation (float32, ``(B, obs_size)``) -> action logits
    (float32, ``(B, n_actions)``) and value (float32, ``(B,)``, in reward units).

    Args:
        obs_size: observation length (``OBS_SIZE``).
        n_actions: action-table size (``NUM_ACTIONS``).
        pi, vf: hidden layer sizes of the policy and value MLPs (``None``: ``[256, 256]``;
            ``[]``: no hidden layer, the head reads the observation directly, as SB3's
            ``MlpExtractor`` with an empty ``net_arch``).
        activation: ``"relu"`` or ``"tanh"``.
        critic_extra: with a perfect-information critic (training only, as in PerfectDou),
            the value MLP reads ``critic_extra`` more inputs appended after the
            observation (the hidden hands, ``training.selfplay.encode_perfect``); the
            policy always reads the first ``obs_size`` columns only, so acting needs the
            observation alone. 0 (default): actor and critic read the same observation.

    Raises:
        ValueError: a size that is not an int in range (``MAX_LAYER_WIDTH``), more than
            ``MAX_HIDDEN_LAYERS`` hidden layers, more than ``MAX_PARAMETERS`` parameters in
            all (checked before anything is allocated), an unknown activation.
    """

    def __init__(self, obs_size: int = OBS_SIZE, n_actions: int = NUM_ACTIONS,
                 pi: list[int] | None = None, vf: list[int] | None = None, activation: str = "relu",
                 critic_extra: int = 0):
        super().__init__()
        if not isinstance(activation, str) or activation not in _ACTIVATIONS:
            raise ValueError(f"activation must be one of {sorted(_ACTIVATIONS)}, got {activation!r}")
        if type(critic_extra) is not int or not 0 <= critic_extra <= MAX_LAYER_WIDTH:
            raise ValueError(f"critic_extra must be an int in 0..{MAX_LAYER_WIDTH}, got {critic_extra!r}")
        _check_size("obs_size", obs_size)
        _check_size("n_actions", n_actions)
        pi = _check_layers("pi", [256, 256] if pi is None else pi)
        vf = _check_layers("vf", [256, 256] if vf is None else vf)
        n_params = _parameter_count(obs_size, n_actions, pi, vf, critic_extra)
        if n_params > MAX_PARAMETERS:
            raise ValueError(f"the network would have {n_params:,} parameters, more than the bound "
                             f"MAX_PARAMETERS = {MAX_PARAMETERS:,} (pi={pi}, vf={vf})")
        self.config = {"obs_size": obs_size, "n_actions": n_actions, "pi": pi, "vf": vf, "activation": activation}
        if critic_extra:
            self.config["critic_extra"] = critic_extra
        self.obs_size = obs_size
        self.mlp_extractor = _Extractor(obs_size, pi, vf, activation, critic_extra)
        self.action_net = nn.Linear(pi[-1] if pi else obs_size, n_actions)
        self.value_net = nn.Linear(vf[-1] if vf else obs_size + critic_extra, 1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``obs``: ``(B, obs_size + critic_extra)``; returns ``(logits, value)``."""
        value = self.value_net(self.mlp_extractor.value_net(obs)).squeeze(-1)
        return self.logits(obs), value

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        """The policy head alone: float32 ``(B, n_actions)`` from ``(B, obs_size)`` (extra
        critic columns are ignored). For a card-value network (``training.oracle``),
        outputs 0..31 are the card values (point differences / 162)."""
        return self.action_net(self.mlp_extractor.policy_net(obs[:, :self.obs_size]))

    def masked_logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Logits with illegal actions (``mask == 0``) set to ``-inf``; shapes ``(B, n_actions)``.
        ``obs`` may carry the critic's extra columns (ignored)."""
        return self.logits(obs).masked_fill(mask == 0, float("-inf"))


def _parameter_count(obs_size: int, n_actions: int, pi: list[int], vf: list[int], critic_extra: int) -> int:
    """The number of parameters of ``BeloteNet`` with these sizes (weights and biases)."""
    def mlp(sizes: list[int]) -> int:
        return sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:]))

    return (mlp([obs_size] + pi + [n_actions]) + mlp([obs_size + critic_extra] + vf + [1]))


def expected_shapes(net_config: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """The tensor names and shapes of ``BeloteNet(**net_config)``, found without allocating
    any weights (the network is built on torch's ``meta`` device).

    Raises:
        ValueError, TypeError: a bad network description (as ``BeloteNet`` raises).
    """
    if not isinstance(net_config, dict):
        raise TypeError(f"a network description must be a dict, got {type(net_config).__name__}")
    with torch.device("meta"):
        net = BeloteNet(**net_config)
    return {k: tuple(v.shape) for k, v in net.state_dict().items()}


_SAFETENSORS_DTYPES = {"F32": 4, "F16": 2, "BF16": 2, "F64": 8}


def read_safetensors_header(path: str | os.PathLike) -> dict[str, tuple[str, tuple[int, ...]]]:
    """The tensors a safetensors file declares, ``{name: (dtype, shape)}``, read from its
    JSON header alone (no tensor data is read), with the header's consistency checked:
    the header length (at most 1 MiB), each tensor's byte range matching its dtype and
    shape, and the file's size matching the data the header declares.

    Raises:
        CheckpointError: an unreadable file or a header that is not valid safetensors.
    """
    path = Path(path)

    def bad(why: str) -> CheckpointError:
        return CheckpointError(f"{path}: corrupt weights file ({why})")

    try:
        with open(path, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                raise bad("shorter than a safetensors header")
            n = int.from_bytes(head, "little")
            if not 2 <= n <= _MAX_HEADER_BYTES:
                raise bad(f"header length {n} bytes, allowed 2..{_MAX_HEADER_BYTES}")
            raw = f.read(n)
            size = os.fstat(f.fileno()).st_size
    except OSError as e:
        raise CheckpointError(f"{path}: cannot read the weights file ({e})") from None
    if len(raw) < n:
        raise bad(f"truncated header: {len(raw)} of {n} bytes")
    try:
        header = parse_json(raw, "header")
    except DataFileError as e:
        raise bad(str(e)) from None
    if not isinstance(header, dict):
        raise bad("header is not a JSON object")
    out: dict[str, tuple[str, tuple[int, ...]]] = {}
    end = 0
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(entry, dict):
            raise bad(f"tensor {name!r}: entry is not an object")
        dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
        if dtype not in _SAFETENSORS_DTYPES:
            raise bad(f"tensor {name!r}: dtype {dtype!r}, allowed {sorted(_SAFETENSORS_DTYPES)}")
        if (not isinstance(shape, list) or len(shape) > 8
                or not all(type(d) is int and 0 <= d <= MAX_PARAMETERS for d in shape)):
            raise bad(f"tensor {name!r}: shape {shape!r} is not a list of at most 8 sizes")
        if (not isinstance(offsets, list) or len(offsets) != 2 or not all(type(o) is int for o in offsets)
                or not 0 <= offsets[0] <= offsets[1]):
            raise bad(f"tensor {name!r}: data_offsets {offsets!r}")
        numel = 1
        for d in shape:
            numel *= d
        if offsets[1] - offsets[0] != numel * _SAFETENSORS_DTYPES[dtype]:
            raise bad(f"tensor {name!r}: {offsets[1] - offsets[0]} bytes for shape {shape} of {dtype}")
        end = max(end, offsets[1])
        out[name] = (dtype, tuple(shape))
    if size != 8 + n + end:
        raise bad(f"{size} bytes on disk, the header declares {8 + n + end}")
    return out


def _check_weights_header(weights: Path, want: dict[str, tuple[int, ...]]) -> None:
    """Compare the tensors ``weights`` declares with ``want`` (the shapes of the network
    ``meta.json`` describes) before anything is allocated; raises ``CheckpointError``
    naming the first difference."""
    have = read_safetensors_header(weights)
    missing, extra = sorted(set(want) - set(have)), sorted(set(have) - set(want))
    if missing or extra:
        raise CheckpointError(f"{weights}: weights do not match the network in meta.json "
                              f"(missing tensors {missing}, unexpected tensors {extra})")
    for name, shape in want.items():
        dtype, got = have[name]
        if got != shape or dtype != "F32":
            raise CheckpointError(f"{weights}: weights do not match the network in meta.json (tensor {name!r} "
                                  f"is {dtype} {list(got)}, the network needs F32 {list(shape)})")


def check_finite(tensors: dict[str, torch.Tensor], where: str | os.PathLike) -> None:
    """Raise ``CheckpointError`` naming ``where`` and the first floating-point tensor holding
    NaN or infinite values (such weights would make the network play nonsense silently)."""
    for name, t in tensors.items():
        if t.is_floating_point() and not bool(torch.isfinite(t).all()):
            raise CheckpointError(f"{where}: corrupt weights, NaN or infinite values in tensor {name!r}")


def _model_folder(path: str | os.PathLike) -> Path:
    """A model folder from its path or the path of one of its two files."""
    folder = Path(path)
    return folder.parent if folder.name == "model.safetensors" or folder.suffix == ".json" else folder


#: The observation size of each contract mode (``observation.obs_size``): a network reads
#: the observation of one mode, recorded in its ``meta.json`` (``contract_mode``,
#: ``obs_size``) and checked on loading and at every decision (``NetworkPolicy.check_rules``).
CONTRACT_MODE_OBS_SIZE = {"classic": OBS_SIZE, "coinche": COINCHE_OBS_SIZE, "two": SMALL_OBS_SIZE[2],
                          "three": SMALL_OBS_SIZE[3]}
#: The action-table size of each game a network may play (``actions.num_actions``): 112
#: at four seats, 414 at two and three (TWO_THREE.md; the redeal answers 412, 413).
MODE_N_ACTIONS = {"classic": NUM_ACTIONS, "coinche": NUM_ACTIONS, "two": SMALL_NUM_ACTIONS, "three": SMALL_NUM_ACTIONS}


class RulesMismatchError(CheckpointError):
    """A network made for one contract mode (classic / coinche: observation size, action
    ids) asked to play under rules of another, or under rules whose action ids it does
    not have."""


def contract_mode_of_size(obs_size: Any) -> str | None:
    """The contract mode whose observation is ``obs_size`` floats (``"classic"`` 618,
    ``"coinche"`` ``COINCHE_OBS_SIZE``), ``None`` for any other size."""
    for mode, size in CONTRACT_MODE_OBS_SIZE.items():
        if obs_size == size:
            return mode
    return None


def _mode_meta(mode: str | None) -> dict[str, Any]:
    """The ``meta.json`` keys a network of contract mode ``mode`` records (none for a
    network of another observation size)."""
    if mode is None:
        return {}
    out: dict[str, Any] = {"contract_mode": mode, "obs_size": CONTRACT_MODE_OBS_SIZE[mode]}
    if mode == "coinche":
        out["coinche_obs_version"] = COINCHE_OBS_VERSION
    if mode in ("two", "three"):
        out["small_obs_version"] = SMALL_OBS_VERSION
    return out


def _meta_mode(meta: dict, obs_size: Any, where: Any) -> str:
    """The contract mode of a network from its ``meta.json`` and its network's observation
    size: ``contract_mode`` (absent in models saved before coinche: classic) must agree
    with the observation size, and a coinche network must carry this package's
    ``coinche_obs_version``; ``CheckpointError`` naming the mismatch otherwise."""
    by_size = contract_mode_of_size(obs_size)
    if by_size is None:
        raise CheckpointError(f"{where}: network expects obs {obs_size!r}, the env has {OBS_SIZE} (classic), "
                              f"{COINCHE_OBS_SIZE} (coinche), {SMALL_OBS_SIZE[2]} (two players) or "
                              f"{SMALL_OBS_SIZE[3]} (three players)")
    mode = meta.get("contract_mode", "classic" if by_size == "classic" else None)
    if mode != by_size:
        raise CheckpointError(f"{where}: meta.json says contract_mode {meta.get('contract_mode')!r} but the network "
                              f"reads {obs_size} observation floats, the size of {by_size} observations")
    if "obs_size" in meta and meta["obs_size"] != obs_size:
        raise CheckpointError(f"{where}: meta.json says obs_size {meta['obs_size']!r}, the network reads {obs_size}")
    if mode == "coinche" and meta.get("coinche_obs_version") != COINCHE_OBS_VERSION:
        raise CheckpointError(f"{where}: made for coinche_obs_version {meta.get('coinche_obs_version')!r}, this package "
                              f"uses {COINCHE_OBS_VERSION}; re-export the model with a matching belote-rl version")
    if mode in ("two", "three") and meta.get("small_obs_version") != SMALL_OBS_VERSION:
        raise CheckpointError(f"{where}: made for small_obs_version {meta.get('small_obs_version')!r}, this package "
                              f"uses {SMALL_OBS_VERSION}; re-export the model with a matching belote-rl version")
    return mode


#: ``meta.json`` key ``kind`` of a model folder without a policy network (no
#: ``model.safetensors``): its value networks (``cards/``, ``bids/``) play, the other
#: decisions follow ``NetworkPolicy``'s fixed rule.
VALUE_POLICY_KIND = "value_policy"


def save_value_policy_meta(folder: str | os.PathLike, rules, extra: dict[str, Any] | None = None) -> Path:
    """Write the ``meta.json`` of a model folder of value networks only (``kind`` =
    ``VALUE_POLICY_KIND``, no ``model.safetensors``): the format, action-table and
    observation versions, the contract mode and observation size of ``rules`` and the
    rules themselves (``Rules.to_dict``), plus ``extra``. The folder's ``cards/`` (and
    ``bids/``) are written by ``save_model``. Returns the folder."""
    from belote_env.observation import obs_size

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    mode = contract_mode_of_size(obs_size(rules))
    meta = {"format_version": FORMAT_VERSION, "kind": VALUE_POLICY_KIND, "action_table_version": ACTION_TABLE_VERSION,
            "obs_encoder_version": OBS_ENCODER_VERSION, "n_actions": MODE_N_ACTIONS.get(mode, NUM_ACTIONS),
            **_mode_meta(mode),
            "rules": rules.to_dict(), **(extra or {})}
    atomic_write_bytes(folder / "meta.json", json.dumps(meta, indent=2, sort_keys=True).encode())
    return folder


def save_model(folder: str | os.PathLike, state_dict: dict[str, torch.Tensor], net_config: dict[str, Any],
               extra: dict[str, Any] | None = None) -> Path:
    """Write ``model.safetensors`` + ``meta.json`` into ``folder`` (created), each file atomically.

    Args:
        folder: destination folder.
        state_dict: tensors named as in ``BeloteNet`` (other keys are dropped).
        net_config: ``BeloteNet.config``.
        extra: more JSON-able metadata (rules, training figures).
    Returns:
        the folder path.
    """
    from safetensors.torch import save

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    keys = set(BeloteNet(**net_config).state_dict())
    tensors = {k: v.detach().cpu().contiguous() for k, v in state_dict.items() if k in keys}
    missing = keys - set(tensors)
    if missing:
        raise CheckpointError(f"state_dict lacks network tensors: {sorted(missing)}")
    meta = {
        "format_version": FORMAT_VERSION,
        "action_table_version": ACTION_TABLE_VERSION,
        "obs_encoder_version": OBS_ENCODER_VERSION,
        "net": net_config,
        **_mode_meta(contract_mode_of_size(net_config.get("obs_size", OBS_SIZE))),
        **(extra or {}),
    }
    atomic_write_bytes(folder / "model.safetensors", save(tensors))
    atomic_write_bytes(folder / "meta.json", json.dumps(meta, indent=2, sort_keys=True).encode())
    return folder


def _is_value_policy(folder: Path) -> bool:
    try:
        return read_json(folder / "meta.json", MAX_META_BYTES).get("kind") == VALUE_POLICY_KIND
    except (DataFileError, AttributeError, OSError):
        return False


def load_model(folder: str | os.PathLike, contract_mode: str | None = None) -> tuple[BeloteNet, dict[str, Any]]:
    """Load a model folder (or the path of its ``model.safetensors``) with torch alone.
    ``contract_mode``: ``"classic"`` or ``"coinche"`` to require a network of that mode
    (``RulesMismatchError`` naming both otherwise); ``None``: either (the mode is
    ``meta.json``'s ``contract_mode``, absent in older models: classic, and must match the
    network's observation size, ``CONTRACT_MODE_OBS_SIZE``).

    Returns:
        ``(net, meta)``: the network in eval mode and the metadata dict.
    The network described in ``meta.json`` is checked against the tensor shapes the
    weights file's header declares, and against ``MAX_PARAMETERS``, before any weight is
    allocated or read, so an edited ``meta.json`` cannot make the loader allocate more
    than the file holds.

    Raises:
        CheckpointError: missing files, unreadable or corrupt files, an action-table or
            observation-encoder version other than this package's, a network over the
            bounds, tensors that do not match the declared network shape, NaN or infinite
            weights, or a ``meta.json`` over ``MAX_META_BYTES``.
    """
    from safetensors.torch import load_file

    folder = _model_folder(folder)
    weights, meta_path = folder / "model.safetensors", folder / "meta.json"
    for p in (weights, meta_path):
        if not p.is_file():
            raise CheckpointError(f"{folder}: not a model folder, {p.name} is missing"
                                  + (" (a folder of value networks only: load it with NetworkPolicy.from_path or "
                                     "make_policy)" if p is weights and _is_value_policy(folder) else ""))
    try:
        meta = read_json(meta_path, MAX_META_BYTES)
    except DataFileError as e:
        raise CheckpointError(f"{meta_path}: corrupt metadata, {str(e).removeprefix(f'{meta_path}: ')}") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("net"), dict):
        raise CheckpointError(f"{meta_path}: metadata lacks the 'net' section")
    for key, want in (("action_table_version", ACTION_TABLE_VERSION), ("obs_encoder_version", OBS_ENCODER_VERSION)):
        if meta.get(key) != want:
            raise CheckpointError(
                f"{folder}: made for {key} {meta.get(key)!r}, this package uses {want}; "
                "re-export the model with a matching belote-rl version")
    try:
        want = expected_shapes(meta["net"])
    except (TypeError, ValueError) as e:
        raise CheckpointError(f"{meta_path}: bad network description {meta['net']!r} ({e})") from None
    obs_size, n_actions = meta["net"].get("obs_size", OBS_SIZE), meta["net"].get("n_actions", NUM_ACTIONS)
    by_size = contract_mode_of_size(obs_size)
    if by_size is None or n_actions != MODE_N_ACTIONS[by_size]:
        raise CheckpointError(f"{folder}: network expects obs {obs_size!r} / actions {n_actions!r}, "
                              f"the env has {OBS_SIZE} (classic) or {COINCHE_OBS_SIZE} (coinche) / {NUM_ACTIONS}, "
                              f"{SMALL_OBS_SIZE[2]} (two players) or {SMALL_OBS_SIZE[3]} (three) / {SMALL_NUM_ACTIONS}")
    mode = _meta_mode(meta, obs_size, folder)
    if contract_mode is not None and mode != contract_mode:
        raise RulesMismatchError(f"{folder}: a {mode} model (observation of {obs_size} floats), asked for "
                                 f"{contract_mode} rules (observation of {CONTRACT_MODE_OBS_SIZE[contract_mode]})")
    _check_weights_header(weights, want)
    net = BeloteNet(**meta["net"])
    try:
        tensors = load_file(str(weights))
    except Exception as e:  # safetensors raises its own error types on corrupt files
        raise CheckpointError(f"{weights}: corrupt weights file ({e})") from None
    check_finite(tensors, weights)
    try:
        net.load_state_dict(tensors, strict=True)
    except RuntimeError as e:
        raise CheckpointError(f"{weights}: weights do not match the network in meta.json ({e})") from None
    net.eval()
    return net, meta


#: Sub-folder of a model folder holding an optional card-value network (``training.oracle``).
CARDS_SUBDIR = "cards"
#: ``meta.json`` key ``kind`` of a card-value network (it is not a policy on its own).
CARD_VALUES_KIND = "card_values"
#: Temperature (points) of the card probabilities a card-value network implies.
CARD_TEMPERATURE = 10.0
#: Sub-folder of a model folder holding an optional bid-value network (``training.oracle``).
BIDS_SUBDIR = "bids"
#: ``meta.json`` key ``kind`` of a bid-value network.
BID_VALUES_KIND = "bid_values"
#: The action ids a bid-value network values: the classic auction's bids, pass, take, name
#: a contract (``actions.CLASSIC_BIDS``, 32..39; output ``a`` of the network is action ``a``).
BID_ACTIONS = CLASSIC_BIDS
#: the first of them: a bid-value network's output ``j`` values bid ``_FIRST_BID + j``
_FIRST_BID = BID_ACTIONS[0]
#: Temperature (points) of the bid probabilities a bid-value network implies.
BID_TEMPERATURE = 10.0
_VALUE_NET_NAMES = {CARD_VALUES_KIND: "card-value", BID_VALUES_KIND: "bid-value"}
#: The sub-folders a model folder may hold (a value network each); its ``meta.json`` key
#: ``parts`` lists those it has, and a loader refuses the folder when one is missing.
MODEL_PARTS = {CARDS_SUBDIR: "card-value", BIDS_SUBDIR: "bid-value"}


def declared_parts(meta: dict, where: str | os.PathLike = "meta.json") -> tuple[str, ...]:
    """The sub-folders a model's ``meta.json`` declares (key ``parts``: a list of
    ``MODEL_PARTS`` names, each once); ``()`` when the key is absent (folders written
    before it was declared). Raises ``CheckpointError`` (naming ``where``) for a bad value."""
    v = meta.get("parts", [])
    if not isinstance(v, list) or not all(isinstance(p, str) and p in MODEL_PARTS for p in v) or len(set(v)) != len(v):
        raise CheckpointError(f"{where}: parts must be a list of distinct sub-folder names among "
                              f"{sorted(MODEL_PARTS)}, got {v!r:.80}")
    return tuple(v)


def declare_parts(folder: str | os.PathLike) -> list[str]:
    """Rewrite ``folder/meta.json``'s ``parts`` (atomically) as the ``MODEL_PARTS``
    sub-folders the folder holds; returns them. Every writer of a model folder calls it
    once the folder is complete."""
    folder = Path(folder)
    meta = read_json(folder / "meta.json", MAX_META_BYTES)
    meta["parts"] = sorted(p for p in MODEL_PARTS if (folder / p / "meta.json").is_file())
    atomic_write_bytes(folder / "meta.json", json.dumps(meta, indent=2, sort_keys=True).encode())
    return meta["parts"]


#: The action ids a coinche bid-value network values (``contract_mode="coinche"``): pass
#: (32), the coinche bids 40..99 (``COINCHE_BID + level_index * 6 + denomination``), coinche
#: (100) and surcoinche (101); its data have one column per id of 32..101 (ids 33..39, the
#: classic take / name a contract, are never legal there).
COINCHE_BID_ACTIONS = range(PASS, SURCOINCHE + 1)


def is_coinche_bid_decision(info: InfoSet) -> bool:
    """A coinche auction decision (``contract_mode="coinche"``, COINCHE.md §3) with more
    than one legal action, all of them in ``COINCHE_BID_ACTIONS`` (pass, a bid 80..160 or
    capot, coinche, surcoinche): a coinche bid-value network's domain. A decision offering
    an extended id (a générale or a bid above 160, ``actions.num_actions`` 412) is not one."""
    legal = info.legal_actions
    return (info.contract is None and len(legal) > 1 and info.rules.contract_mode == "coinche"
            and all(PASS <= a <= SURCOINCHE for a in legal))


#: The action ids a two- or three-seat bid-value network values (TWO_THREE.md §2.3): pass
#: (32), accept the turned suit (``TAKE``, 33) and name suit ``s`` (``NAME_CONTRACT + s``,
#: 34..37); its data have one column per id of 32..37. Proposing a redeal (106) and the
#: answers to a proposal are never valued (the policy network makes the answers; where the
#: bid-value network decides, the seat never proposes).
SMALL_BID_ACTIONS = SMALL_BIDS
#: outputs 32..37 of a small bid-value network, unpermuted (``_value_outputs``' width)
_SMALL_BID_TABLE = torch.arange(len(SMALL_BID_ACTIONS))[None]


def is_small_bid_decision(info) -> bool:
    """A contract decision of the two- or three-seat auction (TWO_THREE.md §2.3; a
    ``SmallInfoSet``): no contract yet, every legal action in ``SMALL_BID_ACTIONS`` or
    ``PROPOSE_REDEAL``, and at least two of ``SMALL_BID_ACTIONS`` legal (pass / take in
    round 1, pass / name a suit in round 2, or a forced choice of suits). Answering a
    proposal (agree / refuse) is not one: the small bid-value network's domain."""
    if info.contract is None and getattr(info, "players", 4) in (2, 3):
        n = 0
        for a in info.legal_actions:
            if a in SMALL_BID_ACTIONS:
                n += 1
            elif a != PROPOSE_REDEAL:
                return False
        return n > 1
    return False


def is_bid_decision(info: InfoSet) -> bool:
    """A classic bidding decision (RULES.md §3.2-3.3: pass, take the turned suit, or name a
    contract) with more than one legal bid: the bid-value network's domain."""
    legal = info.legal_actions
    return info.contract is None and len(legal) > 1 and all(a in BID_ACTIONS for a in legal)


def is_card_decision(info: InfoSet) -> bool:
    """A card-play decision with more than one legal card, where the only other legal
    action is announcing belote (the card-value network's domain). A decision where
    declaring is also possible (``declarations: choice``, RULES.md §6) is not one: the
    policy network makes it. At two and three seats (a ``SmallInfoSet``) only the card
    step of the play is one (``small_game.STEPS``: not the maker's discards, whose legal
    actions are card ids too)."""
    if info.contract is None:
        return False
    legal = info.legal_actions
    n = 0
    for a in legal:
        if a < NUM_CARDS:
            n += 1
        elif a != ANNOUNCE_BELOTE:
            return False
    return n > 1 and getattr(info, "step", _SMALL_CARDS_STEP) == _SMALL_CARDS_STEP


#: The contract modes of the two- and three-seat games (TWO_THREE.md; ``config.variant_of``).
SMALL_MODES = ("two", "three")
#: ``small_game.STEPS.index("cards")``: the step of a ``SmallInfoSet``'s card play (a
#: four-seat ``InfoSet`` has no ``step``).
_SMALL_CARDS_STEP = 3


def small_with_belote(info, choice: int) -> int:
    """The two- and three-seat ``with_belote`` (TWO_THREE.md §2.7: belote is claimed with
    the *second* card of the K+Q of trumps): ``ANNOUNCE_BELOTE`` when it is legal and
    ``choice`` is that second card (the seat played the other one), else ``choice``."""
    if ANNOUNCE_BELOTE in info.legal_actions and choice & 7 in (5, 6) and choice >> 3 == info.trump:
        other = (choice & ~7) | (11 - (choice & 7))  # Q (5) <-> K (6) of the suit
        if info.played_by[info.seat] >> other & 1:
            return ANNOUNCE_BELOTE
    return choice


class NetworkPolicy:
    """A policy backed by a ``BeloteNet`` (checkpoints, exported models, the hard tier),
    or by value networks alone (``net=None``: the coinche hard tier).

    Args:
        net: the policy network, or ``None`` (a model folder of value networks only,
            ``VALUE_POLICY_KIND``): then ``card_net`` is required, and the decisions the
            value networks do not make follow a fixed rule (``rule_action``: announce /
            declare when legal, else the lowest legal id). ``meta``: its metadata.
        deterministic: play the most probable legal action (default) or sample.
        seed: seed of the policy's own RNG (used only when sampling).
        name: display name.
        card_net: optional card-value network (``training.oracle``): at card decisions
            (``is_card_decision``) the legal card with the largest output 0..31 is played
            (with the belote announcement when due, ``policies.base.with_belote``),
            whatever ``deterministic`` says; ``net`` makes every other decision.
        suit_average: average the card-value network over the 24 renamings of the suits
            (``observation.suit_permutation_index``: one batched forward pass of 24 rows),
            as it was trained with renamed suits (``training.oracle``).
        bid_net: optional bid-value network (``training.oracle.generate_bid_data``). Classic
            (a network of the classic observation): at classic bidding decisions
            (``is_bid_decision``) whose legal bids are all in ``bid_actions``, the legal bid
            with the largest output (ids 32..39) is made, whatever ``deterministic`` says;
            ``net`` makes the other bidding decisions. Coinche (a network of the coinche
            observation, ``COINCHE_OBS_SIZE``): at coinche auction decisions
            (``is_coinche_bid_decision``) the legal action of ``bid_actions`` (ids
            32..101: pass, the bids, coinche, surcoinche) with the largest output is made;
            legal bids it was never trained on are not made (pass always is one). Two and
            three seats (``SMALL_MODES``): at the contract decisions of the auction
            (``is_small_bid_decision``: pass / take / name a suit, a redeal proposal
            perhaps legal too) whose legal bids are all in ``bid_actions`` (ids 32..37),
            the bid with the largest output is made: such a seat never proposes a redeal;
            ``net`` answers proposals and makes every other decision.
        bid_suit_average: average the bid-value network over the 24 suit renamings.
        bid_actions: the bid ids the bid-value network was trained on (its ``meta.json``
            key ``bid_actions``; default all of 32..39, coinche 32..101). A network fitted
            on default-rule deals never saw no-trump / all-trump (38, 39), so under
            ``round2_no_trump_all_trump`` its round-2 decisions go to ``net``.
        policy_suit_average: wherever ``net`` decides (``action_probabilities``, ``act``,
            ``act_batch``), play it averaged over the 24 suit renamings: the mean over the
            renamings of its log-probabilities, each mapped back to the deal's action ids
            (``action_permutation_table``: cards, "name a suit" and coinche bids move with
            their suit, every other action stays). A self-play network trained on
            suit-symmetric deals plays better so (a model's ``meta.json`` key
            ``policy_suit_average``, read by ``from_path``). The mean of the
            log-softmaxes is the mean of the logits less a constant (the mean of the 24
            normalisers), so the policy averages the logits: the same probabilities and
            decisions, and a linear average the batched pass makes in its compiled kernel.
        card_unit, bid_unit: the points one unit of the value networks' outputs stands for
            (their ``meta.json`` key ``value_unit``: 162 classic, 500 coinche); only the
            softmax of ``action_probabilities`` reads them (its temperature is in points).

    Every network reads the observation of one contract mode (``contract_mode``: classic,
    618 floats; coinche, ``COINCHE_OBS_SIZE``); every decision checks the info set's rules
    against it (``check_rules``: ``RulesMismatchError`` naming both modes, never a silent
    fallback).

    Raises ``ValueError`` for a ``suit_average``, ``bid_suit_average`` or
    ``policy_suit_average`` that is not a bool, ``bid_actions`` that are not ids of the
    mode's bids, networks of different contract modes, or no network to play cards.
    """

    def __init__(self, net: BeloteNet | None, meta: dict | None = None, deterministic: bool = True,
                 seed: int | None = None, name: str = "network", card_net: BeloteNet | None = None,
                 suit_average: bool = False, bid_net: BeloteNet | None = None, bid_suit_average: bool = False,
                 bid_actions=None, policy_suit_average: bool = False, card_unit: float = 162.0,
                 bid_unit: float = 162.0):
        for key, v in (("suit_average", suit_average), ("bid_suit_average", bid_suit_average),
                       ("policy_suit_average", policy_suit_average)):
            if type(v) is not bool:
                raise ValueError(f"{key} must be a bool, got {v!r}")
        if net is None and card_net is None:
            raise ValueError("a NetworkPolicy needs a policy network or a card-value network")
        modes = {which: contract_mode_of_size(n.obs_size) for which, n in
                 (("policy", net), ("card-value", card_net), ("bid-value", bid_net)) if n is not None}
        if len(set(modes.values())) > 1 or None in modes.values():
            raise ValueError(f"the networks must read the observation of one contract mode (classic {OBS_SIZE} or "
                             f"coinche {COINCHE_OBS_SIZE} floats), got {modes}")
        self.contract_mode: str = next(iter(modes.values()))
        if self.contract_mode in SMALL_MODES and suit_average:
            raise ValueError(f"suit_average is for four-seat card-value networks: the {self.contract_mode}-player "
                             f"observation has no suit-renaming tables")
        coinche = self.contract_mode == "coinche"
        self._bid_range = (COINCHE_BID_ACTIONS if coinche else SMALL_BID_ACTIONS if self.contract_mode in SMALL_MODES
                           else BID_ACTIONS)
        self.bid_actions = _check_bid_actions(self._bid_range if bid_actions is None else bid_actions,
                                              self._bid_range)
        self.net, self.meta, self.name = net, meta or {}, name
        self.card_net = card_net
        self.suit_average = suit_average
        self.bid_net = bid_net
        self.bid_suit_average = bid_suit_average
        self.policy_suit_average = policy_suit_average
        self.card_unit, self.bid_unit = float(card_unit), float(bid_unit)
        self.deterministic = deterministic
        self.rng = random.Random(seed)
        self.obs_size = CONTRACT_MODE_OBS_SIZE[self.contract_mode]
        self._obs = np.zeros(self.obs_size, dtype=np.float32)
        self._rules_ok = None  # the last rules check_rules accepted

    @classmethod
    def from_path(cls, path: str | os.PathLike, **kwargs) -> "NetworkPolicy":
        """Load a model folder (see ``load_model``), and its ``cards/`` card-value and
        ``bids/`` bid-value networks when it has them, played as its ``meta.json`` says
        (``value_net_kwargs``: ``policy_suit_average`` too); ``kwargs`` override those;
        raises ``CheckpointError``. A folder of value networks only (``meta.json`` kind
        ``VALUE_POLICY_KIND``, no ``model.safetensors``) loads with ``net=None``; its
        networks must be of the contract mode its ``meta.json`` records."""
        folder = _model_folder(path)
        if not (folder / "model.safetensors").exists() and _is_value_policy(folder):
            meta = read_json(folder / "meta.json", MAX_META_BYTES)
            mode = meta.get("contract_mode")
            if mode not in CONTRACT_MODE_OBS_SIZE:
                raise CheckpointError(f"{folder / 'meta.json'}: contract_mode must be one of "
                                      f"{sorted(CONTRACT_MODE_OBS_SIZE)}, got {mode!r}")
            _meta_mode(meta, meta.get("obs_size"), folder / "meta.json")
            values = value_net_kwargs(path, meta, contract_mode=mode)
            if "card_net" not in values:
                raise CheckpointError(f"{folder}: a folder of value networks only needs its card-value network "
                                      f"({CARDS_SUBDIR}/)")
            kwargs.setdefault("name", str(path))
            return cls(None, meta, **(values | kwargs))
        net, meta = load_model(path)
        if meta.get("kind") in (CARD_VALUES_KIND, BID_VALUES_KIND):
            sub = CARDS_SUBDIR if meta["kind"] == CARD_VALUES_KIND else BIDS_SUBDIR
            raise CheckpointError(f"{path}: a {_VALUE_NET_NAMES[meta['kind']]} network, not a policy; load the model "
                                  f"folder that holds it in {sub}/")
        kwargs.setdefault("name", str(path))
        mode = contract_mode_of_size(net.obs_size)
        return cls(net, meta, **(value_net_kwargs(path, meta, contract_mode=mode) | kwargs))

    def check_rules(self, rules) -> None:
        """Raise ``RulesMismatchError`` unless this policy's networks can play under
        ``rules``: the same contract mode (classic / coinche: the observation they read)
        and the action table of ``NUM_ACTIONS`` ids (coinche rules with a générale or bids
        above 160 use 412 ids, ``actions.num_actions``, which no network here has)."""
        if rules is self._rules_ok:
            return
        from belote_env.actions import num_actions

        mode = variant_of(rules)
        if mode != self.contract_mode:
            hint = (" (make_policy('hard') picks the hard model of the rules' mode)" if self.name == "hard" else "")
            raise RulesMismatchError(
                f"{self.name}: a {self.contract_mode} model (its networks read the {self.contract_mode} observation "
                f"of {self.obs_size} floats) cannot play {mode} rules (observation of "
                f"{CONTRACT_MODE_OBS_SIZE.get(mode, '?')} floats): load a {mode} model{hint}")
        n = num_actions(rules)
        if n != MODE_N_ACTIONS[mode]:
            raise RulesMismatchError(
                f"{self.name}: its networks have the {NUM_ACTIONS} action ids; these {mode} rules use {n} "
                f"(generale={rules.generale}, max_numeric_bid={rules.max_numeric_bid}: extended bid ids 112..411), "
                f"which it was never trained on: play it with generale false and max_numeric_bid 160")
        self._rules_ok = rules

    def _encode(self, info: InfoSet) -> np.ndarray:
        self.check_rules(info.rules)
        if self.contract_mode in ("two", "three"):
            from belote_env.observation import encode_small

            return encode_small(info, self._obs)
        return encode_infoset(info, self._obs)

    @torch.inference_mode()
    def action_probabilities(self, info: InfoSet) -> dict[int, float]:
        """Probability of each legal action id under the network. With a card-value
        network, at card decisions (``is_card_decision``) the cards get a softmax of their
        values at a temperature of ``CARD_TEMPERATURE`` points (the card ``act`` plays is
        the most probable) and announcing belote gets 0 (``act`` announces through
        ``with_belote``): what a search on top of the policy (``hard+search``) or a belief
        modelling it reads. Elsewhere the policy network's softmax over the legal actions
        (averaged over the suit renamings with ``policy_suit_average``); without a policy
        network, 1 for ``rule_action``'s action."""
        self.check_rules(info.rules)
        if self.card_net is not None and is_card_decision(info):
            return _softmax(self.card_values(info), CARD_TEMPERATURE, info.legal_actions, self.card_unit)
        if self._bids_by_value(info):
            return _softmax(self.bid_values(info), BID_TEMPERATURE, info.legal_actions, self.bid_unit)
        if self.net is None:
            a = self.rule_action(info)
            return {b: float(b == a) for b in info.legal_actions}
        logits = self.policy_logits(info)
        legal = list(info.legal_actions)
        p = torch.softmax(logits[legal], dim=0).tolist()
        return dict(zip(legal, p))

    @torch.inference_mode()
    def policy_logits(self, info: InfoSet) -> torch.Tensor:
        """The policy network's logits for ``info``, float32 ``(NUM_ACTIONS,)``; with
        ``policy_suit_average`` their mean over the 24 suit renamings, each renaming's
        outputs mapped back to the deal's action ids (``action_permutation_table``): up to
        a constant, the mean of the renamings' log-probabilities. ``ValueError`` without a
        policy network."""
        if self.net is None:
            raise ValueError(f"{self.name}: no policy network (value networks only)")
        obs = torch.from_numpy(self._encode(info))
        if not self.policy_suit_average:
            return self.net.logits(obs.unsqueeze(0))[0]
        po, _ = suit_permutation_tables(self.obs_size)
        out = self.net.logits(obs[po])
        return torch.empty_like(out).scatter_(1, action_permutation_table(out.shape[1]), out).mean(0)

    @torch.inference_mode()
    def card_values(self, info: InfoSet) -> dict[int, float]:
        """The card-value network's value of each legal card: a point difference /
        ``card_unit`` (162 classic, 500 coinche) for the seat's team, trained on values
        centred per decision, so only the differences between cards are meaningful.
        Raises ``ValueError`` if the policy has no card-value network."""
        if self.card_net is None:
            raise ValueError(f"{self.name}: no card-value network")
        out = self._value_outputs(info, self.card_net, self.suit_average, 0, suit_permutation_tables()[1])
        return {a: out[a] for a in info.legal_actions if a < NUM_CARDS}

    def _bids_by_value(self, info: InfoSet) -> bool:
        if self.bid_net is None:
            return False
        if self.contract_mode == "coinche":
            return is_coinche_bid_decision(info) and any(a in self.bid_actions for a in info.legal_actions)
        if self.contract_mode in SMALL_MODES:  # never proposes a redeal where it values the bids
            return is_small_bid_decision(info) and all(a in self.bid_actions for a in info.legal_actions
                                                       if a != PROPOSE_REDEAL)
        return is_bid_decision(info) and all(a in self.bid_actions for a in info.legal_actions)

    @torch.inference_mode()
    def bid_values(self, info: InfoSet) -> dict[int, float]:
        """The bid-value network's value of each legal bid it was trained on (classic ids
        32..39; coinche ids of ``bid_actions`` among 32..101; two / three seats the legal
        ids of ``bid_actions`` among 32..37, ``SMALL_BID_ACTIONS``, never a redeal
        proposal, the acting seat's margin): the deal's point difference
        / ``bid_unit`` for the seat's team, trained on values centred per decision (only
        the differences between bids are meaningful). Raises ``ValueError`` if the policy
        has no bid-value network."""
        if self.bid_net is None:
            raise ValueError(f"{self.name}: no bid-value network")
        if self.contract_mode in SMALL_MODES:  # ids 32..37 (SMALL_BID_ACTIONS); a redeal proposal is not valued
            out = self._value_outputs(info, self.bid_net, False, _FIRST_BID, _SMALL_BID_TABLE)
            return {a: out[a - _FIRST_BID] for a in info.legal_actions if a in self.bid_actions}
        coinche = self.contract_mode == "coinche"
        table = coinche_bid_permutation_table() if coinche else bid_permutation_table()
        out = self._value_outputs(info, self.bid_net, self.bid_suit_average, _FIRST_BID, table)
        if coinche:
            return {a: out[a - _FIRST_BID] for a in info.legal_actions if a in self.bid_actions}
        return {a: out[a - _FIRST_BID] for a in info.legal_actions}

    def _value_outputs(self, info: InfoSet, net: BeloteNet, average: bool, first: int,
                       table: torch.Tensor) -> list[float]:
        """Outputs ``first .. first + table.shape[1] - 1`` of a value network for ``info``,
        averaged over the 24 suit renamings when ``average`` (``table``: how each renaming
        permutes those outputs, ``suit_permutation_tables`` / ``bid_permutation_table``)."""
        obs = torch.from_numpy(self._encode(info))
        width = table.shape[1]
        if not average:
            return net.logits(obs.unsqueeze(0))[0, first:first + width].tolist()
        po, _ = suit_permutation_tables(self.obs_size)
        out = net.logits(obs[po])[:, first:first + width]
        # row p values the renamed deal: output j of row p is output table[p, j] of the deal
        return torch.empty_like(out).scatter_(1, table, out).mean(0).tolist()

    def rule_action(self, info: InfoSet) -> int:
        """The fixed rule a policy without a policy network (``net=None``) follows where its
        value networks do not decide (``act``): a card decision the card-value network
        does not take (e.g. declining belote is legal too, ``belote: optional``) plays its
        best legal card (with the belote announcement, ``with_belote``); otherwise
        announce: ``DECLARE`` (declarations, RULES.md §6) or ``ANNOUNCE_BELOTE`` when
        legal; otherwise the bid-value network's best trained bid when one is legal;
        otherwise the lowest legal id.

        At two and three seats (``SMALL_MODES``) the card-value network plays the card
        decisions (``is_card_decision``: the card step, with the belote claim of
        ``small_with_belote``) and every other decision (the bids, the seven exchange,
        the maker's discards, the combinations protocol, a belote claim with one legal
        card) is the ``normal`` tier's (``policies.small_play.normal_small_act``): the
        lowest legal id would pass every auction and give up the combinations."""
        legal = info.legal_actions
        if self.contract_mode in SMALL_MODES:
            if self.card_net is not None and is_card_decision(info):
                v = self.card_values(info)
                return small_with_belote(info, max(v, key=lambda a: (v[a], -a)))
            from .small_play import normal_small_act

            return normal_small_act(info)
        cards = [a for a in legal if a < NUM_CARDS]
        if DECLARE in legal:
            return DECLARE
        if cards and self.card_net is not None:
            v = self.card_values(info)
            return with_belote(info, max(v, key=lambda a: (v[a], -a)))
        if ANNOUNCE_BELOTE in legal:
            return ANNOUNCE_BELOTE
        if self.bid_net is not None and any(a in self.bid_actions for a in legal) and (
                self.contract_mode == "coinche" or all(a in BID_ACTIONS for a in legal)):
            v = self.bid_values(info)
            if v:
                return max(v, key=lambda a: (v[a], -a))
        return min(legal)

    def act(self, info: InfoSet) -> int:
        self.check_rules(info.rules)
        legal = info.legal_actions
        if len(legal) == 1:
            return legal[0]
        if self.card_net is not None and is_card_decision(info):
            v = self.card_values(info)
            best = max(v, key=lambda a: (v[a], -a))
            return small_with_belote(info, best) if self.contract_mode in SMALL_MODES else with_belote(info, best)
        if self._bids_by_value(info):
            v = self.bid_values(info)
            return max(v, key=lambda a: (v[a], -a))
        if self.net is None:
            return self.rule_action(info)
        probs = self.action_probabilities(info)
        if self.deterministic:
            return max(legal, key=lambda a: (probs[a], -a))
        x, acc = self.rng.random(), 0.0
        for a in legal:
            acc += probs[a]
            if x < acc:
                return a
        return legal[-1]

    def act_batch(self, batch) -> np.ndarray:
        """The actions of a batch of seats (``belote_env.vector.SeatBatch``: ``obs``,
        ``mask``, ``infoset(i)``): int64 ``(len(batch),)``.

        With ``deterministic=True`` row ``i`` gets exactly ``act(batch.infoset(i))``: the
        rows are sorted into card decisions (``is_card_decision``: the card-value
        network, with the belote announcement of ``with_belote``), classic bidding
        decisions (``_bids_by_value``: the bid-value network) and the others (the policy
        network), from the masks and observations alone; each network then makes its rows'
        decisions in one batched pass (``policies.batch.network_outputs``: the 24 suit
        renamings of every row together, for the policy network too with
        ``policy_suit_average``: its averaged logits, ``policy_logits``). A row whose best
        action leads the next by less than ``BATCH_VALUE_MARGIN`` / ``BATCH_LOGIT_MARGIN``
        (relative to the best's size; an exact tie included) is decided again by ``act``
        on its ``InfoSet``: the batch's float32 rounding may differ from ``act``'s one-row
        pass, never by that much, so ties break as ``act`` breaks them (about 0.1% of the
        hard tier's decisions in random play).

        With ``deterministic=False`` the policy network's rows are sampled, in row order,
        from the policy's ``rng`` (one ``rng.random()`` a row, as ``act`` draws): the
        draws follow ``act``'s sequence, but an action is picked from probabilities
        computed in the batch, so a draw at the boundary between two actions may pick
        another one than ``act`` would (the value networks' rows are decided as above).
        torch's thread count (``torch.get_num_threads``) is the number of threads used.

        Raises ``ValueError`` for a row without a legal action or a mask / observation of
        the wrong shape.
        """
        from .batch import network_outputs

        mask = np.asarray(batch.mask) != 0
        m = len(mask)
        if self.contract_mode == "coinche" and self.net is None and self.deterministic:
            return self._act_batch_coinche(batch, mask)
        if self.contract_mode in SMALL_MODES and self.deterministic:
            return self._act_batch_small(batch, mask)
        if self.contract_mode != "classic" or self.net is None:
            # value networks only, not deterministic: each row decided by act on its InfoSet (the same decisions)
            if mask.ndim != 2:
                raise ValueError(f"batch.mask must be 2-D, got {mask.shape}")
            out = np.zeros(m, dtype=np.int64)
            for i in range(m):
                if mask[i].sum() == 0:
                    raise ValueError(f"rows without a legal action: [{i}]")
                out[i] = mask[i].argmax() if mask[i].sum() == 1 else self.act(batch.infoset(i))
            return out
        out, todo = _forced_rows(mask)
        if not todo.any():
            return out
        obs_width = np.asarray(batch.obs).shape[-1]
        if obs_width != OBS_SIZE:
            raise RulesMismatchError(f"{self.name}: a classic model (observation of {OBS_SIZE} floats) got a batch of "
                                     f"{obs_width}-float observations (coinche rules?): load a model of those rules")
        obs = np.asarray(batch.obs)
        if obs.shape != (m, OBS_SIZE):
            raise ValueError(f"batch.obs must be ({m}, {OBS_SIZE}), got {obs.shape}")
        c0, c1, _ = _obs_blocks()
        contract = obs[:, c0:c1].any(1)
        threads = torch.get_num_threads()
        redo = self._card_rows_batched(obs, mask, todo, contract, out, threads)
        if self.bid_net is not None:
            allowed = np.zeros(NUM_ACTIONS, dtype=bool)
            allowed[list(self.bid_actions)] = True
            rows = np.flatnonzero(todo & ~contract & ~(mask & ~allowed).any(1))
            if len(rows):
                table = bid_permutation_table() if self.bid_suit_average else None
                width = len(BID_ACTIONS)
                compiled = self._compiled("bids", self.bid_net, _FIRST_BID, width, table)
                v = network_outputs(self.bid_net, obs[rows], _FIRST_BID, width, table, compiled, threads)
                best, close = _best_legal(v, mask[rows, _FIRST_BID:_FIRST_BID + width], BATCH_VALUE_MARGIN)
                out[rows] = _FIRST_BID + best
                redo.append(rows[close])
                todo[rows] = False
        rows = np.flatnonzero(todo)
        if len(rows):
            table = action_permutation_table() if self.policy_suit_average else None
            key = "policy-average" if self.policy_suit_average else "policy"
            compiled = self._compiled(key, self.net, 0, NUM_ACTIONS, table)
            logits = network_outputs(self.net, obs[rows], 0, NUM_ACTIONS, table, compiled, threads)
            legal = mask[rows]
            if self.deterministic:
                best, close = _best_legal(logits, legal, BATCH_LOGIT_MARGIN)
                out[rows] = best
                redo.append(rows[close])
            else:
                with torch.inference_mode():
                    p = torch.softmax(torch.from_numpy(logits).masked_fill(torch.from_numpy(~legal), float("-inf")),
                                      1).numpy().astype(np.float64)
                acc = np.cumsum(np.where(legal, p, 0.0), 1)
                x = np.array([self.rng.random() for _ in rows])
                hit = (acc > x[:, None]) & legal
                last = NUM_ACTIONS - 1 - legal[:, ::-1].argmax(1)
                out[rows] = np.where(hit.any(1), hit.argmax(1), last)
        if redo:
            for i in np.sort(np.concatenate(redo)).tolist():
                out[i] = self.act(batch.infoset(i))
        return out


    def _compiled(self, key: str, net: BeloteNet, first: int, width: int, table):
        """``act_batch``'s compiled network for ``key`` (``_BatchNets.get``; the cache is
        made on first use)."""
        if not hasattr(self, "_batch_nets"):
            self._batch_nets = _BatchNets()
        return self._batch_nets.get(key, net, first, width, table)

    def _card_rows_batched(self, obs: np.ndarray, mask: np.ndarray, todo: np.ndarray, contract: np.ndarray,
                           out: np.ndarray, threads: int) -> list[np.ndarray]:
        """``act_batch``'s card decisions (``is_card_decision``, from the masks and the
        contract block): the card-value network's best legal card for each such row of
        ``todo``, with the belote announcement of ``with_belote``, written into ``out``;
        those rows are cleared from ``todo``. Returns ``[rows]``: the rows within
        ``BATCH_VALUE_MARGIN`` of a tie, for ``act`` to decide again."""
        from .batch import network_outputs

        if self.card_net is None:
            return []
        hand0 = _obs_blocks()[2]
        others = mask[:, NUM_CARDS:].copy()
        others[:, ANNOUNCE_BELOTE - NUM_CARDS] = False
        rows = np.flatnonzero(todo & contract & (mask[:, :NUM_CARDS].sum(1) > 1) & ~others.any(1))
        if not len(rows):
            return []
        table = suit_permutation_tables()[1] if self.suit_average else None
        compiled = self._compiled("cards", self.card_net, 0, NUM_CARDS, table)
        v = network_outputs(self.card_net, obs[rows], 0, NUM_CARDS, table, compiled, threads)
        best, close = _best_legal(v, mask[rows, :NUM_CARDS], BATCH_VALUE_MARGIN)
        # with_belote: announce when legal and the card is the first of the hand's K+Q
        suit, rank = best >> 3, best & 7
        qk = obs[rows[:, None], hand0 + 8 * suit[:, None] + np.array([5, 6])] > 0.5
        announce = mask[rows, ANNOUNCE_BELOTE] & ((rank == 5) | (rank == 6)) & qk.all(1)
        out[rows] = np.where(announce, ANNOUNCE_BELOTE, best)
        todo[rows] = False
        return [rows[close]]

    def _act_batch_small(self, batch, mask: np.ndarray) -> np.ndarray:
        """``act_batch`` at two and three seats (``SMALL_MODES``; deterministic): the
        decisions ``act`` gives to a network, each network's rows in one batched pass (the
        24 suit renamings averaged as ``act`` averages them): the card decisions
        (``is_card_decision`` of each row's ``SmallInfoSet``) by the card-value network,
        with the belote claim of ``small_with_belote``, and the policy network's decisions
        (``policy_logits``). The rows within ``BATCH_VALUE_MARGIN`` / ``BATCH_LOGIT_MARGIN``
        of a tie, the bids a bid-value network values and the decisions without a network
        (``rule_action``: the normal tier's) by ``act`` on their ``InfoSet``."""
        from .batch import network_outputs

        out, todo = _forced_rows(mask, SMALL_NUM_ACTIONS)
        if not todo.any():
            return out
        threads = torch.get_num_threads()
        obs = None
        redo = []

        def observations() -> np.ndarray:
            o = np.asarray(batch.obs)
            if o.shape != (len(mask), self.obs_size):
                raise RulesMismatchError(f"{self.name}: a model of {self.obs_size}-float observations got a batch of "
                                         f"shape {o.shape}: load a model of those rules")
            return o

        infos = {i: batch.infoset(i) for i in np.flatnonzero(todo).tolist()}
        if self.card_net is not None:
            rows = np.array([i for i, info in infos.items() if is_card_decision(info)], dtype=np.int64)
            if len(rows):
                obs = observations()
                table = suit_permutation_tables()[1] if self.suit_average else None
                compiled = self._compiled("cards", self.card_net, 0, NUM_CARDS, table)
                v = network_outputs(self.card_net, obs[rows], 0, NUM_CARDS, table, compiled, threads)
                best, close = _best_legal(v, mask[rows, :NUM_CARDS], BATCH_VALUE_MARGIN)
                for r, b in zip(rows.tolist(), best.tolist()):
                    out[r] = small_with_belote(infos[r], b)
                todo[rows] = False
                redo.append(rows[close])
        if self.bid_net is not None:  # valued bids: act, row by row
            rows = np.array([i for i in np.flatnonzero(todo).tolist() if self._bids_by_value(infos[i])], dtype=np.int64)
            todo[rows] = False
            redo.append(rows)
        rows = np.flatnonzero(todo)
        if len(rows) and self.net is not None:
            obs = observations() if obs is None else obs
            table = action_permutation_table(SMALL_NUM_ACTIONS) if self.policy_suit_average else None
            # torch (BLAS) rather than the compiled sparse kernel: 414 outputs per renaming, the
            # products dominate (4.1 s against 5.3 s for 500 two-seat sets of hard against normal)
            logits = network_outputs(self.net, obs[rows], 0, SMALL_NUM_ACTIONS, table, None, threads)
            best, close = _best_legal(logits, mask[rows], BATCH_LOGIT_MARGIN)
            out[rows] = best
            todo[rows] = False
            redo.append(rows[close])
        redo.append(np.flatnonzero(todo))  # no network: rule_action
        for i in np.sort(np.concatenate(redo)).tolist():
            out[i] = self.act(infos[i] if i in infos else batch.infoset(i))
        return out

    def _act_batch_coinche(self, batch, mask: np.ndarray) -> np.ndarray:
        """``act_batch`` of a coinche value-network policy (no policy network): the card
        decisions (``is_card_decision``) by the card-value network, the auction decisions
        (``is_coinche_bid_decision`` with a valued bid legal) by the bid-value network,
        each in one batched pass (``policies.batch.network_outputs``, the 24 suit renamings
        averaged as ``act`` averages them); the rows within ``BATCH_VALUE_MARGIN`` of a tie
        and the few other decisions (``rule_action``) by ``act`` on their ``InfoSet``."""
        from .batch import network_outputs

        m = len(mask)
        out, todo = _forced_rows(mask)
        if not todo.any():
            return out
        obs = np.asarray(batch.obs)
        if obs.shape != (m, COINCHE_OBS_SIZE):
            raise RulesMismatchError(f"{self.name}: a coinche model (observation of {COINCHE_OBS_SIZE} floats) got a "
                                     f"batch of shape {obs.shape}: load a model of those rules")
        c0, c1, _ = _obs_blocks()  # the classic blocks lead the coinche observation
        contract = obs[:, c0:c1].any(1)
        threads = torch.get_num_threads()
        redo = self._card_rows_batched(obs, mask, todo, contract, out, threads)
        if self.bid_net is not None:
            first, width = COINCHE_BID_ACTIONS[0], len(COINCHE_BID_ACTIONS)
            valued = np.zeros(NUM_ACTIONS, dtype=bool)
            valued[list(self.bid_actions)] = True
            outside = np.ones(NUM_ACTIONS, dtype=bool)
            outside[first:first + width] = False
            rows = np.flatnonzero(todo & ~contract & ~(mask & outside).any(1) & (mask & valued).any(1))
            if len(rows):
                table = coinche_bid_permutation_table() if self.bid_suit_average else None
                compiled = self._compiled("bids", self.bid_net, first, width, table)
                v = network_outputs(self.bid_net, obs[rows], first, width, table, compiled, threads)
                best, close = _best_legal(v, (mask & valued)[rows, first:first + width], BATCH_VALUE_MARGIN)
                out[rows] = first + best
                redo.append(rows[close])
                todo[rows] = False
        redo.append(np.flatnonzero(todo))  # the other decisions: rule_action, row by row
        for i in np.sort(np.concatenate(redo)).tolist():
            out[i] = self.act(batch.infoset(i))
        return out


def value_net_kwargs(folder: str | os.PathLike, meta: dict | None = None,
                     contract_mode: str | None = None) -> dict[str, Any]:
    """The ``NetworkPolicy`` arguments a model folder asks for: ``policy_suit_average`` from
    its ``meta.json`` (``meta``: that file's contents when already read, else it is read
    when it exists; ``policy_suit_average_of``), ``card_net`` / ``suit_average`` /
    ``card_unit`` from its ``cards/`` and ``bid_net`` / ``bid_suit_average`` /
    ``bid_actions`` / ``bid_unit`` from its ``bids/``, for those it has (see
    ``load_card_net``, ``load_bid_net``; raises ``CheckpointError`` as they do, for a
    bad ``policy_suit_average`` or an unreadable ``meta.json``, and for a sub-folder its
    ``meta.json`` declares in ``parts`` that is missing, ``declared_parts``). ``contract_mode``: the
    mode the value networks must be of (``RulesMismatchError`` otherwise; ``None``: any)."""
    kw: dict[str, Any] = {}
    meta_path = _model_folder(folder) / "meta.json"
    if meta is None and meta_path.is_file():
        try:
            meta = read_json(meta_path, MAX_META_BYTES)
        except DataFileError as e:
            raise CheckpointError(f"{meta_path}: corrupt metadata, {str(e).removeprefix(f'{meta_path}: ')}") from None
    parts: tuple[str, ...] = ()
    if isinstance(meta, dict):
        kw["policy_suit_average"] = policy_suit_average_of(meta, meta_path)
        parts = declared_parts(meta, meta_path)
    folder_path = _model_folder(folder)
    for part in parts:  # a declared part that is gone: the model would play without it
        if not (folder_path / part).exists() and not (folder_path / part).is_symlink():
            raise CheckpointError(f"{folder_path}: its meta.json declares a {MODEL_PARTS[part]} network in {part}/, "
                                  f"which is missing (parts: {list(parts)}); restore the folder or reinstall the model")
    card = _load_value_net(folder, CARDS_SUBDIR, CARD_VALUES_KIND, contract_mode)
    if card is not None:
        kw.update(card_net=card[0], suit_average=card[1], card_unit=_value_unit_of(card[2], folder, CARDS_SUBDIR))
    bid = load_bid_net(folder, contract_mode)
    if bid is not None:
        kw.update(bid_net=bid[0], bid_suit_average=bid[1], bid_actions=bid[2],
                  bid_unit=_value_unit_of(_bid_meta(folder), folder, BIDS_SUBDIR))
    return kw


def _bid_meta(folder) -> dict:
    return read_json(_model_folder(folder) / BIDS_SUBDIR / "meta.json", MAX_META_BYTES)


def _value_unit_of(meta: dict, folder, sub: str) -> float:
    """A value network's ``value_unit`` (``meta.json``; absent in classic networks saved
    before coinche: 162), a number > 0 (``CheckpointError`` otherwise)."""
    v = meta.get("value_unit", 162.0)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0:
        raise CheckpointError(f"{_model_folder(folder) / sub / 'meta.json'}: value_unit must be a number > 0, got {v!r}")
    return float(v)


def policy_suit_average_of(meta: dict, where: str | os.PathLike = "meta.json") -> bool:
    """A model's ``meta.json`` key ``policy_suit_average`` (``NetworkPolicy``'s argument:
    play the policy network averaged over the 24 suit renamings): False when absent;
    raises ``CheckpointError`` (naming ``where``) for a value that is not a bool."""
    v = meta.get("policy_suit_average", False)
    if type(v) is not bool:
        raise CheckpointError(f"{where}: policy_suit_average must be true or false, got {v!r}")
    return v


def _softmax(values: dict[int, float], temperature: float, legal, unit: float = 162.0) -> dict[int, float]:
    """Probabilities of the legal actions from values in units of ``unit`` points at a
    temperature in points (a legal action without a value gets 0)."""
    top = max(values.values())
    w = {a: float(np.exp((x - top) * unit / temperature)) for a, x in values.items()}
    z = sum(w.values())
    return {a: w.get(a, 0.0) / z for a in legal}


def load_card_net(folder: str | os.PathLike, contract_mode: str | None = None) -> tuple[BeloteNet, bool] | None:
    """The card-value network in ``folder/cards/`` and whether it is averaged over suit
    renamings (its ``meta.json`` keys: ``kind`` = ``"card_values"``, ``suit_average`` a
    bool); ``None`` when nothing named ``cards`` exists there. Raises ``CheckpointError``
    like ``load_model`` (``contract_mode`` as there), for a ``cards`` that is not a folder
    (a file, a dangling link), and for a missing or wrong ``kind`` or ``suit_average``."""
    found = _load_value_net(folder, CARDS_SUBDIR, CARD_VALUES_KIND, contract_mode)
    return None if found is None else found[:2]


def load_bid_net(folder: str | os.PathLike,
                 contract_mode: str | None = None) -> tuple[BeloteNet, bool, tuple[int, ...]] | None:
    """The bid-value network in ``folder/bids/`` (``kind`` = ``"bid_values"``), whether it
    is averaged over suit renamings, and the bid ids it was trained on (``meta.json`` key
    ``bid_actions``: ids in 32..39 for a classic network, in 32..101 for a coinche one,
    in 32..37 for a two- or three-seat one, ``SMALL_BID_ACTIONS``);
    ``None`` when nothing named ``bids`` exists there. Raises ``CheckpointError`` as
    ``load_card_net`` does, and for missing or bad ``bid_actions``."""
    found = _load_value_net(folder, BIDS_SUBDIR, BID_VALUES_KIND, contract_mode)
    if found is None:
        return None
    net, avg, meta = found
    mode = contract_mode_of_size(net.obs_size)
    allowed = COINCHE_BID_ACTIONS if mode == "coinche" else SMALL_BID_ACTIONS if mode in SMALL_MODES else BID_ACTIONS
    try:
        actions = _check_bid_actions(meta.get("bid_actions"), allowed)
    except ValueError as e:
        raise CheckpointError(f"{_model_folder(folder) / BIDS_SUBDIR / 'meta.json'}: {e}") from None
    return net, avg, actions


def _check_bid_actions(actions, allowed=BID_ACTIONS) -> tuple[int, ...]:
    if (isinstance(actions, (str, bytes)) or not hasattr(actions, "__iter__")
            or not all(type(a) is int and a in allowed for a in actions) or not list(actions)):
        raise ValueError(f"bid_actions must be a non-empty list of bid ids in {allowed[0]}..{allowed[-1]}, "
                         f"got {actions!r}")
    return tuple(sorted(set(actions)))


def _load_value_net(folder: str | os.PathLike, subdir: str, kind: str,
                    contract_mode: str | None = None) -> tuple[BeloteNet, bool, dict] | None:
    folder = _model_folder(folder)
    sub = folder / subdir
    if not sub.exists() and not sub.is_symlink():
        return None
    if not sub.is_dir():
        raise CheckpointError(f"{sub}: expected a folder holding a {_VALUE_NET_NAMES[kind]} network")
    net, meta = load_model(sub, contract_mode)
    if meta.get("kind") != kind:
        raise CheckpointError(f"{sub / 'meta.json'}: kind must be {kind!r}, got {meta.get('kind')!r}")
    avg = meta.get("suit_average")
    if type(avg) is not bool:
        raise CheckpointError(f"{sub / 'meta.json'}: suit_average must be true or false, got {avg!r}")
    if avg and contract_mode_of_size(net.obs_size) in SMALL_MODES:
        raise CheckpointError(f"{sub / 'meta.json'}: suit_average true, but suit renaming is for four-seat networks "
                              f"(this one reads the {contract_mode_of_size(net.obs_size)}-player observation)")
    return net, avg, meta


# ------------------------------------------------------------------ batched decisions
#: ``NetworkPolicy.act_batch`` takes a row's decision from its batched forward pass only
#: when the best legal action leads the next one by at least ``margin * max(1, |best|)``:
#: ``BATCH_VALUE_MARGIN`` for a value network's outputs (units of 162 points),
#: ``BATCH_LOGIT_MARGIN`` for the policy network's logits. The batch is computed in other
#: shapes and summation orders than ``act``'s one-row pass, so its outputs may differ in the
#: last float32 bits (measured on the hard tier's networks: at most 2e-7 for the values,
#: 4e-6 x max(1, |best|) for the logits); a closer row, an exact tie included, is decided
#: again by ``act`` on the row's ``InfoSet``, so the batch decides as ``act`` does.
BATCH_VALUE_MARGIN = 1e-5
BATCH_LOGIT_MARGIN = 1e-4


def _best_legal(values: np.ndarray, legal: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the column of the largest legal value (the lowest column among equals, as
    ``max(..., key=lambda a: (v[a], -a))``) and whether the next legal value is within
    ``margin * max(1, |largest|)`` of it (an exact tie included; False for a row with one
    legal column)."""
    v = np.where(legal, values.astype(np.float64), -np.inf)
    best = v.argmax(1)
    rows = np.arange(len(v))
    top = v[rows, best]
    v[rows, best] = -np.inf
    return best, top - v.max(1) < margin * np.maximum(1.0, np.abs(top))


def _forced_rows(mask: np.ndarray, width: int = NUM_ACTIONS) -> tuple[np.ndarray, np.ndarray]:
    """``act_batch``'s start: ``(out, todo)``, int64 ``out`` holding each row's first legal
    id (the action of a forced row) and bool ``todo`` its rows with a choice. Raises
    ``ValueError`` for a mask that is not ``(m, width)`` or a row without a legal
    action."""
    m = len(mask)
    if mask.ndim != 2 or mask.shape[1] != width:
        raise ValueError(f"batch.mask must be ({m}, {width}), got {mask.shape}")
    n_legal = mask.sum(1)
    if (n_legal == 0).any():
        raise ValueError(f"rows without a legal action: {np.flatnonzero(n_legal == 0)[:10].tolist()}")
    return mask.argmax(1).astype(np.int64), n_legal > 1


class _BatchNets:
    """``NetworkPolicy``'s compiled networks for ``act_batch`` (``policies.batch.CompiledNet``),
    rebuilt when a network's weights change (torch's version counters) or is replaced."""

    def __init__(self):
        self._built: dict[str, tuple[Any, Any]] = {}

    def get(self, key: str, net: BeloteNet, first: int, width: int, table):
        from .batch import CompiledNet

        stamp = (id(net), tuple((id(p), p._version) for p in net.parameters()))
        have = self._built.get(key)
        if have is None or have[0] != stamp:
            try:
                compiled = CompiledNet(net, first, width, table)
            except ValueError:  # not ReLU hidden layers: torch
                compiled = None
            have = self._built[key] = (stamp, compiled)
        return have[1]


_BLOCKS: tuple[int, int, int] | None = None


def _obs_blocks() -> tuple[int, int, int]:
    """Observation columns ``act_batch`` reads: the contract block's first and end (all 0
    before a contract: ``info.contract is None``) and the hand block's first."""
    global _BLOCKS
    if _BLOCKS is None:
        from belote_env.observation import LAYOUT, OFFSET

        size = {b.name: b.size for b in LAYOUT}
        _BLOCKS = (OFFSET["contract"], OFFSET["contract"] + size["contract"], OFFSET["hand"])
    return _BLOCKS
