"""Declarations ("annonces", RULES.md §6) as numba kernels for a batched engine.

The same rules as ``belote_env/declarations.py`` (``best_declarations``,
``declaration_winner``) and ``belote_env/scoring.py::team_declaration_points``, compiled
with ``@njit(cache=True)``. They are held equal to that reference by
``tests/test_vector_declare.py`` (a differential test over random and declaration-rich
hands and deals, every denomination, eldest, taker and tie rule); the reference is the
rule, this module only reproduces it.

The sequence rule is not written out again: the per-suit tables below are built at import
from the reference's own ``_sequences`` (each maximal run one sequence), for every
8-bit suit mask and both values of ``run5_value`` (100, 50); the carré points are the
reference's ``CARRE_POINTS``. The kernel then enumerates the subsets of the hand's scoring
carrés (none under ``carres`` false) in the reference's order, takes the sequences of the
remaining cards from the tables, and keeps the partition the reference keeps (most
points, then the strongest list of declarations, first found on a tie).

Functions (every argument and result an int64; arrays are ``np.int64`` of length 4):

* ``declaration_summary(hand, denomination, carres=1, run5=100) -> (cards, points,
  key)``: for a seat's ``best_declarations(hand, denomination, rules)`` (``hand``: 32-bit
  card mask, card = suit*8 + rank; ``denomination``: 0..3 a suit, 4 no-trump, 5
  all-trump; ``carres`` 1 / 0 and ``run5`` 100 / 50 the options ``carres`` and
  ``run5_value``): ``cards`` the OR of the declared cards, ``points`` their total, ``key``
  a number that orders (``>``, ``==``) exactly like the strongest declaration's
  ``Declaration.strength(denomination)``, and 0 when there is none (every real key is > 0).
* ``declaration_team_points(keys, points, denomination, eldest, taker, tie) ->
  (team0, team1)``: ``team_declaration_points`` with ``declarations="auto"``, from each
  seat's ``key`` and ``points`` (seat s is in team s % 2); ``eldest`` and ``taker`` are
  seats 0..3, ``tie`` a code of ``TIE_CODES`` (the ``declaration_tie`` option).
* ``TIE_CODES``: ``{"eldest": 0, "none": 1, "taker_first": 2}``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import NO_TRUMP, NUM_SUITS
from ..declarations import CARRE_POINTS, _sequences, sequence_points
from ..table import NUM_SEATS, SEATS, TEAM_OF, seats_from

__all__ = ["declaration_summary", "declaration_team_points", "TIE_CODES", "RUN5_VALUES"]

#: ``declaration_tie`` option -> the ``tie`` code of ``declaration_team_points``.
TIE_CODES = {"eldest": 0, "none": 1, "taker_first": 2}

_NS = NUM_SEATS
_TEAM = np.array(TEAM_OF, dtype=np.int64)
_AFTER = np.array([seats_from(s) for s in SEATS], dtype=np.int64)  # _AFTER[seat, i]: i places after it

# Strength key: (kind, a, b, c) of Declaration.strength packed as
# kind << 16 | a << 8 | b << 4 | c  (a <= 200 carré points or 3..5 sequence length,
# b <= 7 a rank, c 0/1 the trump-sequence flag), so int order == tuple order; a sequence's
# length >= 3 makes every key > 0.
_KIND_SHIFT, _A_SHIFT, _B_SHIFT = 16, 8, 4


#: the values of ``run5_value`` (RULES.md §6, seed 001): index 0 and 1 of the suit tables
RUN5_VALUES = (100, 50)


def _suit_tables():
    """For each ``run5_value`` (``RUN5_VALUES``) and every 8-bit suit mask, the sequences
    the reference declares from it (as the only cards of the hand, in suit 0): count,
    8-bit masks, top ranks, lengths, points, indexed ``[value, mask(, i)]``."""
    found = [[_sequences(m, v) for m in range(256)] for v in RUN5_VALUES]
    width = max(len(f) for per_value in found for f in per_value)
    count = np.zeros((len(RUN5_VALUES), 256), dtype=np.int64)
    shape = (len(RUN5_VALUES), 256, width)
    mask, top, length, points = (np.zeros(shape, dtype=np.int64) for _table in ("mask", "top", "length", "points"))
    for v, per_value in enumerate(found):
        for m, decls in enumerate(per_value):
            count[v, m] = len(decls)
            for i, d in enumerate(decls):
                assert d.kind == "sequence" and d.suit == 0 and d.cards & ~m == 0
                assert d.points == sequence_points(RUN5_VALUES[v])[d.length]
                mask[v, m, i], top[v, m, i], length[v, m, i], points[v, m, i] = d.cards, d.rank, d.length, d.points
    return count, mask, top, length, points


_SEQ_COUNT, _SEQ_MASK, _SEQ_TOP, _SEQ_LEN, _SEQ_POINTS = _suit_tables()
_RUN5_50 = RUN5_VALUES.index(50)
#: carré points by [no-trump?][rank] (row 0: suit and all-trump contracts, row 1: no-trump)
_CARRE = np.array([CARRE_POINTS["suit"], CARRE_POINTS["no_trump"]], dtype=np.int64)
#: the four cards of each rank
_RANK_MASK = np.array([sum(1 << (8 * s + r) for s in range(NUM_SUITS)) for r in range(8)], dtype=np.int64)
_NO_TRUMP = NO_TRUMP
_MAX_DECLS = 16  # a 32-card mask holds at most 10 declarations (3+ cards each)


@njit(cache=True)
def declaration_summary(hand, denomination, carres=1, run5=100):
    """``(cards, points, key)`` (int64s) of ``best_declarations(hand, denomination,
    rules)`` with ``rules.carres`` (1 / 0) and ``rules.run5_value`` (100 / 50) as given;
    ``(0, 0, 0)`` when the hand declares nothing. See the module docstring."""
    hand = np.int64(hand) & np.int64(0xFFFFFFFF)
    nt = 1 if denomination == _NO_TRUMP else 0
    v = _RUN5_50 if run5 == 50 else 0
    # scoring carrés, in rank order (the reference's order); none under ``carres`` false
    c_mask = np.zeros(8, dtype=np.int64)
    c_key = np.zeros(8, dtype=np.int64)
    c_pts = np.zeros(8, dtype=np.int64)
    nc = 0
    for r in range(8):
        m = _RANK_MASK[r]
        if carres and hand & m == m and _CARRE[nt, r] > 0:
            c_mask[nc] = m
            c_pts[nc] = _CARRE[nt, r]
            c_key[nc] = (1 << _KIND_SHIFT) | (_CARRE[nt, r] << _A_SHIFT) | (r << _B_SHIFT)
            nc += 1
    keys = np.zeros(_MAX_DECLS, dtype=np.int64)
    best_keys = np.zeros(_MAX_DECLS, dtype=np.int64)
    best_n = -1  # no partition seen yet
    best_total = 0
    best_cards = 0
    for pick in range(1 << nc):
        n = 0
        total = 0
        cards = np.int64(0)
        rest = hand
        for i in range(nc):
            if pick >> i & 1:
                keys[n] = c_key[i]
                n += 1
                total += c_pts[i]
                cards |= c_mask[i]
                rest &= ~c_mask[i]
        for s in range(NUM_SUITS):
            bits = (rest >> (8 * s)) & 0xFF
            for j in range(_SEQ_COUNT[v, bits]):
                keys[n] = (_SEQ_LEN[v, bits, j] << _A_SHIFT) | (_SEQ_TOP[v, bits, j] << _B_SHIFT) | (
                    1 if s == denomination else 0)
                n += 1
                total += _SEQ_POINTS[v, bits, j]
                cards |= _SEQ_MASK[v, bits, j] << (8 * s)
        # strongest first (insertion sort, descending)
        for i in range(1, n):
            k = keys[i]
            j = i - 1
            while j >= 0 and keys[j] < k:
                keys[j + 1] = keys[j]
                j -= 1
            keys[j + 1] = k
        # (total, [strengths]) > best, Python tuple / list order
        if best_n < 0:
            better = True
        elif total != best_total:
            better = total > best_total
        else:
            better = False
            decided = False
            for i in range(min(n, best_n)):
                if keys[i] != best_keys[i]:
                    better = keys[i] > best_keys[i]
                    decided = True
                    break
            if not decided:  # one list a prefix of the other (unreachable: every declaration has points)
                better = n > best_n
        if better:
            best_n = n
            best_total = total
            best_cards = cards
            for i in range(n):
                best_keys[i] = keys[i]
    if best_total <= 0:
        return np.int64(0), np.int64(0), np.int64(0)
    return np.int64(best_cards), np.int64(best_total), np.int64(best_keys[0])


@njit(cache=True)
def declaration_team_points(keys, points, denomination, eldest, taker, tie):
    """``(team0, team1)`` declaration points (int64s) that score, as
    ``team_declaration_points`` with ``declarations="auto"``: the team holding the single
    strongest key scores both its seats' ``points``; a tie between the teams goes by
    ``tie`` (0 eldest's team, 1 nobody, 2 the first holder counting from ``taker``).
    ``denomination`` is already in the keys (kept for the reference's signature).

    Raises:
        ValueError: ``tie`` not 0..2, or ``tie`` 2 with ``taker`` not a seat 0..3.
    """
    if tie < 0 or tie > 2:
        raise ValueError("declaration tie code must be 0 (eldest), 1 (none) or 2 (taker_first)")
    if tie == 2 and (taker < 0 or taker > 3):
        raise ValueError("declaration tie taker_first needs the taker's seat 0..3")
    best = np.int64(0)
    for s in range(_NS):
        best = max(best, keys[s])
    if best <= 0:
        return np.int64(0), np.int64(0)
    held0 = False
    held1 = False
    for s in range(_NS):
        if keys[s] == best:
            if _TEAM[s] == 0:
                held0 = True
            else:
                held1 = True
    if held0 and not held1:
        team = 0
    elif held1 and not held0:
        team = 1
    elif tie == 0:
        team = _TEAM[eldest]
    elif tie == 2:
        team = 0
        for i in range(_NS):
            s = _AFTER[taker, i]
            if keys[s] == best:
                team = _TEAM[s]
                break
    else:
        return np.int64(0), np.int64(0)
    pts = np.int64(0)
    for s in range(_NS):
        if _TEAM[s] == team:
            pts += points[s]
    if team == 0:
        return pts, np.int64(0)
    return np.int64(0), pts
