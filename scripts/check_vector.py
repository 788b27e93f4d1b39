"""The full differential run of the batched engine against the reference engine.

Plays at least ``--decisions`` decisions (default 1,000,000) in ``belote_env.vector``
and in ``belote_env.GameState`` side by side, on the same decks with the same seeded
random actions, under the classic default rules and ``--mixes - 1`` seeded mixes of every
classic rule option, the classic sets where ``carres``, ``run5_value`` and ``failure``
meet declarations (``vector_harness.combination_sets``: the ``seed001_4p`` preset and the
other values of those options), then in coinche (COINCHE.md) under every coinche preset and the
coinche defaults with ``--coinche-mixes - 1`` seeded mixes of every coinche option (every
other mix also with auctions of the lowest overcalls, ``vector_harness.lowest_bids``: the
longest chains). The decisions are shared evenly between the rule sets. At every step the
legal masks, hands, played cards, public constraints, trick, contract, card points, the
coinche auction's state and every seat's observation must be identical, and every deal's
score and rewards too (``tests/vector_harness.py``; CI runs slices of it in
``tests/test_vector_engine.py`` and ``tests/test_vector_coinche.py``). Prints one line per
rule set and the totals.

    python scripts/check_vector.py                # about 10 minutes on one core
    python scripts/check_vector.py --decisions 100000 --mixes 8 --coinche-mixes 4

With ``--small-mixes K`` (default 10; 0: none) the two- and three-player engine
(``BatchedGame`` at two and three seats, TWO_THREE.md) is checked too, against
``GameState``: the ``seed001_2p`` and ``seed001_3p`` presets and ``K - 1`` seeded
mixes of every option of TWO_THREE.md §4 at each table size
(``tests/test_vector_cutthroat.py``'s ``run_small``: identical masks, hands, public
constraints, contract, exchange, declarations and card points at every step, identical
per-seat totals, points and rewards at every deal's end). ``--only-small`` checks only
those.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from belote_env import Rules  # noqa: E402
from belote_env.games import game_of  # noqa: E402
from tests.test_vector_cutthroat import run_small, small_mixes  # noqa: E402
from tests.vector_harness import (  # noqa: E402
    coinche_mixes, coinche_presets, combination_sets, lowest_bids, option_mixes, run,
)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=1_000_000, help="decisions in all (default 1,000,000)")
    ap.add_argument("--mixes", type=int, default=40, help="classic rule sets: the defaults + seeded random mixes "
                    "(default 40)")
    ap.add_argument("--coinche-mixes", type=int, default=20, help="coinche rule sets besides the coinche presets: the "
                    "coinche defaults + seeded random mixes (default 20; 0: no coinche)")
    ap.add_argument("--tables", type=int, default=32, help="tables per batch (default 32)")
    ap.add_argument("--small-mixes", type=int, default=10, help="two- and three-player rule sets per table size: "
                    "the seed001_2p / seed001_3p preset + seeded random mixes (default 10; 0: none)")
    ap.add_argument("--only-small", action="store_true", help="check only the two- and three-player engine")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.decisions < 1 or args.mixes < 1 or args.tables < 1 or args.coinche_mixes < 0 or args.small_mixes < 0:
        ap.error("--decisions, --mixes and --tables must be >= 1, --coinche-mixes and --small-mixes >= 0")
    if args.only_small and not args.small_mixes:
        ap.error("--only-small needs --small-mixes >= 1")
    sets = [] if args.only_small else [(f"mix {i}", rules, None)
                                       for i, rules in enumerate(option_mixes(args.mixes, args.seed))]
    if not args.only_small:
        sets += [(f"combinations set {i}", rules, None) for i, rules in enumerate(combination_sets())]
    if args.small_mixes:
        for players in (2, 3):
            sets += [(f"{players}p mix {i}", rules, None)
                     for i, rules in enumerate(small_mixes(args.small_mixes, args.seed + players, players))]
    if args.coinche_mixes and not args.only_small:
        sets += [(f"coinche preset {i}", rules, None) for i, rules in enumerate(coinche_presets())]
        sets += [(f"coinche mix {i}", rules, lowest_bids if i % 2 else None)
                 for i, rules in enumerate(coinche_mixes(args.coinche_mixes, args.seed))]
    per_set = -(-args.decisions // len(sets))
    total: dict[str, int] = {}
    coinche_decisions = small_decisions = 0
    small_total: dict[str, int] = {}
    t0 = time.perf_counter()
    for i, (name, rules, choose) in enumerate(sets):
        if not game_of(rules).has_partners:
            counts = run_small(rules, args.tables, per_set, seed=args.seed + i)
            small_decisions += counts["decisions"]
            default = Rules(players=rules.players)
            changed = {k: v for k, v in rules.to_dict().items() if v != getattr(default, k)}
            print(f"{name}: {counts} {changed or f'default {rules.players}-player rules'}", flush=True)
            for k in ("decisions", "deals"):
                total[k] = total.get(k, 0) + counts[k]
            for k in ("made", "equal", "failed", "void", "redeal"):
                small_total[k] = small_total.get(k, 0) + counts[k]
            continue
        counts = run(rules, args.tables, per_set, seed=args.seed + i, choose=choose)
        for k, v in counts.items():
            total[k] = max(total.get(k, 0), v) if k == "longest_auction" else total.get(k, 0) + v
        if rules.contract_mode == "coinche":
            coinche_decisions += counts["decisions"]
        default = Rules(contract_mode=rules.contract_mode)
        changed = {k: v for k, v in rules.to_dict().items() if v != getattr(default, k)}
        how = " (lowest overcalls)" if choose is not None else ""
        print(f"{name}{how}: {counts} {changed or f'default {rules.contract_mode} rules'}", flush=True)
    print(f"identical over {total['decisions']} decisions ({coinche_decisions} in coinche, {small_decisions} at two "
          f"and three seats), {total['deals']} deals ({total.get('made', 0)} four-seat made, "
          f"{total.get('dedans', 0)} dedans ({total.get('dedans_taker_belote', 0)} with the takers' belote), "
          f"{total.get('litige', 0)} litige, {total.get('void', 0)} void; {total.get('run5_declared', 0)} with a "
          f"five-card sequence declared; the longest auction {total.get('longest_auction', 0)} decisions) under "
          f"{len(sets)} rule sets in "
          f"{time.perf_counter() - t0:.0f} s")
    if small_decisions:
        print(f"two and three seats: {small_decisions} decisions, deals {small_total}")


if __name__ == "__main__":
    main()
