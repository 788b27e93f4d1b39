"""TorchRL over the PettingZoo environment: ``torchrl.envs.PettingZooWrapper(belote_v0.env(),
use_mask=True)`` (the env manual's "TorchRL" section): the acting seat's mask, the action
masks, the rewards every seat gets at a deal's end, and a few updates of TorchRL's PPO
loss on collected data; the quickstart of docs/torchrl.md runs as written."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchrl", reason="TorchRL is not installed (pip install -e \".[torchrl]\")")

from torchrl.envs import PettingZooWrapper  # noqa: E402
from torchrl.envs.libs.pettingzoo import MarlGroupMapType  # noqa: E402

from belote_env import belote_v0  # noqa: E402

OBS = ("agents", "observation", "observation")


def _env(**kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TorchRL says it is tested with PettingZoo 1.24.3
        return PettingZooWrapper(belote_v0.env(**kw), use_mask=True, group_map=MarlGroupMapType.ALL_IN_ONE_GROUP,
                                 seed=0)


@pytest.mark.parametrize("rules, seats", [("seed004", 4), ("coinche", 4), ("seed001_3p", 3)])
def test_a_deal_stepped_through_torchrl_gives_the_envs_masks_and_rewards(rules, seats):
    """One seat acts at each step (``mask``), its action mask is the env's legal actions;
    at the deal's end every seat gets its reward (the waiting seats too), zero-sum."""
    env = _env(rules=rules)
    gen = torch.Generator().manual_seed(1)
    td = env.reset()
    steps = 0
    while True:
        agents = td["agents"]
        assert agents["mask"].sum() == 1
        seat = int(agents["mask"].nonzero())
        legal = env._env.unwrapped.game.legal_actions()
        assert agents["action_mask"][seat].nonzero().flatten().tolist() == list(legal)
        action = torch.zeros(seats, dtype=torch.int64)
        action[seat] = legal[int(torch.randint(len(legal), (1,), generator=gen))]
        td["agents", "action"] = action
        td = env.step(td)
        steps += 1
        nxt = td["next"]
        if nxt["done"].item():
            rewards = nxt["agents", "reward"].flatten()
            assert abs(float(rewards.sum())) < 1e-5 and steps > 20
            score = env._env.unwrapped.game.deal_score
            assert (score is None) == bool((rewards == 0).all())
            break
        td = nxt


def test_a_few_updates_of_torchrls_ppo_loss_on_collected_deals():
    from tensordict.nn import TensorDictModule
    from torch import nn
    from torchrl.collectors import Collector
    from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
    from torchrl.objectives import ClipPPOLoss, ValueEstimators

    torch.manual_seed(0)
    env = _env()
    net = TensorDictModule(nn.Sequential(nn.Linear(618, 64), nn.Tanh(), nn.Linear(64, 112)), in_keys=[OBS],
                           out_keys=[("agents", "logits")])
    actor = ProbabilisticActor(net, in_keys={"logits": ("agents", "logits"), "mask": ("agents", "action_mask")},
                               out_keys=[env.action_key], distribution_class=MaskedCategorical, return_log_prob=True,
                               log_prob_key=("agents", "sample_log_prob"))
    critic = ValueOperator(nn.Sequential(nn.Linear(618, 64), nn.Tanh(), nn.Linear(64, 1)), in_keys=[OBS],
                           out_keys=[("agents", "state_value")])
    loss = ClipPPOLoss(actor, critic)
    loss.set_keys(reward=("agents", "reward"), action=env.action_key, sample_log_prob=("agents", "sample_log_prob"),
                  value=("agents", "state_value"), done=("agents", "done"), terminated=("agents", "terminated"))
    loss.make_value_estimator(ValueEstimators.GAE, gamma=1.0, lmbda=0.95)
    opt = torch.optim.Adam(loss.parameters(), 1e-3)
    before = [p.detach().clone() for p in net.parameters()]
    updates = 0
    for batch in Collector(env, actor, frames_per_batch=96, total_frames=288):
        assert (batch["agents", "mask"].sum(-1) == 1).all()
        with torch.no_grad():
            loss.value_estimator(batch, params=loss.critic_network_params,
                                 target_params=loss.target_critic_network_params)
        out = loss(batch)
        total = out["loss_objective"] + out["loss_critic"] + out["loss_entropy"]
        assert torch.isfinite(total)
        opt.zero_grad()
        total.backward()
        opt.step()
        updates += 1
    assert updates == 3
    assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters()))


def test_the_torchrl_quickstart_runs_as_written():
    page = (Path(__file__).parents[1] / "docs" / "torchrl.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks and len(blocks[0].strip().splitlines()) <= 10
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(blocks[0], "docs/torchrl.md", "exec"), {})
