"""Rewrite the golden outputs of ``tests/golden/`` (see ``tests/golden_harness.py``).

Run it only for a change meant to alter games, decisions or match figures, and say so in
that commit; ``tests/test_golden.py`` checks the current code against these files.

    python scripts/make_golden.py [--part games|tiers|tier_games|eval|variant_games|variant_tiers ...]
    python scripts/make_golden.py --part eval_platform   # add this CPU's hard-vs-normal match

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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", nargs="+", choices=PARTS, default=[p for p in PARTS if p != "eval_platform"])
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
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
