"""``belote export``: a checkpoint -> a model folder that loads with torch alone.

The output holds ``model.safetensors`` (the policy/value network) and ``meta.json``: format,
action-table and observation-encoder versions, rules, network shape, and the training
figures known for the run (timesteps, wall time, duplicate-match results).

A model trained with SB3 / sb3-contrib on the single-agent env (``gymnasium.make("Belote-v0")``,
``MaskablePPO("MlpPolicy", env)`` or ``PPO``) and saved with ``model.save("model.zip")``
exports the same way (``export_sb3_zip``): ``belote export model.zip OUT``. Nothing in the
zip is unpickled: the weights (``policy.pth``) are read with ``torch.load(weights_only=True)``,
the spaces and policy options from the plain JSON fields of ``data``.
"""

from __future__ import annotations

import base64
import io
import lzma
import os
import pickle
import pickletools
import re
import shutil
import warnings
import zipfile
import zlib
from pathlib import Path
from typing import Any

from belote_env.jsonfile import DataFileError, parse_json, read_json
from policies.network import (BIDS_SUBDIR, CARDS_SUBDIR, MAX_PARAMETERS, MODEL_PARTS, BeloteNet, CheckpointError, load_model,
                              save_model, value_net_kwargs)

__all__ = ["export_model", "export_sb3_zip", "is_sb3_zip", "SB3_POLICY_CLASSES"]

#: The SB3 policy classes an ``.zip`` may hold (the ``MlpPolicy`` of MaskablePPO and PPO).
SB3_POLICY_CLASSES = {
    ("sb3_contrib.common.maskable.policies", "MaskableActorCriticPolicy"),
    ("stable_baselines3.common.policies", "ActorCriticPolicy"),
}
_SB3_ACTIVATIONS = {"torch.nn.modules.activation.ReLU": "relu", "torch.nn.modules.activation.Tanh": "tanh"}
_SB3_DEFAULT_ACTIVATION = "tanh"  # ActorCriticPolicy's activation_fn default (nn.Tanh)
_FLATTEN = "stable_baselines3.common.torch_layers.FlattenExtractor"
#: policy_kwargs that do not change what the exported network computes (net_arch and
#: activation_fn are read; features_extractor_class must be FlattenExtractor).
_SB3_NEUTRAL_KWARGS = {"ortho_init", "optimizer_class", "optimizer_kwargs", "share_features_extractor",
                       "normalize_images", "features_extractor_kwargs"}
_LAYER_KEY = re.compile(r"mlp_extractor\.(policy_net|value_net)\.(\d+)\.(weight|bias)")
#: Bounds on the uncompressed size of the zip members read (bytes): ``data`` (JSON and a few
#: base64 pickles) and the version string are a few KiB in any SB3 save; ``policy.pth`` holds
#: at most ``MAX_PARAMETERS`` float32 numbers (the largest network ``BeloteNet`` builds) plus
#: torch's archive overhead. A member declared larger is refused before it is read, and no
#: read takes more than its bound + 1 bytes (a zip can lie about its sizes).
SB3_MEMBER_BOUNDS = {"data": 4 << 20, "_stable_baselines3_version": 4 << 10,
                     "policy.pth": MAX_PARAMETERS * 4 + (16 << 20)}
#: What reading a damaged or unusual zip raises: sizes that lie (EOFError), a corrupt
#: stream (zlib / lzma errors, bz2's OSError), an encrypted member (RuntimeError), an
#: unknown compression method (NotImplementedError), a bad CRC (BadZipFile).
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, zlib.error, lzma.LZMAError,
               RuntimeError, NotImplementedError, ValueError)


def is_sb3_zip(path: str | os.PathLike) -> bool:
    """True for a file named ``*.zip`` (an SB3 ``model.save`` archive to export)."""
    p = Path(path)
    return p.suffix.lower() == ".zip" and p.is_file()


def _torch_reason(e: Exception) -> str:
    """The useful part of a ``torch.load`` error (without its advice to load unsafely)."""
    lines = [ln.strip() for ln in str(e).splitlines()]
    keep = [ln for ln in lines if ln and "weights_only" not in ln and "WeightsUnpickler error" not in ln
            and not ln.startswith("Check the documentation") and "arbitrary code execution" not in ln]
    return " ".join(keep).split(". This is an internal")[0] or type(e).__name__


def _read_sb3_members(path: Path) -> tuple[bytes, bytes, bytes | None]:
    """``data``, ``policy.pth`` and ``_stable_baselines3_version`` (``None`` when absent) of
    the SB3 zip ``path``, each checked against ``SB3_MEMBER_BOUNDS`` before and while it is
    read; raises ``CheckpointError`` naming the file and the member."""
    member = None
    try:
        with zipfile.ZipFile(path) as zf:
            infos = {i.filename: i for i in zf.infolist()}
            for name in ("data", "policy.pth"):
                if name not in infos:
                    raise CheckpointError(f"{path}: not an SB3 model .zip: it lacks {name} (has {sorted(infos)[:20]})")
            out = {}
            for member in ("data", "policy.pth", "_stable_baselines3_version"):
                info = infos.get(member)
                if info is None:
                    out[member] = None
                    continue
                bound = SB3_MEMBER_BOUNDS[member]
                if info.file_size > bound:
                    raise CheckpointError(f"{path}: member {member} declares {info.file_size:,} bytes uncompressed, "
                                          f"more than the {bound:,} allowed (is it an SB3 model .zip?)")
                with zf.open(member) as f:
                    raw = f.read(bound + 1)
                if len(raw) > bound:
                    raise CheckpointError(f"{path}: member {member} holds more than the {bound:,} bytes allowed "
                                          f"(is it an SB3 model .zip?)")
                out[member] = raw
    except CheckpointError:
        raise
    except _ZIP_ERRORS as e:
        what = f"member {member} cannot be read" if member else "not a readable .zip"
        kind = "zlib.error" if isinstance(e, zlib.error) else type(e).__name__
        raise CheckpointError(f"{path}: {what} ({kind}: {e or 'damaged archive'})") from None
    return out["data"], out["policy.pth"], out["_stable_baselines3_version"]


def _class_name(path: Path, field: str, item: Any) -> tuple[str, str]:
    """(module, name) of a class SB3 stored in ``data`` as base64 cloudpickle, read from the
    pickle's opcodes (``pickletools.genops``: nothing is executed or imported)."""
    try:
        raw = base64.b64decode(item[":serialized:"], validate=True)
        strings, found = [], None
        for op, arg, _ in pickletools.genops(raw):
            if isinstance(arg, str):
                strings.append(arg)
            if op.name == "STACK_GLOBAL" and len(strings) >= 2:
                found = (strings[-2], strings[-1])
            elif op.name == "GLOBAL" and isinstance(arg, str):
                found = tuple(arg.split(" ", 1))
            if found:
                return found
    except (TypeError, KeyError, ValueError) as e:
        raise CheckpointError(f"{path}: data field {field} is not a stored class ({e})") from None
    raise CheckpointError(f"{path}: data field {field} names no class")


def _space(path: Path, data: dict, field: str) -> dict:
    item = data.get(field)
    if not isinstance(item, dict):
        raise CheckpointError(f"{path}: data lacks {field}")
    return item


def _sb3_layers(path: Path, weights: dict, net: str, n_in: int) -> list[int]:
    """Hidden sizes of ``mlp_extractor.<net>`` from its tensors' shapes (Linear layers at
    indices 0, 2, 4, ..., each fed by the previous one), checked."""
    layers = sorted({int(m.group(2)) for k in weights if (m := _LAYER_KEY.fullmatch(k)) and m.group(1) == net})
    if layers != list(range(0, 2 * len(layers), 2)):
        raise CheckpointError(f"{path}: unknown architecture: mlp_extractor.{net} has layers {layers}, expected "
                              f"Linear layers at 0, 2, 4, ... (Linear + activation)")
    sizes = []
    for i in layers:
        w, b = weights.get(f"mlp_extractor.{net}.{i}.weight"), weights.get(f"mlp_extractor.{net}.{i}.bias")
        if w is None or b is None or w.dim() != 2 or tuple(b.shape) != (w.shape[0],) or w.shape[1] != n_in:
            raise CheckpointError(f"{path}: unknown architecture: mlp_extractor.{net}.{i} is not a Linear layer "
                                  f"reading {n_in} inputs")
        n_in = w.shape[0]
        sizes.append(n_in)
    return sizes


def export_sb3_zip(zip_path: str | os.PathLike, out: str | os.PathLike) -> Path:
    """Export an SB3 / sb3-contrib model ``.zip`` (``model.save``) trained on the single-agent
    env with its default ``obs_mode="infoset"`` (``gymnasium.make("Belote-v0")``) to the model
    folder ``out`` (``policies.network.save_model``), loaded by ``make_policy(out)`` /
    ``belote eval OUT ...``.

    The zip must hold ``data`` (SB3's JSON) and ``policy.pth``: a ``MaskableActorCriticPolicy``
    or ``ActorCriticPolicy`` (``"MlpPolicy"``) with the observation and action spaces of one
    game's env (classic ``Box((618,), float32)`` and ``Discrete(112)``; coinche, two and three
    seats their own: ``model_files.CONTRACT_MODE_OBS_SIZE``, ``MODE_N_ACTIONS``; the model
    folder records the game and plays it alone), the flatten features extractor, separate policy
    and value MLPs (any ``net_arch`` sizes, read from the tensor shapes) and ``ReLU`` or
    ``Tanh`` activations (``policy_kwargs["activation_fn"]``; SB3's default is ``Tanh``). The
    weights are read with ``torch.load(weights_only=True)`` and nothing is unpickled, so no
    code from the file runs. Observation normalisation (``VecNormalize``) is not in the zip:
    a model trained behind it does not export as such.

    Each member read is bounded (``SB3_MEMBER_BOUNDS``: its declared size is checked before
    it is read, and no read goes past the bound), so a zip bomb is refused at once.

    Raises:
        CheckpointError: not a zip / missing member, a member over its bound, a damaged,
            encrypted or unsupported archive, ``data`` that is not UTF-8 JSON, a
            ``policy.pth`` holding anything but tensors, non-finite weights, another
            observation or action space,
            another policy class, features extractor or activation, tensors SB3's MLP policy
            does not have, or shapes that do not chain (each naming what was found and what
            is allowed).
    """
    import torch

    from policies.model_files import CONTRACT_MODE_OBS_SIZE, MODE_N_ACTIONS, contract_mode_of_size

    path = Path(zip_path)
    data_bytes, policy_bytes, version_bytes = _read_sb3_members(path)
    version = None
    if version_bytes is not None:
        try:
            version = version_bytes.decode("utf-8").strip()
        except UnicodeDecodeError as e:
            raise CheckpointError(f"{path}: _stable_baselines3_version is not UTF-8 text (byte {e.start})") from None
    try:
        try:
            data_text = data_bytes.decode("utf-8")  # SB3 writes UTF-8 (json.loads of bytes would guess)
        except UnicodeDecodeError as e:
            raise DataFileError(f"{path}: member data: not UTF-8 text (byte {e.start})") from None
        data = parse_json(data_text, f"{path}: member data")
    except DataFileError as e:
        raise CheckpointError(str(e)) from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path}: data is not a JSON object")

    cls = _class_name(path, "policy_class", _space(path, data, "policy_class"))
    if cls not in SB3_POLICY_CLASSES:
        raise CheckpointError(f"{path}: unknown architecture: policy class {'.'.join(cls)}; the export reads "
                              f"{', '.join(sorted('.'.join(c) for c in SB3_POLICY_CLASSES))} (\"MlpPolicy\")")
    obs = _space(path, data, "observation_space")
    shape = obs.get("_shape")
    mode = contract_mode_of_size(shape[0]) if isinstance(shape, list) and len(shape) == 1 else None
    if obs.get(":type:") != "<class 'gymnasium.spaces.box.Box'>" or mode is None or obs.get("dtype") != "float32":
        sizes = ", ".join(f"[{n}] ({m})" for m, n in CONTRACT_MODE_OBS_SIZE.items())
        raise CheckpointError(f"{path}: observation space {obs.get(':type:')} of shape {shape} ({obs.get('dtype')}); "
                              f"the export needs a float32 Box of one game's shape, {sizes}: the env's "
                              f"obs_mode=\"infoset\" (a history-mode model cannot be exported)")
    obs_size, n_actions = shape[0], MODE_N_ACTIONS[mode]
    act = _space(path, data, "action_space")
    if act.get(":type:") != "<class 'gymnasium.spaces.discrete.Discrete'>" or str(act.get("n")) != str(
            n_actions) or str(act.get("start", 0)) != "0":
        raise CheckpointError(f"{path}: action space {act.get(':type:')} with n={act.get('n')}; the export needs "
                              f"Discrete({n_actions}) (the flat action table of the {mode} game, whose "
                              f"observation has {obs_size} floats)")
    kwargs = data.get("policy_kwargs", {})
    if not isinstance(kwargs, dict):
        raise CheckpointError(f"{path}: policy_kwargs is not a JSON object")
    kwargs = {k: v for k, v in kwargs.items() if k not in (":type:", ":serialized:")}
    unknown = sorted(set(kwargs) - _SB3_NEUTRAL_KWARGS - {"net_arch", "activation_fn", "features_extractor_class"})
    if unknown:
        raise CheckpointError(f"{path}: unknown architecture: policy_kwargs {unknown}; the export reads net_arch, "
                              f"activation_fn, features_extractor_class (FlattenExtractor) and "
                              f"{', '.join(sorted(_SB3_NEUTRAL_KWARGS))}")
    fe = kwargs.get("features_extractor_class", f"<class '{_FLATTEN}'>")
    if fe != f"<class '{_FLATTEN}'>":
        raise CheckpointError(f"{path}: unknown architecture: features extractor {fe}; the export needs {_FLATTEN}")
    act_fn = kwargs.get("activation_fn")
    if act_fn is None:
        activation = _SB3_DEFAULT_ACTIVATION
    else:
        m = re.fullmatch(r"<class '([\w.]+)'>", act_fn) if isinstance(act_fn, str) else None
        if m is None or m.group(1) not in _SB3_ACTIVATIONS:
            raise CheckpointError(f"{path}: unknown architecture: activation_fn {act_fn}; the export knows "
                                  f"{', '.join(sorted(_SB3_ACTIVATIONS))}")
        activation = _SB3_ACTIVATIONS[m.group(1)]

    try:
        with warnings.catch_warnings():  # torch warns about pickle protocols: the error below says it all
            warnings.simplefilter("ignore")
            weights = torch.load(io.BytesIO(policy_bytes), map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as e:  # weights_only refuses anything but tensors and plain containers
        raise CheckpointError(f"{path}: policy.pth is not a tensor state_dict: it holds something other than "
                              f"tensors (refused; nothing in it was executed: {_torch_reason(e)})") from None
    except Exception as e:  # a damaged file: RuntimeError, EOFError, ...
        raise CheckpointError(f"{path}: policy.pth is not a tensor state_dict ({_torch_reason(e)})") from None
    if not isinstance(weights, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                                for k, v in weights.items()):
        raise CheckpointError(f"{path}: policy.pth is not a state_dict of named tensors")
    for k, v in weights.items():
        if not (v.is_floating_point() or v.dtype in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)):
            raise CheckpointError(f"{path}: policy.pth tensor {k} has dtype {v.dtype}; the export reads real "
                                  f"numbers (float32 as SB3 saves them)")
        if v.is_floating_point() and not bool(torch.isfinite(v).all()):
            raise CheckpointError(f"{path}: policy.pth tensor {k} holds non-finite values (NaN or infinity); "
                                  f"a policy network's weights must be finite numbers")
    heads = {"action_net.weight", "action_net.bias", "value_net.weight", "value_net.bias"}
    other = sorted(k for k in weights if k not in heads and not _LAYER_KEY.fullmatch(k))
    if other:
        raise CheckpointError(f"{path}: unknown architecture: tensors {other[:8]}; the export knows SB3's MLP policy "
                              f"(mlp_extractor.policy_net / value_net, action_net, value_net)")
    pi = _sb3_layers(path, weights, "policy_net", obs_size)
    vf = _sb3_layers(path, weights, "value_net", obs_size)
    arch = kwargs.get("net_arch")
    if arch is not None:
        want = arch if isinstance(arch, dict) else {"pi": arch, "vf": arch}
        if want != {"pi": pi, "vf": vf}:
            raise CheckpointError(f"{path}: unknown architecture: net_arch {arch} does not match the tensors "
                                  f"(pi {pi}, vf {vf}); shared layers are not supported")
    try:
        net = BeloteNet(obs_size=obs_size, n_actions=n_actions, pi=pi, vf=vf, activation=activation)
        net.load_state_dict(weights, strict=True)
    except (ValueError, RuntimeError) as e:
        raise CheckpointError(f"{path}: unknown architecture: the tensors do not make a policy network "
                              f"(pi {pi}, vf {vf}, {n_actions} actions): {e}") from None
    steps = data.get("num_timesteps")
    extra = {"exported_from": str(path), "parts": [],
             "sb3": {"policy_class": ".".join(cls), "version": version,
                     "num_timesteps": steps if type(steps) is int else None}}
    _drop_other_parts(out, [])
    return save_model(out, net.state_dict(), net.config, extra)


def _drop_other_parts(out: str | os.PathLike, parts: list[str]) -> None:
    """Remove from the output folder ``out`` the value-network sub-folders (``MODEL_PARTS``)
    of an earlier model that the export does not write (``parts``): the export replaces the
    model in ``out``, and a stale ``cards/`` or ``bids/`` would be loaded with it."""
    for sub in sorted(set(MODEL_PARTS) - set(parts)):
        if (Path(out) / sub).is_dir():
            shutil.rmtree(Path(out) / sub)


def export_model(checkpoint: str | os.PathLike, out: str | os.PathLike) -> Path:
    """Validate ``checkpoint`` (raises ``CheckpointError``) and write the export to ``out``,
    its card- and bid-value networks (``cards/``, ``bids/``: a ``bid_learner: q`` run's
    bids) with it.
    A ``*.zip`` file is an SB3 / sb3-contrib model (``export_sb3_zip``)."""
    if is_sb3_zip(checkpoint):
        return export_sb3_zip(checkpoint, out)
    net, meta = load_model(checkpoint)
    ckpt = Path(checkpoint)
    if ckpt.is_file():
        ckpt = ckpt.parent
    extra = {k: v for k, v in meta.items() if k not in ("net", "format_version", "action_table_version",
                                                      "obs_encoder_version")}
    run_dir = ckpt.parent.parent
    ev = run_dir / "eval.json"
    # the run's eval.json holds its final model's figures: a step checkpoint's export has none
    final = ckpt.name == "final" and ckpt.parent.name == "checkpoints"
    if final and ev.is_file() and "evaluation" not in extra:
        try:
            evaluation = read_json(ev)
        except DataFileError as e:
            raise CheckpointError(f"{e} (the run's evaluation, exported with the model)") from None
        if not isinstance(evaluation, dict):
            raise CheckpointError(f"{ev}: not a JSON object (the run's evaluation, exported with the model)")
        extra["evaluation"] = {k: v for k, v in evaluation.items() if k.startswith("vs_")}
    extra["exported_from"] = str(ckpt)
    value_net_kwargs(ckpt)  # its card- and bid-value networks (cards/, bids/) are checked first
    extra["parts"] = [sub for sub in sorted(MODEL_PARTS) if (ckpt / sub).is_dir()]  # what the export holds
    _drop_other_parts(out, extra["parts"])
    folder = save_model(out, net.state_dict(), net.config, extra)
    for sub in (CARDS_SUBDIR, BIDS_SUBDIR):
        if (ckpt / sub).is_dir():
            vnet, vmeta = load_model(ckpt / sub)
            save_model(Path(out) / sub, vnet.state_dict(), vnet.config,
                       {k: v for k, v in vmeta.items() if k not in ("net", "format_version", "action_table_version",
                                                                   "obs_encoder_version")})
    return folder
