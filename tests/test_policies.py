"""AI tiers random and easy (RULES.md §12)."""

import pytest

from belote_env import GameState, InfoSet, Rules
from belote_env.actions import NAME_CONTRACT, PASS, TAKE
from belote_env.cards import parse_card, parse_cards
from policies import make_policy
from policies.easy import EasyPolicy
from belote_env.contract import Contract
from policies.normal import NormalPolicy
from tests.conftest import assert_plays_legal, play_info


def _info(hand, legal_actions, contract=0, turned="7S", bidding=False):
    return InfoSet(seat=0, dealer=3, phase=0 if bidding else 1, current_seat=0, hand=parse_cards(hand),
                   turned_card=parse_card(turned), auction=(), bid_round=1 if bidding else 0,
                   contract=None if bidding else Contract(0, contract), denomination=-1 if bidding else contract,
                   taker=-1 if bidding else 0, trick=(), trick_leader=0,
                   tricks=(), played_by=(0, 0, 0, 0), hand_sizes=(5, 5, 5, 5) if bidding else (8, 8, 8, 8),
                   card_points=(0, 0), announcements=(), declared=((), (), (), ()), scores=(0, 0), reserve=0, deal_number=0,
                   legal_actions=tuple(sorted(legal_actions)), rules=Rules())


@pytest.mark.parametrize("legal,contract,expected", [
    ("AH 7H 10H", 0, "7H"),  # lowest points
    ("8H 7H", 0, "7H"),  # equal points: weaker rank
    ("JS QS 9S", 0, "QS"),  # trump spades: Q (3) < 9 (14) < J (20)
    ("7S 8S", 0, "7S"),  # trump, 0 points each: 7 is weaker than 8
    ("JH QH KH", 0, "JH"),  # plain: J (2) < Q (3) < K (4)
    ("9H AH", 1, "AH"),  # hearts trump: A (11) < 9 (14)
    ("9H AH", 0, "9H"),  # hearts plain: 9 (0) < A (11)
    ("AD 10C", 4, "10C"),  # no-trump: 10 (10) < A (19)
])
def test_easy_plays_lowest_legal_card(legal, contract, expected):
    cards = [parse_card(c) for c in legal.split()]
    hand = legal + " 7C 8C" if contract != 4 else legal
    info = _info(hand, cards, contract)
    assert EasyPolicy().act(info) == parse_card(expected)


def test_easy_bidding_rule():
    e = EasyPolicy()
    assert e.act(_info("JS 7H 8H 9D AC", (PASS, TAKE), turned="10S", bidding=True)) == TAKE
    assert e.act(_info("9S AS 7H 8H AC", (PASS, TAKE), turned="10S", bidding=True)) == PASS
    round2 = (PASS, NAME_CONTRACT + 1, NAME_CONTRACT + 2, NAME_CONTRACT + 3)
    assert e.act(_info("JH 7H 8H JD 9D", round2, turned="10S", bidding=True)) == NAME_CONTRACT + 1  # longest
    assert e.act(_info("JH 7C 8C JD AS", round2, turned="10S", bidding=True)) == PASS  # jacks alone


def test_tiers_return_legal_actions_in_random_positions():
    for name in ("random", "easy"):
        assert_plays_legal(make_policy(name, seed=1), range(300))


def test_make_policy_unknown_name():
    with pytest.raises(ValueError, match="unknown policy 'hardest'"):
        make_policy("hardest")


def test_random_policy_is_seeded():
    st = GameState(seed=1)
    info = st.information_set(st.current)
    a = [make_policy("random", seed=7).act(info) for _ in range(5)]
    b = [make_policy("random", seed=7).act(info) for _ in range(5)]
    assert a == b


# ---------------------------------------------------------------- normal: hand-built positions
# Seat 0 in card play under Rules() (tests.conftest.play_info); contract 0 = spades trump.

def test_normal_taker_draws_trumps_when_as_long_as_the_trumps_out():
    # taker seat 0 with J 9 A 10 7 of trumps: 3 trumps out (K Q 8), draw with the master J
    info = play_info("JS 9S AS 10S 7S AH 8D 7C", "", seat=0, leader=0, taker=0)
    assert NormalPolicy().act(info) == parse_card("JS")


def test_normal_taker_does_not_draw_trumps_from_a_short_trump_suit():
    # taker seat 0 with J 7 of trumps against 6 trumps out: drawing would strip it of
    # trumps and leave the defenders the ruffs; it cashes the master A of hearts instead
    info = play_info("JS 7S AH 10H 8D 9D 7C 8C", "", seat=0, leader=0, taker=0)
    assert NormalPolicy().act(info) == parse_card("AH")


def test_normal_partner_of_the_taker_keeps_its_trumps_when_short():
    # seat 0 is the taker's partner (seat 2 took) with the master J of trumps and one
    # other: 6 trumps out, it does not lead trumps
    info = play_info("JS 8S AH 10H 8D 9D 7C 8C", "", seat=0, leader=0, taker=2)
    assert NormalPolicy().act(info) == parse_card("AH")


def test_normal_keeps_its_future_master_trump_on_partners_trump_trick():
    # partner (seat 2) leads the J of trumps, seat 3 follows 8; seat 0 must play a trump
    # and cannot beat the J: the 9 will be the master trump once the J is gone, so it
    # smothers the 10 (10 points; the A of trumps is still out) and keeps the 9
    info = play_info("9S 10S 7S AH 8D", "JS 8S", seat=0, leader=2, taker=2)
    assert NormalPolicy().act(info) == parse_card("10S")


def test_normal_plays_its_weakest_trump_when_every_trump_is_a_future_master():
    # partner leads the J of trumps; seat 0 holds the 9 and the A of trumps, every higher
    # trump is gone after this trick except the 9 it holds itself: it plays the A (weaker)
    played = {1: "10S KS", 3: "QS"}
    info = play_info("9S AS 7H 8D", "JS 8S", seat=0, leader=2, taker=2, played=played)
    assert NormalPolicy().act(info) == parse_card("AS")


def test_normal_takes_jack_ten_of_the_turned_suit_in_round_one():
    # hearts turned (8♥): J♥ 4.5 + 10♥ 2 + 8♥ 0.5 + one trump beyond two 1 = 8.0 >= 7.5
    assert NormalPolicy().act(_info("JH 10H 7C 8D 9S", (PASS, TAKE), turned="8H", bidding=True)) == TAKE
    # without the 10: 4.5 + 0.5 + 0.5 + 1 = 6.5 < 7.5, pass
    assert NormalPolicy().act(_info("JH 7H 7C 8D 9S", (PASS, TAKE), turned="8H", bidding=True)) == PASS


def _after_partner_led_clubs(taker):
    """Seat 0 to lead the second trick, which it won with the A♣ after its partner (seat 2)
    led the 7♣; spades are trumps."""
    first = (2, tuple(parse_card(c) for c in "7C 10C AC 8C".split()), 0)
    played = {2: "7C", 3: "10C", 0: "AC", 1: "8C"}
    return play_info("JS 8S QC 9C 8D 9D QD", "", seat=0, leader=0, taker=taker, tricks=(first,), played=played)


def test_normal_defender_returns_its_partners_suit():
    # seat 1 took: seat 0 defends and leads back the partner's clubs (low, Q♣ is no master)
    assert NormalPolicy().act(_after_partner_led_clubs(taker=1)) == parse_card("9C")


def test_normal_takers_side_does_not_return_its_partners_suit():
    # seat 0 took: too short in trumps to draw (2 against 6 out), no master to cash; it
    # leads low from its longest side suit (diamonds) rather than the partner's clubs
    assert NormalPolicy().act(_after_partner_led_clubs(taker=0)) == parse_card("8D")


def test_with_belote_claims_with_the_first_card_of_a_belote_suit_pair_at_four_seats():
    """RULES.md §5 (``belote: optional``): the claim goes with the first card of the K+Q of a
    belote suit (the trump; every suit at all-trump). A K or Q of a side suit whose pair is
    also in hand is played as it is (announcing would force a trump K or Q next)."""
    import random

    from belote_env.actions import ANNOUNCE_BELOTE
    from belote_env.cards import ALL_TRUMP
    from belote_env.games import game_of
    from policies.base import with_belote

    found = {"side": 0, "trump": 0, "all_trump": 0}
    rules = Rules(belote="optional", round2_no_trump_all_trump=True)
    for seed in range(3000):
        rng = random.Random(seed)
        st = game_of(rules).new_state(seed=seed, single_deal=True)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if ANNOUNCE_BELOTE in info.legal_actions:
                d = info.denomination
                for c in info.legal_actions:
                    if c >= 32 or c & 7 not in (5, 6) or not info.hand >> (c ^ 3) & 1:
                        continue  # not a K or Q with its pair in hand
                    belote_suit = d == ALL_TRUMP or c >> 3 == d
                    assert with_belote(info, c) == (ANNOUNCE_BELOTE if belote_suit else c)
                    found["all_trump" if d == ALL_TRUMP else "trump" if belote_suit else "side"] += 1
                assert all(with_belote(info, c) == c for c in info.legal_actions if c < 32 and c & 7 not in (5, 6))
            st.apply(rng.choice(info.legal_actions))
        if min(found.values()) >= 3:
            break
    assert min(found.values()) >= 3, found


def test_a_network_never_trained_on_the_declaration_choice_declares_and_one_trained_on_it_chooses():
    """``declarations: choice`` (RULES.md §6, TWO_THREE.md §2.6): the shipped hard models were
    trained under ``off`` / ``auto`` (their ``meta.json`` ``rules``), so where ``DECLARE`` is
    legal they declare, as ``normal`` does (act, action_probabilities, act_batch); a network
    whose recorded rules had the choice, or whose rules are not recorded, makes it itself."""
    import random

    import numpy as np
    import torch

    from belote_env import load_rules
    from belote_env.actions import DECLARE
    from belote_env.vector import BatchedGame, SeatBatch
    from policies.network import BeloteNet, NetworkPolicy, declares_by_rule

    assert declares_by_rule({"rules": {"declarations": "off"}}) and declares_by_rule({"rules": {"declarations": "auto"}})
    assert not declares_by_rule({"rules": {"declarations": "choice"}}) and not declares_by_rule({})
    for preset in ("seed004", "seed001_2p"):
        rules = load_rules(preset, declarations="choice")
        hard = make_policy("hard", rules=rules)
        asked = 0
        for seed in range(40):
            st, rng = GameState(rules, seed=seed, single_deal=True), random.Random(seed)
            while not st.is_deal_over:
                info = st.information_set(st.current)
                if DECLARE in info.legal_actions:
                    asked += 1
                    assert hard.act(info) == DECLARE and hard.action_probabilities(info)[DECLARE] == 1.0
                st.apply(rng.choice(info.legal_actions))
        assert asked >= 10, preset
    rules = load_rules("seed004", declarations="choice")
    g = BatchedGame(256, rules, seed=3)
    hard = make_policy("hard", rules=rules)
    rows = 0
    for _ in range(30):
        batch = SeatBatch(g, np.arange(256))
        declare = np.flatnonzero(np.asarray(batch.mask)[:, DECLARE])
        rows += len(declare)
        assert (hard.act_batch(batch)[declare] == DECLARE).all()
        g.step(g.random_actions())
    assert rows >= 20
    torch.manual_seed(0)
    net = BeloteNet().eval()
    trained, unknown = (NetworkPolicy(net, {"rules": {"declarations": "choice"}}), NetworkPolicy(net, {}))
    choices = set()
    for seed in range(40):
        st, rng = GameState(rules, seed=seed, single_deal=True), random.Random(seed)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if DECLARE in info.legal_actions:
                choices.add(trained.act(info))
                assert trained.act(info) == unknown.act(info)
            st.apply(rng.choice(info.legal_actions))
    assert choices - {DECLARE}  # the network's own choice: a card too
