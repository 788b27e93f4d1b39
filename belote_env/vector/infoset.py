"""One seat's ``InfoSet`` at one table of a ``BatchedGame`` (RULES.md §11).

``infoset_of(game, j, seat)`` builds, from the batched state, the same ``InfoSet`` as
``GameState.information_set(seat)`` would for that deal (the differential harness,
``tests/vector_harness.py``, asserts equality at every step): what lets the rule-based
tiers and any ``Policy`` act on batched tables. It reads only what the seat may know
(its hand, the public history, the engine's public constraints): every other seat's
hand size comes from the cards it played, not from its hand.
"""

from __future__ import annotations

import numpy as np

from ..actions import coinche_bid_level
from ..contract import GENERALE, Contract
from ..declarations import best_declarations
from ..infoset import InfoSet
from ..rules import trick_winner
from ..table import NEXT_SEAT, SEATS, absolute_seat, is_seat
from ..dealing import FIRST_HAND, HAND_SIZE
from .engine import COL, PHASE_BIDDING, PHASE_PLAY
from .layout import seq_cards

__all__ = ["infoset_of"]

_C = COL
_DEALT = 8  # cards a seat holds once the deal is completed (RULES.md §3.5)


def infoset_of(game, j: int, seat: int) -> InfoSet:
    """``seat``'s information set at table ``j`` of ``game`` (a ``BatchedGame``).

    Raises ``ValueError`` for a table outside ``0..game.n - 1`` or a seat outside 0..3, and
    for a table whose deal is over (``PHASE_OVER``: nothing to decide)."""
    if isinstance(j, bool) or not hasattr(j, "__index__") or not 0 <= j < game.n or not is_seat(seat):
        raise ValueError(f"table must be 0..{game.n - 1} and seat 0..3, got table {j!r}, seat {seat!r}")
    row = game.state[j].tolist()
    phase = row[_C["phase"]]
    if phase > PHASE_PLAY:
        raise ValueError(f"table {j}: the deal is over (no information set to act on)")
    dealer = row[_C["dealer"]]
    eldest = NEXT_SEAT[dealer]
    k, taker = row[_C["denomination"]], row[_C["taker"]]
    coinche = row[_C["turned"]] < 0  # coinche: nothing turned (COINCHE.md §2)
    auction = []
    for s, a in game.bids[j].tolist():
        if s < 0:
            break
        auction.append((s, a))
    if taker < 0:
        contract = None
    elif coinche:
        contract = Contract(taker, k, coinche_bid_level(row[_C["auc_bid"]]), row[_C["multiplier"]])
    else:
        contract = Contract(taker, k)
    hand = row[_C["hand0"] + seat]
    played = row[_C["played0"]:_C["played0"] + 4]
    n_tricks, n = row[_C["n_tricks"]], row[_C["trick_len"]]
    seq = seq_cards(row, 4 * n_tricks + n)
    ann_cards = row[_C["ann0"]:_C["ann0"] + 4]
    tricks, announcements, leader = [], [], eldest
    if contract is not None and contract.level == GENERALE and game.rules.generale_leads:
        leader = taker  # the générale's bidder leads (COINCHE.md §4)
    for t in range(n_tricks + 1):
        cards = seq[4 * t:4 * t + 4]
        who = leader
        for c in cards:
            if ann_cards[who] >> c & 1:
                announcements.append((who, "belote", c))
            elif c & 7 in (5, 6) and ann_cards[who] >> (c ^ 3) & 1:  # Q <-> K of the suit
                announcements.append((who, "rebelote", c))
            who = NEXT_SEAT[who]
        if t < n_tricks:
            winner = absolute_seat(trick_winner(cards, k), leader)
            tricks.append((leader, tuple(cards), winner))
            leader = winner
    declared_bits = row[_C["declared"]]
    # a seat's declarations are public once made (RULES.md §6): the best partition of the
    # cards it declared is the partition it declared
    declared = tuple(best_declarations(row[_C["decl_cards0"] + s], k, game.rules) if declared_bits >> s & 1 else ()
                     for s in SEATS)
    current = row[_C["current"]]
    acting = current == seat
    return InfoSet(
        seat=seat, dealer=dealer, phase=phase, current_seat=current, hand=hand,
        turned_card=row[_C["turned"]], auction=tuple(auction), bid_round=row[_C["bid_round"]],
        contract=contract, denomination=k, taker=taker,
        trick=tuple(seq[4 * n_tricks:]), trick_leader=row[_C["leader"]], tricks=tuple(tricks),
        played_by=tuple(played),
        hand_sizes=tuple((HAND_SIZE if coinche else FIRST_HAND) if phase == PHASE_BIDDING else _DEALT - p.bit_count()
                         for p in played),
        card_points=(row[_C["points0"]], row[_C["points1"]]), announcements=tuple(announcements),
        declared=declared, scores=(0, 0), reserve=0, deal_number=0,
        legal_actions=tuple(np.flatnonzero(game.mask[j]).tolist()) if acting else (),
        rules=game.rules,
        public_knowledge=(tuple(row[_C["cannot0"]:_C["cannot0"] + 4]), tuple(row[_C["known0"]:_C["known0"] + 4])),
    )

