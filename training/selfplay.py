"""Self-play with sb3-contrib's MaskablePPO: one shared network plays every learner seat.

Why not PettingZoo's SB3 tutorial wrapper: it turns the AEC game into one single-agent
stream, so consecutive transitions belong to different seats (and teams), and the final
rewards of the seats that did not move last are lost. Here every seat the learner plays
records its own trajectory of the deal (its bids and cards, in order); when the deal ends
each trajectory's last transition receives that seat's own team reward and is marked
terminal. ``SelfPlayCollector`` plays ``n_tables`` tables at once and batches every
table's learner decision into one forward pass. A table is either pure self-play (all
four seats are the learner) or the learner's team against a frozen opponent drawn from an
``OpponentPool`` (snapshots of the learner, and rule-based tiers). ``SelfPlayPPO``
replaces MaskablePPO's ``collect_rollouts``: it packs whole trajectories into the columns
of the rollout buffer (a trajectory cut at a column's end bootstraps from its next
transition's value, and its remainder starts the next rollout), so SB3's GAE, which only
links transitions inside one trajectory, is exact.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.utils import explained_variance
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from belote_env import GameState, Rules
from belote_env.games import game_of
from belote_env.actions import NUM_ACTIONS, num_actions
from belote_env.cards import NUM_CARDS
from belote_env.driver import seat_reward
from belote_env.observation import OBS_SIZE, action_mask, obs_size
from belote_env.table import NUM_SEATS, SEATS, TEAM_OF, seats_from, table_of
from policies.base import Policy

__all__ = ["SelfPlayCollector", "SelfPlayPPO", "Transition", "StreamSpec", "OpponentPool", "PERFECT_SIZE",
           "encode_perfect", "PerfectCriticPolicy", "encode_observation"]

#: Length of ``encode_perfect``'s block: the hands of relative seats 1..3, then the stock.
PERFECT_SIZE = NUM_CARDS * (NUM_SEATS - 1) + NUM_CARDS


def encode_observation(info, out: np.ndarray) -> np.ndarray:
    """Write ``info``'s observation into ``out`` (float32, ``obs_size(info.rules)``): the
    four-seat ``observation.encode_infoset``, or ``observation.encode_cutthroat`` at two
    and three seats."""
    return game_of(info.rules).encode(info, out)


def encode_perfect(state: GameState, seat: int, out: np.ndarray) -> np.ndarray:
    """The perfect-information critic's extra inputs for ``seat`` (training only).

    Writes float32 ``(PERFECT_SIZE,)`` into ``out``: at ``32 (r - 1) + c`` whether relative
    seat ``r = 1..3`` holds card ``c`` now; at ``96 + c`` whether ``c`` is in the stock
    (while bidding; empty once the cards are dealt). These are hidden cards: they feed only
    the value network during training (PerfectDou's perfect-training-imperfect-execution),
    never the policy, which is all that is exported and played.
    """
    h = state.hands
    stock = 0
    if state.denomination < 0:
        for c in state.stock:
            stock |= 1 << c
    masks = np.array([*(h[s] for s in seats_from(seat)[1:]), stock], dtype="<u4")
    out[:] = np.unpackbits(masks.view(np.uint8), bitorder="little")
    return out


class _SplitExtractor(th.nn.Module):
    """SB3 ``MlpExtractor`` look-alike whose policy MLP reads only the first ``obs_size``
    features and whose value MLP reads all of them (observation + perfect information)."""

    def __init__(self, feature_dim: int, net_arch: dict, activation_fn, obs_size: int):
        super().__init__()
        pi, vf = list(net_arch.get("pi", [])), list(net_arch.get("vf", []))

        def mlp(sizes):
            layers = []
            for a, b in zip(sizes[:-1], sizes[1:]):
                layers += [th.nn.Linear(a, b), activation_fn()]
            return th.nn.Sequential(*layers)

        self.obs_size = obs_size
        self.policy_net = mlp([obs_size] + pi)
        self.value_net = mlp([feature_dim] + vf)
        self.latent_dim_pi = pi[-1] if pi else obs_size
        self.latent_dim_vf = vf[-1] if vf else feature_dim

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return self.policy_net(features[:, :self.obs_size])

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return self.value_net(features)


class PerfectCriticPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy with a perfect-information critic: the input is the observation
    (``obs_size(rules)``: 618 classic, 1141 coinche) followed by ``encode_perfect``
    (``PERFECT_SIZE``); the actor sees the observation only. ``net_arch`` must be a dict
    ``{"pi": [...], "vf": [...]}``."""

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = _SplitExtractor(self.features_dim, self.net_arch, self.activation_fn,
                                             self.features_dim - PERFECT_SIZE)


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
    """A stand-in VecEnv that only declares the spaces and the number of buffer columns;
    ``SelfPlayPPO`` never steps it (its collector plays the tables)."""

    def __init__(self, n_columns: int, obs_size: int = OBS_SIZE, n_actions: int = NUM_ACTIONS):
        obs_space = spaces.Box(0.0, np.inf, (obs_size,), np.float32)
        super().__init__(n_columns, obs_space, spaces.Discrete(n_actions))

    def reset(self):
        return np.zeros((self.num_envs,) + self.observation_space.shape, dtype=np.float32)

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


class OpponentPool:
    """What the learner's team plays against at each table and deal.

    Args:
        weights: ``{"self": w, "snapshots": w, "<tier or model path>": w, ...}``: relative
            frequencies; ``self`` is pure self-play (all four seats learn), ``snapshots``
            a frozen past learner (uniformly among ``snapshots``), anything else a policy
            built with ``policies.make_policy``.
        rng: the pool's ``random.Random``.
        max_snapshots: oldest snapshots are dropped beyond this many.
    """

    def __init__(self, weights: dict[str, float], rng: random.Random, max_snapshots: int = 10):
        from policies import make_policy

        if not weights or any((not isinstance(w, (int, float))) or w < 0 for w in weights.values()) \
                or sum(weights.values()) <= 0:
            raise ValueError(f"opponent weights must be non-negative numbers, not all zero: {weights!r}")
        self.weights = dict(weights)
        self.rng = rng
        self.max_snapshots = max_snapshots
        self.snapshots: list[Policy] = []
        self.fixed = {k: make_policy(k, seed=rng.randrange(1 << 30)) for k in weights if k not in ("self", "snapshots")}

    def add_snapshot(self, policy: Policy) -> None:
        self.snapshots.append(policy)
        del self.snapshots[:-self.max_snapshots]

    def draw(self) -> tuple[str, Policy | None]:
        """``(kind, policy)``: ``("self", None)`` for pure self-play."""
        keys = [k for k in self.weights if k != "snapshots" or self.snapshots]
        x = self.rng.random() * sum(self.weights[k] for k in keys)
        for k in keys:
            x -= self.weights[k]
            if x < 0:
                break
        if k == "self":
            return "self", None
        if k == "snapshots":
            return "snapshot", self.snapshots[self.rng.randrange(len(self.snapshots))]
        return k, self.fixed[k]


class _Tables:
    """The engine side of a collector: tables of single deals, the opponents' moves and the
    deal results; the learner's trajectories live in ``SelfPlayCollector``.

    A deal that ends produces an event ``(table, rewards, stats)``: ``rewards[s]`` is seat
    ``s``'s team point difference / 162 (``belote_env.driver.seat_reward``; 0 for a void deal).
    At two and three seats (``rules.players``) each seat is its own side: the learner plays
    one seat against the opponent in the others, and ``rewards[s]`` is the seat's own
    points less the mean of the others' / 162 (TWO_THREE.md §2.9, §3).
    """

    def __init__(self, rules: Rules, table_rngs: list[random.Random], rng: random.Random,
                 pool: OpponentPool | None, perfect: bool):
        self.rules, self.table_rngs, self.rng, self.pool, self.perfect = rules, table_rngs, rng, pool, perfect
        n = len(table_rngs)
        self.table = table_of(rules.players)
        self.small = not game_of(rules).has_partners
        #: the sides of a table: the two teams, or each seat on its own at two and three seats
        self.n_sides = game_of(rules).sides
        self.side = tuple(self.table.seats) if self.small else TEAM_OF
        self.obs_size = obs_size(rules)
        self.tables: list = []
        self.kind: list[str] = ["self"] * n
        self.opponent: list[Policy | None] = [None] * n
        self.learner_team: list[int] = [0] * n
        for j, r in enumerate(table_rngs):
            self.tables.append(GameState(rules, rng=r, dealer=r.randrange(rules.players), single_deal=True))
            self._draw_opponent(j)

    def _draw_opponent(self, j: int) -> None:
        if self.pool is None:
            self.kind[j], self.opponent[j] = "self", None
        else:
            self.kind[j], self.opponent[j] = self.pool.draw()
        self.learner_team[j] = self.rng.randrange(self.n_sides)

    def _end_deal(self, j: int) -> tuple:
        st = self.tables[j]
        score = st.deal_score
        if self.small:
            rewards = tuple(seat_reward(score, s, rules=self.rules) for s in self.table.seats)
        else:
            rewards = tuple(seat_reward(score, s) for s in SEATS)
        stats = {
            "kind": self.kind[j],
            "void": score is None,
            "made": score is not None and score.outcome == "made",
            "abs_diff": 0 if score is None else abs(score.difference(0)),
            "learner_diff": None if score is None or self.opponent[j] is None else score.difference(self.learner_team[j]),
            "decisions": len(st.actions),
        }
        r = self.table_rngs[j]
        self.tables[j] = GameState(self.rules, rng=r, dealer=self.table.eldest(st.dealer), single_deal=True)
        self._draw_opponent(j)
        return j, rewards, stats

    def observe(self, obs: np.ndarray, masks: np.ndarray) -> tuple[list[int], list[tuple]]:
        """Play the opponents' moves up to a learner decision at every table and encode it
        into ``obs[j]`` / ``masks[j]``. Returns ``(seat to act per table, deal-end events)``."""
        events, seats = [], []
        for j in range(len(self.tables)):
            st = self.tables[j]
            while True:
                if st.is_deal_over:
                    events.append(self._end_deal(j))
                    st = self.tables[j]
                elif self.opponent[j] is None or self.side[st.current] == self.learner_team[j]:
                    break
                else:
                    st.apply(self.opponent[j].act(st.information_set(st.current)))
            info = st.information_set(st.current)
            encode_observation(info, obs[j, :self.obs_size])
            if self.perfect:
                encode_perfect(st, st.current, obs[j, self.obs_size:])
            action_mask(info.legal_actions, masks[j])
            seats.append(st.current)
        return seats, events

    def act(self, actions) -> list[tuple]:
        """Apply the learner's action at every table; returns the deal-end events."""
        events = []
        for j, st in enumerate(self.tables):
            st.apply(int(actions[j]))
            if st.is_deal_over:
                events.append(self._end_deal(j))
        return events

    def add_snapshot(self, policy: Policy) -> None:
        self.pool.add_snapshot(policy)


def _worker(conn, rules, table_rngs, rng, weights, pool_seed, max_snapshots, perfect, width) -> None:
    """A collector worker process: runs a ``_Tables`` for its share of the tables."""
    th.set_num_threads(1)
    from policies.network import BeloteNet, NetworkPolicy

    pool = None if weights is None else OpponentPool(weights, random.Random(pool_seed), max_snapshots)
    tables = _Tables(rules, table_rngs, rng, pool, perfect)
    obs = np.zeros((len(table_rngs), width), dtype=np.float32)
    masks = np.zeros((len(table_rngs), num_actions(rules)), dtype=np.int8)
    while True:
        cmd, arg = conn.recv()
        if cmd == "observe":
            seats, events = tables.observe(obs, masks)
            conn.send((obs, masks, seats, events))
        elif cmd == "act":
            conn.send(tables.act(arg))
        elif cmd == "snapshot":
            state, config, name, seed = arg
            net = BeloteNet(**config)
            net.load_state_dict(state)
            net.eval()
            tables.add_snapshot(NetworkPolicy(net, deterministic=False, seed=seed, name=name))
        else:
            conn.close()
            return


class SelfPlayCollector:
    """Plays ``n_tables`` tables of single deals; the learner's decisions are batched.

    Args:
        rules: rule options (episodes are single deals, ``GameState(..., single_deal=True)``:
            the target and deal limit do not matter).
        n_tables: tables played side by side.
        seed: seeds the tables' decks, dealers and seat assignment (``random.Random``, owned).
        pool: the opponents (``None``: pure self-play everywhere). With ``workers > 1`` it
            only gives the weights and snapshot limit: each worker draws from its own pool
            seeded from ``pool.rng``.
        perfect: append ``encode_perfect`` to each learner observation (for a
            ``PerfectCriticPolicy``).
        workers: processes that play the tables (split evenly; 1: in this process). The
            learner's forward pass stays in this process, batched over every table. The
            games depend on ``seed`` and ``workers`` only.

    Raises ``ValueError`` if ``workers`` is not between 1 and ``n_tables``.
    """

    def __init__(self, rules: Rules, n_tables: int, seed: int, pool: OpponentPool | None = None,
                 perfect: bool = False, workers: int = 1):
        if type(workers) is not int or not 1 <= workers <= n_tables:
            raise ValueError(f"workers must be an int from 1 to n_tables={n_tables}, got {workers!r}")
        if perfect and not game_of(rules).has_partners:
            raise ValueError("the perfect-information critic (perfect_critic) is built for the four-seat game; at "
                             f"players {rules.players} train without it")
        self.rules = rules
        self.n_tables = n_tables
        self.rng = random.Random(seed)
        self.pool = pool
        self.perfect = perfect
        width = obs_size(rules) + (PERFECT_SIZE if perfect else 0)
        table_rngs = [random.Random(self.rng.getrandbits(64)) for _ in range(n_tables)]
        self.seats = table_of(rules.players).seats
        self.traj: list[list[list[Transition]]] = [[[] for _ in self.seats] for _ in range(n_tables)]
        self.episodes: deque[list[Transition]] = deque()
        self.n_ready = 0
        self._obs = np.zeros((n_tables, width), dtype=np.float32)
        self._masks = np.zeros((n_tables, num_actions(rules)), dtype=np.int8)
        self.deal_stats: list[dict] = []
        self._conns: list = []
        self._procs: list = []
        self._slices: list[slice] = []
        if workers == 1:
            self._tables: _Tables | None = _Tables(self.rules, table_rngs, self.rng, pool, perfect)
            return
        import multiprocessing

        self._tables = None
        ctx = multiprocessing.get_context("spawn")  # a fork of a process that ran torch can deadlock
        bounds = [n_tables * w // workers for w in range(workers + 1)]
        for w in range(workers):
            sl = slice(bounds[w], bounds[w + 1])
            parent, child = ctx.Pipe()
            args = (child, self.rules, table_rngs[sl], random.Random(self.rng.getrandbits(64)),
                    None if pool is None else pool.weights, None if pool is None else pool.rng.getrandbits(64),
                    10 if pool is None else pool.max_snapshots, perfect, width)
            proc = ctx.Process(target=_worker, args=args, daemon=True)
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)
            self._slices.append(sl)

    @property
    def tables(self) -> list[GameState]:
        """The tables' game states (in-process collectors only)."""
        if self._tables is None:
            raise RuntimeError("the tables live in the worker processes")
        return self._tables.tables

    def add_snapshot(self, policy) -> None:
        """Add a frozen learner snapshot (a ``policies.network.NetworkPolicy``) to the pool(s)."""
        if self.pool is None:
            raise RuntimeError("this collector has no opponent pool")
        if self._tables is not None:
            self._tables.add_snapshot(policy)
            return
        state = {k: v.detach().clone() for k, v in policy.net.state_dict().items()}
        seed = policy.rng.getrandbits(32)
        for conn in self._conns:
            conn.send(("snapshot", (state, policy.net.config, policy.name, seed)))

    def close(self) -> None:
        """Stop the worker processes (if any)."""
        for conn, proc in zip(self._conns, self._procs):
            try:
                conn.send(("close", None))
            except (BrokenPipeError, OSError):
                pass
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()
        self._conns, self._procs = [], []

    def _finish(self, events: list[tuple]) -> None:
        for j, rewards, stats in events:
            for s in self.seats:
                t = self.traj[j][s]
                if t:
                    t[-1].reward = rewards[s]
                    t[-1].done = True
                    self.episodes.append(t)
                    self.n_ready += len(t)
                self.traj[j][s] = []
            self.deal_stats.append(stats)

    def _observe(self) -> list[int]:
        if self._tables is not None:
            seats, events = self._tables.observe(self._obs, self._masks)
            self._finish(events)
            return seats
        for conn in self._conns:
            conn.send(("observe", None))
        seats = []
        for conn, sl in zip(self._conns, self._slices):
            obs, masks, s, events = conn.recv()
            self._obs[sl], self._masks[sl] = obs, masks
            seats += s
            self._finish([(j + sl.start, r, st) for j, r, st in events])
        return seats

    def _act(self, actions: np.ndarray) -> None:
        if self._tables is not None:
            self._finish(self._tables.act(actions))
            return
        for conn, sl in zip(self._conns, self._slices):
            conn.send(("act", actions[sl]))
        for conn, sl in zip(self._conns, self._slices):
            self._finish([(j + sl.start, r, st) for j, r, st in conn.recv()])

    @th.no_grad()
    def step(self, policy) -> None:
        """One learner decision at every table, chosen by ``policy`` (a MaskableActorCriticPolicy)."""
        seats = self._observe()
        obs_t = th.as_tensor(self._obs, device=policy.device)
        actions, values, log_probs = policy(obs_t, action_masks=self._masks)
        actions = actions.cpu().numpy()
        values = values.cpu().numpy().reshape(-1)
        log_probs = log_probs.cpu().numpy()
        for j, seat in enumerate(seats):
            t = self.traj[j][seat]
            t.append(Transition(self._obs[j].copy(), self._masks[j].astype(bool), int(actions[j]),
                                float(values[j]), float(log_probs[j]), not t))
        self._act(actions)

    def take(self, n_steps: int, n_columns: int) -> tuple[list[list[Transition]], np.ndarray, np.ndarray]:
        """Pack finished trajectories into ``n_columns`` columns of ``n_steps`` transitions.

        Returns ``(columns, last_values, dones)``: per column its transitions, the value to
        bootstrap from after its last transition, and whether that transition ended a deal.
        Raises ``RuntimeError`` when fewer than ``n_steps * n_columns`` are ready.
        """
        if self.n_ready < n_steps * n_columns:
            raise RuntimeError("not enough finished trajectories")
        cols, last_values, dones = [], np.zeros(n_columns, np.float32), np.zeros(n_columns, bool)
        for c in range(n_columns):
            col: list[Transition] = []
            while len(col) < n_steps:
                ep = self.episodes.popleft()
                room = n_steps - len(col)
                if len(ep) <= room:
                    col += ep
                else:
                    col += ep[:room]
                    self.episodes.appendleft(ep[room:])  # the rest continues the trajectory
            self.n_ready -= n_steps
            cols.append(col)
            dones[c] = col[-1].done
            if not dones[c]:
                last_values[c] = self.episodes[0][0].value
        return cols, last_values, dones


def _bf16_inputs(policy) -> bool:
    """True when ``policy``'s observations may go to its ``mlp_extractor`` as bfloat16
    without a features extractor: ``training.vector_selfplay.use_bf16`` wraps the
    extractor in autocast (its first layers cast their input to bfloat16 anyway) and the
    features extractor is SB3's ``FlattenExtractor`` of a flat Box (the identity on a
    batch of rows, after SB3's ``obs.float()``), and both networks start with a linear layer."""
    from stable_baselines3.common.torch_layers import FlattenExtractor

    ex = policy.mlp_extractor  # (with an empty net_pi / net_vf the rounded input would reach a float32 head)
    return (getattr(policy, "bf16_inputs", False) and len(policy.observation_space.shape) == 1
            and all(len(net) > 0 and isinstance(net[0], th.nn.Linear) for net in (ex.policy_net, ex.value_net))
            and type(policy.features_extractor) is FlattenExtractor
            and (policy.share_features_extractor or type(policy.vf_features_extractor) is FlattenExtractor))


class SelfPlayPPO(MaskablePPO):
    """MaskablePPO whose rollouts come from a ``SelfPlayCollector``.

    Construct with ``env=StreamSpec(n_columns)`` and set ``self.collector``.
    """

    collector: SelfPlayCollector

    #: set (by ``training.train``'s ``max_minutes``) to end ``learn`` before the next rollout
    stop_requested: bool = False

    def collect_rollouts(self, env, callback, rollout_buffer, n_rollout_steps: int, use_masking: bool = True) -> bool:
        if self.stop_requested:
            return False
        self.policy.set_training_mode(False)
        callback.on_rollout_start()
        col = self.collector
        if getattr(col, "vectorized", False):  # training.vector_selfplay.VectorCollector
            col.fill_rollout_buffer(self, rollout_buffer, n_rollout_steps)
            self._log_deals(col)
            callback.update_locals(locals())
            if not callback.on_step():
                return False
            callback.on_rollout_end()
            return True
        rollout_buffer.reset()
        n = env.num_envs
        while col.n_ready < n * n_rollout_steps:
            col.step(self.policy)
        columns, last_values, dones = col.take(n_rollout_steps, n)
        for t in range(n_rollout_steps):
            row = [columns[i][t] for i in range(n)]
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
        self._log_deals(col)
        rollout_buffer.compute_returns_and_advantage(last_values=th.as_tensor(last_values), dones=dones)
        callback.update_locals(locals())
        if not callback.on_step():
            return False
        callback.on_rollout_end()
        return True

    def train(self) -> None:
        """One PPO update on the rollout buffer: MaskablePPO's ``train`` (the same losses,
        minibatch order, gradient clipping, ``target_kl`` early stop and logs) computed
        leaner: one masked ``log_softmax`` gives the log-probabilities and the entropy (SB3
        builds three ``Categorical`` distributions per minibatch), and the minibatches are
        gathered from the buffer's arrays without SB3's per-batch copies. A differential
        test holds it equal to ``MaskablePPO.train`` (tests/test_vector_selfplay.py). Raises
        ``ValueError`` when advantages are normalized and the last minibatch would hold one row."""
        self.policy.set_training_mode(True)
        self._update_learning_rate(self.policy.optimizer)
        clip_range = self.clip_range(self._current_progress_remaining)
        clip_range_vf = None if self.clip_range_vf is None else self.clip_range_vf(self._current_progress_remaining)
        rb = self.rollout_buffer
        n_steps, n_envs = rb.buffer_size, rb.n_envs
        n = n_steps * n_envs
        if self.normalize_advantage and n % self.batch_size == 1:
            raise ValueError(f"the rollout's {n} decisions leave a last minibatch of one row (batch_size "
                             f"{self.batch_size}): its advantage cannot be normalized; choose a batch_size "
                             f"that does not leave one row over")
        # (n_steps, n_envs) rows read in SB3's order: its get() swaps to (n_envs, n_steps)
        obs = th.from_numpy(rb.observations.reshape(n, -1))
        policy = self.policy
        direct = _bf16_inputs(policy)
        if direct:  # its first layers read bfloat16 (use_bf16's autocast): cast once, gather half the bytes
            obs = obs.to(th.bfloat16)
        # the mask as an additive bias (0 legal, -1e8 illegal) and a 0/1 factor: torch's
        # masked_fill and where on CPU cost ten times an add, and exp of logits near -1e8
        # takes a slow path, so the entropy's log-probabilities are clamped at -80 (a legal
        # action's p log p below it is under 1e-33, left out)
        legal_all = th.from_numpy(rb.action_masks.reshape(n, -1) > 0).float()
        bias_all = (legal_all - 1.0) * 1e8
        actions = th.from_numpy(rb.actions.reshape(n).astype(np.int64))
        old_values = th.from_numpy(rb.values.reshape(n))
        old_log_prob = th.from_numpy(rb.log_probs.reshape(n))
        advantages_all = th.from_numpy(rb.advantages.reshape(n))
        returns = th.from_numpy(rb.returns.reshape(n))
        params = list(policy.parameters())
        entropy_losses, pg_losses, value_losses, clip_fractions = [], [], [], []
        continue_training = True
        loss = th.zeros(())
        for epoch in range(self.n_epochs):
            approx_kl_divs = []
            perm = np.random.permutation(n)
            if rb.generator_ready:  # SB3's get() already swapped the arrays to its order
                rows = th.from_numpy(perm)
            else:
                rows = th.from_numpy((perm % n_steps) * n_envs + perm // n_steps)
            for start in range(0, n, self.batch_size):
                idx = rows[start:start + self.batch_size]
                features = obs[idx] if direct else policy.extract_features(obs[idx])
                if direct and not policy.share_features_extractor:
                    features = (features, features)
                if policy.share_features_extractor:
                    latent_pi, latent_vf = policy.mlp_extractor(features)
                else:
                    latent_pi = policy.mlp_extractor.forward_actor(features[0])
                    latent_vf = policy.mlp_extractor.forward_critic(features[1])
                values = policy.value_net(latent_vf).flatten()
                logp_all = th.log_softmax(policy.action_net(latent_pi) + bias_all[idx], dim=1)
                log_prob = logp_all.gather(1, actions[idx].unsqueeze(1)).squeeze(1)
                logp_c = logp_all.clamp(min=-80.0)
                entropy = -(logp_c.exp() * logp_c * legal_all[idx]).sum(1)
                advantages = advantages_all[idx]
                if self.normalize_advantage:
                    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
                log_ratio = log_prob - old_log_prob[idx]
                ratio = th.exp(log_ratio)
                policy_loss = -th.min(advantages * ratio,
                                      advantages * th.clamp(ratio, 1 - clip_range, 1 + clip_range)).mean()
                pg_losses.append(policy_loss.item())
                clip_fractions.append(th.mean((th.abs(ratio - 1) > clip_range).float()).item())
                if clip_range_vf is not None:
                    values = old_values[idx] + th.clamp(values - old_values[idx], -clip_range_vf, clip_range_vf)
                value_loss = th.nn.functional.mse_loss(returns[idx], values)
                value_losses.append(value_loss.item())
                entropy_loss = -th.mean(entropy)
                entropy_losses.append(entropy_loss.item())
                loss = policy_loss + self.ent_coef * entropy_loss + self.vf_coef * value_loss
                with th.no_grad():
                    approx_kl_div = th.mean((th.exp(log_ratio) - 1) - log_ratio).numpy()
                    approx_kl_divs.append(approx_kl_div)
                if self.target_kl is not None and approx_kl_div > 1.5 * self.target_kl:
                    continue_training = False
                    break
                policy.optimizer.zero_grad()
                loss.backward()
                th.nn.utils.clip_grad_norm_(params, self.max_grad_norm)
                policy.optimizer.step()
            self._n_updates += 1
            if not continue_training:
                break
        explained_var = explained_variance(rb.values.flatten(), rb.returns.flatten())
        self.logger.record("train/entropy_loss", np.mean(entropy_losses))
        self.logger.record("train/policy_gradient_loss", np.mean(pg_losses))
        self.logger.record("train/value_loss", np.mean(value_losses))
        self.logger.record("train/approx_kl", np.mean(approx_kl_divs))
        self.logger.record("train/clip_fraction", np.mean(clip_fractions))
        self.logger.record("train/loss", loss.item())
        self.logger.record("train/explained_variance", explained_var)
        self.logger.record("train/n_updates", self._n_updates, exclude="tensorboard")
        self.logger.record("train/clip_range", clip_range)
        if clip_range_vf is not None:
            self.logger.record("train/clip_range_vf", clip_range_vf)

    def _log_deals(self, col) -> None:
        """Record the finished deals' statistics (TensorBoard ``charts/``) and clear them."""
        stats, col.deal_stats = col.deal_stats, []
        played = [s for s in stats if not s["void"]]
        if stats:
            self.logger.record("charts/deals", len(stats))
            self.logger.record("charts/void_rate", 1 - len(played) / len(stats))
        if played:
            self.logger.record("charts/made_rate", sum(s["made"] for s in played) / len(played))
            self.logger.record("charts/mean_abs_point_diff", sum(s["abs_diff"] for s in played) / len(played))
            self.logger.record("charts/decisions_per_deal", sum(s["decisions"] for s in played) / len(played))
            for kind in sorted({s["kind"] for s in played if s["learner_diff"] is not None}):
                diffs = [s["learner_diff"] for s in played if s["kind"] == kind]
                self.logger.record(f"charts/train_diff_vs_{kind}", sum(diffs) / len(diffs))
