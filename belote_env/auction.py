"""Auctions as parts: the bids a seat may make, what a bid does, and the contract (or the
void deal) an auction ends with (RULES.md §3; COINCHE.md §3 for the coinche auction).

An ``Auction`` is the bidding phase of one deal. The engine (``game.GameState``) holds one
per deal and asks it for the legal bids of the seat to act (``legal_bids()``), hands it
each bid (``apply(bid)``), and once it ``is_over`` plays the deal under its ``contract``
(a ``contract.Contract``) or redeals a ``void`` one. Its ``history`` is the public auction,
``(seat, bid id)`` pairs in order (bid ids of ``actions.py``): the same form for every
auction, and what ``InfoSet.auction`` shows the seats. ``new_auction`` picks the auction
the rules play (``contract_mode``).

ClassicAuction (``contract_mode="classic"``)
--------------------------------------------
The classic take/pass auction: round 1, from eldest, each seat takes the turned card's suit
(``TAKE``) or passes; if all four pass, round 2, each seat names another suit
(``NAME_CONTRACT + suit``; with ``round2_no_trump_all_trump`` also no-trump or all-trump) or
passes; eight passes void the deal (§3.2-§3.4). The first take ends it.

CoincheAuction (``contract_mode="coinche"``, COINCHE.md §3)
-----------------------------------------------------------
Actions (§3.1): ``PASS`` (32); a bid of a level and a denomination,
``coinche_bid_action(level, d)`` (levels 80..160 and ``"capot"``: ids 40..99; levels
170..``max_numeric_bid``: ids 118..; ``"generale"``: ids 112..117); ``COINCHE`` (100);
``SURCOINCHE`` (101). Denominations: the suits 0..3 (♠ ♥ ♦ ♣), plus no-trump (4) and
all-trump (5) with ``coinche_denominations="suits_sa_ta"``. Bid order, lowest first:
80, 90, ..., ``max_numeric_bid``, capot (``capot_bid``), générale (``generale``, §6.8).

The protocol under the defaults (§3.2-§3.4):

- Eldest (the seat after the dealer) speaks first, then each seat in play order.
- While nothing is coinched, the seat to act may ``PASS`` (always); bid any level above the
  current contract's, in any denomination (jumps allowed, no denomination order; overbidding
  one's partner and bidding after one's own pass are legal); bid capot unless the contract
  is already capot or générale; ``COINCHE`` iff a contract exists and its bidder is an
  opponent (only the current contract can be coinched).
- A coinche by seat ``c`` freezes the contract: no bid is legal any more; seat ``c+1`` then
  seat ``c+3`` (the coinched team) each ``PASS`` or ``SURCOINCHE``; the coincher's partner
  ``c+2`` is skipped. A surcoinche ends the auction at once.
- The auction ends: after a bid, when the next three seats all pass (the contract,
  multiplier 1); after a coinche, when both coinched-team seats passed (multiplier 2); at a
  surcoinche (multiplier ``surcoinche_multiplier``, 4 or 3); four opening passes void the
  deal (§3.6). Because three passes end it, no seat ever overbids its own bid.
- Length: at most 36 decisions under the defaults: 3 opening passes, 10 bids (80..160,
  capot) each after at most 2 passes, then 2 passes, a coinche and 2 coinched-team
  decisions. (COINCHE.md §3.4 says 34: it counts "3 closing decisions" and misses the two
  passes a closing coinche may follow.) ``length_bound(rules)`` gives the bound of any rule
  set.

The options (§3.5, §6.8), each changing the protocol as follows:

- ``coinche_denominations="suits_sa_ta"``: no-trump and all-trump bids too.
- ``max_numeric_bid`` (160..650): the highest numeric level; levels above 160 use the
  extended ids (``actions.HIGH_BID``).
- ``denomination_order="ranked"``: ♣ < ♦ < ♥ < ♠ < SA < TA; a numeric bid of an equal
  value in a higher denomination also overcalls. A capot still never overcalls a capot
  (§3.3: ``bid(capot, d)`` "unless C is already capot or générale"); the générale is not
  defined with this option (refused by ``Rules``).
- ``capot_bid=False``: no capot bid. ``generale=True``: the générale bids (ids 112..117),
  the highest level, legal unless the contract is already a générale.
- ``capot_coinchable=False``: a capot contract cannot be coinched (``COINCHE`` is never
  legal over it; the auction goes on, it ends by passes or a générale). A générale stays
  coinchable: the option names the capot only.
- ``surcoinche_allowed=False``: ``SURCOINCHE`` is never legal. The coinched team still gets
  its turns, each a forced ``PASS`` (the options remove actions, never turns, as with
  ``coincher_partner_speaks``).
- ``coincher_partner_speaks=True`` (colver): after a coinche the coincher's partner gets a
  turn between ``c+1`` and ``c+3`` in which only ``PASS`` is legal (A3: 0 pass, 1 pass,
  2 surcoinche).
- ``coinche_window="immediate"``: right after every bid (that can be coinched), each
  opponent of the bidder is asked in play order starting after the bidder, ``b+1`` then
  ``b+3``, before the normal next turn; each such turn's legal bids are ``(PASS, COINCHE)``,
  where **``PASS`` means "no coinche"** (``in_window`` is True during these turns). A
  coinche there acts as in turn; when both decline, the normal next turn (``b+1``)
  follows. Window turns do not count as passes towards the end, and ``COINCHE`` is legal
  only in the window (a seat that declined cannot coinche the same bid later on its turn).
- ``coinche_freezes=False`` ("décoincher", Pagat's contrée, the stéphanoise rule): a
  coinche by ``c`` does not freeze the contract. Play goes on in the normal order from
  ``c+1``; every seat may ``PASS``, bid higher (which cancels the coinche: the level goes
  back to 0 and the new contract may be coinched afresh), or, in the coinched team,
  ``SURCOINCHE`` (which still ends the auction at once). No second coinche of the same
  contract. The bidder itself may not overbid its own contract (the rule of
  ``self_overbid``, as at any other time: FFB "impossible de surenchérir sur soi-même",
  the stéphanoise "les deux autres joueurs peuvent décoincher"), so the escape is its
  partner's or the coincher's partner's. Three consecutive passes after the coinche end the
  auction, coinched (whatever ``passes_to_end``: the seat after them is the coincher, not
  the bidder). ``coincher_partner_speaks`` has no effect here: the partner speaks anyway.
- ``passes_to_end=4`` (BGA-code): after a bid, four consecutive passes end the auction, so
  the bidder speaks again after three. What it may do then is ``self_overbid``'s:
  ``"forbidden"``: only ``PASS`` (a coinche of one's own bid is never legal), which ends
  the auction; ``"change_denomination"``: ``PASS`` or any higher bid in another
  denomination than its contract's (capot and générale included).

Public read-only state for encoders and bots: ``highest`` (``(level, denomination,
bidder)`` of the highest bid, or ``None``), ``coinche_level`` (0, 1 coinched,
2 surcoinched), ``coincher`` (seat or -1), ``passes`` (the consecutive passes that count
towards the end), ``in_window`` (the seat to act is asked in the immediate window).
Legal bids are cached per rule set and state, so ``legal_bids()`` costs an attribute read.

Pure Python (no numpy).
"""

from __future__ import annotations

from .actions import (
    AGREE_REDEAL, COINCHE, GENERALE, NAME_CONTRACT, PASS, PROPOSE_REDEAL, REFUSE_REDEAL, SURCOINCHE, TAKE,
    action_to_string, coinche_bid_action,
)
from .cards import ALL_TRUMP, NO_TRUMP, SUITS
from .config import Rules
from .contract import CAPOT, NUM_DENOMINATIONS, Contract
from .deprecation import renamed_in
from .table import NEXT_SEAT, SEATS, TEAM_OF, partner_of, seats_from

__all__ = ["Auction", "ClassicAuction", "CoincheAuction", "IllegalBidError", "new_auction", "classic_legal_bids",
           "classic_bid_denomination", "length_bound", "DENOMINATION_RANK", "ProposalAuction", "proposal_length_bound"]


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
        """An independent copy (``GameState.clone``): the slots shared, the history a new list
        (the other slots are only ever replaced, never changed in place)."""
        new = type(self).__new__(type(self))
        for name in type(self).__slots__:
            setattr(new, name, getattr(self, name))
        new.history = list(self.history)
        return new

    def _replay(self, history) -> None:
        """Apply ``history`` (``(seat, bid id)`` pairs, the constructors' argument) in order.
        Raises ``IllegalBidError`` for a bid out of turn, after the end or not legal."""
        for seat, bid in history:
            if seat != self.current:
                raise IllegalBidError(f"bid {bid!r} by seat {seat}: "
                                      + (f"seat {self.current} is to bid" if self.current >= 0
                                         else "the auction is over"))
            self.apply(bid)

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
        self._replay(history)

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

    def __repr__(self) -> str:
        return (f"ClassicAuction(dealer={self.dealer}, turned_card={self.turned_card}, history={self.history}, "
                f"contract={self.contract}, void={self.void})")


_ROUND1 = (PASS, TAKE)
#: the classic contracts (frozen, shared): ``[taker][denomination]``
_CLASSIC_CONTRACTS = tuple(tuple(Contract(seat, d) for d in range(NUM_DENOMINATIONS)) for seat in SEATS)


# ============================================================================= the coinche auction
#: ``denomination_order="ranked"`` (COINCHE.md §3.5): the rank of each denomination 0..5,
#: ♣ < ♦ < ♥ < ♠ < SA < TA (clubs 3 is the lowest, all-trump 5 the highest)
DENOMINATION_RANK = (3, 2, 1, 0, 4, 5)

# the kinds of turn of a coinche auction
_BIDDING = 0  # a normal turn (no coinche, or a coinche that does not freeze)
_WINDOW = 1  # coinche_window "immediate": an opponent of the bidder asked {no coinche (PASS), COINCHE}
_COINCHED = 2  # after a freezing coinche: the coinched team (and maybe the coincher's partner) speaks
_OVER = 3

_PASS_ONLY = (PASS,)
_WINDOW_BIDS = (PASS, COINCHE)


class _CoincheBids:
    """The bids of one coinche rule set (built once per ``Rules``, shared by its auctions):
    every bid id with its level, denomination and strength (a bid overcalls another iff its
    strength is higher), and a cache of the legal sets."""

    __slots__ = ("rules", "denominations", "levels", "info", "strengths", "legal_cache")

    def __init__(self, rules: Rules):
        self.rules = rules
        self.denominations = tuple(range(NUM_DENOMINATIONS)) if rules.coinche_denominations == "suits_sa_ta" \
            else tuple(SUITS)
        levels: list = list(range(80, rules.max_numeric_bid + 1, 10))
        if rules.capot_bid:
            levels.append(CAPOT)
        if rules.generale:
            levels.append(GENERALE)
        self.levels = tuple(levels)
        ranked = rules.denomination_order == "ranked"
        #: bid id -> (level, denomination, strength)
        self.info: dict[int, tuple] = {}
        for i, level in enumerate(self.levels):
            for d in self.denominations:
                # ranked: the denomination orders the numeric bids of a value, never two capots (§3.3)
                strength = i * NUM_DENOMINATIONS + (DENOMINATION_RANK[d] if isinstance(level, int) else 0) \
                    if ranked else i
                self.info[coinche_bid_action(level, d)] = (level, d, strength)
        self.strengths = tuple(sorted({v[2] for v in self.info.values()}))
        self.legal_cache: dict[tuple, tuple[tuple[int, ...], frozenset]] = {}

    def legal(self, above: int, exclude: int, bids: bool, coinche: bool, surcoinche: bool):
        """``(ascending ids, their set)``: ``PASS``, the bids of strength above ``above``
        (``-1``: every bid) and of a denomination other than ``exclude`` (when ``bids``),
        ``COINCHE`` and ``SURCOINCHE`` as asked."""
        key = (above, exclude, bids, coinche, surcoinche)
        hit = self.legal_cache.get(key)
        if hit is None:
            out = [PASS]
            if bids:
                out += [a for a, (_, d, st) in self.info.items() if st > above and d != exclude]
            if coinche:
                out.append(COINCHE)
            if surcoinche:
                out.append(SURCOINCHE)
            ids = tuple(sorted(out))
            hit = self.legal_cache[key] = (ids, frozenset(ids))
        return hit


_BIDS_CACHE: dict[Rules, _CoincheBids] = {}


def _coinche_bids(rules: Rules) -> _CoincheBids:
    table = _BIDS_CACHE.get(rules)
    if table is None:
        if rules.contract_mode != "coinche":
            raise ValueError(f"the coinche auction needs contract_mode='coinche' rules, got {rules.contract_mode!r}")
        if len(_BIDS_CACHE) > 256:  # many rule sets (a search over options): keep the memory bounded
            _BIDS_CACHE.clear()
        table = _BIDS_CACHE[rules] = _CoincheBids(rules)
    return table


def length_bound(rules: Rules) -> int:
    """The most decisions a coinche auction under ``rules`` can take (COINCHE.md §3.4), an
    upper bound that is reached by some auction unless ``capot_coinchable`` is False.

    With ``N`` bids in the longest chain of overcalls (the levels; under
    ``denomination_order="ranked"`` the numeric levels times the denominations, and one
    capot): 3 opening passes, ``N`` bids (each followed by
    a window of 2 under ``coinche_window="immediate"``), a gap between two bids, and an end
    after the last. The gap: the passes (2; 3 with ``passes_to_end=4`` and
    ``self_overbid="change_denomination"``), or 2 passes, a coinche and 2 passes with
    ``coinche_freezes=False`` in turn. The end: ``passes_to_end`` passes, or (in turn) 2
    passes and a coinche, then the coinched team's turns (2, 3 with
    ``coincher_partner_speaks``; 3 with ``coinche_freezes=False``). The defaults give 36
    (§3.4 says 34, missing the two passes a closing coinche may follow).
    """
    table = _coinche_bids(rules)
    n = len(table.strengths)
    p = rules.passes_to_end
    in_turn = rules.coinche_window == "in_turn"
    window = 0 if in_turn else 2
    gap = 2 + (p == 4 and rules.self_overbid == "change_denomination")
    if rules.coinche_freezes:
        after_coinche = 2 + rules.coincher_partner_speaks
    else:
        after_coinche = 3
        if in_turn:
            gap = max(gap, 2 + 1 + 2)
    end = max(p, (2 + 1 if in_turn else 0) + after_coinche)
    return 3 + n * (1 + window) + (n - 1) * gap + end


class CoincheAuction(Auction):
    """The coinche auction of one deal (COINCHE.md §3; the module docstring gives the
    protocol and every option).

    Args:
        dealer: the dealer's seat; eldest (the seat after it) speaks first.
        rules: ``contract_mode="coinche"`` rules (``ValueError`` otherwise); the auction
            options of COINCHE.md §3.5 and §6.8.
        history: bids already made (``(seat, bid)`` pairs, e.g. an ``InfoSet.auction``),
            applied in order (``IllegalBidError`` for one that is not legal, or by a seat
            that is not to act).

    Attributes (besides ``Auction``'s): ``rules``, ``dealer``, ``eldest``; read-only
    properties ``highest`` (``(level, denomination, bidder)`` or ``None``),
    ``coinche_level`` (0 / 1 / 2), ``coincher`` (seat or -1), ``passes``, ``in_window``.
    ``contract`` is a ``Contract(taker, denomination, level, multiplier)``: the seat that
    made the final bid, its denomination and level, multiplier 1, 2 (coinched) or
    ``rules.surcoinche_multiplier`` (surcoinched).
    """

    __slots__ = ("rules", "dealer", "eldest", "history", "current", "bid_round", "contract", "void",
                 "_bids", "_highest", "_strength", "_k", "_coincher", "_passes", "_turn", "_queue",
                 "_legal", "_legal_set")

    def __init__(self, dealer: int, rules: Rules, history=()):
        self._bids = _coinche_bids(rules)
        self.rules = rules
        self.dealer = dealer
        self.eldest = self.current = NEXT_SEAT[dealer]
        self.history: list[tuple[int, int]] = []
        self.bid_round = 1
        self.contract: Contract | None = None
        self.void = False
        self._highest: tuple | None = None  # (level, denomination, bidder)
        self._strength = -1  # the highest bid's strength, -1 before any
        self._k = 0
        self._coincher = -1
        self._passes = 0
        self._turn = _BIDDING
        self._queue: tuple[int, ...] = ()  # the seats still to be asked after ``current`` (window / coinched)
        self._set_legal()
        self._replay(history)

    # ------------------------------------------------------------------ read-only state
    @property
    def highest(self) -> tuple | None:
        """The highest bid so far, ``(level, denomination, bidder)``, or ``None``."""
        return self._highest

    @property
    def coinche_level(self) -> int:
        """COINCHE.md §3.3's ``k``: 0, 1 (coinched) or 2 (surcoinched)."""
        return self._k

    @property
    def coincher(self) -> int:
        """The seat that coinched the current contract, or -1."""
        return self._coincher

    @property
    def passes(self) -> int:
        """The consecutive passes since the last bid or coinche (or the start) that count
        towards the end of the auction (window turns do not)."""
        return self._passes

    @property
    def in_window(self) -> bool:
        """True while the seat to act is asked in the immediate coinche window
        (``coinche_window="immediate"``): its ``PASS`` means "no coinche"."""
        return self._turn == _WINDOW

    # ------------------------------------------------------------------ the protocol
    def legal_bids(self) -> tuple[int, ...]:
        return self._legal

    def _set_legal(self) -> None:
        turn = self._turn
        if turn == _WINDOW:
            legal = _WINDOW_BIDS
        elif turn == _COINCHED:
            legal = (_PASS_ONLY if self.current == partner_of(self._coincher) or not self.rules.surcoinche_allowed
                     else (PASS, SURCOINCHE))
        elif turn == _OVER:
            self._legal, self._legal_set = (), frozenset()
            return
        else:
            rules, seat, high = self.rules, self.current, self._highest
            if high is None:
                self._legal, self._legal_set = self._bids.legal(-1, -1, True, False, False)
                return
            bidder = high[2]
            bids, exclude = True, -1
            if seat == bidder:  # overbidding oneself (passes_to_end 4, or an escape from a coinche)
                if rules.self_overbid == "change_denomination":
                    exclude = high[1]
                else:
                    bids = False
            opponent = TEAM_OF[seat] != TEAM_OF[bidder]
            coinche = self._k == 0 and opponent and rules.coinche_window == "in_turn" and self._coinchable()
            surcoinche = self._k == 1 and not opponent and rules.surcoinche_allowed
            self._legal, self._legal_set = self._bids.legal(self._strength, exclude, bids, coinche, surcoinche)
            return
        self._legal, self._legal_set = legal, frozenset(legal)

    def _coinchable(self) -> bool:
        return self.rules.capot_coinchable or self._highest[0] != CAPOT

    def apply(self, bid: int) -> None:
        if type(bid) is bool or not hasattr(bid, "__index__") or bid.__index__() not in self._legal_set:
            raise self._illegal(bid)
        bid = bid.__index__()
        seat = self.current
        self.history.append((seat, bid))
        turn = self._turn
        if bid == COINCHE:
            self._coinche(seat)
        elif bid == SURCOINCHE:
            self._k = 2
            self._end(self.rules.surcoinche_multiplier)
            return
        elif turn == _WINDOW:  # PASS: no coinche
            if self._queue:
                self.current, self._queue = self._queue[0], self._queue[1:]
            else:  # both opponents declined: the normal next turn
                self._turn = _BIDDING
                self.current = NEXT_SEAT[self._highest[2]]
        elif turn == _COINCHED:  # PASS by a coinched-team seat (or the coincher's partner)
            if not self._queue:
                self._end(2)
                return
            self.current, self._queue = self._queue[0], self._queue[1:]
        elif bid == PASS:
            self._passes += 1
            if self._highest is None:
                if self._passes == 4:  # four opening passes: the deal is void (§3.4, §3.6)
                    self.void = True
                    self._over()
                    return
            elif self._passes == (3 if self._k else self.rules.passes_to_end):
                self._end(2 if self._k else 1)
                return
            self.current = NEXT_SEAT[seat]
        else:  # a bid: it overcalls (and cancels a coinche that does not freeze)
            level, d, strength = self._bids.info[bid]
            self._highest = (level, d, seat)
            self._strength = strength
            self._k, self._coincher, self._passes = 0, -1, 0
            if self.rules.coinche_window == "immediate" and self._coinchable():
                self._turn = _WINDOW
                partner = partner_of(seat)
                self.current, self._queue = NEXT_SEAT[seat], (NEXT_SEAT[partner],)
            else:
                self.current = NEXT_SEAT[seat]
        self._set_legal()

    def _coinche(self, c: int) -> None:
        """A coinche by seat ``c`` of the current contract."""
        self._k, self._coincher, self._passes = 1, c, 0
        _, c1, c2, c3 = seats_from(c)
        if self.rules.coinche_freezes:  # the coinched team speaks: c+1, (c+2 with pass only), c+3
            self._turn = _COINCHED
            self.current = c1
            self._queue = (c2, c3) if self.rules.coincher_partner_speaks else (c3,)
        else:  # the auction goes on in play order; a higher bid escapes
            self._turn = _BIDDING
            self.current = c1
            self._queue = ()

    def _end(self, multiplier: int) -> None:
        level, d, taker = self._highest
        self.contract = Contract(taker, d, level, multiplier)
        self._over()

    def _over(self) -> None:
        self.bid_round = 0
        self.current = -1
        self._turn = _OVER
        self._queue = ()
        self._legal, self._legal_set = (), frozenset()

    def _illegal(self, bid) -> IllegalBidError:
        legal = ", ".join(f"{a} ({action_to_string(a)})" for a in self._legal)
        try:
            name = f" ({action_to_string(bid)})"
        except (ValueError, TypeError, KeyError):
            name = ""
        why = ""
        if self._turn == _WINDOW:
            why = " (the immediate coinche window: pass = no coinche)"
        elif self._turn == _COINCHED:
            why = f" (the contract is coinched by seat {self._coincher} and frozen)"
        elif self._turn == _OVER:
            why = " (the auction is over)"
        return IllegalBidError(f"bid {bid!r}{name} by seat {self.current} is not legal now; "
                               f"legal bids: [{legal}]{why}")

    def __repr__(self) -> str:
        return (f"CoincheAuction(dealer={self.dealer}, history={self.history}, highest={self._highest}, "
                f"coinche_level={self._k}, coincher={self._coincher}, current={self.current}, "
                f"contract={self.contract}, void={self.void})")


# ============================================================================= two and three players
class ProposalAuction(Auction):
    """The bidding of the two- and three-player games (TWO_THREE.md §2.3, §3; §4 A3-A7,
    A27), one deal.

    Round 1 (trump = the turned card's suit): from the elder (the seat after the dealer)
    each seat may ``TAKE`` (accept: it becomes maker), ``PASS`` or ``PROPOSE_REDEAL``.
    Round 2: ``NAME_CONTRACT + s`` for a suit ``s`` other than the turned one, ``PASS`` or
    ``PROPOSE_REDEAL``, except that the dealer's last turn offers no proposal (unless
    ``dealer_round2_proposal``). A proposal is put to the other seats in turn order
    (``redeal_consent="both_others"``; ``"next_player"``: only the next seat), each of
    which answers ``AGREE_REDEAL`` or ``REFUSE_REDEAL``: the first refusal makes the
    proposer maker, with the turned suit in round 1, or, in round 2, after he names a suit
    other than the turned one (his only legal bids); when every asked seat agrees, the
    deal is redealt (``redeal``: by the same dealer, or the elder under
    ``redeal_dealer="elder"``). Every seat passing twice voids the deal, and the elder
    deals the next (S001). ``redeal_proposal=False``: no proposals at all.

    Attributes (besides ``Auction``'s): ``players``, ``dealer``, ``elder``,
    ``turned_card``, ``turned_suit``, ``redeal`` (True once an agreed proposal voided the
    deal), ``proposer`` (the seat whose proposal is being answered, else -1),
    ``must_name`` (True while a refused round-2 proposer must name a suit).
    """

    __slots__ = ("rules", "players", "dealer", "elder", "turned_card", "turned_suit", "history", "current",
                 "bid_round", "contract", "void", "redeal", "proposer", "answerers", "must_name", "passes", "_legal")

    def __init__(self, dealer: int, turned_card: int, rules: Rules, history=()):
        self.rules = rules
        self.players = n = rules.players
        self.dealer = dealer
        self.turned_card = turned_card
        self.turned_suit = turned_card >> 3
        self.elder = self.current = (dealer + 1) % n
        self.history: list[tuple[int, int]] = []
        self.bid_round = 1
        self.contract: Contract | None = None
        self.void = False
        self.redeal = False
        self.proposer = -1
        self.answerers: tuple[int, ...] = ()
        self.must_name = False
        self.passes = 0  # seats that passed in this round
        self._legal: tuple[int, ...] | None = None
        self._replay(history)

    def legal_bids(self) -> tuple[int, ...]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _names(self) -> tuple[int, ...]:
        return tuple(NAME_CONTRACT + s for s in SUITS if s != self.turned_suit)

    def _compute_legal(self) -> tuple[int, ...]:
        if self.current < 0:
            return ()
        if self.must_name:
            return self._names()
        if self.proposer >= 0:
            return (AGREE_REDEAL, REFUSE_REDEAL)
        rules = self.rules
        propose = rules.redeal_proposal
        if self.bid_round == 1:
            return (PASS, TAKE) + ((PROPOSE_REDEAL,) if propose else ())
        if self.current == self.dealer and not rules.dealer_round2_proposal:
            propose = False  # S001, WKC: the dealer's last turn is name or pass (A7)
        return (PASS,) + self._names() + ((PROPOSE_REDEAL,) if propose else ())

    def apply(self, bid: int) -> None:
        legal = self._legal if self._legal is not None else self.legal_bids()
        if bid not in legal or type(bid) is bool:
            raise self._illegal(bid)
        seat = self.current
        self.history.append((seat, bid))
        self._legal = None
        n = self.players
        if bid == TAKE:
            self._over(Contract(seat, self.turned_suit))
        elif NAME_CONTRACT <= bid < NAME_CONTRACT + 4:
            self._over(Contract(seat, bid - NAME_CONTRACT))
        elif bid == PROPOSE_REDEAL:
            self.proposer = seat
            if self.rules.players == 3 and self.rules.redeal_consent == "both_others":
                self.answerers = ((seat + 1) % n, (seat + 2) % n)
            else:
                self.answerers = ((seat + 1) % n,)
            self.current = self.answerers[0]
        elif bid == AGREE_REDEAL:
            self.answerers = self.answerers[1:]
            if self.answerers:
                self.current = self.answerers[0]
            else:  # every asked seat agreed: a redeal (A3)
                self.redeal = self.void = True
                self._over(None)
        elif bid == REFUSE_REDEAL:  # the proposer must play (S001; A4b)
            proposer, self.proposer, self.answerers = self.proposer, -1, ()
            if self.bid_round == 1:
                self._over(Contract(proposer, self.turned_suit))
            else:
                self.must_name = True
                self.current = proposer
        else:  # PASS
            self.passes += 1
            if self.passes == n:
                if self.bid_round == 1:
                    self.bid_round, self.passes = 2, 0
                    self.current = self.elder
                else:  # every seat passed twice: void, the elder deals next (S001)
                    self.void = True
                    self._over(None)
            else:
                self.current = (seat + 1) % n

    def _over(self, contract: Contract | None) -> None:
        self.contract = contract
        self.bid_round = 0
        self.current = -1
        self.must_name = False
        self._legal = ()

    def __repr__(self) -> str:
        return (f"ProposalAuction(players={self.players}, dealer={self.dealer}, turned_card={self.turned_card}, "
                f"history={self.history}, contract={self.contract}, void={self.void}, redeal={self.redeal})")


def proposal_length_bound(rules: Rules) -> int:
    """The most decisions one bidding of the two- or three-player game can take (exact,
    by search over every legal sequence; TWO_THREE.md §2.3: 5 at two seats under the
    defaults)."""
    best = 0
    stack = [ProposalAuction(0, 0, rules)]
    while stack:
        a = stack.pop()
        if a.is_over:
            best = max(best, len(a.history))
            continue
        for bid in a.legal_bids():
            b = a.copy()
            b.apply(bid)
            stack.append(b)
    return best


def new_auction(dealer: int, turned_card: int, rules: Rules, history=()) -> Auction:
    """The auction ``rules`` play, for a deal by ``dealer`` with ``turned_card`` turned,
    after the bids of ``history`` (``(seat, bid)`` pairs). The one place an auction is
    chosen: the engine starts each deal's auction here, and the expert's search replays
    and simulates auctions through it: ``contract_mode="coinche"`` plays ``CoincheAuction``
    (``turned_card`` is ignored: nothing is turned in coinche, it is -1), every other rule
    set ``ClassicAuction``; two and three seats ``ProposalAuction`` (the game's auction part,
    ``games.Game.auction``)."""
    from .games import game_of

    return game_of(rules).auction(dealer, turned_card, rules, history)


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "SmallAuction": "ProposalAuction",
    "small_length_bound": "proposal_length_bound",
})
