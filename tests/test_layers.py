"""Layers and the shared pieces: ``belote_env`` never imports ``policies`` or
``training``; one driver plays deals with seat policies (``belote_env.driver``), for
evaluation, the data generators and ``belote play``; one function turns a deal's point
difference into a reward."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

from belote_env import GameState, Rules
from belote_env.driver import (
    MAX_VOID_DEALS, RandomPolicy, VoidDealsError, finish_deal, play_deal, play_game, point_reward, seat_reward,
)
from belote_env.table import SEATS, team_of

ROOT = pathlib.Path(__file__).resolve().parent.parent
UPPER = ("policies", "training")


# ----------------------------------------------------------------------------- layers
def _imports(path: pathlib.Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every absolute import in ``path``, and of every
    ``importlib.import_module("...")`` / ``__import__("...")`` with a constant name."""
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value.split(".")[0]))
    return found


def test_belote_env_never_imports_the_layers_above():
    files = sorted((ROOT / "belote_env").rglob("*.py"))
    assert len(files) > 15
    bad = [f"{p.relative_to(ROOT)}:{line} imports {mod}" for p in files for line, mod in _imports(p) if mod in UPPER]
    assert not bad, bad


def test_policies_never_imports_training():
    bad = [f"{p.relative_to(ROOT)}:{line} imports {mod}" for p in sorted((ROOT / "policies").rglob("*.py"))
           for line, mod in _imports(p) if mod == "training"]
    assert not bad, bad


def test_the_scan_sees_an_upward_import(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("import os\nfrom policies.registry import make_policy\n"
                 "def f():\n    import training.evaluate\n    importlib.import_module('policies.gym')\n")
    assert [m for _, m in _imports(p)] == ["os", "policies", "training", "policies"]


def test_import_belote_env_loads_neither_policies_nor_torch():
    code = ("import sys, belote_env, belote_env.driver, belote_env.gym_env, belote_env.env\n"
            "print(sorted(m for m in ('policies', 'training', 'torch') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_gymnasium_make_resolves_names_in_policies():
    import gymnasium

    from belote_env.gym_env import BeloteGymEnv
    from belote_env.registration import GYM_ENTRY_POINT
    from policies.gym import NamedGymEnv

    assert gymnasium.spec("Belote-v0").entry_point == GYM_ENTRY_POINT == "policies.gym:NamedGymEnv"
    env = gymnasium.make("Belote-v0", opponents="normal")
    assert type(env.unwrapped) is NamedGymEnv and isinstance(env.unwrapped, BeloteGymEnv)
    env.reset(seed=0)
    assert {type(p.__self__).__name__ for p in env.unwrapped._policies.values()} == {"NormalPolicy"}


def test_the_core_gym_env_takes_policies_not_names():
    from belote_env.gym_env import BeloteGymEnv
    from policies.gym import NamedGymEnv

    with pytest.raises(ValueError, match=r"opponents: a policy named 'easy' is built by policies.*NamedGymEnv"):
        BeloteGymEnv(opponents="easy")
    with pytest.raises(ValueError, match=r"opponents\[2\]: a policy named 'normal'"):
        BeloteGymEnv(opponents={1: RandomPolicy(0), 2: "normal", 3: RandomPolicy(1)}, learner_seat=0)
    with pytest.raises(ValueError, match=r"partner must be a seat policy: a Policy, a callable"):
        BeloteGymEnv(partner=3, learner_seat=0)
    # default opponents: RandomPolicy reseeded each episode, as NamedGymEnv's "random"
    for seed in range(5):
        a, b = BeloteGymEnv(learner_seat=1), NamedGymEnv(opponents="random", learner_seat=1)
        for env in (a, b):
            env.reset(seed=seed)
            done = False
            while not done:
                _, _, done, _, _ = env.step(int(env.action_masks().argmax()))
        assert a.game.actions == b.game.actions and a.game.deal_score == b.game.deal_score


def test_random_policy_is_the_engine_s():
    from policies import make_policy
    from policies.base import RandomPolicy as Base

    assert Base is RandomPolicy and type(make_policy("random", seed=3)) is RandomPolicy


# ----------------------------------------------------------------------------- driver
class _First:
    name = "first"

    def act(self, info):
        return info.legal_actions[0]


class _Passer:
    """Passes whenever it can: four of them pass every deal out."""

    name = "passer"

    def act(self, info):
        return 32 if 32 in info.legal_actions else info.legal_actions[0]


def test_play_deal_hooks_see_every_move_and_deal_end():
    st = GameState(Rules(target=None), seed=4)
    seen, moves, ends = [], [], []

    def decide(state, info, policy):
        assert info.seat == state.current and policy is pols[info.seat]
        seen.append(info.seat)
        return policy.act(info)

    pols = [RandomPolicy(s) for s in SEATS]
    timing, counts = [0.0, 0.0], [0, 0]
    voids = play_deal(st, pols, timing=timing, moves=counts, decide=decide,
                      after=lambda state, seat, action: moves.append((seat, action)),
                      deal_over=lambda state: ends.append(state.deal_score is None))
    assert [s for s, _ in moves] == seen and len(moves) == sum(counts)
    assert ends == [True] * voids + [False] and st.deal_score is not None
    assert moves[-len(st.actions):] == list(st.actions)
    assert counts == [sum(team_of(s) == t for s in seen) for t in (0, 1)] and min(timing) >= 0


def test_the_void_deal_limit():
    st = GameState(Rules(target=None), seed=1)
    with pytest.raises(VoidDealsError, match="7 deals in a row were passed out by \\['passer'\\]"):
        play_deal(st, [_Passer()] * 4, max_voids=7)
    st = GameState(Rules(target=None), seed=1)
    with pytest.raises(VoidDealsError, match=f"{MAX_VOID_DEALS} deals in a row"):
        play_deal(st, [_Passer()] * 4)
    # finish_deal plays one deal, void or not, and never redeals
    st = finish_deal(GameState(Rules(target=None), seed=1), [_Passer()] * 4)
    assert st.is_deal_over and st.void and len(st.deal_log) == 1


def test_evaluate_keeps_its_names_and_its_checks():
    from policies.base import PolicyError
    from training import evaluate

    assert evaluate.MAX_VOID_DEALS == MAX_VOID_DEALS
    with pytest.raises(PolicyError, match="deals in a row were passed out"):
        evaluate.play_deal(GameState(Rules(target=None), seed=1), [_Passer()] * 4)

    class Bad(_First):
        name = "bad"

        def act(self, info):
            return 200

    with pytest.raises(evaluate.PolicyFailure, match="policy 'bad' returned illegal action 200 at seat") as e:
        evaluate.play_game(GameState(Rules(), seed=2), [_First(), Bad(), _First(), Bad()])
    assert e.value.policy == "bad" and e.value.record["deals"]


def test_evaluate_play_game_is_the_driver_s_with_checks():
    from training import evaluate

    a, b = GameState(Rules(target=301), seed=9), GameState(Rules(target=301), seed=9)
    pa = [RandomPolicy(s) for s in SEATS]
    pb = [RandomPolicy(s) for s in SEATS]
    assert play_game(a, pa) == evaluate.play_game(b, pb)
    assert a.deal_log == b.deal_log and a.scores == b.scores and a.is_game_over


# ----------------------------------------------------------------------------- rewards
def test_point_reward_and_seat_reward():
    assert point_reward(162) == 1.0 and point_reward(-81) == -0.5 and point_reward(272) == 272 / 162
    assert point_reward(-40, "points") == -40.0 and point_reward(-40, "win") == -1.0 and point_reward(0, "win") == 0.0
    with pytest.raises(ValueError, match="reward_mode must be one of"):
        point_reward(1, "score")
    st = GameState(Rules(target=None), seed=3)
    play_deal(st, [RandomPolicy(s) for s in SEATS])
    for s in SEATS:
        assert seat_reward(st.deal_score, s) == st.deal_score.difference(team_of(s)) / 162
    assert seat_reward(None, 1) == 0.0


def _divides_by_162(path: pathlib.Path) -> list[int]:
    tree = ast.parse(path.read_text(), str(path))
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div)
            and isinstance(n.right, ast.Constant) and n.right.value == 162]


@pytest.mark.parametrize("rel", ["belote_env/env.py", "belote_env/gym_env.py", "training/selfplay.py",
                                 "training/imitation.py", "training/rllib/env.py", "training/rllib/selfplay.py"])
def test_rewards_are_scaled_in_one_place(rel):
    assert not _divides_by_162(ROOT / rel), f"{rel} scales a reward itself: use belote_env.driver.point_reward"


def test_the_driver_is_pure_python():
    assert {m for _, m in _imports(ROOT / "belote_env" / "driver.py")} <= {"__future__", "random", "time", "typing"}
