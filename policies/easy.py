"""Tier ``easy`` (RULES.md §12, seed 004: "easy plays the lowest legal card").

Play: the legal card of lowest point value under the contract, ties broken by the
weaker rank in the contract's order, then by card id (RULES.md §1 tables).

Bidding, one simple rule: in round 1 take when the hand holds the jack of the turned
card's suit; in round 2 name the suit (never the turned suit) in which the hand holds the
jack and at least one other card, the longest such suit first, then the lowest suit id;
otherwise pass. Optional announcements are always made: belote (with ``belote:
optional``) when the card it plays is the first of the K+Q pair, declarations always.
"""

from __future__ import annotations

from belote_env import InfoSet
from belote_env.actions import ANNOUNCE_BELOTE, DECLARE, NAME_CONTRACT, PASS, TAKE
from belote_env.cards import POINTS, STRENGTH, SUIT_MASK, Rank, card

__all__ = ["EasyPolicy"]


def _holds_pair(hand: int, c: int) -> bool:
    s = c >> 3
    return bool(hand >> card(Rank.KING, s) & 1 and hand >> card(Rank.QUEEN, s) & 1)


class EasyPolicy:
    """Deterministic rule-based tier ``easy`` (see the module docstring)."""

    name = "easy"

    def __init__(self, seed: int | None = None):
        del seed  # deterministic

    def act(self, info: InfoSet) -> int:
        legal = info.legal_actions
        if legal[0] < 32:  # card play
            k = info.contract
            pts, st = POINTS[k], STRENGTH[k]
            choice = min((c for c in legal if c < 32), key=lambda c: (pts[c], st[c], c))
            if ANNOUNCE_BELOTE in legal and choice & 7 in (Rank.KING, Rank.QUEEN) and _holds_pair(info.hand, choice):
                return ANNOUNCE_BELOTE  # announce with the card it is about to play
            return choice
        if DECLARE in legal:
            return DECLARE
        hand = info.hand
        if TAKE in legal:
            turned_suit = info.turned_card >> 3
            return TAKE if hand >> card(Rank.JACK, turned_suit) & 1 else PASS
        best, best_len = PASS, 1
        for s in range(4):
            a = NAME_CONTRACT + s
            if a in legal and hand >> card(Rank.JACK, s) & 1:
                n = (hand & SUIT_MASK[s]).bit_count()
                if n > best_len:
                    best, best_len = a, n
        return best
