"""Drop a handful of Ray / RLlib start-up notices that say nothing about a run's health.

``quiet_ray_notices()`` attaches a ``logging.Filter`` to the exact loggers that emit them;
each filter drops only records whose message starts with one of the texts below, so every
other warning and error of those loggers (and all of Ray's other loggers) still shows:

* ``Token authentication is enabled for this Ray cluster. Set RAY_AUTH_MODE=disabled to
  opt out...``: the local Ray started by ``belote train-rllib`` protects itself with a
  token, as Ray does by default. (Its opposite, ``Token authentication is disabled...``,
  a real exposure, is kept.)
* ``You are running PPO on the new API stack! This is the new default behavior...``: the
  project uses the new API stack on purpose (``training.rllib.train``).
* ``DeprecationWarning: `RLModule(config=[RLModuleConfig object])` has been deprecated``:
  Ray 2.60's own ``RLModule.__init__`` builds the deprecated ``RLModuleConfig`` for every
  module (``BeloteTorchRLModule`` passes the new keyword arguments); one line per process.
* ``Install gputil for GPU system monitoring.``: Tune's system monitor; the runs use no GPU.

Called by ``training.rllib.train`` before Ray starts, and on import of
``training.rllib.module``, so that the EnvRunner and Learner actors, which import that
module to build their RLModules, drop the RLModule line too (Ray forwards an actor's log
lines to the driver's terminal). Imports no ray.

What this cannot quiet: Ray's C++ core worker writes
``E ... core_worker.cc:...: Actor with class name: 'MultiAgentEnvRunner' ... has constructor
arguments in the object store and max_restarts > 0`` straight to the process's stderr (see
the README); only ``RAY_BACKEND_LOG_LEVEL`` reaches it, and that would hide every C++ error.
"""

from __future__ import annotations

import logging

__all__ = ["QUIET_NOTICES", "quiet_ray_notices", "NoticeFilter"]

QUIET_NOTICES: dict[str, tuple[str, ...]] = {
    "ray._private.authentication.authentication_token_setup": (
        "Token authentication is enabled for this Ray cluster. Set RAY_AUTH_MODE=disabled to opt out.",),
    "ray.rllib.algorithms.algorithm_config": ("You are running PPO on the new API stack! This is the new default",),
    "ray._common.deprecation": ("DeprecationWarning: `RLModule(config=[RLModuleConfig object])` has been deprecated.",),
    "ray.tune.utils.util": ("Install gputil for GPU system monitoring.",),
}
"""Logger name -> the message beginnings it drops (levels below ERROR only)."""


class NoticeFilter(logging.Filter):
    """Drops the records below ERROR whose message starts with one of ``prefixes``."""

    def __init__(self, prefixes: tuple[str, ...]):
        super().__init__()
        self.prefixes = tuple(prefixes)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        try:
            msg = record.getMessage()
        except Exception:  # a malformed record: let logging report it as it would
            return True
        return not msg.startswith(self.prefixes)


def quiet_ray_notices() -> None:
    """Attach a ``NoticeFilter`` to each logger of ``QUIET_NOTICES`` (once per process)."""
    for name, prefixes in QUIET_NOTICES.items():
        logger = logging.getLogger(name)
        if not any(isinstance(f, NoticeFilter) for f in logger.filters):
            logger.addFilter(NoticeFilter(prefixes))
