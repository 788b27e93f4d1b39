"""RLlib checkpoint -> model folder (``model.safetensors`` + ``meta.json``, the format of
``policies.network`` and ``belote export``), without ray and without executing code.

An RLlib checkpoint written by ``belote train-rllib`` holds ``belote_meta.json`` (network
shape, rules, run config and figures) and, under
``learner_group/learner/rl_module/main/module_state.pkl``, the trained module's weights: a
pickled dict of numpy arrays named ``net.<BeloteNet key>``. That pickle is read with an
unpickler that only accepts numpy's array-rebuilding functions and a plain dict / OrderedDict
(like ``torch.load(weights_only=True)``): a file naming any other callable is rejected, so
loading never runs code from the checkpoint.
"""

from __future__ import annotations

import io
import os
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import torch

from belote_env.jsonfile import DataFileError, read_json
from policies.network import MAX_META_BYTES, CheckpointError, expected_shapes, save_model

__all__ = ["export_rllib_checkpoint", "is_rllib_checkpoint", "read_module_weights", "META_NAME",
           "MODULE_STATE_PATH", "strip_prefix"]

META_NAME = "belote_meta.json"
MODULE_STATE_PATH = Path("learner_group", "learner", "rl_module", "main", "module_state.pkl")
_PREFIX = "net."

# (module, name) pairs a numpy-array pickle may name; nothing else is ever resolved.
_ALLOWED = {
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
    ("numpy.core.numeric", "_frombuffer"), ("numpy._core.numeric", "_frombuffer"),
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("collections", "OrderedDict"),
}


class _WeightsUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}: only numpy arrays are allowed")


def is_rllib_checkpoint(path: str | os.PathLike) -> bool:
    """True for a folder written by ``belote train-rllib`` (it holds ``belote_meta.json``)."""
    p = Path(path)
    return p.is_dir() and (p / META_NAME).is_file() and (p / "rllib_checkpoint.json").is_file()


def strip_prefix(state: dict[str, Any]) -> dict[str, torch.Tensor]:
    """``{"net.<key>": array}`` -> ``{"<key>": float tensor}`` (keys without the prefix are dropped)."""
    return {k[len(_PREFIX):]: torch.as_tensor(np.asarray(v)) for k, v in state.items() if k.startswith(_PREFIX)}


def read_module_weights(checkpoint: str | os.PathLike) -> dict[str, torch.Tensor]:
    """The BeloteNet weights of main in an RLlib checkpoint folder.

    Returns:
        ``{BeloteNet key: tensor}`` (float32).
    Raises:
        CheckpointError: the module state file is missing, corrupt, names anything but
            numpy arrays, or holds no ``net.*`` tensor.
    """
    f = Path(checkpoint) / MODULE_STATE_PATH
    if not f.is_file():
        raise CheckpointError(f"{checkpoint}: not an RLlib checkpoint of belote train-rllib, {MODULE_STATE_PATH} "
                              "is missing")
    try:
        state = _WeightsUnpickler(io.BytesIO(f.read_bytes())).load()
    except Exception as e:  # UnpicklingError, EOFError, ... on a corrupt or foreign file
        raise CheckpointError(f"{f}: unreadable module state ({e})") from None
    if not isinstance(state, dict):
        raise CheckpointError(f"{f}: module state must be a dict of arrays, got {type(state).__name__}")
    tensors = strip_prefix(state)
    if not tensors:
        raise CheckpointError(f"{f}: no BeloteNet weights ('net.*' keys) in the module state")
    return tensors


def export_rllib_checkpoint(checkpoint: str | os.PathLike, out: str | os.PathLike) -> Path:
    """Write main's network of an RLlib checkpoint as a model folder ``out``.

    ``policies.make_policy(out)`` / ``belote eval OUT normal`` then load it with torch alone.

    Raises:
        CheckpointError: not a ``belote train-rllib`` checkpoint, corrupt files, or weights
            that do not match the network described in ``belote_meta.json``.
    """
    ckpt = Path(checkpoint)
    meta_path = ckpt / META_NAME
    if not meta_path.is_file():
        raise CheckpointError(f"{ckpt}: not an RLlib checkpoint of belote train-rllib ({META_NAME} is missing)")
    try:
        meta = read_json(meta_path, MAX_META_BYTES)
    except DataFileError as e:  # unreadable, over the bound, not JSON, nested too deeply, a huge int
        raise CheckpointError(f"{meta_path}: corrupt metadata, {str(e).removeprefix(f'{meta_path}: ')}") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("net"), dict):
        raise CheckpointError(f"{meta_path}: metadata lacks the 'net' section")
    tensors = read_module_weights(ckpt)
    try:  # check names and shapes (without allocating a network) before anything is written
        want = expected_shapes(meta["net"])
    except (TypeError, ValueError) as e:
        raise CheckpointError(f"{meta_path}: bad network description {meta['net']!r} ({e})") from None
    have = {k: tuple(v.shape) for k, v in tensors.items()}
    if have != want:
        diff = sorted(k for k in set(want) | set(have) if want.get(k) != have.get(k))
        raise CheckpointError(f"{ckpt}: weights do not match the network {meta['net']!r} "
                              f"(tensors that differ: {diff[:8]})")
    extra = {k: v for k, v in meta.items() if k not in ("net", "format_version")}
    extra["exported_from"] = str(ckpt)
    return save_model(out, tensors, meta["net"], extra)
