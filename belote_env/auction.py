"""Auctions as parts: the bids a seat may make, what a bid does, and the contract (or the
void deal) an auction ends with (RULES.md §3; COINCHE.md for the coinche auction).

An ``Auction`` is the bidding phase of one deal. The engine (``game.GameState``) holds one
per deal and asks it for the legal bids of the seat to act (``legal_bids()``), hands it
each bid (``apply(bid)``), and once it ``is_over`` plays the deal under its ``contract``
(a ``contract.Contract``) or redeals a ``void`` one. Its ``history`` is the public auction,
``(seat, bid id)`` pairs in order (bid ids of ``actions.py``): the same form for every
auction, and what ``InfoSet.auction`` shows the seats.

``ClassicAuction`` is the classic take/pass auction: round 1, from eldest, each seat takes
the turned card's suit (``TAKE``) or passes; if all four pass, round 2, each seat names
another suit (``NAME_CONTRACT + suit``; with ``round2_no_trump_all_trump`` also no-trump
or all-trump) or passes; eight passes void the deal (§3.2-§3.4). The first take ends it.

A new auction (coinche: bids of a level and denomination, coinche and surcoinche, three
passes after a bid end it) is another ``Auction`` subclass: the engine, the ``InfoSet``
and the policies read it through this interface.

Pure Python (no numpy).
"""

from __future__ import annotations

from .actions import NAME_CONTRACT, PASS, TAKE, action_to_string
from .cards import ALL_TRUMP, NO_TRUMP, SUITS
from .config import Rules
from .contract import NUM_DENOMINATIONS, Contract
from .table import NEXT_SEAT, SEATS

__all__ = ["Auction", "ClassicAuction", "IllegalBidError", "new_auction", "classic_legal_bids", "classic_bid_denomination"]


class IllegalBidError(ValueError):
    """A bid that is not legal in the auction now (the message names it and the legal bids)."""


class Auction:
    """The interface of an auction (one deal's bidding).

    Attributes:
        history: ``(seat, bid id)`` of every bid so far, in order (a list; read it, do not
            change it).
        current: the seat to bid, ``-1`` once the auction is over.
        contract: the ``Contract`` once the auction ends with one, else ``None``.
        void: True once the auction ends without a contract (the deal is redealt).
        bid_round: the round of the auction now (1, 2, ...), ``0`` once over.
    """

    __slots__ = ()

    history: list[tuple[int, int]]
    current: int
    contract: Contract | None
    void: bool
    bid_round: int

    @property
    def is_over(self) -> bool:
        """True once the auction ended with a contract or void."""
        return self.contract is not None or self.void

    def legal_bids(self) -> tuple[int, ...]:
        """The ascending bid ids ``current`` may make (``()`` once over)."""
        raise NotImplementedError

    def apply(self, bid: int) -> None:
        """Make ``bid`` for ``current``. Raises ``IllegalBidError`` for a bid not legal now."""
        raise NotImplementedError

    def copy(self) -> "Auction":
        """An independent copy (``GameState.clone``)."""
        raise NotImplementedError

    def _illegal(self, bid) -> IllegalBidError:
        legal = ", ".join(f"{a} ({action_to_string(a)})" for a in self.legal_bids())
        return IllegalBidError(f"bid {bid!r} by seat {self.current} is not legal now; legal bids: [{legal}]")


def classic_legal_bids(bid_round: int, turned_suit: int, rules: Rules) -> tuple[int, ...]:
    """Legal bid action ids in the classic auction (RULES.md §3.2-3.3).

    Args:
        bid_round: 1 (take / pass the turned suit) or 2 (name another suit, or pass).
        turned_suit: suit 0..3 of the turned card.
        rules: ``round2_no_trump_all_trump`` adds no-trump and all-trump to round 2.
    Returns:
        ascending action ids.
    """
    if bid_round == 1:
        return (PASS, TAKE)
    bids = [PASS] + [NAME_CONTRACT + s for s in SUITS if s != turned_suit]
    if rules.round2_no_trump_all_trump:
        bids += [NAME_CONTRACT + NO_TRUMP, NAME_CONTRACT + ALL_TRUMP]
    return tuple(bids)


def classic_bid_denomination(bid: int, turned_suit: int) -> int:
    """Denomination (0..5) fixed by a classic taking bid: ``TAKE`` or a name-a-contract id."""
    return turned_suit if bid == TAKE else bid - NAME_CONTRACT


class ClassicAuction(Auction):
    """The classic take/pass auction of one deal (RULES.md §3.2-§3.4).

    Args:
        dealer: the dealer's seat; eldest (the seat after it) bids first.
        turned_card: the turned card id (its suit is round 1's trump).
        rules: the rule options (``round2_no_trump_all_trump``).
        history: bids already made (``(seat, bid)`` pairs, e.g. an ``InfoSet.auction``),
            applied in order (``IllegalBidError`` for one that is not legal).
    """

    __slots__ = ("rules", "dealer", "turned_card", "turned_suit", "eldest", "history", "current", "bid_round",
                 "contract", "void", "_legal")

    def __init__(self, dealer: int, turned_card: int, rules: Rules, history=()):
        self.rules = rules
        self.dealer = dealer
        self.turned_card = turned_card
        self.turned_suit = turned_card >> 3
        self.eldest = self.current = NEXT_SEAT[dealer]
        self.history: list[tuple[int, int]] = []
        self.bid_round = 1
        self.contract: Contract | None = None
        self.void = False
        self._legal: tuple[int, ...] | None = _ROUND1
        for seat, bid in history:
            if seat != self.current:
                raise IllegalBidError(f"bid {bid!r} by seat {seat}: seat {self.current} is to bid")
            self.apply(bid)

    def legal_bids(self) -> tuple[int, ...]:
        if self._legal is None:
            self._legal = classic_legal_bids(self.bid_round, self.turned_suit, self.rules)
        return self._legal

    def apply(self, bid: int) -> None:
        legal = self._legal if self._legal is not None else self.legal_bids()
        if bid not in legal or type(bid) is bool:
            raise self._illegal(bid)
        seat = self.current
        self.history.append((seat, bid))
        if bid != PASS:
            self.contract = _CLASSIC_CONTRACTS[seat][classic_bid_denomination(bid, self.turned_suit)]
            self._over()
            return
        self.current = NEXT_SEAT[seat]
        if self.current == self.eldest:  # the round is over
            if self.bid_round == 1:
                self.bid_round = 2
                self._legal = None
            else:  # eight passes: the deal is void (RULES.md §3.4)
                self.void = True
                self._over()

    def _over(self) -> None:
        self.bid_round = 0
        self.current = -1
        self._legal = ()

    def copy(self) -> "ClassicAuction":
        new = ClassicAuction.__new__(ClassicAuction)
        for name in ClassicAuction.__slots__:
            setattr(new, name, getattr(self, name))
        new.history = list(self.history)
        return new

    def __repr__(self) -> str:
        return (f"ClassicAuction(dealer={self.dealer}, turned_card={self.turned_card}, history={self.history}, "
                f"contract={self.contract}, void={self.void})")


_ROUND1 = (PASS, TAKE)
#: the classic contracts (frozen, shared): ``[taker][denomination]``
_CLASSIC_CONTRACTS = tuple(tuple(Contract(seat, d) for d in range(NUM_DENOMINATIONS)) for seat in SEATS)


def new_auction(dealer: int, turned_card: int, rules: Rules, history=()) -> Auction:
    """The auction ``rules`` play, for a deal by ``dealer`` with ``turned_card`` turned,
    after the bids of ``history`` (``(seat, bid)`` pairs). The one place an auction is
    chosen: the engine starts each deal's auction here, and the expert's search replays
    and simulates auctions through it. Today every rule set plays ``ClassicAuction``; a
    coinche auction is chosen here by its rule option."""
    return ClassicAuction(dealer, turned_card, rules, history)
