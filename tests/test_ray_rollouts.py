"""Self-play rollouts in Ray actors (``training.ray_rollouts.RayCollector``, config key
``rollout_actors``): the PPO buffer filled with every actor's share, the same rollouts for
the same seed and number of actors, an actor killed mid-rollout restarted and its share
played again (nothing trained twice), and a whole (tiny) training run with the bid learner
and an opponent pool. One local Ray for the module (its start takes seconds)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e \".[rllib]\")")
th = pytest.importorskip("torch")

from belote_env import Rules  # noqa: E402
from training.config import ConfigError, load_config  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def _model(n_tables: int, n_steps: int = 8):
    from stable_baselines3.common.utils import configure_logger

    from belote_env.observation import OBS_SIZE
    from training.selfplay import SelfPlayPPO, StreamSpec

    th.manual_seed(0)
    model = SelfPlayPPO("MlpPolicy", StreamSpec(n_tables, OBS_SIZE), n_steps=n_steps, batch_size=64, n_epochs=1,
                        policy_kwargs={"net_arch": {"pi": [32], "vf": [32]}}, device="cpu", seed=0)
    model.set_logger(configure_logger(0, None, "", False))
    return model


def _rollout(actors: int, seed: int, kill_after: float | None = None):
    from training.ray_rollouts import RayCollector

    model = _model(16)
    col = RayCollector(Rules(target=None), 16, seed, actors=actors)
    model.collector = col
    try:
        killer = None
        if kill_after is not None:  # slow actors, started and ready; one killed once the rollout is under way
            from training.ray_rollouts import _RolloutActor

            class SlowActor(_RolloutActor):  # defined here: Ray ships it by value
                def rollout(self, *args):
                    time.sleep(2.0)
                    return super().rollout(*args)

            col._remote = ray.remote(num_cpus=1, max_restarts=-1)(SlowActor)
            col.actors = [col._new_actor(i) for i in range(actors)]
            ray.get([a.ready.remote() for a in col.actors])
            killer = threading.Timer(kill_after, lambda: ray.kill(col.actors[0], no_restart=False))
            killer.start()
        col.fill_rollout_buffer(model, model.rollout_buffer, model.n_steps)
        if killer is not None:
            killer.join()
        rb = model.rollout_buffer
        return {k: getattr(rb, k).copy() for k in ("observations", "actions", "advantages", "returns")}, col, model
    finally:
        col.close()


def test_the_buffer_holds_every_actors_share_of_finished_decisions(local_ray):
    rows, col, model = _rollout(2, seed=5)
    assert model.num_timesteps == 16 * 8 and col.shares == [8, 8]
    assert rows["observations"].shape[:2] == (8, 16)
    assert np.isfinite(rows["advantages"]).all() and np.abs(rows["returns"]).max() > 0
    masks = model.rollout_buffer.action_masks.reshape(128, -1)
    acts = model.rollout_buffer.actions.reshape(128).astype(int)
    assert masks[np.arange(128), acts].all()  # every stored action was legal where it was taken
    assert col.timing and col.timing[0]["play_s"] > 0


def test_the_same_seed_and_actors_give_the_same_rollout(local_ray):
    a, _, _ = _rollout(2, seed=9)
    b, _, _ = _rollout(2, seed=9)
    c, _, _ = _rollout(2, seed=10)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["observations"], c["observations"])


def test_an_actor_killed_mid_rollout_is_restarted_and_its_share_played_again(local_ray):
    rows, col, model = _rollout(2, seed=11, kill_after=0.5)
    assert col.restarts >= 1
    assert model.num_timesteps == 128 and np.isfinite(rows["advantages"]).all()


def test_rollout_actors_config_keys_are_checked():
    for overrides, match in (({"rollout_actors": -1}, "rollout_actors"), ({"rollout_actors": 600}, "must not exceed"),
                             ({"rollout_actors": 2, "engine": "reference", "bid_learner": "ppo",
                               "perfect_critic": False, "bid_fit_overlap": False, "bid_average": False,
                               "bid_augment": False}, "needs engine 'batched'"),
                             ({"ray_address": ""}, "ray_address")):
        with pytest.raises(ConfigError, match=match):
            load_config("configs/train/quick.yaml", overrides)


def test_a_training_run_with_actors_the_bid_learner_and_snapshots(local_ray, tmp_path):
    from training.train import train

    cfg = load_config("configs/train/quick.yaml", {
        "total_timesteps": 3 * 32 * 16, "n_tables": 32, "n_steps": 16, "batch_size": 256, "rollout_actors": 2,
        "eval_pairs": 0, "checkpoint_every": 10 ** 9, "log_dir": str(tmp_path), "torch_threads": 1,
        "opponents": {"self": 0.5, "snapshots": 0.5}, "snapshot_every": 512})
    run = train(cfg, progress=False)
    assert (run / "checkpoints" / "final" / "model.safetensors").exists()
    assert (run / "checkpoints" / "final" / "bids" / "model.safetensors").exists()


def test_the_ray_quickstart_runs_as_written(capsys):
    """docs/training.md's Ray quickstart, the command as written (from the repository)."""
    import os
    import re
    import shlex
    import shutil
    from pathlib import Path

    from training.cli import main

    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "training.md").read_text()
    section = page[page.index("## Self-play rollouts on a Ray cluster"):]
    command = re.findall(r"^belote train .*$", section, re.M)[0]
    was = os.getcwd()
    os.chdir(root)
    try:
        assert main(shlex.split(command)[1:]) == 0
    finally:
        os.chdir(was)
    run = re.search(r"run folder: (\S+)", capsys.readouterr().out).group(1)
    shutil.rmtree(root / run)
