"""The rule-based tiers ``easy`` and ``normal`` at two- and three-player tables
(TWO_THREE.md; ``Rules(players=2|3)``, presets ``seed001_2p`` / ``seed001_3p``).

Both read only the seat's ``InfoSet`` (TWO_THREE.md §5) and
return one of its ``legal_actions``. ``EasyPolicy`` / ``NormalPolicy`` bid with
``easy_proposal_bid`` / ``normal_proposal_bid`` in the proposal auction
(``games.Game.auction_kind``) and play with ``easy_cutthroat_play`` /
``normal_cutthroat_play`` at a table without partners (``games.Game.play_protocol``);
``easy_cutthroat_act`` / ``normal_cutthroat_act`` are the two together.

Decisions shared by both tiers (TWO_THREE.md §2.5-§2.7):

* the seven of trumps (§2.5, A9): always exchanged when legal (the turned card is higher);
* declarations under ``declarations: choice`` (§2.6): announce when the hand holds a
  sequence; answer ``not enough`` when legal (the answerer's value is higher), else
  ``same`` when legal (equal value: the top cards decide), else ``enough``;
* belote under ``belote: optional`` (§2.7, A17): always claimed with the second card;
* redeal proposals (§2.3): neither tier proposes one (a refused proposal makes the weak
  proposer maker).

``easy``: bids the turned suit in round 1 when the hand holds its jack and one more trump
of J 9 A 10, or its jack in three cards of the suit; names in round 2 the longest such suit
(never the turned one); agrees to a redeal when it holds no jack; plays the legal card of
fewest points, then the weakest (RULES.md §12's easy); discards (``10_each``) the cheapest
non-trumps.

``normal``: at two seats values each suit as trump with ``bid_value``: a weighted sum
of hand features (``BID_FEATURES``: trump honours and length, belote, side aces and
tens, voids, sequences, the seven exchange for the turned card) whose weights
(``BID_WEIGHTS``, per round and position) estimate the deal's point difference of
bidding less passing, fitted offline by least squares on counterfactual bidding
decisions against easy; it accepts / names when the value exceeds ``BID_MARGIN``. At
three seats it values each suit with ``estimate`` (the points the 6 known cards are
worth, §2.4 adds 3 unknown ones) and accepts / names when the value reaches
``TAKE_THRESHOLD[players]`` (round 2: ``+ ROUND2_MARGIN``). It refuses a proposed redeal
unless its own hand is weak (best value under ``AGREE_BELOW``: the proposer, who must
then play, signalled weakness). Card play tracks the cards (played, out of play, public
voids): as maker it draws trumps with the master trump or with length, cashes sure
winners, at two seats (maker or defender) then leads the top 10 / K / Q of a side suit
that holds no higher card (``HIGH_LEAD_MAKER`` / ``HIGH_LEAD_DEFENDER``), else leads low
from its longest side suit; at three seats the defenders are
partners (§3: the maker plays alone) and return each other's suit, never lead trumps,
and smear points on a partner's safe trick; following, it takes a trick with its
cheapest sure winner when the trick is worth it (or it is last to play), ruffs with its
lowest sufficient trump, and otherwise plays its cheapest card.

Units: points are card points (trump J 20, 9 14, A 11, 10 10, K 4, Q 3; plain A 11, 10 10,
K 4, Q 3, J 2); cards are ids 0..31 (``suit * 8 + rank``), hands 32-bit masks.

Pure Python.
"""

from __future__ import annotations

from belote_env.actions import (
    AGREE_REDEAL, ANSWER_ENOUGH, ANSWER_EQUAL, ANSWER_NOT_ENOUGH, DECLARE, DECLINE_DECLARE,
    EXCHANGE_SEVEN, KEEP, NAME_CONTRACT, PASS, REFUSE_REDEAL, TAKE, is_name_suit,
)
from belote_env.cards import BEATS, FULL_DECK, NUM_CARDS, NUM_SUITS, POINTS, STRENGTH, SUIT_MASK, Rank, card
from belote_env.deprecation import renamed_in
from belote_env.games import game_of
from belote_env.rules import trick_winner

from .base import with_belote

__all__ = ["easy_cutthroat_act", "normal_cutthroat_act", "easy_proposal_bid", "easy_cutthroat_play",
           "normal_proposal_bid", "normal_cutthroat_play", "estimate", "easy_strong", "TAKE_THRESHOLD", "ROUND2_MARGIN",
           "AGREE_BELOW"]

#: normal's accept threshold on ``estimate`` per table size (points of the 6 known cards)
TAKE_THRESHOLD = {2: 35.0, 3: 50.0}
#: extra value normal asks for to name a suit in round 2 (the turned suit was refused)
ROUND2_MARGIN = 4.0
#: weight of the hand's sequences (20 / 50, §2.6) in ``estimate``: they score only when
#: they beat the others', so they count at part of their value
SEQ_WEIGHT = 0.0
#: normal agrees to a proposed redeal when its best ``estimate`` is below this
AGREE_BELOW = 22.0

#: normal's maker leads its lowest trump with this many trumps (no master trump), per
#: table size; above 3 only while it holds as many trumps as may be out (two seats: 4 won
#: 75.8% of games against easy, 3 74.2%, 9 = never 75.1%, 2 67.7%; 2000 game sets)
DRAW_WITH = {2: 4, 3: 3}
#: two seats: the maker / the defender leads from its shortest side suit (else longest;
#: no measurable effect: maker 75.4% vs 75.8%, defender 76.1% vs 75.8%, 2000 game sets)
SHORT_LEAD_MAKER = False
SHORT_LEAD_DEFENDER = False
#: two seats: after cashing its masters the maker / the defender leads the top card of a
#: side suit when it is a 10, K or Q that is not master (no higher card of the suit in
#: hand, the suit not ruffable): the opponent may hold only lower cards of the suit, and
#: easy then plays one of them. 2000 game sets, normal vs easy: off 76.2% of games (diff
#: +21.2 a deal); 10s only, defender 77.7%, maker 78.9%, both 80.5%; 10s before the
#: masters 80.3%; 10s and Ks 82.2%; 10s, Ks and Qs 83.0% (+27.5); with Js too 80.8%
HIGH_LEAD_MAKER = True
HIGH_LEAD_DEFENDER = True
#: normal cashes its sure side winners as a defender too (else only as maker)
DEFENDER_CASHES = True
#: normal, last to play, does not ruff a trick worth fewer points than this (0: it does)
NO_EMPTY_RUFF = 0

_TRUMP_EST = {Rank.JACK: 20.0, Rank.NINE: 14.0, Rank.ACE: 11.0, Rank.TEN: 10.0, Rank.KING: 4.0, Rank.QUEEN: 3.0,
              Rank.EIGHT: 2.0, Rank.SEVEN: 2.0}
_STEP_CARDS = 3  # STEPS index of card play in game.STEPS
_STEP_DISCARD = 1


def _has(hand: int, rank: int, suit: int) -> bool:
    return bool(hand >> card(rank, suit) & 1)


def estimate(hand: int, trump: int, turned_card: int = -1, round1: bool = False, takes_turned: bool = False) -> float:
    """Normal's value (points) of ``hand`` (mask, the 6 cards known while bidding) with
    ``trump`` (0..3) as trump: trump J 20, 9 14 (7 without the J and under 3 trumps), A 11,
    10 10, K 4, Q 3, 7 / 8 2, belote (K+Q) 20, 8 per trump beyond two; side A 11, a side 10
    with its ace 10, a side 10 with one more card 3; in round 1 with the seven of trumps the
    turned card is counted (the exchange, §2.5); ``takes_turned`` (``10_each`` /
    ``24_card``: the taker receives it) counts it too."""
    h = hand
    if turned_card >= 0 and turned_card >> 3 == trump and (
            takes_turned or round1 and _has(h, Rank.SEVEN, trump) and turned_card & 7 != Rank.SEVEN):
        h = h | 1 << turned_card
        if not takes_turned:
            h &= ~(1 << card(Rank.SEVEN, trump))
    n = (h & SUIT_MASK[trump]).bit_count()
    v = 0.0
    for r, val in _TRUMP_EST.items():
        if _has(h, r, trump):
            v += val
    if _has(h, Rank.NINE, trump) and not _has(h, Rank.JACK, trump) and n < 3:
        v -= 7.0
    if _has(h, Rank.KING, trump) and _has(h, Rank.QUEEN, trump):
        v += 20.0
    v += 8.0 * max(0, n - 2)
    for s in range(NUM_SUITS):
        if s == trump:
            continue
        if _has(h, Rank.ACE, s):
            v += 11.0
            if _has(h, Rank.TEN, s):
                v += 10.0
        elif _has(h, Rank.TEN, s) and (h & SUIT_MASK[s]).bit_count() >= 2:
            v += 3.0
    return v + SEQ_WEIGHT * _sequence_points(h)


def _sequence_points(hand: int) -> float:
    """Points of the hand's sequences (3 in a row 20, 4 or more 50; natural order, §2.6)."""
    v = 0.0
    for s in range(NUM_SUITS):
        run = 0
        for r in (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, -1):
            if r >= 0 and _has(hand, r, s):
                run += 1
                continue
            v += 50.0 if run >= 4 else 20.0 if run == 3 else 0.0
            run = 0
    return v


def easy_strong(hand: int, suit: int) -> bool:
    """Easy's test of a trump suit: its jack and one more of 9 A 10, or its jack in three
    cards of the suit."""
    if not _has(hand, Rank.JACK, suit):
        return False
    return (any(_has(hand, r, suit) for r in (Rank.NINE, Rank.ACE, Rank.TEN))
            or (hand & SUIT_MASK[suit]).bit_count() >= 3)


# ---------------------------------------------------------------------------- shared
def _named(legal) -> list[int]:
    return [a for a in legal if is_name_suit(a)]


def _protocol(info, legal) -> int | None:
    """The shared non-card decisions (module docstring), or None."""
    if len(legal) == 1:
        return legal[0]
    if EXCHANGE_SEVEN in legal:
        return EXCHANGE_SEVEN
    if KEEP in legal:
        return KEEP
    if DECLARE in legal:
        return DECLARE
    for a in (ANSWER_NOT_ENOUGH, ANSWER_EQUAL, ANSWER_ENOUGH, DECLINE_DECLARE):
        if a in legal:
            return a
    return None


def _discard(info, cards: list[int]) -> int:
    """The taker's discard (``10_each``): its cheapest non-trump, the weakest first."""
    t = info.denomination
    pts, st = POINTS[t], STRENGTH[t]
    return min(cards, key=lambda c: (c >> 3 == t, pts[c], st[c], c))


def _lowest(info, cards: list[int]) -> int:
    t = info.denomination
    pts, st = POINTS[t], STRENGTH[t]
    return min(cards, key=lambda c: (pts[c], c >> 3 == t, st[c], c))


# ---------------------------------------------------------------------------- easy
def easy_proposal_bid(info) -> int:
    """Tier ``easy``'s bid in the proposal auction (TWO_THREE.md §2.3; module docstring)."""
    legal = info.legal_actions
    if len(legal) == 1:
        return legal[0]
    hand = info.hand
    if AGREE_REDEAL in legal:
        has_jack = any(_has(hand, Rank.JACK, s) for s in range(NUM_SUITS))
        return REFUSE_REDEAL if has_jack else AGREE_REDEAL
    if TAKE in legal:
        return TAKE if easy_strong(hand, info.turned_card >> 3) else PASS
    named = _named(legal)
    best, best_n = (PASS if PASS in legal else None), 0
    for a in named:
        s = a - NAME_CONTRACT
        n = (hand & SUIT_MASK[s]).bit_count()
        if easy_strong(hand, s) and n > best_n:
            best, best_n = a, n
    if best is None:  # must name (a refused proposal): the longest suit
        best = max(named, key=lambda a: ((hand & SUIT_MASK[a - NAME_CONTRACT]).bit_count(), -a))
    return best


def easy_cutthroat_play(info) -> int:
    """Tier ``easy``'s decisions after the auction at a table without partners: the seven,
    declarations and answers, discards and cards (module docstring)."""
    legal = info.legal_actions
    a = _protocol(info, legal)
    if a is not None:
        return a
    cards = [a for a in legal if a < NUM_CARDS]
    if info.step == _STEP_DISCARD:
        return _discard(info, cards)
    return with_belote(info, _lowest(info, cards))


def easy_cutthroat_act(info) -> int:
    """Tier ``easy`` at two or three seats: ``easy_proposal_bid`` in the auction, else
    ``easy_cutthroat_play``."""
    return easy_proposal_bid(info) if info.contract is None else easy_cutthroat_play(info)


# ---------------------------------------------------------------------------- normal
#: two seats: normal's bid value is a sum of these weights (points of the deal's expected
#: difference, taking less passing) over the features of ``_bid_features``, per context
#: (bidding round, elder?). Fitted by least squares (ridge) on about 100 000 counterfactual
#: bidding decisions of normal against easy (each option played out to the deal's end).
BID_FEATURES = ("const", "trump J", "trump 9", "trump A", "trump 10", "trump K", "trump Q", "trump 7/8",
                "trumps beyond 2", "trumps beyond 3", "belote", "9 without J", "side aces", "side A with 10",
                "side 10 with another", "side bare 10", "side K without A", "void suits", "singletons",
                "turned honour lost", "sequences / 20", "bare trump J")
BID_WEIGHTS = {
    (1, False): (-92, 81, 57, 40, 48, 52, 52, 41, 7, -1, 23, 5, 9, 13, 9, 9, 2, -25, -9, -6, -9, -12),
    (1, True): (-84, 85, 65, 40, 47, 51, 49, 40, 11, 0, 19, -5, 7, 10, 7, 6, 2, -37, -15, -4, -10, -21),
    (2, False): (-100, 52, 47, 36, 35, 32, 33, 21, 6, -9, 17, -3, 18, 11, 9, 12, 3, 2, 3, 0, 19, -11),
    (2, True): (-88, 60, 46, 29, 31, 31, 31, 21, 4, -5, 13, -5, 10, 10, 8, 8, 2, 2, 2, 0, 9, -16),
}
#: two seats: normal bids when its ``bid_value`` exceeds this (per round; 2000 game sets:
#: {1: 0, 2: 0} 76.0% of games, diff +20.1; {1: 0, 2: 8} 76.2%, +21.1; {1: 5, 2: 8} 76.2%;
#: {1: -10} 73.6%; {2: -10} 72.5%)
BID_MARGIN = {1: 0.0, 2: 8.0}
#: two seats: use ``bid_value`` (else the older ``estimate`` thresholds)
LINEAR_BID = True


def _bid_features(hand: int, t: int, turned: int, round1: bool) -> list[float]:
    """The features of ``BID_FEATURES`` for ``hand`` (the 6 known cards) with trump ``t``;
    in round 1 the seven of trumps is exchanged for the turned card, and a turned J / 9 /
    A / 10 not taken this way counts as lost (the opponent may exchange for it)."""
    h = hand
    lost = 0
    if round1:
        if _has(h, Rank.SEVEN, t) and turned & 7 != Rank.SEVEN:
            h = (h | 1 << turned) & ~(1 << card(Rank.SEVEN, t))
        elif turned & 7 in (Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN):
            lost = 1
    n = (h & SUIT_MASK[t]).bit_count()
    tj, t9 = _has(h, Rank.JACK, t), _has(h, Rank.NINE, t)
    tk, tq = _has(h, Rank.KING, t), _has(h, Rank.QUEEN, t)
    f = [1, tj, t9, _has(h, Rank.ACE, t), _has(h, Rank.TEN, t), tk, tq,
         _has(h, Rank.EIGHT, t) + _has(h, Rank.SEVEN, t), max(0, n - 2), max(0, n - 3), tk and tq, t9 and not tj]
    s_a = s_a10 = s_10x = s_10b = s_k = void = single = 0
    for s in range(NUM_SUITS):
        if s == t:
            continue
        m = (h & SUIT_MASK[s]).bit_count()
        if _has(h, Rank.ACE, s):
            s_a += 1
            s_a10 += _has(h, Rank.TEN, s)
        elif _has(h, Rank.TEN, s):
            if m >= 2:
                s_10x += 1
            else:
                s_10b += 1
        s_k += _has(h, Rank.KING, s) and not _has(h, Rank.ACE, s)
        void += m == 0
        single += m == 1
    f += [s_a, s_a10, s_10x, s_10b, s_k, void, single, lost, _sequence_points(h) / 20.0, tj and n == 1]
    return f


def bid_value(hand: int, t: int, turned: int, round1: bool, elder: bool) -> float:
    """Normal's two-seat value of making ``t`` trump now, less passing (``BID_WEIGHTS``)."""
    w = BID_WEIGHTS[(1 if round1 else 2, elder)]
    return sum(a * b for a, b in zip(w, _bid_features(hand, t, turned, round1)))


def _normal_bid(info, legal) -> int:
    n = info.players
    if n == 2 and LINEAR_BID and AGREE_REDEAL not in legal:
        return _linear_bid(info, legal)
    hand = info.hand
    turned = info.turned_card
    deal = info.rules.three_player_deal
    takes_turned = deal in ("10_each", "24_card")
    if AGREE_REDEAL in legal:
        best = max(estimate(hand, s, turned, True, takes_turned) for s in range(NUM_SUITS))
        return AGREE_REDEAL if best < AGREE_BELOW else REFUSE_REDEAL
    thr = TAKE_THRESHOLD[n]
    if TAKE in legal:
        v = estimate(hand, turned >> 3, turned, True, takes_turned)
        return TAKE if v >= thr else PASS
    named = _named(legal)
    if not named:
        return PASS if PASS in legal else legal[0]
    vals = {a: estimate(hand, a - NAME_CONTRACT) for a in named}
    best = max(named, key=lambda a: (vals[a], -a))
    if PASS not in legal or vals[best] >= thr + ROUND2_MARGIN:
        return best
    return PASS


def _linear_bid(info, legal) -> int:
    hand, turned = info.hand, info.turned_card
    elder = info.seat != info.dealer
    if TAKE in legal:
        v = bid_value(hand, turned >> 3, turned, True, elder)
        return TAKE if v > BID_MARGIN[1] else PASS
    named = _named(legal)
    if not named:
        return PASS if PASS in legal else legal[0]
    vals = {a: bid_value(hand, a - NAME_CONTRACT, turned, False, elder) for a in named}
    best = max(named, key=lambda a: (vals[a], -a))
    if PASS not in legal or vals[best] > BID_MARGIN[2]:
        return best
    return PASS


class _View:
    """What normal's card play reads from an ``InfoSet``."""

    __slots__ = ("info", "n", "me", "t", "pts", "st", "trump", "out", "possible", "opps", "partner", "maker")

    def __init__(self, info):
        self.info = info
        self.n = n = info.players
        self.me = me = info.seat
        self.t = t = info.denomination
        self.pts, self.st = POINTS[t], STRENGTH[t]
        self.trump = SUIT_MASK[t]
        played = 0
        for m in info.played_by:
            played |= m
        played |= sum(1 << c for c in info.trick)
        self.out = FULL_DECK & ~played & ~info.hand & ~info.out_of_play  # held by another seat, or unused
        cannot, known = info.public_knowledge
        self.possible = [0 if s == me else (self.out & ~cannot[s]) | (known[s] & ~played) for s in range(n)]
        for s in range(n):
            if s != me and info.hand_sizes[s] == 0:
                self.possible[s] = 0
        self.maker = info.taker
        if n == 3 and me != self.maker:
            self.partner = 3 - me - self.maker
            self.opps = [self.maker]
        else:
            self.partner = -1
            self.opps = [s for s in range(n) if s != me]

    def master(self, c: int) -> bool:
        """No card another seat may hold beats ``c`` in its suit."""
        return not BEATS[self.t][c] & self.out

    def low_key(self, c: int):
        return (self.pts[c], c >> 3 == self.t, self.st[c], c)


def _normal_play(info, cards: list[int]) -> int:
    if len(cards) == 1:
        return cards[0]
    v = _View(info)
    if not info.trick:
        return _lead(v, cards)
    return _follow(v, cards)


def _lead(v: _View, cards: list[int]) -> int:
    info, t, trump = v.info, v.t, v.trump
    pts, st = v.pts, v.st
    my_trumps = [c for c in cards if c >> 3 == t]
    opp_trumps = any(v.possible[s] & trump for s in v.opps)
    am_maker = v.me == v.maker
    if am_maker and my_trumps and opp_trumps:
        top = max(my_trumps, key=lambda c: st[c])
        if v.master(top):
            return top
        out_trumps = (v.out & trump).bit_count()
        draw = DRAW_WITH[v.n]
        if len(my_trumps) >= draw and (draw <= 3 or len(my_trumps) >= out_trumps):
            return min(my_trumps, key=lambda c: st[c])

    def ruffable(suit: int) -> bool:
        return any(not v.possible[s] & SUIT_MASK[suit] and v.possible[s] & trump for s in v.opps)

    high_lead = (HIGH_LEAD_MAKER if am_maker else HIGH_LEAD_DEFENDER) and v.n == 2
    plain_masters = [c for c in cards if c >> 3 != t and v.master(c) and not ruffable(c >> 3)]
    if plain_masters and (am_maker or DEFENDER_CASHES):
        return max(plain_masters, key=lambda c: (pts[c], c))
    if not am_maker and v.partner >= 0:  # a defender returns its partner's first-led suit (§3)
        for leader, tcards, _ in info.tricks:
            if leader == v.partner:
                same = [c for c in cards if c >> 3 == tcards[0] >> 3 and c >> 3 != t]
                if same:
                    top = max(same, key=lambda c: st[c])
                    return top if v.master(top) else min(same, key=v.low_key)
                break
    if high_lead:
        hand = info.hand
        tops = [c for c in cards if c >> 3 != t and c & 7 in (Rank.TEN, Rank.KING, Rank.QUEEN) and not v.master(c)
                and not hand & SUIT_MASK[c >> 3] & BEATS[t][c] and not ruffable(c >> 3)]
        if tops:
            return max(tops, key=lambda c: (pts[c], -(hand & SUIT_MASK[c >> 3]).bit_count(), c))
    if am_maker and not opp_trumps and my_trumps and len(my_trumps) == len(cards):
        return max(my_trumps, key=lambda c: st[c])
    side = [c for c in cards if c >> 3 != t] or cards
    by_suit: dict[int, list[int]] = {}
    for c in side:
        by_suit.setdefault(c >> 3, []).append(c)

    def unguarded_ten(suit: int) -> bool:  # leading from 10 x without the ace gives the 10 away
        cs = by_suit[suit]
        return any(c & 7 == Rank.TEN for c in cs) and not any(c & 7 == Rank.ACE for c in cs) and len(cs) <= 2

    sign = -1 if (SHORT_LEAD_MAKER if am_maker else SHORT_LEAD_DEFENDER) and v.n == 2 else 1
    suit = max(sorted(by_suit), key=lambda s: (not ruffable(s) or s == t, not unguarded_ten(s), sign * len(by_suit[s])))
    return min(by_suit[suit], key=v.low_key)


def _follow(v: _View, cards: list[int]) -> int:
    info, t, trump = v.info, v.t, v.trump
    pts, st = v.pts, v.st
    trick = list(info.trick)
    n, pos = v.n, len(trick)
    led = trick[0] >> 3
    win_pos = trick_winner(trick, t)
    win_seat = (info.trick_leader + win_pos) % n
    win = trick[win_pos]
    trick_pts = sum(pts[c] for c in trick)
    later = [(info.trick_leader + i) % n for i in range(pos + 1, n)]
    later_opps = [s for s in later if s in v.opps]
    last = pos == n - 1
    last_trick = sum(info.hand_sizes) <= n  # this is the last trick: 10 more points

    def safe(c: int) -> bool:
        """Would ``c`` (winning now) stay the winner against the opponents still to play?"""
        for s in later_opps:
            poss = v.possible[s]
            may_be_void = not poss & SUIT_MASK[led] or (poss & SUIT_MASK[led]).bit_count() <= 1
            if c >> 3 == led and poss & BEATS[t][c]:
                return False  # a higher card of the suit
            if c >> 3 != t and poss & trump and may_be_void:
                return False  # a ruff
            if c >> 3 == t and led != t and poss & BEATS[t][c] and may_be_void:
                return False  # an overruff
        return True

    partner_winning = v.partner >= 0 and win_seat == v.partner
    if partner_winning and safe(win):
        non_trump = [c for c in cards if c >> 3 != t]
        if non_trump:
            return max(non_trump, key=lambda c: (pts[c] - (6 if v.master(c) and c >> 3 != led else 0), -st[c], -c))
        return min(cards, key=lambda c: (v.master(c), -pts[c] if not v.master(c) else st[c], c))
    winners = [c for c in cards if trick_winner(trick + [c], t) == pos]
    if partner_winning:
        sure = [c for c in winners if safe(c) and c >> 3 == led]
        if sure:
            return min(sure, key=lambda c: (pts[c], st[c]))
        losing = [c for c in cards if c not in winners] or cards
        return min(losing, key=v.low_key)
    if winners:
        worth = last or last_trick or trick_pts >= 10
        if last:
            best = min(winners, key=lambda c: (pts[c] if c >> 3 == led else pts[c] + 4, st[c], c))
            if NO_EMPTY_RUFF and best >> 3 != led and trick_pts < NO_EMPTY_RUFF and not last_trick:
                return min([c for c in cards if c not in winners] or cards, key=v.low_key)
            if trick_pts + pts[best] > 0 or last_trick or best >> 3 == led and pts[best] == 0:
                return best
        ruffs = [c for c in winners if c >> 3 == t and led != t and safe(c)]
        if ruffs and worth:
            return min(ruffs, key=lambda c: (st[c], c))
        safe_w = [c for c in winners if c >> 3 == led and safe(c)]
        if safe_w and (worth or trick_pts + min(pts[c] for c in safe_w) >= 10):
            return min(safe_w, key=lambda c: (pts[c], st[c]))
        if led == t and safe_w:
            return min(safe_w, key=lambda c: (st[c], c))
    return min(cards, key=v.low_key)


def normal_proposal_bid(info) -> int:
    """Tier ``normal``'s bid in the proposal auction (TWO_THREE.md §2.3; module docstring)."""
    legal = info.legal_actions
    return legal[0] if len(legal) == 1 else _normal_bid(info, legal)


def normal_cutthroat_play(info) -> int:
    """Tier ``normal``'s decisions after the auction at a table without partners (module
    docstring)."""
    legal = info.legal_actions
    a = _protocol(info, legal)
    if a is not None:
        return a
    cards = [a for a in legal if a < NUM_CARDS]
    if info.step == _STEP_DISCARD:
        return _discard(info, cards)
    return with_belote(info, _normal_play(info, cards))


def normal_cutthroat_act(info) -> int:
    """Tier ``normal`` at two or three seats: ``normal_proposal_bid`` in the auction, else
    ``normal_cutthroat_play``."""
    return normal_proposal_bid(info) if info.contract is None else normal_cutthroat_play(info)


def _seats_for_themselves(info) -> bool:
    rules = getattr(info, "rules", None)
    return rules is not None and not game_of(rules).has_partners


__getattr__ = renamed_in(__name__, globals(), {
    "easy_small_act": "easy_cutthroat_act",
    "normal_small_act": "normal_cutthroat_act",
}, {
    "is_small": ("not belote_env.games.game_of(info.rules).has_partners", lambda: _seats_for_themselves)})
