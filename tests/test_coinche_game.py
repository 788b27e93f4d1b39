"""The coinche game through the engine (COINCHE.md; RULES.md §11): bad input with
errors that name what was wrong and what is allowed, the worked examples of §10.2 / §10.3
through ``GameState`` (not only the auction class), capot / générale / declarations /
belote prenable in whole deals, rounding and ``round_last_deal`` in whole games, resumed
games (``target_rule``, litige reserve), the information rule under random option mixes
(observations in both modes, masks, render text, illegal-action messages, inference),
determinism across processes, and the coinche observation blocks on long auctions.
Each test that pins a fixed bug says so."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from belote_env import belote_v0
from belote_env.actions import (
    COINCHE, EXTENDED_NUM_ACTIONS, GENERALE_BID, HIGH_BID, PASS, SURCOINCHE, coinche_bid_action, num_actions,
)
from belote_env.auction import length_bound
from belote_env.cards import parse_card
from belote_env.config import CLASSIC_ONLY, OPTION_CHOICES, CUTTHROAT_ONLY, RuleOptionError, Rules, load_rules
from tests.vector_harness import defined_mix
from belote_env.contract import CAPOT, GENERALE
from belote_env.game import GameState, IllegalActionError, Phase
from belote_env.inference import possible_holdings, public_constraints
from belote_env.observation import (
    AUCTION_SLOTS, COINCHE_HISTORY_SHAPE, COINCHE_OBS_SIZE, _C_OFFSET, _SLOT, _SLOT_DENOM, encode_history,
    encode_infoset, history_shape, level_value, suit_permutation_index,
)
from belote_env.records import RecordError, game_record, replay
from belote_env.render import coinche_bids_text, render_play_text, render_text
from belote_env.sampling import sample_hidden_hands
from belote_env.scoring import coinche_game_end, score_coinche_deal, score_coinche_game_deal
from belote_env.contract import Contract
from belote_env.table import SEATS, TEAM_OF

ROOT = Path(__file__).resolve().parents[1]
S, H, D, CL, NT, AT = range(6)  # ♠ ♥ ♦ ♣ no-trump all-trump
R = Rules(contract_mode="coinche")


def coinche(**kw) -> Rules:
    return Rules(contract_mode="coinche", **kw)


def b(level, d) -> int:
    return coinche_bid_action(level, d)


def hands(*rows: str) -> list[list[int]]:
    """Four hands from card names (``"JS 9S AS ..."``)."""
    return [[parse_card(c) for c in row.split()] for row in rows]


def drive(g: GameState, seq) -> None:
    """Apply ``(seat, action)`` pairs, each checked to be the seat to act."""
    for seat, a in seq:
        assert g.current_seat == seat, (seat, a, g)
        assert a in g.information_set(seat).legal_actions
        g.apply(a)


def play_out(g: GameState, choose=None) -> None:
    """Play the deal to its end: ``choose(g, legal)`` or the first legal card."""
    while not g.is_deal_over:
        legal = g.legal_actions()
        g.apply(choose(g, legal) if choose else legal[0])


# ============================================================================ 1. bad input
@pytest.mark.parametrize("kw, match", [
    (dict(generale=True), r"'generale' does not apply in contract_mode 'classic'.*coinche option"),
    (dict(max_numeric_bid=170), r"'max_numeric_bid' does not apply in contract_mode 'classic'"),
    (dict(contract_mode="coinche", tie="litige"), r"'tie' does not apply in contract_mode 'coinche'.*tie_with_defence"),
    (dict(contract_mode="coinche", round2_no_trump_all_trump=True), r"'round2_no_trump_all_trump' does not apply"),
    (dict(contract_mode="coinche", generale=1), r"'generale' got 1; allowed values: False, True"),
    (dict(contract_mode="coinche", passes_to_end="4"), r"'passes_to_end' got '4'; allowed values: 3, 4"),
    (dict(contract_mode="coinche", passes_to_end=4.0), r"'passes_to_end' got 4.0"),
    (dict(contract_mode="coinche", max_numeric_bid=165),
     r"'max_numeric_bid' got 165; allowed values: a multiple of 10"),
    (dict(contract_mode="coinche", max_numeric_bid=True), r"'max_numeric_bid' got True"),
    (dict(contract_mode="coinche", max_numeric_bid=660), r"'max_numeric_bid' got 660"),
    (dict(contract_mode="coinche", max_numeric_bid=np.int64(170)), r"'max_numeric_bid' got"),
    (dict(contract_mode="coinche", surcoinche_multiplier=2), r"'surcoinche_multiplier' got 2; allowed values: 4, 3"),
    (dict(contract_mode="coinche", self_overbid="change_denomination"),
     r"'self_overbid' applies only with passes_to_end 4"),
    (dict(contract_mode="Coinche"), r"'contract_mode' got 'Coinche'; allowed values: 'classic', 'coinche'"),
    (dict(contract_mode="coinche", all_pass_redeal=None), r"'all_pass_redeal' got None"),
])
def test_bad_rule_values_name_the_option_and_what_is_allowed(kw, match):
    with pytest.raises(RuleOptionError, match=match):
        Rules(**kw)


def test_replace_contract_mode_round_trips():
    """A change of mode takes the new mode's defaults for the mode-dependent options and
    drops the options of the other mode; the defaults round-trip exactly, and an explicit
    coinche option given with the change is kept."""
    c = Rules().replace(contract_mode="coinche")
    assert c == R and c.all_pass_redeal == "next_dealer" and c.target == 2000 and c.tie is None
    assert c.replace(contract_mode="classic") == Rules()
    assert Rules(target=None).replace(contract_mode="coinche").target is None  # a non-default value is kept
    assert Rules().replace(contract_mode="coinche", generale=True).generale is True
    with pytest.raises(RuleOptionError, match="'tie' does not apply in contract_mode 'coinche'"):
        Rules().replace(contract_mode="coinche", tie="litige")
    with pytest.raises(RuleOptionError, match="'tie' does not apply"):
        load_rules("coinche", tie="litige")
    with pytest.raises(RuleOptionError, match="'contract_mode' got 1"):
        Rules().replace(contract_mode=1)
    assert load_rules("coinche_pagat", contract_mode="classic").contract_mode == "classic"


def test_yaml_bool_for_a_word_option_says_to_quote_it(tmp_path):
    """Regression: ``declarations: off`` unquoted is read by YAML as False; the error now
    says so (it named only False and the allowed words)."""
    p = tmp_path / "r.yaml"
    p.write_text("contract_mode: coinche\ndeclarations: off\n")
    with pytest.raises(RuleOptionError, match=r"'declarations' got False; allowed values: 'off', 'auto', 'choice' "
                                              r"\(a YAML file reads unquoted off.*quote the value"):
        load_rules(p)
    p.write_text("contract_mode: coinche\ncoinche_window: no\n")
    with pytest.raises(RuleOptionError, match=r"coinche_window: 'in_turn'"):
        load_rules(p)
    p.write_text("contract_mode: coinche\npasses_to_end: '4'\n")
    with pytest.raises(RuleOptionError, match=r"r.yaml: rule option 'passes_to_end' got '4'"):
        load_rules(p)


HANDS8 = [list(range(8 * s, 8 * s + 8)) for s in SEATS]


def test_from_hands_bad_shapes_and_rules():
    GameState.from_hands(HANDS8, rules=R)
    with pytest.raises(ValueError, match=r"hands\[0\] must be a sequence of 8 cards"):
        GameState.from_hands([h[:5] for h in HANDS8], rules=R)
    with pytest.raises(ValueError, match="hands must be 4 hands of 8 cards"):
        GameState.from_hands(HANDS8[:3], rules=R)
    with pytest.raises(ValueError, match=r"repeated: \[8\]; missing: \[7\]"):
        GameState.from_hands([HANDS8[0][:7] + [8]] + HANDS8[1:], rules=R)
    with pytest.raises(ValueError, match=r"hands\[3\] must hold 8 cards, got 7"):
        GameState.from_hands([0xFF, 0xFF00, 0xFF0000, 0x7F000000], rules=R)
    with pytest.raises(ValueError, match="no turned card or stock"):
        GameState.from_hands(HANDS8, turned=0, rules=R)
    # regression: 8-card hands under classic rules say how to deal a coinche game
    with pytest.raises(ValueError, match="contract_mode='coinche'"):
        GameState.from_hands(HANDS8)
    # regression: rules given as a preset name or a dict were read as classic ("needs the
    # turned card"); they are refused by type, as GameState does
    for spec in ("coinche", {"contract_mode": "coinche"}):
        with pytest.raises(RuleOptionError, match=r"rules must be a belote_env.Rules \(e.g. load_rules"):
            GameState.from_hands(HANDS8, rules=spec)


def test_records_with_coinche_hands():
    base = {"format": "belote-rl-record", "version": 1, "rules": R.to_dict()}
    # regression: a coinche record with explicit hands and no action could not be replayed
    # ("missing 'turned'"): replay() read its deal as a classic one
    g = replay({**base, "deals": [{"dealer": 0, "hands": HANDS8}]})
    assert g.hands == [0xFF << 8 * s for s in SEATS] and g.phase == Phase.BIDDING
    assert replay({**base, "deals": [{"dealer": 0, "hands": HANDS8, "actions": []}]}).hands == g.hands
    for bad in ([h[:7] for h in HANDS8], [h + [0] for h in HANDS8], HANDS8[:3], [[0xFF]] + HANDS8[1:]):
        with pytest.raises(RecordError, match="'hands' must be 4 lists of 8 cards"):
            replay({**base, "deals": [{"dealer": 0, "hands": bad}]})
    with pytest.raises(RecordError, match=r"repeated: \[8\]"):
        replay({**base, "deals": [{"dealer": 0, "hands": [HANDS8[0][:7] + [8]] + HANDS8[1:]}]})
    with pytest.raises(RecordError, match="no 'turned' card or 'stock'"):
        replay({**base, "deals": [{"dealer": 0, "hands": HANDS8, "turned": 0}]})
    with pytest.raises(RecordError, match=r"either 'deck' or 'hands' \(8 cards per seat\), not both"):
        replay({**base, "deals": [{"dealer": 0, "hands": HANDS8, "deck": list(range(32))}]})
    with pytest.raises(RecordError, match="coinche one 8-card 'hands'"):
        replay({**base, "rules": Rules().to_dict(), "deals": [{"dealer": 0, "hands": HANDS8}]})
    with pytest.raises(RecordError, match=r"action id 0..111\], got \[1, 112\]"):
        replay({**base, "deals": [{"dealer": 0, "hands": HANDS8, "actions": [[1, 112]]}]})
    gen = {**base, "rules": coinche(generale=True).to_dict()}
    with pytest.raises(RecordError, match=r"illegal action 118 by seat 1: bid 170 spades is not legal now"):
        replay({**gen, "deals": [{"dealer": 0, "hands": HANDS8, "actions": [[1, HIGH_BID]]}]})
    ok = replay({**gen, "deals": [{"dealer": 0, "hands": HANDS8, "actions": [[1, GENERALE_BID]]}]})
    assert ok.auction.highest == (GENERALE, S, 1)


def test_bad_actions_in_the_envs():
    """Ids past the action space, ids of the extended table that the rules do not use,
    numpy ints; the range named is the rules' action space (regression: it was always
    0..111, even for the 412 ids of a générale rule set)."""
    e = belote_v0.raw_env(rules="coinche")
    e.reset(seed=1)
    assert e.num_actions == 112
    with pytest.raises(IllegalActionError, match=r"illegal action 112 by seat \d: out of range 0..111; legal ids"):
        e.step(112)
    with pytest.raises(IllegalActionError, match=r"33 is not an action of the coinche game"):
        e.step(np.int64(33))
    e.step(np.int64(b(80, S)))  # numpy ints are action ids
    ext = belote_v0.raw_env(rules="coinche", generale=True)
    ext.reset(seed=1)
    assert ext.num_actions == EXTENDED_NUM_ACTIONS
    with pytest.raises(IllegalActionError, match=r"illegal action 412 by seat \d: out of range 0..411"):
        ext.step(412)
    with pytest.raises(IllegalActionError, match=r"illegal action 118 by seat \d: bid 170 spades is not legal now"):
        ext.step(np.int64(HIGH_BID))
    with pytest.raises(IllegalActionError, match="an action id must be an int"):
        ext.step(True)
    ext.step(GENERALE_BID + H)
    assert ext.game.auction.highest[:2] == (GENERALE, H)

    from belote_env.gym_env import BeloteGymEnv

    g = BeloteGymEnv(rules="coinche", generale=True, illegal_action="raise")
    g.reset(seed=0)
    with pytest.raises(TypeError, match=r"an action id 0..411: an int"):
        g.step(44.0)
    with pytest.raises(ValueError, match=r"an action id 0..411: an int.*shape \(2,\)"):
        g.step(np.array([40, 41]))
    with pytest.raises(IllegalActionError, match="out of range 0..411"):
        g.step(500)
    c = BeloteGymEnv(rules="coinche", illegal_action="raise")
    c.reset(seed=0)
    with pytest.raises(TypeError, match=r"an action id 0..111: an int"):
        c.step("40")


def test_opponent_policy_error_names_the_rules_action_space():
    from belote_env.gym_env import BeloteGymEnv, OpponentPolicyError

    env = BeloteGymEnv(rules="coinche", generale=True, opponents=lambda info: 411, learner_seat=0)
    with pytest.raises(OpponentPolicyError, match=r"\(an int 0..411\)"):
        for seed in range(20):  # the learner (seat 0) is not always first to bid
            env.reset(seed=seed)
            env.step(PASS)


# ============================================================================ 2. §10.2 through GameState
def game(rules=R, seq=(), dealer=3, seed=0) -> GameState:
    g = GameState(rules, seed=seed, dealer=dealer)
    drive(g, seq)
    return g


def legal_of(g: GameState, seat: int) -> tuple[int, ...]:
    return g.information_set(seat).legal_actions


def test_a1_to_a8_through_the_engine():
    # A1
    g = game(seq=[(0, b(80, H)), (1, PASS), (2, PASS), (3, PASS)])
    assert g.contract == Contract(0, H, 80, 1) and g.phase == Phase.PLAY and g.current == 0
    # A2
    g = game(seq=[(s, PASS) for s in (0, 1, 2, 3)])
    assert g.void and g.phase == Phase.DEAL_OVER and g.deal_score is None and g.scores == [0, 0]
    g.next_deal()
    assert g.dealer == 0 and g.current == 1
    # A3
    g = game(seq=[(0, b(80, S)), (1, b(90, H)), (2, b(100, S)), (3, COINCHE)])
    assert g.current == 0 and legal_of(g, 0) == (PASS, SURCOINCHE)
    assert legal_of(g, 1) == ()  # seat 1, the coincher's partner, never speaks
    with pytest.raises(IllegalActionError, match=r"bid 110 spades is not legal now"):
        g.apply(b(110, S))
    drive(g, [(0, PASS), (2, SURCOINCHE)])
    assert g.contract == Contract(2, S, 100, 4) and len(g.actions) == 6
    g = game(coinche(coincher_partner_speaks=True),
             [(0, b(80, S)), (1, b(90, H)), (2, b(100, S)), (3, COINCHE), (0, PASS)])
    assert legal_of(g, 1) == (PASS,)
    drive(g, [(1, PASS), (2, SURCOINCHE)])
    assert g.contract.multiplier == 4
    # A4
    g = game(seq=[(0, b(80, CL))])
    assert COINCHE in legal_of(g, 1)
    drive(g, [(1, PASS)])
    two = legal_of(g, 2)
    assert COINCHE not in two and two == tuple(sorted([PASS] + [b(v, d) for v in list(range(90, 161, 10)) + [CAPOT]
                                                                for d in (S, H, D, CL)]))
    # A5
    g = game(seq=[(0, b(90, D)), (1, b(CAPOT, S))])
    assert legal_of(g, 2) == (PASS, COINCHE)
    drive(g, [(2, PASS), (3, PASS), (0, COINCHE), (1, PASS), (3, PASS)])
    assert g.contract == Contract(1, S, CAPOT, 2)
    g = game(coinche(capot_coinchable=False), [(0, b(90, D)), (1, b(CAPOT, S)), (2, PASS), (3, PASS)])
    assert legal_of(g, 0) == (PASS,)
    # A6
    g = game(seq=[(0, PASS), (1, b(80, H)), (2, PASS), (3, PASS), (0, b(90, S)), (1, PASS), (2, PASS), (3, PASS)])
    assert g.contract == Contract(0, S, 90, 1)
    # A7
    g = game(seq=[(0, b(80, H)), (1, b(90, S))])
    assert COINCHE in legal_of(g, 2)
    drive(g, [(2, COINCHE), (3, PASS), (1, PASS)])
    assert g.contract == Contract(1, S, 90, 2)
    # A8: the default ends after three passes; passes_to_end 4 gives the bidder a turn
    g = game(seq=[(0, b(100, H)), (1, PASS), (2, PASS), (3, PASS)])
    assert g.contract == Contract(0, H, 100, 1)
    g = game(coinche(passes_to_end=4), [(0, b(100, H)), (1, PASS), (2, PASS), (3, PASS)])
    assert g.phase == Phase.BIDDING and legal_of(g, 0) == (PASS,)
    drive(g, [(0, PASS)])
    assert g.contract == Contract(0, H, 100, 1)
    g = game(coinche(passes_to_end=4, self_overbid="change_denomination"),
             [(0, b(100, H)), (1, PASS), (2, PASS), (3, PASS)])
    assert legal_of(g, 0) == tuple(sorted([PASS] + [b(v, d) for v in list(range(110, 161, 10)) + [CAPOT]
                                                     for d in (S, D, CL)]))
    drive(g, [(0, b(110, S)), (1, PASS), (2, PASS), (3, PASS), (0, PASS)])
    assert g.contract == Contract(0, S, 110, 1)


def test_immediate_window_through_the_engine():
    """``coinche_window: immediate``: after each bid the bidder's opponents are asked in
    play order {no coinche (pass), coinche}, then the normal next turn."""
    r = coinche(coinche_window="immediate")
    g = game(r, [(0, b(80, S))])
    assert g.current == 1 and legal_of(g, 1) == (PASS, COINCHE) and g.auction.in_window
    drive(g, [(1, PASS)])
    assert g.current == 3 and legal_of(g, 3) == (PASS, COINCHE)
    drive(g, [(3, PASS)])
    assert g.current == 1 and not g.auction.in_window and COINCHE not in legal_of(g, 1)
    drive(g, [(1, PASS), (2, PASS), (3, PASS)])  # the window's passes do not count towards the end
    assert g.contract == Contract(0, S, 80, 1)
    g = game(r, [(0, b(80, S)), (1, PASS), (3, COINCHE)])  # the second opponent coinches
    assert g.current == 0 and legal_of(g, 0) == (PASS, SURCOINCHE)
    drive(g, [(0, PASS), (2, PASS)])
    assert g.contract == Contract(0, S, 80, 2)
    g = game(r, [(0, b(80, S)), (1, COINCHE)])  # the first: the coinched team answers from seat 2
    assert g.current == 2
    drive(g, [(2, SURCOINCHE)])
    assert g.contract == Contract(0, S, 80, 4)


# ---------------------------------------------------------------------------- §10.3 P1 / P2
P1_HANDS = hands("10H KH QH JS QS AS KD AD",   # seat 0
                 "AC 10C KC QC JC 9C 8C 7C",   # seat 1: leads A♣
                 "8H 9H JH AH 7S 8S 9S 10S",   # seat 2: void in clubs, trumps 8♥
                 "7H 10D KS 7D 8D 9D JD QD")   # seat 3: void in clubs, one low trump


@pytest.mark.parametrize("undertrump", ["required", "discard_allowed"])
def test_p1_undertrump_through_the_engine(undertrump):
    r = coinche(undertrump=undertrump)
    # dealer 0: eldest 1 leads the first trick; 100♥ by seat 2 (team A)
    for seat3, want in ((P1_HANDS[3], "7H" if undertrump == "required" else None),
                        ([parse_card(c) for c in "QH 7H 10D 7D 8D 9D JD KS".split()], "QH")):
        hs = [list(h) for h in P1_HANDS]
        hs[3] = seat3
        if want == "QH":  # Q♥ went to seat 3: seat 0 takes its Q♦ instead
            hs[0] = [parse_card(c) for c in "10H KH QD JS QS AS KD AD".split()]
        g = GameState.from_hands(hs, rules=r, dealer=0)
        drive(g, [(1, PASS), (2, b(100, H)), (3, PASS), (0, PASS), (1, PASS)])
        assert g.contract == Contract(2, H, 100, 1) and g.current == 1
        drive(g, [(1, parse_card("AC")), (2, parse_card("8H"))])
        legal = set(legal_of(g, 3))
        assert legal == ({parse_card(want)} if want else set(hs[3])), (undertrump, want)


@pytest.mark.parametrize("overtrump_partner", ["free", "must_overtrump"])
def test_p2_partner_winning_with_a_trump_through_the_engine(overtrump_partner):
    hs = hands("10D AS 10S KS QS 10C JC QC",
               "9S 7S QH KH AH 7C 8C 9C",
               "7D 8D 9D JD QD KD AD KC",
               "8S JS AC 7H 8H 9H 10H JH")
    g = GameState.from_hands(hs, rules=coinche(overtrump_partner=overtrump_partner), dealer=3)
    drive(g, [(0, b(80, S)), (1, PASS), (2, PASS), (3, PASS)])
    drive(g, [(0, parse_card("10D")), (1, parse_card("9S")), (2, parse_card("7D"))])
    legal = set(legal_of(g, 3))
    assert legal == set(hs[3]) - ({parse_card("8S")} if overtrump_partner == "must_overtrump" else set())


# ---------------------------------------------------------------------------- capot, générale
ALL_HEARTS = hands("JH 9H AH 10H KH QH 8H 7H", "7S 8S 9S 10S JS QS KS AS",
                   "7D 8D 9D 10D JD QD KD AD", "7C 8C 9C 10C JC QC KC AC")


def test_capot_bid_made_and_failed_in_whole_deals():
    r = coinche(target=None)
    g = GameState.from_hands(ALL_HEARTS, rules=r, dealer=3)
    drive(g, [(0, b(CAPOT, H)), (1, PASS), (2, PASS), (3, PASS)])
    play_out(g)
    s = g.deal_score
    assert s.outcome == "made" and s.capot == 0 and s.points == (252 + 250 + 20, 0)  # S14 + belote
    # coinched: 252 + 250*2 + 20
    g = GameState.from_hands(ALL_HEARTS, rules=r, dealer=3)
    drive(g, [(0, b(CAPOT, H)), (1, COINCHE), (2, PASS), (0, PASS)])  # the coinched team: seats 2 then 0
    play_out(g)
    assert g.deal_score.points == (772, 0)
    # one trick lost: the defence's J♥ wins a trump trick (S16: the takers keep their belote)
    lost = hands("9H AH 10H KH QH 8H 7H AS", "JH 7S 8S 9S 10S JS QS KS",
                 "7D 8D 9D 10D JD QD KD AD", "7C 8C 9C 10C JC QC KC AC")
    for prenable, want in ((False, (20, 412)), (True, (0, 432))):
        g = GameState.from_hands(lost, rules=r.replace(belote_prenable=prenable), dealer=3)
        drive(g, [(0, b(CAPOT, H)), (1, PASS), (2, PASS), (3, PASS)])
        play_out(g)
        s = g.deal_score
        assert s.outcome == "dedans" and s.capot is None and s.points == want, prenable


def test_generale_made_and_failed_when_the_partner_wins_a_trick():
    r = coinche(target=None, generale=True)
    g = GameState.from_hands(ALL_HEARTS, rules=r, dealer=3)
    drive(g, [(0, b(GENERALE, H)), (1, PASS), (2, PASS), (3, PASS)])
    play_out(g)
    assert g.deal_score.outcome == "made" and g.deal_score.points == (252 + 500 + 20, 0)
    # team capot, but the partner's A♠ wins the last trick: the générale fails (0 / 662,
    # the bidder's team keeps its imprenable belote)
    hs = hands("JH 9H AH 10H KH QH 8H 7S", "8S 9S 10S JS QS KS KD AD",
               "7H AS 7D 8D 9D 10D JD QD", "7C 8C 9C 10C JC QC KC AC")
    g = GameState.from_hands(hs, rules=r, dealer=3)
    drive(g, [(0, b(GENERALE, H)), (1, PASS), (2, PASS), (3, PASS)])

    def choose(g, legal):
        if g.current == 2:  # keep A♠ for the last trick
            return next((a for a in legal if a != parse_card("AS")), legal[0])
        return legal[-1] if g.current == 0 else legal[0]  # seat 0: hearts first (ids 8..15 > 7♠)

    play_out(g, choose)
    s = g.deal_score
    assert g.tricks_won == [8, 0] and g.tricks[-1][2] == 2
    assert s.outcome == "dedans" and s.points == (20, 662)


# ---------------------------------------------------------------------------- declarations, belote
DECL_HANDS = hands("7S 8S 9S 10S AH KD 7C 9D",   # seat 0: a cinquante (50)
                   "7H 8H 9H JS AS 8D 8C 9C",    # seat 1: a tierce (20)
                   "10H QS KH 7D 10D AD 10C KC",
                   "KS JH QH JD QD JC QC AC")


@pytest.mark.parametrize("coinched", [False, True])
def test_declarations_counted_and_transferred_in_whole_deals(coinched):
    """§6.8b / §10.5 through the engine: only team A's 50 counts (the best declaration);
    it helps make the contract, goes to the defence on a failure, and is not multiplied
    (``contract_only``)."""
    r = coinche(target=None, declarations="auto")
    outcomes = set()
    for seed in range(12):
        g = GameState.from_hands(DECL_HANDS, rules=r, dealer=3)
        seq = [(0, b(100, H)), (1, COINCHE), (2, PASS), (0, PASS)] if coinched else \
            [(0, b(100, H)), (1, PASS), (2, PASS), (3, PASS)]
        drive(g, seq)
        rng = random.Random(seed)
        play_out(g, lambda g, legal: legal[rng.randrange(len(legal))])
        s = g.deal_score
        assert s.declarations == (50, 0) and s.belote == (0, 0)
        tp = s.trick_points
        made = tp[0] + 50 >= 100
        assert s.outcome == ("made" if made else "dedans")
        if made:
            base = 252 if s.capot == 0 else 162
            assert s.points == ((base + 200 + 50, 0) if coinched else (tp[0] + 50 + 100, tp[1]))
        else:
            base = 252 if s.capot == 1 else 162
            assert s.points == (0, base + 100 * (2 if coinched else 1) + 50)
        outcomes.add(s.outcome)
    assert outcomes == {"made", "dedans"}


# ============================================================================ end of game, resumed games
def test_round_last_deal_end_is_decided_on_exact_points():
    """Regression: with ``round_last_deal`` False, a deal whose exact points do not end the
    game was rounded and then ended it (1772 + 226 = 1998 exact, 1772 + 230 = 2002
    rounded): the game now goes on. And an exact tie over the target is not broken by the
    rounded points."""
    r = load_rules("coinche_ffb_equipe_ludique")  # six_up, round_last_deal False, target 2000
    c = Contract(0, CL, 110)
    s, over, winner = score_coinche_game_deal(c, (106, 46), (5, 3), 0, (0, 0), (0, 0), r, (1772, 1500), 4)
    assert s.points == (230, 50) and (over, winner) == (False, None)  # was (True, 0)
    s, over, winner = score_coinche_game_deal(c, (106, 46), (5, 3), 0, (0, 0), (0, 0), r, (1774, 1500), 4)
    assert s.points == (226, 46) and (over, winner) == (True, 0)  # 2000 exact: ends, counted exactly
    # an exact tie 2000 - 2000 plays on (its rounded 2004 - 2000 would have ended it)
    s, over, _ = score_coinche_game_deal(c, (106, 46), (5, 3), 0, (0, 0), (0, 0), r, (1774, 1954), 4)
    assert not over and s.points == (230, 50)
    # round_last_deal True: every deal rounded, the rounded totals decide
    s, over, winner = score_coinche_game_deal(c, (106, 46), (5, 3), 0, (0, 0), (0, 0),
                                              r.replace(round_last_deal=True), (1772, 1500), 4)
    assert s.points == (230, 50) and (over, winner) == (True, 0)


@pytest.mark.parametrize("round_last", [False, True])
def test_a_deal_on_its_own_is_rounded_as_an_ordinary_deal_and_a_one_deal_game_as_its_last(round_last):
    """RULES.md §8, COINCHE.md §6.10: ``target: null`` (and the single-deal mode) plays a deal
    of a game, rounded whatever ``round_last_deal`` says; ``max_deals: 1`` is a game of one
    deal, whose deal is its last: exact unless ``round_last_deal``."""
    c = Contract(0, 1, 110)
    r = load_rules("coinche", rounding="half_up", round_last_deal=round_last)
    one_deal = lambda rules, **kw: score_coinche_game_deal(  # noqa: E731
        c, (107, 45), (6, 2), 0, (0, 0), (0, 0), rules, (0, 0), 0, **kw)[0].points
    assert one_deal(r.replace(target=None)) == (230, 50)
    assert one_deal(r, single_deal=True) == (230, 50)
    assert one_deal(r.replace(max_deals=1)) == ((230, 50) if round_last else (227, 45))


@pytest.mark.parametrize("preset", ["coinche_ffb_equipe_ludique", "coinche_cannes_2016", "coinche_ffb_contree_2016"])
def test_whole_games_round_every_deal_but_an_exact_last_one(preset):
    r = load_rules(preset).replace(target=800, max_deals=None)
    for seed in range(4):
        g = GameState(r, seed=seed)
        rng = random.Random(seed)
        while not g.is_game_over:
            if g.is_deal_over:
                g.next_deal()
                continue
            before = tuple(g.scores)
            legal = g.legal_actions()
            bids = [a for a in legal if a not in (PASS, COINCHE, SURCOINCHE)]
            a = rng.choice(bids) if g.phase == Phase.BIDDING and bids and rng.random() < 0.5 else rng.choice(legal)
            g.apply(a)
            if g.is_deal_over and not g.void:
                exact = score_coinche_deal(g.contract, tuple(g.card_points), tuple(g.tricks_won),
                                           TEAM_OF[g.tricks[-1][2]], g.deal_score.belote, g.deal_score.declarations,
                                           r, bidder_won_all=all(t[2] == g.taker for t in g.tricks),
                                           reserve_in=g.deal_score.reserve_in, rounded=False)
                ends = coinche_game_end((before[0] + exact.points[0], before[1] + exact.points[1]), r,
                                        g.deal_number, exact)[0]
                if r.round_last_deal or r.rounding == "none":
                    assert all(p % 10 == 0 for p in g.deal_score.points) or r.rounding == "none"
                else:
                    assert g.is_game_over == ends
                    if ends:
                        assert g.deal_score == exact
                    else:
                        assert all(p % 10 == 0 for p in g.deal_score.points)
        assert g.winner is not None and g.scores[g.winner] > g.scores[1 - g.winner]
        assert [sum(d.points[t] for d in g.deal_scores) for t in (0, 1)] == g.scores


def test_resumed_games_follow_the_coinche_end_rules():
    # regression: under target_rule "exceed" a team on exactly the target has not won
    # (§10.6: "A ends on exactly 2000: exceed -> another deal"); resuming there was refused
    exceed = coinche(target_rule="exceed")
    g = GameState(exceed, scores=(2000, 1500))
    assert g.scores == [2000, 1500]
    with pytest.raises(ValueError, match=r"already exceed the target 2000: that game is over \(COINCHE.md"):
        GameState(exceed, scores=(2001, 1500))
    with pytest.raises(ValueError, match="already reach the target 2000"):
        GameState(R, scores=(2000, 1500))
    # a game may go on past the target under no_win_on_belote_alone or an exact last deal
    GameState(coinche(no_win_on_belote_alone=True), scores=(2010, 1500))
    GameState(load_rules("coinche_ffb_equipe_ludique"), scores=(2002, 1550))
    # regression: a coinche litige reserve (tie_with_defence "litige") could not be resumed
    # ("reserve must be 0 under tie=None")
    lit = coinche(contract_condition="reach_bid_and_beat_defence", tie_with_defence="litige")
    assert GameState(lit, scores=(100, 200), reserve=81).reserve == 81
    with pytest.raises(ValueError, match=r"reserve must be 0 under contract_condition='reach_bid'.*"
                                         r"tie_with_defence='litige' \(COINCHE.md §6.9\), got 81"):
        GameState(R, reserve=81)
    # through a record's start
    rec = game_record(GameState(lit, seed=1, scores=(100, 200), reserve=81))
    assert replay(rec).reserve == 81


@pytest.mark.parametrize("target_rule", ["reach", "exceed"])
def test_both_teams_over_the_target_and_exceed_in_whole_games(target_rule):
    r = coinche(target=2000, target_rule=target_rule)
    both = 0
    for seed in range(40):
        g = GameState(r, seed=seed, scores=(1995, 1990))
        rng = random.Random(seed)
        while not g.is_game_over:
            if g.is_deal_over:
                g.next_deal()
                continue
            if g.phase == Phase.BIDDING:  # 80♠ by the first seat to speak, then passes
                g.apply(b(80, S) if g.auction.highest is None else PASS)
            else:
                legal = g.legal_actions()
                g.apply(legal[rng.randrange(len(legal))])
            if g.is_deal_over and not g.void:
                a, c = g.scores
                meets = (lambda t: t > 2000) if target_rule == "exceed" else (lambda t: t >= 2000)
                if a == c or not (meets(a) or meets(c)):
                    assert not g.is_game_over
                else:
                    assert g.is_game_over and g.winner == int(c > a)
                both += meets(a) and meets(c)
    assert both > 5


@pytest.mark.parametrize("redeal", ["next_dealer", "same_dealer"])
def test_void_deals_in_whole_games(redeal):
    """All-pass deals score nothing and are redealt per ``all_pass_redeal``; a record of
    the game replays (it checks the dealers)."""
    r = coinche(target=600, all_pass_redeal=redeal)
    g = GameState(r, seed=3, dealer=2)
    rng = random.Random(3)
    while not g.is_game_over:
        if g.is_deal_over:
            g.next_deal()
            continue
        legal = g.legal_actions()
        g.apply(PASS if g.phase == Phase.BIDDING and rng.random() < 0.93 else rng.choice(legal))
    log = g.deal_log
    voids = [len(d["actions"]) == 4 and all(a == PASS for _, a in d["actions"]) for d in log]
    assert sum(voids) >= 3
    for prev, nxt, void in zip(log, log[1:], voids):
        step = 0 if void and redeal == "same_dealer" else 1
        assert nxt["dealer"] == (prev["dealer"] + step) % 4
    assert len(g.deal_scores) == len(log) - sum(voids) and g.deal_number == len(g.deal_scores)
    assert replay(json.loads(json.dumps(game_record(g)))).scores == g.scores


# ============================================================================ 3. the information rule
def _mix(rng: random.Random) -> Rules:
    opts = {}
    for name, values in OPTION_CHOICES.items():
        if (name in ("contract_mode", "self_overbid", "passes_to_end") or name in CLASSIC_ONLY
                or name in CUTTHROAT_ONLY):
            continue
        if rng.random() < 0.35:
            opts[name] = rng.choice(values)
    if rng.random() < 0.5:
        opts["belote"] = "optional"
    if rng.random() < 0.6:
        opts["declarations"] = rng.choice(["auto", "choice"])
    if rng.random() < 0.5:
        opts["coinche_denominations"] = "suits_sa_ta"
    if rng.random() < 0.2:
        opts.update(passes_to_end=4, self_overbid=rng.choice(["forbidden", "change_denomination"]))
    if rng.random() < 0.2:
        opts["max_numeric_bid"] = rng.choice([170, 250, 650])
    return coinche(**defined_mix(opts))


def _error(g: GameState, action) -> str | None:
    try:
        g.apply(action)
    except IllegalActionError as e:
        return str(e)
    return None


@pytest.mark.parametrize("seed", range(3))
def test_information_rule_under_random_option_mixes(seed):
    """At every decision of random games under random option mixes (declarations,
    optional belote, SA/TA, extended ids...), for every seat: a state whose other hands
    are resampled (``sample_hidden_hands``) gives that seat the same ``InfoSet``, both
    observations, render texts and illegal-action messages; ``possible_holdings`` never
    excludes a card a seat really holds and ``known`` cards are really held; the engine's
    public knowledge equals the one derived from the history (RULES.md §11)."""
    rng = random.Random(100 + seed)
    checks = 0
    for _ in range(6):
        rules = _mix(rng)
        g = GameState(rules, seed=rng.randrange(1 << 30), dealer=rng.randrange(4))
        n_actions = num_actions(rules)
        while not g.is_game_over and g.deal_number < 2:
            if g.is_deal_over:
                g.next_deal()
                continue
            for v in SEATS:
                info = g.information_set(v)
                holdings = possible_holdings(info)
                pc = public_constraints(info)
                assert pc == public_constraints(dataclasses.replace(info, public_knowledge=None))
                for s in SEATS:
                    if s != v:
                        assert g.hands[s] & ~holdings[s] == 0, (rules, v, s)
                        assert pc.known[s] & ~g.hands[s] == 0
                deal = sample_hidden_hands(info, rng)
                alt = g.clone()
                for s in SEATS:
                    if s != v:
                        alt.hands[s] = deal.hands[s]
                alt._legal = None
                other = alt.information_set(v)
                assert other == info
                assert np.array_equal(encode_infoset(info), encode_infoset(other))
                assert np.array_equal(encode_history(info), encode_history(other))
                assert render_text(info) == render_text(other) and render_play_text(info) == render_play_text(other)
                if v == g.current:
                    bad = [a for a in range(n_actions) if a not in info.legal_actions]
                    for a in rng.sample(bad, min(5, len(bad))) + [-1, n_actions, 10 ** 6, "x"]:
                        assert _error(g.clone(), a) == _error(alt.clone(), a)
                checks += 1
            legal = g.legal_actions()
            bids = [a for a in legal if a != PASS]
            if g.phase == Phase.BIDDING:
                a = rng.choice(bids) if bids and rng.random() < 0.35 else PASS if PASS in legal else legal[0]
            else:
                a = rng.choice(legal)
            g.apply(a)
    assert checks > 500


def test_env_infos_and_masks_ignore_hidden_cards_with_optional_belote_and_declarations():
    rules = coinche(belote="optional", declarations="choice", coinche_denominations="suits_sa_ta")
    envs = {m: belote_v0.raw_env(rules=rules, obs_mode=m) for m in ("infoset", "history")}
    rng = random.Random(5)
    for _ in range(8):
        seed = rng.randrange(1 << 30)
        for e in envs.values():
            e.reset(seed=seed)
        while not envs["infoset"].game.is_deal_over:
            g = envs["infoset"].game
            agent = envs["infoset"].agent_selection
            seat = g.current
            deal = sample_hidden_hands(g.information_set(seat), rng)
            alt = g.clone()
            for s in SEATS:
                if s != seat:
                    alt.hands[s] = deal.hands[s]
            alt._legal = None
            for e in envs.values():
                real = e.game
                base = e.observe(agent)
                e.game = alt
                other = e.observe(agent)
                e.game = real
                assert np.array_equal(base["observation"], other["observation"])
                assert np.array_equal(base["action_mask"], other["action_mask"])
            legal = g.legal_actions()
            a = rng.choice([x for x in legal if x != PASS] or legal) if rng.random() < 0.3 else legal[0]
            for e in envs.values():
                e.step(a)
            assert envs["infoset"].infos == envs["history"].infos


# ============================================================================ 4. determinism
_DETERMINISM = r"""
import hashlib, random
from belote_env import belote_v0
from belote_env.game import GameState
from belote_env.config import load_rules
from policies.easy import EasyPolicy
from policies.normal import NormalPolicy
h = hashlib.sha256()
for preset in ("coinche", "coinche_pagat", "coinche_bga", "coinche_ffb_coinche_2015"):
    rules = load_rules(preset, target=600)
    g = GameState(rules, seed=1234)
    pols = [NormalPolicy(), EasyPolicy(), NormalPolicy(), EasyPolicy()]
    while not g.is_game_over and g.deal_number < 6:
        if g.is_deal_over:
            g.next_deal()
            continue
        g.apply(pols[g.current].act(g.information_set(g.current)))
    h.update(repr((g.deal_log, g.scores, g.winner, g.deal_scores)).encode())
    e = belote_v0.raw_env(rules=preset, obs_mode="history" if preset == "coinche_pagat" else "infoset")
    e.reset(seed=7)
    rng = random.Random(3)
    for agent in e.agent_iter():
        obs, r, term, trunc, info = e.last()
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        e.step(None if term or trunc else legal[rng.randrange(len(legal))])
        h.update(obs["observation"].tobytes() + repr((r, info)).encode())
print(h.hexdigest())
"""


def test_same_seed_same_coinche_game_in_two_processes():
    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", _DETERMINISM], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        outs.append(out.stdout.strip())
    assert outs[0] == outs[1] and len(outs[0]) == 64


# ============================================================================ 5. the observation
def _longest_default_auction() -> list[tuple[int, int]]:
    """36 decisions (auction.length_bound): three passes, then a bid every third decision
    up to capot, two passes, a coinche and the coinched team's two passes. Seat 3's only
    bid is the first one (80♦), outside the 32-event window at the end."""
    seq, seat = [(0, PASS), (1, PASS), (2, PASS)], 3
    for i, level in enumerate(list(range(80, 161, 10)) + [CAPOT]):
        d = D if i == 0 else S if seat != 3 else H
        seq.append((seat, b(level, d)))
        seq += [((seat + 1) % 4, PASS), ((seat + 2) % 4, PASS)]
        seat = (seat + 3) % 4
    c = (seq[-3][0] + 3) % 4  # after the capot bid and two passes, an opponent of its bidder
    seq.append((c, COINCHE))
    seq += [((c + 1) % 4, PASS), ((c + 3) % 4, PASS)]
    return seq


def test_long_auctions_keep_the_last_32_events_in_order():
    seq = _longest_default_auction()
    assert len(seq) == 36 == length_bound(R)
    g = GameState(R, seed=4, dealer=3)
    drive(g, seq)
    assert g.contract.level == CAPOT and g.contract.multiplier == 2
    for me in SEATS:
        obs = encode_infoset(g.information_set(me))
        first = len(seq) - AUCTION_SLOTS
        for slot, (seat, a) in enumerate(seq[first:]):
            base = _C_OFFSET["auction_seq"] + slot * _SLOT
            row = obs[base:base + _SLOT]
            r = (seat - me) % 4
            kind = 2 if a == COINCHE else 3 if a == SURCOINCHE else 0 if a == PASS else 1
            want = np.zeros(_SLOT, dtype=np.float32)
            want[r] = want[4 + kind] = 1
            if kind == 1:
                level = CAPOT if a >= b(CAPOT, S) else 80 + 10 * ((a - 40) // 6)
                want[8] = level_value(level)
                want[_SLOT_DENOM + (a - 40) % 6] = 1
            assert np.array_equal(row, want), (me, slot, seat, a)
        # the blocks summarising the whole auction still see the events before the window
        best = obs[_C_OFFSET["auction_best"]:_C_OFFSET["auction_best"] + 24].reshape(4, 6)
        assert best[(3 - me) % 4, D] == pytest.approx(80 / 160)
        assert obs[_C_OFFSET["auction_len"]] == pytest.approx(36 / 36)
        assert obs[_C_OFFSET["coinche"] + 1] == 1
    hist = encode_history(g.information_set(0))
    assert [tuple(x) for x in hist[9:9 + 36]] == [((s - 0) % 4, a) for s, a in seq]


def test_history_mode_fits_the_longest_legal_auction():
    """Regression: under rules with long auctions (bids to 650, ranked denominations,
    SA/TA) a legal auction passed the 256 auction rows of ``obs_mode="history"`` and
    ``observe`` raised ValueError mid-episode; the shape now fits ``length_bound``."""
    rules = coinche(max_numeric_bid=650, denomination_order="ranked", coinche_denominations="suits_sa_ta")
    assert history_shape(R) == COINCHE_HISTORY_SHAPE
    assert history_shape(rules)[0] == 8 + 1 + length_bound(rules) + 44 > COINCHE_HISTORY_SHAPE[0]
    env = belote_v0.raw_env(rules=rules, obs_mode="history")
    env.reset(seed=0)
    space = env.observation_space("player_0")["observation"]
    strength = env.game.auction._bids.info
    while env.game.phase == Phase.BIDDING:
        a_ = env.game.auction
        bids = [a for a in a_.legal_bids() if a in strength]
        if bids and (a_.highest is None or a_.passes >= 2):
            act = min(bids, key=lambda x: strength[x][2])  # the lowest overcall after two passes
        else:
            act = PASS
        env.step(act)
        obs = env.observe(env.agent_selection)["observation"]
        assert space.contains(obs)
    assert len(env.game.auction.history) > 1000
    rows = obs[9:9 + len(env.game.auction.history)]
    assert [int(x) for x in rows[:, 1]] == [a for _, a in env.game.auction.history]


def _rename_action(a: int, perm) -> int:
    if a < 32:
        return perm[a >> 3] * 8 + (a & 7)
    if 40 <= a < 100 or GENERALE_BID <= a < EXTENDED_NUM_ACTIONS:
        base = 40 if a < 100 else GENERALE_BID
        d = (a - base) % 6
        return a - d + (perm[d] if d < 4 else d)
    return a


@pytest.mark.parametrize("kw", [dict(coinche_denominations="suits_sa_ta", declarations="auto"),
                                dict(coinche_denominations="suits_sa_ta", generale=True, max_numeric_bid=250,
                                     belote="optional")])
def test_suit_permutation_renames_only_the_suits_under_sa_ta(kw):
    """``suit_permutation_index(perm, COINCHE_OBS_SIZE)`` maps the observation of a deal to
    that of the deal with its suits renamed: suit bids are renamed, no-trump and
    all-trump (and the extended ids' SA/TA) stay."""
    rules = coinche(**kw)
    rng = random.Random(11)
    for perm in ((2, 0, 3, 1), (1, 0, 2, 3), (3, 2, 1, 0)):
        obs_index, _ = suit_permutation_index(perm, COINCHE_OBS_SIZE)
        for trial in range(4):
            deck = list(range(32))
            rng.shuffle(deck)
            a = GameState(rules, dealer=3, deck=deck)
            bg = GameState(rules, dealer=3, deck=[perm[c >> 3] * 8 + (c & 7) for c in deck])
            opened = False
            while not a.is_deal_over:
                for seat in SEATS:
                    oa = encode_infoset(a.information_set(seat))
                    ob = encode_infoset(bg.information_set(seat))
                    assert np.array_equal(oa[obs_index], ob), (perm, seat)
                legal = a.legal_actions()
                if a.phase == Phase.BIDDING and not opened:  # an SA or TA contract in some trials
                    x = b(80, (NT, AT, S, H)[trial])
                    opened = True
                else:
                    x = legal[rng.randrange(len(legal))] if a.phase != Phase.BIDDING or rng.random() < 0.3 else PASS
                a.apply(x)
                bg.apply(_rename_action(x, perm))
            assert a.deal_score.points == bg.deal_score.points


# ============================================================================ tiers and text
def test_normal_tier_raises_its_partner_above_160():
    """Regression: the normal tier looked for its denominations among the bids 80..160 and
    capot only, so above 160 without a capot bid (``max_numeric_bid`` > 160,
    ``capot_bid`` False) it could never bid again."""
    from policies.normal import NormalPolicy

    r = coinche(max_numeric_bid=650, capot_bid=False)
    hs = hands("JS 9S AS AH 10H AD 10D AC", "7H 8H 9H JH QH KH 7D 8D",
               "KS QS 10S 8S 7S 9D JD QD", "7C 8C 9C 10C JC QC KC KD")
    g = GameState.from_hands(hs, rules=r, dealer=1)  # eldest 2
    drive(g, [(2, b(170, S)), (3, PASS)])
    a = NormalPolicy().act(g.information_set(0))
    assert a != PASS and a >= HIGH_BID and (a - HIGH_BID) % 6 == S


def test_render_names_the_rules_auction():
    assert coinche_bids_text(R) == "bids 80..160 or capot, coinche, surcoinche"
    assert coinche_bids_text(coinche(max_numeric_bid=250, generale=True, coinche_denominations="suits_sa_ta",
                                      surcoinche_allowed=False)) == (
        "bids 80..250 or capot or générale (suits, no-trump, all-trump), coinche")
    bga = "bids 80..170 (suits, no-trump, all-trump), coinche, surcoinche"  # BGA-code: 170, no capot bid
    assert coinche_bids_text(load_rules("coinche_bga")) == bga
    g = GameState(coinche(max_numeric_bid=200), seed=0)
    assert "Auction (coinche): bids 80..200 or capot, coinche, surcoinche" in render_play_text(g.information_set(0))


@pytest.mark.parametrize("flag", [False, True])
def test_no_win_on_belote_alone_in_a_whole_game(flag):
    """§6.11: team A (1990) fails its capot and scores only its imprenable belote (2010);
    under ``no_win_on_belote_alone`` it does not win on that deal and the game goes on
    (with a team past the target, which a resumed game accepts)."""
    r = coinche(no_win_on_belote_alone=flag)
    lost = hands("9H AH 10H KH QH 8H 7H AS", "JH 7S 8S 9S 10S JS QS KS",
                 "7D 8D 9D 10D JD QD KD AD", "7C 8C 9C 10C JC QC KC AC")
    g = GameState.from_hands(lost, rules=r, dealer=3, scores=(1990, 1500), seed=1)
    drive(g, [(0, b(CAPOT, H)), (1, PASS), (2, PASS), (3, PASS)])
    play_out(g)
    assert g.deal_score.points == (20, 412) and g.scores == [2010, 1912]
    if not flag:
        assert g.is_game_over and g.winner == 0
        return
    assert not g.is_game_over and g.phase == Phase.DEAL_OVER
    resumed = GameState(r, scores=tuple(g.scores), deal_number=g.deal_number)  # a game that goes on
    g.next_deal()
    rng = random.Random(0)
    play_out(g, lambda g, legal: legal[rng.randrange(len(legal))])
    if not g.void:
        a, c = g.scores
        assert g.is_game_over == (a != c and max(a, c) >= 2000) and (not g.is_game_over or g.winner == int(c > a))
    assert resumed.scores == [2010, 1912]
