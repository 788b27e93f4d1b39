"""Registers ``belote/belote-v0`` with PettingZoo (where it has a registry) and
``Belote-v0`` with Gymnasium. Called by ``import belote_env``."""

from __future__ import annotations


def register_envs() -> None:
    import gymnasium

    if "Belote-v0" not in gymnasium.registry:
        gymnasium.register(id="Belote-v0", entry_point="belote_env.gym_env:BeloteGymEnv")
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover - pettingzoo is a dependency
        return
    reg = getattr(pettingzoo, "aec_registry", None)
    if reg is not None and hasattr(pettingzoo, "register") and "belote/belote-v0" not in reg:
        pettingzoo.register("aec", "belote/belote-v0", entry_point="belote_env.env:env")
