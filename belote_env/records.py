"""Game records: write, read and replay any game exactly (JSON, format version 1).

A record is a JSON object::

    {
      "format": "belote-rl-record",
      "version": 1,
      "action_table_version": 1,
      "rules": {"all_pass_redeal": "same_dealer", ...},     # every option (RULES.md)
      "start": {"scores": [420, 380], "reserve": 81,       # optional: a resumed game's
                "deal_number": 6},                         # scores, reserve, deals played
      "deals": [                                           # in order, void deals included
        {"dealer": 0,
         "deck": [12, 3, ...],                             # 32 card ids, the dealing order
         "actions": [[1, 32], [2, 33], [1, 7], ...]},      # [seat, action id] in order
        {"dealer": 1,
         "hands": [["JS", "9S", "AH", "7D", "8D"], ...],   # OR explicit 5-card hands per
         "turned": "10S", "stock": ["KD", ...],            # seat, turned card, stock order
         "actions": [...]},
        {"dealer": 2, "hands": [[8 cards], ...],             # coinche: explicit 8-card
         "actions": [...]}                                 # hands, no turned card / stock
      ],
      "result": {"scores": [862, 1004], "winner": 1,       # written by game_record; checked
                 "game_over": true},
      "match": {"a": "normal", "b": "easy", ...}           # optional: a duplicate match's game
    }                                                      # (evaluate.save_match_game)

No other key is allowed, at the top level, in ``start``, in ``result`` or in a deal: an
unknown (e.g. misspelled) key is refused by name (``RecordError``), never ignored.

Cards may be ids (0..31) or names (``"J♠"``, ``"JS"``, ``"10H"``). With explicit hands,
each seat's first three cards form its first packet and the last two its second
(RULES.md §3.1); the stock is dealt from its first card (``dealing.deck_from_hands``).
Coinche records (``rules.contract_mode == "coinche"``, COINCHE.md §2) give 8-card hands
(packets of 3, 2, 3; ``dealing.deck_from_full_hands``) and no ``turned`` or ``stock``;
their action ids go up to ``actions.num_actions(rules) - 1`` (412 ids with a générale or
bids above 160).
Two- and three-player records (``rules.players`` 2 or 3, TWO_THREE.md) give each deal's
``deck`` (``dealing.PacketLayout`` says where each card goes), seats 0..n-1, action ids up
to 413, and one score per seat in ``start`` and ``result`` (``winner`` a seat); they
replay on ``game.GameState`` at every table.
The last deal may be unfinished. ``start`` is written only for a game that did not start
at 0 - 0 (``GameState(..., scores=, reserve=, deal_number=)``); without it a game starts
at 0 - 0, no reserve, no deal played.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

from .actions import ACTION_TABLE_VERSION, num_actions
from .atomic import atomic_write_bytes
from .cards import NUM_CARDS, card_to_str, cards_of
from .config import RuleOptionError, Rules
from .dealing import FIRST_HAND, HAND_SIZE, STOCK_SIZE, DealError, check_deck, deck_from_full_hands, deck_from_hands, read_card
from .game import GameState, IllegalActionError, Phase
from .games import game_of
from .table import NUM_SEATS, team_of
from .jsonfile import MAX_JSON_BYTES, DataFileError, parse_json, read_text, short_repr

__all__ = ["RecordError", "game_record", "write_record", "read_record", "replay", "replay_steps", "replay_events", "replay_text",
           "save_game", "RECORD_FORMAT", "RECORD_VERSION"]

RECORD_FORMAT = "belote-rl-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A malformed record, or one whose actions are illegal when replayed."""


def _sides(rules: Rules) -> int:
    """The scores a record holds: one per team at four seats, one per seat at two and three."""
    return game_of(rules).sides




def game_record(state) -> dict[str, Any]:
    """The record (a JSON-able dict) of every deal of ``state``'s game so far. A single
    deal (``GameState(..., single_deal=True)``) is recorded with ``target`` and
    ``max_deals`` null, the rules of a one-deal game (RULES.md §8), so that it replays."""
    rules = state.rules.replace(target=None, max_deals=None) if state.single_deal else state.rules
    rec = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "action_table_version": ACTION_TABLE_VERSION,
        "rules": rules.to_dict(),
        "deals": [{"dealer": d["dealer"], "deck": list(d["deck"]), "actions": [list(a) for a in d["actions"]]}
                  for d in state.deal_log],
    }
    scores, reserve, deal_number = state.start
    if any(scores) or reserve or deal_number:
        rec["start"] = {"scores": list(scores), "reserve": reserve, "deal_number": deal_number}
    rec["result"] = {"scores": list(state.scores), "winner": state.winner, "game_over": state.is_game_over}
    return rec


def write_record(path: str | os.PathLike, record: dict[str, Any]) -> Path:
    """Write ``record`` as JSON atomically (temporary file, fsync, rename)."""
    return atomic_write_bytes(path, json.dumps(record, ensure_ascii=False, indent=1).encode())


def save_game(state: GameState, path: str | os.PathLike) -> Path:
    """Write the record of ``state``'s game to ``path`` (one call, atomic)."""
    return write_record(path, game_record(state))


def read_record(path: str | os.PathLike, max_bytes: int = MAX_JSON_BYTES) -> dict[str, Any]:
    """Read and validate a record file (UTF-8, with or without a byte-order mark; at most
    ``max_bytes``, 64 MiB by default, checked before it is read); raises ``RecordError``
    naming the problem."""
    try:
        text = read_text(path, max_bytes).removeprefix("\ufeff")  # as utf-8-sig: a byte-order mark is allowed
    except DataFileError as e:  # unreadable, over the bound, not UTF-8
        raise RecordError(f"cannot read record {path}: {str(e).removeprefix(f'{path}: ')}") from None
    try:
        record = parse_json(text, str(path))
    except DataFileError as e:  # not JSON, nested too deeply, an int over Python's digit limit
        if str(e).endswith("(nested too deeply)"):  # e.g. '[' * 100000
            raise RecordError(f"{path} is not a game record: its JSON is nested too deeply") from None
        raise RecordError(str(e)) from None
    _validate(record)
    return record


def _card(value, where: str) -> int:
    """A record's card (an id 0..31 or a name), through ``dealing.read_card``."""
    try:
        return read_card(value, where)
    except DealError as e:
        raise RecordError(str(e)) from None


def _deck_of(deal: dict, i: int, coinche: bool = False) -> list[int]:
    """Deal ``i``'s deck: its ``deck``, or the one ``dealing.deck_from_hands`` builds from
    its ``hands``, ``turned`` and ``stock`` (coinche: ``deck_from_full_hands`` from its
    8-card ``hands``); ``RecordError`` naming the problem."""
    if "deck" in deal:
        if "hands" in deal or "turned" in deal or "stock" in deal:
            raise RecordError(f"deal {i}: give either 'deck' or " + ("'hands' (8 cards per seat)" if coinche else
                                                                    "'hands' + 'turned' + 'stock'") + ", not both")
        deck = deal["deck"]
        if not isinstance(deck, list) or len(deck) != NUM_CARDS:
            raise RecordError(f"deal {i}: 'deck' must be a list of 32 cards")
        deck = [_card(c, f"deal {i} deck[{j}]") for j, c in enumerate(deck)]
        try:
            return check_deck(deck)
        except DealError as e:
            raise RecordError(f"deal {i}: {e}") from None
    if coinche:
        if "turned" in deal or "stock" in deal:
            raise RecordError(f"deal {i}: a coinche deal has no 'turned' card or 'stock' (COINCHE.md §2)")
        hands = deal.get("hands")
        if not isinstance(hands, list) or len(hands) != NUM_SEATS or not all(
                isinstance(h, list) and len(h) == HAND_SIZE for h in hands):
            raise RecordError(f"deal {i}: 'hands' must be 4 lists of 8 cards (seats 0..3), or give 'deck'")
        hs = [[_card(c, f"deal {i} hands[{s}][{j}]") for j, c in enumerate(h)] for s, h in enumerate(hands)]
        try:
            return deck_from_full_hands(hs, deal["dealer"])
        except DealError as e:
            raise RecordError(f"deal {i}: {e}") from None
    for key in ("hands", "turned", "stock"):
        if key not in deal:
            raise RecordError(f"deal {i}: missing {key!r} (or give 'deck'; a classic deal gives 5-card 'hands', "
                              "'turned' and 'stock', a coinche one 8-card 'hands' under rules with contract_mode "
                              "'coinche')")
    hands, stock = deal["hands"], deal["stock"]
    if not isinstance(hands, list) or len(hands) != NUM_SEATS or not all(
            isinstance(h, list) and len(h) == FIRST_HAND for h in hands):
        raise RecordError(f"deal {i}: 'hands' must be 4 lists of 5 cards (seats 0..3)")
    if not isinstance(stock, list) or len(stock) != STOCK_SIZE:
        raise RecordError(f"deal {i}: 'stock' must be a list of 11 cards")
    hs = [[_card(c, f"deal {i} hands[{s}][{j}]") for j, c in enumerate(h)] for s, h in enumerate(hands)]
    turned = _card(deal["turned"], f"deal {i} turned")
    st = [_card(c, f"deal {i} stock[{j}]") for j, c in enumerate(stock)]
    try:
        return deck_from_hands(hs, turned, st, deal["dealer"])
    except DealError as e:
        raise RecordError(f"deal {i}: {e}") from None


def _start_of(record: dict) -> dict[str, Any]:
    """The ``GameState`` keyword arguments of the record's optional ``start`` (a resumed
    game's scores, reserve and deal number), checked; ``RecordError`` naming the problem."""
    start = record.get("start")
    if start is None:
        return {}
    if not isinstance(start, dict) or set(start) - {"scores", "reserve", "deal_number"}:
        raise RecordError(f"record 'start' must be an object with scores, reserve, deal_number, got {short_repr(start)}")
    rules = Rules.from_dict(record.get("rules", {}))
    n = _sides(rules)
    kw = {"scores": start.get("scores", [0] * n), "reserve": start.get("reserve", 0),
          "deal_number": start.get("deal_number", 0)}
    if not isinstance(kw["scores"], list) or any(type(x) is not int for x in kw["scores"]) or any(
            type(kw[k]) is not int for k in ("reserve", "deal_number")):
        raise RecordError(f"record 'start': scores must be a list of {n} ints, reserve and deal_number ints, got "
                          f"{short_repr(start)}")
    try:
        GameState(rules, deck=list(range(NUM_CARDS)), **kw)
    except ValueError as e:
        raise RecordError(f"record 'start': {e}") from None
    return kw


#: The keys a record may hold (``game_record``, with ``match`` from ``evaluate.save_match_game``)
#: and those of its ``result``: any other is refused (a misspelled ``start`` would replay from 0 - 0).
_RECORD_KEYS = ("format", "version", "action_table_version", "rules", "start", "deals", "result", "match")
_RESULT_KEYS = ("scores", "winner", "game_over")


def _no_unknown_keys(obj: dict, where: str, allowed, note: str = "") -> None:
    unknown = set(obj) - set(allowed)
    if unknown:
        raise RecordError(f"{where}: unknown keys {short_repr(sorted(unknown))}; allowed: {', '.join(sorted(allowed))}"
                          + note)


def _validate(record: Any) -> None:
    if not isinstance(record, dict):
        raise RecordError(f"a record must be a JSON object, got {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a belote-rl record: 'format' is {short_repr(record.get('format'))}, expected {RECORD_FORMAT!r}")
    if type(record.get("version")) is not int or record.get("version") != RECORD_VERSION:
        raise RecordError(f"record version {short_repr(record.get('version'))} is not supported (this package reads {RECORD_VERSION})")
    _no_unknown_keys(record, "record", _RECORD_KEYS)
    atv = record.get("action_table_version", ACTION_TABLE_VERSION)
    if type(atv) is not int or atv != ACTION_TABLE_VERSION:
        raise RecordError(f"record uses action table version {short_repr(record['action_table_version'])}, "
                          f"this package uses {ACTION_TABLE_VERSION}")
    try:
        rules = Rules.from_dict(record.get("rules", {}))
    except RuleOptionError as e:
        raise RecordError(f"record 'rules': {e}") from None
    n_actions = num_actions(rules)
    seats = range(rules.players)
    cutthroat = not game_of(rules).has_partners
    _start_of(record)
    deals = record.get("deals")
    if not isinstance(deals, list) or not deals:
        raise RecordError("record 'deals' must be a non-empty list")
    for i, deal in enumerate(deals):
        if not isinstance(deal, dict):
            raise RecordError(f"deal {i}: must be an object")
        if type(deal.get("dealer")) is not int or deal.get("dealer") not in seats:
            raise RecordError(f"deal {i}: 'dealer' must be a seat 0..{seats[-1]} (int), got "
                              f"{short_repr(deal.get('dealer'))}")
        _no_unknown_keys(deal, f"deal {i}", ("dealer", "deck", "actions") if cutthroat else
                         ("dealer", "deck", "hands", "turned", "stock", "actions"),
                         f" (a {rules.players}-player deal is given by its 'deck', TWO_THREE.md §2.2)" if cutthroat else "")
        if cutthroat and "deck" not in deal:
            raise RecordError(f"deal {i}: missing 'deck' (a {rules.players}-player deal is given by its 32-card deck)")
        _deck_of(deal, i, rules.contract_mode == "coinche")
        actions = deal.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"deal {i}: 'actions' must be a list of [seat, action id]")
        for j, a in enumerate(actions):
            if (not isinstance(a, list) or len(a) != 2 or any(isinstance(x, bool) or not isinstance(x, int) for x in a)
                    or a[0] not in seats or not 0 <= a[1] < n_actions):
                raise RecordError(f"deal {i} action {j}: expected [seat 0..{seats[-1]}, action id 0..{n_actions - 1}], "
                                  f"got {short_repr(a)}")
    result = record.get("result")
    if result is not None:
        if not isinstance(result, dict):
            raise RecordError(f"record 'result' must be an object, got {type(result).__name__}")
        _no_unknown_keys(result, "record 'result'", _RESULT_KEYS)
        sc = result.get("scores")
        n = _sides(rules)
        if sc is not None and (not isinstance(sc, list) or len(sc) != n
                               or any(isinstance(x, bool) or not isinstance(x, int) for x in sc)):
            raise RecordError(f"record 'result.scores' must be a list of {n} ints (one per "
                              f"{'seat' if cutthroat else 'team'}), got {short_repr(sc)}")
        w = result.get("winner")
        if w is not None and (type(w) is not int or not 0 <= w < n):
            raise RecordError(f"record 'result.winner' must be {' or '.join(map(str, range(n)))} or null, got "
                              f"{short_repr(w)}")
        go = result.get("game_over")
        if go is not None and not isinstance(go, bool):
            raise RecordError(f"record 'result.game_over' must be true or false, got {short_repr(go)}")


def replay_steps(record: dict[str, Any]) -> Iterator[tuple[int, int, GameState, int, tuple[int, ...]]]:
    """Replay a record step by step.

    Yields ``(deal index, action index, state before the action, action id, legal ids)``,
    then applies the action. Raises ``RecordError`` at the first problem: a malformed
    record, a dealer that does not follow the rules' rotation, an action by the wrong
    seat, or an illegal action (the message gives the deal, the index and the legal ids).
    """
    for kind, i, j, state, action, legal in replay_events(record):
        if kind == "before":
            yield i, j, state, action, legal


def replay_events(record: dict[str, Any]) -> Iterator[tuple[str, int, int, GameState, int, tuple[int, ...]]]:
    """``replay_steps`` with more events: ``("deal", i, -1, state, -1, ())`` when deal ``i``
    has been dealt, ``("before", i, j, state, action, legal)`` before each action and
    ``("after", i, j, state, action, legal)`` once it is applied; same checks."""
    _validate(record)
    rules = Rules.from_dict(record.get("rules", {}))
    deals = record["deals"]
    state = GameState(rules, dealer=deals[0]["dealer"], deck=_deck_of(deals[0], 0, rules.contract_mode == "coinche"),
                     **_start_of(record))
    for i, deal in enumerate(deals):
        if i > 0:
            if not state.is_deal_over:
                raise RecordError(f"deal {i}: deal {i - 1} is not finished in the record")
            if state.is_game_over:
                raise RecordError(f"deal {i}: the game was already over after deal {i - 1}")
            state.next_deal(deck=_deck_of(deal, i, rules.contract_mode == "coinche"))
            if state.dealer != deal["dealer"]:
                raise RecordError(f"deal {i}: dealer {deal['dealer']} in the record, but the rules make seat "
                                  f"{state.dealer} deal")
        yield "deal", i, -1, state, -1, ()
        for j, (seat, action) in enumerate(deal.get("actions", [])):
            if state.is_deal_over:
                raise RecordError(f"deal {i} action {j}: the deal is already over")
            if seat != state.current:
                raise RecordError(f"deal {i} action {j}: seat {seat} acts in the record, but it is seat "
                                  f"{state.current}'s turn")
            legal = state.legal_actions()
            yield "before", i, j, state, action, legal
            try:
                state.apply(action)
            except IllegalActionError as e:
                raise RecordError(f"deal {i} action {j}: {e}") from e
            yield "after", i, j, state, action, legal
    result = record.get("result") or {}
    if result.get("scores") is not None and list(result["scores"]) != list(state.scores):
        raise RecordError(f"replayed scores {state.scores} differ from the record's result {result['scores']}")
    if "winner" in result and result["winner"] != state.winner:
        raise RecordError(f"replayed winner {state.winner} differs from the record's result {result['winner']}")
    if result.get("game_over") is not None and result["game_over"] != state.is_game_over:
        raise RecordError(f"replayed game_over {state.is_game_over} differs from the record's {result['game_over']}")


def replay(record: dict[str, Any]):
    """Re-run a record; returns the final state (a ``GameState``, or a
    at every table). Raises ``RecordError`` (see
    ``replay_steps``)."""
    state = None
    for _, _, state, _, _ in replay_steps(record):
        pass
    if state is None:  # no actions at all
        _validate(record)
        d = record["deals"][0]
        rules = Rules.from_dict(record.get("rules", {}))
        return GameState(rules, dealer=d["dealer"], deck=_deck_of(d, 0, rules.contract_mode == "coinche"),
                        **_start_of(record))
    return state


_TEAMS = ("team 0 (South, North)", "team 1 (West, East)")


def replay_text(record: dict[str, Any], legal: bool = False) -> Iterator[str]:
    """The game of ``record`` as lines a person reads, produced while it is replayed.

    For each deal: the dealer and turned card (coinche: none), the hands as dealt, the
    auction (who bid what; at two and three seats the proposals and their answers), the
    contract and the hands once dealt in full (two and three seats: the bottom card too),
    the two- and three-seat steps (the exchange of the seven, the taker's discards, the
    combinations announced and answered and whose score, TWO_THREE.md §2), then trick by
    trick who played what (with announcements and declarations), who won it and its card
    points, and the deal's score (per team, or per seat without partners) right after its
    last trick. Then the game result. A record is complete information, so every hand is
    shown. With ``legal``, each decision also gets a line with the legal actions. An
    unfinished last deal is shown up to where it stops. Raises ``RecordError`` (see
    ``replay_steps``) at the first problem, after the lines of the play before it.
    """
    from .actions import DECLARE, EXCHANGE_SEVEN, KEEP
    from .game import STEPS
    from .render import action_label, coinche_contract_label, contract_label, contract_text, hand_by_suit
    from .table import table_of

    _validate(record)
    rules = Rules.from_dict(record.get("rules", {}))
    teams, n = game_of(rules).has_partners, rules.players
    names = table_of(n).names

    def who(seat: int) -> str:
        return f"{names[seat]} (seat {seat})"

    def hands(state: GameState, title: str) -> Iterator[str]:
        yield f"  {title}:"
        for seat in range(n):
            yield f"    {names[seat]:5s} ({seat}): {hand_by_suit(state.hands[seat])}"

    def per(v) -> str:  # a quantity of the deal or the game: per team, or per seat
        return f"{v[0]} - {v[1]}" if teams else ", ".join(f"{names[s]} {v[s]}" for s in range(n))

    state = None
    bids: list[str] = []
    played: list[str] = []  # the trick in progress, as "West K♥ (belote)"
    notes: dict[int, list[str]] = {}
    n_ann = 0
    for kind, i, j, state, action, lg in replay_events(record):
        if kind == "deal":
            bids, played, notes, n_ann = [], [], {}, 0
            turned = "coinche" if state.turned_card < 0 else f"turned card {card_to_str(state.turned_card)}"
            yield f"deal {i}: dealer {who(state.dealer)}, {turned}"  # coinche: every card dealt at once
            yield from hands(state, f"hands dealt ({state.hands[0].bit_count()} cards)")
            continue
        if kind == "before":
            before_phase, before_step, before_points = state.phase, state.step, sum(state.card_points)
            before_tricks, before_winner, before_declared = len(state.tricks), state.decl_winner, list(state.declared)
            actor = state.current
            if legal:
                yield (f"    [{j}] {names[actor]} -> {action_label(action, state.turned_card)}   legal: "
                       + ", ".join(action_label(a, state.turned_card) for a in lg))
            continue
        # "after": the action is applied
        if before_phase == Phase.BIDDING:
            bids.append(f"{names[actor]} {action_label(action, state.turned_card)}")
            if state.phase != Phase.BIDDING:
                yield "  auction: " + ", ".join(bids)
                if state.void:
                    yield ("  a redeal was agreed: the deal is redealt" if state.redeal
                           else "  everybody passed: the deal is redealt")
                elif not teams:
                    yield f"  contract: {contract_text(state.contract)}, made by {who(state.taker)}"
                    yield from hands(state, "hands once the deal is completed")
                    if state.bottom_card >= 0:
                        yield f"  bottom card (shown to all): {card_to_str(state.bottom_card)}"
                elif state.turned_card < 0:
                    yield (f"  contract: {coinche_contract_label(state.contract)}, bid by {names[state.taker]} "
                           f"(seat {state.taker}, team {team_of(state.taker)})")
                else:
                    yield (f"  contract: {contract_label(state.denomination)}, taken by {names[state.taker]} "
                           f"(seat {state.taker}, team {team_of(state.taker)})")
                    yield from hands(state, "hands after the auction (8 cards)")
            continue
        step = STEPS[before_step] if before_step >= 0 else ""  # a two- and three-seat step
        if step == "exchange":
            if action == EXCHANGE_SEVEN:
                yield f"  {who(actor)} exchanges the 7 of trump for the turned card {card_to_str(state.turned_card)}"
            elif action == KEEP and legal:
                yield f"  {who(actor)} keeps"
            continue
        if step == "discard":
            yield f"  {who(actor)} discards {card_to_str(action)}"
            continue
        if step == "declare":
            label = action_label(action)
            if action == DECLARE:
                label += f" ({state.declared[actor][0]})"
            yield f"  combinations: {who(actor)} {label}"
            if state.decl_winner != before_winner and state.decl_winner != -2:
                if state.decl_winner >= 0:
                    pts = sum(d.points for d in state.combos[state.decl_winner])
                    cards = " ".join(map(card_to_str, cards_of(state.decl_cards)))
                    yield f"  combinations score for {who(state.decl_winner)}: {cards} ({pts} points)"
                else:
                    yield "  no combination scores"
            continue
        if not 0 <= action < NUM_CARDS:  # announce / declare / decline: noted on the seat's next card
            notes.setdefault(actor, []).append(action_label(action))
            continue
        extra = notes.pop(actor, [])
        if state.declared[actor] != before_declared[actor]:  # four seats: declared with the first card
            for d in state.declared[actor]:
                extra.append(f"declares {d.kind} {' '.join(map(card_to_str, cards_of(d.cards)))} ({d.points})")
        for _, ann, _ in state.announcements[n_ann:]:
            extra.append(ann)
        n_ann = len(state.announcements)
        played.append(f"{names[actor]} {card_to_str(action)}" + (f" ({'; '.join(extra)})" if extra else ""))
        if len(state.tricks) > before_tricks:
            winner = state.tricks[-1][2]
            last = " + 10 for the last trick" if state.is_deal_over else ""
            yield (f"  trick {len(state.tricks)}: {', '.join(played)} -> {names[winner]} wins "
                   f"({sum(state.card_points) - before_points} points{last})")
            played = []
            if state.is_deal_over:
                d = state.deal_score
                if teams:
                    line = (f"  deal {i} score: {d.outcome} (taker team {d.taker_team}"
                            + (f", capot by team {d.capot}" if d.capot is not None else "")
                            + f"); team 0 - team 1: trick points {per(d.trick_points)}")
                    if any(d.belote):
                        line += f", belote {per(d.belote)}"
                    if any(d.declarations):
                        line += f", declarations {per(d.declarations)}"
                    if any(d.reserve_won) or d.reserve_in or d.reserve_out:
                        line += f", reserve in {d.reserve_in} won {per(d.reserve_won)} out {d.reserve_out}"
                else:
                    line = f"  deal {i} score: {d.outcome} (maker {who(d.taker)}); totals {per(d.totals)}"
                    if d.reserve_in or d.reserve_out or any(d.reserve_won):
                        line += f", reserve in {d.reserve_in} out {d.reserve_out}"
                yield line + f"; deal points {per(d.points)}; game {per(state.scores)}"
    if state is None:  # replay_events always yields a "deal" event first
        return
    if not state.is_deal_over:
        if state.phase == Phase.BIDDING:
            yield "  auction so far: " + (", ".join(bids) or "(no bid yet)")
        elif played:
            yield f"  trick {len(state.tricks) + 1} so far: {', '.join(played)}"
        yield f"  the record stops here, {who(state.current)} to act"
    result = ("none yet (the game is not finished)" if not state.is_game_over else "none (a draw)"
              if state.winner is None else _TEAMS[state.winner] if teams else who(state.winner))
    scores = f"team 0 {state.scores[0]}, team 1 {state.scores[1]}" if teams else per(state.scores)
    yield f"final scores: {scores}; winner: {result}"
