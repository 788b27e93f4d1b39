"""The AI tiers (RULES.md §12) and the evaluation harness: legality under every preset,
no reading of hidden state, normal's key behaviours, duplicate matches, ladder, play input."""

import json
import random

import pytest


from belote_env import GameState, InfoSet, Rules, load_rules, preset_names
from belote_env.actions import DECLARE, NAME_CONTRACT, PASS, TAKE
from belote_env.cards import parse_card, parse_cards
from belote_env.sampling import sample_hidden_hands
from policies import make_policy
from policies.normal import NormalPolicy
from training.evaluate import PolicyFailure, duplicate_match
from training.ladder import fit_ratings, run_ladder
from training.play import HumanPolicy, parse_input
from tests.conftest import play_info

TIERS = ["random", "easy", "normal"]


@pytest.mark.parametrize("preset", preset_names())
def test_tiers_play_only_legal_actions_under_every_preset(preset):
    rules = load_rules(preset, target=None)
    if rules.contract_mode == "classic" and rules.players == 4:
        rules = rules.replace(round2_no_trump_all_trump=True)
    rng = random.Random(0)
    for name in TIERS:
        pol = make_policy(name, seed=1)
        for seed in range(250):
            st = GameState(rules, seed=seed, dealer=seed % rules.players)
            while not st.is_deal_over:
                info = st.information_set(st.current)
                a = pol.act(info) if rng.random() < 0.75 else info.legal_actions[rng.randrange(len(info.legal_actions))]
                assert a in info.legal_actions
                st.apply(a)


@pytest.mark.parametrize("name", ["easy", "normal", "hard"])
def test_tiers_do_not_read_hidden_state(name):
    """A decision on the real information set equals the one on an information set of a
    state whose hidden hands were resampled (the tiers only ever see the InfoSet)."""
    pol = make_policy(name, seed=0)
    rng = random.Random(4)
    checked = 0
    for seed in range(120):
        st = GameState(Rules(target=None), seed=seed)
        while not st.is_deal_over:
            seat = st.current
            info = st.information_set(seat)
            deal = sample_hidden_hands(info, rng)
            alt = st.clone()
            for s in range(4):
                if s != seat:
                    alt.hands[s] = deal.hands[s]
            alt._legal = None
            assert pol.act(alt.information_set(seat)) == pol.act(info)
            checked += 1
            st.apply(pol.act(info))
    assert checked > 2000


def test_normal_does_not_overtrump_winning_partner():
    # seat 1 (opponent) led 7♥, partner (seat 2) ruffed with 9♠, seat 3 followed 8♥;
    # seat 0 is void in hearts
    info = play_info("JS 8S 7D AC KC", "7H 9S 8H", contract=0, seat=0, leader=1)
    # partner wins with a ruff: any card allowed (partner_master_free); normal keeps its J♠
    a = NormalPolicy().act(info)
    assert a != parse_card("JS") and not (a >> 3 == 0)


def test_normal_plays_the_master_card_when_leading():
    # spades trump held by nobody else (all played); the A♦ is master: lead it
    played = {1: "JS 9S AS 10S", 2: "KS QS 8S 7S"}
    info = play_info("AD 8D 7C 9H", "", contract=0, seat=0, leader=0, taker=1, played=played)
    assert NormalPolicy().act(info) == parse_card("AD")


def test_normal_adds_points_on_partners_sure_trick():
    # partner (seat 2) leads A♦ (master); seat 3 follows with 7♦; seat 0 void in ♦? no: holds 10♦ and 8♦
    info = play_info("10D 8D 7C", "AD 7D", contract=0, seat=0, leader=2,
                      played={1: "JS 9S AS 10S", 3: "KD QD JD 9D KS QS 8S 7S"})
    # partner's A♦ is the master and seat 1, the opponent still to play, holds neither a
    # diamond nor a trump (all are accounted for): the trick is sure, add the 10♦
    assert NormalPolicy().act(info) == parse_card("10D")


def _bid_info(hand, turned, legal=(PASS, TAKE)):
    return InfoSet(seat=1, dealer=0, phase=0, current_seat=1, hand=parse_cards(hand), turned_card=parse_card(turned),
                   auction=(), bid_round=1 if TAKE in legal else 2, contract=None, denomination=-1, taker=-1, trick=(), trick_leader=1,
                   tricks=(), played_by=(0, 0, 0, 0), hand_sizes=(5, 5, 5, 5), card_points=(0, 0), announcements=(),
                   declared=((), (), (), ()), scores=(0, 0), reserve=0, deal_number=0, legal_actions=legal,
                   rules=Rules())


def test_normal_takes_with_jack_nine_ace_of_turned_suit():
    assert NormalPolicy().act(_bid_info("JH 9H AH 7C 8D", "10H")) == TAKE


def test_normal_passes_with_a_weak_hand():
    assert NormalPolicy().act(_bid_info("7H 8C 9D 10C QD", "KH")) == PASS
    round2 = (PASS, NAME_CONTRACT + 0, NAME_CONTRACT + 2, NAME_CONTRACT + 3)
    assert NormalPolicy().act(_bid_info("7S 8C 9D 10C QD", "KH", round2)) == PASS


def test_normal_names_its_strong_suit_in_round_two():
    round2 = (PASS, NAME_CONTRACT + 0, NAME_CONTRACT + 2, NAME_CONTRACT + 3)
    assert NormalPolicy().act(_bid_info("JC 9C AC 10C AS", "KH", round2)) == NAME_CONTRACT + 3


def test_normal_ruffs_with_lowest_sufficient_trump():
    # opponent (seat 3) leads A♦ worth 11, seat 0 void in ♦ with J♠ 7♠: must trump; saves the J
    info = play_info("JS 7S AH", "AD", contract=0, seat=0, leader=3)
    assert NormalPolicy().act(info) == parse_card("7S")


def test_duplicate_match_is_deterministic_and_worker_independent():
    a = duplicate_match("random", "easy", 30, seed=3)
    b = duplicate_match("random", "easy", 30, seed=3, workers=2, chunk=7)
    assert a.to_dict() | {"a_ms_per_move": 0, "b_ms_per_move": 0} == b.to_dict() | {"a_ms_per_move": 0, "b_ms_per_move": 0}


def _same(a, b):
    """Two match results equal but for decision times."""
    t = {"a_ms_per_move": 0, "b_ms_per_move": 0}
    return a.to_dict() | t == b.to_dict() | t


def test_a_pairs_log_resumes_a_cut_match_without_replaying_its_pairs(tmp_path):
    """A match cut after some chunks (here: a log holding the first chunks and a torn last
    line, as a kill mid-write leaves it) resumes from its pairs log: the result is the
    uninterrupted one, the logged pairs are not played again, and a log of 12 pairs serves
    a match of 8 (only its whole chunks) without playing anything."""
    full = duplicate_match("random", "easy", 12, seed=5, chunk=4)
    log = tmp_path / "pairs.jsonl"
    first = duplicate_match("random", "easy", 8, seed=5, chunk=4, pairs_log=log)
    lines = log.read_text().splitlines()
    assert len(lines) == 3 and [json.loads(x)["ids"] for x in lines[1:]] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    log.write_text("\n".join(lines) + "\n" + lines[2][:40])  # a torn line: its pairs are played again
    played = []
    import training.evaluate as ev

    real = ev._play_sets
    ev._play_sets = lambda a, b, ids, *rest: played.extend(ids) or real(a, b, ids, *rest)
    try:
        resumed = duplicate_match("random", "easy", 12, seed=5, chunk=4, pairs_log=log)
        assert played == [8, 9, 10, 11]
        assert _same(resumed, full)
        played.clear()
        again = duplicate_match("random", "easy", 8, seed=5, chunk=4, pairs_log=log)
        assert played == [] and _same(again, first)
        assert len(log.read_text().splitlines()) == 4
    finally:
        ev._play_sets = real


@pytest.mark.parametrize("change,match", [(dict(seed=6), "another match .*seed"),
                                          (dict(policy_b="normal"), "another match .*b"),
                                          (dict(mode="game"), "another match .*mode")])
def test_a_pairs_log_of_another_match_is_refused(tmp_path, change, match):
    log = tmp_path / "pairs.jsonl"
    duplicate_match("random", "easy", 2, seed=5, pairs_log=log)
    kw = dict(policy_a="random", policy_b="easy", pairs=2, seed=5, pairs_log=log) | change
    with pytest.raises(ValueError, match=match):
        duplicate_match(**kw)


def test_a_corrupt_pairs_log_is_refused(tmp_path):
    log = tmp_path / "pairs.jsonl"
    duplicate_match("random", "easy", 4, seed=5, chunk=2, pairs_log=log)
    lines = log.read_text().splitlines()
    log.write_text("\n".join([lines[0], "{not json", lines[2]]) + "\n")
    with pytest.raises(ValueError, match="line 2 is corrupt"):
        duplicate_match("random", "easy", 4, seed=5, chunk=2, pairs_log=log)
    with pytest.raises(ValueError, match="specs"):
        duplicate_match(make_policy("random"), "easy", 4, pairs_log=tmp_path / "other.jsonl")


def test_a_pairs_log_survives_an_empty_file_and_a_missing_last_newline(tmp_path):
    """An empty file is a new log; a last line without its newline is completed before
    the next chunk is appended, so later resumes still read every line."""
    log = tmp_path / "pairs.jsonl"
    log.write_text("\n")
    ref = duplicate_match("random", "easy", 4, seed=3, chunk=2, pairs_log=log)
    assert len(log.read_text().splitlines()) == 3
    log.write_text(log.read_text().rstrip("\n"))
    duplicate_match("random", "easy", 6, seed=3, chunk=2, pairs_log=log)
    assert [json.loads(x).get("ids") for x in log.read_text().splitlines()] == [None, [0, 1], [2, 3], [4, 5]]
    assert _same(duplicate_match("random", "easy", 4, seed=3, chunk=2, pairs_log=log), ref)


def test_pairs_come_back_in_pair_order_however_the_chunks_were_cut(tmp_path):
    full = duplicate_match("random", "easy", 12, seed=4, chunk=2)
    log = tmp_path / "pairs.jsonl"
    duplicate_match("random", "easy", 12, seed=4, chunk=2, pairs_log=log)
    lines = log.read_text().splitlines()
    log.write_text("\n".join([lines[0], lines[2], lines[4], lines[6]]) + "\n")  # pairs 2-3, 6-7, 10-11
    resumed = duplicate_match("random", "easy", 12, seed=4, chunk=6, pairs_log=log)
    assert resumed.pair_scores == full.pair_scores and _same(resumed, full)


@pytest.mark.parametrize("content,match", [
    ("[1, 2]\n", "line 1 is not a pairs-log header"),
    ("null\n", "line 1 is not a pairs-log header"),
    (None, "line 2 is corrupt .ids must be distinct"),
    ("tally", "line 2 is corrupt .tally diffs must be 2 numbers"),
    ("types", "line 2 is corrupt .tally taken must be 2 counts"),
])
def test_a_pairs_log_that_is_not_one_or_has_a_bad_chunk_is_refused(tmp_path, content, match):
    log = tmp_path / "pairs.jsonl"
    duplicate_match("random", "easy", 2, seed=5, chunk=2, pairs_log=log)
    header, line = log.read_text().splitlines()
    row = json.loads(line)
    if content is None:
        row["ids"] = [1, 1]
    elif content == "tally":
        row["tally"]["diffs"] = row["tally"]["diffs"][:1]
    elif content == "types":
        row["tally"]["taken"] = 3
    log.write_text(content if content and content.startswith(("[", "n")) else header + "\n" + json.dumps(row) + "\n")
    with pytest.raises(ValueError, match=match):
        duplicate_match("random", "easy", 2, seed=5, chunk=2, pairs_log=log)


def test_cli_eval_resumes_from_its_pairs_log(tmp_path, capsys):
    from training.cli import main

    log, out = tmp_path / "p.jsonl", tmp_path / "r.json"
    argv = ["eval", "random", "easy", "--pairs", "6", "--chunk", "3", "--no-progress", "--pairs-log", str(log)]
    assert main(argv) == 0
    assert main(argv + ["--json", str(out)]) == 0
    assert len(log.read_text().splitlines()) == 3  # header + 2 chunks, nothing replayed
    assert json.loads(out.read_text())["pairs"] == 6
    assert main(["eval", "random", "easy", "--pairs", "6", "--chunk", "0", "--no-progress"]) == 2
    assert "chunk must be a positive int" in capsys.readouterr().err


def test_duplicate_match_games_and_json(tmp_path, capsys):
    from training.cli import main

    out = tmp_path / "r.json"
    assert main(["eval", "normal", "easy", "--games", "6", "--rules", "seed004", "--no-progress", "--json", str(out)]) == 0
    r = json.loads(out.read_text())
    assert r["mode"] == "game" and r["pairs"] == 6 and r["game_win_rate"] is not None
    assert r["deals"] >= 12 and r["a_ms_per_move"] > 0
    assert "games won by normal" in capsys.readouterr().out


class _Raiser:
    name = "raiser"

    def act(self, info):
        if info.denomination >= 0:
            raise RuntimeError("boom")
        return info.legal_actions[-1]


class _Cheater:
    name = "cheater"

    def act(self, info):
        return 5 if info.denomination < 0 else info.legal_actions[0]


@pytest.mark.parametrize("bad,match", [(_Raiser(), "raised"), (_Cheater(), "illegal action 5")])
def test_harness_stops_on_bad_policy_with_replayable_record(bad, match):
    from belote_env.records import RecordError, replay

    with pytest.raises(PolicyFailure, match=match) as e:
        duplicate_match(bad, make_policy("easy"), 3, seed=0)
    assert e.value.policy == bad.name
    st = replay(e.value.record)  # the record reproduces the position up to the failure
    assert not st.is_deal_over
    _ = RecordError


def test_cli_eval_failure_writes_record(tmp_path, capsys, monkeypatch):
    from training import cli

    monkeypatch.chdir(tmp_path)
    import policies.registry as reg

    monkeypatch.setitem(reg.TIERS, "cheater", lambda seed=None: _Cheater())
    assert cli.main(["eval", "cheater", "easy", "--deals", "2", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "cheater" in err and "belote_failure_record.json" in err
    assert (tmp_path / "belote_failure_record.json").exists()


def test_cli_ladder_policy_failure_is_one_line_exit_2(capsys, monkeypatch):
    """A policy that plays an illegal action mid-ladder: ``belote ladder: error: ...`` on
    one line and exit 2, as ``belote eval`` (was a PolicyFailure traceback)."""
    from training import cli

    import policies.registry as reg

    monkeypatch.setitem(reg.TIERS, "cheater", lambda seed=None: _Cheater())
    assert cli.main(["ladder", "easy", "cheater", "--pairs", "1", "--no-progress"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("belote ladder: error: policy 'cheater' returned illegal action 5 at seat ")
    assert captured.err.count("\n") == 1 and "legal: ['32=pass', '33=take']" in captured.err
    assert captured.out == ""


@pytest.mark.parametrize("spec", ["hard", "hard_oracle", "normal,hard", "hard_oracle,easy", "hard+search", "expert@5ms"])
def test_every_tier_plays_coinche_rules_of_the_extended_action_table(spec):
    """A générale or bids above 160 (412 action ids): every four-seat tier, team and search
    is accepted (the hard networks play with the ids they know) and plays legal actions."""
    from belote_env.driver import finish_deal
    from policies.base import RandomPolicy
    from policies.registry import TIERS, check_policy_rules

    for rules in (load_rules("coinche_bga", target=None), load_rules("coinche", target=None, generale=True)):
        check_policy_rules(spec, rules)
        policy = make_policy(spec, seed=0, rules=rules)
        st = GameState(rules, seed=2, dealer=0, single_deal=True)
        seen = []
        finish_deal(st, [policy, RandomPolicy(1)] * 2, after=lambda st, seat, a: seen.append(a))
        assert st.is_deal_over and seen
    for tier in TIERS:
        check_policy_rules(tier, load_rules("coinche_bga"))


def test_cli_plays_the_hard_tier_under_extended_coinche_rules(tmp_path, capsys, monkeypatch):
    """``belote eval`` plays hard under coinche_bga (412 action ids) to the end: exit 0,
    the match's figures printed, no failure record."""
    from training import cli

    monkeypatch.chdir(tmp_path)
    assert cli.main(["eval", "hard", "normal", "--rules", "coinche_bga", "--deals", "4", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hard vs normal: 2 mirrored deal pairs, 4 deals") and "mean point difference" in out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("spec", ["expert@", "expert@-5ms", "expert@0ms", "expert@5s", "expert@9999999ms",
                                  "expert@600001ms", "hard@5ms", "expert@5s+search", "normal,expert@0ms"])
def test_a_bad_time_budget_is_named_with_its_form_and_range(spec, capsys):
    """``<tier>@...`` that is not ``expert@<N>ms`` with N in 1..600000 names that form
    (not the list of tiers of an unknown policy)."""
    from policies.registry import check_policy_spec, timed_expert_budget
    from training import cli

    bad = spec.removesuffix("+search").rpartition(",")[2]
    want = (f"policy {bad!r}: a time budget a move is written expert@<N>ms, N an int in 1..600000 (milliseconds), "
            f"e.g. expert@50ms; only the expert tier takes one")
    with pytest.raises(ValueError) as e:
        check_policy_spec(spec)
    assert str(e.value) == want
    assert cli.main(["eval", spec, "normal", "--deals", "2", "--no-progress"]) == 2
    assert capsys.readouterr().err == f"belote eval: error: {want}\n"
    assert (timed_expert_budget("expert@1ms"), timed_expert_budget("expert@600000ms")) == (0.001, 600.0)


def test_fit_ratings_recovers_elo_gap():
    # 76% score corresponds to about +200 Elo
    r = fit_ratings(["a", "b"], {(0, 1): (760.0, 1000)}, anchor=1)
    assert r[1] == pytest.approx(1000) and 190 < r[0] - 1000 < 210


def test_ladder_orders_tiers(tmp_path):
    res = run_ladder(["random", "easy", "normal"], 60, seed=1, bootstrap=50)
    ratings = dict(zip(res.names, res.ratings))
    assert ratings["random"] == pytest.approx(1000)
    assert ratings["normal"] > ratings["random"]
    assert "rating" in res.table()
    res.plot(str(tmp_path / "l.png"))
    assert (tmp_path / "l.png").stat().st_size > 1000



def test_a_ladder_match_of_one_pair_says_its_interval_has_no_width_to_trust():
    res = run_ladder(["random", "easy"], 1, seed=1, bootstrap=10)
    lines = [x for x in res.table().splitlines() if x.startswith("  ") and " vs " in x]
    assert len(lines) == len(res.matches) and all(m.win_rate_ci[0] == m.win_rate_ci[1] for m in res.matches)
    assert all(x.endswith("(zero width: no spread over its pairs, too few to estimate it; play more)") for x in lines)
    wide = run_ladder(["random", "normal"], 20, seed=1, bootstrap=10)
    assert "zero width" not in wide.table() and wide.matches[0].win_rate_ci[0] < wide.matches[0].win_rate_ci[1]


@pytest.mark.parametrize("text,legal,want", [
    ("JS", (4, 5), 4), ("j♠", (4, 5), 4), ("2", (4, 5), 5), ("pass", (32, 33), 32), ("Take", (32, 33), 33),
    ("hearts", (32, 35), 35), ("name hearts", (32, 35), 35),
])
def test_play_input_parsing(text, legal, want):
    assert parse_input(text, legal) == (want, "")


@pytest.mark.parametrize("text,legal,why", [
    ("", (4,), "empty"), ("zz", (4,), "cannot read"), ("9", (4, 5), "not in the list"), ("AS", (4, 5), "not legal"),
    ("take", (32, 34), "not legal"),
])
def test_play_input_refused(text, legal, why):
    action, reason = parse_input(text, legal)
    assert action is None and why in reason


def test_human_policy_asks_again_until_legal():
    import io

    answers = iter(["zz", "KH", "1"])
    out = io.StringIO()
    hp = HumanPolicy(input_fn=lambda prompt: next(answers), output=out)
    info = play_info("JS 7S AH", "AD", contract=0, seat=0, leader=3)
    assert hp.act(info) == info.legal_actions[0]
    assert out.getvalue().count("refused") == 2


def test_workers_with_a_network_policy_do_not_hang(tmp_path):
    """A torch policy used in the parent and in worker processes (spawned, not forked)."""
    from policies.network import BeloteNet, save_model

    net = BeloteNet(pi=[8], vf=[8])
    save_model(tmp_path / "m", net.state_dict(), net.config)
    spec = str(tmp_path / "m")
    a = duplicate_match(spec, "easy", 6, seed=2)
    b = duplicate_match(spec, "easy", 6, seed=2, workers=2, chunk=2)
    assert a.mean_diff == b.mean_diff and a.deal_win_rate == b.deal_win_rate


@pytest.mark.parametrize("tier", ["easy", "normal"])
def test_rule_tiers_bid_by_the_games_auction_and_play_by_its_protocol(tier, monkeypatch):
    """easy and normal choose their bidder by ``Game.auction_kind`` and their play by
    ``Game.play_protocol`` (a variant is its parts): every bid of a classic, coinche, two-
    and three-seat deal goes to that auction's bidder, every decision after it to that
    protocol's player (four seats: the tier's own card play)."""
    import importlib

    from belote_env.games import game_of

    module = importlib.import_module(f"policies.{tier}")
    calls = []
    for kind, fn in list(module._BIDS.items()):
        monkeypatch.setitem(module._BIDS, kind, lambda info, fn=fn, kind=kind: calls.append(kind) or fn(info))
    if tier == "easy":
        for kind, fn in list(module._PLAYS.items()):
            monkeypatch.setitem(module._PLAYS, kind, lambda info, fn=fn, kind=kind: calls.append(kind) or fn(info))
    else:
        cut = module.normal_cutthroat_play
        monkeypatch.setattr(module, "normal_cutthroat_play", lambda info: calls.append("cutthroat") or cut(info))
        team = module.NormalPolicy._play
        monkeypatch.setattr(module.NormalPolicy, "_play", lambda self, info, cards: calls.append("team")
                            or team(self, info, cards))
    pol = make_policy(tier)
    for rules in (Rules(), load_rules("coinche"), Rules(players=2), Rules(players=3)):
        game = game_of(rules)
        for seed in range(6):
            st = game.new_state(seed=seed, dealer=seed % rules.players, single_deal=True)
            while not st.is_deal_over:
                info = st.information_set(st.current)
                calls.clear()
                st.apply(pol.act(info))
                want = game.auction_kind if info.contract is None else game.play_protocol
                if tier == "normal" and DECLARE in info.legal_actions:
                    continue  # a declaration made without the card player (normal declares first)
                assert calls == [want], (rules.players, rules.contract_mode, info.legal_actions)
