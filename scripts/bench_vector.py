"""Benchmark random legal play per core against an outside anchor: OpenSpiel's C++ Hearts.

    python scripts/bench_vector.py [--seconds 3] [--repeats 3] [--seed 0] [--batch 4096] [--cpu N]
                                   [--no-small] [--verbose] [--report-only] [--against TREE [--min-ratio 0.97]]

What it measures (decisions per second: moves made by a player, with random legal play):

* ``openspiel hearts``, the anchor: OpenSpiel's C++ ``hearts`` game
  (``pyspiel.load_game("hearts")``, default parameters: one deal, three cards passed),
  whole games back to back, driven from Python. Chance nodes are played too (the pass
  direction, then the deal one card at a time): each chance move is drawn from
  ``state.chance_outcomes()`` with its probability by a ``random.Random`` seeded by
  ``--seed``. Their cost is in the time but only player moves count as decisions (about 61
  decisions and 53 chance moves a game). The loop is as lean as the API allows
  (``current_player``, ``legal_actions``, ``apply_action``, ``chance_outcomes``), so every
  move pays pybind11's crossing between Python and C++, as any Python user of OpenSpiel
  pays it: the figure is C++ rules as seen from Python, not C++ alone.
* ``reference engine``: our pure-Python engine, ``belote_env.GameState(Rules(),
  single_deal=True)``, whole deals back to back (``legal_actions()``, ``apply(a)``;
  ``next_deal()`` after a void deal, a new ``GameState`` once the deal is played).
* ``batched engine`` and ``batched observations``: hooks for the vectorised engine
  (``belote_env.vector.engine``), see ``batched_engine`` and ``batched_observations``;
  ``batched engine (coinche)`` is the same engine under the ``coinche`` preset
  (COINCHE.md: auctions of bids, coinche and surcoinche, then the 32 cards), measured in
  the same run, interleaved with the others, and its ratio to the classic figure per
  decision is printed (aim: coinche within 1.5x of classic);
  ``batched engine (2p)`` and ``batched engine (3p)`` are the same engine at two and three
  seats (``BatchedGame(n, rules)``, TWO_THREE.md) under the ``seed001_2p`` /
  ``seed001_3p`` presets, measured the same way in the same run, with their ratios to the
  four-player classic figure per decision (aim: within 1.5x; ``--no-small`` skips them);
  skipped with a note while that module cannot be imported.

``--against TREE`` (another checkout of this project, e.g. ``git worktree add ../prev
HEAD~1``: "speed not lost" against the previous commit): the four batched-engine figures
are measured again, in this tree and in ``TREE``, each run in a child process that imports
its own tree first and calls that tree's own hook, the two trees alternated run by run;
their ratio per table is printed (``batched engine / TREE: 1.020``) and is an aim: at least
``--min-ratio`` (0.97 by default: the noise of runs on a shared machine).

The machine may be shared, so each figure is the median of ``--repeats`` runs of about
``--seconds`` each, interleaved (anchor, ours, anchor, ours, ...) so that a busy spell
hits every figure alike. The figures are per core: the process is pinned to one CPU
(``os.sched_setaffinity``, where the platform has it) and numba, torch and the BLAS/OpenMP
pools are limited to one thread. Each figure is printed as one plain line, e.g.
``openspiel hearts: 512345 decisions/s`` and ``reference engine: 40123 decisions/s``.

Needs ``open_spiel`` for the anchor: ``pip install -e ".[bench]"`` (or
``pip install open_spiel``). Without it the anchor and its ratio are printed as not
measured, and the aim against it as not checked.

Output, in order: what it is about to do and how long that should take; the compilation of
the batched engines (numba; cached after the first time); one progress line per timed run
(``  run 1/3 batched engine: ...``); the medians, one plain line per figure; the aims.

Exit status: 0 when every aim it checks is met; 1 when one is missed (after everything is
printed, ending with a ``MISSED`` line per aim saying by how much); ``--report-only`` prints
the same and exits 0. An aim against the OpenSpiel anchor is not checked (and cannot fail)
when the anchor was not measured.
"""

from __future__ import annotations

import os

# One thread per pool, set before numpy / numba / torch are imported (per-core figures).
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import random
import statistics
import sys
import time

from belote_env import GameState, Rules
from belote_env.game import Phase
from belote_env.table import eldest_of


# ---------------------------------------------------------------------------- setup
def pin_one_core(cpu: int | None = None) -> int | None:
    """Pin this process to one CPU (``cpu``, else the last one it may run on) and limit
    numba and torch (when already imported) to one thread. Returns the CPU, or None where
    ``os.sched_setaffinity`` is missing or refused."""
    chosen = None
    if hasattr(os, "sched_setaffinity"):
        allowed = sorted(os.sched_getaffinity(0))
        chosen = cpu if cpu is not None else allowed[-1]
        try:
            os.sched_setaffinity(0, {chosen})
        except OSError as exc:
            print(f"note: could not pin to CPU {chosen} ({exc}); figures are not per core", file=sys.stderr)
            chosen = None
    limit_threads()
    return chosen


def limit_threads() -> None:
    """One thread for numba and torch, if this process has imported them."""
    if "numba" in sys.modules:
        sys.modules["numba"].set_num_threads(1)
    if "torch" in sys.modules:
        torch = sys.modules["torch"]
        torch.set_num_threads(1)
        try:
            torch.set_num_interop_threads(1)
        except RuntimeError:  # only settable before the first parallel work
            pass


# ---------------------------------------------------------------------------- anchor
def openspiel_hearts(seconds: float, seed: int) -> dict:
    """Random legal play of OpenSpiel's C++ ``hearts``, chance nodes included, for about
    ``seconds`` (whole games). Returns ``decisions_per_s``, ``decisions`` (player moves),
    ``chance_moves``, ``games`` and ``seconds`` (measured)."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    rand, randrange = rng.random, rng.randrange
    chance = int(pyspiel.PlayerId.CHANCE)
    new_state = game.new_initial_state
    clock = time.perf_counter
    decisions = chance_moves = games = 0
    t0 = clock()
    deadline = t0 + seconds
    while True:
        state = new_state()
        current_player, legal_actions, apply_action = state.current_player, state.legal_actions, state.apply_action
        chance_outcomes = state.chance_outcomes
        while True:
            p = current_player()
            if p >= 0:
                legal = legal_actions()
                apply_action(legal[randrange(len(legal))])
                decisions += 1
            elif p == chance:
                r = rand()
                for a, prob in chance_outcomes():  # draw an outcome with its probability
                    r -= prob
                    if r < 0.0:
                        break
                apply_action(a)  # the last outcome if rounding left r >= 0
                chance_moves += 1
            else:  # terminal (hearts has no simultaneous nodes)
                break
        games += 1
        now = clock()
        if now >= deadline:
            break
    dt = now - t0
    return {"decisions_per_s": decisions / dt, "decisions": decisions, "chance_moves": chance_moves,
            "games": games, "seconds": dt}


# ---------------------------------------------------------------------------- ours, pure Python
def reference_engine(seconds: float, seed: int) -> dict:
    """Random legal play of ``belote_env.GameState`` (default rules, one deal a game) for
    about ``seconds`` (whole deals; a void deal is redealt and its bids counted). Returns
    ``decisions_per_s``, ``decisions``, ``deals`` (played), ``void_deals`` and ``seconds``."""
    rules = Rules()
    rng = random.Random(seed)
    randrange = rng.randrange
    clock = time.perf_counter
    decisions = deals = void_deals = 0
    t0 = clock()
    deadline = t0 + seconds
    play = Phase.PLAY
    st = GameState(rules, seed=seed + 1, single_deal=True)
    while True:
        legal_actions, apply = st.legal_actions, st.apply
        while st.phase <= play:  # not is_deal_over
            legal = legal_actions()
            apply(legal[randrange(len(legal))])
            decisions += 1
        if st.is_game_over:  # a played deal ends a single-deal game
            deals += 1
            now = clock()
            if now >= deadline:
                break
            st = GameState(rules, rng=st.rng, dealer=eldest_of(st.dealer), single_deal=True)
        else:  # void deal (eight passes): DEAL_OVER, redeal
            void_deals += 1
            st.next_deal()
    dt = now - t0
    return {"decisions_per_s": decisions / dt, "decisions": decisions, "deals": deals,
            "void_deals": void_deals, "seconds": dt}


# ---------------------------------------------------------------------------- hooks (lead engineer)
def batched_engine(seconds: float, seed: int, batch: int, rules: str | None = None) -> dict:
    """Random legal play of ``batch`` tables at once in ``belote_env.vector.BatchedGame``
    (one core) under ``rules`` (a preset name; default ``Rules()``): each step draws one
    uniformly random legal action per table from the tables' own streams (in compiled
    code, from the action masks) and applies the batch. Returns ``decisions_per_s``
    (decisions summed over the batch per second) and the deals finished."""
    import numpy as np
    from belote_env.config import load_rules
    from belote_env.vector.engine import BatchedGame

    g = BatchedGame(batch, load_rules(rules), seed=seed)
    a = np.empty(batch, dtype=np.int64)
    g.step(g.random_actions(a))  # compiled already (numba cache); one warm step
    steps = deals = 0
    t0 = time.perf_counter()
    while (dt := time.perf_counter() - t0) < seconds:
        for _ in range(10):
            g.random_actions(a)
            g.step(a)
            deals += int(g.done.sum())
        steps += 10
    return {"decisions_per_s": steps * batch / dt, "deals": deals, "seconds": dt}


def batched_per_seat_engine(seconds: float, seed: int, batch: int, rules: str) -> dict:
    """``batched_engine`` for the two- and three-player games: random legal play of
    ``batch`` tables in ``belote_env.vector.engine.BatchedGame`` under the preset
    ``rules`` (``seed001_2p`` / ``seed001_3p``); every decision counts (bids, answers to
    proposals, exchanges, cards). Returns ``decisions_per_s`` and the deals finished."""
    import numpy as np
    from belote_env.config import load_rules
    from belote_env.vector.engine import BatchedGame

    g = BatchedGame(batch, load_rules(rules), seed=seed)
    a = np.empty(batch, dtype=np.int64)
    g.step(g.random_actions(a))  # compiled already (numba cache); one warm step
    steps = deals = 0
    t0 = time.perf_counter()
    while (dt := time.perf_counter() - t0) < seconds:
        for _ in range(10):
            g.random_actions(a)
            g.step(a)
            deals += int(g.done.sum())
        steps += 10
    return {"decisions_per_s": steps * batch / dt, "deals": deals, "seconds": dt}


def batched_observations(seconds: float, seed: int, batch: int) -> dict:
    """The acting seat's observation of every table (``belote_env.vector.encode_batch``,
    618 float32 each, into one preallocated ``(batch, 618)`` array), at positions of random
    play: the game is stepped between encodings, and only the encoding is timed.
    Returns ``observations_per_s``."""
    import numpy as np
    from belote_env.observation import OBS_SIZE
    from belote_env.vector.engine import BatchedGame
    from belote_env.vector.observation import encode_batch

    g = BatchedGame(batch, seed=seed)
    a = np.empty(batch, dtype=np.int64)
    out = np.empty((batch, OBS_SIZE), dtype=np.float32)
    encode_batch(g, out=out)
    count, spent = 0, 0.0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g.random_actions(a)
        g.step(a)
        t = time.perf_counter()
        encode_batch(g, out=out)
        spent += time.perf_counter() - t
        count += batch
    return {"observations_per_s": count / spent, "seconds": spent}


def vector_engine_available() -> bool:
    """True if ``belote_env.vector.engine`` imports. Only a missing module counts as absent:
    an error raised inside an existing module propagates."""
    try:
        import belote_env.vector.engine  # noqa: F401
    except ModuleNotFoundError as exc:
        if exc.name in ("belote_env.vector", "belote_env.vector.engine"):
            return False
        raise
    return True


# ---------------------------------------------------------------------------- warm-up
def warm_up(small: bool) -> float:
    """Compile (or load from numba's cache) every batched kernel the figures use, on tiny
    batches, before anything is timed. Returns the seconds it took."""
    import numpy as np
    from belote_env.config import load_rules
    from belote_env.vector.engine import BatchedGame
    from belote_env.vector.observation import encode_batch

    t0 = time.perf_counter()
    a = np.empty(8, dtype=np.int64)
    for rules in (None, "coinche"):
        g = BatchedGame(8, load_rules(rules), seed=0)
        g.step(g.random_actions(a))
    encode_batch(BatchedGame(8, seed=0))
    if small:
        for p in (2, 3):
            g = BatchedGame(8, load_rules(f"seed001_{p}p"), seed=0)
            g.step(g.random_actions(a))
    return time.perf_counter() - t0


# ---------------------------------------------------------------------------- aims
# The aims of issue #21 (COINCHE.md, TWO_THREE.md for the variants). Module constants so
# that a test can set one out of reach.
AIM_ENGINE = 1_000_000  # batched engine, decisions/s per core
AIM_OBSERVATIONS = 300_000  # batched observations, observations/s per core
AIM_VS_OPENSPIEL = 4.0  # batched engine / openspiel hearts, per decision, at least
AIM_VARIANT_SLOWDOWN = 1.5  # batched engine classic / a variant, per decision, at most

OPENSPIEL_HOW = 'pip install -e ".[bench]" or pip install open_spiel'


def _num(x: float) -> str:
    """A figure as the lines print it: whole above 1000 (rates), 3 digits below (ratios)."""
    return f"{x:.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def check_aims(med: dict[str, float], have_openspiel: bool, small: bool) -> tuple[list[str], list[str]]:
    """Print the aims next to the figures of ``med`` (medians by label). Returns
    ``(missed, not_checked)``: one line per aim missed (saying by how much) and the names
    of the aims that could not be checked."""
    missed: list[str] = []
    not_checked: list[str] = []

    def at_least(what: str, value: float, aim: float, unit: str) -> str:
        if value >= aim:
            return "met"
        missed.append(f"MISSED: {what} >= {_num(aim)}{unit}: measured {_num(value)}{unit}, "
                      f"{value / aim:.2f} of the aim ({100 * (1 - value / aim):.0f}% short)")
        return "NOT met"

    def at_most(what: str, value: float, aim: float, unit: str) -> str:
        if value <= aim:
            return "met"
        missed.append(f"MISSED: {what} <= {_num(aim)}{unit}: measured {_num(value)}{unit}, "
                      f"{value - aim:.3g}{unit} over ({100 * (value / aim - 1):.0f}% over)")
        return "NOT met"

    eng, obs = med["batched engine"], med["batched observations"]
    print(f"aim: batched engine >= {AIM_ENGINE} decisions/s per core: "
          f"{at_least('batched engine', eng, AIM_ENGINE, ' decisions/s per core')}")
    print(f"aim: batched observations >= {AIM_OBSERVATIONS} observations/s per core: "
          f"{at_least('batched observations', obs, AIM_OBSERVATIONS, ' observations/s per core')}")
    if have_openspiel:
        ratio = eng / med["openspiel hearts"]
        print(f"batched engine / openspiel hearts: {ratio:.1f}x per decision (aim >= {AIM_VS_OPENSPIEL:g}x: "
              f"{at_least('batched engine / openspiel hearts', ratio, AIM_VS_OPENSPIEL, 'x per decision')})")
    else:
        print(f"batched engine / openspiel hearts: not measured (no OpenSpiel anchor in this run; "
              f"aim >= {AIM_VS_OPENSPIEL:g}x: not checked)")
        not_checked.append(f"batched engine / openspiel hearts >= {AIM_VS_OPENSPIEL:g}x")
    print(f"batched engine / reference engine: {eng / med['reference engine']:.1f}x")
    variants = [("coinche", "batched engine (coinche)")]
    if small:
        variants += [(f"{p}p", f"batched engine ({p}p)") for p in (2, 3)]
    for name, label in variants:
        slower = eng / med[label]
        verdict = at_most(f"batched engine classic / {name}", slower, AIM_VARIANT_SLOWDOWN, "x per decision")
        print(f"batched engine classic / {name}: {slower:.2f}x per decision "
              f"(aim: {name} within {AIM_VARIANT_SLOWDOWN:g}x of classic: {verdict})")
    return missed, not_checked


# ---------------------------------------------------------------------------- another tree
#: ``--against``: the batched figures measured in the other tree too, by its own hooks
_AGAINST = {"batched engine": ("batched_engine", None), "batched engine (coinche)": ("batched_engine", "coinche"),
            "batched engine (2p)": ("batched_per_seat_engine", "seed001_2p"),
            "batched engine (3p)": ("batched_per_seat_engine", "seed001_3p")}


def against_run(tree: str, label: str, seconds: float, seed: int, batch: int, cpu: int | None) -> dict:
    """``label``'s batched figure measured by the source tree ``tree`` (another checkout of
    this project): its own ``scripts/bench_vector.py`` hook, in a child process that
    imports that tree's ``belote_env`` first, pinned to ``cpu``. Raises ``RuntimeError``
    with the child's error output if it fails."""
    import json
    import subprocess

    hook, preset = _AGAINST[label]
    args = f"{seconds!r}, {seed!r}, {batch!r}" + (f", {preset!r}" if preset else "")
    code = (f"import sys, json; sys.path[:0] = [{tree!r}, {os.path.join(tree, 'scripts')!r}]; "
            f"import bench_vector as b; b.pin_one_core({cpu!r}); print(json.dumps(b.{hook}({args})))")
    env = {**os.environ, "PYTHONPATH": tree}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"--against {tree}: {label} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------- CLI
def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns the exit status (0: every checked aim met, or
    ``--report-only``; 1: an aim missed)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of each timed run (default 3)")
    ap.add_argument("--repeats", type=int, default=3, help="interleaved runs per figure; the median is printed (default 3)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=4096, help="deals at once for the batched hooks (default 4096)")
    ap.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: the last one allowed)")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every run's details too")
    ap.add_argument("--no-small", action="store_true", help="skip the two- and three-player batched engine")
    ap.add_argument("--report-only", action="store_true",
                    help="print the figures and aims but exit 0 even when an aim is missed")
    ap.add_argument("--against", metavar="TREE", default=None,
                    help="another source tree of this project (e.g. `git worktree add ../prev HEAD~1`): its batched "
                         "engine measured in the same run by its own hooks, each run in a child process, alternated "
                         "with this tree's; aim: this tree at least --min-ratio of it at every table")
    ap.add_argument("--min-ratio", type=float, default=0.97,
                    help="with --against: the lowest ratio (this tree / that one) taken as speed not lost "
                         "(default 0.97: the runs' noise on a shared machine)")
    args = ap.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.batch < 1:
        ap.error("--seconds must be > 0, --repeats and --batch >= 1")
    if args.against is not None and not os.path.isfile(os.path.join(args.against, "belote_env", "vector", "engine.py")):
        ap.error(f"--against {args.against}: not a source tree of this project (no belote_env/vector/engine.py there)")
    if not 0 < args.min_ratio <= 2:
        ap.error(f"--min-ratio must be in (0, 2], got {args.min_ratio}")

    try:
        import pyspiel  # noqa: F401
        have_openspiel = True
    except ImportError:
        have_openspiel = False
        print(f"note: open_spiel is not installed ({OPENSPIEL_HOW}): the OpenSpiel hearts anchor "
              f"will not be measured and the aim against it not checked", flush=True)
    have_vector = vector_engine_available()
    if not have_vector:
        print("note: belote_env.vector.engine cannot be imported: batched engine and batched observations "
              "skipped, their aims not checked", flush=True)

    cpu = pin_one_core(args.cpu)  # after the imports above, so that torch/numba threads are limited too
    if cpu is not None:
        print(f"pinned to CPU {cpu}", flush=True)

    benches: list[tuple[str, str, str, object]] = []  # (label, key, unit, fn(seconds, seed))
    if have_openspiel:
        benches.append(("openspiel hearts", "decisions_per_s", "decisions/s", openspiel_hearts))
    benches.append(("reference engine", "decisions_per_s", "decisions/s", reference_engine))
    if have_vector:
        benches.append(("batched engine", "decisions_per_s", "decisions/s per core",
                        lambda s, seed: batched_engine(s, seed, args.batch)))
        benches.append(("batched engine (coinche)", "decisions_per_s", "decisions/s per core",
                        lambda s, seed: batched_engine(s, seed, args.batch, "coinche")))
        if not args.no_small:
            for p in (2, 3):
                benches.append((f"batched engine ({p}p)", "decisions_per_s", "decisions/s per core",
                                lambda s, seed, p=p: batched_per_seat_engine(s, seed, args.batch, f"seed001_{p}p")))
        benches.append(("batched observations", "observations_per_s", "observations/s per core",
                        lambda s, seed: batched_observations(s, seed, args.batch)))
        if args.against is not None:  # both trees measured alike: each run in a child process of its own
            here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            for label in [b[0] for b in benches if b[0] in _AGAINST]:
                for tag, tree in (("this tree", here), ("against", args.against)):
                    benches.append((f"{label} [{tag}]", "decisions_per_s", "decisions/s per core",
                                    lambda s, seed, label=label, tree=tree: against_run(tree, label, s, seed,
                                                                                          args.batch, cpu)))
                    against_run(tree, label, 0.2, 0, args.batch, cpu)  # its kernels compiled or loaded first

    total = len(benches) * args.repeats
    print(f"measuring {len(benches)} figures x {args.repeats} interleaved runs of about {args.seconds:g} s "
          f"(about {total * args.seconds:.3g} s, plus set-up)", flush=True)
    if have_vector:
        print("compiling the batched engines (numba: about 20 s the first time, a few seconds once cached)...",
              flush=True)
        print(f"batched engines ready in {warm_up(not args.no_small):.1f} s", flush=True)

    runs: dict[str, list[float]] = {label: [] for label, *_ in benches}
    done = 0
    for r in range(args.repeats):  # interleaved: anchor, ours, ..., anchor, ours, ...
        for label, key, unit, fn in benches:
            res = fn(args.seconds, args.seed + r)
            runs[label].append(res[key])
            done += 1
            extra = ""
            if args.verbose:
                extra = " (" + ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                                         for k, v in res.items() if k != key) + ")"
            print(f"  run {r + 1}/{args.repeats} {label}: {res[key]:.0f} {unit}{extra} [{done}/{total}]", flush=True)
    med = {label: statistics.median(runs[label]) for label in runs}
    if not have_openspiel:
        print(f"openspiel hearts: not measured (open_spiel is not installed: {OPENSPIEL_HOW})")
    for label, key, unit, fn in benches:
        print(f"{label}: {round(med[label])} {unit}")
    if not have_vector:
        return 0  # nothing of ours to hold to an aim
    missed, not_checked = check_aims(med, have_openspiel, not args.no_small)
    if args.against is not None:
        for label in _AGAINST:
            if f"{label} [against]" in med:
                ratio = med[f"{label} [this tree]"] / med[f"{label} [against]"]
                print(f"{label} / {args.against}: {ratio:.3f}")
                if ratio < args.min_ratio:
                    missed.append(f"MISSED: {label} at {ratio:.3f} of {args.against}'s (aim >= {args.min_ratio:g}; "
                                  f"by {args.min_ratio - ratio:.3f})")
    for name in not_checked:
        print(f"aim not checked: {name} (its anchor was not measured)")
    for line in missed:
        print(line)
    if missed:
        n = len(missed)
        if args.report_only:
            print(f"{n} aim{'s' * (n > 1)} missed (--report-only: exit status 0)")
            return 0
        print(f"{n} aim{'s' * (n > 1)} missed: exit status 1 (--report-only to exit 0)")
        return 1
    print("every aim checked was met" + (f" ({len(not_checked)} not checked)" if not_checked else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
