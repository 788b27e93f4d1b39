"""The two- and three-seat game (TWO_THREE.md; seed 001) in the batched engine: its parts,
its observation encoder and what a seat may know.

``vector.engine.BatchedGame`` is the one batched engine of every table; at two and three
seats its kernels call the parts defined here, chosen by the option codes
(``layout.rules_codes``): the proposal auction (``apply_proposal`` / ``proposal_mask``),
the packet deal (``packet_tables`` from ``dealing.PacketLayout``, the 24-card pack
``pack_of``) and its completion (``complete_packets``: 6 + 3 with the bottom card,
``10_each`` with the chien and the taker's discards, ``24_card``), the play steps before
the cards (``apply_step`` / ``step_mask``: the seven's exchange, the discards, the
combinations from ``declarations.combinations_of`` / ``combination_key``:
``combination_tables``), belote claimed with the second card (``claim_belote``) and the
scorer (``score_cutthroat``: ``scoring.score_cutthroat_deal`` with no reserve pending).
The card play itself is the engine's one ``_apply_card``; the state is its one layout
(``layout.COL``; ``SCOL`` is the same dict). Every option of TWO_THREE.md §4 is played but
the game-length ones (``target``, ``target_rule``, ``max_deals``: a deal is an episode; a
``tie="litige"`` reserve is never paid within one); ``check_cutthroat_supported`` refuses
any other option set away from its default, naming it.

Held equal to ``game.GameState`` (``single_deal=True``) by ``tests/test_vector_cutthroat.py``
(and ``scripts/check_vector.py --only-small``): masks, hands, played cards, public
constraints, trick, contract, exchange, declarations and card points at every step, totals,
points and rewards at every deal's end, and ``cutthroat_infoset_of`` (TWO_THREE.md §5) equal
to ``information_set`` for every seat; ``encode_cutthroat_batch`` is its observation
(``observation.encode_cutthroat``) in compiled code. ``CutthroatBatchedGame``,
``cutthroat_rules_codes`` and the ``small*`` names are old names kept for one release.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..actions import (
    AGREE_REDEAL, ANNOUNCE_BELOTE, ANSWER_ENOUGH, ANSWER_EQUAL, ANSWER_NOT_ENOUGH, DECLARE, DECLINE_DECLARE,
    EXCHANGE_SEVEN, KEEP, NAME_CONTRACT, PASS, PROPOSE_REDEAL, REFUSE_REDEAL, TAKE,
)
from ..cards import NUM_CARDS, NUM_SUITS, POINTS_BY_ALL_TRUMP_OPTION
from ..config import RuleOptionError, Rules, check_table
from ..dealing import packet_layout
from ..declarations import combinations_of, combination_key
from ..deprecation import renamed_in
from ..rules import POWER
from ..scoring import BELOTE_POINTS
from .kernels import mark_cards, random_legal, trick_winner_pos
from .layout import (
    AFTER_N, ANS, BCARD, BEL, BHOLDER, BOTTOM, CANNOT, COL, CP, CUR, DEALER, DECL_I, DECLC, DECLD, DECLK, DECLP,
    ANN_NEXT, DENOM, DISCARDED, DP, DWCARDS, DWIN, ELDER, EXCH_I, EXCHANGED, HAND, KNOWN, LASTW, LEADER, MUST_NAME, NANS,
    NBIDS, NEXT_N, NTRICKS, O_BOTH_OTHERS, O_CAPOT_BONUS, O_CARRES, O_CHIEN, O_COMBOS, O_DEALER_R2, O_DIX,
    O_FAILURE_ALL, O_LITIGE, O_N, O_OPTIONAL, O_PACK24, O_PROPOSE, O_ROUNDING, O_SPLIT, OOP, OUTCOME,
    PASSES, PH, PHASE_BIDDING, PHASE_OVER, PHASE_PLAY, PLAYED, PROPOSER, REDEAL, REL_N, ROUND, STEP, TAKER, TLEN, TOTAL,
    TRICK, TURNED, TWIN, UNUSED, WON, rules_codes, seq_card, trick_winner_at,
)

__all__ = ["SCOL", "CUTTHROAT_OUTCOMES", "check_cutthroat_supported", "CUTTHROAT_PLAYED_OPTIONS",
           "CUTTHROAT_UNREAD_OPTIONS", "cutthroat_infoset_of", "encode_cutthroat_batch", "PHASE_BIDDING",
           "PHASE_PLAY", "PHASE_OVER"]

#: the state's columns: the engine's one layout (``vector.layout.COL``; ``maker``,
#: ``trump``, ``announced``, ``decl_pts*`` name its ``taker``, ``denomination``,
#: ``declared``, ``decl_points*``)
SCOL = COL
#: ``step`` values during play (``game.STEPS``)
STEP_EXCHANGE, STEP_DISCARD, STEP_DECLARE, STEP_CARDS = 0, 1, 2, 3
#: ``outcome`` column: a played deal made / equal / failed (``CutthroatDealScore.outcome``), a
#: void deal (every seat passed twice) or an agreed redeal
CUTTHROAT_OUTCOMES = ("made", "equal", "failed", "void", "redeal")
#: card points at two and three seats (``GameState._points`` there: the pagat table), [trump, card]
CUTTHROAT_POINTS = np.array(POINTS_BY_ALL_TRUMP_OPTION["pagat"], dtype=np.int64)
_SEVEN, _QUEEN, _KING = 0, 5, 6
_LAST_TRICK = 10
_BELOTE = BELOTE_POINTS
_POWER = np.array(POWER, dtype=np.int64)  # [denomination, led suit, card]


# ------------------------------------------------------------------ tables from the reference modules
def packet_tables(rules: Rules):
    """Per dealer, from ``dealing.packet_layout``: ``first[d, i]`` the seat dealt pack
    position ``i`` before the bidding (else -1); ``more[d, t, i]`` the seat dealt position
    ``i`` once ``t`` is maker (else -1); and ``pos``: the positions of the turned card, the
    bottom card and the chien card (-1 when none), then per dealer the unused positions as
    a mask of positions."""
    n = rules.players
    size = 24 if rules.three_player_deal == "24_card" else NUM_CARDS
    first = np.full((n, size), -1, dtype=np.int64)
    more = np.full((n, n, size), -1, dtype=np.int64)
    turned = bottom = chien = -1
    unused = np.zeros(n, dtype=np.int64)
    for d in range(n):
        lay = packet_layout(rules, d)
        for seat, pos in enumerate(lay.first):
            first[d, list(pos)] = seat
        for t in range(n):
            per = lay.more_by_taker[t] if lay.more_by_taker is not None else lay.more
            for seat, pos in enumerate(per):
                more[d, t, list(pos)] = seat
        assert turned in (-1, lay.turned)
        turned, bottom = lay.turned, lay.bottom
        chien = lay.chien[0] if lay.chien else -1
        assert len(lay.chien) <= 1
        unused[d] = sum(1 << i for i in lay.unused)
    return first, more, np.array([turned, bottom, chien, *unused.tolist()], dtype=np.int64)


#: where a packed key (``_pack``) holds the combination's points, under either
#: ``sequence_compare``: ``combination_key`` ends with (points, rank, trump flag); the key
#: shifted by it is what a comparison of announced combinations ties on (``ties_shown``)
_POINTS_SHIFT = 16


@nb.njit(cache=True, inline="always")
def _announced_value(key):
    """The value a seat announces from its packed best key: the points (``GameState._announced_value``)."""
    return (key >> _POINTS_SHIFT) & 255


def _pack(key: tuple) -> int:
    """``combination_key``'s tuple as one int that orders the same (8 bits a component)."""
    out = 0
    for x in key:
        assert 0 <= x < 256
        out = out << 8 | x
    return out


def combination_tables(rules: Rules):
    """From ``declarations.combinations_of`` / ``combination_key``: per 8-bit suit mask (the
    suit not trump) the total points, the packed best key (0: none) and the cards of its
    sequences; per rank the points and packed key of its carré (0 when it scores none or
    ``carres`` is off). The trump flag is the key's lowest bit: +1 for a trump sequence."""
    seq_pts = np.zeros(256, dtype=np.int64)
    seq_key = np.zeros(256, dtype=np.int64)
    seq_cards = np.zeros(256, dtype=np.int64)
    for m in range(256):
        for d in combinations_of(m, 1, rules):  # suit 0, trump hearts: a plain suit
            assert d.kind == "sequence" and d.suit == 0
            seq_pts[m] += d.points
            seq_key[m] = max(seq_key[m], _pack(combination_key(d, 1, rules)))
            seq_cards[m] |= d.cards
    carre_pts = np.zeros(8, dtype=np.int64)
    carre_key = np.zeros(8, dtype=np.int64)
    for r in range(8):
        for d in combinations_of(sum(1 << (8 * s + r) for s in range(NUM_SUITS)), 0, rules):
            assert d.kind == "carre"
            carre_pts[r] = d.points
            carre_key[r] = _pack(combination_key(d, 0, rules))
    return seq_pts, seq_key, seq_cards, carre_pts, carre_key


# ------------------------------------------------------------------ kernels: the card play's parts
@nb.njit(cache=True, inline="always")
def co_defender_pos(n, seat, taker, leader, trick_len, pmf):
    """``GameState._partner_pos`` at three seats: the trick position of the seat's
    co-defender's card (``defender_partner_free``: ``pmf``, the seat a defender), else -1."""
    if not pmf or seat == taker:
        return -1
    other = AFTER_N[n, seat, 1]
    if other == taker:
        other = AFTER_N[n, seat, 2]
    pos = REL_N[n, leader, other]
    return pos if pos < trick_len else -1


@nb.njit(cache=True, inline="always")
def second_belote_card(S, j, seat):
    """The K or Q of trump still in the seat's hand once it has played the other, else -1."""
    k = S[j, DENOM] * 8 + _KING
    q = S[j, DENOM] * 8 + _QUEEN
    hand, played = S[j, HAND + seat], S[j, PLAYED + seat]
    if (hand >> k) & 1 and (played >> q) & 1:
        return k
    if (hand >> q) & 1 and (played >> k) & 1:
        return q
    return -1


@nb.njit(cache=True, inline="always")
def claim_belote_mask(S, j, m, seat, cards):
    """``belote="optional"``: the holder may claim with its second card (``ANNOUNCE_BELOTE``
    then that card only). Returns the playable cards."""
    if seat == S[j, BHOLDER]:
        second = second_belote_card(S, j, seat)
        if S[j, ANN_NEXT]:
            cards &= np.int64(1) << second
        elif second >= 0 and (cards >> second) & 1:
            m[ANNOUNCE_BELOTE] = 1
    return cards


@nb.njit(cache=True, inline="always")
def claim_belote(S, j, seat, c, k, opts):
    """Belote claimed with the second card of the trump K/Q (A17; announced first under
    ``belote="optional"``)."""
    r = c & 7
    if seat == S[j, BHOLDER] and c >> 3 == k and (r == _KING or r == _QUEEN):
        other = k * 8 + (_QUEEN if r == _KING else _KING)
        if (S[j, PLAYED + seat] >> other) & 1 and (not opts[O_OPTIONAL] or S[j, ANN_NEXT]):
            S[j, BEL + seat] += 1
            S[j, BCARD] = c


@nb.njit(cache=True)
def _runs(hand, trump, seq_pts, seq_key, seq_cards):
    """The sequences of ``hand`` summed: ``(points, best packed key, cards)`` (key 0: none)."""
    pts = 0
    key = 0
    cards = 0
    for s in range(NUM_SUITS):
        bits = (hand >> (8 * s)) & 255
        if seq_key[bits]:
            pts += seq_pts[bits]
            kk = seq_key[bits] + (1 if s == trump else 0)
            if kk > key:
                key = kk
            cards |= seq_cards[bits] << (8 * s)
    return pts, key, cards


@nb.njit(cache=True)
def _combos(hand, trump, seq_pts, seq_key, seq_cards, carre_pts, carre_key, opts):
    """``combinations_of`` summed: ``(points, best packed key, cards)`` (key 0: none); with
    carrés, the split of the hand into kept carrés and the runs of its other cards with the
    most points, then the strongest best combination (``declarations._best_split``: the
    same split for every hand of ten cards or fewer)."""
    pts, key, cards = _runs(hand, trump, seq_pts, seq_key, seq_cards)
    if not opts[O_CARRES]:
        return pts, key, cards
    held = 0
    for r in range(8):
        m = (np.int64(1) << r) | (np.int64(1) << (8 + r)) | (np.int64(1) << (16 + r)) | (np.int64(1) << (24 + r))
        if hand & m == m and carre_pts[r] > 0:
            held |= 1 << r
    pick = held
    while pick:  # every non-empty subset of the carrés held
        rest = hand
        p = 0
        k = 0
        c = 0
        for r in range(8):
            if (pick >> r) & 1:
                m = (np.int64(1) << r) | (np.int64(1) << (8 + r)) | (np.int64(1) << (16 + r)) | (np.int64(1) << (24 + r))
                rest &= ~m
                p += carre_pts[r]
                if carre_key[r] > k:
                    k = carre_key[r]
                c |= m
        sp, sk, sc = _runs(rest, trump, seq_pts, seq_key, seq_cards)
        p += sp
        if sk > k:
            k = sk
        c |= sc
        if p > pts or (p == pts and k > key):
            pts, key, cards = p, k, c
        pick = (pick - 1) & held
    return pts, key, cards


# ------------------------------------------------------------------ kernels: dealing
@nb.njit(cache=True, inline="always")
def pack_of(deck, j, opts):
    """The pack the deck deals (``dealing.dealt_pack``): the deck, or a new array of its 24
    cards of rank 9 up (``three_player_deal="24_card"``)."""
    if not opts[O_PACK24]:
        return deck[j]
    pack = np.empty(NUM_CARDS, dtype=np.int64)
    i = 0
    for x in range(NUM_CARDS):
        if deck[j, x] & 7 >= 2:
            pack[i] = deck[j, x]
            i += 1
    return pack


@nb.njit(cache=True)
def deal_packets(S, j, eldest, opts):
    """What a two- or three-seat deal opens with besides the hands (``GameState._start_deal``):
    the cards out of play of a 24-card pack, the elder, nothing decided yet."""
    if opts[O_PACK24]:
        oop = np.int64(0)
        for c in range(NUM_CARDS):
            if c & 7 < 2:
                oop |= np.int64(1) << c
        S[j, OOP] = oop
    S[j, ELDER] = eldest
    for c in (PROPOSER, BOTTOM, EXCHANGED, STEP, BHOLDER, BCARD):  # none yet
        S[j, c] = -1
    S[j, DWIN] = -2


@nb.njit(cache=True)
def complete_packets(S, j, opts, pack, more, pos, tabs):
    """The maker and trump are fixed and the later cards dealt (``dealing.packet_complete``):
    the unused and bottom cards, then the discard, the exchange or the combinations
    (``GameState._complete_deal``)."""
    n = opts[O_N]
    dealer, taker = S[j, DEALER], S[j, TAKER]
    one = np.int64(1)
    um = pos[3 + dealer]
    unused = np.int64(0)
    for i in range(more.shape[2]):
        if (um >> i) & 1:
            unused |= one << pack[i]
    S[j, UNUSED] = unused
    bottom_at, chien_at = pos[1], pos[2]
    if bottom_at >= 0:
        S[j, BOTTOM] = pack[bottom_at]
        S[j, OOP] |= one << pack[bottom_at]
    S[j, PH] = PHASE_PLAY
    turned = S[j, TURNED]
    if chien_at >= 0:  # 10_each: the taker takes the last card and the turned card, then discards two
        S[j, HAND + taker] |= (one << pack[chien_at]) | (one << turned)
        S[j, KNOWN + taker] |= one << turned
        S[j, STEP] = STEP_DISCARD
        S[j, CUR] = taker
        return
    if opts[O_PACK24]:
        S[j, HAND + taker] |= one << turned
        S[j, KNOWN + taker] |= one << turned
    else:
        S[j, OOP] |= one << turned
    if _after_discard(S, j, opts, n):
        _start_declarations(S, j, opts, tabs)


@nb.njit(cache=True)
def _exchange(S, j, seat):
    one = np.int64(1)
    seven = S[j, DENOM] * 8 + _SEVEN
    turned = S[j, TURNED]
    S[j, HAND + seat] = (S[j, HAND + seat] & ~(one << seven)) | (one << turned)
    S[j, EXCHANGED] = seat
    S[j, OOP] = (S[j, OOP] & ~(one << turned)) | (one << seven)
    S[j, KNOWN + seat] |= one << turned


@nb.njit(cache=True)
def _after_discard(S, j, opts, n):
    """The seven of trumps (``GameState._after_discard``), else the combinations."""
    trump = S[j, DENOM]
    seven = trump * 8 + _SEVEN
    turned = S[j, TURNED]
    possible = (opts[O_DIX] != 0 and not opts[O_PACK24] and not opts[O_CHIEN] and trump == turned >> 3
                and turned != seven and S[j, BOTTOM] != seven)
    if possible and opts[O_DIX] == 1:
        for seat in range(n):
            if (S[j, HAND + seat] >> seven) & 1:
                _exchange(S, j, seat)
        possible = False
    if possible:
        S[j, STEP] = STEP_EXCHANGE
        S[j, EXCH_I] = 0
        S[j, CUR] = S[j, ELDER]
        return False
    return True  # the caller starts the combinations


# ------------------------------------------------------------------ kernels: combinations
@nb.njit(cache=True)
def _start_declarations(S, j, opts, tabs):
    """``GameState._start_declarations``: the belote holder, then the combinations
    compared at once (auto), announced in turn (choice) or none (off)."""
    n = opts[O_N]
    trump = S[j, DENOM]
    pair = (np.int64(1) << (trump * 8 + _KING)) | (np.int64(1) << (trump * 8 + _QUEEN))
    for seat in range(n):
        if S[j, HAND + seat] & pair == pair:
            S[j, BHOLDER] = seat
    if opts[O_COMBOS] == 0:
        S[j, DWIN] = -1
    else:
        seq_pts, seq_key, seq_cards, carre_pts, carre_key = tabs
        for seat in range(n):
            p, k, c = _combos(S[j, HAND + seat], trump, seq_pts, seq_key, seq_cards, carre_pts, carre_key, opts)
            S[j, DECLP + seat] = p
            S[j, DECLK + seat] = k
            S[j, DECLC + seat] = c
        if opts[O_COMBOS] == 1:
            for seat in range(n):
                if S[j, DECLK + seat]:
                    S[j, DECLD] |= np.int64(1) << seat
            _resolve(S, j, _compare(S, j, n))
        else:
            S[j, STEP] = STEP_DECLARE
            S[j, DECL_I] = 0
            S[j, CUR] = S[j, ELDER]
            return
    _start_play(S, j)


@nb.njit(cache=True)
def _compare(S, j, n):
    """``combination_winner`` among the announced seats: the single best, else -1."""
    best = 0
    who = -1
    count = 0
    for s in range(n):
        if (S[j, DECLD] >> s) & 1 and S[j, DECLK + s]:
            k = S[j, DECLK + s]
            if k > best:
                best, who, count = k, s, 1
            elif k == best:
                count += 1
    return who if count == 1 else -1


@nb.njit(cache=True)
def _resolve(S, j, winner):
    S[j, DWIN] = winner
    if winner >= 0:
        S[j, DWCARDS] = S[j, DECLC + winner]
        S[j, KNOWN + winner] |= S[j, DECLC + winner]


@nb.njit(cache=True, inline="always")
def _start_play(S, j):
    S[j, STEP] = STEP_CARDS
    S[j, CUR] = S[j, ELDER]
    S[j, LEADER] = S[j, ELDER]


# ------------------------------------------------------------------ kernels: the proposal auction
@nb.njit(cache=True, inline="always")
def apply_proposal(S, j, seat, a, opts):
    """``ProposalAuction.apply`` (the history is written by the engine): 1 a contract
    (complete the deal), 2 void, 3 an agreed redeal, 0 the bidding goes on."""
    n = opts[O_N]
    if a == TAKE:
        S[j, TAKER] = seat
        S[j, DENOM] = S[j, TURNED] >> 3
        S[j, ROUND] = 0
        return 1
    if NAME_CONTRACT <= a < NAME_CONTRACT + NUM_SUITS:
        S[j, TAKER] = seat
        S[j, DENOM] = a - NAME_CONTRACT
        S[j, ROUND] = 0
        S[j, MUST_NAME] = 0
        return 1
    if a == PROPOSE_REDEAL:
        S[j, PROPOSER] = seat
        S[j, ANS] = AFTER_N[n, seat, 1]
        if opts[O_BOTH_OTHERS]:
            S[j, ANS + 1] = AFTER_N[n, seat, 2]
            S[j, NANS] = 2
        else:
            S[j, NANS] = 1
        S[j, CUR] = S[j, ANS]
        return 0
    if a == AGREE_REDEAL:
        S[j, NANS] -= 1
        if S[j, NANS]:
            S[j, ANS] = S[j, ANS + 1]
            S[j, CUR] = S[j, ANS]
            return 0
        S[j, REDEAL] = 1
        S[j, ROUND] = 0
        return 3
    if a == REFUSE_REDEAL:
        proposer = S[j, PROPOSER]
        S[j, PROPOSER] = -1
        S[j, NANS] = 0
        if S[j, ROUND] == 1:
            S[j, TAKER] = proposer
            S[j, DENOM] = S[j, TURNED] >> 3
            S[j, ROUND] = 0
            return 1
        S[j, MUST_NAME] = 1
        S[j, CUR] = proposer
        return 0
    # PASS
    S[j, PASSES] += 1
    if S[j, PASSES] == n:
        if S[j, ROUND] == 1:
            S[j, ROUND] = 2
            S[j, PASSES] = 0
            S[j, CUR] = S[j, ELDER]
            return 0
        S[j, ROUND] = 0
        return 2
    S[j, CUR] = NEXT_N[n, seat]
    return 0


@nb.njit(cache=True, inline="always")
def proposal_mask(S, j, m, opts):
    """The legal actions of the seat to act in table ``j``'s proposal auction."""
    ts = S[j, TURNED] >> 3
    if S[j, MUST_NAME]:
        for s in range(NUM_SUITS):
            if s != ts:
                m[NAME_CONTRACT + s] = 1
        return
    if S[j, PROPOSER] >= 0:
        m[AGREE_REDEAL] = 1
        m[REFUSE_REDEAL] = 1
        return
    m[PASS] = 1
    if S[j, ROUND] == 1:
        m[TAKE] = 1
        if opts[O_PROPOSE]:
            m[PROPOSE_REDEAL] = 1
        return
    for s in range(NUM_SUITS):
        if s != ts:
            m[NAME_CONTRACT + s] = 1
    if opts[O_PROPOSE] and (S[j, CUR] != S[j, DEALER] or opts[O_DEALER_R2]):
        m[PROPOSE_REDEAL] = 1


# ------------------------------------------------------------------ kernels: the steps before the cards
@nb.njit(cache=True)
def step_mask(S, j, m, seat, opts):
    """The legal actions of a play step before the cards: the seven's exchange, the
    taker's discards, the combinations (announced in turn; at two seats the answers)."""
    hand = S[j, HAND + seat]
    step = S[j, STEP]
    if step == STEP_EXCHANGE:
        m[KEEP] = 1
        if (hand >> (S[j, DENOM] * 8 + _SEVEN)) & 1:
            m[EXCHANGE_SEVEN] = 1
        return
    if step == STEP_DISCARD:
        mark_cards(m, hand)
        return
    has = S[j, DECLK + seat] != 0
    if opts[O_N] == 2 and seat != S[j, ELDER] and (S[j, DECLD] >> S[j, ELDER]) & 1:
        m[ANSWER_ENOUGH] = 1
        if has:
            mine = _announced_value(S[j, DECLK + seat])  # the announced values alone (RULES.md §11)
            theirs = _announced_value(S[j, DECLK + S[j, ELDER]])
            if mine > theirs:
                m[ANSWER_NOT_ENOUGH] = 1
            elif mine == theirs:
                m[ANSWER_EQUAL] = 1
        return
    m[DECLINE_DECLARE] = 1
    if has:
        m[DECLARE] = 1


@nb.njit(cache=True)
def apply_step(S, j, seat, a, opts, tabs):
    """Apply action ``a`` of a play step before the cards (``GameState.apply``)."""
    n = opts[O_N]
    step = S[j, STEP]
    if step == STEP_EXCHANGE:
        if a == EXCHANGE_SEVEN:
            _exchange(S, j, seat)
        S[j, EXCH_I] += 1
        if S[j, EXCH_I] < n and S[j, EXCHANGED] < 0:
            S[j, CUR] = AFTER_N[n, S[j, ELDER], S[j, EXCH_I]]
        else:
            _start_declarations(S, j, opts, tabs)
    elif step == STEP_DISCARD:
        S[j, HAND + seat] &= ~(np.int64(1) << a)
        S[j, DISCARDED] |= np.int64(1) << a
        if S[j, DISCARDED] != (S[j, DISCARDED] & -S[j, DISCARDED]):  # two discarded
            S[j, KNOWN + seat] &= ~(np.int64(1) << S[j, TURNED])  # the turned card may be among them
            if _after_discard(S, j, opts, n):
                _start_declarations(S, j, opts, tabs)
    else:
        _apply_declare(S, j, seat, a, n)


@nb.njit(cache=True)
def _apply_declare(S, j, seat, a, n):
    """``GameState._apply_declare``."""
    one = np.int64(1)
    elder = S[j, ELDER]
    if n == 2 and seat != elder:
        if a == DECLARE:  # after the elder declined: his combinations score unopposed
            S[j, DECLD] |= one << seat
            _resolve(S, j, seat)
        elif a == DECLINE_DECLARE:
            _resolve(S, j, -1)
        elif a == ANSWER_ENOUGH:
            _resolve(S, j, elder)
        elif a == ANSWER_NOT_ENOUGH:
            S[j, DECLD] |= one << seat
            _resolve(S, j, seat)
        else:  # ANSWER_EQUAL
            S[j, DECLD] |= one << seat
            _resolve(S, j, _compare(S, j, n))
        _start_play(S, j)
        return
    if a == DECLARE:
        S[j, DECLD] |= one << seat
    S[j, DECL_I] += 1
    if S[j, DECL_I] < n:
        S[j, CUR] = AFTER_N[n, elder, S[j, DECL_I]]
        return
    _resolve(S, j, _compare(S, j, n))
    _start_play(S, j)


# ------------------------------------------------------------------ kernels: scoring
@nb.njit(cache=True)
def score_cutthroat(S, j, opts):
    """``GameState.deal_totals`` and ``scoring.score_cutthroat_deal`` (no reserve pending)."""
    n = opts[O_N]
    for s in range(n):
        t = S[j, CP + s] + _BELOTE * S[j, BEL + s]
        if S[j, WON + s] == S[j, NTRICKS]:
            t += opts[O_CAPOT_BONUS]
        S[j, TOTAL + s] = t
    S[j, TOTAL + S[j, LASTW]] += _LAST_TRICK
    if S[j, DWIN] >= 0:
        S[j, TOTAL + S[j, DWIN]] += S[j, DECLP + S[j, DWIN]]
    maker = S[j, TAKER]
    m = S[j, TOTAL + maker]
    others = -m
    for s in range(n):
        others += S[j, TOTAL + s]
        S[j, DP + s] = S[j, TOTAL + s]
    if m > others:
        S[j, OUTCOME] = 0
    else:
        S[j, DP + maker] = 0
        if m == others:
            S[j, OUTCOME] = 1
        else:
            S[j, OUTCOME] = 2
            if opts[O_FAILURE_ALL]:
                if n == 2:
                    S[j, DP + NEXT_N[n, maker]] += m
                else:
                    a = AFTER_N[n, maker, 1]
                    b = AFTER_N[n, maker, 2]
                    split = opts[O_SPLIT]
                    if split == 0:
                        S[j, DP + a] += m // 2
                        S[j, DP + b] += m // 2
                    elif split == 1:
                        S[j, DP + a] += m - m // 2
                        S[j, DP + b] += m // 2
                    else:
                        ta, tb = S[j, TOTAL + a], S[j, TOTAL + b]
                        S[j, DP + a] += m * ta // (ta + tb)
                        S[j, DP + b] += m * tb // (ta + tb)
    if opts[O_ROUNDING]:
        for s in range(n):
            S[j, DP + s] = (S[j, DP + s] + 5) // 10 * 10


@nb.njit(cache=True)
def cutthroat_random_actions(mask, rng, out):
    """A uniformly random legal action per table (ids 0..111 and 412..413 only: no other id
    is legal at two and three seats), from the tables' streams."""
    random_legal(mask, rng, out, 112, AGREE_REDEAL)


# ------------------------------------------------------------------ what a seat may know
def cutthroat_infoset_of(game, j: int, seat: int):
    """Table ``j``'s ``InfoSet`` for ``seat`` (TWO_THREE.md §5), equal to
    ``GameState.information_set(seat)`` of the same deal (the harness checks it at
    every decision). ``game``: a ``CutthroatBatchedGame`` (its rows; the hidden cards of the
    other seats are not read). A slow path (Python), for policies and encoders that take
    an information set (e.g. a small-table observation encoder); a finished table's is the
    deal's final view (the engine's ``infoset`` refuses it, as at four seats). Raises
    ``ValueError`` for a table outside ``0..game.n - 1`` or a seat outside
    ``0..players - 1``."""
    from ..contract import Contract
    from ..infoset import InfoSet

    n = game.players
    if isinstance(j, bool) or isinstance(seat, bool) or not 0 <= j < game.n or not 0 <= seat < n:
        raise ValueError(f"table must be 0..{game.n - 1} and seat 0..{n - 1}, got table {j!r}, seat {seat!r}")
    S = game.state[j]
    ph = int(S[PH])
    if ph == PHASE_OVER:
        phase = 3 if S[OUTCOME] < 3 else 2
    else:
        phase = ph
    acting = ph != PHASE_OVER and int(S[CUR]) == seat
    maker, trump = int(S[TAKER]), int(S[DENOM])
    nb_ = int(S[NBIDS])
    auction = tuple((int(game.bids[j, i, 0]), int(game.bids[j, i, 1])) for i in range(nb_))
    declared = [(0, -1, 0)] * n
    if S[DWIN] == -2:  # announced in turn, not resolved yet: the values are public (TWO_THREE.md §2.6)
        for s in range(n):
            if (S[DECLD] >> s) & 1:
                declared[s] = (int(_announced_value(S[DECLK + s])), -1, 0)
    else:
        ann = [s for s in range(n) if (S[DECLD] >> s) & 1]
        first = {s: int(S[DECLK + s]) >> _POINTS_SHIFT for s in ann}  # what is compared first
        top = max(first.values(), default=0)
        tied = [s for s in ann if first[s] == top]
        for s in ann:
            key = int(S[DECLK + s])
            value = int(_announced_value(key))
            declared[s] = ((value, key >> 8 & 255, key & 255) if len(tied) > 1 and s in tied
                           else (value, -1, 0))
    tricks = []
    leader = int(S[ELDER])
    for t in range(int(S[NTRICKS])):
        w = int(trick_winner_at(S[TWIN], t))
        tricks.append((leader, tuple(int(seq_card(S, n * t + i)) for i in range(n)), w))
        leader = w
    tl = int(S[TLEN])
    done_deal = ph == PHASE_OVER and S[OUTCOME] < 3
    return InfoSet(
        seat=seat, dealer=int(S[DEALER]), phase=phase,
        step=int(S[STEP]) if ph == PHASE_PLAY else -1, current_seat=int(S[CUR]) if ph != PHASE_OVER else -1,
        hand=int(S[HAND + seat]), turned_card=int(S[TURNED]), bottom_card=int(S[BOTTOM]), auction=auction,
        bid_round=int(S[ROUND]), contract=Contract(maker, trump) if maker >= 0 else None,
        denomination=trump, taker=maker,
        exchanged=int(S[EXCHANGED]), out_of_play=int(S[OOP]), discarded=int(S[DISCARDED]) if seat == maker else 0,
        declared=tuple(declared), decl_winner=int(S[DWIN]), decl_cards=int(S[DWCARDS]),
        trick=tuple(int(S[TRICK + i]) for i in range(tl)), trick_leader=int(S[LEADER]), tricks=tuple(tricks),
        played_by=tuple(int(S[PLAYED + s]) for s in range(n)),
        hand_sizes=tuple(int(S[HAND + s]).bit_count() for s in range(n)),
        card_points=tuple(int(S[CP + s]) for s in range(n)),
        announcements=((int(S[BHOLDER]), "belote", int(S[BCARD])),) if S[BCARD] >= 0 else (),
        scores=tuple(int(S[DP + s]) for s in range(n)) if done_deal else (0,) * n,
        reserve=int(S[TOTAL + maker]) if done_deal and S[OUTCOME] == 1 and game.opts[O_LITIGE] else 0,
        deal_number=1 if done_deal else 0,
        legal_actions=tuple(int(a) for a in np.flatnonzero(game.mask[j])) if acting else (), rules=game.rules,
        public_knowledge=(tuple(int(S[CANNOT + s]) for s in range(n)), tuple(int(S[KNOWN + s]) for s in range(n))))


# ------------------------------------------------------------------ options
#: The rule options ``CutthroatBatchedGame`` plays, and those it knowingly leaves unread (the
#: game-length ones: each deal is an episode). ``check_cutthroat_supported`` refuses any other
#: option set away from its default.
CUTTHROAT_PLAYED_OPTIONS = frozenset((
    "players", "contract_mode", "belote", "declarations", "tie", "rounding", "deal_packets", "redeal_proposal",
    "redeal_dealer", "dealer_round2_proposal", "dix_exchange", "sequence_order", "run5_value", "sequence_compare",
    "carres", "capot_bonus", "failure", "three_player_deal", "redeal_consent", "defender_partner_free",
    "ruff_overtrump", "defender_split"))
CUTTHROAT_UNREAD_OPTIONS = frozenset(("target", "target_rule", "max_deals"))


def check_cutthroat_supported(rules: Rules) -> None:
    """Raise ``RuleOptionError`` unless ``rules`` is a two- or three-player ``Rules`` whose
    every option set away from its default is one ``CutthroatBatchedGame`` plays."""
    check_table(rules, (2, 3), "CutthroatBatchedGame", "the four-seat games are stepped by BatchedGame")
    default = Rules(players=rules.players)
    for name in Rules.option_names():
        if name in CUTTHROAT_PLAYED_OPTIONS or name in CUTTHROAT_UNREAD_OPTIONS:
            continue
        if getattr(rules, name) != getattr(default, name):
            raise RuleOptionError(
                f"rule option {name!r} = {getattr(rules, name)!r} is not supported by the batched small-table engine "
                f"(belote_env.vector.cutthroat.CutthroatBatchedGame plays {sorted(CUTTHROAT_PLAYED_OPTIONS)}); play it with "
                "belote_env.GameState")


# ------------------------------------------------------------------ the observation, compiled
#: the blocks of ``observation.cutthroat_layout`` the compiled encoder writes, in this order
#: (``_ENC_OFF[n][k]`` is block ``_ENC_BLOCKS[k]``'s first index at ``n`` seats)
_ENC_BLOCKS = ("hand", "turned", "bottom", "out_of_play", "gone", "discarded", "auction", "trump", "maker", "dealer",
               "exchanged", "declared", "decl_winner", "decl_cards", "belote", "trick", "played", "won", "leader",
               "winner", "led", "trick_points", "ntricks", "tricks_won", "card_points", "hand_sizes", "scores",
               "phase", "to_act", "legal", "unseen", "known", "cannot")
(E_HAND, E_TURNED, E_BOTTOM, E_OOP, E_GONE, E_DISC, E_AUCTION, E_TRUMP, E_MAKER, E_DEALER, E_EXCH, E_DECL, E_DWIN,
 E_DCARDS, E_BEL, E_TRICK, E_PLAYED, E_WON, E_LEADER, E_WINNER, E_LED, E_TPTS, E_NTR, E_TWON, E_CP, E_HSIZE,
 E_SCORES, E_PHASE, E_TOACT, E_LEGAL, E_UNSEEN, E_KNOWN, E_CANNOT) = range(len(_ENC_BLOCKS))


def _encoder_tables():
    from ..observation import _KIND_OF, _MAX_TRICKS, _OFFSETS, _SUIT_POINTS

    off = {n: np.array([_OFFSETS[n][b] for b in _ENC_BLOCKS], dtype=np.int64) for n in (2, 3)}
    from ..actions import PROPOSAL_NUM_ACTIONS

    kind = np.full(PROPOSAL_NUM_ACTIONS, -1, dtype=np.int64)
    for a, k in _KIND_OF.items():
        kind[a] = k
    return off, kind, np.array(_SUIT_POINTS, dtype=np.int64), _MAX_TRICKS


@nb.njit(cache=True)
def _encode_cutthroat_row(S, bids, mask_row, opts, off, kind_of, points, max_tricks, seat, out):
    """``observation.encode_cutthroat(cutthroat_infoset_of(game, j, seat))`` from table ``j``'s row
    ``S``, its auction ``bids`` and mask row, into ``out`` (zeroed first); a 32-card block
    at ``b`` is written by ``mark_cards(out[b:], cards)`` (card ids are 0..31)."""
    n = opts[O_N]
    out[:] = 0.0
    me = seat
    ph = S[PH]
    over = ph == PHASE_OVER
    phase = (3 if S[OUTCOME] < 3 else 2) if over else ph
    acting = (not over) and S[CUR] == seat
    maker, trump = S[TAKER], S[DENOM]
    hand = S[HAND + me]
    discarded = S[DISCARDED] if me == maker else np.int64(0)
    played = np.int64(0)
    for s in range(n):
        played |= S[PLAYED + s]
    gone = played | S[OOP] | discarded
    legal = np.int64(0)
    if acting:
        for c in range(32):
            if mask_row[c]:
                legal |= np.int64(1) << c
    mark_cards(out[off[E_HAND]:], hand)
    mark_cards(out[off[E_OOP]:], S[OOP])
    mark_cards(out[off[E_GONE]:], gone)
    mark_cards(out[off[E_DISC]:], discarded)
    mark_cards(out[off[E_DCARDS]:], S[DWCARDS])
    mark_cards(out[off[E_LEGAL]:], legal)
    mark_cards(out[off[E_UNSEEN]:], np.int64(0xFFFFFFFF) & ~(hand | gone))
    if S[TURNED] >= 0:
        out[off[E_TURNED] + S[TURNED]] = 1.0
    if S[BOTTOM] >= 0:
        out[off[E_BOTTOM] + S[BOTTOM]] = 1.0
    nt = S[NTRICKS]
    nwon = np.zeros(3, dtype=np.int64)
    for t in range(nt):
        r = (trick_winner_at(S[TWIN], t) - me) % n
        nwon[r] += 1
        for i in range(n):
            out[off[E_WON] + 32 * r + seq_card(S, n * t + i)] = 1.0
    for s in range(n):
        r = (s - me) % n
        mark_cards(out[off[E_PLAYED] + 32 * r:], S[PLAYED + s])
        if r:
            mark_cards(out[off[E_KNOWN] + 32 * (r - 1):], S[KNOWN + s] & ~S[PLAYED + s])
            mark_cards(out[off[E_CANNOT] + 32 * (r - 1):], S[CANNOT + s])
    tl = S[TLEN]
    leader = S[LEADER]
    for i in range(tl):
        out[off[E_TRICK] + 32 * ((leader + i - me) % n) + S[TRICK + i]] = 1.0
    slot = n + 9
    for i in range(S[NBIDS]):
        base = off[E_AUCTION] + slot * i
        out[base + (bids[i, 0] - me) % n] = 1.0
        out[base + n + kind_of[bids[i, 1]]] = 1.0
    if trump >= 0:
        out[off[E_TRUMP] + trump] = 1.0
    if maker >= 0:
        out[off[E_MAKER] + (maker - me) % n] = 1.0
    out[off[E_DEALER] + (S[DEALER] - me) % n] = 1.0
    if S[EXCHANGED] >= 0:
        out[off[E_EXCH] + (S[EXCHANGED] - me) % n] = 1.0
    if S[DWIN] == -2:  # announced in turn, not resolved: the values only (cutthroat_infoset_of)
        for s in range(n):
            if (S[DECLD] >> s) & 1:
                out[off[E_DECL] + 4 * ((s - me) % n)] = _announced_value(S[DECLK + s]) / 100.0
    else:
        top = 0
        for s in range(n):
            if (S[DECLD] >> s) & 1:
                top = max(top, S[DECLK + s] >> _POINTS_SHIFT)
        tied = 0
        for s in range(n):
            if (S[DECLD] >> s) & 1 and (S[DECLK + s] >> _POINTS_SHIFT) == top:
                tied += 1
        for s in range(n):
            if (S[DECLD] >> s) & 1:
                base = off[E_DECL] + 4 * ((s - me) % n)
                first = S[DECLK + s] >> _POINTS_SHIFT
                out[base] = _announced_value(S[DECLK + s]) / 100.0
                if tied > 1 and first == top:
                    key = S[DECLK + s]
                    out[base + 1] = 1.0
                    out[base + 2] = ((key >> 8 & 255) + 1) / 8.0
                    out[base + 3] = float(key & 255)
    w = S[DWIN]
    out[off[E_DWIN] + ((w - me) % n if w >= 0 else n if w == -1 else n + 1)] = 1.0
    if S[BCARD] >= 0:
        out[off[E_BEL] + (S[BHOLDER] - me) % n] = 1.0
    out[off[E_LEADER] + (leader - me) % n] = 1.0
    if tl > 0 and trump >= 0:
        wp = trick_winner_pos(S[TRICK:TRICK + 3], tl, trump, _POWER)
        out[off[E_WINNER] + (leader + wp - me) % n] = 1.0
        out[off[E_LED] + (S[TRICK] >> 3)] = 1.0
        tp = 0
        for i in range(tl):
            tp += points[trump, S[TRICK + i]]
        out[off[E_TPTS]] = tp / 80.0
    out[off[E_NTR] + min(nt, max_tricks)] = 1.0
    done_deal = over and S[OUTCOME] < 3
    for s in range(n):
        r = (s - me) % n
        out[off[E_CP] + r] = S[CP + s] / 162.0
        out[off[E_TWON] + r] = nwon[r] / 10.0
        hs = 0
        h = S[HAND + s]
        while h:
            h &= h - 1
            hs += 1
        out[off[E_HSIZE] + r] = hs / 12.0
        out[off[E_SCORES] + r] = (S[DP + s] if done_deal else 0) / 1000.0
    reserve = S[TOTAL + maker] if done_deal and S[OUTCOME] == 1 and opts[O_LITIGE] else 0
    out[off[E_SCORES] + n] = reserve / 162.0
    if phase == 0:
        out[off[E_PHASE] + (0 if S[ROUND] == 1 else 1)] = 1.0
    elif phase == 1:
        out[off[E_PHASE] + 2 + S[STEP]] = 1.0
    else:
        out[off[E_PHASE] + 6] = 1.0
    if not over and S[CUR] >= 0:
        out[off[E_TOACT] + (S[CUR] - me) % n] = 1.0


@nb.njit(cache=True)
def encode_cutthroat_kernel(S, bids, mask, opts, off, kind_of, points, max_tricks, tables, seats, out):
    """Row ``i`` of ``out``: seat ``seats[i]``'s observation at table ``tables[i]``."""
    for i in range(tables.shape[0]):
        j = tables[i]
        _encode_cutthroat_row(S[j], bids[j], mask[j], opts, off, kind_of, points, max_tricks, seats[i], out[i])


_ENCODER = None


def encode_cutthroat_batch(game, tables, seats, out: np.ndarray | None = None) -> np.ndarray:
    """The observations (``observation.encode_cutthroat``'s floats, float32 ``(m, obs_size)``)
    of ``seats[i]`` at ``tables[i]`` of a ``CutthroatBatchedGame``, in compiled code: equal to
    ``encode_cutthroat(cutthroat_infoset_of(game, t, s))`` (``tests/test_vector_cutthroat.py``). Reads
    only what ``cutthroat_infoset_of`` reads (RULES.md §11). Raises ``ValueError`` for a table
    or seat out of range, or arrays of other shapes."""
    global _ENCODER
    if _ENCODER is None:
        _ENCODER = _encoder_tables()
    off, kind, points, max_tricks = _ENCODER
    tables, seats = game._checked_rows(tables, seats)
    n = game.players
    from ..observation import CUTTHROAT_OBS_SIZE

    if out is None:
        out = np.empty((len(tables), CUTTHROAT_OBS_SIZE[n]), dtype=np.float32)
    elif out.dtype != np.float32 or out.shape != (len(tables), CUTTHROAT_OBS_SIZE[n]):
        raise ValueError(f"out must be float32 of shape ({len(tables)}, {CUTTHROAT_OBS_SIZE[n]}), got {out.dtype} "
                         f"{out.shape}")
    encode_cutthroat_kernel(game.state, game.bids, game.mask, game.opts, off[n], kind, points, max_tricks, tables, seats,
                        out)
    return out




def _engine():
    from .engine import CutthroatBatchedGame

    return CutthroatBatchedGame


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "SMALL_OUTCOMES": "CUTTHROAT_OUTCOMES",
    "small_random_actions": "cutthroat_random_actions",
    "small_infoset_of": "cutthroat_infoset_of",
    "SMALL_PLAYED_OPTIONS": "CUTTHROAT_PLAYED_OPTIONS",
    "SMALL_UNREAD_OPTIONS": "CUTTHROAT_UNREAD_OPTIONS",
    "check_small_supported": "check_cutthroat_supported",
    "encode_small_kernel": "encode_cutthroat_kernel",
    "encode_small_batch": "encode_cutthroat_batch",
}, {
    "CutthroatBatchedGame": ("belote_env.vector.BatchedGame", _engine),
    "SmallBatchedGame": ("belote_env.vector.BatchedGame", _engine),
    "cutthroat_rules_codes": ("belote_env.vector.layout.rules_codes", lambda: rules_codes),
    "small_rules_codes": ("belote_env.vector.layout.rules_codes", lambda: rules_codes),
})
