"""Dealing: the one place that knows how a deck becomes hands (RULES.md §3.1, §3.5).

A deal is its **deck**, the 32 card ids in dealing order, and its **dealer** (seat 0..3);
eldest is the seat after the dealer (``table.eldest_of``):

* ``deck[0:20]``: the first deal, five cards a seat in packets of 3 then 2 from eldest
  round the table: eldest's 3, the next seat's 3, ..., then eldest's 2, the next seat's
  2, ... (§3.1);
* ``deck[20]``: the turned card, face up (``TURNED_AT``);
* ``deck[21:32]``: the stock, 11 cards, in the order it is dealt after a take.

After a take (§3.5) the taker gets the turned card and the next 2 stock cards, every
other seat the next 3, from eldest round the table: everyone holds 8 cards.

The engine (``GameState._start_deal`` / ``_complete_deal``), game records (a deal written
as explicit hands) and the expert's search (its sampled deals, the belief's replays) all
deal through this module. For a user:

* ``deck_from_hands(hands, turned, stock, dealer)``: the deck that deals given 5-card
  hands, turned card and stock (``GameState.from_hands`` builds a game from them);
* ``deck_for_final_hands(hands, turned, taker, dealer)``: a deck that deals given 8-card
  hands once ``taker`` has taken the turned card;
* ``deal(deck, dealer)`` and ``complete(hands, turned, stock, taker, dealer)``: the
  hands a deck deals, before and after the take (``complete(*deal(deck, dealer), taker,
  dealer)``); ``check_deck(deck)``.

**Coinche** (``contract_mode="coinche"``, COINCHE.md §2) deals every card at once, in
packets of 3, 2, 3 from eldest round the table (``COINCHE_PACKETS``): seat ``e+i`` (``e``
eldest) receives ``deck[3i:3i+3] + deck[12+2i:12+2i+2] + deck[20+3i:20+3i+3]``; nothing
is turned and there is no stock. ``deal_all(deck, dealer)`` gives those hands and
``deck_from_full_hands(hands, dealer)`` the deck that deals given 8-card hands.

Cards may be ids 0..31 or names (``"J♠"``, ``"JS"``, ``"10H"``, ``cards.parse_card``)
wherever a user gives them. Every check raises ``DealError`` (a ``ValueError``) naming
what is wrong.

Pure Python (no numpy).
"""

from __future__ import annotations

from typing import Sequence

from .cards import NUM_CARDS, parse_card
from .deprecation import renamed_in
from .jsonfile import short_repr
from .table import NUM_SEATS, SEATS, eldest_of, seats_from

__all__ = ["DealError", "PACKETS", "FIRST_HAND", "TURNED_AT", "STOCK_SIZE", "TAKER_DRAWS", "OTHERS_DRAW",
           "check_deck", "deal", "complete", "deck_from_hands", "deck_for_final_hands", "read_card",
           "COINCHE_PACKETS", "HAND_SIZE", "deal_all", "deck_from_full_hands", "PACK24", "PacketLayout",
           "packet_layout", "dealt_pack", "packet_deal", "packet_complete", "packet_deck_from_hands", "is_whole_deal"]

#: the first deal's packets, per seat, from eldest (§3.1)
PACKETS = (3, 2)
#: cards a seat holds before the auction
FIRST_HAND = sum(PACKETS)
#: the turned card's index in the deck
TURNED_AT = FIRST_HAND * NUM_SEATS
#: cards left in the stock under the turned card
STOCK_SIZE = NUM_CARDS - TURNED_AT - 1
#: stock cards the taker (who also gets the turned card) and each other seat receive (§3.5)
TAKER_DRAWS, OTHERS_DRAW = 2, 3


def _packet_positions(dealer: int, packets: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per seat, the deck indices it receives when ``dealer`` deals ``packets`` (each
    packet to every seat from eldest round the table, then the next packet)."""
    pos: list[list[int]] = [[] for _ in SEATS]
    i = 0
    for packet in packets:
        for seat in seats_from(eldest_of(dealer)):
            pos[seat] += range(i, i + packet)
            i += packet
    return tuple(tuple(p) for p in pos)


def _first_positions(dealer: int) -> tuple[tuple[int, ...], ...]:
    """Per seat, the deck indices of its first five cards when ``dealer`` deals."""
    return _packet_positions(dealer, PACKETS)


def _stock_positions(dealer: int, taker: int) -> tuple[tuple[int, ...], ...]:
    """Per seat, the stock indices of the cards it receives when ``taker`` takes."""
    pos: list[tuple[int, ...]] = [()] * NUM_SEATS
    i = 0
    for seat in seats_from(eldest_of(dealer)):
        n = TAKER_DRAWS if seat == taker else OTHERS_DRAW
        pos[seat] = tuple(range(i, i + n))
        i += n
    return tuple(pos)


# the layouts above for every dealer (and taker), built once: the engine deals with them
_FIRST = tuple(_first_positions(d) for d in SEATS)

#: the coinche deal's packets, per seat, from eldest (COINCHE.md §2)
COINCHE_PACKETS = (3, 2, 3)
#: cards a seat holds once the deal is complete
HAND_SIZE = NUM_CARDS // NUM_SEATS


#: per dealer, per seat, the deck indices of its eight cards in the coinche deal
_ALL = tuple(_packet_positions(d, COINCHE_PACKETS) for d in SEATS)
_STOCK = tuple(tuple(_stock_positions(d, t) for t in SEATS) for d in SEATS)


class DealError(ValueError):
    """A deck, hands, turned card or stock that do not make a deal (the message says why)."""


def check_deck(deck: Sequence[int] | None) -> list[int] | None:
    """``deck`` as a list of 32 distinct int card ids (``None`` stays ``None``).

    Raises:
        DealError: not a sequence of ints (``"deck must be a sequence of 32 int card
            ids"``), or not each id 0..31 once (``"deck must hold each card id 0..31
            exactly once"``, then the repeated, missing and unknown ids).
    """
    if deck is None:
        return None
    if isinstance(deck, (str, bytes)) or not hasattr(deck, "__iter__") or not all(
            hasattr(c, "__index__") and not isinstance(c, bool) for c in deck):
        raise DealError(f"deck must be a sequence of 32 int card ids, got {deck!r}")
    deck = [c.__index__() for c in deck]
    if sorted(deck) != list(range(NUM_CARDS)):
        raise DealError("deck must hold each card id 0..31 exactly once" + _wrong(deck))
    return deck


def _wrong(deck: list[int]) -> str:
    """``"; repeated: [...]; missing: [...]"`` for a deck that is not the 32 cards (the
    parts that apply; ids outside 0..31 count as unknown)."""
    seen: dict[int, int] = {}
    for c in deck:
        seen[c] = seen.get(c, 0) + 1
    out = ""
    for what, cards in (("repeated", sorted(c for c, n in seen.items() if n > 1)),
                        ("missing", [c for c in range(NUM_CARDS) if c not in seen]),
                        ("unknown", sorted(c for c in seen if not 0 <= c < NUM_CARDS))):
        if cards:
            out += f"; {what}: {cards[:32]}"
    return out


def deal(deck: Sequence[int], dealer: int) -> tuple[list[int], int, list[int]]:
    """The first deal of a checked ``deck`` (§3.1): ``(hands, turned, stock)``, with
    ``hands`` a list of 4 masks (5 cards a seat, packets of 3 then 2 from eldest),
    ``turned`` the turned card id and ``stock`` the 11 stock cards in order (a list)."""
    hands = []
    for positions in _FIRST[dealer]:
        m = 0
        for i in positions:
            m |= 1 << deck[i]
        hands.append(m)
    return hands, deck[TURNED_AT], list(deck[TURNED_AT + 1:])


def deal_all(deck: Sequence[int], dealer: int) -> list[int]:
    """The coinche deal of a checked ``deck`` (COINCHE.md §2): 4 masks of 8 cards, packets
    of 3, 2, 3 from eldest round the table; nothing turned, no stock."""
    hands = []
    for positions in _ALL[dealer]:
        m = 0
        for i in positions:
            m |= 1 << deck[i]
        hands.append(m)
    return hands


def complete(hands: Sequence[int], turned: int, stock: Sequence[int], taker: int, dealer: int) -> list[int]:
    """The 8-card hands after ``taker`` takes (§3.5): a new list of 4 masks, ``hands`` (the
    5-card masks) plus the turned card and the next ``TAKER_DRAWS`` stock cards for the
    taker, ``OTHERS_DRAW`` for every other seat, dealt in ``stock`` order from eldest."""
    out = []
    for seat, positions in enumerate(_STOCK[dealer][taker]):
        m = hands[seat]
        for i in positions:
            m |= 1 << stock[i]
        out.append(m)
    out[taker] |= 1 << turned
    return out


def read_card(value: int | str, where: str) -> int:
    """A card id from ``value``: an id 0..31 (an int or numpy integer, not a bool) or a name
    such as ``"J♠"``, ``"JS"``, ``"10H"`` (``cards.parse_card``, RULES.md §1).

    Raises:
        DealError: an unknown name or anything else, naming ``where`` and the value (cut
            short: it may come from a file).
    """
    if isinstance(value, str):
        try:
            return parse_card(value)
        except ValueError:
            raise DealError(f"{where}: cannot parse card {short_repr(value)}: expected a rank (7 8 9 10 J Q K A) "
                            "followed by a suit (S H D C or ♠ ♥ ♦ ♣), e.g. 'J♠', 'JS', '10H'") from None
    if isinstance(value, bool) or not hasattr(value, "__index__") or not 0 <= value.__index__() < NUM_CARDS:
        raise DealError(f"{where}: a card must be an id 0..31 or a name like 'J♠', got {short_repr(value)}")
    return value.__index__()


def _cards(values, n: int | None, where: str) -> list[int]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__") or (n is not None and len(values) != n):
        raise DealError(f"{where} must be {'a sequence of cards' if n is None else f'a sequence of {n} cards'} "
                        f"(ids 0..31 or names like 'JS'), got {repr(values)[:80]}")
    return [read_card(c, f"{where}[{j}]") for j, c in enumerate(values)]


def _seat(value, what: str) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__") or value.__index__() not in SEATS:
        raise DealError(f"{what} must be a seat 0..{NUM_SEATS - 1} (int), got {value!r}")
    return value.__index__()


def _distinct(deck: list[int]) -> list[int]:
    if sorted(deck) != list(range(NUM_CARDS)):
        raise DealError("the cards must be the 32 distinct cards" + _wrong(deck))
    return deck


def deck_from_hands(hands: Sequence[Sequence[int | str]], turned: int | str, stock: Sequence[int | str],
                    dealer: int = 0) -> list[int]:
    """The deck that deals ``hands``, ``turned`` and ``stock`` when ``dealer`` deals (§3.1).

    Args:
        hands: per seat 0..3, its 5 cards before the auction: the first three are its
            first packet, the last two its second.
        turned: the turned card.
        stock: the 11 stock cards in the order they are dealt after a take (§3.5).
        dealer: the dealer's seat 0..3 (eldest receives the first packet).
    Returns:
        the deck (list of 32 card ids): ``GameState(rules, dealer=dealer, deck=...)``
        deals exactly these hands.
    Raises:
        DealError: a shape other than 4 x 5 hand cards and 11 stock cards, a card that is
            not an id 0..31 or a card name, a card given twice (the message names the
            place and the repeated cards), or a dealer that is not a seat.
    """
    dealer = _seat(dealer, "dealer")
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != NUM_SEATS:
        raise DealError(f"hands must be {NUM_SEATS} sequences of {FIRST_HAND} cards (seats 0..{NUM_SEATS - 1}), "
                        f"got {hands!r}")
    hs = [_cards(h, FIRST_HAND, f"hands[{s}]") for s, h in enumerate(hands)]
    order = seats_from(eldest_of(dealer))
    deck: list[int] = []
    start = 0
    for packet in PACKETS:
        for seat in order:
            deck += hs[seat][start:start + packet]
        start += packet
    deck.append(read_card(turned, "turned"))
    deck += _cards(stock, STOCK_SIZE, "stock")
    return _distinct(deck)


def is_whole_deal(hands: Sequence[int], turned: int = -1, taker: int = -1) -> bool:
    """Whether ``hands`` (one 32-bit card mask per seat, ints) are four hands of 8 cards
    covering the deck with the turned card (a card id; -1: none, as in coinche) in the
    taker's hand: the final hands ``deck_for_final_hands`` (or, without a turned card,
    ``deck_from_full_hands``) rebuilds a deck from (RULES.md §3.1, §3.5; COINCHE.md §2).
    Never raises for masks; a seat outside the hands is not checked (no turned card)."""
    union = 0
    for h in hands:
        union |= h
    return (len(hands) == NUM_SEATS and union == (1 << NUM_CARDS) - 1 and all(h.bit_count() == HAND_SIZE for h in hands)
            and (turned < 0 or hands[taker] >> turned & 1 == 1))


def deck_for_final_hands(hands: Sequence[int | Sequence[int | str]], turned: int | str, taker: int,
                         dealer: int = 0) -> list[int]:
    """A deck that deals ``hands`` once ``taker`` has taken ``turned`` (§3.1, §3.5).

    Which cards came in which packet does not change the play: each seat's lowest 5 card
    ids (the taker's without the turned card) form its first deal, the rest its share of
    the stock.

    Args:
        hands: per seat 0..3, its 8 cards: a 32-bit mask or a sequence of cards.
        turned: the turned card, in the taker's hand.
        taker: the taker's seat 0..3.
        dealer: the dealer's seat 0..3.
    Returns:
        the deck (list of 32 card ids).
    Raises:
        DealError: not 4 hands of 8 distinct cards covering the deck, the turned card not
            in the taker's hand, or a bad seat.
    """
    taker, dealer = _seat(taker, "taker"), _seat(dealer, "dealer")
    turned = read_card(turned, "turned")
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != NUM_SEATS:
        raise DealError(f"hands must be {NUM_SEATS} hands of 8 cards (seats 0..{NUM_SEATS - 1}), got {hands!r}")
    cards = []
    for s, h in enumerate(hands):
        mask = not isinstance(h, bool) and hasattr(h, "__index__") and not hasattr(h, "__len__")
        if mask:
            h = h.__index__()  # a 32-bit mask (an int or a numpy integer)
            if not 0 <= h < 1 << NUM_CARDS:
                raise DealError(f"hands[{s}]: a mask of cards 0..31 must be a 32-bit int >= 0, got {repr(h)[:40]}")
        cs = ([c for c in range(NUM_CARDS) if h >> c & 1] if mask
              else sorted(set(_cards(h, None, f"hands[{s}]"))))
        if len(cs) != FIRST_HAND + (OTHERS_DRAW if s != taker else TAKER_DRAWS + 1):
            raise DealError(f"hands[{s}] must hold 8 distinct cards, got {len(cs)}")
        cards.append(cs)
    if turned not in cards[taker]:
        raise DealError(f"the turned card {turned} must be in the taker's (seat {taker}) hand")
    cards[taker].remove(turned)
    stock = [c for seat in seats_from(eldest_of(dealer)) for c in cards[seat][FIRST_HAND:]]  # completion order
    return deck_from_hands([cs[:FIRST_HAND] for cs in cards], turned, stock, dealer)


def deck_from_full_hands(hands: Sequence[int | Sequence[int | str]], dealer: int = 0) -> list[int]:
    """The deck whose coinche deal (``deal_all``, COINCHE.md §2) gives ``hands``.

    Args:
        hands: per seat 0..3, its 8 cards: a 32-bit mask (the packets then take the
            seat's cards in ascending id order) or a sequence of cards (ids or names; the
            first three are its first packet, the next two its second, the last three
            its third).
        dealer: the dealer's seat 0..3 (eldest receives the first packet).
    Returns:
        the deck (list of 32 card ids).
    Raises:
        DealError: not 4 hands of 8 cards, a card that is not an id 0..31 or a name, a
            card given twice (naming it), or a dealer that is not a seat.
    """
    dealer = _seat(dealer, "dealer")
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != NUM_SEATS:
        raise DealError(f"hands must be {NUM_SEATS} hands of {HAND_SIZE} cards (seats 0..{NUM_SEATS - 1}), "
                        f"got {repr(hands)[:80]}")
    hs = []
    for s, h in enumerate(hands):
        if not isinstance(h, bool) and hasattr(h, "__index__") and not hasattr(h, "__len__"):
            h = h.__index__()
            if not 0 <= h < 1 << NUM_CARDS:
                raise DealError(f"hands[{s}]: a mask of cards 0..31 must be a 32-bit int >= 0, got {repr(h)[:40]}")
            h = [c for c in range(NUM_CARDS) if h >> c & 1]
            if len(h) != HAND_SIZE:
                raise DealError(f"hands[{s}] must hold {HAND_SIZE} cards, got {len(h)}")
        hs.append(_cards(h, HAND_SIZE, f"hands[{s}]"))
    deck: list[int] = []
    start = 0
    for packet in COINCHE_PACKETS:
        for seat in seats_from(eldest_of(dealer)):
            deck += hs[seat][start:start + packet]
        start += packet
    return _distinct(deck)


# ----------------------------------------------------------------------------- two and three players
#: the card ids of the 24-card pack (``three_player_deal="24_card"``: the 7s and 8s removed,
#: TWO_THREE.md §4 A26)
PACK24 = tuple(c for c in range(NUM_CARDS) if c & 7 >= 2)


class PacketLayout:
    """Where each card of a deck goes at a two- or three-seat table (TWO_THREE.md §2.2,
    §2.4, §3, §4 A1, A26), for one dealer.

    Positions index the **pack**: the deck itself, or under ``three_player_deal="24_card"``
    the deck's cards of rank 9 and above in deck order (``PACK24``; the 7s and 8s are out).

    Attributes:
        first: per seat, the pack positions of its cards before the bidding (6, or 5 in
            the 24-card game).
        turned: the pack position of the turned card.
        more: per seat, the positions of the cards it receives once the maker and trump
            are fixed (3 each; 4 each under ``10_each``). Under ``24_card`` they depend on
            the taker: ``more_by_taker[taker]`` (the taker gets the turned card and 2, the
            others 3, as at four seats).
        bottom: the position of the bottom card shown to every seat (the last card), or
            -1 (``10_each``, ``24_card``: every card is used).
        unused: positions of the cards that stay face down, out of play.
        chien: positions of the cards the taker also takes and then discards as many of
            (``10_each``: the last card; the turned card goes with it), else ``()``.
    """

    __slots__ = ("first", "turned", "more", "more_by_taker", "bottom", "unused", "chien", "pack24")

    def __init__(self, players: int, dealer: int, deal_packets: str, three_player_deal: str | None):
        order = tuple((dealer + 1 + i) % players for i in range(players))  # from the elder
        variant = three_player_deal or "6+3"
        self.pack24 = variant == "24_card"
        if variant == "24_card":
            packets = {"3-3": (3, 2), "2-2-2": (2, 2, 1), "1-by-1": (1,) * 5}[deal_packets]
        else:
            packets = {"3-3": (3, 3), "2-2-2": (2, 2, 2), "1-by-1": (1,) * 6}[deal_packets]
        first: list[list[int]] = [[] for _ in range(players)]
        i = 0
        for size in packets:
            for seat in order:
                first[seat] += range(i, i + size)
                i += size
        self.first = tuple(tuple(p) for p in first)
        self.turned = i
        i += 1
        self.more_by_taker = None
        if variant == "24_card":  # the taker: the turned card + 2; the others 3 (RULES.md §3.5)
            by_taker = []
            for taker in range(players):
                more: list[list[int]] = [[] for _ in range(players)]
                j = i
                for seat in order:
                    k = 2 if seat == taker else 3
                    more[seat] += range(j, j + k)
                    j += k
                by_taker.append(tuple(tuple(p) for p in more))
            self.more_by_taker = tuple(by_taker)
            self.more = None
            self.bottom, self.unused, self.chien = -1, (), ()
            return
        each = 4 if variant == "10_each" else 3
        more = [[] for _ in range(players)]
        if deal_packets == "1-by-1":
            for _ in range(each):
                for seat in order:
                    more[seat].append(i)
                    i += 1
        else:
            for seat in order:
                more[seat] += range(i, i + each)
                i += each
        self.more = tuple(tuple(p) for p in more)
        last = NUM_CARDS - 1
        if variant == "10_each":
            self.bottom, self.unused, self.chien = -1, tuple(range(i, last)), (last,)
        else:
            self.bottom, self.unused, self.chien = last, tuple(range(i, last)), ()


_PACKET_LAYOUTS: dict[tuple, PacketLayout] = {}


def packet_layout(rules, dealer: int) -> PacketLayout:
    """The ``PacketLayout`` of ``rules`` (``players`` 2 or 3) for ``dealer`` (cached)."""
    key = (rules.players, dealer, rules.deal_packets, rules.three_player_deal)
    lay = _PACKET_LAYOUTS.get(key)
    if lay is None:
        lay = _PACKET_LAYOUTS[key] = PacketLayout(*key)
    return lay


def dealt_pack(deck: Sequence[int], rules) -> tuple[int, ...]:
    """The pack a checked ``deck`` deals at a two- or three-seat table: the deck, or its
    24 cards of rank 9 and above in order (``three_player_deal="24_card"``)."""
    if rules.three_player_deal == "24_card":
        return tuple(c for c in deck if c & 7 >= 2)
    return tuple(deck)


def _mask(pack: Sequence[int], positions) -> int:
    m = 0
    for i in positions:
        m |= 1 << pack[i]
    return m


def packet_deal(deck: Sequence[int], dealer: int, rules) -> tuple[list[int], int]:
    """The first deal of a checked ``deck`` at a two- or three-seat table (TWO_THREE.md
    §2.2, §3): ``(hands, turned)``, ``hands`` a list of ``players`` masks (6 cards, 5 in
    the 24-card game), ``turned`` the turned card's id."""
    pack = dealt_pack(deck, rules)
    lay = packet_layout(rules, dealer)
    return [_mask(pack, p) for p in lay.first], pack[lay.turned]


def packet_complete(deck: Sequence[int], dealer: int, taker: int, rules) -> tuple[list[int], int, int, int]:
    """The hands once ``taker`` is maker (TWO_THREE.md §2.4, §3, §4 A26):
    ``(hands, bottom, unused, chien)``: the ``players`` masks with the cards dealt after the
    bidding added (9 cards each; 10 under ``10_each``; the taker's 8 under ``24_card``,
    the turned card among them), the bottom card shown to all (-1 when none), the mask of
    the unused face-down cards, and the mask of the cards the taker also takes under
    ``10_each`` (the last card and the turned card; he then discards two), else 0."""
    pack = dealt_pack(deck, rules)
    lay = packet_layout(rules, dealer)
    hands = [_mask(pack, p) for p in lay.first]
    if lay.more_by_taker is not None:
        for seat, p in enumerate(lay.more_by_taker[taker]):
            hands[seat] |= _mask(pack, p)
        hands[taker] |= 1 << pack[lay.turned]
        return hands, -1, 0, 0
    for seat, p in enumerate(lay.more):
        hands[seat] |= _mask(pack, p)
    chien = 0
    if lay.chien:
        chien = _mask(pack, lay.chien) | 1 << pack[lay.turned]
    return hands, (pack[lay.bottom] if lay.bottom >= 0 else -1), _mask(pack, lay.unused), chien


def packet_deck_from_hands(hands: Sequence[Sequence[int | str]], turned: int | str, more: Sequence[Sequence[int | str]],
                          bottom: int | str, rules, dealer: int) -> list[int]:
    """The deck that deals given cards at a two- or three-seat table under the default
    ``three_player_deal="6+3"`` (TWO_THREE.md §2.2, §2.4, §6.4): ``hands`` per seat its
    first 6 cards (in packet order), ``turned``, ``more`` per seat its 3 later cards, and
    the ``bottom`` card; the other cards fill the unused places in id order.

    Raises:
        DealError: wrong counts, unknown or repeated cards, or rules whose deal is not 6 + 3.
    """
    from .games import game_of

    if game_of(rules).has_partners or rules.three_player_deal not in (None, "6+3"):
        raise DealError("packet_deck_from_hands builds a 6 + 3 deal of the two- or three-player game "
                        "(TWO_THREE.md §2.2); give rules with players 2 or 3 and three_player_deal '6+3'")
    n = rules.players
    dealer = _packet_seat(dealer, n, "dealer")
    if len(hands) != n or len(more) != n:
        raise DealError(f"give {n} first hands and {n} lists of later cards, got {len(hands)} and {len(more)}")
    lay = packet_layout(rules, dealer)
    deck = [-1] * NUM_CARDS
    for seat in range(n):
        for i, c in zip(lay.first[seat], _cards(hands[seat], len(lay.first[seat]), f"hands[{seat}]")):
            deck[i] = c
        for i, c in zip(lay.more[seat], _cards(more[seat], len(lay.more[seat]), f"more[{seat}]")):
            deck[i] = c
    deck[lay.turned] = read_card(turned, "turned")
    deck[lay.bottom] = read_card(bottom, "bottom")
    given = [c for c in deck if c >= 0]
    if len(set(given)) != len(given):
        raise DealError("the given cards must be distinct" + _wrong(given).split("; missing")[0])
    rest = iter(c for c in range(NUM_CARDS) if c not in set(given))
    return [c if c >= 0 else next(rest) for c in deck]


def _packet_seat(value, n: int, what: str) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__") or not 0 <= value.__index__() < n:
        raise DealError(f"{what} must be a seat 0..{n - 1} (int), got {value!r}")
    return value.__index__()


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "SmallLayout": "PacketLayout",
    "small_pack": "dealt_pack",
    "small_deal": "packet_deal",
    "small_complete": "packet_complete",
    "small_deck_from_hands": "packet_deck_from_hands",
    "small_layout": "packet_layout",
})
