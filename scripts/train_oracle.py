"""Train a value network from oracle labels (``training.oracle``) and write a model folder
that plays with it: the networks of ``--bidder`` (default: the shipped hard model) plus the
fitted network, in ``cards/`` (``--target cards``, the default: double-dummy card values)
or in ``bids/`` (``--target bids``: rollout values of the classic bids).

    python scripts/train_oracle.py --deals 42000 --workers 2 --out runs/oracle
    python scripts/train_oracle.py --target bids --deals 80000 --workers 2 --out runs/bids
    belote eval runs/oracle normal --games 200 --seed 7

Data are generated in ``--chunks`` chunks (default: one per worker; chunk ``j`` plays
``deals / chunks`` deals seeded ``seed + j``) by ``--workers`` processes, each chunk saved
as ``data-<seed + j>.npz`` (bids: ``bid-data-<seed + j>.npz``) in ``--out`` (reused by a
later run with ``--reuse-data``); the
files of ``--data`` (earlier chunks, from any run, of the same ``--target``) are added;
then the network is fitted and saved (safetensors + JSON, each file written atomically).
The other value network of ``--bidder`` (its ``bids/`` when fitting cards, its ``cards/``
when fitting bids), if it has one, is copied as is; an ``--out`` that already holds
another one is refused (it would be replaced). Prints the data size, the fit's
figures per epoch and the wall times.

**Coinche** (``--rules coinche``, or any coinche preset / YAML): the data deals are played
under those rules (default ``--behaviour normal``), the observations are the coinche ones
(``COINCHE_OBS_SIZE``), the values are coinche deal score differences in units of 500
points (``training.oracle.value_unit``), the bid network values ids 32..101 (pass, the
bids, coinche, surcoinche; ``training.oracle.coinche_rollout_candidates`` are played out),
and ``--bidder`` defaults to none: the folder holds the value networks only (``meta.json``
of kind ``value_policy``, no ``model.safetensors``); give a coinche model folder as
``--bidder`` to copy its other value network. ``--resume`` keeps the chunks already in
``--out`` (a killed run restarted with the same arguments labels only the missing ones).
The coinche oracle model (``policies/models/hard_oracle_coinche``, the coinche hard until
policy iteration improved it) was made so
(docs/experiments/hard_coinche.md):

    python scripts/train_oracle.py --rules coinche --deals 16000 --chunks 32 --seed 1000 --workers 2 \
        --out runs/coinche_oracle --resume
    python scripts/train_oracle.py --rules coinche --target bids --deals 12000 --chunks 24 --seed 2000 \
        --workers 2 --bidder runs/coinche_oracle --out runs/coinche_bids --resume

**Two and three players** (``--rules seed001_2p`` / ``seed001_3p``, any preset or YAML
with ``players`` 2 or 3, TWO_THREE.md), ``--target cards``: the data deals are
``GameState`` single deals (default ``--behaviour normal``; tiers that play small
tables or small-table model folders), labelled with each legal card's recorded-points
margin for the seat to play (``training.oracle.cutthroat_oracle_card_values``: the exact
two/three-seat solver with the true hands, turned into the margin by
``policies.search.deal_margin``) in units of 162; the observations are
``observation.encode_cutthroat`` (716 floats at two seats, 902 at three); the fit is
without suit renaming (``--no-augment`` implied: the small observation has no renaming
tables) and the card network has the small action table's 414 outputs (0..31 read). With
``--bidder`` (a small-table model folder of the same player count, e.g. the exported PPO
``hard_2p``) the folder holds that policy (``model.safetensors`` + ``meta.json`` copied)
plus ``cards/``; without it, a folder of value networks only whose other decisions (the
bids, the seven exchange, discards, the combinations protocol) are the ``normal`` tier's
(``NetworkPolicy.rule_action``):

    python scripts/train_oracle.py --rules seed001_2p --deals 6000 --chunks 12 --seed 7000 --workers 1 \
        --out runs/small_oracle2p --resume
    belote eval runs/small_oracle2p normal --rules seed001_2p --games 200 --workers 1 --seed 11

``--target bids`` at two and three seats (``--bidder`` required: a small-table model folder
of that player count, whose policy network is copied and makes every decision but the
contract bids): the contract decisions of the auction (pass / take / name a suit; a
redeal proposal is never labelled, and the folder's bids never propose) are labelled by
rollouts with the behaviour policies (``training.oracle.generate_bid_data``: the acting
seat's margin ``CutthroatDealScore.difference`` / 162; ``--rollouts`` plays per bid), the
network (outputs 32..37, no suit renaming) is written to ``bids/``:

    python scripts/train_oracle.py --rules seed001_2p --target bids --bidder runs/small/hard_2p_ppo \
        --behaviour runs/small/hard_2p_ppo --deals 20000 --chunks 10 --seed 9000 --workers 1 \
        --out runs/small/bids2p --resume
    belote eval runs/small/bids2p normal --rules seed001_2p --games 200 --workers 1 --seed 11

The shipped card network (``policies/models/hard/cards``) was fitted on three rounds of
data: 39,000 deals played by normal and the PPO-only hard, then 50,000 deals (``--seed 301
--chunks 10 --deals 50000 --behaviour normal <first oracle hard>``: the model folder
``policies/models/hard`` of commit a04522b) played by normal and the first oracle hard,
then 60,000 deals (``--seed 501 --chunks 20 --deals 60000 --behaviour normal hard``, hard
of commit 155ec82) played by normal and the second (DAgger: the states the learner's own
play reaches); its ``meta.json`` records the chunks.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import shutil
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np


def _generate(args) -> str:
    target, deals, seed, behaviour, epsilon, path, rules, rollouts = args
    import torch

    from belote_env.atomic import atomic_write_bytes
    from training.oracle import generate_bid_data, generate_oracle_data

    torch.set_num_threads(1)
    if target == "bids":
        data = generate_bid_data(deals, seed, rules, behaviour=behaviour, rollouts=rollouts)
    else:
        data = generate_oracle_data(deals, seed, rules, behaviour=behaviour, epsilon=epsilon)
    buf = io.BytesIO()
    np.savez(buf, **data)
    atomic_write_bytes(path, buf.getvalue())
    return path


def _load_part(path: str, target: str = "cards", coinche: bool = False, size: int | None = None
               ) -> dict[str, np.ndarray]:
    """The obs, mask and q arrays of one data file; ``ValueError`` naming the file if it
    is not such an .npz or its arrays have the wrong shapes (32 card columns, or 8 bid
    columns for ``target`` ``"bids"``; ``coinche``: coinche observations of
    ``COINCHE_OBS_SIZE`` and 70 bid columns, ids 32..101; ``size``: the observation width
    when it is another, the two- and three-seat data's 716 / 902, whose bid data have 6
    columns, ids 32..37)."""
    from belote_env.observation import COINCHE_OBS_SIZE, OBS_SIZE
    from belote_env.observation import CUTTHROAT_OBS_SIZE

    gen = "generate_bid_data" if target == "bids" else "generate_oracle_data"
    what = f"{path} is not {target} oracle data (an .npz of obs, mask, q from {gen})"
    small = size in (CUTTHROAT_OBS_SIZE[2], CUTTHROAT_OBS_SIZE[3])
    width, item = ((70 if coinche else 6 if small else 8), "bid") if target == "bids" else (32, "card")
    if size is None:
        size = COINCHE_OBS_SIZE if coinche else OBS_SIZE
    try:
        d = np.load(path)
        if not isinstance(d, np.lib.npyio.NpzFile):
            raise ValueError("not an .npz archive")
        with d:
            part = {k: d[k] for k in ("obs", "mask", "q")}
            if target != "bids" and "points" in d.files:
                part["points"] = d["points"]
    except (OSError, ValueError, KeyError, EOFError) as e:
        raise ValueError(f"{what}: {e}")
    n = len(part["q"])
    want = {"obs": (n, size), "mask": (n, width), "q": (n, width)}
    if "points" in part:
        want["points"] = (n, width)
    bad = [f"{k} {part[k].shape} (want {want[k]})" for k in want if part[k].shape != want[k]]
    if bad:
        hint = ""
        named = {OBS_SIZE: "classic", COINCHE_OBS_SIZE: "coinche", CUTTHROAT_OBS_SIZE[2]: "two-player",
                 CUTTHROAT_OBS_SIZE[3]: "three-player"}
        if part["obs"].ndim == 2 and part["obs"].shape[1] in named and part["obs"].shape[1] != size:
            theirs = named[part["obs"].shape[1]]
            hint = f" ({theirs} data: give --rules of that mode)"
        elif part["q"].ndim == 2 and part["q"].shape[1] == (32 if width != 32 else 70 if coinche else 6 if small
                                                              else 8):
            hint = f" ({'card' if width != 32 else 'bid'} data: use --target {'cards' if width != 32 else 'bids'})"
        raise ValueError(f"{path} has arrays of the wrong shape: {', '.join(bad)}{hint}")
    if part["mask"].dtype != np.bool_ or part["obs"].dtype.kind != "f" or part["q"].dtype.kind != "f":
        raise ValueError(f"{what}: dtypes obs {part['obs'].dtype}, mask {part['mask'].dtype}, q {part['q'].dtype} "
                         f"(want float, bool, float)")
    if n and not part["mask"].any(axis=1).all():
        raise ValueError(f"{path}: a decision without a legal {item} in its mask")
    if not (np.isfinite(part["obs"]).all() and np.isfinite(part["q"]).all()
            and np.isfinite(part.get("points", 0.0)).all()):
        raise ValueError(f"{path}: obs or q holds values that are not finite")
    return part


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", choices=("cards", "bids"), default="cards",
                    help="the network to fit: card values (double-dummy labels) or bid values (rollout labels)")
    ap.add_argument("--deals", type=int, default=42000,
                    help="deals of new data in all (0: fit on --data only)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0, help="seed of the first data chunk (chunk j: seed + j), >= 0")
    ap.add_argument("--chunks", type=int, default=None, help="data chunks (default: --workers)")
    ap.add_argument("--data", nargs="+", default=[],
                    help="more data files (data-*.npz or bid-data-*.npz of earlier runs) to fit on")
    ap.add_argument("--behaviour", nargs="+", default=None,
                    help="policies playing the data deals (default: normal hard; coinche: normal)")
    ap.add_argument("--rules", default=None,
                    help="rules preset or YAML of the data deals (default: Rules(), the classic game); a coinche "
                         "preset (e.g. coinche) trains the coinche networks (coinche observation, bids 32..101)")
    ap.add_argument("--resume", action="store_true",
                    help="keep the chunks of this run already written in --out (same --seed, --chunks, --deals): "
                         "only the missing ones are generated")
    ap.add_argument("--rollouts", type=int, default=1,
                    help="--target bids at two / three seats: plays per candidate bid, averaged (default 1: with "
                         "deterministic behaviours every play of a bid on the same deal is the same)")
    ap.add_argument("--epsilon", type=float, default=None,
                    help="rate of random cards in the data deals (--target cards only; default 0.05)")
    ap.add_argument("--layers", type=int, nargs="+", default=None,
                    help="hidden layer sizes (default: 512 512 for cards, 256 256 for bids)")
    ap.add_argument("--epochs", type=int, default=None, help="epochs (default: 12 for cards, 10 for bids)")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--point-weight", type=float, default=0.0,
                    help="--target cards: fit the deal-score labels plus this weight x the solver's trick-point "
                         "differences (a tie-break where the score is flat, as coinche's below a contract; every data "
                         "file must hold them: data written since the coinche pipeline)")
    ap.add_argument("--fit-seed", type=int, default=0, help="seed of the network's initial weights and batches")
    ap.add_argument("--no-augment", action="store_true",
                    help="fit without renaming suits (and play without averaging over renamings)")
    ap.add_argument("--bidder", default=None,
                    help="model folder whose other networks are copied (default: shipped hard; coinche: none, or a "
                         "coinche model folder)")
    ap.add_argument("--out", required=True, help="model folder to write")
    ap.add_argument("--reuse-data", action="store_true",
                    help="fit on the data-*.npz (bids: bid-data-*.npz) already in --out")
    a = ap.parse_args()
    from belote_env import Rules
    from belote_env.config import RuleOptionError, load_rules
    from belote_env.games import game_of

    try:
        rules = load_rules(a.rules) if a.rules is not None else Rules()
    except RuleOptionError as e:
        ap.error(f"--rules: {e}")
    coinche = rules.contract_mode == "coinche"
    small = not game_of(rules).has_partners  # two / three seats: no suit renaming; bids need --bidder
    if a.behaviour is None:
        a.behaviour = ["normal"] if coinche or small else ["normal", "hard"]
    if a.resume and a.reuse_data:
        ap.error("--resume generates the missing chunks, --reuse-data none: give one of them")
    bids = a.target == "bids"
    if small and bids and a.bidder is None:
        ap.error(f"--target bids at {rules.players} seats needs --bidder (a {rules.players}-player model folder, e.g. "
                 f"the exported PPO: its policy network makes the decisions the bid values do not); without one the "
                 f"{rules.players}-player folder holds card-value networks only")
    if a.rollouts < 1:
        ap.error(f"--rollouts must be >= 1, got {a.rollouts}")
    if a.rollouts != 1 and not (small and bids):
        ap.error("--rollouts is for --target bids at two / three seats")
    if small:
        a.no_augment = True  # the small observation has no suit-renaming tables
    if a.layers is None:
        a.layers = [256, 256] if bids else [512, 512]
    if a.epochs is None:
        a.epochs = 10 if bids else 12
    if bids and a.point_weight:
        ap.error("--point-weight is for --target cards")
    if not (a.point_weight >= 0 and math.isfinite(a.point_weight)):
        ap.error("--point-weight must be a finite number >= 0")
    if bids and a.epsilon is not None:
        ap.error("--epsilon is for --target cards (the bid data label every legal bid by rollouts)")
    if a.epsilon is None:
        a.epsilon = 0.05
    chunks = a.workers if a.chunks is None else a.chunks
    if a.deals == 0 and not a.data and not a.reuse_data:
        ap.error("--deals 0 fits on --data only: give --data files")
    if a.workers < 1:
        ap.error(f"--workers must be >= 1, got {a.workers}")
    if not a.reuse_data and chunks < 1:
        ap.error(f"--chunks must be >= 1, got {chunks}")
    if not a.reuse_data and (a.deals < 0 or 0 < a.deals < chunks):
        ap.error(f"--deals must be 0 (fit on --data only) or at least --chunks ({chunks}), got {a.deals}")
    if a.seed < 0:
        ap.error(f"--seed must be >= 0, got {a.seed}")
    for f in a.data:
        if Path(f).is_dir():
            ap.error(f"--data: {f!r} is a folder; give its data files")
        if not Path(f).is_file():
            ap.error(f"--data: no such file {f!r}")
    if len({Path(f).resolve() for f in a.data}) < len(a.data):
        ap.error("--data: a file is given twice (it would be counted twice)")
    if a.epochs < 1:
        ap.error("--epochs must be >= 1")
    if not (a.lr > 0 and math.isfinite(a.lr)):
        ap.error("--lr must be a finite number > 0")
    if not a.layers or min(a.layers) < 1:
        ap.error("--layers must be hidden layer sizes >= 1")
    if not 0.0 <= a.epsilon <= 1.0:
        ap.error("--epsilon must be in [0, 1]")

    import torch

    from belote_env.atomic import atomic_write_bytes
    from policies.hard import HARD_MODEL_DIR
    from policies.network import (BID_VALUES_KIND, BIDS_SUBDIR, CARD_VALUES_KIND, CARDS_SUBDIR, MODE_N_ACTIONS,
                                  BeloteNet, CheckpointError, NetworkPolicy, declare_parts, save_model,
                                  save_value_policy_meta)
    from belote_env.observation import obs_size
    from policies.registry import check_policy_rules, check_policy_spec
    from training.oracle import fit_bid_values, fit_card_values

    subdir, other = (BIDS_SUBDIR, CARDS_SUBDIR) if bids else (CARDS_SUBDIR, BIDS_SUBDIR)
    item = "bid" if bids else "card"
    prefix = "bid-data-" if bids else "data-"

    try:
        for b in a.behaviour:
            check_policy_spec(b)
            check_policy_rules(b, rules)
        bidder = Path(a.bidder) if a.bidder else (None if coinche or small else HARD_MODEL_DIR)
        if bidder is not None:
            if not bidder.is_dir():
                raise ValueError(f"--bidder must be a model folder, got {str(bidder)!r}")
            # fail early on a bad bidder folder (its cards/ and bids/ included) or one of the other contract mode
            NetworkPolicy.from_path(bidder).check_rules(rules)
    except (ValueError, CheckpointError) as e:
        ap.error(str(e))
    out = Path(a.out)
    if bidder is not None and (out.resolve() == bidder.resolve() or bidder.resolve() in out.resolve().parents):
        ap.error("--out must not be the --bidder folder or inside it")
    if out.exists() and not out.is_dir():
        ap.error(f"--out {str(out)!r} exists and is not a folder")
    for sub in (subdir, other):
        if (out / sub).is_symlink() or ((out / sub).exists() and not (out / sub).is_dir()):
            ap.error(f"--out: {str(out / sub)!r} is a link or not a folder; give an --out without it")
    mine = out / other
    if mine.exists() and not (bidder is not None and (bidder / other).is_dir() and all(
            (mine / f).is_file() and (mine / f).read_bytes() == (bidder / other / f).read_bytes()
            for f in ("model.safetensors", "meta.json"))):
        ap.error(f"--out already holds a {other}/ network that is not --bidder's (it would be replaced): give "
                 f"that folder as --bidder and a new --out")
    for f in a.data:
        if Path(f).resolve().parent == out.resolve() and Path(f).name.startswith(prefix):
            ap.error(f"--data {f!r} is a data file of --out itself (use --reuse-data, or copy it elsewhere)")
    t0 = time.time()
    paths = sorted(str(p) for p in out.glob(prefix + "*.npz") if not p.name.endswith(".tmp.npz"))
    if a.reuse_data and not paths:
        ap.error(f"--reuse-data: no {prefix}*.npz in {out}")
    reused = a.reuse_data
    try:
        more = [_load_part(p, a.target, coinche, obs_size(rules)) for p in a.data]  # checked before any work or output
    except ValueError as e:
        ap.error(str(e))
    if not reused and a.deals == 0 and sum(len(m["q"]) for m in more) < 2:
        ap.error(f"the --data files hold fewer than 2 {item} decisions (at least 2 are needed to fit)")
    out.mkdir(parents=True, exist_ok=True)
    if not reused and a.deals == 0:
        paths = []
    elif not reused:
        jobs = [(a.target, a.deals // chunks + (j < a.deals % chunks), a.seed + j, tuple(a.behaviour), a.epsilon,
                 str(out / f"{prefix}{a.seed + j}.npz"), rules, a.rollouts) for j in range(chunks)]
        done = [j[5] for j in jobs if a.resume and Path(j[5]).is_file()]
        if done:
            print(f"--resume: {len(done)} of {chunks} chunks already in {out}", flush=True)
        todo = [j for j in jobs if j[5] not in done]
        from training.evaluate import exit_with_parent

        with ProcessPoolExecutor(a.workers, initializer=exit_with_parent, initargs=(os.getpid(),)) as ex:
            for path in ex.map(_generate, todo):
                print(f"wrote {path} ({time.time() - t0:.0f} s)", flush=True)
        paths = [j[5] for j in jobs]
    try:
        parts = [_load_part(p, a.target, coinche, obs_size(rules)) for p in paths] + more
    except ValueError as e:
        ap.error(str(e))
    del more
    keys = ("obs", "mask", "q")
    if a.point_weight:
        missing = [p for p, d in zip(paths + list(a.data), parts) if "points" not in d]
        if missing:
            ap.error(f"--point-weight needs the trick-point labels ('points'), missing in {', '.join(missing[:3])}"
                     f"{' ...' if len(missing) > 3 else ''}")
        keys += ("points",)
    data = {k: np.concatenate([d[k] for d in parts]) for k in keys}
    del parts
    if len(data["q"]) < 2:
        ap.error(f"only {len(data['q'])} {item} decisions to fit (at least 2; every deal passed out?): give more --deals "
                 f"or --data")
    t_data = time.time() - t0
    print(f"data: {len(data['q'])} {item} decisions from {len(paths) + len(a.data)} files, {t_data:.0f} s", flush=True)

    torch.manual_seed(a.fit_seed)
    if small:  # the small action table's width, as load_model checks (outputs 0..31 are the cards)
        net = BeloteNet(obs_size=obs_size(rules), n_actions=MODE_N_ACTIONS[game_of(rules).variant], pi=a.layers, vf=[8])
    else:
        net = BeloteNet(obs_size=obs_size(rules), pi=a.layers, vf=[8])
    fit_kw = {} if bids else {"point_weight": a.point_weight}
    fit = (fit_bid_values if bids else fit_card_values)(net, data, epochs=a.epochs, lr=a.lr, seed=a.fit_seed,
                                                        progress=True, augment=not a.no_augment, **fit_kw)
    last = fit["history"][-1]
    if not (math.isfinite(last["train_loss"]) and math.isfinite(last["valid_loss"])
            and all(torch.isfinite(t).all() for t in net.state_dict().values())):
        raise SystemExit(f"train_oracle.py: the fit diverged (losses {last['train_loss']}, {last['valid_loss']}); "
                         f"nothing written to {out}/{subdir}: try a smaller --lr")
    if bidder is not None and (bidder / "model.safetensors").is_file():  # the bidder's policy network
        atomic_write_bytes(out / "model.safetensors", (bidder / "model.safetensors").read_bytes())
        bid_meta = json.loads((bidder / "meta.json").read_text())
        bid_meta["note"] = ("the policy network of " + str(bidder.resolve()) + "; its figures (evaluation) are that "
                            "network's own, card play included; cards/ and bids/, when present, play this folder's "
                            "cards and make its bids")
        atomic_write_bytes(out / "meta.json", json.dumps(bid_meta, indent=2, sort_keys=True).encode())
    else:  # no policy network: the value networks play, the other decisions follow a fixed rule
        if (out / "model.safetensors").exists():
            (out / "model.safetensors").unlink()
        note = ("value networks only (cards/, bids/); see policies/network.py NetworkPolicy for the rule of the "
                "other decisions")
        if small:
            note = ("card-value network only (cards/): it plays the card decisions; every other decision (bids, the "
                    "seven exchange, discards, combinations) is the normal tier's (NetworkPolicy.rule_action)")
        save_value_policy_meta(out, rules, {"note": note})
    shutil.rmtree(out / subdir, ignore_errors=True)
    shutil.rmtree(out / other, ignore_errors=True)
    if bidder is not None and (bidder / other).is_dir():  # the bidder's other value network, copied atomically
        (out / other).mkdir()
        for f in ("model.safetensors", "meta.json"):
            atomic_write_bytes(out / other / f, (bidder / other / f).read_bytes())
    figures = {"target": a.target, "decisions": len(data["q"]), "data_seconds": round(t_data),
               "rules": a.rules if a.rules is not None else "default (Rules())",
               "value_unit": fit["value_unit"],
               "fit": {"hidden": a.layers, "epochs": a.epochs, "lr": a.lr, "augment": not a.no_augment,
                       "seed": a.fit_seed, **({} if bids else {"point_weight": a.point_weight})},
               "final": last}
    if reused:
        figures["data"] = f"reused {len(paths)} data files of --out: {', '.join(Path(p).name for p in paths)}"
    elif a.deals:
        figures.update(deals=a.deals, behaviour=a.behaviour,
                       **({"rollouts": a.rollouts} if bids and small else {} if bids else {"epsilon": a.epsilon}),
                       data=f"{chunks} chunks, seeds {a.seed}..{a.seed + chunks - 1}")
    if a.data:
        figures["more_data"] = [str(Path(f).resolve()) for f in a.data]
    extra = {"kind": BID_VALUES_KIND if bids else CARD_VALUES_KIND, "oracle": figures, "suit_average": not a.no_augment,
             "value_unit": fit["value_unit"], "rules": rules.to_dict()}
    if bids:
        extra["bid_actions"] = fit["bid_actions"]
    save_model(out / subdir, net.state_dict(), net.config, extra)
    declare_parts(out)  # meta.json lists the value networks the folder now holds
    print(json.dumps(figures, indent=1))
    print(f"wrote {out} ({time.time() - t0:.0f} s in all)")


if __name__ == "__main__":
    main()
