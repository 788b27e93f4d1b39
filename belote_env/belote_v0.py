"""``belote_v0``: ``env()`` and ``raw_env`` of the PettingZoo AEC environment (see ``belote_env.env``)."""

from .env import __doc__, env, raw_env  # noqa: F401  (re-exported, with the user manual)

__all__ = ["env", "raw_env"]
