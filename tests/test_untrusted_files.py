"""Loaders of model folders, checkpoints, configs, rules and records on hostile files (an
adversarial review): JSON / YAML nested too deeply, integers over Python's 4300-digit limit,
files over their size bound, zip bombs, non-finite weights, unknown keys. Each gives a clear
error naming the file (a damaged checkpoint file: the announced fallback to the previous
checkpoint), never a traceback or a silent acceptance."""

import json
import re
import shutil
import zipfile

import pytest

from belote_env import RuleOptionError, load_rules
from belote_env.jsonfile import parse_yaml
from belote_env.records import RecordError, read_record, replay
from policies.network import CheckpointError, load_model, read_safetensors_header, save_model
from training.config import ConfigError, TrainConfig, load_config
from training.iterate import load_iterate_config
from training.rllib.config import load_rllib_config
from training.train import _read_run_config, _resume_point, train
from tests.test_training import TINY

BASE = {**TINY, "exp_name": "review", "eval_pairs": 0}  # 2048 steps, checkpoints at 1024 and 2048
STEP1, STEP2 = "step_000001024", "step_000002048"
DEEP_JSON = "[" * 100_000 + "]" * 100_000
BIG_INT = "9" * 5000


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    cfg = TrainConfig(**{**BASE, "log_dir": str(tmp_path_factory.mktemp("review") / "runs")})
    return train(cfg, progress=False)


@pytest.fixture
def run(base_run, tmp_path):
    """A private copy of the finished tiny run."""
    return shutil.copytree(base_run, tmp_path / base_run.name)


@pytest.fixture
def model(base_run, tmp_path):
    """A private copy of the run's final model folder."""
    return shutil.copytree(base_run / "checkpoints" / STEP1, tmp_path / "model")


def _resume(run, capsys):
    """The checkpoint a resume of ``run`` would use, and its warning lines."""
    cfg, name = _read_run_config(run)
    point = _resume_point(run, cfg, name)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return point.folder, [line for line in err.splitlines() if line.startswith("warning: ")]


def _replace_in_json(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


# ------------------------------------------------------------------ model folders (load_model)
@pytest.mark.parametrize("text, why", [
    (DEEP_JSON, "nested too deeply"),
    (None, "4300"),  # an int of 5000 digits
    (" " * (2 << 20) + "{}", "allowed"),  # 2 MiB of whitespace: refused before it is read
])
def test_load_model_refuses_a_hostile_meta_json(model, text, why):
    meta = model / "meta.json"
    if text is None:
        _replace_in_json(meta, '"timesteps": 1024', f'"timesteps": {BIG_INT}')
    else:
        meta.write_text(text)
    with pytest.raises(CheckpointError) as e:
        load_model(model)
    assert str(meta) in str(e.value) and why in str(e.value) and len(str(e.value)) < 500


def test_safetensors_header_with_a_huge_int_is_a_checkpoint_error(model):
    w = model / "model.safetensors"
    raw = w.read_bytes()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n])
    header["__metadata__"] = {"x": "y"}
    hb = json.dumps(header).replace('"y"', BIG_INT).encode()
    w.write_bytes(len(hb).to_bytes(8, "little") + hb + raw[8 + n:])
    with pytest.raises(CheckpointError, match=re.escape(str(w)) + ".*4300"):
        read_safetensors_header(w)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_load_model_refuses_non_finite_weights(model, value):
    net, meta = load_model(model)
    state = net.state_dict()
    state["value_net.bias"][0] = value
    save_model(model, state, net.config, {k: v for k, v in meta.items() if k not in ("net",)})
    with pytest.raises(CheckpointError, match=re.escape(str(model / "model.safetensors"))
                       + r": corrupt weights, NaN or infinite values in tensor 'value_net\.bias'"):
        load_model(model)


# ------------------------------------------------------------------ checkpoints (resume)
def _trainer_text(text):
    def damage(ckpt):
        (ckpt / "trainer.json").write_text(text)
        return "trainer.json", ""
    return damage


def _trainer_key(key, value, why):
    def damage(ckpt):
        trainer = json.loads((ckpt / "trainer.json").read_text())
        (ckpt / "trainer.json").write_text(json.dumps({**trainer, key: value}))
        return "trainer.json", why
    return damage


def _meta_deep(ckpt):
    (ckpt / "meta.json").write_text(DEEP_JSON)
    return "meta.json", "nested too deeply"


def _meta_bigint(ckpt):
    _replace_in_json(ckpt / "meta.json", '"timesteps": 2048', f'"timesteps": {BIG_INT}')
    return "meta.json", "4300"


def _trainer_huge(ckpt):
    (ckpt / "trainer.json").write_text('{"timesteps": 2048}' + " " * (2 << 20))
    return "trainer.json", "allowed"


def _optimizer_zip_bomb(ckpt):
    """data.pkl padded with 64 MiB of zeros (after its STOP opcode), deflated to a few KB."""
    p = ckpt / "optimizer.pt"
    with zipfile.ZipFile(p) as z:
        members = {n: z.read(n) for n in z.namelist()}
    pkl = next(n for n in members if n.endswith("data.pkl"))
    members[pkl] += b"\0" * (64 << 20)
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in members.items():
            z.writestr(n, data)
    assert p.stat().st_size < (1 << 20)
    return "optimizer.pt", "uncompressed"


RESUME_DAMAGE = [
    _trainer_text('{"timesteps": 2048, "x": ' + DEEP_JSON + "}"),
    _trainer_text('{"timesteps": ' + BIG_INT + "}"),
    _trainer_huge,
    _trainer_key("evil", {"a": 1}, "unknown key 'evil'; allowed keys: next_ckpt, next_eval, next_snapshot, "
                                   "snapshots, timesteps"),
    _trainer_key("snapshots", ["snap_" + BIG_INT], "'snapshots'"),
    _meta_deep,
    _meta_bigint,
    _optimizer_zip_bomb,
]


@pytest.mark.parametrize("damage", RESUME_DAMAGE, ids=range(len(RESUME_DAMAGE)))
def test_a_hostile_checkpoint_file_falls_back_to_the_previous_checkpoint(run, capsys, damage):
    bad = run / "checkpoints" / STEP2
    name, why = damage(bad)
    folder, warnings = _resume(run, capsys)
    assert folder == run / "checkpoints" / STEP1
    assert len(warnings) == 1, warnings
    assert f"checkpoint {bad} is damaged ({bad / name}: " in warnings[0] and why in warnings[0]
    assert len(warnings[0]) < 1000


def test_a_newest_step_that_is_a_file_is_announced(run, capsys):
    shutil.rmtree(run / "checkpoints" / "final")
    bad = run / "checkpoints" / "step_000004096"
    bad.write_text("not a folder")
    folder, warnings = _resume(run, capsys)
    assert folder == run / "checkpoints" / STEP2
    assert len(warnings) == 1 and f"checkpoint {bad} is damaged ({bad}: not a folder" in warnings[0]


def test_only_step_files_is_a_clear_error(tmp_path, run):
    for step in (STEP1, STEP2):
        shutil.rmtree(run / "checkpoints" / step)
        (run / "checkpoints" / step).write_text("x")
    cfg, name = _read_run_config(run)
    with pytest.raises(CheckpointError, match="no usable checkpoint") as e:
        _resume_point(run, cfg, name)
    assert f"{run / 'checkpoints' / STEP1}: not a folder" in str(e.value)


@pytest.mark.parametrize("text, why", [
    ("a: " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ("total_timesteps: " + BIG_INT + "\n", "4300"),
    ("#" + " " * (2 << 20) + "\n", "allowed"),
])
def test_a_hostile_run_config_names_the_file(run, text, why):
    (run / "config.yaml").write_text(text)
    with pytest.raises(CheckpointError) as e:
        train(progress=False, resume=run)
    assert str(run / "config.yaml") in str(e.value) and why in str(e.value) and len(str(e.value)) < 500


# ------------------------------------------------------------------ configs, rules
HOSTILE_YAML = [
    ("a: " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ("seed: " + BIG_INT + "\n", "4300"),
    ("#" + " " * (2 << 20) + "\n", "allowed"),
]


@pytest.mark.parametrize("loader", [load_config, load_rllib_config], ids=["train", "rllib"])
@pytest.mark.parametrize("text, why", HOSTILE_YAML, ids=["deep", "bigint", "huge"])
def test_a_hostile_training_config_names_the_file(tmp_path, loader, text, why):
    p = tmp_path / "c.yaml"
    p.write_text(text)
    with pytest.raises(ConfigError) as e:
        loader(p)
    assert str(p) in str(e.value) and why in str(e.value) and len(str(e.value)) < 500


@pytest.mark.parametrize("text, why", [HOSTILE_YAML[0], HOSTILE_YAML[2]], ids=["deep", "huge"])
def test_a_hostile_rules_file_names_the_file(tmp_path, text, why):
    p = tmp_path / "r.yaml"
    p.write_text(text)
    with pytest.raises(RuleOptionError) as e:
        load_rules(p)
    assert str(p) in str(e.value) and why in str(e.value) and len(str(e.value)) < 500


def test_a_rules_file_with_a_bad_date_names_the_file(tmp_path):
    p = tmp_path / "r.yaml"
    p.write_text("tie: 2020-13-01\n")  # PyYAML raises a bare ValueError (month must be in 1..12)
    with pytest.raises(RuleOptionError, match=re.escape(f"rules file {p}: not valid YAML (month must be in 1..12)")):
        load_rules(p)


def _alias_chain(key: str) -> str:
    """YAML whose ``key`` holds aliases of aliases: 10 strings, 10 copies of those, ... 10^5
    strings in all from 5 lines (a "billion laughs" file at a small scale: 8 levels in 700
    bytes would be 10^8 strings and GBs of memory once a value is printed)."""
    lines = [f"{key}:", "  - &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"  - &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 5)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("loader, key, where", [
    (load_config, "net_pi", "{p}"), (load_iterate_config, "rules", "{p}"), (load_rules, "target", "rules file {p}"),
], ids=["train", "iterate", "rules"])
def test_yaml_aliases_expanding_past_the_bound_are_refused_naming_the_file(tmp_path, loader, key, where):
    """Aliases may repeat at most ``MAX_YAML_ALIAS_VALUES`` (10,000) values in a config or
    rules file: the chain stops at the alias that passes it, on line 5 (*l2 in &l3:
    110 + 1,110 + 8 x 1,111 values)."""
    p = tmp_path / "c.yaml"
    p.write_text(_alias_chain(key))
    with pytest.raises((ConfigError, RuleOptionError)) as e:
        loader(p)
    assert str(e.value) == (f"{where.format(p=p)}: its aliases expand to more than 10,000 values (by *l2 on line 5); "
                            "aliases may repeat a few values: write the values out")
    from belote_env.jsonfile import MAX_YAML_ALIAS_VALUES, YamlAliasError

    assert MAX_YAML_ALIAS_VALUES == 10_000
    with pytest.raises(YamlAliasError):  # the one reader of every YAML file refuses it
        parse_yaml(p.read_text(), str(p))


@pytest.mark.parametrize("command", [["train", "--config"], ["iterate", "--config"],
                                     ["eval", "easy", "random", "--rules"]])
def test_the_cli_refuses_a_yaml_alias_chain_naming_the_file(tmp_path, capsys, command):
    from training.cli import main

    p = tmp_path / "c.yaml"
    p.write_text(_alias_chain({"train": "net_pi", "iterate": "rules", "eval": "target"}[command[0]]))
    assert main([*command, str(p), "--no-progress"]) == 2
    err = capsys.readouterr().err
    where = f"rules file {p}" if command[0] == "eval" else str(p)
    assert err == (f"belote {command[0]}: error: {where}: its aliases expand to more than 10,000 values (by *l2 on "
                   "line 5); aliases may repeat a few values: write the values out\n")


def test_yaml_aliases_within_the_bound_share_values_and_a_recursive_one_is_refused(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_text("net_pi: &layers [64, 32]\nnet_vf: *layers\n")
    cfg = load_config(p)
    assert cfg.net_pi == cfg.net_vf == [64, 32]
    p.write_text("net_pi: &a [64, *a]\n")
    with pytest.raises(ConfigError) as e:
        load_config(p)
    assert str(e.value) == (f"{p}: the alias *a on line 1 is inside the value &a it names (a recursive value); "
                            "write the value out")


@pytest.mark.parametrize("options", [{"tie": "x" * 10 ** 6}, {"x" * 10 ** 6: 1}, {"tie": ["y" * 10 ** 6]}],
                         ids=["value", "key", "list"])
def test_rule_option_errors_truncate_the_bad_value(options):
    from belote_env import Rules

    with pytest.raises(RuleOptionError) as e:
        Rules.from_dict(options)
    assert len(str(e.value)) < 400 and "..." in str(e.value)
    rec = _record()
    rec["rules"] = {**rec["rules"], **options}
    with pytest.raises(RecordError, match="record 'rules'") as e:
        replay(rec)
    assert len(str(e.value)) < 400


# ------------------------------------------------------------------ records
def _record():
    from belote_env import GameState
    from belote_env.records import game_record

    st = GameState(seed=3)
    st.apply(st.legal_actions()[0])
    return game_record(st)


def test_a_record_with_a_huge_int_names_the_file(tmp_path):
    p = tmp_path / "r.json"
    p.write_text(json.dumps(_record()).replace('"dealer": ', f'"dealer": {BIG_INT}, "x": ', 1))
    with pytest.raises(RecordError) as e:
        read_record(p)
    assert str(p) in str(e.value) and "4300" in str(e.value)


def test_a_record_over_the_size_bound_is_refused_before_reading(tmp_path):
    from belote_env import records

    p = tmp_path / "r.json"
    p.write_text(json.dumps(_record()) + " " * 2048)
    with pytest.raises(RecordError, match=re.escape(str(p)) + ".*allowed"):
        read_record(p, max_bytes=1024)
    assert records.read_record(p)["format"] == "belote-rl-record"


@pytest.mark.parametrize("value", ["J" * 10 ** 6, ["x" * 10 ** 6], 10 ** 1000], ids=["str", "list", "int"])
def test_record_errors_truncate_the_bad_value(value):
    rec = _record()
    rec["deals"][0]["deck"][0] = value
    with pytest.raises(RecordError, match=r"deal 0 deck\[0\]") as e:
        replay(rec)
    assert len(str(e.value)) < 300 and "..." in str(e.value)


# ------------------------------------------------------------------ RLlib export, the CLI's eval.json
def test_rllib_export_refuses_a_deep_meta(tmp_path):
    from training.rllib.export import META_NAME, export_rllib_checkpoint

    (tmp_path / "ck").mkdir()
    (tmp_path / "ck" / META_NAME).write_text(DEEP_JSON)
    with pytest.raises(CheckpointError, match=re.escape(str(tmp_path / "ck" / META_NAME)) + ".*nested too deeply"):
        export_rllib_checkpoint(tmp_path / "ck", tmp_path / "out")


def test_cli_train_reads_eval_json_with_a_clear_error(tmp_path, monkeypatch, capsys):
    import training.train
    from training.cli import main

    (tmp_path / "eval.json").write_text(DEEP_JSON)
    monkeypatch.setattr(training.train, "train", lambda *a, **k: tmp_path)
    cfg = tmp_path / "c.yaml"
    cfg.write_text("exp_name: x\n")
    assert main(["train", "--config", str(cfg), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'eval.json'}: not valid JSON (nested too deeply)" in err and "Traceback" not in err
