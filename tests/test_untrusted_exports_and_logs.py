"""Untrusted inputs of the evaluation tools: ``belote export`` of hostile SB3 zips (zip bombs, sizes
that lie, damaged archives, pickles, non-finite weights), pairs logs with deep JSON, bytes
that are not UTF-8 or numbers out of range, the bound on a match's pairs, and policy
factories that exit or are also a path."""

from __future__ import annotations

import io
import json
import os
import re
import struct
import sys
import warnings
import zipfile

import pytest

from training.evaluate import duplicate_match


# --- 1. belote export of an SB3 .zip ----------------------------------------------------

@pytest.fixture(scope="module")
def sb3_zip(tmp_path_factory):
    """An untrained MaskablePPO("MlpPolicy") on the single-agent env, saved as a .zip."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    import belote_env  # noqa: F401

    model = MaskablePPO("MlpPolicy", gymnasium.make("Belote-v0"), n_steps=64, seed=0,
                        policy_kwargs={"net_arch": [16]})
    path = tmp_path_factory.mktemp("sb3") / "model.zip"
    model.save(path)
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    return path, members


def _zip(path, members, method=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", method) as z:
        for name, raw in members.items():
            z.writestr(name, raw)
    return path


def _patch_central(path, offset, fmt, value):
    """Overwrite a field (``offset`` bytes into each central-directory entry) of a zip."""
    raw = bytearray(path.read_bytes())
    i = raw.find(b"PK\x01\x02")
    while i >= 0:
        raw[i + offset:i + offset + struct.calcsize(fmt)] = struct.pack(fmt, value)
        i = raw.find(b"PK\x01\x02", i + 4)
    path.write_bytes(bytes(raw))
    return path


def _export(path, tmp_path):
    from training.export import export_model

    return export_model(path, tmp_path / "out")


@pytest.mark.parametrize("member,pad,allowed", [
    ("data", b" " * (5 << 20), "4,194,304"),  # 5 MiB of spaces after the JSON: still valid JSON
    ("_stable_baselines3_version", b"2" * (64 << 10), "4,096"),
])
def test_an_sb3_zip_member_over_its_bound_is_refused_before_it_is_read(sb3_zip, tmp_path, member, pad, allowed):
    from policies.network import CheckpointError

    _, m = sb3_zip
    bomb = _zip(tmp_path / "bomb.zip", {**m, member: m[member] + pad})
    assert bomb.stat().st_size < 1 << 20  # a small file that unpacks to megabytes
    with pytest.raises(CheckpointError, match=rf"bomb.zip: member {member} declares [\d,]+ bytes uncompressed, "
                                              rf"more than the {allowed} allowed"):
        _export(bomb, tmp_path)
    assert not (tmp_path / "out").exists()


def test_the_policy_pth_bound_fits_the_largest_network_and_is_enforced(sb3_zip, tmp_path, monkeypatch):
    from policies.network import MAX_PARAMETERS, CheckpointError
    from training import export

    assert export.SB3_MEMBER_BOUNDS["policy.pth"] >= 4 * MAX_PARAMETERS
    _, m = sb3_zip
    monkeypatch.setitem(export.SB3_MEMBER_BOUNDS, "policy.pth", len(m["policy.pth"]) - 1)
    with pytest.raises(CheckpointError, match="model.zip: member policy.pth declares"):
        _export(_zip(tmp_path / "model.zip", m), tmp_path)


def test_a_zip_whose_declared_sizes_lie_is_refused_naming_the_file(sb3_zip, tmp_path):
    from policies.network import CheckpointError

    _, m = sb3_zip
    big = _patch_central(_zip(tmp_path / "big.zip", m, zipfile.ZIP_STORED), 24, "<I", 0xFFFFFFF0)
    with pytest.raises(CheckpointError, match="big.zip: member data declares 4,294,967,280 bytes"):
        _export(big, tmp_path)  # was: EOFError
    small = _patch_central(_zip(tmp_path / "small.zip", m), 24, "<I", 10)  # fewer bytes than the member holds
    with pytest.raises(CheckpointError, match="small.zip: member data cannot be read"):
        _export(small, tmp_path)


def _corrupt_deflate(path, m):
    _zip(path, m)
    raw = bytearray(path.read_bytes())
    j = raw.find(b"policy.pth") + 60
    for k in range(j, j + 2000):
        raw[k] ^= 0x5A
    path.write_bytes(bytes(raw))
    return path


def _encrypted(path, m):
    _zip(path, m, zipfile.ZIP_STORED)
    raw = bytearray(path.read_bytes())
    for sig, flag in ((b"PK\x01\x02", 8), (b"PK\x03\x04", 6)):
        i = raw.find(sig)
        while i >= 0:
            raw[i + flag] |= 1
            i = raw.find(sig, i + 4)
    path.write_bytes(bytes(raw))
    return path


@pytest.mark.parametrize("make,match", [
    (_corrupt_deflate, r"member policy.pth cannot be read \(zlib.error: "),
    (_encrypted, r"member data cannot be read \(RuntimeError: .*encrypted"),
    (lambda p, m: _patch_central(_zip(p, m, zipfile.ZIP_STORED), 10, "<H", 99),
     r"member data cannot be read \(NotImplementedError: That compression method is not supported"),
])
def test_a_damaged_or_unreadable_zip_is_a_checkpoint_error_naming_the_file(sb3_zip, tmp_path, make, match):
    from policies.network import CheckpointError

    _, m = sb3_zip
    with pytest.raises(CheckpointError, match=rf"bad.zip: {match}"):
        _export(make(tmp_path / "bad.zip", m), tmp_path)


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch pwned_by_review",))


def test_a_pickle_in_policy_pth_is_refused_without_torchs_unsafe_advice_or_warning(sb3_zip, tmp_path, monkeypatch):
    import pickle

    import torch

    from policies.network import CheckpointError

    monkeypatch.chdir(tmp_path)
    _, m = sb3_zip
    buf = io.BytesIO()
    torch.save({"x": _Evil()}, buf)
    for name, raw in (("torch", buf.getvalue()), ("plain", pickle.dumps(_Evil(), protocol=4))):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # torch's UserWarning about the pickle protocol is not shown
            with pytest.raises(CheckpointError) as e:
                _export(_zip(tmp_path / f"{name}.zip", {**m, "policy.pth": raw}), tmp_path)
        msg = str(e.value)
        assert f"{name}.zip: policy.pth is not a tensor state_dict: it holds something other than tensors" in msg
        assert "nothing in it was executed" in msg
        assert "weights_only" not in msg and "arbitrary code" not in msg and "trusted source" not in msg
    assert not (tmp_path / "pwned_by_review").exists()


def test_non_finite_weights_are_refused(sb3_zip, tmp_path):
    import torch

    from policies.network import CheckpointError

    _, m = sb3_zip
    sd = torch.load(io.BytesIO(m["policy.pth"]), weights_only=True)
    sd["action_net.bias"][3] = float("nan")
    buf = io.BytesIO()
    torch.save(sd, buf)
    with pytest.raises(CheckpointError, match=r"nan.zip: policy.pth tensor action_net.bias holds non-finite values"):
        _export(_zip(tmp_path / "nan.zip", {**m, "policy.pth": buf.getvalue()}), tmp_path)


@pytest.mark.parametrize("data,match", [
    (b"[" * 100_000 + b"]" * 100_000, r"member data: not valid JSON \(nested too deeply\)"),
    (b'{"n": ' + b"9" * 5000 + b"}", r"member data: not valid JSON \(Exceeds the limit"),
    (b"\xff\xfe{}", "member data: not UTF-8 text"),
])
def test_sb3_data_that_is_not_json_is_refused_naming_the_file(sb3_zip, tmp_path, data, match):
    from policies.network import CheckpointError

    _, m = sb3_zip
    with pytest.raises(CheckpointError, match=rf"d.zip: {match}"):
        _export(_zip(tmp_path / "d.zip", {**m, "data": data}), tmp_path)


def test_cli_export_of_a_zip_bomb_is_an_error_not_a_traceback(sb3_zip, tmp_path, capsys):
    from training.cli import main

    path, m = sb3_zip
    bomb = _zip(tmp_path / "bomb.zip", {**m, "_stable_baselines3_version": b"\xff" * (1 << 20)})
    assert main(["export", str(bomb), str(tmp_path / "out")]) == 2
    assert "bomb.zip: member _stable_baselines3_version declares 1,048,576 bytes" in capsys.readouterr().err
    assert main(["export", str(path), str(tmp_path / "ok")]) == 0  # the real zip still exports


# --- 2. pairs logs -------------------------------------------------------------------

def _log(tmp_path, pairs=4):
    log = tmp_path / "pairs.jsonl"
    ref = duplicate_match("random", "easy", pairs, seed=5, chunk=1, pairs_log=log)
    return log, ref, log.read_text().splitlines()


def test_a_pairs_log_line_nested_too_deeply_is_an_error_naming_the_line(tmp_path):
    log, ref, lines = _log(tmp_path)
    deep = "[" * 100_000 + "]" * 100_000
    log.write_text("\n".join(lines[:2] + [deep] + lines[2:]) + "\n")
    with pytest.raises(ValueError, match=r"pairs log .*pairs.jsonl: line 3 is corrupt "
                                         r"\(not valid JSON \(nested too deeply\)\)"):
        duplicate_match("random", "easy", 4, seed=5, chunk=1, pairs_log=log)
    log.write_text("\n".join(lines + [deep]))  # as the last line: dropped like a torn write, its pairs replayed
    assert duplicate_match("random", "easy", 4, seed=5, chunk=1, pairs_log=log).to_dict() == ref.to_dict()
    log.write_text(deep + "\n")
    with pytest.raises(ValueError, match=r"pairs.jsonl: line 1 is not a pairs-log header "
                                         r"\(not valid JSON \(nested too deeply\)"):
        duplicate_match("random", "easy", 4, seed=5, chunk=1, pairs_log=log)


def test_a_pairs_log_that_is_not_utf8_is_an_error_naming_the_file_and_line(tmp_path):
    log, _, lines = _log(tmp_path)
    log.write_bytes((lines[0] + "\n").encode() + b"\xff\xfe junk\n" + (lines[1] + "\n").encode())
    with pytest.raises(ValueError, match=r"pairs log .*pairs.jsonl: line 2 is corrupt \(not UTF-8 text \(byte 0\)\)"):
        duplicate_match("random", "easy", 4, seed=5, chunk=1, pairs_log=log)
    log.write_bytes(b"\xff\xfe\n")
    with pytest.raises(ValueError, match=r"pairs log .*pairs.jsonl: line 1 is not a pairs-log header \(not UTF-8 text"):
        duplicate_match("random", "easy", 4, seed=5, chunk=1, pairs_log=log)


def _edit(lines, index, key, value):
    row = json.loads(lines[index])
    row["tally"][key] = value
    return lines[:index] + [json.dumps(row)] + lines[index + 1:]


@pytest.mark.parametrize("key,value,match", [
    ("diffs", [1e308], r"diffs\[0\] is 1e\+308, allowed: a number in -10000..10000 .*no deal scores more than 10000"),
    ("diffs", [-10000.5], r"diffs\[0\] is -10000.5, allowed: a number in -10000..10000"),
    ("time_s", [1e300, 0.0], r"time_s\[0\] is 1e\+300, allowed: 0..1e\+07 seconds"),
    ("moves", [10 ** 400, 0], r"moves\[0\] is 1000+, allowed: 0..2000 \(at most 1000 decisions"),
])
def test_pairs_log_numbers_beyond_any_real_match_are_refused(tmp_path, key, value, match):
    log, _, lines = _log(tmp_path)
    log.write_text("\n".join(_edit(lines, 1, key, value)) + "\n")
    with pytest.raises(ValueError, match=rf"pairs.jsonl: line 2 is corrupt \(tally {match}"):
        duplicate_match("random", "easy", 4, seed=5, chunk=1, pairs_log=log)


def test_pairs_log_keeps_a_surcoinched_generale_sized_difference(tmp_path):
    """A coinche pair can differ by more than 2,000 points a deal (a généralé of 500
    surcoinched four times, COINCHE.md §6): a log holding one is read back, not refused."""
    log, _, lines = _log(tmp_path)
    log.write_text("\n".join(_edit(lines, 1, "diffs", [2162.0])) + "\n")
    m = duplicate_match("random", "easy", 4, seed=5, chunk=1, pairs_log=log)
    assert m.mean_diff > 2162.0 / 4 - 300


def test_two_huge_diffs_no_longer_make_an_infinite_mean(tmp_path):
    log, _, lines = _log(tmp_path)
    log.write_text("\n".join(_edit(_edit(lines, 1, "diffs", [1.7e308]), 2, "diffs", [1.7e308])) + "\n")
    with pytest.raises(ValueError, match=r"line 2 is corrupt \(tally diffs\[0\] is 1.7e\+308"):
        duplicate_match("random", "easy", 4, seed=5, chunk=1, pairs_log=log)


def test_the_bounds_hold_every_value_a_real_match_writes(tmp_path):
    log, ref, lines = _log(tmp_path)
    edited = _edit(_edit(lines, 1, "diffs", [2000.0]), 2, "diffs", [-2000])
    log.write_text("\n".join(edited) + "\n")
    r = duplicate_match("random", "easy", 4, seed=5, chunk=1, pairs_log=log)
    assert r.mean_diff == pytest.approx((ref.mean_diff * 4 - json.loads(lines[1])["tally"]["diffs"][0]
                                         - json.loads(lines[2])["tally"]["diffs"][0] + 2000 - 2000) / 4)


# --- 3. the number of pairs of a match ------------------------------------------------

def test_a_match_of_too_many_pairs_is_refused_before_anything_is_built():
    from training.evaluate import MAX_PAIRS

    assert MAX_PAIRS == 10_000_000
    for pairs in (MAX_PAIRS + 1, 10 ** 9, 0):
        with pytest.raises(ValueError, match=r"pairs must be an int in 1..10,000,000"):
            duplicate_match("random", "easy", pairs)


@pytest.mark.parametrize("argv,match", [
    (["--pairs", "1000000000"], r"--pairs must be in 1..10,000,000 \(at most 10,000,000 mirrored pairs\), got "),
    (["--games", "10000001"], r"--games must be in 1..10,000,000"),
    (["--deals", "20000001"], r"--deals must be in 2..20,000,000"),
    (["--deals", "1"], r"--deals must be in 2..20,000,000 \(at least one mirrored pair\), got 1"),
])
def test_cli_eval_bounds_pairs_deals_and_games(argv, match, capsys):
    from training.evaluate import MAX_PAIRS  # noqa: F401  (the bound these options follow)

    from training.cli import main

    assert main(["eval", "random", "easy", "--no-progress", *argv]) == 2
    assert re.search(match, capsys.readouterr().err)


def test_cli_ladder_bounds_pairs(capsys):
    from training.evaluate import MAX_PAIRS  # noqa: F401

    from training.cli import main

    assert main(["ladder", "random", "easy", "--pairs", "10000001", "--no-progress"]) == 2
    assert "--pairs must be in 1..10,000,000" in capsys.readouterr().err


def test_workers_still_play_every_pair_once_with_chunks_sent_as_they_go(tmp_path):
    one = duplicate_match("random", "easy", 7, seed=3, chunk=2)
    log = tmp_path / "w.jsonl"
    many = duplicate_match("random", "easy", 7, seed=3, chunk=2, workers=2, pairs_log=log)
    assert many.to_dict() | {"a_ms_per_move": 0, "b_ms_per_move": 0} == one.to_dict() | {
        "a_ms_per_move": 0, "b_ms_per_move": 0}
    ids = sorted(i for line in log.read_text().splitlines()[1:] for i in json.loads(line)["ids"])
    assert ids == list(range(7))


# --- 4. policy factories that exit, or that are also a path ---------------------------

@pytest.fixture
def factory_dir(tmp_path, monkeypatch):
    (tmp_path / "belote_review_exitmod.py").write_text("import sys\nsys.exit(0)\n")
    (tmp_path / "belote_review_facmod.py").write_text(
        "import sys\n"
        "def exits():\n    sys.exit(3)\n"
        "def interrupts():\n    raise KeyboardInterrupt\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for name in ("belote_review_exitmod", "belote_review_facmod"):
        sys.modules.pop(name, None)


@pytest.mark.parametrize("spec,match", [
    ("belote_review_exitmod:make", r"'belote_review_exitmod:make': importing module 'belote_review_exitmod' "
                                   r"called sys.exit / exit \(SystemExit\(0\)\)"),
    ("belote_review_facmod:exits", r"'belote_review_facmod:exits' called sys.exit / exit \(SystemExit\(3\)\) when "
                                   r"called with no arguments"),
    ("builtins:exit", r"'builtins:exit' called sys.exit / exit"),
])
def test_a_factory_that_exits_is_a_value_error_naming_the_spec(factory_dir, spec, match):
    from policies import make_policy
    from policies.registry import check_policy_spec

    with pytest.raises(ValueError, match=match):
        make_policy(spec)
    if "exitmod" in spec:
        with pytest.raises(ValueError, match=match):
            check_policy_spec(spec)


def test_cli_eval_of_a_factory_that_exits_reports_an_error(factory_dir, capsys):
    from training.cli import main

    for spec in ("belote_review_exitmod:make", "builtins:exit"):
        assert main(["eval", spec, "random", "--pairs", "1", "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert f"belote eval: error: policy factory {spec!r}" in err and "exit" in err


def test_keyboard_interrupt_in_a_factory_still_stops_the_program(factory_dir):
    from policies import make_policy

    with pytest.raises(KeyboardInterrupt):
        make_policy("belote_review_facmod:interrupts")


def test_a_factory_spec_that_is_also_a_folder_says_how_to_name_the_folder(factory_dir):
    from policies import make_policy

    (factory_dir / "nomod_review:make").mkdir()
    with pytest.raises(ValueError, match=r"no module named 'nomod_review'.*'nomod_review:make' is also an existing "
                                         r"path.*write it as '\./nomod_review:make'"):
        make_policy("nomod_review:make")
    with pytest.raises(ValueError) as e:
        make_policy("nomod_other:make")  # no such path: no hint
    assert "existing path" not in str(e.value)
