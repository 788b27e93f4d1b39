"""Double-dummy solver for the play phase at every table (every hand known; RULES.md §4,
§7; TWO_THREE.md §2.8, §3).

``solve(position)`` returns the exact number of card points (dix de der included) the
taker's side wins from the current position on (four seats: the takers' team; two and
three seats: the taker alone against the others, the two defenders sharing the side's
value, TWO_THREE.md's expert), with both sides playing perfectly to maximise / minimise
it; ``card_values`` gives that value after each legal card of the seat to play. Belote,
declarations, combinations and the capot bonus are fixed before the play or are not card
points, so they are left out; add ``GameState.card_points`` (points so far) for the deal's
final card points.

Every contract kind (four suits, no-trump, all-trump) and every play option of
``Rules`` is handled: ``partner_master_free``, ``undertrump``, ``obligations``
(``classic`` / ``two_player``), ``overtrump_partner`` (COINCHE.md §4) and
``all_trump_points`` (RULES.md §4); at two and three seats the table's options as
``rules.play_options`` maps them (``ruff_overtrump``, ``defender_partner_free``). The
legal cards are the one legal-card kernel (``vector.kernels.legal_cards``), held equal
to ``rules.legal_cards`` (tested).

Search (compiled with numba, ``@njit(cache=True)``: the first call after an install or
an edit compiles for about 10-20 s, later processes load the cached machine code):

* the value is found by null-window alpha-beta searches (fail-soft), the first at a
  guess, then bisecting the interval their bounds leave (about 7 searches per solve);
  the search itself is iterative (an explicit stack of one node per card), so the compiled
  code can be cached;
* a transposition table of lower / upper bounds at trick boundaries, a fixed-size hashed
  array keyed by the remaining cards and the leader (within one solve the remaining cards
  fix the four hands), with the best lead stored for move ordering; ``Solver`` keeps it
  between solves (a new solve only changes a stamp in the key, nothing is cleared);
* bounds: the takers win between 0 and the points still out, and the run of top trumps
  held by one team goes to that team; the last two tricks are solved by plain minimax
  (stored exact), the last trick directly;
* move ordering: the table's lead first, then leads of master cards (most points first),
  then low leads; when following, the card that wins the trick for one's side (the last
  seat: with most points; a master card of the led suit; else the cheapest winner), points
  on a partner's trick, else the cheapest discard;
* equivalent cards searched once: cards of the hand to play that are adjacent in the
  contract's order of a suit (no card of another hand or of the trick in progress between
  them) and worth the same points.

Cards are ints 0..31 and card sets 32-bit masks (``cards.py``); seats 0..n-1 in playing
order (``table.Table``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .cards import (
    BEATS, NO_TRUMP, NUM_CARDS, NUM_CONTRACTS, NUM_SUITS, POINTS_BY_ALL_TRUMP_OPTION, STRENGTH, SUIT_MASK,
    SUITS,
)
from .config import Rules
from .deprecation import renamed
from .game import STEPS, GameState, Phase
from .games import game_of
from .rules import POWER
from .table import NUM_SEATS, SEATS, seats_from
from .vector.kernels import legal_cards

__all__ = ["Position", "solve", "card_values", "position_of", "Solver"]

_SUIT = np.array(SUIT_MASK, dtype=np.int64)
# ORDER[denomination][suit][i]: the suit's cards, strongest first under that denomination
_ORDER = np.array([[sorted(range(8 * s, 8 * s + 8), key=lambda c: -STRENGTH[k][c]) for s in SUITS]
                   for k in range(NUM_CONTRACTS)], dtype=np.int64)
_POWER = np.array(POWER, dtype=np.int64)  # [denomination][led suit][card]
_BEATS = np.array(BEATS, dtype=np.int64)  # [denomination][card]: same-suit cards stronger than card
_POINTS = {name: np.array(t, dtype=np.int64) for name, t in POINTS_BY_ALL_TRUMP_OPTION.items()}

# parameter vector of one solve (an int64 array, so the compiled search takes few arguments):
# the denomination, the mask of the seats of the taker's side (they maximise), the
# legal-card options (partner master free, undertrump required, two_player obligations,
# overtrump_partner "must_overtrump"), the table's seats, the taker, whether a three-seat
# defender's co-defender frees it (``defender_partner_free``), the transposition stamp
_K, _MAX, _PMF, _UNDER, _TWO, _STAMP, _OVER, _NSEATS, _TAKER, _CODEF = range(10)
_TT_BITS = 20
_MAXV = 1000  # above any value (162)

# Seat facts from table.py, frozen into the compiled code as constants (numba reads module
# globals at compile time): the most seats and the suits, and for the four-seat endgame
# (``_last_two``) _AFTER[leader, i], the seat i places after ``leader``. The table's own
# number of seats is ``prm[_NSEATS]``: seat i places after ``leader`` is
# ``(leader + i) % ns``.
_NS = NUM_SEATS
_NSUITS = NUM_SUITS
_AFTER = np.array([seats_from(s) for s in SEATS], dtype=np.int64)
_NT = NO_TRUMP
_MAX_HAND = 10  # the most cards a hand holds in play (three seats, three_player_deal="10_each")
assert _NS == 4, "_last_two plays out the four seats of a trick"


@njit(cache=True)
def _two_cards(h):
    """True when mask ``h`` holds exactly two cards."""
    h2 = h & (h - 1)
    return h2 != 0 and h2 & (h2 - 1) == 0


@njit(cache=True)
def _lowbit(x):
    """Index of the lowest set bit of a non-zero mask."""
    i = 0
    while not (x >> i) & 1:
        i += 1
    return i


@njit(cache=True)
def _legal(hand, trick, n, win_pos, prm, beats, suit, seat, leader):
    """Mask of the cards of ``hand`` (``seat``'s) playable on the ``n`` cards of ``trick``
    led by ``leader`` (RULES.md §4; TWO_THREE.md §3), ``win_pos`` the position of the card
    winning the trick so far: the one legal-card kernel of every table
    (``vector.kernels.legal_cards``) under the solve's parameters. The partner's card is
    ``trick[n - 2]`` at four seats; at three a defender's co-defender's under
    ``defender_partner_free`` (``rules.co_defender_pos``); none at two."""
    ns = prm[_NSEATS]
    partner_pos = -1
    if ns == 4:
        partner_pos = n - 2
    elif prm[_CODEF] and seat != prm[_TAKER]:
        pos = (3 - seat - prm[_TAKER] - leader) % 3
        if pos < n:
            partner_pos = pos
    return legal_cards(hand, trick, n, win_pos, prm[_K], partner_pos, prm[_TWO], prm[_PMF], prm[_OVER], prm[_UNDER],
                       _POWER, beats, suit)


@njit(cache=True)
def _moves(hands, leader, seat, trick, n, win_pos, prm, pts, power, beats, order, suit, tt_move, out_cards,
           out_score):
    """Fill ``out_cards`` with the legal cards to search (one per equivalence class), best
    first; returns how many. ``seat`` plays the ``n``-th card of a trick led by ``leader``."""
    hand = hands[seat]
    legal = _legal(hand, trick, n, win_pos, prm, beats, suit, seat, leader)
    ns = prm[_NSEATS]
    side = prm[_MAX]
    last = ns - 1
    live = 0  # cards that separate two cards of the hand: other hands and the trick
    for s in range(ns):
        if s != seat:
            live |= hands[s]
    for i in range(n):
        live |= np.int64(1) << trick[i]
    m = 0
    for s in range(_NSUITS):
        if legal & suit[s] == 0:
            continue
        prev = -1
        for j in range(8):
            c = order[s, j]
            if (legal >> c) & 1:
                if prev >= 0 and pts[prev] == pts[c]:
                    continue
                prev = c
                # ordering score: higher first
                if c == tt_move:
                    sc = 10000
                elif n == 0:
                    if beats[c] & live == 0:
                        sc = 300 + 8 * pts[c] + power[s, c]
                    else:
                        sc = 100 - 8 * pts[c] - power[s, c]
                else:
                    led = trick[0] >> 3
                    wc = trick[win_pos]
                    takes = power[led, c] > power[led, wc]
                    wseat = leader + win_pos
                    if wseat >= ns:
                        wseat -= ns
                    partner_wins = (side >> wseat) & 1 == (side >> seat) & 1
                    if takes:
                        if n == last:
                            sc = 2000 + pts[c]
                        elif beats[c] & live == 0 and (c >> 3 == led or prm[_K] >= _NT):
                            sc = 1000 + pts[c]
                        else:
                            sc = 400 - power[led, c]
                    elif partner_wins:
                        sc = 1500 + pts[c] - power[led, c] if n == last else 500 + pts[c] - power[led, c]
                    else:
                        sc = -8 * pts[c] - power[led, c]
                # insertion sort, descending score
                i = m
                while i > 0 and out_score[i - 1] < sc:
                    out_cards[i] = out_cards[i - 1]
                    out_score[i] = out_score[i - 1]
                    i -= 1
                out_cards[i] = c
                out_score[i] = sc
                m += 1
            elif (live >> c) & 1:
                prev = -1
    return m


@njit(cache=True)
def _tt_index(key, bits):
    h = (key & 0xFFFFFFFF) * 0x5BD1E995
    h ^= (key >> 32) * 0x27D4EB2F
    h ^= h >> 29
    return h & ((np.int64(1) << bits) - 1)


@njit(cache=True)
def _last_trick(hands, leader, side, ns, pts, power):
    """The taker's side's points of the last trick (one card in each hand), dix de der
    included; ``side``: the mask of its seats."""
    c0 = _lowbit(hands[leader])
    led = c0 >> 3
    w = 0
    wpow = power[led, c0]
    tp = pts[c0] + 10
    for p in range(1, ns):
        c = _lowbit(hands[(leader + p) % ns])
        tp += pts[c]
        if power[led, c] > wpow:
            wpow = power[led, c]
            w = p
    return tp if (side >> ((leader + w) % ns)) & 1 else 0


@njit(cache=True)
def _last_two(hands, leader, prm, pts, power, beats, suit, stats):
    """Exact takers' points of the last two tricks of a four-seat deal (two cards in each
    hand), by plain minimax over the at most 16 ways to play the first of them."""
    side = prm[_MAX]
    trick = np.zeros(_NS, np.int64)
    s0 = leader
    s1 = _AFTER[leader, 1]
    s2 = _AFTER[leader, 2]
    s3 = _AFTER[leader, 3]
    max0 = (side >> s0) & 1 == 1
    best0 = -1 if max0 else _MAXV
    l0 = hands[s0]
    while l0:
        c0 = _lowbit(l0)
        l0 &= l0 - 1
        trick[0] = c0
        led = c0 >> 3
        hands[s0] ^= np.int64(1) << c0
        best1 = -1 if not max0 else _MAXV  # seat 1 is on the other team
        l1 = _legal(hands[s1], trick, 1, 0, prm, beats, suit, s1, leader)
        while l1:
            c1 = _lowbit(l1)
            l1 &= l1 - 1
            trick[1] = c1
            w1 = 1 if power[led, c1] > power[led, c0] else 0
            hands[s1] ^= np.int64(1) << c1
            best2 = -1 if max0 else _MAXV
            l2 = _legal(hands[s2], trick, 2, w1, prm, beats, suit, s2, leader)
            while l2:
                c2 = _lowbit(l2)
                l2 &= l2 - 1
                trick[2] = c2
                w2 = 2 if power[led, c2] > power[led, trick[w1]] else w1
                hands[s2] ^= np.int64(1) << c2
                best3 = -1 if not max0 else _MAXV
                l3 = _legal(hands[s3], trick, 3, w2, prm, beats, suit, s3, leader)
                while l3:
                    c3 = _lowbit(l3)
                    l3 &= l3 - 1
                    w3 = 3 if power[led, c3] > power[led, trick[w2]] else w2
                    hands[s3] ^= np.int64(1) << c3
                    stats[0] += 1
                    wseat = _AFTER[leader, w3]
                    v = pts[c0] + pts[c1] + pts[c2] + pts[c3] if (side >> wseat) & 1 else 0
                    v += _last_trick(hands, wseat, side, _NS, pts, power)
                    hands[s3] ^= np.int64(1) << c3
                    if max0:  # seat 3 is on the other team: it minimises
                        if v < best3:
                            best3 = v
                    elif v > best3:
                        best3 = v
                hands[s2] ^= np.int64(1) << c2
                if max0:
                    if best3 > best2:
                        best2 = best3
                elif best3 < best2:
                    best2 = best3
            hands[s1] ^= np.int64(1) << c1
            if max0:
                if best2 < best1:
                    best1 = best2
            elif best2 > best1:
                best1 = best2
        hands[s0] ^= np.int64(1) << c0
        if max0:
            if best1 > best0:
                best0 = best1
        elif best1 < best0:
            best0 = best1
    return best0


@njit(cache=True)
def _search(hands, trick0, n0, leader0, alpha_root, beta_root,
            prm, pts, power, beats, order, suit, tt_key, tt_lo, tt_hi, tt_move, stats):
    """Takers' points from the position (``hands``, the ``n0`` cards of ``trick0`` led by
    ``leader0``) on: exact inside ``(alpha_root, beta_root)``, else a bound on the failing
    side (fail-soft alpha-beta). Iterative (an explicit stack of up to 33 nodes, one per
    card still to play), so the compiled code can be cached; ``hands`` is restored."""
    D = 34
    N = np.empty(D, np.int64)  # cards in the trick at the node
    LEAD = np.empty(D, np.int64)
    WP = np.empty(D, np.int64)  # position of the card winning the trick so far
    REST = np.empty(D, np.int64)  # card points still in the hands
    ALPHA = np.empty(D, np.int64)
    BETA = np.empty(D, np.int64)
    A0 = np.empty(D, np.int64)
    B0 = np.empty(D, np.int64)
    BEST = np.empty(D, np.int64)
    BESTC = np.empty(D, np.int64)
    KEY = np.empty(D, np.int64)
    IDX = np.empty(D, np.int64)
    GAIN = np.empty(D, np.int64)  # points the move into this node gave the takers
    NMV = np.empty(D, np.int64)
    MI = np.empty(D, np.int64)
    TR = np.zeros((D, _NS), np.int64)
    MV = np.empty((D, _MAX_HAND), np.int64)
    SC = np.empty(_MAX_HAND, np.int64)
    side = prm[_MAX]
    ns = prm[_NSEATS]
    last = ns - 1
    bits = stats[1]
    rest = 0
    for s in range(ns):
        h = hands[s]
        while h:
            rest += pts[_lowbit(h)]
            h &= h - 1
    wp = 0
    for i in range(n0):
        TR[0, i] = trick0[i]
        if i > 0 and power[trick0[0] >> 3, trick0[i]] > power[trick0[0] >> 3, trick0[wp]]:
            wp = i
    d = 0
    N[0] = n0
    LEAD[0] = leader0
    WP[0] = wp
    REST[0] = rest
    ALPHA[0] = alpha_root
    BETA[0] = beta_root
    GAIN[0] = 0
    entering = True
    v = 0
    while True:
        ret = False
        n = N[d]
        seat = LEAD[d] + n
        if seat >= ns:
            seat -= ns
        maximise = (side >> seat) & 1 == 1
        if entering:
            entering = False
            stats[0] += 1
            A0[d] = ALPHA[d]
            B0[d] = BETA[d]
            KEY[d] = -1
            ttm = -1
            if n == 0:
                rem = 0
                for s in range(ns):
                    rem |= hands[s]
                if rem == 0:
                    v = 0
                    ret = True
                elif hands[0] & (hands[0] - 1) == 0:  # one card each: the last trick is forced
                    v = _last_trick(hands, LEAD[d], side, ns, pts, power)
                    ret = True

                else:
                    lo = 0
                    hi = REST[d] + 10
                    k = prm[_K]
                    if k < _NT:  # the top trumps held by one side all go to that side
                        held = 0  # the cards of the taker's side
                        for s in range(ns):
                            if (side >> s) & 1:
                                held |= hands[s]
                        run = 0
                        run_side = -1  # 1: the taker's side, 0: the other
                        for j in range(8):
                            c = order[k, j]
                            if (rem >> c) & 1 == 0:
                                continue
                            t = 1 if (held >> c) & 1 else 0
                            if run_side < 0:
                                run_side = t
                            elif t != run_side:
                                break
                            run += pts[c]
                        if run_side == 1:
                            lo = run
                        elif run_side == 0:
                            hi -= run
                    key = rem | (LEAD[d] << 32) | (prm[_STAMP] << 34)
                    idx = _tt_index(key, bits)
                    if tt_key[idx] == key:
                        if tt_lo[idx] > lo:
                            lo = tt_lo[idx]
                        if tt_hi[idx] < hi:
                            hi = tt_hi[idx]
                        ttm = tt_move[idx]
                    if lo >= BETA[d] or lo == hi:
                        v = lo
                        ret = True
                    elif ns == 4 and _two_cards(hands[0]):  # two tricks left: plain minimax, stored exact
                        v = _last_two(hands, LEAD[d], prm, pts, power, beats, suit, stats)
                        tt_key[idx] = key
                        tt_lo[idx] = v
                        tt_hi[idx] = v
                        tt_move[idx] = -1
                        ret = True
                    elif hi <= ALPHA[d]:
                        v = hi
                        ret = True
                    else:
                        if lo > ALPHA[d]:
                            ALPHA[d] = lo
                        if hi < BETA[d]:
                            BETA[d] = hi
                        KEY[d] = key
                        IDX[d] = idx
            else:
                ub = REST[d] + 10
                for i in range(n):
                    ub += pts[TR[d, i]]
                if ALPHA[d] >= ub:
                    v = ub
                    ret = True
                elif BETA[d] <= 0:
                    v = 0
                    ret = True
            if not ret:
                NMV[d] = _moves(hands, LEAD[d], seat, TR[d], n, WP[d], prm, pts, power, beats, order, suit, ttm, MV[d], SC)
                MI[d] = 0
                BEST[d] = -1 if maximise else _MAXV
                BESTC[d] = -1
        if not ret:
            if MI[d] < NMV[d] and ALPHA[d] < BETA[d]:
                c = MV[d, MI[d]]
                MI[d] += 1
                hands[seat] ^= np.int64(1) << c
                if n == 0:
                    nwp = 0
                else:
                    led = TR[d, 0] >> 3
                    nwp = n if power[led, c] > power[led, TR[d, WP[d]]] else WP[d]
                if n == last:
                    wseat = LEAD[d] + nwp
                    if wseat >= ns:
                        wseat -= ns
                    tp = pts[c]
                    for i in range(last):
                        tp += pts[TR[d, i]]
                    left = 0
                    for s in range(ns):
                        left |= hands[s]
                    if left == 0:
                        tp += 10  # dix de der
                    g = tp if (side >> wseat) & 1 else 0
                    N[d + 1] = 0
                    LEAD[d + 1] = wseat
                    WP[d + 1] = 0
                else:
                    g = 0
                    for i in range(n):
                        TR[d + 1, i] = TR[d, i]
                    TR[d + 1, n] = c
                    N[d + 1] = n + 1
                    LEAD[d + 1] = LEAD[d]
                    WP[d + 1] = nwp
                REST[d + 1] = REST[d] - pts[c]
                GAIN[d + 1] = g
                ALPHA[d + 1] = ALPHA[d] - g
                BETA[d + 1] = BETA[d] - g
                d += 1
                entering = True
                continue
            v = BEST[d]
            if KEY[d] >= 0:
                idx = IDX[d]
                lo = 0
                hi = REST[d] + 10
                if tt_key[idx] == KEY[d]:
                    lo = tt_lo[idx]
                    hi = tt_hi[idx]
                if v <= A0[d]:
                    if v < hi:
                        hi = v
                elif v >= B0[d]:
                    if v > lo:
                        lo = v
                else:
                    lo = v
                    hi = v
                tt_key[idx] = KEY[d]
                tt_lo[idx] = lo
                tt_hi[idx] = hi
                tt_move[idx] = BESTC[d]
        # hand v back to the parent
        if d == 0:
            return v
        v += GAIN[d]
        d -= 1
        n = N[d]
        seat = LEAD[d] + n
        if seat >= ns:
            seat -= ns
        c = MV[d, MI[d] - 1]
        hands[seat] ^= np.int64(1) << c
        if (side >> seat) & 1:
            if v > BEST[d]:
                BEST[d] = v
                BESTC[d] = c
                if v > ALPHA[d]:
                    ALPHA[d] = v
        else:
            if v < BEST[d]:
                BEST[d] = v
                BESTC[d] = c
                if v < BETA[d]:
                    BETA[d] = v


@njit(cache=True)
def _exact(hands, trick, n, leader, guess, prm, pts, power, beats, order, suit, tt_key, tt_lo, tt_hi, tt_move,
           stats):
    """Exact value by null-window searches: the first at ``guess``, then bisecting the
    interval the fail-soft answers leave (the bound table makes repeated searches cheap)."""
    lo = 0
    hi = 162
    beta = min(max(guess, 1), 162)
    while lo < hi:
        g = _search(hands, trick, n, leader, beta - 1, beta,
                    prm, pts, power, beats, order, suit, tt_key, tt_lo, tt_hi, tt_move, stats)
        if g < beta:
            hi = g
        else:
            lo = g
        beta = (lo + hi + 1) // 2
    return lo


@njit(cache=True)
def _root_values(hands, trick, n, leader, prm, pts, power, beats, order, suit,
                 tt_key, tt_lo, tt_hi, tt_move, stats, per_card, out):
    """With ``per_card``, the exact value after each legal card of the seat to play in
    ``out[card]`` (-1 for a card not legal); else ``out[0]`` = the position's value."""
    if not per_card:
        out[0] = _exact(hands, trick, n, leader, 81, prm, pts, power, beats, order, suit,
                        tt_key, tt_lo, tt_hi, tt_move, stats)
        return
    win_pos = 0
    for i in range(1, n):
        if power[trick[0] >> 3, trick[i]] > power[trick[0] >> 3, trick[win_pos]]:
            win_pos = i
    ns = prm[_NSEATS]
    last = ns - 1
    seat = (leader + n) % ns
    side = prm[_MAX]
    legal = _legal(hands[seat], trick, n, win_pos, prm, beats, suit, seat, leader)
    for c in range(32):
        out[c] = -1
    cards = np.empty(_MAX_HAND, np.int64)
    score = np.empty(_MAX_HAND, np.int64)
    m = _moves(hands, leader, seat, trick, n, win_pos, prm, pts, power, beats, order, suit, -1, cards, score)
    child = np.zeros(_NS, np.int64)
    guess = 81
    for i in range(m):  # each class once, exactly; a sibling's value is the next guess
        c = cards[i]
        hands[seat] ^= np.int64(1) << c
        if n == last:
            wp = last if power[trick[0] >> 3, c] > power[trick[0] >> 3, trick[win_pos]] else win_pos
            wseat = (leader + wp) % ns
            tp = pts[c]
            left = 0
            for j in range(last):
                tp += pts[trick[j]]
            for s in range(ns):
                left |= hands[s]
            if left == 0:
                tp += 10  # dix de der
            gain = tp if (side >> wseat) & 1 else 0
            v = gain + _exact(hands, child, 0, wseat, guess - gain,
                              prm, pts, power, beats, order, suit, tt_key, tt_lo, tt_hi, tt_move, stats)
        else:
            for j in range(n):
                child[j] = trick[j]
            child[n] = c
            v = _exact(hands, child, n + 1, leader, guess,
                       prm, pts, power, beats, order, suit, tt_key, tt_lo, tt_hi, tt_move, stats)
        hands[seat] ^= np.int64(1) << c
        out[c] = v
        guess = v
    # equivalent cards (adjacent, same points) take their representative's value
    live = 0
    for s in range(ns):
        if s != seat:
            live |= hands[s]
    for i in range(n):
        live |= np.int64(1) << trick[i]
    for s in range(_NSUITS):
        prev = -1
        for j in range(8):
            c = order[s, j]
            if (legal >> c) & 1:
                if out[c] < 0 and prev >= 0 and pts[prev] == pts[c]:
                    out[c] = out[prev]
                prev = c
            elif (live >> c) & 1:
                prev = -1


@dataclass(frozen=True)
class Position:
    """A play-phase position with every hand known, at any table.

    Attributes:
        hands: per seat 0..n-1, the 32-bit mask of its cards (n = ``rules.players``).
        denomination: the denomination 0..5 (four suits, no-trump 4, all-trump 5; two and
            three seats: the trump suit 0..3). ``trump``: a deprecated alias.
        taker: the taker's seat (its side maximises: its team at four seats, itself at
            two and three). ``maker``: a deprecated alias.
        trick: card ids already in the current trick, in play order (0..n-1 cards).
        leader: the seat that led the current trick.
        rules: rule options (the table, obligations, undertrump, partner master, all-trump
            points; at two and three seats ``ruff_overtrump``, ``defender_partner_free``).
    """

    hands: tuple[int, ...]
    denomination: int
    taker: int
    trick: tuple[int, ...]
    leader: int
    rules: Rules = Rules()

    trump = renamed("denomination")  # the two- and three-seat solver's old names
    maker = renamed("taker")

    @property
    def to_play(self) -> int:
        """The seat to play a card now."""
        return (self.leader + len(self.trick)) % len(self.hands)


def position_of(state: GameState) -> Position:
    """The ``Position`` of a ``GameState`` in card play (raises ``ValueError`` otherwise:
    another phase, or a two- or three-seat sub-step before the cards)."""
    if state.phase != Phase.PLAY or 0 <= state.step < STEPS.index("cards"):
        raise ValueError("the solver needs a state in the card-play phase")
    return Position(tuple(state.hands), state.denomination, state.taker, tuple(state.trick), state.trick_leader,
                    state.rules)


def _check(position: Position) -> None:
    """Raise ``ValueError`` naming what is wrong with ``position``."""
    p = position
    if not isinstance(p.rules, Rules):
        raise ValueError(f"position.rules must be a Rules, got {type(p.rules).__name__}")
    n = p.rules.players
    if type(p.denomination) is not int or not 0 <= p.denomination < (NUM_CONTRACTS if n == 4 else NUM_SUITS):
        raise ValueError(f"denomination must be 0..{5 if n == 4 else 3}, got {p.denomination!r}")
    for name in ("taker", "leader"):
        v = getattr(p, name)
        if type(v) is not int or not 0 <= v < n:
            raise ValueError(f"{name} must be a seat 0..{n - 1}, got {v!r}")
    if len(p.hands) != n or not all(type(h) is int and 0 <= h < 1 << NUM_CARDS for h in p.hands):
        raise ValueError(f"hands must be {n} 32-bit card masks (one per seat of rules.players), got {p.hands!r:.200}")
    if len(p.trick) >= n or not all(type(c) is int and 0 <= c < NUM_CARDS for c in p.trick):
        raise ValueError(f"trick must hold 0..{n - 1} card ids 0..31, got {p.trick!r}")
    seen = 0
    for m in (*p.hands, *(1 << c for c in p.trick)):
        if seen & m:
            raise ValueError("a card is in two hands, or in a hand and the trick")
        seen |= m
    sizes = [h.bit_count() for h in p.hands]
    full = sizes[p.to_play]  # seats that already played to this trick hold one card fewer
    want = [full - 1 if (s - p.leader) % n < len(p.trick) else full for s in range(n)]
    if sizes != want or (full == 0 and p.trick):
        raise ValueError(f"hand sizes {sizes} do not fit a trick of {len(p.trick)} card(s) led by seat {p.leader}")


class Solver:
    """A reusable double-dummy solver (it owns the transposition table, ~2**tt_bits
    entries, 17 bytes each; the default 2**20 takes 17 MB).

    Args:
        tt_bits: log2 of the table size (int 10..26).

    Attributes:
        nodes: positions searched by the last call (int).
    Raises:
        ValueError: bad ``tt_bits``.
    """

    def __init__(self, tt_bits: int = _TT_BITS):
        if type(tt_bits) is not int or not 10 <= tt_bits <= 26:
            raise ValueError(f"tt_bits must be an int in 10..26, got {tt_bits!r}")
        size = 1 << tt_bits
        self._tt_key = np.full(size, -1, dtype=np.int64)
        self._tt_lo = np.zeros(size, dtype=np.int32)
        self._tt_hi = np.zeros(size, dtype=np.int32)
        self._tt_move = np.zeros(size, dtype=np.int8)
        self._stats = np.array([0, tt_bits], dtype=np.int64)  # nodes, table bits
        self._stamp = 0
        self._out = np.zeros(NUM_CARDS, dtype=np.int64)
        self._last = None  # (hands, denomination, taker team, rules) of the last call
        self.nodes = 0

    def _run(self, position: Position, per_card: bool, same_deal: bool = False) -> np.ndarray:
        _check(position)
        p, r = position, position.rules
        last = self._last
        game = game_of(r)
        side = game.table.side
        if same_deal and last is not None and (
                last[1:] != (p.denomination, side[p.taker], r)
                or any(h & ~prev for h, prev in zip(p.hands, last[0]))):
            raise ValueError("same_deal=True needs a position of the previous call's deal (each hand a subset "
                             "of that seat's previous hand, same denomination, taker team and rules)")
        self._last = (p.hands, p.denomination, side[p.taker], r)
        if not same_deal or self._stamp == 0:
            self._stamp += 1
        if self._stamp >= 1 << 28:  # the stamp's bits in the key are used up: start afresh
            self._tt_key[:] = -1
            self._stamp = 1
        obligations, partner_master_free, undertrump, overtrump_partner = game.play_options
        n = game.table.n_seats
        takers = sum(1 << s for s in range(n) if side[s] == side[p.taker])
        prm = np.array([p.denomination, takers, partner_master_free, undertrump == "required",
                        obligations == "two_player", self._stamp, overtrump_partner == "must_overtrump", n, p.taker,
                        n == 3 and partner_master_free], dtype=np.int64)
        hands = np.array(p.hands, dtype=np.int64)
        trick = np.zeros(NUM_SEATS, dtype=np.int64)
        trick[:len(p.trick)] = p.trick
        self._stats[0] = 0
        k = p.denomination
        _root_values(hands, trick, len(p.trick), p.leader, prm, _POINTS[r.all_trump_points or "pagat"][k], _POWER[k],
                     _BEATS[k], _ORDER[k], _SUIT, self._tt_key, self._tt_lo, self._tt_hi, self._tt_move,
                     self._stats, per_card, self._out)
        self.nodes = int(self._stats[0])
        return self._out

    def solve(self, position: Position) -> int:
        """Exact card points (int 0..162, dix de der included) the takers win from
        ``position`` on with perfect play by both sides (RULES.md §4, §7).

        Raises ``ValueError`` for an inconsistent position (a card twice, hand sizes that
        do not fit the trick, a bad denomination, seat or card id).
        """
        return int(self._run(position, False)[0])

    def card_values(self, position: Position, same_deal: bool = False) -> dict[int, int]:
        """For each legal card (id) of the seat to play, the takers' card points (int) from
        ``position`` on, the trick in progress included, if that card is played and play
        is then perfect. Raises ``ValueError`` like ``solve``; a position with no card
        left to play gives ``{}``.

        ``same_deal=True`` keeps the transposition table of the previous call. Only valid
        for a position of the same deal (every remaining card in the hand that held it
        at the previous call, same denomination, taker team and rules): the table is keyed by
        the remaining cards, which then fix the hands. Used to value every decision of a
        known deal (``training.oracle``): 1.5x faster. ``ValueError`` if the position
        cannot be of the previous call's deal (a hand holding a card it did not hold, or
        another denomination, taker team or rules); the check cannot tell two deals apart
        whose hands happen to nest, so pass ``same_deal=False`` for each new deal."""
        if not any(position.hands):
            _check(position)
            return {}
        out = self._run(position, True, same_deal)
        return {c: int(out[c]) for c in range(NUM_CARDS) if out[c] >= 0}


_default: Solver | None = None


def _solver() -> Solver:
    global _default
    if _default is None:
        _default = Solver()
    return _default


def solve(position: Position) -> int:
    """Exact card points (int 0..162, dix de der included) the takers win from
    ``position`` on with perfect play by both sides (see ``Solver.solve``)."""
    return _solver().solve(position)


def card_values(position: Position) -> dict[int, int]:
    """For each legal card of the seat to play, the takers' card points from the position
    on (the trick in progress included) if that card is played and play is then perfect
    (see ``Solver.card_values``)."""
    return _solver().card_values(position)
