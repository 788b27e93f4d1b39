"""Self-play on the batched engine (``training.vector_selfplay``): GAE over each seat's
own trajectory, void deals that go on into the redeal, decisions handed over whole."""

from __future__ import annotations

import numpy as np
import pytest
import torch as th

from belote_env import Rules
from belote_env.observation import OBS_SIZE
from training.selfplay import SelfPlayPPO, StreamSpec
from training.vector_selfplay import VectorCollector, _finish, policy_step, use_bf16


def _model(n_columns: int, seed: int = 0) -> SelfPlayPPO:
    return SelfPlayPPO("MlpPolicy", StreamSpec(n_columns), n_steps=8, batch_size=64, n_epochs=1,
                       policy_kwargs={"net_arch": {"pi": [32], "vf": [32]}}, device="cpu", seed=seed)


def test_gae_follows_each_seat_and_ends_with_its_reward():
    """Hand-checked: seat 0 decides at flat rows 0, 2, 4 (values .1 .2 .3), seat 1 at 1, 3
    (values .5 .4); the deal ends with +1 for seat 0, -1 for seat 1; lambda .5, gamma 1."""
    pend = np.zeros((1, 8), dtype=np.int64)
    pend[0, :5] = [0, 1, 2, 3, 4]
    pend_len = np.array([5])
    seat = np.array([0, 1, 0, 1, 0])
    value = np.array([0.1, 0.5, 0.2, 0.4, 0.3])
    adv, ret, reward = np.zeros(5), np.zeros(5), np.zeros(5)
    done, complete = np.zeros(5, bool), np.zeros(5, bool)
    rewards = np.array([[1.0, -1.0, 1.0, -1.0]])
    _finish(pend, pend_len, np.array([0]), rewards, seat, value, adv, ret, reward, done, complete, 1.0, 0.5)
    # seat 0: A2 = 1 - .3 = .7; A1 = (.3 - .2) + .5 * .7 = .45; A0 = (.2 - .1) + .5 * .45 = .325
    # seat 1: A1 = -1 - .4 = -1.4; A0 = (.4 - .5) + .5 * -1.4 = -.8
    np.testing.assert_allclose(adv, [0.325, -0.8, 0.45, -1.4, 0.7])
    np.testing.assert_allclose(ret, adv + value)
    assert done.tolist() == [False, False, False, True, True]
    assert reward.tolist() == [0, 0, 0, -1, 1]
    assert complete.all() and pend_len[0] == 0


def test_collector_rollouts_hold_whole_trajectories_with_zero_sum_rewards():
    model = _model(16)
    col = VectorCollector(Rules(target=None), 16, seed=3)
    model.collector = col
    while col.n_ready < 2000:
        col.step(model.policy)
    stats = col.deal_stats
    played = [s for s in stats if not s["void"]]
    assert played and all(s["decisions"] >= 33 for s in played)  # a bid or more, 32 cards
    d = col.take(1500)
    assert d["obs"].shape == (1500, OBS_SIZE) and d["mask"][np.arange(1500), d["action"]].all()
    # the final rewards are +-(points difference)/162 and the returns of terminal rows equal them
    term = d["done"]
    assert term.sum() > 100
    np.testing.assert_allclose(d["ret"][term], d["reward"][term])
    assert (np.abs(d["reward"][term]) <= 500 / 162).all() and (d["reward"][~term] == 0).all()
    # what was not taken keeps its pending trajectories: stepping on finishes them
    while col.n_ready < 3000:
        col.step(model.policy)
    assert col.take(3000)["done"].sum() > 100


def test_void_deals_continue_the_trajectories():
    """An always-pass start: the seats' first 8 passes are followed, in the same trajectory,
    by the redeal's decisions (no terminal row with reward 0 at the void deal)."""
    model = _model(8)
    col = VectorCollector(Rules(target=None), 8, seed=5)
    passes = 0
    while passes < 40:  # force passes on the first deals
        g = col.game
        g.mask[:, 33:40] = 0  # only pass is left where the auction is on
        g.mask[:, 32] = np.where(g.state[:, 5] < 0, 1, g.mask[:, 32])
        col.step(model.policy)
        passes += 1
    voids = sum(s["void"] for s in col.deal_stats)
    assert voids >= 8
    assert col.n_ready == 0  # nothing ended: every void went on into its redeal


def test_policy_step_log_probs_match_sb3():
    model = _model(4)
    col = VectorCollector(Rules(target=None), 64, seed=1)
    from belote_env.vector import encode_batch

    obs = encode_batch(col.game)
    mask = col.game.mask.astype(bool)
    th.manual_seed(0)
    with th.no_grad():
        act, values, logp = policy_step(model.policy, obs, mask)
    assert mask[np.arange(64), act].all()
    with th.no_grad():
        v2, lp2, _ = model.policy.evaluate_actions(th.from_numpy(obs), th.from_numpy(act), action_masks=mask)
    np.testing.assert_allclose(logp.numpy(), lp2.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(values.numpy(), v2.detach().numpy(), rtol=1e-6)


def test_bf16_keeps_weights_float32_and_outputs_close():
    model = _model(4)
    col = VectorCollector(Rules(target=None), 32, seed=2)
    from belote_env.vector import encode_batch

    obs = th.from_numpy(encode_batch(col.game))
    ref = model.policy.mlp_extractor(obs)[0]
    use_bf16(model.policy)
    out = model.policy.mlp_extractor(obs)[0]
    assert out.dtype == th.float32 and all(p.dtype == th.float32 for p in model.policy.parameters())
    assert th.allclose(out, ref, atol=0.05)


def test_policy_step_never_draws_a_masked_action_even_when_a_uniform_draw_is_one(monkeypatch):
    """torch's float32 uniform draws can round up to 1.0; the Gumbel-max draw must still pick
    a legal action (it once picked a masked one: -log(-log(1)) is +inf)."""
    model = _model(4)
    col = VectorCollector(Rules(target=None), 64, seed=1)
    from belote_env.vector import encode_batch

    obs = encode_batch(col.game)
    mask = col.game.mask.astype(bool)
    monkeypatch.setattr(th, "rand_like", lambda x: th.ones_like(x))
    with th.no_grad():
        act, _, logp = policy_step(model.policy, obs, mask)
    assert mask[np.arange(64), act].all() and bool(th.isfinite(logp).all())


@pytest.mark.parametrize("mode", ["scaled", "points", "win"])
def test_reward_modes_scale_the_point_difference_as_point_reward(mode):
    from belote_env.driver import point_reward

    model = _model(8)
    col = VectorCollector(Rules(target=None), 8, seed=4, reward_mode=mode)
    while col.n_ready < 300:
        col.step(model.policy)
    d = col.take(300)
    allowed = {point_reward(x, mode) for x in range(-600, 601)}
    assert d["done"].any() and set(d["reward"][d["done"]].tolist()) <= allowed
    if mode == "win":
        assert set(d["reward"][d["done"]].tolist()) <= {-1.0, 0.0, 1.0}


def test_a_q_bid_run_saves_exports_and_plays_its_bid_network(tmp_path):
    """bid_learner: q writes bids/ with each checkpoint; export carries it; the loaded policy
    makes its bids with it (greedy), as NetworkPolicy's bid_net."""
    from policies.network import NetworkPolicy
    from training.config import TrainConfig
    from training.export import export_model
    from training.train import train

    cfg = TrainConfig(exp_name="qbids", total_timesteps=1024, n_tables=16, n_steps=32, batch_size=256, n_epochs=1,
                      net_pi=[32], net_vf=[32], bid_net=[16], bid_learner="q", bid_fit_steps=2, bid_fit_batch=64,
                      checkpoint_every=512, eval_pairs=2, log_dir=str(tmp_path / "runs"))
    run = train(cfg, progress=False)
    final = run / "checkpoints" / "final"
    assert (final / "bids" / "model.safetensors").is_file()
    out = export_model(final, tmp_path / "exported")
    p = NetworkPolicy.from_path(out)
    assert p.bid_net is not None and p.bid_actions == tuple(range(32, 38))
    # a resume from the last step checkpoint picks the bid network up again; a finished run
    # is left as it is
    import shutil

    from training.train import RunCompleteError

    with pytest.raises(RunCompleteError, match="the run is complete"):
        train(progress=False, resume=run)
    shutil.rmtree(final)
    (run / "eval.json").unlink()
    train(progress=False, resume=run)
    assert (final / "bids" / "model.safetensors").is_file() and (run / "eval.json").is_file()


def test_encode_perfect_batch_equals_the_reference_encode_perfect():
    """The batched perfect-critic inputs equal ``training.selfplay.encode_perfect`` of the
    same deal (GameState replayed on the same deck and actions), bidding and play."""
    from belote_env import GameState
    from belote_env.vector import BatchedGame
    from belote_env.vector.engine import COL
    from training.selfplay import PERFECT_SIZE, encode_perfect
    from training.vector_selfplay import encode_perfect_batch

    rules = Rules(target=None)
    g = BatchedGame(8, rules, seed=6)

    def ref(j):
        return GameState(rules, dealer=int(g.state[j, COL["dealer"]]), deck=[int(c) for c in g.deck[j]],
                         single_deal=True)

    refs = [ref(j) for j in range(8)]
    tables = np.arange(8)
    checked = 0
    for _ in range(150):
        seats = g.current.astype(np.int64)
        got = np.empty((8, PERFECT_SIZE), dtype=np.float32)
        encode_perfect_batch(g, tables, seats, got)
        for j in range(8):
            want = encode_perfect(refs[j], int(seats[j]), np.empty(PERFECT_SIZE, dtype=np.float32))
            np.testing.assert_array_equal(got[j], want)
            checked += 1
        a = g.random_actions()
        for j in range(8):
            refs[j].apply(int(a[j]))
        g.step(a)
        for j in np.flatnonzero(g.done):
            refs[j] = ref(j)
    assert checked == 1200


def test_bid_learner_average_and_augment_follow_the_suit_renamings():
    """``bid_average`` chooses by the mean of the 24 renamings' values mapped back to the
    deal's bids (a "name suit s" bid moves with its suit); ``bid_augment`` fits each row
    under a renaming whose bid is the renamed bid; both are refused without bid_learner q."""
    import itertools

    from belote_env.vector import BatchedGame
    from belote_env.vector.observation import encode_tables_kernel
    from training.config import ConfigError, TrainConfig
    from training.vector_selfplay import BidLearner

    perms = list(itertools.permutations(range(4)))
    bl = BidLearner([16], 1e-3, 0.0, 256, seed=0, augment=True, average=True)
    for p, perm in enumerate(perms):  # the deal's bid b is renamed bid inverse[p, b]: name s -> name perm[s]
        assert bl._bid_inverse[p].tolist() == [0, 1] + [2 + perm[s] for s in range(4)] + [6, 7]
    # observations of round-2 decisions (name a suit legal) from random play
    g = BatchedGame(256, Rules(), seed=3)
    rows = []
    for _ in range(20):
        t = np.flatnonzero(g.mask[:, 34:38].any(1))
        if len(t):
            o = np.empty((len(t), OBS_SIZE), dtype=np.float32)
            encode_tables_kernel(g.state, g.bids, g.mask, g.points, t, g.current[t].astype(np.int64), o)
            rows += [(o[i], g.mask[t[i]].copy()) for i in range(len(t))]
        g.step(g.random_actions())
    assert len(rows) >= 8
    obs = np.stack([r[0] for r in rows])
    mask = np.stack([r[1] for r in rows])
    with th.no_grad():
        po = bl._po
        by_hand = np.zeros((len(obs), 8))
        for p in range(24):  # value of the deal's bid b = value of renamed bid inverse[p, b] in renaming p
            q = bl.net.logits(th.from_numpy(obs)[:, po[p]])[:, 32:40].numpy()
            by_hand += q[:, bl._bid_inverse[p].numpy()] / 24
    from policies.batch import network_outputs

    np.testing.assert_allclose(network_outputs(bl.net, obs, 32, 8, bl._bid_table), by_hand, atol=1e-6)
    legal = mask[:, 32:40].astype(bool)
    top2 = np.sort(np.where(legal, by_hand, -np.inf), 1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-5  # rows whose best bid float rounding cannot change
    assert clear.sum() >= 8
    chosen = bl.choose(obs, mask, explore=False)
    assert np.array_equal(chosen[clear], 32 + np.where(legal, by_hand, -np.inf).argmax(1)[clear])
    bl.add(obs, bl.choose(obs, mask, explore=False), np.ones(len(obs), dtype=np.float32))
    assert np.isfinite(bl.fit(2, 4))
    for key in ("bid_augment", "bid_average"):
        with pytest.raises(ConfigError, match=key):
            TrainConfig(**{key: True})
        with pytest.raises(ConfigError, match=key):
            TrainConfig(bid_learner="q", engine="batched", **{key: 1})


def test_max_minutes_stops_a_run_and_resume_counts_the_time_already_spent(tmp_path):
    """``max_minutes`` ends training at the first rollout past the limit (the final
    checkpoint and eval.json follow, ``train_seconds`` recorded); a resumed run counts the
    seconds its checkpoint recorded. The bid options run end to end."""
    import json

    from training.config import TrainConfig
    from training.train import train

    cfg = TrainConfig(exp_name="timed", total_timesteps=10 ** 7, n_tables=16, n_steps=32, batch_size=256, n_epochs=1,
                      net_pi=[32], net_vf=[32], bid_net=[16], bid_learner="q", bid_fit_steps=2, bid_fit_batch=64,
                      bid_augment=True, bid_average=True, checkpoint_every=10 ** 6, eval_pairs=0, max_minutes=1e-4,
                      log_dir=str(tmp_path / "runs"))
    run = train(cfg, progress=False)
    out = json.loads((run / "eval.json").read_text())
    assert out["stopped_by_max_minutes"] is True and out["timesteps"] == 512  # one rollout trained, then the limit
    trainer = json.loads((run / "checkpoints" / "final" / "trainer.json").read_text())
    assert trainer["train_seconds"] >= 0.006
    # the clock's stop writes a step checkpoint (none was due before 10**6 steps): resume starts there
    step = json.loads((run / "checkpoints" / "step_000000512" / "trainer.json").read_text())
    assert step["timesteps"] == 512 and step["train_seconds"] >= 0.006
    again = train(progress=False, resume=run)  # the limit is already spent: no more training
    out2 = json.loads((again / "eval.json").read_text())
    assert out2["stopped_by_max_minutes"] is True and out2["timesteps"] == 512
    for bad in (-1, 10 ** 400, float("nan"), True, "1"):
        with pytest.raises(Exception, match="max_minutes"):
            TrainConfig(max_minutes=bad)
    from training.train import _read_trainer_state
    from policies.network import CheckpointError

    for bad in ("10" + "0" * 400, "-1", "true", "[1]", '"5"'):
        path = tmp_path / "trainer.json"
        path.write_text('{"timesteps": 512, "train_seconds": %s}' % bad)
        with pytest.raises(CheckpointError, match="train_seconds"):
            _read_trainer_state(path)


def test_lr_final_anneals_the_ppo_learning_rate_by_timestep(tmp_path):
    """``lr_final`` / ``lr_decay_from``: the learning rate each PPO update uses (logged as
    ``train/learning_rate``) falls linearly from ``learning_rate`` at ``lr_decay_from`` to
    ``lr_final`` at ``total_timesteps``; bad settings are refused by name."""
    import csv

    from training.config import ConfigError, TrainConfig
    from training.train import train

    cfg = TrainConfig(exp_name="anneal", total_timesteps=2048, n_tables=16, n_steps=32, batch_size=256, n_epochs=1,
                      net_pi=[16], net_vf=[16], learning_rate=1e-3, lr_final=2e-4, lr_decay_from=512,
                      checkpoint_every=10 ** 6, eval_pairs=0, log_dir=str(tmp_path / "runs"))
    assert [cfg.learning_rate_at(t) for t in (0, 512, 1280, 2048, 4096)] == pytest.approx(
        [1e-3, 1e-3, 6e-4, 2e-4, 2e-4])
    run = train(cfg, progress=False)
    with open(run / "progress.csv") as f:
        rows = [r for r in csv.DictReader(f) if r.get("train/learning_rate")]
    # each update runs after its rollout, at timesteps 512, 1024, 1536, 2048 (SB3 writes an
    # update's logs with the next rollout's: the last one's are not in the file)
    assert [float(r["train/learning_rate"]) for r in rows] == pytest.approx([1e-3, 7.333e-4, 4.667e-4], rel=1e-3)
    constant = TrainConfig(learning_rate=1e-3)
    assert constant.learning_rate_at(10 ** 9) == 1e-3
    with pytest.raises(ConfigError, match="lr_decay_from.*below"):
        TrainConfig(total_timesteps=1000, lr_final=0.0, lr_decay_from=1000)
    with pytest.raises(ConfigError, match="lr_decay_from.*needs 'lr_final'"):
        TrainConfig(lr_decay_from=10)
    for bad in (-1e-4, float("nan"), True, "0.1"):
        with pytest.raises(ConfigError, match="lr_final"):
            TrainConfig(lr_final=bad)


def test_bid_augment_fits_renamed_observations():
    """With ``augment`` the rows a fit step reads are renamings of the replayed
    observations (several different ones in a batch); without it, the observations as
    replayed."""
    from training.vector_selfplay import BidLearner

    rng = np.random.default_rng(0)
    obs = (rng.random((1, OBS_SIZE)) < 0.3).astype(np.float32)
    for augment in (True, False):
        bl = BidLearner([16], 1e-3, 0.0, 64, seed=0, augment=augment)
        bl.add(np.repeat(obs, 64, 0), np.full(64, 35), np.zeros(64, dtype=np.float32))
        seen = []
        inner = bl._fit_logits
        bl._fit_logits = lambda x: (seen.append(x.detach().clone()), inner(x))[1]
        bl.fit(1, 64)
        rows = seen[0].numpy()
        if augment:
            renamings = {p: obs[0][bl._po[p].numpy()] for p in range(24)}
            assert all(any(np.array_equal(r, v) for v in renamings.values()) for r in rows)
            assert len({r.tobytes() for r in rows}) > 4
        else:
            assert (rows == obs).all()


@pytest.mark.parametrize("perfect,kwargs", [(False, {}), (True, {}), (True, {"clip_range_vf": 0.1, "target_kl": 0.002})])
def test_lean_ppo_update_equals_maskable_ppo_train(perfect, kwargs):
    """``SelfPlayPPO.train`` (one masked log_softmax, minibatches gathered in SB3's order)
    updates the weights as ``MaskablePPO.train`` does on the same rollout buffer and
    random state: same minibatches, losses, value clipping, early stop at target_kl."""
    import copy

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import configure_logger

    from training.selfplay import PERFECT_SIZE, PerfectCriticPolicy

    n = 32
    model = SelfPlayPPO(PerfectCriticPolicy if perfect else "MlpPolicy",
                        StreamSpec(n, OBS_SIZE + (PERFECT_SIZE if perfect else 0)), n_steps=8, batch_size=64,
                        n_epochs=3, learning_rate=1e-3, policy_kwargs={"net_arch": {"pi": [32], "vf": [32]}},
                        device="cpu", seed=0, **kwargs)
    model.collector = VectorCollector(Rules(target=None), n, seed=0, perfect=perfect)
    model.set_logger(configure_logger(0, None, "", False))
    model.train = lambda: None  # fill the rollout buffer only
    model.learn(total_timesteps=n * 8)
    del model.train
    twin = copy.deepcopy(model)
    before = [p.detach().clone() for p in model.policy.parameters()]
    np.random.seed(5)
    th.manual_seed(5)
    model.train()
    np.random.seed(5)
    th.manual_seed(5)
    MaskablePPO.train(twin)
    assert model._n_updates == twin._n_updates
    moved = max((a - b).abs().max().item() for a, b in zip(model.policy.parameters(), before))
    assert moved > 1e-4
    for a, b in zip(model.policy.parameters(), twin.policy.parameters()):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=1e-6)
    for key in ("train/value_loss", "train/policy_gradient_loss", "train/entropy_loss", "train/approx_kl"):
        assert model.logger.name_to_value[key] == pytest.approx(twin.logger.name_to_value[key], rel=1e-4, abs=1e-7)


@pytest.mark.skipif(not th.cpu._is_avx512_bf16_supported() and not th.cpu._is_amx_tile_supported(),
                    reason="bfloat16 is emulated on this CPU (bf16: auto stays in float32)")
@pytest.mark.parametrize("perfect,arch", [(False, {"pi": [32], "vf": [32]}), (True, {"pi": [32], "vf": [32]}),
                                          (False, {"pi": [], "vf": [32]}), (False, {"pi": [32], "vf": []})])
def test_lean_update_hands_bf16_policies_bfloat16_observations_with_the_same_result(perfect, arch):
    """Under ``use_bf16`` the update casts the rollout's observations to bfloat16 once and
    skips the features extractor (``_bf16_inputs``): the first layers would cast them to
    bfloat16 anyway, so the weights come out as with float32 observations."""
    import copy

    from stable_baselines3.common.utils import configure_logger

    from training.selfplay import PERFECT_SIZE, PerfectCriticPolicy, _bf16_inputs
    from training.vector_selfplay import use_bf16

    n = 32
    model = SelfPlayPPO(PerfectCriticPolicy if perfect else "MlpPolicy",
                        StreamSpec(n, OBS_SIZE + (PERFECT_SIZE if perfect else 0)), n_steps=8, batch_size=64,
                        n_epochs=2, learning_rate=1e-3, policy_kwargs={"net_arch": arch},
                        device="cpu", seed=0)
    model.collector = VectorCollector(Rules(target=None), n, seed=0, perfect=perfect)
    model.set_logger(configure_logger(0, None, "", False))
    model.train = lambda: None  # fill the rollout buffer only
    model.learn(total_timesteps=n * 8)
    del model.train
    twin = copy.deepcopy(model)  # (before use_bf16: its wrappers hold the extractor they wrap)
    use_bf16(model.policy)
    use_bf16(twin.policy)
    twin.policy.bf16_inputs = False
    # an empty net_pi / net_vf has no first layer to cast the input: no bfloat16 observations
    assert _bf16_inputs(model.policy) == bool(arch["pi"] and arch["vf"]) and not _bf16_inputs(twin.policy)
    before = [p.detach().clone() for p in model.policy.parameters()]
    for m in (model, twin):
        np.random.seed(5)
        th.manual_seed(5)
        m.train()
    assert max((a - b).abs().max().item() for a, b in zip(model.policy.parameters(), before)) > 1e-4
    for a, b in zip(model.policy.parameters(), twin.policy.parameters()):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=1e-7)


def test_take_into_given_arrays_writes_what_take_returns():
    """``VectorCollector.take(n, out)`` writes the rows ``take(n)`` would return into the
    given arrays (cast to their dtypes and shapes), and refuses arrays of another length."""
    import copy

    model = _model(8)
    col = VectorCollector(Rules(target=None), 8, seed=3)
    while col.n_ready < 200:
        col.step(model.policy)
    twin = copy.deepcopy(col)
    plain = col.take(150)
    out = {"obs": np.zeros((150, OBS_SIZE), np.float32), "action": np.zeros((150, 1), np.int64),
           "value": np.zeros(150, np.float32), "mask": np.zeros((150, plain["mask"].shape[1]), np.float32)}
    got = twin.take(150, out)
    for name in out:
        assert got[name] is out[name]
        np.testing.assert_allclose(out[name].reshape(plain[name].shape), plain[name], rtol=1e-6)
    np.testing.assert_array_equal(got["adv"], plain["adv"])
    assert twin.n == col.n
    with pytest.raises(ValueError, match="wanted 10 rows"):
        twin.take(10, {"obs": np.zeros((9, OBS_SIZE), np.float32)})


def test_numpy_huge_pages_switch_returns_the_previous_setting():
    from training.vector_selfplay import numpy_huge_pages

    was = numpy_huge_pages(False)
    try:
        assert numpy_huge_pages(True) is False
        assert numpy_huge_pages(False) is True
    finally:
        numpy_huge_pages(was)


def test_bid_fit_on_a_thread_equals_the_fit_in_line():
    """``start_fit`` / ``finish_fit`` (the fit on its own thread, ``bid_fit_overlap``) give
    the weights ``fit`` gives on the same replay; bids added while a fit runs wait for the
    next one; the acting network keeps its weights until ``finish_fit``; a fit's error
    reaches ``finish_fit``'s caller."""
    from training.vector_selfplay import BidLearner

    rng = np.random.default_rng(1)
    obs = (rng.random((600, OBS_SIZE)) < 0.2).astype(np.float32)
    act = rng.integers(32, 36, 600)
    tgt = rng.standard_normal(600).astype(np.float32)
    th.manual_seed(0)  # the initial weights
    a = BidLearner([32], 1e-2, 0.1, 1000, seed=3, augment=True)
    th.manual_seed(0)
    b = BidLearner([32], 1e-2, 0.1, 1000, seed=3, augment=True)
    a.add(obs[:400], act[:400], tgt[:400])
    b.add(obs[:400], act[:400], tgt[:400])
    before = [p.detach().clone() for p in b.net.parameters()]
    threads = th.get_num_threads()
    th.set_num_threads(1)  # the thread's fit runs one torch thread: the in-line fit too (a 2-thread
    try:  # matrix product may round otherwise, as MKL's AVX2 kernels do)
        a.fit(8, 128)
    finally:
        th.set_num_threads(threads)
    b.start_fit(8, 128)
    b.add(obs[400:], act[400:], tgt[400:])  # arrives during the fit: not read by it
    b._thread.join()
    assert all(th.equal(p, q) for p, q in zip(b.net.parameters(), before))  # not yet taken
    b.finish_fit()
    assert b.size == 400 and b.added == 600 and a.loss == b.loss
    for p, q in zip(a.net.parameters(), b.net.parameters()):
        assert th.equal(p, q)
    assert not all(th.equal(p, q) for p, q in zip(b.net.parameters(), before))
    b.start_fit(1, 128)  # the pending 200 enter the replay now
    b.finish_fit()
    assert b.size == 600
    b._fit_logits = lambda x: 1 / 0
    b.start_fit(1, 128)
    with pytest.raises(ZeroDivisionError):
        b.finish_fit()


def test_policy_augment_plays_a_renamed_position_and_maps_the_action_back(monkeypatch):
    """With ``rename`` every learner decision is a suit renaming of the true position: the
    policy's observation is ``obs[po[p]]`` (its legal-card block equal to the renamed
    mask's cards), its mask ``mask[table[p]]``, the critic's hidden hands renamed by the
    card index, and the table plays ``table[p, a]`` for the policy's action ``a``; several
    renamings are drawn."""
    import training.vector_selfplay as vs
    from belote_env.observation import OFFSET
    from belote_env.vector.observation import encode_tables_kernel
    from policies.network import action_permutation_table, suit_permutation_tables

    po, pc = (t.numpy() for t in suit_permutation_tables())
    table = action_permutation_table().numpy()
    col = VectorCollector(Rules(target=None), 16, seed=4, perfect=True, rename=True)
    g = col.game
    rng = np.random.default_rng(0)
    seen = {"rows": 0, "renamings": set(), "cards": 0}
    played = {}

    def fake_policy_step(policy, obs, mask):
        tables = np.arange(g.n)  # pure self-play without a bid learner: every table's seat
        truth = np.empty((len(tables), OBS_SIZE), dtype=np.float32)
        encode_tables_kernel(g.state, g.bids, g.mask, g.points, tables, g.current.astype(np.int64), truth)
        hidden = np.empty((len(tables), obs.shape[1] - OBS_SIZE), dtype=np.float32)
        vs.encode_perfect_batch(g, tables, g.current.astype(np.int64), hidden)
        act = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        for i in range(len(tables)):  # the renamings this row can be (a position may look the same under two)
            ps = [p for p in range(24) if np.array_equal(obs[i, :OBS_SIZE], truth[i][po[p]])
                  and np.array_equal(mask[i], g.mask[i].astype(bool)[table[p]])
                  and np.array_equal(obs[i, OBS_SIZE:].reshape(-1, 32), hidden[i].reshape(-1, 32)[:, pc[p]])]
            assert ps, "the observation, mask and hidden hands are no renaming of the position"
            if mask[i, :32].any():
                np.testing.assert_array_equal(obs[i, OFFSET["legal"]:OFFSET["legal"] + 32], mask[i, :32])
                seen["cards"] += 1
            played[i] = {int(table[p, act[i]]) for p in ps}
            if len(ps) == 1:
                seen["renamings"].add(ps[0])
        seen["rows"] += len(tables)
        return act, th.zeros((len(act), 1)), th.zeros(len(act))

    monkeypatch.setattr(vs, "policy_step", fake_policy_step)
    step = g.step

    def checked_step(actions):
        for i, a in played.items():
            assert actions[i] in a and g.mask[i, actions[i]]
        played.clear()
        return step(actions)

    monkeypatch.setattr(g, "step", checked_step)
    for _ in range(60):
        col.step(None)
    assert seen["rows"] == 60 * 16 and seen["cards"] > 300 and len(seen["renamings"]) == 24


def test_policy_augment_and_bid_fit_overlap_config_keys_are_checked():
    from training.config import ConfigError, TrainConfig

    assert TrainConfig(engine="batched", policy_augment=True).policy_augment is True
    with pytest.raises(ConfigError, match="policy_augment.*batched"):
        TrainConfig(engine="reference", policy_augment=True)
    with pytest.raises(ConfigError, match="policy_augment.*classic"):
        TrainConfig(engine="batched", policy_augment=True, rules={"contract_mode": "coinche"})
    with pytest.raises(ConfigError, match="policy_augment.*true or false"):
        TrainConfig(engine="batched", policy_augment="yes")
    with pytest.raises(ConfigError, match="bid_fit_overlap"):
        TrainConfig(bid_fit_overlap=True)  # needs bid_learner q
    with pytest.raises(ConfigError, match="bid_fit_overlap"):
        TrainConfig(engine="batched", bid_learner="q", bid_fit_overlap=1)


def test_a_rollout_leaving_a_one_row_minibatch_is_refused():
    from training.config import ConfigError, TrainConfig

    with pytest.raises(ConfigError, match="batch_size.*one row"):
        TrainConfig(n_tables=17, n_steps=15, batch_size=254)  # 255 decisions: 254 + 1
    assert TrainConfig(n_tables=16, n_steps=16, batch_size=128).batch_size == 128


def test_suit_average_cache_follows_writes_that_keep_the_version():
    """A fused Adam step and ``.data`` writes leave a parameter's version as it was: the
    cached weight blocks are rebuilt all the same."""
    from policies.batch import network_outputs
    from policies.network import BeloteNet, bid_permutation_table

    th.manual_seed(0)
    net = BeloteNet(pi=[32])
    obs = (np.random.default_rng(0).random((8, OBS_SIZE)) < 0.2).astype(np.float32)
    table = bid_permutation_table()
    first = network_outputs(net, obs, 32, 8, table)
    opt = th.optim.Adam(net.parameters(), lr=0.1, fused=True)
    net.logits(th.from_numpy(obs))[:, 32:40].sum().backward()
    opt.step()
    fresh = BeloteNet(pi=[32])
    fresh.load_state_dict(net.state_dict())
    after = network_outputs(net, obs, 32, 8, table)
    assert not np.allclose(first, after)
    np.testing.assert_allclose(after, network_outputs(fresh, obs, 32, 8, table), rtol=1e-6, atol=1e-6)
    net.mlp_extractor.policy_net[0].weight.data.mul_(0.5)
    fresh.load_state_dict(net.state_dict())
    np.testing.assert_allclose(network_outputs(net, obs, 32, 8, table), network_outputs(fresh, obs, 32, 8, table),
                               rtol=1e-6, atol=1e-6)



def _small_model(players: int) -> SelfPlayPPO:
    from belote_env.actions import num_actions
    from belote_env.observation import CUTTHROAT_OBS_SIZE

    return SelfPlayPPO("MlpPolicy", StreamSpec(8, CUTTHROAT_OBS_SIZE[players], num_actions(Rules(players=players))),
                       n_steps=8, batch_size=64, n_epochs=1, policy_kwargs={"net_arch": {"pi": [32], "vf": [32]}},
                       device="cpu", seed=0)


@pytest.mark.parametrize("players", [2, 3])
def test_small_table_self_play_ends_each_seat_with_its_own_points_less_the_others_mean(players):
    """Two and three seats on ``BatchedGame`` (pure self-play): each played deal ends
    one trajectory per seat, whose final reward is that seat's own points less the mean of
    the others' / 162 (TWO_THREE.md §2.9, §3: half points at three seats); void deals and
    redeals end none (the seats' trajectories go on into the next deal)."""
    from belote_env.observation import CUTTHROAT_OBS_SIZE

    policy = _small_model(players).policy
    col = VectorCollector(Rules(players=players), 8, seed=4)
    checked, halves = [0], [False]
    end_deals = col._end_deals

    def spy(tables):  # each ended trajectory's rows against the engine's deal result
        before = {j: (col.pend[j, :col.pend_len[j]].copy(), col.game.rewards[j].copy()) for j in tables.tolist()}
        end_deals(tables)
        for j, (rows, diffs) in before.items():
            if col.pend_len[j]:  # void or redeal: the trajectories go on
                assert diffs.tolist() == [0.0] * players
                continue
            last = {int(col.seat[k]): k for k in rows}
            assert sorted(last) == list(range(players))  # every seat decided, each ends here
            for k in rows:
                assert col.done[k] == (last[int(col.seat[k])] == k) and col.complete[k]
            for seat, k in last.items():
                assert col.reward[k] == diffs[seat] / 162
            assert abs(diffs.sum()) < 1e-9
            halves[0] |= bool((diffs % 1 != 0).any())
            checked[0] += 1

    col._end_deals = spy
    while checked[0] < 60:
        col.step(policy)
    voids = [s for s in col.deal_stats if s["void"]]
    assert voids and len(col.deal_stats) - len(voids) == checked[0]
    assert halves[0] == (players == 3)
    d = col.take(col.n_ready)
    assert d["obs"].shape[1] == CUTTHROAT_OBS_SIZE[players] and d["mask"][np.arange(len(d["action"])), d["action"]].all()
    assert d["done"].sum() == players * checked[0] and d["start"].sum() == checked[0]  # one start per table's deal


@pytest.mark.parametrize("players", [2, 3])
def test_small_table_learner_plays_only_its_drawn_seat_against_the_pool(players):
    """Against a frozen opponent (``normal``) the learner plays one seat per deal, drawn
    among all of them (each seat is its own side); the opponent plays the others."""
    import random

    from training.selfplay import OpponentPool

    policy = _small_model(players).policy
    col = VectorCollector(Rules(players=players), 8, seed=5, pool=OpponentPool({"normal": 1.0}, random.Random(2)))
    drawn = set()
    for _ in range(300):
        g = col.game
        mine = np.flatnonzero(g.current == col.learner_team)
        seats, n0 = g.current[mine].copy(), col.n
        drawn.update(col.learner_team.tolist())
        col.step(policy)
        assert col.seat[n0:col.n].tolist() == seats.tolist()
    assert drawn == set(range(players))
    diffs = [s["learner_diff"] for s in col.deal_stats if not s["void"]]
    assert diffs and all(isinstance(x, int) or x % 1 == 0.5 for x in diffs)  # CutthroatDealScore.difference's values
