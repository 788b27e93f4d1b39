"""Decision time of the policies on the batched engine: ``act_batch`` against ``act``.

    python scripts/bench_policies.py [--tables 256 1024] [--threads 1 2] [--steps 12] [--repeats 3]
                                     [--designs] [--seed 0]

Positions: ``--steps`` snapshots of ``--tables`` tables of ``BatchedGame`` random play
(default rules; every table's seat to act, forced decisions included, as a match sees
them). For each policy (``hard``; ``normal``; ``policy net``: the hard tier's policy network
alone, as an exported model plays) and each thread count (``torch.set_num_threads``, which
``act_batch`` also uses for the compiled kernel's threads) it prints

* ``<policy> batched: N us/decision``: ``act_batch`` on every snapshot (observations
  encoded inside the timed call, and the ``InfoSet`` of any row ``act`` re-decides), the
  median of ``--repeats`` passes over all snapshots, divided by the decisions;
* ``<policy> act: N us/decision``: ``act(info)`` on a sample of the same rows (the
  ``InfoSet``s built beforehand, so only the decision is timed), measured in the same run.

The aim for hard is ``<= 50 us`` a decision. With ``--designs`` it also times the designs
tried for the hard tier's card-value network on the card decisions alone (its 24 suit
renamings of every row): ``torch gather`` (``act``'s one-row pass over all rows x 24
renamings in one forward pass), ``torch by-suit`` (the first layer as 16 suit-block
products per row, the renamed output layer folded with the average: 3 matrix products)
and ``compiled sparse`` (``policies.batch.CompiledNet``: the numba kernel skipping zero
inputs, the default), and the whole hard policy with the compiled kernel switched off.

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
from policies.network import NetworkPolicy, suit_permutation_tables

AIM_US = 50.0


def snapshots(tables: int, steps: int, seed: int) -> list[BatchedGame]:
    """Copies of a randomly played ``BatchedGame`` at ``steps`` steps (each copy frozen, so
    a ``SeatBatch`` of it stays valid)."""
    g = BatchedGame(tables, Rules(), seed=seed)
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


class TorchBySuit:
    """Design "torch by-suit": the averaged card values in torch with the first layer made
    of 16 suit-block products per row (``policies.batch.suit_orbits``) and the output layer
    folded with the renamings' average."""

    def __init__(self, net, table):
        from policies.batch import suit_orbits

        layers = list(net.mlp_extractor.policy_net)
        lin1, self.act1, self.rest = layers[0], layers[1], torch.nn.Sequential(*layers[2:])
        fixed, cols, pick = suit_orbits()
        w1 = lin1.weight.detach()
        self.h = w1.shape[0]
        self.fixed, self.cols, self.n_orb = torch.from_numpy(fixed), torch.from_numpy(cols.reshape(-1)), cols.shape[1]
        self.w_fixed, self.b1 = w1[:, self.fixed].t().contiguous(), lin1.bias.detach()
        self.w_suits = torch.cat([w1[:, torch.from_numpy(cols[t])].t() for t in range(4)], 1).contiguous()
        self.comb = torch.zeros(24, 16)
        for p in range(24):
            for t in range(4):
                self.comb[p, pick[p, t] * 4 + t] = 1.0
        w3, b3 = net.action_net.weight.detach(), net.action_net.bias.detach()
        inv = torch.empty_like(table)
        inv.scatter_(1, table, torch.arange(table.shape[1]).expand_as(table).contiguous())
        self.w_out = torch.cat([w3[inv[p]].t() for p in range(24)], 0).contiguous()
        self.b_out = torch.stack([b3[inv[p]] for p in range(24)]).sum(0)

    @torch.inference_mode()
    def __call__(self, obs: np.ndarray, rows: int = 64) -> np.ndarray:
        x = torch.from_numpy(obs)
        out = []
        for i in range(0, len(x), rows):
            o = x[i:i + rows]
            m = o.shape[0]
            base = torch.addmm(self.b1, o[:, self.fixed], self.w_fixed)
            prod = torch.mm(o[:, self.cols].reshape(m * 4, self.n_orb), self.w_suits).view(m, 16, self.h)
            h1 = torch.matmul(self.comb, prod).add_(base.unsqueeze(1)).relu_()
            h2 = self.rest(h1.view(m * 24, self.h))
            out.append((torch.mm(h2.view(m, -1), self.w_out) + self.b_out) / 24)
        return torch.cat(out).numpy()


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
    ap.add_argument("--tables", type=int, nargs="+", default=[256, 1024])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--act-sample", type=int, default=400, help="rows timed with act (default 400)")
    ap.add_argument("--designs", action="store_true", help="also time the designs tried for hard's card network")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    hard = make_policy("hard")
    pols = {"hard": hard, "normal": make_policy("normal"),
            "policy net": NetworkPolicy(hard.net, name="policy net")}
    from policies import as_batch_policy

    batched = {k: as_batch_policy(p) for k, p in pols.items()}
    print(f"positions: random play, default rules, {args.steps} snapshots of each batch size; "
          f"median of {args.repeats} interleaved passes")
    for tables in args.tables:
        games = snapshots(tables, args.steps, args.seed)
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
            if args.designs:
                designs(hard, games, args.repeats)
    print(f"aim: hard batched <= {AIM_US:.0f} us/decision")


def designs(hard: NetworkPolicy, games: list[BatchedGame], repeats: int) -> None:
    from policies.batch import CompiledNet, network_outputs

    table = suit_permutation_tables()[1]
    obs = card_rows(games)
    n = sum(len(o) for o in obs)
    compiled = CompiledNet(hard.card_net, 0, 32, table)
    by_suit = TorchBySuit(hard.card_net, table)
    threads = torch.get_num_threads()
    runs = {
        "torch gather": lambda o: network_outputs(hard.card_net, o, 0, 32, table),
        "torch by-suit": by_suit,
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
    print(f"  design torch gather, whole hard policy: {t * 1e6:.1f} us/decision")


if __name__ == "__main__":
    main()
