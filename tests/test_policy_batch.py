"""Batched policies (``policies.batch``, ``NetworkPolicy.act_batch``): on positions of the
batched engine's random play, under the default rules and rule mixes, every row's batched
action is the action ``act`` takes on that row's ``InfoSet``, for the rule-based tiers, the
hard tier (card- and bid-value networks averaged over the suit renamings) and plain
networks (random weights: ReLU in the compiled kernel, tanh in torch)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from belote_env import Rules
from belote_env.actions import ANNOUNCE_BELOTE, NUM_ACTIONS
from belote_env.vector import BatchedGame, SeatBatch
from policies import as_batch_policy, make_batch_policy, make_policy
from policies.batch import LoopBatchPolicy, network_outputs
from policies.network import BeloteNet, NetworkPolicy, is_card_decision, suit_permutation_tables

@pytest.fixture(autouse=True)
def one_torch_thread():
    """One torch thread, as matches run (a thread pool only adds contention to one-row passes)."""
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


RULES = [
    Rules(),
    Rules(declarations="auto", belote="optional"),
    Rules(declarations="choice", belote="optional", round2_no_trump_all_trump=True),
    Rules(declarations="choice", round2_no_trump_all_trump=True, all_pass_redeal="next_dealer",
          undertrump="discard_allowed"),
]


def _nets(seed: int = 0):
    torch.manual_seed(seed)
    return BeloteNet().eval(), BeloteNet(pi=[128, 64]).eval(), BeloteNet(pi=[64]).eval()


def _positions(rules: Rules, tables: int, steps: int, seed: int):
    """``SeatBatch``es of every table at each of ``steps`` steps of random play (void and
    finished deals start anew: autoreset), one at a time (a batch reads the live game)."""
    g = BatchedGame(tables, rules, seed=seed)
    for _ in range(steps):
        yield SeatBatch(g, np.arange(tables))
        g.step(g.random_actions())


def _check(policy, rules: Rules, tables: int = 96, steps: int = 40, seed: int = 1) -> int:
    batched = as_batch_policy(policy)
    n = 0
    for batch in _positions(rules, tables, steps, seed):
        got = batched.act_batch(batch)
        assert got.dtype == np.int64 and got.shape == (len(batch),)
        want = [policy.act(batch.infoset(i)) for i in range(len(batch))]
        bad = np.flatnonzero(got != np.array(want))
        assert not len(bad), (f"{policy.name}: row {bad[0]} batched {got[bad[0]]}, act {want[bad[0]]}, "
                              f"legal {np.flatnonzero(batch.mask[bad[0]]).tolist()}")
        n += len(batch)
    return n


@pytest.mark.parametrize("rules", RULES, ids=["default", "auto-optional", "choice-nt-at", "choice-next-dealer"])
def test_hard_batched_equals_act(rules):
    assert _check(make_policy("hard"), rules, tables=128, steps=50) == 128 * 50


@pytest.mark.parametrize("rules", RULES[::2], ids=["default", "choice-nt-at"])
def test_rule_based_tiers_batched_equal_act(rules):
    for name in ("easy", "normal"):
        pol = make_policy(name, seed=3)
        assert isinstance(as_batch_policy(pol), LoopBatchPolicy)
        _check(pol, rules, tables=64, steps=30)


@pytest.mark.parametrize("rules", RULES, ids=["default", "auto-optional", "choice-nt-at", "choice-next-dealer"])
def test_network_batched_equals_act(rules):
    """A plain policy network (random weights, as an exported model), then the same with
    random card- and bid-value networks (averaged over the renamings or not, other widths
    and depths: the compiled kernel), and tanh and linear networks (the torch path)."""
    net, card, bid = _nets()
    _check(NetworkPolicy(net, name="plain"), rules, tables=64, steps=40)
    _check(NetworkPolicy(net, card_net=card, suit_average=True, bid_net=bid, bid_suit_average=False,
                         name="values"), rules, tables=48, steps=40)
    _check(NetworkPolicy(net, card_net=bid, suit_average=False, bid_net=card, bid_suit_average=True,
                         bid_actions=[32, 33, 34, 35], name="values2"), rules, tables=48, steps=40)
    torch.manual_seed(5)
    _check(NetworkPolicy(BeloteNet(activation="tanh").eval(), name="tanh"), rules, tables=32, steps=40)
    _check(NetworkPolicy(BeloteNet(pi=[]).eval(), card_net=BeloteNet(pi=[]).eval(), suit_average=True,
                         name="linear"), rules, tables=32, steps=40)


COINCHE_RULES = [
    Rules(contract_mode="coinche"),
    Rules(contract_mode="coinche", declarations="choice", belote="optional", coinche_window="immediate",
          surcoinche_allowed=False),
]


@pytest.mark.parametrize("rules", COINCHE_RULES, ids=["coinche", "coinche-choice-immediate"])
def test_coinche_hard_batched_equals_act(rules):
    """The coinche hard (value networks only) decides its card and auction rows in
    batched passes of the compiled kernel (the coinche observation's suit orbits) and
    every other row by ``act``: each row's action is ``act``'s."""
    hard = make_policy("hard")
    coinche = hard.for_rules(rules)
    assert coinche.net is None and coinche.card_net is not None and coinche.bid_net is not None
    calls = []
    real = coinche.act
    coinche.act = lambda info: calls.append(1) or real(info)
    try:
        assert _check(hard, rules, tables=96, steps=45) == 96 * 45
    finally:
        del coinche.act
    assert len(calls) < 96 * 45 * 1.2  # _check's own act per row, and few re-decided ones
    torch.manual_seed(2)
    card, bid = BeloteNet(obs_size=coinche.obs_size).eval(), BeloteNet(obs_size=coinche.obs_size, pi=[64]).eval()
    _check(NetworkPolicy(None, card_net=card, suit_average=True, bid_net=bid, bid_suit_average=False,
                         bid_actions=coinche.bid_actions, name="random coinche values"),
           rules, tables=48, steps=40)


def test_exact_ties_break_as_act():
    """All-zero networks value every action the same: every row is a tie, decided as
    ``act`` decides it (the lowest id; the belote announcement with the first of K+Q)."""
    net, card, bid = _nets()
    for m in (net, card, bid):
        for p in m.parameters():
            torch.nn.init.zeros_(p)
    pol = NetworkPolicy(net, card_net=card, suit_average=True, bid_net=bid, bid_suit_average=True)
    rules = Rules(belote="optional", declarations="choice")
    announced = 0
    for batch in _positions(rules, 32, 40, seed=4):
        got = pol.act_batch(batch)
        for i in range(len(batch)):
            info = batch.infoset(i)
            assert got[i] == pol.act(info)
            if len(info.legal_actions) > 1:
                lowest = info.legal_actions[0]
                assert got[i] == lowest or (got[i] == ANNOUNCE_BELOTE and is_card_decision(info))
            announced += got[i] == ANNOUNCE_BELOTE
    assert announced > 0


def test_sampling_is_legal_and_seeded():
    net, _, _ = _nets()
    a = NetworkPolicy(net, deterministic=False, seed=7)
    b = NetworkPolicy(net, deterministic=False, seed=7)
    rows = 0
    for batch in _positions(Rules(), 64, 30, seed=2):
        x, y = a.act_batch(batch), b.act_batch(batch)
        np.testing.assert_array_equal(x, y)
        assert batch.mask[np.arange(len(batch)), x].all()
        rows += len(batch)
    assert a.rng.random() == b.rng.random()


def test_batched_outputs_match_torch():
    """The compiled kernel's outputs equal torch's batched pass up to float32 rounding."""
    net, card, _ = _nets()
    batch = next(iter(_positions(Rules(), 256, 1, seed=9)))
    obs = batch.obs
    pol = NetworkPolicy(net, card_net=card, suit_average=True)
    from policies.batch import CompiledNet

    table = suit_permutation_tables()[1]
    for m, first, width, tab in ((net, 0, NUM_ACTIONS, None), (card, 0, 32, table)):
        fast = CompiledNet(m, first, width, tab)(obs, threads=2)
        slow = network_outputs(m, obs, first, width, tab)
        np.testing.assert_allclose(fast, slow, atol=1e-5, rtol=1e-5)
    assert pol.act_batch(batch).shape == (256,)


def test_weights_changed_rebuild():
    """A changed network (in-place update, as in training) is recompiled before use."""
    net, _, _ = _nets()
    pol = NetworkPolicy(net)
    batch = next(iter(_positions(Rules(), 64, 1, seed=3)))
    pol.act_batch(batch)
    with torch.no_grad():
        net.action_net.bias.add_(torch.arange(NUM_ACTIONS, dtype=torch.float32) * 100.0)
    want = [pol.act(batch.infoset(i)) for i in range(len(batch))]
    np.testing.assert_array_equal(pol.act_batch(batch), want)


def test_adapters():
    hard = make_policy("hard")
    assert as_batch_policy(hard) is hard
    easy = make_batch_policy("easy")
    assert isinstance(easy, LoopBatchPolicy) and easy.name == "easy"
    rnd = make_batch_policy("random", seed=5)
    batch = next(iter(_positions(Rules(), 16, 1, seed=3)))
    x = rnd.act_batch(batch)
    ref = make_policy("random", seed=5)
    assert x.tolist() == [ref.act(batch.infoset(i)) for i in range(16)]
    with pytest.raises(TypeError):
        as_batch_policy(object())
    assert make_batch_policy("hard").name == "hard"


def test_suit_average_by_suit_blocks_equals_renaming_the_observations():
    """``network_outputs``' torch average (16 suit-block products in the first layer, only
    the wanted outputs in the last) equals renaming each observation 24 times and running
    the whole network (ReLU and tanh, one and two hidden layers, card and bid outputs);
    the weight blocks it caches are rebuilt after the weights change."""
    from policies.network import bid_permutation_table

    batch = next(iter(_positions(Rules(), 128, 1, seed=4)))
    obs = torch.from_numpy(batch.obs)
    po, card_table = suit_permutation_tables()
    torch.manual_seed(2)
    nets = [BeloteNet(pi=[64]).eval(), BeloteNet(pi=[48, 32], activation="tanh").eval()]
    for net in nets:
        for first, width, table in ((0, 32, card_table), (32, 8, bid_permutation_table())):
            for step in range(2):
                with torch.no_grad():
                    out = net.logits(obs[:, po].reshape(-1, obs.shape[1])).view(len(obs), 24, -1)[:, :, first:first + width]
                    by_hand = torch.empty_like(out).scatter_(2, table.expand(len(obs), -1, -1), out).mean(1).numpy()
                fast = network_outputs(net, batch.obs, first, width, table)
                np.testing.assert_allclose(fast, by_hand, atol=2e-6, rtol=2e-6)
                assert np.abs(by_hand).max() > 1e-3
                with torch.no_grad():  # change the weights in place: the cached blocks must follow
                    for p in net.parameters():
                        p.mul_(1.5).add_(0.01)


def test_make_batch_policy_old_home_is_a_deprecated_alias():
    import policies.batch as batch
    from policies import registry

    with pytest.warns(DeprecationWarning, match="policies.make_batch_policy"):
        assert batch.make_batch_policy is registry.make_batch_policy
    with pytest.raises(AttributeError, match="no_such_name"):
        batch.no_such_name  # noqa: B018
