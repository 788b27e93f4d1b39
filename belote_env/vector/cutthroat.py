"""The batched engine of Belote for two and for three players (TWO_THREE.md; seed 001):
N tables of single deals stepped together in compiled code (numba), as ``engine.BatchedGame``
does for the four-seat games.

``CutthroatBatchedGame`` holds every table's state in preallocated numpy arrays and steps them
all with one call: legal-action masks (``actions.num_actions(rules)`` = 414 wide) for the
seats to act, a batch of actions applied, per-seat deal scores and rewards written into its
arrays. A table whose deal ends (scored, void after every seat passed twice, or redealt
after an agreed proposal; reward 0) starts its next deal at once (``autoreset=True``).

The reference is ``game.GameState`` (with ``single_deal=True``); this module is
a second implementation of its control flow, held equal to it by
``tests/test_vector_cutthroat.py`` (and ``scripts/check_vector.py --only-small`` for the long run):
identical masks, hands, played cards, public constraints, trick, contract, exchange,
declaration winner, card points at every step, identical per-seat deal totals, points and
rewards at the end of every deal. The rule tables come from the reference modules at
import: the deal layout from ``dealing.PacketLayout`` (every ``deal_packets`` and
``three_player_deal``), the trick power and ``BEATS`` from ``rules`` / ``cards``, the card
points of ``game`` at two and three seats (the pagat table), and the combinations per 8-bit suit mask and
per carré from ``declarations.combinations_of`` / ``combination_key``.

Deal (one phase each, ``step`` as ``game.STEPS``): the first cards and the turned
card; the bidding (``auction.ProposalAuction``: accept / pass / propose a redeal, the answers,
round 2 naming, the refused proposer's naming); completion (6 + 3 with the bottom card,
``10_each`` with the chien and the taker's two discards, ``24_card``); the seven of trumps
(``dix_exchange`` choice / auto / off); the combinations (``declarations`` auto / choice /
off, with ``sequence_order``, ``run5_value``, ``sequence_compare``, ``carres``); play
(``rules.legal_cards``: ``ruff_overtrump``, ``defender_partner_free``); belote (auto /
optional); scoring (``scoring.score_cutthroat_deal`` with no reserve pending: ``tie``,
``failure``, ``defender_split``, ``capot_bonus``, ``rounding``).

Every rule option of the two- and three-player games is played, except the game-length
ones (``target``, ``target_rule``, ``max_deals``: each deal is an episode, as
``GameState(..., single_deal=True)`` plays it; a ``tie="litige"`` reserve starts at 0
each deal and is never paid within an episode). ``check_cutthroat_supported`` refuses any other
option set away from its default with a ``RuleOptionError`` naming it (an option added to
``Rules`` later is never silently played wrong).

What a seat may know (TWO_THREE.md §5) is ``cutthroat_infoset_of(game, j, seat)``: the
reference's ``InfoSet``, equal to ``GameState.information_set`` at every decision
(the harness checks every seat), from the auction history (``bids``), the cards played in
order (``seq*``, ``trick_winner*``) and the public constraints (``cannot*``, ``known*``).
No observation array is encoded here.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..actions import (
    AGREE_REDEAL, ANNOUNCE_BELOTE, ANSWER_ENOUGH, ANSWER_EQUAL, ANSWER_NOT_ENOUGH, DECLARE, DECLINE_DECLARE,
    EXCHANGE_SEVEN, KEEP, NAME_CONTRACT, PASS, PROPOSE_REDEAL, REFUSE_REDEAL, TAKE, num_actions,
)
from ..cards import BEATS, NUM_CARDS, NUM_SUITS, POINTS_BY_ALL_TRUMP_OPTION, SUIT_MASK
from ..config import RuleOptionError, Rules, check_table
from ..dealing import packet_layout
from ..declarations import combinations_of, combination_key
from ..deprecation import renamed_in
from ..rules import POWER
from ..scoring import BELOTE_POINTS
from .kernels import (
    below, card_reveals, clear_table, illegal, legal_cards, mark_cards, random_legal, record_bid, shuffle,
    trick_winner_pos,
)
from .engine import BatchedGame, TableBatch

__all__ = ["CutthroatBatchedGame", "SCOL", "CUTTHROAT_OUTCOMES", "check_cutthroat_supported", "CUTTHROAT_PLAYED_OPTIONS",
           "CUTTHROAT_UNREAD_OPTIONS", "cutthroat_rules_codes", "cutthroat_infoset_of", "encode_cutthroat_batch", "PHASE_BIDDING",
           "PHASE_PLAY", "PHASE_OVER"]

# ------------------------------------------------------------------ state columns
_NAMES = (
    "phase", "step", "current", "dealer", "elder", "bid_round", "n_bids", "passes", "proposer", "ans0", "ans1",
    "n_ans", "must_name", "redeal", "trump", "maker", "turned", "bottom", "out_of_play", "unused", "exchanged",
    "exch_i", "discarded", "hand0", "hand1", "hand2", "played0", "played1", "played2", "cannot0", "cannot1",
    "cannot2", "known0", "known1", "known2", "points0", "points1", "points2", "won0", "won1", "won2", "trick0",
    "trick1", "trick2", "trick_len", "leader", "n_tricks", "last_winner", "belote_holder", "announce_next",
    "belote0", "belote1", "belote2", "decl_key0", "decl_key1", "decl_key2", "decl_pts0", "decl_pts1", "decl_pts2",
    "decl_cards0", "decl_cards1", "decl_cards2", "announced", "decl_i", "decl_winner", "decl_cards",
    "total0", "total1", "total2", "deal_points0", "deal_points1", "deal_points2", "outcome", "n_actions", "deals",
    "belote_card", *(f"seq{i}" for i in range(30)), *(f"trick_winner{i}" for i in range(10)),
)
#: column index of each state field (``CutthroatBatchedGame.state[:, SCOL["hand0"] + seat]``, ...)
SCOL = {n: i for i, n in enumerate(_NAMES)}
SCOL.update(taker=SCOL["maker"], denomination=SCOL["trump"])  # the four-seat engine's names of the same columns
NCOL = len(_NAMES)
(PH, STEP, CUR, DEALER, ELDER, ROUND, NBIDS, PASSES, PROPOSER, ANS, NANS, MUST_NAME, REDEAL, TRUMP, MAKER, TURNED,
 BOTTOM, OOP, UNUSED, EXCHANGED, EXCH_I, DISCARDED, HAND, PLAYED, CANNOT, KNOWN, CP, WON, TRICK, TLEN, LEADER,
 NTRICKS, LASTW, BHOLDER, ANN_NEXT, BEL, DKEY, DPTS, DCARDS, ANNOUNCED, DECL_I, DWIN, DWCARDS, TOTAL, DP, OUTCOME,
 NACT, DEALS, BCARD, SEQ, TWIN) = (SCOL[n] for n in (
    "phase", "step", "current", "dealer", "elder", "bid_round", "n_bids", "passes", "proposer", "ans0", "n_ans",
    "must_name", "redeal", "trump", "maker", "turned", "bottom", "out_of_play", "unused", "exchanged", "exch_i",
    "discarded", "hand0", "played0", "cannot0", "known0", "points0", "won0", "trick0", "trick_len", "leader",
    "n_tricks", "last_winner", "belote_holder", "announce_next", "belote0", "decl_key0", "decl_pts0", "decl_cards0",
    "announced", "decl_i", "decl_winner", "decl_cards", "total0", "deal_points0", "outcome", "n_actions", "deals",
    "belote_card", "seq0", "trick_winner0"))

PHASE_BIDDING, PHASE_PLAY, PHASE_OVER = 0, 1, 2
#: ``step`` values during play (``game.STEPS``)
STEP_EXCHANGE, STEP_DISCARD, STEP_DECLARE, STEP_CARDS = 0, 1, 2, 3
#: ``outcome`` column: a played deal made / equal / failed (``CutthroatDealScore.outcome``), a
#: void deal (every seat passed twice) or an agreed redeal
CUTTHROAT_OUTCOMES = ("made", "equal", "failed", "void", "redeal")

_POWER = np.array(POWER, dtype=np.int64)  # [denomination, led suit, card]
_BEATS = np.array(BEATS, dtype=np.int64)  # [denomination, card]
_SUIT_MASK = np.array(SUIT_MASK, dtype=np.int64)
#: card points at two and three seats (``GameState._points`` there: the pagat table), [trump, card]
_POINTS = np.array(POINTS_BY_ALL_TRUMP_OPTION["pagat"][:NUM_SUITS], dtype=np.int64)
_SEVEN, _QUEEN, _KING = 0, 5, 6
_LAST_TRICK = 10
_BELOTE = BELOTE_POINTS

# option codes (``cutthroat_rules_codes``)
(O_N, O_PACK24, O_CHIEN, O_PROPOSE, O_REDEAL_ELDER, O_DEALER_R2, O_BOTH_OTHERS, O_DIX, O_DECL, O_OPTIONAL,
 O_CLASSIC, O_PMF, O_TIE_LITIGE, O_FAILURE_ALL, O_SPLIT, O_CAPOT, O_ROUNDING, O_CARRES, O_KEY_SHIFT) = range(19)
N_OPTIONS = 19


def cutthroat_rules_codes(rules: Rules) -> np.ndarray:
    """The rule options as the kernels read them: int64 ``(N_OPTIONS,)``."""
    r = rules
    three = r.players == 3
    variant = r.three_player_deal or "6+3"
    return np.array([
        r.players, int(variant == "24_card"), int(variant == "10_each"), int(r.redeal_proposal),
        int(r.redeal_dealer == "elder"), int(r.dealer_round2_proposal),
        int(three and r.redeal_consent == "both_others"), ("off", "auto", "choice").index(r.dix_exchange),
        ("off", "auto", "choice").index(r.declarations), int(r.belote == "optional"),
        int(three and r.ruff_overtrump == "required"), int(three and bool(r.defender_partner_free)),
        int(r.tie == "litige"), int(r.failure == "opponent_takes_all"),
        ("half_floor", "half_ceil_next", "proportional").index(r.defender_split) if three else 0,
        r.capot_bonus, int(r.rounding == "half_up"), int(bool(r.carres)),
        8 * (len(combination_key(_ANY_SEQ, 0, r)) - 1),
    ], dtype=np.int64)


# ------------------------------------------------------------------ tables from the reference modules
def _layout_tables(rules: Rules):
    """Per dealer, from ``dealing.packet_layout``: ``first[d, i]`` the seat dealt pack
    position ``i`` before the bidding (else -1); ``more[d, t, i]`` the seat dealt position
    ``i`` once ``t`` is maker (else -1); and the positions of the turned card, the bottom
    card and the chien card (-1 when none), the unused positions as a mask of positions."""
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
    return first, more, turned, bottom, chien, unused


class _Seq:  # a stand-in Declaration for the key length (``combination_key`` reads suit, length, points, rank)
    suit, length, points, rank = 0, 3, 20, 0


_ANY_SEQ = _Seq()


def _pack(key: tuple) -> int:
    """``combination_key``'s tuple as one int that orders the same (8 bits a component)."""
    out = 0
    for x in key:
        assert 0 <= x < 256
        out = out << 8 | x
    return out


def _combination_tables(rules: Rules):
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


# ------------------------------------------------------------------ kernels: rules
@nb.njit(cache=True, inline="always")
def _winner_pos(S, j, n, k):
    """Position in the current trick of the card winning it so far (``vector.kernels``)."""
    return trick_winner_pos(S[j, TRICK:TRICK + 3], n, k, _POWER)


@nb.njit(cache=True, inline="always")
def _partner_pos(S, j, seat, opts):
    """``GameState._partner_pos``: the trick position of the seat's co-defender's card
    (three seats, ``defender_partner_free``, the seat a defender), else -1."""
    if not opts[O_PMF] or seat == S[j, MAKER]:
        return -1
    other = 3 - seat - S[j, MAKER]
    pos = (other - S[j, LEADER]) % 3
    return pos if pos < S[j, TLEN] else -1


@nb.njit(cache=True)
def _legal_cards(S, j, seat, hand, opts):
    """``rules.legal_cards`` for table ``j``'s trick (the one kernel
    ``vector.kernels.legal_cards``: two seats, or three under ``ruff_overtrump="only_trump_lead"``,
    overtrump only on a trump lead; the co-defender's winning card frees a defender under
    ``defender_partner_free``)."""
    n = S[j, TLEN]
    k = S[j, TRUMP]
    return legal_cards(hand, S[j, TRICK:TRICK + 3], n, -1, k, _partner_pos(S, j, seat, opts), 1 - opts[O_CLASSIC],
                       opts[O_PMF], 0, 1, _POWER, _BEATS[k], _SUIT_MASK)


@nb.njit(cache=True)
def _reveals(S, j, seat, c, opts):
    """``inference.card_reveals`` for table ``j``'s trick (the one kernel
    ``vector.kernels.card_reveals``, with ``_legal_cards``' options)."""
    n = S[j, TLEN]
    k = S[j, TRUMP]
    return card_reveals(S[j, TRICK:TRICK + 3], n, c, k, _partner_pos(S, j, seat, opts), 1 - opts[O_CLASSIC],
                        opts[O_PMF], 0, 1, _POWER, _BEATS[k], _SUIT_MASK)


@nb.njit(cache=True)
def _combos(hand, trump, seq_pts, seq_key, seq_cards, carre_pts, carre_key, opts):
    """``combinations_of`` summed: ``(points, best packed key, cards)`` (key 0: none)."""
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
    if opts[O_CARRES]:
        for r in range(8):
            m = (np.int64(1) << r) | (np.int64(1) << (8 + r)) | (np.int64(1) << (16 + r)) | (np.int64(1) << (24 + r))
            if hand & m == m and carre_pts[r] > 0:
                pts += carre_pts[r]
                if carre_key[r] > key:
                    key = carre_key[r]
                cards |= m
    return pts, key, cards


# ------------------------------------------------------------------ kernels: dealing
@nb.njit(cache=True)
def _pack_of(deck, j, pack, opts):
    """The pack the deck deals (``dealing.dealt_pack``): the deck, or its 24 cards of rank 9 up."""
    if not opts[O_PACK24]:
        for i in range(NUM_CARDS):
            pack[i] = deck[j, i]
        return
    i = 0
    for x in range(NUM_CARDS):
        if deck[j, x] & 7 >= 2:
            pack[i] = deck[j, x]
            i += 1


@nb.njit(cache=True)
def _deal(S, deck, bids, j, dealer, opts, first, turned_at):
    """Deal table ``j``'s deck by ``dealer``: the first cards and the turned card
    (``dealing.packet_deal``), the auction opened (``GameState._start_deal``)."""
    n = opts[O_N]
    clear_table(S, bids, j, DEALS, DEALER, dealer)
    pack = np.empty(NUM_CARDS, dtype=np.int64)
    _pack_of(deck, j, pack, opts)
    for i in range(first.shape[1]):
        s = first[dealer, i]
        if s >= 0:
            S[j, HAND + s] |= np.int64(1) << pack[i]
    S[j, TURNED] = pack[turned_at]
    if opts[O_PACK24]:
        oop = np.int64(0)
        for c in range(NUM_CARDS):
            if c & 7 < 2:
                oop |= np.int64(1) << c
        S[j, OOP] = oop
    elder = (dealer + 1) % n
    S[j, ELDER] = elder
    S[j, CUR] = elder
    S[j, LEADER] = elder
    S[j, ROUND] = 1
    for c in (PROPOSER, TRUMP, MAKER, BOTTOM, EXCHANGED, STEP, LASTW, BHOLDER, BCARD):  # none yet
        S[j, c] = -1
    S[j, DWIN] = -2
    S[j, PH] = PHASE_BIDDING


@nb.njit(cache=True)
def _complete(S, deck, j, opts, more, turned_at, bottom_at, chien_at, unused_pos):
    """The maker and trump are fixed: the later cards (``dealing.packet_complete``), then the
    discard, the exchange or the combinations (``GameState._complete_deal``)."""
    n = opts[O_N]
    dealer, taker = S[j, DEALER], S[j, MAKER]
    pack = np.empty(NUM_CARDS, dtype=np.int64)
    _pack_of(deck, j, pack, opts)
    one = np.int64(1)
    for i in range(more.shape[2]):
        s = more[dealer, taker, i]
        if s >= 0:
            S[j, HAND + s] |= one << pack[i]
    um = unused_pos[dealer]
    unused = np.int64(0)
    for i in range(more.shape[2]):
        if (um >> i) & 1:
            unused |= one << pack[i]
    S[j, UNUSED] = unused
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
    _after_discard(S, j, opts, n)


@nb.njit(cache=True)
def _exchange(S, j, seat):
    one = np.int64(1)
    seven = S[j, TRUMP] * 8 + _SEVEN
    turned = S[j, TURNED]
    S[j, HAND + seat] = (S[j, HAND + seat] & ~(one << seven)) | (one << turned)
    S[j, EXCHANGED] = seat
    S[j, OOP] = (S[j, OOP] & ~(one << turned)) | (one << seven)
    S[j, KNOWN + seat] |= one << turned


@nb.njit(cache=True)
def _after_discard(S, j, opts, n):
    """The seven of trumps (``GameState._after_discard``), else the combinations."""
    trump = S[j, TRUMP]
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
    trump = S[j, TRUMP]
    pair = (np.int64(1) << (trump * 8 + _KING)) | (np.int64(1) << (trump * 8 + _QUEEN))
    for seat in range(n):
        if S[j, HAND + seat] & pair == pair:
            S[j, BHOLDER] = seat
    if opts[O_DECL] == 0:
        S[j, DWIN] = -1
    else:
        seq_pts, seq_key, seq_cards, carre_pts, carre_key = tabs
        for seat in range(n):
            p, k, c = _combos(S[j, HAND + seat], trump, seq_pts, seq_key, seq_cards, carre_pts, carre_key, opts)
            S[j, DPTS + seat] = p
            S[j, DKEY + seat] = k
            S[j, DCARDS + seat] = c
        if opts[O_DECL] == 1:
            for seat in range(n):
                if S[j, DKEY + seat]:
                    S[j, ANNOUNCED] |= np.int64(1) << seat
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
        if (S[j, ANNOUNCED] >> s) & 1 and S[j, DKEY + s]:
            k = S[j, DKEY + s]
            if k > best:
                best, who, count = k, s, 1
            elif k == best:
                count += 1
    return who if count == 1 else -1


@nb.njit(cache=True)
def _resolve(S, j, winner):
    S[j, DWIN] = winner
    if winner >= 0:
        S[j, DWCARDS] = S[j, DCARDS + winner]
        S[j, KNOWN + winner] |= S[j, DCARDS + winner]


@nb.njit(cache=True, inline="always")
def _start_play(S, j):
    S[j, STEP] = STEP_CARDS
    S[j, CUR] = S[j, ELDER]
    S[j, LEADER] = S[j, ELDER]


# ------------------------------------------------------------------ kernels: the bidding
@nb.njit(cache=True)
def _apply_bid(S, bids, j, a, opts):
    """``ProposalAuction.apply``: 1 a contract (complete the deal), 2 void, 3 an agreed
    redeal, 0 the bidding goes on. The history ``bids[j]`` gets ``(seat, a)``."""
    n = opts[O_N]
    seat = S[j, CUR]
    record_bid(S, bids, j, seat, a, NBIDS)
    if a == TAKE:
        S[j, MAKER] = seat
        S[j, TRUMP] = S[j, TURNED] >> 3
        S[j, ROUND] = 0
        return 1
    if NAME_CONTRACT <= a < NAME_CONTRACT + 4:
        S[j, MAKER] = seat
        S[j, TRUMP] = a - NAME_CONTRACT
        S[j, ROUND] = 0
        S[j, MUST_NAME] = 0
        return 1
    if a == PROPOSE_REDEAL:
        S[j, PROPOSER] = seat
        S[j, ANS] = (seat + 1) % n
        if opts[O_BOTH_OTHERS]:
            S[j, ANS + 1] = (seat + 2) % n
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
            S[j, MAKER] = proposer
            S[j, TRUMP] = S[j, TURNED] >> 3
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
    S[j, CUR] = (seat + 1) % n
    return 0


# ------------------------------------------------------------------ kernels: legal actions
@nb.njit(cache=True)
def _fill_mask(S, j, mask, opts):
    """Write table ``j``'s legal-action mask for its seat to act (ids 0..111 and 412..413
    are cleared: no other id is ever legal at two and three seats)."""
    m = mask[j]
    for a in range(112):
        m[a] = 0
    m[AGREE_REDEAL] = 0
    m[REFUSE_REDEAL] = 0
    ph = S[j, PH]
    if ph == PHASE_BIDDING:
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
        return
    if ph != PHASE_PLAY:
        return
    seat = S[j, CUR]
    hand = S[j, HAND + seat]
    step = S[j, STEP]
    if step == STEP_EXCHANGE:
        m[KEEP] = 1
        if (hand >> (S[j, TRUMP] * 8 + _SEVEN)) & 1:
            m[EXCHANGE_SEVEN] = 1
        return
    if step == STEP_DISCARD:
        cards = hand
    elif step == STEP_DECLARE:
        has = S[j, DKEY + seat] != 0
        if opts[O_N] == 2 and seat != S[j, ELDER] and (S[j, ANNOUNCED] >> S[j, ELDER]) & 1:
            m[ANSWER_ENOUGH] = 1
            if has:
                shift = opts[O_KEY_SHIFT]
                mine = S[j, DKEY + seat] >> shift
                theirs = S[j, DKEY + S[j, ELDER]] >> shift
                if mine > theirs:
                    m[ANSWER_NOT_ENOUGH] = 1
                elif mine == theirs:
                    m[ANSWER_EQUAL] = 1
            return
        m[DECLINE_DECLARE] = 1
        if has:
            m[DECLARE] = 1
        return
    else:
        cards = _legal_cards(S, j, seat, hand, opts)
        if opts[O_OPTIONAL] and seat == S[j, BHOLDER]:
            second = _second_belote_card(S, j, seat)
            if S[j, ANN_NEXT]:
                cards &= np.int64(1) << second
            elif second >= 0 and (cards >> second) & 1:
                m[ANNOUNCE_BELOTE] = 1
    mark_cards(m, cards)


@nb.njit(cache=True, inline="always")
def _second_belote_card(S, j, seat):
    """The K or Q of trump still in the seat's hand once it has played the other, else -1."""
    k = S[j, TRUMP] * 8 + _KING
    q = S[j, TRUMP] * 8 + _QUEEN
    hand, played = S[j, HAND + seat], S[j, PLAYED + seat]
    if (hand >> k) & 1 and (played >> q) & 1:
        return k
    if (hand >> q) & 1 and (played >> k) & 1:
        return q
    return -1


# ------------------------------------------------------------------ kernels: acting
@nb.njit(cache=True)
def _apply_declare(S, j, seat, a, opts, n):
    """``GameState._apply_declare``; True once play starts."""
    one = np.int64(1)
    elder = S[j, ELDER]
    if n == 2 and seat != elder:
        if a == DECLARE:  # after the elder declined: his combinations score unopposed
            S[j, ANNOUNCED] |= one << seat
            _resolve(S, j, seat)
        elif a == DECLINE_DECLARE:
            _resolve(S, j, -1)
        elif a == ANSWER_ENOUGH:
            _resolve(S, j, elder)
        elif a == ANSWER_NOT_ENOUGH:
            S[j, ANNOUNCED] |= one << seat
            _resolve(S, j, seat)
        else:  # ANSWER_EQUAL
            S[j, ANNOUNCED] |= one << seat
            _resolve(S, j, _compare(S, j, n))
        _start_play(S, j)
        return
    if a == DECLARE:
        S[j, ANNOUNCED] |= one << seat
    S[j, DECL_I] += 1
    if S[j, DECL_I] < n:
        S[j, CUR] = (elder + S[j, DECL_I]) % n
        return
    _resolve(S, j, _compare(S, j, n))
    _start_play(S, j)


@nb.njit(cache=True)
def _apply_card(S, j, seat, c, opts, n):
    """``GameState._apply_card``; True when the deal's last trick is complete."""
    one = np.int64(1)
    if S[j, TLEN]:
        S[j, CANNOT + seat] |= _reveals(S, j, seat, c, opts)
    S[j, HAND + seat] &= ~(one << c)
    S[j, PLAYED + seat] |= one << c
    S[j, TRICK + S[j, TLEN]] = c
    S[j, SEQ + n * S[j, NTRICKS] + S[j, TLEN]] = c
    S[j, TLEN] += 1
    k = S[j, TRUMP]
    r = c & 7
    if seat == S[j, BHOLDER] and c >> 3 == k and (r == _KING or r == _QUEEN):
        other = k * 8 + (_QUEEN if r == _KING else _KING)
        if (S[j, PLAYED + seat] >> other) & 1 and (not opts[O_OPTIONAL] or S[j, ANN_NEXT]):
            S[j, BEL + seat] += 1  # claimed with the second card (A17)
            S[j, BCARD] = c
    S[j, ANN_NEXT] = 0
    if S[j, TLEN] < n:
        S[j, CUR] = (seat + 1) % n
        return False
    wp = _winner_pos(S, j, n, k)
    winner = (S[j, LEADER] + wp) % n
    pts = 0
    for i in range(n):
        pts += _POINTS[k, S[j, TRICK + i]]
    S[j, CP + winner] += pts
    S[j, WON + winner] += 1
    S[j, TWIN + S[j, NTRICKS]] = winner
    S[j, NTRICKS] += 1
    S[j, LASTW] = winner
    S[j, TLEN] = 0
    S[j, LEADER] = winner
    S[j, CUR] = winner
    for s in range(n):
        if S[j, HAND + s]:
            return False
    return True


@nb.njit(cache=True)
def _score(S, j, opts, n):
    """``GameState.deal_totals`` and ``scoring.score_cutthroat_deal`` (no reserve pending)."""
    for s in range(n):
        t = S[j, CP + s] + _BELOTE * S[j, BEL + s]
        if S[j, WON + s] == S[j, NTRICKS]:
            t += opts[O_CAPOT]
        S[j, TOTAL + s] = t
    S[j, TOTAL + S[j, LASTW]] += _LAST_TRICK
    if S[j, DWIN] >= 0:
        S[j, TOTAL + S[j, DWIN]] += S[j, DPTS + S[j, DWIN]]
    maker = S[j, MAKER]
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
                    S[j, DP + 1 - maker] += m
                else:
                    a = (maker + 1) % 3
                    b = (maker + 2) % 3
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
def step_kernel(S, deck, bids, rng, mask, actions, opts, done, rewards, result, autoreset, first, more, pos, tabs):
    """Apply ``actions[j]`` at every table ``j`` not in ``PHASE_OVER``.

    Returns -1, or the first table whose action is not legal (nothing is applied to it or
    to the tables after it). ``done[j]`` is set for a deal that ends; ``rewards[j, s]``:
    seat ``s``'s points less the mean of the other seats' (``CutthroatDealScore.difference``;
    0 for a void deal or a redeal). ``pos``: the turned, bottom and chien pack positions."""
    n = opts[O_N]
    done[:] = False
    rewards[:] = 0.0
    for j in range(S.shape[0]):
        seat, ph, a = S[j, CUR], S[j, PH], actions[j]
        ended = False
        if ph == PHASE_OVER:
            continue
        if illegal(mask, j, a):
            return j
        S[j, NACT] += 1
        if ph == PHASE_BIDDING:
            r = _apply_bid(S, bids, j, a, opts)
            if r == 1:
                _complete(S, deck, j, opts, more, pos[0], pos[1], pos[2], pos[3:])
                if S[j, STEP] == -1:
                    _start_declarations(S, j, opts, tabs)
            elif r >= 2:
                S[j, PH] = PHASE_OVER
                S[j, CUR] = -1
                S[j, OUTCOME] = 3 if r == 2 else 4
                for s in range(n):
                    S[j, DP + s] = 0
                ended = True
        else:
            step = S[j, STEP]
            if step == STEP_CARDS:
                if a == ANNOUNCE_BELOTE:
                    S[j, ANN_NEXT] = 1
                elif _apply_card(S, j, seat, a, opts, n):
                    _score(S, j, opts, n)
                    S[j, PH] = PHASE_OVER
                    S[j, CUR] = -1
                    ended = True
            elif step == STEP_EXCHANGE:
                if a == EXCHANGE_SEVEN:
                    _exchange(S, j, seat)
                S[j, EXCH_I] += 1
                if S[j, EXCH_I] < n and S[j, EXCHANGED] < 0:
                    S[j, CUR] = (S[j, ELDER] + S[j, EXCH_I]) % n
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
                _apply_declare(S, j, seat, a, opts, n)
        if ended:
            done[j] = True
            for s in range(n):
                result[j, s] = S[j, DP + s]
            result[j, n] = S[j, OUTCOME]
            result[j, n + 1] = S[j, NACT]
            for s in range(n):
                result[j, n + 2 + s] = S[j, TOTAL + s]
            if S[j, OUTCOME] < 3:
                tot = 0
                for s in range(n):
                    tot += S[j, DP + s]
                for s in range(n):
                    rewards[j, s] = S[j, DP + s] - (tot - S[j, DP + s]) / (n - 1)
            if autoreset:
                _next_deal(S, deck, bids, rng, j, opts, first, pos[0])
        _fill_mask(S, j, mask, opts)
    return -1


@nb.njit(cache=True)
def _start_deal(S, deck, bids, rng, j, dealer, opts, first, turned_at):
    shuffle(deck[j], rng, j)
    _deal(S, deck, bids, j, dealer, opts, first, turned_at)


@nb.njit(cache=True)
def _next_deal(S, deck, bids, rng, j, opts, first, turned_at):
    """``GameState.next_deal``: the elder deals, except the same dealer after an agreed
    redeal under ``redeal_dealer="same"``."""
    d = S[j, DEALER]
    if not S[j, REDEAL] or opts[O_REDEAL_ELDER]:
        d = (d + 1) % opts[O_N]
    S[j, DEALS] += 1
    _start_deal(S, deck, bids, rng, j, d, opts, first, turned_at)


@nb.njit(cache=True)
def reset_kernel(S, deck, bids, rng, mask, opts, which, first, turned_at):
    for j in range(S.shape[0]):
        if which[j]:
            S[j, DEALS] = 0
            _start_deal(S, deck, bids, rng, j, below(rng, j, opts[O_N]), opts, first, turned_at)
            _fill_mask(S, j, mask, opts)


@nb.njit(cache=True)
def deal_kernel(S, deck, bids, mask, opts, tables, decks, dealers, first, turned_at):
    for i in range(tables.shape[0]):
        j = tables[i]
        deck[j, :] = decks[i]
        S[j, DEALS] = 0
        _deal(S, deck, bids, j, dealers[i], opts, first, turned_at)
        _fill_mask(S, j, mask, opts)


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
    shift = int(game.opts[O_KEY_SHIFT])
    ph = int(S[PH])
    if ph == PHASE_OVER:
        phase = 3 if S[OUTCOME] < 3 else 2
    else:
        phase = ph
    acting = ph != PHASE_OVER and int(S[CUR]) == seat
    maker, trump = int(S[MAKER]), int(S[TRUMP])
    nb_ = int(S[NBIDS])
    auction = tuple((int(game.bids[j, i, 0]), int(game.bids[j, i, 1])) for i in range(nb_))
    declared = [(0, -1, 0)] * n
    if S[DWIN] == -2:  # announced in turn, not resolved yet: the values are public (TWO_THREE.md §2.6)
        for s in range(n):
            if (S[ANNOUNCED] >> s) & 1:
                declared[s] = (int(S[DKEY + s]) >> shift, -1, 0)
    else:
        ann = [s for s in range(n) if (S[ANNOUNCED] >> s) & 1]
        first = {s: int(S[DKEY + s]) >> shift for s in ann}
        top = max(first.values(), default=0)
        tied = [s for s in ann if first[s] == top]
        for s in ann:
            key = int(S[DKEY + s])
            declared[s] = ((first[s], key >> 8 & 255, key & 255) if len(tied) > 1 and s in tied
                           else (first[s], -1, 0))
    tricks = []
    leader = int(S[ELDER])
    for t in range(int(S[NTRICKS])):
        w = int(S[TWIN + t])
        tricks.append((leader, tuple(int(S[SEQ + n * t + i]) for i in range(n)), w))
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
        reserve=int(S[TOTAL + maker]) if done_deal and S[OUTCOME] == 1 and game.opts[O_TIE_LITIGE] else 0,
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


class CutthroatBatchedGame(BatchedGame):
    """``n`` tables of single deals of two- or three-player Belote (TWO_THREE.md), stepped
    together.

    Args:
        n: number of tables (int >= 1).
        rules: ``Rules`` with ``players`` 2 or 3 (e.g. ``load_rules("seed001_2p")``); the
            game-length options (``target``, ``target_rule``, ``max_deals``) are not read:
            each deal is an episode, scored as ``GameState(..., single_deal=True)``
            scores it.
        seed: int seed of the tables' streams (table ``j``'s deals depend on ``(seed, j)``).
        autoreset: a table whose deal ends starts its next one within the same ``step``
            (default True); else it waits in ``PHASE_OVER`` for ``reset``.

    Attributes (numpy arrays, updated in place by ``step`` / ``reset``):
        players: 2 or 3.
        state: int64 ``(n, NCOL)``, columns named by ``SCOL`` (hands per seat: hidden cards).
        mask: int8 ``(n, 414)``, the legal actions of each table's seat to act.
        current: int64 ``(n,)`` view of ``state[:, SCOL["current"]]``.
        bids: int64 ``(n, L, 2)``: ``(seat, bid id)`` per bidding decision, ``(-1, -1)``
            after; ``L = auction.proposal_length_bound(rules)``.
        deck: int64 ``(n, 32)``: each table's deck (``GameState``'s ``deck``).
        done: bool ``(n,)``, set by ``step`` for each table whose deal ended.
        rewards: float64 ``(n, players)``: per seat its deal points less the mean of the
            others' (``CutthroatDealScore.difference``; 0 for a void deal or a redeal), set with
            ``done``.
        result: int64 ``(n, 2 * players + 2)``, set with ``done``: the deal's recorded
            points per seat, its outcome (an index of ``CUTTHROAT_OUTCOMES``), its decisions,
            then per seat its deal total (``CutthroatDealScore.totals``; 0 when void).
    Raises:
        ValueError: ``n`` not a positive int, a bad ``seed``.
        RuleOptionError: ``rules`` not a two- or three-player ``Rules``, or an option this
            engine does not play (``check_cutthroat_supported`` names it).
    """

    columns = SCOL

    def __init__(self, n: int, rules: Rules, seed: int = 0, autoreset: bool = True):
        n = self._checked_n(n)
        check_cutthroat_supported(rules)
        self.rules = rules
        p = rules.players
        self.opts = cutthroat_rules_codes(rules)
        self.n_actions = num_actions(rules)
        first, more, turned, bottom, chien, unused = _layout_tables(rules)
        self._first, self._more = first, more
        self._pos = np.array([turned, bottom, chien, *unused.tolist()], dtype=np.int64)
        self._tabs = _combination_tables(rules)
        from ..games import game_of

        self.auction_bound = game_of(rules).auction_bound
        self._allocate(n, p, NCOL, CUR, 2 * p + 2, autoreset)
        self.reset(seed)

    def _reset_kernel(self, which) -> None:
        reset_kernel(self.state, self.deck, self.bids, self.rng, self.mask, self.opts, which, self._first,
                     self._pos[0])

    def _deal_kernel(self, tables, decks, dealers) -> None:
        deal_kernel(self.state, self.deck, self.bids, self.mask, self.opts, tables, decks, dealers, self._first,
                    self._pos[0])

    def _step_kernel(self, a) -> int:
        return step_kernel(self.state, self.deck, self.bids, self.rng, self.mask, a, self.opts, self.done,
                           self.rewards, self.result, self.autoreset, self._first, self._more, self._pos, self._tabs)

    def _random_kernel(self, out) -> None:
        cutthroat_random_actions(self.mask, self.rng, out)

    def encode_rows(self, tables, seats, out: np.ndarray | None = None) -> np.ndarray:
        return encode_cutthroat_batch(self, tables, seats, out)

    encode_rows.__doc__ = TableBatch.encode_rows.__doc__

    def infoset(self, j: int, seat: int):
        info = cutthroat_infoset_of(self, j, seat)  # checks the table and the seat
        if self.state[j, PH] == PHASE_OVER:
            raise ValueError(f"table {j}: the deal is over (no information set to act on)")
        return info

    infoset.__doc__ = TableBatch.infoset.__doc__


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
    maker, trump = S[MAKER], S[TRUMP]
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
        r = (S[TWIN + t] - me) % n
        nwon[r] += 1
        for i in range(n):
            out[off[E_WON] + 32 * r + S[SEQ + n * t + i]] = 1.0
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
    shift = opts[O_KEY_SHIFT]
    if S[DWIN] == -2:  # announced in turn, not resolved: the values only (cutthroat_infoset_of)
        for s in range(n):
            if (S[ANNOUNCED] >> s) & 1:
                out[off[E_DECL] + 4 * ((s - me) % n)] = (S[DKEY + s] >> shift) / 100.0
    else:
        top = 0
        for s in range(n):
            if (S[ANNOUNCED] >> s) & 1:
                top = max(top, S[DKEY + s] >> shift)
        tied = 0
        for s in range(n):
            if (S[ANNOUNCED] >> s) & 1 and (S[DKEY + s] >> shift) == top:
                tied += 1
        for s in range(n):
            if (S[ANNOUNCED] >> s) & 1:
                base = off[E_DECL] + 4 * ((s - me) % n)
                first = S[DKEY + s] >> shift
                out[base] = first / 100.0
                if tied > 1 and first == top:
                    key = S[DKEY + s]
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
    reserve = S[TOTAL + maker] if done_deal and S[OUTCOME] == 1 and opts[O_TIE_LITIGE] else 0
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


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "SMALL_OUTCOMES": "CUTTHROAT_OUTCOMES",
    "small_rules_codes": "cutthroat_rules_codes",
    "small_random_actions": "cutthroat_random_actions",
    "small_infoset_of": "cutthroat_infoset_of",
    "SMALL_PLAYED_OPTIONS": "CUTTHROAT_PLAYED_OPTIONS",
    "SMALL_UNREAD_OPTIONS": "CUTTHROAT_UNREAD_OPTIONS",
    "check_small_supported": "check_cutthroat_supported",
    "SmallBatchedGame": "CutthroatBatchedGame",
    "encode_small_kernel": "encode_cutthroat_kernel",
    "encode_small_batch": "encode_cutthroat_batch",
})
