"""Match workers and policy factories: worker processes that end with their
parent, range-checked pairs logs and their one writer, policy factories in matches and
ladders, and the export of an SB3 / sb3-contrib ``.zip`` (the README's Gymnasium +
MaskablePPO snippet)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from training.evaluate import duplicate_match

ROOT = Path(__file__).resolve().parent.parent


# --- 1. worker processes end when their parent is killed -------------------------------

def _children(pid: int) -> list[int]:
    kids = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie (an exited orphan its new parent has not reaped yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_eval_workers_and_resource_tracker_exit_when_the_parent_is_killed():
    """``kill -9`` of ``belote eval --workers 2`` must not leave its two workers (nor the
    multiprocessing resource tracker, which ends once every process holding it has)."""
    proc = subprocess.Popen([sys.executable, "-m", "training.cli", "eval", "random", "random", "--pairs", "1000000",
                             "--workers", "2", "--chunk", "5", "--no-progress"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers, tracker = [], []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            kids = _children(proc.pid)
            workers = [k for k in kids if "spawn_main" in _cmdline(k)]
            tracker = [k for k in kids if "resource_tracker" in _cmdline(k)]
            if len(workers) == 2 and all(_children(w) == [] for w in workers):
                break
            assert proc.poll() is None, "belote eval ended early"
            time.sleep(0.2)
        assert len(workers) == 2 and len(tracker) == 1, (workers, tracker)
        time.sleep(4)  # let the workers import and start their chunks
        assert proc.poll() is None and all(_alive(w) for w in workers)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(p) for p in workers + tracker):
            time.sleep(0.1)
        assert [w for w in workers if _alive(w)] == [], "workers outlived their parent"
        assert [t for t in tracker if _alive(t)] == [], "the resource tracker outlived the workers"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in workers + tracker:  # never leave orphans behind, even when the test fails
            if _alive(pid) and ("spawn_main" in _cmdline(pid) or "resource_tracker" in _cmdline(pid)):
                os.kill(pid, signal.SIGKILL)


def test_a_worker_whose_parent_is_already_gone_exits_at_once():
    """The initializer's check for a parent that died before the death signal was armed."""
    code = ("import training.evaluate as ev; print('imported', flush=True); ev.exit_with_parent(1); "
            "print('still alive')")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert (r.returncode, r.stdout, r.stderr) == (1, "imported\n", "")
    if sys.platform.startswith("linux"):  # with a live parent: armed to get SIGKILL when it dies
        code = ("import ctypes, os; from training.evaluate import exit_with_parent; exit_with_parent(os.getppid()); "
                "v = ctypes.c_int(-1); ctypes.CDLL(None).prctl(2, ctypes.byref(v), 0, 0, 0); print(v.value)")
        r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert (r.returncode, r.stdout) == (0, "9\n"), r.stderr


# --- 2. pairs-log numbers are type- and range-checked ---------------------------------

def _edited_log(tmp_path, mode, edit):
    """A real pairs log of 2 pairs in one chunk, its chunk line passed through ``edit``."""
    log = tmp_path / "pairs.jsonl"
    kw = dict(seed=5, chunk=2, mode=mode, pairs_log=log)
    ref = duplicate_match("random", "easy", 2, **kw)
    header, line = log.read_text().splitlines()
    row = json.loads(line)
    edit(row["tally"])
    log.write_text(header + "\n" + json.dumps(row) + "\n")
    return ref, kw


def _set(key, value, index=None):
    def edit(t):
        if index is None:
            t[key] = value
        else:
            t[key][index] = value
    return edit


@pytest.mark.parametrize("mode,edit,match", [
    ("deal", _set("deal_wins", 7.0, 0), r"deal_wins\[0\] is 7.0, allowed: a number in 0..1 "),
    ("deal", _set("deal_wins", -0.25, 1), r"deal_wins\[1\] is -0.25, allowed: a number in 0..1 "),
    ("deal", _set("game_wins", 0.5, 0), r"game_wins\[0\] is 0.5, allowed: 0: a deal-mode match plays no games"),
    ("game", _set("game_wins", 1.5, 1), r"game_wins\[1\] is 1.5, allowed: a number in 0..1 \(the fraction of the "
                                        r"pair's 2 games"),
    ("deal", _set("deals", 5), r"deals is 5, allowed: exactly 4 \(2 deals for each of the 2 pairs"),
    ("game", _set("deals", 3), r"deals is 3, allowed: at least 4"),
    ("deal", _set("deals", 4.0), "tally deals and voids must be counts"),
    ("deal", _set("voids", True), "tally deals and voids must be counts"),
    ("deal", _set("taken", [4, 4]), r"taken is \[4, 4\], allowed: 2 counts summing to deals = 4"),
    ("deal", _set("taken", [2.0, 2]), "tally taken must be 2 counts"),
    ("deal", lambda t: t.update(taken=[4, 0], made=[5, 0]), r"made\[0\] is 5, allowed: 0..4 \(at most the contracts"),
    ("deal", _set("capots", [3, 2]), r"capots is \[3, 2\], allowed: 2 counts summing to at most deals = 4"),
    ("deal", _set("voids", 397), r"voids is 397, allowed: 0..396 \(at most 99 void deals"),
    ("deal", _set("moves", [-1, 3]), "tally moves must be 2 counts"),
    ("deal", _set("time_s", [float("nan"), 0.0]), "tally time_s must be 2 numbers of seconds"),
    ("deal", _set("diffs", [float("inf"), 0.0]), "tally diffs must be 2 numbers, one per pair"),
    ("deal", _set("diffs", [True, 0.0]), "tally diffs must be 2 numbers, one per pair"),
    ("deal", lambda t: t.update(taken=[4, 0], made=[0, 0], coinched=[1, 0], coinched_made=[1, 0]),
     r"coinched\[0\] / surcoinched\[0\] is \(1, 0\), allowed: made under them at most made\[0\] = 0"),
    ("deal", lambda t: t.update(taken=[4, 0], made=[4, 0], coinched=[1, 0], coinched_made=[0, 0]),
     r"failed under them at most taken\[0\] - made\[0\] = 0"),
    ("deal", lambda t: t.update(taken=[4, 0], made=[2, 0], coinched=[1, 0], coinched_made=[2, 0]),
     r"coinched_made\[0\] is 2, allowed: 0..1 \(at most coinched\[0\]\)"),
])
def test_pairs_log_values_out_of_range_are_refused_naming_line_field_and_range(tmp_path, mode, edit, match):
    _, kw = _edited_log(tmp_path, mode, edit)
    with pytest.raises(ValueError, match=rf"pairs log .*pairs.jsonl: line 2 is corrupt \(.*{match}"):
        duplicate_match("random", "easy", 2, **kw)


@pytest.mark.parametrize("mode", ["deal", "game"])
def test_pairs_log_values_at_the_ends_of_their_ranges_are_accepted(tmp_path, mode):
    """A real log reads back as the same match, and an edit keeping every value in range
    (here: A won every deal, made every contract and made a capot in each) is taken as is."""
    def edit(t):
        t["deal_wins"] = [1.0, 0]
        t["taken"], t["made"], t["capots"] = [t["deals"], 0], [t["deals"], 0], [t["deals"], 0]
        if mode == "game":
            t["game_wins"] = [1, 0.0]

    log = tmp_path / "real.jsonl"
    ref = duplicate_match("random", "easy", 2, seed=5, chunk=2, mode=mode, pairs_log=log)
    again = duplicate_match("random", "easy", 2, seed=5, chunk=2, mode=mode, pairs_log=log)
    assert again.to_dict() == ref.to_dict()
    _, kw = _edited_log(tmp_path, mode, edit)
    r = duplicate_match("random", "easy", 2, **kw)
    assert r.deal_win_rate == 0.5 and r.a_taken == r.deals == r.a_made == r.a_capots and r.b_taken == 0
    assert r.game_win_rate == (0.5 if mode == "game" else None)


# --- 3. policy factories: "module.path:attribute" or an importable function ------------

BOTS = '''
import random

from policies.base import with_belote


class Lowest:
    """Its lowest legal action half the time, else a random one (its own seeded rng)."""

    name = "lowest"

    def __init__(self):
        self.rng = random.Random(0)

    def act(self, info):
        legal = info.legal_actions
        return legal[0] if self.rng.random() < 0.5 else legal[self.rng.randrange(len(legal))]


def make():
    return Lowest()


class Holder:
    @staticmethod
    def make():
        return Lowest()


def make_none():
    return None


def make_noname():
    p = Lowest()
    p.name = 7
    return p


def make_needs(rules):
    return Lowest()


not_callable = 3
'''


@pytest.fixture
def bots(tmp_path, monkeypatch):
    """A module ``belote_test_bots`` in a folder on sys.path (worker processes inherit it)."""
    folder = tmp_path / "mods"
    folder.mkdir()
    (folder / "belote_test_bots.py").write_text(BOTS)
    (folder / "belote_test_broken.py").write_text("raise RuntimeError('broken on import')\n")
    monkeypatch.syspath_prepend(str(folder))
    import belote_test_bots

    yield belote_test_bots
    for name in ("belote_test_bots", "belote_test_broken"):
        sys.modules.pop(name, None)


def _same(a, b):
    t = {"a_ms_per_move": 0, "b_ms_per_move": 0}
    return a.to_dict() | t == b.to_dict() | t


def test_a_policy_factory_plays_the_same_match_as_the_object_with_any_number_of_workers(bots):
    ref = duplicate_match(bots.make(), "easy", 4, seed=2)  # the object, one process
    assert ref.a == "lowest" and ref.deals == 8
    assert _same(duplicate_match("belote_test_bots:make", "easy", 4, seed=2), ref)
    assert _same(duplicate_match("belote_test_bots:make", "easy", 4, seed=2, workers=2, chunk=1), ref)
    assert _same(duplicate_match(bots.make, "easy", 4, seed=2, workers=2, chunk=1), ref)  # the function itself
    swapped = duplicate_match("easy", bots.Holder.make, 4, seed=2)
    assert swapped.b == "lowest" and _same(swapped, duplicate_match("easy", bots.make(), 4, seed=2))


def test_a_policy_factory_with_a_pairs_log_resumes(bots, tmp_path):
    log = tmp_path / "p.jsonl"
    first = duplicate_match(bots.make, "easy", 2, seed=2, chunk=1, pairs_log=log)
    assert json.loads(log.read_text().splitlines()[0])["a"] == "belote_test_bots:make"
    assert _same(duplicate_match("belote_test_bots:make", "easy", 2, seed=2, chunk=1, pairs_log=log), first)


@pytest.mark.parametrize("spec,match", [
    ("belote_no_such_module:make", "policy factory 'belote_no_such_module:make': no module named "
                                   "'belote_no_such_module'"),
    ("belote_test_bots.sub:make", "no module named 'belote_test_bots.sub'"),
    ("belote_test_broken:make", "importing module 'belote_test_broken' raised RuntimeError\\('broken on import'\\)"),
    ("belote_test_bots:missing", "'belote_test_bots' .* has no attribute 'missing'"),
    ("belote_test_bots:not_callable", "'belote_test_bots:not_callable' is not callable: it is 3"),
    ("belote_test_bots:make_none", "returned None, not a policy: it has no act\\(info\\) method"),
    ("belote_test_bots:make_noname", "not a policy: its name must be a str, got 7"),
    ("belote_test_bots:make_needs", "raised TypeError.* when called with no arguments"),
    ("belote-test-bots:make", "unknown policy 'belote-test-bots:make': expected one of random, .*, <policy>\\+search, "
                              "a team <lead>,<partner>, a model folder path or a policy factory module.path:attribute \\(a policy factory is "
                              "named 'module.path:attribute'\\)"),
])
def test_bad_policy_factories_raise_clear_errors(bots, spec, match):
    with pytest.raises(ValueError, match=match):
        duplicate_match(spec, "random", 1)


def test_a_factory_object_must_be_importable_by_name(bots):
    with pytest.raises(ValueError, match="is not importable by name .*top level of a module"):
        duplicate_match(lambda: bots.make(), "random", 2, workers=2)

    def local():
        return bots.make()

    with pytest.raises(ValueError, match="is not importable by name"):
        duplicate_match(local, "random", 2, workers=2)


def test_cli_eval_and_ladder_take_a_policy_factory(bots, tmp_path, capsys):
    from training.cli import main

    ref = duplicate_match(bots.make(), "easy", 4, seed=2)
    out = tmp_path / "r.json"
    assert main(["eval", "belote_test_bots:make", "easy", "--pairs", "4", "--seed", "2", "--workers", "2",
                 "--chunk", "1", "--no-progress", "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    want = json.loads(json.dumps(ref.to_dict()))
    assert got | {"a_ms_per_move": 0, "b_ms_per_move": 0} == want | {"a_ms_per_move": 0, "b_ms_per_move": 0}
    lad = tmp_path / "l.json"
    assert main(["ladder", "random", "belote_test_bots:make", "--pairs", "2", "--no-progress",
                 "--json", str(lad)]) == 0
    assert set(json.loads(lad.read_text())["ratings"]) == {"random", "belote_test_bots:make"}
    capsys.readouterr()
    assert main(["eval", "belote_test_bots:missing", "random", "--pairs", "1", "--no-progress"]) == 2
    assert "has no attribute 'missing'" in capsys.readouterr().err


def test_belote_eval_finds_a_factory_module_in_the_current_folder(bots, tmp_path):
    """The ``belote`` command imports a factory's module from the current folder too (not
    only from PYTHONPATH), in every worker process."""
    cwd = Path(bots.__file__).parent
    belote = Path(sys.executable).with_name("belote")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = tmp_path / "r.json"
    r = subprocess.run([str(belote), "eval", "belote_test_bots:make", "easy", "--pairs", "4", "--seed", "2",
                        "--workers", "2", "--chunk", "1", "--no-progress", "--json", str(out)],
                       cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    ref = duplicate_match(bots.make(), "easy", 4, seed=2)
    assert json.loads(out.read_text())["mean_diff"] == ref.mean_diff
    r = subprocess.run([str(belote), "eval", "belote_test_bots:make", "easy", "--pairs", "1", "--no-progress"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "no module named 'belote_test_bots'" in r.stderr


# --- 4. belote export of an SB3 / sb3-contrib .zip (the README's MaskablePPO snippet) ---

def _sb3_probs_match(model, folder, steps=24, seed=1, **env_kw):
    """The exported policy's action probabilities (and value) equal the SB3 model's at the
    learner's decisions of a few seeded episodes; returns the decisions compared."""
    import gymnasium
    import numpy as np
    import torch as th

    import belote_env  # noqa: F401  (registers Belote-v0)
    from policies import make_policy
    from policies.network import load_model

    pol = make_policy(str(folder))
    net, _ = load_model(folder)
    env = gymnasium.make("Belote-v0", opponents="random", **env_kw)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = 0
    while n < steps:
        seat_info = env.unwrapped.game.information_set(info["seat"])
        mask = env.unwrapped.action_masks()
        with th.no_grad():
            o = th.as_tensor(obs).unsqueeze(0)
            want = model.policy.get_distribution(o, action_masks=mask[None]).distribution.probs[0].numpy()
            want_v = model.policy.predict_values(o)[0, 0].item()
            got_v = net(o)[1][0].item()
        got = pol.action_probabilities(seat_info)
        legal = list(seat_info.legal_actions)
        assert legal == list(np.flatnonzero(mask))
        np.testing.assert_allclose([got[a] for a in legal], want[legal], atol=1e-5, rtol=0)
        assert abs(got_v - want_v) < 1e-5
        n += 1
        obs, _, term, trunc, info = env.step(int(rng.choice(legal)))
        if term or trunc:
            obs, info = env.reset(seed=seed + n)
    return n


@pytest.fixture(scope="module")
def readme_zip(tmp_path_factory):
    """The README's snippet (``gymnasium.make("Belote-v0", opponents="normal")`` +
    ``MaskablePPO("MlpPolicy", env).learn(...)``), with a tiny rollout so it trains in seconds."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    import belote_env  # noqa: F401

    env = gymnasium.make("Belote-v0", opponents="normal")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    model.learn(64)
    path = tmp_path_factory.mktemp("sb3") / "model.zip"
    model.save(path)
    return model, path


def test_the_readme_maskableppo_model_exports_and_plays_the_tiers(readme_zip, tmp_path, capsys):
    from training.cli import main

    model, path = readme_zip
    out = tmp_path / "exported"
    assert main(["export", str(path), str(out)]) == 0
    assert capsys.readouterr().out.endswith(f"-> {out} (model.safetensors + meta.json)\n")  # the files written
    assert main(["export", "policies/models/hard", str(out / "hard")]) == 0
    assert capsys.readouterr().out.endswith(f"(model.safetensors + meta.json, bids/: its own two, cards/: its own "
                                            f"two)\n")
    assert main(["export", str(path), str(out / "hard")]) == 0  # over a model with value networks: they go
    assert not (out / "hard" / "cards").exists() and not (out / "hard" / "bids").exists()
    assert json.loads((out / "hard" / "meta.json").read_text())["parts"] == []
    from policies import make_policy
    assert make_policy(str(out / "hard")).card_net is None
    meta = json.loads((out / "meta.json").read_text())
    assert meta["net"] == {"obs_size": 618, "n_actions": 112, "pi": [64, 64], "vf": [64, 64], "activation": "tanh"}
    assert meta["sb3"]["policy_class"] == "sb3_contrib.common.maskable.policies.MaskableActorCriticPolicy"
    assert meta["sb3"]["num_timesteps"] == 64
    res = tmp_path / "r.json"
    assert main(["eval", str(out), "random", "--deals", "2", "--no-progress", "--json", str(res)]) == 0
    assert json.loads(res.read_text())["deals"] == 2
    assert _sb3_probs_match(model, out) == 24


def test_an_sb3_model_with_relu_and_other_layer_sizes_exports_exactly(tmp_path):
    import gymnasium
    import torch as th
    from sb3_contrib import MaskablePPO

    import belote_env  # noqa: F401
    from training.export import export_model

    env = gymnasium.make("Belote-v0", opponents="random")
    model = MaskablePPO("MlpPolicy", env, seed=3, policy_kwargs={"activation_fn": th.nn.ReLU,
                                                                 "net_arch": {"pi": [32, 16], "vf": [8]}})
    model.save(tmp_path / "m.zip")
    out = export_model(tmp_path / "m.zip", tmp_path / "out")
    assert json.loads((out / "meta.json").read_text())["net"] == {
        "obs_size": 618, "n_actions": 112, "pi": [32, 16], "vf": [8], "activation": "relu"}
    assert _sb3_probs_match(model, out, steps=12, seed=5) == 12



@pytest.mark.parametrize("rules, mode", [("coinche", "coinche"), ("seed001_2p", "two"), ("seed001_3p", "three")])
def test_an_sb3_model_of_coinche_or_two_or_three_seats_exports_as_a_model_of_its_game(tmp_path, capsys, rules, mode):
    import gymnasium
    from sb3_contrib import MaskablePPO

    import belote_env  # noqa: F401
    from policies.model_files import CONTRACT_MODE_OBS_SIZE, MODE_N_ACTIONS
    from training.cli import main

    model = MaskablePPO("MlpPolicy", gymnasium.make("Belote-v0", opponents="random", rules=rules), seed=4)
    model.save(tmp_path / "m.zip")
    out = tmp_path / "out"
    assert main(["export", str(tmp_path / "m.zip"), str(out)]) == 0
    meta = json.loads((out / "meta.json").read_text())
    assert meta["contract_mode"] == mode and meta["net"]["obs_size"] == CONTRACT_MODE_OBS_SIZE[mode]
    assert meta["net"]["n_actions"] == MODE_N_ACTIONS[mode]
    assert _sb3_probs_match(model, out, steps=12, seed=6, rules=rules) == 12
    capsys.readouterr()
    assert main(["eval", str(out), "random", "--deals", "2", "--no-progress"]) == 2  # the classic game: refused
    assert "cannot play classic rules" in capsys.readouterr().err


def _rezip(src, dst, **replace):
    import zipfile

    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for name in zin.namelist():
            if replace.get(name, b"") is not None:
                zout.writestr(name, replace.get(name) or zin.read(name))
    return dst


def _edit_data(src, dst, edit):
    import zipfile

    with zipfile.ZipFile(src) as z:
        data = json.loads(z.read("data"))
    edit(data)
    return _rezip(src, dst, data=json.dumps(data).encode())


def _state_dict_bytes(sd):
    import io

    import torch as th

    buf = io.BytesIO()
    th.save(sd, buf)
    return buf.getvalue()


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch pwned_by_policy_pth",))


def test_sb3_zips_of_another_shape_or_architecture_are_refused(readme_zip, tmp_path, monkeypatch):
    import base64
    import pickle
    import zipfile

    import gymnasium
    import torch as th
    from sb3_contrib import MaskablePPO

    from policies.network import CheckpointError
    from training.export import export_model

    monkeypatch.chdir(tmp_path)
    _, good = readme_zip
    with zipfile.ZipFile(good) as z:
        sd = th.load(__import__("io").BytesIO(z.read("policy.pth")), weights_only=True)
    hist = MaskablePPO("MlpPolicy", gymnasium.make("Belote-v0", obs_mode="history"), n_steps=64)
    hist.save(tmp_path / "hist.zip")
    elu = MaskablePPO("MlpPolicy", gymnasium.make("Belote-v0"), policy_kwargs={"activation_fn": th.nn.ELU})
    elu.save(tmp_path / "elu.zip")
    (tmp_path / "junk.zip").write_bytes(b"not a zip")
    cases = [
        (tmp_path / "hist.zip", r"observation space <class 'gymnasium.spaces.box.Box'> of shape \[65, 2\] \(int16\); "
                                r"the export needs a float32 Box of one game's shape, \[618\] \(classic\), "
                                r"\[1141\] \(coinche\), \[716\] \(two\), \[902\] \(three\): the env's "
                                r"obs_mode=\"infoset\""),
        (tmp_path / "elu.zip", "unknown architecture: activation_fn <class 'torch.nn.modules.activation.ELU'>; the "
                               "export knows torch.nn.modules.activation.ReLU, torch.nn.modules.activation.Tanh"),
        (tmp_path / "junk.zip", "not a readable .zip"),
        (_rezip(good, tmp_path / "nopth.zip", **{"policy.pth": None}), "not an SB3 model .zip: it lacks policy.pth"),
        (_edit_data(good, tmp_path / "act.zip", lambda d: d["action_space"].update(n="50")),
         r"action space <class 'gymnasium.spaces.discrete.Discrete'> with n=50; the export needs Discrete\(112\)"),
        (_edit_data(good, tmp_path / "cls.zip", lambda d: d["policy_class"].update(
            {":serialized:": base64.b64encode(pickle.dumps(zipfile.ZipFile)).decode()})),
         "unknown architecture: policy class zipfile.ZipFile; the export reads"),
        (_edit_data(good, tmp_path / "arch.zip", lambda d: d.update(policy_kwargs={"net_arch": [64]})),
         r"net_arch \[64\] does not match the tensors \(pi \[64, 64\], vf \[64, 64\]\)"),
        (_edit_data(good, tmp_path / "kw.zip", lambda d: d.update(policy_kwargs={"squash_output": True})),
         r"unknown architecture: policy_kwargs \['squash_output'\]"),
        (_rezip(good, tmp_path / "extra.zip", **{"policy.pth": _state_dict_bytes(
            sd | {"features_extractor.linear.weight": th.zeros(4, 618)})}),
         r"unknown architecture: tensors \['features_extractor.linear.weight'\]"),
        (_rezip(good, tmp_path / "gap.zip", **{"policy.pth": _state_dict_bytes(
            {k: v for k, v in sd.items() if not k.startswith("mlp_extractor.policy_net.0")})}),
         r"mlp_extractor.policy_net has layers \[2\], expected Linear layers at 0, 2, 4"),
        (_rezip(good, tmp_path / "evil.zip", **{"policy.pth": _state_dict_bytes({"x": _Evil()})}),
         "policy.pth is not a tensor state_dict"),
    ]
    for path, match in cases:
        with pytest.raises(CheckpointError, match=rf"{path.name}: .*{match}"):
            export_model(path, tmp_path / "out")
    assert not (tmp_path / "pwned_by_policy_pth").exists() and not (tmp_path / "out").exists()


def test_ctrl_c_ends_a_command_with_one_line_and_a_resume_hint(monkeypatch, capsys):
    """Ctrl-C (KeyboardInterrupt) in a command: exit status 130 and one line naming the
    command and how it continues, no traceback."""
    import training.cli as cli

    def interrupted(args):
        raise KeyboardInterrupt

    for command, argv, hint in (("train", ["train", "--config", "configs/train/quick.yaml"], "belote train --resume"),
                                ("eval", ["eval", "easy", "random"], "--pairs-log")):
        monkeypatch.setattr(cli, f"_cmd_{command}", interrupted)
        assert cli.main(argv) == 130
        err = capsys.readouterr().err
        assert err.startswith(f"belote {command}: interrupted; ") and hint in err and "Traceback" not in err


# --- 5. a pairs log has one writer: a second match is refused, a read is not ---------

def test_a_pairs_log_being_written_is_refused_to_a_second_match_and_read_beside_it(tmp_path):
    """Two matches appending to one log would each rewrite it and orphan the other's chunks
    (the rewrite replaces the file): a match that has pairs to play takes the log's lock,
    and a read of a log whose pairs are all played neither locks nor rewrites it."""
    import fcntl

    log = tmp_path / "pairs.jsonl"
    first = duplicate_match("random", "random", 3, seed=5, pairs_log=log, chunk=1)
    written, inode = log.read_bytes(), log.stat().st_ino
    with open(f"{log}.lock", "a") as held:  # another match holding the log
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        again = duplicate_match("random", "random", 3, seed=5, pairs_log=log, chunk=1)  # all played: read only
        assert (again.mean_diff, again.pairs) == (first.mean_diff, 3)
        assert log.read_bytes() == written and log.stat().st_ino == inode  # not rewritten
        with pytest.raises(RuntimeError, match=r"pairs log .*pairs\.jsonl is being written by another match"):
            duplicate_match("random", "random", 4, seed=5, pairs_log=log, chunk=1)
        assert log.read_bytes() == written
    more = duplicate_match("random", "random", 4, seed=5, pairs_log=log, chunk=1)  # the lock released: resumes
    assert more.pairs == 4 and len(log.read_text().splitlines()) == 1 + 4
    assert log.read_text().startswith(written.decode())
