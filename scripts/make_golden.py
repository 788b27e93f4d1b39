"""Rewrite the golden outputs of ``tests/golden/`` (see ``tests/golden_harness.py``).

Run it only for a change meant to alter games, decisions or match figures, and say so in
that commit; ``tests/test_golden.py`` checks the current code against these files.

    python scripts/make_golden.py [--part games|tiers|tier_games|eval|variant_games|variant_tiers ...]
    python scripts/make_golden.py --part eval_platform   # add this CPU's hard-vs-normal match
    python scripts/make_golden.py --mixes seed001_4p      # rewrite these game mixes only

``--mixes NAME ...`` rewrites only those mixes' entries of the ``games`` and ``tiers``
parts (``golden_harness.MIXES``), for a change meant to alter those games alone; every
other entry is kept as recorded, and the rewritten records keep the golden's form (the
options it was recorded with, and any other option set away from the classic default:
``golden_harness.golden_record_rules``).

``eval_platform`` is not among the default parts: it adds the golden match as this CPU
plays it to ``eval_platforms.json.gz``, keyed by the CPU's name, for a CPU whose float32
kernels flip a near-tie of the recorded match (check the difference first).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import golden_harness as g  # noqa: E402

from belote_env.atomic import atomic_write_bytes  # noqa: E402

PARTS = ("games", "tiers", "tier_games", "eval", "variant_games", "variant_tiers", "eval_platform")


def write(name: str, data) -> None:
    path = ROOT / "tests" / "golden" / f"{name}.json.gz"
    atomic_write_bytes(path, gzip.compress(json.dumps(data, sort_keys=True).encode(), mtime=0))
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")


def read(name: str):
    return json.loads(gzip.decompress((ROOT / "tests" / "golden" / f"{name}.json.gz").read_bytes()))


def rewrite_mixes(names: list[str]) -> None:
    """Rewrite the ``games`` and ``tiers`` entries of the game mixes ``names`` alone."""
    games, positions = g.golden_games(names)
    old_games, old_tiers = read("games"), read("tiers")
    recorded = set(old_games["seed004"]["record"]["rules"])
    for name, entry in games.items():
        entry["record"]["rules"] = g.golden_record_rules(entry["record"]["rules"], recorded)
        old_games[name] = entry
    for tier, per_mix in g.tier_decisions(positions).items():
        for name, actions in per_mix.items():
            if name in old_tiers[tier]:
                old_tiers[tier][name] = actions
    write("games", old_games)
    write("tiers", old_tiers)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", nargs="+", choices=PARTS,
                    help="the parts to rewrite (default: all but eval_platform)")
    ap.add_argument("--mixes", nargs="+", choices=[m[0] for m in g.MIXES], metavar="NAME",
                    help="rewrite only these game mixes' entries of the games and tiers parts (not with --part)")
    a = ap.parse_args(argv)
    if a.mixes and a.part:
        ap.error("--mixes rewrites entries of the games and tiers parts: give it without --part")
    a.part = a.part or [p for p in PARTS if p != "eval_platform"]
    t0 = time.perf_counter()
    if a.mixes:
        rewrite_mixes(a.mixes)
        print(f"{time.perf_counter() - t0:.1f} s")
        return 0
    if "games" in a.part or "tiers" in a.part:
        games, positions = g.golden_games()
        if "games" in a.part:
            write("games", games)
        if "tiers" in a.part:
            write("tiers", g.tier_decisions(positions))
    if "tier_games" in a.part:
        write("tier_games", g.tier_games())
    if "eval" in a.part:
        write("eval", g.golden_eval())
    if "eval_platform" in a.part:
        path = ROOT / "tests" / "golden" / "eval_platforms.json.gz"
        platforms = json.loads(gzip.decompress(path.read_bytes())) if path.exists() else {}
        platforms[g.cpu_name()] = g.golden_eval()
        write("eval_platforms", platforms)
    if "variant_games" in a.part or "variant_tiers" in a.part:
        games, positions = g.golden_variant_games()
        if "variant_games" in a.part:
            write("variant_games", games)
        if "variant_tiers" in a.part:
            write("variant_tiers", g.variant_tier_decisions(positions))
    print(f"{time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
