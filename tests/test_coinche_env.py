"""Coinche (COINCHE.md) through the engine and the environments: the 3-2-3 deal (§2,
§10.1), whole deals and games under every preset and random option mixes (32 cards, 162
card points, scores that follow §6), belote_v0 / the Gymnasium env under each preset
(PettingZoo's api_test / seed_test, the env checkers), the observation (the auction in
order, the contract), rewards, rendering and the information rule (RULES.md §11)."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from belote_env import belote_v0
from belote_env.actions import COINCHE, PASS, SURCOINCHE, coinche_bid_action, num_actions
from belote_env.config import CLASSIC_ONLY, OPTION_CHOICES, CUTTHROAT_ONLY, Rules, load_rules, preset_names
from belote_env.contract import CAPOT, Contract
from belote_env.dealing import deal_all, deck_from_full_hands
from belote_env.driver import COINCHE_REWARD_SCALE, point_reward, reward_scale
from belote_env.game import GameState, Phase
from belote_env.observation import (
    COINCHE_OBS_SIZE, OBS_SIZE, encode_infoset, obs_size, suit_permutation_index,
)
from belote_env.sampling import sample_hidden_hands
from belote_env.scoring import score_coinche_deal
from belote_env.table import SEATS, TEAM_OF, other_team
from tests.conftest import random_aec_episode
from tests.vector_harness import defined_mix

COINCHE_PRESETS = [n for n in preset_names() if n.startswith("coinche")]
FULL = (1 << 32) - 1


def test_the_nine_profiles_are_presets():
    assert sorted(COINCHE_PRESETS) == sorted(["coinche"] + [f"coinche_{p}" for p in (
        "colver", "ffb_contree_2016", "ffb_contree_2016_note1", "ffb_coinche_2015", "ffb_equipe_ludique",
        "cannes_2016", "pagat", "bga")])
    assert load_rules("coinche") == Rules(contract_mode="coinche")
    for name in COINCHE_PRESETS:
        assert load_rules(name).contract_mode == "coinche"


def test_deal_mapping_10_1():
    """§10.1: dealer 3, eldest 0; packets 3, 2, 3 in the order 0, 1, 2, 3."""
    deck = list(range(32))
    random.Random(3).shuffle(deck)
    hands = deal_all(deck, 3)
    d = deck
    want = [[d[0], d[1], d[2], d[12], d[13], d[20], d[21], d[22]],
            [d[3], d[4], d[5], d[14], d[15], d[23], d[24], d[25]],
            [d[6], d[7], d[8], d[16], d[17], d[26], d[27], d[28]],
            [d[9], d[10], d[11], d[18], d[19], d[29], d[30], d[31]]]
    for seat in SEATS:
        assert hands[seat] == sum(1 << c for c in want[seat])
    g = GameState(Rules(contract_mode="coinche"), dealer=3, deck=deck)
    assert g.hands == hands and g.turned_card == -1 and g.current == 0 and g.phase == Phase.BIDDING
    assert deck_from_full_hands([[c for c in w] for w in want], dealer=3) == deck
    g2 = GameState.from_hands(want, rules=Rules(contract_mode="coinche"), dealer=3)
    assert g2.hands == hands
    with pytest.raises(ValueError, match="no turned card or stock"):
        GameState.from_hands(want, turned=0, rules=Rules(contract_mode="coinche"), dealer=3)


def test_a1_contract_then_play_and_score():
    """A1: 80♥ by seat 0, uncoinched; the deal is played and scored by §6.3."""
    rules = Rules(contract_mode="coinche", target=None)
    g = GameState(rules, dealer=3, seed=5)
    for a in (coinche_bid_action(80, 1), PASS, PASS, PASS):
        g.apply(a)
    assert g.contract.level == 80 and g.contract.denomination == 1 and g.contract.taker == 0
    assert g.contract.multiplier == 1 and g.phase == Phase.PLAY and g.current == 0  # eldest leads
    rng = random.Random(1)
    while not g.is_deal_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    s = g.deal_score
    assert sum(s.trick_points) in (162, 252)
    t = TEAM_OF[0]
    total = s.trick_points[t] + s.belote[t]
    if total >= 80:
        assert s.points[t] == s.trick_points[t] + 80 + s.belote[t]
    else:
        d = other_team(t)
        assert s.points[d] == (252 if s.capot == d else 162) + 80 + s.belote[d] and s.points[t] == s.belote[t]


def test_all_pass_is_void_and_next_dealer_deals():
    """A2: four passes void the deal; seat 0 deals next (``next_dealer``, COINCHE.md §3.6)."""
    g = GameState(Rules(contract_mode="coinche"), dealer=3, seed=1)
    for _ in SEATS:
        g.apply(PASS)
    assert g.void and g.phase == Phase.DEAL_OVER and g.deal_score is None
    g.next_deal()
    assert g.dealer == 0
    g = GameState(Rules(contract_mode="coinche", all_pass_redeal="same_dealer"), dealer=3, seed=1)
    for _ in SEATS:
        g.apply(PASS)
    g.next_deal()
    assert g.dealer == 3


def test_generale_leads_option():
    rules = Rules(contract_mode="coinche", generale=True)
    for leads, want in ((False, 0), (True, 1)):
        g = GameState(rules.replace(generale_leads=leads), dealer=3, seed=2)
        g.apply(PASS)
        g.apply(coinche_bid_action("generale", 0))
        for _ in range(3):
            g.apply(PASS)
        assert g.contract.level == "generale" and g.current == want


def _random_mix(rng):
    opts = {}
    for name, values in OPTION_CHOICES.items():
        if (name in ("contract_mode", "self_overbid", "passes_to_end", "obligations") or name in CLASSIC_ONLY
                or name in CUTTHROAT_ONLY):
            continue
        if rng.random() < 0.3:
            opts[name] = rng.choice(values)
    if rng.random() < 0.2:
        opts.update(passes_to_end=4, self_overbid=rng.choice(["forbidden", "change_denomination"]))
    if rng.random() < 0.2:
        opts["max_numeric_bid"] = rng.choice([170, 250, 650])
    return Rules(contract_mode="coinche", **defined_mix(opts))


@pytest.mark.parametrize("seed", range(6))
def test_property_random_games_under_option_mixes(seed):
    """Random legal play under random option mixes: every card dealt once, 162 card points
    (252 on capot), a deal score equal to ``score_coinche_deal`` of the deal, the contract
    from the auction, games that end with a winner per the target."""
    rng = random.Random(seed)
    for _ in range(8):
        rules = _random_mix(rng).replace(target=rng.choice([None, 600, 2000]))
        g = GameState(rules, seed=rng.randrange(1 << 30), dealer=rng.randrange(4))
        deals = 0
        while not g.is_game_over and deals < 60:
            held = g.hands[0] | g.hands[1] | g.hands[2] | g.hands[3]
            assert held == FULL and sum(h.bit_count() for h in g.hands) == 32
            while not g.is_deal_over:
                legal = g.legal_actions()
                assert legal and len(set(legal)) == len(legal) and all(0 <= a < num_actions(rules) for a in legal)
                g.apply(legal[rng.randrange(len(legal))])
            if not g.void:
                s = g.deal_score
                assert sum(g.card_points) == 152 and sum(g.tricks_won) == 8
                assert sorted(s.trick_points) in ([0, 252], [0, 250]) or sum(s.trick_points) == 162
                assert min(s.points) >= 0
                c = g.contract
                assert c.taker == g.taker and c.multiplier in (1, 2, rules.surcoinche_multiplier)
                deals += 1
            if g.is_game_over:
                break
            g.next_deal()
        if g.is_game_over and rules.target is not None:
            assert g.winner in (0, 1, None)
            if g.winner is not None:
                assert g.scores[g.winner] >= g.scores[other_team(g.winner)]


def test_scores_follow_the_contract_default_profile():
    """Under the default profile a played deal scores exactly §6.3-§6.5."""
    rules = Rules(contract_mode="coinche", target=None)
    rng = random.Random(8)
    seen = set()
    for _ in range(300):
        g = GameState(rules, seed=rng.randrange(1 << 30), dealer=rng.randrange(4))
        while not g.is_deal_over:
            legal = g.legal_actions()
            bids = [a for a in legal if a not in (PASS,)]
            p = 0.5 if len(g.auction.history) < 1 else 0.1
            a = (rng.choice(bids) if bids and rng.random() < p else PASS) if g.phase == Phase.BIDDING else rng.choice(legal)
            g.apply(a)
        if g.void:
            continue
        s, c = g.deal_score, g.contract
        t, d = TEAM_OF[c.taker], other_team(TEAM_OF[c.taker])
        v = 250 if c.level == CAPOT else c.level
        made = (s.capot == t) if c.level == CAPOT else s.trick_points[t] + s.belote[t] >= v
        seen.add((made, c.multiplier))
        if made and c.multiplier == 1:
            assert s.points[t] == s.trick_points[t] + v + s.belote[t] and s.points[d] == s.trick_points[d] + s.belote[d]
        elif made:
            base = 252 if s.capot == t else 162
            assert s.points[t] == base + v * c.multiplier + s.belote[t] and s.points[d] == s.belote[d]
        else:
            base = 252 if s.capot == d else 162
            assert s.points[d] == base + v * c.multiplier + s.belote[d] and s.points[t] == s.belote[t]
    assert {(True, 1), (False, 1), (False, 2)} <= seen


# ------------------------------------------------------------------ environments
ENV_CONFIGS = [{"rules": name} for name in COINCHE_PRESETS] + [
    {"rules": "coinche", "episode": "game", "target": 600},
    {"rules": "coinche", "obs_mode": "history"},
    {"rules": "coinche", "generale": True, "max_numeric_bid": 250, "belote": "optional", "declarations": "choice"},
]


@pytest.mark.parametrize("cfg", ENV_CONFIGS, ids=["-".join(f"{k}={v}" for k, v in c.items()) for c in ENV_CONFIGS])
def test_api_seed_render_coinche(cfg):
    api_test(belote_v0.env(**cfg), num_cycles=200, verbose_progress=False)
    seed_test(lambda **kw: belote_v0.env(**cfg, **kw), num_cycles=40)
    render_test(lambda render_mode=None: belote_v0.env(render_mode=render_mode, **cfg))


def test_spaces_follow_the_rules():
    env = belote_v0.raw_env(rules="coinche")
    assert env.observation_space("player_0")["observation"].shape == (COINCHE_OBS_SIZE,)
    assert env.action_space("player_0").n == 112
    big = belote_v0.raw_env(rules="coinche", generale=True)
    assert big.action_space("player_0").n == 412
    assert big.observation_space("player_0")["action_mask"].shape == (412,)
    assert obs_size(Rules()) == OBS_SIZE and belote_v0.raw_env().action_space("player_0").n == 112


def test_rewards_are_the_scaled_score_difference():
    env = belote_v0.raw_env(rules="coinche")
    rng = random.Random(4)
    for _ in range(60):
        env.reset(seed=rng.randrange(1 << 30))
        totals = random_aec_episode(env, rng)
        s = env.game.deal_score
        d = 0 if s is None else s.difference(0)
        assert totals["player_0"] == pytest.approx(d / COINCHE_REWARD_SCALE)
        assert totals["player_1"] == pytest.approx(-d / COINCHE_REWARD_SCALE)


def test_scaled_reward_examples_of_the_env_docstring():
    """The two examples of ``belote_env.env``'s docstring (COINCHE.md §6): a plain 80 made
    with 81 card points scores 161 against the defenders' 81 (+0.16); a failed 160
    coinched gives the defenders 2 x (160 + 160) + 162 = 482 (-0.964)."""
    rules = load_rules("coinche")
    made = score_coinche_deal(Contract(0, 0, 80, 1), (71, 81), (4, 4), 0, rules=rules)
    failed = score_coinche_deal(Contract(0, 0, 160, 2), (80, 72), (4, 4), 0, rules=rules)
    assert made.points == (161, 81) and failed.points == (0, 482)
    assert point_reward(made.difference(0), "scaled", reward_scale(rules)) == pytest.approx(0.16)
    assert point_reward(failed.difference(0), "scaled", reward_scale(rules)) == pytest.approx(-0.964)


def test_observation_holds_the_auction_in_order_and_the_contract():
    g = GameState(Rules(contract_mode="coinche"), dealer=3, seed=9)
    for a in (coinche_bid_action(80, 0), coinche_bid_action(90, 1), coinche_bid_action(100, 0), COINCHE, PASS,
              SURCOINCHE):
        g.apply(a)
    assert g.contract.level == 100 and g.contract.multiplier == 4 and g.contract.taker == 2
    from belote_env.observation import _C_OFFSET, _SLOT
    obs = encode_infoset(g.information_set(1))  # seat 1: seat 0 is relative 3, seat 2 relative 1
    seq = _C_OFFSET["auction_seq"]
    # event 0: seat 0 (relative 3) bid 80 spades
    assert obs[seq + 3] == 1 and obs[seq + 4 + 1] == 1 and obs[seq + 8] == pytest.approx(80 / 160)
    assert obs[seq + 9 + 0] == 1
    # event 3: seat 3 (relative 2) coinched; event 5: seat 2 (relative 1) surcoinched
    assert obs[seq + 3 * _SLOT + 2] == 1 and obs[seq + 3 * _SLOT + 4 + 2] == 1
    assert obs[seq + 5 * _SLOT + 1] == 1 and obs[seq + 5 * _SLOT + 4 + 3] == 1
    assert obs[_C_OFFSET["high_level"]] == pytest.approx(100 / 160)
    assert obs[_C_OFFSET["high_denom"]] == 1 and obs[_C_OFFSET["high_bidder"] + 1] == 1
    assert obs[_C_OFFSET["coinche"] + 2] == 1 and obs[_C_OFFSET["coincher"] + 2] == 1
    assert obs[_C_OFFSET["auction_len"]] == pytest.approx(6 / 36)


def test_suit_permutation_renames_the_coinche_blocks():
    """Renaming the suits of the deal renames the observation (the coinche blocks too)."""
    perm = (2, 0, 3, 1)
    obs_index, _ = suit_permutation_index(perm, COINCHE_OBS_SIZE)
    rename = lambda c: perm[c >> 3] * 8 + (c & 7)  # noqa: E731
    deck = list(range(32))
    random.Random(6).shuffle(deck)
    a = GameState(Rules(contract_mode="coinche"), dealer=3, deck=deck)
    b = GameState(Rules(contract_mode="coinche"), dealer=3, deck=[rename(c) for c in deck])
    rng = random.Random(2)
    while not a.is_deal_over:
        for seat in SEATS:
            oa, ob = encode_infoset(a.information_set(seat)), encode_infoset(b.information_set(seat))
            assert np.array_equal(oa[obs_index], ob)
        legal = a.legal_actions()
        x = legal[rng.randrange(len(legal))]
        if x < 32:
            y = rename(x)
        elif 40 <= x < 100:
            d = (x - 40) % 6
            y = x - d + (perm[d] if d < 4 else d)
        else:
            y = x
        a.apply(x)
        b.apply(y)


@pytest.mark.parametrize("name", ["coinche", "coinche_pagat", "coinche_bga", "coinche_ffb_coinche_2015"])
def test_information_rule_with_resampled_hidden_hands(name):
    """At every decision, a state differing only in the other seats' hidden cards gives the
    acting seat identical observations (both modes), masks and infos (RULES.md §11)."""
    envs = {m: belote_v0.raw_env(rules=name, obs_mode=m) for m in ("infoset", "history")}
    rng = random.Random(13)
    checked = 0
    for _ in range(25):
        seed = rng.randrange(1 << 30)
        for e in envs.values():
            e.reset(seed=seed)
        env = envs["infoset"]
        while not env.game.is_deal_over:
            g = env.game
            seat = g.current
            agent = env.agent_selection
            deal = sample_hidden_hands(g.information_set(seat), rng)
            alt = g.clone()
            for s in SEATS:
                if s != seat:
                    alt.hands[s] = deal.hands[s]
            alt._legal = None
            for mode, e in envs.items():
                base = e.observe(agent)
                real = e.game
                e.game = alt
                other = e.observe(agent)
                e.game = real
                assert np.array_equal(base["observation"], other["observation"]), mode
                assert np.array_equal(base["action_mask"], other["action_mask"])
            assert g.information_set(seat) == alt.information_set(seat)
            checked += 1
            legal = g.legal_actions()
            a = legal[rng.randrange(len(legal))]
            for e in envs.values():
                e.step(a)
            assert envs["infoset"].infos == envs["history"].infos
    assert checked > 300


def test_render_shows_the_auction_and_the_contract():
    env = belote_v0.raw_env(rules="coinche", render_mode="ansi")
    env.reset(seed=3)
    g = env.game
    env.step(coinche_bid_action(90, 1))
    text = env.render()
    assert "bid 90 hearts" in text
    for _ in range(3):
        env.step(PASS)
    text = env.render()
    assert "Contract: 90 hearts" in text and "turned" not in text.lower()
    assert g.contract.level == 90


def test_score_coinche_deal_is_what_the_engine_uses():
    """One deal checked by hand: the engine's deal score equals score_coinche_deal of its
    tricks (the rule lives in scoring.py)."""
    rules = Rules(contract_mode="coinche", target=None)
    g = GameState(rules, seed=21, dealer=3)
    g.apply(coinche_bid_action(80, 0))
    for _ in range(3):
        g.apply(PASS)
    rng = random.Random(0)
    while not g.is_deal_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    want = score_coinche_deal(g.contract, tuple(g.card_points), tuple(g.tricks_won), TEAM_OF[g.tricks[-1][2]],
                              g.deal_score.belote, g.deal_score.declarations, rules,
                              bidder_won_all=all(t[2] == g.taker for t in g.tricks))
    assert g.deal_score == want


@pytest.mark.filterwarnings("ignore:.*illegal action")
@pytest.mark.parametrize("name", COINCHE_PRESETS)
def test_gymnasium_and_sb3_env_checkers_under_each_preset(name):
    import gymnasium
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    from belote_env.gym_env import BeloteGymEnv
    from policies.gym import NamedGymEnv

    env = gymnasium.make("Belote-v0", opponents="normal", rules=name).unwrapped
    check_env(env, skip_render_check=True)
    assert env.observation_space.shape == (COINCHE_OBS_SIZE,) and env.action_space.n == num_actions(env.rules)
    sb3_check_env(NamedGymEnv(opponents="random", rules=name))
    check_env(BeloteGymEnv(obs_mode="history", learner="team", rules=name), skip_render_check=True)
