"""An action-masking torch RLModule around the hard tier's ``BeloteNet``.

The module owns one ``policies.network.BeloteNet`` as ``self.net``, so its ``state_dict``
is the BeloteNet's with a ``"net."`` prefix: ``net.mlp_extractor.policy_net.0.weight``
``(pi[0], 618)`` float32, ..., ``net.action_net.weight`` ``(112, pi[-1])``,
``net.value_net.weight`` ``(1, vf[-1])``. Stripping the prefix gives weights that
``policies.network.save_model`` writes as is (``training.rllib.export``).

Input batches follow the action-masking convention of RLlib's
``action_masking_rlm`` example: ``batch["obs"]`` is a dict with ``"observations"`` (float32
``(B, 618)``) and ``"action_mask"`` (``(B, 112)``, 1 = legal). Illegal actions get the logit
``FLOAT_MIN`` (-3.4e38, finite so the categorical entropy and KL stay finite): their
probability is exactly 0, so sampled and greedy actions are always legal.

``model_config`` keys: ``pi`` and ``vf`` (hidden sizes, default ``[256, 256]``),
``activation`` (``"relu"`` or ``"tanh"``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule

from belote_env.actions import NUM_ACTIONS
from belote_env.observation import OBS_SIZE
from policies.network import BeloteNet

from .env import MASK_KEY, OBS_KEY
from .quiet import quiet_ray_notices

# Every process that builds this module imports it first (the EnvRunner and Learner actors
# too): drop Ray 2.60's RLModuleConfig deprecation notice there (training.rllib.quiet).
quiet_ray_notices()

__all__ = ["BeloteTorchRLModule", "FLOAT_MIN", "MODEL_CONFIG_KEYS", "net_config_of"]

FLOAT_MIN = -3.4e38  # as ray.rllib.utils.torch_utils.FLOAT_MIN
MODEL_CONFIG_KEYS = ("pi", "vf", "activation")


def net_config_of(model_config: dict[str, Any] | None) -> dict[str, Any]:
    """The ``BeloteNet.config`` (``obs_size``, ``n_actions``, ``pi``, ``vf``, ``activation``)
    for an RLModule ``model_config``; raises ``ValueError`` naming an unknown key."""
    model_config = dict(model_config or {})
    # PPO adds its own ``vf_share_layers`` (default False) to every model_config; BeloteNet's
    # policy and value MLPs are always separate.
    if model_config.pop("vf_share_layers", False):
        raise ValueError("BeloteNet has separate policy and value MLPs: vf_share_layers must be False")
    unknown = sorted(set(model_config) - set(MODEL_CONFIG_KEYS))
    if unknown:
        raise ValueError(f"unknown model_config keys {unknown}; known keys: {', '.join(MODEL_CONFIG_KEYS)}")
    return {"obs_size": OBS_SIZE, "n_actions": NUM_ACTIONS, "pi": list(model_config.get("pi", [256, 256])),
            "vf": list(model_config.get("vf", [256, 256])), "activation": model_config.get("activation", "relu")}


class BeloteTorchRLModule(TorchRLModule, ValueFunctionAPI):
    """PPO-ready RLModule: masked logits from ``BeloteNet``'s policy head, values from its
    value head (see the module docstring for shapes and ``model_config``).

    Raises:
        ValueError: an observation space that is not ``Dict(observations=(618,),
            action_mask=(112,))`` or an action space other than ``Discrete(112)``.
    """

    def setup(self) -> None:
        space = self.observation_space
        if not isinstance(space, gym.spaces.Dict) or set(space.spaces) != {OBS_KEY, MASK_KEY}:
            raise ValueError(f"BeloteTorchRLModule needs a Dict observation space with keys "
                             f"{OBS_KEY!r} and {MASK_KEY!r}, got {space}")
        if space[OBS_KEY].shape != (OBS_SIZE,) or space[MASK_KEY].shape != (NUM_ACTIONS,):
            raise ValueError(f"observation shapes must be ({OBS_SIZE},) and ({NUM_ACTIONS},), got "
                             f"{space[OBS_KEY].shape} and {space[MASK_KEY].shape}")
        if not isinstance(self.action_space, gym.spaces.Discrete) or self.action_space.n != NUM_ACTIONS:
            raise ValueError(f"action space must be Discrete({NUM_ACTIONS}), got {self.action_space}")
        self.net = BeloteNet(**net_config_of(self.model_config))

    def _masked_logits(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
        x = obs[OBS_KEY].float()
        return self.net.logits(x).masked_fill(obs[MASK_KEY] == 0, FLOAT_MIN)

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, torch.Tensor]:
        """``{"action_dist_inputs": float32 (B, 112)}``, illegal ids at ``FLOAT_MIN``."""
        return {Columns.ACTION_DIST_INPUTS: self._masked_logits(batch[Columns.OBS])}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        """Value estimates, float32 ``(B,)`` (or ``(B, T)``), in reward units."""
        x = batch[Columns.OBS][OBS_KEY].float()
        return self.net.value_net(self.net.mlp_extractor.value_net(x)).squeeze(-1)

    def belote_state_dict(self) -> dict[str, torch.Tensor]:
        """The ``BeloteNet`` weights (no ``"net."`` prefix), ready for ``save_model``."""
        return {k: v.detach().cpu().clone() for k, v in self.net.state_dict().items()}
