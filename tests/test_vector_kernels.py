"""The card-play kernels of ``belote_env.vector.kernels`` (the one compiled body of the
legal-card rule and the trick winner, used by both batched engines and the solver) equal
their reference, ``rules._legal`` / ``rules.trick_winner`` (RULES.md §4, TWO_THREE.md §2.8,
§3), on random tricks under every combination of the options the rule reads; and the
table-size-free kernels both engines share (random streams, shuffle, mask marking, random
legal action, new-deal clearing)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from belote_env.cards import ALL_TRUMP, BEATS, NO_TRUMP, SUIT_MASK, parse_card, parse_cards
from belote_env.config import Rules
from belote_env.inference import card_reveals as reference_card_reveals
from belote_env.inference import reveals
from belote_env.rules import POWER, _legal, co_defender_pos, trick_winner
from belote_env.rules import legal_cards as reference_legal_cards
from belote_env.vector.kernels import (
    below, card_reveals, clear_table, legal_cards, mark_cards, random_legal, seed_tables, shuffle, trick_winner_pos,
)

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


@pytest.mark.parametrize("two,pmf,over,under", list(itertools.product((0, 1), repeat=4)))
def test_card_reveals_equals_the_reference_rule_on_random_tricks(two, pmf, over, under):
    rng = random.Random(2000 + 8 * two + 4 * pmf + 2 * over + under)
    for _ in range(1500):
        deck = rng.sample(range(32), 32)
        n = rng.randrange(0, 4)
        trick, c = deck[:n], deck[n]
        k = rng.randrange(6)
        partner_pos = rng.choice((-1, n - 2, rng.randrange(max(n, 1))))
        want = reveals(trick, c, k, "two_player" if two else "classic", bool(pmf),
                       "required" if under else "discard_allowed", "must_overtrump" if over else "free", partner_pos)
        arr = np.zeros(4, dtype=np.int64)
        arr[:n] = trick
        got = card_reveals(arr, n, c, k, partner_pos, two, pmf, over, under, _POWER, _BEATS[k], _SUIT)
        assert int(got) == want, (trick, c, k, partner_pos)


def _revealed_by_legality(c, legal_of) -> int:
    """The cards x whose holding beside ``c`` would have made ``c`` illegal: what playing
    ``c`` shows by definition (``legal_of(hand)`` the legal-card rule for the position)."""
    return _mask(x for x in range(32) if x != c and not legal_of((1 << c) | (1 << x)) >> c & 1)


@pytest.mark.parametrize("rules", [Rules(), Rules(partner_master_free=False), Rules(undertrump="discard_allowed"),
                                   Rules(obligations="two_player"), Rules(overtrump_partner="must_overtrump")],
                         ids=["default", "no_pmf", "discard", "two_player", "must_overtrump"])
def test_card_reveals_is_what_the_legal_rule_hides_at_four_seats(rules):
    """RULES.md §4, §11: a played card shows exactly the cards whose holding would have
    made it illegal (the closed form against the definition, brute force)."""
    rng = random.Random(17)
    for _ in range(400):
        deck = rng.sample(range(32), 32)
        n = rng.randrange(1, 4)
        trick, c, k = deck[:n], deck[n], rng.randrange(6)
        want = _revealed_by_legality(c, lambda hand: reference_legal_cards(hand, trick, k, rules)) & ~_mask(trick)
        assert reference_card_reveals(trick, c, k, rules) & ~_mask(trick) & ~(1 << c) == want, (trick, c, k)


@pytest.mark.parametrize("rules", [Rules(players=2), Rules(players=3),
                                   Rules(players=3, ruff_overtrump="only_trump_lead"),
                                   Rules(players=3, defender_partner_free=True)],
                         ids=["2p", "3p", "3p_only_trump_lead", "3p_partner_free"])
def test_card_reveals_is_what_the_legal_rule_hides_at_two_and_three_seats(rules):
    """TWO_THREE.md §2.8, §3: the same at the small tables, the co-defender's card
    freeing a defender under ``defender_partner_free``."""
    rng = random.Random(19)
    for _ in range(400):
        deck = rng.sample(range(32), 32)
        n = rng.randrange(1, rules.players)
        trick, c, trump = deck[:n], deck[n], rng.randrange(4)
        seat, maker, leader = rng.randrange(rules.players), rng.randrange(rules.players), rng.randrange(rules.players)
        pp = co_defender_pos(seat, maker, leader, n, rules)
        want = _revealed_by_legality(c, lambda hand: reference_legal_cards(hand, trick, trump, rules, pp))
        assert reference_card_reveals(trick, c, trump, rules, pp) & ~(1 << c) == want, (trick, c, trump, pp)


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


def test_shuffle_is_a_permutation_fixed_by_the_table_stream():
    rng = np.zeros(3, dtype=np.uint64)
    seed_tables(rng, np.uint64(12), 0)
    again = rng.copy()
    decks = np.zeros((3, 32), dtype=np.int64)
    for j in range(3):
        shuffle(decks[j], rng, j)
        assert sorted(decks[j].tolist()) == list(range(32))
    assert len({tuple(d) for d in decks.tolist()}) == 3  # the tables' streams differ
    d0 = np.zeros(32, dtype=np.int64)
    shuffle(d0, again, 0)
    assert d0.tolist() == decks[0].tolist()  # same stream, same deck
    # the Fisher-Yates draws: 31 draws below 32, 31, ..., 2 from table 1's stream
    seed_tables(again, np.uint64(12), 0)
    ref = list(range(32))
    for i in range(31, 0, -1):
        r = int(below(again, 1, i + 1))
        ref[i], ref[r] = ref[r], ref[i]
    assert ref == decks[1].tolist()


def test_mark_cards_sets_exactly_the_cards_of_the_mask():
    m = np.zeros(40, dtype=np.int8)
    cards = sorted(parse_card(c) for c in "AS 7S JH 9C 8D".split())
    mark_cards(m, _mask(cards))
    assert np.flatnonzero(m).tolist() == cards
    mark_cards(m, 0)
    assert int(m.sum()) == 5


def test_random_legal_reads_only_the_two_id_ranges_uniformly():
    n = 6000
    mask = np.zeros((n, 414), dtype=np.int8)
    mask[:, [3, 17, 413]] = 1
    mask[:, 200] = 1  # outside both ranges: never drawn, not counted
    rng = np.zeros(n, dtype=np.uint64)
    seed_tables(rng, np.uint64(5), 0)
    out = np.empty(n, dtype=np.int64)
    random_legal(mask, rng, out, 112, 412)
    ids, counts = np.unique(out, return_counts=True)
    assert ids.tolist() == [3, 17, 413]
    assert all(abs(c / n - 1 / 3) < 0.03 for c in counts)  # 6,000 draws: sd about 0.006
    empty = np.zeros((2, 414), dtype=np.int8)
    empty[1, 300] = 1  # only an unread id legal
    random_legal(empty, rng[:2], out[:2], 112, 412)
    assert out[:2].tolist() == [-1, -1]
    full = np.zeros((1, 112), dtype=np.int8)
    full[0, 111] = 1  # the four-seat call: one range, the whole row
    random_legal(full, rng[:1], out[:1], 112, 112)
    assert out[0] == 111


def test_clear_table_keeps_the_deal_count_and_sets_the_dealer():
    S = np.arange(20, dtype=np.int64).reshape(2, 10) + 1
    bids = np.full((2, 3, 2), 7, dtype=np.int64)
    clear_table(S, bids, 1, 4, 6, 2)
    assert S[1].tolist() == [0, 0, 0, 0, 15, 0, 2, 0, 0, 0]
    assert S[0].tolist() == list(range(1, 11))  # other tables untouched
    assert (bids[1] == -1).all() and (bids[0] == 7).all()
