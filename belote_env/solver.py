"""Double-dummy solver for the play phase (all four hands known; RULES.md §4, §7).

``solve(position)`` returns the exact number of card points (dix de der included) the
takers win from the current position on, with both sides playing perfectly to maximise /
minimise it, and ``card_values`` gives that value after each legal card. Belote and
declarations are fixed before the play and do not depend on it, so they are left out.

Search: alpha-beta (the takers maximise) with a transposition table of bounds at trick
boundaries (key: the four hands and the leader), moves ordered strongest first, and
equivalent cards searched once: cards of one hand that are adjacent in the contract's
order of a suit, once every card between them has been played, and worth the same points.

Pure Python (no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import NUM_CARDS, POINTS_BY_ALL_TRUMP_OPTION, STRENGTH, SUIT_MASK
from .config import Rules
from .game import GameState, Phase
from .rules import legal_cards, trick_winner

__all__ = ["Position", "solve", "card_values", "position_of", "Solver"]


@dataclass(frozen=True)
class Position:
    """A play-phase position with every hand known.

    Attributes:
        hands: per seat, the 32-bit mask of its cards.
        contract: contract kind 0..5.
        taker: the taker's seat (its team maximises).
        trick: cards already in the current trick, in play order.
        leader: the seat that led the current trick.
        rules: rule options (obligations, all-trump points).
    """

    hands: tuple[int, int, int, int]
    contract: int
    taker: int
    trick: tuple[int, ...]
    leader: int
    rules: Rules = Rules()

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % 4


def position_of(state: GameState) -> Position:
    """The ``Position`` of a ``GameState`` in card play (raises ``ValueError`` otherwise)."""
    if state.phase != Phase.PLAY:
        raise ValueError("the solver needs a state in the card-play phase")
    return Position(tuple(state.hands), state.contract, state.taker, tuple(state.trick), state.trick_leader,
                    state.rules)


class Solver:
    """Reusable solver for one contract and rule set (keeps its transposition table)."""

    def __init__(self, contract: int, taker: int, rules: Rules = Rules()):
        self.k, self.team, self.rules = contract, taker & 1, rules
        self.points = POINTS_BY_ALL_TRUMP_OPTION[rules.all_trump_points][contract]
        self.strength = STRENGTH[contract]
        self.tt: dict[tuple, tuple[int, int]] = {}
        self.nodes = 0
        # cards of each suit, strongest first, under this contract
        self.order = [sorted((c for c in range(NUM_CARDS) if SUIT_MASK[s] >> c & 1), key=lambda c: -self.strength[c])
                      for s in range(4)]

    def _moves(self, hand: int, trick: list[int], out: int) -> list[int]:
        """Legal cards, strongest first, one per equivalence class."""
        legal = legal_cards(hand, trick, self.k, self.rules)
        moves = []
        for s in range(4):
            m = legal & SUIT_MASK[s]
            if not m:
                continue
            prev = -1
            for c in self.order[s]:
                if m >> c & 1:
                    if prev >= 0 and self.points[prev] == self.points[c]:
                        continue  # equivalent to the previous card kept: same points, nothing between
                    moves.append(c)
                    prev = c
                elif out >> c & 1:
                    prev = -1  # a card still in play (another hand) separates them
        moves.sort(key=lambda c: -self.strength[c])
        return moves

    def value(self, hands: list[int], trick: list[int], leader: int, alpha: int = -1, beta: int = 1000) -> int:
        """Takers' card points from here on (exact within the window ``(alpha, beta)``)."""
        self.nodes += 1
        seat = (leader + len(trick)) % 4
        if not trick:
            if not any(hands):
                return 0
            key = (hands[0], hands[1], hands[2], hands[3], leader)
            lo, hi = self.tt.get(key, (0, 1000))
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha0, beta0 = alpha, beta
            alpha, beta = max(alpha, lo), min(beta, hi)
        out = hands[0] | hands[1] | hands[2] | hands[3]
        maximise = (seat & 1) == self.team
        best = -1 if maximise else 1001
        for c in self._moves(hands[seat], trick, out & ~hands[seat]):
            hands[seat] &= ~(1 << c)
            trick.append(c)
            if len(trick) == 4:
                win_seat = (leader + trick_winner(trick, self.k)) % 4
                pts = sum(self.points[x] for x in trick)
                if not any(hands):
                    pts += 10  # dix de der
                gain = pts if (win_seat & 1) == self.team else 0
                saved = trick[:]
                trick.clear()
                v = gain + self.value(hands, trick, win_seat, alpha - gain, beta - gain)
                trick.extend(saved)
            else:
                v = self.value(hands, trick, leader, alpha, beta)
            trick.pop()
            hands[seat] |= 1 << c
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
        if not trick:
            lo, hi = self.tt.get(key, (0, 1000))
            if best <= alpha0:
                hi = min(hi, best)
            elif best >= beta0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi)
        return best


def solve(position: Position) -> int:
    """Exact card points (0..162, dix de der included) the takers win from ``position``
    on with perfect play by both sides."""
    s = Solver(position.contract, position.taker, position.rules)
    return s.value(list(position.hands), list(position.trick), position.leader)


def card_values(position: Position) -> dict[int, int]:
    """For each legal card of the seat to play, the takers' card points from the position
    on (the trick in progress included) if that card is played and play is then perfect."""
    s = Solver(position.contract, position.taker, position.rules)
    hands, trick = list(position.hands), list(position.trick)
    seat = position.to_play
    out = {}
    legal = legal_cards(hands[seat], trick, position.contract, position.rules)
    for c in range(NUM_CARDS):
        if not legal >> c & 1:
            continue
        hands[seat] &= ~(1 << c)
        trick.append(c)
        if len(trick) == 4:
            win_seat = (position.leader + trick_winner(trick, position.contract)) % 4
            pts = sum(s.points[x] for x in trick) + (10 if not any(hands) else 0)
            gain = pts if (win_seat & 1) == s.team else 0
            out[c] = gain + s.value(hands, [], win_seat)
        else:
            out[c] = s.value(hands, trick, position.leader)
        trick.pop()
        hands[seat] |= 1 << c
    return out


