"""``training.blend``: one network whose values are the weighted mean of two networks'."""

import json

import pytest
import torch

from belote_env import GameState, Rules
from belote_env.observation import COINCHE_OBS_SIZE
from policies import make_policy
from policies.network import BeloteNet, load_bid_net, load_card_net
from training.blend import blend_bid_model, blend_nets, grow_net

COINCHE_HARD = "policies/models/hard_coinche"


def test_blend_outputs_are_the_weighted_mean_of_the_two_networks():
    torch.manual_seed(0)
    a, b = BeloteNet(obs_size=COINCHE_OBS_SIZE, pi=[64, 32]).eval(), BeloteNet(obs_size=COINCHE_OBS_SIZE, pi=[16, 8]).eval()
    x = torch.rand(9, COINCHE_OBS_SIZE)
    for w in (0.0, 0.6, 1.0):
        net = blend_nets(a, b, w)
        assert net.config["pi"] == [80, 40]
        want = w * a.logits(x) + (1 - w) * b.logits(x)
        assert torch.allclose(net.logits(x), want, atol=1e-5)
    with pytest.raises(ValueError, match="weight must be a number in \\[0, 1\\], got 1.5"):
        blend_nets(a, b, 1.5)
    with pytest.raises(ValueError, match="the networks differ in obs_size"):
        blend_nets(a, BeloteNet(pi=[8, 8]), 0.5)
    with pytest.raises(ValueError, match="ReLU networks of the same depth"):
        blend_nets(a, BeloteNet(obs_size=COINCHE_OBS_SIZE, pi=[8]), 0.5)


def test_blend_bid_model_is_a_model_folder_that_plays(tmp_path):
    """The folder keeps the card network of ``cards`` and blends the bid networks; it loads
    as a policy and plays a coinche deal; an existing folder is refused."""
    out = blend_bid_model(COINCHE_HARD, COINCHE_HARD, COINCHE_HARD, 0.25, tmp_path / "m")
    card, ref = load_card_net(out)[0].state_dict(), load_card_net(COINCHE_HARD)[0].state_dict()
    assert all(torch.equal(card[k], ref[k]) for k in ref)
    net, avg, acts = load_bid_net(out)
    base, base_avg, base_acts = load_bid_net(COINCHE_HARD)
    assert (avg, acts) == (base_avg, base_acts) and net.config["pi"] == [2 * h for h in base.config["pi"]]
    x = torch.rand(4, COINCHE_OBS_SIZE)
    assert torch.allclose(net.logits(x), base.logits(x), atol=1e-5)  # a blend of a network with itself
    assert json.loads((out / "bids" / "meta.json").read_text())["blend"]["weight"] == 0.25
    pol = make_policy(str(out), seed=0)
    st = GameState(Rules(contract_mode="coinche", target=None), seed=4, single_deal=True)
    while not st.is_deal_over:
        info = st.information_set(st.current)
        a = pol.act(info)
        assert a in info.legal_actions
        st.apply(a)
    with pytest.raises(FileExistsError, match="exists: give a new folder"):
        blend_bid_model(COINCHE_HARD, COINCHE_HARD, COINCHE_HARD, 0.25, out)


def test_blend_bid_model_refuses_missing_folders_and_mixed_games(tmp_path):
    with pytest.raises(ValueError, match="no model folder policies/models/nope"):
        blend_bid_model(COINCHE_HARD, "policies/models/nope", COINCHE_HARD, 0.5, tmp_path / "a")
    with pytest.raises(ValueError, match="of different games: cards coinche, bids classic and coinche"):
        blend_bid_model(COINCHE_HARD, "policies/models/hard", COINCHE_HARD, 0.5, tmp_path / "b")
    import shutil

    other = tmp_path / "unit162"
    shutil.copytree(COINCHE_HARD, other)
    meta = json.loads((other / "bids" / "meta.json").read_text())
    (other / "bids" / "meta.json").write_text(json.dumps({**meta, "value_unit": 162.0}))
    with pytest.raises(ValueError, match="value in different units: 500.0 and 162.0 points"):
        blend_bid_model(COINCHE_HARD, COINCHE_HARD, other, 0.5, tmp_path / "d")
    out = blend_bid_model(COINCHE_HARD, COINCHE_HARD, COINCHE_HARD, 0.5, tmp_path / "c")
    assert "belote blend" in json.loads((out / "meta.json").read_text())["note"]


def test_grow_net_keeps_the_values_and_adds_units_that_learn():
    """Wider layers and added layers: the same outputs before any fit; the new units
    get gradients (their outgoing weights) so a fit can use them; shrinking is refused."""
    torch.manual_seed(1)
    net = BeloteNet(pi=[32, 16]).eval()
    x = (torch.rand(50, net.obs_size) < 0.2).float()
    for pi in ([32, 16], [48, 24], [32, 16, 16], [40, 20, 30, 30]):
        grown = grow_net(net, pi, seed=3)
        assert grown.config["pi"] == pi
        assert torch.allclose(grown.logits(x), net.logits(x), atol=1e-5)
    grown = grow_net(net, [48, 24, 24], seed=3)
    grown.logits(x).square().sum().backward()
    head = grown.action_net.weight.grad
    assert head[:, 16:].abs().sum() > 0  # the new units' outgoing weights learn
    with pytest.raises(ValueError, match="at least as wide"):
        grow_net(net, [16, 16])
    with pytest.raises(ValueError, match="at least as wide"):
        grow_net(net, [32])
    with pytest.raises(ValueError, match="an added layer must be at least as wide as the last one \\(16\\)"):
        grow_net(net, [32, 16, 8])
    for scale in (float("nan"), float("inf"), 1e30, "0.1"):
        with pytest.raises(ValueError, match="scale must be a number in \\[0, 1\\]"):
            grow_net(net, [48, 24], scale=scale)
    with pytest.raises(ValueError, match="seed must be an int in 0..2\\*\\*63-1"):
        grow_net(net, [48, 24], seed=2 ** 70)


def test_compiled_kernel_skips_a_blends_zero_blocks_exactly():
    """A blend's later layers are block-diagonal: the compiled kernel reads each unit's
    weights only over its block (``CompiledNet.hspan``), with the same outputs bit for bit
    as over the whole row, and torch's up to float32 rounding."""
    import numpy as np

    from policies.batch import CompiledNet
    from policies.network import COINCHE_BID_ACTIONS, coinche_bid_permutation_table

    torch.manual_seed(1)
    a = BeloteNet(obs_size=COINCHE_OBS_SIZE, pi=[48, 40]).eval()
    b = BeloteNet(obs_size=COINCHE_OBS_SIZE, pi=[16, 24]).eval()
    net = blend_nets(a, b, 0.6)
    first, width, table = COINCHE_BID_ACTIONS[0], len(COINCHE_BID_ACTIONS), coinche_bid_permutation_table()
    fast = CompiledNet(net, first, width, table)
    assert fast.hspan[:48].tolist() == [[0, 40]] * 48 and fast.hspan[48:].tolist() == [[40, 64]] * 16
    obs = (torch.rand(32, COINCHE_OBS_SIZE) < 0.1).float().numpy()
    got = fast(obs)
    full = CompiledNet(net, first, width, table)
    full.hspan[:] = [0, 64]  # every row read whole
    assert np.array_equal(got, full(obs))
    from policies.batch import network_outputs

    np.testing.assert_allclose(got, network_outputs(net, obs, first, width, table), atol=1e-5, rtol=1e-5)


def test_distil_bid_model_fits_the_teachers_bid_values(tmp_path):
    """The distilled folder keeps the teacher's cards, its bid network is of the given
    width and plays the teacher's bids on most of its own auction decisions; the bad
    arguments are refused with the rule that was broken."""
    from training.blend import distil_bid_model

    out = distil_bid_model(COINCHE_HARD, tmp_path / "d", width=64, tables=64, steps=60, epochs=4, lr=1e-3, seed=3)
    card, ref = load_card_net(out)[0].state_dict(), load_card_net(COINCHE_HARD)[0].state_dict()
    assert all(torch.equal(card[k], ref[k]) for k in ref)
    net, avg, acts = load_bid_net(out)
    teacher, t_avg, t_acts = load_bid_net(COINCHE_HARD)
    assert net.config["pi"] == [64, 64] and (avg, acts) == (t_avg, t_acts)
    meta = json.loads((out / "bids" / "meta.json").read_text())["distilled"]
    assert meta["decisions"] > 500 and meta["teacher_net"] == teacher.config["pi"]
    assert meta["fit"]["agree"] > 0.6  # an unfitted network: 0.40 on these decisions
    assert "belote distil" in json.loads((out / "meta.json").read_text())["note"]
    with pytest.raises(FileExistsError, match="exists: give a new folder"):
        distil_bid_model(COINCHE_HARD, out)
    with pytest.raises(ValueError, match="no coinche bid-value network .*distil supports coinche models"):
        distil_bid_model("policies/models/hard", tmp_path / "e")
    with pytest.raises(ValueError, match="epsilon must be a number in \\[0, 1\\]"):
        distil_bid_model(COINCHE_HARD, tmp_path / "f", epsilon=1.5)
    with pytest.raises(ValueError, match="hidden layers \\[256, 256\\], not \\[64, 64\\]"):
        distil_bid_model(COINCHE_HARD, tmp_path / "g", width=64, init=COINCHE_HARD)
    for bad, match in (({"lr": float("inf")}, "lr must be a finite number > 0"),
                       ({"lr": 0.0}, "lr must be a finite number > 0"),
                       ({"seed": 2 ** 63}, "seed must be an int in 0..2\\*\\*63-1")):
        with pytest.raises(ValueError, match=match):
            distil_bid_model(COINCHE_HARD, tmp_path / "h", **bad)
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="cannot be created: .*file is not a folder"):
        distil_bid_model(COINCHE_HARD, tmp_path / "file" / "x")
    import shutil

    no_cards = tmp_path / "no_cards"
    shutil.copytree(COINCHE_HARD, no_cards)
    shutil.rmtree(no_cards / "cards")
    with pytest.raises(ValueError, match="has no card-value network \\(cards/\\)"):
        distil_bid_model(no_cards, tmp_path / "i")
    assert not any(p.name.startswith(("h", "i", ".h", ".i")) for p in tmp_path.iterdir())  # nothing half-written
