"""Vector environments: many Belote tables stepped as one batch on the batched engine
(``belote_env.vector.BatchedGame``), for fast self-play and single-learner training.

    from belote_env.vector import BeloteVectorEnv, BeloteGymVectorEnv, BeloteSB3VecEnv
    env = BeloteVectorEnv(1024, seed=0)                 # self-play: every seat's rewards
    obs, info = env.reset()
    obs, rewards, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))

    envs = BeloteGymVectorEnv(64, opponents=None, learner_seat="rotate")   # gymnasium 1.x
    venv = BeloteSB3VecEnv(64, opponents=None)          # stable-baselines3 / MaskablePPO
    sb3_contrib.MaskablePPO("MlpPolicy", venv).learn(100_000)

Each env holds ``num_envs`` tables of one ``BatchedGame``; an episode is one deal (RULES.md
§3-§7, every rule option but the game length: a table's deal is always a single deal, as
``GameState(..., single_deal=True)``). Shared by the three:

* Observation of a seat: ``observation`` layout v1 (``OBS_ENCODER_VERSION = 1``), float32
  ``(618,)``, value for value ``encode_infoset`` of that seat's information set (the
  layout table is in ``belote_env.env``). It reads only what that seat may know (RULES.md
  §11): its own hand, the turned card, the auction, the played cards, announcements,
  declarations and the public constraints; never another seat's hand nor the deck.
* Actions: the flat table of ``belote_env.actions`` (``Discrete(112)``, version 1), one id
  per table; masks are int8 ``(…, 112)`` in infos (1 = legal) and bool from
  ``action_masks()``. An action that is not legal at its table (or out of range) raises
  ``belote_env.IllegalActionError`` (a ``ValueError``) naming the table, the acting seat,
  the id and that seat's legal ids only, before anything is applied (every table is left
  as it was). Actions must be an integer array of shape ``(num_envs,)`` (a list of ints
  is accepted): another dtype raises ``TypeError``, another shape ``ValueError``.
* Rewards (``reward_mode``, as the single-table envs: ``belote_env.driver.point_reward``
  turns a deal's point difference into a reward, RULES.md §7): ``"scaled"`` (default)
  (our deal points - theirs) / 162, ``"points"`` the raw difference, ``"win"`` its sign.
  A void deal (eight passes, RULES.md §3.4) ends the episode with reward 0. Rewards are 0
  except at the step where a deal ends.
* Autoreset: a table whose deal ends starts its next deal within the same ``step``
  (gymnasium's ``AutoresetMode.SAME_STEP``): the returned observation and mask are the
  next deal's; ``terminated`` marks the table; ``truncated`` is always False (a deal
  ends by the rules within 48 decisions). Decks are shuffled from the table's stream. The
  first dealer of a table is drawn from it; then ``BeloteVectorEnv`` passes the deal to
  the next seat (after a void deal as ``all_pass_redeal`` says, RULES.md §3.4), as the
  engine's autoreset does, while the single-learner envs draw each deal's dealer (their
  episodes are independent deals, as ``BeloteGymEnv``'s).
* Seeding: table ``j``'s deals and the engine's random opponents depend on ``(seed, j)``
  only (splitmix64 streams, ``BatchedGame``): the same seed gives the same games in any
  process and any batch size. ``seed`` at construction is used by the first ``reset()``;
  ``reset(seed=s)`` keys every table's stream from ``s``; ``reset()`` without a seed
  continues the streams (new deals). Policies passed as opponents keep their own RNGs.
* Rules: ``rules`` is anything ``belote_env.load_rules`` takes (a ``Rules``, a dict of
  options, a preset name, a YAML path; default ``Rules()``) for a table of four seats: the
  two- and three-player games are refused here (``RuleOptionError``); their batched tables
  are ``vector.BatchedGame``'s (``Game.batched``).
* Coinche (``contract_mode="coinche"``, COINCHE.md, e.g. ``rules="coinche"`` or any
  ``coinche_*`` preset): the sizes below become ``observation.obs_size(rules)``
  (``COINCHE_OBS_SIZE``: the 618 floats, turned-card and bids blocks zero, then the
  auction blocks) and ``actions.num_actions(rules)`` (112, or 412 with a générale or bids
  above 160) wherever 618 and 112 are written; the ``"scaled"`` reward divides by
  ``driver.reward_scale(rules)`` (500 instead of 162); a void deal is four opening passes;
  a deal ends within ``auction.length_bound(rules) + 40`` decisions (the auction, 32
  cards, at most 8 belote / declaration choices).
* Outputs are written into arrays preallocated at construction, then handed out as copies
  (callers such as SB3 keep the previous observation while stepping), except with
  ``BeloteVectorEnv(copy=False)`` which returns its buffers themselves (overwritten by the
  next ``step`` / ``reset``).
* ``env.game`` is the ``BatchedGame`` (every hand: for tests and debugging, never for
  agents).

BeloteVectorEnv(num_envs, rules=None, seed=0, reward_mode="scaled", observe="acting", copy=True)
    Multi-agent self-play (like pgx): at each table the seat to act decides, whoever it is.
    ``reset(seed=None) -> (obs, info)``; ``step(actions) -> (obs, rewards, terminated,
    truncated, info)``.
    observe="acting": ``obs`` float32 ``(n, 618)``, the seat to act's observation;
        ``info["action_mask"]`` int8 ``(n, 112)``, its legal ids.
    observe="all": ``obs`` float32 ``(n, 4, 618)``, every seat's observation (index =
        seat); ``info["action_mask"]`` int8 ``(n, 4, 112)``, the seat to act's legal ids
        in its row and zeros in the three others.
    ``rewards`` float32 ``(n, 4)``: every seat's reward (its team's; zero-sum between the
    teams {0, 2} and {1, 3}), nonzero only where a deal ended. ``terminated`` bool ``(n,)``.
    ``info``: ``"current_seat"`` int64 ``(n,)`` (the seat to act now), ``"action_mask"``,
    and for the deals that ended at this step (``terminated``): ``"deal_points"`` int64
    ``(n, 2)`` (team 0, team 1), ``"outcome"`` int64 ``(n,)`` (an index of
    ``belote_env.vector.OUTCOMES``: made, dedans, litige, void; -1 where no deal ended),
    ``"decisions"`` int64 ``(n,)`` (the deal's number of decisions; 0 elsewhere).
    ``action_masks()``: bool ``(n, 112)``, the seat to act's legal ids.

BeloteGymVectorEnv(num_envs, opponents=None, learner="seat", learner_seat="rotate", rules=None, seed=0,
                   reward_mode="scaled")
    A ``gymnasium.vector.VectorEnv`` where one seat (or one team) learns at every table and
    the other seats are played by ``opponents``, batched across tables: after each of the
    learner's actions the env plays the other seats (one ``act_batch`` call per round of
    moves) until the learner is to act again at every table; so every observation is a
    learner's decision. ``single_observation_space``: ``Box(0, inf, (618,), float32)``;
    ``single_action_space``: ``Discrete(112)``; ``observation_space`` / ``action_space``
    their batches (``MultiDiscrete``). ``metadata["autoreset_mode"]`` is
    ``AutoresetMode.SAME_STEP``.
    learner: ``"seat"`` (one seat learns) or ``"team"`` (both seats of a team; the
        observation is of whichever of them is to act).
    learner_seat: 0..3, or ``"rotate"`` (default: a seat drawn from the table's stream for
        each deal).
    opponents: ``None`` (default: uniformly random legal actions from the tables' own
        streams, ``BatchedGame.random_actions``, in compiled code), a batched policy (an
        object with ``act_batch(batch: SeatBatch) -> int array``, one legal id per row;
        ``belote_env.vector.SeatBatch``), or a seat policy (an object with
        ``act(info) -> id``, or a callable ``f(info) -> id``: ``belote_env.InfoSet`` per
        table, ``SeatBatch.infoset``). Policies named by a tier name are built by
        ``policies`` (``policies.make_policy``); pass the object.
    ``reset(seed=None, options=None) -> (obs, info)``; ``step(actions) -> (obs, rewards,
    terminated, truncated, info)``: ``obs`` float32 ``(n, 618)``, ``rewards`` float64
    ``(n,)`` (the learner's; its team's when an opponent played the deal's last card),
    ``terminated`` / ``truncated`` bool ``(n,)``. ``info`` (gymnasium's dict of arrays,
    each key with its ``_key`` bool mask): ``"action_mask"`` int8 ``(n, 112)`` and
    ``"seat"`` int64 ``(n,)`` (the learner's seat to act); where a deal ended:
    ``info["final_obs"]`` (an object array, the learner's observation of the finished
    deal where ``_final_obs``, else None: ``BeloteGymEnv``'s last observation but for the
    ``scores`` block, 0 here, an episode being one deal, where ``GameState`` has already
    added the deal's points to the game scores) and ``info["final_info"]``, a dict of arrays:
    ``"action_mask"`` (zeros), ``"seat"`` (the learner's seat), ``"deal_points"`` int64
    ``(n, 2)`` (the learner's team, the other team) and ``"outcome"`` (an index of
    ``OUTCOMES``). ``action_masks()``: bool ``(n, 112)``, for sb3-contrib style masking.

BeloteSB3VecEnv(num_envs, opponents=None, learner="seat", learner_seat="rotate", rules=None, seed=0,
                reward_mode="scaled")
    The same tables and learner as ``BeloteGymVectorEnv`` as a stable-baselines3
    ``VecEnv`` (imported when the name is first used: SB3 is the ``train`` extra).
    ``observation_space`` ``Box(0, inf, (618,), float32)``, ``action_space``
    ``Discrete(112)``; ``reset() -> obs``; ``step(actions) -> (obs, rewards float32,
    dones, infos)``: ``infos[i]`` is ``{}`` but where table ``i``'s deal ended:
    ``{"terminal_observation": <the learner's observation of the finished deal>,
    "TimeLimit.truncated": False, "deal_points": (us, them), "outcome": "made" | "dedans"
    | "litige" | "void"}``. ``action_masks()`` and ``env_method("action_masks")`` (one
    bool ``(112,)`` row per table) serve sb3-contrib's ``MaskablePPO``
    (``get_action_masks``). ``seed(s)`` keys the next ``reset()`` (and returns ``[s] *
    num_envs``: table ``j``'s stream is keyed by ``(s, j)``). ``get_attr(name)`` gives the
    env's attribute once per table; ``set_attr`` sets it (for all tables only: they share
    one engine); ``env_method`` serves ``"action_masks"`` per table and otherwise calls the
    env's method once, its result repeated per table; ``env_is_wrapped`` is False per
    table (the tables are not gymnasium envs).

Opponent failures (``BeloteGymVectorEnv``, ``BeloteSB3VecEnv``): an opponent policy that
raises an ``Exception``, or returns anything but a legal id per table it was asked for
(wrong type, dtype, shape, or an illegal id), raises
``belote_env.gym_env.OpponentPolicyError``: its message names the policy, the table and
seat where known, and only the TYPE of what the policy returned or raised, never a
value, a shape, that seat's legal ids or the exception's text (RULES.md §11); the
exception is not chained. A ``BaseException`` (``KeyboardInterrupt``) propagates. Either
way some tables are left mid-way: ``step`` and ``action_masks`` raise ``RuntimeError``
until ``reset()``.

Speed (measured on one core, 1024 tables, random legal actions): ``BeloteVectorEnv``
about 1.0M table steps/s with ``observe="acting"`` (0.35M with ``"all"``: four encodings a
table); ``BeloteGymVectorEnv`` / ``BeloteSB3VecEnv`` about 0.45M learner steps/s with the
default opponents (each learner step also plays about three opponent moves; 0.75M with
``learner="team"``) and 0.3M with a batched-policy opponent. Encoding the observations is
most of the cost; the engine alone steps about 5M tables/s.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..config import check_table, load_rules
from ..driver import REWARD_MODES, point_reward, reward_scale
from ..scoring import TOTAL_POINTS
from ..game import IllegalActionError
from ..gym_env import OpponentPolicyError, _action_id, _describe, _describe_exception
from ..observation import obs_size
from ..table import NUM_SEATS, SEATS, TEAM_OF
from .batch import SeatBatch
from .engine import CUR, MAX_TABLES, OUTCOMES, PH, PHASE_OVER, BatchedGame, random_actions, step_kernel
from .kernels import below
from .observation import encode_all_kernel, encode_kernel, encode_tables_kernel

__all__ = ["BeloteVectorEnv", "BeloteGymVectorEnv", "BeloteSB3VecEnv", "OBSERVE_MODES", "LEARNERS"]

#: what ``BeloteVectorEnv`` observes: the seat to act, or every seat
OBSERVE_MODES = ("acting", "all")
#: who learns in ``BeloteGymVectorEnv`` / ``BeloteSB3VecEnv``
LEARNERS = ("seat", "team")

_TEAM = np.array(TEAM_OF, dtype=np.int64)
_SIGN = np.array([1.0 if TEAM_OF[s] == 0 else -1.0 for s in SEATS], dtype=np.float64)  # team 0's view per seat


def _observation_space(rules) -> spaces.Box:
    return spaces.Box(0.0, np.inf, (obs_size(rules),), np.float32)


def _check_choice(name: str, value: Any, allowed: tuple) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


def _check_num_envs(num_envs: Any) -> int:
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive int (number of tables), got {num_envs!r}")
    if num_envs > MAX_TABLES:
        raise ValueError(f"num_envs must be at most MAX_TABLES ({MAX_TABLES:,} tables), got {int(num_envs):,}")
    return int(num_envs)


def _four_seat_rules(rules: Any, who: str):
    """``load_rules(rules)``, refused with a ``RuleOptionError`` naming ``who`` unless it is
    a four-seat game (these envs step ``BatchedGame``)."""
    return check_table(load_rules(rules), (4,), who, "the two- and three-player games: belote_v0.env(rules=...) "
                       "or gymnasium.make('Belote-v0', rules=...)")


def _check_seed(seed: Any, none_ok: bool = True) -> None:
    if seed is None and not none_ok:
        raise ValueError("seed must be an int in 0..2**63-1 at construction (table j's stream is keyed by "
                         "(seed, j)); reset(seed=None) continues the streams")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or not 0 <= seed < 2 ** 63):
        raise ValueError(f"seed must be None or an int in 0..2**63-1 (table j's stream is keyed by (seed, j)), "
                         f"got {seed!r}")


def point_rewards(diffs: np.ndarray, mode: str, scale: int = TOTAL_POINTS) -> np.ndarray:
    """``driver.point_reward`` of each point difference (the one place a difference is
    scaled, RULES.md §7; ``scale`` is ``driver.reward_scale(rules)``: 162, or 500 in
    coinche): float64 of ``diffs``' shape. Raises ``ValueError`` for an unknown ``mode``."""
    diffs = np.asarray(diffs)  # (a three-seat difference, own less the others' mean, may be a half point)
    return np.array([point_reward(d, mode, scale) for d in diffs.ravel().tolist()],
                    dtype=np.float64).reshape(diffs.shape)


def _table_actions(actions: Any, game: BatchedGame, rows: np.ndarray) -> np.ndarray:
    """``actions`` as int64 ``(n,)``, each legal at its table; raises ``TypeError`` (not an
    integer array), ``ValueError`` (shape) or ``IllegalActionError`` (naming the table, its
    seat to act, the id and that seat's legal ids), before anything is applied."""
    n = game.n
    try:
        a = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
    except Exception:
        a = None
    if a is None or a.dtype.kind not in "iu":
        what = f"an array of dtype {a.dtype}" if a is not None else f"a {type(actions).__name__}"
        raise TypeError(f"actions must be an integer array of shape ({n},), one action id per table; got {what}")
    if a.shape != (n,):
        raise ValueError(f"actions must be an integer array of shape ({n},), one action id per table; got shape "
                         f"{a.shape}")
    inr = (a >= 0) & (a < game.n_actions)  # before the cast: a uint64 id is named as given
    ok = inr & (game.mask[rows, np.where(inr, a, 0).astype(np.int64)] != 0)
    if not ok.all():
        j = int(np.argmin(ok))
        seat = int(game.current[j])
        legal = np.flatnonzero(game.mask[j]).tolist()
        raise IllegalActionError(f"illegal action {int(a[j])} at table {j} by seat {seat}; legal ids: {legal}",
                                 int(a[j]), seat, legal)
    return a.astype(np.int64, copy=False)


# ------------------------------------------------------------------ kernels
@nb.njit(cache=True)
def _step_tables(S, deck, bids, rng, mask, opts, points, done, rewards, result, layout, tabs, tables, acts):
    """Apply ``acts[i]`` at table ``tables[i]`` only (the engine's ``step_kernel`` on that
    table's rows, no autoreset); the other tables are left as they are. Returns -1, or the
    first ``i`` whose action is illegal (not applied, nor the later ones)."""
    a1 = np.empty(1, dtype=np.int64)
    for i in range(tables.shape[0]):
        j = tables[i]
        a1[0] = acts[i]
        if step_kernel(S[j:j + 1], deck[j:j + 1], bids[j:j + 1], rng[j:j + 1], mask[j:j + 1], a1, opts, points,
                       done[j:j + 1], rewards[j:j + 1], result[j:j + 1], False, layout, tabs) >= 0:
            return i
    return -1


@nb.njit(cache=True)
def _advance_random(S, deck, bids, rng, mask, opts, points, done, rewards, result, layout, tabs, first, team, ended):
    """At every table, play uniformly random legal actions (the table's own stream,
    ``engine.random_actions``) for the seats that do not learn, until a learner's seat is to
    act or the deal ends (``ended[j]`` set)."""
    a1 = np.empty(1, dtype=np.int64)
    for j in range(S.shape[0]):
        f = first[j]
        while S[j, PH] != PHASE_OVER:
            cur = S[j, CUR]
            if cur == f or (team and _TEAM[cur] == _TEAM[f]):
                break
            random_actions(mask[j:j + 1], rng[j:j + 1], a1)
            step_kernel(S[j:j + 1], deck[j:j + 1], bids[j:j + 1], rng[j:j + 1], mask[j:j + 1], a1, opts, points,
                        done[j:j + 1], rewards[j:j + 1], result[j:j + 1], False, layout, tabs)
            if done[j]:
                ended[j] = True


@nb.njit(cache=True)
def _draw_seats(rng, tables, first):
    """A learner seat 0..3 for each of ``tables``, from the table's stream."""
    for i in range(tables.shape[0]):
        j = tables[i]
        first[j] = below(rng, j, 4)


# ------------------------------------------------------------------ opponents
class _Opponents:
    """The policy of the seats that do not learn, asked for one action per table."""

    def __init__(self, spec: Any):
        if isinstance(spec, str):
            raise ValueError(f"opponents: a policy named {spec!r} is built by policies (policies.make_policy); pass "
                             "the policy object")
        if spec is None:
            self.kind = "random"
        elif callable(getattr(spec, "act_batch", None)):
            self.kind = "batch"
        elif callable(getattr(spec, "act", None)):
            self.kind, self._act = "seat", spec.act
        elif callable(spec):
            self.kind, self._act = "seat", spec
        else:
            raise ValueError("opponents must be None (random legal actions), a batched policy (act_batch(SeatBatch) "
                             f"-> int array), a Policy (act(info) -> id) or a callable(info) -> id; got "
                             f"{type(spec).__name__}")
        self.spec = spec
        name = getattr(spec, "name", None)
        self.name = "random" if spec is None else name if isinstance(name, str) else getattr(
            spec, "__qualname__", type(spec).__name__)

    def _fail(self, what: str, table: int | None, seat: int | None) -> OpponentPolicyError:
        where = f"opponent policy {self.name!r}" + ("" if table is None else f" at table {table}, seat {seat}")
        return OpponentPolicyError(f"{where} {what} (RULES.md §11: what it returned or raised is not shown, it "
                                   "could reveal that seat's hidden cards); the episodes are over, call reset()",
                                   seat, self.name)

    def actions(self, game: BatchedGame, tables: np.ndarray) -> np.ndarray:
        """A checked legal action for the seat to act at each of ``tables``."""
        batch = SeatBatch(game, tables)
        if self.kind == "seat":
            return self._per_seat(batch)
        raised = None
        try:
            out = self.spec.act_batch(batch)
        except Exception as e:
            raised = _describe_exception(e)
            del e
        if raised is not None:
            raise self._fail(f"raised {raised}", None, None)
        try:
            a = out if isinstance(out, np.ndarray) else np.asarray(out)
            ok = a.dtype.kind in "iu" and a.shape == (len(tables),)
        except Exception:
            ok = False
        if not ok:
            raise self._fail(f"returned {_describe(out)}, which is not an integer array with one action id per row "
                             "of its SeatBatch", None, None)
        a = a.astype(np.int64)
        inr = (a >= 0) & (a < batch.mask.shape[1])
        legal = inr & (batch.mask[np.arange(len(tables)), np.where(inr, a, 0)] != 0)
        if not legal.all():
            i = int(np.argmin(legal))
            raise self._fail("returned an action that is not one of its legal ids", int(tables[i]),
                             int(batch.seats[i]))
        return a

    def _per_seat(self, batch: SeatBatch) -> np.ndarray:
        out = np.empty(len(batch), dtype=np.int64)
        for i in range(len(batch)):
            info = batch.infoset(i)
            raised = None
            try:
                action = self._act(info)
            except Exception as e:
                raised = _describe_exception(e)
                del e
            table, seat = int(batch.tables[i]), int(batch.seats[i])
            if raised is not None:
                raise self._fail(f"raised {raised}", table, seat)
            try:
                a = _action_id(action)
                legal = a in info.legal_actions
            except Exception:
                legal = False
            if not legal:
                raise self._fail(f"returned {_describe(action)}, which is not one of its legal action ids", table,
                                 seat)
            out[i] = a
        return out


# ------------------------------------------------------------------ the single-learner core
class _LearnerTables:
    """The machinery of ``BeloteGymVectorEnv`` and ``BeloteSB3VecEnv``: ``n`` tables where
    one seat (or team) learns, the others are played by ``opponents`` until the learner is
    to act at every table. Results are written into preallocated arrays."""

    def __init__(self, num_envs: int, opponents: Any, learner: str, learner_seat: int | str, rules: Any, seed: int,
                 reward_mode: str, who: str = "BeloteGymVectorEnv"):
        n = _check_num_envs(num_envs)
        _check_choice("learner", learner, LEARNERS)
        _check_choice("reward_mode", reward_mode, REWARD_MODES)
        if not (learner_seat == "rotate" if isinstance(learner_seat, str) else
                isinstance(learner_seat, (int, np.integer)) and not isinstance(learner_seat, bool)
                and learner_seat in SEATS):
            raise ValueError(f"learner_seat must be a seat 0..{NUM_SEATS - 1} or 'rotate', got {learner_seat!r}")
        _check_seed(seed, none_ok=False)
        self.opponents = _Opponents(opponents)
        self.learner, self.learner_seat, self.reward_mode = learner, learner_seat, reward_mode
        self.team = learner == "team"
        self.game = BatchedGame(n, _four_seat_rules(rules, who), seed=seed, autoreset=False)
        self.n = n
        self._rows = np.arange(n)
        self._to_act = np.full(n, -1, dtype=np.int64)
        self.first = np.zeros(n, dtype=np.int64)  # the learner's seat (the first of its team's)
        self.obs_size = obs_size(self.game.rules)
        self.scale = reward_scale(self.game.rules)  # the "scaled" reward's divisor (driver.reward_scale)
        self.obs = np.zeros((n, self.obs_size), dtype=np.float32)
        self.rewards = np.zeros(n, dtype=np.float64)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.ended = np.zeros(n, dtype=np.bool_)
        self.final_tables = np.zeros(0, dtype=np.int64)  # the tables whose deal ended at the last step
        self.final_obs = np.zeros((0, self.obs_size), dtype=np.float32)
        self.final_seat = np.zeros(0, dtype=np.int64)
        self.final_points = np.zeros((0, 2), dtype=np.int64)  # learner's team, the other
        self.final_outcome = np.zeros(0, dtype=np.int64)
        self._pending_seed: int | None = int(seed)
        self.ready = False  # reset() done and the opponents' moves completed

    # ----------------------------------------------------------- playing
    def _learner_to_act(self) -> np.ndarray:
        cur = self.game.current
        return _TEAM[cur] == _TEAM[self.first] if self.team else cur == self.first

    def _advance(self) -> None:
        """Play the opponents at every table until a learner's seat is to act or the deal
        ends (``self.ended``)."""
        g = self.game
        if self.opponents.kind == "random":
            _advance_random(g.state, g.deck, g.bids, g.rng, g.mask, g.opts, g.points, g.done, g.rewards, g.result,
                            g.layout, g.combinations, self.first, self.team, self.ended)
            return
        while True:
            tables = np.flatnonzero((g.state[:, PH] != PHASE_OVER) & ~self._learner_to_act())
            if not len(tables):
                return
            acts = self.opponents.actions(g, tables)
            bad = _step_tables(g.state, g.deck, g.bids, g.rng, g.mask, g.opts, g.points, g.done, g.rewards, g.result,
                               g.layout, g.combinations, tables, acts)
            assert bad < 0  # the actions were checked
            self.ended[tables] |= g.done[tables]

    def _new_episodes(self, tables: np.ndarray) -> None:
        """Start the next deal at ``tables`` (a new learner seat with ``"rotate"``) and play
        the opponents until the learner is to act. A deal over before its learner acted is
        dealt again (it cannot happen: every seat bids in round 1, RULES.md §3.2)."""
        g = self.game
        while len(tables):
            g.reset(tables=tables)
            if self.learner_seat == "rotate":
                _draw_seats(g.rng, tables, self.first)
            self.ended[:] = False
            self._advance()
            tables = np.flatnonzero(self.ended)

    def _encode(self) -> None:
        g = self.game
        encode_kernel(g.state, g.bids, g.mask, g.points, self._to_act, self.obs)

    def reset(self, seed: int | None = None) -> None:
        _check_seed(seed)
        if seed is None:
            seed = self._pending_seed
        self._pending_seed = None
        g = self.game
        self.ready = False
        if seed is not None:
            g.reset(seed=int(seed), tables=np.zeros(0, dtype=np.int64))  # keys the streams, deals nothing
        if self.learner_seat != "rotate":
            self.first[:] = self.learner_seat
        self._new_episodes(self._rows)
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.final_tables = np.zeros(0, dtype=np.int64)
        self._encode()
        self.ready = True

    def check_ready(self, what: str) -> None:
        if not self.ready:
            raise RuntimeError(f"call reset() before {what} (at construction, or after an opponent policy failed or "
                               "was interrupted: some tables were left mid-way)")

    def step(self, actions: Any) -> None:
        self.check_ready("step()")
        g = self.game
        a = _table_actions(actions, g, self._rows)
        self.ready = False  # until the opponents' moves are done
        g.step(a)
        self.ended[:] = g.done
        self._advance()
        tables = np.flatnonzero(self.ended)
        self.terminated[:] = self.ended
        self.rewards[:] = 0.0
        if len(tables):
            seats = self.first[tables]
            self.rewards[tables] = point_rewards(g.rewards[tables, seats], self.reward_mode, self.scale)
            self.final_obs = np.empty((len(tables), self.obs_size), dtype=np.float32)
            encode_tables_kernel(g.state, g.bids, g.mask, g.points, tables, seats, self.final_obs)
            res = g.result[tables]
            us = _TEAM[seats]
            self.final_points = np.stack([np.where(us == 0, res[:, 0], res[:, 1]),
                                          np.where(us == 0, res[:, 1], res[:, 0])], axis=1)
            self.final_outcome = res[:, 2].copy()
            self.final_seat = seats
            self._new_episodes(tables)
        self.final_tables = tables
        self._encode()
        self.ready = True

    def action_masks(self) -> np.ndarray:
        self.check_ready("action_masks()")
        return self.game.mask.astype(np.bool_)


def _learner_repr(env) -> str:
    c = env._core
    return (f"{type(env).__name__}(num_envs={c.n}, opponents={c.opponents.name!r}, learner={c.learner!r}, "
            f"learner_seat={c.learner_seat!r}, reward_mode={c.reward_mode!r})")


# ------------------------------------------------------------------ multi-agent self-play
class BeloteVectorEnv:
    """Batched multi-agent Belote for self-play (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, rules: Any = None, seed: int = 0, reward_mode: str = "scaled",
                 observe: str = "acting", copy: bool = True):
        n = _check_num_envs(num_envs)
        _check_choice("reward_mode", reward_mode, REWARD_MODES)
        _check_choice("observe", observe, OBSERVE_MODES)
        _check_seed(seed, none_ok=False)
        self.num_envs, self.reward_mode, self.observe, self.copy = n, reward_mode, observe, bool(copy)
        self.game = BatchedGame(n, _four_seat_rules(rules, "BeloteVectorEnv"), seed=seed, autoreset=True)
        self.rules = self.game.rules
        self.single_observation_space = _observation_space(self.rules)
        self.single_action_space = spaces.Discrete(self.game.n_actions)
        self._scale = reward_scale(self.rules)  # the "scaled" reward's divisor (driver.reward_scale)
        self._rows = np.arange(n)
        self._to_act = np.full(n, -1, dtype=np.int64)
        size, width = obs_size(self.rules), self.game.n_actions
        if observe == "all":
            self._obs = np.zeros((n, NUM_SEATS, size), dtype=np.float32)
            self._mask = np.zeros((n, NUM_SEATS, width), dtype=np.int8)
        else:
            self._obs = np.zeros((n, size), dtype=np.float32)
            self._mask = np.zeros((n, width), dtype=np.int8)
        self._rewards = np.zeros((n, NUM_SEATS), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._info = {"current_seat": np.zeros(n, dtype=np.int64), "action_mask": self._mask,
                      "deal_points": np.zeros((n, 2), dtype=np.int64), "outcome": np.full(n, -1, dtype=np.int64),
                      "decisions": np.zeros(n, dtype=np.int64)}
        self._pending_seed: int | None = int(seed)
        self._ready = False

    def __repr__(self) -> str:
        return f"BeloteVectorEnv(num_envs={self.num_envs}, observe={self.observe!r}, reward_mode={self.reward_mode!r})"

    def _observe(self) -> None:
        g = self.game
        if self.observe == "all":
            encode_all_kernel(g.state, g.bids, g.mask, g.points, self._obs)
            self._mask[:] = 0
            self._mask[self._rows, g.current] = g.mask
        else:
            encode_kernel(g.state, g.bids, g.mask, g.points, self._to_act, self._obs)
            self._mask[:] = g.mask
        self._info["current_seat"][:] = g.current

    def _out(self, x):
        if not self.copy:
            return x
        if isinstance(x, dict):
            return {k: v.copy() for k, v in x.items()}
        return x.copy()

    def reset(self, seed: int | None = None):
        """Start a new deal at every table; returns ``(obs, info)``. ``seed`` keys every
        table's stream (default: the constructor's seed the first time, then the streams
        continue)."""
        _check_seed(seed)
        if seed is None:
            seed = self._pending_seed
        self._pending_seed = None
        self.game.reset(seed=None if seed is None else int(seed))
        self._rewards[:] = 0.0
        self._terminated[:] = False
        info = self._info
        info["deal_points"][:] = 0
        info["outcome"][:] = -1
        info["decisions"][:] = 0
        self._observe()
        self._ready = True
        return self._out(self._obs), self._out(info)

    def step(self, actions):
        """One action per table, by its seat to act; returns ``(obs, rewards, terminated,
        truncated, info)`` (see the module docstring)."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        g = self.game
        a = _table_actions(actions, g, self._rows)
        g.step(a)
        done = g.done
        self._terminated[:] = done
        self._rewards[:] = 0.0
        info = self._info
        info["deal_points"][:] = 0
        info["outcome"][:] = -1
        info["decisions"][:] = 0
        if done.any():
            tables = np.flatnonzero(done)
            r0 = point_rewards(g.rewards[tables, 0], self.reward_mode, self._scale)  # seat 0's team (team 0)
            self._rewards[tables] = r0[:, None] * _SIGN[None, :]
            res = g.result[tables]
            info["deal_points"][tables] = res[:, :2]
            info["outcome"][tables] = res[:, 2]
            info["decisions"][tables] = res[:, 3]
        self._observe()
        return (self._out(self._obs), self._out(self._rewards), self._out(self._terminated),
                self._out(self._truncated), self._out(info))

    def action_masks(self) -> np.ndarray:
        """bool ``(num_envs, 112)``: the legal ids of each table's seat to act."""
        return self.game.mask.astype(np.bool_)

    def close(self) -> None:
        """Nothing to release (one process, numpy arrays)."""


# ------------------------------------------------------------------ gymnasium face
class BeloteGymVectorEnv(VectorEnv):
    """One seat (or team) learns at ``num_envs`` tables: a ``gymnasium.vector.VectorEnv``
    with same-step autoreset (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, opponents: Any = None, learner: str = "seat",
                 learner_seat: int | str = "rotate", rules: Any = None, seed: int = 0, reward_mode: str = "scaled"):
        self._core = _LearnerTables(num_envs, opponents, learner, learner_seat, rules, seed, reward_mode)
        n = self.num_envs = self._core.n
        self.game = self._core.game
        self.rules = self.game.rules
        self.single_observation_space = _observation_space(self.rules)
        self.single_action_space = spaces.Discrete(self.game.n_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._all = np.ones(n, dtype=np.bool_)

    def __repr__(self) -> str:
        return _learner_repr(self)

    def _info(self) -> dict[str, Any]:
        c = self._core
        return {"action_mask": c.game.mask.copy(), "_action_mask": self._all.copy(),
                "seat": c.game.current.copy(), "_seat": self._all.copy()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new deal at every table; ``seed`` (an int) keys the tables' streams."""
        _check_seed(seed)
        super().reset(seed=None if seed is None else int(seed))
        self._core.reset(seed)
        return self._core.obs.copy(), self._info()

    def step(self, actions):
        c = self._core
        c.step(actions)
        info = self._info()
        tables = c.final_tables
        if len(tables):
            n = self.num_envs
            mask = c.terminated.copy()
            final_obs = np.full(n, None, dtype=object)
            for k, j in enumerate(tables.tolist()):
                final_obs[j] = c.final_obs[k]
            seat = np.zeros(n, dtype=np.int64)
            seat[tables] = c.final_seat
            points = np.zeros((n, 2), dtype=np.int64)
            points[tables] = c.final_points
            outcome = np.zeros(n, dtype=np.int64)
            outcome[tables] = c.final_outcome
            info["final_obs"], info["_final_obs"] = final_obs, mask
            info["final_info"] = {"action_mask": np.zeros((n, c.game.n_actions), dtype=np.int8), "_action_mask": mask.copy(),
                                  "seat": seat, "_seat": mask.copy(), "deal_points": points,
                                  "_deal_points": mask.copy(), "outcome": outcome, "_outcome": mask.copy()}
            info["_final_info"] = mask.copy()
        return c.obs.copy(), c.rewards.copy(), c.terminated.copy(), np.zeros(self.num_envs, dtype=np.bool_), info

    def action_masks(self) -> np.ndarray:
        """bool ``(num_envs, 112)``: the learner's legal ids at each table. Raises
        ``RuntimeError`` before ``reset()`` and after an opponent policy failed."""
        return self._core.action_masks()


# ------------------------------------------------------------------ stable-baselines3 face
_SB3_CLASS = None


def _sb3_class():
    """``BeloteSB3VecEnv``, built on first use (stable-baselines3 is an optional dependency)."""
    global _SB3_CLASS
    if _SB3_CLASS is not None:
        return _SB3_CLASS
    from stable_baselines3.common.vec_env import VecEnv

    class BeloteSB3VecEnv(VecEnv):
        """One seat (or team) learns at ``num_envs`` tables: a stable-baselines3 ``VecEnv``
        (see ``belote_env.vector.envs``' docstring)."""

        def __init__(self, num_envs: int, opponents: Any = None, learner: str = "seat",
                     learner_seat: int | str = "rotate", rules: Any = None, seed: int = 0,
                     reward_mode: str = "scaled"):
            self._core = _LearnerTables(num_envs, opponents, learner, learner_seat, rules, seed, reward_mode,
                                        "BeloteSB3VecEnv")
            self.game = self._core.game
            self.rules = self.game.rules
            self.render_mode = None
            super().__init__(self._core.n, _observation_space(self.rules), spaces.Discrete(self.game.n_actions))
            self._actions = None

        def __repr__(self) -> str:
            return _learner_repr(self)

        def reset(self):
            self._core.reset(None)  # the seed of seed() or of the constructor, once
            self.reset_infos = [{} for _ in range(self.num_envs)]
            return self._core.obs.copy()

        def step_async(self, actions) -> None:
            self._actions = actions

        def step_wait(self):
            c = self._core
            actions, self._actions = self._actions, None
            if actions is None:
                raise RuntimeError("call step_async(actions) before step_wait()")
            c.step(actions)
            infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
            for k, j in enumerate(c.final_tables.tolist()):
                us, them = c.final_points[k].tolist()
                infos[j] = {"terminal_observation": c.final_obs[k], "TimeLimit.truncated": False,
                            "deal_points": (us, them), "outcome": OUTCOMES[int(c.final_outcome[k])]}
            return c.obs.copy(), c.rewards.astype(np.float32), c.terminated.copy(), infos

        def seed(self, seed: int | None = None) -> list[int | None]:
            """Key the next ``reset()`` from ``seed`` (None: a random one); returns it per table."""
            if seed is None:
                seed = int(np.random.randint(0, np.iinfo(np.uint32).max, dtype=np.uint32))
            _check_seed(seed)
            self._core._pending_seed = int(seed)
            return [int(seed)] * self.num_envs

        def close(self) -> None:
            """Nothing to release (one process, numpy arrays)."""

        def action_masks(self) -> np.ndarray:
            """bool ``(num_envs, 112)``: the learner's legal ids at each table."""
            return self._core.action_masks()

        def _get_indices(self, indices) -> list[int]:
            """SB3's table indices (None: every table; an int; an iterable of ints; a negative
            one counts from the end, as a list's), each checked: ``IndexError`` naming one
            outside -num_envs..num_envs-1 (``DummyVecEnv`` raises it too), or a bool."""
            idx = list(super()._get_indices(indices))
            n = self.num_envs
            for i in idx:
                if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not -n <= i < n:
                    raise IndexError(f"table index {i!r:.40} is not one of -{n}..{n - 1}")
            return [int(i) % n for i in idx]

        def get_attr(self, attr_name: str, indices=None) -> list[Any]:
            value = getattr(self, attr_name)
            return [value for _ in self._get_indices(indices)]

        def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
            idx = list(self._get_indices(indices))
            if sorted(idx) != list(range(self.num_envs)):
                raise ValueError(f"set_attr({attr_name!r}) sets the attribute of every table (they share one engine); "
                                 f"indices must be None or all of 0..{self.num_envs - 1}")
            setattr(self, attr_name, value)

        def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
            idx = list(self._get_indices(indices))
            if method_name == "action_masks":
                masks = self.action_masks(*method_args, **method_kwargs)
                return [masks[i] for i in idx]
            result = getattr(self, method_name)(*method_args, **method_kwargs)
            return [result for _ in idx]

        def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
            return [False for _ in self._get_indices(indices)]

    BeloteSB3VecEnv.__module__ = __name__
    BeloteSB3VecEnv.__qualname__ = "BeloteSB3VecEnv"
    _SB3_CLASS = BeloteSB3VecEnv
    return BeloteSB3VecEnv


def __getattr__(name: str):
    if name == "BeloteSB3VecEnv":
        return _sb3_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
