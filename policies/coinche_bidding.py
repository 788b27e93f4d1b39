"""Coinche auctions for the rule-based tiers (COINCHE.md §3; RULES.md §12).

Both tiers read the auction only from the seat's ``InfoSet`` (its public ``auction``
history, replayed by ``belote_env.auction.new_auction``) and its own hand.

* ``easy_coinche_bid``: one simple rule. With no bid yet, open 80 in the longest suit in
  which the hand holds the jack and at least two more cards; otherwise pass. It never
  raises, overcalls or coinches.
* ``normal_coinche_bid``: a hand evaluation mapped to a level and a denomination
  (``estimate_points``: the trick points the hand is worth under a contract, belote
  included; the level is the estimate plus ``PARTNER_POINTS`` for the partner, rounded
  down to 10); it opens or overcalls at that level, raises its partner's contract by what
  its hand adds (``support_points``), coinches when the opponents' contract looks out of
  reach (``defence_points`` plus the partner's share at least ``172 - level``), and
  surcoinches when its own estimate beats the coinched contract by 20.

Pure Python.
"""

from __future__ import annotations

from belote_env import InfoSet
from belote_env.actions import COINCHE, PASS, SURCOINCHE, bid_denomination, coinche_bid_action, is_coinche_bid
from belote_env.auction import new_auction
from belote_env.cards import ALL_TRUMP, NO_TRUMP, NUM_SUITS, SUIT_MASK, SUITS, Rank, card
from belote_env.contract import CAPOT
from belote_env.table import partner_of

__all__ = ["easy_coinche_bid", "normal_coinche_bid", "estimate_points", "support_points", "defence_points",
           "PARTNER_POINTS"]

#: what the partner's hand is assumed to add to the takers' trick points
PARTNER_POINTS = 40
#: a hand estimated at this many points (partner included) bids capot
CAPOT_ESTIMATE = 200
#: what the partner is assumed to take in defence (the coinche test)
PARTNER_DEFENCE = 30


def _has(hand: int, rank: int, suit: int) -> bool:
    return bool(hand >> card(rank, suit) & 1)


def _side_points(hand: int, trump: int) -> float:
    v = 0.0
    for s in SUITS:
        if s == trump:
            continue
        if _has(hand, Rank.ACE, s):
            v += 11
            if _has(hand, Rank.TEN, s):
                v += 10
        elif _has(hand, Rank.TEN, s):
            v += 2
    return v


def estimate_points(hand: int, denomination: int) -> float:
    """Trick points (belote included) an 8-card ``hand`` (mask) is worth to its side under
    a contract of ``denomination`` 0..5, before the partner's share: trump J 20, 9 14 (7
    without J or three trumps), A 11 (6), 10 8, K and Q 3, 7 and 8 2, 10 per trump beyond
    three, belote 20, a void side suit 5 with three trumps; side A 11, A+10 21, a lone 10
    2. No-trump: aces 11, A+10 21; all-trump: J 20, 9 with its J 14, belote 20 a pair."""
    if denomination < NUM_SUITS:
        t = denomination
        n = (hand & SUIT_MASK[t]).bit_count()
        strong = _has(hand, Rank.JACK, t) or n >= 3
        v = 20.0 * _has(hand, Rank.JACK, t)
        v += (14 if strong else 7) * _has(hand, Rank.NINE, t)
        v += (11 if strong else 6) * _has(hand, Rank.ACE, t)
        v += 8 * _has(hand, Rank.TEN, t) + 3 * (_has(hand, Rank.KING, t) + _has(hand, Rank.QUEEN, t))
        v += 2 * (_has(hand, Rank.SEVEN, t) + _has(hand, Rank.EIGHT, t))
        v += 10 * max(0, n - 3)
        if _has(hand, Rank.KING, t) and _has(hand, Rank.QUEEN, t):
            v += 20
        if n >= 3:
            v += 5 * sum(1 for s in SUITS if s != t and not hand & SUIT_MASK[s])
        return v + _side_points(hand, t)
    v = 0.0
    for s in SUITS:
        if denomination == NO_TRUMP:
            if _has(hand, Rank.ACE, s):
                v += 11 + 10 * _has(hand, Rank.TEN, s)
        elif _has(hand, Rank.JACK, s):
            v += 20 + 14 * _has(hand, Rank.NINE, s) + 20 * (_has(hand, Rank.KING, s) and _has(hand, Rank.QUEEN, s))
    return v


def support_points(hand: int, denomination: int) -> float:
    """What ``hand`` adds to its partner's contract of ``denomination``: trump J 20, 9 14,
    A 10 (suit contracts), side aces 11 and their tens 10, belote 20."""
    v = 0.0
    if denomination < NUM_SUITS:
        t = denomination
        v += 20 * _has(hand, Rank.JACK, t) + 14 * _has(hand, Rank.NINE, t) + 10 * _has(hand, Rank.ACE, t)
        if _has(hand, Rank.KING, t) and _has(hand, Rank.QUEEN, t):
            v += 20
        return v + _side_points(hand, t)
    return estimate_points(hand, denomination)


def defence_points(hand: int, denomination: int) -> float:
    """Trick points ``hand`` is expected to take against a contract of ``denomination``:
    trump J 20, 9 14 with another trump, A 11 with another trump, side aces 11 and their
    tens 10 (at no-trump every ace and ten; at all-trump every jack)."""
    if denomination < NUM_SUITS:
        t = denomination
        n = (hand & SUIT_MASK[t]).bit_count()
        v = 20.0 * _has(hand, Rank.JACK, t)
        if n >= 2:
            v += 14 * _has(hand, Rank.NINE, t) + 11 * _has(hand, Rank.ACE, t)
        return v + _side_points(hand, t)
    if denomination == ALL_TRUMP:
        return sum(20.0 * _has(hand, Rank.JACK, s) for s in SUITS)
    return _side_points(hand, -1)


def _legal_bid(legal, level, d: int) -> int | None:
    try:
        a = coinche_bid_action(level, d)
    except ValueError:
        return None
    return a if a in legal else None


def _numeric(level) -> int:
    return 250 if level == CAPOT else 500 if level == "generale" else level


def easy_coinche_bid(info: InfoSet) -> int:
    """Tier easy's coinche decision (module docstring): open 80 in its longest suit with
    the jack and two more cards when nobody has bid yet, else pass."""
    legal = info.legal_actions
    auction = new_auction(info.dealer, info.turned_card, info.rules, info.auction)
    if auction.highest is None:
        best, best_n = None, 2
        for s in SUITS:
            n = (info.hand & SUIT_MASK[s]).bit_count()
            if _has(info.hand, Rank.JACK, s) and n > best_n:
                a = _legal_bid(legal, 80, s)
                if a is not None:
                    best, best_n = a, n
        if best is not None:
            return best
    return PASS if PASS in legal else legal[0]


def normal_coinche_bid(info: InfoSet) -> int:
    """Tier normal's coinche decision (module docstring)."""
    legal = info.legal_actions
    hand, me = info.hand, info.seat
    fallback = PASS if PASS in legal else legal[0]
    auction = new_auction(info.dealer, info.turned_card, info.rules, info.auction)
    high = auction.highest  # (level, denomination, bidder) or None
    # every denomination some legal bid names (levels above 160 and générale included)
    denominations = sorted({bid_denomination(a, -1) for a in legal if is_coinche_bid(a)})
    if SURCOINCHE in legal and high is not None:
        level, d, _ = high
        if estimate_points(hand, d) + PARTNER_POINTS >= _numeric(level) + 20:
            return SURCOINCHE
    if high is not None and high[2] != me and high[2] != partner_of(me):
        level, d, _ = high
        if COINCHE in legal and defence_points(hand, d) + PARTNER_DEFENCE >= 172 - min(_numeric(level), 162):
            return COINCHE
    current = 0 if high is None else _numeric(high[0])
    best, best_level = None, current
    for d in denominations:
        if high is not None and high[2] == partner_of(me):
            if d != high[1]:
                continue
            est = current + support_points(hand, d) - 20  # the partner bid its hand; we add ours
        else:
            est = estimate_points(hand, d) + PARTNER_POINTS
        if est >= CAPOT_ESTIMATE:
            a = _legal_bid(legal, "capot", d)
            if a is not None and 250 > best_level:
                best, best_level = a, 250
                continue
        level = min(int(est // 10) * 10, info.rules.max_numeric_bid)
        if level >= 80 and level > best_level:
            a = _legal_bid(legal, level, d)
            if a is not None:
                best, best_level = a, level
    return best if best is not None else fallback
