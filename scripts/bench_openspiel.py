"""Speed of the OpenSpiel game ``python_belote`` beside OpenSpiel's C++ ``hearts`` (the
anchor, measured in the same run): random play from Python through the pyspiel API
(``legal_actions``, ``apply_action``, chance outcomes sampled), in decisions per second
(a decision: an action of a player, chance nodes not counted), median of ``--repeats``
timed runs of ``--games`` games each, interleaved. Prints the ratio hearts / belote per
preset. Reports only (no aim).

    python scripts/bench_openspiel.py [--games 200] [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pyspiel

import belote_env.openspiel  # noqa: F401  (registers python_belote)


def decisions_per_second(game, games: int, seed: int) -> float:
    rng = random.Random(seed)
    decisions = 0
    t0 = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200, help="games per timed run (default 200)")
    p.add_argument("--repeats", type=int, default=5, help="timed runs per game, interleaved (default 5)")
    args = p.parse_args(argv)
    games = {"hearts (C++)": pyspiel.load_game("hearts")}
    for preset in ("seed004", "coinche", "seed001_2p", "seed001_3p"):
        games[f"python_belote {preset}"] = pyspiel.load_game(f"python_belote(rules={preset})")
    runs: dict[str, list[float]] = {name: [] for name in games}
    for r in range(args.repeats):
        for name, game in games.items():
            runs[name].append(decisions_per_second(game, args.games, seed=r))
    anchor = statistics.median(runs["hearts (C++)"])
    print(f"{'game':28s} {'decisions/s (median)':>22s} {'hearts / it':>12s}")
    for name, xs in runs.items():
        m = statistics.median(xs)
        print(f"{name:28s} {m:22,.0f} {anchor / m:12.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
