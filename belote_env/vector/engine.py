"""The batched engine: N tables of single deals stepped together in compiled code (numba),
for every table: four seats (classic and coinche) and two and three (TWO_THREE.md).

``BatchedGame`` holds every table's state in preallocated numpy arrays and steps them all
with one call: legal-action masks for the seats to act, a batch of actions applied, deal
scores and rewards written into its arrays. A table whose deal ends (scored, void after
every seat passed, or redealt after an agreed proposal: reward 0) starts its next deal at
once (``autoreset=True``), so the arrays always describe a decision to take.

One set of kernels serves every table (``step_kernel``, ``reset_kernel``,
``deal_kernel``), composed of parts chosen by the option codes (``layout.rules_codes``,
the table size ``O_N`` one of them; numba compiles one body, and a branch on a code is
the same at every step of a batch):

* the auction: classic (RULES.md §3.2-§3.4), coinche (``_coinche_mask`` /
  ``_apply_coinche_bid``, COINCHE.md §3: its state in the ``auc_*`` columns, its history in
  ``bids``, sized to ``auction.length_bound(rules)``) or the proposal auction of two and
  three seats (``cutthroat.apply_proposal`` / ``proposal_mask``);
* the deal layout, one pair of tables per rules (``first[dealer, pos]``: the seat dealt
  pack position ``pos`` before the auction, ``more[dealer, taker, pos]`` after it, and
  the turned / bottom / chien positions): the four-seat packets (RULES.md §3.1, §3.5), the
  coinche 3-2-3 (COINCHE.md §2), the packet layouts of two and three seats
  (``cutthroat.packet_tables``; completed by ``cutthroat.complete_packets``);
* the play steps before the cards at two and three seats (the seven's exchange, the
  discards, the combinations: ``cutthroat.apply_step``), and at four seats the
  declarations made with the first card (``vector/declare.py``, RULES.md §6);
* one card play, ``_apply_card``: what the card reveals, the trick, its winner and its
  points to the winner's side (``layout.SIDE_N``: the team at four seats, the seat itself
  at two and three), with belote a part of its own: announced with the first card of the
  pair at four seats (``_announce_belote``, RULES.md §5), claimed with the second at two
  and three (``cutthroat.claim_belote``, A17);
* one scoring entry, ``_score``: the table's scorer (``scoring.score_deal``,
  ``score_coinche_deal`` rounded per ``rounding``, ``score_cutthroat_deal``: each with no
  reserve pending).

The rules are not re-derived here. Every table the kernels read comes from the reference
modules at import time: card strengths, point values and ``BEATS`` from ``cards``, the
trick power from ``rules.POWER``, the packet and stock layouts from ``dealing``, the seats
from ``table`` (``layout.NEXT_N``, ``AFTER_N``, ``SIDE_N`` by table size); the sequence
tables of the declarations from ``declarations``. The one kernel per card-play rule is in
``vector/kernels.py``. The control flow of the rules (legal cards, what a card reveals,
belote, scoring) is a second implementation, held equal to ``game.GameState`` by
``tests/test_vector_engine.py`` and ``tests/test_vector_cutthroat.py`` (and
``scripts/check_vector.py`` for the long run): identical masks, states, scores and
observations at every step.

Rule options: every option of ``Rules``, in both contract modes at four seats (RULES.md
§3-§7, and ``overtrump_partner`` of COINCHE.md §4; ``contract_mode="coinche"``: the 3-2-3
deal, the coinche auction with every option of COINCHE.md §3.5 and §6.8, the scoring of
§5-§6 with every option, rounded per ``rounding`` as ``GameState`` rounds a single deal),
and every option of TWO_THREE.md §4 at two and three seats, except that the game is one
deal (``target``, ``max_deals``, ``target_rule``, and in coinche ``round_last_deal`` and
``no_win_on_belote_alone`` are not read; a litige reserve starts at 0 each deal, so a
tie's reserve is never paid within an episode, as in the envs' deal episodes). An option
outside ``PLAYED_OPTIONS`` and ``UNREAD_OPTIONS`` (``cutthroat.CUTTHROAT_PLAYED_OPTIONS``
at two and three seats; one added to ``Rules`` later) set away from its default is
refused by ``check_supported`` with a ``RuleOptionError`` naming it.

State columns (``BatchedGame.state``, int64 ``(N, NCOL)``): ``layout.COL`` names them, one
layout for every table (the per-side blocks ``points*``, ``won*``, ``deal_points*`` are
indexed by team at four seats, by seat at two and three). Per-table RNG: splitmix64
streams keyed by ``(seed, table)``, so table ``j``'s deals do not depend on the batch
size, and the same seed gives the same games in any process.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..actions import (
    AGREE_REDEAL, ANNOUNCE_BELOTE, COINCHE, COINCHE_BID, DECLARE, GENERALE_BID, HIGH_BID, NAME_CONTRACT, NUM_ACTIONS, PASS,
    COINCHE_LEVELS, HIGH_LEVELS, SURCOINCHE, TAKE, num_actions,
)
from ..cards import ALL_TRUMP, BEATS, NO_TRUMP, NUM_CARDS, NUM_SUITS, POINTS_BY_ALL_TRUMP_OPTION, SUIT_MASK
from ..auction import DENOMINATION_RANK
from ..config import CUTTHROAT_ONLY, Rules, RuleOptionError
from ..contract import CAPOT, NUM_DENOMINATIONS
from ..dealing import _ALL, _FIRST, _STOCK, TURNED_AT
from ..rules import POWER
from ..scoring import BELOTE_POINTS, CAPOT_FLAT_VALUE, FORFAIT_BASE
from ..table import FOUR, NEXT_SEAT, NUM_SEATS, NUM_TEAMS, PARTNER_REL, SEATS, TEAM_OF, other_team, seats_from
from .kernels import (
    below, card_reveals, clear_table, illegal, legal_cards, mark_cards, random_legal, record_bid, seed_tables,
    shuffle, trick_winner_pos,
)
from .declare import declaration_summary, declaration_team_points
from .layout import (
    A_BID, A_BIDDER, A_COINCHER, A_K, A_PASSES, A_Q0, A_QLEN, A_STRENGTH, A_TURN, AFTER_N, ANN_NEXT, ANNC, ANNF,
    CANNOT, COL, CP, CUR, DEALER, DEALS, DECL_NEXT, DECLC, DECLD, DECLK, DECLP, DENOM, DP, FIRST, HAND, KNOWN,
    LASTW, LEADER, MULT, NACT, NBIDS, NCOL, NEXT_N, NTRICKS, OUTCOME, PAIRS, PH, PHASE_BIDDING, PHASE_OVER,
    PHASE_PLAY, PLAYED, ROUND, SIDE_N, STEP, TAKER, TAKER_TRICKS, TLEN, TOTAL, TRICK, TURNED, WON,
    add_trick_winner, set_seq_card,
    N_OPTIONS, rules_codes,
)
from .layout import (
    O_BEAT_DEFENCE, O_BELOTE_COUNTS, O_BELOTE_SECOND, O_BID_ONLY, O_CAPOT_BID, O_CAPOT_COINCHABLE, O_CAPOT_FAIL,
    O_CAPOT_FLAT, O_CAPOT_POINTS, O_CAPOT_VALUE, O_CARRES, O_COINCHE, O_COUNTS, O_CPS, O_DECL, O_DEF_CAPOT_BASE,
    O_DISCARD, O_DTIE, O_FAIL_BASE, O_FAILURE_ALL, O_FREEZES, O_GENERALE, O_GENERALE_LEADS, O_GENERALE_VALUE,
    O_IMMEDIATE, O_MAKER_ZERO, O_MAX_BID, O_N, O_NEED_80, O_OPTIONAL, O_OVER, O_PASSES_END, O_PMF, O_PRENABLE,
    O_RANKED, O_REDEAL, O_REDEAL_ELDER, O_ROUND2, O_ROUNDING, O_RUN5, O_SA_TA, O_SCOPE, O_SELF_CHANGE, O_SURCOINCHE,
    O_SURCOINCHE_MULT, O_TIE, O_TIE_LITIGE, O_TWO,
)
from . import cutthroat as _ct
from .cutthroat import (
    CUTTHROAT_POINTS, STEP_CARDS, apply_proposal, apply_step, check_cutthroat_supported, claim_belote,
    claim_belote_mask, co_defender_pos, combination_tables, complete_packets, deal_packets, pack_of, packet_tables,
    proposal_mask, score_cutthroat, step_mask,
)

__all__ = ["BatchedGame", "MAX_TABLES", "COL", "NCOL", "BIDS_MAX", "OUTCOMES", "rules_codes", "N_OPTIONS", "PHASE_BIDDING", "PHASE_PLAY", "PHASE_OVER",
           "check_supported", "PLAYED_OPTIONS", "UNREAD_OPTIONS"]

#: bids a classic auction holds at most (two rounds of four, RULES.md §3.2-§3.4)
BIDS_MAX = 2 * NUM_SEATS
#: ``outcome`` column at four seats: made, dedans, litige (a tie kept or lost by the
#: takers), void (two and three seats: ``cutthroat.CUTTHROAT_OUTCOMES``)
OUTCOMES = ("made", "dedans", "litige", "void")

# ------------------------------------------------------------------ shared rule tables
_POWER = np.array(POWER, dtype=np.int64)  # [denomination, led suit, card]
_BEATS = np.array(BEATS, dtype=np.int64)  # [denomination, card]
_SUIT_MASK = np.array(SUIT_MASK, dtype=np.int64)
_NEXT = np.array(NEXT_SEAT, dtype=np.int64)
_TEAM = np.array(TEAM_OF, dtype=np.int64)
_OTHER_TEAM = np.array([other_team(t) for t in range(NUM_TEAMS)], dtype=np.int64)
NS = NUM_SEATS
#: ``_AFTER[seat, i]``: the seat ``i`` places after ``seat`` in play order (``table.seats_from``)
_AFTER = np.array([seats_from(s) for s in SEATS], dtype=np.int64)
#: ``_REL[me, seat]``: ``seat`` counted from ``me`` (``table.FOUR.relative``)
_REL = np.array(FOUR.relative, dtype=np.int64)
#: per denomination, the suits whose K+Q make a belote (bit per suit): the trump suit's,
#: every suit at all-trump, none at no-trump (RULES.md §5; scoring._BELOTE_PAIRS)
_BELOTE_SUITS = np.array([0xF if k == ALL_TRUMP else 0 if k == NO_TRUMP else 1 << k for k in range(6)],
                         dtype=np.int64)

# the coinche bid ids (``actions``: 40 + level row * 6 + denomination for 80..160 and
# capot, 112 + denomination for the générale, 118 + (level - 170) // 10 * 6 + denomination
# above 160) and the ranked order of the denominations (``auction.DENOMINATION_RANK``)
_COINCHE_BID, _GENERALE_BID, _HIGH_BID = COINCHE_BID, GENERALE_BID, HIGH_BID
_ND = NUM_DENOMINATIONS
_LOW_TOP = COINCHE_LEVELS[-2]  # 160: the last numeric level of the fixed ids
_CAPOT_ROW = COINCHE_LEVELS.index(CAPOT)
_HIGH_FIRST = HIGH_LEVELS[0]
_LEVEL_STEP = HIGH_LEVELS[1] - HIGH_LEVELS[0]
_FIRST_LEVEL = COINCHE_LEVELS[0]
_DENOM_RANK = np.array(DENOMINATION_RANK, dtype=np.int64)


#: The most tables one batched game (and one batched env) steps: about 1.8 GB for the
#: engine's own arrays (state, decks, auctions, masks) at four seats; an env adds its
#: observations, up to about 20 GB for ``BeloteVectorEnv(MAX_TABLES, rules="coinche",
#: observe="all")`` (the arrays grow linearly with it); a larger ``n`` is refused by name,
#: before anything is allocated.
MAX_TABLES = 1 << 20
#: the ids every table may use (``actions.NUM_ACTIONS``): at two and three seats only
#: these and ``AGREE_REDEAL`` / ``REFUSE_REDEAL`` are ever legal
_CARD_IDS_END = NUM_ACTIONS
#: the ``outcome`` of a void deal (then, at two and three seats, of an agreed redeal)
_VOID = OUTCOMES.index("void")


def four_seat_layout(rules: Rules):
    """The deal layout of a four-seat table as the kernels read every table's
    (``cutthroat.packet_tables``' shapes): ``first[dealer, pos]`` the seat dealt deck
    position ``pos`` before the auction (else -1), ``more[dealer, taker, pos]`` after the
    take (else -1), ``pos``: the turned card's position (-1 in coinche), no bottom, no
    chien, nothing unused. Classic: the packets of RULES.md §3.1 and the stock of §3.5
    (``dealing._FIRST`` / ``_STOCK``); coinche: every card 3-2-3 (COINCHE.md §2,
    ``dealing._ALL``)."""
    coinche = rules.contract_mode == "coinche"
    first = np.full((NS, NUM_CARDS), -1, dtype=np.int64)
    more = np.full((NS, NS, 0 if coinche else NUM_CARDS), -1, dtype=np.int64)  # coinche: nothing after the auction
    for d in SEATS:
        for seat, positions in enumerate((_ALL if coinche else _FIRST)[d]):
            first[d, list(positions)] = seat
        for t in SEATS:
            for seat, positions in enumerate(() if coinche else _STOCK[d][t]):
                more[d, t, [TURNED_AT + 1 + i for i in positions]] = seat
    return first, more, np.array([-1 if coinche else TURNED_AT, -1, -1] + [0] * NS, dtype=np.int64)


# ------------------------------------------------------------------ rules (RULES.md §4)
@nb.njit(cache=True, inline="always")
def _winner_pos(S, j, n, k):
    """Position in the current trick of the card winning it so far (``vector.kernels``)."""
    return trick_winner_pos(S[j, TRICK:TRICK + 4], n, k, _POWER)


@nb.njit(cache=True, inline="always")
def _legal_cards(S, j, seat, hand, opts, n):
    """Mask of the cards of ``hand`` that may be played to table ``j``'s trick
    (``rules.legal_cards``: the one kernel ``vector.kernels.legal_cards``; the partner's
    card two back at four seats, the co-defender's at three, ``cutthroat.co_defender_pos``)."""
    k = S[j, DENOM]
    t = S[j, TLEN]
    pp = t - PARTNER_REL if n == NS else co_defender_pos(n, seat, S[j, TAKER], S[j, LEADER], t, opts[O_PMF])
    return legal_cards(hand, S[j, TRICK:TRICK + 4], t, -1, k, pp, opts[O_TWO], opts[O_PMF], opts[O_OVER],
                       1 - opts[O_DISCARD], _POWER, _BEATS[k], _SUIT_MASK)


@nb.njit(cache=True, inline="always")
def _card_reveals(S, j, seat, c, opts, n):
    """Cards the seat shows it cannot hold by playing ``c`` to table ``j``'s trick (the one
    kernel ``vector.kernels.card_reveals``: ``inference.card_reveals``)."""
    k = S[j, DENOM]
    t = S[j, TLEN]
    pp = t - PARTNER_REL if n == NS else co_defender_pos(n, seat, S[j, TAKER], S[j, LEADER], t, opts[O_PMF])
    return card_reveals(S[j, TRICK:TRICK + 4], t, c, k, pp, opts[O_TWO], opts[O_PMF], opts[O_OVER],
                        1 - opts[O_DISCARD], _POWER, _BEATS[k], _SUIT_MASK)


@nb.njit(cache=True, inline="always")
def _pair_mask(suit):
    return (np.int64(1) << (8 * suit + 6)) | (np.int64(1) << (8 * suit + 5))  # K and Q


@nb.njit(cache=True)
def _announceable(S, j, seat):
    """The seat's K/Q of trump whose partner card is still in its hand (``GameState._announceable``)."""
    m = 0
    pairs = S[j, PAIRS]
    hand = S[j, HAND + seat]
    for s in range(NUM_SUITS):
        if (pairs >> (4 * seat + s)) & 1:
            pm = _pair_mask(s)
            if hand & pm == pm:
                m |= pm
    return m


# ------------------------------------------------------------------ dealing (RULES.md §3, COINCHE.md §2, TWO_THREE.md §1)
@nb.njit(cache=True)
def _start_deal(S, deck, bids, rng, j, dealer, opts, first, pos):
    """Shuffle table ``j``'s deck from its stream and deal it (``_deal``)."""
    shuffle(deck[j], rng, j)
    _deal(S, deck, bids, j, dealer, opts, first, pos)


@nb.njit(cache=True)
def _deal(S, deck, bids, j, dealer, opts, first, pos):
    """Deal table ``j``'s deck (``deck[j]``) by ``dealer`` per the layout ``first`` (the
    turned card at pack position ``pos[0]``, none when -1): five cards a seat and the
    turned card (RULES.md §3.1), in coinche all eight cards a seat (COINCHE.md §2), at two
    and three seats the first packets (``dealing.packet_deal``); the auction opened."""
    n = opts[O_N]
    clear_table(S, bids, j, DEALS, DEALER, dealer)
    pack = pack_of(deck, j, opts)
    for i in range(first.shape[1]):
        s = first[dealer, i]
        if s >= 0:
            S[j, HAND + s] |= np.int64(1) << pack[i]
    S[j, TURNED] = pack[pos[0]] if pos[0] >= 0 else -1
    eldest = NEXT_N[n, dealer]
    if n == NS:
        for s in range(NS):
            S[j, FIRST + s] = S[j, HAND + s]
        if opts[O_COINCHE]:
            S[j, A_BID] = -1
            S[j, A_BIDDER] = -1
            S[j, A_STRENGTH] = -1
            S[j, A_COINCHER] = -1
            S[j, MULT] = 1
    else:
        deal_packets(S, j, eldest, opts)
    S[j, CUR] = eldest
    S[j, LEADER] = eldest
    S[j, ROUND] = 1
    S[j, DENOM] = -1
    S[j, TAKER] = -1
    S[j, LASTW] = -1
    S[j, PH] = PHASE_BIDDING


@nb.njit(cache=True, inline="always")
def _complete(S, deck, j, opts, more, pos, tabs):
    """After the contract: the cards dealt once the taker is known (``more``), then the
    table's completion (``_complete_four``, ``cutthroat.complete_packets``)."""
    dealer, taker = S[j, DEALER], S[j, TAKER]
    if opts[O_N] == NS:  # the stock follows the turned card (RULES.md §3.5; none in coinche)
        for i in range(pos[0] + 1, more.shape[2]):
            S[j, HAND + more[dealer, taker, i]] |= np.int64(1) << deck[j, i]
        _complete_four(S, j, opts)
        return
    pack = pack_of(deck, j, opts)
    for i in range(more.shape[2]):
        s = more[dealer, taker, i]
        if s >= 0:
            S[j, HAND + s] |= np.int64(1) << pack[i]
    complete_packets(S, j, opts, pack, more, pos, tabs)


@nb.njit(cache=True, inline="always")
def _complete_four(S, j, opts):
    """Four seats: the taker gets the turned card (besides its 2, the others 3: §3.5; in
    coinche the hands are already whole, COINCHE.md §2); the belote pairs are noted (§5)."""
    taker = S[j, TAKER]
    eldest = _NEXT[S[j, DEALER]]
    if not opts[O_COINCHE]:
        S[j, HAND + taker] |= np.int64(1) << S[j, TURNED]
    elif opts[O_GENERALE_LEADS] and _GENERALE_BID <= S[j, A_BID] < _HIGH_BID:
        eldest = taker  # generale_leads: the générale's bidder leads (COINCHE.md §4)
    k = S[j, DENOM]
    pairs = 0
    for s in range(NUM_SUITS):
        if (_BELOTE_SUITS[k] >> s) & 1:
            pm = _pair_mask(s)
            for seat in range(NS):
                if S[j, HAND + seat] & pm == pm:
                    pairs |= np.int64(1) << (4 * seat + s)
    S[j, PAIRS] = pairs
    S[j, PH] = PHASE_PLAY
    S[j, CUR] = eldest
    S[j, LEADER] = eldest


# ------------------------------------------------------------------ the coinche auction (COINCHE.md §3)
# Held equal to ``auction.CoincheAuction`` step by step (``tests/vector_harness.py``): the
# same kinds of turn, the same queue of seats to ask, the same strengths.
_TURN_BIDDING, _TURN_WINDOW, _TURN_COINCHED, _TURN_OVER = 0, 1, 2, 3


@nb.njit(cache=True, inline="always")
def _n_numeric(opts):
    """The number of numeric levels: 80 .. ``max_numeric_bid``."""
    return (opts[O_MAX_BID] - _FIRST_LEVEL) // _LEVEL_STEP + 1


@nb.njit(cache=True)
def _bid_id(li, d, opts):
    """The action id of the bid of level index ``li`` (0 = 80, ..., then capot, générale)
    in denomination ``d``."""
    nnum = _n_numeric(opts)
    if li < nnum:
        v = _FIRST_LEVEL + _LEVEL_STEP * li
        if v <= _LOW_TOP:
            return _COINCHE_BID + li * _ND + d
        return _HIGH_BID + (v - _HIGH_FIRST) // _LEVEL_STEP * _ND + d
    if li == nnum and opts[O_CAPOT_BID]:
        return _COINCHE_BID + _CAPOT_ROW * _ND + d
    return _GENERALE_BID + d


@nb.njit(cache=True)
def _bid_level_index(a, opts):
    """The level index of bid id ``a`` (``_bid_id``'s ``li``)."""
    nnum = _n_numeric(opts)
    if a >= _HIGH_BID:
        return (_HIGH_FIRST - _FIRST_LEVEL) // _LEVEL_STEP + (a - _HIGH_BID) // _ND
    if a >= _GENERALE_BID:
        return nnum + opts[O_CAPOT_BID]
    row = (a - _COINCHE_BID) // _ND
    return nnum if row == _CAPOT_ROW else row


@nb.njit(cache=True, inline="always")
def _bid_denom(a):
    return (a - (_GENERALE_BID if a >= _GENERALE_BID else _COINCHE_BID)) % _ND


@nb.njit(cache=True, inline="always")
def _is_capot(a):
    return _COINCHE_BID + _CAPOT_ROW * _ND <= a < _COINCHE_BID + (_CAPOT_ROW + 1) * _ND


@nb.njit(cache=True, inline="always")
def _is_generale(a):
    return _GENERALE_BID <= a < _HIGH_BID


@nb.njit(cache=True)
def _bid_value(a, opts):
    """The contract value ``V`` of bid id ``a`` (COINCHE.md §6.1): its level, ``capot_value``
    or ``generale_value``."""
    if _is_capot(a):
        return opts[O_CAPOT_VALUE]
    if _is_generale(a):
        return opts[O_GENERALE_VALUE]
    if a >= _HIGH_BID:
        return _HIGH_FIRST + (a - _HIGH_BID) // _ND * _LEVEL_STEP
    return _FIRST_LEVEL + (a - _COINCHE_BID) // _ND * _LEVEL_STEP


@nb.njit(cache=True, inline="always")
def _strength(li, d, opts):
    if not opts[O_RANKED]:
        return li
    return li * _ND + (_DENOM_RANK[d] if li < _n_numeric(opts) else 0)  # never two capots (§3.3)


@nb.njit(cache=True, inline="always")
def _coinchable(S, j, opts):
    return opts[O_CAPOT_COINCHABLE] or not _is_capot(S[j, A_BID])


@nb.njit(cache=True)
def _coinche_mask(S, j, m, opts):
    """The legal actions of the seat to act in table ``j``'s coinche auction
    (``CoincheAuction._set_legal``)."""
    m[PASS] = 1
    turn = S[j, A_TURN]
    seat = S[j, CUR]
    if turn == _TURN_WINDOW:
        m[COINCHE] = 1
        return
    if turn == _TURN_COINCHED:
        if seat != _AFTER[S[j, A_COINCHER], PARTNER_REL] and opts[O_SURCOINCHE]:
            m[SURCOINCHE] = 1
        return
    above, exclude, bids = np.int64(-1), np.int64(-1), True
    high = S[j, A_BID]
    if high >= 0:
        bidder = S[j, A_BIDDER]
        above = S[j, A_STRENGTH]
        if seat == bidder:  # overbidding oneself (passes_to_end 4, or an escape from a coinche)
            if opts[O_SELF_CHANGE]:
                exclude = _bid_denom(high)
            else:
                bids = False
        opponent = _TEAM[seat] != _TEAM[bidder]
        if S[j, A_K] == 0 and opponent and not opts[O_IMMEDIATE] and _coinchable(S, j, opts):
            m[COINCHE] = 1
        if S[j, A_K] == 1 and not opponent and opts[O_SURCOINCHE]:
            m[SURCOINCHE] = 1
    if bids:
        nd = _ND if opts[O_SA_TA] else NUM_SUITS
        nl = _n_numeric(opts) + opts[O_CAPOT_BID] + opts[O_GENERALE]
        first = 0 if above < 0 else above // _ND if opts[O_RANKED] else above + 1  # lower levels cannot overcall
        for li in range(first, nl):
            for d in range(nd):
                if d != exclude and _strength(li, d, opts) > above:
                    m[_bid_id(li, d, opts)] = 1


@nb.njit(cache=True)
def _coinche_end(S, j, multiplier):
    """The auction ends with the highest bid as the contract (``CoincheAuction._end``)."""
    S[j, TAKER] = S[j, A_BIDDER]
    S[j, DENOM] = _bid_denom(S[j, A_BID])
    S[j, MULT] = multiplier
    S[j, A_TURN] = _TURN_OVER
    S[j, A_QLEN] = 0
    S[j, ROUND] = 0


@nb.njit(cache=True)
def _apply_coinche_bid(S, j, a, opts):
    """Apply action ``a`` (legal) of the seat to act in table ``j``'s coinche auction
    (``CoincheAuction.apply``; the history is written by ``_apply_bid``). Returns 1 when
    the auction ends with a contract, 2 when it is void (four opening passes), else 0."""
    seat = S[j, CUR]
    turn = S[j, A_TURN]
    if a == COINCHE:  # CoincheAuction._coinche
        S[j, A_K] = 1
        S[j, A_COINCHER] = seat
        S[j, A_PASSES] = 0
        S[j, CUR] = _AFTER[seat, 1]
        if opts[O_FREEZES]:  # the coinched team speaks: c+1, (c+2, pass only), c+3
            S[j, A_TURN] = _TURN_COINCHED
            if opts[O_CPS]:
                S[j, A_Q0] = _AFTER[seat, 2]
                S[j, A_Q0 + 1] = _AFTER[seat, 3]
                S[j, A_QLEN] = 2
            else:
                S[j, A_Q0] = _AFTER[seat, 3]
                S[j, A_QLEN] = 1
        else:  # the auction goes on in play order; a higher bid escapes
            S[j, A_TURN] = _TURN_BIDDING
            S[j, A_QLEN] = 0
        return 0
    if a == SURCOINCHE:
        S[j, A_K] = 2
        _coinche_end(S, j, opts[O_SURCOINCHE_MULT])
        return 1
    if turn == _TURN_WINDOW or turn == _TURN_COINCHED:  # PASS: no coinche / no surcoinche
        if S[j, A_QLEN] == 0:
            if turn == _TURN_COINCHED:
                _coinche_end(S, j, 2)
                return 1
            S[j, A_TURN] = _TURN_BIDDING  # both opponents declined: the normal next turn
            S[j, CUR] = _AFTER[S[j, A_BIDDER], 1]
            return 0
        S[j, CUR] = S[j, A_Q0]
        S[j, A_Q0] = S[j, A_Q0 + 1]
        S[j, A_QLEN] -= 1
        return 0
    if a == PASS:
        S[j, A_PASSES] += 1
        if S[j, A_BID] < 0:
            if S[j, A_PASSES] == NS:  # four opening passes: the deal is void (§3.4, §3.6)
                S[j, A_TURN] = _TURN_OVER
                S[j, ROUND] = 0
                return 2
        elif S[j, A_PASSES] == (3 if S[j, A_K] else opts[O_PASSES_END]):
            _coinche_end(S, j, 2 if S[j, A_K] else 1)
            return 1
        S[j, CUR] = _AFTER[seat, 1]
        return 0
    # a bid: it overcalls (and cancels a coinche that does not freeze)
    S[j, A_BID] = a
    S[j, A_BIDDER] = seat
    S[j, A_STRENGTH] = _strength(_bid_level_index(a, opts), _bid_denom(a), opts)
    S[j, A_K] = 0
    S[j, A_COINCHER] = -1
    S[j, A_PASSES] = 0
    S[j, CUR] = _AFTER[seat, 1]
    if opts[O_IMMEDIATE] and _coinchable(S, j, opts):
        S[j, A_TURN] = _TURN_WINDOW
        S[j, A_Q0] = _AFTER[_AFTER[seat, PARTNER_REL], 1]
        S[j, A_QLEN] = 1
    return 0


# ------------------------------------------------------------------ legal actions
@nb.njit(cache=True)
def _fill_mask(S, j, mask, opts):
    """Write table ``j``'s legal-action mask (int8 ``(num_actions(rules),)``) for its seat to
    act (at two and three seats only ids 0..111 and 412..413 are cleared: no other id is
    ever legal there)."""
    if opts[O_N] == NS:  # the body with the table size a constant
        _fill_mask_n(S, j, mask, opts, NS)
    else:
        _fill_mask_n(S, j, mask, opts, opts[O_N])


@nb.njit(cache=True, inline="always")
def _fill_mask_n(S, j, mask, opts, n):
    """``_fill_mask`` at a table of ``n`` seats."""
    m = mask[j]
    if n == NS:
        for a in range(m.shape[0]):
            m[a] = 0
    else:
        for a in range(_CARD_IDS_END):
            m[a] = 0
        m[AGREE_REDEAL] = 0
        m[AGREE_REDEAL + 1] = 0
    ph = S[j, PH]
    if ph == PHASE_BIDDING:
        if n != NS:
            proposal_mask(S, j, m, opts)
        elif opts[O_COINCHE]:
            _coinche_mask(S, j, m, opts)
        else:
            _classic_mask(S, j, m, opts)
        return
    if ph != PHASE_PLAY:
        return
    seat = S[j, CUR]
    if n != NS and S[j, STEP] != STEP_CARDS:
        step_mask(S, j, m, seat, opts)
        return
    cards = _legal_cards(S, j, seat, S[j, HAND + seat], opts, n)
    if opts[O_OPTIONAL]:
        if opts[O_BELOTE_SECOND]:
            cards = claim_belote_mask(S, j, m, seat, cards)
        elif S[j, PAIRS]:
            ann = cards & _announceable(S, j, seat)
            if S[j, ANN_NEXT]:
                cards = ann
            elif ann:
                m[ANNOUNCE_BELOTE] = 1
    if (opts[O_DECL] == 2 and not S[j, DECL_NEXT] and S[j, NTRICKS] == 0 and S[j, PLAYED + seat] == 0):
        _, _, key = declaration_summary(S[j, HAND + seat], S[j, DENOM], opts[O_CARRES], opts[O_RUN5])
        if key > 0:
            m[DECLARE] = 1
    mark_cards(m, cards)


@nb.njit(cache=True, inline="always")
def _classic_mask(S, j, m, opts):
    """The classic auction's legal bids (RULES.md §3.2-§3.3)."""
    m[PASS] = 1
    if S[j, ROUND] == 1:
        m[TAKE] = 1
    else:
        ts = S[j, TURNED] >> 3
        for s in range(NUM_SUITS):
            if s != ts:
                m[NAME_CONTRACT + s] = 1
        if opts[O_ROUND2]:
            m[NAME_CONTRACT + NO_TRUMP] = 1
            m[NAME_CONTRACT + ALL_TRUMP] = 1


# ------------------------------------------------------------------ acting
@nb.njit(cache=True)
def _apply_bid(S, bids, j, a, opts):
    """Apply bid ``a`` of the seat to act; 1: a contract (complete the deal), 2: void, 3: an
    agreed redeal (two and three seats), 0: the auction goes on. The history ``bids[j]``
    gets ``(seat, a)``."""
    seat = S[j, CUR]
    record_bid(S, bids, j, seat, a, NBIDS)
    if opts[O_N] != NS:
        return apply_proposal(S, j, seat, a, opts)
    if opts[O_COINCHE]:
        return _apply_coinche_bid(S, j, a, opts)
    if a != PASS:
        k = (S[j, TURNED] >> 3) if a == TAKE else a - NAME_CONTRACT
        S[j, DENOM] = k
        S[j, TAKER] = seat
        S[j, KNOWN + seat] |= np.int64(1) << S[j, TURNED]
        S[j, ROUND] = 0
        return 1  # a contract: complete the deal
    nxt = _NEXT[seat]
    S[j, CUR] = nxt
    if nxt == _NEXT[S[j, DEALER]]:
        if S[j, ROUND] == 1:
            S[j, ROUND] = 2
        else:
            S[j, ROUND] = 0
            return 2  # eight passes: void
    return 0


@nb.njit(cache=True, inline="always")
def _declare_first_card(S, j, seat, k, opts):
    """Four seats: the declarations made with the seat's first card (RULES.md §6; auto, or
    ``DECLARE`` chosen before it)."""
    if opts[O_DECL] == 1 or S[j, DECL_NEXT]:
        cards, pts, key = declaration_summary(S[j, HAND + seat], k, opts[O_CARRES], opts[O_RUN5])
        if key > 0:
            S[j, DECLP + seat] = pts
            S[j, DECLK + seat] = key
            S[j, DECLD] |= np.int64(1) << seat
            S[j, DECLC + seat] = cards
            S[j, KNOWN + seat] |= cards
    S[j, DECL_NEXT] = 0


@nb.njit(cache=True, inline="always")
def _announce_belote(S, j, seat, c, k, opts):
    """Four seats: belote announced with the first card of the K/Q of trump (RULES.md §5;
    under ``belote="optional"`` only after ``ANNOUNCE_BELOTE``), rebelote with the second;
    what the first card shows of the other."""
    one = np.int64(1)
    rank = c & 7
    suit = c >> 3
    just = False
    if (rank == 6 or rank == 5) and S[j, PAIRS]:
        other = suit * 8 + (5 if rank == 6 else 6)
        if (S[j, PAIRS] >> (4 * seat + suit)) & 1:
            if (S[j, HAND + seat] >> other) & 1:  # the first of the two (§5)
                if not opts[O_OPTIONAL] or S[j, ANN_NEXT]:
                    S[j, ANNF] |= one << (2 * seat)
                    S[j, ANNC + seat] |= one << c
                    just = True
            elif (S[j, ANNC + seat] >> other) & 1:
                S[j, ANNF] |= one << (2 * seat + 1)
    if (rank == 6 or rank == 5) and (k == ALL_TRUMP or suit == k):
        other = suit * 8 + (5 if rank == 6 else 6)
        if not (S[j, PLAYED + seat] >> other) & 1:  # first of the pair: it may reveal (§5)
            if just:
                S[j, KNOWN + seat] |= one << other
            elif not opts[O_OPTIONAL]:
                S[j, CANNOT + seat] |= one << other


@nb.njit(cache=True)
def _apply_card(S, j, c, opts, points):
    """Card ``c`` played by table ``j``'s seat to act (``GameState._apply_card``): what it
    reveals, the trick, belote (the table's part), and once the trick is whole its winner,
    its points to the winner's side (``SIDE_N``). True when the deal's last trick is done."""
    if opts[O_N] == NS:  # the body with the table size a constant (its loops unrolled)
        return _apply_card_n(S, j, c, opts, points, NS)
    return _apply_card_n(S, j, c, opts, points, opts[O_N])


@nb.njit(cache=True, inline="always")
def _apply_card_n(S, j, c, opts, points, n):
    """``_apply_card`` at a table of ``n`` seats."""
    seat = S[j, CUR]
    k = S[j, DENOM]
    one = np.int64(1)
    if opts[O_DECL] != 0 and S[j, NTRICKS] == 0 and S[j, PLAYED + seat] == 0:
        _declare_first_card(S, j, seat, k, opts)
    if S[j, TLEN]:
        S[j, CANNOT + seat] |= _card_reveals(S, j, seat, c, opts, n)
    S[j, HAND + seat] &= ~(one << c)
    S[j, PLAYED + seat] |= one << c
    set_seq_card(S, j, n * S[j, NTRICKS] + S[j, TLEN], c)
    S[j, TRICK + S[j, TLEN]] = c
    S[j, TLEN] += 1
    if opts[O_BELOTE_SECOND]:
        claim_belote(S, j, seat, c, k, opts)
    else:
        _announce_belote(S, j, seat, c, k, opts)
    S[j, ANN_NEXT] = 0
    return _after_card(S, j, seat, k, points, n)


@nb.njit(cache=True, inline="always")
def _after_card(S, j, seat, k, points, n):
    """After a card at a table of ``n`` seats: the next seat, or the trick's winner, its
    points to the winner's side (``SIDE_N``). True when the deal's last trick is done."""
    if S[j, TLEN] < n:
        S[j, CUR] = NEXT_N[n, seat]
        return False
    wp = _winner_pos(S, j, n, k)
    winner = AFTER_N[n, S[j, LEADER], wp]
    side = SIDE_N[n, winner]
    pts = 0
    for i in range(n):
        pts += points[k, S[j, TRICK + i]]
    S[j, CP + side] += pts
    S[j, WON + side] += 1
    add_trick_winner(S, j, S[j, NTRICKS], winner)
    S[j, NTRICKS] += 1
    S[j, LASTW] = winner
    if winner == S[j, TAKER]:
        S[j, TAKER_TRICKS] += 1
    S[j, TLEN] = 0
    S[j, LEADER] = winner
    S[j, CUR] = winner
    return S[j, HAND + winner] == 0


@nb.njit(cache=True)
def _score(S, j, opts):
    """Score table ``j``'s played deal with its table's scorer: ``_score_four`` (classic,
    coinche) or ``cutthroat.score_cutthroat``."""
    if opts[O_N] == NS:
        _score_four(S, j, opts)
    else:
        score_cutthroat(S, j, opts)


@nb.njit(cache=True)
def _score_four(S, j, opts):
    """Score table ``j``'s played four-seat deal (``scoring.score_deal`` with a reserve of 0, RULES.md §5-§7)."""
    k = S[j, DENOM]
    taker = S[j, TAKER]
    tt = _TEAM[taker]
    dt = 1 - tt
    belote0 = 0
    belote1 = 0
    for s in range(NUM_SUITS):
        if (_BELOTE_SUITS[k] >> s) & 1:
            pm = _pair_mask(s)
            for seat in range(NS):
                if S[j, PLAYED + seat] & pm == pm and (not opts[O_OPTIONAL] or S[j, ANNC + seat] & pm):
                    if _TEAM[seat] == 0:
                        belote0 += BELOTE_POINTS
                    else:
                        belote1 += BELOTE_POINTS
    d0 = 0
    d1 = 0
    if opts[O_DECL] != 0:
        d0, d1 = declaration_team_points(S[j, DECLK:DECLK + 4], S[j, DECLP:DECLP + 4], k, _NEXT[S[j, DEALER]],
                                         taker, opts[O_DTIE])
    if opts[O_COINCHE]:
        _score_coinche(S, j, opts, belote0, belote1, d0, d1)
        return
    belote = (belote0, belote1)
    decl = (d0, d1)
    tp0 = S[j, CP]
    tp1 = S[j, CP + 1]
    capot = -1
    if S[j, WON] == 8:
        capot, tp0, tp1 = 0, 252, 0
    elif S[j, WON + 1] == 8:
        capot, tp0, tp1 = 1, 0, 252
    elif _TEAM[S[j, LASTW]] == 0:
        tp0 += 10
    else:
        tp1 += 10
    tp = (tp0, tp1)
    counts = opts[O_COUNTS]
    tot0 = tp0 + (belote0 if counts == 1 else 0) + (d0 if counts else 0)
    tot1 = tp1 + (belote1 if counts == 1 else 0) + (d1 if counts else 0)
    tk = tot0 if tt == 0 else tot1
    df = tot1 if tt == 0 else tot0
    if tk > df:
        fate = 0
    elif tk < df:
        fate = 1
    else:
        tie = opts[O_TIE]
        fate = 2 if tie == 0 or tie == 3 else 0 if tie == 1 else 1
    p = [0, 0]
    if fate == 0:
        p[0] = tp0 + belote0 + d0
        p[1] = tp1 + belote1 + d1
    elif fate == 1:  # the failed contract, per ``failure`` (RULES.md §7)
        if opts[O_MAKER_ZERO]:  # the defenders keep their own points only
            p[dt] = tp[dt] + belote[dt] + decl[dt]
        elif opts[O_FAILURE_ALL]:  # the takers' belote to the defenders too (seed 001 L98)
            p[dt] = (252 if capot == dt else 162) + d0 + d1 + belote[dt] + belote[tt]
        else:  # maker_keeps_belote: belote stays with the team that holds it
            p[dt] = (252 if capot == dt else 162) + d0 + d1 + belote[dt]
            p[tt] = belote[tt]
    else:  # a tie: litige (the takers score their belote now) or defenders_keep (the takers nothing)
        p[dt] = tp[dt] + belote[dt] + decl[dt]
        p[tt] = 0 if opts[O_TIE] == 3 else belote[tt]
    S[j, DP] = p[0]
    S[j, DP + 1] = p[1]
    S[j, OUTCOME] = fate


@nb.njit(cache=True, inline="always")
def _round(p, rounding):
    """``scoring.round_points``: none, half_up (85 -> 90), six_up (85 -> 80, 86 -> 90)."""
    if rounding == 1:
        return (p + 5) // 10 * 10
    if rounding == 2:
        return (p + 4) // 10 * 10
    return p


@nb.njit(cache=True)
def _score_coinche(S, j, opts, belote0, belote1, d0, d1):
    """Score table ``j``'s played coinche deal against its contract
    (``scoring.score_coinche_deal`` with a reserve of 0, rounded: COINCHE.md §5, §6)."""
    taker = S[j, TAKER]
    T = _TEAM[taker]
    D = _OTHER_TEAM[T]
    bid = S[j, A_BID]
    capot_bid = _is_capot(bid)
    generale = _is_generale(bid)
    tp = np.zeros(2, dtype=np.int64)
    capot = -1
    if S[j, WON] == 8:
        capot = 0
    elif S[j, WON + 1] == 8:
        capot = 1
    if capot >= 0:
        tp[capot] = opts[O_CAPOT_POINTS]
    else:
        tp[0] = S[j, CP]
        tp[1] = S[j, CP + 1]
        tp[_TEAM[S[j, LASTW]]] += 10
    m = S[j, MULT]
    value = _bid_value(bid, opts)
    bel = np.zeros(2, dtype=np.int64)
    decl = np.zeros(2, dtype=np.int64)
    bel[0], bel[1], decl[0], decl[1] = belote0, belote1, d0, d1
    # made? (§6.2, exact points)
    count_decl = opts[O_COUNTS] != 0
    tot_t = tp[T] + (bel[T] if opts[O_BELOTE_COUNTS] else 0) + (decl[T] if count_decl else 0)
    tot_d = tp[D] + bel[D] + decl[D]  # COINCHE.md §6.2: the defence's total always holds its belote and declarations
    if capot_bid:
        fate = 0 if capot == T else 1
    elif generale:
        fate = 0 if S[j, TAKER_TRICKS] == 8 else 1
    else:
        need = opts[O_NEED_80] if value == _FIRST_LEVEL else value
        if tot_t < need:
            fate = 1
        elif opts[O_BEAT_DEFENCE] and tot_t <= tot_d:
            fate = 2 if tot_t == tot_d and opts[O_TIE_LITIGE] else 1
        else:
            fate = 0
    # belote and declarations that change hands (§5, §6.8b)
    if fate == 1:
        decl[D] += decl[T]
        decl[T] = 0
        if opts[O_PRENABLE]:
            bel[D] += bel[T]
            bel[T] = 0
    elif fate == 0:
        if m > 1 or capot == T:
            decl[T] += decl[D]
            decl[D] = 0
        if opts[O_PRENABLE] and m > 1:
            bel[T] += bel[D]
            bel[D] = 0
    scope = opts[O_SCOPE]
    dm = m if scope == 1 else 1  # declarations multiplied only with whole_score
    flat = (capot_bid or generale) and opts[O_CAPOT_FLAT]
    pts = np.zeros(2, dtype=np.int64)
    if fate == 0:
        pts[D] = bel[D] + decl[D]
        if flat:
            pts[T] = (opts[O_GENERALE_VALUE] if generale else CAPOT_FLAT_VALUE) * m + bel[T] + decl[T] * dm
        elif opts[O_BID_ONLY]:
            pts[T] = value * m + bel[T] + decl[T] * dm
        elif m == 1:
            pts[T] = tp[T] + decl[T] + value + bel[T]
            pts[D] += tp[D]
        else:
            base = opts[O_CAPOT_POINTS] if capot == T else opts[O_FAIL_BASE]
            if scope == 0:
                pts[T] = base + value * m + bel[T] + decl[T]
            elif scope == 1:
                pts[T] = (base + value + decl[T]) * m + bel[T]
            elif scope == 2:
                pts[T] = (FORFAIT_BASE + value) * m + bel[T] + decl[T]
            else:  # bga: belote multiplied, the defence's lost
                pts[T] = (value + tp[T] + bel[T]) * m + decl[T]
                pts[D] = 0
    elif fate == 1:
        pts[T] = bel[T]
        if flat:
            pts[D] = (opts[O_GENERALE_VALUE] if generale else opts[O_CAPOT_FAIL]) * m + bel[D] + decl[D] * dm
        elif opts[O_BID_ONLY]:
            pts[D] = value * m + bel[D] + decl[D] * dm
        else:
            base = opts[O_DEF_CAPOT_BASE] if capot == D else opts[O_FAIL_BASE]
            if m == 1 or scope == 0:
                pts[D] = base + value * m + bel[D] + decl[D]
            elif scope == 1:
                pts[D] = (base + value + decl[D]) * m + bel[D]
            elif scope == 2:
                pts[D] = (FORFAIT_BASE + value) * m + bel[D] + decl[D]
            else:  # bga
                pts[D] = (value + base + bel[D]) * m + decl[D]
    else:  # litige (§6.9): the takers' points go to a reserve no deal of the episode pays
        pts[D] = tp[D] + bel[D] + decl[D]
        pts[T] = bel[T]
    S[j, DP] = _round(pts[0], opts[O_ROUNDING])
    S[j, DP + 1] = _round(pts[1], opts[O_ROUNDING])
    S[j, OUTCOME] = fate


@nb.njit(cache=True)
def step_kernel(S, deck, bids, rng, mask, actions, opts, points, done, rewards, result, autoreset, layout, tabs):
    """Apply ``actions[j]`` at every table ``j`` whose phase is bidding or play.

    Returns -1, or the first table whose action is not legal (nothing is applied to it or
    to the tables after it). ``done[j]`` is set for a deal that ends, with ``rewards[j]``
    and ``result[j]`` (``_end_deal``). ``points``: the card points ``[denomination, card]``;
    ``layout``: the deal layout ``(first, more, pos)`` (``four_seat_layout``,
    ``cutthroat.packet_tables``); ``tabs``: the combination tables
    (``cutthroat.combination_tables``)."""
    first, more, pos = layout
    done[:] = False
    rewards[:] = 0.0
    n = opts[O_N]
    for j in range(S.shape[0]):
        ph = S[j, PH]
        if ph == PHASE_OVER:
            continue
        a = actions[j]
        if illegal(mask, j, a):
            return j
        S[j, NACT] += 1
        ended = False
        if ph == PHASE_BIDDING:
            r = _apply_bid(S, bids, j, a, opts)
            if r == 1:
                _complete(S, deck, j, opts, more, pos, tabs)
            elif r >= 2:  # void (every seat passed) or an agreed redeal
                S[j, PH] = PHASE_OVER
                S[j, OUTCOME] = _VOID + r - 2
                ended = True
        elif n != NS and S[j, STEP] != STEP_CARDS:
            apply_step(S, j, S[j, CUR], a, opts, tabs)
        elif a == ANNOUNCE_BELOTE:
            S[j, ANN_NEXT] = 1
        elif a == DECLARE:
            S[j, DECL_NEXT] = 1
        elif _apply_card(S, j, a, opts, points):
            _score(S, j, opts)
            S[j, PH] = PHASE_OVER
            ended = True
        if ended:
            _end_deal(S, j, n, done, rewards, result)
            if autoreset:
                _next_deal(S, deck, bids, rng, j, opts, first, pos)
        _fill_mask(S, j, mask, opts)
    return -1


@nb.njit(cache=True)
def _end_deal(S, j, n, done, rewards, result):
    """Table ``j``'s deal has ended: ``done[j]``; ``result[j]``: the deal points per side,
    the outcome, the number of decisions (then, at two and three seats, each seat's deal
    total); ``rewards[j, s]``: at four seats seat ``s``'s team point difference, at two and
    three its points less the mean of the others' (``CutthroatDealScore.difference``); 0
    for a void deal or a redeal."""
    done[j] = True
    if n == NS:
        result[j, 0] = S[j, DP]
        result[j, 1] = S[j, DP + 1]
        result[j, 2] = S[j, OUTCOME]
        result[j, 3] = S[j, NACT]
        diff = np.float64(S[j, DP] - S[j, DP + 1])
        for s in range(NS):
            rewards[j, s] = diff if _TEAM[s] == 0 else -diff
        return
    S[j, CUR] = -1
    tot = 0
    for s in range(n):
        result[j, s] = S[j, DP + s]
        result[j, n + 2 + s] = S[j, TOTAL + s]
        tot += S[j, DP + s]
    result[j, n] = S[j, OUTCOME]
    result[j, n + 1] = S[j, NACT]
    if S[j, OUTCOME] < _VOID:
        for s in range(n):
            rewards[j, s] = S[j, DP + s] - (tot - S[j, DP + s]) / (n - 1)


@nb.njit(cache=True)
def _next_deal(S, deck, bids, rng, j, opts, first, pos):
    """The table's next deal: the next seat deals, except the same dealer after a void
    deal under ``all_pass_redeal="same_dealer"`` (four seats) or after an agreed redeal
    under ``redeal_dealer="same"`` (two and three seats)."""
    d = S[j, DEALER]
    o = S[j, OUTCOME]
    if not ((o == _VOID and not opts[O_REDEAL]) or (o == _VOID + 1 and not opts[O_REDEAL_ELDER])):
        d = NEXT_N[opts[O_N], d]
    S[j, DEALS] += 1
    _start_deal(S, deck, bids, rng, j, d, opts, first, pos)


@nb.njit(cache=True)
def reset_kernel(S, deck, bids, rng, mask, opts, which, layout):
    """Start a new deal at each table ``j`` with ``which[j]``: the first deal's dealer is
    drawn from the table's stream."""
    first, _, pos = layout
    for j in range(S.shape[0]):
        if which[j]:
            S[j, DEALS] = 0
            _start_deal(S, deck, bids, rng, j, below(rng, j, opts[O_N]), opts, first, pos)
            _fill_mask(S, j, mask, opts)


@nb.njit(cache=True)
def deal_kernel(S, deck, bids, mask, opts, tables, decks, dealers, layout):
    """Deal ``decks[i]`` by ``dealers[i]`` at table ``tables[i]`` (a new deal there)."""
    first, _, pos = layout
    for i in range(tables.shape[0]):
        j = tables[i]
        deck[j, :] = decks[i]
        S[j, DEALS] = 0
        _deal(S, deck, bids, j, dealers[i], opts, first, pos)
        _fill_mask(S, j, mask, opts)


@nb.njit(cache=True)
def first_bad_action(S, mask, actions):
    """``(kind, j)``: the first table in play whose action is out of the mask's range
    (kind 1), else the first whose action is not legal there (kind 2), else ``(0, -1)``
    (``BatchedGame.step``'s check of every table before any is stepped)."""
    for j in range(S.shape[0]):
        a = actions[j]
        if S[j, PH] != PHASE_OVER and (a < 0 or a >= mask.shape[1]):
            return 1, j
    for j in range(S.shape[0]):
        if S[j, PH] != PHASE_OVER and mask[j, actions[j]] == 0:
            return 2, j
    return 0, -1


@nb.njit(cache=True)
def random_actions(mask, rng, out):
    """A uniformly random legal action per table (its mask), from the tables' streams."""
    random_legal(mask, rng, out, mask.shape[1], mask.shape[1])


#: The rule options ``BatchedGame`` plays at four seats (``rules_codes``) or knowingly
#: leaves unread (the game-length ones: each deal is an episode; two and three seats:
#: ``cutthroat.CUTTHROAT_PLAYED_OPTIONS``). ``check_supported`` refuses any other option
#: set away from its default, so that an option added to ``Rules`` later is never silently
#: played wrong.
PLAYED_OPTIONS = frozenset((
    "all_pass_redeal", "round2_no_trump_all_trump", "partner_master_free", "undertrump", "obligations", "belote",
    "declarations", "declaration_tie", "contract_counts_bonuses", "tie", "all_trump_points", "contract_mode",
    "overtrump_partner", "coinche_denominations", "max_numeric_bid", "denomination_order", "coinche_window",
    "coinche_freezes", "coincher_partner_speaks", "capot_bid", "capot_coinchable", "surcoinche_allowed",
    "passes_to_end", "self_overbid", "generale", "generale_value", "generale_leads", "belote_counts_for_contract",
    "belote_prenable", "scoring", "multiplier_scope", "surcoinche_multiplier", "contract_condition", "bid_80_means",
    "fail_base", "defence_capot_base", "capot_points", "capot_scoring", "capot_value", "capot_fail_value",
    "tie_with_defence", "rounding", "carres", "run5_value", "failure"))
UNREAD_OPTIONS = frozenset(("target", "max_deals", "round_last_deal", "target_rule", "no_win_on_belote_alone",
                            "players")) | CUTTHROAT_ONLY  # the two- and three-player games: vector.cutthroat


def check_supported(rules: Rules) -> None:
    """Raise ``RuleOptionError`` naming the first option of ``rules`` that ``BatchedGame``
    does not play and that is set away from its default in ``rules``' mode (two and three
    seats: ``cutthroat.check_cutthroat_supported``)."""
    if rules.players != NS:
        check_cutthroat_supported(rules)
        return
    default = Rules(contract_mode=rules.contract_mode)
    for name in Rules.option_names():
        if name in PLAYED_OPTIONS or name in UNREAD_OPTIONS:
            continue
        if getattr(rules, name) != getattr(default, name):
            raise RuleOptionError(f"rule option {name!r} = {getattr(rules, name)!r} is not supported by the batched "
                                  f"engine (belote_env.vector.BatchedGame); play it with belote_env.GameState")


#: the combination tables of a table that has none (four seats: declarations are ``vector/declare.py``'s)
_NO_COMBINATIONS = tuple(np.zeros(n, dtype=np.int64) for n in (256, 256, 256, 8, 8))


def reset_tables(rng: np.ndarray, n: int, seed, tables) -> np.ndarray:
    """The tables a batched engine's ``reset(seed, tables)`` deals anew, as a bool ``(n,)``
    array, after keying every table's stream ``rng`` from ``seed`` when one is given.

    Raises ``ValueError`` for a seed that is not an int in 0..2**63-1, or ``tables`` that
    are neither a bool ``(n,)`` array nor indices 0..n-1."""
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 63:
            raise ValueError(f"seed must be an int in 0..2**63-1, got {seed!r}")
        seed_tables(rng, np.uint64(seed), 0)
    which = np.ones(n, dtype=np.bool_)
    if tables is not None:
        t = np.asarray(tables)
        if t.dtype == np.bool_ and t.shape == (n,):
            which = t.copy()
        elif t.ndim == 1 and (t.size == 0 or t.dtype.kind in "iu"):
            if t.size and (t.min() < 0 or t.max() >= n):
                raise ValueError(f"tables must be indices 0..{n - 1} or a bool array of shape ({n},)")
            which = np.zeros(n, dtype=np.bool_)
            which[t.astype(np.int64)] = True
        else:
            raise ValueError(f"tables must be indices 0..{n - 1} or a bool array of shape ({n},), "
                             f"got {t.dtype} {t.shape}")
    return which

class BatchedGame:
    """``n`` tables of single deals of Belote, stepped together: four seats (RULES.md
    §3-§7; COINCHE.md under ``contract_mode="coinche"``), two and three seats (TWO_THREE.md,
    ``rules.players`` 2 or 3).

    Args:
        n: number of tables (int >= 1, at most ``MAX_TABLES``).
        rules: a ``Rules`` (default ``Rules()``): classic or coinche at four seats, or the
            two- or three-player game; the game-length options (``target``,
            ``max_deals``, ``target_rule``, and in coinche ``round_last_deal``,
            ``no_win_on_belote_alone``) are not read: each deal is an episode, scored as
            ``GameState(..., single_deal=True)`` scores it (coinche deal scores rounded per
            ``rounding``).
        seed: int seed of the tables' streams (table ``j``'s deals depend on
            ``(seed, j)`` only).
        autoreset: a table whose deal ends starts its next one within the same ``step``
            (default True); else it waits in phase ``PHASE_OVER`` for ``reset``.

    Attributes (numpy views, updated in place by ``step`` / ``reset``; ``opts``,
    ``points``, ``layout`` and ``combinations`` are what the kernels read of the rules):
        players: the seats of a table (4, 3 or 2).
        columns: ``COL``, the state's column of each field name (one layout for every
            table; ``vector.cutthroat.SCOL`` is the same dict).
        state: int64 ``(n, NCOL)``, columns named by ``COL`` (hands and played cards as
            32-bit masks per seat: the hidden cards; never hand it to a seat).
        mask: int8 ``(n, n_actions)``, the legal actions of each table's seat to act
            (``n_actions = actions.num_actions(rules)``: 112, or 412 for coinche rules
            with a générale or bids above 160; 414 at two and three seats).
        current: int64 ``(n,)`` (a view of ``state[:, COL["current"]]``), the seat to act.
        bids: int64 ``(n, L, 2)``, the auction's history in order: ``(seat, bid id)`` per
            decision (``Auction.history``), ``(-1, -1)`` after; ``L`` is the auction's
            bound (``games.Game.auction_bound``: ``BIDS_MAX`` (8) classic,
            ``auction.length_bound(rules)`` coinche, ``auction.proposal_length_bound`` at
            two and three seats).
        deck: int64 ``(n, 32)``, each table's deck (``GameState``'s ``deck`` argument).
        done: bool ``(n,)``, set by ``step`` for each table whose deal ended.
        rewards: float64 ``(n, players)``, set by ``step`` with ``done``: at four seats
            per seat its team's deal point difference (points), at two and three its deal
            points less the mean of the others' (``CutthroatDealScore.difference``); 0 for
            a void deal or an agreed redeal.
        result: int64, set by ``step`` with ``done``: at four seats ``(n, 4)``, the ended
            deal's points (team 0, team 1), its outcome (an index of ``OUTCOMES``: made,
            dedans, litige, void) and its number of decisions; at two and three seats
            ``(n, 2 * players + 2)``: the recorded points per seat, the outcome (an index
            of ``cutthroat.CUTTHROAT_OUTCOMES``), the decisions, then per seat its deal
            total (``CutthroatDealScore.totals``; 0 when void).
    Raises:
        ValueError: ``n`` not a positive int, a bad ``seed``.
        RuleOptionError: ``rules`` is not a ``Rules``, or sets an option this engine does
            not play (``check_supported``: the message names it).
    """

    columns = COL

    def __init__(self, n: int, rules: Rules | None = None, seed: int = 0, autoreset: bool = True):
        from ..games import game_of

        n = self._checked_n(n)
        rules = Rules() if rules is None else rules
        self.opts = rules_codes(rules)  # refuses what is not a Rules
        check_supported(rules)
        self.rules = rules
        players = rules.players
        #: the width of the action masks (``actions.num_actions``)
        self.n_actions = num_actions(rules)
        #: the most decisions an auction takes: the history's length
        self.auction_bound = game_of(rules).auction_bound
        if players == NS:
            self.points = np.array(POINTS_BY_ALL_TRUMP_OPTION[rules.all_trump_points], dtype=np.int64)
            self.layout = four_seat_layout(rules)
            self.combinations = _NO_COMBINATIONS
            self._random_span = (self.n_actions, self.n_actions)
            width = 4
        else:
            self.points = CUTTHROAT_POINTS
            self.layout = packet_tables(rules)
            self.combinations = combination_tables(rules)
            self._random_span = (_CARD_IDS_END, AGREE_REDEAL)
            width = 2 * players + 2
        self.n, self.players, self.autoreset = n, players, bool(autoreset)
        self.state = np.zeros((n, NCOL), dtype=np.int64)
        self.deck = np.zeros((n, NUM_CARDS), dtype=np.int64)
        self.bids = np.full((n, self.auction_bound, 2), -1, dtype=np.int64)
        self.rng = np.zeros(n, dtype=np.uint64)
        self.mask = np.zeros((n, self.n_actions), dtype=np.int8)
        self.done = np.zeros(n, dtype=np.bool_)
        self.rewards = np.zeros((n, players), dtype=np.float64)
        self.result = np.zeros((n, width), dtype=np.int64)
        self.current = self.state[:, CUR]
        self.reset(seed)

    @staticmethod
    def _checked_n(n) -> int:
        """``n`` as an int; ``ValueError`` unless it is a table count 1..MAX_TABLES."""
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a positive int (number of tables), got {n!r}")
        if n > MAX_TABLES:
            raise ValueError(f"n must be at most MAX_TABLES ({MAX_TABLES:,} tables), got {n:,}")
        return int(n)

    def reset(self, seed: int | None = None, tables=None) -> None:
        """Start a new deal at every table (or at ``tables``: a bool ``(n,)`` array or an
        index list); with ``seed`` every table's stream is keyed anew from it first. The
        first deal's dealer is drawn from the table's stream.

        Raises ``ValueError`` for a seed outside 0..2**63-1 or tables that are neither."""
        reset_kernel(self.state, self.deck, self.bids, self.rng, self.mask, self.opts,
                     reset_tables(self.rng, self.n, seed, tables), self.layout)

    def deal(self, tables, decks, dealers) -> None:
        """Start a new deal at ``tables`` from explicit decks (duplicate matches, tests).

        Args:
            tables: int ``(m,)`` distinct table indices.
            decks: int ``(m, 32)``, each a permutation of 0..31 in the reference state's
                ``deck`` order (``dealing``: RULES.md §3.1 packets from eldest, the turned
                card at 20; coinche ``dealing.deal_all``, COINCHE.md §2; two and three seats
                ``dealing.PacketLayout``, TWO_THREE.md).
            dealers: int ``(m,)`` seats 0..players-1.
        Raises:
            ValueError: shapes that differ, a table out of range or repeated, a deck that is
                not the 32 cards, a dealer that is not a seat.
        """
        t, d, dl = np.asarray(tables), np.asarray(decks), np.asarray(dealers)
        m = t.shape[0] if t.ndim == 1 else -1
        if (m < 0 or d.shape != (m, NUM_CARDS) or dl.shape != (m,) or t.dtype.kind not in "iu"
                or d.dtype.kind not in "iu" or dl.dtype.kind not in "iu"):
            raise ValueError(f"tables (m,), decks (m, 32) and dealers (m,) must be int arrays, got "
                             f"{t.dtype} {t.shape}, {d.dtype} {d.shape}, {dl.dtype} {dl.shape}")
        if m and (t.min() < 0 or t.max() >= self.n or len(set(t.tolist())) != m):
            raise ValueError(f"tables must be distinct indices 0..{self.n - 1}")
        bad_deck = np.flatnonzero((np.sort(d, axis=1) != np.arange(NUM_CARDS)).any(axis=1))
        if len(bad_deck):
            raise ValueError(f"each deck must hold each card id 0..31 once: deck {int(bad_deck[0])} (for table "
                             f"{int(t[bad_deck[0]])}) does not")
        bad_dealer = np.flatnonzero((dl < 0) | (dl >= self.players))
        if len(bad_dealer):
            i = int(bad_dealer[0])
            raise ValueError(f"each dealer must be a seat 0..{self.players - 1}: dealer {int(dl[i])} given for table "
                             f"{int(t[i])}")
        deal_kernel(self.state, self.deck, self.bids, self.mask, self.opts, t.astype(np.int64), d.astype(np.int64),
                    dl.astype(np.int64), self.layout)

    def _illegal(self, a, j: int, why: str = "") -> ValueError:
        return ValueError(f"illegal action {int(a[j])} at table {j} by seat {int(self.current[j])}{why}; "
                          f"legal ids: {np.flatnonzero(self.mask[j]).tolist()}")

    def step(self, actions) -> None:
        """Apply one action per table (int ``(n,)``; ignored at a table in ``PHASE_OVER``).

        Raises:
            ValueError: the shape is not ``(n,)``, or an action is not legal at its table:
                the message names the table, the seat, the action and the legal ids (the
                acting seat's own mask). Every table is checked first: then nothing is
                stepped.
        """
        a = np.asarray(actions)
        if a.shape != (self.n,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be an int array of shape ({self.n},), got {a.dtype} {a.shape}")
        if a.dtype != np.int64:
            live = self.state[:, PH] != PHASE_OVER
            out_of_range = live & ((a < 0) | (a >= self.n_actions))
            if out_of_range.any():  # before any cast: an uint64 id is named as given
                raise self._illegal(a, int(np.flatnonzero(out_of_range)[0]), f": out of range 0..{self.n_actions - 1}")
            a = a.astype(np.int64)
        # every table is checked first (compiled): an illegal action changes nothing
        kind, bad = first_bad_action(self.state, self.mask, a)
        if kind:
            raise self._illegal(a, bad, f": out of range 0..{self.n_actions - 1}" if kind == 1 else "")
        bad = step_kernel(self.state, self.deck, self.bids, self.rng, self.mask, a, self.opts, self.points, self.done,
                          self.rewards, self.result, self.autoreset, self.layout, self.combinations)
        if bad >= 0:
            raise self._illegal(a, bad)

    def _checked_rows(self, tables, seats) -> tuple[np.ndarray, np.ndarray]:
        """``tables`` / ``seats`` as int64 ``(m,)``; ``ValueError`` unless they are of one 1-d
        shape, the tables in ``0..n-1`` and the seats in ``0..players-1``."""
        t, s = np.asarray(tables), np.asarray(seats)
        if t.ndim != 1 or s.shape != t.shape or (len(t) and (t.dtype.kind not in "iu" or s.dtype.kind not in "iu")):
            raise ValueError(f"tables and seats must be int arrays of one shape (m,), got {t.dtype} {t.shape} and "
                             f"{s.dtype} {s.shape}")
        if len(t) and (t.min() < 0 or t.max() >= self.n or s.min() < 0 or s.max() >= self.players):
            raise ValueError(f"tables must be indices 0..{self.n - 1} and seats 0..{self.players - 1}")
        return t.astype(np.int64, copy=False), s.astype(np.int64, copy=False)

    def random_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action per table (int64 ``(n,)``), drawn from the
        tables' own streams (reproducible). ``out``: a writeable int64 ``(n,)`` array to
        fill, not a view of the engine's own arrays (``ValueError`` otherwise)."""
        if out is None:
            out = np.empty(self.n, dtype=np.int64)
        elif (not isinstance(out, np.ndarray) or out.shape != (self.n,) or out.dtype != np.int64
              or not out.flags.writeable):
            raise ValueError(f"out must be a writeable int64 array of shape ({self.n},), got "
                             f"{getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}")
        if out is not None and any(np.shares_memory(out, a) for a in (self.state, self.mask, self.deck, self.rng,
                                                                     self.bids, self.done, self.rewards, self.result)):
            raise ValueError("out must not share memory with the engine's own arrays (state, current, mask, ...): "
                             "pass a separate int64 array")
        random_legal(self.mask, self.rng, out, *self._random_span)
        return out

    def encode_rows(self, tables, seats, out: np.ndarray | None = None) -> np.ndarray:
        """The observations of ``seats[i]`` at ``tables[i]`` (``games.Game.encode`` of that
        seat's information set, float for float): float32 ``(m, obs_size)``, into ``out``
        (a float32 array of that shape, rows may be a slice of wider ones) when given.
        Reads nothing hidden from the seat (RULES.md §11). Raises ``ValueError`` for a
        table or seat out of range or arrays of other shapes."""
        if self.players != NS:
            return _ct.encode_cutthroat_batch(self, tables, seats, out)
        from ..observation import obs_size
        from .observation import encode_tables_kernel

        tables, seats = self._checked_rows(tables, seats)
        if out is None:
            out = np.empty((len(tables), obs_size(self.rules)), dtype=np.float32)
        elif out.dtype != np.float32 or out.shape != (len(tables), obs_size(self.rules)):
            raise ValueError(f"out must be float32 of shape ({len(tables)}, {obs_size(self.rules)}), got {out.dtype} "
                             f"{out.shape}")
        encode_tables_kernel(self.state, self.bids, self.mask, self.points, tables, seats, out)
        return out

    def infoset(self, j: int, seat: int):
        """``seat``'s ``InfoSet`` at table ``j``, equal to the reference engine's
        ``information_set(seat)`` for that deal (RULES.md §11, TWO_THREE.md §5). Raises
        ``ValueError`` for a table or seat out of range or not an int, or a table whose deal
        is over."""
        j, seat = _index(j, "table", self.n), _index(seat, "seat", self.players)
        if self.players != NS:
            info = _ct.cutthroat_infoset_of(self, j, seat)  # checks the table and the seat
            if self.state[j, PH] == PHASE_OVER:
                raise ValueError(f"table {j}: the deal is over (no information set to act on)")
            return info
        from .infoset import infoset_of

        return infoset_of(self, j, seat)


def _index(v, name: str, n: int) -> int:
    """``v`` as a Python int in ``0..n-1`` (numpy integers accepted); ``ValueError`` naming
    ``name`` otherwise."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not 0 <= v < n:
        raise ValueError(f"{name} must be an int in 0..{n - 1}, got {v!r}")
    return int(v)


class CutthroatBatchedGame(BatchedGame):
    """Deprecated (``vector.cutthroat.CutthroatBatchedGame``, for one release):
    ``BatchedGame(n, rules)`` is the engine of every table. Refuses rules of four seats."""

    def __init__(self, n: int, rules: Rules, seed: int = 0, autoreset: bool = True):
        import warnings

        warnings.warn("CutthroatBatchedGame is belote_env.vector.BatchedGame now (the engine of every table); this "
                      "alias goes in the next release", DeprecationWarning, stacklevel=2)
        n = self._checked_n(n)
        check_cutthroat_supported(rules)
        super().__init__(n, rules, seed, autoreset)
