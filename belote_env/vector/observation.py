"""Batched observations: ``observation.encode_infoset`` for N tables at once (numba).

``encode_batch(game, seats, out)`` writes, for each table ``j``, the observation of seat
``seats[j]``'s information set (RULES.md §11) into the float32 row ``out[j]``: the same
layout and version as the reference encoder (``observation.LAYOUT``,
``OBS_ENCODER_VERSION`` 1, 618 floats; in coinche the classic layout with its turned card
and bids blocks zero, then ``observation.COINCHE_LAYOUT``, ``COINCHE_OBS_SIZE`` floats in
all), value for value. The block offsets, the strength
orders and the point tables are read from the reference modules at import; the
differential test (``tests/test_vector_engine.py``) holds the two encoders equal.

Like the reference, the kernel reads only what the seat may know: its own hand, the
turned card, the auction, the played cards, the announcements and declarations, and the
public constraints the engine keeps card by card (``cannot`` / ``known`` columns, the
same as ``GameState.public_cannot`` / ``public_known``). The other seats' hands are in
the state array but never read here; the information-rule test checks that two deals
differing only in hidden cards give identical observations.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..actions import (
    COINCHE, EXTENDED_NUM_ACTIONS, NAME_CONTRACT, PASS, SURCOINCHE, TAKE, bid_denomination, coinche_bid_level,
    is_coinche_bid,
)
from ..auction import length_bound
from ..cards import NUM_CONTRACTS, NUM_SUITS, STRENGTH, SUITS
from ..config import Rules
from ..observation import (
    _C_OFFSET, _SLOT, _SLOT_DENOM, AUCTION_SLOTS, COINCHE_OBS_SIZE, OBS_ENCODER_VERSION, OBS_SIZE, OFFSET, level_value,
    obs_size,
)
from .engine import _AFTER, _OTHER_TEAM, _REL, _TEAM, _SUIT_MASK, _winner_pos, NS
from .layout import (  # the state's columns (read as constants: layout drops the cached kernels when a source changed)
    ANNF, CANNOT, CP, DEALER, DECLD, DECLP, DENOM, HAND, KNOWN, LEADER, NBIDS, NTRICKS, PH, PHASE_BIDDING,
    PHASE_PLAY, PLAYED, ROUND, TAKER, TLEN, TRICK, TURNED, WON,
)

__all__ = ["encode_batch", "encode_kernel", "encode_tables_kernel", "encode_all_kernel", "OBS_SIZE", "OBS_ENCODER_VERSION",
           "COINCHE_OBS_SIZE", "obs_size"]

_O = {name: OFFSET[name] for name in OFFSET}
_HAND_O, _TURNED_O, _BID1, _BID2, _CONTRACT, _TAKER_O, _DEALER_O = (
    _O["hand"], _O["turned"], _O["bids1"], _O["bids2"], _O["contract"], _O["taker"], _O["dealer"])
_TRICK_O, _PLAYED_O, _LEADER_O, _PHASE_O, _NTRICKS_O, _POINTS_O, _ANN_O, _SCORES_O = (
    _O["trick"], _O["played"], _O["leader"], _O["phase"], _O["ntricks"], _O["points"], _O["announcements"],
    _O["scores"])
_LEGAL_O, _UNSEEN_O, _MASTER_O, _WINNER_O, _LED_O, _TRICK_PTS_O, _VOIDS_O, _HOLDERS_O, _DECL_O = (
    _O["legal"], _O["unseen"], _O["master"], _O["winner"], _O["led"], _O["trick_points"], _O["voids"],
    _O["holders"], _O["declarations"])

#: per denomination and suit, the suit's card ids strongest first (observation._ORDER)
_ORDER = np.array([[sorted(range(8 * s, 8 * s + 8), key=lambda c: -STRENGTH[k][c]) for s in SUITS]
                   for k in range(NUM_CONTRACTS)], dtype=np.int64)
_FULL = np.int64(0xFFFFFFFF)
#: the coinche blocks (``observation.COINCHE_LAYOUT``)
_SEQ_O, _BEST_O, _HIGH_LEVEL_O, _HIGH_DENOM_O, _HIGH_BIDDER_O, _COINCHE_K_O, _COINCHER_O, _AUCTION_LEN_O = (
    _C_OFFSET[name] for name in ("auction_seq", "auction_best", "high_level", "high_denom", "high_bidder", "coinche",
                                 "coincher", "auction_len"))
#: per action id: its level as the observation scales it (``observation.level_value``) for
#: a coinche contract bid, -1 for any other action; and its denomination
_LEVEL_VALUE = np.array([level_value(coinche_bid_level(a)) if is_coinche_bid(a) else -1.0
                         for a in range(EXTENDED_NUM_ACTIONS)], dtype=np.float64)
_BID_DENOM = np.array([bid_denomination(a, -1) if is_coinche_bid(a) else -1 for a in range(EXTENDED_NUM_ACTIONS)],
                      dtype=np.int64)
#: a slot's level entry (``observation._encode_auction``: after the relative seat and the kind)
_SLOT_LEVEL = _SLOT_DENOM - 1
_ND = NUM_CONTRACTS
#: the auction length's divisor in the observation (``observation._encode_auction``: the
#: default coinche auction's bound, ``auction.length_bound``)
_AUCTION_NORM = float(length_bound(Rules(contract_mode="coinche")))


@nb.njit(cache=True, inline="always")
def _bits(row, base, m):
    """Set ``row[base + c] = 1`` for each card ``c`` of mask ``m``."""
    c = 0
    while m:
        if m & 1:  # not a seat
            row[base + c] = 1.0
        m >>= 1
        c += 1


@nb.njit(cache=True)
def _encode_auction(bids, length, j, me, row):
    """The coinche blocks (``observation.COINCHE_LAYOUT``) of table ``j``'s public auction
    (its ``length`` events in ``bids[j]``) as seat ``me`` sees it, into ``row`` (zero
    there): ``observation._encode_auction``, value for value."""
    high_v, high_d, high_r = -1.0, np.int64(-1), np.int64(-1)
    k, coincher = 0, np.int64(-1)
    first = length - AUCTION_SLOTS if length > AUCTION_SLOTS else 0
    for i in range(length):
        r = _REL[me, bids[j, i, 0]]
        a = bids[j, i, 1]
        v = _LEVEL_VALUE[a]
        if v >= 0.0:  # a contract bid (it cancels a coinche that does not freeze)
            d = _BID_DENOM[a]
            high_v, high_d, high_r = v, d, r
            k, coincher = 0, np.int64(-1)
            best = _BEST_O + _ND * r + d
            if v > row[best]:
                row[best] = v
            kind = 1
        elif a == COINCHE:
            k, coincher, kind = 1, r, 2
        elif a == SURCOINCHE:
            k, kind = 2, 3
        else:
            kind = 0
        if i >= first:
            slot = _SEQ_O + (i - first) * _SLOT
            row[slot + r] = 1.0
            row[slot + NS + kind] = 1.0
            if kind == 1:
                row[slot + _SLOT_LEVEL] = high_v
                row[slot + _SLOT_DENOM + high_d] = 1.0
    if high_d >= 0:
        row[_HIGH_LEVEL_O] = high_v
        row[_HIGH_DENOM_O + high_d] = 1.0
        row[_HIGH_BIDDER_O + high_r] = 1.0
    row[_COINCHE_K_O + k] = 1.0
    if coincher >= 0:
        row[_COINCHER_O + coincher] = 1.0
    row[_AUCTION_LEN_O] = length / _AUCTION_NORM


@nb.njit(cache=True)
def _encode_one(S, bids, mask, points, j, me, row):
    for i in range(row.shape[0]):
        row[i] = 0.0
    ph = S[j, PH]
    hand = S[j, HAND + me]
    _bits(row, _HAND_O, hand)
    turned = S[j, TURNED]
    dealer = S[j, DEALER]
    if turned >= 0:  # classic: the turned card and the two rounds of bids
        row[_TURNED_O + turned] = 1.0
        for i in range(S[j, NBIDS]):
            a = bids[j, i, 1]
            r = _REL[me, bids[j, i, 0]]
            if i < NS:  # the first round: one bid per seat
                row[_BID1 + 2 * r + (1 if a == TAKE else 0)] = 1.0
            else:
                row[_BID2 + 7 * r + (0 if a == PASS else 1 + a - NAME_CONTRACT)] = 1.0
    else:  # coinche: the auction blocks after the classic layout (COINCHE.md §9)
        if row.shape[0] < COINCHE_OBS_SIZE:
            raise ValueError("a coinche observation needs a row of COINCHE_OBS_SIZE floats (observation.obs_size)")
        _encode_auction(bids, S[j, NBIDS], j, me, row)
    k = S[j, DENOM]
    if k >= 0:
        row[_CONTRACT + k] = 1.0
        row[_TAKER_O + _REL[me, S[j, TAKER]]] = 1.0
    row[_DEALER_O + _REL[me, dealer]] = 1.0
    leader = S[j, LEADER]
    n = S[j, TLEN]
    for i in range(n):
        row[_TRICK_O + 32 * _REL[me, _AFTER[leader, i]] + S[j, TRICK + i]] = 1.0
    played = np.int64(0)
    for s in range(NS):
        pb = S[j, PLAYED + s]
        _bits(row, _PLAYED_O + 32 * _REL[me, s], pb)
        played |= pb
    row[_LEADER_O + _REL[me, leader]] = 1.0
    acting = ph <= PHASE_PLAY and S[j, 1] == me  # column "current"
    legal_cards = np.int64(0)
    if acting:
        for c in range(32):
            if mask[j, c]:
                legal_cards |= np.int64(1) << c
    if ph == PHASE_BIDDING:
        row[_PHASE_O + (0 if S[j, ROUND] == 1 else 1)] = 1.0
    elif ph == PHASE_PLAY:
        row[_PHASE_O + (3 if acting and legal_cards == 0 else 2)] = 1.0
    nt = S[j, NTRICKS]
    if nt < 8:
        row[_NTRICKS_O + nt] = 1.0
    us = _TEAM[me]
    them = _OTHER_TEAM[us]
    annf = S[j, ANNF]
    for s in range(NS):
        r = _REL[me, s]
        if (annf >> (2 * s)) & 1:
            row[_ANN_O + 2 * r] = 1.0
        if (annf >> (2 * s + 1)) & 1:
            row[_ANN_O + 2 * r + 1] = 1.0
    _bits(row, _LEGAL_O, legal_cards)
    unseen = _FULL & ~(hand | played)
    _bits(row, _UNSEEN_O, unseen)
    trick_pts = 0.0
    if k >= 0:
        out_cards = unseen | hand
        master = np.int64(0)
        for suit in range(NUM_SUITS):
            if hand & _SUIT_MASK[suit]:
                for q in range(8):
                    c = _ORDER[k, suit, q]
                    if (out_cards >> c) & 1:
                        master |= ((hand >> c) & 1) << c
                        break
        _bits(row, _MASTER_O, master)
        if n:
            led = S[j, TRICK] >> 3
            row[_WINNER_O + _REL[me, _AFTER[leader, _winner_pos(S, j, n, k)]]] = 1.0
            row[_LED_O + led] = 1.0
            tp = 0
            for i in range(n):
                tp += points[k, S[j, TRICK + i]]
            trick_pts = tp / 80.0
    # belief block (inference.possible_holdings from the engine's public constraints)
    hidden = _FULL & ~hand & ~played
    free = hidden
    if k < 0:
        if turned >= 0:  # the turned card is public (nothing is turned in coinche)
            hidden &= ~(np.int64(1) << turned)
        free = hidden
    else:
        for s in range(NS):
            free &= ~S[j, KNOWN + s]
    for r in range(1, NS):
        s = _AFTER[me, r]
        if k < 0:
            possible = hidden
        else:
            possible = (free & ~S[j, CANNOT + s]) | (S[j, KNOWN + s] & hidden)
        c = 0
        m = possible
        while m:
            if m & 1:  # not a seat
                row[_HOLDERS_O + 3 * c + r - 1] = 1.0
            m >>= 1
            c += 1
        for suit in range(NUM_SUITS):
            if not possible & _SUIT_MASK[suit]:
                row[_VOIDS_O + 4 * (r - 1) + suit] = 1.0
    row[_POINTS_O] = S[j, CP + us] / 162.0
    row[_POINTS_O + 1] = S[j, CP + them] / 162.0
    row[_POINTS_O + 2] = S[j, WON + us] / 8.0
    row[_POINTS_O + 3] = S[j, WON + them] / 8.0
    row[_TRICK_PTS_O] = trick_pts
    declared = S[j, DECLD]
    for s in range(NS):
        if (declared >> s) & 1:
            row[_DECL_O + _REL[me, s]] = S[j, DECLP + s] / 350.0


@nb.njit(cache=True)
def encode_kernel(S, bids, mask, points, seats, out):
    """``out[j]`` = the observation of seat ``seats[j]`` at table ``j`` (``seats[j] < 0``:
    the seat to act)."""
    for j in range(S.shape[0]):
        me = seats[j]
        if me < 0:
            me = S[j, 1]
        _encode_one(S, bids, mask, points, j, me, out[j])


@nb.njit(cache=True)
def encode_tables_kernel(S, bids, mask, points, tables, seats, out):
    """``out[i]`` = the observation of seat ``seats[i]`` at table ``tables[i]``."""
    for i in range(tables.shape[0]):
        _encode_one(S, bids, mask, points, tables[i], seats[i], out[i])


@nb.njit(cache=True)
def encode_all_kernel(S, bids, mask, points, out):
    """``out[j, s]`` = seat ``s``'s observation at table ``j``, every seat."""
    for j in range(S.shape[0]):
        for s in range(NS):
            _encode_one(S, bids, mask, points, j, s, out[j, s])


def encode_batch(game, seats=None, out: np.ndarray | None = None) -> np.ndarray:
    """Observations of a ``BatchedGame``: float32 ``(n, obs_size(game.rules))`` (``OBS_SIZE``,
    618, classic; ``COINCHE_OBS_SIZE`` coinche).

    Args:
        game: the ``BatchedGame``.
        seats: int ``(n,)`` seat per table, or None for each table's seat to act.
        out: optional preallocated float32 ``(n, obs_size(game.rules))`` (C-contiguous), fully
            overwritten.
    Raises:
        ValueError: ``out`` or ``seats`` of the wrong shape or dtype, or a seat outside 0..3.
    """
    n = game.n
    size = obs_size(game.rules)
    if out is None:
        out = np.empty((n, size), dtype=np.float32)
    elif (not isinstance(out, np.ndarray) or out.shape != (n, size) or out.dtype != np.float32
          or not out.flags.c_contiguous or not out.flags.writeable):
        raise ValueError(f"out must be a writeable C-contiguous float32 array of shape ({n}, {size}), "
                         f"got {out.dtype} {out.shape}")
    if seats is None:
        seats = np.full(n, -1, dtype=np.int64)
    else:
        seats = np.asarray(seats)
        if seats.shape != (n,) or seats.dtype.kind not in "iu" or ((seats < 0) | (seats > 3)).any():
            raise ValueError(f"seats must be ints 0..3 of shape ({n},), got {seats!r}"[:200])
        seats = seats.astype(np.int64, copy=False)
    encode_kernel(game.state, game.bids, game.mask, game.points, seats, out)
    return out
