"""AI tiers for belote-rl: every policy reads one seat's ``InfoSet`` and returns a legal action id.

``make_policy(name)`` builds one by name (``random``, ``easy``) or from a checkpoint path.
``as_batch_policy`` (``policies.batch``, loaded on first use: it compiles numba kernels)
and ``make_batch_policy`` (by name) give any policy ``act_batch`` for the batched engine.
"""

from .base import Policy, PolicyError
from .registry import TIERS, check_policy_spec, make_batch_policy, make_policy

__all__ = ["Policy", "PolicyError", "TIERS", "check_policy_spec", "make_policy", "as_batch_policy",
           "make_batch_policy"]


def __getattr__(name: str):
    if name == "as_batch_policy":
        from . import batch

        return batch.as_batch_policy
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
