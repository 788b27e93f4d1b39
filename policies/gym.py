"""The Gymnasium env with seat policies given by name: what ``gymnasium.make("Belote-v0")``
builds (``belote_env`` registers that id with this module's ``NamedGymEnv`` as a string
entry point, so ``belote_env`` never imports ``policies``).

    import gymnasium, belote_env
    env = gymnasium.make("Belote-v0", opponents="normal")
    # or: from policies.gym import NamedGymEnv; env = NamedGymEnv(opponents={1: "easy", 2: "hard", 3: "easy"})
"""

from __future__ import annotations

from typing import Any, Callable

from belote_env.gym_env import BeloteGymEnv, PolicySpec
from belote_env.infoset import InfoSet

from .registry import check_policy_rules, check_policy_spec, make_policy

__all__ = ["NamedGymEnv"]


class NamedGymEnv(BeloteGymEnv):
    """``belote_env.gym_env.BeloteGymEnv`` whose ``opponents`` and ``partner`` may also be
    named wherever a policy is: a tier name (``"random"``, ``"easy"``, ``"normal"``,
    ``"hard"``, ``"expert"``, ``"<spec>+search"``), a model folder or a policy factory
    ``"module.path:attribute"`` (``policies.make_policy``). Names are checked at
    construction against the env's rules (``ValueError``: a tier or model folder that does
    not play them, ``policies.check_policy_rules``) and built at each ``reset``, seeded from the episode's
    seed and the seat (model folders are loaded then). Default opponents: ``"random"``.
    Every other argument as for ``BeloteGymEnv``."""

    _POLICY_KINDS = "a tier name, a Policy or a callable(info) -> action id"

    def __init__(self, opponents: PolicySpec = "random", **kwargs: Any):
        super().__init__(opponents, **kwargs)

    def _check_spec(self, spec: PolicySpec, what: str) -> None:
        if isinstance(spec, str):
            checked = self.__dict__.setdefault("_checked_specs", set())  # a model folder named for 3 seats: 1 load
            if spec in checked:
                return
            try:
                check_policy_spec(spec)
                check_policy_rules(spec, self.rules)  # a tier or model folder that does not play these rules
            except ValueError as e:
                raise ValueError(f"{what}: {e}") from None
            checked.add(spec)
        else:
            super()._check_spec(spec, what)

    def _resolve(self, spec: PolicySpec, seed: int) -> Callable[[InfoSet], int]:
        if isinstance(spec, str):
            return make_policy(spec, seed=seed, rules=self.rules).act
        return super()._resolve(spec, seed)
