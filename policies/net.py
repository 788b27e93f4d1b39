"""The policy/value network of the hard tier and of training (``BeloteNet``) and the
bounds on its shape that a model file may ask for (``expected_shapes``, ``MAX_*``).

The module names mirror SB3's ``MaskableActorCriticPolicy`` (``mlp_extractor.policy_net``,
``mlp_extractor.value_net``, ``action_net``, ``value_net``) so a trained SB3 policy's
``state_dict`` loads as is. Torch only.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from belote_env import NUM_ACTIONS
from belote_env.observation import OBS_SIZE

FORMAT_VERSION = 1
_ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh}
#: Bounds on a network description (a guard against corrupt files allocating huge tensors);
#: ``training.config`` checks the same bounds without importing torch.
MAX_HIDDEN_LAYERS = 16
MAX_LAYER_WIDTH = 16384
#: Bound on a network's total number of parameters (float32: 4 bytes each, 256 MiB at the
#: bound); the shipped hard tier's largest network has about 0.7 M.
MAX_PARAMETERS = 64 * 1024 * 1024


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
