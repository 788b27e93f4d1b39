"""Deal scoring: RULES.md §7 and the worked examples of §13 as exact values."""

import pytest

from belote_env import Rules
from belote_env.scoring import score_deal

A, B = 0, 1  # teams


def test_example1_dedans_without_belote():
    # takers (team A) won 62 card points + the last trick = 72; defenders 90
    s = score_deal(taker_team=A, card_points=(62, 90), tricks_won=(4, 4), last_trick_team=A)
    assert s.trick_points == (72, 90)
    assert s.outcome == "dedans" and s.points == (0, 162)


def test_example2_made_with_belote():
    s = score_deal(taker_team=A, card_points=(62, 90), tricks_won=(4, 4), last_trick_team=A, belote=(20, 0))
    assert s.outcome == "made" and s.points == (92, 90)


def test_example3_capot_with_belote():
    s = score_deal(taker_team=A, card_points=(152, 0), tricks_won=(8, 0), last_trick_team=A, belote=(20, 0))
    assert s.capot == A and s.trick_points == (252, 0) and s.points == (272, 0)


def test_defenders_capot_dedans_252():
    s = score_deal(taker_team=A, card_points=(0, 152), tricks_won=(0, 8), last_trick_team=B, belote=(20, 0))
    assert s.outcome == "dedans" and s.points == (20, 252)


def test_example6_litige_reserve_goes_to_next_winner():
    s = score_deal(taker_team=A, card_points=(71, 81), tricks_won=(4, 4), last_trick_team=A)
    assert s.trick_points == (81, 81)
    assert s.outcome == "litige" and s.points == (0, 81) and s.reserve_out == 81
    # next deal: team B takes and makes: B adds the 81 in reserve
    n = score_deal(taker_team=B, card_points=(50, 102), tricks_won=(3, 5), last_trick_team=B, reserve_in=81)
    assert n.outcome == "made" and n.points == (50, 112 + 81) and n.reserve_won == (0, 81) and n.reserve_out == 0
    # or: team B takes and fails: the defenders (A) get the reserve
    f = score_deal(taker_team=B, card_points=(90, 62), tricks_won=(5, 3), last_trick_team=B, reserve_in=81)
    assert f.outcome == "dedans" and f.points == (162 + 81, 0)


def test_successive_litiges_add_up():
    s = score_deal(taker_team=A, card_points=(71, 81), tricks_won=(4, 4), last_trick_team=A, reserve_in=81)
    assert s.reserve_out == 162 and s.points == (0, 81)


def test_example7_defender_belote_and_contract_counts_bonuses():
    s = score_deal(taker_team=A, card_points=(80, 72), tricks_won=(5, 3), last_trick_team=A, belote=(0, 20))
    assert s.trick_points == (90, 72)
    assert s.outcome == "dedans" and s.points == (0, 182)
    t = score_deal(taker_team=A, card_points=(80, 72), tricks_won=(5, 3), last_trick_team=A, belote=(0, 20),
                   rules=Rules(contract_counts_bonuses=False))
    assert t.outcome == "made" and t.points == (90, 92)


def test_example8_takers_keep_belote_when_dedans():
    s = score_deal(taker_team=A, card_points=(50, 102), tricks_won=(3, 5), last_trick_team=A, belote=(20, 0))
    assert s.trick_points == (60, 102)
    assert s.outcome == "dedans" and s.points == (20, 162)


@pytest.mark.parametrize("failure,points", [
    ("maker_keeps_belote", (20, 162)),  # RULES.md §7: belote stays with the team that holds it (example 8)
    ("opponent_takes_all", (0, 182)),  # seed 001 L98: the defenders take all, the takers' belote included
    ("maker_zero", (0, 102)),  # the defenders keep their own points only
])
def test_failure_options_with_the_takers_belote(failure, points):
    # takers 50 + 10 (last trick) + 20 (belote) = 80 < 102: dedans
    s = score_deal(taker_team=A, card_points=(50, 102), tricks_won=(3, 5), last_trick_team=A, belote=(20, 0),
                   rules=Rules(failure=failure))
    assert (s.outcome, s.points) == ("dedans", points)


@pytest.mark.parametrize("failure,points", [
    ("maker_keeps_belote", (252 + 50 + 20, 20)),  # every declaration (the takers' too), each team its belote
    ("opponent_takes_all", (252 + 50 + 20 + 20, 0)),  # both belotes to the defenders
    ("maker_zero", (252 + 20, 0)),  # the defenders' capot and belote: their own points only
])
def test_failure_options_with_declarations_and_a_defence_capot(failure, points):
    # the takers (team B) win no trick, hold the strongest declaration (50) and a belote (20); the
    # defenders make capot (252) with a belote (20): 70 < 272, dedans
    s = score_deal(taker_team=B, card_points=(152, 0), tricks_won=(8, 0), last_trick_team=A, belote=(20, 20),
                   declarations=(0, 50), rules=Rules(failure=failure))
    assert (s.outcome, s.capot, s.points) == ("dedans", A, points)


def test_the_engine_scores_a_failed_contract_by_failure():
    """``GameState`` under each ``failure`` (and ``carres`` / ``run5_value``): the deal of
    ``tests/test_declarations.py::COMBO_HANDS``, every seat playing its lowest legal card.
    Seat 1 (eldest) takes K♥ and leads; hand-checked tricks (leader: cards in play order ->
    winner, points): 1: Q♥ 9♥ 7♥ J♥ -> 0, 37; 0: 9♠ K♥ A♠ 7♠ -> 1, 15 (seat 1: the belote);
    1: 7♦ 10♦ Q♦ J♦ -> 2, 15; 2: 10♥ 8♥ 10♠ 8♦ -> 2, 20; 2: A♥ 8♠ J♠ 9♦ -> 2, 13;
    2: A♦ K♦ Q♠ 7♣ -> 2, 18; 2: 10♣ Q♣ J♣ 8♣ -> 2, 15; 2: A♣ K♣ K♠ 9♣ -> 2, 19 + 10. Trick
    points: defenders (team 0) 147, takers 15 + belote 20: dedans. Declarations: team 0's
    carré of jacks (seat 0) is the strongest: it scores it and seat 2's carré of aces, 300;
    without carrés seat 0's 9♠-K♠ (100, or 50) beats seat 1's tierces."""
    from tests.test_declarations import play_combo_deal

    def score(**options):
        st = play_combo_deal(**options)
        s = st.deal_score
        assert (st.taker, s.outcome, s.trick_points, s.belote) == (1, "dedans", (147, 15), (0, 20))
        return s.declarations, s.points

    assert score() == ((300, 0), (162 + 300, 20))  # failure maker_keeps_belote: the takers keep their belote
    assert score(failure="opponent_takes_all") == ((300, 0), (162 + 300 + 20, 0))
    assert score(failure="maker_zero") == ((300, 0), (147 + 300, 0))
    assert score(carres=False) == ((100, 0), (162 + 100, 20))
    assert score(carres=False, run5_value=50) == ((50, 0), (162 + 50, 20))
    # seed 001's reading (the preset seed001_4p): no carrés, five cards 50, the opponent takes all
    assert score(carres=False, run5_value=50, failure="opponent_takes_all") == ((50, 0), (162 + 50 + 20, 0))


@pytest.mark.parametrize("tie,outcome,points,reserve", [
    ("litige", "litige", (0, 81), 81),
    ("takers_made", "made", (81, 81), 0),
    ("takers_fail", "dedans", (0, 162), 0),
    ("defenders_keep", "litige", (0, 81), 0),
])
def test_tie_options(tie, outcome, points, reserve):
    s = score_deal(taker_team=A, card_points=(71, 81), tricks_won=(4, 4), last_trick_team=A, rules=Rules(tie=tie))
    assert (s.outcome, s.points, s.reserve_out) == (outcome, points, reserve)


@pytest.mark.parametrize("tie,outcome,points,reserve", [
    ("litige", "litige", (20, 91), 71),  # the takers score only their belote now (RULES.md §7)
    ("takers_made", "made", (91, 91), 0),
    ("takers_fail", "dedans", (20, 162), 0),  # belote stays with the team that holds it (§5)
    ("defenders_keep", "litige", (0, 91), 0),  # takers nothing, their belote included (§7, seed 001 L97)
])
def test_tie_options_with_the_takers_belote(tie, outcome, points, reserve):
    # takers 61 + 10 (last trick) + 20 (belote) = 91, defenders 91
    s = score_deal(taker_team=A, card_points=(61, 91), tricks_won=(4, 4), last_trick_team=A, belote=(20, 0),
                   rules=Rules(tie=tie))
    assert (s.outcome, s.points, s.reserve_out) == (outcome, points, reserve)


def test_made_needs_strictly_more():
    s = score_deal(taker_team=B, card_points=(70, 82), tricks_won=(4, 4), last_trick_team=A)
    assert s.trick_points == (80, 82) and s.outcome == "made" and s.points == (80, 82)


@pytest.mark.parametrize("kwargs,match", [
    (dict(card_points=(-10, 162)), "card_points must be two ints >= 0"),
    (dict(tricks_won=(9, -1)), "tricks_won must be two ints >= 0"),
    (dict(belote=(20,)), "belote must be two ints >= 0"),
    (dict(declarations=(50, "0")), "declarations must be two ints >= 0"),
    (dict(belote=None), "belote must be two ints >= 0"),
    (dict(taker_team=2), r"taker_team must be an int 0..1, got 2 \(int\)"),
    (dict(taker_team=True), r"taker_team must be an int 0..1, got True \(bool\)"),
    (dict(last_trick_team=3), "last_trick_team must be an int 0..1"),
    (dict(reserve_in=-5), "reserve_in must be an int >= 0"),
    (dict(rules=Rules(contract_mode="coinche")), "score_coinche_deal"),
    (dict(rules=Rules(players=2)), "score_cutthroat_deal"),
])
def test_bad_input_is_named(kwargs, match):
    args = dict(taker_team=A, card_points=(70, 82), tricks_won=(4, 4), last_trick_team=A) | kwargs
    with pytest.raises(ValueError, match=match):
        score_deal(**args)


def test_numpy_integers_score_as_ints():
    np = pytest.importorskip("numpy")
    s = score_deal(taker_team=np.int64(B), card_points=(np.int64(70), np.int32(82)), tricks_won=(4, 4),
                   last_trick_team=np.int8(A), reserve_in=np.int64(0))
    assert s.points == (80, 82) and all(type(p) is int for p in s.points)


def test_bad_totals_raise():
    with pytest.raises(ValueError, match="152"):
        score_deal(taker_team=A, card_points=(70, 70), tricks_won=(4, 4), last_trick_team=A)
