"""The model file format: a model is a folder holding ``model.safetensors`` (the weights)
and ``meta.json`` (the network shape, the action-table and observation-encoder versions,
the rules, training figures), with optional value networks in sub-folders (``cards/``,
``bids/``: ``MODEL_PARTS``). Loading never executes code from the files: weights go
through safetensors, metadata through ``json`` (``belote_env.jsonfile``: size-bounded,
clear errors), and a ``meta.json`` of another ``format_version`` or an unknown ``kind`` is
refused (``check_meta_format``). ``save_model`` / ``load_model``, ``load_card_net`` /
``load_bid_net``, ``value_net_kwargs`` (what ``NetworkPolicy`` is built from),
``CheckpointError``.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import torch

from belote_env import ACTION_TABLE_VERSION, NUM_ACTIONS
from belote_env.actions import CLASSIC_BIDS, PASS, SURCOINCHE
from belote_env.atomic import atomic_write_bytes
from belote_env.deprecation import renamed_in
from belote_env.config import VARIANT_OPTIONS, variant_rules
from belote_env.games import game_of
from belote_env.jsonfile import DataFileError, parse_json, read_json, short_repr
from belote_env.actions import PROPOSAL_BIDS
from belote_env.observation import OBS_ENCODER_VERSION, OBS_SIZE

from .net import (
    BeloteNet, CheckpointError, FORMAT_VERSION, MAX_PARAMETERS, expected_shapes,
)

#: Bound on a safetensors file's JSON header (bytes); a model's header is a few KB.
_MAX_HEADER_BYTES = 1 << 20
#: Bound on a model's ``meta.json`` (bytes), checked before it is read; one is a few KB.
MAX_META_BYTES = 1 << 20
_SAFETENSORS_DTYPES = {"F32": 4, "F16": 2, "BF16": 2, "F64": 8}


def read_safetensors_header(path: str | os.PathLike) -> dict[str, tuple[str, tuple[int, ...]]]:
    """The tensors a safetensors file declares, ``{name: (dtype, shape)}``, read from its
    JSON header alone (no tensor data is read), with the header's consistency checked:
    the header length (at most 1 MiB), each tensor's byte range matching its dtype and
    shape, and the file's size matching the data the header declares.

    Raises:
        CheckpointError: an unreadable file or a header that is not valid safetensors.
    """
    path = Path(path)

    def bad(why: str) -> CheckpointError:
        return CheckpointError(f"{path}: corrupt weights file ({why})")

    try:
        with open(path, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                raise bad("shorter than a safetensors header")
            n = int.from_bytes(head, "little")
            if not 2 <= n <= _MAX_HEADER_BYTES:
                raise bad(f"header length {n} bytes, allowed 2..{_MAX_HEADER_BYTES}")
            raw = f.read(n)
            size = os.fstat(f.fileno()).st_size
    except OSError as e:
        raise CheckpointError(f"{path}: cannot read the weights file ({e})") from None
    if len(raw) < n:
        raise bad(f"truncated header: {len(raw)} of {n} bytes")
    try:
        header = parse_json(raw, "header")
    except DataFileError as e:
        raise bad(str(e)) from None
    if not isinstance(header, dict):
        raise bad("header is not a JSON object")
    out: dict[str, tuple[str, tuple[int, ...]]] = {}
    end = 0
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(entry, dict):
            raise bad(f"tensor {name!r}: entry is not an object")
        dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
        if dtype not in _SAFETENSORS_DTYPES:
            raise bad(f"tensor {name!r}: dtype {dtype!r}, allowed {sorted(_SAFETENSORS_DTYPES)}")
        if (not isinstance(shape, list) or len(shape) > 8
                or not all(type(d) is int and 0 <= d <= MAX_PARAMETERS for d in shape)):
            raise bad(f"tensor {name!r}: shape {shape!r} is not a list of at most 8 sizes")
        if (not isinstance(offsets, list) or len(offsets) != 2 or not all(type(o) is int for o in offsets)
                or not 0 <= offsets[0] <= offsets[1]):
            raise bad(f"tensor {name!r}: data_offsets {offsets!r}")
        numel = 1
        for d in shape:
            numel *= d
        if offsets[1] - offsets[0] != numel * _SAFETENSORS_DTYPES[dtype]:
            raise bad(f"tensor {name!r}: {offsets[1] - offsets[0]} bytes for shape {shape} of {dtype}")
        end = max(end, offsets[1])
        out[name] = (dtype, tuple(shape))
    if size != 8 + n + end:
        raise bad(f"{size} bytes on disk, the header declares {8 + n + end}")
    return out


def _check_weights_header(weights: Path, want: dict[str, tuple[int, ...]]) -> None:
    """Compare the tensors ``weights`` declares with ``want`` (the shapes of the network
    ``meta.json`` describes) before anything is allocated; raises ``CheckpointError``
    naming the first difference."""
    have = read_safetensors_header(weights)
    missing, extra = sorted(set(want) - set(have)), sorted(set(have) - set(want))
    if missing or extra:
        raise CheckpointError(f"{weights}: weights do not match the network in meta.json "
                              f"(missing tensors {missing}, unexpected tensors {extra})")
    for name, shape in want.items():
        dtype, got = have[name]
        if got != shape or dtype != "F32":
            raise CheckpointError(f"{weights}: weights do not match the network in meta.json (tensor {name!r} "
                                  f"is {dtype} {list(got)}, the network needs F32 {list(shape)})")


def check_finite(tensors: dict[str, torch.Tensor], where: str | os.PathLike) -> None:
    """Raise ``CheckpointError`` naming ``where`` and the first floating-point tensor holding
    NaN or infinite values (such weights would make the network play nonsense silently)."""
    for name, t in tensors.items():
        if t.is_floating_point() and not bool(torch.isfinite(t).all()):
            raise CheckpointError(f"{where}: corrupt weights, NaN or infinite values in tensor {name!r}")


def _model_folder(path: str | os.PathLike) -> Path:
    """A model folder from its path or the path of one of its two files (``model.safetensors``,
    ``meta.json``; any other file is named as it was given)."""
    folder = Path(path)
    return folder.parent if folder.name in ("model.safetensors", "meta.json") else folder


@functools.cache
def variant_game(mode: str):
    """The ``games.Game`` of a variant's default rules (``config.variant_rules``): the facts a
    network of contract mode ``mode`` (its ``meta.json``'s ``contract_mode``: the variant's
    name, ``games.Game.variant``) is made for. Raises ``ValueError`` for an unknown mode."""
    return game_of(variant_rules(mode))


#: The observation size of each contract mode (``observation.obs_size``): a network reads
#: the observation of one mode, recorded in its ``meta.json`` (``contract_mode``,
#: ``obs_size``) and checked on loading and at every decision (``NetworkPolicy.check_rules``).
CONTRACT_MODE_OBS_SIZE = {mode: variant_game(mode).obs_size for mode in VARIANT_OPTIONS}
#: The action-table size of each game a network may play (``actions.num_actions``): 112
#: at four seats, 414 at two and three (TWO_THREE.md; the redeal answers 412, 413).
MODE_N_ACTIONS = {mode: variant_game(mode).num_actions for mode in VARIANT_OPTIONS}


def game_words(mode: str) -> str:
    """How a message names the game of contract mode ``mode`` (``games.Game.variant``):
    ``"classic"``, ``"coinche"``, ``"two-player"``, ``"three-player"``."""
    return {"two": "two-player", "three": "three-player"}.get(mode, mode)


class RulesMismatchError(CheckpointError):
    """A network made for one contract mode (classic / coinche: observation size, action
    ids) asked to play under rules of another, or under rules whose action ids it does
    not have."""


def contract_mode_of_size(obs_size: Any) -> str | None:
    """The contract mode whose observation is ``obs_size`` floats (``"classic"`` 618,
    ``"coinche"`` ``COINCHE_OBS_SIZE``), ``None`` for any other size."""
    for mode, size in CONTRACT_MODE_OBS_SIZE.items():
        if obs_size == size:
            return mode
    return None


def _obs_version_entry(mode: str) -> tuple[str, int] | None:
    """The ``meta.json`` key and value of the observation version of a contract mode whose
    ``Game.obs_version`` is a ``"<name>-<n>"`` string (``coinche_obs_version`` 1 for
    ``"coinche-1"``, ``small_obs_version`` 1 for ``"small-1"``); None for the classic
    observation (its version is ``obs_encoder_version``, in every model)."""
    version = variant_game(mode).obs_version
    if not isinstance(version, str):
        return None
    name, number = version.rsplit("-", 1)
    return f"{name}_obs_version", int(number)


def _mode_meta(mode: str | None) -> dict[str, Any]:
    """The ``meta.json`` keys a network of contract mode ``mode`` records (none for a
    network of another observation size)."""
    if mode is None:
        return {}
    out: dict[str, Any] = {"contract_mode": mode, "obs_size": CONTRACT_MODE_OBS_SIZE[mode]}
    entry = _obs_version_entry(mode)
    if entry is not None:
        out[entry[0]] = entry[1]
    return out


def _meta_mode(meta: dict, obs_size: Any, where: Any) -> str:
    """The contract mode of a network from its ``meta.json`` and its network's observation
    size: ``contract_mode`` (absent in models saved before coinche: classic) must agree
    with the observation size, and a coinche network must carry this package's
    ``coinche_obs_version``; ``CheckpointError`` naming the mismatch otherwise."""
    by_size = contract_mode_of_size(obs_size)
    if by_size is None:
        sizes = ", ".join(f"{size} ({mode})" for mode, size in CONTRACT_MODE_OBS_SIZE.items())
        raise CheckpointError(f"{where}: network expects obs {obs_size!r}, the env has {sizes}")
    mode = meta.get("contract_mode", "classic" if by_size == "classic" else None)
    if mode != by_size:
        raise CheckpointError(f"{where}: meta.json says contract_mode {meta.get('contract_mode')!r} but the network "
                              f"reads {obs_size} observation floats, the size of {by_size} observations")
    if "obs_size" in meta and meta["obs_size"] != obs_size:
        raise CheckpointError(f"{where}: meta.json says obs_size {meta['obs_size']!r}, the network reads {obs_size}")
    entry = _obs_version_entry(mode)
    if entry is not None and meta.get(entry[0]) != entry[1]:
        raise CheckpointError(f"{where}: made for {entry[0]} {meta.get(entry[0])!r}, this package uses {entry[1]}; "
                              "re-export the model with a matching belote-rl version")
    return mode


#: ``meta.json`` key ``kind`` of a model folder without a policy network (no
#: ``model.safetensors``): its value networks (``cards/``, ``bids/``) play, the other
#: decisions follow ``NetworkPolicy``'s fixed rule.
VALUE_POLICY_KIND = "value_policy"


def check_meta_format(meta: dict, where: str | os.PathLike) -> None:
    """Raise ``CheckpointError`` naming ``where`` (a ``meta.json``) unless its
    ``format_version`` is this package's ``FORMAT_VERSION`` (an int; every model folder
    records it) and its ``kind``, if any, one of ``MODEL_KINDS``: a folder of another
    format or kind is refused, not played as if it were one of these."""
    v = meta.get("format_version")
    if type(v) is not int or v != FORMAT_VERSION:
        got = "it is missing" if "format_version" not in meta else f"got {short_repr(v)}"
        raise CheckpointError(f"{where}: format_version must be {FORMAT_VERSION} (the model file format this "
                              f"package reads), {got}; re-export the model with a matching belote-rl version")
    if "kind" in meta and meta["kind"] not in MODEL_KINDS:
        raise CheckpointError(f"{where}: unknown kind {short_repr(meta['kind'])}; a model folder's kind is one of "
                              f"{', '.join(repr(k) for k in MODEL_KINDS)}, or absent for a policy network")


def save_value_policy_meta(folder: str | os.PathLike, rules, extra: dict[str, Any] | None = None) -> Path:
    """Write the ``meta.json`` of a model folder of value networks only (``kind`` =
    ``VALUE_POLICY_KIND``, no ``model.safetensors``): the format, action-table and
    observation versions, the contract mode and observation size of ``rules`` and the
    rules themselves (``Rules.to_dict``), plus ``extra``. The folder's ``cards/`` (and
    ``bids/``) are written by ``save_model``. Returns the folder."""
    from belote_env.observation import obs_size

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    mode = contract_mode_of_size(obs_size(rules))
    meta = {"format_version": FORMAT_VERSION, "kind": VALUE_POLICY_KIND, "action_table_version": ACTION_TABLE_VERSION,
            "obs_encoder_version": OBS_ENCODER_VERSION, "n_actions": MODE_N_ACTIONS.get(mode, NUM_ACTIONS),
            **_mode_meta(mode),
            "rules": rules.to_dict(), **(extra or {})}
    atomic_write_bytes(folder / "meta.json", json.dumps(meta, indent=2, sort_keys=True).encode())
    return folder


def save_model(folder: str | os.PathLike, state_dict: dict[str, torch.Tensor], net_config: dict[str, Any],
               extra: dict[str, Any] | None = None) -> Path:
    """Write ``model.safetensors`` + ``meta.json`` into ``folder`` (created), each file atomically.

    Args:
        folder: destination folder.
        state_dict: tensors named as in ``BeloteNet`` (other keys are dropped).
        net_config: ``BeloteNet.config``.
        extra: more JSON-able metadata (rules, training figures).
    Returns:
        the folder path.
    """
    from safetensors.torch import save

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    keys = set(BeloteNet(**net_config).state_dict())
    tensors = {k: v.detach().cpu().contiguous() for k, v in state_dict.items() if k in keys}
    missing = keys - set(tensors)
    if missing:
        raise CheckpointError(f"state_dict lacks network tensors: {sorted(missing)}")
    meta = {
        "format_version": FORMAT_VERSION,
        "action_table_version": ACTION_TABLE_VERSION,
        "obs_encoder_version": OBS_ENCODER_VERSION,
        "net": net_config,
        **_mode_meta(contract_mode_of_size(net_config.get("obs_size", OBS_SIZE))),
        **(extra or {}),
    }
    atomic_write_bytes(folder / "model.safetensors", save(tensors))
    atomic_write_bytes(folder / "meta.json", json.dumps(meta, indent=2, sort_keys=True).encode())
    return folder


def _is_value_policy(folder: Path) -> bool:
    try:
        return read_json(folder / "meta.json", MAX_META_BYTES).get("kind") == VALUE_POLICY_KIND
    except (DataFileError, AttributeError, OSError):
        return False


def load_model(folder: str | os.PathLike, contract_mode: str | None = None) -> tuple[BeloteNet, dict[str, Any]]:
    """Load a model folder (or the path of its ``model.safetensors``) with torch alone.
    ``contract_mode``: ``"classic"`` or ``"coinche"`` to require a network of that mode
    (``RulesMismatchError`` naming both otherwise); ``None``: either (the mode is
    ``meta.json``'s ``contract_mode``, absent in older models: classic, and must match the
    network's observation size, ``CONTRACT_MODE_OBS_SIZE``).

    Returns:
        ``(net, meta)``: the network in eval mode and the metadata dict.
    The network described in ``meta.json`` is checked against the tensor shapes the
    weights file's header declares, and against ``MAX_PARAMETERS``, before any weight is
    allocated or read, so an edited ``meta.json`` cannot make the loader allocate more
    than the file holds.

    Raises:
        CheckpointError: a path that does not exist, missing files, unreadable or corrupt files, a ``format_version``
            other than ``FORMAT_VERSION`` or an unknown ``kind`` (``check_meta_format``),
            an action-table or observation-encoder version other than this package's, a
            network over the bounds, tensors that do not match the declared network shape,
            NaN or infinite weights, or a ``meta.json`` over ``MAX_META_BYTES``.
    """
    from safetensors.torch import load_file

    if not Path(folder).exists():
        raise CheckpointError(f"{folder}: no such file or folder (a model folder, or its model.safetensors or "
                              "meta.json, is expected)")
    folder = _model_folder(folder)
    weights, meta_path = folder / "model.safetensors", folder / "meta.json"
    for p in (weights, meta_path):
        if not p.is_file():
            raise CheckpointError(f"{folder}: not a model folder, {p.name} is missing"
                                  + (" (a folder of value networks only: load it with NetworkPolicy.from_path or "
                                     "make_policy)" if p is weights and _is_value_policy(folder) else ""))
    try:
        meta = read_json(meta_path, MAX_META_BYTES)
    except DataFileError as e:
        raise CheckpointError(f"{meta_path}: corrupt metadata, {str(e).removeprefix(f'{meta_path}: ')}") from None
    if isinstance(meta, dict):
        check_meta_format(meta, meta_path)
    if not isinstance(meta, dict) or not isinstance(meta.get("net"), dict):
        raise CheckpointError(f"{meta_path}: metadata lacks the 'net' section")
    for key, want in (("action_table_version", ACTION_TABLE_VERSION), ("obs_encoder_version", OBS_ENCODER_VERSION)):
        if meta.get(key) != want:
            raise CheckpointError(
                f"{folder}: made for {key} {meta.get(key)!r}, this package uses {want}; "
                "re-export the model with a matching belote-rl version")
    try:
        want = expected_shapes(meta["net"])
    except (TypeError, ValueError) as e:
        raise CheckpointError(f"{meta_path}: bad network description {meta['net']!r} ({e})") from None
    obs_size, n_actions = meta["net"].get("obs_size", OBS_SIZE), meta["net"].get("n_actions", NUM_ACTIONS)
    by_size = contract_mode_of_size(obs_size)
    if by_size is None or n_actions != MODE_N_ACTIONS[by_size]:
        sizes = ", ".join(f"{CONTRACT_MODE_OBS_SIZE[m]} / {MODE_N_ACTIONS[m]} ({m})" for m in CONTRACT_MODE_OBS_SIZE)
        raise CheckpointError(f"{folder}: network expects obs {obs_size!r} / actions {n_actions!r}, the env has "
                              f"{sizes}")
    mode = _meta_mode(meta, obs_size, folder)
    if contract_mode is not None and mode != contract_mode:
        raise RulesMismatchError(f"{folder}: a {game_words(mode)} model (observation of {obs_size} floats), asked "
                                 f"for {game_words(contract_mode)} rules (observation of "
                                 f"{CONTRACT_MODE_OBS_SIZE[contract_mode]})")
    _check_weights_header(weights, want)
    net = BeloteNet(**meta["net"])
    try:
        tensors = load_file(str(weights))
    except Exception as e:  # safetensors raises its own error types on corrupt files
        raise CheckpointError(f"{weights}: corrupt weights file ({e})") from None
    check_finite(tensors, weights)
    try:
        net.load_state_dict(tensors, strict=True)
    except RuntimeError as e:
        raise CheckpointError(f"{weights}: weights do not match the network in meta.json ({e})") from None
    net.eval()
    return net, meta


#: Sub-folder of a model folder holding an optional card-value network (``training.oracle``).
CARDS_SUBDIR = "cards"
#: ``meta.json`` key ``kind`` of a card-value network (it is not a policy on its own).
CARD_VALUES_KIND = "card_values"
#: Temperature (points) of the card probabilities a card-value network implies.
CARD_TEMPERATURE = 10.0
#: Sub-folder of a model folder holding an optional bid-value network (``training.oracle``).
BIDS_SUBDIR = "bids"
#: ``meta.json`` key ``kind`` of a bid-value network.
BID_VALUES_KIND = "bid_values"
#: The action ids a bid-value network values: the classic auction's bids, pass, take, name
#: a contract (``actions.CLASSIC_BIDS``, 32..39; output ``a`` of the network is action ``a``).
BID_ACTIONS = CLASSIC_BIDS
#: the first of them: a bid-value network's output ``j`` values bid ``_FIRST_BID + j``
_FIRST_BID = BID_ACTIONS[0]
#: Temperature (points) of the bid probabilities a bid-value network implies.
BID_TEMPERATURE = 10.0
_VALUE_NET_NAMES = {CARD_VALUES_KIND: "card-value", BID_VALUES_KIND: "bid-value"}
#: The sub-folders a model folder may hold (a value network each); its ``meta.json`` key
#: ``parts`` lists those it has, and a loader refuses the folder when one is missing.
MODEL_PARTS = {CARDS_SUBDIR: "card-value", BIDS_SUBDIR: "bid-value"}
#: The ``meta.json`` ``kind`` values a loader reads (``check_meta_format``): a folder of
#: value networks only, a card-value and a bid-value network; a policy network has none.
MODEL_KINDS = (VALUE_POLICY_KIND, CARD_VALUES_KIND, BID_VALUES_KIND)


#: The action ids a coinche bid-value network values (``contract_mode="coinche"``): pass
#: (32), the coinche bids 40..99 (``COINCHE_BID + level_index * 6 + denomination``), coinche
#: (100) and surcoinche (101); its data have one column per id of 32..101 (ids 33..39, the
#: classic take / name a contract, are never legal there).
COINCHE_BID_ACTIONS = range(PASS, SURCOINCHE + 1)

#: The action ids a two- or three-seat bid-value network values (TWO_THREE.md §2.3): pass
#: (32), accept the turned suit (``TAKE``, 33) and name suit ``s`` (``NAME_CONTRACT + s``,
#: 34..37); its data have one column per id of 32..37. Proposing a redeal (106) and the
#: answers to a proposal are never valued (the policy network makes the answers; where the
#: bid-value network decides, the seat never proposes).
PROPOSAL_BID_ACTIONS = PROPOSAL_BIDS

#: The contract modes of the games without teams (TWO_THREE.md; ``games.Game.variant``).
CUTTHROAT_MODES = tuple(mode for mode in VARIANT_OPTIONS if not variant_game(mode).has_partners)
#: The bid ids a bid-value network values, by its game's auction (``Game.auction_kind``).
AUCTION_BID_ACTIONS = {"classic": BID_ACTIONS, "coinche": COINCHE_BID_ACTIONS, "proposal": PROPOSAL_BID_ACTIONS}


def bid_actions_of(mode: str):
    """The bid ids a bid-value network of contract mode ``mode`` may value
    (``AUCTION_BID_ACTIONS`` of its game's auction)."""
    return AUCTION_BID_ACTIONS[variant_game(mode).auction_kind]


def declared_parts(meta: dict, where: str | os.PathLike = "meta.json") -> tuple[str, ...]:
    """The sub-folders a model's ``meta.json`` declares (key ``parts``: a list of
    ``MODEL_PARTS`` names, each once); ``()`` when the key is absent (folders written
    before it was declared). Raises ``CheckpointError`` (naming ``where``) for a bad value."""
    v = meta.get("parts", [])
    if not isinstance(v, list) or not all(isinstance(p, str) and p in MODEL_PARTS for p in v) or len(set(v)) != len(v):
        raise CheckpointError(f"{where}: parts must be a list of distinct sub-folder names among "
                              f"{sorted(MODEL_PARTS)}, got {v!r:.80}")
    return tuple(v)


def declare_parts(folder: str | os.PathLike) -> list[str]:
    """Rewrite ``folder/meta.json``'s ``parts`` (atomically) as the ``MODEL_PARTS``
    sub-folders the folder holds; returns them. Every writer of a model folder calls it
    once the folder is complete."""
    folder = Path(folder)
    meta = read_json(folder / "meta.json", MAX_META_BYTES)
    meta["parts"] = sorted(p for p in MODEL_PARTS if (folder / p / "meta.json").is_file())
    atomic_write_bytes(folder / "meta.json", json.dumps(meta, indent=2, sort_keys=True).encode())
    return meta["parts"]


def value_net_kwargs(folder: str | os.PathLike, meta: dict | None = None,
                     contract_mode: str | None = None) -> dict[str, Any]:
    """The ``NetworkPolicy`` arguments a model folder asks for: ``policy_suit_average`` from
    its ``meta.json`` (``meta``: that file's contents when already read, else it is read
    when it exists; ``policy_suit_average_of``), ``card_net`` / ``suit_average`` /
    ``card_unit`` from its ``cards/`` and ``bid_net`` / ``bid_suit_average`` /
    ``bid_actions`` / ``bid_unit`` from its ``bids/``, for those it has (see
    ``load_card_net``, ``load_bid_net``; raises ``CheckpointError`` as they do, for a
    bad ``policy_suit_average`` or an unreadable ``meta.json``, and for a sub-folder its
    ``meta.json`` declares in ``parts`` that is missing, ``declared_parts``). ``contract_mode``: the
    mode the value networks must be of (``RulesMismatchError`` otherwise; ``None``: any)."""
    kw: dict[str, Any] = {}
    meta_path = _model_folder(folder) / "meta.json"
    if meta is None and meta_path.is_file():
        try:
            meta = read_json(meta_path, MAX_META_BYTES)
        except DataFileError as e:
            raise CheckpointError(f"{meta_path}: corrupt metadata, {str(e).removeprefix(f'{meta_path}: ')}") from None
    parts: tuple[str, ...] = ()
    if isinstance(meta, dict):
        check_meta_format(meta, meta_path)
        kw["policy_suit_average"] = policy_suit_average_of(meta, meta_path)
        parts = declared_parts(meta, meta_path)
    folder_path = _model_folder(folder)
    for part in parts:  # a declared part that is gone: the model would play without it
        if not (folder_path / part).exists() and not (folder_path / part).is_symlink():
            raise CheckpointError(f"{folder_path}: its meta.json declares a {MODEL_PARTS[part]} network in {part}/, "
                                  f"which is missing (parts: {list(parts)}); restore the folder or reinstall the model")
    card = _load_value_net(folder, CARDS_SUBDIR, CARD_VALUES_KIND, contract_mode)
    if card is not None:
        kw.update(card_net=card[0], suit_average=card[1], card_unit=_value_unit_of(card[2], folder, CARDS_SUBDIR))
    bid = load_bid_net(folder, contract_mode)
    if bid is not None:
        kw.update(bid_net=bid[0], bid_suit_average=bid[1], bid_actions=bid[2],
                  bid_unit=_value_unit_of(_bid_meta(folder), folder, BIDS_SUBDIR))
    return kw


def _bid_meta(folder) -> dict:
    return read_json(_model_folder(folder) / BIDS_SUBDIR / "meta.json", MAX_META_BYTES)


def _value_unit_of(meta: dict, folder, sub: str) -> float:
    """A value network's ``value_unit`` (``meta.json``; absent in classic networks saved
    before coinche: 162), a number > 0 (``CheckpointError`` otherwise)."""
    v = meta.get("value_unit", 162.0)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0:
        raise CheckpointError(f"{_model_folder(folder) / sub / 'meta.json'}: value_unit must be a number > 0, got {v!r}")
    return float(v)


def policy_suit_average_of(meta: dict, where: str | os.PathLike = "meta.json") -> bool:
    """A model's ``meta.json`` key ``policy_suit_average`` (``NetworkPolicy``'s argument:
    play the policy network averaged over the 24 suit renamings): False when absent;
    raises ``CheckpointError`` (naming ``where``) for a value that is not a bool."""
    v = meta.get("policy_suit_average", False)
    if type(v) is not bool:
        raise CheckpointError(f"{where}: policy_suit_average must be true or false, got {v!r}")
    return v


def load_card_net(folder: str | os.PathLike, contract_mode: str | None = None) -> tuple[BeloteNet, bool] | None:
    """The card-value network in ``folder/cards/`` and whether it is averaged over suit
    renamings (its ``meta.json`` keys: ``kind`` = ``"card_values"``, ``suit_average`` a
    bool); ``None`` when nothing named ``cards`` exists there. Raises ``CheckpointError``
    like ``load_model`` (``contract_mode`` as there), for a ``cards`` that is not a folder
    (a file, a dangling link), and for a missing or wrong ``kind`` or ``suit_average``."""
    found = _load_value_net(folder, CARDS_SUBDIR, CARD_VALUES_KIND, contract_mode)
    return None if found is None else found[:2]


def load_bid_net(folder: str | os.PathLike,
                 contract_mode: str | None = None) -> tuple[BeloteNet, bool, tuple[int, ...]] | None:
    """The bid-value network in ``folder/bids/`` (``kind`` = ``"bid_values"``), whether it
    is averaged over suit renamings, and the bid ids it was trained on (``meta.json`` key
    ``bid_actions``: ids in 32..39 for a classic network, in 32..101 for a coinche one,
    in 32..37 for a two- or three-seat one, ``PROPOSAL_BID_ACTIONS``);
    ``None`` when nothing named ``bids`` exists there. Raises ``CheckpointError`` as
    ``load_card_net`` does, and for missing or bad ``bid_actions``."""
    found = _load_value_net(folder, BIDS_SUBDIR, BID_VALUES_KIND, contract_mode)
    if found is None:
        return None
    net, avg, meta = found
    mode = contract_mode_of_size(net.obs_size)
    allowed = bid_actions_of(mode)
    try:
        actions = _check_bid_actions(meta.get("bid_actions"), allowed)
    except ValueError as e:
        raise CheckpointError(f"{_model_folder(folder) / BIDS_SUBDIR / 'meta.json'}: {e}") from None
    return net, avg, actions


def _check_bid_actions(actions, allowed=BID_ACTIONS) -> tuple[int, ...]:
    if (isinstance(actions, (str, bytes)) or not hasattr(actions, "__iter__")
            or not all(type(a) is int and a in allowed for a in actions) or not list(actions)):
        raise ValueError(f"bid_actions must be a non-empty list of bid ids in {allowed[0]}..{allowed[-1]}, "
                         f"got {actions!r}")
    return tuple(sorted(set(actions)))


def _load_value_net(folder: str | os.PathLike, subdir: str, kind: str,
                    contract_mode: str | None = None) -> tuple[BeloteNet, bool, dict] | None:
    folder = _model_folder(folder)
    sub = folder / subdir
    if not sub.exists() and not sub.is_symlink():
        return None
    if not sub.is_dir():
        raise CheckpointError(f"{sub}: expected a folder holding a {_VALUE_NET_NAMES[kind]} network")
    net, meta = load_model(sub, contract_mode)
    if meta.get("kind") != kind:
        raise CheckpointError(f"{sub / 'meta.json'}: kind must be {kind!r}, got {meta.get('kind')!r}")
    avg = meta.get("suit_average")
    if type(avg) is not bool:
        raise CheckpointError(f"{sub / 'meta.json'}: suit_average must be true or false, got {avg!r}")
    if avg and not variant_game(contract_mode_of_size(net.obs_size)).has_partners:
        raise CheckpointError(f"{sub / 'meta.json'}: suit_average true, but suit renaming is for four-seat networks "
                              f"(this one reads the {contract_mode_of_size(net.obs_size)}-player observation)")
    return net, avg, meta


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "SMALL_BID_ACTIONS": "PROPOSAL_BID_ACTIONS",
    "SMALL_MODES": "CUTTHROAT_MODES",
})
