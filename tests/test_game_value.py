"""The game-aware value of a deal (``training.game_value.GameValue``): the chance of winning a
game to its target (RULES.md §8) from the scores, and the policy-iteration labels and
observations that use it (``training.rollouts.rollout_labels(game_value=...)``)."""

import numpy as np
import pytest

from belote_env import Rules
from belote_env.observation import OFFSET
from policies.network import load_bid_net, load_card_net, load_model
from training.config import ConfigError
from training.game_value import GameValue
from training.iterate import IterateConfig, iterate
from training.rollouts import ValuePlayer, rollout_labels

HARD = "policies/models/hard"


def test_win_chance_of_a_coin_toss_game_is_the_hand_computed_one():
    """Deals of 100 points to one team or the other, even odds, game to 200: from 100-0 the
    leader loses only by losing two deals running, 1 - 1/4 = 0.75; to 300 (first to three
    deals) from 100-0: 11/16."""
    g = GameValue([[100, 0]], 200)  # both orientations: (100, 0) and (0, 100)
    assert g.win(0, 0) == pytest.approx(0.5, abs=1e-12)
    assert g.win(100, 0) == pytest.approx(0.75, abs=1e-12)
    assert g.win(0, 100) == pytest.approx(0.25, abs=1e-12)
    assert g.win(100, 100) == pytest.approx(0.5, abs=1e-12)
    assert g.win(250, 100) == 1.0 and g.win(100, 250) == 0.0  # a finished game
    g3 = GameValue([[100, 0]], 300)  # first to three wins of a coin: from 1-0, P = 11/16
    assert g3.win(100, 0) == pytest.approx(11 / 16, abs=1e-12)
    # void deals (redealt) change nothing
    assert np.array_equal(GameValue([[100, 0], [0, 0], [0, 0]], 200).grid, g.grid)


def _simulated(outcomes, us, them, rng, games=40_000, target=1000):
    """The share of ``games`` simulated games to ``target`` from ``(us, them)``, deals drawn
    from ``outcomes`` rows, that ``us`` wins (RULES.md §8)."""
    s = np.tile([us, them], (games, 1))
    live = np.ones(games, bool)
    while live.any():
        s[live] += outcomes[rng.integers(0, len(outcomes), int(live.sum()))]
        live &= ~((s.max(1) >= target) & (s[:, 0] != s[:, 1]))
    return (s[:, 0] > s[:, 1]).mean()


def test_win_chance_matches_simulated_games():
    """For a lumpy deal distribution (made contracts, dedans, belote) the value iteration
    agrees with 40,000 simulated games to 1000 from the same scores, within 0.01."""
    rng = np.random.default_rng(0)
    made = rng.integers(82, 140, 600)
    out = np.concatenate([np.stack([made, 162 - made], 1), [[0, 162]] * 150, [[0, 182]] * 20, [[91, 81]] * 30])
    g = GameValue(out, 1000)
    both = np.concatenate([out, out[:, ::-1]])
    for us, them in ((600, 800), (900, 850), (0, 0), (300, 0)):
        assert g.win(us, them) == pytest.approx(_simulated(both, us, them, rng), abs=0.01)


def test_labels_and_positions():
    """A label is the acting team's change in its chance, scaled so that near 0-0 it is
    about the deal's point difference / 162; positions are the starts of deals of games
    (none past the target unless tied, 0-0 about once a game)."""
    rng = np.random.default_rng(1)
    made = rng.integers(82, 140, 600)
    out = np.concatenate([np.stack([made, 162 - made], 1), [[0, 162]] * 150])
    g = GameValue(out, 1000)
    lab = g.label(np.array([[0, 0], [0, 0], [950, 400]]), np.array([[100, 62], [62, 100], [100, 62]]))
    assert lab[0] == pytest.approx(38 / 162, rel=0.15) and lab[1] == pytest.approx(-lab[0], rel=1e-6)
    assert 0 < lab[2] < lab[0] / 3  # an all but won game: the deal's points matter little
    assert lab[2] == pytest.approx((1.0 - g.win(950, 400)) * g.scale, rel=1e-6)
    p = g.positions(np.random.default_rng(2), 5000)
    assert p.shape == (5000, 2) and ((p.max(1) < 1000) | (p[:, 0] == p[:, 1])).all()
    deals_a_game = 1 / (p.sum(1) == 0).mean()
    assert 7 < deals_a_game < 12
    assert g.positions(np.random.default_rng(2), 0).shape == (0, 2)


@pytest.mark.parametrize("call, match", [
    (lambda: GameValue([[0, 0]], 1000), "all void"),
    (lambda: GameValue(np.zeros((0, 2), np.int64), 1000), "none given"),
    (lambda: GameValue([[100.0, 62.0]], 1000), "int points"),
    (lambda: GameValue([[10 ** 6, 0]], 1000), "int points in 0..100,000"),
    (lambda: GameValue([[100, 62]], 0), "target"),
    (lambda: GameValue([[100, 62]], 1000, step=2000), "step must be at most the target"),
    (lambda: GameValue([[100, 62]], 1000, unit=float("inf")), "unit"),
    (lambda: GameValue([[100, 62]], 1000, unit="162"), "unit"),
    (lambda: GameValue([[81, 81]], 1000), "no label scale"),
    (lambda: GameValue([[100, 62]], 1000).win(float("nan"), 0), "finite"),
    (lambda: GameValue([[100, 62]], 1000).win(-5, 0), ">= 0"),
    (lambda: GameValue([[100, 62]], 1000).label([[0, 0]], [[1, 2], [3, 4]]), "both be"),
    (lambda: GameValue([[100, 62]], 1000).positions(np.random.default_rng(0), -1), "n must be"),
])
def test_bad_input_is_refused_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_finished_and_off_grid_scores():
    """Scores off the 10-point grid and past the target: a finished game is 1 or 0 exactly
    (1/2 for equal totals), and a game in play matches simulated games."""
    rng = np.random.default_rng(3)
    made = rng.integers(82, 140, 600)
    out = np.concatenate([np.stack([made, 162 - made], 1), [[0, 162]] * 150, [[0, 252]] * 20])
    g = GameValue(out, 1000)
    assert g.win(1003, 1007) == 0.0 and g.win(1005, 1000) == 1.0 and g.win(1300, 1250) == 1.0
    assert g.win(1010, 1010) == 0.5
    for us, them in ((995, 990), (903, 847), (37, 412)):
        assert g.win(us, them) == pytest.approx(_simulated(g.outcomes, us, them, rng), abs=0.012)
    # a target not on the grid, deals smaller than a step: exact by hand (3-1 or 1-3 deals
    # to 5 points: from 3-1, the leader wins unless the next two deals go 1-3: 3/4)
    tiny = GameValue([[3, 1]], 5, step=2)
    assert tiny.win(3, 1) == pytest.approx(0.75, abs=1e-12) and tiny.win(7, 0) == 1.0


class _PointsAtZero:
    """A stand-in game value: every deal at 0-0 and the label the point difference / 162."""

    def positions(self, rng, n):
        return np.zeros((n, 2), dtype=np.int64)

    def label(self, start, points):  # (us, them) pairs
        return ((points[:, 0] - points[:, 1]) / 162.0).astype(np.float32)


class _At(_PointsAtZero):
    def positions(self, rng, n):
        return np.tile([500, 250], (n, 1)).astype(np.int64)


@pytest.fixture(scope="module")
def hard_player():
    rules = Rules(target=None)
    return ValuePlayer(load_card_net(HARD)[0], load_bid_net(HARD)[0], load_model(HARD)[0], rules, seed=0), rules


def test_rollout_labels_come_from_the_game_value(hard_player):
    """With a game value whose positions are 0-0 and whose label is the point difference, the
    labels and observations are those of single deals to the bit; with positions 500-250
    every labelled observation carries them, as us / them by the acting seat's team."""
    player, rules = hard_player
    plain = rollout_labels(player, rules, 6, seed=9)
    same = rollout_labels(player, rules, 6, seed=9, game_value=_PointsAtZero())
    for kind in ("cards", "bids"):
        for k in ("obs", "mask", "q"):
            assert np.array_equal(getattr(plain, kind)[k], getattr(same, kind)[k], equal_nan=True)
    at = rollout_labels(player, rules, 6, seed=9, game_value=_At())
    s = OFFSET["scores"]
    seen = {tuple(r) for r in np.round(at.cards["obs"][:, s:s + 2].astype(np.float64) * 1000)}
    assert seen == {(500.0, 250.0), (250.0, 500.0)}
    assert (plain.cards["obs"][:, s:s + 2] == 0).all()


def test_iterate_config_game_value_needs_a_game_it_models():
    for rules in ({"target": None}, {"max_deals": 12},
                  {"contract_mode": "coinche", "no_win_on_belote_alone": True}):
        with pytest.raises(ConfigError, match="game_value"):
            IterateConfig(game_value=True, rules=rules)
    with pytest.raises(ConfigError, match="game_value"):
        IterateConfig(game_value="yes")
    assert IterateConfig(game_value=True).game_value is True


def test_iterate_with_game_value_keeps_its_outcomes(tmp_path):
    """A game-aware run writes the starting networks' deal outcomes (``game_value.npz``:
    points of teams 0 and 1, whole deals) and its labels carry game scores."""
    run = iterate(IterateConfig(init_from=HARD, iterations=1, deals=8, chunk=64, label_rate=0.5, eval_pairs=0,
                                threads=1, game_value=True, log_dir=str(tmp_path), seed=4), progress=False)
    with np.load(run / "game_value.npz") as z:
        out = z["outcomes"]
    assert out.shape == (8, 2) and set(out.sum(1).tolist()) <= {0, 162, 182, 252, 272, 342}
    assert (run / "checkpoints" / "iter_00001" / "iterate.json").is_file()
