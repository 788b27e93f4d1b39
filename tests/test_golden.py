"""The engine, the encoders and the tiers reproduce the golden outputs recorded before the
core redesign (issue #20: it changes no game, no decision and no figure). See
``tests/golden_harness.py``; ``python scripts/make_golden.py`` rewrites them."""

import gzip
import json
from pathlib import Path

import pytest

from tests import golden_harness as g

GOLDEN = Path(__file__).resolve().parent / "golden"


def _load(name: str):
    return json.loads(gzip.decompress((GOLDEN / f"{name}.json.gz").read_bytes()))


@pytest.fixture(scope="module")
def games():
    return g.golden_games()


def test_games_records_observations_and_masks_are_unchanged(games):
    now, _ = games
    want = _load("games")
    assert sorted(now) == sorted(want)
    for name in want:
        assert now[name]["record"] == want[name]["record"], name
        for key in ("decisions", "observations", "history", "masks", "scores", "winner"):
            assert now[name][key] == want[name][key], (name, key)
    assert sum(v["decisions"] for v in want.values()) > 6000


def test_every_tier_decides_as_before(games):
    _, positions = games
    want = _load("tiers")
    now = g.tier_decisions(positions)
    assert sorted(now) == sorted(want)
    for tier in want:
        for name in want[tier]:
            assert now[tier][name] == want[tier][name], (tier, name)


def test_tier_games_are_unchanged():
    assert g.tier_games() == _load("tier_games")


def test_the_hard_vs_normal_match_is_unchanged():
    """``belote eval hard normal --games 100 --seed 97 --workers 2`` (timing fields aside)."""
    assert g.golden_eval() == _load("eval")
