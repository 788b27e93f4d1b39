"""The card-play kernels of ``belote_env.vector.kernels`` (the one compiled body of the
legal-card rule and the trick winner, used by both batched engines and the solver) equal
their reference, ``rules._legal`` / ``rules.trick_winner`` (RULES.md §4, TWO_THREE.md §2.8,
§3), on random tricks under every combination of the options the rule reads."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from belote_env.cards import ALL_TRUMP, BEATS, NO_TRUMP, SUIT_MASK, parse_card, parse_cards
from belote_env.rules import POWER, _legal, trick_winner
from belote_env.vector.kernels import legal_cards, trick_winner_pos

_POWER = np.array(POWER, dtype=np.int64)
_BEATS = np.array(BEATS, dtype=np.int64)
_SUIT = np.array(SUIT_MASK, dtype=np.int64)


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _kernel(hand, trick, k, partner_pos, two, pmf, over, under, win_pos=-1):
    arr = np.zeros(4, dtype=np.int64)
    arr[:len(trick)] = trick
    return int(legal_cards(hand, arr, len(trick), win_pos, k, partner_pos, int(two), int(pmf), int(over), int(under),
                           _POWER, _BEATS[k], _SUIT))


@pytest.mark.parametrize("two,pmf,over,under", list(itertools.product((0, 1), repeat=4)))
def test_legal_cards_equals_the_reference_rule_on_random_tricks(two, pmf, over, under):
    rng = random.Random(1000 + 8 * two + 4 * pmf + 2 * over + under)
    for _ in range(1500):
        deck = rng.sample(range(32), 32)
        n = rng.randrange(0, 4)
        trick, hand = deck[:n], _mask(deck[n:n + rng.randrange(1, 9)])
        k = rng.randrange(6)
        partner_pos = rng.choice((-1, n - 2, rng.randrange(max(n, 1))))
        want = hand if n == 0 else _legal(hand, trick, k, "two_player" if two else "classic", bool(pmf),
                                          "required" if under else "discard_allowed",
                                          "must_overtrump" if over else "free", partner_pos)
        assert _kernel(hand, trick, k, partner_pos, two, pmf, over, under) == want, (hand, trick, k, partner_pos)
        if n:  # the solver passes the winner it keeps: the same answer
            wp = trick_winner(trick, k)
            assert _kernel(hand, trick, k, partner_pos, two, pmf, over, under, win_pos=wp) == want


def test_trick_winner_pos_equals_the_reference_rule():
    rng = random.Random(7)
    for _ in range(3000):
        n = rng.randrange(1, 5)
        trick = rng.sample(range(32), n)
        k = rng.randrange(6)
        arr = np.array(trick + [0] * (4 - n), dtype=np.int64)
        assert trick_winner_pos(arr, n, k, _POWER) == trick_winner(trick, k), (trick, k)


def test_legal_cards_by_hand():
    """Hand-checked positions (RULES.md §4): hearts trump, spades led."""
    hearts = parse_card("AH") >> 3
    hand = parse_cards("7H JH 8C")
    # the opponent ruffed with the 9 of hearts: must overtrump with the jack
    assert _kernel(hand, [parse_card("AS"), parse_card("9H")], hearts, -1, 0, 1, 0, 1) == parse_cards("JH")
    # the partner (position 0 of a two-card trick) wins with the ace: free to discard
    assert _kernel(hand, [parse_card("AS"), parse_card("7S")], hearts, 0, 0, 1, 0, 1) == hand
    # no trump in hand and void: any card
    assert _kernel(parse_cards("8C 9D"), [parse_card("AS")], hearts, -1, 0, 1, 0, 1) == parse_cards("8C 9D")
    # all-trump: follow and beat the highest card of the led suit
    assert _kernel(parse_cards("7S JS QS"), [parse_card("9S")], ALL_TRUMP, -1, 0, 1, 0, 1) == \
        parse_cards("JS")
    # no-trump: follow suit, any card of it
    assert _kernel(parse_cards("7S QS 8C"), [parse_card("AS")], NO_TRUMP, -1, 0, 1, 0, 1) == \
        parse_cards("7S QS")
