"""Rollout labels of the current network's own games on the batched engine.

Monte-Carlo policy iteration: the networks play every seat of self-play deals, each seat
from its own information set (its observation, RULES.md §11); at a sampled decision of a
deal, *every* legal action is tried on a copy of the same true deal, which the same
networks then play to its end. The deal's point difference for the acting seat's team
(in units of ``oracle.value_unit``: 162 classic, 500 coinche) is that action's label. All
the actions of one decision share the deal (common random numbers): the card luck that
dominates a single played-out deal cancels in their differences, which is what the value
networks are fitted to (``oracle.fit_card_values`` / ``fit_bid_values`` centre each
decision's labels). Fitting them is one step of policy improvement over the players that
produced the labels; repeating it with the improved networks is policy iteration
(``training.iterate``).

The rollouts see the true deal (they are the game being played, on the trainer's own
``BatchedGame``); the networks read only the acting seat's observation. No label comes
from the double-dummy solver or from another tier. With ``worlds`` above 1 a label is the
mean of the true deal's play-out and those of deals drawn from the acting seat's
information set (``world_snapshots``).

Decisions: the card play (card-value network ``cards/``, outputs 0..31), the auction
(bid-value network ``bids/``: classic ids 32..39, coinche 32..101 with coinche and
surcoinche, ``policies.network.COINCHE_BID_ACTIONS``); any other decision with a choice
(declare or not, announce belote or not, where the rule options give them) is played by
the policy network's argmax and labelled like a card decision, in ``other`` rows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import torch as th

from belote_env.games import game_of
from belote_env import Rules
from belote_env.actions import ANNOUNCE_BELOTE, COINCHE, DECLARE, num_actions
from belote_env.cards import NUM_CARDS
from belote_env.sampling import HiddenHandSampler, world_deck
from belote_env.observation import obs_size
from belote_env.vector import COL, BatchedGame
from belote_env.vector.engine import _OTHER_TEAM, _TEAM, PHASE_BIDDING, PHASE_OVER
from belote_env.vector.observation import encode_tables_kernel
from belote_env.observation import OFFSET

from policies.batch import head_outputs, outputs_by_renaming
from policies.symmetry import (
    RENAMING_SETS, bid_permutation_table, coinche_bid_permutation_table, suit_permutation_tables,
)

from .oracle import value_unit

__all__ = ["ValuePlayer", "RolloutData", "rollout_labels", "bid_range", "deal_outcomes", "world_snapshots",
           "pool_seats", "POOL_SEATINGS"]

#: How an opponent pool's member is seated in a deal (``rollout_labels``): ``"any"`` one to
#: three seats, ``"partner"`` two neighbouring seats (a partner for every seat of the player).
POOL_SEATINGS = ("any", "partner")

_PH, _CUR = COL["phase"], COL["current"]
_SCORES = OFFSET["scores"]


def _us_them(pairs: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Per-team pairs (``(m, 2)``: team 0, team 1) as (the seat's team, the other) for each
    row's seat ``seats[i]`` (``table.TEAM_OF``, as the batched engine holds it)."""
    rows = np.arange(len(seats))
    team = _TEAM[np.asarray(seats, dtype=np.int64)]
    return np.stack([pairs[rows, team], pairs[rows, _OTHER_TEAM[team]]], axis=1)


def _put_scores(obs: np.ndarray, scores: np.ndarray | None, seats: np.ndarray) -> None:
    """Write game scores into observations encoded for single deals (``observation.LAYOUT``'s
    ``scores`` block: us, them / 1000): row ``i`` is seat ``seats[i]``'s, ``scores[i]`` the
    game scores of teams 0 and 1 (int ``(m, 2)``); nothing when ``scores`` is None."""
    if scores is not None:
        obs[:, _SCORES:_SCORES + 2] = _us_them(scores, seats) / 1000.0


def bid_range(rules: Rules) -> tuple[int, int]:
    """The bid ids a bid-value network values under ``rules``: ``(first, width)``, ids
    ``first .. first + width - 1``: (32, 8) classic, (32, 70) coinche
    (``policies.network.BID_ACTIONS`` / ``COINCHE_BID_ACTIONS``)."""
    from policies.network import BID_ACTIONS, COINCHE_BID_ACTIONS

    ids = COINCHE_BID_ACTIONS if rules.contract_mode == "coinche" else BID_ACTIONS
    return ids[0], len(ids)


def _renaming_tables(rules: Rules, size: int, picks: tuple[int, ...]) -> tuple:
    """``(observation, card, bid)`` index tables of the renamings ``picks`` (``(k, size)``,
    ``(k, 32)``, ``(k, bid width)`` int64 tensors, ``policies.symmetry``)."""
    po, pc = suit_permutation_tables(size)
    pb = coinche_bid_permutation_table() if rules.contract_mode == "coinche" else bid_permutation_table()
    rows = list(picks)
    return po[rows], pc[rows], pb[rows]


#: The largest ``ValuePlayer.coinche_bias`` (bid-value units: 10 is 5,000 points, a coinche
#: at every decision where it is legal).
MAX_COINCHE_BIAS = 10.0


class ValuePlayer:
    """Greedy play of the networks at tables of a ``BatchedGame``: the legal card of the
    highest card value, the legal bid of the highest bid value, else the policy network's
    most likely legal action; with probability ``epsilon`` a uniformly random legal action
    instead (drawn from the player's own ``numpy`` generator, seeded by ``seed``).

    Args:
        card_net, bid_net, policy_net: ``policies.network.BeloteNet`` of the rules'
            observation (``bid_net`` may be None: the bids fall to the policy network;
            ``policy_net`` may be None, as in a value-network model folder: the other
            decisions follow ``NetworkPolicy.rule_action``: declare, announce belote, else
            the lowest legal id).
        rules: four-seat ``Rules`` (classic or coinche, ``num_actions`` 112).
        epsilon: float in [0, 1].
        bf16: the matrix products in bfloat16 (``torch.autocast``).
        renamings: the card and bid values averaged over this many suit renamings
            (``RENAMING_SETS``): 1, the observation as it is; 4, the four cyclic shifts of the
            suits (each suit in each place once); 24, all of them, as the hard tier plays
            (``NetworkPolicy(suit_average=True)``; the same actions in float32, a few
            differ under ``bf16``). The cost of a value grows with it.
        coinche_bias: added to the bid value of ``COINCHE`` (in the bid network's units,
            0..``MAX_COINCHE_BIAS``) before the greedy choice, coinche rules only: a player that coinches more
            readily than its values say (COINCHE.md §3.5), deterministic, so the actions
            of one decision still share their rollouts' play. 0: none.

    Raises ``ValueError`` for other rules, an ``epsilon`` outside [0, 1], another
    ``renamings``, or a ``coinche_bias`` outside [0, ``MAX_COINCHE_BIAS``] or above 0
    under classic rules.
    """

    def __init__(self, card_net, bid_net, policy_net, rules: Rules, epsilon: float = 0.0, seed: int = 0,
                 bf16: bool = False, renamings: int = 1, coinche_bias: float = 0.0):
        if not game_of(rules).has_partners or num_actions(rules) != 112:
            raise ValueError("ValuePlayer plays four-seat rules of 112 actions (no générale, bids up to 160)")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon!r}")
        if isinstance(coinche_bias, bool) or not isinstance(coinche_bias, (int, float)) or not (
                0.0 <= coinche_bias <= MAX_COINCHE_BIAS):
            raise ValueError(f"coinche_bias must be a number in [0, {MAX_COINCHE_BIAS:g}] (bid-value units), got "
                             f"{coinche_bias!r}")
        if coinche_bias and rules.contract_mode != "coinche":
            raise ValueError(f"coinche_bias is {coinche_bias!r} under {rules.contract_mode} rules: it applies to "
                             "coinche rules only (leave it 0)")
        if type(renamings) is not int or renamings not in RENAMING_SETS:
            raise ValueError(f"renamings must be one of {sorted(RENAMING_SETS)}, got {renamings!r}")
        self.card_net, self.bid_net, self.policy_net = card_net, bid_net, policy_net
        self.rules, self.epsilon, self.bf16 = rules, float(epsilon), bool(bf16)
        self.size = obs_size(rules)
        self.first, self.width = bid_range(rules)
        self.rng = np.random.default_rng(seed)
        self.renamings = renamings
        self.coinche_bias = float(coinche_bias)
        self._tables = None if renamings == 1 else _renaming_tables(rules, self.size, RENAMING_SETS[renamings])

    def kinds(self, game: BatchedGame, tables: np.ndarray) -> np.ndarray:
        """Per table the kind of its decision: 0 forced (one legal action), 1 card, 2 bid,
        3 other (int8 ``(m,)``)."""
        mask = game.mask[tables] != 0
        n = mask.sum(1)
        cards = mask[:, :NUM_CARDS].any(1) & ~mask[:, NUM_CARDS:].any(1)
        b0, b1 = self.first, self.first + self.width
        bids = (game.state[tables, _PH] == PHASE_BIDDING) & ~mask[:, :b0].any(1) & ~mask[:, b1:].any(1)
        out = np.where(cards, 1, np.where(bids, 2, 3)).astype(np.int8)
        out[n <= 1] = 0
        return out

    @th.inference_mode()
    def act(self, game: BatchedGame, tables: np.ndarray, explore: bool = False,
            obs: np.ndarray | None = None, kind: np.ndarray | None = None,
            scores: np.ndarray | None = None) -> np.ndarray:
        """The actions at ``tables`` (int64 ``(m,)``), each from the acting seat's
        observation (encoded here unless ``obs``, float32 ``(m, obs_size)``, is given;
        ``kind``: ``kinds(game, tables)`` when the caller has it; ``scores``: the game
        scores of teams 0 and 1 at each table, int ``(m, 2)``, written into the
        observations encoded here, else 0: a single deal)."""
        tables = np.asarray(tables, dtype=np.int64)
        m = len(tables)
        mask = game.mask[tables] != 0
        out = mask.argmax(1).astype(np.int64)
        if kind is None:
            kind = self.kinds(game, tables)
        if obs is None:
            obs = np.empty((m, self.size), dtype=np.float32)
            encode_tables_kernel(game.state, game.bids, game.mask, game.points, tables,
                                 game.current[tables].astype(np.int64), obs)
            _put_scores(obs, scores, game.current[tables])
        x = th.from_numpy(obs)
        with th.autocast("cpu", dtype=th.bfloat16, enabled=self.bf16):
            for k, net, first, width in ((1, self.card_net, 0, NUM_CARDS), (2, self.bid_net, self.first, self.width),
                                         (3, self.policy_net, 0, mask.shape[1])):
                rows = np.flatnonzero(kind == k)
                if not len(rows):
                    continue
                if net is None and k == 3:  # NetworkPolicy.rule_action: declare, announce, else the lowest id
                    legal = mask[rows]
                    out[rows] = np.where(legal[:, DECLARE], DECLARE,
                                         np.where(legal[:, ANNOUNCE_BELOTE], ANNOUNCE_BELOTE, legal.argmax(1)))
                    continue
                if net is None:
                    net = self.policy_net if self.policy_net is not None else self.card_net
                if self._tables is not None and k < 3:
                    q = outputs_by_renaming(net, x[rows], first, width, self._tables[k], po=self._tables[0]).numpy()
                else:
                    q = head_outputs(net, x[rows], first, width).float().numpy()
                if k == 2 and self.coinche_bias:
                    q[:, COINCHE - first] += self.coinche_bias
                q = np.where(mask[rows, first:first + width], q, -np.inf)
                out[rows] = first + q.argmax(1)
        if explore and self.epsilon > 0:
            rand = np.flatnonzero((kind > 0) & (self.rng.random(m) < self.epsilon))
            if len(rand):
                noise = np.where(mask[rand], self.rng.random((len(rand), mask.shape[1])), -1.0)
                out[rand] = noise.argmax(1)
        return out


@dataclass
class RolloutData:
    """Labels of one batch of deals: per kind (``cards``, ``bids``, ``other``) a dict
    ``{"obs": float16 (N, obs_size), "mask": bool (N, W), "q": float32 (N, W)}`` whose
    column ``j`` is action ``first + j`` (cards: 0..31; bids: ``bid_range``; other: all
    ids), ``q`` the labels (0 where ``mask`` is False); and the counts ``deals``,
    ``decisions`` (every decision of the root deals), ``rollouts`` (tables played out) and
    ``rollout_decisions`` (decisions played in them)."""

    cards: dict
    bids: dict
    other: dict
    deals: int
    decisions: int
    rollouts: int
    rollout_decisions: int


def _snapshot(game: BatchedGame, rows: np.ndarray) -> dict[str, np.ndarray]:
    return {"state": game.state[rows].copy(), "deck": game.deck[rows].copy(), "bids": game.bids[rows].copy(),
            "rng": game.rng[rows].copy(), "mask": game.mask[rows].copy()}


def _play(player: ValuePlayer, pool: list[ValuePlayer], who: np.ndarray, game: BatchedGame, tables: np.ndarray,
          explore: bool, obs: np.ndarray | None = None, kind: np.ndarray | None = None,
          scores: np.ndarray | None = None) -> np.ndarray:
    """The actions at ``tables``: row ``i`` by ``pool[who[i]]``, or by ``player`` where
    ``who[i]`` is -1 (exploring when ``explore``; the pool members always play with their
    own ``epsilon``, in the deals and in the rollouts); ``scores``: ``ValuePlayer.act``'s."""
    if not len(pool) or (who < 0).all():
        return player.act(game, tables, explore=explore, obs=obs, kind=kind, scores=scores)
    out = np.empty(len(tables), dtype=np.int64)
    for k in np.unique(who):
        rows = np.flatnonzero(who == k)
        out[rows] = (player if k < 0 else pool[k]).act(
            game, tables[rows], explore=explore or k >= 0, obs=None if obs is None else obs[rows],
            kind=None if kind is None else kind[rows], scores=None if scores is None else scores[rows])
    return out


def deal_outcomes(player: ValuePlayer, rules: Rules, deals: int, seed: int) -> np.ndarray:
    """The points of teams 0 and 1 (int64 ``(deals, 2)``, ``BatchedGame.result``) of
    ``deals`` single deals that ``player`` plays at every seat, greedily, on a
    ``BatchedGame`` seeded by ``seed``: the outcome distribution of
    ``training.game_value.GameValue``."""
    game = BatchedGame(deals, rules, seed=seed, autoreset=False)
    out = np.zeros((deals, 2), dtype=np.int64)
    while True:
        ended = np.flatnonzero(game.done)
        out[ended] = game.result[ended, :2]
        live = np.flatnonzero(game.state[:, _PH] != PHASE_OVER)
        if not len(live):
            return out
        actions = np.zeros(deals, dtype=np.int64)
        actions[live] = player.act(game, live)
        game.step(actions)


def world_snapshots(rules: Rules, infos: list, steps: np.ndarray, history: np.ndarray, per: int, seed: int,
                    chunk: int = 8192) -> dict[str, np.ndarray]:
    """``per`` sampled worlds of each decision: decision ``i`` is the acting seat's
    information set ``infos[i]`` (``BatchedGame.infoset``), reached after the deal's first
    ``steps[i]`` actions ``history[i, :steps[i]]`` (int ``(m, L)``). Each world draws the
    hidden cards consistent with the information set (``sampling.HiddenHandSampler``,
    RULES.md §11; seeded by ``seed``), deals them on a ``BatchedGame`` and replays the
    deal's actions: the acting seat's observation and mask are the true deal's, the other
    hands are the world's. Returns the tables' arrays (``state``, ``deck``, ``bids``,
    ``rng``, ``mask``), ``(m * per, ...)``, decision-major (rows ``i * per .. i * per +
    per - 1`` are decision ``i``'s). Raises ``RuntimeError`` if a replay is illegal in a
    world (a bug of the sampler or the deck builders)."""
    rng = random.Random(seed)
    m = len(infos)
    decks = np.empty((m * per, NUM_CARDS), dtype=np.int64)
    for i, info in enumerate(infos):
        sampler = HiddenHandSampler(info)
        for w in range(per):
            decks[i * per + w] = world_deck(info, sampler.draw(rng), rng)
    dealers = np.repeat(np.array([info.dealer for info in infos], dtype=np.int64), per)
    need = np.repeat(np.asarray(steps, dtype=np.int64), per)
    src = np.repeat(np.arange(m), per)
    out: dict[str, np.ndarray] = {}
    game = BatchedGame(min(chunk, max(1, m * per)), rules, seed=seed, autoreset=False)
    for a in range(0, m * per, game.n):
        rows = np.arange(a, min(a + game.n, m * per))
        k = len(rows)
        to = np.arange(k)
        game.deal(to, decks[rows], dealers[rows])
        game.state[k:, _PH] = PHASE_OVER
        last = int(need[rows].max())
        for s in range(last + 1):
            at = np.flatnonzero(need[rows] == s)
            for name, arr in _snapshot(game, at).items():
                if name not in out:
                    out[name] = np.empty((m * per,) + arr.shape[1:], dtype=arr.dtype)
                out[name][rows[at]] = arr
            if s == last:
                break
            actions = (game.mask != 0).argmax(1).astype(np.int64)  # tables past their decision: any legal id
            go = np.flatnonzero(need[rows] > s)
            actions[go] = history[src[rows[go]], s]
            try:
                game.step(actions)
            except ValueError as e:
                raise RuntimeError(f"a sampled world does not replay its deal's actions (a bug): {e}") from None
    return out


def pool_seats(deals: int, seed: int, pool_rate: float, members: int, pool_seating: str = "any") -> np.ndarray:
    """Who plays each seat of ``deals`` deals (``rollout_labels``' opponent pool):
    ``(deals, 4)`` int64, the pool member's index (0..``members`` - 1) or -1 for the player.
    A ``pool_rate`` share of the deals (drawn from ``seed``) seat one member, drawn
    uniformly, at one to three seats (``"any"``: one of the 14 such sets) or at two
    neighbouring seats (``"partner"``: one of each team, so each of the player's seats has
    the member as partner). ``ValueError`` for another ``pool_seating``."""
    if pool_seating not in POOL_SEATINGS:
        raise ValueError(f"pool_seating must be one of {POOL_SEATINGS}, got {pool_seating!r}")
    seating = np.full((deals, 4), -1, dtype=np.int64)
    if pool_rate > 0:
        draw = np.random.default_rng([seed, 11])
        mixed = np.flatnonzero(draw.random(deals) < pool_rate)
        member = draw.integers(0, members, len(mixed))
        if pool_seating == "any":
            bits = draw.integers(1, 15, len(mixed))  # a non-empty, not full set of seats
        else:
            bits = np.array([0b0011, 0b0110, 0b1100, 0b1001], dtype=np.int64)[draw.integers(0, 4, len(mixed))]
        seats4 = (bits[:, None] >> np.arange(4)) & 1
        seating[mixed] = np.where(seats4 == 1, member[:, None], -1)
    return seating


def rollout_labels(player: ValuePlayer, rules: Rules, deals: int, seed: int, label_rate: float = 1.0,
                   chunk: int = 8192, pool: list[ValuePlayer] | None = None, pool_rate: float = 0.0,
                   game_value=None, label_kinds: tuple[int, ...] = (1, 2, 3), worlds: int = 1,
                   pool_seating: str = "any") -> RolloutData:
    """Play ``deals`` deals at once on a ``BatchedGame`` seeded by ``seed``, every seat by
    ``player`` (exploring: its ``epsilon``); label each decision with a choice of a kind in
    ``label_kinds`` (``player.kinds``: 1 card, 2 bid, 3 other; the data of the others stay
    empty) with probability ``label_rate``: each of its legal actions is
    applied to a copy of the table, played to the deal's end by the same players (not
    exploring), ``chunk`` copies at a time; the label is the acting seat's reward (its
    team's deal point difference, 0 for a void deal) / ``value_unit(rules)``.

    Opponent pool: a ``pool_rate`` share of the deals seat a member of ``pool`` (past
    copies of the networks; one member a deal, drawn uniformly) at some seats (one of the
    14 seatings of one to three seats, drawn uniformly), in the deal and in its rollouts;
    only ``player``'s decisions are labelled. So the networks learn to partner and to face
    players that are not copies of themselves; a pool member's ``epsilon`` (random legal
    moves, in the deal and in its rollouts) makes it a weaker player than its networks.
    ``pool_seating="partner"`` seats the member at two neighbouring seats instead (one of
    the 4 such pairs, drawn uniformly: one seat of each team), so every decision labelled
    in that deal is made beside a pool partner, against one copy of the player and one
    pool member.

    Game-aware labels: with ``game_value`` (a ``training.game_value.GameValue``) each deal
    starts from game scores drawn by ``game_value.positions`` (seeded by ``seed``), every
    seat's observation carries them (the ``scores`` block), and a label is the change in
    the acting team's chance of winning the game (``GameValue.label``: at 0-0 about the
    point-difference label) instead of the deal's point difference.

    Sampled worlds: with ``worlds`` above 1, every legal action of a labelled decision is
    rolled out in the true deal and in ``worlds - 1`` worlds drawn from the acting seat's
    information set (``world_snapshots``: the other hands redrawn consistent with what the
    seat has seen, the deal's actions replayed), by the same players; its label is the mean
    over the worlds (each world's actions share that world's deal). The label then values
    the information set rather than one deal of it, at ``worlds`` times the rollouts.

    Returns ``RolloutData``. Raises ``ValueError`` for ``deals`` < 1, ``label_rate``
    outside (0, 1], ``chunk`` < 1, ``pool_rate`` outside [0, 1] (or above 0 with no
    pool), ``label_kinds`` not a non-empty tuple of kinds 1..3, ``worlds`` not an int
    in 1..64, or ``pool_seating`` not ``"any"`` or ``"partner"``.
    """
    if not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be an int >= 1, got {deals!r}")
    if not 0.0 < label_rate <= 1.0:
        raise ValueError(f"label_rate must be in (0, 1], got {label_rate!r}")
    if not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be an int >= 1, got {chunk!r}")
    if (not isinstance(label_kinds, tuple) or not label_kinds
            or not all(type(k) is int and 1 <= k <= 3 for k in label_kinds)):
        raise ValueError(f"label_kinds must be a non-empty tuple of decision kinds 1 (card), 2 (bid), 3 (other), "
                         f"got {label_kinds!r}")
    if type(worlds) is not int or not 1 <= worlds <= 64:
        raise ValueError(f"worlds must be an int in 1..64 (1: the true deal alone), got {worlds!r}")
    pool = list(pool or [])
    if not 0.0 <= pool_rate <= 1.0 or (pool_rate > 0 and not pool):
        raise ValueError(f"pool_rate must be in [0, 1] (0 without a pool), got {pool_rate!r} with "
                         f"{len(pool)} pool players")
    unit = value_unit(rules)
    start = None if game_value is None else game_value.positions(np.random.default_rng([seed, 17]), deals)
    root = BatchedGame(deals, rules, seed=seed, autoreset=False)
    pick = np.random.default_rng([seed, 7])
    seating = pool_seats(deals, seed, pool_rate, len(pool), pool_seating)
    snaps, obs_rows, kinds, seats, dealt = [], [], [], [], []
    infos, at_step, history = [], [], []  # with sampled worlds: each decision's information set and step
    n_decisions = 0
    while True:
        live = np.flatnonzero(root.state[:, _PH] != PHASE_OVER)
        if not len(live):
            break
        n_decisions += len(live)
        obs = np.empty((len(live), player.size), dtype=np.float32)
        encode_tables_kernel(root.state, root.bids, root.mask, root.points, live,
                             root.current[live].astype(np.int64), obs)
        _put_scores(obs, None if start is None else start[live], root.current[live])
        kind = player.kinds(root, live)
        who = seating[live, root.current[live]]
        chosen = np.flatnonzero(np.isin(kind, label_kinds) & (who < 0) & (pick.random(len(live)) < label_rate))
        if len(chosen):
            snaps.append(_snapshot(root, live[chosen]))
            obs_rows.append(obs[chosen].astype(np.float16))
            kinds.append(kind[chosen])
            seats.append(root.current[live[chosen]].astype(np.int64))
            dealt.append(live[chosen])
            if worlds > 1:
                infos += [root.infoset(int(t), int(root.current[t])) for t in live[chosen]]
                at_step += [len(history)] * len(chosen)
        actions = np.zeros(deals, dtype=np.int64)
        actions[live] = _play(player, pool, who, root, live, True, obs=obs, kind=kind)
        if worlds > 1:  # every live table acts at every step: table t's actions are the first steps'
            history.append(actions.copy())
        root.step(actions)
    if not snaps:
        empty = {"obs": np.zeros((0, player.size), np.float16)}
        return RolloutData({**empty, "mask": np.zeros((0, NUM_CARDS), bool), "q": np.zeros((0, NUM_CARDS), np.float32)},
                           {**empty, "mask": np.zeros((0, player.width), bool), "q": np.zeros((0, player.width), np.float32)},
                           {**empty, "mask": np.zeros((0, 112), bool), "q": np.zeros((0, 112), np.float32)},
                           deals, n_decisions, 0, 0)
    snap = {k: np.concatenate([s[k] for s in snaps]) for k in snaps[0]}
    obs_all, kind_all, seat_all = np.concatenate(obs_rows), np.concatenate(kinds), np.concatenate(seats)
    deal_all = np.concatenate(dealt)
    legal = snap["mask"] != 0
    n_dec = len(legal)
    row_dec = np.arange(n_dec)  # the decision of each snapshot row (world 0: the true deal)
    if worlds > 1:
        hist = np.stack(history, axis=1)[deal_all]  # (decisions, steps): the deal's actions
        more = world_snapshots(rules, infos, np.array(at_step), hist, worlds - 1, seed=seed * 31 + 5, chunk=chunk)
        w_dec = np.repeat(row_dec, worlds - 1)
        if ((more["mask"] != snap["mask"][w_dec]).any()
                or (more["state"][:, _CUR] != snap["state"][w_dec, _CUR]).any()):
            raise RuntimeError("a sampled world gives the acting seat another mask or turn (a bug)")
        snap = {k: np.concatenate([snap[k], more[k]]) for k in snap}
        row_dec = np.concatenate([row_dec, w_dec])
    # one rollout per (snapshot row, legal action)
    row, act = np.nonzero(snap["mask"] != 0)
    dec = row_dec[row]
    value = np.zeros(len(dec), dtype=np.float32)
    n_roll_decisions = 0
    game = BatchedGame(min(chunk, len(dec)), rules, seed=seed, autoreset=False)
    for a in range(0, len(dec), game.n):
        d, ac = dec[a:a + game.n], act[a:a + game.n]
        k = len(d)
        to = np.arange(k)
        game.state[k:, _PH] = PHASE_OVER
        for name in ("state", "deck", "bids", "rng", "mask"):
            getattr(game, name)[to] = snap[name][row[a:a + game.n]]
        game.done[:] = False
        actions = np.zeros(game.n, dtype=np.int64)
        actions[to] = ac
        got = np.zeros(game.n, dtype=np.float32)
        seat = np.zeros(game.n, dtype=np.int64)
        seat[to] = seat_all[d]
        table_seating = np.full((game.n, 4), -1, dtype=np.int64)
        table_seating[to] = seating[deal_all[d]]
        table_start = None
        if start is not None:
            table_start = np.zeros((game.n, 2), dtype=np.int64)
            table_start[to] = start[deal_all[d]]
        while True:
            game.step(actions)
            ended = np.flatnonzero(game.done)
            if len(ended):
                got[ended] = (game.rewards[ended, seat[ended]] / unit if table_start is None else
                              game_value.label(_us_them(table_start[ended], seat[ended]),
                                               _us_them(game.result[ended, :2], seat[ended])))
            live = np.flatnonzero(game.state[:, _PH] != PHASE_OVER)
            if not len(live):
                break
            n_roll_decisions += len(live)
            actions = np.zeros(game.n, dtype=np.int64)
            actions[live] = _play(player, pool, table_seating[live, game.current[live]], game, live, False,
                                  scores=None if table_start is None else table_start[live])
        value[a:a + k] = got[:k]
    q_all = np.zeros(legal.shape, dtype=np.float32)
    np.add.at(q_all, (dec, act), value / worlds)  # the mean over the worlds (one row each when worlds is 1)

    def part(k: int, first: int, width: int) -> dict:
        rows = np.flatnonzero(kind_all == k)
        return {"obs": obs_all[rows], "mask": legal[rows, first:first + width],
                "q": q_all[rows, first:first + width]}

    return RolloutData(part(1, 0, NUM_CARDS), part(2, player.first, player.width), part(3, 0, legal.shape[1]),
                       deals, n_decisions, len(dec), n_roll_decisions)
