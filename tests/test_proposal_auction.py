"""Bid values at two and three seats (training.oracle.generate_bid_data, fit_bid_values;
policies.network.NetworkPolicy with a small-table bids/ network)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import torch

from belote_env import Rules
from belote_env.actions import NAME_CONTRACT, PASS, PROPOSE_REDEAL, PROPOSAL_NUM_ACTIONS, TAKE
from belote_env.config import load_rules
from belote_env.game import GameState
from belote_env.observation import CUTTHROAT_OBS_SIZE
from policies import make_policy
from policies.network import (BID_VALUES_KIND, BIDS_SUBDIR, PROPOSAL_BID_ACTIONS, BeloteNet, NetworkPolicy,
                              is_proposal_bid_decision, save_model)
from training.oracle import fit_bid_values, generate_bid_data, proposal_bid_rollout_values

R2 = load_rules("seed001_2p")
R3 = load_rules("seed001_3p")


def _margin(st, seat):
    return 0.0 if st.void else st.deal_score.difference(seat)


def _play_out(st, pols):
    """The deal played to its end explicitly (no driver), returned."""
    while not st.is_deal_over:
        st.apply(pols[st.current].act(st.information_set(st.current)))
    return st


def test_small_bid_decision_predicate():
    st = GameState(R2, rng=random.Random(3), dealer=0, single_deal=True)
    info = st.information_set(st.current)
    assert set(info.legal_actions) >= {PASS, TAKE} and is_proposal_bid_decision(info)
    assert list(PROPOSAL_BID_ACTIONS) == [PASS, TAKE] + [NAME_CONTRACT + s for s in range(4)]


def test_labels_equal_played_out_margins_hand_built():
    # seat 1 (the elder) holds the jack, nine and ace of the turned suit (hearts)
    st = GameState.from_hands([["7C", "8C", "9C", "TC", "7D", "8D"], ["JH", "9H", "AH", "AS", "TS", "KS"]],
                              "7H", [["8H", "JC", "QC"], ["KH", "AD", "QS"]], R2, bottom="9D", dealer=0,
                              single_deal=True)
    info = st.information_set(st.current)
    assert is_proposal_bid_decision(info)
    pols = [make_policy("normal"), make_policy("normal")]
    vals = proposal_bid_rollout_values(st, pols)
    legal = [a for a in info.legal_actions if a in PROPOSAL_BID_ACTIONS]
    assert sorted(vals) == legal and PROPOSE_REDEAL not in vals
    for a in legal:
        c = st.clone()
        c.apply(a)
        assert vals[a] == _margin(_play_out(c, pols), info.seat)
    assert vals[TAKE] > 0  # the elder makes a strong contract
    assert proposal_bid_rollout_values(st, pols, rollouts=3) == vals  # deterministic: repeats change nothing
    assert proposal_bid_rollout_values(st, pols, skip=(PASS,)).keys() == set(legal) - {PASS}


@pytest.mark.parametrize("rules", [R2, R3])
def test_generated_rows_equal_played_out_margins(rules):
    n = rules.players
    seed, deals = 5, 6
    data = generate_bid_data(deals, seed, rules, ["normal"])
    assert data["obs"].shape == (len(data["q"]), CUTTHROAT_OBS_SIZE[n]) and data["obs"].dtype == np.float16
    assert data["mask"].shape == data["q"].shape == (len(data["q"]), 6)
    # the same deals, replayed: each contract decision's row is every legal bid's explicit margin
    rng = random.Random(seed)
    pol = make_policy("normal")
    rows = []
    for d in range(deals):
        st = GameState(rules, rng=rng, dealer=d % n, single_deal=True)
        [rng.randrange(1) for _ in range(n)]  # the draw of each seat's behaviour
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if is_proposal_bid_decision(info):
                row = {}
                for a in info.legal_actions:
                    if a in PROPOSAL_BID_ACTIONS:
                        c = st.clone()
                        c.apply(a)
                        row[a] = _margin(_play_out(c, [pol] * n), info.seat) / 162
                rows.append(row)
            st.apply(pol.act(info))
    assert len(rows) == len(data["q"]) > 0
    for row, m, q in zip(rows, data["mask"], data["q"]):
        assert {PASS + j for j in np.flatnonzero(m)} == set(row)
        for a, v in row.items():
            assert q[a - PASS] == pytest.approx(v, abs=1e-6)


def test_rollouts_argument():
    with pytest.raises(ValueError, match="rollouts"):
        generate_bid_data(1, 0, R2, ["normal"], rollouts=0)
    with pytest.raises(ValueError, match="rollouts"):
        generate_bid_data(1, 0, Rules(), ["normal"], rollouts=2)  # four seats: each bid once
    a = generate_bid_data(3, 1, R2, ["normal"])
    b = generate_bid_data(3, 1, R2, ["normal"], rollouts=2)
    assert np.array_equal(a["mask"], b["mask"]) and np.allclose(a["q"], b["q"])


def _small_net(seed=0):
    torch.manual_seed(seed)
    return BeloteNet(obs_size=CUTTHROAT_OBS_SIZE[2], n_actions=PROPOSAL_NUM_ACTIONS, pi=[32], vf=[8])


def test_tiny_fit():
    data = generate_bid_data(40, 2, R2, ["normal"])
    net = _small_net()
    r = fit_bid_values(net, data, epochs=2, batch=64)
    assert r["bid_actions"] and set(r["bid_actions"]) <= set(PROPOSAL_BID_ACTIONS) and r["value_unit"] == 162.0
    assert len(r["history"]) == 2 and np.isfinite(r["history"][-1]["valid_loss"])
    with pytest.raises(ValueError, match="augment"):
        fit_bid_values(_small_net(), data, epochs=1, augment=True)
    with pytest.raises(ValueError, match="6 columns"):
        fit_bid_values(_small_net(), dict(data, mask=np.ones((len(data["q"]), 8), bool),
                                          q=np.zeros((len(data["q"]), 8), np.float32)), epochs=1)


def _folder_with_bids(tmp_path, favour: int = PASS):
    """A two-seat model folder: a random policy network and a bids/ network whose bias
    favours ``favour`` (and, were it read, a redeal proposal)."""
    folder = tmp_path / "m"
    folder.mkdir()
    extra_rules = {"rules": R2.to_dict()}
    net = _small_net(1)
    save_model(folder, net.state_dict(), net.config, extra_rules)
    bid = _small_net(2)
    with torch.no_grad():
        bid.action_net.bias.zero_()
        bid.action_net.bias[favour] = 5.0
        bid.action_net.bias[PROPOSE_REDEAL] = 50.0  # never read: a proposal is not a valued bid
    save_model(folder / BIDS_SUBDIR, bid.state_dict(), bid.config,
               {"kind": BID_VALUES_KIND, "suit_average": False, "value_unit": 162.0,
                "bid_actions": list(PROPOSAL_BID_ACTIONS), **extra_rules})
    return folder


@pytest.mark.parametrize("favour", [PASS, TAKE])
def test_folder_with_bids_plays_legal_and_never_proposes(tmp_path, favour):
    folder = _folder_with_bids(tmp_path, favour)
    pol = NetworkPolicy.from_path(folder)
    assert pol.bid_net is not None and pol.bid_actions == tuple(PROPOSAL_BID_ACTIONS)
    other = make_policy("normal")
    rng = random.Random(0)
    valued = 0
    for d in range(30):
        st = GameState(R2, rng=rng, dealer=d % 2, single_deal=True)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if st.current == 0:
                a = pol.act(info)
                assert a in info.legal_actions
                if is_proposal_bid_decision(info):
                    valued += 1
                    assert a != PROPOSE_REDEAL
                    v = pol.bid_values(info)
                    assert set(v) == {b for b in info.legal_actions if b in PROPOSAL_BID_ACTIONS}
                    assert a == max(v, key=lambda b: (v[b], -b))
                    if favour in info.legal_actions:
                        assert a == favour
                    p = pol.action_probabilities(info)
                    assert p.get(PROPOSE_REDEAL, 0.0) == 0.0 and abs(sum(p.values()) - 1) < 1e-6
            else:
                a = other.act(info)
            st.apply(a)
    assert valued > 10


def test_meta_written_by_train_oracle_shape(tmp_path):
    # the bids/ meta of a small folder loads with its bid_actions checked against 32..37
    folder = _folder_with_bids(tmp_path)
    meta = json.loads((folder / BIDS_SUBDIR / "meta.json").read_text())
    meta["bid_actions"] = [32, 38]  # 38 (no trump) is not a two-seat bid
    (folder / BIDS_SUBDIR / "meta.json").write_text(json.dumps(meta))
    from policies.network import CheckpointError

    with pytest.raises(CheckpointError, match="bid_actions"):
        NetworkPolicy.from_path(folder)
