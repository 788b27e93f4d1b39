"""Self-play rollouts in Ray actors: the batched trainer's collector spread over a cluster.

``RayCollector`` has the interface of ``training.vector_selfplay.VectorCollector`` (the
trainer's ``fill_rollout_buffer``, ``add_snapshot``, ``pool``, ``bids``, ``deal_stats``,
``close``) but plays its tables in ``actors`` Ray actors, each a ``VectorCollector`` of its
share of ``n_tables`` on one CPU. Each rollout the driver puts the learner's weights in
Ray's object store once (and the bid network's; the policy object itself on the first
rollout and after an actor's restart), and sends each actor the opponent snapshots it has
not had yet; every actor loads them, plays until its share of the rollout's decisions is finished and
returns them (observations, masks, actions, values, log-probabilities, advantages and
returns: GAE is done in the actor, as in one process), with its learner bids (``bid_learner:
q``: the driver's ``BidLearner`` fits them, overlapped with the actors' play under
``bid_fit_overlap``) and its deal statistics. The driver writes them into the PPO buffer in
actor order and updates.

Config keys (``training.config.TrainConfig``): ``rollout_actors`` (0: no Ray, the tables
in the trainer's process) and ``ray_address`` (None: a local Ray started for the run;
``"auto"`` or ``"ray://host:10001"``: a running cluster); ``rollout_actors`` needs ``engine:
batched`` and at most ``n_tables``. The rest of the config means what it means in one
process. Actor ``i`` seeds its tables, opponent draws, exploration and
sampling from the trainer's seed and ``i``: a run is exactly reproducible for a fixed
number of actors and seed (it is not the one-process run: other tables, same
distribution).

Faults: an actor that dies mid-rollout (its process killed, its node lost) is restarted by
Ray (``max_restarts``) and its rollout asked again from the restarted actor (a fresh
``VectorCollector``: its unfinished deals are lost, nothing is taken twice); the rollout's
decisions are written into the buffer only once every share has come back, so nothing is
trained twice. The driver's own death is the trainer's: ``belote train --resume RUN``
continues from the last checkpoint (the actors start afresh).
"""

from __future__ import annotations

import random
import time
from typing import Any

import torch as th

from belote_env import Rules

__all__ = ["RayCollector", "start_ray"]

#: times an actor's rollout is asked again after its actor died, before the run stops
MAX_RETRIES = 3


def start_ray(address: str | None, actors: int) -> bool:
    """Connect to Ray (``address``) or start a local one sized for ``actors`` actors; True
    when this call started it (the collector then shuts it down)."""
    import ray

    if ray.is_initialized():
        return False
    kw: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    if address:
        ray.init(address=address, **kw)
    else:
        ray.init(num_cpus=max(actors, 1), **kw)
    return True


class _RolloutActor:
    """One actor's tables (a ``VectorCollector``), played with the weights it is sent."""

    def __init__(self, rules: Rules, n_tables: int, seed: int, opponents: dict | None, max_snapshots: int,
                 kw: dict, bid_args: dict | None):
        from .selfplay import OpponentPool
        from .vector_selfplay import BidLearner, VectorCollector

        th.set_num_threads(1)
        th.manual_seed(seed)
        pool = None if opponents is None else OpponentPool(opponents, random.Random(f"{seed}-pool"), max_snapshots)
        self.col = VectorCollector(rules, n_tables, seed, pool, **kw)
        if bid_args is not None:
            self.col.bids = BidLearner(**{**bid_args, "replay": 1, "seed": seed})
        self.policy = None

    def ready(self) -> bool:
        """True once the actor is built (its tables dealt)."""
        return True

    def rollout(self, policy, weights, need: int, random_bids: bool, bid_weights, snapshots: list) -> dict:
        """Play until ``need`` decisions are finished; returns them with the bids made and
        the deals' statistics."""
        if self.policy is None:
            self.policy = policy
        self.policy.load_state_dict(weights)
        for snap in snapshots:
            self.col.add_snapshot(snap)
        if bid_weights is not None:
            self.col.bids.net.load_state_dict(bid_weights)
        self.col.random_bids = random_bids
        t0 = time.perf_counter()
        with th.no_grad():
            while self.col.n_ready < need:
                self.col.step(self.policy)
        out = self.col.take(need)
        bids = [] if self.col.bids is None else self.col.bids.take_added()
        stats, self.col.deal_stats = self.col.deal_stats, []
        from .vector_selfplay import BUFFER_FIELDS

        return {"rows": {k: out[k] for k in BUFFER_FIELDS}, "bids": bids, "stats": stats,
                "seconds": time.perf_counter() - t0}


class RayCollector:
    """``VectorCollector``'s interface over ``actors`` Ray actors (the module docstring).

    Args:
        rules, n_tables, seed, pool, perfect, gamma, gae_lambda, rename: as
            ``VectorCollector`` (``n_tables`` split among the actors, the first ones one
            more when it does not divide).
        actors: Ray actors (int >= 1, at most ``n_tables``).
        address: a Ray cluster's address, or None for a local Ray.
        opponents, max_snapshots: the pool's config (each actor builds its own pool).
    Raises:
        ValueError: ``actors`` out of range; what ``VectorCollector`` raises (from an actor).
    """

    vectorized = True

    def __init__(self, rules: Rules, n_tables: int, seed: int, pool=None, perfect: bool = False, gamma: float = 1.0,
                 gae_lambda: float = 0.95, rename: bool = False, actors: int = 1, address: str | None = None,
                 opponents: dict | None = None, max_snapshots: int = 10):
        import ray

        if isinstance(actors, bool) or not isinstance(actors, int) or not 1 <= actors <= n_tables:
            raise ValueError(f"actors must be an int in 1..n_tables ({n_tables}), got {actors!r}")
        self.rules, self.n_tables, self.pool, self.seed = rules, n_tables, pool, seed
        self.started = start_ray(address, actors)
        self.shares = [n_tables // actors + (i < n_tables % actors) for i in range(actors)]
        self._kw = {"perfect": perfect, "gamma": gamma, "gae_lambda": gae_lambda, "rename": rename}
        self._opponents = None if pool is None else opponents
        self._max_snapshots = max_snapshots
        self._remote = ray.remote(num_cpus=1, max_restarts=-1)(_RolloutActor)
        self.bids = None  # the driver's BidLearner (set by the trainer, as on a VectorCollector)
        self.deal_stats: list[dict] = []
        self.random_bids = False
        self.snapshots: list = []
        self.n_actors = actors
        self.actors: list = []  # started by the first rollout (the trainer sets ``bids`` after construction)
        self._sent = [0] * actors  # snapshots each actor has
        self._policy_sent = [False] * actors
        #: per rollout: seconds in the driver putting weights and getting rows back, and the
        #: slowest actor's play (``scripts/bench_ray_rollouts.py``)
        self.timing: list[dict[str, float]] = []
        self.restarts = 0

    def _new_actor(self, i: int):
        bid_args = None if self.bids is None else self.bids.init_args
        return self._remote.remote(self.rules, self.shares[i], self.seed + 7919 * (i + 1), self._opponents,
                                   self._max_snapshots, self._kw, bid_args)

    def add_snapshot(self, policy) -> None:
        """Add a frozen learner snapshot to every actor's pool (sent with the next rollout)."""
        if self.pool is None:
            raise RuntimeError("this collector has no opponent pool")
        self.pool.add_snapshot(policy)
        self.snapshots.append(policy)

    def fill_rollout_buffer(self, model, rollout_buffer, n_rollout_steps: int) -> None:
        """``vector_selfplay.fill_rollout_buffer`` with the decisions played by the actors."""
        import ray

        from .vector_selfplay import buffer_rows, end_rollout

        rb = rollout_buffer
        need = n_rollout_steps * rb.n_envs
        self.random_bids = model.num_timesteps < getattr(model, "random_bids_until", 0)
        if not self.actors:
            self.actors = [self._new_actor(i) for i in range(self.n_actors)]
        t0 = time.perf_counter()
        weights = ray.put({k: v.detach().cpu() for k, v in model.policy.state_dict().items()})
        bid_weights = None if self.bids is None else ray.put(
            {k: v.detach().cpu().clone() for k, v in self.bids.net.state_dict().items()})
        policy_ref = None
        if not all(self._policy_sent):
            policy_ref = ray.put(model.policy)
        put_s = time.perf_counter() - t0
        counts = [need * s // self.n_tables for s in self.shares]
        counts[0] += need - sum(counts)
        overlap = self.bids is not None and getattr(model, "bid_fit_overlap", False)
        if overlap:
            self.bids.start_fit(model.bid_fit_steps, model.bid_fit_batch)
        played = False
        try:
            results = self._play(counts, weights, bid_weights, policy_ref, model)
            played = True
        finally:
            if overlap:
                self.bids.finish_fit(keep=played)
        t1 = time.perf_counter()
        rows = buffer_rows(rb, n_rollout_steps)
        start = 0
        for res, n in zip(results, counts):
            for field, dest in rows.items():
                dest[start:start + n] = res["rows"][field].reshape((n,) + dest.shape[1:])
            start += n
            for obs, action, target in res["bids"]:
                self.bids.add(obs, action, target)
            self.deal_stats.extend(res["stats"])
        fill_s = time.perf_counter() - t1
        end_rollout(model, self.bids, rb, overlap)
        self.timing.append({"put_s": put_s, "get_s": self._get_s, "fill_s": fill_s,
                            "play_s": max(r["seconds"] for r in results), "total_s": time.perf_counter() - t0})

    def _play(self, counts: list[int], weights, bid_weights, policy_ref, model) -> list[dict]:
        """Every actor's share, asked again of an actor that died (up to ``MAX_RETRIES``)."""
        import ray
        from ray.exceptions import ActorUnavailableError, RayActorError

        def ask(i: int, ref):
            snaps = self.snapshots[self._sent[i]:]
            task = self.actors[i].rollout.remote(ref, weights, counts[i], self.random_bids, bid_weights, snaps)
            return task

        tasks = {i: ask(i, policy_ref if not self._policy_sent[i] else None) for i in range(len(self.actors))}
        results: list[dict | None] = [None] * len(self.actors)
        tries = [0] * len(self.actors)
        self._get_s = 0.0
        while tasks:
            ready, _ = ray.wait(list(tasks.values()), num_returns=1)
            i = next(k for k, t in tasks.items() if t == ready[0])
            t0 = time.perf_counter()
            try:
                results[i] = ray.get(ready[0])
            except (RayActorError, ActorUnavailableError):
                tries[i] += 1
                if tries[i] > MAX_RETRIES:
                    raise
                self.restarts += 1  # restarted by Ray: a fresh actor, sent everything again
                self._wait_ready(i)
                self._sent[i], self._policy_sent[i] = 0, False
                tasks[i] = ask(i, ray.put(model.policy))
                continue
            self._get_s += time.perf_counter() - t0
            self._sent[i] = len(self.snapshots)
            self._policy_sent[i] = True
            del tasks[i]
        return results  # type: ignore[return-value]

    def _wait_ready(self, i: int, seconds: float = 120.0) -> None:
        """Wait until actor ``i`` (restarting) answers again; its last error after ``seconds``."""
        import ray
        from ray.exceptions import ActorUnavailableError, RayActorError

        end = time.monotonic() + seconds
        while True:
            try:
                ray.get(self.actors[i].ready.remote())
                return
            except (RayActorError, ActorUnavailableError):
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)

    def close(self) -> None:
        """Stop the actors (and the local Ray this collector started)."""
        import ray

        if not ray.is_initialized():
            return
        for a in self.actors:
            ray.kill(a, no_restart=True)
        if self.started:
            ray.shutdown()
