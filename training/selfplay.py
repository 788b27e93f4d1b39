"""Self-play with sb3-contrib's MaskablePPO: one shared network plays every seat.

Why not PettingZoo's SB3 tutorial wrapper: it turns the AEC game into one single-agent
stream, so consecutive transitions belong to different seats (and teams), and the final
rewards of the seats that did not move last are lost. Here each (table, seat) pair is its
own *seat stream*: its transitions are that seat's decisions only, in order, and when a
deal ends every seat's last transition receives its own team reward and is marked
terminal. ``SelfPlayCollector`` plays ``n_tables`` tables at once, batching the decisions
of all tables into one forward pass; ``SelfPlayPPO`` replaces MaskablePPO's
``collect_rollouts`` to fill the rollout buffer with ``n_steps`` completed transitions per
seat stream (a transition is complete once the seat's next decision or the deal's end is
known; extra ones wait for the next rollout). GAE then runs per stream, as SB3 expects.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from belote_env import GameState, Rules
from belote_env.actions import NUM_ACTIONS
from belote_env.observation import OBS_SIZE, action_mask, encode_infoset

__all__ = ["SelfPlayCollector", "SelfPlayPPO", "Transition", "StreamSpec"]


@dataclass
class Transition:
    obs: np.ndarray
    mask: np.ndarray
    action: int
    value: float
    log_prob: float
    episode_start: bool
    reward: float = 0.0
    done: bool = False


class StreamSpec(VecEnv):
    """A stand-in VecEnv that only declares the spaces and the number of seat streams;
    ``SelfPlayPPO`` never steps it (its collector plays the tables)."""

    def __init__(self, n_streams: int):
        obs_space = spaces.Box(0.0, np.inf, (OBS_SIZE,), np.float32)
        super().__init__(n_streams, obs_space, spaces.Discrete(NUM_ACTIONS))

    def reset(self):
        return np.zeros((self.num_envs, OBS_SIZE), dtype=np.float32)

    def step_async(self, actions):
        raise RuntimeError("StreamSpec is not steppable; SelfPlayPPO collects with SelfPlayCollector")

    def step_wait(self):
        raise RuntimeError("StreamSpec is not steppable")

    def close(self):
        pass

    def get_attr(self, attr_name, indices=None):
        return [None] * self.num_envs

    def set_attr(self, attr_name, value, indices=None):
        pass

    def env_method(self, method_name, *args, indices=None, **kwargs):
        return [None] * self.num_envs

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * self.num_envs

    def seed(self, seed=None):
        return [None] * self.num_envs


class SelfPlayCollector:
    """Plays ``n_tables`` tables of single deals, every seat chosen by the learner's policy.

    Args:
        rules: rule options (episodes are single deals).
        n_tables: tables played side by side; seat stream ``4 * table + seat``.
        seed: seeds the tables' decks and dealers (``random.Random``, owned).
    """

    def __init__(self, rules: Rules, n_tables: int, seed: int):
        self.rules = rules.replace(target=None, max_deals=None)
        self.n_tables = n_tables
        self.n_streams = 4 * n_tables
        master = random.Random(seed)
        self.table_rngs = [random.Random(master.getrandbits(64)) for _ in range(n_tables)]
        self.tables = [GameState(self.rules, rng=r, dealer=r.randrange(4)) for r in self.table_rngs]
        self.completed: list[list[Transition]] = [[] for _ in range(self.n_streams)]
        self.open: list[Transition | None] = [None] * self.n_streams
        self.started = [False] * self.n_streams
        self._obs = np.zeros((n_tables, OBS_SIZE), dtype=np.float32)
        self._masks = np.zeros((n_tables, NUM_ACTIONS), dtype=np.int8)
        self.deal_stats: list[dict] = []

    def _end_deal(self, j: int) -> None:
        st = self.tables[j]
        score = st.deal_score
        for s in range(4):
            i = 4 * j + s
            t = self.open[i]
            if t is not None:
                t.reward = 0.0 if score is None else score.difference(s & 1) / 162.0
                t.done = True
                self.completed[i].append(t)
                self.open[i] = None
            self.started[i] = False
        self.deal_stats.append({
            "void": score is None,
            "made": score is not None and score.outcome == "made",
            "abs_diff": 0 if score is None else abs(score.difference(0)),
            "decisions": len(st.actions),
        })
        r = self.table_rngs[j]
        self.tables[j] = GameState(self.rules, rng=r, dealer=(st.dealer + 1) % 4)

    @th.no_grad()
    def step(self, policy) -> None:
        """One decision at every table, chosen by ``policy`` (a MaskableActorCriticPolicy)."""
        tables = self.tables
        infos = []
        for j, st in enumerate(tables):
            info = st.information_set(st.current)
            infos.append(info)
            encode_infoset(info, self._obs[j])
            action_mask(info.legal_actions, self._masks[j])
        obs_t = th.as_tensor(self._obs, device=policy.device)
        actions, values, log_probs = policy(obs_t, action_masks=self._masks)
        actions = actions.cpu().numpy()
        values = values.cpu().numpy().reshape(-1)
        log_probs = log_probs.cpu().numpy()
        for j, st in enumerate(tables):
            seat = st.current
            i = 4 * j + seat
            prev = self.open[i]
            if prev is not None:
                self.completed[i].append(prev)
            self.open[i] = Transition(self._obs[j].copy(), self._masks[j].astype(bool), int(actions[j]),
                                      float(values[j]), float(log_probs[j]), not self.started[i])
            self.started[i] = True
            st.apply(int(actions[j]))
            if st.is_deal_over:
                self._end_deal(j)

    def ready(self, n_steps: int) -> bool:
        return min(len(c) for c in self.completed) >= n_steps

    def take(self, n_steps: int) -> tuple[list[list[Transition]], np.ndarray, np.ndarray]:
        """Remove ``n_steps`` completed transitions per stream.

        Returns ``(streams, last_values, dones)``: per stream the transitions, the value of
        the stream's next decision (bootstrap) and whether its last transition ended a deal.
        """
        out, last_values, dones = [], np.zeros(self.n_streams, np.float32), np.zeros(self.n_streams, bool)
        for i in range(self.n_streams):
            batch = self.completed[i][:n_steps]
            self.completed[i] = self.completed[i][n_steps:]
            out.append(batch)
            dones[i] = batch[-1].done
            if not dones[i]:
                nxt = self.completed[i][0] if self.completed[i] else self.open[i]
                last_values[i] = nxt.value
        return out, last_values, dones


class SelfPlayPPO(MaskablePPO):
    """MaskablePPO whose rollouts come from a ``SelfPlayCollector`` (all seats learn).

    Construct with ``env=StreamSpec(collector.n_streams)`` and set ``self.collector``.
    """

    collector: SelfPlayCollector

    def collect_rollouts(self, env, callback, rollout_buffer, n_rollout_steps: int, use_masking: bool = True) -> bool:
        self.policy.set_training_mode(False)
        rollout_buffer.reset()
        callback.on_rollout_start()
        col = self.collector
        while not col.ready(n_rollout_steps):
            col.step(self.policy)
        streams, last_values, dones = col.take(n_rollout_steps)
        n = col.n_streams
        for t in range(n_rollout_steps):
            row = [streams[i][t] for i in range(n)]
            rollout_buffer.add(
                np.stack([tr.obs for tr in row]),
                np.array([[tr.action] for tr in row]),
                np.array([tr.reward for tr in row], dtype=np.float32),
                np.array([tr.episode_start for tr in row], dtype=np.float32),
                th.as_tensor(np.array([tr.value for tr in row], dtype=np.float32)),
                th.as_tensor(np.array([tr.log_prob for tr in row], dtype=np.float32)),
                action_masks=np.stack([tr.mask for tr in row]),
            )
        self.num_timesteps += n * n_rollout_steps
        stats, col.deal_stats = col.deal_stats, []
        played = [s for s in stats if not s["void"]]
        if stats:
            self.logger.record("charts/deals", len(stats))
            self.logger.record("charts/void_rate", 1 - len(played) / len(stats))
        if played:
            self.logger.record("charts/made_rate", sum(s["made"] for s in played) / len(played))
            self.logger.record("charts/mean_abs_point_diff", sum(s["abs_diff"] for s in played) / len(played))
            self.logger.record("charts/decisions_per_deal", sum(s["decisions"] for s in played) / len(played))
        rollout_buffer.compute_returns_and_advantage(last_values=th.as_tensor(last_values), dones=dones)
        callback.update_locals(locals())
        if not callback.on_step():
            return False
        callback.on_rollout_end()
        return True
