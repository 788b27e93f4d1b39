"""The coinche hard tier (``policies/models/hard_coinche``, docs/experiments/hard_coinche.md)
and the oracle pipeline under coinche rules (``training.oracle``).

* the shipped model loads with torch alone from safetensors + JSON, and records its
  contract mode and observation size;
* it plays only legal actions in coinche deals under the default rules and the presets of
  the same observation size and action count; presets with extended ids (générale, bids
  above 160: ``num_actions`` 412) are refused with an error naming why;
* ``make_policy("hard")`` plays the model of the rules' contract mode; a classic model
  refuses coinche information sets (and the reverse) with an error naming the mismatch;
* the pipeline's coinche card labels equal the coinche deal scores
  (``score_coinche_deal``) of the solver's exact points on a hand-checked position; its
  bid labels are the rollouts of the documented candidate bids.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import torch

from belote_env import GameState, Rules
from belote_env.actions import COINCHE, DECLARE, PASS, SURCOINCHE, coinche_bid_action, num_actions
from belote_env.cards import parse_card
from belote_env.config import load_rules, preset_names
from belote_env.contract import Contract
from belote_env.driver import finish_deal
from belote_env.observation import COINCHE_OBS_SIZE, OBS_SIZE, obs_size
from belote_env.scoring import score_coinche_deal
from belote_env.solver import Solver
from belote_env.table import team_of
from policies import make_policy
from policies.hard import HARD_COINCHE_MODEL_DIR, HARD_MODEL_DIR, HardPolicy
from policies.network import (
    COINCHE_BID_ACTIONS, BeloteNet, CheckpointError, NetworkPolicy, RulesMismatchError, load_model,
    save_model, save_value_policy_meta,
)
from training.oracle import (
    coinche_rollout_candidates, fit_bid_values, fit_card_values, generate_bid_data, generate_oracle_data,
    oracle_card_values, value_unit,
)

CO = load_rules("coinche")
#: the coinche presets of the default's observation size and action count (played), and
#: those with extended ids (refused)
PLAYED = [n for n in preset_names() if load_rules(n).contract_mode == "coinche"]
EXTENDED = [n for n in PLAYED if num_actions(load_rules(n)) != 112]  # coinche_bga: bids above 160


@pytest.fixture(scope="module")
def hard_coinche():
    return NetworkPolicy.from_path(HARD_COINCHE_MODEL_DIR, name="hard")


# ------------------------------------------------------------------ the shipped model
def test_model_folder_is_safetensors_and_json_only():
    files = sorted(p.relative_to(HARD_COINCHE_MODEL_DIR).as_posix() for p in HARD_COINCHE_MODEL_DIR.rglob("*")
                   if p.is_file())
    assert files == ["bids/meta.json", "bids/model.safetensors", "cards/meta.json", "cards/model.safetensors",
                     "iterate.json", "meta.json"]  # iterate.json: how policy iteration made its cards/ (docs/models)
    assert sum(p.stat().st_size for p in HARD_COINCHE_MODEL_DIR.rglob("*") if p.is_file()) < 8 * 2 ** 20
    meta = json.loads((HARD_COINCHE_MODEL_DIR / "meta.json").read_text())
    assert meta["kind"] == "value_policy" and meta["contract_mode"] == "coinche"
    assert meta["obs_size"] == COINCHE_OBS_SIZE and meta["rules"]["contract_mode"] == "coinche"
    for sub, kind in (("cards", "card_values"), ("bids", "bid_values")):
        net, m = load_model(HARD_COINCHE_MODEL_DIR / sub, "coinche")  # torch + safetensors + json only
        assert m["kind"] == kind and m["contract_mode"] == "coinche" and m["obs_size"] == COINCHE_OBS_SIZE
        assert net.obs_size == COINCHE_OBS_SIZE and m["value_unit"] == 500
        assert m["rules"]["contract_mode"] == "coinche"
    bids = json.loads((HARD_COINCHE_MODEL_DIR / "bids" / "meta.json").read_text())["bid_actions"]
    assert PASS in bids and set(bids) <= set(COINCHE_BID_ACTIONS)


def test_loads_as_a_value_policy(hard_coinche):
    assert hard_coinche.net is None and hard_coinche.contract_mode == "coinche"
    assert hard_coinche.card_net is not None and hard_coinche.bid_net is not None
    assert hard_coinche.suit_average and hard_coinche.bid_suit_average
    assert hard_coinche.card_unit == 500 == hard_coinche.bid_unit


def _play(rules, policies, deals, seed):
    """Deals played to their end, every decision checked legal; the contracts reached."""
    rng = random.Random(seed)
    contracts = []
    for d in range(deals):
        st = GameState(rules, rng=rng, dealer=d % 4, single_deal=True)

        def check(st, info, pol):
            a = pol.act(info)
            assert a in info.legal_actions, (pol.name, a, info.legal_actions)
            return a

        finish_deal(st, policies, check)
        contracts.append(st.contract)
    return contracts


@pytest.mark.parametrize("preset", PLAYED)
def test_plays_only_legal_actions(preset, hard_coinche):
    normal = make_policy("normal", seed=1)
    n = 6 if preset == "coinche" else 2
    contracts = _play(load_rules(preset), [hard_coinche, normal, hard_coinche, normal], n, seed=3)
    contracts += _play(load_rules(preset), [normal, hard_coinche, normal, hard_coinche], n, seed=4)
    if preset == "coinche":
        assert any(c is not None for c in contracts)


def test_extended_ids_are_never_bid_and_other_seats_extended_bids_are_read(hard_coinche):
    """Coinche rules of 412 action ids (``coinche_bga``: bids up to 170; a générale): the
    model plays them with the ids it knows, never a générale or a bid above 160; after
    another seat bids one it answers from an observation holding that level (not the
    same as after a bid of 160), and its batched decisions over 412-wide masks are its
    one-row decisions."""
    from belote_env.actions import EXTENDED_NUM_ACTIONS, GENERALE, HIGH_BID
    from belote_env.observation import level_value
    from policies.network import coinche_bid_rows
    from policies.search import _ViewBatch

    assert EXTENDED
    sets = [load_rules(p, target=None) for p in EXTENDED] + [load_rules("coinche", target=None, generale=True)]
    read = 0
    for rules in sets:
        assert num_actions(rules) == EXTENDED_NUM_ACTIONS
        high = HIGH_BID + 1 if rules.max_numeric_bid >= 170 else coinche_bid_action(GENERALE, 1)  # 170♥ / générale ♥
        for seed in range(4):
            st = GameState(rules, seed=seed, dealer=3, single_deal=True)
            infos = []
            while st.phase == 0:
                info = st.information_set(st.current)
                a = hard_coinche.act(info)
                assert a in info.legal_actions and a < 112  # never an extended id
                infos.append(info)
                st.apply(a)
            batch = _ViewBatch(infos)
            assert batch.mask.shape == (len(infos), EXTENDED_NUM_ACTIONS)
            assert hard_coinche.act_batch(batch).tolist() == [hard_coinche.act(i) for i in infos]
            # the bid-value network takes every auction row (batched) and spreads its probabilities
            rows, _ = coinche_bid_rows(batch.obs, batch.mask != 0, hard_coinche.bid_actions)
            assert rows.tolist() == [len(i.legal_actions) > 1 for i in infos]
            for info in infos:
                if len(info.legal_actions) > 1:
                    probs = hard_coinche.action_probabilities(info)
                    values = hard_coinche.bid_values(info)
                    assert set(probs) == set(info.legal_actions) and max(probs.values()) < 1.0
                    assert all(probs[a] == 0.0 for a in info.legal_actions if a >= 112)
                    assert max(probs, key=probs.get) == max(values, key=values.get)
            # seat 0 opens with the extended bid; seat 1 (a defender) answers it
            st = GameState(rules, seed=seed, dealer=3, single_deal=True)
            st.apply(high)
            info = st.information_set(st.current)
            assert hard_coinche.act(info) in info.legal_actions
            obs = hard_coinche._encode(info).copy()
            low = GameState(rules, seed=seed, dealer=3, single_deal=True)
            low.apply(coinche_bid_action(160, 1))
            read += not np.array_equal(obs, hard_coinche._encode(low.information_set(low.current)))
            finish_deal(st, [hard_coinche] * 4)  # its cards under a contract above 160
            assert st.is_deal_over
        assert level_value(GENERALE) == 500 / 160
    assert read == 4 * len(sets)


def test_make_policy_hard_picks_by_rules():
    hard = make_policy("hard")
    assert isinstance(hard, HardPolicy) and hard.contract_mode == "classic"
    assert hard.for_rules(Rules()) is hard
    co = hard.for_rules(CO)
    assert co.contract_mode == "coinche" and co.net is None and hard.for_rules(CO) is co
    normal = make_policy("normal")
    _play(Rules(), [hard, normal, hard, normal], 2, seed=5)
    _play(CO, [hard, normal, hard, normal], 2, seed=5)
    st = GameState(CO, seed=9, dealer=0, single_deal=True)
    info = st.information_set(st.current)
    assert hard.act(info) == co.act(info)
    assert hard.action_probabilities(info) == co.action_probabilities(info)


def test_classic_model_refuses_coinche_and_the_reverse(hard_coinche):
    classic = NetworkPolicy.from_path(HARD_MODEL_DIR)
    st = GameState(CO, seed=1, dealer=0, single_deal=True)
    with pytest.raises(RulesMismatchError, match="classic model .* cannot play coinche rules"):
        classic.act(st.information_set(st.current))
    with pytest.raises(RulesMismatchError, match="classic model .* cannot play coinche rules"):
        classic.action_probabilities(st.information_set(st.current))
    st = GameState(Rules(), seed=1, dealer=0, single_deal=True)
    with pytest.raises(RulesMismatchError, match="coinche model .* cannot play classic rules"):
        hard_coinche.act(st.information_set(st.current))
    with pytest.raises(RulesMismatchError, match="a classic model .* asked for coinche rules"):
        load_model(HARD_MODEL_DIR, "coinche")
    with pytest.raises(RulesMismatchError, match="a coinche model .* asked for classic rules"):
        load_model(HARD_COINCHE_MODEL_DIR / "cards", "classic")
    with pytest.raises(RulesMismatchError):
        HardPolicy(model_dir=HARD_COINCHE_MODEL_DIR / "cards")


def test_meta_mode_must_match_the_network(tmp_path):
    net = BeloteNet(obs_size=COINCHE_OBS_SIZE, pi=[4], vf=[4])
    folder = save_model(tmp_path / "m", net.state_dict(), net.config)
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["contract_mode"] == "coinche" and meta["obs_size"] == COINCHE_OBS_SIZE
    meta["contract_mode"] = "classic"
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="contract_mode 'classic' but the network reads 1141"):
        load_model(folder)
    classic = BeloteNet(pi=[4], vf=[4])
    assert json.loads((save_model(tmp_path / "c", classic.state_dict(), classic.config) / "meta.json")
                      .read_text())["contract_mode"] == "classic"
    # a value-policy folder whose card network is classic
    save_value_policy_meta(tmp_path / "v", CO)
    save_model(tmp_path / "v" / "cards", classic.state_dict(), classic.config,
               {"kind": "card_values", "suit_average": False})
    with pytest.raises(RulesMismatchError, match="classic model .* asked for coinche"):
        NetworkPolicy.from_path(tmp_path / "v")
    with pytest.raises(CheckpointError, match="value networks only"):
        load_model(tmp_path / "v")


def test_rule_action_announces():
    """Without a policy network the decisions the value networks do not make follow the
    documented rule: declare (``declarations: choice``) when legal."""
    pol = NetworkPolicy(None, card_net=BeloteNet(obs_size=COINCHE_OBS_SIZE, pi=[8], vf=[4]))
    normal = make_policy("normal")
    rules = CO.replace(declarations="choice")
    rng = random.Random(2)
    seen = 0
    for d in range(40):
        st = GameState(rules, rng=rng, dealer=d % 4, single_deal=True)

        def check(st, info, p):
            nonlocal seen
            a = p.act(info)
            assert a in info.legal_actions
            if p is pol and DECLARE in info.legal_actions:
                seen += 1
                assert a == DECLARE and pol.action_probabilities(info)[DECLARE] == 1.0
            return a

        finish_deal(st, [pol, normal, pol, normal], check)
    assert seen


# ------------------------------------------------------------------ the pipeline under coinche
HANDS = [["JS", "9S", "AS", "10S", "AH", "10H", "KD", "AC"], ["7S", "8S", "KH", "QH", "JH", "AD", "10D", "7C"],
         ["QS", "KS", "9H", "8H", "QD", "JD", "10C", "KC"], ["7H", "9D", "8D", "7D", "QC", "JC", "9C", "8C"]]
PLAY = "JS 7S QS 7H  9S 8S KS 7D  AH JH 8H 8D  10H QH 9H 9D  AC 7C KC 8C  10S KH 10C 9C".split()


def _position() -> GameState:
    """Dealer 3: South bids 160 spades, West coinches, North and South pass (160♠ x2 by
    South); six tricks played (South-North 106 card points, belote 20 from North's K♠ Q♠;
    East-West 0). South leads trick 7 holding A♠ K♦; West A♦ 10♦, North Q♦ J♦, East Q♣ J♣."""
    st = GameState.from_hands(HANDS, rules=CO, dealer=3, single_deal=True)
    for a in (coinche_bid_action(160, 0), COINCHE, PASS, PASS):
        st.apply(a)
    for c in PLAY:
        st.apply(parse_card(c))
    return st


def test_card_labels_on_a_hand_checked_position():
    st = _position()
    assert st.contract == Contract(taker=0, denomination=0, level=160, multiplier=2)
    assert st.current == 0 and tuple(st.card_points) == (106, 0)
    info = st.information_set(0)
    assert sorted(info.legal_actions) == sorted(parse_card(c) for c in ("AS", "KD"))
    # by hand: K♦ first loses it to A♦ (trick 7: K♦ A♦ J♦ Q♣ = 20 to West) and the A♠ takes
    # the last trick (A♠ 10♦ Q♦ J♣ = 26 + 10) : 106 + 36 = 142 + belote 20 = 162 >= 160,
    # made coinched: 162 + 160 x 2 + 20 = 502 against 0. A♠ first: trick 7 (A♠ 10♦ Q♦ J♣ =
    # 26) but West's A♦ takes the last one (K♦ A♦ J♦ Q♣ + 10 = 30): 132 + 20 = 152 < 160,
    # failed: South-North keep their belote 20, East-West 162 + 160 x 2 = 482.
    made = score_coinche_deal(st.contract, (132, 20), (7, 1), 0, (20, 0), rules=CO)
    failed = score_coinche_deal(st.contract, (132, 20), (7, 1), 1, (20, 0), rules=CO)
    assert made.points == (502, 0) and failed.points == (20, 482)
    want = {parse_card("KD"): made.difference(0), parse_card("AS"): failed.difference(0)}
    assert want == {parse_card("KD"): 502, parse_card("AS"): -462}
    pts = {}
    assert oracle_card_values(st, Solver(), points=pts) == want
    # the trick-point tie-break labels: ours less theirs, 142 - 20 and 132 - 30
    assert pts == {parse_card("KD"): 122, parse_card("AS"): 102}
    # the same labels through generate_oracle_data's scaling: / value_unit (500 in coinche)
    assert value_unit(CO) == 500 and value_unit(Rules()) == 162


def test_generate_oracle_data_coinche():
    d = generate_oracle_data(3, 7, CO, behaviour=("normal",))
    n = len(d["q"])
    assert n > 0 and d["obs"].shape == (n, COINCHE_OBS_SIZE) and d["mask"].shape == (n, 32)
    assert d["mask"].sum(1).min() >= 2 and np.abs(d["q"]).max() <= 1300 / 500
    net = BeloteNet(obs_size=COINCHE_OBS_SIZE, pi=[16], vf=[4])
    r = fit_card_values(net, d, epochs=1, augment=True)
    assert r["value_unit"] == 500 and r["point_weight"] == 0
    assert d["points"].shape == (n, 32) and not d["points"][~d["mask"]].any()
    assert fit_card_values(net, d, epochs=1, point_weight=0.25)["point_weight"] == 0.25
    with pytest.raises(ValueError, match="needs data\\['points'\\]"):
        fit_card_values(net, {k: v for k, v in d.items() if k != "points"}, epochs=1, point_weight=0.25)
    with pytest.raises(ValueError, match="observations must be"):
        fit_card_values(BeloteNet(pi=[4], vf=[4]), {k: v[:, :100] if k == "obs" else v for k, v in d.items()})


def test_rollout_candidates():
    # the opening: pass, every denomination's 80..110 and capot
    legal = [PASS] + [coinche_bid_action(v, s) for v in (80, 90, 100, 110, 120, 130, 140, 150, 160, "capot")
                      for s in range(4)]
    got = coinche_rollout_candidates(legal)
    assert got == [PASS] + [coinche_bid_action(v, s) for v in (80, 90, 100, 110) for s in range(4)] + [
        coinche_bid_action("capot", s) for s in range(4)]
    # over 150 spades by an opponent: 160, capot, coinche
    legal = [PASS] + [coinche_bid_action(160, s) for s in range(4)] + [
        coinche_bid_action("capot", s) for s in range(4)] + [COINCHE]
    assert coinche_rollout_candidates(legal) == sorted(legal)
    assert coinche_rollout_candidates([PASS, SURCOINCHE]) == [PASS, SURCOINCHE]


def test_generate_bid_data_coinche():
    d = generate_bid_data(4, 11, CO, behaviour=("normal",))
    n = len(d["q"])
    assert n > 0 and d["obs"].shape == (n, COINCHE_OBS_SIZE) and d["mask"].shape == (n, len(COINCHE_BID_ACTIONS))
    ids = {COINCHE_BID_ACTIONS[j] for j in np.flatnonzero(d["mask"].any(0))}
    assert PASS in ids and not ids & set(range(33, 40))
    net = BeloteNet(obs_size=COINCHE_OBS_SIZE, pi=[16], vf=[4])
    r = fit_bid_values(net, d, epochs=1, augment=True)
    assert r["value_unit"] == 500 and set(r["bid_actions"]) >= ids


def test_bid_labels_are_rollouts():
    """A label is the deal played out after the bid by the behaviour policies."""
    normal = make_policy("normal", seed=5)  # _data_setup seeds the one behaviour policy with seed + 0
    d = generate_bid_data(1, 5, CO, behaviour=("normal",))
    # replay the deal: seed 5's RNG draws the deal, then each seat's policy (one to draw from)
    rng = random.Random(5)
    st = GameState(CO, rng=rng, dealer=0, single_deal=True)
    first = st.clone()
    info = first.information_set(first.current)
    if len(d["q"]) == 0:
        pytest.skip("the deal had no bidding decision with a choice")
    assert np.allclose(d["obs"][0], _obs(info), atol=1e-3)
    row = d["q"][0]
    for a in coinche_rollout_candidates(info.legal_actions):
        c = first.clone()
        c.apply(a)
        finish_deal(c, [normal] * 4)
        want = 0 if c.void else c.deal_score.difference(team_of(info.seat))
        assert row[a - PASS] == pytest.approx(want / 500), a


def _obs(info):
    from belote_env.observation import encode_infoset

    return encode_infoset(info).astype(np.float16)


def test_obs_sizes():
    assert obs_size(CO) == COINCHE_OBS_SIZE and obs_size(Rules()) == OBS_SIZE


def test_a_coinche_policy_network_plays_the_extended_action_table_with_its_own_ids():
    """A coinche model with a policy network (112 outputs, e.g. exported by the trainer)
    under coinche_bga (412 ids): the extended ids get probability 0, the others share 1,
    and a whole deal is played with legal ids below 112, deterministic or sampled."""
    from belote_env.driver import finish_deal

    torch.manual_seed(0)
    net = BeloteNet(obs_size=COINCHE_OBS_SIZE, pi=[8], vf=[4])
    rules = load_rules("coinche_bga", target=None)
    for deterministic in (True, False):
        pol = NetworkPolicy(net, deterministic=deterministic, seed=1)
        st = GameState(rules, seed=5, dealer=0, single_deal=True)
        info = st.information_set(st.current)
        probs = pol.action_probabilities(info)
        assert set(probs) == set(info.legal_actions) and any(a >= 112 for a in probs)
        assert all(p == 0.0 for a, p in probs.items() if a >= 112)
        assert sum(probs.values()) == pytest.approx(1.0)
        seen = []
        finish_deal(st, [pol] * 4, after=lambda st, seat, a: seen.append(a))
        assert st.is_deal_over and seen and max(seen) < 112
