"""The information rule (RULES.md §11, COINCHE.md §9, TWO_THREE.md §5) by replayed decks: two
cards hidden from a seat are swapped in the deck of a deal, the same actions are replayed, and
everything the seat is handed (its information set, its observation, the rendered text, its
legal actions, the text of every refusal) must be the same wherever the table saw the same
events. Unlike a state whose hands alone are replaced, the replay recomputes every value the
engine derives from the cards (what is publicly known, belote pairs, combinations), so a leak
through any of them shows here."""

import dataclasses
import random

import numpy as np
import pytest

from belote_env import load_rules
from belote_env.actions import ANNOUNCE_BELOTE, DECLARE, num_actions
from belote_env.cards import Rank, card
from belote_env.game import GameState, IllegalActionError
from belote_env.games import game_of
from belote_env.render import render_view
from tests.conftest import random_game

RULE_SETS = [
    ("seed004", {"declarations": "choice", "belote": "optional"}),
    ("seed004", {"declarations": "auto", "round2_no_trump_all_trump": True}),
    ("coinche", {}),
    ("coinche_ffb_coinche_2015", {}),
    ("seed001_2p", {"declarations": "choice", "belote": "optional", "dix_exchange": "auto"}),
    ("seed001_3p", {"three_player_deal": "10_each", "declarations": "choice", "belote": "optional"}),
    ("seed001_3p", {"three_player_deal": "24_card", "tie": "litige"}),
]


def _rules(preset, overrides):
    return dataclasses.replace(load_rules(preset), **overrides) if overrides else load_rules(preset)


def _hidden_from(st: GameState, seat: int) -> list[int]:
    """The cards of the deal hidden from ``seat`` now (counted conservatively: a card that
    any public event names, and the other card of an announced belote, count as seen)."""
    seen = st.hands[seat] | st.out_of_play | st.decl_cards | (st.discarded if seat == st.taker else 0)
    for played in st.played_by:
        seen |= played
    for c in [*st.trick, st.turned_card, st.bottom_card]:
        seen |= 1 << c if c >= 0 else 0
    if game_of(st.rules).has_partners:
        for declared in st.declared:
            for d in declared:
                seen |= d.cards
    for _, _, c in st.announcements:
        seen |= 1 << c | 1 << card(Rank.QUEEN if c % 8 == Rank.KING else Rank.KING, c // 8)
    return [c for c in range(32) if not seen >> c & 1]


def _public(st: GameState, seat: int) -> tuple:
    """What the table saw, as ``seat`` saw it: the actions with the others' hidden choices
    (a belote announced or a declaration made before its card, the taker's discards) blanked,
    and the public outcomes of the cards (announcements, declarations, scores)."""
    acts = []
    for s, a in st.actions:
        hidden = s != seat and (a == ANNOUNCE_BELOTE or (a == DECLARE and game_of(st.rules).has_partners)
                                or (a < 32 and s == st.taker and st.discarded >> a & 1))
        acts.append((s, None if hidden else a))
    return (tuple(acts), tuple(st.announcements), tuple(map(tuple, st.declared)), st.decl_winner, st.decl_cards,
            st.exchanged, tuple(st.scores), st.turned_card, st.bottom_card)


def _replay(rules, log, decks, upto):
    """The game of ``log`` (``GameState.deal_log``) dealt from ``decks``, replayed to the
    ``upto[1]``-th action of deal ``upto[0]``; ``IllegalActionError`` where an action is
    not legal there."""
    st = GameState(rules, dealer=log[0]["dealer"], deck=decks[0])
    for i, deal in enumerate(log[:upto[0] + 1]):
        if i:
            st.next_deal(decks[i])
        for s, a in deal["actions"][:upto[1]] if i == upto[0] else deal["actions"]:
            if st.current_seat != s:
                raise IllegalActionError("another seat acts", a, s, ())
            st.apply(a)
    return st


def _handed(st: GameState, seat: int) -> dict:
    """Everything ``seat`` is handed at ``st``."""
    info = st.information_set(seat)
    game = game_of(st.rules)
    out = {"info": info, "obs": game.encode(info).tobytes(), "text": render_view(info, "ansi")}
    if game.history_shape is not None:
        out["history"] = game.encode_history(info).tobytes()
    if st.current_seat == seat and not st.is_deal_over:
        out["legal"] = st.legal_actions()
        refusals = []
        for a in [-1, num_actions(st.rules), 1.5, "x", True, *range(num_actions(st.rules))]:
            if isinstance(a, int) and not isinstance(a, bool) and a in out["legal"]:
                continue
            try:
                st.clone().apply(a)
            except (IllegalActionError, ValueError, TypeError) as e:
                refusals.append(f"{type(e).__name__}: {e}")
        out["refusals"] = refusals
    return out


@pytest.mark.parametrize("preset,overrides", RULE_SETS, ids=[p + "".join(f"-{k}={v}" for k, v in o.items())
                                                              for p, o in RULE_SETS])
def test_a_seat_is_handed_the_same_after_a_replayed_swap_of_cards_hidden_from_it(preset, overrides):
    rules = _rules(preset, overrides)
    checked = refused = 0
    for seed in range(4):
        rng = random.Random(1000 + seed)
        game = random_game(rules, seed, 220, random_dealer=True)
        log = [dict(d) for d in game.deal_log]  # the deal being played too
        points = [(i, j) for i, d in enumerate(log) for j in range(len(d["actions"]) + 1)]
        for i, j in rng.sample(points, min(12, len(points))):
            decks = [list(d["deck"]) for d in log]
            st = _replay(rules, log, decks, (i, j))
            for seat in range(rules.players):
                hidden = _hidden_from(st, seat)
                if len(hidden) < 2:
                    continue
                place = {c: next((s for s in range(rules.players) if st.hands[s] >> c & 1), -1) for c in hidden}
                if len(set(place.values())) < 2:
                    continue  # a swap within one place (a hand, the cards nobody holds) changes nothing
                x = rng.choice(hidden)
                y = rng.choice([c for c in hidden if place[c] != place[x]])
                deck = decks[i][:]
                a, b = deck.index(x), deck.index(y)
                deck[a], deck[b] = y, x
                try:
                    other = _replay(rules, log, decks[:i] + [deck] + decks[i + 1:], (i, j))
                except (IllegalActionError, ValueError):
                    refused += 1  # the swapped deck does not allow the same actions
                    continue
                if _public(other, seat) != _public(st, seat):
                    refused += 1  # another history to the table (a belote, a combination shown)
                    continue
                assert other.hands != st.hands or other.deck != st.deck
                mine, theirs = _handed(st, seat), _handed(other, seat)
                for key in mine:
                    assert mine[key] == theirs[key], (preset, overrides, seed, (i, j), seat, (x, y), key)
                checked += 1
    assert checked >= 60, (checked, refused)
