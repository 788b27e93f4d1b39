"""OpenSpiel's random-simulation test (``pyspiel.random_sim_test``) on every preset of the
OpenSpiel game ``python_belote`` (``belote_env.openspiel``): legal actions, chance
outcomes, clones, returns and their bounds, zero sums, game lengths, checked at every step
of ``--sims`` random games each (1,000 by default). Prints the time per preset; exits
non-zero at the first failure (OpenSpiel raises it). ``tests/test_openspiel.py`` runs a
slice of it in CI.

    python scripts/openspiel_random_sim.py [--sims 1000] [--presets seed004 coinche seed001_2p seed001_3p]
"""

from __future__ import annotations

import argparse
import time

import pyspiel

import belote_env.openspiel  # noqa: F401  (registers python_belote)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sims", type=int, default=1000, help="random games per preset (default 1000)")
    p.add_argument("--presets", nargs="+", default=["seed004", "coinche", "seed001_2p", "seed001_3p"])
    args = p.parse_args(argv)
    for preset in args.presets:
        game = pyspiel.load_game(f"python_belote(rules={preset})")
        t0 = time.perf_counter()
        pyspiel.random_sim_test(game, num_sims=args.sims, serialize=False, verbose=False)
        print(f"{preset:12s} {args.sims} random games passed in {time.perf_counter() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
