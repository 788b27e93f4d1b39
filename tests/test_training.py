"""Smoke tests of the main job (``belote train`` then ``belote eval``) and the model format."""

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
import yaml

from belote_env import GameState, Rules
from policies import make_policy
from policies.network import BeloteNet, CheckpointError, load_model, save_model
from training.cli import main
from training.config import ConfigError, TrainConfig, load_config

TINY = {"exp_name": "smoke", "total_timesteps": 2048, "n_tables": 16, "n_steps": 32, "batch_size": 128,
        "n_epochs": 1, "net_pi": [32], "net_vf": [32], "checkpoint_every": 1024, "eval_pairs": 5}


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("train")
    cfg = tmp / "tiny.yaml"
    cfg.write_text(yaml.safe_dump({**TINY, "log_dir": str(tmp / "runs")}))
    assert main(["train", "--config", str(cfg), "--no-progress"]) == 0
    (run,) = list((tmp / "runs").iterdir())
    return run


def test_train_writes_run_folder(trained_run):
    run = trained_run
    assert run.name.startswith("belote_v0__smoke__0__")
    assert yaml.safe_load((run / "config.yaml").read_text())["total_timesteps"] == 2048
    assert list(run.glob("events.out.tfevents.*")), "TensorBoard events written"
    ckpts = sorted(p.name for p in (run / "checkpoints").iterdir())
    assert ckpts == ["final", "step_000001024", "step_000002048"]
    ev = json.loads((run / "eval.json").read_text())
    assert ev["timesteps"] == 2048 and ev["vs_random"]["deals"] == 10 and ev["vs_easy"]["deals"] == 10
    meta = json.loads((run / "checkpoints" / "final" / "meta.json").read_text())
    assert meta["action_table_version"] == 1 and meta["obs_encoder_version"] == 1
    assert meta["rules"]["target"] is None and meta["timesteps"] == 2048


def test_eval_cli_on_checkpoint(trained_run, capsys, tmp_path):
    out = tmp_path / "r.json"
    assert main(["eval", str(trained_run / "checkpoints" / "final"), "easy", "--deals", "20", "--no-progress",
                 "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "10 mirrored deal pairs, 20 deals" in text and "95% CI" in text
    r = json.loads(out.read_text())
    assert r["deals"] == 20 and 0.0 <= r["win_rate"] <= 1.0


def test_loaded_checkpoint_plays_legal_moves(trained_run):
    pol = make_policy(str(trained_run / "checkpoints" / "final"))
    rng = random.Random(0)
    for seed in range(30):
        st = GameState(Rules(target=None), seed=seed)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            a = pol.act(info) if st.current % 2 == 0 else info.legal_actions[rng.randrange(len(info.legal_actions))]
            assert a in info.legal_actions
            st.apply(a)


def _model_dir(tmp_path):
    net = BeloteNet(pi=[16], vf=[16])
    return save_model(tmp_path / "m", net.state_dict(), net.config)


def test_model_roundtrip(tmp_path):
    d = _model_dir(tmp_path)
    net, meta = load_model(d)
    assert meta["net"]["pi"] == [16]
    net2, _ = load_model(d / "model.safetensors")
    x = np.zeros((1, net.config["obs_size"]), np.float32)
    import torch

    assert torch.equal(net(torch.from_numpy(x))[0], net2(torch.from_numpy(x))[0])


def test_corrupt_and_mismatched_checkpoints_raise(tmp_path):
    d = _model_dir(tmp_path)
    with pytest.raises(CheckpointError, match="nothing: no such file or folder"):
        load_model(tmp_path / "nothing")
    meta = json.loads((d / "meta.json").read_text())
    (d / "meta.json").write_text(json.dumps({**meta, "obs_encoder_version": 99}))
    with pytest.raises(CheckpointError, match="obs_encoder_version 99"):
        load_model(d)
    (d / "meta.json").write_text(json.dumps({**meta, "net": {**meta["net"], "pi": [17]}}))
    with pytest.raises(CheckpointError, match="do not match"):
        load_model(d)
    (d / "meta.json").write_text("{not json")
    with pytest.raises(CheckpointError, match="corrupt metadata"):
        load_model(d)
    (d / "meta.json").write_text(json.dumps(meta))
    (d / "model.safetensors").write_bytes(b"\x00garbage" * 10)
    with pytest.raises(CheckpointError, match="corrupt weights"):
        load_model(d)


def test_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="unknown config key 'lr'"):
        TrainConfig.from_dict({"lr": 1})
    with pytest.raises(ConfigError, match="n_tables"):
        TrainConfig(n_tables=0)
    with pytest.raises(ConfigError, match="config key 'opponents': policy 'hard,normal' is a team .* 2-player game"):
        TrainConfig(rules={"players": 2}, engine="reference", opponents={"hard,normal": 1.0})
    with pytest.raises(ConfigError, match=r"'n_tables' must be at most 65,536 \(MAX_N_TABLES.*got 100,000,000,000"):
        TrainConfig(n_tables=100_000_000_000)  # refused before any RNG or array is made
    with pytest.raises(ConfigError, match=r"'n_steps' x 'n_tables' \(1,000 x 65,536\) must be at most 16,777,216"):
        TrainConfig(n_tables=65_536, n_steps=1000)
    p = tmp_path / "c.yaml"
    p.write_text("rules: {tie: sometimes}\n")
    from belote_env import RuleOptionError

    with pytest.raises(RuleOptionError, match="'tie'"):
        load_config(p)
    p.write_text("seed: 1\nn_tables: 8\nseed: 2\n")  # YAML would keep the last seed silently
    with pytest.raises(ConfigError, match=r"(?s)c.yaml: not valid YAML .*found the key 'seed' twice \(lines 1 and 3\)"):
        load_config(p)


def test_coinche_trains_and_resumes_on_the_default_batched_engine(tmp_path):
    """A coinche config with the default engine (batched) trains its card play (PPO, a
    perfect-information critic) and its bids (``bid_learner: q``, ids 32..101) on
    coinche observations (1141 floats), then resumes from its checkpoint."""
    from belote_env.observation import obs_size
    from training.train import bid_actions_of, train

    rules = {"contract_mode": "coinche"}
    cfg = {**TINY, "exp_name": "coinche", "rules": rules, "eval_pairs": 2, "perfect_critic": True,
           "bid_learner": "q", "bid_fit_batch": 32, "log_dir": str(tmp_path / "runs")}
    assert TrainConfig(**cfg).engine == "batched"
    p = tmp_path / "c.yaml"
    p.write_text(yaml.safe_dump(cfg))
    assert main(["train", "--config", str(p), "--no-progress"]) == 0
    (run,) = list((tmp_path / "runs").iterdir())
    meta = json.loads((run / "checkpoints" / "final" / "meta.json").read_text())
    assert meta["net"]["obs_size"] == obs_size(Rules(contract_mode="coinche")) == 1141
    assert meta["parts"] == ["bids"] and meta["rules"]["contract_mode"] == "coinche"
    bids = json.loads((run / "checkpoints" / "final" / "bids" / "meta.json").read_text())
    assert bids["bid_actions"] == bid_actions_of(Rules(contract_mode="coinche"))
    assert bids["bid_actions"][:6] == [32, 40, 41, 42, 43, 46] and bids["bid_actions"][-2:] == [100, 101]
    ev = json.loads((run / "eval.json").read_text())
    assert ev["vs_easy"]["deals"] == 4
    import shutil

    shutil.rmtree(run / "checkpoints" / "final")  # as if killed after the second checkpoint...
    shutil.rmtree(run / "checkpoints" / "step_000002048" / "bids")  # ...whose bids/ was then lost
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["train", "--resume", str(run), "--no-progress"]) == 0
    assert "step_000002048/bids: missing, the checkpoint is incomplete" in err.getvalue()
    assert "resuming from the previous checkpoint" in err.getvalue()
    ev = json.loads((run / "eval.json").read_text())
    assert ev["timesteps"] == 2048 and ev["resumed_from"] == 1024
    assert (run / "checkpoints" / "final" / "bids" / "model.safetensors").exists()
    pol = make_policy(run / "checkpoints" / "final", seed=0)
    st = GameState(Rules(contract_mode="coinche", target=None), seed=4)
    for _ in range(400):  # a coinche deal ends (or is passed out) well within 400 decisions
        if st.is_deal_over:
            break
        info = st.information_set(st.current)
        a = pol.act(info)
        assert a in info.legal_actions
        st.apply(a)
    assert st.is_deal_over


@pytest.mark.parametrize("learner", ["ppo", "q"])
def test_training_refuses_the_412_action_coinche_game_naming_the_options(learner):
    """A générale or bids above 160 widen coinche to 412 actions, which the trainer's
    networks do not play: refused before any run folder, naming only the options given."""
    with pytest.raises(ConfigError, match=r"'rules': generale True give the 412-action coinche game"):
        TrainConfig(bid_learner=learner, rules={"contract_mode": "coinche", "generale": True})
    with pytest.raises(ConfigError, match=r"'rules': max_numeric_bid 250 give the 412-action") as e:
        TrainConfig(bid_learner=learner, rules={"contract_mode": "coinche", "max_numeric_bid": 250})
    assert "generale True" not in str(e.value)
    TrainConfig(bid_learner=learner, rules={"contract_mode": "coinche"})


def test_main_job_progress_is_truthful_and_says_its_precision(tmp_path, capsys):
    """The bar's total is the step count the run ends at (whole rollouts: 1,500 asked, 3
    rollouts of 512 = 1,536), it starts after the first rollout (its time left leaves out
    the start-up), the closing matches show bars, the start says whether the hidden layers
    run in bfloat16, recorded in eval.json and the final meta.json, and the closing
    matches print in the order played: random, easy, normal."""
    from training.vector_selfplay import bf16_supported

    cfg = tmp_path / "p.yaml"
    cfg.write_text(yaml.safe_dump({**TINY, "total_timesteps": 1500, "checkpoint_every": 100_000, "eval_pairs": 2,
                                   "log_dir": str(tmp_path / "runs")}))
    assert main(["train", "--config", str(cfg)]) == 0
    out, err = capsys.readouterr()
    frames = [f for f in err.replace("\r", "\n").split("\n") if f.startswith("self-play:")]
    assert frames and "512/1536" in frames[0] and "1536/1536" in frames[-1]
    assert "/1500" not in err and "0/1536" not in frames[0]
    for tier in ("random", "easy", "normal"):
        assert f"learner vs {tier}: 100%" in err
    native = bf16_supported()
    assert f"hidden layers in {'bfloat16' if native else 'float32'} (bf16: auto" in out
    assert [line.split(":")[0].strip() for line in out.splitlines() if line.startswith("  vs ")] == \
        ["vs random", "vs easy", "vs normal"]
    (run,) = list((tmp_path / "runs").iterdir())
    assert json.loads((run / "eval.json").read_text())["bf16"] is native
    assert json.loads((run / "checkpoints" / "final" / "meta.json").read_text())["bf16"] is native


def test_cli_reports_bad_policy(capsys):
    assert main(["eval", "nonexistent_tier", "easy", "--deals", "2", "--no-progress"]) == 2
    assert "unknown policy 'nonexistent_tier'" in capsys.readouterr().err


def test_selfplay_trajectories_receive_their_own_final_rewards():
    """Every learner seat's trajectory ends with that seat's team reward; packing whole
    trajectories into buffer columns keeps each column's bootstrap consistent."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from training.selfplay import SelfPlayCollector, StreamSpec

    col = SelfPlayCollector(Rules(), n_tables=2, seed=0)
    spec = StreamSpec(8)
    pol = MaskableActorCriticPolicy(spec.observation_space, spec.action_space, lambda _: 1e-3, net_arch=[16])
    finished = []
    orig = col._tables._end_deal

    def spy(j):
        st = col.tables[j]
        finished.append((st.deal_score, [list(col.traj[j][s]) for s in range(4)], [a for a in st.actions]))
        return orig(j)

    col._tables._end_deal = spy
    while len(finished) < 20:
        col.step(pol)
    played = 0
    for score, trajs, actions in finished:
        for s in range(4):
            t = trajs[s]
            assert len(t) == sum(1 for seat, _ in actions if seat == s)  # one transition per own decision
            assert t[-1].done and all(not x.done and x.reward == 0.0 for x in t[:-1])
            assert t[0].episode_start and not any(x.episode_start for x in t[1:])
            want = 0.0 if score is None else score.difference(s & 1) / 162.0
            assert t[-1].reward == pytest.approx(want)
        played += score is not None
    assert played > 5
    ready = col.n_ready
    cols, last_values, dones = col.take(8, 4)
    assert col.n_ready == ready - 32 and all(len(c) == 8 for c in cols)
    for c, column in enumerate(cols):
        assert dones[c] == column[-1].done
        if not dones[c]:  # cut mid-trajectory: the rest starts the next column (or the next rollout)
            nxt = cols[c + 1][0] if c + 1 < len(cols) else col.episodes[0][0]
            assert not nxt.episode_start and last_values[c] == pytest.approx(nxt.value)
    with pytest.raises(RuntimeError, match="not enough"):
        col.take(10_000, 4)


def test_collector_worker_processes_play_the_same_kind_of_trajectories():
    """workers=2: the tables run in two processes; each seat's trajectory still ends with
    its own team reward, the pool (with a snapshot) is used, and runs are deterministic."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from policies.network import NetworkPolicy
    from training.selfplay import OpponentPool, SelfPlayCollector, StreamSpec

    spec = StreamSpec(16)
    th = pytest.importorskip("torch")
    th.manual_seed(0)
    pol = MaskableActorCriticPolicy(spec.observation_space, spec.action_space, lambda _: 1e-3, net_arch=[16])
    runs = []
    for _ in range(2):
        th.manual_seed(1)  # the learner samples its actions from torch's generator
        pool = OpponentPool({"self": 1, "snapshots": 1, "easy": 1}, random.Random(3))
        col = SelfPlayCollector(Rules(), n_tables=4, seed=1, pool=pool, workers=2)
        try:
            col.add_snapshot(NetworkPolicy(BeloteNet(pi=[8], vf=[8]), deterministic=False, seed=0, name="s0"))
            while len(col.deal_stats) < 16:
                col.step(pol)
        finally:
            col.close()
        runs.append(col)
        eps = list(col.episodes)
        assert eps and all(t[-1].done and not any(x.done for x in t[:-1]) for t in eps)
        assert any(t[-1].reward > 0 for t in eps) and any(t[-1].reward < 0 for t in eps)
        assert all(t[0].episode_start for t in eps)
        assert {s["kind"] for s in col.deal_stats} == {"self", "snapshot", "easy"}
        with pytest.raises(RuntimeError, match="worker processes"):
            col.tables
    a, b = runs
    assert [s["decisions"] for s in a.deal_stats] == [s["decisions"] for s in b.deal_stats]
    assert [[x.action for x in t] for t in a.episodes] == [[x.action for x in t] for t in b.episodes]
    with pytest.raises(ValueError, match="workers"):
        SelfPlayCollector(Rules(), n_tables=2, seed=0, workers=3)


def test_encode_perfect_holds_the_other_hands_and_the_stock():
    from belote_env.observation import OBS_SIZE
    from training.selfplay import PERFECT_SIZE, encode_perfect

    st = GameState(Rules(target=None), seed=5)
    out = np.zeros(PERFECT_SIZE, dtype=np.float32)
    encode_perfect(st, 1, out)
    for r in (1, 2, 3):
        assert np.flatnonzero(out[32 * (r - 1):32 * r]).tolist() == [c for c in range(32) if st.hands[(1 + r) % 4] >> c & 1]
    assert sorted(np.flatnonzero(out[96:]).tolist()) == sorted(st.stock) and len(st.stock) == 11
    while st.phase == 0:  # somebody takes (or the deal is void)
        st.apply(33 if 33 in st.legal_actions() else st.legal_actions()[0])
    encode_perfect(st, 1, out)
    assert out[96:].sum() == 0 and out[:96].sum() == 24  # dealt: the stock is gone, 3 hands of 8
    assert OBS_SIZE + PERFECT_SIZE == 746


def test_perfect_critic_run_exports_a_policy_that_reads_the_observation_only(tmp_path):
    """perfect_critic: the critic reads the hidden hands, the exported policy never does."""
    import torch

    from belote_env.observation import OBS_SIZE
    from training.selfplay import PERFECT_SIZE
    from training.train import train

    cfg = TrainConfig(**{**TINY, "eval_pairs": 0, "log_dir": str(tmp_path / "runs"), "perfect_critic": True,
                         "imitation_deals": 3})
    run = train(cfg, progress=False)
    net, meta = load_model(run / "checkpoints" / "final")
    assert meta["net"]["critic_extra"] == PERFECT_SIZE
    assert net.mlp_extractor.value_net[0].in_features == OBS_SIZE + PERFECT_SIZE
    assert net.mlp_extractor.policy_net[0].in_features == OBS_SIZE
    x = torch.rand(5, OBS_SIZE + PERFECT_SIZE)
    y = x.clone()
    y[:, OBS_SIZE:] = torch.rand(5, PERFECT_SIZE)  # other hidden hands
    (la, va), (lb, vb) = net(x), net(y)
    assert torch.equal(la, lb) and not torch.equal(va, vb)
    pol = make_policy(run / "checkpoints" / "final", seed=0)
    st = GameState(Rules(target=None), seed=9)
    while not st.is_deal_over:
        info = st.information_set(st.current)
        a = pol.act(info)
        assert a in info.legal_actions
        st.apply(a)
    # warm start from a model whose critic differs: the policy loads, the critic starts afresh
    cfg2 = TrainConfig(**{**TINY, "eval_pairs": 0, "log_dir": str(tmp_path / "runs2"), "perfect_critic": False,
                          "init_from": str(run / "checkpoints" / "final"), "total_timesteps": 1024})
    run2 = train(cfg2, progress=False)
    net2, meta2 = load_model(run2 / "checkpoints" / "final")
    assert "critic_extra" not in meta2["net"]
    with pytest.raises(ConfigError, match="policy part"):
        train(TrainConfig(**{**TINY, "log_dir": str(tmp_path / "runs3"), "net_pi": [16],
                             "init_from": str(run / "checkpoints" / "final")}), progress=False)


def test_empty_layer_lists_give_linear_heads_matching_sb3(tmp_path):
    import torch as th
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from belote_env.observation import OBS_SIZE
    from training.selfplay import PERFECT_SIZE, PerfectCriticPolicy, StreamSpec

    assert BeloteNet().config["pi"] == [256, 256] and BeloteNet(pi=None, vf=None).config["vf"] == [256, 256]
    for perfect in (False, True):
        extra = PERFECT_SIZE if perfect else 0
        net = BeloteNet(pi=[], vf=[], critic_extra=extra)
        assert net.config["pi"] == [] and net.config["vf"] == []
        assert net.action_net.in_features == OBS_SIZE and net.value_net.in_features == OBS_SIZE + extra
        spec = StreamSpec(4, OBS_SIZE + extra)
        sb3 = (PerfectCriticPolicy if perfect else MaskableActorCriticPolicy)(
            spec.observation_space, spec.action_space, lambda _: 1e-3, net_arch={"pi": [], "vf": []},
            activation_fn=th.nn.ReLU)
        keys = set(net.state_dict())
        net.load_state_dict({k: v for k, v in sb3.state_dict().items() if k in keys}, strict=True)
        d = save_model(tmp_path / f"linear{perfect}", net.state_dict(), net.config)
        loaded, meta = load_model(d)
        assert meta["net"]["pi"] == [] and th.equal(loaded.action_net.weight, sb3.action_net.weight)


@pytest.mark.parametrize("key, value, why", [
    ("pi", [-5], "pi must be a list of at most 16 hidden layer sizes, each an int in 1..16384"),
    ("pi", [0], "pi must be a list of at most 16 hidden layer sizes"),
    ("vf", [10 ** 9], "vf must be a list of at most 16 hidden layer sizes, each an int in 1..16384"),
    ("pi", [8] * 17, "pi must be a list of at most 16"),
    ("pi", "256", "pi must be a list"),
    ("pi", [16.0], "pi must be a list"),
    ("pi", [True], "pi must be a list"),
    ("obs_size", -1, "obs_size must be an int in 1..16384, got -1"),
    ("activation", ["relu"], r"activation must be one of \['relu', 'tanh'\], got \['relu'\]"),
])
def test_corrupt_net_description_raises_checkpoint_error(tmp_path, key, value, why):
    d = _model_dir(tmp_path)
    meta = json.loads((d / "meta.json").read_text())
    (d / "meta.json").write_text(json.dumps({**meta, "net": {**meta["net"], key: value}}))
    with pytest.raises(CheckpointError, match=rf"{re.escape(str(d / 'meta.json'))}: bad network description .*\({why}"):
        load_model(d)


@pytest.mark.parametrize("kw, why", [
    ({"learning_rate": float("nan")}, r"'learning_rate' must be a finite non-negative number, got nan"),
    ({"clip_range": float("inf")}, r"'clip_range' must be a finite non-negative number, got inf"),
    ({"gamma": float("inf")}, r"'gamma' must be a finite number in \[0, 1\], got inf"),
    ({"gae_lambda": 7}, r"'gae_lambda' must be a finite number in \[0, 1\], got 7"),
    ({"opponents": {"self": float("nan")}}, r"'opponents' must map names .* to finite non-negative weights"),
    ({"opponents": {"self": 1, "normal": float("inf")}}, r"'opponents' must map names .* finite non-negative"),
    ({"opponents": {"self": 1, "nosuch": 1}},
     r"config key 'opponents': unknown policy 'nosuch': expected one of random, easy, normal, hard, expert, hard_oracle, "
     r"<policy>\+search, a team <lead>,<partner>, a model folder path or a policy factory module.path:attribute "
     r"\(or self, snapshots\)"),
    ({"exp_name": None}, r"'exp_name' must be a non-empty string \(part of the run folder's name\), got None"),
    ({"exp_name": "../../etc"}, r"'exp_name' names a run folder: no '/' or '\\', got '\.\./\.\./etc'"),
    ({"log_dir": 5}, r"'log_dir' must be a non-empty string \(the folder of the run folders\), got 5"),
    ({"imitation_teacher": 3}, r"'imitation_teacher' must be a non-empty string \(a tier name or model folder"),
    ({"imitation_teacher": "nosuch", "imitation_deals": 10},
     r"config key 'imitation_teacher': unknown policy 'nosuch': expected one of random, easy"),
    ({"init_from": "/nonexist"}, r"'init_from' must be the path of an existing model folder \(belote export "
                                 r"format\) or null, got '/nonexist'"),
    ({"net_pi": [10 ** 9]}, r"'net_pi' must be a list of at most 16 hidden layer sizes, each an int in 1\.\.16384"),
])
def test_config_rejects_non_finite_and_unresolvable_values(tmp_path, kw, why):
    with pytest.raises(ConfigError, match=why):
        TrainConfig(**{**kw, "log_dir": kw.get("log_dir", str(tmp_path / "runs"))})
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("text, kind", [("[1, 2]\n", "list"), ("hello\n", "str"), ("[]\n", "list"), ("7\n", "int")])
@pytest.mark.parametrize("command", ["train", "iterate"])
def test_config_files_must_hold_a_mapping_of_keys(tmp_path, capsys, command, text, kind):
    """``belote train`` and ``belote iterate`` read their configs through one reader
    (``training.config.read_config_file``): a document that is not a mapping is refused
    naming the file, even an empty list (once read as the default config)."""
    from training.iterate import load_iterate_config

    p = tmp_path / "c.yaml"
    p.write_text(text)
    why = f"config {p} must hold a mapping of keys, got {kind}"
    with pytest.raises(ConfigError) as e:
        (load_config if command == "train" else load_iterate_config)(p)
    assert str(e.value) == why
    assert main([command, "--config", str(p), "--no-progress"]) == 2
    assert capsys.readouterr().err == f"belote {command}: error: {why}\n"


def test_config_accepts_what_works(tmp_path):
    from policies import network
    from training import config

    assert (config.MAX_HIDDEN_LAYERS, config.MAX_LAYER_WIDTH) == (network.MAX_HIDDEN_LAYERS, network.MAX_LAYER_WIDTH)
    for layers in ([], [1], [8] * network.MAX_HIDDEN_LAYERS):
        TrainConfig(net_pi=layers, net_vf=layers)
        BeloteNet(pi=layers, vf=layers)
    d = str(_model_dir(tmp_path))
    cfg = TrainConfig(opponents={"self": 1, "snapshots": 1, "easy": 1, "normal+search": 1, d: 1}, snapshot_every=10,
                      init_from=d, imitation_teacher=d)
    assert cfg.init_from == d and cfg.opponents[d] == 1


#: Linux's /proc: a folder in which no file or folder can be created
PROC = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")


def _no_work(*args, **kw):
    raise AssertionError("the command started its work before checking its output path")


@pytest.mark.parametrize("argv, why", [
    (["eval", "random", "easy", "--deals", "2", "--no-progress", "--json", "{tmp}"],
     r"--json {tmp}: is a folder; give the path of a file to write"),
    (["eval", "random", "easy", "--deals", "2", "--no-progress", "--json", "{tmp}/nonexist/x.json"],
     r"--json {tmp}/nonexist/x.json: the folder {tmp}/nonexist does not exist"),
    (["eval", "random", "easy", "--deals", "2", "--no-progress", "--failure-record", "{tmp}"],
     r"--failure-record {tmp}: is a folder"),
    (["ladder", "random", "easy", "--pairs", "1", "--no-progress", "--plot", "{tmp}/plot"],
     r"--plot {tmp}/plot\.png: is a folder; give the path of a file to write"),
    (["ladder", "random", "easy", "--pairs", "1", "--no-progress", "--plot", "{tmp}/r.xyz"],
     r"cannot plot to '{tmp}/r\.xyz': the file suffix must be one of \.png, \.svg, \.pdf"),
    (["ladder", "random", "easy", "--pairs", "1", "--no-progress", "--json", "{tmp}/no/r.json"],
     r"--json {tmp}/no/r.json: the folder {tmp}/no does not exist"),
    (["play", "--save", "{tmp}"], r"--save {tmp}: is a folder; give the path of a file to write"),
    (["export", "{model}", "{tmp}/afile"], r"output folder {tmp}/afile: is an existing file; give a folder"),
    (["export", "{model}", ""], r"output folder: the path is empty; give a folder \(created if missing\)"),
    (["eval", "random", "easy", "--deals", "2", "--no-progress", "--json", ""],
     r"--json: the path is empty; give the path of a file to write"),
    (["ladder", "random", "easy", "--pairs", "1", "--no-progress", "--plot", ""],
     r"cannot plot to '': the path is empty; give a file name ending in \.png, \.svg, \.pdf"),
    pytest.param(["ladder", "random", "easy", "--pairs", "1", "--no-progress", "--plot", "/proc/belote_ratings.png"],
                 r"--plot /proc/belote_ratings\.png: cannot be written \(No such file or directory\); give another "
                 r"path",
                 marks=PROC),
    pytest.param(["eval", "random", "easy", "--deals", "2", "--no-progress", "--json", "/proc/belote_result.json"],
                 r"--json /proc/belote_result\.json: cannot be written \(No such file or directory\)", marks=PROC),
])
def test_cli_checks_output_paths_before_the_work(tmp_path, monkeypatch, capsys, argv, why):
    import training.evaluate
    import training.ladder
    import training.play
    from training import export

    for mod, name in ((training.evaluate, "duplicate_match"), (training.ladder, "run_ladder"),
                      (training.play, "play_game_interactive"), (export, "export_model")):
        monkeypatch.setattr(mod, name, _no_work)
    (tmp_path / "afile").write_text("x")
    (tmp_path / "plot.png").mkdir()  # where --plot {tmp}/plot would write
    fill = {"tmp": str(tmp_path), "model": str(_model_dir(tmp_path))}
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")  # where an empty output path would write
    assert main([a.format(**fill) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"belote {argv[0]}: error: ")
    assert re.search(why.replace("{tmp}", re.escape(str(tmp_path))), err), err
    assert list((tmp_path / "cwd").iterdir()) == []


@pytest.mark.parametrize("port, shown", [("99999", "99999"), ("65536", "65536"), ("0", "0"), ("-1", "-1"),
                                         ("http", "'http'"), ("80.5", "'80.5'")])
def test_cli_serve_port_must_be_a_tcp_port(monkeypatch, capsys, port, shown):
    """``belote serve --port`` takes 1..65535, refused while the arguments are parsed (exit
    2, argparse's usage line), before any server starts."""
    import training.cli

    monkeypatch.setattr(training.cli, "_cmd_serve", _no_work)
    with pytest.raises(SystemExit) as e:
        main(["serve", f"--port={port}"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(f"belote serve: error: argument --port: {shown} is not a port number: give an int in "
                        "1..65535\n"), err
    assert training.cli.build_parser().parse_args(["serve", "--port", "65535"]).port == 65535


@pytest.mark.parametrize("command", [["eval", "easy", "random"], ["play"], ["train"], ["ladder", "easy", "random"],
                                     ["distil", "--model", "m", "--out", "o"], ["train-rllib", "--config", "c"]])
def test_cli_seeds_are_non_negative_ints(capsys, command):
    """Every ``--seed`` takes 0..2**63-1, refused while the arguments are parsed: a negative
    seed would deal as its absolute value."""
    import training.cli

    parser = training.cli.build_parser()
    bits = 32 if command[0] in ("train", "train-rllib", "distil") else 63  # the trainers seed numpy: 32 bits
    for bad, shown in (("-1", "-1"), ("1.5", "'1.5'"), (str(2 ** bits), str(2 ** bits))):
        with pytest.raises(SystemExit) as e:
            parser.parse_args(command + ["--seed", bad])
        assert e.value.code == 2
        assert f"argument --seed: {shown} is not a seed: give an int in 0..2**{bits}-1" in capsys.readouterr().err
    assert parser.parse_args(command + ["--seed", "0"]).seed == 0
    assert parser.parse_args(command + ["--seed", str(2 ** bits - 1)]).seed == 2 ** bits - 1


def test_cli_ladder_plot_prints_the_file_written(tmp_path, capsys):
    target = tmp_path / "ratings"
    assert main(["ladder", "random", "easy", "--pairs", "1", "--no-progress", "--plot", str(target),
                 "--json", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert f"plot saved to {target}.png\n" in out and (tmp_path / "ratings.png").is_file() and not target.exists()
    assert f"ratings saved to {tmp_path / 'r.json'}" in out


def test_cli_export_to_a_file_path_and_unwritable_output(tmp_path, capsys):
    model = _model_dir(tmp_path)
    (tmp_path / "afile").write_text("x")
    assert main(["export", str(model), str(tmp_path / "afile" / "sub")]) == 2
    assert f"output folder {tmp_path / 'afile' / 'sub'}: cannot be created, {tmp_path / 'afile'} is a file" in \
        capsys.readouterr().err
    if Path("/proc/self").is_dir():  # a folder that cannot be created: the path and what failed, no [Errno 2]
        assert main(["export", str(model), "/proc/belote_model"]) == 2
        assert capsys.readouterr().err == ("belote export: error: output folder /proc/belote_model: cannot be created "
                                           "or written (No such file or directory)\n")
    long_name = tmp_path / ("x" * 300 + ".json")  # refused before the match (OSError: File name too long)
    assert main(["eval", "random", "easy", "--deals", "2", "--no-progress", "--json", str(long_name)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("belote eval: error: ") and "File name too long" in err and "Traceback" not in err


@pytest.mark.parametrize("key, value, bound", [("bid_replay", 10**12, "2,097,152"), ("eval_pairs", 10**8, "10,000,000"),
                                               ("periodic_eval_pairs", 10**8, "10,000,000"),
                                               ("total_timesteps", 10**13, "1,099,511,627,776"),
                                               ("max_snapshots", 10**6, "1,000"), ("workers", 10**4, "256")])
def test_config_sizes_are_bounded_before_anything_is_allocated(key, value, bound):
    with pytest.raises(ConfigError, match=f"config key '{key}' must be at most {bound} "):
        TrainConfig(**{key: value})


def test_match_workers_are_bounded():
    from training.evaluate import duplicate_match

    with pytest.raises(ValueError, match=r"workers must be an int in 1\.\.256"):
        duplicate_match("random", "random", 10, workers=1000)


def test_two_and_three_seat_runs_train_on_the_batched_engine_and_play_their_table(tmp_path):
    """``players: 3`` with the default engine (batched: ``BatchedGame``, each rollout
    ``n_steps * n_tables`` decisions, suit renamings on) trains, matches its checkpoints
    and exports a model that plays three-seat deals; the four-seat-only keys are refused
    at two and three seats, naming the key."""
    from belote_env.observation import CUTTHROAT_OBS_SIZE
    from policies.network import NetworkPolicy

    assert TrainConfig(rules={"players": 2}).engine == "batched"
    for key, value in (("bid_learner", "q"), ("random_bids_until", 1000)):
        with pytest.raises(ConfigError, match=f"config key '{key}' must be .* with rules players 3"):
            TrainConfig(rules={"players": 3}, **{key: value})
    with pytest.raises(ConfigError, match="'perfect_critic' must be false with rules players 2"):
        TrainConfig(rules={"players": 2}, perfect_critic=True)
    cfg = {**TINY, "exp_name": "three", "rules": {"players": 3}, "policy_augment": True, "eval_pairs": 2,
           "opponents": {"self": 0.5, "normal": 0.5}, "log_dir": str(tmp_path / "runs")}
    p = tmp_path / "c.yaml"
    p.write_text(yaml.safe_dump(cfg))
    assert main(["train", "--config", str(p), "--no-progress"]) == 0
    (run,) = list((tmp_path / "runs").iterdir())
    final = run / "checkpoints" / "final"
    meta = json.loads((final / "meta.json").read_text())
    assert meta["net"]["obs_size"] == CUTTHROAT_OBS_SIZE[3] and meta["rules"]["players"] == 3
    assert json.loads((run / "eval.json").read_text())["vs_easy"]["deals"] > 0
    out = tmp_path / "model"
    assert main(["export", str(final), str(out)]) == 0
    from belote_env.game import GameState
    import random

    st = GameState(Rules(players=3), rng=random.Random(1), single_deal=True)
    pol = NetworkPolicy.from_path(out, name="three")
    while not st.is_deal_over:  # apply raises IllegalActionError on an action not legal at the seat
        st.apply(pol.act(st.information_set(st.current)))


def test_rollout_actors_without_ray_is_refused_before_any_run_folder(monkeypatch):
    import importlib.util

    from training.config import ConfigError, load_config

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    with pytest.raises(ConfigError, match=r"config key 'rollout_actors' needs Ray: pip install -e \"\.\[rllib\]\""):
        load_config("configs/train/quick.yaml", {"rollout_actors": 2})
    load_config("configs/train/quick.yaml", {"rollout_actors": 0})  # no actors: Ray not needed


def test_only_the_final_checkpoints_export_carries_the_runs_evaluation(trained_run, tmp_path):
    """``eval.json`` holds the final model's match figures: exported with ``checkpoints/final``,
    not with a step checkpoint (another model than the one the figures are of)."""
    from training.export import export_model

    ev = json.loads((trained_run / "eval.json").read_text())
    export_model(trained_run / "checkpoints" / "final", tmp_path / "final")
    meta = json.loads((tmp_path / "final" / "meta.json").read_text())
    assert meta["evaluation"] == {k: v for k, v in ev.items() if k.startswith("vs_")}
    assert meta["evaluation"]["vs_easy"]["deals"] == 10
    export_model(trained_run / "checkpoints" / "step_000001024", tmp_path / "step")
    meta = json.loads((tmp_path / "step" / "meta.json").read_text())
    assert "evaluation" not in meta and meta["exported_from"].endswith("step_000001024")


class _TornFile:
    """A file whose first write stores half its data, then fails (a full disk, or a kill
    mid-write, as the tester's ``tornwrite.py`` does)."""

    def __init__(self, f):
        self.f = f

    def write(self, data):
        self.f.write(data[: len(data) // 2])
        self.f.flush()
        raise OSError(28, "No space left on device")

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


@pytest.mark.parametrize("argv, name", [
    (["eval", "random", "easy", "--deals", "4", "--no-progress", "--json"], "r.json"),
    (["ladder", "random", "easy", "--pairs", "1", "--no-progress", "--json"], "r.json"),
    (["ladder", "random", "easy", "--pairs", "1", "--no-progress", "--plot"], "r.png")])
def test_a_failing_write_of_eval_and_ladder_outputs_leaves_the_old_file_whole(argv, name, tmp_path, monkeypatch):
    """``eval --json``, ``ladder --json`` and ``ladder --plot`` write atomically: a write
    that fails half-way (every file opened for writing in the output folder) leaves the
    previous file as it was, and no temporary file."""
    import builtins
    import io

    out = tmp_path / "out"
    out.mkdir()
    (out / name).write_bytes(b"the previous result")
    real_open = io.open

    def torn_open(file, mode="r", *a, **k):
        f = real_open(file, mode, *a, **k)
        if any(c in mode for c in "wax") and (isinstance(file, int) or Path(file).parent == out):
            return _TornFile(f)
        return f

    monkeypatch.setattr(io, "open", torn_open)
    monkeypatch.setattr(builtins, "open", torn_open)
    try:
        rc = main(argv + [str(out / name)])
    except OSError:
        rc = None
    monkeypatch.undo()
    assert rc != 0
    assert (out / name).read_bytes() == b"the previous result"
    assert sorted(p.name for p in out.iterdir()) == [name]
