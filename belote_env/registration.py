"""Registers ``belote/belote-v0`` with PettingZoo (where it has a registry) and
``Belote-v0`` with Gymnasium. Called by ``import belote_env``.

``Belote-v0``'s entry point is the string ``"policies.gym:NamedGymEnv"`` (the Gymnasium env
with opponents also given by name): Gymnasium imports ``policies`` when the env is made,
so ``belote_env`` itself never imports the layer above it."""

from __future__ import annotations

#: What ``gymnasium.make("Belote-v0")`` builds.
GYM_ENTRY_POINT = "policies.gym:NamedGymEnv"


def register_envs() -> None:
    import gymnasium

    if "Belote-v0" not in gymnasium.registry:
        gymnasium.register(id="Belote-v0", entry_point=GYM_ENTRY_POINT)
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover - pettingzoo is a dependency
        return
    reg = getattr(pettingzoo, "aec_registry", None)
    if reg is not None and hasattr(pettingzoo, "register") and "belote/belote-v0" not in reg:
        pettingzoo.register("aec", "belote/belote-v0", entry_point="belote_env.env:env")
