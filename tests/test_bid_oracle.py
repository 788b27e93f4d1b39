"""Bid values learned from rollouts (``training.oracle.generate_bid_data``,
``fit_bid_values``) and bid-value networks in ``NetworkPolicy`` (``policies.network``)."""

import random

import numpy as np
import pytest

from belote_env import GameState, Rules
from belote_env.actions import NAME_CONTRACT, PASS, TAKE
from belote_env.bidding import classic_legal_bids
from belote_env.observation import encode_infoset
from policies import make_policy
from policies.network import (BeloteNet, CheckpointError, NetworkPolicy, bid_permutation_table, is_bid_decision,
                              is_card_decision, save_model)

torch = pytest.importorskip("torch")

from training.oracle import SCALE, fit_bid_values, generate_bid_data  # noqa: E402


def _replayed_labels(deals: int, seed: int, rules: Rules) -> list[tuple[np.ndarray, dict[int, float]]]:
    """The bid labels recomputed independently: every seat plays ``normal``; each legal
    bid of each decision is made on a copy of the deal, which ``normal`` then plays to its
    end, and the deciding team's point difference (RULES.md §7) is read off the score."""
    rng = random.Random(seed)
    pol = make_policy("normal", seed=seed)
    out = []
    for d in range(deals):
        st = GameState(rules.replace(target=None), rng=rng, dealer=d % 4)
        for _ in range(4):
            rng.randrange(1)  # the draw of each seat's behaviour policy (one choice here)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if st.phase == 0 and len(info.legal_actions) > 1:
                vals = {}
                for a in info.legal_actions:
                    s2 = st.clone()
                    s2.apply(a)
                    while not s2.is_deal_over:
                        s2.apply(pol.act(s2.information_set(s2.current)))
                    vals[a] = 0 if s2.void else s2.deal_score.difference(info.seat & 1)
                out.append((encode_infoset(info).astype(np.float16), vals))
            st.apply(pol.act(info))
    return out


def test_bid_labels_are_the_rollout_outcomes_of_every_legal_bid():
    rules = Rules()
    data = generate_bid_data(5, 12, rules, behaviour=("normal",))
    ref = _replayed_labels(5, 12, rules)
    assert len(data["q"]) == len(ref) > 10  # 3 to 8 bidding decisions per deal
    assert data["obs"].dtype == np.float16 and data["mask"].dtype == bool and data["q"].dtype == np.float32
    for i, (obs, vals) in enumerate(ref):
        assert np.array_equal(data["obs"][i], obs)
        assert [32 + j for j in np.flatnonzero(data["mask"][i])] == sorted(vals)
        for a, v in vals.items():
            assert round(float(data["q"][i, a - 32]) * SCALE) == v
    # real values: a round-1 decision holds pass and take, a round-2 one pass and the 3 other suits
    widths = {int(m.sum()) for m in data["mask"]}
    assert widths <= {2, 4} and 2 in widths
    # deal differences: at most the 252 points of a capot plus belote, both ways
    q = np.rint(data["q"][data["mask"]] * SCALE)
    assert np.all(np.abs(q) <= 600) and np.any(q != 0)
    again = generate_bid_data(5, 12, rules, behaviour=("normal",))
    for k in ("obs", "mask", "q"):
        assert np.array_equal(data[k], again[k])


def test_bid_labels_follow_the_round_2_rule_option():
    """``round2_no_trump_all_trump`` (RULES.md §3) adds columns 38 and 39 in round 2; the
    default does not."""
    plain = generate_bid_data(4, 3, Rules(), behaviour=("normal",))
    wide = generate_bid_data(4, 3, Rules(round2_no_trump_all_trump=True), behaviour=("normal",))
    assert not plain["mask"][:, 6:].any()
    r2 = wide["mask"][:, 2:].any(axis=1)
    assert r2.any() and wide["mask"][r2, 6:].all()


@pytest.mark.parametrize("bad, match", [
    (dict(deals=0), "deals"), (dict(seed="1"), "seed"), (dict(behaviour="normal"), "behaviour"),
    (dict(behaviour=("nobody",)), "nobody"),
])
def test_bid_data_bad_arguments(bad, match):
    kw = dict(deals=1, seed=0, rules=Rules(), behaviour=("normal",)) | bad
    with pytest.raises(ValueError, match=match):
        generate_bid_data(**kw)


def _bid_net(take_bias: float) -> BeloteNet:
    """A bid-value net valuing pass 0, take ``take_bias`` and naming suit s ``s`` (others 0)."""
    net = BeloteNet(pi=[4], vf=[4])
    with torch.no_grad():
        net.action_net.weight.zero_()
        net.action_net.bias.zero_()
        net.action_net.bias[TAKE] = take_bias
        for s in range(4):
            net.action_net.bias[NAME_CONTRACT + s] = s
    return net


def test_bid_net_makes_the_classic_bids_and_the_policy_net_the_rest():
    policy = BeloteNet(pi=[4], vf=[4])
    with torch.no_grad():
        policy.action_net.weight.zero_()
        policy.action_net.bias.zero_()
        policy.action_net.bias[TAKE] = 5.0  # the policy network alone would take at once
    pol = NetworkPolicy(policy, bid_net=_bid_net(-1.0))  # the bid net passes round 1, names its best suit in round 2
    seen = set()
    for seed in range(6):
        st = GameState(Rules(target=None), seed=seed)
        while st.phase == 0 and not st.is_deal_over:
            info = st.information_set(st.current)
            assert is_bid_decision(info) and not is_card_decision(info)
            a = pol.act(info)
            if st.auction.bid_round == 1:
                assert a == PASS
            else:
                turned = st.turned_card >> 3
                assert a == NAME_CONTRACT + max(s for s in range(4) if s != turned)
            probs = pol.action_probabilities(info)
            assert max(probs, key=probs.get) == a and sum(probs.values()) == pytest.approx(1.0)
            seen.add(st.auction.bid_round)
            st.apply(a)
        assert st.denomination >= 0  # named in round 2 by the first seat
        info = st.information_set(st.current)
        assert not is_bid_decision(info)
    assert seen == {1, 2}
    with pytest.raises(ValueError, match="no bid-value network"):
        NetworkPolicy(policy).bid_values(info)
    # bids the network was not trained on (no-trump / all-trump, RULES.md §3) go to the policy network
    narrow = NetworkPolicy(policy, bid_net=_bid_net(-1.0), bid_actions=(32, 33, 34, 35, 36, 37))
    wide_rules = Rules(target=None, round2_no_trump_all_trump=True)
    for seed in range(4):
        st = GameState(wide_rules, seed=seed)
        assert narrow.act(st.information_set(st.current)) == PASS  # round 1: the bid net
        while st.auction.bid_round == 1:
            st.apply(PASS)
        info = st.information_set(st.current)
        assert 39 in info.legal_actions and narrow.act(info) == PASS  # the policy net: TAKE is not legal, all 0
        assert NetworkPolicy(policy, bid_net=_bid_net(-1.0)).act(info) != PASS  # all trained: the bid net names
    with pytest.raises(ValueError, match="bid_actions"):
        NetworkPolicy(policy, bid_actions=(31, 32))
    with pytest.raises(ValueError, match="bid_suit_average"):
        NetworkPolicy(policy, bid_suit_average=1)


def test_bid_net_folder_roundtrip_and_corruption(tmp_path):
    policy = BeloteNet(pi=[4], vf=[4])
    bids = _bid_net(3.0)
    save_model(tmp_path, policy.state_dict(), policy.config)
    assert NetworkPolicy.from_path(tmp_path).bid_net is None
    (tmp_path / "bids").write_text("not a folder")
    with pytest.raises(CheckpointError, match="expected a folder holding a bid-value network"):
        NetworkPolicy.from_path(tmp_path)
    (tmp_path / "bids").unlink()
    save_model(tmp_path / "bids", bids.state_dict(), bids.config, {"kind": "card_values", "suit_average": False})
    with pytest.raises(CheckpointError, match="kind must be 'bid_values'"):
        NetworkPolicy.from_path(tmp_path)
    save_model(tmp_path / "bids", bids.state_dict(), bids.config, {"kind": "bid_values", "suit_average": False})
    with pytest.raises(CheckpointError, match="bid_actions must be a non-empty list of bid ids in 32..39, got None"):
        NetworkPolicy.from_path(tmp_path)
    save_model(tmp_path / "bids", bids.state_dict(), bids.config,
               {"kind": "bid_values", "suit_average": False, "bid_actions": [32, 33, 40]})
    with pytest.raises(CheckpointError, match=r"bid_actions .* got \[32, 33, 40\]"):
        NetworkPolicy.from_path(tmp_path)
    save_model(tmp_path / "bids", bids.state_dict(), bids.config,
               {"kind": "bid_values", "suit_average": False, "bid_actions": [37, 36, 35, 34, 33, 32]})
    with pytest.raises(CheckpointError, match="a bid-value network, not a policy"):
        NetworkPolicy.from_path(tmp_path / "bids")
    pol = NetworkPolicy.from_path(tmp_path)
    assert pol.bid_net is not None and pol.card_net is None and not pol.bid_suit_average
    assert pol.bid_actions == (32, 33, 34, 35, 36, 37)
    st = GameState(Rules(target=None), seed=2)
    assert pol.act(st.information_set(st.current)) == TAKE
    (tmp_path / "bids" / "model.safetensors").write_bytes(b"not safetensors")
    with pytest.raises(CheckpointError, match="bids"):
        NetworkPolicy.from_path(tmp_path)


def test_bid_permutation_table_renames_named_suits_only():
    table = bid_permutation_table()
    assert table.shape == (24, 8) and table.dtype == torch.int64
    assert (table[:, :2] == torch.tensor([0, 1])).all() and (table[:, 6:] == torch.tensor([6, 7])).all()
    assert all(sorted(row[2:6].tolist()) == [2, 3, 4, 5] for row in table)
    assert len({tuple(row.tolist()) for row in table}) == 24


def test_suit_averaged_bid_values_do_not_depend_on_the_suits_names():
    """Averaged over the 24 renamings, a bid-value network values the bids of a renamed
    deal as the original's renamed bids ("name suit s" becomes "name suit perm[s]")."""
    def renamed_auctions(seed, perm):  # as tests.test_observation._renamed_game, passing round 1
        rules = Rules(target=None)
        st = GameState(rules, seed=seed)
        st2 = GameState(rules, deck=[perm[c >> 3] * 8 + (c & 7) for c in st.deal_log[-1]["deck"]], dealer=st.dealer)
        rng = random.Random(seed)
        while st.phase == 0 and not st.is_deal_over:
            yield st, st2
            legal = st.legal_actions()
            a = PASS if st.auction.bid_round == 1 or rng.random() < 0.5 else legal[rng.randrange(len(legal))]
            st.apply(a)
            st2.apply(mb(a))

    torch.manual_seed(3)
    net = BeloteNet(pi=[32], vf=[4])
    avg = NetworkPolicy(BeloteNet(pi=[4], vf=[4]), bid_net=net, bid_suit_average=True)
    plain = NetworkPolicy(BeloteNet(pi=[4], vf=[4]), bid_net=net)
    perm = (2, 0, 3, 1)
    mb = lambda a: NAME_CONTRACT + perm[a - NAME_CONTRACT] if NAME_CONTRACT <= a < NAME_CONTRACT + 4 else a  # noqa: E731
    checked, plain_differs, round2 = 0, False, False
    for seed in range(8):
        for st, st2 in renamed_auctions(seed, perm):
            info, info2 = st.information_set(st.current), st2.information_set(st2.current)
            if not is_bid_decision(info):
                continue
            v, v2 = avg.bid_values(info), avg.bid_values(info2)
            assert {mb(a) for a in v} == set(v2)
            for a in v:
                assert v[a] == pytest.approx(v2[mb(a)], abs=1e-5)
            p, p2 = plain.bid_values(info), plain.bid_values(info2)
            plain_differs |= any(abs(p[a] - p2[mb(a)]) > 1e-3 for a in p)
            round2 |= st.auction.bid_round == 2
            checked += 1
    assert checked > 10 and plain_differs and round2


def test_fit_bid_values_learns_a_hand_rule():
    """Rollout-like labels where taking is worth +50 points when the turned card is the
    jack or the nine (the two best trumps, RULES.md §1) and -50 otherwise (pass 0): the
    fitted network takes exactly then."""
    rng = random.Random(0)
    obs, mask, q, jack = [], [], [], []
    for seed in range(600):
        st = GameState(Rules(target=None), seed=seed)
        info = st.information_set(st.current)
        has = st.turned_card & 7 in (2, 4)  # rank 2 is the nine, rank 4 the jack (cards.py)
        m = np.zeros(8, bool)
        m[[0, 1]] = True
        row = np.zeros(8, np.float32)
        row[1] = (50 if has else -50) / SCALE + rng.gauss(0, 0.05)
        obs.append(encode_infoset(info).astype(np.float16))
        mask.append(m)
        q.append(row)
        jack.append(has)
    assert 0 < sum(jack) < 600
    data = {"obs": np.stack(obs), "mask": np.stack(mask), "q": np.stack(q)}
    torch.manual_seed(0)
    net = BeloteNet(pi=[64], vf=[4])
    r = fit_bid_values(net, data, epochs=20, lr=3e-3, batch=64, valid=0.2, augment=True)
    assert r["history"][-1]["agree"] > 0.95
    pol = NetworkPolicy(BeloteNet(pi=[4], vf=[4]), bid_net=net, bid_suit_average=True)
    right = 0
    for seed in range(600, 700):
        st = GameState(Rules(target=None), seed=seed)
        info = st.information_set(st.current)
        has = st.turned_card & 7 in (2, 4)
        right += pol.act(info) == (TAKE if has else PASS)
    assert right >= 95
    assert r["bid_actions"] == [32, 33]
    assert classic_legal_bids(1, 0, Rules()) == (PASS, TAKE)
    from training.oracle import fit_card_values

    with pytest.raises(ValueError, match="card data have 32 columns.*bid \\(generate_bid_data\\) data"):
        fit_card_values(BeloteNet(pi=[4], vf=[4]), data)
    wide = {"obs": data["obs"], "mask": np.ones((len(q), 32), bool), "q": np.zeros((len(q), 32), np.float32)}
    with pytest.raises(ValueError, match="bid data have 8 columns"):
        fit_bid_values(BeloteNet(pi=[4], vf=[4]), wide)


def test_train_oracle_script_fits_bids_and_keeps_the_card_network(tmp_path):
    """``scripts/train_oracle.py --target bids``: chunk ``j`` holds
    ``generate_bid_data`` with seed ``seed + j``, the folder plays with the fitted
    ``bids/`` and the bidder's ``cards/`` (copied unchanged), card data are refused, and
    ``--epsilon`` (a card-data option) is a usage error."""
    import json

    from policies.hard import HARD_MODEL_DIR
    from tests.test_oracle import run_train_oracle

    a = tmp_path / "a"
    r = run_train_oracle("--target", "bids", "--deals", "4", "--chunks", "2", "--seed", "30", "--out", str(a))
    assert r.returncode == 0, r.stderr[-2000:]
    assert sorted(p.name for p in a.glob("*.npz")) == ["bid-data-30.npz", "bid-data-31.npz"]
    ref = generate_bid_data(2, 31, Rules(), behaviour=("normal",))
    got = np.load(a / "bid-data-31.npz")
    for k in ("obs", "mask", "q"):
        assert np.array_equal(got[k], ref[k])
    meta = json.loads((a / "bids" / "meta.json").read_text())
    assert meta["kind"] == "bid_values" and meta["oracle"]["target"] == "bids"
    assert meta["oracle"]["decisions"] == len(np.load(a / "bid-data-30.npz")["q"]) + len(ref["q"])
    assert meta["bid_actions"] == [32, 33, 34, 35, 36, 37]
    for f in ("model.safetensors", "meta.json"):
        assert (a / "cards" / f).read_bytes() == (HARD_MODEL_DIR / "cards" / f).read_bytes()
    pol = make_policy(str(a))
    assert pol.bid_net is not None and pol.card_net is not None
    st = GameState(Rules(target=None), seed=5)
    assert pol.act(st.information_set(st.current)) in (PASS, TAKE)
    cards = tmp_path / "cards.npz"
    np.savez(cards, obs=np.zeros((2, 618), np.float16), mask=np.ones((2, 32), bool), q=np.zeros((2, 32), np.float32))
    for bad, msg in ((["--deals", "0", "--data", str(cards)], "(want (2, 8)) (card data: use --target cards)"),
                     (["--epsilon", "0.1"], "--epsilon is for --target cards"),
                     (["--bidder", str(HARD_MODEL_DIR / "cards")], "a card-value network, not a policy")):
        r = run_train_oracle("--target", "bids", *bad, "--out", str(tmp_path / "c"), timeout=120)
        assert r.returncode == 2 and msg in r.stderr, r.stderr[-2000:]
        assert not (tmp_path / "c").exists()
    # a card fit into a folder whose bids/ is not --bidder's would drop it: refused
    r = run_train_oracle("--deals", "2", "--chunks", "1", "--out", str(a), timeout=120)
    assert r.returncode == 2 and "already holds a bids/ network that is not --bidder's" in r.stderr, r.stderr[-2000:]
    assert not list(a.glob("data-*.npz"))
