"""``belote export``: a checkpoint -> a model folder that loads with torch alone.

The output holds ``model.safetensors`` (the policy/value network) and ``meta.json``: format,
action-table and observation-encoder versions, rules, network shape, and the training
figures known for the run (timesteps, wall time, duplicate-match results).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from policies.network import load_model, save_model

__all__ = ["export_model"]


def export_model(checkpoint: str | os.PathLike, out: str | os.PathLike) -> Path:
    """Validate ``checkpoint`` (raises ``CheckpointError``) and write the export to ``out``."""
    net, meta = load_model(checkpoint)
    ckpt = Path(checkpoint)
    if ckpt.is_file():
        ckpt = ckpt.parent
    extra = {k: v for k, v in meta.items() if k not in ("net", "format_version", "action_table_version",
                                                      "obs_encoder_version")}
    run_dir = ckpt.parent.parent
    ev = run_dir / "eval.json"
    if ev.is_file() and "evaluation" not in extra:
        extra["evaluation"] = {k: v for k, v in json.loads(ev.read_text()).items() if k.startswith("vs_")}
    extra["exported_from"] = str(ckpt)
    return save_model(out, net.state_dict(), net.config, extra)
