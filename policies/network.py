"""The policy/value network shared by training and the hard tier, and its file format.

A model is a folder holding ``model.safetensors`` (the weights) and ``meta.json`` (the
network shape, the action-table and observation-encoder versions, the rules, training
figures). Loading never executes code from the files: weights go through safetensors,
metadata through ``json``. Only torch is needed (no SB3).

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
from belote_env.atomic import atomic_write_bytes
from belote_env.observation import OBS_ENCODER_VERSION, OBS_SIZE, encode_infoset

__all__ = ["BeloteNet", "CheckpointError", "save_model", "load_model", "NetworkPolicy", "FORMAT_VERSION",
           "MAX_HIDDEN_LAYERS", "MAX_LAYER_WIDTH"]

FORMAT_VERSION = 1
_ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh}
#: Bounds on a network description (a guard against corrupt files allocating huge tensors);
#: ``training.config`` checks the same bounds without importing torch.
MAX_HIDDEN_LAYERS = 16
MAX_LAYER_WIDTH = 16384


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
            ``MAX_HIDDEN_LAYERS`` hidden layers, an unknown activation.
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
        self.config = {"obs_size": obs_size, "n_actions": n_actions, "pi": pi, "vf": vf, "activation": activation}
        if critic_extra:
            self.config["critic_extra"] = critic_extra
        self.obs_size = obs_size
        self.mlp_extractor = _Extractor(obs_size, pi, vf, activation, critic_extra)
        self.action_net = nn.Linear(pi[-1] if pi else obs_size, n_actions)
        self.value_net = nn.Linear(vf[-1] if vf else obs_size + critic_extra, 1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``obs``: ``(B, obs_size + critic_extra)``; returns ``(logits, value)``."""
        logits = self.action_net(self.mlp_extractor.policy_net(obs[:, :self.obs_size]))
        value = self.value_net(self.mlp_extractor.value_net(obs)).squeeze(-1)
        return logits, value

    def masked_logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Logits with illegal actions (``mask == 0``) set to ``-inf``; shapes ``(B, n_actions)``.
        ``obs`` may carry the critic's extra columns (ignored)."""
        logits = self.action_net(self.mlp_extractor.policy_net(obs[:, :self.obs_size]))
        return logits.masked_fill(mask == 0, float("-inf"))


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
        **(extra or {}),
    }
    atomic_write_bytes(folder / "model.safetensors", save(tensors))
    atomic_write_bytes(folder / "meta.json", json.dumps(meta, indent=2, sort_keys=True).encode())
    return folder


def load_model(folder: str | os.PathLike) -> tuple[BeloteNet, dict[str, Any]]:
    """Load a model folder (or the path of its ``model.safetensors``) with torch alone.

    Returns:
        ``(net, meta)``: the network in eval mode and the metadata dict.
    Raises:
        CheckpointError: missing files, unreadable or corrupt files, an action-table or
            observation-encoder version other than this package's, or tensors that do not
            match the declared network shape.
    """
    from safetensors.torch import load_file

    folder = Path(folder)
    if folder.name == "model.safetensors" or folder.suffix == ".json":
        folder = folder.parent
    weights, meta_path = folder / "model.safetensors", folder / "meta.json"
    for p in (weights, meta_path):
        if not p.is_file():
            raise CheckpointError(f"{folder}: not a model folder, {p.name} is missing")
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointError(f"{meta_path}: corrupt metadata ({e})") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("net"), dict):
        raise CheckpointError(f"{meta_path}: metadata lacks the 'net' section")
    for key, want in (("action_table_version", ACTION_TABLE_VERSION), ("obs_encoder_version", OBS_ENCODER_VERSION)):
        if meta.get(key) != want:
            raise CheckpointError(
                f"{folder}: made for {key} {meta.get(key)!r}, this package uses {want}; "
                "re-export the model with a matching belote-rl version")
    try:
        net = BeloteNet(**meta["net"])
    except (TypeError, ValueError) as e:
        raise CheckpointError(f"{meta_path}: bad network description {meta['net']!r} ({e})") from None
    if net.config["obs_size"] != OBS_SIZE or net.config["n_actions"] != NUM_ACTIONS:
        raise CheckpointError(f"{folder}: network expects obs {net.config['obs_size']} / actions "
                              f"{net.config['n_actions']}, the env has {OBS_SIZE} / {NUM_ACTIONS}")
    try:
        tensors = load_file(str(weights))
    except Exception as e:  # safetensors raises its own error types on corrupt files
        raise CheckpointError(f"{weights}: corrupt weights file ({e})") from None
    try:
        net.load_state_dict(tensors, strict=True)
    except RuntimeError as e:
        raise CheckpointError(f"{weights}: weights do not match the network in meta.json ({e})") from None
    net.eval()
    return net, meta


class NetworkPolicy:
    """A policy backed by a ``BeloteNet`` (checkpoints, exported models, the hard tier).

    Args:
        net: the network; ``meta``: its metadata (for ``name``).
        deterministic: play the most probable legal action (default) or sample.
        seed: seed of the policy's own RNG (used only when sampling).
        name: display name.
    """

    def __init__(self, net: BeloteNet, meta: dict | None = None, deterministic: bool = True,
                 seed: int | None = None, name: str = "network"):
        self.net, self.meta, self.name = net, meta or {}, name
        self.deterministic = deterministic
        self.rng = random.Random(seed)
        self._obs = np.zeros(OBS_SIZE, dtype=np.float32)

    @classmethod
    def from_path(cls, path: str | os.PathLike, **kwargs) -> "NetworkPolicy":
        """Load a model folder (see ``load_model``); raises ``CheckpointError``."""
        net, meta = load_model(path)
        kwargs.setdefault("name", str(path))
        return cls(net, meta, **kwargs)

    @torch.inference_mode()
    def action_probabilities(self, info: InfoSet) -> dict[int, float]:
        """Probability of each legal action id under the network."""
        obs = torch.from_numpy(encode_infoset(info, self._obs)).unsqueeze(0)
        logits = self.net.action_net(self.net.mlp_extractor.policy_net(obs))[0]
        legal = list(info.legal_actions)
        p = torch.softmax(logits[legal], dim=0).tolist()
        return dict(zip(legal, p))

    def act(self, info: InfoSet) -> int:
        legal = info.legal_actions
        if len(legal) == 1:
            return legal[0]
        probs = self.action_probabilities(info)
        if self.deterministic:
            return max(legal, key=lambda a: (probs[a], -a))
        x, acc = self.rng.random(), 0.0
        for a in legal:
            acc += probs[a]
            if x < acc:
                return a
        return legal[-1]
