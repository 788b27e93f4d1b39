"""The two- and three-player games (TWO_THREE.md): the worked examples of §6 as tests, the
options of §4 (each with a test that fails when it is ignored) and a property test over
seeded deals (every card accounted for, scores per the made / equal / failed rules)."""

from __future__ import annotations

import random

import pytest

from belote_env.actions import (
    AGREE_REDEAL, ANNOUNCE_BELOTE, ANSWER_ENOUGH, ANSWER_EQUAL, ANSWER_NOT_ENOUGH, DECLARE, DECLINE_DECLARE,
    EXCHANGE_SEVEN, KEEP, NAME_CONTRACT, PASS, PROPOSE_REDEAL, REFUSE_REDEAL, TAKE, num_actions,
)
from belote_env.auction import ProposalAuction, proposal_length_bound
from belote_env.cards import NUM_CARDS, parse_card, parse_cards
from belote_env.config import RuleOptionError, Rules, load_rules
from belote_env.dealing import packet_complete, packet_deal
from belote_env.declarations import combinations_of, combination_winner
from belote_env.game import IllegalActionError, Phase
from belote_env.rules import legal_cards
from belote_env.scoring import game_end, score_cutthroat_deal
from belote_env.game import STEPS, GameState

R2 = Rules(players=2)
R3 = Rules(players=3)
P = parse_card


def cs(text: str) -> int:
    return parse_cards(text)


def names(mask: int) -> set[str]:
    from belote_env.cards import card_to_str, cards_of
    return {card_to_str(c) for c in cards_of(mask)}


# ----------------------------------------------------------------------------- §6.1 bidding
QH = P("Q♥")
HEARTS, SPADES, CLUBS = 1, 0, 3


def auction(bids, rules=R2):
    a = ProposalAuction(1, QH, rules)  # dealer D = seat 1, elder E = seat 0
    for b in bids:
        a.apply(b)
    return a


def test_b1_to_b8():
    a = auction([TAKE])
    assert (a.contract.taker, a.contract.denomination) == (0, HEARTS)
    a = auction([PROPOSE_REDEAL, REFUSE_REDEAL])
    assert (a.contract.taker, a.contract.denomination) == (0, HEARTS)
    a = auction([PROPOSE_REDEAL, AGREE_REDEAL])
    assert a.void and a.redeal and a.contract is None
    a = auction([PASS, PROPOSE_REDEAL])
    assert a.current == 0 and a.legal_bids() == (AGREE_REDEAL, REFUSE_REDEAL)
    a.apply(REFUSE_REDEAL)
    assert (a.contract.taker, a.contract.denomination) == (1, HEARTS)
    a = auction([PASS, PASS])
    assert NAME_CONTRACT + HEARTS not in a.legal_bids()
    a.apply(NAME_CONTRACT + CLUBS)
    assert (a.contract.taker, a.contract.denomination) == (0, CLUBS)
    a = auction([PASS, PASS, PROPOSE_REDEAL, REFUSE_REDEAL])
    assert a.current == 0 and a.legal_bids() == tuple(NAME_CONTRACT + s for s in (0, 2, 3))
    a.apply(NAME_CONTRACT + SPADES)
    assert (a.contract.taker, a.contract.denomination) == (0, SPADES)
    a = auction([PASS, PASS, PASS, PASS])
    assert a.void and not a.redeal
    a = auction([PASS, PASS, PASS])  # B8
    assert a.legal_bids() == (PASS, NAME_CONTRACT + 0, NAME_CONTRACT + 2, NAME_CONTRACT + 3)


def test_b7_void_elder_deals_and_b3_same_dealer():
    g = GameState(R2, seed=1, dealer=1)
    for b in (PASS, PASS, PASS, PASS):
        g.apply(b)
    assert g.phase == Phase.DEAL_OVER and g.void
    g.next_deal()
    assert g.dealer == 0  # the elder deals (S001)
    g.apply(PROPOSE_REDEAL)
    g.apply(AGREE_REDEAL)
    g.next_deal()
    assert g.dealer == 0  # A3 default: the same dealer
    g.apply(PROPOSE_REDEAL)
    g.apply(AGREE_REDEAL)
    h = GameState(R2.replace(redeal_dealer="elder"), seed=1, dealer=0)
    h.apply(PROPOSE_REDEAL)
    h.apply(AGREE_REDEAL)
    h.next_deal()
    assert h.dealer == 1  # redeal_dealer "elder"


def test_bidding_options():
    assert proposal_length_bound(R2) == 5  # §2.3's bound
    # A7 dealer_round2_proposal: the dealer may propose on his last turn
    assert PROPOSE_REDEAL in auction([PASS, PASS, PASS], R2.replace(dealer_round2_proposal=True)).legal_bids()
    # A27 redeal_proposal false: never offered
    assert PROPOSE_REDEAL not in auction([], R2.replace(redeal_proposal=False)).legal_bids()
    # A27 redeal_consent at three seats: both others answer, or the next seat only
    a = ProposalAuction(2, QH, R3)
    a.apply(PROPOSE_REDEAL)
    a.apply(AGREE_REDEAL)
    assert not a.is_over and a.current == 2
    a.apply(AGREE_REDEAL)
    assert a.redeal
    a = ProposalAuction(2, QH, R3.replace(redeal_consent="next_player"))
    a.apply(PROPOSE_REDEAL)
    a.apply(AGREE_REDEAL)
    assert a.redeal
    a = ProposalAuction(2, QH, R3)
    a.apply(PROPOSE_REDEAL)
    a.apply(AGREE_REDEAL)
    a.apply(REFUSE_REDEAL)  # the first refusal obliges the proposer
    assert a.contract.taker == 0


def test_dealer_proposal_refused_makes_dealer_maker_at_three():
    a = ProposalAuction(2, QH, R3)
    for b in (PASS, PASS, PROPOSE_REDEAL, REFUSE_REDEAL):
        a.apply(b)
    assert (a.contract.taker, a.contract.denomination) == (2, HEARTS)


# ----------------------------------------------------------------------------- §6.2 declarations
def best(hand: str, trump: int, rules=R2):
    return combinations_of(cs(hand), trump, rules)


@pytest.mark.parametrize("e, d, trump, winner, e_points", [
    ("J♣ Q♣ K♣", "8♥ 9♥ 10♥", 0, 0, 20),  # D1
    ("9♠ 10♠ J♠", "9♦ 10♦ J♦", 2, 1, 20),  # D2: the dealer's trump sequence
    ("9♠ 10♠ J♠", "9♦ 10♦ J♦", 1, None, 0),  # D3
    ("Q♠ K♠ A♠ 7♦ 8♦ 9♦", "10♥ J♥ Q♥", 3, 0, 40),  # D4: all his sequences
])
def test_d1_to_d4(e, d, trump, winner, e_points):
    de, dd = best(e, trump), best(d, trump)
    w = combination_winner([de, dd], trump, R2)
    assert w == winner
    if w == 0:
        assert sum(x.points for x in de) == e_points


def test_d5_d6_and_sequence_options():
    de, dd = best("7♣ 8♣ 9♣", 0), best("10♦ J♦ Q♦ K♦", 0)
    assert combination_winner([de, dd], 0, R2) == 1 and dd[0].points == 50  # D5
    e, d = "7♣ 8♣ 9♣ 10♣ J♣", "J♥ Q♥ K♥ A♥"
    assert combination_winner([best(e, 0), best(d, 0)], 0, R2) == 1  # D6 value_then_top
    lt = R2.replace(sequence_compare="length_then_top")
    assert combination_winner([best(e, 0, lt), best(d, 0, lt)], 0, lt) == 0  # D6 length_then_top
    assert best(e, 0)[0].points == 50 and best(e, 0, R2.replace(run5_value=100))[0].points == 100  # A12
    # A11: in the trick order A 10 K Q J 9 8 7, 10-K-A is a run and 10-J-Q is not
    pto = R2.replace(sequence_order="plain_trick_order")
    assert [x.length for x in best("10♠ K♠ A♠", 0, pto)] == [3] and best("10♠ K♠ A♠", 0) == ()
    assert best("10♠ J♠ Q♠", 0, pto) == () and best("10♠ J♠ Q♠", 0)[0].points == 20
    # A13: a 6-run is one sequence
    assert len(best("7♠ 8♠ 9♠ 10♠ J♠ Q♠", 1)) == 1
    # A14 carres
    assert best("J♠ J♥ J♦ J♣", 0) == ()
    assert [x.points for x in best("J♠ J♥ J♦ J♣", 0, R2.replace(carres=True))] == [200]


@pytest.mark.parametrize("compare", ["value_then_top", "length_then_top"])
def test_carres_take_their_cards_and_beat_any_sequence(compare):
    """A14 with RULES.md §6, which TWO_THREE.md extends: "a card belongs to at most one
    declaration; a seat declares the partition of its hand that scores most", and "any carré
    beats any sequence", under either ``sequence_compare``."""
    r = R2.replace(carres=True, sequence_compare=compare)
    # K♠ is in the carré of kings and in J-Q-K♠: the carré alone (100), not 100 + 20
    assert [(x.kind, x.points) for x in best("J♠ Q♠ K♠ K♥ K♦ K♣ 7♥ 9♦ 8♣", 1, r)] == [("carre", 100)]
    # 9-10-J-Q-K♠ and four kings: the carré and the four-card run left (100 + 50), not the five
    assert [(x.kind, x.points, x.length) for x in best("9♠ 10♠ J♠ Q♠ K♠ K♥ K♦ K♣", 1, r)] == [
        ("carre", 100, 4), ("sequence", 50, 4)]
    # four aces against a trump five-card run (50; 100 with run5_value) ending at the ace
    for run5 in (50, 100):
        rr = r.replace(run5_value=run5)
        assert combination_winner([best("10♠ J♠ Q♠ K♠ A♠", 0, rr), best("A♥ A♦ A♣ A♠", 0, rr)], 0, rr) == 1
    # four tens (100) against four queens (100): the higher rank
    assert combination_winner([best("10♠ 10♥ 10♦ 10♣", 0, r), best("Q♠ Q♥ Q♦ Q♣", 0, r)], 0, r) == 1


def test_a_carre_against_a_run_in_the_engines():
    """The same rule through both engines' declarations (TWO_THREE.md §2.6 ``auto``): four aces
    against a five-card run under ``length_then_top`` score for the carré's holder."""
    from belote_env.vector.cutthroat import combination_tables, _combos
    from belote_env.vector.layout import rules_codes

    r = R2.replace(carres=True, sequence_compare="length_then_top")
    g = GameState.from_hands([["7C", "8C", "9C", "10C", "JC", "7D"], ["AS", "AH", "AD", "AC", "8S", "10H"]], "QS",
                             [["9D", "KS", "9H"], ["QD", "8D", "10S"]], r, dealer=1, bottom="7H")
    for a in (33, 108, 108):
        g.apply(a)
    assert g.decl_winner == 1 and g.declared[1][0] == 100 and g.declared[0][0] == 50
    tabs, opts = combination_tables(r), rules_codes(r)
    hand = cs("J♠ Q♠ K♠ K♥ K♦ K♣ 7♥ 9♦ 8♣")
    assert _combos(hand, 1, *tabs, opts)[0] == 100
    assert _combos(cs("9♠ 10♠ J♠ Q♠ K♠ K♥ K♦ K♣"), 1, *tabs, opts)[0] == 150


# ----------------------------------------------------------------------------- §6.3 / §6.8 play legality
@pytest.mark.parametrize("trick, hand, legal", [
    ("10♠", "9♠ K♠ A♦", "9♠"),  # L1
    ("J♠", "9♠ K♠ A♦", "9♠ K♠"),  # L2
    ("A♦", "7♠ K♣", "7♠"),  # L3
    ("A♦", "K♣ 8♥", "K♣ 8♥"),  # L4
])
def test_l1_to_l4(trick, hand, legal):
    t = [P(x) for x in trick.split()]
    assert legal_cards(cs(hand), t, 0, R2) == cs(legal)


def test_ruff_overtrump_at_three():
    trick = [P("A♣"), P("8♥")]
    assert legal_cards(cs("7♥ Q♥ 10♠"), trick, 1, R3) == cs("Q♥")
    assert legal_cards(cs("7♥ 10♠"), trick, 1, R3) == cs("7♥")
    lit = R3.replace(ruff_overtrump="only_trump_lead")
    assert legal_cards(cs("7♥ Q♥ 10♠"), trick, 1, lit) == cs("7♥ Q♥")
    assert legal_cards(cs("7♥ 10♠"), trick, 1, lit) == cs("7♥")


def test_defender_partner_free():
    trick = [P("A♣")]  # the co-defender leads and wins; the next defender is void in clubs
    assert legal_cards(cs("7♥ 10♠"), trick, 1, R3, partner_pos=0) == cs("7♥")
    free = R3.replace(defender_partner_free=True)
    assert legal_cards(cs("7♥ 10♠"), trick, 1, free, partner_pos=0) == cs("7♥ 10♠")


def test_legal_cards_sees_no_partner_by_default_at_three_seats():
    """One ``legal_cards`` for every table: without ``partner_pos`` a three-seat trick has
    no partner's card (at four seats ``trick[-2]`` would be one); the old name warns."""
    free = R3.replace(defender_partner_free=True)
    trick = [P("A♣"), P("7♣")]  # A♣ wins the trick; the seat to play is void in clubs
    assert legal_cards(cs("7♥ 10♠"), trick, 1, free) == cs("7♥")
    assert legal_cards(cs("7♥ 10♠"), trick, 1, free, partner_pos=0) == cs("7♥ 10♠")
    import belote_env.inference as inference
    import belote_env.rules as rules_module

    with pytest.warns(DeprecationWarning, match="legal_cards"):
        assert rules_module.small_legal_cards is legal_cards
    with pytest.warns(DeprecationWarning, match="card_reveals"):
        assert inference.small_card_reveals is inference.card_reveals


# ----------------------------------------------------------------------------- §6.4 a complete 2p deal
def deal_64(rules=R2, **kw):
    E = ["J♥", "9♥", "7♥", "A♠", "K♠", "Q♠"]
    D = ["A♥", "10♦", "K♦", "Q♦", "J♦", "9♣"]
    return GameState.from_hands([E, D], "Q♥", [["K♥", "10♠", "8♣"], ["10♥", "A♣", "7♦"]], rules, bottom="8♦",
                                dealer=1, **kw)


PLAYS_64 = [("J♥", "10♥"), ("9♥", "A♥"), ("K♥", "9♣"), ("Q♥", "7♦"), ("A♠", "J♦"), ("10♠", "Q♦"), ("K♠", "K♦"),
            ("Q♠", "10♦"), ("8♣", "A♣")]


def play_64(g):
    for i, (a, b) in enumerate(PLAYS_64):
        assert g.current == 0
        g.apply(P(a))
        if i == 0:
            assert set(g.legal_actions()) == {P("10♥"), P("A♥")}
        if i == 1:
            assert g.legal_actions() == (P("A♥"),)
        g.apply(P(b))


def test_complete_two_player_deal():
    g = deal_64(single_deal=True)
    g.apply(TAKE)
    assert STEPS[g.step] == "exchange" and g.current == 0 and g.legal_actions() == (EXCHANGE_SEVEN, KEEP)
    g.apply(EXCHANGE_SEVEN)
    assert g.hands[0] == cs("J♥ 9♥ Q♥ K♥ A♠ K♠ Q♠ 10♠ 8♣")
    assert g.hands[1] == cs("A♥ 10♥ 10♦ K♦ Q♦ J♦ 7♦ 9♣ A♣")
    assert g.decl_winner == 1 and g.declared[0][0] == 20 and g.declared[1][0] == 50
    assert g.bottom_card == P("8♦")
    play_64(g)
    assert g.deal_totals() == [129, 71]
    assert g.deal_score.outcome == "made" and g.deal_score.points == (129, 71)
    assert sum(g.card_points) + 10 == 130 and g.phase == Phase.GAME_OVER and g.winner == 0


def test_dix_exchange_options_and_optional_belote():
    g = deal_64(R2.replace(dix_exchange="auto"))
    g.apply(TAKE)
    assert g.exchanged == 0 and STEPS[g.step] == "cards"
    g = deal_64(R2.replace(dix_exchange="off"))
    g.apply(TAKE)
    assert g.exchanged == -1 and STEPS[g.step] == "cards" and g.hands[0] >> P("7♥") & 1
    g = deal_64(R2.replace(belote="optional"))
    g.apply(TAKE)
    g.apply(EXCHANGE_SEVEN)
    for a, b in PLAYS_64[:3]:
        g.apply(P(a))
        g.apply(P(b))
    assert ANNOUNCE_BELOTE in g.legal_actions()  # the K♥ was played: the Q♥ may claim
    g.apply(P("Q♥"))  # played without the claim
    g.apply(P("7♦"))
    for a, b in PLAYS_64[4:]:
        g.apply(P(a))
        g.apply(P(b))
    assert g.deal_totals() == [109, 71]


def test_declarations_choice_protocol():
    ch = R2.replace(declarations="choice")
    g = deal_64(ch)
    g.apply(TAKE)
    g.apply(EXCHANGE_SEVEN)
    assert STEPS[g.step] == "declare" and g.legal_actions() == (DECLARE, DECLINE_DECLARE)
    g.apply(DECLARE)
    assert g.current == 1 and g.legal_actions() == (ANSWER_ENOUGH, ANSWER_NOT_ENOUGH)
    assert g.information_set(1).declared[0] == (20, -1, 0)  # the announced value is public before the answer
    g.apply(ANSWER_NOT_ENOUGH)
    assert g.decl_winner == 1
    g = deal_64(ch)
    g.apply(TAKE)
    g.apply(EXCHANGE_SEVEN)
    g.apply(DECLINE_DECLARE)  # the forfeit rule: the dealer's own score unopposed
    assert g.legal_actions() == (DECLARE, DECLINE_DECLARE)
    g.apply(DECLARE)
    assert g.decl_winner == 1
    g = deal_64(R2.replace(declarations="off"))
    g.apply(TAKE)
    g.apply(EXCHANGE_SEVEN)
    play_64(g)
    assert g.deal_totals() == [129, 21]


# ----------------------------------------------------------------------------- §6.5 / §6.7 scoring
def test_w1_to_w3_and_litige():
    assert score_cutthroat_deal(0, (75, 60), R2).points == (75, 60)
    assert score_cutthroat_deal(0, (70, 70), R2).points == (0, 70)
    r = score_cutthroat_deal(0, (70, 70), R2.replace(tie="litige"))
    assert r.points == (0, 70) and r.reserve_out == 70
    nxt = score_cutthroat_deal(1, (50, 90), R2.replace(tie="litige"), reserve_in=70)
    assert nxt.points == (50, 160) and nxt.reserve_out == 0
    assert score_cutthroat_deal(0, (55, 80), R2).points == (0, 135)
    assert score_cutthroat_deal(0, (55, 80), R2.replace(failure="maker_zero")).points == (0, 80)
    assert score_cutthroat_deal(0, (74, 61), R2.replace(rounding="half_up")).points == (70, 60)


def test_w4_to_w6_match_end():
    assert game_end([549, 526], R2, 5) == (True, 0)
    assert game_end([480, 560], R2, 5) == (True, 1)
    assert game_end([505, 505], R2, 5) == (False, None)
    assert game_end([500, 400], R2, 5) == (True, 0)
    assert game_end([500, 400], R2.replace(target_rule="exceed"), 5) == (False, None)


@pytest.mark.parametrize("rules", [R2, load_rules("seed001_3p")], ids=["2p", "3p"])
def test_target_null_is_one_deal_whatever_max_deals_says(rules):
    """RULES.md §8: ``target: null`` is a single played deal, as at four seats; a
    ``max_deals`` beside it does not make it a longer game."""
    one = rules.replace(target=None, max_deals=3)
    n = rules.players
    assert game_end([40] + [30] * (n - 1), one, 1) == (True, 0)
    assert game_end([30] * n, one, 1) == (True, None)  # equal: a draw
    from belote_env import GameState

    for g in (GameState(one, seed=5), GameState(Rules(target=None, max_deals=3), seed=5)):
        for _ in range(2000):  # the same at four seats (the highest id: take, never an all-pass redeal)
            if g.is_game_over:
                break
            if g.is_deal_over:
                g.next_deal()
            else:
                g.apply(g.legal_actions()[-1])
        assert g.is_game_over and g.deal_number == 1 and len(g.deal_scores) == 1


def test_t1_to_t4():
    assert score_cutthroat_deal(2, (14, 25, 95), R3).points == (14, 25, 95)
    assert score_cutthroat_deal(0, (60, 50, 45), R3).points == (0, 80, 75)
    assert score_cutthroat_deal(0, (80, 50, 30), R3).points == (0, 50, 30)
    assert score_cutthroat_deal(0, (61, 70, 40), R3).points == (0, 100, 70)
    assert score_cutthroat_deal(0, (61, 70, 40), R3.replace(defender_split="half_ceil_next")).points == (0, 101, 70)
    assert score_cutthroat_deal(0, (61, 70, 40), R3.replace(defender_split="proportional")).points == (0, 70 + 38, 40 + 22)  # 61 x 70 / 110 = 38.8, 61 x 40 / 110 = 22.2


# ----------------------------------------------------------------------------- §6.6 a complete 3p deal
def test_complete_three_player_deal():
    deck = list(range(32))
    random.Random(7).shuffle(deck)
    g = GameState(R3, dealer=2, deck=deck, single_deal=True)
    assert g.hands == [cs("J♣ 8♥ 10♦ K♥ 7♥ A♥"), cs("9♥ Q♣ Q♠ A♦ 7♣ Q♦"), cs("A♠ K♦ 7♠ Q♥ 8♣ 10♣")]
    assert g.turned_card == P("K♠")
    for b in (PASS, PASS, TAKE):
        g.apply(b)
    assert g.bottom_card == P("J♦") and g.unused == cs("J♥ J♠ K♣")
    for seat in (0, 1):
        assert g.current == seat and g.legal_actions() == (KEEP,)
        g.apply(KEEP)
    assert g.legal_actions() == (EXCHANGE_SEVEN, KEEP)
    g.apply(EXCHANGE_SEVEN)
    assert g.hands[2] == cs("A♠ K♠ 9♠ 8♠ K♦ Q♥ 8♣ 10♣ A♣") and g.decl_winner == -1 and g.belote_holder == -1
    plays = [("A♥", "9♥", "Q♥"), ("10♦", "A♦", "K♦"), ("10♠", "A♠", "8♥"), ("9♠", "7♥", "Q♠"), ("K♠", "7♦", "7♣"),
             ("8♠", "9♣", "8♦"), ("A♣", "J♣", "Q♣"), ("10♣", "9♦", "Q♦"), ("8♣", "K♥", "10♥")]
    legal = {(0, 1): "10♥ 9♥", (0, 2): "Q♥", (1, 1): "8♦ A♦ Q♦", (1, 2): "K♦", (2, 1): "9♠ A♠", (3, 2): "Q♠",
             (6, 1): "J♣", (6, 2): "Q♣"}
    for t, trick in enumerate(plays):
        for i, c in enumerate(trick):
            if (t, i) in legal:
                assert set(g.legal_actions()) == {P(x) for x in legal[t, i].split()}, (t, i)
            g.apply(P(c))
    assert g.deal_totals() == [14, 25, 95]
    assert g.deal_score.outcome == "made" and g.deal_score.points == (14, 25, 95)
    assert sum(g.card_points) == 124


# ----------------------------------------------------------------------------- variants and properties
def random_deal(rules, seed):
    rng = random.Random(seed)
    g = GameState(rules, seed=seed, single_deal=True)
    steps = 0
    while not g.is_game_over:
        if g.phase == Phase.DEAL_OVER:
            g.next_deal()
            continue
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
    return g, steps


@pytest.mark.parametrize("rules", [R2, R3, R3.replace(three_player_deal="10_each"),
                                   R3.replace(three_player_deal="24_card"),
                                   R2.replace(declarations="choice", belote="optional", carres=True, capot_bonus=90),
                                   R3.replace(declarations="choice", ruff_overtrump="only_trump_lead",
                                              defender_partner_free=True, deal_packets="1-by-1")])
def test_property_cards_and_scores(rules):
    n = rules.players
    tricks_per_deal = {"10_each": 10, "24_card": 8}.get(rules.three_player_deal, 9)
    for seed in range(60):
        g, _ = random_deal(rules, seed)
        played = 0
        for _, cards, _ in g.tricks:
            assert len(cards) == n
            for c in cards:
                assert not played >> c & 1
                played |= 1 << c
        assert len(g.tricks) == tricks_per_deal
        # every card accounted for: played, bottom, unused, turned (if not played), discards, removed
        rest = g.unused | g.discarded | (1 << g.bottom_card if g.bottom_card >= 0 else 0)
        if not played >> g.turned_card & 1:
            rest |= 1 << g.turned_card
        if g.exchanged >= 0:
            rest |= 1 << (g.denomination * 8)  # the seven lies face up
        if rules.three_player_deal == "24_card":
            rest |= sum(1 << c for c in range(32) if c & 7 < 2)
        assert played & rest == 0 and (played | rest) == (1 << NUM_CARDS) - 1
        totals = g.deal_totals()
        m = totals[g.taker]
        others = sum(totals) - m
        pts = g.deal_score.points
        if m > others:
            assert pts == tuple(totals)
        else:
            assert pts[g.taker] == 0
            if m == others:
                assert all(pts[s] == totals[s] for s in range(n) if s != g.taker)
            elif n == 2:
                assert pts[1 - g.taker] == m + others
            else:
                assert sum(pts) in (m + others, m + others - 1)


def test_rules_validation_and_sizes():
    with pytest.raises(RuleOptionError, match="players"):
        Rules(players=5)
    with pytest.raises(RuleOptionError, match="three-player option"):
        Rules(players=2, ruff_overtrump="required")
    with pytest.raises(RuleOptionError, match="'opponent_own', 'litige'"):
        Rules(players=2, tie="takers_made")
    assert num_actions(R2) == num_actions(R3) == 414
    g = GameState(R2, seed=3)
    with pytest.raises(IllegalActionError, match="legal ids"):
        g.apply(KEEP)


def test_small_deal_layouts():
    deck = list(range(32))
    hands, turned = packet_deal(deck, 1, R2)  # E = seat 0 gets d0-2, d6-8
    assert hands[0] == sum(1 << c for c in (0, 1, 2, 6, 7, 8)) and turned == 12
    full, bottom, unused, chien = packet_complete(deck, 1, 0, R2)
    assert full[0] == hands[0] | 1 << 13 | 1 << 14 | 1 << 15 and bottom == 31 and unused == sum(1 << c for c in range(19, 31))
    hands, turned = packet_deal(deck, 1, R2.replace(deal_packets="1-by-1"))
    assert hands[0] == sum(1 << c for c in (0, 2, 4, 6, 8, 10))
    r10 = R3.replace(three_player_deal="10_each")
    full, bottom, unused, chien = packet_complete(deck, 2, 0, r10)
    assert bottom == -1 and chien == 1 << 31 | 1 << 18 and all(h.bit_count() == 10 for h in full)
    r24 = R3.replace(three_player_deal="24_card")
    hands, turned = packet_deal(deck, 2, r24)
    assert all(h.bit_count() == 5 for h in hands) and turned & 7 >= 2



@pytest.mark.parametrize("bonus", [0, 50, 90])
def test_capot_bonus(bonus):
    """A21 ``capot_bonus``: the seat winning all 9 tricks adds it to its deal total (seed 27:
    normal against easy, seat 0 takes every trick; its total is 119 without a bonus, the
    opponent's 0)."""
    from belote_env.driver import play_deal
    from policies import make_policy

    g = GameState(R2.replace(capot_bonus=bonus), seed=27, single_deal=True)
    play_deal(g, [make_policy("normal", seed=0), make_policy("easy", seed=0)], teams=(0, 1))
    assert g.tricks_won == [9, 0]
    assert g.deal_totals() == [119 + bonus, 0]


def test_the_old_small_game_end_name_warns_and_keeps_its_arguments():
    import belote_env.scoring as scoring

    with pytest.warns(DeprecationWarning, match="game_end"):
        old = scoring.small_game_end
    assert old([549, 526], R2, 5) == game_end([549, 526], R2, 5) == (True, 0)
    assert old([30, 20], R2, 1, True) == game_end([30, 20], R2, 1, single_deal=True) == (True, 0)


def test_small_game_state_names_the_contract_as_game_state_does():
    """``taker`` and ``denomination`` at every table (RULES.md's names); ``maker`` and
    ``trump`` warn and give the same seat and suit."""
    g = GameState(R2, seed=3)
    while g.taker < 0:
        g.apply(g.legal_actions()[-1] if g.phase == 0 else g.legal_actions()[0])
    assert 0 <= g.taker < 2 and 0 <= g.denomination < 4
    with pytest.warns(DeprecationWarning, match="GameState.maker is GameState.taker"):
        assert g.maker == g.taker
    with pytest.warns(DeprecationWarning, match="GameState.trump is GameState.denomination"):
        assert g.trump == g.denomination
    with pytest.warns(DeprecationWarning, match="CutthroatDealScore.maker is CutthroatDealScore.taker"):
        assert score_cutthroat_deal(1, [100, 62], R2).maker == 1


def test_ties_shown_are_the_seats_tied_on_what_is_compared_first():
    """TWO_THREE.md §2.6: "same — the top cards are compared": the top card and trump flag
    of the seats tied on the first component of their best key, when two or more tie."""
    from belote_env.declarations import ties_shown

    assert ties_shown({}) == frozenset()
    assert ties_shown({0: (50, 7, 0)}) == frozenset()
    assert ties_shown({0: (50, 7, 0), 1: (50, 4, 1), 2: (20, 7, 0)}) == {0, 1}
    assert ties_shown({0: (20, 7, 0), 1: (50, 4, 1)}) == frozenset()
    # length_then_top keys: (length, points, rank, trump); a 4-run and a 5-run do not tie
    assert ties_shown({0: (4, 50, 7, 0), 1: (5, 50, 4, 0)}) == frozenset()
    assert ties_shown({0: (5, 50, 7, 0), 1: (5, 50, 4, 0), 2: (3, 20, 7, 0)}) == {0, 1}


def _answers_to(elder6, elder3, rules):
    """The elder's announcement and the dealer's legal answers after the elder of a two-seat
    deal takes and announces (the dealer holds 8-9-10-J-Q of diamonds once the stock is dealt:
    a 5-run, worth 50, or 100 under ``run5_value=100``)."""
    g = GameState.from_hands([elder6, ["8D", "9D", "10D", "JD", "7S", "8S"]], turned="QH",
                             stock=[elder3, ["9S", "KS", "QD"]], rules=rules, dealer=1, bottom="7H")
    g.apply(TAKE)
    g.apply(DECLARE)
    assert g.current == 1
    return g.information_set(1).declared[0], g.legal_actions()


def test_dealer_answers_read_only_the_announced_value():
    """TWO_THREE.md §2.6, RULES.md §11: the elder announces a value, and the dealer's answers
    depend on that value and his own hand, not on the hidden run length or kind behind it."""
    r = R2.replace(declarations="choice", dix_exchange="off", sequence_compare="length_then_top")
    five = _answers_to(["7C", "8C", "9C", "10C", "JC", "AH"], ["KH", "KC", "QS"], r)  # a 5-run: 50
    four = _answers_to(["7C", "8C", "9C", "10C", "QC", "AH"], ["KH", "KC", "JS"], r)  # a 4-run: 50
    assert five == four == ((50, -1, 0), (ANSWER_ENOUGH, ANSWER_EQUAL))
    r = R2.replace(declarations="choice", dix_exchange="off", carres=True, run5_value=100)
    run = _answers_to(["7C", "8C", "9C", "10C", "JC", "AH"], ["KH", "KC", "AD"], r)  # a 5-run: 100
    carre = _answers_to(["AC", "AD", "AH", "7C", "8C", "JH"], ["AS", "KH", "10H"], r)  # four aces: 100
    assert run == carre == ((100, -1, 0), (ANSWER_ENOUGH, ANSWER_EQUAL))  # the dealer's 8-Q of diamonds: 100
    g = GameState.from_hands([["7C", "8C", "9C", "10C", "JC", "AH"], ["8D", "9D", "10D", "JD", "7S", "8S"]],
                             turned="QH", stock=[["KH", "KC", "QS"], ["9S", "KS", "QD"]],
                             rules=R2.replace(declarations="choice", dix_exchange="off",
                                              sequence_compare="length_then_top"), dealer=1, bottom="7H")
    g.apply(TAKE)
    g.apply(DECLARE)
    g.apply(ANSWER_EQUAL)  # "same": compared in full, the dealer's Q-high 5-run beats the J-high one
    assert g.decl_winner == 1
