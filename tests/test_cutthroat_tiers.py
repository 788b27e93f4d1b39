"""The rule-based tiers and duplicate evaluation at two and three seats (TWO_THREE.md):
``policies.cutthroat_play``, ``training.evaluate.SET_SEATINGS``."""

from __future__ import annotations

import io
from collections import Counter

import pytest

from belote_env.actions import (
    AGREE_REDEAL, ANNOUNCE_BELOTE, ANSWER_ENOUGH, ANSWER_EQUAL, ANSWER_NOT_ENOUGH, DECLARE, EXCHANGE_SEVEN, PASS,
    REFUSE_REDEAL, TAKE,
)
from belote_env.config import Rules, load_rules
from belote_env.game import GameState
from policies import make_policy
from policies.registry import CUTTHROAT_TIERS, check_policy_rules
from training.evaluate import SET_SEATINGS, SetMatchResult, duplicate_match, play_game

OPTION_MIXES = [
    ("seed001_2p", {}),
    ("seed001_2p", {"declarations": "choice", "belote": "optional"}),
    ("seed001_2p", {"dix_exchange": "auto", "tie": "litige", "redeal_dealer": "elder", "dealer_round2_proposal": True}),
    ("seed001_3p", {}),
    ("seed001_3p", {"declarations": "choice", "belote": "optional", "defender_partner_free": True}),
    ("seed001_3p", {"three_player_deal": "10_each"}),
    ("seed001_3p", {"three_player_deal": "24_card", "ruff_overtrump": "only_trump_lead", "redeal_consent": "next_player"}),
]


@pytest.mark.parametrize("preset,opts", OPTION_MIXES)
def test_tiers_play_legal_games(preset, opts):
    """Every tier returns a legal action in whole games (play_game checks each action)."""
    rules = load_rules(preset, **opts)
    n = rules.players
    seen = Counter()
    for g in range(6):
        pols = [make_policy(["easy", "normal", "random"][(g + s) % 3], seed=g, rules=rules) for s in range(n)]
        state = GameState(rules, seed=100 + g, dealer=g % n)
        play_game(state, pols, teams=tuple(range(n)))
        assert state.is_game_over
        for d in state.deal_log:
            seen.update(a for _, a in d["actions"])
    assert seen[TAKE] + sum(seen[34 + s] for s in range(4)) > 0
    if opts.get("declarations") == "choice":
        assert seen[DECLARE] > 0
    if opts.get("belote") == "optional":
        assert seen[ANNOUNCE_BELOTE] > 0


def _info(rules, seed=0):
    return GameState(rules, seed=seed).information_set(1)


def test_protocol_choices():
    """Seven exchanged, sequences announced, answers truthful (§2.5, §2.6)."""
    from policies.cutthroat_play import _protocol

    info = _info(load_rules("seed001_2p"))
    assert _protocol(info, (EXCHANGE_SEVEN, 108)) == EXCHANGE_SEVEN
    assert _protocol(info, (DECLARE, 103)) == DECLARE
    assert _protocol(info, (ANSWER_ENOUGH, ANSWER_NOT_ENOUGH)) == ANSWER_NOT_ENOUGH
    assert _protocol(info, (ANSWER_ENOUGH, ANSWER_EQUAL)) == ANSWER_EQUAL
    assert _protocol(info, (ANSWER_ENOUGH,)) == ANSWER_ENOUGH


def test_redeal_answers():
    """A proposal is refused with a strong hand and agreed with a weak one."""
    from dataclasses import replace

    from belote_env.cards import parse_cards

    info = _info(load_rules("seed001_2p"))
    strong = replace(info, hand=parse_cards("J♠ 9♠ A♠ A♥ 10♥ K♦"), legal_actions=(AGREE_REDEAL, REFUSE_REDEAL),
                     contract=None)
    weak = replace(strong, hand=parse_cards("7♠ 8♥ 7♦ 8♦ 7♣ 8♣"))
    for tier in ("easy", "normal"):
        pol = make_policy(tier)
        assert pol.act(strong) == REFUSE_REDEAL
        assert pol.act(weak) == AGREE_REDEAL


def test_bidding_strength():
    from dataclasses import replace

    from belote_env.cards import card, parse_cards

    info = _info(load_rules("seed001_2p"))
    turned = card(0, 0)  # 7♠ turned: spades proposed
    strong = replace(info, hand=parse_cards("J♠ 9♠ A♠ A♥ 10♥ K♦"), turned_card=turned, legal_actions=(32, 33, 106),
                     contract=None)
    weak = replace(strong, hand=parse_cards("8♠ 8♥ 7♦ 8♦ 7♣ 9♣"))
    for tier in ("easy", "normal"):
        assert make_policy(tier).act(strong) == TAKE
        assert make_policy(tier).act(weak) == PASS


def test_normal_two_seat_bid_value():
    """Normal's two-seat bid value (policies.cutthroat_play.bid_value) rises with trump honours
    and length, counts the seven exchanged for the turned card, and bids a bare weak suit
    below zero."""
    from belote_env.cards import card, parse_cards
    from policies.cutthroat_play import bid_value

    turned = card(0, 0)  # 7♠
    strong = parse_cards("J♠ 9♠ A♠ A♥ 10♥ K♦")
    weak = parse_cards("8♠ 8♥ 7♦ 8♦ 7♣ 9♣")
    for elder in (True, False):
        assert bid_value(strong, 0, turned, True, elder) > 0 > bid_value(weak, 0, turned, True, elder)
        assert bid_value(strong, 0, turned, False, elder) > bid_value(strong, 1, turned, False, elder)
    jack_turned = card(4, 0)  # J♠ turned: the holder of 7♠ exchanges it for the jack
    with_seven = parse_cards("7♠ 9♠ A♠ A♥ 10♥ K♦")
    without = parse_cards("8♠ 9♠ A♠ A♥ 10♥ K♦")
    assert bid_value(with_seven, 0, jack_turned, True, True) > bid_value(without, 0, jack_turned, True, True)


def test_normal_two_seat_high_lead():
    """Two seats: with no master to cash, normal leads the top 10 / K / Q of a side suit
    (no higher card of the suit in hand) before a low card."""
    from dataclasses import replace

    from belote_env.cards import parse_cards

    rules = load_rules("seed001_2p")
    pols = [make_policy("normal", rules=rules), make_policy("easy", rules=rules)]
    for seed in range(50):
        state = GameState(rules, seed=seed)
        while not state.is_deal_over and not (state.step == 3 and not state.trick and not state.tricks
                                              and state.denomination == 0):
            state.apply(pols[state.current].act(state.information_set(state.current)))
        if not state.is_deal_over:
            break
    else:
        pytest.skip("no spade contract reached")
    info = state.information_set(state.current)
    other = 1 - info.seat
    for hand, want in (("7♥ 10♥ 8♦ K♦ Q♣ 7♣ 8♠ 9♠ 7♦", "10♥"), ("7♥ 8♥ 8♦ K♦ Q♣ 7♣ 8♠ 9♠ 7♦", "K♦"),
                       ("7♥ 8♥ 8♦ 7♦ Q♣ 7♣ 8♠ 9♠ K♣", "K♣")):
        mask = parse_cards(hand)
        for maker in (info.seat, other):
            view = replace(info, hand=mask, legal_actions=tuple(c for c in range(32) if mask >> c & 1), taker=maker,
                           out_of_play=0, played_by=(0, 0), hand_sizes=(9, 9),
                           public_knowledge=((0, 0), (0, 0)))
            assert pols[0].act(view) == parse_cards(want).bit_length() - 1, (hand, maker)


def test_unsupported_tiers_refused_at_small_tables():
    """A tier outside CUTTHROAT_TIERS (today hard_oracle), alone or under +search, and a
    team raise a clear error naming the supported ones; adding a tier to CUTTHROAT_TIERS
    lifts it; every supported tier is accepted alone and under +search."""
    from policies.registry import TIERS

    for preset in ("seed001_2p", "seed001_3p"):
        rules = load_rules(preset)
        unsupported = [t for t in TIERS if t not in CUTTHROAT_TIERS]
        assert unsupported == ["hard_oracle"]
        for spec in unsupported + [f"{t}+search" for t in unsupported] + ["normal,hard"]:
            with pytest.raises(ValueError, match="random, easy, normal"):
                make_policy(spec, rules=rules)
        for spec in CUTTHROAT_TIERS:
            check_policy_rules(spec, rules)
            check_policy_rules(f"{spec}+search", rules)
    check_policy_rules("hard", load_rules("seed004"))


def test_a_model_folder_of_another_game_is_refused_before_play():
    """A model folder plays the game its networks read: under other rules
    ``check_policy_rules`` (and ``make_policy`` with ``rules``) refuses it by name, alone,
    under +search or in a team, before a game starts; under its own rules it passes."""
    from policies.network import RulesMismatchError

    two, classic = "policies/models/hard_2p", "policies/models/hard"
    for spec, preset in ((two, "seed004"), (two, "seed001_3p"), (f"{two}+search", "seed001_3p"),
                         (f"{two},normal", "seed004"), (f"normal,{two}", "coinche"), (classic, "seed001_2p")):
        with pytest.raises(RulesMismatchError, match="cannot play"):
            check_policy_rules(spec, load_rules(preset))
    with pytest.raises(RulesMismatchError, match="a two-player model"):
        make_policy(two, rules=load_rules("coinche"))
    check_policy_rules(two, load_rules("seed001_2p"))
    check_policy_rules(f"{classic},normal", load_rules("seed004"))
    check_policy_rules(two, load_rules("seed004"), load_folders=False)  # left to the policy that loads it


def test_make_policy_loads_a_checked_model_folder_once(monkeypatch):
    """``make_policy`` with rules checks a model folder on the policy it loads: one load for
    a folder alone, in a team or under +search, and still a refusal for another game."""
    from policies.network import NetworkPolicy, RulesMismatchError

    loads, real = [], NetworkPolicy.from_path.__func__

    def counted(cls, *args, **kwargs):
        loads.append(args)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(NetworkPolicy, "from_path", classmethod(counted))
    for spec, preset in (("policies/models/hard", "seed004"), ("policies/models/hard,normal", "seed004"),
                         ("policies/models/hard_2p+search", "seed001_2p")):
        loads.clear()
        make_policy(spec, rules=load_rules(preset))
        assert len(loads) == 1, spec
    with pytest.raises(RulesMismatchError, match="a two-player model"):
        make_policy("policies/models/hard_2p+search", rules=load_rules("seed004"))


@pytest.mark.parametrize("preset", ["seed001_2p", "seed001_3p"])
def test_a_search_on_a_tier_plays_two_and_three_seats_among_its_top_cards(preset):
    """``hard+search`` at two and three seats: the base (hard's model of the table) makes
    the other decisions, and a searched card decision picks one of hard's
    ``SEARCH_TOP_K`` most probable cards, not always hard's own; a whole deal is legal."""
    from belote_env.driver import finish_deal
    from policies.search import SEARCH_TOP_K

    policy, hard = make_policy("hard+search", seed=0, rules=load_rules(preset)), make_policy("hard", seed=0)
    picked = differed = 0
    for seed in range(6):
        st = GameState(load_rules(preset), seed=seed, single_deal=True)

        def check(state, seat, action):
            nonlocal picked, differed
            info = last[0]
            if policy.last_values:  # a searched card decision
                probs = hard.action_probabilities(info)
                top = sorted((a for a in probs if a < 32), key=lambda a: (-probs[a], a))[:SEARCH_TOP_K]
                assert action in top and set(policy.last_values) == set(top)
                picked += 1
                differed += action != hard.act(info)

        last = [None]

        def decide(state, info, pol):
            last[0] = info
            return pol.act(info)

        finish_deal(st, [policy] * st.rules.players, decide=decide, after=check)
        assert st.is_deal_over
    assert picked > 0 and differed > 0


def test_seatings_fair():
    """Four seats: a mirrored pair, each side a team in turn; two seats: swapped; three
    seats: each tier in each seat 3 times, alone 3 times."""
    assert SET_SEATINGS[4] == ((0, 1, 0, 1), (1, 0, 1, 0))
    assert SET_SEATINGS[2] == ((0, 1), (1, 0))
    s3 = SET_SEATINGS[3]
    assert len(set(s3)) == 6
    for seat in range(3):
        assert Counter(s[seat] for s in s3) == {0: 3, 1: 3}
    assert sum(s.count(0) == 1 for s in s3) == 3 and sum(s.count(1) == 1 for s in s3) == 3


@pytest.mark.parametrize("preset", ["seed001_2p", "seed001_3p"])
@pytest.mark.parametrize("mode", ["deal", "game"])
def test_identical_policies_zero_difference(preset, mode):
    """The same deterministic policy on both sides: every set's difference is exactly 0."""
    m = duplicate_match("normal", "normal", 6, seed=5, rules=load_rules(preset), mode=mode)
    assert isinstance(m, SetMatchResult)
    assert m.set_diffs == (0.0,) * 6
    assert set(m.pair_scores) == {0.5}
    assert m.a_points == m.b_points


def test_quick_eval_and_workers():
    rules = load_rules("seed001_2p")
    one = duplicate_match("normal", "easy", 8, seed=2, rules=rules, mode="game")
    two = duplicate_match("normal", "easy", 8, seed=2, rules=rules, mode="game", workers=2, chunk=3)
    strip = lambda d: {k: v for k, v in d.items() if not k.endswith("ms_per_move")}  # noqa: E731
    assert strip(one.to_dict()) == strip(two.to_dict())
    assert one.deals >= 16 and 0 <= one.game_win_rate <= 1
    assert "games won by normal" in one.summary()
    m3 = duplicate_match("normal", "random", 4, seed=1, rules=load_rules("seed001_3p"))
    assert m3.deals == 24 and set(m3.by_role) == {"a_alone", "a_paired", "b_alone", "b_paired"}
    with pytest.raises(ValueError, match="deal mode only"):
        duplicate_match("normal", "easy", 2, rules=rules, batched=True, mode="game")


def test_cli_eval_and_play(tmp_path, capsys, monkeypatch):
    from training.cli import main

    assert main(["eval", "normal", "easy", "--rules", "seed001_3p", "--games", "2", "--no-progress"]) == 0
    assert "3 players" in capsys.readouterr().out
    from policies.registry import TIERS

    unsupported = [t for t in TIERS if t not in CUTTHROAT_TIERS]
    if unsupported:
        assert main(["eval", unsupported[0], "easy", "--rules", "seed001_2p", "--no-progress"]) == 2
        assert "random, easy, normal" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    save = tmp_path / "g.json"
    rc = main(["play", "--rules", "seed001_2p", "--seat", "1", "--opponents", "easy", "--save", str(save)])
    assert rc in (0, 130) and save.exists()
    assert main(["play", "--rules", "seed001_2p", "--seat", "2"]) == 2


def test_replay_of_a_small_table_record_checks_seats_by_the_table(tmp_path):
    """`belote replay` reads two-player records; a dealer or an action's seat
    outside the table's two seats is refused naming the allowed range."""
    import json

    from belote_env.records import RecordError, replay
    from belote_env.game import GameState

    rec = {"format": "belote-rl-record", "version": 1, "rules": load_rules("seed001_2p").to_dict(),
           "deals": [{"dealer": 0, "deck": list(range(32)), "actions": []}]}
    st = replay(json.loads(json.dumps(rec)))
    assert isinstance(st, GameState) and st.deal_number == 0
    rec["deals"][0]["dealer"] = 2
    with pytest.raises(RecordError, match=r"'dealer' must be a seat 0\.\.1"):
        replay(rec)


def test_three_seat_pairs_log_resumes_after_a_kill(tmp_path):
    """A two- or three-seat match keeps its finished chunks of sets in a pairs log: cut by a
    kill (a torn last line), the same command resumes and gives the uncut match's result;
    a corrupt chunk is named by line and field."""
    import json

    log = tmp_path / "p.jsonl"
    rules = Rules(players=3)
    strip = lambda m: {k: v for k, v in m.to_dict().items() if "ms_per_move" not in k}  # noqa: E731
    whole = duplicate_match("normal", "easy", 9, seed=2, rules=rules, chunk=2)
    logged = duplicate_match("normal", "easy", 9, seed=2, rules=rules, chunk=2, pairs_log=log)
    lines = log.read_text().splitlines()
    assert len(lines) == 6 and json.loads(lines[1])["ids"] == [0, 1]
    log.write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])  # two chunks kept, the third torn
    resumed = duplicate_match("normal", "easy", 9, seed=2, rules=rules, chunk=2, pairs_log=log)
    assert strip(whole) == strip(logged) == strip(resumed)
    row = json.loads(lines[1])
    row["tally"]["rows"][0]["deal_wins"] = 2.0
    log.write_text("\n".join([lines[0], json.dumps(row), lines[2]]) + "\n")
    with pytest.raises(ValueError, match=r"line 2 is corrupt \(tally rows\[0\]\.deal_wins is 2\.0, allowed"):
        duplicate_match("normal", "easy", 9, seed=2, rules=rules, chunk=2, pairs_log=log)
    for key, value, match in (("deals", 13, r"deals is 13, allowed: exactly 12 \(6 deals for each of the 2 sets"),
                              ("made", [99, 0], r"made\[0\] is 99, allowed: 0\.\.\d+ \(at most the contracts"),
                              ("time_s", [1e300, 0.0], r"time_s\[0\] is 1e\+300, allowed: 0\.\.1e\+07 seconds")):
        row = json.loads(lines[1])
        row["tally"][key] = value
        log.write_text("\n".join([lines[0], json.dumps(row), lines[2]]) + "\n")
        with pytest.raises(ValueError, match=rf"line 2 is corrupt \(tally {match}"):
            duplicate_match("normal", "easy", 9, seed=2, rules=rules, chunk=2, pairs_log=log)
    with pytest.raises(ValueError, match="written for another match"):
        duplicate_match("normal", "easy", 9, seed=2, rules=Rules(players=2), chunk=2, pairs_log=log)


def test_failures_cross_process_and_hostile_logs():
    """A PolicyFailure raised in a worker reaches the match whole (pickled with its policy
    and record); a pairs-log number too large for a float is a corrupt line, named."""
    import pickle

    from training.evaluate import PolicyFailure, _finite_number

    e = pickle.loads(pickle.dumps(PolicyFailure("policy 'x' returned 999", "x", {"deals": []})))
    assert (str(e), e.policy, e.record) == ("policy 'x' returned 999", "x", {"deals": []})
    assert not _finite_number(10 ** 400) and not _finite_number(True) and _finite_number(2.5)


def test_compiled_observation_refuses_bad_indices():
    import numpy as np

    from belote_env.vector import BatchedGame
    from belote_env.vector.cutthroat import encode_cutthroat_batch

    g = BatchedGame(4, Rules(players=3), seed=0)
    for tables, seats in (([4], [0]), ([-1], [0]), ([0], [3]), ([0, 1], [0])):
        with pytest.raises(ValueError, match="tables"):
            encode_cutthroat_batch(g, np.array(tables), np.array(seats))


def test_the_old_names_of_the_duplicate_set_match_warn():
    import training.evaluate as ev

    with pytest.warns(DeprecationWarning, match="SetMatchResult"):
        assert ev.SmallMatchResult is ev.SetMatchResult
    with pytest.warns(DeprecationWarning, match="SET_SEATINGS"):
        assert ev.SMALL_SEATINGS is ev.SET_SEATINGS
    with pytest.warns(DeprecationWarning, match="SET_POSITIONS"):
        assert ev.SMALL_POSITIONS is ev.SET_POSITIONS
    with pytest.warns(DeprecationWarning, match="set_deck"):
        assert ev.small_set_deck is ev.set_deck
