"""Names of the AI tiers, and ``make_policy`` to build any of them or load a checkpoint."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from .base import Policy, RandomPolicy
from .easy import EasyPolicy
from .hard import HardPolicy
from .normal import NormalPolicy

__all__ = ["TIERS", "make_policy"]

#: Built-in tiers: name -> factory(seed) (RULES.md §12).
TIERS: dict[str, Callable[[int | None], Policy]] = {
    "random": RandomPolicy,
    "easy": EasyPolicy,
    "normal": NormalPolicy,
    "hard": HardPolicy,
}


def make_policy(spec: str | os.PathLike, seed: int | None = None) -> Policy:
    """A policy from a tier name (``random``, ``easy``, ``normal``, ``hard``) or a model folder path.

    Raises ``ValueError`` for an unknown name that is not an existing path, and
    ``policies.network.CheckpointError`` for a bad model folder.
    """
    if isinstance(spec, str) and spec in TIERS:
        return TIERS[spec](seed)
    path = Path(spec)
    if path.exists():
        from .network import NetworkPolicy

        return NetworkPolicy.from_path(path, seed=seed)
    raise ValueError(f"unknown policy {str(spec)!r}: expected one of {', '.join(TIERS)} or a model folder path")
