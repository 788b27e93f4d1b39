"""A duplicate match's games saved as records (``duplicate_match(games_dir=...)``, ``belote
eval --games-dir``) and opened in the replay viewer (``training.rooms.replay_frames``), with
the hard tier's or the expert's values of each card."""

from __future__ import annotations

import json

import pytest

from belote_env import Rules
from belote_env.records import read_record, replay
from training.evaluate import duplicate_match
from training.rooms import RoomError, _expert_values, replay_frames


@pytest.mark.parametrize("rules, mode, names", [
    (Rules(), "deal", [f"pair{i:06d}-{c}.json" for i in range(3) for c in (0, 1)]),
    (Rules(target=300), "game", [f"pair{i:06d}-{c}.json" for i in range(3) for c in (0, 1)]),
    (Rules(players=3), "deal", [f"set{i:06d}-{j}.json" for i in range(3) for j in range(6)]),
])
def test_every_game_of_a_match_is_saved_and_replays_to_the_matchs_scores(tmp_path, rules, mode, names):
    """Each copy of each pair (each seating of each set) is a record of its own whose
    replay gives the points the match counted: the per-pair differences rebuilt from the
    records equal the match's."""
    result = duplicate_match("normal", "easy", 3, seed=5, rules=rules, mode=mode, games_dir=tmp_path / "games")
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == names
    for name in names:
        record = read_record(tmp_path / "games" / name)
        m = record["match"]
        assert (m["a"], m["b"], m["seed"]) == ("normal", "easy", 5)
        assert sorted(set(m["seats"])) == ["easy", "normal"] and len(m["seats"]) == rules.players
        assert replay(record).is_deal_over
    if rules.players == 4:  # copy c: the team A (normal) held, seats c and c + 2
        for i in range(3):
            for copy in (0, 1):
                seats = read_record(tmp_path / "games" / f"pair{i:06d}-{copy}.json")["match"]["seats"]
                assert seats[copy] == seats[copy + 2] == "normal"


def test_saved_games_rebuild_the_matchs_mean_difference(tmp_path):
    """The mean over pairs of the per-deal differences read back from the saved records is
    the match's ``mean_diff``: the records are the games the match scored."""
    result = duplicate_match("normal", "easy", 4, seed=9, games_dir=tmp_path)
    per_pair = []
    for i in range(4):
        diffs = []
        for copy in (0, 1):
            state = replay(read_record(tmp_path / f"pair{i:06d}-{copy}.json"))
            diffs += [d.difference(copy) for d in state.deal_scores]
        per_pair.append(sum(diffs) / len(diffs))
    assert sum(per_pair) / 4 == pytest.approx(result.mean_diff)


def test_games_dir_is_refused_with_a_batched_match_or_when_it_is_a_file(tmp_path):
    with pytest.raises(ValueError, match="batched match saves no games"):
        duplicate_match("normal", "easy", 2, batched=True, games_dir=tmp_path)
    (tmp_path / "f").write_text("x")
    with pytest.raises(ValueError, match="is a file, not a folder"):
        duplicate_match("normal", "easy", 2, games_dir=tmp_path / "f")


def test_the_viewer_names_who_sat_where_in_a_match_game(tmp_path):
    duplicate_match("normal", "easy", 1, seed=2, games_dir=tmp_path)
    record = read_record(tmp_path / "pair000000-1.json")
    game = replay_frames(record)
    assert game["match"] == {"seats": ["easy", "normal", "easy", "normal"], "a": "normal", "b": "easy", "pair": 0,
                             "copy": 1, "seed": 2}
    record["match"] = {"seats": ["x"] * 5}  # malformed: left out, the game still replays
    assert "match" not in replay_frames(record)


def test_the_expert_values_of_one_deal_are_its_search_at_each_card(tmp_path):
    """``values="expert"`` with ``deal``: each card frame of that deal holds the expert's
    searched values (``last_values``, its side's deal difference in points) from the seat's
    information set, reseeded per decision so they repeat; the other deals have none."""
    from belote_env.records import replay_events
    from policies import make_policy

    rules = Rules(players=2)
    duplicate_match("normal", "easy", 1, seed=4, rules=rules, mode="game", games_dir=tmp_path)
    record = read_record(tmp_path / "set000000-0.json")
    assert len(record["deals"]) >= 2
    game = replay_frames(record, "expert", deal=1)
    valued = [f for f in game["frames"] if "values" in f]
    assert valued and {f["deal"] for f in valued} == {1} and {f["by"] for f in valued} == {"expert"}
    expert = make_policy("expert", seed=0, rules=rules)
    want = [_expert_values(expert, st.information_set(st.current), f"viewer-{i}-{j}")
            for kind, i, j, st, a, _ in replay_events(record) if kind == "before" and i == 1 and a < 32 and st.phase == 1]
    got = [(f["unit"], {int(c): v for c, v in f["values"].items()}) for f in valued]
    assert got == want
    assert any(len(v) > 1 for _, v in got)  # a real search: several cards valued
    assert replay_frames(record, "expert", deal=1) == game  # the same values again
    with pytest.raises(RoomError, match="values must be one of hard, expert"):
        replay_frames(record, "oracle")


def test_the_replay_api_takes_values_and_a_deal(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from training.serve import make_app

    duplicate_match("normal", "easy", 1, seed=4, rules=Rules(players=2), games_dir=tmp_path / "g")
    body = (tmp_path / "g" / "set000000-0.json").read_text()
    with TestClient(make_app(tmp_path / "rooms")) as client:
        r = client.post("/api/replay?values=expert", content=body)
        assert r.status_code == 400 and "values=expert needs deal=<index>" in r.json()["error"]
        assert client.post("/api/replay?values=hard&deal=x", content=body).status_code == 400
        assert "values must be 0, 1 or one of" in client.post("/api/replay?values=2", content=body).json()["error"]
        game = client.post("/api/replay?values=expert&deal=0", content=body).json()
        assert game["match"]["seats"] in (["normal", "easy"], ["easy", "normal"])
        assert {f["by"] for f in game["frames"] if "values" in f} == {"expert"}
        hard = client.post("/api/replay?values=hard&deal=0", content=body).json()
        assert {f["by"] for f in hard["frames"] if "values" in f} == {"hard"}
        assert json.loads(body)["match"]["b"] == "easy"


def test_belote_eval_games_dir(tmp_path, capsys):
    from training.cli import main

    assert main(["eval", "normal", "easy", "--pairs", "2", "--seed", "1", "--games-dir", str(tmp_path / "g"),
                 "--no-progress"]) == 0
    assert len(list((tmp_path / "g").iterdir())) == 4
    (tmp_path / "file").write_text("")
    assert main(["eval", "normal", "easy", "--pairs", "2", "--games-dir", str(tmp_path / "file")]) == 2
    assert "--games-dir" in capsys.readouterr().err


def test_a_games_dir_that_cannot_be_written_is_refused_before_any_game():
    import os

    if not os.path.isdir("/proc/self"):
        pytest.skip("needs Linux's /proc (a folder nobody can write in, root included)")
    with pytest.raises(ValueError, match="cannot be written"):
        duplicate_match("normal", "easy", 2, games_dir="/proc/self")


def test_the_replay_api_refuses_bad_deals_and_values_clearly(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from training.serve import make_app

    duplicate_match("normal", "easy", 1, seed=4, games_dir=tmp_path / "g")
    record = json.loads((tmp_path / "g" / "pair000000-0.json").read_text())
    with TestClient(make_app(tmp_path / "rooms")) as client:
        post = lambda rec, q="": client.post(f"/api/replay{q}", content=json.dumps(rec))  # noqa: E731
        assert post(record, "?deal=%C2%B2").status_code == 400  # '²' is a digit to str.isdigit, not an index
        r = post(record, "?values=expert&deal=99")
        assert r.status_code == 400 and "deal 99 is not a deal of the record" in r.json()["error"]
        odd = dict(record, match={**record["match"], "seats": ["\ud800", "b", "c", "d"]})
        r = client.post("/api/replay", content=json.dumps(odd, ensure_ascii=True))
        assert r.status_code == 200 and r.json()["match"]["seats"][0] == "?"
        bad = dict(record, deals=[dict(record["deals"][0], actions=7)])
        assert post(bad).status_code == 400
        from belote_env import load_rules

        duplicate_match("random", "random", 1, seed=1, rules=load_rules("coinche", generale=True),
                        games_dir=tmp_path / "gen")
        generale = json.loads((tmp_path / "gen" / "pair000000-0.json").read_text())
        assert post(generale).status_code == 200  # it replays
        r = post(generale, "?values=hard")  # the hard tier plays a générale rule set with the ids it knows
        valued = [f for f in r.json()["frames"] if "values" in f]
        assert r.status_code == 200 and valued and all(f["by"] == "hard" and f["unit"] == "points" for f in valued)


def test_values_of_a_whole_long_record_are_asked_one_deal_at_a_time(monkeypatch):
    import training.rooms as rooms

    monkeypatch.setattr(rooms, "MAX_VALUED_ACTIONS", 10)
    from belote_env import Rules as R

    import tempfile

    with tempfile.TemporaryDirectory() as d:
        duplicate_match("normal", "easy", 1, seed=4, rules=R(), games_dir=d)
        record = json.loads(open(f"{d}/pair000000-0.json").read())
    with pytest.raises(RoomError, match="one deal at a time"):
        replay_frames(record, "hard")
    assert any("values" in f for f in replay_frames(record, "hard", deal=len(record["deals"]) - 1)["frames"])


def test_a_pairs_log_given_to_the_viewer_is_told_where_the_games_are(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from training.serve import make_app

    duplicate_match("normal", "easy", 2, pairs_log=tmp_path / "pairs.jsonl")
    with TestClient(make_app(tmp_path / "rooms")) as client:
        r = client.post("/api/replay", content=(tmp_path / "pairs.jsonl").read_bytes())
    assert r.status_code == 400 and "--games-dir" in r.json()["error"]


def test_an_interval_of_zero_width_is_said_to_be_too_few_pairs_not_a_certainty():
    from training.evaluate import _no_spread_note, duplicate_match

    assert _no_spread_note(5, "pair", (0.2, 0.4), (-3.0, 1.0)) == []
    assert _no_spread_note(1, "set", (0.5, 0.5)) == [
        "  (an interval of zero width above: 1 set without spread, too few to estimate it; play more)"]
    one = duplicate_match("random", "random", pairs=1, seed=3)  # a single pair: no spread to estimate
    assert "  (an interval of zero width above: 1 pair without spread, too few to estimate it; play more)" \
        in one.summary().splitlines()
    many = duplicate_match("random", "easy", pairs=30, seed=3)
    assert "zero width" not in many.summary()


def test_the_interval_of_a_few_pairs_is_students_t_not_the_normals(tmp_path):
    """Four per-pair differences 1, 2, 3, 4: mean 2.5, standard error sqrt(5/3)/2, and the
    95% quantile of Student's t with 3 degrees of freedom, 3.1824 (the normal's 1.96 covers
    85% there); a 4-pair match's point difference and win rate get the same t on their
    per-pair figures (read from its pairs log). A thousand pairs: 1.9623, the normal's
    1.96 within rounding."""
    import json
    import math
    import statistics

    from training.evaluate import mean_ci

    t3 = 3.182446305284263  # Student's t, 0.975 quantile, 3 degrees of freedom (tables)
    mean, lo, hi = mean_ci([1, 2, 3, 4])
    half = t3 * math.sqrt(5 / 3) / 2
    assert mean == 2.5 and math.isclose(lo, 2.5 - half) and math.isclose(hi, 2.5 + half)
    _, lo, hi = mean_ci([0.0, 1.0] * 500)
    for values, level in (([], 0.95), ([1.0, 2.0], 1.0), ([1.0, 2.0], 0)):
        with pytest.raises(ValueError, match="an interval needs one value or more and a level in"):
            mean_ci(values, level)
    assert math.isclose((hi - lo) / 2, 1.962341 * math.sqrt(0.25 * 1000 / 999 / 1000), rel_tol=1e-6)
    log = tmp_path / "pairs.jsonl"
    r = duplicate_match("random", "normal", 4, seed=2, pairs_log=log)
    tally = json.loads(log.read_text().splitlines()[1])["tally"]
    for got, values, clip in ((r.mean_diff_ci, tally["diffs"], False),
                              (r.deal_win_rate_ci, tally["deal_wins"], True)):
        m, half = statistics.mean(values), t3 * statistics.stdev(values) / 2
        want = (max(0.0, m - half), min(1.0, m + half)) if clip else (m - half, m + half)
        assert half > 0 and all(math.isclose(g, w, abs_tol=1e-9) for g, w in zip(got, want)), (got, want)
