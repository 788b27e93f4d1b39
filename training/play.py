"""``belote play``: a person takes a seat in the terminal against the AI tiers.

The view is the seat's information set only (RULES.md §11): its hand sorted by suit with
the legal cards starred, the trick, the contract, the bids and the scores, every action in
words (``8♦``, ``pass``, ``take``, ``♠ trump``). Input: a card (``8d``, ``8♦``, ``10h``,
``Jh``, ``th``), an action in words (``pass``, ``take``, ``hearts``, ``♥ trump``, ``name
hearts``, ``declare``, ``belote``; under coinche rules a bid as a value and a trump,
``110 clubs``, ``110c``, ``110 ♣``, ``80 sa``, ``capot hearts``, and ``coinche``,
``surcoinche``) or the number shown before a choice; ``help`` lists them (``help_text``:
the coinche bids under coinche rules) and ``quit`` stops. Anything else is refused with
the reason and asked again. The end of each deal is one line (``deal_over_text``): the
contract's fate, capot, belote-rebelote, declarations, the deal's and the game's points.

``quit``, Ctrl-C (``KeyboardInterrupt``) and the end of input (``EOFError``) stop the game
and save the game so far as a record (``belote replay`` reads it): to ``save_path`` if
given, else to ``./belote_game_<seed>_<date-time>.json``; the path is printed. A bot that
raises or returns an illegal action stops the game the same way (saved), then raises
``BotFailure`` naming the bot, its seat and the type of its error, never the action it
returned nor its exception's message (either could reveal its hidden cards, RULES.md §11).

Two and three players (``rules.players`` 2 or 3, TWO_THREE.md): the same function and
input; the choices are listed by number and in words (``accept`` is ``take``, ``propose
redeal``, ``agree redeal``, ``exchange 7 of trump``, ``keep``, ``enough`` ...), the seats
named as on the screen (``render_play_text``), every seat's points shown.
"""

from __future__ import annotations

import operator
import re
import sys
import time
from pathlib import Path
from typing import Callable, TextIO

from belote_env import GameState, InfoSet, Rules
from belote_env.actions import (
    ANNOUNCE_BELOTE, COINCHE, DECLARE, GENERALE, KEEP, PASS, SURCOINCHE, TAKE, action_to_string, bid_denomination,
    coinche_bid_action, coinche_bid_level, is_coinche_bid, name_contract_action,
)
from belote_env.games import game_of
from belote_env.cards import ALL_TRUMP, CONTRACT_NAMES, NO_TRUMP, SUIT_SYMBOLS, parse_card, suit_of
from belote_env.driver import play_game
from belote_env.table import SEAT_NAMES, other_team, team_of
from belote_env.records import game_record, replay, write_record
from belote_env.deprecation import deprecated_names
from belote_env.game import STEPS
from belote_env.render import action_label, render_play_text

__all__ = ["BotFailure", "HumanPolicy", "QuitGame", "HELP_TEXT", "help_text", "parse_input", "play_game_interactive",
           "default_save_path", "deal_over_text", "save_game_so_far"]

_ALIASES = {"pass": PASS, "take": TAKE, "belote": ANNOUNCE_BELOTE, "announce": ANNOUNCE_BELOTE, "announce belote": ANNOUNCE_BELOTE,
            "declare": DECLARE}
for _k, _name in enumerate(CONTRACT_NAMES):
    _ALIASES[_name] = _ALIASES["name " + _name] = name_contract_action(_k)
for _k, (_sym, _letter) in enumerate(zip(SUIT_SYMBOLS, "shdc")):
    for _word in (_sym, _letter, CONTRACT_NAMES[_k]):
        _ALIASES[f"{_word} trump"] = _ALIASES[f"trump {_word}"] = name_contract_action(_k)
_ALIASES.update({"notrump": name_contract_action(NO_TRUMP), "no trump": name_contract_action(NO_TRUMP),
                 "alltrump": name_contract_action(ALL_TRUMP), "all trump": name_contract_action(ALL_TRUMP)})

HELP_COMMANDS = ("help", "?")
QUIT_COMMANDS = ("quit", "exit")
#: what ``keep`` means at the exchange of the seven of trumps (TWO_THREE.md §2.5)
KEEP_MEANS = "does not exchange the seven of trumps; every seat is asked, holding it or not"
HELP_TEXT = """How to play:
  a card       rank then suit: 8d, 8♦, 10h, th, Jh, J♥, As (suits s h d c or ♠ ♥ ♦ ♣;
               ranks 7 8 9 10 J Q K A)
  a bid        pass, take (the turned card's suit as trump), in round 2 a suit as
               hearts or ♥ trump, or no-trump / all-trump when the rules allow them
  an action    declare, belote (announce belote) when they are offered
  a number     the choice with that number in the list
  help or ?    this help
  quit         save the game so far and stop (Ctrl-C and Ctrl-D do the same)"""

# Coinche bids in words (COINCHE.md §3): a value 80..650, capot or générale, then a trump.
_DENOMINATION_WORDS = {"sa": NO_TRUMP, "sans atout": NO_TRUMP, "sans-atout": NO_TRUMP, "nt": NO_TRUMP,
                       "no trump": NO_TRUMP, "no-trump": NO_TRUMP, "notrump": NO_TRUMP,
                       "ta": ALL_TRUMP, "tout atout": ALL_TRUMP, "tout-atout": ALL_TRUMP,
                       "all trump": ALL_TRUMP, "all-trump": ALL_TRUMP, "alltrump": ALL_TRUMP}
for _k, _words in enumerate((("pique", "piques"), ("coeur", "coeurs", "cœur", "cœurs"),
                             ("carreau", "carreaux"), ("trèfle", "trèfles", "trefle", "trefles"))):
    for _word in (SUIT_SYMBOLS[_k], "shdc"[_k], CONTRACT_NAMES[_k], CONTRACT_NAMES[_k][:-1]) + _words:
        _DENOMINATION_WORDS[_word] = _k
_COINCHE_WORDS = {"coinche": COINCHE, "contre": COINCHE, "double": COINCHE,
                  "surcoinche": SURCOINCHE, "surcontre": SURCOINCHE, "redouble": SURCOINCHE}
_BID_RE = re.compile(r"(?:bid\s*)?(\d+|capot|g[ée]n[ée]rale)\s*(.*)")


def help_text(rules: Rules | None = None) -> str:
    """The help ``belote play`` prints: ``HELP_TEXT``, or under coinche rules (COINCHE.md)
    the same with the coinche bids those rules offer (a value and a trump, capot /
    générale when enabled, coinche, surcoinche when allowed)."""
    if rules is None or rules.contract_mode != "coinche":
        return HELP_TEXT
    pad = " " * 15
    bids = [f"  a bid        pass, or a value 80..{rules.max_numeric_bid} by 10 and a trump: 110 clubs, 110c,",
            f"{pad}110 ♣, 110 clubs trump (trumps ♠ ♥ ♦ ♣ or s h d c, spades, hearts ...)"]
    if rules.coinche_denominations == "suits_sa_ta":
        bids.append(f"{pad}or no-trump / all-trump: 80 sa, 80 no trump, 80 nt, 90 ta, 90 tout atout")
    bids += [f"{pad}{name} and a trump: {name} hearts" for name, on in (("capot", rules.capot_bid),
                                                                       ("générale", rules.generale)) if on]
    bids.append(f"{pad}coinche (double the opponents' bid)"
                + (", surcoinche (redouble a coinche)" if rules.surcoinche_allowed else ""))
    lines = HELP_TEXT.splitlines()
    lines[3:5] = bids
    return "\n".join(lines)


def _levels_text(bids) -> str:
    """Coinche contract bids in few words: ``"90..160 or capot in ♠ ♥ ♦ ♣"`` when they are
    every listed value in every listed trump, else each one (``"90 ♥ trump, ..."``)."""
    levels = sorted({coinche_bid_level(a) for a in bids}, key=lambda v: (type(v) is str, v == GENERALE, v))
    trumps = sorted({bid_denomination(a, -1) for a in bids})
    nums = [v for v in levels if type(v) is int]
    if len(bids) != len(levels) * len(trumps) or nums and nums != list(range(nums[0], nums[-1] + 10, 10)):
        return ", ".join(action_label(a) for a in bids)
    words = [f"{nums[0]}..{nums[-1]}" if len(nums) > 1 else str(nums[0])] if nums else []
    words += ["générale" if v == GENERALE else v for v in levels if type(v) is str]
    return " or ".join(words) + " in " + " ".join(SUIT_SYMBOLS[d] if d < 4 else CONTRACT_NAMES[d] for d in trumps)


def _legal_text(legal: tuple[int, ...], turned_card: int | None = None) -> str:
    """What is legal now, in words, coinche bids grouped: ``"pass, bids 90..160 or capot in
    ♠ ♥ ♦ ♣, coinche"``."""
    bids = [a for a in legal if is_coinche_bid(a)]
    words = [action_label(a, turned_card) for a in legal if a == PASS]
    words += [f"bids {_levels_text(bids)}"] if bids else []
    words += [action_label(a, turned_card) for a in legal if a != PASS and not is_coinche_bid(a)]
    return ", ".join(words) or "nothing"


def _parse_coinche(t: str, text: str, legal: tuple[int, ...], rules: Rules | None) -> tuple[int | None, str] | None:
    """A coinche auction word read from ``t`` (the lower-cased, single-spaced input):
    ``110 clubs``, ``110c``, ``110 ♣``, ``80 sa``, ``capot hearts``, ``générale ta``,
    ``coinche``, ``surcoinche``; ``(action, "")`` or ``(None, why)`` for a bid that is
    not legal now or not offered by ``rules``; ``None`` when ``t`` is no such word."""
    def refused(a: int) -> tuple[None, str]:
        return None, f"'{text.strip()}' ({action_label(a)}) is not legal now; legal now: {_legal_text(legal)}"

    if t in _COINCHE_WORDS:
        a = _COINCHE_WORDS[t]
        if a == SURCOINCHE and rules is not None and not rules.surcoinche_allowed:
            return None, "these rules have no surcoinche (surcoinche_allowed: false)"
        return (a, "") if a in legal else refused(a)
    bare = t.removesuffix(" trumps").removesuffix(" trump")
    if t in _DENOMINATION_WORDS or bare in _DENOMINATION_WORDS:
        return None, f"a coinche bid is a value and a trump, e.g. 80 {text.strip()}; legal now: {_legal_text(legal)}"
    m = _BID_RE.fullmatch(t)
    if m is None:
        return None
    level, rest = m.groups()
    level = int(level) if level.isdigit() else "capot" if level == "capot" else GENERALE
    denomination = _DENOMINATION_WORDS.get(rest, _DENOMINATION_WORDS.get(rest.removesuffix(" trumps")
                                                                         .removesuffix(" trump")))
    if type(level) is int and not (80 <= level <= 650 and level % 10 == 0):
        if level in (7, 8, 9, 10) or denomination is None:
            return None  # a card (10c) or nothing readable
        return None, f"a bid's value is 80, 90, 100, ... (a multiple of 10 from 80), got {level}"
    if rules is not None:
        if type(level) is int and level > rules.max_numeric_bid:
            return None, f"values go up to {rules.max_numeric_bid} under these rules (max_numeric_bid)"
        if level == "capot" and not rules.capot_bid:
            return None, "these rules have no capot bid (capot_bid: false)"
        if level == GENERALE and not rules.generale:
            return None, "these rules have no générale bid (generale: false)"
        if denomination is not None and denomination >= 4 and rules.coinche_denominations != "suits_sa_ta":
            return None, ("no-trump and all-trump are not bid under these rules (coinche_denominations: "
                          f"{rules.coinche_denominations}): name a suit, ♠ ♥ ♦ ♣")
    if denomination is None:
        at_level = [a for a in legal if is_coinche_bid(a) and coinche_bid_level(a) == level]
        if not rest and len(at_level) == 1:
            return at_level[0], ""
        what = "name the trump too" if not rest else f"cannot read the trump '{rest}'"
        return None, f"{what}: {m.group(1)} ♠, {m.group(1)} hearts, ...; legal now: {_legal_text(legal)}"
    a = coinche_bid_action(level, denomination)
    return (a, "") if a in legal else refused(a)


class QuitGame(Exception):
    """Raised by ``HumanPolicy`` when the person types ``quit``."""


class BotFailure(ValueError):
    """A bot of ``play_game_interactive`` raised or returned an illegal action; the game so
    far is saved to ``path``. The message names the bot, its seat, the type of its exception
    and the path, never the action it returned nor its exception's message nor that seat's
    legal actions (RULES.md §11); the bot's exception is not chained. Attributes: ``seat``,
    ``policy`` (its name), ``path``."""

    def __init__(self, message: str, seat: int, policy: str, path: Path):
        super().__init__(message)
        self.seat, self.policy, self.path = seat, policy, path


def parse_input(text: str, legal: tuple[int, ...], turned_card: int | None = None,
                rules: Rules | None = None) -> tuple[int | None, str]:
    """Turn what a person typed into a legal action id.

    Accepts a card (``8d``, ``8♦``, ``10h``, ``Jh``), an action in words as listed
    (``pass``, ``take``, ``♠ trump``, ``hearts``, ``name hearts``, ...) or the number of a
    choice (1 = ``legal[0]``). Naming the turned card's suit as trump while ``take`` is
    legal means ``take`` (``turned_card`` given). Under coinche rules (``rules`` in
    ``contract_mode: coinche``, or a coinche bid among ``legal``): a bid as a value and a
    trump (``110 clubs``, ``110c``, ``110 ♣``, ``80 sa``, ``80 no trump``, ``90 tout
    atout``, ``capot hearts``, ``générale ♠``), ``coinche`` (``contre``) and
    ``surcoinche`` (``surcontre``). Returns ``(action, "")`` or ``(None, reason)`` naming
    what was wrong and what is allowed.
    """
    t = " ".join(text.strip().lower().split())
    if not t:
        return None, "empty input (type help for the commands)"
    if len(t) > 200:  # nothing to type is this long (an int() of thousands of digits would raise)
        return None, f"input of {len(t):,} characters: type a choice number, a card, a bid or help"
    coinche = getattr(rules, "contract_mode", None) == "coinche" or any(map(is_coinche_bid, legal))
    listed = {}
    for a in legal:
        listed[action_to_string(a).lower()] = a
        listed[action_label(a).lower()] = a
        if turned_card is not None:
            listed[action_label(a, turned_card).lower()] = a
    if t.isdigit():
        i = int(t)
        if 1 <= i <= len(legal):
            return legal[i - 1], ""
        read = _parse_coinche(t, text, legal, rules) if coinche else None  # a bid's value alone (110)?
        if read is not None and read[0] is not None:
            return read
        return None, f"number {i} is not in the list 1..{len(legal)}" + (f"; {read[1]}" if read else "")
    if t in listed:
        return listed[t], ""
    if coinche:
        read = _parse_coinche(t, text, legal, rules)
        if read is not None:
            return read
    if t in _ALIASES:
        a = _ALIASES[t]
        if (a not in legal and turned_card is not None and TAKE in legal
                and a == name_contract_action(suit_of(turned_card))):
            return TAKE, ""
        return (a, "") if a in legal else (None, f"'{text.strip()}' ({action_label(a)}) is not legal now")
    try:
        c = parse_card(text)
    except ValueError:
        bid = "110 clubs, coinche" if coinche else "pass, take"
        return None, (f"cannot read '{text.strip()}': type a card (8d, 10h, J♠), an action in words ({bid}), "
                      "a number from the list, or help")
    if c in legal:
        return c, ""
    return None, f"{action_label(c)} is not legal now"


class HumanPolicy:
    """A seat played by a person through ``input_fn`` / ``output`` (a terminal by default).

    ``help`` prints ``HELP_TEXT``; ``quit`` raises ``QuitGame`` (and sets
    ``quit_requested``); Ctrl-C and the end of input propagate as ``KeyboardInterrupt`` /
    ``EOFError`` (``play_game_interactive`` saves the game on all three)."""

    name = "human"

    def __init__(self, input_fn: Callable[[str], str] | None = None, output: TextIO | None = None):
        self._input_fn, self._output = input_fn, output  # None: input() / sys.stdout at the time of use
        self.quit_requested = False

    @property
    def input_fn(self) -> Callable[[str], str]:
        return self._input_fn if self._input_fn is not None else input

    @input_fn.setter
    def input_fn(self, fn: Callable[[str], str] | None) -> None:
        self._input_fn = fn

    @property
    def output(self) -> TextIO:
        return self._output if self._output is not None else sys.stdout

    def act(self, info: InfoSet) -> int:
        legal = info.legal_actions
        print("\n" + render_play_text(info), file=self.output)
        print("Choices: " + "  ".join(f"[{i}] {action_label(a, info.turned_card)}" for i, a in enumerate(legal, 1))
              + "   (help, quit)", file=self.output)
        if KEEP in legal:  # the two- and three-seat answer to the turned card (TWO_THREE.md §2.3)
            print(f"  (keep: {KEEP_MEANS})", file=self.output)
        while True:
            text = self.input_fn("your move> ")
            word = text.strip().lower()
            if word in HELP_COMMANDS:
                print(help_text(info.rules), file=self.output)
                continue
            if word in QUIT_COMMANDS:
                self.quit_requested = True
                raise QuitGame("quit")
            action, why = parse_input(text, legal, info.turned_card, info.rules)
            if action is not None:
                return action
            print(f"  refused: {why}", file=self.output)


def default_save_path(seed: int, folder: str | Path = ".", when: float | None = None) -> Path:
    """``folder/belote_game_<seed>_<YYYYmmdd-HHMMSS>.json`` (local time ``when``, default
    now), with ``_2``, ``_3``, ... added if that file exists."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
    base = Path(folder) / f"belote_game_{seed}_{stamp}"
    path, n = base.with_name(base.name + ".json"), 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}_{n}.json")
    return path


def save_game_so_far(state: GameState, path: str | Path) -> Path:
    """Save ``state``'s game, finished or not, as a record (atomically). The record is
    replayed before writing and its ``result`` taken from the replay, so the file always
    replays (``belote replay``) up to where the game stopped, even after an interruption
    inside ``GameState.apply``. Raises ``RecordError`` if it would not."""
    record = game_record(state)
    del record["result"]
    again = replay(record)
    record["result"] = {"scores": list(again.scores), "winner": again.winner, "game_over": again.is_game_over}
    return write_record(path, record)


def deal_over_text(state: GameState, seat: int) -> str:
    """The end-of-deal line of ``belote play`` for the person at ``seat``: at four seats
    the contract's fate and its taker, a capot, belote-rebelote, the declarations that
    count and a litige reserve when there are any (the figures of ``state.deal_score``,
    as ``belote replay`` shows them), then the deal's and the game's points:
    ``"Deal over: made (taker West), capot by them; belote-rebelote you 0 - them 20;
    deal: you 0 - them 272; game: you 0 - them 272"``; at two and three seats the maker's
    fate and every seat's points (``"Deal over: maker North made; this deal South (you)
    62, North 100; game South (you) 62, North 100"``)."""
    s = state.deal_score
    if not state.game.has_partners:
        names = state.table.names

        def per_seat(values) -> str:
            return ", ".join(f"{names[i]}{' (you)' if i == seat else ''} {v}" for i, v in enumerate(values))

        return (f"Deal over: maker {names[s.taker]} {s.outcome}; this deal {per_seat(s.points)}; "
                f"game {per_seat(state.scores)}")
    us, them = team_of(seat), other_team(team_of(seat))
    side = lambda v: f"you {v[us]} - them {v[them]}"  # noqa: E731
    parts = [f"{s.outcome} (taker {SEAT_NAMES[state.taker]})"
             + (f", capot by {'you' if s.capot == us else 'them'}" if s.capot is not None else "")]
    parts += [f"{what} {side(v)}" for what, v in (("belote-rebelote", s.belote), ("declarations", s.declarations))
              if any(v)]
    if any(s.reserve_won):
        parts.append(f"litige reserve won {side(s.reserve_won)}")
    if s.reserve_out:
        parts.append(f"{s.reserve_out} points held in the litige reserve for the next deal")
    return f"Deal over: {'; '.join(parts)}; deal: {side(s.points)}; game: {side(state.scores)}"


def _where(state: GameState) -> str:
    if state.is_deal_over:
        return "between deals"
    if state.denomination < 0:
        return "during the bidding"
    return f"at trick {len(state.tricks) + 1} of the deal"


def _ask(policy, info: InfoSet, human: bool) -> tuple[int | None, str | None]:
    """``(action, None)`` with ``policy``'s legal action as an int, or ``(None, what went
    wrong)`` in words that name no value: ``"returned an illegal action"`` or ``"raised
    KeyError"``. ``QuitGame``, ``KeyboardInterrupt``, ``EOFError`` (and any exception of the
    human's seat) propagate."""
    try:
        action = policy.act(info)
    except (QuitGame, EOFError):
        raise
    except Exception as e:
        if human:
            raise
        return None, f"raised {type(e).__name__}"
    try:
        a = int.__index__(operator.index(action))
        legal = a in info.legal_actions
    except Exception:  # not an int (a str, a float, an object whose __index__ raises...)
        legal = False
    return (a, None) if legal else (None, "returned an illegal action")


def play_game_interactive(policies: list, rules: Rules, seed: int, human_seat: int, output: TextIO | None = None,
                          dealer: int = 0, save_path: str | Path | None = None) -> GameState:
    """Play one game (RULES.md §8; at two and three seats TWO_THREE.md) with
    ``policies[seat]``; prints the other seats' moves, each trick's winner and points, and
    the deal results to ``output`` (public information only, RULES.md §11, TWO_THREE.md §5:
    another seat's discards are shown as "a choice").

    A finished game is saved as a record to ``save_path`` if given. On ``QuitGame``,
    ``KeyboardInterrupt`` or ``EOFError`` (from the human's input or while a bot thinks)
    the game so far is saved to ``save_path``, else to ``default_save_path(seed)``, the
    path is printed, and the unfinished state is returned (``state.is_game_over`` False).
    When a bot (a seat other than ``human_seat``) raises another exception or returns an
    illegal action, the game so far is saved there too and ``BotFailure`` is raised (see
    there: nothing of that seat's hidden cards is shown).
    """
    output = sys.stdout if output is None else output
    game = game_of(rules)
    names = game.table.names
    source = "RULES.md §11" if game.has_partners else "TWO_THREE.md §5"
    state = GameState(rules, seed=seed, dealer=dealer)
    before = [0, 0]  # tricks and card points before the move being played
    explained: list[bool] = []  # another seat's keep was explained (two and three seats)

    def decide(state: GameState, info: InfoSet, policy) -> int:
        seat = info.seat
        action, failure = _ask(policy, info, seat == human_seat)
        if failure is not None:  # raised here, outside any except block: nothing chained
            name = getattr(policy, "name", type(policy).__name__)
            path = save_game_so_far(state, save_path if save_path is not None else default_save_path(seed))
            raise BotFailure(f"policy {name!r} at seat {seat} ({names[seat]}) {failure} (not shown: it "
                             f"could reveal that seat's hidden cards, {source}); the game so far is saved "
                             f"to {path} (belote replay {path} shows it)", seat, name, path)
        if seat != human_seat:
            if info.step == STEPS.index("discard"):  # the taker's discards: hidden
                shown = "a choice"
            elif action == KEEP:  # what keep means is said the first time only
                shown = "keep" if explained else f"keep ({KEEP_MEANS})"
                explained.append(True)
            else:
                shown = action_label(action, state.turned_card)
            print(f"  {names[seat]} ({policy.name}): {shown}", file=output)
        before[:] = len(state.tricks), sum(state.card_points)
        return action

    def after(state: GameState, seat: int, action: int) -> None:
        if len(state.tricks) > before[0]:
            print(f"  trick {len(state.tricks)} won by {names[state.tricks[-1][2]]} "
                  f"({sum(state.card_points) - before[1]} points"
                  + (" + 10 for the last trick)" if not any(state.hands) else ")"), file=output)

    def deal_over(state: GameState) -> None:
        if state.void:
            print("  everybody passed: the deal is redealt" if game.auction_kind != "proposal" else
                  "  no trump was fixed (all passed, or a redeal was agreed): the deal is redealt", file=output)
        else:
            print("\n" + deal_over_text(state, human_seat), file=output)

    try:
        play_game(state, policies, decide=decide, after=after, deal_over=deal_over, max_voids=None,
                  teams=game.table.side)
        w = state.winner
        mine = game.table.side[human_seat]
        print("Game over: " + ("a draw" if w is None else "you win!" if w == mine else
                               "you lose" if game.has_partners else f"{names[w]} wins"), file=output)
        if save_path is not None:
            print(f"record saved to {save_game_so_far(state, save_path)}", file=output)
        return state
    except (QuitGame, KeyboardInterrupt, EOFError) as stop:
        why = ("you quit" if isinstance(stop, QuitGame) else "interrupted (Ctrl-C)"
               if isinstance(stop, KeyboardInterrupt) else "end of input")
        path = save_game_so_far(state, save_path if save_path is not None else default_save_path(seed))
        print(f"\ngame stopped {_where(state)} ({why}); the game so far is saved to {path} "
              f"(belote replay {path} shows it)", file=output)
        return state


def _old_play_game_interactive(policies: list, rules: Rules, seed: int, human_seat: int,
                                 output: TextIO | None = None, dealer: int = 0,
                                 save_path: str | Path | None = None) -> GameState:
    """``play_game_interactive`` (one body for every table)."""
    return play_game_interactive(policies, rules, seed, human_seat, output, dealer, save_path)


__getattr__ = deprecated_names(__name__, {
    "play_small_game_interactive": ("training.play.play_game_interactive (every table)",
                                    lambda: _old_play_game_interactive),
    "small_play_text": ("belote_env.render.render_play_text (every table)", lambda: render_play_text)})
