"""Card play learned from a double-dummy oracle (a second trainer for the hard tier).

At every card decision of self-play deals the exact double-dummy solver
(``belote_env.solver``) is given the *true* hands and values each legal card: the deal's
point difference for the acting seat's team if that card is played and play is then
perfect (RULES.md §4-§7: made / dedans / litige, belote and declarations, as the expert
values its samples; capot is not valued: the solver counts card points). A network that
reads only the seat's observation (its information set, RULES.md §11) is fitted to those
values. Its least-squares optimum is the *expected*
double-dummy value of each card over the hidden hands consistent with what the seat saw,
weighted by how often they arise in the data: the same quantity the ``expert`` tier
estimates with a dozen sampled deals and a hand-made belief, here learned from the
behaviour of the seats in the data (PIMC distilled, as in the "oracle" targets of
Skat and bridge engines).

The fitted network (``BeloteNet``; its ``action_net`` outputs 0..31 are the card values
in units of 162 points) plays the cards; declarations and belote announcements stay with
the PPO-trained policy (``policies.hard``).

Data come from deals played by a mix of behaviour policies (each seat drawn per deal),
with a small rate of random legal cards for coverage.

The classic bids (RULES.md §3.2-3.3) are learned the same way from *rollout* labels
(``generate_bid_data``): at each bidding decision every legal bid is made on a copy of the
deal, which the seats' behaviour policies then play to its end (the rest of the auction
and the card play), and the deal's point difference is the bid's label. A network fitted
to those values (``fit_bid_values``, outputs 32..39) estimates each bid's expected
outcome given the seat's information set against those players: one step of policy
improvement over their bidding, repeated with the improved bidder as a behaviour policy.
"""

from __future__ import annotations

import random
import time
from typing import Any, Sequence

import numpy as np
import torch as th

from belote_env.games import game_of
from belote_env import GameState, Rules
from belote_env.actions import COINCHE, COINCHE_BID, COINCHE_LEVELS, PASS, SURCOINCHE, is_card, is_coinche_bid
from belote_env.deprecation import renamed_in
from belote_env.driver import finish_deal, reward_scale
from belote_env.observation import COINCHE_OBS_SIZE, OBS_SIZE, encode_infoset, obs_size
from belote_env.cards import POINTS_BY_ALL_TRUMP_OPTION, cards_of
from belote_env.game import LAST_TRICK as LAST_TRICK_POINTS
from belote_env.scoring import TOTAL_POINTS, belote_points, deal_difference, declaration_points
from belote_env.observation import CUTTHROAT_OBS_SIZE, encode_cutthroat
from belote_env.solver import Solver, card_values, position_of
from belote_env.table import SEATS, absolute_seat, eldest_of, team_of
from policies import make_policy
from policies.registry import check_policy_rules, check_policy_spec
from policies.base import with_belote
from policies.network import (BID_ACTIONS, COINCHE_BID_ACTIONS, PROPOSAL_BID_ACTIONS, is_bid_decision, is_card_decision,
                              is_coinche_bid_decision, is_proposal_bid_decision)
from policies.symmetry import bid_permutation_table, coinche_bid_permutation_table, suit_permutation_tables

__all__ = ["generate_oracle_data", "fit_card_values", "oracle_card_values", "cutthroat_oracle_card_values",
           "generate_bid_data", "fit_bid_values", "value_unit", "coinche_rollout_candidates", "ROLLOUT_LEVELS_ABOVE",
           "CUTTHROAT_OBS_WIDTHS", "proposal_bid_rollout_values"]

#: Value unit of the classic game: targets and outputs are point differences / 162.
SCALE = 162.0


def value_unit(rules: Rules) -> float:
    """The points one unit of a value network's targets and outputs stands for:
    ``driver.reward_scale(rules)``, 162 classic (a deal's points), 500 in coinche (a
    coinche deal is worth several hundred points: a made 80 is 162 + 80 against 0, a
    coinched capot 752). A value network records it in its ``meta.json`` (``value_unit``)."""
    return float(reward_scale(rules))


#: Observation widths of the two- and three-seat games' data (``observation.encode_cutthroat``: 716
#: at two seats, 902 at three); their values are in units of 162 points.
CUTTHROAT_OBS_WIDTHS = (CUTTHROAT_OBS_SIZE[2], CUTTHROAT_OBS_SIZE[3])


def _unit_of_obs(width: int) -> float:
    """The value unit of data whose observations are ``width`` floats wide (618: classic
    162; ``COINCHE_OBS_SIZE``: coinche 500; the two- and three-seat widths: 162)."""
    return float(reward_scale(Rules(contract_mode="coinche"))) if width == COINCHE_OBS_SIZE else SCALE


def oracle_card_values(state: GameState, solver: Solver, same_deal: bool = False,
                       points: dict[int, float] | None = None) -> dict[int, float]:
    """Each legal card's deal point difference for the team of the seat to play, with every
    hand known and perfect play afterwards (points, RULES.md §7; coinche: the deal scored
    against ``state.contract`` by ``score_coinche_deal``, through ``deal_difference``).
    ``state`` must be in card play with the seat to play holding more than one legal card.
    ``same_deal``: the previous call was on an earlier position of this deal
    (``Solver.card_values``). ``points``: a dict that receives each card's *trick-point*
    difference for that team (the solver's exact trick points, dix de der included, ours
    less theirs: 2 x ours - 162), before any scoring."""
    info = state.information_set(state.current)
    k, taker = state.denomination, state.taker
    taker_team, my_team = team_of(taker), team_of(state.current)
    hands = tuple(state.hands)
    vals = solver.card_values(position_of(state), same_deal=same_deal)
    bel = belote_points(info, hands, k)
    decl = declaration_points(info, hands, k, eldest_of(state.dealer), bool(info.tricks))
    base = info.card_points[taker_team]
    if points is not None:
        sign = 1 if my_team == taker_team else -1
        points.update({c: float(sign * (2 * (base + v) - TOTAL_POINTS)) for c, v in vals.items()})
    return {c: float(deal_difference(base + v, taker_team, my_team, bel, decl, info)) for c, v in vals.items()}


def cutthroat_oracle_card_values(state, points: dict[int, float] | None = None) -> dict[int, float]:
    """The two- and three-seat ``oracle_card_values``: each legal card's recorded-points
    margin for the seat to play (``CutthroatDealScore.difference``: its points less the mean
    of the others') if that card is played and play is then perfect, every hand known.
    ``state`` is a ``GameState`` in its card step; each card's exact maker card
    points (``solver.card_values`` with the true hands) become the margin
    by ``policies.search.deal_margin`` (the rule the expert's search values its
    sampled deals by: the defenders share their side's points evenly, belote goes to the
    K+Q holder, the capot bonus is not counted). ``points``: a dict that receives each
    card's *card-point* difference for the side of the seat to play (the maker's final
    card points, last trick included, less the others' together; the negation for a
    defender), before any scoring."""
    from policies.search import deal_margin

    info = state.information_set(state.current)
    hands = list(state.hands)
    vals = card_values(position_of(state))
    if points is not None:
        pts = POINTS_BY_ALL_TRUMP_OPTION["pagat"][state.denomination]
        maker = state.taker
        rest = sum(pts[c] for h in hands for c in cards_of(h)) + sum(pts[c] for c in state.trick) + LAST_TRICK_POINTS
        so_far = sum(state.card_points)
        sign = 1 if info.seat == maker else -1
        for c, v in vals.items():
            mine = state.card_points[maker] + v
            points[c] = float(sign * (mine - (so_far + rest - mine)))
    return {c: float(deal_margin(info, hands, v)) for c, v in vals.items()}


def _data_setup(deals, seed, rules, behaviour, progress, desc):
    """Check the common arguments of the data generators; their RNG, behaviour policies,
    rules and deal iterator (a tqdm bar with ``progress``)."""
    if type(deals) is not int or deals < 1:
        raise ValueError(f"deals must be an int >= 1, got {deals!r}")
    if type(seed) is not int:
        raise ValueError(f"seed must be an int, got {seed!r}")
    if isinstance(behaviour, (str, bytes)) or not behaviour:
        raise ValueError(f"behaviour must be a non-empty list of policy names or model folders, got {behaviour!r}")
    for b in behaviour:
        check_policy_spec(b)
        if not game_of(rules).has_partners:
            check_policy_rules(b, rules)
    rng = random.Random(seed)
    pols = [make_policy(b, seed=seed + i) for i, b in enumerate(behaviour)]
    it = range(deals)
    if progress:
        from tqdm import tqdm

        it = tqdm(it, desc=desc, unit="deal")
    return rng, pols, rules, it


def _add_card_row(buf, q: dict, pts: dict, unit: float, obs: list, masks: list, qs: list, ps: list) -> None:
    """Append one labelled card decision to the data lists: the observation ``buf`` (as
    float16), the legal cards' mask and their values ``q`` and trick points ``pts`` in
    ``unit`` (32 columns each)."""
    obs.append(buf.astype(np.float16))
    m = np.zeros(32, dtype=bool)
    row = np.zeros(32, dtype=np.float32)
    prow = np.zeros(32, dtype=np.float32)
    for c, v in q.items():
        m[c] = True
        row[c] = v / unit
        prow[c] = pts[c] / unit
    masks.append(m)
    qs.append(row)
    ps.append(prow)


def _add_bid_row(vals: dict, first: int, n_cols: int, unit: float, masks: list, qs: list) -> None:
    """Append one labelled bid decision: the mask of the bids valued in ``vals`` (id ->
    points) and their values in ``unit``, columns ``id - first`` of ``n_cols``."""
    m = np.zeros(n_cols, dtype=bool)
    row = np.zeros(n_cols, dtype=np.float32)
    for a, v in vals.items():
        m[a - first] = True
        row[a - first] = v / unit
    masks.append(m)
    qs.append(row)


def _bid_data(obs: list, masks: list, qs: list, width: int, n_cols: int) -> dict[str, np.ndarray]:
    """The bid data arrays (``generate_bid_data``'s return), empty of shape ``(0, ...)``
    when no decision was labelled."""
    if not qs:
        return {"obs": np.zeros((0, width), np.float16), "mask": np.zeros((0, n_cols), bool),
                "q": np.zeros((0, n_cols), np.float32)}
    return {"obs": np.stack(obs), "mask": np.stack(masks), "q": np.stack(qs)}


def generate_oracle_data(deals: int, seed: int, rules: Rules, behaviour: Sequence[str] = ("normal", "hard"),
                         epsilon: float = 0.05, progress: bool = False) -> dict[str, np.ndarray]:
    """Play ``deals`` single deals (dealer rotating) and label each card decision with more
    than one legal card by ``oracle_card_values``.

    Args:
        deals: number of deals (int >= 1).
        seed: seeds the deals, the behaviour policies and the random cards.
        rules: rule options (the target / deal limit are ignored: single deals).
        behaviour: tier names or model folders; each seat of each deal plays one, drawn
            uniformly.
        epsilon: probability that a seat plays a random legal card instead, at each
            labelled decision (``is_card_decision``: several legal cards, no declaring).
        progress: show a progress bar (tqdm).
    Returns:
        ``{"obs": float16 (N, obs_size(rules)), "mask": bool (N, 32), "q": float32 (N, 32),
        "points": float32 (N, 32)}``: ``q`` holds the legal cards' values /
        ``value_unit(rules)`` (162 classic; 500 in coinche, where a value is the coinche
        deal score difference of the solver's exact points under ``info.contract``,
        ``scoring.score_coinche_deal`` through ``deal_difference``), ``points`` their
        trick-point differences (ours less theirs, ``oracle_card_values``) in the same
        unit, 0 where ``mask`` is False. N is 0 when no deal had a labelled decision (all
        passed out).

    Two and three seats (``rules.players`` 2 or 3, TWO_THREE.md): the deals are
    ``GameState`` single deals (``game.GameState``, the dealer rotating over the
    ``n`` seats; a deal every seat passes, or an agreed redeal, is void and labels
    nothing), each seat's behaviour drawn per deal (tiers that play small tables,
    ``registry.CUTTHROAT_TIERS``, or small-table model folders). The labelled
    decisions are the card step's with more than one legal card (``is_card_decision``;
    under ``belote: optional`` the claim is not a column: the values assume the K+Q
    holder scores belote, and a random card is claimed with ``with_belote``);
    ``q`` is each legal card's recorded-points margin of the acting seat
    (``cutthroat_oracle_card_values``, ``policies.search.deal_margin``) / 162
    (``value_unit``), ``points`` the card-point difference of its side (the maker's card
    points less the others' together, negated for a defender) / 162; ``obs`` the
    ``observation.encode_cutthroat`` rows (716 floats at two seats, 902 at three).
    Raises:
        ValueError: ``deals`` not an int >= 1, ``seed`` not an int, ``epsilon`` not a
            number in [0, 1], ``behaviour`` empty, a string, or naming an unknown policy.
        policies.network.CheckpointError: a behaviour model folder that does not load.
    """
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be a number in [0, 1], got {epsilon!r}")
    rng, pols, rules, it = _data_setup(deals, seed, rules, behaviour, progress, "oracle data")
    if not game_of(rules).has_partners:
        return _per_seat_oracle_data(rng, pols, rules, it, epsilon)
    solver = Solver()
    obs, masks, qs, ps = [], [], [], []
    width, unit = obs_size(rules), value_unit(rules)
    buf = np.zeros(width, dtype=np.float32)
    for d in it:
        st = GameState(rules, rng=rng, dealer=absolute_seat(d, 0), single_deal=True)  # the deal passes round the table
        seat_pol = [pols[rng.randrange(len(pols))] for _ in SEATS]
        same = False

        def label(st: GameState, info, policy) -> int:  # each card decision labelled, then played
            nonlocal same
            if is_card_decision(info):
                cards = [a for a in info.legal_actions if is_card(a)]
                pts: dict[int, float] = {}
                q = oracle_card_values(st, solver, same, pts)
                same = True
                encode_infoset(info, buf)
                _add_card_row(buf, q, pts, unit, obs, masks, qs, ps)
                if rng.random() < epsilon:
                    return with_belote(info, cards[rng.randrange(len(cards))])
            return policy.act(info)

        finish_deal(st, seat_pol, label)
    if not qs:  # every deal passed out, or no decision with a choice
        return {"obs": np.zeros((0, width), np.float16), "mask": np.zeros((0, 32), bool),
                "q": np.zeros((0, 32), np.float32), "points": np.zeros((0, 32), np.float32)}
    return {"obs": np.stack(obs), "mask": np.stack(masks), "q": np.stack(qs), "points": np.stack(ps)}


def _per_seat_oracle_data(rng, pols, rules, it, epsilon) -> dict[str, np.ndarray]:
    """``generate_oracle_data`` at two and three seats (its docstring)."""
    from belote_env.game import GameState

    n = rules.players
    obs, masks, qs, ps = [], [], [], []
    width, unit = obs_size(rules), value_unit(rules)
    buf = np.zeros(width, dtype=np.float32)

    def label(st, info, policy) -> int:  # each card decision labelled, then played
        if is_card_decision(info):
            cards = [a for a in info.legal_actions if is_card(a)]
            pts: dict[int, float] = {}
            q = cutthroat_oracle_card_values(st, pts)
            encode_cutthroat(info, buf)
            _add_card_row(buf, q, pts, unit, obs, masks, qs, ps)
            if rng.random() < epsilon:
                return with_belote(info, cards[rng.randrange(len(cards))])
        return policy.act(info)

    for d in it:
        st = GameState(rules, rng=rng, dealer=d % n, single_deal=True)  # the deal passes round the table
        seat_pol = [pols[rng.randrange(len(pols))] for _ in range(n)]
        finish_deal(st, seat_pol, label)
    if not qs:
        return {"obs": np.zeros((0, width), np.float16), "mask": np.zeros((0, 32), bool),
                "q": np.zeros((0, 32), np.float32), "points": np.zeros((0, 32), np.float32)}
    return {"obs": np.stack(obs), "mask": np.stack(masks), "q": np.stack(qs), "points": np.stack(ps)}


def _deal_difference(st: GameState, team: int) -> int:
    return 0 if st.void else st.deal_score.difference(team)


#: Coinche rollout candidates: per denomination the lowest legal level and up to this many
#: levels above it (lowest .. lowest + 30 points), ``coinche_rollout_candidates``.
ROLLOUT_LEVELS_ABOVE = 3


def coinche_rollout_candidates(legal: Sequence[int]) -> list[int]:
    """The coinche bids ``generate_bid_data`` plays out at a decision whose legal actions
    are ``legal`` (a coinche auction decision holds up to 63 of them; labelling them all
    would cost ~4x more rollouts for bids no behaviour makes): pass, coinche and surcoinche
    when legal, and per denomination the lowest legal level and the ``ROLLOUT_LEVELS_ABOVE``
    levels above it (the lowest legal bid up to +30 points) and capot. Ascending ids."""
    out = {a for a in legal if a in (PASS, COINCHE, SURCOINCHE)}
    numeric: dict[int, list[int]] = {}
    for a in legal:
        if is_coinche_bid(a) and a < COINCHE:
            level, d = divmod(a - COINCHE_BID, 6)
            if COINCHE_LEVELS[level] == "capot":
                out.add(a)
            else:
                numeric.setdefault(d, []).append(a)
    for ids in numeric.values():  # the legal levels of a denomination are consecutive from the lowest
        out.update(sorted(ids)[:ROLLOUT_LEVELS_ABOVE + 1])
    return sorted(out)


def generate_bid_data(deals: int, seed: int, rules: Rules, behaviour: Sequence[str] = ("normal", "hard"),
                      progress: bool = False, rollouts: int = 1) -> dict[str, np.ndarray]:
    """Play ``deals`` single deals (dealer rotating) and label each bidding decision with
    more than one legal bid by the *rollout* value of the legal bids: the bid is made on a
    copy of the deal, then the deal is played to its end by the seats' behaviour policies
    (the rest of the auction and the card play; every hand is dealt, so the outcome is
    fixed), and the deal's point difference for the deciding seat's team is recorded (a
    void deal is worth 0). The bid the behaviour policy makes is valued by the deal
    itself. Fitted by ``fit_bid_values``, the network learns each bid's expected outcome
    given the seat's information set, against these behaviour policies (one step of policy
    improvement over their bidding).

    * Classic rules: the classic decisions (``is_bid_decision``, RULES.md §3.2-3.3), every
      legal bid played out; values in points / 162 (RULES.md §7).
    * Coinche rules (``contract_mode="coinche"``): the auction decisions whose legal
      actions are all in ``COINCHE_BID_ACTIONS`` (``is_coinche_bid_decision``: pass,
      bids 80..160 and capot, coinche, surcoinche); the bids played out are
      ``coinche_rollout_candidates`` (pass, coinche / surcoinche, per denomination the
      lowest legal level up to +30 and capot) and the behaviour's own; the others are
      not labelled (``mask`` False). Values: the coinche deal score difference
      (``scoring.score_coinche_deal``) / ``value_unit(rules)`` (500).
    * Two and three seats (``rules.players`` 2 or 3, TWO_THREE.md §2.3): ``GameState``
      single deals (``game.GameState``, the dealer rotating over the ``n`` seats,
      each seat's behaviour drawn per deal as for ``generate_oracle_data``). The labelled
      decisions are the contract decisions (``is_proposal_bid_decision``: at least two of
      pass / take / name a suit legal, a redeal proposal perhaps too; answering a
      proposal is never one); the bids played out are the legal ones of
      ``PROPOSAL_BID_ACTIONS`` (32..37), a proposal (106) is left unlabelled (the behaviour
      may still propose: the deal goes on with its own choice). A bid's value is the
      acting seat's margin, ``CutthroatDealScore.difference(seat)`` (its points less the mean
      of the others') / 162; a void deal (every seat passed, or an agreed redeal) is
      worth 0. Observations: ``observation.encode_cutthroat`` (716 floats at two seats,
      902 at three); 6 columns, ids 32..37.

      ``rollouts``: plays per candidate bid on copies of the deal, their margins averaged
      (``proposal_bid_rollout_values``; with 1, the behaviour's own bid is valued by the deal
      itself). Every card is dealt at the start
      (the completion cards too), so with deterministic behaviours (the tiers, and model
      folders, which play their most probable action) every play of a bid on the same
      deal is the same and ``rollouts=1`` (the default) loses nothing: the labels' noise
      is the hidden cards', which only more deals average out. Repeats help only with
      sampling behaviours.

    Args:
        deals: number of deals (int >= 1).
        seed: seeds the deals and the draw of each seat's behaviour policy.
        rules: rule options (the target / deal limit are ignored: single deals).
        behaviour: tier names or model folders; each seat of each deal plays one, drawn
            uniformly. They should be deterministic (a sampling policy makes the rollouts
            of one decision see different play).
    Returns:
        ``{"obs": float16 (N, obs_size(rules)), "mask": bool (N, W), "q": float32 (N, W)}``:
        column ``j`` is bid id ``32 + j`` (``W`` = 8 classic: ids 32..39; 70 in coinche:
        ids 32..101); ``q`` holds the labelled bids' values / ``value_unit(rules)`` (0
        where ``mask`` is False).
    Raises:
        ValueError: ``deals`` not an int >= 1, ``seed`` not an int, ``behaviour`` empty,
            a string, or naming an unknown policy; ``rollouts`` not an int >= 1 (or not 1
            at four seats).
        policies.network.CheckpointError: a behaviour model folder that does not load.
    """
    if type(rollouts) is not int or rollouts < 1:
        raise ValueError(f"rollouts must be an int >= 1, got {rollouts!r}")
    if rollouts != 1 and game_of(rules).auction_kind != "proposal":
        raise ValueError("rollouts > 1 is for the proposal auction of the two- and three-seat games (the classic "
                         "and coinche auctions play each bid once)")
    rng, pols, rules, it = _data_setup(deals, seed, rules, behaviour, progress, "bid data")
    if game_of(rules).auction_kind == "proposal":
        return _per_seat_bid_data(rng, pols, rules, it, rollouts)
    coinche = rules.contract_mode == "coinche"
    actions = COINCHE_BID_ACTIONS if coinche else BID_ACTIONS
    decision = is_coinche_bid_decision if coinche else is_bid_decision
    first, n_cols = actions[0], len(actions)
    width, unit = obs_size(rules), value_unit(rules)
    obs, masks, qs = [], [], []
    buf = np.zeros(width, dtype=np.float32)
    for d in it:
        st = GameState(rules, rng=rng, dealer=absolute_seat(d, 0), single_deal=True)  # the deal passes round the table
        seat_pol = [pols[rng.randrange(len(pols))] for _ in SEATS]
        pending = []

        def rollouts(st: GameState, info, policy) -> int:  # each bid decision: the other bids played out
            action = policy.act(info)
            if decision(info):
                tried = coinche_rollout_candidates(info.legal_actions) if coinche else info.legal_actions
                vals = {a: _deal_difference(finish_deal(_applied(st, a), seat_pol), team_of(info.seat))
                        for a in tried if a != action}
                encode_infoset(info, buf)
                obs.append(buf.astype(np.float16))
                pending.append((info.seat, vals, action))
            return action

        finish_deal(st, seat_pol, rollouts)
        for seat, vals, action in pending:
            vals[action] = _deal_difference(st, team_of(seat))
            _add_bid_row(vals, first, n_cols, unit, masks, qs)
    return _bid_data(obs, masks, qs, width, n_cols)


def _seat_margin(st, seat: int) -> float:
    """The margin of ``seat`` in a finished two- / three-seat deal (0 if void)."""
    return 0.0 if st.void else float(st.deal_score.difference(seat))


def proposal_bid_rollout_values(state, seat_policies: Sequence[Any], rollouts: int = 1,
                             skip: Sequence[int] = ()) -> dict[int, float]:
    """The rollout value of each candidate bid at a two- / three-seat contract decision
    (``is_proposal_bid_decision``; ``state`` a ``GameState``): every legal bid of
    ``PROPOSAL_BID_ACTIONS`` (32..37) but those in ``skip`` is made on a copy of ``state``
    (``GameState.clone``), the deal played to its end by ``seat_policies`` (indexed by
    seat), ``rollouts`` times; its value is the mean margin of the seat to act
    (``CutthroatDealScore.difference``, in points; a void deal 0). A redeal proposal is not a
    candidate. ``generate_bid_data``'s labels (divided by 162)."""
    seat = state.current
    out = {}
    for a in state.legal_actions():
        if a in PROPOSAL_BID_ACTIONS and a not in skip:
            out[a] = sum(_seat_margin(finish_deal(_applied(state, a), seat_policies), seat)
                         for _ in range(rollouts)) / rollouts
    return out


def _per_seat_bid_data(rng, pols, rules, it, rollouts: int) -> dict[str, np.ndarray]:
    """``generate_bid_data`` at two and three seats (its docstring)."""
    from belote_env.game import GameState

    n = rules.players
    first, n_cols = PROPOSAL_BID_ACTIONS[0], len(PROPOSAL_BID_ACTIONS)
    width, unit = obs_size(rules), value_unit(rules)
    obs, masks, qs = [], [], []
    buf = np.zeros(width, dtype=np.float32)
    for d in it:
        st = GameState(rules, rng=rng, dealer=d % n, single_deal=True)  # the deal passes round the table
        seat_pol = [pols[rng.randrange(len(pols))] for _ in range(n)]
        pending = []

        def label(st, info, policy) -> int:  # each contract decision: the candidate bids played out
            action = policy.act(info)
            if is_proposal_bid_decision(info):
                # one play each: the behaviour's own bid is valued by the deal itself
                vals = proposal_bid_rollout_values(st, seat_pol, rollouts, (action,) if rollouts == 1 else ())
                encode_cutthroat(info, buf)
                obs.append(buf.astype(np.float16))
                pending.append((info.seat, vals, action))
            return action

        finish_deal(st, seat_pol, label)
        for seat, vals, action in pending:
            if rollouts == 1 and action in PROPOSAL_BID_ACTIONS:
                vals[action] = _seat_margin(st, seat)
            _add_bid_row(vals, first, n_cols, unit, masks, qs)
    return _bid_data(obs, masks, qs, width, n_cols)


def _applied(st: GameState, action: int) -> GameState:
    st = st.clone()
    st.apply(action)
    return st


def fit_card_values(net, data: dict[str, np.ndarray], epochs: int = 5, lr: float = 1e-3, batch: int = 512,
                    seed: int = 0, valid: float = 0.05, progress: bool = False,
                    augment: bool = False, point_weight: float = 0.0) -> dict[str, Any]:
    """Fit ``net``'s action outputs 0..31 to ``data["q"]`` (``generate_oracle_data``):
    mean squared error over the legal cards of each decision's values *centred on their
    mean* (the network learns the differences between cards, not the deal's value), so
    the argmax over legal cards is the oracle-trained choice.

    Returns figures: per epoch the training / validation loss and the validation rate at
    which the network's best card has the best expected value (``agree``) and the mean
    points lost against the best card (``regret``, points per decision).

    Raises ``ValueError`` for ``epochs`` or ``batch`` not an int >= 1, ``valid`` outside
    (0, 1), ``lr`` <= 0, fewer than 2 decisions, ``mask`` / ``q`` not of shape ``(N, 32)``,
    or a decision without a legal card.

    Observations: classic (618 floats), coinche (``COINCHE_OBS_SIZE``) or the two- and
    three-seat widths (``CUTTHROAT_OBS_WIDTHS``: 716, 902; values in units of 162); ``augment``
    is four-seat only (``ValueError`` for small-table data).

    With ``augment`` each training decision has its suits renamed by one of the 24
    permutations, drawn at random each time it is used (the rules do not depend on the
    suits' names, so every renaming is an equally valid example).

    ``point_weight`` ``w`` > 0 fits ``q + w * points`` (``data["points"]``, the solver's
    trick-point differences, ``generate_oracle_data``; ``ValueError`` if absent): the deal
    score plus a tie-break on trick points. Under coinche scoring a deal's value is flat
    in the trick points wherever the contract's fate is settled (a failed contract scores
    162 + V whatever the takers made, COINCHE.md §9), so the exact labels of most card
    decisions are all equal; against players who are not double-dummy perfect the points
    still matter. The figures (``agree``, ``regret``) are measured on that target.
    """
    if point_weight:
        if isinstance(point_weight, bool) or not isinstance(point_weight, (int, float)) or not point_weight > 0:
            raise ValueError(f"point_weight must be a number >= 0, got {point_weight!r}")
        if "points" not in data:
            raise ValueError("point_weight > 0 needs data['points'] (generate_oracle_data's trick-point labels)")
        data = dict(data, q=data["q"] + np.float32(point_weight) * data["points"])
    r = _fit_values(net, data, 0, "card", epochs, lr, batch, seed, valid, progress, augment)
    r["point_weight"] = float(point_weight)
    return r


def fit_bid_values(net, data: dict[str, np.ndarray], epochs: int = 5, lr: float = 1e-3, batch: int = 512,
                   seed: int = 0, valid: float = 0.05, progress: bool = False,
                   augment: bool = False) -> dict[str, Any]:
    """Fit ``net``'s bid outputs to ``data["q"]`` (``generate_bid_data``), as
    ``fit_card_values`` fits the cards: centred squared error over the labelled bids, the
    same figures (``agree``: the network's bid has the best rollout value; ``regret`` in
    points per decision) and the same ``ValueError`` cases. Classic data (observations of
    ``OBS_SIZE``): outputs 32..39, ``mask`` / ``q`` of shape ``(N, 8)``; coinche data
    (``COINCHE_OBS_SIZE``): outputs 32..101 (``COINCHE_BID_ACTIONS``), shape ``(N, 70)``.
    The returned figures add ``bid_actions``: the ids labelled in at least one decision
    (the only outputs fitted), with ``augment`` closed under the suit renamings (a bid of
    a suit once one suit's is: "name suit", or a coinche level in a suit). With
    ``augment`` the suits are renamed (``policies.symmetry.bid_permutation_table``,
    ``coinche_bid_permutation_table``).

    Two- and three-seat data (observations of ``CUTTHROAT_OBS_WIDTHS``, 716 / 902 floats):
    outputs 32..37 (``PROPOSAL_BID_ACTIONS``: pass, take, name a suit), ``mask`` / ``q`` of
    shape ``(N, 6)``, values in units of 162; no ``augment`` (``ValueError``)."""
    r = _fit_values(net, data, BID_ACTIONS[0], "bid", epochs, lr, batch, seed, valid, progress, augment)
    cols = set(np.flatnonzero(data["mask"].any(axis=0)).tolist())
    if augment:
        coinche = data["obs"].shape[1] == COINCHE_OBS_SIZE
        table = (coinche_bid_permutation_table() if coinche else bid_permutation_table()).numpy()
        # renamed suits train every renaming of a seen bid (the orbit under the 24 renamings)
        cols = {int(table[p, j]) for j in cols for p in range(len(table))}
    first = BID_ACTIONS[0]
    r["bid_actions"] = sorted(first + j for j in cols)
    return r


def _fit_values(net, data, first, what, epochs, lr, batch, seed, valid, progress, augment):
    if type(epochs) is not int or epochs < 1:
        raise ValueError(f"epochs must be an int >= 1, got {epochs!r}")
    if type(batch) is not int or batch < 1:
        raise ValueError(f"batch must be an int >= 1, got {batch!r}")
    if not (isinstance(valid, (int, float)) and 0.0 < valid < 1.0):
        raise ValueError(f"valid must be a fraction in (0, 1), got {valid!r}")
    if isinstance(lr, bool) or not isinstance(lr, (int, float)) or not 0 < lr < float("inf"):
        raise ValueError(f"lr must be a finite number > 0, got {lr!r}")
    n = len(data["q"])
    if n < 2:
        raise ValueError(f"need at least 2 decisions to fit (one held out), got {n}")
    obs_width = data["obs"].shape[1] if data["obs"].ndim == 2 else None
    small = obs_width in CUTTHROAT_OBS_WIDTHS  # two / three seats: card data, or bid data of ids 32..37
    if obs_width not in (OBS_SIZE, COINCHE_OBS_SIZE) and not small:
        raise ValueError(f"{what} data observations must be (N, {OBS_SIZE}) (classic) or (N, {COINCHE_OBS_SIZE}) "
                         f"(coinche), or (N, {CUTTHROAT_OBS_WIDTHS[0]}) / (N, {CUTTHROAT_OBS_WIDTHS[1]}) (two / three "
                         f"players), got {data['obs'].shape}")
    if small and augment:
        raise ValueError(f"augment (suit renaming) is for four-seat data: the {2 if obs_width == CUTTHROAT_OBS_WIDTHS[0] else 3}"
                         f"-player observation ({obs_width} floats) has no suit-renaming tables; fit with "
                         f"augment=False")
    coinche = obs_width == COINCHE_OBS_SIZE
    unit = _unit_of_obs(obs_width)
    bid_range = COINCHE_BID_ACTIONS if coinche else PROPOSAL_BID_ACTIONS if small else BID_ACTIONS
    width = len(bid_range) if first else 32
    if data["q"].ndim != 2 or data["q"].shape[1] != width or data["mask"].shape != data["q"].shape:
        other = "card (generate_oracle_data)" if first else "bid (generate_bid_data)"
        other_width = 32 if first else len(bid_range)
        mode = "coinche" if coinche else "two / three-player" if small else "classic"
        raise ValueError(f"{mode} {what} data have {width} columns: got mask {data['mask'].shape} and q "
                         f"{data['q'].shape}{f'; {other} data?' if data['q'].shape[-1] == other_width else ''}")
    if not data["mask"].any(axis=1).all():
        raise ValueError(f"every decision needs at least one legal {what} in its mask")
    g = th.Generator().manual_seed(seed)
    nv = max(1, int(n * valid))
    perm = th.randperm(n, generator=g)
    vi, ti = perm[:nv], perm[nv:]
    obs = th.from_numpy(data["obs"])
    mask = th.from_numpy(data["mask"])
    q = th.from_numpy(data["q"])
    opt = th.optim.Adam(net.parameters(), lr=lr)
    sched = th.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, epochs * ((len(ti) + batch - 1) // batch)))
    hist = []

    perm_obs, perm_card = suit_permutation_tables(obs_width) if augment else (None, None)
    if first:
        perm_card = coinche_bid_permutation_table() if coinche else bid_permutation_table()

    def loss_of(idx, renamed=False):
        x, m, t = obs[idx].float(), mask[idx], q[idx]
        if renamed:
            p = th.randint(0, 24, (len(idx),), generator=g)
            x = x.gather(1, perm_obs[p])
            m = m.gather(1, perm_card[p])
            t = t.gather(1, perm_card[p])
        m = m.float()
        out = net.logits(x)[:, first:first + width]
        cnt = m.sum(1, keepdim=True)
        pc = out - (out * m).sum(1, keepdim=True) / cnt
        tc = t - (t * m).sum(1, keepdim=True) / cnt
        return (((pc - tc) ** 2) * m).sum() / m.sum(), out

    t0 = time.time()
    for ep in range(epochs):
        net.train()
        tot = 0.0
        p = ti[th.randperm(len(ti), generator=g)]
        for s in range(0, len(p), batch):
            idx = p[s:s + batch]
            loss, _ = loss_of(idx, augment)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item() * len(idx)
        net.eval()
        with th.no_grad():
            vl, out = loss_of(vi)
            out = out.masked_fill(~mask[vi], -1e9)
            choice = out.argmax(1)
            qv = q[vi].masked_fill(~mask[vi], -1e9)
            best = qv.max(1).values
            got = qv.gather(1, choice[:, None])[:, 0]
            agree = (got >= best - 1e-6).float().mean().item()
            regret = ((best - got) * unit).mean().item()
        hist.append({"epoch": ep + 1, "train_loss": tot / len(ti), "valid_loss": vl.item(), "agree": agree,
                     "regret": regret, "seconds": time.time() - t0})
        if progress:
            print(hist[-1], flush=True)
    return {"history": hist, "samples": n, "value_unit": unit}


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "SMALL_OBS_WIDTHS": "CUTTHROAT_OBS_WIDTHS",
    "small_oracle_card_values": "cutthroat_oracle_card_values",
    "small_bid_rollout_values": "proposal_bid_rollout_values",
})
