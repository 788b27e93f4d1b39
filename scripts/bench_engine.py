"""Benchmark the rules engine alone: complete random deals per second, one process.

    python scripts/bench_engine.py [--deals 20000] [--seed 0]

Plays random legal actions (bids and cards) with ``belote_env.GameState`` and prints
deals per second (played deals; void deals are redealt and their decisions counted) and
decisions per second, for the default rules and each extra configuration below.
"""

from __future__ import annotations

import argparse
import random
import time

from belote_env import GameState, Rules
from belote_env.table import eldest_of

CONFIGS = {
    "default (seed 004)": Rules(),
    "declarations auto": Rules(declarations="auto"),
    "declarations choice + belote optional": Rules(declarations="choice", belote="optional"),
    "no-trump/all-trump in round 2": Rules(round2_no_trump_all_trump=True),
}


def bench(rules: Rules, deals: int, seed: int) -> tuple[float, float, float]:
    rng = random.Random(seed)
    played = decisions = 0
    t0 = time.perf_counter()
    st = GameState(rules, seed=seed, single_deal=True)
    while played < deals:
        while not st.is_deal_over:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        if st.deal_score is not None:
            played += 1
            st = GameState(rules, rng=st.rng, dealer=eldest_of(st.dealer), single_deal=True)
        else:
            st.next_deal()
    dt = time.perf_counter() - t0
    return played / dt, decisions / dt, decisions / played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for name, rules in CONFIGS.items():
        dps, decps, per = bench(rules, args.deals, args.seed)
        print(f"{name:32s} {dps:9.0f} deals/s  {decps:10.0f} decisions/s  ({per:.1f} decisions per deal)")


if __name__ == "__main__":
    main()
