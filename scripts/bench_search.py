"""Benchmark the double-dummy solver and the expert tier, one process.

    python scripts/bench_search.py [--deals 100] [--expert-deals 10] [--seed 0] [--variants classic coinche two three]
        [--anchor] [--report-only]

Prints:

* the solver's first call (numba compiles, or loads its cached machine code);
* the time to solve a whole deal from eldest's first lead (``solver.solve``) over
  ``--deals`` seeded deals, their contracts bid by the ``normal`` tier (RULES.md §3;
  passed-out deals are skipped), with the no-trump / all-trump round-2 option on, and the
  solver's nodes per second over those solves;
* the same for ``solver.card_values`` (every legal first card valued exactly);
* the same two figures for the two- and three-player games (``seed001_2p``,
  ``seed001_3p``, and three seats under ``three_player_deal="10_each"``: TWO_THREE.md; the
  auction and the steps before the cards played by ``normal``);
* the ``expert`` tier's time per decision at its default settings, per variant (classic,
  coinche, two and three seats; ``--variants``) and phase (bids, cards; forced moves
  excluded): mean, median, 90th percentile and max, over ``--expert-deals`` seeded deals
  with the expert in seats 0 and 2 and ``normal`` in seats 1 and 3 (two and three seats:
  the expert in seat 0, ``normal`` in the others); with ``--anchor`` beside the previous
  settings' (``policies.search.full_expert``) times on the same information sets;
* issue #35's speed aims (the classic expert's median card decision <= 25 ms, the coinche
  expert's median decision <= 130 ms): exits 1 when one is missed, unless ``--report-only``.

Times are wall-clock seconds (``time.perf_counter``); on a shared machine they vary with
its load.
"""

from __future__ import annotations

import argparse
import statistics
import time

from belote_env import GameState, Rules, load_rules
from belote_env.driver import finish_deal
from belote_env.game import STEPS
from belote_env.games import game_of
from belote_env.solver import Solver, position_of


def first_leads(n: int, seed: int, rules: Rules):
    """``n`` positions at the first lead, bid by the normal tier (seeded deals)."""
    from policies import make_policy

    normal = make_policy("normal")
    cards = STEPS.index("cards")
    out, s = [], seed
    while len(out) < n:
        st = GameState(rules, seed=s, dealer=s % rules.players, single_deal=True)
        s += 1
        while st.phase == 0 or (st.phase == 1 and 0 <= st.step < cards):  # the auction, the steps before the cards
            st.apply(normal.act(st.information_set(st.current)))
        if st.phase == 1:
            out.append(position_of(st))
    return out


def bench_solver(positions, per_card: bool) -> tuple[list[float], int]:
    solver = Solver()
    times, nodes = [], 0
    for pos in positions:
        t0 = time.perf_counter()
        solver.card_values(pos) if per_card else solver.solve(pos)
        times.append(time.perf_counter() - t0)
        nodes += solver.nodes
    return times, nodes


#: the variants of the expert's timing (``--variants``): name -> rules
VARIANTS = {"classic": lambda: Rules(), "coinche": lambda: load_rules("coinche"),
            "two": lambda: load_rules("seed001_2p"), "three": lambda: load_rules("seed001_3p")}


def bench_expert(deals: int, seed: int, rules: Rules | None = None,
                 anchor: bool = False) -> tuple[list[float], list[float], list[float], list[float]]:
    """The expert's decision times (seconds) over ``deals`` seeded deals of ``rules``
    (default classic): (bids, cards, anchor bids, anchor cards), forced moves left out.
    Its seats: 0 and 2 at four seats, 0 at two and three (``normal`` in the others). With
    ``anchor`` the tier's previous settings (``policies.search.full_expert``) decide each
    of the same information sets too, timed alike (their decisions are not played). One
    untimed deal is played first (seed ``seed + 100000``): the first decisions load models
    and compiled kernels."""
    from policies import make_policy
    from policies.search import full_expert
    from training.evaluate import use_one_torch_thread

    use_one_torch_thread()  # as in `belote eval` (hard's networks; other jobs can make 2 threads spin)
    rules = Rules() if rules is None else rules
    expert, normal = make_policy("expert", seed=seed, rules=rules), make_policy("normal", rules=rules)
    full = full_expert(seed) if anchor else None
    bids, cards, a_bids, a_cards = [], [], [], []

    def timed(st: GameState, info, policy) -> int:  # the expert's decisions timed, bids and cards apart
        if policy is not expert:
            return policy.act(info)
        t0 = time.perf_counter()
        a = expert.act(info)
        dt = time.perf_counter() - t0
        if len(info.legal_actions) > 1:
            (bids if info.denomination < 0 else cards).append(dt)
            if full is not None:
                t0 = time.perf_counter()
                full.act(info)
                (a_bids if info.denomination < 0 else a_cards).append(time.perf_counter() - t0)
        return a

    n = rules.players
    seats = [expert if game_of(rules).table.side[s] == 0 else normal for s in range(n)]  # seats 0 and 2; 0
    # one untimed deal first, so that neither pays the first use of its models and kernels in the figures
    finish_deal(GameState(rules, seed=seed + 100_000, dealer=0, single_deal=True), seats, timed)
    for times in (bids, cards, a_bids, a_cards):
        times.clear()
    for d in range(deals):
        finish_deal(GameState(rules, seed=seed + d, dealer=d % n, single_deal=True), seats, timed)
    return bids, cards, a_bids, a_cards


#: issue #35's aims, seconds: the classic expert's median card decision, the coinche
#: expert's median decision (bids and cards)
AIMS = {"classic": ("cards", 0.025), "coinche": ("all", 0.130)}


def _ms(values: list[float]) -> str:
    if not values:
        return "none"
    p90 = statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]
    return (f"mean {1000 * statistics.mean(values):.1f} ms, median {1000 * statistics.median(values):.1f} ms, "
            f"90th percentile {1000 * p90:.1f} ms, max {1000 * max(values):.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100, help="deals solved from the first lead")
    ap.add_argument("--expert-deals", type=int, default=10, help="deals played by the expert (seats 0, 2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variants", nargs="+", choices=sorted(VARIANTS), default=["classic"],
                    help="the variants whose expert is timed (default classic)")
    ap.add_argument("--anchor", action="store_true",
                    help="also time the previous settings (full_expert) on the same decisions")
    ap.add_argument("--report-only", action="store_true", help="exit 0 even when an aim is missed")
    args = ap.parse_args()
    rules = Rules(round2_no_trump_all_trump=True)
    positions = first_leads(args.deals, args.seed, rules)
    t0 = time.perf_counter()
    Solver().solve(positions[0])
    print(f"first solver call (compile or cached-code load): {time.perf_counter() - t0:.2f} s")
    times, nodes = bench_solver(positions, per_card=False)
    print(f"solve a whole deal from the first lead, {len(times)} deals: {_ms(times)}; "
          f"{nodes / len(times):,.0f} nodes per deal, {nodes / sum(times) / 1e6:.2f} M nodes/s")
    times, nodes = bench_solver(positions, per_card=True)
    print(f"value every first card (card_values), {len(times)} deals: {_ms(times)}; "
          f"{nodes / sum(times) / 1e6:.2f} M nodes/s")
    for name, small in (("two seats", load_rules("seed001_2p")), ("three seats", load_rules("seed001_3p")),
                        ("three seats, 10_each", Rules(players=3, three_player_deal="10_each"))):
        positions = first_leads(args.deals, args.seed, small)
        for per_card, what in ((False, "solve a whole deal from the first lead"),
                               (True, "value every first card (card_values)")):
            times, nodes = bench_solver(positions, per_card)
            print(f"{name}: {what}, {len(times)} deals: {_ms(times)}; {nodes / len(times):,.0f} nodes per deal, "
                  f"{nodes / sum(times) / 1e6:.2f} M nodes/s")
    missed = []
    for variant in args.variants if args.expert_deals > 0 else ():
        bids, cards, a_bids, a_cards = bench_expert(args.expert_deals, args.seed, VARIANTS[variant](), args.anchor)
        both = bids + cards
        print(f"expert ({variant}, default settings) per decision over {args.expert_deals} deals: {_ms(both)} "
              f"({len(both)} decisions); bids {_ms(bids)}; cards {_ms(cards)}")
        if args.anchor:
            print(f"  the previous settings (full_expert) on the same decisions: {_ms(a_bids + a_cards)}; bids "
                  f"{_ms(a_bids)}; cards {_ms(a_cards)}")
        if variant in AIMS:
            phase, aim = AIMS[variant]
            times = cards if phase == "cards" else both
            got = statistics.median(times) if times else float("inf")  # nothing measured: not met
            met = got <= aim
            print(f"  aim: median {'card ' if phase == 'cards' else ''}decision <= {1000 * aim:.0f} ms: "
                  f"{1000 * got:.1f} ms, {'met' if met else 'NOT met'}")
            if not met:
                missed.append(variant)
    if missed and not args.report_only:
        raise SystemExit(f"aims missed: {', '.join(missed)} (--report-only to exit 0)")


if __name__ == "__main__":
    main()
