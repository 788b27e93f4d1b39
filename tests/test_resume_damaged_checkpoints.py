"""``belote train --resume`` on damaged checkpoints: clear errors naming the
file, an announced fallback to the previous complete checkpoint, every attempt's CSV log
kept, checkpoints ordered by step number, and the messages of a resumed run."""

import csv
import json
import os
import pickle
import re
import shutil

import pytest
import torch
import yaml

from policies.network import CheckpointError, load_model
from training.cli import main
from training.config import TrainConfig
from training.train import latest_checkpoint, train
from tests.test_training import TINY

BASE = {**TINY, "exp_name": "resume", "eval_pairs": 0}  # 2048 steps, checkpoints at 1024 and 2048
STEP1, STEP2 = "step_000001024", "step_000002048"


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    cfg = TrainConfig(**{**BASE, "log_dir": str(tmp_path_factory.mktemp("resume") / "runs")})
    run = train(cfg, progress=False)
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["final", STEP1, STEP2]
    return run


@pytest.fixture
def run(base_run, tmp_path):
    """A private copy of the finished tiny run."""
    return shutil.copytree(base_run, tmp_path / base_run.name)


class _Evil:
    """Unpickling this calls os.system (a pickle that would execute code)."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _garbage_optimizer(ckpt, tmp):
    (ckpt / "optimizer.pt").write_bytes(b"\x00garbage" * 50)
    return "optimizer.pt"


def _truncated_optimizer(ckpt, tmp):
    data = (ckpt / "optimizer.pt").read_bytes()
    (ckpt / "optimizer.pt").write_bytes(data[:len(data) // 2])
    return "optimizer.pt"


def _evil_pickle(ckpt, tmp):
    (ckpt / "optimizer.pt").write_bytes(pickle.dumps(_Evil(tmp / "pwned")))
    return "optimizer.pt"


def _evil_torch_zip(ckpt, tmp):
    torch.save(_Evil(tmp / "pwned"), ckpt / "optimizer.pt")  # a zip file whose data.pkl calls os.system
    return "optimizer.pt"


def _optimizer_of_another_shape(ckpt, tmp):
    state = torch.load(ckpt / "optimizer.pt", weights_only=True)
    state["state"][0]["exp_avg"] = torch.zeros(3, 3)
    torch.save(state, ckpt / "optimizer.pt")
    return "optimizer.pt"


def _truncated_weights(ckpt, tmp):
    data = (ckpt / "model.safetensors").read_bytes()
    (ckpt / "model.safetensors").write_bytes(data[:len(data) // 2])
    return "model.safetensors"


def _nan_weights(ckpt, tmp):
    from safetensors.torch import load_file, save_file

    tensors = load_file(ckpt / "model.safetensors")
    tensors["action_net.bias"][3] = float("nan")
    save_file(tensors, ckpt / "model.safetensors")
    return "model.safetensors"


def _missing_optimizer(ckpt, tmp):
    (ckpt / "optimizer.pt").unlink()
    return "optimizer.pt"


def _huge_timesteps(ckpt, tmp):
    trainer = json.loads((ckpt / "trainer.json").read_text())
    (ckpt / "trainer.json").write_text(json.dumps({**trainer, "timesteps": 10 ** 15}))
    return "trainer.json"


def _meta_timesteps(ckpt, tmp):
    meta = json.loads((ckpt / "meta.json").read_text())
    (ckpt / "meta.json").write_text(json.dumps({**meta, "timesteps": 1536}))
    return "meta.json"


DAMAGE = [_garbage_optimizer, _truncated_optimizer, _evil_pickle, _evil_torch_zip, _optimizer_of_another_shape,
          _truncated_weights, _nan_weights, _missing_optimizer, _huge_timesteps, _meta_timesteps]


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__.strip("_"))
def test_damaged_newest_checkpoint_falls_back_to_the_previous_one(run, tmp_path, capsys, damage):
    shutil.rmtree(run / "checkpoints" / "final")
    (run / "eval.json").unlink()
    bad = run / "checkpoints" / STEP2
    name = damage(bad, tmp_path)
    train(progress=False, resume=run)
    out, err = capsys.readouterr()
    assert not (tmp_path / "pwned").exists(), "unpickling the optimizer file executed code"
    warning = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1, err
    assert f"checkpoint {bad} is damaged" in warning[0] and str(bad / name) in warning[0]
    assert f"resuming from the previous checkpoint {run / 'checkpoints' / STEP1}" in warning[0]
    assert "weights_only" not in err and "Traceback" not in err
    assert f"resuming {run} from checkpoints/{STEP1} (1024 of 2048 steps done; " in out
    ev = json.loads((run / "eval.json").read_text())
    assert ev["timesteps"] == 2048 and ev["timesteps_this_invocation"] == 1024 and ev["resumed_from"] == 1024
    # the run rewrote the damaged checkpoint: it is whole again
    net, meta = load_model(bad)
    assert meta["timesteps"] == 2048 and json.loads((bad / "trainer.json").read_text())["timesteps"] == 2048
    assert set(torch.load(bad / "optimizer.pt", weights_only=True)) == {"state", "param_groups"}
    assert json.loads((run / "checkpoints" / "final" / "meta.json").read_text())["timesteps"] == 2048


def _trainer_field(key, value):
    def damage(ckpt, tmp):
        trainer = json.loads((ckpt / "trainer.json").read_text())
        (ckpt / "trainer.json").write_text(json.dumps({**trainer, key: value}))
        return "trainer.json"
    return damage


def _meta_field(key, value):
    def damage(ckpt, tmp):
        meta = json.loads((ckpt / "meta.json").read_text())
        (ckpt / "meta.json").write_text(json.dumps({**meta, key: value}))
        return "meta.json"
    return damage


@pytest.mark.parametrize("damage, why", [
    (_garbage_optimizer, r"optimizer\.pt: damaged optimizer state, not a file written by torch\.save"),
    (_truncated_optimizer, r"optimizer\.pt: damaged optimizer state, cannot be read \(PytorchStreamReader failed"),
    (_evil_pickle, r"optimizer\.pt: damaged optimizer state, not a file written by torch\.save"),
    (_evil_torch_zip, r"optimizer\.pt: damaged optimizer state, it holds more than tensors \(refused, never run: "
                      r"Trying to load unsupported GLOBAL posix\.system"),
    (_optimizer_of_another_shape, r"optimizer\.pt: damaged optimizer state, parameter 0's 'exp_avg' has shape "
                                  r"\[3, 3\], the network's parameter has \[32, 618\]"),
    (_truncated_weights, r"model\.safetensors: corrupt weights file"),
    (_nan_weights, r"model\.safetensors: corrupt weights, NaN or infinite values"),
    (_missing_optimizer, r"optimizer\.pt: missing, the checkpoint is incomplete"),
    (_trainer_field("timesteps", 10 ** 15), r"trainer\.json: corrupt trainer state, 'timesteps' must be an int in "
                                            r"0\.\.2559 \(the run's total_timesteps 2048 plus less than one "
                                            r"rollout of 512\), got 1000000000000000"),
    (_trainer_field("timesteps", 1024), r"trainer\.json: corrupt trainer state, 'timesteps' 1024 differs from the "
                                        r"checkpoint folder's step 2048"),
    (_trainer_field("timesteps", True), r"trainer\.json: corrupt trainer state, 'timesteps' must be a non-negative "
                                        r"int, got True"),
    (_trainer_field("next_ckpt", 10 ** 15), r"trainer\.json: corrupt trainer state, 'next_ckpt' must be at most "
                                            r"timesteps \+ checkpoint_every = 3072, got 1000000000000000"),
    (_trainer_field("next_eval", 2048.0), r"trainer\.json: corrupt trainer state, 'next_eval' must be a "
                                          r"non-negative int, got 2048\.0"),
    (_trainer_field("snapshots", ["snap_000009999"]), r"trainer\.json: corrupt trainer state, 'snapshots' names "
                                                      r"snap_000009999, a snapshot after the checkpoint's 2048 steps"),
    (_meta_timesteps, r"meta\.json: 'timesteps' 1536 differs from trainer\.json's 2048"),
    (_meta_field("run_name", "another_run"), r"meta\.json: 'run_name' 'another_run' is not this run's"),
])
def test_only_checkpoint_damaged_is_a_clear_error(run, tmp_path, capsys, damage, why):
    shutil.rmtree(run / "checkpoints" / STEP1)
    bad = run / "checkpoints" / STEP2
    damage(bad, tmp_path)
    with pytest.raises(CheckpointError) as info:
        train(progress=False, resume=run)
    msg = str(info.value)
    assert msg.startswith(f"{run}: no usable checkpoint under checkpoints/step_* (each is damaged, newest first):")
    assert re.search(re.escape(str(bad)) + "/" + why, msg), msg
    assert "weights_only" not in msg and not (tmp_path / "pwned").exists()
    assert json.loads((run / "eval.json").read_text())["timesteps"] == 2048  # the old results were left alone


def test_cli_reports_a_damaged_only_checkpoint_without_a_traceback(run, tmp_path, capsys):
    shutil.rmtree(run / "checkpoints" / STEP1)
    _evil_torch_zip(run / "checkpoints" / STEP2, tmp_path)
    assert main(["train", "--resume", str(run), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"belote train: error: {run}: no usable checkpoint")
    assert str(run / "checkpoints" / STEP2 / "optimizer.pt") in err
    assert "weights_only" not in err and "Traceback" not in err and not (tmp_path / "pwned").exists()


def test_every_damaged_checkpoint_is_named_when_none_is_usable(run, tmp_path):
    _garbage_optimizer(run / "checkpoints" / STEP2, tmp_path)
    _truncated_weights(run / "checkpoints" / STEP1, tmp_path)
    with pytest.raises(CheckpointError) as info:
        train(progress=False, resume=run)
    lines = str(info.value).splitlines()
    assert lines[1].startswith(f"  - {run / 'checkpoints' / STEP2 / 'optimizer.pt'}: damaged optimizer state")
    assert lines[2].startswith(f"  - {run / 'checkpoints' / STEP1 / 'model.safetensors'}: corrupt weights file")


def _rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_each_resume_attempt_keeps_its_own_csv_log(run):
    shutil.rmtree(run / "checkpoints" / STEP2)
    conf = yaml.safe_load((run / "config.yaml").read_text())
    (run / "config.yaml").write_text(yaml.safe_dump({**conf, "total_timesteps": 1536}))  # no interval checkpoint after 1024

    def killed_before_the_end():  # a kill before the last step's checkpoint, final and eval.json
        shutil.rmtree(run / "checkpoints" / "step_000001536")
        shutil.rmtree(run / "checkpoints" / "final")
        (run / "eval.json").unlink()

    train(progress=False, resume=run)
    first = run / "progress_from_000001024.csv"
    text = first.read_text()
    assert [r["time/total_timesteps"] for r in _rows(first)] == ["1536"]
    killed_before_the_end()
    train(progress=False, resume=run)  # a second attempt from the same checkpoint
    second = run / "progress_from_000001024_2.csv"
    assert first.read_text() == text, "the first attempt's log was overwritten"
    assert [r["time/total_timesteps"] for r in _rows(second)] == ["1536"]
    killed_before_the_end()
    train(progress=False, resume=run)
    assert [r["time/total_timesteps"] for r in _rows(run / "progress_from_000001024_3.csv")] == ["1536"]
    assert first.read_text() == text and len(_rows(second)) == 1
    assert [r["time/total_timesteps"] for r in _rows(run / "progress.csv")][-1] == "2048"  # the first run's log


def _complete(folder):
    folder.mkdir(parents=True)
    for f in ("model.safetensors", "meta.json", "optimizer.pt", "trainer.json"):
        (folder / f).write_bytes(b"")
    return folder


def test_latest_checkpoint_orders_by_step_number(tmp_path):
    ck = tmp_path / "checkpoints"
    for name in ("step_999999999", "step_1000000000", "step_000000004", "step_abc", "step_12x", "step_"):
        _complete(ck / name)
    (ck / "step_2000000000").mkdir()  # incomplete: skipped
    assert latest_checkpoint(tmp_path) == ck / "step_1000000000"
    other = tmp_path / "other"
    _complete(other / "checkpoints" / "step_000000004")
    _complete(other / "checkpoints" / "step_5")
    _complete(other / "checkpoints" / "step_x")
    assert latest_checkpoint(other) == other / "checkpoints" / "step_5"
    only_bad = tmp_path / "bad"
    _complete(only_bad / "checkpoints" / "step_zzz")
    with pytest.raises(CheckpointError, match=re.escape(f"{only_bad}: no complete checkpoint under checkpoints/")):
        latest_checkpoint(only_bad)


def test_cli_resume_says_where_it_resumes_and_counts_this_invocations_steps(run, capsys):
    shutil.rmtree(run / "checkpoints" / STEP2)
    assert main(["train", "--resume", str(run), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"resuming {run} from checkpoints/{STEP1} (1024 of 2048 steps done; " in out
    assert re.search(r"^trained 1024 steps in [0-9.]+ s \(this invocation\); the run has 2048 steps$", out, re.M), out
    # a resume of the finished run says it is complete and changes nothing (not an error)
    before = (run / "eval.json").read_bytes()
    assert main(["train", "--resume", str(run), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"{run}: the run is complete (2048 of 2048 steps trained, checkpoints/final and eval.json written)" in out
    assert (run / "eval.json").read_bytes() == before


def test_cli_fresh_run_counts_its_steps(tmp_path, capsys):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump({**BASE, "total_timesteps": 1024, "log_dir": str(tmp_path / "runs")}))
    assert main(["train", "--config", str(cfg), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "resuming" not in out
    assert re.search(r"^trained 1024 steps in [0-9.]+ s \(this invocation\); the run has 1024 steps$", out, re.M), out


def test_a_shortened_interval_is_applied_from_the_resume_point(run, capsys):
    """trainer.json's next_ckpt (2048 at step 1024) is checked against the interval it was
    made with; a config edit to checkpoint_every 512 moves it to 1536, announced."""
    shutil.rmtree(run / "checkpoints" / STEP2)
    conf = yaml.safe_load((run / "config.yaml").read_text())
    (run / "config.yaml").write_text(yaml.safe_dump({**conf, "checkpoint_every": 512}))
    train(progress=False, resume=run)
    assert "checkpoint_every is now 512: the next one moves from step 2048 to 1536\n" in capsys.readouterr().out
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["final", STEP1, "step_000001536", STEP2]
    trainer = json.loads((run / "checkpoints" / "step_000001536" / "trainer.json").read_text())
    assert trainer["timesteps"] == 1536 and trainer["next_ckpt"] == 2048
    shutil.rmtree(run / "checkpoints" / STEP2)
    train(progress=False, resume=run)  # the rescheduled checkpoint is a valid resume point
    out, err = capsys.readouterr()
    assert f"from checkpoints/step_000001536 (1536 of 2048 steps done; " in out and "warning" not in err


def test_a_damaged_pool_snapshot_makes_its_checkpoint_unusable(tmp_path, capsys):
    cfg = TrainConfig(**{**BASE, "opponents": {"self": 1, "snapshots": 1}, "snapshot_every": 1024,
                         "log_dir": str(tmp_path / "runs")})
    run = train(cfg, progress=False)
    snap = run / "pool" / "snap_000002048" / "model.safetensors"
    snap.write_bytes(snap.read_bytes()[:100])
    capsys.readouterr()
    train(progress=False, resume=run)
    out, err = capsys.readouterr()
    assert f"checkpoint {run / 'checkpoints' / STEP2} is damaged ({run / 'checkpoints' / STEP2 / 'trainer.json'}: " \
           f"its opponent snapshot pool/snap_000002048 cannot be loaded ({snap}: corrupt weights file" in err
    assert f"resuming {run} from checkpoints/{STEP1} (1024 of 2048 steps done; " in out
    load_model(snap.parent)  # rewritten by the resumed run
    assert json.loads((run / "checkpoints" / STEP2 / "trainer.json").read_text())["snapshots"] == [
        "snap_000001024", "snap_000002048"]


def test_cli_resume_refuses_overrides_it_would_ignore(run, capsys):
    """--resume keeps the run's own config.yaml: an override flag next to it is refused by
    name (it was silently dropped), and nothing is trained."""
    before = json.loads((run / "eval.json").read_text())
    for flags in (["--total-timesteps", "99999"], ["--seed", "3"], ["--eval-pairs", "1"], ["--log-dir", "x"]):
        assert main(["train", "--resume", str(run), "--no-progress", *flags]) == 2
        err = capsys.readouterr().err
        assert f"{flags[0]} cannot be given with --resume" in err and str(run / "config.yaml") in err
    assert json.loads((run / "eval.json").read_text()) == before


def test_a_run_ending_between_checkpoints_writes_its_last_step_and_resumes_as_complete(tmp_path, capsys):
    """A run of 3072 steps with checkpoint_every 2048 writes step 2048, then its last step
    (3072) with checkpoints/final and eval.json: a resume says the run is complete (exit
    status 0) and trains nothing again. A finished run with final alone (no step_*, as
    runs shorter than checkpoint_every were written before) says so too."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump({**BASE, "total_timesteps": 3072, "checkpoint_every": 2048,
                                   "log_dir": str(tmp_path / "runs")}))
    assert main(["train", "--config", str(cfg), "--no-progress"]) == 0
    [run] = (tmp_path / "runs").iterdir()
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["final", STEP2, "step_000003072"]
    before = {p: p.read_bytes() for p in [run / "eval.json", *(run / "checkpoints" / "final").iterdir()]}
    capsys.readouterr()
    for attempt in range(2):
        if attempt:  # then final alone
            for step in (STEP2, "step_000003072"):
                shutil.rmtree(run / "checkpoints" / step)
        assert main(["train", "--resume", str(run), "--no-progress"]) == 0
        out, err = capsys.readouterr()
        assert f"belote train: {run}: the run is complete (3072 of 3072 steps trained, checkpoints/final and " \
               "eval.json written)" in out and err == ""
        assert {p: p.read_bytes() for p in before} == before and not list(run.glob("progress_from_*"))
    (run / "eval.json").unlink()  # not finished: no step_* to resume from is still said
    assert main(["train", "--resume", str(run), "--no-progress"]) == 2
    assert f"{run}: no complete checkpoint under checkpoints/step_*" in capsys.readouterr().err
