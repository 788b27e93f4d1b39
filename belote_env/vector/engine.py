"""The batched engine: N tables of single deals stepped together in compiled code (numba).

``BatchedGame`` holds every table's state in preallocated numpy arrays and steps them all
with one call: legal-action masks for the seats to act, a batch of actions applied, deal
scores and rewards written into its arrays. A table whose deal ends (scored, or void
after eight passes: RULES.md §3.4, reward 0) starts its next deal at once
(``autoreset=True``), so the arrays always describe a decision to take.

The rules are not re-derived here. Every table the kernels read comes from the reference
modules at import time: card strengths, point values and ``BEATS`` from ``cards``, the
trick power from ``rules.POWER``, the packet and stock layouts from ``dealing``, the seats
from ``table``; the sequence tables of the declarations kernel from ``declarations``
(``vector/declare.py``). The control flow of the rules (legal cards, what a card
reveals, belote, scoring) is a second implementation, held equal to ``game.GameState``
by ``tests/test_vector_engine.py`` (and ``scripts/check_vector.py`` for the long run):
identical masks, states, scores and observations at every step.

Rule options: every option of ``Rules`` (RULES.md §3-§7) except that the game is one deal
(``target`` and ``max_deals`` are not read; the litige reserve starts at 0 each deal,
so a tie's reserve is never paid within an episode, as in the envs' deal episodes).

State columns (``BatchedGame.state``, int64 ``(N, NCOL)``): the ``COL`` dict names them.
Per-table RNG: splitmix64 streams keyed by ``(seed, table)``, so table ``j``'s deals do
not depend on the batch size, and the same seed gives the same games in any process.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..actions import ANNOUNCE_BELOTE, DECLARE, NAME_CONTRACT, NUM_ACTIONS, PASS, TAKE
from ..cards import ALL_TRUMP, BEATS, NO_TRUMP, NUM_CARDS, NUM_SUITS, POINTS_BY_ALL_TRUMP_OPTION, SUIT_MASK
from ..config import Rules, RuleOptionError
from ..dealing import _FIRST, _STOCK, TURNED_AT
from ..rules import POWER
from ..scoring import BELOTE_POINTS
from ..table import FOUR, NEXT_SEAT, NUM_SEATS, PARTNER_REL, SEATS, TEAM_OF, seats_from
from .declare import TIE_CODES, declaration_summary, declaration_team_points

__all__ = ["BatchedGame", "COL", "NCOL", "BIDS_MAX", "OUTCOMES", "rules_codes", "PHASE_BIDDING", "PHASE_PLAY", "PHASE_OVER"]

# ------------------------------------------------------------------ state columns
_NAMES = (
    "phase", "current", "dealer", "bid_round", "n_bids", "denomination", "taker", "turned", "leader", "trick_len",
    "n_tricks", "trick0", "trick1", "trick2", "trick3", "hand0", "hand1", "hand2", "hand3",
    "played0", "played1", "played2", "played3", "cannot0", "cannot1", "cannot2", "cannot3",
    "known0", "known1", "known2", "known3", "points0", "points1", "won0", "won1",
    "pairs", "ann_flags", "ann0", "ann1", "ann2", "ann3", "announce_next", "declare_next",
    "decl_points0", "decl_points1", "decl_points2", "decl_points3",
    "decl_key0", "decl_key1", "decl_key2", "decl_key3", "declared", "last_winner",
    "deal_points0", "deal_points1", "outcome", "n_actions", "deals", "first_hand0", "first_hand1", "first_hand2",
    "first_hand3", "decl_cards0", "decl_cards1", "decl_cards2", "decl_cards3", *(f"seq{i}" for i in range(32)),
)
#: column index of each state field (``BatchedGame.state[:, COL["hand0"] + seat]``, ...)
COL = {n: i for i, n in enumerate(_NAMES)}
NCOL = len(_NAMES)
(PH, CUR, DEALER, ROUND, NBIDS, DENOM, TAKER, TURNED, LEADER, TLEN, NTRICKS, TRICK, HAND, PLAYED, CANNOT, KNOWN,
 CP, WON, PAIRS, ANNF, ANNC, ANN_NEXT, DECL_NEXT, DECLP, DECLK, DECLD, LASTW, DP, OUTCOME, NACT, DEALS,
 FIRST, DECLC, SEQ) = (COL[n] for n in (
    "phase", "current", "dealer", "bid_round", "n_bids", "denomination", "taker", "turned", "leader", "trick_len",
    "n_tricks", "trick0", "hand0", "played0", "cannot0", "known0", "points0", "won0", "pairs", "ann_flags", "ann0",
    "announce_next", "declare_next", "decl_points0", "decl_key0", "declared", "last_winner", "deal_points0",
    "outcome", "n_actions", "deals", "first_hand0", "decl_cards0", "seq0"))

PHASE_BIDDING, PHASE_PLAY, PHASE_OVER = 0, 1, 2
#: bids an auction holds at most (two rounds of four, RULES.md §3.2-§3.4)
BIDS_MAX = 2 * NUM_SEATS
#: ``outcome`` column: made, dedans, litige (a tie kept or lost by the takers), void
OUTCOMES = ("made", "dedans", "litige", "void")

# ------------------------------------------------------------------ shared rule tables
_POWER = np.array(POWER, dtype=np.int64)  # [denomination, led suit, card]
_BEATS = np.array(BEATS, dtype=np.int64)  # [denomination, card]
_SUIT_MASK = np.array(SUIT_MASK, dtype=np.int64)
_NEXT = np.array(NEXT_SEAT, dtype=np.int64)
_TEAM = np.array(TEAM_OF, dtype=np.int64)
NS = NUM_SEATS
#: ``_AFTER[seat, i]``: the seat ``i`` places after ``seat`` in play order (``table.seats_from``)
_AFTER = np.array([seats_from(s) for s in SEATS], dtype=np.int64)
#: ``_REL[me, seat]``: ``seat`` counted from ``me`` (``table.FOUR.relative``)
_REL = np.array(FOUR.relative, dtype=np.int64)
#: per denomination, the suits whose K+Q make a belote (bit per suit): the trump suit's,
#: every suit at all-trump, none at no-trump (RULES.md §5; scoring._BELOTE_PAIRS)
_BELOTE_SUITS = np.array([0xF if k == ALL_TRUMP else 0 if k == NO_TRUMP else 1 << k for k in range(6)],
                         dtype=np.int64)


def _owner_tables():
    """``first[dealer, i]``: the seat dealt deck position ``i`` (< 20) before the auction;
    ``stock[dealer, taker, i]``: the seat dealt stock card ``i`` after ``taker`` takes
    (``dealing._FIRST`` / ``_STOCK``, RULES.md §3.1, §3.5)."""
    first = np.full((NUM_SEATS, TURNED_AT), -1, dtype=np.int64)
    stock = np.full((NUM_SEATS, NUM_SEATS, NUM_CARDS - TURNED_AT - 1), -1, dtype=np.int64)
    for d in range(NUM_SEATS):
        for seat, positions in enumerate(_FIRST[d]):
            first[d, list(positions)] = seat
        for t in range(NUM_SEATS):
            for seat, positions in enumerate(_STOCK[d][t]):
                stock[d, t, list(positions)] = seat
    assert (first >= 0).all() and (stock >= 0).all()
    return first, stock


_FIRST_OWNER, _STOCK_OWNER = _owner_tables()

# option codes (``rules_codes``)
(O_PMF, O_DISCARD, O_TWO, O_OPTIONAL, O_DECL, O_DTIE, O_COUNTS, O_TIE, O_ROUND2, O_REDEAL) = range(10)
N_OPTIONS = 10
_TIES = {"litige": 0, "takers_made": 1, "takers_fail": 2, "defenders_keep": 3}


def rules_codes(rules: Rules) -> np.ndarray:
    """The rule options as the kernels read them: int64 ``(N_OPTIONS,)``.

    Raises ``RuleOptionError`` if ``rules`` is not a ``Rules``."""
    if not isinstance(rules, Rules):
        raise RuleOptionError(f"rules must be a belote_env.Rules, got {type(rules).__name__}")
    counts = rules.contract_counts_bonuses
    return np.array([
        int(rules.partner_master_free), int(rules.undertrump == "discard_allowed"),
        int(rules.obligations == "two_player"), int(rules.belote == "optional"),
        ("off", "auto", "choice").index(rules.declarations), TIE_CODES[rules.declaration_tie],
        1 if counts is True else 0 if counts is False else 2, _TIES[rules.tie],
        int(rules.round2_no_trump_all_trump), int(rules.all_pass_redeal == "next_dealer"),
    ], dtype=np.int64)


# ------------------------------------------------------------------ RNG (splitmix64)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@nb.njit(cache=True)
def _next_u64(rng, j):
    """Advance table ``j``'s splitmix64 state; a uniform uint64."""
    z = rng[j] + _GOLDEN
    rng[j] = z
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def _below(rng, j, n):
    """A uniform int in ``0..n-1`` (n <= 2**32; Lemire's multiply-shift)."""
    return np.int64(((_next_u64(rng, j) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True)
def seed_tables(rng, seed, first):
    """Key the streams of tables ``first .. first + len(rng) - 1`` from ``seed``."""
    for j in range(rng.shape[0]):
        z = np.uint64(seed) * _M1 + np.uint64(first + j) * _GOLDEN + _M2
        z = (z ^ (z >> np.uint64(31))) * _M1
        rng[j] = z ^ (z >> np.uint64(29))


# ------------------------------------------------------------------ rules (RULES.md §4)
@nb.njit(cache=True, inline="always")
def _winner_pos(S, j, n, k):
    """Position in the current trick of the card winning it so far (``rules.trick_winner``)."""
    led = S[j, TRICK] >> 3
    best = 0
    bp = _POWER[k, led, S[j, TRICK]]
    for i in range(1, n):
        p = _POWER[k, led, S[j, TRICK + i]]
        if p > bp:
            best, bp = i, p
    return best


@nb.njit(cache=True)
def _legal_cards(S, j, hand, opts):
    """Mask of the cards of ``hand`` that may be played to table ``j``'s trick
    (``rules.legal_cards``)."""
    n = S[j, TLEN]
    if n == 0:
        return hand
    k = S[j, DENOM]
    led = S[j, TRICK] >> 3
    led_cards = hand & _SUIT_MASK[led]
    if k >= 4:
        if led_cards == 0:
            return hand
        if k == NO_TRUMP:
            return led_cards
        win = S[j, TRICK + _winner_pos(S, j, n, k)]
        higher = led_cards & _BEATS[ALL_TRUMP, win]
        return higher if higher else led_cards
    if led == k:
        if led_cards == 0:
            return hand
        win = S[j, TRICK + _winner_pos(S, j, n, k)]
        higher = led_cards & _BEATS[k, win]
        return higher if higher else led_cards
    if led_cards:
        return led_cards
    wp = _winner_pos(S, j, n, k)
    if opts[O_PMF] and wp == n - PARTNER_REL:
        return hand
    trumps = hand & _SUIT_MASK[k]
    if trumps == 0:
        return hand
    win = S[j, TRICK + wp]
    if win >> 3 != k:
        return trumps
    if opts[O_TWO] or wp == n - PARTNER_REL:
        return trumps
    over = trumps & _BEATS[k, win]
    if over:
        return over
    return hand if opts[O_DISCARD] else trumps


@nb.njit(cache=True)
def _card_reveals(S, j, c, opts):
    """Cards the seat shows it cannot hold by playing ``c`` to table ``j``'s trick
    (``inference.card_reveals``)."""
    n = S[j, TLEN]
    if n == 0:
        return 0
    k = S[j, DENOM]
    led = S[j, TRICK] >> 3
    wp = _winner_pos(S, j, n, k)
    win = S[j, TRICK + wp]
    if c >> 3 == led:
        if (k == ALL_TRUMP or led == k) and not (_BEATS[k, win] >> c) & 1:
            return _BEATS[k, win]
        return 0
    cannot = _SUIT_MASK[led]
    if k >= 4:
        return cannot
    partner_winning = wp == n - 2
    if partner_winning and opts[O_PMF]:
        return cannot
    if not (_SUIT_MASK[k] >> c) & 1:
        if opts[O_DISCARD] and not opts[O_TWO] and win >> 3 == k and not partner_winning:
            return cannot | _BEATS[k, win]
        return cannot | _SUIT_MASK[k]
    if not opts[O_TWO] and win >> 3 == k and not partner_winning and not (_BEATS[k, win] >> c) & 1:
        return cannot | _BEATS[k, win]
    return cannot


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


# ------------------------------------------------------------------ dealing (RULES.md §3)
@nb.njit(cache=True)
def _start_deal(S, deck, bids, rng, j, dealer):
    """Shuffle table ``j``'s deck from its stream and deal its first five cards a seat."""
    d = deck[j]
    for i in range(NUM_CARDS):
        d[i] = i
    for i in range(NUM_CARDS - 1, 0, -1):  # Fisher-Yates
        r = _below(rng, j, i + 1)
        t = d[i]
        d[i] = d[r]
        d[r] = t
    _deal(S, deck, bids, j, dealer)


@nb.njit(cache=True)
def _deal(S, deck, bids, j, dealer):
    """Deal table ``j``'s deck (``deck[j]``): five cards a seat, the turned card (§3.1)."""
    d = deck[j]
    deals = S[j, DEALS]
    for c in range(NCOL):
        S[j, c] = 0
    S[j, DEALS] = deals
    S[j, DEALER] = dealer
    for i in range(TURNED_AT):
        S[j, HAND + _FIRST_OWNER[dealer, i]] |= np.int64(1) << d[i]
    for s in range(NS):
        S[j, FIRST + s] = S[j, HAND + s]
    S[j, TURNED] = d[TURNED_AT]
    eldest = _NEXT[dealer]
    S[j, CUR] = eldest
    S[j, LEADER] = eldest
    S[j, ROUND] = 1
    S[j, DENOM] = -1
    S[j, TAKER] = -1
    S[j, LASTW] = -1
    S[j, PH] = PHASE_BIDDING
    for i in range(bids.shape[1]):
        bids[j, i] = -1


@nb.njit(cache=True)
def _complete(S, deck, j):
    """After a take: the taker gets the turned card + 2, the others 3 (§3.5); the belote
    pairs are noted (§5)."""
    dealer, taker = S[j, DEALER], S[j, TAKER]
    for i in range(NUM_CARDS - TURNED_AT - 1):
        S[j, HAND + _STOCK_OWNER[dealer, taker, i]] |= np.int64(1) << deck[j, TURNED_AT + 1 + i]
    S[j, HAND + taker] |= np.int64(1) << S[j, TURNED]
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
    eldest = _NEXT[dealer]
    S[j, CUR] = eldest
    S[j, LEADER] = eldest


# ------------------------------------------------------------------ legal actions
@nb.njit(cache=True)
def _fill_mask(S, j, mask, opts):
    """Write table ``j``'s legal-action mask (int8 ``(NUM_ACTIONS,)``) for its seat to act."""
    m = mask[j]
    for a in range(NUM_ACTIONS):
        m[a] = 0
    ph = S[j, PH]
    if ph == PHASE_BIDDING:
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
        return
    if ph != PHASE_PLAY:
        return
    seat = S[j, CUR]
    cards = _legal_cards(S, j, S[j, HAND + seat], opts)
    if opts[O_OPTIONAL] and S[j, PAIRS]:
        ann = cards & _announceable(S, j, seat)
        if S[j, ANN_NEXT]:
            cards = ann
        elif ann:
            m[ANNOUNCE_BELOTE] = 1
    if (opts[O_DECL] == 2 and not S[j, DECL_NEXT] and S[j, NTRICKS] == 0 and S[j, PLAYED + seat] == 0):
        _, _, key = declaration_summary(S[j, HAND + seat], S[j, DENOM])
        if key > 0:
            m[DECLARE] = 1
    while cards:
        low = cards & -cards
        c = 0
        while (low >> c) != 1:
            c += 1
        m[c] = 1
        cards ^= low


# ------------------------------------------------------------------ acting
@nb.njit(cache=True)
def _apply_bid(S, bids, j, a):
    seat = S[j, CUR]
    bids[j, S[j, NBIDS]] = a
    S[j, NBIDS] += 1
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


@nb.njit(cache=True)
def _apply_card(S, j, c, opts, points):
    seat = S[j, CUR]
    k = S[j, DENOM]
    one = np.int64(1)
    if S[j, NTRICKS] == 0 and S[j, PLAYED + seat] == 0 and opts[O_DECL] != 0:
        if opts[O_DECL] == 1 or S[j, DECL_NEXT]:  # RULES.md §6: made with the first card
            cards, pts, key = declaration_summary(S[j, HAND + seat], k)
            if key > 0:
                S[j, DECLP + seat] = pts
                S[j, DECLK + seat] = key
                S[j, DECLD] |= one << seat
                S[j, DECLC + seat] = cards
                S[j, KNOWN + seat] |= cards
        S[j, DECL_NEXT] = 0
    if S[j, TLEN]:
        S[j, CANNOT + seat] |= _card_reveals(S, j, c, opts)
    S[j, HAND + seat] &= ~(one << c)
    S[j, PLAYED + seat] |= one << c
    S[j, SEQ + 4 * S[j, NTRICKS] + S[j, TLEN]] = c
    S[j, TRICK + S[j, TLEN]] = c
    S[j, TLEN] += 1
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
    S[j, ANN_NEXT] = 0
    # after the card
    if S[j, TLEN] < 4:
        S[j, CUR] = _NEXT[seat]
        return False
    leader = S[j, LEADER]
    wp = _winner_pos(S, j, 4, k)
    winner = _AFTER[leader, wp]
    team = _TEAM[winner]
    S[j, CP + team] += (points[k, S[j, TRICK]] + points[k, S[j, TRICK + 1]] + points[k, S[j, TRICK + 2]]
                        + points[k, S[j, TRICK + 3]])
    S[j, WON + team] += 1
    S[j, NTRICKS] += 1
    S[j, LASTW] = winner
    S[j, TLEN] = 0
    S[j, LEADER] = winner
    S[j, CUR] = winner
    return S[j, NTRICKS] == 8


@nb.njit(cache=True)
def _score(S, j, opts):
    """Score table ``j``'s played deal (``scoring.score_deal`` with a reserve of 0, RULES.md §5-§7)."""
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
    elif fate == 1:
        p[dt] = (252 if capot == dt else 162) + d0 + d1 + belote[dt]
        p[tt] = belote[tt]
    else:
        p[dt] = tp[dt] + belote[dt] + decl[dt]
        p[tt] = belote[tt]
    S[j, DP] = p[0]
    S[j, DP + 1] = p[1]
    S[j, OUTCOME] = fate


@nb.njit(cache=True)
def step_kernel(S, deck, bids, rng, mask, actions, opts, points, done, rewards, result, autoreset):
    """Apply ``actions[j]`` at every table ``j`` whose phase is bidding or play.

    Returns -1, or the first table whose action is not legal (nothing is applied to it or
    to the tables after it). ``done[j]`` is set for a deal that ends; ``rewards[j, s]`` is
    seat ``s``'s team point difference (points, not scaled; 0 for a void deal)."""
    n = S.shape[0]
    for j in range(n):
        done[j] = False
        for s in range(NS):
            rewards[j, s] = 0.0
        ph = S[j, PH]
        if ph == PHASE_OVER:
            continue
        a = actions[j]
        if a < 0 or a >= NUM_ACTIONS or mask[j, a] == 0:
            return j
        S[j, NACT] += 1
        ended = False
        if ph == PHASE_BIDDING:
            r = _apply_bid(S, bids, j, a)
            if r == 1:
                _complete(S, deck, j)
            elif r == 2:
                S[j, PH] = PHASE_OVER
                S[j, OUTCOME] = 3
                S[j, DP] = 0
                S[j, DP + 1] = 0
                ended = True
        elif a == ANNOUNCE_BELOTE:
            S[j, ANN_NEXT] = 1
        elif a == DECLARE:
            S[j, DECL_NEXT] = 1
        elif _apply_card(S, j, a, opts, points):
            _score(S, j, opts)
            S[j, PH] = PHASE_OVER
            ended = True
        if ended:
            done[j] = True
            result[j, 0] = S[j, DP]
            result[j, 1] = S[j, DP + 1]
            result[j, 2] = S[j, OUTCOME]
            result[j, 3] = S[j, NACT]
            diff = np.float64(S[j, DP] - S[j, DP + 1])
            for s in range(NS):
                rewards[j, s] = diff if _TEAM[s] == 0 else -diff
            if autoreset:
                _next_deal(S, deck, bids, rng, j, opts)
        _fill_mask(S, j, mask, opts)
    return -1


@nb.njit(cache=True)
def _next_deal(S, deck, bids, rng, j, opts):
    """The table's next deal: the dealer rotates (after a void deal per ``all_pass_redeal``)."""
    d = S[j, DEALER]
    if S[j, OUTCOME] != 3 or opts[O_REDEAL]:
        d = _NEXT[d]
    S[j, DEALS] += 1
    _start_deal(S, deck, bids, rng, j, d)


@nb.njit(cache=True)
def reset_kernel(S, deck, bids, rng, mask, opts, which):
    """Start a new deal at each table ``j`` with ``which[j]``: the first deal's dealer is
    drawn from the table's stream."""
    for j in range(S.shape[0]):
        if which[j]:
            S[j, DEALS] = 0
            _start_deal(S, deck, bids, rng, j, _below(rng, j, 4))
            _fill_mask(S, j, mask, opts)


@nb.njit(cache=True)
def deal_kernel(S, deck, bids, mask, opts, tables, decks, dealers):
    """Deal ``decks[i]`` by ``dealers[i]`` at table ``tables[i]`` (a new deal there)."""
    for i in range(tables.shape[0]):
        j = tables[i]
        deck[j, :] = decks[i]
        S[j, DEALS] = 0
        _deal(S, deck, bids, j, dealers[i])
        _fill_mask(S, j, mask, opts)


@nb.njit(cache=True)
def random_actions(mask, rng, out):
    """A uniformly random legal action per table (its mask), from the tables' streams."""
    for j in range(mask.shape[0]):
        m = mask[j]
        count = 0
        for a in range(m.shape[0]):
            count += m[a]
        if count == 0:
            out[j] = -1
            continue
        r = _below(rng, j, count)
        for a in range(m.shape[0]):
            if m[a]:
                if r == 0:
                    out[j] = a
                    break
                r -= 1


class BatchedGame:
    """``n`` tables of single deals of team Belote, stepped together (RULES.md §3-§7).

    Args:
        n: number of tables (int >= 1).
        rules: a ``Rules`` (default ``Rules()``); ``target`` / ``max_deals`` are not read
            (each deal is an episode).
        seed: int seed of the tables' streams (table ``j``'s deals depend on
            ``(seed, j)`` only).
        autoreset: a table whose deal ends starts its next one within the same ``step``
            (default True); else it waits in phase ``PHASE_OVER`` for ``reset``.

    Attributes (numpy views, updated in place by ``step`` / ``reset``):
        state: int64 ``(n, NCOL)``, columns named by ``COL`` (hands and played cards as
            32-bit masks per seat: the hidden cards; never hand it to a seat).
        mask: int8 ``(n, NUM_ACTIONS)``, the legal actions of each table's seat to act.
        current: int64 ``(n,)`` (a view of ``state[:, COL["current"]]``), the seat to act.
        bids: int64 ``(n, 8)``, the auction's bid ids in order from eldest (-1 after).
        deck: int64 ``(n, 32)``, each table's deck (``GameState``'s ``deck`` argument).
        done: bool ``(n,)``, set by ``step`` for each table whose deal ended.
        rewards: float64 ``(n, 4)``, per seat its team's deal point difference (points;
            0 for a void deal), set by ``step`` with ``done``.
        result: int64 ``(n, 4)``, set by ``step`` with ``done``: the ended deal's points
            (team 0, team 1), its outcome (an index of ``OUTCOMES``: made, dedans,
            litige, void) and its number of decisions.
    Raises:
        ValueError: ``n`` not a positive int, a bad ``seed``.
        RuleOptionError: ``rules`` is not a ``Rules``.
    """

    def __init__(self, n: int, rules: Rules | None = None, seed: int = 0, autoreset: bool = True):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a positive int (number of tables), got {n!r}")
        n = int(n)
        self.rules = Rules() if rules is None else rules
        self.opts = rules_codes(self.rules)
        self.points = np.array(POINTS_BY_ALL_TRUMP_OPTION[self.rules.all_trump_points], dtype=np.int64)
        self.n, self.autoreset = n, bool(autoreset)
        self.state = np.zeros((n, NCOL), dtype=np.int64)
        self.deck = np.zeros((n, NUM_CARDS), dtype=np.int64)
        self.bids = np.full((n, BIDS_MAX), -1, dtype=np.int64)
        self.rng = np.zeros(n, dtype=np.uint64)
        self.mask = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self.done = np.zeros(n, dtype=np.bool_)
        self.rewards = np.zeros((n, NUM_SEATS), dtype=np.float64)
        self.current = self.state[:, CUR]
        self.result = np.zeros((n, 4), dtype=np.int64)
        self.reset(seed)

    def reset(self, seed: int | None = None, tables=None) -> None:
        """Start a new deal at every table (or at ``tables``, a bool ``(n,)`` array or
        index list); with ``seed`` the streams are keyed anew from it first (every table)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 63:
                raise ValueError(f"seed must be an int in 0..2**63-1, got {seed!r}")
            seed_tables(self.rng, np.uint64(seed), 0)
        which = np.ones(self.n, dtype=np.bool_)
        if tables is not None:
            t = np.asarray(tables)
            if t.dtype == np.bool_ and t.shape == (self.n,):
                which = t.copy()
            elif t.ndim == 1 and (t.size == 0 or t.dtype.kind in "iu"):
                if t.size and (t.min() < 0 or t.max() >= self.n):
                    raise ValueError(f"tables must be indices 0..{self.n - 1} or a bool array of shape ({self.n},)")
                which = np.zeros(self.n, dtype=np.bool_)
                which[t.astype(np.int64)] = True
            else:
                raise ValueError(f"tables must be indices 0..{self.n - 1} or a bool array of shape ({self.n},), "
                                 f"got {t.dtype} {t.shape}")
        reset_kernel(self.state, self.deck, self.bids, self.rng, self.mask, self.opts, which)

    def deal(self, tables, decks, dealers) -> None:
        """Start a new deal at ``tables`` from explicit decks (duplicate matches, tests).

        Args:
            tables: int ``(m,)`` distinct table indices.
            decks: int ``(m, 32)``, each a permutation of 0..31 in ``GameState``'s ``deck``
                order (``dealing``: packets from eldest, the turned card at 20, RULES.md §3.1).
            dealers: int ``(m,)`` seats 0..3.
        Raises:
            ValueError: shapes that differ, a table out of range or repeated, a deck that is
                not the 32 cards, a dealer outside 0..3.
        """
        t = np.asarray(tables)
        d = np.asarray(decks)
        dl = np.asarray(dealers)
        m = t.shape[0] if t.ndim == 1 else -1
        if (m < 0 or d.shape != (m, NUM_CARDS) or dl.shape != (m,) or t.dtype.kind not in "iu"
                or d.dtype.kind not in "iu" or dl.dtype.kind not in "iu"):
            raise ValueError(f"tables (m,), decks (m, 32) and dealers (m,) must be int arrays, got shapes "
                             f"{t.shape}, {d.shape}, {dl.shape}")
        if m and (t.min() < 0 or t.max() >= self.n or len(set(t.tolist())) != m):
            raise ValueError(f"tables must be distinct indices 0..{self.n - 1}")
        if m and ((np.sort(d, axis=1) != np.arange(NUM_CARDS)).any() or dl.min() < 0 or dl.max() > 3):
            raise ValueError("each deck must hold each card id 0..31 once, and each dealer be a seat 0..3")
        deal_kernel(self.state, self.deck, self.bids, self.mask, self.opts, t.astype(np.int64),
                    d.astype(np.int64), dl.astype(np.int64))

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
        live = self.state[:, PH] != PHASE_OVER
        out_of_range = live & ((a < 0) | (a >= NUM_ACTIONS))
        if out_of_range.any():  # before any cast: an uint64 id is named as given
            j = int(np.flatnonzero(out_of_range)[0])
            raise ValueError(f"illegal action {int(a[j])} at table {j} by seat {int(self.current[j])}: out of range "
                             f"0..{NUM_ACTIONS - 1}; legal ids: {np.flatnonzero(self.mask[j]).tolist()}")
        a = a.astype(np.int64, copy=False)
        illegal = live & (self.mask[np.arange(self.n), np.where(live, a, 0)] == 0)
        if illegal.any():  # checked for every table first: an illegal action changes nothing
            j = int(np.flatnonzero(illegal)[0])
            raise ValueError(f"illegal action {int(a[j])} at table {j} by seat {int(self.current[j])}; "
                             f"legal ids: {np.flatnonzero(self.mask[j]).tolist()}")
        bad = step_kernel(self.state, self.deck, self.bids, self.rng, self.mask, a, self.opts, self.points,
                          self.done, self.rewards, self.result, self.autoreset)
        if bad >= 0:
            legal = np.flatnonzero(self.mask[bad]).tolist()
            raise ValueError(f"illegal action {int(a[bad])} at table {bad} by seat {int(self.current[bad])}; "
                             f"legal ids: {legal}")

    def random_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action per table (int64 ``(n,)``), drawn from the
        tables' own streams (reproducible)."""
        if out is None:
            out = np.empty(self.n, dtype=np.int64)
        elif (not isinstance(out, np.ndarray) or out.shape != (self.n,) or out.dtype != np.int64
              or not out.flags.writeable):
            raise ValueError(f"out must be a writeable int64 array of shape ({self.n},), got "
                             f"{getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}")
        random_actions(self.mask, self.rng, out)
        return out
