"""Warm start by imitation: a network learns the ``normal`` tier's decisions (policy head)
and the final team rewards of those deals (value head) before self-play refines it.

Self-play from a random network spends millions of decisions rediscovering what a rule
player knows (follow the trick, do not waste trumps, take with a strong hand). Cloning a
teacher first (as AlphaStar and many card-game bots do) gives PPO a sensible start; the
self-play that follows is what can go beyond the teacher.
"""

from __future__ import annotations

import random
import time

import numpy as np
import torch as th
from torch import nn

from belote_env.games import game_of
from belote_env import GameState, Rules
from belote_env.actions import num_actions
from belote_env.driver import finish_deal, seat_reward
from belote_env.observation import obs_size
from belote_env.table import table_of
from policies import make_policy
from policies.network import BeloteNet

__all__ = ["generate_teacher_data", "pretrain"]


def generate_teacher_data(teacher: str, deals: int, seed: int, rules: Rules, epsilon: float = 0.1,
                          progress: bool = False, perfect: bool = False) -> dict[str, np.ndarray]:
    """Play ``deals`` single deals with ``teacher`` (a tier name or model folder) on every seat.

    With probability ``epsilon`` a seat plays a random legal action instead (for a wider
    spread of positions); the label is always the teacher's choice.

    Returns:
        ``{"obs": float16 (N, obs_size(rules)), "mask": bool (N, num_actions(rules)), "action": int64
        (N,), "ret": float32 (N,)}`` where ``ret`` is the seat's team point difference / 162
        (at two and three seats: its own points less the mean of the others').
        With ``perfect`` each observation row is followed by ``selfplay.encode_perfect``
        (shape ``(N, OBS_SIZE + PERFECT_SIZE)``), the perfect-information critic's input.
    """
    from .selfplay import PERFECT_SIZE, encode_observation, encode_perfect

    pol = make_policy(teacher, seed=seed)
    rng = random.Random(seed)
    obs, masks, acts, rets = [], [], [], []
    it = range(deals)
    if progress:
        from tqdm import tqdm

        it = tqdm(it, desc=f"imitation data ({teacher})", unit="deal")
    size, n_actions, table = obs_size(rules), num_actions(rules), table_of(rules.players)
    small = not game_of(rules).has_partners
    buf = np.zeros(size + (PERFECT_SIZE if perfect else 0), dtype=np.float32)
    seats: list[int] = []

    def record(st: GameState, info, teacher) -> int:  # the teacher's label kept; epsilon: a random action played
        label = teacher.act(info)
        encode_observation(info, buf[:size])
        if perfect:
            encode_perfect(st, info.seat, buf[size:])
        obs.append(buf.astype(np.float16))
        m = np.zeros(n_actions, dtype=bool)
        m[list(info.legal_actions)] = True
        masks.append(m)
        acts.append(label)
        seats.append(info.seat)
        return label if rng.random() >= epsilon else info.legal_actions[rng.randrange(len(info.legal_actions))]

    for d in it:
        st = GameState(rules, rng=rng, dealer=table.absolute(d, 0), single_deal=True)  # the deal passes round the table
        seats.clear()
        finish_deal(st, [pol] * table.n_seats, record)
        rets.extend(seat_reward(st.deal_score, seat, rules=rules if small else None) for seat in seats)
    return {"obs": np.stack(obs), "mask": np.stack(masks), "action": np.array(acts, dtype=np.int64),
            "ret": np.array(rets, dtype=np.float32)}


def pretrain(net: BeloteNet, data: dict[str, np.ndarray], epochs: int = 3, lr: float = 1e-3, batch: int = 1024,
             seed: int = 0, value_coef: float = 0.5, progress: bool = False) -> dict[str, float]:
    """Fit ``net`` to the teacher data: masked cross-entropy on the actions plus
    ``value_coef`` x MSE on the returns. Returns the final accuracy and losses."""
    g = th.Generator().manual_seed(seed)
    n = len(data["action"])
    obs = th.from_numpy(data["obs"])
    mask = th.from_numpy(data["mask"])
    act = th.from_numpy(data["action"])
    ret = th.from_numpy(data["ret"])
    opt = th.optim.Adam(net.parameters(), lr=lr)
    net.train()
    t0 = time.time()
    stats = {}
    for ep in range(epochs):
        perm = th.randperm(n, generator=g)
        correct = total = 0
        ce_sum = v_sum = 0.0
        for s in range(0, n, batch):
            idx = perm[s:s + batch]
            x = obs[idx].float()
            logits, value = net(x)
            logits = logits.masked_fill(~mask[idx], -1e9)
            ce = nn.functional.cross_entropy(logits, act[idx])
            v = nn.functional.mse_loss(value, ret[idx])
            loss = ce + value_coef * v
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            correct += (logits.argmax(1) == act[idx]).sum().item()
            total += len(idx)
            ce_sum += ce.item() * len(idx)
            v_sum += v.item() * len(idx)
        stats = {"epoch": ep + 1, "accuracy": correct / total, "ce": ce_sum / total, "value_mse": v_sum / total,
                 "seconds": time.time() - t0}
        if progress:
            print(f"imitation epoch {ep + 1}: accuracy {stats['accuracy']:.3f}, ce {stats['ce']:.3f}, "
                  f"value mse {stats['value_mse']:.3f}")
    net.eval()
    return stats
