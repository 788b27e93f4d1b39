"""Tier ``normal`` (RULES.md §12, seed 004: "reads the trick, saves its top trumps, trumps
when it must or should, and supports its partner"; tips of seeds 000 and 002).

Bidding: for each contract it may take, the hand (with the turned card, which the taker
receives) is valued: trump J 4.5, 9 3.5, A 2.5, 10 2, K / Q 1 (+4 for both), 7 / 8 0.5,
+1 per trump beyond two; side aces 1, a side 10 with its ace 1, a lone side 10 0.3.
It takes the turned suit in round 1 when the value reaches 7.5, and in round 2 names the
contract of highest value when it reaches 8 (seed 000 tip: passing lets the opponents
score); no-trump values aces 3, tens 1.5 with their ace; all-trump values jacks 3.5
(+1 with their nine) and lone nines 1; both count 1 less in round 2.

Coinche bidding (COINCHE.md): ``policies.coinche_bidding.normal_coinche_bid``, a hand
evaluation mapped to a level and a denomination, raising with a fitting partner,
coinching when the opponents' contract looks out of reach.

Play: it reads who wins the trick and whether that card is safe (the highest still out in
its suit, and no opponent still to play can ruff). As leader it draws trumps while the
opponents may hold some (when its side took) and it holds at least as many trumps as are
still out, cashes master cards, returns its partner's suit (as a defender), otherwise
leads low from its longest side suit. Following, when its partner is surely winning it adds points (its
highest-value non-trump card; with only trumps to play, the richest trump that will not be
the master trump after the trick, else its weakest), otherwise plays low;
when an opponent is winning it takes the trick with its cheapest winning card if it is
last to play or the trick is worth it, ruffing with its lowest sufficient trump (saving the
top trumps), else it plays its lowest card. Announcements and declarations are made.

Two and three players (TWO_THREE.md, ``rules.players`` 2 or 3): the proposal auction's bids and the
play without partners of ``policies.cutthroat_play`` (``normal_proposal_bid``, ``normal_cutthroat_play``).
"""

from __future__ import annotations

from belote_env import InfoSet
from belote_env.games import game_of
from belote_env.actions import DECLARE, PASS, TAKE, bid_denomination
from belote_env.cards import BEATS, FULL_DECK, NO_TRUMP, NUM_CARDS, NUM_SUITS, POINTS, STRENGTH, SUIT_MASK, Rank, card
from belote_env.inference import public_constraints
from belote_env.rules import trick_winner
from belote_env.table import NUM_SEATS, SEATS, TEAM_OF, partner_of, seats_from

from .base import with_belote
from .coinche_bidding import normal_coinche_bid
from .cutthroat_play import normal_cutthroat_play, normal_proposal_bid

__all__ = ["NormalPolicy", "hand_value"]

_TRUMP_VALUE = {Rank.JACK: 4.5, Rank.NINE: 3.5, Rank.ACE: 2.5, Rank.TEN: 2.0, Rank.KING: 1.0, Rank.QUEEN: 1.0,
                Rank.EIGHT: 0.5, Rank.SEVEN: 0.5}
TAKE_THRESHOLD = (7.5, 8.0)  # round 1, round 2
BELOTE_VALUE = 4.0  # K+Q of trump: the 20 points of belote
SIDE_ACE_VALUE = 1.0
WORTH_POINTS = 10  # a trick is worth winning (when not last to play) from this many points
THIRD_HAND_HIGH = True  # overtake a partner who may lose the trick, with a sure winner
RUFF_CAUTION = True  # treat an opponent with <= 2 possible cards of the led suit as a ruff risk


def _has(hand: int, rank: int, suit: int) -> bool:
    return bool(hand >> card(rank, suit) & 1)


def hand_value(hand: int, contract: int) -> float:
    """Heuristic value of an 8-ish card ``hand`` (mask) for ``contract`` (0..5)."""
    v = 0.0
    if contract < NUM_SUITS:
        trumps = hand & SUIT_MASK[contract]
        for r, val in _TRUMP_VALUE.items():
            if _has(hand, r, contract):
                v += val
        if _has(hand, Rank.KING, contract) and _has(hand, Rank.QUEEN, contract):
            v += BELOTE_VALUE
        v += max(0, trumps.bit_count() - 2)
        for s in range(NUM_SUITS):
            if s == contract:
                continue
            if _has(hand, Rank.ACE, s):
                v += SIDE_ACE_VALUE
                if _has(hand, Rank.TEN, s):
                    v += 1.0
            elif _has(hand, Rank.TEN, s):
                v += 0.3
        return v
    for s in range(NUM_SUITS):
        if contract == NO_TRUMP:
            if _has(hand, Rank.ACE, s):
                v += 3.0
                if _has(hand, Rank.TEN, s):
                    v += 1.5
        else:
            if _has(hand, Rank.JACK, s):
                v += 3.5
                if _has(hand, Rank.NINE, s):
                    v += 1.0
            elif _has(hand, Rank.NINE, s):
                v += 1.0
    return v


def _classic_bid(info: InfoSet) -> int:
    """Normal's bid in the classic auction (the module docstring's values and thresholds)."""
    legal = info.legal_actions
    hand = info.hand | (1 << info.turned_card)
    if TAKE in legal:
        k = info.turned_card >> 3
        return TAKE if hand_value(hand, k) >= TAKE_THRESHOLD[0] else PASS
    best, best_v = PASS, TAKE_THRESHOLD[1]
    for a in legal:
        if a == PASS:
            continue
        k = bid_denomination(a, info.turned_card >> 3)
        v = hand_value(hand, k) - (1.0 if k >= NUM_SUITS else 0.0)
        if v >= best_v:
            best, best_v = a, v
    return best


#: normal's bid by the game's auction (``games.Game.auction_kind``)
_BIDS = {"classic": _classic_bid, "coinche": normal_coinche_bid, "proposal": normal_proposal_bid}


class NormalPolicy:
    """Deterministic rule-based tier ``normal`` (see the module docstring)."""

    name = "normal"

    def __init__(self, seed: int | None = None):
        del seed  # deterministic

    def act(self, info: InfoSet) -> int:
        """The bid of the game's auction (``games.Game.auction_kind``), else the decision of
        its play protocol (``games.Game.play_protocol``): at four seats declarations are
        made and cards chosen by ``_play``."""
        game = game_of(info.rules)
        if info.contract is None:
            return _BIDS[game.auction_kind](info)
        if game.play_protocol == "cutthroat":  # two or three seats (TWO_THREE.md): policies.cutthroat_play
            return normal_cutthroat_play(info)
        legal = info.legal_actions
        if DECLARE in legal:
            return DECLARE
        cards = [a for a in legal if a < NUM_CARDS]
        return with_belote(info, self._play(info, cards))

    def _play(self, info: InfoSet, cards: list[int]) -> int:
        if len(cards) == 1:
            return cards[0]
        k = info.denomination
        pts, st = POINTS[k], STRENGTH[k]
        trump = SUIT_MASK[k] if k < NUM_SUITS else 0
        played = 0
        for m in info.played_by:
            played |= m
        out = FULL_DECK & ~played & ~info.hand  # cards the others may still hold
        me = info.seat
        cons = public_constraints(info)

        def master(c: int) -> bool:
            return not (BEATS[k][c] & out)

        def low_key(c: int):
            return (pts[c], c >> 3 == k if k < NUM_SUITS else False, st[c], c)

        trick = info.trick
        if not trick:
            return self._lead(info, cards, out, cons, master, low_key)
        pos = len(trick)
        win_pos = trick_winner(trick, k)
        win = trick[win_pos]
        partner_winning = win_pos == pos - 2
        trick_pts = sum(pts[c] for c in trick)
        # opponents still to play after me
        later_opps = [s for s in seats_from(info.trick_leader)[pos + 1:] if TEAM_OF[s] != TEAM_OF[me]]
        led = trick[0] >> 3

        def safe(c: int) -> bool:
            """Would card c (winning now) stay the winner against the opponents to come?"""
            for s in later_opps:
                poss = cons.possible(s)
                if c >> 3 == led or (k < NUM_SUITS and c >> 3 == k):
                    if poss & BEATS[k][c]:
                        return False
                if k < NUM_SUITS and c >> 3 != k and poss & trump and (
                        not poss & SUIT_MASK[led] or RUFF_CAUTION and (poss & SUIT_MASK[led]).bit_count() <= 2):
                    return False  # may ruff: void, or few cards of the suit left to hold
            return True

        if partner_winning and safe(win):
            non_trump = [c for c in cards if not trump >> c & 1]
            if not non_trump:  # only trumps to play (trump led): smother, but keep future masters
                return self._trump_on_partner(cards, trick, out, k)
            return max(non_trump, key=lambda c: (pts[c] if not master(c) or c >> 3 == led else pts[c] - 5, -st[c], -c))
        winners = [c for c in cards if trick_winner(list(trick) + [c], k) == pos]
        if partner_winning:
            if THIRD_HAND_HIGH:  # secure the partner's shaky trick with a sure winner of the suit
                sure = [c for c in winners if c >> 3 == led and safe(c)]
                if sure:
                    return min(sure, key=lambda c: (pts[c], st[c]))
            non_winning = [c for c in cards if c not in winners] or cards
            return min(non_winning, key=low_key)
        if winners:
            last = pos == NUM_SEATS - 1
            worth = last or trick_pts >= WORTH_POINTS or len(info.tricks) == 7
            ruffs = [c for c in winners if c >> 3 != led]  # trumps on a plain led suit
            if ruffs and worth:
                return min(ruffs, key=lambda c: st[c])  # lowest sufficient trump: save the top ones
            safe_winners = [c for c in winners if c >> 3 == led and (last or safe(c))]
            if safe_winners and (worth or trick_pts + max(pts[c] for c in safe_winners) >= WORTH_POINTS):
                return min(safe_winners, key=lambda c: (pts[c], st[c]))  # cheapest sure winner
        return min(cards, key=low_key)

    @staticmethod
    def _trump_on_partner(cards: list[int], trick: tuple[int, ...], out: int, k: int) -> int:
        """The trump to play on a trick the partner surely wins (RULES.md §4.1: trump led,
        a higher trump when one can, else any trump): the one worth most points among those
        that would not be the master trump once this trick is gone; when every one would
        be, the weakest (a master trump wins a trick later; seed 000 tip: save strong cards
        rather than give them to a trick already won)."""
        pts, st = POINTS[k], STRENGTH[k]
        gone = out
        for c in trick:
            gone &= ~(1 << c)
        spare = [c for c in cards if BEATS[k][c] & gone]
        if spare:
            return max(spare, key=lambda c: (pts[c], -st[c], -c))
        return min(cards, key=lambda c: (st[c], c))

    def _lead(self, info, cards, out, cons, master, low_key):
        k = info.denomination
        pts = POINTS[k]
        trump = SUIT_MASK[k] if k < NUM_SUITS else 0
        my_team = TEAM_OF[info.seat]
        our_side = TEAM_OF[info.taker] == my_team
        others_trumps = 0
        if trump:
            for s in SEATS:
                if TEAM_OF[s] != my_team:
                    others_trumps |= cons.possible(s) & trump
        my_trumps = [c for c in cards if trump >> c & 1]
        # draw trumps as the taker's side while the opponents may hold some, but only with
        # at least as many trumps as are still out (seed 000 tips: draw trumps early so the
        # opponents cannot ruff your plain masters, yet keep trumps for when you cannot
        # follow suit): drawing from a short trump suit leaves the defenders the last ruffs
        if our_side and my_trumps and others_trumps and len(my_trumps) >= (trump & out).bit_count():
            masters = [c for c in my_trumps if master(c)]
            if masters:
                return max(masters, key=lambda c: STRENGTH[k][c])
            if info.seat == info.taker and len(my_trumps) >= 3:
                return min(my_trumps, key=lambda c: STRENGTH[k][c])
        # cash plain master cards (not trumps)
        plain_masters = [c for c in cards if not trump >> c & 1 and master(c)]
        if plain_masters:
            return max(plain_masters, key=lambda c: pts[c])
        # as a defender, return the partner's suit (the suit of its first lead; RULES.md §12
        # "supports its partner"). The taker's side does not: its partner's first lead is a
        # low card from a long side suit, not a strength, and the defenders hold the rest
        partner = partner_of(info.seat)
        for leader, tcards, _ in info.tricks:
            if our_side:
                break
            if leader == partner:
                suit = tcards[0] >> 3
                same = [c for c in cards if c >> 3 == suit]
                if same:
                    return max(same, key=lambda c: STRENGTH[k][c]) if master(max(same, key=lambda c: STRENGTH[k][c])) \
                        else min(same, key=low_key)
                break
        # lead low from the longest side suit the opponents cannot ruff
        side = [c for c in cards if not trump >> c & 1] or cards
        by_suit: dict[int, list[int]] = {}
        for c in side:
            by_suit.setdefault(c >> 3, []).append(c)

        def ruffable(suit: int) -> bool:
            if not trump or suit == k:
                return False
            return any(not cons.possible(s) & SUIT_MASK[suit] and cons.possible(s) & trump
                       for s in SEATS if TEAM_OF[s] != my_team)

        suit = max(sorted(by_suit), key=lambda s: (not ruffable(s), len(by_suit[s])))
        return min(by_suit[suit], key=low_key)
