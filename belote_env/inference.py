"""What the public history tells about the hidden hands (RULES.md §4, §5, §6, §11).

From one seat's ``InfoSet`` alone, ``public_constraints`` derives, for every seat, the
cards it certainly does not hold and the cards it certainly holds:

* a seat that did not follow the led suit lacks that suit;
* a seat that discarded when it had to trump lacks trumps;
* a seat that played under the winning trump when it had to overtrump (trump led, an
  opponent's ruff, or its partner's ruff under ``overtrump_partner="must_overtrump"``)
  holds no higher trump; at all-trump, one that followed without beating
  the winning card holds no higher card of that suit;
* with ``belote="auto"``, a seat that played the K (Q) of a belote suit without
  announcing "belote" did not hold the Q (K); one that announced holds the other card;
* declared cards not yet played are held by their declarer; the taker holds the turned
  card until it is played.

The viewer's own seat is exact (its hand). These constraints are what the belief block
of the observation and ``sampling.sample_hidden_hands`` use.

What one played card reveals lives in one place: ``card_reveals`` (the obligations of
§4) and ``belote_reveals`` (§5). ``public_constraints`` applies them to the whole history;
the engine (``GameState``) applies them card by card as the deal is played and hands the
result over in ``InfoSet.public_knowledge``.

Pure Python (no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ALL_TRUMP, BEATS, FULL_DECK, NO_TRUMP, NUM_SUITS, SUIT_MASK, SUITS, Rank, card
from .infoset import InfoSet
from .config import without_partners
from .deprecation import deprecated_names
from .games import game_of
from .rules import trick_winner
from .dealing import FIRST_HAND, HAND_SIZE, STOCK_SIZE
from .table import NUM_SEATS, PARTNER_REL, SEATS, seats_from

__all__ = ["Constraints", "public_constraints", "possible_holdings", "card_reveals",
           "reveals", "belote_reveals",
           "belote_partner", "LOCATIONS", "STOCK"]

_KING, _QUEEN = Rank.KING, Rank.QUEEN
#: the locations of a hidden card: the seats, then the stock (``STOCK``, while bidding)
STOCK = NUM_SEATS
LOCATIONS = range(NUM_SEATS + 1)


@dataclass(frozen=True)
class Constraints:
    """Public knowledge about where the unseen cards are, from one seat's view.

    Attributes (masks are 32-bit ints; locations are the seats 0..n-1, then ``n``: at four
    seats the stock, non-empty only while bidding; at two and three the cards nobody holds):
        viewer: the seat whose information set this comes from.
        hidden: cards the viewer cannot see and that are not yet played (including the
            face-up turned card while bidding is excluded: it is public).
        cannot: per location 0..n, hidden cards it certainly does not hold.
        known: per location 0..n, hidden cards it certainly holds.
        sizes: per location 0..n, how many hidden cards it holds (the viewer: 0).
    """

    viewer: int
    hidden: int
    cannot: tuple[int, ...]
    known: tuple[int, ...]
    sizes: tuple[int, ...]

    def possible(self, location: int) -> int:
        """Hidden cards that ``location`` may hold."""
        return self.hidden & ~self.cannot[location]


def card_reveals(trick, c: int, denomination: int, rules, partner_pos: int | None = None) -> int:
    """Mask of the cards a seat shows it cannot hold by playing card ``c`` after ``trick``
    (RULES.md §4): the cards already played to the trick, in order; ``()`` for a lead,
    which reveals nothing.

    * not following the led suit: none of that suit;
    * at a suit contract, discarding when it had to trump: no trump, or, with
      ``undertrump="discard_allowed"`` under an opponent's ruff, no trump above the ruff
      (nothing when ``partner_master_free`` and the partner wins);
    * playing under the winning trump when it had to overtrump (trump led, an opponent's
      ruff, the partner's ruff under ``overtrump_partner="must_overtrump"``; every led
      suit at all-trump): no higher trump of it.

    Args:
        trick: the cards played to the trick before ``c`` (a sequence of card ids).
        c: the card played.
        denomination: the denomination 0..5.
        rules: rule options (``partner_master_free``, ``undertrump``, ``obligations``,
            ``overtrump_partner``; two and three seats, TWO_THREE.md §3: ``rules.play_options``).
        partner_pos: the trick position of the seat's partner's card as in
            ``rules.legal_cards`` (``None``: the table's partner; a three-seat defender's
            co-defender is ``rules.co_defender_pos``).
    Returns:
        a 32-bit mask (may include cards already played: callers mask it).
    """
    game = game_of(rules)
    if partner_pos is None:
        partner_pos = len(trick) - PARTNER_REL if game.has_partners else -1
    obligations, partner_free, undertrump, overtrump_partner = game.play_options
    return reveals(trick, c, denomination, obligations, partner_free, undertrump, overtrump_partner, partner_pos)


def reveals(trick, c: int, k: int, obligations: str, partner_master_free: bool, undertrump: str,
            overtrump_partner: str, partner_pos: int) -> int:
    """``card_reveals`` with the rule options given one by one (the four-seat and the small
    tables share it, as they share ``rules._legal``): the cards whose holding would have
    made ``c`` illegal after ``trick`` under denomination ``k``; ``partner_pos`` the trick
    position of the seat's partner's card (-1: none). Its compiled twin is
    ``vector.kernels.card_reveals``."""
    if not trick:
        return 0
    led = trick[0] >> 3
    win_pos = trick_winner(trick, k)
    win = trick[win_pos]
    if c >> 3 == led:
        if (k == ALL_TRUMP or led == k) and not BEATS[k][win] >> c & 1:
            return BEATS[k][win]  # did not beat the winner: holds nothing above it
        return 0
    cannot = SUIT_MASK[led]
    if k >= NUM_SUITS:  # no-trump / all-trump: free discard when void
        return cannot
    partner_winning = win_pos == partner_pos
    if not SUIT_MASK[k] >> c & 1:  # discarded: had no trump (or could not overtrump)
        if partner_winning and partner_master_free:
            return cannot
        if undertrump == "discard_allowed" and obligations == "classic" and win >> 3 == k and not partner_winning:
            return cannot | BEATS[k][win]
        return cannot | SUIT_MASK[k]
    if (obligations == "classic" and win >> 3 == k and (not partner_winning or overtrump_partner == "must_overtrump")
            and not BEATS[k][win] >> c & 1):
        return cannot | BEATS[k][win]  # undertrumped an opponent's (or, must_overtrump, the partner's) ruff
    return cannot


def belote_partner(c: int) -> int:
    """The other card of a K+Q pair: the queen of ``c``'s suit for its king, and back."""
    return card(_QUEEN if c & 7 == _KING else _KING, c >> 3)


def belote_reveals(c: int, announced: bool, partner_played_before: bool, rules) -> tuple[int, int]:
    """What a seat shows by playing ``c``, the K or Q of a belote suit (a trump; every suit
    at all-trump, none at no-trump; RULES.md §5): ``(cannot, known)`` masks.

    If the other card of the pair (``belote_partner(c)``) was not played by the seat
    before: announcing "belote" with ``c`` shows it holds that card; with
    ``belote="auto"``, not announcing shows it does not. Otherwise nothing.
    """
    if partner_played_before:
        return 0, 0
    other = 1 << belote_partner(c)
    if announced:
        return 0, other
    if rules.belote == "auto":
        return other, 0
    return 0, 0


def public_constraints(info: InfoSet) -> Constraints:
    """Derive the ``Constraints`` of ``info`` (see the module docstring). At two and three
    seats (TWO_THREE.md §5) locations ``0..n-1`` are the seats and location ``n`` the cards
    nobody holds (the unused face-down cards, and the taker's discards when the viewer is
    not the taker); the engine's ``public_knowledge`` gives each seat's voids and the
    cards it is known to hold (the turned card of a seat that exchanged or took it, the
    scoring combination's cards)."""
    if without_partners(info.rules.players):
        return _constraints_without_partners(info)
    me, rules, k = info.seat, info.rules, info.denomination
    hidden = FULL_DECK & ~info.hand
    for played in info.played_by:
        hidden &= ~played
    cannot = [0] * len(LOCATIONS)
    known = [0] * len(LOCATIONS)
    bidding = info.denomination < 0
    if bidding and info.turned_card < 0:  # coinche: every card is dealt, nothing turned (COINCHE.md §2)
        sizes = [HAND_SIZE] * NUM_SEATS + [0]
    elif bidding:
        hidden &= ~(1 << info.turned_card)
        sizes = [FIRST_HAND] * NUM_SEATS + [STOCK_SIZE]  # dealing.py: the first packets and the stock
    else:
        sizes = [info.hand_sizes[s] for s in SEATS] + [0]
    sizes[me] = 0
    if not bidding and info.public_knowledge is not None:  # kept by the engine card by card
        cannot[:NUM_SEATS] = info.public_knowledge[0]
        known[:NUM_SEATS] = info.public_knowledge[1]
    elif not bidding:
        tricks = [(leader, cards) for leader, cards, _ in info.tricks]
        if info.trick:
            tricks.append((info.trick_leader, info.trick))
        for leader, cards in tricks:
            order = seats_from(leader)
            for p in range(1, len(cards)):
                cannot[order[p]] |= card_reveals(cards[:p], cards[p], k, rules)
        # belote (RULES.md §5)
        if k != NO_TRUMP:
            suits = SUITS if k == ALL_TRUMP else (k,)
            announced = {(s, c) for s, kind, c in info.announcements}
            for seat in SEATS:
                for s in suits:
                    for c in (card(_KING, s), card(_QUEEN, s)):
                        if not info.played_by[seat] >> c & 1:
                            continue
                        cn, kn = belote_reveals(c, (seat, c) in announced,
                                                _played_before(info, seat, belote_partner(c), c), rules)
                        cannot[seat] |= cn
                        known[seat] |= kn
        for seat in SEATS:
            for d in info.declared[seat]:
                known[seat] |= d.cards & hidden
        if info.taker >= 0 and info.turned_card >= 0 and hidden >> info.turned_card & 1:
            known[info.taker] |= 1 << info.turned_card
    for loc in LOCATIONS:
        known[loc] &= hidden
        for other in LOCATIONS:
            if other != loc:
                cannot[other] |= known[loc]
        cannot[loc] = (cannot[loc] & hidden) & ~known[loc]
    cannot[me] = hidden
    return Constraints(me, hidden, tuple(cannot), tuple(known), tuple(sizes))


def _constraints_without_partners(info: InfoSet) -> Constraints:
    """``public_constraints`` at a two- or three-seat table. Raises ``ValueError`` for an
    ``InfoSet`` without ``public_knowledge`` (the engines always give it there)."""
    if info.public_knowledge is None:
        raise ValueError("a two- or three-seat InfoSet needs its public_knowledge (the engine's information_set "
                         "gives it) to derive its public constraints")
    n = info.players
    seen = info.hand | info.out_of_play | info.discarded
    if info.phase == 0 and info.turned_card >= 0:  # bidding: the turned card lies face up (public)
        seen |= 1 << info.turned_card
    for p in info.played_by:
        seen |= p
    hidden = FULL_DECK & ~seen
    cannot_pub, known_pub = info.public_knowledge
    cannot, known, sizes = [], [], []
    for s in range(n):
        if s == info.seat:
            cannot.append(hidden)
            known.append(0)
            sizes.append(0)
            continue
        cannot.append(cannot_pub[s] & hidden)
        known.append(known_pub[s] & hidden & ~info.played_by[s])
        sizes.append(info.hand_sizes[s])
    owner = info.exchanged if info.exchanged >= 0 else info.taker
    turned = 1 << info.turned_card if info.turned_card >= 0 else 0
    if owner >= 0 and hidden & turned:  # the turned card went to the taker (or the seven's exchanger) and,
        for s in range(n):  # once out of sight (``10_each``: discarded or kept), is there or in the pile
            if s != owner:
                cannot[s] |= turned
    rules = info.rules
    if (rules.dix_exchange == "auto" and rules.three_player_deal in (None, "6+3") and info.phase >= 1
            and info.exchanged < 0 and info.turned_card >= 0 and info.denomination == info.turned_card >> 3):
        seven = 1 << (8 * info.denomination)  # the seven of trumps, rank 0 (TWO_THREE.md A9)
        if hidden & seven:  # exchanged at once by whoever held it: no exchange, nobody held it
            for s in range(n):
                cannot[s] |= seven
    held = 0  # the unused / discarded pile cannot hold a card a seat is known to hold
    for k in known:
        held |= k
    cannot.append(held)
    known.append(0)
    sizes.append(hidden.bit_count() - sum(sizes))
    return Constraints(info.seat, hidden, tuple(cannot), tuple(known), tuple(sizes))


def possible_holdings(info: InfoSet) -> tuple[int, ...]:
    """Per seat, the hidden cards it may hold: ``public_constraints(info).possible(seat)``
    for seats 0..n-1 (0 for the viewer), computed without building ``Constraints`` when the
    engine supplied ``info.public_knowledge`` at four seats (the observation encoder's fast
    path)."""
    if without_partners(info.rules.players):
        c = public_constraints(info)
        return tuple(0 if s == info.seat else c.possible(s) for s in range(info.players))
    me = info.seat
    hidden = FULL_DECK & ~info.hand
    for played in info.played_by:
        hidden &= ~played
    if info.denomination < 0:  # bidding: nothing is known yet; the turned card is public
        if info.turned_card >= 0:
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


__getattr__ = deprecated_names(__name__, {
    "small_card_reveals": ("inference.card_reveals (every table; partner_pos as before)", lambda: card_reveals)})
