"""Tier ``hard`` (RULES.md §12, seed 004: it "remembers played cards, infers which suits each
seat is void in, and estimates where each unseen card lies"): a policy network trained by
self-play (``belote train``) and shipped in ``policies/models/hard/``.

Those inferences are its inputs (the observation's played-card and belief blocks,
``belote_env.inference``); the network learned the rest. Loading uses torch and
safetensors only (no SB3, no code from the file); illegal actions are masked out; it plays
the most probable legal action.
"""

from __future__ import annotations

from pathlib import Path

from .network import NetworkPolicy

__all__ = ["HardPolicy", "HARD_MODEL_DIR"]

HARD_MODEL_DIR = Path(__file__).resolve().parent / "models" / "hard"


class HardPolicy(NetworkPolicy):
    """The shipped hard tier. ``seed`` only matters with ``deterministic=False``.

    Raises ``policies.network.CheckpointError`` if the shipped model is missing or was made
    for another action-table / observation version.
    """

    def __init__(self, seed: int | None = None, deterministic: bool = True, model_dir: str | Path = HARD_MODEL_DIR):
        from .network import load_model

        net, meta = load_model(model_dir)
        super().__init__(net, meta, deterministic=deterministic, seed=seed, name="hard")
