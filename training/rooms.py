"""Rooms of ``belote serve``: one game each, its seats people or bots, saved after every
action (the web table's rules side; ``training.serve`` is its HTTP / websocket side).

A ``Room`` holds a ``GameState`` of its rules (a preset or a mapping of rule options,
never a file: classic, coinche, two and three seats) and its limit (``"game"``: the rules' target; ``"deal"``: one deal on
its own; an int ``n``: at most ``n`` deals, ``max_deals``: the room's limit of seed 004),
and per seat a kind (a room of bots only is played by the server, move by move, for
its watchers): ``"human"`` or a bot by name: a tier (``easy``, ``hard``, ...), a tier
``+search`` (``hard+search``), or a name the server was started with (``bots``: a model
folder or a policy factory given on ``belote serve``'s command line, never a path or a
module sent by a browser). A human seat acts with its token (unguessable,
``secrets.token_urlsafe``); bots act in turn until a person must act or the game is over.
A finished deal is followed by the next one at once; its result stays in the public log.

What a seat is sent is ``view_of(state.information_set(seat), ...)``: a function of that
seat's information set and of the public log only (RULES.md §11; TWO_THREE.md §5), so no
message depends on a hidden card. A watcher (no seat) gets the public part of seat 0's
view: no hand, no legal actions, no discards.

Nothing is lost: after every action the room writes ``<rooms>/<id>/room.json`` in one
atomic write (rules, limit, seats, tokens, seed, public log, and under ``"game"`` its game
record), then ``<rooms>/<id>/game.json``, a copy of that record for ``belote replay``;
``Room.load`` rebuilds an unfinished room at the decision it was at from ``room.json``
alone (bots are made again from their specs and seeds), writes a lagging copy again, and
refuses a damaged room by name. Rooms saved before (``room.json`` without ``"game"``,
beside ``game.json``) load too. ``remove_leftovers`` removes the temporary files of a save
killed mid-write.

Each seat has a decision number, the number of its actions so far in the game (its
``view``'s ``"decision"``): an act names the decision it answers, so that a repeated
message is refused instead of being applied to the next decision.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

from belote_env import GameState, InfoSet, Rules, load_rules
from belote_env.actions import ANNOUNCE_BELOTE, DECLARE, KEEP
from belote_env.atomic import atomic_write_bytes
from belote_env.cards import cards_of
from belote_env.config import RuleOptionError, variant_of
from belote_env.game import STEPS
from belote_env.games import game_of
from belote_env.jsonfile import read_json, short_repr
from belote_env.records import game_record, read_record, replay, write_record
from belote_env.render import action_label, contract_text

__all__ = ["Room", "RoomError", "view_of", "deal_summary", "replay_frames", "card_hints", "bot_names", "LIMITS",
           "MAX_ROOMS", "remove_leftovers"]

#: the kinds of room limit (besides an int: a number of deals)
LIMITS = ("game", "deal")
#: the most rooms one server holds (a request for another is refused by name)
MAX_ROOMS = 1000
#: room seeds are below it: the server draws 128 random bits, so that no seat can find the
#: seed (and every hand of the game) by trying the seeds against the cards it sees
SEED_BOUND = 1 << 128
#: a room id: 12 url-safe characters
_ID = re.compile(r"^[A-Za-z0-9_-]{12}$")
#: a seat's token: ``secrets.token_urlsafe(16)``, 22 url-safe characters (``web/table.js`` accepts the same)
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{22}$")
#: public events kept in a room's log (the last ones)
_LOG = 60


def bot_names(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The bots a room may seat, name -> ``make_policy`` spec: every tier, every tier
    ``+search``, and the ``extra`` names the server was started with."""
    from policies.registry import TIERS

    names = {t: t for t in TIERS}
    names.update({f"{t}+search": f"{t}+search" for t in TIERS if t not in ("random", "expert")})
    names.update(extra or {})
    return names


class RoomError(ValueError):
    """A request a room refuses (a bad seat, token or action; bad room settings): the
    message says what was wrong and what is allowed, never a hidden card."""


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary files that a save killed mid-write left in a room's ``folder``
    (``belote_env.atomic`` writes ``.room.json.<random>.tmp`` then renames it); returns
    them. For a server starting, before any save."""
    gone = [tmp for name in ("room.json", "game.json") for tmp in Path(folder).glob(f".{name}.*.tmp")]
    for tmp in gone:
        tmp.unlink(missing_ok=True)
    return gone


def _rules_of(rules: str | dict, limit) -> Rules:
    """The rules of a room: a preset name (never a file: a browser sends it) or a mapping
    of rule options, with its limit."""
    from belote_env.config import preset_names

    if isinstance(rules, str):
        if rules not in preset_names():
            raise RoomError(f"rules must be a preset ({', '.join(preset_names())}) or a mapping of rule options, "
                            f"got {rules.encode('utf-8', 'replace').decode()!r:.60}")
        base = load_rules(rules)
    elif isinstance(rules, dict):
        base = Rules.from_dict(rules)
    else:
        raise RoomError(f"rules must be a preset name or a mapping of rule options, got {type(rules).__name__}")
    if limit == "game" or limit == "deal":
        return base
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
        raise RoomError(f"limit must be 'game' (the rules' target), 'deal' (one deal) or a number of deals "
                        f"1..1000, got {limit!r}")
    if base.target is None:
        raise RoomError(f"limit {limit} (deals) needs rules with a target: these play one deal (target null); "
                        "give limit 'deal' or rules with a target")
    return Rules.from_dict({**base.to_dict(), "max_deals": limit})


#: the taker's discards' step (``game.STEPS``): hidden choices, not cards of a trick
_DISCARD_STEP = STEPS.index("discard")


def _public_label(seat: int, action: int, info_step: int, turned_card: int, play_protocol: str) -> str | None:
    """What an action shows the other seats: the taker's discards are hidden (TWO_THREE.md
    §5); a belote announcement, and a declaration made with the first card
    (``Game.play_protocol`` "team"), become public with the seat's next card (RULES.md §5,
    §6): None, noted on that card; every other action is public."""
    if info_step == _DISCARD_STEP:
        return "a choice"
    if action == ANNOUNCE_BELOTE or (action == DECLARE and play_protocol == "team"):
        return None
    if action == KEEP:
        return "keep"
    return action_label(action, turned_card)


def _contract_text(contract) -> str | None:
    """A contract as a player says it (``render.contract_text``: ``"110 ♥ trump"`` in
    coinche, ``"♥ trump"``), or None before a take."""
    return None if contract is None else contract_text(contract)


def _trick(trick) -> dict[str, Any] | None:
    """A finished trick ``(leader, cards, winner)`` as sent, or None."""
    return None if trick is None else {"leader": trick[0], "cards": list(trick[1]), "winner": trick[2]}


def deal_summary(state: GameState) -> dict[str, Any]:
    """A played deal's result, public once it is over: its outcome, the points it adds per
    side, and its score explained (``text``: the taker and contract, capot, belote,
    declarations, coinche, litige reserve; at two and three seats every seat's total), and
    its last trick (``last_trick``: leader, cards, winner; public as every trick is)."""
    d = state.deal_score
    names = state.table.names
    if not state.game.has_partners:
        text = (f"maker {names[d.taker]} {d.outcome}; totals "
                + ", ".join(f"{names[s]} {t}" for s, t in enumerate(d.totals)))
    else:
        pair = lambda v: f"{v[0]} - {v[1]}"  # noqa: E731
        contract = _contract_text(state.contract)
        parts = [f"{d.outcome}: {names[state.taker]} (team {d.taker_team}) took {contract}",
                 f"trick points {pair(d.trick_points)}"]
        if d.capot is not None:
            parts.append(f"capot by team {d.capot}")
        if any(d.belote):
            parts.append(f"belote {pair(d.belote)}")
        if any(d.declarations):
            parts.append(f"declarations {pair(d.declarations)}")
        if any(d.reserve_won) or d.reserve_out:
            parts.append(f"litige reserve won {pair(d.reserve_won)}, pending {d.reserve_out}")
        text = "; ".join(parts)
    return {"outcome": d.outcome, "points": list(d.points), "text": text,
            "last_trick": _trick(state.tricks[-1] if state.tricks else None)}


def _declared(d) -> list | dict:
    """A seat's public declarations: at four seats each combination (kind, cards, points,
    RULES.md §6); at two and three seats the announced value, and the top card and trump
    flag the comparison showed (-1, 0 when not shown; TWO_THREE.md §2.6)."""
    if d and isinstance(d[0], int):
        return {"value": d[0], "top": d[1], "trump": d[2]}
    return [{"kind": x.kind, "cards": cards_of(x.cards), "points": x.points} for x in d]


def view_of(info: InfoSet, log: list[dict], deals: list[dict], watcher: bool = False) -> dict[str, Any]:
    """What one seat is sent: a JSON-able dict of ``info`` (its information set) and the
    room's public ``log`` and ``deals`` (finished deals' results). With ``watcher`` the
    seat-private fields (hand, legal actions, discards) are left out.

    Card ids are ints 0..31 (``cards``: suit = id // 8, rank = id % 8); action ids are those
    of ``actions`` with their labels."""
    table = game_of(info.rules).table
    view = {
        "players": info.players, "names": list(table.names), "sides": list(table.side),
        "seat": None if watcher else info.seat,
        "dealer": info.dealer, "phase": info.phase, "step": STEPS[info.step] if info.step >= 0 else None,
        "to_act": info.current_seat, "turned": info.turned_card, "bottom": info.bottom_card,
        "auction": [{"seat": s, "label": action_label(a, info.turned_card)} for s, a in info.auction],
        "contract": _contract_text(info.contract), "taker": info.taker,
        "trick": list(info.trick), "trick_leader": info.trick_leader,
        "last_trick": _trick(info.tricks[-1] if info.tricks else None), "tricks": len(info.tricks),
        "hand_sizes": list(info.hand_sizes), "card_points": list(info.card_points),
        "scores": list(info.scores), "reserve": info.reserve, "deal_number": info.deal_number,
        "announcements": [{"seat": s, "kind": k, "card": c} for s, k, c in info.announcements],
        "exchanged": info.exchanged, "log": log[-_LOG:], "deals": deals,
        "declared": [_declared(d) for d in info.declared], "decl_winner": info.decl_winner,
        "decl_cards": cards_of(info.decl_cards),
        "hand": [] if watcher else cards_of(info.hand),
        "discarded": [] if watcher else cards_of(info.discarded),
        "legal": [] if watcher else [{"id": a, "label": action_label(a, info.turned_card)}
                                     for a in info.legal_actions],
    }
    return view


#: the most actions a replayed record may hold (a long game has a few hundred)
MAX_REPLAY_ACTIONS = 20_000
#: the most actions of a record valued whole (``replay_frames`` without ``deal``): a long game
MAX_VALUED_ACTIONS = 2_000


def card_hints(model, info: InfoSet) -> tuple[str, dict[int, float]]:
    """``model``'s (the hard tier's) view of each legal card of ``info``'s seat, from that
    information set only: its card values in points (162 a classic deal, 500 coinche), or
    where it has none (two and three seats) its probabilities in percent. Returns ``(unit,
    values)``; no values when the seat has no card to play."""
    if not any(a < 32 for a in info.legal_actions):
        return "points", {}
    try:
        values = model.card_values(info)
    except ValueError:  # no card-value network (two and three seats): the policy's probabilities, in %
        probs = model.action_probabilities(info)
        return "percent", {int(c): round(100.0 * float(p), 1) for c, p in probs.items() if c < 32}
    unit = 500.0 if info.rules.contract_mode == "coinche" else 162.0
    return "points", {int(c): round(float(v) * unit, 1) for c, v in values.items()}


#: the bots whose values of each legal card the replay viewer shows (``replay_frames``)
VALUE_TIERS = ("hard", "expert")


def _expert_values(expert, info: InfoSet, key: str) -> tuple[str, dict[int, float]]:
    """The expert's (``policies.search``) value of each card it searched at ``info``: its
    side's expected deal difference in points over its sampled deals (``last_values``),
    from that information set only; reseeded by ``key`` so the values repeat."""
    from policies.base import reseed

    reseed(expert, key)
    expert.act(info)
    return "points", {int(c): round(float(v), 1) for c, v in (expert.last_values or {}).items() if c < 32}


def _match_of(record: dict) -> dict[str, Any] | None:
    """A duplicate match record's ``"match"`` object (``evaluate.save_match_game``) reduced
    to what the viewer shows: the two policies' names and who sat at each seat (strings
    of at most 80 characters); None when the record has none or it is malformed."""
    m = record.get("match") if isinstance(record, dict) else None
    if not isinstance(m, dict):
        return None
    seats = m.get("seats")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 4 or not all(isinstance(x, str) for x in seats):
        return None
    def text(x: str) -> str:  # at most 80 characters, lone surrogates replaced (the answer is UTF-8)
        return x[:80].encode("utf-8", "replace").decode("utf-8")

    out = {"seats": [text(x) for x in seats]}
    for key in ("a", "b"):
        if isinstance(m.get(key), str):
            out[key] = text(m[key])
    for key in ("pair", "set", "copy", "seed"):
        if type(m.get(key)) is int:
            out[key] = m[key]
    return out


def replay_frames(record: dict, values: bool | str = False, deal: int | None = None) -> dict[str, Any]:
    """A game record as the replay viewer steps through it: every hand shown (a record is
    complete information). Returns ``{"players", "names", "rules", "frames"}`` (and
    ``"match"`` for a duplicate match's game: the policies and who sat where), one frame
    per deal start and per action: the deal, the hands (card ids per seat), the turned and
    bottom cards, the auction so far, the contract, the trick, the last trick, the action
    just taken (seat and label), the card points and the game scores, and at a deal's end
    its result (``deal_summary``).

    Args:
        values: False for none; ``"hard"`` (or True) for the hard tier's values of the
            legal cards of the seat that played each card (``card_hints``), ``"expert"``
            for the expert's (``_expert_values``: about 0.2 s a card in the classic game,
            so ask for one ``deal``), from that seat's information set then: a card's
            frame then holds ``"values"``, ``"unit"`` and ``"by"`` (the bot's name).
        deal: only that deal's (index into the record's deals) cards get values.
    Raises ``RecordError`` (a ``ValueError``) for a record that does not replay,
    ``RoomError`` for one over ``MAX_REPLAY_ACTIONS``, values not in ``VALUE_TIERS``, a
    ``deal`` that is not one of the record's, values of a record over
    ``MAX_VALUED_ACTIONS`` without a ``deal``, or a tier that does not play the rules."""
    from belote_env.records import replay_events

    tier = "hard" if values is True else values or None
    if tier is not None and tier not in VALUE_TIERS:
        raise RoomError(f"values must be one of {', '.join(VALUE_TIERS)} (or none), got {str(values)[:40]!r}")
    deals = record.get("deals") if isinstance(record, dict) else None
    actions = sum(len(d["actions"]) for d in deals if isinstance(d, dict) and isinstance(d.get("actions"), list)) \
        if isinstance(deals, list) else 0
    if actions > MAX_REPLAY_ACTIONS:
        raise RoomError(f"a replayed record holds at most {MAX_REPLAY_ACTIONS:,} actions, this one {actions:,}")
    if deal is not None and not (isinstance(deals, list) and 0 <= deal < len(deals)):
        raise RoomError(f"deal {deal} is not a deal of the record (0..{len(deals) - 1 if isinstance(deals, list) else -1})")
    if tier is not None and deal is None and actions > MAX_VALUED_ACTIONS:
        raise RoomError(f"values of a record of more than {MAX_VALUED_ACTIONS:,} actions are given one deal at a time "
                        f"(deal=<index>): this one holds {actions:,}")
    frames: list[dict] = []
    names: tuple[str, ...] = ()
    rules = None
    model = None
    hints: tuple[str, dict] | None = None
    for kind, i, j, state, action, _ in replay_events(record):
        if kind == "before":
            seat, label = state.current, action_label(action, state.turned_card)
            hints = None
            if tier and action < 32 and state.phase == 1 and (deal is None or deal == i):
                info = state.information_set(seat)
                try:
                    if model is None:
                        from policies import make_policy

                        model = make_policy(tier, seed=0, rules=state.rules)
                    hints = (card_hints(model, info) if tier == "hard"
                             else _expert_values(model, info, f"viewer-{i}-{j}"))
                except ValueError as e:  # a hard model that cannot be loaded (CheckpointError)
                    raise RoomError(f"the {tier} tier gives no values under these rules: {e}") from None
            continue
        names, rules = state.table.names, state.rules
        frame = {"deal": i, "hands": [cards_of(h) for h in state.hands], "turned": state.turned_card,
                 "exchanged": state.exchanged, "bottom": state.bottom_card, "dealer": state.dealer,
                 "auction": [{"seat": s, "label": action_label(a, state.turned_card)} for s, a in state.auction.history],
                 "contract": _contract_text(state.contract), "taker": state.taker,
                 "trick": list(state.trick), "trick_leader": state.trick_leader,
                 "last_trick": _trick(state.tricks[-1] if state.tricks else None),
                 "card_points": list(state.card_points), "scores": list(state.scores),
                 "move": None if kind == "deal" else {"seat": seat, "label": label}}
        if hints is not None and kind == "after":
            frame["unit"], frame["values"], frame["by"] = hints[0], {str(c): v for c, v in hints[1].items()}, tier
        if kind == "after" and state.is_deal_over:
            frame["result"] = deal_summary(state) if state.deal_score is not None else {"outcome": "void", "text":
                                                                                         "void: redealt"}
        frames.append(frame)
    out = {"players": len(names), "names": list(names), "rules": rules.to_dict() if rules else {}, "frames": frames}
    match = _match_of(record)
    if match is not None and len(match["seats"]) == len(names):
        out["match"] = match
    return out


class Room:
    """One game at a table of people and bots.

    Args:
        room_id: 12 url-safe characters (``Room.create`` draws one).
        rules: a preset name or a mapping of rule options.
        limit: ``"game"``, ``"deal"`` or a number of deals 1..1000.
        seats: per seat ``"human"`` or a bot name (``bot_names``).
        seed: the game's seed (decks, bots).
        folder: where the room is saved (``<folder>/room.json``, its record copied to
            ``<folder>/game.json``).
        tokens: per human seat its token (kept when a room is loaded; else drawn).
        bots: the extra bot names allowed and their ``make_policy`` specs (model folders,
            policy factories), given by whoever started the server.
    Raises:
        RoomError: bad rules, limit, seats or seed, a bot that is not a tier nor one of
            ``bots`` (the message names it).
    """

    def __init__(self, room_id: str, rules: str | dict, limit, seats: list[str], seed: int, folder: Path,
                 tokens: dict[int, str] | None = None, state: GameState | None = None,
                 bots: dict[str, str] | None = None, seed_given: bool = False):
        if not isinstance(room_id, str) or not _ID.match(room_id):
            raise RoomError(f"a room id is 12 url-safe characters, got {room_id!r:.40}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_BOUND:
            raise RoomError(f"seed must be an int in 0..2**128-1, got {seed!r:.40}")
        try:
            self.rules = _rules_of(rules, limit)
        except RoomError:
            raise
        except (RuleOptionError, ValueError, TypeError) as e:
            raise RoomError(f"rules: {e}") from None
        n = self.rules.players
        if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, str) and s for s in seats):
            raise RoomError(f"seats must be a list of {n} kinds ('human' or a bot: a tier name, a model folder, "
                            f"<policy>+search), got {seats!r:.120}")
        if tokens is None and state is None and seats.count("human") > 1 and seed_given:
            raise RoomError("a seed is taken for a room of at most one person: it decides every deck, so whoever "
                            "chose it would know every hand; leave it out (the server draws one)")
        from policies import make_policy

        allowed = bot_names(bots)
        self.bots: dict[int, Any] = {}
        for s, kind in enumerate(seats):
            if kind == "human":
                continue
            if kind not in allowed:
                raise RoomError(f"seat {s}: {kind!r:.60} is not a bot of this server; the bots are "
                                f"{sorted(allowed)} (a model folder or a factory is added when the server "
                                "starts: belote serve --bot NAME=FOLDER)")
            try:
                self.bots[s] = make_policy(allowed[kind], seed=seed + s, rules=self.rules)
            except Exception as e:  # a tier that does not play these rules: named back to the creator
                raise RoomError(f"seat {s}: {kind!r:.60} cannot play these rules: {e}"[:400]) from None
        self.id, self.rules_spec, self.limit, self.seats, self.seed = room_id, rules, limit, list(seats), seed
        self.folder = Path(folder)
        self.tokens = dict(tokens) if tokens else {s: secrets.token_urlsafe(16) for s, k in enumerate(seats)
                                                    if k == "human"}
        self.state = state if state is not None else GameState(self.rules, seed=seed,
                                                               single_deal=limit == "deal")
        self.log: list[dict] = []
        self._log_before = 0  # moves logged before ``log``'s first (a loaded room keeps the last ``_LOG``)
        self.deals: list[dict] = self._deal_results()
        self._hint_model = None
        #: why the room stopped (a bot failed), else None
        self.failed: str | None = None

    # ------------------------------------------------------------------ making and loading
    @classmethod
    def create(cls, rules: str | dict, limit, seats: list[str], seed: int | None, rooms: Path,
               bots: dict[str, str] | None = None) -> "Room":
        """A new room saved under ``rooms`` (a random id; a random seed when None)."""
        room_id = secrets.token_urlsafe(9)
        room = cls(room_id, rules, limit, seats, secrets.randbelow(SEED_BOUND) if seed is None else seed,
                   Path(rooms) / room_id, bots=bots, seed_given=seed is not None)
        if not room.bots_only:  # a room of bots only is played move by move by the server
            room.run_bots()
        if room.failed:
            raise RoomError(room.failed.replace(": the room is stopped", " at the first deal"))
        room.save()
        return room

    @classmethod
    def load(cls, folder: Path, bots: dict[str, str] | None = None) -> "Room":
        """The room saved in ``folder``, at the decision it was at: ``room.json`` (with its
        record under ``"game"``; a room saved before, without it, reads ``game.json``). A
        ``game.json`` that lags (a kill between the two writes of ``save``) is written again.
        Raises ``RoomError`` naming the file and the problem for a folder that does not hold
        a room or holds a damaged one: a file missing or not JSON, a record that does not
        replay, an id other than its folder's name, tokens that are not one per human seat
        (22 url-safe characters each), rules other than its game's, a log or deals that are
        not lists of objects, a ``log_count`` (the moves logged, of which the log keeps the
        last 60; absent in a room saved before it was kept: the log's length) that is not an
        int from the log's length to 2**31-1."""
        folder = Path(folder)
        path = folder / "room.json"
        try:
            meta = read_json(path)
            if not isinstance(meta, dict):
                raise RoomError(f"a JSON object expected, got {type(meta).__name__}")
            record = meta["game"] if "game" in meta else read_record(folder / "game.json")
            state = replay(record)
            tokens = meta["tokens"]
            if not isinstance(tokens, dict) or not all(
                    s.isascii() and s.isdigit() and isinstance(t, str) and _TOKEN.match(t) for s, t in tokens.items()):
                raise RoomError("'tokens' must map seats to tokens of 22 url-safe characters")
            tokens = {int(s): t for s, t in tokens.items()}
            room = cls(meta["id"], meta["rules"], meta["limit"], meta["seats"], meta["seed"], folder, tokens, state,
                       bots)
            if room.id != folder.name:
                raise RoomError(f"its id {room.id!r} is not its folder's name (a room is saved in the folder of "
                                "its id: a copied folder?)")
            humans = [s for s, kind in enumerate(room.seats) if kind == "human"]
            if sorted(tokens) != humans:
                raise RoomError(f"'tokens' are for seats {sorted(tokens)}, its human seats are {humans}")
            want = room.rules.replace(target=None, max_deals=None) if room.limit == "deal" else room.rules
            if state.rules != want:  # the record of a room of one deal has a one-deal game's rules (game_record)
                raise RoomError(f"its rules {meta['rules']!r:.80} are not its game's {state.rules.to_dict()!r:.200}")
            log, deals, failed = meta.get("log", []), meta.get("deals", room.deals), meta.get("failed")
            if not all(isinstance(x, list) and all(isinstance(e, dict) for e in x) for x in (log, deals)):
                raise RoomError("'log' and 'deals' must be lists of objects")
            if failed is not None and not isinstance(failed, str):
                raise RoomError(f"'failed' must be null or a reason, got {type(failed).__name__}")
            count = meta.get("log_count", len(log))  # rooms saved before it was kept: the log's length
            if isinstance(count, bool) or not isinstance(count, int) or not len(log) <= count < 2 ** 31:
                raise RoomError(f"'log_count' must be an int from the log's length ({len(log)}) to 2**31-1, got "
                                f"{short_repr(count)}")
            room.log, room.deals, room.failed = log, deals, failed  # the public log as it was
            room._log_before = count - len(log)
        except (OSError, ValueError, KeyError, TypeError) as e:  # RoomError, RecordError: ValueErrors
            why = str(e) if isinstance(e, RoomError) else f"{type(e).__name__}: {e}"
            raise RoomError(f"{path}: not a saved room: {why}"[:400]) from None
        if "game" in meta:
            try:
                same = read_json(folder / "game.json") == record
            except (OSError, ValueError):
                same = False
            if not same:
                write_record(folder / "game.json", record)
        return room

    def save(self) -> None:
        """Write the room (its settings, tokens, public log and game record) in one atomic
        write of ``room.json``, then the record's copy ``game.json`` (a kill between the two
        loses nothing: ``load`` reads ``room.json`` alone)."""
        import json

        record = game_record(self.state)
        meta = {"id": self.id, "rules": self.rules_spec, "limit": self.limit, "seats": self.seats, "seed": self.seed,
                "tokens": {str(s): t for s, t in self.tokens.items()}, "log": self.log[-_LOG:],
                "log_count": self._log_before + len(self.log), "deals": self.deals, "failed": self.failed,
                "game": record}
        atomic_write_bytes(self.folder / "room.json", json.dumps(meta, ensure_ascii=False, indent=1).encode())
        write_record(self.folder / "game.json", record)

    # ------------------------------------------------------------------ playing
    @property
    def over(self) -> bool:
        return self.state.is_game_over

    def _deal_results(self) -> list[dict]:
        """The finished deals' results of a loaded game (public once a deal is over; the
        explanation only for the last one, the state's)."""
        out = [{"outcome": d.outcome, "points": list(d.points), "text": ""} for d in self.state.deal_scores]
        if out and self.state.deal_score is not None:
            out[-1] = deal_summary(self.state)
        return out

    def _apply(self, seat: int, action: int) -> None:
        st = self.state
        info_step = st.step if st.phase == 1 else -1
        label = _public_label(seat, action, info_step, st.turned_card, st.game.play_protocol)
        # which kind of move the table draws (web/table.js): a bid, a card of a trick, or a step
        move = "bid" if st.phase == 0 else "card" if action < 32 and info_step != _DISCARD_STEP else "step"
        tricks, announced, declared = len(st.tricks), len(st.announcements), st.declared[seat]
        st.apply(action)
        if label is None:  # made public by the seat's next card
            return
        if action < 32 and st.phase >= 1:  # a card: with what it made public
            notes = [kind for _, kind, _ in st.announcements[announced:]]
            if st.game.play_protocol == "team" and st.declared[seat] != declared:
                notes += [f"declares {d.kind} ({d.points})" for d in st.declared[seat]]
            if notes:
                label += f" ({', '.join(notes)})"
        event = {"seat": seat, "label": label, "move": move}
        if len(st.tricks) > tricks:
            event["trick_won_by"] = st.tricks[-1][2]
        self.log.append(event)
        if st.is_deal_over:
            if st.deal_score is not None:  # a played deal: its result is public
                summary = deal_summary(st)
                self.deals.append(summary)
                self.log.append({"deal_over": len(st.deal_scores), **summary})
            else:
                self.log.append({"deal_over": None, "outcome": "void"})
            if not st.is_game_over:
                st.next_deal()

    @property
    def bots_only(self) -> bool:
        """Every seat is a bot: the server plays the room move by move for its watchers."""
        return len(self.bots) == self.rules.players

    def run_bots(self, max_moves: int | None = None) -> int:
        """Let the bots act until a person must act, the game is over, or ``max_moves``
        actions were taken; returns how many they took."""
        moves = 0
        st = self.state
        while (not st.is_game_over and self.failed is None and st.current_seat in self.bots
               and (max_moves is None or moves < max_moves)):
            seat = st.current_seat
            try:
                action = self.bots[seat].act(st.information_set(seat))
                ok = not isinstance(action, bool) and isinstance(action, int) and action in st.legal_actions()
                why = "returned an illegal action"
            except Exception as e:  # a bot's failure stops the room, named, never its message (RULES.md §11)
                ok, why = False, f"raised {type(e).__name__}"
            if not ok:
                self.failed = f"the bot at seat {seat} ({self.seats[seat]}) {why}: the room is stopped"
                self.log.append({"seat": seat, "label": "failed", "error": self.failed})
                break
            self._apply(seat, int(action))
            moves += 1
        return moves

    def check_token(self, seat, token) -> int:
        """``seat`` as an int when ``token`` is that human seat's; else ``RoomError``."""
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise RoomError(f"seat must be 0..{n - 1}, got {short_repr(seat)}")
        want = self.tokens.get(seat)
        if want is None:
            raise RoomError(f"seat {seat} is played by a bot ({self.seats[seat]:.40})")
        if not isinstance(token, str) or not secrets.compare_digest(token.encode("utf-8", "replace"), want.encode()):
            raise RoomError(f"wrong token for seat {seat}")
        return seat

    def decision(self, seat: int) -> int:
        """The number of ``seat``'s next decision: how many actions it took in the game so far
        (its own actions, known to it alone; another seat's choices never change it)."""
        return sum(s == seat for deal in self.state.deal_log for s, _ in deal["actions"])

    def act(self, seat: int, token: str, action, decision: int | None = None) -> None:
        """Apply a person's action, then the bots' until a person must act; save. With
        ``decision``, the action answers that decision of the seat (``Room.decision``): a
        repeated message is refused rather than applied to the next decision. Raises
        ``RoomError`` for a wrong seat or token, another decision than the seat's, a seat
        not to act, or an illegal action (the message lists the legal ids and labels)."""
        seat = self.check_token(seat, token)
        st = self.state
        if self.failed is not None:
            raise RoomError(self.failed)
        if st.is_game_over:
            raise RoomError("the game is over")
        if decision is not None and decision != self.decision(seat):
            raise RoomError(f"this act answers decision {short_repr(decision)}, seat {seat}'s decision is "
                            f"{self.decision(seat)} (a repeated message is not applied to the next decision)")
        if st.current_seat != seat:
            raise RoomError(f"seat {seat} is not to act now (seat {st.current_seat} is)")
        legal = st.legal_actions()
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            names = ", ".join(f"{a} ({action_label(a, st.turned_card)})" for a in legal)
            raise RoomError(f"illegal action {short_repr(action)}; legal: [{names}]")
        self._apply(seat, action)
        self.run_bots()
        self.save()

    def hints(self, seat: int, token: str) -> tuple[str, dict[int, float]]:
        """The hard tier's value of each legal card of ``seat`` (points; at two and three
        seats, whose hard has no card values, its probability of each card in percent;
        RULES.md §11: its information set only), when it is that seat's turn to play a
        card; else no values. Returns ``(unit, values)``, the unit ``"points"`` or
        ``"percent"``.
        Raises ``RoomError`` for a wrong seat or token, or a hard model that cannot be loaded
        (the message says so)."""
        seat = self.check_token(seat, token)
        st = self.state
        if st.is_game_over or st.current_seat != seat:
            return "points", {}
        info = st.information_set(seat)
        try:
            if self._hint_model is None:
                from policies import make_policy

                self._hint_model = make_policy("hard", seed=0, rules=self.rules)
            return card_hints(self._hint_model, info)
        except ValueError as e:  # a hard model that cannot be loaded (CheckpointError)
            raise RoomError(f"no hints in this room: the hard tier cannot give them ({e})"[:400]) from None

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` is sent now (``view_of`` its information set, ``"failed"``,
        ``"decision"``: ``Room.decision``, None for a watcher, ``"deal_index"``: the deals
        begun in this game, void ones too, and ``"log_count"``: the moves logged so far, of
        which ``"log"`` is the last ``_LOG``; public); ``None``: a watcher."""
        if seat is None:
            view = view_of(self.state.information_set(0), self.log, self.deals, watcher=True)
        else:
            view = view_of(self.state.information_set(seat), self.log, self.deals)
        view["deal_index"] = len(self.state.deal_log)
        view["log_count"] = self._log_before + len(self.log)
        view["failed"] = self.failed
        view["decision"] = None if seat is None else self.decision(seat)
        return view

    def summary(self) -> dict[str, Any]:
        """The room as the lobby lists it (public)."""
        return {"id": self.id, "rules": self.rules_spec if isinstance(self.rules_spec, str) else
                f"custom {variant_of(self.rules)}, {self.rules.players} players",
                "players": self.rules.players, "limit": self.limit, "seats": self.seats,
                "scores": list(self.state.scores), "over": self.over}
