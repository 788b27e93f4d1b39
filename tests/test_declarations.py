"""Declarations (RULES.md §6): best partition, every comparison rule and tie case, scoring."""

import random

import pytest

from belote_env import GameState, Rules
from belote_env.actions import DECLARE
from belote_env.cards import ALL_TRUMP, NO_TRUMP, cards_to_str, parse_cards
from belote_env.declarations import Declaration, best_declarations, declaration_winner

S, H, D, C = 0, 1, 2, 3


def decl(hand, contract=S):
    return [(d.kind, cards_to_str(d.cards, True), d.points) for d in best_declarations(parse_cards(hand), contract)]


@pytest.mark.parametrize("hand,contract,expected", [
    ("JS JH JD JC 7S 8H 9D AC", S, [("carre", "JS JH JD JC", 200)]),
    ("9S 9H 9D 9C 7S 8H KD AC", S, [("carre", "9S 9H 9D 9C", 150)]),
    ("AS AH AD AC 7S 8H KD 10C", S, [("carre", "AS AH AD AC", 100)]),
    ("8S 8H 8D 8C 7S 7H 7D KC", S, []),  # four 8s / 7s score nothing
    ("7H 8H 9H KS AD 10C QC 8D", S, [("sequence", "7H 8H 9H", 20)]),  # tierce
    ("7H 8H 9H 10H KS AD QC 8D", S, [("sequence", "7H 8H 9H 10H", 50)]),  # cinquante
    ("9H 10H JH QH KH 7S AD 8C", S, [("sequence", "9H 10H JH QH KH", 100)]),  # cent
    ("8H 9H 10H JH QH KH 7S AD", S, [("sequence", "9H 10H JH QH KH", 100)]),  # 6 cards: 5 highest shown
    # eight in a row: one sequence, its five highest cards shown (100), not five + three
    ("7S 8S 9S 10S JS QS KS AS", S, [("sequence", "10S JS QS KS AS", 100)]),
    # a card in one declaration only: four jacks (200) beat the run 9-K of spades (100)
    ("JS JH JD JC 9S 10S QS KS", S, [("carre", "JS JH JD JC", 200)]),
    # no-trump carrés: aces 200, tens 150, K/Q/J/9 100; jacks only 100
    ("AS AH AD AC 7S 8H 9D KC", NO_TRUMP, [("carre", "AS AH AD AC", 200)]),
    ("10S 10H 10D 10C 7S 8H 9D KC", NO_TRUMP, [("carre", "10S 10H 10D 10C", 150)]),
    ("JS JH JD JC 7S 8H 9D KC", NO_TRUMP, [("carre", "JS JH JD JC", 100)]),
    ("KS KH KD KC QS QH QD QC", S, [("carre", "KS KH KD KC", 100), ("carre", "QS QH QD QC", 100)]),
])
def test_best_declarations(hand, contract, expected):
    assert decl(hand, contract) == expected


def _d(hand, contract=S):
    return best_declarations(parse_cards(hand), contract)


def _winner(per_seat, contract=S, eldest=1, tie="eldest"):
    return declaration_winner([_d(h, contract) if h else () for h in per_seat], contract, eldest, tie)


@pytest.mark.parametrize("name,hands,contract,expected", [
    ("carre_beats_any_sequence", ["QS QH QD QC", "9H 10H JH QH KH", "", ""], S, 0),
    ("carre_more_points", ["AS AH AD AC", "9S 9H 9D 9C", "", ""], S, 1),
    ("carre_equal_points_higher_rank", ["KS KH KD KC", "AS AH AD AC", "", ""], S, 1),
    ("carre_equal_points_10_lowest", ["10S 10H 10D 10C", "QS QH QD QC", "", ""], S, 1),
    ("longer_sequence_wins", ["7H 8H 9H 10H", "10D JD QD", "", ""], S, 0),
    ("equal_length_higher_top", ["7H 8H 9H", "8D 9D 10D", "", ""], S, 1),
    ("equal_top_trump_sequence_wins", ["8H 9H 10H", "8S 9S 10S", "", ""], S, 1),
    ("equal_top_no_trump_eldest_wins", ["8H 9H 10H", "8D 9D 10D", "", ""], S, 1),  # eldest = seat 1
    ("equal_top_eldest_is_seat_1_team", ["8H 9H 10H", "", "", "8D 9D 10D"], S, 1),
    ("tie_between_seats_2_and_3_eldest_1", ["", "", "JH QH KH", "JD QD KD"], S, 1),
    ("team_mates_tie_same_team", ["8H 9H 10H", "", "8D 9D 10D", ""], S, 0),
    ("nobody_declares", ["", "", "", ""], S, None),
])
def test_declaration_comparison(name, hands, contract, expected):
    assert _winner(hands, contract) == expected


def test_declaration_tie_eldest_vs_none():
    hands = ["8H 9H 10H", "8D 9D 10D", "", ""]
    assert _winner(hands, S, eldest=0, tie="eldest") == 0
    assert _winner(hands, S, eldest=3, tie="eldest") == 1  # eldest's own team wins the tie
    assert _winner(hands, S, eldest=1, tie="eldest") == 1
    assert _winner(hands, S, eldest=0, tie="none") is None


def test_declaration_tie_goes_to_eldest_team_even_if_its_seat_plays_later():
    # seats 2 (team 0) and 3 (team 1) tie; eldest is seat 1 (team 1): team 1 wins
    assert _winner(["", "", "JH QH KH", "JD QD KD"], S, eldest=1) == 1
    assert _winner(["", "", "JH QH KH", "JD QD KD"], S, eldest=2) == 0


def _play(rules, seed, chooser=None):
    rng = random.Random(seed)
    st = GameState(rules, seed=seed)
    while not st.is_deal_over:
        legal = st.legal_actions()
        a = chooser(st, legal) if chooser else None
        st.apply(a if a is not None else legal[rng.randrange(len(legal))])
    return st


def test_auto_declarations_scored_for_strongest_team_only():
    rules = Rules(target=None, declarations="auto")
    found = 0
    for seed in range(3000):
        st = _play(rules, seed)
        if st.deal_score is None:
            continue
        declared = st.declared
        for seat in range(4):  # every seat declared its best partition with its first card
            hand8 = st.played_by[seat]
            assert declared[seat] == best_declarations(hand8, st.denomination)
        team = declaration_winner(declared, st.denomination, st.eldest, "eldest")
        want = [0, 0]
        if team is not None:
            want[team] = sum(d.points for s in (team, team + 2) for d in declared[s])
        assert list(st.deal_score.declarations) == want
        found += team is not None
        if found > 30:
            return
    pytest.fail("too few deals with declarations")


def test_declarations_off_means_none():
    for seed in range(50):
        st = _play(Rules(target=None), seed)
        assert st.declared == [(), (), (), ()]
        assert st.deal_score is None or st.deal_score.declarations == (0, 0)


def test_choice_mode_declare_or_decline_hidden():
    rules = Rules(target=None, declarations="choice")
    seen = {"declared": 0, "declined": 0}
    for seed in range(3000):
        def chooser(st, legal, seed=seed):
            if DECLARE in legal:
                seat = st.current
                if seed % 2:
                    others = {s: st.information_set(s) for s in range(4) if s != seat}
                    st.apply(DECLARE)
                    assert all(st.information_set(s) == others[s] for s in others)
                    seen["declared"] += 1
                    return st.legal_actions()[0]
                seen["declined"] += 1
            return None
        _play(rules, seed, chooser)
        if min(seen.values()) >= 10:
            break
    assert min(seen.values()) >= 10


def test_declarations_count_for_contract():
    from belote_env.scoring import score_deal

    # takers 70 trick points + 50 declarations = 120 vs defenders 92: made
    s = score_deal(taker_team=0, card_points=(60, 92), tricks_won=(4, 4), last_trick_team=0, declarations=(50, 0))
    assert s.outcome == "made" and s.points == (120, 92)
    t = score_deal(taker_team=0, card_points=(60, 92), tricks_won=(4, 4), last_trick_team=0, declarations=(50, 0),
                   rules=Rules(contract_counts_bonuses=False))
    assert t.outcome == "dedans" and t.points == (0, 162 + 50)


def test_all_trump_and_no_trump_belote():
    for contract, rules in ((ALL_TRUMP, Rules(target=None, round2_no_trump_all_trump=True)),
                            (NO_TRUMP, Rules(target=None, round2_no_trump_all_trump=True))):
        for seed in range(3000):
            def chooser(st, legal, contract=contract):
                if st.phase == 0 and st.auction.bid_round == 2:
                    return 34 + contract
                if st.phase == 0:
                    return 32
                return None
            st = _play(rules, seed, chooser)
            assert st.denomination == contract
            if contract == NO_TRUMP:
                assert st.belote_pairs == [] and st.deal_score.belote == (0, 0)
                continue
            if len(st.belote_pairs) >= 2:  # at all-trump each K+Q pair held by one seat scores 20
                total = 20 * len(st.belote_pairs)
                assert sum(st.deal_score.belote) == total
                break
        else:
            if contract == ALL_TRUMP:
                pytest.fail("no all-trump deal with two belote pairs")


def test_declaration_dataclass_strength_order():
    a = Declaration("carre", 0, 100, 7, 4, -1)
    b = Declaration("sequence", 0, 100, 7, 5, 0)
    assert a.strength(0) > b.strength(0)


def test_the_taker_first_tie_rule_needs_an_int_seat():
    """``declaration_tie="taker_first"`` counts from the taker's seat: an int 0..3 (a numpy
    integer too); a float or a bool is refused by name (``1.0 in range(4)`` is true)."""
    import numpy as np

    equal = [best_declarations(parse_cards("7♠ 8♠ 9♠"), 0), (), best_declarations(parse_cards("7♥ 8♥ 9♥"), 0), ()]
    equal[1] = best_declarations(parse_cards("7♦ 8♦ 9♦"), 0)
    assert declaration_winner(equal, 3, 0, "taker_first", taker=1) == 1
    assert declaration_winner(equal, 3, 0, "taker_first", taker=np.int64(1)) == 1
    for bad in (1.0, True, 4):
        with pytest.raises(ValueError, match=r"needs the taker's seat 0\.\.3"):
            declaration_winner(equal, 3, 0, "taker_first", taker=bad)


# ----------------------------------------------------------------------------- carres, run5_value (§6)
NO_CARRES, RUN5_50, SEED001 = Rules(carres=False), Rules(run5_value=50), Rules(carres=False, run5_value=50)


@pytest.mark.parametrize("hand,rules,expected", [
    # four jacks and J-Q-K of spades: the carré (200) holds J♠, so no tierce; without carrés the tierce alone
    ("JS JH JD JC QS KS 7H 8D", Rules(), [("carre", "JS JH JD JC", 200)]),
    ("JS JH JD JC QS KS 7H 8D", NO_CARRES, [("sequence", "JS QS KS", 20)]),
    ("AS AH AD AC KS KH KD KC", NO_CARRES, []),
    # five in a row: 100, or 50 (seed 001 L47-L48)
    ("9H 10H JH QH KH 7S AD 8C", Rules(), [("sequence", "9H 10H JH QH KH", 100)]),
    ("9H 10H JH QH KH 7S AD 8C", RUN5_50, [("sequence", "9H 10H JH QH KH", 50)]),
    # seven or eight in a row: one sequence (50), not cut into four + three or two fours
    ("7S 8S 9S 10S JS QS KS AS", RUN5_50, [("sequence", "10S JS QS KS AS", 50)]),
    ("8S 9S 10S JS QS KS AS 7H", RUN5_50, [("sequence", "10S JS QS KS AS", 50)]),
    # four kings and 9-K of hearts: the carré and 9-Q (150) beat the run of five (100); without carrés the
    # five, 100 or 50; carrés still count under run5_value 50
    ("KS KH KD KC 9H 10H JH QH", Rules(), [("carre", "KS KH KD KC", 100), ("sequence", "9H 10H JH QH", 50)]),
    ("KS KH KD KC 9H 10H JH QH", NO_CARRES, [("sequence", "9H 10H JH QH KH", 100)]),
    ("KS KH KD KC 9H 10H JH QH", SEED001, [("sequence", "9H 10H JH QH KH", 50)]),
    ("KS KH KD KC 9H 10H JH QH", RUN5_50, [("carre", "KS KH KD KC", 100), ("sequence", "9H 10H JH QH", 50)]),
])
def test_carres_and_run5_value_options(hand, rules, expected):
    got = best_declarations(parse_cards(hand), S, rules)
    assert [(d.kind, cards_to_str(d.cards, True), d.points) for d in got] == expected


def test_a_five_card_run_worth_50_still_beats_a_four_card_run():
    """Under ``run5_value`` 50 the two are worth the same; a longer sequence still wins (§6)."""
    declared = [best_declarations(parse_cards(h), S, RUN5_50) for h in ("7H 8H 9H 10H JH", "AD KD QD JD", "", "")]
    assert [d[0].points for d in declared[:2]] == [50, 50]
    assert declaration_winner(declared, S, eldest=1) == 0


#: Dealer 0; seat 1 (eldest) takes K♥ (trump hearts). Seat 0 holds the four jacks and 9♠-K♠ (one card
#: in both), seat 2 the four aces, seat 1 the tierces 7-9♦ and 7-9♣ and the belote (K♥ Q♥).
COMBO_HANDS = ["JS JH JD JC 9S 10S QS KS", "KH QH 7D 8D 9D 7C 8C 9C", "9H AH 10H AS AD AC 10D 10C",
               "7H 8H 7S 8S QD KD QC KC"]


def play_combo_deal(**options) -> GameState:
    """The deal of ``COMBO_HANDS`` played out under ``Rules(declarations="auto", **options)``:
    seat 1 takes in round 1, every seat then plays its lowest legal card."""
    from belote_env.dealing import deck_for_final_hands

    deck = deck_for_final_hands([parse_cards(h) for h in COMBO_HANDS], "KH", taker=1, dealer=0)
    st = GameState(Rules(target=None, declarations="auto", **options), deck=deck, dealer=0)
    while not st.is_deal_over:
        legal = st.legal_actions()
        st.apply(legal[-1] if st.phase == 0 else legal[0])
    assert st.taker == 1
    return st


def test_the_engine_declares_by_carres_and_run5_value():
    """``GameState`` declares each seat's partition under the rules' ``carres`` and
    ``run5_value`` (``play_combo_deal``: the deal of
    ``tests/test_scoring.py::test_the_engine_scores_a_failed_contract_by_failure``)."""

    def declared(**options):
        return [[(d.kind, cards_to_str(d.cards, True), d.points) for d in ds] for ds in play_combo_deal(**options).declared]

    tierces = [("sequence", "7D 8D 9D", 20), ("sequence", "7C 8C 9C", 20)]
    assert declared() == [[("carre", "JS JH JD JC", 200)], tierces, [("carre", "AS AH AD AC", 100)], []]
    assert declared(carres=False) == [[("sequence", "9S 10S JS QS KS", 100)], tierces, [], []]
    assert declared(carres=False, run5_value=50) == [[("sequence", "9S 10S JS QS KS", 50)], tierces, [], []]
