"""training/rllib: the RLlib env (reward routing), the action-masking RLModule, self-play
snapshots, a short training on a local Ray with 2 env runners, export and play.

Skipped where the ``rllib`` extra (ray) is not installed."""

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

ray = pytest.importorskip("ray")

from ray.rllib.env.multi_agent_episode import MultiAgentEpisode  # noqa: E402

from belote_env import NUM_ACTIONS  # noqa: E402
from belote_env.observation import OBS_SIZE  # noqa: E402
from belote_env.env import deal_reward  # noqa: E402
from policies import make_policy  # noqa: E402
from policies.network import BeloteNet, CheckpointError, load_model  # noqa: E402
from tests.conftest import assert_plays_legal  # noqa: E402
from training.cli import main  # noqa: E402
from training.config import ConfigError  # noqa: E402
from training.rllib.config import RLlibConfig, load_rllib_config  # noqa: E402
from training.rllib.env import BeloteMultiAgentEnv  # noqa: E402
from training.rllib.export import export_rllib_checkpoint, read_module_weights  # noqa: E402
from training.rllib.module import FLOAT_MIN, BeloteTorchRLModule  # noqa: E402
from training.rllib.selfplay import MAIN, make_mapping_fn  # noqa: E402
from training.rllib.train import build_algorithm_config  # noqa: E402

AGENTS = [f"player_{i}" for i in range(4)]
TINY = {"exp_name": "rl_smoke", "total_timesteps": 600, "train_batch_size": 200, "minibatch_size": 100,
        "num_epochs": 1, "net_pi": [32], "net_vf": [32], "num_cpus": 2, "num_env_runners": 2,
        "num_envs_per_env_runner": 1, "checkpoint_every": 2, "eval_pairs": 3, "win_rate_threshold": 0.0, "snapshot_min_deals": 1,
        "max_snapshots": 2}


def test_package_imports_no_ray():
    code = ("import sys, belote_env, policies, training, training.cli, training.evaluate, training.export, "
            "training.rllib, training.rllib.config, training.rllib.export; "
            "sys.exit(1 if any(m == 'ray' or m.startswith('ray.') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def _play_episode(env: BeloteMultiAgentEnv, seed: int) -> tuple[MultiAgentEpisode, list[float]]:
    """One episode with seeded random legal actions, recorded as RLlib's EnvRunner does;
    returns the episode and the team-0 reward of each finished deal (from the engine)."""
    rng = random.Random(seed)
    ep = MultiAgentEpisode(observation_space=env.observation_space, action_space=env.action_space)
    obs, infos = env.reset(seed=seed)
    ep.add_env_reset(observations=obs, infos=infos)
    deal_rewards = []
    while not ep.is_done:
        (agent,) = obs
        legal = np.flatnonzero(obs[agent]["action_mask"])
        action = {agent: int(legal[rng.randrange(len(legal))])}
        deals_before = len(env.env.game.deal_scores)
        obs, rew, term, trunc, infos = env.step(action)
        if len(env.env.game.deal_scores) > deals_before:
            deal_rewards.append(deal_reward_of_last(env))
        ep.add_env_step(observations=obs, actions=action, rewards=rew, infos=infos, terminateds=term,
                        truncateds=trunc)
        obs = {a: o for a, o in obs.items() if not term.get(a)}
    return ep, deal_rewards


def deal_reward_of_last(env: BeloteMultiAgentEnv) -> float:
    """Team 0's scaled reward of the deal that just ended (computed from the engine's score)."""
    score = env.env.game.deal_scores[-1]
    return 0.0 if score is None else score.difference(0) / 162.0


@pytest.mark.parametrize("seed", range(6))
def test_deal_reward_reaches_every_seat(seed):
    env = BeloteMultiAgentEnv({})
    ep, deals = _play_episode(env, seed)
    st = env.env.game
    assert len(deals) == (0 if st.void else 1)
    returns = {a: ep.agent_episodes[a].get_return() for a in AGENTS}
    for i, a in enumerate(AGENTS):
        assert returns[a] == pytest.approx(deal_reward(st, i & 1, "scaled"))
        assert returns[a] == pytest.approx(sum(deals) if i % 2 == 0 else -sum(deals))
        assert len(ep.agent_episodes[a]) >= 1  # every seat acted and was credited
    assert sum(returns.values()) == pytest.approx(0.0, abs=1e-12)


def test_game_episode_rewards_every_deal_to_every_seat():
    env = BeloteMultiAgentEnv({"episode": "game", "target": 301})
    ep, deals = _play_episode(env, seed=3)
    assert len(deals) >= 2, "a game to 301 lasts several deals"
    for i, a in enumerate(AGENTS):
        want = sum(deals) * (1 if i % 2 == 0 else -1)
        assert ep.agent_episodes[a].get_return() == pytest.approx(want)


def test_env_spaces_and_bad_input():
    env = BeloteMultiAgentEnv({})
    space = env.observation_spaces["player_0"]
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["observations"].shape == (OBS_SIZE,) and space["action_mask"].shape == (NUM_ACTIONS,)
    obs, _ = env.reset(seed=0)
    (agent,) = obs
    assert obs[agent]["observations"].dtype == np.float32 and obs[agent]["action_mask"].dtype == np.int8
    other = next(a for a in AGENTS if a != agent)
    with pytest.raises(ValueError, match="expected an action for"):
        env.step({other: 32})
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        env.step({agent: illegal})
    with pytest.raises(ValueError, match="obs_mode"):
        BeloteMultiAgentEnv({"obs_mode": "history"})


def test_module_masks_illegal_actions_and_matches_belotenet():
    env = BeloteMultiAgentEnv({})
    torch.manual_seed(0)
    mod = BeloteTorchRLModule(observation_space=env.observation_spaces["player_0"],
                              action_space=env.action_spaces["player_0"], model_config={"pi": [64], "vf": [32]})
    ref = BeloteNet(pi=[64], vf=[32])
    assert {k: v.shape for k, v in mod.belote_state_dict().items()} == {k: v.shape for k, v in ref.state_dict().items()}
    obs, _ = env.reset(seed=1)
    (agent,) = obs
    batch = {"obs": {k: torch.as_tensor(v)[None] for k, v in obs[agent].items()}}
    logits = mod.forward_exploration(batch)["action_dist_inputs"]
    assert logits.shape == (1, NUM_ACTIONS)
    mask = obs[agent]["action_mask"].astype(bool)
    assert torch.all(logits[0, ~mask] == FLOAT_MIN)
    probs = torch.softmax(logits, -1)[0]
    assert probs[~mask].sum().item() == 0.0 and probs[mask].sum().item() == pytest.approx(1.0)
    ref.load_state_dict(mod.belote_state_dict())
    want = ref.masked_logits(batch["obs"]["observations"], batch["obs"]["action_mask"])
    assert torch.allclose(logits[0, mask], want[0, mask])
    assert mod.compute_values(batch).shape == (1,)
    with pytest.raises(ValueError, match="unknown model_config keys"):
        BeloteTorchRLModule(observation_space=env.observation_spaces["player_0"],
                            action_space=env.action_spaces["player_0"], model_config={"hidden": [8]})


class _Ep:
    def __init__(self, id_):
        self.id_ = id_


def test_mapping_puts_main_on_one_team_and_one_snapshot_on_the_other():
    fn = make_mapping_fn(3)
    seen_teams, seen_snaps = set(), set()
    for i in range(60):
        ep = _Ep(f"episode-{i}")
        mods = [fn(a, ep) for a in AGENTS]
        assert mods[0] == mods[2] and mods[1] == mods[3] and mods.count(MAIN) == 2
        assert [fn(a, ep) for a in AGENTS] == mods  # the same every call
        seen_teams.add(mods.index(MAIN))
        seen_snaps.add(mods[1] if mods[0] == MAIN else mods[0])
    assert seen_teams == {0, 1} and seen_snaps == {"snap_0", "snap_1", "snap_2"}
    with pytest.raises(ValueError):
        make_mapping_fn(0)


@pytest.mark.parametrize("recent,want", [
    ([(10.0, 50), (60.0, 80), (40.0, 60)], (100.0, 140)),  # the last two iterations reach 100 deals
    ([(5.0, 10)], (5.0, 10)),  # fewer deals than asked: all of them
    ([(0.0, 0), (70.0, 100)], (70.0, 100)),  # the last iteration alone is enough
    ([], (0.0, 0)),
])
def test_snapshot_win_rate_uses_the_most_recent_deals(recent, want):
    from training.rllib.selfplay import SelfPlayCallback

    cb = SelfPlayCallback(snapshot_min_deals=100)
    cb.recent = list(recent)
    assert cb.recent_win_rate_counts() == want


def test_config_errors_name_keys(tmp_path):
    with pytest.raises(ConfigError, match="unknown config key 'num_runners'; known keys: .*num_env_runners"):
        RLlibConfig.from_dict({"num_runners": 2})
    with pytest.raises(ConfigError, match="'num_env_runners' must be a non-negative int"):
        RLlibConfig(num_env_runners=-1)
    with pytest.raises(ConfigError, match="'minibatch_size'"):
        RLlibConfig(train_batch_size=100, minibatch_size=200)
    with pytest.raises(ConfigError, match="win_rate_threshold"):
        RLlibConfig(win_rate_threshold=1.5)
    cfg = load_rllib_config("configs/rllib/quick.yaml")
    assert cfg.num_env_runners == 2 and cfg.num_cpus == 2 and cfg.num_learners == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("num_learner: 1\n")
    assert main(["train-rllib", "--config", str(bad)]) == 2


def test_env_runner_episodes_credit_every_seat():
    """RLlib's own sampler (mapping, module, connectors) gives each seat its team's reward."""
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner

    cfg = RLlibConfig.from_dict({**TINY, "num_env_runners": 0})
    runner = MultiAgentEnvRunner(config=build_algorithm_config(cfg))
    episodes = runner.sample(num_episodes=6, random_actions=False)
    modules = set()
    for ep in episodes:
        assert ep.is_done
        returns = {a: ep.agent_episodes[a].get_return() for a in AGENTS}
        us, them = ep.agent_episodes["player_0"].get_infos(-1)["deal_points"]
        for i, a in enumerate(AGENTS):
            assert returns[a] == pytest.approx((us - them) / 162.0 * (1 if i % 2 == 0 else -1))
        modules |= {ep.module_for(a) for a in AGENTS}
    assert MAIN in modules and "snap_0" in modules
    runner.stop()


@pytest.fixture(scope="module")
def rllib_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rllib")
    cfg = tmp / "tiny.yaml"
    cfg.write_text(yaml.safe_dump({**TINY, "log_dir": str(tmp / "runs")}))
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert main(["train-rllib", "--config", str(cfg), "--no-progress"]) == 0
    finally:
        ray.shutdown()
    (run,) = list((tmp / "runs").iterdir())
    return run


def test_training_rewards_reach_every_seat(rllib_run):
    lines = [json.loads(x) for x in (rllib_run / "progress.jsonl").read_text().splitlines()]
    assert [x["iteration"] for x in lines] == [1, 2, 3] and lines[-1]["env_steps"] >= 600
    for x in lines:
        assert x["seats_rewarded"] == 4  # every seat's return equals its team's deal reward
        assert x["zero_sum_error"] == pytest.approx(0.0, abs=1e-9)
        assert x["env_steps_per_s"] > 0
    # threshold 0: a snapshot after every iteration, 2 slots, the third overwrites the oldest
    assert [x["snapshots_taken"] for x in lines] == [1, 2, 3]
    ckpts = sorted(p.name for p in (rllib_run / "checkpoints").iterdir())
    assert ckpts == ["iter_000002", "iter_000003"]
    mods = sorted(p.name for p in (rllib_run / "checkpoints" / "iter_000003" / "learner_group" / "learner"
                                   / "rl_module").iterdir() if p.is_dir())
    assert mods == ["main", "snap_0", "snap_1"]


def test_rllib_export_loads_with_torch_and_plays(rllib_run, tmp_path):
    ckpt = rllib_run / "checkpoints" / "iter_000003"
    out = tmp_path / "exported"
    assert main(["export", str(ckpt), str(out)]) == 0
    net, meta = load_model(out)
    assert meta["net"]["pi"] == [32] and meta["trainer"] == "rllib-ppo" and meta["env_steps"] >= 600
    final, _ = load_model(rllib_run / "model")  # written by the run from the learner's weights
    for (k, a), (k2, b) in zip(net.state_dict().items(), final.state_dict().items()):
        assert k == k2 and torch.equal(a, b)
    policy = make_policy(str(out), seed=0)
    assert_plays_legal(policy, seeds=range(5))
    ev = json.loads((rllib_run / "eval.json").read_text())
    assert ev["vs_easy"]["deals"] == 6 and ev["vs_normal"]["deals"] == 6
    assert main(["eval", str(out), "normal", "--pairs", "2", "--no-progress"]) == 0


def test_export_refuses_code_in_pickles(rllib_run, tmp_path):
    import pickle

    ckpt = tmp_path / "ckpt"
    state = ckpt / "learner_group" / "learner" / "rl_module" / "main" / "module_state.pkl"
    state.parent.mkdir(parents=True)
    (ckpt / "belote_meta.json").write_text((rllib_run / "checkpoints" / "iter_000003" / "belote_meta.json").read_text())
    state.write_bytes(pickle.dumps({"net.x": subprocess.Popen}))
    with pytest.raises(CheckpointError, match="refusing to load subprocess.Popen"):
        read_module_weights(ckpt)
    with pytest.raises(CheckpointError, match="belote_meta.json is missing"):
        export_rllib_checkpoint(tmp_path / "nothing", tmp_path / "out")
    state.write_bytes(pickle.dumps({"net.action_net.weight": np.zeros((3, 3), np.float32)}))
    with pytest.raises(CheckpointError, match="weights do not match the network"):
        export_rllib_checkpoint(ckpt, tmp_path / "out")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("kw, why", [
    ({"lr": float("nan")}, r"'lr' must be a finite non-negative number, got nan"),
    ({"time_budget_s": float("nan")}, r"'time_budget_s' must be a finite non-negative number, got nan"),
    ({"time_budget_s": float("inf")}, r"'time_budget_s' must be a finite non-negative number, got inf"),
    ({"gamma": float("nan")}, r"'gamma' must be a finite number in \[0, 1\], got nan"),
    ({"clip_param": float("inf")}, r"'clip_param' must be a finite non-negative number, got inf"),
    ({"exp_name": None}, r"'exp_name' must be a non-empty string \(part of the run folder's name\), got None"),
    ({"exp_name": "a/b"}, r"'exp_name' names a run folder: no '/' or '\\', got 'a/b'"),
    ({"log_dir": ["x"]}, r"'log_dir' must be a non-empty string \(the folder of the run folders\), got \['x'\]"),
    ({"net_vf": [0]}, r"'net_vf' must be a list of at most 16 hidden layer sizes, each an int in 1\.\.16384"),
])
def test_config_rejects_non_finite_and_non_string_values(kw, why):
    with pytest.raises(ConfigError, match=why):
        RLlibConfig(**kw)


def test_empty_layer_lists_build_a_linear_module():
    cfg = RLlibConfig(net_pi=[], net_vf=[])
    env = BeloteMultiAgentEnv({})
    mod = BeloteTorchRLModule(observation_space=env.observation_spaces["player_0"],
                              action_space=env.action_spaces["player_0"], model_config=cfg.model_config)
    shapes = {k: tuple(v.shape) for k, v in mod.belote_state_dict().items()}
    assert shapes == {"action_net.weight": (NUM_ACTIONS, OBS_SIZE), "action_net.bias": (NUM_ACTIONS,),
                      "value_net.weight": (1, OBS_SIZE), "value_net.bias": (1,)}


def test_quiet_filters_drop_only_the_listed_notices():
    import logging

    from training.rllib.quiet import QUIET_NOTICES, quiet_ray_notices

    quiet_ray_notices()
    quiet_ray_notices()  # once per logger, however often it is called

    def shown(logger_name, level, msg):
        logger = logging.getLogger(logger_name)
        assert sum(type(f).__name__ == "NoticeFilter" for f in logger.filters) <= 1
        return logger.filter(logging.LogRecord(logger_name, level, __file__, 1, msg, None, None))

    for name, prefixes in QUIET_NOTICES.items():
        for p in prefixes:
            assert not shown(name, logging.WARNING, p + " and the rest of the notice")
            assert shown(name, logging.ERROR, p)  # never an error
    auth = "ray._private.authentication.authentication_token_setup"
    assert shown(auth, logging.WARNING, "Token authentication is disabled for this Ray cluster. Anyone with ...")
    assert shown("ray._common.deprecation", logging.WARNING, "DeprecationWarning: `foo` has been deprecated.")
    assert shown("ray.rllib.algorithms.algorithm_config", logging.WARNING, "You specified a custom Learner class")


def test_train_rllib_start_up_is_quiet(tmp_path):
    """`belote train-rllib` prints none of Ray's start-up notices that training.rllib.quiet
    drops, in the driver or forwarded from the EnvRunner actors."""
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(yaml.safe_dump({**TINY, "num_env_runners": 1, "total_timesteps": 200, "eval_pairs": 0,
                                   "log_dir": str(tmp_path / "runs")}))
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, "-m", "training.cli", "train-rllib", "--config", str(cfg)],
                          capture_output=True, text=True, timeout=300, cwd=root)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "iter 1: 200 env steps" in out
    for notice in ("Token authentication is enabled", "on the new API stack", "RLModuleConfig object",
                   "Install gputil"):
        assert notice not in out, out


def test_env_refuses_an_action_that_is_not_an_integer_instead_of_truncating_it():
    from belote_env.game import IllegalActionError

    env = BeloteMultiAgentEnv({})
    obs, _ = env.reset(seed=1)
    (agent,) = obs
    legal = int(np.flatnonzero(obs[agent]["action_mask"])[0])
    for bad in (legal + 0.9, float(legal), np.float32(legal), True):
        with pytest.raises(IllegalActionError, match=r"an action id must be an int"):
            env.step({agent: bad})
        assert env.env.agent_selection == agent and env.env.game.actions == []  # nothing applied
    obs, rewards, terms, _, _ = env.step({agent: np.int64(legal)})
    assert env.env.game.actions == [(env.env._seat[agent], legal)] and terms["__all__"] is False
