"""Self-play collection on the batched engine (``belote_env.vector``).

``VectorCollector`` plays ``n_tables`` tables of single deals in one ``BatchedGame``. At
each step every table's seat to act decides: the learner's seats in one forward pass of
the learner's policy, each opponent in one ``act_batch`` call per policy
(``policies.batch``). Every learner decision is written into flat preallocated arrays
(observation, mask, action, value, log-probability); when a table's deal ends, its
decisions get their advantages and returns by GAE over each seat's own trajectory (the
seat's team reward at its last decision, RULES.md §7), in compiled code. A void deal
(eight passes, RULES.md §3.4) ends no trajectory: the table is redealt and the seats'
trajectories go on into the redeal, as the game goes on (a deal episode of the envs ends
there with reward 0, which self-play learns to exploit: four seats that always pass). ``take(n)`` hands the oldest ``n`` finished decisions to the PPO update, already
carrying their advantages, so SB3's rollout buffer is filled directly
(``SelfPlayPPO.collect_rollouts``); decisions of deals still in play stay for the next
rollout.

A table is pure self-play (all four seats learn) or the learner's team against a frozen
opponent drawn from an ``OpponentPool`` for each deal, as in ``training.selfplay``.

The two- and three-player games (TWO_THREE.md) are played the same way on the batched
engine of their table (``games.Game.batched``: ``vector.cutthroat.CutthroatBatchedGame``), whose
``encode_rows`` encodes the observations: each seat is its own side (the learner plays one seat
against the opponent in the others, or every seat in pure self-play) and a seat's reward
is its own points less the mean of the others' (TWO_THREE.md §2.9, §3;
``driver.seat_reward``); void deals and redeals go on into the next deal like a four-seat
void deal.
"""

from __future__ import annotations

import copy
import random

import numba as nb
import numpy as np
import torch as th

from belote_env import Rules
from belote_env.games import game_of
from belote_env.actions import NUM_ACTIONS, num_actions
from belote_env.cards import NUM_CARDS
from belote_env.dealing import TURNED_AT
from belote_env.driver import point_reward, reward_scale
from belote_env.observation import obs_size
from belote_env.table import NUM_SEATS, SEATS, TEAM_OF, seats_from
from belote_env.vector import COL, OUTCOMES, BatchedGame, SeatBatch
from belote_env.vector.envs import point_rewards
from belote_env.vector.cutthroat import CUTTHROAT_OUTCOMES

from .selfplay import PERFECT_SIZE

__all__ = ["VectorCollector", "BidLearner", "use_bf16", "bf16_supported", "policy_step", "encode_perfect_batch", "fill_rollout_buffer", "MAX_DEAL_DECISIONS"]

#: decisions one four-seat deal can hold: 8 bids, 32 cards, a declaration and an announcement per seat
MAX_DEAL_DECISIONS = 8 + 32 + 2 * NUM_SEATS
#: a trajectory's pending decisions are capped at ``MAX_VOIDS`` void deals' bound plus a
#: played deal's (``_deal_bounds``): 15 void deals in a row at four seats, about 35 of the
#: shortest at two and three; a void deal past the cap ends the trajectory (reward 0)
MAX_VOIDS = 16
_TEAM = np.array(TEAM_OF, dtype=np.int64)


def _deal_bounds(game) -> tuple[int, int]:
    """``(decisions of a played deal, decisions of a void deal or redeal)``, upper bounds
    for ``game``'s table: four seats ``MAX_DEAL_DECISIONS`` and 8 passes; two and three
    seats the auction's bound (``auction.proposal_length_bound``), every card, and per seat
    the exchange, declarations, answers and the belote announcement."""
    if game_of(game.rules).has_partners:
        return MAX_DEAL_DECISIONS, 8
    return game.auction_bound + NUM_CARDS + 8 * game.players, game.auction_bound + 2 * game.players
_AFTER = np.array([seats_from(seat) for seat in SEATS], dtype=np.int64)  # [seat, r]: r places after it
_SELF = -1  # kind of a pure self-play table


def encode_perfect_batch(game: BatchedGame, tables: np.ndarray, seats: np.ndarray, out: np.ndarray) -> None:
    """The perfect-information critic's inputs (``training.selfplay.encode_perfect``) for
    seat ``seats[i]`` at table ``tables[i]``, into float32 ``out`` ``(m, PERFECT_SIZE)``:
    the hands of relative seats 1..3, then the stock while bidding (classic; coinche has
    none, COINCHE.md §2). Training only: these
    are hidden cards, fed to the value network, never to the policy."""
    s = game.state
    masks = np.empty((len(tables), NUM_SEATS), dtype="<u4")
    for r in range(1, NUM_SEATS):
        masks[:, r - 1] = s[tables, COL["hand0"] + _AFTER[seats, r]]
    bidding = s[tables, COL["denomination"]] < 0
    if game.rules.contract_mode == "coinche":  # every card is dealt at once: no stock (COINCHE.md §2)
        bidding[:] = False
    stock = np.zeros(len(tables), dtype=np.int64)
    if bidding.any():
        d = game.deck[tables[bidding], TURNED_AT + 1:]
        stock[bidding] = np.bitwise_or.reduce(np.left_shift(1, d), axis=1)
    masks[:, 3] = stock
    out[:] = np.unpackbits(masks.view(np.uint8), axis=1, bitorder="little")


@nb.njit(cache=True)
def _record(pend, pend_len, tables, first):
    for i in range(tables.shape[0]):
        j = tables[i]
        pend[j, pend_len[j]] = first + i
        pend_len[j] += 1


@nb.njit(cache=True)
def _finish(pend, pend_len, done_tables, rewards, seat, value, adv, ret, reward, done, complete, gamma, lam):
    """GAE over each seat's trajectory in the ended deals (``rewards[i, s]``: seat ``s``'s
    reward at table ``done_tables[i]``)."""
    next_v = np.zeros(NUM_SEATS)
    next_a = np.zeros(NUM_SEATS)
    has = np.zeros(NUM_SEATS, dtype=np.bool_)
    for i in range(done_tables.shape[0]):
        j = done_tables[i]
        has[:] = False
        for q in range(pend_len[j] - 1, -1, -1):
            k = pend[j, q]
            s = seat[k]
            if has[s]:
                r = 0.0
                delta = gamma * next_v[s] - value[k]
                a = delta + gamma * lam * next_a[s]
                done[k] = False
            else:  # the seat's last decision of the deal: its reward, terminal
                r = rewards[i, s]
                a = r - value[k]
                done[k] = True
            reward[k] = r
            adv[k] = a
            ret[k] = a + value[k]
            next_v[s] = value[k]
            next_a[s] = a
            has[s] = True
            complete[k] = True
        pend_len[j] = 0


def numpy_huge_pages(on: bool) -> bool:
    """Turn numpy's transparent-huge-page advice for its large arrays on or off; returns the
    previous setting. The self-play loop allocates and frees arrays of tens of MB every
    rollout; on a virtual machine whose freed memory goes back to the host, each fresh
    huge page then faults in again: writing a fresh 49 MB array took 0.27-0.48 s with the
    advice and 0.03 s without it on the 2-core machine (``docs/experiments/selfplay.md``).
    The trainer turns it off unless ``NUMPY_MADVISE_HUGEPAGE`` is set (numpy's own switch,
    read when numpy loads), which then wins."""
    try:
        from numpy._core.multiarray import _set_madvise_hugepage
    except ImportError:  # numpy < 2
        from numpy.core.multiarray import _set_madvise_hugepage
    return bool(_set_madvise_hugepage(bool(on)))


def bf16_supported() -> bool:
    """True when this CPU multiplies bfloat16 natively (AVX512-BF16 or AMX): there
    ``use_bf16`` is about three times faster than float32; elsewhere torch emulates it
    (slower), so ``bf16: auto`` stays in float32."""
    try:
        return bool(th.cpu._is_avx512_bf16_supported() or th.cpu._is_amx_tile_supported())
    except AttributeError:  # a torch without these probes: its reported capability
        return "AMX" in th.backends.cpu.get_cpu_capability()


def use_bf16(policy) -> None:
    """Run ``policy``'s hidden layers (its ``mlp_extractor``, nearly all of the arithmetic)
    in bfloat16 under ``torch.autocast``, their outputs back in float32: the heads, the
    log-probabilities and the losses stay in float32. The weights stay float32 (the
    state dict, checkpoints and exports are unchanged). Applies to the rollouts and the
    PPO update alike."""
    ex = policy.mlp_extractor
    for name in ("forward", "forward_actor", "forward_critic"):
        inner = getattr(ex, name)

        def wrapped(features, _inner=inner):
            with th.autocast("cpu", dtype=th.bfloat16):
                out = _inner(features)
            return tuple(o.float() for o in out) if isinstance(out, tuple) else out.float()

        setattr(ex, name, wrapped)
    policy.bf16_inputs = True  # SelfPlayPPO.train may hand it bfloat16 observations


def policy_step(policy, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, th.Tensor, th.Tensor]:
    """``MaskableActorCriticPolicy.forward`` for a batch, without its per-call overhead:
    actions sampled from the masked softmax of the policy head (Gumbel-max with torch's
    global RNG), the
    critic's values and the actions' log-probabilities (the same values as SB3's
    ``evaluate_actions`` gives for them). Returns ``(actions int64 (m,), values, log_probs)``."""
    features = policy.extract_features(th.from_numpy(obs))
    latent_pi, latent_vf = policy.mlp_extractor(features)
    values = policy.value_net(latent_vf)
    logits = policy.action_net(latent_pi).masked_fill(~th.from_numpy(mask).bool(), -1e8)
    logp = th.log_softmax(logits, dim=1)
    # Gumbel-max: a draw of the softmax. torch's float32 uniform draws can round up to 1.0
    # exactly (-log(-log(1)) = +inf would pick a masked action): keep u inside (0, 1)
    u = th.rand_like(logp).clamp_(1e-30, 1.0 - 2.0 ** -24)
    act = (logp - th.log(-th.log(u))).argmax(1, keepdim=True)
    chosen = logp.gather(1, act).reshape(-1)
    if not bool(th.isfinite(chosen).all()) or bool((chosen < -1e6).any()):
        raise FloatingPointError("the policy's outputs are not finite (training diverged): no legal action drawn")
    return act.numpy().reshape(-1), values, chosen


class VectorCollector:
    """Plays ``n_tables`` batched tables; the learner's decisions are batched.

    Args:
        n_tables: tables played side by side (one ``BatchedGame``).
        seed: seeds the tables' deals (``BatchedGame``) and the seat / opponent draws.
        rules: rule options (single deals): four seats (``BatchedGame``) or two and three
            (``CutthroatBatchedGame``; ``RuleOptionError`` for an option it does not play).
        pool: the opponents (``training.selfplay.OpponentPool``; ``None``: pure self-play).
        perfect: append ``encode_perfect_batch`` to each learner observation.
        gamma, gae_lambda: the GAE discount and lambda.
        reward_mode: ``belote_env.driver.point_reward`` mode of the seats' rewards.
        rename: play each learner decision through a random suit renaming (one of the
            24, drawn per decision from a generator seeded by ``seed``): the policy sees
            the renamed observation and mask (``policies.symmetry.suit_permutation_tables``,
            ``action_permutation_table``; the perfect critic's hands renamed alike), its
            action is mapped back to the deal's, and the rollout stores what the policy
            saw and did. A deal's value is the same under every renaming (RULES.md §1), so
            the policy learns one rule for the four suits from four times the positions.
    """

    #: its rollouts are filled by ``fill_rollout_buffer`` (``SelfPlayPPO.collect_rollouts``)
    vectorized = True

    def fill_rollout_buffer(self, model, rollout_buffer, n_rollout_steps: int) -> None:
        """``fill_rollout_buffer(model, ...)`` for the PPO model this collector serves."""
        fill_rollout_buffer(model, rollout_buffer, n_rollout_steps)

    def __init__(self, rules: Rules, n_tables: int, seed: int, pool=None, perfect: bool = False,
                 gamma: float = 1.0, gae_lambda: float = 0.95, reward_mode: str = "scaled", rename: bool = False):
        self.rules, self.n_tables, self.pool, self.perfect = rules, n_tables, pool, perfect
        point_reward(0, reward_mode)  # raises ValueError for an unknown mode
        self.gamma, self.lam, self.reward_mode = gamma, gae_lambda, reward_mode
        self.small = not game_of(rules).has_partners
        if self.small and perfect:
            raise ValueError(f"perfect (the perfect-information critic) is four-seat only, got rules players "
                             f"{rules.players}")
        self.game = game_of(rules).batched(n_tables, seed=seed)
        #: each seat's side: its team, or the seat itself at two and three seats
        self.side = np.arange(rules.players, dtype=np.int64) if self.small else _TEAM
        self.n_sides = game_of(rules).sides
        self.deal_bound, self.void_bound = _deal_bounds(self.game)
        self.pend_cap = MAX_VOIDS * self.void_bound + self.deal_bound
        self._void_outcomes = ((CUTTHROAT_OUTCOMES.index("void"), CUTTHROAT_OUTCOMES.index("redeal")) if self.small
                               else (OUTCOMES.index("void"),))
        self.rng = random.Random(seed)
        self.obs_size = obs_size(rules)  # 618 classic, COINCHE_OBS_SIZE coinche (observation.obs_size)
        self.n_actions = num_actions(rules)
        self.reward_scale = reward_scale(rules)  # 162, or 500 in coinche (driver.reward_scale)
        self.width = self.obs_size + (PERFECT_SIZE if perfect else 0)
        self.kind = np.full(n_tables, _SELF, dtype=np.int64)  # _SELF or an index into self.opponents
        self.kind_name = ["self"] * n_tables
        self.learner_team = np.zeros(n_tables, dtype=np.int64)
        self.opponents: list = []  # batched policies, by kind index
        self._opp_index: dict[int, int] = {}
        for j in range(n_tables):
            self._draw(j)
        cap = n_tables * self.deal_bound * 2
        self._alloc(cap)
        self.n = 0  # decisions stored
        self.pend = np.zeros((n_tables, self.pend_cap), dtype=np.int64)
        self.pend_len = np.zeros(n_tables, dtype=np.int64)
        self.deal_stats: list[dict] = []
        #: draw the learner's bids uniformly among the legal ones and leave them out of the
        #: rollouts (the trainer sets it while ``random_bids_until`` is not reached)
        self.random_bids = False
        #: a ``BidLearner`` making every learner bid (set by the trainer), else None
        self.bids: BidLearner | None = None
        self._bid_rows: list[list[tuple[np.ndarray, int, int]]] = [[] for _ in range(n_tables)]
        self.rename = bool(rename)
        if self.rename:
            from policies.symmetry import action_permutation_table, suit_permutation_tables

            po, pc = suit_permutation_tables(self.obs_size)
            self._rename_obs, self._rename_cards = po.numpy(), pc.numpy()
            self._rename_actions = action_permutation_table(self.n_actions).numpy()
            self._rename_rng = np.random.default_rng([seed, 2])

    # ------------------------------------------------------------------ storage
    def _alloc(self, cap: int) -> None:
        old = getattr(self, "obs", None)
        fields = {"obs": (np.float32, (self.width,)), "mask": (np.bool_, (self.n_actions,)), "action": (np.int64, ()),
                  "value": (np.float64, ()), "log_prob": (np.float64, ()), "seat": (np.int64, ()),
                  "adv": (np.float64, ()), "ret": (np.float64, ()), "reward": (np.float64, ()),
                  "done": (np.bool_, ()), "complete": (np.bool_, ()), "start": (np.bool_, ())}
        for name, (dtype, shape) in fields.items():
            arr = np.zeros((cap,) + shape, dtype=dtype)
            if old is not None:
                arr[:self.n] = getattr(self, name)[:self.n]
            setattr(self, name, arr)
        self.cap = cap

    @property
    def n_ready(self) -> int:
        """Finished decisions (their deal is over) waiting to be taken."""
        return int(self.complete[:self.n].sum())

    # ------------------------------------------------------------------ opponents
    def _draw(self, j: int) -> None:
        if self.pool is None:
            self.kind[j], self.kind_name[j] = _SELF, "self"
            return
        name, policy = self.pool.draw()
        self.kind_name[j] = name
        if policy is None:
            self.kind[j] = _SELF
        else:
            key = id(policy)
            if key not in self._opp_index:
                from policies.batch import as_batch_policy

                self._opp_index[key] = len(self.opponents)
                self.opponents.append(as_batch_policy(policy))
            self.kind[j] = self._opp_index[key]
        self.learner_team[j] = self.rng.randrange(self.n_sides)

    def add_snapshot(self, policy) -> None:
        """Add a frozen learner snapshot (a ``policies.network.NetworkPolicy``) to the pool."""
        if self.pool is None:
            raise RuntimeError("this collector has no opponent pool")
        self.pool.add_snapshot(policy)

    def close(self) -> None:
        """Nothing to stop (one process); kept for the collectors' common interface."""

    # ------------------------------------------------------------------ playing
    @th.no_grad()
    def step(self, policy) -> None:
        """One decision at every table: the learner's by ``policy`` (a
        ``MaskableActorCriticPolicy``), the opponents' by their batched policies."""
        g = self.game
        seats = g.current
        learner = (self.kind == _SELF) | (self.side[seats] == self.learner_team)
        actions = np.empty(self.n_tables, dtype=np.int64)
        opponent = ~learner
        if (self.random_bids or self.bids is not None) and self.small:
            raise ValueError("random_bids and a BidLearner are four-seat only (the two- and three-seat bids are "
                             "learned by PPO)")
        if self.random_bids or self.bids is not None:  # the learner's bids: not PPO's
            bidding = learner & (g.state[:, COL["phase"]] == 0)
            if bidding.any():
                learner &= ~bidding
                if self.random_bids:  # drawn uniformly, not learned from
                    actions[bidding] = g.random_actions()[bidding]
                else:
                    bt = np.flatnonzero(bidding)
                    bo = np.empty((len(bt), self.obs_size), dtype=np.float32)
                    bs = seats[bt].astype(np.int64)
                    g.encode_rows(bt, bs, bo)
                    chosen = self.bids.choose(bo, g.mask[bt])
                    actions[bt] = chosen
                    for i, j in enumerate(bt.tolist()):
                        self._bid_rows[j].append((bo[i], int(chosen[i]), int(bs[i])))
        lt = np.flatnonzero(learner)
        if len(lt):
            m = len(lt)
            if self.n + m > self.cap:
                self._alloc(2 * self.cap)
            a, b = self.n, self.n + m
            obs = self.obs[a:b]
            ls = seats[lt].astype(np.int64)
            g.encode_rows(lt, ls, obs[:, :self.obs_size])
            if self.perfect:
                encode_perfect_batch(g, lt, ls, obs[:, self.obs_size:])
            mask = g.mask[lt]
            if self.rename:  # the policy plays renaming p of the position: obs[po[p]], mask[table[p]]
                p = self._rename_rng.integers(0, self._rename_obs.shape[0], m)
                k = self.obs_size
                obs[:, :k] = np.take_along_axis(obs[:, :k], self._rename_obs[p], 1)
                if self.perfect:  # the hidden hands and the stock: card blocks
                    hidden = obs[:, k:].reshape(m, -1, NUM_CARDS)
                    obs[:, k:] = np.take_along_axis(hidden, self._rename_cards[p][:, None, :], 2).reshape(m, -1)
                mask = np.take_along_axis(mask, self._rename_actions[p], 1)
            self.mask[a:b] = mask
            act, values, log_probs = policy_step(policy, obs, mask)
            actions[lt] = self._rename_actions[p, act] if self.rename else act
            self.action[a:b] = act
            self.value[a:b] = values.numpy().reshape(-1)
            self.log_prob[a:b] = log_probs.numpy()
            self.seat[a:b] = ls
            self.complete[a:b] = False
            self.start[a:b] = self.pend_len[lt] == 0
            if int(self.pend_len[lt].max()) >= self.pend_cap:  # (a bound of _deal_bounds is wrong)
                raise RuntimeError(f"a trajectory outgrew its {self.pend_cap} pending decisions")
            _record(self.pend, self.pend_len, lt, a)
            self.n = b
        if opponent.any():
            for k in np.unique(self.kind[opponent]):
                tt = np.flatnonzero(opponent & (self.kind == k))
                actions[tt] = self.opponents[k].act_batch(SeatBatch(g, tt))
        g.step(actions)
        if g.done.any():
            self._end_deals(np.flatnonzero(g.done))

    def _end_bids(self, tables: np.ndarray, rewards: np.ndarray) -> None:
        """The bids made at ``tables`` get their seat's reward as target (``BidLearner``)."""
        obs, act, tgt = [], [], []
        for i, j in enumerate(tables.tolist()):
            for o, a, seat in self._bid_rows[j]:
                obs.append(o)
                act.append(a)
                tgt.append(rewards[i, seat])
            self._bid_rows[j] = []
        if act:
            self.bids.add(np.stack(obs), np.array(act, dtype=np.int64), np.array(tgt, dtype=np.float32))

    def _end_deals(self, tables: np.ndarray) -> None:
        g = self.game
        p = g.players if self.small else 2  # result: the points per seat (per team), outcome, decisions
        void = np.isin(g.result[tables, p], self._void_outcomes)
        if void.any():  # the same seats play the redeal: their trajectories go on (RULES.md §3.4)
            for j in tables[void].tolist():
                self.deal_stats.append({"kind": self.kind_name[j], "void": True, "made": False, "abs_diff": 0,
                                        "learner_diff": None, "decisions": int(g.result[j, p + 1])})
            long = void & (self.pend_len[tables] > self.pend_cap - self.deal_bound - self.void_bound)
            tables = tables[~void | long]  # too many voids in a row: end there, reward 0
            if not len(tables):
                return
        rewards = point_rewards(g.rewards[tables], self.reward_mode, self.reward_scale)
        if self.bids is not None:
            self._end_bids(tables, rewards)
        _finish(self.pend, self.pend_len, tables, rewards, self.seat, self.value, self.adv, self.ret, self.reward,
                self.done, self.complete, self.gamma, self.lam)
        for j in tables.tolist():
            outcome, decisions = g.result[j, p:p + 2].tolist()
            if outcome not in self._void_outcomes:
                if self.small:  # the seat's own points less the others' mean (CutthroatDealScore.difference)
                    diffs = [int(x) if x.is_integer() else x for x in g.rewards[j].tolist()]  # (as the reference's)
                else:
                    p0, p1 = g.result[j, :2].tolist()
                    diffs = [p0 - p1, p1 - p0]
                diff = None if self.kind[j] == _SELF else diffs[self.learner_team[j]]
                self.deal_stats.append({"kind": self.kind_name[j], "void": False, "made": outcome == 0,
                                        "abs_diff": abs(diffs[0]), "learner_diff": diff, "decisions": decisions})
            self._draw(j)

    def take(self, n: int, out: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
        """The oldest ``n`` finished decisions (arrays by field: ``obs``, ``mask``,
        ``action``, ``value``, ``log_prob``, ``adv``, ``ret``, ``reward``, ``done``,
        ``start``), removed from the collector. With ``out`` (arrays by some of these
        fields, each of ``n`` rows) they are written into those arrays (cast to their
        dtypes), which are returned in the dict in place of new ones: a trainer reusing its
        buffers skips the page faults of fresh ones. Raises ``RuntimeError`` when fewer are
        ready, ``ValueError`` when an ``out`` array does not hold ``n`` rows."""
        idx = np.flatnonzero(self.complete[:self.n])
        if len(idx) < n:
            raise RuntimeError(f"{len(idx)} finished decisions, {n} wanted")
        idx = idx[:n]
        out = dict(out or {})
        for name in ("obs", "mask", "action", "value", "log_prob", "adv", "ret", "reward", "done", "start"):
            src = getattr(self, name)
            if name not in out:
                out[name] = src[idx]  # fancy indexing copies
                continue
            dst = out[name]
            if dst.shape[:1] != (n,):
                raise ValueError(f"take: out[{name!r}] has shape {dst.shape}, wanted {n} rows")
            if dst.dtype == src.dtype and dst.shape == (n,) + src.shape[1:] and dst.flags.c_contiguous:
                np.take(src, idx, axis=0, out=dst)
            else:
                dst[...] = src[idx].reshape(dst.shape)
        keep = np.ones(self.n, dtype=np.bool_)
        keep[idx] = False
        new_index = np.cumsum(keep) - 1
        kept = np.flatnonzero(keep)
        for name in ("obs", "mask", "action", "value", "log_prob", "seat", "adv", "ret", "reward", "done",
                     "complete", "start"):
            arr = getattr(self, name)
            arr[:len(kept)] = arr[kept]
        for j in range(self.n_tables):  # pending decisions are never taken: remap them
            k = self.pend_len[j]
            self.pend[j, :k] = new_index[self.pend[j, :k]]
        self.n = len(kept)
        return out


class BidLearner:
    """Q-learning of the bids from the learner's own deals (Monte Carlo targets).

    Every learner bid (classic: pass, take, name a contract, ids 32..39; coinche, with
    ``rules`` of ``contract_mode: coinche``: pass, the bids 80..160 and capot, coinche,
    surcoinche, ids 32..101, ``policies.network.COINCHE_BID_ACTIONS``) is chosen by a
    bid-value network ``net`` (a ``policies.network.BeloteNet`` whose outputs from 32
    value the bids, in reward units: the deal's point difference / 162 for the bidder's
    team, / 500 in coinche, ``driver.reward_scale``):
    epsilon-greedy in training (a uniformly random legal bid with probability
    ``epsilon``), greedy when played (``policies.network.NetworkPolicy``'s ``bid_net``,
    saved in a model's ``bids/`` folder). Each bid's target is the reward of the deal the
    bidder's seat then played (void deals go on into the redeal); ``fit`` regresses the
    chosen bid's value on it over a replay of the latest ``replay`` bids. The card play
    stays with PPO. Why not PPO for the bids: taking loses on average while card play is
    weak (-55 points per deal at random play), so a policy gradient learns to pass every
    hand before the card play improves, and with every deal void nothing more is learned;
    a value per bid, with exploration, keeps learning what each bid is worth as the card
    play gets better.
    """

    def __init__(self, hidden: list[int], lr: float, epsilon: float, replay: int, seed: int,
                 activation: str = "relu", bf16: bool = False, augment: bool = False, average: bool = False,
                 rules: Rules | None = None):
        from policies.network import BID_ACTIONS, COINCHE_BID_ACTIONS, BeloteNet
        from policies.symmetry import bid_permutation_table, coinche_bid_permutation_table, suit_permutation_tables

        rules = Rules() if rules is None else rules
        #: the constructor's arguments (a rollout actor builds its acting copy from them)
        self.init_args = {"hidden": list(hidden), "lr": lr, "epsilon": epsilon, "replay": replay, "seed": seed,
                          "activation": activation, "bf16": bf16, "augment": augment, "average": average,
                          "rules": rules}
        if not game_of(rules).has_partners or num_actions(rules) != NUM_ACTIONS:
            raise ValueError("BidLearner learns the four-seat bids of ids 32..101: rules with players 4 and "
                             "neither generale nor max_numeric_bid above 160 (actions.num_actions 112)")
        coinche = rules.contract_mode == "coinche"
        self.width = len(COINCHE_BID_ACTIONS if coinche else BID_ACTIONS)  # outputs 32 .. 32 + width - 1
        size = obs_size(rules)
        self.net = BeloteNet(obs_size=size, pi=list(hidden), vf=[8], activation=activation)
        self.fit_net = copy.deepcopy(self.net)  # trained by fit, copied into net after each fit
        self.opt = th.optim.Adam(self.fit_net.parameters(), lr=lr, fused=True)
        self.epsilon, self.cap = epsilon, replay
        self.bf16, self.augment, self.average = bool(bf16), bool(augment), bool(average)
        self.rng = np.random.default_rng(seed)  # exploration (choose)
        self.fit_rng = np.random.default_rng([seed, 1])  # renamings of fit (its own: fit may run on a thread)
        self.gen = th.Generator().manual_seed(seed)
        self._pending: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._thread = None
        self._error: BaseException | None = None
        self.obs = np.zeros((replay, size), dtype=np.float32)
        self.action = np.zeros(replay, dtype=np.int64)
        self.target = np.zeros(replay, dtype=np.float32)
        self.size = self.pos = self.added = 0
        self.loss = float("nan")
        if self.augment or self.average:
            self._po = suit_permutation_tables(size)[0]  # (24, size): obs[po[p]] is renaming p of the deal
            # (24, width): renamed bid j is the deal's bid table[p, j]
            self._bid_table = coinche_bid_permutation_table() if coinche else bid_permutation_table()
            self._bid_inverse = th.argsort(self._bid_table, 1)  # the deal's bid b is renamed bid inverse[p, b]

    def load_state_dict(self, state: dict) -> None:
        """Set the bid-value network's weights (both the acting and the fitted copy)."""
        self.finish_fit()
        self.net.load_state_dict(state)
        self.fit_net.load_state_dict(state)

    def replay_state(self) -> dict[str, th.Tensor]:
        """The fit's state as named tensors (a checkpoint's ``bid_learner.safetensors``,
        ``load_replay_state``): the replay ring (``replay/obs`` as uint8 when every value
        is a small whole number, as the encoders write them; ``replay/action``,
        ``replay/target``; ``replay/counts``: pos, size, bids added) and the fit's Adam
        state (``opt/<parameter>/<name>``). The bids added since the last fit enter the
        replay first (the next fit would take them in first too)."""
        self.finish_fit()
        self._flush()
        m = self.size
        obs = self.obs[:m]
        small = obs.astype(np.uint8)
        out = {"replay/obs": th.from_numpy(small if np.array_equal(small, obs) else obs.copy()),
               "replay/action": th.from_numpy(self.action[:m].copy()),
               "replay/target": th.from_numpy(self.target[:m].copy()),
               "replay/counts": th.tensor([self.pos, self.size, self.added], dtype=th.int64)}
        for i, entry in self.opt.state_dict()["state"].items():
            for k, v in entry.items():
                out[f"opt/{i}/{k}"] = v.detach().clone().contiguous()
        return out

    def load_replay_state(self, state: dict[str, th.Tensor]) -> None:
        """Restore ``replay_state``'s tensors; raises ``ValueError`` naming what does not
        fit this learner (the replay's bound, the observation size, the network's shapes)."""
        self.finish_fit(keep=False)
        try:
            pos, size, added = (int(x) for x in state["replay/counts"].tolist())
            obs, action, target = state["replay/obs"], state["replay/action"], state["replay/target"]
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"the bid replay's tensors are incomplete ({e})") from None
        if not (0 <= size <= self.cap and 0 <= pos < max(1, self.cap) and added >= size):
            raise ValueError(f"the bid replay's counts (pos {pos}, size {size}, added {added}) do not fit a replay "
                             f"of {self.cap} bids")
        if tuple(obs.shape) != (size, self.obs.shape[1]) or tuple(action.shape) != (size,) \
                or tuple(target.shape) != (size,):
            raise ValueError(f"the bid replay's arrays have shapes {tuple(obs.shape)}, {tuple(action.shape)}, "
                             f"{tuple(target.shape)}; expected ({size}, {self.obs.shape[1]}), ({size},), ({size},)")
        if size and (not bool(th.isfinite(target.float()).all()) or int(action.min()) < 32
                     or int(action.max()) >= 32 + self.width):
            raise ValueError("the bid replay holds non-finite targets or bid ids outside the bids learned")
        params = list(self.fit_net.parameters())
        opt = {"state": {}, "param_groups": self.opt.state_dict()["param_groups"]}
        for key, v in state.items():
            if not key.startswith("opt/"):
                continue
            _, i, name = key.split("/", 2)
            if not i.isdigit() or int(i) >= len(params):
                raise ValueError(f"the bid fit's optimizer state names parameter {i!r}, the network has "
                                 f"{len(params)}")
            want = () if name == "step" else tuple(params[int(i)].shape)
            if tuple(v.shape) != want or not bool(th.isfinite(v).all()):
                raise ValueError(f"the bid fit's optimizer state {key} has shape {tuple(v.shape)} (expected {want}) "
                                 "or non-finite values")
            opt["state"].setdefault(int(i), {})[name] = v.clone()
        self.opt.load_state_dict(opt)
        self.obs[:size] = obs.numpy().astype(np.float32)
        self.action[:size], self.target[:size] = action.numpy(), target.numpy()
        self.pos, self.size, self.added = pos, size, added
        self._pending = []

    def _fit_logits(self, x: th.Tensor) -> th.Tensor:
        """``fit_net``'s bid outputs (ids 32 .. 31 + width) for observations ``x``, float32
        ``(m, width)`` (its hidden layers in bfloat16 with ``bf16``)."""
        head = self.fit_net.action_net
        body = self.fit_net.mlp_extractor.policy_net
        end = 32 + self.width
        with th.autocast("cpu", dtype=th.bfloat16, enabled=self.bf16):
            out = th.nn.functional.linear(body(x), head.weight[32:end], head.bias[32:end])
        return out.float()

    @th.no_grad()
    def choose(self, obs: np.ndarray, mask: np.ndarray, explore: bool = True) -> np.ndarray:
        """The bids for a batch: int64 ``(m,)`` (``mask``: int8 ``(m, n_actions)``); with
        ``average`` the values are averaged over the 24 suit renamings of each row, by
        ``policies.batch.network_outputs`` as the exported model plays them
        (``bid_suit_average``)."""
        from policies.batch import network_outputs

        w = self.width
        q = network_outputs(self.net, obs, 32, w, self._bid_table if self.average else None, bf16=self.bf16)
        legal = mask[:, 32:32 + w].astype(bool)
        q = np.where(legal, q, -np.inf)
        out = 32 + q.argmax(1)
        if explore and self.epsilon > 0:
            rand = self.rng.random(len(out)) < self.epsilon
            if rand.any():
                noise = np.where(legal[rand], self.rng.random((int(rand.sum()), w)), -1.0)
                out[rand] = 32 + noise.argmax(1)
        return out

    def add(self, obs: np.ndarray, action: np.ndarray, target: np.ndarray) -> None:
        """Add finished bids (observations, bid ids, targets); they enter the replay (a
        ring) when the next fit starts (a fit on a thread reads a replay that does not move)."""
        self._pending.append((obs, action, target))
        self.added += len(action)

    def take_added(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The bids added since the last fit (or call), removed: ``(obs, action, target)``
        batches, for a learner that does not fit them itself (a rollout actor's,
        ``training.ray_rollouts``)."""
        pending, self._pending = self._pending, []
        return pending

    def _flush(self) -> None:
        for obs, action, target in self.take_added():
            self._ring_add(obs, action, target)

    def _ring_add(self, obs: np.ndarray, action: np.ndarray, target: np.ndarray) -> None:
        for i in range(0, len(action), self.cap):
            o, a, t = obs[i:i + self.cap], action[i:i + self.cap], target[i:i + self.cap]
            n = len(a)
            idx = (self.pos + np.arange(n)) % self.cap
            self.obs[idx], self.action[idx], self.target[idx] = o, a, t
            self.pos = (self.pos + n) % self.cap
            self.size = min(self.cap, self.size + n)

    def fit(self, steps: int, batch: int) -> float:
        """``steps`` Adam steps of squared error on batches drawn from the replay (the bids
        added so far enter it first), then the acting network takes the fitted weights;
        returns the mean loss (nan when the replay holds fewer than ``batch`` bids)."""
        self.finish_fit()
        self._flush()
        self.loss = self._fit_steps(steps, batch)
        self.net.load_state_dict(self.fit_net.state_dict())
        return self.loss

    def start_fit(self, steps: int, batch: int) -> None:
        """``fit`` on a thread of its own, one torch thread (the bids added so far enter the
        replay first; those added while it runs wait for the next fit); ``choose`` keeps the
        weights of the previous fit until ``finish_fit``."""
        import threading

        self.finish_fit()
        self._flush()
        self._thread = threading.Thread(target=self._fit, args=(steps, batch, 1), daemon=True, name="bid-fit")
        self._thread.start()

    def finish_fit(self, keep: bool = True) -> None:
        """Wait for the fit ``start_fit`` began (if any); the acting network then takes its
        weights (unless ``keep`` is false). Re-raises what the fit raised (with ``keep``)."""
        if self._thread is None:
            return
        self._thread.join()
        self._thread = None
        error, self._error = self._error, None
        if not keep:
            return
        if error is not None:
            raise error
        self.net.load_state_dict(self.fit_net.state_dict())

    def _fit(self, steps: int, batch: int, threads: int) -> None:
        try:
            th.set_num_threads(threads)  # this thread's OpenMP setting
            self.loss = self._fit_steps(steps, batch)
        except BaseException as e:  # noqa: BLE001 - handed to finish_fit's caller
            self._error = e

    def _fit_steps(self, steps: int, batch: int) -> float:
        if self.size < batch:
            return float("nan")
        total = 0.0
        for _ in range(steps):
            idx = th.randint(0, self.size, (batch,), generator=self.gen).numpy()
            obs, action = th.from_numpy(self.obs[idx]), th.from_numpy(self.action[idx])
            if self.augment:  # each row under a random suit renaming (its target is the same)
                p = th.from_numpy(self.fit_rng.integers(0, self._po.shape[0], batch))
                obs = obs.gather(1, self._po[p])
                action = 32 + self._bid_inverse[p, action - 32]
            q = self._fit_logits(obs)
            chosen = q.gather(1, (action - 32)[:, None])[:, 0]
            loss = ((chosen - th.from_numpy(self.target[idx])) ** 2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item()
        return total / steps


def fill_rollout_buffer(model, rollout_buffer, n_rollout_steps: int) -> None:
    """Play ``model.collector`` (a ``VectorCollector``) until ``n_rollout_steps * n_envs``
    decisions are finished, then fill ``rollout_buffer`` (shape ``(n_rollout_steps,
    n_envs)``) with the oldest of them, their advantages and returns included
    (``compute_returns_and_advantage`` is not called)."""
    col = model.collector
    rb = rollout_buffer
    need = n_rollout_steps * rb.n_envs
    col.random_bids = model.num_timesteps < getattr(model, "random_bids_until", 0)
    threads = th.get_num_threads()
    overlap = col.bids is not None and getattr(model, "bid_fit_overlap", False)
    if overlap:  # the bid fit on the other core while this rollout is played
        col.bids.start_fit(model.bid_fit_steps, model.bid_fit_batch)
    th.set_num_threads(1)  # batches of a few hundred rows: a second thread only waits
    played = False
    try:
        while col.n_ready < need:
            col.step(model.policy)
        played = True
    finally:
        try:  # (torch's thread count is global: the fit keeps 1 to its end)
            if overlap:  # after a failed rollout its error is the one raised; the fit's weights are dropped
                col.bids.finish_fit(keep=played)
        finally:
            th.set_num_threads(threads)
    col.take(need, buffer_rows(rb, n_rollout_steps))
    end_rollout(model, col.bids, rb, overlap)


#: a collector's decision fields and the PPO rollout buffer's arrays they fill
BUFFER_FIELDS = {"obs": "observations", "action": "actions", "reward": "rewards", "start": "episode_starts",
                 "value": "values", "log_prob": "log_probs", "mask": "action_masks", "adv": "advantages",
                 "ret": "returns"}


def buffer_rows(rb, n_rollout_steps: int) -> dict[str, np.ndarray]:
    """The rollout buffer ``rb``'s arrays by collector field (``BUFFER_FIELDS``), each seen
    as ``(steps * envs, ...)`` (row ``t * n_envs + e`` is ``[t, e]``): every row is
    overwritten, so the arrays are reused, not reallocated, unless SB3's ``get()`` swapped
    and flattened them (then fresh ones in the ``(steps, envs)`` layout)."""
    if rb.generator_ready or rb.observations.shape[:2] != (n_rollout_steps, rb.n_envs):
        rb.reset()
    need = n_rollout_steps * rb.n_envs
    views = {}
    for k, name in BUFFER_FIELDS.items():
        views[k] = getattr(rb, name).view()
        views[k].shape = (need,) + views[k].shape[2:]  # raises rather than copy
    return views


def end_rollout(model, bids, rb, overlap: bool) -> None:
    """After a rollout's rows are in ``rb``: the bid learner's fit (unless it ran beside
    the rollout, ``overlap``) and its logs, the buffer marked full, the model's timesteps
    counted."""
    if bids is not None:
        if not overlap:
            bids.fit(model.bid_fit_steps, model.bid_fit_batch)
        model.logger.record("train/bid_value_loss", bids.loss)
        model.logger.record("train/bid_samples", bids.added)
    rb.pos = rb.buffer_size
    rb.full = True
    model.num_timesteps += rb.buffer_size * rb.n_envs
