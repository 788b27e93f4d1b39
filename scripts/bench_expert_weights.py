"""The expert's belief weights of its worlds: the per-(seat, hand) factors kept across a
decision's worlds (``SearchPolicy._weight``) against one plain replay per world
(``policies.search.plain_weight``), on the same worlds: time and equality.

    python scripts/bench_expert_weights.py [--deals 4] [--worlds 48] [--seed 50]

Plays ``--deals`` seeded deals (``normal`` at every seat) of each rule set (classic; classic
with declarations by choice and optional belote; coinche) and, at every card decision with
a choice after the first trick, draws ``--worlds`` uniform worlds of the seat's hidden cards
and weighs each both ways (the expert's ``normal``-tier belief, its bids included). Prints
per rule set the worlds weighed, how many weights differ (must be 0: exits 1 otherwise),
the two times and their ratio. Time only: the decisions are those of the same weights.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from belote_env import GameState, Rules, load_rules  # noqa: E402
from policies import make_policy  # noqa: E402
from policies.search import plain_weight  # noqa: E402
from training.evaluate import use_one_torch_thread  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--worlds", type=int, default=48)
    ap.add_argument("--seed", type=int, default=50)
    args = ap.parse_args()
    if args.deals < 1 or args.worlds < 1:
        ap.error("--deals and --worlds must be >= 1")
    use_one_torch_thread()
    sets = {"classic": Rules(target=None),
            "classic, declarations by choice, optional belote": Rules(target=None, declarations="choice",
                                                                     belote="optional"),
            "coinche": load_rules("coinche")}
    differ_all = 0
    for name, rules in sets.items():
        expert, normal = make_policy("expert", seed=1), make_policy("normal")
        n = differ = 0
        kept_s = plain_s = 0.0
        for d in range(args.deals):
            st = GameState(rules, seed=args.seed + d, single_deal=True)
            while not st.is_deal_over:
                info = st.information_set(st.current)
                if st.phase == 1 and len(info.legal_actions) > 1 and info.tricks:
                    draws = expert._uniform(info)
                    worlds = [next(draws).hands for _ in range(args.worlds)]
                    rng = expert.rng.getstate()
                    expert._lead = None  # a new decision
                    t = time.perf_counter()
                    kept = [expert._weight(info, h) for h in worlds]
                    kept_s += time.perf_counter() - t
                    expert.rng.setstate(rng)
                    t = time.perf_counter()
                    plain = [plain_weight(expert, info, h) for h in worlds]
                    plain_s += time.perf_counter() - t
                    n += len(worlds)
                    differ += sum(a != b for a, b in zip(kept, plain))
                st.apply(normal.act(info))
        differ_all += differ
        print(f"{name}: {n} worlds weighed, {differ} weights differ; kept factors {kept_s:.2f} s, plain replays "
              f"{plain_s:.2f} s ({plain_s / kept_s:.2f}x)", flush=True)
    return 1 if differ_all else 0


if __name__ == "__main__":
    sys.exit(main())
