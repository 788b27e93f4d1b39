"""What the public history tells about the hidden hands (RULES.md §4, §5, §6, §11).

From one seat's ``InfoSet`` alone, ``public_constraints`` derives, for every seat, the
cards it certainly does not hold and the cards it certainly holds:

* a seat that did not follow the led suit lacks that suit;
* a seat that discarded when it had to trump lacks trumps;
* a seat that played under the winning trump when it had to overtrump (trump led, or an
  opponent's ruff) holds no higher trump; at all-trump, one that followed without beating
  the winning card holds no higher card of that suit;
* with ``belote="auto"``, a seat that played the K (Q) of a belote suit without
  announcing "belote" did not hold the Q (K); one that announced holds the other card;
* declared cards not yet played are held by their declarer; the taker holds the turned
  card until it is played.

The viewer's own seat is exact (its hand). These constraints are what the belief block
of the observation and ``sampling.sample_hidden_hands`` use.

Pure Python (no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ALL_TRUMP, BEATS, FULL_DECK, NO_TRUMP, NUM_SUITS, SUIT_MASK, SUITS, TRUMP_MASK, Rank, card
from .infoset import InfoSet
from .rules import trick_winner
from .table import NUM_SEATS, SEATS, seats_from

__all__ = ["Constraints", "public_constraints", "possible_holdings", "LOCATIONS", "STOCK"]

_KING, _QUEEN = Rank.KING, Rank.QUEEN
#: the locations of a hidden card: the seats, then the stock (``STOCK``, while bidding)
STOCK = NUM_SEATS
LOCATIONS = range(NUM_SEATS + 1)


@dataclass(frozen=True)
class Constraints:
    """Public knowledge about where the unseen cards are, from one seat's view.

    Attributes (masks are 32-bit ints; index 4 is the stock, non-empty only while bidding):
        viewer: the seat whose information set this comes from.
        hidden: cards the viewer cannot see and that are not yet played (including the
            face-up turned card while bidding is excluded: it is public).
        cannot: per location 0..4, hidden cards it certainly does not hold.
        known: per location 0..4, hidden cards it certainly holds.
        sizes: per location 0..4, how many hidden cards it holds (the viewer: 0).
    """

    viewer: int
    hidden: int
    cannot: tuple[int, int, int, int, int]
    known: tuple[int, int, int, int, int]
    sizes: tuple[int, int, int, int, int]

    def possible(self, location: int) -> int:
        """Hidden cards that ``location`` may hold."""
        return self.hidden & ~self.cannot[location]


def public_constraints(info: InfoSet) -> Constraints:
    """Derive the ``Constraints`` of ``info`` (see the module docstring)."""
    me, rules, k = info.seat, info.rules, info.contract
    hidden = FULL_DECK & ~info.hand
    for played in info.played_by:
        hidden &= ~played
    cannot = [0] * len(LOCATIONS)
    known = [0] * len(LOCATIONS)
    bidding = info.contract < 0
    if bidding:
        hidden &= ~(1 << info.turned_card)
        sizes = [5] * NUM_SEATS + [11]
    else:
        sizes = [info.hand_sizes[s] for s in SEATS] + [0]
    sizes[me] = 0
    if not bidding and info.public_knowledge is not None:  # kept by the engine card by card
        cannot[:NUM_SEATS] = info.public_knowledge[0]
        known[:NUM_SEATS] = info.public_knowledge[1]
    elif not bidding:
        trump_mask = TRUMP_MASK[k]
        tricks = [(leader, cards) for leader, cards, _ in info.tricks]
        if info.trick:
            tricks.append((info.trick_leader, info.trick))
        for leader, cards in tricks:
            led = cards[0] >> 3
            order = seats_from(leader)
            for p in range(1, len(cards)):
                seat = order[p]
                c = cards[p]
                prefix = cards[:p]
                win_pos = trick_winner(prefix, k)
                win = prefix[win_pos]
                partner_winning = win_pos == p - 2
                if c >> 3 == led:
                    if k == ALL_TRUMP or (k < NUM_SUITS and led == k):
                        if not BEATS[k][win] >> c & 1:  # did not beat the winner: holds nothing above it
                            cannot[seat] |= BEATS[k][win]
                    continue
                cannot[seat] |= SUIT_MASK[led]
                if k >= NUM_SUITS:  # no-trump / all-trump: free discard when void
                    continue
                if partner_winning and rules.partner_master_free:
                    continue
                if not trump_mask >> c & 1:  # discarded: had no trump (or could not overtrump)
                    if (rules.undertrump == "discard_allowed" and rules.obligations == "classic"
                            and win >> 3 == k and not partner_winning):
                        cannot[seat] |= BEATS[k][win]
                    else:
                        cannot[seat] |= trump_mask
                elif (rules.obligations == "classic" and win >> 3 == k and not partner_winning
                      and not BEATS[k][win] >> c & 1):
                    cannot[seat] |= BEATS[k][win]  # undertrumped an opponent's ruff
        # belote (RULES.md §5)
        if k != NO_TRUMP:
            suits = SUITS if k == ALL_TRUMP else (k,)
            announced = {(s, c) for s, kind, c in info.announcements}
            for seat in SEATS:
                for s in suits:
                    king, queen = card(_KING, s), card(_QUEEN, s)
                    for c, other in ((king, queen), (queen, king)):
                        if not info.played_by[seat] >> c & 1:
                            continue
                        if (seat, c) in announced:
                            if not info.played_by[seat] >> other & 1:
                                known[seat] |= 1 << other
                        elif rules.belote == "auto" and not _played_before(info, seat, other, c):
                            cannot[seat] |= 1 << other
        for seat in SEATS:
            for d in info.declared[seat]:
                known[seat] |= d.cards & hidden
        if info.taker >= 0 and hidden >> info.turned_card & 1:
            known[info.taker] |= 1 << info.turned_card
    for loc in LOCATIONS:
        known[loc] &= hidden
        for other in LOCATIONS:
            if other != loc:
                cannot[other] |= known[loc]
        cannot[loc] = (cannot[loc] & hidden) & ~known[loc]
    cannot[me] = hidden
    return Constraints(me, hidden, tuple(cannot), tuple(known), tuple(sizes))


def possible_holdings(info: InfoSet) -> tuple[int, int, int, int]:
    """Per seat, the hidden cards it may hold: ``public_constraints(info).possible(seat)``
    for seats 0..3 (0 for the viewer), computed without building ``Constraints`` when the
    engine supplied ``info.public_knowledge`` (the observation encoder's fast path)."""
    me = info.seat
    hidden = FULL_DECK & ~info.hand
    for played in info.played_by:
        hidden &= ~played
    if info.contract < 0:  # bidding: nothing is known yet; the turned card is public
        hidden &= ~(1 << info.turned_card)
        out = [hidden] * NUM_SEATS
    elif info.public_knowledge is None:
        c = public_constraints(info)
        return tuple(c.possible(s) for s in SEATS)
    else:
        cannot, known = info.public_knowledge
        free = hidden  # hidden cards no seat is known to hold
        for kn in known:
            free &= ~kn
        out = [(free & ~cn) | (kn & hidden) for cn, kn in zip(cannot, known)]
    out[me] = 0
    return tuple(out)


def _played_before(info: InfoSet, seat: int, first: int, then: int) -> bool:
    """Did ``seat`` play ``first`` before ``then`` this deal?"""
    seq = [c for _, cards, _ in info.tricks for c in cards] + list(info.trick)
    if first not in seq:
        return False
    return seq.index(first) < seq.index(then)
