"""The batched engine (``belote_env.vector``) in coinche mode (``contract_mode="coinche"``,
COINCHE.md) against the reference engine: identical masks, states, auction states,
observations of every seat, scores and rewards at every step, under every coinche preset
(COINCHE.md §8) and seeded mixes of every coinche option; the scoring kernel against
``scoring.score_coinche_deal`` on drawn deal results; the vector envs' sizes and reward
scale. The full run is ``scripts/check_vector.py`` (classic and coinche)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote_env import GameState, Rules
from belote_env.actions import COINCHE, PASS, SURCOINCHE, coinche_bid_action, num_actions
from belote_env.config import RuleOptionError, load_rules
from belote_env.contract import CAPOT, GENERALE, Contract
from belote_env.driver import reward_scale
from belote_env.observation import COINCHE_OBS_SIZE, obs_size
from belote_env.scoring import score_coinche_deal
from belote_env.table import SEATS, TEAM_OF, other_team, team_seats
from belote_env.vector import engine
from belote_env.vector.engine import COL, NCOL, BatchedGame, rules_codes
from belote_env.vector.observation import encode_batch
from tests.vector_harness import COINCHE_PRESETS, coinche_mixes, lowest_bids, run

#: seeded random mixes, and options no preset nor those mixes set: "points annoncés", a
#: générale worth 1000, the dealer kept after four passes
MIXES = coinche_mixes(10, seed=5) + [Rules(contract_mode="coinche", scoring="bid_only", generale=True,
                                           generale_value=1000, all_pass_redeal="same_dealer")]


@pytest.mark.parametrize("name", COINCHE_PRESETS)
def test_coinche_presets_equal_reference(name):
    counts = run(load_rules(name), n_tables=8, decisions=2400, seed=11)
    assert counts["deals"] >= 50 and counts["void"] >= 1
    assert counts["made"] + counts["dedans"] + counts["litige"] + counts["void"] == counts["deals"]


@pytest.mark.parametrize("rules", MIXES, ids=[f"mix{i}" for i in range(len(MIXES))])
def test_coinche_mixes_equal_reference(rules):
    counts = run(rules, n_tables=8, decisions=2000, seed=13)
    assert counts["deals"] >= 40


@pytest.mark.parametrize("rules", [
    Rules(contract_mode="coinche", max_numeric_bid=250, denomination_order="ranked", coinche_window="immediate",
          coinche_denominations="suits_sa_ta", passes_to_end=4, self_overbid="change_denomination"),
    Rules(contract_mode="coinche", coinche_freezes=False, denomination_order="ranked"),
    Rules(contract_mode="coinche", coinche_freezes=False, generale=True, generale_leads=True, max_numeric_bid=650),
    load_rules("coinche_bga"),
], ids=["ranked-immediate-250", "no-freeze-ranked", "no-freeze-generale", "bga"])
def test_long_auctions_equal_reference(rules):
    """Chains of the lowest overcalls: auctions far longer than random play makes, within
    the history's bound (``auction.length_bound``)."""
    counts = run(rules, n_tables=4, decisions=1500, seed=17, choose=lowest_bids)
    assert counts["longest_auction"] >= 30


def _draw_result(rules: Rules, rng: random.Random):
    """A contract and a deal result drawn at random (not necessarily playable, as
    ``score_coinche_deal`` allows): the scoring kernel's inputs and the reference's."""
    levels = list(range(80, rules.max_numeric_bid + 1, 10)) + [CAPOT] * rules.capot_bid + [GENERALE] * rules.generale
    level = rng.choice(levels)
    d = rng.randrange(6 if rules.coinche_denominations == "suits_sa_ta" else 4)
    taker = rng.choice(SEATS)
    T = TEAM_OF[taker]
    multiplier = rng.choice((1, 2, rules.surcoinche_multiplier))
    taker_tricks = rng.choice((0, 1, 4, 7, 8, 8))
    tricks = [0, 0]
    tricks[T] = taker_tricks
    tricks[other_team(T)] = 8 - taker_tricks
    cp0 = rng.randrange(153)
    if tricks[0] == 8:
        last = 0
    elif tricks[1] == 8:
        last = 1
    else:
        last = rng.randrange(2)
    bidder_all = taker_tricks == 8 and rng.random() < 0.5
    belote = (rng.choice((0, 0, 20, 40)), rng.choice((0, 0, 20)))
    decl = (rng.choice((0, 0, 20, 50, 100)), rng.choice((0, 0, 20, 150)))
    if rng.random() < 0.15:  # 80 reached with a tie: 81 trick points a side (§6.9's litige)
        level, belote, decl, tricks, last, bidder_all = 80, (0, 0), (0, 0), [4, 4], rng.randrange(2), False
        cp0 = 71 if last == 0 else 81
    return Contract(taker, d, level, multiplier), (cp0, 152 - cp0), tuple(tricks), last, belote, decl, bidder_all


@pytest.mark.parametrize("rules", [load_rules(n) for n in COINCHE_PRESETS] + MIXES,
                         ids=list(COINCHE_PRESETS) + [f"mix{i}" for i in range(len(MIXES))])
def test_scoring_kernel_equals_score_coinche_deal(rules):
    """``engine._score_coinche`` against ``scoring.score_coinche_deal`` (single deal: a
    reserve of 0, rounded) on 600 drawn results: every scope, base, capot and générale
    case, prenable belote, declarations, the beat-the-defence test and its litige."""
    rng = random.Random(3)
    opts = rules_codes(rules)
    S = np.zeros((1, NCOL), dtype=np.int64)
    seen = set()
    for _ in range(600):
        contract, cp, tricks, last, belote, decl, bidder_all = _draw_result(rules, rng)
        want = score_coinche_deal(contract, cp, tricks, last, belote, decl, rules, bidder_won_all=bidder_all)
        S[:] = 0
        S[0, COL["taker"]] = contract.taker
        S[0, COL["denomination"]] = contract.denomination
        S[0, COL["auc_bid"]] = coinche_bid_action(contract.level, contract.denomination)
        S[0, COL["multiplier"]] = contract.multiplier
        S[0, COL["points0"]], S[0, COL["points1"]] = cp
        S[0, COL["won0"]], S[0, COL["won1"]] = tricks
        S[0, COL["last_winner"]] = team_seats(last)[0]
        S[0, COL["taker_tricks"]] = 8 if bidder_all else min(tricks[TEAM_OF[contract.taker]], 7)
        engine._score_coinche(S, 0, opts, belote[0], belote[1], decl[0], decl[1])
        got = (int(S[0, COL["deal_points0"]]), int(S[0, COL["deal_points1"]]))
        assert got == want.points, (contract, cp, tricks, last, belote, decl, bidder_all, want)
        assert engine.OUTCOMES[S[0, COL["outcome"]]] == want.outcome
        seen.add(want.outcome)
    assert seen >= {"made", "dedans"} and ("litige" in seen) == (rules.contract_condition != "reach_bid"
                                                                 and rules.tie_with_defence == "litige")


def test_coinche_deal_and_sizes():
    """The 3-2-3 deal of every card (COINCHE.md §2), the auction history sized to the
    bound, masks as wide as ``num_actions``, observations of ``obs_size``."""
    for name in ("coinche", "coinche_bga"):
        rules = load_rules(name)
        g = BatchedGame(4, rules, seed=1)
        assert g.mask.shape == (4, num_actions(rules)) and g.bids.shape[1:] == (g.auction_bound, 2)
        assert encode_batch(g).shape == (4, obs_size(rules)) == (4, COINCHE_OBS_SIZE)
        deck = np.arange(32)[::-1].copy()
        g.deal(np.array([2]), deck[None, :], np.array([3]))
        ref = GameState(rules, dealer=3, deck=deck.tolist(), single_deal=True)
        assert [int(g.state[2, COL["hand0"] + s]) for s in SEATS] == ref.hands
        assert int(g.state[2, COL["turned"]]) == -1
        assert g.mask[2].nonzero()[0].tolist() == list(ref.legal_actions())


def test_every_option_is_played_or_named():
    """Every option of ``Rules`` is either played by the batched engine or knowingly not
    read (the game length); an option it does not play, set away from its default, is
    refused with an error naming it."""
    assert engine.PLAYED_OPTIONS | engine.UNREAD_OPTIONS == set(Rules.option_names())
    BatchedGame(1, Rules(contract_mode="coinche", target=500, rounding="half_up", round_last_deal=True,
                         target_rule="exceed"))


def test_unsupported_option_is_refused_by_name(monkeypatch):
    monkeypatch.setattr(engine, "PLAYED_OPTIONS", engine.PLAYED_OPTIONS - {"generale"})
    BatchedGame(1, Rules(contract_mode="coinche"))  # at its default: fine
    with pytest.raises(RuleOptionError, match="rule option 'generale' = True is not supported by the batched engine"):
        BatchedGame(1, Rules(contract_mode="coinche", generale=True))


@pytest.mark.parametrize("name", ["coinche", "coinche_ffb_coinche_2015", "coinche_bga"])
def test_coinche_observation_ignores_hidden_cards(name):
    """RULES.md §11 in coinche: changing the other seats' hands and the deck leaves each
    seat's observation unchanged."""
    g = BatchedGame(32, load_rules(name), seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        for seat in SEATS:
            want = encode_batch(g, np.full(32, seat))
            saved = g.state.copy(), g.deck.copy()
            for other in SEATS:
                if other != seat:
                    g.state[:, COL["hand0"] + other] = rng.integers(0, 2 ** 32, 32)
                    g.state[:, COL["first_hand0"] + other] = rng.integers(0, 2 ** 32, 32)
            g.deck[:] = rng.integers(0, 32, g.deck.shape)
            got = encode_batch(g, np.full(32, seat))
            g.state[:], g.deck[:] = saved
            np.testing.assert_array_equal(got, want)
        g.step(g.random_actions())


def test_coinche_vector_envs():
    """The three vector envs under coinche rules: observation size ``obs_size(rules)``,
    ``num_actions(rules)`` actions, rewards scaled by ``driver.reward_scale`` (500)."""
    from belote_env.vector import BeloteGymVectorEnv, BeloteSB3VecEnv, BeloteVectorEnv

    rules = load_rules("coinche_bga")  # 412 actions
    size, width, scale = obs_size(rules), num_actions(rules), reward_scale(rules)
    assert (size, width, scale) == (COINCHE_OBS_SIZE, 412, 500)
    env = BeloteVectorEnv(16, rules=rules, observe="all")
    obs, info = env.reset()
    assert obs.shape == (16, 4, size) and info["action_mask"].shape == (16, 4, width)
    assert env.single_action_space.n == width and env.single_observation_space.shape == (size,)
    ended = 0
    for _ in range(200):
        obs, rewards, term, _, info = env.step(env.game.random_actions())
        for j in np.flatnonzero(term):
            us, them = info["deal_points"][j]
            assert rewards[j, 0] == np.float32((us - them) / scale)
            ended += 1
    assert ended > 20
    gym = BeloteGymVectorEnv(8, rules="coinche", seed=2)
    obs, info = gym.reset()
    assert obs.shape == (8, obs_size(gym.rules)) and info["action_mask"].shape == (8, num_actions(gym.rules))
    for _ in range(100):
        obs, rewards, term, _, info = gym.step(np.array([np.flatnonzero(m)[0] for m in gym.action_masks()]))
        for j in np.flatnonzero(term):
            us, them = info["final_info"]["deal_points"][j]
            assert rewards[j] == (us - them) / 500
    pytest.importorskip("stable_baselines3")
    venv = BeloteSB3VecEnv(8, rules=rules, seed=4)
    obs = venv.reset()
    assert obs.shape == (8, size) and venv.action_space.n == width
    for _ in range(100):
        obs, rewards, dones, infos = venv.step(np.array([np.flatnonzero(m)[-1] for m in venv.action_masks()]))
        for j in np.flatnonzero(dones):
            us, them = infos[j]["deal_points"]
            assert rewards[j] == np.float32((us - them) / scale)
            assert infos[j]["terminal_observation"].shape == (size,)


def test_coinche_examples_a3_a5():
    """COINCHE.md §10.2 A3 (partner raise, coinche, surcoinche: 100♠ by seat 2,
    surcoinched) and A5 (capot, coinche: capot♠ by seat 1, coinched), dealer 3."""
    rules = Rules(contract_mode="coinche")
    for bids, taker, level_bid, mult in (
            ([coinche_bid_action(80, 0), coinche_bid_action(90, 1), coinche_bid_action(100, 0), COINCHE, PASS,
              SURCOINCHE], 2, coinche_bid_action(100, 0), 4),
            ([coinche_bid_action(90, 2), coinche_bid_action(CAPOT, 0), PASS, PASS, COINCHE, PASS, PASS], 1,
             coinche_bid_action(CAPOT, 0), 2)):
        g = BatchedGame(1, rules, seed=0)
        g.deal(np.array([0]), np.arange(32)[None, :], np.array([3]))
        for a in bids:
            g.step(np.array([a]))
        s = g.state[0]
        assert (s[COL["taker"]], s[COL["auc_bid"]], s[COL["multiplier"]], s[COL["phase"]]) == (taker, level_bid,
                                                                                                mult, 1)
        assert s[COL["current"]] == 0  # eldest leads whoever holds the contract (COINCHE.md §4)
