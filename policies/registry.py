"""Names of the AI tiers, and ``make_policy`` to build any of them or load a checkpoint."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from .base import Policy, RandomPolicy
from .easy import EasyPolicy
from .hard import HardPolicy
from .normal import NormalPolicy

__all__ = ["TIERS", "make_policy", "check_policy_spec"]


def _expert(seed: int | None = None) -> Policy:
    from .search import expert_policy  # numba and the solver only when asked for

    return expert_policy(seed)


#: Built-in tiers: name -> factory(seed) (RULES.md §12).
TIERS: dict[str, Callable[[int | None], Policy]] = {
    "random": RandomPolicy,
    "easy": EasyPolicy,
    "normal": NormalPolicy,
    "hard": HardPolicy,
    "expert": _expert,
}


def check_policy_spec(spec: str | os.PathLike) -> None:
    """Raise ``ValueError`` unless ``make_policy`` accepts ``spec`` by name: a tier name,
    ``"<spec>+search"`` of an accepted spec, or an existing path. Builds nothing and reads
    no model file (a bad model folder still raises ``CheckpointError`` when loaded)."""
    if isinstance(spec, str) and spec in TIERS:
        return
    if isinstance(spec, str) and spec.endswith("+search") and len(spec) > len("+search"):
        return check_policy_spec(spec[:-len("+search")])
    if not isinstance(spec, (str, os.PathLike)):
        raise ValueError(f"a policy must be named by a tier name ({', '.join(TIERS)}) or a model folder path, "
                         f"got {spec!r}")
    if not spec or not Path(spec).exists():
        raise ValueError(f"unknown policy {str(spec)!r}: expected one of {', '.join(TIERS)} or a model folder path")


def make_policy(spec: str | os.PathLike, seed: int | None = None) -> Policy:
    """A policy from a tier name (``random``, ``easy``, ``normal``, ``hard``, ``expert``) or a
    model folder path; ``"<spec>+search"`` puts the search of ``policies.search`` on top of
    that policy (it searches the policy's top ``SEARCH_TOP_K`` actions).

    Raises ``ValueError`` for an unknown name that is not an existing path, and
    ``policies.network.CheckpointError`` for a bad model folder.
    """
    if isinstance(spec, str) and spec in TIERS:
        return TIERS[spec](seed)
    if isinstance(spec, str) and spec.endswith("+search") and len(spec) > len("+search"):
        from .search import SEARCH_TOP_K, SearchPolicy

        return SearchPolicy(seed, base=make_policy(spec[:-len("+search")], seed=seed), top_k=SEARCH_TOP_K,
                            name=spec)
    check_policy_spec(spec)
    from .network import NetworkPolicy

    return NetworkPolicy.from_path(Path(spec), seed=seed)
