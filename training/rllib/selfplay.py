"""Self-play for RLlib: the agent-to-module mapping and the snapshot callback.

One trained module, ``"main"``, plays both seats of one team; the other team is one frozen
snapshot ``"snap_k"`` (both of its seats). Which team main sits on and which snapshot it
faces are drawn per episode from a CRC-32 of the episode id (RLlib draws episode ids at
random, so the draw is uniform and the same for the four seats of an episode, in every
process). At the start ``snap_0`` is a copy of main's initial weights. After each training
iteration ``SelfPlayCallback`` looks at main's deal results since the last snapshot (win 1,
tie or void deal 1/2, loss 0) over the most recent iterations that hold at least
``snapshot_min_deals`` deals; once that win rate reaches ``win_rate_threshold``, a copy of
main joins the snapshots (up to ``max_snapshots``; then it overwrites the oldest one) and
the count restarts. A deal is won when main's team scores more deal points (RULES.md §7),
which is what ``reward_mode="win"`` rewards; with the point-difference rewards main may
gain points while winning fewer deals (by declining contracts), and snapshots come later.

Metrics logged by the EnvRunners for every episode (``result["env_runners"]``):
``main_score`` / ``main_deals`` (sums per iteration), and the reward-routing checks
``seats_rewarded`` (min over episodes of the seats whose return equals their team's deal
reward from the env's infos: 4 when every seat got its reward) and ``zero_sum_error``
(max over episodes of ``|sum of the four seats' returns|``, 0 for zero-sum rewards).
"""

from __future__ import annotations

import zlib
from typing import Callable

from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from belote_env.driver import point_reward
from belote_env.table import NUM_TEAMS, SEATS, team_of

__all__ = ["MAIN", "snapshot_id", "make_mapping_fn", "SelfPlayCallback", "expected_return"]

MAIN = "main"
AGENTS = tuple(f"player_{i}" for i in SEATS)


def snapshot_id(k: int) -> str:
    """Module id of snapshot slot ``k`` (``"snap_k"``)."""
    return f"snap_{k}"


def make_mapping_fn(n_snapshots: int) -> Callable:
    """The ``policy_mapping_fn`` for ``n_snapshots`` snapshot slots (``n_snapshots >= 1``):
    ``fn(agent_id, episode, **kw) -> module id`` with main on both seats of one team."""
    if n_snapshots < 1:
        raise ValueError(f"n_snapshots must be >= 1, got {n_snapshots}")

    def agent_to_module(agent_id: str, episode, **kwargs) -> str:
        h = zlib.crc32(str(episode.id_).encode())
        main_team = h % NUM_TEAMS  # a bit of the episode hash picks main's team
        seat = int(str(agent_id).rsplit("_", 1)[1])
        if team_of(seat) == main_team:
            return MAIN
        return snapshot_id((h >> 1) % n_snapshots)

    return agent_to_module


def expected_return(deal_points: tuple[int, int], reward_mode: str) -> float:
    """The deal reward of a seat whose info says ``deal_points = (us, them)`` (points;
    ``belote_env.driver.point_reward``)."""
    return point_reward(deal_points[0] - deal_points[1], reward_mode)


class SelfPlayCallback(RLlibCallback):
    """Win-rate bookkeeping and snapshots (see the module docstring).

    Args:
        win_rate_threshold: main's deal win rate (0..1) that triggers a snapshot.
        snapshot_min_deals: deals since the last snapshot before the rate is judged.
        max_snapshots: snapshot slots at most (>= 1).
        reward_mode: the env's reward mode (for the reward-routing check).
    """

    def __init__(self, win_rate_threshold: float = 0.55, snapshot_min_deals: int = 500, max_snapshots: int = 5,
                 reward_mode: str = "scaled"):
        super().__init__()
        if max_snapshots < 1:
            raise ValueError(f"max_snapshots must be >= 1, got {max_snapshots}")
        self.win_rate_threshold = win_rate_threshold
        self.snapshot_min_deals = snapshot_min_deals
        self.max_snapshots = max_snapshots
        self.reward_mode = reward_mode
        self.n_slots = 1  # snap_0 exists from the start
        self.snapshots_taken = 0
        self.recent: list[tuple[float, int]] = []  # (score, deals) per iteration since the last snapshot
        self.history: list[dict] = []  # one entry per snapshot: iteration, win rate, slot

    # --- EnvRunner side -------------------------------------------------------------
    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
        returns = {aid: sa.get_return() for aid, sa in episode.agent_episodes.items()}
        infos = {aid: sa.get_infos(-1) for aid, sa in episode.agent_episodes.items()}
        ok = sum(1 for aid in AGENTS if aid in returns and "deal_points" in (infos[aid] or {})
                 and abs(returns[aid] - expected_return(infos[aid]["deal_points"], self.reward_mode)) < 1e-6)
        main_seats = [aid for aid in returns if episode.module_for(aid) == MAIN]
        if metrics_logger is None:
            return
        metrics_logger.log_value("seats_rewarded", ok, reduce="min", window=1000)
        metrics_logger.log_value("zero_sum_error", abs(sum(returns.values())), reduce="max", window=1000)
        if main_seats:
            r = returns[main_seats[0]]
            metrics_logger.log_value("main_score", 1.0 if r > 0 else 0.5 if r == 0 else 0.0, reduce="sum")
            metrics_logger.log_value("main_deals", 1, reduce="sum")

    # --- Driver side ----------------------------------------------------------------
    def on_algorithm_init(self, *, algorithm, metrics_logger=None, **kwargs) -> None:
        """Make ``snap_0`` a copy of main's initial weights."""
        self._copy_main_to(algorithm, snapshot_id(0))

    def on_train_result(self, *, algorithm, metrics_logger=None, result, **kwargs) -> None:
        er = result.get("env_runners", {})
        self.recent.append((float(er.get("main_score", 0.0) or 0.0), int(er.get("main_deals", 0) or 0)))
        score, deals = self.recent_win_rate_counts()
        rate = score / deals if deals else 0.0
        result["selfplay"] = {"win_rate": rate, "deals_judged": deals,
                              "snapshots": self.n_slots, "snapshots_taken": self.snapshots_taken}
        if deals >= max(1, self.snapshot_min_deals) and rate >= self.win_rate_threshold:
            self.take_snapshot(algorithm, rate)
            result["selfplay"]["snapshots"] = self.n_slots
            result["selfplay"]["snapshots_taken"] = self.snapshots_taken

    def recent_win_rate_counts(self) -> tuple[float, int]:
        """``(score, deals)`` of main over the most recent iterations since the last snapshot
        that reach ``snapshot_min_deals`` deals (all of them when fewer)."""
        score, deals = 0.0, 0
        for s, d in reversed(self.recent):
            score, deals = score + s, deals + d
            if deals >= self.snapshot_min_deals:
                break
        return score, deals

    def take_snapshot(self, algorithm, rate: float) -> str:
        """Freeze a copy of main now (a new slot, or the oldest one when all are used);
        returns its module id."""
        if self.n_slots < self.max_snapshots:
            slot = snapshot_id(self.n_slots)
            self.n_slots += 1
            algorithm.add_module(module_id=slot, module_spec=RLModuleSpec.from_module(algorithm.get_module(MAIN)),
                                 new_agent_to_module_mapping_fn=make_mapping_fn(self.n_slots),
                                 new_should_module_be_updated=[MAIN])
        else:
            slot = snapshot_id((self.snapshots_taken + 1) % self.max_snapshots)
        self._copy_main_to(algorithm, slot)
        self.snapshots_taken += 1
        self.history.append({"iteration": algorithm.iteration, "win_rate": rate, "slot": slot})
        self.recent = []
        return slot

    @staticmethod
    def _copy_main_to(algorithm, slot: str) -> None:
        state = algorithm.learner_group.get_weights(module_ids=[MAIN])[MAIN]
        # Algorithm.set_state with a learner-group state also syncs the EnvRunners' weights.
        algorithm.set_state({"learner_group": {"learner": {"rl_module": {slot: state}}}})
