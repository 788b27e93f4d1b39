"""``belote serve``: the table in the browser (Starlette + uvicorn, websockets).

    belote serve [--host 127.0.0.1] [--port 8000] [--rooms belote_rooms] [--bot NAME=SPEC ...]

then open http://127.0.0.1:8000/. The server answers only requests whose ``Host`` is one of
its names (a page of another site that rebinds its own name to this machine is refused:
DNS rebinding): bound to a loopback address, ``localhost``, ``127.0.0.1`` and ``::1``;
bound to another address, these, that address and any IP address; and the names people type
to reach an exposed server, given by ``--allow-host NAME`` (repeatable) or else the environment
variable ``BELOTE_SERVE_HOSTS`` (comma-separated): ``belote serve --host 0.0.0.0 --allow-host
belote.example.org``. Another ``Host`` is answered 400 (a websocket is closed before it opens).

The page (``training/web/``: plain HTML, CSS and JavaScript shipped with the package, no
build step, nothing fetched from the internet) creates rooms, lists them, and shows the
table of one seat. It takes a seat's token from an invite link (``#room=<id>&seat=<s>&token=<t>``)
only when the room id, seat and token are of the server's forms.

HTTP:

* ``GET /``: the page; ``GET /static/...``: its files.
* ``GET /api/options``: the rule presets, the bots a room may seat (the tiers, ``<tier>+search``
  and the ``--bot`` names) and the room limits.
* ``GET /api/rooms``: the rooms (``Room.summary``: public).
* ``POST /api/replay`` with a game record (JSON, at most ``MAX_RECORD`` bytes: ``belote play
  --save``, a room's ``game.json``, a duplicate match's failure record; every variant): the
  replay viewer's frames (``rooms.replay_frames``: every hand, the auction, each trick,
  each deal's score explained; ``?values=hard`` (or ``1``): with the hard tier's value of
  each legal card at every card decision; ``?values=expert&deal=i``: the expert's, for deal
  ``i`` only, about 0.2 s a card (one such request at a time); ``?deal=i`` alone limits the hard values to that deal; a
  duplicate match's games, ``belote eval --games-dir``, carry who sat where).
* ``GET /api/rooms/{id}/replay``: a finished room's game as the viewer's frames (every hand;
  not the cards no seat ever held, TWO_THREE.md §5), once its game is over (403 before);
  ``values`` and ``deal`` as above.
* ``POST /api/rooms`` with JSON ``{"rules": "<preset>" or {options}, "limit": "game" |
  "deal" | n, "seats": ["human", "hard", ...], "seed": optional int}``: a new room;
  answers ``{"room": id, "tokens": {seat: token}}`` (the human seats' tokens: keep them,
  they are the only way to act for those seats). Errors: 400 with ``{"error": message}``.

Websocket ``/ws``: JSON messages of at most ``MAX_MESSAGE`` bytes, at most ``RATE``
a second per connection (more are answered with an error and dropped).

* ``{"type": "join", "room": id, "seat": s, "token": t}`` takes seat ``s`` (its token
  needed); ``{"type": "join", "room": id}`` watches (no seat: nothing private is sent).
* ``{"type": "act", "action": id, "decision": k}``: the joined seat's action (an id of its
  ``legal`` list), answering its decision ``k`` (the view's ``"decision"``: the number of
  the seat's actions so far in the game). A stale or missing ``decision`` (a repeated
  message, a double click) is refused with an error naming the seat's decision now.
* ``{"type": "hints"}``: the hard tier's value of each legal card of the joined seat (points,
  from its information set only; at two and three seats the hard policy's probabilities in
  percent), answered ``{"type": "hints", "unit": "points" | "percent", "values": {card: x}}``
  (empty when the seat is not to play a card), or an error saying why a room has none.
* The server sends ``{"type": "view", "view": {...}}`` (``Room.view``: ``rooms.view_of`` of
  the seat's information set, RULES.md §11, with ``"failed"`` and ``"decision"``) after the
  join and after every change of what that connection sees: never a view equal to the last
  one it was sent (another seat's hidden choice, a belote announcement or a declaration
  made with the next card, sends nothing), and ``{"type": "error", "message": ...}`` for a
  refused message (the room is unharmed).

Rooms are saved after every action and loaded again when the server starts
(``training.rooms``); a browser that reloads joins its seat again with the token kept in
its local storage.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from belote_env.jsonfile import DataFileError, parse_json, short_repr
from belote_env.records import game_record

from .rooms import LIMITS, MAX_ROOMS, VALUE_TIERS, Room, RoomError, bot_names, remove_leftovers, replay_frames

__all__ = ["make_app", "serve", "MAX_MESSAGE", "MAX_RECORD", "RATE"]

#: the lobby's name of each variant (``config.variant_of``)
VARIANT_LABELS = {"classic": "classic Belote, 4 players", "coinche": "coinche (contrée), 4 players",
                  "two": "Belote for 2 players", "three": "Belote for 3 players"}

#: seconds a client may take to receive a view before it is dropped (``_Server.broadcast``)
SEND_TIMEOUT = 10.0
#: the largest websocket message or request body accepted (bytes)
MAX_MESSAGE = 4096
#: messages a second one connection may send (a burst of as many is allowed)
RATE = 20.0
#: the largest record the replay viewer reads (bytes)
MAX_RECORD = 2_000_000
#: seconds between two moves of a room of bots only (``belote serve --bot-delay``)
BOT_DELAY = 0.8
WEB = Path(__file__).resolve().parent / "web"
#: the names of this machine a loopback server answers to (``Host``)
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
_log = logging.getLogger(__name__)


class _Client:
    """One websocket joined to a room: its seat (None: a watcher) and the last view it was
    sent, as sent (JSON text)."""

    __slots__ = ("ws", "seat", "last", "sending")

    def __init__(self, ws, seat: int | None):
        self.ws, self.seat, self.last = ws, seat, None
        self.sending = asyncio.Lock()  # one view at a time to this client, in the order they were read

    async def send_view(self, room: Room, lock: asyncio.Lock) -> None:
        """Send ``room``'s view of this seat unless it equals the last one sent: a view sent
        again unchanged would tell a seat that another made a hidden choice (a belote
        announcement, a declaration: RULES.md §11). The view is read under ``lock`` (the
        room's) and sent after it is released: a client that does not read its messages
        holds up no one else's moves."""
        async with self.sending:  # one at a time: a view read later is sent later
            async with lock:
                view = room.view(self.seat)
            text = json.dumps({"type": "view", "view": view}, ensure_ascii=False, separators=(",", ":"))
            if text != self.last:
                self.last = text
                await self.ws.send_text(text)


class _Server:
    """The rooms of one server and the connections watching them."""

    def __init__(self, rooms_dir: Path, bots: dict[str, str] | None = None, bot_delay: float = BOT_DELAY):
        self.dir = Path(rooms_dir)
        self.bots = dict(bots or {})
        self.bot_delay = bot_delay
        self.tasks: set = set()
        self.bot_turn = asyncio.Lock()
        self.rooms: dict[str, Room] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.clients: dict[str, set[_Client]] = {}
        self.skipped: list[str] = []
        if self.dir.is_dir():
            for folder in sorted(self.dir.iterdir()):
                if not folder.is_dir():
                    continue
                remove_leftovers(folder)  # of a save killed mid-write
                if (folder / "room.json").is_file():
                    try:
                        room = Room.load(folder, self.bots)
                    except RoomError as e:  # a damaged room: named, the others served
                        self.skipped.append(str(e))
                        _log.warning("belote serve: skipped %s", e)
                        continue
                    self._add(room)

    def evict(self) -> bool:
        """Forget (in memory; their files stay) the finished rooms nobody watches, oldest
        first, to make room for a new one; True when one was forgotten."""
        done = [r for r in self.rooms.values() if (r.over or r.failed) and not self.clients[r.id]]
        for room in done[:max(1, len(done) // 2)]:
            del self.rooms[room.id], self.locks[room.id], self.clients[room.id]
        return bool(done)

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        self.locks[room.id] = asyncio.Lock()
        self.clients[room.id] = set()

    def start_bots(self, room: Room) -> None:
        """Play a room of bots only, a public move every ``bot_delay`` seconds (a hidden choice
        is followed by the next move at once), for its watchers (saved after every move),
        until its game is over."""
        if not room.bots_only or room.over:
            return

        async def play() -> None:
            pause = True
            while not room.over and room.failed is None:
                if pause:
                    await asyncio.sleep(self.bot_delay)
                async with self.bot_turn, self.locks[room.id]:  # one bot move at a time: people go first
                    before = room.view(None)
                    await asyncio.to_thread(self._bot_move, room)
                    # no pause after a hidden choice (a belote announcement, a declaration made
                    # with the next card): the gap would show it to the watchers (RULES.md §11)
                    pause = room.view(None) != before
                await self.broadcast(room)

        task = asyncio.get_running_loop().create_task(play())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @staticmethod
    def _bot_move(room: Room) -> None:
        room.run_bots(1)
        room.save()

    async def broadcast(self, room: Room) -> None:
        """Send every client of ``room`` its own view where it changed (``_Client.send_view``:
        read under the room's lock), to all at once; a closed connection, or one that has not
        taken its view within ``SEND_TIMEOUT`` seconds (a client that does not read), is
        dropped, so that it holds up no one."""
        async def send(client: _Client) -> None:
            try:
                await asyncio.wait_for(client.send_view(room, self.locks[room.id]), SEND_TIMEOUT)
            except Exception:
                self.clients[room.id].discard(client)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(client.ws.close(), 1.0)

        await asyncio.gather(*(send(c) for c in list(self.clients[room.id])))


async def _json_body(request, limit: int, what: str):
    """The request's JSON body, or a string saying why not: over ``limit`` bytes (read no
    further), not JSON, nested too deep."""
    too_big = f"{what} is at most {limit:,} bytes"
    try:
        if int(request.headers.get("content-length", "0")) > limit:
            return None, too_big
    except ValueError:
        return None, "a bad Content-Length"
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None, too_big
    request.state.body_head = bytes(body[:64])
    return _loads(bytes(body), what)


def _is_pairs_log(why: str, request) -> bool:
    """A body that failed as JSON because it is a pairs log (JSON lines, the first a
    ``belote_pairs_log`` header: ``training.evaluate``)."""
    return ": not valid JSON (" in why and \
        getattr(request.state, "body_head", b"").lstrip().startswith(b'{"belote_pairs_log"')


def _loads(text, what: str):
    """``(value, None)`` or ``(None, why)`` for a JSON text (bytes: UTF-8, a byte-order mark
    allowed): why names the parser's reason and position (``jsonfile.parse_json``: no text
    of the body), or deep nesting."""
    try:
        return parse_json(text, what), None
    except DataFileError as e:
        if str(e).endswith("(nested too deeply)"):
            return None, f"{what} must be JSON (nested at most a few hundred levels)"
        return None, str(e)


def _same_origin(headers) -> bool:
    """A browser's request from this server's own page: no ``Origin`` header (not a
    browser, or same-origin GET), or one naming the host it was sent to (a page of another
    site may not create rooms or watch them: cross-site requests are refused)."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    return origin.split("://", 1)[-1] == host


def _host_of(header: str) -> str:
    """The name in a ``Host`` header, lower case, without its port or a final dot
    (``"[::1]:8000"`` -> ``"::1"``, ``"Example.org.:80"`` -> ``"example.org"``)."""
    name = header.strip().lower()
    if name.startswith("["):
        return name[1:].partition("]")[0]
    if name.count(":") == 1:
        name = name.partition(":")[0]
    return name.rstrip(".")


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


class _HostCheck:
    """ASGI middleware: a request whose ``Host`` is not a name of the server is refused (400;
    a websocket is closed before it opens): a page of another site whose name was rebound
    to this machine (DNS rebinding) sends its own name. ``names``: the names accepted;
    ``any_ip``: any IP address too (an address typed in a browser is no other site's)."""

    def __init__(self, app, names: frozenset[str], any_ip: bool):
        self.app, self.names, self.any_ip = app, names, any_ip

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            from starlette.datastructures import Headers

            name = _host_of(Headers(scope=scope).get("host", ""))
            if name not in self.names and not (self.any_ip and _is_ip(name)):
                if scope["type"] == "websocket":
                    from starlette.websockets import WebSocketClose

                    await WebSocketClose(code=1008)(scope, receive, send)
                    return
                known = ", ".join(sorted(self.names)) + (" and any IP address" if self.any_ip else "")
                await _error(f"Host {name[:60]!r} is not a name of this server ({known}); a server reached by "
                             "another name is started with --allow-host NAME (or BELOTE_SERVE_HOSTS)")(
                    scope, receive, send)
                return
        await self.app(scope, receive, send)


def _host_names(host: str, extra: Sequence[str] = ()) -> tuple[frozenset[str], bool]:
    """``(names, any_ip)`` a server bound to ``host`` answers to (``_HostCheck``): bound to
    a loopback address, ``LOOPBACK_NAMES``; bound to another, these, ``host`` and any IP
    address; and the ``extra`` names."""
    name = _host_of(host)
    loopback = name in LOOPBACK_NAMES or (_is_ip(name) and ipaddress.ip_address(name).is_loopback)
    names = {*LOOPBACK_NAMES, name, *(_host_of(x) for x in extra if x.strip())}
    return frozenset(names), not loopback


def _values_query(params) -> tuple[str | None, int | None, str]:
    """``(values, deal, why)`` of a replay request's ``values`` (``0``, ``1``, a name of
    ``VALUE_TIERS``) and ``deal`` (a deal index) query parameters; ``why`` says what is
    wrong ("" when nothing). The expert's values need a deal (its search takes about 0.2 s
    a card)."""
    want = params.get("values", "0")
    values = {"0": None, "1": "hard"}.get(want, want)
    if values is not None and values not in VALUE_TIERS:
        return None, None, f"values must be 0, 1 or one of {', '.join(VALUE_TIERS)}, got {want[:40]!r}"
    deal = params.get("deal")
    if deal is not None:
        if not (deal.isascii() and deal.isdigit()) or len(deal) > 4:
            return None, None, f"deal must be a deal index 0..9999, got {deal[:40]!r}"
        deal = int(deal)
    if values == "expert" and deal is None:
        return None, None, "values=expert needs deal=<index>: the expert searches every card (about 0.2 s each)"
    return values, deal, ""


def _error(message: str, status: int = 400):
    from starlette.responses import JSONResponse

    return JSONResponse({"error": message.encode("utf-8", "replace").decode()}, status_code=status)


def make_app(rooms_dir: str | Path = "belote_rooms", bots: dict[str, str] | None = None,
             bot_delay: float = BOT_DELAY, host: str | None = None, allowed_hosts: Sequence[str] = ()):
    """The Starlette app of ``belote serve``, its rooms saved under ``rooms_dir``; ``bots``:
    extra bot names a room may seat and their ``make_policy`` specs (a model folder, a
    policy factory), besides the tiers; ``host``: the address the server listens on, whose
    names (``_host_names``, with ``allowed_hosts``) are the only ``Host`` it answers (None:
    any, for an app called in process). Raises ``ValueError`` for a bad name or spec.
    Damaged rooms on disk are skipped, each with a logged warning naming its file
    (``app.state.server.skipped``)."""
    from policies import make_policy

    for name, spec in (bots or {}).items():
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", name) or name == "human":
            raise ValueError(f"a bot name is 1..40 letters, digits, '_', '.', '-' (not 'human'), got {name!r:.50}")
        make_policy(spec)  # fails now, by name, rather than when a room seats it
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocketDisconnect

    from belote_env.config import load_rules, preset_names, variant_of

    if isinstance(bot_delay, bool) or not isinstance(bot_delay, (int, float)) or not 0 <= bot_delay <= 60:
        raise ValueError(f"bot_delay must be seconds in 0..60, got {bot_delay!r}")
    server = _Server(Path(rooms_dir), bots, float(bot_delay))
    valuing = asyncio.Semaphore(1)  # one replay with bots' values at a time: they take seconds of CPU

    async def frames_of(record, values, deal):
        if values is None:
            return await asyncio.to_thread(replay_frames, record, values, deal)
        async with valuing:
            return await asyncio.to_thread(replay_frames, record, values, deal)

    async def index(request):
        return FileResponse(WEB / "index.html")

    presets = {p: load_rules(p) for p in preset_names()}  # the lobby's: each preset's game and options
    lobby = {"presets": list(presets),
             "preset_labels": {p: VARIANT_LABELS[variant_of(r)] for p, r in presets.items()},
             "preset_players": {p: r.players for p, r in presets.items()},
             "preset_rules": {p: r.to_dict() for p, r in presets.items()}}

    async def options(request):
        names = [n for n in bot_names(server.bots) if n != "random"] + ["random"]
        return JSONResponse({**lobby, "tiers": names, "limits": list(LIMITS)})

    async def list_rooms(request):
        return JSONResponse({"rooms": [r.summary() for r in server.rooms.values()]})

    async def create_room(request):
        if not _same_origin(request.headers):
            return _error("rooms are created from this server's own page (another site's request is refused)", 403)
        spec, why = await _json_body(request, MAX_MESSAGE, "a room's request")
        if why:
            return _error(why + ": {\"rules\": ..., \"limit\": ..., \"seats\": [...]}")
        if not isinstance(spec, dict) or not {"rules", "seats"} <= spec.keys() or set(spec) - {
                "rules", "limit", "seats", "seed"}:
            return _error("give \"rules\" (a preset or rule options), \"seats\" (per seat 'human' or a bot), and "
                          "optionally \"limit\" ('game', 'deal' or a number of deals) and \"seed\"")
        if len(server.rooms) >= MAX_ROOMS and not server.evict():
            return _error(f"this server holds {MAX_ROOMS} rooms under way already")
        try:
            room = await asyncio.to_thread(Room.create, spec["rules"], spec.get("limit", "game"), spec["seats"],
                                           spec.get("seed"), server.dir, server.bots)
        except RoomError as e:
            return _error(str(e))
        server._add(room)
        server.start_bots(room)
        return JSONResponse({"room": room.id, "tokens": {str(s): t for s, t in room.tokens.items()}})

    async def replay_record(request):
        record, why = await _json_body(request, MAX_RECORD, "a record")
        if why and _is_pairs_log(why, request):
            return _error("a duplicate match's pairs log keeps each pair's result, not its games: play the match "
                          "with belote eval ... --games-dir DIR and open the records it saves there")
        if why:
            return _error(why)
        values, deal, why = _values_query(request.query_params)
        if why:
            return _error(why)
        try:
            frames = await frames_of(record, values, deal)
        except (ValueError, RoomError) as e:  # RecordError is a ValueError
            return _error(f"not a record that replays: {e}"[:500])
        return JSONResponse(frames)

    async def room_replay(request):
        room = server.rooms.get(request.path_params["room"])
        if room is None:
            return _error("no such room", 404)
        if not room.over:
            return _error("the game is not over: its replay would show the hidden hands", 403)
        values, deal, why = _values_query(request.query_params)
        if why:
            return _error(why)
        return JSONResponse(await frames_of(game_record(room.state), values, deal))

    async def ws_endpoint(websocket):
        if not _same_origin(websocket.headers):
            await websocket.close(code=1008)  # a page of another site: refused
            return
        await websocket.accept()
        room: Room | None = None
        seat: int | None = None
        token = None
        me: _Client | None = None
        allowance, last = RATE, time.monotonic()

        async def error(message: str) -> None:
            await websocket.send_json({"type": "error", "message": message.encode("utf-8", "replace").decode()})

        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    await error("messages are JSON text frames (a binary frame is dropped)")
                    continue
                now = time.monotonic()
                allowance = min(RATE, allowance + (now - last) * RATE)
                last = now
                if allowance < 1.0:
                    await error(f"too many messages: at most {RATE:g} a second; this one is dropped")
                    continue
                allowance -= 1.0
                if len(text.encode()) > MAX_MESSAGE:
                    await error(f"a message is at most {MAX_MESSAGE} bytes")
                    continue
                msg, why = _loads(text, "a message")
                if why:
                    await error(why + ": {\"type\": \"join\" | \"act\" | \"hints\", ...}")
                    continue
                kind = msg.get("type") if isinstance(msg, dict) else None
                if kind == "join":
                    rid = msg.get("room")
                    if not isinstance(rid, str) or rid not in server.rooms:
                        await error(f"no room {rid!r:.40}")
                        continue
                    candidate = server.rooms[rid]
                    want = msg.get("seat")
                    if want is not None:
                        try:
                            candidate.check_token(want, msg.get("token"))
                        except RoomError as e:
                            await error(str(e))
                            continue
                    if room is not None:
                        server.clients[room.id].discard(me)
                    room, seat, token, me = candidate, want, msg.get("token"), _Client(websocket, want)
                    server.clients[room.id].add(me)
                    await me.send_view(room, server.locks[room.id])  # never a view read while a bot moves
                elif kind == "act":
                    if room is None or seat is None:
                        await error("join a room's seat first: {\"type\": \"join\", \"room\": id, \"seat\": s, "
                                    "\"token\": t}")
                        continue
                    decision = msg.get("decision")
                    if isinstance(decision, bool) or not isinstance(decision, int):
                        await error(f"an act names the decision it answers: {{\"type\": \"act\", \"action\": id, "
                                    f"\"decision\": k}}, k the view's \"decision\" (seat {seat}'s is "
                                    f"{room.decision(seat)}), got {short_repr(decision)}")
                        continue
                    async with server.locks[room.id]:
                        try:
                            await asyncio.to_thread(room.act, seat, token, msg.get("action"), decision)
                        except RoomError as e:
                            await error(str(e))
                            continue
                    await server.broadcast(room)
                elif kind == "hints":
                    if room is None or seat is None:
                        await error("join a room's seat first")
                        continue
                    try:
                        async with server.locks[room.id]:  # the state as it stands between moves
                            unit, values = await asyncio.to_thread(room.hints, seat, token)
                    except RoomError as e:
                        await error(str(e))
                        continue
                    await websocket.send_json({"type": "hints", "unit": unit,
                                               "values": {str(c): v for c, v in values.items()}})
                else:
                    await error(f"unknown message type {short_repr(kind)}: 'join', 'act' or 'hints'")
        except WebSocketDisconnect:
            pass
        finally:
            if room is not None:
                server.clients[room.id].discard(me)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        for room in server.rooms.values():  # the saved rooms of bots only go on
            server.start_bots(room)
        yield
        for task in list(server.tasks):
            task.cancel()

    middleware = [] if host is None else [Middleware(_HostCheck, *_host_names(host, allowed_hosts))]
    app = Starlette(lifespan=lifespan, middleware=middleware, routes=[
        Route("/", index),
        Route("/api/options", options),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room}/replay", room_replay),
        Route("/api/replay", replay_record, methods=["POST"]),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
    ])
    app.state.server = server
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, rooms: str | Path = "belote_rooms",
          bots: dict[str, str] | None = None, bot_delay: float = BOT_DELAY,
          allowed_hosts: Sequence[str] | None = None) -> None:
    """Run the server until interrupted (uvicorn). A host other than 127.0.0.1 opens the
    tables to the network: said on stderr. ``allowed_hosts``: more names the server answers
    to (``Host``) besides its own (``_host_names``); None: those of the environment variable
    ``BELOTE_SERVE_HOSTS`` (comma-separated)."""
    import uvicorn

    if host not in LOOPBACK_NAMES:
        print(f"belote serve: listening on {host}: anyone who can reach this machine can open the tables and "
              "create rooms (a seat's token is still needed to act for it)", file=sys.stderr)
    if allowed_hosts is None:
        allowed_hosts = os.environ.get("BELOTE_SERVE_HOSTS", "").split(",")
    app = make_app(rooms, bots, bot_delay, host=host, allowed_hosts=allowed_hosts)
    print(f"belote serve: http://{host}:{port}/ (rooms saved in {Path(rooms).resolve()})", file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level="warning")
