"""The classic expert's early stop (``SearchPolicy(stop_z=...)``) and lazy weighing
(``belief_lazy``): time saved and decisions kept.

    python scripts/bench_expert_stop.py [--deals 8] [--seed 0] [--z 2.0 1.0] [--lazy]

Plays ``--deals`` seeded classic deals with the ``expert`` in seats 0 and 2 and ``normal``
in seats 1 and 3. At every card decision of the expert with more than one candidate, the
same information set is also decided by experts with ``stop_z`` set (each reseeded with
the same key first, so every expert draws the same worlds in the same order: an early
stop uses a prefix of them). Prints, per ``z``: the share of decisions equal to the full
expert's, the median time per decision against the full expert's (the same decisions,
wall-clock, one process) and the mean number of worlds solved. With ``--lazy`` the same for
experts that weigh their candidate worlds as the search asks for them (``belief_lazy``),
without and with each ``stop_z`` (their worlds are drawn otherwise: fewer equal decisions
are expected even without a stop). Decisions are not a
strength measurement: a changed decision may be as good; strength needs duplicate matches.
"""

from __future__ import annotations

import argparse
import statistics
import time

from belote_env import GameState, Rules
from belote_env.driver import finish_deal
from policies import make_policy
from policies.base import reseed
from training.evaluate import use_one_torch_thread


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--z", type=float, nargs="+", default=[2.0, 1.0])
    ap.add_argument("--lazy", action="store_true", help="also experts with belief_lazy (without and with each z)")
    ap.add_argument("--pool", type=int, default=None, help="the lazy experts' belief_pool (default: the expert's, 8)")
    args = ap.parse_args()
    use_one_torch_thread()
    full = make_policy("expert", seed=args.seed)
    stops = {}
    for lazy in (False, True) if args.lazy else (False,):
        for z in ([None] if lazy else []) + list(args.z):
            pol = make_policy("expert", seed=args.seed)
            pol.stop_z, pol.belief_lazy = z, lazy
            if lazy and args.pool:
                pol.belief_pool = args.pool
            stops[("lazy weighing" + (f", stop_z {z:g}" if z is not None else "")) if lazy else f"stop_z {z:g}"] = pol
    normal = make_policy("normal")
    times = {None: [], **{k: [] for k in stops}}
    same = {k: 0 for k in stops}
    worlds = {None: [], **{k: [] for k in stops}}
    count = 0

    def decide(st: GameState, info, policy) -> int:
        nonlocal count
        if policy is not full:
            return policy.act(info)
        key = f"{args.seed}-{st.deal_number}-{len(st.actions)}"
        reseed(full, key)
        t0 = time.perf_counter()
        a = full.act(info)
        dt = time.perf_counter() - t0
        searched = info.phase == 1 and full.last_stats.get("samples", 0) > 0
        if searched:
            count += 1
            times[None].append(dt)
            worlds[None].append(full.last_stats["samples"])
            for z, pol in stops.items():
                reseed(pol, key)
                t0 = time.perf_counter()
                b = pol.act(info)
                times[z].append(time.perf_counter() - t0)
                worlds[z].append(pol.last_stats["samples"])
                same[z] += a == b
        return a

    seats = [full, normal, full, normal]
    for d in range(args.deals):
        finish_deal(GameState(Rules(), seed=args.seed + d, dealer=d % 4, single_deal=True), seats, decide)
    base = statistics.median(times[None])
    print(f"{count} card decisions searched over {args.deals} deals; full expert: median {1000 * base:.1f} ms, "
          f"{statistics.mean(worlds[None]):.1f} worlds")
    for k in stops:
        med = statistics.median(times[k])
        print(f"{k}: {100 * same[k] / count:.1f}% of decisions equal, median {1000 * med:.1f} ms "
              f"({base / med:.2f}x faster), {statistics.mean(worlds[k]):.1f} worlds")


if __name__ == "__main__":
    main()
