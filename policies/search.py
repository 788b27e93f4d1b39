"""Tier ``expert``: determinized sampling with an exact double-dummy solver (PIMC).

At each card decision the policy draws hidden-hand samples consistent with its
information set (``belote_env.sampling.sample_hidden_hands``, RULES.md §11), solves each
sample exactly (``belote_env.solver``: every legal card's final card points for the
takers with perfect play, RULES.md §4), turns each card's points into the deal's point
difference for its own team (``scoring.score_deal``: made / dedans / litige, belote and
declarations of that sample, the litige reserve, RULES.md §5-§7) and plays the card with
the best total. The solver counts card points; a side's total of all 162 points is
scored as its capot (RULES.md §7).

Classic bidding by search (``search_bids``, on by default in ``SearchPolicy``; the
``expert`` tier turns it off and bids as hard, see below; RULES.md §3; the coinche
auction: see Coinche below): while bidding a seat holds 5 cards and the stock is hidden.
Each sample deals the others' 5 cards and the 11 stock cards; the stock is then shuffled and
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
sample, ``belief_lazy``: weighed as the search asks for each sample, and one kept in
proportion to that model's likelihood of all the bids and the opponents' cards), with
hard's card values as a prior worth 48 samples, stopping once the leading card is settled
(``stop_z`` 1.5, chosen by duplicate matches in docs/results.md, 2026-12-05: about a fifth
of the full search's time at the median card decision). ``full_expert`` is the search
without the lazy weighing and the stop (the tier until then). How many samples fit in the node
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
other than a card, pass, take or name-a-contract (two-player ids, should a rule set offer
them; coinche bids are searched, see below); the optional belote announcement goes with the chosen card
(``with_belote``, RULES.md §5).

The policy reads only the ``InfoSet`` it is given; its random numbers come from its own
``random.Random`` (``rng``), so a decision is a function of (seed, calls so far, info set)
when ``time_budget`` is None.

Coinche (``Rules(contract_mode="coinche")``, docs/COINCHE.md)
--------------------------------------------------------------

**Card play** is the search above, with each sample's card points scored as the coinche
deal against the contract (``scoring.deal_difference``, which calls
``score_coinche_deal`` with ``info.contract``: level, coinche / surcoinche multiplier,
belote prenable or imprenable, capot points and capot contracts, rounding; COINCHE.md
§5, §6). That score is a step in the takers' points (flat below the contract, a jump of
about 4V at it, slope 2 above; COINCHE.md §9), so the search values cards by the mean
*deal score* over the samples, never by mean card points: a card that makes the
contract in 9 samples of 10 beats one that wins 10 more points in each but makes it in
5. Within one sample the solver's exact card points are the exact double-dummy deal
score: the score never decreases as the takers' points rise, so the takers maximising
points and the defence minimising them also maximise / minimise the score (max and min
commute with a non-decreasing function); no threshold search is needed. A capot
contract is made when the takers end with all 162 points while they have lost no trick
yet (``_capot_open``; as in the classic search, a trick of four cards worth 0 that is
not the last is the one case where 162 points are not a capot). A générale (§6.8) needs
the bidder alone to win every trick, which the solver's team points do not tell: it is
scored as made on a takers' capot when the bidder won every trick so far
(``deal_difference``). The classic tiers' networks (the hard tier) read the classic
observation: in coinche the ``base`` is the hard tier's coinche model (``HardPolicy.for_rules``:
declarations, belote announcements, an info set no sample fits; ``normal`` for a base
that cannot play coinche) and the
``prior`` is left out. Cards tied in every sample so far (coinche scores are flat wherever
the contract's fate is settled, so such exact ties are common) let ``stop_z`` stop the
search once a quarter of its samples are solved (``STOP_TIE_SHARE``); the tie is then
broken as at the end of a search.

**The auction** (``search_coinche_bids``, on by default and in the ``expert`` tier;
COINCHE.md §3) is searched by rollouts. At a bidding decision:

1. *Samples.* The hidden 8-card hands (every card is dealt before the auction, §2) are
   drawn as in card play: uniform, or from the posterior of the ``belief`` model given
   the bids made so far (``belief_pool``). A deterministic belief gives its own bid
   ``1 - belief_noise`` and another bid ``belief_noise x 0.5 ** steps`` (a step per 10
   points of level, one more for another denomination), any other mismatch
   ``belief_noise / 2``: a coinche auction offers up to 40 bids, and sharing the noise
   among them all would leave a posterior of one or two deals.
2. *Candidates.* The model's own choice (the ``anchor``: ``base``, the hard tier's
   coinche model for the expert, ``normal``'s ``coinche_bidding.normal_coinche_bid`` for a
   base that cannot play coinche), pass, coinche and
   surcoinche when legal, and bids: in the partner's contract's denomination, the
   anchor's, and the ``bid_denominations`` (2) denominations of highest
   ``coinche_bidding.estimate_points`` whose estimate plus ``PARTNER_POINTS`` plus
   ``bid_slack`` (30) reaches their lowest legal level, the ``bid_levels`` (9) lowest
   legal levels of each, and capot. A générale is not searched.
3. *Rollout.* In each sample each candidate is applied to the real auction, and the
   model (the anchor's policy) bids for every seat after it (this one included), on
   the sample's hands, until the auction ends (``auction.new_auction``: every option of
   §3.5 is played). A passed-out deal is worth 0 (§3.6).
4. *Value.* The contract it ends in is solved from the opening lead (eldest; the
   bidder of a générale under ``generale_leads``, §4) and scored for this seat's team by
   ``deal_difference`` (§6, with the sample's belote and declarations). The solves are
   shared: one per denomination (and leader) in a sample, however many candidates and
   levels end in it and whichever team takes (the double-dummy card points are
   zero-sum: one team's are 162 less the other's), so the levels of a denomination cost
   rollouts only.
5. *Choice.* Each candidate's gain over the anchor in each sample (the same samples
   for all: a paired comparison) is averaged; its lower bound is that mean less
   ``bid_z`` standard errors. The candidate with the largest lower bound is chosen when
   that bound exceeds ``bid_margin`` (points per deal), else the anchor; ties go to the
   anchor, then to pass, coinche, surcoinche, and the lower bid. With 16 samples a
   deal's score varies by hundreds of points from sample to sample (a step of about 4V
   at the contract, COINCHE.md §9), and the best of some twenty means is biased up:
   without the bound the search bid 120♣ on 7♥ 8♥ 7♦ 8♦ 9♦ 7♣ 8♣ 9♣, a few samples
   giving the partner a strong club hand.

Budget: ``bid_samples`` samples, at least ``min_samples``, stopping early once the solver
has searched ``bid_node_budget`` nodes (``node_budget`` when None) or ``time_budget``
seconds have passed. ``take_margin``, ``prefilter`` and ``value_pass`` are classic
settings (the coinche search always values pass by its rollout). The ``expert`` tier
(``EXPERT``) searches its coinche auction with 16 samples within 16M nodes (about 1-6 s
a decision on a 2-core machine shared with other jobs), ``bid_margin`` 10 and ``bid_z``
1.5; these settings are a first choice, not tuned by matches.
``last_values`` then holds each candidate's mean (points per deal) and ``last_stats``
the samples, nodes and seconds.

Limits: the rollouts assume the other seats bid as the model does (against a model that
coinches readily, as ``normal`` does, a bid that invites a coinche and then a surcoinche
is valued as such), and double-dummy values assume both sides play as if they saw every
card; both are estimates, with the noise of ``bid_samples`` samples.

Two and three seats (TWO_THREE.md)
----------------------------------

At a card decision with more than one legal card (with ``top_k``, ``<policy>+search``:
the base's ``top_k`` preferred cards, ``_candidates``), ``samples`` deals of the hidden cards
are drawn uniformly among those consistent with the information set
(``sampling.sample_hidden_hands``: voids shown by the play, the exchanged turned card, the
scoring combination's cards, hand sizes; the unused face-down cards and the taker's
discards form one more location). Each deal is solved exactly for every legal card
(``solver.Solver.card_values``: the maker's card points with both sides playing
perfectly; at three seats the two defenders share the side's value), and each value is
turned into the acting seat's recorded-points margin (``deal_margin``). The card with the
best mean margin is played, ties to the lowest id. A three-seat deal is searched exactly
only once at most ``exact_cards`` cards are left in the hands (valuing every first card of
a three-seat deal takes about 60 ms compiled, times ``samples``; ``scripts/bench_search.py``);
before that, and at every other decision (bidding, the seven
exchange, the combinations protocol), ``base`` decides (the hard tier plays there with
its model of the table; ``normal`` stands in for a network of another table); a belote
claim is always made. ``time_budget`` stops the sampling of a card decision once
``min_samples`` deals are solved, as at four seats (``expert@<N>ms``); ``node_budget``,
the belief and the prior are not read there.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from itertools import islice

import numpy as np

from belote_env import InfoSet
from belote_env.actions import (
    ANNOUNCE_BELOTE, CLASSIC_BIDS, COINCHE, DECLARE, PASS, SURCOINCHE, bid_denomination, coinche_bid_level, is_card,
    is_coinche_bid,
)
from belote_env.auction import Auction, new_auction
from belote_env.games import game_of
from belote_env.cards import POINTS, POINTS_BY_ALL_TRUMP_OPTION, STRENGTH, Rank, card, cards_of
from belote_env.contract import CAPOT, GENERALE, Contract
from belote_env.declarations import combinations_of
from belote_env.dealing import (
    HAND_SIZE, DealError, complete, deck_for_final_hands, deck_from_full_hands, is_whole_deal,
)
from belote_env.observation import action_mask, encode_infoset, obs_size
from belote_env.sampling import HiddenHandSampler, SamplingError, sample_hidden_hands
from belote_env.scoring import TOTAL_POINTS, belote_points, deal_difference, declaration_points
from belote_env.game import BELOTE, LAST_TRICK, STEPS
from belote_env.solver import Position, Solver
from belote_env.table import NUM_SEATS, SEATS, TEAM_OF, eldest_of, partner_of, seats_from, team_of

from .base import Policy, reseed_nested, with_belote
from .coinche_bidding import PARTNER_POINTS, estimate_points
from .normal import TAKE_THRESHOLD, NormalPolicy, hand_value

__all__ = ["SearchPolicy", "DEFAULTS", "EXPERT", "STOP_TIE_SHARE", "SEARCH_TOP_K", "expert_policy", "lazy_expert",
           "full_expert", "uniform_expert", "deal_margin", "plain_weight"]

#: Default settings of ``SearchPolicy`` (see its arguments).
DEFAULTS = dict(samples=12, bid_samples=8, min_samples=4, node_budget=3_000_000, time_budget=None,
                take_margin=0.0, prefilter=TAKE_THRESHOLD[0], value_pass=False, belief_pool=1, belief_noise=0.2,
                belief_bids=False, belief_partner=True, prior_weight=0.0, search_bids=True,
                search_coinche_bids=True, bid_levels=9, bid_slack=30.0, bid_denominations=2, bid_margin=0.0,
                bid_z=0.0, bid_node_budget=None, exact_cards=18, stop_z=None, belief_lazy=False)

#: Settings of the ``expert`` tier beyond ``DEFAULTS`` (``expert_policy`` adds the models):
#: up to 48 samples within 6M solver nodes, drawn from the posterior of a ``normal``-tier
#: model of the other seats (its bids, and the opponents' cards), by resampling 8 uniform
#: candidates per sample (RULES.md §11: the model reads only public actions and the sampled
#: hands); hard's card values as a prior worth 48 samples; the bids left to the base (hard).
#: In coinche (COINCHE.md) its auction is searched with up to ``bid_samples`` samples
#: within the same node budget, and hard (classic networks) is replaced by the normal tier.
EXPERT = dict(samples=48, bid_samples=16, node_budget=6_000_000, bid_node_budget=16_000_000, bid_margin=10.0,
              bid_z=1.5,
              belief_pool=8, belief_noise=0.2, belief_bids=True, belief_partner=False, search_bids=False,
              prior_weight=48.0, belief_lazy=True, stop_z=1.5)

#: ``stop_z``: cards tied in every sample so far (coinche without a prior: its scores are
#: flat wherever the contract's fate is settled) let the search stop once
#: ``samples // STOP_TIE_SHARE`` samples are solved (12 of the expert's 48)
STOP_TIE_SHARE = 4

#: Candidates searched by ``make_policy("<policy>+search")``: the policy's top 3 actions.
SEARCH_TOP_K = 3

_BID_IDS = frozenset(CLASSIC_BIDS)
_SUIT_POINTS = POINTS_BY_ALL_TRUMP_OPTION["pagat"]  # card points under a suit trump

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
            taken rather than passing (float; classic bids).
        prefilter: contracts whose ``normal`` hand value is below this are passed without
            search (float; ``None`` searches every contract).
        value_pass: value passing by the model auction (see the module docstring) rather
            than as 0 points (bool).
        base: a policy that orders / limits the candidates and takes the decisions the
            search does not cover (default: the ``normal`` tier). A base whose networks
            read another game's observation (``_plays``: the hard tier's classic networks,
            a ``HardPolicy`` included, in coinche and at two and three seats) is replaced
            there by the ``normal`` tier.
        top_k: search only the base policy's ``top_k`` preferred actions (int >= 1), or
            None for every legal action.
        belief: a policy instance, the model of the other seats whose likelihood of their
            observed bids and cards weights the samples, or None (uniform samples).
        belief_pool: candidates drawn per sample and resampled by weight (int 1..1000; 1:
            the weights multiply the samples' values). The candidates are all drawn and
            weighed (about 0.5 ms each) before the solving, outside ``node_budget`` and
            ``time_budget``.
        belief_lazy: draw and weigh ``belief_pool`` candidates for each sample as the search
            asks for it and keep one of them in proportion to the weights (importance
            resampling group by group), instead of weighing all ``samples * belief_pool``
            first and resampling them together: the weighing then stops with the search
            (``stop_z``, ``node_budget``, ``time_budget``). Bool, default False.
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
        search_coinche_bids: search the coinche auction (True) or leave it to ``base``
            (bool; COINCHE.md §3, see the module docstring).
        bid_levels: in a coinche auction, the numeric levels searched per denomination:
            the lowest ``bid_levels`` legal ones (int >= 1; capot is searched as well).
        bid_slack: in a coinche auction, a denomination is searched only when the normal
            tier's estimate of the hand plus the partner's share
            (``coinche_bidding.estimate_points + PARTNER_POINTS``) plus ``bid_slack``
            reaches its lowest legal level (float points; None: no such filter).
        bid_denominations: in a coinche auction, at most this many denominations are
            searched, those of the highest estimate (int >= 1; None: all), besides the
            partner's contract and the model's own bid.
        bid_margin: in a coinche auction, the gain (points per deal) an action must show
            over the model's own choice to be preferred to it (float >= 0): its mean gain
            over the samples less ``bid_z`` standard errors.
        bid_z: standard errors of that mean gain taken off (float >= 0; 0: the mean).
        bid_node_budget: ``node_budget`` of a coinche bidding decision (int >= 1, or None:
            ``node_budget``).
        exact_cards: at three seats, card play is searched once at most this many cards
            are left in the hands (int >= 3); earlier card decisions are ``base``'s.
        stop_z: four-seat card play: stop sampling once the leading card cannot be
            overtaken: for every other candidate, its paired difference's mean over the
            samples so far less ``stop_z`` standard errors, as if every planned sample
            gave it, plus the prior's difference, does not turn against the leader
            (float in (0, 10], or None: every sample is solved). Checked after
            ``min_samples``.
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
                 search_bids: bool = DEFAULTS["search_bids"],
                 search_coinche_bids: bool = DEFAULTS["search_coinche_bids"], bid_levels: int = DEFAULTS["bid_levels"],
                 bid_slack: float | None = DEFAULTS["bid_slack"],
                 bid_denominations: int | None = DEFAULTS["bid_denominations"],
                 bid_margin: float = DEFAULTS["bid_margin"], bid_z: float = DEFAULTS["bid_z"],
                 bid_node_budget: int | None = DEFAULTS["bid_node_budget"],
                 exact_cards: int = DEFAULTS["exact_cards"], stop_z: float | None = DEFAULTS["stop_z"],
                 belief_lazy: bool = DEFAULTS["belief_lazy"], name: str = "expert"):
        if min_samples is None and isinstance(samples, int) and isinstance(bid_samples, int):
            min_samples = min(DEFAULTS["min_samples"], samples, bid_samples)
        for arg, v in (("samples", samples), ("bid_samples", bid_samples), ("min_samples", min_samples)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{arg} must be an int >= 1, got {v!r}")
        for arg, v in (("node_budget", node_budget), ("bid_node_budget", bid_node_budget),
                       ("bid_denominations", bid_denominations)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise ValueError(f"{arg} must be an int >= 1 or None, got {v!r}")
        if time_budget is not None and (isinstance(time_budget, bool) or not isinstance(time_budget, (int, float))
                                        or not time_budget > 0):
            raise ValueError(f"time_budget must be a number of seconds > 0 or None, got {time_budget!r}")
        if min_samples > samples or min_samples > bid_samples:
            raise ValueError(f"min_samples must be at most samples ({samples}) and bid_samples ({bid_samples}), "
                             f"got {min_samples!r}")
        for arg, v, none_ok in (("take_margin", take_margin, False), ("prefilter", prefilter, True),
                                ("bid_slack", bid_slack, True)):
            if v is None and none_ok:
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"{arg} must be a finite number of points{' or None' if none_ok else ''}, got {v!r}")
        for arg, v in (("value_pass", value_pass), ("belief_bids", belief_bids), ("belief_partner", belief_partner),
                       ("search_bids", search_bids), ("search_coinche_bids", search_coinche_bids)):
            if not isinstance(v, bool):
                raise ValueError(f"{arg} must be a bool, got {v!r}")
        if isinstance(belief_pool, bool) or not isinstance(belief_pool, int) or not 1 <= belief_pool <= 1000:
            raise ValueError(f"belief_pool must be an int from 1 to 1000, got {belief_pool!r}")
        if (isinstance(belief_noise, bool) or not isinstance(belief_noise, (int, float))
                or not 1e-6 <= belief_noise < 1.0):
            raise ValueError(f"belief_noise must be a probability from 1e-6 to below 1 (smaller ones can underflow "
                             f"the weights), got {belief_noise!r}")
        if isinstance(bid_levels, bool) or not isinstance(bid_levels, int) or bid_levels < 1:
            raise ValueError(f"bid_levels must be an int >= 1, got {bid_levels!r}")
        for arg, v in (("bid_margin", bid_margin), ("bid_z", bid_z)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ValueError(f"{arg} must be a finite number >= 0, got {v!r}")
        if isinstance(exact_cards, bool) or not isinstance(exact_cards, int) or exact_cards < 3:
            raise ValueError(f"exact_cards must be an int >= 3, got {exact_cards!r}")
        if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1):
            raise ValueError(f"top_k must be an int >= 1 or None, got {top_k!r}")
        for arg, v in (("base", base), ("belief", belief)):
            if v is not None and (isinstance(v, type) or not callable(getattr(v, "act", None))):
                what = f"the class {v.__name__} (pass an instance)" if isinstance(v, type) else type(v).__name__
                raise ValueError(f"{arg} must be a policy instance (with act(info)), got {what}")
        if belief is None:
            for arg, v in (("belief_pool", belief_pool), ("belief_noise", belief_noise), ("belief_bids", belief_bids),
                           ("belief_partner", belief_partner), ("belief_lazy", belief_lazy)):
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
        self._lead = None  # (the decision's InfoSet, its first world's first lead, kept factors): _lead_state, _weight
        self.exact_cards = exact_cards
        if stop_z is not None and (isinstance(stop_z, bool) or not isinstance(stop_z, (int, float))
                                   or not 0 < stop_z <= 10):
            raise ValueError(f"stop_z must be a number in (0, 10] or None, got {stop_z!r}")
        self.stop_z = stop_z
        self.samples, self.bid_samples, self.min_samples = samples, bid_samples, min_samples
        self.node_budget, self.time_budget = node_budget, time_budget
        self.take_margin, self.prefilter, self.value_pass = float(take_margin), prefilter, bool(value_pass)
        self.base: Policy = base if base is not None else NormalPolicy(seed)
        self.top_k, self.belief = top_k, belief
        self.belief_pool, self.belief_noise, self.belief_bids = belief_pool, float(belief_noise), bool(belief_bids)
        self.belief_partner = bool(belief_partner)
        if not isinstance(belief_lazy, bool):
            raise ValueError(f"belief_lazy must be True or False, got {belief_lazy!r}")
        self.belief_lazy = belief_lazy
        self.search_coinche_bids, self.bid_levels = bool(search_coinche_bids), bid_levels
        self.bid_slack = None if bid_slack is None else float(bid_slack)
        self.bid_denominations, self.bid_margin, self.bid_z = bid_denominations, float(bid_margin), float(bid_z)
        self.bid_node_budget = bid_node_budget
        #: the base in coinche and at two and three seats when ``base`` cannot play them (a
        #: network of another observation)
        self._fallback_base: Policy = NormalPolicy(seed)
        self._bid_model: Policy = NormalPolicy(seed) if isinstance(self.base, SearchPolicy) else self.base
        self.solver = Solver()
        #: after each search decision: samples drawn, solver nodes, seconds (for benches)
        self.last_stats: dict[str, float] = {}
        #: after each card search: each candidate's total over the samples and the prior
        #: divided by (samples with weight + prior_weight): a point difference per deal
        #: (only differences between cards are meaningful with a centred prior); after a
        #: coinche auction search, each candidate's mean point difference per deal
        self.last_values: dict[int, float] = {}

    #: the attributes holding the policies this search plays with (``reseed``)
    _NESTED = ("base", "prior", "belief", "_fallback_base", "_bid_model")

    def reseed(self, key: str) -> None:
        """Reseed this policy's ``rng`` and every policy it holds (its base, prior, belief
        model, fallback base and bid model; each from ``key`` and its attribute's name), so its
        decisions depend on ``key`` and the positions alone (``policies.base.reseed``)."""
        reseed_nested(self, key, self._NESTED)

    # ------------------------------------------------------------------ helpers
    def _base(self, info: InfoSet) -> Policy:
        """``base``, or the normal tier when ``base`` cannot play ``info``'s game (``_plays``: a
        network of another observation, in coinche or at two and three seats). A base that
        holds the hard models of every game (``for_rules``: the ``hard`` tier) plays with
        the model of ``info``'s game (coinche, two or three seats)."""
        base = _for_game(self.base, info.rules)
        if not _plays(base, info.rules):
            return self._fallback_base
        return base

    def _model(self, info: InfoSet) -> Policy:
        """The model of the seats' bids in a simulated auction: ``base`` (its model of
        ``info``'s game, ``_for_game``; ``normal`` when the base is itself a search, or in
        coinche when it cannot play it)."""
        model = _for_game(self._bid_model, info.rules)
        if info.rules.contract_mode == "coinche" and not _plays(model, info.rules):
            return self._fallback_base
        return model

    def _candidates(self, info: InfoSet, actions: list[int]) -> list[int]:
        """``actions`` in the base policy's order of preference, cut to ``top_k``."""
        base = self._base(info)
        if self.top_k is None and base is not None and not hasattr(base, "action_probabilities"):
            return actions
        probs = getattr(base, "action_probabilities", None)
        if probs is not None:
            p = probs(info)
            ranked = sorted(actions, key=lambda a: (-p.get(a, 0.0), a))
        else:
            first = base.act(info)
            ranked = sorted(actions, key=lambda a: (a != first, a))
        return ranked[:self.top_k] if self.top_k is not None else ranked

    def _budget_left(self, n: int, t0: float, nodes: int, node_budget: int | None = -1) -> bool:
        if n < self.min_samples:
            return True
        node_budget = self.node_budget if node_budget == -1 else node_budget
        if node_budget is not None and nodes >= node_budget:
            return False
        return self.time_budget is None or time.perf_counter() - t0 < self.time_budget

    # ------------------------------------------------------------------ acting
    def act(self, info: InfoSet) -> int:
        """A legal action id for ``info.seat`` (see the module docstring)."""
        self.last_stats, self.last_values = {}, {}
        self._lead = None
        legal = info.legal_actions
        if len(legal) == 1:
            return legal[0]
        if not game_of(info.rules).has_partners:  # two and three seats: the module docstring
            try:
                return self._cutthroat_act(info)
            except SamplingError:  # no consistent deal drawn (announced combinations): the base decides
                return self._base(info).act(info)
        base = self._base(info)
        try:
            if info.contract is None:
                if info.rules.contract_mode == "coinche":
                    return self._coinche_bid(info) if self.search_coinche_bids else base.act(info)
                if not self.search_bids or not set(legal) <= _BID_IDS:
                    return base.act(info)
                return self._bid(info)
            if DECLARE in legal or any(not is_card(a) and a != ANNOUNCE_BELOTE for a in legal):
                return base.act(info)
            cards = [a for a in legal if is_card(a)]
            if len(cards) == 1:
                return with_belote(info, cards[0])
            return with_belote(info, self._play(info, cards))
        except SamplingError:  # no consistent deal found (declarations): the base decides
            return base.act(info)

    def _cutthroat_act(self, info) -> int:
        """A two- or three-seat decision (``InfoSet``; the module docstring)."""
        legal = info.legal_actions
        if info.phase != 1 or STEPS[info.step] != "cards":
            return self._base(info).act(info)
        if ANNOUNCE_BELOTE in legal:
            return ANNOUNCE_BELOTE  # belote is worth 20 and the claim reveals nothing new
        if info.players == 3 and sum(info.hand_sizes) > self.exact_cards:
            return self._base(info).act(info)
        cards = [a for a in legal if a < 32]
        if self.top_k is not None:  # ``<policy>+search``: the base's preferred cards only
            cards = self._candidates(info, cards)
            if len(cards) == 1:
                return cards[0]
        totals = dict.fromkeys(cards, 0.0)
        t0, n = time.perf_counter(), 0
        while n < self.samples and self._budget_left(n, t0, 0, None):  # time_budget only: no node budget here
            n += 1
            hands = list(sample_hidden_hands(info, self.rng).hands)
            pos = Position(tuple(hands), info.denomination, info.taker, tuple(info.trick), info.trick_leader,
                           info.rules)
            values = self.solver.card_values(pos)
            for c in cards:
                totals[c] += deal_margin(info, hands, values[c])
        self.last_stats = {"samples": n, "seconds": time.perf_counter() - t0}
        self.last_values = {c: v / n for c, v in totals.items()}
        return max(cards, key=lambda c: (totals[c], -c))

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
        per: dict[int, list[float]] = {c: [] for c in cands}  # each sample's value per candidate (early stop)
        prior0 = None
        if self.stop_z is not None and self.prior is not None and _plays(self.prior, info.rules):
            prior0 = self.prior.card_values(info)
        while n < self.samples and self._budget_left(n, t0, nodes):
            if self.stop_z is not None and n >= self.min_samples and self._settled(per, prior0, n):
                break
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
                diff = deal_difference(final, taker_team, my_team, bel, decl, info, capot_open)
                totals[c] += w * diff
                points[c] += w * (final if my_team == taker_team else 162 - final)
                per[c].append(diff if w == 1.0 else float("nan"))
        scale = n / weights if weights > 0 else 0.0  # weighted sums -> sums over n samples
        count = n if weights > 0 else 0
        for c in cands:
            totals[c] *= scale
        if self.prior is not None and _plays(self.prior, info.rules):  # the prior counts as prior_weight samples
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

    def _settled(self, per: dict[int, list[float]], prior: dict[int, float] | None, n: int) -> bool:
        """``stop_z``'s test: the leading candidate stays ahead of every other one however
        the remaining planned samples go within ``stop_z`` standard errors (module: the
        argument). A candidate exactly level with the leader (tied in every sample, no
        prior to part them) stops the search only after ``samples // STOP_TIE_SHARE``
        samples: a few tied samples give a spread of 0, not a settled order. Samples of
        weight other than 1 (``belief_pool`` 1) never stop early."""
        if any(math.isnan(x) for v in per.values() for x in v):
            return False
        pw = self.prior_weight if prior is not None else 0.0

        def score(c: int) -> float:
            return sum(per[c]) + (pw * 162.0 * prior[c] if pw else 0.0)

        lead = max(per, key=score)
        for c in per:
            if c == lead:
                continue
            d = [a - b for a, b in zip(per[lead], per[c])]
            mean = sum(d) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else float("inf")
            low = mean - self.stop_z * sd / math.sqrt(n)
            bound = self.samples * low + (pw * 162.0 * (prior[lead] - prior[c]) if pw else 0.0)
            if bound < 0 or (bound == 0 and n < self.samples // STOP_TIE_SHARE):
                return False
        return True

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
        """The bid the model (``_model``: ``base``; ``normal`` when the base is itself a
        search or cannot play coinche) makes for the seat to bid in ``auction``, holding
        ``hand`` (5 cards in classic, 8 in coinche)."""
        view = _bid_view(info, hand, auction)
        a = self._model(info).act(view)
        return a if a in view.legal_actions else PASS

    def _rollouts(self, info: InfoSet, hands: tuple[int, ...], start: Auction, cands: list[int]) -> list[Auction]:
        """The auctions ``start`` + each candidate, each played to its end by the model
        bidding for every seat (this one included) on ``hands``. A deterministic model with
        ``act_batch`` (the hard tier's coinche model) bids for the auctions still open in
        one batch a round (``act_batch`` decides each row as ``act`` would: the same
        auctions); another model bids auction after auction, in candidate order."""
        auctions = []
        for a in cands:
            auction = start.copy()
            auction.apply(a)
            auctions.append(auction)
        model = self._model(info)
        if not (callable(getattr(model, "act_batch", None)) and getattr(model, "deterministic", False)):
            for auction in auctions:
                while not auction.is_over:
                    auction.apply(self._model_bid(info, hands[auction.current], auction))
            return auctions
        while True:
            live = [auction for auction in auctions if not auction.is_over]
            if not live:
                return auctions
            views = [_bid_view(info, hands[auction.current], auction) for auction in live]
            for auction, view, a in zip(live, views, model.act_batch(_ViewBatch(views)).tolist()):
                auction.apply(a if a in view.legal_actions else PASS)

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

    # ------------------------------------------------------------------ the coinche auction
    def _coinche_candidates(self, info: InfoSet, anchor: int) -> list[int]:
        """The legal actions searched at a coinche bidding decision, in the order ties go
        by: the model's own choice ``anchor``, pass, coinche, surcoinche, then bids by
        level. The bids: per denomination searched its ``bid_levels`` lowest legal
        numeric levels, and capot. The denominations searched: the partner's contract,
        the anchor's, and the ``bid_denominations`` of highest estimate
        (``coinche_bidding.estimate_points``) among those that pass ``bid_slack``. A
        générale is never searched (the solver cannot tell whether the bidder alone wins
        every trick), unless it is the anchor."""
        legal = info.legal_actions
        numeric: dict[int, list[tuple[int, int]]] = {}
        capot: dict[int, int] = {}
        for a in legal:
            if not is_coinche_bid(a):
                continue
            level, d = coinche_bid_level(a), bid_denomination(a, -1)
            if level == CAPOT:
                capot[d] = a
            elif level != GENERALE:
                numeric.setdefault(d, []).append((level, a))
        high = new_auction(info.dealer, info.turned_card, info.rules, info.auction).highest
        lowest = {d: min(numeric[d])[0] if d in numeric else 250 for d in set(numeric) | set(capot)}
        est = {d: estimate_points(info.hand, d) for d in lowest}
        plausible = sorted((d for d in lowest
                            if self.bid_slack is None or est[d] + PARTNER_POINTS + self.bid_slack >= lowest[d]),
                           key=lambda d: (-est[d], d))
        chosen = set(plausible if self.bid_denominations is None else plausible[:self.bid_denominations])
        if high is not None and high[2] == partner_of(info.seat) and high[1] in lowest:
            chosen.add(high[1])
        if is_coinche_bid(anchor) and bid_denomination(anchor, -1) in lowest:
            chosen.add(bid_denomination(anchor, -1))
        bids: list[tuple[int, int, int]] = []  # (level, denomination, id); capot as 250
        for d in sorted(chosen):
            bids += [(level, d, a) for level, a in sorted(numeric.get(d, ()))[:self.bid_levels]]
            if d in capot:
                bids.append((250, d, capot[d]))
        out = [anchor]
        out += [a for a in (PASS, COINCHE, SURCOINCHE) if a in legal and a != anchor]
        out += [a for _, _, a in sorted(bids) if a != anchor]
        return out

    def _coinche_bid(self, info: InfoSet) -> int:
        """A coinche bidding decision by auction search (module docstring)."""
        legal = info.legal_actions
        anchor = self._model(info).act(info)
        if anchor not in legal:
            anchor = PASS if PASS in legal else legal[0]
        cands = self._coinche_candidates(info, anchor)
        if len(cands) == 1:
            self.last_stats = {"samples": 0, "nodes": 0, "seconds": 0.0}
            return cands[0]
        rules, my_team, eldest = info.rules, team_of(info.seat), eldest_of(info.dealer)
        start = new_auction(info.dealer, info.turned_card, rules, info.auction)
        budget = self.node_budget if self.bid_node_budget is None else self.bid_node_budget
        values: dict[int, list[int]] = {a: [] for a in cands}  # per candidate, its value in each sample
        ws: list[float] = []  # each sample's weight
        t0, nodes, n = time.perf_counter(), 0, 0
        draws = self._draws(info, self.bid_samples, self._bid_weight)
        while n < self.bid_samples and self._budget_left(n, t0, nodes, budget):
            deal, w = next(draws, (None, 0.0))
            if deal is None:
                break
            n += 1
            if w <= 0.0:
                continue
            hands = deal.hands
            solved: dict[tuple[int, int], tuple[int, int]] = {}  # (denomination, leader) -> (a team, its points)
            valued: dict[Contract, int] = {}  # this sample's value of each final contract
            for a, auction in zip(cands, self._rollouts(info, hands, start, cands)):
                contract = auction.contract
                v = 0 if contract is None else valued.get(contract)  # passed out: a void deal, 0 (§3.6)
                if v is None:
                    k, taker = contract.denomination, contract.taker
                    leader = taker if rules.generale_leads and contract.level == GENERALE else eldest
                    got = solved.get((k, leader))
                    if got is None:  # the other team's contract: the card points are zero-sum (162 in all)
                        points = self.solver.solve(Position(hands, k, taker, (), leader, rules))
                        nodes += self.solver.nodes
                        solved[(k, leader)] = (TEAM_OF[taker], points)
                    else:
                        points = got[1] if got[0] == TEAM_OF[taker] else TOTAL_POINTS - got[1]
                    view = replace(info, contract=contract, denomination=k, taker=taker)
                    v = valued[contract] = deal_difference(
                        points, TEAM_OF[taker], my_team, belote_points(view, hands, k),
                        declaration_points(view, hands, k, eldest, False, taker), view)
                values[a].append(v)
            ws.append(w)
        best, means = _choose(cands, values, ws, self.bid_margin, self.bid_z)
        self.last_stats = {"samples": n, "nodes": nodes, "seconds": time.perf_counter() - t0}
        self.last_values = means
        return best

    # ------------------------------------------------------------------ beliefs
    def _draws(self, info: InfoSet, n: int, weight):
        """Yield (hidden deal, weight) pairs. Without ``belief``: fresh uniform samples of
        weight 1. With it: ``n * belief_pool`` uniform candidates are weighted by
        ``weight(info, hands)`` and ``n`` of them are drawn in proportion to their weights
        (systematic resampling), each of weight 1; when ``belief_pool`` is 1 the weights are
        returned instead.

        Raises ``SamplingError`` when not even one consistent deal can be drawn."""
        uniform = self._uniform(info)
        if self.belief is None or not _plays(self.belief, info.rules):
            yield from ((deal, 1.0) for deal in uniform)
            return
        if self.belief_pool == 1:
            yield from ((deal, weight(info, deal.hands)) for deal in uniform)
            return
        if self.belief_lazy:  # a group of candidates per sample, weighed when the search asks for it
            for _ in range(n):
                group = list(islice(uniform, self.belief_pool))
                if not group:
                    return
                ws = [weight(info, d.hands) for d in group]
                total = sum(ws)
                if not total > 0.0:
                    yield group[0], 1.0
                    continue
                u, acc = self.rng.random() * total, 0.0
                pick = group[-1]
                for d, w in zip(group, ws):
                    acc += w
                    if acc >= u:
                        pick = d
                        break
                yield pick, 1.0
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
        ``action_probabilities`` when it has them, else ``1 - belief_noise`` for its choice
        and ``belief_noise`` shared by the other legal actions; a coinche bid
        (``_coinche_noise``) gets a share by its distance to the belief's choice."""
        probs = getattr(self.belief, "action_probabilities", None)
        if probs is not None:
            p = probs(view)
            return max(p.get(action, 0.0) + p.get(also, 0.0), 1e-6)
        a = self.belief.act(view)
        eps = self.belief_noise
        if a in (action, also):
            return 1.0 - eps
        if view.rules.contract_mode == "coinche" and view.contract is None:
            return eps * _coinche_noise(a, action)
        return eps / (len(view.legal_actions) - 1)

    def _lead_state(self, info: InfoSet, start: list[int]):
        """``_state_with_hands(info, start)``: at four seats, after the decision's first
        world, a copy of that world's first lead with ``start`` as the hands
        (``GameState.replace_hands``: the same public history, the state the deck would
        deal, without rebuilding and re-bidding a deal per world)."""
        cached = self._lead
        if cached is None or cached[0] is not info:
            state = _state_with_hands(info, start)
            template = state.clone() if state is not None and state.game.has_partners else None
            self._lead = (info, template, {})
            return state
        if cached[1] is None:
            return _state_with_hands(info, start)
        state = cached[1].clone()
        try:
            state.replace_hands(start)
        except ValueError:  # not a deal of the deck: as _state_with_hands, which cannot rebuild it
            return None
        return state

    def _bids_weight(self, info: InfoSet, start: list[int]) -> float:
        """The bids' factor of a world's weight (1 without ``belief_bids``): each other
        bidder's first five cards drawn from ``self.rng`` among its 8 (the taker's without
        the turned card), then ``_bid_weight``; in coinche the 8-card hands themselves."""
        if not (self.belief_bids and info.auction):
            return 1.0
        if info.turned_card < 0:  # coinche: every seat bid holding its 8 cards (COINCHE.md §2)
            return self._bid_weight(info, tuple(start))
        first = [0] * NUM_SEATS
        for s in SEATS:
            if s != info.seat:
                rest = start[s] & ~((1 << info.turned_card) if s == info.taker else 0)
                for c in self.rng.sample([c for c in range(32) if rest >> c & 1], 5):
                    first[s] |= 1 << c
        return self._bid_weight(info, tuple(first))

    def _weight(self, info: InfoSet, hands: tuple[int, ...]) -> float:
        """Likelihood, under ``belief``, of the cards the other seats played this deal
        if their hands were ``hands`` (plus their played cards).

        A modelled seat's views depend on its own hand and the public play only, so each
        seat's factors (in play order) are kept per (seat, hand) for the decision and a
        world whose modelled hands were all seen before is not replayed; the factors are
        multiplied in play order as one replay would (the same float)."""
        start = [hands[s] | info.played_by[s] for s in SEATS]
        w = self._bids_weight(info, start)
        modelled = [s for s in SEATS if s != info.seat and (self.belief_partner or TEAM_OF[s] != TEAM_OF[info.seat])]
        lead = self._lead
        known = lead[2] if lead is not None and lead[0] is info and lead[1] is not None else None
        if known is not None and all((s, start[s]) in known for s in modelled):
            if not is_whole_deal(start, info.turned_card, info.taker):  # as _state_with_hands: no deal to replay
                return w
            factors = sorted(f for s in modelled for f in known[(s, start[s])])
        else:
            state = self._lead_state(info, start)
            if state is None:
                return w
            factors = list(_replay_factors(self, info, state, modelled))
            lead = self._lead
            if lead[0] is info and lead[1] is not None:
                for s in modelled:
                    lead[2][(s, start[s])] = [f for f in factors if f[2] == s]
        for f in factors:
            w *= f[3]
        return w


def _replay_factors(policy: SearchPolicy, info: InfoSet, state, modelled: list[int]):
    """Replay ``info``'s public play on ``state`` (the deal's first lead under some hidden
    hands) and yield, in play order, ``(k, 0 or 1, seat, factor)`` for each decision of a
    ``modelled`` seat: ``k`` the card's index in the play, 0 a declaration (made with the
    card, RULES.md §6, on the view before it), 1 the card (on the view after it; only where
    the seat had a choice), ``factor`` the belief's likelihood of it."""
    seq = [s for leader, cs, _ in info.tricks for s in seats_from(leader)[:len(cs)]]
    seq += seats_from(info.trick_leader)[:len(info.trick)]
    played = [c for _, cs, _ in info.tricks for c in cs] + list(info.trick)
    announced = {c for _, kind, c in info.announcements if kind == "belote"}
    for k, (seat, c) in enumerate(zip(seq, played)):
        if info.declared[seat] and DECLARE in state.legal_actions():
            if seat in modelled:
                yield k, 0, seat, policy._likelihood(state.information_set(seat), DECLARE)
            state.apply(DECLARE)
        if seat in modelled:
            view = state.information_set(seat)
            if len(view.legal_actions) > 1:
                yield k, 1, seat, policy._likelihood(view, c, ANNOUNCE_BELOTE if c in announced else -1)
        _replay_card(state, c, c in announced)


def plain_weight(policy: SearchPolicy, info: InfoSet, hands: tuple[int, ...]) -> float:
    """``policy``'s belief weight of the world ``hands`` by one plain replay of the deal
    (``_state_with_hands``, then the belief's likelihood of each modelled seat's decisions
    in play order, ``_replay_factors``): the reference that ``SearchPolicy._weight``'s
    kept per-seat factors and copied first lead are held equal to (``tests/test_search.py``,
    ``scripts/bench_expert_weights.py``). It draws the bidders' first cards from
    ``policy.rng`` as ``_weight`` does."""
    start = [hands[s] | info.played_by[s] for s in SEATS]
    w = policy._bids_weight(info, start)
    state = _state_with_hands(info, start)
    if state is None:
        return w
    modelled = [s for s in SEATS if s != info.seat and (policy.belief_partner or TEAM_OF[s] != TEAM_OF[info.seat])]
    for *_, f in _replay_factors(policy, info, state, modelled):
        w *= f
    return w


def expert_policy(seed: int | None = None) -> SearchPolicy:
    """The ``expert`` tier: ``SearchPolicy`` with ``DEFAULTS`` and ``EXPERT``, its belief a
    ``normal``-tier model of the other seats, its base and prior the ``hard`` tier (it bids
    as hard, and hard's card values count as ``prior_weight`` samples)."""
    from .hard import HardPolicy

    hard = HardPolicy(seed)
    return SearchPolicy(seed, belief=NormalPolicy(seed), base=hard, prior=hard, **EXPERT)


def lazy_expert(seed: int | None = None) -> SearchPolicy:
    """The ``expert`` stopping at ``stop_z`` 2 rather than 1.5 (it weighs its candidate
    worlds lazily, as the tier does): a policy factory for measurements (``belote eval
    policies.search:lazy_expert expert``)."""
    policy = expert_policy(seed)
    policy.belief_lazy, policy.stop_z = True, 2.0
    policy.name = "expert_lazy"
    return policy


def full_expert(seed: int | None = None) -> SearchPolicy:
    """The ``expert`` as it was before 2026-12-05: every candidate world weighed before the
    search (``belief_lazy`` off) and every planned world solved (``stop_z`` None); a
    policy factory for measurements (``belote eval expert policies.search:full_expert``).
    Raises ``policies.network.CheckpointError`` as ``expert_policy`` (the hard model
    missing or corrupt)."""
    policy = expert_policy(seed)
    policy.belief_lazy, policy.stop_z = False, None
    policy.name = "expert_full"
    return policy


def uniform_expert(seed: int | None = None) -> SearchPolicy:
    """The ``expert`` with uniform worlds (no belief model: every deal consistent with the
    information set equally likely) and ``stop_z`` 3, so that it solves more worlds in
    about the tier's mean time per card decision (24 worlds and 130 ms against 13 and
    120 ms over six seeded classic deals, 2026-12-05): a policy factory for the weighted
    against uniform match (``belote eval expert policies.search:uniform_expert``).
    Raises ``policies.network.CheckpointError`` as ``expert_policy``."""
    from .hard import HardPolicy

    hard = HardPolicy(seed)
    settings = {k: v for k, v in EXPERT.items() if not k.startswith("belief_")}
    policy = SearchPolicy(seed, base=hard, prior=hard, **{**settings, "stop_z": 3.0})
    policy.name = "expert_uniform"
    return policy


def _choose(cands: list[int], values: dict[int, list[int]], ws: list[float], margin: float,
            z: float) -> tuple[int, dict[int, float]]:
    """The coinche auction search's choice: ``cands[0]`` (the anchor) unless another
    candidate's gain over it, its weighted mean over the samples less ``z`` standard errors
    (paired: the same samples), exceeds ``margin``; then the candidate of the largest such
    bound (ties: the earlier candidate). Returns it and each candidate's weighted mean
    value (an empty dict when no sample has weight)."""
    total = sum(ws)
    if not total > 0.0:
        return cands[0], {}
    n_eff = total * total / sum(w * w for w in ws)  # effective sample size of the weights
    means = {a: sum(w * v for w, v in zip(ws, values[a])) / total for a in cands}
    anchor = values[cands[0]]
    best, best_bound = cands[0], margin
    for a in cands[1:]:
        gains = [v - u for v, u in zip(values[a], anchor)]
        mean = means[a] - means[cands[0]]
        var = sum(w * (g - mean) ** 2 for w, g in zip(ws, gains)) / total
        se = math.sqrt(var / (n_eff - 1)) if n_eff > 1.0 else 0.0
        bound = mean - z * se
        if round(bound, 6) > round(best_bound, 6):
            best, best_bound = a, bound
    return best, means


def _bid_value(a: int) -> float:
    """A coinche bid's level in points (capot 250, générale 500)."""
    level = coinche_bid_level(a)
    return 250.0 if level == CAPOT else 500.0 if level == GENERALE else float(level)


def _coinche_noise(model: int, action: int) -> float:
    """The share of ``belief_noise`` a deterministic belief gives to ``action`` when it
    would have made the coinche auction action ``model`` instead: two bids share
    ``0.5 ** steps`` (a step per 10 points between their levels, one more for another
    denomination; at most 1/2), any other mismatch (a bid for a pass, a coinche, ...) 1/2.
    The belief's choice itself gets ``1 - belief_noise``: a seat whose bids the model
    does not reproduce exactly is less likely, not ruled out (a coinche auction offers
    up to 40 bids: sharing the noise among them would make every mismatch near fatal)."""
    if is_coinche_bid(model) and is_coinche_bid(action):
        steps = abs(_bid_value(model) - _bid_value(action)) / 10.0
        steps += bid_denomination(model, -1) != bid_denomination(action, -1)
        return 0.5 ** max(steps, 1.0)
    return 0.5


def deal_margin(info, hands, maker_rest: int) -> float:
    """The recorded-points margin of ``info.seat`` (``CutthroatDealScore.difference``: its
    points less the mean of the others') in a deal whose remaining cards are ``hands``
    (per seat its card mask: a sampled deal, or the true hands) and where the maker wins
    ``maker_rest`` more card points from ``info``'s position on (the last trick's 10
    included; ``solver.card_values`` / ``solver.solve``). The deal's totals are the card
    points so far (``info.card_points``), the rest (the maker's ``maker_rest``, the
    defenders sharing the others evenly: the solver values their side), the scoring
    combinations (``info.decl_winner``'s ``decl_cards``) and belote (20 to the seat whose
    hand held the K+Q of trumps, claimed or not); the capot bonus is not counted. They
    are scored by the game's scorer (``games.Game.score_seats``: ``scoring.score_cutthroat_deal``,
    the reserve of ``info.reserve``). The one
    place a maker card-point value becomes a seat's margin: the expert's search
    (``SearchPolicy`` at two and three seats) and the oracle labels (``training.oracle``) use it."""
    n, maker, trump = info.players, info.taker, info.denomination
    pts = _SUIT_POINTS[trump]
    out_rest = sum(pts[c] for h in hands for c in cards_of(h)) + sum(pts[c] for c in info.trick) + LAST_TRICK
    totals = list(info.card_points)
    others_rest = out_rest - maker_rest
    totals[maker] += maker_rest
    defenders = [s for s in range(n) if s != maker]
    # the defenders' share of the rest: split evenly (the solver values the side)
    for s in defenders:
        totals[s] += others_rest / len(defenders)
    if info.decl_winner >= 0:
        totals[info.decl_winner] += sum(d.points for d in combinations_of(info.decl_cards, trump, info.rules))
    k, q = card(Rank.KING, trump), card(Rank.QUEEN, trump)
    for s in range(n):
        held = hands[s] | info.played_by[s]
        if held >> k & 1 and held >> q & 1:
            totals[s] += BELOTE
    ints = [int(round(t)) for t in totals]
    return game_of(info.rules).score_seats(info, ints).difference(info.seat)


def _for_game(policy, rules):
    """``policy.for_rules(rules)`` for a policy holding a model per game (the ``hard``
    tier: its coinche, two- and three-seat models), else ``policy`` itself."""
    return policy.for_rules(rules) if hasattr(policy, "for_rules") else policy


def _plays(policy, rules) -> bool:
    """Whether ``policy`` can decide under ``rules``: False for a network policy (``net``
    with ``obs_size``) or a prior (``card_net``) built for another observation size (the
    hard tier's classic networks in coinche, COINCHE.md §9), or one whose
    ``check_rules`` refuses ``rules``; True otherwise."""
    want = obs_size(rules)
    for net in (getattr(policy, "net", None), getattr(policy, "card_net", None)):
        size = getattr(net, "obs_size", None)
        if size is not None and size != want:
            return False
    check = getattr(policy, "check_rules", None)
    if callable(check):
        from .model_files import RulesMismatchError

        try:
            check(rules)
        except RulesMismatchError:
            return False
    return True


def _bid_view(info: InfoSet, hand: int, auction: Auction) -> InfoSet:
    """``info`` as the seat to bid in ``auction`` would see it holding ``hand``: an
    auction rollout's view (the public fields are the auction's)."""
    seat = auction.current
    return replace(info, seat=seat, hand=hand, current_seat=seat, bid_round=auction.bid_round,
                   auction=tuple(auction.history), legal_actions=auction.legal_bids())


class _ViewBatch:
    """Information sets as a batch for a policy's ``act_batch`` (the interface of
    ``belote_env.vector.SeatBatch``): ``obs`` float32 ``(m, obs_size)``
    (``encode_infoset``), ``mask`` int8 ``(m, A)`` (``A`` the game's number of actions: 412
    under coinche rules with a générale or bids above 160), ``infoset(i)``."""

    def __init__(self, infos: list[InfoSet]):
        self._infos = infos
        self.obs = np.stack([encode_infoset(i) for i in infos])
        width = game_of(infos[0].rules).num_actions
        self.mask = np.stack([action_mask(i.legal_actions, np.zeros(width, np.int8)) for i in infos])

    def __len__(self) -> int:
        return len(self._infos)

    def infoset(self, i: int) -> InfoSet:
        return self._infos[i]


def _bidding_view(info: InfoSet) -> InfoSet:
    """``info`` as it stood before the first bid (card-play fields cleared), for replaying
    the bids under the belief policy."""
    none = (0,) * NUM_SEATS
    size = HAND_SIZE if info.turned_card < 0 else 5  # coinche deals all 8 cards before the auction
    return replace(info, phase=0, contract=None, denomination=-1, taker=-1, trick=(),
                   trick_leader=eldest_of(info.dealer), tricks=(),
                   played_by=none, hand_sizes=(size,) * NUM_SEATS, card_points=(0, 0), announcements=(),
                   declared=((),) * NUM_SEATS, public_knowledge=(none, none))


def _state_with_hands(info: InfoSet, hands: list[int]):
    """A ``GameState`` at the first lead of this deal with the given 8-card hands, the
    public bids and contract (``dealing.deck_for_final_hands`` builds a deck that deals
    them) and the game scores, litige reserve and deal number of ``info``, or None when
    the rule set's deal cannot be rebuilt that way."""
    from belote_env import GameState

    try:
        if info.rules.contract_mode == "coinche":  # the 8-card hands are the deal (COINCHE.md §2)
            deck = deck_from_full_hands(hands, info.dealer)
        else:
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
