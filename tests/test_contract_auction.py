"""Contracts and auctions as parts: ``contract.Contract``, the ``Auction``
interface and its first implementation ``ClassicAuction`` (RULES.md §3.2-§3.4), checked by
hand; the engine holds an auction and a contract; the ``InfoSet`` shows the auction's
history and the contract; the policies read bids through named helpers, never id ranges."""

from __future__ import annotations

import pathlib
import re

import pytest

from belote_env import GameState, IllegalActionError, Rules
from belote_env.actions import (
    CLASSIC_BIDS, COINCHE, DECLARE, NAME_CONTRACT, PASS, SURCOINCHE, TAKE, bid_denomination, coinche_bid_action,
    is_bid,
)
from belote_env.auction import Auction, ClassicAuction, IllegalBidError, new_auction
from belote_env.cards import ALL_TRUMP, NO_TRUMP, parse_card
from belote_env.contract import CAPOT, Contract

ROOT = pathlib.Path(__file__).resolve().parent.parent
S, H, D, CL = 0, 1, 2, 3
JH = parse_card("JH")  # turned card: hearts


def _auction(dealer=0, turned=JH, rules=None):
    return ClassicAuction(dealer, turned, rules or Rules())


# ----------------------------------------------------------------------------- Contract
def test_contract_fields_and_checks():
    c = Contract(2, H)
    assert (c.taker, c.denomination, c.level, c.multiplier) == (2, H, None, 1)
    assert c.trump_suit == H and not c.is_no_trump and not c.is_all_trump and c.name == "hearts"
    nt, at = Contract(0, NO_TRUMP), Contract(1, ALL_TRUMP)
    assert nt.trump_suit is None and nt.is_no_trump and at.is_all_trump and at.trump_suit is None
    assert Contract(3, S, 110, 2).name == "110 spades coinched"  # coinche fits (COINCHE.md)
    assert Contract(3, ALL_TRUMP, CAPOT, 4).name == "capot all-trump surcoinched"
    assert Contract(2, H) == c and hash(Contract(2, H)) == hash(c)
    with pytest.raises(AttributeError):
        c.taker = 1  # frozen
    for bad in (dict(taker=-1, denomination=0), dict(taker=0, denomination=6), dict(taker=0, denomination=-1),
                dict(taker=0, denomination=0, level=85), dict(taker=0, denomination=0, level=660),
                dict(taker=0, denomination=0, multiplier=5), dict(taker=True, denomination=0)):
        with pytest.raises(ValueError):
            Contract(**bad)


# ----------------------------------------------------------------------------- ClassicAuction
def test_round_one_take():
    a = _auction(dealer=0)  # eldest is seat 1
    assert isinstance(a, Auction) and a.current == 1 and a.bid_round == 1 and not a.is_over
    assert a.legal_bids() == (PASS, TAKE)
    a.apply(PASS)
    assert a.current == 2 and a.history == [(1, PASS)]
    a.apply(TAKE)
    assert a.is_over and not a.void and a.contract == Contract(2, H)
    assert a.history == [(1, PASS), (2, TAKE)] and a.current == -1 and a.bid_round == 0 and a.legal_bids() == ()


def test_round_two_naming():
    a = _auction(dealer=3)  # eldest is seat 0
    for _ in range(4):
        a.apply(PASS)
    assert a.bid_round == 2 and a.current == 0 and not a.is_over
    assert a.legal_bids() == (PASS, NAME_CONTRACT + S, NAME_CONTRACT + D, NAME_CONTRACT + CL)  # not hearts
    a.apply(PASS)
    a.apply(NAME_CONTRACT + CL)  # seat 1 names clubs
    assert a.contract == Contract(1, CL) and a.history[-1] == (1, NAME_CONTRACT + CL) and len(a.history) == 6


def test_all_pass_is_void():
    a = _auction(dealer=1)
    seats = []
    for _ in range(8):
        seats.append(a.current)
        a.apply(PASS)
    assert seats == [2, 3, 0, 1] * 2
    assert a.void and a.is_over and a.contract is None and a.legal_bids() == () and a.bid_round == 0
    with pytest.raises(IllegalBidError):
        a.apply(PASS)


def test_round_two_no_trump_all_trump_option():
    a = _auction(rules=Rules(round2_no_trump_all_trump=True))
    for _ in range(4):
        a.apply(PASS)
    assert a.legal_bids() == (PASS, 34, 36, 37, NAME_CONTRACT + NO_TRUMP, NAME_CONTRACT + ALL_TRUMP)
    a.apply(NAME_CONTRACT + ALL_TRUMP)
    assert a.contract == Contract(1, ALL_TRUMP) and a.contract.is_all_trump
    b = _auction()
    for _ in range(4):
        b.apply(PASS)
    assert NAME_CONTRACT + NO_TRUMP not in b.legal_bids()  # off by default
    with pytest.raises(IllegalBidError):
        b.apply(NAME_CONTRACT + NO_TRUMP)


@pytest.mark.parametrize("passes,bid", [
    (0, NAME_CONTRACT + S),  # naming in round 1
    (4, TAKE),  # taking in round 2
    (4, NAME_CONTRACT + H),  # naming the turned suit in round 2
    (0, 5), (0, DECLARE), (0, coinche_bid_action(80, S)), (0, COINCHE), (0, True), (0, "pass"),
])
def test_illegal_bids_raise(passes, bid):
    a = _auction()
    for _ in range(passes):
        a.apply(PASS)
    before = (list(a.history), a.current, a.bid_round)
    with pytest.raises(IllegalBidError, match="not legal now; legal bids"):
        a.apply(bid)
    assert (a.history, a.current, a.bid_round) == before  # unchanged
    assert issubclass(IllegalBidError, ValueError)


def test_replay_copy_and_factory():
    hist = [(1, PASS), (2, PASS), (3, PASS), (0, PASS), (1, NAME_CONTRACT + D)]
    a = new_auction(0, JH, Rules(), hist)
    assert type(a) is ClassicAuction and a.contract == Contract(1, D) and a.history == hist
    with pytest.raises(IllegalBidError, match="bid 32 by seat 2: seat 1 is to bid"):
        ClassicAuction(0, JH, Rules(), [(2, PASS)])  # seat 1 bids first
    with pytest.raises(IllegalBidError, match="bid 32 by seat 1: the auction is over"):  # not "seat -1 is to bid"
        ClassicAuction(0, JH, Rules(), hist + [(1, PASS)])
    with pytest.raises(IllegalBidError, match="bid 32 by seat 0: the auction is over"):  # two seats: 0 takes at once
        new_auction(1, JH, Rules(players=2), [(0, TAKE), (0, PASS)])
    b = _auction()
    b.apply(PASS)
    c = b.copy()
    c.apply(TAKE)
    assert b.history == [(1, PASS)] and not b.is_over and c.contract == Contract(2, H)


# ----------------------------------------------------------------------------- the engine and the InfoSet
def test_engine_holds_auction_and_contract():
    st = GameState(deck=list(range(32)), dealer=0)  # turned card 20: diamonds
    info = st.information_set(1)
    assert st.contract is None and st.denomination == -1 and st.taker == -1
    assert info.contract is None and info.denomination == -1 and info.auction == () and info.bid_round == 1
    st.apply(PASS)
    st.apply(TAKE)
    assert st.contract == Contract(2, D) and st.denomination == D and st.taker == 2
    assert st.auction.history == [(1, PASS), (2, TAKE)] and st.auction.is_over
    for seat in range(4):
        info = st.information_set(seat)
        assert info.auction == ((1, PASS), (2, TAKE)) and info.contract == Contract(2, D)
        assert info.denomination == D and info.taker == 2 and info.bid_round == 0
    clone = st.clone()
    assert clone.auction is not st.auction and clone.auction.history == st.auction.history


def test_engine_round_two_void_and_illegal():
    st = GameState(Rules(round2_no_trump_all_trump=True), deck=list(range(32)), dealer=0)
    for _ in range(5):
        st.apply(PASS)
    assert st.information_set(2).bid_round == 2 and st.current_seat == 2
    with pytest.raises(IllegalActionError):
        st.apply(TAKE)
    st.apply(NAME_CONTRACT + NO_TRUMP)
    assert st.contract == Contract(2, NO_TRUMP) and st.denomination == NO_TRUMP
    st = GameState(deck=list(range(32)), dealer=0)
    clone = st.clone()
    for _ in range(8):
        st.apply(PASS)
    assert st.void and st.is_deal_over and st.contract is None and st.denomination == -1
    assert st.information_set(0).auction == tuple((s, PASS) for s in (1, 2, 3, 0) * 2)
    assert clone.auction.history == [] and not clone.void  # the clone's auction is its own


# ----------------------------------------------------------------------------- bid helpers, policies
def test_bid_helpers():
    assert list(CLASSIC_BIDS) == list(range(PASS, NAME_CONTRACT + 6))
    assert all(is_bid(a) for a in range(PASS, SURCOINCHE + 1))
    assert not any(is_bid(a) for a in (0, 31, DECLARE, SURCOINCHE + 1))
    assert bid_denomination(TAKE, D) == D and bid_denomination(NAME_CONTRACT + ALL_TRUMP, D) == ALL_TRUMP
    assert bid_denomination(coinche_bid_action("capot", NO_TRUMP), S) == NO_TRUMP
    assert bid_denomination(PASS, S) is None and bid_denomination(COINCHE, S) is None
    assert bid_denomination(3, S) is None


_RANGE = re.compile(r"3[2-9]\s*<=|<\s*40\b|range\(\s*3[2-9]\s*,\s*40\s*\)|\ba\s*-\s*3[2-9]\b|NAME_CONTRACT\s*\+")


def test_policies_read_bids_by_name_not_id_ranges():
    files = sorted((ROOT / "policies").rglob("*.py"))
    assert len(files) >= 8
    bad = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for p in files
           for i, line in enumerate(p.read_text().splitlines(), 1)
           if _RANGE.search(line.split("#")[0])]
    assert not bad, bad
    assert _RANGE.search("all(32 <= a < 40 for a in legal)") and _RANGE.search("k = a - 34")
