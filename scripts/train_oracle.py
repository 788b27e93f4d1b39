"""Train a card-value network from the double-dummy oracle (``training.oracle``) and write a
model folder that plays with it: the bidding network of ``--bidder`` (default: the shipped
hard model) plus ``cards/``, the fitted card-value network.

    python scripts/train_oracle.py --deals 42000 --workers 2 --out runs/oracle
    belote eval runs/oracle normal --games 200 --seed 7

Data are generated in ``--chunks`` chunks (default: one per worker; chunk ``j`` plays
``deals / chunks`` deals seeded ``seed + j``) by ``--workers`` processes, each chunk saved
as ``data-<seed + j>.npz`` in ``--out`` (reused by a later run with ``--reuse-data``); the
files of ``--data`` (earlier chunks, from any run) are added; then the network is fitted
and saved (safetensors + JSON, each file written atomically). Prints the data size, the
fit's figures per epoch and the wall times.

The shipped card network (``policies/models/hard/cards``) was fitted on two rounds of data:
39,000 deals played by normal and the PPO-only hard, then 50,000 deals (``--seed 301
--chunks 10 --deals 50000 --behaviour normal <first oracle hard>``: the model folder
``policies/models/hard`` of commit a04522b) played by normal and the first oracle hard
(DAgger: the states the learner's own play reaches); its ``meta.json`` records the chunks.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import shutil
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np


def _generate(args) -> str:
    deals, seed, behaviour, epsilon, path = args
    import torch

    from belote_env import Rules
    from belote_env.atomic import atomic_write_bytes
    from training.oracle import generate_oracle_data

    torch.set_num_threads(1)
    data = generate_oracle_data(deals, seed, Rules(), behaviour=behaviour, epsilon=epsilon)
    buf = io.BytesIO()
    np.savez(buf, **data)
    atomic_write_bytes(path, buf.getvalue())
    return path


def _load_part(path: str) -> dict[str, np.ndarray]:
    """The obs, mask and q arrays of one data file; ``ValueError`` naming the file if it
    is not such an .npz or its arrays have the wrong shapes."""
    from belote_env.observation import OBS_SIZE

    what = f"{path} is not oracle data (an .npz of obs, mask, q from generate_oracle_data)"
    try:
        d = np.load(path)
        if not isinstance(d, np.lib.npyio.NpzFile):
            raise ValueError("not an .npz archive")
        with d:
            part = {k: d[k] for k in ("obs", "mask", "q")}
    except (OSError, ValueError, KeyError, EOFError) as e:
        raise ValueError(f"{what}: {e}")
    n = len(part["q"])
    want = {"obs": (n, OBS_SIZE), "mask": (n, 32), "q": (n, 32)}
    bad = [f"{k} {part[k].shape} (want {want[k]})" for k in want if part[k].shape != want[k]]
    if bad:
        raise ValueError(f"{path} has arrays of the wrong shape: {', '.join(bad)}")
    if part["mask"].dtype != np.bool_ or part["obs"].dtype.kind != "f" or part["q"].dtype.kind != "f":
        raise ValueError(f"{what}: dtypes obs {part['obs'].dtype}, mask {part['mask'].dtype}, q {part['q'].dtype} "
                         f"(want float, bool, float)")
    if n and not part["mask"].any(axis=1).all():
        raise ValueError(f"{path}: a decision without a legal card in its mask")
    if not (np.isfinite(part["obs"]).all() and np.isfinite(part["q"]).all()):
        raise ValueError(f"{path}: obs or q holds values that are not finite")
    return part


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=42000,
                    help="deals of new data in all (0: fit on --data only)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0, help="seed of the first data chunk (chunk j: seed + j), >= 0")
    ap.add_argument("--chunks", type=int, default=None, help="data chunks (default: --workers)")
    ap.add_argument("--data", nargs="+", default=[], help="more data files (data-*.npz of earlier runs) to fit on")
    ap.add_argument("--behaviour", nargs="+", default=["normal", "hard"], help="policies playing the data deals")
    ap.add_argument("--epsilon", type=float, default=0.05, help="rate of random cards in the data deals")
    ap.add_argument("--layers", type=int, nargs="+", default=[512, 512], help="hidden layer sizes")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--fit-seed", type=int, default=0, help="seed of the network's initial weights and batches")
    ap.add_argument("--no-augment", action="store_true",
                    help="fit without renaming suits (and play without averaging over renamings)")
    ap.add_argument("--bidder", default=None, help="model folder whose network bids (default: shipped hard)")
    ap.add_argument("--out", required=True, help="model folder to write")
    ap.add_argument("--reuse-data", action="store_true", help="fit on the data-*.npz already in --out")
    a = ap.parse_args()
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
            ap.error(f"--data: {f!r} is a folder; give its data-*.npz files")
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
    from policies.network import CARD_VALUES_KIND, CARDS_SUBDIR, BeloteNet, CheckpointError, load_model, save_model
    from policies.registry import check_policy_spec
    from training.oracle import fit_card_values

    try:
        for b in a.behaviour:
            check_policy_spec(b)
        bidder = Path(a.bidder) if a.bidder else HARD_MODEL_DIR
        if not bidder.is_dir():
            raise ValueError(f"--bidder must be a model folder, got {str(bidder)!r}")
        load_model(bidder)  # fail early on a bad bidder folder
    except (ValueError, CheckpointError) as e:
        ap.error(str(e))
    out = Path(a.out)
    if out.resolve() == bidder.resolve() or bidder.resolve() in out.resolve().parents:
        ap.error("--out must not be the --bidder folder or inside it")
    if out.exists() and not out.is_dir():
        ap.error(f"--out {str(out)!r} exists and is not a folder")
    for f in a.data:
        if Path(f).resolve().parent == out.resolve() and Path(f).name.startswith("data-"):
            ap.error(f"--data {f!r} is a data file of --out itself (use --reuse-data, or copy it elsewhere)")
    t0 = time.time()
    paths = sorted(str(p) for p in out.glob("data-*.npz") if not p.name.endswith(".tmp.npz"))
    if a.reuse_data and not paths:
        ap.error(f"--reuse-data: no data-*.npz in {out}")
    reused = a.reuse_data
    try:
        more = [_load_part(p) for p in a.data]  # checked before any work or output
    except ValueError as e:
        ap.error(str(e))
    if not reused and a.deals == 0 and sum(len(m["q"]) for m in more) < 2:
        ap.error("the --data files hold fewer than 2 card decisions (at least 2 are needed to fit)")
    out.mkdir(parents=True, exist_ok=True)
    if not reused and a.deals == 0:
        paths = []
    elif not reused:
        jobs = [(a.deals // chunks + (j < a.deals % chunks), a.seed + j, tuple(a.behaviour), a.epsilon,
                 str(out / f"data-{a.seed + j}.npz")) for j in range(chunks)]
        with ProcessPoolExecutor(a.workers) as ex:
            paths = list(ex.map(_generate, jobs))
    try:
        parts = [_load_part(p) for p in paths] + more
    except ValueError as e:
        ap.error(str(e))
    del more
    data = {k: np.concatenate([d[k] for d in parts]) for k in ("obs", "mask", "q")}
    del parts
    if len(data["q"]) < 2:
        ap.error(f"only {len(data['q'])} card decisions to fit (at least 2; every deal passed out?): give more --deals "
                 f"or --data")
    t_data = time.time() - t0
    print(f"data: {len(data['q'])} card decisions from {len(paths) + len(a.data)} files, {t_data:.0f} s", flush=True)

    torch.manual_seed(a.fit_seed)
    net = BeloteNet(pi=a.layers, vf=[8])
    fit = fit_card_values(net, data, epochs=a.epochs, lr=a.lr, seed=a.fit_seed, progress=True, augment=not a.no_augment)
    last = fit["history"][-1]
    if not (math.isfinite(last["train_loss"]) and math.isfinite(last["valid_loss"])
            and all(torch.isfinite(t).all() for t in net.state_dict().values())):
        raise SystemExit(f"train_oracle.py: the fit diverged (losses {last['train_loss']}, {last['valid_loss']}); "
                         f"nothing written to {out}/{CARDS_SUBDIR}: try a smaller --lr")
    atomic_write_bytes(out / "model.safetensors", (bidder / "model.safetensors").read_bytes())
    bid_meta = json.loads((bidder / "meta.json").read_text())
    bid_meta["note"] = ("the bidding network of " + str(bidder.resolve()) + "; its figures (evaluation) are that "
                        "network's own, card play included; cards/ plays this folder's cards")
    atomic_write_bytes(out / "meta.json", json.dumps(bid_meta, indent=2, sort_keys=True).encode())
    shutil.rmtree(out / CARDS_SUBDIR, ignore_errors=True)
    figures = {"decisions": len(data["q"]), "data_seconds": round(t_data), "rules": "default (Rules())",
               "fit": {"hidden": a.layers, "epochs": a.epochs, "lr": a.lr, "augment": not a.no_augment,
                       "seed": a.fit_seed},
               "final": last}
    if reused:
        figures["data"] = f"reused {len(paths)} data files of --out: {', '.join(Path(p).name for p in paths)}"
    elif a.deals:
        figures.update(deals=a.deals, behaviour=a.behaviour, epsilon=a.epsilon,
                       data=f"{chunks} chunks, seeds {a.seed}..{a.seed + chunks - 1}")
    if a.data:
        figures["more_data"] = [str(Path(f).resolve()) for f in a.data]
    save_model(out / CARDS_SUBDIR, net.state_dict(), net.config,
               {"kind": CARD_VALUES_KIND, "oracle": figures, "suit_average": not a.no_augment})
    print(json.dumps(figures, indent=1))
    print(f"wrote {out} ({time.time() - t0:.0f} s in all)")


if __name__ == "__main__":
    main()
