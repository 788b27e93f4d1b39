"""Screen settings of the search tier against a policy in mirrored deal pairs (2 processes).

    python scripts/screen_expert.py --pairs 100 --seed 0 --kwargs '{"belief_pool": 8}' \\
        [--belief normal] [--base hard] [--prior hard] [--cards-only] [--true-hands] \\
        [--opponent normal] [--workers 2] [--json out.json]

``--kwargs`` are ``SearchPolicy`` arguments (JSON); ``--belief`` names the tier used as
the model of the other seats; ``--base`` the tier that orders the candidates and makes
the decisions not searched (default ``normal``); ``--prior`` the tier whose card values
count as ``prior_weight`` samples (give ``"prior_weight"`` in ``--kwargs``);
``--cards-only`` makes the searcher bid as its base policy (it sets ``"search_bids":
false``), so only card play differs; ``--true-hands`` gives the search the real hidden
hands instead of samples (an upper bound on what inference can give; it breaks the
information rule on purpose and exists only for this measurement). Prints the mean
point difference per deal (95% interval over pairs), deals won and contracts.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def _work(args) -> tuple[list[float], list[float], list[int]]:
    kw, ids, seed, opp, belief, true_hands, base, prior = args
    import policies.search as search
    from belote_env import GameState, Rules
    from belote_env.driver import finish_deal
    from belote_env.sampling import HiddenDeal
    from belote_env.table import SEATS, absolute_seat, team_of
    from policies import make_policy
    from training.evaluate import _play_sets, use_one_torch_thread

    use_one_torch_thread()  # as `belote eval`: two processes on two cores
    expert = _build(kw, belief, base, prior)
    other = make_policy(opp, seed=seed + 1)
    rules = Rules()
    if not true_hands:  # the duplicate-match harness of `belote eval` (passed-out deals redealt)
        t = _play_sets(expert, other, ids, seed, rules, "deal")
        return t.diffs, t.deal_wins, [t.taken[0], t.made[0], t.taken[1], t.made[1]]
    current = {}
    class _TrueHands:  # in place of search.HiddenHandSampler: the real deal, every draw
        def __init__(self, info):
            pass

        def draw(self, rng):
            return HiddenDeal(tuple(current["state"].hands), 0)

    search.HiddenHandSampler = _TrueHands
    diffs, wins, counts = [], [], [0, 0, 0, 0]  # search taken / made, opponent taken / made
    for i in ids:  # same decks; a passed-out deal counts 0
        d = w = 0.0
        for a_team in (0, 1):
            state = GameState(rules, rng=random.Random(seed * 1_000_003 + i), dealer=absolute_seat(i, 0),
                              single_deal=True)
            current["state"] = state
            finish_deal(state, [expert if team_of(s) == a_team else other for s in SEATS])
            diff = 0
            if state.deal_scores:
                score = state.deal_scores[-1]
                diff = score.difference(a_team)
                side = 0 if score.taker_team == a_team else 2
                counts[side] += 1
                counts[side + 1] += score.outcome == "made"
            d += diff / 2
            w += (1.0 if diff > 0 else 0.5 if diff == 0 else 0.0) / 2
        diffs.append(d)
        wins.append(w)
    return diffs, wins, counts


def _build(kw: dict, belief: str | None, base: str | None, prior: str | None):
    """The ``SearchPolicy`` of these settings (raises ``ValueError`` for bad ones)."""
    from policies import make_policy
    from policies.search import SearchPolicy

    if not isinstance(kw, dict):
        raise ValueError(f"--kwargs must be a JSON object of SearchPolicy arguments, got {kw!r}")
    extra = {name: make_policy(spec) for name, spec in (("belief", belief), ("base", base), ("prior", prior)) if spec}
    try:
        return SearchPolicy(0, **kw, **extra)
    except TypeError as e:  # an unknown argument name
        raise ValueError(f"--kwargs: {e}") from None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kwargs", default="{}", help="SearchPolicy arguments as JSON")
    ap.add_argument("--belief", default=None, help="tier used as the model of the other seats")
    ap.add_argument("--base", default=None, help="tier ordering the candidates and taking the decisions not "
                                                 "searched (default normal)")
    ap.add_argument("--prior", default=None, help="tier whose card values count as prior_weight samples")
    ap.add_argument("--cards-only", action="store_true", help="bid as the base policy")
    ap.add_argument("--true-hands", action="store_true", help="search the real hands (upper bound)")
    ap.add_argument("--opponent", default="normal")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", default=None, help="also write each pair's point difference (by pair id) here, "
                                                  "to compare two settings pair by pair")
    a = ap.parse_args()
    try:
        kw = json.loads(a.kwargs)
        if a.cards_only and isinstance(kw, dict):
            kw = dict(kw, search_bids=False)
        _build(kw, a.belief, a.base, a.prior)  # bad settings stop here, not in the workers
    except ValueError as e:  # json.JSONDecodeError is a ValueError
        hint = (" (--prior names the policy; give \"prior_weight\" in --kwargs)" if "prior" in str(e) else "")
        ap.error(f"{e}{hint}")
    ids = list(range(a.pairs))
    t0 = time.perf_counter()
    tasks = [(kw, ids[k::a.workers], a.seed, a.opponent, a.belief, a.true_hands, a.base, a.prior)
             for k in range(a.workers)]
    from training.evaluate import init_worker  # workers exit with this process, one torch thread each

    with ProcessPoolExecutor(a.workers, mp_context=multiprocessing.get_context("spawn"), initializer=init_worker,
                             initargs=(os.getpid(),)) as pool:
        parts = list(pool.map(_work, tasks))
    diffs = [d for p in parts for d in p[0]]
    wins = [w for p in parts for w in p[1]]
    c = [sum(p[2][i] for p in parts) for i in range(4)]
    from training.evaluate import mean_ci

    mean, low, high = mean_ci(diffs)
    print(f"{a.pairs} deal pairs (seed {a.seed}) vs {a.opponent}: {mean:+.1f} points per deal "
          f"({low:+.1f} to {high:+.1f}), deals won {statistics.mean(wins):.3f}; "
          f"contracts taken/made: search {c[0]}/{c[1]}, {a.opponent} {c[2]}/{c[3]}; "
          f"{time.perf_counter() - t0:.0f} s")
    if a.json:
        order = [i for k in range(a.workers) for i in ids[k::a.workers]]
        by_id = dict(zip(order, diffs))
        Path(a.json).write_text(json.dumps({"args": vars(a), "diffs": [by_id[i] for i in ids]}))


if __name__ == "__main__":
    main()
