"""Loading a model folder checks the network ``meta.json`` describes against the weights
file's header before anything is allocated."""

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from policies.network import (MAX_PARAMETERS, BeloteNet, CheckpointError, expected_shapes, load_model,
                              read_safetensors_header, save_model)

ROOT = Path(__file__).resolve().parents[1]


def _model_dir(tmp_path, pi=(16,), vf=(16,)):
    net = BeloteNet(pi=list(pi), vf=list(vf))
    return save_model(tmp_path / "m", net.state_dict(), net.config)


def _edit_net(folder: Path, **net) -> None:
    meta = json.loads((folder / "meta.json").read_text())
    meta["net"].update(net)
    (folder / "meta.json").write_text(json.dumps(meta))


def test_header_lists_every_tensor_with_its_shape(tmp_path):
    d = _model_dir(tmp_path)
    header = read_safetensors_header(d / "model.safetensors")
    assert header == {k: ("F32", s) for k, s in expected_shapes(BeloteNet(pi=[16], vf=[16]).config).items()}
    assert header["mlp_extractor.policy_net.0.weight"] == ("F32", (16, 618))
    assert header["action_net.weight"] == ("F32", (112, 16))
    assert header["value_net.bias"] == ("F32", (1,))


def test_expected_shapes_allocate_nothing_for_a_huge_description():
    # Two 4096 x 4096 layers per head: about 39 M parameters, 157 MB of float32 if allocated.
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    shapes = expected_shapes({"pi": [4096, 4096], "vf": [4096, 4096]})
    assert shapes["mlp_extractor.policy_net.2.weight"] == (4096, 4096)
    assert shapes["value_net.weight"] == (1, 4096)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50_000  # KiB


def test_a_wider_net_in_meta_is_refused_from_the_header(tmp_path):
    d = _model_dir(tmp_path)
    _edit_net(d, pi=[1024], vf=[1024])
    with pytest.raises(CheckpointError, match=r"weights do not match the network in meta.json \(tensor "
                                              r"'mlp_extractor.policy_net.0.weight' is F32 \[16, 618\], "
                                              r"the network needs F32 \[1024, 618\]\)"):
        load_model(d)


def test_more_layers_in_meta_are_refused_as_missing_tensors(tmp_path):
    d = _model_dir(tmp_path)
    _edit_net(d, pi=[16, 16])
    with pytest.raises(CheckpointError, match=r"missing tensors \['mlp_extractor.policy_net.2.bias', "
                                              r"'mlp_extractor.policy_net.2.weight'\]"):
        load_model(d)


def test_the_full_bound_is_refused_by_the_parameter_count(tmp_path):
    d = _model_dir(tmp_path)
    _edit_net(d, pi=[16384] * 16, vf=[16384] * 16)
    with pytest.raises(CheckpointError, match=rf"bad network description .*parameters, more than the bound "
                                              rf"MAX_PARAMETERS = {MAX_PARAMETERS:,}"):
        load_model(d)
    with pytest.raises(ValueError, match="MAX_PARAMETERS"):
        BeloteNet(pi=[8192, 8192], vf=[8])  # 67 M parameters, over the bound


@pytest.mark.parametrize("edit, why", [
    (lambda b: b[:-4], "bytes on disk, the header declares"),
    (lambda b: b + b"\0" * 4, "bytes on disk, the header declares"),
    (lambda b: (10 ** 9).to_bytes(8, "little") + b[8:], "header length 1000000000 bytes, allowed 2..1048576"),
    (lambda b: b[:5], "shorter than a safetensors header"),
    (lambda b: b"[[[[" * 4 + b[16:], "header length"),
])
def test_a_damaged_weights_file_is_refused_before_reading_tensors(tmp_path, edit, why):
    d = _model_dir(tmp_path)
    w = d / "model.safetensors"
    w.write_bytes(edit(w.read_bytes()))
    with pytest.raises(CheckpointError, match=rf"{w}: corrupt weights file \(.*{why}"):
        load_model(d)


def test_a_header_that_declares_a_huge_tensor_is_refused(tmp_path):
    d = _model_dir(tmp_path)
    w = d / "model.safetensors"
    raw = w.read_bytes()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n])
    header["action_net.weight"]["shape"] = [112, 1 << 40]
    new = json.dumps(header).encode()
    w.write_bytes(len(new).to_bytes(8, "little") + new + raw[8 + n:])
    with pytest.raises(CheckpointError, match=r"tensor 'action_net.weight': shape \[112, 1099511627776\]"):
        load_model(d)


def test_an_intact_model_loads_with_the_same_outputs(tmp_path):
    net = BeloteNet(pi=[16], vf=[8, 8])
    d = save_model(tmp_path / "m", net.state_dict(), net.config)
    net2, meta = load_model(d)
    x = torch.randn(3, 618)
    assert torch.equal(net(x)[0], net2(x)[0]) and torch.equal(net(x)[1], net2(x)[1])
    assert meta["net"]["vf"] == [8, 8]


@pytest.mark.parametrize("layers, why", [
    ([16384, 16384], "parameters, more than the bound MAX_PARAMETERS"),  # the edit: 560 M parameters
    ([4096, 4096], "weights do not match the network in meta.json"),  # within the bound: 39 M parameters
])
def test_belote_eval_on_an_edited_meta_exits_clearly_under_300_mb(tmp_path, layers, why):
    """The issue's reproduction: a 184-byte meta.json edit used to make ``belote eval``
    allocate 2.4 GB before it said "weights do not match"."""
    d = _model_dir(tmp_path)
    _edit_net(d, pi=layers, vf=layers)
    # VmHWM: this process's peak resident size (ru_maxrss would include the forking
    # pytest process's size, which Linux carries over an exec).
    code = ("import sys\n"
            "from training.cli import main\n"
            "try:\n"
            "    rc = main(sys.argv[1:])\n"
            "finally:\n"
            "    hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]\n"
            "    print('maxrss_kib', hwm, file=sys.stderr)\n"
            "sys.exit(rc)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-c", code, "eval", str(d), "random", "--deals", "2"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr
    assert why in p.stderr
    rss_kib = int(p.stderr.split("maxrss_kib")[1].split()[0])
    assert rss_kib < 300 * 1024, f"{rss_kib / 1024:.0f} MB resident"


# ----------------------------------------------------------------------------- declared parts
@pytest.mark.parametrize("model, part", [("hard_coinche", "bids"), ("hard_coinche", "cards"), ("hard", "bids"),
                                         ("hard", "cards")])
def test_a_model_folder_missing_a_part_its_meta_declares_is_refused_naming_it(tmp_path, model, part):
    """The shipped hard models declare their value networks (``meta.json`` ``parts``); with
    one removed the folder is refused, naming the part (the coinche hard tier used to load
    without ``bids/`` and pass at every bid)."""
    import shutil

    from policies.hard import HardPolicy
    from policies.network import NetworkPolicy

    src = ROOT / "policies" / "models" / model
    assert json.loads((src / "meta.json").read_text())["parts"] == ["bids", "cards"]
    folder = tmp_path / model
    shutil.copytree(src, folder)
    NetworkPolicy.from_path(folder)  # whole: loads
    shutil.rmtree(folder / part)
    want = rf"declares a {'bid' if part == 'bids' else 'card'}-value network in {part}/, which is missing"
    with pytest.raises(CheckpointError, match=want):
        NetworkPolicy.from_path(folder)
    if model == "hard":
        with pytest.raises(CheckpointError, match=want):
            HardPolicy(model_dir=folder)


def test_belote_eval_refuses_a_damaged_model_folder(tmp_path, capsys):
    import shutil

    from training.cli import main

    folder = tmp_path / "hc"
    shutil.copytree(ROOT / "policies" / "models" / "hard_coinche", folder)
    shutil.rmtree(folder / "bids")
    assert main(["eval", str(folder), "normal", "--rules", "coinche", "--pairs", "2", "--no-progress"]) == 2
    assert "bids/, which is missing" in capsys.readouterr().err


def test_declared_parts_must_name_sub_folders(tmp_path):
    from policies.network import declare_parts, value_net_kwargs

    d = _model_dir(tmp_path)
    assert declare_parts(d) == [] and json.loads((d / "meta.json").read_text())["parts"] == []
    for bad in (["cards", "cards"], ["weights"], "cards"):
        meta = json.loads((d / "meta.json").read_text())
        meta["parts"] = bad
        (d / "meta.json").write_text(json.dumps(meta))
        with pytest.raises(CheckpointError, match="parts must be a list of distinct sub-folder names"):
            value_net_kwargs(d)


def test_a_model_s_facts_are_its_variant_s_game():
    from belote_env.config import variant_rules
    from policies.hard import HARD_MODEL_DIR, hard_model_dir
    from policies.model_files import (
        AUCTION_BID_ACTIONS, CONTRACT_MODE_OBS_SIZE, CUTTHROAT_MODES, MODE_N_ACTIONS, _mode_meta, bid_actions_of,
    )

    assert CONTRACT_MODE_OBS_SIZE == {"classic": 618, "coinche": 1141, "two": 716, "three": 902}
    assert MODE_N_ACTIONS == {"classic": 112, "coinche": 112, "two": 414, "three": 414}
    assert CUTTHROAT_MODES == ("two", "three")
    assert list(bid_actions_of("classic")) == list(range(32, 40))
    assert list(bid_actions_of("coinche")) == list(range(32, 102))
    assert list(bid_actions_of("three")) == list(range(32, 38)) == list(AUCTION_BID_ACTIONS["proposal"])
    # the observation version each model records, named by its game's obs_version
    assert _mode_meta("classic") == {"contract_mode": "classic", "obs_size": 618}
    assert _mode_meta("coinche")["coinche_obs_version"] == 1
    assert _mode_meta("two")["small_obs_version"] == 1
    assert hard_model_dir("classic") == HARD_MODEL_DIR
    assert hard_model_dir("three").name == "hard_3p"
    assert hard_model_dir("four_coinche") == HARD_MODEL_DIR.parent / "hard_four_coinche"
    with pytest.raises(ValueError, match="unknown variant 'four_coinche': one of classic, coinche, two, three"):
        variant_rules("four_coinche")


# ----------------------------------------------------------------------------- format and kind
MISSING = object()  # a meta.json key left out


@pytest.mark.parametrize("edit, why", [
    ({"format_version": 99}, "format_version must be 1 (the model file format this package reads), got 99; "
                             "re-export the model with a matching belote-rl version"),
    ({"format_version": "1"}, "format_version must be 1 (the model file format this package reads), got '1'; "
                              "re-export the model with a matching belote-rl version"),
    ({"format_version": True}, "format_version must be 1 (the model file format this package reads), got True; "
                               "re-export the model with a matching belote-rl version"),
    ({"format_version": MISSING}, "format_version must be 1 (the model file format this package reads), it is "
                                  "missing; re-export the model with a matching belote-rl version"),
    ({"kind": "pickle"}, "unknown kind 'pickle'; a model folder's kind is one of 'value_policy', 'card_values', "
                         "'bid_values', or absent for a policy network"),
], ids=["99", "str", "bool", "missing", "kind"])
def test_a_model_of_another_format_version_or_kind_is_refused(tmp_path, edit, why):
    """``meta.json``'s ``format_version`` must be this package's ``FORMAT_VERSION`` and its
    ``kind`` one this package reads: anything else is refused naming it and what is
    allowed, not played (nor exported as format 1)."""
    d = _model_dir(tmp_path)
    meta = json.loads((d / "meta.json").read_text())
    meta.update(edit)
    meta = {k: v for k, v in meta.items() if v is not MISSING}
    (d / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError) as e:
        load_model(d)
    assert str(e.value) == f"{d / 'meta.json'}: {why}"


@pytest.mark.parametrize("where", ["meta.json", "cards/meta.json", "bids/meta.json"])
def test_the_cli_refuses_a_model_folder_of_another_format_version(tmp_path, capsys, where):
    """A folder of value networks only (the coinche hard) and each of its networks: ``belote
    eval`` and ``belote export`` stop on the ``meta.json`` of format 99, and nothing is
    exported."""
    import shutil

    from training.cli import main

    folder = tmp_path / "hc"
    shutil.copytree(ROOT / "policies" / "models" / "hard_coinche", folder)
    meta = json.loads((folder / where).read_text())
    (folder / where).write_text(json.dumps({**meta, "format_version": 99}))
    why = f"{folder / where}: format_version must be 1 (the model file format this package reads), got 99"
    assert main(["eval", str(folder), "normal", "--rules", "coinche", "--pairs", "1", "--no-progress"]) == 2
    assert why in capsys.readouterr().err
    if where != "meta.json":  # a folder of value networks only is not exported (it has no policy network)
        return
    folder2 = tmp_path / "h"
    shutil.copytree(ROOT / "policies" / "models" / "hard", folder2)
    meta = json.loads((folder2 / "meta.json").read_text())
    (folder2 / "meta.json").write_text(json.dumps({**meta, "format_version": 99}))
    assert main(["export", str(folder2), str(tmp_path / "out")]) == 2
    assert (f"{folder2 / 'meta.json'}: format_version must be 1 (the model file format this package reads), got 99"
            in capsys.readouterr().err)
    assert not (tmp_path / "out").exists()


def test_every_shipped_model_folder_loads():
    """Each model folder under ``policies/models`` (and ``candidates/``) passes the loader's
    checks of format version and kind, and plays."""
    from policies import make_policy

    models = ROOT / "policies" / "models"
    folders = sorted(p.parent for p in [*models.glob("*/meta.json"), *models.glob("candidates/*/meta.json")])
    assert [f.relative_to(models).as_posix() for f in folders] == [
        "candidates/iterated_coinche", "hard", "hard_2p", "hard_3p", "hard_coinche", "hard_oracle",
        "hard_oracle_coinche"]
    for folder in folders:
        meta = json.loads((folder / "meta.json").read_text())
        policy = make_policy(str(folder), seed=0)
        assert meta["format_version"] == 1 and (policy.net is None) == (meta.get("kind") == "value_policy")


def test_a_model_path_that_does_not_exist_is_named_as_such(tmp_path, capsys):
    """``load_model`` of a missing path says it does not exist (not that its parent is not a
    model folder); a folder without the files is still "not a model folder"; ``belote
    export`` says the same, exit 2."""
    from training.cli import main

    for missing in (tmp_path / "nowhere", tmp_path / "sub" / "meta.json", tmp_path / "run.zip"):
        with pytest.raises(CheckpointError, match=rf"^{missing}: no such file or folder \(a model folder"):
            load_model(missing)
    (tmp_path / "empty").mkdir()
    with pytest.raises(CheckpointError, match=rf"^{tmp_path / 'empty'}: not a model folder, model.safetensors is missing"):
        load_model(tmp_path / "empty")
    assert main(["export", str(tmp_path / "run.zip"), str(tmp_path / "out")]) == 2
    assert f"{tmp_path / 'run.zip'}: no such file or folder" in capsys.readouterr().err
    (tmp_path / "empty" / "other.json").write_text("{}")  # a JSON file that is not meta.json: named as given
    with pytest.raises(CheckpointError, match=rf"^{tmp_path / 'empty' / 'other.json'}: not a model folder"):
        load_model(tmp_path / "empty" / "other.json")
