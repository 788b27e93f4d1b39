"""``belote play``: a person takes a seat in the terminal against the AI tiers.

The view is the seat's information set only (RULES.md §11): its hand sorted by suit with
the legal cards starred, the trick, the contract, the bids and the scores. Input: a card
name (``JS``, ``10♥``, ``th``), an action name (``pass``, ``take``, ``hearts``, ``name
hearts``, ``declare``, ``belote``) or the number shown before a legal action. Anything
else is refused with the reason and asked again.
"""

from __future__ import annotations

import sys
from typing import Callable, TextIO

from belote_env import GameState, InfoSet, Rules
from belote_env.actions import ANNOUNCE_BELOTE, DECLARE, NAME_CONTRACT, PASS, TAKE, action_to_string
from belote_env.cards import CONTRACT_NAMES, parse_card
from belote_env.game import SEAT_NAMES
from belote_env.render import render_text

__all__ = ["HumanPolicy", "parse_input", "play_game_interactive"]

_ALIASES = {"pass": PASS, "take": TAKE, "belote": ANNOUNCE_BELOTE, "announce": ANNOUNCE_BELOTE, "announce belote": ANNOUNCE_BELOTE,
            "declare": DECLARE}
for _k, _name in enumerate(CONTRACT_NAMES):
    _ALIASES[_name] = NAME_CONTRACT + _k
    _ALIASES["name " + _name] = NAME_CONTRACT + _k
_ALIASES.update({"notrump": NAME_CONTRACT + 4, "no trump": NAME_CONTRACT + 4, "alltrump": NAME_CONTRACT + 5,
                 "all trump": NAME_CONTRACT + 5})


def parse_input(text: str, legal: tuple[int, ...]) -> tuple[int | None, str]:
    """Turn what a person typed into a legal action id.

    Returns ``(action, "")`` or ``(None, reason)`` naming what was wrong and what is allowed.
    """
    t = text.strip().lower()
    if not t:
        return None, "empty input"
    listed = {action_to_string(a).lower(): a for a in legal}
    if t.isdigit():
        i = int(t)
        if 1 <= i <= len(legal):
            return legal[i - 1], ""
        return None, f"number {i} is not in the list 1..{len(legal)}"
    if t in listed:
        return listed[t], ""
    if t in _ALIASES:
        a = _ALIASES[t]
        return (a, "") if a in legal else (None, f"'{text.strip()}' ({action_to_string(a)}) is not legal now")
    try:
        c = parse_card(text)
    except ValueError:
        return None, f"cannot read '{text.strip()}': type a card (JS, 10H, 9♦), an action name or a number"
    if c in legal:
        return c, ""
    return None, f"{action_to_string(c)} is not legal now"


class HumanPolicy:
    """A seat played by a person through ``input_fn`` / ``output`` (a terminal by default)."""

    name = "human"

    def __init__(self, input_fn: Callable[[str], str] = input, output: TextIO = sys.stdout):
        self.input_fn, self.output = input_fn, output

    def act(self, info: InfoSet) -> int:
        legal = info.legal_actions
        print("\n" + render_text(info), file=self.output)
        print("Choices: " + "  ".join(f"[{i}] {action_to_string(a)}" for i, a in enumerate(legal, 1)), file=self.output)
        while True:
            try:
                text = self.input_fn("your move> ")
            except EOFError:
                raise KeyboardInterrupt("input closed") from None
            action, why = parse_input(text, legal)
            if action is not None:
                return action
            print(f"  refused: {why}", file=self.output)


def play_game_interactive(policies: list, rules: Rules, seed: int, human_seat: int, output: TextIO = sys.stdout,
                          dealer: int = 0) -> GameState:
    """Play one game (RULES.md §8) with ``policies[seat]``; prints deal results to ``output``."""
    state = GameState(rules, seed=seed, dealer=dealer)
    while True:
        while not state.is_deal_over:
            seat = state.current
            info = state.information_set(seat)
            action = policies[seat].act(info)
            if action not in info.legal_actions:
                raise ValueError(f"policy {policies[seat].name!r} returned illegal action {action!r}")
            if seat != human_seat:
                print(f"  {SEAT_NAMES[seat]} ({policies[seat].name}): {action_to_string(action)}", file=output)
            n_tricks = len(state.tricks)
            state.apply(action)
            if len(state.tricks) > n_tricks:
                print(f"  trick {len(state.tricks)} won by {SEAT_NAMES[state.tricks[-1][2]]}", file=output)
        if state.void:
            print("  everybody passed: the deal is redealt", file=output)
        else:
            s = state.deal_score
            us = human_seat & 1
            print(f"\nDeal over: {s.outcome}; you {s.points[us]} - them {s.points[1 - us]}; "
                  f"game: you {state.scores[us]} - them {state.scores[1 - us]}", file=output)
        if state.is_game_over:
            w = state.winner
            print("Game over: " + ("a draw" if w is None else "you win!" if w == (human_seat & 1) else "you lose"),
                  file=output)
            return state
        state.next_deal()
