"""Tier ``expert``: determinized sampling with an exact double-dummy solver (PIMC).

At each card decision the policy draws hidden-hand samples consistent with its
information set (``belote_env.sampling.sample_hidden_hands``, RULES.md §11), solves each
sample exactly (``belote_env.solver``: every legal card's final card points for the
takers with perfect play, RULES.md §4), turns each card's points into the deal's point
difference for its own team (``scoring.score_deal``: made / dedans / litige, belote and
declarations of that sample, the litige reserve, RULES.md §5-§7) and plays the card with
the best total. The solver counts card points; a side's total of all 162 points is
scored as its capot (RULES.md §7).

Bidding by search (``search_bids``, on by default in ``SearchPolicy``; the ``expert`` tier
turns it off and bids as hard, see below; RULES.md §3): while bidding a seat holds 5
cards and the stock is hidden. Each
sample deals the others' 5 cards and the 11 stock cards; the stock is then shuffled and
dealt as after a take (the taker the turned card + 2, the others 3, from eldest round the
table, RULES.md §3.5). In each sample every contract the seat may take (a round-1 take, a
round-2 suit, no-trump / all-trump when allowed) is solved from eldest's first lead and
valued as above. Passing is worth 0 points, or, with ``value_pass``, it is valued in the
same sample: the seats still to speak (the rest of this round, then round 2, this seat
included) bid as the model policy (``base``, by default ``normal``) would with their
sampled hands, and the first contract they make is solved the same way (a deal passed out
is worth 0). The seat takes the contract whose mean gain over passing is largest, if it
exceeds ``take_margin`` (points), else passes. A contract whose ``normal`` hand value (``policies.normal.hand_value``) is
below ``prefilter`` is not searched (a pass, which saves the solver's time). The default
prefilter is the normal tier's round-1 take threshold (``TAKE_THRESHOLD[0]``, 7.5): the
search then confirms or vetoes the contracts ``normal`` would take and chooses among them
(also when ``base`` is another policy). Why these settings: docs/experiments/expert.md.

Sampling stops after ``samples`` (``bid_samples`` while bidding) samples, or earlier once
the solver has searched ``node_budget`` nodes (deterministic) or ``time_budget`` seconds
have passed (wall clock: reproducible only while the budget is not reached), but never
before ``min_samples``.

Beliefs (``belief``, a policy used as a model of the other seats): each sample is weighted
by the probability that the model, sitting in each other seat with that sample's hands,
made the bids that seat made and (in card play) played the cards it played: its
``action_probabilities``, or ``1 - belief_noise`` for its own choice and ``belief_noise``
shared by the other legal actions for a deterministic policy. In card play the bids are
weighted too when ``belief_bids`` is set (each seat's 5 cards at bidding time are drawn at
random from its 8), and the partner's cards only when ``belief_partner`` is set. With
``belief_pool`` k > 1 the policy draws k uniform candidates per sample, weighs them and
keeps ``samples`` of them in proportion to their weights (systematic resampling), so
every solved sample comes from the posterior; with k = 1 the weights multiply the
samples' values instead.

The ``expert`` tier (``expert_policy``) bids as the ``hard`` tier (its ``base``:
``search_bids`` is off) and searches card play: up to 48 samples (``EXPERT``) within a
``node_budget`` of 6M solver nodes (on the first tricks that budget stops it early),
drawn from the posterior of a ``normal``-tier model of the other seats (8 candidates per
sample resampled by that model's likelihood of all the bids and the opponents' cards),
with hard's card values as a prior worth 48 samples. How many samples fit in the node
budget depends on the solver's bound table, which the earlier calls filled: a decision is
still a function of (seed, calls so far, info set). The screens that chose these settings
(``scripts/screen_expert.py``) are in docs/experiments/expert.md, the matches in
docs/results.md.

A prior (``prior``, a policy with ``card_values``, e.g. the hard tier's card-value
network, and ``prior_weight`` w): each candidate card's total is the sum of its
point differences over the n samples (weighted samples rescaled to n) plus w x 162 x its
prior value, so the prior counts as w more samples; ``last_values`` holds each
candidate's total / (n + w). With ``search_bids`` False the bids go to ``base`` and only
card play is searched.

Search on top of a policy: with ``base`` (a policy) and ``top_k``, only the base's
``top_k`` preferred legal actions (by ``action_probabilities`` when it has them, else its
choice first) are searched, and ties go to the base's preference; ``make_policy("hard+
search")`` builds that. Decisions the search does not cover are delegated to the
``base`` policy, by default the ``normal`` tier: declarations (RULES.md §6), any action
other than a card, pass, take or name-a-contract (coinche or two-player ids, should a rule
set offer them); the optional belote announcement goes with the chosen card
(``with_belote``, RULES.md §5).

The policy reads only the ``InfoSet`` it is given; its random numbers come from its own
``random.Random`` (``rng``), so a decision is a function of (seed, calls so far, info set)
when ``time_budget`` is None.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from itertools import islice

from belote_env import InfoSet
from belote_env.actions import ANNOUNCE_BELOTE, CLASSIC_BIDS, DECLARE, PASS, bid_denomination, is_card
from belote_env.auction import Auction, new_auction
from belote_env.cards import POINTS, STRENGTH
from belote_env.dealing import DealError, complete, deck_for_final_hands
from belote_env.sampling import HiddenHandSampler, SamplingError
from belote_env.scoring import belote_points, deal_difference, declaration_points
from belote_env.solver import Position, Solver
from belote_env.table import NUM_SEATS, SEATS, TEAM_OF, eldest_of, seats_from, team_of

from .base import Policy, with_belote
from .normal import TAKE_THRESHOLD, NormalPolicy, hand_value

__all__ = ["SearchPolicy", "DEFAULTS", "EXPERT", "SEARCH_TOP_K", "expert_policy"]

#: Default settings of ``SearchPolicy`` (see its arguments).
DEFAULTS = dict(samples=12, bid_samples=8, min_samples=4, node_budget=3_000_000, time_budget=None,
                take_margin=0.0, prefilter=TAKE_THRESHOLD[0], value_pass=False, belief_pool=1, belief_noise=0.2,
                belief_bids=False, belief_partner=True, prior_weight=0.0, search_bids=True)

#: Settings of the ``expert`` tier beyond ``DEFAULTS`` (``expert_policy`` adds the models):
#: up to 48 samples within 6M solver nodes, drawn from the posterior of a ``normal``-tier
#: model of the other seats (its bids, and the opponents' cards), by resampling 8 uniform
#: candidates per sample (RULES.md §11: the model reads only public actions and the sampled
#: hands); hard's card values as a prior worth 48 samples; the bids left to the base (hard).
EXPERT = dict(samples=48, node_budget=6_000_000, belief_pool=8, belief_noise=0.2, belief_bids=True,
              belief_partner=False, search_bids=False, prior_weight=48.0)

#: Candidates searched by ``make_policy("<policy>+search")``: the policy's top 3 actions.
SEARCH_TOP_K = 3

_BID_IDS = frozenset(CLASSIC_BIDS)

# the earlier private names (the scoring functions moved to ``belote_env.scoring``)
def _capot_open(info: InfoSet) -> tuple[bool, bool]:
    """(team 0, team 1) may still win every trick: the other team has won none so far."""
    won = [False, False]
    for _, _, winner in info.tricks:
        won[TEAM_OF[winner]] = True
    return not won[1], not won[0]


class SearchPolicy:
    """Determinized-sampling search with a double-dummy solver (tier ``expert``; see the
    module docstring).

    Args:
        seed: seed of the policy's own ``random.Random``.
        samples: hidden-hand samples per card decision (int >= 1).
        bid_samples: samples per bidding decision (int >= 1).
        min_samples: samples always drawn before a budget may stop sampling (int >= 1, at
            most ``samples`` and ``bid_samples``; None: the smallest of 4, ``samples`` and
            ``bid_samples``).
        node_budget: solver nodes per decision after which sampling stops (int >= 1, or
            None for no limit); deterministic.
        time_budget: seconds per decision after which sampling stops (float > 0, or None).
        take_margin: mean point difference (points per deal) a contract must exceed to be
            taken rather than passing (float).
        prefilter: contracts whose ``normal`` hand value is below this are passed without
            search (float; ``None`` searches every contract).
        value_pass: value passing by the model auction (see the module docstring) rather
            than as 0 points (bool).
        base: a policy that orders / limits the candidates and takes the decisions the
            search does not cover (default: the ``normal`` tier).
        top_k: search only the base policy's ``top_k`` preferred actions (int >= 1), or
            None for every legal action.
        belief: a policy instance, the model of the other seats whose likelihood of their
            observed bids and cards weights the samples, or None (uniform samples).
        belief_pool: candidates drawn per sample and resampled by weight (int 1..1000; 1:
            the weights multiply the samples' values). The candidates are all drawn and
            weighed (about 0.5 ms each) before the solving, outside ``node_budget`` and
            ``time_budget``.
        belief_noise: probability a deterministic belief policy gives to the actions it
            would not take, shared among them (float, 1e-6 <= p < 1).
        belief_bids: in card play, weight the bids too (bool).
        belief_partner: in card play, weight the partner's cards too (bool).
        The four ``belief_*`` arguments must keep their defaults when ``belief`` is None.
        prior: a policy instance with ``card_values(info)`` (values in units of 162
            points, like ``NetworkPolicy`` with a card-value network), or None.
        prior_weight: how many samples the prior's values count as (float, 0 < w <= 1e6
            with a prior, 0 without one).
        search_bids: search the classic bids (True) or leave every bid to ``base`` (bool).
        name: display name, a non-empty str (default ``"expert"``).

    Raises:
        ValueError: a bad argument (naming it).
    """

    def __init__(self, seed: int | None = None, samples: int = DEFAULTS["samples"],
                 bid_samples: int = DEFAULTS["bid_samples"], min_samples: int | None = None,
                 node_budget: int | None = DEFAULTS["node_budget"], time_budget: float | None = DEFAULTS["time_budget"],
                 take_margin: float = DEFAULTS["take_margin"], prefilter: float | None = DEFAULTS["prefilter"],
                 value_pass: bool = DEFAULTS["value_pass"],
                 base: Policy | None = None, top_k: int | None = None, belief: Policy | None = None,
                 belief_pool: int = DEFAULTS["belief_pool"], belief_noise: float = DEFAULTS["belief_noise"],
                 belief_bids: bool = DEFAULTS["belief_bids"], belief_partner: bool = DEFAULTS["belief_partner"],
                 prior: Policy | None = None, prior_weight: float = DEFAULTS["prior_weight"],
                 search_bids: bool = DEFAULTS["search_bids"], name: str = "expert"):
        if min_samples is None and isinstance(samples, int) and isinstance(bid_samples, int):
            min_samples = min(DEFAULTS["min_samples"], samples, bid_samples)
        for arg, v in (("samples", samples), ("bid_samples", bid_samples), ("min_samples", min_samples)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{arg} must be an int >= 1, got {v!r}")
        if node_budget is not None and (isinstance(node_budget, bool) or not isinstance(node_budget, int)
                                        or node_budget < 1):
            raise ValueError(f"node_budget must be an int >= 1 or None, got {node_budget!r}")
        if time_budget is not None and (isinstance(time_budget, bool) or not isinstance(time_budget, (int, float))
                                        or not time_budget > 0):
            raise ValueError(f"time_budget must be a number of seconds > 0 or None, got {time_budget!r}")
        if min_samples > samples or min_samples > bid_samples:
            raise ValueError(f"min_samples must be at most samples ({samples}) and bid_samples ({bid_samples}), "
                             f"got {min_samples!r}")
        for arg, v, none_ok in (("take_margin", take_margin, False), ("prefilter", prefilter, True)):
            if v is None and none_ok:
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"{arg} must be a finite number of points{' or None' if none_ok else ''}, got {v!r}")
        for arg, v in (("value_pass", value_pass), ("belief_bids", belief_bids), ("belief_partner", belief_partner),
                       ("search_bids", search_bids)):
            if not isinstance(v, bool):
                raise ValueError(f"{arg} must be a bool, got {v!r}")
        if isinstance(belief_pool, bool) or not isinstance(belief_pool, int) or not 1 <= belief_pool <= 1000:
            raise ValueError(f"belief_pool must be an int from 1 to 1000, got {belief_pool!r}")
        if (isinstance(belief_noise, bool) or not isinstance(belief_noise, (int, float))
                or not 1e-6 <= belief_noise < 1.0):
            raise ValueError(f"belief_noise must be a probability from 1e-6 to below 1 (smaller ones can underflow "
                             f"the weights), got {belief_noise!r}")
        if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1):
            raise ValueError(f"top_k must be an int >= 1 or None, got {top_k!r}")
        for arg, v in (("base", base), ("belief", belief)):
            if v is not None and (isinstance(v, type) or not callable(getattr(v, "act", None))):
                what = f"the class {v.__name__} (pass an instance)" if isinstance(v, type) else type(v).__name__
                raise ValueError(f"{arg} must be a policy instance (with act(info)), got {what}")
        if belief is None:
            for arg, v in (("belief_pool", belief_pool), ("belief_noise", belief_noise), ("belief_bids", belief_bids),
                           ("belief_partner", belief_partner)):
                if v != DEFAULTS[arg]:
                    raise ValueError(f"{arg} has no effect without a belief policy (belief=None)")
        if prior is not None and (isinstance(prior, type) or not callable(getattr(prior, "card_values", None))
                                  or getattr(prior, "card_net", True) is None):
            what = f"the class {prior.__name__}" if isinstance(prior, type) else type(prior).__name__
            raise ValueError(f"prior must be a policy instance with card_values(info) (a model with a card-value "
                             f"network, e.g. the hard tier), got {what}")
        if (isinstance(prior_weight, bool) or not isinstance(prior_weight, (int, float))
                or not 0 <= prior_weight <= 1e6):
            raise ValueError(f"prior_weight must be a number of samples from 0 to 1e6, got {prior_weight!r}")
        if prior is None and prior_weight != 0:
            raise ValueError("prior_weight has no effect without a prior (prior=None)")
        if prior is not None and prior_weight == 0:
            raise ValueError("a prior needs prior_weight > 0 (the samples its values count as)")
        if not isinstance(name, str) or not name:
            raise ValueError(f"name must be a non-empty str, got {name!r}")
        self.name = name
        self.prior, self.prior_weight, self.search_bids = prior, float(prior_weight), bool(search_bids)
        self.rng = random.Random(seed)
        self.samples, self.bid_samples, self.min_samples = samples, bid_samples, min_samples
        self.node_budget, self.time_budget = node_budget, time_budget
        self.take_margin, self.prefilter, self.value_pass = float(take_margin), prefilter, bool(value_pass)
        self.base: Policy = base if base is not None else NormalPolicy(seed)
        self.top_k, self.belief = top_k, belief
        self.belief_pool, self.belief_noise, self.belief_bids = belief_pool, float(belief_noise), bool(belief_bids)
        self.belief_partner = bool(belief_partner)
        self._bid_model: Policy = NormalPolicy(seed) if isinstance(self.base, SearchPolicy) else self.base
        self.solver = Solver()
        #: after each search decision: samples drawn, solver nodes, seconds (for benches)
        self.last_stats: dict[str, float] = {}
        #: after each card search: each candidate's total over the samples and the prior
        #: divided by (samples with weight + prior_weight): a point difference per deal
        #: (only differences between cards are meaningful with a centred prior)
        self.last_values: dict[int, float] = {}

    # ------------------------------------------------------------------ helpers
    def _candidates(self, info: InfoSet, actions: list[int]) -> list[int]:
        """``actions`` in the base policy's order of preference, cut to ``top_k``."""
        if self.top_k is None and self.base is not None and not hasattr(self.base, "action_probabilities"):
            return actions
        probs = getattr(self.base, "action_probabilities", None)
        if probs is not None:
            p = probs(info)
            ranked = sorted(actions, key=lambda a: (-p.get(a, 0.0), a))
        else:
            first = self.base.act(info)
            ranked = sorted(actions, key=lambda a: (a != first, a))
        return ranked[:self.top_k] if self.top_k is not None else ranked

    def _budget_left(self, n: int, t0: float, nodes: int) -> bool:
        if n < self.min_samples:
            return True
        if self.node_budget is not None and nodes >= self.node_budget:
            return False
        return self.time_budget is None or time.perf_counter() - t0 < self.time_budget

    # ------------------------------------------------------------------ acting
    def act(self, info: InfoSet) -> int:
        """A legal action id for ``info.seat`` (see the module docstring)."""
        self.last_stats, self.last_values = {}, {}
        legal = info.legal_actions
        if len(legal) == 1:
            return legal[0]
        try:
            if info.contract is None:
                if not self.search_bids or not set(legal) <= _BID_IDS:
                    return self.base.act(info)
                return self._bid(info)
            if DECLARE in legal or any(not is_card(a) and a != ANNOUNCE_BELOTE for a in legal):
                return self.base.act(info)
            cards = [a for a in legal if is_card(a)]
            if len(cards) == 1:
                return with_belote(info, cards[0])
            return with_belote(info, self._play(info, cards))
        except SamplingError:  # no consistent deal found (declarations): the base decides
            return self.base.act(info)

    def _play(self, info: InfoSet, cards: list[int]) -> int:
        cands = self._candidates(info, cards)
        if len(cands) == 1:
            return cands[0]
        k, taker = info.denomination, info.taker
        taker_team, my_team = team_of(taker), team_of(info.seat)
        eldest = eldest_of(info.dealer)
        totals = dict.fromkeys(cands, 0.0)
        points = dict.fromkeys(cands, 0.0)
        t0, nodes, n, weights = time.perf_counter(), 0, 0, 0.0
        capot_open = _capot_open(info)
        solved: dict[tuple[int, ...], dict[int, int]] = {}  # a resampled deal drawn again is not solved again
        draws = self._draws(info, self.samples, self._weight)
        while n < self.samples and self._budget_left(n, t0, nodes):
            deal, w = next(draws, (None, 0.0))
            if deal is None:
                break
            n += 1
            if w <= 0.0:
                continue
            vals = solved.get(deal.hands)
            if vals is None:
                pos = Position(deal.hands, k, taker, tuple(info.trick), info.trick_leader, info.rules)
                vals = solved[deal.hands] = self.solver.card_values(pos)
                nodes += self.solver.nodes
            bel = belote_points(info, deal.hands, k)
            decl = declaration_points(info, deal.hands, k, eldest, bool(info.tricks))
            weights += w
            for c in cands:
                final = info.card_points[taker_team] + vals[c]
                totals[c] += w * deal_difference(final, taker_team, my_team, bel, decl, info, capot_open)
                points[c] += w * (final if my_team == taker_team else 162 - final)
        scale = n / weights if weights > 0 else 0.0  # weighted sums -> sums over n samples
        count = n if weights > 0 else 0
        for c in cands:
            totals[c] *= scale
        if self.prior is not None:  # the prior's values count as prior_weight more samples
            prior = self.prior.card_values(info)
            missing = [c for c in cands if c not in prior]
            if missing:
                raise ValueError(f"{self.name}: the prior's card_values gave no value for legal card(s) {missing}")
            for c in cands:
                totals[c] += self.prior_weight * 162.0 * prior[c]
            count += self.prior_weight
        self.last_stats = {"samples": n, "nodes": nodes, "seconds": time.perf_counter() - t0}
        self.last_values = {c: totals[c] / count for c in cands} if count > 0 else {}
        rank = {c: i for i, c in enumerate(cands)}
        pts, st = POINTS[k], STRENGTH[k]
        # best difference; then most card points; then the base's preference / the cheapest card
        return max(cands, key=lambda c: (round(totals[c], 6), round(points[c], 6), -rank[c], -pts[c], -st[c]))

    def _bid(self, info: InfoSet) -> int:
        cands = self._candidates(info, list(info.legal_actions))
        turned_suit = info.turned_card >> 3
        contracts = {a: bid_denomination(a, turned_suit) for a in cands if a != PASS}
        if self.prefilter is not None:
            hand = info.hand | (1 << info.turned_card)
            contracts = {a: k for a, k in contracts.items() if hand_value(hand, k) >= self.prefilter}
        if not contracts:
            self.last_stats = {"samples": 0, "nodes": 0, "seconds": 0.0}
            return PASS if PASS in cands else cands[0]
        me, eldest = info.seat, eldest_of(info.dealer)
        gain = dict.fromkeys(contracts, 0.0)  # per contract: weighted sum of (take - pass) differences
        weights = 0.0
        t0, nodes, n = time.perf_counter(), 0, 0
        draws = self._draws(info, self.bid_samples, self._bid_weight)
        while n < self.bid_samples and self._budget_left(n, t0, nodes):
            deal, w = next(draws, (None, 0.0))
            if deal is None:
                break
            n += 1
            if w <= 0.0:
                continue
            stock = [c for c in range(32) if deal.stock >> c & 1]
            self.rng.shuffle(stock)
            passed = 0.0  # my team's difference if I pass (0: a neutral pass by default)
            other = self._auction_after_pass(info, deal.hands) if PASS in cands and self.value_pass else None
            if other is not None:
                taker, k = other
                full = tuple(complete(deal.hands, info.turned_card, stock, taker, info.dealer))
                value = self.solver.solve(Position(full, k, taker, (), eldest, info.rules))
                nodes += self.solver.nodes
                passed = deal_difference(value, team_of(taker), team_of(me), belote_points(info, full, k),
                                         declaration_points(info, full, k, eldest, False, taker), info)
            full = tuple(complete(deal.hands, info.turned_card, stock, me, info.dealer))
            for a, k in contracts.items():
                value = self.solver.solve(Position(full, k, me, (), eldest, info.rules))
                nodes += self.solver.nodes
                took = deal_difference(value, team_of(me), team_of(me), belote_points(info, full, k),
                                       declaration_points(info, full, k, eldest, False, me), info)
                gain[a] += w * (took - passed)
            weights += w
        rank = {a: i for i, a in enumerate(cands)}
        best = max(contracts, key=lambda a: (round(gain[a], 6), -rank[a]))
        self.last_stats = {"samples": n, "nodes": nodes, "seconds": time.perf_counter() - t0,
                           "gain": gain[best] / weights if weights > 0 else 0.0}
        if PASS not in cands or (weights > 0 and gain[best] / weights > self.take_margin):
            return best
        return PASS

    def _model_bid(self, info: InfoSet, hand: int, auction: Auction) -> int:
        """The bid the model (``base``; ``normal`` when the base is itself a search) makes
        for the seat to bid in ``auction``, holding the 5-card ``hand``."""
        legal = auction.legal_bids()
        seat = auction.current
        view = replace(info, seat=seat, hand=hand, current_seat=seat, bid_round=auction.bid_round,
                       auction=tuple(auction.history), legal_actions=legal)
        a = self._bid_model.act(view)
        return a if a in legal else PASS

    def _auction_after_pass(self, info: InfoSet, hands: tuple[int, ...]) -> tuple[int, int] | None:
        """(taker, denomination) when, after this seat passes, the model's bids for the
        seats still to speak (the rest of the auction, this seat included) make a contract,
        else None (passed out)."""
        auction = new_auction(info.dealer, info.turned_card, info.rules, info.auction)
        auction.apply(PASS)
        while not auction.is_over:
            auction.apply(self._model_bid(info, hands[auction.current], auction))
        c = auction.contract
        return None if c is None else (c.taker, c.denomination)

    # ------------------------------------------------------------------ beliefs
    def _draws(self, info: InfoSet, n: int, weight):
        """Yield (hidden deal, weight) pairs. Without ``belief``: fresh uniform samples of
        weight 1. With it: ``n * belief_pool`` uniform candidates are weighted by
        ``weight(info, hands)`` and ``n`` of them are drawn in proportion to their weights
        (systematic resampling), each of weight 1; when ``belief_pool`` is 1 the weights are
        returned instead.

        Raises ``SamplingError`` when not even one consistent deal can be drawn."""
        uniform = self._uniform(info)
        if self.belief is None:
            yield from ((deal, 1.0) for deal in uniform)
            return
        if self.belief_pool == 1:
            yield from ((deal, weight(info, deal.hands)) for deal in uniform)
            return
        pool, weights = [], []
        for deal in islice(uniform, n * self.belief_pool):  # each weighed before the next draw (rng order)
            pool.append(deal)
            weights.append(weight(info, deal.hands))
        total = sum(weights)
        if not total > 0.0:
            yield from ((d, 1.0) for d in pool[:n])
            return
        step, u = total / n, self.rng.random() * total / n
        acc, j = weights[0], 0
        for _ in range(n):
            while acc < u and j + 1 < len(pool):
                j += 1
                acc += weights[j]
            yield pool[j], 1.0
            u += step

    def _uniform(self, info: InfoSet):
        """Yield uniform samples of the hidden cards (``HiddenHandSampler``) until one
        cannot be drawn; raises ``SamplingError`` when not even the first can."""
        sampler = HiddenHandSampler(info)
        yield sampler.draw(self.rng)
        while True:
            try:
                deal = sampler.draw(self.rng)
            except SamplingError:
                return
            yield deal

    def _bid_weight(self, info: InfoSet, hands: tuple[int, ...]) -> float:
        """Likelihood, under ``belief``, of the bids the other seats made this deal if their
        5-card hands were ``hands`` (while bidding: the sampled hands)."""
        w = 1.0
        base = info if info.contract is None else _bidding_view(info)
        auction = new_auction(info.dealer, info.turned_card, info.rules)
        for seat, a in info.auction:
            if seat != info.seat:
                view = replace(base, seat=seat, hand=hands[seat], current_seat=seat, bid_round=auction.bid_round,
                               auction=tuple(auction.history), legal_actions=auction.legal_bids())
                w *= self._likelihood(view, a)
            auction.apply(a)
        return w

    def _likelihood(self, view: InfoSet, action: int, also: int = -1) -> float:
        """Probability that ``belief`` takes ``action`` (or ``also``) in ``view``: its
        ``action_probabilities`` when it has them, else 0.8 for its choice and 0.2 shared
        by the other legal actions."""
        probs = getattr(self.belief, "action_probabilities", None)
        if probs is not None:
            p = probs(view)
            return max(p.get(action, 0.0) + p.get(also, 0.0), 1e-6)
        a = self.belief.act(view)
        eps = self.belief_noise
        return 1.0 - eps if a in (action, also) else eps / (len(view.legal_actions) - 1)

    def _weight(self, info: InfoSet, hands: tuple[int, ...]) -> float:
        """Likelihood, under ``belief``, of the cards the other seats played this deal
        if their hands were ``hands`` (plus their played cards)."""
        start = [hands[s] | info.played_by[s] for s in SEATS]
        w = 1.0
        if self.belief_bids and info.auction:
            first = [0] * NUM_SEATS
            for s in SEATS:
                if s != info.seat:
                    rest = start[s] & ~((1 << info.turned_card) if s == info.taker else 0)
                    for c in self.rng.sample([c for c in range(32) if rest >> c & 1], 5):
                        first[s] |= 1 << c
            w = self._bid_weight(info, tuple(first))
        state = _state_with_hands(info, start)
        if state is None:
            return w
        seq = [s for leader, cs, _ in info.tricks for s in seats_from(leader)[:len(cs)]]
        seq += seats_from(info.trick_leader)[:len(info.trick)]
        played = [c for _, cs, _ in info.tricks for c in cs] + list(info.trick)
        announced = {c for _, kind, c in info.announcements if kind == "belote"}
        for seat, c in zip(seq, played):
            modelled = seat != info.seat and (self.belief_partner or TEAM_OF[seat] != TEAM_OF[info.seat])
            if info.declared[seat] and DECLARE in state.legal_actions():
                if modelled:  # the declaration first (RULES.md §6), then the card on the view after it
                    w *= self._likelihood(state.information_set(seat), DECLARE)
                state.apply(DECLARE)
            if modelled:
                view = state.information_set(seat)
                if len(view.legal_actions) > 1:
                    w *= self._likelihood(view, c, ANNOUNCE_BELOTE if c in announced else -1)
            _replay_card(state, c, c in announced)
        return w


def expert_policy(seed: int | None = None) -> SearchPolicy:
    """The ``expert`` tier: ``SearchPolicy`` with ``DEFAULTS`` and ``EXPERT``, its belief a
    ``normal``-tier model of the other seats, its base and prior the ``hard`` tier (it bids
    as hard, and hard's card values count as ``prior_weight`` samples)."""
    from .hard import HardPolicy

    hard = HardPolicy(seed)
    return SearchPolicy(seed, belief=NormalPolicy(seed), base=hard, prior=hard, **EXPERT)


def _bidding_view(info: InfoSet) -> InfoSet:
    """``info`` as it stood before the first bid (card-play fields cleared), for replaying
    the bids under the belief policy."""
    none = (0,) * NUM_SEATS
    return replace(info, phase=0, contract=None, denomination=-1, taker=-1, trick=(),
                   trick_leader=eldest_of(info.dealer), tricks=(),
                   played_by=none, hand_sizes=(5,) * NUM_SEATS, card_points=(0, 0), announcements=(),
                   declared=((),) * NUM_SEATS, public_knowledge=(none, none))


def _state_with_hands(info: InfoSet, hands: list[int]):
    """A ``GameState`` at the first lead of this deal with the given 8-card hands, the
    public bids and contract (``dealing.deck_for_final_hands`` builds a deck that deals
    them) and the game scores, litige reserve and deal number of ``info``, or None when
    the rule set's deal cannot be rebuilt that way."""
    from belote_env import GameState

    try:
        deck = deck_for_final_hands(hands, info.turned_card, info.taker, info.dealer)
    except DealError:
        return None
    # the match context of ``info``: its views then match the real ones field for field (a
    # single deal: only this deal is replayed, and a single deal's scores pass any target)
    state = GameState(info.rules, dealer=info.dealer, deck=deck, scores=info.scores, reserve=info.reserve,
                      deal_number=info.deal_number, single_deal=True)
    for _, a in info.auction:
        state.apply(a)
    return state if state.phase == 1 else None


def _replay_card(state, c: int, announced: bool) -> None:
    """Play card ``c`` for the seat to act, with the belote announcement it made with it
    (a declaration is applied by the caller)."""
    legal = state.legal_actions()
    if announced and ANNOUNCE_BELOTE in legal:
        state.apply(ANNOUNCE_BELOTE)
    state.apply(c)
