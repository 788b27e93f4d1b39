"""Tier ``easy`` (RULES.md §12, seed 004: "easy plays the lowest legal card").

Play: the legal card of lowest point value under the contract, ties broken by the
weaker rank in the contract's order, then by card id (RULES.md §1 tables).

Bidding, one simple rule: in round 1 take when the hand holds the jack of the turned
card's suit; in round 2 name the suit (never the turned suit) in which the hand holds the
jack and at least one other card, the longest such suit first, then the lowest suit id;
otherwise pass. Coinche (COINCHE.md): ``policies.coinche_bidding.easy_coinche_bid`` (open 80 in the
longest suit with the jack and two more cards when nobody has bid, else pass; it never
coinches). Optional announcements are always made: belote (with ``belote:
optional``) when the card it plays is the first of the K+Q pair, declarations always.

Two and three players (TWO_THREE.md, ``rules.players`` 2 or 3): ``policies.cutthroat_play.easy_cutthroat_act``.
"""

from __future__ import annotations

from belote_env import InfoSet
from belote_env.games import game_of
from belote_env.actions import DECLARE, PASS, TAKE, bid_denomination
from belote_env.cards import NUM_CARDS, NUM_SUITS, POINTS, STRENGTH, SUIT_MASK, Rank, card

from .base import with_belote
from .coinche_bidding import easy_coinche_bid
from .cutthroat_play import easy_cutthroat_act

__all__ = ["EasyPolicy"]


class EasyPolicy:
    """Deterministic rule-based tier ``easy`` (see the module docstring)."""

    name = "easy"

    def __init__(self, seed: int | None = None):
        del seed  # deterministic

    def act(self, info: InfoSet) -> int:
        if not game_of(info.rules).has_partners:  # two or three seats (TWO_THREE.md): policies.cutthroat_play
            return easy_cutthroat_act(info)
        legal = info.legal_actions
        if legal[0] < NUM_CARDS:  # card play
            k = info.denomination
            pts, st = POINTS[k], STRENGTH[k]
            return with_belote(info, min((c for c in legal if c < NUM_CARDS), key=lambda c: (pts[c], st[c], c)))
        if DECLARE in legal:
            return DECLARE
        if info.rules.contract_mode == "coinche":
            return easy_coinche_bid(info)
        hand = info.hand
        if TAKE in legal:
            turned_suit = info.turned_card >> 3
            return TAKE if hand >> card(Rank.JACK, turned_suit) & 1 else PASS
        best, best_len = PASS, 1
        for a in legal:  # ascending: the suits in order, then no-trump and all-trump
            s = bid_denomination(a, info.turned_card >> 3)
            if s is not None and s < NUM_SUITS and hand >> card(Rank.JACK, s) & 1:
                n = (hand & SUIT_MASK[s]).bit_count()
                if n > best_len:
                    best, best_len = a, n
        return best
