"""``belote serve``: rooms of people and bots over HTTP and a websocket (training.serve,
training.rooms), in process with Starlette's test client: whole deals played by messages,
the record saved after every action and resumed by a new server, the information rule
over the wire (RULES.md §11), and bad input answered with an error, the room unharmed."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette", reason="belote serve needs starlette (pip install -e \".[serve]\")")
pytest.importorskip("httpx", reason="starlette's test client needs httpx (pip install -e \".[dev]\")")

from starlette.testclient import TestClient  # noqa: E402

from belote_env import GameState, Rules, load_rules  # noqa: E402
from belote_env.actions import ANNOUNCE_BELOTE, DECLARE  # noqa: E402
from belote_env.records import read_record, replay  # noqa: E402
from belote_env.sampling import sample_hidden_hands  # noqa: E402
from training.rooms import Room, RoomError  # noqa: E402
from training.serve import MAX_MESSAGE, make_app  # noqa: E402


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
        ws.send_text(json.dumps({"type": "act", "action": rng.choice(v["legal"])["id"]}))
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
    assert shown["text"].startswith(f"{state.deal_score.outcome}: " if len(seats) == 4 else
                                    f"maker {names[state.taker]} {state.deal_score.outcome}; totals South ")
    assert all(len(v["hand_sizes"]) == len(seats) for v in views)


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
                ws.send_text(json.dumps({"type": "act", "action": v["legal"][0]["id"]}))
            before = ws.receive_json()["view"]
    saved = replay(read_record(tmp_path / room_id / "game.json"))
    with TestClient(make_app(tmp_path)) as client:
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "room": room_id, "seat": 0, "token": token}))
            after = ws.receive_json()["view"]
            assert {k: after[k] for k in ("hand", "trick", "legal", "auction", "scores", "tricks")} == {
                k: before[k] for k in ("hand", "trick", "legal", "auction", "scores", "tricks")}
            assert after["hand"] == sorted(c for c in range(32) if saved.hands[0] >> c & 1)
            ws.send_text(json.dumps({"type": "act", "action": after["legal"][0]["id"]}))
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

            assert "must be JSON" in error_for("{not json")
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
            message = error_for({"type": "act", "action": bad})
            assert message.startswith(f"illegal action {bad}; legal: [") and str(legal[0]) in message
            assert "illegal action" in error_for({"type": "act", "action": "33"})
            ws.send_text(json.dumps({"type": "act", "action": legal[0]}))  # the room goes on
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
        first = frames[0]
        assert first["move"] is None and sum(len(h) for h in first["hands"]) == 18  # 6 cards each, all shown
        bad = dict(record, deals=[dict(record["deals"][0], actions=[[0, 999]])])
        r = client.post("/api/replay", content=json.dumps(bad))
        assert r.status_code == 400 and r.json()["error"].startswith("not a record that replays")
        assert client.post("/api/replay", content="x" * 10).status_code == 400


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
                ws.send_text(json.dumps({"type": "act", "action": v["legal"][-1]["id"]}))
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
            ws.send_text(json.dumps({"type": "act", "action": v["legal"][0]["id"]}))
            v = ws.receive_json()["view"]
            assert v["failed"] == "the bot at seat 2 (broken) raised RuntimeError: the room is stopped"
            assert "hidden" not in json.dumps(v)
            ws.send_text(json.dumps({"type": "act", "action": 32}))
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
