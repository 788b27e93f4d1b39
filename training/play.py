"""``belote play``: a person takes a seat in the terminal against the AI tiers.

The view is the seat's information set only (RULES.md §11): its hand sorted by suit with
the legal cards starred, the trick, the contract, the bids and the scores, every action in
words (``8♦``, ``pass``, ``take``, ``♠ trump``). Input: a card (``8d``, ``8♦``, ``10h``,
``Jh``, ``th``), an action in words (``pass``, ``take``, ``hearts``, ``♥ trump``, ``name
hearts``, ``declare``, ``belote``) or the number shown before a choice; ``help`` lists
them and ``quit`` stops. Anything else is refused with the reason and asked again.

``quit``, Ctrl-C (``KeyboardInterrupt``) and the end of input (``EOFError``) stop the game
and save the game so far as a record (``belote replay`` reads it): to ``save_path`` if
given, else to ``./belote_game_<seed>_<date-time>.json``; the path is printed. A bot that
raises or returns an illegal action stops the game the same way (saved), then raises
``BotFailure`` naming the bot, its seat and the type of its error, never the action it
returned nor its exception's message (either could reveal its hidden cards, RULES.md §11).

Two and three players (``rules.players`` 2 or 3, TWO_THREE.md): ``play_small_game_interactive``
(the same input; the choices are listed by number and in words: ``accept`` is ``take``,
``propose redeal``, ``agree redeal``, ``exchange 7 of trump``, ``enough`` ...).
"""

from __future__ import annotations

import operator
import sys
import time
from pathlib import Path
from typing import Callable, TextIO

from belote_env import GameState, InfoSet, Rules
from belote_env.actions import ANNOUNCE_BELOTE, DECLARE, PASS, TAKE, action_to_string, name_contract_action
from belote_env.cards import ALL_TRUMP, CONTRACT_NAMES, NO_TRUMP, SUIT_SYMBOLS, SUITS, parse_card, suit_of
from belote_env.driver import play_game
from belote_env.table import SEAT_NAMES, other_team, team_of
from belote_env.records import game_record, replay, write_record
from belote_env.render import action_label, render_play_text

__all__ = ["BotFailure", "HumanPolicy", "QuitGame", "HELP_TEXT", "parse_input", "play_game_interactive", "default_save_path",
           "save_game_so_far", "play_small_game_interactive", "small_play_text"]

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
HELP_TEXT = """How to play:
  a card       rank then suit: 8d, 8♦, 10h, th, Jh, J♥, As (suits s h d c or ♠ ♥ ♦ ♣;
               ranks 7 8 9 10 J Q K A)
  a bid        pass, take (the turned card's suit as trump), in round 2 a suit as
               hearts or ♥ trump, or no-trump / all-trump when the rules allow them
  an action    declare, belote (announce belote) when they are offered
  a number     the choice with that number in the list
  help or ?    this help
  quit         save the game so far and stop (Ctrl-C and Ctrl-D do the same)"""


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


def parse_input(text: str, legal: tuple[int, ...], turned_card: int | None = None) -> tuple[int | None, str]:
    """Turn what a person typed into a legal action id.

    Accepts a card (``8d``, ``8♦``, ``10h``, ``Jh``), an action in words as listed
    (``pass``, ``take``, ``♠ trump``, ``hearts``, ``name hearts``, ...) or the number of a
    choice (1 = ``legal[0]``). Naming the turned card's suit as trump while ``take`` is
    legal means ``take`` (``turned_card`` given). Returns ``(action, "")`` or ``(None,
    reason)`` naming what was wrong and what is allowed.
    """
    t = " ".join(text.strip().lower().split())
    if not t:
        return None, "empty input (type help for the commands)"
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
        return None, f"number {i} is not in the list 1..{len(legal)}"
    if t in listed:
        return listed[t], ""
    if t in _ALIASES:
        a = _ALIASES[t]
        if (a not in legal and turned_card is not None and TAKE in legal
                and a == name_contract_action(suit_of(turned_card))):
            return TAKE, ""
        return (a, "") if a in legal else (None, f"'{text.strip()}' ({action_label(a)}) is not legal now")
    try:
        c = parse_card(text)
    except ValueError:
        return None, (f"cannot read '{text.strip()}': type a card (8d, 10h, J♠), an action in words (pass, take), "
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
        small = getattr(info.rules, "players", 4) != 4
        print("\n" + (small_play_text(info) if small else render_play_text(info)), file=self.output)
        print("Choices: " + "  ".join(f"[{i}] {action_label(a, info.turned_card)}" for i, a in enumerate(legal, 1))
              + "   (help, quit)", file=self.output)
        while True:
            text = self.input_fn("your move> ")
            word = text.strip().lower()
            if word in HELP_COMMANDS:
                print(HELP_TEXT, file=self.output)
                continue
            if word in QUIT_COMMANDS:
                self.quit_requested = True
                raise QuitGame("quit")
            action, why = parse_input(text, legal, info.turned_card)
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
    """Play one game (RULES.md §8) with ``policies[seat]``; prints the other seats' moves,
    each trick's winner and points, and the deal results to ``output`` (public information
    only, RULES.md §11).

    A finished game is saved as a record to ``save_path`` if given. On ``QuitGame``,
    ``KeyboardInterrupt`` or ``EOFError`` (from the human's input or while a bot thinks)
    the game so far is saved to ``save_path``, else to ``default_save_path(seed)``, the
    path is printed, and the unfinished state is returned (``state.is_game_over`` False).
    When a bot (a seat other than ``human_seat``) raises another exception or returns an
    illegal action, the game so far is saved there too and ``BotFailure`` is raised (see
    there: nothing of that seat's hidden cards is shown).
    """
    output = sys.stdout if output is None else output
    state = GameState(rules, seed=seed, dealer=dealer)
    before = [0, 0]  # tricks and card points before the move being played

    def decide(state: GameState, info: InfoSet, policy) -> int:
        seat = info.seat
        action, failure = _ask(policy, info, seat == human_seat)
        if failure is not None:  # raised here, outside any except block: nothing chained
            name = getattr(policy, "name", type(policy).__name__)
            path = save_game_so_far(state, save_path if save_path is not None else default_save_path(seed))
            raise BotFailure(f"policy {name!r} at seat {seat} ({SEAT_NAMES[seat]}) {failure} (not shown: it "
                             "could reveal that seat's hidden cards, RULES.md §11); the game so far is saved "
                             f"to {path} (belote replay {path} shows it)", seat, name, path)
        if seat != human_seat:
            print(f"  {SEAT_NAMES[seat]} ({policy.name}): {action_label(action, state.turned_card)}", file=output)
        before[:] = len(state.tricks), sum(state.card_points)
        return action

    def after(state: GameState, seat: int, action: int) -> None:
        if len(state.tricks) > before[0]:
            print(f"  trick {len(state.tricks)} won by {SEAT_NAMES[state.tricks[-1][2]]} "
                  f"({sum(state.card_points) - before[1]} points"
                  + (" + 10 for the last trick)" if len(state.tricks) == 8 else ")"), file=output)

    def deal_over(state: GameState) -> None:
        if state.void:
            print("  everybody passed: the deal is redealt", file=output)
        else:
            s = state.deal_score
            us, them = team_of(human_seat), other_team(team_of(human_seat))
            print(f"\nDeal over: {s.outcome}; you {s.points[us]} - them {s.points[them]}; "
                  f"game: you {state.scores[us]} - them {state.scores[them]}", file=output)

    try:
        play_game(state, policies, decide=decide, after=after, deal_over=deal_over, max_voids=None)
        w = state.winner
        print("Game over: " + ("a draw" if w is None else "you win!" if w == team_of(human_seat) else "you lose"),
              file=output)
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


# ---------------------------------------------------------------------------- two and three seats
def _small_seat_name(seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat}"


def small_play_text(info) -> str:
    """The table of a two- or three-player game (a ``SmallInfoSet``, TWO_THREE.md §5) as the
    person at ``info.seat`` reads it: scores, the turned and bottom cards, the bids, the
    maker and trump, combinations and belote, the last trick, the trick so far and the
    hand by suit with the legal cards starred. A renderer of ``belote_env.render`` for small
    tables (``render_small_play_text`` / ``render_small_text``) is used when it exists."""
    from belote_env import render

    for name in ("render_small_play_text", "render_small_text"):
        fn = getattr(render, name, None)
        if callable(fn):
            return fn(info)
    from belote_env.cards import card_to_str, cards_to_str

    me, n = info.seat, info.players
    name = lambda s: _small_seat_name(s, me)  # noqa: E731
    lines = [f"You: seat {me} of {n}; dealer {name(info.dealer)}, elder {name((info.dealer + 1) % n)}; game score "
             + ", ".join(f"{name(s)} {v}" for s, v in enumerate(info.scores))]
    turned = f"turned card {card_to_str(info.turned_card)}"
    if info.bottom_card >= 0:
        turned += f", bottom card {card_to_str(info.bottom_card)}"
    if info.trump >= 0:
        lines.append(f"Trump {SUIT_SYMBOLS[info.trump]}, maker {name(info.maker)}; {turned}"
                     + (f"; {name(info.exchanged)} exchanged the seven" if info.exchanged >= 0 else ""))
    else:
        lines.append(f"Bidding round {info.bid_round}; {turned}")
    if info.auction:
        lines.append("Bids: " + ", ".join(f"{name(s)} {action_label(a, info.turned_card)}" for s, a in info.auction))
    if info.decl_winner >= 0:
        lines.append(f"Combinations scored by {name(info.decl_winner)}: {cards_to_str(info.decl_cards)}")
    for seat, _, c in info.announcements:
        lines.append(f"Belote by {name(seat)} ({card_to_str(c)})")
    if info.trump >= 0:
        lines.append(f"Tricks played: {len(info.tricks)}; card points "
                     + ", ".join(f"{name(s)} {p}" for s, p in enumerate(info.card_points)))
        if info.tricks:
            leader, cards, winner = info.tricks[-1]
            lines.append("Last trick: " + ", ".join(f"{name((leader + i) % n)} {card_to_str(c)}"
                                                    for i, c in enumerate(cards)) + f" (won by {name(winner)})")
        lines.append("Trick: " + (", ".join(f"{name((info.trick_leader + i) % n)} {card_to_str(c)}"
                                            for i, c in enumerate(info.trick)) or "(empty)"))
    legal = set(info.legal_actions)
    by_suit = []
    for s in SUITS:
        cs = [c for c in range(8 * s, 8 * s + 8) if info.hand >> c & 1]
        if cs:
            by_suit.append(" ".join(card_to_str(c) + ("*" if c in legal else "") for c in reversed(cs)))
    lines.append("Your hand: " + ("   ".join(by_suit) or "(empty)"))
    return "\n".join(lines)


def play_small_game_interactive(policies: list, rules: Rules, seed: int, human_seat: int,
                                output: TextIO | None = None, dealer: int = 0,
                                save_path: str | Path | None = None):
    """``play_game_interactive`` for two and three players (``rules.players`` 2 or 3,
    TWO_THREE.md): one game to the rules' target with ``policies[seat]`` (``HumanPolicy``
    at ``human_seat``); prints the other seats' moves, each trick's winner and points and
    each deal's result (public information only, §5). ``quit``, Ctrl-C and the end of input
    save the game so far as a record (``belote_env.records.game_record``) to ``save_path``
    or ``default_save_path(seed)``; a bot that raises or returns an illegal action saves it
    too and raises ``BotFailure``. Returns the ``SmallGameState``."""
    from belote_env.records import game_record
    from belote_env.small_game import SmallGameState

    output = sys.stdout if output is None else output
    n = rules.players
    state = SmallGameState(rules, seed=seed, dealer=dealer)
    before = [0, 0]

    def save(path) -> Path:
        return write_record(path, game_record(state))

    def decide(state, info, policy) -> int:
        seat = info.seat
        action, failure = _ask(policy, info, seat == human_seat)
        if failure is not None:
            name = getattr(policy, "name", type(policy).__name__)
            path = save(save_path if save_path is not None else default_save_path(seed))
            raise BotFailure(f"policy {name!r} at seat {seat} {failure} (not shown: it could reveal that seat's "
                             f"hidden cards, TWO_THREE.md §5); the game so far is saved to {path}", seat, name, path)
        if seat != human_seat:
            shown = "a choice" if info.step == 1 else action_label(action, state.turned_card)  # discards stay hidden
            print(f"  seat {seat} ({policy.name}): {shown}", file=output)
        before[:] = len(state.tricks), sum(state.card_points)
        return action

    def after(state, seat: int, action: int) -> None:
        if len(state.tricks) > before[0]:
            last = not any(state.hands)
            print(f"  trick {len(state.tricks)} won by {_small_seat_name(state.tricks[-1][2], human_seat)} "
                  f"({sum(state.card_points) - before[1]} points" + (" + 10 for the last trick)" if last else ")"),
                  file=output)

    def deal_over(state) -> None:
        if state.void:
            print("  no trump was fixed (all passed, or a redeal was agreed): the deal is redealt", file=output)
        else:
            s = state.deal_score
            print(f"\nDeal over: maker {_small_seat_name(s.maker, human_seat)} {s.outcome}; this deal "
                  + ", ".join(f"{_small_seat_name(i, human_seat)} {p}" for i, p in enumerate(s.points))
                  + "; game " + ", ".join(f"{_small_seat_name(i, human_seat)} {p}" for i, p in enumerate(state.scores)),
                  file=output)

    try:
        play_game(state, policies, decide=decide, after=after, deal_over=deal_over, max_voids=None,
                  teams=tuple(range(n)))
        w = state.winner
        print("Game over: " + ("a draw" if w is None else "you win!" if w == human_seat else f"seat {w} wins"),
              file=output)
        if save_path is not None:
            print(f"record saved to {save(save_path)}", file=output)
        return state
    except (QuitGame, KeyboardInterrupt, EOFError) as stop:
        why = ("you quit" if isinstance(stop, QuitGame) else "interrupted (Ctrl-C)"
               if isinstance(stop, KeyboardInterrupt) else "end of input")
        path = save(save_path if save_path is not None else default_save_path(seed))
        print(f"\ngame stopped ({why}); the game so far is saved to {path}", file=output)
        return state
