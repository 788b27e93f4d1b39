"""Blend two value networks into one: the weighted mean of their values.

``belote blend --cards RUN/checkpoints/iter_00016 --bids START RUN/checkpoints/iter_00016
--weight 0.6 --out FOLDER``: a model folder with the card-value network of ``--cards`` and a
bid-value network whose every output is ``weight * A + (1 - weight) * B`` of the two
``--bids`` folders' networks. The blend is one ReLU network (``policies.network.BeloteNet``,
hidden layers the two side by side: the first layer's rows stacked, the later layers block
diagonal, the output layer the two weighted), so it loads, saves and runs (the compiled
batched kernel included) as any other; its hidden layers are as wide as the two together.

Why: the coinche bids that policy iteration learns in self-play beat the starting networks
head to head but partner ``normal`` worse; the mean of the start's values and the iterated
ones keeps most of the first and loses little of the second (docs/models/hard_coinche.md).
A past copy of the network is what the blend adds, no other tier.

``belote distil --model FOLDER --out FOLDER``: the same bids from a narrower network
(``distil_bid_model``). A blend costs the sum of its members' widths at every auction
decision; the distilled network, fitted to the blend's suit-averaged values on the
model's own self-play auctions, plays its bids at one member's cost.
"""

from __future__ import annotations

import json
import numbers
import os
import shutil
from pathlib import Path

import torch

__all__ = ["blend_nets", "blend_bid_model", "average_models", "grow_net", "distil_bid_model"]


def blend_nets(a, b, weight: float):
    """A ``BeloteNet`` whose policy-head outputs are ``weight * a + (1 - weight) * b``'s
    (float32, exact up to rounding) for every observation.

    Raises ``ValueError`` for ``weight`` outside [0, 1], networks of other observation
    sizes, action counts or depths, or hidden layers that are not ReLU."""
    from policies.network import BeloteNet

    if isinstance(weight, bool) or not isinstance(weight, numbers.Real) or not 0.0 <= weight <= 1.0:
        raise ValueError(f"weight must be a number in [0, 1], got {weight!r}")
    ca, cb = a.config, b.config
    for key in ("obs_size", "n_actions", "activation", "critic_extra"):
        if ca.get(key) != cb.get(key):
            raise ValueError(f"the networks differ in {key}: {ca.get(key)!r} and {cb.get(key)!r}")
    if ca.get("activation") != "relu" or len(ca["pi"]) != len(cb["pi"]) or not ca["pi"]:
        raise ValueError(f"blending needs ReLU networks of the same depth (at least one hidden layer), got "
                         f"{ca.get('activation')} hidden layers {ca['pi']} and {cb['pi']}")
    net = BeloteNet(**{**ca, "pi": [x + y for x, y in zip(ca["pi"], cb["pi"])]}).eval()
    sa, sb, sd = a.state_dict(), b.state_dict(), net.state_dict()
    weights = [k for k in sa if k.startswith("mlp_extractor.policy_net.") and k.endswith(".weight")]
    with torch.no_grad():
        for i, k in enumerate(weights):
            wa, wb = sa[k], sb[k]
            w = torch.zeros_like(sd[k])
            if i == 0:  # the same input: stack the rows
                w[:wa.shape[0]], w[wa.shape[0]:] = wa, wb
            else:  # each half reads its own half
                w[:wa.shape[0], :wa.shape[1]], w[wa.shape[0]:, wa.shape[1]:] = wa, wb
            bias = k[:-len("weight")] + "bias"
            sd[k], sd[bias] = w, torch.cat([sa[bias], sb[bias]])
        sd["action_net.weight"] = torch.cat([weight * sa["action_net.weight"], (1 - weight) * sb["action_net.weight"]], 1)
        sd["action_net.bias"] = weight * sa["action_net.bias"] + (1 - weight) * sb["action_net.bias"]
        for k in sd:  # the critic (unused by value networks): a's
            if not k.startswith(("mlp_extractor.policy_net.", "action_net.")):
                sd[k] = sa[k]
    net.load_state_dict(sd)
    return net


def blend_bid_model(cards: str | os.PathLike, bids_a: str | os.PathLike, bids_b: str | os.PathLike,
                    weight: float, out: str | os.PathLike) -> Path:
    """Write the model folder ``out``: ``cards``'s top-level files and ``cards/``, and as
    ``bids/`` the blend (``blend_nets``) of ``bids_a``'s and ``bids_b``'s bid-value networks,
    ``weight`` on ``bids_a`` (its ``meta.json`` kept but for how it was made, ``oracle`` /
    ``iterate``, with ``"blend": {"a", "b", "weight"}`` instead).

    Raises ``ValueError`` as ``blend_nets``, for networks of another contract mode or
    other ``bid_actions`` or suit averaging, and ``FileExistsError`` when ``out`` exists;
    ``policies.network.CheckpointError`` for a folder that does not load."""
    from belote_env.jsonfile import read_json
    from policies.network import contract_mode_of_size, load_bid_net, load_card_net

    cards, bids_a, bids_b, out = Path(cards), Path(bids_a), Path(bids_b), Path(out)
    if out.exists():
        raise FileExistsError(f"{out} exists: give a new folder")
    for f in (cards, bids_a, bids_b):
        if not f.is_dir():
            raise ValueError(f"no model folder {f}")
    if load_card_net(cards) is None:
        raise ValueError(f"{cards} has no card-value network (cards/)")
    found = [load_bid_net(f) for f in (bids_a, bids_b)]
    for f, got in zip((bids_a, bids_b), found):
        if got is None:
            raise ValueError(f"{f} has no bid-value network (bids/)")
    (na, avg_a, acts_a), (nb, avg_b, acts_b) = found
    modes = [contract_mode_of_size(n.obs_size) for n in (na, nb, load_card_net(cards)[0])]
    if len(set(modes)) > 1:
        raise ValueError(f"the folders' networks are of different games: cards {modes[2]}, bids {modes[0]} and "
                         f"{modes[1]}: give three folders of one contract mode")
    units = [read_json(f / "bids" / "meta.json", 1 << 20).get("value_unit") for f in (bids_a, bids_b)]
    if units[0] != units[1]:
        raise ValueError(f"the bid networks value in different units: {units[0]!r} and {units[1]!r} points "
                         f"(meta.json value_unit): blend networks of one unit")
    if (avg_a, acts_a) != (avg_b, acts_b):
        raise ValueError(f"the bid networks differ in suit averaging or bid_actions: {avg_a}, {acts_a} and {avg_b}, "
                         f"{acts_b}")
    net = blend_nets(na, nb, weight)
    meta = read_json(bids_a / "bids" / "meta.json", 1 << 20)
    keep = {k: v for k, v in meta.items() if k not in ("net", "format_version", "action_table_version",
                                                        "obs_encoder_version", "oracle", "iterate", "blend")}
    keep["blend"] = {"a": str(bids_a), "b": str(bids_b), "weight": weight}

    return _write_with_bids(cards, out, net, keep, f"cards/ of {cards}; bids/: {weight:g} x {bids_a}'s bid values + "
                                                   f"{1 - weight:g} x {bids_b}'s (belote blend)")


def _write_with_bids(cards: Path, out: Path, net, keep: dict, note: str) -> Path:
    """Write the model folder ``out`` atomically: ``cards``'s top-level files (its
    ``meta.json`` with ``note``) and ``cards/``, and ``net`` as ``bids/`` with the
    metadata ``keep``."""
    from belote_env.jsonfile import read_json
    from policies.network import save_model

    from .train import _atomic_folder

    def write(tmp: Path) -> None:
        for f in cards.iterdir():
            if f.is_file():
                shutil.copy2(f, tmp / f.name)
        if (tmp / "meta.json").is_file():  # say what the folder is now
            top = read_json(tmp / "meta.json", 1 << 20)
            top["note"] = note
            (tmp / "meta.json").write_text(json.dumps(top, indent=2, sort_keys=True) + "\n")
        shutil.copytree(cards / "cards", tmp / "cards")
        save_model(tmp / "bids", net.state_dict(), net.config, keep)

    out.parent.mkdir(parents=True, exist_ok=True)
    return _atomic_folder(out, write)


def average_models(folders: list[str | os.PathLike], out: str | os.PathLike) -> Path:
    """Write the model folder ``out`` whose value networks (``cards/`` and ``bids/``) are the
    element-wise mean of the weights of ``folders``' (a "model soup": checkpoints of one
    run, fine-tuned from one start, averaged; every other file is the first folder's, its
    ``meta.json`` noting the average).

    Raises ``ValueError`` for fewer than two folders, a folder without ``cards/``, or
    networks of different shapes (naming the tensor); ``FileExistsError`` when ``out``
    exists."""
    from safetensors.torch import load_file, save_file

    from .train import _atomic_folder

    folders, out = [Path(f) for f in folders], Path(out)
    if len(folders) < 2:
        raise ValueError(f"give at least two model folders to average, got {len(folders)}")
    if out.exists():
        raise FileExistsError(f"{out} exists: give a new folder")
    parts = [p for p in ("cards", "bids") if (folders[0] / p / "model.safetensors").is_file()]
    if "cards" not in parts:
        raise ValueError(f"{folders[0]} has no card-value network (cards/)")
    means = {}
    for part in parts:
        tensors = []
        for f in folders:
            path = f / part / "model.safetensors"
            if not path.is_file():
                raise ValueError(f"{f} has no {part}/ network")
            tensors.append(load_file(str(path)))
        keys = tensors[0].keys()
        mean = {}
        for k in keys:
            shapes = {tuple(t[k].shape) if k in t else None for t in tensors}
            if len(shapes) != 1:
                raise ValueError(f"{part}/ tensor {k!r} differs in shape between the folders: {sorted(map(str, shapes))}")
            mean[k] = torch.stack([t[k].float() for t in tensors]).mean(0).to(tensors[0][k].dtype).contiguous()
        means[part] = mean

    def write(tmp: Path) -> None:
        first = folders[0]
        for f in first.iterdir():
            if f.is_file():
                shutil.copy2(f, tmp / f.name)
        for part, mean in means.items():
            shutil.copytree(first / part, tmp / part)
            save_file(mean, str(tmp / part / "model.safetensors"))
        if (tmp / "meta.json").is_file():
            from belote_env.jsonfile import read_json

            top = read_json(tmp / "meta.json", 1 << 20)
            top["note"] = f"cards/ and bids/: the mean of the weights of {[str(f) for f in folders]} (belote average)"
            (tmp / "meta.json").write_text(json.dumps(top, indent=2, sort_keys=True) + "\n")

    out.parent.mkdir(parents=True, exist_ok=True)
    _atomic_folder(out, write)
    return out


def grow_net(net, pi: list[int], seed: int = 0, scale: float = 0.01):
    """A wider and/or deeper ``BeloteNet`` with the same outputs as ``net`` (up to float32
    rounding), for a warm start with more capacity (Net2Net's function-preserving growth).

    ``pi``: the new policy hidden sizes, at least as many layers as ``net``'s and each of
    ``net``'s layers at least as wide. A widened layer's new units read the layer's input
    through small random weights (``scale`` times a unit normal, seeded by ``seed``) and
    feed the next layer through zero weights; an added layer (after the last one) is the
    identity on its first units (exact after a ReLU, whose outputs are >= 0), its other
    units new ones as above. The critic is kept as it is.

    Raises ``ValueError`` for a ``pi`` that shrinks the network (fewer layers or a
    narrower one), for a network without hidden layers or whose activation is not ReLU,
    for a ``scale`` outside [0, 1] or a ``seed`` outside 0..2**63-1, and as ``BeloteNet``
    for sizes out of bounds."""
    from policies.network import BeloteNet

    if isinstance(scale, bool) or not isinstance(scale, numbers.Real) or not 0.0 <= scale <= 1.0:
        raise ValueError(f"scale must be a number in [0, 1] (the new units' weights, times a unit normal), got {scale!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise ValueError(f"seed must be an int in 0..2**63-1, got {seed!r}")
    old = list(net.config["pi"])
    if net.config.get("activation") != "relu" or not old:
        raise ValueError(f"growing needs a ReLU network with hidden layers, got {net.config.get('activation')} "
                         f"hidden layers {old}")
    if not isinstance(pi, (list, tuple)) or len(pi) < len(old) or any(
            type(b) is not int or b < a for a, b in zip(old, pi)):
        raise ValueError(f"pi must keep every hidden layer of {old} at least as wide and add layers only after "
                         f"them, got {pi!r}")
    pi = list(pi)
    if any(type(b) is not int or b < pi[len(old) - 1] for b in pi[len(old):]):
        raise ValueError(f"an added layer must be at least as wide as the last one ({pi[len(old) - 1]}), got {pi!r}")
    grown = BeloteNet(**{**net.config, "pi": pi}).eval()
    src, dst = net.state_dict(), grown.state_dict()
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for k in dst:
            if not k.startswith(("mlp_extractor.policy_net.", "action_net.")):
                dst[k] = src[k].clone()
        sizes = [net.config["obs_size"]] + pi
        for i in range(len(pi)):
            w, b = f"mlp_extractor.policy_net.{2 * i}.weight", f"mlp_extractor.policy_net.{2 * i}.bias"
            weight = torch.zeros(pi[i], sizes[i])
            bias = torch.zeros(pi[i])
            if i < len(old):
                rows, cols = src[w].shape
                weight[rows:] = scale * torch.randn(pi[i] - rows, sizes[i], generator=gen)
                weight[:rows, :cols] = src[w]
                bias[:rows] = src[b]
            else:  # the identity on the previous layer's units
                n = pi[len(old) - 1]
                weight[:n, :n] = torch.eye(n)
                weight[n:] = scale * torch.randn(pi[i] - n, sizes[i], generator=gen)
            dst[w], dst[b] = weight, bias
        head = torch.zeros(net.config["n_actions"], pi[-1])
        head[:, :old[-1]] = src["action_net.weight"]
        dst["action_net.weight"], dst["action_net.bias"] = head, src["action_net.bias"].clone()
    grown.load_state_dict(dst)
    return grown


def distil_bid_model(model: str | os.PathLike, out: str | os.PathLike, width: int = 256,
                     init: str | os.PathLike | None = None, tables: int = 1024, steps: int = 1000,
                     epsilon: float = 0.1, epochs: int = 6, lr: float = 3e-4, seed: int = 11,
                     progress: bool = False) -> Path:
    """Write the model folder ``out``: ``model``'s top-level files and ``cards/``, and as
    ``bids/`` a coinche bid-value network of two hidden layers of ``width`` fitted to
    ``model``'s bid values (a teacher-student distillation; the shipped coinche hard's
    bids are a blend of two 256-wide networks, ``blend_bid_model``, and cost twice a
    member at every auction decision).

    Data: ``steps`` steps of ``tables`` tables of ``BatchedGame`` self-play by ``model``
    under the rules its ``bids/meta.json`` records (the coinche preset when it records
    none; every seat on its own observation, COINCHE.md), a bid chosen uniformly among the
    legal actions at an ``epsilon`` share of its auction decisions (seeded by ``seed``,
    so the positions leave the model's own line); every auction decision the bid network
    values (``NetworkPolicy``'s batched rule: no contract, every legal action a coinche
    bid, a valued one among them) is kept with the teacher's values averaged over the 24
    suit renamings (float32 ``(N, 70)``, units of ``value_unit`` points). Fit:
    ``training.oracle.fit_bid_values`` (centred squared error over the legal valued bids,
    suits renamed at random, ``epochs`` epochs, Adam at ``lr`` falling by a cosine, 5% of
    the decisions held out), from ``init``'s bid network when given (it must have the
    ``width``) or a fresh one (``torch.manual_seed(seed)``). ``bids/meta.json`` keeps the
    teacher's and says how it was made (``"distilled"``: teacher, decisions, epochs, the
    fit's figures).

    Raises ``ValueError`` for a folder without a coinche bid-value network (a classic or
    two- / three-seat model: not supported) or without ``cards/``, an ``init`` of another
    width, arguments out of range (``lr`` finite and > 0, ``seed`` in 0..2**63-1), an
    ``out`` whose nearest existing parent is not a writable folder (all before the
    self-play); ``FileExistsError`` when ``out`` exists; ``belote_env.RuleOptionError``
    for recorded rules the batched engine does not play; ``policies.network.CheckpointError``
    for a folder that does not load."""
    import numpy as np

    from belote_env import Rules, load_rules
    from belote_env.jsonfile import read_json
    from belote_env.vector import BatchedGame, SeatBatch
    from policies.batch import CompiledNet
    from policies.network import (
        COINCHE_BID_ACTIONS, BeloteNet, coinche_bid_rows, contract_mode_of_size, load_bid_net, load_card_net,
    )
    from policies.registry import make_policy
    from policies.symmetry import coinche_bid_permutation_table

    from .oracle import fit_bid_values

    model, out = Path(model), Path(out)
    for name, v, lo in (("width", width, 1), ("tables", tables, 1), ("steps", steps, 1), ("epochs", epochs, 1)):
        if type(v) is not int or v < lo:
            raise ValueError(f"{name} must be an int >= {lo}, got {v!r}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real) or not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be a number in [0, 1] (the share of random bids), got {epsilon!r}")
    if isinstance(lr, bool) or not isinstance(lr, numbers.Real) or not 0.0 < lr < float("inf"):
        raise ValueError(f"lr must be a finite number > 0 (Adam's learning rate), got {lr!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise ValueError(f"seed must be an int in 0..2**63-1, got {seed!r}")
    if out.exists():
        raise FileExistsError(f"{out} exists: give a new folder")
    above = out.parent
    while not above.exists():
        above = above.parent
    if not above.is_dir() or not os.access(above, os.W_OK):
        raise ValueError(f"{out} cannot be created: {above} is {'not a folder' if not above.is_dir() else 'not writable'}")
    if not model.is_dir():
        raise ValueError(f"no model folder {model}")
    found = load_bid_net(model)
    if found is None or contract_mode_of_size(found[0].obs_size) != "coinche":
        raise ValueError(f"{model} has no coinche bid-value network (bids/): distil supports coinche models")
    if load_card_net(model) is None:
        raise ValueError(f"{model} has no card-value network (cards/): distil keeps the teacher's cards")
    teacher, suit_average, bid_actions = found
    if not suit_average:
        raise ValueError(f"{model}'s bid network is not averaged over suit renamings: distil fits the averaged values")
    if init is not None:
        got = load_bid_net(init)
        if got is None or contract_mode_of_size(got[0].obs_size) != "coinche":
            raise ValueError(f"{init} has no coinche bid-value network (bids/) to start from")
        if list(got[0].config["pi"]) != [width, width]:
            raise ValueError(f"{init}'s bid network has hidden layers {got[0].config['pi']}, not [{width}, {width}]")
        student = got[0]
    else:
        torch.manual_seed(seed)
        student = BeloteNet(**{**teacher.config, "pi": [width, width]})
    meta = read_json(model / "bids" / "meta.json", 1 << 20)
    rules = Rules.from_dict(meta["rules"]) if "rules" in meta else load_rules("coinche")  # the teacher's game
    if rules.contract_mode != "coinche":
        raise ValueError(f"{model}'s bids/meta.json records {rules.contract_mode} rules: distil plays coinche")
    policy = make_policy(str(model), seed=seed, rules=rules)
    game = BatchedGame(tables, rules, seed=seed)
    rng = np.random.default_rng(seed)
    first, n_bids = COINCHE_BID_ACTIONS[0], len(COINCHE_BID_ACTIONS)
    obs_rows, mask_rows = [], []
    for _ in range(steps):
        batch = SeatBatch(game, np.arange(game.n))
        obs, mask = np.asarray(batch.obs), batch.mask.astype(bool)
        rows, valued = coinche_bid_rows(obs, mask, bid_actions)
        bid = rows & (mask.sum(1) > 1)
        obs_rows.append(obs[bid].copy())
        mask_rows.append((mask & valued)[bid][:, first:first + n_bids])
        actions = policy.act_batch(batch)
        noisy = bid & (rng.random(game.n) < epsilon)
        actions[noisy] = game.random_actions()[noisy]
        game.step(actions)
    data = {"obs": np.concatenate(obs_rows).astype(np.float32), "mask": np.concatenate(mask_rows)}
    if len(data["obs"]) < 2:
        raise ValueError(f"{steps} steps of {tables} tables gave {len(data['obs'])} auction decisions: give more")
    data["q"] = CompiledNet(teacher, first, n_bids, coinche_bid_permutation_table())(data["obs"]).astype(np.float32)
    fit = fit_bid_values(student, data, epochs=epochs, lr=lr, batch=512, seed=seed, progress=progress, augment=True)
    student.eval()
    keep = {k: v for k, v in meta.items() if k not in ("net", "format_version", "action_table_version",
                                                        "obs_encoder_version", "oracle", "iterate", "blend",
                                                        "distilled")}
    keep["distilled"] = {"teacher": str(model), "teacher_net": teacher.config["pi"], "decisions": len(data["q"]),
                         "tables": tables, "steps": steps, "epsilon": epsilon, "epochs": epochs, "lr": lr,
                         "seed": seed, "init": None if init is None else str(init), "fit": fit["history"][-1]}
    for k in ("blend", "distilled"):  # how the teacher was made
        if k in meta:
            keep["distilled"][f"teacher_{k}"] = meta[k]

    return _write_with_bids(model, out, student, keep, f"cards/ of {model}; bids/: a [{width}, {width}] network "
                                                       f"fitted to {model}'s bid values (belote distil)")

