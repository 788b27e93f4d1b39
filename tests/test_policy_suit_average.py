"""``NetworkPolicy(policy_suit_average=True)``: the policy network played averaged over the
24 suit renamings. The action renaming table (checked by hand on one renaming), the
averaged probabilities (the mean of the renamings' log-softmaxes; invariant under renaming
the suits of the deal), ``act_batch`` deciding as ``act`` row by row, the model folder's
``meta.json`` key ``policy_suit_average`` and the training run's learner and checkpoints."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from belote_env import GameState, Rules
from belote_env.observation import encode_infoset
from policies.network import (BeloteNet, CheckpointError, NetworkPolicy, action_permutation_table,
                              bid_permutation_table, save_model, suit_permutation_tables, value_net_kwargs)

from .test_policy_batch import RULES, _check, _nets, _positions, one_torch_thread  # noqa: F401 (fixture)


def test_action_table_renames_cards_named_suits_and_coinche_bids():
    """Hand-checked on the renaming that swaps spades (0) and hearts (1): renamed action
    ``j`` is the deal's action ``table[p, j]``."""
    import itertools

    table = action_permutation_table()
    assert table.shape == (24, 112) and table.dtype == torch.int64
    assert (table.sort(1).values == torch.arange(112)).all()
    perms = list(itertools.permutations(range(4)))
    assert perms[0] == (0, 1, 2, 3) and (table[0] == torch.arange(112)).all()
    p = perms.index((1, 0, 2, 3))
    t = table[p].tolist()
    assert t[0:8] == list(range(8, 16)) and t[8:16] == list(range(8)) and t[16:32] == list(range(16, 32))
    assert t[32:40] == [32, 33, 35, 34, 36, 37, 38, 39]  # pass, take, name hearts <-> spades, NT, AT stay
    assert t[40:46] == [41, 40, 42, 43, 44, 45] and t[94:100] == [95, 94, 96, 97, 98, 99]  # 80 and capot bids
    assert t[100:] == list(range(100, 112))
    # consistent with the card and bid tables
    _, pc = suit_permutation_tables()
    assert (table[:, :32] == pc).all() and (table[:, 32:40] == 32 + bid_permutation_table()).all()
    # a rotation: suit s becomes perm[s]; the renamed deal's card of suit perm[s] was of suit s
    perm = (2, 3, 1, 0)
    t = table[perms.index(perm)].tolist()
    for s in range(4):
        assert t[8 * perm[s] + 3] == 8 * s + 3
        assert t[34 + perm[s]] == 34 + s and t[40 + 6 * 4 + perm[s]] == 40 + 6 * 4 + s


def _reference_probabilities(net, info) -> dict[int, float]:
    """The brief's definition: the mean over the renamings of the log-softmax of the
    renamed deal's logits, mapped back to the deal's action ids, then softmax on the legal ids."""
    po, _ = suit_permutation_tables()
    obs = torch.from_numpy(encode_infoset(info))
    with torch.no_grad():
        lp = torch.log_softmax(net.logits(obs[po]).double(), 1)
        avg = torch.empty_like(lp).scatter_(1, action_permutation_table(), lp).mean(0)
    legal = list(info.legal_actions)
    return dict(zip(legal, torch.softmax(avg[legal], 0).tolist()))


def _renamed_game(seed: int, perm, rules: Rules):
    """The same deal and actions with suit ``s`` renamed ``perm[s]`` (cards, named contracts);
    mostly passes in the auction (so that most deals reach its second round)."""
    st = GameState(rules, seed=seed)
    mp = lambda a: perm[a >> 3] * 8 + (a & 7) if a < 32 else 34 + perm[a - 34] if 34 <= a < 38 else a  # noqa: E731
    st2 = GameState(rules, deck=[mp(c) for c in st.deal_log[-1]["deck"]], dealer=st.dealer)
    rng = random.Random(seed)
    while not st.is_deal_over:
        yield st, st2, mp
        legal = st.legal_actions()
        a = legal[rng.randrange(len(legal))]
        if 32 in legal and rng.random() < 0.7:
            a = 32
        st.apply(a)
        st2.apply(mp(a))


def test_averaged_probabilities_are_the_mean_log_softmax_and_invariant_under_renaming():
    """Renaming the suits of the deal renames the averaged probabilities (card ``c`` of suit
    ``s`` gets the probability the card of the same rank in suit ``perm[s]`` had, "name
    suit s" likewise), which the plain network does not do; and they are the brief's mean
    of the 24 log-softmaxes."""
    torch.manual_seed(3)
    net = BeloteNet(pi=[64, 64]).eval()
    avg, plain = NetworkPolicy(net, policy_suit_average=True), NetworkPolicy(net)
    rules = Rules(target=None, round2_no_trump_all_trump=True)
    checked = cards = bids = 0
    plain_diff = 0.0
    for seed, perm in enumerate([(1, 0, 2, 3), (2, 3, 1, 0), (3, 2, 0, 1), (0, 2, 3, 1)] * 4):
        for st, st2, mp in _renamed_game(seed, perm, rules):
            info, info2 = st.information_set(st.current), st2.information_set(st2.current)
            assert sorted(map(mp, info.legal_actions)) == list(info2.legal_actions)
            p, p2 = avg.action_probabilities(info), avg.action_probabilities(info2)
            for a, x in p.items():
                assert abs(p2[mp(a)] - x) < 2e-6, (seed, perm, a)
            ref = _reference_probabilities(net, info)
            assert max(abs(ref[a] - x) for a, x in p.items()) < 2e-6
            q, q2 = plain.action_probabilities(info), plain.action_probabilities(info2)
            plain_diff = max(plain_diff, max(abs(q2[mp(a)] - x) for a, x in q.items()))
            # the decision is renamed with the deal (no near ties with these weights)
            top = sorted(p.values())
            if len(top) > 1 and top[-1] - top[-2] > 1e-4:
                assert avg.act(info2) == mp(avg.act(info))
            checked += 1
            cards += info.legal_actions[0] < 32
            bids += any(34 <= a < 38 for a in info.legal_actions)
    assert checked > 300 and cards > 200 and bids > 20
    assert plain_diff > 1e-3  # the property is the average's, not the network's


@pytest.mark.parametrize("ri", [0, 2, 3], ids=["default", "choice-nt-at", "choice-next-dealer"])
def test_averaged_policy_batched_equals_act(ri):
    """``act_batch`` == ``act`` row by row (thousands of positions): the averaged policy
    network alone (compiled kernel), with card- and bid-value networks, tanh (torch)."""
    rules = RULES[ri]
    net, card, bid = _nets(ri)
    n = _check(NetworkPolicy(net, policy_suit_average=True, name="avg"), rules, tables=96, steps=40)
    n += _check(NetworkPolicy(net, card_net=card, suit_average=True, bid_net=bid, bid_suit_average=True,
                              bid_actions=[32, 33, 34, 35, 36, 37], policy_suit_average=True, name="avg-values"),
                rules, tables=48, steps=40)
    torch.manual_seed(11 + ri)
    n += _check(NetworkPolicy(BeloteNet(pi=[64], activation="tanh").eval(), policy_suit_average=True, name="avg-tanh"),
                rules, tables=32, steps=30)
    assert n == 96 * 40 + 48 * 40 + 32 * 30


def test_averaged_exact_ties_and_sampling():
    """All-zero network: every averaged row is a tie, decided as ``act`` (the lowest id).
    Sampling: legal, seeded, and drawing as ``act`` draws (the same ``rng`` sequence)."""
    net, _, _ = _nets()
    zero = BeloteNet(pi=[32]).eval()
    for p in zero.parameters():
        torch.nn.init.zeros_(p)
    pol = NetworkPolicy(zero, policy_suit_average=True)
    for batch in _positions(Rules(declarations="choice"), 32, 20, seed=4):
        got = pol.act_batch(batch)
        assert got.tolist() == [pol.act(batch.infoset(i)) for i in range(len(batch))]
        assert got.tolist() == [batch.infoset(i).legal_actions[0] for i in range(len(batch))]
    a = NetworkPolicy(net, deterministic=False, seed=7, policy_suit_average=True)
    b = NetworkPolicy(net, deterministic=False, seed=7, policy_suit_average=True)
    rows = same = 0
    for batch in _positions(Rules(), 64, 30, seed=2):
        x = a.act_batch(batch)
        y = [b.act(batch.infoset(i)) for i in range(len(batch))]
        assert batch.mask[np.arange(len(batch)), x].all()
        rows += len(batch)
        same += int((x == np.array(y)).sum())
    assert same >= rows - 2  # a draw on the boundary of two actions may differ (float32)
    assert a.rng.random() == b.rng.random()


def test_meta_key_round_trip_and_bad_values(tmp_path):
    """``meta.json`` ``policy_suit_average``: read by ``from_path`` / ``value_net_kwargs``
    (False when absent, overridden by an argument), kept by ``export_model``; a value that
    is not a bool raises ``CheckpointError``, the constructor a ``ValueError``."""
    from training.export import export_model

    net, _, _ = _nets()
    save_model(tmp_path / "on", net.state_dict(), net.config, {"policy_suit_average": True})
    save_model(tmp_path / "off", net.state_dict(), net.config, {"policy_suit_average": False})
    save_model(tmp_path / "none", net.state_dict(), net.config)
    assert NetworkPolicy.from_path(tmp_path / "on").policy_suit_average is True
    assert NetworkPolicy.from_path(tmp_path / "on" / "meta.json").policy_suit_average is True
    assert NetworkPolicy.from_path(tmp_path / "on", policy_suit_average=False).policy_suit_average is False
    assert NetworkPolicy.from_path(tmp_path / "off").policy_suit_average is False
    assert NetworkPolicy.from_path(tmp_path / "none").policy_suit_average is False
    assert value_net_kwargs(tmp_path / "on") == {"policy_suit_average": True}
    out = export_model(tmp_path / "on", tmp_path / "exported")
    assert json.loads((out / "meta.json").read_text())["policy_suit_average"] is True
    assert NetworkPolicy.from_path(out).policy_suit_average is True
    for i, bad in enumerate(["true", 1, 0, None, [True], {"x": 1}]):
        folder = save_model(tmp_path / f"bad{i}", net.state_dict(), net.config, {"policy_suit_average": bad})
        with pytest.raises(CheckpointError, match="policy_suit_average must be true or false"):
            NetworkPolicy.from_path(folder)
        with pytest.raises(CheckpointError, match="policy_suit_average"):
            value_net_kwargs(folder)
        with pytest.raises(CheckpointError, match="policy_suit_average"):
            export_model(folder, tmp_path / f"bad_export{i}")
        with pytest.raises(ValueError, match="policy_suit_average must be a bool"):
            NetworkPolicy(net, policy_suit_average=bad)


def test_learner_policy_and_checkpoint_of_a_q_bid_run(tmp_path):
    """``learner_policy`` averages the policy of a model with a bid-value network (a
    ``bid_learner: q`` run) and ``save_checkpoint`` writes ``policy_suit_average: true``
    then (the exported and loaded checkpoint plays so); neither without one."""
    from training.config import TrainConfig
    from training.export import export_model
    from training.train import learner_policy, net_config, save_checkpoint

    cfg = TrainConfig(exp_name="avg", net_pi=[32], net_vf=[32], log_dir=str(tmp_path / "runs"))
    torch.manual_seed(0)
    policy = BeloteNet(**net_config(cfg))
    policy.optimizer = torch.optim.Adam(policy.parameters())
    for bids in (BeloteNet(pi=[16]).eval(), None):
        model = SimpleNamespace(policy=policy, num_timesteps=123,
                                collector=SimpleNamespace(bids=None if bids is None else SimpleNamespace(net=bids)))
        learner = learner_policy(model, cfg, name="learner")
        assert learner.policy_suit_average is (bids is not None)
        folder = save_checkpoint(tmp_path / f"ckpt_{bids is None}", model, cfg, "run")
        meta = json.loads((folder / "meta.json").read_text())
        assert meta.get("policy_suit_average", False) is (bids is not None)
        assert meta.get("parts", []) == ([] if bids is None else ["bids"])  # the value networks it holds
        exported = export_model(folder, tmp_path / f"exported_{bids is None}")
        assert json.loads((exported / "meta.json").read_text())["parts"] == ([] if bids is None else ["bids"])
        loaded = NetworkPolicy.from_path(exported)
        assert loaded.policy_suit_average is (bids is not None) and (loaded.bid_net is None) is (bids is None)
        batch = next(iter(_positions(Rules(), 64, 1, seed=5)))
        np.testing.assert_array_equal(loaded.act_batch(batch), learner.act_batch(batch))
