"""Duplicate matches draw each deck from (seed, pair, deal number, redeal), so both copies
of a pair play the same deck at the same deal even when a deal is passed out in one copy
only."""

import functools

from belote_env import GameState, Rules
from belote_env.actions import PASS
from policies import make_policy
from training.evaluate import match_deck, play_game


def _decks_by_deal(state: GameState) -> dict[tuple[int, int], tuple[int, ...]]:
    """(deal number, redeal) -> deck, from a finished game's deal log."""
    out, deal, redeal = {}, 0, 0
    for d in state.deal_log:
        out[(deal, redeal)] = tuple(d["deck"])
        void = all(a == PASS for _, a in d["actions"])  # eight passes
        deal, redeal = (deal, redeal + 1) if void else (deal + 1, 0)
    return out


class _Passer:
    """Passes whenever it may, else plays its first legal card: with ``easy`` (which takes
    only with the jack of the turned suit) on the other team, deals are often passed out
    in one copy of a pair and played in the other."""

    name = "passer"

    def act(self, info):
        return PASS if PASS in info.legal_actions else info.legal_actions[0]


def _copy(seed: int, pair: int, a_team: int):
    a, b = _Passer(), make_policy("easy", seed=2)
    seats = [a if s % 2 == a_team else b for s in range(4)]
    decks = functools.partial(match_deck, seed, pair)
    st = GameState(Rules(target=300), dealer=pair % 4, deck=decks(0, 0))
    play_game(st, seats, decks=decks)
    return st


def test_match_deck_is_a_seeded_shuffle_of_the_32_cards():
    d = match_deck(3, 7, 2, 1)
    assert sorted(d) == list(range(32)) and d == match_deck(3, 7, 2, 1)
    assert d != match_deck(3, 7, 2, 0) and d != match_deck(3, 7, 3, 1) and d != match_deck(3, 8, 2, 1)


def test_both_copies_play_the_same_deck_at_each_deal_after_a_one_sided_void():
    seed, found = 5, 0
    for pair in range(40):
        copies = [_copy(seed, pair, t) for t in (0, 1)]
        logs = [_decks_by_deal(st) for st in copies]
        for log in logs:
            for (deal, redeal), deck in log.items():
                assert deck == tuple(match_deck(seed, pair, deal, redeal))
        voids = [{k for k in log if k[1] > 0} for log in logs]
        if voids[0] != voids[1]:  # a deal passed out in one copy only
            first = min(d for d, _ in voids[0] ^ voids[1])
            later = [k for k in logs[0] if k in logs[1] and k[0] > first]
            assert all(logs[0][k] == logs[1][k] for k in later)
            found += bool(later)  # the games went on: the copies still mirror each other
    assert found >= 3
