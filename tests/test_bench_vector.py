"""scripts/bench_vector.py: early progress lines, the missing OpenSpiel anchor said aloud, and
the exit status of a missed aim (1, or 0 with --report-only). Tiny sizes: a few seconds."""

import importlib.util
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("numba")

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_vector.py"
TINY = ["--seconds", "0.02", "--repeats", "1", "--batch", "8"]


@pytest.fixture
def bench(monkeypatch):
    """The script as a module, with no CPU pinning of the test process and no OpenSpiel
    (as where open_spiel is not installed); the thread variables it sets are restored."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS"):
        monkeypatch.delenv(var, raising=False)  # restored after the test, whatever the import sets
    spec = importlib.util.spec_from_file_location("bench_vector_under_test", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    monkeypatch.setattr(mod, "pin_one_core", lambda cpu=None: None)
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel raises ImportError
    return mod


def _easy_aims(monkeypatch, mod):
    monkeypatch.setattr(mod, "AIM_ENGINE", 1)
    monkeypatch.setattr(mod, "AIM_OBSERVATIONS", 1)
    monkeypatch.setattr(mod, "AIM_VARIANT_SLOWDOWN", 1000.0)


def test_missed_aim_exits_1_and_says_by_how_much(bench, monkeypatch, capsys):
    _easy_aims(monkeypatch, bench)
    monkeypatch.setattr(bench, "AIM_ENGINE", 10**15)  # an absolute aim out of reach
    monkeypatch.setattr(bench, "AIM_VARIANT_SLOWDOWN", 0.01)  # a ratio aim out of reach, kept a ratio
    assert bench.main(TINY + ["--no-small"]) == 1
    out = capsys.readouterr().out
    assert "aim: batched engine >= 1000000000000000 decisions/s per core: NOT met" in out
    assert "MISSED: batched engine >= 1000000000000000 decisions/s per core: measured " in out and "% short)" in out
    assert "(aim: coinche within 0.01x of classic: NOT met)" in out
    assert "MISSED: batched engine classic / coinche <= 0.01x per decision: measured " in out
    assert "% over)" in out
    assert out.rstrip().splitlines()[-1] == "2 aims missed: exit status 1 (--report-only to exit 0)"
    # everything is printed before the verdict: the figures come first
    assert out.index("batched observations: ") < out.index("MISSED:")


def test_report_only_prints_the_same_and_exits_0(bench, monkeypatch, capsys):
    _easy_aims(monkeypatch, bench)
    monkeypatch.setattr(bench, "AIM_VARIANT_SLOWDOWN", 0.01)
    assert bench.main(TINY + ["--no-small", "--report-only"]) == 0
    out = capsys.readouterr().out
    assert "MISSED: batched engine classic / coinche <= 0.01x per decision" in out
    assert out.rstrip().splitlines()[-1] == "1 aim missed (--report-only: exit status 0)"


def test_met_aims_exit_0_and_missing_openspiel_is_said_not_failed(bench, monkeypatch, capsys):
    _easy_aims(monkeypatch, bench)
    monkeypatch.setattr(bench, "AIM_VS_OPENSPIEL", 10**9)  # would be missed, were it checked
    assert bench.main(TINY) == 0
    out = capsys.readouterr().out
    assert 'openspiel hearts: not measured (open_spiel is not installed: pip install -e ".[bench]"' in out
    assert "batched engine / openspiel hearts: not measured" in out and "not checked" in out
    assert "MISSED" not in out
    assert out.rstrip().splitlines()[-1] == "every aim checked was met (1 not checked)"
    for p in (2, 3):
        assert f"(aim: {p}p within 1000x of classic: met)" in out


def test_bench_extra_holds_open_spiel():
    import tomllib

    extras = tomllib.loads((SCRIPT.parents[1] / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.replace(" ", "").startswith("open_spiel") for req in extras["bench"])


def test_says_what_it_does_before_the_slow_part():
    """The first lines reach a pipe (flushed) while the compilation is still under way: the
    warm-up is held here until the test has read them."""
    code = ("import importlib.util, sys; sys.modules['pyspiel'] = None; "
            f"spec = importlib.util.spec_from_file_location('b', {str(SCRIPT)!r}); "
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
            "m.warm_up = lambda small: (sys.stdin.readline(), 0.0)[1]; "
            f"sys.exit(m.main({TINY + ['--no-small', '--report-only']!r}))")
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True)
    reader.start()
    seen = []
    try:
        while not any(x.startswith("compiling the batched engines") for x in seen):
            seen.append(lines.get(timeout=30))  # queue.Empty: nothing arrived while the script waits
        assert proc.poll() is None
        assert any(x.startswith("measuring 4 figures x 1 interleaved runs") for x in seen)
        proc.stdin.write("\n")
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=10)
    while not lines.empty():
        seen.append(lines.get())
    progress = [x for x in seen if x.startswith("  run 1/1 ")]
    assert len(progress) == 4 and progress[-1].rstrip().endswith("[4/4]")
    assert seen.index(progress[-1]) < seen.index(next(x for x in seen if x.startswith("batched engine: ")))


def test_against_another_tree_measures_both_alike_and_misses_below_the_ratio(bench, monkeypatch, capsys):
    _easy_aims(monkeypatch, bench)
    here = str(SCRIPT.parents[1])
    calls = []

    def fake_run(tree, label, seconds, seed, batch, cpu):  # the child processes, without the children
        calls.append((tree, label))
        return {"decisions_per_s": 100.0 if tree == here else 125.0}

    monkeypatch.setattr(bench, "against_run", fake_run)
    assert bench.main(TINY + ["--no-small", "--against", here]) == 0  # this tree against itself: level
    out = capsys.readouterr().out
    assert {t for t, _ in calls} == {here} and f"batched engine / {here}: 1.000" in out
    monkeypatch.setattr(bench, "against_run", lambda tree, label, *a: {"decisions_per_s": 100.0 if tree == here
                                                                        else 125.0})
    other = str(SCRIPT.parents[1] / "belote_env" / "..")  # the same tree by another path: the "against" side
    assert bench.main(TINY + ["--no-small", "--against", other]) == 1
    out = capsys.readouterr().out
    assert f"batched engine / {other}: 0.800" in out
    assert f"MISSED: batched engine at 0.800 of {other}'s (aim >= 0.97; by 0.170)" in out
    assert bench.main(TINY + ["--no-small", "--against", other, "--min-ratio", "0.75"]) == 0
    with pytest.raises(SystemExit):
        bench.main(TINY + ["--against", str(SCRIPT.parent)])  # not a source tree of the project
