"""``belote serve``: rooms of people and bots over HTTP and a websocket (training.serve,
training.rooms), in process with Starlette's test client: whole deals played by messages,
the record saved after every action and resumed by a new server, the information rule
over the wire (RULES.md §11), and bad input answered with an error, the room unharmed."""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="belote serve needs starlette (pip install -e \".[serve]\")")
pytest.importorskip("httpx", reason="starlette's test client needs httpx (pip install -e \".[dev]\")")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from belote_env import GameState, Rules, load_rules  # noqa: E402
from belote_env.actions import ANNOUNCE_BELOTE, DECLARE  # noqa: E402
from belote_env.records import game_record, read_record, replay  # noqa: E402
from belote_env.render import contract_text  # noqa: E402
from belote_env.sampling import sample_hidden_hands  # noqa: E402
from training.rooms import Room, RoomError  # noqa: E402
import training.serve  # noqa: E402
from training.serve import MAX_MESSAGE, make_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _create(client, **spec):
    r = client.post("/api/rooms", content=json.dumps(spec))
    assert r.status_code == 200, r.text
    return r.json()


def _play_by_messages(ws, room_id, seat, token, rng, max_moves=400):
    """Join ``seat`` and play random legal actions until the game is over; returns every
    view received."""
    ws.send_text(json.dumps({"type": "join", "room": room_id, "seat": seat, "token": token}))
    views = []
    for _ in range(max_moves):
        msg = ws.receive_json()
        assert msg["type"] == "view", msg
        v = msg["view"]
        views.append(v)
        if v["phase"] == 3:
            return views
        assert v["legal"], "a view sent to the only human seat after a change asks it to act"
        ws.send_text(json.dumps({"type": "act", "action": rng.choice(v["legal"])["id"],
                                 "decision": v["decision"]}))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("rules, seats", [
    ("seed004", ["human", "normal", "normal", "normal"]),
    ("coinche", ["normal", "human", "easy", "normal"]),
    ("seed001_3p", ["easy", "normal", "human"]),
])
def test_a_deal_played_by_messages_ends_with_the_recorded_score(tmp_path, rules, seats):
    """A room of one person and bots, one deal: the person's messages play it to the end;
    the last view's scores are the saved record's, which ``belote replay`` reads."""
    app = make_app(tmp_path)
    with TestClient(app) as client:
        answer = _create(client, rules=rules, limit="deal", seats=seats, seed=7)
        seat = seats.index("human")
        assert list(answer["tokens"]) == [str(seat)]
        with client.websocket_connect("/ws") as ws:
            views = _play_by_messages(ws, answer["room"], seat, answer["tokens"][str(seat)], random.Random(3))
    record = read_record(tmp_path / answer["room"] / "game.json")
    state = replay(record)
    assert state.is_game_over and views[-1]["scores"] == list(state.scores)
    shown = views[-1]["deals"][-1]
    assert shown["points"] == list(state.deal_scores[-1].points)
    names = ("South", "West", "North", "East") if len(seats) == 4 else ("South", "West", "East")
    taker_team = state.deal_score.taker_team if len(seats) == 4 else None
    assert shown["text"].startswith(  # the taker named before the contract: never read as its coincher
        f"{state.deal_score.outcome}: {names[state.taker]} (team {taker_team}) took "
        f"{contract_text(state.contract)}" if len(seats) == 4 else
        f"maker {names[state.taker]} {state.deal_score.outcome}; totals South ")
    leader, cards, winner = state.tricks[-1]  # the deal's last trick, shown once the next deal begins
    assert shown["last_trick"] == {"leader": leader, "cards": list(cards), "winner": winner}
    assert all(len(v["hand_sizes"]) == len(seats) for v in views)
    assert all(v["sides"] == ([0, 1, 0, 1] if len(seats) == 4 else list(range(len(seats)))) for v in views)


def test_the_lobby_names_each_presets_game_and_table(tmp_path):
    with TestClient(make_app(tmp_path)) as client:
        opts = client.get("/api/options").json()
    assert opts["presets"][:1] == ["coinche"] and len(opts["presets"]) == len(opts["preset_labels"])
    assert opts["preset_labels"]["seed004"] == "classic Belote, 4 players"
    assert opts["preset_labels"]["coinche_pagat"] == "coinche (contrée), 4 players"
    assert opts["preset_labels"]["seed001_2p"] == "Belote for 2 players"
    assert opts["preset_players"]["seed001_3p"] == 3 and opts["preset_players"]["seed001_4p"] == 4


def test_a_restarted_server_resumes_the_room_at_its_decision(tmp_path):
    """Kill the server mid-deal (a new app on the same folder): the room is loaded at the
    decision it was at, its seat joins with the same token and the game goes on."""
    rng = random.Random(5)
    with TestClient(make_app(tmp_path)) as client:
        answer = _create(client, rules="seed004", limit="game", seats=["human", "normal", "normal", "normal"],
                         seed=11)
        room_id, token = answer["room"], answer["tokens"]["0"]
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "room": room_id, "seat": 0, "token": token}))
            for _ in range(9):  # a few of the person's decisions
                v = ws.receive_json()["view"]
                ws.send_text(json.dumps({"type": "act", "action": v["legal"][0]["id"], "decision": v["decision"]}))
            before = ws.receive_json()["view"]
    saved = replay(read_record(tmp_path / room_id / "game.json"))
    with TestClient(make_app(tmp_path)) as client:
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "room": room_id, "seat": 0, "token": token}))
            after = ws.receive_json()["view"]
            assert {k: after[k] for k in ("hand", "trick", "legal", "auction", "scores", "tricks")} == {
                k: before[k] for k in ("hand", "trick", "legal", "auction", "scores", "tricks")}
            assert after["hand"] == sorted(c for c in range(32) if saved.hands[0] >> c & 1)
            ws.send_text(json.dumps({"type": "act", "action": after["legal"][0]["id"],
                                     "decision": after["decision"]}))
            assert ws.receive_json()["type"] == "view"


def test_bad_messages_get_an_error_and_leave_the_room_unharmed(tmp_path):
    with TestClient(make_app(tmp_path)) as client:
        answer = _create(client, rules="seed004", limit="deal", seats=["human", "normal", "normal", "normal"],
                         seed=2)
        room_id, token = answer["room"], answer["tokens"]["0"]
        with client.websocket_connect("/ws") as ws:
            def error_for(payload) -> str:
                ws.send_text(payload if isinstance(payload, str) else json.dumps(payload))
                msg = ws.receive_json()
                assert msg["type"] == "error", msg
                return msg["message"]

            assert error_for("{not json").startswith("a message: not valid JSON (Expecting property name enclosed "
                                                      "in double quotes at line 1 column 2)")
            assert "at most" in error_for("x" * (MAX_MESSAGE + 1))
            assert "unknown message type" in error_for({"type": "shout"})
            assert "join a room's seat first" in error_for({"type": "act", "action": 33})
            assert "no room" in error_for({"type": "join", "room": "nope"})
            assert "wrong token for seat 0" in error_for({"type": "join", "room": room_id, "seat": 0, "token": "x"})
            assert "played by a bot" in error_for({"type": "join", "room": room_id, "seat": 1, "token": token})
            assert "seat must be 0..3" in error_for({"type": "join", "room": room_id, "seat": 9, "token": token})
            ws.send_text(json.dumps({"type": "join", "room": room_id, "seat": 0, "token": token}))
            v = ws.receive_json()["view"]
            legal = [a["id"] for a in v["legal"]]
            bad = next(a for a in range(112) if a not in legal)
            message = error_for({"type": "act", "action": bad, "decision": v["decision"]})
            assert message.startswith(f"illegal action {bad}; legal: [") and str(legal[0]) in message
            assert "illegal action" in error_for({"type": "act", "action": "33", "decision": v["decision"]})
            ws.send_text(json.dumps({"type": "act", "action": legal[0], "decision": v["decision"]}))  # the room goes on
            assert ws.receive_json()["type"] == "view"
        with client.websocket_connect("/ws") as ws:  # a flood: refused past the rate, not crashed
            replies = []
            for _ in range(60):
                ws.send_text(json.dumps({"type": "shout"}))
            for _ in range(60):
                replies.append(ws.receive_json()["message"])
            assert any("too many messages" in m for m in replies)
        r = client.post("/api/rooms", content="[1, 2]")
        assert r.status_code == 400 and "give \"rules\"" in r.json()["error"]
        r = client.post("/api/rooms", content=json.dumps({"rules": "nope", "seats": ["human"] * 4}))
        assert r.status_code == 400 and r.json()["error"].startswith("rules must be a preset (")
        r = client.post("/api/rooms", content=json.dumps({"rules": {"tie": "nope"}, "seats": ["human"] * 4}))
        assert r.status_code == 400 and r.json()["error"].startswith("rules: ") and "tie" in r.json()["error"]
        r = client.post("/api/rooms", content=json.dumps({"rules": "seed004", "seats": ["human", "wizard", "easy",
                                                                                        "easy"]}))
        assert r.status_code == 400 and "seat 1: 'wizard' is not a bot of this server" in r.json()["error"]
        r = client.post("/api/rooms", content=json.dumps({"rules": "seed004", "limit": 0, "seats": ["human"] * 4}))
        assert r.status_code == 400 and "limit must be 'game'" in r.json()["error"]


def test_a_watcher_is_sent_nothing_private(tmp_path):
    """A connection without a seat gets the public view: no hand, no legal actions."""
    with TestClient(make_app(tmp_path)) as client:
        answer = _create(client, rules="seed001_2p", limit="deal", seats=["human", "normal"], seed=4)
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "room": answer["room"]}))
            v = ws.receive_json()["view"]
            assert v["seat"] is None and v["hand"] == [] and v["legal"] == [] and v["discarded"] == []
            assert "join a room's seat first" in (ws.send_text(json.dumps({"type": "act", "action": 32})) or
                                                  ws.receive_json()["message"])


def _resampled(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` whose hidden cards were dealt again consistently with ``seat``'s
    information set: the other hands, and at two and three seats the cards nobody holds
    (the unused face-down cards and, for another seat, the taker's discards)."""
    deal = sample_hidden_hands(state.information_set(seat), rng)
    alt = state.clone()
    for s in range(state.n):
        if s != seat:
            alt.hands[s] = deal.hands[s]
    if not state.game.has_partners and state.taker >= 0:
        rest = deal.stock
        if state.discarded and seat != state.taker:  # two of the hidden cards were the discards
            low = sorted(c for c in range(32) if rest >> c & 1)[:2]
            alt.discarded = sum(1 << c for c in low)
            rest &= ~alt.discarded
        alt.unused = rest
    alt._legal = None
    return alt


@pytest.mark.parametrize("rules", ["seed004", "coinche", "seed001_2p", "seed001_3p",
                                   {"players": 3, "three_player_deal": "10_each"}])
def test_what_a_seat_is_sent_depends_on_its_information_set_only(tmp_path, rules):
    """The information rule over the wire (RULES.md §11): at every decision of a room's
    deals, what each seat and a watcher are sent is the same in a room whose hidden cards
    were dealt again consistently with that seat's information set."""
    r = load_rules(rules) if isinstance(rules, str) else Rules.from_dict(rules)
    seats = ["human"] + ["easy"] * (r.players - 1)
    room = Room.create(rules, "deal", seats, 3, tmp_path)
    rng = random.Random(1)
    checked = differed = 0
    while not room.over:
        for seat in range(r.players):
            twin = Room(room.id, room.rules_spec, room.limit, room.seats, room.seed, tmp_path / "twin",
                        room.tokens, _resampled(room.state, seat, rng))
            twin.log, twin.deals = room.log, room.deals
            differed += (twin.state.hands, twin.state.unused) != (room.state.hands, room.state.unused)  # redrawn
            assert twin.view(seat) == room.view(seat)
            assert twin.view(None) == room.view(None)
            checked += 1
        legal = room.view(0)["legal"]
        room.act(0, room.tokens[0], rng.choice(legal)["id"])
    assert checked >= 8 and differed >= checked // 3


def test_room_settings_are_checked_by_name(tmp_path):
    with pytest.raises(RoomError, match="seats must be a list of 3 kinds"):
        Room.create("seed001_3p", "game", ["human", "easy"], 1, tmp_path)
    with pytest.raises(RoomError, match="seed must be an int"):
        Room.create("seed004", "game", ["human"] * 4, -1, tmp_path)
    room = Room.create("seed004", 3, ["human", "easy", "easy", "easy"], 1, tmp_path)
    assert room.rules.max_deals == 3 and Room.load(tmp_path / room.id).tokens == room.tokens
    with pytest.raises(RoomError, match="not a saved room"):
        Room.load(tmp_path / "missing")
    with pytest.raises(RoomError, match=r"seed must be an int in 0..2\*\*128-1"):
        Room.create("seed004", "game", ["human"] * 4, 1 << 128, tmp_path)


def test_a_drawn_room_seed_is_too_large_to_search(tmp_path):
    """The seed decides every deck of the game (RULES.md §11): the server draws 128 bits,
    not a seed a seat could find by trying each one against the cards it was dealt; the
    room saves it and deals the same cards when loaded."""
    seeds = [Room.create("seed004", "deal", ["human", "human", "easy", "easy"], None, tmp_path).seed
             for _ in range(4)]
    assert len(set(seeds)) == 4 and max(seeds) >= 1 << 100
    room = Room.create("seed004", "deal", ["human", "human", "easy", "easy"], None, tmp_path)
    loaded = Room.load(tmp_path / room.id)
    assert loaded.seed == room.seed and loaded.state.hands == room.state.hands


def test_a_browser_seats_only_the_tiers_and_the_bots_the_server_was_started_with(tmp_path):
    """A room's bots are named: the tiers, ``<tier>+search``, and the names given to
    ``make_app(bots=...)`` (``belote serve --bot NAME=SPEC``); a path or a module sent by a
    browser is refused by name, never loaded or imported."""
    with TestClient(make_app(tmp_path, bots={"mine": "policies/models/hard"})) as client:
        assert "mine" in client.get("/api/options").json()["tiers"]
        for spec in ("os:abort", "policies/models/hard", "../../etc", "hard_oracle,normal"):
            r = client.post("/api/rooms", content=json.dumps({"rules": "seed004", "seats": ["human", spec, "easy",
                                                                                            "easy"]}))
            assert r.status_code == 400 and f"seat 1: {spec!r} is not a bot of this server" in r.json()["error"]
        answer = _create(client, rules="seed004", limit="deal", seats=["human", "mine", "hard+search", "easy"], seed=1)
    with pytest.raises(RoomError, match="'mine' is not a bot of this server"):
        Room.load(tmp_path / answer["room"])  # started again without the name: the room is not loaded
    assert Room.load(tmp_path / answer["room"], {"mine": "policies/models/hard"}).seats[1] == "mine"
    with pytest.raises(ValueError, match="a bot name is 1..40 letters"):
        make_app(tmp_path, bots={"a b": "hard"})


def test_a_room_refuses_a_bot_model_of_another_game_when_it_is_made(tmp_path):
    """A ``--bot`` model folder seated at a table of another game is refused when the room
    is made, naming the seat and both games, not when play reaches it."""
    with TestClient(make_app(tmp_path, bots={"mine": "policies/models/hard"})) as client:
        r = client.post("/api/rooms", content=json.dumps({"rules": "seed001_3p", "limit": "deal",
                                                          "seats": ["mine", "easy", "hard"]}))
        assert r.status_code == 400
        assert "seat 0: 'mine' cannot play these rules" in r.json()["error"]
        assert "a classic model" in r.json()["error"] and "three-player rules" in r.json()["error"]
    assert not any(tmp_path.iterdir())  # no room saved


def test_the_replay_viewer_steps_through_a_record_with_every_hand(tmp_path):
    """``POST /api/replay``: a frame per deal start and per action, every hand shown, each
    deal's result explained; a room's replay is served only once its game is over, as
    frames (not its decks: the cards no seat held stay unseen, TWO_THREE.md §5)."""
    from belote_env.records import game_record

    with TestClient(make_app(tmp_path)) as client:
        answer = _create(client, rules="seed001_3p", limit="deal", seats=["human", "easy", "easy"], seed=9)
        room_id, token = answer["room"], answer["tokens"]["0"]
        r = client.get(f"/api/rooms/{room_id}/replay")
        assert r.status_code == 403 and "hidden hands" in r.json()["error"]
        room = client.app.state.server.rooms[room_id]
        rng = random.Random(2)
        while not room.over:
            room.act(0, token, rng.choice(room.view(0)["legal"])["id"])
        record = json.loads(json.dumps(game_record(room.state)))
        game = client.post("/api/replay", content=json.dumps(record)).json()
        assert client.get(f"/api/rooms/{room_id}/replay").json() == game
        assert "deck" not in json.dumps(game)
        assert game["players"] == 3 and game["names"] == ["South", "West", "East"]
        frames = game["frames"]
        n_actions = sum(len(d["actions"]) for d in record["deals"])
        assert len(frames) == n_actions + len(record["deals"])  # a frame per deal start and per action
        assert frames[-1]["result"]["points"] == list(room.state.deal_scores[-1].points)
        assert frames[-1]["scores"] == list(room.state.scores)
        assert frames[-1]["exchanged"] == room.state.exchanged and frames[0]["exchanged"] == -1  # the seven's exchange
        first = frames[0]
        assert first["move"] is None and sum(len(h) for h in first["hands"]) == 18  # 6 cards each, all shown
        bad = dict(record, deals=[dict(record["deals"][0], actions=[[0, 999]])])
        r = client.post("/api/replay", content=json.dumps(bad))
        assert r.status_code == 400 and r.json()["error"].startswith("not a record that replays")
        assert client.post("/api/replay", content="x" * 10).status_code == 400


def test_a_body_that_is_not_json_is_told_the_parsers_reason_and_position(tmp_path):
    """Each parse failure names its reason and position (as ``belote replay``), never the
    body's cards; deep nesting keeps its own message; a UTF-8 byte-order mark is allowed."""
    record = json.loads(json.dumps(game_record(GameState(Rules(), seed=3))))
    body = json.dumps(record, indent=1)
    line = body[:body.index('"deck"')].count("\n") + 1
    truncated = body[:body.index('"deck"') + len('"deck": ')]  # cut right after the key: the cards are not sent
    with TestClient(make_app(tmp_path)) as client:
        def error(content) -> str:
            r = client.post("/api/replay", content=content)
            assert r.status_code == 400, r.text
            return r.json()["error"]

        assert error(b"") == "a record: not valid JSON (Expecting value at line 1 column 1)"
        assert error(truncated) == f"a record: not valid JSON (Expecting value at line {line} column 12)"  # `   "deck": `
        assert error('{"n": ' + "9" * 5000 + "}") == (
            "a record: not valid JSON (Exceeds the limit (4300 digits) for integer string conversion: value has 5000 "
            "digits; use sys.set_int_max_str_digits() to increase the limit)")
        assert error(b"{\"a\": \"\xff\"}") == "a record: not UTF-8 text (byte 7)"
        assert error("[" * 5000) == "a record must be JSON (nested at most a few hundred levels)"
        r = client.post("/api/replay", content=b"\xef\xbb\xbf" + body.encode())
        assert r.status_code == 200 and len(r.json()["frames"]) == 1


def test_hints_are_the_hard_tiers_card_values_of_the_seat_to_play(tmp_path):
    """``{"type": "hints"}``: the hard tier's value of each legal card of the seat (from its
    information set), nothing while it does not play a card, refused without a seat."""
    from policies import make_policy

    with TestClient(make_app(tmp_path)) as client:
        answer = _create(client, rules="seed004", limit="deal", seats=["human", "normal", "normal", "normal"], seed=3)
        room_id, token = answer["room"], answer["tokens"]["0"]
        room = client.app.state.server.rooms[room_id]
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hints"}))
            assert "join a room's seat first" in ws.receive_json()["message"]
            ws.send_text(json.dumps({"type": "join", "room": room_id, "seat": 0, "token": token}))
            v = ws.receive_json()["view"]
            while not any(a["id"] < 32 for a in v["legal"]):  # through the auction
                ws.send_text(json.dumps({"type": "hints"}))
                assert ws.receive_json() == {"type": "hints", "unit": "points", "values": {}}
                ws.send_text(json.dumps({"type": "act", "action": v["legal"][-1]["id"], "decision": v["decision"]}))
                v = ws.receive_json()["view"]
            ws.send_text(json.dumps({"type": "hints"}))
            answer_ = ws.receive_json()
            values = answer_["values"]
            assert answer_["unit"] == "points"
        hard = make_policy("hard", rules=room.rules)
        want = hard.card_values(room.state.information_set(0))
        assert sorted(map(int, values)) == sorted(want) == sorted(a["id"] for a in v["legal"] if a["id"] < 32)
        assert all(abs(values[str(c)] - round(162 * w, 1)) < 1e-6 for c, w in want.items())


def test_a_room_of_bots_only_is_played_by_the_server_for_its_watchers(tmp_path):
    """Every seat a bot: the server plays it move by move (``bot_delay`` apart), saving
    after every move, and its watchers are sent each move; a restarted server goes on."""
    with TestClient(make_app(tmp_path, bot_delay=0.0)) as client:
        answer = _create(client, rules="seed001_2p", limit="deal", seats=["easy", "normal"], seed=6)
        assert answer["tokens"] == {}
        room = client.app.state.server.rooms[answer["room"]]
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "room": answer["room"]}))
            seen = 0
            while True:
                v = ws.receive_json()["view"]
                seen += 1
                if v["phase"] == 3:
                    break
        assert room.over and seen >= 10 and v["deals"][-1]["points"] == list(room.state.deal_scores[-1].points)
    assert replay(read_record(tmp_path / answer["room"] / "game.json")).is_game_over
    with pytest.raises(ValueError, match="bot_delay must be seconds"):
        make_app(tmp_path, bot_delay=-1)


def test_a_bots_only_room_pauses_only_after_a_public_move(tmp_path, monkeypatch):
    """RULES.md §11: a bot's hidden choice (a belote announcement or a declaration, public
    only with its next card) is not followed by the pause between moves, whose length would
    show it to the watchers: the pauses are exactly the moves a watcher sees."""
    import asyncio

    real_sleep, pauses = asyncio.sleep, []

    async def sleep(delay, *args, **kwargs):
        if delay == 0.0123:  # the server's pause between two bot moves
            pauses.append(delay)
            delay = 0
        return await real_sleep(delay, *args, **kwargs)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    from belote_env.actions import ANNOUNCE_BELOTE, DECLARE

    hidden_seen = False
    for seed in range(1, 8):
        pauses.clear()
        with TestClient(make_app(tmp_path / str(seed), bot_delay=0.0123)) as client:
            answer = _create(client, rules={"declarations": "choice", "belote": "optional"}, limit="deal",
                             seats=["normal"] * 4, seed=seed)
            room = client.app.state.server.rooms[answer["room"]]
            with client.websocket_connect("/ws") as ws:
                ws.send_text(json.dumps({"type": "join", "room": answer["room"]}))
                while ws.receive_json()["view"]["phase"] != 3:
                    pass
        actions = [a for deal in room.state.deal_log for _, a in deal["actions"]]
        hidden = sum(a in (ANNOUNCE_BELOTE, DECLARE) for a in actions)
        assert len(pauses) == len(actions) - hidden  # a pause before each public move, none after a hidden one
        hidden_seen |= hidden > 0
    assert hidden_seen  # some bot announced or declared in these deals


def test_input_that_once_crashed_or_leaked_is_refused_by_name(tmp_path):
    """Rules are presets or option mappings, never a server file; binary frames, deep
    nesting, odd characters and oversized bodies get an error; another site's page may
    not create rooms or watch them; a chosen seed is refused where two people play."""
    with TestClient(make_app(tmp_path)) as client:
        for rules in ("/etc/passwd", "pyproject.toml", "/dev/stdin", "\udcff.yaml"):
            r = client.post("/api/rooms", content=json.dumps({"rules": rules, "seats": ["human"] * 4}))
            assert r.status_code == 400 and r.json()["error"].startswith("rules must be a preset (coinche, "), rules
            assert "root:" not in r.text
        r = client.post("/api/rooms", content="[" * 4000)
        assert r.status_code == 400 and "nested at most" in r.json()["error"]
        r = client.post("/api/rooms", content="x" * (MAX_MESSAGE + 1))
        assert r.status_code == 400 and "at most 4,096 bytes" in r.json()["error"]
        r = client.post("/api/rooms", content=json.dumps({"rules": "seed004", "seats": ["human"] * 4}),
                        headers={"Origin": "http://evil.example"})
        assert r.status_code == 403
        r = client.post("/api/rooms", content=json.dumps({"rules": "seed004", "seats": ["human", "human", "easy",
                                                                                        "easy"], "seed": 5}))
        assert r.status_code == 400 and "a seed is taken for a room of at most one person" in r.json()["error"]
        r = client.post("/api/rooms", content=json.dumps({"rules": {"target": None}, "limit": 3,
                                                          "seats": ["human", "easy", "easy", "easy"]}))
        assert r.status_code == 400 and "needs rules with a target" in r.json()["error"]
        answer = _create(client, rules="seed004", limit="deal", seats=["human", "easy", "easy", "easy"], seed=1)
        with client.websocket_connect("/ws") as ws:
            ws.send_bytes(b"\x00\x01")
            assert "binary frame" in ws.receive_json()["message"]
            ws.send_text("[" * 3000)
            assert "nested at most" in ws.receive_json()["message"]
            ws.send_text(json.dumps({"type": "join", "room": answer["room"], "seat": 0, "token": "\ud800"}))
            assert "wrong token for seat 0" in ws.receive_json()["message"]
        with pytest.raises(Exception):
            with client.websocket_connect("/ws", headers={"Origin": "http://evil.example"}) as ws:
                ws.send_text(json.dumps({"type": "join", "room": answer["room"]}))
                ws.receive_json()


class _Broken:
    name = "broken"

    def act(self, info):
        raise RuntimeError("hidden: " + str(info.hand))


def make_broken():
    return _Broken()


def test_a_failing_bot_stops_its_room_by_name_and_saves_the_move_before(tmp_path):
    """A bot that raises (or returns an illegal action) stops the room: the person's move
    before it is saved, every later move is refused with the reason (never the bot's
    message: it could show its hand), and the room loads again stopped."""
    with TestClient(make_app(tmp_path, bots={"broken": "tests.test_serve:make_broken"})) as client:
        # dealer 0: seat 1 bids first (RULES.md §3.2)
        r = client.post("/api/rooms", content=json.dumps({"rules": "seed004", "seats": ["human", "broken", "easy",
                                                                                        "easy"], "seed": 1}))
        assert r.status_code == 400 and "the bot at seat 1 (broken) raised RuntimeError" in r.json()["error"]
        answer = _create(client, rules="seed004", limit="deal", seats=["easy", "human", "broken", "easy"], seed=1)
        room = client.app.state.server.rooms[answer["room"]]
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "room": answer["room"], "seat": 1, "token": answer["tokens"]["1"]}))
            v = ws.receive_json()["view"]
            ws.send_text(json.dumps({"type": "act", "action": v["legal"][0]["id"], "decision": v["decision"]}))
            v = ws.receive_json()["view"]
            assert v["failed"] == "the bot at seat 2 (broken) raised RuntimeError: the room is stopped"
            assert "hidden" not in json.dumps(v)
            ws.send_text(json.dumps({"type": "act", "action": 32, "decision": v["decision"]}))
            assert ws.receive_json()["message"] == v["failed"]
    saved = replay(read_record(tmp_path / answer["room"] / "game.json"))
    assert saved.actions == room.state.actions and len(saved.actions) >= 1
    assert Room.load(tmp_path / answer["room"], {"broken": "tests.test_serve:make_broken"}).failed == v["failed"]


def test_a_restarted_server_keeps_the_public_log_and_the_deals_explained(tmp_path):
    room = Room.create("seed004", "game", ["human", "easy", "easy", "easy"], 3, tmp_path)
    rng = random.Random(4)
    while len(room.deals) < 2:
        room.act(0, room.tokens[0], rng.choice(room.view(0)["legal"])["id"])
    again = Room.load(tmp_path / room.id)
    assert again.view(0) == room.view(0) and all(d["text"] for d in again.deals)


@pytest.mark.parametrize("rules", ["seed004", {"players": 2, "declarations": "choice", "belote": "optional"},
                                   "seed001_3p"])
def test_each_logged_move_says_its_kind_and_the_view_counts_the_moves(tmp_path, rules):
    """What the table draws one at a time (web/table.js): a move is a ``bid`` (the auction's),
    a ``card`` of a trick or a ``step`` (the seven's exchange, a discard, an answer);
    ``log_count`` counts every move logged, also past the log's last 60 and after a restart."""
    room = Room.create(rules, "deal", ["human"] + ["easy"] * (2 if rules == "seed001_3p" else 1 if isinstance(
        rules, dict) else 3), 5, tmp_path)
    rng = random.Random(2)
    while not room.over:
        room.act(0, room.tokens[0], rng.choice(room.view(0)["legal"])["id"])
    ends = [i for i, e in enumerate(room.log) if "deal_over" in e]
    last = room.log[(ends[-2] + 1 if len(ends) > 1 else 0):ends[-1]]  # the played deal's moves
    st = room.state
    assert [e["move"] for e in last].count("card") == sum(len(t[1]) for t in st.tricks)
    assert [e["move"] for e in last].count("bid") == len(st.auction.history)
    assert {e["label"] for e in last if e["move"] == "step"} <= {
        "a choice", "keep", "exchange 7 of trump", "enough", "not enough", "equal", "declare", "decline declaration",
        "announce belote", "decline belote"}
    assert any(e["move"] == "step" for e in last) == isinstance(rules, dict)  # the seven's exchange, the answers
    if len(ends) > 1:  # deals passed out before: bids only
        assert all(e["move"] == "bid" for e in room.log[:ends[-2]] if "deal_over" not in e)
    view = room.view(0)
    assert view["log_count"] == len(room.log) and view["log"] == room.log[-60:]


def test_the_move_count_is_kept_past_the_saved_log_and_across_restarts(tmp_path):
    """A room saves its last 60 moves; ``log_count`` still counts them all after a restart,
    and goes on from there."""
    room = Room.create("seed004", "game", ["human", "easy", "easy", "easy"], 3, tmp_path)
    rng = random.Random(4)
    while len(room.log) < 100:
        room.act(0, room.tokens[0], rng.choice(room.view(0)["legal"])["id"])
    again = Room.load(tmp_path / room.id)
    assert len(again.log) == 60 and again.view(0)["log_count"] == len(room.log) > 60
    again.act(0, again.tokens[0], again.view(0)["legal"][0]["id"])
    third = Room.load(tmp_path / room.id)
    assert third.view(0)["log_count"] == again.view(0)["log_count"] > len(room.log)


def test_a_saved_room_with_a_bad_log_count_is_refused(tmp_path):
    import json

    room = Room.create("seed004", "deal", ["human", "easy", "easy", "easy"], 5, tmp_path)
    room.act(0, room.tokens[0], room.view(0)["legal"][0]["id"])
    meta = json.loads((tmp_path / room.id / "room.json").read_text())
    for bad in (len(meta["log"]) - 1, "3", True):
        (tmp_path / room.id / "room.json").write_text(json.dumps({**meta, "log_count": bad}))
        with pytest.raises(RoomError, match="'log_count' must be an int from the log's length"):
            Room.load(tmp_path / room.id)


def test_announcements_and_declarations_are_public_with_the_card(tmp_path):
    """A belote announcement and a four-seat declaration are not logged when chosen (they
    become public with the seat's next card, RULES.md §5-§6); the card's entry names them;
    the declarations are in every seat's view."""
    room = Room.create({"declarations": "choice", "belote": "optional"}, "deal", ["human", "easy", "easy", "easy"],
                       11, tmp_path)
    rng = random.Random(0)
    chose = []
    while not room.over:
        legal = [a["id"] for a in room.view(0)["legal"]]
        pick = next((a for a in legal if a in (DECLARE, ANNOUNCE_BELOTE)), rng.choice(legal))
        n_log = len(room.log)
        room.act(0, room.tokens[0], pick)
        if pick in (DECLARE, ANNOUNCE_BELOTE):
            chose.append(pick)
            assert room.log[n_log]["seat"] != 0 or room.log[n_log]["label"] not in ("declare", "announce belote")
    labels = [e.get("label", "") for e in room.log if e.get("seat") == 0]
    assert "declare" not in labels and "announce belote" not in labels
    if DECLARE in chose:
        assert any("declares" in x for x in labels) and room.view(1)["declared"][0]


def test_hints_at_three_seats_are_the_hard_policys_probabilities(tmp_path):
    room = Room.create("seed001_3p", "deal", ["human", "easy", "easy"], 2, tmp_path)
    rng = random.Random(1)
    while not any(a["id"] < 32 for a in room.view(0)["legal"]):
        room.act(0, room.tokens[0], rng.choice(room.view(0)["legal"])["id"])
    unit, values = room.hints(0, room.tokens[0])
    assert unit == "percent" and abs(sum(values.values()) - 100.0) < 1.0
    assert set(values) <= {a["id"] for a in room.view(0)["legal"]}


def test_the_viewer_can_show_the_hard_tiers_values_at_each_card(tmp_path):
    """``?values=1``: each card's frame holds the hard tier's values of the legal cards of
    the seat that played it, from its information set then (``card_hints``)."""
    from belote_env.records import game_record, replay_steps
    from policies import make_policy
    from training.rooms import card_hints

    room = Room.create("seed004", "deal", ["human", "easy", "easy", "easy"], 5, tmp_path)
    rng = random.Random(3)
    while not room.over:
        room.act(0, room.tokens[0], rng.choice(room.view(0)["legal"])["id"])
    record = json.loads(json.dumps(game_record(room.state)))
    with TestClient(make_app(tmp_path)) as client:
        plain = client.post("/api/replay", content=json.dumps(record)).json()["frames"]
        valued = client.post("/api/replay?values=1", content=json.dumps(record)).json()["frames"]
        assert client.post("/api/replay?values=yes", content=json.dumps(record)).status_code == 400
    assert all("values" not in f for f in plain)
    hard = make_policy("hard", rules=room.rules)
    want = [card_hints(hard, st.information_set(st.current)) for _, _, st, a, _ in replay_steps(record)
            if a < 32 and st.phase == 1]
    got = [(f["unit"], {int(c): v for c, v in f["values"].items()}) for f in valued if "values" in f]
    assert got == want and len(got) == 32  # the 32 cards of the deal


# ---------------------------------------------------------------- what each connection is sent
_ROOM_ID = "roomOfPeople"


def _choosing(legal, rng: random.Random) -> int:
    """A belote announcement or a declaration whenever one is legal, else a random legal action."""
    return next((a for a in legal if a in (ANNOUNCE_BELOTE, DECLARE)), None) or rng.choice(legal)


def _seed_choosing(rules: dict, want: set, folder) -> int:
    """A seed whose deal, played by ``_choosing``, has every choice of ``want``."""
    n = Rules.from_dict(rules).players
    for seed in range(300):
        room = Room(_ROOM_ID, rules, "deal", ["human"] * n, seed, folder)
        rng, chose = random.Random(0), set()
        while not room.over:
            seat = room.state.current_seat
            action = _choosing(room.state.legal_actions(), rng)
            chose.add(action)
            room.act(seat, room.tokens[seat], action)
        if want <= chose:
            return seed
    raise AssertionError(f"no seed of 0..299 has {want}")


@pytest.mark.parametrize("rules, hidden", [
    ({"declarations": "choice", "belote": "optional"}, {ANNOUNCE_BELOTE, DECLARE}),
    ({"contract_mode": "coinche", "belote": "optional"}, {ANNOUNCE_BELOTE}),
    ({"players": 2, "belote": "optional"}, {ANNOUNCE_BELOTE}),
    ({"players": 3, "belote": "optional"}, {ANNOUNCE_BELOTE}),
])
def test_a_connection_is_sent_a_view_only_when_what_it_sees_changed(tmp_path, monkeypatch, rules, hidden):
    """RULES.md §11 over the wire: after every action of a deal each seat and a watcher get
    one view when theirs changed, none when it did not. A belote announcement (and a
    four-seat declaration) is made public with the seat's next card: choosing it sends the
    other seats and the watcher nothing (a view sent again unchanged would say that seat
    holds the pair), the seat that chose gets its new view."""
    monkeypatch.setattr(training.serve, "RATE", 1e6)  # the pings below are not a flood
    n = Rules.from_dict(rules).players
    seed = _seed_choosing(rules, hidden, tmp_path / "probe")
    app = make_app(tmp_path)
    room = Room(_ROOM_ID, rules, "deal", ["human"] * n, seed, tmp_path / _ROOM_ID)
    app.state.server._add(room)
    with TestClient(app) as client, contextlib.ExitStack() as stack:
        conns = [stack.enter_context(client.websocket_connect("/ws")) for _ in range(n + 1)]  # the seats, a watcher
        for s, ws in enumerate(conns):
            ws.send_text(json.dumps({"type": "join", "room": _ROOM_ID, "seat": s, "token": room.tokens[s]} if s < n
                                    else {"type": "join", "room": _ROOM_ID}))
        last = [ws.receive_json()["view"] for ws in conns]

        def sent_to(ws) -> list[dict]:
            """The views ``ws`` was sent before the answer to a ping (messages arrive in order)."""
            ws.send_text(json.dumps({"type": "ping"}))
            views = []
            while (msg := ws.receive_json())["type"] == "view":
                views.append(msg["view"])
            assert "unknown message type 'ping'" in msg["message"]
            return views

        rng, chosen = random.Random(0), []
        while not room.over:
            seat = room.state.current_seat
            action = _choosing(room.state.legal_actions(), rng)
            conns[seat].send_text(json.dumps({"type": "act", "action": action, "decision": last[seat].get("decision")}))
            got = {seat: sent_to(conns[seat])}  # its act and the views it sent are done
            got.update({i: sent_to(ws) for i, ws in enumerate(conns) if i != seat})
            for i in range(n + 1):
                now = json.loads(json.dumps(room.view(i if i < n else None)))
                assert got[i] == ([] if now == last[i] else [now]), (i, action)
                last[i] = now
            if action in hidden:
                chosen.append(action)
                assert len(got[seat]) == 1 and all(got[i] == [] for i in range(n + 1) if i != seat)
    assert set(chosen) == hidden


def test_an_act_answers_one_decision_and_a_repeated_act_is_refused(tmp_path):
    """Each view carries the seat's decision number (its actions so far); an act names the
    decision it answers: the same act sent twice (a double click on "pass") is applied
    once and the second is refused naming the seat's decision now; an act without a
    decision is refused."""
    with TestClient(make_app(tmp_path)) as client:
        for seed in range(40):  # a deal where the person bids
            answer = _create(client, rules="seed004", limit="deal", seats=["human", "easy", "easy", "easy"], seed=seed)
            room = client.app.state.server.rooms[answer["room"]]
            if any(a["label"] == "pass" for a in room.view(0)["legal"]):
                break
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "room": answer["room"], "seat": 0,
                                     "token": answer["tokens"]["0"]}))
            v = ws.receive_json()["view"]
            assert v["decision"] == 0
            for decision in ("missing", "0", None, True):
                act = {"type": "act", "action": v["legal"][0]["id"]}
                ws.send_text(json.dumps(act if decision == "missing" else {**act, "decision": decision}))
                message = ws.receive_json()["message"]
                assert message.startswith("an act names the decision it answers: {\"type\": \"act\", \"action\": id, "
                                          "\"decision\": k}, k the view's \"decision\" (seat 0's is 0), got "), message
            pass_ = next(a["id"] for a in v["legal"] if a["label"] == "pass")
            for _ in range(2):  # a double click
                ws.send_text(json.dumps({"type": "act", "action": pass_, "decision": 0}))
            after = ws.receive_json()["view"]
            refused = ws.receive_json()
            assert after["decision"] == 1 and refused == {
                "type": "error", "message": "this act answers decision 0, seat 0's decision is 1 (a repeated message "
                                            "is not applied to the next decision)"}
        assert [a for s, a in room.state.actions if s == 0] == [pass_]
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "room": answer["room"]}))
            assert ws.receive_json()["view"]["decision"] is None  # a watcher decides nothing


@pytest.mark.parametrize("rules", [{"contract_mode": "coinche", "generale": True},
                                   {"contract_mode": "coinche", "max_numeric_bid": 180}])
def test_hints_under_coinche_rules_of_the_extended_action_table(tmp_path, rules):
    """A générale or bids above 160 (412 action ids): the hard tier plays them with the ids
    it knows, so a room's hints give its value of each legal card, and the room goes on."""
    with TestClient(make_app(tmp_path)) as client:
        answer = _create(client, rules=rules, limit="deal", seats=["human", "easy", "easy", "easy"], seed=4)
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "room": answer["room"], "seat": 0,
                                     "token": answer["tokens"]["0"]}))
            v = ws.receive_json()["view"]
            while not any(a["id"] < 32 for a in v["legal"]):  # through the auction
                ws.send_text(json.dumps({"type": "act", "action": v["legal"][0]["id"], "decision": v["decision"]}))
                v = ws.receive_json()["view"]
            ws.send_text(json.dumps({"type": "hints"}))
            msg = ws.receive_json()
            cards = sorted(a["id"] for a in v["legal"] if a["id"] < 32)
            assert msg["type"] == "hints" and msg["unit"] == "points"
            assert sorted(int(c) for c in msg["values"]) == cards
            ws.send_text(json.dumps({"type": "act", "action": v["legal"][0]["id"], "decision": v["decision"]}))
            assert ws.receive_json()["view"]["decision"] == v["decision"] + 1  # still open, the room goes on


# ---------------------------------------------------------------- the names a server answers to
def test_a_server_answers_only_requests_sent_to_its_own_names(tmp_path):
    """DNS rebinding: a page of another site whose name now resolves to this machine sends
    that name as ``Host`` (and as ``Origin``): refused with 400 naming the names served, a
    websocket closed. A loopback server answers localhost, 127.0.0.1 and ::1; an exposed
    one also any IP address and the names it was given."""
    spec = json.dumps({"rules": "seed004", "limit": "deal", "seats": ["human", "easy", "easy", "easy"]})
    with TestClient(make_app(tmp_path, host="127.0.0.1"), base_url="http://localhost:8000") as client:
        for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST", "localhost."):
            assert client.get("/api/rooms", headers={"host": host}).status_code == 200, host
        for host in ("evil.example:8000", "192.168.1.5:8000", "localhost.evil.example", ""):
            r = client.post("/api/rooms", content=spec, headers={"host": host, "origin": f"http://{host}"})
            assert r.status_code == 400 and r.json()["error"].startswith(
                f"Host {host.partition(':')[0]!r} is not a name of this server (127.0.0.1, ::1, localhost); "), host
        assert client.get("/", headers={"host": "evil.example"}).status_code == 400
        assert client.app.state.server.rooms == {}
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect("ws://evil.example:8000/ws") as ws:
                ws.send_text(json.dumps({"type": "join", "room": "x"}))
                ws.receive_json()
        with client.websocket_connect("ws://localhost:8000/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "room": "x"}))
            assert ws.receive_json()["message"] == "no room 'x'"
    exposed = make_app(tmp_path, host="0.0.0.0", allowed_hosts=["Belote.example.org"])
    with TestClient(exposed, base_url="http://belote.example.org") as client:
        for host, status in (("belote.example.org", 200), ("192.168.1.5:8000", 200), ("[fe80::1]:80", 200),
                             ("localhost", 200), ("evil.example", 400), ("192.168.1.5.nip.io", 400)):
            assert client.get("/api/rooms", headers={"host": host}).status_code == status, host


def test_more_host_names_are_given_in_belote_serve_hosts(tmp_path, monkeypatch):
    import uvicorn

    served = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.update(app=app, **kw))
    monkeypatch.setenv("BELOTE_SERVE_HOSTS", "belote.example.org, tables.lan")
    training.serve.serve("0.0.0.0", 8123, tmp_path)
    with TestClient(served["app"]) as client:
        assert served["port"] == 8123
        for host, status in (("tables.lan:8123", 200), ("belote.example.org", 200), ("evil.example", 400)):
            assert client.get("/api/options", headers={"host": host}).status_code == status, host
    # ``belote serve --allow-host NAME`` gives them instead of the environment variable
    from training.cli import main

    assert main(["serve", "--host", "0.0.0.0", "--port", "8124", "--rooms", str(tmp_path / "r"),
                 "--allow-host", "cards.lan"]) == 0
    with TestClient(served["app"]) as client:
        for host, status in (("cards.lan", 200), ("tables.lan", 400), ("127.0.0.1", 200)):
            assert client.get("/api/options", headers={"host": host}).status_code == status, host


def test_belote_serve_refuses_a_host_it_cannot_listen_on_before_starting(tmp_path, monkeypatch, capsys):
    import uvicorn

    from training.cli import main

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: pytest.fail("started"))
    assert main(["serve", "--host", "bad host", "--port", "8125", "--rooms", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "--host 'bad host': not an address or a name this machine resolves" in err and "listening" not in err


# ---------------------------------------------------------------- rooms on disk
_KILLED_MID_SAVE = """
import os, random, sys
from training.rooms import Room

room = Room.create("seed004", "game", ["human", "easy", "easy", "easy"], 5, sys.argv[1])
real, renames = os.replace, []

def replace(src, dst):  # belote_env.atomic's last step
    if room.deals:  # the save of the first deal's last card
        renames.append(dst)
        if len(renames) > int(sys.argv[2]):
            os._exit(9)  # killed here: the temporary file written, not renamed
    real(src, dst)

os.replace = replace
rng = random.Random(0)
while True:
    room.act(0, room.tokens[0], rng.choice(room.state.legal_actions()))
"""


@pytest.mark.parametrize("renames_done", [0, 1])
def test_a_room_killed_mid_save_is_loaded_whole_and_its_temporary_files_removed(tmp_path, renames_done):
    """A server killed at any point of a save (here the save of the move that ends a deal:
    before its first rename, or between its two) leaves a room that a new server loads at
    one decision, the deals listed those its game played (the move in or out as a whole),
    ``game.json`` its record again, and no temporary file behind."""
    run = subprocess.run([sys.executable, "-c", _KILLED_MID_SAVE, str(tmp_path), str(renames_done)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 9, run.stderr[-2000:]
    (folder,) = tmp_path.iterdir()
    assert [p.name.split(".")[1] for p in folder.glob(".*.tmp")] == [["room", "game"][renames_done]]
    room = make_app(tmp_path).state.server.rooms[folder.name]
    assert list(folder.glob(".*.tmp")) == []
    assert [d["points"] for d in room.deals] == [list(d.points) for d in room.state.deal_scores]
    assert len(room.deals) == renames_done  # the deal's last card saved whole, or not at all
    assert sum("deal_over" in e for e in room.log) == renames_done
    assert read_record(folder / "game.json") == json.loads(json.dumps(game_record(room.state)))


def test_a_room_saved_in_two_files_before_loads(tmp_path):
    """Rooms saved before the one-file ``room.json`` (its record in ``game.json`` only) load."""
    room = Room.create("seed004", "game", ["human", "easy", "easy", "easy"], 3, tmp_path)
    rng = random.Random(4)
    for _ in range(12):
        room.act(0, room.tokens[0], rng.choice(room.view(0)["legal"])["id"])
    path = tmp_path / room.id / "room.json"
    meta = json.loads(path.read_text())
    assert meta.pop("game") == read_record(tmp_path / room.id / "game.json")
    path.write_text(json.dumps(meta))
    assert Room.load(tmp_path / room.id).view(0) == room.view(0)


def _damage(meta: dict, folder: Path, how: str) -> Path:
    """``meta`` (a room.json) damaged ``how``; returns the damaged room.json's path."""
    if how == "copied":  # a second folder holding the same room
        copy = folder.with_name("copyOfaRoom0")
        shutil.copytree(folder, copy)
        return copy / "room.json"
    if how == "token not a string":
        meta["tokens"]["0"] = 12345
    elif how == "token for a bot seat":
        meta["tokens"]["1"] = secrets.token_urlsafe(16)
    elif how == "rules not the game's":
        meta["rules"] = "coinche"
    elif how == "log not a list":
        meta["log"] = "<b>hi</b>"
    (folder / "room.json").write_text(json.dumps(meta))
    return folder / "room.json"


@pytest.mark.parametrize("how, why", [
    ("token not a string", "'tokens' must map seats to tokens of 22 url-safe characters"),
    ("token for a bot seat", "'tokens' are for seats [0, 1], its human seats are [0]"),
    ("rules not the game's", "its rules 'coinche' are not its game's {"),
    ("log not a list", "'log' and 'deals' must be lists of objects"),
    ("copied", "its id "),
])
def test_a_damaged_room_on_disk_is_skipped_with_a_warning_naming_its_file(tmp_path, caplog, how, why):
    """A server starting skips a room whose ``room.json`` is damaged (bad tokens, rules
    other than its game's, a log that is not one, the same room in a second folder), with
    a warning naming the file and the problem; the other rooms are served."""
    damaged = Room.create("seed004", "game", ["human", "easy", "easy", "easy"], 3, tmp_path)
    damaged.act(0, damaged.tokens[0], damaged.view(0)["legal"][0]["id"])
    sound = Room.create("seed004", "deal", ["human", "easy", "easy", "easy"], 4, tmp_path)
    path = _damage(json.loads((tmp_path / damaged.id / "room.json").read_text()), tmp_path / damaged.id, how)
    with caplog.at_level("WARNING", logger="training.serve"):
        server = make_app(tmp_path).state.server
    want = {sound.id} if how != "copied" else {sound.id, damaged.id}
    assert set(server.rooms) == want
    (skipped,) = server.skipped
    assert skipped.startswith(f"{path}: not a saved room: {why}"), skipped
    assert caplog.messages == [f"belote serve: skipped {skipped}"]


# ---------------------------------------------------------------- the page's links (node runs table.js)
_ROUTE = r"""
const vm = require("vm"), fs = require("fs");
const { path, cases, tokens } = JSON.parse(fs.readFileSync(0, "utf8"));  // stdin
const src = fs.readFileSync(path, "utf8");
const els = {}, store = new Map(), replaced = [], sockets = [];
const ctx = {
  document: { getElementById: (id) => (els[id] = els[id] || (id === "pace" ? { options: [], add(o) {} } : {})) },
  Option: class { constructor(text, value) { this.text = text; this.value = value; } },
  localStorage: { getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, String(v)) },
  location: { hash: "", origin: "http://localhost", protocol: "http:", host: "localhost",
              replace: (h) => replaced.push(h) },
  window: { addEventListener() {} },
  fetch: () => new Promise(() => {}),  // the lobby waits forever
  WebSocket: class { constructor(url) { sockets.push(url); } send() {} close() {} },
  URLSearchParams, JSON, Promise, Object,
};
vm.createContext(ctx);
vm.runInContext(src, ctx);
(async () => {
  const out = [];
  for (const hash of cases) {
    store.clear(); replaced.length = 0; sockets.length = 0; els.status = {};
    ctx.location.hash = hash;
    await ctx.route();
    out.push({ stored: Object.fromEntries(store), replaced: [...replaced], sockets: sockets.length,
               status: els.status.textContent || "" });
  }
  store.set("belote-tokens-r", JSON.stringify({ 0: tokens[0], "1\"><img>": tokens[1], 2: "<b>", 3: tokens[3] }));
  const accepted = tokens.filter((t) => ctx.badLink(new URLSearchParams(`room=aaaaaaaaaaaa&seat=0&token=${t}`)) === "");
  console.log(JSON.stringify({ out, kept: ctx.storedTokens("r"), accepted: accepted.length }));
})();
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no node on PATH (Debian: apt-get install nodejs)")
def test_the_page_keeps_a_links_seat_and_token_only_in_the_servers_forms(tmp_path):
    """``table.js`` (run by node, the page's objects stubbed): an invite link is kept (its
    token in the local storage, the address without it) only when its room id, seat and
    token are of the forms the server makes (every token of real rooms passes); a link
    with markup in its seat or token is refused, kept nowhere, and so is a stored token
    under a seat that is not a number."""
    tokens = [t for _ in range(12)
              for t in Room(_ROOM_ID, "seed004", "game", ["human"] * 4, 1, tmp_path).tokens.values()]
    room, token = "aB3-_x9ZqW0k", tokens[0]
    xss = '0"><img src=x onerror="document.title=1">'
    cases = [f"#room={room}&seat=2&token={token}", f"#room={room}&seat={xss}&token=x",
             f"#room={room}&seat=1&token={xss}", f"#room={room}&seat=1&token={token}x",
             f"#room={room}\"><b>&seat=1&token={token}", f"#room={room}&seat={xss}", f"#room={room}&seat=3"]
    run = subprocess.run(["node", "-e", _ROUTE], capture_output=True, text=True, timeout=60, input=json.dumps(
        {"path": str(ROOT / "training/web/table.js"), "cases": cases, "tokens": tokens}))
    assert run.returncode == 0, run.stderr[-2000:]
    got = json.loads(run.stdout)
    first, *refused, watch = got["out"]
    assert first == {"stored": {f"belote-tokens-{room}": json.dumps({"2": token}, separators=(",", ":"))},
                     "replaced": [f"#room={room}&seat=2"], "sockets": 0, "status": ""}
    for case in refused:
        assert case["stored"] == {} and case["replaced"] == [] and case["sockets"] == 0
        assert case["status"].startswith("this link is refused: its "), case
    assert watch["sockets"] == 1 and watch["stored"] == {}  # a well-formed seat opens the table
    assert got["kept"] == {"0": tokens[0], "3": tokens[3]} and got["accepted"] == len(tokens) == 48


def test_a_client_that_does_not_read_holds_no_rooms_lock(tmp_path):
    """A join's view is read under the room's lock and sent after it: a websocket whose send
    never completes (a client that does not read) leaves the room's moves free."""
    import asyncio

    from training.serve import _Client

    room = Room.create("seed004", "deal", ["human", "easy", "easy", "easy"], 3, tmp_path)

    class Stuck:
        def __init__(self):
            self.sent = []

        async def send_text(self, text):
            self.sent.append(text)
            await asyncio.Event().wait()  # never read

    async def scenario():
        lock, ws = asyncio.Lock(), Stuck()
        task = asyncio.create_task(_Client(ws, 0).send_view(room, lock))
        await asyncio.sleep(0.05)
        assert ws.sent and json.loads(ws.sent[0])["view"]["seat"] == 0 and not lock.locked()
        async with lock:  # a move of the room goes on
            room.act(0, room.tokens[0], room.view(0)["legal"][0]["id"])
        task.cancel()

    asyncio.run(scenario())


def test_a_broadcast_drops_a_client_that_does_not_read_and_serves_the_others(tmp_path, monkeypatch):
    import asyncio
    import time

    from training.serve import _Client, _Server

    monkeypatch.setattr(training.serve, "SEND_TIMEOUT", 0.2)
    server = _Server(tmp_path / "rooms")
    room = Room.create("seed004", "deal", ["human", "human", "easy", "easy"], None, tmp_path)
    server._add(room)

    class Stuck:
        async def send_text(self, text):
            await asyncio.Event().wait()

        async def close(self):
            pass

    class Reader:
        def __init__(self):
            self.sent = []

        async def send_text(self, text):
            self.sent.append(json.loads(text))

    async def scenario():
        stuck, reader = _Client(Stuck(), 0), _Client(Reader(), 1)
        server.clients[room.id] |= {stuck, reader}
        start = time.perf_counter()
        await server.broadcast(room)
        return time.perf_counter() - start, stuck, reader

    took, stuck, reader = asyncio.run(scenario())
    assert reader.ws.sent[0]["view"]["seat"] == 1 and server.clients[room.id] == {reader}
    assert took < 5  # the stuck client's time-out, not the others' wait
