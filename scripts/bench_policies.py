"""Decision time of the policies on the batched engine: ``act_batch`` against ``act``.

    python scripts/bench_policies.py [--rules coinche] [--tables 256 1024] [--threads 1 2] [--steps 12]
                                     [--repeats 3] [--designs] [--seed 0] [--compare FOLDER ...]

Positions: ``--steps`` snapshots of ``--tables`` tables of ``BatchedGame`` random play
(``--rules``: a preset name or YAML file, default the default rules; every table's seat to
act, forced decisions included, as a match sees them). For each policy (``hard``;
``normal``; ``policy net``: the classic hard tier's policy network alone, as an exported
model plays; the coinche hard has none; each ``--compare`` model folder, for an A/B of
two networks in one run) and each thread count (``torch.set_num_threads``, which
``act_batch`` also uses for the compiled kernel's threads) it prints

* ``<policy> batched: N us/decision``: ``act_batch`` on every snapshot (observations
  encoded inside the timed call, and the ``InfoSet`` of any row ``act`` re-decides), the
  median of ``--repeats`` passes over all snapshots, divided by the decisions;
* ``<policy> act: N us/decision``: ``act(info)`` on a sample of the same rows (the
  ``InfoSet``s built beforehand, so only the decision is timed), measured in the same run.

The aims for hard (issue #33): ``<= 50 us`` a decision batched (at the last ``--tables`` and
``--threads`` given) and ``<= 1 ms`` one decision at a time (``act``); the script exits 1 when either is
missed. With ``--designs`` it also times the designs
tried for the hard tier's card-value network on the card decisions alone (its 24 suit
renamings of every row): ``torch gather`` (``act``'s one-row pass over all rows x 24
renamings in one forward pass, ``policies.batch.outputs_by_renaming``), ``torch by-suit``
(``policies.batch.network_outputs``' torch pass: the first layer as 16 suit-block products
per row, the later layers on the 24 renamings, only the wanted outputs) and ``compiled
sparse`` (``policies.batch.CompiledNet``: the numba kernel skipping zero inputs, the
default), and the whole hard policy with the compiled kernel switched off.

The machine may be shared: passes are interleaved and the median kept.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time

import numpy as np
import torch

from belote_env import Rules
from belote_env.observation import OFFSET
from belote_env.vector import BatchedGame, SeatBatch
from policies import make_policy
from policies.network import NetworkPolicy
from policies.symmetry import suit_permutation_tables

AIM_US = 50.0
#: one decision at a time (``act``), microseconds
AIM_ACT_US = 1000.0


def snapshots(tables: int, steps: int, seed: int, rules: Rules | None = None) -> list[BatchedGame]:
    """Copies of a randomly played ``BatchedGame`` at ``steps`` steps (each copy frozen, so
    a ``SeatBatch`` of it stays valid)."""
    g = BatchedGame(tables, Rules() if rules is None else rules, seed=seed)
    for _ in range(3):  # past the first bids
        g.step(g.random_actions())
    out = []
    for _ in range(steps):
        out.append(copy.deepcopy(g))
        g.step(g.random_actions())
    return out


def time_batched(policy, games: list[BatchedGame]) -> float:
    """Seconds per decision of ``act_batch`` over every table of every snapshot."""
    n, t = 0, 0.0
    for g in games:
        rows = np.arange(g.n)
        t0 = time.perf_counter()
        policy.act_batch(SeatBatch(g, rows))
        t += time.perf_counter() - t0
        n += g.n
    return t / n


def time_act(policy, infos) -> float:
    t0 = time.perf_counter()
    for info in infos:
        policy.act(info)
    return (time.perf_counter() - t0) / len(infos)


def card_rows(games: list[BatchedGame]) -> list[np.ndarray]:
    """Observations of the card decisions (``is_card_decision``) of each snapshot."""
    c0 = OFFSET["contract"]
    out = []
    for g in games:
        b = SeatBatch(g, np.arange(g.n))
        m = b.mask.astype(bool)
        other = m[:, 32:].copy()
        other[:, 104 - 32] = False
        rows = b.obs[:, c0:c0 + 6].any(1) & (m[:, :32].sum(1) > 1) & ~other.any(1)
        out.append(np.ascontiguousarray(b.obs[rows]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default=None, help="rules preset name or YAML file (default: the default rules)")
    ap.add_argument("--tables", type=int, nargs="+", default=[256, 1024], help="batch sizes (the aims: the last)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2], help="torch thread counts (the aims: the last)")
    ap.add_argument("--steps", type=int, default=12, help="snapshots of random play per batch size")
    ap.add_argument("--repeats", type=int, default=3, help="interleaved passes (the median is kept)")
    ap.add_argument("--act-sample", type=int, default=400, help="rows timed with act (default 400)")
    ap.add_argument("--designs", action="store_true", help="also time the designs tried for hard's card network")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--compare", nargs="+", default=[], metavar="FOLDER",
                    help="also time these model folders (e.g. an earlier commit's hard model) in the same passes")
    args = ap.parse_args()
    from belote_env import load_rules

    rules = load_rules(args.rules)
    coinche = rules.contract_mode == "coinche"
    hard = make_policy("hard")
    pols = {"hard": hard, "normal": make_policy("normal")}
    if not coinche:
        pols["policy net"] = NetworkPolicy(hard.net, name="policy net")
    from policies import as_batch_policy

    probe = snapshots(4, 1, args.seed, rules)[0]
    for folder in args.compare:  # bad input exits 2 (argparse), a missed aim 1
        try:
            pols[folder] = make_policy(folder, rules=rules)
            as_batch_policy(pols[folder]).act_batch(SeatBatch(probe, np.arange(probe.n)))
        except Exception as e:
            ap.error(f"--compare {folder}: not a model folder that plays these rules ({args.rules or 'the default'}): "
                     f"{e}")

    batched = {k: as_batch_policy(p) for k, p in pols.items()}
    print(f"positions: random play, rules {args.rules or 'default'}, {args.steps} snapshots of each batch size; "
          f"median of {args.repeats} interleaved passes")
    got: dict[str, float] = {}
    for tables in args.tables:
        games = snapshots(tables, args.steps, args.seed, rules)
        rng = np.random.default_rng(args.seed)
        sample = []
        for g in games:
            b = SeatBatch(g, np.arange(g.n))
            sample += [b.infoset(int(i)) for i in rng.choice(g.n, max(1, args.act_sample // len(games)), False)]
        for p in batched.values():  # warm up: numba kernels and compiled networks
            p.act_batch(SeatBatch(games[0], np.arange(min(tables, 64))))
        for threads in args.threads:
            torch.set_num_threads(threads)
            res: dict[str, list[float]] = {f"{k} {w}": [] for k in pols for w in ("batched", "act")}
            for _ in range(args.repeats):
                for k in pols:
                    res[f"{k} batched"].append(time_batched(batched[k], games))
                    res[f"{k} act"].append(time_act(pols[k], sample))
            print(f"-- batch {tables} tables, {threads} thread(s), {tables * len(games)} decisions")
            for k in pols:
                b, a = statistics.median(res[f"{k} batched"]) * 1e6, statistics.median(res[f"{k} act"]) * 1e6
                print(f"{k} batched: {b:.1f} us/decision")
                print(f"{k} act: {a:.1f} us/decision (x{a / b:.1f})")
                if k == "hard":
                    got["batched"], got["act"] = b, a  # the last --tables and --threads given
            if args.designs and not coinche:
                designs(hard, games, args.repeats)
    ok = got["batched"] <= AIM_US and got["act"] <= AIM_ACT_US
    print(f"aim: hard batched <= {AIM_US:.0f} us/decision ({got['batched']:.1f}) and act <= {AIM_ACT_US:.0f} "
          f"us/decision ({got['act']:.1f}): {'met' if ok else 'MISSED'}")
    raise SystemExit(0 if ok else 1)


def designs(hard: NetworkPolicy, games: list[BatchedGame], repeats: int) -> None:
    from policies.batch import CompiledNet, network_outputs, outputs_by_renaming

    table = suit_permutation_tables()[1]
    obs = card_rows(games)
    n = sum(len(o) for o in obs)
    compiled = CompiledNet(hard.card_net, 0, 32, table)
    threads = torch.get_num_threads()

    def by_renaming(net, o, tab):
        with torch.inference_mode():
            return outputs_by_renaming(net, torch.from_numpy(o), 0, 32, tab).numpy()

    runs = {
        "torch gather": lambda o: by_renaming(hard.card_net, o, table),
        "torch by-suit": lambda o: network_outputs(hard.card_net, o, 0, 32, table),
        "compiled sparse": lambda o: compiled(o, threads),
    }
    for f in runs.values():
        f(obs[0])
    res = {k: [] for k in runs}
    for _ in range(repeats):
        for k, f in runs.items():
            t0 = time.perf_counter()
            for o in obs:
                f(o)
            res[k].append((time.perf_counter() - t0) / n)
    for k in runs:
        print(f"  design {k}: {statistics.median(res[k]) * 1e6:.1f} us per card decision ({n} card decisions)")
    from policies import network

    saved = network._BatchNets.get
    network._BatchNets.get = lambda self, *a: None  # every network in torch
    try:
        fresh = make_policy("hard")
        fresh.act_batch(SeatBatch(games[0], np.arange(64)))
        t = statistics.median(time_batched(fresh, games) for _ in range(repeats))
    finally:
        network._BatchNets.get = saved
    print(f"  design torch by-suit, whole hard policy: {t * 1e6:.1f} us/decision")


if __name__ == "__main__":
    main()
