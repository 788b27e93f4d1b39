"""The full differential run of the batched engine against the reference engine.

Plays at least ``--decisions`` decisions (default 1,000,000) in ``belote_env.vector``
and in ``belote_env.GameState`` side by side, on the same decks with the same seeded
random actions, under the default rules and ``--mixes - 1`` seeded mixes of every rule
option: at every step the legal masks, hands, played cards, public constraints, trick,
contract, card points and every seat's observation must be identical, and every deal's
score and rewards too (``tests/vector_harness.py``; CI runs a slice of it in
``tests/test_vector_engine.py``). Prints one line per mix and the totals.

    python scripts/check_vector.py                # about 3 minutes on one core
    python scripts/check_vector.py --decisions 100000 --mixes 8
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.vector_harness import option_mixes, run  # noqa: E402


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=1_000_000, help="decisions in all (default 1,000,000)")
    ap.add_argument("--mixes", type=int, default=40, help="rule sets: the defaults + seeded random mixes (default 40)")
    ap.add_argument("--tables", type=int, default=32, help="tables per batch (default 32)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.decisions < 1 or args.mixes < 1 or args.tables < 1:
        ap.error("--decisions, --mixes and --tables must be >= 1")
    per_mix = -(-args.decisions // args.mixes)
    total = {}
    t0 = time.perf_counter()
    for i, rules in enumerate(option_mixes(args.mixes, args.seed)):
        counts = run(rules, args.tables, per_mix, seed=args.seed + i)
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
        changed = {k: v for k, v in rules.to_dict().items() if v != getattr(type(rules)(), k)}
        print(f"mix {i}: {counts} {changed or 'default rules'}", flush=True)
    print(f"identical over {total['decisions']} decisions, {total['deals']} deals "
          f"({total['made']} made, {total['dedans']} dedans, {total['litige']} litige, {total['void']} void) "
          f"under {args.mixes} rule sets in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
