"""The coinche auction (``auction.CoincheAuction``, COINCHE.md §3): the worked examples A1-A8
of §10.2 with their outcomes and legal sets, one test per auction option that fails when the
option is ignored, the length bound (§3.4) checked by an exhaustive longest-path search,
seeded random auctions under random mixes of options checked against a small reference
model, copies, replays, error messages and ``new_auction``'s choice."""

from __future__ import annotations

import itertools
import random

import pytest

from belote_env.actions import (
    COINCHE, GENERALE_BID, HIGH_BID, PASS, SURCOINCHE, action_to_string, bid_denomination, coinche_bid_action,
    coinche_bid_level, is_bid, is_coinche_bid,
)
from belote_env.auction import (
    DENOMINATION_RANK, Auction, ClassicAuction, CoincheAuction, IllegalBidError, length_bound, new_auction,
)
from belote_env.cards import ALL_TRUMP, NO_TRUMP, parse_card
from belote_env.config import RuleOptionError, Rules
from belote_env.contract import CAPOT, GENERALE, Contract
from belote_env.table import NEXT_SEAT, TEAM_OF, partner_of
from tests.vector_harness import defined_mix

S, H, D, CL = 0, 1, 2, 3  # ♠ ♥ ♦ ♣
SUITS4 = (S, H, D, CL)
DEALER = 3  # §10: dealer 3, eldest 0
NUMERIC = tuple(range(80, 161, 10))


def rules(**kw) -> Rules:
    return Rules(contract_mode="coinche", **kw)


R = rules()


def bid(level, d) -> int:
    return coinche_bid_action(level, d)


def bids(levels, denominations=SUITS4) -> list[int]:
    return [bid(v, d) for v in levels for d in denominations]


def legal(*parts) -> tuple[int, ...]:
    """The ascending tuple of the ids in ``parts`` (ints or iterables of ints)."""
    out = []
    for p in parts:
        out += [p] if isinstance(p, int) else list(p)
    return tuple(sorted(out))


def play(seq, r=R, dealer=DEALER) -> CoincheAuction:
    """A coinche auction after ``seq``: ``(seat, bid)`` pairs, each checked to be the seat to act."""
    a = CoincheAuction(dealer, r)
    for seat, b in seq:
        assert a.current == seat, (seq, a)
        a.apply(b)
    return a


ALL_SUIT_BIDS = legal(PASS, bids(NUMERIC + (CAPOT,)))  # the opening legal set under the defaults


# ============================================================================= §10.2 A1-A8
def test_a1_simple():
    a = CoincheAuction(DEALER, R)
    assert isinstance(a, Auction) and a.current == 0 and a.eldest == 0 and a.bid_round == 1 and not a.is_over
    assert a.legal_bids() == ALL_SUIT_BIDS  # pass, 80..160 and capot in the four suits; nothing to coinche
    assert a.highest is None and a.coinche_level == 0 and a.coincher == -1
    a.apply(bid(80, H))
    assert a.highest == (80, H, 0) and a.current == 1
    assert a.legal_bids() == legal(PASS, bids(NUMERIC[1:] + (CAPOT,)), COINCHE)  # seat 1 is an opponent
    a.apply(PASS)
    assert a.legal_bids() == legal(PASS, bids(NUMERIC[1:] + (CAPOT,)))  # seat 2: its partner's bid
    a.apply(PASS)
    a.apply(PASS)
    assert a.contract == Contract(0, H, 80, 1) and not a.void and a.is_over
    assert len(a.history) == 4 and a.current == -1 and a.bid_round == 0 and a.legal_bids() == ()


def test_a2_all_pass_is_void():
    a = play([(0, PASS), (1, PASS), (2, PASS)])
    assert not a.is_over and a.current == 3 and a.passes == 3 and a.legal_bids() == ALL_SUIT_BIDS
    a.apply(PASS)
    assert a.void and a.contract is None and a.is_over and a.current == -1 and a.legal_bids() == ()
    assert a.history == [(0, PASS), (1, PASS), (2, PASS), (3, PASS)]


def test_a3_partner_raise_coinche_surcoinche():
    a = play([(0, bid(80, S)), (1, bid(90, H))])
    assert a.current == 2 and bid(100, S) in a.legal_bids() and COINCHE in a.legal_bids()
    a.apply(bid(100, S))  # a raise in its partner's suit
    assert a.current == 3 and COINCHE in a.legal_bids()  # 100♠ is an opponent's bid
    a.apply(COINCHE)
    assert a.coinche_level == 1 and a.coincher == 3 and a.current == 0 and a.highest == (100, S, 2)
    assert a.legal_bids() == (PASS, SURCOINCHE)  # frozen: no bid
    for illegal in (bid(110, S), bid(110, H), bid(CAPOT, S), COINCHE):
        with pytest.raises(IllegalBidError):
            a.apply(illegal)
    before = a.history[:]
    with pytest.raises(IllegalBidError, match="seat 0 is to bid"):  # seat 1 may not act after step 4
        CoincheAuction(DEALER, R, before + [(1, PASS)])
    a.apply(PASS)
    assert a.current == 2 and a.legal_bids() == (PASS, SURCOINCHE)  # seat 1, the coincher's partner, skipped
    with pytest.raises(IllegalBidError):
        CoincheAuction(DEALER, R, a.history + [(1, PASS)])
    a.apply(SURCOINCHE)
    assert a.contract == Contract(2, S, 100, 4) and a.coinche_level == 2 and len(a.history) == 6
    # the surcoinche multiplier option
    b = CoincheAuction(DEALER, rules(surcoinche_multiplier=3), a.history)
    assert b.contract == Contract(2, S, 100, 3)


def test_a3_coincher_partner_speaks():
    r = rules(coincher_partner_speaks=True)
    a = play([(0, bid(80, S)), (1, bid(90, H)), (2, bid(100, S)), (3, COINCHE)], r)
    assert a.current == 0 and a.legal_bids() == (PASS, SURCOINCHE)
    a.apply(PASS)
    assert a.current == 1 and a.legal_bids() == (PASS,)  # the only legal action
    with pytest.raises(IllegalBidError):
        a.apply(SURCOINCHE)
    a.apply(PASS)
    assert a.current == 2 and a.legal_bids() == (PASS, SURCOINCHE)
    a.apply(SURCOINCHE)
    assert a.contract == Contract(2, S, 100, 4) and len(a.history) == 7
    # the outcome is identical when all pass: coinched
    b = play([(0, bid(80, S)), (1, bid(90, H)), (2, bid(100, S)), (3, COINCHE), (0, PASS), (1, PASS), (2, PASS)], r)
    assert b.contract == Contract(2, S, 100, 2)


def test_a4_who_may_coinche():
    a = play([(0, bid(80, CL))])
    assert COINCHE in a.legal_bids()  # seat 1 may coinche
    a.apply(PASS)
    assert a.current == 2 and a.legal_bids() == legal(PASS, bids(NUMERIC[1:] + (CAPOT,)))  # no coinche
    with pytest.raises(IllegalBidError):
        a.apply(COINCHE)


def test_a5_capot_then_coinche():
    a = play([(0, bid(90, D))])
    assert bid(CAPOT, S) in a.legal_bids()  # a jump straight to capot
    a.apply(bid(CAPOT, S))
    assert a.current == 2 and a.legal_bids() == (PASS, COINCHE)  # no bid exists above capot
    a.apply(PASS)
    assert a.legal_bids() == (PASS,)  # seat 3: its partner's capot
    a.apply(PASS)
    assert a.current == 0 and a.legal_bids() == (PASS, COINCHE)
    a.apply(COINCHE)
    assert a.current == 1 and a.legal_bids() == (PASS, SURCOINCHE)
    a.apply(PASS)
    assert a.current == 3
    a.apply(PASS)
    assert a.contract == Contract(1, S, CAPOT, 2) and len(a.history) == 7


def test_a5_capot_not_coinchable():
    r = rules(capot_coinchable=False)
    a = play([(0, bid(90, D)), (1, bid(CAPOT, S))], r)
    assert a.legal_bids() == (PASS,)
    a.apply(PASS)
    a.apply(PASS)
    assert a.current == 0 and a.legal_bids() == (PASS,)  # step 5 may only be pass
    with pytest.raises(IllegalBidError):
        a.apply(COINCHE)
    a.apply(PASS)
    assert a.contract == Contract(1, S, CAPOT, 1)
    # a numeric contract stays coinchable
    assert COINCHE in play([(0, bid(90, D))], r).legal_bids()


def test_a6_a_passer_bids_again():
    seq = [(0, PASS), (1, bid(80, H)), (2, PASS), (3, PASS), (0, bid(90, S)), (1, PASS), (2, PASS), (3, PASS)]
    a = play(seq)
    assert a.contract == Contract(0, S, 90, 1) and len(a.history) == 8


def test_a7_only_the_current_contract_can_be_coinched():
    a = play([(0, bid(80, H))])
    a.apply(bid(90, S))
    assert a.current == 2 and COINCHE in a.legal_bids()  # seat 1 is an opponent
    b = a.copy()
    a.apply(COINCHE)
    assert a.coincher == 2 and a.current == 3 and a.legal_bids() == (PASS, SURCOINCHE)
    a.apply(PASS)
    assert a.current == 1  # seat 0, the coincher's partner, is skipped
    a.apply(PASS)
    assert a.contract == Contract(1, S, 90, 2)
    # seat 2 has no way to coinche 80♥ (its partner's, and no longer the current contract):
    c = play([(0, bid(80, H)), (1, PASS)])
    assert c.current == 2 and COINCHE not in c.legal_bids()
    assert b.highest == (90, S, 1)  # COINCHE always targets the current contract


def test_a8_self_overbid():
    seq = [(0, bid(100, H)), (1, PASS), (2, PASS), (3, PASS)]
    a = play(seq)
    assert a.contract == Contract(0, H, 100, 1) and len(a.history) == 4  # seat 0 never speaks again
    # passes_to_end 4, self_overbid forbidden: seat 0 speaks again, and may only pass
    r4 = rules(passes_to_end=4)
    a = play(seq, r4)
    assert not a.is_over and a.current == 0 and a.passes == 3 and a.legal_bids() == (PASS,)
    with pytest.raises(IllegalBidError):
        a.apply(bid(110, S))
    a.apply(PASS)
    assert a.contract == Contract(0, H, 100, 1) and len(a.history) == 5
    # change_denomination: 110 (or more, or capot) in any denomination except ♥
    rc = rules(passes_to_end=4, self_overbid="change_denomination")
    a = play(seq, rc)
    assert a.legal_bids() == legal(PASS, bids(NUMERIC[3:] + (CAPOT,), (S, D, CL)))
    for illegal in (bid(110, H), bid(CAPOT, H), COINCHE):
        with pytest.raises(IllegalBidError):
            a.apply(illegal)
    b = a.copy()
    b.apply(PASS)
    assert b.contract == Contract(0, H, 100, 1)
    a.apply(bid(110, S))
    assert a.passes == 0 and a.highest == (110, S, 0)
    for seat in (1, 2, 3):
        a.apply(PASS)
    assert a.current == 0 and not a.is_over and bid(120, S) not in a.legal_bids() and bid(120, H) in a.legal_bids()
    a.apply(PASS)
    assert a.contract == Contract(0, S, 110, 1)


# ============================================================================= each option
def test_option_coinche_denominations():
    assert bid(80, NO_TRUMP) not in CoincheAuction(DEALER, R).legal_bids()
    r = rules(coinche_denominations="suits_sa_ta")
    a = CoincheAuction(DEALER, r)
    assert a.legal_bids() == legal(PASS, bids(NUMERIC + (CAPOT,), range(6)))
    a.apply(bid(120, NO_TRUMP))
    a.apply(bid(130, ALL_TRUMP))
    for _ in range(3):
        a.apply(PASS)
    assert a.contract == Contract(1, ALL_TRUMP, 130, 1) and a.contract.is_all_trump


def test_option_max_numeric_bid():
    assert not any(b >= HIGH_BID for b in CoincheAuction(DEALER, R).legal_bids())
    r = rules(max_numeric_bid=180)
    a = CoincheAuction(DEALER, r)
    assert a.legal_bids() == legal(PASS, bids(NUMERIC + (170, 180, CAPOT)))
    assert bid(170, S) == HIGH_BID and coinche_bid_level(bid(180, CL)) == 180
    a.apply(bid(180, CL))
    assert a.legal_bids() == legal(PASS, bids((CAPOT,)), COINCHE)
    a.apply(PASS)
    a.apply(PASS)
    a.apply(PASS)
    assert a.contract == Contract(0, CL, 180, 1)
    big = CoincheAuction(DEALER, rules(max_numeric_bid=650))
    assert bid(650, S) in big.legal_bids() and len(big.legal_bids()) == 1 + (58 + 1) * 4


def test_option_denomination_order_ranked():
    assert DENOMINATION_RANK[CL] < DENOMINATION_RANK[D] < DENOMINATION_RANK[H] < DENOMINATION_RANK[S]
    assert DENOMINATION_RANK[S] < DENOMINATION_RANK[NO_TRUMP] < DENOMINATION_RANK[ALL_TRUMP]
    a = play([(0, bid(80, H))])
    assert bid(80, S) not in a.legal_bids()  # default: only the value counts
    r = rules(denomination_order="ranked")
    a = play([(0, bid(80, H))], r)
    assert a.legal_bids() == legal(PASS, bid(80, S), bids(NUMERIC[1:] + (CAPOT,)), COINCHE)
    a.apply(bid(80, S))  # an equal value in a higher denomination overcalls
    assert a.highest == (80, S, 1) and bid(80, H) not in a.legal_bids()
    r6 = rules(denomination_order="ranked", coinche_denominations="suits_sa_ta")
    a = play([(0, bid(100, S))], r6)
    assert [b for b in a.legal_bids() if is_coinche_bid(b) and coinche_bid_level(b) == 100] == \
        sorted([bid(100, NO_TRUMP), bid(100, ALL_TRUMP)])
    # the ranking orders numeric bids only: no capot overcalls a capot (§3.3 "unless C is
    # already capot"), whatever its denomination
    a = play([(0, bid(CAPOT, D))], r)
    assert a.legal_bids() == (PASS, COINCHE)
    assert play([(0, bid(CAPOT, D))]).legal_bids() == (PASS, COINCHE)
    a6 = play([(0, bid(CAPOT, CL))], r6)
    assert a6.legal_bids() == (PASS, COINCHE)
    a6 = play([(0, bid(160, ALL_TRUMP))], r6)  # any capot still overcalls the highest numeric bid
    assert all(bid(CAPOT, d) in a6.legal_bids() for d in (CL, D, H, S, NO_TRUMP, ALL_TRUMP))
    # a ranked auction ends like any other
    a.apply(PASS)
    a.apply(PASS)
    a.apply(PASS)
    assert a.contract == Contract(0, D, CAPOT, 1)


def test_option_coinche_window_immediate():
    r = rules(coinche_window="immediate")
    a = play([(0, bid(80, H))], r)
    # seat 1 then seat 3 are asked {no coinche (PASS), COINCHE} before seat 1's normal turn
    assert a.current == 1 and a.in_window and a.legal_bids() == (PASS, COINCHE)
    a.apply(PASS)
    assert a.current == 3 and a.in_window and a.legal_bids() == (PASS, COINCHE) and a.passes == 0
    a.apply(PASS)
    assert a.current == 1 and not a.in_window and a.passes == 0
    assert a.legal_bids() == legal(PASS, bids(NUMERIC[1:] + (CAPOT,)))  # coinche only in the window
    for _ in range(3):
        a.apply(PASS)
    assert a.contract == Contract(0, H, 80, 1) and len(a.history) == 6
    # a coinche in the window, by the second opponent asked
    a = play([(0, bid(80, H)), (1, PASS), (3, COINCHE)], r)
    assert a.coincher == 3 and a.current == 0 and a.legal_bids() == (PASS, SURCOINCHE)
    a.apply(PASS)
    assert a.current == 2
    a.apply(PASS)
    assert a.contract == Contract(0, H, 80, 2)
    # under in_turn the same first reply is seat 1's normal turn, and seat 3 is not asked next
    a = play([(0, bid(80, H)), (1, PASS)])
    assert a.current == 2 and not a.in_window
    # a partner's raise opens a new window for the opponents of the new bidder
    a = play([(0, bid(80, H)), (1, PASS), (3, PASS), (1, PASS), (2, bid(90, H))], r)
    assert a.current == 3 and a.in_window and a.legal_bids() == (PASS, COINCHE)
    a.apply(COINCHE)  # the first opponent asked coinches: seat 1 is not asked
    assert a.current == 0 and a.coincher == 3


def test_option_coinche_freezes_false():
    r = rules(coinche_freezes=False)
    seq = [(0, bid(80, H)), (1, COINCHE)]
    a = play(seq, r)
    # play goes on from seat 2 (the bidder's partner): it may escape by a higher bid, or surcoinche
    assert a.coinche_level == 1 and a.current == 2
    assert a.legal_bids() == legal(PASS, bids(NUMERIC[1:] + (CAPOT,)), SURCOINCHE)
    frozen = play(seq)
    assert frozen.current == 2 and frozen.legal_bids() == (PASS, SURCOINCHE)
    a.apply(bid(90, S))  # décoincher: the coinche is cancelled
    assert a.coinche_level == 0 and a.coincher == -1 and a.highest == (90, S, 2) and a.passes == 0
    assert COINCHE in a.legal_bids()  # seat 3 may coinche the new contract
    for _ in range(3):
        a.apply(PASS)
    assert a.contract == Contract(2, S, 90, 1)
    # three consecutive passes after a coinche end it, coinched; the coincher's partner has a
    # real turn (it may bid), the bidder may not overbid itself, nobody coinches twice
    a = play([(0, bid(80, H)), (1, PASS), (2, PASS), (3, COINCHE)], r)
    assert a.current == 0 and a.legal_bids() == (PASS, SURCOINCHE)
    a.apply(PASS)
    assert a.current == 1 and a.legal_bids() == legal(PASS, bids(NUMERIC[1:] + (CAPOT,)))
    a.apply(PASS)
    assert a.current == 2 and a.legal_bids() == legal(PASS, bids(NUMERIC[1:] + (CAPOT,)), SURCOINCHE)
    a.apply(PASS)
    assert a.contract == Contract(0, H, 80, 2) and len(a.history) == 7
    # a surcoinche still ends it at once
    a = play([(0, bid(80, H)), (1, COINCHE), (2, SURCOINCHE)], r)
    assert a.contract == Contract(0, H, 80, 4)
    # with passes_to_end 4 too, three passes after a coinche end it
    a = play([(0, bid(80, H)), (1, COINCHE), (2, PASS), (3, PASS), (0, PASS)],
             rules(coinche_freezes=False, passes_to_end=4))
    assert a.contract == Contract(0, H, 80, 2)
    # and a coinche in the immediate window does not freeze either
    a = play([(0, bid(80, H)), (1, COINCHE)], rules(coinche_freezes=False, coinche_window="immediate"))
    assert a.current == 2 and bid(90, H) in a.legal_bids() and not a.in_window


def test_option_capot_bid():
    assert bid(CAPOT, S) in CoincheAuction(DEALER, R).legal_bids()
    a = CoincheAuction(DEALER, rules(capot_bid=False))
    assert a.legal_bids() == legal(PASS, bids(NUMERIC))
    a.apply(bid(160, S))
    assert a.current == 1 and a.legal_bids() == (PASS, COINCHE)  # nothing above 160
    with pytest.raises(IllegalBidError):
        a.apply(bid(CAPOT, H))


def test_option_surcoinche_allowed():
    r = rules(surcoinche_allowed=False)
    a = play([(0, bid(80, H)), (1, COINCHE)], r)
    assert a.current == 2 and a.legal_bids() == (PASS,)  # the coinched team keeps its (forced) turns
    with pytest.raises(IllegalBidError):
        a.apply(SURCOINCHE)
    a.apply(PASS)
    assert a.current == 0 and a.legal_bids() == (PASS,)
    a.apply(PASS)
    assert a.contract == Contract(0, H, 80, 2)
    a = play([(0, bid(80, H)), (1, COINCHE)], rules(surcoinche_allowed=False, coinche_freezes=False))
    assert SURCOINCHE not in a.legal_bids() and bid(90, H) in a.legal_bids()


def test_option_passes_to_end():
    seq = [(0, bid(80, H)), (1, PASS), (2, PASS), (3, PASS)]
    assert play(seq).is_over
    a = play(seq, rules(passes_to_end=4))
    assert not a.is_over and a.current == 0
    a.apply(PASS)
    assert a.contract == Contract(0, H, 80, 1)
    # four opening passes still void the deal
    assert play([(0, PASS), (1, PASS), (2, PASS), (3, PASS)], rules(passes_to_end=4)).void
    # a bid resets the count
    a = play([(0, bid(80, H)), (1, PASS), (2, PASS), (3, bid(90, S)), (0, PASS), (1, PASS), (2, PASS)],
             rules(passes_to_end=4))
    assert a.current == 3 and a.legal_bids() == (PASS,)


def test_option_generale():
    assert not any(b >= GENERALE_BID for b in CoincheAuction(DEALER, R).legal_bids())
    r = rules(generale=True)
    a = CoincheAuction(DEALER, r)
    assert a.legal_bids() == legal(PASS, bids(NUMERIC + (CAPOT, GENERALE)))
    assert bid(GENERALE, S) == GENERALE_BID and action_to_string(GENERALE_BID + CL) == "bid generale clubs"
    a.apply(bid(CAPOT, H))
    assert a.legal_bids() == legal(PASS, bids((GENERALE,)), COINCHE)  # générale over capot
    a.apply(bid(GENERALE, D))
    assert a.legal_bids() == (PASS, COINCHE)  # nothing above générale
    a.apply(PASS)
    a.apply(PASS)
    a.apply(PASS)
    assert a.contract == Contract(1, D, GENERALE, 1)
    # a générale can be coinched; no source says whether it can where a capot cannot (refused, COINCHE.md §7)
    a = play([(0, bid(GENERALE, S)), (1, COINCHE), (2, PASS), (0, PASS)], rules(generale=True))
    assert a.contract == Contract(0, S, GENERALE, 2)
    with pytest.raises(RuleOptionError, match="generale True and capot_coinchable False together are not defined"):
        rules(generale=True, capot_coinchable=False)
    with pytest.raises(RuleOptionError, match="generale True and denomination_order 'ranked' together are not defined"):
        rules(generale=True, denomination_order="ranked")
    # générale without the capot bid
    a = CoincheAuction(DEALER, rules(generale=True, capot_bid=False))
    assert a.legal_bids() == legal(PASS, bids(NUMERIC + (GENERALE,)))


def test_option_surcoinche_multiplier():
    seq = [(0, bid(80, H)), (1, COINCHE), (2, SURCOINCHE)]
    assert play(seq).contract.multiplier == 4
    assert play(seq, rules(surcoinche_multiplier=3)).contract.multiplier == 3


# ============================================================================= the length bound (§3.4)
LONGEST_DEFAULT = (
    [PASS] * 3 + [bid(80, S)]
    + [x for v in NUMERIC[1:] + (CAPOT,) for x in (PASS, PASS, bid(v, S))]
    + [PASS, PASS, COINCHE, PASS, PASS]
)


def test_longest_default_auction_is_36():
    """§3.4 counts 34 (3 closing decisions); the closing coinche may follow two passes, and
    the coinched team then speaks twice: 3 + 10 + 9*2 + 5 = 36."""
    a = CoincheAuction(DEALER, R)
    for b in LONGEST_DEFAULT:
        a.apply(b)
    assert len(a.history) == 36 == length_bound(R) and a.contract.level == CAPOT and a.contract.multiplier == 2
    assert length_bound(rules(generale=True)) == 39 and length_bound(rules(coincher_partner_speaks=True)) == 37


def _state_key(a: CoincheAuction):
    return (a.highest, a.coinche_level, a.coincher, a.passes, a.in_window, a.current, a._turn, a._queue)


def longest_auction(r: Rules) -> int:
    """The most decisions any auction under ``r`` takes: an exhaustive search (memoised on
    the state, which fixes the future)."""
    memo: dict = {}

    def longest(a: CoincheAuction) -> int:
        if a.is_over:
            return 0
        key = _state_key(a)
        if key not in memo:
            best = 0
            for b in a.legal_bids():
                nxt = a.copy()
                nxt.apply(b)
                best = max(best, 1 + longest(nxt))
            memo[key] = best
        return memo[key]

    return longest(CoincheAuction(DEALER, r))


@pytest.mark.parametrize("kw", [
    {}, dict(generale=True), dict(coincher_partner_speaks=True), dict(coinche_window="immediate"),
    dict(coinche_freezes=False), dict(coinche_freezes=False, coinche_window="immediate"),
    dict(passes_to_end=4), dict(passes_to_end=4, self_overbid="change_denomination"),
    dict(surcoinche_allowed=False, capot_bid=False), dict(coinche_denominations="suits_sa_ta"),
    dict(max_numeric_bid=200, generale=True), dict(denomination_order="ranked"),
    dict(denomination_order="ranked", coinche_freezes=False, passes_to_end=4, self_overbid="change_denomination"),
    dict(coinche_window="immediate", coincher_partner_speaks=True, generale=True, passes_to_end=4),
])
def test_length_bound_is_exact(kw):
    r = rules(**kw)
    assert longest_auction(r) == length_bound(r)


@pytest.mark.parametrize("kw", [
    dict(capot_coinchable=False), dict(capot_coinchable=False, coinche_window="immediate"),
    dict(capot_coinchable=False, coinche_freezes=False, passes_to_end=4, self_overbid="change_denomination"),
])
def test_length_bound_is_an_upper_bound_without_coinchable_capot(kw):
    r = rules(**kw)
    assert longest_auction(r) <= length_bound(r)


# ============================================================================= random auctions
OPTION_POOL = dict(
    coinche_denominations=("suits", "suits_sa_ta"),
    max_numeric_bid=(160, 170, 200, 250, 650),
    denomination_order=("none", "ranked"),
    coinche_window=("in_turn", "immediate"),
    coinche_freezes=(True, False),
    coincher_partner_speaks=(False, True),
    capot_bid=(True, False),
    capot_coinchable=(True, False),
    surcoinche_allowed=(True, False),
    passes=((3, "forbidden"), (4, "forbidden"), (4, "change_denomination")),
    generale=(False, True),
    surcoinche_multiplier=(4, 3),
)


def random_rules(rng: random.Random) -> Rules:
    kw = {k: rng.choice(v) for k, v in OPTION_POOL.items()}
    kw["passes_to_end"], kw["self_overbid"] = kw.pop("passes")
    return rules(**defined_mix(kw))


def _levels(r: Rules) -> tuple:
    return tuple(range(80, r.max_numeric_bid + 1, 10)) + ((CAPOT,) if r.capot_bid else ()) + \
        ((GENERALE,) if r.generale else ())


def reference_legal(r: Rules, history, dealer: int = DEALER) -> tuple[int, tuple[int, ...]]:
    """A small reference model of the protocol (module docstring of ``auction``): replays
    ``history`` (dealt by ``dealer``) and returns ``(seat to act, ascending legal ids)``, ``(-1, ())`` once over."""
    denoms = tuple(range(6)) if r.coinche_denominations == "suits_sa_ta" else SUITS4
    levels = _levels(r)
    ranked = r.denomination_order == "ranked"

    def strength(level, d):  # ranked: the numeric bids of a value by denomination, never two capots
        i = levels.index(level)
        return (i, DENOMINATION_RANK[d]) if ranked and isinstance(level, int) else (i, 0)

    seat, high, k, coincher, passes, asked, team_turns, over = NEXT_SEAT[dealer], None, 0, -1, 0, [], [], False
    for s, b in history:
        assert s == seat and not over
        if asked:  # the immediate window
            if b == COINCHE:
                k, coincher, passes, asked = 1, s, 0, []
                if r.coinche_freezes:
                    team_turns = [NEXT_SEAT[s]] + ([partner_of(s)] if r.coincher_partner_speaks else []) + \
                        [NEXT_SEAT[partner_of(s)]]
                    seat = team_turns.pop(0)
                else:
                    seat = NEXT_SEAT[s]
            else:
                asked.pop(0)
                seat = asked[0] if asked else NEXT_SEAT[high[2]]
            continue
        if b == SURCOINCHE:
            over = True
        elif team_turns or (k == 1 and r.coinche_freezes):
            if not team_turns:
                over = True
            else:
                seat = team_turns.pop(0)
        elif b == COINCHE:
            k, coincher, passes = 1, s, 0
            if r.coinche_freezes:
                team_turns = [NEXT_SEAT[s]] + ([partner_of(s)] if r.coincher_partner_speaks else []) + \
                    [NEXT_SEAT[partner_of(s)]]
                seat = team_turns.pop(0)
            else:
                seat = NEXT_SEAT[s]
        elif b == PASS:
            passes += 1
            if (high is None and passes == 4) or (high is not None and passes == (3 if k else r.passes_to_end)):
                over = True
            seat = NEXT_SEAT[s]
        else:
            high, k, coincher, passes = (coinche_bid_level(b), bid_denomination(b, -1), s), 0, -1, 0
            seat = NEXT_SEAT[s]
            if r.coinche_window == "immediate" and (r.capot_coinchable or high[0] != CAPOT):
                asked = [NEXT_SEAT[s], NEXT_SEAT[partner_of(s)]]
                seat = asked[0]
    if over:
        return -1, ()
    if asked:
        return seat, (PASS, COINCHE)
    if k == 1 and r.coinche_freezes:
        if seat == partner_of(coincher) or not r.surcoinche_allowed:
            return seat, (PASS,)
        return seat, (PASS, SURCOINCHE)
    out = [PASS]
    for level in levels:
        for d in denoms:
            if high is None or strength(level, d) > strength(high[0], high[1]):
                if high is not None and seat == high[2] and (r.self_overbid == "forbidden" or d == high[1]):
                    continue
                out.append(bid(level, d))
    if high is not None:
        opp = TEAM_OF[seat] != TEAM_OF[high[2]]
        if k == 0 and opp and r.coinche_window == "in_turn" and (r.capot_coinchable or high[0] != CAPOT):
            out.append(COINCHE)
        if k == 1 and not opp and r.surcoinche_allowed:
            out.append(SURCOINCHE)
    return seat, tuple(sorted(out))


def expected_outcome(r: Rules, history):
    """The contract (or ``None`` for a void deal) an ended ``history`` must give."""
    last = max((i for i, (_, b) in enumerate(history) if is_coinche_bid(b)), default=None)
    if last is None:
        assert [b for _, b in history] == [PASS] * 4
        return None
    seat, b = history[last]
    after = [x for _, x in history[last + 1:]]
    mult = r.surcoinche_multiplier if SURCOINCHE in after else 2 if COINCHE in after else 1
    return Contract(seat, bid_denomination(b, -1), coinche_bid_level(b), mult)


def _choose(rng: random.Random, legal_ids, style: str) -> int:
    if style == "uniform" or len(legal_ids) == 1:
        return rng.choice(legal_ids)
    if style == "passive":
        return PASS if rng.random() < 0.7 else rng.choice(legal_ids)
    # "long": pass often, raise minimally, coinche now and then
    if COINCHE in legal_ids and rng.random() < 0.15:
        return COINCHE
    bids_ = [b for b in legal_ids if is_coinche_bid(b)]
    if bids_ and rng.random() < 0.45:
        return min(bids_, key=lambda b: (_LEVEL_ORDER[coinche_bid_level(b)], rng.random()))
    return PASS


_LEVEL_ORDER = {**{v: v for v in range(80, 651, 10)}, CAPOT: 1000, GENERALE: 1001}


def test_random_auctions_under_random_options():
    rng = random.Random(20240613)
    seen_void = seen_coinched = seen_sur = seen_plain = 0
    for game in range(600):
        r = random_rules(rng)
        bound = length_bound(r)
        dealer = rng.choice((0, 1, 2, 3))
        a = CoincheAuction(dealer, r)
        style = ("uniform", "passive", "long")[game % 3]
        steps = 0
        while not a.is_over:
            ids = a.legal_bids()
            assert ids and ids == tuple(sorted(set(ids))) and PASS in ids and all(is_bid(x) for x in ids)
            assert reference_legal(r, a.history, dealer) == (a.current, ids), (r, a.history)
            if rng.random() < 0.2:  # an illegal id is refused and changes nothing
                bad = rng.choice([x for x in range(32, 412) if x not in ids])
                before = (list(a.history), a.current, a.highest, a.coinche_level, a.passes)
                with pytest.raises(IllegalBidError):
                    a.apply(bad)
                assert (a.history, a.current, a.highest, a.coinche_level, a.passes) == before
            a.apply(_choose(rng, ids, style))
            steps += 1
            assert steps <= bound, (r, a.history)
        assert a.current == -1 and a.bid_round == 0 and a.legal_bids() == ()
        assert a.contract == expected_outcome(r, a.history), (r, a.history)
        assert a.void == (a.contract is None)
        if a.contract is None:
            seen_void += 1
        else:
            assert a.contract.taker == a.highest[2] and (a.contract.level, a.contract.denomination) == a.highest[:2]
            assert a.contract.coinche_level == a.coinche_level
            seen_plain += a.contract.multiplier == 1
            seen_coinched += a.contract.multiplier == 2
            seen_sur += a.contract.multiplier > 2
        # replay: the same state from the history
        b = CoincheAuction(dealer, r, a.history)
        assert _full_state(b) == _full_state(a)
    assert min(seen_void, seen_coinched, seen_sur, seen_plain) >= 20


def test_default_random_auctions_stay_within_36():
    rng = random.Random(7)
    longest = 0
    for game in range(400):
        a = CoincheAuction(DEALER, R)
        while not a.is_over:
            ids = a.legal_bids()
            assert reference_legal(R, a.history) == (a.current, ids)
            a.apply(_choose(rng, ids, "long"))
        assert len(a.history) <= 36
        longest = max(longest, len(a.history))
    assert longest > 20


def _full_state(a: CoincheAuction):
    return tuple(getattr(a, name) for name in CoincheAuction.__slots__ if name != "_bids")


# ============================================================================= copy, replay, errors, factory
def test_copy_is_independent():
    a = play([(0, bid(80, H)), (1, bid(90, S))])
    b = a.copy()
    assert _full_state(b) == _full_state(a) and b.history is not a.history
    b.apply(COINCHE)
    assert a.coinche_level == 0 and a.current == 2 and a.history == [(0, bid(80, H)), (1, bid(90, S))]
    assert COINCHE in a.legal_bids() and bid(100, H) in a.legal_bids()
    a.apply(bid(100, H))
    assert b.highest == (90, S, 1) and b.current == 3 and b.legal_bids() == (PASS, SURCOINCHE)
    assert len(b.history) == 3 and b.history[-1] == (2, COINCHE)


def test_history_replay_equals_applying_the_bids():
    seq = [(0, bid(80, S)), (1, bid(90, H)), (2, bid(100, S)), (3, COINCHE), (0, PASS)]
    a = play(seq)
    for n in range(len(seq) + 1):
        b = CoincheAuction(DEALER, R, seq[:n])
        c = play(seq[:n])
        assert _full_state(b) == _full_state(c)
    assert _full_state(CoincheAuction(DEALER, R, seq)) == _full_state(a)
    with pytest.raises(IllegalBidError, match="seat 0 is to bid"):
        CoincheAuction(DEALER, R, [(1, PASS)])
    with pytest.raises(IllegalBidError):
        CoincheAuction(DEALER, R, [(0, COINCHE)])  # nothing to coinche
    done = [(0, bid(80, S)), (1, PASS), (2, PASS), (3, PASS)]
    with pytest.raises(IllegalBidError, match="over"):
        CoincheAuction(DEALER, R, done + [(0, PASS)])


def test_illegal_bid_message_names_the_bid_and_the_legal_bids():
    a = play([(0, bid(80, H)), (1, COINCHE)])
    with pytest.raises(IllegalBidError) as e:
        a.apply(bid(100, S))
    msg = str(e.value)
    assert f"bid {bid(100, S)} (bid 100 spades) by seat 2 is not legal now" in msg
    assert f"legal bids: [{PASS} (pass), {SURCOINCHE} (surcoinche)]" in msg and "frozen" in msg
    for bad in (True, "pass", 32.0, None, -1, 10**30, 5):
        with pytest.raises(IllegalBidError, match="not legal now; legal bids"):
            a.apply(bad)
    assert len(a.history) == 2 and a.current == 2
    w = play([(0, bid(80, H))], rules(coinche_window="immediate"))
    with pytest.raises(IllegalBidError, match="no coinche"):
        w.apply(bid(90, H))
    assert issubclass(IllegalBidError, ValueError)


def test_numpy_ints_are_bids():
    np = pytest.importorskip("numpy")
    a = CoincheAuction(DEALER, R)
    a.apply(np.int64(bid(80, H)))
    assert a.history == [(0, bid(80, H))] and type(a.history[0][1]) is int


def test_legal_bids_are_cached():
    a = play([(0, bid(80, H))])
    b = play([(0, bid(80, H))])
    assert a.legal_bids() is a.legal_bids() is b.legal_bids()  # one tuple per rule set and state


def test_new_auction_picks_the_coinche_auction():
    a = new_auction(DEALER, -1, R)
    assert type(a) is CoincheAuction and a.current == 0
    seq = [(0, bid(80, H)), (1, PASS), (2, PASS), (3, PASS)]
    b = new_auction(DEALER, -1, R, seq)
    assert type(b) is CoincheAuction and b.contract == Contract(0, H, 80, 1) and b.history == seq
    assert type(new_auction(0, parse_card("JH"), Rules())) is ClassicAuction
    with pytest.raises(ValueError, match="coinche"):
        CoincheAuction(0, Rules())  # classic rules


def test_repr_and_interface():
    a = play([(0, bid(80, H)), (1, COINCHE)])
    text = repr(a)
    assert text.startswith("CoincheAuction(dealer=3") and "coinche_level=1" in text and "coincher=1" in text
    for attr in ("highest", "coinche_level", "coincher", "passes", "in_window"):
        with pytest.raises(AttributeError):
            setattr(a, attr, 0)  # read-only
    # every dealer: eldest first
    for dealer in (0, 1, 2, 3):
        assert CoincheAuction(dealer, R).current == NEXT_SEAT[dealer]


def test_all_option_mixes_of_the_protocol_terminate():
    """Every mix of the protocol options with a short auction (one seeded random run each)."""
    names = ("coinche_window", "coinche_freezes", "coincher_partner_speaks", "capot_coinchable",
             "surcoinche_allowed", "generale")
    choices = (("in_turn", "immediate"), (True, False), (False, True), (True, False), (True, False), (False, True))
    rng = random.Random(3)
    for combo, (p, so) in itertools.product(itertools.product(*choices),
                                            ((3, "forbidden"), (4, "forbidden"), (4, "change_denomination"))):
        mix = dict(zip(names, combo))
        if mix["generale"] and not mix["capot_coinchable"]:  # not defined by the rules pages (COINCHE.md §7)
            continue
        if mix["coincher_partner_speaks"] and not mix["coinche_freezes"]:  # no effect: refused (§3.5)
            continue
        r = rules(**mix, passes_to_end=p, self_overbid=so)
        a = CoincheAuction(DEALER, r)
        while not a.is_over:
            assert reference_legal(r, a.history) == (a.current, a.legal_bids())
            a.apply(_choose(rng, a.legal_bids(), "long"))
        assert len(a.history) <= length_bound(r) and a.contract == expected_outcome(r, a.history)
