"""Rewrite the golden outputs of ``tests/golden/`` (see ``tests/golden_harness.py``).

Run it only for a change meant to alter games, decisions or match figures, and say so in
that commit; ``tests/test_golden.py`` checks the current code against these files.

    python scripts/make_golden.py [--part games|tiers|tier_games|eval|variant_games|variant_tiers ...]
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

PARTS = ("games", "tiers", "tier_games", "eval", "variant_games", "variant_tiers")


def write(name: str, data) -> None:
    path = ROOT / "tests" / "golden" / f"{name}.json.gz"
    atomic_write_bytes(path, gzip.compress(json.dumps(data, sort_keys=True).encode(), mtime=0))
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", nargs="+", choices=PARTS, default=list(PARTS))
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
