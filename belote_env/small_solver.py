"""Double-dummy solver for the play of the two- and three-player games (every hand known;
TWO_THREE.md §2.8, §3).

``small_solve(position)`` is the exact number of card points (the last trick's 10
included) the maker wins from the current position on, the maker maximising and the
other seats (the opponent, or the two defenders sharing the side's value, TWO_THREE.md's
expert) minimising; ``small_card_values(position)`` gives that value after each
legal card of the seat to play. Combinations, belote and the capot bonus are fixed before
the play or are not card points and are left out: add them, and
``GameState.card_points`` (points so far), for the deal's totals.

Legal cards are ``rules.legal_cards`` (one rule, one place). Search: alpha-beta
with a transposition table of lower / upper bounds at trick boundaries, keyed by the
remaining hands and the leader; moves ordered by a cheap heuristic (a winning card
first); cards adjacent in the trump / plain order of a suit within one hand, with no
other remaining card between them and the same point value, are searched once.

Pure Python (no numba): a two-seat deal (18 cards) solves in milliseconds, a three-seat
deal (27 cards) in about a second from its first trick (``scripts/bench_search.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import NUM_CARDS, POINTS_BY_ALL_TRUMP_OPTION, STRENGTH, cards_of
from .deprecation import renamed
from .rules import POWER, co_defender_pos, legal_cards, trick_winner

__all__ = ["SmallPosition", "small_position_of", "small_solve", "small_card_values", "LAST_TRICK_POINTS"]

LAST_TRICK_POINTS = 10
_POINTS = POINTS_BY_ALL_TRUMP_OPTION["pagat"]


@dataclass(frozen=True)
class SmallPosition:
    """A play position of a two- or three-seat deal.

    Attributes:
        hands: per seat the 32-bit mask of its remaining cards (every hand known).
        trick: the cards of the trick in progress, in play order.
        leader: the seat that led it.
        denomination: the trump suit 0..3 (``trump``: a deprecated alias).
        taker: the taker's seat, the maximising side (``maker``: a deprecated alias).
        rules: the rule options (``players`` 2 or 3; the play options).
    """

    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    denomination: int
    taker: int
    rules: object

    trump = renamed("denomination")  # the old names
    maker = renamed("taker")

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)


def small_position_of(state) -> SmallPosition:
    """The play position of a two- or three-seat ``GameState`` in its card step (every hand known)."""
    return SmallPosition(tuple(state.hands), tuple(state.trick), state.trick_leader, state.denomination, state.taker,
                         state.rules)


class _Search:
    def __init__(self, pos: SmallPosition):
        self.n = len(pos.hands)
        self.trump = pos.denomination
        self.maker = pos.taker
        self.rules = pos.rules
        self.pts = _POINTS[pos.denomination]
        self.tt: dict = {}
        self.strength = STRENGTH[pos.denomination]

    def partner_pos(self, seat: int, leader: int, trick_len: int) -> int:
        return co_defender_pos(seat, self.maker, leader, trick_len, self.rules)

    def moves(self, hands, trick, leader, seat) -> list[int]:
        legal = legal_cards(hands[seat], trick, self.trump, self.rules,
                                  self.partner_pos(seat, leader, len(trick)))
        cards = cards_of(legal)
        if len(cards) > 1:  # equivalent cards: adjacent in the suit's order, same points
            rest = 0
            for h in hands:
                rest |= h
            rest &= ~hands[seat]
            keep = []
            strength, pts = self.strength, self.pts
            by_suit: dict[int, list[int]] = {}
            for c in cards:
                by_suit.setdefault(c >> 3, []).append(c)
            for s, cs in by_suit.items():
                cs.sort(key=lambda c: strength[c])
                prev = -1
                for c in cs:
                    if prev >= 0 and pts[c] == pts[prev]:
                        between = False
                        for x in range(8 * s, 8 * s + 8):
                            if rest >> x & 1 and strength[prev] < strength[x] < strength[c]:
                                between = True
                                break
                        if not between:
                            prev = c
                            continue
                    keep.append(c)
                    prev = c
            cards = keep
        # order: cards that would win the trick now first, higher points first
        if trick:
            power = POWER[self.trump][trick[0] >> 3]
            best = max(power[c] for c in trick)
            cards.sort(key=lambda c: (power[c] <= best, -self.pts[c]))
        else:
            cards.sort(key=lambda c: (-self.strength[c] - (16 if c >> 3 == self.trump else 0)))
        return cards

    def value(self, hands: tuple, trick: tuple, leader: int, alpha: int, beta: int) -> int:
        """The maker's card points from here on (fail-soft alpha-beta)."""
        if not trick:
            if not any(hands):
                return 0
            key = (hands, leader)
            hit = self.tt.get(key)
            if hit is not None:
                lo, hi = hit
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha, beta = max(alpha, lo), min(beta, hi)
            else:
                lo, hi = 0, 1 << 20
            a0, b0 = alpha, beta
            v = self._node(hands, trick, leader, alpha, beta)
            if v <= a0:
                hi = min(hi, v)
            elif v >= b0:
                lo = max(lo, v)
            else:
                lo = hi = v
            self.tt[key] = (lo, hi)
            return v
        return self._node(hands, trick, leader, alpha, beta)

    def _node(self, hands: tuple, trick: tuple, leader: int, alpha: int, beta: int) -> int:
        n = self.n
        seat = (leader + len(trick)) % n
        maximise = seat == self.maker
        best = -1 if maximise else 1 << 20
        for c in self.moves(hands, trick, leader, seat):
            h = list(hands)
            h[seat] &= ~(1 << c)
            h = tuple(h)
            t = trick + (c,)
            if len(t) == n:
                winner = (leader + trick_winner(t, self.trump)) % n
                gain = sum(self.pts[x] for x in t)
                if not any(h):
                    gain += LAST_TRICK_POINTS
                got = gain if winner == self.maker else 0
                v = got + self.value(h, (), winner, alpha - got, beta - got)
            else:
                v = self.value(h, t, leader, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best


def small_solve(pos: SmallPosition) -> int:
    """The maker's exact card points from ``pos`` to the end of the deal (both sides
    playing perfectly); an int >= 0 (points)."""
    return _Search(pos).value(tuple(pos.hands), tuple(pos.trick), pos.leader, -1, 1 << 20)


def small_card_values(pos: SmallPosition) -> dict[int, int]:
    """For each legal card of the seat to play, the maker's exact card points from
    ``pos`` on after that card (a dict card id -> points; the seat to play maximises
    them if it is the maker, else minimises them). Raises ``ValueError`` when the seat to
    play holds no card."""
    s = _Search(pos)
    seat = pos.to_play
    hands = tuple(pos.hands)
    if not hands[seat]:
        raise ValueError("the seat to play holds no card: the deal is over")
    trick = tuple(pos.trick)
    out = {}
    legal = legal_cards(hands[seat], trick, pos.denomination, pos.rules, s.partner_pos(seat, pos.leader, len(trick)))
    for c in cards_of(legal):
        h = list(hands)
        h[seat] &= ~(1 << c)
        h = tuple(h)
        t = trick + (c,)
        if len(t) == s.n:
            winner = (pos.leader + trick_winner(t, pos.denomination)) % s.n
            gain = sum(s.pts[x] for x in t) + (LAST_TRICK_POINTS if not any(h) else 0)
            out[c] = (gain if winner == pos.taker else 0) + s.value(h, (), winner, -1, 1 << 20)
        else:
            out[c] = s.value(h, t, pos.leader, -1, 1 << 20)
    return out


_ = NUM_CARDS
