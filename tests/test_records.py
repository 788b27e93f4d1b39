"""Game records: write, read, replay (RULES.md reproducibility); presets; bad input."""

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from belote_env import GameState, Rules
from belote_env.config import RuleOptionError, load_rules, preset_names
from belote_env.records import RecordError, game_record, read_record, replay, save_game, write_record


def _random_game(rules, seed, max_deals=40):
    rng = random.Random(seed)
    st = GameState(rules, seed=seed, dealer=seed % 4)
    deals = 0
    while not st.is_game_over and deals < max_deals:
        while not st.is_deal_over:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        deals += 1
        if not st.is_game_over and deals < max_deals:
            st.next_deal()
    return st


@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 10**6), preset=st_.sampled_from(["seed004", "seed000", "seed002", "seed003", "seed001_4p"]))
def test_replaying_a_record_gives_the_same_scores(seed, preset):
    st = _random_game(load_rules(preset), seed)
    rec = json.loads(json.dumps(game_record(st)))  # through JSON
    again = replay(rec)
    assert again.scores == st.scores and again.winner == st.winner
    assert [d.points for d in again.deal_scores] == [d.points for d in st.deal_scores]
    assert again.announcements == st.announcements and again.declared == st.declared


def test_save_and_read_roundtrip(tmp_path):
    st = _random_game(Rules(), 3)
    path = save_game(st, tmp_path / "g.json")
    rec = read_record(path)
    assert rec["result"]["scores"] == st.scores and replay(rec).scores == st.scores
    assert not list(tmp_path.glob(".*tmp"))  # atomic write leaves no temporary file


def test_unfinished_deal_record_replays():
    st = GameState(Rules(), seed=9)
    rng = random.Random(0)
    for _ in range(10):
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    again = replay(game_record(st))
    assert again.actions == st.actions and again.hands == st.hands


def test_explicit_hands_record():
    rec = {
        "format": "belote-rl-record", "version": 1, "rules": {"target": None},
        "deals": [{
            "dealer": 3,
            "hands": [["JS", "9S", "AS", "10S", "KS"], ["7H", "8H", "9H", "10H", "JH"],
                      ["QH", "KH", "AH", "7D", "8D"], ["9D", "10D", "JD", "QD", "KD"]],
            "turned": "QS", "stock": ["AD", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "7S", "8S"],
            "actions": [[0, 33]],
        }],
    }
    st = replay(rec)
    assert st.denomination == 0 and st.taker == 0
    from belote_env.cards import parse_cards

    # taker (eldest, seat 0) gets QS + the first two stock cards AD, 7C
    assert st.hands[0] == parse_cards("JS 9S AS 10S KS QS AD 7C")
    assert st.hands[1] == parse_cards("7H 8H 9H 10H JH 8C 9C 10C")


def _base_record():
    return game_record(_random_game(Rules(), 11, max_deals=2))


@pytest.mark.parametrize("mutate,match", [
    (lambda r: r.update(format="chess"), "not a belote-rl record"),
    (lambda r: r.update(version=7), "version 7"),
    (lambda r: r.update(rules={"tie": "maybe"}), "'tie'"),
    (lambda r: r.update(deals=[]), "non-empty list"),
    (lambda r: r["deals"][0].update(dealer=5), "dealer"),
    (lambda r: r["deals"][0].update(deck=r["deals"][0]["deck"][:31]), "32 cards"),
    (lambda r: r["deals"][0]["deck"].__setitem__(0, r["deals"][0]["deck"][1]), "repeated"),
    (lambda r: r["deals"][0]["deck"].__setitem__(0, "XX"), "cannot parse card"),
    (lambda r: r["deals"][0]["actions"].__setitem__(0, [0, 999]), "action 0"),
    (lambda r: r["deals"][0]["actions"].__setitem__(0, "take"), "action 0"),
])
def test_malformed_records_raise(mutate, match):
    rec = copy.deepcopy(_base_record())
    mutate(rec)
    with pytest.raises(RecordError, match=match):
        replay(rec)


def test_illegal_action_in_record_stops_at_it():
    rec = copy.deepcopy(_base_record())
    actions = rec["deals"][0]["actions"]
    seat = actions[0][0]
    actions[0] = [seat, 5]  # a card during bidding
    with pytest.raises(RecordError, match=r"deal 0 action 0: illegal action 5 by seat \d.*legal ids"):
        replay(rec)


def test_wrong_seat_and_wrong_dealer_raise():
    rec = copy.deepcopy(_base_record())
    rec["deals"][0]["actions"][0][0] = (rec["deals"][0]["actions"][0][0] + 1) % 4
    with pytest.raises(RecordError, match="turn"):
        replay(rec)
    rec = copy.deepcopy(_base_record())
    rec["deals"][1]["dealer"] = (rec["deals"][1]["dealer"] + 2) % 4
    with pytest.raises(RecordError, match="dealer"):
        replay(rec)


def test_tampered_result_raises():
    rec = copy.deepcopy(_base_record())
    rec["result"]["scores"] = [1, 2]
    with pytest.raises(RecordError, match="differ"):
        replay(rec)


def test_read_record_bad_files(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{broken")
    with pytest.raises(RecordError, match="not valid JSON"):
        read_record(p)
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.json")
    write_record(p, {"format": "belote-rl-record"})
    with pytest.raises(RecordError, match="version"):
        read_record(p)


def test_presets_load_and_cite_their_seed():
    names = [n for n in preset_names() if n.startswith("seed")]
    assert names == ["seed000", "seed001_2p", "seed001_3p", "seed001_4p", "seed002", "seed003", "seed004"]
    assert load_rules("seed004") == Rules()
    assert load_rules("seed000").partner_master_free is False and load_rules("seed000").tie == "takers_made"
    assert load_rules("seed001_4p").obligations == "two_player"
    assert load_rules("seed003", target=2000).target == 2000
    from belote_env.config import PRESETS_DIR

    for n in names:
        text = (PRESETS_DIR / f"{n}.yaml").read_text()
        assert "docs/sources/" in text and " L" in text  # cites seed lines


@pytest.mark.parametrize("name", ["seed004", "seed000", "seed002", "seed003", "seed001_4p"])
def test_each_preset_plays_thousands_of_deals_within_invariants(name):
    rules = load_rules(name, target=None)
    rng = random.Random(0)
    played = 0
    for seed in range(2500):
        st = GameState(rules, seed=seed, dealer=seed % 4)
        while not st.is_deal_over:
            legal = st.legal_actions()
            assert legal
            st.apply(legal[rng.randrange(len(legal))])
        if st.deal_score is None:
            continue
        played += 1
        s = st.deal_score
        assert sum(st.card_points) == 152 and sum(st.tricks_won) == 8
        assert sum(s.trick_points) == (252 if s.capot is not None else 162)
        assert all(st.played_by[x].bit_count() == 8 for x in range(4))
    assert played > 1000


def test_load_rules_errors(tmp_path):
    with pytest.raises(RuleOptionError, match="unknown rules preset 'seed999'"):
        load_rules("seed999")
    bad = tmp_path / "r.yaml"
    bad.write_text("declarations: off\n")  # YAML reads a bare off as False
    with pytest.raises(RuleOptionError, match="'declarations' got False"):
        load_rules(bad)
    with pytest.raises(RuleOptionError, match="unknown rule option"):
        load_rules("seed004", colour="red")


def test_replay_cli_text_and_json(tmp_path, capsys):
    from training.cli import main

    st = _random_game(Rules(target=None), 4)
    path = save_game(st, tmp_path / "g.json")
    assert main(["replay", str(path), "--legal"]) == 0  # --legal: the decisions with their legal actions
    out = capsys.readouterr().out
    assert "legal:" in out and f"final scores: team 0 {st.scores[0]}, team 1 {st.scores[1]}" in out
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["result"]["scores"] == st.scores
    assert len(data["steps"]) == sum(len(d["actions"]) for d in game_record(st)["deals"])
    assert all(s["action"] in s["legal"] for s in data["steps"])
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["replay", str(bad)]) == 2
    assert "must be a JSON object" in capsys.readouterr().err


@pytest.mark.parametrize("mutate,match", [
    (lambda r: r.update(result={"scores": 5}), "result.scores"),
    (lambda r: r.update(result=[1, 2]), "'result' must be an object"),
    (lambda r: r["result"].update(winner=7), "result.winner"),
    (lambda r: r.update(version=True), "version"),
    (lambda r: r.update(version=1.0), "version"),
    (lambda r: r["deals"][0].update(dealer=1.0), "dealer"),
    (lambda r: r["deals"][0].update(actoins=[]), "unknown keys"),
])
def test_more_malformed_records(mutate, match):
    rec = copy.deepcopy(_base_record())
    mutate(rec)
    with pytest.raises(RecordError, match=match):
        replay(rec)


def test_tampered_winner_raises():
    st = _random_game(Rules(target=300), 2)
    rec = game_record(st)
    assert st.is_game_over
    rec["result"]["winner"] = 1 - st.winner
    with pytest.raises(RecordError, match="winner"):
        replay(rec)


def test_non_utf8_rules_file(tmp_path):
    p = tmp_path / "bin.yaml"
    p.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RuleOptionError, match="cannot read rules file"):
        load_rules(p)


def test_missing_rules_file_is_named_with_the_reason_once(tmp_path):
    with pytest.raises(RuleOptionError) as e:
        load_rules(tmp_path / "missing.yaml")
    assert str(e.value) == f"cannot read rules file {tmp_path / 'missing.yaml'} (No such file or directory)"


def test_unknown_keys_of_a_record_or_its_result_are_refused_by_name(tmp_path, capsys):
    """A misspelled key is refused, never ignored: ``Start`` would replay from 0 - 0 and
    ``result.winer`` would check nothing; every key a writer writes still loads."""
    from training.cli import main

    st = GameState(Rules(target=None), seed=5, scores=[420, 380], reserve=0, deal_number=6)
    rng = random.Random(1)
    while not st.is_deal_over:
        st.apply(rng.choice(st.legal_actions()))
    rec = json.loads(json.dumps({**game_record(st), "match": {"a": "normal", "b": "easy", "seats": ["normal"] * 4}}))
    assert sorted(rec) == ["action_table_version", "deals", "format", "match", "result", "rules", "start", "version"]
    assert sorted(rec["result"]) == ["game_over", "scores", "winner"]
    assert replay(rec).scores == st.scores  # every key written by game_record and save_match_game loads
    misspelled = {("Start" if k == "start" else k): v for k, v in rec.items() if k != "result"}  # no result to check
    write_record(tmp_path / "r.json", misspelled)
    assert main(["replay", str(tmp_path / "r.json")]) == 2
    assert ("record: unknown keys ['Start']; allowed: action_table_version, deals, format, match, result, rules, "
            "start, version") in capsys.readouterr().err
    bad = copy.deepcopy(rec)
    bad["result"]["winer"] = bad["result"].pop("winner")
    with pytest.raises(RecordError) as info:
        replay(bad)
    assert str(info.value) == "record 'result': unknown keys ['winer']; allowed: game_over, scores, winner"


def test_a_record_with_a_utf8_byte_order_mark_reads_and_replays(tmp_path, capsys):
    from training.cli import main

    st = _random_game(Rules(target=None), 4)
    path = save_game(st, tmp_path / "g.json")
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert read_record(bom) == read_record(path) == json.loads(path.read_text())
    assert main(["replay", str(bom)]) == 0
    assert f"final scores: team 0 {st.scores[0]}, team 1 {st.scores[1]}" in capsys.readouterr().out
