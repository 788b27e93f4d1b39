"""AI tiers for belote-rl: every policy reads one seat's ``InfoSet`` and returns a legal action id.

``make_policy(name)`` builds one by name (``random``, ``easy``) or from a checkpoint path.
"""

from .base import Policy, PolicyError
from .registry import TIERS, check_policy_spec, make_policy

__all__ = ["Policy", "PolicyError", "TIERS", "check_policy_spec", "make_policy"]
