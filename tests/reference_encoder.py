"""The straightforward information-set encoder of observation v1 (the first release's
code, kept as the reference the fast encoder must match index for index)."""

import numpy as np

from belote_env.actions import NAME_CONTRACT, PASS, TAKE
from belote_env.cards import FULL_DECK, POINTS_BY_ALL_TRUMP_OPTION, STRENGTH, SUIT_MASK
from belote_env.inference import public_constraints
from belote_env.infoset import InfoSet
from belote_env.observation import OBS_SIZE
from belote_env.rules import trick_winner

_HAND, _TURNED, _BID1, _BID2, _CONTRACT, _TAKER, _DEALER = 0, 32, 64, 72, 100, 106, 110
_TRICK, _PLAYED, _LEADER, _PHASE, _NTRICKS, _POINTS, _ANN, _SCORES = 114, 242, 370, 374, 378, 386, 390, 398
_LEGAL, _UNSEEN, _MASTER, _WINNER, _LED, _TRICK_PTS = 401, 433, 465, 497, 501, 505
_VOIDS, _HOLDERS, _DECL = 506, 518, 614


def _bits(mask: int, base: int, out: list) -> None:
    """Append ``base + c`` for every card ``c`` in ``mask``."""
    while mask:
        low = mask & -mask
        out.append(base + low.bit_length() - 1)
        mask ^= low


def reference_encode(info: InfoSet, out: np.ndarray | None = None) -> np.ndarray:
    """Encode one seat's information set (layout in the module docstring).

    Args:
        info: the seat's ``InfoSet``.
        out: optional float32 array of shape ``(OBS_SIZE,)`` to fill (zeroed first).
    Returns:
        float32 array of shape ``(OBS_SIZE,)``, values in [0, 1] except the game scores
        (divided by 1000 whatever the target, so above 1 past 1000 points) and the litige
        reserve (/ 162, above 1 after successive ties).
    """
    if out is None:
        out = np.zeros(OBS_SIZE, dtype=np.float32)
    else:
        out.fill(0.0)
    me = info.seat
    ones: list[int] = []  # indices set to 1.0, written in one numpy call at the end
    _bits(info.hand, _HAND, ones)
    ones.append(_TURNED + info.turned_card)
    for i, (seat, action) in enumerate(info.auction):
        r = (seat - me) % 4
        if i < 4:
            ones.append(_BID1 + 2 * r + (action == TAKE))
        else:
            ones.append(_BID2 + 7 * r + (0 if action == PASS else 1 + action - NAME_CONTRACT))
    k = info.denomination
    if k >= 0:
        ones.append(_CONTRACT + k)
        ones.append(_TAKER + (info.taker - me) % 4)
    ones.append(_DEALER + (info.dealer - me) % 4)
    leader = info.trick_leader
    trick = info.trick
    for i, c in enumerate(trick):
        ones.append(_TRICK + 32 * ((leader + i - me) % 4) + c)
    played = 0
    for seat in range(4):
        m = info.played_by[seat]
        if m:
            played |= m
            _bits(m, _PLAYED + 32 * ((seat - me) % 4), ones)
    ones.append(_LEADER + (leader - me) % 4)
    legal = info.legal_actions
    if info.phase == 0:
        ones.append(_PHASE + (0 if info.bid_round == 1 else 1))
    elif info.phase == 1:
        ones.append(_PHASE + (3 if legal and legal[0] >= 32 else 2))
    n = len(info.tricks)
    if n < 8:
        ones.append(_NTRICKS + n)
    us = me & 1
    won_us = 0
    for _, _, w in info.tricks:
        won_us += (w & 1) == us
    for seat, kind, _ in info.announcements:
        ones.append(_ANN + 2 * ((seat - me) % 4) + (kind == "rebelote"))
    # derived blocks
    for c in legal:
        if c < 32:
            ones.append(_LEGAL + c)
    unseen = FULL_DECK & ~(info.hand | played)
    _bits(unseen, _UNSEEN, ones)
    trick_pts = 0.0
    if k >= 0:
        strength = STRENGTH[k]
        out_cards = unseen | info.hand
        for suit in range(4):
            rest = out_cards & SUIT_MASK[suit]
            if rest & info.hand:
                top, best = -1, -1
                while rest:
                    low = rest & -rest
                    c = low.bit_length() - 1
                    rest ^= low
                    if strength[c] > best:
                        top, best = c, strength[c]
                if info.hand >> top & 1:
                    ones.append(_MASTER + top)
        if trick:
            ones.append(_WINNER + (leader + trick_winner(trick, k) - me) % 4)
            ones.append(_LED + (trick[0] >> 3))
            pts = POINTS_BY_ALL_TRUMP_OPTION[info.rules.all_trump_points][k]
            trick_pts = sum(pts[c] for c in trick) / 80.0
    # belief block
    cons = public_constraints(info)
    for r in (1, 2, 3):
        possible = cons.possible((me + r) % 4)
        base = _VOIDS + 4 * (r - 1)
        for suit in range(4):
            if not possible & SUIT_MASK[suit]:
                ones.append(base + suit)
        while possible:
            low = possible & -possible
            ones.append(_HOLDERS + 3 * (low.bit_length() - 1) + r - 1)
            possible ^= low
    out[ones] = 1.0
    out[_POINTS] = info.card_points[us] / 162.0
    out[_POINTS + 1] = info.card_points[1 - us] / 162.0
    out[_POINTS + 2] = won_us / 8.0
    out[_POINTS + 3] = (n - won_us) / 8.0
    out[_SCORES] = info.scores[us] / 1000.0
    out[_SCORES + 1] = info.scores[1 - us] / 1000.0
    out[_SCORES + 2] = info.reserve / 162.0
    out[_TRICK_PTS] = trick_pts
    for seat in range(4):
        if info.declared[seat]:
            out[_DECL + (seat - me) % 4] = sum(d.points for d in info.declared[seat]) / 350.0
    return out
