"""Coinche through the evaluation tools: duplicate matches of whole games to 2000 (the
coinche target, COINCHE.md §6.11), the ladder, game records and replay (records.py), and
``belote play`` in the terminal."""

import io
import json
import random

import pytest

from belote_env import GameState, load_rules
from belote_env.actions import COINCHE, PASS, coinche_bid_action
from belote_env.contract import Contract
from belote_env.scoring import score_coinche_deal
from belote_env.records import RecordError, game_record, read_record, replay, replay_text, save_game
from policies import make_policy
from training.evaluate import duplicate_match
from training.ladder import run_ladder


def _random_game(rules, seed, max_deals=40):
    st = GameState(rules, seed=seed, dealer=seed % 4)
    rng = random.Random(seed)
    deals = 0
    while not st.is_game_over and deals < max_deals:
        while not st.is_deal_over:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        deals += 1
        if not st.is_game_over and deals < max_deals:
            st.next_deal()
    return st


@pytest.mark.parametrize("preset", ["coinche", "coinche_bga", "coinche_pagat", "coinche_ffb_contree_2016"])
def test_records_replay_coinche_games(preset):
    for seed in range(3):
        st = _random_game(load_rules(preset, target=800), seed)
        rec = json.loads(json.dumps(game_record(st)))
        again = replay(rec)
        assert again.scores == st.scores and again.winner == st.winner
        assert [d.points for d in again.deal_scores] == [d.points for d in st.deal_scores]
        text = "\n".join(replay_text(rec))
        assert "hands dealt (8 cards)" in text and "turned card" not in text


def test_coinche_record_with_explicit_hands_and_bad_ids(tmp_path):
    rules = load_rules("coinche", target=None)
    st = GameState(rules, seed=2, dealer=3)
    for a in (coinche_bid_action(80, 1), PASS, PASS, PASS):
        st.apply(a)
    rec = game_record(st)
    deal = rec["deals"][0]
    hands = [[c for c in range(32) if st.hands[s] >> c & 1] for s in range(4)]
    rec2 = dict(rec, deals=[{"dealer": deal["dealer"], "hands": hands, "actions": deal["actions"]}])
    # the mask-ordered packets deal the same hands
    assert replay(rec2).hands == replay(rec).hands
    bad = dict(rec2, deals=[dict(rec2["deals"][0], turned="JS")])
    with pytest.raises(RecordError, match="no 'turned' card or 'stock'"):
        replay(bad)
    big = dict(rec, deals=[dict(deal, actions=[[0, 112]])])
    with pytest.raises(RecordError, match=r"action id 0\.\.111"):
        replay(big)
    path = save_game(st, tmp_path / "c.json")
    assert replay(read_record(path)).contract == st.contract


def test_duplicate_match_in_games_to_2000():
    rules = load_rules("coinche")
    assert rules.target == 2000
    r = duplicate_match("normal", "easy", 3, seed=4, rules=rules, mode="game")
    assert r.mode == "game" and r.pairs == 3 and r.deals >= 6 * 5  # a game to 2000 takes several deals
    assert 0.0 <= r.game_win_rate <= 1.0


class _AlwaysCoinche:
    """Coinches every contract it can, else passes, else plays its first legal card."""

    name = "always_coinche"

    def act(self, info):
        legal = info.legal_actions
        return COINCHE if COINCHE in legal else PASS if PASS in legal else legal[0]


def test_coinche_match_counts_each_sides_coinches_and_surcoinches():
    """``DealScore.coinched`` is the contract's coinche (0, 1, 2 surcoinched); a match
    counts per taking side its contracts coinched and surcoinched and those made, the same
    batched and not: a side that coinches every contract it can has coinched every one of
    the other side's contracts, and took none itself."""
    rules = load_rules("coinche")
    for mult, level in ((1, 0), (2, 1), (4, 2)):
        d = score_coinche_deal(Contract(0, 0, 80, mult), (100, 52), (5, 3), 0, rules=rules)
        assert d.coinched == level
    results = [duplicate_match(_AlwaysCoinche(), "normal", 30, seed=9, rules=rules, batched=batched)
               for batched in (False, True)]
    keys = [f"{x}_{k}" for x in "ab" for k in ("taken", "made", "coinched", "coinched_made", "surcoinched",
                                                 "surcoinched_made")]
    got = [{k: getattr(r, k) for k in keys} for r in results]
    assert got[0] == got[1]
    g = got[0]
    assert g["a_taken"] == 0 and g["b_taken"] == 60 and g["b_coinched"] + g["b_surcoinched"] == 60
    assert g["b_coinched"] > 0 and g["b_coinched_made"] <= g["b_coinched"] and g["b_surcoinched_made"] <= g["b_surcoinched"]
    assert "always_coinche coinched 60/60 (100.0%) of normal's contracts" in results[0].summary()


def test_ladder_in_coinche():
    res = run_ladder(["random", "easy", "normal"], 6, seed=1, rules=load_rules("coinche"), mode="deal",
                     bootstrap=20)
    assert res.names == ["random", "easy", "normal"] and len(res.matches) == 3
    assert res.ratings[0] == pytest.approx(1000) and res.ratings[2] > res.ratings[0]


def test_play_coinche_in_the_terminal():
    from training.play import HumanPolicy, play_game_interactive

    out = io.StringIO()
    answers = iter(["2"] + ["1"] * 400)  # the first choice after pass: the lowest bid
    human = HumanPolicy(input_fn=lambda prompt="": next(answers), output=out)
    pols = [human] + [make_policy("normal", seed=s) for s in (1, 2, 3)]
    st = play_game_interactive(pols, load_rules("coinche", target=None), seed=3, human_seat=0, output=out)
    text = out.getvalue()
    assert "Auction (coinche)" in text and "Contract:" in text
    assert st.is_game_over
