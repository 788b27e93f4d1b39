"""What the batched engine (``vector.engine.BatchedGame``) keeps per table and how it reads
the rules, for every table (four seats, classic and coinche; two and three seats,
TWO_THREE.md): the one state layout (``COL``: int64 columns of a table's row), the option
codes (``rules_codes``: one int64 vector per ``Rules``, the table size one code among
them) and the seat tables by table size (``NEXT_N``, ``AFTER_N``, ``SIDE_N``,
``REL_N``: from ``table.table_of``, so that no kernel writes seat arithmetic out).

The columns every table uses and a step touches come first; those of the four-seat game
only and those of the two- and three-seat game only then share their indices (a table
reads one set, so the row stays as short as the longer set allows); the shared columns a
step seldom reads come last, the order of play packed eight cards to a column
(``seq_card``). A row is 90 int64 (720 bytes): the batched engine streams its rows, so
its speed follows their size. A per-side column block (``points*``,
``won*``, ``deal_points*``) is indexed by the side a seat scores for
(``table.Table.side``: its team at four seats, the seat itself at two and three).

The kernels read these numbers as constants when they compile, and numba's cache knows a
kernel's own file only: so at import, when any source file of ``belote_env`` differs from
those the cached kernels were compiled against (one SHA-256 of them all, kept in
``vector/__pycache__/sources.sha256``), the package's cached kernels (``*.nbi`` /
``*.nbc``) are deleted and compile afresh; a cache elsewhere (``NUMBA_CACHE_DIR``) is the
user's to clear.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba as nb
import numpy as np

from ..config import Rules, RuleOptionError
from ..table import table_of
from .declare import TIE_CODES

__all__ = ["COL", "NCOL", "rules_codes", "N_OPTIONS", "SCOPES", "ROUNDINGS", "PHASE_BIDDING", "PHASE_PLAY",
           "PHASE_OVER", "NEXT_N", "AFTER_N", "SIDE_N", "REL_N", "add_trick_winner", "trick_winner_at", "seq_card",
           "seq_cards", "set_seq_card"]

# ------------------------------------------------------------------ state columns
#: the columns every table uses and a step reads or writes most often (together, they
#: touch fewer cache lines of a table's row a step)
_SHARED = (
    "phase", "current", "dealer", "bid_round", "n_bids", "denomination", "taker", "turned", "leader", "trick_len",
    "n_tricks", "trick0", "trick1", "trick2", "trick3", "hand0", "hand1", "hand2", "hand3",
    "played0", "played1", "played2", "played3", "cannot0", "cannot1", "cannot2", "cannot3",
    "known0", "known1", "known2", "known3", "points0", "points1", "points2", "won0", "won1", "won2",
    "announce_next", "last_winner", "n_actions", "taker_tricks", "trick_winners",
)
#: the cards in order of play, one byte each: card ``p`` of the deal (0-based) in byte
#: ``p % 8`` (little-endian) of column ``seq{p // 8}``, so that
#: ``row[COL["seq0"]:COL["seq0"] + 4].astype("<i8").view(np.uint8)[:p]`` are the first ``p``
_SEQ_BYTES = 8
_SEQ_COLS = 4  # seq0..seq3: the 32 cards of a deal
#: the columns every table uses that a step reads rarely (declarations, the deal's
#: outcome, the order of play), after the table-size-only ones
_SHARED_COLD = (
    "decl_points0", "decl_points1", "decl_points2", "decl_points3",
    "decl_key0", "decl_key1", "decl_key2", "decl_key3", "declared",
    "deal_points0", "deal_points1", "deal_points2", "outcome", "deals",
    "decl_cards0", "decl_cards1", "decl_cards2", "decl_cards3", *(f"seq{i}" for i in range(_SEQ_COLS)),
)
#: the columns of the four-seat game only: the belote pairs and announcements (RULES.md
#: §5), a ``DECLARE`` chosen, the hands as dealt, and the coinche auction (COINCHE.md §3;
#: auction.CoincheAuction's state): the kind of turn (bidding, immediate window,
#: coinched, over), the highest bid (its id, bidder and strength), the coinche level and
#: coincher, the passes towards the end, the seats still to be asked after the current
#: one, and the contract's multiplier
_FOUR_ONLY = (
    "pairs", "ann_flags", "ann0", "ann1", "ann2", "ann3", "declare_next", "first_hand0", "first_hand1", "first_hand2",
    "first_hand3", "auc_turn", "auc_bid", "auc_bidder", "auc_strength", "auc_k", "auc_coincher", "auc_passes",
    "auc_q0", "auc_q1", "auc_qlen", "multiplier",
)
#: the columns of the two- and three-seat game only (TWO_THREE.md), on the same indices as
#: ``_FOUR_ONLY`` (a table reads one set or the other, never both): the play step
#: (game.STEPS), the elder, the proposal auction (passes, proposer, the seats to answer, a
#: naming owed, an agreed redeal), the completed deal (bottom card, cards out of play,
#: unused, the seven's exchange, the taker's discards), the belote holder and claims, the
#: combinations (the seat announcing, the winner and its cards), the deal totals and the
#: claimed belote card
_CUTTHROAT_ONLY = (
    "step", "elder", "passes", "proposer", "ans0", "ans1", "n_ans", "must_name", "redeal", "bottom",
    "out_of_play", "unused", "exchanged", "exch_i", "discarded", "belote_holder", "belote0", "belote1", "belote2",
    "decl_i", "decl_winner", "decl_cards", "total0", "total1", "total2", "belote_card",
)
#: column index of each state field (``BatchedGame.state[:, COL["hand0"] + seat]``, ...);
#: ``maker`` / ``trump`` / ``announced`` / ``decl_pts*`` are the two- and three-seat
#: game's names of ``taker`` / ``denomination`` / ``declared`` / ``decl_points*``
COL = {n: i for i, n in enumerate(_SHARED)}
COL.update({n: len(_SHARED) + i for i, n in enumerate(_FOUR_ONLY)})
COL.update({n: len(_SHARED) + i for i, n in enumerate(_CUTTHROAT_ONLY)})
_COLD_AT = len(_SHARED) + max(len(_FOUR_ONLY), len(_CUTTHROAT_ONLY))
COL.update({n: _COLD_AT + i for i, n in enumerate(_SHARED_COLD)})
NCOL = _COLD_AT + len(_SHARED_COLD)
COL.update(maker=COL["taker"], trump=COL["denomination"], announced=COL["declared"],
           **{f"decl_pts{s}": COL["decl_points0"] + s for s in range(3)})
(PH, CUR, DEALER, ROUND, NBIDS, DENOM, TAKER, TURNED, LEADER, TLEN, NTRICKS, TRICK, HAND, PLAYED, CANNOT, KNOWN,
 CP, WON, PAIRS, ANNF, ANNC, ANN_NEXT, DECL_NEXT, DECLP, DECLK, DECLD, LASTW, DP, OUTCOME, NACT, DEALS,
 FIRST, DECLC, SEQ) = (COL[n] for n in (
    "phase", "current", "dealer", "bid_round", "n_bids", "denomination", "taker", "turned", "leader", "trick_len",
    "n_tricks", "trick0", "hand0", "played0", "cannot0", "known0", "points0", "won0", "pairs", "ann_flags", "ann0",
    "announce_next", "declare_next", "decl_points0", "decl_key0", "declared", "last_winner", "deal_points0",
    "outcome", "n_actions", "deals", "first_hand0", "decl_cards0", "seq0"))
(A_TURN, A_BID, A_BIDDER, A_STRENGTH, A_K, A_COINCHER, A_PASSES, A_Q0, A_QLEN, MULT, TAKER_TRICKS) = (
    COL[n] for n in ("auc_turn", "auc_bid", "auc_bidder", "auc_strength", "auc_k", "auc_coincher", "auc_passes",
                     "auc_q0", "auc_qlen", "multiplier", "taker_tricks"))
(STEP, ELDER, PASSES, PROPOSER, ANS, NANS, MUST_NAME, REDEAL, BOTTOM, OOP, UNUSED, EXCHANGED, EXCH_I, DISCARDED,
 BHOLDER, BEL, DECL_I, DWIN, DWCARDS, TOTAL, BCARD, TWIN) = (COL[n] for n in (
    "step", "elder", "passes", "proposer", "ans0", "n_ans", "must_name", "redeal", "bottom", "out_of_play", "unused",
    "exchanged", "exch_i", "discarded", "belote_holder", "belote0", "decl_i", "decl_winner", "decl_cards", "total0",
    "belote_card", "trick_winners"))

PHASE_BIDDING, PHASE_PLAY, PHASE_OVER = 0, 1, 2
#: ``trick_winners`` holds the winner of trick ``t`` in its bits ``2t`` and ``2t + 1``
_WINNER_BITS = 2


@nb.njit(cache=True, inline="always")
def add_trick_winner(S, j, t, winner):
    """Note ``winner`` as the winner of table ``j``'s trick ``t`` (``trick_winners``)."""
    S[j, TWIN] |= winner << (_WINNER_BITS * t)


@nb.njit(cache=True, inline="always")
def set_seq_card(S, j, p, c):
    """Note card ``c`` as the ``p``-th card (0-based) played in table ``j``'s deal (its
    byte of ``seq*`` is still 0: the row is cleared at each deal)."""
    S[j, SEQ + p // _SEQ_BYTES] |= c << (8 * (p % _SEQ_BYTES))


@nb.njit(cache=True, inline="always")
def seq_card(row, p):
    """The ``p``-th card (0-based) played in the deal of a table's state ``row``."""
    return (row[SEQ + p // _SEQ_BYTES] >> (8 * (p % _SEQ_BYTES))) & 255


def seq_cards(row: np.ndarray, count: int) -> list[int]:
    """The first ``count`` cards played in the deal of a table's state ``row`` (``NCOL``
    ints: an int64 array or a list), in order: a list of ``count`` ints. Raises
    ``ValueError`` for a ``count`` outside 0..32."""
    if not 0 <= count <= _SEQ_COLS * _SEQ_BYTES:
        raise ValueError(f"count must be 0..{_SEQ_COLS * _SEQ_BYTES} (the cards of a deal), got {count!r}")
    return np.ascontiguousarray(row[SEQ:SEQ + _SEQ_COLS], dtype="<i8").view(np.uint8)[:count].tolist()


@nb.njit(cache=True)
def trick_winner_at(winners, t):
    """The winner of trick ``t`` in a ``trick_winners`` value."""
    return (winners >> (_WINNER_BITS * t)) & ((1 << _WINNER_BITS) - 1)


# ------------------------------------------------------------------ seats by table size
_SIZES = (2, 3, 4)
#: ``NEXT_N[n, seat]``: the seat after ``seat`` at a table of ``n`` (``Table.next``)
NEXT_N = np.zeros((5, 4), dtype=np.int64)
#: ``AFTER_N[n, seat, i]``: the seat ``i`` places after ``seat`` (``Table.seats_from``)
AFTER_N = np.zeros((5, 4, 4), dtype=np.int64)
#: ``SIDE_N[n, seat]``: the side ``seat`` scores for: its team, or itself (``Table.side``)
SIDE_N = np.zeros((5, 4), dtype=np.int64)
#: ``REL_N[n, me, seat]``: ``seat`` counted from ``me`` (``Table.relative``)
REL_N = np.zeros((5, 4, 4), dtype=np.int64)
for _n in _SIZES:
    _t = table_of(_n)
    for _s in _t.seats:
        NEXT_N[_n, _s] = _t.next[_s]
        SIDE_N[_n, _s] = _t.side[_s]
        AFTER_N[_n, _s, :_n] = _t.seats_from(_s)
        REL_N[_n, _s, :_n] = _t.relative[_s]

# ------------------------------------------------------------------ option codes (``rules_codes``)
(O_PMF, O_DISCARD, O_TWO, O_OPTIONAL, O_DECL, O_DTIE, O_COUNTS, O_TIE, O_ROUND2, O_REDEAL, O_OVER) = range(11)
# the coinche options (COINCHE.md §7), after the options of both modes; 0 in classic mode
(O_COINCHE, O_SA_TA, O_MAX_BID, O_RANKED, O_IMMEDIATE, O_FREEZES, O_CPS, O_CAPOT_BID, O_CAPOT_COINCHABLE,
 O_SURCOINCHE, O_PASSES_END, O_SELF_CHANGE, O_GENERALE, O_GENERALE_VALUE, O_GENERALE_LEADS, O_BELOTE_COUNTS,
 O_PRENABLE, O_BID_ONLY, O_SCOPE, O_SURCOINCHE_MULT, O_BEAT_DEFENCE, O_NEED_80, O_FAIL_BASE, O_DEF_CAPOT_BASE,
 O_CAPOT_POINTS, O_CAPOT_FLAT, O_CAPOT_VALUE, O_CAPOT_FAIL, O_TIE_LITIGE, O_ROUNDING) = range(11, 41)
# the table size, then the two- and three-seat options (TWO_THREE.md §4); at four seats 0
# but for the options of every take/pass table (``config.COMBINATION_OPTIONS``, RULES.md
# §6-§7, TWO_THREE.md A12, A14, A23): O_CARRES ``carres`` (1 in coinche), O_RUN5
# ``run5_value`` (100 in coinche), O_FAILURE_ALL ``failure="opponent_takes_all"`` and
# O_MAKER_ZERO ``failure="maker_zero"`` (both 0: four seats' ``maker_keeps_belote``; 0 in
# coinche). At two and three seats the shared codes above read: O_PMF
# ``defender_partner_free``, O_TWO ``ruff_overtrump="only_trump_lead"`` (and the two-seat
# game), O_OPTIONAL ``belote``, O_ROUNDING ``rounding``, O_REDEAL 1 (a void deal passes the
# deal on); the four-seat declarations (O_DECL) and the coinche codes 0.
(O_N, O_PACK24, O_CHIEN, O_PROPOSE, O_REDEAL_ELDER, O_DEALER_R2, O_BOTH_OTHERS, O_DIX, O_COMBOS, O_LITIGE,
 O_FAILURE_ALL, O_SPLIT, O_CAPOT_BONUS, O_CARRES, O_BELOTE_SECOND, O_RUN5, O_MAKER_ZERO) = range(41, 58)
N_OPTIONS = 58
_TIES = {"litige": 0, "takers_made": 1, "takers_fail": 2, "defenders_keep": 3}
#: ``multiplier_scope`` codes (COINCHE.md §6.4, §6.6)
SCOPES = ("contract_only", "whole_score", "ffb_forfait", "bga")
#: ``rounding`` codes (COINCHE.md §6.10; TWO_THREE.md §4: none, half_up)
ROUNDINGS = ("none", "half_up", "six_up")
_OFF_AUTO_CHOICE = ("off", "auto", "choice")


def rules_codes(rules: Rules) -> np.ndarray:
    """The rule options as the kernels read them: int64 ``(N_OPTIONS,)``, for every table.

    Raises ``RuleOptionError`` if ``rules`` is not a ``Rules``."""
    if not isinstance(rules, Rules):
        raise RuleOptionError(f"rules must be a belote_env.Rules, got {type(rules).__name__}")
    r = rules
    out = np.zeros(N_OPTIONS, dtype=np.int64)
    out[O_N] = r.players
    # the options of every take/pass table (None in coinche: RULES.md §6, COINCHE.md §6)
    out[O_CARRES] = int(r.carres is not False)
    out[O_RUN5] = 100 if r.run5_value is None else r.run5_value
    out[O_FAILURE_ALL] = int(r.failure == "opponent_takes_all")
    out[O_MAKER_ZERO] = int(r.failure == "maker_zero")
    if r.players != 4:
        three = r.players == 3
        variant = r.three_player_deal or "6+3"
        out[O_PMF] = int(three and bool(r.defender_partner_free))
        out[O_TWO] = 1 - int(three and r.ruff_overtrump == "required")
        out[O_OPTIONAL] = int(r.belote == "optional")
        out[O_ROUNDING] = ROUNDINGS.index(r.rounding)
        out[O_REDEAL] = 1
        out[O_N + 1:O_FAILURE_ALL] = (
            int(variant == "24_card"), int(variant == "10_each"), int(r.redeal_proposal),
            int(r.redeal_dealer == "elder"), int(r.dealer_round2_proposal),
            int(three and r.redeal_consent == "both_others"), _OFF_AUTO_CHOICE.index(r.dix_exchange),
            _OFF_AUTO_CHOICE.index(r.declarations), int(r.tie == "litige"))
        out[O_SPLIT] = ("half_floor", "half_ceil_next", "proportional").index(r.defender_split) if three else 0
        out[O_CAPOT_BONUS], out[O_BELOTE_SECOND] = r.capot_bonus, 1
        return out
    counts = r.contract_counts_bonuses
    out[:O_COINCHE] = (
        int(r.partner_master_free), int(r.undertrump == "discard_allowed"),
        int(r.obligations == "two_player"), int(r.belote == "optional"),
        _OFF_AUTO_CHOICE.index(r.declarations), TIE_CODES[r.declaration_tie],
        1 if counts is True else 0 if counts is False else 2, _TIES[r.tie] if r.tie is not None else 0,
        int(bool(r.round2_no_trump_all_trump)), int(r.all_pass_redeal == "next_dealer"),
        int(r.overtrump_partner == "must_overtrump"),
    )
    if r.contract_mode != "coinche":
        return out
    out[O_COINCHE:O_N] = (
        1, int(r.coinche_denominations == "suits_sa_ta"), r.max_numeric_bid, int(r.denomination_order == "ranked"),
        int(r.coinche_window == "immediate"), int(r.coinche_freezes), int(r.coincher_partner_speaks),
        int(r.capot_bid), int(r.capot_coinchable), int(r.surcoinche_allowed), r.passes_to_end,
        int(r.self_overbid == "change_denomination"), int(r.generale), r.generale_value, int(r.generale_leads),
        int(r.belote_counts_for_contract), int(r.belote_prenable), int(r.scoring == "bid_only"),
        SCOPES.index(r.multiplier_scope), r.surcoinche_multiplier,
        int(r.contract_condition == "reach_bid_and_beat_defence"), 82 if r.bid_80_means == 82 else 80,
        r.fail_base, r.defence_capot_base, r.capot_points, int(r.capot_scoring == "flat"), r.capot_value,
        r.capot_fail_value, int(r.tie_with_defence == "litige"), ROUNDINGS.index(r.rounding),
    )
    return out


def _drop_stale_kernels(root: Path | None = None) -> None:
    """Delete the compiled kernels cached under the package ``root`` (``belote_env``) when
    any of its source files changed since they were compiled (module docstring): numba
    checks a cached kernel against its own file only, while the kernels call one another
    across files and bake in this file's columns and the rule tables of ``cards``,
    ``rules``, ``dealing``, ``declarations``. Nothing when the cache is elsewhere
    (``NUMBA_CACHE_DIR``) or not writable."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = Path(__file__).resolve().parents[1] if root is None else root
    sources = sorted(root.rglob("*.py"))
    digest = hashlib.sha256()
    for f in sources:
        digest.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes() + b"\0")
    key = digest.hexdigest()
    stamp = root / "vector" / "__pycache__" / "sources.sha256"
    try:
        if stamp.read_text() == key:
            return
    except OSError:
        pass
    try:
        for cache in root.rglob("__pycache__"):
            for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
                f.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        tmp = stamp.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(key)
        os.replace(tmp, stamp)
    except OSError:
        pass


_drop_stale_kernels()
