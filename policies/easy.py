"""Tier ``easy`` (RULES.md §12, seed 004: "easy plays the lowest legal card").

Play: the legal card of lowest point value under the contract, ties broken by the
weaker rank in the contract's order, then by card id (RULES.md §1 tables).

Bidding, one simple rule: in round 1 take when the hand holds the jack of the turned
card's suit; in round 2 name the suit (never the turned suit) in which the hand holds the
jack and at least one other card, the longest such suit first, then the lowest suit id;
otherwise pass. Coinche (COINCHE.md): ``policies.coinche_bidding.easy_coinche_bid`` (open 80 in the
longest suit with the jack and two more cards when nobody has bid, else pass; it never
coinches). Belote (with ``belote: optional``) is announced when the card it plays is the first of
the K+Q pair; under ``declarations: choice`` it plays its lowest card and so never
declares (the declaration comes with the first card, RULES.md §6).

Two and three players (TWO_THREE.md, ``rules.players`` 2 or 3): the proposal auction's bids and the
play without partners of ``policies.cutthroat_play`` (``easy_proposal_bid``, ``easy_cutthroat_play``).
"""

from __future__ import annotations

from belote_env import InfoSet
from belote_env.games import game_of
from belote_env.actions import PASS, TAKE, bid_denomination
from belote_env.cards import NUM_CARDS, NUM_SUITS, POINTS, STRENGTH, SUIT_MASK, Rank, card

from .base import with_belote
from .coinche_bidding import easy_coinche_bid
from .cutthroat_play import easy_cutthroat_play, easy_proposal_bid

__all__ = ["EasyPolicy"]


class EasyPolicy:
    """Deterministic rule-based tier ``easy`` (see the module docstring): its bid chosen by
    the game's auction (``games.Game.auction_kind``), its other decisions by the game's play
    protocol (``games.Game.play_protocol``)."""

    name = "easy"

    def __init__(self, seed: int | None = None):
        del seed  # deterministic

    def act(self, info: InfoSet) -> int:
        game = game_of(info.rules)
        if info.contract is None:
            return _BIDS[game.auction_kind](info)
        return _PLAYS[game.play_protocol](info)


def _classic_bid(info: InfoSet) -> int:
    """Easy's bid in the classic auction (the module docstring)."""
    legal, hand = info.legal_actions, info.hand
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


def _team_play(info: InfoSet) -> int:
    """Easy's card at four seats: the lowest (every decision after the auction there offers
    cards; a declaration comes with the first, RULES.md §6)."""
    k = info.denomination
    pts, st = POINTS[k], STRENGTH[k]
    return with_belote(info, min((c for c in info.legal_actions if c < NUM_CARDS), key=lambda c: (pts[c], st[c], c)))


#: easy's bid by the game's auction, its other decisions by its play protocol
_BIDS = {"classic": _classic_bid, "coinche": easy_coinche_bid, "proposal": easy_proposal_bid}
_PLAYS = {"team": _team_play, "cutthroat": easy_cutthroat_play}
