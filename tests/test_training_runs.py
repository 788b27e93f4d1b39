"""Training with an opponent pool and a warm start, checkpoints, resume after SIGKILL, export."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from belote_env import GameState, Rules
from policies import make_policy
from policies.network import CheckpointError, load_model
from training.cli import main
from training.train import latest_checkpoint, train
from training.config import ConfigError, TrainConfig
from tests.conftest import assert_plays_legal

ROOT = Path(__file__).resolve().parents[1]
POOL = {"exp_name": "pool", "total_timesteps": 3072, "n_tables": 4, "n_steps": 32, "batch_size": 256,
        "n_epochs": 1, "net_pi": [32], "net_vf": [32], "checkpoint_every": 1024, "eval_pairs": 3,
        "eval_every": 1024, "periodic_eval_pairs": 2, "opponents": {"self": 1, "snapshots": 1, "easy": 1, "normal": 1},
        "snapshot_every": 1024, "imitation_deals": 20, "imitation_epochs": 1}


def test_pool_training_resume_and_export(tmp_path):
    cfg = TrainConfig.from_dict({**POOL, "log_dir": str(tmp_path / "runs")})
    run = train(cfg, progress=False)
    ev = json.loads((run / "eval.json").read_text())
    assert ev["timesteps"] == 3072 and set(k for k in ev if k.startswith("vs_")) == {"vs_random", "vs_easy", "vs_normal"}
    snaps = sorted(p.name for p in (run / "pool").iterdir())
    assert snaps == ["snap_000001024", "snap_000002048", "snap_000003072"]
    ckpt = latest_checkpoint(run)
    assert ckpt.name == "step_000003072"
    trainer = json.loads((ckpt / "trainer.json").read_text())
    assert trainer["timesteps"] == 3072 and trainer["snapshots"] == snaps
    # periodic evaluation against normal reached TensorBoard's CSV twin
    header = (run / "progress.csv").read_text().splitlines()[0]
    assert "charts/winrate_vs_normal" in header and "imitation/accuracy" in header
    assert "charts/train_diff_vs_normal" in header
    # resume with a larger budget continues from the checkpoint
    conf = yaml.safe_load((run / "config.yaml").read_text())
    conf["total_timesteps"] = 4096
    (run / "config.yaml").write_text(yaml.safe_dump(conf))
    train(progress=False, resume=run)
    assert json.loads((run / "eval.json").read_text())["timesteps"] == 4096
    assert (run / "progress_from_000003072.csv").exists()
    # export and load with torch alone; the exported policy plays legal moves
    out = tmp_path / "exported"
    assert main(["export", str(run / "checkpoints" / "final"), str(out)]) == 0
    net, meta = load_model(out)
    assert meta["timesteps"] == 4096 and "vs_normal" in meta["evaluation"] and meta["rules"]["tie"] == "litige"
    assert_plays_legal(make_policy(str(out)), range(20))


def test_resume_errors(tmp_path):
    with pytest.raises(CheckpointError, match="config.yaml is missing"):
        train(progress=False, resume=tmp_path)
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({"run_name": "x", **POOL}))
    with pytest.raises(CheckpointError, match="no complete checkpoint"):
        train(progress=False, resume=tmp_path)


def test_sigkill_mid_run_then_resume(tmp_path):
    conf = {**POOL, "total_timesteps": 40960, "imitation_deals": 0, "eval_every": 0, "eval_pairs": 2,
            "opponents": {"self": 1.0}, "snapshot_every": 0, "log_dir": str(tmp_path / "runs")}
    cfg_path = tmp_path / "c.yaml"
    cfg_path.write_text(yaml.safe_dump(conf))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "training.cli", "train", "--config", str(cfg_path), "--no-progress"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 240
    run = None
    while time.time() < deadline:
        runs = list((tmp_path / "runs").glob("*")) if (tmp_path / "runs").exists() else []
        if runs and len(list((runs[0] / "checkpoints").glob("step_*"))) >= 2:
            run = runs[0]
            break
        if proc.poll() is not None:
            pytest.fail(f"training ended early: {proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.2)
    assert run is not None, "no checkpoint appeared in time"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    ckpt = latest_checkpoint(run)
    done = json.loads((ckpt / "trainer.json").read_text())["timesteps"]
    assert 0 < done < 40960
    # nothing half-written: every visible checkpoint folder is complete
    for c in (run / "checkpoints").glob("step_*"):
        load_model(c)
    r = subprocess.run([sys.executable, "-m", "training.cli", "train", "--resume", str(run), "--no-progress"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads((run / "eval.json").read_text())["timesteps"] == 40960
    assert (run / f"progress_from_{done:09d}.csv").exists()


def test_mismatched_checkpoint_rejected_on_resume(tmp_path):
    cfg = TrainConfig.from_dict({**POOL, "total_timesteps": 1024, "imitation_deals": 0, "eval_every": 0,
                                 "eval_pairs": 0, "opponents": {"self": 1.0}, "snapshot_every": 0,
                                 "log_dir": str(tmp_path / "runs")})
    run = train(cfg, progress=False)
    ckpt = latest_checkpoint(run)
    meta = json.loads((ckpt / "meta.json").read_text())
    meta["obs_encoder_version"] = 0
    (ckpt / "meta.json").write_text(json.dumps(meta))
    conf = yaml.safe_load((run / "config.yaml").read_text())
    conf["total_timesteps"] = 2048
    (run / "config.yaml").write_text(yaml.safe_dump(conf))
    with pytest.raises(CheckpointError, match="obs_encoder_version 0"):
        train(progress=False, resume=run)


def test_shipped_hard_tier_loads_and_plays_fast():
    from policies.hard import HARD_MODEL_DIR

    meta = json.loads((HARD_MODEL_DIR / "meta.json").read_text())
    assert meta["action_table_version"] == 1 and meta["obs_encoder_version"] == 1
    size = sum(p.stat().st_size for p in HARD_MODEL_DIR.rglob("*") if p.is_file())
    assert size < 6_000_000  # a few MB at most, the card- and bid-value networks included
    pol = make_policy("hard")
    assert pol.card_net is not None and pol.suit_average  # cards played by the oracle-trained network
    assert pol.bid_net is not None and pol.bid_suit_average  # classic bids by the rollout-trained network
    assert pol.bid_actions == (32, 33, 34, 35, 36, 37)  # default-rule bids: no no-trump / all-trump
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as in `belote eval` workers (one process per core), where 0.43 ms was measured
    times = []
    try:
        _play_timed(pol, times)
    finally:
        torch.set_num_threads(threads)
    # the median and a 5 ms bound keep a busy CI machine's preemptions out of it
    assert len(times) > 300 and sorted(times)[len(times) // 2] < 0.005


def _play_timed(pol, times: list) -> None:
    for seed in range(10):
        st = GameState(Rules(target=None), seed=seed)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            t0 = time.perf_counter()
            a = pol.act(info)
            times.append(time.perf_counter() - t0)
            assert a in info.legal_actions
            st.apply(a)


def _fake_run(tmp_path, config_text=None, trainer=None):
    """A run folder with a config and one checkpoint whose files exist (not loaded)."""
    run = tmp_path / "run"
    ckpt = run / "checkpoints" / "step_000001024"
    ckpt.mkdir(parents=True)
    for f in ("model.safetensors", "meta.json", "optimizer.pt"):
        (ckpt / f).write_bytes(b"")
    (run / "config.yaml").write_text(yaml.safe_dump({"run_name": "x", **POOL}) if config_text is None else config_text)
    (ckpt / "trainer.json").write_text(json.dumps({"timesteps": 1024}) if trainer is None else trainer)
    return run


@pytest.mark.parametrize("text, error, why", [
    ("a: [1, 2\n", CheckpointError, r"config.yaml: corrupt run config, not valid YAML"),
    ("", CheckpointError, r"config.yaml: corrupt run config, expected a mapping of config keys and 'run_name', "
                          r"got NoneType"),
    ("- 1\n- 2\n", CheckpointError, r"config.yaml: corrupt run config, expected a mapping .* got list"),
    (yaml.safe_dump(POOL), CheckpointError, r"config.yaml: corrupt run config, 'run_name' must be a non-empty "
                                            r"string, got None"),
    (yaml.safe_dump({"run_name": "x", **POOL, "gamma": "high"}), ConfigError,
     r"config.yaml: config key 'gamma' must be a finite number in \[0, 1\], got 'high'"),
    (yaml.safe_dump({"run_name": "x", **POOL, "bogus": 1}), ConfigError,
     r"config.yaml: unknown config key 'bogus'; known keys: exp_name"),
])
def test_resume_damaged_config_names_the_file(tmp_path, text, error, why):
    run = _fake_run(tmp_path, config_text=text)
    with pytest.raises(error, match=re.escape(str(run)) + "/" + why):
        train(progress=False, resume=run)


@pytest.mark.parametrize("text, why", [
    ("{oops", r"corrupt trainer state, not valid JSON \(Expecting"),
    ("[1024]", r"corrupt trainer state, expected a JSON object, got list"),
    ("{}", r"corrupt trainer state, 'timesteps' must be a non-negative int, got 'nothing'"),
    ('{"timesteps": "1024"}', r"corrupt trainer state, 'timesteps' must be a non-negative int, got '1024'"),
    ('{"timesteps": 1024.5}', r"corrupt trainer state, 'timesteps' must be a non-negative int, got 1024.5"),
    ('{"timesteps": 1024, "next_ckpt": -3}', r"corrupt trainer state, 'next_ckpt' must be a non-negative int, got -3"),
    ('{"timesteps": 1024, "snapshots": ["../../x"]}', r"corrupt trainer state, 'snapshots' must be a list of pool folder names"),
])
def test_resume_damaged_trainer_state_names_the_file(tmp_path, text, why):
    run = _fake_run(tmp_path, trainer=text)
    path = run / "checkpoints" / "step_000001024" / "trainer.json"
    with pytest.raises(CheckpointError, match=re.escape(str(path)) + ": " + why):
        train(progress=False, resume=run)


def test_bad_init_from_fails_before_the_run_folder_exists(tmp_path):
    bad = tmp_path / "model"
    bad.mkdir()
    cfg = TrainConfig.from_dict({**POOL, "init_from": str(bad), "log_dir": str(tmp_path / "runs")})
    with pytest.raises(CheckpointError, match="model.safetensors is missing"):
        train(cfg, progress=False)
    assert not (tmp_path / "runs").exists()


BIDS = {"exp_name": "bids", "total_timesteps": 2048, "n_tables": 16, "n_steps": 32, "batch_size": 128, "n_epochs": 1,
        "net_pi": [32], "net_vf": [32], "checkpoint_every": 512, "eval_pairs": 0, "bid_learner": "q",
        "bid_net": [16], "bid_fit_steps": 2, "bid_fit_batch": 16, "torch_threads": 1}
STEPS = ["step_000000512", "step_000001024", "step_000001536", "step_000002048"]


def _adam_steps(ckpt):
    """The Adam step count of a checkpoint's optimizer state (every parameter's alike)."""
    import torch

    state = torch.load(ckpt / "optimizer.pt", weights_only=True)["state"]
    steps = {float(s["step"]) for s in state.values()}
    assert len(steps) == 1
    return steps.pop()


def _bid_state(ckpt):
    from safetensors.torch import load_file

    return load_file(str(ckpt / "bid_learner.safetensors"))


@pytest.fixture(scope="module")
def bid_run(tmp_path_factory):
    """A finished run learning its bids (4 rollouts of 512 decisions, 4 minibatches each:
    16 Adam steps), and a copy of it resumed from step_000001024 as after a kill there
    (the newer checkpoints, final/ and eval.json removed; its TensorBoard events kept, and
    the temporary folders a kill mid-checkpoint leaves)."""
    tmp = tmp_path_factory.mktemp("bidrun")
    run = train(TrainConfig.from_dict({**BIDS, "log_dir": str(tmp / "runs")}), progress=False)
    resumed = tmp / "resumed" / run.name
    import shutil

    shutil.copytree(run, resumed)
    for name in STEPS[2:] + ["final"]:
        shutil.rmtree(resumed / "checkpoints" / name)
    (resumed / "eval.json").unlink()
    (resumed / "checkpoints" / ".step_000001536.r2ytgwfq").mkdir()
    (resumed / "checkpoints" / ".step_000001024.old").mkdir()
    train(progress=False, resume=resumed)
    return run, resumed


def test_a_checkpoint_holds_the_update_of_its_last_rollout(bid_run):
    run, _ = bid_run
    ckpts = run / "checkpoints"
    assert [_adam_steps(ckpts / s) for s in STEPS] == [4.0, 8.0, 12.0, 16.0]
    assert _adam_steps(ckpts / "final") == 16.0
    from safetensors.torch import load_file

    last = load_file(str(ckpts / STEPS[-1] / "model.safetensors"))
    final = load_file(str(ckpts / "final" / "model.safetensors"))
    assert last.keys() == final.keys() and all(bool((last[k] == final[k]).all()) for k in last)


def test_a_resumed_run_makes_every_update_of_an_uninterrupted_one(bid_run):
    run, resumed = bid_run
    assert json.loads((resumed / "eval.json").read_text())["timesteps"] == 2048
    assert _adam_steps(resumed / "checkpoints" / "final") == _adam_steps(run / "checkpoints" / "final") == 16.0
    assert _adam_steps(resumed / "checkpoints" / STEPS[2]) == 12.0


def test_the_bid_learners_replay_and_adam_state_survive_a_resume(bid_run):
    run, resumed = bid_run
    saved = _bid_state(run / "checkpoints" / STEPS[1])
    pos, size, added = saved["replay/counts"].tolist()
    assert size == added == pos > 0  # no wrap: the replay holds every bid so far
    after = _bid_state(resumed / "checkpoints" / "final")
    assert after["replay/counts"][1] > size  # the resumed run's bids went on after the checkpoint's
    assert (after["replay/obs"][:size] == saved["replay/obs"]).all()
    assert (after["replay/target"][:size] == saved["replay/target"]).all()
    steps = lambda s: {float(v) for k, v in s.items() if k.endswith("/step")}  # noqa: E731
    fits = steps(_bid_state(run / "checkpoints" / "final"))
    assert len(fits) == 1 and fits == steps(after) and fits.pop() > steps(saved).pop() > 0


def test_resume_removes_the_temporary_folders_of_a_killed_checkpoint_write(bid_run):
    _, resumed = bid_run
    assert sorted(p.name for p in (resumed / "checkpoints").iterdir()) == sorted(STEPS + ["final"])


def test_tensorboard_logs_each_step_once_after_a_resume(bid_run):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    _, resumed = bid_run
    acc = EventAccumulator(str(resumed))
    acc.Reload()
    assert [e.step for e in acc.Scalars("charts/steps_per_second")] == [512, 1024, 1536, 2048]


def test_resuming_a_finished_run_changes_nothing(bid_run, tmp_path):
    import shutil

    from training.train import RunCompleteError

    run = shutil.copytree(bid_run[0], tmp_path / bid_run[0].name)
    before = {p: p.read_bytes() for p in [run / "eval.json", *(run / "checkpoints" / "final").rglob("*.*")]}
    with pytest.raises(RunCompleteError, match=r"the run is complete \(2048 of 2048 steps trained"):
        train(progress=False, resume=run)
    assert {p: p.read_bytes() for p in before} == before
    assert not list(run.glob("progress_from_*"))


@pytest.mark.parametrize("key, value", [("learning_rate", 0.001), ("seed", 7), ("n_tables", 8), ("gamma", 0.9),
                                        ("bid_replay", 1000), ("rules", {"tie": "takers_made"})])
def test_resume_refuses_a_changed_config_naming_the_key(bid_run, tmp_path, key, value):
    import shutil

    run = shutil.copytree(bid_run[0], tmp_path / bid_run[0].name)
    shutil.rmtree(run / "checkpoints" / "final")
    conf = yaml.safe_load((run / "config.yaml").read_text())
    (run / "config.yaml").write_text(yaml.safe_dump({**conf, key: value}))
    with pytest.raises(ConfigError, match=rf"'{key}' changed since checkpoints/step_000002048 was written"):
        train(progress=False, resume=run)
    assert not (run / "checkpoints" / "final").exists()


def test_a_run_name_taken_in_the_same_second_gets_a_suffix(tmp_path):
    from training.train import _claim_run_dir

    (tmp_path / "belote_v0__x__0__5").mkdir()
    (tmp_path / "belote_v0__x__0__5_2").mkdir()
    assert _claim_run_dir(tmp_path, "belote_v0__x__0__5") == (tmp_path / "belote_v0__x__0__5_3", "belote_v0__x__0__5_3")


def test_resume_of_an_iterate_run_says_what_it_is(tmp_path):
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({"exp_name": "it", "seed": 1, "iterations": 4, "deals": 256}))
    with pytest.raises(CheckpointError, match=r"not a `belote train` run: it is a `belote iterate` run .* belote "
                                              r"iterate --resume"):
        train(progress=False, resume=tmp_path)


def test_train_writes_its_config_and_evaluation_atomically(tmp_path, monkeypatch):
    written = []
    real = Path.write_text

    def write_text(self, *a, **k):
        written.append(self.name)
        return real(self, *a, **k)

    monkeypatch.setattr(Path, "write_text", write_text)
    run = train(TrainConfig.from_dict({**BIDS, "bid_learner": "ppo", "total_timesteps": 512,
                                       "log_dir": str(tmp_path / "runs")}), progress=False)
    assert (run / "config.yaml").is_file() and json.loads((run / "eval.json").read_text())["timesteps"] == 512
    assert "config.yaml" not in written and "eval.json" not in written
    assert not list(run.glob(".*"))
